"""Theorem B.6 (convex SGD, E16), split from verify/hidden_progress/mlp_sgd.py (Theorem 5.5), whose helpers it uses."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from fractions import Fraction
from math import isqrt

import numpy as np

from kernels.training.hinge_opt import hinge_min_l2_ball
from kernels.training.readout_sgd import readout_sgd, uniform_indices

from ..registry import (Context, Evidence, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim)
from ..blocks import seed_blocks
from . import SOURCE
from .mlp_sgd import GAP_TOL, Z_CONF, _init, _labels, _mean_ucb, _seeds, _step_zero

CONTRACT_AUDITED = True


# ---------------------------------------------------------------------------------------------
# E16. Theorem B.6 (convex SGD)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConvexSgdStatement:
    """(1/T) sum_{t=1}^T F(u^(t)) <= F(u*) + const M rho / T^rate, for every run (pathwise) or in expectation.

    ``const`` is the printed constant 1 in front of M rho / sqrt(T) and ``rate`` the printed exponent
    1/2 (a field each, so that constant and exponent misprints are mutants)."""

    pathwise: bool
    rate: Fraction
    text: str
    const: Fraction = Fraction(1)


_B6_PRINTED = ConvexSgdStatement(pathwise=True, rate=Fraction(1, 2), text="pathwise, M rho / sqrt(T)")
_B6_CORRECTED = ConvexSgdStatement(pathwise=False, rate=Fraction(1, 2), text="in expectation, M rho / sqrt(T)")


def _b6_instances(p, ctx):
    """(name, features, labels, radii M, rho, horizons T, exact F* or None)."""
    out = []
    # (i) one feature, ten equally likely rows: nine (phi=1, y=+1), one outlier (phi=1, y=-1).
    #     F(u) = 9/10 max(0, 1-u) + 1/10 max(0, 1+u) = 1 - 4u/5 on [-1, 1]: min over |u| <= 1 is F(1) = 1/5.
    phi = np.ones((10, 1))
    y = np.array([1.0] * 9 + [-1.0])
    out.append(("outlier-1d", phi, y, (1.0,), 1.0, tuple(2**j for j in range(0, p["log2_t_max"] + 1)), Fraction(1, 5)))
    # (ii) random noisy halfspace: 32 Gaussian points in R^4 scaled to max norm 1, labels sign(w.x), 20% flipped
    rng = ctx.rng("random-halfspace")
    X = rng.standard_normal((32, 4))
    X /= np.linalg.norm(X, axis=1).max()
    y2 = np.sign(X @ rng.standard_normal(4))
    y2[y2 == 0] = 1.0
    y2[rng.random(32) < 0.2] *= -1.0
    rho2 = float(np.linalg.norm(X, axis=1).max())
    out.append(("noisy-halfspace-4d", X, y2, (0.5, 4.0), rho2, (4, 32, 256, 2048), None))
    # (iii) the phase-2 problem of Theorem 5.5: exact step-0 features of a paired-init ReLU MLP over {±1}^7
    n, k, r = 7, 2, 8
    s0 = _step_zero(n, k, *_init(n, k, r, ctx.rng("mlp-instance")))
    rho3 = float(np.linalg.norm(s0.features, axis=1).max())
    out.append(("mlp-features-n7-k2-r8", s0.features, _labels(n, k), (8 * k**1.5,), rho3, (16, 128, 1024), None))
    return out


def _exact_replay(phi_int: np.ndarray, y: np.ndarray, eta: Fraction, T: int, seed: int) -> Fraction:
    """(1/T) sum_{t=1}^T F(u_t) of one run in exact rationals (integer features), same sampler as the kernel.
    Memoised on the values (the printed, corrected and mutant statements replay the same worst run)."""
    rows = tuple(tuple(int(v) for v in row) for row in np.asarray(phi_int))
    return _exact_replay_rows(rows, tuple(int(v) for v in y), Fraction(eta), int(T), int(seed))


@functools.lru_cache(maxsize=16)
def _exact_replay_rows(rows: tuple, ys: tuple, eta: Fraction, T: int, seed: int) -> Fraction:
    N, r = len(rows), len(rows[0])
    u = [Fraction(0)] * r

    def F(u):
        tot = Fraction(0)
        for row, yy in zip(rows, ys):
            m = yy * sum(a * b for a, b in zip(row, u))
            if m < 1:
                tot += 1 - m
        return tot / N

    acc = Fraction(0)
    for j in uniform_indices(seed, N, T):
        m = ys[j] * sum(a * b for a, b in zip(rows[j], u))
        if m < 1:
            u = [u[i] + eta * ys[j] * rows[j][i] for i in range(r)]
        acc += F(u)
    return acc / T


#: float64 error allowance of the two-point dynamic programme (added to the right side of its cases): T <= 4096
#: steps, each a sum of <= 2T + 1 non-negative terms of size <= 1 + M <= 1001, relative rounding <= (2T + 1) 2^-53
#: per step, so the absolute error of the average is < 8193 * 1001 * 2^-53 < 1e-9
DP_TOL = 1e-9


def _two_point_F(q, u):
    """F(u) = (1 - q) max(0, 1 - u) + q max(0, 1 + u): hinge loss of rows (phi, y) = (1, +1) w.p. 1 - q, (1, -1) w.p. q."""
    return (1 - q) * max(0, 1 - u) + q * max(0, 1 + u)


def _two_point_fstar(q, M):
    """min over |u| <= M of F (q <= 1/2): F decreases on [-1, 1] with slope -(1 - 2q), increases beyond 1."""
    return 1 - (1 - 2 * q) * min(M, 1)


def _two_point_t1(q: Fraction, M: Fraction) -> Fraction:
    """E[F(u^(1))] at T = 1 in Fractions (rho = 1, eta = M): u^(1) = +M w.p. 1 - q, -M w.p. q (both rows update at 0)."""
    return (1 - q) * _two_point_F(q, M) + q * _two_point_F(q, -M)


@functools.lru_cache(maxsize=8192)
def _two_point_expected(q: float, M: float, T: int) -> float:
    """E[(1/T) sum_{t=1}^T F(u^(t))] of single-sample SGD on the two-point hinge instance, exactly up to
    float64 rounding: the iterates live on the lattice u = m eta, eta = M / sqrt(T) (rho = 1), and the law of
    m is propagated step by step (row (1, +1) moves m up when u < 1, row (1, -1) down when u > -1).
    Memoised (a pure function of (q, M, T)): the searches of the corrected statement and of the mutants, which
    differ only in the bound's constant or rate, evaluate the same grid points."""
    eta = M / math.sqrt(T)
    m = np.arange(-T, T + 1)
    u = m * eta
    up = u < 1
    down = u > -1
    Fu = (1 - q) * np.maximum(0.0, 1 - u) + q * np.maximum(0.0, 1 + u)
    prob = np.zeros(2 * T + 1)
    prob[T] = 1.0
    acc = 0.0
    for _ in range(T):
        new = (1 - q) * prob * ~up + q * prob * ~down
        new[1:] += (1 - q) * (prob * up)[:-1]
        new[:-1] += q * (prob * down)[1:]
        prob = new
        acc += float(prob @ Fu)
    return acc / T


