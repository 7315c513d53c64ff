"""Appendix G (E22), Figures 1-3 re-run at CPU sizes: transformers pre-trained to learn random deep networks
in context (kernels.training.icl_regression: vectorised numpy, Adam, seeded), against the baseline that trains
the N-layer network on the in-context pairs.

The document prints no numbers for these figures (the figures are images, not in the plain-text copy): every
claim says so in ``ev.details``, and the criteria compare our curves with each other and with our baseline.

Choices the document leaves open (stated in every claim): target networks f: R^d -> R with no biases, ReLU
between the layers, width 12 (``target_width``), weights N(0, 2 / fan_in) in the hidden layers and
N(0, 1 / fan_in) x 0.5 in the last (y of standard deviation about 1 on the pre-training law); ReLU attention
relu(q.k / sqrt(d_head)) / i over the i attended positions; pre-LayerNorm blocks, GeLU MLP of the width;
Adam lr 2e-3 (no schedule); R^2 at each number n of in-context examples over the test prompts,
1 - mean (pred - y)^2 / var(y); the baseline trains with full-batch Adam (lr 1e-2), one step per epoch.

Caching: each pre-training run is a module-level ``functools.lru_cache`` function of hashable arguments and
of a seed that depends only on (attention, target depth, transformer depth, sizes), not on the claim, so
Figure 3's depth-L_fig1 runs are Figures 1 and 2's runs, and the mutants re-read the same runs.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from kernels.training._common import single_threaded_blas
from kernels.training.icl_regression import mlp_baseline_r2, predict, r2_by_position, sample_prompts, train_icl

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim, stable_seed
from . import SOURCE

CONTRACT_AUDITED = True

MIXTURES = (1.0, 0.9, 0.7, 0.5)  # w1 of the test laws w1 N(-2 * 1, I) + (1 - w1) N(2 * 1, I)
TARGET_DEPTHS = (3, 4, 6)
_TARGET_SCALE = 0.5
_LR = 2e-3
_BASE_LR = 1e-2
_BASE_EPOCHS = 100
_NO_PAPER_NUMBERS = ("none: the document's Figures 1-3 are images that are not in its text (Appendix G, lines 1472-1546 "
                     "print no R^2 value); the comparison is with our own baseline")


def _seed(*tag) -> int:
    return stable_seed("seed001.appendix_g", *tag) % 2**63


def _pretrain(attn: str, N: int, L: int, d: int, K: int, Kt: int, D: int, heads: int, steps: int, batch: int,
              target_width: int) -> tuple[np.ndarray, float, float]:
    """(theta, mean loss over the first and the last 5% of the steps) of one seeded pre-training run; the arguments
    are passed on positionally, so that a call with keywords and one without share the cached run (functools.lru_cache
    keys differ between the two)."""
    return _pretrain_run(attn, N, L, d, K, Kt, D, heads, steps, batch, target_width)


@functools.lru_cache(maxsize=32)
def _pretrain_run(attn: str, N: int, L: int, d: int, K: int, Kt: int, D: int, heads: int, steps: int, batch: int,
                  target_width: int) -> tuple[np.ndarray, float, float]:
    with single_threaded_blas():
        theta, losses = train_icl(_seed("pretrain", attn, N, L, d, K, D, heads, batch, target_width), d=d, K=K, D=D, L=L,
                                  heads=heads, attn=attn, steps=steps, batch=batch, lr=_LR, target_layers=N,
                                  target_width=target_width, T_max=2 * Kt - 1, target_scale=_TARGET_SCALE)
    theta.setflags(write=False)
    w = max(1, steps // 20)
    return theta, float(losses[:w].mean()), float(losses[-w:].mean())


@functools.lru_cache(maxsize=64)
def _test_prompts(w1: float, N: int, d: int, Kt: int, prompts: int, target_width: int):
    X, Y = sample_prompts(np.random.default_rng(_seed("test", w1, N, d, Kt, prompts, target_width)), prompts, Kt, d, w1, N,
                          target_width, _TARGET_SCALE)
    X.setflags(write=False)
    Y.setflags(write=False)
    return X, Y


@functools.lru_cache(maxsize=128)
def _icl_r2(attn: str, N: int, L: int, d: int, K: int, Kt: int, D: int, heads: int, steps: int, batch: int,
            target_width: int, w1: float, prompts: int) -> np.ndarray:
    """ICL R^2 at n = 0 .. Kt - 1 in-context examples on the test prompts of mixture w1."""
    theta = _pretrain(attn, N, L, d, K, Kt, D, heads, steps, batch, target_width)[0]
    X, Y = _test_prompts(w1, N, d, Kt, prompts, target_width)
    with single_threaded_blas():
        pred = predict(theta, X, Y, d=d, D=D, L=L, T_max=2 * Kt - 1, heads=heads, attn=attn)
    return r2_by_position(pred, Y)


@functools.lru_cache(maxsize=16)
def _baseline(N: int, d: int, Kt: int, prompts: int, base_prompts: int, target_width: int) -> dict[int, np.ndarray]:
    """Baseline R^2 per epoch at n = 1 .. Kt - 1 on the first ``base_prompts`` test prompts of mixture (1, 0)."""
    X, Y = _test_prompts(1.0, N, d, Kt, prompts, target_width)
    with single_threaded_blas():
        return mlp_baseline_r2(np.random.default_rng(_seed("baseline", N, d, Kt, base_prompts, target_width)),
                               X[:base_prompts], Y[:base_prompts], range(1, Kt), n_layers=N, width=target_width,
                               epochs=_BASE_EPOCHS, lr=_BASE_LR)


def _sizes(p) -> dict:
    return dict(d=p["d"], K=p["K"], Kt=p["K_test"], D=p["width"], heads=p["heads"], steps=p["steps"], batch=p["batch"],
                target_width=p["target_width"])


_PARAMS = [Param("max_target_depth", int, 3, 6, doc="target depths N in (3, 4, 6) up to this"),
           Param("layers", int, 1, 12), Param("width", int, 8, 256), Param("heads", int, 1, 8), Param("d", int, 2, 20),
           Param("K", int, 4, 51, doc="pairs per pre-training prompt"), Param("K_test", int, 5, 76),
           Param("steps", int, 1, 500000), Param("batch", int, 4, 64), Param("target_width", int, 2, 64),
           Param("prompts", int, 50, 6400), Param("base_prompts", int, 20, 6400)]
_TIERS = {"quick": {"max_target_depth": 3, "layers": 2, "width": 16, "heads": 2, "d": 3, "K": 6, "K_test": 9, "steps": 200,
                    "batch": 16, "target_width": 8, "prompts": 300, "base_prompts": 60},
          "full": {"max_target_depth": 6, "layers": 2, "width": 32, "heads": 2, "d": 5, "K": 12, "K_test": 18, "steps": 800,
                   "batch": 32, "target_width": 12, "prompts": 1000, "base_prompts": 200},
          "gpu": {"max_target_depth": 6, "layers": 12, "width": 256, "heads": 8, "d": 20, "K": 51, "K_test": 76,
                  "steps": 500000, "batch": 64, "target_width": 20, "prompts": 6400, "base_prompts": 6400}}


@dataclass(frozen=True)
class ICLFigure:
    attn: str = "relu"
    comparable_frac: float = 0.8  # (a) ICL R^2 >= this x baseline final-epoch R^2 (window mean)
    shift_margin: float = 0.02  # (b) each mixture step may raise R^2 by at most this
    decline_min: float = 0.05  # (b) R^2(1, 0) - R^2(0.5, 0.5) >= this
    beyond: str = "comparable"  # (c) ReLU: "comparable" beyond the pre-training length; softmax: "degrades"
    degrade_min: float = 0.02  # (c) softmax: R^2 beyond the length <= R^2 at the last 3 positions - this
    shift_sign: float = 1.0  # mutant -1: R^2 increases as the mixture departs from pre-training


def _check_icl_figure(st: ICLFigure, p, ctx, fig: str) -> Verdict:
    ev = Evidence("true", rigor=Rigor.STATISTICAL)
    sz = _sizes(p)
    K, Kt, L = p["K"], p["K_test"], p["layers"]
    win = list(range(K // 2, K))  # in-distribution window of in-context counts
    last3 = list(range(K - 3, K))
    beyond = list(range(K, Kt))
    ev.details["paper's numbers"] = _NO_PAPER_NUMBERS
    ev.details["windows (in-context examples n)"] = {"in-distribution": win, "beyond the pre-training length": beyond}
    for N in (n for n in TARGET_DEPTHS if n <= p["max_target_depth"]):
        _, l0, l1 = _pretrain(st.attn, N, L, **sz)
        r2 = {w1: _icl_r2(st.attn, N, L, **sz, w1=w1, prompts=p["prompts"]) for w1 in MIXTURES}
        base = _baseline(N, p["d"], Kt, p["prompts"], p["base_prompts"], p["target_width"])
        b_fin = np.array([np.nan] + [base[n][-1] for n in range(1, Kt)])
        b_best = np.array([np.nan] + [base[n].max() for n in range(1, Kt)])
        icl_w, base_w = float(r2[1.0][win].mean()), float(b_fin[win].mean())
        ev.details[f"N={N}"] = {"pre-training loss first/last 5%": [round(l0, 4), round(l1, 4)],
                                "ICL R^2 (window mean) per mixture w1": {w1: round(float(r2[w1][win].mean()), 4) for w1 in MIXTURES},
                                "baseline R^2 window mean final / best-over-epochs": [round(base_w, 4), round(float(b_best[win].mean()), 4)],
                                "ICL R^2 at the last 3 in-distribution counts (mean)": round(float(r2[1.0][last3].mean()), 4),
                                "ICL R^2 beyond length (mean)": round(float(r2[1.0][beyond].mean()), 4),
                                "baseline final R^2 beyond length (mean)": round(float(b_fin[beyond].mean()), 4)}
        ev.add({"N": N, "part": "(a) ICL R^2 >= frac x baseline final R^2 (window means)", "icl": icl_w, "baseline": base_w,
                "frac": st.comparable_frac}, icl_w >= st.comparable_frac * base_w)
        means = [float(r2[w1][win].mean()) for w1 in MIXTURES]
        steps_ok = all(st.shift_sign * (means[i + 1] - means[i]) <= st.shift_margin for i in range(3))
        drop = st.shift_sign * (means[0] - means[-1])
        ev.add({"N": N, "part": "(b) R^2 non-increasing along the mixtures (margin), total drop >= decline_min",
                "R2_by_w1": means, "drop": drop}, steps_ok and drop >= st.decline_min)
        if beyond:
            icl_b, base_b, at_end = float(r2[1.0][beyond].mean()), float(b_fin[beyond].mean()), float(r2[1.0][last3].mean())
            if st.beyond == "comparable":
                ev.add({"N": N, "part": "(c) beyond the pre-training length: ICL R^2 >= frac x baseline final R^2",
                        "icl_beyond": icl_b, "baseline_beyond": base_b}, icl_b >= st.comparable_frac * base_b)
            else:
                ev.add({"N": N, "part": "(c) beyond the pre-training length R^2 lower than at its end (by degrade_min)",
                        "icl_beyond": icl_b, "icl_last3": at_end}, icl_b <= at_end - st.degrade_min)
        n_all = list(range(Kt))
        ev.plots.append({
            "title": f"{fig} re-run ({st.attn} attention, L = {L}): {N}-layer targets, d = {p['d']}, pre-training length {K - 1}",
            "xlabel": "number of in-context examples", "ylabel": "R^2 (values below -1 drawn at -1)",
            "series": [{"x": n_all, "y": [max(-1.0, float(v)) for v in r2[w1]], "label": f"ICL, test (w1, w2) = ({w1}, {round(1 - w1, 1)})",
                        "style": "o-"} for w1 in MIXTURES]
            + [{"x": n_all[1:], "y": [max(-1.0, float(v)) for v in b_fin[1:]], "label": f"{N}-layer net trained on the prompt (final epoch)", "style": "k--"},
               {"x": n_all[1:], "y": [max(-1.0, float(v)) for v in b_best[1:]], "label": "same, best over 100 epochs (paper's measure)", "style": "k:"},
               {"x": [K - 1, K - 1], "y": [-1.0, 1.0], "label": "pre-training length", "style": "g:"}],
        })
    return ev.verdict(seed=_seed("pretrain", st.attn, 3, L))


_FIG12_PARTS = [
    Part("comparable", "'ICL learns 3-layer, 4-layer, and 6-layer NN and achieves R-squared values comparable to those "
         "from training with prompt samples' (criterion (a): window-mean ICL R^2 >= comparable_frac x the baseline's "
         "final-epoch R^2, for every target depth run: 3, 4, 6 at full, 3 at quick)"),
    Part("shift_decline", "'the ICL performance declines as the testing distribution diverges from the pretraining one' "
         "(criterion (b))"),
    Part("paper_sizes", "GPT-2 backbone, 12 blocks, 8 heads, width 256, d = 20, 50-example prompts, 500k steps, 6400 test "
         "prompts", asserted=False, reason="declared as the gpu tier only, and not run: this vectorised-numpy trainer would need days at "
                                           "those sizes; quick/full are the scaled-down runs described in the docstring"),
]


@claim(
    id="seed001.figure_1",
    figure="Figure 1",
    source=SOURCE,
    label="Figure 1",
    entry="E22",
    title="ReLU-transformer ICL of random deep networks: R^2 vs in-context examples against training the network (CPU re-run)",
    lines=[(1472, 1530)],
    printed=ICLFigure(),
    parts=_FIG12_PARTS + [Part("beyond_length", "'regardless of whether the prompt lengths are within or exceed those used in "
                                                "pretraining' (lines 1527-1528; criterion (c))")],
    mutants=[Mutant("icl-far-better", "ICL R^2 at least 1.5x the trained network's", ICLFigure(comparable_frac=1.5)),
             Mutant("shift-improves", "R^2 increases as the test mixture departs from (1, 0)", ICLFigure(shift_sign=-1.0)),
             Mutant("icl-matches-baseline", "ICL R^2 at least the trained network's final R^2 (comparable_frac 1.0, just beyond the "
                    "largest measured ratio 0.984 at full; 0.85-0.89 at quick)", ICLFigure(comparable_frac=1.0),
                    near_boundary=True, part="comparable")],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=_PARAMS,
    tiers=_TIERS,
)
def check_figure_1(st: ICLFigure, p, ctx) -> Verdict:
    """Figure 1: ReLU-transformer in-context learning of 3-, 4- and 6-layer networks, four test mixtures.

    Statement
    ---------
    A ReLU-transformer pre-trained on prompts of 50 examples (x from N(-2 * 1, I), y = f(x), f a fresh random
    N-layer network per prompt) learns N-layer networks in context with R^2 "comparable" to training the
    N-layer network on the same examples (100 epochs, best R^2 over the epochs), for N = 3, 4, 6; the R^2
    declines as the test mixture w1 N(-2 * 1, I) + w2 N(2 * 1, I) departs from the pre-training law
    ((1, 0), (0.9, 0.1), (0.7, 0.3), (0.5, 0.5)); and "regardless of whether the prompt lengths are within or
    exceed those used in pretraining" (lines 1527-1528).  The figure is an image: no number is printed.

    Source
    ------
    Seed 001, Appendix G.1 and G.1.1, Figure 1 caption, lines 1472-1530.

    Checkable form
    --------------
    Written before the full-tier run.  kernels.training.icl_regression: L = ``layers`` pre-LN blocks of width
    ``width`` with ``heads`` heads and ReLU attention, pre-trained ``steps`` Adam steps (batch ``batch``) on
    prompts of K pairs (K - 1 in-context examples before the last query), x in R^d; tested on ``prompts``
    prompts of K_test pairs per mixture; R^2 at each count n of in-context examples.  Baseline: the N-layer
    net of the target's architecture trained on the n pairs of each of the first ``base_prompts`` test prompts
    (w1 = 1), full-batch Adam for 100 epochs; we compare with its final-epoch R^2 (the paper's best-over-epochs
    selects on the test point and is drawn too).  Windows: in-distribution n in [K/2, K - 1], beyond
    n in [K, K_test - 1].  For every target depth run, reproduced iff
    (a) window-mean ICL R^2 at (1, 0) >= comparable_frac = 0.8 x the baseline's window-mean final R^2;
    (b) the window-mean ICL R^2 is non-increasing along (1, 0), (0.9, 0.1), (0.7, 0.3), (0.5, 0.5) (each step
    may rise by at most 0.02) and falls by at least 0.05 from (1, 0) to (0.5, 0.5);
    (c) beyond the pre-training length, the mean ICL R^2 >= 0.8 x the baseline's final R^2 there.

    Exactness
    ---------
    Statistical, seeded, bit-for-bit reproducible.  Sizes: quick d = 3, width 16, 2 blocks, 2 heads, K = 6,
    K_test = 9, 200 steps of batch 16, 3-layer targets of width 8, 300 test prompts, baseline on 60; full
    d = 5, width 32, 2 blocks, 2 heads, K = 12 (11 examples; the paper 50), K_test = 18 (the paper 75),
    800 steps of batch 32 (25.6k prompts; the paper 32M), 3-, 4-, 6-layer targets of width 12, 1000 test
    prompts (the paper 6400), baseline on 200; gpu: the paper's sizes (d = 20, width 256, 12 blocks, 8 heads,
    K = 51, K_test = 76, 500k steps of 64, target width 20 (unspecified), 6400 prompts), not run here.
    What the reduced run can show: whether a small transformer trained briefly on this task law reaches the
    trained network's R^2 at short prompts and how it behaves under the mixture shift and past its training
    length.  What it cannot show: anything about 50-75-example prompts, d = 20 or the GPT-2 scale; the
    paper's own curves (no numbers printed).  Choices the paper leaves open are in the module docstring.

    Mutants
    -------
    icl-far-better: ICL R^2 >= 1.5 x the trained network's.  shift-improves: the R^2 rises with the shift.
    icl-matches-baseline (near-boundary for (a), (c)): comparable_frac 1.0.

    Notes
    -----
    Measured at full (after the criteria were fixed): reproduced.  Window-mean R^2 ICL / baseline final: N = 3
    0.833 / 0.898, N = 4 0.858 / 0.872, N = 6 0.873 / 0.928 (ratios 0.928-0.984); the baseline's best-over-epochs
    equals its final epoch to 0.002 here (full-batch Adam keeps improving over the 100 epochs); the R^2 at
    (1, 0), (0.9, 0.1), (0.7, 0.3), (0.5, 0.5) falls steeply (N = 3: 0.83, 0.61, -0.02, -0.60; N = 4 already
    -0.73 at (0.9, 0.1)): the model never saw inputs near +2 * 1, where the ReLU targets follow other linear
    pieces; past the pre-training length the ReLU model keeps its R^2 (0.84-0.89, 0.90-0.94 of the baseline).
    At n = 1 the transformer (R^2 0.7-0.8) is far ahead of the baseline (0.1-0.7): it has learnt the prior of
    the targets, which a network trained from scratch on one pair cannot know.  Budget history: the first full
    run used 1500 steps and a baseline on 300 prompts (171 s CPU; same verdict, ratios 0.970-0.988, beyond
    0.91-0.94); the committed full tier was cut to 800 steps and 200 baseline prompts (108 s CPU) to fit the
    suite's budget, criteria unchanged.
    Quick tier (a smoke test: d = 3, width 16, 2 blocks, K = 6, K_test = 9, 200 steps of batch 16, 3-layer
    targets of width 8, 300 prompts, baseline on 60): reproduced, (a) 0.719 against 0.8 x 0.842; it can fail
    every criterion and rejects the mutants, but it cannot show the 4- and 6-layer panels.
    The paper's two sentences about prompt length differ: Figure 2's caption says the softmax model degrades
    beyond the pre-training length; the summary (lines 1527-1528) says ICL matches training "regardless of"
    the length.  Criterion (c) tests the summary for the ReLU model; seed001.figure_2 tests the caption.
    """
    return _check_icl_figure(st, p, ctx, "Figure 1")


@claim(
    id="seed001.figure_2",
    figure="Figure 2",
    source=SOURCE,
    label="Figure 2",
    entry="E22",
    title="Softmax-transformer ICL of random deep networks: comparable R^2, declines with shift and past the pre-training length (CPU re-run)",
    lines=[(1472, 1530)],
    printed=ICLFigure(attn="softmax", beyond="degrades"),
    parts=_FIG12_PARTS + [Part("degrades_beyond_length", "'performance decreases when the prompt length exceeds the "
                                                         "pretraining length' (caption; criterion (c))")],
    # the printed statement fails on (c) (no degradation past the length), so a mutant that kept (c) = "degrades"
    # would be rejected by (c) whatever its own change: each mutant reads (c) as "comparable" (which holds at
    # 0.8), so that it is rejected by the criterion it changes
    mutants=[Mutant("icl-far-better", "ICL R^2 at least 1.5x the trained network's (and comparable past the length)",
                    ICLFigure("softmax", 1.5, beyond="comparable")),
             Mutant("shift-improves", "R^2 increases as the test mixture departs from (1, 0) (and comparable past the length)",
                    ICLFigure("softmax", beyond="comparable", shift_sign=-1.0)),
             Mutant("icl-matches-baseline", "ICL R^2 at least the trained network's final R^2 (comparable_frac 1.0, just beyond "
                    "the largest measured ratio 0.976 at full; comparable past the length)",
                    ICLFigure("softmax", 1.0, beyond="comparable"), near_boundary=True, part="comparable")],
    expect=Status.NOT_REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=_PARAMS,
    tiers=_TIERS,
)
def check_figure_2(st: ICLFigure, p, ctx) -> Verdict:
    """Figure 2: the same experiment as Figure 1 with softmax attention; degrades past the pre-training length.

    Statement
    ---------
    As seed001.figure_1 for the Softmax-transformer (the two differ only in the attention activation), and
    "performance decreases when the prompt length exceeds the pretraining length (i.e., 50)" (caption),
    attributed to GPT-2's absolute positional encodings.  No number is printed.

    Source
    ------
    Seed 001, Appendix G.1.2, Figure 2 caption, lines 1472-1530.

    Checkable form
    --------------
    Written before the full-tier run.  As seed001.figure_1 (same sizes, windows, baseline and test prompts;
    softmax attention), criteria (a) and (b) unchanged, and (c) for every target depth run: the mean ICL R^2
    over the counts beyond the pre-training length, n in [K, K_test - 1], is at most the mean over its last
    three in-distribution counts n in [K - 3, K - 1] minus degrade_min = 0.02.  Position embeddings past
    2K - 1 are initialised and never trained, as GPT-2's past its training length.

    Exactness
    ---------
    Statistical, seeded, bit-for-bit reproducible.  Sizes and what they can show: as seed001.figure_1.

    Mutants
    -------
    icl-far-better: ICL R^2 >= 1.5 x the trained network's.  shift-improves: the R^2 rises with the shift.
    icl-matches-baseline (near-boundary for (a)): comparable_frac 1.0.  Each reads (c) as Figure 1's
    "comparable past the length" (which holds): with the caption's "degrades", which fails, every mutant
    would be rejected by (c) alone, whatever it changes.

    Notes
    -----
    Measured at full (after the criteria were fixed): not reproduced.  (a) holds (window-mean R^2 ICL / baseline
    final: N = 3 0.835 / 0.898, N = 4 0.851 / 0.872, N = 6 0.847 / 0.928).  (c) fails for every target depth: the
    softmax model does not degrade past its pre-training length at this size (mean R^2 beyond against the last three
    in-distribution counts: N = 3 0.840 / 0.836, N = 4 0.858 / 0.858, N = 6 0.848 / 0.844); a plausible reason (not
    tested here): the untrained position embeddings are small, N(0, 0.02^2), next to the token embeddings, and a
    2-block model over 23 tokens may use positions little, where a length-50 GPT-2 may rely on them far more.  (b) fails at N = 4 only where the model is already useless:
    R^2 0.85, -1.94, -3.58, -2.95 along the mixtures (the last step rises by 0.63 at R^2 < -2.9); the decline from
    (1, 0) is steep at every N.  The first full run (1500 steps, baseline on 300 prompts, 181 s CPU) failed the
    same criteria ((c) at N = 3, 4, 6: 0.847 / 0.839, 0.854 / 0.867, 0.859 / 0.851; (b) at N = 4: -6.69 then
    -4.98); the committed full tier uses 800 steps (116 s CPU), criteria unchanged.  The quick tier (sizes
    as seed001.figure_1) is not reproduced for the same reason as the full tier, (c): 0.739 beyond against 0.721.
    """
    return _check_icl_figure(st, p, ctx, "Figure 2")


# ---------------------------------------------------------------------------------------------
# Figure 3: depth
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DepthFigure:
    step_margin: float = 0.02  # (d) R^2 may fall by at most this from one depth to the next
    gain_min: float = 0.0  # (d) R^2(deepest) - R^2(shallowest) > this at every count
    sign: float = 1.0  # mutant -1: shallower is better


@claim(
    id="seed001.figure_3",
    figure="Figure 3",
    source=SOURCE,
    label="Figure 3",
    entry="E22",
    title="Deeper transformers learn deep networks in context better (ReLU and softmax, 3 counts; CPU re-run)",
    lines=[(1531, 1546)],
    printed=DepthFigure(),
    parts=[Part("deeper_better", "'a deeper transformer achieves better ICL performance' at 15, 30, 45 in-context examples, "
                "ReLU and Softmax (criterion (d) at the scaled counts)"),
           Part("paper_sizes", "depths 4, 6, 8, 10 of the GPT-2 backbone, 15/30/45 of 50 examples", asserted=False,
                reason="gpu tier only; quick/full use depths (1, 2) / (1, 2, 4) and counts scaled to the pre-training length")],
    mutants=[Mutant("shallower-better", "R^2 decreases with the transformer's depth", DepthFigure(sign=-1.0)),
             Mutant("gain-above-0.08", "the deepest model beats the shallowest by more than 0.08 in R^2 at every count (just "
                    "beyond the quick tier's smallest gain 0.070; the full tier's smallest is 0.0045)", DepthFigure(gain_min=0.08),
                    near_boundary=True, part="deeper_better")],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[p for p in _PARAMS if p.name not in ("max_target_depth", "layers", "base_prompts")]
    + [Param("max_layers", int, 2, 12, doc="transformer depths (1, 2, 4) or the paper's (4, 6, 8, 10) up to this")],
    tiers={t: {**{k: v for k, v in p.items() if k not in ("max_target_depth", "layers", "base_prompts")},
               "max_layers": {"quick": 2, "full": 4, "gpu": 10}[t], "prompts": {"quick": 300, "full": 1000, "gpu": 6400}[t],
               **({"steps": 120} if t == "quick" else {})}
           for t, p in _TIERS.items()},
)
def check_figure_3(st: DepthFigure, p, ctx) -> Verdict:
    """Figure 3: ICL R^2 against the transformer's depth at three in-context counts, ReLU and softmax.

    Statement
    ---------
    Transformers of 4, 6, 8 and 10 layers (otherwise as Figures 1-2), tested on the pre-training law at 15, 30 and
    45 in-context examples, ReLU and Softmax: "a deeper transformer achieves better ICL performance".  The target
    depth is not stated; the figure is an image (no number printed).

    Source
    ------
    Seed 001, Appendix G.2, Figure 3 caption, lines 1531-1546.

    Checkable form
    --------------
    Written before the full-tier run.  3-layer targets, the sizes of seed001.figure_1 otherwise (the depth-2
    runs are Figures 1 and 2's), depths (1, 2, 4) at full ((1, 2) at quick; the paper's 4-10 in the gpu tier),
    counts n = round(0.3 (K - 1)), round(0.6 (K - 1)), K - 1 (the paper's 15, 30, 45 of 50), ``prompts`` test
    prompts of the pre-training law.  Reproduced iff (d) for both attentions and every count: the R^2 never
    falls by more than 0.02 from one depth to the next, and R^2(deepest) - R^2(shallowest) > 0.

    Exactness
    ---------
    Statistical, seeded, bit-for-bit reproducible.  All depths get the same number of steps (800 at full), so
    the comparison mixes capacity with optimisation speed, as the paper's fixed 500k steps do.  The reduced run
    can show the direction of the depth effect at 1-4 blocks; not at 4-10 blocks of width 256.

    Mutants
    -------
    shallower-better: the R^2 decreases with depth.  gain-above-0.08 (near-boundary for the quick tier's smallest
    gain 0.070): the deepest model beats the shallowest by more than 0.08 at every count.

    Notes
    -----
    Measured at full (after the criteria were fixed): reproduced, but weakly.  R^2 at n = 3, 7, 11 for depths 1, 2,
    4: ReLU 0.782 / 0.792 / 0.808, 0.795 / 0.824 / 0.837, 0.808 / 0.832 / 0.846 (increasing); softmax 0.802 / 0.826
    / 0.836, 0.797 / 0.822 / 0.838, 0.815 / 0.831 / 0.843 (depth 2 dips 0.004-0.005 below depth 1, within the 0.02
    margin).  The gains from depth 1 to depth 4 are 0.026-0.039 (ReLU) and 0.005-0.013 (softmax) in R^2, small next
    to the paper's 4-to-10-layer range.  Budget history: the first full run (1500 steps, 2000 test prompts, 320 s
    CPU) was also reproduced (gains 0.005-0.022; there the ReLU depth 4 sat 0.004-0.007 below depth 2); the
    committed full tier uses 800 steps and 1000 prompts (158 s CPU), criteria unchanged.  Quick
    tier (a smoke test: depths 1, 2, 120 steps, otherwise seed001.figure_1's quick sizes): reproduced, gains
    0.07-0.15; it cannot show depths beyond 2.
    """
    ev = Evidence("true", rigor=Rigor.STATISTICAL)
    sz = _sizes(p)
    K = p["K"]
    depths = [L for L in ((1, 2, 4) if p["max_layers"] <= 4 else (4, 6, 8, 10)) if L <= p["max_layers"]]
    counts = sorted({max(1, round(0.3 * (K - 1))), max(1, round(0.6 * (K - 1))), K - 1})
    ev.details["paper's numbers"] = _NO_PAPER_NUMBERS
    for attn in ("relu", "softmax"):
        r2 = {L: _icl_r2(attn, 3, L, **sz, w1=1.0, prompts=p["prompts"]) for L in depths}
        ev.details[f"{attn}: R^2 by depth at counts {counts}"] = {L: [round(float(r2[L][n]), 4) for n in counts] for L in depths}
        ev.details[f"{attn}: pre-training loss first/last 5% by depth"] = {
            L: [round(v, 4) for v in _pretrain(attn, 3, L, **sz)[1:]] for L in depths}
        for n in counts:
            ys = [st.sign * float(r2[L][n]) for L in depths]
            ok = all(ys[i + 1] >= ys[i] - st.step_margin for i in range(len(ys) - 1)) and ys[-1] - ys[0] > st.gain_min
            ev.add({"attn": attn, "n": n, "part": "(d) R^2 non-decreasing in depth (margin) and deepest > shallowest",
                    "R2_by_depth": [float(r2[L][n]) for L in depths]}, ok)
        ev.plots.append({"title": f"Figure 3 re-run ({attn} attention): ICL R^2 vs transformer depth, 3-layer targets",
                         "xlabel": "transformer depth (blocks)", "ylabel": "R^2",
                         "series": [{"x": depths, "y": [float(r2[L][n]) for L in depths], "label": f"{n} in-context examples",
                                     "style": "o-"} for n in counts]})
    return ev.verdict(seed=_seed("pretrain", "relu", 3, depths[0]))
