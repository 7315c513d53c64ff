"""Attention heads, their Lipschitz / covering-number bounds, and the constructions of Edelman et al.

Seed 004 (Edelman thesis), Chapter 4 "Variable Creation" (lines 480-840) and Appendix A (lines
1914-2965).  Pure numerics: no claims, no I/O.  Conventions (catalog thesis_ch4, section 0):

* A context X in R^{T x d} has one token per row; max_t ||x_t||_2 is its max row norm ("B_X").
* ``softmax`` is the stable log-sum-exp softmax; entries -inf get weight 0 (Lemma A.24's convention).
* Simplified Transformer head (Sec 4.4.2): f(X) = sigma(W_V^T X^T softmax(X W_QK^T x_tau)); the score
  of token t is x_tau^T W_QK x_t.  Self-attention layer (Def 4.4):
  RowSoftmax(Z W_Q (Z W_K)^T) Z W_V.  Scalar CLS read-out (App. A.2):
  w^T (softmax(x_cls^T W_Q W_K^T X^T) X W_V W_C), the [CLS] row being part of X.
* Covering bounds are natural-log functions with the constants the proofs give (Lemma A.10 = Zhang
  2002 Thm 4 with 36; Lemma 4.10 via Maurey + Zhang with the split eps1 = eps/(2 B_X), eps2 = eps/2;
  Cor 4.9 via Theorem 4.6 with the alpha split optimised numerically).

Constructions executed here (all return plain arrays; the checks compare them with closed forms):
the shattering inputs / weights of Proposition 4.8; the selector heads of Lemmas A.19, A.20, A.21 (one
head); the 3-layer ReLU memorisation net of Lemma A.25; identifiability of 3-sparse conjunctions
(the brute-force ERM baseline of Fig 4.2); one Transformer block with ball or sphere normalisation
(Lemmas A.15-A.16); categorical selector heads for tokens with M values (Sec A.2.4); exact ERM
elimination counts for sparse parities (Fig 4.4).
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np

from .._checks import require_finite, require_int, require_memory

__all__ = [
    "CategoricalSelector",
    "MemorisationNet",
    "SelectorHead",
    "attention_block",
    "categorical_selector",
    "cls_readout",
    "conjunction_identifiable",
    "conjunction_unique",
    "gram_vectors",
    "greedy_packing",
    "head_forward",
    "head_log_cover",
    "lemma410_log_cover",
    "lemma_a8_optimum",
    "memorisation_net",
    "parity_elimination_counts",
    "project_unit_ball",
    "selector_head_bag",
    "selector_head_det_p",
    "selector_head_trainable_p",
    "self_attention",
    "shattering_inputs",
    "shattering_outputs",
    "softmax",
    "softmax_jacobian",
    "sup_distances",
    "zhang_log_cover",
]


def _require_positive(name: str, value) -> float:
    v = float(value)
    if not (math.isfinite(v) and v > 0):
        raise ValueError(f"argument '{name}' must be a finite real number > 0, not {value!r}")
    return v


# ---------------------------------------------------------------------------------------------
# heads
# ---------------------------------------------------------------------------------------------


def softmax(z: np.ndarray, axis: int = -1) -> np.ndarray:
    """Stable softmax along ``axis``; -inf entries get weight exactly 0 (at least one must be finite)."""
    z = np.asarray(z, dtype=np.float64)
    require_finite("z", z, allow_inf=True)
    m = np.max(z, axis=axis, keepdims=True)
    if not np.all(np.isfinite(m)):
        raise ValueError("argument 'z' must have a finite maximum along the softmax axis (got inf or nan or all -inf)")
    e = np.exp(z - m)
    return e / np.sum(e, axis=axis, keepdims=True)


def softmax_jacobian(p: np.ndarray) -> np.ndarray:
    """J softmax = diag(p) - p p^T at probabilities p (Cor A.7, lines 1990-2006)."""
    p = np.asarray(p, dtype=np.float64)
    return np.diag(p) - np.outer(p, p)


def head_forward(X: np.ndarray, W_V: np.ndarray, W_QK: np.ndarray, x_tau: np.ndarray, sigma=None) -> np.ndarray:
    """Simplified Transformer head sigma(W_V^T X^T softmax(X W_QK^T x_tau)) (Sec 4.4.2, line 689).

    X: (T, d); W_V: (d, k); W_QK: (d, d); x_tau: (d,).  Score of token t = x_tau^T W_QK x_t.
    """
    X = np.asarray(X, dtype=np.float64)
    a = softmax(X @ (W_QK.T @ x_tau))
    y = W_V.T @ (X.T @ a)
    return y if sigma is None else sigma(y)


def self_attention(Z: np.ndarray, W_Q: np.ndarray, W_K: np.ndarray, W_V: np.ndarray) -> np.ndarray:
    """One self-attention layer RowSoftmax(Z W_Q (Z W_K)^T) Z W_V (Def 4.4; Lemma A.13, line 2324)."""
    A = softmax((Z @ W_Q) @ (Z @ W_K).T, axis=1)
    return A @ (Z @ W_V)


def cls_readout(X: np.ndarray, W_Q, W_K, W_V, W_C, w=None, cls_row: int = -1):
    """(output, attention) of the [CLS]-query head of App. A.2: attention = softmax(x_cls^T W_Q W_K^T X^T)
    over all rows of X (the [CLS] row included), output = attention X W_V W_C (then w^T if w is given)."""
    X = np.asarray(X, dtype=np.float64)
    q = X[cls_row] @ W_Q
    a = softmax(X @ (W_K @ q))
    y = (a @ X) @ W_V @ W_C
    return (y if w is None else float(y @ w)), a


def project_unit_ball(U: np.ndarray) -> np.ndarray:
    """Row-wise Pi_norm(u) = u / max(1, ||u||) (Lemma A.9, lines 2016-2028)."""
    U = np.asarray(U, dtype=np.float64)
    n = np.linalg.norm(U, axis=-1, keepdims=True)
    return U / np.maximum(1.0, n)


# ---------------------------------------------------------------------------------------------
# covering-number bounds with explicit constants (natural log)
# ---------------------------------------------------------------------------------------------


def zhang_log_cover(B1: float, B2: float, eps: float, N: int) -> float:
    """Lemma A.10 (Zhang 2002, Thm 4), lines 2030-2032:
    36 (B1 B2 / eps)^2 log(2 ceil(4 B1 B2 / eps + 2) N + 1)."""
    B1, B2, eps = (_require_positive(n, v) for n, v in (("B1", B1), ("B2", B2), ("eps", eps)))
    N = require_int("N", N, min_value=1)
    r = B1 * B2 / eps
    return 36.0 * r * r * math.log(2 * math.ceil(4 * r + 2) * N + 1)


def lemma410_log_cover(B_W: float, B_X: float, eps: float, d1: int, N: int) -> float:
    """Explicit form of Lemma 4.10 (proof lines 2198-2254) with eps1 = eps/(2 B_X), eps2 = eps/2:
    ceil(4 (B_W B_X/eps)^2) log(2 d1 + 1) + 144 (B_W B_X/eps)^2 log(2 ceil(8 B_W B_X/eps + 2) N + 1)."""
    B_W, B_X, eps = (_require_positive(n, v) for n, v in (("B_W", B_W), ("B_X", B_X), ("eps", eps)))
    d1 = require_int("d1", d1, min_value=1)
    N = require_int("N", N, min_value=1)
    r = B_W * B_X / eps
    return math.ceil(4 * r * r) * math.log(2 * d1 + 1) + 144.0 * r * r * math.log(2 * math.ceil(8 * r + 2) * N + 1)


def lemma_a8_optimum(alpha, beta, C: float):
    """Lemma A.8 (lines 2008-2014): (value gamma^3 / C^2, minimiser x) of min sum alpha_i / x_i^2
    subject to sum beta_i x_i = C, gamma = sum alpha_i^(1/3) beta_i^(2/3), x_i = (C/gamma)(alpha_i/beta_i)^(1/3)."""
    a = np.asarray(alpha, dtype=np.float64)
    b = np.asarray(beta, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1 or a.size == 0 or np.any(a <= 0) or np.any(b <= 0):
        raise ValueError(f"arguments 'alpha', 'beta' must be 1-d arrays of equal length with entries > 0, not {a!r}, {b!r}")
    C = _require_positive("C", C)
    g = float(np.sum(np.cbrt(a) * np.cbrt(b) ** 2))
    return g**3 / C**2, (C / g) * np.cbrt(a / b)


def head_log_cover(B_QK21: float, B_V: float, B_V21: float, B_X: float, eps: float, d: int, mT: int,
                   L_sigma: float = 1.0, alphas: int = 199) -> tuple[float, float]:
    """Explicit covering bound of Cor 4.9 from Theorem 4.6 + Lemma 4.10 (what the proof gives, lines
    2174-2196): min over alpha of lemma410(B_QK21, B_X, alpha eps / (2 L B_V B_X^2), d, mT)
    + lemma410(B_V21, B_X, (1-alpha) eps / L, d, mT).  The Score cover is taken at scale
    alpha eps/(2 L B_V B_X) on the scores x_tau^T W_QK x_t, i.e. on W_QK x_t at alpha eps/(2 L B_V B_X^2).
    Returns (value, alpha*) over a grid of ``alphas`` values in (0, 1)."""
    for n, v in (("B_QK21", B_QK21), ("B_V", B_V), ("B_V21", B_V21), ("B_X", B_X), ("eps", eps), ("L_sigma", L_sigma)):
        _require_positive(n, v)
    best = (math.inf, math.nan)
    for a in np.linspace(0, 1, alphas + 2)[1:-1]:
        v = (lemma410_log_cover(B_QK21, B_X, a * eps / (2 * L_sigma * B_V * B_X**2), d, mT)
             + lemma410_log_cover(B_V21, B_X, (1 - a) * eps / L_sigma, d, mT))
        if v < best[0]:
            best = (v, float(a))
    return best


# ---------------------------------------------------------------------------------------------
# packings (lower bounds on covering numbers)
# ---------------------------------------------------------------------------------------------


def sup_distances(F: np.ndarray, j: int) -> np.ndarray:
    """max_i ||F[:, i] - F[j, i]||_2 for every function (F: K functions x m samples [x k outputs])."""
    F = np.asarray(F, dtype=np.float64)
    D = F - F[j]
    if D.ndim == 3:
        D = np.sqrt(np.sum(D * D, axis=2))
    else:
        D = np.abs(D)
    return np.max(D, axis=1)


def greedy_packing(F: np.ndarray, radius: float) -> list[int]:
    """Indices of a maximal subset of the rows of F whose pairwise sup-distances are > radius (scan
    order).  With radius = 2 eps its size is <= M(F, 2 eps) <= N_inf(F, eps) (proper or improper):
    a valid LOWER bound on the covering number (Def 4.1; catalog section 2)."""
    F = np.asarray(F, dtype=np.float64)
    if F.ndim not in (2, 3):
        raise ValueError(f"argument 'F' must have shape (K, m) or (K, m, k), not {F.shape}")
    radius = float(radius)
    kept: list[int] = []
    mind = np.full(F.shape[0], np.inf)
    for j in range(F.shape[0]):
        if mind[j] > radius:
            kept.append(j)
            mind = np.minimum(mind, sup_distances(F, j))
    return kept


# ---------------------------------------------------------------------------------------------
# Proposition 4.8: shattering with unbounded weights
# ---------------------------------------------------------------------------------------------


def shattering_inputs(T: int) -> np.ndarray:
    """X^(i), i < log2 T, as an array (log2 T, T, 3): x_t = (cos 2 pi t/T, sin 2 pi t/T, bin(t)_i),
    bits MSB-first (proof of Prop 4.8, lines 2054-2060)."""
    T = require_int("T", T, min_value=2, max_value=2**16)
    if T & (T - 1):
        raise ValueError(f"argument 'T' must be a power of two in [2, 65536], not {T}")
    n = T.bit_length() - 1
    t = np.arange(T)
    X = np.empty((n, T, 3))
    X[:, :, 0] = np.cos(2 * np.pi * t / T)
    X[:, :, 1] = np.sin(2 * np.pi * t / T)
    for i in range(n):
        X[i, :, 2] = (t >> (n - 1 - i)) & 1
    return X


def shattering_outputs(T: int, scale: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(f, a): f[s, i] = w_V^T X^(i)T softmax(X^(i) w^(s)) and a[s, i] = attention on token s, for the
    weights w^(s) = scale (cos 2 pi s/T, sin 2 pi s/T, 0), w_V = e_3; the proof's scale is T^2."""
    X = shattering_inputs(T)
    sc = float(T) ** 2 if scale is None else _require_positive("scale", scale)
    s = np.arange(T)
    W = sc * np.stack([np.cos(2 * np.pi * s / T), np.sin(2 * np.pi * s / T), np.zeros(T)], axis=1)  # (T, 3)
    n = X.shape[0]
    f = np.empty((T, n))
    a = np.empty((T, n))
    for i in range(n):
        A = softmax(W @ X[i].T, axis=1)  # (s, t)
        f[:, i] = A @ X[i, :, 2]
        a[:, i] = A[s, s]
    return f, a


