"""Over-sparse initialisation (App. C.2.2): Lemmas C.2-C.4, C.6 (readout) and the rho bounds of O'Donnell
Thm 5.22; Lemma C.10, Theorem 6.4 / C.11 (width requirement) and the exact-sparsity remark are in
verify.pareto_sq.oversparse_width.

Independent routes: closed forms of kernels.boolean.oversparse (O'Donnell's formula for Maj_N^(t)) against the
exhaustive cube sums of kernels.boolean.oversparse.correlation_vector (every point of {±1}^n), the exact
Krawtchouk spectrum of majority (kernels.boolean.symmetric) and exhaustive subset enumeration.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

from kernels.boolean.oversparse import (
    C_ks,
    c_ks,
    correlation_vector,
    maj_hat,
    p_good_oversparse,
    parity_readout,
    rho,
)
from kernels.boolean.symmetric import symmetric_spectrum

from ..registry import Evidence, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True


@functools.lru_cache(maxsize=None)
def majority_spectrum_ties_minus(N: int) -> tuple[Fraction, ...]:
    """Exact spectrum of Maj_N with sign(0) = -1 through the Krawtchouk route (kernels.boolean.symmetric);
    cached (a pure function of N; a tuple, so the shared value cannot be changed)."""
    return tuple(symmetric_spectrum([1 if N - 2 * j > 0 else -1 for j in range(N + 1)]))


@functools.lru_cache(maxsize=None)
def _exact_ks(fn: Callable, k: int, s: int):
    """fn(k, s) for the exact closed forms of a statement (C_ks, c_ks: pure functions), computed once per
    process: the printed statement and the mutants evaluate the same (k, s) grid."""
    return fn(k, s)


@functools.lru_cache(maxsize=256)
def _correlation_cached(w_bytes: bytes, S: tuple, backend: str):
    """correlation_vector(w, S) of a 0/1 float64 weight vector given by its bytes (statement-independent:
    shared by the printed statement and the mutants)."""
    return correlation_vector(np.frombuffer(w_bytes, dtype=np.float64).copy(), list(S), backend=backend)


# ---------------------------------------------------------------------------------------------
# E7. Lemma C.2
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GoodProbabilityBound:
    """P[S inside supp w] >= lower(n, k, s) for all s with s_min(k) <= s <= n."""

    base: Fraction = Fraction(2)  # the 2 in (s/2n)^k
    s_min_coef: int = 4  # the hypothesis 4k < s: s >= s_min_coef k + s_min_const
    power_shift: int = 0  # exponent k + power_shift
    s_min_const: int = 1

    def lower(self, n: int, k: int, s: int) -> Fraction:
        return (Fraction(s) / (self.base * n)) ** (k + self.power_shift)

    def s_min(self, k: int) -> int:
        return self.s_min_coef * k + self.s_min_const


_PRINTED_C2 = GoodProbabilityBound()


@functools.lru_cache(maxsize=None)
def _p_good(n: int, k: int, s: int) -> Fraction:
    """p_good_oversparse(n, k, s), cached (an exact Fraction, immutable): the printed statement and the mutants of
    Lemma C.2 scan the same (n, k, s) grid."""
    return p_good_oversparse(n, k, s)


@functools.lru_cache(maxsize=4)
def _good_enumerated(n_enum: int) -> tuple:
    """(n, k, s, the fraction of s-subsets of [n] containing [k] by enumeration, p_good_oversparse(n, k, s)) for
    n = 2..n_enum, k in (1, 2, 3), s = k, k + 3, ... <= n: statement-independent, computed once per process for
    the printed statement and the mutants of Lemma C.2."""
    out = []
    for n in range(2, n_enum + 1):
        for k in (1, 2, 3):
            for s in range(max(k, 1), n + 1, 3):
                good = sum(1 for w in itertools.combinations(range(n), s) if set(range(k)) <= set(w))
                out.append((n, k, s, Fraction(good, comb(n, s)), p_good_oversparse(n, k, s)))
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def _p_good_floats(n: int, k: int, s_lo: int) -> np.ndarray:
    """float(p_good(n, k, s)) for s = s_lo..n (correctly rounded; read-only): the float prefilter of the scan of
    Lemma C.2, shared by the statements with the same hypothesis s >= s_lo."""
    out = np.array([comb(n - k, s - k) / comb(n, s) for s in range(s_lo, n + 1)], dtype=np.float64)
    out.setflags(write=False)
    return out


_RATIO_PREFILTER = 1e-9  # relative slack of the float prefilter (its own rounding error is ~1e-15)


def _ratio_candidates(statement: GoodProbabilityBound, n: int, k: int) -> range | list[int]:
    """The s (ascending) among which the exact minimum of p_good / lower over s_min(k) <= s <= n lies.

    The scan compares exact Fractions (slow); in float64 the ratios are accurate to ~1e-15 relative, so every s
    whose exact ratio is minimal has a float ratio within a factor 1 + 1e-9 of the float minimum: only those
    are compared exactly, in increasing s, so the first exact minimiser (and every reported number) is the one
    of the plain scan over all s.  Statements other than GoodProbabilityBound itself keep the plain scan."""
    s_lo = statement.s_min(k)
    if type(statement) is not GoodProbabilityBound or s_lo < max(k, 1) or s_lo > n:
        return range(s_lo, n + 1)
    s_arr = np.arange(s_lo, n + 1, dtype=np.float64)
    with np.errstate(all="ignore"):
        f = _p_good_floats(n, k, s_lo) / (s_arr / (float(statement.base) * n)) ** (k + statement.power_shift)
    if not np.all(np.isfinite(f) & (f > 0)):
        return range(s_lo, n + 1)
    keep = np.flatnonzero(f <= f.min() * (1 + _RATIO_PREFILTER))
    return [s_lo + int(i) for i in keep]


@claim(
    id="thesis_ch6.lemma_C.2",
    source=SOURCE,
    label="Lemma C.2",
    entry="E7",
    title="A random s-sparse neuron is good with probability C(n-k,s-k)/C(n,s) >= (s/2n)^k",
    lines=[(4119, 4129)],
    printed=_PRINTED_C2,
    mutants=[
        Mutant("no-factor-2", "(s/n)^k instead of (s/2n)^k", GoodProbabilityBound(base=Fraction(1))),
        Mutant("hypothesis-dropped", "drop 4k < s (any s >= k)", GoodProbabilityBound(s_min_coef=1, s_min_const=0)),
        Mutant("near-base-0.99", "(s/(0.99 n))^k: the bound x 2.02 at k = 1, beyond the exact sharpness 0.5 (k = 1: p = s/n "
               "= 2 (s/2n) for every s); rejected at k = 1 (s/n < s/(0.99 n))",
               GoodProbabilityBound(base=Fraction(99, 100)), near_boundary=True, part="bound", origin="second-reader"),
        Mutant("exponent-k-1", "(s/2n)^{k-1} (one factor fewer)", GoodProbabilityBound(power_shift=-1), origin="second-reader"),
    ],
    parts=[Part("bound", "4k < s <= n => P[w good] >= (s/2n)^k", inequality=True),
           Part("closed-form", "P[w good] = C(n-k, s-k)/C(n, s) (the proof's count)")],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[Param("n_max", int, 2, 400, doc="all n <= n_max"), Param("k_max", int, 1, 16, doc="all k <= k_max"),
            Param("n_enum", int, 2, 18, doc="exhaustive subset enumeration for n <= n_enum")],
    tiers={"quick": {"n_max": 60, "k_max": 12, "n_enum": 12}, "full": {"n_max": 120, "k_max": 14, "n_enum": 14}},
)
def check_good_probability(statement: GoodProbabilityBound, p, ctx) -> Verdict:
    """Lemma C.2: probability of a good over-sparse neuron.

    Statement
    ---------
    Fix 4k < s <= n, w uniform over the s-subsets of [n] (value 1 there, 0 elsewhere), S a k-subset.
    Then P[S inside supp(w)] >= (s/2n)^k.

    Source
    ------
    Thesis (seed 004), App. C.2.2, Lemma C.2 and its proof, lines 4119-4129.

    Checkable form
    --------------
    (a) Exhaustive enumeration of all s-subsets for n <= n_enum: the good fraction equals
    C(n-k, s-k)/C(n, s) (kernels.boolean.oversparse.p_good_oversparse).  (b) For every n <= n_max, k <= k_max
    and s_min(k) <= s <= n: p_good >= lower(n, k, s); one case per (n, k), the s with the smallest ratio
    p_good / lower (all s are compared).

    Exactness
    ---------
    Exact: integer counts and Fractions.

    Mutants
    -------
    (s/n)^k fails as soon as k >= 2 and s < n: first witness n = 10, k = 2, s = 9 (p = 4/5 < 81/100).
    Dropping the hypothesis 4k < s: at s = k the probability is 1/C(n, k), below (k/2n)^k once n and k
    are large: first witness n = 52, k = s = 9 (the checker scans k <= k_max, n <= n_max).
    Second reader: exponent k - 1 fails at k = 1 (p = s/n < 1); base 0.99 fails at k = 1 (exact).  Both
    were rejected by the old checker too.  Sharpness of "bound" (lower/p): exactly 0.5, attained at k = 1
    for every s (p = s/n); for k >= 2 the ratio is smaller (p/lower = 2^k prod (1 - i/s)/(1 - i/n) grows
    like 2^k e^{-k/8} under s > 4k), so the factor 2 is tight only at k = 1.  The search is exhaustive
    over n <= n_max, k <= k_max, every admissible s.
    """
    ev = Evidence("ge", rigor=Rigor.EXACT)
    for n, k, s, enumerated, closed in _good_enumerated(p["n_enum"]):
        ev.add({"n": n, "k": k, "s": s, "route": "enumeration vs closed form"}, enumerated, closed, relation="eq")
    for k in range(1, p["k_max"] + 1):
        for n in range(max(statement.s_min(k), 1), p["n_max"] + 1):
            best = None
            for s in _ratio_candidates(statement, n, k):
                ratio = _p_good(n, k, s) / statement.lower(n, k, s)
                if best is None or ratio < best[0]:
                    best = (ratio, s)
            if best is None:
                continue
            s = best[1]
            ev.add({"n": n, "k": k, "s": s, "ratio p/lower": float(best[0])}, _p_good(n, k, s), statement.lower(n, k, s),
                   part="bound")
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# E8. Lemma C.3
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FourierGap:
    """Good over-sparse neuron: vector C 1_S + c 1_{w\\S}; |C| > kappa_k C(s,k-1)^{-1/2}; |c|/|C| <= ratio(k, s)."""

    C: Callable[[int, int], Fraction]
    c: Callable[[int, int], Fraction]
    kappa: Callable[[int], float]
    ratio: Callable[[int, int], Fraction]


_PRINTED_C3 = FourierGap(C_ks, c_ks, lambda k: 0.5 * math.sqrt(rho(k - 1)), lambda k, s: Fraction(4 * k, s))


@claim(
    id="thesis_ch6.lemma_C.3",
    source=SOURCE,
    label="Lemma C.3",
    entry="E8",
    title="Fourier gap of a good over-sparse neuron: C_{k,s} on S, c_{k,s} on w\\S, |c|/|C| <= 4k/s",
    lines=[(4131, 4171)],
    printed=_PRINTED_C3,
    mutants=[
        Mutant("ratio-(k-1)/s", "|c|/|C| <= (k-1)/s", FourierGap(C_ks, c_ks, _PRINTED_C3.kappa, lambda k, s: Fraction(k - 1, s))),
        Mutant("ratio-k/s", "|c|/|C| <= k/s", FourierGap(C_ks, c_ks, _PRINTED_C3.kappa, lambda k, s: Fraction(k, s))),
        Mutant("kappa-no-half", "kappa_k = sqrt(rho(k-1))", FourierGap(C_ks, c_ks, lambda k: math.sqrt(rho(k - 1)), _PRINTED_C3.ratio)),
        Mutant("levels-swapped", "C = Maj^(k+1)/2, c = Maj^(k-1)/2", FourierGap(c_ks, C_ks, _PRINTED_C3.kappa, _PRINTED_C3.ratio)),
        Mutant("near-ratio-1.28k/s", "|c|/|C| <= 1.28 k/s (4k/s x 0.32), beyond the quick sharpness 0.3239: at k = 38, s = 153 "
               "the exact ratio (k-1)/(s-k) = 37/115 = 0.3217 > 1.28 x 38/153 = 0.3179", FourierGap(C_ks, c_ks, _PRINTED_C3.kappa,
               lambda k, s: Fraction(128, 100) * Fraction(k, s)), near_boundary=True, part="ratio", origin="second-reader"),
        Mutant("near-kappa-x1.001", "kappa_k x 1.001 (kappa^2 x 1.002), beyond the quick sharpness 0.99875 at k = 2, s = 401: "
               "|C|^2 C(s, 1) = W^1[Maj_s]/4 decreases to rho(1)/4 = kappa_2^2", FourierGap(C_ks, c_ks,
               lambda k: 1.001 * 0.5 * math.sqrt(rho(k - 1)), _PRINTED_C3.ratio), near_boundary=True, part="kappa",
               origin="second-reader"),
    ],
    parts=[Part("on-S", "for i in S: E[d h/d w_i chi_S] = C_{k,s} = Maj_s^(k-1)/2"),
           Part("off-S", "for i not in S: E[d h/d w_i chi_S] = w_i c_{k,s}, c_{k,s} = Maj_s^(k+1)/2"),
           Part("kappa", "|C_{k,s}| > kappa_k C(s, k-1)^{-1/2} (some constant kappa_k; the proof's kappa_k = sqrt(rho(k-1))/2)",
                inequality=True),
           Part("ratio", "|c_{k,s}|/|C_{k,s}| <= 4k/s", inequality=True)],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[Param("neurons", int, 1, 200, doc="random good neurons per (n, k, s)"),
            Param("n_extra", int, 1, 4, doc="n from s+1 to s+n_extra (exhaustive 2^n sums)"),
            Param("s_max", int, 9, 5001, doc="closed-form bounds for odd s <= s_max")],
    tiers={"quick": {"neurons": 3, "n_extra": 2, "s_max": 401}, "full": {"neurons": 8, "n_extra": 3, "s_max": 601}},
    uses_backend=True,
)
def check_fourier_gap(statement: FourierGap, p, ctx) -> Verdict:
    """Lemma C.3: the Fourier gap of a good over-sparse neuron.

    Statement
    ---------
    k even, s odd, k < s/4, w in {0,1}^n with |supp w| = s and S inside supp w, h_w = relu(<w, x>).
    (1) For i in S: E_x[d h_w/d w_i chi_S] = C_{k,s} := Maj_s^(k-1)/2; (2) for i not in S:
    E_x[d h_w/d w_i chi_S] = w_i c_{k,s}, c_{k,s} := Maj_s^(k+1)/2; and |C_{k,s}| > kappa_k C(s,k-1)^{-1/2}
    with kappa_k = sqrt(rho(k-1))/2, |c_{k,s}|/|C_{k,s}| <= 4k/s.

    Source
    ------
    Thesis (seed 004), App. C.2.2, Lemma C.3 and proof, lines 4131-4171 (rho as corrected in E10).

    Checkable form
    --------------
    (a) Exhaustive: for k = 2 (s = 9, 11) and k = 4 (s = 17), n = s+1..s+n_extra, random S and random
    good supports, the exact correlation vector over all 2^n points equals C 1_S + c 1_{supp w \\ S}.
    (b) The closed forms C, c equal the Krawtchouk spectrum of Maj_s (exact, s <= 61).  (c) For every
    even k and odd s with 4k < s <= s_max: |C|^2 C(s, k-1) > kappa_k^2 and |c|/|C| <= ratio(k, s).

    Exactness
    ---------
    (a), (b) and the ratio are exact (Fractions); the kappa bound compares the exact rational
    |C|^2 C(s,k-1) with the float kappa^2 = rho(k-1)/4 (pi): the smallest relative margin on the grid is
    > 1e-4, far above float64 rounding (1e-15).

    Mutants
    -------
    (k-1)/s is below the exact ratio (k-1)/(s-k) for every s; k/s fails for s < k^2 (k = 6, s = 25);
    kappa without the 1/2 fails for large s (the ratio tends to 1/2); swapping the levels fails (a).
    Second reader (near-boundary, both exact): ratio 1.28 k/s fails at (k, s) = (38, 153); kappa x 1.001 fails
    at (k, s) = (2, 401).  The old checker rejected both (no checker bug found).  Sharpness: ratio 0.3239 at
    (38, 153) (the exact ratio is (k-1)/(s-k); its sup over 4k < s is 1/3 as k grows: the 4k/s bound is loose
    by 3x); kappa 0.99875 at (2, 401) (-> 1 as s grows: the proof's kappa is asymptotically tight).  The grid is
    exhaustive over even k < 40 and odd s <= s_max (the extremes are at the smallest s for the ratio and the
    largest s for kappa).
    """
    ev = Evidence("le", rigor=Rigor.EXACT)
    rng = ctx.rng("neurons")
    for k, s in ((2, 9), (2, 11), (4, 17)):
        for n in range(s + 1, s + p["n_extra"] + 1):
            for _ in range(p["neurons"]):
                perm = rng.permutation(n)
                supp, S = perm[:s], perm[:k][rng.permutation(k)]
                w = np.zeros(n)
                w[supp] = 1
                g = _correlation_cached(w.tobytes(), tuple(int(i) for i in S), ctx.backend)
                pred = [statement.C(k, s) if i in set(S.tolist()) else statement.c(k, s) * int(w[i]) for i in range(n)]
                bad = [i for i in range(n) if g[i] != pred[i]]
                i0 = bad[0] if bad else int(S[0])
                ev.add({"n": n, "k": k, "s": s, "S": sorted(S.tolist()), "i": i0}, g[i0], pred[i0], relation="eq")
    for s in range(9, 62, 2):
        spec = majority_spectrum_ties_minus(s)
        for k in range(2, (s - 1) // 4 + 1, 2):
            ev.add({"s": s, "k": k, "route": "Krawtchouk C"}, spec[k - 1] / 2, _exact_ks(statement.C, k, s), relation="eq")
            ev.add({"s": s, "k": k, "route": "Krawtchouk c"}, spec[k + 1] / 2, _exact_ks(statement.c, k, s), relation="eq")
    worst_kappa = None
    for k in range(2, 40, 2):
        kap2 = statement.kappa(k) ** 2
        for s in range(4 * k + 1 + (4 * k) % 2, p["s_max"] + 1, 2):
            if s % 2 == 0:
                continue
            ratio, lhs = _gap_terms(statement.C, statement.c, k, s)
            ev.add({"k": k, "s": s, "bound": "|c|/|C|"}, ratio, statement.ratio(k, s), part="ratio")
            if worst_kappa is None or lhs / kap2 < worst_kappa[0]:
                worst_kappa = (lhs / kap2, k, s, lhs, kap2)
            if lhs <= kap2:
                ev.add({"k": k, "s": s, "bound": "|C|^2 C(s,k-1) > kappa^2"}, lhs, kap2, relation="gt", part="kappa")
    _, k, s, lhs, kap2 = worst_kappa
    ev.add({"k": k, "s": s, "bound": "|C|^2 C(s,k-1) > kappa^2 (tightest)"}, lhs, kap2, relation="gt", part="kappa")
    ev.details["exact ratio c/C = -(k-1)/(s-k)"] = _exact_ratio_identity()
    return ev.verdict(backend=ctx.backend)


@functools.lru_cache(maxsize=None)
def _gap_terms(C_fn: Callable, c_fn: Callable, k: int, s: int) -> tuple:
    """(|c|/|C| exact, float(|C|^2 C(s, k-1))) for a statement's closed forms (pure functions), computed once per
    process: the printed statement and the mutants with the same C, c share them."""
    C, c = _exact_ks(C_fn, k, s), _exact_ks(c_fn, k, s)
    return abs(c) / abs(C), float(C * C * comb(s, k - 1))


@functools.lru_cache(maxsize=1)
def _exact_ratio_identity() -> bool:
    """c_{k,s} (s - k) = -(k - 1) C_{k,s} on the grid of the details (statement-independent, computed once)."""
    return all(C_ks(k, s) * (-(k - 1)) == c_ks(k, s) * (s - k) for k in range(2, 20, 2) for s in range(4 * k + 1, 201, 2))


def _c4_hypotheses(case) -> list[str]:
    bad = []
    k, s, n = case.get("k"), case.get("s"), case.get("n")
    if None in (k, s, n):
        return ["case lacks k, s or n"]
    if not 4 * k < s:
        bad.append("k < s/4")
    if not s <= n:
        bad.append("s <= n")
    if s % 2 == 0:
        bad.append("s odd (C_{k,s} of Lemma C.3)")
    if k % 2 or k < 2:
        bad.append("k even >= 2 (Lemma C.3)")
    if not case.get("|S\\w|", 0) >= 1:
        bad.append("w bad (S not inside supp w)")
    if len(case.get("S", [])) != k:
        bad.append("|S| = k")
    return bad


# ---------------------------------------------------------------------------------------------
# E9. Lemma C.4
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BadNeuronBound:
    """||E[grad_w h_w chi_S]||_1 <= bound(k, s) for every bad neuron."""

    bound: Callable[[int, int], Fraction]


@claim(
    id="thesis_ch6.lemma_C.4",
    source=SOURCE,
    label="Lemma C.4",
    entry="E9",
    title="Bad over-sparse neurons: ||E[grad h chi_S]||_1 <= C_{k,s} (needs |C_{k,s}|: C < 0 for k = 0 mod 4)",
    lines=[(4173, 4193)],
    printed=BadNeuronBound(C_ks),
    corrected=BadNeuronBound(lambda k, s: abs(C_ks(k, s))),
    mutants=[Mutant("small-c", "bound |c_{k,s}| instead of |C_{k,s}|", BadNeuronBound(lambda k, s: abs(c_ks(k, s)))),
             Mutant("near-0.99|C|", "bound 0.99 |C_{k,s}| (x 0.99): the corrected bound is attained (sharpness 1) by every "
                    "bad neuron with |S minus w| = 1", BadNeuronBound(lambda k, s: Fraction(99, 100) * abs(C_ks(k, s))),
                    near_boundary=True, part="bound", origin="second-reader"),
             Mutant("index-s+2", "bound |C_{k,s+2}| (the majority index shifted by one odd step)",
                    BadNeuronBound(lambda k, s: abs(C_ks(k, s + 2))), origin="second-reader")],
    parts=[Part("bound", "k < s/4, w bad => ||E_x[d h_w/d w chi_S]||_1 <= C_{k,s}", inequality=True)],
    severity=Severity.TYPO,
    hypotheses=lambda case: _c4_hypotheses(case),
    affects=("thesis_ch6.lemma_C.6.readout",),
    expect=Status.ERRATUM,
    rigor=Rigor.EXACT,
    params=[Param("neurons", int, 1, 100, doc="random bad neurons per (n, k, s, |S \\ w|)")],
    tiers={"quick": {"neurons": 2}, "full": {"neurons": 6}},
    uses_backend=True,
)
def check_bad_neurons(statement: BadNeuronBound, p, ctx) -> Verdict:
    """Lemma C.4: bad over-sparse neurons have a small gradient correlation.

    Statement
    ---------
    k < s/4, w in {0,1}^n with |supp w| = s and S not inside supp w.  Then
    ||E_x[d h_w/d w chi_S]||_1 <= C_{k,s}.

    Source
    ------
    Thesis (seed 004), App. C.2.2, Lemma C.4 and proof, lines 4173-4193.

    Checkable form
    --------------
    Exhaustive cube sums (kernels.boolean.oversparse.correlation_vector) for random bad neurons with
    |S \\ supp w| = 1 and 2, at (k, s, n) = (2, 9, 12), (2, 9, 13), (4, 17, 19): the l1 norm of the exact
    vector against bound(k, s).  The proof's structure (vector = C e_i when S \\ w = {i}, 0 when
    |S \\ w| >= 2) is recorded in the details.

    Exactness
    ---------
    Exact (Fractions with denominator 2^n).

    Mutants
    -------
    Bound |c_{k,s}|: any bad neuron with |S \\ w| = 1 has norm |C| > |c|.

    Notes
    -----
    As printed the bound is C_{k,s} itself, which is negative when k = 0 mod 4 (C_{4,17} = -429/65536),
    so it fails for every bad neuron there, even those with zero vector.  Corrected: |C_{k,s}|.
    Second reader: the witness (k, s, n) = (4, 17, 19) meets every printed hypothesis (k < s/4: 4 < 4.25;
    s <= n; w bad; s odd, k even as in Lemma C.3 where C_{k,s} is defined), so the printed STATEMENT is
    false; a reader silently reads |C_{k,s}| (Lemma C.3 bounds |C_{k,s}|, and the proof of C.6 uses
    |w*|_1 <= 1/(2k) = eta |C|): severity typo.  Sharpness of the corrected bound: exactly 1 (every bad
    neuron with |S minus w| = 1 has the vector C e_i); the near-boundary mutant 0.99 |C| is rejected there.
    Mutant |C_{k,s+2}| (index shift, second reader): |C_{k,s+2}| < |C_{k,s}| (|Maj_s^(k-1)| decreases in s),
    so the |S minus w| = 1 neurons exceed it; the old checker rejected it too.

    Correction
    ----------
    ||E_x[d h_w/d w chi_S]||_1 <= |C_{k,s}| for every bad neuron (with equality when |S minus w| = 1).
    """
    ev = Evidence("le", rigor=Rigor.EXACT)
    rng = ctx.rng("bad")
    structure_ok = True
    for k, s, n in ((2, 9, 12), (2, 9, 13), (4, 17, 19)):
        for missing in (1, 2):
            for _ in range(p["neurons"]):
                perm = rng.permutation(n)
                S = [int(i) for i in perm[:k]]
                outside = set(S[:missing])
                pool = [int(i) for i in perm if int(i) not in outside]
                supp = pool[:s]
                w = np.zeros(n)
                w[supp] = 1
                g = _correlation_cached(w.tobytes(), tuple(S), ctx.backend)  # the same draws for every statement
                nz = {i: g[i] for i in range(n) if g[i] != 0}
                expect = {S[0]: C_ks(k, s)} if missing == 1 else {}
                structure_ok &= nz == expect
                ev.add({"n": n, "k": k, "s": s, "|S\\w|": missing, "S": S}, sum(abs(v) for v in g), statement.bound(k, s),
                       part="bound")
    ev.details["vector = C e_i (|S\\w| = 1) or 0 (|S\\w| >= 2)"] = structure_ok
    ev.add({"check": "proof structure"}, structure_ok, relation="true")
    return ev.verdict(backend=ctx.backend)


# ---------------------------------------------------------------------------------------------
# E10. rho bounds
# ---------------------------------------------------------------------------------------------


def _rho_printed(v: int) -> float:
    return 2.0 / (math.pi * float(v) ** (2 * v)) * comb(v - 1, (v - 1) // 2)


@dataclass(frozen=True)
class RhoBounds:
    """rho(v) <= W^v[Maj_N] (odd N >= v) and W^{k+1}[Maj_s] <= factor * rho(k+1) < factor * rho(k-1) (s > 4k)."""

    rho: Callable[[int], float]
    factor: float
    mono_factor: float = 1.0  # rho(k+1) < mono_factor * rho(k-1) (printed: 1)


def _rho_hypotheses(case) -> list[str]:
    bad = []
    if "v" in case:
        v, N = case["v"], case["N"]
        if v % 2 == 0 or v < 1:
            bad.append("v odd >= 1")
        if N % 2 == 0 or N < v:
            bad.append("N odd >= v")
    else:
        k, s = case.get("k"), case.get("s")
        if k is None or k % 2 or k < 2:
            bad.append("k even >= 2")
        if s is not None and (s % 2 == 0 or not s > 4 * k):
            bad.append("s odd, s > 4k")
    return bad


@claim(
    id="thesis_ch6.rho_bounds",
    source=SOURCE,
    label="Lemma C.3 (rho bounds, O'Donnell Thm 5.22)",
    entry="E10",
    title="rho(v) <= W^v[Maj_N] and W^{k+1}[Maj_s] <= 2 rho(k+1): printed rho = 2/(pi v^{2v}) C(v-1,(v-1)/2) is a typo",
    lines=[(4163, 4169)],
    printed=RhoBounds(_rho_printed, 2.0),
    corrected=RhoBounds(rho, 2.0),
    mutants=[Mutant("no-factor-2", "W^{k+1}[Maj_s] <= rho(k+1)", RhoBounds(rho, 1.0)),
             Mutant("near-lower-x1.006", "rho(v) x 1.006 in the lower bound, beyond its quick sharpness 0.995 (v = 3, "
                    "N = 301; W^v[Maj_N] decreases to rho(v), so any factor > 1 fails for large N)",
                    RhoBounds(lambda v: 1.006 * rho(v), 2.0), near_boundary=True, part="lower", origin="second-reader"),
             Mutant("near-upper-1.2", "factor 2 -> 1.2 (x 0.6), beyond the quick sharpness 0.604: W^3[Maj_9] = 1.208 rho(3) "
                    "(k = 2, s = 9)", RhoBounds(rho, 1.2), near_boundary=True, part="upper", origin="second-reader"),
             Mutant("near-monotone-0.85", "rho(k+1) < 0.85 rho(k-1), beyond the sharpness 0.8595 = rho(21)/rho(19) = "
                    "(19/21) C(20,10)/(4 C(18,9)) (exact)", RhoBounds(rho, 2.0, 0.85), near_boundary=True, part="monotone",
                    origin="second-reader")],
    parts=[Part("lower", "rho(v) <= W^v[Maj_N] for odd v, odd N >= v", inequality=True),
           Part("upper", "W^{k+1}[Maj_s] <= 2 rho(k+1) for even k, odd s > 4k", inequality=True),
           Part("monotone", "2 rho(k+1) < 2 rho(k-1)", inequality=True)],
    severity=Severity.TYPO,
    hypotheses=_rho_hypotheses,
    affects=("thesis_ch6.lemma_C.3",),
    expect=Status.ERRATUM,
    rigor=Rigor.FLOAT,
    params=[Param("N_max", int, 3, 5001, doc="odd N <= N_max")],
    tiers={"quick": {"N_max": 301}, "full": {"N_max": 1001}},
)
def check_rho_bounds(statement: RhoBounds, p, ctx) -> Verdict:
    """The rho bounds on majority's degree weights used in the proof of Lemma C.3.

    Statement
    ---------
    For odd v and odd N >= v: W^v[Maj_N] := C(N, v) Maj_N^(v)^2 >= rho(v), and (as used) for even k,
    odd s > 4k: W^{k+1}[Maj_s] <= 2 rho(k+1) < 2 rho(k-1), with rho(v) printed as
    2/(pi v^{2v}) C(v-1, (v-1)/2).

    Source
    ------
    Thesis (seed 004), proof of Lemma C.3 citing O'Donnell (2014) Thm 5.22, lines 4163-4169.

    Checkable form
    --------------
    Exact W^v[Maj_N] (Fractions, kernels.boolean.oversparse.maj_hat) for odd v <= 21 and odd N in [v, N_max]
    against rho(v); the upper bound for even k <= 20, odd s in (4k, N_max]; rho(k+1) < rho(k-1).

    Exactness
    ---------
    W is exact; rho contains pi, so the comparison is in float64 (relative error 1e-15); the smallest
    relative margin of the corrected statement is > 1e-4 (W/rho -> 1 slowly, 1.0015 at N = 1001 for v = 3).

    Mutants
    -------
    Without the factor 2 the upper bound fails for every finite s (W decreases to rho from above).

    Notes
    -----
    The printed rho (v^{2v} for v 2^{v-1}) is 1.7e-3 at v = 3 instead of 0.106: the lower bound becomes
    trivial but the upper bound W^{k+1} <= 2 rho(k+1) fails.  Second reader: the witness (k, s) = (2, 9) meets
    every hypothesis (k even, s odd, s > 4k), so the displayed inequality as printed is false; it is a
    transcription slip of O'Donnell's rho(v) = (2/(pi v)) C(v-1, (v-1)/2) 2^{-(v-1)} that the proof does not
    otherwise use (only the form rho(k+1) < rho(k-1) and the ratio of the two bounds): severity typo; the
    conclusion of Lemma C.3 survives with the correct rho.  Sharpness (corrected, quick): lower 0.995 (v = 3,
    N = 301; -> 1 as N grows: tight), upper 0.604 (k = 2, s = 9: the factor 2 could be 1.21), monotone 0.8595
    (k = 20).  The near-boundary mutants are argued in their descriptions (exact values).

    Correction
    ----------
    rho(v) = (2/(pi v)) C(v-1, (v-1)/2) 2^{-(v-1)} (v 2^{v-1} in place of v^{2v}); with it both bounds hold.
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    lower_worst, upper_worst = _rho_extremes(p["N_max"])
    for v, worst in zip(range(3, 22, 2), lower_worst):
        ev.add({"v": v, "N": worst[1], "bound": "rho(v) <= W^v (smallest W)"}, statement.rho(v), worst[0], part="lower")
    for k, worst in zip(range(2, 21, 2), upper_worst):
        ev.add({"k": k, "s": worst[1], "bound": "W^{k+1}[Maj_s] <= factor rho(k+1) (largest W)"}, worst[0],
               statement.factor * statement.rho(k + 1), part="upper")
        ev.add({"k": k, "bound": "rho(k+1) < rho(k-1)"}, statement.rho(k + 1), statement.mono_factor * statement.rho(k - 1), relation="lt",
               part="monotone")
    return ev.verdict()


