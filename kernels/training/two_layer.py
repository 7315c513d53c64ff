"""Batched SGD / Adam training of two-layer networks and single neurons on sparse parities.

Model (seed 004, Section 5.3 and App. B.4, architectures (i)-(xiv) of Empirical Finding 5.1):

    f(x; theta) = sum_{j < r} u_j sigma(<w_j, x> + b_j) + c,          x in {±1}^n,

with r = ``width`` hidden units and sigma any :class:`kernels.activations.Activation` (ReLU, z^k and
other polynomials, sine, k-zigzag, triangle wave).  The PolyNet of setting (xv) (line 947) is the same
first layer with the product read-out f = prod_j (<w_j, x> + b_j) (``activation="product"``,
:func:`train_polynet`).  ``bias=False`` freezes b = 0;
``second_layer=False`` freezes u = 1 and c = 0 (settings (xi)-(xiv): "no second layer").  The
parameters of a run are one flat vector theta = [W (n x r, input-major: W[i, j] = w_j[i]) | b (r) |
u (r) | c] so that the optimisers treat every parameter alike.

Task.  The (n, k)-sparse parity y = chi_S(x) = prod_{i in S} x_i on uniform x, S = ``support`` (the
first k coordinates unless given), training labels flipped independently with probability
``label_noise`` in [0, 1/2] (1/2 makes the training labels independent of x: "training on noise");
evaluation labels are clean.  Data come either online (a fresh batch every step) or
from a fixed training set of ``train_size`` samples drawn once per run (batches then draw indices
uniformly with replacement: the finite-sample regime of E34).

Loss of a sample with margin m = y f: hinge max(0, 1 - m), square (f - y)^2 / 2, correlation -m,
logistic log(1 + e^{-m}).  The step uses the mean over the batch.  Optimisers, with G = grad + lambda
theta (L2 weight decay ``weight_decay``, coupled as in torch.optim) and eta_t = lr * schedule(t):
SGD theta <- theta - eta_t G; Adam with bias correction (beta1, beta2, eps) as in Kingma & Ba / torch.
Schedules on step t = 0..T-1: constant 1, cosine (1 + cos(pi t / T)) / 2, linear 1 - t / T.

Initialisation (``init``): "uniform" = torch.nn.Linear's default, W, b ~ U(-1/sqrt(n), 1/sqrt(n)) and
u, c ~ U(-1/sqrt(r), 1/sqrt(r)); "gaussian" = N(0, 1/n) and N(0, 1/r); "bernoulli" = ±1/sqrt(n) and
±1/sqrt(r); every draw is multiplied by ``init_scale``.  The initial parameters are a pure function of
the run's seed (counter stream position (seed, INIT_STEP, index)), or may be passed explicitly.

Randomness (one counter-based Philox stream per run, ``kernels.rng.counter_u64(seed, step, index)``):
sample b of online step t (t = 0..T-1) uses words (t, b (W + 1) + q), q < W = ceil(n / 64): bit i mod
64 of word i div 64 set <=> x_i = -1; word q = W decides the label flip (``unit_double`` < p).  A fixed
training set uses the same layout at step TRAIN_STEP (sample index in place of b), and step t draws
its B indices with ``counter_bounded(seed, t, b, m)``.  The held-out set is the ``n_eval`` samples at
step EVAL_STEP.  Hence every backend sees the same data, and any run can be replayed alone.

Outputs (:class:`TwoLayerResult`).  Held-out accuracy (fraction of samples with y f > 0) is measured
after every ``eval_every`` steps (and at step 0); ``converged_at`` is the first such step whose accuracy
reaches ``target_accuracy`` (-1 if none), and with ``stop_on_convergence`` the run stops there.  With a
fixed training set, ``fitted_at`` is the first evaluation step with zero training error on the whole set.
Curves every ``record_every`` steps: mean batch loss of the last step, held-out accuracy, training-set
accuracy; ``snapshot_every`` stores theta.  A run whose parameters become non-finite or exceed
``OVERFLOW`` (1e38 in float32) stops: ``diverged_at`` is the step (-1 otherwise), and it is never reported as converged.
Records after a run stops are NaN.  An evaluation off the record stride only decides convergence / fitting:
the CPU body skips it once that is decided and stops a pass as soon as the remaining samples cannot reach
the threshold (``accuracy_batched``'s bound), which changes no output.

Twins.  A numpy reference (``kernels/training/_two_layer_ref.py``, written independently: batched
matrix products, float64, the oracle of the tests), the numba CPU kernel (``prange`` over runs) and the
numba.cuda kernel (one thread per run, kernels/cuda/training_two_layer.py) share the per-run loop
``run_one`` (data stream, loss, optimiser, evaluation, records; ``register_jitable``), built by
``_build`` per precision (float32 / float64) and per batch computation: the CPU body forms the batch as
a B x n matrix and computes H = X W and grad_W = X^T D in loops over row views that LLVM vectorises (no
BLAS: at B x n x r = 32 x 30 x 100 a gemm call costs more than its arithmetic) and evaluates polynomial
activations and their slopes a row of units at a time (Horner's rule, coefficient loop outside: vectorised,
width-100 z^2 runs train 3-4x faster than unit by unit, with the same float64 operations per unit), the CUDA body
goes sample by sample with loops only (h = (b + sum_i W_i) - 2 sum_{x_i = -1} W_i over the list of negative
coordinates, so no data-dependent branches).  All three agree to rounding.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba as nb
import numpy as np
from numba import prange

from .. import _checks
from ..activations import RELU, Activation
from ..backend import resolve_backend
from ..rng import counter_u64_array
from ._common import per_run_reals, single_threaded_blas, use_serial, validate_seeds
from ._two_layer_body import _BODIES, _MAX_N, EVAL_STEP, INIT_STEP, PRODUCT, TRAIN_STEP, _support, parity_samples

__all__ = [
    "EVAL_STEP",
    "INITS",
    "INIT_STEP",
    "LOSSES",
    "OPTIMIZERS",
    "SCHEDULES",
    "TRAIN_STEP",
    "TwoLayerResult",
    "init_two_layer",
    "n_params",
    "parity_samples",
    "train_two_layer",
]

LOSSES = ("hinge", "square", "correlation", "logistic")
OPTIMIZERS = ("sgd", "adam")
SCHEDULES = ("constant", "cosine", "linear")
INITS = ("uniform", "gaussian", "bernoulli")
_MAX_WIDTH = 100_000


def _cpu_pair(drive):
    """(parallel, serial) CPU kernels looping ``drive`` over the runs: one loop, compiled twice (prange is
    a plain range without parallel=True)."""

    def loop(TH, GR, M1, M2, XS, WK, XB, YB, HB, AB, DB, n, r, code, params, support, seeds, steps, batch, loss, opt,
             lrs, wds, schedule, beta1, beta2, eps, noises, train_size, tb, tu, tc, eval_every, n_eval, target, stop,
             record_every, REC_L, REC_E, REC_T, snap_every, SNAP, OUT):  # pragma: no cover - compiled
        for q in prange(seeds.shape[0]):
            drive(q, TH, GR, M1, M2, XS, WK, XB, YB, HB, AB, DB, n, r, code, params, support, seeds, steps, batch, loss,
                  opt, lrs, wds, schedule, beta1, beta2, eps, noises, train_size, tb, tu, tc, eval_every, n_eval, target,
                  stop, record_every, REC_L, REC_E, REC_T, snap_every, SNAP, OUT)

    return (nb.njit(parallel=True, error_model="numpy", cache=True)(loop),
            nb.njit(error_model="numpy", cache=True)(loop))


_CPU = {}


def _cpu_kernel(dtype: np.dtype, serial: bool):
    if dtype not in _CPU:
        _CPU[dtype] = _cpu_pair(_BODIES[(dtype, True)][0])
    return _CPU[dtype][1 if serial else 0]


# ---------------------------------------------------------------------------------------------
# validation, initialisation, public wrapper
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TwoLayerResult:
    """Per-run outputs of :func:`train_two_layer` (R runs, P = n r + 2 r + 1 parameters).

    ``theta`` (R, P): final parameters (flat, see :func:`unpack`); ``W`` (R, n, r), ``b``, ``u`` (R, r),
    ``c`` (R,): views of it.  ``converged_at``, ``fitted_at``, ``diverged_at`` (R,) int64 (-1 = never);
    ``steps_done`` (R,): steps taken (smaller than ``steps`` when a run stopped).  ``record_steps`` (C,),
    ``loss`` / ``eval_accuracy`` / ``train_accuracy`` (R, C): the curves (NaN where not defined or after
    the run stopped; ``loss`` at step 0 is NaN).  ``snapshot_steps`` (D,), ``snapshots`` (R, D, P) or None.
    """

    theta: np.ndarray
    n: int
    width: int
    converged_at: np.ndarray
    fitted_at: np.ndarray
    diverged_at: np.ndarray
    steps_done: np.ndarray
    record_steps: np.ndarray
    loss: np.ndarray
    eval_accuracy: np.ndarray
    train_accuracy: np.ndarray
    snapshot_steps: np.ndarray
    snapshots: np.ndarray | None
    backend: str

    @property
    def W(self) -> np.ndarray:
        return self.theta[:, : self.n * self.width].reshape(-1, self.n, self.width)

    @property
    def b(self) -> np.ndarray:
        o = self.n * self.width
        return self.theta[:, o : o + self.width]

    @property
    def u(self) -> np.ndarray:
        o = self.n * self.width + self.width
        return self.theta[:, o : o + self.width]

    @property
    def c(self) -> np.ndarray:
        return self.theta[:, -1]

    @property
    def diverged(self) -> np.ndarray:
        return self.diverged_at >= 0

    @property
    def converged(self) -> np.ndarray:
        return self.converged_at >= 0


def n_params(n: int, width: int) -> int:
    """P = n r + 2 r + 1: the length of the flat parameter vector."""
    return n * width + 2 * width + 1


def _as_activation(activation) -> Activation:
    if isinstance(activation, Activation) and activation.code >= 0:
        return activation
    if activation == "relu":
        return Activation.relu()
    if activation == "product":
        return Activation(PRODUCT, ())
    raise ValueError(f"argument 'activation' must be an Activation, 'relu' or 'product', not {activation!r}")


def init_two_layer(n: int, width: int, seeds, *, init: str = "uniform", scale: float = 1.0, bias: bool = True,
                   second_layer: bool = True, output_bias: bool = True, dtype="float64") -> np.ndarray:
    """Initial flat parameters (R, P) of every run, a pure function of (seed, INIT_STEP, index).

    Index p < P draws ``counter_u64(seed, INIT_STEP, p)``: "uniform" maps its top 53 bits u to
    (2u - 1) a, "gaussian" uses the Box-Muller transform of the words p and P + p, "bernoulli" takes
    the sign of the lowest bit; a = 1/sqrt(n) for W and b, 1/sqrt(width) for u and c, times ``scale``.
    Frozen parts: b = 0 without ``bias``; u = 1, c = 0 without ``second_layer``; c = 0 without
    ``output_bias``.
    """
    n = _checks.require_int("n", n, min_value=1, max_value=_MAX_N)
    width = _checks.require_int("width", width, min_value=1, max_value=_MAX_WIDTH)
    seeds_arr = validate_seeds(seeds)
    if init not in INITS:
        raise ValueError(f"argument 'init' must be one of {INITS}, not {init!r}")
    scale = float(scale)
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"argument 'scale' must be a finite positive real number, not {scale!r}")
    dt = _dtype(dtype)
    P = n_params(n, width)
    R = seeds_arr.shape[0]
    _checks.require_memory("seeds", f"{R} runs x {P} parameters", 8 * 3 * R * P, what="the initial parameters")
    idx = np.arange(2 * P, dtype=np.uint64)
    words = counter_u64_array(np.repeat(seeds_arr, 2 * P), np.full(R * 2 * P, INIT_STEP, dtype=np.uint64),
                              np.tile(idx, R)).reshape(R, 2 * P)
    u01 = (words >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)
    if init == "uniform":
        z = 2.0 * u01[:, :P] - 1.0
    elif init == "gaussian":
        u1 = 1.0 - u01[:, :P]  # in (0, 1]
        z = np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u01[:, P:])
    else:
        z = np.where((words[:, :P] & np.uint64(1)) == 0, 1.0, -1.0)
    a = np.empty(P)
    a[: n * width + width] = 1.0 / math.sqrt(n)
    a[n * width + width :] = 1.0 / math.sqrt(width)
    theta = z * a * scale
    o = n * width
    if not bias:
        theta[:, o : o + width] = 0.0
    if not second_layer:
        theta[:, o + width : o + 2 * width] = 1.0
        theta[:, -1] = 0.0
    elif not output_bias:
        theta[:, -1] = 0.0
    return np.ascontiguousarray(theta.astype(dt))


def _dtype(dtype) -> np.dtype:
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise ValueError(f"argument 'dtype' must be float32 or float64, not {dtype!r}") from None
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise ValueError(f"argument 'dtype' must be float32 or float64, not {dtype!r}")
    return dt


def _validate(n, k, width, activation, seeds, steps, batch, lr, loss, optimizer, weight_decay, schedule, betas, eps,
              label_noise, train_size, support, eval_every, n_eval, target_accuracy, record_every, snapshot_every, dtype):
    n = _checks.require_int("n", n, min_value=1, max_value=_MAX_N)
    k = _checks.require_int("k", k, min_value=0, max_value=n)
    width = _checks.require_int("width", width, min_value=1, max_value=_MAX_WIDTH)
    act = _as_activation(activation)
    seeds_arr = validate_seeds(seeds)
    R = seeds_arr.shape[0]
    steps = _checks.require_int("steps", steps, min_value=0, max_value=2**62)
    batch = _checks.require_int("batch", batch, min_value=1, max_value=2**31 - 1)
    lrs = per_run_reals("lr", lr, R, lo=0.0, hi=1e6, lo_open=True)
    if loss not in LOSSES:
        raise ValueError(f"argument 'loss' must be one of {LOSSES}, not {loss!r}")
    if optimizer not in OPTIMIZERS:
        raise ValueError(f"argument 'optimizer' must be one of {OPTIMIZERS}, not {optimizer!r}")
    if schedule not in SCHEDULES:
        raise ValueError(f"argument 'schedule' must be one of {SCHEDULES}, not {schedule!r}")
    wds = per_run_reals("weight_decay", weight_decay, R, lo=0.0, hi=1e6)
    try:
        beta1, beta2 = (float(v) for v in betas)
    except (TypeError, ValueError):
        raise ValueError(f"argument 'betas' must be a pair of reals in [0, 1), not {betas!r}") from None
    if not (0.0 <= beta1 < 1.0 and 0.0 <= beta2 < 1.0):
        raise ValueError(f"argument 'betas' must be a pair of reals in [0, 1), not {betas!r}")
    eps = float(eps)
    if not (math.isfinite(eps) and eps > 0):
        raise ValueError(f"argument 'eps' must be a finite positive real number, not {eps!r}")
    noises = per_run_reals("label_noise", label_noise, R, lo=0.0, hi=0.5)
    if train_size is None:
        train_size = 0
    else:
        train_size = _checks.require_int("train_size", train_size, min_value=1, max_value=2**31 - 1)
    sup = _support(support, n, k)
    eval_every = _checks.require_int("eval_every", eval_every, min_value=0, max_value=2**62)
    n_eval = _checks.require_int("n_eval", n_eval, min_value=1, max_value=2**31 - 1)
    target = float(target_accuracy)
    if not 0.0 < target <= 1.0:
        raise ValueError(f"argument 'target_accuracy' must be a real number in (0, 1], not {target_accuracy!r}")
    record_every = _checks.require_int("record_every", record_every, min_value=0, max_value=2**62)
    snapshot_every = _checks.require_int("snapshot_every", snapshot_every, min_value=0, max_value=2**62)
    dt = _dtype(dtype)
    P = n_params(n, width)
    C = steps // record_every + 1 if record_every else 0
    D = steps // snapshot_every + 1 if snapshot_every else 0
    nbytes = dt.itemsize * R * (4 * P + 2 * n + 5 * width + batch * (n + 3 * width + 2) + D * P) + 8 * R * 3 * C
    _checks.require_memory("seeds", f"{R} runs x {P} parameters ({C} records, {D} snapshots)", nbytes,
                           what="the training state and records")
    return (n, k, width, act, seeds_arr, steps, batch, lrs, LOSSES.index(loss), OPTIMIZERS.index(optimizer), wds,
            SCHEDULES.index(schedule), beta1, beta2, eps, noises, train_size, sup, eval_every, n_eval, target,
            record_every, snapshot_every, dt, P, C, D)


def _start_step(start_step, steps: int, theta0, opt_code: int, sched_code: int, backend: str) -> int:
    """Validate ``start_step`` of :func:`train_two_layer`: a continuation needs the parameters (theta0) and
    no other state (constant-rate SGD), and only the CPU engine implements it."""
    start_step = _checks.require_int("start_step", start_step, min_value=0, max_value=steps)
    if start_step and (theta0 is None or opt_code != 0 or sched_code != 0 or resolve_backend(backend) != "cpu"):
        raise ValueError("argument 'start_step' > 0 needs theta0, optimizer='sgd', schedule='constant' and the CPU "
                         f"backend, not theta0={'given' if theta0 is not None else None}, backend={backend!r}")
    return start_step


def train_two_layer(n: int, k: int, *, width: int, seeds, steps: int, activation="relu", batch: int = 32, lr=0.1,
                    loss: str = "hinge", optimizer: str = "sgd", weight_decay=0.0, schedule: str = "constant",
                    betas=(0.9, 0.999), eps: float = 1e-8, label_noise=0.0, train_size: int | None = None,
                    support=None, bias: bool = True, second_layer: bool = True, output_bias: bool = True,
                    init: str = "uniform", init_scale: float = 1.0, theta0=None, eval_every: int = 10,
                    n_eval: int = 128, target_accuracy: float = 1.0, stop_on_convergence: bool = False,
                    record_every: int = 0, snapshot_every: int = 0, dtype="float64", start_step: int = 0,
                    backend: str = "auto") -> TwoLayerResult:
    """Train one two-layer network per seed on the (n, k)-sparse parity (model, data, losses, optimisers
    and outputs: module docstring).

    Parameters
    ----------
    n, k : input dimension and parity degree (0 <= k <= n); ``support`` picks S (default range(k)).
    width : hidden units r >= 1 (1 with ``second_layer=False`` is a single neuron).
    seeds : one uint64 seed per run (the run's whole randomness).
    steps : optimiser steps T >= 0.  batch : samples per step B >= 1.
    activation : an :class:`Activation` or "relu".
    lr, weight_decay, label_noise : scalars or one per run.
    train_size : None (online data) or the size m of a fixed training set.
    theta0 : explicit initial parameters (P,) or (R, P) instead of ``init`` / ``init_scale``.
    eval_every, n_eval, target_accuracy, stop_on_convergence : convergence detection on held-out data.
    record_every, snapshot_every : curve and parameter-snapshot strides (0 = none).
    dtype : "float32" or "float64" (arithmetic and storage).  backend : "auto", "reference", "cpu", "cuda".
    start_step : continue runs at step ``start_step`` <= ``steps`` (CPU engine, constant-rate SGD only):
        ``theta0`` must then be the parameters after ``start_step`` steps of the same runs (``theta`` of a
        result stopped there), and the runs go on exactly as the uninterrupted ones (their batches are keyed
        by the step).  The outputs cover steps ``start_step`` .. ``steps`` (the evaluation at ``start_step``
        is repeated; earlier records are NaN, ``fitted_at`` / ``converged_at`` count from there).
    """
    (n, k, width, act, seeds_arr, steps, batch, lrs, loss_code, opt_code, wds, sched_code, beta1, beta2, eps, noises,
     train_size, sup, eval_every, n_eval, target, record_every, snapshot_every, dt, P, C, D) = _validate(
        n, k, width, activation, seeds, steps, batch, lr, loss, optimizer, weight_decay, schedule, betas, eps,
        label_noise, train_size, support, eval_every, n_eval, target_accuracy, record_every, snapshot_every, dtype)
    for name, flag in (("bias", bias), ("second_layer", second_layer), ("output_bias", output_bias),
                       ("stop_on_convergence", stop_on_convergence)):
        if not isinstance(flag, (bool, np.bool_)):
            raise ValueError(f"argument '{name}' must be a boolean, not {flag!r}")  # noqa: TRY004
    R = seeds_arr.shape[0]
    start_step = _start_step(start_step, steps, theta0, opt_code, sched_code, backend)
    if theta0 is None:
        theta = init_two_layer(n, width, seeds_arr, init=init, scale=init_scale, bias=bias, second_layer=second_layer,
                               output_bias=output_bias, dtype=dt)
    else:
        th = np.asarray(theta0, dtype=np.float64)
        if th.ndim == 1:
            th = th[None]
        if th.ndim != 2 or th.shape[1] != P or th.shape[0] not in (1, R):
            raise ValueError(f"argument 'theta0' must have shape ({P},) or ({R}, {P}), not {np.shape(theta0)}")
        if not np.all(np.isfinite(th)):
            raise ValueError("argument 'theta0' must be finite")
        theta = np.ascontiguousarray(np.broadcast_to(th, (R, P)).astype(dt))
    if act.code == PRODUCT and second_layer:
        raise ValueError("argument 'second_layer' must be False with activation='product' (the PolyNet read-out "
                         "f = prod_j h_j has no second layer); see train_polynet")
    tb, tu, tc = bool(bias), bool(second_layer), bool(second_layer and output_bias)
    used = resolve_backend(backend)
    rec = [np.full((R, C), np.nan) for _ in range(3)]
    snaps = np.full((R, D, P), np.nan, dtype=dt) if D else np.zeros((R, 0, 1), dtype=dt)
    out = np.zeros((R, 4), dtype=np.int64)
    out[:, 3] = start_step  # the kernel's start step of every run (then its steps done)
    params = act.param_array()
    if used == "reference":
        from ._two_layer_ref import train_two_layer_ref

        train_two_layer_ref(theta, n, width, act, sup, seeds_arr, steps, batch, loss_code, opt_code, lrs, wds, sched_code,
                            beta1, beta2, eps, noises, train_size, tb, tu, tc, eval_every, n_eval, target,
                            bool(stop_on_convergence), record_every, rec, snapshot_every, snaps, out)
    else:
        i64 = np.int64
        if used == "cuda":  # per-sample body: the sample as an index list and five work rows
            work = [np.zeros((R, 2 * n + 1), np.int64), np.zeros((R, 5 * width), dt), np.zeros((R, 1, 1), dt),
                    np.zeros((R, 2, 1), dt), np.zeros((R, 1, 1), dt), np.zeros((R, 1, 1), dt), np.zeros((R, 1, 1), dt)]
        else:  # batched body: X (B, n), labels and outputs (2, B), H, sigma(H), D (B, r)
            work = [np.zeros((R, 1), np.int64), np.zeros((R, 1), dt), np.zeros((R, batch, n), dt),
                    np.zeros((R, 2, batch), dt), np.zeros((R, batch, width), dt), np.zeros((R, batch, width), dt),
                    np.zeros((R, batch, width), dt)]
        args = [theta, np.zeros((R, P), dt), np.zeros((R, P), dt), np.zeros((R, P), dt), *work, i64(n), i64(width),
                i64(act.code), params, sup, seeds_arr, i64(steps), i64(batch), i64(loss_code), i64(opt_code), lrs, wds,
                i64(sched_code), float(beta1), float(beta2), float(eps), noises, i64(train_size), tb, tu, tc,
                i64(eval_every), i64(n_eval), float(target), bool(stop_on_convergence), i64(record_every), rec[0],
                rec[1], rec[2], i64(snapshot_every), snaps, out]
        if used == "cuda":
            from ..cuda.training_two_layer import launch_two_layer_cuda

            launch_two_layer_cuda(args, dt)
        else:
            flops = R * steps * batch * P * (2 if act.code == RELU else 4)
            with single_threaded_blas():  # bits independent of the core count, no oversubscription
                _cpu_kernel(dt, use_serial(R, flops))(*args)
    rs = np.arange(C, dtype=np.int64) * record_every if C else np.zeros(0, dtype=np.int64)
    ss = np.arange(D, dtype=np.int64) * snapshot_every if D else np.zeros(0, dtype=np.int64)
    return TwoLayerResult(theta=theta, n=n, width=width, converged_at=out[:, 0].copy(), fitted_at=out[:, 1].copy(),
                          diverged_at=out[:, 2].copy(), steps_done=out[:, 3].copy(), record_steps=rs, loss=rec[0],
                          eval_accuracy=rec[1], train_accuracy=rec[2], snapshot_steps=ss,
                          snapshots=snaps if D else None, backend=used)


def train_polynet(n: int, k: int, *, seeds, steps: int, factors: int | None = None, bias: bool = False,
                  **kwargs) -> TwoLayerResult:
    """Train PolyNets f(x) = prod_{j < factors} (<w_j, x> + b_j) (setting (xv) of Empirical Finding 5.1,
    seed 004 line 947: "a PolyNet simply outputs the product" of k linear functions of the input; factors
    defaults to k, biases are off unless asked for).  Same engine, data, losses, optimisers and outputs
    as :func:`train_two_layer` (its other keyword arguments pass through); W is (n, factors)."""
    if factors is None:
        factors = k
    return train_two_layer(n, k, width=factors, seeds=seeds, steps=steps, activation="product", second_layer=False,
                           bias=bias, **kwargs)

