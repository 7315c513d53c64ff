"""What follows from the two GD steps of the minimal model (thesis ch. 8, App. E): Proposition 8.5 / E.3 (C19),
the Sec. 8.3.2 qualitative corollaries (C20) and the linear-regime dynamics (C23, derived); the two steps
themselves (Lemma 8.4 / E.1, the even/odd pattern, Corollary E.2: C16-C18) are in
verify.induction_heads.two_step.

All dynamics are population GD in the linear regime of the margin loss (see verify.induction_heads.two_step
and _common).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import numpy as np
import sympy as sp

from kernels.sequence.markov_icl import k2_matrices, minimal_model_forward, sample_chains

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE
from ._common import HALF, expected_T, expected_T_diag, linear_gd
from .two_step import eta_star, two_steps

CONTRACT_AUDITED = True


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
    """(E.57) as an unnormalised integral, symbolically (cached: every statement of the claim shares it).

    The integrand is a polynomial in a with rational coefficients: its exact antiderivative (sympy Poly) is
    evaluated at the symbolic bounds 1/2 +- eps, and the difference to the closed form is expanded, which is
    0 iff the two polynomials in eps are identical (an exact test, ~30x faster than sp.integrate + simplify)."""
    e, a = sp.symbols("epsilon a", positive=True)
    F = sp.Poly((a - HALF) * (2 * a - 1) ** (j - 1), a).integrate()
    I = F.eval(HALF + e) - F.eval(HALF - e)
    want = 0 if j % 2 else sp.Integer(4) ** (j // 2) * e ** (j + 1) / (j + 1)
    return bool(sp.expand(I - want) == 0)


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
        Mutant("remainder-below-1.0", "near-boundary: corrected with the remainder <= 1.0 x the bigram term (sharpness 0.1295 "
               "of the bound 10 at quick: largest median ratio 1.225 at eps = 0.3, t = 50; 1.48 at eps = 0.3, t = 200 at full)", replace(_E3_CORRECTED, rem_coef=1.0),
               near_boundary=True, part="remainder", origin="second-reader"),
    ],
    expect=Status.ERRATUM,
    rigor=Rigor.FLOAT,
    affects=(),
    params=[Param("t", int, 50, 400), Param("chains", int, 20, 2000), Param("eps_list", str)],
    tiers={"quick": {"t": 50, "chains": 100, "eps_list": "0.05,0.1,0.2,0.3"}, "full": {"t": 200, "chains": 200, "eps_list": "0.025,0.05,0.1,0.2,0.3"}},
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
    list): 0.1225 at eps = 0.3 (quick, t = 50; 0.0976 at eps = 0.2), 0.148 at eps = 0.3 (full); the ratio is
    ~0.95-1.14 for every eps in [0.025, 0.2] and t in {100, 200, 400} (measured while auditing; 0.88-1.03 at t = 64,
    0.83-0.98 at t = 50):
    it does not decay with eps or t.

    Exactness
    ---------
    (a) exact.  Quadrature float64 (relative error < 1e-12) against 10% / 15% tolerances that cover
    the O(eps^2) and O(1/t) corrections (measured <= 10% at eps <= 0.2, t >= 100).  The remainder is a
    Monte Carlo median of an exact per-chain ratio; the printed bound is missed by a factor > 20 (median
    ~0.96 against 5 eps^2 = 0.0125 at eps = 0.05).  Cost: the GD runs, the chain ratios (at t and 2t) and
    the symbolic E.57 checks are cached across the statements of the claim (they depend only on the GD
    parameters, which the mutants share), so the mutants cost almost nothing; the quick tier keeps the 2t
    runs (the validator's t -> infinity condition needs them).  Quick tier = smoke test of what full shows:
    t = 50 (2t = 100; the smallest t the parameter allows, and the expected T-tensors of (E.23)'s quick
    t_list, shared within a process) instead of 200, 100 chains, eps in {0.05, 0.1, 0.2, 0.3} (full: also
    0.025); the expected T-tensors cost ~t^3, so t = 100 (an older quick) took ~5 CPU s, t = 64 ~1 s and t = 50
    ~0.75 s.  It decides every part and rejects every mutant (the near-boundary remainder-below-1.0 at eps =
    0.3 by 22.5%: ratio 1.225; at t = 64 it was rejected at eps = 0.2 by 3% and at eps = 0.3 by 30%; the
    corrected sign agreement is 0.94-0.95 >= 0.8, 0.97 at t = 64); it cannot show the eps = 0.025 point nor
    the t = 200 values.

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
    lead_eps_max = 0.2 (quick 0.05..0.2; 0.025..0.2 at full), the larger eps being reported; the
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
