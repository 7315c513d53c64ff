"""Walsh-Hadamard transform and Fourier spectra of functions on the Boolean cube.

Conventions (kernels/boolean/cube.py): index bit i set <=> x_i = -1; subsets are bitmasks; the transform is
(H a)[S] = sum_x a[x] chi_S(x), and the Fourier coefficients of the thesis (seed 004, Eq. (B.2),
lines 2976-2982) are f^(S) = E_x[f(x) chi_S(x)] = (H f)[S] / 2^n.  H H = 2^n I.

Three twins with one signature, chosen by ``backend``:

* ``"reference"``: numpy radix-2 stages (kernels.boolean.reference.wht_butterflies), any dtype;
* ``"cpu"``: numba, cache-blocked, ``parallel=True`` (kernels/boolean/_wht_cpu.py);
* ``"cuda"``: numba.cuda, two passes through device memory up to n = 30 (kernels/cuda/wht.py, wht_fused.py).

Exactness: integer input is transformed in int64 when 2^n * max|a| < 2^63 (every butterfly stage at
most doubles the largest magnitude, so no intermediate value exceeds the final bound); beyond that the
transform falls back to exact Python ints (object arrays).  The result records which path ran.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import math

import numpy as np

from .. import _checks
from ..backend import resolve_backend
from .cube import popcounts
from .reference import wht_butterflies

__all__ = [
    "Spectrum",
    "fourier_spectrum",
    "int64_transform_is_safe",
    "truth_table",
    "wht",
    "wht_inplace",
]

_INT64_MAX = 2**63 - 1


def int64_transform_is_safe(n: int, max_abs: int) -> bool:
    """True when every value of an int64 transform of length 2^n with inputs |a| <= max_abs fits int64."""
    return (int(max_abs) << n) <= _INT64_MAX


def _int64_max_abs(a: np.ndarray) -> int:
    """max |a| of a C-contiguous int64 array as a Python int (no int64 overflow at -2^63)."""
    from ._wht_cpu import int64_min_max

    lo, hi = int64_min_max(a)
    return max(-int(lo), int(hi))


_INPLACE_DTYPES = (np.dtype(np.float64), np.dtype(np.int64))
_FLOAT64 = np.dtype(np.float64)
_cpu_kernel: list = []  # [wht_inplace_cpu, small_float64_inplace] of kernels.boolean._wht_cpu, imported lazily


def _load_cpu_kernel() -> None:
    global _small_kernel
    from ._wht_cpu import small_float64_inplace, wht_inplace_cpu

    _cpu_kernel[:] = [wht_inplace_cpu, small_float64_inplace]
    _small_kernel = small_float64_inplace


def _small_kernel_first_call(a) -> bool:
    """The first call of wht_inplace's fast path: import (compile or load) the CPU kernels, then call the small one."""
    _load_cpu_kernel()
    return _small_kernel(a)


#: wht_inplace's fast path (kernels.boolean._wht_cpu.small_float64_inplace once loaded): one global look-up per call
_small_kernel: Callable = _small_kernel_first_call


def _inplace(a: np.ndarray, backend: str) -> None:
    if backend == "cpu":
        if not _cpu_kernel:
            _load_cpu_kernel()
        _cpu_kernel[0](a)
    elif backend == "cuda":
        from ..cuda.wht import wht_inplace_cuda

        wht_inplace_cuda(a)
    else:  # reference
        a[...] = wht_butterflies(a)


