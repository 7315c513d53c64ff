"""kernels.training.retrieval, bidirectional GRU (the recurrent model of seed 002 Figure 1): hand-written
backpropagation through time against central finite differences on random small shapes (hypothesis), the
direction structure (forward state at i sees z_1..z_i only, backward state z_i..z_N only), the row-blocked
product, validation, and reproducibility of the Figure 1 protocol with arch='gru'."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels.training.retrieval import (
    _rowblock_matmul,
    bigru_forward_backward,
    bigru_init,
    online_sample_complexity,
)


@given(n=st.integers(1, 3), N=st.integers(1, 4), D=st.integers(1, 4), H=st.integers(1, 3), seed=st.integers(0, 2**16))
def test_bigru_backward_matches_central_differences(n, N, D, H, seed):
    """Every parameter entry: |analytic - central difference (h = 1e-6)| <= 1e-6 (1 + |grad|).  The loss is a
    smooth O(1) function, so the central difference's truncation error is O(h^2 * 1) ~ 1e-12 and its rounding
    error O(eps_64 / h) ~ 1e-10; 1e-6 leaves four orders of margin and still rejects any wrong term (O(1))."""
    rng = np.random.default_rng(seed)
    params = bigru_init(rng, D, H)
    for v in params.values():  # larger weights than torch's init so that every gate is far from linear
        v *= 3.0
    Z, Y = rng.standard_normal((n, N, D)), rng.standard_normal((n, N))
    _, _, g = bigru_forward_backward(params, Z, Y)
    assert set(g) == set(params)
    h = 1e-6
    for k, v in params.items():
        assert g[k].shape == v.shape, k
        for idx in np.ndindex(v.shape):
            old = v[idx]
            v[idx] = old + h
            lp = bigru_forward_backward(params, Z, Y)[1]
            v[idx] = old - h
            lm = bigru_forward_backward(params, Z, Y)[1]
            v[idx] = old
            fd = (lp - lm) / (2 * h)
            assert abs(g[k][idx] - fd) <= 1e-6 * (1 + abs(fd)), (k, idx, g[k][idx], fd)


def test_bigru_gate_equations_match_a_direct_loop():
    """Forward pass against a per-prompt loop written from torch's nn.GRU equations (gates r, z, n)."""
    rng = np.random.default_rng(3)
    D, H, N = 4, 3, 5
    p = bigru_init(rng, D, H)
    Z = rng.standard_normal((2, N, D))
    out = bigru_forward_backward(p, Z)

    def sig(x):
        return 1 / (1 + np.exp(-x))

    def run(zs, s):
        h, hs = np.zeros(H), []
        for x in zs:
            gx, gh = p[f"Wx_{s}"] @ x + p[f"bx_{s}"], p[f"Wh_{s}"] @ h + p[f"bh_{s}"]
            r, u = sig(gx[:H] + gh[:H]), sig(gx[H:2 * H] + gh[H:2 * H])
            c = np.tanh(gx[2 * H:] + r * gh[2 * H:])
            h = (1 - u) * c + u * h
            hs.append(h)
        return np.array(hs)

    for a in range(2):
        hf, hb = run(Z[a], "f"), run(Z[a, ::-1], "b")[::-1]
        ref = hf @ p["a"][:H] + hb @ p["a"][H:] + p["c"][0]
        np.testing.assert_allclose(out[a], ref, rtol=1e-12, atol=1e-12)


def test_bigru_directions_see_the_right_tokens():
    """Changing z_j changes y_hat_i for every i (bidirectional), but with the backward readout zeroed only i >= j."""
    rng = np.random.default_rng(4)
    p = bigru_init(rng, 3, 4)
    Z = rng.standard_normal((1, 6, 3))
    Z2 = Z.copy()
    Z2[0, 2] += 1.0
    assert np.all(bigru_forward_backward(p, Z) != bigru_forward_backward(p, Z2))
    p["a"][4:] = 0.0
    d = bigru_forward_backward(p, Z) - bigru_forward_backward(p, Z2)
    assert np.all(d[0, :2] == 0) and np.all(d[0, 2:] != 0)


@pytest.mark.parametrize("M", [1, 63, 64, 130])
def test_rowblock_matmul_matches_matmul(M):
    rng = np.random.default_rng(M)
    A, B = rng.standard_normal((M, 7)), rng.standard_normal((7, 5))
    np.testing.assert_allclose(_rowblock_matmul(A, B), A @ B, rtol=1e-13, atol=1e-13)


def test_bigru_validation_and_protocol():
    with pytest.raises(ValueError, match="'H'"):
        bigru_init(np.random.default_rng(0), 3, 0)
    with pytest.raises(ValueError, match="'D'"):
        bigru_init(np.random.default_rng(0), 0, 3)
    c1, c2 = [], []
    a = online_sample_complexity("gru", 2, 5, max_steps=20, check_every=10, test_prompts=40, gru_hidden=4, curve=c1)
    b = online_sample_complexity("gru", 2, 5, max_steps=20, check_every=10, test_prompts=40, gru_hidden=4, curve=c2)
    assert a == b and c1 == c2 and [m for m, _ in c1] == [640, 1280][: len(c1)]
    with pytest.raises(ValueError, match="'arch'"):
        online_sample_complexity("lstm", 4, 0)


def test_gru_learns_n2_quickly():
    """At N = 2 the online GRU reaches the Figure 1a threshold 0.7 well inside 300 steps (paper: <~1k prompts)."""
    n = online_sample_complexity("gru", 2, 11, max_steps=300, test_prompts=300)
    assert n is not None and n <= 300 * 64
