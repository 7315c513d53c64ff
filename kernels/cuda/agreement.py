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
* Dynamics that blow up in finite time (:func:`diverging_runs_agreement`): a run is compared according to
  its class, bounded on both twins (values within the tolerance above, with a growth argued from the
  blow-up rate), diverged on both (divergence steps within ``step_slack``) or diverged on one twin only
  (allowed only within ``step_slack`` steps of the horizon, where the other twin may diverge just after it).
"""

from __future__ import annotations

import numpy as np

from ..backend import cuda_simulator_enabled

__all__ = ["SAFETY", "agreement", "assert_twins_agree", "diverging_runs_agreement", "exact_twins", "unit_roundoff"]

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


def diverging_runs_agreement(cuda_values, cpu_values, cuda_diverged_at, cpu_diverged_at, *, steps: int, depth: float,
                             growth, step_slack: int = 2, exact: bool | None = None) -> dict:
    """Per-run comparison of a batch of runs of dynamics that can blow up in finite time (JSON-ready).

    ``cuda_values`` / ``cpu_values``: (runs, ...) final states (the state at divergence for a diverged run);
    ``*_diverged_at``: (runs,) step of divergence, -1 for a run that finished its ``steps`` steps;
    ``growth``: a scalar or one amplification factor per run (argued by the caller).

    Why classes.  Near a blow-up the dynamics amplify any perturbation without bound (for v' = eta v^m,
    m > 1, a relative perturbation of the start is multiplied by (v(t) / v(0))^(m - 1)), so one rounding
    difference (an FMA contraction on hardware) ends as an O(1) relative difference of the final state of
    a run that approaches its blow-up: comparing such states within a rounding tolerance is meaningless.
    What must agree instead:

    * bounded on both twins: the final states within :func:`agreement`'s tolerance (scale: the run's own
      max |value|; growth: the caller's per-run factor);
    * diverged on both: the divergence steps differ by at most ``step_slack``.  In the last phase of a
      blow-up the map squares the scale each step (v <- v + eta v^m with eta v^(m-1) >> 1 multiplies
      log v by about m), so two trajectories a relative 1 apart (the worst the amplification can do before
      that phase) cross the overflow threshold at most one step apart; 2 leaves one step of margin;
    * diverged on one twin only: allowed when the divergence step is within ``step_slack`` of ``steps``
      (the other twin would cross the threshold just after the horizon); otherwise a disagreement.

    Integer fields and the simulator (``exact``): the classes are the same but bounded runs are compared
    bit for bit and diverged ones must diverge at the same step (slack 0)."""
    a = np.asarray(cuda_values)
    b = np.asarray(cpu_values)
    da = np.asarray(cuda_diverged_at).astype(np.int64)
    db = np.asarray(cpu_diverged_at).astype(np.int64)
    runs = b.shape[0]
    if a.shape != b.shape or da.shape != (runs,) or db.shape != (runs,):
        return {"ok": False, "error": f"shapes differ: {a.shape}, {b.shape}, {da.shape}, {db.shape}"}
    if exact is None:
        exact = exact_twins()
    slack = 0 if exact else int(step_slack)
    g = np.broadcast_to(np.asarray(growth, dtype=np.float64), (runs,))
    bounded = (da < 0) & (db < 0)
    both = (da >= 0) & (db >= 0)
    one = (da >= 0) != (db >= 0)
    bounded_ok = 0
    max_rel = 0.0
    for q in np.flatnonzero(bounded):
        res = agreement(a[q], b[q], depth=depth, growth=float(g[q]), exact=exact)
        bounded_ok += bool(res["ok"])
        if res["tolerance"] > 0:
            max_rel = max(max_rel, res["max_abs_err"] / res["tolerance"])
    step_diff = np.abs(da - db)[both]
    both_ok = int(np.count_nonzero(step_diff <= slack))
    first = np.maximum(da, db)[one]
    one_ok = int(np.count_nonzero(first >= steps - slack)) if slack else 0
    n_b, n_both, n_one = int(np.count_nonzero(bounded)), int(np.count_nonzero(both)), int(np.count_nonzero(one))
    return {
        "ok": bounded_ok == n_b and both_ok == n_both and one_ok == n_one,
        "exact": bool(exact), "runs": int(runs), "step_slack": slack,
        "bounded_both": n_b, "bounded_within_tolerance": int(bounded_ok),
        "max_err_over_tolerance": max_rel,
        "diverged_both": n_both, "diverged_both_within_slack": both_ok,
        "max_step_difference": int(step_diff.max()) if step_diff.size else 0,
        "diverged_one_only": n_one, "diverged_one_only_near_horizon": one_ok,
        "bit_for_bit": bool(np.array_equal(a, b, equal_nan=True) and np.array_equal(da, db)),
    }