# ---------------------------------------------------------------------------------------------
# Appendix A.2: selector heads
# ---------------------------------------------------------------------------------------------


def gram_vectors(G: np.ndarray, extra: int = 3) -> np.ndarray:
    """Rows v_1..v_T (unit norm if diag G = 1) with Gram matrix G, in dimension T + extra, the last
    ``extra`` coordinates left free for E_0, E_1, v_[CLS] (so these are exactly orthogonal to all v_i)."""
    G = np.asarray(G, dtype=np.float64)
    T = G.shape[0]
    if G.shape != (T, T) or not np.allclose(G, G.T):
        raise ValueError(f"argument 'G' must be a symmetric square matrix, not shape {G.shape}")
    L = np.linalg.cholesky(G)
    V = np.zeros((T, T + extra))
    V[:, :T] = L
    return V


@dataclass(frozen=True)
class SelectorHead:
    """One [CLS]-read-out head of App. A.2: weights, the embedding map b -> X(b) (with [CLS] as the
    last row), the read-out vector and the target g_I(b)."""

    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    W_C: np.ndarray
    w: np.ndarray
    embed: object  # callable b -> X(b) (T+1, d)
    target: object  # callable b -> g_I(b)
    R: float
    project: int = 0  # > 0: vector output, first ``project`` coordinates (Pi_s)

    def __call__(self, b):
        y, _ = cls_readout(self.embed(np.asarray(b)), self.W_Q, self.W_K, self.W_V, self.W_C, self.w)
        return y[: self.project] if self.project else y

    def attention(self, b) -> np.ndarray:
        return cls_readout(self.embed(np.asarray(b)), self.W_Q, self.W_K, self.W_V, self.W_C, self.w)[1]


