"""SGD of a linear readout on fixed features with the hinge loss: many independent runs at once.

The model is f(x) = u . phi(x) with fixed features phi: a finite population of N points with feature
rows ``features[j] = phi(x_j)`` (length r) and labels ``labels[j] = y_j``, sampled uniformly.  The
population loss is the hinge loss

    F(u) = (1/N) sum_j max(0, 1 - y_j u . phi(x_j)),

and one run performs, from u_0 (default 0), T steps of mini-batch SGD with a constant step size

    u_{t+1} = u_t - eta v_t,   v_t = (1/B) sum_{b<B} -y_{j_b} phi(x_{j_b}) 1[y_{j_b} u_t . phi(x_{j_b}) < 1],

with j_b drawn uniformly and independently from {0, ..., N-1}.  Since the population is uniform over
the rows, E[v_t | u_t] is a subgradient of F at u_t (seed 004, Theorem B.6 and the proof of
Theorem 5.5, lines 3267-3313).  When the features are those of all 2^n points of the cube, F is the
exact population loss over x ~ Unif{±1}^n.

Outputs per run: the final u_T; the exact F(u_t) at requested checkpoints t in [0, T]; optionally the
exact running mean (1/T) sum_{t=1}^T F(u_t) (an O(N r) population pass per step); and always the
"online" mean (1/(T B)) sum_{t=0}^{T-1} sum_b hinge(u_t; x_{j_b}), an unbiased estimate of
(1/T) sum_{t=0}^{T-1} E F(u_t) (each sample is drawn after u_t is fixed).

Absorbing state: F(u) = 0 exactly means y_j u . phi_j >= 1 for every row, computed by the same
expression as the sampled margin, so no later step changes u, the online sum or the running mean
(it adds F = 0).  The compiled twins therefore stop a run at the first checkpoint (or, with
``exact_mean``, the first step) where F(u_t) = 0 and fill the remaining outputs; the results are
identical bit for bit to running every step, which the reference does (the property tests compare).

Randomness: every run has its own explicit 64-bit seed and its own SplitMix64 stream (Steele, Lea &
Flood 2014); the index j is drawn exactly uniformly from [0, N) by Lemire's multiply-shift with
rejection on 32-bit words (N < 2^32).  Runs do not share state, so the CPU results are identical bit
for bit whatever the number of threads.  Float operations are done in one fixed order (dot products
sequentially over i, population sums sequentially over j) in all twins, and the numpy reference
repeats that order, so CPU kernel and reference agree bit for bit.

Twins with one signature (``backend``): ``"reference"`` (plain Python/numpy loops, the oracle),
``"cpu"`` (numba, ``parallel=True`` over runs, ``cache=True``) and ``"cuda"`` (numba.cuda, one thread
per run; kernels/cuda/readout_sgd.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np
from numba import prange

from .. import _checks
from ..backend import resolve_backend
from ._readout_sgd_body import _run_one

__all__ = [
    "ReadoutSGDResult",
    "hinge_population_loss",
    "readout_sgd",
    "readout_sgd_ref",
    "splitmix64_stream",
    "uniform_indices",
]

_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_MAX_ROWS = (1 << 32) - 1


# ---------------------------------------------------------------------------------------------
# numba CPU kernel
# ---------------------------------------------------------------------------------------------


@nb.njit(parallel=True, cache=True)
def _sgd_cpu(features, labels, eta, steps, seeds, batch, u0, checkpoints, exact_mean,
             u_out, ck_loss, mean_loss, online_loss):  # pragma: no cover - compiled
    r = features.shape[2]
    shared_feat = features.shape[0] == 1
    shared_lab = labels.shape[0] == 1
    for s in prange(seeds.shape[0]):
        feat = features[0] if shared_feat else features[s]
        lab = labels[0] if shared_lab else labels[s]
        u = u0.copy()
        v = np.zeros(r)
        mean_loss[s], online_loss[s] = _run_one(feat, lab, eta, steps, seeds[s], batch, checkpoints, exact_mean,
                                                u, v, ck_loss[s])
        for i in range(r):
            u_out[s, i] = u[i]


# ---------------------------------------------------------------------------------------------
# numpy reference (the oracle of the property tests)
# ---------------------------------------------------------------------------------------------


def splitmix64_stream(seed: int, count: int) -> list[int]:
    """The first ``count`` SplitMix64 outputs of ``seed`` as Python ints (the reference generator)."""
    state = int(seed) & _MASK64
    out = []
    for _ in range(count):
        state = (state + _GAMMA) & _MASK64
        z = state
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
        out.append(z ^ (z >> 31))
    return out


class _RefStream:
    """SplitMix64 with Lemire's exactly uniform bounded draw, in Python ints."""

    def __init__(self, seed: int):
        self.state = int(seed) & _MASK64

    def index(self, n: int) -> int:
        threshold = (2**32 - n) % n
        while True:
            self.state = (self.state + _GAMMA) & _MASK64
            z = self.state
            z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
            z ^= z >> 31
            m = (z >> 32) * n
            if (m & 0xFFFFFFFF) >= threshold:
                return m >> 32


