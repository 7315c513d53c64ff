"""Online SGD of disjoint-PolyNets on sparse parities: many independent runs at once.

Model and task (seed 004, Section 5.4.2 and App. B.2.4).  A disjoint-PolyNet with k blocks of n'
inputs (n = k n') computes f(x; w) = prod_{i<k} <w_i, x_i>, with x_i in {±1}^{n'} the i-th block of x
and w an array of shape (k, n').  The target is the sparse parity of the first coordinate of every
block, y = prod_i x_{i,0} (relevant weights w_{i,0}; the paper's w_{i,1}), optionally flipped with
probability p (label noise).  The loss is the correlation loss l = -y f.

One run performs T steps of online mini-batch SGD.  With w^(t) the weights before step t = 1..T (the
paper's indexing: w^(1) is the initialisation and w^(T+1) the output), step t draws a fresh batch of
B samples and sets

    ghat_i = -(1/B) sum_b y_b (prod_{l != i} <w_l, x_{b,l}>) x_{b,i}       (the batch gradient)
    w_i   <- w_i - eta_i ghat_i,

with eta_i = lr ("constant") or eta_i = lr / prod_{l != i} ||w_l||_1 ("adaptive", Theorem 5.8: lr is
the constant c = 1/(2 sqrt(2 T log(2nT/delta))), see :func:`adaptive_lr_constant`); every quantity of
a step is computed from w^(t).  The population gradient is g_i = -(1 - 2p) (prod_{l != i} w_{l,0}) e_0
and the run accumulates the martingale of the proof of Theorem 5.8,

    s_{i,j} = sum_{tau <= t} Delta_{i,j}^(tau),   Delta = eta_i (g_{i,j} - ghat_{i,j}),

so that w^(t+1) = w^(1) - sum_tau eta g + s^(t) (exactly: irrelevant coordinates have g = 0).

Randomness.  The batch of step t is a pure function of (seed, t - 1): sample b uses the words
``kernels.rng.counter_u64(seed, t - 1, b (W + 1) + q)``, q < W = ceil(k n' / 64), whose bit
(i n' + j) mod 64 of word (i n' + j) div 64 is x_{b,i,j} (bit set <=> x = -1), and, when p > 0, the
uniform ``unit_double`` of word q = W decides the label flip (flip iff u < p).  So every backend sees
the same batches, any run can be replayed alone, and a run does not depend on the others.

Outputs per run (:class:`PolyNetSGDResult`): the final weights; at each checkpoint (the state after c
steps, i.e. w^(c+1)) the relevant weights (or all weights) and, over the window of steps since the
previous checkpoint (tau in (c_prev, c], the first window includes tau = 0), the minimum of
xi_i w_{i,0} (xi_i = sign of the initial relevant weight), the maximum of |w_{i,j}| over irrelevant
coordinates and the maximum of |s_{i,j}|; over the whole run, max_{0<=tau<=T} max_{i, j>0} |w_{i,j}|
(Claim B.11), max_tau max_{i,j} |s_{i,j}| (the martingale event of the proof), max |Delta|, and
max |ghat_{i,j}| / prod_{l != i} ||w_l||_1 (<= 1 by the triangle inequality); the final martingale
s^(T); and a divergence flag.  A run diverges when a weight becomes non-finite or exceeds
``OVERFLOW`` = 1e100 in magnitude: it stops there (``diverged_at`` = the step), its final weights are
those of that step and its later checkpoint records are NaN.  A diverged run is never reported as a
finished one.

Exactness.  Every twin performs the same float64 operations in the same order (sums over j and
products over l in increasing index order, no fused multiply-add), so the numba CPU twin equals the
numpy reference bit for bit; the CUDA twin (one thread per run) shares the per-run body
(``_run_one``, ``register_jitable``) and equals the CPU under the CUDA simulator; on a real GPU the
compiler may contract a multiply-add, which changes last bits only.
"""

# ruff: noqa: PLR1730  -- running maxima are explicit comparisons so that NaN is handled alike in every twin
from __future__ import annotations

