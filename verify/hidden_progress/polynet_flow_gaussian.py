"""Theorem 5.7 in full (thesis ch. 5, catalog entry E25): disjoint-PolyNets under gradient flow from a
Gaussian initialisation.  The main-text form of Theorem 5.7 is in verify.hidden_progress.polynet_plateau_times.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
import numpy as np
from kernels.boolean.polynet import disjoint_polynet_error_exhaustive
from kernels.boolean.polynet_flow_quadrature import (
    abs_block_sums,
    crossing_q,
    error_at,
    flow_levels,
    flow_time,
    sampled_abs_block_sums,
)
from kernels.boolean.polynet_flow import relevant_flow
from ..registry import Evidence, InvalidParameter, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE
from .polynet_flow_lemma_b8 import _gaussian_inits, _RTOL, _TIME_TOL

CONTRACT_AUDITED = True


# ---------------------------------------------------------------------------------------------
# E25. Theorem 5.7, full statement: Gaussian initialisation
# ---------------------------------------------------------------------------------------------

_DKW_DELTA = 1e-4  # failure probability of each Monte Carlo block law's DKW band


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.replace(" ", "").split(",") if x)


def _floats(text: str) -> tuple[float, ...]:
    return tuple(float(Fraction(x)) for x in text.replace(" ", "").split(",") if x)


@dataclass
class _PlateauSample:
    """Per (k, n'): 1 - T(1/2 - gamma)/T(0) for each init and gamma (upper and lower brackets; equal when exact)."""

    k: int
    n_prime: int
    gammas: tuple
    upper: np.ndarray  # (inits, G)
    lower: np.ndarray
    T0: np.ndarray
    exact: bool
    eps: float  # DKW radius (0 when exact)
    q0_defect: float  # max |crossing_q(., 0) - max_i (||u_i||_1^2 - c_i)| / q0 (exact route only)
    ode: dict  # integrator cross-check on the first inits
    seconds: float


def _crossing_or(levels, alpha: float, shift: float, q0: float) -> float:
    """min(crossing with the shifted empirical law, q0); q0 when the shifted error never gets below alpha."""
    try:
        return min(crossing_q(levels, alpha, shift=shift), q0)
    except ValueError:
        return q0


@functools.lru_cache(maxsize=64)
def _plateau_sample(k: int, n_prime: int, inits: int, gammas: tuple, mc_samples: int, seed: int) -> _PlateauSample:
    """Monte Carlo over Gaussian initialisations (prod v_i(0) > 0) of 1 - T(1/2 - gamma)/T(0).

    mc_samples = 0: exact block laws (all 2^{n'-2} values of |u_i . z|); else an empirical block law
    from ``mc_samples`` sign vectors z (shared by the blocks and inits of this n'), with the DKW band
    of radius eps: the crossing with F + eps / F - eps brackets the exact one.
    """
    import time

    t_start = time.perf_counter()
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    m = n_prime - 1
    V = _gaussian_inits(rng, k, inits)
    C = V**2
    exact = mc_samples == 0
    eps = 0.0 if exact else math.sqrt(math.log(2.0 / _DKW_DELTA) / (2.0 * mc_samples))
    UU = rng.standard_normal((inits, k, m))
    if not exact:
        Z = rng.choice(np.array([-1, 1], dtype=np.int8), size=(mc_samples, m))
        AB = sampled_abs_block_sums(UU.reshape(inits * k, m), Z).reshape(inits, k, mc_samples)
    G = len(gammas)
    q_hi = np.empty((inits, 1 + 2 * G))
    q0_defect = 0.0
    first_levels = []
    for r in range(inits):
        U = UU[r]
        q0 = max(0.0, float(np.max(np.abs(U).sum(axis=1) ** 2 - C[r])))
        if exact:
            levels = np.stack(flow_levels([abs_block_sums(u) for u in U], C[r]))  # (k, 2^{n'-2}), stacked once
            q0_route = crossing_q(levels, 0.0, strict=False)
            q0_defect = max(q0_defect, abs(q0_route - q0) / max(q0, 1e-300))
            cross_up = [crossing_q(levels, 0.5 - g) for g in gammas]
            cross_lo = cross_up
        else:
            levels = [AB[r, i] ** 2 - C[r, i] for i in range(k)]
            cross_up = [crossing_q(levels, 0.5 - g, shift=+eps) for g in gammas]  # err lower -> earlier crossing
            cross_lo = [_crossing_or(levels, 0.5 - g, -eps, q0) for g in gammas]
        q_hi[r, 0] = q0
        q_hi[r, 1:1 + G] = cross_up
        q_hi[r, 1 + G:] = cross_lo
        if r < 4:
            first_levels.append((q0, cross_up))
    T0 = flow_time(C, q_hi[:, :1])[:, 0]
    d_up = flow_time(C, q_hi[:, :1], np.minimum(q_hi[:, 1:1 + G], q_hi[:, :1]))  # t(q0) - t(q_gamma), up bracket
    d_lo = flow_time(C, q_hi[:, :1], np.minimum(q_hi[:, 1 + G:], q_hi[:, :1]))
    upper = d_up / T0[:, None]
    lower = d_lo / T0[:, None]
    # integrator cross-check on the first inits: crossing times of the levels q0 and q_gamma for every i
    ode = {"max |T_ode - t(q)| / T(0)": 0.0}
    n_ode = min(inits, 4)
    for r in range(n_ode):
        qs = np.array([first_levels[r][0]] + list(first_levels[r][1]))
        TH = np.sqrt(qs[None, :] + C[r][:, None])  # (k, 1+G): |v_i| at the level q
        res = relevant_flow(V[r], thresholds=np.unique(TH.ravel()), b_stop=float(TH.max()) * 1.0000001, rtol=_RTOL)
        thr = np.unique(TH.ravel())
        tq = flow_time(C[r][None, :], qs[None, :])[0]
        for i in range(k):
            for j in range(qs.shape[0]):
                tj = res.event_times[0, i, int(np.searchsorted(thr, TH[i, j]))]
                if qs[j] > 0:
                    ode["max |T_ode - t(q)| / T(0)"] = max(ode["max |T_ode - t(q)| / T(0)"], abs(tj - tq[j]) / T0[r])
    return _PlateauSample(k, n_prime, gammas, upper, lower, T0, exact, eps, q0_defect, ode, time.perf_counter() - t_start)


@dataclass(frozen=True)
class PlateauStatement:
    """1 - T(1/2 - gamma)/T(0) = O~(n'^{n_exp(k)} gamma^{g_exp(k)}) with probability 1 - 1/poly(n')."""

    text: str
    n_exp: Callable[[int], Fraction]
    g_exp: Callable[[int], Fraction]
    #: a factor on every stated bound of the proof's concentration ingredients (1 as printed)
    ingredient_factor: float = 1.0


_T57 = PlateauStatement("T(1/2-gamma)/T(0) = 1 - O~(n'^{1-k/2} gamma^{2/k-1})",
                        lambda k: Fraction(2 - k, 2), lambda k: Fraction(2, k) - 1)

_SLOPE_BOUND = 0.5  # allowed growth exponent of the 95% quantile in n' (covers polylog factors at these n')
_INFORMATIVE = 0.5  # a point (k, n', gamma) is used only where the statement's own bound n'^e gamma^g <= 1/2
_MIN_SPAN = 2.0  # a slope is fitted only over n' spanning at least a factor 2


def _fit_slope(logn: np.ndarray, logq: np.ndarray) -> np.ndarray:
    """Least-squares slopes of logq (..., P) against logn (P,) along the last axis."""
    x = logn - logn.mean()
    return ((logq - logq.mean(axis=-1, keepdims=True)) * x).sum(axis=-1) / (x * x).sum()


def _clopper_pearson_upper(hits: int, n: int, conf: float) -> float:
    from scipy.stats import beta

    return 1.0 if hits >= n else float(beta.ppf(conf, hits + 1, n - hits))


@claim(
    id="thesis_ch5.thm_5.7.full",
    source=SOURCE,
    label="Theorem 5.7 (full statement)",
    entry="E25",
    title="Gaussian init: T(1/2-gamma)/T(0) = 1 - O~(n'^{1-k/2} gamma^{2/k-1}) w.h.p. (quantiles over inits do not grow)",
    lines=[(3530, 3586)],
    printed=_T57,
    mutants=[
        Mutant("exponent-k/2", "1 - ratio = O~(n'^{-k/2} gamma^{2/k-1}) (exponent -k/2 instead of 1 - k/2)",
               replace(_T57, text="n'^{-k/2}", n_exp=lambda k: Fraction(-k, 2))),
        Mutant("ingredients-x0.34", "every concentration bound of the proof times 0.34, just beyond the sharpness 0.350 "
               "(Pr[|u| > 1/2] = 0.617 against 2 e^{-1/8} = 1.765); rejected there",
               replace(_T57, ingredient_factor=0.34), near_boundary=True, part="ingredients"),
        Mutant("exponent-1-k/2-1/2", "1 - ratio = O~(n'^{1/2-k/2} gamma^{2/k-1}) (half a power of n' stronger)",
               replace(_T57, text="n'^{1/2-k/2}", n_exp=lambda k: Fraction(1 - k, 2)), origin="second-reader"),
    ],
    parts=[
        Part("plateau", "Gaussian init, k >= 3, prod v_i(0) > 0: with probability 1 - 1/poly(n'), T(1/2 - gamma)/T(0) = "
             "1 - O~((n')^{1-k/2} gamma^{2/k-1}) (checked as a mechanism: the growth of the quantiles over inits in n')"),
        Part("ingredients", "the proof's concentration steps: (B.13) max |u_ij| <= sqrt(2 log(4n'k/eps)) w.p. >= 1 - eps/2; "
             "Laurent-Massart tails <= e^{-tau}; max |v_i(0)| <= sqrt(2 log(4k/delta)) w.p. >= 1 - delta/2; the range of "
             "vbar_a", inequality=True),
    ],
    expect=Status.MECHANISM,
    rigor=Rigor.MECHANISM,
    kind=Kind.MECHANISM,
    params=[
        Param("ks", str, doc="comma-separated k >= 3 (exact block laws)"),
        Param("n_primes", str, doc="comma-separated n' <= 21 with exact block laws (2^{n'-2} sums per block)"),
        Param("inits", int, 20, 100_000, doc="Gaussian initialisations per (k, n')"),
        Param("gammas", str, doc="comma-separated gamma in (0, 1/2)"),
        Param("mc_ks", str, doc="comma-separated k for the Monte Carlo block laws ('' for none)"),
        Param("mc_n_primes", str, doc="comma-separated n' with Monte Carlo block laws"),
        Param("mc_samples", int, 1024, 1 << 20, doc="sign vectors z per Monte Carlo block law"),
        Param("bootstrap", int, 50, 20_000, doc="bootstrap resamples of the inits"),
        Param("ingredient_draws", int, 1000, 10**7, doc="draws for the concentration ingredients of the proof"),
        Param("plot_n_primes", str, doc="n' of the error-vs-time plots"),
    ],
    tiers={
        "quick": {"ks": "5", "n_primes": "6,8,11,16", "inits": 300, "gammas": "0.01,0.05,0.1,0.25", "mc_ks": "",
                  "mc_n_primes": "", "mc_samples": 16384, "bootstrap": 300, "ingredient_draws": 20000, "plot_n_primes": "8,12"},
        "full": {"ks": "3,4,5", "n_primes": "6,9,13,19", "inits": 300, "gammas": "0.01,0.05,0.1,0.25", "mc_ks": "3",
                 "mc_n_primes": "50,100,200,400", "mc_samples": 16384, "bootstrap": 1000, "ingredient_draws": 200000,
                 "plot_n_primes": "10,15,20"},
    },
)
def check_thm_5_7_full(statement: PlateauStatement, p, ctx) -> Verdict:
    """Theorem 5.7, full statement: the plateau under gradient flow from a Gaussian initialisation.

    Statement
    ---------
    All weights of the disjoint-PolyNet i.i.d. N(0, 1), k >= 3, conditioned on prod_i v_i(0) > 0: with
    probability 1 - 1/poly(n') over the initialisation, for gamma in (0, 1/2),
    T(1/2 - gamma)/T(0) = 1 - O~((n')^{1-k/2} gamma^{2/k-1}), with T(alpha) = sup{t : err(w(t)) >= alpha}
    (Corollary B.10).  Proof ingredients: ||u_i||_inf <= sqrt(2 log(4n'k/eps)) for all i w.p. >= 1 - eps/2
    (B.13); Laurent-Massart: ||u_i||_2^2 in [D - 2 sqrt(D tau), D + 2 sqrt(D tau) + 2 tau] w.p. >= 1 - 2e^{-tau}
    (D = n' - 1); max_i |v_i(0)| <= sqrt(2 log(4k/delta)) w.p. >= 1 - delta/2; vbar_a = 1 + O(sqrt(log(1/delta)/k)).

    Hypotheses
    ----------
    k >= 3.  T(0) literally is sup{t : err >= 0} = infinity; it is read as the main text's
    inf{t : err(t) = 0}, the time at which the last |v_i| passes ||u_i||_1 (ties count as errors, so
    err > 0 until then).  The theorem is asymptotic, with unspecified constants, log factors and
    polynomial: it is checked as a MECHANISM (the scaling in n' of the quantiles over inits), not at
    its own constants.

    Source
    ------
    Thesis (seed 004), App. B.2.3, Theorem 5.7 (full statement) with its proof, lines 3530-3586.

    Checkable form
    --------------
    For each k and n': ``inits`` seeded Gaussian initialisations (prod v_i(0) > 0 by flipping v_1).
    Per init, the exact error along the flow, err(q+) = 1/2 - (1/2) prod_i Pr[|A_i| <= sqrt(q + v_i(0)^2)]
    (A_i = u_i . z; blocks independent), is piecewise constant in q = v_i(t)^2 - v_i(0)^2 and jumps at
    the levels a^2 - v_i(0)^2 of the sorted values a of |A_i| (all 2^{n'-2} of them for n' <= 21);
    q_alpha = the first level where err(q+) < alpha, q_0 = max_i (||u_i||_1^2 - v_i(0)^2) (also found as
    the first level with err(q+) = 0), and 1 - ratio = (t(q_0) - t(q_{1/2-gamma}))/t(q_0) with the
    quadrature t(q) of Lemma B.8.  For mc_n_primes (larger n'), the block law is the empirical law of
    |A_i| over mc_samples random z, and the DKW band (radius eps, failure probability 1e-4 per block)
    brackets 1 - ratio; the upper end is used.  R = (1 - ratio) n'^{-e} gamma^{-g}, with the statement's
    exponents e (n') and g (gamma).
    Criterion: for each (k, gamma), use the n' where the statement is informative (its own bound
    n'^e gamma^g <= 1/2; elsewhere 1 - ratio <= 1 is all that can be observed, and this saturation
    biases the slope upward); with >= 3 such n' spanning a factor >= 2, fit the least-squares slope of
    log Q95(R) against log n'; the one-sided 95% percentile-bootstrap upper bound of the slope
    (resampling the inits of every n') must be <= 1/2 ("does not grow" up to log factors: a log^c n'
    factor has local slope c/ln n' ~ c/3 here, while the mutant adds 1).  At least one (k, gamma)
    must be testable.
    Cross-checks: err(q+) against the error evaluated over the whole cube (kernels.boolean.polynet) at k = 3,
    n' = 5; t(q_0), t(q_gamma) against the crossing times of the integrator; q_0 by both routes;
    0 <= ratio <= 1 and monotonicity in gamma.  Proof ingredients: exact probabilities (scipy.stats)
    and simulated frequencies (99% Clopper-Pearson upper bounds) against the stated bounds.

    Exactness
    ---------
    Mechanism (statistical).  Each 1 - ratio is exact up to float64 (block sums, quadrature ~1e-14;
    the crossing levels are exact order statistics of the float sums) for the exact n'; for the Monte
    Carlo n' it is an upper bracket valid with probability >= 1 - k 1e-4 per init (the sampled sums
    are accumulated in index order, so results do not depend on the thread count).  The slope's
    confidence bound is a percentile bootstrap over the seeded inits (ctx.rng).

    Mutants
    -------
    exponent-k/2: R is multiplied by n', so the quantiles grow linearly and the slope is ~1 + the
    true one; its upper bound exceeds 1/2 for every testable (k, gamma).
    ingredients-x0.34 (near-boundary, part ingredients): every concentration bound times 0.34, just
    beyond the sharpness 0.350 (exact Pr[|u| > 1/2] = 0.617 vs 2 e^{-1/8} = 1.765); rejected there.
    Second reader: exponent-1-k/2-1/2 (n'^{1/2-k/2}) is false by the Gaussian limit of the all-ones case
    (thesis_ch5.thm_5.7: 1 - ratio ~ C_k n'^{1-k/2} with C_k > 0) together with the Gaussian init's
    positive-probability event that the inits are near all-ones; the quantiles of R then grow like
    n'^{1/2}; rejected (bootstrap upper bound of the slope 0.61 > 1/2 at k = 5, gamma = 0.01).

    Sharpness
    ---------
    Part plateau is a mechanism (O~ with unspecified constants and polylog factors): no ratio to a
    printed bound exists; the criterion's own margin is the slope's bootstrap bound (0.21 of 1/2, recorded
    as "statement").  Part ingredients: the largest exact probability (or 99% simulated upper bound)
    over its stated bound, over every tau, eps, delta, D of the grids: 0.350 (the Gaussian tail at
    tau = 1/2); the concentration bounds are loose by >= 2.9x at the grid points (a Chernoff-type bound
    is never tight at a fixed tau).

    Notes
    -----
    The proof's delta = 1/poly(k) gives probability 1 - 1/poly(k) - 1/poly(n'), not 1 - 1/poly(n');
    for fixed k read delta = 1/poly(n').  The 95% quantile is the 1 - 1/n' quantile at n' = 20.
    History of the criterion, for transparency: the informativeness rule was set after an exploratory
    run showed saturation (ratio = 0) at small n' and gamma; the span rule (factor >= 2) was added
    after a first quick-tier design over n' = 10..14 (span 1.4, 150 inits) gave a bootstrap bound of
    1.07 at a fitted slope of 0.10, an underpowered design rather than a property of the statement.
    The threshold 1/2 and the 95% level were not changed.  Measured (full tier, 300 inits per n'):
    fitted slopes -0.28..0.14, bootstrap upper bounds <= 0.38 (k = 4), <= 0.17 (k = 5), <= 0.11
    (k = 3, n' up to 400 with Monte Carlo block laws); the mutant's slopes are 1.0-1.2.
    The quick tier tests k = 5 only (its slopes are the best determined at small n'); the full tier
    k = 3, 4, 5.
    """
    ks = _ints(p["ks"])
    if not ks or min(ks) < 3:
        raise InvalidParameter(f"thesis_ch5.thm_5.7.full: argument 'ks' must list integers k >= 3, not {p['ks']!r}")
    nps = _ints(p["n_primes"])
    if not nps or min(nps) < 2 or max(nps) > 21:
        raise InvalidParameter(f"thesis_ch5.thm_5.7.full: argument 'n_primes' must list n' in [2, 21], not {p['n_primes']!r}")
    gammas = _floats(p["gammas"])
    if not gammas or min(gammas) <= 0 or max(gammas) >= 0.5:
        raise InvalidParameter(f"thesis_ch5.thm_5.7.full: argument 'gammas' must list values in (0, 1/2), not {p['gammas']!r}")
    mc_ks, mc_nps = _ints(p["mc_ks"]), _ints(p["mc_n_primes"])
    ev = Evidence("le", rigor=Rigor.MECHANISM)
    samples = {}
    for k in sorted(set(ks) | set(mc_ks)):
        grid = [(n, 0) for n in nps if k in ks] + [(n, p["mc_samples"]) for n in mc_nps if k in mc_ks]
        for n_prime, mc in grid:
            samples[(k, n_prime)] = _plateau_sample(k, n_prime, p["inits"], gammas, mc, ctx.seed(f"inits:{k}:{n_prime}:{mc}"))
    _plateau_criterion(ev, statement, samples, gammas, p, ctx)
    _plateau_crosschecks(ev, samples, gammas, ctx)
    _plateau_ingredients(ev, ks, nps + mc_nps, p["ingredient_draws"], ctx, statement.ingredient_factor)
    ev.plots.extend(_plateau_error_plots(_ints(p["plot_n_primes"]), ctx.seed("plots")))
    return ev.verdict()


def _plateau_criterion(ev, statement, samples, gammas, p, ctx) -> None:
    rng = ctx.rng("bootstrap")
    table, fits = {}, {}
    testable = 0
    for k in sorted({k for k, _ in samples}):
        nps = sorted(n for kk, n in samples if kk == k)
        e, g = float(statement.n_exp(k)), float(statement.g_exp(k))
        for gi, gam in enumerate(gammas):
            pts = []
            for n_prime in nps:
                s = samples[(k, n_prime)]
                R = s.upper[:, gi] * n_prime ** (-e) * gam ** (-g)
                informative = n_prime**e * gam**g <= _INFORMATIVE
                q = np.quantile(R, [0.5, 0.9, 0.95, 0.99])
                table[f"k={k}, gamma={gam}, n'={n_prime}{'' if s.exact else ' (MC)'}"] = {
                    "Q50": round(float(q[0]), 4), "Q90": round(float(q[1]), 4), "Q95": round(float(q[2]), 4),
                    "Q99": round(float(q[3]), 4), "max": round(float(R.max()), 4),
                    "mean 1-ratio": round(float(s.upper[:, gi].mean()), 4),
                    "P(ratio = 0)": round(float(np.mean(s.upper[:, gi] >= 1.0)), 4), "informative": bool(informative)}
                if informative:
                    pts.append((n_prime, R))
            if len(pts) < 3 or pts[-1][0] < _MIN_SPAN * pts[0][0]:
                continue
            testable += 1
            logn = np.log([n for n, _ in pts])
            q95 = np.array([np.quantile(R, 0.95) for _, R in pts])
            slope = float(_fit_slope(logn, np.log(q95)))
            boot = np.empty((p["bootstrap"], len(pts)))
            for j, (_, R) in enumerate(pts):
                idx = rng.integers(0, R.shape[0], size=(p["bootstrap"], R.shape[0]))
                boot[:, j] = np.quantile(R[idx], 0.95, axis=1)
            slopes = _fit_slope(logn, np.log(boot))
            upper = float(np.quantile(slopes, 0.95))
            fits[f"k={k}, gamma={gam}"] = {"n'": [n for n, _ in pts], "Q95": [round(float(x), 4) for x in q95],
                                           "slope": round(slope, 3), "bootstrap 95% upper": round(upper, 3)}
            ev.add({"k": k, "gamma": gam, "n'": f"{pts[0][0]}..{pts[-1][0]} ({len(pts)} values)",
                    "part": "95% upper bound of the growth exponent of Q95(R) in n'", "fitted slope": round(slope, 3)},
                   upper, _SLOPE_BOUND)
    ev.add({"part": "at least one testable (k, gamma)", "testable": testable}, testable > 0, relation="true")
    ev.details["criterion"] = (f"per (k, gamma), over the n' with n'^e gamma^g <= {_INFORMATIVE}: one-sided 95% bootstrap "
                               f"upper bound of the slope of log Q95(R) vs log n' <= {_SLOPE_BOUND}")
    ev.details["R = (1 - ratio) n'^{-e} gamma^{-g}: quantiles over inits"] = table
    ev.details["slope fits"] = fits
    if fits:
        ev.plots.append({
            "title": "Theorem 5.7 (Gaussian init): Q95 over inits of R = (1 - ratio) n'^-e gamma^-g",
            "xlabel": "n'", "ylabel": "Q95(R)", "logx": True, "logy": True,
            "series": [{"label": key, "x": [float(x) for x in f["n'"]], "y": f["Q95"]} for key, f in fits.items()]})


def _plateau_crosschecks(ev, samples, gammas, ctx) -> None:
    worst_ode, worst_q0 = 0.0, 0.0
    for (k, n_prime), s in samples.items():
        case = {"k": k, "n'": n_prime, "part": "cross-check"}
        ok = bool(np.all((s.lower >= -1e-12) & (s.upper <= 1 + 1e-12) & (s.lower <= s.upper + 1e-12)))
        ev.add(dict(case, check="0 <= 1 - ratio <= 1 (both brackets)"), ok, relation="true")
        order = np.argsort(gammas)
        mono = bool(np.all(np.diff(s.upper[:, order], axis=1) <= 1e-12))
        ev.add(dict(case, check="1 - ratio non-increasing in gamma (T(alpha) non-increasing in alpha)"), mono, relation="true")
        worst_ode = max(worst_ode, s.ode["max |T_ode - t(q)| / T(0)"])
        d_ode = s.ode["max |T_ode - t(q)| / T(0)"]
        ev.add(dict(case, check="integrator crossing times of q_0, q_gamma = quadrature t(q) (within 1e-9 T(0))"),
               d_ode <= _TIME_TOL, relation="true", note=f"max deviation {d_ode:.3g} T(0)")
        if s.exact:
            worst_q0 = max(worst_q0, s.q0_defect)
            ev.add(dict(case, check="q_0 = max_i(||u_i||_1^2 - v_i(0)^2) = first level with err = 0 (within 1e-12 q_0)"),
                   s.q0_defect <= 1e-12, relation="true", note=f"relative defect {s.q0_defect:.3g}")
    cube = _cube_crosscheck_rows(ctx.seed("cube cross-check"))
    for case, lhs, rhs, kw in cube.rows:
        ev.add(case, lhs, rhs, **kw)
    ev.details["cross-checks"] = {"max |err (block laws) - err (cube)|": cube.details["max |err (block laws) - err (cube)|"],
                                  "max |T_ode - t(q)| / T(0)": float(f"{worst_ode:.3g}"),
                                  "max q_0 defect": float(f"{worst_q0:.3g}"),
                                  "Monte Carlo DKW radius": {f"k={k}, n'={n}": round(s.eps, 4) for (k, n), s in samples.items() if not s.exact},
                                  "seconds per (k, n')": {f"k={k}, n'={n}": round(s.seconds, 2) for (k, n), s in samples.items()}}


class _Rows:
    """Evidence rows recorded once (cached) and replayed into any Evidence: add(case, lhs, rhs, **kw)."""

    def __init__(self):
        self.rows = []
        self.details = {}

    def add(self, case, lhs, rhs=None, **kw):
        self.rows.append((case, lhs, rhs, kw))

    def replay(self, ev: Evidence) -> None:
        for case, lhs, rhs, kw in self.rows:
            ev.add(case, lhs, rhs, **kw)
        ev.details.update(self.details)


@functools.lru_cache(maxsize=4)
def _cube_crosscheck_rows(seed) -> _Rows:
    """err(q+) from the block laws against the error evaluated over the whole cube (k = 3, n' = 5: n = 15)."""
    ev = _Rows()
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    worst = 0.0
    for trial in range(3):
        k, n_prime = 3, 5
        v0 = _gaussian_inits(rng, k, 1)[0]
        U = rng.standard_normal((k, n_prime - 1))
        sums = [abs_block_sums(u) for u in U]
        levels = flow_levels(sums, v0**2)
        allq = np.unique(np.concatenate([Q[Q > 0] for Q in levels]))
        qs = 0.5 * (allq[:-1] + allq[1:])[:: max(1, allq.shape[0] // 6)]
        for q in qs[:6]:
            v = np.sign(v0) * np.sqrt(q + v0**2)
            exhaustive = disjoint_polynet_error_exhaustive([np.concatenate([[v[i]], U[i]]) for i in range(k)])
            mine = float(error_at(sums, v))
            worst = max(worst, abs(exhaustive - mine))
            ev.add({"part": "cross-check", "check": "err(q+) from the block laws = error over the cube (n = 15, within 1e-12)",
                    "trial": trial, "q": round(float(q), 6)}, abs(mine - exhaustive) <= 1e-12, relation="true",
                   note=f"{mine} vs {exhaustive}")
    ev.details["max |err (block laws) - err (cube)|"] = worst
    return ev


def _plateau_ingredients(ev, ks, nps, draws, ctx, factor: float = 1.0) -> None:
    """Replay the (cached) ingredient rows with every bound times ``factor``; each row is part "ingredients"
    (its lhs/rhs is that part's sharpness)."""
    rows = _ingredient_rows(tuple(sorted(set(ks))), tuple(sorted(set(nps))), draws, ctx.seed("ingredients"))
    for case, lhs, rhs, kw in rows.rows:
        ev.add(case, lhs, rhs * factor, part="ingredients", **kw)
    ev.details.update(rows.details)


@functools.lru_cache(maxsize=8)
def _ingredient_rows(ks, nps, draws, seed) -> _Rows:
    """The concentration steps of the proof: exact probabilities and simulated frequencies vs the bounds."""
    from scipy.stats import chi2, norm

    ev = _Rows()
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    conf = 0.99
    rows = {}
    for tau in (0.5, 1.0, 2.0, 3.0):
        exact = float(2 * norm.sf(tau))
        ev.add({"part": "ingredient", "check": "Pr[|u| > tau] <= 2 exp(-tau^2/2) (exact)", "tau": tau}, exact, 2 * math.exp(-tau * tau / 2))
    k0 = max(ks)
    for n_prime in sorted(set(nps))[:: max(1, len(set(nps)) // 3)]:
        D = n_prime - 1
        cnt = max(200, draws // max(1, D * k0 // 8))
        X = rng.standard_normal((cnt, k0, D))
        sq = (X * X).sum(axis=2)  # (cnt, k0): ||u_i||^2, chi^2_D
        mx = np.abs(X).max(axis=(1, 2))
        for eps in (0.01, 0.1, 0.5):
            thr = math.sqrt(2 * math.log(4 * n_prime * k0 / eps))
            exact = float(1 - (1 - 2 * norm.sf(thr)) ** (k0 * D))
            hits = int(np.count_nonzero(mx > thr))
            ev.add({"part": "ingredient", "check": "(B.13) Pr[max_ij |u_ij| > sqrt(2 log(4n'k/eps))] <= eps/2 (exact)",
                    "k": k0, "n'": n_prime, "eps": eps}, exact, eps / 2)
            if 20.0 / cnt < eps / 2:  # the simulation can only be conclusive when ~20 draws per eps/2 are available
                ev.add({"part": "ingredient", "check": "(B.13) simulated frequency (99% upper bound) <= eps/2", "k": k0,
                        "n'": n_prime, "eps": eps, "draws": cnt, "hits": hits}, _clopper_pearson_upper(hits, cnt, conf), eps / 2)
        for tau in (1.0, 2.0, 4.0):
            hi_t, lo_t = D + 2 * math.sqrt(D * tau) + 2 * tau, D - 2 * math.sqrt(D * tau)
            ex_up, ex_lo = float(chi2.sf(hi_t, D)), float(chi2.cdf(lo_t, D)) if lo_t > 0 else 0.0
            bound = math.exp(-tau)
            ev.add({"part": "ingredient", "check": "Laurent-Massart upper tail (exact)", "D": D, "tau": tau}, ex_up, bound)
            ev.add({"part": "ingredient", "check": "Laurent-Massart lower tail (exact)", "D": D, "tau": tau}, ex_lo, bound)
            h_up = int(np.count_nonzero(sq > hi_t))
            h_lo = int(np.count_nonzero(sq < lo_t))
            n_tot = sq.size
            ev.add({"part": "ingredient", "check": "Laurent-Massart two-sided, simulated (99% upper bound) <= 2 e^-tau", "D": D,
                    "tau": tau, "draws": n_tot, "hits": h_up + h_lo}, _clopper_pearson_upper(h_up + h_lo, n_tot, conf), 2 * bound)
            rows[f"D={D}, tau={tau}"] = {"exact upper": float(f"{ex_up:.3g}"), "exact lower": float(f"{ex_lo:.3g}"),
                                         "bound e^-tau": round(bound, 4)}
    for k in sorted(set(ks)):
        V = _gaussian_inits(rng, k, draws)
        mx = np.abs(V).max(axis=1)
        va = (V * V).mean(axis=1)
        for delta in (0.01, 0.1, 0.5):
            thr = math.sqrt(2 * math.log(4 * k / delta))
            exact = float(1 - (1 - 2 * norm.sf(thr)) ** k)
            hits = int(np.count_nonzero(mx > thr))
            ev.add({"part": "ingredient", "check": "Pr[max_i |v_i(0)| > sqrt(2 log(4k/delta))] <= delta/2 (exact)", "k": k,
                    "delta": delta}, exact, delta / 2)
            if 20.0 / draws < delta / 2:
                ev.add({"part": "ingredient", "check": "max_i |v_i(0)| bound, simulated given prod v_i(0) > 0 (99% upper bound)",
                        "k": k, "delta": delta, "draws": draws, "hits": hits}, _clopper_pearson_upper(hits, draws, conf), delta / 2)
        for tau in (1.0, 2.0):
            lo_t, hi_t = 1 - 2 * math.sqrt(tau / k), 1 + 2 * math.sqrt(tau / k) + 2 * tau / k
            hits = int(np.count_nonzero((va < lo_t) | (va > hi_t)))
            ev.add({"part": "ingredient", "check": "vbar_a in [1 - 2 sqrt(tau/k), 1 + 2 sqrt(tau/k) + 2tau/k], simulated (99% upper)",
                    "k": k, "tau": tau, "draws": draws, "hits": hits}, _clopper_pearson_upper(hits, draws, conf), 2 * math.exp(-tau))
    ev.details["Laurent-Massart: exact tail probabilities"] = rows
    return ev


@functools.lru_cache(maxsize=4)
def _plateau_error_plots(plot_nps, seed) -> tuple:
    """err(t) along the flow for k = 3, 4, 5: all-ones init and one Gaussian init per n' (x = t / T(0))."""
    plots = []
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    for k in (3, 4, 5):
        series = []
        for n_prime in plot_nps:
            for kind in ("all-ones", "Gaussian"):
                if kind == "all-ones":
                    v0 = np.ones(k)
                    U = np.ones((k, n_prime - 1))
                else:
                    v0 = _gaussian_inits(rng, k, 1)[0]
                    U = rng.standard_normal((k, n_prime - 1))
                sums = [abs_block_sums(u) for u in U]
                c = v0**2
                q0 = max(0.0, float(np.max(np.abs(U).sum(axis=1) ** 2 - c)))
                T0 = float(flow_time(c, q0)) if q0 > 0 else 0.0
                if T0 <= 0:
                    continue
                t = T0 * np.linspace(0.0, 1.05, 211)
                res = relevant_flow(v0, t_out=t, t_max=float(t[-1]) * 1.0000001, rtol=1e-9)
                err = error_at(sums, res.v_out[0])
                series.append({"label": f"n'={n_prime}, {kind}", "x": (t / T0).tolist(), "y": err.tolist(),
                               "style": "-" if kind == "all-ones" else "--"})
        plots.append({"title": f"Exact error along gradient flow, k = {k}",
                      "xlabel": "t / T(0)", "ylabel": "err(w(t)) (right limit at tie instants)", "series": series})
    return tuple(plots)
