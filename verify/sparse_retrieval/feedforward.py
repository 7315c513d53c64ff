"""Feedforward networks on simple-1STR: Definition 5's span property (E23), Theorem 6's lower bound
1 - n/(N d) (E24) and the derived in-span oracle risk (D2).

Independent routes: the oracle risks are computed from the d x d matrix M = sum_t P_t^T V^T V P_t
(kernels.constructions.retrieval_constructions.ffn_inspan_risk) and compared with the closed-form bound; the per-direction
oracle risk is re-measured by Monte Carlo of the predictor <P_t u, V^T V x>; the span property is measured on an
FFN actually trained by full-batch gradient descent (kernels.training.retrieval).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import sqrt

import numpy as np

from kernels.constructions.retrieval_constructions import ffn_inspan_risk
from kernels.training.retrieval import Adam, ffn_forward_backward, ffn_init

from ..registry import Evidence, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True


def _orthonormal_rows(rng, n, P, adversarial):
    if adversarial:
        return np.eye(P)[:n]
    Q, _ = np.linalg.qr(rng.standard_normal((P, n)))
    return Q.T


# ---------------------------------------------------------------------------------------------
# E24. Theorem 6
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FFNBound:
    """bound(n, N, d) claimed for ``quantifier`` = 'sup' (worst direction u) or 'each' (every u)."""

    factor: float = 1.0  # bound = 1 - factor * n / (N d)
    quantifier: str = "sup"


@claim(
    id="seed002.theorem_6",
    source=SOURCE,
    label="Theorem 6",
    entry="E24",
    title="Any FFN trained by a rule of Definition 5 has sup_u risk >= 1 - n/(N d) on simple-1STR",
    lines=[(443, 462), (1207, 1251)],
    printed=FFNBound(),
    parts=[
        Part("lower_bound", "with probability 1 over S_n: inf_{A in A} sup_u R^FFN(f_{A(S_n)}, W_{A(S_n)}) >= 1 - n/(N d) "
             "(via the span property of Definition 5, seed002.definition_5, and the in-span oracle, D2)", inequality=True),
        Part("trace_identity", "proof: tr M = n (the average over u of the oracle risk is exactly 1 - n/(N d))"),
        Part("oracle_risk", "proof: the best in-span predictor for u has risk 1 - (1/N) sum_t ||V P_t u||^2 (Monte Carlo)"),
    ],
    mutants=[
        Mutant("half-n", "stronger bound 1 - n/(2 N d)", FFNBound(factor=0.5)),
        Mutant("for-every-u", "the bound for every direction u instead of the worst one", FFNBound(quantifier="each")),
        Mutant("factor-0.99", "1 - 0.99 n/(N d): at d = 1 sup_u risk = 1 - n/N exactly (M = n is 1 x 1; sharpness 1)",
               FFNBound(factor=0.99), near_boundary=True, part="lower_bound", origin="second-reader"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("N_max", int, 2, 64), Param("mc", int, 1000, 10**7, doc="Monte Carlo prompts of the oracle check")],
    tiers={"quick": {"N_max": 6, "mc": 5000}, "full": {"N_max": 12, "mc": 20000}},
)
def check_theorem_6(st: FFNBound, p, ctx) -> Verdict:
    """Theorem 6: FFN lower bound 1 - n/(N d).

    Statement
    ---------
    x ~ N(0, I_{Nd}), simple-1STR with t uniform on [N], y = <u, x_t>, u in S^{d-1}.  For the class A of
    Definition 5 (weight-decay stationary points or min-norm ERM), with probability 1 over S_n:
    inf_{A in A} sup_u R^FFN(f_{A(S_n)}, W_{A(S_n)}) >= 1 - n/(N d).

    Source
    ------
    Seed 002, Theorem 6, lines 443-462; proof Appendix B, lines 1207-1251.

    Checkable form
    --------------
    Every trained W has rows in span(x^(1..n)) (Definition 5, claim E23), so every predictor is a function of
    V x with V (n x Nd) orthonormal.  The best such predictor for direction u has risk 1 - u^T M u / N,
    M = sum_t P_t^T V^T V P_t, hence sup_u = 1 - lambda_min(M)/N (computed by eigvalsh) and the average over u
    is 1 - tr(M)/(N d) = 1 - n/(N d).  For N <= N_max, d in {1..4}, n in {1, .., N d}, random orthonormal V (QR
    of a Gaussian) and an adversarial V aligned with coordinates, the check compares sup_u (resp. min_u for
    the 'each' variant) with the bound; the oracle predictor's risk is re-measured by Monte Carlo for one
    direction per (N, d) and compared with 1 - ||V P_t u||^2 averaged over t (5 standard errors).

    Exactness
    ---------
    float64 eigenvalues of a d x d PSD matrix with entries O(1): absolute error < 1e-13; the comparison allows
    1e-9.  The identity tr(M) = n is checked to 1e-9.  Monte Carlo cases are statistical (5 SE).

    Mutants
    -------
    half-n: 1 - n/(2Nd) is above the oracle's sup-risk (e.g. N=8, d=4, n=16).  for-every-u: the in-span
    oracle for u = top eigenvector of M has risk 1 - lambda_max(M)/N < 1 - n/(N d) unless M is a multiple of I.
    factor-0.99: at d = 1 the oracle's risk is exactly 1 - n/N < 1 - 0.99 n/N.

    Notes
    -----
    Sharpness of lower_bound: 1 (to 1e-9): at d = 1, and whenever M is a multiple of I, sup_u = average =
    1 - n/(N d); the bound is attained, as the proof's averaging argument says.  Probability 1: the bound holds
    for every orthonormal V (random and coordinate-aligned are checked), so a fortiori almost surely.
    """
    ev = Evidence("ge", rigor=Rigor.FLOAT, tol=1e-9)
    rng = ctx.rng("V")
    for N in range(2, p["N_max"] + 1, 2 if p["N_max"] > 8 else 1):
        for d in (1, 2, 3, 4):
            P = N * d
            for n in sorted({1, max(1, P // 4), P // 2, max(1, (3 * P) // 4), P - 1}):
                for adv in (False, True):
                    V = _orthonormal_rows(rng, n, P, adv)
                    _avg, sup, eig = ffn_inspan_risk(V, N, d)
                    bound = 1 - st.factor * n / (N * d)
                    ev.add({"N": N, "d": d, "n": n, "V": "coordinate" if adv else "random", "part": "identity tr M = n"},
                           float(eig.sum()), float(n), relation="approx", tol=1e-9)
                    lhs = sup if st.quantifier == "sup" else 1 - float(eig[-1]) / N
                    ev.add({"N": N, "d": d, "n": n, "V": "coordinate" if adv else "random",
                            "risk": "sup_u" if st.quantifier == "sup" else "min_u"}, lhs + 1e-9, bound,
                           note="lhs includes the 1e-9 float allowance (eigvalsh error < 1e-13)", part="lower_bound")
            # oracle predictor by Monte Carlo, one random V and u
            n = max(1, P // 2)
            V = _orthonormal_rows(rng, n, P, False)
            u = rng.standard_normal(d)
            u /= np.linalg.norm(u)
            x = rng.standard_normal((p["mc"], P))
            t = rng.integers(0, N, size=p["mc"])
            proj = (x @ V.T) @ V
            yhat = np.einsum("ad,ad->a", proj.reshape(-1, N, d)[np.arange(p["mc"]), t], np.broadcast_to(u, (p["mc"], d)))
            y = x.reshape(-1, N, d)[np.arange(p["mc"]), t] @ u
            err = (y - yhat) ** 2
            B = V.reshape(n, N, d)
            exact = float(np.mean([1 - np.linalg.norm(B[:, tt, :] @ u) ** 2 for tt in range(N)]))
            se = float(err.std(ddof=1) / sqrt(p["mc"]))
            ev.add({"N": N, "d": d, "n": n, "part": "oracle predictor risk (MC) vs 1 - ||V P_t u||^2"},
                   float(err.mean()), exact, relation="approx", tol=5 * se + 1e-12)
    return ev.verdict(seed=ctx.seed("V"))


# ---------------------------------------------------------------------------------------------
# D2. oracle in-span risk
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OracleRisk:
    avg_factor: float = 1.0  # average risk = 1 - avg_factor * n / (N d)
    sup_factor: float = 1.0  # sup_u risk = 1 - sup_factor * lambda(M)/N
    sup_uses: str = "min"  # sup_u risk = 1 - lambda_{sup_uses}(M)/N


@claim(
    id="seed002.derived_oracle_ffn_risk",
    source=SOURCE,
    label="Derived D2 (from the proof of Theorem 6)",
    entry="D2",
    title="In-span oracle: risk(u) = 1 - u^T M u/N, sup = 1 - lambda_min(M)/N, average = 1 - n/(N d)",
    lines=[(1207, 1251)],
    printed=OracleRisk(),
    parts=[
        Part("risk_formula", "risk(u) = 1 - u^T M u/N, M = sum_t P_t^T V^T V P_t (at the bottom eigenvector: = 1 - lambda_min/N)"),
        Part("sup_bound", "sup_u risk <= 1 - lambda_min(M)/N (every sampled direction)", inequality=True),
        Part("average", "average over u uniform on the sphere = 1 - n/(N d)"),
    ],
    mutants=[
        Mutant("avg-n-over-N", "average risk 1 - n/N (dimension d dropped)", OracleRisk(avg_factor=None)),
        Mutant("sup-lambda-max", "sup attained at lambda_max instead of lambda_min", OracleRisk(sup_uses="max")),
        Mutant("sup-x1.01", "sup_u risk <= 1 - 1.01 lambda_min/N: the bottom eigenvector attains 1 - lambda_min/N",
               OracleRisk(sup_factor=1.01), near_boundary=True, part="sup_bound", origin="second-reader"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
    derived=True,
    params=[Param("directions", int, 100, 10**6)],
    tiers={"quick": {"directions": 4000}, "full": {"directions": 40000}},
)
def check_oracle_risk(st: OracleRisk, p, ctx) -> Verdict:
    """Derived D2: the in-span oracle risk of Theorem 6's proof, per direction, worst case and average.

    Statement
    ---------
    (Derived, not in the paper.)  For V (n x Nd) with orthonormal rows, the best predictor of <u, x_t> from
    (t, V x) has risk(u) = 1 - u^T M u / N with M = sum_t P_t^T V^T V P_t; hence sup_u risk = 1 - lambda_min(M)/N
    and the average over u uniform on the sphere is 1 - n/(N d).

    Source
    ------
    Derived D2 (from the proof of Theorem 6), seed 002 Appendix B, lines 1207-1251.

    Checkable form
    --------------
    Independent routes: per-direction risks 1 - (1/N) sum_t ||V P_t u||^2 computed block by block for many
    random unit u (sample average vs 1 - n/(N d); sample maximum <= 1 - lambda_min/N and, with u the bottom
    eigenvector, equality); the closed forms use the eigen-decomposition of M.

    Exactness
    ---------
    float64; equalities to 1e-9.  The sample average of a bounded quantity in [0, 1] over k directions is
    compared with 5/sqrt(k) tolerance (Hoeffding-type, statistical).

    Mutants
    -------
    avg-n-over-N: average 1 - n/N is wrong for d > 1.  sup-lambda-max: the bottom eigenvector's risk exceeds
    1 - lambda_max/N whenever M is not a multiple of I.  sup-x1.01: the bottom eigenvector's risk is exactly
    1 - lambda_min/N > 1 - 1.01 lambda_min/N (lambda_min > 0 for these V).

    Notes
    -----
    Sharpness of sup_bound: 1 (the bottom eigenvector, included among the directions, attains it).
    """
    ev = Evidence("approx", rigor=Rigor.FLOAT, tol=1e-9)
    rng = ctx.rng("D2")
    for N, d, n in ((4, 2, 3), (8, 4, 16), (6, 3, 10), (12, 2, 5)):
        Q, _ = np.linalg.qr(rng.standard_normal((N * d, n)))
        V = Q.T
        B = V.reshape(n, N, d)
        _avg, _sup, _eig = ffn_inspan_risk(V, N, d)
        U = rng.standard_normal((p["directions"], d))
        U /= np.linalg.norm(U, axis=1, keepdims=True)
        risks = 1 - np.einsum("ktr,ur->ukt", B, U).__pow__(2).sum((1, 2)) / N
        avg_claim = 1 - (st.avg_factor * n / (N * d) if st.avg_factor is not None else n / N)
        ev.add({"N": N, "d": d, "n": n, "part": "average over random u"}, float(risks.mean()), avg_claim,
               tol=5 / sqrt(p["directions"]))
        w, vecs = np.linalg.eigh(np.einsum("ktr,kts->rs", B, B))
        lam = st.sup_factor * (w[0] if st.sup_uses == "min" else w[-1])
        bottom = vecs[:, 0]
        r_bottom = 1 - float(sum(np.linalg.norm(B[:, tt, :] @ bottom) ** 2 for tt in range(N))) / N
        ev.add({"N": N, "d": d, "n": n, "part": "risk at bottom eigenvector vs claimed sup"}, r_bottom, 1 - lam / N)
        ev.add({"N": N, "d": d, "n": n, "directions": "sampled"}, float(risks.max()), 1 - lam / N + 1e-9,
               relation="le", part="sup_bound")
        ev.add({"N": N, "d": d, "n": n, "directions": "bottom eigenvector"}, r_bottom, 1 - lam / N + 1e-9,
               relation="le", part="sup_bound")
    return ev.verdict(seed=ctx.seed("D2"))


# ---------------------------------------------------------------------------------------------
# E23. Definition 5
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpanProperty:
    optimizer: str = "gd"  # full-batch GD on loss + (lam/2)||W||^2 (Definition 5's A_SP) or 'adamw'
    span_of: str = "train"


@claim(
    id="seed002.definition_5",
    source=SOURCE,
    label="Definition 5",
    entry="E23",
    title="Weight-decay stationary points of an FFN have first-layer rows in the span of the training inputs",
    lines=[(399, 441), (1207, 1220)],
    printed=SpanProperty(),
    parts=[
        Part("span_property", "at a stationary point of L^FFN + (lam/2)||W||_F^2, W = -(1/lam) grad_W L^FFN, so every row of "
             "W lies in span(x^(1), ..., x^(n)) (numerically: ||W_perp||_F/||W||_F <= 1e-6 after GD)"),
    ],
    mutants=[
        Mutant("adamw", "the same property for AdamW (the experiments' optimiser)", SpanProperty(optimizer="adamw")),
        Mutant("test-span", "rows in the span of fresh (test) inputs", SpanProperty(span_of="test")),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("steps", int, 100, 10**6)],
    tiers={"quick": {"steps": 600}, "full": {"steps": 2000}},
)
def check_definition_5(st: SpanProperty, p, ctx) -> Verdict:
    """Definition 5: the algorithm class A and its span property.

    Statement
    ---------
    A_SP returns a stationary point of L^FFN(f, W) + (lam/2)||W||_F^2; at such a point
    W = -(1/lam) grad_W L^FFN, so every row of W lies in span(x^(1), ..., x^(n)) (the key step of Theorem 6).

    Source
    ------
    Seed 002, Definition 5, lines 399-441; used in the proof of Theorem 6, lines 1207-1220.

    Checkable form
    --------------
    Train f(x) = A relu(W x + c) (N = 4, d = 2, width 32, K = N outputs, n = 4 training prompts of simple-1STR)
    by full-batch gradient descent on MSE + (lam/2)||W||_F^2 (lam = 0.5, step 0.1).  The component of W
    orthogonal to the span of the training inputs contracts by exactly (1 - step lam) per step, so after
    ``steps`` steps ||W_perp||_F / ||W||_F must be <= 1e-6; the check also records the stationarity residual.

    Exactness
    ---------
    float64; the orthogonal component after 600 steps is 0.95^600 ~ 4e-14 of its initial size, far below the
    1e-6 threshold; the threshold only needs to separate O(1) from O(1e-10).

    Mutants
    -------
    adamw: Adam's coordinate-wise preconditioning leaves a component outside the span (ratio O(0.1)).
    test-span: the rows are not in the span of fresh inputs.
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    N, d, n, m = 4, 2, 4, 32
    for seed_tag in ("a", "b", "c"):
        rng = ctx.rng("train" + seed_tag)
        u = rng.standard_normal(d)
        u /= np.linalg.norm(u)
        X = rng.standard_normal((n, N * d))
        t = rng.integers(0, N, size=n)
        Y = np.repeat((X.reshape(n, N, d)[np.arange(n), t] @ u)[:, None], N, axis=1)
        params = ffn_init(rng, N * d, m, N)
        lam, lr = 0.5, 0.1
        opt = Adam(lr=0.01, weight_decay=lam) if st.optimizer == "adamw" else None
        for _ in range(p["steps"]):
            _, loss, g = ffn_forward_backward(params, X, Y)
            if opt is None:
                for k in params:
                    params[k] -= lr * (g[k] + (lam * params[k] if k == "W" else 0.0))
            else:
                opt.step(params, g)
        span = X if st.span_of == "train" else rng.standard_normal((n, N * d))
        Q, _ = np.linalg.qr(span.T)
        W = params["W"]
        perp = W - (W @ Q) @ Q.T
        ratio = float(np.linalg.norm(perp) / np.linalg.norm(W))
        _, loss, g = ffn_forward_backward(params, X, Y)
        ev.details[f"run {seed_tag}"] = {"loss": loss, "stationarity": float(np.linalg.norm(g["W"] + lam * W))}
        ev.add({"run": seed_tag, "optimizer": st.optimizer, "span": st.span_of, "steps": p["steps"]}, ratio, 1e-6)
    return ev.verdict(seed=ctx.seed("traina"))
