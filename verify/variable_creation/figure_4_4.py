"""Fig 4.4 (E35) re-run as an empirical claim (issue: figures): one-layer transformers with an MLP block, trained on
streaming samples, learn 3-sparse parities of T in {10, 15} bits with a phase transition from chance to 100%.

The trainer is kernels.training.parity_transformer (numba, with a numpy reference twin tested against it and its
gradient against finite differences): the [CLS] read-out of the chapter's 1-layer classifier with H heads, a GeLU MLP,
a scalar logit, the logistic loss and AdamW on fresh batches at every step.  ``thesis_ch4.fig_4.4`` (module
``parity_training``) shows why the suite's single-head trainer could not be used: a single head with a linear
read-out computes a linear threshold function of the bits, which cannot represent a 3-parity.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from kernels.training.parity_transformer import ParityShapes, evaluate_parity, parity_batch, train_parity_runs

from ..blocks import seed_blocks
from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True

_BLOCK = 2  # runs per piece of ctx.map (a cluster task each)
S = 3  # sparsity of the parity (the figure's s = 3)


@functools.lru_cache(maxsize=16)
def parity_block(T: int, supports: tuple, seeds: tuple, steps: int, d: int, heads: int, f: int, batch: int, lr: float,
                 init_scale: float, n_ck: int, val_seed: int, n_val: int) -> dict:
    """Train one block of runs (run r on seeds[r] with the parity over supports[r]) and evaluate them at n_ck + 1
    evenly spaced steps on a fixed validation set of n_val fresh samples (the stream of val_seed, step 0):
    acc, loss (R, C); diverged (R,)."""
    cks = np.linspace(0, steps, n_ck + 1).round().astype(np.int64)
    R, C = len(seeds), len(cks)
    acc, loss = np.zeros((R, C)), np.zeros((R, C))
    diverged = np.zeros(R, dtype=bool)
    for r, (sd, sup) in enumerate(zip(seeds, supports)):
        res = train_parity_runs([sd], T, list(sup), steps, d=d, heads=heads, k=d // heads, f=f, batch=batch, lr=lr,
                                init_scale=init_scale, checkpoints=cks)
        bits, y = parity_batch(val_seed, 0, T, list(sup), n_val)
        for i in range(C):
            acc[r, i], loss[r, i] = evaluate_parity(res.theta_at[0, i], res.shapes, bits, y)
        diverged[r] = bool(res.diverged[0])
    return {"cks": cks, "acc": acc, "loss": loss, "diverged": diverged}


@dataclass(frozen=True)
class ParityFigure:
    learned_acc: float = 0.99  # 'to 100% accuracy': validation accuracy >= learned_acc
    chance_band: float = 0.1  # 'from random guessing': accuracy at step 0 within 1/2 +- chance_band
    every_seed_T: tuple = (6, 10)  # every seed learns within the budget at these T (6: the quick smoke test)
    half_seeds_T: tuple = (15,)  # at least half of the seeds learn within the budget at these T (reduced budget)
    jump_frac: float = 0.1  # 'phase transition': last evaluation <= 1/2 + chance_band to first >= learned_acc within
    #                         jump_frac x the training steps
    learned_loss: float = 0.02  # at the end, a learned run's validation loss <= learned_loss
    immediate: bool = False  # mutant hook: learning runs are at >= learned_acc from the first evaluation after step 0


@claim(
    id="thesis_ch4.figure_4_4",
    figure="Figure 4.4",
    source=SOURCE,
    label="Figure 4.4",
    entry="E35",
    title="One-layer transformers with an MLP, trained online on 3-sparse parities: at T = 10 every seed jumps from chance to "
          "100% accuracy; at T = 15 no seed leaves chance within the CPU budget (4 heads, d = 16, batch 256, 2000 steps), so "
          "not reproduced as pre-registered",
    lines=[(815, 822), (2917, 2933)],
    printed=ParityFigure(),
    parts=[
        Part("learns_T10", "Fig. 4.4: 'Transformers can learn sparse parities', s = 3, T = 10 (read: every seed reaches "
             "validation accuracy >= 0.99 within the training budget)"),
        Part("learns_T15", "Fig. 4.4, T = 15 (read, at the reduced budget: at least half of the seeds reach validation accuracy "
             ">= 0.99)"),
        Part("phase_transition", "Fig. 4.4: 'exhibiting phase transitions from random guessing to 100% accuracy' (read: each "
             "learning run starts within 0.5 +- 0.1 accuracy, and its last evaluation at <= 0.6 and its first at >= 0.99 are "
             "at most 10% of the training steps apart)", inequality=True),
        Part("low_final_loss", "Fig. 4.4 (loss curves): the loss of a learning run goes to ~0 (read: final validation loss <= "
             "0.02)", inequality=True),
        Part("every_seed_T15", "all 10 seeds learn at T = 15", asserted=False,
             reason="the figure's horizon (iterations) is not printed and the thesis uses batch 2048 with 16 heads of d = 64; "
                    "at the CPU budget (batch 256, 2000 steps) a pilot saw 2 of 4 seeds learn; the fraction is reported and "
                    "the gpu tier runs 4 seeds with batch 1024 (16 heads of d = 64)"),
        Part("paper_architecture", "minGPT, 1 layer, 16 heads, d = 64, GeLU MLP, LayerNorm, dropout 0.1, AdamW lr 1e-3, wd 1e-4, "
             "batch 2048 (App. A.3.1-A.3.2)", asserted=False,
             reason="reduced: 4 heads, d = 16, MLP width 64, no LayerNorm or dropout, init N(0, 0.3^2) (without LayerNorm the "
                    "minGPT scale 0.02 leaves the model linear: a pilot stayed at chance for 1500 steps at lr 1e-3 and 1e-2), "
                    "lr 3e-3, batch 256"),
    ],
    mutants=[Mutant("no-learning-T10", "at T = 10 some seed stays at chance (the transformer does not learn the parity)",
                    ParityFigure(every_seed_T=(), half_seeds_T=()), origin="author"),
             Mutant("no-chance-phase", "learning is immediate: every learning run is at >= 0.99 at the first evaluation after "
                    "step 0 (no period at chance)", ParityFigure(immediate=True)),
             Mutant("gradual", "learning is gradual: the rise from chance to 0.99 spans >= 30% of training (no phase transition)",
                    ParityFigure(jump_frac=-0.3)),
             Mutant("jump-0.08", "near-boundary: the rise from chance to 0.99 happens within 8% of the training steps (measured, "
                    "full tier, T = 10: 0.05-0.10)", ParityFigure(jump_frac=0.08), near_boundary=True, part="phase_transition"),
             Mutant("loss-5e-6", "near-boundary: the final validation loss of a learning run <= 5e-6 (measured, full tier, T = 10: "
                    "at most 7.1e-6)", ParityFigure(learned_loss=5e-6), near_boundary=True, part="low_final_loss")],
    expect=Status.NOT_REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[Param("Ts", str, choices=("6,15", "10", "10,15"), doc="sequence lengths (the figure: 10, 15; 6 only for the quick smoke test)"), Param("seeds", int, 1, 20, doc="runs per T (figure: 10)"),
            Param("steps", int, 10, 10**6, doc="AdamW steps at T = 10"), Param("steps15", int, 10, 10**6, doc="AdamW steps at T = 15"),
            Param("batch", int, 8, 4096, doc="fresh samples per step (figure: 2048)"), Param("d", int, 4, 128),
            Param("heads", int, 1, 16), Param("f", int, 4, 512, doc="MLP width"), Param("lr", float, 1e-5, 0.1),
            Param("init_scale", float, 1e-3, 2.0), Param("n_ck", int, 4, 100, doc="evaluations - 1"),
            Param("n_val", int, 64, 20_000, doc="validation samples")],
    tiers={"quick": {"Ts": "6,15", "seeds": 1, "steps": 250, "steps15": 30, "batch": 96, "d": 16, "heads": 4, "f": 64, "lr": 1e-2,
                     "init_scale": 0.3, "n_ck": 25, "n_val": 512},
           "full": {"Ts": "10,15", "seeds": 4, "steps": 1000, "steps15": 2000, "batch": 256, "d": 16, "heads": 4, "f": 64,
                    "lr": 3e-3, "init_scale": 0.3, "n_ck": 20, "n_val": 1024},
           "gpu": {"Ts": "10,15", "seeds": 4, "steps": 3000, "steps15": 5000, "batch": 1024, "d": 64, "heads": 16, "f": 256,
                   "lr": 1e-3, "init_scale": 0.3, "n_ck": 30, "n_val": 2048}},
)
def check_figure_4_4(st: ParityFigure, p, ctx) -> Verdict:
    """Figure 4.4: loss curves of transformers trained on streaming 3-sparse parities, T in {10, 15}, 10 seeds.

    Statement
    ---------
    Fig. 4.4 (line 820): transformers can learn sparse parities; loss curves across 10 random seeds (initialisation
    and SGD samples), s = 3, T in {10, 15}, exhibiting phase transitions from random guessing to 100% accuracy.  Line
    815-818: trained with i.i.d. samples.  App. A.3.2 (line 2931): the architecture of the AND experiments, streaming
    online losses (no train/validation split), batch 2048.

    Hypotheses
    ----------
    Bits i.i.d. uniform, label = parity of a uniformly random 3-subset I of the T positions (drawn per seed from
    ctx.rng('support-T-r')); the model and trainer of kernels.training.parity_transformer (module docstring), run r
    of length T on seed ctx.seed('run-T-r'); validation on n_val fresh samples of the stream ctx.seed('val').

    Source
    ------
    Thesis (seed 004), ch. 4, Figure 4.4: lines 815-822 (the paragraph and the caption); App. A.3.1-A.3.2, lines
    2917-2933.

    Checkable form
    --------------
    Evaluate every run at n_ck + 1 evenly spaced steps (validation accuracy and logistic loss).  A run *learns* if its
    accuracy reaches learned_acc (0.99).  Reproduced iff (a) at every T in every_seed_T (10) every seed learns and at
    every T in half_seeds_T (15) at least half of the seeds learn; (b) every learning run has step-0 accuracy within
    0.5 +- chance_band (0.1) and the gap between its last evaluation at <= 0.5 + chance_band and its first at >=
    learned_acc is <= jump_frac (0.1) x its training steps; (c) the final validation loss of every learning run is
    <= learned_loss (0.02).  Criteria fixed before the full-tier run; the architecture's deviations (init scale, lr,
    width) and the budget were set on a pilot with other seeds (T = 10: 4 of 4 seeds learned by step 600 of 2000,
    each within one 100-step interval; T = 15: 2 of 4 by step 700).

    Exactness
    ---------
    Statistical: seeded runs, bit-for-bit reproducible; accuracies are counts over n_val samples.

    Mutants
    -------
    no-learning-T10 requires some seed to stay below 0.99 (at T = 10, or T = 6 at the quick tier); no-chance-phase
    requires every learning run to be at >= 0.99 at the first evaluation after step 0; gradual requires the rise to
    span >= 30% of training; jump-0.08 and loss-5e-6 are the near-boundary mutants of (b) and (c).  At the full tier
    every mutant is also rejected by the T = 15 failure of (a).

    Notes
    -----
    Sizes: quick T = 6 (250 steps) and T = 15 (30 steps), 1 seed, batch 96, lr 1e-2: a smoke test of both code paths
    (T = 6 learns, T = 15 cannot in 30 steps, as the full tier's T = 15 does not in 2000; at T = 10 a single seed of a
    ~2 s budget does not leave chance); full T = 10 and 15, 4 seeds,
    1000 / 2000 steps of batch 256, 4 heads, d = 16; gpu 4 seeds, batch 1024, 16 heads, d = 64, 3000 / 5000 steps
    (not run here; the thesis's 10 seeds at batch 2048 are estimated at 60 h on this 2-core machine, over the 24 h
    budget a tier may take, tests/test_costs.py).  The thesis prints no numbers for the figure.

    Measured (full tier, 140 s when first run, 61 s CPU with the vectorised kernel; NOT reproduced): T = 10: all 4 seeds
    learn, each in a jump from chance to 100% validation accuracy between two evaluations (first at >= 0.99 at steps 450,
    550, 600, 700 of 1000; rise gaps 0.05-0.10 of training, the largest exactly at the 0.1 criterion), final validation loss <= 7.1e-6 -- Fig. 4.4's phase
    transitions.  T = 15: none of the 4 seeds leaves chance in 2000 steps (final accuracy 0.47-0.51; the pilot with
    other seeds had 2 of 4 learn by step 700), so criterion (a) fails at T = 15.  The thesis's larger model and batch
    2048 (gpu tier) may be what T = 15 needs; the transition time grows quickly with T, as expected of parities.
    """
    ev = Evidence("le", rigor=Rigor.STATISTICAL)
    R = p["seeds"]
    Ts = [int(v) for v in p["Ts"].split(",")]
    out = {}
    for T in Ts:
        steps = p["steps"] if T <= 10 else p["steps15"]
        seeds = [ctx.seed(f"run-{T}-{r}") for r in range(R)]
        sups = [tuple(sorted(ctx.rng(f"support-{T}-{r}").choice(T, size=S, replace=False).tolist())) for r in range(R)]
        blocks = ctx.map(parity_block, [(T, tuple(sups[a:b]), tuple(seeds[a:b]), steps, p["d"], p["heads"], p["f"], p["batch"],
                                         p["lr"], p["init_scale"], p["n_ck"], ctx.seed("val"), p["n_val"])
                                        for a, b in seed_blocks(R, _BLOCK)])
        res = {"cks": blocks[0]["cks"], **{key: np.concatenate([b[key] for b in blocks]) for key in ("acc", "loss", "diverged")}}
        out[T] = (res, sups, steps)
        cks, acc, loss = res["cks"], res["acc"], res["loss"]
        learned = acc.max(1) >= st.learned_acc
        for r in range(R):
            ev.add({"T": T, "run": r, "part": "diverged"}, int(res["diverged"][r]), 0, relation="eq")
        if T in st.every_seed_T:
            ev.add({"T": T, "part": "(a) every seed learns (accuracy >= learned_acc)", "learned": learned.tolist()},
                   int(learned.sum()), R, relation="ge")
        elif T in st.half_seeds_T:
            ev.add({"T": T, "part": "(a) at least half of the seeds learn", "learned": learned.tolist()}, 2 * int(learned.sum()), R,
                   relation="ge")
        elif T not in st.half_seeds_T and T != 15:
            ev.add({"T": T, "part": "(a) some seed stays below learned_acc (mutant)"}, int(learned.sum()), R - 1)
        for r in np.flatnonzero(learned).tolist():
            case = {"T": T, "run": r, "support": list(sups[r]), "steps": steps}
            ev.add(dict(case, part="(b) step-0 accuracy: |acc - 1/2| <= chance_band"), abs(acc[r, 0] - 0.5), st.chance_band)
            first = int(np.argmax(acc[r] >= st.learned_acc))
            low = np.flatnonzero(acc[r, :first + 1] <= 0.5 + st.chance_band)
            last_low = int(cks[low[-1]]) if len(low) else 0
            gap = (int(cks[first]) - last_low) / steps
            if st.jump_frac >= 0:
                ev.add(dict(case, part="(b) rise chance -> learned_acc within jump_frac x steps", from_step=last_low,
                            to_step=int(cks[first])), gap, st.jump_frac, part="phase_transition")
            else:
                ev.add(dict(case, part="(b) rise spans >= 30% of training (mutant)"), -st.jump_frac, gap)
            ev.add(dict(case, part="(c) final validation loss <= learned_loss"), float(loss[r, -1]), st.learned_loss,
                   part="low_final_loss")
            if st.immediate:
                ev.add(dict(case, part="first evaluation at >= learned_acc is the first after step 0 (mutant)"), first, 1, relation="eq")
    ev.details["per T: seeds learning (accuracy >= 0.99), step of the first evaluation at >= 0.99, final accuracy"] = {
        T: {"learned": int((res["acc"].max(1) >= st.learned_acc).sum()), "of": R,
            "first step >= 0.99": [int(res["cks"][int(np.argmax(a >= st.learned_acc))]) if a.max() >= st.learned_acc else None
                                   for a in res["acc"]],
            "final accuracy": np.round(res["acc"][:, -1], 4).tolist()} for T, (res, _, _) in out.items()}
    ev.details["paper (Fig. 4.4)"] = ("s = 3, T in {10, 15}, 10 seeds, batch 2048, 16 heads of d = 64 with MLP; no numbers printed "
                                      "(phase transitions from chance to 100% accuracy)")
    for T, (res, sups, steps) in out.items():
        cks = res["cks"].tolist()
        ev.plots.append({"title": f"Fig. 4.4 re-run: validation loss, s = 3, T = {T} ({R} seeds, batch {p['batch']}, online)",
                         "xlabel": "training step", "ylabel": "logistic loss (validation)", "logy": True,
                         "series": [{"x": cks, "y": np.maximum(res["loss"][r], 1e-8).tolist(), "label": f"seed {r}, I = {list(sups[r])}",
                                     "style": "-"} for r in range(R)]
                         + [{"x": [0, steps], "y": [float(np.log(2))] * 2, "label": "chance (log 2)", "style": "--"}]})
        ev.plots.append({"title": f"Fig. 4.4 re-run: validation accuracy, s = 3, T = {T}", "xlabel": "training step",
                         "ylabel": "accuracy", "series": [{"x": cks, "y": res["acc"][r].tolist(), "label": f"seed {r}", "style": "-"}
                                                          for r in range(R)]})
    return ev.verdict(seed=ctx.seed(f"run-{Ts[0]}-0"))
