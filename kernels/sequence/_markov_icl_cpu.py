"""Numba loops of the ICL-MC sampler (kernels.sequence.markov_icl), bit for bit its numpy formulations.

* ``vec_mat`` is ``np.einsum("ni,nij->nj", pi, P)`` (float64): einsum adds the products pi_i P_ij to a zeroed
  output one by one, i ascending (the contiguous j innermost); the same sums in the same order here (tested
  against np.einsum).
* ``chain_steps`` fills x[:, 1:] as ``sample_chains``'s loop did with the uniforms u (length - 1, n) drawn
  beforehand, u[s - 1] the draws of step s (``rng.random(n)`` (length - 1) times is ``rng.random((length - 1, n))``,
  row by row): x_s = min(#{c : u >= cum[x_{s-1}, c]}, k - 1), comparisons only.
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["chain_steps", "vec_mat"]


@nb.njit(cache=True)
def vec_mat(pi, P):  # pragma: no cover - compiled
    n, k = pi.shape
    out = np.zeros((n, k))
    for m in range(n):
        for i in range(k):
            a = pi[m, i]
            for j in range(k):
                out[m, j] += a * P[m, i, j]
    return out


@nb.njit(cache=True)
def chain_steps(x, cum, u):  # pragma: no cover - compiled
    n, length = x.shape
    k = cum.shape[-1]
    for s in range(1, length):
        for m in range(n):
            row = cum[m, x[m, s - 1]]
            uu = u[s - 1, m]
            c = 0
            for j in range(k):
                if uu >= row[j]:
                    c += 1
            x[m, s] = min(c, k - 1)
