"""Argument validation and conventions shared by the architectures of the batched training engine.

Every public trainer validates here, before any work or allocation, and raises ``ValueError`` naming
the argument, the value and the allowed range (docs/architecture.md, "Adding a kernel").
"""

from __future__ import annotations

import contextlib
import functools
import math
import numbers

import numpy as np

from .. import _checks

__all__ = [
    "OVERFLOW",
    "SERIAL_WORK",
    "per_run_reals",
    "single_threaded_blas",
    "use_serial",
    "validate_checkpoints",
    "validate_seeds",
]

#: a weight whose magnitude exceeds this (or is not finite) marks its run as diverged
OVERFLOW = 1e100
#: below this many elementary updates (runs x steps x batch x parameters) the CPU twin runs serially:
#: starting the thread pool would cost more than the work
SERIAL_WORK = 200_000


@functools.lru_cache(maxsize=1)
def _blas_controller():
    import scipy.linalg  # noqa: F401  numba's np.dot calls scipy's BLAS: load it before the controller looks

    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # a dependency of the project; absent only where nothing could be installed
        return None
    return ThreadpoolController()


def single_threaded_blas():
    """Context manager: every loaded BLAS library runs on one thread inside it.

    The CPU kernels whose compiled per-run body calls BLAS (np.dot in numba: the two-layer engine's
    H = X W and grad_W = X^T D) run inside it, for two reasons.

    * Reproducibility.  OpenBLAS's threaded gemm does not sum in the order of its one-thread gemm (for
      example float32, B = 256, width 100: the loss curves of the two differ in the 8th digit), and it
      starts as many threads as the machine has cores, so without the pin a run's bits would depend on
      the core count of the machine (and on OPENBLAS_NUM_THREADS).  With it they do not.
    * Speed.  The kernels already run one numba thread per run (prange); each thread starting its own
      BLAS threads oversubscribes the cores, and OpenBLAS's idle threads spin.  Measured on the 2-core
      machine (loaded; `train_two_layer` float32, n = 30): width 100, B = 256, 3 runs, 500 steps
      28.8 -> 0.53 CPU s; width 1000, B = 128, 4 runs, 300 steps 48.9 -> 2.1 CPU s; 64 runs of width
      100, B = 32 (small products, which OpenBLAS does not thread) 1.9 -> 1.7 CPU s.

    The controller (threadpoolctl, a dependency) is built once; entering the context costs ~20
    microseconds.  Where threadpoolctl cannot be imported (a machine with preinstalled packages only, such
    as the GPU check's), the context does nothing and BLAS keeps its own thread count.
    """
    controller = _blas_controller()
    return contextlib.nullcontext() if controller is None else controller.limit(limits=1, user_api="blas")


def validate_seeds(seeds) -> np.ndarray:
    """One explicit seed per run: a non-empty 1-D integer array with values in [0, 2^64); uint64 copy."""
    a = np.asarray(seeds)
    if a.ndim != 1 or a.shape[0] < 1 or a.dtype.kind not in "iu":
        raise ValueError(f"argument 'seeds' must be a non-empty 1-D integer array (one seed per run), not {seeds!r}")
    if a.dtype.kind == "i" and np.any(a < 0):
        raise ValueError(f"argument 'seeds' must hold integers in [0, 2^64), not min {int(a.min())}")
    return np.ascontiguousarray(a.astype(np.uint64))


def per_run_reals(name: str, value, runs: int, *, lo: float, hi: float, lo_open: bool = False,
                  hi_open: bool = False) -> np.ndarray:
    """A real hyper-parameter given once or once per run (shape (runs,)), every entry in the interval."""
    interval = f"{'(' if lo_open else '['}{lo}, {hi}{')' if hi_open else ']'}"
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"argument '{name}' must be a real number in {interval} (or one per run), not {value!r}")  # noqa: TRY004
    if isinstance(value, numbers.Real):
        arr = np.full(runs, float(value))
    else:
        try:
            arr = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"argument '{name}' must be a real number in {interval} (or one per run), not {value!r}") from None
        if arr.ndim == 0:
            arr = np.full(runs, float(arr))
        elif arr.shape != (runs,):
            raise ValueError(f"argument '{name}' must be a scalar or have shape ({runs},) (one per run), not shape {arr.shape}")
    for v in arr:
        ok = math.isfinite(v) and (v > lo if lo_open else v >= lo) and (v < hi if hi_open else v <= hi)
        if not ok:
            raise ValueError(f"argument '{name}' must be a real number in {interval}, not {v!r}")
    return np.ascontiguousarray(arr)


def validate_checkpoints(checkpoints, steps: int) -> np.ndarray:
    """A strictly increasing sequence of integer steps in [0, steps] (int64 copy)."""
    raw = np.asarray(checkpoints)
    if raw.size == 0:
        return np.zeros(0, dtype=np.int64)
    if raw.dtype.kind not in "iu" or raw.ndim > 1:
        raise ValueError(f"argument 'checkpoints' must be a 1-D sequence of integer steps in [0, steps = {steps}], not {checkpoints!r}")
    cks = raw.astype(np.int64).reshape(-1)
    if cks[0] < 0 or cks[-1] > steps or np.any(np.diff(cks) <= 0):
        raise ValueError(
            f"argument 'checkpoints' must be strictly increasing steps in [0, steps = {steps}], not {checkpoints!r}")
    return np.ascontiguousarray(cks)


def validate_adamw_run_args(lr, weight_decay, init_scale, checkpoints, steps: int, runs: int, backend: str):
    """The arguments every AdamW transformer trainer checks the same way (induction, ngram_heads,
    parity_transformer, induction_priors): per-run rates ``lr`` in (0, 10], one ``weight_decay`` and one
    ``init_scale`` in [0, 1000], checkpoints (see validate_checkpoints), backend 'cpu' or 'reference'.
    Returns (lrs, weight_decay, init_scale, checkpoints); ValueError naming the argument otherwise."""
    lrs = per_run_reals("lr", lr, runs, lo=0.0, hi=10.0, lo_open=True)
    wd = float(per_run_reals("weight_decay", weight_decay, 1, lo=0.0, hi=1e3)[0])
    scale = float(per_run_reals("init_scale", init_scale, 1, lo=0.0, hi=1e3)[0])
    cks = validate_checkpoints(checkpoints, steps)
    if backend not in ("cpu", "reference"):
        raise ValueError(f"argument 'backend' must be 'cpu' or 'reference', not {backend!r}")
    return lrs, wd, scale, cks


def use_serial(runs: int, work: float) -> bool:
    """True when the CPU twin should loop over the runs serially (one run, or little work in all)."""
    return runs == 1 or work < SERIAL_WORK


def require_recording_memory(nbytes: int, what: str) -> None:
    """Refuse per-run recordings that would not fit in memory (estimate given in the message)."""
    _checks.require_memory("checkpoints", f"{what}", nbytes, what=f"the recordings ({what})")