def _two_point_search(statement, grid: str, seed: int):
    """Adversarial search of the largest excess ratio (E avg F - F*) / (const M rho / T^rate) over the two-point
    family (q in [0, 1/2], M > 0, T >= 1; rho = 1): an exhaustive grid, then multi-start Nelder-Mead over
    (q, log10 M) at the best T, started from the grid's best point and the tight instance (q = 1/2, M = 1000)."""
    from ..sharpness import maximize_continuous, maximize_discrete

    if grid == "quick":
        qs, Ms, Ts = (0.0, 0.1, 0.25, 0.4, 0.5), (0.25, 1.0, 4.0, 30.0, 1000.0), (1, 2, 4, 16, 64)
    else:
        qs = tuple(np.linspace(0.0, 0.5, 11))
        Ms = tuple(10.0 ** np.linspace(-1, 3, 13))
        Ts = (1, 2, 3, 4, 6, 8, 16, 32, 64, 128, 256)

    def ratio(q, M, T):
        return (_two_point_expected(q, M, T) - _two_point_fstar(q, M)) / (
            float(statement.const) * M / float(T) ** float(statement.rate))

    grid_best = maximize_discrete(lambda x: ratio(*x), None, None, seed=seed,
                                  exhaustive=((q, M, T) for q in qs for M in Ms for T in Ts))
    q0, M0, T0 = grid_best.x
    cont = maximize_continuous(lambda z: ratio(z[0], 10.0 ** z[1], T0), [(0.0, 0.5), (-1.0, 3.0)], seed=seed,
                               restarts=2 if grid == "quick" else 8, starts=[(q0, math.log10(M0)), (0.5, 3.0)],
                               method="Nelder-Mead", maxiter=60 if grid == "quick" else 300)
    if cont.value > grid_best.value:
        q, lm = (float(v) for v in cont.x)
        return cont.value, (q, 10.0 ** lm, T0), grid_best.evaluations + cont.evaluations
    return grid_best.value, grid_best.x, grid_best.evaluations + cont.evaluations


