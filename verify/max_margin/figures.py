"""The figures of thesis ch. 7 / App. D on finite groups, re-run: Figure 7.6 (S5), Figure D.2 (S3) and
Figure D.3 (S4): a one-hidden-layer quadratic network trained by full-batch GD with L_{2,3} weight decay on
the group's multiplication table (a, b) -> ab; (a) the normalized L_{2,3} margin approaches gamma* of
Theorem 7.9, (b) neurons per irreducible representation (more for higher-dimensional ones), (c), (d) each
neuron's maximum normalized power over irreps: random at initialization, ~1 at the end.

Training: kernels.training.quadratic_margin (numba CPU, float64, the paper's loss: mean cross-entropy +
lam sum_i ||omega_i||_2^3, lr 0.05 doubled at the steps of App. D.2, init N(0, 1/|G|) per weight).  Runs
are cached by ``group_run`` (a module-level function of hashable arguments, seeded from ``ctx.seed``) so
that the printed statement and its mutants read the same training.

Sizes (App. D.2, lines 4795-4810): S3 m = 30, 50k steps, lam = 1e-7 -- the paper's, at the full tier (~1 s);
S4 m = 200, 50k steps, lam = 1e-7 -- the paper's width with 30k steps at the full tier (~75 s CPU; all lr
doublings happen by step 10k), 50k at the gpu tier (on the CPU: this trainer's CUDA twin is not worth it
at |G| = 24); S5 m = 2000, SGD batch 1000, 75k steps, lam = 1e-5: one full-batch step costs |G|^3 m ~ 3.5e9
multiply-adds (~2 s here), so S5 is trained only at the gpu tier (full-batch GD on the CUDA twin instead of
the paper's SGD); the quick and full tiers of Figure 7.6 check the theory the figure is drawn against.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import numpy as np

from kernels.algebra import margin as K
from kernels.training._common import single_threaded_blas
from kernels.training.quadratic_margin import train_quadratic_margin

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE
from ._common import basis_with_dims, group, group_construction_info

CONTRACT_AUDITED = True

#: App. D.2 (lines 4795-4805): S3 and S4 lr doubling steps (final lr 0.05 * 2^15 = 1638.4)
SMALL_GROUP_SCHEDULE = tuple(range(200, 2601, 200)) + (5000, 10000)
#: App. D.2 (lines 4807-4810): S5 doubling steps (final lr 12.8)
S5_SCHEDULE = tuple(range(3000, 24001, 3000))
#: Table D.1 (line 5279) as printed: dimensions chi(e) of R_1..R_7 of S5
TABLE_D1_DIMS = (1, 1, 4, 4, 5, 5, 6)
#: a neuron is "live" when its ||omega||^3 is at least this fraction of the largest (weight decay shrinks
#: the unused ones towards 0, where their direction is meaningless)
LIVE_FRACTION = 1e-3


@functools.lru_cache(maxsize=16)
def group_run(name: str, m: int, steps: int, lam: float, schedule: tuple, seed: int, backend: str = "cpu",
              record_every: int = 500):
    """One seeded full-batch GD run on the multiplication table of ``name`` (cached)."""
    return train_quadratic_margin(group(name).mul, m, steps=steps, lr=0.05, lr_double_at=schedule,
                                  weight_decay=lam, seed=seed, record_every=record_every, backend=backend)


def irrep_powers(G, X: np.ndarray) -> np.ndarray:
    """Normalized power of each row of X per irrep (rows sum to 1), in the orthonormal basis
    sqrt(d/|G|) rho_(n,i,j) (Sec. 7.6.1); shape (rows, irreps)."""
    Bs, onehot = _scaled_basis(G.name)
    with single_threaded_blas():  # one BLAS thread: no spinning idle threads (verify/max_margin/_common.py)
        pw = ((X @ Bs.T) ** 2) @ onehot  # (rows, irreps)
    return pw / np.maximum(pw.sum(1, keepdims=True), 1e-300)


@functools.lru_cache(maxsize=8)
def _scaled_basis(name: str):
    G = group(name)
    B, own, d = basis_with_dims(G)
    return B * np.sqrt(d / G.order)[:, None], np.eye(len(G.irreps))[own]


def neuron_stats(G, U, V, W) -> dict:
    """Per-neuron max normalized power (u, v, w), dominant irrep (of w) and liveness."""
    costs = K.neuron_costs(U, V, W)
    live = costs >= LIVE_FRACTION * costs.max()
    P = [irrep_powers(G, X) for X in (U, V, W)]
    return {"live": live, "maxpow": np.stack([p.max(1) for p in P]), "argmax": np.stack([p.argmax(1) for p in P]),
            "costs": costs}


@dataclass(frozen=True)
class GroupFigure:
    """What Figures 7.6, D.2, D.3 show, as checkable thresholds (pre-registered; see the claims)."""

    cap: float = 1 + 1e-9  # (a) gamma_t <= cap gamma* at every record (gamma* is the maximum)
    need: tuple = ()  # (a) final gamma_T / gamma* >= need: (group, value) pairs of mutants (else the tier's ``need``)
    init_random_max: float = 0.1  # (c) at init at most this fraction of neurons has max power >= power
    init_concentrated: bool = False  # mutant: at init the neurons are already concentrated (fraction >= 0.9)
    init_cap: float = 1.0  # (c) every initial neuron's max power (u, v, w) <= init_cap (mutants only; printed: no cap)
    power: float = 0.99  # (d) every live neuron's max power in u, v and w is >= power at the end
    counts: str = "increasing"  # (b) mean neurons per irrep strictly increase with the irrep's dimension;
    #                             mutant "non-increasing": lower-dimensional irreps have at least as many


PRINTED = GroupFigure()
FIGURE_PARTS = [
    Part("margin", "(a) 'Evolution of the normalized L_{2,3} margin ... approaches the theoretical maximum margin that "
         "we predict' (gamma* of Thm 7.9): gamma_t <= gamma* along training and gamma_T >= need gamma* at the end, "
         "and gamma_T >= gamma_{T/2}"),
    Part("counts", "(b) 'Distribution of neurons spanned by a given representation. Higher dimensional "
         "representations have more neurons as given by our construction' (2 d^3 per irrep): every non-trivial "
         "irrep is the dominant one of some live neuron, and the mean count per irrep strictly increases with d"),
    Part("init_random", "(c) max normalized power 'is random at initialization': at most 10 % of the neurons have "
         "max power >= 0.99 at step 0"),
    Part("concentrated", "(d) 'towards the end of training, all neurons are concentrated in a single representation': "
         "every live neuron has max power >= 0.99 in u, v and w, in one non-trivial irrep shared by u, v, w"),
]


def _group_figure(st: GroupFigure, name: str, run, init, gamma: float, need: float, ev: Evidence, *, paper_m: int,
                  title: str) -> None:
    """The checks (a)-(d) of one group figure on a finished run; cases go to ``ev``."""
    G = group(name)
    need = dict(st.need).get(name, need)
    ratio = run.normalized_margin / gamma
    top = float(np.nanmax(ratio))
    half = float(ratio[np.searchsorted(run.record_steps, run.record_steps[-1] // 2)])
    final = float(ratio[-1])
    ev.add({"group": name, "part": "(a) margin", "max gamma_t/gamma*": top, "final gamma_T/gamma*": final,
            "gamma_{T/2}/gamma*": half, "need": need, "diverged_at": run.diverged_at},
           top <= st.cap and final >= need and final >= half and run.diverged_at < 0, part="margin")
    # (b) neurons per irrep
    s_end = neuron_stats(G, run.U, run.V, run.W)
    live = s_end["live"]
    dom = s_end["argmax"][2][live]
    counts = np.bincount(dom, minlength=len(G.irreps))
    dims = np.array(G.dims)
    dset = sorted({int(d) for d in dims[1:]})
    mean_by_d = [float(counts[1:][dims[1:] == d].mean()) for d in dset]
    used = bool(np.all(counts[1:] > 0))
    if st.counts == "increasing":
        ok_b = used and all(a < b for a, b in zip(mean_by_d, mean_by_d[1:]))
    else:
        ok_b = all(a >= b for a, b in zip(mean_by_d, mean_by_d[1:]))
    ev.add({"group": name, "part": "(b) neurons per irrep", "live neurons": int(live.sum()),
            "counts per irrep": dict(zip(G.labels, counts.tolist())), "dims": G.dims,
            "mean count by dimension": dict(zip(dset, mean_by_d)),
            "construction 2 d^3 (paper)": dict(zip(G.labels[1:], [2 * int(d) ** 3 for d in dims[1:]]))},
           ok_b, part="counts")
    # (c) at initialization
    s0 = neuron_stats(G, init.U, init.V, init.W)
    frac0 = float(np.mean(s0["maxpow"] >= st.power))
    ok_c = frac0 >= 0.9 if st.init_concentrated else (frac0 <= st.init_random_max and float(s0["maxpow"].max()) <= st.init_cap)
    ev.add({"group": name, "part": "(c) at initialization", "fraction with max power >= power": frac0,
            "largest max power": float(s0["maxpow"].max()),
            "median max power (u)": float(np.median(s0["maxpow"][0]))}, ok_c, part="init_random")
    # (d) at the end
    mp = s_end["maxpow"][:, live]
    am = s_end["argmax"][:, live]
    same = bool(np.all(am == am[2]))
    nontrivial = bool(np.all(am[2] > 0))
    ev.add({"group": name, "part": "(d) at the end", "min max power over live neurons (u, v, w)": float(mp.min()),
            "one irrep for u, v, w": same, "no trivial-irrep neuron": nontrivial,
            "fraction of all neurons with max power >= power": float(np.mean(s_end["maxpow"] >= st.power))},
           float(mp.min()) >= st.power and same and nontrivial, part="concentrated")
    # plots: (a) margin trajectory, (b) counts with the construction's, (c)/(d) histograms
    ev.plots.append({"title": f"{title} (a): normalized L_{{2,3}} margin during GD, {name}", "xlabel": "GD step",
                     "ylabel": "normalized margin h(theta) / ||theta||_{2,3}^3", "series": [
                         {"x": run.record_steps.tolist(), "y": run.normalized_margin.tolist(), "label": f"re-run (m = {len(run.U)})",
                          "style": "-"},
                         {"x": [0, int(run.record_steps[-1])], "y": [gamma, gamma], "label": "gamma* of Thm 7.9 (paper's formula)",
                          "style": "--"}]})
    idx = list(range(1, len(G.irreps)))
    cons = np.array([2 * int(d) ** 3 for d in dims[1:]], dtype=float)
    ev.plots.append({"title": f"{title} (b): live neurons per irrep, {name}",
                     "xlabel": "non-trivial irrep (" + ", ".join(f"{G.labels[i]} d={G.dims[i]}" for i in idx) + ")",
                     "ylabel": "neurons", "series": [
                         {"x": idx, "y": counts[1:].tolist(), "label": f"re-run (m = {len(run.U)})", "style": "o-"},
                         {"x": idx, "y": (cons * paper_m / cons.sum()).tolist(),
                          "label": f"construction 2 d^3 scaled to m = {paper_m} (paper)", "style": "s--"}]})
    bins = np.linspace(0, 1, 21)
    centres = ((bins[1:] + bins[:-1]) / 2).tolist()
    ev.plots.append({"title": f"{title} (c), (d): max normalized irrep power of u per neuron, {name}",
                     "xlabel": "max_i |u^(i)|^2 / sum_j |u^(j)|^2", "ylabel": "neurons", "series": [
                         {"x": centres, "y": np.histogram(s0["maxpow"][0], bins)[0].tolist(), "label": "initialization",
                          "style": "o-"},
                         {"x": centres, "y": np.histogram(s_end["maxpow"][0], bins)[0].tolist(), "label": "end of training",
                          "style": "s-"}]})


def _near(**need: float) -> GroupFigure:
    """The printed thresholds with the final-margin threshold of some groups replaced (mutants)."""
    return replace(PRINTED, need=tuple(need.items()))


GROUP_PARAMS = [Param("group", str, choices=("S3", "S4", "S5")), Param("m", int, 1, 5000), Param("steps", int, 0, 200_000),
                Param("lam", float, 0.0, 1.0), Param("need", float, 0.0, 1.0,
                                                     doc="pre-registered final gamma_T/gamma* threshold of this size")]


def _run_group_claim(st, p, ctx, *, paper_m: int, title: str) -> Verdict:
    ev = Evidence("true", rigor=Rigor.STATISTICAL)
    name = p["group"]
    G = group(name)
    schedule = S5_SCHEDULE if name == "S5" else SMALL_GROUP_SCHEDULE
    seed = ctx.seed(f"{name}-m{p['m']}")
    backend = ctx.backend if name == "S5" else "cpu"
    run = group_run(name, p["m"], p["steps"], p["lam"], schedule, seed, backend)
    init = group_run(name, p["m"], 0, p["lam"], schedule, seed, "cpu")
    _group_figure(st, name, run, init, K.group_gamma(G.dims), p["need"], ev, paper_m=paper_m, title=title)
    ev.details["sizes"] = {"group": name, "m": p["m"], "steps": p["steps"], "lam": p["lam"], "seed": seed,
                           "gamma* (Thm 7.9)": K.group_gamma(G.dims)}
    return ev.verdict(seed=seed)


_COMMON_MUTANTS = [
    Mutant("concentrated-at-init", "the neurons are already single-irrep at initialization (>= 90 % with max power >= 0.99)",
           replace(PRINTED, init_concentrated=True), part="init_random"),
    Mutant("low-dim-more-neurons", "lower-dimensional irreps get at least as many neurons as higher-dimensional ones",
           replace(PRINTED, counts="non-increasing"), part="counts"),
    Mutant("exceeds-gamma*", "the trained margin ends above gamma* (final >= 1.001 gamma*)",
           _near(S3=1.001, S4=1.001, S5=1.001), part="margin"),
]


@claim(
    id="thesis_ch7.figure_D2", figure="Figure D.2", source=SOURCE, label="Figure D.2", entry="F",
    title="Figure D.2 re-run: quadratic net on S3 (m = 30, 50k GD steps): margin -> gamma*, single-irrep neurons",
    lines=[(4795, 4800), (4817, 4819), (4845, 4847)],
    printed=PRINTED, parts=FIGURE_PARTS,
    mutants=_COMMON_MUTANTS + [Mutant("final-0.978", "final gamma_T >= 0.978 gamma* (just above the measured 0.97759 at 50k steps; 0.97632 at "
                                      "the quick tier's 30k)",
                                      _near(S3=0.978), near_boundary=True, part="margin")],
    expect=Status.REPRODUCED, rigor=Rigor.STATISTICAL, kind=Kind.EMPIRICAL,
    params=GROUP_PARAMS,
    tiers={"quick": {"group": "S3", "m": 30, "steps": 30000, "lam": 1e-7, "need": 0.95},
           "full": {"group": "S3", "m": 30, "steps": 50000, "lam": 1e-7, "need": 0.95},
           "gpu": {"group": "S3", "m": 30, "steps": 50000, "lam": 1e-7, "need": 0.95}},
)
def check_figure_D2(st, p, ctx) -> Verdict:
    """Figure D.2: a quadratic network trained on S3 reaches the max margin with single-irrep neurons.

    Statement
    ---------
    A 1-hidden-layer quadratic network (m = 30) trained by GD (50k steps, L_{2,3} regularization 1e-7, lr
    0.05 doubled at 200, 400, ..., 2600, 5000, 10000) on the composition table of S3: (a) the normalized
    L_{2,3} margin approaches the theoretical maximum gamma* = 2/(3 sqrt(3|G|) sum_{n>=2} d_n^{2.5}) of Thm
    7.9 (0.0236050 for S3; not printed), (b) higher-dimensional irreps have more neurons "as given by our
    construction" (2 d^3: 2 for the sign irrep, 16 for the 2-dim one), (c) each neuron's maximum normalized
    power over irreps is random at initialization and (d) ~1 for all neurons at the end.

    Source
    ------
    Seed 004, Figure D.2 caption (lines 4845-4847), App. D.3 (lines 4817-4819), protocol App. D.2 (S3,
    lines 4795-4800).

    Checkable form
    --------------
    Pre-registered (written before the full-tier run).  One run, seed ctx.seed('S3-m30'), the paper's size
    at the full tier (m = 30, 50k steps, lam = 1e-7, penalty lam sum_i ||omega_i||^3, init N(0, 1/|G|)).
    Reproduced iff (a) gamma_t <= gamma* (1 + 1e-9) at every record (every 500 steps), gamma_T >= 0.95
    gamma* (quick tier too, at 30k steps) and gamma_T >= gamma_{T/2}; (b) every non-trivial irrep is the dominant
    irrep (of w) of some live neuron (||omega||^3 >= 1e-3 of the largest) and the mean count per irrep
    strictly increases with the irrep dimension; (c) at step 0 at most 10 % of the 30 neurons have max
    normalized power (u, v or w) >= 0.99; (d) at the end every live neuron has max power >= 0.99 in each
    of u, v, w, in the same non-trivial irrep.  Plots: the margin against gamma*, the counts per irrep
    beside the construction's 2 d^3 (scaled to m = 30), and the histograms of u's max power at step 0 and
    at the end.

    Exactness
    ---------
    Statistical: one seeded run (bit-for-bit reproducible); the paper shows one run and prints no number.
    0.95 reads "approaches" (the catalog's small-scale run, another seed, reached 0.977 at 50k steps).

    Mutants
    -------
    concentrated-at-init (c), low-dim-more-neurons (b), exceeds-gamma* (final >= 1.001 gamma*, impossible)
    and a near-boundary final-margin threshold just above the measured ratio.

    Notes
    -----
    Quick tier = smoke test of (a)-(d) on the same run cut at 30k of the paper's 50k steps (gamma_T/gamma* =
    0.9763, every live neuron's max power >= 0.99931, counts 24 / 5; the near-boundary mutant final-0.978 is
    rejected by 0.0017 instead of 0.0004); the full and gpu tiers assert them at the paper's size (~1 s).  (An
    earlier quick tier cut the run at 20k steps: there one live neuron still had max power 0.61, so (d)
    failed -- the quick tier can fail on (d); at 25k the minimum is 0.9982, at 30k 0.99931.)

    Measured (full tier): gamma_T/gamma* = 0.9776 (0.9745 at 25k), 29 live neurons, counts 24 (2-dim
    irrep) and 5 (sign) against the construction's 16 and 2, at init 1 % of the neurons have max power
    >= 0.99 (median of u: 0.69), every live neuron >= 0.99 at the end.
    """
    return _run_group_claim(st, p, ctx, paper_m=30, title="Figure D.2")


@claim(
    id="thesis_ch7.figure_D3", figure="Figure D.3", source=SOURCE, label="Figure D.3", entry="F",
    title="Figure D.3 re-run: quadratic net on S4 (m = 200, 30k of the paper's 50k GD steps): margin -> gamma*, "
          "single-irrep neurons",
    lines=[(4802, 4805), (4817, 4819), (4851, 4853)],
    printed=PRINTED, parts=FIGURE_PARTS + [
        Part("paper_steps", "the paper's 50k steps (the full tier stops at 30k)", asserted=False,
             reason="CPU budget (~2 ms per step at m = 200: the other 20k steps would add ~40 s to a full tier that is at its "
                    "40-minute limit); the gpu tier runs 50k steps")],
    mutants=_COMMON_MUTANTS + [Mutant("final-0.922", "final gamma_T >= 0.922 gamma* at 30k steps (just above the measured "
                                      "0.92165; the quick tier's S3 run, 25k steps: >= 0.978, above its 0.97606)",
                                      _near(S3=0.978, S4=0.922), near_boundary=True, part="margin")],
    expect=Status.REPRODUCED, rigor=Rigor.STATISTICAL, kind=Kind.EMPIRICAL,
    params=GROUP_PARAMS,
    tiers={"quick": {"group": "S3", "m": 30, "steps": 25000, "lam": 1e-7, "need": 0.95},
           "full": {"group": "S4", "m": 200, "steps": 30000, "lam": 1e-7, "need": 0.9},
           "gpu": {"group": "S4", "m": 200, "steps": 50000, "lam": 1e-7, "need": 0.95}},
)
def check_figure_D3(st, p, ctx) -> Verdict:
    """Figure D.3: a quadratic network trained on S4 reaches the max margin with single-irrep neurons.

    Statement
    ---------
    A 1-hidden-layer quadratic network (m = 200) trained by GD (50k steps, L_{2,3} regularization 1e-7, the
    S3 lr schedule) on the composition table of S4: (a) the normalized L_{2,3} margin approaches gamma* of
    Thm 7.9 (0.00207665 for S4; not printed), (b) higher-dimensional irreps have more neurons "as given by
    our construction" (2 d^3: 2, 16, 54, 54 for the irreps of dimension 1, 2, 3, 3), (c) max normalized
    power over irreps random at initialization, (d) ~1 for all neurons at the end.

    Source
    ------
    Seed 004, Figure D.3 caption (lines 4851-4853), App. D.3 (lines 4817-4819), protocol App. D.2 (S4,
    lines 4802-4805).

    Checkable form
    --------------
    Pre-registered (written before the full-tier run).  One run, seed ctx.seed('S4-m200'): the paper's
    width m = 200, lam = 1e-7, schedule and init as in Figure D.2; 30k steps at the full tier (every lr
    doubling is done by step 10k), the paper's 50k at the gpu tier.  Reproduced iff (a) gamma_t <= gamma*
    (1 + 1e-9) at every record, gamma_T >= 0.9 gamma* at 30k steps (0.95 at 50k) and gamma_T >= gamma_{T/2};
    (b) every non-trivial irrep is the dominant irrep of some live neuron and the mean count per irrep
    strictly increases with d (1 < 2 < 3, the two 3-dim irreps averaged); (c) at step 0 at most 10 % of the
    neurons have max power >= 0.99; (d) every live neuron has max power >= 0.99 in u, v, w, in one
    non-trivial irrep.  Plots as in Figure D.2.

    Exactness
    ---------
    Statistical: one seeded run, bit-for-bit reproducible; the paper prints no number.

    Mutants
    -------
    As Figure D.2: concentrated-at-init, low-dim-more-neurons, exceeds-gamma*, and a near-boundary final
    margin threshold just above the measured ratio.

    Notes
    -----
    Quick tier = S3 smoke test of (a)-(d) (the code path of Figure D.2, this claim's seed, m = 30, 25k steps,
    ~0.4 s: gamma_T/gamma* = 0.9761, every live neuron's max power >= 0.99957, counts 26 / 4; the mutant
    final-0.922 reads >= 0.978 there, rejected by 0.0019); the full tier asserts them on S4 (m = 200, 30k steps):
    S4 at m = 200 costs ~2 ms per step here, so no S4 run fits the quick budget.

    Measured (full tier, ~75 s CPU): gamma_T/gamma* = 0.9217
    (0.8929 at 15k, still rising: 30k steps do not show how close 50k get); 191 live neurons, counts
    85, 79 (3-dim irreps), 24 (2-dim), 3 (sign) -- the construction's 2 d^3 scaled to m = 200 gives
    85.7, 85.7, 25.4, 3.2; at init no neuron has max power >= 0.99 (median of u 0.46); at the end 195 of
    200 neurons of u are in the top bin, every live neuron >= 0.99 in u, v, w.
    """
    return _run_group_claim(st, p, ctx, paper_m=200, title="Figure D.3")


def init_params(n: int, m: int, seed: int):
    """The trainer's initialisation (U, V, W i.i.d. N(0, 1/n) from default_rng(seed)), without a training step
    (tests/max_margin check that it equals train_quadratic_margin(steps=0))."""
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal((m, n)) / np.sqrt(n) for _ in range(3))


def _formula(dims, *, include_trivial=False, exponent=2.5):
    order = sum(d * d for d in dims)
    s = sum(d**exponent for d in (dims if include_trivial else dims[1:]))
    return 2 / (3 * math.sqrt(3 * order) * s)


@dataclass(frozen=True)
class S5Figure:
    figure: GroupFigure = PRINTED
    gamma: object = _formula  # the dashed line of panel (a): Thm 7.9's formula on the dimensions of Table D.1


_S5_PARTS = [
    Part("gamma_line", "(a)'s 'theoretical maximum margin that we predict': Thm 7.9's gamma* for S5 from the "
         "dimensions printed in Table D.1 equals gamma* from the irreps built here and (full tier) the normalized "
         "margin of the executed construction D.15 + D.16 (1190 neurons)"),
    Part("construction_counts", "(b) 'Higher dimensional representations have more neurons as given by our "
         "construction': the executed construction has 2 d^3 neurons per irrep, each in one irrep, increasing with d"),
    Part("init_random", "(c) 'random at initialization': at the paper's width m = 2000, at most 10 % of the "
         "neurons have max power >= 0.99 at step 0"),
    Part("margin", "(a) the trained network's normalized margin approaches gamma*", asserted=False,
         reason="S5 training is GPU-only (one full-batch step costs |G|^3 m ~ 3.5e9 multiply-adds, ~2 s here; the "
                "paper runs 75k SGD steps); the gpu tier runs it (full-batch GD on the CUDA twin), not yet on a GPU"),
    Part("counts", "(b) the trained network's neurons per irrep increase with d", asserted=False,
         reason="as 'margin': GPU-only training"),
    Part("concentrated", "(d) every trained neuron concentrated in one irrep", asserted=False,
         reason="as 'margin': GPU-only training"),
]


@claim(
    id="thesis_ch7.figure_7_6", figure="Figure 7.6", source=SOURCE, label="Figure 7.6", entry="F",
    title="Figure 7.6 (S5): the predicted gamma* line and construction counts, random init (CPU); training GPU-only",
    lines=[(1596, 1600), (1651, 1652), (4807, 4810), (5279, 5288)],
    printed=S5Figure(), parts=_S5_PARTS,
    mutants=[Mutant("gamma-with-trivial", "panel (a)'s line from the formula with the trivial irrep in the sum",
                    S5Figure(gamma=lambda d: _formula(d, include_trivial=True)), part="gamma_line"),
             Mutant("gamma-exponent-2", "panel (a)'s line from the formula with exponent 2 instead of 2.5",
                    S5Figure(gamma=lambda d: _formula(d, exponent=2.0)), part="gamma_line"),
             Mutant("low-dim-more-neurons", "lower-dimensional irreps get at least as many neurons",
                    S5Figure(figure=replace(PRINTED, counts="non-increasing")), part="construction_counts"),
             Mutant("concentrated-at-init", "neurons already single-irrep at initialization",
                    S5Figure(figure=replace(PRINTED, init_concentrated=True)), part="init_random"),
             Mutant("init-cap-0.5", "at initialization no neuron has max power above 0.5 (measured largest: 0.5138 of "
                    "the 6000 u, v, w rows)", S5Figure(figure=replace(PRINTED, init_cap=0.5)), near_boundary=True,
                    part="init_random")],
    expect=Status.REPRODUCED, rigor=Rigor.STATISTICAL, kind=Kind.EMPIRICAL, uses_backend=True,
    params=GROUP_PARAMS + [Param("train", bool), Param("construction", bool)],
    tiers={"quick": {"group": "S5", "m": 2000, "steps": 0, "lam": 1e-5, "need": 0.95, "train": False, "construction": False},
           "full": {"group": "S5", "m": 2000, "steps": 0, "lam": 1e-5, "need": 0.95, "train": False, "construction": True},
           "gpu": {"group": "S5", "m": 2000, "steps": 75000, "lam": 1e-5, "need": 0.95, "train": True, "construction": True}},
)
def check_figure_7_6(st: S5Figure, p, ctx) -> Verdict:
    """Figure 7.6: a quadratic network trained on S5 approaches gamma* with single-irrep neurons.

    Statement
    ---------
    A 1-hidden-layer quadratic network (m = 2000) trained on the composition table of S5 (SGD, 75k steps,
    batch 1000, L_{2,3} regularization 1e-5, lr 0.05 doubled at 3k, 6k, ..., 24k): (a) the normalized
    L_{2,3} margin approaches the predicted gamma* = 2/(3 sqrt(3|G|) sum_{n>=2} d_n^{2.5}) (1.32598e-4 for
    S5; the value is not printed, the dimensions are: Table D.1), (b) "higher dimensional representations
    have more neurons as given by our construction" (2 d^3 = 2, 128, 128, 250, 250, 432), (c) each
    neuron's max normalized power over irreps is random at initialization and (d) ~1 at the end.

    Source
    ------
    Seed 004, Figure 7.6 caption (lines 1596-1600), text of Sec. 7.6.2 (lines 1651-1652), protocol App.
    D.2.3 (lines 4807-4810), Table D.1 (lines 5279-5288).

    Checkable form
    --------------
    Pre-registered.  Quick and full tiers (no training): (gamma_line) gamma* from Table D.1's printed
    dimensions (1, 1, 4, 4, 5, 5, 6) equals gamma* from the dimensions of the irreps built by
    kernels.algebra.groups (rtol 1e-12) and, at the full tier, the normalized margin of the executed
    construction (rtol 1e-9); (construction_counts) the construction has 2 d^3 neurons in each
    non-trivial irrep (each neuron's max irrep power >= 1 - 1e-9), and the mean count strictly increases
    with d; (init_random) the paper's width m = 2000 at initialization (the trainer's N(0, 1/|G|) init,
    seed ctx.seed('S5-m2000')): at most 10 % of the neurons have max power >= 0.99.  gpu tier: in addition
    the criteria (a)-(d) of Figure D.2 on a full-batch GD run (m = 2000, 75k steps, lam = 1e-5, the S5
    schedule; final gamma_T >= 0.95 gamma*).

    Exactness
    ---------
    The theory parts are float64 identities; (c) is one seeded draw.

    Mutants
    -------
    The formula with the trivial irrep in the sum, or with exponent 2 (the line drawn at the wrong height);
    low-dim-more-neurons; concentrated-at-init; near-boundary: no initial neuron has max power above 0.5
    (the largest of the 2000 x 3 rows is 0.5138).

    Notes
    -----
    What the CPU tiers cannot show: the trained network's margin, counts and concentration (GPU-only, see
    the unasserted parts).  The gpu tier's full-batch GD differs from the paper's SGD (batch 1000); it has
    not been run on a GPU yet.  The construction's margin costs ~5 s (1190 neurons, |G|^3 m ~ 2e9).
    """
    ev = Evidence("true", rigor=Rigor.STATISTICAL)
    name = p["group"]
    G = group(name)
    fig = st.figure
    g_table = st.gamma(list(TABLE_D1_DIMS))
    g_ours = K.group_gamma(G.dims)
    ok = abs(g_table / g_ours - 1) <= 1e-12
    case = {"part": "gamma_line", "gamma* from Table D.1 dims (statement's formula)": g_table,
            "gamma* from the built irreps (Thm 7.9)": g_ours, "dims built": sorted(G.dims)}
    if p["construction"]:
        info = group_construction_info(name)
        case["construction normalized margin"] = info["normalized"]
        ok = ok and abs(g_table / info["normalized"] - 1) <= 1e-9
    ev.add(case, ok and sorted(G.dims) == sorted(TABLE_D1_DIMS), part="gamma_line")
    # construction counts (panel b's "as given by our construction")
    U, V, W = K.group_trace_construction(G)
    pw = irrep_powers(G, W)
    owner = pw.argmax(1)
    counts = np.bincount(owner, minlength=len(G.irreps))
    dims = np.array(G.dims)
    dset = sorted({int(d) for d in dims[1:]})
    mean_by_d = [float(counts[1:][dims[1:] == d].mean()) for d in dset]
    single = float(min(irrep_powers(G, X).max(1).min() for X in (U, V, W)))
    expected = [2 * int(d) ** 3 for d in dims[1:]]
    if fig.counts == "increasing":
        ok_b = counts[1:].tolist() == expected and single >= 1 - 1e-9 and all(a < b for a, b in zip(mean_by_d, mean_by_d[1:]))
    else:
        ok_b = all(a >= b for a, b in zip(mean_by_d, mean_by_d[1:]))
    ev.add({"part": "construction_counts", "counts per irrep": dict(zip(G.labels, counts.tolist())),
            "2 d^3": dict(zip(G.labels[1:], expected)), "min single-irrep power": single,
            "mean count by dimension": dict(zip(dset, mean_by_d))}, ok_b, part="construction_counts")
    # (c) initialization at the paper's width
    seed = ctx.seed(f"{name}-m{p['m']}")
    U0, V0, W0 = init_params(G.order, p["m"], seed)
    s0 = neuron_stats(G, U0, V0, W0)
    frac0 = float(np.mean(s0["maxpow"] >= fig.power))
    ok_c = frac0 >= 0.9 if fig.init_concentrated else (frac0 <= fig.init_random_max and float(s0["maxpow"].max()) <= fig.init_cap)
    ev.add({"part": "(c) at initialization", "m": p["m"], "fraction with max power >= power": frac0,
            "largest max power": float(s0["maxpow"].max()), "median max power (u)": float(np.median(s0["maxpow"][0]))},
           ok_c, part="init_random")
    bins = np.linspace(0, 1, 21)
    ev.plots.append({"title": "Figure 7.6 (c): max normalized irrep power of u per neuron at initialization, S5, m = 2000",
                     "xlabel": "max_i |u^(i)|^2 / sum_j |u^(j)|^2", "ylabel": "neurons", "series": [
                         {"x": ((bins[1:] + bins[:-1]) / 2).tolist(), "y": np.histogram(s0["maxpow"][0], bins)[0].tolist(),
                          "label": "initialization (re-run)", "style": "o-"}]})
    ev.plots.append({"title": "Figure 7.6 (b): neurons per irrep of the construction D.15 (2 d^3, the paper's)",
                     "xlabel": "non-trivial irrep (" + ", ".join(f"{G.labels[i]} d={G.dims[i]}" for i in range(1, len(G.dims))) + ")",
                     "ylabel": "neurons", "series": [
                         {"x": list(range(1, len(G.dims))), "y": counts[1:].tolist(), "label": "executed construction", "style": "o-"},
                         {"x": list(range(1, len(G.dims))), "y": expected, "label": "2 d^3 (paper)", "style": "s--"}]})
    if p["train"]:
        run = group_run(name, p["m"], p["steps"], p["lam"], S5_SCHEDULE, seed, ctx.backend, 1000)
        _group_figure(fig, name, run, group_run(name, p["m"], 0, p["lam"], S5_SCHEDULE, seed, "cpu"), g_ours, p["need"],
                      ev, paper_m=p["m"], title="Figure 7.6")
    ev.details["gamma* (S5)"] = g_ours
    return ev.verdict(seed=seed)