import math
from dataclasses import dataclass

import numba as nb
import numpy as np
from numba import prange

from .. import _checks
from ..backend import resolve_backend
from ..rng import counter_u64_ref, unit_double_ref
from ._disjoint_polynet_body import _drive
from ._common import (
    OVERFLOW,
    per_run_reals,
    use_serial,
    validate_checkpoints,
    validate_seeds,
)

__all__ = [
    "LR_MODES",
    "PolyNetSGDResult",
    "adaptive_lr_constant",
    "disjoint_polynet_sgd",
    "disjoint_polynet_sgd_ref",
    "sample_batch_ref",
]

LR_MODES = ("constant", "adaptive")
_MAX_PARAMS = 1 << 16
_N_AUX = 7  # scratch rows per run: 0 sample dot products, 1 eta, 2 xi, 3 window min, 4 P_i, 5 norms, 6 population grad


# ---------------------------------------------------------------------------------------------
# numba CPU twin
# ---------------------------------------------------------------------------------------------


@nb.njit(parallel=True, cache=True, error_model="numpy")
def _sgd_cpu_parallel(W, S, G, XS, AUX, steps, seeds, batch, lr_mode, lrs, noises, checkpoints, record_all,
                      rec_rel, rec_all, rec_min, rec_irr, rec_mart, div_at, max_irr, max_mart, max_inc,
                      max_ratio):  # pragma: no cover - compiled
    for r in prange(seeds.shape[0]):
        _drive(r, W, S, G, XS, AUX, steps, seeds, batch, lr_mode, lrs, noises, checkpoints, record_all,
               rec_rel, rec_all, rec_min, rec_irr, rec_mart, div_at, max_irr, max_mart, max_inc, max_ratio)


@nb.njit(cache=True, error_model="numpy")
def _sgd_cpu_serial(W, S, G, XS, AUX, steps, seeds, batch, lr_mode, lrs, noises, checkpoints, record_all,
                    rec_rel, rec_all, rec_min, rec_irr, rec_mart, div_at, max_irr, max_mart, max_inc,
                    max_ratio):  # pragma: no cover - compiled
    for r in range(seeds.shape[0]):
        _drive(r, W, S, G, XS, AUX, steps, seeds, batch, lr_mode, lrs, noises, checkpoints, record_all,
               rec_rel, rec_all, rec_min, rec_irr, rec_mart, div_at, max_irr, max_mart, max_inc, max_ratio)


# ---------------------------------------------------------------------------------------------
# results, validation, public wrapper
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PolyNetSGDResult:
    """Per-run outputs of :func:`disjoint_polynet_sgd` (S runs, C checkpoints, k blocks of n').

    ``w`` (S, k, n'): w^(T+1) (or the weights at divergence).  ``checkpoints`` (C,): steps c recorded.
    ``relevant`` (S, C, k): w_{i,0} after c steps.  ``weights`` (S, C, k, n') or None: all weights there
    (``record_all``).  ``window_min_aligned`` (S, C, k): min over the window of xi_i w_{i,0}.
    ``window_max_irrelevant`` (S, C), ``window_max_martingale`` (S, C): window maxima of
    max_{i,j>0} |w_ij| and max_{i,j} |s_ij|.  ``max_irrelevant`` (S,): max over tau in [0, T].
    ``max_martingale`` (S,): max over tau in [1, T] of max |s|.  ``max_increment`` (S,): max |Delta|.
    ``max_gradient_ratio`` (S,): max |ghat_ij| / prod_{l != i} ||w_l||_1.  ``martingale`` (S, k, n'):
    s^(T).  ``diverged`` (S,) bool and ``diverged_at`` (S,) int (-1 when the run finished).
    ``backend``: the twin that ran.
    """

    w: np.ndarray
    checkpoints: np.ndarray
    relevant: np.ndarray
    weights: np.ndarray | None
    window_min_aligned: np.ndarray
    window_max_irrelevant: np.ndarray
    window_max_martingale: np.ndarray
    max_irrelevant: np.ndarray
    max_martingale: np.ndarray
    max_increment: np.ndarray
    max_gradient_ratio: np.ndarray
    martingale: np.ndarray
    diverged: np.ndarray
    diverged_at: np.ndarray
    backend: str


