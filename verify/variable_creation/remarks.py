"""Positional embeddings (Lemma A.11, E15), approximately orthonormal positional vectors (A.2.1, E22)
and the residual / unit-ball LayerNorm remarks (Sec 4.4.2, E32)."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from kernels.sequence.attention import head_forward, project_unit_ball, self_attention

from ..registry import Part, Evidence, Mutant, Param, Rigor, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True
from .covering import product_cover_gap, two_token_family


@dataclass(frozen=True)
class PositionalStatement:
    include_BP: bool = True  # covering scale uses B_X + B_P
    norm_factor: float = 1.0  # max_t ||x_t + p_t|| <= norm_factor (B_X + B_P)
    target: float = 1.0  # the product cover is a (target x eps)-cover


_A11_COVER_SHARP = 0.863  # quick-tier sharpness of the product cover (dense value grid, alpha = 0.05; see the docstring)


@claim(
    id="thesis_ch4.lemma_A.11",
    source=SOURCE,
    label="Lemma A.11",
    entry="E15",
    title="Fixed positional embeddings: f_tf-pos(X, P) = f_tf-head(X + P), capacity with B_X -> B_X + B_P",
    lines=[(721, 721), (2256, 2278)],
    printed=PositionalStatement(),
    mutants=[Mutant("B_X-only", "covering scale with B_X instead of B_X + B_P", PositionalStatement(False), part="product-cover"),
             Mutant("norm-x0.99", "max_t ||x_t + p_t|| <= 0.99 (B_X + B_P) (false: x_t = p_t / 9 parallel gives equality; "
                    "sharpness 1.0)", PositionalStatement(norm_factor=0.99), near_boundary=True, part="norm", origin="second-reader"),
             Mutant("cover-near", f"the product cover is a {0.99 * _A11_COVER_SHARP:.4f} eps-cover (0.99 x sharpness)",
                    PositionalStatement(target=0.99 * _A11_COVER_SHARP), near_boundary=True, part="product-cover")],
    parts=[Part("norm", "||(X + P)^T||_{2,inf} <= B_X + B_P", inequality=True),
           Part("definition", "f_tf-pos(X, P) = f_tf-head(X + P)"),
           Part("product-cover", "the covering bound of Cor 4.9 / Thm 4.6 holds with B_X replaced by B_X + B_P (the product "
                "cover at the scale with B_X + B_P is an eps-cover)", inequality=True)],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("K", int, 10, 2000), Param("instances", int, 1, 10**4)],
    tiers={"quick": {"K": 100, "instances": 200}, "full": {"K": 300, "instances": 2000}},
)
def check_lemma_A_11(statement: PositionalStatement, p, ctx) -> Verdict:
    """Lemma A.11: fixed positional embeddings.

    Statement
    ---------
    f_tf-pos(X, P) = f_tf-head(X + P); if ||P^T||_{2,inf} <= B_P, the covering bound of Cor 4.9 holds with
    B_X replaced by B_X + B_P.

    Source
    ------
    Seed 004, Lemma A.11, lines 2256-2278 (remark line 721).

    Checkable form
    --------------
    (a) max_t ||x_t + p_t|| <= B_X + B_P on random X, P (T <= 64, d <= 8); (b) the head on X + P equals the
    head with the positional rows added inside the forward pass (the definition; 1e-12); (c) the Theorem
    4.6 product cover executed on the two-opposite-token family with tokens of norm B_X = 1 plus
    positional rows of norm B_P = 9 (so x_t + p_t has norm 10), covering scale with B_X + B_P.

    Exactness
    ---------
    float64; tolerances 1e-12 (a, b) and eps (1 + 1e-9) (c).

    Mutants
    -------
    Using B_X alone in the covering scale (B_P = 9 >> B_X = 1): the score cover is 10x too coarse and the
    product no longer covers.  Second reader: the norm bound x 0.99 (false: parallel rows, now a tight
    case, sharpness 1.0; not expressible before: (a) recorded a difference).  Sharpness of the product
    cover: 0.20 on the two-token family (0 with the old family at K = 100: every score its own centre),
    0.863 on the added dense value grid (as in thm_4.6); near-boundary eps x 0.99 x 0.863 tests the check.
    """
    rng = ctx.rng("xp")
    ev = Evidence("le", rigor=Rigor.FLOAT)
    worst_a = worst_b = 0.0
    for _ in range(p["instances"]):
        T, d = int(rng.integers(1, 65)), int(rng.integers(1, 9))
        X, P = rng.normal(size=(T, d)), rng.normal(size=(T, d)) * 10 ** rng.uniform(-1, 1)
        BX, BP = np.linalg.norm(X, axis=1).max(), np.linalg.norm(P, axis=1).max()
        worst_a = max(worst_a, np.linalg.norm(X + P, axis=1).max() / (BX + BP))
        WV, WQK = rng.normal(size=(d, 2)), rng.normal(size=(d, d))
        y1 = head_forward(X + P, WV, WQK, X[0] + P[0])
        a = np.exp((X + P) @ (WQK.T @ (X[0] + P[0])) - ((X + P) @ (WQK.T @ (X[0] + P[0]))).max())
        y2 = WV.T @ (((X + P).T @ a) / a.sum())
        worst_b = max(worst_b, float(np.abs(y1 - y2).max()) / max(1.0, float(np.abs(y1).max())))
    ev.add({"part": "(a) max_t ||x_t + p_t|| / (B_X + B_P), random"}, worst_a, statement.norm_factor * (1 + 1e-12), part="norm")
    Pt = rng.normal(size=(5, 4))
    Xt = Pt / 9  # parallel rows: the triangle inequality is an equality (the tight case)
    ratio = np.linalg.norm(Xt + Pt, axis=1).max() / (np.linalg.norm(Xt, axis=1).max() + np.linalg.norm(Pt, axis=1).max())
    ev.add({"part": "(a) parallel rows x_t = p_t / 9"}, float(ratio), statement.norm_factor * (1 + 1e-12), part="norm")
    ev.add({"part": "(b) f_tf-pos(X, P) = f_tf-head(X + P)"}, worst_b, 1e-12)
    BX, BP = 1.0, 9.0
    Xa, WQK, WV = two_token_family(BX + BP, p["K"])
    for alpha in (0.3, 0.7):
        product_cover_gap(ev, Xa, WQK, WV, (BX + BP) if statement.include_BP else BX, BX + BP, alpha, 0.2, 2.0,
                          {"part": "(c) product cover with B_X + B_P", "B_P": BP}, statement.target)
    # adversarial family (as in thm_4.6): dense value grid spanning twice the value-cover radius, attention
    # concentrated on the + token (scores a (B_X + B_P)^2 in [0, 6])
    WQKd = [W * 2 for W in WQK[len(WQK) // 2:]]
    for alpha in (0.05, 0.3):
        span = 2 * (1 - alpha) * 0.2 * 0.999 / (BX + BP)
        WVd = [np.outer(np.eye(4)[0], np.eye(2)[0]) * c for c in np.linspace(0.0, span, p["K"])]
        product_cover_gap(ev, Xa, WQKd, WVd, (BX + BP) if statement.include_BP else BX, BX + BP, alpha, 0.2, 2.0,
                          {"part": "(c) product cover, dense value grid", "B_P": BP}, statement.target)
    return ev.verdict(seed=ctx.seed("xp"))


@dataclass(frozen=True)
class JLStatement:
    C: float = 12.0  # d = ceil(C ln T / Delta^2)
    delta_factor: float = 1.0  # max |v_i . v_j| <= delta_factor Delta


_JL_SHARP = 0.528  # quick-tier sharpness (max |v_i . v_j| / Delta; see the docstring)


@claim(
    id="thesis_ch4.defs_A.2.1",
    source=SOURCE,
    label="Section A.2.1",
    entry="E22",
    title="Delta-approximately orthonormal positional vectors exist in d = O(log T / Delta^2) (random unit vectors)",
    lines=[(2517, 2595)],
    printed=JLStatement(),
    mutants=[Mutant("C=1", "d = ln T / Delta^2 (constant 1)", JLStatement(1.0), part="existence"),
             Mutant("coherence-near", f"max |v_i . v_j| <= {0.99 * _JL_SHARP:.3f} Delta (0.99 x sharpness)",
                    JLStatement(delta_factor=0.99 * _JL_SHARP), near_boundary=True, part="existence")],
    parts=[Part("existence", "Delta-approximately orthonormal v_1..v_T exist in d = Theta(log T / Delta^2) (read: random unit "
                "vectors in d = ceil(12 ln T / Delta^2))", inequality=True),
           Part("maximal", "the maximal Delta-orthonormal family has size exp(Theta(d Delta^2))", asserted=False,
                reason="the upper bound on the family size is a packing theorem (cited), not computable at these d"),
           Part("bag-map", "the bag-of-vectors map X(b) = diag(b) V (printed V diag(b) / V + diag(b): ill-typed, typo)")],
    expect=Status.PARTLY_CONFIRMED,
    rigor=Rigor.STATISTICAL,
    params=[Param("T_max", int, 10, 5000)],
    tiers={"quick": {"T_max": 500}, "full": {"T_max": 2000}},
)
def check_defs_A_2_1(statement: JLStatement, p, ctx) -> Verdict:
    """Section A.2.1: approximately orthonormal bases and the input maps.

    Statement
    ---------
    Positional vectors v_1..v_T with |v_i . v_j| <= Delta exist with d = Theta(log T / Delta^2) (the maximal
    such family has size exp(Theta(d Delta^2))); E_0, E_1, v_[CLS] orthonormal and orthogonal to all v_i.
    The bag-of-vectors map is X(b) = diag(b) V (printed "V diag(b)" / "V + diag(b)" are ill-typed).

    Source
    ------
    Seed 004, Section A.2.1, lines 2517-2595.

    Checkable form
    --------------
    For T in {10, 100, T_max} and Delta in {0.5, 0.25}: T random unit vectors in d = ceil(C ln T / Delta^2)
    dimensions (C = 12: union bound 2 exp(-d Delta^2/4) T^2/2 <= 1/T) have max_{i != j} |v_i . v_j| <= Delta;
    the seeded draw is recorded.  The bag-of-vectors map diag(b) V has shape (T, d) and row t equal to b_t v_t.

    Exactness
    ---------
    Statistical (one seeded draw per case, failure probability <= 1/T by the union bound for C = 12);
    Gram entries in float64 (errors ~1e-15).

    Mutants
    -------
    C = 1: d = ln T / Delta^2 is too small; the maximal |v_i . v_j| exceeds Delta.  Near-boundary
    (construction sharpness 0.528 = max |v_i . v_j|/Delta over the seeded draws): coherence <= 0.99 x 0.528
    Delta; a random construction, so this tests the check rather than refuting a statement.  Part
    "maximal" unasserted: partly-confirmed (was confirmed).
    """
    rng = ctx.rng("jl")
    ev = Evidence("le", rigor=Rigor.STATISTICAL)
    for T in sorted({10, 100, p["T_max"]}):
        for Delta in (0.5, 0.25):
            d = math.ceil(statement.C * math.log(T) / Delta**2)
            V = rng.normal(size=(T, d))
            V /= np.linalg.norm(V, axis=1, keepdims=True)
            G = V @ V.T
            np.fill_diagonal(G, 0)
            ev.add({"T": T, "Delta": Delta, "d": d}, float(np.abs(G).max()), statement.delta_factor * Delta, part="existence")
            b = rng.integers(0, 2, size=T)
            X = np.diag(b) @ V
            ev.add({"T": T, "part": "diag(b) V rows = b_t v_t"}, float(np.abs(X - b[:, None] * V).max()), 0.0)
    return ev.verdict(seed=ctx.seed("jl"))


@dataclass(frozen=True)
class ResidualStatement:
    sphere: bool = False
    res_factor: float = 1.0  # residual ratio <= res_factor (1 + L_f)
    norm_bound: float = 1.0  # token norms after LN <= norm_bound
    ln_lip: float = 1.0  # LN Lipschitz constant


@functools.lru_cache(maxsize=8)
def _sec_4_4_2_worst(seed: int, instances: int, sphere: bool) -> tuple[float, float, float, float]:
    """(worst residual ratio, worst token norm after LN, worst LN Lipschitz ratio on the random layers and at
    u = -u' = 1e-3 e_1) of Section 4.4.2's random layers from the stream ``seed``; LN = u/||u|| if ``sphere`` else the
    unit-ball projection.  Cached: only the sphere mutant changes these numbers, the other statements change bounds."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))

    def LN(U):
        return U / np.linalg.norm(U, axis=-1, keepdims=True) if sphere else project_unit_ball(U)

    worst_res = worst_norm = worst_ln = -np.inf
    for _ in range(instances):
        T, d = int(rng.integers(2, 17)), int(rng.integers(1, 9))
        WQ, WK, WV = (rng.normal(size=(d, d)) * 10 ** rng.uniform(-1, 0.5) for _ in range(3))
        Z = project_unit_ball(rng.normal(size=(T, d)))
        Z2 = project_unit_ball(Z + rng.normal(size=(T, d)) * 10 ** rng.uniform(-4, 0))
        Lf = np.linalg.norm(WV, 2) * (1 + 4 * np.linalg.norm(WK @ WQ.T, 2))
        U, U2 = Z + self_attention(Z, WQ, WK, WV), Z2 + self_attention(Z2, WQ, WK, WV)
        dz = np.linalg.norm(Z - Z2, axis=1).max()
        if dz == 0 or np.linalg.norm(U - U2, axis=1).max() == 0:  # identical inputs: nothing to compare
            continue
        worst_res = max(worst_res, np.linalg.norm(U - U2, axis=1).max() / ((1 + Lf) * dz))
        worst_norm = max(worst_norm, np.linalg.norm(LN(U), axis=1).max())
        worst_ln = max(worst_ln, np.linalg.norm(LN(U) - LN(U2), axis=1).max() / np.linalg.norm(U - U2, axis=1).max())
    u = np.array([[1e-3, 0.0]])
    worst_ln0 = float(np.linalg.norm(LN(u) - LN(-u)) / np.linalg.norm(2 * u))
    return worst_res, worst_norm, worst_ln, worst_ln0


_RES_SHARP = 0.9923  # quick-tier sharpness of the residual part (see the docstring)


@claim(
    id="thesis_ch4.sec_4.4.2_remarks",
    source=SOURCE,
    label="Section 4.4.2",
    entry="E32",
    title="Residual connections add <= 1 to the Lipschitz constant; unit-ball LayerNorm keeps token norms <= 1",
    lines=[(719, 731)],
    printed=ResidualStatement(),
    mutants=[Mutant("sphere-normalisation", "LayerNorm as u/||u|| (sphere) instead of the unit-ball projection", ResidualStatement(True),
                    part="ln-lipschitz"),
             Mutant("residual-near", f"residual ratio <= {0.99 * _RES_SHARP:.4f} (1 + L_f) (0.99 x sharpness)",
                    ResidualStatement(res_factor=0.99 * _RES_SHARP), near_boundary=True, part="residual"),
             Mutant("norm-0.99", "token norms after LN <= 0.99 (false: rows of norm >= 1 are projected to norm exactly 1)",
                    ResidualStatement(norm_bound=0.99), near_boundary=True, part="norm", origin="second-reader"),
             Mutant("ln-lip-0.99", "LN 0.99-Lipschitz (false: the identity inside the unit ball)", ResidualStatement(ln_lip=0.99),
                    near_boundary=True, part="ln-lipschitz", origin="second-reader")],
    parts=[Part("residual", "a residual connection adds at most 1 to a layer's Lipschitz constant (1 + L_f, L_f of Lemma A.14)",
                inequality=True),
           Part("norm", "the unit-ball LayerNorm keeps every token norm <= 1", inequality=True),
           Part("ln-lipschitz", "the unit-ball LayerNorm is 1-Lipschitz (Lemma A.9)", inequality=True)],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("instances", int, 10, 10**5)],
    tiers={"quick": {"instances": 500}, "full": {"instances": 5000}},
)
def check_sec_4_4_2(statement: ResidualStatement, p, ctx) -> Verdict:
    """Section 4.4.2 remarks: residual connections and the LayerNorm variant.

    Statement
    ---------
    A residual connection x_t + f(X) adds at most 1 to a layer's Lipschitz constant; the "LayerNorm" of
    the analysis is the projection onto the unit ball (Pi_norm), which keeps every token norm <= 1 and is
    1-Lipschitz (Lemma A.9).

    Source
    ------
    Seed 004, Section 4.4.2, lines 719-731.

    Checkable form
    --------------
    Random layers (T <= 16, d <= 8, rows of Z in the unit ball, perturbations 10^U(-4, 0)): with
    L_f = ||W_V||_2 (1 + 4 ||W_K W_Q^T||_2) (Lemma A.14), max_t ||(z_t + f(Z)_t) - (z'_t + f(Z')_t)|| <=
    (1 + L_f) max_t ||z_t - z'_t||, and max_t ||LN(z_t + f(Z)_t)|| <= 1 and
    max_t ||LN(u_t) - LN(u'_t)|| <= max_t ||u_t - u'_t||, including the pair u = -u' = 1e-3 e_1.

    Exactness
    ---------
    float64, relative tolerance 1e-9.

    Mutants
    -------
    Sphere normalisation: 1-Lipschitzness fails near 0 (ratio 1/eta at u = -u' = eta e_1).  Second
    reader, near-boundary: token norms <= 0.99 and LN 0.99-Lipschitz (both false, sharpness 1.0: a
    projected row has norm exactly 1; at u = -u' = 1e-3 e_1, inside the ball, LN is the identity); the
    residual ratio at 0.99 x its quick-tier sharpness 0.9923 (the maximum over the random layers: near 1
    when L_f is small, so the "+ 1" is attained; L_f of Lemma A.14 is loose, see there).  None was
    expressible before (literal 1s).
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    worst_res, worst_norm, worst_ln, worst_ln0 = _sec_4_4_2_worst(ctx.seed("layers"), p["instances"], statement.sphere)
    ev.add({"part": "residual ratio / (1 + L_f)"}, float(worst_res), statement.res_factor * (1 + 1e-9), part="residual")
    ev.add({"part": "max token norm after LN"}, float(worst_norm), statement.norm_bound * (1 + 1e-9), part="norm")
    ev.add({"part": "LN Lipschitz ratio (random)"}, float(worst_ln), statement.ln_lip * (1 + 1e-9), part="ln-lipschitz")
    ev.add({"part": "LN Lipschitz ratio at u = -u' = 1e-3 e_1"}, worst_ln0, statement.ln_lip * (1 + 1e-9), part="ln-lipschitz")
    return ev.verdict(seed=ctx.seed("layers"))
