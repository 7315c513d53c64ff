"""Two GD steps of the minimal model: Lemma 8.4 / E.1 (C16), the even/odd pattern (C17) and Corollary E.2
(C18); what follows from them (Proposition 8.5 / E.3, the Sec. 8.3.2 corollaries, the linear-regime
dynamics: C19, C20, C23) is in verify.induction_heads.two_step_consequences.

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

from kernels.sequence.markov_icl import t_tensor

from ..registry import Evidence, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
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
