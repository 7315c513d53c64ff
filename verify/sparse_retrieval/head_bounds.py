"""Few attention heads cannot retrieve q tokens: Proposition 3 (E07), Proposition 21 (E08), Lemma 40 (E09).

The statements of Propositions 3 and 21 are rebuilt from their proofs ([R] in the catalog: the OCR lost the
displays; normalisation from lines 1098-1101 and 1171-1177).  Law: d-dimensional tokens x_j ~ N(0, I_d) for
j <= N/2 and x_j = 0 for j > N/2; t_i = (1..q) for i > N/2; y_i = (1/sqrt(q d)) sum_l (||x_{t_il}||^2 - d).

For i > N/2 the query token is 0, so with block-diagonal W_QK the attention weights are deterministic and each
head returns sum_j alpha_ij x_j: the readout sees x only through linear functionals V x, and the smallest risk
of ANY readout is E Var(||x_{1:q}||^2 | V x) / (q d) (kernels.constructions.retrieval_constructions.quadratic_readout_risk,
which uses Lemma 40; Lemma 40 itself is checked exactly by sympy in E09).  Instances: random block-diagonal
query-key matrices, the hard-attention H-head construction (tight for Proposition 21), and heads with
data-encoding cross terms that read the tokens off the attention weights (the dropped-hypothesis witness).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import sqrt

import numpy as np
import sympy as sp

from kernels.sequence.qstr import encode_transformer
from kernels.constructions.retrieval_constructions import (
    attention_heads,
    quadratic_readout_risk,
    quadratic_readout_risk_mc,
)

from ..registry import Evidence, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True


def _alpha_rows(rng, N, q, H, d, scale):
    """Attention weights (H, N) of random block-diagonal heads at one query position i > N/2."""
    d_e = 6
    codes = rng.choice([-1.0, 1.0], size=(N, d_e)) / sqrt(d_e)
    t = np.tile(np.arange(q), (1, N, 1))
    Z = encode_transformer(np.zeros((1, N, d)), t, codes)[0]
    E = Z[:, d:]
    rows = []
    for _ in range(H):
        We = rng.standard_normal((E.shape[1], E.shape[1])) * scale
        s = E[N - 1] @ We @ E.T
        s = np.exp(s - s.max())
        rows.append(s / s.sum())
    return np.array(rows)


def _risk_from_alpha(alpha: np.ndarray, N: int, q: int, d: int, extra_rows=None) -> float:
    """(1/N) sum_{i > N/2} min-risk at i, with the same heads at every i > N/2 (positions <= N/2 have y = 0)."""
    half = N // 2
    V = np.kron(alpha[:, :half], np.eye(d))
    if extra_rows is not None:
        V = np.vstack([V, extra_rows])
    sel = np.arange(q * d)
    per = quadratic_readout_risk(V, sel) / (q * d)
    return (N - half) / N * per


def _cross_term_decoder_risk(rng, q: int, N: int, A: float, w: float, samples: int) -> float:
    """One head with a data<->encoding cross term (d = 1): score_ij = A 1[j in t_i] + w x_j.  The positional
    part of the value returns alpha_ij, from which x_j = (log alpha_ij - log alpha_iN - A 1[j in t_i]) / w."""
    d, d_e = 1, N
    codes = np.eye(N)
    c = sqrt(d / q)
    D = d + (q + 1) * d_e
    W = np.zeros((1, D, D))
    for l in range(1, q + 1):
        for k in range(d_e):
            W[0, d + l * d_e + k, d + k] = A / c**2
    W[0, d + 1 * d_e + 0, 0] = w / c  # query's omega_{t_i1} = e_0 coordinate -> key's token
    half = N // 2
    x = np.zeros((samples, N, d))
    x[:, :half, :] = rng.standard_normal((samples, half, d))
    t = np.zeros((samples, N, q), dtype=np.int64)
    t[:, half:, :] = np.arange(q)
    t[:, :half, :] = N - 1  # y_i = 0 for i <= N/2
    Z = encode_transformer(x, t, codes)
    out = attention_heads(Z, W)[:, :, 0, :]
    y = ((x[:, :, 0][:, t[0, half, :]] ** 2).sum(1) - q) / sqrt(q * d)
    alpha = out[:, half:, d: d + d_e] / c  # (samples, N - half, N)
    logs = np.log(alpha)
    count = np.zeros(N)
    count[:q] = 1
    xs = (logs - logs[:, :, N - 1: N] - A * count) / w
    yhat = ((xs[:, :, :q] ** 2).sum(2) - q) / sqrt(q * d)
    return float(((yhat - y[:, None]) ** 2).sum(1).mean() / N)


@dataclass(frozen=True)
class HeadBound:
    """risk >= 1 - factor (q_in_num q + d_num d) H / ((q + q_offset) d^d_den); ``cross_terms``: whether data<->encoding
    query-key entries are allowed (False: the block-diagonal hypothesis of Proposition 21)."""

    name: str
    cross_terms: bool
    q_in_num: int = 1
    d_num: int = 1
    d_den: int = 1
    factor: float = 1.0
    q_offset: int = 0

    def bound(self, H, q, d):
        return 1 - self.factor * (self.q_in_num * q + self.d_num * d) * H / ((q + self.q_offset) * d**self.d_den)


_PROP3 = HeadBound("1 - (q+d)H/(qd)", True)
_PROP21 = HeadBound("1 - H/q", False, q_in_num=0)  # d H/(q d) = H/q


def _check_heads(st: HeadBound, p, ctx, dims) -> Verdict:
    ev = Evidence("ge", rigor=Rigor.FLOAT)
    rng = ctx.rng("heads")
    tol = 1e-9
    for d in dims:
        for q in (2, 3, 4):
            N = 2 * q + 2
            for H in range(1, q):
                b = st.bound(H, q, d)
                hard = np.zeros((H, N))
                hard[np.arange(H), np.arange(H)] = 1.0
                ev.add({"d": d, "q": q, "H": H, "N": N, "heads": "hard attention on tokens 1..H"},
                       _risk_from_alpha(hard, N, q, d) + tol, b, part="risk_lower_bound")
                for scale in (0.3, 3.0, 30.0):
                    al = _alpha_rows(rng, N, q, H, d, scale)
                    ev.add({"d": d, "q": q, "H": H, "N": N, "heads": f"random block-diagonal, scale {scale}"},
                           _risk_from_alpha(al, N, q, d) + tol, b, part="risk_lower_bound")
                if st.cross_terms:
                    # each head: cross term reading <v, x_j> off the weights for j <= q, plus sum_j alpha_j x_j
                    rows = []
                    al = np.zeros((H, N))
                    for h in range(H):
                        v = rng.standard_normal(d)
                        v /= np.linalg.norm(v)
                        for j in range(q):
                            r = np.zeros(N // 2 * d)
                            r[j * d: (j + 1) * d] = v
                            rows.append(r)
                        al[h, :q] = 1 / q
                    ev.add({"d": d, "q": q, "H": H, "N": N, "heads": "cross terms: <v,x_j> for j<=q plus mean"},
                           _risk_from_alpha(al, N, q, d, np.array(rows)) + tol, b, part="risk_lower_bound")
    if st.cross_terms:
        r = _cross_term_decoder_risk(ctx.rng("decoder"), 3, 8, 40.0, 1.0, p["mc"])
        ev.add({"d": 1, "q": 3, "H": 1, "N": 8, "heads": "executed one-head decoder with cross terms (MC)"},
               r + tol, st.bound(1, 3, 1), part="risk_lower_bound")
    # the quadratic-readout formula against Monte Carlo (one instance)
    al = _alpha_rows(rng, 10, 4, 2, 1, 3.0)
    V = al[:, :5]
    exact = quadratic_readout_risk(V, np.arange(4))
    mc, se = quadratic_readout_risk_mc(ctx.rng("mc"), V, np.arange(4), p["mc"])
    ev.add({"part": "risk_formula: Lemma-40 risk vs Monte Carlo", "q": 4, "H": 2}, mc, exact, relation="approx", tol=5 * se)
    return ev.verdict(seed=ctx.seed("heads"))


@claim(
    id="seed002.proposition_21",
    source=SOURCE,
    label="Proposition 21",
    entry="E08",
    title="With block-diagonal W_QK, H < q heads have risk >= 1 - H/q even with infinite data (d = 1)",
    lines=[(1053, 1117)],
    printed=_PROP21,
    parts=[
        Part("risk_lower_bound", "d = 1, block-diagonal W_QK^(h), H < q: (1/N) E||y - y_hat||^2 >= 1 - H/q for every readout",
             inequality=True),
        Part("risk_formula", "proof: the minimum risk of any readout is E Var(||x_{1:q}||^2 | V x)/q (Lemma 40)"),
    ],
    mutants=[
        Mutant("bound-1-H/(q+1)", "a larger bound 1 - H/(q+1)", replace(_PROP21, name="1 - H/(q+1)", q_offset=1)),
        Mutant("no-block-diagonal", "the same bound without the block-diagonal hypothesis (cross terms allowed)",
               replace(_PROP21, name="1 - H/q, any W_QK", cross_terms=True)),
        Mutant("factor-0.99", "1 - 0.99 H/q: hard attention on H tokens has risk exactly 1 - H/q (sharpness 1)",
               replace(_PROP21, name="1 - 0.99 H/q", factor=0.99), near_boundary=True, part="risk_lower_bound",
               origin="second-reader"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("mc", int, 1000, 10**7)],
    tiers={"quick": {"mc": 4000}, "full": {"mc": 40000}},
)
def check_proposition_21(st: HeadBound, p, ctx) -> Verdict:
    """Proposition 21: H >= q heads are necessary when W_QK has no data-encoding cross terms.

    Statement
    ---------
    [R: display rebuilt from the proof, lines 1070-1117.]  d = 1, y_i = (1/sqrt q) sum_l (x_{t_il}^2 - 1),
    x_j ~ N(0, 1) for j <= N/2 and x_j = 0 for j > N/2, W_QK^(h) block-diagonal (no data<->encoding entries).
    There is a law of (t_i) such that for every Theta_TR: (1/N) E||y - y_hat||^2 >= 1 - H/q.

    Source
    ------
    Seed 002, Proposition 21, lines 1053-1068; proof lines 1070-1117.

    Checkable form
    --------------
    For q in {2, 3, 4}, N = 2q + 2, H < q: the minimum risk over ALL readouts of the attention outputs, computed
    as E Var(||x_{1:q}||^2 | V x)/q via Lemma 40 for (a) hard attention on tokens 1..H (the tight case: exactly
    1 - H/q), (b) random block-diagonal heads at three scales; compared with the bound.  The risk formula is
    checked against Monte Carlo of the conditional-mean readout on one instance (5 standard errors).

    Exactness
    ---------
    float64 linear algebra on matrices of size <= 5; errors < 1e-12, allowance 1e-9 added to the risk.  The
    one Monte Carlo case is statistical (5 SE).

    Mutants
    -------
    bound-1-H/(q+1): the hard-attention construction has risk 1 - H/q below it.  no-block-diagonal: a single
    head with cross terms reads x_1..x_q off its attention weights (executed; risk ~ 1e-28 < 2/3 at q = 3).
    factor-0.99: hard attention on tokens 1..H leaves q - H tokens unseen, risk exactly 1 - H/q.

    Notes
    -----
    Sharpness of risk_lower_bound: 1 (hard attention on H tokens, the proof's tight case; built, not searched).
    """
    return _check_heads(st, p, ctx, (1,))


@claim(
    id="seed002.proposition_3",
    source=SOURCE,
    label="Proposition 3",
    entry="E07",
    title="Any H-head single-layer transformer has risk >= 1 - (q+d)H/(q d) on the Proposition 3 law",
    lines=[(324, 341), (1119, 1205)],
    printed=_PROP3,
    parts=[
        Part("risk_lower_bound", "there is a law of (t_i) such that for any Theta_TR with H heads: (1/N) E||y - y_hat^TR||^2 "
             ">= 1 - (q + d) H/(q d)", inequality=True),
        Part("risk_formula", "proof: the minimum risk of any readout of H (q + d) linear functionals is E Var(.|V x)/(q d)"),
    ],
    mutants=[
        Mutant("prop21-bound-any-W", "Proposition 21's 1 - H/q claimed for arbitrary W_QK",
               replace(_PROP3, name="1 - H/q, any W", q_in_num=0)),
        Mutant("half-count", "a larger bound 1 - (q+d)H/(2qd)", replace(_PROP3, name="1 - (q+d)H/(2qd)", factor=0.5)),
        Mutant("factor-0.87", "1 - 0.87 (q+d)H/(qd) = 0.565 at d = q = 4, H = 1, where the cross-term heads leave "
               "risk 0.5625 (sharpness 0.889 = 0.5/0.5625)", replace(_PROP3, name="1 - 0.87 (q+d)H/(qd)", factor=0.87), near_boundary=True, part="risk_lower_bound",
               origin="second-reader"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("mc", int, 1000, 10**7)],
    tiers={"quick": {"mc": 4000}, "full": {"mc": 40000}},
)
def check_proposition_3(st: HeadBound, p, ctx) -> Verdict:
    """Proposition 3: few heads cannot approximate qSTR, for any query-key matrices.

    Statement
    ---------
    [R: normalisation from lines 1098-1101, 1171-1177.]  y_i = (1/sqrt(q d)) sum_l (||x_{t_il}||^2 - E||.||^2),
    x_j ~ N(0, I_d) for j <= N/2, x_j = 0 for j > N/2.  There is a law of (t_i) such that for any Theta_TR,
    (1/N) E||y - y_hat^TR||^2 >= 1 - (q + d) H / (q d).

    Source
    ------
    Seed 002, Proposition 3, lines 324-341; proof lines 1119-1205.

    Checkable form
    --------------
    The proof conditions on H (q + d) linear functionals of x_{1:q}.  Instances (d in {1, 2, 4}, q in
    {2, 3, 4}, N = 2q + 2, H < q), each with the exact minimum risk over all readouts (Lemma 40): hard
    attention on H tokens; random block-diagonal heads; heads with cross terms that expose q functionals
    <v, x_j> plus the d-dimensional mean (rank q + d per head: the proof's count, nearly tight); and the executed
    one-head decoder of E08 (d = 1, q = 3) by Monte Carlo.  Each risk is compared with the bound.

    Exactness
    ---------
    float64, small matrices, allowance 1e-9; Monte Carlo cases statistical (risk ~ 1e-28 vs a negative bound,
    or 5 SE for the formula check).

    Mutants
    -------
    prop21-bound-any-W: the executed cross-term decoder has risk ~ 0 < 1 - 1/3.  half-count: hard attention has
    risk 1 - H/q, below 1 - (q+d)H/(2qd) for d >= 2 (e.g. d = 4, q = 4, H = 1: 0.75 < 0.84).
    factor-0.87: the cross-term instance at d = q = 4, H = 1 has exact minimum risk 0.5625 < 0.565.

    Notes
    -----
    Sharpness of risk_lower_bound (rhs/lhs): 0.889 at d = q = 4, H = 1 (cross-term heads: q functionals <v, x_j>
    plus the d-dimensional mean, q + d functionals per head as in the proof's count; bound 0.5, risk 0.5625).
    Built from the proof's count, not searched; hard attention gives 1 - H/q, further from the bound for d >= 2.
    """
    return _check_heads(st, p, ctx, (1, 2, 4))


# ---------------------------------------------------------------------------------------------
# E09. Lemma 40
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class QuadVariance:
    c_trace: int = 2
    c_mean: int = 4


@claim(
    id="seed002.lemma_40",
    source=SOURCE,
    label="Lemma 40",
    entry="E09",
    title="x ~ N(mu, Sigma): Var(||x||^2) = 2 tr(Sigma^T Sigma) + 4 mu^T Sigma mu",
    lines=[(2413, 2416)],
    printed=QuadVariance(),
    parts=[Part("variance_formula", "x ~ N(mu, Sigma): Var(||x||^2) = 2 tr(Sigma^T Sigma) + 4 mu^T Sigma mu")],
    mutants=[Mutant("mean-coefficient-2", "2 mu^T Sigma mu instead of 4", QuadVariance(c_mean=2)),
             Mutant("trace-coefficient-1", "tr(Sigma^2) instead of 2 tr(Sigma^2)", QuadVariance(c_trace=1))],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[Param("instances", int, 1, 200)],
    tiers={"quick": {"instances": 3}, "full": {"instances": 12}},
)
def check_lemma_40(st: QuadVariance, p, ctx) -> Verdict:
    """Lemma 40: variance of a Gaussian quadratic.

    Statement
    ---------
    If x ~ N(mu, Sigma) then Var(||x||_2^2) = 2 tr(Sigma^T Sigma) + 4 mu^T Sigma mu.

    Source
    ------
    Seed 002, Lemma 40, lines 2413-2416 (used in the proofs of Propositions 3 and 21).

    Checkable form
    --------------
    Exact moments from the moment generating function M(s) = exp(s^T mu + s^T Sigma s / 2): E||x||^2 and
    E||x||^4 are derivatives of M at 0 (sympy, rational mu and Sigma = B B^T with small integer B, d in
    {1, 2, 3}); Var = E||x||^4 - (E||x||^2)^2 is compared with the formula by exact equality.

    Exactness
    ---------
    Exact rational arithmetic (sympy Rational), compared with ==.

    Mutants
    -------
    mean-coefficient-2: d = 1, mu = 1, Sigma = 1 gives 6 vs 4.  trace-coefficient-1: fails for every Sigma != 0.
    """
    from fractions import Fraction

    ev = Evidence("eq", rigor=Rigor.EXACT)
    for d, Sig, mu, var in _lemma_40_instances(ctx, p["instances"]):
        formula = st.c_trace * (Sig.T * Sig).trace() + st.c_mean * (mu.T * Sig * mu)[0]
        ev.add({"d": d, "Sigma": str(Sig.tolist()), "mu": str(list(mu))}, Fraction(str(var)), Fraction(str(sp.nsimplify(formula))))
    return ev.verdict(seed=ctx.seed("lemma40"))


_L40_CACHE: dict = {}


def _lemma_40_instances(ctx, instances: int) -> list:
    """The instances (d, Sigma, mu, exact Var ||x||^2 from the MGF) drawn from the stream ctx.rng("lemma40").

    The stream and the moments do not depend on the statement tested, so they are cached across the printed
    statement and the mutants (the same sympy calls on the same draws, hence the same exact values); the
    statement only enters through the formula it is compared with."""
    key = (ctx.claim_id, ctx.seed("lemma40"), instances)
    if key in _L40_CACHE:
        return _L40_CACHE[key]
    rng = ctx.rng("lemma40")
    out = []
    for k in range(instances):
        d = 1 + k % 3
        B = sp.Matrix(rng.integers(-2, 3, size=(d, d)).tolist())
        Sig = B * B.T / 2
        mu = sp.Matrix([sp.Rational(int(v), 2) for v in rng.integers(-3, 4, size=d)])
        if k == 0:
            Sig, mu = sp.Matrix([[1]]), sp.Matrix([1])
        s = sp.symbols(f"s0:{d}")
        sv = sp.Matrix(s)
        M = sp.exp((sv.T * mu)[0] + (sv.T * Sig * sv)[0] / 2)
        zero = {si: 0 for si in s}
        m2 = sum(sp.diff(M, si, 2) for si in s).subs(zero)
        m4 = sum(sp.diff(M, si, 2, sj, 2) if si != sj else sp.diff(M, si, 4) for si in s for sj in s).subs(zero)
        out.append((d, Sig, mu, sp.nsimplify(sp.expand(m4 - m2**2))))
    _L40_CACHE[key] = out
    return out
