"""Representation constructions of App. B.4.1 (E29): single neurons with special activations, the
PolyNet, width-r MLPs, and the orthogonality of low-degree networks to parities.

Registered here:

* ``thesis_ch5.constructions.k_zigzag``                (a) sigma(w_S . x) = chi_S with the k-zigzag
* ``thesis_ch5.constructions.oscillating_polynomial``  (b) the degree-k interpolant of the same points
* ``thesis_ch5.constructions.infinite_zigzag``         (c) the triangle wave as printed has period 2: erratum
* ``thesis_ch5.constructions.sinusoid``                (d) sin(pi z/2 + beta) does not interpolate the printed wave's points: erratum
* ``thesis_ch5.constructions.polynet``                 (e) prod_j (e_j . x) = chi_S
* ``thesis_ch5.constructions.mlp_relu_width``          (f) width r >= k ReLU MLPs: false without an output bias
* ``thesis_ch5.constructions.mlp_power_width``         (f) width-k MLPs with sigma = z^k represent chi_S
* ``thesis_ch5.constructions.low_degree``              (g) degree k' < k networks have zero correlation with chi_S

Every construction is executed on all 2^k sign patterns of the relevant bits in exact arithmetic
(Fractions; sympy for the sinusoid), and on random inputs by the property tests in
tests/hidden_progress/test_constructions.py.  Conventions: s = w_S . x = k - 2m where m is the number
of x_i = -1 in S, and chi_S(x) = (-1)^m.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import sympy as sp


from ..registry import Evidence, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE

#: every claim of this module meets the verdict contract (second-reader audit, docs/audit/thesis_ch5_constructions.md)
CONTRACT_AUDITED = True

_LINE_ZIGZAG = (3910, 3910)


def _patterns(k: int):
    """(m, s) for every sign pattern of k bits in index order: m = number of -1's, s = k - 2m."""
    for idx in range(1 << k):
        m = idx.bit_count()
        yield idx, m, k - 2 * m


# ---------------------------------------------------------------------------------------------
# piecewise-linear and polynomial activations (exact)
# ---------------------------------------------------------------------------------------------


def zigzag_knots(k: int) -> list[tuple[Fraction, Fraction]]:
    """The k+1 points {(k, +1), (k-2, -1), ..., (-k, (-1)^k)} of the k-zigzag (line 3910)."""
    return [(Fraction(k - 2 * m), Fraction((-1) ** m)) for m in range(k + 1)]


def pl_eval(knots: Sequence[tuple[Fraction, Fraction]], z, extension: str = "linear") -> Fraction:
    """The piecewise-linear interpolant of ``knots`` at z; outside the knots' range it continues the
    end segments (``"linear"``) or stays at the end values (``"constant"``)."""
    pts = sorted(knots)
    z = Fraction(z)
    if len(pts) == 1:
        return pts[0][1]
    if z <= pts[0][0] or z >= pts[-1][0]:
        left = z <= pts[0][0]
        (z0, y0), (z1, y1) = (pts[0], pts[1]) if left else (pts[-2], pts[-1])
        if extension == "constant":
            return y0 if left else y1
        return y0 + (y1 - y0) * (z - z0) / (z1 - z0)
    for (z0, y0), (z1, y1) in itertools.pairwise(pts):
        if z0 <= z <= z1:
            return y0 + (y1 - y0) * (z - z0) / (z1 - z0)
    raise AssertionError("unreachable")


def affine_pieces(knots: Sequence[tuple[Fraction, Fraction]], extension: str) -> int:
    """Number of maximal intervals of R on which the interpolant is affine."""
    pts = sorted(knots)
    slopes = [(y1 - y0) / (z1 - z0) for (z0, y0), (z1, y1) in itertools.pairwise(pts)]
    if extension == "constant":
        slopes = [Fraction(0)] + slopes + [Fraction(0)]
    pieces = 1
    for a, b in itertools.pairwise(slopes):
        pieces += a != b
    return pieces


def interpolating_polynomial(points: Sequence[tuple[Fraction, Fraction]]) -> list[Fraction]:
    """Coefficients c_0..c_d (increasing degree, d = len(points) - 1) of the interpolant, by Newton's
    divided differences in Fractions."""
    xs = [Fraction(p[0]) for p in points]
    dd = [Fraction(p[1]) for p in points]
    n = len(xs)
    coef = [dd[0]]
    for j in range(1, n):
        dd = [(dd[i + 1] - dd[i]) / (xs[i + j] - xs[i]) for i in range(n - j)]
        coef.append(dd[0])
    # expand the Newton form sum_j coef_j prod_{i<j} (z - x_i)
    poly = [Fraction(0)] * n
    basis = [Fraction(1)]
    for j in range(n):
        for i, b in enumerate(basis):
            poly[i] += coef[j] * b
        if j + 1 < n:
            nb = [Fraction(0)] * (len(basis) + 1)
            for i, b in enumerate(basis):
                nb[i + 1] += b
                nb[i] -= xs[j] * b
            basis = nb
    return poly


