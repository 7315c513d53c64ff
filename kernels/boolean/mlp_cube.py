"""Exact population hinge-loss gradients of a one-hidden-layer ReLU network over the Boolean cube.

The network (seed 004, App. B.2.1, lines 3044-3048) is

    f(x; theta) = sum_{i=1}^r u_i sigma(w_i . x + b_i),    sigma = ReLU,

and the loss is the hinge l(y, yhat) = max(0, 1 - y yhat) with the parity label y = chi_S(x).  The
subgradient used everywhere is d(x) = dl/dyhat = -y 1[y f(x) < 1] (0 on the kink y f = 1), computed
from the *actual* network output, so that an initialisation with f != 0 really changes it.  With
sigma'(z) = 1[z > 0] (value 0 at z = 0, as in Eq. (B.4), lines 3060-3066) the population gradients
are, for every neuron i and coordinate j,

    g_{i,j} = E_x[ d(x) u_i 1[w_i . x + b_i > 0] x_j ],    gamma_i = E_x[ d(x) u_i 1[w_i . x + b_i > 0] ].

Exactness.  Weights are integers and biases are rationals b_i = b_num_i / D with a common
denominator D, so D (w_i . x) + b_num_i, D f(x) and the test y f(x) < 1 <=> y D f(x) < D are integer
computations.  Every product d(x) 1[.] x_j is in {-1, 0, 1}; the cube sums are accumulated in float64
matrix products, exact because every partial sum is an integer of magnitude <= 2^n <= 2^40 < 2^53.
The results are returned as integer numerators over 2^n (Python ints), i.e. exact dyadic rationals.

Memory: O(2^c (n + r)) for blocks of 2^c points (c = min(n, 15)), independent of 2^n.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _checks
from .cube import sign_vectors

__all__ = ["HingeGradient", "mlp_hinge_gradient", "mlp_hinge_gradient_ref"]

_BLOCK_BITS = 15


@dataclass(frozen=True)
class HingeGradient:
    """Exact population gradients as integer numerators over ``2**n``.

    ``G[i][j] / 2**n = g_{i,j}``, ``gamma[i] / 2**n = gamma_i``.  ``max_abs_output`` is
    max_x |D f(x)| (0 exactly when the network output vanishes on the whole cube) and
    ``active_fraction`` is the fraction of the cube where d(x) != 0 (1 when f == 0).
    """

    n: int
    G: tuple[tuple[int, ...], ...]
    gamma: tuple[int, ...]
    max_abs_output: int
    active_count: int

    @property
    def scale(self) -> int:
        return 1 << self.n


def _validate(W, b_num, u, S, denom):
    W = np.asarray(W)
    if W.ndim != 2 or W.dtype.kind not in "iu":
        raise ValueError(f"argument 'W' must be a 2-D integer array of shape (r, n), not shape {W.shape}, dtype {W.dtype}")
    r, n = W.shape
    if r < 1:
        raise ValueError("argument 'W' must have at least one row (r >= 1 neurons)")
    n = _checks.require_int("n (columns of W)", n, min_value=1, max_value=30)
    denom = _checks.require_int("denom", denom, min_value=1, max_value=2**20)
    b_num = np.asarray(b_num)
    u = np.asarray(u)
    for name, arr in (("b_num", b_num), ("u", u)):
        if arr.shape != (r,) or arr.dtype.kind not in "iu":
            raise ValueError(f"argument '{name}' must be an integer array of shape ({r},), not shape {arr.shape}, dtype {arr.dtype}")
    mask = _checks.require_subset("S", S, n)
    wmax = int(np.abs(W).max(initial=0))
    bmax = int(np.abs(b_num).max(initial=0))
    umax = int(np.abs(u).max(initial=0))
    pre_max = denom * wmax * n + bmax
    if pre_max * umax * r >= 2**62:
        raise ValueError(
            f"arguments 'W', 'b_num', 'u', 'denom' give |D f(x)| up to {pre_max * umax * r}, beyond the int64 "
            "range of the exact computation; use smaller integers"
        )
    return W.astype(np.int64), b_num.astype(np.int64), u.astype(np.int64), mask, n, r, denom


def mlp_hinge_gradient(W, b_num, u, S, *, denom: int = 1) -> HingeGradient:
    """Exact population hinge gradients of f(x) = sum_i u_i ReLU(w_i.x + b_num_i/denom) against chi_S.

    ``W``: (r, n) integer weights; ``b_num``: (r,) integer bias numerators; ``u``: (r,) integer
    output weights; ``S``: bitmask or iterable of 0-based indices; ``denom``: the common bias
    denominator D >= 1.  See the module docstring for the subgradient convention and exactness.
    """
    W, b_num, u, mask, n, r, D = _validate(W, b_num, u, S, denom)
    c = min(n, _BLOCK_BITS)
    Xlow = sign_vectors(c).astype(np.int64)  # (2^c, c)
    low_dot = Xlow @ (D * W[:, :c]).T  # (2^c, r)
    low_par = np.zeros(1 << c, dtype=np.int64)
    idx = np.arange(1 << c, dtype=np.int64)
    for i in range(c):
        if mask >> i & 1:
            low_par ^= (idx >> i) & 1
    Gacc = np.zeros((r, n), dtype=np.float64)
    gacc = np.zeros(r, dtype=np.float64)
    max_out = 0
    active = 0
    Xlow_f = Xlow.astype(np.float64)
    Tsum = np.zeros((1 << c, r), dtype=np.int64)  # sum over the high blocks of T: one product with Xlow at the end
    for h in range(1 << (n - c)):
        xh = 1 - 2 * ((h >> np.arange(n - c, dtype=np.int64)) & 1)  # high coordinates c..n-1
        hpar = 0
        for i in range(n - c):
            if mask >> (c + i) & 1 and (h >> i) & 1:
                hpar ^= 1
        pre = low_dot + (xh @ (D * W[:, c:]).T if n > c else 0) + b_num[None, :]  # D (w.x + b), integers
        act = pre > 0
        fD = np.maximum(pre, 0) @ u  # D f(x)
        y = (1 - 2 * (low_par ^ hpar)).astype(np.int64)
        d = np.where(y * fD < D, -y, 0)  # hinge subgradient -y 1[y f < 1]
        max_out = max(max_out, int(np.abs(fD).max()))
        active += int(np.count_nonzero(d))
        T = act * d[:, None]  # (2^c, r), entries in {-1, 0, 1}
        Tsum += T
        colsum = T.sum(axis=0).astype(np.float64)
        gacc += colsum
        if n > c:
            Gacc[:, c:] += colsum[:, None] * xh[None, :].astype(np.float64)
    # sum_h T_h^T Xlow = (sum_h T_h)^T Xlow: every entry is an integer of magnitude <= 2^n < 2^53, exact in float64
    Gacc[:, :c] += Tsum.T.astype(np.float64) @ Xlow_f
    Gi = np.rint(Gacc).astype(np.int64) * u[:, None]
    gi = np.rint(gacc).astype(np.int64) * u
    return HingeGradient(
        n=n,
        G=tuple(tuple(int(v) for v in row) for row in Gi),
        gamma=tuple(int(v) for v in gi),
        max_abs_output=max_out,
        active_count=active,
    )


def mlp_hinge_gradient_ref(W, b_num, u, S, *, denom: int = 1) -> HingeGradient:
    """The same quantities by a plain loop over the cube (the slow, obvious oracle; n <= 12)."""
    W, b_num, u, mask, n, r, D = _validate(W, b_num, u, S, denom)
    if n > 12:
        raise ValueError(f"argument 'W' has n = {n} columns; the reference loop accepts n <= 12")
    X = sign_vectors(n).astype(int)
    G = [[0] * n for _ in range(r)]
    gam = [0] * r
    max_out = 0
    active = 0
    Wl = W.tolist()
    bl = b_num.tolist()
    ul = u.tolist()
    for x in X.tolist():
        y = 1
        for j in range(n):
            if mask >> j & 1:
                y *= x[j]
        pres = [D * sum(Wl[i][j] * x[j] for j in range(n)) + bl[i] for i in range(r)]
        fD = sum(ul[i] * max(p, 0) for i, p in enumerate(pres))
        max_out = max(max_out, abs(fD))
        d = -y if y * fD < D else 0
        active += d != 0
        for i in range(r):
            if pres[i] > 0:
                gam[i] += d * ul[i]
                for j in range(n):
                    G[i][j] += d * ul[i] * x[j]
    return HingeGradient(n=n, G=tuple(tuple(row) for row in G), gamma=tuple(gam), max_abs_output=max_out, active_count=active)
