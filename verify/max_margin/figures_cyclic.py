"""Figures 7.1, 7.4 and D.1 re-run (thesis Sec. 7.1, 7.4, App. D.3): a one-hidden-layer ReLU network (L_2
weight decay) and a quadratic network (L_{2,3} weight decay) trained by full-batch GD on modular addition;
per-neuron Fourier spectra of the embeddings, the maximum normalized power (Fig. 7.4), the frequencies used
(Fig. D.1) and the quadratic network's normalized L_{2,3} margin against gamma* of Theorem 7.7 (Fig. 7.1c).

Training: kernels.training.relu_margin and kernels.training.quadratic_margin (numba CPU, float64), the
protocol of App. D.2.1 (lr 0.05 doubled at 1k, 2k, ..., 10k; L_2 regularization 1e-4 for ReLU, L_{2,3}
regularization 1e-4 for the quadratic network, penalty lam sum_i ||omega_i||^3), init N(0, 1/p) per weight,
the same seed for both networks.  ``cyclic_pair`` caches the two runs (module-level, hashable arguments,
seed from ``ctx.seed``) so that the printed statements and the mutants of a claim read the same trainings.

Sizes: the paper's p = 71, m = 500, 40k steps cost ~0.15 s per step per network here (p^3 m ~ 1.8e8
multiply-adds), hours; the full tier runs p = 23, m = 100 (9 neurons per frequency; the paper has 7), 20k
steps (every lr doubling is done by step 10k), ~25 s CPU per network; the gpu tier runs the paper's p = 71,
m = 500, 40k steps (same schedule and regularization; the numba CPU trainers, ~2 h per network here: the ReLU
trainer has no CUDA twin; not run here).  Quick: p = 7, m = 30, 10k steps (~0.4 s; every lr doubling but the
last, at step 10k, is done), a smoke test of the full tier's protocol.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import numpy as np

from kernels.algebra import margin as K
from kernels.training.quadratic_margin import train_quadratic_margin
from kernels.training.relu_margin import train_relu_margin

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim, stable_seed
from . import SOURCE

CONTRACT_AUDITED = True

#: App. D.2.1 (lines 4782-4786): lr 0.05 doubled at 1e3, ..., 10e3 (final 51.2)
CYCLIC_SCHEDULE = tuple(range(1000, 10001, 1000))
LAM = 1e-4
LIVE_FRACTION = 1e-3
PAPER_P = 71
CYCLIC_PARAMS = [Param("p", int, 3, 101), Param("m", int, 1, 2000), Param("steps", int, 0, 200_000)]
CYCLIC_TIERS = {"quick": {"p": 7, "m": 30, "steps": 10000}, "full": {"p": 23, "m": 100, "steps": 20000},
                "gpu": {"p": 71, "m": 500, "steps": 40000}}
PAPER_SCALE = Part("paper_scale", "the paper's p = 71, m = 500, 40k steps", asserted=False,
                   reason="~0.15 s per GD step per network on this CPU (hours): the full tier runs p = 23, m = 100, "
                          "20k steps instead; the gpu tier runs p = 71, m = 500, 40k steps (not run here)")


@functools.lru_cache(maxsize=8)
def cyclic_pair(p: int, m: int, steps: int, seed: int):
    """(ReLU run, quadratic run) on Z_p from the same initial weights (cached)."""
    mul = K.cyclic_table(p)
    kw = {"steps": steps, "lr": 0.05, "lr_double_at": CYCLIC_SCHEDULE, "weight_decay": LAM, "seed": seed,
          "record_every": 250}
    return train_relu_margin(mul, m, **kw), train_quadratic_margin(mul, m, **kw)


def folded_power(X: np.ndarray) -> np.ndarray:
    """Normalized Fourier power of each row per frequency 0..floor(p/2), +-j folded (rows sum to 1)."""
    p = X.shape[1]
    P = np.abs(np.fft.fft(X, axis=1)) ** 2
    out = np.zeros((X.shape[0], p // 2 + 1))
    for j in range(p):
        out[:, min(j, p - j)] += P[:, j]
    return out / np.maximum(out.sum(1, keepdims=True), 1e-300)


def live(U, V, W, nu: float) -> np.ndarray:
    c = K.neuron_costs(U, V, W, nu=nu)
    return c >= LIVE_FRACTION * c.max()


#: the three claims share one pair of runs: the seed is ctx.seed(tag) of the claim of Figure 7.4
SEED_OWNER = "thesis_ch7.figure_7_4"


def run_seed(p) -> int:
    """ctx.seed(f'Z{p}-m{m}') of Figure 7.4's claim (the same number in all three claims, so the cache is shared)."""
    return stable_seed(SEED_OWNER, f"Z{p['p']}-m{p['m']}")


