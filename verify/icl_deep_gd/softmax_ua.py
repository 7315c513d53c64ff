"""The Softmax extension of seed 001 (Appendix F): the pieces of Lemma 16's universal-approximation proof
(E17), the constant of the cited Lemma 17 (E18), and the bookkeeping of Theorem 6 (E19).

The quantiser pieces are sums of ReLUs evaluated in exact rational arithmetic (Fractions), so the
piecewise formulas (F.5)-(F.11) are compared exactly on grids of z.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy as sp

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True


def _s(x: Fraction) -> Fraction:
    return x if x > 0 else Fraction(0)


def _step_relu(z, t, delta, D, Bx):
    """(F.6) left side: [relu(z/delta - t Bx/(delta D)) - relu(z/delta - Bx - t Bx/(delta D))]/D."""
    return (_s(z / delta - t * Bx / (delta * D)) - _s(z / delta - Bx - t * Bx / (delta * D))) / D


# ---------------------------------------------------------------------------------------------
# E17. Lemma 16
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lemma16Statement:
    middle: Callable  # (z, t, delta, D, Bx) -> the middle case of (F.6)
    last_step_scale: Callable  # Bx -> the factor of the subtracted last step in (F.10)
    f4_const: Fraction = Fraction(1)  # (F.4): ||f(Z) - f(Q(Z))|| <= f4_const L sqrt(dn) Bx / D
    f9_const: Fraction = Fraction(1)  # (F.9): |sum_t step_t(z) - quant_D(z)| <= f9_const B_x / D
    final_num: int = 8  # the final constant L (final_num sqrt(dn) + sqrt(n)) B_x / (2D)


def _middle_printed(z, t, delta, D, Bx):
    return z / (delta * D)


def _middle_corrected(z, t, delta, D, Bx):
    return (z - t * Bx / D) / (delta * D)


def _scale_printed(Bx):
    return Fraction(1)


def _scale_corrected(Bx):
    return Bx


PRINTED16 = Lemma16Statement(_middle_printed, _scale_printed)
CORRECTED16 = Lemma16Statement(_middle_corrected, _scale_corrected)

LEMMA16_PARTS = [
    Part("bound", "there is f_Softmax in T_Softmax with ||f_Softmax(Z) - f(Z)||_2 <= L(8 sqrt(dn) + sqrt(n)) B_x/(2D) for "
         "every Z", asserted=False,
         reason="existential over Softmax transformers whose construction rests on the cited Lemma 17 (no construction "
                "in the seed; delta ~ 1e-480 already at D = 2) and D^{dn} grid cells; the proof also sets aside inputs "
                "whose quantisation repeats a token (l.1351); only the proof's explicit pieces are checkable"),
    Part("quantiser", "(F.5), (F.6), (F.10), (F.11): the ReLU sums equal their piecewise values off the delta-ramps"),
    Part("F9", "(F.9): |sum_t step_t(z) - quant_D(z)| <= B_x/D on [0, B_x]", inequality=True),
    Part("F4", "(F.4): ||f(Z) - f(Q(Z))||_2 <= L sqrt(dn) B_x/D", inequality=True),
    Part("final_constant", "L(6 sqrt(dn) + sqrt(n)) B_x/(2D) + L sqrt(dn) B_x/D = L(8 sqrt(dn) + sqrt(n)) B_x/(2D)"),
]


def _quant(z, D, Bx):
    """quant_D(z) of (F.8): 0 for z < 0, k Bx/D on [(k-1) Bx/D, k Bx/D), Bx from Bx - Bx/D on."""
    if z < 0:
        return Fraction(0)
    k = math.floor(z * D / Bx) + 1
    return min(Fraction(k) * Bx / D, Bx)


_BX16 = (Fraction(1), Fraction(3), Fraction(5, 2))
_D16 = (2, 3, 5)


# Caching: the ReLU sums, the staircase and the F4 draws do not depend on the statement; they are computed once
# (module-level functools.lru_cache, exact Fractions / floats) and re-read by the statement, proof step and mutants.


@functools.lru_cache(maxsize=1)
def _quantiser_tables() -> dict:
    """{(B_x, D): (delta, zs, steps, stair, last, pen)}: steps[t] = ((lo, hi), ((z, step_t(z)), ...)) over zs and the
    ramp point of step t; stair, last, pen: the staircase sum, the (F.10) last step and the (F.11) penalty at each z."""
    out = {}
    for Bx in _BX16:
        for D in _D16:
            delta = Bx / (100 * D)
            zs = tuple(sorted({Fraction(k, 4 * D) * Bx for k in range(-4, 4 * D + 5)} | {Bx * Fraction(2 * D + 1, 2 * D)}))
            steps = []
            for t in range(D):
                lo, hi = t * Bx / D, delta * Bx + t * Bx / D
                steps.append(((lo, hi), tuple((z, _step_relu(z, t, delta, D, Bx)) for z in zs + (lo + (hi - lo) / 3,))))
            stair = tuple(sum(_step_relu(z, t, delta, D, Bx) for t in range(D)) for z in zs)
            last = tuple(_s(z / delta - Bx / delta) - _s(z / delta - 1 - Bx / delta) for z in zs)
            pen = tuple(-Bx * _s((z - Bx) / delta) + Bx * _s((z - Bx) / delta - 1) - Bx * _s(-z / delta) + Bx * _s(-z / delta - 1)
                        for z in zs)
            out[(Bx, D)] = (delta, zs, tuple(steps), stair, last, pen)
    return out


@functools.lru_cache(maxsize=8)
def _final_constant_holds(final_num: int) -> bool:
    Lsym, dsym, nsym, Bsym, Dsym = sp.symbols("L d n B D", positive=True)
    lhs = Lsym * (6 * sp.sqrt(dsym * nsym) + sp.sqrt(nsym)) * Bsym / (2 * Dsym) + Lsym * sp.sqrt(dsym * nsym) * Bsym / Dsym
    rhs = Lsym * (final_num * sp.sqrt(dsym * nsym) + sp.sqrt(nsym)) * Bsym / (2 * Dsym)
    return bool(sp.simplify(lhs - rhs) == 0)


_F4 = (2, 4, 5, 3.0, 1.7)  # d, n, D, B_x, L


@functools.lru_cache(maxsize=4)
def _f4_worst(seed: int, samples: int) -> tuple[float, ...]:
    """The largest ||f(Z) - f(Q(Z))||_2 for f = L Z, L tanh(Z) over ``samples`` uniform Z and one extremal Z (the
    draws of ctx.rng("F4"): np.random.default_rng(np.random.SeedSequence(seed)))."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    d, n, D, Bx, Lc = _F4
    out = []
    for f in (lambda Z: Lc * Z, lambda Z: Lc * np.tanh(Z)):
        worst = 0.0
        for _ in range(samples):
            Z = rng.uniform(0, Bx, size=(d, n))
            Q = np.ceil(Z * D / Bx) * Bx / D
            worst = max(worst, float(np.linalg.norm(f(Z) - f(Q))))
        # the extremal case: every entry just above a lower cell corner, so Q(Z) is a whole cell away
        Z = (rng.integers(0, D, size=(d, n)) * Bx / D) + 1e-9
        Q = np.ceil(Z * D / Bx) * Bx / D
        worst = max(worst, float(np.linalg.norm(f(Z) - f(Q))))
        out.append(worst)
    return tuple(out)


