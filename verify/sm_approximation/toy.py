"""The scalar toy of Section 3 (seed 000): the product network's all-layer margin (E13, l.155) and its
rounded version (Claim 3.5, E15, l.163-175).

f(x, W) = (prod_i W_i) x - 0.5 and f~(x, W) = round(W_d round(... round(W_1 x))) - 0.5 at W = (1..1),
x = 1, y = 1.  Margins are computed by the certified attack kernels.constructions.circuits.min_flip_radius (every
radius comes with a flipping perturbation, so it is an upper bound on rho) and compared with the
exact value rho_f(d) = sqrt(d) (1 - 2^{-1/d}) (all delta_i equal at the optimum by symmetry and
AM-GM: prod(1 + delta_i) <= (1 + mean delta)^d for a fixed sum, so the cheapest flip spreads the
perturbation evenly).
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from kernels.constructions.circuits import min_flip_radius

from ..registry import Evidence, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True


def rho_product_exact(d: int) -> float:
    """sqrt(d) (1 - 2^{-1/d}): the exact all-layer margin of the product toy."""
    return math.sqrt(d) * (1 - 2 ** (-1 / d))


@functools.cache
def _product_attack_cached(d: int, seed: int) -> float:
    return product_margin_attack(d, np.random.default_rng(seed))


@functools.cache
def _rounded_attack_cached(d: int, seed: int, round_params: bool) -> float:
    return rounded_toy_margin_attack(d, np.random.default_rng(seed), round_params=round_params)


def product_margin_and_grad(theta: np.ndarray) -> tuple:
    """m = prod_i theta_i - 1/2 per row of ``theta`` (B, d) and dm/dtheta_i = prod_{j != i} theta_j
    (prefix times suffix products, exact also where some theta_j = 0)."""
    theta = np.asarray(theta, dtype=float)
    ones = np.ones((theta.shape[0], 1))
    pre = np.cumprod(np.hstack([ones, theta[:, :-1]]), axis=1)
    suf = np.cumprod(np.hstack([ones, theta[:, :0:-1]]), axis=1)[:, ::-1]
    return np.prod(theta, axis=1) - 0.5, pre * suf


def product_margin_attack(d: int, rng, *, restarts=2, steps=40, bisections=15) -> float:
    r, _ = min_flip_radius(product_margin_and_grad, np.ones(d), 1, rng=rng, restarts=restarts, steps=steps,
                           bisections=bisections, r_max=2.0)
    return float(r[0])


_ROUND0 = (1.0, -1 / 3, 1.0, -2 / 3, 3.0, -3.0)  # a1, b1, a2, b2, c1, c2: round(z) = c1 relu(a1 z + b1) + c2 relu(a2 z + b2)


def rounded_toy_margin_and_grad(theta: np.ndarray, d: int, round_params: bool) -> tuple:
    """m = f~(1, theta) = h_d - 1/2 per row of ``theta`` and dm/dtheta (hand-written reverse mode).

    h_0 = 1, z_i = W_i h_{i-1}, u_i = a1 z_i + b1, v_i = a2 z_i + b2, h_i = c1 relu(u_i) + c2 relu(v_i).
    Row layout: d blocks of k = 7 entries (W_i, a1, b1, a2, b2, c1, c2) when ``round_params``, else d
    entries W_i (round parameters fixed at _ROUND0).  Backward, with the adjoint g = dm/dh_i:
    dm/dc1 = g relu(u), dm/dc2 = g relu(v), gu = g c1 1[u > 0], gv = g c2 1[v > 0], dm/da1 = gu z,
    dm/db1 = gu, dm/da2 = gv z, dm/db2 = gv, gz = a1 gu + a2 gv, dm/dW_i = gz h_{i-1}, g <- gz W_i."""
    theta = np.asarray(theta, dtype=float)
    k = 7 if round_params else 1
    if theta.ndim != 2 or theta.shape[1] != k * d:
        raise ValueError(f"argument 'theta' must have shape (B, {k * d}), not {theta.shape}")
    B = theta.shape[0]

    def params(i):
        blk = theta[:, i * k:(i + 1) * k]
        rp = [blk[:, 1 + j] for j in range(6)] if round_params else [np.full(B, v) for v in _ROUND0]
        return blk[:, 0], rp

    h, tape = np.ones(B), []
    for i in range(d):
        w, (a1, b1, a2, b2, c1, c2) = params(i)
        z = w * h
        u, v = a1 * z + b1, a2 * z + b2
        tape.append((h, z, u, v))
        h = c1 * np.maximum(u, 0.0) + c2 * np.maximum(v, 0.0)
    grad = np.zeros_like(theta)
    g = np.ones(B)
    for i in range(d - 1, -1, -1):
        w, (a1, b1, a2, b2, c1, c2) = params(i)
        h_prev, z, u, v = tape[i]
        gu, gv = g * c1 * (u > 0), g * c2 * (v > 0)
        gz = a1 * gu + a2 * gv
        grad[:, i * k] = gz * h_prev
        if round_params:
            grad[:, i * k + 1:(i + 1) * k] = np.stack(
                [gu * z, gu, gv * z, gv, g * np.maximum(u, 0.0), g * np.maximum(v, 0.0)], axis=1)
        g = gz * w
    return h - 0.5, grad


def rounded_toy_margin_attack(d: int, rng, *, round_params: bool, restarts=3, steps=40, bisections=13) -> float:
    """Attack radius of f~ at W = 1, x = 1, y = 1; ``round_params`` makes the 6 parameters of every
    round perturbable too (7 d parameters), otherwise only W (d parameters)."""
    k = 7 if round_params else 1
    theta0 = np.concatenate([[1.0] + (list(_ROUND0) if round_params else []) for _ in range(d)])

    def margin_fn(theta):
        return rounded_toy_margin_and_grad(theta, d, round_params)

    starts = np.zeros((d + 1, theta0.size))
    for i in range(d):
        starts[i, i * k] = -1.0            # shrink one weight
    starts[d, ::k] = -1.0                  # shrink all weights evenly
    r, _ = min_flip_radius(margin_fn, theta0, 1, rng=rng, restarts=restarts + d + 1, steps=steps,
                           bisections=bisections, r_max=2.0, starts=starts)
    return float(r[0])


def _depths(d_max: int):
    out, d = [], 1
    while d <= d_max:
        out.append(d)
        d *= 2
    return out


@dataclass(frozen=True)
class ProductToyStatement:
    """rho_f(d) <= upper(d) and/or >= lower(d) for the depths checked."""

    upper: object = None
    lower: object = None
    text: str = ""
    witness_c: Fraction = Fraction(3)  # the proof's perturbation delta_i = -witness_c/d flips the sign


@claim(
    id="seed000.toy_product_margin", source=SOURCE, label="Section 3 toy (l.155)", entry="E13",
    title="The product toy has all-layer margin <= 3/sqrt(d) (exactly sqrt(d)(1 - 2^{-1/d}) ~ ln2/sqrt(d))",
    lines=[(155, 157)], printed=ProductToyStatement(upper=lambda d: 3 / math.sqrt(d), text="rho <= 3/sqrt(d)"),
    mutants=[Mutant("lower-1/4", "rho >= 1/4 for every d", ProductToyStatement(lower=lambda d: 0.25)),
             Mutant("upper-0.5/sqrt(d)", "rho <= 0.5/sqrt(d) (constant below ln 2)",
                    ProductToyStatement(upper=lambda d: 0.5 / math.sqrt(d))),
             Mutant("upper-0.66/sqrt(d)", "near-boundary: rho <= 0.66/sqrt(d) (sharpness 0.2209 = 0.6628/3 at d = 8: the exact "
                    "rho sqrt(d) = d (1 - 2^(-1/d)) is 0.6628 at d = 8 and -> ln 2); rejected at d = 8",
                    ProductToyStatement(upper=lambda d: 0.66 / math.sqrt(d), text="rho <= 0.66/sqrt(d)"), near_boundary=True,
                    part="upper", origin="second-reader"),
             Mutant("witness-1/2", "the witness delta_i = -(1/2)/d flips the sign: false, (1 - 1/(2d))^d > 1/2 for every d >= 2 "
                    "(it decreases to e^(-1/2) = 0.607)", ProductToyStatement(upper=lambda d: 3 / math.sqrt(d),
                    witness_c=Fraction(1, 2)), origin="second-reader")],
    parts=[Part("upper", "rho_f((1..1), 1, 1) <~ 1/sqrt(d), via the witness: rho <= sqrt(sum delta_i^2) = 3/sqrt(d)",
                inequality=True),
           Part("witness", "delta_i = -3/d (printed '3/d') gives (1 - 3/d)^d - 0.5 ~ e^-3 - 0.5 < 0"),
           Part("exact", "the attack radius agrees with the exact margin sqrt(d)(1 - 2^(-1/d)) (the decay is real)")],
    expect=Status.CONFIRMED, rigor=Rigor.FLOAT,
    params=[Param("d_max", int, 1, 1024)], tiers={"quick": {"d_max": 8}, "full": {"d_max": 32}, "gpu": {"d_max": 256}},
)
def check_toy_product(statement: ProductToyStatement, p, ctx) -> Verdict:
    """The product toy network's all-layer margin decays with depth.

    Statement
    ---------
    For f(x, (W_1..W_d)) = (prod W_i) x - 0.5 at W_i = 1, x = 1, y = 1: rho_f <~ 1/sqrt(d), shown by
    the perturbation delta_i = -3/d (printed "delta_i = 3/d") with (1 - 3/d)^d - 0.5 ~ e^-3 - 0.5 < 0,
    i.e. rho_f <= 3/sqrt(d).

    Source
    ------
    Seed 000, Section 3 toy example (Section 3 toy (l.155)), lines 155-157.

    Checkable form
    --------------
    For d = 1, 2, 4, ..., d_max: the attack radius rho_hat(d) (certified upper bound on rho) against
    the bound; rho_hat(d) against the exact value sqrt(d)(1 - 2^{-1/d}) (within 2e-3 and never below
    it by more than 1e-9, since rho_hat is an upper bound); the printed witness delta_i = -3/d flips
    the sign for every d checked, delta_i = +3/d (as printed) never does.

    Exactness
    ---------
    Float64.  The bisection resolution is 2 / 2^15 = 6e-5 and the PGD optimum of this smooth
    problem (decaying steps) is reached to ~1e-5; 2e-3 is far below the gaps the mutants create (>= 0.015).

    Mutants
    -------
    rho >= 1/4 for all d (fails at d = 8: 0.2347); rho <= 0.5/sqrt(d) (the constant is ln 2 > 0.5).
    Second reader: near-boundary rho <= 0.66/sqrt(d) (exact rho sqrt(8) = 8(1 - 2^(-1/8)) = 0.6628 >
    0.66); the witness with 1/2 in place of 3 (no flip for d >= 2: (1 - 1/(2d))^d > 1/2; d = 2 gives 9/16).

    Notes
    -----
    The upper part is checked on the exact margin sqrt(d)(1 - 2^(-1/d)) (closed form, by AM-GM; the
    attack radius, a certified upper bound, agrees within 2e-3 and is also compared with the bound).
    Sharpness d(1 - 2^(-1/d))/3 increases with d to ln 2 / 3 = 0.231; the quick tier reaches 0.2209 at
    d = 8 (the search is the exact formula over d = 1, 2, 4, ..., d_max, monotone in d).  The printed
    "delta_i = 3/d" is a sign typo (W_i - delta_i), kept as a checked sub-case.
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    ds = _depths(p["d_max"])
    ev.plots.append({"title": "Product toy: all-layer margin against depth d", "xlabel": "depth d", "ylabel": "rho",
                     "logx": True, "logy": True,
                     "series": [{"x": ds, "y": [_product_attack_cached(d, ctx.seed(f"attack-{d}")) for d in ds],
                                 "label": "attack (certified upper bound)", "style": "o"},
                                {"x": ds, "y": [rho_product_exact(d) for d in ds],
                                 "label": "sqrt(d)(1 - 2^(-1/d))", "style": "-"},
                                {"x": ds, "y": [3 / math.sqrt(d) for d in ds], "label": "3/sqrt(d) (paper)", "style": "--"}]})
    for d in ds:
        rh = _product_attack_cached(d, ctx.seed(f"attack-{d}"))
        ex = rho_product_exact(d)
        ev.add({"d": d, "part": "attack vs exact"}, rh, ex, relation="approx", tol=2e-3)
        ev.add({"d": d, "part": "attack is an upper bound of the exact minimum"}, rh, ex - 1e-9, relation="ge")
        if statement.upper is not None:
            ev.add({"d": d, "bound": statement.text or "upper"}, ex, statement.upper(d), relation="le", part="upper")
            ev.add({"d": d, "bound": (statement.text or "upper") + " (attack radius)"}, rh, statement.upper(d), relation="le")
        if statement.lower is not None:
            ev.add({"d": d, "bound": "lower"}, rh, statement.lower(d), relation="ge")
        c = statement.witness_c
        prod_minus = Fraction(1) * (1 - c / d) ** d - Fraction(1, 2)
        prod_plus = (1 + c / d) ** d - Fraction(1, 2)
        ev.add({"d": d, "part": f"delta_i = -{c}/d flips"}, prod_minus, 0, relation="le")
        ev.add({"d": d, "part": f"printed delta_i = +{c}/d does not flip"}, prod_plus, 0, relation="gt")
    return ev.verdict()