def _basis(d: int, i: int) -> np.ndarray:
    e = np.zeros(d)
    e[i] = 1.0
    return e


def _check_selector_args(T, I, gamma):
    T = require_int("T", T, min_value=1, max_value=100_000)
    I = sorted(int(i) for i in I)
    if not I or len(set(I)) != len(I) or I[0] < 0 or I[-1] >= T:
        raise ValueError(f"argument 'I' must be a non-empty set of distinct indices in [0, {T - 1}], not {I}")
    gamma = float(gamma)
    if not (0 < gamma <= 1):
        raise ValueError(f"argument 'gamma' must be a real number in (0, 1], not {gamma}")
    return T, I, gamma


def selector_head_det_p(T: int, I, gamma: float, V: np.ndarray | None = None, R: float | None = None,
                        Delta: float = 0.0) -> SelectorHead:
    """Lemma A.19 single head (proof lines 2762-2800): X(b) = P + E_b, P rows v_t (default: the
    standard basis, Delta = 0), W_Q = R v_cls e_1^T, W_K = v_I e_1^T, W_V = (E_0 - E_1) e_1^T,
    W_C = e_1 e_1^T, w = e_1, R = log(8T/gamma)/(1 - s Delta); target g_I = (1/s) sum chi_i,
    chi = +1 at b = 0."""
    T, I, gamma = _check_selector_args(T, I, gamma)
    s = len(I)
    if V is None:
        require_memory("T", T, (T + 3) * T * 8, what="the positional vectors")
        V = np.zeros((T, T + 3))
        V[:, :T] = np.eye(T)
    d = V.shape[1]
    E0, E1, vc = _basis(d, d - 3), _basis(d, d - 2), _basis(d, d - 1)
    R = math.log(8 * T / gamma) / (1 - s * Delta) if R is None else float(R)
    vI = V[I].sum(axis=0)
    k = d
    e1k = _basis(k, 0)
    W_Q = R * np.outer(vc, e1k)
    W_K = np.outer(vI, e1k)
    W_V = np.outer(E0 - E1, e1k)
    W_C = np.outer(e1k, _basis(d, 0))
    w = _basis(d, 0)
    Vc = V.copy()

    def embed(b):
        X = np.vstack([Vc + np.where(b[:, None] == 0, E0, E1), vc])
        return X

    def target(b):
        return float(np.mean(1.0 - 2.0 * b[I]))

    return SelectorHead(W_Q, W_K, W_V, W_C, w, embed, target, R)


