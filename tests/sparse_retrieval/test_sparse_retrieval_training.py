"""kernels.training.retrieval: hand-written backward passes against central finite differences, Adam/AdamW
determinism, and the Figure 1 protocol's validation and reproducibility."""

from __future__ import annotations

import copy
import platform

import numpy as np
import pytest

from kernels.training.retrieval import (
    Adam,
    _transformer_forward_backward_einsum,
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


@pytest.mark.parametrize("shape", [(64, 8, 30, 1, 30, 100), (500, 4, 22, 1, 22, 100), (3, 5, 7, 2, 9, 11),
                                   (2, 16, 31, 3, 17, 5), (1, 2, 2, 1, 2, 2), (4, 3, 1, 2, 1, 3)])
def test_transformer_kernels_equal_the_einsum_form(shape):
    """The numba contractions sum in numpy einsum's order: same bits as the einsum form (x86-64, numpy's
    baseline SSE2 einsum loop; elsewhere agreement to rounding)."""
    n, N, D, H, Dk, m = shape
    rng = np.random.default_rng(sum(shape))
    params = transformer_init(rng, D, H, Dk, m)
    Z, Y = rng.standard_normal((n, N, D)), rng.standard_normal((n, N))
    a, b = _transformer_forward_backward_einsum(params, Z, Y), transformer_forward_backward(params, Z, Y)
    exact = platform.machine() in ("x86_64", "AMD64")
    for x, y in [(a[0], b[0]), (np.array(a[1]), np.array(b[1])), (_transformer_forward_backward_einsum(params, Z),
                 transformer_forward_backward(params, Z))] + [(a[2][k], b[2][k]) for k in a[2]]:
        assert x.shape == y.shape
        if exact:
            assert np.array_equal(x, y)
        else:
            np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-14)


def test_adam_compiled_step_equals_numpy_form():
    """Adam.step's compiled path (contiguous float64) against the numpy form of the same operations, bit for bit;
    a non-contiguous parameter takes the numpy path."""
    rng = np.random.default_rng(11)
    for wd, lr in ((0.0, 1e-3), (0.01, 0.1)):
        P = {"W": rng.standard_normal((9, 4)), "c": rng.standard_normal(3)}
        P0, m0, v0 = copy.deepcopy(P), {k: np.zeros_like(x) for k, x in P.items()}, {k: np.zeros_like(x) for k, x in P.items()}
        opt = Adam(lr=lr, weight_decay=wd)
        for t in range(1, 20):
            G = {k: rng.standard_normal(x.shape) * 10.0 ** rng.integers(-5, 2) for k, x in P.items()}
            opt.step(P, G)
            for k, g in G.items():
                m0[k] = m0[k] * 0.9 + (1 - 0.9) * g
                v0[k] = v0[k] * 0.999 + (1 - 0.999) * g * g
                mh, vh = m0[k] / (1 - 0.9**t), v0[k] / (1 - 0.999**t)
                P0[k] = P0[k] - lr * (mh / (np.sqrt(vh) + 1e-8) + wd * P0[k])
            for k in P:
                assert np.array_equal(P[k], P0[k]) and np.array_equal(opt.m[k], m0[k]) and np.array_equal(opt.v[k], v0[k])
    base = rng.standard_normal((6, 4))
    P, Q = {"w": base[:, ::2]}, {"w": base[:, ::2].copy()}
    o1, o2 = Adam(lr=0.1, weight_decay=0.5), Adam(lr=0.1, weight_decay=0.5)
    for _ in range(3):
        g = rng.standard_normal((6, 2))
        o1.step(P, {"w": g})
        o2.step(Q, {"w": g.copy()})
    assert np.array_equal(P["w"], Q["w"]) and np.shares_memory(P["w"], base)


def test_online_protocol_reproducible_and_validated():
    a = online_sample_complexity("tr", 2, 7, max_steps=30, check_every=10, test_prompts=50)
    b = online_sample_complexity("tr", 2, 7, max_steps=30, check_every=10, test_prompts=50)
    assert a == b
    with pytest.raises(ValueError, match="'arch'"):
        online_sample_complexity("rnn", 4, 0)
    with pytest.raises(ValueError, match="'N'"):
        online_sample_complexity("tr", 1, 0)
