"""What can be checked of seed 001's informal theorems (App. A, E20), of Appendix H (diffusion score,
E21) and of the experiments of Appendix G (E22): each is run through the executed construction of
``construction`` at toy sizes, and the docstrings say what is and is not shown."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from kernels.constructions import deep_gd as G

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE
from . import _block as B
from .construction import ETA, REL
from .construction_theorem import _grad_fn, run_blocks

CONTRACT_AUDITED = True

# ---------------------------------------------------------------------------------------------
# E20. Theorems 2 and 3 (informal)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BudgetStatement:
    """Interpolation intervals per approximant: "search" = the smallest power of two whose corrected
    Theorem-1 bound is <= eps; an integer = that fixed number for every eps."""

    budget: object = "search"
    eps_factor: float = 1.0  # the step error is compared with eps_factor * eta * eps (near-boundary mutants)


def _search_H(inst, eps, cap=4096):
    H = 4
    while H <= cap:
        ap = B.approximants(inst, H, H, radius="corrected")
        res = B.run_block(inst, ap, ETA)
        if B.theorem1_bounds(inst, ap, B.instance_bounds(inst, ap, res))["corrected"] <= eps:
            return H, ap, res
        H *= 2
    return None, None, None


@claim(
    id="seed001.theorem_2_informal",
    source=SOURCE,
    label="Theorem 2",
    entry="E20",
    title="Informal Theorems 2-3: an explicit transformer performs eps-accurate in-context GD steps (via the corrected Theorem 1)",
    lines=[(440, 446)],
    printed=BudgetStatement(),
    mutants=[Mutant("fixed-2-intervals", "two interpolation intervals suffice for every eps", BudgetStatement(2)),
             Mutant("step-x0.025", "step error <= 0.025 eta eps (sharpness 0.026 found at informal 1, softplus, eps = 0.3, "
                    "H = 4; rejected there)", BudgetStatement("search", 0.025), near_boundary=True, part="step_error", origin="second-reader")],
    expect=Status.PARTLY_CONFIRMED,
    parts=[Part("step_error", "Theorem 2: an explicit (2N+4)L-layer transformer performs eps-accurate GD steps: "
                "||w_hat - Proj_W(w - eta grad L_n(w))||_2 <= eta eps", inequality=True),
           Part("sizes", "with O~(eps^-2) heads, O(NK^2) width and bounded norms", asserted=False,
                reason="asymptotic with unprinted constants; recorded by seed001.theorem_1_construction"),
           Part("theorem_3", "Theorem 3: a 4L-layer Softmax transformer does so for general risks", asserted=False,
                reason="existential via Lemma 16, not checkable; only its bookkeeping is checked "
                       "(seed001.theorem_6_softmax_icgd, a proof-gap)")],
    rigor=Rigor.FLOAT,
    derived=True,
    params=[Param("eps_grid", str, doc="comma-separated target accuracies"), Param("instances", int, 1, 20)],
    tiers={"quick": {"eps_grid": "0.3,0.003", "instances": 2}, "full": {"eps_grid": "0.3,0.03,0.003,0.001", "instances": 4}},
)
def check_theorem_2(statement: BudgetStatement, p, ctx) -> Verdict:
    """Theorems 2 and 3 (informal versions of Theorems 1 and 6, Appendix A).

    Statement
    ---------
    Theorem 2 (informal): for C^4 r, r', u[k] and bounded parameters and data, an explicit
    (2N+4)L-layer transformer solves Problem 1 on N-layer networks (eps-accurate GD steps).  Theorem 3
    (informal): a 4L-layer Softmax transformer does so for general risks (existential; its bookkeeping
    is seed001.theorem_6_softmax_icgd).

    Source
    ------
    Seed 001, Appendix A, Theorem 2 and Theorem 3, lines 440-446.

    Checkable form
    --------------
    A derived check of Theorem 2 at target accuracies eps: the number of interpolation intervals H is
    the smallest power of two for which the corrected Theorem-1 bound (seed001.theorem_1_construction)
    is <= eps; the block is built and executed, and the realised step error
    ||w_hat - Proj_W(w - eta grad L_n(w))||_2 must be <= eta eps.  H(eps) is recorded (it grows like
    eps^{-1/2}, inside the theorem's O~(eps^{-2}) head count).

    Exactness
    ---------
    float64; the realised errors are 10-100x below eta eps.

    Mutants
    -------
    A fixed H = 2 for every eps fails at the smaller targets.  Second reader: the step error bound x 0.025
    (just beyond the sharpness found).

    Notes
    -----
    Verdict (second reader): partly confirmed (was confirmed).  Theorem 2 holds through the corrected
    construction of seed001.theorem_1_construction (a proof-gap, not an erratum: the printed statement is
    existential), so no erratum is inherited; Theorem 3 and the size bounds are not asserted (parts).
    Sharpness: 0.026 (quick) with H the smallest power of two meeting the corrected bound; the realised
    errors are 38x or more below eta eps because the corrected Theorem-1 bound is itself loose (> 30x).
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    rng = ctx.rng("informal")
    table = []
    for k in range(p["instances"]):
        inst = B.random_instance(rng, f"informal {k}", ("tanh", "softplus")[k % 2], 2, 2, 1 + k % 2, 1, 4)
        for eps in [float(e) for e in p["eps_grid"].split(",")]:
            if statement.budget == "search":
                H, ap, res = _search_H(inst, eps)
                if H is None:
                    ev.add(dict(inst.describe(), eps=eps, part="H found below 4096"), False, relation="true")
                    continue
            else:
                H = int(statement.budget)
                ap = B.approximants(inst, H, H, radius="corrected")
                res = B.run_block(inst, ap, ETA)
            target = np.clip(res["w"] - ETA * res["grad"], -inst.box, inst.box)
            err = float(np.linalg.norm(res["w_out"] - target))
            ev.add(dict(inst.describe(), eps=eps, H=H), err, ETA * eps * statement.eps_factor, part="step_error")
            table.append({"instance": k, "eps": eps, "H": H, "step error / eta": err / ETA})
    ev.details["intervals H needed for the corrected bound <= eps"] = table
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# E21. Appendix H
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreStatement:
    scale: float = 0.5  # grad_hat = scale * grad of (1/n) sum ||f(w, x_i) - score(x_i)||^2
    bound_factor: float = 1.0  # multiplies the corrected Theorem-1 bound (near-boundary mutants)


@claim(
    id="seed001.appendix_h_score",
    source=SOURCE,
    label="Lemma 19",
    entry="E21",
    title="Appendix H: ICGD on score-matching data is GD on the empirical (H.1) loss (toy Gaussian, smooth network)",
    lines=[(1552, 1588)],
    printed=ScoreStatement(),
    mutants=[Mutant("1/n-loss", "the block performs GD on (1/n) sum ||f - score||^2 (no factor 1/2)", ScoreStatement(1.0)),
             Mutant("bound-x0.005", "the corrected Theorem-1 bound times 0.005 (sharpness 0.0051 on the toy; rejected)",
                    ScoreStatement(0.5, 0.005), near_boundary=True, part="reduction", origin="second-reader")],
    expect=Status.MECHANISM,
    parts=[Part("lemma_19", "Lemma 19 (cited): ReLU networks approximate the score within O(eps) in L^2(P_t)", asserted=False,
                reason="cited from Chen et al. 2023 without construction; ReLU networks are outside Theorem 1's C^4 "
                       "hypotheses"),
           Part("reduction", "Problem 3 reduces to Problem 2: the block's grad_hat is within the Theorem-1 bound of the "
                "gradient of the (H.1) loss (1/(2n) normalisation), on a toy Gaussian score", inequality=True)],
    kind=Kind.MECHANISM,
    rigor=Rigor.FLOAT,
    params=[Param("n", int, 2, 64), Param("H", int, 2, 4096)],
    tiers={"quick": {"n": 6, "H": 64}, "full": {"n": 16, "H": 256}},
)
def check_appendix_h(statement: ScoreStatement, p, ctx) -> Verdict:
    """Appendix H: Problem 3 (in-context score estimation) and Lemma 19 (Chen et al. 2023, cited).

    Statement
    ---------
    Lemma 19 (cited): for every eps a multi-layer ReLU network f(w, x, t) approximates the score
    grad log p_t within O(eps) in L^2(P_t) for t in [T_0, T].  Claim: Problem 3 (learning the score in
    context with the loss (H.1)) reduces to Problem 2, so Theorem 1's transformer performs ICGD on it.

    Source
    ------
    Seed 001, Appendix H: H.1 lines 1552-1570 ((H.1), (H.2)), Problem 3 lines 1576-1578, Lemma 19
    lines 1584-1586, the reduction claim line 1588.

    Checkable form
    --------------
    Not checkable as stated: Lemma 19's networks are ReLU networks with a time input, outside Theorem
    1's hypotheses (C^4 activation: for r = ReLU, r' is a step and no continuous sum of ReLUs is within
    1/2 of it), and the labels grad log p_t(x_i) are unknown in practice.  The mechanism of the
    reduction is checked on a toy: P_0 = N(mu, s^2 I_2), the OU forward process at t = 1/2 (Gaussian
    p_t, closed-form score), n samples x_i ~ p_t with labels y_i = grad log p_t(x_i), a tanh network
    (N = 2, K = 3, d = 2) in W.  One executed block's grad_hat must be within the corrected Theorem-1
    bound of scale * grad of the empirical loss (1/n) sum ||f(w, x_i) - y_i||^2 (scale 1/2: Problem 2's
    1/(2n) normalisation).

    Exactness
    ---------
    float64; the bound is the corrected Theorem-1 bound at the interpolants' eps.

    Mutants
    -------
    Reading the block as GD on (1/n) sum ||f - y||^2 with the same eta (scale 1) is off by the gradient
    itself, far above the bound.  Second reader: the bound x 0.005 (near-boundary; the corrected
    Theorem-1 bound is loose by about 200x on this toy, sharpness 0.0051).

    Notes
    -----
    Verdict (second reader): mechanism, unchanged.
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    rng = ctx.rng("score")
    mu, s, t = np.array([0.6, -0.3]), 0.5, 0.5
    m_t, v_t = np.exp(-t) * mu, np.exp(-2 * t) * s * s + 1 - np.exp(-2 * t)
    Xall = m_t + np.sqrt(v_t) * rng.normal(size=(p["n"] + 1, 2))
    Xall /= np.maximum(1.0, np.linalg.norm(Xall, axis=1, keepdims=True))
    Y = -(Xall[:-1] - m_t) / v_t
    base = B.random_instance(rng, "score", "tanh", 2, 3, 2, 2, p["n"])
    inst = replace(base, X=Xall[:-1], Y=Y, xt=Xall[-1], label="Gaussian score, t = 1/2")
    ap = B.approximants(inst, p["H"], p["H"], radius="corrected")
    res = B.run_block(inst, ap, ETA)
    bound = B.theorem1_bounds(inst, ap, B.instance_bounds(inst, ap, res))["corrected"]
    grad_loss = 2.0 * res["grad"]  # gradient of (1/n) sum ||f - y||^2
    lhs = float(np.linalg.norm(res["grad_hat"] - statement.scale * grad_loss))
    ev.add(dict(inst.describe(), H=p["H"]), lhs, bound * statement.bound_factor * (1 + REL), part="reduction")
    ev.details["score-matching risk (1/n) sum ||f - score||^2 at w"] = float(2 * G.risk(list(res["Vs"]), inst.X, inst.Y, inst.activation))
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# E22. Appendix G: experiments
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ICLStatement:
    beats_gd: float = 0.0  # 0: compare with GD by agreement; > 0: "transformer MSE <= beats_gd * GD MSE"


@claim(
    id="seed001.appendix_g_experiments",
    source=SOURCE,
    label="Appendix G",
    entry="E22",
    title="Experiments (no numbers reported): the executed construction learns in context like GD on the N-layer net",
    lines=[(1472, 1546)],
    printed=ICLStatement(),
    mutants=[Mutant("beats-GD", "the transformer's test error is at most half that of GD on the same examples", ICLStatement(0.5))],
    expect=Status.MECHANISM,
    parts=[Part("experiments", "trained GPT-2-style ReLU/Softmax transformers reach in-context R^2 comparable to GD on "
                "the N-layer network (Figures 1-3)", asserted=False,
                reason="no numbers are reported (figures only), targets unspecified, pretraining beyond the CPU budget"),
           Part("mechanism", "the executed construction lowers the in-context risk and predicts the test token like "
                "projected GD on the same examples (toy size; tolerance 0.05 chosen by the checker, not printed)")],
    kind=Kind.MECHANISM,
    rigor=Rigor.FLOAT,
    params=[Param("prompts", int, 1, 200), Param("blocks", int, 1, 100), Param("H", int, 2, 4096)],
    tiers={"quick": {"prompts": 3, "blocks": 6, "H": 32}, "full": {"prompts": 12, "blocks": 15, "H": 64}},
)
def check_appendix_g(statement: ICLStatement, p, ctx) -> Verdict:
    """Appendix G: experiments with trained ReLU/Softmax transformers on random 3/4/6-layer networks.

    Statement
    ---------
    GPT-2-style ReLU- and Softmax-transformers (12 blocks, 8 heads, width 256), pretrained 500k steps
    on prompts of 50 examples (x in R^20 from mixtures of N(-2, I), N(2, I); targets random 3/4/6-layer
    networks), reach in-context R^2 "comparable" to training the N-layer network on the same examples;
    R^2 declines under distribution shift; the Softmax model degrades beyond 50 examples; deeper
    transformers do better (Figures 1-3).

    Source
    ------
    Seed 001, Appendix G, lines 1472-1546 (figures not contained in the seed text).

    Checkable form
    --------------
    Not reproducible here: the document reports no numbers (figures only), the target networks' widths,
    activations and initialisation are unspecified, and pretraining is far beyond this suite's CPU
    budget; the experiments also train transformers end-to-end and do not instantiate the
    construction.  What is checked is the mechanism the paper offers for them, at toy size: on random
    realisable regression prompts (teacher tanh network in W, N = 2, K = 3, d_x = 2, d_y = 1, n = 8) the
    executed construction, run for L blocks from a random w^0 in W, must (i) lower the in-context risk
    L_n, and (ii) predict the test token (read from p_hat_{n+1}(N) after the forward layers of one more
    block) within 0.05 of the network trained by exact projected GD for L steps.

    Exactness
    ---------
    float64; the agreement tolerance 0.05 is far above the accumulated difference of the trajectories
    (about 1e-3, seed001.corollary_1_1_trajectory) and far below the size of the targets (O(1)).

    Mutants
    -------
    "The transformer's test error is at most half of GD's" fails: it tracks GD.

    Notes
    -----
    Verdict (second reader): mechanism, unchanged; the mechanism part has no printed constant (the 0.05
    agreement tolerance is the checker's), so it is not an inequality part and has no sharpness.
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    rng = ctx.rng("icl")
    mse_t = mse_g = 0.0
    for k in range(p["prompts"]):
        teacher = B.random_instance(rng, f"prompt {k}", "tanh", 2, 3, 2, 1, 8)
        Xall = np.vstack([teacher.X, teacher.xt[None, :]])
        Yall = G.forward(list(teacher.Vs), Xall, teacher.activation)[0][-1]
        inst = replace(teacher, Y=Yall[:-1])
        ap = B.approximants(inst, p["H"], p["H"], radius="corrected")
        w0 = rng.uniform(-inst.box, inst.box, size=G.param_offsets(2, 3, 2, 1)[-1])
        eta = 1.0
        lay, layers, Hs = run_blocks(inst, ap, eta, p["blocks"], w0)
        wL = Hs[-1][lay.w:lay.w + lay.offsets[-1], 0]
        Hf = Hs[-1]
        for L_ in layers[: inst.N]:
            Hf = L_(Hf)
        pred_t = float(Hf[lay.p_idx(inst.N)[0], inst.n])
        wg = w0.copy()
        grad = _grad_fn(inst)
        for _ in range(p["blocks"]):
            wg = np.clip(wg - eta * grad(wg), -inst.box, inst.box)
        pred_g = float(G.forward(G.unflatten(wg, lay.shapes), inst.xt[None, :], inst.activation)[0][-1][0, 0])
        r0 = G.risk(G.unflatten(w0, lay.shapes), inst.X, inst.Y, inst.activation)
        rL = G.risk(G.unflatten(wL, lay.shapes), inst.X, inst.Y, inst.activation)
        ev.add({"prompt": k, "part": "mechanism: in-context risk decreases", "L": p["blocks"]}, rL, r0)
        if not statement.beats_gd:
            ev.add({"prompt": k, "part": "test prediction agrees with GD", "target": float(Yall[-1, 0])}, abs(pred_t - pred_g), 0.05)
        mse_t += (pred_t - float(Yall[-1, 0])) ** 2 / p["prompts"]
        mse_g += (pred_g - float(Yall[-1, 0])) ** 2 / p["prompts"]
    if statement.beats_gd:
        ev.add({"part": "transformer test MSE <= factor * GD test MSE", "factor": statement.beats_gd}, mse_t, statement.beats_gd * mse_g)
    ev.details["test MSE (transformer, GD)"] = [mse_t, mse_g]
    return ev.verdict()
