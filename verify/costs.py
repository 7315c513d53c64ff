"""Cost estimates of claims, checked by ``python -m verify run`` before anything runs (issue 19, item 5).

One central table keyed by claim id (claim modules need no edit).  This module is the API (:func:`estimate`,
:func:`expected_seconds`, :func:`refusal`, :func:`uncovered`) and merges the table; the cost model (budgets,
:class:`Estimate`, growth laws, the recorded full-tier seconds) is in verify.cost_model, the entries in
verify.cost_tables and verify.cost_tables_audit.

* :data:`ESTIMATES`: claims whose parameters drive memory or time.  Each :class:`Estimate` gives the
  memory of the dominant parameter-driven arrays in bytes (read off the claim's check: 2^n cube tables,
  N x n matrices, vectorised Monte Carlo draws ...; the interpreter and imported libraries, about
  0.3 GiB, come on top) and a time model: a growth law per parameter, calibrated against the seconds the
  full tier took on the reference machine (report/results.json, 2 CPUs, numba threads 2; mutants
  included).  Both are rough (a factor of 2-3 either way); their purpose is to refuse the values that
  need tens of GiB or days, before they allocate, with the estimate in the message.  A few memory models
  were checked against tracemalloc peaks (tests/test_costs.py, ``test_memory_model_against_tracemalloc``).
* :data:`SAFE`: claims with parameters whose whole declared domain is cheap, with the reason (checked
  mechanically by tests/test_costs.py, or a sentence from reading the check: :data:`SAFE_BY_READING`).
* Every parameter of every registered claim is covered (audited claim by claim for issue 19 in four parts:
  seed000/001/003, thesis ch. 4-5, thesis ch. 6-8, seed002; tests/test_costs.py keeps :func:`_pending` empty).
  A parameter that neither covers (:func:`uncovered`: a new claim's, until it gets an entry) gets the
  conservative default: a numeric parameter, or the largest item of a numeric list parameter, may go up to
  ``DEFAULT_FACTOR`` times the largest value any tier uses; beyond that its cost is unknown and the run is
  refused.
* Checks made of separate parts (a training grid plus a closed form, a search plus a table) use a ``work``
  function that takes the largest of the parts' cost ratios (:func:`_parts_work`, :func:`_parts`), an upper
  bound whatever the split of the recorded seconds; claims whose recorded time is a cache hit on another
  claim's work are calibrated with both (:data:`SHARED_CACHE`).

Measured (tracemalloc peak against the model): seed000.def_2.2 at N = n = 128 63.6 / 63.5 MiB,
thesis_ch5.lemma_B.1 at n = 21 48.2 / 48.0 MiB, thesis_ch8.icl_mc_data_model at n = 10^5, t = 30
111 / 122 MiB, thesis_ch6.assumption_6.2 at n = 20 17.3 / 16.0 MiB, thesis_ch5.warmup_gradient at n = 19
40 / 40 MiB (after raising its model from 7 to 10 arrays); issue 19 part A: seed003.definition_3 at instances = 1000,
d = 128 18.9 / 23.4 MiB, seed001.appendix_h_score at H = 2048 107 / 173 MiB, seed000.lemma_C.1 at the full tier
with mutants 112 / 293 MiB, seed000.theorem_D.6 at perturbations = 20000 29 / 74 MiB.

A refusal exits 2 (``InvalidParameter``) with the estimate and the limit.  Limits: memory
``VERIFY_MEMORY_BUDGET_GIB`` (default: half the physical memory, at least 4 GiB), time ``VERIFY_TIME_BUDGET_HOURS`` (default 24).  ``--force``
runs anyway.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from . import cost_tables, cost_tables_audit
from .cost_model import DEFAULT_FACTOR, GIB, Cost, Estimate, _full_seconds, memory_budget, time_budget
from .cost_tables_audit import SAFE

#: claim id -> estimate of its cost from its resolved parameters (the two halves of the table, in their order)
ESTIMATES: dict[str, Estimate] = {**cost_tables.ESTIMATES, **cost_tables_audit.ESTIMATES}


def uncovered(claim) -> list[str]:
    """The parameters of ``claim`` that neither an estimate nor a SAFE entry covers (the default rule's)."""
    if claim.id in SAFE:
        return []
    covered = ESTIMATES[claim.id].covers() if claim.id in ESTIMATES else set()
    return [p.name for p in claim.params if p.name not in covered and p.type is not bool and p.choices is None]


def _pending() -> frozenset[str]:
    from .registry import all_claims

    return frozenset(c.id for c in all_claims() if c.params and uncovered(c))


#: claims that reuse, in the same process, a computation cached by another claim that the report runs first:
#: their recorded full-tier seconds omit that work (0.04 s against 45 s), so their calibration adds the
#: producer's recorded seconds (run alone, e.g. ``verify run``, they do the producer's work themselves)
SHARED_CACHE: dict[str, str] = {
    "thesis_ch5.claim_B.12": "thesis_ch5.claim_B.11",
    "thesis_ch5.lemma_B.8.blowup_time": "thesis_ch5.lemma_B.8",
    "thesis_ch6.pareto_frontier_experiment": "thesis_ch6.data_time_tradeoff",
}


def estimate(claim_id: str, params: Mapping[str, Any]) -> Cost | None:
    """The cost of running ``claim_id`` at ``params`` (None if it declares no estimate)."""
    est = ESTIMATES.get(claim_id)
    if est is None:
        return None
    seconds = None
    recorded = _full_seconds()
    rec = recorded.get(claim_id)
    if rec is not None:
        t_full, full = rec
        if claim_id in SHARED_CACHE:
            t_full += recorded.get(SHARED_CACHE[claim_id], (0.0, {}))[0]
        seconds = max(t_full, 0.01) * est.work_ratio(params, full)
    return Cost(memory_bytes=float(est.memory(params)), seconds=seconds, note=est.note)


def expected_seconds(claim_id: str, params: Mapping[str, Any]) -> float:
    """A rough run time of ``claim_id`` at ``params``, for ordering work (``python -m verify.report -j``,
    longest first): the time model where the claim declares one, else its recorded full-tier seconds, else
    infinity: a claim never timed goes first, so that it cannot form the tail of a parallel run (three new
    ~100 s claims ran last in the 2026-11-27 full run, a 3-minute tail on one worker)."""
    cost = estimate(claim_id, params)
    if cost is not None and cost.seconds is not None:
        return cost.seconds
    return _full_seconds().get(claim_id, (math.inf, {}))[0]


def _numeric_list_max(value) -> float | None:
    """The largest item of a comma-separated numeric list parameter (``'10,50,200'``, ``'2x3x1,3x2x2'``: the
    product of an ``x`` item), None for any other string."""
    if not isinstance(value, str) or not value.strip():
        return None
    top = None
    for item in value.split(","):
        try:
            v = math.prod(float(f) for f in item.strip().split("x"))
        except ValueError:
            return None
        top = v if top is None else max(top, v)
    return top


def _as_number(value) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    return _numeric_list_max(value)


def _tier_max(tiers: Mapping[str, Mapping[str, Any]], name: str):
    values = [v for v in (_as_number(t[name]) for t in tiers.values() if name in t) if v is not None]
    return max(values) if values else None


def _fmt_seconds(s: float) -> str:
    if s < 120:
        return f"{s:.0f} s"
    if s < 7200:
        return f"{s / 60:.0f} min"
    if s < 3 * 86400:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.3g} days"


