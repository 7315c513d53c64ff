"""Fig 4.2 (E33), Transformer side: the sample-complexity threshold of a small trained attention model
on a 3-sparse AND, as the context length T grows, next to the identifiability baseline.

The companion claim ``thesis_ch4.fig_4.2`` (module ``sample_complexity``) measures only the
information-theoretic threshold (brute-force ERM).  Here the learner is the single-head [CLS]
attention classifier of kernels.training.attention (trainable token + positional embeddings, init
N(0, 0.02^2) as minGPT, full-batch AdamW, logistic loss; backward checked against finite differences
in tests/kernels/test_attention.py), trained for real on every cell.

Protocol (seed 004, App. A.3.1, lines 2905-2923, reduced to CPU sizes):

* One trial = a uniformly random hidden set I (|I| = 3) of the T positions, one stream of m_max
  training samples x ~ Bern(p)^T with p = (1/2)^(1/3) (balanced labels), y = AND over I, and n_val
  fresh validation samples.  Training sets are the prefixes of the stream.
* Training on the prefix of length m: ``restarts`` fresh initialisations (one numba call, runs in
  parallel), ``steps`` full-batch AdamW steps (lr 1e-2, weight decay 1e-4, d = k).  The prefix
  *succeeds* if some restart ends with validation accuracy > 0.99 (the paper's criterion, but on the
  final iterate instead of the best of the checkpoints every 10 steps, so ours is slightly stricter).
* m*(trial) = the smallest m in the grid {4, 6, 8, ..., m_max} at which the prefix succeeds, found by
  bisection (this assumes success is monotone along prefixes, like identifiability is; m_max + 2 if the
  full stream fails).  The threshold m_80(T) = the empirical 0.8-quantile of m* over the trials (the
  paper's "success on >= 80% of trials"), with the distribution-free 95% order-statistic interval of
  ``sample_complexity.quantile_ci``.
* Deviations from the paper, stated: one head, d = k = 8 instead of 16 heads of d = 64 (no MLP,
  dropout or GeLU), lr 1e-2 and 150-200 steps instead of lr 1e-3 and 1000 steps, no rejection of
  non-identifiable training sets (a prefix that is not identifiable succeeds only by luck), 6-24
  trials instead of 40, T in {8, ..., 64} instead of {100, ..., 1100}.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from kernels.training.attention import (
    forward_reference,
    init_params,
    make_shapes,
    train_attention,
)

from ..registry import Part, Evidence, Kind, Mutant, Param, Rigor, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True
from .sample_complexity import P_BIT, _trials, quantile_ci

LR = 1e-2
WEIGHT_DECAY = 1e-4
SUCCESS_ACC = 0.99
MODELS = {"log": np.log, "sqrt": np.sqrt, "linear": lambda T: np.asarray(T, dtype=float)}


def trial_data(seed: int, T: int, m_max: int, n_val: int, s: int = 3):
    """(I, B, y, Bv, yv): hidden set, training stream (m_max, T), validation set (n_val, T); y = +-1."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    I = np.sort(rng.choice(T, size=s, replace=False))
    B = (rng.random((m_max, T)) < P_BIT).astype(np.int64)
    Bv = (rng.random((n_val, T)) < P_BIT).astype(np.int64)
    return I, B, np.where(B[:, I].all(axis=1), 1.0, -1.0), Bv, np.where(Bv[:, I].all(axis=1), 1.0, -1.0)


def prefix_accuracy(seed: int, T: int, d: int, m: int, data, restarts: int, steps: int) -> float:
    """Best validation accuracy over ``restarts`` runs trained on the first m samples of the stream."""
    _, B, y, Bv, yv = data
    shp = make_shapes(T, d, d)
    theta0 = init_params(T, d, d, [seed * 1000 + m * 10 + r for r in range(restarts)])
    theta, _ = train_attention(theta0, shp, B[:m], y[:m], steps, lr=LR, weight_decay=WEIGHT_DECAY)
    return max(float(np.mean(np.sign(forward_reference(theta[r], shp, Bv)[0]) == yv)) for r in range(restarts))


