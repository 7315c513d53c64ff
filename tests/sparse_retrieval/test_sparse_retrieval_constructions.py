"""kernels.constructions.retrieval_constructions: attention layer against a loop, the Lemma 11 construction's invariants
(property-based), Theorem 6's oracle identities, the recurrent retrieval chain, soft thresholds, the Lemma 38
interpolant, the Lemma-40 risk formula against Monte Carlo, the linear-state risk, and validation."""

from __future__ import annotations

from math import ceil, exp, log, sqrt

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels.sequence.qstr import assumption3_codes, encode_transformer
from kernels.constructions.retrieval_constructions import (
    attention_heads,
    birnn_states,
    ffn_inspan_risk,
    lemma11_alpha,
    lemma11_query_key,
    lemma11_readout_linear,
    lemma38_interpolant,
    linear_state_risk,
    quadratic_readout_risk,
    quadratic_readout_risk_mc,
    relu,
    rnn_exact_retrieval,
    soft_threshold,
    transformer_forward,
)


def _codes(rng, N):
    return assumption3_codes(rng, N, ceil(16 * log(max(N, 2))) + 8)


def test_attention_matches_loop():
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((2, 4, 5))
    W = rng.standard_normal((3, 5, 5))
    A = attention_heads(Z, W)
    for a in range(2):
        for i in range(4):
            for h in range(3):
                s = np.array([Z[a, i] @ W[h] @ Z[a, j] for j in range(4)])
                w = np.exp(s - s.max())
                assert np.allclose(A[a, i, h], (w / w.sum()) @ Z[a], atol=1e-12)


@given(N=st.integers(2, 24), q=st.integers(1, 3), d=st.integers(1, 4), seed=st.integers(0, 2**32 - 1))
def test_lemma11_construction_invariants(N, q, d, seed):
    rng = np.random.default_rng(seed)
    codes = _codes(rng, N)
    d_e = codes.shape[1]
    n = 3
    r_x = sqrt(3 * np.e * d * log(n * N))
    x = rng.standard_normal((n, N, d))
    nrm = np.linalg.norm(x, axis=2, keepdims=True)
    x = np.where(nrm > r_x, x * r_x / nrm, x)
    t = rng.integers(0, N, size=(n, N, q))
    u = rng.standard_normal((q, d))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    eps = 1e-4
    alpha = lemma11_alpha(q, d, 2 * q, 1.0, r_x, N, eps)
    W = lemma11_query_key(d, d_e, q, alpha)
    assert np.isclose(np.linalg.norm(W[0], axis=0).sum(), alpha * d_e)
    Z = encode_transformer(x, t, codes)
    heads = attention_heads(Z, W)
    tgt = np.take_along_axis(x[:, :, None, :], t.reshape(n, N * q)[:, :, None, None], axis=1).reshape(n, N, q, d)
    assert np.linalg.norm(heads[..., :d] - tgt, axis=3).max() <= 2 * (N - 1) * r_x * exp(-alpha * d / (2 * q)) * (1 + 1e-9)
    a, W2, b2 = lemma11_readout_linear(u, W.shape[1])
    y = np.einsum("anld,ld->an", tgt, u)
    assert np.abs(transformer_forward(Z, W, a, W2, b2) - y).max() <= 2 * sqrt(eps)


@given(N=st.integers(1, 6), d=st.integers(1, 4), seed=st.integers(0, 2**32 - 1))
def test_ffn_oracle_identities(N, d, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, N * d + 1))
    Q, _ = np.linalg.qr(rng.standard_normal((N * d, n)))
    avg, sup, ev = ffn_inspan_risk(Q.T, N, d)
    assert avg == pytest.approx(1 - n / (N * d), abs=1e-10)
    assert sup >= avg - 1e-10 and ev.sum() == pytest.approx(n)