@claim(
    id="seed001.lemma_16_softmax_ua",
    source=SOURCE,
    label="Lemma 16",
    entry="E17",
    title="Quantiser pieces (F.5)-(F.11), the cell error (F.4) and the final constant L(8 sqrt(dn) + sqrt(n)) B_x/(2D)",
    lines=[(1153, 1159), (1249, 1470)],
    printed=CORRECTED16,
    proof_step=PRINTED16,
    corrected=CORRECTED16,
    mutants=[Mutant("(F.4)-half", "(F.4) with the nearest-point constant L sqrt(dn) B_x/(2D)",
                    Lemma16Statement(CORRECTED16.middle, CORRECTED16.last_step_scale, Fraction(1, 2))),
             Mutant("(F.4)-x0.99", "(F.4) times 0.99: Z just above a lower cell corner in every entry puts Q(Z) at "
                    "distance sqrt(dn) B_x/D (1 - 1e-9) (sharpness 1 - O(1e-9))",
                    Lemma16Statement(_middle_corrected, _scale_corrected, Fraction(99, 100)), near_boundary=True,
                    part="F4", origin="second-reader"),
             Mutant("(F.4)-x0.8", "(F.4) with constant 4/5: passes uniform sampling of Z (the old checker reached 0.77 of "
                    "the bound), fails at the extremal corner case (ratio 1 - O(1e-9))",
                    Lemma16Statement(_middle_corrected, _scale_corrected, Fraction(4, 5)), origin="second-reader"),
             Mutant("(F.9)-x0.99", "(F.9) times 0.99: at the start z = t B_x/D of step t's ramp the staircase is t B_x/D "
                    "while quant_D(z) = (t + 1) B_x/D: the lag is exactly B_x/D (sharpness 1)",
                    Lemma16Statement(_middle_corrected, _scale_corrected, f9_const=Fraction(99, 100)), near_boundary=True,
                    part="F9", origin="second-reader"),
             Mutant("final-7", "the final constant with 7 sqrt(dn) (a miscount of the (F.4) term)",
                    Lemma16Statement(_middle_corrected, _scale_corrected, final_num=7), origin="second-reader")],
    expect=Status.PROOF_GAP,
    severity=Severity.CONSTANT,
    affects=("seed001.theorem_6_softmax_icgd",),
    parts=LEMMA16_PARTS,
    rigor=Rigor.EXACT,
    params=[Param("samples", int, 1, 100000)],
    tiers={"quick": {"samples": 300}, "full": {"samples": 5000}},
)
def check_lemma_16(statement: Lemma16Statement, p, ctx) -> Verdict:
    """Lemma 16 (= Lemma 18): universal approximation by Softmax transformers with explicit error.

    Statement
    ---------
    For f: R^{d x n} -> R^{d x n} L-Lipschitz, permutation equivariant, supported on [0, B_x]^{d x n},
    there is f_Softmax in T_Softmax with ||f_Softmax(Z) - f(Z)||_2 <= L(8 sqrt(dn) + sqrt(n)) B_x/(2D).
    Proof pieces: (F.4) ||f(Z) - f(Q(Z))|| <= L sqrt(dn) B_x/D; (F.5) [relu(z/delta) - relu(z/delta - B_x)]/D
    = 0, z/(delta D), B_x/D on z < 0, [0, delta B_x), z >= delta B_x; (F.6) the same shifted by t B_x/D
    with middle case z/(delta D); (F.7)-(F.9) the sum over t is quant_D(z) up to B_x/D; (F.10)
    subtracting relu(z/delta - B_x/delta) - relu(z/delta - 1 - B_x/delta) makes z > B_x map to 0; (F.11)
    the penalty -B_x outside [0, B_x]; the final sum L(6 sqrt(dn) + sqrt(n))B_x/(2D) + L sqrt(dn) B_x/D.

    Source
    ------
    Seed 001, Lemma 16, lines 1153-1159; restated as Lemma 18 with proof, lines 1249-1470 ((F.4) l.1279,
    (F.5)-(F.8) l.1288-1305, (F.9) l.1309, (F.10) l.1319, (F.11) l.1323, final l.1456-1468).

    Checkable form
    --------------
    Exact (Fractions), B_x in {1, 3, 5/2}, D in {2, 3, 5}, delta = B_x/(100 D): the ReLU sums of
    (F.5), (F.6) (t = 0..D-1), (F.10) and (F.11) against their printed piecewise values on a grid of z
    (cell corners, interior points, points just outside [0, B_x], avoiding the delta-ramps where the
    formulas are approximations); (F.9) |sum - quant_D| <= B_x/D; the final constant by sympy.  (F.4)
    on `samples` random Z (d = 2, n = 4, D = 5, B_x = 3) for f(Z) = L Z and f(Z) = L tanh(Z)
    (Frobenius-L-Lipschitz, equivariant), Q(Z) = the upper cell corner; float.

    Exactness
    ---------
    Exact for the quantiser and the constant; (F.4) in float64 with margins far above rounding.

    Mutants
    -------
    (F.4) with the nearest-point constant (1/2) fails for f(Z) = L Z: the distance to the upper
    corner is up to sqrt(dn) B_x/D, about sqrt(dn/3) B_x/D on average.  Second reader: (F.4) x 0.99
    (the extremal Z just above lower corners; the old checker sampled Z uniformly and reached only 0.77
    of the bound, so it accepted (F.4) with constant 4/5, kept as mutant (F.4)-x0.8), (F.9) x 0.99 (at the
    start of each ramp the staircase lags quant_D by exactly B_x/D; the old checker skipped the ramps,
    where (F.9) is claimed too, and reached ratio 0), and a final constant 7 sqrt(dn) (sympy:
    the sum is 8 sqrt(dn)).

    Correction
    ----------
    Proof steps: (F.6)'s middle case is (z - t B_x/D)/(delta D); (F.10) subtracts B_x [relu(z/delta -
    B_x/delta) - relu(z/delta - 1 - B_x/delta)].  With these the pieces, (F.4), (F.9) and the final
    constant all hold; the statement is not refuted.

    Notes
    -----
    Verdict (second reader): proof-gap, not erratum.  Both witnesses are identities of the proof's
    quantiser ((F.6), (F.10)); the statement is an existential bound that the witnesses do not touch,
    and the corrected pieces give the printed constant.  Severity constant (a missing shift and a
    missing factor B_x; the form of the bound survives).  Unasserted: the bound itself (see the part's
    reason), in particular for inputs whose quantisation repeats a token, which the proof sets aside
    (l.1351).  Sharpness (quick): F4 1 - O(1e-9) (extremal corner case), F9 1.0 (exact, ramp start).
    Witnesses: (F.6)'s middle case is (z - t B_x/D)/(delta D), not z/(delta D) (t >= 1); (F.10) leaves
    B_x - 1 for z > B_x (B_x = 3: 2), the subtracted step must be multiplied by B_x.  The proof omits
    inputs whose quantisation has repeated tokens (l.1351), so the bound is proved only off that set.
    """
    ev = Evidence("le", rigor=Rigor.EXACT)
    tables = _quantiser_tables()
    for Bx in _BX16:
        for D in _D16:
            delta, zs, steps, stairs, lasts, pens = tables[(Bx, D)]
            for t, ((lo, hi), vals) in enumerate(steps):
                for z, val in vals:
                    if z < lo:
                        ref = Fraction(0)
                    elif z < hi:
                        ref = statement.middle(z, t, delta, D, Bx)
                    else:
                        ref = Bx / D
                    ev.add({"part": "quantiser (F.5)/(F.6)", "B_x": Bx, "D": D, "t": t, "z": z}, val, ref, relation="eq")
            for z, stair, last, pen in zip(zs, stairs, lasts, pens):
                if 0 <= z <= Bx:  # (F.9) holds on the ramps too; at a ramp's start the lag is exactly B_x/D
                    ev.add({"B_x": Bx, "D": D, "z": z}, abs(stair - _quant(z, D, Bx)), statement.f9_const * Bx / D,
                           part="F9")
                f10 = stair - statement.last_step_scale(Bx) * last
                if z > Bx + delta or z < 0:
                    ev.add({"part": "(F.10) is 0 outside [0, B_x]", "B_x": Bx, "D": D, "z": z}, f10, Fraction(0), relation="eq")
                if z <= -delta or z > Bx + delta or 0 < z <= Bx:
                    ref = Fraction(0) if 0 < z <= Bx else -Bx
                    ev.add({"part": "(F.11) penalty", "B_x": Bx, "D": D, "z": z}, pen, ref, relation="eq")
    ev.add({"part": "final_constant (sympy)"}, _final_constant_holds(statement.final_num), relation="true")
    d, n, D, Bx, Lc = _F4
    for name, worst in zip(("L Z", "L tanh(Z)"), _f4_worst(ctx.seed("F4"), p["samples"])):
        ev.add({"f": name, "d": d, "n": n, "D": D, "B_x": Bx, "L": Lc}, worst,
               float(statement.f4_const) * Lc * math.sqrt(d * n) * Bx / D, part="F4")
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# E18. Lemma 17 (cited)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lemma17Statement:
    threshold_log10: float  # the statement checked: log10(delta) > threshold


