"""Two GD steps of the minimal model and what follows from them: Lemma 8.4 / E.1 (C16), the even/odd
pattern (C17), Corollary E.2 (C18), Proposition 8.5 / E.3 (C19), the Sec. 8.3.2 corollaries (C20) and
the linear-regime dynamics (C23, derived).

All dynamics are population GD in the linear regime of the margin loss (Delta large), where the loss
is const - <W, M v> with M_{(ml), j} = E T_{j,m,l} (kernel K1), so every update is exact up to the
quadrature of E_{a,b} (see _common).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
import sympy as sp

from kernels.sequence.markov_icl import (
    k2_matrices,
    minimal_model_forward,
    sample_chains,
    t_tensor,
)

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE
from .first_step import A_INF, B_INF, D_CONST
from ._common import (
    A_,
    B_,
    HALF,
    LAM,
    expected_T,
    expected_T_diag,
    k2_expect_exact,
    k2_expect_float,
    linear_gd,
)


CONTRACT_AUDITED = True

def two_steps(t: int, c: float, eta: float):
    ET = expected_T(t)
    W0, v0 = np.full((2, 2), c), np.full(t, c)
    W1, v1 = linear_gd(ET, W0, v0, eta)
    W2, v2 = linear_gd(ET, W1, v1, eta)
    return W1, v1, W2, v2


def eta_star(t: int) -> float:
    """Smallest eta with v_2^(2) > v_1^(2) (independent of c): 2 dG / [(G11 - G12)(diag_2 - diag_1) - G12 dG]."""
    ET = expected_T(t)
    G = ET.sum(0)
    Gv = ET.sum((1, 2))
    diag = np.einsum("jmm->j", ET)
    dG = Gv[0] - Gv[1]
    return float(2 * dG / ((G[0, 0] - G[0, 1]) * (diag[1] - diag[0]) - G[0, 1] * dG))


def w_j(j: int) -> sp.Expr:
    """w_j = E[(a-1)(b-1)^2 (a-1/2) lambda^{j-1}/(a+b-2)^3] in closed form."""
    return k2_expect_exact((A_ - 1) * (B_ - 1) ** 2 * (A_ - HALF) * LAM ** (j - 1) / (A_ + B_ - 2) ** 3)


def _w_integrand(j: int):
    return lambda a, b: (a - 1) * (b - 1) ** 2 * (a - 0.5) * (a + b - 1) ** (j - 1) / (a + b - 2) ** 3


@functools.cache
def w_j_float(j: int, n: int = 80) -> float:
    """w_j by the K2 Gauss-Legendre rule: under 1-a = s q, 1-b = s(1-q) the integrand times the Jacobian is
    q (1-q)^2 (1/2 - s q) (1-s)^(j-1) s, a polynomial; region 1 is integrated exactly, region 2 (q in
    [1-1/s, 1/s]) converges geometrically (80 vs 120 nodes agree to 1e-16 for j <= 41)."""
    return k2_expect_float(_w_integrand(j), n)


# ---------------------------------------------------------------------------------------------
# C16. Lemma 8.4 / E.1
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LemmaE1:
    """Lemma 8.4 / E.1 as a statement object (printed constants are fields).

    ``e43_second is None``: the statement only.  A value: the proof step (E.42)-(E.43) too, with that
    value printed for 2 E[(b-a)(b-1)^2(a-1/2)/(a+b-2)^3] and the proof's conclusion K_2 > K_1."""

    B_over_A: float = 4.0  # "B ~ 4A" (diagonal bias)
    B_over_A_tol: float = 0.05  # reading of "~": |B/A - 4| <= 0.05 (B/A = 3.98 at leading order)
    dominant: int = 2  # "v_2^(2) > v_j^(2), j = 1, 3, 4, ..., t"
    dominance_lead: float = 1.0  # leading order (t -> infinity): K_dominant > dominance_lead * K_j, j != dominant
    dominance_finite: float = 1.0  # exact two steps: v_dominant > dominance_finite * v_j at the eta grid
    etas: tuple | None = None  # None: the thesis' eta = 0.03 and a log grid over [1.5 eta*(t), 10] (the asymptotic regime)
    e43_second: sp.Expr | None = None  # the proof's value for 2 E[(b-a)(b-1)^2(a-1/2)/(a+b-2)^3] (E.43)
    e43_first: sp.Expr = (7 - 10 * sp.log(2)) / 2  # the proof's value for 4 E[(a-1)(b-1)^2(a-1/2) lambda/(a+b-2)^3]
    e42: sp.Expr = (1 - sp.log(2)) / 3  # the proof's value for K_1 (E.42)


_E1_STATEMENT = LemmaE1()
_E1_PROOF = LemmaE1(e43_second=(5 - 8 * sp.log(2)) / 6)
_E1_PROOF_CORRECTED = LemmaE1(e43_second=(8 * sp.log(2) - 5) / 6)


def _lemma_hypotheses(case) -> list[str]:
    bad = []
    if "t" in case and int(case["t"]) < 2:
        bad.append("t >= 2 (v_2 exists)")
    if "c" in case and not float(case["c"]) > 0:
        bad.append("c > 0")
    return bad


