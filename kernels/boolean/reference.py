"""Slow, obviously correct oracles for the Boolean-cube kernels (numpy, written from the definitions).

These are the ground truth that the compiled CPU and CUDA twins are property-tested against; they are
also the ``backend="reference"`` path of the public wrappers and the exact Python-int fallback of the
Walsh-Hadamard transform (numpy object arrays hold Python ints of any size).
"""

from __future__ import annotations

import numpy as np

from ..activations import activation_value_numpy
from .cube import chi, sign_vectors

__all__ = ["wht_matrix", "wht_butterflies", "neuron_table_ref", "population_gradient_ref", "truth_table_ref"]


def wht_matrix(a: np.ndarray) -> np.ndarray:
    """(H a)[S] = sum_x a[x] (-1)^{popcount(S & x)} by the definition, as a dense 2^n x 2^n product.

    Meant for n <= 12; keeps the dtype of ``a`` (object arrays give exact Python-int results).
    """
    n = a.shape[0].bit_length() - 1
    idx = np.arange(1 << n, dtype=np.int64)
    parity = np.zeros((1 << n, 1 << n), dtype=np.int64)
    for i in range(n):
        bit = (idx >> i) & 1
        parity ^= bit[:, None] & bit[None, :]
    H = 1 - 2 * parity
    if a.dtype == object:
        return np.array([sum(int(h) * v for h, v in zip(row, a)) for row in H], dtype=object)
    return H.astype(a.dtype) @ a


def wht_butterflies(a: np.ndarray) -> np.ndarray:
    """Walsh-Hadamard transform by n vectorised radix-2 numpy stages; returns a new array.

    Works for any numpy dtype, including object arrays of Python ints (exact, no overflow).  This is
    also the "numpy vectorised butterflies" baseline of benchmarks/fwht.py.
    """
    out = np.array(a, copy=True)
    size = out.shape[0]
    h = 1
    while h < size:
        v = out.reshape(-1, 2, h)
        top = v[:, 0, :].copy()
        v[:, 0, :] += v[:, 1, :]
        v[:, 1, :] = top - v[:, 1, :]
        h *= 2
    return out


def neuron_table_ref(w: np.ndarray, b: float, code: int, params: np.ndarray) -> np.ndarray:
    """phi(w . x + b) at every point of the cube (float64, length 2^n)."""
    n = w.shape[0]
    z = sign_vectors(n).astype(np.float64) @ np.asarray(w, dtype=np.float64) + float(b)
    return activation_value_numpy(code, z, params)


def population_gradient_ref(w: np.ndarray, b: float, mask: int, code: int, params: np.ndarray):
    """(g, g0) with g_i = E_x[chi_S(x) x_i phi(w.x+b)] and g0 = E_x[chi_S(x) phi(w.x+b)], by direct sums."""
    n = w.shape[0]
    X = sign_vectors(n).astype(np.float64)
    v = neuron_table_ref(w, b, code, params) * chi(mask, n)
    return X.T @ v / (1 << n), float(v.sum()) / (1 << n)


def truth_table_ref(func, n: int, dtype=np.float64) -> np.ndarray:
    """[func(x) for x in the cube] with a plain Python loop (func takes an int8 array of ±1)."""
    X = sign_vectors(n)
    return np.array([func(x) for x in X], dtype=dtype)
