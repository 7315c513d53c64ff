"""Indexing conventions for the Boolean cube {±1}^n.

A point x in {±1}^n is stored as an integer index ``idx`` in [0, 2^n): bit i of ``idx`` is 1 exactly
when x_i = -1 (coordinates are 0-based).  A subset S of [n] = {0, ..., n-1} is a bitmask in the same
layout, so that the character chi_S(x) = prod_{i in S} x_i equals (-1)^{popcount(S & idx)}.  With this
convention the Walsh-Hadamard transform (H a)[S] = sum_x a[x] chi_S(x) and the Fourier coefficients
of the thesis (seed 004, Eq. (B.2), lines 2976-2982) are f^(S) = E_x[f(x) chi_S(x)] = (H f)[S] / 2^n.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

__all__ = [
    "chi",
    "mask_of",
    "popcounts",
    "sign_vectors",
    "subset_of",
    "subsets_of_size",
]


def mask_of(subset: Iterable[int]) -> int:
    """Bitmask of a subset given by its (0-based) indices: ``mask_of([0, 2]) == 0b101``."""
    mask = 0
    for i in subset:
        mask |= 1 << int(i)
    return mask


def subset_of(mask: int) -> tuple[int, ...]:
    """Sorted indices of a bitmask: ``subset_of(0b101) == (0, 2)``."""
    mask = int(mask)
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return tuple(out)


def popcounts(n: int, dtype=np.int64) -> np.ndarray:
    """|S| for every bitmask S in [0, 2^n), built by doubling in O(2^n).

    ``dtype=np.uint8`` saves memory for large n (values are at most n <= 40); mind unsigned arithmetic.
    """
    out = np.zeros(1 << n, dtype=dtype)
    size = 1
    for _ in range(n):
        np.add(out[:size], 1, out=out[size : 2 * size])
        size *= 2
    return out


def sign_vectors(n: int) -> np.ndarray:
    """All points of {±1}^n as an int8 array of shape (2^n, n); row ``idx`` is the point of that index."""
    idx = np.arange(1 << n, dtype=np.int64)
    bits = (idx[:, None] >> np.arange(n, dtype=np.int64)[None, :]) & 1
    return (1 - 2 * bits).astype(np.int8)


def chi(mask: int, n: int) -> np.ndarray:
    """The character chi_S on the whole cube as an int8 array of length 2^n."""
    idx = np.arange(1 << n, dtype=np.int64)
    par = np.zeros(1 << n, dtype=np.int64)
    m = int(mask)
    i = 0
    while m:
        if m & 1:
            par ^= (idx >> i) & 1
        m >>= 1
        i += 1
    return (1 - 2 * par).astype(np.int8)


def subsets_of_size(n: int, k: int) -> np.ndarray:
    """All bitmasks S in [0, 2^n) with |S| = k, in increasing order."""
    return np.flatnonzero(popcounts(n) == k).astype(np.int64)