def selector_head_trainable_p(T: int, I, gamma: float, R: float | None = None) -> SelectorHead:
    """Lemma A.20 single head (proof lines 2802-2840): P_t = v_1 for t in I else 0 (v_1 = e_1),
    W_Q = R v_cls e_1^T, W_K = v_1 e_1^T, W_V = (E_0 - E_1) e_1^T, W_C = e_1 e_1^T, R = log(8T/gamma)."""
    T, I, gamma = _check_selector_args(T, I, gamma)
    d = 4
    v1, E0, E1, vc = (_basis(d, i) for i in range(4))
    R = math.log(8 * T / gamma) if R is None else float(R)
    P = np.zeros((T, d))
    P[I] = v1
    e1 = _basis(d, 0)
    W_Q, W_K, W_V, W_C = R * np.outer(vc, e1), np.outer(v1, e1), np.outer(E0 - E1, e1), np.outer(e1, e1)

    def embed(b):
        return np.vstack([P + np.where(b[:, None] == 0, E0, E1), vc])

    def target(b):
        return float(np.mean(1.0 - 2.0 * b[I]))

    head = SelectorHead(W_Q, W_K, W_V, W_C, e1, embed, target, R)
    return head


def selector_head_bag(T: int, I, gamma: float, V: np.ndarray | None = None, R: float | None = None,
                      Delta: float = 0.0, vector_output: bool = False) -> SelectorHead:
    """Lemma A.21 single head (proof lines 2842-2899), bag of vectors X(b) = diag(b) V (the intended
    map; pitfall 12): W_Q = R v_cls e_1^T, W_K = (v_I + v_cls) e_1^T, W_V W_C = (v_I - s v_cls) e_1^T
    (W_V = sum_i v_i e_{n(i)}^T - v_cls (sum_i e_{n(i)})^T, W_C = sum_i e_{n(i)} e_1^T),
    R = log(8 T s (1 + Delta)/(gamma - s Delta))/(1 - s Delta); target g_I = (r - s)/(r + 1).
    ``vector_output``: the s-dimensional variant, W_C = sum_i e_{n(i)} e_{n(i)}^T, no read-out vector; the
    head returns the first s output coordinates (Pi_s) and the target is g'_I = (1/(r+1)) (b_i - 1)_{i in I}."""
    T, I, gamma = _check_selector_args(T, I, gamma)
    s = len(I)
    if V is None:
        require_memory("T", T, (T + 3) * T * 8, what="the positional vectors")
        V = np.zeros((T, T + 3))
        V[:, :T] = np.eye(T)
    d = V.shape[1]
    vc = _basis(d, d - 1)
    if R is None:
        R = math.log(8 * T * s * (1 + Delta) / (gamma - s * Delta)) / (1 - s * Delta)
    vI = V[I].sum(axis=0)
    k = max(s, 1)
    e1k = _basis(k, 0)
    W_Q = R * np.outer(vc, e1k)
    W_K = np.outer(vI + vc, e1k)
    W_V = np.zeros((d, k))
    W_C = np.zeros((k, d))
    for n_i, i in enumerate(I):
        W_V += np.outer(V[i], _basis(k, n_i)) - np.outer(vc, _basis(k, n_i))
        W_C += np.outer(_basis(k, n_i), _basis(d, n_i if vector_output else 0))
    w = None if vector_output else _basis(d, 0)
    Vc = V.copy()

    def embed(b):
        return np.vstack([b[:, None] * Vc, vc])

    def target(b):
        r = float(np.sum(b[I]))
        if vector_output:
            return (b[I].astype(np.float64) - 1.0) / (r + 1)
        return (r - s) / (r + 1)

    return SelectorHead(W_Q, W_K, W_V, W_C, w, embed, target, float(R), s if vector_output else 0)