def wht_inplace(a: np.ndarray, *, backend: str = "auto", check_finite: bool = True) -> str:
    """Transform ``a`` in place; return the backend that ran.

    ``a`` must be a C-contiguous 1-D float64 or int64 array of length 2^n.  For int64 the overflow bound
    2^n * max|a| < 2^63 is checked first (ValueError otherwise: use :func:`wht`, which falls back to
    Python ints).  float64 input must be finite (NaN and infinities make the transform meaningless):
    ``check_finite=False`` skips that scan, one extra read of ``a`` (as in scipy.linalg; the benchmarks
    do, since the peers they compare against check nothing).  Nothing is modified when validation fails.
    """
    if check_finite is False and backend == "cpu":
        # short float64 arrays: the kernel's signatures (writeable C-contiguous 1-D float64 or int64) and its
        # dtype and length checks are the validation (call overhead of FFHT's order, benchmarks/fwht.py: no checks
        # in Python); whatever it refuses or leaves (False) goes through the checks below
        try:
            if _small_kernel(a):
                return "cpu"
        except TypeError:
            pass
    if not isinstance(a, np.ndarray):
        raise ValueError(f"argument 'a' must be a numpy array, not {type(a).__name__}")
    n = _checks.require_power_of_two_length("a", a)
    dtype = a.dtype
    if dtype not in _INPLACE_DTYPES:
        raise ValueError(f"argument 'a' must have dtype float64 or int64 for an in-place transform, not {a.dtype}")
    flags = a.flags
    if not flags.c_contiguous or not flags.writeable:
        raise ValueError("argument 'a' must be a writeable C-contiguous array for an in-place transform")
    if dtype == _FLOAT64:
        if check_finite:
            _checks.require_finite("a", a, why="the Walsh-Hadamard transform of a non-finite vector is meaningless")
    elif n:
        max_abs = _int64_max_abs(a)
        if not int64_transform_is_safe(n, max_abs):
            raise ValueError(
                f"argument 'a' (int64, n = {n}, max|a| = {max_abs}) would overflow int64: the transform needs "
                f"2^n * max|a| <= 2^63 - 1; call kernels.boolean.wht(a) for the exact Python-int fallback"
            )
    used = backend if backend == "cpu" else resolve_backend(backend)  # "cpu" needs no look-up
    _inplace(a, used)
    return used


def wht(a, *, backend: str = "auto") -> np.ndarray:
    """Walsh-Hadamard transform of a length-2^n array, returned as a new array.

    float64 input gives float64; integer input gives exact int64 when the overflow bound allows it
    and an exact object array of Python ints otherwise; object arrays of Python ints (or Fractions)
    are transformed exactly by the numpy reference.  Other dtypes are refused with ValueError.

    float64 input must be finite: the check costs nothing, since entry 0 of the transform is the sum of
    all entries, non-finite exactly when some entry is (or when that sum overflows float64); only then is
    the input scanned, to name the entry.
    """
    return _transform(a, backend, "a")


def _transform(a, backend: str, name: str) -> np.ndarray:
    """:func:`wht`, with argument ``name`` in its error messages."""
    arr = np.asarray(a)
    n = _checks.require_power_of_two_length(name, arr)
    kind = arr.dtype.kind
    if kind == "f" and arr.dtype == np.float64:
        _checks.require_memory(name, f"array of length 2^{n}", arr.nbytes, what="a float64 copy")
        out = np.array(arr, dtype=np.float64, order="C", copy=True)
        _inplace(out, resolve_backend(backend))
        if not math.isfinite(out[0]):
            _checks.require_finite(name, arr, why="the Walsh-Hadamard transform of a non-finite vector is meaningless")
            raise ValueError(f"argument '{name}' (float64, n = {n}): the transform overflows float64 (the sum of the "
                             f"entries is {out[0]!r}); scale the input down")
        return out
    if kind in "iub":
        if arr.dtype == np.uint64 and int(arr.max()) > _INT64_MAX:
            return wht_butterflies(arr.astype(object))
        out = np.array(arr, dtype=np.int64, order="C", copy=True)
        if int64_transform_is_safe(n, _int64_max_abs(out)):
            _inplace(out, resolve_backend(backend))
            return out
        return wht_butterflies(arr.astype(object))
    if kind == "O":
        return wht_butterflies(arr)
    raise ValueError(
        f"argument '{name}' must hold float64, integers or Python ints (object), not dtype {arr.dtype}; "
        "cast float32/complex input explicitly"
    )


