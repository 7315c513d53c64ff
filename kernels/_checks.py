"""Argument validation shared by the public kernel wrappers.

Every public kernel validates its arguments here, before any large allocation, and raises
``ValueError`` with a message naming the argument, the value and the allowed range.  Compiled
bodies never validate (see docs/architecture.md, "Adding a kernel").
"""

from __future__ import annotations

import math
import numbers
import os

import numpy as np

__all__ = [
    "MAX_CUBE_DIM",
    "available_memory_bytes",
    "format_bytes",
    "require_cube_dim",
    "require_finite",
    "require_int",
    "require_power_of_two_length",
    "require_subset",
    "require_memory",
]

#: Hard ceiling on the cube dimension any exhaustive kernel accepts (2^40 entries = 8 TiB of float64).
MAX_CUBE_DIM = 40


def format_bytes(nbytes: float) -> str:
    """Human-readable byte count (binary prefixes), e.g. ``format_bytes(2**30) == '1.0 GiB'``."""
    value = float(nbytes)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if value < 1024 or unit == "PiB":
            return f"{value:.1f} {unit}" if unit != "B" else f"{int(value)} B"
        value /= 1024
    raise AssertionError("unreachable")


def available_memory_bytes() -> int:
    """Memory the process may still allocate: ``MemAvailable`` from /proc/meminfo, else total RAM."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX fallback
        return 8 * 2**30


def require_int(name: str, value, *, min_value: int | None = None, max_value: int | None = None) -> int:
    """Return ``value`` as a Python int, or raise ValueError naming ``name``, the value and the range.

    Booleans and non-integral numbers (``3.5``, ``'3'``) are refused; integral numpy scalars are accepted.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(
            f"argument '{name}' must be an integer{_range_text(min_value, max_value)}, "
            f"not {value!r} ({type(value).__name__})"
        )
    value = int(value)
    if (min_value is not None and value < min_value) or (max_value is not None and value > max_value):
        raise ValueError(
            f"argument '{name}' must be an integer{_range_text(min_value, max_value)}, not {value}"
        )
    return value


def _range_text(lo, hi) -> str:
    if lo is not None and hi is not None:
        return f" in [{lo}, {hi}]"
    if lo is not None:
        return f" >= {lo}"
    if hi is not None:
        return f" <= {hi}"
    return ""


#: allocations up to this size are not checked against the available memory: reading /proc/meminfo costs
#: ~20 microseconds, the checks run on every kernel call (thousands per claim), and a machine with less than
#: this free cannot run the suite at all
UNCHECKED_BYTES = 1 << 24


def require_memory(name: str, value, nbytes: int, *, what: str, fraction: float = 0.8) -> None:
    """Refuse an allocation of ``nbytes`` that would not fit in ``fraction`` of the available memory (allocations
    of at most :data:`UNCHECKED_BYTES` pass unchecked)."""
    if nbytes <= UNCHECKED_BYTES:
        return
    avail = available_memory_bytes()
    if nbytes > fraction * avail:
        raise ValueError(
            f"argument '{name}' = {value} needs {format_bytes(nbytes)} for {what}, but only "
            f"{format_bytes(avail)} of memory is available here (at most {fraction:.0%} of it may be used)"
        )


def require_cube_dim(name: str, n, *, itemsize: int = 8, copies: int = 1, max_value: int = MAX_CUBE_DIM) -> int:
    """Validate a cube dimension ``n`` and that ``copies`` arrays of 2^n items of ``itemsize`` bytes fit."""
    n = require_int(name, n, min_value=0, max_value=max_value)
    require_memory(name, n, copies * itemsize * (1 << n), what=f"{copies} array(s) of 2^{n} entries of {itemsize} bytes")
    return n