def uniform_indices(seed: int, n: int, count: int) -> list[int]:
    """The first ``count`` row indices in [0, n) that a run with this seed samples (reference sampler).

    With batch B, step t uses indices t*B .. t*B + B - 1 of this sequence.
    """
    n = _checks.require_int("n", n, min_value=1, max_value=_MAX_ROWS)
    count = _checks.require_int("count", count, min_value=0)
    stream = _RefStream(seed)
    return [stream.index(n) for _ in range(count)]


def _dot(row: np.ndarray, u: list[float]) -> float:
    m = 0.0
    for i in range(len(u)):
        m += float(row[i]) * u[i]
    return m


def _loss_ref(feat: np.ndarray, lab: np.ndarray, u: list[float]) -> float:
    total = 0.0
    for j in range(feat.shape[0]):
        m = float(lab[j]) * _dot(feat[j], u)
        if m < 1.0:
            total += 1.0 - m
    return total / feat.shape[0]


@dataclass(frozen=True)
class ReadoutSGDResult:
    """Per-run outputs of :func:`readout_sgd` (S runs, C checkpoints, r features).

    ``u`` (S, r): u_T.  ``checkpoints`` (C,): the steps t recorded.  ``checkpoint_loss`` (S, C): exact
    F(u_t) there.  ``mean_loss`` (S,): (1/T) sum_{t=1}^T F(u_t) when ``exact_mean`` (else NaN).
    ``online_loss`` (S,): (1/(T B)) sum_{t<T} sum_b hinge(u_t; x_{j_b}).  ``backend``: the twin that ran.
    """

    u: np.ndarray
    checkpoints: np.ndarray
    checkpoint_loss: np.ndarray
    mean_loss: np.ndarray
    online_loss: np.ndarray
    backend: str


def readout_sgd_ref(features, labels, *, eta, steps, seeds, batch=1, u0=None, checkpoints=(), exact_mean=False):
    """The numpy/Python reference of :func:`readout_sgd` (same arguments, no ``backend``); slow, tiny sizes.

    Written step by step from the update rule in the module docstring, in the same float order as
    the compiled twins.
    """
    feats, labs, eta, steps, seeds, batch, u0, cks, exact_mean = _validate(
        features, labels, eta, steps, seeds, batch, u0, checkpoints, exact_mean)
    runs, r = seeds.shape[0], feats.shape[2]
    u_out = np.empty((runs, r))
    ck_loss = np.full((runs, cks.shape[0]), np.nan)
    mean_loss = np.full(runs, np.nan)
    online_loss = np.full(runs, np.nan)
    n_rows = feats.shape[1]
    scale = eta / batch
    for s in range(runs):
        feat = feats[s if feats.shape[0] > 1 else 0]
        lab = labs[s if labs.shape[0] > 1 else 0]
        rng = _RefStream(int(seeds[s]))
        u = [float(v) for v in u0]
        acc = 0.0
        online = 0.0
        for t in range(steps + 1):
            for c in np.flatnonzero(cks == t):
                ck_loss[s, c] = _loss_ref(feat, lab, u)
            if t == steps:
                break
            v = [0.0] * r
            for _ in range(batch):
                j = rng.index(n_rows)
                m = float(lab[j]) * _dot(feat[j], u)
                if m < 1.0:
                    online += 1.0 - m
                    for i in range(r):
                        v[i] += float(lab[j]) * float(feat[j, i])
            u = [u[i] + scale * v[i] for i in range(r)]
            if exact_mean:
                acc += _loss_ref(feat, lab, u)
        u_out[s] = u
        if steps > 0:
            mean_loss[s] = acc / steps if exact_mean else np.nan
            online_loss[s] = online / (steps * batch)
    return ReadoutSGDResult(u_out, cks, ck_loss, mean_loss, online_loss, "reference")


