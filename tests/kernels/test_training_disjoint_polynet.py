"""Batched disjoint-PolyNet SGD (kernels/training/disjoint_polynet.py): CPU twin == Python reference bit
for bit, replay of one run == its row, parallel == serial, the hand-written backward against exact
finite differences of the batch and population correlation losses, divergence reporting, the CUDA
twin under the simulator, bad input."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.cuda_support import cuda_test
from kernels.training import (
    OVERFLOW,
    adaptive_lr_constant,
    disjoint_polynet_sgd,
    disjoint_polynet_sgd_ref,
    sample_batch_ref,
)

FIELDS = ("w", "relevant", "weights", "window_min_aligned", "window_max_irrelevant", "window_max_martingale",
          "max_irrelevant", "max_martingale", "max_increment", "max_gradient_ratio", "martingale", "diverged",
          "diverged_at")
PER_RUN = tuple(f for f in FIELDS if f != "weights")


@st.composite
def sgd_problems(draw, *, max_k: int = 3, max_n1: int = 3, max_runs: int = 3, max_steps: int = 12):
    """Keyword arguments of one small call; shrinks toward k = n' = 1, one run, 0 steps, constant lr."""
    k = draw(st.integers(1, max_k))
    n1 = draw(st.integers(1, max_n1))
    runs = draw(st.integers(1, max_runs))
    steps = draw(st.integers(0, max_steps))
    data_seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(data_seed)
    init = draw(st.sampled_from(["pm1", "gauss", "per-run"]))
    if init == "pm1":
        w0 = rng.choice(np.array([-1.0, 1.0]), size=(k, n1))
    elif init == "gauss":
        w0 = rng.standard_normal((k, n1))
    else:
        w0 = rng.standard_normal((runs, k, n1))
    per_run_lr = draw(st.booleans())
    lr = rng.uniform(0.01, 3.0, size=runs) if per_run_lr else draw(st.floats(1e-3, 3.0))
    return {
        "w0": w0,
        "steps": steps,
        "seeds": np.array(draw(st.lists(st.integers(0, 2**64 - 1), min_size=runs, max_size=runs)), dtype=np.uint64),
        "lr": lr,
        "lr_mode": draw(st.sampled_from(["constant", "adaptive"])),
        "batch": draw(st.integers(1, 3)),
        "label_noise": draw(st.sampled_from([0.0, 0.25, 0.5])),
        "checkpoints": sorted(set(draw(st.lists(st.integers(0, steps), max_size=4)))),
        "record_all": draw(st.booleans()),
    }


def _assert_same(a, b, fields=FIELDS):
    for f in fields:
        x, y = getattr(a, f), getattr(b, f)
        if x is None or y is None:
            assert x is None and y is None, f
        else:
            np.testing.assert_array_equal(x, y, err_msg=f)
    np.testing.assert_array_equal(a.checkpoints, b.checkpoints)


@given(sgd_problems())
@example({"w0": np.ones((1, 1)), "steps": 0, "seeds": np.zeros(1, np.uint64), "lr": 0.5, "lr_mode": "constant",
          "batch": 1, "label_noise": 0.0, "checkpoints": [0], "record_all": True})
@example({"w0": np.ones((3, 2)), "steps": 40, "seeds": np.arange(2, dtype=np.uint64), "lr": 1.0, "lr_mode": "constant",
          "batch": 1, "label_noise": 0.0, "checkpoints": [0, 5, 40], "record_all": True})  # diverges
@example({"w0": np.zeros((2, 2)), "steps": 3, "seeds": np.arange(1, dtype=np.uint64), "lr": 0.5, "lr_mode": "adaptive",
          "batch": 2, "label_noise": 0.0, "checkpoints": [3], "record_all": False})  # eta = c / 0
def test_cpu_equals_reference_bit_for_bit(kw):
    _assert_same(disjoint_polynet_sgd(backend="cpu", **kw), disjoint_polynet_sgd_ref(**kw))


@settings(max_examples=15)
@given(sgd_problems(max_runs=4, max_steps=60))
def test_replaying_one_run_gives_its_row(kw):
    a = disjoint_polynet_sgd(backend="cpu", **kw)
    s = len(kw["seeds"]) - 1
    alone = dict(kw, seeds=kw["seeds"][s:])
    if np.ndim(kw["w0"]) == 3:
        alone["w0"] = kw["w0"][s:]
    if np.ndim(kw["lr"]) == 1:
        alone["lr"] = kw["lr"][s:]
    b = disjoint_polynet_sgd(backend="cpu", **alone)
    for f in PER_RUN:
        np.testing.assert_array_equal(getattr(a, f)[s], getattr(b, f)[0], err_msg=f)
    if kw["record_all"]:
        np.testing.assert_array_equal(a.weights[s], b.weights[0])


