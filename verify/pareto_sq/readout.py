"""Step-one concentration and the readout lemmas of the over-sparse proof (App. C.2.2): Lemma C.5 (E11)
and Lemma C.7 (E13).

Independent routes: exact population gradients (cube averages) against sampled ones (Lemma C.5); exact
rational hinge losses of two feature maps against the Lipschitz bound (Lemma C.7).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from kernels import chi, sign_vectors

from ..registry import Evidence, Mutant, Param, Rigor, Status, Verdict, claim
from . import SOURCE
from .sq_lower_bound import _cp_lower

# ---------------------------------------------------------------------------------------------
# E11. Lemma C.5
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConcentrationSamples:
    """m(n, r, delta, tau) samples give ||grad L_D - grad L_S||_inf <= tau w.p. >= 1 - delta at init."""

    m: Callable[[int, int, float, float], int]


@claim(
    id="thesis_ch6.lemma_C.5",
    source=SOURCE,
    label="Lemma C.5",
    entry="E11",
    title="Uniform gradient concentration at the mirrored init: m >= 4 log(4nr/delta)/tau^2 samples suffice",
    lines=[(4227, 4235)],
    printed=ConcentrationSamples(lambda n, r, d, tau: math.ceil(4 * math.log(4 * n * r / d) / tau**2)),
    mutants=[Mutant("tau-unsquared", "m >= 4 log(4nr/delta)/tau", ConcentrationSamples(lambda n, r, d, tau: math.ceil(4 * math.log(4 * n * r / d) / tau)))],
    expect=Status.CONFIRMED,
    rigor=Rigor.STATISTICAL,
    params=[Param("resamples", int, 20, 10_000, doc="sample draws per case"), Param("n", int, 4, 14, doc="cube dimension")],
    tiers={"quick": {"resamples": 60, "n": 10}, "full": {"resamples": 300, "n": 10}},
)
def check_init_concentration(statement: ConcentrationSamples, p, ctx) -> Verdict:
    """Lemma C.5: uniform concentration of the first-layer gradient at initialisation.

    Statement
    ---------
    If m >= 4 log(4nr/delta)/tau^2, then w.p. >= 1 - delta over the sample,
    ||grad_{W,b} L_D(f) - grad_{W,b} L_S(f)||_inf <= tau (hinge loss, mirrored init so f = 0, |u_i| <= 1).

    Source
    ------
    Thesis (seed 004), App. C.2.2, Lemma C.5, lines 4227-4235.

    Checkable form
    --------------
    At f = 0 the hinge gradient is grad_{w_i} = -u_i E[chi_S(x) 1[<w_i,x> + b_i > 0] x] and
    grad_{b_i} = -u_i E[chi_S 1[...]]; per-sample coordinates lie in [-1, 1].  Random Gaussian first layer
    (width r in {8, 20}, u_i = +-1), n = p["n"], k = 3: population gradient exact over the cube, empirical
    gradient from m(n, r, delta, tau) uniform samples (delta = 0.1, tau in {0.1, 0.05}), ``resamples``
    draws; the lower Clopper-Pearson bound of the violation frequency must be <= delta.

    Exactness
    ---------
    Statistical (99.9% one-sided), seeded (ctx.rng("samples")).

    Mutants
    -------
    tau unsquared (m ten to twenty times smaller): sup over nr + r coordinates exceeds tau in most draws.

    Notes
    -----
    Hoeffding for [-1, 1] variables gives 2 exp(-m tau^2/2); the printed exp(-m tau^2/4) is weaker
    but valid.
    """
    ev = Evidence("le", rigor=Rigor.STATISTICAL)
    rng = ctx.rng("samples")
    n, k, delta = p["n"], 3, 0.1
    X = sign_vectors(n).astype(np.float64)
    y = chi((1 << k) - 1, n).astype(np.float64)
    Xb = np.hstack([X, np.ones((X.shape[0], 1))])  # bias column
    for r in (8, 20):
        W = rng.normal(size=(r, n))
        b = rng.normal(size=r)
        u = rng.choice((-1.0, 1.0), size=r)
        A = (X @ W.T + b > 0).astype(np.float64)  # (2^n, r) sigma'
        per_point = -(y[:, None, None] * (A * u)[:, :, None] * Xb[:, None, :])  # (2^n, r, n+1)
        per_point = per_point.reshape(X.shape[0], -1)
        pop = per_point.mean(axis=0)
        for tau in (0.1, 0.05):
            m = statement.m(n, r, delta, tau)
            viol = 0
            for _ in range(p["resamples"]):
                idx = rng.integers(0, X.shape[0], size=m)
                counts = np.bincount(idx, minlength=X.shape[0]).astype(np.float64)
                emp = counts @ per_point / m
                viol += int(np.max(np.abs(emp - pop)) > tau)
            ev.add({"n": n, "width": r, "tau": tau, "m": m, "violations": viol, "resamples": p["resamples"]},
                   _cp_lower(viol, p["resamples"]), delta)
    return ev.verdict(seed=ctx.seed("samples"))


# ---------------------------------------------------------------------------------------------
# E13. Lemma C.7
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LipschitzBound:
    """|L_D(h_{psi,w}) - L_D(h_{psi',w})| <= factor * ||w|| ||psi - psi'||_{inf,2}."""

    factor: Fraction


def _hinge(features, labels, w) -> Fraction:
    total = Fraction(0)
    for row, yv in zip(features, labels):
        margin = yv * sum(a * b for a, b in zip(row, w))
        total += max(Fraction(0), 1 - margin)
    return total / len(labels)


@claim(
    id="thesis_ch6.lemma_C.7",
    source=SOURCE,
    label="Lemma C.7",
    entry="E13",
    title="The hinge loss of a linear readout is ||w||-Lipschitz in the feature map (sup-l2 norm)",
    lines=[(4342, 4362)],
    printed=LipschitzBound(Fraction(1)),
    mutants=[Mutant("halved", "factor 1/2", LipschitzBound(Fraction(1, 2)))],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[Param("pairs", int, 1, 200, doc="random feature-map pairs"), Param("n", int, 2, 8, doc="cube dimension")],
    tiers={"quick": {"pairs": 10, "n": 5}, "full": {"pairs": 40, "n": 6}},
)
def check_lipschitz(statement: LipschitzBound, p, ctx) -> Verdict:
    """Lemma C.7: the loss is Lipschitz in the feature map.

    Statement
    ---------
    For feature maps psi, psi': X -> R^r and w in R^r: |L_D(h_{psi,w}) - L_D(h_{psi',w})| <=
    ||w||_2 ||psi - psi'||_{inf,2}, ||phi||_{inf,2} = sup_x ||phi(x)||_2 (hinge loss, 1-Lipschitz); same for L_S.

    Source
    ------
    Thesis (seed 004), App. C.2.2, Lemma C.7, lines 4342-4362.

    Checkable form
    --------------
    On {±1}^n with y = chi_S (|S| = 2), r = 3: random rational feature maps (entries j/8, |j| <= 8), random
    perturbations and readouts; exact hinge losses (Fractions); compare the squares
    |Delta L|^2 <= factor^2 ||w||^2 max_x ||psi(x) - psi'(x)||^2.  Tight instance: psi' = psi - c y e_1,
    w = e_1/2 with all margins below 1 (hinge linear): Delta L = c ||w|| exactly.

    Exactness
    ---------
    Exact rationals.

    Mutants
    -------
    Factor 1/2 fails on the tight instance.
    """
    ev = Evidence("le", rigor=Rigor.EXACT)
    rng = ctx.rng("maps")
    n = p["n"]
    X = sign_vectors(n)
    y = [int(v) for v in chi(0b11, n)]
    N = X.shape[0]
    for a in range(p["pairs"]):
        psi = [[Fraction(int(rng.integers(-8, 9)), 8) for _ in range(3)] for _ in range(N)]
        dpsi = [[Fraction(int(rng.integers(-4, 5)), 8) for _ in range(3)] for _ in range(N)]
        psi2 = [[a_ + b_ for a_, b_ in zip(r1, r2)] for r1, r2 in zip(psi, dpsi)]
        w = [Fraction(int(rng.integers(-8, 9)), 4) for _ in range(3)]
        dL = _hinge(psi, y, w) - _hinge(psi2, y, w)
        rhs = statement.factor**2 * sum(q * q for q in w) * max(sum(q * q for q in row) for row in dpsi)
        ev.add({"n": n, "pair": a, "quantity": "squares"}, dL * dL, rhs)
    c = Fraction(1, 4)
    psi = [[Fraction(int(rng.integers(-2, 3)), 8) for _ in range(3)] for _ in range(N)]
    psi2 = [[row[0] - c * yv, row[1], row[2]] for row, yv in zip(psi, y)]
    w = [Fraction(1, 2), Fraction(0), Fraction(0)]
    dL = _hinge(psi2, y, w) - _hinge(psi, y, w)
    rhs = statement.factor**2 * sum(q * q for q in w) * c * c
    ev.add({"n": n, "instance": "tight: psi' = psi - c y e_1", "c": c}, dL * dL, rhs)
    return ev.verdict(seed=ctx.seed("maps"))


# ---------------------------------------------------------------------------------------------
# E15. Lemma C.9: the proof's bound chain
# ---------------------------------------------------------------------------------------------


def _t_printed(eps, B, psi):
    return 100 / eps**2 * (psi + 1 / B) ** 2, "T/log T"


def _t_fixed(eps, B, psi):
    return 100 / eps**2 * (B * psi + eps) ** 2 / 1.25, "T/(1+log T)"


@dataclass(frozen=True)
class ReadoutChain:
    """Under the T condition t_cond(eps, B, ||psi||) and the printed m condition, the proof's chain <= const eps."""

    t_cond: Callable[[float, float, float], tuple]
    const: float