@claim(
    id="thesis_ch8.lemma_8_4",
    source=SOURCE,
    label="Lemma 8.4",
    entry="C16",
    title="Lemma 8.4 / E.1: after two GD steps v_2 is the largest coordinate; the proof's E.43 value has the wrong sign (proof-gap, typo)",
    lines=[(1858, 1864), (5651, 5655), (5810, 5911)],
    printed=_E1_STATEMENT,
    proof_step=_E1_PROOF,
    corrected=_E1_PROOF_CORRECTED,
    parts=[
        Part("W1_form", "W^(1) = c11^T + c eta [O(t^2) [[B, A], [A, B]] + O(t)] with A, B > 0, B ~ 4A"),
        Part("v1_form", "v_j^(1) = c + (c eta/t)[(t-j+1)(t-j+2)/2 D + O(t)], D > 0"),
        Part("v2_dominant_leading", "after the second step v_2^(2) > v_j^(2), j = 1, 3, 4, ..., t (t -> infinity: "
             "leading-order coefficients K_2 > K_j)", inequality=True),
        Part("v2_dominant_finite_t", "v_2^(2) > v_j^(2) for all j != 2 by exact two-step GD at t, c and eta "
             "in the asymptotic regime eta > eta*(t)", inequality=True),
    ],
    severity=Severity.TYPO,
    mutants=[
        Mutant("eta-below-eta*", "the finite-t reading without the regime: t = 100, eta = 1e-3 < eta*(100) = 0.00356",
               replace(_E1_STATEMENT, etas=(1e-3,))),
        Mutant("K1-equals-K2", "proof step with E.43 total K_2 = K_1 (no preference)",
               replace(_E1_PROOF_CORRECTED, e43_second=(5 - 8 * sp.log(2)) / 6 + sp.log(2) - 1)),
        Mutant("dominance-lead-x1.2", "near-boundary: K_2 > 1.2 K_j for all j != 2 (sharpness K_4/K_2 = 0.8379, "
               "1/0.8379 = 1.1935 < 1.2); rejected at j = 4", replace(_E1_STATEMENT, dominance_lead=1.2),
               near_boundary=True, part="v2_dominant_leading", origin="second-reader"),
        Mutant("dominance-finite-x1.01", "near-boundary: v_2 > 1.01 v_j at every eta of the grid (sharpness 0.99943 at "
               "eta = 1.5 eta*(100)); rejected at the smallest eta of the grid", replace(_E1_STATEMENT, dominance_finite=1.01),
               near_boundary=True, part="v2_dominant_finite_t", origin="second-reader"),
        Mutant("dominant-v1", "v_1^(2) is the dominant coordinate after two steps (the first-step preference persists)",
               replace(_E1_STATEMENT, dominant=1), origin="second-reader"),
        Mutant("B=5A", "B ~ 5A (diagonal bias 5) instead of 4", replace(_E1_STATEMENT, B_over_A=5.0), origin="second-reader"),
        Mutant("E42-sign", "proof step with E.42 printed as -(1 - ln2)/3", replace(_E1_PROOF_CORRECTED, e42=-(1 - sp.log(2)) / 3),
               origin="second-reader"),
    ],
    expect=Status.PROOF_GAP,
    hypotheses=_lemma_hypotheses,
    rigor=Rigor.EXACT,
    params=[Param("t", int, 20, 400), Param("c", float, 1e-4, 10.0), Param("t_eta", str, doc="t values for eta*(t) t^3"),
            Param("j_max", int, 4, 60, doc="largest j of the leading-order comparison"),
            Param("n_eta", int, 2, 100, doc="points of the eta grid"),
            Param("v1_2t", bool, doc="v1_form also at 2t (costly E T(2t))"),
            Param("exact_K", bool, doc="K_1, w_2 and the E.43 piece by exact symbolic integration (else Gauss-Legendre)")],
    tiers={"quick": {"t": 100, "c": 0.02, "t_eta": "50,100", "j_max": 12, "n_eta": 6, "v1_2t": False, "exact_K": False},
           "full": {"t": 100, "c": 0.02, "t_eta": "50,100,200", "j_max": 40, "n_eta": 24, "v1_2t": True, "exact_K": True},
           "gpu": {"t": 100, "c": 0.02, "t_eta": "50,100,200,400", "j_max": 40, "n_eta": 24}},
)
def check_lemma_8_4(statement: LemmaE1, p, ctx) -> Verdict:
    """Lemma 8.4 / E.1: one GD step gives W ~ [[B, A], [A, B]] t^2, v_j ~ (t-j+1)(t-j+2) D/(2t); after two, v_2 is largest.

    Statement
    ---------
    Minimal model (E.2), k = 2, init W = c11^T, v = c1, margin loss in the linear regime.  After one
    GD step W^(1) = c11^T + c eta [O(t^2)[[B, A], [A, B]] + O(t)], v_j^(1) = c + (c eta/t)[(t-j+1)(t-j+2)/2
    D + O(t)] with A, B, D > 0, B ~ 4A; "after the second step, v_2^(2) > v_j^(2) for j = 1, 3, 4, ...,
    t".  The proof writes v_j^(2) through K_1 = E[((b-1)^2(a-1/2) + (a-1)^2(b-1/2))/(lambda-1)^2] (E.42)
    and, for j >= 2, K_j = 4 w_j + 2 E[(b-a)(b-1)^2(a-1/2)/(a+b-2)^3] (E.40, E.43), printing
    K_2 = (7 - 10 ln2)/2 + (5 - 8 ln2)/6 and concluding that "the latter term is larger" (K_2 > K_1).

    Hypotheses
    ----------
    c > 0, any eta > 0, t >= 2.  The lemma is asymptotic in t: its first-step part is in O(t^2) / O(t)
    form and its proof compares leading-order coefficients "in the large t regime ... when t -> infinity"
    (l.5904, 5907).  At finite t the conclusion needs eta > eta*(t) = 2 (G_v(1) - G_v(2)) / [(G_11 - G_12)
    (diag_2 - diag_1) - G_12 (G_v(1) - G_v(2))] (derived, independent of c; eta*(t) t^3 -> ~3512.7), which
    every fixed eta meets for t > t_0(eta) ~ (3512.7/eta)^(1/3).  The thesis' own parameters (t = 100,
    c = 0.02, eta = 0.03, Figs. E.1, E.2) are in that regime.

    Source
    ------
    Thesis (seed 004), Lemma 8.4 (lines 1858-1864) = Lemma E.1 (lines 5651-5655), second step of the
    proof with (E.37)-(E.43), lines 5810-5911.

    Checkable form
    --------------
    Statement: (W1_form) exact first-step G = sum_j E T_j at t (K1 + K2): G_11 = G_22, G_12 = G_21, and
    the exact leading constants B = (8 ln2 - 5)/12, A = (7 - 10 ln2)/6 (thesis_ch8.eq_E23_E25_leading_W
    derives them) are > 0 with |B/A - B_over_A| <= B_over_A_tol.  (v1_form) D = 3/2 - ln 4 > 0 and
    max_j |G_v(j) - D (t-j+1)(t-j+2)/(2t)| <= 0.15 (the O(t) remainder inside the bracket), at t and (full
    tier, v1_2t) 2t.
    (v2_dominant_leading) the leading-order coefficients from the true integrals (never the printed
    E.43): K_1 (E.42) by exact symbolic integration, K_j = 4 w_j + 2 E[(b-a)(b-1)^2(a-1/2)/(a+b-2)^3] for
    2 <= j <= j_max (w_j by the K2 Gauss-Legendre rule, exact symbolic for j = 2); K_dominant >
    dominance_lead * K_j for every other j (the (t-j+1)(t-j+2) prefactors agree at leading order for
    fixed j, and for j = Theta(t) they are smaller while K_j -> (8 ln2 - 5)/6 > 0).
    (v2_dominant_finite_t) exact two-step GD at (t, c) for eta = 0.03 and n_eta log-spaced values in
    [1.5 eta*(t), 10] (or the statement's etas): argmax_j v^(2) = dominant and v_dominant > dominance_finite
    * max_{j != dominant} v_j; eta*(t) t^3 for t in t_eta is reported, and must lie within 30% of 3512.7
    at t >= 100 (bounded: the regime exists at every fixed eta).
    Proof step (e43_second set): the E.43 pieces and E.42 against the integrals, and the proof's
    conclusion K_2 > K_1 with its printed values.

    Sharpness: (leading) max_{j != 2} K_j/K_2 over 1 <= j <= j_max (exhaustive; K_j -> 0.0909 for large j
    so larger j cannot come closer): 0.8379 at j = 4 (K_4 = 0.10482, K_1 = 0.10228 gives 0.8176).
    (finite t) max_{j != 2} v_j/v_2 over the eta grid: it tends to 1 as eta decreases to eta*(t) (the
    boundary of the regime), 0.99943 at 1.5 eta*(100) (j = 1), and to ~0.84 for large eta.

    Exactness
    ---------
    K_1, 4 w_2 and the E.43 second piece exact (symbolic) at the full tier, where the Gauss-Legendre
    values are asserted equal to them within 1e-14 (measured 3e-17); the quick tier uses the Gauss-Legendre
    values only and checks v1_form at t only (not 2t): quick is a smoke test of what full shows (every
    mutant, the proof step and the sharpness are still decided at quick; the tolerance of the proof-step
    comparison, 1e-12, is far above the quadrature error).  w_j (j >= 3) by Gauss-Legendre with 80 and
    120 nodes (agree to 1e-16; the smallest gap K_2 - K_4 is 0.02).  Two-step GD: float64 quadrature
    (relative error < 1e-12); the smallest margin v_2 - v_j over the grid is > 1e-5 relative.

    Mutants
    -------
    eta-below-eta*: argmax v^(2) = 1 at t = 100, eta = 1e-3.  K1-equals-K2 fails the E.43 value.
    dominance-lead-x1.2: K_2/K_4 = 1.1935 < 1.2.  dominance-finite-x1.01: v_2/v_1 = 1.0006 at
    eta = 1.5 eta*(100).  dominant-v1: argmax is 2 (second-reader; false since K_1 < K_2 and the
    thesis' own t = 100, eta = 0.03 gives v_2 - v_1 = 1.0e-3 > 0).  B=5A: B/A = 3.98 exactly at leading
    order (3.978 from the exact constants).  E42-sign: K_1 = +0.1023 by exact integration.  The old checker could express none of
    dominant-v1, B=5A, E42-sign (no fields): it accepted them only in the sense that they were not
    expressible; with the fields, all are rejected.

    Correction
    ----------
    Proof step (E.43): the second expectation is 2 E[(b-a)(b-1)^2(a-1/2)/(a+b-2)^3] = (8 ln2 - 5)/6 (not
    (5 - 8 ln2)/6), so K_2 = (7 - 10 ln2)/2 + (8 ln2 - 5)/6 = 0.1252 > K_1 = 0.1023 and the lemma holds.

    Notes
    -----
    Re-judged (contract audit): the old verdict "erratum" came from the E.43 value, a number of the
    proof, not of the statement; the statement holds on every case checked, so the claim is a proof-gap of
    severity typo (a reader who recomputes E.43 corrects the sign; the proof's own sentence "the latter
    term is larger" is right).  The finite-t condition eta > eta*(t) is outside the statement's
    asymptotic regime (not an erratum); it is the eta-below-eta* mutant.
    """
    ev = Evidence("gt", rigor=Rigor.EXACT)
    t, c = p["t"], p["c"]
    # W1_form
    G = expected_T(t).sum(0)
    sc = float(np.abs(G).max())
    ev.add({"t": t, "part": "W1_form: G_11 = G_22"}, float(G[0, 0]), float(G[1, 1]), relation="approx", tol=1e-12 * sc)
    ev.add({"t": t, "part": "W1_form: G_12 = G_21"}, float(G[0, 1]), float(G[1, 0]), relation="approx", tol=1e-12 * sc)
    Bf, Af = float(B_INF), float(A_INF)
    ev.add({"part": "W1_form: A > 0"}, Af, 0.0)
    ev.add({"part": "W1_form: B > 0"}, Bf, 0.0)
    ev.add({"part": "W1_form: |B/A - B_over_A| <= tol", "B/A": Bf / Af}, abs(Bf / Af - statement.B_over_A),
           statement.B_over_A_tol, relation="le")
    # v1_form
    Df = float(D_CONST)
    ev.add({"part": "v1_form: D > 0"}, Df, 0.0)
    for tt in (t, 2 * t) if p["v1_2t"] else (t,):
        Gv = expected_T(tt).sum((1, 2))
        jj = np.arange(1, tt + 1)
        rem = np.abs(Gv - Df * (tt - jj + 1) * (tt - jj + 2) / (2 * tt))
        ev.add({"t": tt, "part": "v1_form: max_j |G_v(j) - D(t-j+1)(t-j+2)/(2t)| (O(1))"}, float(rem.max()), 0.15, relation="le")
    # v2_dominant_leading: the true integrals (exact at full; Gauss-Legendre at quick, which agrees to 3e-17, asserted at full)
    K1f = k2_expect_float(lambda a, b: ((b - 1) ** 2 * (a - 0.5) + (a - 1) ** 2 * (b - 0.5)) / (a + b - 2) ** 2)
    secondf = 2 * k2_expect_float(lambda a, b: (b - a) * (b - 1) ** 2 * (a - 0.5) / (a + b - 2) ** 3)
    w = {j: w_j_float(j) for j in range(2, p["j_max"] + 1)}
    if p["exact_K"]:
        K1x = k2_expect_exact(((B_ - 1) ** 2 * (A_ - HALF) + (A_ - 1) ** 2 * (B_ - HALF)) / (LAM - 1) ** 2)
        second = 2 * k2_expect_exact((B_ - A_) * (B_ - 1) ** 2 * (A_ - HALF) / (A_ + B_ - 2) ** 3)
        w2x = float(w_j(2))
        for name, fx, ff in (("K_1", float(K1x), K1f), ("E.43 second piece", float(second), secondf), ("w_2", w2x, w[2])):
            ev.add({"part": f"quadrature = exact: {name}"}, ff, fx, relation="approx", tol=1e-14)
        w[2] = w2x
    else:
        K1x, second = K1f, secondf
    K = {1: float(K1x)}
    K.update({j: 4 * w[j] + float(second) for j in w})
    ev.details["K_j (leading order, true integrals)"] = K
    d = statement.dominant
    for j in sorted(K):
        if j != d:
            ev.add({"j": j, "dominant": d, "part": "v2_dominant_leading: K_dominant > factor K_j", "factor": statement.dominance_lead},
                   K[d], statement.dominance_lead * K[j], part="v2_dominant_leading")
    # v2_dominant_finite_t: exact two steps
    es = eta_star(t)
    ev.details["eta_star"] = es
    if statement.etas is None:
        etas = [0.03] + list(np.geomspace(1.5 * es, 10.0, p["n_eta"]))
    else:
        etas = list(statement.etas)
    for eta in etas:
        _, v1, _, v2 = two_steps(t, c, float(eta))
        case = {"t": t, "c": c, "eta": float(eta), "eta_over_eta_star": float(eta) / es}
        ev.add(dict(case, part="v2_dominant_finite_t: argmax_j v^(2)_j"), int(np.argmax(v2)) + 1, d, relation="eq")
        others = np.delete(v2, d - 1)
        ev.add(dict(case, part="v2_dominant_finite_t: v_dominant > factor max_{j != dominant} v_j",
                    j_other=[j for j in range(1, t + 1) if j != d][int(np.argmax(others))], factor=statement.dominance_finite),
               float(v2[d - 1]), statement.dominance_finite * float(others.max()), part="v2_dominant_finite_t")
        if eta == 0.03:
            ev.details["v2[1..10] (eta = 0.03)"] = [float(x) for x in v2[:10]]
            ev.plots.append({"title": f"v after two GD steps (t = {t}, c = {c}, eta = 0.03)", "xlabel": "j", "ylabel": "v_j",
                             "series": [{"x": list(range(1, 31)), "y": [float(x) for x in v2[:30]], "label": "v^(2)", "style": "o-"},
                                        {"x": list(range(1, 31)), "y": [float(x) for x in v1[:30]], "label": "v^(1)", "style": "s-"}]})
    for tt in [int(s) for s in p["t_eta"].split(",")]:
        val = eta_star(tt) * tt**3
        ev.details[f"eta*({tt}) t^3"] = val
        if tt >= 100:
            ev.add({"t": tt, "part": "regime exists: |eta*(t) t^3 / 3512.7 - 1| <= 0.3"}, abs(val / 3512.7 - 1), 0.3, relation="le")
    # the proof step (E.42)-(E.43)
    if statement.e43_second is not None:
        first = 4 * (w_j(2) if p["exact_K"] else w[2])
        ev.add({"part": "proof (E.42): K_1 value"}, float(statement.e42), float(K1x), relation="approx", tol=1e-12)
        ev.add({"part": "proof (E.43): first piece 4 w_2"}, float(statement.e43_first), float(first), relation="approx", tol=1e-12)
        ev.add({"part": "proof (E.43): second piece"}, float(statement.e43_second), float(second), relation="approx", tol=1e-12)
        ev.add({"part": "proof: K_2 > K_1 with the printed values"}, float(statement.e43_first + statement.e43_second),
               float(statement.e42))
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# C17. Even/odd pattern
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EvenOdd:
    odd_negative_from: int = 3  # w_j < 0 for odd j >= this (the sentence's range: j >= 2 as in (E.40); odd => j >= 3)
    odd_sign: int = -1  # sign of w_j for odd j in range (-1: negative)
    even_sign: int = 1  # sign of w_j for even j (+1: positive; implied by 'decreasing' towards the limit 0 and used by the proof)
    even_ratio: float = 1.0  # "decreasing" over even j: w_{j+2} < even_ratio * w_j
    amp: float = 1.0  # even coordinates amplified more than their odd neighbours: K_j > amp * K_{j+-1}
    all_pairs: bool = False  # mutant hook: every even K_j above every odd K_i (including K_1)
    k4_above_k1: bool = True  # the old checker's reading: v_4^(2) > v_1^(2) at leading order (K_4 > K_1)