# ---------------------------------------------------------------------------------------------
# Lemma A.25: 3-layer ReLU memorisation network
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MemorisationNet:
    """f_mlp(x) = w^T relu([relu([x 1] W1) 1] W2); shapes W1 (d_f+1, 4 n d_f), W2 (4 n d_f + 1, 2n)."""

    W1: np.ndarray
    W2: np.ndarray
    w: np.ndarray

    def __call__(self, x: np.ndarray) -> np.ndarray:
        x = np.atleast_2d(np.asarray(x, dtype=np.float64))
        h1 = np.maximum(0.0, np.hstack([x, np.ones((x.shape[0], 1))]) @ self.W1)
        h2 = np.maximum(0.0, np.hstack([h1, np.ones((x.shape[0], 1))]) @ self.W2)
        return h2 @ self.w


def memorisation_net(points: np.ndarray, values: np.ndarray, delta: float, threshold_shift: float = 0.0,
                     bump: str = "corrected") -> MemorisationNet:
    """The network of the proof of Lemma A.25 (lines 2695-2737), exactly as built there: units indexed
    (b in [4], i in [n], j in [d_f]) with columns [1/delta; -x_ij/delta + 2], [1/delta; -x_ij/delta + 1],
    [-1/delta; x_ij/delta + 2], [-1/delta; x_ij/delta + 1]; layer 2 weights [1,-1,-1,1]_b/delta on unit
    (b, i, j) -> (b', i), biases 1 - d_f/delta and -d_f/delta; w = (f(x_i), -f(x_i)).
    ``threshold_shift`` adds to both layer-2 thresholds (a mutant knob: 1 gives the (d_f - 1)/delta threshold).

    ``bump="printed"`` builds units 3, 4 as printed, ((x0 - x)/delta + 2)_+ and ((x0 - x)/delta + 1)_+:
    with the combination [1, -1, -1, 1] this is v(u + 1) - v(1 - u) (u = (x - x0)/delta), an odd step
    (-1, 0, +1), not a bump; printed psi_delta(y) = v(y) - v(2 delta - y) has the same defect.
    ``bump="corrected"`` uses ((x - x0)/delta - 1)_+ and ((x - x0)/delta - 2)_+, i.e.
    psi_delta(y) = v(y) - v(y - 3 delta): 1 for |x - x0| <= delta, 0 for |x - x0| >= 2 delta."""
    X = np.asarray(points, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"argument 'points' must have shape (n, d_f), not {X.shape}")
    n, df = X.shape
    fv = np.asarray(values, dtype=np.float64).reshape(n)
    delta = _require_positive("delta", delta)
    require_memory("points", X.shape, (df + 1) * 4 * n * df * 8 + (4 * n * df + 1) * 2 * n * 8, what="the weights")
    W1 = np.zeros((df + 1, 4, n, df))
    if bump not in ("printed", "corrected"):
        raise ValueError(f"argument 'bump' must be one of 'printed', 'corrected', not {bump!r}")
    signs_in = (1, 1, -1, -1) if bump == "printed" else (1, 1, 1, 1)
    offs = (2, 1, 2, 1) if bump == "printed" else (2, 1, -1, -2)
    for b in range(4):
        for j in range(df):
            W1[j, b, :, j] = signs_in[b] / delta
        W1[df, b] = -signs_in[b] * X / delta + offs[b]
    W1 = W1.reshape(df + 1, 4 * n * df)
    W2 = np.zeros((4, n, df, 2, n))
    comb = (1, -1, -1, 1)
    for b in range(4):
        for i in range(n):
            W2[b, i, :, :, i] = comb[b] / delta
    W2 = W2.reshape(4 * n * df, 2 * n)
    bias = np.zeros((2, n))
    bias[0] = 1 - (df - threshold_shift) / delta
    bias[1] = -(df - threshold_shift) / delta
    W2 = np.vstack([W2, bias.reshape(1, 2 * n)])
    w = np.concatenate([fv, -fv])
    return MemorisationNet(W1, W2, w)