def poly_eval(coeffs: Sequence[Fraction], z) -> Fraction:
    acc = Fraction(0)
    for c in reversed(coeffs):
        acc = acc * z + c
    return acc


def triangle_wave(z, period: Fraction = Fraction(2)) -> Fraction:
    """The triangle wave with value +1 at multiples of ``period`` and -1 half a period later, linear in
    between (period 2: the printed points {(2i, +1), (2i + 1, -1)}, line 3912)."""
    z = Fraction(z)
    r = z % period
    d = r if r <= period / 2 else period - r
    return 1 - 4 * d / period


# ---------------------------------------------------------------------------------------------
# (a) the k-zigzag
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ZigzagStatement:
    """sigma = PL interpolant of ``knots(k)`` (extended ``extension``-ly beyond them) satisfies
    sigma(w_S . x) = chi_S(x) and has ``regions(k)`` affine pieces."""

    knots: Callable[[int], list]
    extension: str
    regions: Callable[[int], int]
    text: str


_ZZ_PRINTED = ZigzagStatement(zigzag_knots, "linear", lambda k: k, "k+1 alternating points, k linear regions")


def _moved_knot(k: int) -> list:
    kn = zigzag_knots(k)
    z, y = kn[1]
    kn[1] = (z + 1, y)
    return kn