@given(N=st.integers(2, 60), q=st.integers(1, 4), seed=st.integers(0, 2**32 - 1))
def test_rnn_chain_reconstructs_every_position(N, q, seed):
    rng = np.random.default_rng(seed)
    codes = _codes(rng, N)
    x = rng.standard_normal((2, N, 2))
    t = rng.integers(0, N, size=(2, q))
    hf, hb, psi = rnn_exact_retrieval(x, t, codes)
    tgt = np.take_along_axis(x, t[:, :, None], axis=1)[:, None]
    assert np.abs(hf + hb + psi - tgt).max() <= 1e-12 * np.abs(x).max()


def test_birnn_wiring_and_projection():
    rng = np.random.default_rng(3)
    M = rng.standard_normal((4, 3))
    f = lambda h, z: 5 * (M @ z)
    z = rng.standard_normal((6, 3))
    hf, hb = birnn_states(z, f, f, 1.0, 4)
    assert np.all(np.linalg.norm(hf, axis=1) <= 1 + 1e-12) and np.all(hf[0] == 0) and np.all(hb[-1] == 0)
    with pytest.raises(ValueError, match="'d_h'"):
        birnn_states(z, f, f, 1.0, 0)


@given(z=st.floats(-10, 10), b=st.floats(0, 5))
def test_soft_threshold(z, b):
    s = soft_threshold(z, b)
    if abs(z) <= b:
        assert s == 0
    assert abs(z - s) <= b + 1e-12


@given(n=st.integers(1, 30), seed=st.integers(0, 2**32 - 1))
def test_lemma38_interpolates(n, seed):
    rng = np.random.default_rng(seed)
    z = np.sort(rng.uniform(-5, 5, n)) + np.arange(n) * 1e-3
    y = rng.standard_normal(n)
    a, w, b = lemma38_interpolant(z, y)
    assert np.allclose(relu(np.outer(np.sort(z), w) + b) @ a, y[np.argsort(z)], atol=1e-7 * (1 + np.abs(y).max()))


def test_quadratic_risk_formula_against_mc_and_identity():
    rng = np.random.default_rng(1)
    V = rng.standard_normal((2, 6))
    mc, se = quadratic_readout_risk_mc(rng, V, np.arange(6), 200000)
    exact = quadratic_readout_risk(V, np.arange(6))
    assert exact == pytest.approx(2 * (6 - 2))  # Var(||x||^2 | Vx) = 2 (k - rank)
    assert abs(mc - exact) <= 5 * se
    V2 = rng.standard_normal((3, 8))
    mc, se = quadratic_readout_risk_mc(rng, V2, np.arange(4), 200000)
    assert abs(mc - quadratic_readout_risk(V2, np.arange(4))) <= 5 * se


def test_linear_state_risk_tight():
    N, d = 7, 2
    u = np.array([0.6, 0.8])
    A = np.zeros((3, (N - 1) * d))
    for k in range(3):
        A[k, k * d:(k + 1) * d] = u
    assert linear_state_risk(A, N, d, u) == pytest.approx(1 - 3 / (N - 1))
    with pytest.raises(ValueError, match="'A'"):
        linear_state_risk(np.zeros((2, 5)), N, d, u)


def test_validation():
    with pytest.raises(ValueError, match="'W'"):
        attention_heads(np.zeros((1, 3, 4)), np.zeros((1, 3, 3)))
    with pytest.raises(ValueError, match="'eps'"):
        lemma11_alpha(1, 1, 1, 1, 1, 4, 0.0)
    with pytest.raises(ValueError, match="'V'"):
        ffn_inspan_risk(np.zeros((2, 5)), 2, 2)
    with pytest.raises(ValueError, match="'z'"):
        lemma38_interpolant(np.array([1.0, 1.0]), np.array([0.0, 1.0]))


@given(n=st.integers(1, 3), N=st.integers(1, 9), D=st.integers(1, 6), H=st.integers(1, 3), seed=st.integers(0, 2**32 - 1))
def test_attention_numba_matches_numpy_reference(n, N, D, H, seed):
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((n, N, D))
    W = rng.standard_normal((H, D, D)) * 2
    assert np.allclose(attention_heads(Z, W, backend="cpu"), attention_heads(Z, W), rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="'backend'"):
        attention_heads(Z, W, backend="cuda-ish")