# ---------------------------------------------------------------------------------------------
# public wrapper
# ---------------------------------------------------------------------------------------------


def _validate(features, labels, eta, steps, seeds, batch, u0, checkpoints, exact_mean):
    feats = np.asarray(features)
    if feats.ndim not in (2, 3) or feats.dtype.kind not in "iuf":
        raise ValueError(
            f"argument 'features' must be a real array of shape (N, r) or (S, N, r), not shape {feats.shape}, dtype {feats.dtype}")
    if feats.ndim == 2:
        feats = feats[None]
    if feats.shape[1] < 1 or feats.shape[2] < 1:
        raise ValueError(f"argument 'features' must have N >= 1 rows and r >= 1 columns, not shape {np.shape(features)}")
    if feats.shape[1] > _MAX_ROWS:
        raise ValueError(f"argument 'features' has N = {feats.shape[1]} rows; the sampler accepts N <= 2^32 - 1")
    feats = np.ascontiguousarray(feats, dtype=np.float64)
    if not np.all(np.isfinite(feats)):
        raise ValueError("argument 'features' must be finite")
    labs = np.asarray(labels)
    if labs.ndim == 1:
        labs = labs[None]
    if labs.ndim != 2 or labs.shape[1] != feats.shape[1] or labs.dtype.kind not in "iuf":
        raise ValueError(
            f"argument 'labels' must be a real array of shape (N,) or (S, N) with N = {feats.shape[1]}, not shape {np.shape(labels)}")
    labs = np.ascontiguousarray(labs, dtype=np.float64)
    if not np.all(np.isfinite(labs)):
        raise ValueError("argument 'labels' must be finite")
    try:
        eta = float(eta)
    except (TypeError, ValueError):
        raise ValueError(f"argument 'eta' must be a finite real number, not {eta!r}") from None
    if not np.isfinite(eta):
        raise ValueError(f"argument 'eta' must be a finite real number, not {eta!r}")
    steps = _checks.require_int("steps", steps, min_value=0, max_value=2**62)
    batch = _checks.require_int("batch", batch, min_value=1, max_value=2**31)
    seeds_arr = np.asarray(seeds)
    if seeds_arr.ndim != 1 or seeds_arr.shape[0] < 1 or seeds_arr.dtype.kind not in "iu":
        raise ValueError(f"argument 'seeds' must be a non-empty 1-D integer array (one seed per run), not {seeds!r}")
    if seeds_arr.dtype.kind == "i" and np.any(seeds_arr < 0):
        raise ValueError("argument 'seeds' must hold non-negative integers < 2^64")
    seeds_arr = seeds_arr.astype(np.uint64)
    runs = seeds_arr.shape[0]
    if feats.shape[0] not in (1, runs):
        raise ValueError(f"argument 'features' has {feats.shape[0]} feature sets; give one, or one per run ({runs})")
    if labs.shape[0] not in (1, runs):
        raise ValueError(f"argument 'labels' has {labs.shape[0]} label sets; give one, or one per run ({runs})")
    r = feats.shape[2]
    if u0 is None:
        u0 = np.zeros(r)
    u0 = np.asarray(u0, dtype=np.float64)
    if u0.shape != (r,) or not np.all(np.isfinite(u0)):
        raise ValueError(f"argument 'u0' must be a finite array of shape ({r},), not shape {u0.shape}")
    cks = np.asarray(checkpoints, dtype=np.int64).reshape(-1)
    if cks.size and (np.any(np.diff(cks) < 0) or cks[0] < 0 or cks[-1] > steps):
        raise ValueError(f"argument 'checkpoints' must be a sorted sequence of steps in [0, steps = {steps}], not {checkpoints!r}")
    exact_mean = bool(exact_mean)
    if exact_mean:
        work = float(steps) * feats.shape[1] * r * runs
        if work > 1e13:
            raise ValueError(
                f"argument 'exact_mean' = True needs about {work:.2g} multiply-adds (steps x N x r x runs); "
                "reduce 'steps' or use checkpoints")
    return feats, labs, eta, steps, seeds_arr, batch, np.ascontiguousarray(u0), np.ascontiguousarray(cks), exact_mean


