"""Figures of thesis ch. 8 / App. E re-run as empirical claims (issue: figures): Figs. 8.1 and E.3 (stages and
seeds), 8.2 and E.5 (attention over training), E.8 (one-layer transformers) and E.4 (k = 4 symbols).

Every claim trains the attention-only transformer (8.4)-(8.5) with relative position embeddings, a learned
embedding and readout, cross-entropy on all positions, Adam, batch 64 (kernels.training.induction.
train_transformer_runs: the numba twin of the numpy reference ``train_transformer``, tested against it in
tests/induction_heads/test_induction_heads_batched.py, layers = 1 included) on fresh ICL-MC chains (Dirichlet(1)
rows, stationary start; counter-based stream, one seed per run), and evaluates it as the thesis's figures do:
the last-token KL between the true next-token law and the model (App. E.2, line 6030), against the add-one
uniform / unigram / bigram strategies, on a fixed evaluation set.  The trainings are in
``_figure_runs.train_block`` (seed blocks for ``ctx.map``; cached, so that the mutants do not retrain).

Sizes.  The thesis trains d = 16, t = 100 with AdamW lr 3e-5 (line 6028; the step count is not printed, the
catalog estimates ~2e5 steps of batch 64 for the second drop): 100 ms per step on this machine, hours per
run.  The full tier trains d = 8, t = 24, lr 1e-3 (2400 steps, ~5 ms per step), where the three stages take
~2000 steps; the quick tier d = 8, t = 12, lr 1e-2, 400 steps (a smoke test that still passes through the
stages); the gpu tier the thesis's printed sizes: t = 100, d = 16, lr 3e-5, batch 64 (seed blocks of 2 runs:
tasks of a cluster; not run here).  What the thesis does not print is ours: the step count (20000 steps, 1.28M
sequences, the order of the x-axes of its figures) and the weight decay of AdamW (Adam without weight decay, as
at the other tiers).  At lr 3e-5, 20000 steps may be too few for the second drop (the catalog's estimate is
~2e5 steps); that is a result of the gpu run, not a reason to change the printed learning rate.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from ..blocks import seed_blocks
from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE
from ._figure_runs import STRATEGIES, merge, train_block, train_ngram_block

CONTRACT_AUDITED = True

_BLOCK = 2  # runs per piece of ctx.map (a cluster task each)

_TF_PARAMS = [Param("t", int, 4, 200, doc="sequence length"), Param("d", int, 2, 64, doc="width"),
              Param("steps", int, 20, 200_000, doc="Adam steps (batch 64)"), Param("lr", float, 1e-6, 0.1),
              Param("seeds", int, 1, 20, doc="training runs (one seed each)"), Param("n_ck", int, 4, 50, doc="evaluations - 1"),
              Param("eval_n", int, 100, 20_000, doc="evaluation chains")]
_QUICK = {"t": 12, "d": 8, "steps": 400, "lr": 1e-2, "n_ck": 20, "eval_n": 300}
_FULL = {"t": 24, "d": 8, "steps": 2400, "lr": 1e-3, "n_ck": 24, "eval_n": 1000}
_GPU = {"t": 100, "d": 16, "steps": 20000, "lr": 3e-4, "n_ck": 40, "eval_n": 2000}
#: the thesis's learning rate (App. E.2, line 6028: AdamW 3e-5, batch 64, hidden 16, t = 100): the gpu tiers' lr
_PAPER_LR = 3e-5


def _sweep(ctx, p, *, k: int = 2, layers: int = 2, steps: int | None = None, seeds: int | None = None, tag: str = "run") -> dict:
    """The claim's training runs in seed blocks (ctx.map), merged in order; run r has seed ctx.seed(f'{tag}-{r}')."""
    R = p["seeds"] if seeds is None else seeds
    st = p["steps"] if steps is None else steps
    allseeds = [ctx.seed(f"{tag}-{r}") for r in range(R)]
    pieces = [(k, p["d"], p["t"], layers, st, p["lr"], p["n_ck"], tuple(allseeds[a:b]), ctx.seed("eval"), p["eval_n"])
              for a, b in seed_blocks(R, _BLOCK)]
    return merge(ctx.map(train_block, pieces))


def _stages_in_order(dist_r: np.ndarray, order: tuple) -> bool:
    """The strategies ever nearest to the model are exactly those of ``order``, each first nearest in that order, and the
    last of them is nearest at the end (robust to the flicker of two nearly equal distances near a crossover)."""
    idx = dist_r.argmin(0).tolist()
    names = [STRATEGIES[i] for i in idx]
    if set(names) != set(order) or names[-1] != order[-1]:
        return False
    firsts = [names.index(s) for s in order]
    return firsts == sorted(firsts) and len(set(firsts)) == len(firsts)


def _nearest_sequence(dist_r: np.ndarray) -> tuple:
    """The strategies nearest to the model (argmin of KL(strategy || model)) over the checkpoints, repeats collapsed."""
    idx = dist_r.argmin(0)
    return tuple(STRATEGIES[i] for i, _ in itertools.groupby(idx.tolist()))


def _first(cks: np.ndarray, mask: np.ndarray):
    return int(cks[int(np.argmax(mask))]) if mask.any() else None


def _level_lines(cks, levels, norm=1.0, names=STRATEGIES):
    xs = [0, int(cks[-1])]
    return [{"x": xs, "y": [levels[s] / norm] * 2, "label": f"{s} strategy", "style": "--"} for s in names]


# ---------------------------------------------------------------------------------------------
# Figures 8.1 (right) and E.3
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StagesFigure:
    order: tuple = ("uniform", "unigram", "bigram")  # nearest strategy over training (repeats collapsed), per seed
    unigram_gap: float = 0.5  # at its best checkpoint KL(unigram strategy || model) <= unigram_gap x KL(bigram strategy || model)
    rise: float = 1.5  # final KL(unigram strategy || model) >= rise x its minimum (the model leaves the unigram strategy)
    drop: float = 0.7  # final test loss <= drop x unigram level (the second drop)
    spread: float = 1.25  # E.3: every seed's final loss within a factor spread of the median over seeds
    transition_ratio: float = 3.0  # E.3: max / min over seeds of the step at which the bigram strategy becomes nearest