_FIELDS = ("w", "relevant", "weights", "window_min_aligned", "window_max_irrelevant", "window_max_martingale",
           "max_irrelevant", "max_martingale", "max_increment", "max_gradient_ratio", "martingale", "diverged",
           "diverged_at")


def adaptive_lr_constant(steps: int, n: int, delta: float, factor: float = 1.0) -> float:
    """Theorem 5.8's constant c = factor / (2 sqrt(2 T log(2 n T / delta))) (factor 1/2 halves it)."""
    steps = _checks.require_int("steps", steps, min_value=1)
    n = _checks.require_int("n", n, min_value=1)
    delta = float(delta)
    if not 0.0 < delta < 1.0:
        raise ValueError(f"argument 'delta' must be a real number in (0, 1), not {delta!r}")
    factor = float(factor)
    if not (np.isfinite(factor) and factor > 0):
        raise ValueError(f"argument 'factor' must be a finite positive real number, not {factor!r}")
    return factor / (2.0 * np.sqrt(2.0 * steps * np.log(2.0 * n * steps / delta)))


def _validate(w0, steps, seeds, lr, lr_mode, batch, label_noise, checkpoints, record_all):
    seeds_arr = validate_seeds(seeds)
    runs = seeds_arr.shape[0]
    w = np.asarray(w0)
    if w.ndim not in (2, 3) or w.dtype.kind not in "iuf":
        raise ValueError(
            f"argument 'w0' must be a real array of shape (k, n') or (S, k, n'), not shape {w.shape}, dtype {w.dtype}")
    if w.ndim == 2:
        w = w[None]
    if w.shape[1] < 1:
        raise ValueError(f"argument 'w0' must have k >= 1 blocks, not k = {w.shape[1]} (shape {np.shape(w0)})")
    if w.shape[2] < 1:
        raise ValueError(f"argument 'w0' must have blocks of n' >= 1 weights, not n' = {w.shape[2]} (shape {np.shape(w0)})")
    if w.shape[1] * w.shape[2] > _MAX_PARAMS:
        raise ValueError(f"argument 'w0' has k n' = {w.shape[1] * w.shape[2]} weights; at most {_MAX_PARAMS} are accepted")
    if w.shape[0] not in (1, runs):
        raise ValueError(f"argument 'w0' has {w.shape[0]} initialisations; give one, or one per run ({runs})")
    w = w.astype(np.float64)
    if not np.all(np.isfinite(w)):
        raise ValueError("argument 'w0' must be finite")
    steps = _checks.require_int("steps", steps, min_value=0, max_value=2**62)
    batch = _checks.require_int("batch", batch, min_value=1, max_value=2**31)
    if lr_mode not in LR_MODES:
        raise ValueError(f"argument 'lr_mode' must be one of {LR_MODES}, not {lr_mode!r}")
    lrs = per_run_reals("lr", lr, runs, lo=0.0, hi=np.inf, lo_open=True, hi_open=True)
    noises = per_run_reals("label_noise", label_noise, runs, lo=0.0, hi=1.0)
    cks = validate_checkpoints(checkpoints, steps)
    if not isinstance(record_all, (bool, np.bool_)):
        raise ValueError(f"argument 'record_all' must be a boolean, not {record_all!r}")  # noqa: TRY004
    k, n1 = w.shape[1], w.shape[2]
    per_ck = k * (n1 + 1) if record_all else k
    nbytes = 8 * runs * cks.shape[0] * (2 * per_ck + 2) + 8 * 5 * runs * k * n1
    _checks.require_memory("checkpoints", f"{cks.shape[0]} checkpoints x {runs} runs", nbytes, what="the per-run records")
    W = np.ascontiguousarray(np.broadcast_to(w, (runs, k, n1)).copy())
    return W, steps, seeds_arr, lrs, LR_MODES.index(lr_mode), batch, noises, cks, bool(record_all)


