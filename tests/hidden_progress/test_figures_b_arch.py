"""The architecture settings of thesis Figs. B.3-B.5 (verify/hidden_progress/figures_b_arch.py): each one-neuron
activation represents the k-sparse parity with w = w_S (Section 5.3.1, App. B.4.1), the settings map to the
engine's arguments, and the 10th-percentile and scaling-fit helpers follow their definitions."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from verify.hidden_progress.figures_b_arch import SETTINGS, architecture, q10, scaling_fit


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("setting", ["vii", "viii", "ix", "x"])
def test_single_neuron_activations_represent_the_parity(setting, k):
    act = architecture(setting, k)["activation"]
    for x in itertools.product((-1, 1), repeat=k):
        assert act(np.array([float(sum(x))]))[0] == pytest.approx(math.prod(x), abs=1e-9)


@pytest.mark.parametrize("k", [2, 3, 4])
def test_settings_map_to_the_engine(k):
    widths = {"i": 10, "ii": 100, "iii": 1000, "iv": 10, "v": 100, "vi": 1000, "*i": k, "*ii": k}
    for s in SETTINGS:
        arch = architecture(s, k)
        if s == "xv":
            assert arch == {"polynet": True}
        elif s in widths:
            assert arch["width"] == widths[s]
        else:
            assert arch["width"] == 1 and arch.get("second_layer", True) == (s in ("vii", "viii", "ix", "x"))
    assert architecture("iv", k)["activation"].params == tuple([0.0] * k + [1.0])


def test_q10_is_the_inverted_cdf_quantile_and_respects_censoring():
    tc = np.array([50.0, 10.0, 40.0, 30.0, 20.0] * 5)  # 25 runs: the 3rd smallest
    assert q10(tc) == 10.0
    assert q10(np.arange(1.0, 26.0)) == 3.0
    assert q10(np.r_[np.arange(1.0, 3.0), np.full(23, np.inf)]) == math.inf
    assert q10(np.arange(1.0, 11.0)) == 1.0


def test_scaling_fit_follows_line_4024():
    c, a = scaling_fit({10: 20.0, 20: 20.0 * 11 ** 0.5, 30: 20.0 * 21 ** 0.7})
    assert c == 20.0 and a == pytest.approx(0.7)
    c, a = scaling_fit({10: 20.0, 20: 20.0 * 11 ** 1.2, 30: 20.0 * 21 ** 0.7})
    assert a == pytest.approx(1.2)
    assert all(math.isnan(v) for v in scaling_fit({10: 20.0, 20: math.inf, 30: 50.0}))