def _log10_delta(V: int, n: int, d: int, rmin: float, rmax: float, eps: float) -> float:
    """log10 of Lemma 17's delta = 2 (log n)^2 eps^2 r_min / (r_max^2 (|V|+1)^4 (2 log n + 3) pi d)
    * exp(-(|V|+1)^4 (2 log n + 3) pi d r_max^2 / (4 eps r_min))."""
    a = (V + 1) ** 4 * (2 * math.log(n) + 3) * math.pi * d
    pre = 2 * math.log(n) ** 2 * eps**2 * rmin / (rmax**2 * a)
    return math.log10(pre) - a * rmax**2 / (4 * eps * rmin) / math.log(10)


@claim(
    id="seed001.lemma_17_contextual_mapping",
    source=SOURCE,
    label="Lemma 17",
    entry="E18",
    title="Rank-1 softmax attention is an (r, delta)-contextual mapping (cited; only delta's size is evaluated)",
    lines=[(1206, 1241)],
    printed=Lemma17Statement(-math.inf),
    mutants=[Mutant("float64-representable", "delta is representable in float64 (> 1e-308) already for the coarsest grid",
                    Lemma17Statement(-308.0)),
             Mutant("delta>1e-400", "delta > 1e-400 on the coarsest grids (log10 delta is about -480 at D = 2)",
                    Lemma17Statement(-400.0), origin="second-reader")],
    expect=Status.MECHANISM,
    parts=[Part("contextual_mapping", "one rank-1 single-head softmax attention layer is an (r, delta)-contextual mapping "
                "for token-wise (r_min, r_max, eps)-separated inputs without duplicate tokens", asserted=False,
                reason="cited from Kajitsuka and Sato without proof or construction in the seed; not checkable here"),
           Part("delta", "delta = 2 (log n)^2 eps^2 r_min / (r_max^2 (|V|+1)^4 (2 log n + 3) pi d) exp(-(|V|+1)^4 "
                "(2 log n + 3) pi d r_max^2 / (4 eps r_min)) is positive (finite log10) and decreasing in the grid size D "
                "in Lemma 16's use")],
    kind=Kind.MECHANISM,
    rigor=Rigor.FLOAT,
    params=[Param("max_D", int, 2, 64)],
    tiers={"quick": {"max_D": 8}, "full": {"max_D": 32}},
)
def check_lemma_17(statement: Lemma17Statement, p, ctx) -> Verdict:
    """Defs 12-13 and Lemma 17 (Kajitsuka and Sato): separateness, contextual mapping, rank-1 softmax attention.

    Statement
    ---------
    For sequences without duplicate tokens that are token-wise (r_min, r_max, eps)-separated there are
    rank-1 W^(O), V, K, Q such that one single-head softmax attention layer is an (r, delta)-contextual
    mapping with r = r_max + eps/4 and delta = 2 (log n)^2 eps^2 r_min / (r_max^2 (|V|+1)^4 (2 log n + 3)
    pi d) exp(-(|V|+1)^4 (2 log n + 3) pi d r_max^2 / (4 eps r_min)).

    Source
    ------
    Seed 001, Def 12 (lines 1206-1216), Def 13 (lines 1220-1228), Lemma 17 (lines 1232-1241).

    Checkable form
    --------------
    The lemma is cited without proof and its construction is not given in the seed, so it is not
    checked; what is checked is the size of delta in the use Lemma 16 makes of it: tokens of the grid
    G_D = {B_x/D, ..., B_x}^d with B_x = 1, d = 1, n = 2, vocabulary |V| = D^d, r_min = B_x/D,
    r_max = sqrt(d) B_x, eps = B_x/D; log10(delta) is computed in log space for D = 2..max_D and must be
    finite and decreasing in D (the statement tested is log10 delta > threshold; printed: -inf).

    Exactness
    ---------
    float64 in log space (no underflow); the mutant fails by hundreds of orders of magnitude.

    Mutants
    -------
    "delta is representable in float64 at the coarsest grid" fails: log10 delta is about -480 at D = 2;
    second reader: "delta > 1e-400" fails for the same reason.

    Notes
    -----
    Verdict (second reader): mechanism, unchanged; no erratum is claimed (the lemma is cited, and the
    size of delta only makes Lemma 16's construction impractical, not false).
    """
    ev = Evidence("gt", rigor=Rigor.FLOAT)
    prev = math.inf
    table = []
    for D in range(2, p["max_D"] + 1):
        lg = _log10_delta(D, 2, 1, 1.0 / D, 1.0, 1.0 / D)
        table.append((D, round(lg, 1)))
        ev.add({"D": D, "|V|": D}, lg, statement.threshold_log10)
        ev.add({"D": D, "part": "decreasing in D"}, lg < prev, relation="true")
        prev = lg
    ev.details["log10 delta on the grid G_D (D, log10 delta)"] = table[:10]
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# E19. Theorem 6 bookkeeping
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Theorem6Statement:
    kappa: Callable  # (eps, eta, D_w) -> kappa^2 (exact rational)
    rhs_factor: Fraction = Fraction(1)  # ||eps^(l-1)||_2^2 <= rhs_factor (eta eps)^2 (near-boundary mutants)


