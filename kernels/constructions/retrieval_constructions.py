"""Constructions of seed 002 (arXiv 2503.11272) executed as code: the multi-head attention layer, the
q-head transformer of Lemma 11, the feedforward in-span oracle of Theorem 6, the recurrent retrieval chain
(Psi, Corollary 27, soft thresholds of Proposition 26), the Lemma 38 ReLU interpolant, the Lemma 29 error
recursion and the linear-state analogue of Proposition 8.

Conventions: tokens/encodings Z (n, N, D) float64; query-key matrices W (H, D, D); indices 0-based.
All functions are pure and validate their arguments (ValueError naming argument, value and range).
"""

from __future__ import annotations

from math import log, sqrt

import numba as nb
import numpy as np
from numba import prange

from .._checks import require_finite, require_int, require_memory

__all__ = [
    "attention_heads",
    "birnn_states",
    "conditional_sqnorm_risk",
    "ffn_inspan_risk",
    "lemma11_alpha",
    "lemma11_query_key",
    "lemma11_readout_linear",
    "lemma38_interpolant",
    "linear_state_risk",
    "quadratic_readout_risk",
    "quadratic_readout_risk_mc",
    "relu",
    "retrieval_psi",
    "rnn_exact_retrieval",
    "soft_threshold",
    "transformer_forward",
    "two_layer",
]


def relu(z):
    return np.maximum(z, 0.0)


def two_layer(h: np.ndarray, a: np.ndarray, W: np.ndarray, b: np.ndarray) -> np.ndarray:
    """f_2NN(h) = a^T sigma(W h + b) applied on the last axis of h."""
    return relu(h @ W.T + b) @ a


@nb.njit(parallel=True, cache=True)
def _attention_heads_cpu(Z, W, out):  # pragma: no cover - compiled
    n, N, D = Z.shape
    H = W.shape[0]
    for job in prange(n * H):
        a = job // H
        h = job % H
        ZW = np.zeros((N, D))
        for i in range(N):
            for k in range(D):
                zk = Z[a, i, k]
                if zk != 0.0:
                    for l in range(D):
                        ZW[i, l] += zk * W[h, k, l]
        S = np.empty((N, N))
        for i in range(N):
            for j in range(N):
                acc = 0.0
                for l in range(D):
                    acc += ZW[i, l] * Z[a, j, l]
                S[i, j] = acc
        for i in range(N):
            m = S[i, 0]
            for j in range(1, N):
                m = max(m, S[i, j])
            tot = 0.0
            for j in range(N):
                S[i, j] = np.exp(S[i, j] - m)
                tot += S[i, j]
            for k in range(D):
                acc = 0.0
                for j in range(N):
                    acc += S[i, j] * Z[a, j, k]
                out[a, i, h, k] = acc / tot


def attention_heads(Z: np.ndarray, W: np.ndarray, *, backend: str = "numpy") -> np.ndarray:
    """f_Attn(p; W^(h))_i = sum_j softmax_j(z_i^T W^(h) z_j) z_j for every head (seed lines 275-313).

    Z (n, N, D), W (H, D, D) -> (n, N, H, D).  Softmax over all j including j = i, no 1/sqrt(D) scaling,
    no value matrix (absorbed into the readout).  Numerically stable (max subtracted).  ``backend``:
    'numpy' (the reference, batched matrix products) or 'cpu' (numba, parallel over prompts x heads; equal to
    the reference up to rounding, tested).
    """
    if Z.ndim != 3:
        raise ValueError(f"argument 'Z' must have shape (n, N, D), not {Z.shape}")
    n, N, D = Z.shape
    if W.ndim != 3 or W.shape[1:] != (D, D):
        raise ValueError(f"argument 'W' must have shape (H, {D}, {D}), not {W.shape}")
    if backend not in ("numpy", "cpu"):
        raise ValueError(f"argument 'backend' must be 'numpy' or 'cpu', not {backend!r}")
    require_memory("Z", Z.shape, 8 * n * N * N * 2, what="the attention score matrices of one head")
    out = np.empty((n, N, W.shape[0], D))
    if backend == "cpu":
        _attention_heads_cpu(np.ascontiguousarray(Z, dtype=np.float64), np.ascontiguousarray(W, dtype=np.float64), out)
        return out
    for h in range(W.shape[0]):
        S = (Z @ W[h]) @ Z.transpose(0, 2, 1)
        S -= S.max(axis=2, keepdims=True)
        P = np.exp(S)
        P /= P.sum(axis=2, keepdims=True)
        out[:, :, h, :] = P @ Z
    return out


