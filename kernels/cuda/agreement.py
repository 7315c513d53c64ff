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


_CHUNK = 1 << 24


def agreement(cuda_value, cpu_value, *, depth: float = 1.0, growth: float = 1.0, exact: bool | None = None) -> dict:
    """Compare two arrays: {'ok', 'exact', 'max_abs_err', 'tolerance', 'mismatches', 'size'} (JSON-ready).

    ``exact`` None: integer / boolean data and simulator runs are compared bit for bit (NaNs equal),
    floating-point data on hardware within the tolerance of the module docstring.  Large arrays (2^30
    entries) are compared in chunks of 2^24, so the temporaries stay small."""
    a = np.asarray(cuda_value)
    b = np.asarray(cpu_value)
    if a.shape != b.shape:
        return {"ok": False, "exact": True, "error": f"shapes differ: {a.shape} vs {b.shape}"}
    is_float = a.dtype.kind == "f" or b.dtype.kind == "f"
    if exact is None:
        exact = (not is_float) or exact_twins()
    a = a.reshape(-1)
    b = b.reshape(-1)
    tol = 0.0
    if not exact:
        big = 0.0
        for i in range(0, b.size, _CHUNK):
            bc = b[i : i + _CHUNK]
            fin = bc[np.isfinite(bc)]
            if fin.size:
                big = max(big, float(np.max(np.abs(fin))))
        tol = SAFETY * depth * unit_roundoff(np.result_type(a.dtype, b.dtype)) * growth * max(1.0, big)
    bad = 0
    err = 0.0
    for i in range(0, a.size, _CHUNK):
        ac, bc = a[i : i + _CHUNK], b[i : i + _CHUNK]
        if is_float:
            ac = np.asarray(ac, dtype=np.float64)
            bc = np.asarray(bc, dtype=np.float64)
            both = np.isfinite(ac) & np.isfinite(bc)
            with np.errstate(invalid="ignore", over="ignore"):
                diff = np.abs(ac - bc)
            if np.any(both):
                err = max(err, float(np.max(diff[both])))
            if exact:
                same = (ac == bc) | (np.isnan(ac) & np.isnan(bc))
            else:
                same = np.where(np.isfinite(bc), diff <= tol, (ac == bc) | (np.isnan(ac) & np.isnan(bc)))
        else:
            same = ac == bc
            if same.size and not np.all(same):
                err = max(err, float(np.max(np.abs(ac.astype(np.float64) - bc.astype(np.float64)))))
        bad += int(same.size - np.count_nonzero(same))
    return {"ok": bad == 0, "exact": bool(exact), "mismatches": bad, "size": int(a.size), "max_abs_err": err,
            "tolerance": tol}


def assert_twins_agree(cuda_value, cpu_value, *, depth: float = 1.0, growth: float = 1.0, exact: bool | None = None,
                       what: str = "") -> None:
    """AssertionError with the comparison's figures unless :func:`agreement` is ok."""
    res = agreement(cuda_value, cpu_value, depth=depth, growth=growth, exact=exact)
    if not res["ok"]:
        raise AssertionError(f"CUDA and CPU twins disagree{' on ' + what if what else ''}: {res}")
