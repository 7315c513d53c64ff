"""kernels.training.parity_transformer (Fig. 4.4 of the thesis): the numpy gradient against central finite
differences, the numba trainer against the numpy reference, the bit stream against its reference, run independence,
argument checks."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.training.parity_transformer import (
    ParityShapes,
    init_parity_params,
    loss_and_grad_reference,
    parity_batch,
    parity_batch_reference,
    parity_logits,
    train_parity_runs,
)


@pytest.mark.parametrize("seed, step, T, support, batch", [(0, 0, 10, [0, 1, 2], 50), (2**64 - 1, 2**40, 15, [3, 7, 14], 33),
                                                          (7, 3, 62, [61], 20)])
def test_parity_batch_equals_its_reference(seed, step, T, support, batch):
    b, y = parity_batch(seed, step, T, support, batch)
    br, yr = parity_batch_reference(seed, step, T, support, batch)
    assert np.array_equal(b, br) and np.array_equal(y, yr)
    assert set(np.unique(b).tolist()) <= {0, 1} and np.array_equal(y, np.where(b[:, support].sum(1) % 2 == 1, 1.0, -1.0))


def test_parity_batch_law():
    b, y = parity_batch(3, 0, 12, [0, 5, 9], 20000)
    assert np.abs(b.mean(0) - 0.5).max() <= 5 * 0.5 / np.sqrt(20000) and abs(y.mean()) <= 5 / np.sqrt(20000)


def test_gradient_against_finite_differences():
    shp = ParityShapes(T=5, d=4, heads=2, k=3, f=6)
    theta = init_parity_params(shp, [11], init_scale=0.5)[0]
    rng = np.random.default_rng(0)
    theta[-1] = 0.3  # c
    bits, y = parity_batch(1, 0, 5, [0, 2, 4], 7)
    _, g = loss_and_grad_reference(theta, shp, bits, y)
    h = 1e-6
    for i in rng.choice(shp.size, size=60, replace=False).tolist() + [shp.size - 1]:
        tp, tm = theta.copy(), theta.copy()
        tp[i] += h
        tm[i] -= h
        fd = (loss_and_grad_reference(tp, shp, bits, y)[0] - loss_and_grad_reference(tm, shp, bits, y)[0]) / (2 * h)
        assert abs(fd - g[i]) <= 1e-7 * max(1.0, abs(fd)), (i, fd, g[i])


@pytest.mark.parametrize("T, support, d, heads, k, f, batch, steps, lr", [(6, [0, 2, 5], 4, 2, 3, 5, 8, 6, 0.01),
                                                                          (4, [1, 3], 3, 1, 2, 4, 5, 5, [0.02, 0.005])])
def test_numba_trainer_matches_the_reference(T, support, d, heads, k, f, batch, steps, lr):
    kw = {"d": d, "heads": heads, "k": k, "f": f, "batch": batch, "lr": lr, "init_scale": 0.3, "checkpoints": [0, steps // 2, steps]}
    c = train_parity_runs([5, 6], T, support, steps, backend="cpu", **kw)
    r = train_parity_runs([5, 6], T, support, steps, backend="reference", **kw)
    assert np.allclose(c.theta, r.theta, rtol=0, atol=1e-9)
    assert np.allclose(c.theta_at, r.theta_at, rtol=0, atol=1e-9)
    assert np.allclose(c.train_loss, r.train_loss, rtol=0, atol=1e-10)
    assert np.abs(r.theta - r.theta_at[:, 0]).max() > 0.01
    kw["lr"] = lr[1:] if isinstance(lr, list) else lr
    a = train_parity_runs([6], T, support, steps, backend="cpu", **kw)
    assert np.array_equal(a.theta[0], c.theta[1])  # bit for bit, alone or batched


@pytest.mark.parametrize("kwargs, name", [({"support": [10]}, "'support'"), ({"support": [1, 1]}, "'support'"), ({"T": 63}, "'T'"),
                                          ({"lr": 0.0}, "'lr'"), ({"backend": "gpu"}, "'backend'"), ({"seeds": [-1]}, "'seeds'")])
def test_bad_arguments_are_named(kwargs, name):
    args = {"seeds": [1], "T": 10, "support": [0, 1, 2], "steps": 2}
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        train_parity_runs(**args)


@pytest.mark.parametrize("T, d, H, k, f, n", [(6, 16, 4, 4, 64, 512), (15, 8, 2, 4, 16, 33), (3, 4, 1, 4, 8, 1)])
def test_logits_keys_and_values_from_the_row_table_bit_for_bit(T, d, H, k, f, n):
    """parity_logits' keys and values, gathered from the 2 (T + 1) distinct rows, equal the einsum over all rows bit
    for bit (so the logits do)."""
    import math

    shp = ParityShapes(T, d, H, k, f)
    rng = np.random.default_rng(T * 100 + n)
    theta = rng.normal(size=shp.size) * 0.5
    bits = rng.integers(0, 2, size=(n, T))
    z, cache = parity_logits(theta, shp, bits)
    p, X = cache["p"], cache["X"]
    assert np.array_equal(X[:, :T], p["E"][bits] + p["P"][:T])
    for name, W in (("K", "WK"), ("V", "WV")):
        direct = np.einsum("ntd,hdk->nhtk", X, p[W])
        assert direct.tobytes() == cache[name].tobytes()
    s = np.einsum("nhtk,nhk->nht", np.einsum("ntd,hdk->nhtk", X, p["WK"]), cache["q"]) / math.sqrt(k)
    s = s - s.max(-1, keepdims=True)
    a = np.exp(s)
    a /= a.sum(-1, keepdims=True)
    assert a.tobytes() == cache["a"].tobytes()
    z2, cache2 = parity_logits(theta, shp, np.where(bits == 1, 1, 0).astype(np.int64))
    assert z2.tobytes() == z.tobytes()