def _even_odd_hypotheses(case) -> list[str]:
    j = case.get("j")
    return [] if j is None or int(j) >= 2 else ["j >= 2 (the range of (E.40) and of the sentence's v_j, j > 2)"]


@claim(
    id="thesis_ch8.even_odd_pattern",
    source=SOURCE,
    label="Sec. 8.3.2 (even/odd pattern)",
    entry="C17",
    title="w_j (j >= 2) is negative for odd j and decreasing over even j; even coordinates amplified (w_1 > 0 lies outside the range)",
    lines=[(1874, 1881), (5905, 5911)],
    printed=EvenOdd(),
    parts=[
        Part("odd_negative", "w_j = E[(a-1)(b-1)^2(a-1/2) lambda^{j-1}/(a+b-2)^3] is negative for j odd (j >= 2 as in (E.40), "
             "used for v_j, j > 2)"),
        Part("even_decreasing", "... and decreasing otherwise (even j): w_{j+2} < w_j, with w_j > 0", inequality=True),
        Part("even_amplified", "the gradient amplifies the even coordinates much more than the odd ones: K_j > K_{j-1}, K_{j+1} "
             "for even j >= 2 (K_1 from (E.42), K_j = 4 w_j + (8 ln2 - 5)/6)", inequality=True),
        Part("geometric_scale", "'with a scale that follows a geometric series' (Sec. 8.3.2, l.1876)", asserted=False,
             reason="informal and undefined in the main text; read as w_{j+2}/w_j constant it is false (0.41, 0.54, 0.62, "
                    "0.68, ... -> 1; w_j j(j+1) -> 1/24 -+ 1/16, a power law): recorded in details, reported as a "
                    "possible erratum of the narrative, not asserted"),
    ],
    mutants=[
        Mutant("K4-below-K1", "v_4^(2) < v_1^(2) at leading order (K_4 < K_1)", EvenOdd(k4_above_k1=False)),
        Mutant("odd-negative-from-1", "the sentence read over all j >= 1: w_1 < 0 (false: w_1 = +0.0028553, out of the printed "
               "range; the old checker's 'printed' statement)", EvenOdd(odd_negative_from=1), origin="second-reader"),
        Mutant("odd-positive", "w_j > 0 for odd j >= 3 (false: w_3 = -4.82e-4)", EvenOdd(odd_sign=1), origin="second-reader"),
        Mutant("even-negative", "w_j < 0 for even j (false: w_2 = (7 - 10 ln2)/8 = +0.00857)", EvenOdd(even_sign=-1),
               origin="second-reader"),
        Mutant("all-even-above-all-odd", "every even coordinate beats every odd one, j = 1 included (false: K_6 = 0.09837 < "
               "K_1 = 0.10228)", EvenOdd(all_pairs=True), origin="second-reader"),
        Mutant("even-ratio-0.75", "near-boundary: w_{j+2} < 0.75 w_j for even j (sharpness 0.7579 at j = 12 -> 14, quick; "
               "0.906 at full); rejected at the largest even j", EvenOdd(even_ratio=0.75), near_boundary=True,
               part="even_decreasing", origin="second-reader"),
        Mutant("amp-1.03", "near-boundary: K_j > 1.03 K_{j+-1} for even j (sharpness K_odd/K_even = 0.9772 at (j, i) = (14, 13), "
               "j_max = 14; 1/0.9772 = 1.0233 < 1.03)", EvenOdd(amp=1.03), near_boundary=True, part="even_amplified", origin="second-reader"),
    ],
    expect=Status.PARTLY_CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("j_max", int, 6, 60)],
    tiers={"quick": {"j_max": 14}, "full": {"j_max": 40}},
)
def check_even_odd(statement: EvenOdd, p, ctx) -> Verdict:
    """The coefficient w_j = E[(a-1)(b-1)^2(a-1/2) lambda^{j-1}/(a+b-2)^3] alternates: even j amplified.

    Statement
    ---------
    Sec. 8.3.2: after two steps the gradient amplifies the even coordinates of v much more than the odd
    ones, "with a scale that follows a geometric series".  End of the proof of Lemma E.1 (l.5905-5911):
    w_j = E[(a-1)(b-1)^2(a-1/2) lambda^{j-1}/(a+b-2)^3] "is negative for j odd and decreasing otherwise",
    "which shows that v_2^(2) > v_j^(2), j > 2".

    Hypotheses
    ----------
    j >= 2: w_j enters v_j^(2) only through (E.40), which is stated "for j >= 2"; v_1 uses K_1 (E.39,
    E.42), not w_1, and the sentence concludes about j > 2.  The odd j in range are j >= 3.

    Source
    ------
    Thesis (seed 004), Sec. 8.3.2 lines 1874-1881; end of the proof of Lemma E.1, lines 5905-5911.

    Checkable form
    --------------
    w_j for 2 <= j <= j_max (and w_1 for the odd-negative-from-1 mutant) by the K2 Gauss-Legendre rule
    (w_2 also exactly: (7 - 10 ln2)/8): odd_negative: sign(w_j) = odd_sign for odd j >= odd_negative_from;
    even_decreasing: sign(w_j) = even_sign and w_{j+2} < even_ratio w_j for even j; even_amplified:
    K_j > amp K_{j-1} and K_j > amp K_{j+1} for even j (K_1 from E.42 exact, K_j = 4 w_j + (8 ln2 - 5)/6
    for j >= 2); the old reading K_4 > K_1 kept as a sub-check.  Sharpness: exhaustive over j <= j_max
    (the domain is discrete): max_{even j} w_{j+2}/w_j (tends to 1 as j grows: 0.758 at j_max = 14, 0.906
    at 40; the statement is asymptotically tight) and max K_odd/K_even over neighbours (0.977 at (14, 13),
    0.9965 at 40, -> 1 since K_j -> (8 ln2 - 5)/6).  For all j the asymptotics near lambda = +-1 give
    w_j j(j+1) -> 1/24 - 1/16 = -1/48 (odd) and 1/24 + 1/16 = 5/48 (even) (measured -0.0194, 0.0995 at
    j = 39, 40), so the pattern persists beyond j_max.

    Exactness
    ---------
    Float64 Gauss-Legendre: the integrand times the Jacobian is a polynomial in (s, q); region 1 is exact,
    region 2 converges geometrically (80 vs 120 nodes agree to 1e-16 for j <= 41, checked in the run);
    the smallest |w_j| compared is 1.2e-5 (j = 41), 1e11 times the error.

    Mutants
    -------
    K4-below-K1 fails: K_4 = 0.10482 > K_1 = 0.10228.  odd-negative-from-1 fails at j = 1 (w_1 =
    +0.0028553).  odd-positive fails at j = 3, even-negative at j = 2, all-even-above-all-odd at (6, 1).
    even-ratio-0.75 and amp-1.03 are the near-boundary mutants (factors beyond the sharpness).  None of
    the second-reader variants was expressible in the old statement object except odd-negative-from-1,
    which was the old 'printed' statement.

    Notes
    -----
    Re-judged (contract audit): the old verdict "erratum" rested on j = 1 (w_1 > 0), outside the
    sentence's range (E.40 is for j >= 2; v_1 uses K_1).  In range the sentence holds on every j
    checked: no error.  The main text's "geometric series" is not geometric: w_{j+2}/w_j -> 1 and
    w_j ~ C/j^2 (details 'w_j j(j+1)'); it is an unasserted part.
    """
    ev = Evidence("lt", rigor=Rigor.FLOAT)
    jm = p["j_max"]
    lo = min(1, statement.odd_negative_from)
    w = {j: w_j_float(j) for j in range(lo, jm + 2)}
    w_check = {j: w_j_float(j, 120) for j in w}
    err = max(abs(w[j] - w_check[j]) for j in w)
    ev.add({"part": "quadrature: 80 vs 120 nodes agree"}, err, 1e-14, relation="le")
    ev.details["w_j"] = {j: w[j] for j in range(lo, jm + 1)}
    ev.details["w_j j(j+1)"] = {j: w[j] * j * (j + 1) for j in range(lo, jm + 1)}
    ev.details["w_{j+2}/w_j (even j)"] = {j: w[j + 2] / w[j] for j in range(2, jm - 1, 2)}
    for j in range(max(statement.odd_negative_from, 1), jm + 1):
        if j % 2 == 1:
            ev.add({"j": j, "part": "odd_negative: sign(w_j) = odd_sign"}, float(np.sign(w[j])) == statement.odd_sign, relation="true")
    for j in range(2, jm + 1, 2):
        ev.add({"j": j, "part": "even_decreasing: sign(w_j) = even_sign"}, float(np.sign(w[j])) == statement.even_sign, relation="true")
        if j + 2 <= jm:
            ev.add({"j": j, "part": "even_decreasing: w_{j+2} < even_ratio w_j", "even_ratio": statement.even_ratio},
                   w[j + 2], statement.even_ratio * w[j], part="even_decreasing")
    K1 = float((1 - sp.log(2)) / 3)
    sec = float((8 * sp.log(2) - 5) / 6)
    K = {1: K1}
    K.update({j: 4 * w[j] + sec for j in range(2, jm + 1)})
    ev.details["K_j"] = K
    for j in range(2, jm + 1, 2):
        for i in (j - 1, j + 1):
            if i <= jm:
                ev.add({"j": j, "i": i, "part": "even_amplified: amp K_i < K_j", "amp": statement.amp},
                       statement.amp * K[i], K[j], part="even_amplified")
    if statement.all_pairs:
        for j in range(2, jm + 1, 2):
            for i in range(1, jm + 1, 2):
                ev.add({"j": j, "i": i, "part": "all pairs: K_i < K_j"}, K[i], K[j], relation="lt", part="all_pairs")
    if statement.k4_above_k1:
        ev.add({"part": "K_1 < K_4 (old reading)"}, K1, K[4], relation="lt", part="k4_vs_k1")
    else:
        ev.add({"part": "K_4 < K_1"}, K[4], K1, relation="lt", part="k4_vs_k1")
    js = list(range(2, jm + 1))
    ev.plots.append({"title": "Leading-order second-step coefficients K_j (App. E)", "xlabel": "j", "ylabel": "K_j",
                     "series": [{"x": [1] + js, "y": [K1] + [K[j] for j in js], "label": "K_j", "style": "o-"}]})
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# C18. Corollary E.2
# ---------------------------------------------------------------------------------------------


