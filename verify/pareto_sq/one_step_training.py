"""Theorem 6.4 / C.11 executed at small sizes: one large first-layer step from the over-sparse
initialisation, then convex training of the readout (App. C.2.2, lines 4195-4466).

The algorithm is kernels.boolean.pareto_one_step (initialisation of lines 4195-4225 with the corrected bias set,
the step of the proof of Lemma C.6 (3) with lambda = 1 and eta = 1/(2k|C_{k,s}|), the regularised hinge
readout of Lemma C.9 with lambda = eps/B_k^2, solved to a certified duality gap).  Its independent
prediction is the exact population-step law of :func:`kernels.boolean.pareto_one_step.expected_uncovered`
(hypergeometric closed form built from Lemma C.2's p_good and Lemma C.3's C_{k,s}, c_{k,s}).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import stats

from kernels.boolean.cube import sign_vectors
from kernels.boolean.oversparse import p_good_oversparse, parity_readout, xi_rel
from kernels.boolean.pareto_one_step import (
    OneStepInit,
    bias_values,
    expected_uncovered,
    hidden_features,
    one_step_weights,
    oversparse_init,
    readout_minimiser,
    step_size,
    truncation_success_counts,
)
from kernels.training._common import single_threaded_blas

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True

N, K, S = 12, 2, 9
EPS = 0.1  # the readout's target eps (lambda = eps / B_2^2, Lemma C.9)
DELTA_READOUT = EPS  # allowed mean excess of the trained error over the population-step optimum
_ALPHA = 1e-3  # per-row level of the confidence bounds


@dataclass(frozen=True)
class OneStepRecipe:
    """The first-layer step w <- (1 - weight_decay) w - eta_factor/(2k|C_{k,s}|) grad_w L_S."""

    eta_factor: float
    weight_decay: float


def _cube(n: int) -> tuple[np.ndarray, np.ndarray]:
    """All x in {±1}^n (float64 rows) and y = x_1 x_2 (S = the first k = 2 coordinates)."""
    X = sign_vectors(n).astype(np.float64)
    return X, X[:, 0] * X[:, 1]


def _population_activity(X_cube, y_cube, eta: float, weight_decay: float) -> tuple[np.ndarray, np.ndarray]:
    """Cube activity of both copies of a neuron for EVERY s-support, after the step with sample = cube.

    The population step of a neuron depends only on its support (k = 2: one bias value; the sign u
    only swaps the two copies), so the step is executed once for all C(n, s) supports; columns j and
    j + C(n, s) are the two copies, ``index[bitmask of a support]`` = j.
    """
    supports = np.array(list(itertools.combinations(range(N), S)))
    W0 = np.zeros((len(supports), N))
    W0[np.arange(len(supports))[:, None], supports] = 1.0
    beta0 = float(bias_values(K)[0])
    init = OneStepInit(supports, W0, np.full(len(supports), beta0), np.ones(len(supports)))
    with single_threaded_blas():  # one BLAS thread: no spinning idle OpenBLAS threads (same values)
        W, b = one_step_weights(init, X_cube, y_cube, eta, weight_decay=weight_decay)
        active = hidden_features(X_cube, W, b) > 0
    index = np.full(1 << N, -1, dtype=np.int64)
    index[np.sum(1 << supports, axis=1)] = np.arange(len(supports))
    return active, index


@functools.lru_cache(maxsize=8)
def _inits_at_width(r: int, count: int, base_init: int) -> tuple[tuple[OneStepInit, ...], np.ndarray, int]:
    """The ``count`` initialisations of width r (seeds base_init + 1_000_003 r + i), their support bitmasks
    and their number of good free neurons.

    Independent of the statement (the recipe only changes the step), so cached across the printed
    statement and the mutants (keyed by the parameters, never by the statement).
    """
    inits = tuple(oversparse_init(N, K, S, r, base_init + 1_000_003 * r + i) for i in range(count))
    masks = np.array([np.sum(1 << init.supports, axis=1) for init in inits])
    good = sum(int(np.sum(np.any(init.supports == 0, axis=1) & np.any(init.supports == 1, axis=1))) for init in inits)
    return inits, masks, good


def _uncovered_positive_counts(active: np.ndarray, index: np.ndarray, masks: np.ndarray, y_cube: np.ndarray) -> np.ndarray:
    """For each initialisation (row of ``masks``): #{x : y(x) > 0, no copy of its neurons active at x}.

    Exact integer counts, the same as summing ``(y > 0) & ~covered`` over the cube: an initialisation covers x iff
    one of its supports has a copy active at x, so with P[i, j] = 1[support j is among initialisation i's] and
    A[j, x] = 1[a copy of support j is active at x], x is uncovered iff (P A)[i, x] = 0.  The product counts at
    most C(n, s) = 220 ones per entry, exact in float32.
    """
    half = active.shape[1] // 2
    act = active[y_cube > 0]
    act = (act[:, :half] | act[:, half:]).astype(np.float32)  # (positive points, supports)
    cols = index[masks]  # (inits, r/2)
    present = np.zeros((len(masks), half), dtype=np.float32)
    present[np.arange(len(masks))[:, None], cols] = 1.0
    with single_threaded_blas():  # exact either way; one thread spares the spinning of idle OpenBLAS threads
        hits = present @ act.T
    return np.count_nonzero(hits == 0, axis=1).astype(np.int64)


@functools.lru_cache(maxsize=64)
def _expected_uncovered(n: int, s: int, r: int) -> float:
    """expected_uncovered, cached: a closed form of (n, s, r) alone, the same for the printed statement and the
    mutants (and for the plot's curve)."""
    return expected_uncovered(n, s, r)


def _emp_bernstein(values: np.ndarray, span: float, alpha: float) -> float:
    """Two-sided half-width of Maurer & Pontil (2009, Thm 4) for i.i.d. values in an interval of length span."""
    R = values.size
    L = math.log(4 / alpha)
    return math.sqrt(2 * float(np.var(values, ddof=1)) * L / R) + 7 * span * L / (3 * (R - 1))


@claim(
    id="thesis_ch6.theorem_C.11.one_step",
    source=SOURCE,
    label="Theorem C.11 (one-step algorithm)",
    entry="E17",
    title="Theorem 6.4 / C.11 run at n = 12, k = 2, s = 9: the error follows the lottery x one-step-feature law and falls with width",
    lines=[(4195, 4225), (4253, 4340), (4378, 4466)],
    printed=OneStepRecipe(1.0, 1.0),
    mutants=[
        Mutant("half-step", "eta = 1/(4k|C_{k,s}|) (half the proof's step)", OneStepRecipe(0.5, 1.0)),
        Mutant("no-weight-decay", "lambda = 0 in the first step (the initial weights stay)", OneStepRecipe(1.0, 0.0)),
        Mutant("quarter-step", "eta = 1/(8k|C_{k,s}|): eta C s_x <= 1/8 and the c-term <= 1/16, below |beta_0| = 31/64, so every "
               "feature is dead (U = 1/2 at every width)", OneStepRecipe(0.25, 1.0), origin="second-reader"),
    ],
    parts=[Part("lottery", "a free neuron is good w.p. p_good = C(n-k,s-k)/C(n,s) (Lemma C.2 executed)"),
           Part("one-step-features", "after one population step the error of the best readout is the uncovered mass U, "
                "E[U_r] falling with r (Lemmas C.3, C.4, C.6 executed)"),
           Part("readout", "the sample step + convex readout reach the population-step optimum within eps (Lemma C.9 executed)"),
           Part("theorem-constants", "L_D(h) <= eps w.p. >= 1 - delta at the theorem's r, m, T", asserted=False,
                reason="needs s >= 3e9 at k = 2, eps = 0.1 (theorem_C.11.width); executed at (12, 2, 9) instead")],
    expect=Status.MECHANISM,
    rigor=Rigor.MECHANISM,
    kind=Kind.MECHANISM,
    params=[
        Param("inits", int, 50, 10_000, doc="initialisations per width for the population-step law"),
        Param("seeds", int, 3, 1000, doc="trained runs per (width, m)"),
        Param("r_train", int, 4, 1024, doc="trained widths r = 4, 16, 64, ... up to r_train (the law (2) uses r <= 1024)"),
        Param("m_max", int, 100, 100_000, doc="sample sizes m = m_max / 4^j >= 250; the readout check uses m_max"),
    ],
    tiers={"quick": {"inits": 300, "seeds": 3, "r_train": 64, "m_max": 1000},
           "full": {"inits": 1000, "seeds": 16, "r_train": 64, "m_max": 4000}},
)
def check_one_step_training(statement: OneStepRecipe, p, ctx) -> Verdict:
    """Theorem 6.4 / C.11: the proof's algorithm, executed at n = 12, k = 2, s = 9.

    Statement
    ---------
    k even, s odd, r = ceil(20k(2n/s)^k log(2k/delta)), m and T large: the symmetric over-sparse
    initialisation, ONE gradient step on the first-layer weights (lambda = 1, eta = 1/(2k|C_{k,s}|)) and GD on the
    convex regularised readout return h with L_D(h) <= eps w.p. >= 1 - delta.  Mechanism (Lemmas C.2-C.6):
    a neuron is good w.p. p_good = C(n-k,s-k)/C(n,s); after the step a good pair computes
    relu(±eta(C s_x + c Sigma) + beta_0) and a bad neuron is dead, so the error is governed by how many
    good neurons the width buys.

    Source
    ------
    Thesis (seed 004), App. C.2.2: initialisation lines 4195-4225, Lemma C.6 and its proof lines
    4253-4340 (the step), Lemma C.9 lines 4378-4424 (the readout), Theorem C.11 lines 4434-4466
    (Theorem 6.4, line 1222).

    Checkable form
    --------------
    At its constants the theorem needs s >= 3e9 (claim theorem_C.11.width), so it is run at
    (n, k, s) = (12, 2, 9) (s > 4k as in Lemma C.3), widths r = 4, 16, 64, ... <= r_max.
    (1) Lottery (Lemma C.2): the fraction of good free neurons over all initialisations lies in its
        99.9% Clopper-Pearson interval around p_good = 6/11.
    (2) One-step features (Lemmas C.3, C.4, C.6): for k = 2 every feature vanishes where s_x = 0, so the
        best readout of the population-step features errs exactly on U = P_x[s_x = ±2, no good copy
        active].  U is measured by EXECUTING the step with the whole cube as the sample (the exact
        population gradient), ``inits`` initialisations per width; its mean must lie within the
        empirical-Bernstein 99.9% band (Maurer-Pontil, U in [0, 1/2]) of the closed form
        E[U_r] = sum_{t = ±2} P[s_x = t] E[(1 - p_good a(x))^{r/2} | s_x = t]
        (kernels.boolean.pareto_one_step.expected_uncovered), which falls with r to the floor
        P[s_x = ±2, a(x) = 0] = 0.086 (points where the c-term of every good neuron outweighs the margin
        1/64: a finite-n effect that vanishes as n grows, 0.014 at n = 16).
    (3) Sample step + convex readout: with m = m_max samples (one sample per run, used for both steps)
        the trained network's exact cube 0-1 error exceeds the population-step optimum U(init) of the
        same initialisation by at most DELTA = eps = 0.1 on average: one-sided 99.9% Student-t upper
        bound of the mean excess over the ``seeds`` runs of every trained width r <= r_train (pooled).
    Error versus width and samples (m = m_max/4^j >= 250) is tabulated and plotted.

    Exactness
    ---------
    Statistical, seeded (ctx.seed("init"), ctx.seed("sample")); the errors are exact averages over the
    2^12 cube points (float64 sums of 0/1 indicators).  The band of (2) is distribution-free
    (empirical Bernstein, Bonferroni over the widths); the t bound of (3) assumes near-normal means of
    9-48 runs (quick: 3 seeds x 3 widths; full: 16 x 3).  The readout is Lemma C.9's regularised minimiser computed to duality gap <= 1e-4
    (3000 epochs at most; the largest gap is reported: runs without a good neuron, whose features
    carry no signal, converge slowest).  The closed form E[U_r] is a finite float64 sum (relative
    error 1e-15).  DELTA = eps is the readout's target accuracy (lambda = eps/B_2^2).

    Quick is a smoke test of what full shows: the same (1)-(3) at the same 99.9% levels, with 3 trained
    runs per width instead of 16, m = m_max = 1000 instead of 4000, and 300 initialisations instead of
    1000.  It still decides every part and rejects every mutant (quick: printed mean excess 0.010, upper
    bound 0.063 <= DELTA = 0.1; no-weight-decay mean 0.24, bound 0.34 > DELTA, so its rejection does not
    depend on the t spread); it cannot show the error-vs-m table (quick trains at m = m_max only; full at
    m = 250, 1000, 4000), and its t bound on the mean excess (8 degrees of freedom) is ~4 times as wide as
    at full.  (m_max = 500 is too small: the readout of a 3-seed run does not reach its duality gap and
    the bound exceeds DELTA.)  At the quick tier a mutant already rejected by (2) is not trained for (3)
    (the details say so): every mutant is: half-step and quarter-step (U = 1/2), no-weight-decay at r = 4
    (mean U 0.199 against E[U_4] = 0.284, |difference| 0.085 = 2.1 x the half-width 0.041); the full tier
    trains every statement, so no-weight-decay's (3) failure is shown there.  ~2.4 CPU s (was ~6: two
    trained statements of 9 readouts each, now one).

    Mutants
    -------
    Second reader: quarter step (eta C s_x <= 1/8, c-term <= eta |c| (s - k) <= (1/16) since |c|/|C| = (k-1)/(s-k);
    1/8 + 1/16 < 31/64): every feature dead, U = 1/2 (exact), rejected by (2) as the half step.
    Half step (eta = 1/(4k|C|)): eta C s_x reaches only 1/4 < |beta_0| = 31/64, every neuron is dead,
    U = 1/2 for every width, far outside the band of (2).  No weight decay in the first step: the
    initial 0/1 weights stay in the features, which fire at s_x = 0 as well; the readout cannot reach
    the population-step optimum (error ~0.4 against U ~0.2), rejected by (3).
    """
    ev = Evidence("le", rigor=Rigor.MECHANISM)
    X_cube, y_cube = _cube(N)
    eta = float(step_size(K, S)) * statement.eta_factor
    lam = EPS / float(parity_readout(K, [0])[1])
    base_init, base_sample = ctx.seed("init") % 2**40, ctx.seed("sample") % 2**40
    active, index = _population_activity(X_cube, y_cube, eta, statement.weight_decay)
    widths = [4 * 4**j for j in range(5)]  # 4 .. 1024 for the population-step law
    train_widths = [r for r in widths if r <= p["r_train"]]
    ms = sorted(m for m in (p["m_max"] // 4**j for j in range(6)) if m >= 250)
    if ctx.tier == "quick":
        ms = ms[-1:]  # quick: only m = m_max (the one (3) checks); the error-vs-m table is a full-tier output
    p_good = float(p_good_oversparse(N, K, S))
    good_total = neurons_total = 0
    table, curves_U, curves_err = [], [], {m: [] for m in ms}
    max_gap, diffs = 0.0, []
    # quick only: a mutant already rejected by (2) is not trained (its verdict is decided; the full tier trains every
    # statement, so its (3) numbers for the mutants stay in the full report)
    skip_training = False
    for r in widths:
        all_inits, masks, good = _inits_at_width(r, p["inits"], base_init)
        U = _uncovered_positive_counts(active, index, masks, y_cube) / y_cube.size
        good_total += good
        neurons_total += p["inits"] * (r // 2)
        inits = list(all_inits[:p["seeds"]]) if r in train_widths else []
        EU = _expected_uncovered(N, S, r)
        hw = _emp_bernstein(U, 0.5, _ALPHA / len(widths))
        held2 = ev.add({"r": r, "check": "(2) |mean U - E[U_r]| <= empirical-Bernstein half-width", "inits": p["inits"],
                        "mean U": float(U.mean()), "E[U_r]": EU}, abs(float(U.mean()) - EU), hw)
        if not held2 and ctx.tier == "quick" and ctx.statement_tag.startswith("mutant:"):
            skip_training = True
        curves_U.append(float(U.mean()))
        row = {"r": r, "E[U_r]": EU, "mean U": float(U.mean())}
        for m in ms if inits and not skip_training else ():
            errs = []
            for i, init in enumerate(inits):
                rng = np.random.default_rng(np.random.SeedSequence([base_sample, r, m, i]))
                X = rng.choice(np.array([-1.0, 1.0]), size=(m, N))
                y = X[:, 0] * X[:, 1]
                W1, b1 = one_step_weights(init, X, y, eta, weight_decay=statement.weight_decay)
                fit = readout_minimiser(hidden_features(X, W1, b1), y, lam, gap_tol=1e-4, max_epochs=3000)
                errs.append(float(np.mean(y_cube * fit.predict(hidden_features(X_cube, W1, b1)) <= 0)))
                if m == ms[-1]:
                    max_gap = max(max_gap, fit.gap)
                    diffs.append(errs[-1] - U[i])
            row[f"err m={m}"] = float(np.mean(errs))
            curves_err[m].append(float(np.mean(errs)))
        table.append(row)
    d = np.array(diffs)
    if skip_training:
        ev.details["(3) not run (quick tier: this mutant is already rejected by (2))"] = True
    else:
        ucb = float(d.mean() + stats.t.ppf(1 - _ALPHA, d.size - 1) * d.std(ddof=1) / math.sqrt(d.size))
        ev.add({"m": ms[-1], "widths": train_widths, "check": "(3) upper bound of mean(trained error - U(init))",
                "runs": d.size, "mean": float(d.mean())}, ucb, DELTA_READOUT)
    lo = float(stats.beta.ppf(_ALPHA / 2, good_total, neurons_total - good_total + 1))
    hi = float(stats.beta.ppf(1 - _ALPHA / 2, good_total + 1, neurons_total - good_total))
    case = {"check": "(1) good-neuron fraction vs p_good (Lemma C.2)", "good": good_total, "neurons": neurons_total}
    ev.add(dict(case, side="CP lower <= p_good"), lo, p_good)
    ev.add(dict(case, side="p_good <= CP upper"), p_good, hi)
    ev.details["error versus width and samples (exact cube error, mean over seeds)"] = table
    ev.details["readout duality gap at m_max (max over runs)"] = max_gap
    if d.size:
        ev.details["mean excess of trained error over U(init) at m_max"] = float(d.mean())
    ev.details["eta, lambda"] = {"eta": eta, "lambda": lam}
    rs = [2**j for j in range(1, 11)]
    series = [{"x": rs, "y": [_expected_uncovered(N, S, r) for r in rs], "label": "E[U_r] closed form", "style": "-"},
              {"x": widths, "y": curves_U, "label": "mean U(init), population step executed", "style": "o"}]
    series += [{"x": train_widths, "y": curves_err[m], "label": f"trained, m = {m}", "style": "s--"} for m in ms
               if len(curves_err[m]) == len(train_widths)]
    ev.plots.append({"title": f"Thm C.11 algorithm at (n,k,s)=({N},{K},{S}): cube error vs width",
                     "xlabel": "width r", "ylabel": "0-1 error", "logx": True, "logy": False, "series": series})
    return ev.verdict(seed=ctx.seed("init"))


# ---------------------------------------------------------------------------------------------
# E22. Theorem 6.5 / C.16: the sample size of the truncated one-step update, measured
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SampleScaling:
    """m_50%(n) = Theta((n - s)^exponent(k, s) log n) for the truncated sample step of a good neuron."""

    exponent: Callable[[int, int], int]


def _m50(ms: list[int], freq: np.ndarray) -> float:
    """Smallest m with success frequency >= 1/2, interpolated geometrically with its predecessor."""
    j = int(np.argmax(freq >= 0.5))
    if freq[j] < 0.5:
        return math.inf
    if j == 0:
        return float(ms[0])
    f0, f1 = float(freq[j - 1]), float(freq[j])
    t = (0.5 - f0) / (f1 - f0)
    return float(ms[j - 1] * (ms[j] / ms[j - 1]) ** t)


@functools.lru_cache(maxsize=16)
def _success_counts(n: int, k: int, s: int, ms: tuple, trials: int, gamma: float, seed: int) -> np.ndarray:
    """truncation_success_counts, cached: the counts do not depend on the statement (only the exponent of the
    ratio does), so the printed statement and the mutants share one Monte Carlo run (same arguments, same numbers)."""
    counts = np.asarray(truncation_success_counts(n, k, s, list(ms), trials, gamma, seed))
    counts.setflags(write=False)
    return counts


@claim(
    id="thesis_ch6.theorem_C.16.sample_size",
    source=SOURCE,
    label="Theorem 6.5 / C.16 (sample size)",
    entry="E22",
    title="Theorem 6.5 / C.16: the truncated sample step isolates S minus S' from m_50% ~ (n-s)^{k-s-1} log n samples (measured)",
    lines=[(1234, 1236), (4602, 4626)],
    printed=SampleScaling(lambda k, s: k - s - 1),
    mutants=[Mutant("exponent-k-s+1", "m ~ (n-s)^{k-s+1} log n (the printed tau = |xi_irr|/2 taken at face value)",
                    SampleScaling(lambda k, s: k - s + 1)),
             Mutant("exponent-k-s", "m ~ (n-s)^{k-s} log n (Theorem 6.1's (n/k)^{k-s} read with one power more)",
                    SampleScaling(lambda k, s: k - s)),
             Mutant("exponent-0", "m ~ log n (no power of n - s: the dense-init rate read as sparse)",
                    SampleScaling(lambda k, s: 0), origin="second-reader")],
    parts=[Part("sample-scaling", "m = O((n/k)^{k-s-1}) samples suffice for the truncated step to isolate S minus S' "
                "(measured as m_50%(n) ~ (n-s)^{k-s-1} log n)"),
           Part("subnetwork", "the good subnetwork then computes chi_S", asserted=False,
                reason="the readout of the under-sparse features is checked at the idealised level by theorem_C.16.one_step, "
                "not executed here")],
    expect=Status.MECHANISM,
    rigor=Rigor.MECHANISM,
    kind=Kind.MECHANISM,
    params=[Param("trials", int, 10, 10_000, doc="sample streams per n"),
            Param("n_max", int, 13, 39, doc="n in {13, 19, 27, 39} up to n_max (odd: n - s odd, no ties)")],
    tiers={"quick": {"trials": 30, "n_max": 39}, "full": {"trials": 120, "n_max": 39}},
)
def check_sample_scaling(statement: SampleScaling, p, ctx) -> Verdict:
    """Theorem 6.5 / C.16 (under-sparse one-step subnetwork): the sample size, measured at k = 4, s = 2.

    Statement
    ---------
    k, s even, s < k: after ONE step of batch GD with gradient truncation from m = O((n/k)^{k-s-1})
    samples, a subnetwork of good neurons (S' inside S) computes chi_S.  The proof needs the truncation at
    gamma to keep exactly the coordinates S minus S' of a good neuron: |xi_rel| - tau > gamma > |xi_irr| + tau,
    i.e. m = O(log(n r/delta)/xi_rel^2) with 1/xi_rel^2 ~ (n - s)^{k-s-1} (catalog E22 (c)).

    Source
    ------
    Thesis (seed 004), Theorem 6.5 / C.16: Theorem 6.5 lines 1234-1236; Theorem C.16 and its proof, lines
    4602-4626.

    Checkable form
    --------------
    Monte Carlo (kernels.boolean.pareto_one_step.truncation_success_counts): good neuron of the eps-perturbed
    init (integer weights M = 2(n-s)+1 on S', 1 elsewhere, bias 0), sample gradient
    g_i = (1/m) sum chi_S(x) 1[<w,x> > 0] x_i, truncation gamma = |xi_rel|/2 (the middle of the gap);
    success iff {i : |g_i| > gamma} = S minus S'.  For (k, s) = (4, 2) and n in {13, 19, 27, 39} (n - s odd,
    so <w, x> never ties), ``trials`` streams on the grid m = 2^{j/4}; m_50% is the smallest grid m
    with success frequency >= 1/2 (geometric interpolation).  The statement's scaling holds if
    m_50%(n) / ((n - s)^e log n) varies by at most a factor 2 over the n range (e = k - s - 1 = 1).

    Exactness
    ---------
    Statistical, seeded (ctx.seed("samples")), integer partial sums (exact).  With 30 streams (quick) the
    frequency has standard error <= 0.09, which moves m_50% by about one grid step (2^{1/4}, 19%);
    the factor-2 window absorbs that, while a wrong exponent moves the ratio by ((39-2)/(13-2))^1 = 3.4
    (exponent 2) or 11 (exponent 3).  The measured ratio m_50% xi_rel^2 / log n is reported (2.8-4.0 at quick and full).

    Quick is a smoke test of what full shows: the same n in {13, 19, 27, 39} and test with 30 sample streams
    per n instead of 120.  Printed max/min ratio 1.34 <= 2 (1.28 with 40 streams, the quick size before);
    mutants: exponent 3 at 13.5 (was 14.0), exponent 2 at 4.0 (4.2) and exponent 0 at 2.82 (2.72) > 2, so each
    stays rejected by more than the one-grid-step (19%) noise of m_50%; the full tier's 120 streams halve that noise.

    Mutants
    -------
    Exponent k - s + 1 = 3 (what the printed tau = |xi_irr|/2 would require, see
    theorem_C.16.precision) and exponent k - s = 2: the ratio drifts by factors ~11 and ~3.4.  Second reader:
    exponent 0 drifts by ~3.4 the other way (1/xi_rel^2 grows like (n - s)^{k-s-1}, exact closed form).
    """
    k, s = 4, 2
    ev = Evidence("le", rigor=Rigor.MECHANISM)
    ns = [n for n in (13, 19, 27, 39) if n <= p["n_max"]]
    rows, ratios, series_x, series_y = [], [], [], []
    for n in ns:
        xr = float(abs(xi_rel(n, k, s)))
        ms = sorted({round(2 ** (j / 4)) for j in range(24, 100) if 2 ** (j / 4) <= 40 / xr**2})
        counts = _success_counts(n, k, s, tuple(ms), p["trials"], xr / 2, ctx.seed("samples") % 2**40)
        m50 = _m50(ms, counts / p["trials"])
        ratios.append(m50 / ((n - s) ** statement.exponent(k, s) * math.log(n)))
        rows.append({"n": n, "1/xi_rel^2": 1 / xr**2, "m_50%": m50, "m_50% xi_rel^2 / log n": m50 * xr**2 / math.log(n)})
        series_x.append(n - s)
        series_y.append(m50)
    ev.add({"k": k, "s": s, "n": ns, "exponent": statement.exponent(k, s), "check": "max/min of m_50% / ((n-s)^e log n)"},
           max(ratios) / min(ratios), 2.0)
    ev.details["m_50% by n"] = rows
    c_fit = math.exp(float(np.mean([math.log(row["m_50% xi_rel^2 / log n"]) for row in rows])))
    ev.details["log-log slope of m_50% against n - s"] = float(np.polyfit(np.log(series_x), np.log(series_y), 1)[0])
    ev.plots.append({"title": "Thm C.16: samples for the truncated step to isolate S minus S' (k=4, s=2)", "xlabel": "n - s",
                     "ylabel": "m_50%", "logx": True, "logy": True,
                     "series": [{"x": series_x, "y": series_y, "label": "measured m_50%", "style": "o-"},
                                {"x": series_x, "y": [c_fit * math.log(n) / float(xi_rel(n, k, s)) ** 2 for n in ns],
                                 "label": "C log n / xi_rel^2 (C = geometric mean of the measured ratios)", "style": "--"}]})
    return ev.verdict(seed=ctx.seed("samples"))