@functools.lru_cache(maxsize=4)
def _rho_extremes(N_max: int) -> tuple[tuple, tuple]:
    """The exact degree weights the rho-bound checks compare, a function of N_max alone (computed once for the
    printed statement, the corrected one and the mutants): for odd v = 3..21 the smallest float(W^v[Maj_N]) over
    odd N in [v, N_max] with its first N; for even k = 2..20 the largest float(W^{k+1}[Maj_s]) over odd s in
    (4k, N_max] with its first s (None where the range is empty)."""
    lower = []
    for v in range(3, 22, 2):
        worst = None
        for N in range(v, N_max + 1, 2):
            W = float(comb(N, v) * maj_hat(N, v) ** 2)
            if worst is None or W < worst[0]:
                worst = (W, N)
        lower.append(worst)
    upper = []
    for k in range(2, 21, 2):
        worst = None
        for s in range(4 * k + 1, N_max + 1, 2):
            W = float(comb(s, k + 1) * maj_hat(s, k + 1) ** 2)
            if worst is None or W > worst[0]:
                worst = (W, s)
        upper.append(worst)
    return tuple(lower), tuple(upper)


def _c6_hypotheses(case) -> list[str]:
    bad = []
    k, n = case.get("k"), case.get("n")
    if k is None or k % 2 or k < 2:
        bad.append("k even")
    elif k < 4:
        bad.append("printed bias set {beta_1..beta_{k/2-1}} non-empty (k >= 4)")
    if n is None or n < k:
        bad.append("n >= k")
    return bad