def test_parallel_twin_equals_serial_runs():
    # enough work for the prange path; each run replayed alone takes the serial path
    kw = {"w0": np.ones((2, 3)), "steps": 20_000, "lr": 0.01, "lr_mode": "adaptive", "batch": 2, "label_noise": 0.1,
          "checkpoints": [0, 100, 20_000]}
    seeds = np.array([3, 2**63 + 5, 17], dtype=np.uint64)
    a = disjoint_polynet_sgd(seeds=seeds, backend="cpu", **kw)
    for s in range(3):
        b = disjoint_polynet_sgd(seeds=seeds[s:s + 1], backend="cpu", **kw)
        for f in PER_RUN:
            np.testing.assert_array_equal(getattr(a, f)[s], getattr(b, f)[0], err_msg=f)


# ---------------------------------------------------------------------------------------------
# the hand-written backward against exact finite differences
# ---------------------------------------------------------------------------------------------


def _f(w, x) -> Fraction:
    out = Fraction(1)
    for wi, xi in zip(w, x):
        out *= sum(Fraction(a) * int(b) for a, b in zip(wi, xi))
    return out


def _batch_loss(w, X, y) -> Fraction:
    """-(1/B) sum_b y_b f(x_b; w), exactly."""
    return -sum(int(yb) * _f(w, xb) for xb, yb in zip(X, y)) / len(y)


def _population_loss(w, noise: Fraction) -> Fraction:
    """E[-y f] over the whole cube with labels flipped w.p. noise: -(1 - 2 noise) E[chi_S f], exactly."""
    k, n1 = len(w), len(w[0])
    total = Fraction(0)
    for signs in itertools.product((1, -1), repeat=k * n1):
        x = [signs[i * n1:(i + 1) * n1] for i in range(k)]
        y = 1
        for i in range(k):
            y *= x[i][0]
        total += y * _f(w, x)
    return -(1 - 2 * noise) * total / 2 ** (k * n1)


def _central_difference(loss, w, i, j) -> Fraction:
    """(L(w + e_ij) - L(w - e_ij)) / 2: exact, since L is affine in each single coordinate w_ij."""
    up = [list(r) for r in w]
    dn = [list(r) for r in w]
    up[i][j] += 1
    dn[i][j] -= 1
    return (loss(up) - loss(dn)) / 2


@pytest.mark.parametrize(
    "k,n1,batch,noise,mode,seed",
    [(2, 2, 4, Fraction(0), "constant", 11), (3, 2, 2, Fraction(1, 4), "constant", 12), (2, 3, 1, Fraction(0), "adaptive", 13),
     (3, 2, 4, Fraction(1, 4), "adaptive", 14), (1, 3, 2, Fraction(0), "constant", 15)],
)
def test_one_step_equals_exact_finite_differences(k, n1, batch, noise, mode, seed):
    rng = np.random.default_rng(seed)
    if mode == "adaptive":
        w0 = rng.choice(np.array([-1.0, 1.0]), size=(k, n1))  # norms n1: eta = c / n1^(k-1) = 1/8 exactly
        lr = Fraction(n1 ** (k - 1), 8)
    else:
        w0 = rng.choice(np.array([-2.0, -1.5, -1.0, -0.5, 0.5, 1.0, 1.5, 2.0]), size=(k, n1))
        lr = Fraction(1, 8)
    res = disjoint_polynet_sgd(w0, steps=1, seeds=np.array([seed], np.uint64), lr=float(lr), lr_mode=mode, batch=batch,
                               label_noise=float(noise), backend="cpu")
    X, y = sample_batch_ref(seed, 0, k, n1, batch, float(noise))
    w = [[Fraction(float(v)) for v in row] for row in w0]
    for i in range(k):
        if mode == "adaptive":
            P = Fraction(1)
            for l in range(k):
                if l != i:
                    P *= sum(abs(v) for v in w[l])
            eta = lr / P
        else:
            eta = lr
        for j in range(n1):
            ghat = _central_difference(lambda v: _batch_loss(v, X, y), w, i, j)
            g = _central_difference(lambda v: _population_loss(v, noise), w, i, j)
            assert Fraction(float(res.w[0, i, j])) == w[i][j] - eta * ghat, (i, j)
            assert Fraction(float(res.martingale[0, i, j])) == eta * (g - ghat), (i, j)
            if j > 0:
                assert g == 0  # only the relevant coordinates carry a population gradient


