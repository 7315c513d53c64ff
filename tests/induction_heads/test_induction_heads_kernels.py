"""kernels.training.induction: the transformer (8.4)-(8.5), the Prop. 8.2 construction, the margin loss
and the softmax minimal model's backward pass (against finite differences)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.sequence.markov_icl import sample_chains, sample_transition_matrices
from kernels.training.induction import (
    Layer,
    bigram_construction,
    bigram_limit,
    init_transformer,
    margin_loss,
    softmax_minimal_forward,
    softmax_minimal_loss_grad,
    train_softmax_minimal,
    train_transformer,
    transformer_forward,
    transformer_logits,
    transformer_loss_grad,
)

SETTINGS = settings(max_examples=15, deadline=None, derandomize=True)


@SETTINGS
@given(st.integers(2, 4), st.lists(st.integers(0, 3), min_size=1, max_size=9))
def test_hard_attention_construction_equals_limit_exactly(k, seq):
    seq = [s % k for s in seq]
    L, R = bigram_construction(k, len(seq), 1.0)
    out = transformer_forward(np.array([seq]), k, L, R, hard=True)[0]
    lim = bigram_limit(seq, k)
    assert all(out[i, j] == lim[i][j] for i in range(len(seq)) for j in range(k))
    assert all(sum(row) == 1 for row in lim)


@SETTINGS
@given(st.integers(2, 5), st.integers(2, 60), st.floats(0.1, 5.0), st.integers(0, 10_000))
def test_finite_c_construction_close_to_limit_and_equivariant(k, t, alpha, seed):
    rng = np.random.default_rng(seed)
    x = sample_chains(rng, sample_transition_matrices(rng, k, 2, alpha=alpha), t)
    c = 160.0
    L, R = bigram_construction(k, t, c)
    out = transformer_forward(x, k, L, R)
    lim = np.array([[[float(v) for v in row] for row in bigram_limit(list(s), k)] for s in x])
    assert np.abs(out - lim).max() <= 1e-9
    assert np.allclose(out.sum(-1), 1)
    perm = rng.permutation(k)
    outp = transformer_forward(perm[x], k, L, R)
    assert np.allclose(outp[..., perm], out, atol=1e-9)


def test_margin_loss_linear_regime():
    f = np.array([Fraction(3), Fraction(-1), Fraction(2)], dtype=object)
    y = np.array(1)
    delta = Fraction(4)
    assert margin_loss(f, y, delta) == Fraction(2, 3) * delta + sum(f) / 3 - f[1]
    assert margin_loss(np.array([0.0, 5.0]), np.array(1), 1.0) == 0


def test_softmax_minimal_backward_matches_finite_differences():
    rng = np.random.default_rng(0)
    k, t = 3, 7
    x = rng.integers(0, k, size=(4, t + 1))
    W, v, beta = rng.normal(size=(k, k)), rng.normal(size=t), 1.3
    _, dW, dv, db = softmax_minimal_loss_grad(x[:, :-1], x[:, 1:], k, W, v, beta)
    h = 1e-6

    def loss(W_, v_, b_):
        return softmax_minimal_loss_grad(x[:, :-1], x[:, 1:], k, W_, v_, b_)[0]

    for idx in np.ndindex(k, k):
        E = np.zeros((k, k))
        E[idx] = h
        assert abs((loss(W + E, v, beta) - loss(W - E, v, beta)) / (2 * h) - dW[idx]) < 1e-8
    for i in range(t):
        e = np.zeros(t)
        e[i] = h
        assert abs((loss(W, v + e, beta) - loss(W, v - e, beta)) / (2 * h) - dv[i]) < 1e-8
    assert abs((loss(W, v, beta + h) - loss(W, v, beta - h)) / (2 * h) - db) < 1e-8


def test_softmax_minimal_at_init_is_uniform_and_training_is_reproducible():
    k, t = 2, 8
    x = np.random.default_rng(1).integers(0, k, size=(3, t))
    logits, _ = softmax_minimal_forward(x, k, np.zeros((k, k)), np.zeros(t), 0.0)
    assert (logits == 0).all()

    def batch(rng, b):
        return sample_chains(rng, sample_transition_matrices(rng, k, b), t + 1)

    runs = [train_softmax_minimal(np.random.default_rng(7), batch, k, t, 5, batch=8, lr=0.01)[0] for _ in range(2)]
    assert all((a == b).all() for a, b in zip(runs[0][:2], runs[1][:2])) and runs[0][2] == runs[1][2]


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: bigram_construction(1, 5, 1.0), "'k'"),
        (lambda: bigram_construction(2, 5, 1.0, offset=0), "'offset'"),
        (lambda: transformer_forward(np.zeros(3, dtype=int), 2, *bigram_construction(2, 3, 1.0)), "'x'"),
        (lambda: transformer_forward(np.zeros((1, 9), dtype=int), 2, *bigram_construction(2, 3, 1.0)), "'layers'"),
        (lambda: train_softmax_minimal(np.random.default_rng(0), None, 2, 1, 3), "'t'"),
    ],
)
def test_bad_arguments_are_named(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_transformer_backward_matches_finite_differences():
    rng = np.random.default_rng(0)
    k, d, t = 3, 4, 5
    params = init_transformer(rng, k, d, t, scale=0.5)
    x = rng.integers(0, k, size=(2, t + 1))
    _, g = transformer_loss_grad(params, x[:, :-1], x[:, 1:])
    h = 1e-6
    for key, val in params.items():
        for idx in list(np.ndindex(*val.shape))[::3]:
            plus = {kk: vv.copy() for kk, vv in params.items()}
            minus = {kk: vv.copy() for kk, vv in params.items()}
            plus[key][idx] += h
            minus[key][idx] -= h
            num = (transformer_loss_grad(plus, x[:, :-1], x[:, 1:])[0] - transformer_loss_grad(minus, x[:, :-1], x[:, 1:])[0]) / (2 * h)
            assert abs(num - g[key][idx]) < 1e-8, (key, idx)


def test_transformer_logits_match_the_reference_forward():
    rng = np.random.default_rng(2)
    k, d, t = 2, 6, 7
    params = init_transformer(rng, k, d, t, scale=0.3)
    params["emb"] = np.eye(k, d)  # one-hot embedding: then (8.4)-(8.5) is transformer_forward
    x = rng.integers(0, k, size=(3, t))
    layers = [Layer(params[f"WQ{i}"], params[f"WK{i}"], params[f"WV{i}"], params[f"pos{i}"]) for i in range(2)]
    assert np.allclose(transformer_logits(params, x)[0], transformer_forward(x, k, layers, params["readout"]), atol=1e-12)

    def batch(r, b):
        return sample_chains(r, sample_transition_matrices(r, k, b), t + 1)

    a, _ = train_transformer(np.random.default_rng(3), batch, params, 3, batch=4)
    b, _ = train_transformer(np.random.default_rng(3), batch, params, 3, batch=4)
    assert all((a[key] == b[key]).all() for key in a)


# the numba twins of the softmax minimal model's einsum contractions (kernels.training._einsum_order): bit for
# bit np.einsum for k = 2 (the shapes of the trainer and the evaluations, and others)
_TWIN_SHAPES = {"ij,njk->nik": lambda n, t, k: [(t, t), (n, t, k)], "npk,nqk->npq": lambda n, t, k: [(n, t, k), (n, t, k)],
                "npq,nqk->npk": lambda n, t, k: [(n, t, t), (n, t, k)], "npq,npk->nqk": lambda n, t, k: [(n, t, t), (n, t, k)],
                "npi,npk->ik": lambda n, t, k: [(n, t, k), (n, t, k)], "nik,njk->ij": lambda n, t, k: [(n, t, k), (n, t, k)]}


@pytest.mark.parametrize("n,t", [(64, 30), (300, 30), (1, 30), (64, 100), (3, 2), (5, 200)])
def test_einsum_twins_equal_einsum(n, t):
    from kernels.training.induction import _EINSUM_TWINS, _einsum

    rng = np.random.default_rng(n * 1000 + t)
    for spec, shapes in _TWIN_SHAPES.items():
        a, b = (rng.standard_normal(s) for s in shapes(n, t, 2))
        assert np.array_equal(_EINSUM_TWINS[spec](a, b), np.einsum(spec, a, b)), spec
        a3, b3 = (rng.standard_normal(s) for s in shapes(n, t, 3))
        assert np.array_equal(_einsum(spec, a3, b3, 3), np.einsum(spec, a3, b3)), spec  # k != 2: np.einsum itself


def test_minimal_loss_grad_equals_the_einsum_formulation(monkeypatch):
    """softmax_minimal_loss_grad with the twins equals the same function with np.einsum (k = 2, a trained point)."""
    import kernels.training.induction as ind

    rng = np.random.default_rng(5)
    k, t = 2, 30
    x = sample_chains(rng, sample_transition_matrices(rng, k, 64), t + 1)
    W, v, beta = rng.normal(0, 1, (k, k)), rng.normal(0, 1, t), 1.7
    fast = softmax_minimal_loss_grad(x[:, :-1], x[:, 1:], k, W, v, beta)
    monkeypatch.setattr(ind, "_einsum", lambda spec, a, b, k: np.einsum(spec, a, b))
    slow = softmax_minimal_loss_grad(x[:, :-1], x[:, 1:], k, W, v, beta)
    assert fast[0] == slow[0] and fast[3] == slow[3]
    assert np.array_equal(fast[1], slow[1]) and np.array_equal(fast[2], slow[2])
