"""Majority's Fourier spectrum: Lemma B.1 (E5, E6), the ratio identity and (B.5) (E7), Lemma B.2 (E8),
and the LTF-majority identity (E9).

Independent routes used throughout: the printed closed form (``_closed_forms.xi``), the exhaustive
integer Walsh-Hadamard transform of the truth table of Maj_n, and the exact Krawtchouk spectrum of the
symmetric function Maj_n (kernels.symmetric), which reaches n in the thousands.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Callable

import numpy as np
import sympy as sp

from kernels import popcounts, wht
from kernels.cube import sign_vectors
from proofs import majority as majority_proofs

from ..registry import Evidence, Mutant, Param, Rigor, Status, Verdict, claim
from . import SOURCE
from ._closed_forms import majority_gap, majority_spectrum_exact, majority_table, xi

_PRINTED_N_ODD = "Standing hypothesis: n odd (Maj_n = sign(sum x_i) is Boolean only for odd n; Theorem 5.5, line 999)."


def _odd_range(lo: int, hi: int):
    lo += 1 - lo % 2
    return range(lo, hi + 1, 2)


# ---------------------------------------------------------------------------------------------
# E5. Lemma B.1, exact coefficients
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CoefficientFormula:
    """coeff(n, k) is the claimed value of Maj_n^(S) for |S| = k (n odd)."""

    coeff: Callable[[int, int], Fraction]


def _xi_denominator_k(n: int, k: int) -> Fraction:
    if k % 2 == 0:
        return Fraction(0)
    m, j = (n - 1) // 2, (k - 1) // 2
    if k > n - 1:
        return Fraction(0)
    return (-1) ** j * Fraction(comb(m, j) * comb(n - 1, m), comb(n - 1, k) * 2 ** (n - 1))


def _xi_scale_2n(n: int, k: int) -> Fraction:
    return xi(n, k) / 2


def _xi_unsigned(n: int, k: int) -> Fraction:
    return abs(xi(n, k))


@claim(
    id="thesis_ch5.lemma_B.1",
    source=SOURCE,
    label="Lemma B.1",
    entry="E5",
    title="Exact Fourier coefficients of majority (O'Donnell Thm 5.19)",
    lines=[(3090, 3105)],
    printed=CoefficientFormula(xi),
    mutants=[
        Mutant("denominator-C(n-1,k)", "C(n-1, k) in the denominator instead of C(n-1, k-1)", CoefficientFormula(_xi_denominator_k)),
        Mutant("two-to-minus-n", "2^{-n} instead of 2^{-(n-1)}", CoefficientFormula(_xi_scale_2n)),
        Mutant("no-sign", "drop the sign (-1)^{(k-1)/2}", CoefficientFormula(_xi_unsigned)),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[
        Param("n_exhaustive_max", int, 1, 31, doc="odd n up to this: exhaustive integer WHT of the truth table"),
        Param("n_symmetric_max", int, 1, 2001, doc="odd n up to this: exact Krawtchouk spectrum, all k"),
        Param("n_top", int, 1, 5001, doc="one large odd n checked through the Krawtchouk spectrum, all k"),
    ],
    tiers={
        "quick": {"n_exhaustive_max": 21, "n_symmetric_max": 61, "n_top": 301},
        "full": {"n_exhaustive_max": 27, "n_symmetric_max": 201, "n_top": 1001},
    },
    uses_backend=True,
)
def check_majority_coefficients(statement: CoefficientFormula, p, ctx) -> Verdict:
    """Lemma B.1, exact part: the Fourier coefficients of majority.

    Statement
    ---------
    For |S| = k: if k is even, Maj^(S) = 0; if k is odd,
    Maj^(S) = (-1)^{(k-1)/2} C((n-1)/2, (k-1)/2) / C(n-1, k-1) * 2^{-(n-1)} C(n-1, (n-1)/2).

    Hypotheses
    ----------
    n odd (standing).  The lemma is stated under n >= 2k^2, which only its asymptotic part needs
    (claim thesis_ch5.lemma_B.1.asymptotic); the formula is checked for every odd n and 0 <= k <= n.

    Source
    ------
    Thesis (seed 004), Lemma B.1 (O'Donnell 2014, Sec. 5.3), lines 3090-3105.

    Checkable form
    --------------
    (a) Every odd n <= n_exhaustive_max: the integer WHT of the truth table of Maj_n gives all 2^n
    coefficients; for each k, every S with |S| = k must equal the formula.  (b) Every odd n <=
    n_symmetric_max and n = n_top: the exact Krawtchouk spectrum (kernels.symmetric, Python ints)
    must equal the formula for all k.  (c) Parseval: sum_k C(n, k) coeff(n, k)^2 = 1 for the same n.

    Exactness
    ---------
    Exact: int64 transform (|Maj| <= 1, 2^31 < 2^63) and Fractions.

    Mutants
    -------
    C(n-1, k) in the denominator fails at n = 3, k = 1; 2^{-n} halves every odd coefficient (n = 1);
    dropping the sign fails at n = 3, k = 3 (true value -1/2).
    """
    ev = Evidence("eq", rigor=Rigor.EXACT)
    for n in _odd_range(1, p["n_exhaustive_max"]):
        H = wht(majority_table(n), backend=ctx.backend)
        pc = popcounts(n, dtype=np.uint8)
        predicted = [statement.coeff(n, k) * (1 << n) for k in range(n + 1)]
        # a non-dyadic prediction cannot equal any coefficient of a +-1 function: mark it unattainable
        table = np.array([int(v) if v.denominator == 1 else np.iinfo(np.int64).min for v in predicted], dtype=np.int64)
        bad = np.flatnonzero(H != table[pc])
        first_bad = {}
        for S in bad[np.unique(pc[bad], return_index=True)[1]]:
            first_bad[int(pc[S])] = int(S)
        for k in range(n + 1):
            S = first_bad.get(k, (1 << k) - 1)
            ev.add({"n": n, "k": k, "S": S, "route": "exhaustive WHT", "subsets": comb(n, k),
                    "mismatching subsets": int(np.count_nonzero(pc[bad] == k)) if bad.size else 0},
                   Fraction(int(H[S]), 1 << n), statement.coeff(n, k))
        del H, pc, bad
    top = [n for n in _odd_range(1, p["n_symmetric_max"])]
    if p["n_top"] % 2 == 1 and p["n_top"] not in top:
        top.append(p["n_top"])
    for n in top:
        spec = majority_spectrum_exact(n)
        for k in range(n + 1):
            ev.add({"n": n, "k": k, "route": "Krawtchouk"}, spec[k], statement.coeff(n, k))
        ev.add({"n": n, "route": "Parseval of the formula"}, sum(comb(n, k) * statement.coeff(n, k) ** 2 for k in range(n + 1)), 1)
    return ev.verdict(backend=ctx.backend)


# ---------------------------------------------------------------------------------------------
# E6. Lemma B.1, asymptotic bounds
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DegreeWeightBounds:
    """c1^2 k^{-a} <= W^k[Maj_n] <= c2^2 k^{-a} for odd k, odd n >= 2k^2.

    ``lower``/``upper`` are c1^2, c2^2 as numbers, or None for "some universal constant" (then only
    the scaling k^{-a} can be tested).
    """

    exponent: Fraction
    lower: float | None = None
    upper: float | None = None
    lower_strict: bool = False


_EXACT_N_MAX = 20_000


def _degree_weight(n: int, k: int):
    """W^k[Maj_n] = C(n, k) xi_k^2: exact Fraction for n <= 20000, else an mpmath value at 60 digits."""
    if n <= _EXACT_N_MAX:
        return comb(n, k) * xi(n, k) ** 2
    import mpmath

    with mpmath.workdps(60):
        m, j = (n - 1) // 2, (k - 1) // 2
        x = mpmath.binomial(m, j) / mpmath.binomial(n - 1, k - 1) * mpmath.binomial(n - 1, m) / mpmath.mpf(2) ** (n - 1)
        return float(mpmath.binomial(n, k) * x * x)


def _weight_limit(k: int) -> float:
    """lim_{n -> inf} W^k[Maj_n] = (2/pi) C(2j, j) / (k 4^j), j = (k-1)/2 (from Lemma B.1 with Stirling)."""
    j = (k - 1) // 2
    return (2 / math.pi) * float(Fraction(comb(2 * j, j), k * 4**j))


@claim(
    id="thesis_ch5.lemma_B.1.asymptotic",
    source=SOURCE,
    label="Lemma B.1 (asymptotic bounds)",
    entry="E6",
    title="c1^2 k^{-2/3} <= C(n,k) Maj^(S)^2 <= c2^2 k^{-2/3}: the exponent must be -3/2",
    lines=[(3090, 3098)],
    printed=DegreeWeightBounds(Fraction(2, 3)),
    corrected=DegreeWeightBounds(Fraction(3, 2), lower=(2 / math.pi) ** 1.5, upper=0.75, lower_strict=True),
    mutants=[
        Mutant("exponent-1/2", "W^k = Theta(k^{-1/2})", DegreeWeightBounds(Fraction(1, 2))),
        Mutant("lower-0.52", "corrected form with c1^2 = 0.52 (above the infimum (2/pi)^{3/2} = 0.5079)",
               DegreeWeightBounds(Fraction(3, 2), lower=0.52, upper=0.75)),
        Mutant("upper-0.7", "corrected form with c2^2 = 0.7 (W^1 = 3/4 at n = 3)",
               DegreeWeightBounds(Fraction(3, 2), lower=0.5, upper=0.7)),
    ],
    expect=Status.ERRATUM,
    rigor=Rigor.EXACT,
    params=[Param("k_max", int, 9, 201, doc="odd k = 1..k_max"), Param("n_factors", int, 1, 6, doc="how many n per k"),
            Param("limit_proofs", int, 0, 6, doc="sympy proves the n -> inf limit formula for k = 1, 3, ..., 2*this - 1")],
    tiers={"quick": {"k_max": 41, "n_factors": 3, "limit_proofs": 2}, "full": {"k_max": 81, "n_factors": 5, "limit_proofs": 4}},
)
def check_majority_weight_asymptotics(statement: DegreeWeightBounds, p, ctx) -> Verdict:
    """Lemma B.1, asymptotic part: the degree-k Fourier weight of majority.

    Statement
    ---------
    Fix k and assume n >= 2k^2.  For |S| = k odd: c1^2 k^{-2/3} <= C(n, k) Maj^(S)^2 <= c2^2 k^{-2/3}
    for some universal constants c1, c2 (i.e. W^k[Maj_n] = Theta(k^{-2/3})).

    Hypotheses
    ----------
    n odd (standing), k odd, n >= 2k^2.

    Source
    ------
    Thesis (seed 004), Lemma B.1 (O'Donnell 2014, Sec. 5.3), lines 3090-3098.

    Checkable form
    --------------
    W^k = C(n, k) xi_k^2 is computed exactly (Lemma B.1's exact formula, confirmed by
    thesis_ch5.lemma_B.1) for odd k <= k_max and odd n in {2k^2+1, 4k^2+1, 10k^2+1, 20k^2+1, 50k^2+1,
    100k^2+1}[:n_factors], and in the limit n -> infinity, W^k_inf = (2/pi) C(2j, j)/(k 4^j) (this limit is proved by sympy from the
    closed form for the first few k, proofs.majority.weight_limit_residual).  (i) When the
    statement names constants: c1^2 <= W^k k^a <= c2^2 on every case (squared to stay rational when a
    is a half-integer).  (ii) Always: W^k >= W^k_inf on the grid (W decreases in n, so the limit is the
    infimum over n), and the log-log slope of W^k_inf against k over odd k in [k_max/3, k_max] must
    equal -a within 0.1.  A universal-constant statement with the wrong exponent predicts a bound that
    W k^a eventually violates (it tends to 0 or infinity); the slope test detects that.

    Exactness
    ---------
    W^k on the finite grid is exact (Fractions) for n <= 20000 and computed with mpmath at 60 digits
    beyond (relative error < 1e-50, then rounded to float64).  The limit involves 2/pi and is evaluated in float64
    (relative error < 1e-15, far below every margin used: the tightest, W_inf k^{3/2} - (2/pi)^{3/2},
    is > 1e-3 for k <= 201).  The slope tolerance 0.1 separates the exponents at stake (2/3, 1/2, 3/2);
    the O(1/k) drift of the local slope of the true W_inf is below 0.02 on the fitted range.

    Mutants
    -------
    exponent 1/2 (slope test); the corrected form with c1^2 = 0.52 (violated for large k: W_inf k^{3/2}
    tends to 0.5079); with c2^2 = 0.7 (W^1 = 3/4 at n = 3).
    """
    ev = Evidence("ge", rigor=Rigor.EXACT)
    a = statement.exponent
    ks = list(range(1, p["k_max"] + 1, 2))
    factors = [2, 4, 10, 20, 50, 100][: p["n_factors"]]
    table = {}
    named_constants = statement.lower is not None or statement.upper is not None
    if named_constants and (2 * a).denominator != 1:
        raise ValueError("explicit constants need an exponent that is a multiple of 1/2")
    for k in ks:
        row = {}
        for f in factors:
            n = f * k * k + 1
            W = _degree_weight(n, k)
            ev.add({"k": k, "n": n, "part": "W >= W_inf"}, float(W), _weight_limit(k))
            row[f"n={f}k^2+1"] = float(W) * k ** float(a)
            if not named_constants:
                continue
            # (W k^a)^2 = W^2 k^(2a) stays rational for half-integer a
            wk2 = W * W * Fraction(k) ** int(2 * a) if isinstance(W, Fraction) else float(W) ** 2 * float(k) ** float(2 * a)
            if statement.lower is not None:
                ev.add({"k": k, "n": n, "part": "lower (W k^a)^2 vs c1^4"}, wk2, Fraction(repr(statement.lower)) ** 2,
                       relation="gt" if statement.lower_strict else "ge")
            if statement.upper is not None:
                ev.add({"k": k, "n": n, "part": "upper (W k^a)^2 vs c2^4"}, wk2, Fraction(repr(statement.upper)) ** 2, relation="le")
        lim = _weight_limit(k) * k ** float(a)
        row["n=inf"] = lim
        if statement.lower is not None:
            ev.add({"k": k, "n": "inf", "part": "lower"}, lim, statement.lower, relation="gt" if statement.lower_strict else "ge")
        if statement.upper is not None:
            ev.add({"k": k, "n": "inf", "part": "upper"}, lim, statement.upper, relation="le")
        table[k] = row
    for jj in range(p["limit_proofs"]):
        res = majority_proofs.weight_limit_residual(jj)
        ev.add({"part": "symbolic limit of W^k as n -> inf", "k": 2 * jj + 1, "residual": str(res)}, res == 0, relation="true")
    fit = [k for k in ks if k >= p["k_max"] / 3]
    slope = float(np.polyfit(np.log(fit), np.log([_weight_limit(k) for k in fit]), 1)[0])
    ev.add({"part": "log-log slope of W_inf(k)", "k_range": f"{fit[0]}..{fit[-1]}"}, slope, -float(a), relation="approx", tol=0.1)
    ev.details[f"W^k k^a for a = {a}"] = {str(k): {c: round(v, 6) for c, v in row.items()} for k, row in table.items() if k in ks[:6] + ks[-3:]}
    ev.details["fitted exponent of W_inf(k)"] = round(slope, 4)
    ev.plots.append({
        "title": "Degree-k weight of majority at n = 2k^2+1 and n = infinity",
        "xlabel": "k (odd)", "ylabel": "W^k[Maj_n] * k^a", "logx": True, "logy": True,
        "series": [
            {"label": f"n = inf, a = {a}", "x": ks, "y": [_weight_limit(k) * k ** float(a) for k in ks]},
            {"label": "n = inf, a = 3/2", "x": ks, "y": [_weight_limit(k) * k**1.5 for k in ks]},
            {"label": "n = inf, a = 2/3 (printed)", "x": ks, "y": [_weight_limit(k) * k ** (2 / 3) for k in ks]},
        ],
    })
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# E7. The ratio identity of Lemma B.2's proof, and Eq. (B.5)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RatioStatement:
    """ratio(n, k) is the claimed |xi_{k-1}| / |xi_{k+1}| for even k (sympy-compatible expression)."""

    ratio: Callable
    text: str


@claim(
    id="thesis_ch5.lemma_B.2.ratio",
    source=SOURCE,
    label="Lemma B.2 (proof: ratio identity)",
    entry="E7",
    title="|xi_{k-1}| = ((n-k)/(k-1)) |xi_{k+1}| for even k",
    lines=[(3113, 3118)],
    printed=RatioStatement(lambda n, k: (n - k) / (k - 1), "(n-k)/(k-1)"),
    mutants=[
        Mutant("(n-k+1)/(k-1)", "ratio (n-k+1)/(k-1)", RatioStatement(lambda n, k: (n - k + 1) / (k - 1), "(n-k+1)/(k-1)")),
        Mutant("(n-k)/k", "ratio (n-k)/k", RatioStatement(lambda n, k: (n - k) / k, "(n-k)/k")),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[Param("n_max", int, 3, 1001, doc="odd n up to this, all even k < n")],
    tiers={"quick": {"n_max": 61}, "full": {"n_max": 201}},
)
def check_ratio_identity(statement: RatioStatement, p, ctx) -> Verdict:
    """Ratio of consecutive majority coefficients (proof of Lemma B.2).

    Statement
    ---------
    For even k: |xi_{k-1}| = ((n - k)/(k - 1)) |xi_{k+1}|, where xi_j = Maj_n^([j]).  (The exact
    signed form is xi_{k+1} = -((k-1)/(n-k)) xi_{k-1}.)

    Hypotheses
    ----------
    n odd (standing), k even with 2 <= k <= n - 1.

    Source
    ------
    Thesis (seed 004), proof of Lemma B.2, lines 3113-3118.  The proof's first line writes
    C((n-1)/2, (k-1)/2)/C(n-1, k-2), a half-integer index for even k; C((n-1)/2, (k-2)/2) is meant.

    Checkable form
    --------------
    (a) Symbolic (proofs.majority.ratio_identity_residual): with n = 2m+1, k = 2j and Lemma B.1's
    closed form, gammasimp(|xi_{k-1}|/|xi_{k+1}|) - ratio(n, k) must simplify to 0 for symbolic m, j.
    (b) Numeric and independent of the closed form: the exact Krawtchouk spectrum of Maj_n for every
    odd n <= n_max gives |xi_{k-1}| and |xi_{k+1}|; the identity is checked for all even k < n, and the
    signs are checked to be opposite.

    Exactness
    ---------
    Exact: sympy simplification to 0 and Fractions.

    Mutants
    -------
    (n-k+1)/(k-1) and (n-k)/k both fail at n = 3, k = 2 (true ratio 1) and symbolically.
    """
    ev = Evidence("eq", rigor=Rigor.EXACT)
    residual = majority_proofs.ratio_identity_residual(statement.ratio)
    ev.add({"part": "symbolic, n = 2m+1, k = 2j", "residual": str(residual)}, residual == 0, relation="true")
    gap_res = majority_proofs.gap_identity_residual()
    ev.add({"part": "symbolic next step: |xi_{k-1}| - |xi_{k+1}| = ((n-2k+1)/(k-1)) |xi_{k+1}|", "residual": str(gap_res)},
           gap_res == 0, relation="true")
    for n in _odd_range(3, p["n_max"]):
        spec = majority_spectrum_exact(n)
        for k in range(2, n, 2):
            lo, hi = spec[k - 1], spec[k + 1]
            ratio = statement.ratio(sp.Integer(n), sp.Integer(k))
            ev.add({"n": n, "k": k}, abs(lo), abs(hi) * Fraction(int(ratio.p), int(ratio.q)))
            ev.add({"n": n, "k": k, "part": "opposite signs"}, bool(lo * hi < 0), relation="true")
    return ev.verdict()


@dataclass(frozen=True)
class B5Statement:
    """xi_{k+1}^2 / xi_{k-1}^2 <= const * k^2 / n^power (the last member of (B.5))."""

    const: Fraction
    power: int = 2


@claim(
    id="thesis_ch5.eq_B.5",
    source=SOURCE,
    label="Eq. (B.5)",
    entry="E7",
    title="xi_{k+1}^2 / xi_{k-1}^2 <= (8 c2/c1) k^2 / n^2 for even k",
    lines=[(3105, 3107)],
    printed=B5Statement(Fraction(8)),
    mutants=[
        Mutant("const-1/4", "constant 8 c2/c1 replaced by 1/4", B5Statement(Fraction(1, 4))),
        Mutant("n-cubed", "k^2/n^3 instead of k^2/n^2", B5Statement(Fraction(8), power=3)),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[
        Param("k_max", int, 2, 60, doc="even k up to this"),
        Param("n_span", int, 2, 100_000, doc="odd n from 2(k+1)^2 + 1 to 2(k+1)^2 + n_span"),
        Param("c_ratio", float, 1.0, 1e6, doc="c2/c1 (>= 1 since c1^2 k^-a <= c2^2 k^-a); 1 is the hardest case"),
        Param("log10_n_large", int, 3, 6, doc="also n = 10^4 + 1, ..., 10^this + 1"),
    ],
    tiers={"quick": {"k_max": 20, "n_span": 400, "c_ratio": 1.0, "log10_n_large": 4},
           "full": {"k_max": 40, "n_span": 4000, "c_ratio": 1.0, "log10_n_large": 5}},
)
def check_eq_b5(statement: B5Statement, p, ctx) -> Verdict:
    """Eq. (B.5): the ratio of squared majority coefficients of degrees k+1 and k-1.

    Statement
    ---------
    For every even k: xi_{k+1}^2/xi_{k-1}^2 <= c2^2 (k-1)^{2/3} C(n,k-1) / (c1^2 (k+1)^{2/3} C(n,k+1))
    <= (c2/c1) (k+1)k/((n-k)(n-k+1)) <= (8 c2/c1) k^2/n^2.  The last member is what is used later.

    Hypotheses
    ----------
    n odd (standing); n >= 2(k+1)^2 (Lemma B.1's hypothesis at degree k+1).  c1, c2 are the constants
    of Lemma B.1's asymptotic part, which do not exist as printed (thesis_ch5.lemma_B.1.asymptotic);
    only c2/c1 >= 1 is used, as parameter c_ratio (1 = the smallest admissible, hardest case).

    Source
    ------
    Thesis (seed 004), Eq. (B.5), lines 3105-3107.  The middle step replaces c2^2/c1^2 by c2/c1 (the
    squares are dropped); harmless given the exact identity of thesis_ch5.lemma_B.2.ratio.

    Checkable form
    --------------
    For even k <= k_max and odd n in [2(k+1)^2 + 1, 2(k+1)^2 + n_span] plus n = 10^4 + 1, ..., 10^log10_n_large + 1:
    the left side exactly (Krawtchouk spectrum for n <= 201, Lemma B.1's confirmed closed form beyond)
    against const * c_ratio * k^2 / n^power.  The binomial step C(n, k-1)/C(n, k+1) =
    (k+1)k/((n-k)(n-k+1)) is proved symbolically (proofs.majority.binomial_step_residual).

    Exactness
    ---------
    Exact (Fractions; sympy for the binomial step).

    Mutants
    -------
    Constant 1/4 fails at every k (the exact ratio is ((k-1)/(n-k))^2 > k^2/(4n^2) iff ...; e.g.
    k = 2, n = 19); the power n^3 fails for large n.
    """
    ev = Evidence("le", rigor=Rigor.EXACT)
    ev.add({"part": "symbolic C(n,k-1)/C(n,k+1) step"}, majority_proofs.binomial_step_residual() == 0, relation="true")
    c = Fraction(p["c_ratio"]).limit_denominator(10**6)
    for k in range(2, p["k_max"] + 1, 2):
        n0 = 2 * (k + 1) ** 2 + 1
        ns = list(_odd_range(n0, n0 + p["n_span"])) + [10**e + 1 for e in range(4, p["log10_n_large"] + 1)]
        for n in ns:
            if n <= 201:
                spec = majority_spectrum_exact(n, k + 1)
                lo, hi = spec[k - 1], spec[k + 1]
            else:
                lo, hi = xi(n, k - 1), xi(n, k + 1)
            ev.add({"k": k, "n": n}, hi * hi / (lo * lo), statement.const * c * k * k / Fraction(n) ** statement.power)
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# E8. Lemma B.2, the Fourier gap of majority
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GapBound:
    """Maj_n has a gamma-Fourier gap at every |S| = k with gamma = const (n-1)^{-exponent(k)}, n >= n_min(k)."""

    const: Fraction
    exponent: Callable[[int], Fraction]
    k_parity: str = "any"  # "any" as printed, "even" in the corrected statement
    n_min: Callable[[int], int] = lambda k: 4 * k


def _gap_exhaustive(n: int, k: int, backend: str) -> Fraction:
    """Largest admissible gamma of Definition 5.4 for Maj_n at S = [k], from the exhaustive transform."""
    H = wht(majority_table(n), backend=backend)
    mask = (1 << k) - 1
    minus = [abs(int(H[mask & ~(1 << i)])) for i in range(k)]
    plus = [abs(int(H[mask | (1 << i)])) for i in range(k, n)]
    return Fraction(min(minus) - (max(plus) if plus else 0), 1 << n)


def _h_constant(k: int) -> float:
    """The per-k constant of the proof's last step: sqrt(2 pi) k^{k/2} / ((k-1) e^{k+2})."""
    return math.sqrt(2 * math.pi) * k ** (k / 2) / ((k - 1) * math.e ** (k + 2))


@claim(
    id="thesis_ch5.lemma_B.2",
    source=SOURCE,
    label="Lemma B.2",
    entry="E8",
    title="Majority has a 0.03 (n-1)^{-(k-1)/2} Fourier gap (needs k even)",
    lines=[(3111, 3128)],
    printed=GapBound(Fraction(3, 100), lambda k: Fraction(k - 1, 2)),
    corrected=GapBound(Fraction(3, 100), lambda k: Fraction(k - 1, 2), k_parity="even"),
    mutants=[
        Mutant("constant-0.7", "corrected form with 0.7 instead of 0.03",
               GapBound(Fraction(7, 10), lambda k: Fraction(k - 1, 2), k_parity="even")),
        Mutant("exponent-(k-2)/2", "corrected form with exponent (k-2)/2",
               GapBound(Fraction(3, 100), lambda k: Fraction(k - 2, 2), k_parity="even")),
        Mutant("no-n>=4k", "corrected form without n >= 4k (n >= k + 1)",
               GapBound(Fraction(3, 100), lambda k: Fraction(k - 1, 2), k_parity="even", n_min=lambda k: k + 1)),
    ],
    expect=Status.ERRATUM,
    rigor=Rigor.EXACT,
    params=[
        Param("k_max", int, 2, 40, doc="k = 1..k_max (parity per statement)"),
        Param("n_span", int, 2, 100_000, doc="odd n in [n_min(k), n_min(k) + n_span]"),
        Param("n_exhaustive_max", int, 1, 27, doc="up to this n the gap is evaluated by Definition 5.4 on the exhaustive transform"),
        Param("log10_n_large", int, 3, 6, doc="also n = 10^4 + 1, ..., 10^this + 1"),
    ],
    tiers={"quick": {"k_max": 12, "n_span": 800, "n_exhaustive_max": 17, "log10_n_large": 4},
           "full": {"k_max": 20, "n_span": 3000, "n_exhaustive_max": 21, "log10_n_large": 5}},
    uses_backend=True,
)
def check_majority_gap(statement: GapBound, p, ctx) -> Verdict:
    """Lemma B.2: the Fourier gap of majority.

    Statement
    ---------
    Fix some k and assume n >= 4k.  Then Majority has a gamma_k-Fourier gap (Definition 5.4) at S of
    size k with gamma_k = 0.03 (n-1)^{-(k-1)/2}.

    Hypotheses
    ----------
    n odd (standing).  k is not restricted in the statement; the proof divides by k - 1 and uses
    C((n-1)/2, k/2), i.e. k even.  For odd k both S^- and S^+ have even size, where majority's
    coefficients vanish, so the gap is exactly 0: the printed statement fails for every odd k.

    Source
    ------
    Thesis (seed 004), Lemma B.2 and its proof, lines 3111-3128.

    Checkable form
    --------------
    For k = 1..k_max of the statement's parity and odd n in [n_min(k), n_min(k) + n_span] plus
    n = 10^4 + 1, ..., 10^log10_n_large + 1: the gap |xi_{k-1}| - |xi_{k+1}| (for odd n <= n_exhaustive_max it is
    instead evaluated by Definition 5.4 itself, min over S^- and max over S^+ of the exhaustive
    transform, and must equal the closed form) against const (n-1)^{-exponent(k)}.  The proof's
    constant h(k) = sqrt(2 pi) k^{k/2}/((k-1) e^{k+2}) and the exact minimum of gap * (n-1)^{(k-1)/2}
    are reported in the details.

    Exactness
    ---------
    Exact: the comparison gap >= c (n-1)^{-e} with e a half-integer is made as gap^2 (n-1)^{2e} >= c^2
    in Fractions (both sides positive; a zero or negative gap fails outright).

    Mutants
    -------
    Constant 0.7 fails at (k, n) = (2, 9) (exact ratio 0.663) and (4, 17) (0.6445); exponent (k-2)/2
    first fails at n = 707 for k = 2; without n >= 4k the gap is 0 at n = 2k - 1.
    """
    ev = Evidence("ge", rigor=Rigor.EXACT)
    ks = [k for k in range(1, p["k_max"] + 1) if statement.k_parity == "any" or k % 2 == 0]
    minima = {}
    for k in ks:
        n0 = max(statement.n_min(k), k + 1)
        best = None
        for n in list(_odd_range(n0, n0 + p["n_span"])) + [10**e + 1 for e in range(4, p["log10_n_large"] + 1)]:
            gap = majority_gap(n, k)
            if n <= p["n_exhaustive_max"]:
                ev.add({"k": k, "n": n, "part": "Definition 5.4 on the exhaustive transform = closed form"},
                       _gap_exhaustive(n, k, ctx.backend), gap, relation="eq")
            e2 = statement.exponent(k) * 2
            if e2.denominator != 1:
                raise ValueError("exponent must be a multiple of 1/2")
            lhs = gap * gap * Fraction(n - 1) ** int(e2) if gap > 0 else gap
            ev.add({"k": k, "n": n, "compared": "gap^2 (n-1)^(2e) vs c^2"}, lhs, statement.const**2)
            if gap > 0:
                r = math.sqrt(float(gap * gap * Fraction(n - 1) ** (k - 1)))
                if best is None or r < best[0]:
                    best = (r, n)
        if best:
            minima[k] = {"min gap*(n-1)^((k-1)/2)": round(best[0], 5), "at n": best[1]}
    ev.details["exact minimum of gap * (n-1)^{(k-1)/2} per k (checked range)"] = minima
    ev.details["proof constant h(k) = sqrt(2pi) k^(k/2) / ((k-1) e^(k+2)), even k"] = {
        k: round(_h_constant(k), 5) for k in range(2, 21, 2)
    }
    ev.details["min over even k <= 200 of h(k)"] = round(min(_h_constant(k) for k in range(2, 201, 2)), 5)
    return ev.verdict(backend=ctx.backend)


# ---------------------------------------------------------------------------------------------
# E9. LTF <-> majority identity
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LtfIdentity:
    """LTF_{w,b} = 1/2 + Maj(w . x)/2 for b in the stated interval; LTF^(S) = Maj^(S) chi_S(w)/2, |S| >= 1."""

    b_closed: bool = False  # printed: |b| < 1 (open); a mutant allows |b| <= 1
    n_odd: bool = True  # standing hypothesis
    with_chi: bool = True


@claim(
    id="thesis_ch5.ltf_majority",
    source=SOURCE,
    label="App. B.2.1 (LTF-majority identity)",
    entry="E9",
    title="LTF_{w,b} = 1/2 + Maj(w.x)/2 for |b| < 1, and its Fourier coefficients",
    lines=[(3076, 3088)],
    printed=LtfIdentity(),
    mutants=[
        Mutant("no-chi_S(w)", "LTF^(S) = Maj^(S)/2 (drop chi_S(w))", LtfIdentity(with_chi=False)),
        Mutant("|b|<=1", "allow |b| <= 1 (b = -1 breaks it at w.x = 1)", LtfIdentity(b_closed=True)),
        Mutant("n-even", "drop the standing hypothesis n odd (ties w.x = 0)", LtfIdentity(n_odd=False)),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[Param("n_max", int, 1, 21, doc="n up to this (odd n, or all n when the statement allows)"),
            Param("draws", int, 1, 1000, doc="random sign vectors w per n")],
    tiers={"quick": {"n_max": 11, "draws": 6}, "full": {"n_max": 15, "draws": 20}},
    uses_backend=True,
)
def check_ltf_majority(statement: LtfIdentity, p, ctx) -> Verdict:
    """The LTF-majority identity of App. B.2.1.

    Statement
    ---------
    For w in {±1}^n and |b| < 1: LTF_{w,b}(x) = 1{w.x + b > 0} = 1/2 + (1/2) Maj(w ⊙ x), hence for
    every S with |S| >= 1: LTF^_{w,b}(S) = (1/2) Maj^(S) chi_S(w), and |LTF^| = |Maj^|/2.

    Hypotheses
    ----------
    n odd (standing; for even n the tie set w.x = 0 breaks the identity).

    Source
    ------
    Thesis (seed 004), App. B.2.1, lines 3076-3088.

    Checkable form
    --------------
    For each admissible n <= n_max, seeded random w in {±1}^n and b in {0, ±(1 - 1/j) for j = 2..4,
    two uniform draws in (-1, 1)} plus the endpoints ±1 when the statement allows |b| <= 1: (a) the
    truth tables 2 LTF and 1 + Maj(w ⊙ x) agree at every x (integers); (b) the exact transform of
    2 LTF equals chi_S(w) (H Maj)[S] (or (H Maj)[S] without chi) at every S != {}, where H Maj is the
    transform of the plain majority table, computed separately.

    Exactness
    ---------
    Exact: b is a Fraction and 1{w.x + b > 0} is decided on integers; transforms are int64.

    Mutants
    -------
    Dropping chi_S(w) fails for any w with an odd number of -1 on S; b = -1 makes points with w.x = 1
    inactive (LTF = 0, Maj = 1); even n has ties (n = 2: w.x = 0).
    """
    ev = Evidence("eq", rigor=Rigor.EXACT)
    rng = ctx.rng("w-and-b")
    for n in range(1, p["n_max"] + 1):
        if statement.n_odd and n % 2 == 0:
            continue
        X = sign_vectors(n).astype(np.int64)
        maj_H = wht(majority_table(n), backend=ctx.backend)
        pc = popcounts(n)
        bs = [Fraction(0)] + [s * (1 - Fraction(1, j)) for j in (2, 3, 4) for s in (1, -1)]
        bs += [Fraction(float(rng.uniform(-1, 1))).limit_denominator(10**6) for _ in range(2)]
        if statement.b_closed:
            bs += [Fraction(1), Fraction(-1)]
        for d in range(p["draws"]):
            w = rng.choice(np.array([-1, 1]), size=n)
            wx = X @ w
            # chi_S(w) for every S: w has -1 exactly at the bits of wmask
            wmask = int(sum(1 << i for i in range(n) if w[i] < 0))
            chi_w = 1 - 2 * (pc[np.arange(1 << n) & wmask] & 1)
            maj_wx = np.sign(wx)
            for b in bs:
                ltf2 = 2 * (wx * b.denominator + b.numerator > 0).astype(np.int64)
                bad = np.flatnonzero(ltf2 != 1 + maj_wx)
                x0 = int(bad[0]) if bad.size else 0
                ev.add({"n": n, "draw": d, "b": b, "part": "pointwise", "x": x0}, Fraction(int(ltf2[x0]), 2),
                       Fraction(1 + int(maj_wx[x0]), 2))
                H = wht(ltf2, backend=ctx.backend)
                pred = maj_H * chi_w if statement.with_chi else maj_H
                bad = np.flatnonzero(H[1:] != pred[1:]) + 1
                S = int(bad[0]) if bad.size else 1
                ev.add({"n": n, "draw": d, "b": b, "part": "coefficients", "S": S},
                       Fraction(int(H[S]), 2 << n), Fraction(int(pred[S]), 2 << n))
    return ev.verdict(backend=ctx.backend)