def test_population_gradient_closed_form_by_exhaustion():
    # g_i = -(1 - 2p) prod_{l != i} w_{l,0} e_0 (seed 004, line 1027), at a random rational w
    w = [[Fraction(3, 2), Fraction(-1, 4)], [Fraction(-2), Fraction(5, 8)], [Fraction(1, 3), Fraction(7)]]
    noise = Fraction(1, 8)
    for i in range(3):
        expected = -(1 - 2 * noise) * np.prod([w[l][0] for l in range(3) if l != i])
        assert _central_difference(lambda v: _population_loss(v, noise), w, i, 0) == expected


def test_one_step_mean_is_the_population_step():
    # E[w^(2)] = w^(1) - eta g over the batch draws: 40,000 one-step runs, 5 standard errors
    w0 = np.array([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]])
    runs, eta, noise = 40_000, 0.25, 0.25
    res = disjoint_polynet_sgd(w0, steps=1, seeds=np.arange(runs, dtype=np.uint64), lr=eta, lr_mode="constant",
                               label_noise=noise, backend="cpu")
    expected = w0.copy()
    expected[0, 0] += eta * (1 - 2 * noise) * w0[1, 0]
    expected[1, 0] += eta * (1 - 2 * noise) * w0[0, 0]
    # one draw of eta * ghat_ij is bounded by eta * ||w_other||_1 = 0.75
    assert np.max(np.abs(res.w.mean(axis=0) - expected)) <= 5 * 0.75 / np.sqrt(runs)
    assert np.max(np.abs(res.martingale.mean(axis=0))) <= 5 * 1.5 / np.sqrt(runs)


def test_batches_are_fresh_uniform_samples_with_the_noise_rate():
    X, y = sample_batch_ref(77, 3, 3, 4, 4000, 0.3)
    assert abs(X.mean()) < 5 / np.sqrt(X.size)
    flips = np.mean(y != np.prod(X[:, :, 0], axis=1))
    assert abs(flips - 0.3) < 5 * np.sqrt(0.3 * 0.7 / 4000)
    X2, _ = sample_batch_ref(77, 4, 3, 4, 4000, 0.3)
    assert np.mean(X == X2) < 0.55  # a different step draws a different batch


def test_more_than_64_inputs_use_several_words():
    X, _ = sample_batch_ref(5, 0, 3, 30, 2)  # 90 inputs: two words per sample
    assert X.shape == (2, 3, 30) and 0.3 < np.mean(X[:, 2, 10:] > 0) < 0.7
    kw = {"w0": np.ones((3, 30)) / 30, "steps": 5, "seeds": np.array([5], np.uint64), "lr": 0.1, "lr_mode": "adaptive",
          "batch": 2}
    _assert_same(disjoint_polynet_sgd(backend="cpu", **kw), disjoint_polynet_sgd_ref(**kw))


# ---------------------------------------------------------------------------------------------
# diagnostics and divergence
# ---------------------------------------------------------------------------------------------


def test_unnormalised_constant_lr_is_reported_as_diverged():
    res = disjoint_polynet_sgd(np.ones((3, 2)), steps=500, seeds=np.arange(8, dtype=np.uint64), lr=1.0,
                               lr_mode="constant", checkpoints=[0, 250, 500], backend="cpu")
    assert res.diverged.all() and np.all((res.diverged_at >= 1) & (res.diverged_at <= 60))
    assert np.any(~(np.abs(res.w) <= OVERFLOW), axis=(1, 2)).all()
    assert np.isnan(res.relevant[:, 1:]).all() and not np.isnan(res.relevant[:, 0]).any()


def test_adaptive_run_diagnostics_are_consistent():
    T, n, delta = 5000, 4, 0.1
    res = disjoint_polynet_sgd(np.array([[1.0, -1.0], [-1.0, 1.0]]), steps=T, seeds=np.arange(6, dtype=np.uint64),
                               lr=adaptive_lr_constant(T, n, delta), lr_mode="adaptive",
                               checkpoints=np.arange(0, T + 1, 500), backend="cpu")
    assert not res.diverged.any()
    a0 = 1 / np.sqrt(2 * T * np.log(2 * n * T / delta))
    assert np.all(res.max_increment <= a0 * (1 + 1e-12))  # |Delta| <= 2 eta P = a0
    assert np.all(res.max_gradient_ratio <= 1 + 1e-12) and np.all(res.max_gradient_ratio >= 0.5)
    # irrelevant coordinates: w^(T+1) - w^(1) = s^(T) (up to the rounding of the two accumulations)
    drift = res.w[:, :, 1:] - np.array([[1.0, -1.0], [-1.0, 1.0]])[None, :, 1:]
    assert np.max(np.abs(drift - res.martingale[:, :, 1:])) <= T * 2.0**-50
    assert np.all(res.window_max_martingale.max(axis=1) == res.max_martingale)
    assert np.all(np.maximum(res.window_max_irrelevant.max(axis=1), 1.0) == res.max_irrelevant)
    xi = np.sign(np.array([1.0, -1.0]))
    assert np.all(res.window_min_aligned <= xi * res.relevant + 0.0)


