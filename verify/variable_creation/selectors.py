"""Selector heads of Appendix A.2 executed: Lemma A.19 (deterministic positional vectors, E24),
Lemma A.20 (trainable positional vectors, E25), Lemma A.21 (bag of vectors, E26).

Each head is built from the proof's weight matrices (kernels.attention.selector_head_*) and run by
the generic [CLS] read-out forward pass on X(b).  The uniform error sup_b |f(X(b)) - g_I(b)| is
computed two independent ways and both are recorded: executed on inputs (the worst input built from
the attention pattern, random inputs, and the whole cube {0,1}^T for small T) and the closed form
over the cube.  For A.19 / A.20 the scores do not depend on b (E_0, E_1 are orthogonal to the
positional vectors), so f(b) - g(b) = sum_{t not in I} a_t chi_t + sum_{t in I} (a_t - 1/s) chi_t and
sup_b = sum_{t not in I} a_t + sum_{t in I} |a_t - 1/s| (the [CLS] value is 0).  For A.21 at Delta = 0 and
for the Delta > 0 Gram families used below, the tokens outside I have score 0 and value 0, so the
output depends on b_I only and the 2^s patterns of b_I are exhaustive.

Tolerances: float64; agreement of the two routes to 1e-12 (sums of <= 10^3 products of numbers in
[0, 1]); the error bounds gamma/4 are compared with relative tolerance 1e-9, far from the witnesses'
gaps (0.7-1.3 vs 0.25).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import product

import numpy as np

from kernels.attention import (
    gram_vectors,
    selector_head_bag,
    selector_head_det_p,
    selector_head_trainable_p,
)

from ..registry import Evidence, Mutant, Param, Rigor, Status, Verdict, claim
from . import SOURCE

REL = 1e-9


def _counterexample_gram(T: int, s: int, Delta: float) -> np.ndarray:
    """Gram matrix with v_0 . v_j = Delta (0 < j < s), v_i . v_j = -Delta (0 < i < j < s), identity
    elsewhere; positive definite for Delta < 1/s."""
    G = np.eye(T)
    for i in range(s):
        for j in range(s):
            if i != j:
                G[i, j] = Delta if 0 in (i, j) else -Delta
    return G


def _det_p_sup(head, T, I):
    a = head.attention(np.zeros(T, dtype=np.int64))
    s = len(I)
    inI = np.zeros(T, dtype=bool)
    inI[I] = True
    closed = float(a[:T][~inI].sum() + np.abs(a[:T][inI] - 1 / s).sum())
    # worst input: chi_t = +1 (b_t = 0) outside I, chi_t = sign(a_t - 1/s) inside I
    b = np.zeros(T, dtype=np.int64)
    b[I] = (a[:T][inI] < 1 / s).astype(np.int64)
    executed = abs(head(b) - head.target(b))
    return closed, executed


@dataclass(frozen=True)
class SelectorStatement:
    """Cases (T, s, gamma, Delta-family) and the R rule: 'printed' or a callable (T, gamma) -> R."""

    deltas: tuple = (0.0,)
    R_rule: str = "printed"
    cases: tuple = field(default_factory=tuple)


def _r_value(rule, T, gamma, s, Delta, bag=False):
    if rule == "printed":
        return None
    if rule == "drop-8":
        return math.log(T / gamma) / (1 - s * Delta)
    raise ValueError(rule)


@claim(
    id="thesis_ch4.lemma_A.19",
    source=SOURCE,
    label="Lemma A.19",
    entry="E24",
    title="Deterministic-P head (gamma/4)-approximates g_I = (1/s) sum chi_i with ||W_Q||_F <= log(8T/gamma)/(1 - s Delta)",
    lines=[(2611, 2617), (2762, 2800)],
    printed=SelectorStatement(deltas=(0.0, 1 / 12, 1 / 6)),
    corrected=SelectorStatement(deltas=(0.0,)),
    mutants=[Mutant("R-drop-8", "R = log(T/gamma) (the 8 dropped), Delta = 0", SelectorStatement(deltas=(0.0,), R_rule="drop-8"))],
    expect=Status.ERRATUM,
    rigor=Rigor.FLOAT,
    params=[Param("T_max", int, 10, 4000), Param("random_b", int, 1, 10**5)],
    tiers={"quick": {"T_max": 100, "random_b": 10}, "full": {"T_max": 300, "random_b": 20}},
)
def check_lemma_A_19(statement: SelectorStatement, p, ctx) -> Verdict:
    """Lemma A.19 (single head): deterministic positional vectors, no MLP.

    Statement
    ---------
    X(b) = P + E_b, P rows v_t with |v_i . v_j| <= Delta < 1/s; for 0 < gamma <= 1 the head
    W_Q = R v_cls e_1^T, W_K = v_I e_1^T, W_V = (E_0 - E_1) e_1^T, W_C = e_1 e_1^T, R = log(8T/gamma)/(1 - s Delta)
    makes f_tf-scalar (gamma/4)-uniformly approximate g_I(b) = (1/s) sum_{i in I} chi_i, with
    ||W_Q||_F <= log(8T/gamma)/(1 - s Delta), ||W_K||_F <= s, ||W_V||_F <= 2, ||W_C||_F <= 1.

    Source
    ------
    Seed 004, Lemma A.19, lines 2611-2617; proof lines 2762-2800.

    Checkable form
    --------------
    For T in {10, 100, T_max} (I = first s = 3 indices), gamma in {1, 0.1}, Delta = 0 (orthonormal
    P) and the Delta > 0 Gram family v_0.v_1 = v_0.v_2 = Delta, v_1.v_2 = -Delta (others orthogonal;
    Delta = 1/12, 1/6 < 1/s): sup error by closed form, executed at the worst input and at random
    inputs, and at T = 10 over all 2^10 inputs; then sup error <= gamma/4 and the four norm bounds.

    Exactness
    ---------
    float64: route agreement 1e-12; error bound with relative tolerance 1e-9.

    Mutants
    -------
    R = log(T/gamma) (dropping the 8) at Delta = 0: error ~ 2T/e^R = 2 gamma > gamma/4.

    Notes
    -----
    As printed the lemma FAILS for Delta > 0: softmax(z') is not uniform on I because the in-set
    scores R(1 + sum_{j != t} v_j . v_t) differ (the proof applies Lemma A.24 only to the truncation),
    and the R denominator (1 - s Delta) does not match the score gap R(1 - 2 s Delta).  Corrected
    statement: Delta = 0 (more generally Delta = O(gamma/(s log(T/gamma))), not checked here).
    """
    rng = ctx.rng("b")
    ev = Evidence("le", rigor=Rigor.FLOAT)
    s = 3
    I = list(range(s))
    for T in sorted({10, 100, p["T_max"]}):
        for gamma in (1.0, 0.1):
            for Delta in statement.deltas:
                V = gram_vectors(_counterexample_gram(T, s, Delta)) if Delta > 0 else None
                R = _r_value(statement.R_rule, T, gamma, s, Delta)
                head = selector_head_det_p(T, I, gamma, V=V, R=R, Delta=Delta)
                case = {"T": T, "s": s, "gamma": gamma, "Delta": round(Delta, 6)}
                closed, executed = _det_p_sup(head, T, I)
                ev.add(dict(case, part="worst input executed = closed form (1e-12)", diff=abs(executed - closed)), abs(executed - closed) <= 1e-12, relation="true")
                B = rng.integers(0, 2, size=(p["random_b"], T))
                rand = max(abs(head(b) - head.target(b)) for b in B)
                ev.add(dict(case, part="random inputs <= closed-form sup", random_max=rand), rand <= closed + 1e-12, relation="true")
                if T <= 10:
                    allb = np.array(list(product((0, 1), repeat=T)))
                    brute = max(abs(head(b) - head.target(b)) for b in allb)
                    ev.add(dict(case, part="brute force over {0,1}^T = closed form (1e-12)", diff=abs(brute - closed)), abs(brute - closed) <= 1e-12, relation="true")
                ev.add(dict(case, part="sup error <= gamma/4"), closed, gamma / 4 * (1 + REL))
                Rb = math.log(8 * T / gamma) / (1 - s * Delta)
                ev.add(dict(case, part="||W_Q||_F <= log(8T/gamma)/(1-s Delta)"), float(np.linalg.norm(head.W_Q)), Rb * (1 + REL))
                ev.add(dict(case, part="||W_K||_F <= s"), float(np.linalg.norm(head.W_K)), s * (1 + REL))
                ev.add(dict(case, part="||W_V||_F <= 2"), float(np.linalg.norm(head.W_V)), 2.0)
                ev.add(dict(case, part="||W_C||_F <= 1"), float(np.linalg.norm(head.W_C)), 1.0)
    return ev.verdict(seed=ctx.seed("b"))


@claim(
    id="thesis_ch4.lemma_A.20",
    source=SOURCE,
    label="Lemma A.20",
    entry="E25",
    title="Trainable-P head (gamma/4)-approximates g_I with ||P^T||_{2,1} <= s, ||W_Q||_F <= log(8T/gamma)",
    lines=[(2619, 2627), (2802, 2840)],
    printed=SelectorStatement(),
    mutants=[Mutant("R-drop-8", "R = log(T/gamma) (the 8 dropped)", SelectorStatement(R_rule="drop-8"))],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("T_max", int, 10, 10**5), Param("random_b", int, 1, 10**5)],
    tiers={"quick": {"T_max": 1000, "random_b": 20}, "full": {"T_max": 10000, "random_b": 100}},
)
def check_lemma_A_20(statement: SelectorStatement, p, ctx) -> Verdict:
    """Lemma A.20 (single head): trainable positional vectors, no MLP.

    Statement
    ---------
    With P_t = v_1 for t in I and 0 otherwise, W_Q = R v_cls e_1^T, W_K = v_1 e_1^T,
    W_V = (E_0 - E_1) e_1^T, W_C = e_1 e_1^T, R = log(8T/gamma): f_tf-scalar (gamma/4)-uniformly
    approximates g_I = (1/s) sum chi_i; ||P^T||_{2,1} <= s, ||W_Q||_F <= log(8T/gamma), ||W_K||_F <= 1,
    ||W_V||_F <= 2, ||W_C||_F <= 1.

    Source
    ------
    Seed 004, Lemma A.20, lines 2619-2627; proof lines 2802-2840.

    Checkable form
    --------------
    T in {4, 10, 100, T_max}, s in {1, 2, 3} (I random), gamma in {1, 0.1}: sup error by closed
    form, executed at the worst input, at random inputs and (T = 10) on all 2^10 inputs; then error
    <= gamma/4 and the norm bounds (||P^T||_{2,1} = sum_t ||p_t|| computed from the executed P rows).

    Exactness
    ---------
    float64: route agreement 1e-12; bounds with relative tolerance 1e-9.

    Mutants
    -------
    R = log(T/gamma): the exact sup error is (2T + 1 - 2s)/(s e^R + T + 1 - s), about 1 at s = 1, gamma = 1.
    """
    rng = ctx.rng("b")
    ev = Evidence("le", rigor=Rigor.FLOAT)
    for T in sorted({4, 10, 100, p["T_max"]}):
        for s in (1, 2, 3):
            if s >= T:
                continue
            I = sorted(rng.choice(T, size=s, replace=False).tolist())
            for gamma in (1.0, 0.1):
                R = _r_value(statement.R_rule, T, gamma, s, 0.0)
                head = selector_head_trainable_p(T, I, gamma, R=R)
                case = {"T": T, "s": s, "gamma": gamma, "I": str(I)}
                closed, executed = _det_p_sup(head, T, I)
                ev.add(dict(case, part="worst input executed = closed form (1e-12)", diff=abs(executed - closed)), abs(executed - closed) <= 1e-12, relation="true")
                B = rng.integers(0, 2, size=(p["random_b"], T))
                rand = max(abs(head(b) - head.target(b)) for b in B)
                ev.add(dict(case, part="random inputs <= closed-form sup", random_max=rand), rand <= closed + 1e-12, relation="true")
                if T <= 10:
                    allb = np.array(list(product((0, 1), repeat=T)))
                    brute = max(abs(head(b) - head.target(b)) for b in allb)
                    ev.add(dict(case, part="brute force = closed form (1e-12)", diff=abs(brute - closed)), abs(brute - closed) <= 1e-12, relation="true")
                ev.add(dict(case, part="sup error <= gamma/4"), closed, gamma / 4 * (1 + REL))
                X0 = head.embed(np.zeros(T, dtype=np.int64))
                P = X0[:T].copy()
                P[:, 1] -= 1.0  # rows of X(0) minus E_0 (= e_2): the positional part
                ev.add(dict(case, part="||P^T||_{2,1} <= s"), float(np.linalg.norm(P, axis=1).sum()), s * (1 + REL))
                ev.add(dict(case, part="||W_Q||_F <= log(8T/gamma)"), float(np.linalg.norm(head.W_Q)), math.log(8 * T / gamma) * (1 + REL))
                ev.add(dict(case, part="||W_K||_F <= 1"), float(np.linalg.norm(head.W_K)), 1.0)
                ev.add(dict(case, part="||W_V||_F <= 2"), float(np.linalg.norm(head.W_V)), 2.0)
                ev.add(dict(case, part="||W_C||_F <= 1"), float(np.linalg.norm(head.W_C)), 1.0)
    return ev.verdict(seed=ctx.seed("b"))


def _bag_sup(head, T, I, rng, extra_random=20):
    """Exact sup over the 2^s patterns of b_I (outside tokens have score 0 and value 0), executed, plus
    random outside bits as a cross-check that the outside bits do not matter."""
    s = len(I)
    worst = 0.0
    dev = 0.0
    for pat in product((0, 1), repeat=s):
        b = np.zeros(T, dtype=np.int64)
        b[I] = pat
        e0 = abs(head(b) - head.target(b))
        worst = max(worst, e0)
        for _ in range(extra_random if pat == (1,) * s else 0):
            b2 = rng.integers(0, 2, size=T)
            b2[I] = pat
            dev = max(dev, abs(head(b2) - head(b)))
    return worst, dev


@claim(
    id="thesis_ch4.lemma_A.21",
    source=SOURCE,
    label="Lemma A.21",
    entry="E26",
    title="Bag-of-vectors head (gamma/4)-approximates g_I = (r - s)/(r + 1), which is (1/s)-strictly monotone",
    lines=[(2629, 2633), (2842, 2899)],
    printed=SelectorStatement(deltas=(0.0, 0.05, 0.1, 0.2)),
    corrected=SelectorStatement(deltas=(0.0,)),
    mutants=[Mutant("R-drop-8", "R without the factor 8 inside the log, Delta = 0", SelectorStatement(deltas=(0.0,), R_rule="drop-8"))],
    expect=Status.ERRATUM,
    rigor=Rigor.FLOAT,
    params=[Param("T_max", int, 20, 5000)],
    tiers={"quick": {"T_max": 100}, "full": {"T_max": 300}},
)
def check_lemma_A_21(statement: SelectorStatement, p, ctx) -> Verdict:
    """Lemma A.21 (single head): bag of vectors, no MLP.

    Statement
    ---------
    X(b) = diag(b) V (the intended map; printed "V + diag(b)" is ill-typed), Delta < 1/s,
    s Delta < gamma < 1: with W_Q = R v_cls e_1^T, W_K = (v_I + v_cls) e_1^T, W_V W_C = (v_I - s v_cls) e_1^T,
    R = log(8 T s (1 + Delta)/(gamma - s Delta))/(1 - s Delta), f_tf-scalar (gamma/4)-uniformly approximates
    the s-bounded, (1/s)-strictly monotone g_I(b) = (r - s)/(r + 1), r = sum_{i in I} b_i;
    ||W_Q||_F <= R, ||W_K||_F <= s + 1, ||W_V||_F <= 2s, ||W_C||_F <= s.

    Source
    ------
    Seed 004, Lemma A.21, lines 2629-2633; proof lines 2842-2899.

    Checkable form
    --------------
    s in {2, 3}, T in {20, T_max}, gamma in {0.99, 0.5} (only gamma > s Delta), Delta = 0 and the Gram
    family v_0.v_j = Delta, v_i.v_j = -Delta (i, j >= 1) on I = {0..s-1}: the head is executed on all 2^s
    patterns of b_I (exhaustive, since outside tokens have score and value 0; random outside bits are
    executed as a cross-check); sup error <= gamma/4; strict-monotone gap of g_I = min_r g(r+1) - g(r)
    (exact Fractions) >= 1/s; boundedness max |g| <= s; the four norm bounds.

    Exactness
    ---------
    float64 for the head (relative tolerance 1e-9), exact Fractions for the properties of g_I.

    Mutants
    -------
    R without the 8: error (about 1/(1 + e^R/(Ts))...) exceeds gamma/4 at Delta = 0.

    Notes
    -----
    As printed the lemma FAILS for Delta > 0 already at s = 2: the in-set scores R(1 + v_i.v_j) differ
    from the [CLS] score R, so attention is not uniform on {CLS} and the active in-set tokens, and the
    error budget also misses an additive s Delta term.  Corrected statement: Delta = 0.
    """
    from fractions import Fraction

    rng = ctx.rng("b")
    ev = Evidence("le", rigor=Rigor.FLOAT)
    for s in (2, 3):
        g = [Fraction(r - s, r + 1) for r in range(s + 1)]
        gap = min(g[r + 1] - g[r] for r in range(s))
        ev.add({"s": s, "part": "g_I strictly monotone gap >= 1/s (exact)"}, gap, Fraction(1, s), relation="ge")
        ev.add({"s": s, "part": "max |g_I| <= s (exact)"}, max(abs(x) for x in g), Fraction(s))
        I = list(range(s))
        for T in sorted({20, p["T_max"]}):
            for gamma in (0.99, 0.5):
                for Delta in statement.deltas:
                    if not (s * Delta < gamma and Delta < 1 / s):
                        continue
                    V = gram_vectors(_counterexample_gram(T, s, Delta)) if Delta > 0 else None
                    R = None
                    if statement.R_rule == "drop-8":
                        R = math.log(T * s * (1 + Delta) / (gamma - s * Delta)) / (1 - s * Delta)
                    head = selector_head_bag(T, I, gamma, V=V, R=R, Delta=Delta)
                    case = {"T": T, "s": s, "gamma": gamma, "Delta": Delta}
                    err, dev = _bag_sup(head, T, I, rng)
                    ev.add(dict(case, part="outside bits do not change the output (1e-12)", diff=dev), dev <= 1e-12, relation="true")
                    ev.add(dict(case, part="sup error over 2^s patterns <= gamma/4"), err, gamma / 4 * (1 + REL))
                    ev.add(dict(case, part="||W_Q||_F <= R"), float(np.linalg.norm(head.W_Q)),
                           math.log(8 * T * s * (1 + Delta) / (gamma - s * Delta)) / (1 - s * Delta) * (1 + REL))
                    ev.add(dict(case, part="||W_K||_F <= s+1"), float(np.linalg.norm(head.W_K)), (s + 1) * (1 + REL))
                    ev.add(dict(case, part="||W_V||_F <= 2s"), float(np.linalg.norm(head.W_V)), 2 * s * (1 + REL))
                    ev.add(dict(case, part="||W_C||_F <= s"), float(np.linalg.norm(head.W_C)), s * (1 + REL))
    return ev.verdict(seed=ctx.seed("b"))