def g11_diag_exact(t: int) -> Fraction:
    """Exact first-step diagonal W update for a = b ~ U[0,1]: (1/(4t)) sum_{d odd < t} (t-d)(t-d+1)/(2(d+2))."""
    return sum((Fraction((t - d) * (t - d + 1), 2 * (d + 2)) for d in range(1, t, 2)), Fraction(0)) / (4 * t)


def gv_diag_exact(t: int, j: int, shift: int = 2) -> Fraction:
    """Exact first-step v update for a = b ~ U[0,1] (derived from E.28 with a = b, E[lambda^q] = 1/(q+1)
    for even q, 0 for odd q, lambda = 2a - 1 ~ U[-1, 1]): (1/(2t)) sum_{m=1}^{t-j+1} sum_{odd r < m} 1/(r+shift), shift = 2."""
    n = t - j + 1
    inner = Fraction(0)
    tot = Fraction(0)
    for m in range(1, n + 1):
        if (m - 1) % 2 == 1:
            inner += Fraction(1, m - 1 + shift)
        tot += inner
    return tot / (2 * t)


@dataclass(frozen=True)
class CorE2:
    v_form: str = "closed"  # closed: G_v(j) = v_coef (t-j+1)/t + O(1/t); exact: the rational gv_diag_exact(t, j, shift)
    v_coef: Fraction = Fraction(-1, 2)  # printed (E.45): v_j^(1) = c - (c eta/(2t))(t-j+1) + O(1/t)
    rem_C: float = 2.0  # reading of O(1/t): |remainder| <= rem_C / t
    shift: int = 2  # corrected form: 1/(r + shift)
    diag_superlinear: bool = True  # the diagonal update "O(t) * infinity": G_11/t grows (like ln t / 16)


def _cor_e2_hypotheses(case) -> list[str]:
    bad = []
    t, j = case.get("t"), case.get("j")
    if t is not None and int(t) < 1:
        bad.append("t >= 1")
    if j is not None and not (1 <= int(j) <= int(t)):
        bad.append("j in [t]")
    return bad


