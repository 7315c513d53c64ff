"""The empirical Pareto frontier (Sec. 6.4.1, App. C.3.1-C.3.2) at CPU sizes, and the bookkeeping of the
reported tabular results and compute budget (Sec. 6.4.2, App. C.3.3-C.3.4).

Training: kernels.training.train_two_layer (2-layer ReLU MLP, hinge loss, SGD with batch 32, lr 0.1,
weight decay 0.01, the paper's protocol) on the offline (n, k) = (20, 3) sparse parity with m training
samples, dense (PyTorch default) or 2-sparse first-layer initialisation (kernels.training.pareto_init).  Success =
held-out accuracy >= 90% (test error <= 10%, the paper's criterion) on 1000 fresh samples within T
steps.  Every run's randomness is its seed (counter-based streams), so the grid is reproducible bit for bit.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass, replace
from math import comb

import numpy as np
from scipy import stats

from kernels.training.pareto_init import sparse_theta0
from kernels.boolean.sq_frontier import mlp_params
from kernels.training.two_layer import train_two_layer

from ..blocks import seed_blocks
from ..registry import Context, Evidence, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True
from .sq_lower_bound import _cp_lower

N, K = 20, 3
WIDTHS = (2, 8, 32, 128)
INITS = ("dense", "sparse")
_ALPHA = 0.05  # family-wise level of the one-sided tests (Bonferroni over the comparisons of a claim)


#: runs per seed block of the grid (a block is one task on a dask cluster: verify.cluster)
_GRID_BLOCK = 25


@functools.lru_cache(maxsize=4)
def pareto_grid(ms: tuple, seeds: int, steps: int, backend: str = "cpu") -> dict:
    """{(init, width, m): converged_at array} for the grid (cached: E23 and E24 share one run).

    Each grid point's seeds are split into blocks of at most _GRID_BLOCK runs (Context.map: separate tasks
    on a cluster); run r depends on its seed alone, so the merged arrays are the bits of one call."""
    t0 = time.perf_counter()
    cells = [(init, width, m) for init in INITS for width in WIDTHS for m in ms]
    pieces = [(*cell, a, b, steps, backend) for cell in cells for a, b in seed_blocks(seeds, _GRID_BLOCK)]
    done = Context("thesis_ch6.pareto_grid").map(_grid_block, pieces)
    out = {cell: np.concatenate([d for piece, d in zip(pieces, done) if piece[:3] == cell]) for cell in cells}
    out["seconds"] = time.perf_counter() - t0
    return out


def _grid_block(init: str, width: int, m: int, a: int, b: int, steps: int, backend: str) -> np.ndarray:
    """converged_at of runs a..b-1 (seeds 6_400_000 + r) at one grid point of the Pareto grid."""
    seed_arr = np.arange(a, b, dtype=np.uint64) + np.uint64(6_400_000)
    theta0 = sparse_theta0(N, width, seed_arr, 2) if init == "sparse" else None
    r = train_two_layer(N, K, width=width, seeds=seed_arr, steps=steps, train_size=m, lr=0.1, weight_decay=0.01,
                        loss="hinge", eval_every=100, stop_on_convergence=True, n_eval=1000, target_accuracy=0.9,
                        theta0=theta0, backend=backend)
    return r.converged_at.copy()


def _grid_params():
    return [Param("seeds", int, 2, 1000, doc="runs per grid point"),
            Param("steps", int, 100, 100_000, doc="SGD steps T"),
            Param("m_grid", str, doc="comma-separated training-set sizes")]


_TIERS = {"quick": {"seeds": 6, "steps": 4000, "m_grid": "300,1000"},
          "full": {"seeds": 12, "steps": 6000, "m_grid": "200,300,500,1000,3000"},
          "gpu": {"seeds": 50, "steps": 20000, "m_grid": "100,200,300,500,1000,2000,3000,10000"}}


def _ms(p) -> tuple:
    return tuple(sorted(int(v) for v in p["m_grid"].split(",")))


def _fisher_less(a_hits, a_n, b_hits, b_n) -> float:
    """One-sided Fisher exact p-value of 'group b succeeds less often than group a'."""
    return float(stats.fisher_exact([[b_hits, b_n - b_hits], [a_hits, a_n - a_hits]], alternative="less")[1])


# ---------------------------------------------------------------------------------------------
# E23. the Pareto frontier
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FrontierFindings:
    """width_direction = +1: success non-decreasing in width; -1: non-increasing ('width hurts')."""

    width_direction: int
    sparse_not_worse: bool = True
    small_m_width: int = WIDTHS[-1]  # finding (1) is claimed for large width


@claim(
    id="thesis_ch6.pareto_frontier_experiment",
    figure=["Figure 6.1", "Figure C.1"],
    source=SOURCE,
    label="Figure 6.1",
    entry="E23",
    title="Empirical Pareto frontier at (n,k) = (20,3): success at m << n^k, monotone in width, sparse init not worse",
    lines=[(1097, 1097), (1255, 1273), (4629, 4654)],
    printed=FrontierFindings(+1),
    mutants=[Mutant("width-hurts", "success non-increasing in width (uniform-convergence prediction)", FrontierFindings(-1)),
             Mutant("small-m-at-width-2", "finding (1) at width 2 (width does not matter for the small-m regime)",
                    FrontierFindings(+1, small_m_width=WIDTHS[0]), origin="second-reader")],
    parts=[Part("small-m", "(1) with large width, MLPs learn (n, k)-parities from m << n^k samples"),
           Part("width-monotone", "(2) success probability non-decreasing in width, exceptions within Bernoulli error"),
           Part("sparse-enlarges", "(3) sparse axis-aligned initialisation enlarges the feasible region (for n large)", asserted=False,
                reason="at n = 20 dense initialisation already works; only the weaker reading 'sparse is not worse' (pooled "
                "one-sided Fisher) is tested, which cannot show an enlargement"),
           Part("paper-scale", "the grid n >= 50, T = 1e5, 50 runs per point (Fig. 6.1, C.1)", asserted=False,
                reason="every tier runs (n, k) = (20, 3) (gpu tier: 50 seeds, T = 2e4); the paper's n >= 50 grid is not run")],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=_grid_params(),
    tiers=_TIERS,
    uses_backend=True,
)
def check_pareto_frontier(statement: FrontierFindings, p, ctx) -> Verdict:
    """Empirical findings (1)-(3) of Sec. 6.4.1 (Fig. 6.1, Fig. C.1) at CPU sizes.

    Statement
    ---------
    (1) With large width, 2-layer MLPs learn (n, k)-parities from m << n^k samples; (2) the success
    probability is monotone non-decreasing in width at fixed (n, k, m, init), exceptions within Bernoulli
    error; (3) sparse (2-hot) initialisation enlarges the feasible region.

    Source
    ------
    Thesis (seed 004), Figure 6.1 (line 1097), Sec. 6.4.1 findings lines 1255-1273, App. C.3.1 lines 4629-4654.

    Checkable form
    --------------
    Grid (n, k) = (20, 3) (n^k = 8000), width in {2, 8, 32, 128}, m in m_grid, dense and 2-sparse init,
    ``seeds`` runs per point, T = ``steps`` (paper: n >= 50, T = 1e5, 50 runs: GPU tier).  (1) at the
    largest width some m <= n^k/20 has a 99.9% lower Clopper-Pearson bound of the success rate >= 0.1;
    (2) for every (init, m) and every pair of widths w1 < w2, the one-sided Fisher exact test of a change against
    ``width_direction`` must not be significant at level 0.05/#comparisons (Bonferroni); (3) pooled over
    the grid, sparse init is not significantly worse than dense (one-sided Fisher, same level).  Each
    test is one case: lhs = p-value, rhs = level, relation >=.

    Exactness
    ---------
    Statistical: seeds 6400000 + j (counter-based streams: bit-for-bit reproducible on the CPU backend);
    the family-wise error of the monotonicity tests is <= 0.05.

    Mutants
    -------
    "Width hurts" is rejected by any slice with a significant increase (width 2 never learns: e.g.
    m = 1000, 0/6 at width 2 against 6/6 at width 32 at quick, Fisher p = 1/924 ~ 1.1e-3 against the
    level 0.05/24; 0/12 against 12/12 at full, p = 1/C(24,12) ~ 3.7e-7).  Second reader: finding (1) at
    width 2 is rejected (width 2 has no success at m <= n^k/20 on the grid: an empirical falsification, the
    run's own data; the old checker could not express it, the width was fixed in the check body).

    Notes
    -----
    Prop. 6.3 is vacuous on this grid: its failure region m <= C(n,k)/(2P) (T = 1, delta = 1) ends at
    m* < 4 for every width, far below the empirical edge (catalog P6); the heat maps draw it at the
    bottom edge with its value in the legend.

    Quick is a smoke test of what full shows: the same protocol and tests on 6 seeds per point, T = 4000,
    m in {300, 1000} (full: 12 seeds, T = 6000, five m from 200 to 3000).  It still shows (1) (6/6 at width
    128, m = 300: CP lower 0.32 >= 0.1), (2) and (3), and rejects both mutants (width-hurts: width 2 0/6
    against 6/6 at width 32, Fisher p = 1/924 below the level 0.05/24, a factor 1.9; width 2 has 0 hits);
    it cannot show the edge of feasibility (m = 200) nor the large-m end.  Its training is ~6 CPU s; the
    compilation of the training kernel (~25-30 CPU s per process, not cached) dominates its time.
    """
    ms = _ms(p)
    grid = pareto_grid(ms, p["seeds"], p["steps"], ctx.backend)
    R = p["seeds"]
    succ = {key: int(np.sum(v >= 0)) for key, v in grid.items() if key != "seconds"}
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    small = [m for m in ms if m <= N**K / 20]
    best = max(small, key=lambda m: succ[("sparse", statement.small_m_width, m)] + succ[("dense", statement.small_m_width, m)])
    hits = max(succ[(init, statement.small_m_width, best)] for init in INITS)
    ev.add({"finding": "(1) success at m <= n^k/20", "m": best, "width": statement.small_m_width, "hits": hits, "runs": R},
           _cp_lower(hits, R), 0.1)
    pairs = [(init, m, w1, w2) for init in INITS for m in ms for a_, w1 in enumerate(WIDTHS) for w2 in WIDTHS[a_ + 1:]]
    level = _ALPHA / len(pairs)
    for init, m, w1, w2 in pairs:
        a, b = succ[(init, w1, m)], succ[(init, w2, m)]
        pval = _fisher_less(a, R, b, R) if statement.width_direction > 0 else _fisher_less(b, R, a, R)
        ev.add({"finding": "(2) width", "init": init, "m": m, "widths": [w1, w2], "successes": [a, b], "runs": R}, pval, level)
    if statement.sparse_not_worse:
        d = sum(succ[("dense", w, m)] for w in WIDTHS for m in ms)
        s = sum(succ[("sparse", w, m)] for w in WIDTHS for m in ms)
        tot = R * len(WIDTHS) * len(ms)
        ev.add({"finding": "(3) sparse not worse (pooled)", "dense": d, "sparse": s, "runs": tot}, _fisher_less(d, tot, s, tot), _ALPHA)
    for init in INITS:
        z = [[succ[(init, w, m)] / R for w in WIDTHS] for m in ms]
        m_star = [comb(N, K) / 2 / mlp_params(w, N) for w in WIDTHS]
        ev.plots.append({"kind": "heatmap", "title": f"success probability, (n,k)=({N},{K}), {init} init, {R} seeds, T={p['steps']}",
                         "z": z, "x": [str(w) for w in WIDTHS], "y": [str(m) for m in ms], "zlabel": "P[test error <= 10%]",
                         "xlabel": "width", "ylabel": "samples m", "vmin": 0, "vmax": 1, "annotate": True,
                         "series": [{"x": list(range(len(WIDTHS))), "y": [-0.45] * len(WIDTHS), "style": "w--",
                                     "label": "Prop. 6.3 failure edge m* = " + ", ".join(f"{v:.1f}" for v in m_star) + " (below grid)"}]})
    ev.details["successes"] = {f"{i},w={w},m={m}": succ[(i, w, m)] for i in INITS for w in WIDTHS for m in ms}
    ev.details["training seconds (whole grid)"] = round(grid["seconds"], 2)
    return ev.verdict(seed=6_400_000, backend=ctx.backend)


# ---------------------------------------------------------------------------------------------
# E24. data vs time
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DataTime:
    """direction = +1: near the feasibility edge, fewer samples cost more steps (data-vs-time trade-off)."""

    direction: int


@claim(
    id="thesis_ch6.data_time_tradeoff",
    figure="Figure 6.2",
    source=SOURCE,
    label="Figure 6.2",
    entry="E24",
    title="Data vs time: near the feasibility edge fewer samples cost more SGD steps (median convergence time)",
    lines=[(1257, 1257), (1262, 1270)],
    printed=DataTime(+1),
    mutants=[Mutant("more-data-slower", "median convergence time increases with m", DataTime(-1))],
    parts=[Part("data-time", "(4) near the feasibility edge, fewer samples cost more SGD steps"),
           Part("width-luck", "width buys luck (Fig. 6.2, left)", asserted=False,
                reason="tested as finding (2) of thesis_ch6.pareto_frontier_experiment on the same runs"),
           Part("paper-scale", "Fig. 6.2 at n = 50-200, T = 1e5", asserted=False, reason="only (n, k) = (20, 3) is run")],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=_grid_params(),
    tiers=_TIERS,
    uses_backend=True,
)
def check_data_time(statement: DataTime, p, ctx) -> Verdict:
    """Figure 6.2 and finding (4): the data-vs-time trade-off near the feasibility edge.

    Statement
    ---------
    Zoomed frontier: width buys luck, and near the edge of feasibility the number of iterations to
    convergence grows sharply as m decreases (data-vs-time trade-off; sample-wise non-monotonicity).

    Source
    ------
    Thesis (seed 004), Figure 6.2 line 1257 and finding (4) of Sec. 6.4.1, lines 1262-1270.

    Checkable form
    --------------
    From the E23 grid (same runs): for each (init, width) with >= 3 successful runs at two training-set
    sizes, compare the convergence steps of successful runs at the smallest such m (near the edge)
    and at the largest m: the one-sided Mann-Whitney test of "steps at the edge are larger"
    (direction +1; "smaller" for direction -1) must reach p <= 0.05 in at least half of the slices.
    Each slice is a case (lhs = number of significant slices, rhs = half of them, relation >=).

    Exactness
    ---------
    Statistical, same seeds as E23; the Mann-Whitney p-values are exact for these small samples.

    Mutants
    -------
    "More data is slower" finds no significant slice.

    Notes
    -----
    Second reader: no new false variant could be argued false independently of the data (the claim is
    empirical); the criterion (half of the slices significant at 0.05) is the checker's reading of
    "grows sharply", weaker than the paper's figure.

    Quick is a smoke test of what full shows (the E23 quick grid: 6 seeds, T = 4000, m in {300, 1000}):
    the same slices and test, near edge m = 300 against m = 1000; it cannot show the trade-off over the
    wider range m = 200-3000 of the full tier.  (m = 400 instead of 300 is cheaper but leaves exactly
    half of the slices significant: too close to the edge of the criterion for a smoke test.)
    """
    ms = _ms(p)
    grid = pareto_grid(ms, p["seeds"], p["steps"], ctx.backend)
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    significant, slices = 0, []
    series = []
    for init in INITS:
        for w in WIDTHS:
            ok = [m for m in ms if int(np.sum(grid[(init, w, m)] >= 0)) >= 3]
            if len(ok) < 2:
                continue
            lo = grid[(init, w, ok[0])]
            hi = grid[(init, w, ok[-1])]
            lo, hi = lo[lo >= 0], hi[hi >= 0]
            alt = "greater" if statement.direction > 0 else "less"
            pval = float(stats.mannwhitneyu(lo, hi, alternative=alt).pvalue)
            significant += pval <= 0.05
            slices.append({"init": init, "width": w, "m": [ok[0], ok[-1]], "median steps": [float(np.median(lo)), float(np.median(hi))], "p": pval})
            med = [float(np.median(grid[(init, w, m)][grid[(init, w, m)] >= 0])) if m in ok else math.nan for m in ms]
            series.append({"x": list(ms), "y": med, "label": f"{init}, width {w}", "style": "o-" if init == "dense" else "s--"})
    ev.add({"slices": slices}, significant, max(1, math.ceil(len(slices) / 2)))
    ev.plots.append({"title": f"median steps to 90% test accuracy, (n,k)=({N},{K}) (successful runs)", "xlabel": "samples m",
                     "ylabel": "median steps", "logx": True, "logy": True, "series": series})
    return ev.verdict(seed=6_400_000, backend=ctx.backend)


# ---------------------------------------------------------------------------------------------
# E26, E27. bookkeeping of the reported tabular results and compute
# ---------------------------------------------------------------------------------------------

#: Table C.2 of the seed (lines 4733-4750): task -> (Best MLP full, 10%, 1%, Best RF full, 10%, 1%,
#: Grinsztajn MLP, RF, best).  Reference numbers as printed; no data set ships with this suite.
TABLE_C2 = {
    1: (24.5, 27.8, 34.2, 22.0, 22.9, 24.8, 22.9, 23.6, 22.5), 2: (18.9, 23.2, 25.1, 15.4, 18.0, 23.0, 23.6, 13.7, 12.8),
    3: (6.3, 13.7, 23.2, 19.1, 18.9, 21.4, 21.6, 17.1, 17.1), 4: (1.4, 4.2, 12.3, 2.1, 4.0, 10.0, 6.3, 1.9, 1.7),
    5: (12.7, 14.9, 20.0, 12.4, 13.9, 17.4, 12.1, 12.0, 11.1), 6: (14.6, 16.5, 23.1, 14.8, 16.8, 21.9, 14.6, 14.5, 13.9),
    7: (20.2, 21.8, 25.9, 19.7, 21.1, 25.2, 20.9, 20.1, 19.5), 8: (7.2, 10.0, 14.4, 7.7, 8.6, 10.5, 6.7, 7.3, 6.2),
    9: (26.1, 28.7, 33.7, 28.5, 28.7, 29.9, 31.4, 29.1, 28.6), 10: (39.9, 43.9, 46.3, 35.8, 43.0, 47.8, 41.8, 34.8, 33.4),
    11: (39.1, 39.3, 40.7, 39.1, 39.4, 40.6, 39.5, 39.5, 39.4), 12: (23.0, 26.1, 28.7, 22.0, 23.8, 27.2, 25.5, 22.7, 22.0),
    13: (28.7, 30.1, 33.5, 28.2, 29.2, 31.9, 28.9, 28.0, 28.0), 14: (19.5, 28.9, 37.6, 22.2, 29.2, 39.8, 23.4, 20.5, 20.5),
    15: (12.2, 14.8, 20.8, 11.2, 13.8, 18.4, 12.9, 10.6, 9.7), 16: (27.1, 28.0, 31.3, 27.8, 28.6, 31.0, 27.8, 28.1, 27.4),
}


@dataclass(frozen=True)
class MlpVsRf:
    """The best MLP beats the best RF in at least ``least`` and at most ``most`` of the 48 settings."""

    least: int
    most: int


@claim(
    id="thesis_ch6.tabular_table_C.2",
    source=SOURCE,
    label="Table C.2",
    entry="E26",
    title="Tabular results (consistency of the text with the printed Table C.2 only, nothing re-run): best MLPs beat tuned RFs in some but not all settings",
    lines=[(1275, 1300), (4667, 4752)],
    printed=MlpVsRf(1, 47),
    mutants=[Mutant("mlp-always-wins", "best MLPs outperform RFs in every setting", MlpVsRf(48, 48)),
             Mutant("mlp-never-wins", "best MLPs outperform RFs in no setting (the table has 14 wins)", MlpVsRf(0, 0),
                    origin="second-reader"),
             Mutant("mlp-wins-majority", "best MLPs outperform RFs in most settings (>= 25 of 48; the table has 14)",
                    MlpVsRf(25, 48), origin="second-reader")],
    parts=[Part("text-vs-table", "'in some (but not all) settings our best MLPs outperform tuned RFs' agrees with the printed "
                "medians of Table C.2 (1 <= #MLP wins <= 47 of 48)"),
           Part("table-values", "the medians of Table C.2 (100 runs per cell, 16 OpenML tasks, 3 data fractions)", asserted=False,
                reason="not re-run: the OpenML data sets do not ship with the suite and the MLP widths 1e4-1e5 need GPUs; "
                "comparing the printed numbers with each other is no reproduction"),
           Part("width-sparsity", "(2T), (3T): wide and sparsely-initialised MLPs improve on narrow / dense ones (Fig. C.3)",
                asserted=False, reason="MLP-vs-MLP numbers of Fig. C.3 are not printed; nothing to compare, nothing re-run")],
    expect=Status.PARTLY_CONFIRMED,
    rigor=Rigor.EXACT,
    kind=Kind.THEOREM,
)
def check_tabular_bookkeeping(statement: MlpVsRf, p, ctx) -> Verdict:
    """Sec. 6.4.2 / App. C.3.3: the tabular findings, as far as the reported numbers allow.

    Statement
    ---------
    "In some settings, our best MLPs outperform tuned random forests" (Fig. 6.3 caption); "In some (but
    not all) cases, these MLPs perform competitively with hyperparameter-tuned random forest classifiers"
    (2T); Table C.2 reports median test errors of the best MLP and best RF at full, 10% and 1% data.

    Source
    ------
    Thesis (seed 004), Table C.2 and Sec. 6.4.2, lines 1275-1300 and 4667-4752.

    Checkable form
    --------------
    Not re-runnable here: the 16 OpenML data sets do not ship with the suite (network access and GPU
    widths 1e4-1e5 would be needed).  What is checked is the bookkeeping: over the 48 (task, fraction)
    settings of Table C.2 (numbers kept verbatim in TABLE_C2), the count of settings where the best MLP
    has a lower median error than the best RF must lie in [least, most].  Further internal-consistency
    facts are recorded in the details (which settings MLP wins; rows whose error is not monotone in the
    data fraction; |our full-data MLP - Grinsztajn MLP|).

    Exactness
    ---------
    Exact comparisons of the printed decimals.

    Mutants
    -------
    "MLPs always win" fails: RF has the lower error in most 1% settings.  Second reader: "never" and
    "in most settings" fail on the exact count 14 of 48 (printed decimals).

    Notes
    -----
    The width and sparse-initialisation findings (2T), (3T) are MLP-vs-MLP comparisons in Fig. C.3, whose
    numbers are not printed; they cannot be checked without the data.
    Second reader (re-judged): the old status "reproduced" overstated this check: it re-runs nothing, it
    compares the text with the printed table.  Now kind theorem with the consistency part asserted and the
    table values (the empirical content) not asserted: partly-confirmed.  With the caption's CI width < 2%,
    the MLP wins by more than 2 points are listed in the details (differences under 2 points are within the
    reported resolution).  No inequality part: the count is an exact predicate on printed numbers.
    """
    wins = [(t, f) for t, row in TABLE_C2.items() for f in range(3) if row[f] < row[3 + f]]
    ev = Evidence("ge", rigor=Rigor.EXACT)
    ev.add({"settings": 48, "MLP wins": len(wins), "least": statement.least, "most": statement.most},
           statement.least <= len(wins) <= statement.most, relation="true")
    ev.details["MLP wins (task, fraction: 0=full, 1=10%, 2=1%)"] = wins
    ev.details["rows not monotone in the data fraction"] = [
        (t, g) for t, row in TABLE_C2.items() for g in (0, 3) if not row[g] <= row[g + 1] <= row[g + 2]]
    ev.details["|full MLP - Grinsztajn MLP| > 2"] = {t: round(abs(row[0] - row[6]), 1) for t, row in TABLE_C2.items() if abs(row[0] - row[6]) > 2}
    ev.details["MLP wins by more than the CI width 2"] = [(t, f) for t, row in TABLE_C2.items() for f in range(3) if row[f] < row[3 + f] - 2]
    return ev.verdict()


@dataclass(frozen=True)
class ComputeBudget:
    """runs x seconds per run = GPU-hours (within the rounding of 'around')."""

    runs: float
    seconds_per_run: float
    gpu_hours: float
    rounding: float = 1.25  # the reading of "around" / "on average" for one-significant-digit numbers (not printed)


@claim(
    id="thesis_ch6.compute_budget",
    source=SOURCE,
    label="App. C.3.4",
    entry="E27",
    title="Compute statement: 2e5 runs x 10 s = 556 GPU-hours, consistent with the reported ~600 (arithmetic only, nothing re-run)",
    lines=[(4754, 4756)],
    printed=ComputeBudget(2e5, 10.0, 600.0),
    mutants=[Mutant("1e5-runs", "1e5 runs", ComputeBudget(1e5, 10.0, 600.0)),
             Mutant("near-700-hours", "700 GPU-hours reported (x 1.167): 700/555.6 = 1.26 > 1.25, beyond the sharpness "
                    "0.864 (600/555.6 = 1.08 of the allowed 1.25)", ComputeBudget(2e5, 10.0, 700.0), near_boundary=True,
                    part="arithmetic", origin="second-reader"),
             Mutant("60-s-per-run", "60 s per run (a minute): 3333 GPU-hours, 5.6x the reported 600",
                    ComputeBudget(2e5, 60.0, 600.0), origin="second-reader")],
    parts=[Part("arithmetic", "around 2e5 runs x 10 s on average ~ 600 GPU-hours (consistent within the rounding of one-digit numbers)",
                inequality=True),
           Part("run-time", "a single T = 1e5 run took 10 s on average (P40/P100/V100/A6000 GPUs, early termination)", asserted=False,
                reason="no logs ship, and re-timing needs the authors' pipeline and GPUs; the E23 grid of this suite reports its own CPU seconds"),
           Part("run-count", "around 2e5 training runs in total", asserted=False, reason="not reconstructible from the printed grids")],
    expect=Status.PARTLY_CONFIRMED,
    rigor=Rigor.EXACT,
    kind=Kind.THEOREM,
)
def check_compute_budget(statement: ComputeBudget, p, ctx) -> Verdict:
    """App. C.3.4: software, compute and resource costs.

    Statement
    ---------
    A single T = 1e5 training run took 10 s on average (early termination); around 2e5 runs were performed
    in a total of 600 GPU-hours.

    Source
    ------
    Thesis (seed 004), App. C.3.4, lines 4754-4756.

    Checkable form
    --------------
    Bookkeeping only (no logs ship): runs x seconds / 3600 must agree with the reported GPU-hours within
    the rounding implied by "around" and "on average", taken as a factor 1.25 either way.  For scale,
    the CPU seconds of this suite's E23 grid are reported by that claim.

    Exactness
    ---------
    Exact arithmetic on the printed numbers; the factor 1.25 is the stated tolerance for one-significant-
    digit quantities (2e5 may mean 1.5e5-2.5e5).

    Mutants
    -------
    1e5 runs give 278 GPU-hours, a factor 2.2 from 600.  Second reader: 700 hours (near-boundary: 700/555.6
    = 1.26 > 1.25) and 60 s per run (3333 hours) fail the same arithmetic.

    Notes
    -----
    Second reader (re-judged): the old status "reproduced" overstated the check, which re-runs nothing; it is
    the internal consistency of three printed numbers.  Now kind theorem, the arithmetic part asserted (with
    the stated reading of "around", field ``rounding``), the run time and run count (the empirical content)
    not asserted: partly-confirmed.  Sharpness of "arithmetic": 1.08/1.25 = 0.864 (the only case).
    """
    hours = statement.runs * statement.seconds_per_run / 3600
    ev = Evidence("le", rigor=Rigor.EXACT)
    ev.add({"runs": statement.runs, "s/run": statement.seconds_per_run, "hours": hours, "reported": statement.gpu_hours},
           max(hours / statement.gpu_hours, statement.gpu_hours / hours), statement.rounding, part="arithmetic")
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# E25. lottery tickets
# ---------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=2)
def lottery_runs(n: int, k: int, big: int, tickets: int, retrains: int, steps: int, backend: str = "cpu") -> dict:
    """Train ``tickets`` sparse width-``big`` nets online, keep the top-5 neurons by final first-layer
    norm, rewind them to their initial weights and retrain with ``retrains`` fresh data seeds each;
    compare with random 2-sparse width-5 nets.  Returns convergence steps and the kept supports."""
    common = {"lr": 0.1, "weight_decay": 0.01, "loss": "hinge", "eval_every": 50, "stop_on_convergence": True, "n_eval": 1000,
                  "target_accuracy": 0.9, "backend": backend}
    seeds = np.arange(tickets, dtype=np.uint64) + np.uint64(6_500_000)
    th0 = sparse_theta0(n, big, seeds, 2)
    res = train_two_layer(n, k, width=big, seeds=seeds, steps=steps, theta0=th0, **common)
    keep = 5
    rewound, supports = [], []
    for a in range(tickets):
        Wf = res.theta[a, : n * big].reshape(n, big)
        top = np.sort(np.argsort(-np.linalg.norm(Wf, axis=0))[:keep])
        W0 = th0[a, : n * big].reshape(n, big)[:, top]
        b0 = th0[a, n * big : n * big + big][top]
        u0 = th0[a, n * big + big : n * big + 2 * big][top]
        rewound.append(np.concatenate([W0.ravel(), b0, u0, th0[a, -1:]]))
        supports.append([tuple(int(i) for i in np.flatnonzero(W0[:, j])) for j in range(keep)])
    rw = np.repeat(np.stack(rewound), retrains, axis=0)
    data_seeds = np.arange(tickets * retrains, dtype=np.uint64) + np.uint64(6_600_000)
    r1 = train_two_layer(n, k, width=keep, seeds=data_seeds, steps=steps, theta0=rw, **common)
    r2 = train_two_layer(n, k, width=keep, seeds=data_seeds, steps=steps,
                         theta0=sparse_theta0(n, keep, data_seeds + np.uint64(10**6), 2), **common)
    return {"big": res.converged_at.copy(), "rewound": r1.converged_at.copy(), "random": r2.converged_at.copy(),
            "supports": supports}


@dataclass(frozen=True)
class LotteryTicket:
    """direction = +1: rewound top-5 tickets succeed more often than random 5-neuron nets."""

    direction: int


@claim(
    id="thesis_ch6.lottery_ticket_experiment",
    figure="Figure C.2",
    source=SOURCE,
    label="Figure C.2",
    entry="E25",
    title="Lottery tickets: the top-5 neurons of a sparse wide net, rewound to init, relearn the parity; random 5-neuron nets mostly fail",
    lines=[(4656, 4665)],
    printed=LotteryTicket(+1),
    mutants=[Mutant("random-as-good", "random 5-neuron re-initialisations succeed at least as often", LotteryTicket(-1))],
    parts=[Part("tickets", "the top-5 neurons, rewound to their initialisation, relearn the parity more often than random "
                "5-neuron nets"),
           Part("random-mostly-fail", "random re-initialisations of a 5-neuron net mostly fail", asserted=False,
                reason="recorded (successes in the case), not tested: 'mostly' has no threshold in the text"),
           Part("paper-scale", "(n, k) = (50, 5), width 100, online", asserted=False,
                reason="quick/full run (20, 4); only the gpu tier runs (50, 5)")],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[Param("n", int, 10, 60, doc="input dimension"), Param("k", int, 2, 6, doc="parity degree"),
            Param("tickets", int, 2, 100, doc="wide runs (tickets)"), Param("retrains", int, 1, 20, doc="retrains per ticket"),
            Param("steps", int, 100, 100_000, doc="SGD steps per run")],
    tiers={"quick": {"n": 20, "k": 4, "tickets": 6, "retrains": 3, "steps": 3000},
           "full": {"n": 20, "k": 4, "tickets": 10, "retrains": 4, "steps": 6000},
           "gpu": {"n": 50, "k": 5, "tickets": 20, "retrains": 5, "steps": 100_000}},
    uses_backend=True,
)
def check_lottery_ticket(statement: LotteryTicket, p, ctx) -> Verdict:
    """Figure C.2: the lottery-ticket mechanism of sparse initialisation (App. C.3.2).

    Statement
    ---------
    Width-100 MLP, online (n, k) = (50, 5) sparse parity, each hidden neuron initialised with 2 non-zero
    incoming weights; after training keep the top-5 neurons by final weight norm; rewound to their
    initialisation and retrained (different SGD seeds) they learn quickly, while random re-initialisations
    of a 5-neuron net mostly fail.

    Source
    ------
    Thesis (seed 004), Figure C.2, App. C.3.2, lines 4656-4665.

    Checkable form
    --------------
    CPU size (n, k) = (20, 4) online, width 100, 2-sparse init (kernels.training.pareto_init), batch 32, lr 0.1,
    wd 0.01, hinge, success = 90% held-out accuracy within ``steps``: ``tickets`` wide runs; the top-5
    neurons (first-layer norm) rewound and retrained ``retrains`` times each; as many random 2-sparse
    width-5 nets on the same data seeds.  One-sided Fisher exact test that rewound tickets succeed more
    often (direction +1; less often for -1): p <= 0.05.  Also recorded: the fraction of kept neurons whose
    initial support lies inside S (good under-sparse neurons) against the base rate C(k,2)/C(n,2).

    Exactness
    ---------
    Statistical, seeds 6500000+ (wide runs), 6600000+ (retrains), 7600000+ (random nets).

    Mutants
    -------
    "Random re-initialisation does as well" fails the same test in the other direction.

    Notes
    -----
    Second reader: no new false variant argued independently of the data (empirical claim).

    Quick is a smoke test of what full shows: the same protocol and test at (n, k) = (20, 4) with 6 tickets x 3
    retrains and a budget of T = 3000 steps per run (full: 10 x 4, T = 6000).  Rewound and random nets share the
    budget, so the comparison stays fair: every wide run succeeds (the slowest at 2250 steps), rewound 15/18
    against random 3/18, Fisher p = 7.6e-5 <= 0.05 (at T = 4000: 16/18 against 7/18, p = 2.3e-3), and the mutant
    random-as-good is rejected (p = 1.0 > 0.05).  It cannot show the larger sample or the longer budget of the
    full tier, at which random nets have time to succeed more often.
    """
    out = lottery_runs(p["n"], p["k"], 100, p["tickets"], p["retrains"], p["steps"], ctx.backend)
    ok_big = out["big"] >= 0
    rew = out["rewound"].reshape(p["tickets"], p["retrains"])[ok_big].ravel()
    rnd = out["random"].reshape(p["tickets"], p["retrains"])[ok_big].ravel()
    a, b, N_ = int(np.sum(rnd >= 0)), int(np.sum(rew >= 0)), rew.size
    ev = Evidence("le", rigor=Rigor.STATISTICAL)
    ev.add({"wide runs": p["tickets"], "wide successes": int(ok_big.sum()), "check": "some wide run succeeds"}, int(ok_big.sum()), 1, relation="ge")
    if N_:
        pval = _fisher_less(b, N_, a, N_) if statement.direction > 0 else _fisher_less(a, N_, b, N_)
        ev.add({"rewound successes": b, "random successes": a, "runs each": N_,
                "median steps rewound": float(np.median(rew[rew >= 0])) if b else None,
                "median steps random": float(np.median(rnd[rnd >= 0])) if a else None}, pval, 0.05)
    S = set(range(p["k"]))
    kept = [sup for a_, sups in enumerate(out["supports"]) if ok_big[a_] for sup in sups]
    ev.details["kept neurons with support inside S"] = f"{sum(set(s_) <= S for s_ in kept)}/{len(kept)}"
    ev.details["base rate C(k,2)/C(n,2)"] = comb(p["k"], 2) / comb(p["n"], 2)
    return ev.verdict(seed=6_500_000, backend=ctx.backend)