@functools.lru_cache(maxsize=4)
def _b6_runs(runs: int, log2_t_max: int, claim_id: str, backend: str):
    """Instances, certified F(u*) brackets and per-run averages: independent of the statement tested.

    Computed once per (parameters, backend) and shared by the printed, corrected and mutant
    statements (their seeds come from the claim's named streams, not from the statement).
    """
    ctx = Context(claim_id, backend=backend)
    out, pieces, where = [], [], []
    for name, phi, y, radii, rho, horizons, f_exact in _b6_instances({"log2_t_max": log2_t_max}, ctx):
        for M in radii:
            cert = hinge_min_l2_ball(phi, y, M)
            by_T = []
            for T in horizons:
                seeds = _seeds(ctx, f"sgd/{name}/M={M}/T={T}", runs)
                for a, b in seed_blocks(runs, _B6_BLOCK):  # seed blocks: separate tasks on a cluster
                    pieces.append((phi, y, M / (rho * math.sqrt(T)), T, seeds[a:b], backend))
                    where.append((len(out), len(by_T)))
                by_T.append([T, seeds, []])
            out.append([name, phi, y, M, rho, f_exact, cert, by_T])
    for (i, j), losses in zip(where, ctx.map(_b6_block, pieces)):
        out[i][7][j][2].append(losses)
    return tuple((*case[:7], tuple((T, seeds, np.concatenate(parts)) for T, seeds, parts in case[7]))
                 for case in out)


#: runs per seed block of Theorem B.6's SGD sweep (each run depends only on its own seed)
_B6_BLOCK = 1024


def _b6_block(phi, y, eta: float, T: int, seeds: np.ndarray, backend: str) -> np.ndarray:
    """One seed block of Theorem B.6's sweep: each run's exact (1/T) sum_{t=1}^T F(u^(t))."""
    return readout_sgd(phi, y, eta=eta, steps=T, seeds=seeds, exact_mean=True, backend=backend).mean_loss


def _num(v) -> Fraction:
    """A JSON-ified case value (int, float or 'p/q' string) as a Fraction."""
    return Fraction(str(v)) if not isinstance(v, float) else Fraction(v)


#: the instances of the check; every one is a finite population hinge loss (convex F) sampled uniformly
#: (unbiased v_t), with rho >= max_j ||phi_j|| (the outlier instance: phi = 1)
_B6_INSTANCES = {"outlier-1d": 1, "noisy-halfspace-4d": None, "mlp-features-n7-k2-r8": None,
                 "two-point hinge (adversarial search)": 1}