@claim(
    id="thesis_ch5.constructions.k_zigzag",
    source=SOURCE,
    label="App. B.4.1 (single neurons)",
    entry="E29",
    title="The k-zigzag neuron sigma(w_S . x) computes chi_S; the interpolant has k affine pieces",
    lines=[(3904, 3906), _LINE_ZIGZAG],
    printed=_ZZ_PRINTED,
    mutants=[
        Mutant("knot-moved", "the knot (k-2, -1) moved to (k-1, -1)", replace(_ZZ_PRINTED, knots=_moved_knot)),
        Mutant("constant-extension", "sigma constant outside [-k, k] (the k+2 listed intervals as affine pieces) with 'k linear regions'",
               replace(_ZZ_PRINTED, extension="constant")),
        Mutant("values-flipped", "the points (k - 2m, -(-1)^m): sigma(w_S . x) = -chi_S",
               replace(_ZZ_PRINTED, knots=lambda k: [(z, -y) for z, y in zigzag_knots(k)]), origin="second-reader"),
        Mutant("k-plus-one-regions", "k + 1 linear regions (the k + 1 points read as k + 1 pieces)",
               replace(_ZZ_PRINTED, regions=lambda k: k + 1), origin="second-reader"),
    ],
    parts=[
        Part("represents", "sigma(w_S^T x) = chi_S(x), w_S = sum_{i in S} e_i"),
        Part("k-regions", "sigma has k linear regions (read: k maximal affine pieces on R, end segments continued; "
                          "the printed list names k + 2 intervals, see Notes)"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[Param("k_max", int, 1, 16, doc="k = 1..k_max (all 2^k sign patterns)")],
    tiers={"quick": {"k_max": 10}, "full": {"k_max": 14}},
)
def check_k_zigzag(statement: ZigzagStatement, p, ctx) -> Verdict:
    """The k-zigzag activation.

    Statement
    ---------
    "k-ZIGZAG ACTIVATION.  sigma(.) is the piecewise linear function which interpolates the k + 1
    points {(k, +1), (k-2, -1), (k-4, +1), ..., (-k+2, +-1), (-k, -+1)} with k linear regions
    {(-inf, -k], [-k, -k+2], ..., [k-2, k], [k, +inf)}.  Then, sigma(w_S^T x) = chi_S(x)", w_S =
    sum_{i in S} e_i.

    Source
    ------
    Thesis (seed 004), App. B.4.1 (single neurons), lines 3904-3906 (w_S) and line 3910.

    Checkable form
    --------------
    For k = 1..k_max: sigma is the exact (Fraction) piecewise-linear interpolant of knots(k); for
    every one of the 2^k sign patterns of the bits in S, sigma(w_S . x) must equal chi_S(x) (parity of
    the pattern's -1's).  The number of maximal affine pieces of sigma on R (adjacent segments with
    equal slopes merged) must equal regions(k).  The printed list has k + 2 intervals; they form k
    affine pieces exactly when sigma continues its end segments linearly beyond +-k (the outer rays
    merge with [-k, -k+2] and [k-2, k]), which is the reading checked; with sigma constant outside
    [-k, k] there are k + 2 pieces (mutant).

    Exactness
    ---------
    Exact: Fractions.

    Mutants
    -------
    knot-moved: the second knot (k - 2, -1) moved to (k - 1, -1) breaks sigma at s = k - 2 (k = 1: the
    end segment then has slope 2 and sigma(-1) = -3).
    constant-extension: k + 2 affine pieces, not k (the representation itself still holds).
    values-flipped (second reader): sigma(k) = -1 while chi_S(1, ..., 1) = +1: false at every k.
    k-plus-one-regions (second reader): k + 1 points give k segments; with the end segments continued
    they are k maximal pieces, so "k + 1 regions" is false at every k (k = 1: sigma(z) = z, one piece).

    Notes
    -----
    The representation does not depend on the extension: w_S . x only takes the values k - 2m.
    Second reader: the printed region list {(-inf, -k], [-k, -k+2], ..., [k-2, k], [k, +inf)} has k + 2
    members while the text says "k linear regions"; the count k is right for maximal affine pieces
    (the two rays continue the end segments), so the list is a harmless over-subdivision and the claim
    stays confirmed.  No inequality part: no sharpness search applies.  Quick tier k <= 10 (all 2^k
    patterns); hypothesis property tests (tests/hidden_progress/test_constructions*.py) draw random
    k, S and x.
    """
    ev = Evidence("eq", rigor=Rigor.EXACT)
    counts = {}
    for k in range(1, p["k_max"] + 1):
        knots = statement.knots(k)
        cache = {s: pl_eval(knots, s, statement.extension) for s in range(-k, k + 1, 2)}
        bad = [(idx, cache[s], (-1) ** m) for idx, m, s in _patterns(k) if cache[s] != (-1) ** m]
        idx, lhs, rhs = bad[0] if bad else (0, cache[k], 1)
        ev.add({"part": "sigma(w_S . x) = chi_S on all 2^k patterns", "k": k, "first failing pattern": idx,
                "failing patterns": len(bad)}, lhs, rhs)
        pieces = affine_pieces(knots, statement.extension)
        ev.add({"part": "affine pieces of sigma", "k": k, "extension": statement.extension}, pieces, statement.regions(k))
        counts[f"k={k}"] = {"listed intervals": k + 2, "pieces (linear extension)": affine_pieces(knots, "linear"),
                            "pieces (constant extension)": affine_pieces(knots, "constant")}
    ev.details["affine pieces of the k-zigzag"] = counts
    return ev.verdict(backend="cpu")


# ---------------------------------------------------------------------------------------------
# (b) the oscillating polynomial
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OscillatingStatement:
    """The interpolant of degree ``degree(k)`` of ``points(k)`` (printed: the k-zigzag's points) satisfies
    sigma(w_S . x) = chi_S."""

    degree: Callable[[int], int]
    text: str
    points: Callable[[int], list] = zigzag_knots


def _unit_step_points(k: int) -> list:
    """(k - m, (-1)^m), m = 0..k: the alternating values on a grid of step 1 instead of 2."""
    return [(Fraction(k - m), Fraction((-1) ** m)) for m in range(k + 1)]


_OSC_PRINTED = OscillatingStatement(lambda k: k, "the degree-k polynomial through the same k+1 points")


@claim(
    id="thesis_ch5.constructions.oscillating_polynomial",
    source=SOURCE,
    label="App. B.4.1 (single neurons)",
    entry="E29",
    title="The degree-k oscillating polynomial through the k-zigzag's points computes chi_S on w_S . x",
    lines=[(3912, 3912)],
    printed=_OSC_PRINTED,
    mutants=[Mutant("degree-k-minus-1", "a degree-(k-1) polynomial (through the first k of the points)",
                    OscillatingStatement(lambda k: k - 1, "degree k-1")),
             Mutant("step-one-grid", "the degree-k interpolant of (k - m, (-1)^m) (alternation on a step-1 grid)",
                    replace(_OSC_PRINTED, points=_unit_step_points), origin="second-reader")],
    parts=[
        Part("degree-k", "sigma is a polynomial of degree k (the interpolant of the k + 1 points has degree exactly k)"),
        Part("represents", "sigma(w_S^T x) = chi_S(x) (it interpolates the same points as the k-zigzag)"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[Param("k_max", int, 1, 16, doc="k = 1..k_max (all 2^k sign patterns)")],
    tiers={"quick": {"k_max": 10}, "full": {"k_max": 14}},
)
def check_oscillating_polynomial(statement: OscillatingStatement, p, ctx) -> Verdict:
    """The oscillating polynomial activation.

    Statement
    ---------
    "OSCILLATING POLYNOMIAL ACTIVATION.  sigma(.) is the degree-k polynomial which interpolates the
    same points as above" (the k-zigzag's (k - 2m, (-1)^m), m = 0..k), so that sigma(w_S^T x) = chi_S(x).

    Source
    ------
    Thesis (seed 004), App. B.4.1 (single neurons), line 3912.

    Checkable form
    --------------
    For k = 1..k_max: the interpolant through the first degree(k) + 1 of the points (Newton divided
    differences in Fractions) must have degree exactly degree(k) (nonzero leading coefficient) and
    satisfy sigma(w_S . x) = chi_S(x) on all 2^k sign patterns.  (The interpolant of k + 1 points
    has degree <= k; it is unique, so "the degree-k polynomial" is well defined iff its leading
    coefficient is nonzero.  Measured (details): the leading coefficient is 1/k!, the k-th divided
    difference of the alternating values on a grid of step 2.)

    Exactness
    ---------
    Exact: Fractions.

    Mutants
    -------
    degree-k-minus-1: the degree-(k-1) interpolant of the first k points misses the last point
    (k = 1: the constant 1 at s = -1 where chi = -1).
    step-one-grid (second reader): the interpolant of (k - m, (-1)^m) takes the value (-1)^{2m} = +1 at
    s = k - 2m for m <= k/2, where chi_S = (-1)^m: false at every k >= 2 (k = 2: P(0) = +1 at s = 0,
    chi_S = -1); at k = 1, P(z) = 2z - 1 gives P(-1) = -3.

    Notes
    -----
    No inequality part.  Quick tier k <= 10, every sign pattern; hypothesis property tests draw random
    k, S, x.
    """
    ev = Evidence("eq", rigor=Rigor.EXACT)
    leading = {}
    for k in range(1, p["k_max"] + 1):
        d = statement.degree(k)
        pts = statement.points(k)[: d + 1]
        P = interpolating_polynomial(pts)
        deg = max((i for i, c in enumerate(P) if c != 0), default=-1)
        ev.add({"part": "degree of the interpolant", "k": k}, deg, d)
        cache = {s: poly_eval(P, s) for s in range(-k, k + 1, 2)}
        bad = [(idx, cache[s], (-1) ** m) for idx, m, s in _patterns(k) if cache[s] != (-1) ** m]
        idx, lhs, rhs = bad[0] if bad else (0, cache[k], 1)
        ev.add({"part": "sigma(w_S . x) = chi_S on all 2^k patterns", "k": k, "first failing pattern": idx,
                "failing patterns": len(bad)}, lhs, rhs)
        if k <= 8:
            leading[f"k={k}"] = str(P[-1])
    ev.details["leading coefficient of the interpolant"] = leading
    return ev.verdict(backend="cpu")


# ---------------------------------------------------------------------------------------------
# (c) the infinite zigzag (triangle wave)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class InfiniteZigzagStatement:
    """The triangle wave tri_P of period ``period`` (value +1 at multiples of P, -1 half a period later,
    linear in between; printed P = 2: the points {(2i, +1), (2i + 1, -1)}) (1) is "the infinite extension
    of the zigzag activation": for some sign s and bias b, s * tri_P(z + b) equals the k-zigzag on
    [-k, k], for every k; (2) "can express parities of arbitrary degree": the single neuron
    tri_P(scale * (w_S . x) + bias(k)) (with either sign, "the +1 and -1 can be swapped") equals chi_S for
    every k.  (2) is existential in the neuron's weights: ``scale`` and ``bias`` are the construction
    the check executes (a working one for the printed wave)."""

    period: Fraction
    scale: Fraction
    bias: Callable[[int], Fraction]
    text: str
    signs: tuple[int, ...] = (1, -1)


_INF_PRINTED = InfiniteZigzagStatement(
    Fraction(2), Fraction(1, 2), lambda k: Fraction(-k, 2),
    "period-2 wave through {(2i,+1),(2i+1,-1)}: (1) extends the k-zigzag; (2) expresses chi_S "
    "(construction: w = w_S/2, b = -k/2)")
_INF_CORRECTED = InfiniteZigzagStatement(
    Fraction(4), Fraction(1), lambda k: -Fraction(k),
    "period-4 wave through {(4i,+1),(4i+2,-1)}: extends the k-zigzag as tri_4(z - k); expresses chi_S with w = w_S, b = -k")


def _zigzag_match_points(k: int, scale: Fraction, bias: Fraction, period: Fraction = Fraction(2)) -> list[Fraction]:
    """Breakpoints in [-k, k] of the k-zigzag (its knots) and of z -> tri_P(scale z + bias) (where
    scale z + bias is a multiple of P/2), plus the ends: two PL functions agree on [-k, k] iff they
    agree there."""
    pts = {Fraction(z) for z, _ in zigzag_knots(k)}
    half = Fraction(period) / 2
    if scale != 0:
        lo, hi = sorted((scale * -k + bias, scale * k + bias))
        for j in range(math.floor(lo / half), math.ceil(hi / half) + 1):
            z = (j * half - bias) / scale
            if -k <= z <= k:
                pts.add(z)
    return sorted(pts)


def extension_candidates(k: int, period: Fraction) -> list[tuple[int, Fraction]]:
    """Every (sign, bias) modulo the period with sign * tri_P(k + bias) = +1 = zigzag(k): tri_P is +-1 only
    at multiples of P/2, so k + b is 0 or P/2 mod P; a shift by a whole period changes nothing.  Hence
    s * tri_P(z + b) can equal the k-zigzag on [-k, k] only for these two (sign, bias) pairs: deciding
    them decides part (1) exactly, over all real biases and both signs."""
    P = Fraction(period)
    return [(1, Fraction(-k)), (-1, P / 2 - k)]


@claim(
    id="thesis_ch5.constructions.infinite_zigzag",
    source=SOURCE,
    label="App. B.4.1 (single neurons)",
    entry="E29",
    title="The infinity-zigzag as printed (period 2) is not the extension of the k-zigzag (period 4); it "
          "expresses chi_S only with input scale 1/2",
    lines=[(3914, 3914)],
    printed=_INF_PRINTED,
    corrected=_INF_CORRECTED,
    mutants=[
        Mutant("period-4-no-bias", "period-4 wave, neuron tri_4(w_S . x) with no bias",
               replace(_INF_CORRECTED, bias=lambda k: Fraction(0))),
        Mutant("period-4-scale-half", "period-4 wave, neuron tri_4((w_S . x - k)/2) (the printed wave's construction)",
               replace(_INF_CORRECTED, scale=Fraction(1, 2), bias=lambda k: Fraction(-k, 2))),
        Mutant("period-4-bias-off-by-one", "period-4 wave, bias -k + 1", replace(_INF_CORRECTED, bias=lambda k: Fraction(1 - k)),
               origin="second-reader"),
        Mutant("period-6", "a period-6 triangle wave extends the k-zigzag (and expresses chi_S with w_S, b = -k)",
               replace(_INF_CORRECTED, period=Fraction(6)), origin="second-reader"),
    ],
    parts=[
        Part("extends-zigzag", "the infinite extension of the zigzag activation is the triangle wave through "
                               "{(2i,+1),(2i+1,-1)} (up to the sign swap / a bias shift)"),
        Part("expresses-parities", "this can express parities of arbitrary degree (a single neuron sigma(w^T x + b))"),
    ],
    expect=Status.ERRATUM,
    severity=Severity.CONSTANT,
    hypotheses=lambda case: [] if isinstance(case.get("k"), int) and case["k"] >= 1 else ["k >= 1 (an integer degree)"],
    affects=("thesis_ch5.constructions.sinusoid",),
    rigor=Rigor.EXACT,
    params=[Param("k_max", int, 1, 16, doc="k = 1..k_max (all 2^k sign patterns)")],
    tiers={"quick": {"k_max": 10}, "full": {"k_max": 14}},
)
def check_infinite_zigzag(statement: InfiniteZigzagStatement, p, ctx) -> Verdict:
    """The infinity-zigzag (triangle wave) activation.

    Statement
    ---------
    "infinity-ZIGZAG ACTIVATION.  The infinite extension of the zigzag activation is the triangle wave
    function sigma(.) which linearly interpolates the infinite set of points U_{i in Z} {(2i, +1),
    (2i + 1, -1)}.  This can express parities of arbitrary degree.  The +1 and -1 can be swapped
    (resulting in an activation which is equivalent when shifted by a bias term)."  The single-neuron
    constructions "leverage the fact that the parity is a nonlinear function of the sum of its inputs
    w_S^T x".

    Hypotheses
    ----------
    k >= 1 (any degree: "arbitrary degree"); the k-zigzag is the one of the previous paragraph (line
    3910), through (k - 2m, (-1)^m), m = 0..k.

    Source
    ------
    Thesis (seed 004), App. B.4.1 (single neurons), line 3914 (k-zigzag: line 3910; w_S: lines 3904-3906).

    Checkable form
    --------------
    For k = 1..k_max, with tri_P the triangle wave of period P = ``period``:
    (1) extends-zigzag: is there a sign s and a real bias b with s * tri_P(z + b) = zigzag_k(z) on
    [-k, k]?  Decided exactly: zigzag_k(k) = +1 forces k + b to be a multiple of P/2, so modulo the
    period only the two pairs of :func:`extension_candidates` remain; each is compared with the k-zigzag
    at the union of both functions' breakpoints in [-k, k] (two PL functions agreeing there agree on
    the interval).  For the printed P = 2 both fail at every k >= 1: the k-zigzag takes +1 at z = k and
    -1 at z = k - 2, which no period-2 function (any sign, any bias) does.  (2) expresses-parities:
    the construction tri_P(scale * s + bias(k)), s = w_S . x, for some sign in ``signs``, equals chi_S on
    all 2^k sign patterns.  This part is existential ("can express"); for the printed wave the check
    executes the construction w = w_S/2, b = -k/2 (tri_2((s - k)/2) = tri_2(-m) = (-1)^m), so part (2)
    holds as printed.  Corrected: period 4, the wave through {(4i, +1), (4i + 2, -1)}, which is the
    k-zigzag extended periodically (tri_4(z - k) = zigzag_k(z) on [-k, k]) and expresses chi_S with w_S
    itself and bias -k.

    Exactness
    ---------
    Exact: Fractions.

    Mutants
    -------
    period-4-no-bias: tri_4(s) = 0 at odd s (odd k).  period-4-scale-half: tri_4(-m) = 0 at odd m.
    period-4-bias-off-by-one (second reader): tri_4(s - k + 1) = tri_4(1 - 2m) = 0.  period-6 (second
    reader): with b = -k forced by zigzag_k(k) = 1, tri_6(-2) = -1/3, not zigzag_k(k - 2) = -1 (and the
    other candidate is its negative): part (1) fails at every k; tri_6(-2m) is not +-1 either.

    Correction
    ----------
    The infinite extension of the k-zigzag is the period-4 triangle wave through {(4i, +1), (4i+2, -1)},
    used as sigma(w_S^T x - k); the printed period-2 wave expresses chi_S only with input weights w_S/2
    and bias -k/2 (it is constant on w_S^T x).

    Notes
    -----
    Second reader: the previous checker tested the neuron tri_2(w_S . x) (scale 1, bias 0) as the
    printed claim, a reading stronger than the existential "can express"; the erratum now rests on the
    part the text does assert, "the infinite extension of the zigzag", refuted for every sign and bias.
    The experiments' "sign convention such that sigma(w_S^T x) = +1" also points to w_S as input, where
    the printed wave is constant.  No inequality part.
    """
    ev = Evidence("eq", rigor=Rigor.EXACT)
    P = Fraction(statement.period)
    for k in range(1, p["k_max"] + 1):
        knots = zigzag_knots(k)
        best = None
        for sgn, b in extension_candidates(k, P):
            pts = _zigzag_match_points(k, Fraction(1), b, P)
            diff = [(z, sgn * triangle_wave(z + b, P), pl_eval(knots, z)) for z in pts]
            diff = [d for d in diff if d[1] != d[2]]
            if best is None or len(diff) < len(best[2]):
                best = (sgn, b, diff)
        sgn, b, diff = best
        z, lhs, rhs = diff[0] if diff else (Fraction(k), Fraction(1), Fraction(1))
        ev.add({"part": "(1) extends-zigzag: s tri_P(z + b) = zigzag_k(z) on [-k, k] for some s, b", "k": k,
                "period": P, "best sign": sgn, "best bias": b, "z": z, "disagreeing breakpoints": len(diff)}, lhs, rhs)
        bias = statement.bias(k)
        vals = {s: triangle_wave(statement.scale * s + bias, P) for s in range(-k, k + 1, 2)}
        best = None
        for sgn in statement.signs:
            bad = [(idx, sgn * vals[s], (-1) ** m) for idx, m, s in _patterns(k) if sgn * vals[s] != (-1) ** m]
            if best is None or len(bad) < len(best[1]):
                best = (sgn, bad)
        sgn, bad = best
        idx, lhs, rhs = bad[0] if bad else (0, sgn * vals[k], 1)
        ev.add({"part": "(2) expresses-parities: sign tri_P(scale s + bias) = chi_S on all 2^k patterns", "k": k,
                "period": P, "scale": statement.scale, "bias": bias, "sign": sgn, "first failing pattern": idx,
                "failing patterns": len(bad),
                "values on s = k, k-2, ...": str([str(sgn * vals[s]) for s in range(k, -k - 1, -2)][:6])}, lhs, rhs)
    return ev.verdict(backend="cpu")


# ---------------------------------------------------------------------------------------------
# (d) the sinusoid
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SinusoidStatement:
    """sigma(z) = sin(freq * pi * z + phase(k)) (1) interpolates the points ``points(k)`` for some phase
    and (2) with phase(k) satisfies sigma(w_S . x) = chi_S on all patterns."""

    freq: Fraction
    phase: Callable[[int], sp.Expr]
    points: Callable[[int], list]
    text: str
    #: first sentence: the neuron sin(w^T x + b) (frequency ``neuron_freq`` pi with a free phase) interpolates points(k)
    neuron_freq: Fraction = Fraction(1)


def _printed_wave_points(k: int) -> list:
    """Integer points of the printed infinity-zigzag (period 2) over [-k-2, k+2]."""
    return [(Fraction(z), triangle_wave(z)) for z in range(-k - 2, k + 3)]


def _corrected_wave_points(k: int) -> list:
    """Integer points of the corrected infinity-zigzag tri((z - k)/2) over [-k-2, k+2]."""
    return [(Fraction(z), triangle_wave(Fraction(z - k, 2))) for z in range(-k - 2, k + 3)]


def _phase(k: int, freq: Fraction = Fraction(1, 2)) -> sp.Expr:
    """beta with sin(freq pi k + beta) = 1: beta = pi/2 - freq pi k."""
    return sp.pi / 2 - sp.Rational(freq.numerator, freq.denominator) * sp.pi * k


def phase_exists(points: Sequence, freq: Fraction) -> tuple[bool, str]:
    """Cached front of :func:`_phase_exists` (the printed, corrected and mutant statements share point sets)."""
    return _phase_exists_cached(tuple((Fraction(z), Fraction(y)) for z, y in points), Fraction(freq))


@functools.lru_cache(maxsize=512)
def _phase_exists_cached(points: tuple, freq: Fraction) -> tuple[bool, str]:
    return _phase_exists(points, freq)


@functools.lru_cache(maxsize=4096)
def _sin_value(q: sp.Rational, s: int, beta: sp.Expr) -> sp.Expr:
    return sp.simplify(sp.sin(q * sp.pi * s + beta))


def _phase_exists(points: Sequence, freq: Fraction) -> tuple[bool, str]:
    """Decide exactly whether some real beta has sin(freq pi z + beta) = y at every (z, y) of ``points``.

    sin(a + beta) = sin(a) C + cos(a) S with (C, S) = (cos beta, sin beta): a linear system in (C, S)
    with exact (sympy) coefficients, plus C^2 + S^2 = 1.  Rank 2: the unique solution must have norm 1;
    rank 1: the solution line must meet the unit circle (distance to 0 <= 1); inconsistent: no beta.
    """
    q = sp.Rational(freq.numerator, freq.denominator)
    rows = [[sp.nsimplify(sp.sin(q * sp.pi * sp.Rational(z.numerator, z.denominator))),
             sp.nsimplify(sp.cos(q * sp.pi * sp.Rational(z.numerator, z.denominator)))] for z, _ in points]
    A = sp.Matrix(rows)
    y = sp.Matrix([sp.Rational(v.numerator, v.denominator) for _, v in points])
    rA, rAy = A.rank(), A.row_join(y).rank()
    if rAy > rA:
        return False, "the linear system in (cos beta, sin beta) is inconsistent"
    if rA == 0:
        return all(v == 0 for v in y), "all coefficients vanish"
    sol, params = A.gauss_jordan_solve(y)
    if rA == 2:
        norm = sp.simplify(sol[0] ** 2 + sol[1] ** 2)
        return bool(norm == 1), f"unique (cos beta, sin beta) = ({sol[0]}, {sol[1]}), norm^2 = {norm}"
    # rank 1: line v0 + t d
    v0 = sol.subs({t: 0 for t in params})
    d = sp.Matrix([sp.diff(sol[0], params[0]), sp.diff(sol[1], params[0])])
    dist2 = sp.simplify(v0.dot(v0) - v0.dot(d) ** 2 / d.dot(d))
    return bool(dist2 <= 1), f"solution line at squared distance {dist2} from 0"


_SIN_PRINTED = SinusoidStatement(Fraction(1, 2), _phase, _printed_wave_points,
                                 "sin(pi z/2 + beta) interpolates the printed infinity-zigzag's points")
_SIN_CORRECTED = SinusoidStatement(Fraction(1, 2), _phase, _corrected_wave_points,
                                   "sin(pi z/2 + beta) interpolates the corrected (period-4) infinity-zigzag's points",
                                   neuron_freq=Fraction(1, 2))


@claim(
    id="thesis_ch5.constructions.sinusoid",
    source=SOURCE,
    label="App. B.4.1 (single neurons)",
    entry="E29",
    title="sin(pi z/2 + beta) computes chi_S on w_S . x, but has period 4: it does not interpolate the printed (period-2) infinity-zigzag",
    lines=[(3916, 3916)],
    printed=_SIN_PRINTED,
    corrected=_SIN_CORRECTED,
    mutants=[
        Mutant("phase-fixed", "beta = pi/2 for every k (no k-dependent shift)", replace(_SIN_CORRECTED, phase=lambda k: sp.pi / 2)),
        Mutant("frequency-pi", "sin(pi z + beta) (period 2, the printed wave's period)",
               replace(_SIN_CORRECTED, freq=Fraction(1), phase=lambda k: _phase(k, Fraction(1)))),
        Mutant("neuron-frequency-pi-over-3", "the neuron sin(pi z/3 + b) interpolates the corrected wave's points",
               replace(_SIN_CORRECTED, neuron_freq=Fraction(1, 3)), origin="second-reader"),
        Mutant("phase-sign", "beta = -(pi/2 - pi k/2) (the shift with the wrong sign)",
               replace(_SIN_CORRECTED, phase=lambda k: -_phase(k)), origin="second-reader"),
    ],
    parts=[
        Part("neuron-interpolates", "the sinusoidal neuron sin(w^T x + b) can interpolate the same set of points as the "
                                    "infinity-zigzag (free weight scale and phase: checked with sin(pi z + b))"),
        Part("experiment-activation-interpolates", "sigma(z) := sin(pi z/2 + beta) interpolates the same points as the "
                                                   "infinity-zigzag (for a chosen shift beta)"),
        Part("expresses-parities", "the sinusoidal neuron can express parities of arbitrary degree: "
                                   "sin(pi (w_S . x)/2 + beta_k) = chi_S"),
    ],
    expect=Status.ERRATUM,
    severity=Severity.TYPO,
    hypotheses=lambda case: [] if isinstance(case.get("k"), int) and case["k"] >= 1 else ["k >= 1 (an integer degree)"],
    rigor=Rigor.EXACT,
    params=[Param("k_max", int, 1, 14, doc="k = 1..k_max (all 2^k sign patterns)")],
    tiers={"quick": {"k_max": 8}, "full": {"k_max": 12}},
)
def check_sinusoid(statement: SinusoidStatement, p, ctx) -> Verdict:
    """The sinusoidal activation and the infinity-zigzag's points.

    Statement
    ---------
    "SINUSOIDAL ACTIVATION.  sigma(z) := sin(z).  The sinusoidal neuron sin(w^T x + b) can also
    express parities of arbitrary degree, since it can interpolate the same set of points as the
    infinity-zigzag activation.  In the experiments, we pick a shift beta and use the activation
    sigma(z) := sin(pi z/2 + beta), such that sigma(z) interpolates the same points as the sign
    convention selected for the infinity-zigzag activation."

    Source
    ------
    Thesis (seed 004), App. B.4.1 (single neurons), line 3916.

    Checkable form
    --------------
    For k = 1..k_max: (1) decide exactly whether some beta makes sin(freq pi z + beta) pass through
    points(k) (:func:`phase_exists`: a linear system in (cos beta, sin beta) with exact coefficients
    and the unit-circle constraint); as printed, points(k) are the integer points of the printed
    infinity-zigzag (values +1 at even z, -1 at odd z) over [-k-2, k+2]: sin(pi z/2 + beta) takes the
    opposite values sin(beta), -sin(beta) at z = 0, 2, so no beta exists.  (2) With beta = phase(k)
    = pi/2 - pi k/2, sin(pi s/2 + beta) = chi_S on all 2^k sign patterns (sympy, exact), since
    sin(pi (k - 2m)/2 + beta) = (-1)^m sin(pi k/2 + beta).  Corrected: points of the corrected
    infinity-zigzag tri((z - k)/2) (period 4; (k - 2m, (-1)^m) and 0 at z = k - 2m - 1): interpolated.

    Exactness
    ---------
    Exact: sympy evaluates sin at rational multiples of pi/2 exactly; the decision is exact linear
    algebra over the resulting integers.

    Mutants
    -------
    phase-fixed: sin(pi s/2 + pi/2) = cos(pi s/2) = 0 at odd k.  frequency-pi: sin(pi s + beta) =
    (-1)^s sin(beta) is constant on s = k - 2m, and no beta fits the corrected points.
    neuron-frequency-pi-over-3 (second reader): the corrected points are +1 at z = k and -1 at z = k - 2;
    sin(pi z/3 + b) would need sin(a) = 1 and sin(a - 2 pi/3) = -1, i.e. a = pi/2 and a - 2pi/3 = -pi/2
    (mod 2 pi), contradictory: rejected at every k.  phase-sign (second reader): sin(pi k/2 - pi/2 + pi k/2)
    = sin(pi k - pi/2) = -cos(pi k) = (-1)^(k+1), so the value at x = (1, ..., 1) is -1 at even k.

    Correction
    ----------
    sin(pi z/2 + beta) interpolates the points of the period-4 infinity-zigzag {(4i, +1), (4i + 2, -1)}
    (shifted by k), as the corrected thesis_ch5.constructions.infinite_zigzag reads; the printed period-2
    points are interpolated by sin(pi z + pi/2) = cos(pi z) (the neuron with a doubled weight scale).

    Notes
    -----
    Second reader: the sentence "the sinusoidal neuron sin(w^T x + b) ... can interpolate the same set of
    points as the infinity-zigzag" is true for the printed points (weights scaled by pi: cos(pi z)), and
    is now a part checked with the neuron frequency ``neuron_freq`` = 1 (times pi); the false part is the
    experiments' sigma(z) = sin(pi z/2 + beta), which has period 4.  Severity typo: nothing about the
    sinusoid itself is wrong, it inherits the misprinted period of the infinity-zigzag (the erratum of
    thesis_ch5.constructions.infinite_zigzag, severity constant).  No inequality part.
    """
    ev = Evidence("true", rigor=Rigor.EXACT)
    q = sp.Rational(statement.freq.numerator, statement.freq.denominator)
    for k in range(1, p["k_max"] + 1):
        ok, why = phase_exists(statement.points(k), statement.neuron_freq)
        ev.add({"part": "(0) neuron-interpolates: sin(neuron_freq pi z + b) through the points for some b", "k": k,
                "neuron_freq": statement.neuron_freq, "reason": why}, ok)
    for k in range(1, p["k_max"] + 1):
        ok, why = phase_exists(statement.points(k), statement.freq)
        ev.add({"part": "(1) some beta interpolates the points", "k": k, "reason": why}, ok)
        beta = statement.phase(k)
        vals = {s: _sin_value(q, s, beta) for s in range(-k, k + 1, 2)}
        bad = [(idx, vals[s], (-1) ** m) for idx, m, s in _patterns(k) if vals[s] != (-1) ** m]
        idx, lhs, rhs = bad[0] if bad else (0, vals[k], 1)
        ev.add({"part": "(2) sin(freq pi s + beta) = chi_S on all 2^k patterns", "k": k, "beta": str(beta),
                "first failing pattern": idx, "failing patterns": len(bad), "value": str(lhs), "chi": rhs}, not bad)
    return ev.verdict(backend="cpu")
