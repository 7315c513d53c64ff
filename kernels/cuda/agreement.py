"""How closely a CUDA twin must agree with its CPU twin: one rule, used by the tests and benchmarks/gpu_check.

* Integer kernels (int64 WHT, GF(2) elimination, every count and step index): bit for bit, always.
* Under the simulator (``NUMBA_ENABLE_CUDASIM=1``) the CUDA twins run as Python with the CPU's
  operation order, so floating-point results agree bit for bit too (asserted: it catches index bugs).
* On a GPU, NVVM contracts a multiply followed by an add into one fused multiply-add (one rounding
  instead of two), and math functions (exp, log, sqrt) may differ from the CPU's by an ulp.  Each such
  operation changes a result by at most u |partial result| (u = 2^-53 in float64, 2^-24 in float32),
  so after a chain of ``depth`` dependent operations the two twins differ by at most about
  depth * u * (the magnitude of the largest partial value), which the data bound by max |values| times
  ``growth`` (sums of terms of mixed sign: the largest partial sum; training: how much the dynamics
  amplify a perturbation).  The tolerance is ``SAFETY`` times that: atol = SAFETY * depth * u * growth *
  max(1, max |cpu|).  ``depth`` is argued where the comparison is made (e.g. 30 butterfly stages; steps x
  operations per step).
"""

from __future__ import annotations

import numpy as np

from ..backend import cuda_simulator_enabled

__all__ = ["SAFETY", "agreement", "assert_twins_agree", "exact_twins", "unit_roundoff"]

#: head-room over the first-order bound (second-order terms, sums of many rounding errors adding up)
SAFETY = 4.0


def exact_twins() -> bool:
    """True when CUDA and CPU floating-point results must agree bit for bit (the simulator)."""
    return cuda_simulator_enabled()


def unit_roundoff(dtype) -> float:
    """u = 2^-53 (float64) / 2^-24 (float32): the relative rounding error of one operation."""
    return float(np.finfo(np.dtype(dtype)).eps) / 2.0


def agreement(cuda_value, cpu_value, *, depth: float = 1.0, growth: float = 1.0, exact: bool | None = None) -> dict:
    """Compare two arrays: {'ok', 'exact', 'max_abs_err', 'tolerance', 'mismatches', 'size'} (JSON-ready).

    ``exact`` None: integer / boolean data and simulator runs are compared bit for bit (NaNs equal),
    floating-point data on hardware within the tolerance of the module docstring."""
    a = np.asarray(cuda_value)
    b = np.asarray(cpu_value)
    if a.shape != b.shape:
        return {"ok": False, "exact": True, "error": f"shapes differ: {a.shape} vs {b.shape}"}
    is_float = a.dtype.kind == "f" or b.dtype.kind == "f"
    if exact is None:
        exact = (not is_float) or exact_twins()
    if exact:
        same = (a == b) | (np.isnan(a) & np.isnan(b)) if is_float else (a == b)
        bad = int(np.size(same) - np.count_nonzero(same))
        return {"ok": bad == 0, "exact": True, "mismatches": bad, "size": int(a.size), "max_abs_err": _max_err(a, b),
                "tolerance": 0.0}
    dtype = np.result_type(a.dtype, b.dtype)
    finite_b = b[np.isfinite(b)]
    scale = max(1.0, float(np.max(np.abs(finite_b)))) if finite_b.size else 1.0
    tol = SAFETY * depth * unit_roundoff(dtype) * growth * scale
    nan_mismatch = np.isnan(a) != np.isnan(b)
    with np.errstate(invalid="ignore"):
        diff = np.abs(a.astype(np.float64) - b.astype(np.float64))
        bad_mask = nan_mismatch | (np.isfinite(b) & ~(diff <= tol)) | (np.isinf(b) & (a != b))
    bad = int(np.count_nonzero(bad_mask))
    return {"ok": bad == 0, "exact": False, "mismatches": bad, "size": int(a.size), "max_abs_err": _max_err(a, b),
            "tolerance": tol}


def _max_err(a, b) -> float:
    both = np.isfinite(a) & np.isfinite(b)
    if not np.any(both):
        return 0.0
    return float(np.max(np.abs(a[both].astype(np.float64) - b[both].astype(np.float64))))


def assert_twins_agree(cuda_value, cpu_value, *, depth: float = 1.0, growth: float = 1.0, exact: bool | None = None,
                       what: str = "") -> None:
    """AssertionError with the comparison's figures unless :func:`agreement` is ok."""
    res = agreement(cuda_value, cpu_value, depth=depth, growth=growth, exact=exact)
    if not res["ok"]:
        raise AssertionError(f"CUDA and CPU twins disagree{' on ' + what if what else ''}: {res}")
