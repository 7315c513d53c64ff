"""Helpers of verify.sm_approximation.turing: the brute-force i', the stated stage vectors and the fixed
adversarial machines (seed 000, Appendix C)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from kernels.constructions import tm_transformer as TT
from verify.sm_approximation import turing as V


@given(st.lists(st.integers(0, 5), min_size=2, max_size=40))
def test_i_prime_matches_a_last_write_table(locs):
    l = np.array(locs)
    last = {}
    for i in range(1, len(l)):
        last[int(l[i - 1])] = i  # step i writes on cell l_{i-1}
        want = 0
        for t in range(1, i + 1):
            if l[t - 1] == l[i]:
                want = t
        assert V.i_prime(l, i) == want
        assert want == (last.get(int(l[i]), 0))


def test_fixed_machines_behave_as_described():
    sim = TT.simulate(V.runner(), [2], 16)
    assert list(sim["l"]) == list(range(17))
    sim = TT.simulate(V.toggler(), [2], 12)
    assert set(sim["l"][1:].tolist()) == {0, 1}
    writes_on_1 = [int(sim["u"][i]) for i in range(1, 13) if sim["l"][i - 1] == 1]
    assert writes_on_1[:4] == [3, 2, 3, 2]
    sim = TT.simulate(V.sweeper(), [3, 3, 2, 3], 16)
    assert sim["output"] == 1  # re-reads the overwritten cells (all 2 now) and accepts on the blank


def test_stage_vectors_agree_with_the_compiled_decoder():
    tm = V.toggler()
    sim = TT.simulate(tm, [2], 12)
    model = TT.compile_transformer(tm, 12)
    out = TT.run_transformer(model, [2], keep_layers=True)
    for i in range(1, 13):
        for stage in ("C.1", "C.2", "C.4", "C.5", "C.6", "C.7", "C.8"):
            assert np.array_equal(V.stage_vector(model, sim, [2], i, stage), V._stage_of(model, out["layers"][i - 1], stage))


def test_module_norm_ratios_do_not_grow():
    for stage in ("C.1", "C.2", "C.4", "C.5", "C.6", "C.7", "C.8"):
        r = [x for _, x in V.norm_ratios(stage)]
        assert max(r) <= 2 * r[0]
