"""Figure 7.5 re-run (thesis Sec. 7.5, App. D.2.2): a one-hidden-layer x^4 network trained by full-batch GD with
L_{2,5} weight decay on the (10, 4)-sparse parity; (a) the final neurons of highest norm have Theorem 7.8's
structure, (b) the normalized L_{2,5} margin approaches gamma* = k! sqrt(2 (k+1)^{-(k+1)}).

Training: kernels.training.parity_margin (numba CPU, float64; numpy reference twin), the paper's size at the
full tier: n = 10, k = 4, m = 40, 30k GD steps, lr 0.1, lam = 1e-3 with the penalty lam sum_i ||omega_i||^5
(~25 s CPU).  Runs are cached by ``parity_run`` (module-level, hashable arguments, seeds from ``ctx.seed``).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import numpy as np

from kernels.training.parity_margin import train_parity_margin

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE
from ._common import gamma_parity

CONTRACT_AUDITED = True


@functools.lru_cache(maxsize=16)
def parity_run(n: int, k: int, degree: int, m: int, steps: int, lr: float, lam: float, seed: int, record_every: int = 250):
    """One seeded full-batch GD run of an x^degree network (penalty ||omega||^{degree+1}) on the (n, k)-sparse
    parity, S = the first k coordinates (cached)."""
    rng = np.random.default_rng(seed)  # torch.nn.Linear's default init: U(-1/sqrt(fan_in), 1/sqrt(fan_in))
    U = rng.uniform(-1, 1, (m, n)) / math.sqrt(n)
    W = rng.uniform(-1, 1, (m, 2)) / math.sqrt(m)
    return train_parity_margin(n, degree, m, steps=steps, lr=lr, weight_decay=lam, params=(U, W),
                               support=tuple(range(k)), record_every=record_every)


@dataclass(frozen=True)
class ParityFigure:
    """What Figure 7.5 shows, as checkable thresholds (pre-registered before the full-tier run)."""

    activation: int | None = None  # degree of the activation (None: k, the paper's x^4); mutant: 2 ("quadratic", D.2.2)
    cap: float = 1 + 1e-9  # (b) gamma_t <= cap gamma*
    need: float = 0.95  # (b) final gamma_T >= need gamma*
    mass: float = 0.9  # (a) the 2^{k-1} heaviest neurons carry >= mass of sum ||omega||^{k+1}
    on_support: float = 0.95  # (a) ||u_S||^2 / ||u||^2 >= on_support for each of them
    in_span_b: float = 0.95  # (a) (w . b)^2 / (2 ||w||^2) >= in_span_b
    balance: float = 0.2  # (a) | |u_j| / ||w|| - 1 | <= balance for j in S
    spread: bool = False  # mutant: the heaviest neurons spread over all coordinates (on-support fraction <= 0.5)


PRINTED = ParityFigure()


def neuron_structure(U: np.ndarray, W: np.ndarray, k: int, support) -> dict:
    """Theorem 7.8's quantities for every neuron: cost ||omega||^{k+1}, on-support fraction, w-in-span(b)
    fraction, |u_j| / ||w|| on S, and the sign (prod_S u_j)(w . b)."""
    S = list(support)
    sq = (U**2).sum(1) + (W**2).sum(1)
    cost = sq ** ((k + 1) / 2)
    usq = (U**2).sum(1)
    on = (U[:, S] ** 2).sum(1) / np.maximum(usq, 1e-300)
    wb = W[:, 0] - W[:, 1]
    span = wb**2 / np.maximum(2 * (W**2).sum(1), 1e-300)
    wn = np.sqrt((W**2).sum(1))
    ratio = np.abs(U[:, S]) / np.maximum(wn, 1e-300)[:, None]
    sign = np.prod(U[:, S], axis=1) * wb
    return {"cost": cost, "on": on, "span": span, "ratio": ratio, "sign": sign}


@claim(
    id="thesis_ch7.figure_7_5", figure="Figure 7.5", source=SOURCE, label="Figure 7.5", entry="F",
    title="Figure 7.5 re-run: x^4 net on (10, 4) parity, 30k GD steps: L_{2,5} margin -> gamma*, top neurons as Thm 7.8",
    lines=[(1592, 1594), (1616, 1618), (4788, 4790)],
    printed=PRINTED,
    parts=[Part("margin", "(b) 'the evolution of normalized L_{2,5} margin over training ... The network approaches the "
                "theoretical maximum margin that we predict': gamma_t <= gamma* throughout, gamma_T >= 0.95 gamma*, "
                "gamma_T >= gamma_{T/2}"),
           Part("neurons", "(a) 'Final neurons with highest norm' 'exhibit these properties' (Thm 7.8 (1), (2), line "
                "1616): the 2^{k-1} heaviest neurons carry >= 90 % of sum ||omega||^5, each with >= 95 % of ||u||^2 on S, "
                "w >= 95 % in span(b), |u_j| within 20 % of ||w|| on S and (prod_S u_j)(w . b) > 0"),
           Part("patterns", "the heaviest neurons are the construction's 2^{k-1} sign classes sigma mod +-", asserted=False,
                reason="not said by the figure or Thm 7.8 (any max-margin net satisfies (1), (2); the construction is one of "
                       "them); the classes found are recorded in the details")],
    mutants=[Mutant("quadratic-activation", "App. D.2.2's wording: a *quadratic* network (x^2) on the (10, 4) parity "
                    "approaches the max margin", replace(PRINTED, activation=2), part="margin"),
             Mutant("spread-neurons", "the heaviest neurons spread over all coordinates (on-support fraction <= 0.5)",
                    replace(PRINTED, spread=True), part="neurons"),
             Mutant("exceeds-gamma*", "the final margin is >= 1.001 gamma*", replace(PRINTED, need=1.001), part="margin"),
             Mutant("final-0.993", "final gamma_T >= 0.993 gamma* (just above the measured 0.99283 at 30k steps)",
                    replace(PRINTED, need=0.993), near_boundary=True, part="margin")],
    expect=Status.REPRODUCED, rigor=Rigor.STATISTICAL, kind=Kind.EMPIRICAL,
    params=[Param("n", int, 2, 16), Param("k", int, 2, 8), Param("m", int, 1, 1000), Param("steps", int, 0, 1_000_000),
            Param("lr", float, 1e-6, 10.0), Param("lam", float, 0.0, 1.0)],
    tiers={"quick": {"n": 6, "k": 4, "m": 16, "steps": 6000, "lr": 0.1, "lam": 1e-3},
           "full": {"n": 10, "k": 4, "m": 40, "steps": 30000, "lr": 0.1, "lam": 1e-3},
           "gpu": {"n": 10, "k": 4, "m": 40, "steps": 30000, "lr": 0.1, "lam": 1e-3}},
)
def check_figure_7_5(st: ParityFigure, p, ctx) -> Verdict:
    """Figure 7.5: a quartic network on the (10, 4) sparse parity approaches the max L_{2,5} margin.

    Statement
    ---------
    A 1-hidden-layer network with activation x^4 (m = 40) trained by GD (30k steps, lr 0.1, L_{2,5}
    regularization 1e-3) on the (10, 4)-sparse parity: (a) the final neurons with highest norm show the
    structure of Theorem 7.8 (u supported on S with |u_j| = ||w||, w in span(b = (1, -1)), (prod_S u_j)(w . b)
    >= 0), (b) the normalized L_{2,5} margin approaches the predicted gamma* = k! sqrt(2 (k+1)^{-(k+1)})
    (0.6071573 for k = 4; the formula is printed, the value is not).

    Source
    ------
    Seed 004, Figure 7.5 caption (lines 1592-1594), text after Thm 7.8 (lines 1616-1618), protocol App.
    D.2.2 (lines 4788-4790; it says "quadratic network", the figure and Thm 7.8 use x^k = x^4).

    Checkable form
    --------------
    Pre-registered (written before the full-tier run).  One run, seed ctx.seed('parity'), all 2^n inputs
    (full batch), S = the first k coordinates, init u_ij ~ U(-1/sqrt(n), 1/sqrt(n)), w_ic ~ U(-1/sqrt(m),
    1/sqrt(m)) (torch.nn.Linear's default; the paper does not state its init), penalty lam sum_i
    ||omega_i||^{k+1}.  Reproduced iff (b) gamma_t <= gamma* (1 + 1e-9) at every record (every 250 steps),
    gamma_T >= 0.95 gamma* and gamma_T >= gamma_{T/2}; (a) the 2^{k-1} = 8 neurons of largest ||omega||^5
    carry >= 90 % of sum_i ||omega_i||^5, and each of them has ||u_S||^2 / ||u||^2 >= 0.95,
    (w . b)^2 / (2 ||w||^2) >= 0.95, max_{j in S} | |u_j| / ||w|| - 1 | <= 0.2 and (prod_S u_j)(w . b) > 0.
    Plots: the margin trajectory against gamma* (paper's formula), and the heaviest neurons' |u_j| (j = 1..n)
    and ||w|| (the figure's panel (a) shows the weights of the heaviest neurons).

    Exactness
    ---------
    Statistical: one seeded run, bit-for-bit reproducible; the paper prints no number for the run.
    0.95 reads "approaches" (the catalog's numpy run with another seed reached 0.993 at 30k steps).

    Mutants
    -------
    quadratic-activation (App. D.2.2's "quadratic network": x^2 cannot represent a degree-4 parity, the
    margin stays <= 0), spread-neurons, exceeds-gamma* (impossible), and a near-boundary final-margin
    threshold just above the measured ratio.

    Notes
    -----
    Quick tier: (6, 4) parity, m = 16, 6000 steps (~0.2 s), same thresholds; full = gpu = the paper's size.
    History: the first quick run used the trainer's default init u ~ N(0, 1/n), w ~ N(0, 1/2) and diverged at
    step 8 (x^4 with lr 0.1); before any full-tier run the init was replaced by torch's default (above),
    the criteria were not changed.

    Measured (full tier, ~40 s CPU with the x^2 mutant's run): gamma_T/gamma*
    = 0.99283 (0.98040 at 15k, still rising; the catalog's run, another seed and init: 0.993); the 8
    heaviest neurons carry 99.27 % of sum ||omega||^5, on-support fraction >= 0.999997, w in span(b) to
    1e-15, |u_j| = ||w|| to 6e-6, sign condition met.  The x^2 net ("quadratic network", App. D.2.2) ends
    at margin -0.011 gamma* (it cannot fit a degree-4 parity).
    """
    ev = Evidence("true", rigor=Rigor.STATISTICAL)
    n, k = p["n"], p["k"]
    act = st.activation or k
    seed = ctx.seed("parity")
    run = parity_run(n, k, act, p["m"], p["steps"], p["lr"], p["lam"], seed)
    gamma = gamma_parity(k)  # the statement is about the k-parity; an x^act net (mutant) is measured against it
    ratio = run.normalized_margin / gamma
    top = float(np.nanmax(ratio))
    half = float(ratio[np.searchsorted(run.record_steps, run.record_steps[-1] // 2)])
    final = float(ratio[-1])
    ev.add({"part": "(b) margin", "activation": f"x^{act}", "max gamma_t/gamma*": top, "final gamma_T/gamma*": final,
            "gamma_{T/2}/gamma*": half, "need": st.need, "diverged_at": run.diverged_at},
           top <= st.cap and final >= st.need and final >= half and run.diverged_at < 0, part="margin")
    if run.diverged_at >= 0 or not np.all(np.isfinite(run.U)):
        ev.add({"part": "(a) heaviest neurons", "diverged_at": run.diverged_at}, st.spread, part="neurons")
        return ev.verdict(seed=seed)
    S = list(range(k))
    s = neuron_structure(run.U, run.W, act, S)
    order = np.argsort(-s["cost"], kind="stable")
    top_i = order[: 2 ** (k - 1)]
    mass = float(s["cost"][top_i].sum() / s["cost"].sum())
    on, span = s["on"][top_i], s["span"][top_i]
    bal = float(np.abs(s["ratio"][top_i] - 1).max())
    sign_ok = bool(np.all(s["sign"][top_i] > 0))
    if st.spread:
        ok = bool(np.all(on <= 0.5))
    else:
        ok = (mass >= st.mass and float(on.min()) >= st.on_support and float(span.min()) >= st.in_span_b
              and bal <= st.balance and sign_ok)
    pats = sorted({tuple(int(v) for v in np.sign(run.U[i, S]) * np.sign(run.U[i, S[0]])) for i in top_i})
    ev.add({"part": "(a) heaviest neurons", "mass of top 2^{k-1}": mass, "min on-support fraction": float(on.min()),
            "min in-span(b) fraction": float(span.min()), "max | |u_j|/||w|| - 1 |": bal, "sign condition": sign_ok},
           ok, part="neurons")
    ev.details["sign classes of the heaviest neurons (sigma with sigma_1 = +1)"] = [list(q) for q in pats]
    ev.details["gamma* (Thm 7.8 formula)"] = gamma
    ev.plots.append({"title": f"Figure 7.5 (b): normalized L_{{2,{k + 1}}} margin during GD, ({n}, {k}) parity, x^{act}",
                     "xlabel": "GD step", "ylabel": f"h(theta) / ||theta||_{{2,{k + 1}}}^{k + 1}", "series": [
                         {"x": run.record_steps.tolist(), "y": run.normalized_margin.tolist(), "label": f"re-run (m = {p['m']})",
                          "style": "-"},
                         {"x": [0, int(run.record_steps[-1])], "y": [gamma, gamma],
                          "label": "gamma* = k! sqrt(2 (k+1)^-(k+1)) (paper's Thm 7.8)", "style": "--"}]})
    ev.plots.append({"title": f"Figure 7.5 (a): |u_j| of the {len(top_i)} heaviest neurons (dashed: ||w||)",
                     "xlabel": "input coordinate j (S = 1..k)", "ylabel": "|u_j|", "series": [
                         {"x": list(range(1, n + 1)), "y": np.abs(run.U[i]).tolist(), "label": f"neuron {r + 1}", "style": "o-"}
                         for r, i in enumerate(top_i)] + [
                         {"x": [1, n], "y": [float(np.sqrt((run.W[top_i] ** 2).sum(1)).mean())] * 2,
                          "label": "mean ||w|| of these", "style": "k--"}]})
    return ev.verdict(seed=seed)