@claim(
    id="thesis_ch8.corollary_E_2",
    source=SOURCE,
    label="Corollary E.2",
    entry="C18",
    title="Corollary E.2 (a = b): off-diagonal update exactly 0, diagonal Theta(t log t); the printed v update has the wrong sign and order",
    lines=[(5913, 5949)],
    printed=CorE2(),
    corrected=CorE2(v_form="exact"),
    parts=[
        Part("W_offdiag", "off-diagonal of W^(1): c + c eta [O(t) * 0 + O(1)] (no O(t) part; the proof gets exactly c, E.48)"),
        Part("W_diag", "diagonal of W^(1): c + c eta [O(t) * infinity + O(1)] (superlinear in t)"),
        Part("v_form", "v_j^(1) = c - (c eta/(2t))(t-j+1) + O(1/t), j in [t]"),
    ],
    severity=Severity.SUBSTANTIVE,
    affects=("thesis_ch8.proposition_8_5",),
    hypotheses=_cor_e2_hypotheses,
    mutants=[
        Mutant("printed-1/t", "v_j^(1) = c - (c eta/t)(t-j+1) + O(1/t)", CorE2(v_coef=Fraction(-1))),
        Mutant("sign-flipped", "v_j^(1) = c + (c eta/(2t))(t-j+1) + O(1/t) (only the sign corrected): false, the update is "
               "Theta(ln t) at j = 1 (0.7433 at t = 100 vs 0.505, off by 0.24 >> 2/t)", CorE2(v_coef=Fraction(1, 2)),
               origin="second-reader"),
        Mutant("exact-shift-1", "corrected form with 1/(r+1) instead of 1/(r+2) (E[lambda^q] = 1/q)", CorE2(v_form="exact", shift=1),
               origin="second-reader"),
        Mutant("diag-linear", "the diagonal update is O(t) (G_11/t bounded: increments per decade ~ 0)",
               CorE2(v_form="exact", diag_superlinear=False), origin="second-reader"),
    ],
    expect=Status.ERRATUM,
    rigor=Rigor.EXACT,
    params=[Param("t_list", str), Param("points", int, 1, 50), Param("t_exact_max", int, 2, 30)],
    tiers={"quick": {"t_list": "10,50,100", "points": 3, "t_exact_max": 10},
           "full": {"t_list": "10,50,100,200,400", "points": 5, "t_exact_max": 14}},
)
def check_corollary_E2(statement: CorE2, p, ctx) -> Verdict:
    """For a = b ~ U[0,1]: W^(1) = c11^T + c eta [O(t)[[inf, 0], [0, inf]] + O(1)], v_j^(1) = c - (c eta/(2t))(t-j+1) + O(1/t).

    Statement
    ---------
    Corollary E.2 (symmetric 2-state chains, a = b ~ U[0,1]): after one GD step from W = c11^T,
    v = c1, the off-diagonal of W^(1) has no O(t) part (the proof, E.48, gets exactly c), the diagonal
    gets an "O(t) * infinity" update, and v_j^(1) = c - (c eta/(2t))(t-j+1) + O(1/t), j in [t]: "less
    signal towards unigrams".

    Hypotheses
    ----------
    Those of Lemma E.1 (init c11^T, c1; linear regime of the margin loss) with a = b ~ U[0,1]; t >= 1,
    j in [t].  The validator checks t >= 1 and 1 <= j <= t on the witness.

    Source
    ------
    Thesis (seed 004), App. E, Corollary E.2 and its proof, lines 5913-5949.

    Checkable form
    --------------
    Units c = eta = 1.  (W_offdiag) exact rational a and t <= t_exact_max: sum_j T_j(P)_{12} = 0 exactly
    (so the off-diagonal is exactly c for every a).  (W_diag) the exact rational G_11(t) = (1/(4t))
    sum_{odd d < t} (t-d)(t-d+1)/(2(d+2)) equals K1 with 1-D Gauss-Legendre to 1e-10 relative for t in
    t_list; G_11/t grows like (ln t)/16: increments per decade between t = 1e3, 1e4, 1e5 within 20% of
    ln(10)/16 (the diag-linear mutant asks them to be below 0.2 ln(10)/16).  (v_form) G_v(j) = sum_{ml}
    E T_{j,m,l} for t in t_list, j in {1, t/2, t}: closed form v_coef (t-j+1)/t within rem_C/t (the O(1/t));
    the corrected form is the exact rational gv_diag_exact(t, j) (derived from E.28), to 1e-10 relative.

    Exactness
    ---------
    W off-diagonal exact (Fractions); the rest float64 quadrature exact up to rounding (1e-13
    relative), against tolerances 1e-10 relative or rem_C/t.

    Mutants
    -------
    printed-1/t fails like the printed form.  sign-flipped (second reader; not expressible in the old
    statement object) fails at t = 50, 100, j = 1: the true update is 0.6065, 0.7433 against 0.51, 0.505
    (the true one grows like ln t).  exact-shift-1 fails the exact comparison at t = 10.  diag-linear
    fails: the increments per decade are 0.146 ~ ln(10)/16 = 0.144.  The printed v form fails at t = 10,
    j = 1 (+0.2769, not -0.5) and at t = 100 (+0.7433 vs -0.5): positive and growing like
    (t - j) ln(t - j)/(4t).

    Correction
    ----------
    v_j^(1) = c + (c eta/(2t)) sum_{m=1}^{t-j+1} sum_{odd r < m} 1/(r+2) = c + c eta Theta((t-j+1) ln(t-j+1)/t):
    positive and decreasing in j (still far weaker than the Theta(t) unigram bias of the U[0,1]^2 case).

    Notes
    -----
    Re-judged (contract audit): the witness (t, j) meets every printed hypothesis and the failure does
    not shrink with t (the printed form is bounded, the true one grows like ln t), so the printed
    statement is false: erratum, substantive (the sign of the v update flips; Prop. E.3's proof, E.54-E.55,
    cites E.49).  No sharpness: the parts are identities and growth rates, not bounds.
    """
    ev = Evidence("approx", rigor=Rigor.EXACT)
    rng = ctx.rng("points")
    for i in range(p["points"]):
        a = Fraction(int(rng.integers(1, 40)), 41)
        P = np.array([[a, 1 - a], [1 - a, a]], dtype=object)
        pi = np.array([Fraction(1, 2), Fraction(1, 2)], dtype=object)
        for t in range(1, p["t_exact_max"] + 1):
            G = t_tensor(P, t, pi).sum(0)
            ev.add({"a": a, "t": t, "part": "W_offdiag: off-diagonal update = 0 exactly"}, G[0, 1], 0, relation="eq")
    for t in [int(s) for s in p["t_list"].split(",")]:
        ET = expected_T_diag(t)
        G = ET.sum(0)
        ex = float(g11_diag_exact(t))
        ev.add({"t": t, "part": "W_diag: G_11 rational = K1 quadrature"}, float(G[0, 0]), ex, tol=1e-10 * ex)
        Gv = ET.sum((1, 2))
        for j in sorted({1, t // 2, t}):
            case = {"t": t, "j": j, "part": f"v_form ({statement.v_form})"}
            if statement.v_form == "exact":
                val = float(gv_diag_exact(t, j, statement.shift))
                ev.add(case, float(Gv[j - 1]), val, tol=1e-10 * max(abs(val), 1e-3))
            else:
                ev.add(dict(case, v_coef=statement.v_coef), float(Gv[j - 1]), float(statement.v_coef) * (t - j + 1) / t,
                       tol=statement.rem_C / t)
    prev = None
    incs = []
    for e in (3, 4, 5):
        t = 10**e
        d = np.arange(1, t, 2, dtype=float)
        g = float(((t - d) * (t - d + 1) / (2 * (d + 2))).sum() / (4 * t))
        ev.details[f"G_11/(t ln t/16), t=1e{e}"] = g / (t * np.log(t) / 16)
        if prev is not None:
            incs.append((t, g / t - prev))
        prev = g / t
    for t, inc in incs:
        if statement.diag_superlinear:
            ev.add({"t": t, "part": "W_diag: G_11/t increment per decade vs ln(10)/16"}, inc, np.log(10) / 16, tol=0.2 * np.log(10) / 16)
        else:
            ev.add({"t": t, "part": "W_diag (mutant): G_11/t increment per decade <= 0.2 ln(10)/16"}, inc, 0.2 * np.log(10) / 16,
                   relation="le")
    return ev.verdict(seed=ctx.seed("points"))


# ---------------------------------------------------------------------------------------------
# C19. Proposition 8.5 / E.3
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PropE3:
    rem_coef: float = 5.0  # (E.50) f = O(eps^4) bigram + O(eps^6): median |rest|/|bigram| <= rem_coef eps^rem_power
    rem_power: int = 2
    rem_lower: float = 0.0  # corrected: the remainder is of the same order (ratio >= rem_lower)
    sign_agree: float | None = None  # corrected: the bigram term decides the sign of the last-token gap on >= this share
    bigram_power: int = 4  # the bigram coefficient alpha v_2 = Theta(eps^bigram_power)
    w_formula: str | None = None  # proof steps: 'printed' E.53, 'eps' E.58 (Theta(eps)), 'corrected' (Theta(eps^2))
    v2_eps_power: int | None = None  # proof step E.59: v_2 ~ eps^3 (printed); eps^2 (corrected)
    kappa1: float = 1.0  # eta_1 = kappa1 / t^2
    kappa2: float = 1.0  # eta_2 = kappa2 / t
    w_init: float = 0.0
    v_init: float = 1.0
    wd: float = 1.0  # weight decay of the second step (on W and v, as E.53, E.54 apply it)
    lead_eps_max: float = 0.2  # the eps^power constancy checks (leading order in eps) use eps <= lead_eps_max


_E3_PRINTED = PropE3()
_E3_CORRECTED = PropE3(rem_coef=10.0, rem_power=0, rem_lower=0.1, sign_agree=0.8, w_formula="corrected", v2_eps_power=2)


def _e3_run(t: int, eps: float, kappa1: float = 1.0, kappa2: float = 1.0, w_init: float = 0.0, v_init: float = 1.0, wd: float = 1.0):
    W0, v0 = np.full((2, 2), w_init), np.full(t, v_init)
    W1, v1 = linear_gd(expected_T(t), W0, v0, kappa1 / t**2)
    W2, v2 = linear_gd(expected_T_diag(t, 0.5 - eps, 0.5 + eps), W1, v1, kappa2 / t, wd_W=wd, wd_v=wd)
    return W2, v2


def _e3_ratio(x, W2, v2):
    """median over chains of |rest|/|bigram| for the last-token logit gap, and the sign agreement."""
    alpha = float(W2[0, 0] - W2[0, 1])
    t = x.shape[1]
    fb = minimal_model_forward(x, np.diag([alpha, alpha]), np.eye(t)[1] * v2[1], 2)[:, -1]
    ff = minimal_model_forward(x, W2, v2, 2)[:, -1]
    gb = fb[:, 0] - fb[:, 1]
    gr = (ff[:, 0] - ff[:, 1]) - gb
    ok = np.abs(gb) > 0
    return float(np.median(np.abs(gr[ok]) / np.abs(gb[ok]))), float(np.mean(np.sign(ff[ok, 0] - ff[ok, 1]) == np.sign(gb[ok])))


@functools.cache
def _e57_holds(j: int) -> bool:
    """(E.57) as an unnormalised integral, symbolically (cached: every statement of the claim shares it)."""
    e, a = sp.symbols("epsilon a", positive=True)
    I = sp.integrate((a - HALF) * (2 * a - 1) ** (j - 1), (a, HALF - e, HALF + e))
    want = 0 if j % 2 else sp.Integer(4) ** (j // 2) * e ** (j + 1) / (j + 1)
    return bool(sp.simplify(I - want) == 0)


@functools.lru_cache(maxsize=64)
def _e3_cached(t: int, eps: float, gd: tuple, seed: int, chains: int, length: int):
    """(W2, v2, median ratio, sign agreement) of one curriculum run on the claim's chains of the given length
    (cached: the printed statement, the corrected one and the mutants share the GD parameters)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    ab = rng.random((chains, 2))
    x = sample_chains(rng, k2_matrices(ab[:, 0], ab[:, 1]), t)
    x2 = sample_chains(rng, k2_matrices(ab[:, 0], ab[:, 1]), 2 * t)
    W2, v2 = _e3_run(length, eps, *gd)
    ratio, agree = _e3_ratio(x if length == t else x2, W2, v2)
    return W2, v2, ratio, agree


def _e3_hypotheses(case) -> list[str]:
    bad = []
    if "eps" in case and not (0 < float(case["eps"]) < 0.5):
        bad.append("eps in (0, 1/2)")
    if "wd" in case and float(case["wd"]) != 1.0:
        bad.append("lambda_wd = 1")
    for k in ("kappa1", "kappa2"):
        if k in case and not (0 < float(case[k]) < float("inf")):
            bad.append(f"{k} in (0, inf) (eta_1 = O(1/t^2), eta_2 = O(1/t))")
    if "v_init" in case and float(case["v_init"]) == 0:
        bad.append("v_init != 0")
    if "ratio_2t" in case and float(case["ratio_2t"]) < 0.9 * float(case["ratio"]):
        bad.append("t -> infinity: the ratio must not decay from t to 2t")
    return bad


@claim(
    id="thesis_ch8.proposition_8_5",
    source=SOURCE,
    label="Proposition 8.5",
    entry="C19",
    title="Prop. 8.5 / E.3 (two-step curriculum): bigram coefficient Theta(eps^4) holds; the O(eps^6) remainder does not (same order as the bigram term)",
    lines=[(1896, 1898), (5951, 6019)],
    printed=_E3_PRINTED,
    corrected=_E3_CORRECTED,
    parts=[
        Part("bigram_coefficient", "(E.50) f(e)_{p,i} = O(eps^4) sum_{t'} 1{x_t' = i} 1{x_p = x_{t'-1}} + ...: the bigram "
             "coefficient alpha v_2 is of order eps^4"),
        Part("remainder", "(E.50) ... + O(eps^6): the rest of f is eps^2 smaller than the bigram term (t -> infinity)",
             inequality=True),
    ],
    severity=Severity.SUBSTANTIVE,
    hypotheses=_e3_hypotheses,
    mutants=[
        Mutant("W=Theta(eps)", "corrected, with the proof's E.58 W^(2) = Theta(eps) I (alpha/eps constant)",
               replace(_E3_CORRECTED, w_formula="eps")),
        Mutant("v2~eps^3", "corrected, with the proof's E.59 v_2^(2) ~ eps^3", replace(_E3_CORRECTED, v2_eps_power=3)),
        Mutant("W-printed-E53", "corrected, with the proof's E.53 alpha = v_init kappa_2 (2 eps + 1/2 ln((1/2-eps)/(1/2+eps))) "
               "(negative; drops -1/(16 eps))", replace(_E3_CORRECTED, w_formula="printed"), origin="second-reader"),
        Mutant("bigram-eps^2", "the bigram coefficient is Theta(eps^2) (alpha v_2/eps^2 constant): false, it is eps^4 "
               "(alpha ~ eps^2/6, v_2 ~ 1e-3 eps^2)", replace(_E3_CORRECTED, bigram_power=2), origin="second-reader"),
        Mutant("remainder-below-1.0", "near-boundary: corrected with the remainder <= 1.0 x the bigram term (sharpness 0.1069 "
               "of the bound 10: largest median ratio 1.069 at eps = 0.2, t = 100)", replace(_E3_CORRECTED, rem_coef=1.0),
               near_boundary=True, part="remainder", origin="second-reader"),
    ],
    expect=Status.ERRATUM,
    rigor=Rigor.FLOAT,
    affects=(),
    params=[Param("t", int, 50, 400), Param("chains", int, 20, 2000), Param("eps_list", str)],
    tiers={"quick": {"t": 100, "chains": 100, "eps_list": "0.05,0.1,0.2"}, "full": {"t": 200, "chains": 200, "eps_list": "0.025,0.05,0.1,0.2,0.3"}},
)
def check_proposition_8_5(statement: PropE3, p, ctx) -> Verdict:
    """Curriculum: step 1 on (a,b) ~ U^2 (eta_1 ~ 1/t^2), step 2 on a = b ~ U[1/2-eps, 1/2+eps] (eta_2 ~ 1/t, wd 1).

    Statement
    ---------
    Prop. E.3: from W = w_init 11^T, v = v_init 1, one GD step on (a, b) ~ U[0,1]^2 with eta_1 = O(1/t^2),
    then one step on a = b ~ U[1/2 - eps, 1/2 + eps], eps in (0, 1/2), with eta_2 = O(1/t) and weight decay
    lambda_wd = 1, give for t -> infinity (E.50) f(e)_{p,i} = O(eps^4) sum_{t'} 1{x_t' = i}
    1{x_p = x_{t'-1}} + O(eps^6): the bigram solution.  The proof's steps: (E.53) W^(2) = v_init eta_2
    (2 eps + 1/2 ln((1/2-eps)/(1/2+eps))) O(t) I + O(1), (E.58) W^(2) = O(eps) I + O(1/t), (E.59) v_j =
    O((t-j+1)(t-j+2)/t^2) eps^{j+1} 1{j even} + O(1/t).

    Hypotheses
    ----------
    eta_1 = kappa1/t^2, eta_2 = kappa2/t with kappa = 1; weight decay 1 applied to W and v at step 2 (as
    E.53 and E.54 do); w_init = 0, v_init = 1 (any values are allowed by the statement).  The main text
    (l.1898) reverses the learning-rate comparison; the appendix's (eta_1 << eta_2) is used.  t -> infinity:
    the witness records the ratio at t and 2t, and the validator requires it not to decay.

    Source
    ------
    Thesis (seed 004), Proposition 8.5 (lines 1896-1898) = Proposition E.3 and its proof, lines 5951-6019.

    Checkable form
    --------------
    Exact linear GD (K1 with K2 / 1-D Gauss-Legendre expectations) at t (and 2t) and eps in eps_list:
    (a) E.57 as an unnormalised integral, symbolic (sympy) for j <= 6.  W^(2) = alpha I + offdiag with
    |offdiag| <= 1e-12 |alpha|, alpha > 0, argmax_j v^(2) = 2.  (bigram_coefficient) alpha v_2 /
    eps^bigram_power constant within 15% across eps.  (remainder) on `chains` sampled chains ((a, b) ~ U^2,
    length t): f = f_bigram + f_rest with f_bigram the minimal model with (alpha I, v_2 e_2); the median
    |rest|/|bigram| of the last-token logit gap must be <= rem_coef eps^rem_power (printed: 5 eps^2, the
    O(eps^6)/O(eps^4) reading with a generous constant) and >= rem_lower.  The corrected statement: the
    ratio in [0.1, 10] (same order) and the sign of the last-token gap agreeing with the pure bigram term
    on >= 80% of the chains.  Proof steps as optional fields: alpha against E.53 ('printed') or the
    corrected -kappa_2 v_init (2 eps + 1/2 ln(...))/(16 eps) = kappa_2 v_init (eps^2/6 + O(eps^4)) within
    10%; alpha/eps constant ('eps', E.58); v_2/eps^power constant within 15% (E.59 power 3; corrected 2).
    Sharpness (corrected 'remainder'): the largest median ratio / 10 over eps_list (exhaustive over the
    list): 0.1069 at eps = 0.2 (quick); the ratio is ~0.95-1.14 for every eps in [0.025, 0.2] and t in {100, 200,
    400} (measured while auditing): it does not decay with eps or t.

    Exactness
    ---------
    (a) exact.  Quadrature float64 (relative error < 1e-12) against 10% / 15% tolerances that cover
    the O(eps^2) and O(1/t) corrections (measured <= 10% at eps <= 0.2, t >= 100).  The remainder is a
    Monte Carlo median of an exact per-chain ratio; the printed bound is missed by a factor > 20 (median
    ~0.96 against 5 eps^2 = 0.0125 at eps = 0.05).  Cost: the GD runs, the chain ratios (at t and 2t) and
    the symbolic E.57 checks are cached across the statements of the claim (they depend only on the GD
    parameters, which the mutants share), so the mutants cost almost nothing; the quick tier keeps the 2t
    runs (the validator's t -> infinity condition needs them).

    Mutants
    -------
    W=Theta(eps) fails: alpha/eps grows by a factor 4 between eps = 0.05 and 0.2.  v2~eps^3 fails: v_2/eps^3
    changes by a factor 4.  W-printed-E53 fails: E.53 is negative while alpha > 0.  bigram-eps^2 fails:
    alpha v_2/eps^2 changes by a factor ~16.  remainder-below-1.0 is the near-boundary mutant.  Of these,
    W-printed-E53 was the old printed statement; bigram-eps^2 was not expressible in the old object.

    Correction
    ----------
    After the two steps f = Theta(eps^4) [bigram count + a remainder of the same order] (W^(2) = Theta(eps^2) I,
    v_2 = Theta(eps^2), and the O(1/t) coordinates v_j of all other lags add up to a term as large as the
    bigram one); the bigram term decides the sign of the prediction on most sequences.

    Notes
    -----
    Re-judged (contract audit): the witness meets every printed hypothesis (eps in (0, 1/2), eta_1 =
    1/t^2, eta_2 = 1/t, lambda_wd = 1, w_init = 0, v_init = 1) and the ratio is the same at t and 2t, so
    it is not a finite-t effect: erratum of the statement, substantive (the conclusion "the bigrams
    solution" holds only in the weak sense of the corrected statement).  The proof steps E.53, E.58,
    E.59 are wrong too (normalisation 1/(2 eps) and a factor -1/8 dropped), kept as mutants.
    Full tier (second pass): eps_list includes 0.3, where alpha v_2/eps^4 differs by 29% from its
    small-eps value (O(eps^2) corrections), so the corrected statement failed at full (refuted instead
    of erratum).  The eps-power constancy checks are leading-order statements and now use eps <=
    lead_eps_max = 0.2 (all of quick's eps; 0.025..0.2 at full), the larger eps being reported; the
    remainder and sign parts still use every eps.
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    for j in range(1, 7):
        ev.add({"j": j, "part": "(E.57) unnormalised integral"}, _e57_holds(j), relation="true")
    t = p["t"]
    eps_list = [float(s) for s in p["eps_list"].split(",")]
    alphas, v2s = [], []
    hyp = {"kappa1": statement.kappa1, "kappa2": statement.kappa2, "w_init": statement.w_init, "v_init": statement.v_init,
           "wd": statement.wd}
    gd = (statement.kappa1, statement.kappa2, statement.w_init, statement.v_init, statement.wd)
    for eps in eps_list:
        W2, v2, ratio, agree = _e3_cached(t, eps, gd, ctx.seed("chains"), p["chains"], t)
        alpha = float(W2[0, 0] - W2[0, 1])
        alphas.append(alpha)
        v2s.append(float(v2[1]))
        L = 2 * eps + 0.5 * np.log((0.5 - eps) / (0.5 + eps))
        case = dict(hyp, t=t, eps=eps)
        ev.add(dict(case, part="|offdiag W^(2)| <= 1e-12 alpha"), abs(float(W2[0, 1])), 1e-12 * abs(alpha) + 1e-300)
        ev.add(dict(case, part="alpha > 0"), 0.0, alpha, relation="lt")
        ev.add(dict(case, part="argmax_j v^(2)_j"), int(np.argmax(v2)) + 1, 2, relation="eq")
        if statement.w_formula in ("printed", "corrected"):
            pred = statement.v_init * statement.kappa2 * (L if statement.w_formula == "printed" else -L / (16 * eps))
            ev.add(dict(case, part=f"proof step: alpha vs {statement.w_formula} formula (relative)", alpha=alpha, formula=pred),
                   abs(alpha / pred - 1), 0.10)
        ratio2 = _e3_cached(t, eps, gd, ctx.seed("chains"), p["chains"], 2 * t)[2]
        ev.details[f"eps={eps}: median |rest|/|bigram| at t, 2t; sign agreement"] = (ratio, ratio2, agree)
        rcase = dict(case, ratio=ratio, ratio_2t=ratio2, part="remainder: median |f_rest|/|f_bigram| <= rem_coef eps^rem_power",
                     rem_coef=statement.rem_coef, rem_power=statement.rem_power)
        ev.add(rcase, ratio, statement.rem_coef * eps**statement.rem_power, part="remainder")
        if statement.rem_lower > 0:
            ev.add(dict(case, part="remainder: same order (ratio >= rem_lower)"), ratio, statement.rem_lower, relation="ge",
                   part="remainder_lower")
        if statement.sign_agree is not None:
            ev.add(dict(case, part="sign agreement with the pure bigram term"), agree, statement.sign_agree, relation="ge",
                   part="sign_agreement")
    # leading order in eps: the constancy checks use eps <= lead_eps_max (at eps = 0.3 the O(eps^2) corrections
    # reach ~29% of alpha v_2 / eps^4; reported in details)
    lead = [i for i, ep in enumerate(eps_list) if ep <= statement.lead_eps_max]
    alphas_l, v2s_l, eps_l = [alphas[i] for i in lead], [v2s[i] for i in lead], [eps_list[i] for i in lead]
    ev.details["alpha v_2 / eps^4 (all eps)"] = [al * v / ep**4 for al, v, ep in zip(alphas, v2s, eps_list)]
    if statement.w_formula == "eps":
        r = [al / ep for al, ep in zip(alphas_l, eps_l)]
        ev.add({"part": "proof step E.58: alpha/eps constant across eps (max/min - 1)"}, max(r) / min(r) - 1, 0.10)
    if statement.v2_eps_power is not None:
        r = [v / ep**statement.v2_eps_power for v, ep in zip(v2s_l, eps_l)]
        ev.add({"part": f"proof step E.59: v_2/eps^{statement.v2_eps_power} constant across eps (max/min - 1)"}, max(r) / min(r) - 1, 0.15)
    r = [al * v / ep**statement.bigram_power for al, v, ep in zip(alphas_l, v2s_l, eps_l)]
    ev.add({"part": f"bigram_coefficient: alpha v_2/eps^{statement.bigram_power} constant across eps (max/min - 1)"},
           max(r) / min(r) - 1, 0.15)
    ev.details["alpha/eps^2"] = [al / ep**2 for al, ep in zip(alphas, eps_list)]
    return ev.verdict(seed=ctx.seed("chains"))


# ---------------------------------------------------------------------------------------------
# C20. Sec. 8.3.2 qualitative corollaries
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Corollaries832:
    ab_equal_removes_W: bool = False  # mutant: a = b removes all W-gradient
    tiny_step_argmax: int = 1  # (ii) with a tiny W step, v^(2) peaks at this coordinate (the unigram solution: 1)
    ab_reduces_v1: bool = True  # (iii) a = b reduces the first v-gradient at j = 1 (False: the mutant 'a = b increases it')


@claim(
    id="thesis_ch8.sec_8_3_2_corollaries",
    source=SOURCE,
    label="Sec. 8.3.2",
    entry="C20",
    title="2nd layer learnt first; small W-step gives the unigram solution; a = b removes the v_1 preference",
    lines=[(1868, 1894)],
    printed=Corollaries832(),
    mutants=[Mutant("a=b-no-W-gradient", "a = b removes all W-gradient", Corollaries832(ab_equal_removes_W=True)),
             Mutant("tiny-step-bigram", "with a tiny W step v^(2) still peaks at j = 2 (no unigram detour)",
                    Corollaries832(tiny_step_argmax=2), origin="second-reader"),
             Mutant("a=b-increases-v1", "a = b increases the first v-gradient at j = 1", Corollaries832(ab_reduces_v1=False),
                    origin="second-reader")],
    parts=[
        Part("second_layer_first", "2nd layer is learnt first: at the default init only W_k gets an informative (diagonal) gradient"),
        Part("passing_by_unigrams", "if the W-gradient is small, W stays ~ uniform while v_1 grows: the unigram solution"),
        Part("ab_removes_v1_preference", "for a = b the first v-gradient has no heavy preference for the first coordinate"),
    ],
    expect=Status.MECHANISM,
    rigor=Rigor.MECHANISM,
    kind=Kind.MECHANISM,
    params=[Param("t", int, 20, 400)],
    tiers={"quick": {"t": 100}, "full": {"t": 200}},
)
def check_corollaries(statement: Corollaries832, p, ctx) -> Verdict:
    """Qualitative consequences of Lemma 8.4 (Sec. 8.3.2), checked through the exact linear-regime GD.

    Statement
    ---------
    (i) At the default init only W_k receives an informative (diagonal) gradient ("the 2nd layer is
    learnt first"); (ii) if the W-gradient is small, W stays ~ uniform while v's first coordinate
    grows: the unigram solution ("passing by unigrams"); (iii) removing the unigram signal (a = b)
    removes the heavy preference for v_1 in the first v-gradient.

    Source
    ------
    Thesis (seed 004), Sec. 8.3.2, lines 1868-1894.

    Checkable form
    --------------
    Units c = eta = 1 at t: (i) the diagonal-minus-off-diagonal W signal G_11 - G_12 exceeds 5 times
    the j-variation G_v(1) - G_v(t) of the v update (63.40 vs 5.84 at t = 100).  (ii) two linear GD
    steps with eta = 0.01 eta*(t) from c = 0.02: argmax v^(2) = 1 and the W off/diag ratio > 0.9.
    (iii) the first v-gradient at j = 1 for a = b is below a quarter of its (a, b) ~ U^2 value (the
    quadratic "unigram" term D (t-j+1)(t-j+2)/(2t) of (E.28) vanishes identically at a = b).  The mutant
    requires the a = b diagonal W update to vanish (|G_11| <= 1e-9).

    Exactness
    ---------
    Float64 quadrature (relative error < 1e-12) against O(1) factors: mechanism-level statements,
    hence status mechanism.

    Mutants
    -------
    a=b-no-W-gradient fails: the a = b diagonal update is 16.0 at t = 100 (Theta(t log t), C18).
    tiny-step-bigram (second reader; not expressible before) fails: argmax v^(2) = 1 at eta = 0.01 eta*.
    a=b-increases-v1 (second reader) fails: G_v(1) = 5.84 (U^2) against 0.74 (a = b) at t = 100.

    Notes
    -----
    Contract audit: the three parts are qualitative (mechanism); the factors 5, 0.9, 4 are the checker's
    operationalisation, not printed bounds, so no part is an inequality with a sharpness.  No error.
    """
    ev = Evidence("gt", rigor=Rigor.MECHANISM)
    t = p["t"]
    ET = expected_T(t)
    G, Gv = ET.sum(0), ET.sum((1, 2))
    ev.add({"t": t, "part": "(i) (G_11 - G_12) > 5 (G_v(1) - G_v(t))"}, float(G[0, 0] - G[0, 1]), 5 * float(Gv[0] - Gv[-1]))
    es = eta_star(t)
    _, _, W2, v2 = two_steps(t, 0.02, 0.01 * es)
    ev.add({"t": t, "eta": 0.01 * es, "part": "(ii) argmax v^(2) with a tiny W step"}, int(np.argmax(v2)) + 1,
           statement.tiny_step_argmax, relation="eq")
    ev.add({"t": t, "part": "(ii) W^(2) off/diag stays ~ uniform"}, float(W2[0, 1] / W2[0, 0]), 0.9)
    ETd = expected_T_diag(t)
    Gvd = ETd.sum((1, 2))
    if statement.ab_reduces_v1:
        ev.add({"t": t, "part": "(iii) first v-gradient at j = 1: U^2 > 4 x (a = b)"}, float(Gv[0]), 4 * float(Gvd[0]))
    else:
        ev.add({"t": t, "part": "(iii) mutant: first v-gradient at j = 1: (a = b) > U^2"}, float(Gvd[0]), float(Gv[0]))
    ev.details["G_v(1..5), U^2"] = Gv[:5].tolist()
    ev.details["G_v(1..5), a = b"] = Gvd[:5].tolist()
    if statement.ab_equal_removes_W:
        ev.add({"t": t, "part": "a = b: diagonal W update vanishes"}, abs(float(ETd.sum(0)[0, 0])), 1e-9, relation="le")
    ev.plots.append({"title": f"First-step v update G_v(j), t = {t}", "xlabel": "j", "ylabel": "G_v(j)",
                     "series": [{"x": list(range(1, t + 1)), "y": Gv.tolist(), "label": "(a, b) ~ U[0,1]^2", "style": "-"},
                                {"x": list(range(1, t + 1)), "y": Gvd.tolist(), "label": "a = b ~ U[0,1]", "style": "--"}]})
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# C23. [derived] linear-regime dynamics
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LinearDynamics:
    v1_over_v2_min: float = 0.5  # the limit direction of v has v_1/v_2 >= this (not sparse)
    w1_argmax: int = 2  # the top right singular vector peaks at j = w1_argmax
    rank: int = 2  # rank of M (state-swap symmetry)


@claim(
    id="thesis_ch8.linear_regime_dynamics",
    source=SOURCE,
    label="App. E linear regime (derived)",
    entry="C23",
    title="[derived] Linear-regime GD is a linear system: rank-2 M, iterates align with the top singular pair (v peaked at j = 2, not sparse)",
    lines=[(5651, 5661)],
    printed=LinearDynamics(),
    mutants=[Mutant("converges-to-e2", "linear-regime GD converges to v proportional to e_2 (v_1/v_2 <= 0.05)",
                    LinearDynamics(v1_over_v2_min=-1.0)),
             Mutant("not-sparse-0.87", "near-boundary: w_1[1]/w_1[2] >= 0.87 (sharpness 0.5/0.8680 = 0.576; 0.87 just above the "
                    "value 0.8680 found at t = 100)", LinearDynamics(v1_over_v2_min=0.87), near_boundary=True, part="not_sparse",
                    origin="second-reader"),
             Mutant("peaks-at-1", "the limit direction of v peaks at j = 1 (the first-step preference)", LinearDynamics(w1_argmax=1),
                    origin="second-reader"),
             Mutant("rank-1", "M has rank 1 (sigma_2 <= 1e-10 sigma_1)", LinearDynamics(rank=1), origin="second-reader")],
    parts=[
        Part("rank_2", "rank M = 2 (state-swap symmetry)"),
        Part("u1_diagonal", "u_1 is diagonal-dominant (off/diag < 0.5)"),
        Part("w1_peak", "w_1 peaks at j = 2"),
        Part("not_sparse", "w_1 is not sparse: w_1[1]/w_1[2] >= 0.5", inequality=True),
        Part("alignment", "the GD iterate aligns with (u_1, w_1): cosine >= 1 - 1e-6"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
    derived=True,
    params=[Param("t", int, 20, 400), Param("steps", int, 5, 2000)],
    tiers={"quick": {"t": 100, "steps": 60}, "full": {"t": 200, "steps": 120}},
)
def check_linear_dynamics(statement: LinearDynamics, p, ctx) -> Verdict:
    """Derived: 𝓛 = const - <W, M v>; GD (W, v) <- (W + eta M v, v + eta M^T W) aligns with (u_1, w_1) of M.

    Statement
    ---------
    (Derived, not in the thesis; catalog C23.)  While all hinges are active, the minimal model's
    population loss is const - <W, M v> with M_{(ml), j} = E T_{j,m,l}; GD is linear and the iterate
    aligns with the top singular pair (u_1, w_1) of M.  For k = 2, rank M = 2 (state-swap symmetry);
    u_1 is diagonal-dominant and w_1 peaks at j = 2 but is not sparse (w_1[1]/w_1[2] ~ 0.87): linear-
    regime GD alone does not reach the bigram solution v = e_2.

    Source
    ------
    App. E linear regime (derived), thesis (seed 004): the minimal model (E.2) and the linear regime of
    the first step, lines 5651-5661; the thesis states no gradient-flow theorem.

    Checkable form
    --------------
    SVD of M (K1 + K2 at t): sigma_3 <= 1e-10 sigma_1 (rank 2); u_1 diagonal-dominant (off/diag < 0.5);
    argmax w_1 = 2; w_1[1]/w_1[2] >= the statement's minimum.  GD from c = 0.02 with eta = 0.03 for
    `steps` steps: the cosine between the normalised iterate (W, v) and (u_1, w_1)/sqrt 2 is >= 1 - 1e-6.

    Exactness
    ---------
    Float64 linear algebra on a quadrature-exact M (relative error < 1e-12).  The alignment error decays
    like (sigma_2/sigma_1)^n ~ 0.095^n per step, below 1e-6 after 10 steps.

    Mutants
    -------
    converges-to-e2 fails: w_1[1]/w_1[2] = 0.868 at t = 100.  not-sparse-0.87 is the near-boundary
    mutant of the only inequality part (sharpness rhs/lhs = 0.5/0.868 = 0.576, a single exact value at
    t, no search needed: the statement is about one matrix M(t)).  peaks-at-1 and rank-1 (second reader,
    not expressible before) fail: argmax w_1 = 2, sigma_2/sigma_1 = 0.095.

    Notes
    -----
    Contract audit: derived claim (no printed statement); parts as above, all asserted.  No error.
    """
    ev = Evidence("ge", rigor=Rigor.FLOAT)
    t = p["t"]
    ET = expected_T(t)
    M = ET.transpose(1, 2, 0).reshape(4, t)
    U, s, Vt = np.linalg.svd(M)
    u1 = U[:, 0] * np.sign(U[0, 0])
    w1 = Vt[0] * np.sign(U[0, 0])
    ev.details["sigma"] = s.tolist()
    ev.details["sigma_1 / t^1.5"] = float(s[0] / t**1.5)
    ev.details["w_1[1..8]"] = w1[:8].tolist()
    ev.add({"t": t, "part": "rank: sigma_(rank+1) <= 1e-10 sigma_1", "rank": statement.rank}, 1e-10 * s[0], float(s[statement.rank]),
           part="rank")
    ev.add({"t": t, "part": "rank: sigma_rank > 1e-6 sigma_1"}, float(s[statement.rank - 1]), 1e-6 * s[0], part="rank")
    ev.add({"t": t, "part": "u_1 off/diag < 0.5"}, 0.5, float(u1[1] / u1[0]))
    ev.add({"t": t, "part": "argmax w_1"}, int(np.argmax(w1)) + 1, statement.w1_argmax, relation="eq")
    if statement.v1_over_v2_min >= 0:
        ev.add({"t": t, "part": "w_1[1]/w_1[2] >= min", "min": statement.v1_over_v2_min}, float(w1[0] / w1[1]),
               statement.v1_over_v2_min, part="not_sparse")
    else:
        ev.add({"t": t, "part": "w_1[1]/w_1[2] <= 0.05 (v ~ e_2)"}, float(w1[0] / w1[1]), 0.05, relation="le")
    W, v = np.full((2, 2), 0.02), np.full(t, 0.02)
    offdiag = []
    for n in range(p["steps"]):
        W, v = linear_gd(ET, W, v, 0.03)
        nrm = np.sqrt((W**2).sum() + (v**2).sum())
        W, v = W / nrm, v / nrm  # the direction only (the dynamics is linear)
        offdiag.append(float(W[0, 1] / W[0, 0]))
    cos = float((W.ravel() @ u1 + v @ w1) / np.sqrt(2))
    ev.add({"t": t, "steps": p["steps"], "part": "cosine(GD iterate, (u_1, w_1))"}, cos, 1 - 1e-6)
    ev.plots.append({"title": f"Linear-regime GD (t = {t}): W off/diag ratio per step", "xlabel": "step", "ylabel": "W_12/W_11",
                     "series": [{"x": list(range(1, len(offdiag) + 1)), "y": offdiag, "label": "GD", "style": "-"},
                                {"x": [1, len(offdiag)], "y": [float(u1[1] / u1[0])] * 2, "label": "u_1 off/diag", "style": "--"}]})
    return ev.verdict()