def _runs(p, ctx):
    seed = ctx.seed(f"Z{p['p']}-m{p['m']}") if ctx.claim_id == SEED_OWNER else run_seed(p)
    relu, quad = cyclic_pair(p["p"], p["m"], p["steps"], seed)
    r0 = train_quadratic_margin(K.cyclic_table(p["p"]), p["m"], steps=0, lr=0.05, weight_decay=LAM, seed=seed)
    return relu, quad, (r0.U, r0.V, r0.W)


def _spectrum_heatmap(title, X, p):
    P = folded_power(X)
    order = np.argsort(P[:, 1:].argmax(1), kind="stable")
    return {"kind": "heatmap", "title": title, "z": P[order].tolist(), "x": [str(j) for j in range(p // 2 + 1)],
            "y": [str(i) for i in range(len(order))], "zlabel": "normalized power", "xlabel": "frequency (folded +-j)",
            "ylabel": "live neuron (sorted by dominant frequency)", "series": [], "vmin": 0.0, "vmax": 1.0}


# ------------------------------------------------------------------------------------------------
# Figure 7.4: maximum normalized power at init, ReLU, quadratic
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PowerFigure:
    init_max_frac: float = 0.1  # (a) at most this fraction of initial neurons with max power >= 0.9
    relu_band: tuple = (0.8, 0.98)  # (b) median max power of live ReLU embeddings in this band ("around 0.9")
    relu_sparse_frac: float = 0.5  # (b) "not quite": fewer than this fraction of ReLU embeddings >= 0.99
    quad_min: float = 0.99  # (c) every live quadratic neuron's u, v, w max power >= quad_min
    relu_like_quad: bool = False  # mutant: the ReLU embeddings are as sparse as the quadratic's (all >= 0.99)
    quad_like_relu: bool = False  # mutant: the quadratic's median max power is at most 0.98 (like ReLU)
    init_concentrated: bool = False  # mutant: >= 90 % of the initial neurons have max power >= 0.9


@claim(
    id="thesis_ch7.figure_7_4", figure="Figure 7.4", source=SOURCE, label="Figure 7.4", entry="F",
    title="Figure 7.4 re-run (Z_23, m = 100): max Fourier power random at init, ~0.9 for ReLU, ~1 for quadratic",
    lines=[(1566, 1568), (4782, 4786)],
    printed=PowerFigure(),
    parts=[Part("init", "(a) 'Initially, the maximum power is randomly distributed': <= 10 % of the initial neurons "
                "have max power >= 0.9"),
           Part("relu", "(b) ReLU with L_2 regularization: 'concentrated around 0.9, meaning neurons are nearly 1-sparse "
                "in frequency space but not quite': median over the live neurons' u and v in [0.8, 0.98], fewer than "
                "half >= 0.99"),
           Part("quadratic", "(c) quadratic with L_{2,3} regularization: 'almost exactly 1 for all the neurons': every "
                "live neuron >= 0.99 in u, v and w"),
           PAPER_SCALE],
    mutants=[Mutant("relu-exactly-sparse", "the ReLU neurons are as 1-sparse as the quadratic's (all >= 0.99)",
                    PowerFigure(relu_like_quad=True), part="relu"),
             Mutant("quadratic-around-0.9", "the quadratic neurons' max power is only around 0.9 (median <= 0.98)",
                    PowerFigure(quad_like_relu=True), part="quadratic"),
             Mutant("init-concentrated", "the maximum power is already concentrated at initialization",
                    PowerFigure(init_concentrated=True), part="init"),
             Mutant("relu-median<=0.938", "ReLU median max power in [0.8, 0.938] (measured 0.93876 at the full tier, "
                    "0.952 at the quick tier)", PowerFigure(relu_band=(0.8, 0.938)), near_boundary=True, part="relu")],
    expect=Status.REPRODUCED, rigor=Rigor.STATISTICAL, kind=Kind.EMPIRICAL,
    params=CYCLIC_PARAMS, tiers=CYCLIC_TIERS,
)
def check_figure_7_4(st: PowerFigure, p, ctx) -> Verdict:
    """Figure 7.4: max normalized Fourier power of the neurons, at init, ReLU and quadratic networks.

    Statement
    ---------
    For a neuron's embedding u, max_i |u^(i)|^2 / sum_j |u^(j)|^2 (u^ the DFT): (a) random at
    initialization; (b) for the 1-hidden-layer ReLU network trained with L_2 regularization it is
    "concentrated around 0.9, meaning neurons are nearly 1-sparse in frequency space but not quite";
    (c) for the quadratic network trained with L_{2,3} regularization "almost exactly 1 for all the neurons".
    (Modular addition, p = 71, m = 500, App. D.2.1.)

    Source
    ------
    Seed 004, Figure 7.4 caption (lines 1566-1568), protocol App. D.2.1 (lines 4782-4786).

    Checkable form
    --------------
    Pre-registered (written before the full-tier run).  Runs of ``cyclic_pair`` (p = 23, m = 100, 20k steps
    at the full tier; quick p = 7, m = 30, 10k steps), same init for both nets.  Power: folded over +-j (a real vector's
    DFT is symmetric, so unfolded a single frequency is at most 1/2), the DC term included in the max and
    the sum (the caption's definition).  Live neuron: ||omega||^nu >= 1e-3 of the largest (nu = 2 ReLU,
    3 quadratic).  Reproduced iff (a) at step 0 at most 10 % of the m neurons' u have max power >= 0.9;
    (b) the median max power over the live ReLU neurons' u and v rows lies in [0.8, 0.98] and fewer than
    half of them are >= 0.99; (c) every live quadratic neuron has max power >= 0.99 in u, v and w.
    Plot: the three histograms of the max power (u) as in the figure.

    Exactness
    ---------
    Statistical: one seeded run per network, bit-for-bit reproducible; the paper prints no number beyond
    "around 0.9" and "almost exactly 1"; the band [0.8, 0.98] reads "around 0.9 ... but not quite 1".

    Mutants
    -------
    relu-exactly-sparse, quadratic-around-0.9, init-concentrated, and near-boundary: the ReLU median
    <= 0.938 (measured 0.93876).

    Notes
    -----
    Measured (full tier, ~55 s CPU for both trainings, shared with Figures 7.1 and D.1 within a process):
    (a) no initial neuron >= 0.9 (median 0.243); (b) ReLU: all 100 neurons live, median 0.9388, quartiles
    0.929 / 0.946, none >= 0.99 -- the paper's "around 0.9 ... not quite" at p = 23; (c) quadratic: 95
    live neurons, min max power 1 - 6e-9.  Quick tier = smoke test of (a)-(c) at p = 7, m = 30, 10k steps (ReLU
    median 0.952, quadratic min max power 0.99991); the full tier asserts them at p = 23, m = 100, 20k steps.
    """
    ev = Evidence("true", rigor=Rigor.STATISTICAL)
    relu, quad, (U0, _, _) = _runs(p, ctx)
    P0 = folded_power(U0).max(1)
    frac0 = float(np.mean(P0 >= 0.9))
    ev.add({"part": "(a) init", "fraction of neurons with max power >= 0.9": frac0, "median": float(np.median(P0))},
           frac0 >= 0.9 if st.init_concentrated else frac0 <= st.init_max_frac, part="init")
    lr_ = live(relu.U, relu.V, relu.W, 2.0)
    Pr = np.concatenate([folded_power(relu.U[lr_]).max(1), folded_power(relu.V[lr_]).max(1)])
    med = float(np.median(Pr))
    frac99 = float(np.mean(Pr >= 0.99))
    if st.relu_like_quad:
        ok = float(Pr.min()) >= 0.99
    else:
        ok = st.relu_band[0] <= med <= st.relu_band[1] and frac99 < st.relu_sparse_frac
    ev.add({"part": "(b) ReLU", "live neurons": int(lr_.sum()), "median max power (u, v)": med,
            "quartiles": np.quantile(Pr, [0.25, 0.75]).tolist(), "fraction >= 0.99": frac99,
            "diverged_at": relu.diverged_at}, ok and relu.diverged_at < 0, part="relu")
    lq = live(quad.U, quad.V, quad.W, 3.0)
    Pq = np.stack([folded_power(X[lq]).max(1) for X in (quad.U, quad.V, quad.W)])
    ok = float(np.median(Pq)) <= 0.98 if st.quad_like_relu else float(Pq.min()) >= st.quad_min
    ev.add({"part": "(c) quadratic", "live neurons": int(lq.sum()), "min max power (u, v, w)": float(Pq.min()),
            "median": float(np.median(Pq)), "diverged_at": quad.diverged_at}, ok and quad.diverged_at < 0, part="quadratic")
    bins = np.linspace(0, 1, 21)
    c = ((bins[1:] + bins[:-1]) / 2).tolist()
    ev.plots.append({"title": f"Figure 7.4: max normalized Fourier power of u per neuron (Z_{p['p']}, m = {p['m']})",
                     "xlabel": "max_i |u^(i)|^2 / sum_j |u^(j)|^2", "ylabel": "fraction of neurons", "series": [
                         {"x": c, "y": (np.histogram(P0, bins)[0] / len(P0)).tolist(), "label": "(a) initialization", "style": "o-"},
                         {"x": c, "y": (np.histogram(Pr[: int(lr_.sum())], bins)[0] / max(int(lr_.sum()), 1)).tolist(),
                          "label": "(b) ReLU, L_2 (paper: around 0.9)", "style": "s-"},
                         {"x": c, "y": (np.histogram(Pq[0], bins)[0] / max(int(lq.sum()), 1)).tolist(),
                          "label": "(c) quadratic, L_{2,3} (paper: almost exactly 1)", "style": "^-"}]})
    return ev.verdict(seed=run_seed(p))


# ------------------------------------------------------------------------------------------------
# Figure D.1: neurons per frequency
# ------------------------------------------------------------------------------------------------


def dominant_frequencies(U, V, W, mask) -> np.ndarray:
    """Each live neuron's dominant non-zero frequency (argmax over j >= 1 of the pooled u, v, w power)."""
    P = folded_power(U[mask]) + folded_power(V[mask]) + folded_power(W[mask])
    return P[:, 1:].argmax(1) + 1


@dataclass(frozen=True)
class FrequencyFigure:
    ratio: float = 4.0  # max count / min count over the frequencies 1..(p-1)/2 ("close to uniform"), all used
    few: bool = False  # mutant: the neurons use at most a quarter of the frequencies
    ratio_at: tuple = ()  # (p, ratio) pairs replacing ``ratio`` at that p (near-boundary mutant)


@claim(
    id="thesis_ch7.figure_D1", figure="Figure D.1", source=SOURCE, label="Figure D.1", entry="F",
    title="Figure D.1 re-run (Z_23, m = 100): neurons per frequency close to uniform, ReLU and quadratic",
    lines=[(4812, 4816), (1587, 1588)],
    printed=FrequencyFigure(),
    parts=[Part("relu", "(a) ReLU with L_2 regularization: 'the final distribution across frequencies is close to "
                "uniform': every frequency 1..(p-1)/2 is the dominant one of some live neuron and max/min count <= 4"),
           Part("quadratic", "(b) quadratic with L_{2,3} regularization: the same"),
           PAPER_SCALE],
    mutants=[Mutant("few-frequencies", "training concentrates on a few frequencies (at most (p-1)/4 used)",
                    FrequencyFigure(few=True)),
             Mutant("ratio<=2.1", "max/min count <= 2.1 (the quadratic net's is 2.17 at the full tier, p = 23); at the "
                    "quick tier's p = 7 <= 1.45 (the ReLU net's is 1.5); at the gpu tier's p = 71 the same 2.1 (not "
                    "calibrated: that tier has not run)", FrequencyFigure(ratio_at=((23, 2.1), (7, 1.45), (71, 2.1))),
                    near_boundary=True)],
    expect=Status.REPRODUCED, rigor=Rigor.STATISTICAL, kind=Kind.EMPIRICAL,
    params=CYCLIC_PARAMS, tiers=CYCLIC_TIERS,
)
def check_figure_D1(st: FrequencyFigure, p, ctx) -> Verdict:
    """Figure D.1: the trained neurons are spread close to uniformly over the frequencies.

    Statement
    ---------
    "The distribution of neurons of a particular frequency for the modular addition case is shown in
    Figure D.1.  As can be seen, for both ReLU and quadratic activation, the distribution is close to
    uniform" (caption: "Similar to our construction, the final distribution across frequencies is close
    to uniform"; the construction of App. D.6.2 has 8 neurons per frequency).  Theorem 7.7 (2): every
    frequency is used by some neuron.

    Source
    ------
    Seed 004, App. D.3 and Figure D.1 caption (lines 4812-4816); Sec. 7.4 (lines 1587-1588).

    Checkable form
    --------------
    Pre-registered (written before the full-tier run).  The runs of Figure 7.4 (``cyclic_pair``, p = 23,
    m = 100, 20k steps at the full tier; quick p = 7, m = 30, 10k steps).  A live neuron's frequency: the argmax over j = 1..(p-1)/2 of the
    folded power of u, v and w summed.  Reproduced iff for each network every frequency is some live
    neuron's and max count / min count <= 4 ("close to uniform"; uniform is 1).  Plot: neurons per frequency
    for both networks beside the construction's uniform count scaled to the live neurons.

    Exactness
    ---------
    Statistical: one seeded run per network; the paper prints no counts.

    Mutants
    -------
    few-frequencies (the neurons collapse onto a quarter of the frequencies) and a near-boundary ratio
    just below the measured one (2.1 at p = 23; 1.45 at the quick tier's p = 7).  Quick tier = smoke test of
    the frequency counts at p = 7, m = 30, 10k steps (3 frequencies); the full tier asserts them at p = 23, m = 100,
    20k steps (11 frequencies).

    Notes
    -----
    Measured (full tier): ReLU counts [8, 9, 12, 8, 9, 10, 8, 9, 10, 8, 9] (max/min 1.5), quadratic
    [8, 10, 13, 6, 6, 9, 9, 10, 7, 7, 10] (2.17) over the 11 frequencies; the threshold 4 is loose: a
    multinomial of 95 neurons over 11 equally likely frequencies has max/min <= 4 most of the time, so the
    check says "all used and no strong preference", not more.
    """
    ev = Evidence("true", rigor=Rigor.STATISTICAL)
    relu, quad, _ = _runs(p, ctx)
    q = p["p"]
    nf = (q - 1) // 2
    series = []
    bound = dict(st.ratio_at).get(q, st.ratio)
    for name, r, nu in (("relu", relu, 2.0), ("quadratic", quad, 3.0)):
        mask = live(r.U, r.V, r.W, nu)
        counts = np.bincount(dominant_frequencies(r.U, r.V, r.W, mask), minlength=nf + 1)[1:nf + 1]
        used = int((counts > 0).sum())
        ratio = float(counts.max() / counts.min()) if counts.min() > 0 else math.inf
        ok = used <= nf / 4 if st.few else (used == nf and ratio <= bound)
        ev.add({"part": name, "live neurons": int(mask.sum()), "counts per frequency": counts.tolist(),
                "frequencies used": used, "max/min": ratio, "diverged_at": r.diverged_at}, ok and r.diverged_at < 0,
               part=name)
        series.append({"x": list(range(1, nf + 1)), "y": counts.tolist(), "label": f"{name} (re-run)", "style": "o-"})
        ev.sharpness({"part": name, "max/min": ratio}, ratio / bound, part=name)
    series.append({"x": [1, nf], "y": [int(live(quad.U, quad.V, quad.W, 3.0).sum()) / nf] * 2,
                   "label": "uniform (construction of D.6.2: 8 per frequency, scaled)", "style": "k--"})
    ev.plots.append({"title": f"Figure D.1: live neurons per frequency (Z_{q}, m = {p['m']})", "xlabel": "frequency",
                     "ylabel": "neurons", "series": series})
    return ev.verdict(seed=run_seed(p))


# ------------------------------------------------------------------------------------------------
# Figure 7.1: embeddings and spectra (ReLU, quadratic), the quadratic margin
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EmbeddingFigure:
    relu_same: float = 0.9  # (a) fraction of live ReLU neurons whose u and v have the same dominant frequency
    quad_power: float = 0.99  # (b) live quadratic neurons: u, v, w max power >= this, one frequency
    phase: float = 0.99  # (b) cos(theta_u + theta_v - theta_w) >= this
    need: float = 0.99  # (c) final gamma_T >= need gamma*(p)
    need_at: tuple = ()  # (p, need) pairs replacing ``need`` at that p (near-boundary mutant)
    cap: float = 1 + 1e-9  # (c) gamma_t <= cap gamma*(p)
    phase_sign: float = 1.0  # mutant -1: theta_u + theta_v = -theta_w (tests cos(theta_u + theta_v + theta_w))


@claim(
    id="thesis_ch7.figure_7_1", figure="Figure 7.1", source=SOURCE, label="Figure 7.1", entry="F",
    title="Figure 7.1 re-run (Z_23, m = 100): ReLU and quadratic embeddings single-frequency, quadratic margin -> gamma*",
    lines=[(1347, 1349), (1355, 1356), (1572, 1585)],
    printed=EmbeddingFigure(),
    parts=[Part("relu", "(a) ReLU with L_2: the trained embeddings are periodic with one dominant frequency per neuron, "
                "shared by u and v (>= 90 % of the live neurons)"),
           Part("quadratic", "(b) quadratic with L_{2,3}: each live neuron's u, v, w on one frequency (max power >= 0.99) "
                "with theta_u + theta_v = theta_w (cos >= 0.99), as Theorem 7.7 (1) predicts"),
           Part("margin", "(c) 'the network asymptotically reaches the maximum L_{2,3} margin predicted by our analysis': "
                "gamma_t <= gamma*(p) throughout, gamma_T >= 0.99 gamma*(p)"),
           PAPER_SCALE],
    mutants=[Mutant("phase-minus", "Thm 7.7 with theta_u + theta_v = -theta_w", EmbeddingFigure(phase_sign=-1.0),
                    part="quadratic"),
             Mutant("exceeds-gamma*", "the final margin is >= 1.001 gamma*", EmbeddingFigure(need=1.001), part="margin"),
             Mutant("final-0.99995", "final gamma_T >= 0.99995 gamma* at p = 23 (measured 0.999933), >= 0.999 at "
                    "the quick tier's p = 7 (measured 0.998951 at 10k steps), >= 0.99995 at the gpu tier's p = 71 (not "
                    "calibrated: that tier has not run)",
                    EmbeddingFigure(need_at=((23, 0.99995), (7, 0.999), (71, 0.99995))), near_boundary=True,
                    part="margin")],
    expect=Status.REPRODUCED, rigor=Rigor.STATISTICAL, kind=Kind.EMPIRICAL,
    params=CYCLIC_PARAMS, tiers=CYCLIC_TIERS,
)
def check_figure_7_1(st: EmbeddingFigure, p, ctx) -> Verdict:
    """Figure 7.1: trained embeddings and spectra (ReLU, quadratic) and the quadratic net's margin.

    Statement
    ---------
    (a) Final trained embeddings and their Fourier power spectrum for a 1-hidden-layer ReLU network trained
    on mod-71 addition with L_2 regularization (each row a neuron: a sinusoid of one frequency); (b) the
    same for the quadratic network trained with L_{2,3} regularization; (c) "for the quadratic activation,
    the network asymptotically reaches the maximum L_{2,3} margin predicted by our analysis" (gamma* =
    sqrt(2/27) / (p^{1/2} (p - 1)), Thm 7.7; 4.6143e-4 at p = 71, not printed).  The text: "the weights of
    trained networks match those predicted by our theory (Figure 7.1)".

    Source
    ------
    Seed 004, Figure 7.1 caption (lines 1347-1349), contributions (lines 1355-1356), Theorem 7.7 (lines
    1572-1585); protocol App. D.2.1.

    Checkable form
    --------------
    Pre-registered (written before the full-tier run).  The runs of Figure 7.4 (p = 23, m = 100, 20k steps
    at the full tier).  Reproduced iff (a) >= 90 % of the live ReLU neurons have the same dominant
    frequency (j >= 1, folded power) in u and v; (b) every live quadratic neuron has max power >= 0.99 in
    u, v and w, all three at the same frequency, and cos(theta_u + theta_v - theta_w) >= 0.99 at that
    frequency (the DFT phases; Thm 7.7 (1) with lambda > 0); (c) gamma_t <= gamma*(p) (1 + 1e-9) at every
    record and gamma_T >= 0.99 gamma*(p).  Plots: the spectra of the live neurons (heat maps, ReLU and
    quadratic, rows sorted by frequency: the figure's right-hand columns) and the margin trajectory
    against gamma*(p).

    Exactness
    ---------
    Statistical: one seeded run per network, bit-for-bit reproducible.

    Mutants
    -------
    phase-minus (theta_u + theta_v = -theta_w), exceeds-gamma* and near-boundary: final >= 0.99995 gamma*
    at p = 23 (measured 0.999933) and >= 0.999 at the quick tier's p = 7 (measured 0.998951 at 10k steps; 1 - 5.9e-15
    at 20k, when 1 - 1e-15 was this mutant's quick threshold).

    Quick tier = smoke test of (a)-(c) at p = 7, m = 30, 10k steps (gamma_T / gamma*(7) = 0.998951, min max power of
    the live quadratic neurons 0.99991); the full tier asserts them at p = 23, m = 100, 20k steps.

    Notes
    -----
    Measured (full tier): (a) all 100 ReLU neurons share the dominant frequency of u and v; (b) 95 live
    quadratic neurons, min max power 1 - 6e-9, min cos(theta_u + theta_v - theta_w) = 1 - 5.5e-10; (c)
    gamma_T / gamma*(23) = 0.999933 at 20k steps (the existing Theorem 7.1 claim's 40k-step run: 1 - 2.7e-4
    with another seed and init).  The paper's gamma*(71) = 4.6143e-4 is in the details, not re-run.
    """
    ev = Evidence("true", rigor=Rigor.STATISTICAL)
    relu, quad, _ = _runs(p, ctx)
    q = p["p"]
    mr = live(relu.U, relu.V, relu.W, 2.0)
    du = folded_power(relu.U[mr])[:, 1:].argmax(1)
    dv = folded_power(relu.V[mr])[:, 1:].argmax(1)
    same = float(np.mean(du == dv))
    ev.add({"part": "(a) ReLU", "live neurons": int(mr.sum()), "fraction with one frequency in u and v": same,
            "diverged_at": relu.diverged_at}, same >= st.relu_same and relu.diverged_at < 0, part="relu")
    mq = live(quad.U, quad.V, quad.W, 3.0)
    P = [folded_power(X[mq]) for X in (quad.U, quad.V, quad.W)]
    one = bool(np.all(P[0][:, 1:].argmax(1) == P[2][:, 1:].argmax(1)) and np.all(P[1][:, 1:].argmax(1) == P[2][:, 1:].argmax(1)))
    pmin = float(min(x.max(1).min() for x in P))
    z = dominant_frequencies(quad.U, quad.V, quad.W, mq)
    cosines = []
    for i, j in zip(np.nonzero(mq)[0], z):
        a = [np.fft.fft(X[i])[j] for X in (quad.U, quad.V, quad.W)]
        cosines.append(math.cos(np.angle(a[0]) + np.angle(a[1]) - st.phase_sign * np.angle(a[2])))
    cmin = float(min(cosines))
    ev.add({"part": "(b) quadratic", "live neurons": int(mq.sum()), "min max power (u, v, w)": pmin,
            "one frequency for u, v, w": one, "min cos(theta_u + theta_v - theta_w)": cmin},
           pmin >= st.quad_power and one and cmin >= st.phase, part="quadratic")
    gam = K.cyclic_gamma(q)
    ratio = quad.normalized_margin / gam
    top, final = float(np.nanmax(ratio)), float(ratio[-1])
    need = dict(st.need_at).get(q, st.need)
    ev.add({"part": "(c) margin", "max gamma_t/gamma*": top, "final gamma_T/gamma*": final, "need": need},
           top <= st.cap and final >= need and quad.diverged_at < 0, part="margin")
    ev.details["gamma*(p) (Thm 7.7)"] = gam
    ev.details[f"gamma*({PAPER_P}) (Thm 7.7; the figure's run)"] = K.cyclic_gamma(PAPER_P)
    ev.plots.append(_spectrum_heatmap(f"Figure 7.1 (a): Fourier power of u, live ReLU neurons (Z_{q})", relu.U[mr], q))
    ev.plots.append(_spectrum_heatmap(f"Figure 7.1 (b): Fourier power of u, live quadratic neurons (Z_{q})", quad.U[mq], q))
    ev.plots.append({"title": f"Figure 7.1 (c): normalized L_{{2,3}} margin of the quadratic net (Z_{q}, m = {p['m']})",
                     "xlabel": "GD step", "ylabel": "h(theta) / ||theta||_{2,3}^3", "series": [
                         {"x": quad.record_steps.tolist(), "y": quad.normalized_margin.tolist(), "label": "re-run", "style": "-"},
                         {"x": [0, int(quad.record_steps[-1])], "y": [gam, gam], "label": "gamma* (paper's Thm 7.7)",
                          "style": "--"}]})
    return ev.verdict(seed=run_seed(p))