def require_power_of_two_length(name: str, a: np.ndarray) -> int:
    """Return n for a 1-D array of length 2^n, else raise ValueError naming ``name``."""
    if a.ndim != 1:
        raise ValueError(f"argument '{name}' must be a 1-D array, not an array of shape {a.shape}")
    size = a.shape[0]
    if size < 1 or size & (size - 1):
        raise ValueError(
            f"argument '{name}' must have a power-of-two length 2^n (n = 0..{MAX_CUBE_DIM}), not length {size}"
        )
    n = size.bit_length() - 1
    if n > MAX_CUBE_DIM:
        raise ValueError(f"argument '{name}' has length 2^{n}; the cube kernels accept n <= {MAX_CUBE_DIM}")
    return n


def require_subset(name: str, subset, n: int) -> int:
    """Validate a subset of [n] (0-based) given as an iterable of indices or a bitmask; return the bitmask."""
    if isinstance(subset, bool):
        raise ValueError(f"argument '{name}' must be a bitmask or an iterable of indices in [0, {n - 1}], not {subset!r}")
    if isinstance(subset, numbers.Integral):
        mask = int(subset)
        if mask < 0 or mask >> n:
            raise ValueError(
                f"argument '{name}' as a bitmask must lie in [0, 2^{n} - 1] = [0, {(1 << n) - 1}], not {mask}"
            )
        return mask
    try:
        items = list(subset)
    except TypeError:
        raise ValueError(
            f"argument '{name}' must be a bitmask or an iterable of indices in [0, {n - 1}], not {subset!r}"
        ) from None
    mask = 0
    for i in items:
        i = require_int(f"{name}[...]", i, min_value=0, max_value=n - 1)
        if mask >> i & 1:
            raise ValueError(f"argument '{name}' repeats index {i}; a subset lists each index once")
        mask |= 1 << i
    return mask


_FINITE_CHUNK = 1 << 20


def _all_pass_in_chunks(arr: np.ndarray, allow_inf: bool) -> bool:
    flat = arr.reshape(-1)  # a view for contiguous arrays
    for start in range(0, flat.size, _FINITE_CHUNK):
        seg = flat[start:start + _FINITE_CHUNK]
        if (np.isnan(seg).any() if allow_inf else not np.isfinite(seg).all()):
            return False
    return True


def require_finite(name: str, value, *, allow_inf: bool = False, why: str = "the result is undefined"):
    """Return ``value`` unchanged, or raise ValueError naming ``name`` when it holds a NaN (or an infinity,
    unless ``allow_inf``): a real number or an array of them.  Integers, Fractions and integer, boolean
    or object arrays pass as they are (they hold no NaN).  Sequences of arrays: check each item."""
    want = "not NaN" if allow_inf else "finite"
    if isinstance(value, (bool, numbers.Rational)):
        return value
    if isinstance(value, numbers.Number):
        v = complex(value)
        if math.isnan(v.real) or math.isnan(v.imag) or (not allow_inf and (math.isinf(v.real) or math.isinf(v.imag))):
            raise ValueError(f"argument '{name}' must be a{' finite' if not allow_inf else ''} real number"
                             f"{' (not NaN)' if allow_inf else ''}, not {value!r} ({why})")
        return value
    try:
        arr = value if isinstance(value, np.ndarray) else np.asarray(value)
    except (ValueError, TypeError):  # ragged: leave it to the caller's own checks
        return value
    if arr.dtype.kind not in "fc" or arr.size == 0:
        return value
    if arr.size > _FINITE_CHUNK and _all_pass_in_chunks(arr, allow_inf):
        return value  # large arrays: scanned in chunks, no mask as large as the array on the passing path
    bad = np.isnan(arr) if allow_inf else ~np.isfinite(arr)
    if bad.any():
        where = np.argwhere(bad)
        idx = tuple(int(i) for i in where[0])
        label = f"{name}[{', '.join(map(str, idx))}]" if idx else name
        count = len(where)
        raise ValueError(f"argument '{name}' must be {want}, but {label} = {arr[idx].item()!r} "
                         f"({count} {'NaN' if allow_inf else 'non-finite'} entr{'y' if count == 1 else 'ies'}; {why})")
    return value
