"""Numba twins of the two-operand ``np.einsum`` contractions of the softmax minimal model
(kernels.training.induction.softmax_minimal_forward / softmax_minimal_loss_grad).

``np.einsum`` (optimize=False, float64) evaluates these contractions with a zero-initialised output to which it
adds the products one by one, the summed indices in the order they are written (for two summed indices the first
outermost); on the small shapes of the training loop it spends most of its time in iterator overhead.  Each kernel
here makes exactly those floating-point operations in exactly that order (acc = 0.0; acc += a * b; no fastmath,
so no contraction into fused multiply-adds): the results are bit for bit those of ``np.einsum`` (tested against it
on random and on training inputs, tests/induction_heads/test_induction_heads_kernels.py), 10-50x faster.

The names spell the einsum subscripts: ``ij_njk_nik(a, b)`` is ``np.einsum("ij,njk->nik", a, b)``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["ij_njk_nik", "nik_njk_ij", "npi_npk_ik", "npk_nqk_npq", "npq_npk_nqk", "npq_nqk_npk"]


@nb.njit(cache=True)
def ij_njk_nik(a, b):  # pragma: no cover - compiled
    I, J = a.shape
    N, _, K = b.shape
    out = np.empty((N, I, K))
    for n in range(N):
        for i in range(I):
            for c in range(K):
                acc = 0.0
                for j in range(J):
                    acc += a[i, j] * b[n, j, c]
                out[n, i, c] = acc
    return out


@nb.njit(cache=True)
def npk_nqk_npq(a, b):  # pragma: no cover - compiled
    N, P, K = a.shape
    Q = b.shape[1]
    out = np.empty((N, P, Q))
    for n in range(N):
        for p in range(P):
            for q in range(Q):
                acc = 0.0
                for c in range(K):
                    acc += a[n, p, c] * b[n, q, c]
                out[n, p, q] = acc
    return out


@nb.njit(cache=True)
def npq_nqk_npk(a, b):  # pragma: no cover - compiled
    N, P, Q = a.shape
    K = b.shape[2]
    out = np.empty((N, P, K))
    for n in range(N):
        for p in range(P):
            for c in range(K):
                acc = 0.0
                for q in range(Q):
                    acc += a[n, p, q] * b[n, q, c]
                out[n, p, c] = acc
    return out


@nb.njit(cache=True)
def npq_npk_nqk(a, b):  # pragma: no cover - compiled
    N, P, Q = a.shape
    K = b.shape[2]
    out = np.empty((N, Q, K))
    for n in range(N):
        for q in range(Q):
            for c in range(K):
                acc = 0.0
                for p in range(P):
                    acc += a[n, p, q] * b[n, p, c]
                out[n, q, c] = acc
    return out


@nb.njit(cache=True)
def npi_npk_ik(a, b):  # pragma: no cover - compiled
    N, P, I = a.shape
    K = b.shape[2]
    out = np.empty((I, K))
    for i in range(I):
        for c in range(K):
            acc = 0.0
            for n in range(N):
                for p in range(P):
                    acc += a[n, p, i] * b[n, p, c]
            out[i, c] = acc
    return out


@nb.njit(cache=True)
def nik_njk_ij(a, b):  # pragma: no cover - compiled
    N, I, K = a.shape
    J = b.shape[1]
    out = np.empty((I, J))
    for i in range(I):
        for j in range(J):
            acc = 0.0
            for n in range(N):
                s = 0.0  # einsum's inner loop over the contiguous c, then added to the output
                for c in range(K):
                    s += a[n, i, c] * b[n, j, c]
                acc += s
            out[i, j] = acc
    return out