def first_success(seed: int, T: int, d: int, m_max: int, restarts: int, steps: int, n_val: int = 2000) -> tuple[int, int]:
    """(m*, trainings used) of one trial: bisection over the even grid 4..m_max (module docstring)."""
    data = trial_data(seed, T, m_max, n_val)
    grid = list(range(4, m_max + 1, 2))
    ok = functools.lru_cache(maxsize=None)(lambda i: prefix_accuracy(seed, T, d, grid[i], data, restarts, steps) > SUCCESS_ACC)
    if not ok(len(grid) - 1):
        return m_max + 2, 1
    lo, hi = -1, len(grid) - 1  # fails at lo (grid[-1] := 2 samples, never enough), succeeds at hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return grid[hi], ok.cache_info().currsize


def _transformer_trials(seed: int, T: int, d: int, m_max: int, restarts: int, steps: int, trials: int) -> tuple[np.ndarray, int]:
    """(sorted m* of ``trials`` trials, number of trainings run)."""
    out = [first_success(seed * 100_003 + j, T, d, m_max, restarts, steps) for j in range(trials)]
    return np.sort([o[0] for o in out]), sum(o[1] for o in out)


def fit_sse(Ts, m, model: str) -> tuple[float, float, float]:
    """(a, b, SSE) of the least-squares fit m = a + b h(T), h = MODELS[model]."""
    A = np.c_[np.ones(len(Ts)), MODELS[model](np.asarray(Ts, dtype=float))]
    coef, *_ = np.linalg.lstsq(A, np.asarray(m, dtype=float), rcond=None)
    res = np.asarray(m, dtype=float) - A @ coef
    return float(coef[0]), float(coef[1]), float(res @ res)


def power_exponent(Ts, m) -> float:
    """alpha of the least-squares power law ln m = ln c + alpha ln T, rounded to 12 decimals (so that
    equal thresholds give exactly 0, not a polyfit rounding residue of +-1e-15; + 0.0 turns -0.0 into 0.0)."""
    return round(float(np.polyfit(np.log(np.asarray(Ts, dtype=float)), np.log(np.asarray(m, dtype=float)), 1)[0]), 12) + 0.0


def bootstrap_fits(rng, samples: list[np.ndarray], Ts, q: float = 0.8, reps: int = 400) -> dict:
    """Bootstrap over trials (resampled within each T): thresholds -> power exponent and the preferred
    offset family (smallest SSE among MODELS); returns the 95% percentile interval of alpha and the
    fraction of replicates each family wins."""
    alphas, wins = [], {k: 0 for k in MODELS}
    fits: dict = {}  # thresholds -> (alpha, winning family): replicates repeat threshold vectors (the same numbers)
    for _ in range(reps):
        thr = [float(np.sort(rng.choice(s, size=len(s)))[int(np.ceil(q * len(s))) - 1]) for s in samples]
        key = tuple(thr)
        if key not in fits:
            fits[key] = (power_exponent(Ts, thr), min(MODELS, key=lambda k: fit_sse(Ts, thr, k)[2]))
        alphas.append(fits[key][0])
        wins[fits[key][1]] += 1
    lo, hi = np.quantile(alphas, [0.025, 0.975])
    return {"alpha_ci95": (float(lo), float(hi)), "win_fraction": {k: v / reps for k, v in wins.items()}}


@functools.lru_cache(maxsize=8)
def _experiment(seeds: tuple, Ts: tuple, d: int, m_max: int, restarts: int, steps: int, trials: int, boot_seed: int,
                base_trials: int = 200) -> dict:
    """All measurements of one tier (cached: the printed statement and the mutants share them)."""
    out = {"T": list(Ts), "m80": [], "ci": [], "samples": [], "base": [], "base_ci": [], "trainings": 0}
    for T, (s_tr, s_id) in zip(Ts, seeds):
        ms, n_train = _transformer_trials(s_tr, T, d, m_max, restarts, steps, trials)
        q, lo, hi = quantile_ci(ms, 0.8)
        bq, blo, bhi = quantile_ci(_trials(s_id, T, 120, base_trials), 0.8)
        out["trainings"] += n_train
        out["samples"].append(ms)
        out["m80"].append(q)
        out["ci"].append((lo, hi))
        out["base"].append(bq)
        out["base_ci"].append((blo, bhi))
    out["alpha"] = power_exponent(Ts, out["m80"])
    out["fits"] = {k: dict(zip(("a", "b", "sse"), fit_sse(Ts, out["m80"], k))) for k in MODELS}
    out["bootstrap"] = bootstrap_fits(np.random.default_rng(np.random.SeedSequence(boot_seed)), out["samples"], Ts)
    return out


