"""Cost estimates of claims, checked by ``python -m verify run`` before anything runs (issue 19, item 5).

One central table keyed by claim id (claim modules need no edit).  A claim with an explicit estimate
(:data:`ESTIMATES`: memory in bytes, and seconds where known, as a function of the resolved parameters)
is refused when the memory exceeds the budget (``VERIFY_MEMORY_BUDGET_GIB``, default 4 GiB).  Every
other claim gets the conservative default: a numeric parameter may go up to ``DEFAULT_FACTOR`` times the
largest value any tier uses (values every tier has exercised); beyond that its cost is unknown and the
run is refused, unless ``--force`` is given.  Refusals exit 2 with the estimate and the limit.

Not done yet: explicit estimates for most claims (only the claims listed below have one).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, Mapping

DEFAULT_FACTOR = 2.0
GIB = 2**30


def memory_budget() -> float:
    return float(os.environ.get("VERIFY_MEMORY_BUDGET_GIB", "4")) * GIB


@dataclass(frozen=True)
class Cost:
    memory_bytes: float | None = None
    seconds: float | None = None
    note: str = ""


#: claim id -> estimate of its cost from its resolved parameters
ESTIMATES: dict[str, Callable[[Mapping[str, Any]], Cost]] = {
    # the empirical Rademacher estimate forms an N x n float64 matrix (74.5 GiB at N = n = 100000)
    "seed000.def_2.2": lambda p: Cost(memory_bytes=8.0 * p["N"] * p["n"] * 2, note="two N x n float64 arrays"),
}


def _tier_max(tiers: Mapping[str, Mapping[str, Any]], name: str):
    values = [t[name] for t in tiers.values() if name in t and isinstance(t[name], (int, float)) and not isinstance(t[name], bool)]
    return max(values) if values else None


def refusal(claim_id: str, params: Mapping[str, Any], tiers: Mapping[str, Mapping[str, Any]], *,
            force: bool = False) -> str | None:
    """Why these parameter values must not run (None: they may).  ``tiers``: {tier: resolved params}."""
    estimate = ESTIMATES.get(claim_id)
    if estimate is not None:
        cost = estimate(params)
        budget = memory_budget()
        if cost.memory_bytes is not None and cost.memory_bytes > budget and not force:
            return (f"{claim_id}: these parameters need about {cost.memory_bytes / GIB:.1f} GiB ({cost.note}), over the "
                    f"memory budget of {budget / GIB:.1f} GiB (set VERIFY_MEMORY_BUDGET_GIB to raise it)")
        return None
    if force:
        return None
    for name, value in params.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        top = _tier_max(tiers, name)
        if top is not None and top > 0 and value > DEFAULT_FACTOR * top:
            return (f"{claim_id}: argument '{name}' = {value} is more than {DEFAULT_FACTOR:g}x the largest value any tier "
                    f"runs ({top}); this claim declares no cost estimate, so the cost of larger values is unknown "
                    "(pass --force to run it anyway)")
    return None
