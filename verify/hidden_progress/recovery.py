"""Recovering the parity from a Fourier gap (E18, Proposition B.7) and the fixed-embedding lower
bound (E19, Theorem 5.6).

Proposition B.7 is split into its three checkable statements: the conclusion (top-k of |g| is S),
the intermediate step of its printed proof (thresholds at gamma/2, which is false), and the
sample-complexity footnote.  Theorem 5.6 is checked as printed (0-1 and hinge loss: false for the
0-1 loss) and in the dimension-free hinge form noted in the catalog.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Callable, Iterator

import numpy as np
from scipy.stats import beta

from kernels import Activation, sign_vectors
from kernels.boolean import wht
from kernels.boolean.population_gradient import population_gradient

from ..registry import Evidence, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE
from .fourier_basics import GapDefinition

CONTRACT_AUDITED = True
"""Every claim of this module meets the verdict contract (second reader, branch ch5b)."""

__all__ = [
    "clopper_pearson",
    "worst_corner",
    "zero_one_inf_scalar",
]

DEF_5_4 = GapDefinition("min", "max")
"""Definition 5.4: min over S^- of |f^(S^-)| minus max over S^+ of |f^(S^+)| (the largest admissible gamma)."""

RELAXED_GAMMA = GapDefinition("max", "max")
"""Gamma_{sigma,k} of App. B.3.1 (max over the relevant coordinates, not min)."""

SHRINK = Fraction(1, 10**9)
"""Noise at the box corners is (gamma/2)(1 - SHRINK): strictly inside the open box of Prop. B.7."""


# ---------------------------------------------------------------------------------------------
# helpers (pure; property-tested in tests/hidden_progress/test_recovery.py)
# ---------------------------------------------------------------------------------------------


def clopper_pearson(failures: int, trials: int, confidence: float) -> tuple[float, float]:
    """One-sided Clopper-Pearson bounds (lower, upper) on a binomial rate, each at ``confidence``.

    P(p >= lower) >= confidence and P(p <= upper) >= confidence (exact binomial inversion via the
    beta quantiles; lower = 0 when failures = 0, upper = 1 when failures = trials).
    """
    if not (isinstance(trials, (int, np.integer)) and trials >= 1):
        raise ValueError(f"argument 'trials' must be an integer >= 1, not {trials!r}")
    if not (isinstance(failures, (int, np.integer)) and 0 <= failures <= trials):
        raise ValueError(f"argument 'failures' must be an integer in [0, trials] = [0, {trials}], not {failures!r}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"argument 'confidence' must lie in (0, 1), not {confidence!r}")
    a = 1.0 - confidence
    lower = 0.0 if failures == 0 else float(beta.ppf(a, failures, trials - failures + 1))
    upper = 1.0 if failures == trials else float(beta.ppf(1.0 - a, failures + 1, trials - failures))
    return lower, upper


def worst_corner(gbar: list[Fraction], relevant: list[bool], radius: Fraction, rank: str = "abs") -> list[Fraction]:
    """The corner e of the box ||e||_inf <= radius that most hurts ranking S first.

    For ``rank="abs"`` every relevant |gbar_i + e_i| is pushed down and every irrelevant one up
    (e_i = -+ radius sign(gbar_i), sign(0) = +1); since |gbar_i| >= radius on S in every use here,
    this corner minimises min_S |g_i| - max_{not S} |g_i| over the whole box.  For ``rank="signed"``
    relevant entries get -radius and irrelevant ones +radius.
    """
    out = []
    for gi, rel in zip(gbar, relevant):
        if rank == "abs":
            s = -1 if gi < 0 else 1
            out.append(-radius * s if rel else radius * s)
        elif rank == "signed":
            out.append(-radius if rel else radius)
        else:
            raise ValueError(f"argument 'rank' must be 'abs' or 'signed', not {rank!r}")
    return out


def zero_one_inf_scalar(psi_sign: np.ndarray, y: np.ndarray, R: Fraction) -> Fraction:
    """inf over |w| <= R (w real) of P[sign(w psi(x)) != y] for a scalar embedding (D = 1), exactly.

    The 0-1 loss is scale invariant, so only w in {-R, 0, R} matter (sign(0) = 0 counts as an error,
    the convention of the catalog); R > 0 is required for w != 0 to be available.
    """
    N = psi_sign.shape[0]
    vals = [Fraction(N, N)]  # w = 0: every prediction is 0, an error
    if R > 0:
        for s in (1, -1):
            vals.append(Fraction(int(np.count_nonzero(s * psi_sign != y)), N))
    return min(vals)


# ---------------------------------------------------------------------------------------------
# E18. Proposition B.7: instances shared by its three claims
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Neuron:
    """h(x) = sigma'(w . x) with its exact spectrum and exact population gradient (units 2^-n)."""

    family: str
    n: int
    k: int
    mask: int
    spec: np.ndarray  # (H h)[T] = 2^n h^(T), int64 (exact WHT of the truth table)
    grad: np.ndarray  # 2^n * E[chi_S x_i h(x)], int64 (population_gradient kernel)
    draw: int

    @property
    def spec_abs(self) -> np.ndarray:
        return np.abs(self.spec)

    @property
    def relevant(self) -> list[bool]:
        return [bool(self.mask >> i & 1) for i in range(self.n)]

    def gbar(self) -> list[Fraction]:
        """The population gradient of the correlation loss, -E[sigma'(w.x) y x_i], exactly."""
        return [Fraction(-int(v), 1 << self.n) for v in self.grad]

    def gap(self, definition: GapDefinition) -> Fraction:
        return Fraction(int(definition(self.spec_abs, self.mask, self.n)), 1 << self.n)

    def plus_max(self) -> Fraction:
        """max over S^+ of |h^(S^+)|."""
        vals = [int(self.spec_abs[self.mask | (1 << i)]) for i in range(self.n) if not self.mask >> i & 1]
        return Fraction(max(vals), 1 << self.n)