@claim(
    id="thesis_ch8.figure_8_1_E_3",
    figure=["Figure 8.1", "Figure E.3"],
    source=SOURCE,
    label="Figs. 8.1, E.3",
    entry="C21",
    title="Two-layer attention-only transformers on ICL-MC pass uniform -> unigram -> bigram (distance to the strategies), "
          "consistently over seeds (re-run at d = 8, t = 24; convergence to the Bayes level not reached at CPU sizes)",
    lines=[(1678, 1678), (1833, 1844), (6022, 6022), (6028, 6030)],
    printed=StagesFigure(),
    parts=[
        Part("three_stages", "Fig. 8.1 (right): 'the model passes through three stages: (1) predicting a uniform distribution, "
             "(2) predicting based on in-context unigram statistics, (3) ... bigram statistics' (read: per seed the strategies "
             "ever nearest in KL(strategy || model) are uniform, unigram and bigram, first nearest in that order, and the "
             "bigram one is nearest at the end)"),
        Part("unigram_close", "Sec. 8.3.1: 'for both the strategies, their KL divergence from the model quickly goes down, with "
             "the unigram solution being significantly lower' (read: at its best evaluation KL(unigram || model) <= 0.5 x "
             "KL(bigram || model))", inequality=True),
        Part("transition", "Sec. 8.3.1: 'around the point of the second loss drop, the KL divergence between the model and the "
             "bigram solution decreases, while the other one increases' (read: final KL(unigram || model) >= 1.5 x its minimum "
             "and final test loss <= 0.7 x the unigram level)", inequality=True),
        Part("seeds_consistent", "Fig. E.3: '10 two layer attention only transformers, with random seeds 0..9 ... the training "
             "dynamics are consistent for each model, though the exact position of the phase transitions [varies]' (read: "
             "every seed passes the three stages, final losses within a factor 1.25 of the median, transition steps within "
             "a factor 3)"),
        Part("converges_bayes", "Sec. 8.3.1: 'all the models converge near the Bayesian optimal solution'", asserted=False,
             reason="not at CPU sizes: at d = 8, t = 24 and 2400 steps the final loss is ~1.4-1.5 x the bigram level (the "
                    "thesis trains t = 100, d = 16 for ~1e5 steps); reported (final / bigram level), not asserted"),
        Part("long_plateau", "Fig. E.3 / Sec. 8.3.1: 'a long period of only slight improvement' at the unigram level before "
             "the second drop", asserted=False,
             reason="at lr 1e-3 and t = 24 the loss crosses the unigram level in a shoulder (a few evaluations), not a long flat "
                    "plateau; the stage is asserted through the strategy distances (three_stages, unigram_close) instead"),
    ],
    mutants=[Mutant("no-unigram-stage", "the model goes from the uniform to the bigram strategy without a unigram stage",
                    StagesFigure(order=("uniform", "bigram"))),
             Mutant("stays-unigram", "the model stays at the unigram strategy (never nearest to the bigram one)",
                    StagesFigure(order=("uniform", "unigram"))),
             Mutant("unigram-gap-0.3", "near-boundary: at its best evaluation KL(unigram || model) <= 0.3 x KL(bigram || model) "
                    "(measured, full tier: at most 0.34 over the 10 seeds)",
                    StagesFigure(unigram_gap=0.3), near_boundary=True, part="unigram_close"),
             Mutant("rise-3", "near-boundary: final KL(unigram || model) >= 3 x its minimum",
                    StagesFigure(rise=3.0), near_boundary=True, part="transition")],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=_TF_PARAMS,
    tiers={"quick": dict(_QUICK, seeds=1, n_ck=15, eval_n=200), "full": dict(_FULL, seeds=10), "gpu": dict(_GPU, seeds=10, lr=_PAPER_LR)},
)
def check_figure_8_1_E_3(st: StagesFigure, p, ctx) -> Verdict:
    """Figure 8.1 (right): distance of the transformer's output to the strategies over training; Figure E.3:
    test loss of 10 seeds.

    Statement
    ---------
    Fig. 8.1 (right, line 1678): the model passes through three stages: predicting uniformly, then by
    in-context unigram statistics, then by bigram statistics ("shading is based on the minimum of the curves").
    Sec. 8.3.1 (lines 1840-1844): both strategy distances drop quickly, the unigram one significantly lower; at
    the second drop the bigram distance decreases while the unigram one increases.  Fig. E.3 (line
    6022): 10 seeds (initialisation and data), consistent dynamics, the phase transitions at different
    positions.

    Hypotheses
    ----------
    The transformer of the module docstring, k = 2, d and t of the tier (thesis: d = 16, t = 100, AdamW lr
    3e-5; here Adam without weight decay and the tier's lr), batch 64; `seeds` runs with seeds
    ctx.seed('run-r') (the thesis uses 0..9).

    Source
    ------
    Thesis (seed 004), Figs. 8.1, E.3: Fig. 8.1 caption line 1678, Sec. 8.3.1 lines 1833-1844, Fig. E.3 caption line 6022,
    training details lines 6028-6030.

    Checkable form
    --------------
    Evaluate each run at n_ck + 1 evenly spaced steps on eval_n chains: test loss E KL(P_row || model) and
    KL(s || model) for s = uniform, unigram, bigram (add-one).  Reproduced iff, for every seed, (a) the nearest
    strategies over the evaluations are exactly uniform, unigram and bigram, each first nearest in that order,
    and the bigram strategy is nearest at the last evaluation (a flicker between two nearly equal distances
    near a crossover is allowed); (b) at the evaluation where
    KL(unigram || model) is least, it is <= unigram_gap (0.5) x KL(bigram || model) there; (c) final KL(unigram
    || model) >= rise (1.5) x its minimum and final loss <= drop (0.7) x the unigram level; and over seeds (E.3)
    (d) every final loss within a factor spread (1.25) of the median and max/min of the transition steps (first
    evaluation with the bigram strategy nearest) <= transition_ratio (3).  Criteria fixed before the full-tier
    run (from the text; sizes chosen on a 2-seed pilot at t = 24, 3000 steps, which showed the stages).

    Exactness
    ---------
    Statistical: seeded runs, bit-for-bit reproducible; the evaluation set's s.e. is a few % of the losses.

    Mutants
    -------
    no-unigram-stage and stays-unigram change the order of stages; unigram-gap-0.3 and rise-3 are the
    near-boundary mutants of (b) and (c).

    Notes
    -----
    Sizes: quick 1 seed, t = 12, d = 8, lr 1e-2, 400 steps, 200 evaluation chains (the stages within 400 steps:
    a smoke test; (d) is trivial with one seed); full 10
    seeds, t = 24, d = 8, lr 1e-3, 2400 steps; gpu the thesis's sizes: 10 seeds, t = 100, d = 16, lr 3e-5, batch 64,
    20000 steps (the step count and the weight decay are not printed: ours; seed blocks of 2, not run here).  The reduced runs show the stages and the seed consistency; they cannot show the long
    plateau or the convergence to the Bayes level (parts not asserted).

    Measured (full tier, 133 s CPU, reproduced): every seed passes (a)-(c) with the nearest strategies uniform ->
    unigram -> bigram; at its best evaluation KL(unigram || model) is at most 0.34 x KL(bigram || model); the
    final losses are 0.488-0.528 x the unigram level, i.e. 1.40-1.51 x the bigram level (converges_bayes: not
    reached at this size); the bigram strategy becomes nearest at steps 1000-1500 (max/min 1.5: the position of
    the transition varies, as the caption of Fig. E.3 says).
    """
    ev = Evidence("le", rigor=Rigor.STATISTICAL)
    res = _sweep(ctx, p)
    cks, lv, kl, dist = res["cks"], res["levels"], res["kl"], res["dist"]
    u = lv["unigram"]
    R = kl.shape[0]
    trans = []
    for r in range(R):
        case = {"run": r, "t": p["t"], "d": p["d"], "steps": p["steps"]}
        ev.add(dict(case, part="diverged"), int(res["diverged"][r]), 0, relation="eq")
        seq = _nearest_sequence(dist[r])
        ev.add(dict(case, part="(a) stages: nearest strategies first reached in order, the last one nearest at the end",
                    sequence=" -> ".join(seq)), _stages_in_order(dist[r], tuple(st.order)), True, relation="eq")
        iu = int(dist[r, 1].argmin())
        ev.add(dict(case, part="(b) at min KL(unigram || model): KL(unigram || model) <= unigram_gap x KL(bigram || model)",
                    step=int(cks[iu])), float(dist[r, 1, iu]), st.unigram_gap * float(dist[r, 2, iu]), part="unigram_close")
        ev.add(dict(case, part="(c) final KL(unigram || model) >= rise x its minimum"), st.rise * float(dist[r, 1, iu]),
               float(dist[r, 1, -1]), part="transition")
        ev.add(dict(case, part="(c) final loss <= drop x unigram level"), float(kl[r, -1]), st.drop * u, part="transition")
        trans.append(_first(cks, dist[r].argmin(0) == 2))
    med = float(np.median(kl[:, -1]))
    for r in range(R):
        ev.add({"run": r, "part": "(d) final loss / median over seeds within [1/spread, spread]"},
               max(kl[r, -1] / med, med / kl[r, -1]), st.spread, part="seeds_consistent")
    ok = [s for s in trans if s is not None]
    ratio = max(ok) / max(min(ok), 1) if len(ok) == R else math.inf
    ev.add({"part": "(d) max / min transition step over seeds", "steps": trans}, ratio, st.transition_ratio, part="seeds_consistent")
    ev.details["levels (evaluation set)"] = {s: round(lv[s], 5) for s in lv}
    ev.details["per seed: final loss / unigram, final loss / bigram level (converges_bayes: reported)"] = [
        (round(float(kl[r, -1] / u), 3), round(float(kl[r, -1] / lv["bigram"]), 3)) for r in range(R)]
    ev.details["per seed: step at which the bigram strategy becomes nearest (E.3: position of the transition)"] = trans
    ev.details["paper (Fig. E.3)"] = "10 seeds 0..9, d = 16, t = 100, AdamW lr 3e-5; no numbers printed"
    ev.plots.append({"title": f"Fig. 8.1 (right) re-run, seed 0 (k = 2, t = {p['t']}, d = {p['d']}): KL(strategy || model) over training",
                     "xlabel": "training step (batch 64)", "ylabel": "KL(strategy || model)", "logy": True,
                     "series": [{"x": cks.tolist(), "y": dist[0, j].tolist(), "label": f"{s} strategy", "style": "o-"}
                                for j, s in enumerate(STRATEGIES)]})
    ev.plots.append({"title": f"Fig. E.3 re-run: in-distribution test loss of {R} seeds (k = 2, t = {p['t']}, d = {p['d']})",
                     "xlabel": "training step (batch 64)", "ylabel": "E KL(P_row || model) (last token)", "logy": True,
                     "series": [{"x": cks.tolist(), "y": kl[r].tolist(), "label": f"seed {r}", "style": "-"} for r in range(R)]
                     + _level_lines(cks, lv)})
    return ev.verdict(seed=ctx.seed("run-0"))


