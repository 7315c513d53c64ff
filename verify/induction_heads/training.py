"""Empirical parts (thesis Secs. 8.1, 8.3.1, 8.3.3; Figs. 8.1-8.5, E.3-E.8): training on ICL-MC (C21)
and the n-gram extension (C22), at CPU sizes.

What is run here: the softmax minimal model (the figures' variant of (8.8); kernels.training.induction)
trained with Adam and cross-entropy on fresh ICL-MC chains, evaluated by the last-token KL against
the strategy levels (numpy trainer, one run per seed); at the full and gpu tiers also many seeds at
once of the minimal model and of a small 2-layer attention-only transformer (k = 2, t = 16, d = 8) on
the numba batched trainers (train_softmax_minimal_runs / train_transformer_runs, tested against the
numpy references in tests/induction_heads/test_induction_heads_batched.py), with phase statistics over
seeds.  What is not run: the thesis-sized transformer training of
Figs. 8.1, 8.3 (top), E.3-E.5 (about 2e5 steps of batch 64 at t = 100, far beyond the CPU budget) and
the 3-head trigram transformers of Fig. 8.5; for C22 the checkable part, the four strategy levels of
the trigram task, is computed.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np

from kernels.sequence.markov_icl import (
    k2_exact_losses,
    last_token_kl,
    sample_chains,
    sample_ngram_chains,
    sample_transition_matrices,
    strategy_predictions,
)
from kernels.training.induction import (
    softmax_minimal_forward,
    train_softmax_minimal,
    train_softmax_minimal_runs,
    train_transformer_runs,
    transformer_logits,
)

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True
from .architecture import _limit_last


@functools.lru_cache(maxsize=8)
def _exact_losses(t: int) -> tuple[tuple[str, float], ...]:
    """k2_exact_losses(t) (0.2 s of quadrature), cached across the printed statement and the mutants."""
    return tuple(k2_exact_losses(t).items())


def _eval_set(seed: int, k: int, t: int, n: int):
    er = np.random.default_rng(np.random.SeedSequence(seed))
    Pe = sample_transition_matrices(er, k, n)
    xe = sample_chains(er, Pe, t)
    return Pe, xe, Pe[np.arange(n), xe[:, -1]]


@functools.lru_cache(maxsize=8)
def _train(eval_seed: int, train_seed: int, t: int, steps: int, lr: float, eval_every: int, eval_n: int):
    """One seeded training run (cached: the printed statement and the mutants share it)."""
    k = 2
    _, xe, rowe = _eval_set(eval_seed, k, t, eval_n)

    def evaluate(W, v, beta):
        lg, _ = softmax_minimal_forward(xe, k, W, v, beta)
        return float(last_token_kl(rowe, _softmax_rows(lg[:, -1])).mean())

    def sample_batch(rng, b):
        return sample_chains(rng, sample_transition_matrices(rng, k, b), t + 1)

    rng = np.random.default_rng(np.random.SeedSequence(train_seed))
    return train_softmax_minimal(rng, sample_batch, k, t, steps, lr=lr, eval_every=eval_every, evaluate=evaluate)


def _strategy_distances(q: np.ndarray, q_uni: np.ndarray, q_bi: np.ndarray) -> tuple[float, float]:
    """Mean KL(unigram strategy || model) and KL(bigram strategy || model) of last-token predictions q."""
    return float(last_token_kl(q_uni, q).mean()), float(last_token_kl(q_bi, q).mean())


def _first_step(cks: np.ndarray, mask: np.ndarray) -> int:
    """The first checkpoint step where mask holds (the last step if never)."""
    return int(cks[int(np.argmax(mask))]) if mask.any() else int(cks[-1])


@functools.lru_cache(maxsize=4)
def _transformer_runs(eval_seed: int, run_seeds: tuple, t: int, d: int, steps: int, lr: float, eval_n: int):
    """The transformer runs and their evaluations (cached: the printed statement and the mutants share
    them): checkpoints, levels, KL / unigram level, KL(unigram strategy || model), KL(bigram ...), diverged."""
    k, R = 2, len(run_seeds)
    Pe, xe, rowe = _eval_set(eval_seed, k, t, eval_n)
    lv = {s: float(last_token_kl(rowe, strategy_predictions(xe, k, s, Pe)).mean()) for s in ("uniform", "unigram", "bigram")}
    q_uni, q_bi = strategy_predictions(xe, k, "unigram", Pe), strategy_predictions(xe, k, "bigram", Pe)
    cks = np.linspace(0, steps, 21).astype(np.int64)
    res = train_transformer_runs(np.array(run_seeds, dtype=np.uint64), k, d, t, steps, lr=lr, checkpoints=cks)
    rel, ku, kb = np.zeros((R, len(cks))), np.zeros((R, len(cks))), np.zeros((R, len(cks)))
    for r in range(R):
        for i in range(len(cks)):
            lg, _ = transformer_logits({key: val[r, i] for key, val in res.params_at.items()}, xe)
            q = _softmax_rows(lg[:, -1])
            rel[r, i] = last_token_kl(rowe, q).mean() / lv["unigram"]
            ku[r, i], kb[r, i] = _strategy_distances(q, q_uni, q_bi)
    return cks, lv, rel, ku, kb, res.diverged.copy()


def _transformer_part(ev: Evidence, p, ctx) -> None:
    """The 2-layer attention-only transformer (d = tf_d, t = tf_t, Adam lr tf_lr, batch 64, CE on all
    positions, init N(0, 0.02^2) + one-hot embedding), k = 2, tf_seeds seeds at once on the numba
    trainer (kernels.training.induction.train_transformer_runs, counter-based ICL-MC data), evaluated at
    20 checkpoints: the loss relative to the strategy levels and the distances to the unigram and
    bigram strategies (C21 (a), (b)), with statistics over seeds."""
    t, R, steps = p["tf_t"], p["tf_seeds"], p["tf_steps"]
    cks, lv, rel, ku, kb, diverged = _transformer_runs(ctx.seed("tf-eval"), tuple(ctx.seed(f"tf-run-{r}") for r in range(R)), t,
                                                       p["tf_d"], steps, p["tf_lr"], p["eval_n"])
    u = lv["unigram"]
    for r in range(R):
        case = {"model": "transformer", "run": r, "t": t, "d": p["tf_d"], "steps": steps}
        ev.add(dict(case, part="diverged"), int(diverged[r]), 0, relation="eq")
        ev.add(dict(case, part="first evaluation within 0.02 of the uniform level"), abs(rel[r, 0] * u - lv["uniform"]), 0.02)
        ev.add(dict(case, part="final < 0.8 unigram (past the unigram level)"), rel[r, -1], 0.8)
        ev.add(dict(case, part="(b) nearest to the unigram strategy before nearest to the bigram strategy"),
               _first_step(cks, ku[r] <= 1.1 * ku[r].min()), _first_step(cks, kb[r] <= 1.1 * kb[r].min()), relation="lt")
        ev.add(dict(case, part="(b) KL(unigram strategy || model) rises again: final >= 1.3 x its minimum"), 1.3 * ku[r].min(), ku[r, -1])
    stats = {
        "first step with KL <= 1.1 x unigram": [_first_step(cks, x <= 1.1) for x in rel],
        "first step with KL < 0.9 x unigram": [_first_step(cks, x < 0.9) for x in rel],
        "checkpoints within +-10% of the unigram level": [int(np.sum(np.abs(x - 1) <= 0.1)) for x in rel],
        "final KL / unigram": rel[:, -1].tolist(),
        "min KL(unigram strategy || model)": ku.min(1).tolist(),
        "final KL(unigram strategy || model)": ku[:, -1].tolist(),
        "final KL(bigram strategy || model)": kb[:, -1].tolist(),
    }
    ev.details[f"transformer (k = 2, t = {t}, d = {p['tf_d']}), {R} seeds: levels / unigram"] = {s: round(lv[s] / u, 4) for s in lv}
    ev.details[f"transformer, {R} seeds, checkpoint spacing {int(cks[1])}: mean (s.e.) over seeds"] = {
        key: (round(float(np.mean(val)), 4), round(float(np.std(val, ddof=1) / math.sqrt(R)), 4) if R > 1 else None)
        for key, val in stats.items()}
    ev.details["transformer: KL / unigram level, median over seeds, at steps"] = (cks.tolist(), np.round(np.median(rel, 0), 3).tolist())
    xs = [0, steps]
    ev.plots.append({"title": f"2-layer attention-only transformer, {R} seeds (numba batched trainer, k = 2, t = {t}, d = {p['tf_d']}): "
                              "KL / unigram level vs step",
                     "xlabel": "training step", "ylabel": "E KL(P_row || model) / unigram level", "logy": True,
                     "series": [{"x": cks.tolist(), "y": np.median(rel, 0).tolist(), "label": "median over seeds", "style": "o-"},
                                {"x": cks.tolist(), "y": rel.min(0).tolist(), "label": "min over seeds", "style": ":"},
                                {"x": cks.tolist(), "y": rel.max(0).tolist(), "label": "max over seeds", "style": ":"}]
                     + [{"x": xs, "y": [lv[s] / u] * 2, "label": f"{s} strategy", "style": "--"} for s in ("uniform", "unigram", "bigram")]})
    ev.plots.append({"title": "Transformer: distance to the unigram and bigram strategies (median over seeds)",
                     "xlabel": "training step", "ylabel": "E KL(strategy || model)", "logy": True,
                     "series": [{"x": cks.tolist(), "y": np.median(ku, 0).tolist(), "label": "KL(unigram strategy || model)", "style": "o-"},
                                {"x": cks.tolist(), "y": np.median(kb, 0).tolist(), "label": "KL(bigram strategy || model)", "style": "s-"}]})


@functools.lru_cache(maxsize=4)
def _minimal_runs(eval_seed: int, run_seeds: tuple, t: int, steps: int, lr: float, eval_n: int):
    """The batched minimal-model runs and their evaluations on the claim's evaluation set (cached):
    checkpoints, KL, KL(unigram strategy || model), KL(bigram strategy || model), final v, diverged."""
    k, R = 2, len(run_seeds)
    Pe, xe, rowe = _eval_set(eval_seed, k, t, eval_n)
    q_uni, q_bi = strategy_predictions(xe, k, "unigram", Pe), strategy_predictions(xe, k, "bigram", Pe)
    cks = np.linspace(0, steps, 13).astype(np.int64)
    res = train_softmax_minimal_runs(np.array(run_seeds, dtype=np.uint64), k, t, steps, lr=lr, checkpoints=cks)
    kl, ku, kb = np.zeros((R, len(cks))), np.zeros((R, len(cks))), np.zeros((R, len(cks)))
    for r in range(R):
        for i in range(len(cks)):
            lg, _ = softmax_minimal_forward(xe, k, res.W_at[r, i], res.v_at[r, i], res.beta_at[r, i])
            q = _softmax_rows(lg[:, -1])
            kl[r, i] = last_token_kl(rowe, q).mean()
            ku[r, i], kb[r, i] = _strategy_distances(q, q_uni, q_bi)
    return cks, kl, ku, kb, res.v.copy(), res.diverged.copy()


def _batched_minimal_part(ev: Evidence, statement, p, ctx, levels: dict) -> None:
    """`runs` seeds of the minimal model at once (numba kernel, counter-based data), evaluated every
    runs_steps/12 steps on the claim's evaluation set: phase statistics over seeds."""
    t, R, steps = p["t"], p["runs"], p["runs_steps"]
    cks, kl, ku, kb, v_final, diverged = _minimal_runs(ctx.seed("eval"), tuple(ctx.seed(f"run-{r}") for r in range(R)), t, steps,
                                                       p["lr"], p["eval_n"])
    u = levels["unigram"]
    rel = kl / u
    stats = {"crossing steps (KL <= 1.1 u to KL < 0.9 u)": [], "final / unigram": [], "final / floor": [],
             "argmin KL(unigram strategy || model)": [], "argmin KL(bigram strategy || model)": []}
    for r in range(R):
        case = {"model": "minimal (batched)", "run": r, "t": t, "steps": steps}
        dwell = _first_step(cks, rel[r] < 0.9) - _first_step(cks, rel[r] <= 1.1)
        # step at which each strategy distance first comes within 10% of its minimum over training
        su = _first_step(cks, ku[r] <= 1.1 * ku[r].min())
        sb = _first_step(cks, kb[r] <= 1.1 * kb[r].min())
        for key, val in zip(stats, (dwell, rel[r, -1], rel[r, -1] * u / levels["floor"], su, sb)):
            stats[key].append(val)
        ev.add(dict(case, part="diverged"), int(diverged[r]), 0, relation="eq")
        ev.add(dict(case, part="(i) first evaluation = uniform level"), abs(kl[r, 0] - levels["uniform"]), 1e-12)
        if statement.ends_at == "bigram":
            ev.add(dict(case, part="moves_to_bigram: final < past_unigram x unigram"), rel[r, -1], statement.past_unigram)
        else:
            ev.add(dict(case, part="(ii) |final/unigram - 1| <= 0.1"), abs(rel[r, -1] - 1), 0.1)
        ev.add(dict(case, part="(iii) steps spent crossing the unigram band <= 15% of training"), dwell, 0.15 * steps)
        ev.add(dict(case, part="(v) nearest to the unigram strategy before nearest to the bigram strategy"), su, sb, relation="lt")
        ev.add(dict(case, part="(iv) argmax_r softmax(v)_r"), int(np.argmax(v_final[r])) + 1, statement.layer1_offset, relation="eq")
    ev.details[f"batched minimal model, {R} seeds: mean (s.e.) over seeds"] = {
        key: (round(float(np.mean(val)), 4), round(float(np.std(val, ddof=1) / math.sqrt(R)), 4) if R > 1 else None)
        for key, val in stats.items()}
    ev.details["batched minimal model: KL / unigram level, median over seeds, at steps"] = (cks.tolist(), np.round(np.median(rel, 0), 3).tolist())
    lines = [{"x": [0, steps], "y": [levels[s] / u] * 2, "label": f"{s} strategy", "style": "--"} for s in ("uniform", "unigram", "bigram", "floor")]
    ev.plots.append({"title": f"Minimal model, {R} seeds (numba batched trainer, k = 2, t = {t}): KL / unigram level vs step",
                     "xlabel": "training step", "ylabel": "E KL(P_row || model) / unigram level", "logy": True,
                     "series": [{"x": cks.tolist(), "y": np.median(rel, 0).tolist(), "label": "median over seeds", "style": "o-"},
                                {"x": cks.tolist(), "y": rel.min(0).tolist(), "label": "min over seeds", "style": ":"},
                                {"x": cks.tolist(), "y": rel.max(0).tolist(), "label": "max over seeds", "style": ":"}] + lines})


