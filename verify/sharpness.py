"""Adversarial search for the sharpness of an inequality: the largest lhs/rhs over the hypothesis domain.

The verdict contract (docs: "Sharpness") asks every inequality claim to record the largest ratio
lhs/rhs (rhs/lhs for a lower bound) that a *search* reaches, not only what random cases happen to give.
Two seeded searches serve most claims:

* :func:`maximize_continuous`: multi-start bounded optimisation (scipy.optimize.minimize, L-BFGS-B by
  default, or Nelder-Mead for non-smooth ratios) from seeded uniform starting points plus any starting
  points the caller knows to be extremal (the proof's tight instance);
* :func:`maximize_discrete`: seeded hill climbing over a discrete structure (sign vectors, subsets,
  integer grids) with a caller-supplied neighbourhood, plus exhaustive enumeration when the domain is
  small enough.

Both return a :class:`SearchResult` with the best ratio, its argument and the number of evaluations.
The budget is the caller's: claims scale ``restarts`` / ``iters`` with their tier (seconds at quick).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import numpy as np

__all__ = ["SearchResult", "maximize_continuous", "maximize_discrete"]


@dataclass(frozen=True)
class SearchResult:
    """Best value found by a search: ``value`` = the ratio at ``x``; ``evaluations`` = calls made."""

    value: float
    x: Any
    evaluations: int
    method: str


def _finite_or_neg_inf(v) -> float:
    try:
        f = float(v)
    except (TypeError, ValueError, OverflowError):
        return -math.inf
    return f if math.isfinite(f) else -math.inf


def maximize_continuous(
    ratio: Callable[[np.ndarray], float],
    bounds: Sequence[tuple[float, float]],
    *,
    seed: int,
    restarts: int = 8,
    starts: Iterable[Sequence[float]] = (),
    method: str = "L-BFGS-B",
    maxiter: int = 200,
) -> SearchResult:
    """Maximise ``ratio(x)`` over the box ``bounds`` by seeded multi-start local optimisation.

    ``starts`` are extra starting points (e.g. the proof's extremal instance); ``restarts`` uniform
    random starts are added from ``numpy.random.default_rng(seed)``.  A non-finite ratio counts as
    -inf (outside the domain).  Deterministic for a fixed seed.
    """
    from scipy.optimize import minimize

    if restarts < 0:
        raise ValueError(f"argument 'restarts' must be >= 0, not {restarts}")
    lo = np.array([b[0] for b in bounds], dtype=float)
    hi = np.array([b[1] for b in bounds], dtype=float)
    if lo.shape != hi.shape or lo.ndim != 1 or not np.all(lo <= hi):
        raise ValueError(f"argument 'bounds' must be a sequence of (low, high) with low <= high, not {bounds!r}")
    rng = np.random.default_rng(seed)
    points = [np.clip(np.asarray(s, dtype=float), lo, hi) for s in starts]
    points += [lo + (hi - lo) * rng.random(lo.size) for _ in range(restarts)]
    if not points:
        raise ValueError("no starting point: give 'starts' or restarts >= 1")
    count = 0

    def neg(x):
        nonlocal count
        count += 1
        v = _finite_or_neg_inf(ratio(np.clip(x, lo, hi)))
        return -v if v > -math.inf else 1e300

    best_v, best_x = -math.inf, points[0]
    for x0 in points:
        v0 = -neg(x0)
        if v0 > best_v:
            best_v, best_x = v0, x0.copy()
        kwargs = {"bounds": list(zip(lo, hi))} if method in ("L-BFGS-B", "Nelder-Mead", "Powell", "TNC") else {}
        res = minimize(neg, x0, method=method, options={"maxiter": maxiter}, **kwargs)
        x = np.clip(res.x, lo, hi)
        v = -neg(x)
        if v > best_v:
            best_v, best_x = v, x
    return SearchResult(best_v, best_x, count, f"{method}, {len(points)} starts")


def maximize_discrete(
    ratio: Callable[[Any], float],
    start: Callable[[np.random.Generator], Any],
    neighbours: Callable[[Any, np.random.Generator], Iterable[Any]],
    *,
    seed: int,
    restarts: int = 8,
    iters: int = 200,
    exhaustive: Iterable[Any] | None = None,
) -> SearchResult:
    """Maximise ``ratio`` over a discrete domain: exhaustive when ``exhaustive`` is given, else seeded
    first-improvement hill climbing from ``restarts`` random starts (``start(rng)``), moving to the
    first neighbour (``neighbours(x, rng)``) that improves, for at most ``iters`` moves each."""
    count = 0

    def f(x):
        nonlocal count
        count += 1
        return _finite_or_neg_inf(ratio(x))

    if exhaustive is not None:
        best_v, best_x = -math.inf, None
        for x in exhaustive:
            v = f(x)
            if v > best_v:
                best_v, best_x = v, x
        return SearchResult(best_v, best_x, count, "exhaustive")
    rng = np.random.default_rng(seed)
    best_v, best_x = -math.inf, None
    for _ in range(max(restarts, 1)):
        x = start(rng)
        v = f(x)
        for _ in range(iters):
            moved = False
            for y in neighbours(x, rng):
                w = f(y)
                if w > v:
                    x, v, moved = y, w, True
                    break
            if not moved:
                break
        if v > best_v:
            best_v, best_x = v, x
    return SearchResult(best_v, best_x, count, f"hill climbing, {max(restarts, 1)} starts x {iters} moves")
