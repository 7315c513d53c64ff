"""Training-curve figures of thesis ch. 5 / App. B (seed 004): Figure B.1 (disjoint-PolyNet with the
correlation loss: population gradient descent and SGD at batch 1) and Figure B.13 (polynomial-activation
MLPs on (50, 3): the descent speeds up with the width and the batch, no sharp phase transition, unlike ReLU).

Trainers: the disjoint-PolyNet SGD engine ``kernels.training.disjoint_polynet_sgd`` (constant rate, batch 1,
exact error of every checkpoint from the block laws), population gradient descent on the relevant weights
(the exact population gradient of the correlation loss, kernels.boolean.polynet_flow.relevant_velocity,
irrelevant weights fixed) cross-checked against the adaptive integrator of the gradient flow
(``relevant_flow``), and the two-layer engine ``kernels.training.train_two_layer`` (z^3 and ReLU
activations, hinge loss, torch's uniform init, online SGD).

Caching: each claim's runs are a module-level ``functools.lru_cache`` function of hashable arguments (seeds
from the claim's named streams, ``Context.seed``), so the printed statement and the mutants read the same runs.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import numba as nb
import numpy as np

from kernels.activations import Activation
from kernels.boolean.polynet_flow import relevant_flow, relevant_velocity
from kernels.boolean.polynet_flow_quadrature import abs_block_sums, error_at
from kernels.training import disjoint_polynet_sgd, train_two_layer

from ..plotdata import forward_fill as _ffill
from ..registry import Evidence, InvalidParameter, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True

#: the error level that ends the plateau ("near-trivial accuracy": error <= 1/2 - gamma with gamma = 0.05)
PLATEAU_LEVEL = 0.45


def _seeds(root: int, count: int) -> np.ndarray:
    """``count`` independent 64-bit run seeds from one root seed (prefix-stable in ``count``)."""
    return np.random.SeedSequence(root).generate_state(count, dtype=np.uint64)


def _gaussian_inits(root: int, runs: int, k: int, n1: int) -> np.ndarray:
    """i.i.d. N(0, 1) weights (runs, k, n'), conditioned on prod_i v_i > 0 by flipping v_1 where it is negative
    (the flip maps the complement onto the event, so the law is N(0, 1) conditioned on the event)."""
    W0 = np.random.default_rng(np.random.SeedSequence(root)).standard_normal((runs, k, n1))
    neg = np.prod(W0[:, :, 0], axis=1) < 0
    W0[neg, 0, 0] *= -1.0
    return W0


def disjoint_error(w: np.ndarray) -> float:
    """Exact error Pr_x[sign f(x; w) != chi_S(x)] of one disjoint-PolyNet w (k, n') from the block laws of
    A_i = u_i . z (all 2^(n'-1) signs; kernels.boolean.polynet's formula, float64)."""
    k, n1 = w.shape
    m = n1 - 1
    z = 1.0 - 2.0 * ((np.arange(1 << m)[:, None] >> np.arange(m)[None, :]) & 1)
    prod_nz, prod_signed, sign = 1.0, 1.0, 1.0
    for i in range(k):
        A = z @ w[i, 1:]
        t = -abs(w[i, 0])
        pw, pz = float(np.mean(A < t)), float(np.mean(A == t))
        prod_nz *= 1.0 - pz
        prod_signed *= 1.0 - pz - 2.0 * pw
        sign *= float(np.sign(w[i, 0]))
    return 1.0 - 0.5 * prod_nz - 0.5 * sign * prod_signed


# ---------------------------------------------------------------------------------------------
# Figure B.1: disjoint-PolyNet, correlation loss, Gaussian init: population GD (left), SGD B = 1 (right)
# ---------------------------------------------------------------------------------------------

B1_ID = "thesis_ch5.figure_B.1"


@dataclass(frozen=True)
class GDRuns:
    eta: float
    cap: int
    t_level: np.ndarray  # (R,) first step with err <= PLATEAU_LEVEL (-1: not within the cap)
    t_zero: np.ndarray  # (R,) first step with err = 0 (-1: not within the cap)
    err0: np.ndarray  # (R,) error at the initialisation
    flow_dev: np.ndarray  # (R,) max relative deviation |v_GD - v_flow| / |v_flow| at 4 times up to t_level
    curves: tuple  # per run (steps (D,), err (D,)) subsampled, for the plots


@functools.lru_cache(maxsize=8)
def _population_gd(root: int, k: int, n1: int, runs: int, eta: float, cap: int) -> GDRuns:
    """Population gradient descent v_i <- v_i + eta prod_{l != i} v_l (the exact population gradient of the
    correlation loss; the irrelevant weights have zero population gradient and stay at the init), all inits at
    once, exact error at every step from the sorted |A_i| of the initial irrelevant weights (chunks of
    ``_CHUNK`` steps; a run stops at its first step with error 0)."""
    W0 = _gaussian_inits(root, runs, k, n1)
    sums = [[abs_block_sums(W0[r, i, 1:]) for i in range(k)] for r in range(runs)]
    t_level = np.full(runs, -1, dtype=np.int64)
    t_zero = np.full(runs, -1, dtype=np.int64)
    errs: list[list[np.ndarray]] = [[] for _ in range(runs)]
    V = W0[:, :, 0].copy()
    active = np.ones(runs, dtype=bool)
    with np.errstate(over="ignore", invalid="ignore"):  # a run may overshoot to inf at its last step (err = 0)
        _gd_loop(V, active, sums, eta, cap, k, t_level, t_zero, errs)
    err0 = np.array([e[0][0] for e in errs])
    dev = np.full(runs, np.nan)
    ok = np.flatnonzero(t_level > 0)
    if ok.size:  # the GD against the adaptive integrator of the flow at 4 steps up to T_0.45
        steps = np.round(t_level[ok, None] * np.array([0.25, 0.5, 0.75, 1.0])[None, :]).astype(np.int64)
        fl = relevant_flow(W0[ok, :, 0], t_out=eta * steps, t_max=eta * float(steps.max()) * (1 + 1e-9), backend="cpu")
        v_gd = _replay(W0[ok, :, 0], eta, steps)
        dev[ok] = np.max(np.abs(v_gd - fl.v_out) / np.abs(fl.v_out), axis=(1, 2))
    curves = []
    for r in range(runs):
        e = np.concatenate(errs[r])
        if t_zero[r] >= 0:
            e = e[: t_zero[r] + 1]
        sub = np.unique(np.round(np.linspace(0, e.shape[0] - 1, 400)).astype(np.int64))
        curves.append((sub, e[sub]))
    return GDRuns(eta, cap, t_level, t_zero, err0, dev, tuple(curves))


@nb.njit(cache=True)
def _gd_step_row(V, r, eta, pre, vel):  # pragma: no cover - compiled
    """V[r] <- V[r] + eta * relevant_velocity(V[r]), bit for bit: the prefix and suffix products in np.cumprod's
    order (1 * v_0 * v_1 ..., 1 * v_{k-1} * v_{k-2} ...), velocity prefix_i * suffix_i, then V + eta * velocity."""
    k = V.shape[1]
    p = 1.0
    for i in range(k):
        pre[i] = p
        p = p * V[r, i]
    s = 1.0
    for i in range(k - 1, -1, -1):
        vel[i] = pre[i] * s
        s = s * V[r, i]
    for i in range(k):
        V[r, i] = V[r, i] + eta * vel[i]


@nb.njit(cache=True)
def _gd_block(V, active, eta, block):  # pragma: no cover - compiled
    """block[0] = V; for c >= 1 one GD step of the active rows of V (in place), block[c] = V (all rows)."""
    C, runs, k = block.shape
    pre = np.empty(k)
    vel = np.empty(k)
    block[0] = V
    for c in range(1, C):
        for r in range(runs):
            if active[r]:
                _gd_step_row(V, r, eta, pre, vel)
        block[c] = V


@nb.njit(cache=True)
def _replay_kernel(V, eta, steps, out):  # pragma: no cover - compiled
    """out[m, j] = the GD iterate of row m at step steps[m, j] (V (M, k) is advanced in place)."""
    M, J = steps.shape
    k = V.shape[1]
    pre = np.empty(k)
    vel = np.empty(k)
    T = 0
    for m in range(M):
        for j in range(J):
            T = max(T, steps[m, j])
    for t in range(T + 1):
        for m in range(M):
            for j in range(J):
                if steps[m, j] == t:
                    out[m, j] = V[m]
        for m in range(M):
            _gd_step_row(V, m, eta, pre, vel)


def _gd_loop(V, active, sums, eta, cap, k, t_level, t_zero, errs) -> None:
    runs = V.shape[0]
    t0 = 0
    while active.any() and t0 <= cap:
        C = min(_CHUNK, cap + 1 - t0)
        block = np.empty((C, runs, k))
        _gd_block(V, active, float(eta), block)  # the numpy loop's arithmetic, bit for bit
        for r in np.flatnonzero(active):
            err = error_at(sums[r], block[:, r])
            errs[r].append(err)
            if t_level[r] < 0:
                hit = np.flatnonzero(err <= PLATEAU_LEVEL)
                if hit.size:
                    t_level[r] = t0 + hit[0]
            zero = np.flatnonzero(err == 0.0)
            if zero.size:
                t_zero[r] = t0 + zero[0]
                active[r] = False
        V[active] = V[active] + eta * relevant_velocity(V[active])
        t0 += C


def _replay(v0: np.ndarray, eta: float, steps: np.ndarray) -> np.ndarray:
    """The GD iterates of inits v0 (M, k) at steps (M, J) (the same arithmetic as the batched loop)."""
    V = np.array(v0, dtype=np.float64)  # a C-contiguous copy, advanced in place (rows past their last recorded
    out = np.empty(steps.shape + (v0.shape[1],))  # step may blow up to inf/nan: unused)
    _replay_kernel(V, float(eta), np.ascontiguousarray(steps, dtype=np.int64), out)
    return out


_CHUNK = 2000


@dataclass(frozen=True)
class SGDRuns:
    lr: float
    cap: int
    every: int
    t_level: np.ndarray
    t_zero: np.ndarray
    diverged_at: np.ndarray
    curves: tuple  # per run (steps, err) at the checkpoints (up to divergence)


@functools.lru_cache(maxsize=8)
def _sgd_batch1(root: int, k: int, n1: int, runs: int, lr: float, cap: int, every: int, backend: str) -> SGDRuns:
    """Online SGD at batch 1 with a constant rate on the correlation loss, Gaussian init (all weights), exact
    error at every ``every`` steps; a run that blows up (the finite-time blow-up of the product dynamics at a
    constant rate) stops there and is judged on its checkpoints before that."""
    W0 = _gaussian_inits(root, runs, k, n1)
    ck = np.arange(0, cap + 1, every, dtype=np.int64)
    res = disjoint_polynet_sgd(W0, steps=cap, seeds=_seeds(root + 1, runs), lr=lr, lr_mode="constant", batch=1,
                               checkpoints=ck, record_all=True, backend=backend)
    t_level = np.full(runs, -1, dtype=np.int64)
    t_zero = np.full(runs, -1, dtype=np.int64)
    curves = []
    for r in range(runs):
        ok = np.all(np.isfinite(res.weights[r]), axis=(1, 2))
        last = int(np.flatnonzero(ok)[-1]) + 1 if ok.any() else 0
        err = np.array([disjoint_error(res.weights[r, c]) for c in range(last)])
        hit = np.flatnonzero(err <= PLATEAU_LEVEL)
        zero = np.flatnonzero(err == 0.0)
        if hit.size:
            t_level[r] = ck[hit[0]]
        if zero.size:
            t_zero[r] = ck[zero[0]]
        curves.append((ck[:last], err))
    return SGDRuns(lr, cap, every, t_level, t_zero, res.diverged_at.copy(), tuple(curves))


@dataclass(frozen=True)
class B1Statement:
    """Fig. B.1 read as: (left) under population GD with a small step the plateau of near-trivial accuracy
    (error > 0.45) lasts at least ``left_min`` of the time to perfect accuracy (median over inits); the initial
    error is near-trivial (>= 0.45) in at least 90% of the inits; the small-step GD follows the gradient flow
    of Section B.2.3 to ``flow_tol`` (relative).  (right) SGD at batch 1, constant rate: at least half of the
    runs reach zero error, and the median plateau fraction is at least ``right_min``.  ``left_max`` /
    ``right_max``: a mutant's upper bound on the median fraction (no plateau)."""

    text: str
    left_min: float | None = 0.8
    right_min: float | None = 0.5
    left_max: float | None = None
    right_max: float | None = None
    flow_tol: float = 0.01


_B1_PRINTED = B1Statement("Fig. B.1: disjoint-PolyNet, correlation loss, Gaussian init: a long plateau of near-trivial "
                          "accuracy, then a much shorter drop to perfect accuracy, under population GD (left) and "
                          "under SGD with B = 1 at a constant rate (right)")


@claim(
    id=B1_ID,
    figure="Figure B.1",
    source=SOURCE,
    label="Figure B.1",
    entry="E25",
    title="Disjoint-PolyNet (correlation loss, Gaussian init): plateau at chance, then a shorter drop to zero error "
          "(SGD B = 1 as pre-registered; population GD: the drop is 0.29 of the plateau, not <= 1/4: not reproduced)",
    lines=[(3335, 3344), (3530, 3533)],
    printed=_B1_PRINTED,
    parts=[
        Part("left_plateau", "'the phase of learning with near-trivial accuracy is much longer than the subsequent "
             "period until perfect accuracy, as illustrated by the left-hand plot in Figure B.1' (lines 3530-3532): "
             "criterion (a), median T_0.45 / T_0 >= 0.8", inequality=True),
        Part("left_start", "the left curve starts at near-trivial accuracy: criterion (b)"),
        Part("left_small_step", "'population gradient descent with small step size, approximating the setting of "
             "Section B.2.3' (caption): criterion (c), GD within 1% of the gradient flow up to T_0.45"),
        Part("right_converges", "'a run of SGD with batch size 1 ... with a constant learning rate schedule' reaches "
             "perfect accuracy: criterion (d)"),
        Part("right_plateau", "the right curve has the same plateau-then-drop shape: criterion (e), median "
             "T_0.45 / T_0 >= 0.5", inequality=True),
        Part("paper_sizes", "the figure's (n, k), step size and learning rate", asserted=False,
             reason="not printed (image only); this re-run picks k = 3, n' = 20 (left) and n' = 10 (right), eta = "
                    "1e-3 (GD) and 1e-4 (SGD), stated in the docstring"),
    ],
    mutants=[
        Mutant("left-no-plateau", "population GD has no long plateau: the drop takes at least half the time to zero "
               "error (median T_0.45 / T_0 <= 0.5)", replace(_B1_PRINTED, text="left: median T_0.45/T_0 <= 0.5",
                                                                left_min=None, right_min=None, left_max=0.5)),
        Mutant("right-no-plateau", "batch-1 SGD has no plateau: median T_0.45 / T_0 <= 0.3",
               replace(_B1_PRINTED, text="right: median T_0.45/T_0 <= 0.3", left_min=None, right_min=None, right_max=0.3)),
        Mutant("left-plateau-near-boundary", "population GD: the drop is not much shorter than the plateau, median "
               "T_0.45 / T_0 <= 0.75 (measured 0.776 full, 0.788 quick: barely excluded)",
               replace(_B1_PRINTED, text="left: median T_0.45/T_0 <= 0.75", left_min=None, right_min=None, left_max=0.75),
               near_boundary=True, part="left_plateau"),
        Mutant("right-plateau-near-boundary", "batch-1 SGD: median T_0.45 / T_0 >= 0.75 (measured 0.705 full, 0.584 quick)",
               replace(_B1_PRINTED, text="right: median T_0.45/T_0 >= 0.75", left_min=None, right_min=0.75),
               near_boundary=True, part="right_plateau"),
    ],
    expect=Status.NOT_REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[
        Param("k", int, 3, 6, doc="blocks (parity degree)"),
        Param("n1_gd", int, 4, 24, doc="block length n' of the population-GD panel (exact block laws: 2^(n'-2) sums)"),
        Param("gd_runs", int, 4, 100_000, doc="Gaussian initialisations of the left panel"),
        Param("eta", float, 1e-5, 0.1, doc="population-GD step"),
        Param("gd_cap", int, 100, 10_000_000, doc="population-GD steps cap"),
        Param("n1_sgd", int, 2, 14, doc="block length n' of the SGD panel"),
        Param("sgd_runs", int, 4, 100_000, doc="SGD runs of the right panel"),
        Param("lr", float, 1e-7, 0.1, doc="constant SGD rate"),
        Param("sgd_cap", int, 100, 100_000_000, doc="SGD steps cap"),
        Param("every", int, 1, 100_000, doc="SGD checkpoint stride (exact error there)"),
    ],
    tiers={"quick": {"k": 3, "n1_gd": 20, "gd_runs": 16, "eta": 1e-3, "gd_cap": 20_000, "n1_sgd": 6, "sgd_runs": 8,
                     "lr": 1e-4, "sgd_cap": 60_000, "every": 200},
           "full": {"k": 3, "n1_gd": 20, "gd_runs": 200, "eta": 1e-3, "gd_cap": 100_000, "n1_sgd": 10, "sgd_runs": 32,
                    "lr": 1e-4, "sgd_cap": 200_000, "every": 100},
           "gpu": {"k": 3, "n1_gd": 22, "gd_runs": 1000, "eta": 1e-4, "gd_cap": 1_000_000, "n1_sgd": 12,
                   "sgd_runs": 1000, "lr": 1e-5, "sgd_cap": 4_000_000, "every": 500}},
    uses_backend=True,
)
def check_figure_b1(st: B1Statement, p, ctx) -> Verdict:
    """Figure B.1: disjoint-PolyNet training curves under population GD (left) and batch-1 SGD (right).

    Statement
    ---------
    "Example training curves for the disjoint-PolyNet trained with correlation loss, which is the setting of
    Appendix B.2.3.  The left plot shows validation error under population gradient descent with small step
    size, approximating the setting of Section B.2.3, and the right plot shows a run of SGD with batch size 1,
    as in Section B.2.4, though with a constant learning rate schedule.  Initialization is i.i.d. standard
    Gaussian." (caption, line 3344); "with high probability, the phase of learning with near-trivial accuracy
    is much longer than the subsequent period until perfect accuracy, as illustrated by the left-hand plot in
    Figure B.1" (lines 3530-3532).  The (n, k), step size and learning rate are not printed.

    Source
    ------
    Seed 004, App. B.2.3, Figure B.1 caption (line 3344) and lines 3530-3533 (Theorem 5.7 full statement).
    Catalog entries E25 and E26 (reference: "Fig. B.1 left/right: a plateau then a drop (image only)").

    Checkable form
    --------------
    Disjoint-PolyNet f = prod_i <w_i, x_{P_i}>, k blocks of n', target the product of the first coordinate of
    every block, correlation loss, weights i.i.d. N(0, 1) conditioned on prod_i v_i(0) > 0 (the event of
    Theorem 5.7; flipping v_1 maps the complement onto it).  Error = the exact Pr_x[sign f != y] from the block
    laws of A_i = u_i . z (kernels.boolean.polynet).  T_0.45 = first step with error <= 0.45 (1/2 - gamma,
    gamma = 0.05), T_0 = first step with error 0.  Left: ``gd_runs`` inits, population GD v_i <- v_i + eta
    prod_{l != i} v_l (the exact population gradient; irrelevant weights fixed), cap ``gd_cap``.  Right:
    ``sgd_runs`` runs of online SGD at batch 1 and constant rate ``lr`` (disjoint_polynet_sgd, every weight
    moves), exact error every ``every`` steps, cap ``sgd_cap``.  Pre-registered criteria (fixed before the
    full-tier run): (a) median over inits of T_0.45 / T_0 >= 0.8 ("much longer": the drop takes at most a
    quarter of the plateau); (b) the initial error is >= 0.45 in at least 90% of the inits; (c) at 4 equally
    spaced steps up to T_0.45 the GD's relevant weights are within 1% (relative) of the gradient flow
    (relevant_flow, Dormand-Prince, tolerance 1e-11): the step is "small"; (d) at least half of the SGD runs
    reach error 0 (before a blow-up); (e) among them the median T_0.45 / T_0 >= 0.5.  Plots: the validation
    error against t (GD: t = eta x steps; SGD: steps) for the median-T_0 run and a few others, as the figure.

    Exactness
    ---------
    Statistical, seeded (bit-for-bit reproducible).  Errors exact (enumeration of the block sums); T_0.45 and
    T_0 exact per GD step, to ``every`` steps for SGD.  The median of 200 (left) and ~32 (right) i.i.d. ratios
    has a standard error of a few hundredths; the thresholds 0.8 and 0.5 are the readings of "much longer"
    and "plateau then drop" fixed before the run.

    Mutants
    -------
    left-no-plateau (median <= 0.5) and right-no-plateau (median <= 0.3): rejected by the measured medians.
    left-plateau-near-boundary (median <= 0.75, the side of the measured 0.776 that a shorter plateau would
    give) and right-plateau-near-boundary (>= 0.75): just beyond the measured medians.

    Result (full tier, recorded after the criteria were fixed): not reproduced, narrowly.  Left (200 inits,
    all reach error 0): median T_0.45 / T_0 = 0.776 (quartiles 0.70, 0.85) against the pre-registered 0.8:
    the plateau is ~3.5x as long as the drop (t = eta x steps: median T_0.45 = 1.07, T_0 = 1.375), not the
    4x that criterion (a) asks; the initial error is >= 0.481 in every init (b holds); the GD's relevant
    weights deviate from the flow by at most 1.011% (c fails, 1.011% > 1%: eta = 1e-3 is at the edge of
    "small" for the fastest inits).  Right (32 runs, all reach error 0 and blow up 740-1460 steps
    after it): median T_0.45 / T_0 = 0.705 (quartiles 0.56, 0.75), (d) and (e) hold.  The shape
    (chance-level plateau, then a sharp drop) is seen in both panels; it is the "much longer" of (a) that the
    re-run does not reach at n' = 20 (Theorem 5.7: 1 - ratio ~ n'^(1 - k/2), so it grows towards 1 only
    slowly with n').  Quick tier: left 0.788 (16 inits), dev 0.79%; right 0.584 (n' = 6).  16 s CPU.

    Notes
    -----
    Tiers: quick (3 blocks of n' = 12, 16 inits, eta = 2e-3; SGD n' = 6, 8 runs, 6e4 steps) is a smoke test of
    the same criteria; full k = 3, n' = 20 (n = 60, near the (50, 3) of the other figures), 200 inits, eta =
    1e-3; SGD n' = 10 (n = 30), 32 runs, lr = 1e-4, 2 x 10^5 steps; gpu n' = 22 and 12, 1000 runs each, 10x
    smaller steps.  The sizes of the figure are not printed, so what is "reproduced" is the shape.  With a
    constant rate the SGD iterates blow up (finite-time blow-up of the product dynamics, catalog E26) shortly
    after reaching zero error; the figure stops before, and so does the judgement here (runs are judged on
    their checkpoints before the blow-up; the blow-up steps are in the details).
    """
    k = p["k"]
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    gd = _population_gd(ctx.seed(f"b1/gd/k={k}/n1={p['n1_gd']}"), k, p["n1_gd"], p["gd_runs"], float(p["eta"]),
                        p["gd_cap"])
    sgd = _sgd_batch1(ctx.seed(f"b1/sgd/k={k}/n1={p['n1_sgd']}"), k, p["n1_sgd"], p["sgd_runs"], float(p["lr"]),
                      p["sgd_cap"], p["every"], ctx.backend)
    done = gd.t_zero > 0
    ratio_gd = gd.t_level[done] / gd.t_zero[done]
    med_gd = float(np.median(ratio_gd)) if ratio_gd.size else math.nan
    case_gd = {"panel": "left (population GD)", "k": k, "n'": p["n1_gd"], "eta": p["eta"], "inits": p["gd_runs"],
               "reached error 0": int(done.sum()), "median T_0.45/T_0": med_gd,
               "quartiles": np.percentile(ratio_gd, [25, 75]).tolist() if ratio_gd.size else None}
    sdone = sgd.t_zero > 0
    ratio_sgd = sgd.t_level[sdone] / sgd.t_zero[sdone]
    med_sgd = float(np.median(ratio_sgd)) if ratio_sgd.size else math.nan
    case_sgd = {"panel": "right (SGD, B = 1)", "k": k, "n'": p["n1_sgd"], "lr": p["lr"], "runs": p["sgd_runs"],
                "reached error 0": int(sdone.sum()), "median T_0.45/T_0": med_sgd,
                "quartiles": np.percentile(ratio_sgd, [25, 75]).tolist() if ratio_sgd.size else None}
    if st.left_min is not None:
        ev.add(dict(case_gd, part=f"(a) median T_0.45/T_0 >= {st.left_min}"), med_gd if done.mean() >= 0.5 else 0.0,
               st.left_min, part="left_plateau")
        frac = float(np.mean(gd.err0 >= PLATEAU_LEVEL))
        ev.add(dict(case_gd, part="(b) initial error >= 0.45 in >= 90% of inits", fraction=frac), frac >= 0.9,
               relation="true", part="left_start")
        dev = float(np.nanmax(gd.flow_dev)) if np.isfinite(gd.flow_dev).any() else math.inf
        ev.add(dict(case_gd, part=f"(c) GD within {st.flow_tol} of the flow up to T_0.45", max_rel_dev=dev),
               dev <= st.flow_tol, relation="true", part="left_small_step")
    if st.left_max is not None:
        ev.add(dict(case_gd, part=f"median T_0.45/T_0 <= {st.left_max}"), med_gd, st.left_max, relation="le")
    if st.right_min is not None:
        frac = float(sdone.mean())
        ev.add(dict(case_sgd, part="(d) >= half of the SGD runs reach error 0", fraction=frac), frac >= 0.5,
               relation="true", part="right_converges")
        ev.add(dict(case_sgd, part=f"(e) median T_0.45/T_0 >= {st.right_min}"), med_sgd if frac >= 0.5 else 0.0,
               st.right_min, part="right_plateau")
    if st.right_max is not None:
        ev.add(dict(case_sgd, part=f"median T_0.45/T_0 <= {st.right_max}"), med_sgd, st.right_max, relation="le")
    if ctx.statement_tag == "printed":
        ev.details["left: population GD"] = dict(case_gd, **{
            "T_0.45 (t = eta steps) quartiles": (gd.eta * np.percentile(gd.t_level[done], [25, 50, 75])).tolist()
            if done.any() else None,
            "T_0 quartiles": (gd.eta * np.percentile(gd.t_zero[done], [25, 50, 75])).tolist() if done.any() else None,
            "initial error: min, median": [float(gd.err0.min()), float(np.median(gd.err0))],
            "max relative deviation GD vs flow": float(np.nanmax(gd.flow_dev)) if np.isfinite(gd.flow_dev).any() else None})
        ev.details["right: SGD B = 1"] = dict(case_sgd, **{
            "T_0.45 per run": sgd.t_level.tolist(), "T_0 per run": sgd.t_zero.tolist(),
            "blow-up step per run (-1: none within the cap)": sgd.diverged_at.tolist()})
        ev.details["paper"] = "image only: no sizes, rates or times printed"
        ev.plots.append(_b1_plot(gd.curves, gd.t_zero, gd.eta, "left: population GD, eta = %g, k = %d, n' = %d"
                                 % (gd.eta, k, p["n1_gd"]), "t = eta x steps"))
        ev.plots.append(_b1_plot(sgd.curves, sgd.t_zero, 1.0, "right: SGD, B = 1, constant lr = %g, k = %d, n' = %d"
                                 % (sgd.lr, k, p["n1_sgd"]), "SGD step t"))
    return ev.verdict(backend=ctx.backend, seed=ctx.seed(f"b1/gd/k={k}/n1={p['n1_gd']}"), note=f"statement: {st.text}")


def _b1_plot(curves, t_zero, scale: float, title: str, xlabel: str) -> dict:
    done = np.flatnonzero(t_zero > 0)
    series = []
    if done.size:
        order = done[np.argsort(t_zero[done], kind="stable")]
        picks = [order[len(order) // 2]] + [order[int(q * (len(order) - 1))] for q in (0.1, 0.9)]
        for j, r in enumerate(dict.fromkeys(int(x) for x in picks)):
            steps, err = curves[r]
            series.append({"label": "median-T_0 run" if j == 0 else f"run {r}", "x": (scale * steps).tolist(),
                           "y": err.tolist(), "style": "b-" if j == 0 else "-"})
    return {"title": "Fig. B.1 re-run, " + title, "xlabel": xlabel, "ylabel": "validation error (exact)",
            "series": series}


# ---------------------------------------------------------------------------------------------
# Figure B.13: polynomial-activation (z^3) MLPs on (50, 3): descent speeds up with r and B, no sharp transition
# ---------------------------------------------------------------------------------------------

B13_ID = "thesis_ch5.figure_B.13"
#: the error level that ends the descent (t_05) and the level that ends the plateau (t_45)
END_LEVEL = 0.05


@dataclass(frozen=True)
class CurveCell:
    steps: np.ndarray  # (C,) evaluation steps
    err: np.ndarray  # (seeds, C) validation error (NaN after the run stopped)
    t45: np.ndarray  # (seeds,) first eval step with err <= 0.45 (inf if none)
    t05: np.ndarray  # (seeds,) first eval step with err <= 0.05 (inf if none)
    e_half: np.ndarray  # (seeds,) err at the eval step t05 / 2 (rounded down to the grid; NaN if t05 = inf)


def curve_cell(n: int, k: int, act: str, width: int, batch: int, lr: float, seeds: tuple, steps: int, eval_every: int,
               n_eval: int, backend: str) -> CurveCell:
    """One (activation, r, B) cell: ``len(seeds)`` online-SGD runs (hinge, uniform init, float32), stopped at
    validation error <= 0.05 on ``n_eval`` held-out samples (a piece of Context.map: depends on its arguments)."""
    activation = Activation.power(k) if act == "poly" else "relu"
    res = train_two_layer(n, k, width=width, seeds=np.array(seeds, dtype=np.uint64), steps=steps, activation=activation,
                          batch=batch, lr=lr, loss="hinge", init="uniform", eval_every=eval_every, n_eval=n_eval,
                          target_accuracy=1.0 - END_LEVEL, stop_on_convergence=True, record_every=eval_every,
                          dtype="float32", backend=backend)
    err = 1.0 - res.eval_accuracy
    R = err.shape[0]
    t45, t05, e_half = np.full(R, np.inf), np.full(R, np.inf), np.full(R, np.nan)
    for r in range(R):
        a = np.flatnonzero(err[r] <= PLATEAU_LEVEL + 1e-12)
        b = np.flatnonzero(err[r] <= END_LEVEL + 1e-12)
        if a.size:
            t45[r] = res.record_steps[a[0]]
        if b.size:
            t05[r] = res.record_steps[b[0]]
            e_half[r] = err[r, b[0] // 2]
    return CurveCell(res.record_steps, err, t45, t05, e_half)


_B13_CACHE: dict = {}


def _b13_cells(root: int, n: int, widths: tuple, batches: tuple, lr: float, relu_lr: float, seeds: int, steps: int,
               eval_every: int, n_eval: int, backend: str, mapper) -> dict:
    """Every cell of the grid plus the ReLU control, one Context.map piece per cell (cached by the arguments
    other than ``mapper``, so that the printed statement and the mutants read the same runs)."""
    key = (root, n, widths, batches, lr, relu_lr, seeds, steps, eval_every, n_eval, backend)
    if key in _B13_CACHE:
        return _B13_CACHE[key]
    if len(_B13_CACHE) >= 8:
        _B13_CACHE.clear()
    pieces, keys = [], []
    run_seeds = tuple(int(s) for s in _seeds(root, seeds))  # the same seeds (inits and data) in every cell
    for r in widths:
        for B in batches:
            keys.append(("poly", r, B))
            pieces.append((n, 3, "poly", r, B, lr, run_seeds, steps, eval_every, n_eval, backend))
    keys.append(("relu", widths[-1], batches[-1]))
    pieces.append((n, 3, "relu", widths[-1], batches[-1], relu_lr, run_seeds, steps, eval_every, n_eval, backend))
    _B13_CACHE[key] = dict(zip(keys, mapper(curve_cell, pieces)))
    return _B13_CACHE[key]


def _rate(cell: CurveCell, eval_every: int) -> np.ndarray:
    """Descent rate per run: (0.45 - 0.05) / (t_05 - t_45 + eval_every) (error per step; 0 if not learned)."""
    with np.errstate(invalid="ignore"):
        d = (PLATEAU_LEVEL - END_LEVEL) / (cell.t05 - cell.t45 + eval_every)
    return np.where(np.isfinite(cell.t05), d, 0.0)


@dataclass(frozen=True)
class B13Statement:
    """Fig. B.13 / App. B.3.8 read as: (a) every z^3 cell is learned (median t_05 finite); (b) the median descent
    rate grows with the width (r_max against r_min at each B); (c) and with the batch (B_max against B_min at
    each r); (d) continuous progress at the largest r and B: median error at t_05 / 2 <= ``e_half_max``; (e) the
    ReLU MLP of the same width and batch has a plateau: median error at t_05 / 2 >= ``relu_e_half_min``.
    ``unlearned``: a mutant claiming some z^3 cell is not learned; ``relu_e_half_max``: a mutant claiming ReLU is continuous too;
    ``e_half_min``: a mutant's lower bound on (d)'s error."""

    text: str
    e_half_max: float | None = 0.40
    relu_e_half_min: float | None = 0.45
    unlearned: bool = False
    relu_e_half_max: float | None = None
    e_half_min: float | None = None


_B13_PRINTED = B13Statement("Fig. B.13: z^3 MLPs on (50, 3): the rate of descent of the validation error increases "
                            "with r and B; continuous progress at large r and B, unlike ReLU (sharp transitions)")


def _ints_list(claim_id: str, name: str, text: str) -> tuple[int, ...]:
    try:
        vals = tuple(sorted({int(v) for v in str(text).split(",") if v.strip()}))
    except ValueError:
        raise InvalidParameter(f"{claim_id}: argument '{name}' must be comma-separated integers, not {text!r}") from None
    if len(vals) < 2 or vals[0] < 1 or vals[-1] > 4096:
        raise InvalidParameter(f"{claim_id}: argument '{name}' must list at least two integers in [1, 4096], not {text!r}")
    return vals


@claim(
    id=B13_ID,
    figure="Figure B.13",
    source=SOURCE,
    label="Figure B.13",
    entry="E30",
    title="z^3 MLPs on (50, 3): descent faster with r and B and without a plateau at large r, B, unlike ReLU (not "
          "reproduced at B <= 256: the wide nets leave chance earlier but descend more slowly; ReLU's plateau is seen)",
    lines=[(3862, 3869)],
    printed=_B13_PRINTED,
    parts=[
        Part("learned", "settings (iv)-(vi) learn (50, 3) (the curves reach zero error): criterion (a)"),
        Part("rate_width", "'the rate of descent of the validation error increases with [the width r]': criterion (b)"),
        Part("rate_batch", "'... and [the batch size B]': criterion (c)"),
        Part("continuous", "'these settings exhibit continuous progress when the width r and batch size B are large' "
             "(caption): criterion (d), median error at t_05/2 <= 0.40", inequality=True),
        Part("relu_contrast", "'this does not occur with ReLU activations (where there are sharp phase transitions "
             "between plateaus at all batch sizes)': criterion (e), at the largest r and B only"),
        Part("paper_grid", "the figure's grid of r and B", asserted=False,
             reason="not printed; the re-run uses r in {10, 100, 1000} (settings (iv)-(vi)) and B in {32, 256} at full "
                    "(B = 1024 only in the gpu tier: a width-1000 z^3 step at B = 1024 costs 0.035 s here)"),
    ],
    mutants=[
        Mutant("z3-not-learned", "some z^3 MLP of the grid does not learn (50, 3) within the cap (median t_05 "
               "infinite)", replace(_B13_PRINTED, text="some z^3 cell not learned", unlearned=True, e_half_max=None,
                                    relu_e_half_min=None)),
        Mutant("relu-continuous", "ReLU at the largest r and B progresses continuously too (median error at t_05/2 "
               "<= 0.40)", replace(_B13_PRINTED, text="ReLU e_half <= 0.40", e_half_max=None, relu_e_half_min=None,
                                   relu_e_half_max=0.40)),
        Mutant("continuous-near-boundary", "the z^3 MLP at the largest r and B is still on a plateau half-way to "
               "t_05 (median e_half >= 0.45; measured 0.437 full, 0.441 quick: barely excluded)",
               replace(_B13_PRINTED, text="e_half >= 0.45", e_half_max=None, relu_e_half_min=None, e_half_min=0.45),
               near_boundary=True, part="continuous"),
    ],
    expect=Status.NOT_REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[
        Param("n", int, 6, 64, doc="input dimension (the figure: 50; k = 3)"),
        Param("widths", str, doc="comma-separated widths r (settings (iv), (v), (vi): 10, 100, 1000)"),
        Param("batches", str, doc="comma-separated batch sizes B"),
        Param("lr", float, 1e-5, 1.0, doc="SGD rate of the z^3 MLPs (B.4.1: 0.01)"),
        Param("relu_lr", float, 1e-5, 10.0, doc="SGD rate of the ReLU control (B.2 row 4: 0.1)"),
        Param("seeds", int, 1, 1000, doc="runs per cell"),
        Param("steps", int, 100, 10_000_000, doc="cap per run"),
        Param("eval_every", int, 1, 10_000, doc="validation stride"),
        Param("n_eval", int, 128, 65_536, doc="held-out validation samples"),
    ],
    tiers={"quick": {"n": 20, "widths": "10,100", "batches": "16,64", "lr": 0.01, "relu_lr": 0.1, "seeds": 1,
                     "steps": 4000, "eval_every": 20, "n_eval": 512},
           "full": {"n": 50, "widths": "10,100,1000", "batches": "32,256", "lr": 0.01, "relu_lr": 0.1, "seeds": 2,
                    "steps": 10_000, "eval_every": 50, "n_eval": 2048},
           "gpu": {"n": 50, "widths": "10,100,1000", "batches": "32,256,1024", "lr": 0.01, "relu_lr": 0.1, "seeds": 8,
                   "steps": 50_000, "eval_every": 50, "n_eval": 8192}},
    uses_backend=True,
)
def check_figure_b13(st: B13Statement, p, ctx) -> Verdict:
    """Figure B.13: training curves of polynomial-activation MLPs (settings (iv)-(vi)) on (50, 3).

    Statement
    ---------
    "Figure B.13 shows a few additional examples of training curves for polynomial-activation MLPs, varying the
    width r and batch size B.  We find that the rate of descent of the validation error increases with both of
    these parameters; note that this does not occur with ReLU activations (where there are sharp phase
    transitions between plateaus at all batch sizes)." (lines 3862-3863); caption: "Unlike the other
    architectures, these settings exhibit continuous progress when the width r and batch size B are large."
    Settings (iv)-(vi): width 10 / 100 / 1000 MLPs with sigma(z) = z^k; hinge loss; uniform (Xavier / torch)
    init; B.2 row 4 runs (vi) at (B, eta) = (1024, 0.01) and (iii) (ReLU, width 1000) at (1024, 0.1).

    Source
    ------
    Seed 004, App. B.3.8, Figure B.13 and its discussion, lines 3860-3869 (caption line 3867); settings and rates
    B.4.1 lines 3995-4010.

    Checkable form
    --------------
    Two-layer MLP f = sum_j u_j (w_j.x + b_j)^3 + c (kernels.training.train_two_layer, Activation.power(3)),
    hinge loss, torch's uniform init, online SGD at rate ``lr`` on the (n, 3)-parity, float32; ``seeds`` runs
    per (r, B) cell (the same run seeds in every cell); validation error on ``n_eval`` held-out samples every
    ``eval_every`` steps; a run stops at error <= 0.05.  Per run: t_45 / t_05 = first evaluation with error
    <= 0.45 / <= 0.05, the descent rate D = 0.40 / (t_05 - t_45 + eval_every), and e_half = the error at the
    evaluation t_05 / 2 (rounded down).  Control: the ReLU MLP of the largest width at the largest batch, rate
    ``relu_lr``, same seeds.  Pre-registered criteria (fixed before the full-tier run): (a) every z^3 cell has
    a finite median t_05; (b) at each B the median D at the largest width exceeds that at the smallest; (c) at
    each r the median D at the largest B exceeds that at the smallest; (d) at the largest r and B the median
    e_half is <= 0.40 (visible progress half-way to t_05: no plateau); (e) the ReLU control's median e_half
    is >= 0.45 (still on its plateau half-way: a sharp transition).  Plots: validation error against t for
    every cell (the figure's axes), the ReLU control dashed.

    Exactness
    ---------
    Statistical, seeded (bit-for-bit reproducible).  Medians of ``seeds`` runs (2 at full): (b) and (c)
    compare cells whose D differ by more than the seed spread in side runs; e_half is read on the validation
    grid (resolution eval_every, error standard error <= 0.011 at n_eval = 2048).

    Mutants
    -------
    z3-not-learned: some z^3 cell has an infinite median t_05 (every run of every cell learns).
    relu-continuous: ReLU's e_half <= 0.40 (measured 0.505 full, 0.459 quick).
    continuous-near-boundary: median e_half >= 0.45 at the largest r and B (measured 0.437 full, 0.441 quick).

    Result (full tier, recorded after the criteria were fixed): not reproduced.  Every run learns (t_05 =
    1000-1400 steps for z^3, 2000-2050 for the ReLU control), (a) and (e) hold (ReLU e_half 0.505: a flat
    plateau, then a drop in ~425 steps).  (b) fails at both batches: the median descent rate D of r = 1000 is
    below that of r = 10 (B = 32: 6.7e-4 vs 7.6e-4 per step; B = 256: 5.7e-4 vs 8.0e-4); (c) holds at r = 10
    (8.0e-4 vs 7.6e-4) and fails at r = 100 (1.07e-3 vs 1.37e-3) and r = 1000 (5.7e-4 vs 6.7e-4); (d) fails:
    median e_half 0.437 > 0.40 at r = 1000, B = 256.  What is seen instead (not a criterion): the wide z^3
    networks leave chance level earlier (median t_45 450 at r = 1000, B = 256 against 725 at r = 10) and then
    descend more slowly, so the descent is more gradual with r and B (the caption's "continuous progress"),
    but neither the time to 5% error (1100-1350 for every cell) nor the pre-registered rate grows with r or B
    at these sizes; B = 1024 (the figure's) is only in the gpu tier.  60-75 s wall (40-44 s CPU) on the
    shared machine.

    Notes
    -----
    Tiers: quick (n = 20, r in {10, 100}, B in {16, 64}, 1 seed) is a smoke test of the same criteria; full
    (50, 3), r in {10, 100, 1000}, B in {32, 256}, 2 seeds; gpu adds B = 1024 (the figure's large batch) and 8
    seeds.  The cells run as Context.map pieces (one per cell).  The quick tier is not reproduced either
    ((c) at r = 100: equal rates on its 20-step grid; (d) e_half 0.441 > 0.40; ReLU e_half 0.459); its runs
    take 460-1020 steps, so it cannot resolve rates finer than its grid (the full tier's 50-step grid on
    1000-2000-step runs can).
    """
    widths = _ints_list(ctx.claim_id, "widths", p["widths"])
    batches = _ints_list(ctx.claim_id, "batches", p["batches"])
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    cells = _b13_cells(ctx.seed(f"b13/n={p['n']}"), p["n"], widths, batches, float(p["lr"]), float(p["relu_lr"]),
                       p["seeds"], p["steps"], p["eval_every"], p["n_eval"], ctx.backend, ctx.map)
    ee = p["eval_every"]
    med_t05 = {c: float(np.median(v.t05)) for c, v in cells.items()}
    med_D = {c: float(np.median(_rate(v, ee))) for c, v in cells.items()}
    with np.errstate(all="ignore"):
        med_eh = {c: float(np.median(v.e_half)) if np.isfinite(v.t05).sum() * 2 > len(v.t05) else math.nan
                  for c, v in cells.items()}
    poly = [c for c in cells if c[0] == "poly"]
    r0, r1, b0, b1 = widths[0], widths[-1], batches[0], batches[-1]
    if not st.unlearned and st.relu_e_half_max is None and st.e_half_min is None:
        for c in poly:
            ev.add({"part": "(a) median t_05 finite", "r": c[1], "B": c[2], "t_05 per seed": cells[c].t05.tolist()},
                   math.isfinite(med_t05[c]), relation="true", part="learned")
        for B in batches:
            ev.add({"part": "(b) D(r_max) > D(r_min)", "B": B, "D": [med_D["poly", r0, B], med_D["poly", r1, B]]},
                   med_D["poly", r1, B] > med_D["poly", r0, B], relation="true", part="rate_width")
        for r in widths:
            ev.add({"part": "(c) D(B_max) > D(B_min)", "r": r, "D": [med_D["poly", r, b0], med_D["poly", r, b1]]},
                   med_D["poly", r, b1] > med_D["poly", r, b0], relation="true", part="rate_batch")
    if st.unlearned:
        ev.add({"part": "some z^3 cell has an infinite median t_05", "median t_05": [med_t05[c] for c in poly]},
               any(not math.isfinite(med_t05[c]) for c in poly), relation="true")
    top = ("poly", r1, b1)
    case = {"r": r1, "B": b1, "e_half per seed": cells[top].e_half.tolist(), "median e_half": med_eh[top]}
    if st.e_half_max is not None:
        ev.add(dict(case, part=f"(d) median e_half <= {st.e_half_max}"), med_eh[top], st.e_half_max, relation="le",
               part="continuous")
    if st.e_half_min is not None:
        ev.add(dict(case, part=f"median e_half >= {st.e_half_min}"), med_eh[top], st.e_half_min, relation="ge")
    relu = ("relu", r1, b1)
    rcase = {"r": r1, "B": b1, "lr": p["relu_lr"], "e_half per seed": cells[relu].e_half.tolist(),
             "median e_half": med_eh[relu], "t_05 per seed": cells[relu].t05.tolist()}
    if st.relu_e_half_min is not None:
        ev.add(dict(rcase, part=f"(e) ReLU median e_half >= {st.relu_e_half_min}"), med_eh[relu] >= st.relu_e_half_min,
               relation="true", part="relu_contrast")
    if st.relu_e_half_max is not None:
        ev.add(dict(rcase, part=f"ReLU median e_half <= {st.relu_e_half_max}"), med_eh[relu], st.relu_e_half_max,
               relation="le")
    if ctx.statement_tag == "printed":
        ev.details["per cell (act, r, B): median t_45, t_05, D, e_half"] = {
            f"{c[0]} r={c[1]} B={c[2]}": {"t_45": float(np.median(v.t45)), "t_05": med_t05[c], "D": med_D[c],
                                          "e_half": med_eh[c], "t_05 per seed": v.t05.tolist()}
            for c, v in cells.items()}
        ev.details["paper"] = "image only: no widths, batches or times printed for Fig. B.13"
        series = []
        for c, v in cells.items():
            label = f"{'z^3' if c[0] == 'poly' else 'ReLU (control)'} r = {c[1]}, B = {c[2]}"
            series.append({"label": label, "x": v.steps.tolist(), "y": _ffill(v.err)[0].tolist(),
                           "style": "--" if c[0] == "relu" else "-"})
        ev.plots.append({"title": f"Fig. B.13 re-run: ({p['n']}, 3)-parity, z^3 MLPs (eta = {p['lr']:g}) and the ReLU "
                                  f"control (eta = {p['relu_lr']:g}); first seed per cell",
                         "xlabel": "SGD step t", "ylabel": "validation error", "logx": True, "series": series})
    return ev.verdict(backend=ctx.backend, seed=ctx.seed(f"b13/n={p['n']}"), note=f"statement: {st.text}")