_RELU = Activation.relu()
_QUARTIC = Activation.poly([0.0, 0.0, 0.0, 0.0, 0.25])  # sigma(z) = z^4/4, sigma'(z) = z^3


def _exact_int(values: np.ndarray, what: str) -> np.ndarray:
    r = np.rint(values)
    if not np.array_equal(r, values) or np.max(np.abs(r), initial=0) >= 2**53:
        raise AssertionError(f"{what}: expected exact integers below 2^53 (integer-valued sigma', integer sums)")
    return r.astype(np.int64)


def _neuron(family: str, w: np.ndarray, mask: int, k: int, sigma: Activation, draw: int, backend: str) -> _Neuron:
    n = w.shape[0]
    h = sigma.derivative()
    # truth table by the numpy oracle (dense sign vectors), independent of the gradient kernel; the
    # float64 WHT of an integer table with 2^n max|h| < 2^53 is exact
    table = h(sign_vectors(n).astype(np.float64) @ w)
    _exact_int(table, f"table of {family}")
    spec = _exact_int(wht(table, backend=backend), f"spectrum of {family}")
    g = population_gradient(w, 0.0, mask, h, backend=backend).g
    grad = _exact_int(g * float(1 << n), f"population gradient of {family}")
    return _Neuron(family, n, k, mask, spec, grad, draw)