# ---------------------------------------------------------------------------------------------
# Fig 4.2 baseline: identifiability of a 3-sparse conjunction
# ---------------------------------------------------------------------------------------------


def conjunction_identifiable(Xb: np.ndarray, y: np.ndarray, s: int = 3) -> int:
    """Number of s-subsets J of [T] with AND_{j in J} x_j = y on every sample (x in {0,1}^T rows of Xb).

    Candidates must be 1 on every positive sample; each negative sample needs a 0 inside J.  Counted by
    enumerating s-subsets of the candidate set (small once a few positives are seen)."""
    Xb = np.asarray(Xb, dtype=bool)
    y = np.asarray(y, dtype=bool)
    s = require_int("s", s, min_value=1, max_value=4)
    cand = np.flatnonzero(np.all(Xb[y], axis=0)) if y.any() else np.arange(Xb.shape[1])
    c = cand.size
    if c < s:
        return 0
    require_memory("Xb", Xb.shape, math.comb(c, s) * s * 8, what=f"the {s}-subsets of {c} candidates")
    from itertools import chain, combinations

    K = math.comb(c, s)
    combos = np.fromiter(chain.from_iterable(combinations(range(c), s)), dtype=np.int64, count=K * s).reshape(K, s)
    # zero-masks of the negatives, packed 8 samples per byte: J is consistent iff the OR over J is full
    Z = np.packbits(~Xb[~y][:, cand], axis=0)  # (ceil(m_neg / 8), c)
    n_neg = int(np.sum(~y))
    full = np.packbits(np.ones(n_neg, dtype=bool))[:, None] if n_neg else np.zeros((0, 1), dtype=np.uint8)
    acc = Z[:, combos[:, 0]]
    for q in range(1, s):
        acc = acc | Z[:, combos[:, q]]
    return int(np.sum(np.all(acc == full, axis=0)))


