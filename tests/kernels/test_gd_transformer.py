"""kernels.constructions.gd_transformer: the explicit ICGD block.  Property tests over random networks, prompts and step
sizes: with exact approximants (r(t) = t) one block is exactly projected GD; with interpolants the
step error shrinks with the accuracy; the slots of the token keep their invariants; the layer forms
agree with their token-wise definitions; validation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels.constructions import deep_gd as G
from kernels.constructions import gd_transformer as T
from kernels.constructions import relu_approx as RA


def _prompt(rng, N, K, d_in, d_out, n, box):
    Vs = G.random_network(rng, N, K, d_in, d_out, box=box)
    X = rng.uniform(-1, 1, size=(n, d_in))
    Y = rng.uniform(-1, 1, size=(n, d_out))
    return Vs, X, Y, rng.uniform(-1, 1, size=d_in)


@given(st.integers(2, 4), st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.integers(1, 6),
       st.floats(0.01, 1.0), st.integers(0, 2**31 - 1))
def test_exact_approximants_give_projected_gd(N, K, d_in, d_out, n, eta, seed):
    rng = np.random.default_rng(seed)
    box = 0.5
    Vs, X, Y, xt = _prompt(rng, N, K, d_in, d_out, n, box)
    act = G.ACTIVATIONS["linear"]
    lay = T.Layout(N, K, d_in, d_out)
    w = G.flatten(Vs)
    layers = T.build_block(lay, n, eta, RA.affine_exact(1.0), RA.affine_exact(0.0, 1.0), RA.squared_loss_derivative(),
                           R3=10.0, box=box)
    H = T.run_layers(layers, T.embed_prompt(lay, X, Y, xt, w))
    target = np.clip(w - eta * G.flatten(G.backprop_gradient(Vs, X, Y, act)), -box, box)
    assert np.abs(H[lay.w:lay.w + lay.offsets[-1]] - target[:, None]).max() <= 1e-12 * (1 + np.abs(target).max())
    assert np.all(H[lay.scratch] == 0.0)
    fixed = np.r_[np.arange(lay.x, lay.w), [lay.one, lay.t]]
    assert np.array_equal(H[fixed], T.embed_prompt(lay, X, Y, xt, w)[fixed])


@given(st.sampled_from(["tanh", "softplus", "sin"]), st.integers(0, 2**31 - 1))
def test_interpolant_error_shrinks(act_name, seed):
    rng = np.random.default_rng(seed)
    Vs, X, Y, xt = _prompt(rng, 2, 2, 2, 1, 4, 0.7)
    act = G.ACTIVATIONS[act_name]
    lay = T.Layout(2, 2, 2, 1)
    w = G.flatten(Vs)
    grad = G.flatten(G.backprop_gradient(Vs, X, Y, act))
    errs = []
    for H_ in (8, 64):
        layers = T.build_block(lay, 4, 0.1, RA.pl_interpolant(act.f, 3.0, H_), RA.pl_interpolant(act.df, 3.0, H_),
                               RA.squared_loss_derivative(), R3=4.0, box=0.7)
        Hs = T.run_layers(layers, T.embed_prompt(lay, X, Y, xt, w), keep=True)[1]
        w_pre = Hs[2 * 2 + 3][lay.w:lay.w + lay.offsets[-1], 0]
        errs.append(np.linalg.norm((w - w_pre) / 0.1 - grad))
    assert errs[1] < errs[0] / 4


@given(st.integers(1, 4), st.integers(2, 6), st.integers(1, 4), st.integers(2, 6), st.integers(0, 2**31 - 1))
def test_layers_match_token_forms(M, D, q, Tn, seed):
    rng = np.random.default_rng(seed)
    Q, K = rng.normal(size=(M, q, D)), rng.normal(size=(M, q, D))
    U, W = rng.normal(size=(M, D, 2)), rng.normal(size=(M, D, 2))
    H = rng.normal(size=(D, Tn))
    attn = T.ReLUAttention(Q, K, U, W)
    ewml = T.EWML(Q, K, U, W)
    V = attn.V
    tok_a = H.copy()
    tok_e = H.copy()
    for i in range(Tn):
        for m in range(M):
            tok_e[:, i] += (Q[m] @ H[:, i]) @ (K[m] @ H[:, i]) * (V[m] @ H[:, i])
            for s in range(Tn):
                tok_a[:, i] += max(0.0, (Q[m] @ H[:, i]) @ (K[m] @ H[:, s])) * (V[m] @ H[:, s]) / Tn
    assert np.allclose(attn(H), tok_a, rtol=1e-12, atol=1e-12)
    assert np.allclose(ewml(H), tok_e, rtol=1e-12, atol=1e-12)


def test_layer_counts_and_norm():
    lay = T.Layout(3, 2, 2, 1)
    layers = T.build_block(lay, 3, 0.1, RA.pl_interpolant(np.tanh, 2.0, 4), RA.pl_interpolant(np.tanh, 2.0, 4),
                           RA.squared_loss_derivative(), R3=2.0, box=0.5)
    assert len(layers) == 2 * 3 + 4
    assert lay.D == 2 + 2 * 1 + lay.offsets[-1] + 3 * ((3 - 1) * 2 + 1) + 2
    assert [L.heads for L in layers][:3] == [2 * 5, 2 * 5, 1 * 5]
    assert all(T.layer_norm_B(L) >= 0 for L in layers)


def test_validation():
    lay = T.Layout(2, 2, 1, 1)
    r = RA.pl_interpolant(np.tanh, 1.0, 2)
    with pytest.raises(ValueError, match="'n'"):
        T.build_block(lay, 0, 0.1, r, r, RA.squared_loss_derivative(), 1.0, 1.0)
    with pytest.raises(ValueError, match="'eta'"):
        T.build_block(lay, 3, -0.1, r, r, RA.squared_loss_derivative(), 1.0, 1.0)
    with pytest.raises(ValueError, match="'r_hat'"):
        T.build_block(lay, 3, 0.1, RA.squared_loss_derivative(), r, RA.squared_loss_derivative(), 1.0, 1.0)
    with pytest.raises(ValueError, match="'w'"):
        T.embed_prompt(lay, np.zeros((3, 1)), np.zeros((3, 1)), np.zeros(1), np.zeros(3))
