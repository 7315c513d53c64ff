"""q-sparse token regression (qSTR, simple-qSTR): seeded sampler, positional codes and encodings.

Seed 002 (Mousavi-Hosseini, Sanford, Wu, Erdogdu, arXiv 2503.11272), Definition 2 (seed lines 150-170),
Assumption 3 and the encoding (lines 248-273).

A prompt is p = (x_1..x_N ; t_1..t_N) with tokens x_j in R^d and index tuples t_i in [N]^q (0-based here);
the label sequence is y_i = g(x_{t_i1}, ..., x_{t_iq}).  simple-qSTR shares one tuple t_i = t.

Shapes: ``x`` (n, N, d) float64, ``t`` (n, N, q) int64, ``y`` (n, N) float64.  Every draw takes an explicit
``numpy.random.Generator``, so samples are reproducible bit for bit.

Links (``g``):

* ``"linear"``: g = sum_l <u_l, x_l> with unit vectors u_l (q = 1: the paper's <u, x_{t_i}>, Var y_i = 1);
* ``"sqnorm"``: g = (1/sqrt(q d)) sum_l (||x_l||^2 - E||x_l||^2), the law of Proposition 3 / 21
  (lines 1098-1101, 1171-1177), with ``E||x_l||^2`` computed from the token covariances.

Positional codes: Rademacher vectors omega_j in {+-1/sqrt(d_e)}^{d_e}; Assumption 3 asks ||omega_j|| = 1 and
|<omega_i, omega_j>| <= 1/2 for i != j.  The exact probability that N independent codes satisfy it is not
available in closed form (pairs are dependent), but one pair's tail is an exact binomial sum
(:func:`pair_overlap_tail`), and a union bound gives a sufficient d_e.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb, sqrt

import numpy as np

from .._checks import require_finite, require_int, require_memory

__all__ = [
    "QSTRBatch",
    "assumption3_codes",
    "assumption3_margin",
    "encode_rnn",
    "encode_transformer",
    "gaussian_norm_moment",
    "pair_overlap_tail",
    "rademacher_codes",
    "sample_qstr",
    "unit_vectors",
]


class QSTRBatch:
    """A batch of qSTR prompts: ``x`` (n, N, d), ``t`` (n, N, q), ``y`` (n, N), link parameters ``u`` (q, d)."""

    __slots__ = ("link", "simple", "t", "u", "x", "y")

    def __init__(self, x, t, y, u, link, simple):
        self.x, self.t, self.y, self.u, self.link, self.simple = x, t, y, u, link, simple

    @property
    def shape(self) -> tuple[int, int, int, int]:
        n, N, d = self.x.shape
        return n, N, d, self.t.shape[2]


def unit_vectors(rng: np.random.Generator, count: int, d: int) -> np.ndarray:
    """``count`` independent uniform unit vectors of R^d (normalised Gaussians), shape (count, d)."""
    count = require_int("count", count, min_value=1, max_value=10**6)
    d = require_int("d", d, min_value=1, max_value=10**5)
    v = rng.standard_normal((count, d))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _link(x_sel: np.ndarray, u: np.ndarray, link: str, mean_sq: np.ndarray | None) -> np.ndarray:
    # x_sel: (n, N, q, d)
    if link == "linear":
        return np.einsum("anld,ld->an", x_sel, u)
    q, d = x_sel.shape[2], x_sel.shape[3]
    return ((x_sel**2).sum(axis=3) - mean_sq).sum(axis=2) / sqrt(q * d)


def sample_qstr(
    rng: np.random.Generator,
    n: int,
    N: int,
    d: int,
    q: int = 1,
    *,
    simple: bool = False,
    link: str = "linear",
    u: np.ndarray | None = None,
    token_scale: np.ndarray | None = None,
    t_fixed: np.ndarray | None = None,
) -> QSTRBatch:
    """Draw n prompts of (simple-)qSTR.

    ``t_i`` are iid uniform on [N]^q (independent of x), or one shared uniform tuple per prompt when
    ``simple``.  ``token_scale`` (length N, default ones) multiplies token j (x_j ~ N(0, s_j^2 I_d));
    ``t_fixed`` (N, q) overrides the index law with a deterministic one (Proposition 3 / 21 laws).
    ``u`` (q, d) are the linear link's directions (drawn uniformly on the sphere when omitted).
    """
    n = require_int("n", n, min_value=1, max_value=10**8)
    N = require_int("N", N, min_value=1, max_value=10**7)
    d = require_int("d", d, min_value=1, max_value=10**5)
    q = require_int("q", q, min_value=1, max_value=N if link == "sqnorm" else 10**4)
    if link not in ("linear", "sqnorm"):
        raise ValueError(f"argument 'link' must be one of 'linear', 'sqnorm', not {link!r}")
    require_memory("n", n, 8 * n * N * (2 * d + q + 1), what="a qSTR batch (tokens, indices, labels)")
    if u is None:
        u = unit_vectors(rng, q, d)
    u = np.asarray(u, dtype=np.float64)
    if u.shape != (q, d):
        raise ValueError(f"argument 'u' must have shape (q, d) = ({q}, {d}), not {u.shape}")
    s = np.ones(N) if token_scale is None else np.asarray(token_scale, dtype=np.float64)
    if s.shape != (N,):
        raise ValueError(f"argument 'token_scale' must have shape (N,) = ({N},), not {s.shape}")
    x = rng.standard_normal((n, N, d)) * s[None, :, None]
    if t_fixed is not None:
        tf = np.asarray(t_fixed, dtype=np.int64)
        if tf.shape != (N, q) or tf.min() < 0 or tf.max() >= N:
            raise ValueError(f"argument 't_fixed' must be an (N, q) = ({N}, {q}) array of indices in [0, {N - 1}]")
        t = np.broadcast_to(tf, (n, N, q)).copy()
    elif simple:
        t = np.broadcast_to(rng.integers(0, N, size=(n, 1, q)), (n, N, q)).copy()
    else:
        t = rng.integers(0, N, size=(n, N, q))
    x_sel = np.take_along_axis(x[:, :, None, :], t.reshape(n, N * q)[:, :, None, None], axis=1)
    x_sel = x_sel.reshape(n, N, q, d)
    mean_sq = None
    if link == "sqnorm":
        mean_sq = d * (s**2)[t]
    y = _link(x_sel, u, link, mean_sq)
    return QSTRBatch(x, t, y, u, link, simple)


def rademacher_codes(rng: np.random.Generator, N: int, d_e: int) -> np.ndarray:
    """N iid codes omega_j uniform on {+-1/sqrt(d_e)}^{d_e}, shape (N, d_e) (unit norm exactly up to rounding)."""
    N = require_int("N", N, min_value=1, max_value=10**7)
    d_e = require_int("d_e", d_e, min_value=1, max_value=10**5)
    require_memory("N", N, 8 * N * d_e, what="the code matrix")
    return rng.choice(np.array([-1.0, 1.0]), size=(N, d_e)) / sqrt(d_e)


def assumption3_codes(rng: np.random.Generator, N: int, d_e: int, *, max_tries: int = 1000) -> np.ndarray:
    """Rademacher codes satisfying Assumption 3, by rejection sampling (exact integer test 2|S| <= d_e on
    the sign overlaps); ValueError if ``max_tries`` draws all fail (d_e too small for N)."""
    max_tries = require_int("max_tries", max_tries, min_value=1)
    for _ in range(max_tries):
        c = rademacher_codes(rng, N, d_e)
        S = np.rint(c * sqrt(d_e)).astype(np.int64)
        G = S @ S.T
        np.fill_diagonal(G, 0)
        if N == 1 or 2 * int(np.abs(G).max()) <= d_e:
            return c
    raise ValueError(f"argument 'd_e' = {d_e} is too small: {max_tries} draws of {N} codes all violate Assumption 3 "
                     f"(d_e >= 16 ln N suffices with probability >= 1/2)")


def assumption3_margin(codes: np.ndarray) -> float:
    """1/2 - max_{i != j} |<omega_i, omega_j>|; Assumption 3 holds iff this is >= 0 (and norms are 1).

    For Rademacher codes the overlaps are multiples of 1/d_e; callers that need an exact verdict should
    use integer sign matrices (``codes * sqrt(d_e)`` rounded) and compare 2 |S| <= d_e.
    """
    G = codes @ codes.T
    np.fill_diagonal(G, 0.0)
    return 0.5 - float(np.abs(G).max()) if codes.shape[0] > 1 else 0.5


def pair_overlap_tail(d_e: int) -> Fraction:
    """Exact P(|<omega, omega'>| > 1/2) for two independent Rademacher codes: P(|S_{d_e}| > d_e/2),
    S a sum of d_e independent signs; as a Fraction."""
    d_e = require_int("d_e", d_e, min_value=1, max_value=10**5)
    # S = 2K - d_e with K ~ Bin(d_e, 1/2); |2K - d_e| > d_e/2  <=>  |4K - 2 d_e| > d_e
    bad = sum(comb(d_e, k) for k in range(d_e + 1) if abs(4 * k - 2 * d_e) > d_e)
    return Fraction(bad, 2**d_e)


def encode_transformer(x: np.ndarray, t: np.ndarray, codes: np.ndarray, *, scaled: bool = True) -> np.ndarray:
    """Z columns z_i = (x_i ; c (omega_i, omega_{t_i1}, ..., omega_{t_iq})), c = sqrt(d/q) (lines 248-262)
    or c = 1 (the experiments' encoding, ``scaled=False``).  x (n, N, d), t (n, N, q) -> (n, N, D_e)."""
    n, N, d = x.shape
    q = t.shape[2]
    if codes.shape[0] != N:
        raise ValueError(f"argument 'codes' must have N = {N} rows, not {codes.shape[0]}")
    c = sqrt(d / q) if scaled else 1.0
    own = np.broadcast_to(codes[None, :, :], (n, N, codes.shape[1]))
    parts = [x, c * own] + [c * codes[t[:, :, l]] for l in range(q)]
    return np.concatenate(parts, axis=2)


def encode_rnn(x: np.ndarray, t: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """z_i = (x_i, omega_i, omega_{t_i1}, ..., omega_{t_iq}) without the prefactor (lines 1331-1338)."""
    return encode_transformer(x, t, codes, scaled=False)


def gaussian_norm_moment(d: int, r: float) -> float:
    """(E ||x||^r)^{1/r} for x ~ N(0, I_d): (2^{r/2} Gamma((d + r)/2) / Gamma(d/2))^{1/r}."""
    from scipy.special import gammaln

    d = require_int("d", d, min_value=1, max_value=10**7)
    if not r >= 1:
        raise ValueError(f"argument 'r' must be a real number >= 1, not {r!r}")
    require_finite("r", r)
    return float(np.exp((r / 2 * np.log(2) + gammaln((d + r) / 2) - gammaln(d / 2)) / r))