def readout_sgd(features, labels, *, eta, steps, seeds, batch=1, u0=None, checkpoints=(), exact_mean=False,
                backend="auto") -> ReadoutSGDResult:
    """Run len(seeds) independent hinge-loss SGD runs of a linear readout; see the module docstring.

    Parameters
    ----------
    features : (N, r) or (S, N, r) real array
        Feature rows phi(x_j) of the population, shared by all runs or one set per run.
    labels : (N,) or (S, N) real array
        Labels y_j (typically ±1).
    eta : float
        Constant step size.
    steps : int >= 0
        Number of SGD steps T.
    seeds : 1-D integer array of length S
        One explicit 64-bit seed per run (values in [0, 2^64)).
    batch : int >= 1
        Samples per step B (drawn with replacement).
    u0 : (r,) array, optional
        Starting point (default 0).
    checkpoints : sorted sequence of int in [0, steps]
        Steps t at which the exact F(u_t) is recorded.
    exact_mean : bool
        Also compute (1/T) sum_{t=1}^T F(u_t) exactly (costs N r per step).
    backend : "auto" | "reference" | "cpu" | "cuda"
    """
    args = _validate(features, labels, eta, steps, seeds, batch, u0, checkpoints, exact_mean)
    used = resolve_backend(backend)
    if used == "reference":
        return readout_sgd_ref(features, labels, eta=eta, steps=steps, seeds=seeds, batch=batch, u0=u0,
                               checkpoints=checkpoints, exact_mean=exact_mean)
    feats, labs, eta, steps, seeds_arr, batch, u0, cks, exact_mean = args
    runs, r = seeds_arr.shape[0], feats.shape[2]
    u_out = np.empty((runs, r))
    ck_loss = np.full((runs, cks.shape[0]), np.nan)
    mean_loss = np.empty(runs)
    online_loss = np.empty(runs)
    if used == "cpu":
        _sgd_cpu(feats, labs, eta, steps, seeds_arr, batch, u0, cks, exact_mean, u_out, ck_loss, mean_loss, online_loss)
    else:
        from ..cuda.readout_sgd import sgd_cuda

        sgd_cuda(feats, labs, eta, steps, seeds_arr, batch, u0, cks, exact_mean, u_out, ck_loss, mean_loss, online_loss)
    return ReadoutSGDResult(u_out, cks, ck_loss, mean_loss, online_loss, used)


def hinge_population_loss(features, labels, u) -> np.ndarray:
    """F(u) = mean_j max(0, 1 - y_j u . phi_j) for u of shape (r,) or (S, r) (numpy, vectorised)."""
    feats = np.asarray(features, dtype=np.float64)
    labs = np.asarray(labels, dtype=np.float64)
    if feats.ndim != 2 or labs.shape != (feats.shape[0],):
        raise ValueError(f"arguments 'features' (N, r) and 'labels' (N,) disagree: shapes {feats.shape}, {labs.shape}")
    uu = np.asarray(u, dtype=np.float64)
    if uu.shape[-1] != feats.shape[1] or uu.ndim not in (1, 2):
        raise ValueError(f"argument 'u' must have shape ({feats.shape[1]},) or (S, {feats.shape[1]}), not {uu.shape}")
    _checks.require_finite("features", feats)
    _checks.require_finite("labels", labs)
    _checks.require_finite("u", uu)
    margins = (uu @ feats.T) * labs
    return np.mean(np.maximum(0.0, 1.0 - margins), axis=-1)
