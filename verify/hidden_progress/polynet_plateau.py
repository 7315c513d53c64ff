"""Disjoint-PolyNets under gradient flow, part 2: the error bounds of Lemma B.9 (E22), the plateau of
Corollary B.10 (E23) and the main-text form of Theorem 5.7 (E24).

The reference quantity is the exact error of a disjoint-PolyNet (kernels.boolean.polynet: a product formula
over the blocks; kernels.boolean.polynet_tails: the same for ±1 irrelevant weights as an exact step function of
the relevant weight, with its level-crossing values).  Lemma B.8's gradient flow from |v_i(0)| = 1
keeps every |v_i| equal to (1 - (k-2) t)^{-1/(k-2)}, so crossing times are exact rationals.

Conventions for the plateau times (seed lines 1035 and 3496):

* main text (Theorem 5.7): T(eps) = the first time with err <= eps, read as inf{t >= 0 : err(t) <= eps};
* Corollary B.10: T(alpha) = sup{t >= 0 : err(t) >= alpha}.  Taken literally T(0) = sup{t : err >= 0} is
  the blow-up time T_inf = 1/(k-2) (err >= 0 always), which is also the value the proof uses.

err(t) is piecewise constant with isolated upward spikes at the instants where v(t) hits a lattice
value of the block sum (ties: a zero output counts as an error), so the two conventions differ exactly
there; the checks below say which one they use and report the other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

import mpmath
import numpy as np

from kernels.boolean.polynet import block_sums, disjoint_polynet_error, disjoint_polynet_error_exhaustive
from kernels.boolean.polynet_tails import pm1_tail_counts

from ..registry import Evidence, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True

__all__ = [
    "C0",
    "implied_lb_constant",
    "lemma_b9_bounds",
    "mp_fraction",
    "pm1_grid",
]

DPS = 50
"""Working precision (decimal digits) of every irrational quantity (erf, exp, square roots, pi)."""

UNDECIDED = Fraction(1, 10**40)
"""A comparison whose two sides (evaluated at DPS = 50 digits) differ by less than this relative amount
is refused (RuntimeError) rather than decided: the 50-digit values carry relative errors < 1e-45."""

FLOAT_MARGIN = 1e-9
"""Float-route crossing decisions need |err - level| > this on every scanned step (float error < 1e-13),
else the exact route is used (m <= MAX_EXACT_M) or the check refuses."""

C0 = Fraction(56, 100)
"""Berry-Esseen constant for sums of independent, non-identically distributed summands (Shevtsova 2010:
C0 <= 0.5600); the proof of Lemma B.9 names "c (which in practice can be .56)"."""


def mp_fraction(x) -> Fraction:
    """The exact rational value of an mpmath number (its binary mantissa and exponent)."""
    x = mpmath.mpf(x)
    if not mpmath.isfinite(x):
        raise ValueError(f"argument 'x' must be finite, not {x}")
    sign, man, exp, _ = x._mpf_  # value = (-1)^sign man 2^exp (mpmath's raw representation)
    value = Fraction(int(man)) * (Fraction(2) ** int(exp)) if man else Fraction(0)
    return -value if sign else value


def _mp(q) -> mpmath.mpf:
    q = Fraction(q)
    return mpmath.mpf(q.numerator) / q.denominator


def _guard(lhs: Fraction, rhs: Fraction, what: str) -> None:
    diff = abs(lhs - rhs)
    scale = max(abs(lhs), abs(rhs))
    if diff != 0 and diff < UNDECIDED * scale:
        raise RuntimeError(f"{what}: the two sides agree to 40 digits ({float(lhs)!r} vs {float(rhs)!r}); "
                           "the 50-digit evaluation cannot decide the comparison")


# =============================================================================================
# E22. Lemma B.9
# =============================================================================================


@dataclass(frozen=True)
class ErrorBounds:
    """LB(w) <= err(w) <= UB(w) for disjoint-PolyNets with prod_i v_i > 0.

    LB = 1/2 - 1/2 prod_i (erf(|v_i|/(||u_i||_2 sqrt 2)) + e_i) with the Berry-Esseen term
      lb_form "printed":       e_i = c ||u_i||_inf / ||u_i||_2^3, c = lb_const (None: "there is a
                               constant c", tested at the proof's c = 0.56 and at c = c_max);
      lb_form "berry-esseen":  e_i = lb_factor C0 ||u_i||_3^3 / ||u_i||_2^3.
    UB = ub_factor sum_i exp(-ub_scale |v_i|^2 / ||u_i||_2^2).
    prod_positive: the hypothesis prod_i v_i > 0 (False: instances with prod v_i < 0 are included).
    """

    lb_form: str
    lb_const: Fraction | None
    lb_factor: int = 2
    ub_factor: Fraction = Fraction(2)
    ub_scale: Fraction = Fraction(1)
    prod_positive: bool = True
    #: a factor on the whole lower bound (1 as printed; near-boundary mutants strengthen it)
    lb_scale: Fraction = Fraction(1)


_B9_PRINTED = ErrorBounds("printed", None)
_B9_CORRECTED = ErrorBounds("berry-esseen", C0, lb_factor=2, ub_scale=Fraction(1, 2))


def _block_err(k: int, N: int, W: int, Z: int, sign: int) -> Fraction:
    """Exact err of k equal blocks (counts W = #{A < -v}, Z = #{A = -v} out of N), sign = sign(prod v)."""
    Nk = N**k
    return Fraction(2 * Nk - (N - Z) ** k - sign * (N - Z - 2 * W) ** k, 2 * Nk)


def pm1_grid(m: int, dense_max: int = 256) -> list[tuple[Fraction, int, int]]:
    """The v grid of Lemma B.9's ±1-weight check: (v, W, Z) with W = #{A < -v}, Z = #{A = -v} of 2^m.

    v runs over the lattice levels a of A (every level for m <= dense_max; all a <= 64 and about 96
    geometrically spaced levels up to m otherwise), each as a tie (v = a > 0), just above it
    (v = a + 1/64) and between lattice points (v = a + 1); plus v = 1/64 (below the first positive level).
    """
    levels, W, Z = pm1_tail_counts(m)
    if m > dense_max:
        geo = {int(x) for x in np.geomspace(64, m, 96)}
        keep = [i for i, a in enumerate(levels) if a <= 64 or a in geo or a + 1 in geo or i == len(levels) - 1]
    else:
        keep = list(range(len(levels)))
    out = []
    if levels[0] == 1:  # m odd: (0, 1) has Pr[A < -v] = Pr[A <= -1]
        out.append((Fraction(1, 64), W[0] + Z[0], 0))
    for i in keep:
        a = levels[i]
        if a > 0:
            out.append((Fraction(a), W[i], Z[i]))
        out.append((a + Fraction(1, 64), W[i], 0))
        out.append((Fraction(a + 1), W[i], 0))
    return out


def _log_fraction(x: Fraction) -> float:
    """log of a positive rational with huge numerator/denominator (-inf for 0)."""
    return math.log(x.numerator) - math.log(x.denominator) if x > 0 else -math.inf


@dataclass
class _Rows:
    """Statement-independent data of one family of cases: per position j, k = 1..5 blocks.

    v[i][j] (Fraction), sq2[i], cube3[i], inf[i] (exact norms of block i), vf / x / q: float64 arrays
    (v, erf(v/(||u|| sqrt 2)), v^2/||u||^2) of shape (blocks, positions); err[(k, sign)]: exact Fractions
    per position, with float64 values ef and logs el.
    """

    v: list
    sq2: list
    cube3: list
    inf: list
    x: np.ndarray
    q: np.ndarray
    err: dict
    ef: dict
    el: dict


def _finish_rows(v, sq2, cube3, inf, err) -> _Rows:
    from scipy.special import erf

    vf = np.array([[float(t) for t in row] for row in v])
    sig = np.sqrt(np.array([float(t) for t in sq2]))[:, None]
    x = erf(vf / (sig * math.sqrt(2.0)))
    q = vf * vf / (sig * sig)
    ef = {key: np.array([float(e) for e in vals]) for key, vals in err.items()}
    el = {key: np.array([_log_fraction(e) for e in vals]) for key, vals in err.items()}
    return _Rows(v, sq2, cube3, inf, x, q, err, ef, el)


@lru_cache(maxsize=64)
def _pm1_rows(m: int, dense_max: int = 256) -> _Rows:
    """±1 weights, block size m, all k blocks equal: the v grid of :func:`pm1_grid` with exact errors."""
    grid = pm1_grid(m, dense_max)
    N = 1 << m
    err = {(k, s): [_block_err(k, N, W, Z, s) for _, W, Z in grid] for k in range(1, 6) for s in (1, -1)}
    vs = [v for v, _, _ in grid]
    return _finish_rows([vs] * 5, [Fraction(m)] * 5, [Fraction(m)] * 5, [Fraction(1)] * 5, err)


def _gauss_block(rng: np.random.Generator, m: int) -> np.ndarray:
    """m Gaussian weights rounded to multiples of 2^-16 (every block sum is then exact in float64)."""
    return np.round(rng.standard_normal(m) * 65536.0) / 65536.0


@lru_cache(maxsize=16)
def _gauss_rows(m_max: int, draws: int, seed: int) -> tuple:
    """Statement-independent data of the Gaussian-weight check (enumeration of all 2^m block sums).

    For m = 1..m_max and each draw: 5 independent blocks u_1..u_5 with exact norms; v_i at 21 quantile
    positions of each block's support of |A_i| (ties) and just above them (+2^-20), plus one v beyond the
    support; per position the exact err of the first k blocks (k = 1..5; sign(prod v) = -1 by negating v_1).
    """
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    out = []
    for m in range(1, m_max + 1):
        N = 1 << m
        for d in range(draws):
            v, tails, sq2, cube3, inf = [], [], [], [], []
            for _ in range(5):
                u = _gauss_block(rng, m)
                while not np.any(u):  # all weights rounded to 0 (probability < 1e-5 at m = 1)
                    u = _gauss_block(rng, m)
                sums = block_sums(u)
                support = np.unique(np.abs(sums))
                support = support[support > 0]
                idx = sorted({round(q * (len(support) - 1)) for q in np.linspace(0, 1, 21)})
                vs = []
                for i in idx:
                    vs += [float(support[i]), float(support[i]) + 2.0**-20]
                vs.append(float(support[-1]) + 1.0)
                lo = np.searchsorted(sums, -np.array(vs), side="left")
                hi = np.searchsorted(sums, -np.array(vs), side="right")
                v.append([Fraction(t) for t in vs])
                tails.append([(Fraction(int(a), N), Fraction(int(b - a), N)) for a, b in zip(lo, hi)])
                fu = [Fraction(float(t)) for t in u]
                sq2.append(sum(t * t for t in fu))
                cube3.append(sum(abs(t) ** 3 for t in fu))
                inf.append(max(abs(t) for t in fu))
            err = {}
            for k in range(1, 6):
                err[(k, 1)] = [disjoint_polynet_error([v[i][j] for i in range(k)], [tails[i][j] for i in range(k)])
                               for j in range(len(v[0]))]
                err[(k, -1)] = [disjoint_polynet_error([-v[0][j]] + [v[i][j] for i in range(1, k)],
                                                       [tails[i][j] for i in range(k)]) for j in range(len(v[0]))]
            out.append((m, d, _finish_rows(v, sq2, cube3, inf, err)))
    return tuple(out)


def _be_terms(statement: ErrorBounds, c, rows: _Rows) -> list[tuple[Fraction, int]]:
    """The Berry-Esseen term e_i of each block (exact rational up to the square root: returned as
    (numerator, power of ||u||_2) so that both float and 50-digit evaluations are possible)."""
    if statement.lb_form == "printed":
        return [(Fraction(c) * rows.inf[i], 3) for i in range(5)]
    return [(statement.lb_factor * Fraction(statement.lb_const) * rows.cube3[i], 3) for i in range(5)]


def _lb_worst(statement, c, rows: _Rows, k: int, sign: int):
    """max_j (LB_j - err_j) for the first k blocks: (margin, j, lhs, rhs) with lhs/rhs as floats, or as
    exact rationals of 50-digit values where the float margin is below 1e-12."""
    terms = _be_terms(statement, c, rows)
    prod = np.ones(rows.x.shape[1])
    for i in range(k):
        num, pw = terms[i]
        prod = prod * (rows.x[i] + float(num) / float(rows.sq2[i]) ** (pw / 2))
    lb = (0.5 - 0.5 * prod) * float(statement.lb_scale)
    ef = rows.ef[(k, sign)]
    margin = lb - ef
    lhs = list(lb)
    rhs = list(ef)
    for j in np.flatnonzero(np.abs(margin) <= 1e-12):
        with mpmath.workdps(DPS):
            pr = mpmath.mpf(1)
            for i in range(k):
                num, pw = terms[i]
                sig = mpmath.sqrt(_mp(rows.sq2[i]))
                pr *= mpmath.erf(_mp(rows.v[i][j]) / (sig * mpmath.sqrt(2))) + _mp(num) / sig**pw
            lhs[j] = mp_fraction((mpmath.mpf(1) / 2 - pr / 2) * _mp(statement.lb_scale))
        rhs[j] = rows.err[(k, sign)][j]
        _guard(lhs[j], rhs[j], f"LB at position {j}, k={k}")
        margin[j] = float(lhs[j] - rhs[j]) if lhs[j] != rhs[j] else 0.0
    j = int(np.argmax(margin))
    return margin[j], j, lhs[j], rhs[j]


def _ub_worst(statement, rows: _Rows, k: int, sign: int):
    """max_j log(err_j / UB_j) for the first k blocks: (margin, j, err as float, log UB).

    Float64 in the log domain (logsumexp: UB itself underflows deep in the tail); where |margin| <= 1e-9
    the log ratio is recomputed at 50 digits from the exact err.
    """
    from scipy.special import logsumexp

    log_ub = math.log(float(statement.ub_factor)) + logsumexp(-float(statement.ub_scale) * rows.q[:k], axis=0)
    el = rows.el[(k, sign)]
    margin = el - log_ub
    for j in np.flatnonzero(np.abs(margin) <= 1e-9):
        with mpmath.workdps(DPS):
            ub = _mp(statement.ub_factor) * mpmath.fsum(
                mpmath.exp(-_mp(statement.ub_scale) * _mp(rows.v[i][j]) ** 2 / _mp(rows.sq2[i])) for i in range(k))
            ratio = rows.err[(k, sign)][j] / mp_fraction(ub)
            _guard(ratio, Fraction(1), f"UB at position {j}, k={k}")
            margin[j] = float(mpmath.log(_mp(ratio)))
    j = int(np.argmax(margin))
    return float(margin[j]), j, float(rows.ef[(k, sign)][j]), float(log_ub[j])


_WORST_CACHE: dict = {}


def _memo_worst(kind: str, params: tuple, rows: _Rows, k: int, sign: int, compute):
    """Memoise _lb_worst / _ub_worst within a process: their result depends on the statement only through
    ``params`` (several statements share their LB or their UB), and ``rows`` are the cached rows of a family
    (kept alive by the key's stored reference, so its id cannot be reused while the entry exists)."""
    key = (kind, params, id(rows), k, sign)
    hit = _WORST_CACHE.get(key)
    if hit is not None and hit[0] is rows:
        return hit[1]
    if len(_WORST_CACHE) > 50_000:
        _WORST_CACHE.clear()
    out = compute()
    _WORST_CACHE[key] = (rows, out)
    return out


def lemma_b9_bounds(statement: ErrorBounds, c, blocks: list[dict], k: int):
    """(LB, UB) of Lemma B.9 for the first k blocks as mpmath numbers (at the caller's precision).

    Each block is ``{"v": Fraction, "sq2": ||u||_2^2, "cube3": ||u||_3^3, "inf": ||u||_inf}`` (exact
    rationals); ``c`` is the constant of the printed form (ignored by the Berry-Esseen form).
    """
    prod = mpmath.mpf(1)
    ub = mpmath.mpf(0)
    for b in blocks[:k]:
        sigma = mpmath.sqrt(_mp(b["sq2"]))
        v = abs(_mp(b["v"]))
        x = mpmath.erf(v / (sigma * mpmath.sqrt(2)))
        if statement.lb_form == "printed":
            e = _mp(c) * _mp(b["inf"]) / sigma**3
        else:
            e = statement.lb_factor * _mp(C0 if statement.lb_const is None else statement.lb_const) * _mp(b["cube3"]) / sigma**3
        prod *= x + e
        ub += mpmath.exp(-_mp(statement.ub_scale) * v * v / _mp(b["sq2"]))
    return mpmath.mpf(1) / 2 - prod / 2, _mp(statement.ub_factor) * ub


def implied_lb_constant(err: Fraction, k: int, x, t) -> mpmath.mpf | None:
    """Smallest c with 1/2 - 1/2 (x + c t)^k <= err for k equal blocks (None when every c >= 0 works).

    The printed lower bound holds at c iff (x + c t)^k >= 1 - 2 err, i.e. c >= ((1 - 2 err)^{1/k} - x)/t.
    """
    r = 1 - 2 * err
    if r <= 0:
        return None
    need = (mpmath.root(_mp(r), k) - x) / t
    return need if need > 0 else None


def _lb_constants(statement: ErrorBounds, c_max: float) -> list:
    if statement.lb_form != "printed":
        return [None]
    if statement.lb_const is not None:
        return [statement.lb_const]
    return [C0, Fraction(c_max).limit_denominator(10**6)]


@lru_cache(maxsize=8)
def _formula_cases(n_max: int, seed: int) -> tuple:
    """Exact product formula vs exhaustive evaluation on the cube (statement-independent)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    out = []
    for kind in ("gauss", "pm1", "int"):
        for k in range(1, 6):
            sizes = sorted({1, 2, max(1, n_max // k)} & set(range(1, n_max // k + 1)))
            for n_prime in sizes:
                if kind == "gauss":
                    W = [_gauss_block(rng, n_prime) for _ in range(k)]
                    # force a tie in block 1: its relevant weight = one of its block sums
                    if n_prime > 1:
                        W[0][0] = abs(block_sums(W[0][1:])[0]) or W[0][0]
                elif kind == "pm1":
                    W = [rng.choice([-1.0, 1.0], size=n_prime) for _ in range(k)]
                else:
                    W = [rng.integers(-3, 4, size=n_prime).astype(float) for _ in range(k)]
                tails = []
                for w in W:
                    sums = block_sums(w[1:])
                    v = abs(float(w[0]))
                    lo = int(np.searchsorted(sums, -v, side="left"))
                    hi = int(np.searchsorted(sums, -v, side="right"))
                    tails.append((Fraction(lo, len(sums)), Fraction(hi - lo, len(sums))))
                formula = disjoint_polynet_error([Fraction(float(w[0])) for w in W], tails)
                cube = Fraction(disjoint_polynet_error_exhaustive(W))
                out.append(({"part": "A formula = exhaustive", "weights": kind, "k": k, "n'": n_prime,
                             "v": [float(w[0]) for w in W]}, cube, formula))
    return tuple(out)


def _pm1_m_values(m_max: int) -> list[int]:
    small = list(range(1, min(m_max, 40) + 1))
    big = [int(x) for x in np.geomspace(48, m_max, 12)] if m_max > 40 else []
    return sorted(set(small + [m for m in big if m <= m_max] + [m_max]))


def _b9_hypotheses(case) -> list[str]:
    """Printed hypotheses of Lemma B.9 a case violates: prod_i v_i > 0, k >= 1 blocks, u_i != 0 (m >= 1).
    A lower-bound case refutes only its own c (the printed c is existential), so it is flagged."""
    bad = []
    if int(case.get("sign(prod v)", 0)) != 1:
        bad.append("prod_i v_i > 0")
    if int(case.get("k", 0)) < 1 or int(case.get("m", 0)) < 1:
        bad.append("k >= 1, n' >= 2 (u_i != 0)")
    if "LB" in str(case.get("part", "")) and case.get("c") not in (None, "-"):
        bad.append("'there is a constant c': a case at one c refutes only that c")
    return bad


@claim(
    id="thesis_ch5.lemma_B.9",
    source=SOURCE,
    label="Lemma B.9",
    entry="E22",
    title="Exact disjoint-PolyNet error vs the erf/Berry-Esseen lower bound and the Hoeffding upper bound",
    lines=[(3427, 3490)],
    printed=_B9_PRINTED,
    corrected=_B9_CORRECTED,
    mutants=[
        Mutant("lb-printed-c=0.56", "corrected UB with the printed LB term 0.56 ||u||_inf/||u||_2^3",
               replace(_B9_CORRECTED, lb_form="printed", lb_const=C0)),
        Mutant("lb-one-sided-BE", "Berry-Esseen term C0 ||u||_3^3/||u||_2^3 (one-sided: factor 2 dropped)",
               replace(_B9_CORRECTED, lb_factor=1)),
        Mutant("ub-exponent-as-printed", "corrected LB with the printed UB 2 sum exp(-v^2/||u||^2)",
               replace(_B9_CORRECTED, ub_scale=Fraction(1))),
        Mutant("ub-exponent-doubled", "UB 2 sum exp(-2 v^2/||u||^2) (the printed exponent doubled)",
               replace(_B9_CORRECTED, ub_scale=Fraction(2))),
        Mutant("no-prod-v>0", "corrected bounds without the hypothesis prod_i v_i > 0",
               replace(_B9_CORRECTED, prod_positive=False)),
        Mutant("lb-x1.00001", "corrected LB times 1.00001, just beyond its sharpness 0.9999973 (m = 200, k = 5, "
               "v = 1/64: err ~ 1/2 and LB within 3e-6 of it); rejected there",
               replace(_B9_CORRECTED, lb_scale=Fraction(100001, 100000)), near_boundary=True, part="lower"),
        Mutant("ub-factor-0.8", "corrected UB with the factor 2 -> 0.8 (x 0.4), just beyond its sharpness 0.412 "
               "(m = 1, k = 1, v = 1: err = 1/2, UB = 2 e^{-1/2}); rejected there",
               replace(_B9_CORRECTED, ub_factor=Fraction(4, 5)), near_boundary=True, part="upper"),
        Mutant("ub-union-factor-1", "corrected UB without the factor 2 and with the printed exponent: sum_i exp(-v_i^2/||u_i||^2)",
               replace(_B9_CORRECTED, ub_factor=Fraction(1), ub_scale=Fraction(1)), origin="second-reader"),
    ],
    parts=[
        Part("lower", "there is a constant c with 1/2 - 1/2 prod_i (erf(|v_i|/(||u_i||_2 sqrt 2)) + c ||u_i||_inf/||u_i||_2^3) "
             "<= err(w), for prod_i v_i > 0", inequality=True),
        Part("upper", "err(w) <= 2 sum_i exp(-|v_i|^2/||u_i||_2^2), for prod_i v_i > 0", inequality=True),
    ],
    severity=Severity.SUBSTANTIVE,
    affects=("thesis_ch5.cor_B.10", "thesis_ch5.thm_5.7", "thesis_ch5.thm_5.7.full", "thesis_ch5.thm_5.8"),
    hypotheses=lambda case: _b9_hypotheses(case),
    expect=Status.ERRATUM,
    rigor=Rigor.FLOAT,
    params=[
        Param("n_exhaustive_max", int, 2, 22, doc="part A: n = k n' up to this, formula vs exhaustive cube"),
        Param("m_pm1_max", int, 8, 4096, doc="part B: ±1 weights, block sizes m = 1..40 and geometric up to this"),
        Param("m_gauss_max", int, 1, 20, doc="part C: Gaussian weights, block sizes m = 1..this (2^m sums each)"),
        Param("gauss_draws", int, 1, 10, doc="part C: draws per block size"),
        Param("c_max", float, 1.0, 10_000.0, doc="printed LB: unspecified c tested at 0.56 and at c_max"),
    ],
    tiers={
        "quick": {"n_exhaustive_max": 14, "m_pm1_max": 200, "m_gauss_max": 5, "gauss_draws": 1, "c_max": 100.0},
        "full": {"n_exhaustive_max": 20, "m_pm1_max": 2048, "m_gauss_max": 20, "gauss_draws": 2, "c_max": 1000.0},
    },
)
def check_lemma_b9(statement: ErrorBounds, p, ctx) -> Verdict:
    """Lemma B.9: erf/Berry-Esseen lower bound and Hoeffding upper bound on the exact PolyNet error.

    Statement
    ---------
    Let w be weights of a disjoint-PolyNet with prod_i v_i > 0 and u_i = w_{i,2:n'} the irrelevant part
    of block i.  There is a constant c such that
    1/2 - 1/2 prod_i (erf(|v_i|/(||u_i||_2 sqrt 2)) + c ||u_i||_inf/||u_i||_2^3) <= err(w)
    <= 2 sum_i exp(-|v_i|^2/||u_i||_2^2).

    Hypotheses
    ----------
    prod_i v_i > 0; sign(0) = 0 (a zero output is an error).  "There is a constant c" (the proof: "c
    (which in practice can be .56)", the Berry-Esseen constant) is read as: one universal c for all w.

    Source
    ------
    Thesis (seed 004), Appendix B.2.3, Lemma B.9 and its proof, lines 3427-3490.

    Checkable form
    --------------
    (A) The exact error, err = 1 - (1/2) prod(1 - p_z,i) - (1/2) sign(prod v) prod(1 - p_z,i - 2 p_w,i)
    (kernels.boolean.polynet, p_w = Pr[A_i < -|v_i|], p_z = Pr[A_i = -|v_i|]), equals the exhaustive evaluation of
    sign f over the cube for n = k n' <= n_exhaustive_max, k = 1..5, with dyadic-Gaussian, ±1 and integer
    weights in [-3, 3] (ties and zero weights included), compared exactly.
    (B) ±1 irrelevant weights, all blocks equal, block sizes m = n' - 1 in 1..40 and geometric up to
    m_pm1_max, v over the whole lattice support of A (ties v = a, v = a + 1/64, v = a + 1, and 1/64),
    k = 1..5: the exact err (binomial counts) against LB and UB; per (m, k) the case recorded is the v
    with the largest LB - err and the v with the largest log(err/UB) (recorded as log(err/UB) <= 0).
    (C) Dyadic-Gaussian weights (N(0,1) rounded to 2^-16), m = 1..m_gauss_max, 5 independent blocks per
    draw, v_i at 21 quantile positions of each block's support of |A_i| (ties and +2^-20) and beyond the
    support: exact err by enumeration of the 2^m sums, against LB and UB for k = 1..5 (worst position
    per (m, draw, k) recorded as in (B)).
    The unspecified c of the printed LB is tested at c = 0.56 (the proof's value) and at c = c_max; LB is
    decreasing in c, so a witness at c_max refutes every c <= c_max.  The details report the implied
    constant c*(m) = the smallest c that makes the printed LB hold at block size m (±1 weights): it grows
    linearly in m (c*(m) ~ 0.78 m), so no universal c exists; any c fails once m > c/0.78.
    The corrected statement replaces the Berry-Esseen term by 2 C0 ||u_i||_3^3/||u_i||_2^3 (C0 = 0.56,
    two-sided) and the Hoeffding exponent by |v_i|^2/(2 ||u_i||_2^2).

    Exactness
    ---------
    err is exact (Fractions; the Gaussian weights are dyadic, so every block sum is exact in float64 and
    the tail counts are exact integers).  The bounds are evaluated in float64: LB = 1/2 - 1/2 prod(erf +
    e_i) with scipy's erf (relative error ~1e-16) has absolute error < 1e-13 (the product is at most
    (1 + 2.24)^5), and every comparison with |LB - err| <= 1e-12 is redone at 50 digits (mpmath, from the
    exact v and norms) and compared as exact rationals; UB is compared in the log domain (log err from
    the exact rational, log UB by logsumexp: UB underflows deep in the tail), absolute error < 1e-12, and
    every |log(err/UB)| <= 1e-9 is redone at 50 digits.  A 50-digit comparison whose sides agree to 40
    digits is refused (RuntimeError; never happened).  Rigor "float" for the transcendental side.

    Mutants
    -------
    lb-printed-c=0.56 (printed LB term at the proof's c) fails at m = 2, v = 1/64, k = 1 (LB = 0.397 >
    err = 1/4); lb-one-sided-BE fails at m = 2 (Pr[A = 0] = 1/2 > erf(~0) + 0.56/sqrt 2);
    ub-exponent-as-printed (the printed UB) fails at m = 3, v = 3 (err = 1/8 > 2 e^{-3}) and off the ties
    from m = 9 on (v = 8: err = 2^-9 > 2 e^{-64/9}); ub-exponent-doubled fails at m = 1, v = 1;
    no-prod-v>0 fails the UB (err >= 1/2 when prod v < 0).
    Near-boundary: lb-x1.00001 (part lower) and ub-factor-0.8 (part upper), each a factor just beyond
    the sharpness found (below).  Second reader: ub-union-factor-1 (sum_i exp(-v_i^2/||u_i||^2), i.e. the
    union bound with the printed exponent) is false: at m = 1, v = 1, k = 1 (a tie), err = 1/2 > e^{-1}
    (exact); rejected by the UB part.

    Sharpness
    ---------
    Search: the whole lattice support of the block sum for +-1 weights (every tie, just above it,
    between lattice points; m up to m_pm1_max, k = 1..5 equal blocks: the proof's extremal case of
    equal blocks) and quantile positions of Gaussian blocks, the worst v per (m, k) recorded.
    Corrected statement (quick): lower 0.9999973 at m = 200, k = 5, v = 1/64 (tight as v -> 0 and m
    grows: both sides -> 1/2); upper 0.412 at m = 1, k = 1, v = 1 (err = 1/2 vs 2 e^{-1/2}; the UB is
    loose by a factor >= 2.4 everywhere, and deep in the tail by far more).  Printed: upper 2.3e27
    (m = 200, v = 192), lower 1.85 at c = 0.56.

    Correction
    ----------
    err(w) <= 2 sum_i exp(-|v_i|^2/(2 ||u_i||_2^2)) (Hoeffding for Rademacher sums), and err(w) >= 1/2 - 1/2
    prod_i (erf(|v_i|/(||u_i||_2 sqrt 2)) + 2 C0 ||u_i||_3^3/||u_i||_2^3), C0 = 0.56 (two-sided Berry-Esseen).
    Substantive: no universal c works in the printed LB (c*(m) ~ 0.78 m), and the UB's exponent halves,
    which doubles the horizon constant of Theorem 5.8's proof (its final step uses the UB).

    Notes
    -----
    Both printed bounds are false.  The LB's Berry-Esseen term is dimensionally wrong (~m^{-3/2} for
    ±1 weights instead of ~m^{-1/2}).  The UB uses Hoeffding as Pr[A >= t] <= exp(-t^2/||u||^2), but for
    a Rademacher sum the bound is exp(-t^2/(2 ||u||^2)); the printed UB fails at ties (m = 3, v = 3) and
    between lattice points (m = 9, v = 8; m = 200, v = 192 + 1/64, k = 1: err = 8.3e-55 > UB = 1.7e-80).  The proof's (B.12) writes 1 - 2 Pr[u^T z > |v|] = Pr[u^T z <= |v|]; the left side is
    Pr[|u^T z| <= |v|] (details).  The corrected UB holds even without the factor 2 (err <= sum_i
    Pr[A_i >= |v_i|], a union bound): the details count its violations (0).
    Quick tier: a smoke test of the full tier (n <= 20 exhaustive, ±1 blocks up to m = 2048, Gaussian blocks
    m <= 20 with 2 draws) at n <= 14, m <= 200 and Gaussian blocks m <= 5 with 1 draw (m <= 10 until issue 21
    item 3; part (C) decides no mutant: every mutant is rejected on the ±1 blocks of (B)).
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    printed_run = ctx.statement_tag == "printed"
    # (A) exact formula against the cube
    for case, cube, formula in _formula_cases(p["n_exhaustive_max"], ctx.seed("formula")):
        ev.add(case, cube, formula, relation="eq")
    cs = _lb_constants(statement, p["c_max"])
    signs = (1,) if statement.prod_positive else (1, -1)
    cstar: dict[int, float] = {}
    sharp_ub_violations = 0
    printed_ub_off_tie = {"count": 0, "first": None}
    families = [("B ±1", m, None, _pm1_rows(m)) for m in _pm1_m_values(p["m_pm1_max"])]
    families += [("C Gaussian", m, d, rows) for m, d, rows in _gauss_rows(p["m_gauss_max"], p["gauss_draws"], ctx.seed("gauss"))]
    # the upper bound first (it has no existential constant, so its witness refutes the statement outright)
    for part, m, d, rows in families:
        tag = {"m": m} if d is None else {"m": m, "draw": d}
        for k in range(1, 6):
            for sign in signs:
                margin, j, errf, log_ub = _memo_worst(
                    "ub", (statement.ub_factor, statement.ub_scale), rows, k, sign,
                    lambda: _ub_worst(statement, rows, k, sign))
                case = {"part": f"{part} log(err/UB) <= 0", **tag, "k": k, "sign(prod v)": sign,
                        "v_1 (worst)": rows.v[0][j], "err": errf, "log UB": round(log_ub, 6)}
                ev.add(case, margin, 0.0)
                ev.sharpness(case, math.exp(min(margin, 700.0)), part="upper")
    for part, m, d, rows in families:
        tag = {"m": m} if d is None else {"m": m, "draw": d}
        for k in range(1, 6):
            for sign in signs:
                for c in cs:
                    _, j, lhs, rhs = _memo_worst(
                        "lb", (statement.lb_form, statement.lb_const, statement.lb_factor, statement.lb_scale, c), rows, k,
                        sign, lambda: _lb_worst(statement, c, rows, k, sign))
                    ev.add({"part": f"{part} LB <= err", **tag, "k": k, "c": c if c is not None else "-",
                            "sign(prod v)": sign, "v_1 (worst)": rows.v[0][j]}, lhs, rhs, part="lower")
        if printed_run and d is None:
            # implied constant of the printed LB (k equal blocks: c >= ((1 - 2 err)^{1/k} - erf) m^{3/2})
            worst = 0.0
            for k in range(1, 6):
                r = 1 - 2 * rows.ef[(k, 1)]
                need = (np.where(r > 0, np.abs(r) ** (1 / k), 0.0) - rows.x[0]) * m**1.5
                worst = max(worst, float(np.max(np.where(r > 0, need, 0.0))))
                sharp_ub_violations += int(np.sum(rows.el[(k, 1)] > math.log(k) - rows.q[0] / 2 + 1e-9))
            cstar[m] = worst
            off_tie = np.array([not (v.denominator == 1 and (m - v.numerator) % 2 == 0) for v in rows.v[0]])
            for k in range(1, 6):
                bad = off_tie & (rows.el[(k, 1)] > math.log(2 * k) - rows.q[0] + 1e-9)
                if bad.any():
                    printed_ub_off_tie["count"] += int(bad.sum())
                    if printed_ub_off_tie["first"] is None:
                        j = int(np.flatnonzero(bad)[0])
                        printed_ub_off_tie["first"] = {"m": m, "k": k, "v": str(rows.v[0][j]),
                                                       "err": float(rows.ef[(k, 1)][j]),
                                                       "2k exp(-v^2/m)": 2 * k * math.exp(-rows.q[0][j])}
    if printed_run:
        with mpmath.workdps(DPS):
            _b9_details(ev, cstar, sharp_ub_violations, p)
        ev.details["printed UB violated off the ties (v not a lattice value; ±1 grid, k = 1..5)"] = printed_ub_off_tie
    return ev.verdict()


def _b9_details(ev: Evidence, cstar: dict, sharp_ub_violations: int, p) -> None:
    ms = sorted(cstar)
    fit = [m for m in ms if m >= 16 and cstar[m] > 0]
    slope = float(np.polyfit(np.log(fit), np.log([cstar[m] for m in fit]), 1)[0]) if len(fit) >= 3 else math.nan
    ev.details["implied constant c*(m) of the printed LB (±1 weights; smallest valid c at block size m)"] = {
        str(m): round(cstar[m], 4) for m in ms if m <= 10 or m in fit[-8:]}
    ev.details["log-log slope of c*(m), m >= 16"] = round(slope, 4)
    first_fail = {}
    for c in (0.56, 1, 10, 100, 1000):
        bad = [m for m in ms if cstar[m] > c]
        first_fail[str(c)] = bad[0] if bad else f"none up to m = {ms[-1]}"
    ev.details["smallest grid m at which the printed LB fails, per c"] = first_fail
    ev.details["violations of the sharper UB sum_i exp(-v_i^2/(2||u_i||^2)) (±1 grid, no factor 2)"] = sharp_ub_violations
    # (B.12) as printed vs corrected, m = 10
    m = 10
    table = {}
    for v in (Fraction(1, 2), Fraction(2), Fraction(4)):
        p_gt = Fraction(sum(math.comb(m, j) for j in range(m + 1) if m - 2 * j > v), 1 << m)
        p_abs = Fraction(sum(math.comb(m, j) for j in range(m + 1) if abs(m - 2 * j) <= v), 1 << m)
        table[str(v)] = {"1 - 2 Pr[A > v]": str(1 - 2 * p_gt), "Pr[A <= v] (printed)": str(1 - p_gt),
                         "Pr[|A| <= v] (corrected)": str(p_abs)}
    ev.details["(B.12) at m = 10: 1 - 2 Pr[u.z > |v|] vs the printed and corrected readings"] = table
    ev.plots.append({
        "title": "Lemma B.9: implied constant of the printed lower bound (±1 weights)",
        "xlabel": "block size m = n' - 1", "ylabel": "smallest valid c", "logx": True, "logy": True,
        "series": [
            {"label": "c*(m) (exact err, float64 erf)", "x": [m for m in ms if cstar[m] > 0],
             "y": [cstar[m] for m in ms if cstar[m] > 0]},
            {"label": "c = 0.56 (the proof's value)", "x": [ms[0], ms[-1]], "y": [0.56, 0.56], "style": "--"},
            {"label": f"c = c_max = {p['c_max']:g}", "x": [ms[0], ms[-1]], "y": [p["c_max"], p["c_max"]], "style": ":"},
        ],
    })
    # err against v with the bounds, m = 100 (or the largest grid m below), k = 3
    mm = max(x for x in ms if x <= 100)
    rows = _pm1_rows(mm)
    sel = [j for j, v in enumerate(rows.v[0]) if v.denominator == 64]
    xs = [float(rows.v[0][j]) for j in sel]
    err_s = [float(rows.ef[(3, 1)][j]) for j in sel]
    x = rows.x[0][sel]
    q = rows.q[0][sel]
    lbp = list(0.5 - 0.5 * (x + 0.56 / mm**1.5) ** 3)
    lbc = list(0.5 - 0.5 * (x + 1.12 / mm**0.5) ** 3)
    ubp = list(6 * np.exp(-q))
    ubc = list(6 * np.exp(-q / 2))
    keep = [i for i, e in enumerate(err_s) if e > 1e-30]
    ev.plots.append({
        "title": f"Lemma B.9 at m = {mm}, k = 3, ±1 weights (v just above each lattice level)",
        "xlabel": "|v|", "ylabel": "error", "logy": True,
        "series": [
            {"label": "exact err", "x": [xs[i] for i in keep], "y": [err_s[i] for i in keep], "style": "-"},
            {"label": "printed UB 2k exp(-v^2/m)", "x": [xs[i] for i in keep], "y": [ubp[i] for i in keep], "style": "--"},
            {"label": "corrected UB 2k exp(-v^2/(2m))", "x": [xs[i] for i in keep], "y": [ubc[i] for i in keep], "style": "-."},
            {"label": "printed LB (c = 0.56), where > 0", "x": [xs[i] for i in keep if lbp[i] > 0],
             "y": [lbp[i] for i in keep if lbp[i] > 0], "style": ":"},
            {"label": "corrected LB, where > 0", "x": [xs[i] for i in keep if lbc[i] > 0],
             "y": [lbc[i] for i in keep if lbc[i] > 0], "style": ":"},
        ],
    })
