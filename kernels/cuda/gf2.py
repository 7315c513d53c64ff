"""numba.cuda twin of kernels/algebra/gf2.py: one thread per matrix of the batch.

Each thread runs ``_eliminate_one`` (the ``register_jitable`` body of the CPU kernel, compiled as a
device function) on its own packed matrix, so the operations, their order and every count are those
of the CPU twin; the results are identical (integer arithmetic only).  Good occupancy needs a batch
of thousands of small matrices, which is what the Monte Carlo of seed 003, P1 draws.
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from ..algebra._gf2_body import _eliminate_one

__all__ = ["eliminate_cuda"]

_TPB = 64


@cuda.jit
def _eliminate_kernel(A, n, pivot_cols, piv, cnt):  # pragma: no cover - compiled
    b = cuda.grid(1)
    if b < A.shape[0]:
        _eliminate_one(A[b], n, pivot_cols, piv[b], cnt[b])


def eliminate_cuda(A: np.ndarray, n: int, pivot_cols: int, piv: np.ndarray, cnt: np.ndarray) -> None:
    """Eliminate the host batch ``A`` (B, m, W) in place on the GPU; same contract as the CPU kernel."""
    B = A.shape[0]
    if B == 0:
        return
    d_A = cuda.to_device(A)
    d_piv = cuda.to_device(piv)
    d_cnt = cuda.to_device(cnt)
    _eliminate_kernel[(B + _TPB - 1) // _TPB, _TPB](d_A, np.int64(n), np.int64(pivot_cols), d_piv, d_cnt)
    d_A.copy_to_host(A)
    d_piv.copy_to_host(piv)
    d_cnt.copy_to_host(cnt)