def _prop_b7_neurons(n_max: int, draws: int, rng: np.random.Generator, backend: str) -> Iterator[_Neuron]:
    """The tight LTF instance first (n = 5, all-ones w, S = {0, 1}), then seeded random neurons."""
    yield _neuron("relu, all-ones w (tight)", np.ones(5), 0b11, 2, _RELU, 0, backend)
    for n in range(4, n_max + 1):
        for family in ("relu, sign w", "relu, Gaussian w", "relu, uniform w", "z^4/4, integer w"):
            for k in range(1, min(4, n - 1) + 1):
                for d in range(draws):
                    if family == "relu, sign w":
                        w, sigma = rng.choice(np.array([-1.0, 1.0]), n), _RELU
                    elif family == "relu, Gaussian w":
                        w, sigma = rng.standard_normal(n), _RELU
                    elif family == "relu, uniform w":
                        w, sigma = rng.uniform(-1.0, 1.0, n), _RELU
                    else:
                        w, sigma = rng.choice(np.array([-2.0, -1.0, 1.0, 2.0]), n), _QUARTIC
                    S = rng.choice(n, size=k, replace=False)
                    mask = int(sum(1 << int(i) for i in S))
                    yield _neuron(family, w, mask, k, sigma, d, backend)


@functools.lru_cache(maxsize=4)
def _prop_b7_neuron_list(n_max: int, draws: int, seed: int, backend: str) -> tuple[_Neuron, ...]:
    """All neurons of :func:`_prop_b7_neurons` from the stream ``seed``: statement-independent, built once
    per process and shared by the printed statement and the mutants (nothing downstream modifies them)."""
    return tuple(_prop_b7_neurons(n_max, draws, np.random.default_rng(np.random.SeedSequence(seed)), backend))


_B7_PARAMS = [
    Param("n_max", int, 5, 16, doc="neurons on {±1}^n for n = 4..n_max"),
    Param("draws", int, 1, 200, doc="random neurons per (n, family, k)"),
]
_B7_TIERS = {"quick": {"n_max": 10, "draws": 3}, "full": {"n_max": 14, "draws": 5}}


# ---------------------------------------------------------------------------------------------
# E18 (a). The conclusion of Proposition B.7
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecoveryStatement:
    """'If h has a gamma-gap (by ``gap``) and ||g - gbar||_inf <= radius(gamma), top-k of ``rank``(g) = S'."""

    radius: Callable[[Fraction], Fraction]
    gap: GapDefinition = DEF_5_4
    rank: str = "abs"
    text: str = ""


_B7_PRINTED = RecoveryStatement(radius=lambda g: g / 2 * (1 - SHRINK), text="||g - gbar||_inf < gamma/2")


