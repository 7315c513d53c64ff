"""Theorem 5.8 (SGD on disjoint-PolyNets learns disjoint parities), its proof's Azuma step, and
Claims B.11 and B.12 (catalog entry E26).

Every run is a real online-SGD run of the batched engine (kernels.training.disjoint_polynet_sgd):
one run per seed, batches drawn inside the kernel from the counter-based stream keyed by (seed, step),
at the theorem's own horizon T (the smallest integer solving its implicit inequality) with its
adaptive learning rate eta_i = c / prod_{l != i} ||w_l||_1.  The final error is computed exactly
(kernels.boolean.polynet, Fractions of the float64 weights) and cross-checked on the cube.

Shared runs: Claims B.11, B.12 and the Azuma step are statements about the runs of Theorem 5.8, so
their checks draw the same inits and SGD seeds (the named streams of ``thesis_ch5.thm_5.8``) and, within
one process (the report), reuse the simulations.

Sizes (k x n' x B), CPU: the quick tier runs (2,2,1), (2,3,1), (3,2,1), (2,2,4) with 10 seeds (horizons
20254, 125471, 447759 steps); the full tier adds (2,4,1), (3,3,1) (T = 8,743,509 steps per run),
(2,2,8), (3,2,2) with 100 seeds (about 100 CPU-seconds, numba at ~80 ns per step for k n' = 9).
GPU tier (one CUDA thread per run, numba.cuda twin of the same per-run body): 1000 seeds and also
(2,5,1), (4,2,1) (T = 9,088,259) and (3,4,1) (T = 57,350,289), which a CPU cannot reach in minutes.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from fractions import Fraction

import mpmath
import numpy as np

from kernels.boolean.polynet import disjoint_polynet_error, disjoint_polynet_error_exhaustive
from kernels.training import adaptive_lr_constant, disjoint_polynet_sgd

from ..registry import Context, Evidence, InvalidParameter, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE
from .recovery import clopper_pearson

CONTRACT_AUDITED = True

__all__ = [
    "horizon",
    "lower_envelope",
]

THM_ID = "thesis_ch5.thm_5.8"
#: one-sided confidence of every statistical comparison in this module (fixed before any run)
CONFIDENCE = 0.999
#: the complementary-init (prod sign < 0) runs of the report tables are made for B = 1 when T x runs <= this
#: (the first value at the full and gpu tiers, the second at the quick tier: 0, none at quick, where they were
#: ~15% of the claim's CPU time and are reported only, never asserted)
EXTRA_WORK_MAX = (50_000_000, 0)
#: relative float tolerance of the measured increment / gradient-ratio bounds (see the Azuma step)
RATIO_TOL = 1e-12


# ---------------------------------------------------------------------------------------------
# the theorem's constants
# ---------------------------------------------------------------------------------------------


def horizon(k: int, n1: int, delta: float, eps: float, exponent: int | None = None, coef: float = 6) -> int:
    """Smallest integer T >= 1 with T >= 6 log(2nT/delta) log(2k/eps) (3n'-2)^e (e = 2k-1 printed).

    f(T) = T - C log(2nT/delta) (C = 6 log(2k/eps)(3n'-2)^e) is convex with f(1) < 0, so the solutions
    form [T*, inf); the iteration T <- ceil(C log(2nT/delta)) from ceil(C) increases to T* exactly.
    Evaluated with mpmath at 50 digits (an integer boundary is never within rounding of the root).
    """
    e = 2 * k - 1 if exponent is None else exponent
    with mpmath.workdps(50):
        C = mpmath.mpf(coef) * mpmath.log(2 * k / mpmath.mpf(eps)) * mpmath.mpf(3 * n1 - 2) ** e
        n = k * n1
        T = max(1, int(mpmath.ceil(C)))
        while True:
            rhs = C * mpmath.log(2 * n * T / mpmath.mpf(delta))
            if T >= rhs:
                return T
            T = int(mpmath.ceil(rhs))


def _log_terms(k: int, n1: int, T: int, delta: float) -> tuple[float, float]:
    """(L = log(2nT/delta), L' = log(nT/delta)) in float64."""
    n = k * n1
    return math.log(2 * n * T / delta), math.log(n * T / delta)


# ---------------------------------------------------------------------------------------------
# runs (shared by the claims of this module; cached within one process)
# ---------------------------------------------------------------------------------------------


def _parse_sizes(claim_id: str, text: str) -> list[tuple[int, int, int]]:
    out = []
    for item in str(text).split(","):
        try:
            k, n1, b = (int(v) for v in item.strip().lower().split("x"))
        except ValueError:
            raise InvalidParameter(f"{claim_id}: argument 'sizes' needs comma-separated kxn'xB triples, not {item!r}") from None
        if not (1 <= k <= 6 and 2 <= n1 <= 8 and 1 <= b <= 1024):
            raise InvalidParameter(f"{claim_id}: size {item!r} needs 1 <= k <= 6, 2 <= n' <= 8, 1 <= B <= 1024")
        out.append((k, n1, b))
    return out


#: refuse parameter choices above this many sample-steps (sum over sizes of T B runs); ~1e-8 s each on a core
MAX_SAMPLE_STEPS = 2e11


def _sizes_within_budget(claim_id: str, p, delta: float) -> list[tuple[int, int, int]]:
    """The parsed sizes, or InvalidParameter when their total cost (T B runs summed) is unreasonable."""
    sizes = _parse_sizes(claim_id, p["sizes"])
    work = sum(horizon(k, n1, delta, p["eps"]) * b * p["runs"] for k, n1, b in sizes)
    if work > MAX_SAMPLE_STEPS:
        raise InvalidParameter(
            f"{claim_id}: arguments 'sizes' = {p['sizes']!r} and 'runs' = {p['runs']} need {work:.2g} SGD sample-steps "
            f"(more than {MAX_SAMPLE_STEPS:.0e}, hours of computing); choose smaller sizes or fewer runs")
    return sizes


def _checkpoints(T: int) -> np.ndarray:
    """~300 steps in [0, T]: geometric near 0 (the start of a trajectory) and a linear grid, ending at T."""
    geo = np.unique(np.round(np.geomspace(1, max(T, 1), 100)).astype(np.int64))
    lin = np.linspace(0, T, 201).round().astype(np.int64)
    return np.unique(np.concatenate([[0], geo, lin, [T]]))


def _inits(seed_root: int, k: int, n1: int, runs: int, init: str) -> np.ndarray:
    if init == "ones":
        return np.ones((runs, k, n1))
    rng = np.random.default_rng(np.random.SeedSequence([seed_root, k, n1]))
    W0 = rng.choice(np.array([-1.0, 1.0]), size=(runs, k, n1))
    prod = np.prod(W0[:, :, 0], axis=1)
    if init == "pm1+":  # conditioned on prod_i sign w_{i,1} > 0: flipping w_{1,1} maps the complement onto it
        W0[prod < 0, 0, 0] *= -1
    elif init == "pm1-":
        W0[prod > 0, 0, 0] *= -1
    elif init != "pm1":
        raise ValueError(f"unknown init {init!r}")
    return W0


def _exact_error(w: np.ndarray) -> Fraction:
    """err(w) exactly: the block laws of A_i = u_i . z over all 2^{n'-1} signs, in Fractions of the floats."""
    k, n1 = w.shape
    v = [Fraction(float(w[i, 0])) for i in range(k)]
    tails = []
    m = n1 - 1
    for i in range(k):
        u = [Fraction(float(x)) for x in w[i, 1:]]
        t = -abs(v[i])
        below = equal = 0
        for z in range(1 << m):
            a = sum(-uj if (z >> j) & 1 else uj for j, uj in enumerate(u))
            below += a < t
            equal += a == t
        tails.append((Fraction(below, 1 << m), Fraction(equal, 1 << m)))
    return disjoint_polynet_error(v, tails)


def _error_float(W: np.ndarray) -> np.ndarray:
    """err over the last two axes (k, n') of an array of weights, float64 (tables only)."""
    n1 = W.shape[-1]
    m = n1 - 1
    z = np.array([[-1.0 if (s >> j) & 1 else 1.0 for j in range(m)] for s in range(1 << m)]).reshape(1 << m, m)
    A = W[..., 1:] @ z.T  # (..., k, 2^m)
    t = -np.abs(W[..., 0])[..., None]
    pw = np.mean(A < t, axis=-1)
    pz = np.mean(A == t, axis=-1)
    sign = np.prod(np.sign(W[..., 0]), axis=-1)
    return 1 - 0.5 * np.prod(1 - pz, axis=-1) - 0.5 * sign * np.prod(1 - pz - 2 * pw, axis=-1)


@dataclass(frozen=True)
class RunSet:
    """Runs of one size at one horizon: inits, the engine's result, exact final errors (None if diverged)."""

    k: int
    n1: int
    batch: int
    T: int
    lr: float
    lr_mode: str
    W0: np.ndarray
    result: object
    err: tuple
    err_path: np.ndarray | None  # (R, C) float errors at the checkpoints


@functools.lru_cache(maxsize=64)
def _runs(k: int, n1: int, batch: int, T: int, lr_mode: str, lr: float, init: str, runs: int, seed_root: int,
          backend: str) -> RunSet:
    W0 = _inits(seed_root, k, n1, runs, init)
    seeds = np.random.SeedSequence([seed_root, k, n1, 1]).generate_state(runs, dtype=np.uint64)
    res = disjoint_polynet_sgd(W0, steps=T, seeds=seeds, lr=lr, lr_mode=lr_mode, batch=batch,
                               checkpoints=_checkpoints(T), record_all=True, backend=backend)
    err = tuple(None if res.diverged[r] else _exact_error(res.w[r]) for r in range(runs))
    with np.errstate(invalid="ignore"):
        path = _error_float(res.weights)
    return RunSet(k, n1, batch, T, lr, lr_mode, W0, res, err, path)


def _theorem_runs(p, ctx, k, n1, batch, *, init="pm1+", lr_factor=1.0, delta=None, tag="runs") -> RunSet:
    delta = p["delta"] if delta is None else delta
    T = horizon(k, n1, delta, p["eps"])
    c = adaptive_lr_constant(T, k * n1, delta, factor=lr_factor)
    root = Context(THM_ID).seed(tag)
    return _runs(k, n1, batch, T, "adaptive", c, init, p["runs"], root, ctx.backend)


#: the printed coefficients of the two envelopes: 1/(4 sqrt 2) (Claim B.12) and 1/2 ((B.20))
SQRT_COEF = 1 / (4 * math.sqrt(2))
LINEAR_COEF = 0.5


def lower_envelope(form: str, k: int, n1: int, T: int, delta: float, tau, *, offset: float = 0.5,
                   shift: int = 1, coef: float | None = None):
    """The lower bound on xi_i w_{i,1} after tau steps (the paper's t = tau + 1).

    "sqrt" (Claim B.12 as printed): offset + (1/(4 sqrt 2)) (3n'-2)^{-(k-shift)} sqrt(tau / log(nT/delta));
    "linear" ((B.20), what the proof derives): offset + (1/2) (3n'-2)^{-(k-shift)} tau / sqrt(2T log(2nT/delta)).
    """
    L, Lp = _log_terms(k, n1, T, delta)
    rho = float(3 * n1 - 2) ** (-(k - shift))
    if form == "sqrt":
        a = SQRT_COEF if coef is None else coef
        return offset + a * rho * np.sqrt(tau / Lp) if isinstance(tau, np.ndarray) else offset + a * rho * math.sqrt(tau / Lp)
    if form == "linear":
        a = LINEAR_COEF if coef is None else coef
        return offset + a * rho * tau / math.sqrt(2 * T * L)
    raise ValueError(f"unknown envelope form {form!r}")


# ---------------------------------------------------------------------------------------------
# E26. Theorem 5.8, full statement (and the main-text form)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SgdGuarantee:
    """err(w^(T+1)) <= eps with probability >= 1 - delta over SGD, for inits drawn by ``init``.

    init: "pm1+" (i.i.d. ±1 conditioned on prod_i sign w_{i,1} > 0) or "ones".
    lr_mode/lr_value: "adaptive" uses eta_i = c lr_factor / prod ||w_l||_1; "constant" uses lr_value,
    or c lr_factor when lr_value is None (the normalisation dropped).  delta: fixed, or None (parameter).
    """

    init: str
    lr_mode: str = "adaptive"
    lr_value: float | None = None
    lr_factor: float = 1.0
    delta: float | None = None
    text: str = ""
    #: the printed horizon T >= coef log(2nT/delta) log(2k/eps) (3n'-2)^{a k + b}: coef = 6, (a, b) = (2, -1)
    horizon_coef: float = 6.0
    horizon_exp: tuple[int, int] = (2, -1)
    #: the time of the conclusion as a fraction of T: err(w^(t)) <= eps at t = at_fraction T (1: t = T + 1, printed)
    at_fraction: float = 1.0
    #: the probability of the init event prod_i sign w_{i,1} > 0 (printed: 1/2)
    init_prob: Fraction = Fraction(1, 2)

    def horizon(self, k: int, n1: int, delta: float, eps: float) -> int:
        a, b = self.horizon_exp
        return horizon(k, n1, delta, eps, exponent=a * k + b, coef=self.horizon_coef)


_THM_PRINTED = SgdGuarantee("pm1+", text="Theorem 5.8 as printed (i.i.d. ±1 init, conditioned on prod sign > 0)")
_MAIN_PRINTED = SgdGuarantee("ones", delta=0.01, text="Theorem 5.8, main text: all-ones init, w.p. 0.99")


def _guarantee_runs(statement: SgdGuarantee, p, ctx, k, n1, batch, delta, root) -> tuple[RunSet, list]:
    """The runs of the statement and, per run, its exact final error (None = diverged)."""
    T = statement.horizon(k, n1, delta, p["eps"])
    c = adaptive_lr_constant(T, k * n1, delta, factor=statement.lr_factor)
    lr = c if statement.lr_value is None else statement.lr_value
    rs = _runs(k, n1, batch, T, statement.lr_mode, lr, statement.init, p["runs"], root, ctx.backend)
    return rs, list(rs.err)


@functools.lru_cache(maxsize=4096)
def _cp(failures: int, trials: int) -> tuple[float, float]:
    """clopper_pearson(failures, trials, CONFIDENCE), cached: the sharpness search of every statement evaluates
    it at ~300 checkpoints per size, mostly with the same counts (a pure cache: same arguments, same floats)."""
    return clopper_pearson(int(failures), int(trials), CONFIDENCE)


def _first_hits(rs: RunSet, eps: float) -> np.ndarray:
    """First checkpoint step with err <= eps per run (float errors; -1 when never)."""
    ok = rs.err_path <= eps
    cks = rs.result.checkpoints
    return np.array([cks[np.argmax(row)] if row.any() else -1 for row in ok])


def _trajectory_plot(rs: RunSet, delta: float, title: str, count: int = 4) -> dict:
    k, n1, T = rs.k, rs.n1, rs.T
    cks = rs.result.checkpoints
    series = []
    for r in range(min(count, rs.W0.shape[0])):
        for i in range(k):
            series.append({"label": f"run {r}, |w_{i + 1},1|" if i == 0 else None, "x": cks.tolist(),
                           "y": np.abs(rs.result.relevant[r, :, i]).tolist(), "style": "-"})
    series.append({"label": "(B.20) lower bound", "x": cks.tolist(),
                   "y": [lower_envelope("linear", k, n1, T, delta, int(t)) for t in cks], "style": "k--"})
    series.append({"label": "Claim B.12 as printed (sqrt)", "x": cks.tolist(),
                   "y": [lower_envelope("sqrt", k, n1, T, delta, int(t)) for t in cks], "style": "k:"})
    return {"title": title, "xlabel": "SGD step t", "ylabel": "|w_{i,1}^{(t+1)}|", "series": series,
            "logx": False, "logy": True}


def _check_guarantee(statement: SgdGuarantee, p, ctx, root: int) -> Verdict:
    ev = Evidence("le", rigor=Rigor.STATISTICAL)
    delta = p["delta"] if statement.delta is None else statement.delta
    eps = p["eps"]
    sizes = _sizes_within_budget(ctx.claim_id, p, delta)
    table = {}
    for k in sorted({s[0] for s in sizes}) if statement.init == "pm1+" else ():
        good = sum(1 for m in range(1 << k) if m.bit_count() % 2 == 0)
        ev.add({"part": "Pr over init of prod_i sign w_{i,1} > 0", "k": k}, Fraction(good, 1 << k), statement.init_prob,
               relation="eq")
    plot_rs = None
    for k, n1, batch in sizes:
        rs, errs = _guarantee_runs(statement, p, ctx, k, n1, batch, delta, root)
        R = len(errs)
        diverged = sum(e is None for e in errs)
        cks = rs.result.checkpoints
        # failures per checkpoint (float errors of the path; a diverged run fails from its divergence on)
        with np.errstate(invalid="ignore"):
            fail_path = ~(rs.err_path <= eps)  # (R, C): NaN (diverged) counts as a failure
        if statement.at_fraction >= 1:
            failures = sum(1 for e in errs if e is None or e > Fraction(eps))
            at_step = rs.T
        else:
            ci = int(np.searchsorted(cks, statement.at_fraction * rs.T))
            ci = min(ci, len(cks) - 1)
            failures = int(fail_path[:, ci].sum())
            at_step = int(cks[ci])
        lower, _ = _cp(failures, R)
        finite = [e for e in errs if e is not None]
        case = {"k": k, "n'": n1, "B": batch, "T": rs.T, "runs": R, "failures": failures, "diverged": diverged,
                "max final err": max(finite) if finite else "all diverged", "conclusion at step": at_step}
        if diverged:
            case["first divergence step"] = int(rs.result.diverged_at[rs.result.diverged].min()) if rs.result.diverged.any() else None
        ev.add(case, lower, delta, note=f"{CONFIDENCE:.1%} lower confidence bound on the failure rate vs delta",
               part="guarantee")
        # sharpness of the horizon: the earliest checkpoint from which on the criterion holds, over T
        ok_from = len(cks)
        for ci in range(len(cks) - 1, -1, -1):
            if _cp(int(fail_path[:, ci].sum()), R)[0] > delta:
                break
            ok_from = ci
        need = float(cks[ok_from]) / rs.T if ok_from < len(cks) else math.inf
        ev.sharpness({"k": k, "n'": n1, "B": batch, "T": rs.T, "runs": R, "criterion holds from step":
                      int(cks[ok_from]) if ok_from < len(cks) else None}, need, part="guarantee")
        # the error side by a second route: the exhaustive cube evaluation of f on two runs
        for r in [r for r in range(R) if errs[r] is not None][:2]:
            if k * n1 <= 16:
                ev.add({"part": "exact err = exhaustive err", "k": k, "n'": n1, "run": r},
                       float(errs[r]), disjoint_polynet_error_exhaustive(list(rs.result.w[r])), relation="eq")
        if ctx.statement_tag != "printed":
            continue
        if batch == 1 and (plot_rs is None or (k, n1) > (plot_rs.k, plot_rs.n1)):
            plot_rs = rs
        hits = _first_hits(rs, eps)
        row = {
            "T": rs.T, "c": f"{rs.lr:.4g}", "failures / runs": f"{failures}/{R}", "diverged": diverged,
            "final |w_{i,1}| (min, median)": [round(float(np.min(np.abs(rs.result.w[:, :, 0]))), 3),
                                              round(float(np.median(np.abs(rs.result.w[:, :, 0]))), 3)],
            "max_t max_{j>1} |w_ij|": round(float(rs.result.max_irrelevant.max()), 4),
            "max_t |s_ij| (martingale)": round(float(rs.result.max_martingale.max()), 4),
            "first err <= eps (median, max step)": [int(np.median(hits[hits >= 0])) if (hits >= 0).any() else None,
                                                   int(hits.max()) if (hits >= 0).all() else "some never"],
        }
        if statement.init == "pm1+":
            short = horizon(k, n1, delta, eps, exponent=k - 1)
            srs = _runs(k, n1, batch, short, "adaptive", adaptive_lr_constant(short, k * n1, delta), "pm1+", R, root, ctx.backend)
            sfail = sum(1 for e in srs.err if e is None or e > Fraction(eps))
            row["horizon with (3n'-2)^(k-1): T, failures"] = [short, f"{sfail}/{R}"]
            if batch == 1 and rs.T * R <= EXTRA_WORK_MAX[ctx.tier == "quick"]:
                neg = _runs(k, n1, batch, rs.T, "adaptive", rs.lr, "pm1-", R, root, ctx.backend)
                nfail = sum(1 for e in neg.err if e is None or e > Fraction(eps))
                row["inits with prod sign < 0 (not covered): successes"] = f"{R - nfail}/{R}"
        table[f"k={k}, n'={n1}, B={batch}"] = row
    if table:
        ev.details["runs at the theorem's horizon"] = table
    if plot_rs is not None:
        ev.plots.append(_trajectory_plot(
            plot_rs, delta, f"SGD on a disjoint-PolyNet, k={plot_rs.k}, n'={plot_rs.n1}: relevant weights vs (B.20)"))
    return ev.verdict(backend=ctx.backend)


_SIZE_DOC = "comma-separated kxn'xB triples (1 <= k <= 6, 2 <= n' <= 8, 1 <= B <= 1024)"
_PARAMS = [
    Param("sizes", str, doc=_SIZE_DOC),
    Param("runs", int, 5, 100_000, doc="SGD runs (seeds) per size"),
    Param("delta", float, 1e-4, 0.5, doc="failure probability delta of the theorem"),
    Param("eps", float, 1e-4, 0.499, doc="target error eps in (0, 1/2)"),
]
_TIERS = {
    "quick": {"sizes": "2x2x1,2x3x1,3x2x1,2x2x4", "runs": 10, "delta": 0.1, "eps": 0.1},
    "full": {"sizes": "2x2x1,2x3x1,2x4x1,3x2x1,3x3x1,2x2x8,3x2x2", "runs": 100},
    "gpu": {"sizes": "2x2x1,2x3x1,2x4x1,2x5x1,3x2x1,3x3x1,2x2x8,3x2x4,4x2x1,3x4x1", "runs": 1000},
}


@claim(
    id=THM_ID,
    source=SOURCE,
    label="Theorem 5.8",
    entry="E26",
    title="SGD with the adaptive rate learns disjoint parities at its horizon T (full statement)",
    lines=[(3592, 3594)],
    printed=_THM_PRINTED,
    mutants=[
        Mutant("fixed-lr-1", "constant step eta = 1 without the prod ||w_l||_1 normalisation",
               SgdGuarantee("pm1+", lr_mode="constant", lr_value=1.0)),
        Mutant("unnormalised-c", "eta = c (the theorem's constant) without dividing by prod ||w_l||_1",
               SgdGuarantee("pm1+", lr_mode="constant")),
        Mutant("at-0.07T", "err <= eps already at t = 0.07 T: the horizon times 0.07, just beyond the sharpness 0.080 "
               "(k = 2, n' = 3, B = 1: the criterion holds from step 10038 of 125471 on); rejected there",
               replace(_THM_PRINTED, at_fraction=0.07), near_boundary=True, part="guarantee"),
        Mutant("no-training", "err(w^(1)) <= eps: the conclusion already at the initialisation (t = 0)",
               replace(_THM_PRINTED, at_fraction=0.0), origin="second-reader"),
        Mutant("init-prob-3/4", "the init event has probability 3/4", replace(_THM_PRINTED, init_prob=Fraction(3, 4)),
               origin="second-reader"),
    ],
    parts=[
        Part("guarantee", "for T >= 6 log(2nT/delta) log(2k/eps) (3n'-2)^{2k-1}, any B >= 1, with the adaptive rate "
             "eta_i = 1/(2 sqrt(2T log(2nT/delta)) prod_{l != i} ||w_l||_1): with probability 1 - delta over SGD (given "
             "the init event), err(w^(T+1)) <= eps", inequality=True),
        Part("init-event", "the init event (prod_i sign w_{i,1} > 0) has probability 1/2 over the +-1 initialisation"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.STATISTICAL,
    params=_PARAMS,
    tiers=_TIERS,
    uses_backend=True,
)
def check_thm_5_8(statement: SgdGuarantee, p, ctx) -> Verdict:
    """Theorem 5.8 (full statement): online SGD on a disjoint-PolyNet reaches error <= eps.

    Statement
    ---------
    Initialise the disjoint-PolyNet f(x; w) = prod_i <w_i, x_{P_i}> with weights i.i.d. uniform on
    {±1}.  Fix eps in (0, 1/2) and run SGD on the correlation loss at any batch size B >= 1 for
    T >= 6 log(2nT/delta) log(2k/eps) (3n'-2)^{2k-1} iterations with the adaptive learning rate
    eta_i^(t) = 1 / (2 sqrt(2 T log(2nT/delta)) prod_{l != i} ||w_l^(t)||_1).  Then with probability
    1/2 over the initialisation (the event prod_i sign w_{i,1} > 0) and 1 - delta over the sampling of
    SGD, err(w^(T+1)) <= eps.

    Hypotheses
    ----------
    n = k n', S = the first coordinate of every block; err counts sign(f) = 0 as an error.

    Source
    ------
    Thesis (seed 004), Theorem 5.8 (full statement, App. B.2.4), lines 3592-3594; proof lines 3596-3652.

    Checkable form
    --------------
    For every size (k, n', B) in ``sizes``: T is the smallest integer satisfying the implicit
    inequality (``horizon``: (2,2) -> 20254, (2,3) -> 125471, (3,2) -> 447759, (3,3) -> 8743509
    at delta = eps = 0.1), c = 1/(2 sqrt(2 T log(2nT/delta))).  ``runs`` inits are drawn i.i.d. ±1 and
    conditioned on prod sign > 0 (flipping w_{1,1} maps the complement bijectively onto the event, so
    the conditioned init is exactly uniform on it), each trained with its own SGD seed.  A run succeeds
    when it did not diverge and its exact err(w^(T+1)) <= eps.  Criterion, fixed before any run: the
    statement fails at a size when the one-sided 99.9% Clopper-Pearson lower bound on the failure rate
    exceeds delta.  Also: Pr[prod sign > 0] = 1/2 exactly (counting sign patterns), and the exact error
    equals the exhaustive cube evaluation on two runs per size.  Reported (not asserted): the first
    checkpoint where err <= eps, the same runs with the horizon exponent k-1 instead of 2k-1, and
    inits with prod sign < 0 (outside the theorem).

    Exactness
    ---------
    Statistical (seeded, one-sided 99.9% Clopper-Pearson bound).  err is exact: the final float64
    weights are exact dyadic rationals and the block laws are enumerated in Fractions.  The SGD itself
    runs in float64; with the adaptive rate every weight stays below 10^3 in magnitude, so rounding
    (relative 2^-53 per operation) cannot move an error that is 0 on every run by more than ties of
    measure zero.

    Mutants
    -------
    fixed-lr-1: eta = 1 without the normalisation: the weights overflow (k = 3: within tens of steps;
    k = 2: after about 330 steps), every run is reported as diverged and counted as a failure.
    unnormalised-c: eta = c without dividing by prod ||w_l||_1: for k = 3 the relevant weights follow
    v' = c v^2 and blow up after about 1/c steps (~8000), long before T (diverged); for k = 2 it
    succeeds, so it is rejected at the k = 3 sizes only.  A shorter horizon is NOT a mutant: the printed
    T is very loose (err <= eps is first reached at (2,3) after ~1.0e4 of 1.25e5 steps, at (3,3) after
    ~2.5e5 of 8.7e6), and the exponent k-1 instead of 2k-1 still succeeds at (2,2), (2,3), (3,2),
    (3,3) -- but not at (2,4) (T = 2887: 76 of 100 runs fail at the full tier), so the catalog's
    "still succeeds" does not extend to every size.
    at-0.07T (near-boundary, part guarantee): the conclusion at 0.07 T; at k = 2, n' = 3, B = 1 too many
    runs are still above eps (the criterion holds only from 0.080 T).  Second reader (not expressible
    before the audit: the time of the conclusion and the init probability were literals): no-training
    is false by exact enumeration: err(w^(1)) = 3/4, 3/8, 7/8 at (k, n') = (2, 2), (2, 3), (3, 2) for
    every +-1 init with prod sign > 0, all > eps = 0.1 (every run fails at checkpoint 0);
    init-prob-3/4: exactly half of the 2^k sign patterns have an even number of minus signs.

    Sharpness
    ---------
    Part guarantee, as an upper bound on the time SGD needs: ratio = (the earliest checkpoint from which
    on the 99.9% criterion holds) / T, searched over the ~300 checkpoints of every size's runs.  Found
    (quick): 0.080 at k = 2, n' = 3, B = 1 (step 10038 of 125471); the failure rate itself is 0 at
    every size.  The printed horizon is loose by a factor 12.5 (> 10x on every size: a finding; the
    exponent 2k - 1 could be k - 1 at the sizes run, see above).

    Notes
    -----
    The conditioning on prod sign > 0 is conservative: at the theorem's horizon and B = 1, 94-100% of
    the inits with prod sign < 0 (reported, outside the statement) also reach err <= eps, because SGD
    noise leaves the saddle v = 0; with B = 4 at (3,2) only 59/100 do (less noise).  The proof's
    Azuma step is checked separately (thesis_ch5.thm_5.8.azuma): as printed it gives
    failure probability 2(delta/2nT)^{1/4}, not delta/(nT); the range form of the Azuma-Hoeffding
    inequality gives delta/(nT) with the printed rate, so the theorem's constants need no change.
    Quick tier: a smoke test of what the full tier shows, on four sizes (2x2x1, 2x3x1, 3x2x1, 2x2x4) with 10
    runs each (full: seven sizes, 100 runs); it asserts the same parts and rejects every mutant (at-0.07T at
    2x3x1, unnormalised-c at 3x2x1; every run fails for each, 10/10: 99.9% lower bound 0.50 > delta = 0.1),
    finds the same sharpness 0.080, but
    does not make the prod sign < 0 runs of the report table (reported only, at the full tier).  Its cost
    (~1.3 CPU s; 10 runs: 30 until issue 21, 15 until its item 3) is the training at the theorem's horizon, mostly 3x2x1
    (T = 447,759), which unnormalised-c needs; the Clopper-Pearson bounds of the sharpness search are
    cached across statements.  Claims B.11, B.12 and the Azuma step share these runs (same quick sizes).
    """
    return _check_guarantee(statement, p, ctx, Context(THM_ID).seed("runs"))


@claim(
    id="thesis_ch5.thm_5.8.main",
    source=SOURCE,
    label="Theorem 5.8 (main text)",
    entry="E26",
    title="All-ones init: SGD reaches error eps w.p. 0.99 within O~((n')^{2k-1} log(1/eps)) steps",
    lines=[(1041, 1041), (881, 881)],
    printed=_MAIN_PRINTED,
    mutants=[
        Mutant("fixed-lr-1", "constant step eta = 1 without the normalisation",
               replace(_MAIN_PRINTED, lr_mode="constant", lr_value=1.0)),
        Mutant("unnormalised-c", "eta = c without dividing by prod ||w_l||_1",
               replace(_MAIN_PRINTED, lr_mode="constant")),
        Mutant("at-0.07T", "err <= eps already at t = 0.07 T: the instantiated horizon times 0.07, just beyond the "
               "sharpness 0.080 (k = 2, n' = 3: the criterion holds from step 11520 of 143997); rejected there",
               replace(_MAIN_PRINTED, at_fraction=0.07), near_boundary=True, part="guarantee"),
        Mutant("no-training", "the all-ones init already has err <= eps (t = 0)", replace(_MAIN_PRINTED, at_fraction=0.0),
               origin="second-reader"),
    ],
    parts=[
        Part("guarantee", "from the all-ones init, with an adaptive learning rate schedule, with probability 0.99 the "
             "error falls below eps (instantiated: the appendix's rate and horizon at delta = 0.01)", inequality=True),
        Part("rate", "within O~((n')^{2k-1} log(1/eps)) steps, for any eps > 0 (the asymptotic rate)", asserted=False,
             reason="an O~ rate as n' -> infinity and eps -> 0 with unspecified constants and log factors; the "
             "check instantiates it with the full statement's explicit horizon at a few (k, n') and eps = 0.1"),
    ],
    expect=Status.PARTLY_CONFIRMED,
    rigor=Rigor.STATISTICAL,
    params=[p for p in _PARAMS if p.name != "delta"],
    tiers={"quick": {"sizes": "2x3x1,3x2x1", "runs": 10, "eps": 0.1},
           "full": {"sizes": "2x2x1,2x3x1,3x2x1,2x2x4", "runs": 100},
           "gpu": {"sizes": "2x2x1,2x3x1,3x2x1,3x3x1,2x2x4", "runs": 1000}},
    uses_backend=True,
)
def check_thm_5_8_main(statement: SgdGuarantee, p, ctx) -> Verdict:
    """Theorem 5.8 (main text): from the all-ones init, SGD learns the disjoint parity w.p. 0.99.

    Statement
    ---------
    "Suppose we train a disjoint-PolyNet, initialized as above [all ones], with online SGD.  Then
    there exists an adaptive learning rate schedule such that for any eps > 0, with probability 0.99,
    the error falls below eps within O~((n')^{2k-1} log(1/eps)) steps."  (Informal Theorem 5.3: any
    B >= 1, n^{O(k)} log(1/eps) iterations.)

    Hypotheses
    ----------
    All-ones initialisation (Section 5.4.2, "for clarity of exposition, assume all-ones
    initialization"); the schedule is the appendix's adaptive rate.

    Source
    ------
    Thesis (seed 004), Theorem 5.8 (main text), line 1041; Informal Theorem 5.3, line 881.

    Checkable form
    --------------
    The existence claim is instantiated by the appendix's schedule at delta = 0.01: horizon
    T = 6 log(2nT/delta) log(2k/eps)(3n'-2)^{2k-1} (which is O~((n')^{2k-1} log(1/eps)) for fixed k)
    and eta_i = c / prod ||w_l||_1.  ``runs`` SGD seeds from the all-ones init; a run succeeds when it
    does not diverge and its exact final error is <= eps.  Criterion (fixed in advance): fails when
    the one-sided 99.9% Clopper-Pearson lower bound on the failure rate exceeds 0.01.

    Exactness
    ---------
    Statistical (seeded, 99.9% one-sided binomial bound); final errors exact (Fractions), as in
    thesis_ch5.thm_5.8.

    Mutants
    -------
    fixed-lr-1: constant eta = 1 diverges (every run fails).  unnormalised-c: eta = c without the
    normalisation: for k = 3 the weights blow up after about 1/c steps (diverged).  Not a mutant:
    "i.i.d. ±1 init without the conditioning, w.p. 0.99" -- at the theorem's horizon SGD noise moves
    almost every init with prod sign < 0 out of the saddle (see thesis_ch5.thm_5.8's table), so that
    variant cannot be made to fail at these sizes.
    at-0.07T (near-boundary, part guarantee): at k = 2, n' = 3 the 99.9% criterion holds only from
    0.080 T on.  Second reader: no-training is false by exact enumeration: the all-ones init has
    err = 3/4 at (k, n') = (2, 2), 3/8 at (2, 3) and 7/8 at (3, 2), all > eps = 0.1.

    Sharpness
    ---------
    As for thesis_ch5.thm_5.8: the earliest checkpoint from which on the criterion holds, over T:
    0.080 (quick, k = 2, n' = 3); the instantiated horizon is loose by 12.5x.  Partly confirmed: the
    O~ rate (part rate) is asymptotic and not asserted.

    Notes
    -----
    Quick tier: a smoke test of the full tier (sizes 2x2x1, 2x3x1, 3x2x1, 2x2x4 with 100 runs) at sizes
    2x3x1, 3x2x1 with 10 runs (30 until issue 21, 15 until its item 3): it asserts the guarantee part, finds the
    same sharpness 0.080 and rejects every mutant with every run failing (10/10, 99.9% lower bound 0.50 > delta =
    0.01; at-0.07T at 2x3x1, unnormalised-c at 3x2x1).
    """
    return _check_guarantee(statement, p, ctx, ctx.seed("runs"))
