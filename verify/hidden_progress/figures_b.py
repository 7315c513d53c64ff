"""Figure re-runs of thesis ch. 5 / App. B (seed 004): noisy parities (Fig. B.12, E27) and the black-box
observations of Fig. 5.2 (left: convergence-time histograms over many trials; center: dependence on the
initialisation, not on the SGD samples) (E30).

Every run is a real online-SGD run of the batched engine ``kernels.training.train_two_layer`` (two-layer
ReLU network f(x) = sum_j u_j relu(<w_j, x> + b_j) + c, hinge loss, constant-rate SGD, torch.nn.Linear's
default uniform initialisation, a fresh batch of B uniform x in {+-1}^n every step, S = {1, ..., k}).  The
engine takes label noise (``label_noise``: training labels flipped independently with probability p,
held-out labels clean), so Fig. B.12's "accuracy on the noiseless distribution" is its held-out accuracy,
and it takes explicit initial parameters (``theta0``), so that one initialisation can be trained on several
independent data streams (Fig. 5.2 center).  Arithmetic float32 (torch's default).

Caching: each claim's trainings are a module-level ``functools.lru_cache`` function of hashable arguments
(seeds from the claim's named streams, ``Context.seed``), so the printed statement and the mutants read the
same runs.  Large seed counts train in seed blocks through ``Context.map`` (verify/blocks.py): a block is a
task of its own on a cluster, and run r depends on its seed alone.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import numpy as np

from kernels.training import train_two_layer
from kernels.training.two_layer import init_two_layer

from ..blocks import seed_blocks
from ..plotdata import forward_fill as _ffill, thin_curve
from ..registry import Context, Evidence, InvalidParameter, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE
from .recovery import clopper_pearson

CONTRACT_AUDITED = True

#: one-sided confidence of the Clopper-Pearson bounds of this module
CP_CONFIDENCE = 0.99


def _seeds(root: int, count: int) -> np.ndarray:
    """``count`` independent 64-bit run seeds from one root seed (prefix-stable in ``count``)."""
    return np.random.SeedSequence(root).generate_state(count, dtype=np.uint64)


def _floats(claim_id: str, name: str, text: str, lo: float, hi: float) -> tuple[float, ...]:
    try:
        vals = tuple(float(v) for v in str(text).split(",") if v.strip())
    except ValueError:
        raise InvalidParameter(f"{claim_id}: argument '{name}' must be comma-separated numbers, not {text!r}") from None
    if not vals or any(not lo <= v <= hi for v in vals) or len(set(vals)) != len(vals):
        raise InvalidParameter(f"{claim_id}: argument '{name}' must list distinct numbers in [{lo}, {hi}], not {text!r}")
    return tuple(sorted(vals))



# ---------------------------------------------------------------------------------------------
# Figure B.12: noisy (n, 3, eps)-parities, width-100 ReLU MLP, 5 seeds, eta = 0.1, various B
# ---------------------------------------------------------------------------------------------

B12_ID = "thesis_ch5.figure_B.12"


@dataclass(frozen=True)
class NoisyCell:
    tc: np.ndarray  # (seeds,) first evaluation step with 100% clean held-out accuracy, +inf if none
    steps: np.ndarray  # (C,) record steps
    acc: np.ndarray  # (seeds, C) clean held-out accuracy (NaN after the run stopped)
    max_acc: np.ndarray  # (seeds,)


@functools.lru_cache(maxsize=64)
def _noisy_cell(root: int, n: int, k: int, width: int, lr: float, batch: int, noise: float, seeds: int, steps: int,
                eval_every: int, n_eval: int, backend: str) -> NoisyCell:
    """One (B, p) cell of Fig. B.12: ``seeds`` runs, stopped at 100% clean held-out accuracy (or the cap)."""
    res = train_two_layer(n, k, width=width, seeds=_seeds(root, seeds), steps=steps, batch=batch, lr=lr, loss="hinge",
                          init="uniform", label_noise=noise, eval_every=eval_every, n_eval=n_eval, target_accuracy=1.0,
                          stop_on_convergence=noise < 0.5, record_every=eval_every, dtype="float32", backend=backend)
    tc = np.where(res.converged_at >= 0, res.converged_at, np.inf).astype(np.float64)
    with np.errstate(all="ignore"):
        mx = np.nanmax(np.where(np.isnan(res.eval_accuracy), -np.inf, res.eval_accuracy), axis=1)
    return NoisyCell(tc, res.record_steps, res.eval_accuracy, mx)


@dataclass(frozen=True)
class NoisyStatement:
    """Fig. B.12 read as: (a) every cell with p < 1/2 is learned (median t_c finite); (b) the median t_c grows
    with p at each B by at least the factor ``slow_min`` per noise step (printed: > 1, "the scale of t is much
    larger for ... high noise"); ``slow_max``: a mutant's upper bound on t_c(p_max)/t_c(0); (c) smaller batches
    need more steps at each p; (d) at p = 1/2 (eps = 0, "S cannot be learned") no seed's clean accuracy
    exceeds ``control_max``; ``control_learned``: a mutant claiming the p = 1/2 control is learned."""

    text: str
    slow_min: float = 1.0
    slow_max: float | None = None
    control_max: float = 0.75
    control_learned: bool = False
    #: the threshold of (b) is slow_min * eps_i / eps_(i+1) (eps = 1 - 2p) instead of slow_min
    per_eps: bool = False


_B12_PRINTED = NoisyStatement("Fig. B.12: noisy (n, 3, eps)-parities are learned (clean accuracy 100%); t grows with "
                              "the noise and for small batches; labels independent of x (eps = 0) are not learned")


@claim(
    id=B12_ID,
    figure="Figure B.12",
    source=SOURCE,
    label="Figure B.12",
    entry="E27",
    title="Width-100 ReLU MLPs learn noisy (n,3,eps)-parities (100% clean accuracy); the time grows with the noise "
          "and for small batches",
    lines=[(3799, 3816)],
    printed=_B12_PRINTED,
    parts=[
        Part("learned", "'The models learn the features and converge successfully (measured by accuracy on the noiseless "
             "distribution)' (caption): criterion (a)"),
        Part("noise_slowdown", "'the scale of t is much larger for ... high noise' (caption): criterion (b), median t_c "
             "increasing in p at each B", inequality=True),
        Part("batch_slowdown", "'the scale of t is much larger for small batches' (caption): criterion (c)"),
        Part("control", "eps = 0: 'the labels are completely random (thus, S cannot be learned)' (line 3802): "
             "criterion (d)"),
        Part("eps_0.01", "'even with 49% of labels flipped randomly (i.e. eps = 0.01)'", asserted=False,
             reason="p = 0.45 and 0.49 only in the gpu tier (noise levels '0,0.2,0.4,0.45,0.49', cap 10^6 steps): at "
                    "p = 0.49 the drift of the population gradient is 1/50 of the noiseless one and the runs take "
                    "more steps than the full tier's CPU budget"),
        Part("n_50", "the caption's (50, 3, eps) at B in a 'various' range", asserted=False,
             reason="the full tier runs n = 50 with B in {8, 32}; larger batches (B = 128, 1024) only in the gpu tier "
                    "(a width-100 step at B = 256 costs ~10x a B = 32 step on this machine); quick runs n = 20"),
    ],
    mutants=[
        Mutant("noise-free-speed", "label noise does not slow SGD: t_c(p_max) <= 1.2 t_c(0) at every B",
               replace(_B12_PRINTED, text="t_c(p_max) <= 1.2 t_c(0)", slow_max=1.2)),
        Mutant("random-labels-learned", "labels independent of x (p = 1/2) are learned too (clean accuracy > 0.75)",
               replace(_B12_PRINTED, text="p = 1/2 learned", control_learned=True)),
        Mutant("slowdown-near-boundary", "each noise step slows the median t_c by at least 1.2 x the drop of the "
               "signal eps = 1 - 2p (t_c grows 20% faster than 1/eps): the smallest measured factor over eps_i/eps_(i+1) "
               "is 1.13 at the full tier (B = 32, p 0 -> 0.2: 1.88 against 1/0.6) and 1.16 at the quick tier "
               "(B = 32, p 0 -> 0.3: 2.94 against 2.5)",
               replace(_B12_PRINTED, text="factor >= 1.2 eps_i/eps_(i+1) per noise step", slow_min=1.2, per_eps=True),
               near_boundary=True, part="noise_slowdown"),
    ],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[
        Param("n", int, 6, 64, doc="input dimension (the caption: 50)"),
        Param("width", int, 1, 10_000, doc="hidden units (100)"),
        Param("lr", float, 1e-4, 10.0, doc="SGD rate (0.1)"),
        Param("batches", str, doc="comma-separated batch sizes"),
        Param("noises", str, doc="comma-separated flip probabilities p in [0, 0.5) (eps = 1 - 2p)"),
        Param("seeds", int, 1, 1000, doc="runs per cell (the caption: 5)"),
        Param("steps", int, 100, 10_000_000, doc="cap per run"),
        Param("control_steps", int, 10, 10_000_000, doc="steps of the p = 1/2 control runs"),
        Param("eval_every", int, 1, 10_000, doc="clean held-out evaluation stride"),
        Param("n_eval", int, 128, 65_536, doc="clean held-out samples"),
    ],
    tiers={"quick": {"n": 16, "width": 100, "lr": 0.1, "batches": "4,32", "noises": "0,0.3", "seeds": 3,
                     "steps": 20_000, "control_steps": 500, "eval_every": 10, "n_eval": 1024},
           "full": {"n": 50, "width": 100, "lr": 0.1, "batches": "8,32", "noises": "0,0.2,0.4", "seeds": 5,
                    "steps": 100_000, "control_steps": 20_000, "eval_every": 50, "n_eval": 1024},
           "gpu": {"n": 50, "width": 100, "lr": 0.1, "batches": "8,32,128,1024", "noises": "0,0.2,0.4,0.45,0.49",
                   "seeds": 5, "steps": 1_000_000, "control_steps": 100_000, "eval_every": 100, "n_eval": 8192}},
)
def check_figure_b12(st: NoisyStatement, p, ctx) -> Verdict:
    """Figure B.12: training curves of width-100 ReLU MLPs on noisy (50, 3, eps)-parities.

    Statement
    ---------
    "Training curves (over 5 random seeds) for a width-100 ReLU MLP on noisy (50, 3, eps)-parity learning
    problems at various batch sizes B and noise levels (flipping labels with probability p, so that
    eps = 1 - 2p).  The models learn the features and converge successfully (measured by accuracy on the
    noiseless distribution), even with 49% of labels flipped randomly (i.e. eps = 0.01).  ...  Note that the
    scale of t is much larger for small batches and high noise."  Setting (B.3.6): eta = 0.1; "with a
    constant learning rate (here, eta = 0.1) and label noise, the iterates of SGD do not always converge to
    100% accurate solutions."  (The eps convention conflict is thesis_ch5.noisy_parity's erratum; here
    only p matters.)

    Source
    ------
    Seed 004, App. B.3.6, lines 3799-3816 (Figure B.12 caption, lines 3813-3814).  Catalog entry E27.

    Checkable form
    --------------
    Width-``width`` ReLU MLP, hinge loss, uniform (torch) init, SGD at rate ``lr``, (n, 3)-parity with
    training labels flipped w.p. p; ``seeds`` runs per cell (B in ``batches``, p in ``noises``), t_c = first
    evaluation (every ``eval_every`` steps) with 100% accuracy on ``n_eval`` clean held-out samples (cap
    ``steps``).  Pre-registered criteria (fixed before the full-tier run): (a) in every cell the median
    t_c over the seeds is finite (more than half the seeds reach 100% clean accuracy); (b) at each B the
    median t_c increases with p: t_c(p_{i+1}) / t_c(p_i) > 1 for consecutive noise levels; (c) at each p
    the median t_c at the smallest B exceeds that at the largest B; (d) control: at p = 1/2 (labels
    independent of x) no seed's clean held-out accuracy exceeds 0.75 within ``control_steps`` steps.
    The plot draws the seed-mean clean accuracy against t per (B, p) cell (Fig. B.12's axes).

    Exactness
    ---------
    Statistical, seeded (bit-for-bit reproducible).  Medians over 5 seeds: (b) and (c) compare medians of
    5 runs, whose spread (a factor ~1.5 between the fastest and slowest seed of a cell) is smaller than
    the effects tested at p >= 0.2 steps, but not by a wide margin at the first noise step (see the
    near-boundary mutant).  The 1024-sample held-out set makes "100%" a statement about >= 99.7% of the
    cube with 95% confidence (a classifier with error e passes with probability (1 - e)^1024).

    Mutants
    -------
    noise-free-speed: t_c(p_max)/t_c(0) <= 1.2, rejected by the measured slowdown (~5x at p = 0.4).
    random-labels-learned: the p = 1/2 control reaches > 0.75 clean accuracy; rejected (max ~0.55).
    slowdown-near-boundary: every noise step slows t_c by >= 1.2 eps_i/eps_(i+1); rejected by the smallest
    measured factor (1.13 full, 1.16 quick).

    Result (full tier, recorded after the criteria were fixed): every cell learned by all 5 seeds; median t_c
    at B = 8: 3150, 6650, 39350 and at B = 32: 2550, 4800, 16000 for p = 0, 0.2, 0.4 (the slowdown grows
    like 1/eps or faster: x1.9-2.1 for eps 1 -> 0.6, x3.3-5.9 for 0.6 -> 0.2); the p = 1/2 control stays
    at <= 0.551 clean accuracy.  126 s wall on this 2-core machine with other jobs running (single-threaded BLAS).

    Notes
    -----
    Tiers: quick (n = 20, 3 seeds, B in {8, 32}, p in {0, 0.2, 0.4}, control 1000 steps) is a smoke test of
    the same criteria; full n = 50 (the caption's), 5 seeds, B in {8, 32}, p in {0, 0.2, 0.4}, cap 10^5,
    control 2 x 10^4 steps; gpu adds B in {128, 1024} and p in {0.45, 0.49} (eps = 0.1, 0.02) with cap 10^6
    and 8192 held-out samples (the paper's curve batch).  What the reduced run cannot show: p = 0.49
    (the caption's extreme) and large batches.
    """
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    batches = tuple(int(b) for b in _floats(ctx.claim_id, "batches", p["batches"], 1, 65536))
    noises = _floats(ctx.claim_id, "noises", p["noises"], 0.0, 0.4999)
    if len(batches) < 2 or len(noises) < 2:
        raise InvalidParameter(f"{ctx.claim_id}: 'batches' and 'noises' need at least two values each")
    n, k = p["n"], 3
    common = (n, k, p["width"], p["lr"])
    cells = {}
    for B in batches:
        for q in noises:
            cells[B, q] = _noisy_cell(ctx.seed(f"b12/B={B}/p={q!r}"), *common, B, q, p["seeds"], p["steps"],
                                      p["eval_every"], p["n_eval"], ctx.backend)
    med = {c: float(np.median(v.tc)) for c, v in cells.items()}
    for (B, q), v in cells.items():
        ev.add({"part": "(a) median t_c finite", "B": B, "p": q, "t_c per seed": v.tc.tolist()},
               math.isfinite(med[B, q]), relation="true", part="learned")
    for B in batches:
        for q0, q1 in zip(noises, noises[1:]):
            ratio = med[B, q1] / med[B, q0]
            thr = st.slow_min * ((1 - 2 * q0) / (1 - 2 * q1) if st.per_eps else 1.0)
            ev.add({"part": f"(b) t_c(p={q1})/t_c(p={q0}) > {thr:.4g}", "B": B, "median t_c": [med[B, q0], med[B, q1]],
                    "eps ratio": (1 - 2 * q0) / (1 - 2 * q1)}, ratio, thr, relation="gt", part="noise_slowdown")
        if st.slow_max is not None:
            ev.add({"part": f"t_c(p_max)/t_c(0) <= {st.slow_max}", "B": B}, med[B, noises[-1]] / med[B, noises[0]],
                   st.slow_max, relation="le")
    for q in noises:
        ev.add({"part": "(c) t_c(B_min) > t_c(B_max)", "p": q, "B": [batches[0], batches[-1]],
                "median t_c": [med[batches[0], q], med[batches[-1], q]]}, med[batches[0], q] > med[batches[-1], q],
               relation="true", part="batch_slowdown")
    ctrl = {B: _noisy_cell(ctx.seed(f"b12/control/B={B}"), *common, B, 0.5, p["seeds"], p["control_steps"],
                           p["eval_every"], p["n_eval"], ctx.backend) for B in batches}
    top = max(float(np.max(c.max_acc)) for c in ctrl.values())
    case = {"part": "(d) p = 1/2: max clean accuracy", "steps": p["control_steps"], "max accuracy": top}
    if st.control_learned:
        ev.add(case, top, st.control_max, relation="gt")
    else:
        ev.add(case, top <= st.control_max, relation="true", part="control")
    if ctx.statement_tag == "printed":
        ev.details["median t_c per (B, p) (clean held-out accuracy 100%)"] = [
            {"B": B, "p": q, "eps = 1 - 2p": round(1 - 2 * q, 4), "median t_c": med[B, q],
             "t_c per seed": cells[B, q].tc.tolist()} for B in batches for q in noises]
        ev.details["control p = 1/2: max clean accuracy per seed"] = {f"B={B}": c.max_acc.tolist() for B, c in ctrl.items()}
        ev.details["paper (caption)"] = ("width-100 ReLU MLP, (50, 3, eps), 5 seeds, eta = 0.1, various B; learned 'even with "
                                         "49% of labels flipped'; no numeric convergence times are printed")
        series = []
        for (B, q), v in cells.items():
            series.append({"label": f"B={B}, p={q:g}", "x": v.steps.tolist(), "y": np.nanmean(_ffill(v.acc), axis=0).tolist(),
                           "style": "-"})
        ev.plots.append({"title": f"Fig. B.12 re-run: noisy ({n}, 3, eps)-parity, width {p['width']}, eta = {p['lr']:g} "
                                  f"(mean of {p['seeds']} seeds)", "xlabel": "SGD step t",
                         "ylabel": "accuracy on the noiseless distribution (held out)", "logx": True, "series": series})
    return ev.verdict(backend=ctx.backend, seed=ctx.seed("b12"), note=f"statement: {st.text}")


# ---------------------------------------------------------------------------------------------
# Figure 5.2 (left): convergence-time histograms over many random trials (no early successes)
# ---------------------------------------------------------------------------------------------

F52L_ID = "thesis_ch5.figure_5.2.left"
#: runs per seed block (one task on a cluster)
_TC_BLOCK = 10_000
#: mass of any memoryless (geometric) law at or below a quarter of its median: 1 - 2^(-1/4)
GEOM_QUARTER_MASS = 1.0 - 2.0 ** -0.25


def _tc_block(n: int, k: int, seeds: np.ndarray, steps: int, lr: float, batch: int, width: int, backend: str) -> np.ndarray:
    """One seed block: each run's t_c (first step with 100% held-out accuracy on 128 samples, stride 1; -1 if none)."""
    res = train_two_layer(n, k, width=width, seeds=seeds, steps=steps, batch=batch, lr=lr, loss="hinge", init="uniform",
                          eval_every=1, n_eval=128, target_accuracy=1.0, stop_on_convergence=True, dtype="float32",
                          backend=backend)
    return res.converged_at


@functools.lru_cache(maxsize=16)
def _many_trials(claim_id: str, n: int, k: int, runs: int, steps: int, lr: float, batch: int, width: int,
                 backend: str) -> np.ndarray:
    seeds = _seeds(Context(claim_id).seed(f"trials/n={n}/k={k}/lr={lr!r}/B={batch}/width={width}"), runs)
    parts = Context(claim_id).map(_tc_block, [(n, k, seeds[a:b], steps, lr, batch, width, backend)
                                              for a, b in seed_blocks(runs, _TC_BLOCK)])
    tc = np.concatenate(parts).astype(np.float64)
    tc[tc < 0] = np.inf
    tc.setflags(write=False)
    return tc


@dataclass(frozen=True)
class HistogramStatement:
    """Fig. 5.2 (left) read as: (a) successes: P(t_c <= cap) >= ``success_min`` (99% lower bound); (b) no early
    successes: P(t_c <= median/4) <= ``early_max`` (99% upper bound; printed: half the mass 0.159 that any
    memoryless law puts there); ``early_min``: a mutant's lower bound on that mass (random search); (c) heavy
    upper tail: (p99 - p50) >= ``skew_min`` (p50 - p1)."""

    text: str
    success_min: float = 0.9
    early_max: float | None = GEOM_QUARTER_MASS / 2
    early_min: float | None = None
    skew_min: float = 1.0


_F52L_PRINTED = HistogramStatement("Fig. 5.2 left: t_c over many trials has a heavy upper tail and no successes near "
                                   "t = 0 (unlike random search, Geom(1/C(n,k)))")


@claim(
    id=F52L_ID,
    figure="Figure 5.2 (left)",
    source=SOURCE,
    label="Figure 5.2 (left)",
    entry="E30",
    title="Convergence times over many random trials: a heavy upper tail and no early successes, unlike the "
          "memoryless law of random search",
    lines=[(923, 924), (962, 962), (1060, 1060)],
    printed=_F52L_PRINTED,
    parts=[
        Part("success", "the runs converge (t_c finite within the cap): criterion (a)", inequality=True),
        Part("no_early", "'no observed successes near t = 0 (unlike random search)': criterion (b)", inequality=True),
        Part("upper_tail", "'heavy upper tails': criterion (c)", inequality=True),
        Part("trials_1e6", "'over 10^6 random trials'", asserted=False,
             reason="10^6 trials only in the gpu tier (100 seed blocks of 10^4, Context.map); full 4000, quick 128"),
        Part("configuration", "the figure's architectures and (n, k)", asserted=False,
             reason="the text does not state them; the re-run uses setting (ii) (width-100 ReLU MLP, B = 32, eta = 1, "
                    "the Fig. B.6 protocol) at (n, k) = (20, 3) (quick (12, 3))"),
    ],
    mutants=[
        Mutant("random-search", "t_c is memoryless like random search (Geom): P(t_c <= median/4) >= 1 - 2^(-1/4) = 0.159",
               replace(_F52L_PRINTED, text="memoryless", early_max=None, early_min=GEOM_QUARTER_MASS)),
        Mutant("success-near-boundary", "every run converges: 99% lower bound on P(t_c <= cap) >= 0.9995 (the full "
               "tier's 4000/4000 give 0.99885, the quick tier's 128/128 0.965)",
               replace(_F52L_PRINTED, text="success >= 0.9995", success_min=0.9995), near_boundary=True, part="success"),
        Mutant("early-near-boundary", "P(t_c <= median/4) <= 0.001 (99% upper bound; 0 early runs in 4000 give 0.00115, "
               "in 128 0.035)", replace(_F52L_PRINTED, text="early <= 0.001", early_max=0.001), near_boundary=True,
               part="no_early"),
        Mutant("skew-near-boundary", "(p99 - p50) >= 1.5 (p50 - p1) (measured: 33/24 = 1.375 at the full tier, "
               "1.25 at the quick tier)", replace(_F52L_PRINTED, text="skew >= 1.5", skew_min=1.5), near_boundary=True,
               part="upper_tail"),
    ],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[
        Param("n", int, 6, 64, doc="input dimension"),
        Param("runs", int, 64, 10_000_000, doc="random trials (the paper: 10^6)"),
        Param("steps", int, 100, 10_000_000, doc="cap per run (protocol: 10^5)"),
        Param("lr", float, 1e-4, 10.0, doc="SGD rate (Fig. B.6, setting (ii): 1)"),
        Param("batch", int, 1, 4096, doc="batch size (32)"),
        Param("width", int, 1, 10_000, doc="hidden units (100)"),
    ],
    tiers={"quick": {"n": 12, "runs": 128, "steps": 5000, "lr": 1.0, "batch": 32, "width": 100},
           "full": {"n": 20, "runs": 4000, "steps": 100_000, "lr": 1.0, "batch": 32, "width": 100},
           "gpu": {"n": 20, "runs": 1_000_000, "steps": 100_000, "lr": 1.0, "batch": 32, "width": 100}},
)
def check_figure_5_2_left(st: HistogramStatement, p, ctx) -> Verdict:
    """Figure 5.2 (left): histograms of convergence times over many random trials.

    Statement
    ---------
    "Histograms of convergence times over 10^6 random trials, with heavy upper tails but no observed
    successes near t = 0 (unlike random search)" (caption); "No early convergence: Over a large number of
    random trials, no copies of this randomized algorithm get 'lucky' (i.e. solve the problem in
    significantly fewer than the median number of iterations) ... The success times of random exhaustive
    search would be distributed as Geom(1/C(n, k)), whose probability mass is highest at t = 0 and decreases
    monotonically with t" (line 962).

    Source
    ------
    Seed 004, Figure 5.2 caption (lines 923-924), Section 5.3.2 (line 962), Section 5.5 (line 1060).  Catalog
    entry E30 ("No early successes over 10^6 trials").

    Checkable form
    --------------
    ``runs`` independent trials of setting (ii) (width-100 ReLU MLP, hinge, uniform init, SGD eta = 1,
    B = 32, online data) on the (n, 3)-parity; t_c = first step with 100% accuracy on 128 held-out samples
    (evaluated every step), cap ``steps``.  Pre-registered criteria (fixed before the full-tier run): (a) the
    99% Clopper-Pearson lower bound on P(t_c <= cap) is >= 0.9; (b) "no early successes": the 99% upper bound
    on P(t_c <= median/4) is <= 0.0795, half of the mass 1 - 2^(-1/4) = 0.159 that every geometric
    (memoryless) law puts at or below a quarter of its median, so random search with any success rate is
    excluded; (c) "heavy upper tail": p99 - p50 >= p50 - p1.  The plot is the histogram of t_c (counts per
    bin, the paper's axes) with the geometric law of the same median (the random-search model) beside it.

    Exactness
    ---------
    Statistical, seeded (bit-for-bit reproducible; seed blocks merge to the bits of one call).  Exact
    Clopper-Pearson bounds at 99% one-sided; empirical quantiles of 4000 runs (full) are within ~1 step of
    the population quantiles at p1/p99 (binomial standard error of the order statistics).

    Mutants
    -------
    random-search: the memoryless law's 0.159 mass below median/4 is rejected by the upper bound of (b).
    success-near-boundary, early-near-boundary, skew-near-boundary: each part strengthened just beyond
    what the measured numbers support (factors in the descriptions).

    Notes
    -----
    Tiers: quick (12, 3), 128 trials (a smoke test: one block, ~1 s); full (20, 3), 4000 trials (one block,
    ~50 CPU s); gpu (20, 3), 10^6 trials (the paper's count) in 100 blocks of 10^4 (Context.map).  The
    reduced count cannot see events of probability below ~10^-3 (a rare early success the paper's 10^6
    trials would show); the gpu tier can.

    Result (full tier, recorded after the criteria were fixed): 4000/4000 runs converged; t_c quantiles
    0/1/10/50/90/99/100% = 76, 87, 97, 111, 127, 144, 167 steps; no run at or below median/4 = 27.75 (the
    fastest took 0.68 x the median; a geometric law with this median would put 15.9% of the runs there, and
    C(20, 3) = 1140); (p99 - p50)/(p50 - p1) = 1.375: the upper tail is longer than the lower, but
    "heavy" only mildly so at this configuration (eta = 1, where t_c is short).  ~45 CPU s (500 runs
    measured at 5.3 CPU s; 230 s wall on the shared machine).
    """
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    n, k = p["n"], 3
    tc = _many_trials(ctx.claim_id, n, k, p["runs"], p["steps"], float(p["lr"]), p["batch"], p["width"], ctx.backend)
    R = tc.size
    solved = int(np.isfinite(tc).sum())
    lo, _ = clopper_pearson(solved, R, CP_CONFIDENCE)
    ev.add({"part": "(a) P(t_c <= cap): 99% lower bound", "runs": R, "converged": solved, "cap": p["steps"]}, lo,
           st.success_min, part="success")
    med = float(np.median(tc))
    early = int(np.sum(tc <= med / 4))
    e_lo, e_hi = clopper_pearson(early, R, CP_CONFIDENCE)
    case = {"part": "(b) P(t_c <= median/4)", "runs": R, "median": med, "early runs": early, "min t_c": float(np.min(tc))}
    if st.early_max is not None:
        ev.add(dict(case, bound="99% upper"), e_hi, st.early_max, relation="le", part="no_early")
    if st.early_min is not None:
        ev.add(dict(case, bound="99% upper (memoryless mass not excluded)"), e_hi, st.early_min)
    fin = tc[np.isfinite(tc)]
    q1, q50, q99 = (float(v) for v in np.percentile(tc, [1, 50, 99])) if fin.size == R else (math.nan,) * 3
    ev.add({"part": "(c) (p99 - p50) / (p50 - p1)", "p1": q1, "p50": q50, "p99": q99}, (q99 - q50) / max(q50 - q1, 1e-12),
           st.skew_min, part="upper_tail")
    if ctx.statement_tag == "printed":
        qs = np.percentile(fin, [0, 1, 10, 25, 50, 75, 90, 99, 100]).tolist() if fin.size else []
        ev.details["convergence times"] = {"(n, k)": [n, k], "trials": R, "converged": solved, "median": med,
                                           "quantiles 0/1/10/25/50/75/90/99/100%": qs,
                                           "min t_c / median": float(np.min(tc)) / med,
                                           "runs at or below median/4": early,
                                           "geometric law with this median: mass at or below median/4": GEOM_QUARTER_MASS,
                                           "C(n,k) (random search's expected time, 1 copy)": math.comb(n, k)}
        ev.details["paper"] = "10^6 trials; no numbers printed (histogram image only)"
        hi = float(np.max(fin)) if fin.size else 1.0
        edges = np.linspace(0, hi * 1.02, 51)
        counts, _ = np.histogram(fin, bins=edges)
        centers = (edges[:-1] + edges[1:]) / 2
        q = 1.0 - 2.0 ** (-1.0 / med)  # geometric law with median med: P(T > t) = (1 - q)^t
        geo = R * ((1 - q) ** edges[:-1] - (1 - q) ** edges[1:])
        ev.plots.append({"title": f"Fig. 5.2 (left) re-run: t_c of {R} trials, setting (ii), ({n}, {k})-parity, "
                                  f"eta = {p['lr']:g}, B = {p['batch']}", "xlabel": "convergence time t_c (steps)",
                         "ylabel": "trials per bin", "logy": True,
                         "series": [{"label": "SGD (re-run)", "x": centers.tolist(), "y": counts.tolist(), "style": "o-"},
                                    {"label": "random search model: Geom with the same median", "x": centers.tolist(),
                                     "y": geo.tolist(), "style": "--"}]})
    return ev.verdict(backend=ctx.backend, seed=ctx.seed(f"trials/n={n}/k={k}/lr={float(p['lr'])!r}/B={p['batch']}/width={p['width']}"),
                      note=f"statement: {st.text}")


# ---------------------------------------------------------------------------------------------
# Figure 5.2 (center): t_c depends on the initialisation, not on the SGD samples
# ---------------------------------------------------------------------------------------------

F52C_ID = "thesis_ch5.figure_5.2.center"


@dataclass(frozen=True)
class InitGrid:
    tc: np.ndarray  # (I, J) t_c of init i on data stream j (+inf if censored)
    steps: np.ndarray  # (C,) record steps
    loss: np.ndarray  # (I, J, C) batch hinge loss (NaN after the run stopped)


@functools.lru_cache(maxsize=16)
def _init_grid(claim_id: str, n: int, k: int, inits: int, streams: int, steps: int, lr: float, batch: int, width: int,
               record_every: int, backend: str) -> InitGrid:
    """``inits`` initialisations, each trained on ``streams`` independent online data streams (theta0 explicit)."""
    ctx = Context(claim_id)
    th = init_two_layer(n, width, _seeds(ctx.seed(f"inits/n={n}"), inits), init="uniform", dtype="float32")
    data = _seeds(ctx.seed(f"streams/n={n}"), inits * streams)
    res = train_two_layer(n, k, width=width, seeds=data, steps=steps, batch=batch, lr=lr, loss="hinge",
                          theta0=np.repeat(th, streams, axis=0), eval_every=10, n_eval=128, target_accuracy=1.0,
                          stop_on_convergence=True, record_every=record_every, dtype="float32", backend=backend)
    tc = np.where(res.converged_at >= 0, res.converged_at, np.inf).astype(np.float64).reshape(inits, streams)
    return InitGrid(tc, res.record_steps, res.loss.reshape(inits, streams, -1))


def anova_icc(y: np.ndarray) -> tuple[float, float, float]:
    """One-way random-effects ANOVA of y (I groups x J replicates): (ICC(1), F, p-value of F)."""
    from scipy.stats import f as f_dist

    I, J = y.shape
    gm = y.mean(axis=1)
    msb = J * float(np.sum((gm - y.mean()) ** 2)) / (I - 1)
    msw = float(np.sum((y - gm[:, None]) ** 2)) / (I * (J - 1))
    icc = (msb - msw) / (msb + (J - 1) * msw)
    F = msb / msw if msw > 0 else math.inf
    return icc, F, float(f_dist.sf(F, I - 1, I * (J - 1))) if math.isfinite(F) else 0.0


@dataclass(frozen=True)
class InitStatement:
    """Fig. 5.2 (center) read as: (a) the share of the variance of log t_c explained by the initialisation
    (one-way random-effects ICC over inits x data streams) is >= ``icc_min`` ("depend heavily on
    initialization"); ``icc_max``: a mutant's upper bound (SGD noise dominates); (b) the init effect is
    significant: F-test p-value < ``p_max``."""

    text: str
    icc_min: float | None = 0.5
    icc_max: float | None = None
    p_max: float = 0.01


_F52C_PRINTED = InitStatement("Fig. 5.2 center: loss curves and t_c depend heavily on the initialisation, not on the "
                              "randomness of SGD")


@claim(
    id=F52C_ID,
    figure="Figure 5.2 (center)",
    source=SOURCE,
    label="Figure 5.2 (center)",
    entry="E30",
    title="Convergence times depend on the initialisation, not on the SGD samples: the init explains most of the "
          "variance of log t_c",
    lines=[(924, 925), (964, 964)],
    printed=_F52C_PRINTED,
    parts=[
        Part("init_share", "'Loss curves (and thus, convergence time) depend heavily on initialization, not the "
             "randomness of SGD': criterion (a), ICC >= 0.5", inequality=True),
        Part("init_effect", "'highly correlated with the architecture's random initialization, and ... quite "
             "concentrated conditioned on initialization' (line 964): criterion (b)"),
        Part("eta_0.01", "the panel's B = 128, eta = 0.01", asserted=False,
             reason="eta = 0.01 only in the gpu tier ((30, 3), 32 inits x 32 streams): at eta = 0.01 a run takes "
                    "~10x the steps of eta = 0.1; quick and full use B = 128, eta = 0.1"),
    ],
    mutants=[
        Mutant("sgd-noise-dominates", "t_c is driven by the SGD samples: ICC <= 0.5",
               replace(_F52C_PRINTED, text="ICC <= 0.5", icc_min=None, icc_max=0.5)),
        Mutant("init-irrelevant", "the initialisation has no effect on t_c (ICC <= 0)", replace(_F52C_PRINTED, text="ICC <= 0", icc_min=None, icc_max=0.0)),
        Mutant("icc-near-boundary", "the init explains >= 85% of the variance of log t_c (ICC >= 0.85; measured 0.788 "
               "at the full tier, 0.731 at the quick tier)", replace(_F52C_PRINTED, text="ICC >= 0.85", icc_min=0.85),
               near_boundary=True,
               part="init_share"),
    ],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[
        Param("n", int, 6, 64, doc="input dimension (k = 3)"),
        Param("inits", int, 3, 10_000, doc="initialisations"),
        Param("streams", int, 2, 10_000, doc="independent data streams per initialisation"),
        Param("steps", int, 100, 10_000_000, doc="cap per run"),
        Param("lr", float, 1e-4, 10.0, doc="SGD rate (the panel: 0.01)"),
        Param("batch", int, 1, 4096, doc="batch size (the panel: 128)"),
        Param("width", int, 1, 10_000, doc="hidden units (setting (ii): 100)"),
    ],
    tiers={"quick": {"n": 12, "inits": 6, "streams": 4, "steps": 20_000, "lr": 0.1, "batch": 128, "width": 100},
           "full": {"n": 20, "inits": 12, "streams": 8, "steps": 100_000, "lr": 0.1, "batch": 128, "width": 100},
           "gpu": {"n": 30, "inits": 32, "streams": 32, "steps": 1_000_000, "lr": 0.01, "batch": 128, "width": 100}},
)
def check_figure_5_2_center(st: InitStatement, p, ctx) -> Verdict:
    """Figure 5.2 (center): loss curves depend on the initialisation, not on the randomness of SGD.

    Statement
    ---------
    "Loss curves (and thus, convergence time) depend heavily on initialization, not the randomness of SGD;
    B = 128, eta = 0.01 are shown here" (caption); "Sensitivity to initialization, not SGD samples: Running
    these training setups over multiple stochastic batches from a common initialization, we find that loss
    curves and convergence times are highly correlated with the architecture's random initialization, and
    are quite concentrated conditioned on initialization" (line 964).

    Source
    ------
    Seed 004, Figure 5.2 caption (lines 923-925), Section 5.3.2 (line 964).  Catalog entry E30 ("Convergence
    time is driven by the init, not by SGD noise (Fig 5.2 center: B=128, eta=0.01)").

    Checkable form
    --------------
    Setting (ii) (width-100 ReLU MLP, hinge, uniform init, SGD) on the (n, 3)-parity at batch 128: ``inits``
    initialisations (``init_two_layer``), each trained on ``streams`` independent online data streams
    (``theta0`` explicit, the run seed drawing only the data); t_c = first evaluation (every 10 steps) with
    100% accuracy on 128 held-out samples.  One-way random-effects ANOVA of y = log t_c (censored runs at
    log cap).  Pre-registered criteria (fixed before the full-tier run): (a) ICC(1) >= 0.5 (the init
    explains at least half the variance of log t_c); (b) the F-test of the init effect has p < 0.01.  The
    plots are the batch-loss curves of three inits x their streams (coloured by init, the paper's axes) and
    t_c per init.

    Exactness
    ---------
    Statistical, seeded (bit-for-bit reproducible).  ICC(1) is the ANOVA estimator; with 12 inits x 8
    streams its standard error is ~0.1 near 0.7, and (b) is exact given normal within-group errors.

    Mutants
    -------
    sgd-noise-dominates (ICC <= 0.5) and init-irrelevant (ICC <= 0): rejected by the measured ICC.
    icc-near-boundary: ICC >= 0.85, just beyond the measured values (0.788 full, 0.731 quick).

    Notes
    -----
    Tiers: quick (12, 3), 6 inits x 4 streams, eta = 0.1; full (20, 3), 12 x 8, eta = 0.1; gpu (30, 3),
    32 x 32 at the panel's eta = 0.01.  The reduced runs test the claim at a 10x larger rate than the
    panel's; a larger rate gives the SGD noise more weight per step, so it is the harder case for (a).

    Result (full tier, recorded after the criteria were fixed): all 96 runs converged (t_c 560-1020);
    ICC(1) = 0.788, F = 30.7 (p = 7e-25); pooled within-init SD of log t_c 0.063 against 0.124 for the
    init means (e.g. init 1 takes 810-1020 steps on every stream, init 8 560-620).  166 s wall on the
    shared machine (96 runs x ~700 steps at B = 128).
    """
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    g = _init_grid(ctx.claim_id, p["n"], 3, p["inits"], p["streams"], p["steps"], float(p["lr"]), p["batch"], p["width"],
                   10, ctx.backend)
    y = np.log(np.minimum(g.tc, p["steps"]))
    icc, F, pv = anova_icc(y)
    case = {"(n, k)": [p["n"], 3], "inits x streams": [p["inits"], p["streams"]], "ICC": icc, "F": F, "p-value": pv,
            "censored": int(np.sum(~np.isfinite(g.tc)))}
    if st.icc_min is not None:
        ev.add(dict(case, part=f"(a) ICC >= {st.icc_min}"), icc, st.icc_min, part="init_share")
        ev.add(dict(case, part=f"(b) F-test p < {st.p_max}"), pv < st.p_max, relation="true", part="init_effect")
    if st.icc_max is not None:
        ev.add(dict(case, part=f"ICC <= {st.icc_max}"), icc, st.icc_max, relation="le")
    if ctx.statement_tag == "printed":
        ev.details["t_c per init (rows) and data stream (columns)"] = g.tc.tolist()
        ev.details["ANOVA of log t_c"] = {"ICC(1)": icc, "F": F, "p-value": pv,
                                          "within-init SD of log t_c (pooled)": float(np.sqrt(np.mean(np.var(y, axis=1, ddof=1)))),
                                          "SD of the init means": float(np.std(y.mean(axis=1), ddof=1))}
        ev.details["paper"] = "B = 128, eta = 0.01; loss-curve image only, no numbers printed"
        colors = "brgmck"
        series = []
        for i in range(min(3, p["inits"])):
            for j in range(p["streams"]):
                series.append(dict(thin_curve(g.steps[1:], g.loss[i, j, 1:]), label=f"init {i}" if j == 0 else None,
                                   style=colors[i] + "-"))
        ev.plots.append({"title": f"Fig. 5.2 (center) re-run: ({p['n']}, 3)-parity, B = {p['batch']}, eta = {p['lr']:g}: "
                                  f"{p['streams']} data streams per init", "xlabel": "SGD step t",
                         "ylabel": "batch hinge loss", "series": series})
        ev.plots.append({"title": "t_c per initialisation (each point one data stream)", "xlabel": "initialisation",
                         "ylabel": "t_c (steps)", "logy": True,
                         "series": [{"label": None, "x": [i] * p["streams"], "y": g.tc[i].tolist(), "style": "bo"}
                                    for i in range(p["inits"])]})
    return ev.verdict(backend=ctx.backend, seed=ctx.seed(f"inits/n={p['n']}"), note=f"statement: {st.text}")