def _b6_hypotheses(case) -> list[str]:
    """The printed hypotheses of Theorem B.6 that a case violates: M > 0, rho > 0, T >= 1 an integer,
    eta = M / (rho sqrt(T)), F convex with unbiased subgradients v_t, ||v_t|| <= rho (a known instance
    whose feature norms rho bounds)."""
    bad = []
    try:
        M, rho, T = _num(case["M"]), _num(case["rho"]), _num(case["T"])
    except (KeyError, ValueError, ZeroDivisionError):
        return ["the case records M, rho and T"]
    if not M > 0:
        bad.append("M > 0")
    if not rho > 0:
        bad.append("rho > 0")
    if T.denominator != 1 or T < 1:
        bad.append("T a positive integer")
    if "eta" in case and rho > 0 and T >= 1:
        eta = _num(case["eta"])
        # eta^2 rho^2 T = M^2 exactly for rational inputs at square T; float cases to 1e-12 relative
        if abs(float(eta * eta * rho * rho * T / (M * M)) - 1.0) > 1e-12:
            bad.append("eta = M / (rho sqrt(T))")
    name = case.get("instance")
    if name not in _B6_INSTANCES:
        bad.append("F convex with unbiased bounded subgradients (unknown instance)")
    elif _B6_INSTANCES[name] is not None and rho < _B6_INSTANCES[name]:
        bad.append("||v_t||_2 <= rho w.p. 1")
    return bad


