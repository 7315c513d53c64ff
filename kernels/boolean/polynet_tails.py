"""The error of a disjoint-PolyNet with ±1 irrelevant weights as a step function of the relevant weight,
and the times at which gradient flow crosses an error level (thesis ch. 5, Lemma B.8, Corollary B.10,
Theorem 5.7).

Setting (see kernels.boolean.polynet for the general formula).  Every block has m = n' - 1 irrelevant weights
in {±1} and relevant weight of magnitude v > 0 with prod_i v_i > 0.  Then A = u . z is a sum of m
Rademacher signs, A = m - 2 Binomial(m, 1/2), supported on the lattice {-m, -m + 2, ..., m}, and with
p_w = Pr[A < -v], p_z = Pr[A = -v] the error of k equal blocks is

    err(v) = 1 - (1/2) (1 - p_z)^k - (1/2) (1 - p_z - 2 p_w)^k.

err is piecewise constant in v: with the lattice levels a = m mod 2, ..., m (a >= 0) it takes one value
on each open interval (a, a + 2) (p_z = 0, p_w = Pr[A < -a]), a larger value at each tie v = a (p_z > 0:
a zero output counts as an error), the value with p_w = Pr[A <= -1] on (0, 1) when m is odd, and 0 for
v > m.  Writing N = 2^m, W_a = #{z : A < -a} and Z_a = #{z : A = -a} (integers), the exact values are

    err on (a, a + 2) = (N^k - (N - 2 W_a)^k) / (2 N^k),
    err(a)            = (2 N^k - (N - Z_a)^k - (N - Z_a - 2 W_a)^k) / (2 N^k).

Gradient flow from |v_i(0)| = v0 for every i (the all-ones or ±1 initialisation, Lemma B.8) keeps all
|v_i| equal: |v(t)| = (v0^{2-k} - (k-2) t)^{-1/(k-2)} for k >= 3 (blow-up at T_inf = v0^{2-k}/(k-2)) and
|v(t)| = v0 e^t for k = 2, so the time at which |v| reaches v is :func:`flow_time`.  Since v(t) is
increasing, the level-crossing times of err(t) are flow times of the level-crossing values of err(v):

* ``kind="sup"``: sup{v >= v0 : err(v) >= level} (Corollary B.10: T(alpha) = sup{t : err(t) >= alpha});
* ``kind="inf"``: inf{v >= v0 : err(v) <= level} (main text: T(eps) = the first t with err(t) <= eps).

Exact routes use Python integers (every value is a rational with denominator 2N^k); float routes use
scipy's binomial tails on a window of levels that provably contains the answer (err(v) <= k Pr[A >= v],
a union bound, and the window's top is verified to satisfy k Pr[A >= a_top] < level).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from bisect import bisect_right
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from numbers import Rational

import numpy as np

from .. import _checks

__all__ = [
    "MAX_EXACT_M",
    "Crossing",
    "flow_time",
    "pm1_crossing",
    "pm1_error_at",
    "pm1_error_profile",
    "pm1_tail_counts",
    "pm1_tail_probs",
]

#: Largest block size of the exact (integer) routes: m/2 integers of m bits each (m = 20000: ~25 MB).
MAX_EXACT_M = 20_000
#: Largest block size of the float routes (scipy's binomial tails are accurate far beyond this).
MAX_FLOAT_M = 10**9
KINDS = ("sup", "inf")


def pm1_tail_counts(m: int) -> tuple[list[int], list[int], list[int]]:
    """Exact lattice law of A = sum of m Rademacher signs.

    Returns ``(levels, W, Z)``: the levels a = m mod 2, m mod 2 + 2, ..., m (ascending), and for each
    W[i] = #{z in {±1}^m : A < -a} and Z[i] = #{z : A = -a} (Python ints; divide by 2^m for
    probabilities).  O(m) big-integer operations (memoised per m; fresh lists on every call).
    """
    m = _checks.require_int("m", m, min_value=0, max_value=MAX_EXACT_M)
    levels, W, Z = _tail_counts(m)
    return list(levels), list(W), list(Z)


@lru_cache(maxsize=512)
def _tail_counts(m: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """:func:`pm1_tail_counts` (m already validated), as tuples."""
    # A = m - 2j with j = #(-1) signs; A = -a  <=>  j = (m + a)/2; A < -a  <=>  j > (m + a)/2
    levels = list(range(m % 2, m + 1, 2))
    W = [0] * len(levels)
    Z = [0] * len(levels)
    c = 1  # C(m, j), from j = m downward
    below = 0  # sum_{j' > j} C(m, j')
    idx = len(levels) - 1
    for j in range(m, (m - 1) // 2, -1):
        if 2 * j - m == levels[idx]:
            W[idx], Z[idx] = below, c
            idx -= 1
        below += c
        c = c * j // (m - j + 1)
    return tuple(levels), tuple(W), tuple(Z)


def pm1_tail_probs(m: int, a_max: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Float64 twin of :func:`pm1_tail_counts` on the levels a <= a_max: ``(a, Pr[A < -a], Pr[A = -a])``.

    One call of scipy.stats.binom.sf (Boost's regularised incomplete beta: relative error ~1e-15 even
    deep in the tail; cephes' bdtrc is off by ~1e-9 at m = 10^6 and is not used) on consecutive
    j = (m + a)/2, J ~ Binomial(m, 1/2): Pr[A < -a] = Pr[J > j] and Pr[A = -a] = Pr[J > j - 1] - Pr[J > j]
    (absolute error ~1e-16).
    """
    from scipy.stats import binom

    m = _checks.require_int("m", m, min_value=0, max_value=MAX_FLOAT_M)
    top = m if a_max is None else _checks.require_int("a_max", a_max, min_value=0)
    top = min(top, m)
    _checks.require_memory("a_max", top, 4 * 8 * (top // 2 + 2), what="the float tail arrays")
    a = np.arange(m % 2, top + 1, 2, dtype=np.int64)
    S = _binom_sf_run(m, a.shape[0] + 1, binom)[:a.shape[0] + 1]
    return a, S[1:].copy(), np.maximum(S[:-1] - S[1:], 0.0)


#: per m, the longest run of binomial tails computed so far (:func:`_binom_sf_run`), most recent last
_SF_RUNS: dict = {}
_SF_RUNS_MAX = 64


def _binom_sf_run(m: int, length: int, binom) -> np.ndarray:
    """Pr[J > k] for J ~ Binomial(m, 1/2) and the consecutive k = j0 - 1, j0, ..., j0 + length - 2, j0 = (m + m mod 2)/2
    (1.0 for k < 0): at least ``length`` values, read-only.  binom.sf is elementwise, so a longer run is the shorter
    one's values followed by more; runs are memoised per m and extended (to at least twice their length, up to the
    whole support) when a longer one is asked for."""
    run = _SF_RUNS.pop(m, None)
    if run is None or run.shape[0] < length:
        full = (m - m % 2) // 2 + 2  # the levels a = m mod 2, ..., m, plus the leading k = j0 - 1
        n = min(full, max(length, 2 * run.shape[0])) if run is not None else length
        j0 = (m + m % 2) // 2
        ks = np.arange(j0 - 1, j0 - 1 + n, dtype=np.int64).astype(np.float64)
        run = np.where(ks < 0, 1.0, binom.sf(np.maximum(ks, 0), m, 0.5))
        run.setflags(write=False)
    _SF_RUNS[m] = run
    while len(_SF_RUNS) > _SF_RUNS_MAX:
        del _SF_RUNS[next(iter(_SF_RUNS))]
    return run


def flow_time(v, k: int, v0=1):
    """Time for |v_i| to grow from v0 to v under v_i' = prod_{j != i} v_j with all |v_i(0)| = v0.

    k >= 3: (v0^{2-k} - v^{2-k}) / (k - 2), exact (Fraction) for rational v, v0; v = math.inf gives the
    blow-up time T_inf = v0^{2-k} / (k - 2).  k = 2: log(v / v0) (float; math.inf for v = inf).
    """
    k = _checks.require_int("k", k, min_value=2, max_value=64)
    if not (v == math.inf or (isinstance(v, (Rational, float)) and v >= v0 > 0)):
        raise ValueError(f"argument 'v' must be a number >= v0 = {v0} > 0 (or math.inf), not {v!r}")
    if k == 2:
        return math.inf if v == math.inf else math.log(v / v0)
    exact = isinstance(v0, Rational) and (v == math.inf or isinstance(v, Rational))
    one = Fraction(1) if exact else 1.0
    start = one / (Fraction(v0) if exact else float(v0)) ** (k - 2)
    if v == math.inf:
        return start / (k - 2)
    end = one / (Fraction(v) if exact else float(v)) ** (k - 2)
    return (start - end) / (k - 2)


def _validate(m: int, k: int, exact: bool) -> tuple[int, int]:
    m = _checks.require_int("m", m, min_value=0, max_value=MAX_EXACT_M if exact else MAX_FLOAT_M)
    k = _checks.require_int("k", k, min_value=1, max_value=64)
    return m, k


def pm1_error_at(m: int, k: int, v) -> Fraction:
    """Exact err(v) for k blocks of m ±1 irrelevant weights and relevant weights of magnitude v > 0."""
    m, k = _validate(m, k, True)
    v = Fraction(v)
    if v <= 0:
        raise ValueError(f"argument 'v' must be > 0 (the magnitude of the relevant weights), not {v}")
    N = 1 << m
    t = (m + v) / 2  # A < -v <=> j > t ; A = -v <=> j = t
    j0 = math.floor(t) + 1
    W = sum(comb(m, j) for j in range(j0, m + 1))
    Z = comb(m, int(t)) if t.denominator == 1 and t <= m else 0
    return Fraction(2 * N**k - (N - Z) ** k - (N - Z - 2 * W) ** k, 2 * N**k)


@dataclass(frozen=True)
class Crossing:
    """Result of :func:`pm1_crossing`.

    value: the crossing value of v (int/Fraction on the exact route, float on the float route;
    ``math.inf`` for a ``sup`` with level <= 0; ``None`` when the set is empty).  margin: the smallest
    |err - level| over the steps the decision looked at (float route; ``None`` on the exact route),
    to compare with the float error of the tails.  steps: how many steps (ties and intervals) were examined.
    """

    value: object
    margin: float | None
    steps: int


def _window_top(m: int, k: int, level: float) -> int:
    """A lattice level a_top with k exp(-a_top^2 / (2m)) < level (Hoeffding), capped at m."""
    if level <= 0 or m == 0:
        return m
    if level >= k:
        return min(m, 2)
    a = math.ceil(math.sqrt(2 * m * math.log(k / level))) + 2
    return min(m, a + (a - m) % 2)


def _exact_profile(m: int, k: int, counts, keep: int) -> dict:
    levels, W, Z = counts
    N = 1 << m
    Nk = N**k
    den = 2 * Nk
    tie = [Fraction(2 * Nk - (N - z) ** k - (N - z - 2 * w) ** k, den) for w, z in zip(W[:keep], Z[:keep])]
    above = [Fraction(Nk - (N - 2 * w) ** k, den) for w in W[:keep]]
    below = Fraction(Nk - (N - 2 * (W[0] + Z[0])) ** k, den) if m % 2 == 1 else None
    return {"levels": levels[:keep], "tie": tie, "above": above, "below_first": below}


def pm1_error_profile(m: int, k: int, *, a_max: int | None = None, exact: bool = True) -> dict:
    """err(v) on the lattice steps a <= a_max: ``{"levels", "tie", "above", "below_first"}``.

    ``tie[i]`` = err(levels[i]); ``above[i]`` = err on (levels[i], levels[i] + 2) (0 above m);
    ``below_first`` = err on (0, levels[0]) when levels[0] = 1 (m odd), else None.  Exact route: Fractions;
    float route: float64 arrays.
    """
    m, k = _validate(m, k, exact)
    if a_max is not None:
        a_max = _checks.require_int("a_max", a_max, min_value=0)
    if exact:
        counts = pm1_tail_counts(m)
        keep = len(counts[0]) if a_max is None else sum(1 for a in counts[0] if a <= a_max)
        return _exact_profile(m, k, counts, keep)
    return _float_profile(m, k, *pm1_tail_probs(m, a_max))


def _float_profile(m: int, k: int, a: np.ndarray, pw: np.ndarray, pz: np.ndarray) -> dict:
    tie = 1 - 0.5 * (1 - pz) ** k - 0.5 * (1 - pz - 2 * pw) ** k
    above = 0.5 - 0.5 * (1 - 2 * pw) ** k
    below = float(0.5 - 0.5 * (1 - 2 * (pw[0] + pz[0])) ** k) if m % 2 == 1 and a.size else None
    return {"levels": a.tolist(), "tie": tie, "above": above, "below_first": below}


def _regions(levels: Sequence[int], tie, above, below_first):
    """The steps of err in increasing v: (lo, hi, value) for open intervals, (a, a, value) for ties."""
    out = []
    if below_first is not None:
        out.append((0, levels[0], below_first))
    for i, a in enumerate(levels):
        if a > 0:
            out.append((a, a, tie[i]))
        out.append((a, a + 2, above[i]))
    return out


def pm1_crossing(m: int, k: int, level, *, kind: str, v0=1, exact: bool = True) -> Crossing:
    """Level-crossing value of err(v) for v >= v0 (see the module docstring).

    kind="sup": sup{v >= v0 : err(v) >= level}; kind="inf": inf{v >= v0 : err(v) <= level}.
    ``level`` is a number (compared exactly as a Fraction on the exact route).  Both routes scan the
    steps of err on a window of levels a <= a_top whose top satisfies k Pr[A >= a_top] < level (<= for
    "inf"), checked on the computed tails: since err(v) <= k Pr[A <= -v] (a wrong or zero product needs a
    block with v + B_i <= 0), no v above the window can reach the level, and for "inf" the interval just
    above a_top already qualifies.  The window grows (up to the whole support) until the check passes.
    """
    m, k = _validate(m, k, exact)
    if kind not in KINDS:
        raise ValueError(f"argument 'kind' must be one of {KINDS}, not {kind!r}")
    if isinstance(v0, bool) or not (isinstance(v0, (Rational, float)) and v0 > 0):
        raise ValueError(f"argument 'v0' must be a number > 0, not {v0!r}")
    level = Fraction(level) if exact else float(level)
    if kind == "sup" and level <= 0:
        return Crossing(math.inf, None, 0)
    if kind == "inf" and level < 0:
        return Crossing(None, None, 0)
    if kind == "inf" and level == 0:
        # err(v) = 0 iff v > m: for v <= m either v is a tie (Z > 0) or v lies in (a, a + 2) with a < m,
        # where W_a >= 1; both give err > 0.  (m = 0: err = 0 for every v > 0.)
        return Crossing(max(m, v0) if m > 0 else v0, None, 0)
    counts = _tail_counts(m) if exact else None
    top = _window_top(m, k, float(level))
    while True:
        if exact:
            keep = bisect_right(counts[0], top)  # the levels a <= top (ascending)
            levels = counts[0][:keep]
        else:
            arrays = pm1_tail_probs(m, top)
            prof = _float_profile(m, k, *arrays)
            levels = prof["levels"]
        if top >= m:
            break
        if exact:
            i = len(levels) - 1
            tail = Fraction(k * (counts[1][i] + counts[2][i]), 1 << m)  # k Pr[A <= -a_top]
        else:
            tail = k * float(arrays[1][-1] + arrays[2][-1])
        if (kind == "sup" and tail < level) or (kind == "inf" and tail <= level):
            break
        top = min(m, 2 * top + 2)
    if not exact:
        return _float_decision(m, prof, level, kind, v0, top >= m)
    return _exact_decision(m, k, counts, keep, level, kind, v0, top >= m)


def _exact_decision(m: int, k: int, counts, keep: int, level: Fraction, kind: str, v0, whole: bool) -> Crossing:
    """The scan of :func:`pm1_crossing` on the exact steps of err: the regions of :func:`_regions` (with err = 0
    above the support when the window is ``whole``) in the same order, each value err = num / (2 N^k) computed only
    when its position qualifies and compared with level = p / q as num q vs p 2 N^k (integers; the same decisions
    as the Fractions of :func:`_exact_profile`)."""
    levels, W, Z = counts
    N = 1 << m
    Nk = N**k
    den = 2 * Nk
    p, q = level.numerator, level.denominator
    lvl = p * den  # err >= level  <=>  num q >= p den

    def num(tag: str, i: int) -> int:
        if tag == "tie":
            w, z = W[i], Z[i]
            return 2 * Nk - (N - z) ** k - (N - z - 2 * w) ** k
        if tag == "above":
            return Nk - (N - 2 * W[i]) ** k
        if tag == "below":
            return Nk - (N - 2 * (W[0] + Z[0])) ** k
        return 0  # above the support

    regions = []  # (lo, hi, tag, i) in increasing v, as _regions
    if m % 2 == 1:
        regions.append((0, levels[0], "below", 0))
    for i in range(keep):
        a = levels[i]
        if a > 0:
            regions.append((a, a, "tie", i))
        regions.append((a, a + 2, "above", i))
    if whole:
        regions.append((m, math.inf, "zero", 0))
    steps = len(regions)
    if kind == "sup":
        for lo, hi, tag, i in reversed(regions):
            if lo == hi:
                if lo >= v0 and num(tag, i) * q >= lvl:
                    return Crossing(lo, None, steps)
            elif hi > v0 and num(tag, i) * q >= lvl:
                return Crossing(hi, None, steps)
        return Crossing(None, None, steps)
    for lo, hi, tag, i in regions:
        if lo == hi:
            if lo >= v0 and num(tag, i) * q <= lvl:
                return Crossing(lo, None, steps)
        elif hi > v0 and num(tag, i) * q <= lvl:
            return Crossing(max(lo, v0), None, steps)
    raise AssertionError("unreachable: err = 0 above the support")  # pragma: no cover


def _float_decision(m: int, prof: dict, level: float, kind: str, v0, whole: bool) -> Crossing:
    """The scan of :func:`pm1_crossing` on float64 arrays (same regions, vectorised)."""
    a = np.asarray(prof["levels"], dtype=np.int64)
    tie = np.asarray(prof["tie"], dtype=np.float64)
    above = np.asarray(prof["above"], dtype=np.float64)
    below = prof["below_first"]
    vals = [tie[a > 0], above] + ([np.array([below])] if below is not None else [])
    margin = float(min(np.min(np.abs(x - level)) for x in vals if x.size))
    steps = int(sum(x.size for x in vals)) + int(whole)
    tie_ok = (a > 0) & (a >= v0)
    int_ok = (a + 2) > v0
    if kind == "sup":
        cand = [int(a[tie_ok & (tie >= level)].max(initial=-1)), int((a[int_ok & (above >= level)] + 2).max(initial=-1))]
        if below is not None and a[0] > v0 and below >= level:
            cand.append(int(a[0]))
        best = max(cand)
        return Crossing(best if best >= 0 else None, margin, steps)
    big = np.iinfo(np.int64).max
    cand = [int(a[tie_ok & (tie <= level)].min(initial=big))]
    sel = a[int_ok & (above <= level)]
    if sel.size:
        cand.append(max(int(sel.min()), v0))
    if below is not None and a[0] > v0 and below <= level:
        cand.append(v0)
    if whole:
        cand.append(max(m, v0))
    best = min(cand)
    if best == big:
        raise AssertionError("unreachable: the window contains a qualifying step")  # pragma: no cover
    return Crossing(best, margin, steps)
