"""Over-sparse initialisation, the width side (App. C.2.2): Lemma C.10 (r'-good initialisation), Theorem 6.4 /
C.11 (the width requirement, as a mechanism) and the exact-sparsity remark; Lemmas C.2-C.6 and the rho bounds
are in verify.pareto_sq.oversparse.

Independent routes: exact binomial tails (scipy.stats.binom) and the closed forms of kernels.boolean.oversparse.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from math import comb

import numpy as np
from scipy import stats

from kernels.boolean.oversparse import C_ks, p_good_oversparse, parity_readout, rho

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True


# ---------------------------------------------------------------------------------------------
# E16. Lemma C.10
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GoodInit:
    """r = ceil(20k(2n/s)^k log(2k/delta)) => P[for all j: lo r' <= |I_j| <= hi r'] >= 1 - delta."""

    r_prime: Callable[[int, int, int, int], float]  # (r, n, k, s) -> r'
    lo: float
    hi: float
    width_const: float = 20.0  # r >= width_const k (2n/s)^k log(2k/delta)


def _c10_hypotheses(case) -> list[str]:
    bad = []
    n, k, s, delta, r = case["n"], case["k"], case["s"], case["delta"], case["r"]
    if not (4 * k < s <= n):
        bad.append("4k < s <= n (standing, App. C.2.2)")
    if not s < n:
        bad.append("k <= s < n (initialisation)")
    if k % 2 or k < 2:
        bad.append("k even >= 2")
    if not 0 < delta < 1:
        bad.append("0 < delta < 1")
    if r < 20 * k * (2 * n / s) ** k * math.log(2 * k / delta) * (1 - 1e-12):
        bad.append("r >= 20k(2n/s)^k log(2k/delta)")
    return bad


def _r_printed(r, n, k, s):
    return r / (2 * k) * (s / (2 * n)) ** k


def _r_mean(r, n, k, s):
    return (r // 2) * float(p_good_oversparse(n, k, s)) * 2 / k


@claim(
    id="thesis_ch6.lemma_C.10",
    source=SOURCE,
    label="Lemma C.10",
    entry="E16",
    title="r'-good initialisation with r' = (r/2k)(s/2n)^k fails w.h.p. (|I_j| ~ 2^k r'); holds with r' = E|I_j|",
    lines=[(4426, 4432)],
    printed=GoodInit(_r_printed, 0.5, 2.0),
    corrected=GoodInit(_r_mean, 0.5, 2.0),
    mutants=[Mutant("window-[r',2r']", "lower end r' instead of r'/2 (with r' = E|I_j|)", GoodInit(_r_mean, 1.0, 2.0)),
             Mutant("near-width-const", "width constant 20 -> 0.93 (x 0.0465) with r' = E|I_j|, beyond the quick sharpness "
                    "0.0472 (r_min/r at n = 400, k = 2, s = 9, delta = 0.01); rejected at n = 100, k = 2, s = 9, delta = 0.01, "
                    "r = 5504, where P[r'-good] = P[I_0 in window] = 0.98946 < 0.99 exactly (k = 2: one bias value)",
                    GoodInit(_r_mean, 0.5, 2.0, 0.93), near_boundary=True, part="window", origin="second-reader"),
             Mutant("printed-r'-upper-4r'", "printed r' with the upper end 4r' (a factor 2 more room): still fails, "
                    "E|I_j| ~ 2^{k+1} r' > 4r' for k >= 2", GoodInit(_r_printed, 0.5, 4.0), origin="second-reader")],
    parts=[Part("window", "r >= 20k(2n/s)^k log(2k/delta) => w.p. >= 1 - delta, r'/2 <= |I_j| <= 2r' for every j, "
                "r' = (r/2k)(s/2n)^k", inequality=True)],
    severity=Severity.CONSTANT,
    hypotheses=_c10_hypotheses,
    affects=("thesis_ch6.theorem_C.11.width",),
    expect=Status.ERRATUM,
    rigor=Rigor.EXACT,
    params=[Param("n_max", int, 50, 100_000, doc="n in {50, 100, ..., n_max} (x2 steps)")],
    tiers={"quick": {"n_max": 400}, "full": {"n_max": 3200}},
)
def check_good_init(statement: GoodInit, p, ctx) -> Verdict:
    """Lemma C.10: the over-sparse initialisation is r'-good with high probability.

    Statement
    ---------
    If r >= 20k(2n/s)^k log(2k/delta), then w.p. >= 1 - delta the initialisation is r'-good,
    r' = (r/2k)(s/2n)^k: for every bias value beta_j, r'/2 <= |I_j| <= 2r', I_j = good neurons among the
    first r/2 with bias beta_j.

    Source
    ------
    Thesis (seed 004), App. C.2.2, Lemma C.10, lines 4426-4432 (bias set of lines 4195-4225, corrected
    to the k/2 values j = 0..k/2-1, see lemma_C.6.readout).

    Checkable form
    --------------
    |I_j| ~ Binomial(r/2, p_good * 2/k) exactly (each of the r/2 neurons is good with probability
    p_good = C(n-k,s-k)/C(n,s) and has each of the k/2 biases with probability 2/k).  For r at the
    printed minimum, the exact probability that ALL k/2 windows hold is at most P[window of I_0] and at
    least 1 - (k/2) P[I_0 outside] (union bound); the statement fails if the upper estimate is < 1 - delta
    and holds if the lower estimate is >= 1 - delta (scipy.stats.binom, exact CDF sums).  Grid:
    n in {50, 100, 200, ...}, (k, s) in {(2, 9), (2, 17), (4, 17), (4, 33)}, delta in {0.01, 0.1}.

    Exactness
    ---------
    Binomial CDF in float64 (scipy, relative error ~1e-14); the printed statement misses by a
    probability close to 1 (lhs ~ 0), the corrected holds with margins >= 1e-3.

    Mutants
    -------
    Window [r', 2r'] with r' = E|I_j|: the lower end is the mean, so it fails with probability ~1/2.
    Second reader: printed r' with upper end 4r': E|I_j| = (r/k) C(n-k,s-k)/C(n,s) >= (r/k)((s-k)/n)^k ~ 2^{k+1} r'
    (k = 2, s = 9, n = 50: E|I_j| = 434.8 vs 4r' = 239.7), so it fails whp (the old checker rejected it too).
    Width constant 0.93 (near-boundary): at k = 2 there is one bias value, so P[r'-good] is the exact
    binomial window probability; it is 0.98946 < 0.99 at n = 100, s = 9, r = 5504 (the window probability is
    not monotone in r, as r' = E|I_j| is not an integer; the bisection's r_min is therefore approximate).

    Notes
    -----
    Second reader: the witness (n, k, s, delta) = (50, 2, 9, 0.01), r = 29588 (the printed minimum) meets every
    hypothesis (4k < s <= n, s < n, k even, delta in (0, 1), r at the printed bound); P[r'-good] <= P[I_0 in
    window] ~ 0 because E|I_j| ~ 2^{k+1} r' lies far above 2r'.  The window's UPPER end is what fails (the
    proof bounds only the lower tail, with Lemma C.2's lower bound (s/2n)^k on the probability).  With the
    printed bias set (k/2 - 1 values, lemma_C.6.readout) the per-bias probability is larger still, so the
    witness holds a fortiori.  Severity constant: r' must be the mean (r/k)C(n-k,s-k)/C(n,s) (or the window's
    upper end 2^{k+2} r'); the width rule of Theorem C.11 (r ~ (n/s)^k) survives.  Sharpness (corrected
    statement): r_min/r, the smallest width (bisection on r, exact binomial lower estimate) that keeps every
    window with probability >= 1 - delta, over the printed r: 0.0472 at quick (n = 400, k = 2, s = 9,
    delta = 0.01): the constant 20 is ~21x larger than needed, a bound loose by > 10x.

    Correction
    ----------
    With r' = E|I_j| = (r/k) C(n-k, s-k)/C(n, s) (about 2^{k+1} (r/2k)(s/2n)^k), r >= 20k(2n/s)^k log(2k/delta) gives
    r'/2 <= |I_j| <= 2r' for every j w.p. >= 1 - delta.
    """
    ev = Evidence("ge", rigor=Rigor.EXACT)

    def estimates(r, n, k, s):
        rp = statement.r_prime(r, n, k, s)
        q = float(p_good_oversparse(n, k, s)) * 2 / k
        lo, hi = math.ceil(statement.lo * rp - 1e-9), math.floor(statement.hi * rp + 1e-9)
        # stats.binom.cdf on both ends at once: the values of the frozen distribution's cdf (elementwise), without
        # building a frozen distribution per call (most of the time of this check)
        if hi >= lo:
            cdf = stats.binom.cdf(np.array([hi, lo - 1]), r // 2, q)
            inside = float(cdf[0] - cdf[1])
        else:
            inside = 0.0
        return rp, q, inside, 1 - (k // 2) * (1 - inside)

    n = 50
    while n <= p["n_max"]:
        for k, s in ((2, 9), (2, 17), (4, 17), (4, 33)):
            if s >= n:
                continue
            for delta in (0.01, 0.1):
                r = math.ceil(statement.width_const * k * (2 * n / s) ** k * math.log(2 * k / delta))
                rp, q, upper_est, lower_est = estimates(r, n, k, s)
                case = {"n": n, "k": k, "s": s, "delta": delta, "r": r, "r'": rp, "E|I_j|": (r // 2) * q}
                if upper_est < 1 - delta:
                    ev.add(dict(case, estimate="P[I_0 in window] (upper bound on P[r'-good])"), upper_est, 1 - delta,
                           part="window")
                    continue
                ev.add(dict(case, estimate="1 - (k/2) P[I_0 outside] (lower bound)"), lower_est, 1 - delta)
                lo_r, hi_r = 2, r  # bisection: the smallest width whose lower estimate is >= 1 - delta
                while hi_r - lo_r > max(1, r // 5000):
                    mid = (lo_r + hi_r) // 2
                    lo_r, hi_r = (lo_r, mid) if estimates(mid, n, k, s)[3] >= 1 - delta else (mid, hi_r)
                ev.sharpness(dict(case, r_min=hi_r, quantity="r_min / r"), hi_r / r, part="window")
        n *= 2
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# E17. Theorem 6.4 / C.11: the width requirement (mechanism)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WidthRule:
    """r(n, k, s, delta) = ceil(width_const k (2n/s)^e log(2k/delta)) with exponent e(k) (printed: 20, e = k)."""

    exponent: Callable[[int], int]
    width_const: float = 20.0


@claim(
    id="thesis_ch6.theorem_C.11.width",
    source=SOURCE,
    label="Theorem C.11 (width)",
    entry="E17",
    title="Theorem 6.4 / C.11: width r ~ (n/s)^k buys a good neuron per bias w.p. >= 1 - delta; the constants are untestable",
    lines=[(1222, 1226), (4434, 4466)],
    printed=WidthRule(lambda k: k),
    mutants=[Mutant("exponent-k-1", "r = ceil(20k(2n/s)^{k-1} log(2k/delta))", WidthRule(lambda k: k - 1)),
             Mutant("near-width-const-0.2", "width constant 20 -> 0.2 (x 0.01), beyond the quick sharpness 0.01086 (r_min/r at "
                    "n = 10^4, k = 2, s = 9, delta = 0.01): r = 1.18e7 < r_min = 1.29e7, the success probability (exact for "
                    "k = 2) drops below 1 - delta", WidthRule(lambda k: k, 0.2), near_boundary=True, part="width", origin="second-reader")],
    parts=[Part("width", "r = ceil(20k(2n/s)^k log(2k/delta)) gives a good neuron in every bias class w.p. >= 1 - delta", inequality=True),
           Part("data-time", "m >= alpha_3 C(s,k-1) n^2 log(nr/delta) log(1/delta), T >= alpha_4 log(1/delta) log T/eps^2 => L_D(h) <= eps",
                asserted=False, reason="not runnable at the theorem's constants (k = 2, eps = 0.1 needs s >= 3e9); the algorithm is "
                "executed at n = 12 by thesis_ch6.theorem_C.11.one_step, its lemmas checked separately (C.2-C.10)")],
    expect=Status.MECHANISM,
    rigor=Rigor.MECHANISM,
    kind=Kind.MECHANISM,
    params=[Param("n_max", int, 100, 10**5, doc="n in {100, 1000, ...} up to n_max")],
    tiers={"quick": {"n_max": 10**4}, "full": {"n_max": 10**5}},
)
def check_width_rule(statement: WidthRule, p, ctx) -> Verdict:
    """Theorem 6.4 / C.11 (over-sparse data x width frontier), width part and resource table.

    Statement
    ---------
    k even, odd s >= alpha_1 log(1/delta)/eps^2, r = ceil(alpha_2 (n/s)^k log(1/delta)),
    m >= alpha_3 C(s,k-1) n^2 log(nr/delta) log(1/delta), T >= alpha_4 log(1/delta) log T/eps^2: w.p. >= 1 - delta
    GD returns h with L_D(h) <= eps.  The proof's constants: r = ceil(20k(2n/s)^k log(2k/delta)).

    Source
    ------
    Thesis (seed 004), Theorem 6.4 line 1222-1226; Theorem C.11 and proof, lines 4434-4466.

    Checkable form
    --------------
    The theorem cannot be run at its constants (k = 2, eps = 0.1, delta = 0.01 needs s >= 3e9).  Its
    width mechanism is checked exactly: with r = r(n, k, s, delta), the probability that every one of
    the k/2 bias classes among the r/2 free neurons contains a good neuron, computed as
    1 - (k/2)(1 - 2 p_good/k)^{r/2} (a union-bound lower estimate; exact for k = 2), must be >= 1 - delta,
    for n in {100, 1000, ..., n_max}, (k, s) in {(2, 9), (2, 17), (4, 17)}, delta in {0.01, 0.1}.
    The resource table r(s), m(s) (r decreasing, m increasing in s) and the proof's explicit
    requirements at eps = 0.1, delta = 0.01 are recorded in the details (n = 100, k = 2, s = 9:
    r = 118350, tau = 3.1e-9, m = 9.5e18, and s >= 3.1e9 is required: not runnable).

    Exactness
    ---------
    Closed form in float64 via log1p (relative error 1e-15); margins are >= 1e-3.

    Mutants
    -------
    Exponent k - 1: the expected number of good neurons is ~10k 2^{k-1}(s/n) log(2k/delta) < 1 for large n:
    at n = 10^4, k = 2, s = 9 the success probability is ~0.2 << 0.99.  Second reader, near-boundary: width
    constant 0.2 (rejected, exact for k = 2).  Sharpness: r_min/r, the smallest width (bisection on the closed
    form) keeping the success probability >= 1 - delta over the printed r; 0.01086 at quick (n = 10^4, k = 2,
    s = 9, delta = 0.01): the constant 20 (and the (2n/s)^k for (n/s)^k) is ~90x larger than the lottery
    needs, a bound loose by > 10x (a finding, not an error: the theorem only claims sufficiency).
    """
    ev = Evidence("ge", rigor=Rigor.MECHANISM)
    n = 100
    while n <= p["n_max"]:
        for k, s in ((2, 9), (2, 17), (4, 17)):
            for delta in (0.01, 0.1):
                r = math.ceil(statement.width_const * k * (2 * n / s) ** statement.exponent(k) * math.log(2 * k / delta))
                q = float(p_good_oversparse(n, k, s)) * 2 / k

                def success(rr, q=q, k=k):
                    return 1 - (k // 2) * math.exp((rr // 2) * math.log1p(-q))

                ok = ev.add({"n": n, "k": k, "s": s, "delta": delta, "r": r}, success(r), 1 - delta)
                if ok:
                    lo_r, hi_r = 2, r
                    while hi_r - lo_r > max(2, r // 10000):
                        mid = (lo_r + hi_r) // 2
                        lo_r, hi_r = (lo_r, mid) if success(mid) >= 1 - delta else (mid, hi_r)
                    ev.sharpness({"n": n, "k": k, "s": s, "delta": delta, "r": r, "r_min": hi_r, "quantity": "r_min / r"},
                                 hi_r / r, part="width")
        n *= 10
    table = []
    for s in (9, 17, 33, 65):
        n, k, delta = 1000, 2, 0.01
        r = math.ceil(20 * k * (2 * n / s) ** k * math.log(2 * k / delta))
        table.append({"n": n, "k": k, "s": s, "r": r, "1/C_{k,s}^2": float(1 / C_ks(k, s) ** 2),
                      "C(s,k-1) n^2 log n": comb(s, k - 1) * n * n * math.log(n)})
    ev.details["resource table (r decreasing, m ~ 1/C^2 ~ C(s,k-1) increasing in s)"] = table
    ev.details["explicit requirements of the proof (typos fixed), eps = 0.1, delta = 0.01"] = [
        _explicit_requirements(n, k, s, 0.1, 0.01) for n, k, s in ((100, 2, 9), (1000, 2, 9), (100, 4, 17))]
    return ev.verdict()


def _explicit_requirements(n: int, k: int, s: int, eps: float, delta: float) -> dict:
    """The resource formulas of the proof of Theorem C.11 (catalog E17, typos of P12 fixed), evaluated."""
    B = math.sqrt(parity_readout(k, range(k // 2))[1])
    kap = 0.5 * math.sqrt(rho(k - 1))
    L = math.log(2 * k / delta)
    r = math.ceil(20 * k * (2 * n / s) ** k * L)
    tau = kap * eps / (40 * B * n * math.sqrt(comb(s, k - 1)) * L)
    m = max(4 * math.log(4 * n * r / delta) / tau**2, (16 * math.sqrt(2) * B * math.sqrt(10 * k * L) + 1) ** 2 * math.log(2 / delta) / eps**2)
    T_over_logT = 100 * B**2 * (4 * math.sqrt(10 * k * L) + 1 / B) ** 2 / eps**2
    return {"n": n, "k": k, "s": s, "B_k": B, "kappa_k": kap, "width r": r, "tau": tau, "samples m": m,
            "s required": 80 * k * B**2 * L / eps**2, "T/log T": T_over_logT}


# ---------------------------------------------------------------------------------------------
# E28. exact-sparsity remark
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExactSparsity:
    """With s = k, width r = factor(n, k) log(1/delta) gives P[some neuron has supp w = S] >= 1 - delta."""

    factor: Callable[[int, int], float]


_EXACT_PRINTED = ExactSparsity(lambda n, k: comb(n, k))


@claim(
    id="thesis_ch6.exact_sparsity_remark",
    source=SOURCE,
    label="Remark (exact sparsity s = k)",
    entry="E28",
    title="With s = k and width r = C(n,k) log(1/delta) some neuron has supp w = S w.p. >= 1 - delta",
    lines=[(1238, 1242)],
    printed=_EXACT_PRINTED,
    mutants=[Mutant("width-n^(k-1)", "r = n^{k-1} log(1/delta)", ExactSparsity(lambda n, k: n ** (k - 1))),
             Mutant("near-0.97C", "r = 0.97 C(n,k) log(1/delta) (x 0.97), beyond the quick sharpness 0.995 (r_min/r at n = 12, "
                    "k = 2, delta = 0.05: r_min = 197 of 198); the closed form 1 - (1 - 1/C)^r drops below 1 - delta (at (8, 2, 0.05): r = 82, 0.9493)",
                    ExactSparsity(lambda n, k: 0.97 * comb(n, k)), near_boundary=True, part="existence", origin="second-reader")],
    parts=[Part("existence", "s = k, r >= C(n,k) log(1/delta) => P[some neuron has supp w = S] >= 1 - delta (the text's r = O~(n^k), "
                "quantified)", inequality=True)],
    expect=Status.CONFIRMED,
    rigor=Rigor.STATISTICAL,
    derived=True,
    params=[Param("inits", int, 100, 100_000, doc="Monte Carlo initialisations per case")],
    tiers={"quick": {"inits": 400}, "full": {"inits": 2000}},
)
def check_exact_sparsity(statement: ExactSparsity, p, ctx) -> Verdict:
    """Exact-sparsity remark: width ~ C(n, k) log(1/delta) finds the support at initialisation.

    Statement
    ---------
    With s = k and r = O~(n^k), w.h.p. some neuron has supp w = S at initialisation (text); quantified:
    r >= C(n, k) log(1/delta) gives P[exists i: supp w_i = S] = 1 - (1 - 1/C(n,k))^r >= 1 - delta.

    Source
    ------
    Thesis (seed 004), Remark (exact sparsity s = k), Sec. 6.3.2, lines 1238-1242 (kernel remark line 1206).

    Checkable form
    --------------
    Monte Carlo: draw r random k-subsets per initialisation, ``inits`` initialisations, (n, k) in
    {(8, 2), (10, 3), (12, 2)}, delta in {0.05, 0.2}; the one-sided 99.9% Clopper-Pearson upper bound
    of the success frequency must be >= 1 - delta, and the closed form must be >= 1 - delta.

    Exactness
    ---------
    Statistical (seeded, ctx.rng("inits")); confidence 99.9% per case.

    Mutants
    -------
    r = n^{k-1} log(1/delta) is too small: at (n, k) = (8, 2), delta = 0.05, r = 24 < C = 28 gives
    success probability 0.58 < 0.95.  Second reader, near-boundary: r = 0.97 C log(1/delta) gives
    1 - (1 - 1/C)^r < 1 - delta at (12, 2, 0.05) (exact closed form: r = 192 < r_min = 197).

    Notes
    -----
    Sharpness: r_min/r with r_min = ceil(log delta / log(1 - 1/C)), the exact smallest width; 0.995 at quick
    ((n, k) = (12, 2), delta = 0.05): (1 - 1/C)^{C log(1/delta)} -> delta, so the rule is tight as C grows.
    """
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    rng = ctx.rng("inits")
    for n, k in ((8, 2), (10, 3), (12, 2)):
        C = comb(n, k)
        for delta in (0.05, 0.2):
            r = math.ceil(statement.factor(n, k) * math.log(1 / delta))
            closed = 1 - math.exp(r * math.log1p(-1 / C))
            ev.add({"n": n, "k": k, "delta": delta, "r": r, "route": "closed form"}, closed, 1 - delta)
            r_min = math.ceil(math.log(delta) / math.log1p(-1 / C))
            ev.sharpness({"n": n, "k": k, "delta": delta, "r": r, "r_min": r_min, "quantity": "r_min / r"}, r_min / r, part="existence")
            hits = int(np.sum(np.any(rng.integers(0, C, size=(p["inits"], r)) == 0, axis=1)))
            upper = float(stats.beta.ppf(0.999, hits + 1, p["inits"] - hits)) if hits < p["inits"] else 1.0
            ev.add({"n": n, "k": k, "delta": delta, "r": r, "route": "Monte Carlo", "hits": hits, "inits": p["inits"]},
                   upper, 1 - delta)
    return ev.verdict(seed=ctx.seed("inits"))