def transformer_forward(Z, W, a, W2, b2) -> np.ndarray:
    """y_hat_i = f_2NN(concat_h f_Attn(p; W^(h))_i): Z (n, N, D), W (H, D, D), W2 (m, H D) -> (n, N)."""
    A = attention_heads(Z, W)
    n, N, H, D = A.shape
    return two_layer(A.reshape(n, N, H * D), a, W2, b2)


def lemma11_alpha(q: int, d: int, r_a: float, r_w: float, r_x: float, N: int, eps: float) -> float:
    """alpha = (2 q / d) log(2 r_a r_w r_x N sqrt(q) / sqrt(eps)) of the Lemma 11 construction (line 700ff)."""
    if not eps > 0:
        raise ValueError(f"argument 'eps' must be a real number > 0, not {eps!r}")
    for name, v in (("r_a", r_a), ("r_w", r_w), ("r_x", r_x), ("eps", eps)):
        require_finite(name, v)
    return 2 * q / d * log(2 * r_a * r_w * r_x * N * sqrt(q) / sqrt(eps))


def lemma11_query_key(d: int, d_e: int, q: int, alpha: float, *, slot: int | None = None) -> np.ndarray:
    """W^(h), h = 1..q: zero except alpha I_{d_e} at rows of the query's omega_{t_ih} slot and columns of the
    key's omega_j slot (construction (A.2)); ``slot`` overrides the query slot (0 = the query's own code)."""
    d = require_int("d", d, min_value=1)
    d_e = require_int("d_e", d_e, min_value=1)
    q = require_int("q", q, min_value=1)
    D = d + (q + 1) * d_e
    W = np.zeros((q, D, D))
    for h in range(q):
        s = h + 1 if slot is None else slot
        W[h, d + s * d_e: d + (s + 1) * d_e, d: d + d_e] = alpha * np.eye(d_e)
    return W