def _min_T(target: float, form: str) -> int:
    """Smallest integer T >= 3 with T/log T >= target (form 'T/log T') or T/(1 + log T) >= target."""
    def ok(T):
        return T / (math.log(T) if form == "T/log T" else 1 + math.log(T)) >= target
    lo, hi = 3, 3
    while not ok(hi):
        hi *= 2
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid + 1, hi)
    return lo


@claim(
    id="thesis_ch6.lemma_C.9.chain",
    source=SOURCE,
    label="Lemma C.9",
    entry="E15",
    title="Lemma C.9's proof chain: the printed T condition lacks B^2 and the final sum is (4 + 5 sqrt 2) eps = 11.07 eps, not 7 eps",
    lines=[(4378, 4424)],
    printed=ReadoutChain(_t_printed, 7.0),
    corrected=ReadoutChain(_t_fixed, 4 + 5 * math.sqrt(2)),
    mutants=[Mutant("printed-T-condition", "printed T condition with the corrected constant 4 + 5 sqrt 2", ReadoutChain(_t_printed, 4 + 5 * math.sqrt(2)))],
    expect=Status.ERRATUM,
    rigor=Rigor.FLOAT,
    derived=True,
)
def check_readout_chain(statement: ReadoutChain, p, ctx) -> Verdict:
    """Lemma C.9 (convex training of the readout): the bound chain of its proof, evaluated.

    Statement
    ---------
    eps, delta in (0, 1/2); w* with ||w*|| <= B and L_D(h_{psi,w*}) <= eps.  If ||phi^(1) - psi||_{inf,2} <= eps/B,
    T/log T >= (100/eps^2)(||psi||_{inf,2} + 1/B)^2 and m >= (4 sqrt 2 B ||psi||_{inf,2} + 1)^2 log(2/delta)/eps^2,
    then w.p. >= 1 - 2 delta GD (lambda = eps/B^2, Shamir-Zhang steps) returns h with L_D(h) <= 7 eps.

    Source
    ------
    Thesis (seed 004), App. C.2.2, Lemma C.9 and proof, lines 4378-4424 (with Lemma C.8, lines 4364-4376).

    Checkable form
    --------------
    The proof's chain, term by term, at the boundary of the conditions (smallest admissible T and m):
    L(w_T) <= 2 eps + B ||psi|| sqrt(2 log(2/delta))/sqrt m + lambda B^2/2 + 100 B^2 (||psi|| + eps/B)^2 (1 + log T)/(eps T)
    (Claims 2-3 and Shamir-Zhang), then ||w_T|| <= sqrt(2 L(w_T)/lambda) and Lemma C.8 with radius
    B' = ||w_T||: L_D <= L(w_T) + (2 B' ||psi|| + 1) sqrt(2 log(2/delta))/sqrt m + 2 B' eps/B.  This chain
    value must be <= const * eps on the grid B in {1, 10, 181, 11953} (B_2, B_4 of Lemma C.6),
    ||psi|| in {1, 3, 10}, eps in {0.05, 0.1, 0.25}, delta in {0.01, 0.1}.

    Exactness
    ---------
    float64 evaluation of closed-form terms (relative error ~1e-15); the smallest margin of the corrected
    chain is ~7e-7 (in units of eps, at B = 11953), 10^8 times the rounding error.

    Mutants
    -------
    Keeping the printed T condition with the corrected constant: at B = 181 the optimisation term alone
    is ~B^2 times too large.

    Notes
    -----
    This audits the proof, not the conclusion: the chain is an upper bound, so its failure does not make
    L_D <= 7 eps false, it shows that the proof does not establish it.  Corrected: T/(1 + log T) >=
    100 (B ||psi|| + eps)^2/(1.25 eps^2) (the optimisation term <= 1.25 eps, so L(w_T) <= 4 eps) and the
    constant (4 + sqrt 2 + 4 sqrt 2) = 11.07 (||w_T|| <= 2 sqrt 2 B enters the transfer term, printed 2 B).
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    for B in (1.0, 10.0, 181.0, 11953.0):
        for psi in (1.0, 3.0, 10.0):
            for eps in (0.05, 0.1, 0.25):
                for delta in (0.01, 0.1):
                    target, form = statement.t_cond(eps, B, psi)
                    T = _min_T(target, form)
                    L = math.log(2 / delta)
                    m = math.ceil((4 * math.sqrt(2) * B * psi + 1) ** 2 * L / eps**2)
                    lam = eps / B**2
                    opt = 100 * (psi + eps / B) ** 2 * (1 + math.log(T)) / (lam * T)
                    LwT = 2 * eps + B * psi * math.sqrt(2 * L / m) + lam * B**2 / 2 + opt
                    Bp = math.sqrt(2 * LwT / lam)
                    chain = LwT + (2 * Bp * psi + 1) * math.sqrt(2 * L / m) + 2 * Bp * eps / B
                    ev.add({"B": B, "||psi||": psi, "eps": eps, "delta": delta, "T": T, "m": m, "opt term / eps": opt / eps},
                           chain / eps, statement.const)
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# E14. Lemma C.8
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TransferBound:
    """L_D(h) <= L_S(h) + (2B||psi|| + 1) sqrt(2 log(2/delta))/sqrt(m) + transfer * B ||psi - psi'||."""

    transfer: float