def _allocate(W, cks, record_all):
    runs, k, n1 = W.shape
    C = cks.shape[0]
    return {
        "S": np.zeros((runs, k, n1)),
        "G": np.zeros((runs, k, n1)),
        "XS": np.zeros((runs, k, n1)),
        "AUX": np.zeros((runs, _N_AUX, k)),
        "rec_rel": np.full((runs, C, k), np.nan),
        "rec_all": np.full((runs, C, k, n1) if record_all else (1, 1, 1, 1), np.nan),
        "rec_min": np.full((runs, C, k), np.nan),
        "rec_irr": np.full((runs, C), np.nan),
        "rec_mart": np.full((runs, C), np.nan),
        "div_at": np.full(runs, -1, dtype=np.int64),
        "max_irr": np.zeros(runs),
        "max_mart": np.zeros(runs),
        "max_inc": np.zeros(runs),
        "max_ratio": np.zeros(runs),
    }


def _result(W, cks, record_all, o, backend) -> PolyNetSGDResult:
    return PolyNetSGDResult(
        w=W, checkpoints=cks, relevant=o["rec_rel"], weights=o["rec_all"] if record_all else None,
        window_min_aligned=o["rec_min"], window_max_irrelevant=o["rec_irr"], window_max_martingale=o["rec_mart"],
        max_irrelevant=o["max_irr"], max_martingale=o["max_mart"], max_increment=o["max_inc"],
        max_gradient_ratio=o["max_ratio"], martingale=o["S"], diverged=o["div_at"] >= 0, diverged_at=o["div_at"],
        backend=backend,
    )


def disjoint_polynet_sgd(w0, *, steps, seeds, lr, lr_mode="adaptive", batch=1, label_noise=0.0, checkpoints=(),
                         record_all=False, backend="auto") -> PolyNetSGDResult:
    """Run len(seeds) independent online-SGD runs of a disjoint-PolyNet; see the module docstring.

    Parameters
    ----------
    w0 : (k, n') or (S, k, n') real array
        Initial weights w^(1), shared or one per run; the relevant weight of block i is w0[..., i, 0].
    steps : int >= 0
        Number of SGD steps T (the output is w^(T+1)).
    seeds : 1-D integer array of length S
        One seed per run in [0, 2^64): run s sees the batches of the stream keyed by (seeds[s], step).
    lr : float > 0, or (S,) array
        The constant step size ("constant") or the constant c of eta_i = c / prod_{l != i} ||w_l||_1
        ("adaptive"); one per run allows a hyper-parameter sweep.
    lr_mode : "constant" | "adaptive"
    batch : int >= 1
        Samples per step B (fresh, i.i.d. uniform on the cube).
    label_noise : float in [0, 1], or (S,) array
        Probability that a label is flipped.
    checkpoints : strictly increasing ints in [0, steps]
        Steps c after which the state is recorded (and at which the window statistics close).
    record_all : bool
        Record all weights at the checkpoints, not only the relevant ones.
    backend : "auto" | "reference" | "cpu" | "cuda"
    """
    W, steps, seeds_arr, lrs, mode, batch, noises, cks, record_all = _validate(
        w0, steps, seeds, lr, lr_mode, batch, label_noise, checkpoints, record_all)
    used = resolve_backend(backend)
    if used == "reference":
        return disjoint_polynet_sgd_ref(w0, steps=steps, seeds=seeds, lr=lr, lr_mode=lr_mode, batch=batch,
                                        label_noise=label_noise, checkpoints=checkpoints, record_all=record_all)
    o = _allocate(W, cks, record_all)
    args = [W, o["S"], o["G"], o["XS"], o["AUX"], steps, seeds_arr, batch, mode, lrs, noises, cks, record_all,
            o["rec_rel"], o["rec_all"], o["rec_min"], o["rec_irr"], o["rec_mart"], o["div_at"], o["max_irr"],
            o["max_mart"], o["max_inc"], o["max_ratio"]]
    if used == "cpu":
        runs, k, n1 = W.shape
        work = float(runs) * steps * batch * k * n1
        (_sgd_cpu_serial if use_serial(runs, work) else _sgd_cpu_parallel)(*args)
    else:
        from ..cuda.training_disjoint_polynet import launch_cuda

        launch_cuda(args)
    return _result(W, cks, record_all, o, used)