def lemma11_readout_linear(u: np.ndarray, D: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """2NN exactly computing g = sum_l <u_l, x_l> from the q heads' outputs (x-part of head l):
    rows +-u_l padded with zeros, a = (1, -1, ...), b = 0 (sigma(s) - sigma(-s) = s).  Returns (a, W2, b2)."""
    q, d = u.shape
    W2 = np.zeros((2 * q, q * D))
    a = np.zeros(2 * q)
    for l in range(q):
        W2[2 * l, l * D: l * D + d] = u[l]
        W2[2 * l + 1, l * D: l * D + d] = -u[l]
        a[2 * l], a[2 * l + 1] = 1.0, -1.0
    return a, W2, np.zeros(2 * q)


def ffn_inspan_risk(V: np.ndarray, N: int, d: int) -> tuple[float, float, np.ndarray]:
    """In-span oracle risks of Theorem 6's proof (lines 1207-1251).

    V (n, N d) with orthonormal rows spans the training inputs; P_t selects block t.  For direction u the
    best predictor from V x has risk 1 - (1/N) u^T M u, M = sum_t P_t^T V^T V P_t.  Returns
    (average over u ~ Unif(S^{d-1}) = 1 - tr(M)/(N d), sup over u = 1 - lambda_min(M)/N, eigenvalues of M).
    """
    N = require_int("N", N, min_value=1)
    d = require_int("d", d, min_value=1)
    if V.ndim != 2 or V.shape[1] != N * d:
        raise ValueError(f"argument 'V' must have shape (n, N d) = (n, {N * d}), not {V.shape}")
    B = V.reshape(V.shape[0], N, d)
    M = np.einsum("ktr,kts->rs", B, B)
    ev = np.linalg.eigvalsh(M)
    return 1 - float(np.trace(M)) / (N * d), 1 - float(ev[0]) / N, ev


def conditional_sqnorm_risk(rng: np.random.Generator, V: np.ndarray, samples: int) -> tuple[float, float]:
    """Monte Carlo of E[(||x||^2 - E[||x||^2 | V x])^2] for x ~ N(0, I_k), with the conditional mean
    ||Pi x||^2 + (k - r) (Pi the projection on the row space of V, r its rank); returns (mean, std error).
    Lemma 40 / proof of Proposition 3: the exact value is 2 (k - r)."""
    samples = require_int("samples", samples, min_value=2, max_value=10**8)
    k = V.shape[1]
    require_memory("samples", samples, 8 * samples * k, what="the Gaussian samples")
    Q, R = np.linalg.qr(V.T)
    r = int(np.sum(np.abs(np.diag(R)) > 1e-10 * max(1.0, np.abs(R).max())))
    Q = Q[:, np.abs(np.diag(R)) > 1e-10 * max(1.0, np.abs(R).max())]
    x = rng.standard_normal((samples, k))
    proj = x @ Q
    err = (x**2).sum(1) - ((proj**2).sum(1) + (k - r))
    e2 = err**2
    return float(e2.mean()), float(e2.std(ddof=1) / sqrt(samples))


def soft_threshold(z, b):
    """ST_b(z) = sigma(z - b) - sigma(-z - b): zero on |z| <= b, |z - ST_b(z)| <= b (Proposition 26)."""
    return relu(z - b) - relu(-z - b)


def retrieval_psi(x: np.ndarray, overlaps: np.ndarray, threshold: float = 0.5) -> np.ndarray:
    """Psi_l = 2 x sigma(<omega_i, omega_{t_l}> - threshold) (exact 1[t_l = i] x under Assumption 3).
    x (..., d), overlaps (..., q) -> (..., q, d)."""
    return 2 * x[..., None, :] * relu(overlaps - threshold)[..., :, None]


def rnn_exact_retrieval(x: np.ndarray, t: np.ndarray, codes: np.ndarray, threshold: float = 0.5):
    """Run the recurrent retrieval chain of Corollary 27 on simple-qSTR prompts.

    x (n, N, d), t (n, q) shared tuples, codes (N, d_e).  h^->_1 = 0, h^->_{i+1} = h^->_i + Psi(x_i, t, i);
    h^<-_N = 0, h^<-_{i-1} = h^<-_i + Psi(x_i, t, i).  Returns (h_fwd, h_bwd, psi), each (n, N, q, d); the claim
    is h_fwd + h_bwd + psi = (x_{t_1}, ..., x_{t_q}) at every position.
    """
    _n, _N, _d = x.shape
    ov = np.einsum("je,ale->ajl", codes, codes[t])  # <omega_j, omega_{t_l}>, (n, N, q)
    psi = retrieval_psi(x, ov, threshold)
    cs = np.cumsum(psi, axis=1)
    zero = np.zeros_like(psi[:, :1])
    h_fwd = np.concatenate([zero, cs[:, :-1]], axis=1)
    rcs = np.cumsum(psi[:, ::-1], axis=1)[:, ::-1]
    h_bwd = np.concatenate([rcs[:, 1:], zero], axis=1)
    return h_fwd, h_bwd, psi


def lemma38_interpolant(z: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Lemma 38 (lines 2260-2300): a width-n ReLU net g(s) = sum_j a_j sigma(w_j s + b_j) with g(z_i) = y_i.

    Breakpoints at z^(j-1) (z^(0) = z^(1) - 1), w' = 1, a' = slope changes; then the homogeneous rescale
    a = alpha a', (w, b) = (w', b')/alpha with alpha = ((||z||^2 + n) eps^2 / ||y||^2)^{1/4}, eps = min(min gap, 1).
    Returns (a, w, b) in the order of sorted z.
    """
    order = np.argsort(z)
    zs, ys = np.asarray(z, float)[order], np.asarray(y, float)[order]
    n = zs.size
    if n < 1 or np.any(np.diff(zs) <= 0):
        raise ValueError("argument 'z' must hold n >= 1 distinct values")
    brk = np.concatenate([[zs[0] - 1.0], zs[:-1]])
    slopes = np.empty(n)
    slopes[0] = ys[0] / 1.0
    if n > 1:
        slopes[1:] = np.diff(ys) / np.diff(zs)
    a1 = np.concatenate([[slopes[0]], np.diff(slopes)])
    w1 = np.ones(n)
    b1 = -brk
    eps = float(np.min(np.diff(zs))) if n > 1 else 1.0
    eps = min(eps, 1.0)
    ny = float(np.linalg.norm(ys))
    alpha = ((float(zs @ zs) + n) * eps**2 / ny**2) ** 0.25 if ny > 0 else 1.0
    return alpha * a1, w1 / alpha, b1 / alpha


def linear_state_risk(A: np.ndarray, N: int, d: int, u: np.ndarray) -> float:
    """Derived D1: Bayes risk of predicting <u, x_{t_j}> (t_j uniform on the N-1 other positions) from a linear
    state h = A (x_k)_{k != j}: 1 - (1/(N-1)) sum_k ||Pi_A (e_k (x) u)||^2 (A: (d_h, (N-1) d))."""
    if A.shape[1] != (N - 1) * d:
        raise ValueError(f"argument 'A' must have (N-1) d = {(N - 1) * d} columns, not {A.shape[1]}")
    Q, R = np.linalg.qr(A.T)
    keep = np.abs(np.diag(R)) > 1e-10 * max(1.0, np.abs(R).max())
    Q = Q[:, keep]
    E = np.kron(np.eye(N - 1), u.reshape(d, 1))  # columns e_k (x) u
    return 1 - float(((Q.T @ E) ** 2).sum()) / (N - 1)


def _row_space(V: np.ndarray) -> np.ndarray:
    """Orthonormal basis (columns) of the row space of V."""
    if V.shape[0] == 0:
        return np.zeros((V.shape[1], 0))
    U, s, _ = np.linalg.svd(V.T, full_matrices=False)
    return U[:, s > 1e-10 * max(1.0, s.max())]


def quadratic_readout_risk(V: np.ndarray, sel: np.ndarray) -> float:
    """min over readouts phi of E(||x_S||^2 - phi(V x))^2 for x ~ N(0, I_K): E Var(||x_S||^2 | V x).

    x_S = S x with S selecting the coordinates ``sel``; given V x, x ~ N(Pi x, I - Pi) (Pi the projection on the
    row space of V), so by Lemma 40 Var = 2 tr(C^2) + 4 m^T C m with C = S (I - Pi) S^T, m = S Pi x, and the
    expectation over x is 2 tr(C^2) + 4 tr(C S Pi S^T) (proof of Propositions 3 / 21, lines 1070-1205).
    """
    K = V.shape[1]
    Q = _row_space(V)
    Pi = Q @ Q.T
    S = np.eye(K)[np.asarray(sel)]
    C = S @ (np.eye(K) - Pi) @ S.T
    return float(2 * np.trace(C @ C) + 4 * np.trace(C @ S @ Pi @ S.T))


def quadratic_readout_risk_mc(rng: np.random.Generator, V: np.ndarray, sel: np.ndarray, samples: int) -> tuple[float, float]:
    """Monte Carlo of the same quantity with the conditional-mean readout ||S Pi x||^2 + tr(C) + noise-free
    cross term; returns (mean, standard error)."""
    samples = require_int("samples", samples, min_value=2, max_value=10**8)
    K = V.shape[1]
    require_memory("samples", samples, 8 * samples * K * 2, what="the Gaussian samples")
    Q = _row_space(V)
    Pi = Q @ Q.T
    S = np.eye(K)[np.asarray(sel)]
    C = S @ (np.eye(K) - Pi) @ S.T
    x = rng.standard_normal((samples, K))
    m = x @ Pi @ S.T
    pred = (m**2).sum(1) + np.trace(C)
    err = ((x @ S.T) ** 2).sum(1) - pred
    e2 = err**2
    return float(e2.mean()), float(e2.std(ddof=1) / sqrt(samples))


def birnn_states(z: np.ndarray, f_fwd, f_bwd, r_h: float, d_h: int, *, include_current: bool = False):
    """Bidirectional RNN with projection (Sec. 5.1, lines 477-514): h->_1 = 0,
    h->_i = Pi_{r_h}(h->_{i-1} + f_fwd(h->_{i-1}, z_{i-1})); h<-_N = 0, h<-_i = Pi_{r_h}(h<-_{i+1} + f_bwd(h<-_{i+1}, z_{i+1})).
    z (N, D); f_* map (h (d_h,), z (D,)) -> (d_h,).  ``include_current`` feeds z_i instead of z_{i-1}
    (an off-by-one variant used as a mutant).  Returns (h_fwd, h_bwd), each (N, d_h)."""
    N = z.shape[0]

    def proj(h):
        nrm = float(np.linalg.norm(h))
        return h if nrm <= r_h else h * (r_h / nrm)

    d_h = require_int("d_h", d_h, min_value=1)
    hf = np.zeros((N, d_h))
    hb = np.zeros((N, d_h))
    for i in range(1, N):
        src = z[i] if include_current else z[i - 1]
        hf[i] = proj(hf[i - 1] + f_fwd(hf[i - 1], src))
    for i in range(N - 2, -1, -1):
        src = z[i] if include_current else z[i + 1]
        hb[i] = proj(hb[i + 1] + f_bwd(hb[i + 1], src))
    return hf, hb
