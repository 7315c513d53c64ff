"""kernels.training.icl_regression: the vectorised loss/gradient against the loop reference
(_icl_regression_ref, same loss and gradient to 1e-10 in float64) and against central finite differences,
for both attention types; the data model and the baseline's shapes; bit-for-bit reproducible training."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.training._icl_regression_ref import loss_grad_reference
from kernels.training.icl_regression import (
    init_params,
    loss_grad,
    make_tokens,
    mlp_baseline_r2,
    predict,
    r2_by_position,
    sample_prompts,
    target_forward,
    sample_targets,
    train_icl,
)

CFG = dict(d=3, D=8, L=2, T_max=9, heads=2)


def _case(seed, attn):
    rng = np.random.default_rng(seed)
    theta = init_params(rng, CFG["d"], CFG["D"], CFG["L"], CFG["T_max"])
    theta += 0.1 * rng.standard_normal(theta.shape)  # move LayerNorm gains and biases off their initial values
    X, Y = sample_prompts(rng, 3, 4, CFG["d"], 0.7, 3, 5)
    return theta, X, Y


@pytest.mark.parametrize("attn", ["softmax", "relu"])
def test_fast_against_reference(attn):
    for seed in range(3):
        theta, X, Y = _case(seed, attn)
        l1, g1 = loss_grad(theta, X, Y, attn=attn, **CFG)
        l2, g2 = loss_grad_reference(theta, X, Y, attn=attn, **CFG)
        assert abs(l1 - l2) <= 1e-10 * (1 + abs(l2))
        assert np.max(np.abs(g1 - g2)) <= 1e-10 * (1 + np.max(np.abs(g2)))
        # positions beyond the prompt (T = 7 < T_max = 9) get no gradient
        assert np.all(g1[CFG["d"] * CFG["D"] + CFG["D"]:][7 * CFG["D"]:9 * CFG["D"]] == 0.0)


@pytest.mark.parametrize("attn", ["softmax", "relu"])
def test_gradient_finite_differences(attn):
    theta, X, Y = _case(7, attn)
    _, g = loss_grad(theta, X, Y, attn=attn, **CFG)
    rng = np.random.default_rng(1)
    idx = rng.choice(theta.shape[0], 60, replace=False)
    eps = 1e-6
    for i in idx:
        tp, tm = theta.copy(), theta.copy()
        tp[i] += eps
        tm[i] -= eps
        fd = (loss_grad(tp, X, Y, attn=attn, **CFG)[0] - loss_grad(tm, X, Y, attn=attn, **CFG)[0]) / (2 * eps)
        assert abs(fd - g[i]) <= 1e-6 * (1 + abs(g[i])), (i, fd, g[i])
    # a random direction
    u = rng.standard_normal(theta.shape)
    fd = (loss_grad(theta + eps * u, X, Y, attn=attn, **CFG)[0] - loss_grad(theta - eps * u, X, Y, attn=attn, **CFG)[0]) / (2 * eps)
    assert abs(fd - g @ u) <= 1e-6 * (1 + abs(g @ u))


def test_tokens_and_targets():
    rng = np.random.default_rng(0)
    X, Y = sample_prompts(rng, 2000, 3, 4, 1.0, 3, 6)
    assert abs(X.mean() + 2.0) < 0.05  # w1 = 1: all from N(-2 * 1, I)
    X2, _ = sample_prompts(rng, 2000, 3, 4, 0.5, 3, 6)
    assert abs(X2.mean()) < 0.1
    Z = make_tokens(X, Y)
    assert Z.shape == (2000, 5, 4) and np.all(Z[:, 1::2, 1:] == 0) and np.all(Z[:, 1::2, 0] == Y[:, :2])
    Vs = sample_targets(rng, 2, 4, 3, 6)
    x = rng.standard_normal((2, 1, 4))
    manual = [float((Vs[2][b] @ np.maximum(Vs[1][b] @ np.maximum(Vs[0][b] @ x[b, 0], 0), 0))[0]) for b in range(2)]
    assert np.allclose(target_forward(Vs, x)[:, 0], manual)


def test_training_reproducible_and_learns():
    kw = dict(d=3, K=6, D=16, L=1, heads=2, steps=60, batch=16, lr=3e-3, target_layers=2, target_width=4)
    th1, l1 = train_icl(5, attn="relu", **kw)
    th2, l2 = train_icl(5, attn="relu", **kw)
    assert np.array_equal(th1, th2) and np.array_equal(l1, l2)
    assert l1[-10:].mean() < l1[:10].mean()
    rng = np.random.default_rng(3)
    X, Y = sample_prompts(rng, 50, 6, 3, 1.0, 2, 4)
    pred = predict(th1, X, Y, d=3, D=16, L=1, T_max=11, heads=2, attn="relu", chunk=16)
    assert pred.shape == (50, 6) and r2_by_position(pred, Y).shape == (6,)


def test_baseline_fits_linear_targets():
    rng = np.random.default_rng(0)
    X, Y = sample_prompts(rng, 200, 12, 2, 1.0, 1, 1)  # one-layer targets: linear functions
    r2 = mlp_baseline_r2(rng, X, Y, [1, 10], n_layers=1, width=1, epochs=200, lr=0.05)
    assert r2[10].shape == (200,) and r2[10][-1] > 0.99 and r2[10][-1] > r2[1][-1]


def test_validation():
    with pytest.raises(ValueError, match="'attn'"):
        train_icl(0, d=2, K=3, D=4, L=1, heads=2, attn="linear", steps=1, batch=1, lr=1e-3, target_layers=2, target_width=2)
    with pytest.raises(ValueError, match="'heads'"):
        train_icl(0, d=2, K=3, D=5, L=1, heads=2, attn="relu", steps=1, batch=1, lr=1e-3, target_layers=2, target_width=2)


def _target_forward_einsum(Vs, X):
    h = X
    for j, V in enumerate(Vs):
        h = np.einsum("bkd,bod->bko", h, V)
        if j < len(Vs) - 1:
            h = np.maximum(h, 0.0)
    return h[..., 0]


def _mlp_baseline_einsum(rng, X, Y, ns, *, n_layers, width, epochs=100, lr=1e-2):
    """mlp_baseline_r2 as it was written with np.einsum (before the kernels of _einsum_order replaced the einsums)."""
    B, _, d = X.shape
    out = {}
    for n in ns:
        Vs = sample_targets(rng, B, d, n_layers, width)
        ms = [np.zeros_like(V) for V in Vs]
        ss = [np.zeros_like(V) for V in Vs]
        Xtr, Ytr, xq, yq = X[:, :n], Y[:, :n], X[:, n:n + 1], Y[:, n]
        r2 = np.empty(epochs)
        var = yq.var()
        for e in range(epochs):
            hs = [Xtr]
            for j, V in enumerate(Vs):
                z = np.einsum("bkd,bod->bko", hs[-1], V)
                hs.append(np.maximum(z, 0.0) if j < n_layers - 1 else z)
            delta = 2.0 * (hs[-1][..., 0] - Ytr)[..., None] / n
            for j in reversed(range(n_layers)):
                g = np.einsum("bko,bkd->bod", delta, hs[j])
                if j:
                    delta = np.einsum("bko,bod->bkd", delta, Vs[j]) * (hs[j] > 0.0)
                ms[j] = 0.9 * ms[j] + 0.1 * g
                ss[j] = 0.999 * ss[j] + 0.001 * g * g
                Vs[j] = Vs[j] - lr * (ms[j] / (1 - 0.9 ** (e + 1))) / (np.sqrt(ss[j] / (1 - 0.999 ** (e + 1))) + 1e-8)
            r2[e] = 1.0 - ((_target_forward_einsum(Vs, xq)[:, 0] - yq) ** 2).mean() / var
        out[int(n)] = r2
    return out


@pytest.mark.parametrize("d,n_layers,width,K", [(3, 3, 16, 9), (1, 2, 5, 4), (2, 1, 3, 5), (4, 4, 7, 6), (9, 2, 17, 3), (5, 6, 12, 18)])
def test_einsum_kernels_bit_for_bit(d, n_layers, width, K):
    """target_forward and mlp_baseline_r2 (their einsums replaced by the kernels of _einsum_order) give the bits
    of the np.einsum versions (x86-64: the order of numpy's einsum loops)."""
    rng = np.random.default_rng(d * 100 + n_layers * 10 + width)
    X, Y = sample_prompts(rng, 11, K, d, 0.6, n_layers, width)
    Vs = sample_targets(rng, 11, d, n_layers, width)
    assert np.array_equal(target_forward(Vs, X), _target_forward_einsum(Vs, X))
    assert np.array_equal(target_forward(Vs, X[:, 1:2]), _target_forward_einsum(Vs, X[:, 1:2]))
    a = mlp_baseline_r2(np.random.default_rng(5), X, Y, range(1, K), n_layers=n_layers, width=width, epochs=7)
    b = _mlp_baseline_einsum(np.random.default_rng(5), X, Y, range(1, K), n_layers=n_layers, width=width, epochs=7)
    assert a.keys() == b.keys()
    for n in a:
        assert np.array_equal(a[n], b[n]), n