def _kappa2_printed(eps, eta, Dw):
    return eps * eps / Dw


def _kappa2_corrected(eps, eta, Dw):
    return (eta * eps) ** 2 / Dw


THEOREM6_PARTS = [
    Part("error", "||eps^(l-1)||_2 <= eta eps for every l (given Lemma 16's coordinate-wise accuracy kappa)", inequality=True),
    Part("existence", "there is a 4L-layer Softmax transformer NN_theta (L blocks f_Softmax o MLP) implementing L steps "
         "of ICGD on a general risk", asserted=False,
         reason="existential via Lemma 16, whose construction is not checkable (seed001.lemma_16_softmax_ua: the bound "
                "itself is unasserted); Lemma 16 also needs inputs in [0, B_x]^{d x n} and a Lipschitz target in (x, y), "
                "which the theorem does not establish"),
]


@claim(
    id="seed001.theorem_6_softmax_icgd",
    source=SOURCE,
    label="Theorem 6",
    entry="E19",
    title="With kappa = eps/sqrt(D_w) the per-step error is <= eta eps (bookkeeping of the proof)",
    lines=[(1165, 1200)],
    printed=Theorem6Statement(_kappa2_corrected),
    proof_step=Theorem6Statement(_kappa2_printed),
    corrected=Theorem6Statement(_kappa2_corrected),
    mutants=[Mutant("kappa=eps", "kappa = eps (the sqrt(D_w) conversion from max-norm dropped)", Theorem6Statement(lambda eps, eta, Dw: eps * eps)),
             Mutant("error-x0.99", "||eps||^2 <= 0.99 (eta eps)^2 with kappa = eta eps/sqrt(D_w): an error of kappa in every "
                    "coordinate (allowed by Lemma 16) has ||eps||^2 = (eta eps)^2 exactly (sharpness 1)",
                    Theorem6Statement(_kappa2_corrected, Fraction(99, 100)), near_boundary=True, part="error",
                    origin="second-reader")],
    expect=Status.PROOF_GAP,
    severity=Severity.CONSTANT,
    parts=THEOREM6_PARTS,
    rigor=Rigor.EXACT,
    params=[Param("max_Dw", int, 1, 10000)],
    tiers={"quick": {"max_Dw": 100}, "full": {"max_Dw": 1000}},
)
def check_theorem_6(statement: Theorem6Statement, p, ctx) -> Verdict:
    """Theorem 6: a 4L-layer Softmax transformer for ICGD on a general risk (existential, via Lemma 16).

    Statement
    ---------
    Fix B_w, eta, eps > 0, L >= 1; there is NN_theta (L blocks f_Softmax o MLP) whose 4l-th layer outputs
    [x_i; y_i; w_hat^(l); 0; 1; t_i], w_hat^(l) = Proj_W(w_hat^(l-1) - eta grad L_n(w_hat^(l-1)) + eps^(l-1)),
    ||eps^(l-1)||_2 <= eta eps.  Proof: Lemma 16 with kappa = eps/sqrt(D_w) gives
    ||w_hat - (w - eta grad L_n(w))||_2 <= sqrt(D_w) ||.||_max <= sqrt(D_w) kappa.

    Source
    ------
    Seed 001, Theorem 6, lines 1165-1175; proof F.3 with (F.2), lines 1177-1200.

    Checkable form
    --------------
    Exact bookkeeping: the proof's guarantee is ||eps^(l-1)||_2^2 <= D_w kappa^2 (Lemma 16 bounds each
    of the D_w coordinates by kappa, and that bound is attained by an error of kappa in every
    coordinate).  For eta in {1/10, 1/2, 1}, eps in {1/10, 1}, D_w in {1, 4, ..., max_Dw}, the check
    asserts D_w kappa^2 <= (eta eps)^2 in Fractions.  Corrected: kappa = eta eps/sqrt(D_w).

    Exactness
    ---------
    Exact rational arithmetic on squares.

    Mutants
    -------
    kappa = eps fails for every D_w > 1 even at eta = 1.  Second reader: the bound x 0.99 with the
    corrected kappa (attained: sharpness 1).

    Correction
    ----------
    Proof step: apply Lemma 16 with kappa = eta eps/sqrt(D_w) (not eps/sqrt(D_w)); then ||eps^(l-1)||_2 <=
    sqrt(D_w) kappa = eta eps as the theorem states.

    Notes
    -----
    Verdict (second reader): proof-gap, not erratum.  The theorem is existential and kappa is the
    proof's free choice: the printed choice gives ||eps|| <= eps, which exceeds eta eps for eta < 1
    (witness eta = 1/10, eps = 1/10, D_w = 1), while kappa = eta eps/sqrt(D_w) gives the printed bound
    exactly.  Severity constant (a missing factor eta).  Sharpness 1 (the corrected choice is attained by
    the all-coordinates-kappa error).
    Not checkable beyond bookkeeping: Lemma 16 needs inputs in [0, B_x]^{d x n} (prompt entries are in
    [-B, B]; an affine shift changes L), Lipschitzness of the update map in (x, y) is not implied by
    an L-Lipschitz gradient in w, tokens have dimension D >= D_w + 2d + 2 with n + 1 of them, and no
    width/head bounds are given: the grid needs D^{dn} cells.  The proof cites "Lemma 7" for Lemma 16.
    """
    ev = Evidence("le", rigor=Rigor.EXACT)
    Dws = sorted({1, 4} | {k * k for k in range(1, math.isqrt(p["max_Dw"]) + 1)} | {p["max_Dw"]})
    for eta in (Fraction(1, 10), Fraction(1, 2), Fraction(1)):
        for eps in (Fraction(1, 10), Fraction(1)):
            for Dw in Dws:
                k2 = statement.kappa(eps, eta, Dw)
                ev.add({"eta": eta, "eps": eps, "D_w": Dw}, Dw * k2, statement.rhs_factor * (eta * eps) ** 2, part="error")
    return ev.verdict()