@dataclass(frozen=True)
class TransformerGrowthStatement:
    model: str = "log"  # "log": m_80 = a + b ln T; "power": m_80 = c T^exponent
    exponent: float = 0.0  # for model "power" (the mutants)
    min_win_fraction: float = 0.8  # log: preferred offset family in >= this fraction of bootstrap replicates
    max_alpha: float = 0.5  # log: upper 95% bootstrap bound of the power exponent below this ("not polynomially")


@claim(
    id="thesis_ch4.fig_4.2.transformer",
    figure="Figure 4.2",
    source=SOURCE,
    label="Figure 4.2",
    entry="E33",
    title="Trained single-head Transformer: 3-sparse-AND sample-complexity threshold vs T (log T claim)",
    lines=[(793, 813), (2905, 2923)],
    printed=TransformerGrowthStatement(),
    mutants=[
        Mutant("linear-in-T", "the threshold is proportional to T (power law, exponent 1)", TransformerGrowthStatement(model="power", exponent=1.0)),
        Mutant("sqrt-T", "the threshold is proportional to sqrt T (power law, exponent 1/2)",
               TransformerGrowthStatement(model="power", exponent=0.5)),
    ],
    parts=[
        Part("log-T", "the trained 1-layer Transformer's threshold m_80(T) scales logarithmically with T (read: log family "
             "preferred in >= 80% of bootstrap replicates and the power exponent's upper 95% bound < 1/2)"),
        Part("growth", "the threshold is found within m_max and grows with T (lower 95% bound of the power exponent > 0)"),
    ],
    expect=Status.NOT_REPRODUCED,
    kind=Kind.EMPIRICAL,
    rigor=Rigor.STATISTICAL,
    params=[Param("T_max", int, 16, 1024), Param("trials", int, 4, 200), Param("restarts", int, 1, 16),
            Param("steps", int, 20, 5000), Param("d", int, 2, 64), Param("m_max", int, 16, 400)],
    tiers={"quick": {"T_max": 32, "trials": 6, "restarts": 1, "steps": 100, "d": 8, "m_max": 64},
           "full": {"T_max": 64, "trials": 24, "restarts": 1, "steps": 200, "d": 8, "m_max": 80},
           "gpu": {"T_max": 256, "trials": 40, "restarts": 2, "steps": 400, "d": 8, "m_max": 128}},
)
def check_fig_4_2_transformer(statement: TransformerGrowthStatement, p, ctx) -> Verdict:
    """Fig 4.2: the sample complexity of a trained 1-layer Transformer on a 3-sparse AND grows like log T.

    Statement
    ---------
    "We measure the smallest sample size m necessary to reach 100% validation accuracy on >= 80% of
    random trials.  We find that this threshold scales logarithmically with T" (Fig 4.2 caption), for a
    1-layer Transformer trained with Adam on a 3-sparse AND of T Bernoulli((1/2)^(1/3)) bits.

    Source
    ------
    Seed 004, Figure 4.2 and Sec 4.6, lines 793-813; App. A.3.1, lines 2905-2923.

    Checkable form
    --------------
    Reduced re-run (module docstring): m_80(T) of the trained single-head model for T = 8, 16, 32
    (quick), 8, ..., 64 (full) or 8, ..., 256 (gpu), ``trials`` trials per T, with 95% order-statistic intervals; the
    trials are bootstrapped (400 replicates, resampled within each T) for the fit statistics.  Criteria:

    * every statement: m_80 is found within m_max, and the threshold grows: the lower 95% bootstrap
      bound of the power-law exponent alpha (least squares of ln m_80 on ln T) is > 0;
    * "log T" (printed), two parts.  (i) Model selection among the three two-parameter offset
      families a + b ln T, a + b sqrt T, a + b T: with equal parameter counts the smallest residual
      sum of squares is the maximum-likelihood (= AIC/BIC) choice; the log family must be the choice
      in >= 80% of the bootstrap replicates (a decisive preference; 50% would be a coin flip between
      families).  (ii) "Not polynomially": the upper 95% bootstrap bound of alpha is < 1/2;
    * a power law "m_80 proportional to T^beta" (the mutants): beta lies in the 95% bootstrap
      interval of alpha.

    Outcome, NOT reproduced at CPU sizes (seeded, bit-reproducible numbers in details).  Full tier
    (24 trials, 1 restart, 200 steps): m_80 = 28, 36, 42, 46 at T = 8, 16, 32, 64 (95% CIs [20, 36],
    [26, 54], [30, 54], [40, 82]), next to the identifiability baseline 19, 22, 25, 29 (ratio
    1.5-1.7; the paper's Transformer is ~2x at T = 300).  alpha = 0.24, bootstrap interval
    [0.12, 0.41]: the threshold grows, slower than proportional to sqrt T.  The log family fits the
    point estimates best (SSE 4.0 vs 16.0 for a + b sqrt T and 32.5 for a + b T) but not decisively:
    it wins in 0.69 of the bootstrap replicates (sqrt 0.11, linear 0.21) < 0.8.  Quick tier (a smoke
    test of the full tier's protocol: T = 8, 16, 32, 6 trials, 100 steps, identifiability baseline
    from 50 trials instead of 200; it exercises every criterion and rejects both mutants, but cannot
    show growth or decide the shape; the full tier asserts them at T up to 64 with 24 trials): m_80 =
    24, 36, 28 (no significant growth: alpha in [0, 0.32]), SSE 66.7 / 70.6 / 73.1 and win fractions
    0.595 / 0.01 / 0.395.  With 8 trials (the earlier quick setting, a quarter more time) m_80 = 26,
    36, 28, the same bootstrap interval [0, 0.32] (so the same mutant margins) and win fractions
    0.60 / 0.01 / 0.40; 100 steps give the same m* in every trial as 150 steps; with T = 64 added
    (about twice the time): m_80 = 26, 36, 28, 40, win fractions 0.47 / 0.01 / 0.52 (8 trials, 150 steps).  The outcome is fragile in the trial
    count (full with 20 trials and 2 restarts gave win fractions 0.57 / 0.14 / 0.30, with 30 trials
    and 2 restarts 0.25 / 0.04 / 0.71): at T <= 64 and <= 30 trials the order-statistic noise of
    m_80 (CI widths 10-40 samples) swamps the difference between ln T and an offset power over a
    factor-8 range of T.  So the log-T *shape* is not
    established at the sizes a CPU tier affords (within 60 s).  The gpu tier (T up to 256, 40 trials,
    2 restarts, 400 steps; the trainer is the numba CPU kernel, so this tier is meant for a many-core
    device machine: ~5 * 10^3 trainings, estimated minutes on 16 cores) is where the shape can be
    tested; it was not run here (no device lent to this task).

    Exactness
    ---------
    Statistical: seeded training runs (CPU results reproducible bit for bit); success uses 2000
    validation samples (0.99 is 4.5 standard errors below 0.999).  The order-statistic intervals at
    6-24 trials are several grid steps wide; the bootstrap carries this noise into every criterion
    (no fixed tolerance is added).

    Mutants
    -------
    m_80 proportional to T (beta = 1) and to sqrt T (beta = 1/2): rejected, beta lies above the
    bootstrap interval of alpha (full: upper bound 0.41; quick: 0.32; at quick the shared growth
    criterion fails as well, alpha's lower bound being 0).
    """
    Ts = tuple(T for T in (8, 16, 32, 64, 128, 256, 512, 1024) if T <= p["T_max"])
    seeds = tuple((ctx.seed(f"transformer-T{T}"), ctx.seed(f"identifiability-T{T}")) for T in Ts)
    # identifiability baseline (details and plot only, no criterion): 200 trials, 50 at the quick tier
    base_trials = 50 if ctx.tier == "quick" else 200
    r = _experiment(seeds, Ts, p["d"], p["m_max"], p["restarts"], p["steps"], p["trials"], ctx.seed("bootstrap"), base_trials)
    ev = Evidence("le", rigor=Rigor.STATISTICAL)
    for T, q, ci in zip(Ts, r["m80"], r["ci"]):
        ev.add({"T": T, "part": "Transformer threshold m_80 found within m_max", "ci95": ci}, q, p["m_max"])
    a_lo, a_hi = r["bootstrap"]["alpha_ci95"]
    ev.add({"part": "growth: lower 95% bootstrap bound of the power exponent > 0", "alpha": round(r["alpha"], 4)}, a_lo, 0.0,
           relation="gt")
    if statement.model == "log":
        wins = r["bootstrap"]["win_fraction"]
        ev.add({"part": f"log family preferred (least SSE) in >= {statement.min_win_fraction} of bootstrap replicates",
                "win_fractions": wins, "sse": {k: round(v["sse"], 3) for k, v in r["fits"].items()}},
               wins["log"], statement.min_win_fraction, relation="ge")
        ev.add({"part": f"not polynomially: upper 95% bootstrap bound of alpha < {statement.max_alpha}"}, a_hi, statement.max_alpha,
               relation="lt")
    else:
        ev.add({"part": f"power law T^{statement.exponent}: exponent >= lower 95% bootstrap bound of alpha"}, a_lo,
               statement.exponent)
        ev.add({"part": f"power law T^{statement.exponent}: exponent <= upper 95% bootstrap bound of alpha"}, statement.exponent,
               a_hi)
    ev.details.update(T=list(Ts), transformer_m80=dict(zip(Ts, r["m80"])), transformer_ci95=dict(zip(Ts, r["ci"])),
                      identifiability_m80=dict(zip(Ts, r["base"])), identifiability_ci95=dict(zip(Ts, r["base_ci"])),
                      ratio_to_identifiability={T: round(q / b, 3) for T, q, b in zip(Ts, r["m80"], r["base"])},
                      power_exponent=r["alpha"], bootstrap=r["bootstrap"], fits=r["fits"], trainings=r["trainings"],
                      m_star={T: s.tolist() for T, s in zip(Ts, r["samples"])})
    grid = np.geomspace(Ts[0], Ts[-1], 30)
    fl = r["fits"]["log"]
    c = float(np.exp(np.mean(np.log(r["m80"])) - r["alpha"] * np.mean(np.log(Ts))))
    ev.plots.append({
        "title": "3-sparse AND: threshold m_80 vs T, single head vs identifiability",
        "xlabel": "T (context length)", "ylabel": "samples m", "logx": True, "logy": False,
        "series": [
            {"x": list(Ts), "y": r["m80"], "label": f"single-head Transformer m_80 ({p['trials']} trials)", "style": "-o"},
            {"x": list(Ts), "y": [ci[0] for ci in r["ci"]], "label": "Transformer 95% CI lower", "style": ":"},
            {"x": list(Ts), "y": [ci[1] for ci in r["ci"]], "label": "Transformer 95% CI upper", "style": ":"},
            {"x": grid.tolist(), "y": (fl["a"] + fl["b"] * np.log(grid)).tolist(), "label": "fit a + b ln T", "style": "--"},
            {"x": grid.tolist(), "y": (r["fits"]["linear"]["a"] + r["fits"]["linear"]["b"] * grid).tolist(), "label": "fit a + b T",
             "style": "--"},
            {"x": grid.tolist(), "y": (c * grid ** r["alpha"]).tolist(), "label": f"power-law fit c T^{r['alpha']:.2f}", "style": "-."},
            {"x": list(Ts), "y": r["base"], "label": f"identifiability m_80 (brute-force ERM, {base_trials} trials)", "style": "-s"},
        ],
    })
    return ev.verdict(seed=ctx.seed("transformer-T8"))
