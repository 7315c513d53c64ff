"""kernels.training.retrieval: hand-written backward passes against central finite differences, Adam/AdamW
determinism, and the Figure 1 protocol's validation and reproducibility."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.training.retrieval import (
    Adam,
    ffn_forward_backward,
    ffn_init,
    online_sample_complexity,
    transformer_forward_backward,
    transformer_init,
)


def _fd_check(fb, params, X, Y, rng, probes=6):
    _, _, g = fb(params, X, Y)
    for k, v in params.items():
        for _ in range(probes):
            idx = tuple(int(rng.integers(0, s)) for s in v.shape)
            old = v[idx]
            h = 1e-6
            v[idx] = old + h
            lp = fb(params, X, Y)[1]
            v[idx] = old - h
            lm = fb(params, X, Y)[1]
            v[idx] = old
            fd = (lp - lm) / (2 * h)
            assert g[k][idx] == pytest.approx(fd, rel=1e-4, abs=1e-8), k


def test_ffn_backward_matches_finite_differences():
    rng = np.random.default_rng(0)
    params = ffn_init(rng, 7, 9, 3)
    X, Y = rng.standard_normal((5, 7)), rng.standard_normal((5, 3))
    _fd_check(ffn_forward_backward, params, X, Y, rng)


@pytest.mark.parametrize("H", [1, 2])
def test_transformer_backward_matches_finite_differences(H):
    rng = np.random.default_rng(H)
    params = transformer_init(rng, 6, H, 4, 7)
    Z, Y = rng.standard_normal((3, 5, 6)), rng.standard_normal((3, 5))
    _fd_check(transformer_forward_backward, params, Z, Y, rng)


def test_adamw_decays_and_is_deterministic():
    p1, p2 = {"w": np.ones(3)}, {"w": np.ones(3)}
    o1, o2 = Adam(lr=0.1, weight_decay=0.5), Adam(lr=0.1, weight_decay=0.5)
    for _ in range(5):
        o1.step(p1, {"w": np.zeros(3)})
        o2.step(p2, {"w": np.zeros(3)})
    assert np.array_equal(p1["w"], p2["w"]) and np.allclose(p1["w"], 0.95**5)


def test_online_protocol_reproducible_and_validated():
    a = online_sample_complexity("tr", 2, 7, max_steps=30, check_every=10, test_prompts=50)
    b = online_sample_complexity("tr", 2, 7, max_steps=30, check_every=10, test_prompts=50)
    assert a == b
    with pytest.raises(ValueError, match="'arch'"):
        online_sample_complexity("rnn", 4, 0)
    with pytest.raises(ValueError, match="'N'"):
        online_sample_complexity("tr", 1, 0)