@claim(
    id="thesis_ch5.prop_B.7",
    source=SOURCE,
    label="Proposition B.7",
    entry="E18",
    title="A gamma-Fourier gap of sigma'(w.x) at S and a gradient estimate within gamma/2 give top-k(|g|) = S",
    lines=[(3319, 3331), (997, 997)],
    printed=_B7_PRINTED,
    mutants=[
        Mutant("radius-gamma", "noise up to gamma instead of gamma/2 (corners at gamma(1 - 1e-9))",
               replace(_B7_PRINTED, radius=lambda g: g * (1 - SHRINK), text="||e|| < gamma")),
        Mutant("radius-just-above", "noise up to (gamma/2)(1 + 1e-9): factor 1 + 1e-9 beyond the sharpness 1 - 1e-9 "
               "of part radius; the tight instance (n = 5, all-ones w, S = {0, 1}) rejects it",
               replace(_B7_PRINTED, radius=lambda g: g / 2 * (1 + SHRINK), text="||e|| <= (gamma/2)(1 + 1e-9)"),
               near_boundary=True, part="radius"),
        Mutant("gap-min-min", "hypothesis: min over S^- minus MIN (not max) over S^+ of the coefficients > 0",
               replace(_B7_PRINTED, gap=GapDefinition("min", "min")), origin="second-reader"),
        Mutant("relaxed-gap", "hypothesis Gamma (max over S, App. B.3.1) > 0 instead of the Definition 5.4 gap",
               replace(_B7_PRINTED, gap=RELAXED_GAMMA)),
        Mutant("signed-top-k", "top-k of g itself instead of |g| (the sign of the gradient matters)",
               replace(_B7_PRINTED, rank="signed")),
    ],
    parts=[
        Part("recovery", "the k indices of largest |g_i(w)| are exactly S"),
        Part("radius", "it suffices that ||g(w) - gbar(w)||_inf < gamma/2", inequality=True),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=_B7_PARAMS,
    tiers=_B7_TIERS,
    uses_backend=True,
)
def check_prop_b7(statement: RecoveryStatement, p, ctx) -> Verdict:
    """Proposition B.7 (Fourier gap implies feature recoverability): the conclusion.

    Statement
    ---------
    Let f(x; w) = sigma(w^T x), l(y, yhat) = -y yhat, and g(w) an estimate of the population gradient
    gbar(w) = E_{D_S}[grad_w l] with ||g(w) - gbar(w)||_inf < gamma/2.  Then for every w such that
    h = sigma'(w^T x) has a gamma-Fourier gap at S (Definition 5.4), the k indices at which g(w) has
    the largest absolute values are exactly S.

    Source
    ------
    Thesis (seed 004), App. B.2.2, Proposition B.7 and its proof, lines 3319-3331; used in the main
    text, line 997.

    Checkable form
    --------------
    Neurons h = sigma'(w.x) over {±1}^n, n = 4..n_max: sigma = ReLU (h = 1[w.x > 0]) with w
    random +-1, Gaussian or uniform, and sigma(z) = z^4/4 (h = (w.x)^3, a smooth activation) with
    integer w; random S of size k = 1..4; first the tight instance n = 5, all-ones w, S = {0, 1}.
    Side 1: the exact spectrum of h (integer WHT of the truth table) gives the largest gamma
    admissible in Definition 5.4 (fourier_basics.GapDefinition).  Instances with gamma <= 0 do not
    meet the hypothesis and are counted, not tested.  Side 2: gbar from the exhaustive
    population-gradient kernel (independent of the WHT).  The noise e is placed at corners of the box
    ||e||_inf <= (gamma/2)(1 - 1e-9): the worst corner (relevant |g_i| pushed down, irrelevant ones
    up; it minimises the margin over the whole box) and two random corners.  Recorded per case:
    min_{i in S} |g_i| - max_{i not in S} |g_i| > 0 (i.e. top-k of |g| is S, with no tie).  Testing
    at the largest admissible gamma covers every smaller gamma (a smaller box).

    Exactness
    ---------
    Exact.  Both h's are integer valued (0/1, and (w.x)^3 with |w_i| <= 2), so the truth tables,
    their float64 WHTs and the kernel's float64 sums are integers below 2^53 (asserted); gbar, gamma,
    the noise and the margin are Fractions.  At the worst corner the margin is exactly
    gamma * 1e-9 (min_S |gbar_i| - max_{not S} |gbar_i| equals the Definition 5.4 gap).

    Mutants
    -------
    radius-gamma and radius-just-above: at the worst corner the margin is gamma(2e-9 - 1) and
    -gamma * 1e-9, negative on every instance with a gap; the tight instance (n = 5, all-ones w,
    S = {0, 1}: |gbar_i| = 3/16 on S, 1/16 off S, gamma = 1/8) fails already at radius
    (gamma/2)(1 + 1e-9).  relaxed-gap: Gamma > 0 admits neurons where only one relevant coordinate
    stands out, and recovery of all of S fails.  signed-top-k: for the all-ones LTF the relevant
    entries of gbar are negative, so the largest signed entries are irrelevant ones.
    Second reader: gap-min-min (min over S^+ in place of max) admits neurons whose largest S^+
    coefficient exceeds the smallest S^- one; at e = 0 an irrelevant |gbar_i| = |h^(S+i)| then beats a
    relevant one, so recovery fails (the check finds such neurons among the random families).

    Notes
    -----
    Sharpness of the part "radius": per instance, the statement's radius divided by the critical radius
    (min_S |gbar_i| - max_{not S} |gbar_i|)/2 at which the worst corner ties.  Since |gbar_i| =
    |h^(S xor i)|, the critical radius is gamma/2 on every instance: the ratio is 1 - 1e-9 everywhere,
    the bound is exactly tight (no search needed beyond the worst corner, which is extremal over the box).
    """
    ev = Evidence("gt", rigor=Rigor.EXACT)
    pick = ctx.rng("random-corners")
    stats = {"instances": 0, "with gap > 0 (tested)": 0, "without gap (hypothesis fails)": 0}
    per_family: dict[str, int] = {}
    for nr in _prop_b7_neuron_list(p["n_max"], p["draws"], ctx.seed("neurons"), ctx.backend):  # cached
        stats["instances"] += 1
        gamma = nr.gap(statement.gap)
        if gamma <= 0:
            stats["without gap (hypothesis fails)"] += 1
            continue
        stats["with gap > 0 (tested)"] += 1
        per_family[nr.family] = per_family.get(nr.family, 0) + 1
        r = statement.radius(gamma)
        gbar = nr.gbar()
        rel = nr.relevant
        corners = [("worst", worst_corner(gbar, rel, r, statement.rank))]
        for j in range(2):
            signs = pick.choice(np.array([-1, 1]), nr.n)
            corners.append((f"random {j}", [r * int(s) for s in signs]))
        # sharpness of the part "radius": the statement's radius over the critical radius at which the
        # worst corner first ties (min_S |gbar_i| - max_{not S} |gbar_i|) / 2; equal to gamma/2 here
        true_gap = min(abs(a) for a, t in zip(gbar, rel) if t) - max(abs(a) for a, t in zip(gbar, rel) if not t)
        if true_gap > 0:
            ev.sharpness({"family": nr.family, "n": nr.n, "k": nr.k, "S": nr.mask, "draw": nr.draw, "gamma": gamma},
                         r / (true_gap / 2), part="radius")
        for name, e in corners:
            g = [a + b for a, b in zip(gbar, e)]
            score = [abs(v) for v in g] if statement.rank == "abs" else g
            lhs = min(s for s, t in zip(score, rel) if t) - max(s for s, t in zip(score, rel) if not t)
            ev.add({"family": nr.family, "n": nr.n, "k": nr.k, "S": nr.mask, "draw": nr.draw, "corner": name,
                    "gamma": gamma, "radius": r}, lhs, 0)
    ev.details["instances"] = stats
    ev.details["tested instances per family"] = per_family
    return ev.verdict(backend=ctx.backend)


# ---------------------------------------------------------------------------------------------
# E18 (b). The intermediate step of the printed proof
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ProofStepStatement:
    """'|g_i| > t for i in S and |g_i| < t for i not in S', t = threshold(gamma, max_{S+}|h^(S+)|);
    with gbar_i = grad_sign * h^(S xor {i})."""

    threshold: Callable[[Fraction, Fraction], Fraction]
    grad_sign: int
    text: str = ""
    #: True: check Proposition B.7's conclusion itself (top-k(|g|) = S at e = 0 and the worst corner of the
    #: printed box ||e|| < gamma/2) instead of the threshold step; the statement of a proof-gap
    conclusion: bool = False
    radius: Callable[[Fraction], Fraction] = staticmethod(lambda g: g / 2 * (1 - SHRINK))


_STEP_PRINTED = ProofStepStatement(threshold=lambda g, m: g / 2, grad_sign=+1, text="t = gamma/2; gbar_i = +h^(S xor i)")
_STEP_STATEMENT = ProofStepStatement(threshold=lambda g, m: g / 2, grad_sign=-1, conclusion=True,
                                     text="Prop. B.7's conclusion: top-k(|g|) = S whenever ||g - gbar|| < gamma/2")
_STEP_CORRECTED = ProofStepStatement(threshold=lambda g, m: m + g / 2, grad_sign=-1,
                                     text="t = max_{S+} |h^(S+)| + gamma/2; gbar_i = -h^(S xor i)")


@claim(
    id="thesis_ch5.prop_B.7.proof_step",
    source=SOURCE,
    label="Proposition B.7 (proof step)",
    entry="E18",
    title="Proof of Prop. B.7: |g_i| > gamma/2 on S and < gamma/2 off S (false unless h^(S+) = 0; the proposition holds)",
    lines=[(3325, 3331)],
    printed=_STEP_STATEMENT,
    proof_step=_STEP_PRINTED,
    corrected=_STEP_CORRECTED,
    parts=[Part("recovery", "Prop. B.7: the k indices of largest |g_i| are exactly S when ||g - gbar||_inf < gamma/2")],
    severity=Severity.CONSTANT,
    mutants=[
        Mutant("conclusion-radius-just-above", "the conclusion with noise up to (gamma/2)(1 + 1e-9)",
               replace(_STEP_STATEMENT, radius=lambda g: g / 2 * (1 + SHRINK)), origin="second-reader"),
        Mutant("threshold-plus-gamma", "t = max|h^(S+)| + gamma (instead of + gamma/2)",
               replace(_STEP_CORRECTED, threshold=lambda g, m: m + g, text="t = max|h^(S+)| + gamma")),
        Mutant("gradient-sign-dropped", "gbar_i = +h^(S xor {i}) (the printed sign) with the corrected threshold",
               replace(_STEP_CORRECTED, grad_sign=+1)),
    ],
    expect=Status.PROOF_GAP,
    rigor=Rigor.EXACT,
    params=_B7_PARAMS,
    tiers=_B7_TIERS,
    uses_backend=True,
)
def check_prop_b7_proof_step(statement: ProofStepStatement, p, ctx) -> Verdict:
    """The intermediate claim of the printed proof of Proposition B.7.

    Statement
    ---------
    In the proof: [gbar(w)]_i = -E[sigma'(w^T x) y x_i] = h^(S minus {i}) for i in S and
    h^(S cup {i}) for i not in S (the minus sign is dropped between the two displays); "then, it
    holds that for all i in S we have |g_i| > gamma/2 and for all i not in S we have |g_i| < gamma/2"
    whenever ||g - gbar||_inf < gamma/2 and h has a gamma-Fourier gap at S.

    Hypotheses
    ----------
    As in Proposition B.7.  The printed threshold gamma/2 is correct only when h^(S+) = 0 for every
    S+; the corrected step uses the comparison |g_i| > |h^(S-)| - gamma/2 >= max|h^(S+)| + gamma/2
    > |g_i'| (i in S, i' not in S), i.e. the threshold t = max_{S+} |h^(S+)| + gamma/2.

    Source
    ------
    Thesis (seed 004), App. B.2.2, proof of Proposition B.7, lines 3325-3331.

    Checkable form
    --------------
    The neuron families of thesis_ch5.prop_B.7 (own seeded draws), with gamma the Definition 5.4
    gap (> 0).  Per instance, three cases: the threshold claim at e = 0 and at the worst corner of
    the box ||e|| <= (gamma/2)(1 - 1e-9), each recorded as min(min_S |g_i| - t, t - max_{not S} |g_i|)
    > 0; then the gradient identity: the kernel's gbar_i against grad_sign * h^(S xor {i}) read off
    the exact (signed) WHT spectrum, for all i.  The tight instance comes first, so the witness is
    its threshold case at e = 0.

    Exactness
    ---------
    Exact (integer spectra and kernel sums below 2^53, Fractions; see thesis_ch5.prop_B.7).

    Proof-gap model (verdict contract): printed = Proposition B.7's conclusion, checked by the same
    function on the same neurons (it holds); proof_step = the printed threshold step (it fails, witness
    below); corrected = the threshold max|h^(S+)| + gamma/2 with the sign restored (it holds).

    Correction
    ----------
    Compare against t = max_{S+} |h^(S+)| + gamma/2, not gamma/2: |g_i| > t on S and < t off S; and
    gbar_i = -h^(S xor {i}) (the minus sign is lost between the displays).  The proposition stands.

    Mutants
    -------
    conclusion-radius-just-above (second reader): the conclusion with the box widened to
    (gamma/2)(1 + 1e-9) fails at the worst corner of the tight instance (margin -gamma 1e-9).
    threshold-plus-gamma: at the worst corner min_S |g_i| = max|h^(S+)| + gamma/2 + gamma 1e-9/2 is
    below t.  gradient-sign-dropped: gbar_i = -h^(S xor i) differs from +h^(S xor i) wherever the
    coefficient is non-zero (for the all-ones LTF, h^({1}) = 3/16).

    Notes
    -----
    Witness (catalog E18): h = 1[x_1 + ... + x_5 > 0] (all-ones w, n = 5), S = {0, 1}:
    |h^(S-)| = xi_1/2 = 3/16, |h^(S+)| = |xi_3|/2 = 1/16, gamma = 1/8.  At e = 0 (g = gbar, an
    admissible estimate) every irrelevant |g_i| = 1/16 = gamma/2, not < gamma/2; at the worst corner
    |g_i| = 1/16 + (1/16)(1 - 1e-9) > gamma/2.  The printed step does hold on the instances with
    h^(S+) = 0 (counted in the details: (w.x)^3 at k = 4 has no degree-5 part).  The printed
    inequality "h^(S cup {i}) <= h^(S cup {i}) - gamma" is garbled; the check uses Definition 5.4.
    """
    ev = Evidence("gt", rigor=Rigor.EXACT)
    counts = {"tested": 0, "with h^(S+) = 0": 0, "threshold holds where h^(S+) = 0": 0}
    # the stream ctx.rng("neurons"), seeded per claim id: same families and sizes as thesis_ch5.prop_B.7, other
    # draws; statement-independent, so built once per process (cached) and shared by the statements and mutants
    for nr in _prop_b7_neuron_list(p["n_max"], p["draws"], ctx.seed("neurons"), ctx.backend):
        gamma = nr.gap(DEF_5_4)
        if gamma <= 0:
            continue
        counts["tested"] += 1
        gbar = nr.gbar()
        rel = nr.relevant
        m = nr.plus_max()
        t = statement.threshold(gamma, m)
        r = gamma / 2 * (1 - SHRINK)
        base = {"family": nr.family, "n": nr.n, "k": nr.k, "S": nr.mask, "draw": nr.draw, "gamma": gamma, "threshold": t}
        if statement.conclusion:
            for name, e in (("e = 0", [Fraction(0)] * nr.n), ("worst corner", worst_corner(gbar, rel, statement.radius(gamma)))):
                g = [a + b for a, b in zip(gbar, e)]
                ev.add(dict(base, threshold="none", part=f"conclusion top-k(|g|) = S, {name}"),
                       min(abs(v) for v, q in zip(g, rel) if q) - max(abs(v) for v, q in zip(g, rel) if not q), 0)
            continue
        ok_all = True
        for name, e in (("e = 0", [Fraction(0)] * nr.n), ("worst corner", worst_corner(gbar, rel, r))):
            g = [a + b for a, b in zip(gbar, e)]
            inside = min(abs(v) for v, q in zip(g, rel) if q) - t
            outside = t - max(abs(v) for v, q in zip(g, rel) if not q)
            ok_all &= ev.add(dict(base, part=f"threshold, {name}"), min(inside, outside), 0)
        # the gradient identity gbar_i = grad_sign * h^(S xor {i}): kernel sums against the WHT spectrum
        coef = [Fraction(statement.grad_sign * int(nr.spec[nr.mask ^ (1 << i)]), 1 << nr.n) for i in range(nr.n)]
        bad = [i for i in range(nr.n) if gbar[i] != coef[i]]
        i0 = bad[0] if bad else 0
        ev.add(dict(base, part="gradient identity", i=i0, mismatches=len(bad)), gbar[i0], coef[i0], relation="eq")
        if m == 0:
            counts["with h^(S+) = 0"] += 1
            counts["threshold holds where h^(S+) = 0"] += int(ok_all)
    ev.details["instances"] = counts
    return ev.verdict(backend=ctx.backend)