# ---------------------------------------------------------------------------------------------
# Figures 8.2 and E.5: attention over training
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttentionFigure:
    start_band: float = 0.25  # at step 0 both attention statistics within +-start_band (relative) of uniform attention
    prev_min: float = 0.6  # at the end the mean layer-1 weight on the previous token >= prev_min
    succ_gain: float = 0.5  # at the end the layer-2 mass on successor keys >= base + succ_gain (1 - base)
    prev_offset: int = 1  # layer 1 attends to the token prev_offset back (mutant: 0, itself)


@claim(
    id="thesis_ch8.figure_8_2_E_5",
    figure=["Figure 8.2", "Figure E.5"],
    source=SOURCE,
    label="Figs. 8.2, E.5",
    entry="C21",
    title="Attention of the two-layer transformer over training: uniform at first, at the end layer 1 on the previous token "
          "and layer 2 on the successors of the current token (the induction-head construction; re-run at d = 8, t = 24)",
    lines=[(1693, 1693), (1846, 1846), (6042, 6042)],
    printed=AttentionFigure(),
    parts=[
        Part("starts_uniform", "Fig. 8.2: 'attention starts off uniform' (read: at step 0 the mean layer-1 weight on the previous "
             "token and the layer-2 mass on successor keys within +-25% of their values under uniform attention)"),
        Part("layer1_previous", "Fig. 8.2: 'by the end of training ... in the first layer each token is attending to the previous "
             "token' (read: mean layer-1 weight from query i on key i - 1 >= 0.6)", inequality=True),
        Part("layer2_successors", "Fig. 8.2: 'in the second layer, the current token ... is attending to tokens that followed 2s' "
             "(read: the last query's layer-2 mass on keys j with x_{j-1} = x_t >= base + 0.5 (1 - base), base its value under "
             "uniform attention)", inequality=True),
        Part("second_layer_first", "Sec. 8.3.2: the 2nd layer is learned first ('the evidence is not so clear' for transformers)",
             asserted=False, reason="the thesis itself calls the transformer evidence unclear; the steps at which each "
                                    "statistic gains half its final change are reported, not asserted"),
    ],
    mutants=[Mutant("layer1-self", "at the end layer 1 attends to the current token itself, not the previous one",
                    AttentionFigure(prev_offset=0)),
             Mutant("layer1-two-back", "at the end layer 1 attends two tokens back (the even offsets that Sec. 8.3.2 sees grow "
                    "along the way)", AttentionFigure(prev_offset=2)),
             Mutant("prev-0.95", "near-boundary: at the end the mean layer-1 weight on the previous token >= 0.95",
                    AttentionFigure(prev_min=0.95), near_boundary=True, part="layer1_previous"),
             Mutant("succ-gain-0.9", "near-boundary: at the end the layer-2 successor mass closes 90% of the gap to 1",
                    AttentionFigure(succ_gain=0.9), near_boundary=True, part="layer2_successors")],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=_TF_PARAMS + [Param("maps", int, 2, 10, doc="training steps drawn as heat maps")],
    tiers={"quick": dict(_QUICK, seeds=1, maps=4), "full": dict(_FULL, seeds=2, maps=5), "gpu": dict(_GPU, seeds=4, maps=6, lr=_PAPER_LR)},
)
def check_figure_8_2_E_5(st: AttentionFigure, p, ctx) -> Verdict:
    """Figures 8.2 and E.5: the attention of the two-layer transformer at several training steps.

    Statement
    ---------
    Fig. 8.2 (line 1693): attention for a fixed input at various steps; it starts uniform; by the end layer 1
    attends to the previous token and layer 2 (last token shown) to the tokens that followed earlier
    occurrences of the current token, as in the induction-head construction (Prop. 8.2).  Fig. E.5 (line
    6042): the full attention matrices of both layers as heat maps at several steps.

    Hypotheses
    ----------
    The transformer and sizes of the module docstring, k = 2; `seeds` runs (seeds ctx.seed('run-r')); the
    heat maps are those of run 0 on evaluation chain 0 (the thesis's fixed input is not printed).

    Source
    ------
    Thesis (seed 004), Figs. 8.2, E.5: Fig. 8.2 caption line 1693, Sec. 8.3.1 line 1846, Fig. E.5 caption line 6042.

    Checkable form
    --------------
    Over the eval_n evaluation chains, at each evaluation: prev = mean layer-1 attention from query i (i >= 2)
    to key i - 1; succ = mean layer-2 attention mass of the last query on the keys j with x_{j-1} = x_t (chains
    with at least one such key); their uniform-attention values prev_u = mean 1/i and base = mean fraction of
    such keys.  Reproduced iff for every run (a) at step 0 |prev/prev_u - 1| and |succ/base - 1| <= start_band
    (0.25); (b) at the end prev >= prev_min (0.6), and the layer-1 attention to offset prev_offset (1) is the
    largest of the offsets 0, 1, 2; (c) at the end succ >= base + succ_gain (0.5) (1 - base).  Criteria fixed
    before the full-tier run.

    Exactness
    ---------
    Statistical: seeded runs, bit-for-bit reproducible; averages over eval_n chains.

    Mutants
    -------
    layer1-self (offset 0) and layer1-two-back (offset 2) change the offset layer 1 attends to; prev-0.95 and
    succ-gain-0.9 are the near-boundary mutants of (b) and (c).

    Notes
    -----
    Sizes: quick 1 run, t = 12, d = 8, lr 1e-2, 400 steps; full 2 runs, t = 24, d = 8, lr 1e-3, 2400 steps; gpu
    the thesis's sizes: 4 runs, t = 100, d = 16, lr 3e-5, batch 64, 20000 steps (the number of runs, the step count
    and the weight decay are not printed: ours; not run here).  The thesis's input chain and step labels are not
    printed, so the maps are compared by the statistics above, not pixel by pixel.

    Measured (full tier, 31 s CPU, reproduced): at the end prev = 0.884, 0.916 (uniform attention 0.121) and
    succ = 0.894, 0.901 (uniform attention 0.598); in both runs the layer-2 statistic reaches half its final
    change at step 1000, the layer-1 one at step 1300 (the second layer first: reported, not asserted).
    """
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    res = _sweep(ctx, p)
    cks, prev, succ = res["cks"], res["prev"], res["succ"]
    pu, base = res["prev_uniform"], res["succ_uniform"]
    R, t = prev.shape[0], p["t"]
    half = {}
    for r in range(R):
        case = {"run": r, "t": t, "d": p["d"], "steps": p["steps"]}
        ev.add(dict(case, part="diverged"), int(res["diverged"][r]), 0, relation="eq")
        ev.add(dict(case, part="(a) step 0: |prev / uniform - 1|"), abs(prev[r, 0] / pu - 1), st.start_band, relation="le")
        ev.add(dict(case, part="(a) step 0: |succ / uniform - 1|"), abs(succ[r, 0] / base - 1), st.start_band, relation="le")
        ev.add(dict(case, part="(b) end: mean layer-1 weight on the previous token >= prev_min"), float(prev[r, -1]), st.prev_min,
               part="layer1_previous")
        a1 = res["att1"][r, -1]
        offs = [float(np.mean(np.diagonal(a1, offset=-o)[1 - min(o, 1):])) for o in (0, 1, 2)]
        ev.add(dict(case, part="(b) end: layer-1 offset with the largest mean weight (0 self, 1 previous, 2)", weights=offs),
               int(np.argmax(offs)), st.prev_offset, relation="eq")
        ev.add(dict(case, part="(c) end: layer-2 successor mass >= base + succ_gain (1 - base)"), float(succ[r, -1]),
               base + st.succ_gain * (1 - base), part="layer2_successors")
        half[r] = [_first(cks, np.abs(s[r] - s[r, 0]) >= 0.5 * abs(s[r, -1] - s[r, 0])) for s in (prev, succ)]
    ev.details["uniform-attention values: prev_u, base"] = (round(pu, 4), round(base, 4))
    ev.details["per run: prev, succ at the end"] = [(round(float(prev[r, -1]), 3), round(float(succ[r, -1]), 3)) for r in range(R)]
    ev.details["per run: step at half the final change of (layer 1 prev, layer 2 succ) (second_layer_first: reported)"] = half
    ev.details["paper"] = "Fig. 8.2 / E.5 print no numbers; the construction (Prop. 8.2) has prev = 1 and succ = 1"
    ev.plots.append({"title": f"Fig. 8.2 re-run (k = 2, t = {t}, d = {p['d']}): attention statistics over training (mean over runs)",
                     "xlabel": "training step (batch 64)", "ylabel": "attention weight",
                     "series": [{"x": cks.tolist(), "y": prev.mean(0).tolist(), "label": "layer 1: weight on the previous token", "style": "o-"},
                                {"x": cks.tolist(), "y": succ.mean(0).tolist(), "label": "layer 2 (last token): mass on successors of x_t",
                                 "style": "s-"},
                                {"x": [0, int(cks[-1])], "y": [pu, pu], "label": "layer 1 under uniform attention", "style": ":"},
                                {"x": [0, int(cks[-1])], "y": [base, base], "label": "layer 2 under uniform attention", "style": ":"},
                                {"x": [0, int(cks[-1])], "y": [1.0, 1.0], "label": "construction (Prop. 8.2)", "style": "--"}]})
    chain = "".join(str(int(c) + 1) for c in res["chain"])
    labels = [str(i) for i in range(1, t + 1)]
    picks = np.unique(np.linspace(0, len(cks) - 1, p["maps"]).round().astype(int))
    ev.plots.append({"title": f"Fig. 8.2 re-run: last-token layer-2 attention on chain {chain} (run 0)", "xlabel": "key position",
                     "ylabel": "attention of the last token",
                     "series": [{"x": list(range(1, t + 1)), "y": res["att2"][0, i, -1].tolist(), "label": f"step {int(cks[i])}", "style": "o-"}
                                for i in picks]})
    for layer in (1, 2):
        for i in picks:
            ev.plots.append({"kind": "heatmap", "title": f"Fig. E.5 re-run: layer-{layer} attention at step {int(cks[i])}, chain {chain} (run 0)",
                             "z": res[f"att{layer}"][0, i].tolist(), "x": labels, "y": labels, "zlabel": "attention (query row, key column)",
                             "series": []})
    return ev.verdict(seed=ctx.seed("run-0"))