# ---------------------------------------------------------------------------------------------
# numpy / Python reference (the oracle of the property tests)
# ---------------------------------------------------------------------------------------------


def sample_batch_ref(seed: int, step: int, k: int, n1: int, batch: int, label_noise: float = 0.0):
    """The batch of 0-based step ``step`` of a run keyed by ``seed``: (X (B, k, n') of ±1.0, y (B,)).

    Written from the layout in the module docstring with the Python Philox reference.
    """
    seed = _checks.require_int("seed", seed, min_value=0, max_value=2**64 - 1)
    step = _checks.require_int("step", step, min_value=0, max_value=2**64 - 1)
    k = _checks.require_int("k", k, min_value=1)
    n1 = _checks.require_int("n1", n1, min_value=1)
    batch = _checks.require_int("batch", batch, min_value=1)
    n_words = (k * n1 + 63) // 64
    X = np.empty((batch, k, n1))
    y = np.empty(batch)
    for b in range(batch):
        base = b * (n_words + 1)
        words = [counter_u64_ref(seed, step, base + q) for q in range(n_words)]
        for i in range(k):
            for j in range(n1):
                q = i * n1 + j
                X[b, i, j] = -1.0 if (words[q >> 6] >> (q & 63)) & 1 else 1.0
        label = 1.0
        for i in range(k):
            label *= X[b, i, 0]
        if label_noise > 0.0 and unit_double_ref(counter_u64_ref(seed, step, base + n_words)) < label_noise:
            label = -label
        y[b] = label
    return X, y


def disjoint_polynet_sgd_ref(w0, *, steps, seeds, lr, lr_mode="adaptive", batch=1, label_noise=0.0, checkpoints=(),
                             record_all=False) -> PolyNetSGDResult:
    """The Python reference of :func:`disjoint_polynet_sgd` (same arguments, no ``backend``); slow.

    Plain loops over Python floats, step by step from the update rule, in the float order of the
    compiled twins.
    """
    W, steps, seeds_arr, lrs, mode, batch, noises, cks, record_all = _validate(
        w0, steps, seeds, lr, lr_mode, batch, label_noise, checkpoints, record_all)
    runs = W.shape[0]
    o = _allocate(W, cks, record_all)
    ck_index = {int(c): r for r, c in enumerate(cks)}
    for r in range(runs):
        _reference_run(r, W, o, ck_index, steps, int(seeds_arr[r]), batch, mode, float(lrs[r]), float(noises[r]),
                       record_all)
    return _result(W, cks, record_all, o, "reference")


