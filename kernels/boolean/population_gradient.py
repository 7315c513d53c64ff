"""Exhaustive population gradients of a single neuron over the Boolean cube.

For a neuron phi(w . x + b) (phi = sigma or sigma', see kernels/activations.py) and a parity
y = chi_S(x), this computes, over all 2^n points x of the cube,

    g_i = E_x[ chi_S(x) x_i phi(w . x + b) ]   (i = 0..n-1)   and   g_0 = E_x[ chi_S(x) phi(w . x + b) ].

With phi = sigma' these are the negated population gradients of the correlation loss
l(y, yhat) = -y yhat (seed 004, Prop. B.7, lines 3319-3331) and of the hinge loss at a zero-output
network (Eq. (B.4), lines 3060-3066).  Since x_i chi_S = chi_{S xor {i}}, g_i is the Fourier
coefficient of h = phi(w . x + b) at S xor {i}: at S \\ {i} for i in S and at S u {i} otherwise.

Algorithm, O(2^n) per neuron: split x into c low and n - c high bits.  Tables of the low-bit partial
dot products and characters are built once; each high pattern h (one "block" of 2^c points) then
costs one table lookup per point.  Per block the kernels produce the block sum and the c low-bit
correlations; the high-bit correlations are the degree-1 transform of the block sums (computed by
folding, 2 * 2^{n-c} additions).  The CPU twin folds each block in O(2^c); the CUDA twin (one
thread per block) accumulates c products per point.  Block results are reduced in a fixed order,
so CPU results are reproducible bit for bit.  For integer-valued phi (STEP, SIGN) every partial sum
is an integer below 2^53, hence the float64 results are exact rationals with denominator 2^n.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import prange

from .. import _checks
from ..activations import Activation, activation_value
from ..backend import resolve_backend
from .reference import population_gradient_ref

__all__ = ["population_gradient", "neuron_table", "NeuronGradient"]

LOW_BITS_CPU = 12
LOW_BITS_CUDA = 8
_PARALLEL_MIN_BLOCKS = 4  # fewer blocks of 2^12 points run serially (thread start-up would dominate)


def _low_tables(w: np.ndarray, mask: int, c: int):
    """dot_low[l] = sum_{i<c} w_i x_i(l) and chi_low[l] = chi_{S cap [c]}(l) for l in [0, 2^c)."""
    idx = np.arange(1 << c, dtype=np.int64)
    signs = 1 - 2 * ((idx[:, None] >> np.arange(c)[None, :]) & 1)
    dot = signs @ w[:c].astype(np.float64) if c else np.zeros(1)
    par = np.zeros(1 << c, dtype=np.int64)
    for i in range(c):
        if mask >> i & 1:
            par ^= (idx >> i) & 1
    return np.ascontiguousarray(dot, dtype=np.float64), (1 - 2 * par).astype(np.float64)


def _high_tables(w: np.ndarray, mask: int, c: int, n: int):
    """The same for the high bits c..n-1, indexed by the high pattern h in [0, 2^{n-c})."""
    m = n - c
    dot = np.zeros(1, dtype=np.float64)
    chi = np.ones(1, dtype=np.float64)
    for i in range(m):  # doubling: pattern h + 2^i flips coordinate c + i
        wi = float(w[c + i])
        s = -1.0 if mask >> (c + i) & 1 else 1.0
        dot = np.concatenate([dot + wi, dot - wi])
        chi = np.concatenate([chi, chi * s])
    return dot, chi


@nb.njit(inline="always")
def _one_block(h, dot_low, chi_low, dot_high, chi_high, b, code, params, c, block_sums, low_corr):  # pragma: no cover
    """Block h (one high pattern): values of the 2^c points, then folded into the block sum and the c
    low-bit correlations (the top bit of the current length gives one correlation, halves are added)."""
    nlow = dot_low.shape[0]
    buf = np.empty(nlow, dtype=np.float64)
    dh = dot_high[h] + b
    ch = chi_high[h]
    for l in range(nlow):
        buf[l] = ch * chi_low[l] * activation_value(code, dh + dot_low[l], params)
    length = nlow
    for i in range(c - 1, -1, -1):
        half = length >> 1
        s = 0.0
        for l in range(half):
            lo_v = buf[l]
            hi_v = buf[l + half]
            s += lo_v - hi_v
            buf[l] = lo_v + hi_v
        low_corr[h, i] = s
        length = half
    block_sums[h] = buf[0]


@nb.njit(parallel=True, cache=True)
def _blocks_cpu(dot_low, chi_low, dot_high, chi_high, b, code, params, c, block_sums, low_corr):  # pragma: no cover
    for h in prange(dot_high.shape[0]):
        _one_block(h, dot_low, chi_low, dot_high, chi_high, b, code, params, c, block_sums, low_corr)


@nb.njit(cache=True)
def _blocks_cpu_serial(dot_low, chi_low, dot_high, chi_high, b, code, params, c, block_sums, low_corr):  # pragma: no cover
    """The same for a handful of blocks: serial, no thread start-up cost."""
    for h in range(dot_high.shape[0]):
        _one_block(h, dot_low, chi_low, dot_high, chi_high, b, code, params, c, block_sums, low_corr)


def _fold_degree_one(values: np.ndarray, m: int) -> np.ndarray:
    """corr[i] = sum_h values[h] * (1 - 2 bit_i(h)) for i < m, by repeated halving (O(len))."""
    out = np.zeros(m, dtype=np.float64)
    buf = np.array(values, dtype=np.float64)
    for i in range(m - 1, -1, -1):
        half = buf.shape[0] >> 1
        out[i] = float(np.sum(buf[:half] - buf[half:]))
        buf = buf[:half] + buf[half:]
    return out


class NeuronGradient(tuple):
    """(g, g0): g[i] = E[chi_S x_i phi(w.x+b)] for i = 0..n-1 and g0 = E[chi_S phi(w.x+b)]."""

    __slots__ = ()

    def __new__(cls, g, g0):
        return super().__new__(cls, (g, g0))

    @property
    def g(self) -> np.ndarray:
        return self[0]

    @property
    def g0(self) -> float:
        return self[1]


def _validate(w, b, S, activation):
    if not isinstance(activation, Activation):
        raise ValueError(f"argument 'activation' must be a kernels.Activation, not {type(activation).__name__}")
    w = np.asarray(w)
    if w.ndim != 1 or w.dtype.kind not in "iuf":
        raise ValueError(f"argument 'w' must be a 1-D real array (length n), not shape {w.shape}, dtype {w.dtype}")
    n = _checks.require_cube_dim("w", w.shape[0], itemsize=8, copies=1)
    if n < 1:
        raise ValueError("argument 'w' must have length n >= 1")
    mask = _checks.require_subset("S", S, n)
    try:
        b = float(b)
    except (TypeError, ValueError):
        raise ValueError(f"argument 'b' must be a real number, not {b!r}") from None
    _checks.require_finite("b", b, why="the gradient is undefined")
    _checks.require_finite("w", w, why="the gradient is undefined")
    return np.ascontiguousarray(w, dtype=np.float64), b, mask, n


def population_gradient(w, b, S, activation: Activation, *, backend: str = "auto") -> NeuronGradient:
    """Exhaustive (g, g0) of the neuron phi(w . x + b) against chi_S; see the module docstring.

    ``activation`` is phi itself (pass ``act.derivative()`` for sigma').  ``S`` is a bitmask or an
    iterable of 0-based indices.  Memory: O(2^{n-c}) beyond the inputs.
    """
    w, b, mask, n = _validate(w, b, S, activation)
    used = resolve_backend(backend)
    code, params = activation.code, activation.param_array()
    if used == "reference":
        _checks.require_memory("w", n, (1 << n) * (n + 2) * 8, what="the dense reference sum")
        g, g0 = population_gradient_ref(w, b, mask, code, params)
        return NeuronGradient(g, g0)
    c = min(n, LOW_BITS_CPU if used == "cpu" else LOW_BITS_CUDA)
    dot_low, chi_low = _low_tables(w, mask, c)
    dot_high, chi_high = _high_tables(w, mask, c, n)
    nblocks = dot_high.shape[0]
    block_sums = np.empty(nblocks, dtype=np.float64)
    low_corr = np.empty((nblocks, max(c, 1)), dtype=np.float64)
    if used == "cpu":
        blocks = _blocks_cpu if nblocks >= _PARALLEL_MIN_BLOCKS else _blocks_cpu_serial
        blocks(dot_low, chi_low, dot_high, chi_high, b, code, params, c, block_sums, low_corr)
    else:
        from ..cuda.population_gradient import blocks_cuda

        blocks_cuda(dot_low, chi_low, dot_high, chi_high, b, code, params, c, block_sums, low_corr)
    scale = float(1 << n)
    g = np.empty(n, dtype=np.float64)
    g[:c] = np.sum(low_corr[:, :c], axis=0) / scale
    g[c:] = _fold_degree_one(block_sums, n - c) / scale
    return NeuronGradient(g, float(np.sum(block_sums)) / scale)


def neuron_table(w, b, activation: Activation, *, backend: str = "auto") -> np.ndarray:
    """phi(w . x + b) at every point of the cube (float64, length 2^n, index order of kernels.boolean.cube)."""
    w, b, _, n = _validate(w, b, 0, activation)
    _checks.require_memory("w", n, (1 << n) * 8, what="the truth table")
    used = resolve_backend(backend)
    code, params = activation.code, activation.param_array()
    if used == "reference":
        from .reference import neuron_table_ref

        return neuron_table_ref(w, b, code, params)
    c = min(n, LOW_BITS_CPU)
    dot_low, _ = _low_tables(w, 0, c)
    dot_high, _ = _high_tables(w, 0, c, n)
    out = np.empty(1 << n, dtype=np.float64)
    table = _table_cpu if dot_high.shape[0] >= _PARALLEL_MIN_BLOCKS else _table_cpu_serial
    table(dot_low, dot_high, b, code, params, out)
    return out


@nb.njit(inline="always")
def _table_block(h, dot_low, dot_high, b, code, params, out):  # pragma: no cover
    nlow = dot_low.shape[0]
    dh = dot_high[h] + b
    base = h * nlow
    for l in range(nlow):
        out[base + l] = activation_value(code, dh + dot_low[l], params)


@nb.njit(parallel=True, cache=True)
def _table_cpu(dot_low, dot_high, b, code, params, out):  # pragma: no cover
    for h in prange(dot_high.shape[0]):
        _table_block(h, dot_low, dot_high, b, code, params, out)


@nb.njit(cache=True)
def _table_cpu_serial(dot_low, dot_high, b, code, params, out):  # pragma: no cover
    for h in range(dot_high.shape[0]):
        _table_block(h, dot_low, dot_high, b, code, params, out)
