"""The two-layer training engine (kernels/training/two_layer.py).

* every hand-written backward against central finite differences (all activations, float64), and
  against the exact derivative in rational arithmetic for polynomial activations;
* the loss slopes against finite differences;
* the numba CPU twin (batched gemm body) and the CUDA twin (per-sample body, under the simulator)
  against the independent numpy reference (every loss, optimiser, schedule, data mode, activation
  family); the finite-difference and rational tests exercise the per-sample functions;
* determinism: a run replayed alone, serial vs parallel kernel, identical results;
* validation before any work; divergence reported as such.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numba as nb
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.activations import Activation
from tests.cuda_support import cuda_test
from kernels.training import n_params, parity_samples, train_polynet, train_two_layer
from kernels.training._two_layer_rows import build_row_sums
from kernels.training.two_layer import _BODIES, EVAL_STEP, PRODUCT, _cpu_kernel

F64 = np.dtype(np.float64)
_, PREPARE, FORWARD, LOSS_SLOPE, BACKWARD, FINISH, LOAD = _BODIES[(F64, False)][:7]

ACTIVATIONS = [
    Activation.relu(),
    Activation.power(2),
    Activation.power(3),
    Activation.poly([0.5, -1.0, 0.25, 0.125]),
    Activation.sine(1.3, 0.2, 0.7),
    Activation.cosine(0.9, -0.4, 1.1),
    Activation.parity_sine(3, scale=2.0),
    Activation.zigzag(3),
    Activation.zigzag(4),
    Activation.parity_triangle(3),
    Activation.triangle(-0.7, 0.3, 2.0),
]


@nb.njit(cache=False)
def _f_and_grad(theta, xs, n, r, code, params, tb, tu, tc):
    """f(x; theta) and d f / d theta through the engine's own prepare/forward/backward/finish_batch."""
    wk = np.zeros(5 * r)
    grad = np.zeros(theta.shape[0])
    xi = np.zeros(2 * n + 1, dtype=np.int64)
    LOAD(xs, xi)
    PREPARE(theta, n, r, wk)
    f = FORWARD(theta, xi, n, r, code, params, wk)
    BACKWARD(theta, grad, xi, n, r, code, params, wk, 1.0, tu, tc)
    FINISH(grad, n, r, wk, tb)
    return f, grad


@nb.njit(cache=False)
def _f_only(theta, xs, n, r, code, params):
    wk = np.zeros(5 * r)
    xi = np.zeros(2 * n + 1, dtype=np.int64)
    LOAD(xs, xi)
    PREPARE(theta, n, r, wk)
    return FORWARD(theta, xi, n, r, code, params, wk)


@nb.njit(cache=False)
def _loss_slope(loss, f, y):
    return LOSS_SLOPE(loss, f, y)


def _kink_distance(act: Activation, z: np.ndarray) -> float:
    """Distance of the pre-activations to the nearest kink of a piecewise-linear activation."""
    if act.name == "relu":
        return float(np.min(np.abs(z)))
    if act.name == "zigzag":
        k = int(act.params[0])
        knots = np.arange(-k, k + 1, 2.0)
        return float(np.min(np.abs(z[:, None] - knots[None, :])))
    if act.name == "triangle":
        _, a, beta = act.params
        t = a * z + beta
        return float(np.min(np.abs(t - np.round(t)))) / abs(a)
    return math.inf