# ---------------------------------------------------------------------------------------------
# E12. Lemma C.6: the parity readout psi*
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BiasSet:
    """Bias indices j of beta_j = (-k + 2j + 1/16)/(2k) used by the construction, as a function of k."""

    indices: Callable[[int], list[int]]


@claim(
    id="thesis_ch6.lemma_C.6.readout",
    source=SOURCE,
    label="Lemma C.6",
    entry="E12",
    title="The one-step features represent the parity only with biases j = 0..k/2-1 (printed j = 1..k/2-1)",
    lines=[(4195, 4225), (4253, 4340)],
    printed=BiasSet(lambda k: list(range(1, k // 2))),
    corrected=BiasSet(lambda k: list(range(k // 2))),
    mutants=[Mutant("one-bias-short", "j = 0..k/2-2 (one bias value fewer)", BiasSet(lambda k: list(range(k // 2 - 1))))],
    parts=[Part("loss-bound", "(2): exists u*, ||u*|| <= B_k, with L_D(h_{psi,u*}) <= sqrt(4kr'B_k)/sqrt(s) (checked through its "
                "necessary condition: some readout of the idealised features has hinge loss 0; see Notes)"),
           Part("readout", "the proof's Claim: u* with L_D(h_{psi*,u*}) = 0, ||u*|| <= B_k (exact representation of chi_S)"),
           Part("norm", "(1): ||psi||_{inf,2} <= sqrt(8kr')", asserted=False,
                reason="follows from the r'-good window |I_j| <= 2r' and 0 <= psi_i <= 1; the window is Lemma C.10's "
                "claim (thesis_ch6.lemma_C.10), not re-derived here"),
           Part("closeness", "(3): w.p. >= 1 - delta, ||psi - phi^(1)||_{inf,2} <= 4kr'n eta tau", asserted=False,
                reason="a sampled-gradient statement; its ingredients are Lemma C.5 (thesis_ch6.lemma_C.5) and the executed "
                "one-step algorithm of thesis_ch6.theorem_C.11.one_step, not this exact check")],
    severity=Severity.CONSTANT,
    hypotheses=lambda case: _c6_hypotheses(case),
    affects=("thesis_ch6.lemma_C.10", "thesis_ch6.theorem_C.11.width"),
    expect=Status.ERRATUM,
    rigor=Rigor.EXACT,
    params=[Param("k_max", int, 2, 12, doc="even k <= k_max"), Param("n", int, 2, 14, doc="cube dimension of the execution check")],
    tiers={"quick": {"k_max": 6, "n": 8}, "full": {"k_max": 10, "n": 12}},
)
def check_parity_readout(statement: BiasSet, p, ctx) -> Verdict:
    """Lemma C.6 (sub-claim (a)): the idealised one-step features psi* represent chi_S.

    Statement
    ---------
    After the first step a good neuron with bias beta_j computes relu(+-s_x/(2k) + beta_j), s_x = sum_{i in S} x_i,
    beta_j = (-k + 2j + 1/16)/(2k), b drawn from {beta_1, ..., beta_{k/2-1}} (as printed); Lemma C.6 (2)
    asserts a readout u* with ||u*|| <= B_k and hinge loss <= B_k sqrt(4kr')/sqrt(s), which needs a
    readout v of the features (1, relu(t/2k + beta_j), relu(-t/2k + beta_j))_j with v(t) . v = chi_S for
    t = s_x in {-k, -k+2, ..., k}.

    Source
    ------
    Thesis (seed 004), App. C.2.2, initialisation lines 4195-4225, Lemma C.6 lines 4253-4340.

    Checkable form
    --------------
    For every even k <= k_max: solve the linear system exactly (sympy, kernels.boolean.oversparse.parity_readout);
    then EXECUTE the construction: on {±1}^n (n = p["n"] >= k) evaluate
    v_0 + sum_j v_j relu(s_x/2k + beta_j) + v'_j relu(-s_x/2k + beta_j) at every point with Fractions
    and compare with chi_S(x) at every point.  No solution counts as all 2^n points wrong.

    Exactness
    ---------
    Exact rationals.  B_k = ||v||_2 is reported in the details.

    Mutants
    -------
    One bias value fewer leaves k - 1 features for k + 1 values of s_x: no representation.

    Notes
    -----
    With the printed set the construction has k - 1 features for k + 1 values (empty set for k = 2):
    parity is not representable.  Second reader: k = 2 is no valid witness (the printed initialisation
    draws b from an empty set), so k = 4, 6, ... are checked first; the witness is k = 4 (one bias value
    beta_1 = -31/128).  Statement-level argument (part "loss-bound"): with the printed biases the idealised
    features admit NO readout of zero hinge loss (LP value c_4 > 0; by hand: f(0) >= 1, f(+-2) <= -1,
    f(+-4) >= 1 force 1 + 0.258 x <= -1 + 0.0078 x for the slope x >= 0 of the beta_1 feature).  Take tau -> 0
    (m -> infinity): phi^(1) tends to the population one-step features psi of the proof, and (3) forces the
    lemma's psi onto them; the proof's own Claim gives |L_D(psi, u) - L_D(psi*, u)| <= ||u|| sqrt(4kr')/sqrt(s),
    so for ||u|| <= B_k, L_D >= c_k - B_k sqrt(4kr'/s), which exceeds sqrt(4kr'B_k/s) once
    s > 4kr'(B_k + sqrt(B_k))^2/c_k^2.  So (2) is false for every constant B_k: a statement erratum.
    Severity constant (an index range; the form survives with j = 0..k/2-1, which also changes the count of
    bias values to k/2, used by Lemma C.10 and the width rule).

    Correction
    ----------
    Draw the biases from {beta_0, ..., beta_{k/2-1}} (k/2 values, j = 0..k/2-1); then V is (k+1) x (k+1),
    invertible, and psi* represents chi_S exactly (B_k = ||v||, reported in the details).
    """
    from kernels.training.hinge_opt import hinge_min_lp

    ev = Evidence("eq", rigor=Rigor.EXACT)
    for k in sorted(range(2, p["k_max"] + 1, 2), key=lambda k: (k == 2, k)):  # k = 2 last: printed set empty there
        n = max(p["n"], k)
        js = statement.indices(k)
        betas_f = [(-k + 2 * j + 1 / 16) / (2 * k) for j in js]
        ts = np.arange(-k, k + 1, 2, dtype=np.float64)
        feats = np.column_stack([np.ones_like(ts)] + [np.maximum(sg * ts / (2 * k) + b, 0.0) for b in betas_f for sg in (1, -1)])
        labels = np.array([(-1.0) ** ((k - int(t)) // 2) for t in ts])
        lp = float(hinge_min_lp(feats, labels).value)
        ev.add({"k": k, "n": n, "bias indices": js, "check": "min hinge loss of a readout of psi* (any norm) is 0",
                "LP value": lp}, lp <= 1e-7, relation="true")
        sol = parity_readout(k, js)
        if sol is None:
            # no readout exists: every point counts as wrong
            ev.add({"k": k, "n": n, "bias indices": js, "check": "points where readout != chi_S (no readout exists)"}, 2**n, 0)
            continue
        v, norm2 = sol
        betas = [Fraction(-k + 2 * j, 2 * k) + Fraction(1, 32 * k) for j in js]
        wrong = 0
        for x in itertools.product((1, -1), repeat=n):
            t = sum(x[:k])
            z = Fraction(t, 2 * k)
            out = v[0]
            for a, beta in enumerate(betas):
                out += v[1 + 2 * a] * max(z + beta, 0) + v[2 + 2 * a] * max(-z + beta, 0)
            wrong += out != math.prod(x[:k])
        ev.details[f"B_{k}"] = math.sqrt(norm2)
        ev.add({"k": k, "n": n, "bias indices": js, "check": "points where readout != chi_S"}, wrong, 0)
    return ev.verdict()
