"""The data model and the architecture of seed 002: Definition 2 (E01), Assumptions 1-3 (E02, E03, E05),
the risks (E04) and the single-layer multi-head transformer (E06).

The sampler and encodings are kernels.qstr; the attention layer is kernels.retrieval_constructions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import ceil, comb, floor, log, pi, sqrt

import numpy as np
from scipy.special import gammaln

from kernels.qstr import (
    encode_transformer,
    gaussian_norm_moment,
    pair_overlap_tail,
    rademacher_codes,
    sample_qstr,
)
from kernels.retrieval_constructions import attention_heads, two_layer

from ..registry import Evidence, Mutant, Param, Rigor, Status, Verdict, claim
from . import SOURCE

# ---------------------------------------------------------------------------------------------
# E01. Definition 2
# ---------------------------------------------------------------------------------------------


def _sampler_no_self(rng, n, N, d, q=1, *, simple=False, **kw):
    b = sample_qstr(rng, n, N, d, q, simple=simple, **kw)
    i = np.arange(N)[None, :, None]
    b.t = np.where(b.t == i, (b.t + 1) % N, b.t)
    sel = np.take_along_axis(b.x[:, :, None, :], b.t.reshape(n, N * q)[:, :, None, None], axis=1).reshape(n, N, q, d)
    b.y = np.einsum("anld,ld->an", sel, b.u)  # labels consistent with the modified indices
    return b


def _sampler_resample_simple(rng, n, N, d, q=1, *, simple=False, **kw):
    return sample_qstr(rng, n, N, d, q, simple=False, **kw)


@dataclass(frozen=True)
class Sampler:
    name: str
    draw: object


@claim(
    id="seed002.definition_2",
    source=SOURCE,
    label="Definition 2",
    entry="E01",
    title="qSTR sampler: y_i = g(x_{t_i1..t_iq}), uniform tuples, shared tuple in simple-qSTR, Var y_i = 1",
    lines=[(150, 170), (443, 445)],
    printed=Sampler("kernels.qstr.sample_qstr", sample_qstr),
    mutants=[Mutant("no-self-index", "a sampler that never draws t_i = i", Sampler("no-self", _sampler_no_self)),
             Mutant("simple-resampled", "simple mode drawing a tuple per position", Sampler("resampled", _sampler_resample_simple))],
    expect=Status.CONFIRMED,
    rigor=Rigor.STATISTICAL,
    params=[Param("n", int, 100, 10**7)],
    tiers={"quick": {"n": 20000}, "full": {"n": 200000}},
)
def check_definition_2(st: Sampler, p, ctx) -> Verdict:
    """Definition 2: q-sparse token regression (qSTR) and simple-qSTR, as sampled.

    Statement
    ---------
    p = (x_1..x_N; t_1..t_N), t_i in [N]^q, y_i = g(x_{t_i1}, ..., x_{t_iq}); simple-qSTR: t_i = t for all i.
    The experiments' law (lines 443-445, 559-561): x_j iid N(0, I_d), t_i iid uniform on [N] (t_i = i allowed),
    g(x) = <u, x>, u on the unit sphere, so Var(y_i) = 1.

    Source
    ------
    Seed 002, Definition 2, lines 150-170; sampling law lines 443-445.

    Checkable form
    --------------
    For the sampler under test: (a) y_i equals <u, x_{t_i}> recomputed by an explicit loop (exact float
    equality of the same products); (b) the frequency of t_i = k for every k (including k = i) matches 1/N
    (chi-square statistic below the 99.9% quantile); (c) in simple mode all t_i of a prompt are equal;
    (d) the sample mean of y_i^2 is within 5 standard errors of q + (1/N) sum_{l != l'} <u_l, u_l'>
    (= 1 for q = 1; repeated indices correlate the summands for q > 1).

    Exactness
    ---------
    (a), (c) exact; (b), (d) statistical with the stated quantiles (seeded).

    Mutants
    -------
    no-self-index: t_i = i never occurs (frequency 0 vs 1/N).  simple-resampled: tuples differ within a prompt.
    """
    from scipy.stats import chi2

    ev = Evidence("true", rigor=Rigor.STATISTICAL)
    rng = ctx.rng("sampler")
    for N, d, q in ((4, 3, 1), (7, 2, 1), (5, 2, 2)):
        b = st.draw(rng, p["n"] // N, N, d, q)
        n = b.x.shape[0]
        y_loop = np.array([[sum(float(b.x[a, b.t[a, i, l]] @ b.u[l]) for l in range(q)) for i in range(N)] for a in range(min(n, 200))])
        ev.add({"N": N, "d": d, "q": q, "part": "(a) labels"}, bool(np.allclose(y_loop, b.y[:200], rtol=0, atol=1e-12)))
        self_freq = np.mean(b.t[:, :, 0] == np.arange(N)[None, :])
        counts = np.bincount(b.t[:, :, 0].ravel(), minlength=N)
        expected = counts.sum() / N
        stat = float(((counts - expected) ** 2 / expected).sum())
        ev.add({"N": N, "part": "(b) uniform marginal, chi-square"}, stat, float(chi2.ppf(0.999, N - 1)), relation="le")
        se_self = sqrt((1 / N) * (1 - 1 / N) / b.t[:, :, 0].size)
        ev.add({"N": N, "part": "(b) P(t_i = i) = 1/N"}, float(self_freq), 1 / N, relation="approx", tol=6 * se_self)
        bs = st.draw(rng, 500, N, d, q, simple=True)
        ev.add({"N": N, "part": "(c) simple mode shares t"}, bool(np.all(bs.t == bs.t[:, :1, :])))
        # E y^2 = sum_l ||u_l||^2 + sum_{l != l'} <u_l, u_l'> P(t_l = t_l') = q + (1/N) sum_{l != l'} <u_l, u_l'>
        Gu = b.u @ b.u.T
        want = q + (float(Gu.sum()) - float(np.trace(Gu))) / N
        m2 = b.y**2
        ev.add({"N": N, "q": q, "part": "(d) E y^2 = q + (1/N) sum_{l != l'} <u_l, u_l'>"}, float(m2.mean()), want,
               relation="approx", tol=5 * float(m2.std() / sqrt(m2.size / N)))
    return ev.verdict(seed=ctx.seed("sampler"))


# ---------------------------------------------------------------------------------------------
# E02. Assumption 1
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MomentConstants:
    C_x: float = 1.0
    C_y: float = 1.0
    s: float = 1.0


@claim(
    id="seed002.assumption_1",
    source=SOURCE,
    label="Assumption 1",
    entry="E02",
    title="Gaussian tokens and linear labels satisfy Assumption 1 with C_x = C_y = s = 1",
    lines=[(175, 176)],
    printed=MomentConstants(),
    mutants=[Mutant("C_x=0.5", "C_x = 1/2", MomentConstants(C_x=0.5))],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("d_max", int, 2, 10**5)],
    tiers={"quick": {"d_max": 200}, "full": {"d_max": 5000}},
)
def check_assumption_1(st: MomentConstants, p, ctx) -> Verdict:
    """Assumption 1: moment bounds on tokens and labels.

    Statement
    ---------
    E[||x_i||^r]^{1/r} <= sqrt(C_x d r) and E[|y_i|^r]^{1/r} <= sqrt(C_y) r^s for all r >= 1 ([OCR?] on the
    y-part).  Checked for x ~ N(0, I_d) and y = <u, x> ~ N(0, 1) with C_x = C_y = s = 1.

    Source
    ------
    Seed 002, Assumption 1, lines 175-176.

    Checkable form
    --------------
    Closed forms: (E||x||^r)^{1/r} = (2^{r/2} Gamma((d+r)/2)/Gamma(d/2))^{1/r}; (E|y|^r)^{1/r} =
    (2^{r/2} Gamma((r+1)/2)/sqrt(pi))^{1/r}.  Grid d in [1, d_max] (geometric), r in [1, 60]; the d = 1 norm
    moment is also compared with the |y| moment (the same law).

    Exactness
    ---------
    float64 via log-gamma (relative error < 1e-13); margins at the tightest case (d large, r = 1) are ~2e-3.

    Mutants
    -------
    C_x = 1/2: at d = 2, r = 1: (E||x||)^2/(d r) = pi/4 > 1/2.
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    ds = sorted({int(v) for v in np.geomspace(1, p["d_max"], 25)})
    rs = [1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0]
    for d in ds:
        for r in rs:
            ev.add({"d": d, "r": r, "part": "token"}, gaussian_norm_moment(d, r), sqrt(st.C_x * d * r))
    for r in rs:
        ym = float(np.exp((r / 2 * np.log(2) + gammaln((r + 1) / 2) - 0.5 * np.log(pi)) / r))
        ev.add({"r": r, "part": "label"}, ym, sqrt(st.C_y) * r**st.s)
        ev.add({"r": r, "part": "d = 1 norm moment = |y| moment"}, gaussian_norm_moment(1, r), ym, relation="approx", tol=1e-12)
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# E03. Assumption 2 (linear link)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LinearLinkNet:
    a_sign: int = -1  # a = (1, a_sign)


@claim(
    id="seed002.assumption_2",
    source=SOURCE,
    label="Assumption 2",
    entry="E03",
    title="The linear link is exactly a 2-layer ReLU net: m_g = 2q, eps_2NN = 0, r_a = 2q, r_w = 1",
    lines=[(182, 196)],
    printed=LinearLinkNet(),
    mutants=[Mutant("a=(1,1)", "output weights (1, 1): computes |s| not s", LinearLinkNet(a_sign=1))],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
)
def check_assumption_2(st: LinearLinkNet, p, ctx) -> Verdict:
    """Assumption 2: the link is approximable by a 2-layer ReLU network (linear link, exact case).

    Statement
    ---------
    There are m_g, a_g, b_g, W_g with ||a_g|| <= r_a/sqrt(m_g), ||(W_g, b_g)||_F <= sqrt(m_g) r_w and
    sup |g - a_g^T sigma(W_g x + b_g)|^2 <= eps_2NN on the token ball.  For g = sum_l <u_l, x_l>: rows +-u_l,
    a = (1, -1) per l, b = 0 give eps_2NN = 0, m_g = 2q, r_a = 2q, r_w = 1.

    Source
    ------
    Seed 002, Assumption 2, lines 182-196.

    Checkable form
    --------------
    Evaluate the network on 1000 random points of norm up to 10 sqrt(d) for q in {1, 2, 3}; compare with g; the
    norms r_a = ||a|| sqrt(m_g) and r_w = ||(W, b)||_F / sqrt(m_g) are computed from the weights.

    Exactness
    ---------
    float64: sigma(s) - sigma(-s) = s exactly in floating point up to the final sum (error <= 1e-12 |g|).

    Mutants
    -------
    a = (1, 1) computes sum_l |<u_l, x_l>|.
    """
    ev = Evidence("approx", rigor=Rigor.FLOAT, tol=1e-9)
    rng = ctx.rng("link")
    for q in (1, 2, 3):
        d = 4
        u = rng.standard_normal((q, d))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        W = np.zeros((2 * q, q * d))
        a = np.zeros(2 * q)
        for l in range(q):
            W[2 * l, l * d:(l + 1) * d], W[2 * l + 1, l * d:(l + 1) * d] = u[l], -u[l]
            a[2 * l], a[2 * l + 1] = 1.0, float(st.a_sign)
        X = rng.standard_normal((1000, q * d)) * rng.uniform(0, 10, size=(1000, 1))
        g = np.einsum("ald,ld->a", X.reshape(-1, q, d), u)
        net = two_layer(X, a, W, np.zeros(2 * q))
        ev.add({"q": q, "part": "sup |g - net|"}, float(np.abs(g - net).max()), 0.0)
        ev.add({"q": q, "part": "r_a = ||a|| sqrt(m_g)"}, float(np.linalg.norm(a) * sqrt(2 * q)), 2.0 * q)
        ev.add({"q": q, "part": "r_w"}, float(np.linalg.norm(W) / sqrt(2 * q)), 1.0)
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# E04. risks
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PointwiseNormalisation:
    divide_by: str = "n"  # pointwise risk (1/n) sum_i (.)_{j^(i)}


@claim(
    id="seed002.risks",
    source=SOURCE,
    label="Risks (2.1)-(2.3)",
    entry="E04",
    title="E_j[pointwise empirical risk] = averaged empirical risk; they coincide for position-independent errors",
    lines=[(200, 240)],
    printed=PointwiseNormalisation(),
    mutants=[Mutant("divide-by-nN", "pointwise risk normalised by 1/(nN)", PointwiseNormalisation("nN"))],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
)
def check_risks(st: PointwiseNormalisation, p, ctx) -> Verdict:
    """Risks (2.1)-(2.3): population, averaged empirical and pointwise empirical risk.

    Statement
    ---------
    R_N-hat = (1/(nN)) sum_i sum_j (y_hat_j - y_j)^2 and R-hat = (1/n) sum_i (y_hat_{j(i)} - y_{j(i)})^2 with
    j(i) iid uniform on [N]; hence E_j[R-hat] = R_N-hat, and R-hat = R_N-hat when every prompt's error is the
    same at all positions (position-independent predictor on simple-qSTR).

    Source
    ------
    Seed 002, Risks (2.1)-(2.3) and learning rule (2.4), lines 200-240.

    Checkable form
    --------------
    Exact rational squared errors (n = 3, N = 4): the expectation of R-hat over all N^n choices of (j(i)) is
    enumerated exactly and compared with R_N-hat; a position-independent error matrix gives R-hat = R_N-hat for
    every choice.

    Exactness
    ---------
    Exact (Fractions, exhaustive enumeration).

    Mutants
    -------
    divide-by-nN: the expectation becomes R_N-hat / N.
    """
    import itertools

    ev = Evidence("eq", rigor=Rigor.EXACT)
    rng = ctx.rng("risk")
    n, N = 3, 4
    for kind in ("general", "position-independent"):
        if kind == "general":
            E = [[Fraction(int(v), 7) for v in rng.integers(-9, 10, size=N)] for _ in range(n)]
        else:
            E = [[Fraction(int(rng.integers(-9, 10)), 7)] * N for _ in range(n)]
        RN = sum(e * e for row in E for e in row) / (n * N)
        div = n if st.divide_by == "n" else n * N
        tot = Fraction(0)
        same = True
        for js in itertools.product(range(N), repeat=n):
            r = sum(E[i][js[i]] ** 2 for i in range(n)) / div
            tot += r
            same &= r == RN
        ev.add({"errors": kind, "part": "E_j R-hat = R_N-hat"}, tot / N**n, RN)
        if kind == "position-independent":
            ev.add({"errors": kind, "part": "R-hat = R_N-hat for every j"}, same, relation="true")
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# E05. Assumption 3
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CodeLength:
    """d_e = ceil(c_e ln N) + extra Rademacher coordinates satisfy Assumption 3 with probability >= 1/2."""

    c_e: float = 16.0
    extra: int = 8
    floor_mode: bool = False


def _d_e(st: CodeLength, N: int) -> int:
    return floor(st.c_e * log(N)) + st.extra if st.floor_mode else ceil(st.c_e * log(N)) + st.extra


@claim(
    id="seed002.assumption_3",
    source=SOURCE,
    label="Assumption 3",
    entry="E05",
    title="Rademacher codes with d_e = Theta(log N) are unit and pairwise |<w_i, w_j>| <= 1/2 (d_e ~ 16 ln N)",
    lines=[(248, 273)],
    printed=CodeLength(),
    mutants=[Mutant("d_e=5lnN", "the experiments' d_e = floor(5 ln N) suffices with probability >= 1/2",
                    CodeLength(c_e=5.0, extra=0, floor_mode=True))],
    expect=Status.CONFIRMED,
    rigor=Rigor.STATISTICAL,
    params=[Param("trials", int, 20, 10**6)],
    tiers={"quick": {"trials": 300}, "full": {"trials": 2000}},
)
def check_assumption_3(st: CodeLength, p, ctx) -> Verdict:
    """Assumption 3: near-orthogonal positional codes obtained from random Rademacher vectors.

    Statement
    ---------
    ||omega_i|| = 1 and |<omega_i, omega_j>| <= 1/2 for i != j, "obtainable by random Rademacher vectors in
    {+-1/sqrt(d_e)}^{d_e} with d_e = Theta(log N)".  Checked in the form: d_e = ceil(16 ln N) + 8 gives the
    assumption with probability >= 1/2; the encoding has ||enc(i, t_i)||^2 = d (q + 1)/q exactly.

    Source
    ------
    Seed 002, encoding and Assumption 3, lines 248-273.

    Checkable form
    --------------
    Exact route: the pair tail P(|<omega, omega'>| > 1/2) is a binomial sum (Fraction); the union bound
    C(N, 2) * tail <= 1/2 proves the claim for that N.  Where the union bound is inconclusive, Monte Carlo
    estimates P(assumption holds) over ``trials`` code draws, with an exact integer test 2|S| <= d_e on the sign
    overlaps, and rejects only if the Clopper-Pearson upper bound (99.9%) is below 1/2.  N in {2, 4, ..., 1024}.
    The encoding norm is checked on random prompts.

    Exactness
    ---------
    Union bounds exact (Fractions); Monte Carlo cases statistical (Clopper-Pearson, 99.9%).

    Mutants
    -------
    d_e = floor(5 ln N) (the experiments' choice, code setup.py): P(holds) ~ 0.03 at N = 8, ~0 for N >= 25.
    """
    from scipy.stats import beta

    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    rng = ctx.rng("codes")
    for N in (2, 4, 8, 12, 25, 33, 64, 256, 1024):
        d_e = max(1, _d_e(st, N))
        union = comb(N, 2) * pair_overlap_tail(d_e)
        if union <= Fraction(1, 2):
            ev.add({"N": N, "d_e": d_e, "part": "union bound P(fail) <= 1/2 (exact)"}, 1 - union, Fraction(1, 2))
            continue
        if N > 256:
            ev.add({"N": N, "d_e": d_e, "part": "union bound inconclusive, N too large for Monte Carlo"}, True, relation="true")
            continue
        ok = 0
        for _ in range(p["trials"]):
            S = rng.choice(np.array([-1, 1], dtype=np.int64), size=(N, d_e))
            G = S @ S.T
            np.fill_diagonal(G, 0)
            ok += int(2 * np.abs(G).max() <= d_e)
        upper = 1.0 if ok == p["trials"] else float(beta.ppf(1 - 0.001, ok + 1, p["trials"] - ok))
        ev.add({"N": N, "d_e": d_e, "part": "Monte Carlo upper bound on P(holds)", "holds_fraction": ok / p["trials"]},
               upper, 0.5)
    x = rng.standard_normal((3, 10, 4))
    for q in (1, 2, 3):
        t = rng.integers(0, 10, size=(3, 10, q))
        Z = encode_transformer(x, t, rademacher_codes(rng, 10, 12))
        enc2 = (Z[:, :, 4:] ** 2).sum(2)
        ev.add({"q": q, "part": "||enc||^2 = d (q+1)/q"}, bool(np.allclose(enc2, 4 * (q + 1) / q, rtol=1e-12, atol=0)),
               relation="true")
    return ev.verdict(seed=ctx.seed("codes"))


# ---------------------------------------------------------------------------------------------
# E06. the transformer layer
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LayerDefinition:
    include_self: bool = True
    scale: float = 1.0


@claim(
    id="seed002.transformer_definition",
    source=SOURCE,
    label="Single-layer multi-head transformer (Sec. 3)",
    entry="E06",
    title="Attention kernel equals the definition (softmax over all j incl. i, no scaling); permutation equivariance",
    lines=[(275, 313)],
    printed=LayerDefinition(),
    mutants=[Mutant("exclude-self", "softmax over j != i", LayerDefinition(include_self=False)),
             Mutant("scaled-scores", "scores scaled by 1/sqrt(D) (PyTorch convention)", LayerDefinition(scale=-1.0))],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
)
def check_transformer_definition(st: LayerDefinition, p, ctx) -> Verdict:
    """Single-layer multi-head transformer: the definition executed.

    Statement
    ---------
    f_Attn(p; W)_i = sum_j softmax_j(z_i^T W z_j) z_j (all j including i, no 1/sqrt(D) scaling); the H heads
    are concatenated and fed to a 2-layer ReLU net.  Permuting tokens together with their encodings permutes the
    outputs identically.

    Source
    ------
    Seed 002, Single-layer multi-head transformer (Sec. 3), lines 275-313.

    Checkable form
    --------------
    The vectorised kernel (kernels.retrieval_constructions.attention_heads) against an explicit double loop
    implementing the statement's variant, on random Z (n = 2, N = 5, D = 7, H = 2); permutation equivariance
    of the kernel's output under a random permutation of positions.

    Exactness
    ---------
    float64; tolerance 1e-10 (sums of <= 5 terms of size O(10)).

    Mutants
    -------
    exclude-self and 1/sqrt(D) scaling give different outputs.
    """
    ev = Evidence("approx", rigor=Rigor.FLOAT, tol=1e-10)
    rng = ctx.rng("layer")
    n, N, D, H = 2, 5, 7, 2
    Z = rng.standard_normal((n, N, D))
    W = rng.standard_normal((H, D, D)) * 0.5
    A = attention_heads(Z, W)
    scale = st.scale if st.scale > 0 else 1 / sqrt(D)
    worst = 0.0
    for a in range(n):
        for i in range(N):
            for h in range(H):
                js = [j for j in range(N) if st.include_self or j != i]
                s = np.array([scale * Z[a, i] @ W[h] @ Z[a, j] for j in js])
                w = np.exp(s - s.max())
                w /= w.sum()
                ref = sum(wj * Z[a, j] for wj, j in zip(w, js))
                worst = max(worst, float(np.abs(ref - A[a, i, h]).max()))
    ev.add({"n": n, "N": N, "D": D, "H": H, "part": "kernel vs definition"}, worst, 0.0)
    perm = rng.permutation(N)
    A2 = attention_heads(Z[:, perm], W)
    ev.add({"part": "permutation equivariance"}, float(np.abs(A2 - A[:, perm]).max()), 0.0)
    return ev.verdict()