def _check_backward_fd(act: Activation, n: int, r: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    P = n_params(n, r)
    for _ in range(50):
        theta = rng.normal(size=P) * 0.7
        xs = rng.choice([-1.0, 1.0], size=n)
        W = theta[: n * r].reshape(n, r)
        h = xs @ W + theta[n * r : n * r + r]
        if _kink_distance(act, h) > 1e-3:
            break
    f, grad = _f_and_grad(theta, xs, n, r, act.code, act.param_array(), True, True, True)
    # central differences; step 1e-6: truncation O(h^2 |f'''|) <= 1e-10 for these smooth pieces, rounding
    # O(eps |f| / h) ~ 1e-10; piecewise-linear activations are exact unless a kink lies within h (excluded
    # above, distance > 1e-3 >> |d h / d theta| h).  Tolerance 1e-6 (abs + rel) is 10^4 times both.
    step = 1e-6
    fd = np.empty(P)
    for p in range(P):
        e = np.zeros(P)
        e[p] = step
        fd[p] = (_f_only(theta + e, xs, n, r, act.code, act.param_array())
                 - _f_only(theta - e, xs, n, r, act.code, act.param_array())) / (2 * step)
    ref = float(act(np.atleast_1d(h)) @ theta[n * r + r : n * r + 2 * r] + theta[-1])
    assert f == pytest.approx(ref, rel=1e-12, abs=1e-12)
    np.testing.assert_allclose(grad, fd, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("r", [1, 2, 3, 5])
def test_polynet_backward_matches_finite_differences(r):
    """PolyNet read-out f = prod_j h_j (code PRODUCT): u and c get no gradient; one factor may be 0."""
    n = 6
    rng = np.random.default_rng(r)
    P = n_params(n, r)
    theta = rng.normal(size=P)
    xs = rng.choice([-1.0, 1.0], size=n)
    if r > 1:  # make h_0 exactly 0: the prefix/suffix products must not divide by it
        theta[n * r] = -float(xs @ theta[: n * r].reshape(n, r)[:, 0])
    f, grad = _f_and_grad(theta, xs, n, r, PRODUCT, np.zeros(1), True, False, False)
    h = xs @ theta[: n * r].reshape(n, r) + theta[n * r : n * r + r]
    assert f == pytest.approx(np.prod(h), abs=1e-12)
    step = 1e-6  # f is a polynomial of degree 1 in each parameter: central differences are exact up to rounding
    fd = np.array([(_f_only(theta + step * e, xs, n, r, PRODUCT, np.zeros(1))
                    - _f_only(theta - step * e, xs, n, r, PRODUCT, np.zeros(1))) / (2 * step) for e in np.eye(P)])
    np.testing.assert_allclose(grad, fd, rtol=1e-7, atol=1e-7)
    assert np.all(grad[n * r + r :] == 0.0)


def test_polynet_cpu_matches_reference_and_rejects_a_second_layer():
    kw = {"seeds": [1, 2], "steps": 30, "batch": 8, "lr": 0.02, "eval_every": 5, "record_every": 10}
    _same(train_polynet(9, 3, bias=True, backend="cpu", **kw), train_polynet(9, 3, bias=True, backend="reference", **kw),
          exact=False)
    with pytest.raises(ValueError, match="second_layer"):
        train_two_layer(9, 3, width=3, seeds=[1], steps=1, activation="product")


@pytest.mark.parametrize("act", ACTIVATIONS, ids=str)
def test_backward_matches_finite_differences(act):
    _check_backward_fd(act, n=6, r=4, seed=1)


@settings(max_examples=25, deadline=None)
@given(act=st.sampled_from(ACTIVATIONS), n=st.integers(1, 9), r=st.integers(1, 7), seed=st.integers(0, 2**32 - 1))
def test_backward_matches_finite_differences_random_shapes(act, n, r, seed):
    _check_backward_fd(act, n, r, seed)


def _exact_f(theta, xs, n, r, coeffs):
    """f in Fractions for a polynomial activation (coefficients in increasing degree)."""
    out = theta[-1]
    for j in range(r):
        h = theta[n * r + j] + sum(theta[i * r + j] * xs[i] for i in range(n))
        s = Fraction(0)
        for c in reversed(coeffs):
            s = s * h + c
        out += theta[n * r + r + j] * s
    return out


def _exact_partial(theta, xs, n, r, coeffs, p):
    """d f / d theta_p exactly: f(theta + eps e_p) is a polynomial of degree <= d in eps; its linear
    coefficient is recovered from d + 1 exact evaluations by Lagrange interpolation at eps = 0..d."""
    d = len(coeffs) - 1
    pts = []
    for e in range(d + 1):
        t = list(theta)
        t[p] += e
        pts.append((Fraction(e), _exact_f(t, xs, n, r, coeffs)))
    # derivative at 0 of the interpolant: sum_m y_m L_m'(0)
    deriv = Fraction(0)
    for m, (em, ym) in enumerate(pts):
        others = [ej for j, (ej, _) in enumerate(pts) if j != m]
        denom = math.prod(em - ej for ej in others)
        # L_m(eps) = prod (eps - ej) / denom ; L_m'(0) = sum_i prod_{j != i} (0 - ej) / denom
        lp = sum(math.prod(-ej for ej in others if ej is not ei) for ei in others) / denom if others else Fraction(0)
        deriv += ym * lp
    return deriv


@pytest.mark.parametrize("coeffs", [(0, 0, 1), (0, 0, 0, 1), (Fraction(1, 2), -1, Fraction(1, 4), Fraction(1, 8))])
def test_backward_polynomial_is_exact_in_rationals(coeffs):
    """Dyadic parameters (multiples of 1/16, |.| <= 1) keep every intermediate of the float64 forward
    and backward exactly representable, so the compiled gradient must equal the rational one exactly."""
    n, r = 4, 3
    rng = np.random.default_rng(7)
    P = n_params(n, r)
    theta_q = [Fraction(int(v), 16) for v in rng.integers(-16, 17, size=P)]
    xs = [int(v) for v in rng.choice([-1, 1], size=n)]
    act = Activation.poly([float(c) for c in coeffs])
    _, grad = _f_and_grad(np.array([float(v) for v in theta_q]), np.array(xs, dtype=float), n, r, act.code,
                          act.param_array(), True, True, True)
    exact = [_exact_partial(theta_q, xs, n, r, [Fraction(c) for c in coeffs], p) for p in range(P)]
    assert [Fraction(g) for g in grad] == exact


@pytest.mark.parametrize("loss", range(4))
def test_loss_slopes_match_finite_differences(loss):
    for f in (-2.3, -0.4, 0.3, 0.999, 1.7):
        for y in (-1.0, 1.0):
            if loss == 0 and abs(y * f - 1.0) < 1e-3:
                continue
            _, g = _loss_slope(loss, f, y)
            h = 1e-6
            fd = (_loss_slope(loss, f + h, y)[0] - _loss_slope(loss, f - h, y)[0]) / (2 * h)
            assert g == pytest.approx(fd, abs=1e-6)
    # values
    assert _loss_slope(0, 0.25, 1.0)[0] == 0.75
    assert _loss_slope(1, 0.25, -1.0)[0] == pytest.approx(0.5 * 1.25**2)
    assert _loss_slope(2, 0.25, -1.0)[0] == 0.25
    assert _loss_slope(3, 30.0, 1.0)[0] == pytest.approx(math.log1p(math.exp(-30.0)))
    assert _loss_slope(3, -800.0, 1.0)[0] == pytest.approx(800.0)  # no overflow


CONFIGS = [
    {},
    # layers of >= LOOP_MIN_WIDTH units go through the CPU body's vectorised loops instead of gemm: n = 10 and
    # B = 10 leave a remainder of 2 after the four-row passes, width 30 a remainder of 2 after 4-wide partial sums
    {"width": 30, "batch": 10},
    {"width": 25, "batch": 7, "activation": Activation.power(3), "optimizer": "adam", "lr": 0.01, "train_size": 50,
     "loss": "logistic"},
    {"loss": "logistic", "optimizer": "adam", "lr": 0.01, "weight_decay": 1e-3, "schedule": "cosine"},
    {"activation": Activation.parity_sine(3), "second_layer": False, "width": 1, "loss": "square", "label_noise": 0.1},
    {"train_size": 50, "activation": Activation.zigzag(3), "init": "gaussian", "loss": "correlation", "schedule": "linear"},
    {"bias": False, "output_bias": False, "activation": Activation.power(3), "lr": 0.02},
    # Bernoulli init with a bias: pre-activations are sums of 11 terms ±1/sqrt(10), never 0 (with no bias
    # and n even they can be exactly 0, and f = 0 is then a rounding-dependent tie in the accuracy)
    {"init": "bernoulli", "init_scale": 2.0},
    {"lr": [0.05, 0.1, 0.2], "weight_decay": [0.0, 0.01, 0.1], "label_noise": [0.0, 0.2, 0.5], "stop_on_convergence": True},
]
BASE = {"width": 7, "steps": 40, "batch": 8, "lr": 0.1, "eval_every": 5, "n_eval": 32, "record_every": 10,
        "snapshot_every": 20}


def _run(backend, seeds=(3, 4, 5), **extra):
    kw = dict(BASE, **extra)
    return train_two_layer(10, 3, seeds=np.array(seeds, dtype=np.uint64), backend=backend, **kw)


def _same(a, b, exact):
    fields = ("theta", "loss", "eval_accuracy", "train_accuracy", "snapshots")
    for name in fields:
        x, y = getattr(a, name), getattr(b, name)
        if x is None or y is None:
            assert x is None and y is None, name
            continue
        if exact:
            assert np.array_equal(x, y, equal_nan=True), name
        else:
            # float64 sums in another order: 40 steps of lr <= 0.2 amplify a 1e-16 difference by at most
            # a factor ~(1 + lr L)^T; observed <= 1e-15; 1e-9 leaves room without hiding a wrong formula
            np.testing.assert_allclose(x, y, rtol=1e-9, atol=1e-9, err_msg=name)
    for name in ("converged_at", "fitted_at", "diverged_at", "steps_done"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


@pytest.mark.parametrize("extra", CONFIGS, ids=lambda e: ",".join(sorted(e)) or "default")
def test_cpu_matches_numpy_reference(extra):
    _same(_run("cpu", **extra), _run("reference", **extra), exact=False)


@cuda_test
@pytest.mark.filterwarnings("ignore:overflow encountered in scalar:RuntimeWarning")  # SplitMix64 wraps mod 2^64 by design
@pytest.mark.parametrize("extra", [CONFIGS[0], CONFIGS[3], CONFIGS[5]], ids=["default", "adam", "finite"])
def test_cuda_twin_matches_reference_and_cpu(extra):
    """The CUDA twin (per-sample body) against the numpy reference and the CPU twin (batched gemm body):
    float64 to rounding (same tolerance argument as the reference test); float32 for the smooth logistic
    configuration only, rtol 1e-4: 8 steps of lr 0.01 from ulp-level (6e-8) differences in the order of
    summation stay far below it, while a hinge/ReLU kink crossed on one side only could legitimately
    produce a discontinuous difference.  The simulator runs every thread in Python (~1 s per step here):
    8 steps with two snapshots, records and evaluations are what the comparison needs."""
    small = dict(extra, steps=8, n_eval=16, snapshot_every=4, record_every=4, eval_every=4)
    gpu = _run("cuda", **small)
    _same(gpu, _run("reference", **small), exact=False)
    _same(gpu, _run("cpu", **small), exact=False)
    if extra.get("loss") == "logistic":
        g32, c32 = _run("cuda", dtype="float32", **small), _run("cpu", dtype="float32", **small)
        np.testing.assert_allclose(g32.theta, c32.theta, rtol=1e-4, atol=1e-5)
        assert np.array_equal(g32.converged_at, c32.converged_at)


@cuda_test
@pytest.mark.filterwarnings("ignore:overflow encountered in scalar:RuntimeWarning")  # SplitMix64 wraps mod 2^64 by design
@pytest.mark.parametrize("extra", [
    {"batch": 40, "n_eval": 40, "width": 37},  # two sample chunks per step and per evaluation, 37 = 32 + 5 units
    {"train_size": 50, "activation": Activation.zigzag(3), "loss": "logistic", "optimizer": "adam", "lr": 0.02,
     "label_noise": [0.0, 0.3], "schedule": "cosine"},  # one noise rate per run (two runs below)
], ids=["chunks", "trainset-adam"])
def test_cuda_block_kernel_matches_reference_and_cpu(extra):
    """The block-per-run kernel (variant "block": 32 threads per run over the hidden units) against the numpy
    reference and the CPU twin.  It sums f = c + sum_j u_j sigma(h_j) over its threads in another order than
    either (every other operation is the per-sample body's, in its order), so bit equality with the CPU
    engine does not hold even under the simulator; the agreement is the float64 rounding tolerance of
    ``_same`` (as for the thread kernel against the gemm body), and every discrete outcome is equal.  Two
    runs (two blocks) and 4 steps with two snapshots, records and evaluations: the simulator runs each
    block's 32 threads in Python and pays every barrier (~1 s per block-step here)."""
    import kernels.cuda.training_two_layer as T

    small = dict(extra, steps=4, snapshot_every=2, record_every=2, eval_every=2, seeds=(3, 4))
    old, T.VARIANT = T.VARIANT, "block"
    try:
        gpu = _run("cuda", **small)
        assert T.LAST["variant"] == "block" and T.LAST["threads_per_block"] == 32
    finally:
        T.VARIANT = old
    _same(gpu, _run("reference", **small), exact=False)
    _same(gpu, _run("cpu", **small), exact=False)


@cuda_test
def test_cuda_block_variant_falls_back_outside_its_scope():
    """n > 64 inputs or the PolyNet product read-out: the launcher runs the thread kernel and says so."""
    import kernels.cuda.training_two_layer as T

    old, T.VARIANT = T.VARIANT, "block"
    try:
        train_two_layer(3, 2, width=2, seeds=np.array([1], dtype=np.uint64), steps=1, batch=2, activation="product",
                        second_layer=False, n_eval=4, backend="cuda")
        assert T.LAST["variant"] == "thread" and T.LAST["kernel_s"] >= 0
    finally:
        T.VARIANT = old
    with pytest.raises(ValueError, match="variant"):
        T.launch_two_layer_cuda([], np.float64, variant="warp")


def test_a_run_replays_alone_and_does_not_depend_on_threads():
    seeds = np.arange(10, 16, dtype=np.uint64)
    kw = {"width": 5, "steps": 30, "batch": 4, "eval_every": 3, "record_every": 3}
    together = train_two_layer(9, 2, seeds=seeds, backend="cpu", **kw)
    alone = train_two_layer(9, 2, seeds=seeds[[4]], backend="cpu", **kw)
    assert np.array_equal(together.theta[4], alone.theta[0])
    assert together.converged_at[4] == alone.converged_at[0]
    # serial and parallel kernels run the same body
    from kernels.training import two_layer as mod

    res = {}
    for serial in (True, False):
        saved = mod.use_serial
        mod.use_serial = lambda runs, work, s=serial: s
        try:
            res[serial] = train_two_layer(9, 2, seeds=seeds, backend="cpu", **kw)
        finally:
            mod.use_serial = saved
    assert np.array_equal(res[True].theta, res[False].theta)


@pytest.mark.parametrize("width", [3, 30])
def test_a_run_continued_from_its_state_equals_the_uninterrupted_run(width):
    """start_step: runs stopped at step 60 and continued from their parameters end as the runs trained to 150 at
    once, bit for bit (theta, convergence, steps done); also a fixed training set, narrow (gemm) and loop bodies."""
    seeds = np.arange(20, 26, dtype=np.uint64)
    kw = {"width": width, "batch": 8, "lr": 0.05, "eval_every": 10, "n_eval": 64, "target_accuracy": 1.0,
          "stop_on_convergence": True, "dtype": "float32", "backend": "cpu", "train_size": 50}
    whole = train_two_layer(12, 3, seeds=seeds, steps=150, **kw)
    first = train_two_layer(12, 3, seeds=seeds, steps=60, **kw)
    assert np.array_equal(first.steps_done, np.minimum(whole.steps_done, 60))
    rest = train_two_layer(12, 3, seeds=seeds, steps=150, theta0=first.theta, start_step=60, **kw)
    assert np.array_equal(rest.theta.view(np.int32), whole.theta.view(np.int32))
    assert np.array_equal(rest.steps_done, whole.steps_done)
    late = whole.converged_at >= 60
    assert np.array_equal(rest.converged_at[late], whole.converged_at[late])
    for bad in ({"optimizer": "adam"}, {"schedule": "cosine"}, {"theta0": None}, {"backend": "reference"}):
        with pytest.raises(ValueError, match="start_step"):
            train_two_layer(12, 3, seeds=seeds, steps=150, **{**kw, "theta0": first.theta, "start_step": 60, **bad})


def test_batches_are_the_documented_counter_stream():
    """The held-out set of a run is parity_samples(seed, EVAL_STEP, ...); a network that computes the
    parity exactly (z^2 neurons: chi_{01} = ((x0 + x1)^2 - (x0 - x1)^2) / 4) has accuracy 1 on it, and its
    negation 0: so the kernel's labels are chi_S of the kernel's inputs."""
    n, r = 5, 2
    theta = np.zeros(n_params(n, r))
    W = theta[: n * r].reshape(n, r)
    W[0, 0] = W[1, 0] = 1.0
    W[0, 1], W[1, 1] = 1.0, -1.0
    theta[n * r + r : n * r + 2 * r] = [0.25, -0.25]
    for sign, acc in ((1.0, 1.0), (-1.0, 0.0)):
        res = train_two_layer(n, 2, width=r, seeds=[9], steps=0, activation=Activation.power(2), theta0=sign * theta,
                              eval_every=1, record_every=1, n_eval=64, backend="cpu")
        assert res.eval_accuracy[0, 0] == acc
    X, y = parity_samples(9, int(EVAL_STEP), 64, n, [0, 1])
    assert np.array_equal(y, X[:, 0] * X[:, 1]) and 0 < (X == -1).mean() < 1


def test_training_learns_a_small_parity():
    res = train_two_layer(10, 2, width=32, seeds=np.arange(8, dtype=np.uint64), steps=3000, lr=0.1, eval_every=10,
                          stop_on_convergence=True, backend="cpu")
    assert (res.converged_at >= 0).mean() >= 0.75
    assert np.all(res.steps_done[res.converged_at >= 0] == res.converged_at[res.converged_at >= 0])


def test_divergence_is_reported_never_as_convergence():
    res = train_two_layer(10, 2, width=8, seeds=[1, 2], steps=200, lr=1e5, loss="square", activation=Activation.power(3),
                          eval_every=10, backend="cpu")
    assert np.all(res.diverged_at > 0)
    assert np.all(res.steps_done == res.diverged_at)
    assert np.all(res.converged_at < 0)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"width": 0}, "width"),
        ({"k": 11}, "'k'"),
        ({"batch": 0}, "batch"),
        ({"lr": float("nan")}, "'lr'"),
        ({"lr": float("inf")}, "'lr'"),
        ({"lr": -0.1}, "'lr'"),
        ({"label_noise": 0.6}, "label_noise"),
        ({"loss": "mse"}, "loss"),
        ({"optimizer": "rmsprop"}, "optimizer"),
        ({"dtype": "float16"}, "dtype"),
        ({"seeds": [-1]}, "seeds"),
        ({"support": [0, 0, 1]}, "support"),
        ({"target_accuracy": 0.0}, "target_accuracy"),
        ({"theta0": np.zeros(3)}, "theta0"),
        ({"activation": "tanh"}, "activation"),
    ],
)
def test_bad_input_raises_value_error_naming_the_argument(kwargs, match):
    kw = {"k": 3, "width": 4, "seeds": [1], "steps": 5}
    kw.update(kwargs)
    k = kw.pop("k")
    with pytest.raises(ValueError, match=match):
        train_two_layer(10, k, **kw)