def test_adaptive_lr_constant():
    T, n, delta = 20254, 4, 0.1
    assert adaptive_lr_constant(T, n, delta) == 1 / (2 * np.sqrt(2 * T * np.log(2 * n * T / delta)))
    assert adaptive_lr_constant(T, n, delta, factor=0.5) == adaptive_lr_constant(T, n, delta) / 2


@cuda_test
@settings(max_examples=6, deadline=None)
@given(sgd_problems(max_k=2, max_n1=2, max_runs=2, max_steps=6))
def test_cuda_twin_equals_cpu_under_simulator(kw):
    """Bit for bit, under the simulator and on a GPU: the CUDA twin is compiled without multiply-add
    contraction (kernels/cuda/training_disjoint_polynet.py) and its body uses + - * / only, so every
    operation rounds as on the CPU.  (Run 1 on an H100, with contraction, ended 7% of 4096 long
    constant-rate runs outside the rounding tolerance near their blow-up.)"""
    from kernels.cuda.agreement import assert_twins_agree

    a, b = disjoint_polynet_sgd(backend="cuda", **kw), disjoint_polynet_sgd(backend="cpu", **kw)
    for f in FIELDS:
        x, y = getattr(a, f), getattr(b, f)
        if x is None or y is None:
            assert x is None and y is None, f
        else:
            assert_twins_agree(x, y, exact=True, what=f)
    np.testing.assert_array_equal(a.checkpoints, b.checkpoints)


@cuda_test
def test_cuda_twin_is_compiled_without_fma_and_agrees_on_blowing_up_runs():
    """Constant-rate runs that blow up in finite time (the case of GPU run 1).  Under the simulator: bit for
    bit on every field.  On a GPU, NVVM may contract multiply-adds into FMAs (the ``-fma=0`` request of
    ``no_fma_contraction`` did not take effect with numba-cuda 0.30.4 on an H100: 8 fma instructions in
    the PTX, benchmarks/gpu_runs/2026-11-26-h100-run2.json), so the bits may differ and the classified
    comparison decides: bounded runs within the argued tolerance, diverged runs at steps <= 2 apart."""
    from kernels.cuda.agreement import diverging_runs_agreement
    from kernels.cuda.training_disjoint_polynet import fma_count
    from tests.cuda_support import ON_GPU

    w0 = np.array([[1.0, -1.0, 1.0], [1.0, 1.0, -1.0], [1.0, 1.0, 1.0]])
    runs = 64 if ON_GPU else 6
    lr = np.where(np.arange(runs) % 2 == 0, 0.1, 0.005)  # even runs blow up (steps ~20), odd ones stay bounded
    kw = dict(steps=60, seeds=np.arange(runs, dtype=np.uint64), lr=lr, lr_mode="constant", batch=2, checkpoints=[60])
    a, b = disjoint_polynet_sgd(w0, backend="cuda", **kw), disjoint_polynet_sgd(w0, backend="cpu", **kw)
    exact = not ON_GPU or fma_count() == 0
    if exact:
        for f in FIELDS:
            x, y = getattr(a, f), getattr(b, f)
            if x is not None:
                assert np.array_equal(x, y, equal_nan=True), f
    assert b.diverged.any() and not b.diverged.all()  # both classes occur
    res = diverging_runs_agreement(a.w, b.w, a.diverged_at, b.diverged_at, steps=60, depth=8 * 9 * 2 * 60, growth=60.0,
                                   exact=exact)
    assert res["ok"], res
    if exact:
        assert res["bit_for_bit"], res
    assert res["bounded_both"] + res["diverged_both"] == runs and res["diverged_one_only"] == 0