@dataclass(frozen=True)
class RoundedToyStatement:
    """rho_{f~}(d) >= lower for every depth, with round parameters perturbable or not; optional upper."""

    lower: float = 1 / 3
    round_params: bool = False
    equal_half: bool = False
    box: Fraction = Fraction(1, 3)  # the proof's box |delta_i| <= box leaves the output unchanged


@claim(
    id="seed000.claim_3.5", source=SOURCE, label="Claim 3.5", entry="E15",
    title="The rounded toy has all-layer margin >= 1/3 at every depth (round parameters not perturbed)",
    lines=[(163, 175)], printed=RoundedToyStatement(),
    mutants=[Mutant("with-round-params", "rho >= 1/3 also when the round parameters are perturbed (about 0.08)",
                    RoundedToyStatement(round_params=True)),
             Mutant("exactly-1/2", "rho = 1/2 for every d (0.4918 at d = 2)", RoundedToyStatement(equal_half=True)),
             Mutant("lower-0.4967", "near-boundary: rho >= 0.4967 (sharpness (1/3)/0.4918 = 0.6778 at d = 2; the certified attack "
                    "flips at 0.4918 < 0.4967 = 1.01 x 0.4918); rejected at d = 2", RoundedToyStatement(lower=0.4967),
                    near_boundary=True, part="margin", origin="second-reader"),
             Mutant("unchanged-at-0.34", "the output is unchanged for all |delta_i| <= 0.34: false, delta = (-0.34) at d = 1 gives "
                    "round(0.66) = 0.98 != 1 (exact)", RoundedToyStatement(box=Fraction(17, 50)), origin="second-reader")],
    parts=[Part("same_output", "f~(1, (1..1)) = f(1, (1..1)) = 1/2"),
           Part("box", "if |delta_i| <= 1/3 for all i the output is unchanged (the proof, l.173)"),
           Part("margin", "rho_f~((1..1), 1, 1) >= 1/3 (round parameters ignored)", inequality=True)],
    expect=Status.CONFIRMED, rigor=Rigor.FLOAT,
    params=[Param("d_max", int, 1, 256)], tiers={"quick": {"d_max": 2}, "full": {"d_max": 4}, "gpu": {"d_max": 64}},
)
def check_claim_3_5(statement: RoundedToyStatement, p, ctx) -> Verdict:
    """Claim 3.5: inserting round between layers gives a depth-independent margin >= 1/3.

    Statement
    ---------
    f~(x, W) = round(W_d round(W_{d-1} ... round(W_1 x))) - 0.5 (3.1), with the parameters of round
    ignored: f~(1, (1..1)) = f(1, (1..1)) and rho_{f~}((1..1), 1, 1) >= 1/3 (if all |delta_i| <= 1/3 the
    output is unchanged).

    Source
    ------
    Seed 000, Section 3, Claim 3.5, lines 163-175 (round parameters ignored: l.167).

    Checkable form
    --------------
    (i) Certification, exact: for every corner delta in {-1/3, +1/3}^d (d <= 8) and rational random
    delta with |delta_i| <= 1/3, f~ = 1/2 exactly.  (ii) Attack: rho_hat(d) for d = 1, 2, 4, ..., d_max
    is >= lower and <= 1/2 + 1e-3 (the flip W_d -> 1/2 exists; starts along every axis find it), and
    == 1/2 for the mutant "exactly 1/2", with only W perturbable (the paper's
    setting) or also the 6 parameters of every round (mutant).

    Exactness
    ---------
    (i) exact Fractions.  (ii) float64: rho_hat is a certified upper bound, so rho_hat < 1/3 refutes
    the bound; a bound that holds is supported by (i).  The equality test uses tolerance 1e-3
    (bisection resolution 2/2^13 = 2.4e-4).

    Mutants
    -------
    Round parameters perturbable: rho_hat ~ 0.08 < 1/3 (depth-independent still); rho = 1/2 for all d
    (0.4918 at d = 2, 0.4907 for d >= 5).  Second reader: near-boundary rho >= 0.4967 (refuted by the
    certified flip at 0.4918, d = 2); the box |delta_i| <= 0.34 (false: round(1 - 0.34) = 3 (0.66) - 1 =
    0.98, exact).

    Notes
    -----
    Sharpness of the margin part: (1/3)/rho_hat = 0.678 at d = 2 (quick): the attack's flips sit near
    1/2 (perturb W_d alone to 1/2), so 1/3 is loose by 1.5x; the box 1/3 of the proof is exact (the
    corner -1/3 gives round(2/3) = 1).
    """
    ev = Evidence("ge", rigor=Rigor.FLOAT)
    rng = ctx.rng("attack")

    def rnd(z):
        return 3 * max(z - Fraction(1, 3), 0) - 3 * max(z - Fraction(2, 3), 0)

    def ftilde(delta):
        h = Fraction(1)
        for dl in delta:
            h = rnd((1 + dl) * h)
        return h - Fraction(1, 2)

    ev.add({"part": "f~(1, (1..1)) = f(1, (1..1)) = 1/2"}, ftilde([Fraction(0)] * 3), Fraction(1, 2), relation="eq")
    third = statement.box
    for d in _depths(min(p["d_max"], 8)):
        bad = [c for c in itertools.product((-third, third), repeat=d) if ftilde(c) != Fraction(1, 2)]
        for _ in range(20):
            c = [third * Fraction(int(v), 100) for v in rng.integers(-100, 101, size=d)]
            if ftilde(c) != Fraction(1, 2):
                bad.append(tuple(c))
        ev.add({"d": d, "part": "output unchanged for ||delta||_inf <= 1/3 (corners + random)"}, len(bad), 0, relation="eq")
    ds = _depths(p["d_max"])
    if not statement.round_params and not statement.equal_half:
        ev.plots.append({"title": "Rounded toy (Claim 3.5): all-layer margin against depth d", "xlabel": "depth d",
                         "ylabel": "rho (attack, certified upper bound)", "logx": True,
                         "series": [{"x": ds, "y": [_rounded_attack_cached(d, ctx.seed(f"attack-{d}"), False) for d in ds],
                                     "label": "round parameters fixed (the claim)", "style": "-o"},
                                    {"x": ds, "y": [_rounded_attack_cached(d, ctx.seed(f"attack-{d}"), True) for d in ds],
                                     "label": "round parameters perturbable", "style": "--s"},
                                    {"x": ds, "y": [1 / 3] * len(ds), "label": "1/3 (Claim 3.5)", "style": ":"}]})
    for d in ds:
        rh = _rounded_attack_cached(d, ctx.seed(f"attack-{d}"), statement.round_params)
        ev.add({"d": d, "round parameters perturbed": statement.round_params}, rh, statement.lower, part="margin")
        ev.add({"d": d, "part": "rho <= 1/2 (last weight -1/2 gives round(1/2) = 1/2)"}, rh, 0.5 + 1e-3, relation="le")
        if statement.equal_half:
            ev.add({"d": d, "part": "rho = 1/2"}, rh, 0.5, relation="approx", tol=1e-3)
    return ev.verdict()