def test_refuses_huge_allocations_before_work():
    with pytest.raises(ValueError, match="seeds"):
        train_two_layer(4096, 2, width=100_000, seeds=np.arange(1000, dtype=np.uint64), steps=1)


def test_cpu_kernel_cache_keys_by_dtype():
    assert _cpu_kernel(np.dtype(np.float32), True) is not _cpu_kernel(np.dtype(np.float64), True)


def test_cpu_results_do_not_depend_on_the_blas_thread_count():
    """The engine pins BLAS to one thread around its CPU kernel (kernels.training._common.single_threaded_blas):
    at a size where OpenBLAS threads its gemm (B = 1024, width 20 < LOOP_MIN_WIDTH, so the CPU body uses gemm;
    float32) the bits are the same whatever thread count BLAS is given outside, so they do not depend on the
    machine's core count."""
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from kernels.training._two_layer_body import LOOP_MIN_WIDTH

    assert 20 < LOOP_MIN_WIDTH
    kw = dict(width=20, seeds=np.arange(3, dtype=np.uint64) + 7, steps=60, batch=1024, lr=0.1, dtype="float32",
              record_every=20, backend="cpu")
    runs = []
    for threads in (1, 2):
        with threadpoolctl.threadpool_limits(threads, user_api="blas"):
            runs.append(train_two_layer(30, 3, **kw))
    assert runs[0].theta.tobytes() == runs[1].theta.tobytes()
    assert np.array_equal(runs[0].loss, runs[1].loss, equal_nan=True)