# ---------------------------------------------------------------------------------------------
# Figure E.8: one-layer transformers do not get past the unigram level
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OneLayerFigure:
    floor: float = 0.8  # the one-layer final loss >= floor x unigram level ('no notable increase beyond unigrams')
    nearest: str = "unigram"  # at the end the one-layer model is nearest (KL(strategy || model)) to this strategy
    gain_max: float = 0.1  # loss after the long run >= loss after `steps` - gain_max x unigram level
    two_layer_nearest: str = "bigram"  # control: the two-layer model at the same steps ends nearest to this strategy


@claim(
    id="thesis_ch8.figure_E_8",
    figure="Figure E.8",
    source=SOURCE,
    label="Fig. E.8",
    entry="C21",
    title="One-layer attention-only transformers stay at the unigram level on ICL-MC, also when trained 8 times longer, where "
          "two-layer ones at the same size pass to bigrams (re-run at d = 8, t = 24; relative positions, no MLP)",
    lines=[(1840, 1840), (6057, 6057)],
    printed=OneLayerFigure(),
    parts=[
        Part("one_layer_fails", "Fig. E.8: 'a single layer transformer can not achieve good performance on ICL-MC' (read: its "
             "final test loss >= 0.8 x the unigram level and at the end it is nearest to the unigram strategy)", inequality=True),
        Part("eight_times_longer", "Fig. E.8: 'even trained 8 times longer, there is no notable increase in performance beyond "
             "the unigrams strategy' (read: the loss after 8 x steps >= the loss after steps - 0.1 x unigram level, and "
             "one_layer_fails at 8 x steps)"),
        Part("two_layer_control", "Sec. 8.3.1: 'training a 1-layer transformer fails to undergo a phase transition or converge to "
             "the right solution' (read, as a control: the two-layer model at the same size and steps ends nearest to the bigram "
             "strategy with a lower loss than the one-layer one)"),
        Part("mlp_and_absolute", "Fig. E.8: 'this result holds for transformers with or without MLPs, and with absolute or "
             "relative positional encodings'", asserted=False,
             reason="the trainer (kernels.training.induction) has attention-only layers with relative position embeddings; "
                    "MLP blocks and absolute positions are not re-run"),
    ],
    mutants=[Mutant("one-layer-bigram", "the one-layer transformer ends nearest to the bigram strategy",
                    OneLayerFigure(nearest="bigram")),
             Mutant("floor-1.05", "near-boundary: the one-layer model does not even reach the unigram level (final loss >= 1.05 x "
                    "the unigram level)", OneLayerFigure(floor=1.05), near_boundary=True, part="one_layer_fails"),
             Mutant("two-layer-unigram", "the two-layer control also stays at the unigram strategy",
                    OneLayerFigure(two_layer_nearest="unigram"))],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=_TF_PARAMS + [Param("long_factor", int, 1, 16, doc="the long run trains long_factor x steps (thesis: 8)"),
                         Param("long_seeds", int, 1, 20, doc="runs also trained long_factor x steps")],
    tiers={"quick": dict(_QUICK, seeds=1, steps=300, n_ck=15, long_factor=1, long_seeds=1), "full": dict(_FULL, seeds=2, long_factor=8, long_seeds=1),
           "gpu": dict(_GPU, seeds=4, long_factor=8, long_seeds=4, lr=_PAPER_LR)},
)
def check_figure_E_8(st: OneLayerFigure, p, ctx) -> Verdict:
    """Figure E.8: a one-layer transformer does not get beyond the unigram strategy, even trained 8 times longer.

    Statement
    ---------
    Fig. E.8 (line 6057): test loss curves showing that a single-layer transformer cannot achieve good
    performance on ICL-MC, with or without MLPs, absolute or relative positions; trained 8 times longer there
    is no notable increase in performance beyond the unigram strategy.  Sec. 8.3.1 (line 1840): a 1-layer
    transformer fails to undergo a phase transition or converge to the right solution.

    Hypotheses
    ----------
    The transformer and sizes of the module docstring with layers = 1 (the one-layer model) and layers = 2 (the
    control), k = 2, the same seeds ctx.seed('run-r') for both (same data stream), attention-only with
    relative positions.

    Source
    ------
    Thesis (seed 004), Sec. 8.3.1 line 1840, Fig. E.8 caption line 6057.

    Checkable form
    --------------
    For each of `seeds` runs: the one-layer model after `steps` steps and (first long_seeds runs) after
    long_factor x steps, and the two-layer model after `steps` steps, evaluated as in the module docstring.
    Reproduced iff (a) every one-layer final loss >= floor (0.8) x unigram level and its nearest strategy at the
    end is `nearest` (unigram); (b) loss(long) >= loss(steps) - gain_max (0.1) x unigram level; (c) the
    two-layer control ends nearest to the bigram strategy with a loss below the one-layer one.  Criteria fixed
    before the full-tier run (a 2-seed pilot at t = 24, 3000 steps showed the one-layer loss at ~0.91 x unigram).

    Exactness
    ---------
    Statistical: seeded runs, bit-for-bit reproducible.

    Mutants
    -------
    one-layer-bigram and two-layer-unigram swap the strategies; floor-1.05 is the near-boundary mutant of (a)
    (the one-layer model fails even to learn the unigram strategy): it does reach the unigram level, and can
    get slightly below it since it conditions on the current token.

    Notes
    -----
    Sizes: quick 1 run, t = 12, d = 8, lr 1e-2, 300 steps, no long run (long_factor 1: (b) is then trivial; the
    quick tier cannot afford 8 x);
    full 2 runs, t = 24, d = 8, lr 1e-3, 2400 steps, 1 run also 8 x 2400 = 19200 steps; gpu the thesis's sizes: 4 runs
    at t = 100, d = 16, lr 3e-5, batch 64, 20000 and 8 x 20000 = 160000 steps (the number of runs, the step count and
    the weight decay are not printed: ours; not run here).  MLPs and absolute positions are not re-run.

    Measured (full tier, 90 s CPU, reproduced): one-layer final loss 0.979, 0.978 x unigram after 2400 steps and
    0.965 x after 19200 (8 x); the two-layer control 0.567, 0.601 x unigram (bigram level 0.387 x), nearest to the
    bigram strategy.
    """
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    one = _sweep(ctx, p, layers=1)
    two = _sweep(ctx, p, layers=2)
    L = p["long_factor"] * p["steps"]
    long = _sweep(ctx, p, layers=1, steps=L, seeds=min(p["long_seeds"], p["seeds"]))
    lv = one["levels"]
    u = lv["unigram"]
    for r in range(one["kl"].shape[0]):
        case = {"run": r, "t": p["t"], "d": p["d"]}
        for name, res, steps in (("one-layer", one, p["steps"]), ("one-layer (long)", long, L)):
            if r >= res["kl"].shape[0]:
                continue
            c = dict(case, model=name, steps=steps)
            ev.add(dict(c, part="diverged"), int(res["diverged"][r]), 0, relation="eq")
            ev.add(dict(c, part="(a) final loss >= floor x unigram level"), float(res["kl"][r, -1]), st.floor * u, part="one_layer_fails")
            ev.add(dict(c, part=f"(a) nearest strategy at the end (index in {STRATEGIES})"), int(res["dist"][r, :, -1].argmin()),
                   STRATEGIES.index(st.nearest), relation="eq")
        if r < long["kl"].shape[0]:
            ev.add(dict(case, part="(b) loss(long) >= loss(steps) - gain_max x unigram", steps=L), float(long["kl"][r, -1]),
                   float(one["kl"][r, -1]) - st.gain_max * u, part="eight_times_longer")
        c = dict(case, model="two-layer", steps=p["steps"])
        ev.add(dict(c, part="diverged"), int(two["diverged"][r]), 0, relation="eq")
        ev.add(dict(c, part=f"(c) nearest strategy at the end (index in {STRATEGIES})"), int(two["dist"][r, :, -1].argmin()),
               STRATEGIES.index(st.two_layer_nearest), relation="eq")
        ev.add(dict(c, part="(c) two-layer final loss < one-layer final loss"), float(two["kl"][r, -1]), float(one["kl"][r, -1]),
               relation="lt")
    ev.details["levels (evaluation set)"] = {s: round(lv[s], 5) for s in lv}
    ev.details["final loss / unigram: one-layer, one-layer long, two-layer"] = {
        "one-layer": np.round(one["kl"][:, -1] / u, 4).tolist(), f"one-layer x{p['long_factor']}": np.round(long["kl"][:, -1] / u, 4).tolist(),
        "two-layer": np.round(two["kl"][:, -1] / u, 4).tolist()}
    ev.details["paper (Fig. E.8)"] = "no numbers printed; the one-layer curves stay at the unigram line (orange)"
    series = [{"x": long["cks"].tolist(), "y": long["kl"][0].tolist(), "label": f"one layer, {p['long_factor']} x longer (run 0)", "style": "-"}]
    series += [{"x": one["cks"].tolist(), "y": one["kl"][r].tolist(), "label": f"one layer (run {r})", "style": "o-"} for r in range(one["kl"].shape[0])]
    series += [{"x": two["cks"].tolist(), "y": two["kl"][r].tolist(), "label": f"two layers, control (run {r})", "style": "s:"}
               for r in range(two["kl"].shape[0])]
    ev.plots.append({"title": f"Fig. E.8 re-run (k = 2, t = {p['t']}, d = {p['d']}): test loss of one-layer transformers",
                     "xlabel": "training step (batch 64)", "ylabel": "E KL(P_row || model) (last token)", "logy": True,
                     "series": series + _level_lines(long["cks"], lv)})
    return ev.verdict(seed=ctx.seed("run-0"))