def _reference_run(r, W, o, ck_index, steps, seed, batch, mode, rate, noise, record_all) -> None:
    """Run r of the reference, written step by step from the update rule (fills W[r] and the rows of o)."""
    _, k, n1 = W.shape
    w = [[float(W[r, i, j]) for j in range(n1)] for i in range(k)]
    s = [[0.0] * n1 for _ in range(k)]
    xi = [1.0 if w[i][0] > 0 else (-1.0 if w[i][0] < 0 else 0.0) for i in range(k)]
    win = {"min": [math.inf] * k, "irr": 0.0, "mart": 0.0}
    tot = {"irr": 0.0, "mart": 0.0, "inc": 0.0, "ratio": 0.0}
    _reference_observe(w, s, xi, win, tot)
    if 0 in ck_index:
        _reference_record(o, r, ck_index[0], w, win, record_all)
    for tau in range(1, steps + 1):
        norms = [sum_in_order(abs(v) for v in w[i]) for i in range(k)]
        P = [prod_in_order(norms[l] for l in range(k) if l != i) for i in range(k)]
        eta = [_fdiv(rate, P[i]) if mode == 1 else rate for i in range(k)]
        pop = [-((1.0 - 2.0 * noise) * prod_in_order(w[l][0] for l in range(k) if l != i)) for i in range(k)]
        X, y = sample_batch_ref(seed, tau - 1, k, n1, batch, noise)
        X, y = X.tolist(), y.tolist()
        gacc = [[0.0] * n1 for _ in range(k)]
        for b in range(batch):
            lin = [sum_in_order(w[i][j] * X[b][i][j] for j in range(n1)) for i in range(k)]
            for i in range(k):
                p = y[b]
                for l in range(k):
                    if l != i:
                        p *= lin[l]
                for j in range(n1):
                    gacc[i][j] += p * X[b][i][j]
        bad = False
        for i in range(k):
            for j in range(n1):
                gh = -(gacc[i][j] / batch)
                g = pop[i] if j == 0 else 0.0
                d = eta[i] * (g - gh)
                s[i][j] += d
                if abs(d) > tot["inc"]:
                    tot["inc"] = abs(d)
                if abs(gh) > tot["ratio"] * P[i]:
                    ratio = _fdiv(abs(gh), P[i])
                    if ratio > tot["ratio"]:
                        tot["ratio"] = ratio
                w[i][j] = w[i][j] - eta[i] * gh
                if not abs(w[i][j]) <= OVERFLOW:
                    bad = True
        if bad:
            o["div_at"][r] = tau
            break
        _reference_observe(w, s, xi, win, tot)
        if tau in ck_index:
            _reference_record(o, r, ck_index[tau], w, win, record_all)
    W[r] = w
    o["S"][r] = s
    o["max_irr"][r], o["max_mart"][r] = tot["irr"], tot["mart"]
    o["max_inc"][r], o["max_ratio"][r] = tot["inc"], tot["ratio"]


def _reference_observe(w, s, xi, win, tot) -> None:
    """Fold the current state into the window statistics and the run maxima."""
    k, n1 = len(w), len(w[0])
    irr = 0.0
    mart = 0.0
    for i in range(k):
        a = xi[i] * w[i][0]
        if a < win["min"][i]:
            win["min"][i] = a
        for j in range(n1):
            if j > 0 and abs(w[i][j]) > irr:
                irr = abs(w[i][j])
            if abs(s[i][j]) > mart:
                mart = abs(s[i][j])
    for key, val in (("irr", irr), ("mart", mart)):
        if val > win[key]:
            win[key] = val
        if val > tot[key]:
            tot[key] = val


def _reference_record(o, r, c, w, win, record_all) -> None:
    """Write checkpoint c of run r and reset the window."""
    k = len(w)
    o["rec_rel"][r, c] = [w[i][0] for i in range(k)]
    o["rec_min"][r, c] = win["min"]
    o["rec_irr"][r, c] = win["irr"]
    o["rec_mart"][r, c] = win["mart"]
    if record_all:
        o["rec_all"][r, c] = w
    win["min"], win["irr"], win["mart"] = [math.inf] * k, 0.0, 0.0


def _fdiv(a: float, b: float) -> float:
    """IEEE division of Python floats (x / 0 = +-inf, 0 / 0 = nan), as in the compiled twins."""
    if b != 0.0:
        return a / b
    if a == 0.0 or math.isnan(a):
        return float("nan")
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def sum_in_order(values) -> float:
    """Left-to-right float sum starting from 0.0 (the compiled twins' order)."""
    acc = 0.0
    for v in values:
        acc += v
    return acc


def prod_in_order(values) -> float:
    """Left-to-right float product starting from 1.0 (the compiled twins' order)."""
    acc = 1.0
    for v in values:
        acc *= v
    return acc