def conjunction_unique(Xb: np.ndarray, y: np.ndarray, truth) -> bool:
    """Whether the true set ``truth`` is the only s-subset consistent with the samples (exact).

    Fast path: a neighbour J = truth with one element swapped for a candidate j is consistent iff j is 1
    on every positive and 0 on every negative whose only zeros inside truth are at the swapped element;
    any consistent neighbour proves non-uniqueness.  Otherwise the count of
    :func:`conjunction_identifiable` decides."""
    Xb = np.asarray(Xb, dtype=bool)
    y = np.asarray(y, dtype=bool)
    truth = sorted(int(t) for t in truth)
    cand = np.all(Xb[y], axis=0) if y.any() else np.ones(Xb.shape[1], dtype=bool)
    cand[truth] = False
    neg = Xb[~y]
    for q, t in enumerate(truth):
        rest = [u for u in truth if u != t]
        must = np.all(neg[:, rest], axis=1)  # negatives whose zero inside truth is only at t
        ok = cand & ~np.any(neg[must], axis=0)
        if ok.any():
            return False
    return conjunction_identifiable(Xb, y, len(truth)) == 1


# ---------------------------------------------------------------------------------------------
# Lemma A.15: one Transformer block; Section A.2.4: categorical selector heads; sparse-parity ERM
# ---------------------------------------------------------------------------------------------


def attention_block(G: np.ndarray, W_Q, W_K, W_V, W_C, sigma=None, normalise: str = "ball") -> np.ndarray:
    """One block of the depth-L Transformer of App. A.1.7 (Lemma A.15, lines 2378-2432):
    g' = Pi(sigma(Pi(f(G; W))) W_C), f = :func:`self_attention`, Pi row-wise.  ``normalise="ball"`` is
    Pi_norm (projection onto the unit ball, :func:`project_unit_ball`); ``"sphere"`` divides every row by its
    norm, zero rows kept at 0 (the non-Lipschitz variant of catalog E14/E19, used as a mutant).  sigma defaults to ReLU."""
    if normalise not in ("ball", "sphere"):
        raise ValueError(f"argument 'normalise' must be one of 'ball', 'sphere', not {normalise!r}")
    G = np.asarray(G, dtype=np.float64)
    if G.ndim != 2:
        raise ValueError(f"argument 'G' must be a (T, d) matrix, not shape {G.shape}")
    act = (lambda u: np.maximum(u, 0.0)) if sigma is None else sigma
    H = act(project_unit_ball(self_attention(G, W_Q, W_K, W_V))) @ W_C
    if normalise == "ball":
        return project_unit_ball(H)
    n = np.linalg.norm(H, axis=-1, keepdims=True)
    return np.divide(H, n, out=np.zeros_like(H), where=n > 0)  # zero rows stay zero