@dataclass(frozen=True)
class Spectrum:
    """Fourier spectrum of f: {±1}^n -> R, stored as the transform H f (so f^(S) = values[S] / 2^n).

    ``exact`` is True when ``values`` holds integers (int64 or Python ints): coefficients are then
    returned as Fractions.
    """

    n: int
    values: np.ndarray
    exact: bool

    @property
    def scale(self) -> int:
        return 1 << self.n

    def coefficient(self, S) -> Fraction | float:
        """f^(S) for a bitmask or an iterable of indices."""
        mask = _checks.require_subset("S", S, self.n)
        v = self.values[mask]
        return Fraction(int(v), self.scale) if self.exact else float(v) / self.scale

    def coefficients(self) -> np.ndarray:
        """All f^(S) as float64 (rounded when exact)."""
        return np.asarray(self.values, dtype=np.float64) / self.scale

    def degrees(self) -> np.ndarray:
        """|S| for every index S."""
        return popcounts(self.n)

    def by_degree(self) -> list[np.ndarray]:
        """Float coefficients grouped by |S| = 0..n (each group in increasing bitmask order)."""
        deg = self.degrees()
        c = self.coefficients()
        return [c[deg == k] for k in range(self.n + 1)]

    def weights(self) -> list:
        """W^k[f] = sum_{|S|=k} f^(S)^2 for k = 0..n (Fractions when exact)."""
        deg = self.degrees()
        if self.exact:
            sq = [0] * (self.n + 1)
            for d, v in zip(deg.tolist(), self.values.tolist()):
                sq[d] += int(v) * int(v)
            return [Fraction(s, self.scale * self.scale) for s in sq]
        c = self.coefficients()
        return [float(np.sum(c[deg == k] ** 2)) for k in range(self.n + 1)]


def fourier_spectrum(f, n: int | None = None, *, backend: str = "auto") -> Spectrum:
    """Fourier spectrum of f given as a truth table (length 2^n) or as a jitted function of x.

    A callable ``f`` must be a numba-compiled function of an int8 array x in {±1}^n; ``n`` is then
    required.  Integer truth tables give an exact spectrum.
    """
    if callable(f):
        if n is None:
            raise ValueError("argument 'n' is required when 'f' is a function of x")
        table = truth_table(f, n)
    else:
        table = np.asarray(f)
        m = _checks.require_power_of_two_length("f", table)
        if n is not None and n != m:
            raise ValueError(f"argument 'n' = {n} does not match the truth table length 2^{m}")
    values = _transform(table, backend, "f")
    return Spectrum(n=table.shape[0].bit_length() - 1, values=values, exact=values.dtype != np.float64)


_TABLE_KERNELS: dict = {}


def _table_kernel(func: Callable):
    kern = _TABLE_KERNELS.get(func)
    if kern is None:
        import numba as nb

        @nb.njit(parallel=True)
        def kern(n, out):  # pragma: no cover - compiled
            chunk = 1024 if out.shape[0] >= 1024 else out.shape[0]
            nchunks = out.shape[0] // chunk
            for q in nb.prange(nchunks):
                x = np.empty(n, dtype=np.int8)
                for idx in range(q * chunk, (q + 1) * chunk):
                    for i in range(n):
                        x[i] = 1 - 2 * ((idx >> i) & 1)
                    out[idx] = func(x)

        _TABLE_KERNELS[func] = kern
    return kern


def truth_table(func: Callable, n: int, *, dtype=np.float64) -> np.ndarray:
    """[func(x) for x in {±1}^n] in index order, with ``func`` a numba-jitted function of an int8 array.

    ``dtype`` is float64 or int64.  The table is filled in parallel; each entry depends only on x, so
    the result does not depend on the thread schedule.
    """
    n = _checks.require_cube_dim("n", n)
    if not hasattr(func, "py_func"):
        raise ValueError(
            "argument 'func' must be a numba-compiled function (decorate it with @numba.njit); "
            f"got {type(func).__name__}; use kernels.boolean.reference.truth_table_ref for plain Python"
        )
    if np.dtype(dtype) not in (np.float64, np.int64):
        raise ValueError(f"argument 'dtype' must be float64 or int64, not {np.dtype(dtype)}")
    out = np.empty(1 << n, dtype=dtype)
    _table_kernel(func)(n, out)
    return out
