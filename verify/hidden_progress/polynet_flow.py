"""Disjoint-PolyNets under gradient flow: the population gradient and the counting remark (E20),
Lemma B.8 and its blow-up time (E21), and the full (Gaussian-init) Theorem 5.7 (E25).

Independent routes used throughout: the population gradient summed over the whole cube (and the
exact differences of the population loss, which is affine in each weight) against the closed form;
the full gradient flow of all weights (scipy solve_ivp on the exhaustive gradient) against the
reduced flow of the relevant weights (a compiled Dormand-Prince integrator with event location,
kernels.boolean.polynet_flow) against the quadrature t(q) of the proof (Gauss-Legendre, scipy quad, Carlson's
R_F for k = 3) against the closed forms (sympy-proved, proofs.polynet_flow); the exact error of the
network from the block laws of the irrelevant sums (App. B.2.3; kernels.boolean.polynet_flow) against an
evaluation over the cube (kernels.boolean.polynet).
"""

from __future__ import annotations

import functools

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb, factorial

import numpy as np

from kernels.boolean.polynet_flow import polynet_population_gradient, polynet_population_loss
from proofs import polynet_flow as flow_proofs

from ..registry import Evidence, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True

_EPS = float(np.finfo(np.float64).eps)


# ---------------------------------------------------------------------------------------------
# E20. The population gradient of a disjoint-PolyNet
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GradientFormula:
    """g_i = sign * (prod_{j in J_i} w_{j,1}) * d, with J_i = [k] \\ {i} (or [k] when ``include_own``) and
    d = e_1 (or the all-ones vector when ``irrelevant_moves``)."""

    text: str
    sign: int = -1
    include_own: bool = False
    irrelevant_moves: bool = False
    #: the coordinate of block i that moves (e_1: index 0, the relevant coordinate of S)
    e_index: int = 0

    def predict(self, W, i: int, j: int):
        prod = W[0][0] * 0 + 1
        for l, block in enumerate(W):
            if l != i or self.include_own:
                prod *= block[0]
        if j != self.e_index and not self.irrelevant_moves:
            return prod * 0
        return self.sign * prod


_GRAD = GradientFormula("g_i = -(prod_{j != i} w_{j,1}) e_1")


def _rational_weights(rng, k: int, n_prime: int):
    """Random rationals p/D (one denominator D in {1,..,4} per case) with |p| <= P, P chosen so that the
    exhaustive integer sums stay below 2^62 (int64 path): 2^n prod_l (n' P) < 2^62."""
    n = k * n_prime
    P = max(1, int(2 ** ((62 - n) / k) / n_prime))
    P = min(P, 7)
    D = int(rng.integers(1, 5))
    W = []
    for _ in range(k):
        rel = int(rng.integers(1, P + 1)) * int(rng.choice([-1, 1]))
        rest = [int(x) for x in rng.integers(-P, P + 1, size=n_prime - 1)]
        W.append([Fraction(x, D) for x in [rel] + rest])
    return W