# ---------------------------------------------------------------------------------------------
# Figure E.4: more symbols (k = 4)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoreSymbolsFigure:
    k: int = 4  # number of states
    band: float = 0.1  # the plateau: evaluations with |loss / unigram level - 1| <= band
    plateau_min: int = 3  # at least plateau_min consecutive evaluations in the band, all before the final drop
    drop: float = 0.75  # the final drop: final loss <= drop x unigram level
    final_nearest: str = "bigram"  # at the end the model is nearest to this strategy


@claim(
    id="thesis_ch8.figure_E_4",
    figure="Figure E.4",
    source=SOURCE,
    label="Fig. E.4",
    entry="C21",
    title="k = 4 symbols: a plateau at the unigram level, then a drop to the bigram strategy (re-run at t = 32, d = 8); the "
          "unigram stage in the strategy distances needs the thesis's t = 200 and is not visible at t = 32",
    lines=[(6037, 6037)],
    printed=MoreSymbolsFigure(),
    parts=[
        Part("plateau_then_drop", "Fig. E.4: 'in either case there was a plateau before the final drop in test loss' (read: at "
             "least 3 consecutive evaluations within +-10% of the unigram level, then a final loss <= 0.75 x the unigram level)",
             inequality=True),
        Part("ends_bigram", "Fig. E.4: 'our results extend to more symbols than k = 2 or k = 3' (read: at the end the model is "
             "nearest, in KL(strategy || model), to the bigram strategy)"),
        Part("unigram_phase_visible", "Fig. E.4: the KL-divergence between the transformer and the strategies shows a unigram "
             "phase, which 'required a sequence length greater than 100 (200 in this case)'", asserted=False,
             reason="t = 200 is beyond the CPU budget (the full tier runs t = 32); at t = 32 the uniform and unigram strategies "
                    "are close (uniform level ~1.2 x unigram level for k = 4) and the nearest strategy goes from uniform "
                    "straight to bigram, as the caption predicts for short sequences; reported (details)"),
    ],
    mutants=[Mutant("ends-unigram", "with k = 4 the model ends nearest to the unigram strategy",
                    MoreSymbolsFigure(final_nearest="unigram")),
             Mutant("long-plateau", "the plateau lasts half the training (at least 12 consecutive evaluations in the band)",
                    MoreSymbolsFigure(plateau_min=12)),
             Mutant("drop-0.6", "near-boundary: the final loss <= 0.6 x the unigram level (measured, full tier: 0.642, 0.644)",
                    MoreSymbolsFigure(drop=0.6), near_boundary=True, part="plateau_then_drop")],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=_TF_PARAMS,
    tiers={"quick": dict(_QUICK, t=24, seeds=1, steps=500, eval_n=200), "full": dict(_FULL, t=32, seeds=2),
           "gpu": dict(_GPU, t=200, seeds=4, eval_n=1000, lr=_PAPER_LR)},
)
def check_figure_E_4(st: MoreSymbolsFigure, p, ctx) -> Verdict:
    """Figure E.4: the transformer with k = 4 symbols, KL to the strategies over training.

    Statement
    ---------
    Fig. E.4 (line 6037): the results extend to more symbols than k = 2 or 3; the KL divergence between the
    transformer and the strategies over training; this required t > 100 (200) for the unigram and bigram
    strategies to differ enough for the unigram phase to be visible; in either case there was a plateau before
    the final drop in test loss.

    Hypotheses
    ----------
    The transformer of the module docstring with k = 4 states (d >= k), t and d of the tier, Dirichlet(1)
    rows; `seeds` runs with seeds ctx.seed('run-r').

    Source
    ------
    Thesis (seed 004), Fig. E.4 caption, line 6037.

    Checkable form
    --------------
    For every run: (a) some run of at least plateau_min (3) consecutive evaluations with |loss / unigram - 1| <=
    band (0.1), after which the final loss <= drop (0.75) x the unigram level; (b) the nearest strategy at the
    end is `final_nearest` (bigram).  Reported: the sequence of nearest strategies (the unigram phase).
    Criteria fixed before the full-tier run (a 2-seed pilot at t = 32, 3000 steps showed a plateau at the
    unigram level from step ~600 to ~1200 and the drop by ~1900).

    Exactness
    ---------
    Statistical: seeded runs, bit-for-bit reproducible.

    Mutants
    -------
    ends-unigram (the strategy at the end), long-plateau (a plateau of 12 evaluations, half the run) and the
    near-boundary drop-0.6.

    Notes
    -----
    Sizes: quick 1 run, t = 24, d = 8, lr 1e-2, 500 steps; full 2 runs, t = 32, d = 8, lr 1e-3, 2400 steps; gpu
    the thesis's sizes: 4 runs, t = 200 (the caption's), d = 16, lr 3e-5, batch 64 (App. E.2), 20000 steps (k, the
    number of runs, the step count and the weight decay are not printed: ours; not run here).  The reduced t cannot show the
    unigram phase in the strategy distances (part not asserted); it shows the plateau and the drop.

    Measured (full tier, 49 s CPU, reproduced): final loss 0.642, 0.644 x unigram (bigram level 0.449 x); the
    nearest strategies go uniform -> bigram in both runs: at t = 32 the unigram phase is not visible in the
    distances, as the caption says of short sequences, while the loss sits at the unigram level before the drop.
    """
    ev = Evidence("le", rigor=Rigor.STATISTICAL)
    res = _sweep(ctx, p, k=st.k)
    cks, lv, kl, dist = res["cks"], res["levels"], res["kl"], res["dist"]
    u = lv["unigram"]
    for r in range(kl.shape[0]):
        case = {"run": r, "k": st.k, "t": p["t"], "d": p["d"], "steps": p["steps"]}
        ev.add(dict(case, part="diverged"), int(res["diverged"][r]), 0, relation="eq")
        inband = np.abs(kl[r] / u - 1) <= st.band
        longest = max((sum(1 for _ in g) for v, g in itertools.groupby(inband.tolist()) if v), default=0)
        ev.add(dict(case, part="(a) longest run of consecutive evaluations in the unigram band"), longest, st.plateau_min, relation="ge")
        ev.add(dict(case, part="(a) final loss <= drop x unigram level"), float(kl[r, -1]), st.drop * u, part="plateau_then_drop")
        ev.add(dict(case, part=f"(b) nearest strategy at the end (index in {STRATEGIES})"), int(dist[r, :, -1].argmin()),
               STRATEGIES.index(st.final_nearest), relation="eq")
    ev.details["levels (evaluation set)"] = {s: round(lv[s], 5) for s in lv}
    ev.details["per run: nearest strategies over training (unigram_phase_visible: reported)"] = [
        " -> ".join(_nearest_sequence(dist[r])) for r in range(kl.shape[0])]
    ev.details["per run: final loss / unigram level"] = np.round(kl[:, -1] / u, 4).tolist()
    ev.details["paper (Fig. E.4)"] = "k > 3 at t = 200; no numbers printed (catalog C5, t = 200, k = 4: unigram 0.219, bigram 0.0267)"
    ev.plots.append({"title": f"Fig. E.4 re-run (k = {st.k}, t = {p['t']}, d = {p['d']}), run 0: KL(strategy || model) over training",
                     "xlabel": "training step (batch 64)", "ylabel": "KL(strategy || model)", "logy": True,
                     "series": [{"x": cks.tolist(), "y": dist[0, j].tolist(), "label": f"{s} strategy", "style": "o-"}
                                for j, s in enumerate(STRATEGIES)]})
    ev.plots.append({"title": f"Fig. E.4 re-run (k = {st.k}, t = {p['t']}): test loss", "xlabel": "training step (batch 64)",
                     "ylabel": "E KL(P_row || model) (last token)", "logy": True,
                     "series": [{"x": cks.tolist(), "y": kl[r].tolist(), "label": f"run {r}", "style": "o-"} for r in range(kl.shape[0])]
                     + _level_lines(cks, lv)})
    return ev.verdict(seed=ctx.seed("run-0"))