@dataclass(frozen=True)
class MinimalPhases:
    ends_at: str = "bigram"  # the trained minimal model ends at the bigram level ('unigram': mutant)
    layer1_offset: int = 2  # the learned layer-1 position weights peak at r = 2 (previous token)
    past_unigram: float = 0.5  # moves_to_bigram: final loss < past_unigram x unigram level
    closer_to: str = "bigram"  # moves_to_bigram: at the end the model is nearer (KL) to this strategy than to the other
    band: float = 0.1  # unigram band: |KL/unigram - 1| <= band
    band_max: int = 3  # no_unigram_plateau: at most band_max evaluations inside the band
    unigram_plateau: bool = False  # mutant hook: the minimal model dwells at the unigram level (> band_max evaluations)
    mass_min: float = 0.5  # learns_construction: softmax(v) mass at the argmax >= mass_min
    conv_factor: float = 1.1  # converges_to_bigram (not asserted at CPU sizes): final <= conv_factor x bigram level


def _softmax_rows(z: np.ndarray) -> np.ndarray:
    z = z - z.max(-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(-1, keepdims=True)


@claim(
    id="thesis_ch8.empirical_phases",
    figure=["Figure 8.1 (right)", "Figure 8.3", "Figure 8.4 (b)", "Figure E.3", "Figure E.7"],
    source=SOURCE,
    label="Sec. 8.3.1 (empirical phases)",
    entry="C21",
    title="Minimal model (softmax variant) on ICL-MC: leaves uniform without a unigram plateau, learns the construction, moves "
          "to bigram; convergence to the bigram level and the transformer phases not shown at CPU sizes",
    lines=[(1832, 1846), (1854, 1856), (6022, 6030)],
    printed=MinimalPhases(),
    parts=[
        Part("starts_uniform", "the minimal model starts from a deterministic constant initialisation (the uniform predictor)"),
        Part("no_unigram_plateau", "the minimal model spends significantly less time, if any, at the unigram solution "
             "(read: at most 3 evaluations within +-10% of the unigram level)"),
        Part("moves_to_bigram", "the model's strategy becomes the bigram one (read: final loss < 0.5 x unigram level and, at the "
             "end, KL(bigram strategy || model) < KL(unigram strategy || model))"),
        Part("learns_construction", "the effective positional weights concentrate on the previous token and W_K becomes "
             "close to diagonal (Figs. 8.3 middle, 8.4b; the construction of Fact 8.3)"),
        Part("converges_to_bigram", "the minimal model converges to the bigrams solution / near the Bayes optimal loss "
             "(read: final loss <= 1.1 x bigram-strategy level)", asserted=False,
             reason="not reached at CPU sizes: quick (t = 30, 200 Adam steps at lr 0.018) ends at 1.61 x the bigram level (0.042 "
                    "against 0.026; 0.42 x unigram), the full tier's 8 batched seeds x 1200 steps at ~1.46 x; the softmax model "
                    "class's own floor min_a KL(softmax(a freq)) is 1.15 x bigram at t = 30, so 1.1 x needs the larger t "
                    "and ~1e5 steps of the thesis. Reported (details), not asserted"),
        Part("less_time_than_transformer", "the minimal model spends significantly less time at the unigram solution than "
             "the transformer", asserted=False,
             reason="the transformer is not trained at the quick tier; at full (6 seeds, t = 16, d = 8, 1200 steps) it shows "
                    "only a shoulder at the unigram level, not the thesis's long plateau, so the comparison is not made"),
        Part("transformer_phases", "transformers pass uniform -> unigram plateau -> sudden drop to bigram, the model's "
             "strategy is first near the unigram one, then the bigram one (Sec. 8.3.1)", asserted=False,
             reason="not run at the quick tier; at full the check asserts per seed a near-uniform start, a final loss < 0.8 x "
                    "unigram and the ordering (b) of the strategy distances with the rise of KL(unigram || model), but the "
                    "plateau followed by a sudden drop to the bigram level is not seen at that budget (thesis-sized runs "
                    "are ~2e5 steps at t = 100)"),
    ],
    mutants=[Mutant("stops-at-unigram", "the minimal model plateaus at the unigram level (final loss within 10% of unigram)",
                    MinimalPhases(ends_at="unigram")),
             Mutant("layer1-self", "the learned layer-1 position weights peak at r = 1 (self)", MinimalPhases(layer1_offset=1)),
             Mutant("closer-to-unigram", "at the end the minimal model is nearer to the unigram strategy than to the bigram one",
                    MinimalPhases(closer_to="unigram"), origin="second-reader"),
             Mutant("dwells-at-unigram", "the minimal model dwells at the unigram level (more than 3 evaluations in the +-10% band)",
                    MinimalPhases(unigram_plateau=True), origin="second-reader")],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[Param("t", int, 8, 200), Param("steps", int, 50, 200_000), Param("lr", float, 1e-5, 1.0), Param("seeds", int, 1, 20),
            Param("eval_every", int, 5, 10_000), Param("eval_n", int, 100, 100_000),
            Param("tf_steps", int, 0, 1_000_000, doc="steps of the 2-layer transformer run (0: not run)"),
            Param("tf_t", int, 4, 200), Param("tf_d", int, 2, 64), Param("tf_lr", float, 1e-6, 1.0),
            Param("tf_seeds", int, 1, 20, doc="seeds of the transformer runs"),
            Param("runs", int, 0, 64, doc="seeds of the batched (numba) minimal-model runs (0: not run)"),
            Param("runs_steps", int, 15, 200_000, doc="steps of each batched run")],
    tiers={"quick": {"t": 30, "steps": 200, "lr": 0.018, "seeds": 1, "eval_every": 10, "eval_n": 300,
                     "tf_steps": 0, "tf_t": 20, "tf_d": 8, "tf_lr": 0.003, "tf_seeds": 1, "runs": 0, "runs_steps": 1500},
           "full": {"t": 30, "steps": 800, "lr": 0.005, "seeds": 1, "eval_every": 40, "eval_n": 1000,
                    "tf_steps": 1200, "tf_t": 16, "tf_seeds": 6, "runs": 8, "runs_steps": 1200},
           "gpu": {"t": 100, "steps": 3000, "lr": 0.003, "seeds": 5, "eval_every": 100, "eval_n": 2000, "tf_steps": 20000,
                   "tf_t": 100, "tf_d": 16, "tf_lr": 3e-5, "tf_seeds": 6, "runs": 32, "runs_steps": 6000}},
)
def check_empirical_phases(statement: MinimalPhases, p, ctx) -> Verdict:
    """Fig. 8.3 (bottom): the minimal model converges to bigrams with little or no unigram plateau.

    Statement
    ---------
    Sec. 8.3.1 / Fig. 8.3: transformers trained on ICL-MC pass uniform -> unigram plateau -> bigram;
    the minimal model (trained from v constant, W_K = 0, SGD, cross-entropy) converges to the bigram
    solution with little or no unigram plateau, and its effective positional weights concentrate on
    the previous token (the construction of Prop. 8.2 / Fact 8.3).  The statement checked is this
    minimal-model part; the transformer phases are run at a small size at the full tier and reported
    with statistics over seeds (Notes; the thesis-sized runs are not run, see the module docstring).

    Hypotheses
    ----------
    The softmax variant of (8.8) (catalog pitfall 11): logits beta sum_t' att_{p,t'} e_{x_t'}, layer-2
    scores e_{x_p}^T W h_t', h_s = sum_r softmax_r(v) e_{x_{s-r+1}}, init W = 0, v = 0, beta = 0 (the
    uniform predictor); Adam (lr as given), batch 64, cross-entropy on all positions; k = 2; at the quick
    and full tiers t smaller than the thesis's 100 (CPU budget; the gpu tier runs t = 100).

    Source
    ------
    Thesis (seed 004), Sec. 8.3.1 and the caption of Fig. 8.3, lines 1832-1846; training details
    App. E.2, lines 6026-6030.

    Checkable form
    --------------
    For each seed: train `steps` steps; every eval_every steps the last-token KL on a fixed evaluation
    set of eval_n chains.  Levels on the same set: uniform, unigram, bigram (add-one) strategies and the
    model class's bigram floor min_a E KL(P_row || softmax(a freq)) (freq = normalised successor
    counts, the construction's output).  Assert: (i) starts_uniform: the first evaluation equals the
    uniform level (beta = 0); (ii) moves_to_bigram: final loss < past_unigram (0.5) x unigram and, on the
    final predictions, KL(bigram strategy || model) < KL(unigram strategy || model) (ends_at = unigram,
    mutant: |final/unigram - 1| <= 0.1); (iii) no_unigram_plateau: at most band_max (3) evaluations
    inside the unigram band (+-band, 10%); (iv) learns_construction: argmax_r softmax(v)_r =
    layer1_offset with mass >= mass_min (0.5), and W diagonal > off-diagonal.  Reported, not asserted:
    final / bigram level, final / floor (converges_to_bigram).

    Exactness
    ---------
    Statistical: one seeded run per seed (CPU-reproducible bit for bit); the evaluation set's standard
    error is ~3% of the losses.  The floor is reached only as the attention sharpens (|W|, |v| -> inf),
    slowly: after 200 Adam steps at t = 30 (quick, lr 0.018) the ratio final/floor is 1.40 and final/bigram
    1.61 (1.43 and 1.64 after 600 steps at lr 0.006; still decreasing), which is why converges_to_bigram is not asserted (the old checker accepted it
    as "final <= 1.6 floor").  Status reproduced / not-reproduced, for the asserted parts only.

    Mutants
    -------
    stops-at-unigram fails (ii) (quick: final 0.042 against unigram 0.100 at t = 30); layer1-self fails (iv)
    (quick: mass 0.82 at r = 2).  Second reader: closer-to-unigram and dwells-at-unigram are the negations of
    what the run measures (strategy distances at the end; evaluations in the band), false on this run by
    the recorded values (not expressible before: the comparison and the band count were literals); the
    old checker's own criterion "(ii) final <= 1.6 floor" accepted a run 1.64 x above the bigram level
    as "converged", which is the reason that part is now split (moves_to_bigram asserted,
    converges_to_bigram not).

    Contract audit
    --------------
    The claim checked is the thesis's, l.1854-1856: "Similar to the transformer, the model learns to
    converge to the bigrams solution, spending however significantly less time, if any, to the unigram
    solution", with Fig. 8.3 (positional weights on the previous token).  Criteria, fixed before the
    re-run: starts_uniform, no_unigram_plateau (<= 3 evaluations in the +-10% band), moves_to_bigram
    (final < 0.5 x unigram and nearer to the bigram strategy), learns_construction (argmax softmax(v) =
    2 with mass >= 0.5, diag W > off-diag W); the thesis's "converges to the bigrams solution" read as
    final <= 1.1 x bigram level is NOT asserted: it is not reached at CPU sizes (part reason), so
    "reproduced" here means the asserted parts only.  Inconsistency in the thesis, reported: l.6022-6024
    (App. E) says that in "this minimal model" the second drop "happens after a long plateau", against
    l.1854 (little or no time at the unigram solution).

    Notes
    -----
    Quick tier: a smoke test of the minimal-model part that full shows at 800 steps (lr 0.005, 1000
    evaluation chains): one seed, t = 30, 200 Adam steps at lr 0.018 (3x the old quick 0.006 with a third
    of the steps), evaluated every 10 steps on 300 chains, i.e. the same 21 evaluations over the run, so
    band_max = 3 evaluations means the same share of training; ~2.7 CPU s (was ~7 s at 600 steps).  It
    decides (i)-(iv) and rejects every mutant with the margins of the 600-step run (final / unigram 0.42
    against 0.43, softmax(v) mass 0.82 at r = 2, 1 evaluation in the unigram band); it runs neither the
    batched seeds nor the transformer (full only), so it shows no rates over seeds.

    Batched runs (runs > 0: full tier, 8 seeds x 1200 steps, numba trainer on counter-based data,
    13 checkpoints): per seed (i), (ii) (final < 0.5 x unigram), (iv) argmax, no divergence, (iii') the KL goes
    from 1.1 x unigram to below 0.9 x unigram within 15% of training (a plateau would hold it there),
    (v) KL(unigram strategy || model) comes within 10% of its minimum before KL(bigram strategy ||
    model) does.  Measured (full tier, mean (s.e.) over 8 seeds): crossing 75 (16) steps at checkpoint
    spacing 100, i.e. no unigram plateau; final KL 0.418 (0.002) x unigram = 1.27 (0.005) x floor;
    nearest to the unigram strategy at step 212 (12), to the bigram strategy at 750 (27).

    Transformer (tf_steps > 0: full tier 6 seeds x 1200 steps, k = 2, t = 16, d = 8, Adam lr 3e-3,
    batch 64, init N(0, 0.02^2) plus a one-hot embedding; gpu tier the thesis's printed sizes t = 100, d = 16,
    lr 3e-5, batch 64, 6 seeds x 20000 steps (seeds and steps not printed: ours; Adam without weight decay for its
    AdamW); the gpu tier's minimal model runs the thesis's t = 100 with Adam lr 3e-3 (the thesis: SGD lr 2e-3;
    this trainer has no SGD), 3000 steps (5 seeds) and 6000 (32 batched seeds)): asserted per seed
    are a near-uniform start, a final loss below 0.8 x unigram and C21 (b): the distance to the
    unigram strategy reaches (within 10%) its minimum before the distance to the bigram strategy
    does, and then rises again (final >= 1.3 x minimum).  Measured (full tier, mean (s.e.) over 6
    seeds): KL reaches 1.1 x unigram at step 180 (0) and leaves 0.9 x unigram at 430 (18), 4.5 (0.5)
    of 21 checkpoints (spacing 60) lie within +-10% of the unigram level, i.e. the descent slows to a
    shoulder at the unigram level after a fast first drop (2.14 -> 1.25 x unigram in 60 steps); min
    KL(unigram strategy || model) 0.024 (0.001), rising to 0.050 (0.001) at the end while KL(bigram
    strategy || model) falls to 0.023 (0.002).  Not seen at this budget: a flat plateau followed by a
    sudden drop to the bigram level -- the final loss 0.65 (0.02) x unigram is still above the
    bigram level 0.46 x unigram (the thesis trains ~1e5 steps at t = 100).  Hence only the shoulder
    and the ordering (b) are asserted, not the drop.
    """
    ev = Evidence("le", rigor=Rigor.STATISTICAL)
    k, t = 2, p["t"]
    Pe, xe, rowe = _eval_set(ctx.seed("eval"), k, t, p["eval_n"])
    levels = {s: float(last_token_kl(rowe, strategy_predictions(xe, k, s, Pe)).mean()) for s in ("uniform", "unigram", "bigram")}
    freq = _limit_last(xe, k)
    levels["floor"] = min(float(last_token_kl(rowe, _softmax_rows(a * freq)).mean()) for a in np.arange(0.25, 6.01, 0.25))
    exact = dict(_exact_losses(t))
    ev.details["levels (eval set)"] = levels
    ev.details["exact levels (k=2)"] = {s: exact[s] for s in ("uniform", "unigram", "bigram", "bayes")}

    series = []
    for seed in range(p["seeds"]):
        (W, v, beta), hist = _train(ctx.seed("eval"), ctx.seed(f"train-{seed}"), t, p["steps"], p["lr"], p["eval_every"], p["eval_n"])
        steps = [h[0] for h in hist]
        loss = [h[1] for h in hist]
        series.append({"x": steps, "y": loss, "label": f"minimal model, seed {seed}", "style": "-"})
        case = {"seed": seed, "t": t}
        ev.add(dict(case, part="starts_uniform: first evaluation = uniform level"), abs(loss[0] - levels["uniform"]), 1e-12)
        final = loss[-1]
        lg_end, _ = softmax_minimal_forward(xe, k, W, v, beta)
        q_end = _softmax_rows(lg_end[:, -1])
        ku_end, kb_end = _strategy_distances(q_end, strategy_predictions(xe, k, "unigram", Pe), strategy_predictions(xe, k, "bigram", Pe))
        ev.details[f"seed {seed}: final / bigram level, final / floor, final / unigram (converges_to_bigram: reported)"] = (
            final / levels["bigram"], final / levels["floor"], final / levels["unigram"])
        ev.details[f"seed {seed}: KL(unigram strategy || model), KL(bigram strategy || model) at the end"] = (ku_end, kb_end)
        if statement.ends_at == "bigram":
            ev.add(dict(case, part="moves_to_bigram: final < past_unigram x unigram"), final, statement.past_unigram * levels["unigram"])
        else:
            ev.add(dict(case, part="(mutant) |final/unigram - 1| <= 0.1"), abs(final / levels["unigram"] - 1), 0.1)
        near, far = (kb_end, ku_end) if statement.closer_to == "bigram" else (ku_end, kb_end)
        ev.add(dict(case, part=f"moves_to_bigram: KL({statement.closer_to} strategy || model) < the other at the end"), near, far,
               relation="lt")
        band = sum(1 for x in loss if abs(x / levels["unigram"] - 1) <= statement.band)
        if statement.unigram_plateau:
            ev.add(dict(case, part="(mutant) evaluations in the unigram band > band_max"), band, statement.band_max, relation="gt")
        else:
            ev.add(dict(case, part="no_unigram_plateau: evaluations in the unigram band <= band_max"), band, statement.band_max)
        pw = _softmax_rows(v)
        ev.add(dict(case, part="learns_construction: argmax_r softmax(v)_r"), int(np.argmax(pw)) + 1, statement.layer1_offset, relation="eq")
        ev.add(dict(case, part="learns_construction: mass at the argmax >= mass_min"), statement.mass_min, float(pw.max()))
        ev.add(dict(case, part="learns_construction: W diagonal > off-diagonal"), float(W[0, 1] + W[1, 0]), float(W[0, 0] + W[1, 1]),
               relation="lt")
        ev.details[f"seed {seed}: final loss, beta, softmax(v)[1..4]"] = (final, beta, pw[:4].tolist())
        if seed == 0:
            ev.plots.append({"title": f"Learned layer-1 position weights softmax(v) (t = {t}) vs the construction",
                             "xlabel": "offset r", "ylabel": "weight",
                             "series": [{"x": list(range(1, 11)), "y": pw[:10].tolist(), "label": "learned", "style": "o-"},
                                        {"x": list(range(1, 11)), "y": [float(r == 2) for r in range(1, 11)], "label": "construction (r = 2)",
                                         "style": "--"}]})
            _, cache = softmax_minimal_forward(xe[:1], k, W, v, beta)
            a2 = cache[4][0]
            chain = xe[0][:t]
            prev = np.concatenate([chain[:1], chain[:-1]])  # x_0 := x_1
            ac = np.zeros((t, t))
            for q in range(t):
                S = [j for j in range(q + 1) if prev[j] == chain[q]] or list(range(q + 1))
                ac[q, S] = 1.0 / len(S)
            labels = [str(i) for i in range(1, t + 1)]
            for z, who in ((a2, "learned (seed 0)"), (ac, "construction limit")):
                ev.plots.append({"kind": "heatmap", "title": f"Layer-2 attention, {who}; chain {''.join(map(str, chain))}",
                                 "z": z.tolist(), "x": labels, "y": labels, "zlabel": "attention (query p, key t')", "series": []})
    if p["runs"] > 0:
        _batched_minimal_part(ev, statement, p, ctx, levels)
    if p["tf_steps"] > 0:
        _transformer_part(ev, p, ctx)
    xs = [0, p["steps"]]
    lines = [{"x": xs, "y": [exact[s]] * 2, "label": f"{s} strategy (exact)", "style": "--"} for s in ("uniform", "unigram", "bigram", "bayes")]
    lines.append({"x": xs, "y": [levels["floor"]] * 2, "label": "softmax(a freq) floor (eval set)", "style": ":"})
    ev.plots.append({"title": f"Minimal model on ICL-MC (k = 2, t = {t}): last-token KL vs step", "xlabel": "training step",
                     "ylabel": "E KL(P_row || model)", "logy": True, "series": series + lines})
    return ev.verdict(seed=ctx.seed("train-0"))


# ---------------------------------------------------------------------------------------------
# C22. n-gram extension
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrigramLevels:
    first: str = "stationary"  # initial (n-1)-tuple from the stationary law on tuples
    strict_hierarchy: bool = True  # uniform > unigram > bigram > trigram, each gap > 4 s.e.
    bigram_suffices: bool = False  # mutant: the bigram strategy already reaches the trigram level
    order: tuple = ("uniform", "unigram", "bigram", "trigram")  # the levels, worst to best (each gap > z_min s.e.)
    z_min: float = 4.0  # test threshold of each paired difference, in standard errors
    trigram_scale: float = 2.0  # trigram level <= trigram_scale x k^2 (k-1)/(2t) (the add-one risk with t/k^2 visits per context)


@claim(
    id="thesis_ch8.ngram_extension",
    source=SOURCE,
    label="Sec. 8.3.3 (n-grams)",
    entry="C22",
    title="Trigram task, mechanism only: the four strategy levels (uniform > unigram > bigram > trigram) the 4 stages would sit "
          "at; no transformer is trained",
    lines=[(1888, 1888), (1900, 1904), (1730, 1730)],
    printed=TrigramLevels(),
    parts=[
        Part("four_levels", "the different strategies correspond to unigrams, bigrams and trigrams (four distinct loss levels "
             "uniform > unigram > bigram > trigram on the 3-gram task), the levels the stages are defined by"),
        Part("trigram_scale", "the trigram strategy is near the add-one risk k^2 (k-1)/(2t) (derived: read as <= 2 k^2 (k-1)/(2t)), "
             "i.e. the trigram statistics solve the task", inequality=True),
        Part("hierarchical_stages", "3-head attention-only transformers trained with Adam learn the task hierarchically: long "
             "plateaus at the unigram and bigram levels, then sudden drops", asserted=False,
             reason="no transformer is trained here (3 heads per layer, context 200, lr 3e-2: beyond the CPU budget); the check "
                    "is a mechanism check of the levels only"),
        Part("converges_bayes", "the model eventually converges to the Bayes optimal solution", asserted=False,
             reason="needs the trained transformer (not run)"),
        Part("single_head_bigram", "single-head models cannot beat bigrams (Fig. 8.5 caption)", asserted=False,
             reason="needs trained single-head transformers (not run); a capacity argument is not given in the thesis"),
    ],
    mutants=[Mutant("bigram-suffices", "on the trigram task the bigram strategy reaches the trigram level (within 10%)",
                    TrigramLevels(bigram_suffices=True)),
             Mutant("unigram-beats-bigram", "on the trigram task the unigram strategy beats the bigram one (order uniform > "
                    "bigram > unigram > trigram)", TrigramLevels(order=("uniform", "bigram", "unigram", "trigram")), origin="second-reader"),
             Mutant("trigram-scale-0.75", "near-boundary: trigram level <= 0.75 k^2 (k-1)/(2t) (sharpness 0.423 of the 2.0 reading, "
                    "i.e. 0.846; 0.75 is 5.6 s.e. below the measured 0.0169 at t = 100); rejected at t = 100",
                    TrigramLevels(trigram_scale=0.75), near_boundary=True, part="trigram_scale", origin="second-reader")],
    expect=Status.MECHANISM,
    rigor=Rigor.STATISTICAL,
    kind=Kind.MECHANISM,
    params=[Param("t", int, 10, 1000), Param("n", int, 1000, 10_000_000)],
    tiers={"quick": {"t": 100, "n": 8000}, "full": {"t": 200, "n": 20000}},
)
def check_ngram_extension(statement: TrigramLevels, p, ctx) -> Verdict:
    """The hierarchy of n-gram strategies on the 3-gram ICL task (the plateaus of Fig. 8.5).

    Statement
    ---------
    Sec. 8.3.3: attention-only transformers with 3 heads per layer (Adam, lr 3e-2, context 200) learn
    3-grams hierarchically in four stages uniform -> unigram -> bigram -> trigram and converge close to
    Bayes-optimal; single-head models cannot beat bigrams.  Task (l.1730): every 2-token context has
    its own Dir(1) next-token law.

    Hypotheses
    ----------
    The transformers are not trained here (see the module docstring): the check establishes the four
    distinct levels the stages are defined by (mechanism level).  The first two tokens follow the
    stationary law of the induced chain on pairs (the thesis leaves this open); k = 2.

    Source
    ------
    Thesis (seed 004), Sec. 8.3.3 (n-grams), lines 1900-1904, Fig. 8.5 caption, line 1888, and the
    n-gram task definition, line 1730.

    Checkable form
    --------------
    Monte Carlo (n chains of length t, k = 2): last-token KL of the add-one 0/1/2/3-gram strategies
    against the true next-token law of the last context; every consecutive difference > 4 paired s.e.;
    the trigram level below 2 k^2 (k-1)/(2t) (the add-one risk scale).  The mutant demands
    |bigram/trigram - 1| <= 0.1.

    Exactness
    ---------
    Statistical, 4-sigma on paired differences.

    Mutants
    -------
    bigram-suffices fails: bigram/trigram ~ 5-9.  Second reader (not expressible before: the order and the
    scale 2 were literals): unigram-beats-bigram is false (quick: unigram 0.1416, bigram 0.0912, the
    paired difference ~20 s.e.; the bigram rule conditions on more of the true context); trigram-scale-0.75
    is the near-boundary mutant (the add-one KL risk of a Dirichlet(1) row after N visits is
    ~(k-1)/(2N), N ~ t/k^2, so the level is ~0.85 of k^2 (k-1)/(2t), not below 0.75).

    Notes
    -----
    Contract audit: the claim is a mechanism check; it trains nothing.  Only the levels are asserted
    (four_levels, trigram_scale); the three training parts of Sec. 8.3.3 are declared and not asserted
    (reasons in the parts), so "mechanism" means: the four plateaus the thesis describes exist as four
    separated loss levels.  Sharpness (trigram_scale): measured level / (2 k^2 (k-1)/(2t)) = 0.423 at
    quick (t = 100, n = 8000); no search: the level is a function of t, estimated by Monte Carlo.
    """
    ev = Evidence("gt", rigor=Rigor.STATISTICAL)
    k, t, n = 2, p["t"], p["n"]
    rng = ctx.rng("chains")
    Q, x = sample_ngram_chains(rng, k, 3, n, t)
    ctxid = x[:, -2] * k + x[:, -1]
    row = Q[np.arange(n), ctxid]
    kls = {}
    for name, order in (("uniform", 0), ("unigram", 1), ("bigram", 2), ("trigram", 3)):
        q = strategy_predictions(x, k, "uniform") if order == 0 else strategy_predictions(x, k, "ngram", order=order)
        kls[name] = last_token_kl(row, q)
    ev.details["levels (mean, s.e.)"] = {s: (float(v.mean()), float(v.std(ddof=1) / math.sqrt(n))) for s, v in kls.items()}
    for hi, lo in itertools.pairwise(statement.order):
        d = kls[hi] - kls[lo]
        ev.add({"t": t, "part": f"four_levels: {hi} - {lo} (in s.e.) > z_min"}, float(d.mean() / (d.std(ddof=1) / math.sqrt(n))),
               statement.z_min, part="four_levels_z")
    ev.add({"t": t, "part": "trigram_scale: trigram level < trigram_scale k^2 (k-1)/(2t)"},
           statement.trigram_scale * k * k * (k - 1) / (2 * t), float(kls["trigram"].mean()), part="trigram_scale")
    if statement.bigram_suffices:
        ev.add({"t": t, "part": "|bigram/trigram - 1| <= 0.1"}, abs(float(kls["bigram"].mean() / kls["trigram"].mean()) - 1), 0.1,
               relation="le")
    return ev.verdict(seed=ctx.seed("chains"))