def refusal(claim_id: str, params: Mapping[str, Any], tiers: Mapping[str, Mapping[str, Any]], *,
            force: bool = False) -> str | None:
    """Why these parameter values must not run (None: they may).  ``tiers``: {tier: resolved params}."""
    if force:
        return None
    cost = estimate(claim_id, params)
    covered: set[str] = set()
    if cost is not None:
        covered = ESTIMATES[claim_id].covers()
        budget = memory_budget()
        if cost.memory_bytes is not None and cost.memory_bytes > budget:
            return (f"{claim_id}: these parameters need about {cost.memory_bytes / GIB:.1f} GiB ({cost.note}), over the "
                    f"memory budget of {budget / GIB:.1f} GiB (set VERIFY_MEMORY_BUDGET_GIB to raise it, or pass --force)")
        limit = time_budget()
        if cost.seconds is not None and cost.seconds > limit:
            return (f"{claim_id}: these parameters need about {_fmt_seconds(cost.seconds)} (scaled from the recorded full-tier "
                    f"run), over the time budget of {_fmt_seconds(limit)} (set VERIFY_TIME_BUDGET_HOURS to raise it, "
                    "or pass --force)")
    elif claim_id in SAFE:
        return None
    for name, raw in params.items():
        value = _as_number(raw)
        if name in covered or value is None:
            continue
        top = _tier_max(tiers, name)
        if top is not None and top > 0 and value > DEFAULT_FACTOR * top:
            shown = raw if value == raw else f"{raw!r} (largest item {value:g})"
            return (f"{claim_id}: argument '{name}' = {shown} is more than {DEFAULT_FACTOR:g}x the largest value any tier "
                    f"runs ({top}); this claim declares no cost estimate for it, so the cost of larger values is unknown "
                    "(pass --force to run it anyway)")
    return None