# ---------------------------------------------------------------------------------------------
# Figure 8.5: trigrams, three heads
# ---------------------------------------------------------------------------------------------


def _ngram_sweep(ctx, p, *, heads: int, tag: str) -> dict:
    """The claim's multi-head runs on in-context trigrams (k = 2) in seed blocks, merged in order."""
    R = p["seeds"]
    allseeds = [ctx.seed(f"{tag}-{r}") for r in range(R)]
    pieces = [(2, 3, p["d"], p["t"], heads, 2, p["steps"], p["lr"], p["n_ck"], tuple(allseeds[a:b]), ctx.seed("eval"), p["eval_n"])
              for a, b in seed_blocks(R, _BLOCK)]
    blocks = ctx.map(train_ngram_block, pieces)
    out = dict(blocks[0])
    for key in ("kl", "dist", "diverged"):
        out[key] = np.concatenate([b[key] for b in blocks])
    return out


@dataclass(frozen=True)
class TrigramFigure:
    order: tuple = ("uniform", "unigram", "bigram", "trigram")  # nearest strategies, first reached in this order
    past_bigram: float = 1.0  # three heads: final loss <= past_bigram x the bigram strategy's level
    single_floor: float = 0.9  # one head: final loss >= single_floor x the bigram strategy's level
    single_nearest_not: str = "trigram"  # one head: at the end not nearest to this strategy


