"""P1: learning parities by row reduction over GF(2) with O(d) examples and O(d^2) runtime (seed 003,
introduction, lines 27 and 29).

Two claims.  ``seed003.gaussian_elimination.samples``: the sample size.  S is recovered exactly iff the
m x d GF(2) matrix of the examples has rank d, with Pr[rank = d] = prod_{j<d} (1 - 2^{j-m}) for
uniform x, so m = d + ceil(log2(1/delta)) examples suffice with probability >= 1 - delta; checked
exactly (Fractions) and against a seeded Monte Carlo of the learner (kernels.algebra.gf2).
``seed003.gaussian_elimination.runtime``: the cost.  Row reduction uses at most rank * m = O(d^2) row
operations, but each row operation on a (d+1)-bit row costs d + 1 - c bit operations, and the
elimination needs Theta(d^3) of them: the printed "O(d^2) runtime" holds for row operations (or a
word-RAM with d-bit words), not for bit operations (field operations over GF(2), the elementary
steps of the paper's Turing-machine cost model).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import sympy as sp
from scipy.stats import beta

from kernels.algebra.gf2 import (
    gf2_eliminate_packed,
    learn_parity_packed,
    pack_bits,
    parity_labels_packed,
    random_packed,
    words_for,
)

from ..registry import Context, Evidence, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True

# ---------------------------------------------------------------------------------------------
# exact combinatorics of random GF(2) matrices (pure functions of hashable arguments returning immutable
# values, memoised: the printed statement and the mutants ask for the same (d, m) many times)
# ---------------------------------------------------------------------------------------------


@lru_cache(maxsize=16384)
def full_rank_probability(d: int, m: int) -> Fraction:
    """Pr[an m x d uniform GF(2) matrix has rank d] = prod_{j=0}^{d-1} (1 - 2^{j-m}) (0 if m < d)."""
    if m < d:
        return Fraction(0)
    p = Fraction(1)
    for j in range(d):
        p *= 1 - Fraction(1, 2 ** (m - j))
    return p


@lru_cache(maxsize=4096)
def rank_distribution(d: int, m: int) -> tuple[Fraction, ...]:
    """Pr[rank = r] for r = 0..min(d, m): 2^{-md} prod_{i<r} (2^m - 2^i)(2^d - 2^i) / (2^r - 2^i)."""
    out = []
    for r in range(min(d, m) + 1):
        num = 1
        den = 1
        for i in range(r):
            num *= (2**m - 2**i) * (2**d - 2**i)
            den *= 2**r - 2**i
        out.append(Fraction(num, den * 2 ** (m * d)))
    return tuple(out)


@lru_cache(maxsize=4096)
def expected_error(d: int, m: int) -> Fraction:
    """E[err] of the free-variables-zero learner for S uniform: (1/2) sum_r Pr[rank = r](1 - 2^{r-d}).

    Given rank r the consistent parities form a coset of size 2^{d-r}; the learner outputs S iff the
    d - r free coordinates of S are 0 (probability 2^{r-d} for uniform S), and any other parity
    disagrees with chi_S on exactly half the cube."""
    return sum((p * (1 - Fraction(1, 2 ** (d - r))) for r, p in enumerate(rank_distribution(d, m))), Fraction(0)) / 2


@lru_cache(maxsize=16384)
def samples_for(d: int, delta: Fraction) -> int:
    """m = d + ceil(log2(1/delta)) (exact for delta a power of 2 or any rational)."""
    k = 0
    while Fraction(1, 2**k) > delta:
        k += 1
    return d + k


@lru_cache(maxsize=16384)
def _full_rank_interval(d: int, m: int, bits: int = 256) -> tuple[int, int, int]:
    """Integers (lo, hi, bits) with lo / 2^bits <= Pr[rank = d] <= hi / 2^bits (rigorous: each factor
    1 - 2^{-i} is applied as x - x / 2^i rounded down for lo and up for hi)."""
    if m < d:
        return 0, 0, bits
    one = 1 << bits
    lo = hi = one
    for i in range(m - d + 1, m + 1):
        lo = lo - (-((-lo) >> i)) if i <= bits + 2 else lo - 1  # lo - ceil(lo / 2^i)
        hi = hi - (hi >> i)  # hi - floor(hi / 2^i)
    return max(lo, 0), hi, bits


@lru_cache(maxsize=16384)
def full_rank_at_least(d: int, m: int, claim: Fraction) -> tuple[bool, Fraction | float]:
    """Decide Pr[rank = d] >= claim rigorously: a 256-bit integer interval, exact Fractions when the
    interval cannot decide (or d <= 64).  Returns (decision, the probability: exact or a float)."""
    if d <= 64 or m < d:
        pr = full_rank_probability(d, m)
        return pr >= claim, pr
    lo, hi, bits = _full_rank_interval(d, m)
    if Fraction(lo, 1 << bits) >= claim:
        return True, lo / 2.0**bits
    if Fraction(hi, 1 << bits) < claim:
        return False, hi / 2.0**bits
    pr = full_rank_probability(d, m)
    return pr >= claim, pr


def minimal_samples(d: int, delta: Fraction) -> int:
    """The smallest m with Pr[rank = d] >= 1 - delta (rigorous search)."""
    m = d
    while not full_rank_at_least(d, m, 1 - delta)[0]:
        m += 1
    return m


def clopper_pearson(k: int, n: int, alpha: float) -> tuple[float, float]:
    """Two-sided Clopper-Pearson interval for a binomial proportion at level 1 - alpha."""
    lo = 0.0 if k == 0 else float(beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(beta.ppf(1 - alpha / 2, k + 1, n - k))
    return lo, hi


# ---------------------------------------------------------------------------------------------
# Monte Carlo of the learner
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Trials:
    d: int
    m: int
    trials: int
    rank: np.ndarray
    recovered: np.ndarray  # learner output == S
    consistent: np.ndarray
    unique_ok: bool  # every rank-d trial returned exactly S
    exhaustive_half: tuple[int, int]  # (wrong outputs checked over the whole cube, of which err == 1/2)


def _augment(rows: np.ndarray, labels: np.ndarray, d: int) -> np.ndarray:
    """Append the label bit as column d of packed rows (..., ceil(d / 64))."""
    W = words_for(d + 1)
    if W > rows.shape[-1]:
        rows = np.concatenate([rows, np.zeros(rows.shape[:-1] + (1,), dtype=np.uint64)], axis=-1)
    else:
        rows = rows.copy()
    rows[..., d >> 6] |= labels.astype(np.uint64) << np.uint64(d & 63)
    return np.ascontiguousarray(rows)


_TRIALS_CACHE: dict = {}


def _cached_trials(d: int, m: int, trials: int, ctx, tag: str) -> _Trials:
    """_run_trials with the seed of ``tag``; memoised per process (the draws depend only on the key),
    so the printed statement and its mutants share the Monte Carlo of a common (d, m)."""
    key = (ctx.claim_id, tag, d, m, trials, ctx.backend)
    if key not in _TRIALS_CACHE:
        if len(_TRIALS_CACHE) > 256:
            _TRIALS_CACHE.clear()
        _TRIALS_CACHE[key] = _run_trials(d, m, trials, ctx.rng(tag), ctx.backend)
    return _TRIALS_CACHE[key]


def _run_trials(d: int, m: int, trials: int, rng: np.random.Generator, backend: str, exhaustive: int = 20) -> _Trials:
    """``trials`` samples of m uniform examples labelled by a uniform parity S, fitted by kernels.algebra.gf2."""
    rows = random_packed(rng, (trials, m), d)
    S = random_packed(rng, (trials,), d)
    labels = parity_labels_packed(rows, S)  # (trials, m)
    aug = _augment(rows, labels, d)
    fit = learn_parity_packed(aug, d, backend=backend)
    recovered = np.all(fit.solution == S, axis=1)
    unique_ok = bool(np.all(recovered[fit.rank == d]))
    # the fact "a wrong parity errs on exactly half of the cube", checked exhaustively on a few trials
    checked = halves = 0
    if d <= 12:
        cube = np.arange(1 << d, dtype=np.int64)
        for t in np.flatnonzero(~recovered)[:exhaustive]:
            T = fit.subset(int(t))
            s_true = int(S[t, 0])
            chi_T = np.bitwise_count(cube & T) & 1
            chi_S = np.bitwise_count(cube & s_true) & 1
            checked += 1
            halves += int(np.count_nonzero(chi_T != chi_S) * 2 == (1 << d))
    return _Trials(d, m, trials, fit.rank, recovered, fit.consistent, unique_ok, (checked, halves))


# ---------------------------------------------------------------------------------------------
# the sample-size claim
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SampleStatement:
    """With m = samples(d, delta) uniform examples, Pr[S recovered exactly] >= success(d, delta)."""

    samples: Callable[[int, Fraction], int]
    success: Callable[[int, Fraction], Fraction]
    text: str


_SAMPLES_PRINTED = SampleStatement(samples_for, lambda d, delta: 1 - delta,
                                   "m = d + ceil(log2(1/delta)) = O(d) examples recover S w.p. >= 1 - delta")


def _parse_list(text: str, kind=int) -> list:
    return [kind(v) for v in str(text).split(",") if v.strip()]


@claim(
    id="seed003.gaussian_elimination.samples",
    source=SOURCE,
    label="Introduction (parity learning by row reduction, sample size)",
    entry="P1",
    title="Row reduction recovers a parity from m = d + ceil(log2(1/delta)) = O(d) uniform examples w.p. >= 1 - delta",
    lines=[(27, 27), (29, 29)],
    printed=_SAMPLES_PRINTED,
    mutants=[
        Mutant("m=d-success-1/2", "m = d examples recover S with probability >= 1/2 (the limit is 0.2888)",
               SampleStatement(lambda d, delta: d, lambda d, delta: Fraction(1, 2), "m = d, success >= 1/2")),
        Mutant("m=d/2", "m = ceil(d/2) + ceil(log2(1/delta)) examples suffice w.p. >= 1 - delta",
               SampleStatement(lambda d, delta: -(-d // 2) + samples_for(0, delta), lambda d, delta: 1 - delta,
                               "m = d/2 + log2(1/delta)")),
        Mutant("one-sample-short", "m = d + ceil(log2(1/delta)) - 1 examples suffice w.p. >= 1 - delta",
               SampleStatement(lambda d, delta: samples_for(d, delta) - 1, lambda d, delta: 1 - delta,
                               "m = d + log2(1/delta) - 1")),
        Mutant("success-near", "success >= 1 - 0.99 delta (sharpness 1.0 to 5 digits at delta = 2^-10, d = 45, m = 55; rejected by the exact search)",
               SampleStatement(samples_for, lambda d, delta: 1 - Fraction(99, 100) * delta, "success >= 1 - 0.99 delta"),
               near_boundary=True, part="recovery", origin="second-reader"),
    ],
    parts=[
        Part("recovery", "m = d + ceil(log2(1/delta)) uniform examples determine S (the learner outputs it) w.p. >= 1 - delta",
             inequality=True),
        Part("O(d)", "row reduction finds S using only O(d) examples (m <= (1 + log2(1/delta)) d)"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.STATISTICAL,
    params=[
        Param("dims", str, doc="comma-separated d for the sample-size check (exact and Monte Carlo)"),
        Param("log2_inv_delta", str, doc="comma-separated j: delta = 2^-j"),
        Param("trials", int, 100, 1_000_000, doc="Monte Carlo trials per (d, m)"),
        Param("exact_d_max", int, 1, 4096, doc="the exact inequality is also checked for every d up to this"),
        Param("rank_cases", str, doc="comma-separated d:m pairs whose full rank distribution is compared"),
        Param("alpha", float, 1e-12, 0.1, doc="family-wise level of all Clopper-Pearson intervals (Bonferroni)"),
    ],
    tiers={
        "quick": {"dims": "1,2,5,10,20,32", "log2_inv_delta": "1,3,6,10", "trials": 3000, "exact_d_max": 200,
                  "rank_cases": "5:5,8:4,8:12,16:16", "alpha": 1e-3},
        "full": {"dims": "1,2,5,10,20,32,64,128", "log2_inv_delta": "1,2,3,6,10", "trials": 20000,
                 "exact_d_max": 1024, "rank_cases": "5:5,5:7,8:4,8:8,8:12,10:10,10:12,16:16,20:22,32:34", "alpha": 1e-3},
        "gpu": {"dims": "1,2,5,10,20,32,64,128,256", "trials": 200000},
    },
    uses_backend=True,
)
def check_samples(statement: SampleStatement, p, ctx) -> Verdict:
    """Row reduction learns a parity from O(d) examples: exact success probability and Monte Carlo.

    Statement
    ---------
    "row reduction (i.e. Gaussian elimination) can be used to find S using only O(d) examples"; "The
    parity learning algorithm is efficient, like row reduction, requiring O(d) examples".  Concrete
    form checked: for x uniform on {-1,1}^d and y = chi_S(x), m = d + ceil(log2(1/delta)) examples
    determine S uniquely (and the learner outputs it) with probability >= 1 - delta, for every d and
    every delta; m / d -> 1, so m = O(d) for every fixed delta.

    Hypotheses
    ----------
    x uniform (the introduction's setting: "even over uniformly random x").  Under an arbitrary
    distribution the sample size of a consistent learner is O((d + log(1/delta))/epsilon) (Occam; claim
    seed003.definition_4); exact recovery of S can then be impossible.

    Source
    ------
    Seed 003, Introduction (parity learning by row reduction), lines 27 and 29.  The intro's labels are
    {0,1} bits ("1 if x has an odd number of 1's in S"); Section 2 uses {-1,1} and chi_S.  The map
    b_i = (1 - x_i)/2, c = (1 - y)/2 turns y = chi_S(x) into c = XOR_{i in S} b_i.

    Checkable form
    --------------
    (a) Exact: Pr[rank = d] = prod_{j<d} (1 - 2^{j-m}) >= success(d, delta) at m = samples(d, delta)
    for every d <= exact_d_max and every delta in the grid (Fractions); and m <= (1 + log2(1/delta)) d.
    (b) Monte Carlo, for each d in ``dims`` and delta in the grid: ``trials`` samples with a uniform S
    fitted by the GF(2) learner (kernels.algebra.gf2); the Clopper-Pearson interval of the full-rank frequency
    must contain the exact probability (the formula against the learner: independent routes), and its
    upper end must reach success(d, delta) (the data cannot reject the statement).  Every rank-d trial
    must return exactly S.  (c) For each pair in ``rank_cases``: the exact rank distribution sums to 1,
    agrees with the product formula at r = d, and each Pr[rank = r] lies in the Clopper-Pearson
    interval of its frequency; E[err] of the learner (free variables set to 0) equals
    (1/2) sum_r Pr[rank = r](1 - 2^{r-d}) within its interval, the fact "a wrong parity errs on exactly
    half of the cube" being checked exhaustively on up to 20 wrong outputs per case for d <= 12.
    Details: the smallest m with Pr >= 1 - delta (exact) against the printed rule, and the exact
    learning curve E[err](m/d); plots of both.

    Exactness
    ---------
    (a) exact (Fractions).  (b), (c) statistical: seeded draws (ctx.rng), Clopper-Pearson intervals
    at family-wise level ``alpha`` (Bonferroni over all intervals of the run), so a correct statement
    fails with probability < alpha; the runs are deterministic given the seeds.

    Mutants
    -------
    m = d with success >= 1/2: exact Pr = 0.2888 at large d (0.5 at d = 1, 0.375 at d = 2), rejected by (a)
    from d = 2 on, and by (b)'s upper confidence end.  m = d/2 + log2(1/delta): rank <= m < d once
    d > 2 log2(1/delta) (Pr = 0).  One sample short: Pr < 1 - delta for every d >= 2 (at d = 1 it is
    exactly 1 - delta).  Second reader, "success-near": at m = d + k, Pr[rank = d] = prod_{i=k+1}^{k+d}(1 - 2^{-i})
    >= 1 - sum_{i>k} 2^{-i} = 1 - delta, and it decreases in d to 1 - delta + O(delta^2) (about
    delta^2/3 above); so 1 - 0.99 delta > Pr once delta < 0.03 and d is large: the exact search finds
    delta = 2^-10, d = 45 (ratio (1 - delta)/Pr = 1.0 to 5 digits); rejected, the old checker too.

    Notes
    -----
    Second reader: confirmed.  The printed claim is only "O(d) examples"; the concrete rule
    m = d + ceil(log2(1/delta)) is this suite's reading, both parts asserted.  Sharpness search:
    exhaustive exact search over d = 1..exact_d_max for every delta of the grid (the tightest d is
    recorded); the product prod_{j<d}(1 - 2^{j-m}) decreases in d towards its limit, so the tight case
    is the largest d.
    """
    dims = _parse_list(p["dims"])
    js = _parse_list(p["log2_inv_delta"])
    rank_cases = [tuple(int(v) for v in item.split(":")) for item in str(p["rank_cases"]).split(",") if item.strip()]
    n_intervals = len(dims) * len(js) + sum(min(d, m) + 2 for d, m in rank_cases)
    a_case = p["alpha"] / n_intervals
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    # (a) exact, every d up to exact_d_max
    for j in js:
        delta = Fraction(1, 2**j)
        worst = None
        for d in range(1, p["exact_d_max"] + 1):
            m = statement.samples(d, delta)
            ok, pr = full_rank_at_least(d, m, statement.success(d, delta))
            margin = float(pr) - float(statement.success(d, delta))
            if worst is None or not ok or margin < worst[0]:
                worst = (margin, d, m, pr)
            if not ok:
                break
        margin, d, m, pr = worst
        ev.add({"part": "(a) exact Pr[rank = d] >= claimed (tightest d)", "delta": delta, "d": d, "m": m,
                "d range": f"1..{p['exact_d_max']}"}, pr if isinstance(pr, Fraction) and d <= 64 else float(pr),
               statement.success(d, delta) if d <= 64 else float(statement.success(d, delta)), part="recovery")
        ratio = max(Fraction(statement.samples(d, delta), d) for d in range(1, p["exact_d_max"] + 1))
        ev.add({"part": "(a) m <= (1 + log2(1/delta)) d for every d (O(d) examples)", "delta": delta,
                "d_max": p["exact_d_max"], "max m/d": ratio}, ratio <= 1 + j, relation="true")
    # (b) Monte Carlo at m = samples(d, delta)
    table = {}
    for d in dims:
        for j in js:
            delta = Fraction(1, 2**j)
            m = statement.samples(d, delta)
            tr = _cached_trials(d, m, p["trials"], ctx, f"samples/{d}/{m}")
            k = int(np.count_nonzero(tr.rank == d))
            lo, hi = clopper_pearson(k, tr.trials, a_case)
            exact = full_rank_probability(d, m)
            case = {"d": d, "m": m, "delta": delta, "trials": tr.trials, "full rank": k, "CI": f"[{lo:.4f}, {hi:.4f}]"}
            ev.add(dict(case, part="(b) upper confidence end >= claimed"), hi >= float(statement.success(d, delta)),
                   relation="true")
            ev.add(dict(case, part="(b) exact Pr in the interval"), lo <= float(exact) <= hi, relation="true")
            ev.add(dict(case, part="(b) rank d => output S; realisable => consistent"),
                   tr.unique_ok and bool(np.all(tr.consistent)), relation="true")
            table[f"d={d}, m={m}"] = {"delta": str(delta), "frequency": round(k / tr.trials, 4), "exact": round(float(exact), 4),
                                      "claimed": round(float(statement.success(d, delta)), 4)}
    ev.details["(b) full-rank frequency at m = samples(d, delta)"] = table
    # (c) full rank distribution and E[err]
    dist_table = {}
    for d, m in rank_cases:
        dist = rank_distribution(d, m)
        ev.add({"part": "(c) rank distribution sums to 1", "d": d, "m": m}, sum(dist), 1, relation="eq")
        if m >= d:
            ev.add({"part": "(c) Pr[rank = d] two formulas", "d": d, "m": m}, dist[d], full_rank_probability(d, m), relation="eq")
        tr = _cached_trials(d, m, p["trials"], ctx, f"rank/{d}/{m}")
        counts = np.bincount(tr.rank, minlength=len(dist))
        row = {}
        for r, pr in enumerate(dist):
            lo, hi = clopper_pearson(int(counts[r]), tr.trials, a_case)
            ev.add({"part": "(c) Pr[rank = r] in the interval", "d": d, "m": m, "r": r, "count": int(counts[r]),
                    "exact": float(pr), "CI": f"[{lo:.4f}, {hi:.4f}]"}, lo <= float(pr) <= hi, relation="true")
            row[str(r)] = f"{counts[r] / tr.trials:.4f} (exact {float(pr):.4f})"
        wrong = int(np.count_nonzero(~tr.recovered))
        lo, hi = clopper_pearson(wrong, tr.trials, a_case)
        e_exact = expected_error(d, m)
        ev.add({"part": "(c) E[err] = (1/2) Pr[output != S] in the interval", "d": d, "m": m,
                "mean err": wrong / (2 * tr.trials), "exact": float(e_exact), "CI/2": f"[{lo / 2:.4f}, {hi / 2:.4f}]"},
               lo <= float(2 * e_exact) <= hi, relation="true")
        checked, halves = tr.exhaustive_half
        if checked:
            ev.add({"part": "(c) wrong parity errs on exactly half the cube (exhaustive)", "d": d, "m": m, "checked": checked},
                   halves == checked, relation="true")
        dist_table[f"d={d}, m={m}"] = dict(row, **{"E[err]": f"{wrong / (2 * tr.trials):.4f} (exact {float(e_exact):.4f})"})
    ev.details["(c) rank distribution: frequency (exact)"] = dist_table
    # details and plots: samples needed, learning curve
    d_plot = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]
    needed = {j: [minimal_samples(d, Fraction(1, 2**j)) for d in d_plot] for j in (1, 6, 10)}
    ev.details["smallest m with Pr[rank = d] >= 1 - delta (exact) vs d + log2(1/delta)"] = {
        f"delta=2^-{j}": {str(d): f"{mm} vs {d + j}" for d, mm in zip(d_plot, needed[j])} for j in needed}
    ev.details["limit of Pr[rank = d] at m = d: prod_{i>=1}(1 - 2^-i)"] = round(float(full_rank_probability(200, 200)), 6)
    ev.plots.append({
        "title": "Samples needed for exact recovery w.p. >= 1 - delta (uniform x)",
        "xlabel": "d", "ylabel": "m - d", "logx": True,
        "series": [{"label": f"exact minimum, delta = 2^-{j}", "x": d_plot, "y": [mm - d for d, mm in zip(d_plot, needed[j])]}
                   for j in needed]
                  + [{"label": f"printed rule d + log2(1/delta), delta = 2^-{j}", "x": d_plot, "y": [j] * len(d_plot), "style": "--"}
                     for j in needed],
    })
    ratios = [Fraction(i, 8) for i in range(4, 13)]
    curve = {d: [float(expected_error(d, max(0, int(r * d)))) for r in ratios] for d in (8, 24, 64)}
    ev.plots.append({
        "title": "Learning curve of the row-reduction parity learner (exact E[err], S uniform)",
        "xlabel": "m / d", "ylabel": "E[err]",
        "series": [{"label": f"d = {d}", "x": [float(r) for r in ratios], "y": ys} for d, ys in curve.items()],
    })
    return ev.verdict(backend=ctx.backend)


# ---------------------------------------------------------------------------------------------
# the runtime claim
# ---------------------------------------------------------------------------------------------

_D = sp.Symbol("d", positive=True, integer=True)
_C = sp.Symbol("c", nonnegative=True, integer=True)


def _family_counts_symbolic(k: int) -> dict[str, sp.Expr]:
    """Exact costs of the triangular family (rows i < d: ones in columns 0..i; k all-ones rows; label 0),
    by symbolic summation over the pivot columns c: (d - 1 - c + k) additions at column c, each over
    d + 1 - c bits."""
    adds = _D - 1 - _C + k
    return {
        "row": sp.expand(sp.summation(adds, (_C, 0, _D - 1))),
        "bit": sp.expand(sp.summation(adds * (_D + 1 - _C), (_C, 0, _D - 1))),
    }


def _family_word_count(d: int, k: int) -> int:
    W = words_for(d + 1)
    return sum((d - 1 - c + k) * (W - c // 64) for c in range(d))


def _family_matrix(d: int, k: int) -> np.ndarray:
    bits = np.zeros((d + k, d + 1), dtype=np.uint8)
    for i in range(d):
        bits[i, : i + 1] = 1
    bits[d:, :d] = 1
    return pack_bits(bits)[None]


def _upper_bounds(k: int) -> dict[str, sp.Expr]:
    """Per-instance upper bounds at m = d + k, from the algorithm's structure: each pivot column c
    causes at most m - 1 additions over n - c = d + 1 - c bits (W - c // 64 <= (d + 1)/64 + 1 words),
    plus one swap."""
    m = _D + k
    return {
        "row": sp.expand(_D * m),
        "bit": sp.expand((m - 1) * sp.summation(_D + 1 - _C, (_C, 0, _D - 1))),
        "word64": sp.expand((m - 1) * _D * ((_D + 1) / 64 + 1)),
    }


def _lower_bounds(k: int) -> dict[str, sp.Expr]:
    fam = _family_counts_symbolic(k)
    # word XORs: W - c // 64 >= (d + 1 - c)/64 since 64 W >= d + 1 and 64 (c // 64) <= c
    return {"row": fam["row"], "bit": fam["bit"], "word64": sp.expand(fam["bit"] / 64)}


@dataclass(frozen=True)
class RuntimeStatement:
    """Each (cost model, a): the worst-case cost of row reduction on m = d + k examples is O(d^a).

    Cost models: "row" = row operations (additions + swaps), "bit" = bit operations (GF(2) field
    operations), "word64" = 64-bit word operations."""

    bounds: tuple[tuple[str, int], ...]
    text: str


_RUNTIME_PRINTED = RuntimeStatement((("bit", 2),), "O(d^2) runtime, read as bit (GF(2) field) operations")
_RUNTIME_CORRECTED = RuntimeStatement((("row", 2), ("bit", 3), ("word64", 3)),
                                      "O(d^2) row operations = O(d^3) bit operations = O(d^3) 64-bit word operations")


@lru_cache(maxsize=4)
def _runtime_forms(k: int) -> dict:
    """check_runtime's sympy work for m = d + k, once per k (statement-independent): per model the degrees in d
    of the lower and upper bounds and their factored texts; the closed forms of the details."""
    lower, upper = _lower_bounds(k), _upper_bounds(k)
    degrees = {mdl: (sp.Poly(lower[mdl], _D).degree(), sp.Poly(upper[mdl], _D).degree(),
                     str(sp.factor(lower[mdl])), str(sp.factor(upper[mdl]))) for mdl in lower}
    closed = tuple((f"{kind} {mdl}", str(sp.factor(expr))) for kind, dct in (("lower", lower), ("upper", upper))
                   for mdl, expr in dct.items())
    return {"degrees": degrees, "closed": closed}


@lru_cache(maxsize=4)
def _runtime_family(family_dims: str, k: int, backend: str) -> tuple:
    """check_runtime (1)'s statement-independent part: per d, the kernel's exact counts on the triangular
    family and the sympy closed forms (row, bit) at d, as (d, ((model, count), ...), ((model, closed), ...))."""
    fam_sym = _family_counts_symbolic(k)
    out = []
    for d in _parse_list(family_dims):
        el = gf2_eliminate_packed(_family_matrix(d, k), d + 1, pivot_cols=d, backend=backend)
        got = (("row", int(el.row_ops[0])), ("bit", int(el.bit_ops[0])), ("word64", int(el.word_ops[0])))
        closed = tuple((mdl, int(fam_sym[mdl].subs(_D, d))) for mdl in ("row", "bit"))
        out.append((d, got, closed))
    return tuple(out)


@lru_cache(maxsize=4)
def _runtime_random(claim_id: str, random_dims: str, instances: int, k: int, backend: str) -> tuple:
    """check_runtime (2)/(4)'s statement-independent part: per d in random_dims, the uniform instances of the
    claim's "runtime/{d}" stream eliminated once: (d, instances, mean counts, largest counts, structural upper
    bounds), each a tuple of (model, value)."""
    upper = _upper_bounds(k)
    ctx = Context(claim_id)
    out = []
    for d in _parse_list(random_dims):
        T = max(2, instances * 256 // d) if d > 256 else instances
        m = d + k
        rows = random_packed(ctx.rng(f"runtime/{d}"), (T, m), d + 1)
        el = gf2_eliminate_packed(rows, d + 1, pivot_cols=d, backend=backend)
        got = {"row": el.row_ops, "bit": el.bit_ops, "word64": el.word_ops}
        mean = tuple((mdl, float(np.mean(got[mdl]))) for mdl in ("row", "bit", "word64"))
        maxima = tuple((mdl, int(np.max(got[mdl]))) for mdl in ("row", "bit", "word64"))
        bounds = tuple((mdl, int(upper[mdl].subs(_D, d)) if mdl != "word64" else (m - 1) * d * words_for(d + 1))
                       for mdl in ("row", "bit", "word64"))
        out.append((d, T, mean, maxima, bounds))
    return tuple(out)


def _runtime_hypotheses(case: dict) -> list[str]:
    """The claim's setting: m = d + k examples with k = ceil(log2(1/delta)) >= 0 fixed (O(d) examples)."""
    k = case.get("k")
    return [] if k is not None and int(k) >= 0 else ["m = d + k, k = ceil(log2(1/delta)) >= 0 (O(d) examples)"]


@claim(
    id="seed003.gaussian_elimination.runtime",
    source=SOURCE,
    label="Introduction (parity learning by row reduction, runtime)",
    entry="P1",
    title="Row reduction runs in O(d^2) row operations but Theta(d^3) bit operations (printed: O(d^2) runtime)",
    lines=[(27, 27), (29, 29)],
    printed=_RUNTIME_PRINTED,
    corrected=_RUNTIME_CORRECTED,
    mutants=[
        Mutant("row-ops-O(d)", "row reduction uses O(d) row operations", RuntimeStatement((("row", 1),), "O(d) row operations")),
        Mutant("word64-O(d^2)", "O(d^2) on a word-RAM with 64-bit words (true only with d-bit words)",
               RuntimeStatement((("row", 2), ("word64", 2)), "O(d^2) 64-bit word operations")),
        Mutant("row-ops-O(d^1.9)", "O(d^1.9) row operations (exponent 5% below the tight 2)",
               RuntimeStatement((("row", 1.9),), "O(d^1.9) row operations"), near_boundary=True, part="runtime",
               origin="second-reader"),
        Mutant("bit-O(d^2.9)", "O(d^2.9) bit operations", RuntimeStatement((("bit", 2.9),), "O(d^2.9) bit operations"),
               part="runtime", origin="second-reader"),
    ],
    parts=[
        Part("runtime", "row reduction finds S in O(d^2) runtime (on m = d + ceil(log2(1/delta)) = O(d) examples)",
             inequality=True),
    ],
    severity=Severity.CONSTANT,
    affects=(),
    hypotheses=_runtime_hypotheses,
    expect=Status.ERRATUM,
    rigor=Rigor.EXACT,
    params=[
        Param("family_dims", str, doc="comma-separated d for the exact worst-case family"),
        Param("random_dims", str, doc="comma-separated d for random instances (exponent fit over the upper half)"),
        Param("instances", int, 2, 100_000, doc="random instances per d (fewer above d = 256: instances * 256 / d)"),
        Param("extra", int, 0, 64, doc="k = ceil(log2(1/delta)): m = d + k examples"),
    ],
    tiers={
        "quick": {"family_dims": "1,2,3,8,16,63,64,65,128,256", "random_dims": "16,32,64,128,256", "instances": 40, "extra": 10},
        "full": {"family_dims": "1,2,3,8,16,63,64,65,128,256,512,1024,2048",
                 "random_dims": "16,32,64,128,256,512,1024", "instances": 200, "extra": 10},
    },
    uses_backend=True,
)
def check_runtime(statement: RuntimeStatement, p, ctx) -> Verdict:
    """Row reduction's cost: O(d^2) row operations, Theta(d^3) bit operations.

    Statement
    ---------
    "row reduction (i.e. Gaussian elimination) can be used to find S using only O(d) examples and
    O(d^2) runtime"; "The parity learning algorithm is efficient, like row reduction, requiring O(d)
    examples and O(d^2) runtime".  Reading checked as printed: runtime = elementary operations, i.e.
    bit operations (field operations over GF(2)); this is also the cost model of the paper, which
    measures runtime in Turing-machine steps (Section 2.1, Definition 3), where a step touches one
    tape cell.  Corrected: O(d^2) *row* operations (the count behind the printed bound; equivalently
    word operations on a word-RAM with d-bit words), which is Theta(d^3) bit operations and Theta(d^3)
    operations on 64-bit words.

    Hypotheses
    ----------
    m = d + k examples with k = ceil(log2(1/delta)) fixed (the O(d) examples of the claim).  Worst case
    over the input, as "runtime" means; the average over uniform inputs is reported and fitted too.

    Source
    ------
    Seed 003, Introduction (parity learning by row reduction), lines 27 and 29.

    Checkable form
    --------------
    For each (model, a) of the statement, at m = d + k: (1) the lower-bound family (rows i < d with
    ones in columns 0..i, k all-ones rows): the kernel's exact counts (kernels.algebra.gf2) equal the closed
    forms obtained by sympy summation over the pivot columns (row, bit) and are >= (bit count)/64 (word64),
    for every d in ``family_dims``; (2) on ``instances`` uniform random instances per d in
    ``random_dims``, every count is <= the structural upper bound (row: d m; bit: (m - 1) sum_{c<d}
    (d + 1 - c); word64: (m - 1) d ((d + 1)/64 + 1)); (3) the polynomial degree in d of the lower
    bound (the family) and of the upper bound must be <= a: a lower bound of degree > a refutes
    O(d^a) (its ratio to d^a is unbounded), upper and lower degrees <= a prove it; (4) the log-log
    slope of the mean random-instance count over the upper half of ``random_dims`` must be <= a + 0.25.
    Details: counts per d, exact family values, fitted exponents; plot of the counts against d.

    Exactness
    ---------
    (1)-(3) exact: integer counts, sympy polynomials, exact degree.  (4) a least-squares slope of exact
    counts; tolerance 0.25: the mean counts are polynomials in d whose local slope on d >= 64 is within
    0.1 of their degree (row ~ d^2/2, bit ~ d^3/4), while the exponents at stake differ by 1.

    Mutants
    -------
    O(d) row operations: the family needs d(d-1)/2 + k d (degree 2).  O(d^2) 64-bit word operations:
    the family needs >= (bit count)/64, degree 3 (it holds only with d-bit words, i.e. row operations).
    Second reader: O(d^1.9) row operations (near boundary: the degree-ratio sharpness is 1.0, the
    family's d(d-1)/2 + k d row operations have degree 2 > 1.9) and O(d^2.9) bit operations (the family's
    bit count has degree 3); both exact, both rejected by the old checker too.

    Correction
    ----------
    O(d^2) row operations (word operations with d-bit words), i.e. Theta(d^3) bit operations and
    Theta(d^3) 64-bit word operations in the worst case.  Severity constant (the exponent).

    Notes
    -----
    Second-reader judgement: erratum (constant), kept.  The witness (degree 3 of the triangular
    family's bit count) meets the claim's setting (m = d + k, k = 10 fixed).  Row reduction itself
    (not some other algorithm) is what the sentence names, so the lower-bound family refutes it in the
    bit / Turing-step cost model of the paper (Definition 3); no O(d^2) bit-operation algorithm for
    solving a d x d GF(2) system is known either (that would be linear in the input size).  Sharpness
    (corrected): degree / a = 1.0 for every model (the bounds are tight in the exponent); the
    log-log slopes of the random means are recorded in details.
    """
    k = p["extra"]
    forms = _runtime_forms(k)
    ev = Evidence("le", rigor=Rigor.EXACT)
    models = [mdl for mdl, _ in statement.bounds]
    family_rows = {}
    for d, got, closed in _runtime_family(p["family_dims"], k, ctx.backend):
        got = dict(got)
        for mdl in models:
            if mdl == "word64":
                ev.add({"part": "(1) family word count = sum formula >= bit count / 64", "d": d, "k": k},
                       got["word64"] == _family_word_count(d, k) and 64 * got["word64"] >= got["bit"], relation="true")
            else:
                ev.add({"part": f"(1) family {mdl} count = sympy closed form", "d": d, "k": k},
                       got[mdl], dict(closed)[mdl], relation="eq")
        family_rows[str(d)] = got
    ev.details["(1) triangular family: exact counts"] = family_rows
    for mdl, a in statement.bounds:
        deg_lo, deg_hi, lo_text, hi_text = forms["degrees"][mdl]
        ev.add({"part": "(3) degree in d of the lower-bound family", "model": mdl, "k": k, "bound": lo_text},
               deg_lo, a, part="runtime")
        ev.add({"part": "(3) degree in d of the structural upper bound", "model": mdl, "k": k,
                "bound": hi_text}, deg_hi, a, part="runtime")
    # (2) and (4): random instances
    dims = _parse_list(p["random_dims"])
    means = {"row": [], "bit": [], "word64": []}
    for d, T, mean, maxima, bounds in _runtime_random(ctx.claim_id, p["random_dims"], p["instances"], k, ctx.backend):
        for mdl, values in means.items():
            values.append(dict(mean)[mdl])
        for mdl in models:
            ev.add({"part": "(2) every random instance <= structural upper bound", "model": mdl, "d": d, "instances": T},
                   dict(maxima)[mdl], dict(bounds)[mdl])
    half = dims[len(dims) // 2:]
    slopes = {}
    for mdl in means:
        y = means[mdl][len(dims) // 2:]
        slopes[mdl] = float(np.polyfit(np.log(half), np.log(y), 1)[0])
    for mdl, a in statement.bounds:
        ev.add({"part": "(4) fitted exponent of the mean random-instance count", "model": mdl, "d": f"{half[0]}..{half[-1]}"},
               slopes[mdl], a + 0.25)
    ev.details["(4) fitted exponents (random instances)"] = {mdl: round(s, 4) for mdl, s in slopes.items()}
    ev.details["(2) mean counts on random instances"] = {
        str(d): {mdl: round(means[mdl][i], 1) for mdl in means} for i, d in enumerate(dims)}
    ev.details["closed forms at m = d + k"] = dict(forms["closed"])
    ev.plots.append({
        "title": f"Cost of row reduction on m = d + {k} uniform examples (mean over instances)",
        "xlabel": "d", "ylabel": "operations", "logx": True, "logy": True,
        "series": [
            {"label": "row operations", "x": dims, "y": means["row"]},
            {"label": "bit operations", "x": dims, "y": means["bit"]},
            {"label": "64-bit word operations", "x": dims, "y": means["word64"]},
            {"label": "d^2 / 2", "x": dims, "y": [d * d / 2 for d in dims], "style": "--"},
            {"label": "d^3 / 4", "x": dims, "y": [d**3 / 4 for d in dims], "style": ":"},
        ],
    })
    return ev.verdict(backend=ctx.backend)