def test_single_threaded_blas_restores_the_thread_count():
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from kernels.training._common import single_threaded_blas

    with threadpoolctl.threadpool_limits(2, user_api="blas"):
        with single_threaded_blas():
            inside = {i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"}
        after = {i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"}
    assert inside == {1}
    assert after == {2}


def _group_sums(coef: np.ndarray, rows: np.ndarray, out: np.ndarray) -> np.ndarray:
    """add_combination's order in numpy (elementwise IEEE operations in the rows' type, no FMA): out +=
    ((c0 R0 + c1 R1) + (c2 R2 + c3 R3)) per group of four, then the rows left over one at a time."""
    q = 0
    while q + 4 <= len(coef):
        out = out + ((coef[q] * rows[q] + coef[q + 1] * rows[q + 1]) + (coef[q + 2] * rows[q + 2] + coef[q + 3] * rows[q + 3]))
        q += 4
    for q in range(q, len(coef)):
        out = out + coef[q] * rows[q]
    return out


_GRAD32, _TABLE_SCRATCH32 = _BODIES[(np.dtype(np.float32), True)][8:10]


@nb.njit  # no cache=True: a cached copy would not see changes to the body it calls
def _gradient32(theta, grad, seed, t, batch, n, r, code, params, support, X, YF, H, A, D):  # pragma: no cover - compiled
    """The CPU body's batch gradient (float32, hinge loss, online data), leaving X, YF[1] = the loss slopes, H (not
    for ReLU), A, D in place."""
    T, live = _TABLE_SCRATCH32(n, r, batch, D, np.zeros(1, np.int64))
    return _GRAD32(theta, grad, seed, t, batch, 0, n, r, code, params, support, 1, 0.0, 0, True, True, True,
                   np.zeros(1, np.int64), np.zeros(1, np.float32), X, YF, H, A, D, T, live)


def _running_sum(coef: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """((+0 + c_0 R_0) + c_1 R_1) + ... in the rows' type (the order of grad_u and grad_b)."""
    out = np.zeros(rows.shape[1], rows.dtype)
    for c, row in zip(coef, rows):
        out = out + c * row
    return out


@pytest.mark.parametrize("activation", [Activation.relu(), Activation.poly([0.0, 0.5, 0.25])], ids=["relu", "poly"])
def test_group_tables_give_the_bits_of_the_group_sums_and_skip_only_zero_groups(activation):
    """The CPU body's loop path reads H = X W and grad_W = X^T D's groups of four from group tables (one row and a sign per group), and leaves
    out the groups of samples whose rows of D are all zero (hinge loss with margin >= 1): every bit equals
    add_combination's sums (oracle: those sums in numpy, float32; the body's code is the same for float64); so do
    grad_u = sum_s g_s sigma(h_s) and grad_b = sum_s d_s, summed one sample at a time.  ReLU writes A = max(0, H)
    straight from the sums (H is not kept); other activations keep H.
    Shapes with rows and samples left over (n = 30, B = 34); outputs near the margin, so that some steps have
    zero groups, some mixed ones; rows of W that cancel, so that table entries and partial sums are exact zeros."""
    F = np.float32
    n, r, B = 30, 40, 34
    rng = np.random.default_rng(5)
    theta = np.concatenate([rng.uniform(-0.3, 0.3, n * r), rng.uniform(-0.3, 0.3, r), rng.uniform(-0.02, 0.02, r),
                            [1.02]]).astype(F)  # f = 1.02 + small: y f >= 1 for about half of the samples (k = 0: y = 1)
    W = theta[: n * r].reshape(n, r)
    W[5], W[7], W[9] = W[4], -W[6], -W[8]  # group sums that cancel exactly (zeros of either sign in the table)
    zero_groups = mixed_groups = 0
    for t in range(12):
        X, YF = np.zeros((B, n), F), np.zeros((2, B), F)
        H, A, D = (np.zeros((B, r), F) for _ in range(3))
        grad = np.zeros_like(theta)
        _gradient32(theta, grad, np.uint64(7), t, B, n, r, activation.code, activation.param_array(),
                    np.zeros(0, np.int64), X, YF, H, A, D)
        W, b = theta[: n * r].reshape(n, r), theta[n * r : n * r + r]
        H_old = np.stack([_group_sums(X[s], W, np.zeros(r, F)) + b for s in range(B)]).astype(F)
        GW_old = np.stack([_group_sums(X[:, i], D, np.zeros(r, F)) for i in range(n)])
        if activation.code == 1:
            assert A.tobytes() == np.where(H_old > 0, H_old, F(0)).tobytes()
        else:
            assert H.tobytes() == H_old.tobytes()
        assert grad[: n * r].tobytes() == GW_old.astype(F).reshape(-1).tobytes()
        assert grad[n * r : n * r + r].tobytes() == _running_sum(np.ones(B, F), D).tobytes()
        assert grad[n * r + r : n * r + 2 * r].tobytes() == _running_sum(YF[1], A).tobytes()
        zero = ~D.any(axis=1)
        groups = zero[: 4 * (B // 4)].reshape(-1, 4)
        zero_groups += int(groups.all(axis=1).sum())
        mixed_groups += int((groups.any(axis=1) & ~groups.all(axis=1)).sum())
    assert zero_groups >= 3 and mixed_groups >= 3  # both kinds were exercised


_ROW_SUMS = {np.dtype(F): build_row_sums(F) for F in (np.float32, np.float64)}
_ADD_TERMS = {dt: nb.njit(parts[5]) for dt, parts in _ROW_SUMS.items()}
_READOUTS = {dt: nb.njit(parts[10]) for dt, parts in _ROW_SUMS.items()}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("r", [1, 7, 8, 9, 100, 104, 211, 1000])
def test_signed_row_sums_give_the_bits_of_the_running_sum(dtype, r):
    """add_terms (``signed_row_sums``: blocks of the row in vector registers, the row's tail vector stored entry by
    entry) against the running sum in numpy: out = ((+0 + s_0 T[i_0]) + s_1 T[i_1]) + ..., with and without the
    ReLU, on the first r entries only (the entries after them keep their value); strided terms, zero terms, exact
    zeros of both signs in the table."""
    rng = np.random.default_rng(r)
    rp = (r + 7) // 8 * 8
    T = np.zeros((12, rp), dtype)
    T[:, :r] = rng.standard_normal((12, r))
    T[3, :r] = -T[2, :r]  # terms that cancel: exact zeros
    T[4, : r // 2] = -0.0
    for m in (0, 1, 3, 10, 41):
        terms = np.zeros((m, 3), np.int64)
        terms[:, 1] = rng.integers(0, 24, m)
        for relu in (False, True):
            out = np.full(rp + 3, 7.0, dtype)
            _ADD_TERMS[np.dtype(dtype)](out, T, terms[:, 1], m, r, relu)
            want = np.zeros(rp, dtype)
            for term in terms[:, 1]:
                want = want + dtype(1 - 2 * (term & 1)) * T[term >> 1]
            if relu:
                want = np.where(want > 0, want, dtype(0))
            assert out[:r].tobytes() == want[:r].tobytes()
            assert np.all(out[r:] == 7.0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("r", [1, 4, 5, 24, 100, 103])
def test_readouts_give_the_bits_of_four_partial_sums(dtype, r):
    """readouts (``lane_sums``: two samples per 8-lane vector, eight samples per call) against the order of every twin
    in numpy scalars: o_k = sum_i u_{4i+k} a_{4i+k} in increasing i, the entries left over added to o_0, then
    c + ((o_0 + o_1) + (o_2 + o_3)); batches that fill no block, one block, and blocks with rows left over."""
    rng = np.random.default_rng(r)
    u = rng.standard_normal(r).astype(dtype)
    c = dtype(0.25)
    for m in (1, 2, 7, 8, 9, 17):
        A = rng.standard_normal((m + 2, r)).astype(dtype)
        fout = np.zeros(m + 2, dtype)
        _READOUTS[np.dtype(dtype)](u, A, fout, m, r, c)
        for s in range(m):
            o = [dtype(0)] * 4
            for j in range(4 * (r // 4)):
                o[j % 4] = o[j % 4] + u[j] * A[s, j]
            for j in range(4 * (r // 4), r):
                o[0] = o[0] + u[j] * A[s, j]
            assert fout[s].tobytes() == (c + ((o[0] + o[1]) + (o[2] + o[3]))).tobytes()
        assert np.all(fout[m:] == 0)


_KEY_SCRIPT = """
import hashlib
import numpy as np
from numba.core.serialize import dumps
from kernels.training.two_layer import _BODIES
print(hashlib.sha256(dumps((_BODIES[(np.dtype(np.float32), True)][0],))).hexdigest())
"""


def test_the_engine_cache_key_is_the_same_in_every_process():
    """numba's on-disk cache finds the compiled CPU engine under a key that includes the pickled closure of its run
    loop (the bodies, the row sums and the vector-register intrinsics they call): a key that changed from process to
    process (an intrinsic's default identity is a uuid drawn per process) would make every process compile the engine
    again, about 30 s per process.  Two fresh interpreters must give the same key."""
    import subprocess
    import sys

    keys = {subprocess.run([sys.executable, "-c", _KEY_SCRIPT], capture_output=True, text=True, check=True).stdout
            for _ in range(2)}
    assert len(keys) == 1 and len(next(iter(keys)).strip()) == 64