@claim(
    id="thesis_ch8.figure_8_5",
    figure="Figure 8.5",
    source=SOURCE,
    label="Fig. 8.5",
    entry="C22",
    title="In-context trigrams: three-head two-layer transformers pass uniform -> unigram -> bigram -> trigram, one-head ones "
          "stay at bigrams (re-run at k = 2, t = 32, d = 8; the thesis's context 200 at the gpu tier)",
    lines=[(1888, 1888), (1902, 1904), (6028, 6028)],
    printed=TrigramFigure(),
    parts=[
        Part("four_stages", "Fig. 8.5 (right): 'there are 4 stages of learning, each of them corresponding to a different "
             "algorithm implemented by the model' (read: per run the strategies ever nearest in KL(strategy || model) are the "
             "uniform, unigram, bigram and trigram ones, first nearest in that order, the trigram one nearest at the end)"),
        Part("beyond_bigrams", "Fig. 8.5 (left) / Sec. 8.3.3: 'the model hierarchically converges close to the Bayes optimal "
             "solution' (read: the final loss is below the bigram strategy's level)", inequality=True),
        Part("single_head_bigrams", "Sec. 8.3.3: 'single attention headed models could not achieve better performance than "
             "bigrams' (read: with one head per layer the final loss >= 0.9 x the bigram level and the model is not nearest "
             "to the trigram strategy at the end)", inequality=True),
        Part("near_bayes", "'converges close to the Bayes optimal solution' (near the trigram level)", asserted=False,
             reason="not at CPU sizes: after 1500 steps at t = 32 the loss is ~1.4 x the trigram strategy's level (context 200 "
                    "and the thesis's training length at the gpu tier); reported, not asserted"),
    ],
    mutants=[Mutant("stops-at-bigram", "the three-head model stops at the bigram stage (never nearest to the trigram strategy)",
                    TrigramFigure(order=("uniform", "unigram", "bigram"))),
             Mutant("skips-unigram", "the three-head model skips the unigram stage", TrigramFigure(order=("uniform", "bigram", "trigram"))),
             Mutant("past-bigram-0.5", "near-boundary: the three-head final loss <= 0.5 x the bigram level",
                    TrigramFigure(past_bigram=0.5), near_boundary=True, part="beyond_bigrams"),
             Mutant("single-floor-1.2", "near-boundary: one-head models stay above 1.2 x the bigram level",
                    TrigramFigure(single_floor=1.2), near_boundary=True, part="single_head_bigrams")],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=_TF_PARAMS,
    tiers={"quick": {"t": 20, "d": 8, "steps": 600, "lr": 1e-2, "seeds": 1, "n_ck": 16, "eval_n": 200},
           "full": {"t": 32, "d": 8, "steps": 1500, "lr": 1e-2, "seeds": 2, "n_ck": 20, "eval_n": 600},
           "gpu": {"t": 200, "d": 16, "steps": 20000, "lr": 3e-2, "seeds": 4, "n_ck": 40, "eval_n": 1000}},
)
def check_figure_8_5(st: TrigramFigure, p, ctx) -> Verdict:
    """Figure 8.5: three-headed transformers on in-context trigrams; single-head ones stop at bigrams.

    Statement
    ---------
    Fig. 8.5 (line 1888): a three-headed transformer trained on in-context 3-grams, context 200; left: the loss
    converges hierarchically close to the Bayes optimum; right: KL between the model and the strategies, 4 stages
    each corresponding to an algorithm.  Sec. 8.3.3 (lines 1902-1904): attention-only, three heads per layer, Adam;
    unigrams, bigrams, trigrams; single-head models could not beat bigrams.  App. E.2 (line 6028): lr 3e-2.

    Hypotheses
    ----------
    The in-context trigram task with k = 2 (each of the 4 two-token contexts has a Dirichlet(1) next-token law; the
    first two tokens from the stationary law of the context chain: kernels.training.ngram_heads.ngram_batch),
    two attention-only layers with 3 (or 1) heads, each head with its own d x d matrices and relative positions
    (kernels.training.ngram_heads; the head outputs are summed), Adam, batch 64, cross-entropy on all positions;
    t, d, lr of the tier.  Runs: seeds ctx.seed('three-r') and ctx.seed('one-r'); evaluation on eval_n chains
    of kernels.sequence.markov_icl.sample_ngram_chains (last-token KL against the true next-token law).

    Source
    ------
    Thesis (seed 004), Fig. 8.5 caption line 1888, Sec. 8.3.3 lines 1902-1904, App. E.2 line 6028.

    Checkable form
    --------------
    For every three-head run: (a) the strategies ever nearest (argmin KL(strategy || model) over uniform,
    unigram, bigram, trigram add-one strategies) are exactly `order`, first nearest in that order, the last one
    nearest at the end; (b) final loss <= past_bigram (1.0) x the bigram level.  For every one-head run: (c) final
    loss >= single_floor (0.9) x the bigram level and not nearest to the trigram strategy at the end.  Criteria
    fixed before the full-tier run (from the text; sizes from a one-run pilot at t = 32, 1500 steps).

    Exactness
    ---------
    Statistical: seeded runs, bit-for-bit reproducible.

    Mutants
    -------
    stops-at-bigram and skips-unigram change the stages; past-bigram-0.5 and single-floor-1.2 are the
    near-boundary mutants of (b) and (c).

    Notes
    -----
    Sizes: quick 1 run each, t = 20, d = 8, lr 1e-2, 600 steps (~4 s CPU: the four stages need that many steps
    even at this size, and at t = 16 with the thesis's lr 3e-2 the stages flicker and the run can skip the bigram
    stage); full 2 runs each, t = 32, d = 8, lr 1e-2, 1500 steps; gpu 4 runs
    each at the thesis's context 200, d = 16, lr 3e-2, 20000 steps (not run here).  The reduced runs show the
    four stages and the one-head limit, not the convergence to the Bayes level.

    Measured (full tier, 105 s CPU, reproduced): both three-head runs pass through the four stages in order and
    end at 0.623, 0.567 x the bigram level (1.42, 1.29 x the trigram level: near_bayes not reached); the one-head
    runs end at 1.057, 0.956 x the bigram level, nearest to the bigram strategy (the second 6% above the 0.9
    floor).
    """
    ev = Evidence("le", rigor=Rigor.STATISTICAL)
    three = _ngram_sweep(ctx, p, heads=3, tag="three")
    one = _ngram_sweep(ctx, p, heads=1, tag="one")
    lv, cks = three["levels"], three["cks"]
    names = ("uniform", "unigram", "bigram", "trigram")
    bi = lv["bigram"]
    for r in range(three["kl"].shape[0]):
        case = {"heads": 3, "run": r, "t": p["t"], "d": p["d"], "steps": p["steps"]}
        ev.add(dict(case, part="diverged"), int(three["diverged"][r]), 0, relation="eq")
        idx = three["dist"][r].argmin(0).tolist()
        seen = [names[i] for i in idx]
        firsts = [seen.index(s) for s in st.order] if set(seen) == set(st.order) else []
        ok = bool(firsts) and firsts == sorted(firsts) and seen[-1] == st.order[-1]
        ev.add(dict(case, part="(a) stages: nearest strategies first reached in order, the last one nearest at the end",
                    sequence=" -> ".join(names[i] for i, _ in itertools.groupby(idx))), ok, True, relation="eq")
        ev.add(dict(case, part="(b) final loss <= past_bigram x bigram level"), float(three["kl"][r, -1]), st.past_bigram * bi,
               part="beyond_bigrams")
    for r in range(one["kl"].shape[0]):
        case = {"heads": 1, "run": r, "t": p["t"], "d": p["d"], "steps": p["steps"]}
        ev.add(dict(case, part="diverged"), int(one["diverged"][r]), 0, relation="eq")
        ev.add(dict(case, part="(c) one head: final loss >= single_floor x bigram level"), float(one["kl"][r, -1]), st.single_floor * bi,
               relation="ge", part="single_head_bigrams")
        ev.add(dict(case, part="(c) one head: nearest strategy at the end is not single_nearest_not"),
               names[int(one["dist"][r, :, -1].argmin())] != st.single_nearest_not, True, relation="eq")
    ev.details["levels (evaluation set)"] = {s: round(lv[s], 5) for s in lv}
    ev.details["final loss / bigram level: three heads, one head"] = {"three": np.round(three["kl"][:, -1] / bi, 4).tolist(),
                                                                      "one": np.round(one["kl"][:, -1] / bi, 4).tolist()}
    ev.details["final loss / trigram level, three heads (near_bayes: reported)"] = np.round(three["kl"][:, -1] / lv["trigram"], 4).tolist()
    ev.details["paper (Fig. 8.5)"] = "context 200, three heads, lr 3e-2; no numbers printed"
    ev.plots.append({"title": f"Fig. 8.5 (left) re-run: test loss on in-context trigrams (k = 2, t = {p['t']}, d = {p['d']})",
                     "xlabel": "training step (batch 64)", "ylabel": "E KL(Q_ctx || model) (last token)", "logy": True,
                     "series": [{"x": cks.tolist(), "y": three["kl"][r].tolist(), "label": f"three heads, run {r}", "style": "o-"}
                                for r in range(three["kl"].shape[0])]
                     + [{"x": cks.tolist(), "y": one["kl"][r].tolist(), "label": f"one head, run {r}", "style": "s:"}
                        for r in range(one["kl"].shape[0])] + _level_lines(cks, lv, names=names)})
    ev.plots.append({"title": "Fig. 8.5 (right) re-run: KL(strategy || model), three heads, run 0", "xlabel": "training step (batch 64)",
                     "ylabel": "KL(strategy || model)", "logy": True,
                     "series": [{"x": cks.tolist(), "y": three["dist"][0, j].tolist(), "label": f"{s} strategy", "style": "o-"}
                                for j, s in enumerate(names)]})
    return ev.verdict(seed=ctx.seed("three-0"))
