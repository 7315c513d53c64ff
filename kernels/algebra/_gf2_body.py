"""The elimination body of GF(2) Gaussian elimination (kernels/algebra/gf2.py), shared by its twins.

``_eliminate_one`` (one bit-packed matrix, in place, with exact operation counts) is a
``register_jitable`` function: the numba CPU driver (kernels/algebra/gf2.py) and the numba.cuda launcher
(kernels/cuda/gf2.py) compile this same code, and neither is imported here.
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable


@register_jitable
def _eliminate_one(A, n, pivot_cols, piv, cnt):  # pragma: no cover - compiled
    """Gauss-Jordan on one packed matrix A (m, W) in place; fills piv[:rank] and cnt[0:5]."""
    m = A.shape[0]
    W = A.shape[1]
    r = 0
    xors = 0
    swaps = 0
    bit_ops = 0
    word_ops = 0
    for c in range(pivot_cols):
        if r == m:
            break
        w = c >> 6
        bit = np.uint64(1) << np.uint64(c & 63)
        p = -1
        for i in range(r, m):
            if A[i, w] & bit:
                p = i
                break
        if p < 0:
            continue
        if p != r:
            for k in range(w, W):
                tmp = A[p, k]
                A[p, k] = A[r, k]
                A[r, k] = tmp
            swaps += 1
        for i in range(m):
            if i != r and (A[i, w] & bit):
                for k in range(w, W):
                    A[i, k] ^= A[r, k]
                xors += 1
                bit_ops += n - c
                word_ops += W - w
        piv[r] = c
        r += 1
    cnt[0] = r
    cnt[1] = xors
    cnt[2] = swaps
    cnt[3] = bit_ops
    cnt[4] = word_ops