@claim(
    id="thesis_ch6.lemma_C.8",
    source=SOURCE,
    label="Lemma C.8",
    entry="E14",
    title="Generalisation of norm-bounded readouts over psi, transferred to any psi' at cost 2B||psi - psi'||",
    lines=[(4364, 4376)],
    printed=TransferBound(2.0),
    mutants=[Mutant("no-transfer-term", "drop the 2B||psi - psi'|| term", TransferBound(0.0))],
    expect=Status.CONFIRMED,
    rigor=Rigor.STATISTICAL,
    params=[Param("samples", int, 20, 10_000, doc="training samples S drawn"), Param("n", int, 6, 12, doc="cube dimension")],
    tiers={"quick": {"samples": 100, "n": 8}, "full": {"samples": 400, "n": 8}},
)
def check_transfer_bound(statement: TransferBound, p, ctx) -> Verdict:
    """Lemma C.8: uniform convergence for readouts over a fixed feature map, transferred to psi'.

    Statement
    ---------
    Fix psi and draw S ~ D^m.  W.p. >= 1 - delta, for every psi' and every h in H_{psi',B} (linear readouts
    of psi' with ||w|| <= B): L_D(h) <= L_S(h) + (2B||psi||_{inf,2} + 1) sqrt(2 log(2/delta))/sqrt(m)
    + 2B ||psi - psi'||_{inf,2}.

    Source
    ------
    Thesis (seed 004), App. C.2.2, Lemma C.8 and proof, lines 4364-4376.

    Checkable form
    --------------
    The cube {±1}^n, y = chi_S (|S| = 3), psi: 3 fixed random features with entries in [-1/4, 1/4],
    B = 1, m = 128, delta = 0.1.  For each drawn sample (``samples`` draws) two data-dependent choices
    are tested: (i) psi' = psi and the best of 64 random unit readouts on S; (ii) the memorising
    psi' = psi + c y(x) e_1 on the sample points only (c = 2, psi' = psi elsewhere) with w = e_1, which
    fits S (L_S = 0) but not D.  Both sides exact (cube averages); the lower Clopper-Pearson bound of
    the violation frequency must be <= delta.

    Exactness
    ---------
    Statistical (99.9% one-sided), seeded (ctx.rng("samples")); the losses are exact averages in float64.

    Mutants
    -------
    Without the transfer term the memorising psi' violates the bound on almost every sample
    (L_D ~ 0.6 against a generalisation term ~ 0.35).
    """
    ev = Evidence("le", rigor=Rigor.STATISTICAL)
    rng = ctx.rng("samples")
    n, B, m, delta, c = p["n"], 1.0, 128, 0.1, 2.0
    y = chi(0b111, n).astype(np.float64)
    N = y.size
    psi = rng.uniform(-0.25, 0.25, size=(N, 3))
    norm = float(np.max(np.linalg.norm(psi, axis=1)))
    gen = (2 * B * norm + 1) * math.sqrt(2 * math.log(2 / delta)) / math.sqrt(m)
    dirs = rng.normal(size=(64, 3))
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    viol = {"erm": 0, "memorising": 0}
    for _ in range(p["samples"]):
        idx = rng.integers(0, N, size=m)
        # (i) psi' = psi, best random readout on the sample
        marg = (psi @ dirs.T) * y[:, None]  # (N, 64)
        hinge = np.maximum(0.0, 1.0 - marg)
        j = int(np.argmin(hinge[idx].mean(axis=0)))
        viol["erm"] += int(hinge[:, j].mean() > hinge[idx, j].mean() + gen)
        # (ii) memorising psi'
        psi2 = psi.copy()
        psi2[np.unique(idx), 0] += c * y[np.unique(idx)]
        h2 = np.maximum(0.0, 1.0 - psi2[:, 0] * y)
        dist = float(np.max(np.linalg.norm(psi2 - psi, axis=1)))
        viol["memorising"] += int(h2.mean() > h2[idx].mean() + gen + statement.transfer * B * dist)
    for name, v in viol.items():
        ev.add({"h": name, "n": n, "m": m, "B": B, "delta": delta, "gen term": gen, "violations": v, "samples": p["samples"]},
               _cp_lower(v, p["samples"]), delta)
    return ev.verdict(seed=ctx.seed("samples"))