def test_diverging_runs_agreement_classes():
    """The classified comparison: bounded runs within the tolerance, diverged runs at steps <= slack apart,
    a run diverged on one twin only near the horizon alone; exact mode (the simulator) demands equality."""
    from kernels.cuda.agreement import diverging_runs_agreement

    b = np.array([[1.0, 2.0], [3.0, 4.0], [1e120, 5.0], [7e150, 1.0], [1e200, 0.0]])
    a = b.copy()
    a[0, 0] += 1e-15  # rounding-level difference of a bounded run
    a[2, 0] = 3e121  # a diverged run: its state at divergence may differ by O(1)
    da = np.array([-1, -1, 40, -1, 98])
    db = np.array([-1, -1, 41, 99, 99])
    kw = dict(steps=100, depth=10.0, growth=1.0)
    res = diverging_runs_agreement(a, b, da, db, exact=False, **kw)
    assert res["ok"] and (res["bounded_both"], res["diverged_both"], res["diverged_one_only"]) == (2, 2, 1)
    assert res["max_step_difference"] == 1 and not res["bit_for_bit"]
    assert not diverging_runs_agreement(a, b, da, db, exact=True, **kw)["ok"]
    far = db.copy()
    far[2] = 45  # divergence steps 5 apart
    assert not diverging_runs_agreement(a, b, da, far, exact=False, **kw)["ok"]
    early = db.copy()
    early[1] = 50  # diverged on one twin only, far from the horizon
    assert not diverging_runs_agreement(a, b, da, early, exact=False, **kw)["ok"]
    off = a.copy()
    off[1, 1] += 1e-6  # a bounded run outside the rounding tolerance
    assert not diverging_runs_agreement(off, b, da, db, exact=False, **kw)["ok"]
    assert diverging_runs_agreement(b, b, db, db, exact=True, **kw)["bit_for_bit"]


# ---------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------

_OK = {"w0": np.ones((2, 2)), "steps": 3, "seeds": np.zeros(1, np.uint64), "lr": 0.1}


@pytest.mark.parametrize(
    "change,match",
    [
        pytest.param({"w0": np.ones(3)}, "w0", id="w0-1d"),
        pytest.param({"w0": np.ones((0, 2))}, "k >= 1", id="k-zero"),
        pytest.param({"w0": np.ones((2, 0))}, "n' >= 1", id="n1-zero"),
        pytest.param({"w0": np.full((2, 2), np.inf)}, "w0", id="w0-inf"),
        pytest.param({"w0": np.ones((3, 2, 2)), "seeds": np.zeros(2, np.uint64)}, "w0", id="w0-runs-mismatch"),
        pytest.param({"steps": -1}, "steps", id="steps-negative"),
        pytest.param({"steps": 2.5}, "steps", id="steps-float"),
        pytest.param({"seeds": np.array([-1])}, "seeds", id="seeds-negative"),
        pytest.param({"seeds": np.array([], dtype=np.uint64)}, "seeds", id="seeds-empty"),
        pytest.param({"batch": 0}, "batch", id="batch-zero"),
        pytest.param({"lr": 0.0}, "lr", id="lr-zero"),
        pytest.param({"lr": -0.1}, "lr", id="lr-negative"),
        pytest.param({"lr": float("nan")}, "lr", id="lr-nan"),
        pytest.param({"lr": np.ones(3)}, "lr", id="lr-shape"),
        pytest.param({"lr_mode": "cosine"}, "lr_mode", id="lr-mode"),
        pytest.param({"label_noise": 1.5}, "label_noise", id="noise-above-1"),
        pytest.param({"checkpoints": [2, 1]}, "checkpoints", id="checkpoints-unsorted"),
        pytest.param({"checkpoints": [1, 1]}, "checkpoints", id="checkpoints-repeated"),
        pytest.param({"checkpoints": [4]}, "checkpoints", id="checkpoints-beyond-steps"),
        pytest.param({"record_all": 1}, "record_all", id="record-all-int"),
        pytest.param({"backend": "tpu"}, "backend", id="backend"),
    ],
)
def test_bad_arguments_name_the_argument(change, match):
    kw = dict(_OK, **change)
    kw.setdefault("backend", "cpu")
    with pytest.raises(ValueError, match=match):
        disjoint_polynet_sgd(**kw)


@pytest.mark.parametrize(
    "args,match",
    [((0, 4, 0.1), "steps"), ((10, 0, 0.1), "n"), ((10, 4, 1.0), "delta"), ((10, 4, 0.1, 0.0), "factor")],
)
def test_bad_lr_constant_arguments(args, match):
    with pytest.raises(ValueError, match=match):
        adaptive_lr_constant(*args)