@claim(
    id="thesis_ch5.thm_B.6",
    source=SOURCE,
    label="Theorem B.6",
    entry="E16",
    title="Convex SGD: the average loss of the iterates is within M rho / sqrt(T) of the constrained optimum",
    lines=[(3267, 3273)],
    printed=_B6_PRINTED,
    corrected=_B6_CORRECTED,
    mutants=[
        Mutant("rate-one-over-T", "in expectation, with M rho / T instead of M rho / sqrt(T)",
               ConvexSgdStatement(pathwise=False, rate=Fraction(1), text="in expectation, M rho / T")),
        Mutant("const-0.84", "in expectation, constant 1 -> 0.84 (just below the sharpness 0.8536 of the two-point "
               "search at q = 0.366, M = 1, T = 64, which rejects it by the exact DP)",
               replace(_B6_CORRECTED, const=Fraction(84, 100), text="in expectation, 0.84 M rho / sqrt(T)"),
               near_boundary=True, part="bound", origin="second-reader"),
        Mutant("const-0.7", "in expectation, constant 1 -> 0.7 (accepted by the old instance set, whose ratio was 0.62)",
               replace(_B6_CORRECTED, const=Fraction(7, 10), text="in expectation, 0.7 M rho / sqrt(T)"),
               origin="second-reader"),
        Mutant("rate-3/4", "in expectation, M rho / T^(3/4)",
               replace(_B6_CORRECTED, rate=Fraction(3, 4), text="in expectation, M rho / T^(3/4)"),
               origin="second-reader"),
    ],
    parts=[
        Part("bound", "(1/T) sum_{t=1}^T F(u^(t)) <= F(u*) + M rho / sqrt(T) (printed without expectation)",
             inequality=True),
    ],
    severity=Severity.TYPO,
    hypotheses=_b6_hypotheses,
    affects=("thesis_ch5.thm_5.5",),
    expect=Status.ERRATUM,
    rigor=Rigor.STATISTICAL,
    params=[
        Param("runs", int, 16, 1_000_000, doc="independent SGD runs per (instance, M, T)"),
        Param("log2_t_max", int, 0, 16, doc="the outlier instance runs T = 1, 2, 4, ..., 2^log2_t_max"),
        Param("search", str, choices=("quick", "full"), doc="grid of the two-point adversarial search"),
    ],
    tiers={"quick": {"runs": 256, "log2_t_max": 10, "search": "quick"},
           "full": {"runs": 4096, "log2_t_max": 14, "search": "full"}},
    uses_backend=True,
)
def check_convex_sgd(statement: ConvexSgdStatement, p, ctx) -> Verdict:
    """Theorem B.6: SGD on a convex F with bounded unbiased gradients (Shalev-Shwartz & Ben-David).

    Statement
    ---------
    Let M, rho > 0, fix T and let eta = M / (rho sqrt(T)).  Let F be convex and
    u* in argmin_{||u||_2 <= M} F(u).  Let u^(0) = 0 and u^(t+1) = u^(t) - eta v_t where
    E[v_t | u^(t)] = grad F(u^(t)) and ||v_t||_2 <= rho with probability 1.  Then
    (1/T) sum_{t=1}^T F(u^(t)) <= F(u*) + M rho / sqrt(T).
    As printed the left side has no expectation: it is a statement about every run.

    Source
    ------
    Thesis (seed 004), App. B.2.1, Theorem B.6, lines 3267-3273 (cited from Shalev-Shwartz &
    Ben-David 2014, Thm 14.8, whose statement is E[F(u_bar)] <= F(u*) + M rho / sqrt(T) with u_bar the
    average of u^(0), ..., u^(T-1)).

    Checkable form
    --------------
    F is the population hinge loss F(u) = mean_j max(0, 1 - y_j u.phi_j) of a linear readout over a
    finite population of feature rows, sampled uniformly; v_t = -y_j phi_j 1[y_j u.phi_j < 1] at one
    sampled row is an unbiased subgradient with ||v_t|| <= rho := max_j ||phi_j||.  Three instances:
    (i) "outlier-1d": nine rows (phi, y) = (1, +1) and one (1, -1), M = rho = 1, F* = 1/5 in closed
    form; (ii) a noisy random halfspace in R^4, M in {0.5, 4}; (iii) the phase-2 problem of
    Theorem 5.5: exact step-0 features of a paired-init ReLU MLP over all of {±1}^7 (k = 2, r = 8),
    M = 8 k^1.5.  F(u*) is bracketed independently of the SGD code: a dual lower bound
    max_{alpha in [0,1/N]^N} sum alpha - M||sum alpha_j y_j phi_j|| and a primal upper bound (SLSQP),
    with the gap recorded as a case (<= 1e-6) and the closed form 1/5 as a cross-check for (i).
    For each (instance, M, T) the kernel kernels.training.readout_sgd runs ``runs`` seeded runs and returns
    each run's exact (1/T) sum_{t=1}^T F(u^(t)) (a population pass after every step).  Pathwise
    statements compare the largest run with F*_lower + M rho / T^rate; expectation statements compare
    the upper confidence bound mean + 3 SE.  When a pathwise statement fails on instance (i) at a
    square T, the worst run is replayed in exact rationals (same sampler, kernels.training.readout_sgd.
    uniform_indices) and that exact replay is the witness.  The details list, per case, the fraction
    of runs that violate the pathwise bound (even against the upper bound of F*), and whether the
    textbook argument transfers to the printed index range t = 1..T: the telescoping proof gives
    E[(1/T) sum_{t=1}^T F(u_t)] <= F* + M rho/sqrt(T) + (M rho/(2 sqrt(T)) - (F(u_0) - F*))/T, so the
    corrected statement is a theorem whenever F(0) - F* >= M rho / (2 sqrt(T)) (F(0) = 1 for hinge).
    Every case compares the excess (average minus F*) with const M rho / T^rate, so its ratio is the
    sharpness of the part "bound".  Sharpness search (expectation statements): the two-point hinge
    family F(u) = (1-q) max(0, 1-u) + q max(0, 1+u) (rows (1, +1) and (1, -1), rho = 1,
    F* = 1 - (1 - 2q) min(M, 1)) is computed exactly in expectation by a dynamic programme over the
    lattice u = m eta (_two_point_expected); an exhaustive grid over (q, M, T) is followed by
    Nelder-Mead over (q, log10 M) at the best T (verify/sharpness.py).  Found: 0.854 at quick
    (q = 0.366, M = 1, T = 64), 0.91 at full (T = 256); along q -> 1/2, M = 1 the ratio grows
    with T (0.94 at T = 1024, 0.95 at T = 4096) and stays below 1.  The old instances reached only
    0.62 (mean + 3 SE on the outlier instance).

    Correction
    ----------
    Put the expectation back: E[(1/T) sum_{t=1}^T F(u^(t))] <= F(u*) + M rho / sqrt(T) (the textbook
    form; the proof of Theorem 5.5 uses it in expectation).  The witness is a single run above the bound.

    Exactness
    ---------
    Statistical for the expectation statements: one-sided normal bound mean + 3 SE per case
    (P[false acceptance] ~ 0.00135 per case under the CLT; the run averages are bounded).  The
    pathwise failure is exact: the witness run is replayed in Fractions.  Float64 elsewhere: each
    run average is T population sums of N <= 128 terms (relative error ~ (N + T) 2^-53 < 1e-11),
    negligible against the reported margins; the F* bracket enters only through its certified gap.

    Mutants
    -------
    rate-one-over-T (expectation, bound M rho / T): on instance (i) the mean excess behaves like
    c / sqrt(T) and exceeds M rho / T by many standard errors from T = 8 on.
    Second reader: const-0.84 (near boundary, part "bound") and const-0.7: the exact DP gives the
    expected excess 0.8536 M rho / sqrt(T) at q = 0.366, M = 1, T = 64 (float64 error < 1e-9), above
    both; the old checker could not express a constant (no field) and its instances reached 0.62, so it
    accepted both.  rate-3/4: the same case has excess 0.107 > M rho / 64^(3/4) = 0.044.

    Hypotheses
    ----------
    M, rho > 0, eta = M / (rho sqrt(T)), F convex, E[v_t | u^(t)] = grad F(u^(t)), ||v_t|| <= rho
    a.s.  Every instance is a uniform-sampling population hinge loss with rho >= max ||phi_j||;
    _b6_hypotheses re-checks M, rho, T, eta and the instance on the witness case.
    """
    ev = Evidence("le", rigor=Rigor.STATISTICAL)
    runs = p["runs"]
    table = []
    plot_series = []
    for name, phi, y, M, rho, f_exact, cert, by_T in _b6_runs(runs, p["log2_t_max"], ctx.claim_id, ctx.backend):
        # certificate cases are recorded as true/false (their numbers in the case) so that the
        # "tightest case" of a verdict is always a case of the statement itself
        ev.add({"instance": name, "M": M, "part": f"duality gap of the F(u*) bracket <= {GAP_TOL:g}",
                "F* lower": cert.lower, "F* upper": cert.upper, "gap": cert.gap}, bool(cert.gap <= GAP_TOL), relation="true")
        if f_exact is not None:
            # both bounds are float64 sums of N = 10 terms: rounding <= 10 * 2^-53 < 1e-12
            off = max(cert.lower - float(f_exact), float(f_exact) - cert.upper)
            ev.add({"instance": name, "M": M, "part": "F(u*) bracket contains the closed form 1/5 (to 1e-12)",
                    "distance": off}, bool(off <= 1e-12), relation="true")
        means, maxes, bounds, Ts = [], [], [], []
        for T, seeds, avg in by_T:
            bound = float(statement.const) * M * rho / float(T) ** float(statement.rate)
            sqrt_bound = M * rho / math.sqrt(T)
            m, se, ucb = _mean_ucb(avg)
            worst = int(np.argmax(avg))
            viol = int(np.count_nonzero(avg > cert.upper + sqrt_bound))
            case = {"instance": name, "M": M, "rho": rho, "T": T, "runs": runs}
            table.append({"instance": name, "M": M, "T": T, "F* lower": cert.lower, "F* upper": cert.upper,
                          "mean of run averages": m, "SE": se, "max over runs": float(avg[worst]),
                          "M rho/sqrt(T)": sqrt_bound,
                          "runs violating the pathwise bound (vs F* upper)": f"{viol}/{runs}",
                          "textbook proof covers t=1..T (1 - F* >= M rho/(2 sqrt T))": bool(1.0 - cert.upper >= sqrt_bound / 2)})
            means.append(m - cert.lower)
            maxes.append(float(avg[worst]) - cert.lower)
            bounds.append(sqrt_bound)
            Ts.append(T)
            if statement.pathwise:
                lhs_float = float(avg[worst])
                note = (f"worst run seed {int(seeds[worst])}; {viol}/{runs} runs exceed F*_upper + bound "
                        f"(F*_upper = {cert.upper:.12g})")
                if T <= 8:
                    note += f"; sampled rows {uniform_indices(int(seeds[worst]), phi.shape[0], T)}"
                if (f_exact is not None and lhs_float > cert.lower + bound and isqrt(T) ** 2 == T
                        and statement.rate == Fraction(1, 2) and np.all(phi == np.round(phi))):
                    Mq, rq = Fraction(M).limit_denominator(10**6), Fraction(rho).limit_denominator(10**6)
                    eta_q = Mq / (rq * isqrt(T))
                    exact = _exact_replay(phi.astype(np.int64), y, eta_q, T, int(seeds[worst]))
                    ev.add(dict(case, M=Mq, rho=rq, eta=eta_q, run=worst, seed=int(seeds[worst]),
                                part="exact replay of the worst run: avg F - F(u*) <= const M rho / sqrt(T)"),
                           exact - f_exact, statement.const * Mq * rq / isqrt(T), part="bound",
                           note=note + f"; float kernel value {lhs_float!r}")
                ev.add(dict(case, part="max over runs: avg F - F*_lower <= const M rho / T^rate"), lhs_float - cert.lower,
                       bound, part="bound", note=note)
            else:
                ev.add(dict(case, part=f"mean + {Z_CONF:g} SE - F*_lower <= const M rho / T^rate"), ucb - cert.lower, bound,
                       part="bound",
                       note=f"mean {m:.6g}, SE {se:.3g}; confidently above: {m - Z_CONF * se > cert.upper + bound}")
        if name == "outlier-1d":
            plot_series = [
                {"label": "mean over runs of (1/T) sum F(u_t) - F*", "x": Ts, "y": means},
                {"label": "max over runs", "x": Ts, "y": maxes},
                {"label": "M rho / sqrt(T)", "x": Ts, "y": bounds, "style": "--"},
            ]
    if not statement.pathwise:
        # adversarial search over the two-point family, computed exactly (dynamic programme over the lattice)
        val, (q, M, T), evals = _two_point_search(statement, p["search"], ctx.seed("two-point-search"))
        excess = _two_point_expected(q, M, T) - _two_point_fstar(q, M)
        bound = float(statement.const) * M / float(T) ** float(statement.rate)
        ev.add({"instance": "two-point hinge (adversarial search)", "q": q, "M": M, "rho": 1.0, "T": T,
                "eta": M / math.sqrt(T), "evaluations": evals, "part": "E avg F - F(u*) <= const M rho / T^rate (exact DP)"},
               excess, bound + DP_TOL, part="bound", note=f"search ratio {val:.6g}")
        ev.details["two-point search"] = {"ratio": val, "q": q, "M": M, "T": T, "evaluations": evals}
    ev.details["cases (instance, M, T)"] = table
    ev.plots.append({"title": "Theorem B.6 on the outlier instance: excess average loss vs the bound",
                     "xlabel": "T", "ylabel": "excess over F(u*)", "series": plot_series, "logx": True, "logy": True})
    return ev.verdict(backend=ctx.backend, note=f"statement: {statement.text}")
