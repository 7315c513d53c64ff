"""kernels.training.induction_priors (Fig. 8.4 (a) of the thesis): the per-position prior stream against its Python
reference, the laws of the three priors, the transformer trainer against the numpy reference, run independence,
argument checks; and the doubly-stochastic sampler of kernels.sequence.markov_icl."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.sequence.markov_icl import complete_doubly, doubly_accept, sample_transition_matrices
from kernels.training.induction import transformer_loss_grad
from kernels.training.induction_priors import prior_batch, prior_batch_reference, train_transformer_prior_runs

TOL = 1e-9


@pytest.mark.parametrize("seed, step, k, codes, length", [(0, 0, 2, [0, 1, 2, 2], 9), (12345, 7, 3, [2, 0, 1, 2, 2], 6),
                                                          (2**64 - 1, 2**40, 4, [2, 2, 1, 0, 2, 2], 5), (5, 3, 5, [2, 2], 4)])
def test_prior_batch_equals_the_python_reference(seed, step, k, codes, length):
    x, P = prior_batch(seed, step, k, codes, length)
    xr, Pr = prior_batch_reference(seed, step, k, codes, length)
    assert np.array_equal(x, xr)
    assert np.allclose(P, Pr, rtol=0, atol=1e-14)
    x2, _ = prior_batch(seed, step, k, codes, length)
    assert np.array_equal(x, x2) and not np.array_equal(x, prior_batch(seed, step + 1, k, codes, length)[0])


def test_prior_batch_sample_depends_on_its_position_and_code_only():
    x, P = prior_batch(3, 1, 4, [0, 2, 1, 2], 8)
    y, Q = prior_batch(3, 1, 4, [1, 2, 0, 2], 8)
    assert np.array_equal(x[1], y[1]) and np.array_equal(x[3], y[3]) and np.array_equal(P[1], Q[1])


def test_prior_laws():
    """doubly: rows and columns sum to 1, entries >= 0, E P_ij = 1/k, first state uniform (5 sigma); unigram: all rows
    equal; dirichlet: rows sum to 1 and the columns do not."""
    k, n = 4, 3000
    x, P = prior_batch(11, 0, k, [2] * n, 3)
    assert (P >= 0).all() and np.allclose(P.sum(1), 1) and np.allclose(P.sum(2), 1)
    assert np.abs(P.mean(0) - 1 / k).max() <= 5 * P.std(0).max() / np.sqrt(n)
    freq = np.bincount(x[:, 0], minlength=k) / n
    assert np.abs(freq - 1 / k).max() <= 5 * np.sqrt(1 / k / n)
    _, P1 = prior_batch(11, 0, k, [1] * 50, 3)
    assert np.allclose(P1, P1[:, :1, :]) and np.allclose(P1.sum(2), 1)
    _, P0 = prior_batch(11, 0, k, [0] * 50, 3)
    assert np.allclose(P0.sum(2), 1) and not np.allclose(P0.sum(1), 1)


def test_kernel_and_numpy_doubly_samplers_have_the_same_law():
    """Second moments E P_00^2 and E P_00 P_11 of the kernel's and numpy's uniform doubly-stochastic matrices (k = 3, 4)
    agree within 5 s.e."""
    for k in (3, 4):
        n = 4000
        _, A = prior_batch(1, 0, k, [2] * n, 2)
        B = sample_transition_matrices(np.random.default_rng(2), k, n, prior="doubly")
        for f in (lambda P: P[:, 0, 0] ** 2, lambda P: P[:, 0, 0] * P[:, 1, 1]):
            a, b = f(A), f(B)
            assert abs(a.mean() - b.mean()) <= 5 * np.sqrt(a.var() / n + b.var() / n)


def test_numpy_doubly_sampler_is_uniform_on_the_polytope():
    """k = 3: the law of the (k-1) x (k-1) block equals that of plain rejection from the unit box (5 s.e. on E B,
    E B_00^2), and completions are doubly stochastic."""
    rng = np.random.default_rng(0)
    P = sample_transition_matrices(rng, 3, 20000, prior="doubly")
    assert (P >= 0).all() and np.allclose(P.sum(1), 1) and np.allclose(P.sum(2), 1)
    box = rng.random((200000, 2, 2))
    ok = (box.sum(2) <= 1).all(1) & doubly_accept(box)
    ref = box[ok]
    assert np.allclose(complete_doubly(ref).sum(1), 1)
    for f in (lambda B: B[:, 0, 0], lambda B: B[:, 0, 0] ** 2, lambda B: B[:, 0, 1] * B[:, 1, 0]):
        a, b = f(P[:, :2, :2]), f(ref)
        assert abs(a.mean() - b.mean()) <= 5 * np.sqrt(a.var() / len(a) + b.var() / len(b))


@pytest.mark.parametrize("k, d, t, layers, steps, codes, lr", [(4, 4, 6, 2, 12, [2, 1, 2, 1], 0.02), (3, 3, 5, 1, 10, [2, 2, 0], [0.05, 0.01])])
def test_trainer_matches_the_numpy_reference(k, d, t, layers, steps, codes, lr):
    seeds = [7, 8]
    kw = {"layers": layers, "lr": lr, "init_scale": 0.3, "checkpoints": [0, steps // 2, steps]}
    c = train_transformer_prior_runs(seeds, k, d, t, steps, codes, backend="cpu", **kw)
    r = train_transformer_prior_runs(seeds, k, d, t, steps, codes, backend="reference", **kw)
    for key in r.params:
        assert np.allclose(c.params[key], r.params[key], rtol=0, atol=TOL), key
        assert np.allclose(c.params_at[key], r.params_at[key], rtol=0, atol=TOL), key
    assert max(np.abs(r.params[key] - r.params_at[key][:, 0]).max() for key in r.params) > 0.05
    xb, _ = prior_batch(seeds[0], steps // 2, k, codes, t + 1)
    p_mid = {key: val[0, 1] for key, val in r.params_at.items()}
    assert abs(c.train_loss[0, steps // 2] - transformer_loss_grad(p_mid, xb[:, :-1], xb[:, 1:])[0]) <= TOL
    kw["lr"] = lr[1:] if isinstance(lr, list) else lr
    a = train_transformer_prior_runs(seeds[1:], k, d, t, steps, codes, backend="cpu", **kw)
    assert all(np.array_equal(a.params[key][0], c.params[key][1]) for key in a.params)  # bit for bit, alone or batched


def test_gradient_on_a_prior_batch_against_finite_differences():
    rng = np.random.default_rng(0)
    from kernels.training.induction import init_transformer

    params = init_transformer(rng, 4, 3, 5, 2, 0.3)
    xb, _ = prior_batch(4, 0, 4, [2, 1, 2], 6)
    _, g = transformer_loss_grad(params, xb[:, :-1], xb[:, 1:])
    h = 1e-6
    for key in ("emb", "WQ1", "pos0", "readout"):
        for idx in [tuple(rng.integers(0, s) for s in params[key].shape) for _ in range(3)]:
            p1 = {kk: v.copy() for kk, v in params.items()}
            p2 = {kk: v.copy() for kk, v in params.items()}
            p1[key][idx] += h
            p2[key][idx] -= h
            fd = (transformer_loss_grad(p1, xb[:, :-1], xb[:, 1:])[0] - transformer_loss_grad(p2, xb[:, :-1], xb[:, 1:])[0]) / (2 * h)
            assert abs(fd - g[key][idx]) <= 1e-6 * max(1.0, abs(fd)), (key, idx)


@pytest.mark.parametrize("kwargs, name", [({"codes": [3]}, "'codes'"), ({"codes": []}, "'codes'"), ({"k": 6}, "'k'"),
                                          ({"lr": 0.0}, "'lr'"), ({"backend": "gpu"}, "'backend'"), ({"seeds": [-1]}, "'seeds'")])
def test_bad_arguments_are_named(kwargs, name):
    args = {"seeds": [1], "k": 2, "d": 2, "t": 4, "steps": 2, "codes": [0, 2]}
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        train_transformer_prior_runs(**args)