@functools.lru_cache(maxsize=4)
def _population_gradient_data(seed: int, seed_real: int, n_max: int, n_fd_max: int) -> tuple:
    """(n, k, n', W, exhaustive gradient R1, finite differences R2 or None, Gaussian W, its float64
    gradient) for every k | n <= n_max, drawn from the claim's streams in the order of the check: the
    statement only enters through its formula, so the printed statement and the mutants share these."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    rng_real = np.random.default_rng(np.random.SeedSequence(seed_real))
    out = []
    for n in range(1, n_max + 1):
        for k in range(1, n + 1):
            if n % k:
                continue
            n_prime = n // k
            W = _rational_weights(rng, k, n_prime)
            g = polynet_population_gradient(W, exact=True)
            fd = None
            if n <= n_fd_max:
                L0 = polynet_population_loss(W, exact=True)
                fd = []
                for i in range(k):
                    row = []
                    for j in range(n_prime):
                        W2 = [list(b) for b in W]
                        W2[i][j] += 1
                        row.append(polynet_population_loss(W2, exact=True) - L0)
                    fd.append(row)
            Wr = rng_real.standard_normal((k, n_prime))
            Wr.flags.writeable = False
            gr = polynet_population_gradient(Wr)
            out.append((n, k, n_prime, W, g, fd, Wr, gr))
    return tuple(out)


@claim(
    id="thesis_ch5.disjoint_polynet.population_gradient",
    source=SOURCE,
    label="Section 5.4.2 (disjoint-PolyNet population gradient)",
    entry="E20",
    title="The population gradient of a disjoint-PolyNet moves only the relevant weights: g_i = -(prod_{j!=i} w_j1) e_1",
    lines=[(1019, 1031), (3333, 3340), (3346, 3352)],
    printed=_GRAD,
    mutants=[
        Mutant("own-weight-included", "g_i = -(prod_{j} w_{j,1}) e_1 (w_{i,1} included in the product)",
               replace(_GRAD, include_own=True)),
        Mutant("sign+", "g_i = +(prod_{j != i} w_{j,1}) e_1 (the minus sign of the correlation loss dropped)",
               replace(_GRAD, sign=+1)),
        Mutant("irrelevant-move", "every coordinate of block i gets -(prod_{j != i} w_{j,1})",
               replace(_GRAD, irrelevant_moves=True)),
        Mutant("grad-at-e_2", "g_i = -(prod_{j != i} w_{j,1}) e_2 (the moving coordinate shifted by one)",
               replace(_GRAD, e_index=1), origin="second-reader"),
    ],
    parts=[
        Part("gradient", "g_i(w) = E[grad_{w_i} l(f(x; w), y)] = -(prod_{j != i} w_{j,1}) e_1 (lines 1019-1031, 3346-3352)"),
        Part("irrelevant", "the population gradient is non-zero only at the indices in S: the irrelevant weights do not "
             "move under gradient flow (lines 1029-1031, 3333-3340)"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[
        Param("n_max", int, 1, 22, doc="every (k, n') with k n' <= n_max is checked exhaustively"),
        Param("n_fd_max", int, 1, 22, doc="the finite-difference route runs for k n' <= n_fd_max"),
    ],
    tiers={"quick": {"n_max": 16, "n_fd_max": 14}, "full": {"n_max": 20, "n_fd_max": 18}},
)
def check_population_gradient(statement: GradientFormula, p, ctx) -> Verdict:
    """The population gradient of the disjoint-PolyNet under the correlation loss.

    Statement
    ---------
    For f(x; w_{1:k}) = prod_{i=1}^k <w_i, x_{P_i}> on n = k n' inputs, the correlation loss
    l(f, y) = -y f and S = {the first index of each P_i}:
    g_i(w) = E[grad_{w_i} l(f(x; w), y)] = -E[y (prod_{j != i} <w_j, x_{P_j}>) x_{P_i}]
    = -(prod_{j != i} w_{j,1}) e_1; "the population gradient is non-zero only at indices i in S", so
    the irrelevant weights stay fixed under gradient flow ("For i, E[grad_{w_i} l] = 0" in App. B.2.3
    means: for the irrelevant coordinates).

    Source
    ------
    Thesis (seed 004), Section 5.4.2 (disjoint-PolyNet population gradient), lines 1019-1031; App.
    B.2.3, lines 3333-3340 and 3346-3352.

    Checkable form
    --------------
    For every (k, n') with k n' <= n_max (k = 1 and n' = 1 included), random rational weights p/D
    (a seeded draw per case; non-zero relevant weights): (R1) the expectation
    -E[y prod_{l != i} <w_l, x_{P_l}> x_{P_i,j}] summed over all 2^n points in integers; (R2) for
    k n' <= n_fd_max, the exact difference L(w + e_{ij}) - L(w) of the population loss
    L(w) = -E[y f(x; w)] (summed over the cube; L is affine in each single weight, so the difference
    with step 1 IS the partial derivative, without the chain rule).  Every entry: R1 == R2 and
    R1 == the statement's formula (exact Fractions).  The same (k, n') with Gaussian real weights:
    the float64 exhaustive sum against the formula within the tolerance below.

    Exactness
    ---------
    Exact for the rational weights: integer sums over the cube, int64 under an explicit overflow
    guard (the numerators are drawn so that 2^n prod_l ||W_l||_1 < 2^62), Fractions.  Real weights:
    float64 with the worst-case bound of recursive summation, |error| <= (2^n + 2k) eps
    prod_{l != i} ||w_l||_1 (each term is bounded by the product of the l1 norms); the formula is
    evaluated in float64 too.

    Mutants
    -------
    own-weight-included fails as soon as w_{i,1} != 1 (the first case, k = 1); sign+ fails on every
    relevant entry; irrelevant-move fails on the first irrelevant entry (n' = 2).  Second reader:
    grad-at-e_2 (not expressible before the audit) is false because E[y prod_{l != i} <w_l, x_l> x_{i,2}]
    contains the factor E[x_{i,1} x_{i,2}] = 0 while the coordinate 1 carries prod_{l != i} w_{l,1} != 0;
    rejected at the first case (k = 1, n' = 1: the only coordinate is e_1).
    No inequality part: both parts are exact identities (no sharpness).
    """
    ev = Evidence("eq", rigor=Rigor.EXACT)
    worst_float = 0.0
    table = {}
    # the weights and both exact routes (and the float64 gradient) do not depend on the statement: cached
    for n, k, n_prime, W, g, fd, Wr, gr in _population_gradient_data(ctx.seed("weights"), ctx.seed("real weights"),
                                                                        p["n_max"], p["n_fd_max"]):
        case = {"n": n, "k": k, "n'": n_prime, "D": W[0][0].denominator}
        for i in range(k):
            for j in range(n_prime):
                if fd is not None:
                    ev.add(dict(case, i=i, j=j, route="E[-y prod x] (R1) vs L(w+e_ij) - L(w) (R2)"), g[i][j], fd[i][j])
                ev.add(dict(case, i=i, j=j, route="exhaustive R1 vs formula"), g[i][j], statement.predict(W, i, j))
        # real weights, float64
        norms = np.abs(Wr).sum(axis=1)
        for i in range(k):
            bound = float(np.prod(np.delete(norms, i)))
            tol = ((1 << n) + 2 * k) * _EPS * bound
            for j in range(n_prime):
                pred = float(statement.predict([list(map(float, b)) for b in Wr], i, j))
                worst_float = max(worst_float, abs(gr[i, j] - pred) / bound)
                ev.add(dict(case, i=i, j=j, route="float64 Gaussian weights vs formula"), float(gr[i, j]), pred,
                       relation="approx", tol=tol)
        if n in (p["n_max"], p["n_max"] - 1) or n <= 3:
            table[f"k={k}, n'={n_prime}"] = {"relevant g (R1)": [str(g[i][0]) for i in range(k)][:6],
                                             "max |irrelevant g|": str(max((abs(x) for r in g for x in r[1:]), default=0))}
    ev.details["sample cases (exact)"] = table
    ev.details["float64 route: max |g - formula| / prod_{l!=i} ||w_l||_1"] = worst_float
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# E20. The counting remark: (n')^k disjoint S, a constant fraction of C(n, k) ~ (ne/k)^k
# ---------------------------------------------------------------------------------------------


class _ExpMinusK:
    """The irrational constant e^{-k} as a stated fraction limit (a mutant)."""

    def __init__(self, k: int):
        self.k = k


def _sp_float(expr) -> str:
    return str(expr.evalf(60))


def _overlaps(x, y, rel) -> bool:
    return bool(abs(x - y).a <= rel * abs(y).b)


def _rel_excess(r: Fraction, stated, iv):
    """(lower, upper) of r/L - 1 (exact for a rational L)."""
    if isinstance(stated, _ExpMinusK):
        x = iv.mpf(r.numerator) / iv.mpf(r.denominator) * iv.exp(stated.k) - 1
        return float(x.a), float(x.b)
    d = r / stated - 1
    return d, d


@dataclass(frozen=True)
class CountingStatement:
    """lim_{n -> oo} (n/k)^k / C(n, k) = fraction(k) (None: "some constant > 0"), and
    lim (n e/k)^k / C(n, k) in [factor_lo(k), factor_hi(k)] (the printed "C(n, k) ~ (ne/k)^k" is [1, 1]);
    ``sandwich``: (n/k)^k <= C(n, k) <= (n e/k)^k for every n >= k."""

    text: str
    fraction: Callable[[int], Fraction] | None
    factor_lo: Callable[[object, int], object]
    factor_hi: Callable[[object, int], object]
    sandwich: bool = False
    #: the number of disjoint S (one index per block of size n'): (n')^k printed
    count: Callable[[int, int], int] = lambda n1, k: n1**k


def _one(iv, k):
    return iv.mpf(1)


def _sqrt_2pik(iv, k):
    return iv.sqrt(2 * iv.pi * k)


def _robbins_hi(iv, k):
    return iv.sqrt(2 * iv.pi * k) * iv.exp(iv.mpf(1) / (12 * k))


_COUNT_PRINTED = CountingStatement("(n')^k = (n/k)^k is a constant fraction of C(n, k) ~ (ne/k)^k", None, _one, _one)
_COUNT_CORRECTED = CountingStatement(
    "(n/k)^k / C(n, k) decreases to k!/k^k; (n/k)^k <= C(n, k) <= (ne/k)^k; (ne/k)^k / C(n, k) -> e^k k!/k^k, "
    "which lies in [sqrt(2 pi k), sqrt(2 pi k) e^{1/(12k)}]",
    lambda k: Fraction(factorial(k), k**k), _sqrt_2pik, _robbins_hi, sandwich=True)


@functools.lru_cache(maxsize=64)
def _sandwich(k: int, n_max: int, prec: int) -> tuple[bool, bool]:
    """Part (iv) of the counting check, (n/k)^k <= C(n, k) (exact integers) and C(n, k) <= (ne/k)^k (mpmath
    intervals at ``prec`` bits) for every n = k..n_max: it reads no field of the statement, so it is computed once
    and shared by the printed statement and the mutants that check the sandwich."""
    from mpmath import iv

    ok_low = all(m**k <= k**k * comb(m, k) for m in range(k, n_max + 1))
    saved = iv.prec
    iv.prec = prec
    try:
        ok_up = all(bool((iv.mpf(m) * iv.e / k) ** k >= comb(m, k)) for m in range(k, n_max + 1))
    finally:
        iv.prec = saved
    return ok_low, ok_up


@claim(
    id="thesis_ch5.disjoint_polynet.counting",
    source=SOURCE,
    label="Section 5.4.2 (counting disjoint parities)",
    entry="E20",
    title="(n/k)^k disjoint parities: a fraction -> k!/k^k of C(n,k); but C(n,k) ~ (ne/k)^k is off by ~sqrt(2 pi k)",
    lines=[(1023, 1023)],
    printed=_COUNT_PRINTED,
    corrected=_COUNT_CORRECTED,
    mutants=[
        Mutant("fraction-e^-k", "(n/k)^k / C(n, k) -> e^{-k} (what C(n, k) ~ (ne/k)^k would give)",
               replace(_COUNT_CORRECTED, fraction=_ExpMinusK)),
        Mutant("fraction-1/k!", "(n/k)^k / C(n, k) -> 1/k!", replace(_COUNT_CORRECTED, fraction=lambda k: Fraction(1, factorial(k)))),
        Mutant("stirling-sqrt(2k)", "(ne/k)^k / C(n, k) -> a value in [sqrt(2k), sqrt(2k) e^{1/(12k)}] (pi dropped)",
               replace(_COUNT_CORRECTED, factor_lo=lambda iv, k: iv.sqrt(2 * iv.mpf(k)),
                       factor_hi=lambda iv, k: iv.sqrt(2 * iv.mpf(k)) * iv.exp(iv.mpf(1) / (12 * k)))),
        Mutant("count-C(n',1)^k-k!", "k! (n')^k disjoint S (ordered choices counted)",
               replace(_COUNT_CORRECTED, count=lambda n1, k: factorial(k) * n1**k), origin="second-reader"),
    ],
    parts=[
        Part("count", "there are (n')^k = (n/k)^k possibilities for S under the disjointness restriction"),
        Part("fraction", "for fixed k, these are a constant fraction of the C(n, k) possibilities"),
        Part("stirling", "C(n, k) ~ (ne/k)^k (by Stirling's approximation)"),
    ],
    severity=Severity.TYPO,
    hypotheses=lambda case: [] if int(case.get("k", 0)) >= 1 else ["k >= 1 fixed"],
    expect=Status.ERRATUM,
    rigor=Rigor.INTERVAL,
    params=[Param("k_max", int, 1, 40, doc="k = 1..k_max"),
            Param("n_sandwich_max", int, 2, 2000, doc="every n in [k, n_sandwich_max] for the sandwich")],
    tiers={"quick": {"k_max": 10, "n_sandwich_max": 120}, "full": {"k_max": 24, "n_sandwich_max": 600}},
)
def check_counting(statement: CountingStatement, p, ctx) -> Verdict:
    """The number of disjoint parities against C(n, k), and the Stirling remark.

    Statement
    ---------
    "There are still (n')^k = (n/k)^k different possibilities for S under this restriction.  For fixed
    k, these represent a constant fraction of the C(n, k) ~ (ne/k)^k (by Stirling's approximation)
    possibilities for S in the general non-disjoint case."

    Hypotheses
    ----------
    k fixed, n -> infinity (n divisible by k).  "~" is read as Stirling's approximation is: asymptotic
    equivalence, C(n, k) / (ne/k)^k -> 1.  The printed conclusion (a constant fraction) does not
    depend on it; the corrected statement gives the constants.

    Source
    ------
    Thesis (seed 004), Section 5.4.2 (counting disjoint parities), line 1023.

    Checkable form
    --------------
    For k = 1..k_max: (i) the symbolic limits (sympy, n symbolic; proofs.polynet_flow.counting_limits)
    L_k = lim (n/k)^k / C(n, k) and M_k = lim C(n, k) / (ne/k)^k; the fraction must be > 0, and equal
    the stated value when one is stated (exact rationals).  (ii) Exact rationals r(n) = (n/k)^k / C(n, k)
    at n = k n', n' = 1, 10, ..., 10^6: r is non-increasing and, for a stated limit L,
    0 <= r(n)/L - 1 <= 2k^2/n at n >= 2k^2 (r/L = prod_{j<k} n/(n-j) for the true L).  (iii) The
    Stirling factor 1/M_k, evaluated in interval arithmetic (mpmath.iv), must lie in the stated
    [factor_lo, factor_hi]; also e^k r(n) at the largest n, which decreases to 1/M_k, must lie in
    [factor_lo, factor_hi (1 + 2k^2/n)].  (iv) When ``sandwich``: n^k <= k^k C(n, k) (integers) and
    C(n, k) <= (ne/k)^k (intervals) for every n in [k, n_sandwich_max].

    Exactness
    ---------
    Rational parts exact (Fractions, sympy Rationals).  Every comparison involving e or pi is made on
    mpmath intervals (iv, 60 digits) and counts as holding only when the whole interval satisfies it.
    The printed "~" fails by a factor e^k k!/k^k >= e (e at k = 1, 2.72 sqrt(k) asymptotically),
    far outside any rounding.

    Mutants
    -------
    fraction-e^-k (the fraction that "C(n, k) ~ (ne/k)^k" would imply) fails (i) and (ii) at k = 1
    (1 against 1/e); fraction-1/k! agrees at k = 1, 2 and fails at k = 3 (2/9 against 1/6);
    stirling-sqrt(2k) fails (iii) at k = 1 (e > sqrt(2) e^{1/12}).  Second reader: count-C(n',1)^k-k!
    (not expressible before the audit: the count was not checked) is false: S is a set, so choosing
    one index in each of the k labelled blocks gives exactly (n')^k sets (enumerated, k <= 3, n' <= 4);
    rejected at k = 2, n' = 1 (1 set, not 2).

    Correction
    ----------
    For fixed k, C(n, k) ~ n^k/k!, so (ne/k)^k/C(n, k) -> e^k k!/k^k ~ sqrt(2 pi k) (not 1); the conclusion
    stands: (n/k)^k/C(n, k) decreases to k!/k^k > 0.  Typo: "~" is true up to the constant factor
    e^k k!/k^k (a reader reading "~" as Theta for fixed k corrects it silently).
    """
    from mpmath import iv

    iv.dps = 60
    ev = Evidence("true", rigor=Rigor.INTERVAL)
    import itertools

    for k in range(1, min(p["k_max"], 3) + 1):  # (0) the count, by enumeration of the k-subsets of [k n']
        for n1 in range(1, 5):
            blocks = [set(range(b * n1, (b + 1) * n1)) for b in range(k)]
            cnt = sum(1 for S in itertools.combinations(range(k * n1), k) if all(len(blocks[b] & set(S)) == 1 for b in range(k)))
            ev.add({"k": k, "n'": n1, "part": "(0) number of disjoint S (enumerated) = count"}, cnt, statement.count(n1, k),
                   relation="eq")
    limits = {}
    for k in range(1, p["k_max"] + 1):
        L_sym, M_sym = flow_proofs.counting_limits(k)
        L_true = Fraction(int(L_sym.p), int(L_sym.q))
        stated = statement.fraction(k) if statement.fraction is not None else None
        limits[k] = {"lim (n/k)^k/C(n,k)": str(L_true), "lim (ne/k)^k/C(n,k)": str(1 / M_sym)}
        if stated is None:
            ev.add({"k": k, "part": "(i) symbolic fraction limit > 0"}, L_true > 0, note=f"limit {L_true}")
        elif isinstance(stated, _ExpMinusK):
            same = _overlaps(iv.mpf(L_true.numerator) / L_true.denominator, iv.exp(-k), 1e-40)
            ev.add({"k": k, "part": "(i) symbolic fraction limit == stated", "limit": str(L_true), "stated": f"e^-{k}"}, same)
        else:
            ev.add({"k": k, "part": "(i) symbolic fraction limit == stated", "limit": str(L_true), "stated": str(stated)},
                   L_true == stated)
        # (ii) exact sequence
        prev = None
        for e10 in range(7):
            n = k * 10**e10
            r = Fraction(n**k, k**k * comb(n, k))
            if prev is not None:
                ev.add({"k": k, "n": n, "part": "(ii) r(n) non-increasing"}, r <= prev)
            prev = r
            if stated is not None and n >= 2 * k * k:
                rel = _rel_excess(r, stated, iv)
                ok = rel[0] >= 0 and rel[1] <= Fraction(2 * k * k, n)
                ev.add({"k": k, "n": n, "part": "(ii) 0 <= r(n)/L - 1 <= 2k^2/n"}, ok, note=f"r(n)/L - 1 in [{float(rel[0]):.3e}, {float(rel[1]):.3e}]")
        # (iii) Stirling factor
        factor = iv.exp(k) * factorial(k) / iv.mpf(k) ** k
        M_iv = 1 / factor
        sym_iv = iv.mpf(_sp_float(M_sym))  # sympy's limit evaluated (60 digits) must sit in the interval
        ev.add({"k": k, "part": "(iii) sympy limit == 1/(e^k k!/k^k)"}, _overlaps(sym_iv, M_iv, 1e-40))
        lo, hi = statement.factor_lo(iv, k), statement.factor_hi(iv, k)
        ok = bool(factor.a >= lo.b) and bool(factor.b <= hi.a)
        ev.add({"k": k, "part": "(iii) lim (ne/k)^k / C(n,k) in [lo, hi]", "limit": f"{float(factor.mid):.6f}",
                "lo": f"{float(lo.mid):.6f}", "hi": f"{float(hi.mid):.6f}"}, ok)
        n = k * 10**6
        seq = iv.exp(k) * iv.mpf(prev.numerator) / iv.mpf(prev.denominator)
        ok = bool(seq.a >= lo.b) and bool(seq.b <= hi.a * (1 + iv.mpf(2 * k * k) / n))
        ev.add({"k": k, "n": n, "part": "(iii) e^k r(n) in [lo, hi (1 + 2k^2/n)]", "value": f"{float(seq.mid):.6f}"}, ok)
        if statement.sandwich:
            ok_low, ok_up = _sandwich(k, p["n_sandwich_max"], iv.prec)
            ev.add({"k": k, "part": "(iv) (n/k)^k <= C(n,k), all n in range"}, ok_low)
            ev.add({"k": k, "part": "(iv) C(n,k) <= (ne/k)^k, all n in range"}, ok_up)
    ev.details["limits per k (sympy)"] = {str(k): v for k, v in limits.items() if k <= 6 or k == p["k_max"]}
    ev.details["Stirling factor e^k k!/k^k / sqrt(2 pi k)"] = {
        str(k): round(float((iv.exp(k) * factorial(k) / iv.mpf(k) ** k / iv.sqrt(2 * iv.pi * k)).mid), 6) for k in (1, 2, 3, 5, 10)}
    return ev.verdict()
