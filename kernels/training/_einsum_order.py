"""numba kernels that sum in the order of numpy's ``einsum`` (no ``optimize``) on float64, for the trainers
whose einsums were replaced by them (kernels.training.retrieval, kernels.training.attention,
kernels.training.icl_regression, and the softmax minimal model of kernels.training.induction): same bits, without
einsum's per-call cost on small operands.

numpy's einsum (no ``optimize``) reduces a contraction over both operands' contiguous last axis with its
x86-64 baseline SSE2 loop ``sum_of_products_contig_contig_outstride0_two``: two lanes (even and odd indices
l), each accumulated four pairs per step as p_l + (p_{l+2} + (p_{l+4} + (p_{l+6} + acc))), then pair by pair,
a lone last index in lane 0, no FMA; result lane0 + lane1.  Other contractions it accumulates one term at a
time into the zeroed output, in index order.  No fastmath here, so LLVM keeps every operation's order.
Tested bit for bit against einsum (tests/sparse_retrieval/test_sparse_retrieval_training.py,
tests/kernels/test_attention.py) on x86-64.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def _dot_rows_sse(A, B):
    """out[b, r, c] = sum_l A[b, r, l] B[b, c, l] (A (nb, R, L), B (nb, C, L), C-contiguous), summed in the order
    of numpy's einsum for a contraction over both operands' contiguous last axis (its x86-64 baseline SSE2
    loop ``sum_of_products_contig_contig_outstride0_two``: two lanes, even and odd l, each accumulated
    four pairs per step as p_l + (p_{l+2} + (p_{l+4} + (p_{l+6} + acc))), then pair by pair, no FMA; result
    lane0 + lane1).  Vectorised over c, which changes no operation's order: the products einsum gave before
    this kernel replaced it, bit for bit (tests/sparse_retrieval/test_sparse_retrieval_training.py)."""
    nb, R, L = A.shape
    C = B.shape[1]
    out = np.empty((nb, R, C))
    BT = np.empty((L, C))
    v0 = np.empty(C)
    v1 = np.empty(C)
    for b in range(nb):
        for c in range(C):
            for l in range(L):
                BT[l, c] = B[b, c, l]
        for r in range(R):
            a = A[b, r]
            v0[:] = 0.0
            v1[:] = 0.0
            i = 0
            while L - i >= 8:
                a0, a1, a2, a3, a4, a5, a6, a7 = a[i], a[i + 1], a[i + 2], a[i + 3], a[i + 4], a[i + 5], a[i + 6], a[i + 7]
                for c in range(C):
                    v0[c] = a0 * BT[i, c] + (a2 * BT[i + 2, c] + (a4 * BT[i + 4, c] + (a6 * BT[i + 6, c] + v0[c])))
                    v1[c] = a1 * BT[i + 1, c] + (a3 * BT[i + 3, c] + (a5 * BT[i + 5, c] + (a7 * BT[i + 7, c] + v1[c])))
                i += 8
            while L - i >= 2:
                a0, a1 = a[i], a[i + 1]
                for c in range(C):
                    v0[c] = a0 * BT[i, c] + v0[c]
                    v1[c] = a1 * BT[i + 1, c] + v1[c]
                i += 2
            if L - i == 1:
                a0 = a[i]
                for c in range(C):
                    v0[c] = a0 * BT[i, c] + v0[c]
                    v1[c] = 0.0 * 0.0 + v1[c]
            for c in range(C):
                out[b, r, c] = v0[c] + v1[c]
    return out


@numba.njit(cache=True)
def _sum_outer_seq(A, B):
    """out[b, r, c] = sum_t A[b, t, r] B[b, t, c] (A (nb, T, R), B (nb, T, C), C-contiguous), accumulated from 0
    in the order t = 0, 1, ..., T - 1: numpy einsum's order for a contraction over an axis that is not both
    operands' contiguous last axis (bit for bit, tests/sparse_retrieval/test_sparse_retrieval_training.py)."""
    nb, T, R = A.shape
    C = B.shape[2]
    out = np.zeros((nb, R, C))
    for b in range(nb):
        for t in range(T):
            for r in range(R):
                a = A[b, t, r]
                for c in range(C):
                    out[b, r, c] = out[b, r, c] + a * B[b, t, c]
    return out


# the softmax minimal model's other contractions (kernels.training.induction._EINSUM_TWINS, k = 2 symbols): einsum adds
# their products one by one into a zeroed output, the summed indices in the order written (two summed indices: the
# first outermost); the names spell the subscripts, ``ij_njk_nik(a, b)`` is ``np.einsum("ij,njk->nik", a, b)``; tested
# against np.einsum in tests/induction_heads/test_induction_heads_kernels.py


@numba.njit(cache=True)
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


@numba.njit(cache=True)
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


@numba.njit(cache=True)
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


@numba.njit(cache=True)
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
