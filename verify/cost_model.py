"""The cost model behind verify.costs: the memory and time budgets, :class:`Cost`, the growth laws and
:class:`Estimate` (memory in bytes from the resolved parameters, time calibrated against the recorded full-tier
seconds, :func:`_full_seconds` from report/results.json), the shorthands the tables use (:func:`E`,
:func:`loop`, :func:`cube`, :func:`signs`, :func:`_ints`) and the ``work`` of a check made of parts
(:func:`_parts_work`).
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

DEFAULT_FACTOR = 2.0
GIB = 2**30
F8 = 8  # bytes of a float64 / int64
RESULTS_JSON = Path(__file__).resolve().parent.parent / "report" / "results.json"


def memory_budget() -> float:
    """``VERIFY_MEMORY_BUDGET_GIB`` if set, else half this machine's physical memory, at least 4 GiB."""
    if os.environ.get("VERIFY_MEMORY_BUDGET_GIB"):
        return float(os.environ["VERIFY_MEMORY_BUDGET_GIB"]) * GIB
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        total = 0
    return max(4.0 * GIB, 0.5 * total)


def time_budget() -> float:
    return float(os.environ.get("VERIFY_TIME_BUDGET_HOURS", "24")) * 3600.0


@dataclass(frozen=True)
class Cost:
    memory_bytes: float | None = None
    seconds: float | None = None
    note: str = ""


# growth laws of the time in one parameter (ratios of these are what matters)
LAWS: dict[str, Callable[[float], float]] = {
    "const": lambda v: 1.0,
    "lin": lambda v: max(float(v), 1e-300),
    "nlogn": lambda v: max(float(v), 2.0) * math.log2(max(float(v), 2.0)),
    "quad": lambda v: max(float(v), 1e-300) ** 2,
    "cubic": lambda v: max(float(v), 1e-300) ** 3,
    "quartic": lambda v: max(float(v), 1e-300) ** 4,
    "exp2": lambda v: 2.0 ** float(v),  # one 2^v table (or a loop up to v: the last term dominates)
    "nexp2": lambda v: max(float(v), 1.0) * 2.0 ** float(v),  # a Walsh-Hadamard transform of 2^v entries
    "exp4": lambda v: 4.0 ** float(v),
    "exp10": lambda v: 10.0 ** float(v),
    "pow5": lambda v: max(float(v), 1e-300) ** 5,
    "inv2": lambda v: max(float(v), 1e-300) ** -2,  # e.g. a step count T ~ 1/eps^2
}


@dataclass(frozen=True)
class Estimate:
    """memory(params) -> bytes of the dominant parameter-driven arrays; time: parameter -> growth law
    (a key of :data:`LAWS`); free: parameters that drive neither memory nor time beyond their declared
    domain (with the estimate's note saying why).  Parameters in none of these get the default rule."""

    memory: Callable[[Mapping[str, Any]], float]
    note: str
    time: Mapping[str, str] = field(default_factory=dict)
    free: tuple[str, ...] = ()
    memory_params: tuple[str, ...] = ()
    #: work(params) when the parameters do not act separately (e.g. (2^(d+1))^m datasets); replaces ``time``
    work: Callable[[Mapping[str, Any]], float] | None = None
    work_params: tuple[str, ...] = ()

    def covers(self) -> set[str]:
        return set(self.time) | set(self.free) | set(self.memory_params) | set(self.work_params)

    def work_ratio(self, params: Mapping[str, Any], full: Mapping[str, Any]) -> float:
        """Time at ``params`` over time at the full tier's ``full``."""
        ratio = 1.0
        if self.work is not None and all(k in full for k in self.work_params):
            ratio = self.work(params) / max(self.work(dict(params, **{k: full[k] for k in self.work_params})), 1e-300)
        for name, law in self.time.items():
            if name in params and name in full:
                f = LAWS[law]
                ratio *= f(params[name]) / f(full[name])
        return ratio


def _ints(text: str) -> list[int]:
    """The integers of a comma-separated list parameter (``'10,30,100'``; ``'2x3x1'`` items give their product)."""
    out = []
    for item in str(text).split(","):
        item = item.strip()
        if not item:
            continue
        try:
            out.append(math.prod(int(v) for v in item.replace("/", "x").split("x")))
        except ValueError:
            continue
    return out or [1]


def cube(n: int, bytes_per_point: float = 3 * F8) -> float:
    """A few arrays over {+-1}^n (table, transform, scratch): ``bytes_per_point`` * 2^n."""
    return bytes_per_point * 2.0 ** n


def signs(n: int) -> float:
    """sign_vectors(n).astype(int64) (2^n x n) plus three 2^n tables."""
    return F8 * (n + 3) * 2.0 ** n


def E(memory, note, time=None, free=(), memory_params=(), work=None, work_params=()):
    return Estimate(memory=memory, note=note, time=dict(time or {}), free=tuple(free), memory_params=tuple(memory_params),
                    work=work, work_params=tuple(work_params))


def loop(*names: str, per_iteration: float = 256.0) -> Estimate:
    """Parameters that only count iterations of a Python loop in the check (``range(p[name])`` is their
    only use there; tests/test_costs.py re-derives that from the source): time linear in each (nested:
    the product), memory not growing with them (Evidence keeps aggregates; measured peaks 0.07 MiB at
    thesis_ch4.lemma_A.13 instances = 5000 against 0.09 MiB at 500, seed001.lemma_16_softmax_ua flat
    likewise), modelled as ``per_iteration`` bytes each to stay conservative."""
    return E(lambda p: per_iteration * math.prod(p[n] for n in names),
             f"a loop of {' x '.join(names)} iterations, constant memory each", {n: "lin" for n in names})


@lru_cache(maxsize=1)
def _full_seconds() -> dict[str, tuple[float, dict]]:
    """claim id -> (seconds, params) of the recorded full-tier run (empty if there is none)."""
    try:
        data = json.loads(RESULTS_JSON.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if data.get("environment", {}).get("tier") not in ("full", "gpu"):
        return {}
    return {r["id"]: (float(r["seconds"]), dict(r.get("params") or {}))
            for r in data.get("results", []) if "id" in r and isinstance(r.get("seconds"), (int, float))}


def _parts_work(cid: str, *parts: Callable[[Mapping[str, Any]], float]) -> Callable[[Mapping[str, Any]], float]:
    """``work`` for a check made of separate parts (each driven by its own parameters): the largest ratio of a
    part's cost at ``p`` to its cost at the recorded full-tier parameters.  The true ratio of the sum is a
    weighted mean of the parts' ratios, so the largest one bounds it from above whatever the (unknown) split
    of the full-tier seconds; a product of per-parameter laws would instead vanish when one part is switched
    off (``runs = 0``)."""
    def work(p):
        rec = _full_seconds().get(cid)
        full = dict(p, **{k: v for k, v in (rec[1] if rec else {}).items() if k in p})
        return max(f(p) / max(f(full), 1e-300) for f in parts)
    return work