@dataclass(frozen=True)
class CategoricalSelector:
    """s heads, head h selecting position I[h] of a token sequence b in {0..M-1}^T (Sec A.2.4 analogue of
    Lemma A.19): X(b) rows e_t + E_{b_t} (positions 0..T-1, tokens T..T+M-1), [CLS] row e_{T+M};
    W_Q^h = R e_cls e_1^T, W_K^h = e_{I[h]} e_1^T, W_V^h = sum_j (j/(M-1)) E_j e_1^T, W_C^h = e_1 e_h^T.
    The output (first s coordinates of the summed heads) approximates (b_{I[h]}/(M-1))_h."""

    T: int
    M: int
    I: tuple
    R: float

    @property
    def d(self) -> int:
        return self.T + self.M + 1

    def embed(self, b: np.ndarray) -> np.ndarray:
        X = np.zeros((self.T + 1, self.d))
        X[np.arange(self.T), np.arange(self.T)] = 1.0
        X[np.arange(self.T), self.T + np.asarray(b, dtype=np.int64)] = 1.0
        X[self.T, self.d - 1] = 1.0
        return X

    def heads(self):
        d, T, M = self.d, self.T, self.M
        e1 = _basis(d, 0)
        W_V = np.zeros((d, d))
        W_V[T:T + M, 0] = np.arange(M) / (M - 1)
        for h, i in enumerate(self.I):
            yield self.R * np.outer(_basis(d, d - 1), e1), np.outer(_basis(d, i), e1), W_V, np.outer(e1, _basis(d, h))

    def __call__(self, b: np.ndarray) -> np.ndarray:
        X = self.embed(b)
        return sum(cls_readout(X, *W)[0] for W in self.heads())[: len(self.I)]


def categorical_selector(T: int, M: int, I, gamma: float) -> CategoricalSelector:
    """The categorical selector heads with R = log(8 T / gamma): every head puts mass >= 1 - gamma/8 on its
    position (the other T rows score 0), so each output coordinate is within gamma/8 of b_i/(M-1)."""
    T, I, gamma = _check_selector_args(T, I, gamma)
    M = require_int("M", M, min_value=2, max_value=1000)
    require_memory("T", T, (T + 1) * (T + M + 1) * 8 * 4, what="the embedded context")
    return CategoricalSelector(T, M, tuple(I), math.log(8 * T / gamma))


@functools.lru_cache(maxsize=16)
def _subsets(T: int, s: int) -> np.ndarray:
    """All s-subsets of range(T) in lexicographic order, (C(T, s), s) int64 (read-only, cached)."""
    out = np.array(list(itertools.combinations(range(T), s)), dtype=np.int64).reshape(-1, s)
    out.flags.writeable = False
    return out


def parity_elimination_counts(Xb: np.ndarray, truth, s: int) -> int:
    """Sparse-parity ERM: the smallest prefix length m at which the s-subset ``truth`` is the only s-subset
    J whose parity agrees with the labels y = XOR_{i in truth} x_i on the first m rows of the 0/1 matrix
    Xb (exact; Xb.shape[0] + 1 if some J is never eliminated).  J != truth is eliminated at the first row
    where XOR over the symmetric difference is 1."""
    Xb = np.asarray(Xb, dtype=np.uint8)
    m, T = Xb.shape
    s = require_int("s", s, min_value=1, max_value=T)
    truth = sorted(int(t) for t in truth)
    require_memory("Xb", Xb.shape, math.comb(T, s) * 8 * s, what="the table of s-subsets")
    combos = _subsets(T, s)
    combos = combos[~np.all(combos == np.array(truth)[None, :], axis=1)]
    y = np.bitwise_xor.reduce(Xb[:, truth], axis=1) if m else np.zeros(0, dtype=np.uint8)
    last, start, chunk = 0, 0, 8
    while len(combos) and start < m:  # survivors roughly halve with every row: process in chunks
        rows = slice(start, min(m, start + chunk))
        par = np.zeros((rows.stop - rows.start, len(combos)), dtype=np.uint8)
        for q in range(s):
            par ^= Xb[rows][:, combos[:, q]]
        diff = par != y[rows, None]
        hit = diff.any(axis=0)
        if hit.any():
            last = max(last, start + int(diff[:, hit].argmax(axis=0).max()) + 1)
        combos = combos[~hit]
        start = rows.stop
    return m + 1 if len(combos) else last
