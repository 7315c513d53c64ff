"""Random streams for the compiled kernels: stateful SplitMix64 and the counter-based Philox4x32-10.

Two generators, each as ``register_jitable`` scalar functions (callable from ``numba.njit`` code and
from ``numba.cuda.jit`` kernels alike) with a plain-Python reference twin (Python ints, the oracle of
the tests):

* **SplitMix64** (Steele, Lea & Flood 2014): a 64-bit state advanced by the golden-ratio increment and
  finalised by a bijective mixer.  ``splitmix64_next(state) -> (state, z)``; ``uniform_index`` draws
  an exactly uniform integer in [0, n) (n < 2^32) by Lemire's multiply-shift with rejection.  Used by
  kernels/training/readout_sgd.py, one sequential stream per run.

* **Philox4x32-10** (Salmon, Moraes, Dror & Shaw 2011, "Parallel random numbers: as easy as 1, 2, 3";
  the Random123 reference): a keyed bijection of a 128-bit counter, 10 rounds.  It is *counter-based*:
  the output at a position is a pure function of (key, counter), so a kernel can draw the numbers of
  any (run, step, index) directly, in any order, on any device, and replay one run alone.  The suite
  keys it as

      counter_u64(seed, step, index) = the low 64 bits of Philox4x32-10 with
          counter = (index mod 2^32, index div 2^32, step mod 2^32, step div 2^32),
          key     = (seed mod 2^32, seed div 2^32),

  (the output words 0 and 1, word 0 in the low half).  Derived draws: ``unit_double`` (53 random bits,
  uniform on [0, 1)), ``counter_bounded`` (exactly uniform in [0, n), n < 2^32: Lemire's method on the
  SplitMix64 stream started from the counter output, so a rejection never consults another position),
  and ``sign_from_bit`` (bit b of a word -> +1 for 0 and -1 for 1, the cube convention "bit set <=>
  x = -1").

Every integer operation is done on ``np.uint64`` values (numba would otherwise promote a mix of signed
and unsigned integers to float64), and every function is free of global state.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba.extending import register_jitable

from . import _checks

__all__ = [
    "counter_bounded",
    "counter_bounded_ref",
    "counter_u64",
    "counter_u64_array",
    "counter_u64_fill",
    "counter_u64_ref",
    "mix64",
    "philox4x32_10",
    "philox4x32_10_array",
    "philox4x32_10_ref",
    "sign_from_bit",
    "splitmix64_next",
    "uniform_index",
    "unit_double",
    "unit_double_ref",
]

_MASK32 = 0xFFFFFFFF
_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
# Philox4x32 multipliers and Weyl key increments (Random123, philox.h)
_PHILOX_M0 = 0xD2511F53
_PHILOX_M1 = 0xCD9E8D57
_PHILOX_W0 = 0x9E3779B9
_PHILOX_W1 = 0xBB67AE85
_PHILOX_ROUNDS = 10


# ---------------------------------------------------------------------------------------------
# SplitMix64 (stateful; moved here from kernels/training/readout_sgd.py)
# ---------------------------------------------------------------------------------------------


@register_jitable
def mix64(z):  # pragma: no cover - compiled
    """The SplitMix64 finaliser (a bijection of uint64); arithmetic wraps modulo 2^64."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@register_jitable
def splitmix64_next(state):  # pragma: no cover - compiled
    """One SplitMix64 step: (new state, 64-bit output); all arithmetic wraps modulo 2^64."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@register_jitable
def uniform_index(state, n, threshold):  # pragma: no cover - compiled
    """Exactly uniform index in [0, n) (n < 2^32): Lemire's method; ``threshold`` = 2^32 mod n."""
    while True:
        state, z = splitmix64_next(state)
        m = (z >> np.uint64(32)) * n
        if (m & np.uint64(0xFFFFFFFF)) >= threshold:
            return state, np.int64(m >> np.uint64(32))


# ---------------------------------------------------------------------------------------------
# Philox4x32-10 (counter-based)
# ---------------------------------------------------------------------------------------------


@register_jitable
def philox4x32_10(c0, c1, c2, c3, k0, k1):  # pragma: no cover - compiled
    """Philox4x32-10 of the counter (c0, c1, c2, c3) under the key (k0, k1); all arguments and the
    four results are uint64 values holding 32-bit words."""
    m32 = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    for r in range(10):
        if r > 0:
            k0 = (k0 + np.uint64(0x9E3779B9)) & m32
            k1 = (k1 + np.uint64(0xBB67AE85)) & m32
        # the masks change no value (every word is < 2^32): they show LLVM that the products are 32 x 32 -> 64
        # bits, so that a loop over counters vectorises (vpmuludq; ~6x faster on AVX2 than the scalar rounds)
        p0 = np.uint64(0xD2511F53) * (c0 & m32)
        p1 = np.uint64(0xCD9E8D57) * (c2 & m32)
        hi0 = p0 >> s32
        lo0 = p0 & m32
        hi1 = p1 >> s32
        lo1 = p1 & m32
        c0 = hi1 ^ c1 ^ k0
        c1 = lo1
        c2 = hi0 ^ c3 ^ k1
        c3 = lo0
    return c0, c1, c2, c3


def _counter_u64_from(philox):
    """``counter_u64`` on top of the Philox4x32-10 implementation ``philox`` (one definition for the two builds
    below)."""

    def counter_u64(seed, step, index):  # pragma: no cover - compiled
        """64 random bits at position (step, index) of the stream ``seed`` (all three uint64)."""
        m32 = np.uint64(0xFFFFFFFF)
        s32 = np.uint64(32)
        r0, r1, _r2, _r3 = philox(index & m32, index >> s32, step & m32, step >> s32, seed & m32, seed >> s32)
        return r0 | (r1 << s32)

    return counter_u64


#: every target (numba CPU, numba.cuda, and plain Python under the CUDA simulator)
counter_u64 = register_jitable(_counter_u64_from(philox4x32_10))
#: numba CPU only: the same function inlined at the numba IR level, Philox included, so that LLVM sees the whole
#: of a loop over counters and vectorises it (``counter_u64_fill``)
_counter_u64_inline = nb.njit(inline="always")(_counter_u64_from(nb.njit(inline="always")(philox4x32_10)))


@register_jitable
def counter_u64_fill(seed, step, first, stride, out, count):  # pragma: no cover - compiled
    """out[s] = counter_u64(seed, step, first + s stride) for s < count (numba CPU only), in one loop that LLVM
    vectorises across s (about 6x faster than one call at a time on AVX2: 32 x 32 -> 64-bit products)."""
    for s in range(count):
        out[s] = _counter_u64_inline(seed, step, first + np.uint64(s) * stride)


@register_jitable
def unit_double(z):  # pragma: no cover - compiled
    """The top 53 bits of a uint64 as a double in [0, 1) (every value a multiple of 2^-53)."""
    return np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@register_jitable
def sign_from_bit(word, b):  # pragma: no cover - compiled
    """+1.0 when bit b of ``word`` is 0, -1.0 when it is 1 (bit set <=> x = -1)."""
    return 1.0 - 2.0 * np.float64((word >> np.uint64(b)) & np.uint64(1))


@register_jitable
def counter_bounded(seed, step, index, n):  # pragma: no cover - compiled
    """Exactly uniform integer in [0, n) (1 <= n < 2^32, uint64) at position (step, index)."""
    threshold = (np.uint64(4294967296) - n) % n
    _state, j = uniform_index(counter_u64(seed, step, index), n, threshold)
    return j


# compiled array wrappers (for tests and for callers that want many draws at once)


@nb.njit(nb.uint64[:, :](nb.uint64[:, :], nb.uint64[:, :]), cache=True)
def _philox_rows(ctr, key):  # pragma: no cover - compiled
    out = np.empty_like(ctr)
    for r in range(ctr.shape[0]):
        a, b, c, d = philox4x32_10(ctr[r, 0], ctr[r, 1], ctr[r, 2], ctr[r, 3], key[r, 0], key[r, 1])
        out[r, 0] = a
        out[r, 1] = b
        out[r, 2] = c
        out[r, 3] = d
    return out


@nb.njit(nb.uint64[:](nb.uint64[:], nb.uint64[:], nb.uint64[:]), cache=True)
def _counter_rows(seeds, steps, indices):  # pragma: no cover - compiled
    out = np.empty_like(seeds)
    for r in range(seeds.shape[0]):
        out[r] = counter_u64(seeds[r], steps[r], indices[r])
    return out


def _uint_array(name: str, values, bits: int, ncols: int | None = None) -> np.ndarray:
    a = np.asarray(values)
    if a.dtype.kind not in "iu" or (a.dtype.kind == "i" and a.size and int(a.min()) < 0):
        raise ValueError(f"argument '{name}' must hold non-negative integers < 2^{bits}, not {values!r}")
    if a.size and int(a.max()) >> bits:
        raise ValueError(f"argument '{name}' must hold integers < 2^{bits}, not max {int(a.max())}")
    if ncols is not None and (a.ndim != 2 or a.shape[1] != ncols):
        raise ValueError(f"argument '{name}' must have shape (N, {ncols}), not {a.shape}")
    return np.ascontiguousarray(a, dtype=np.uint64)


def philox4x32_10_array(counters, keys) -> np.ndarray:
    """Compiled Philox4x32-10 of many counters (N, 4) under keys (N, 2) (32-bit words); (N, 4) uint64."""
    ctr = _uint_array("counters", counters, 32, 4)
    key = _uint_array("keys", keys, 32, 2)
    if key.shape[0] != ctr.shape[0]:
        raise ValueError(f"arguments 'counters' and 'keys' must have the same number of rows, not {ctr.shape[0]} and {key.shape[0]}")
    return _philox_rows(ctr, key)


def counter_u64_array(seeds, steps, indices) -> np.ndarray:
    """Compiled ``counter_u64`` elementwise over three equally long 1-D arrays of uint64 values."""
    s = _uint_array("seeds", seeds, 64).reshape(-1)
    t = _uint_array("steps", steps, 64).reshape(-1)
    i = _uint_array("indices", indices, 64).reshape(-1)
    if not (s.shape == t.shape == i.shape):
        raise ValueError(f"arguments 'seeds', 'steps', 'indices' must have equal lengths, not {s.shape}, {t.shape}, {i.shape}")
    return _counter_rows(s, t, i)


# ---------------------------------------------------------------------------------------------
# Python references (the oracles)
# ---------------------------------------------------------------------------------------------


def philox4x32_10_ref(counter, key) -> tuple[int, int, int, int]:
    """Philox4x32-10 in Python ints, written from Random123's philox.h (round: two 32x32 -> 64 products)."""
    c0, c1, c2, c3 = (int(v) & _MASK32 for v in counter)
    k0, k1 = (int(v) & _MASK32 for v in key)
    for r in range(_PHILOX_ROUNDS):
        if r:
            k0 = (k0 + _PHILOX_W0) & _MASK32
            k1 = (k1 + _PHILOX_W1) & _MASK32
        p0 = _PHILOX_M0 * c0
        p1 = _PHILOX_M1 * c2
        c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & _MASK32, (p0 >> 32) ^ c3 ^ k1, p0 & _MASK32
    return c0, c1, c2, c3


def counter_u64_ref(seed: int, step: int, index: int) -> int:
    """Reference of :func:`counter_u64` (Python ints)."""
    seed = _checks.require_int("seed", seed, min_value=0, max_value=_MASK64)
    step = _checks.require_int("step", step, min_value=0, max_value=_MASK64)
    index = _checks.require_int("index", index, min_value=0, max_value=_MASK64)
    r0, r1, _, _ = philox4x32_10_ref((index & _MASK32, index >> 32, step & _MASK32, step >> 32),
                                     (seed & _MASK32, seed >> 32))
    return r0 | (r1 << 32)


def unit_double_ref(z: int) -> float:
    """Reference of :func:`unit_double`: (z >> 11) / 2^53 (exact in float64)."""
    return float(int(z) >> 11) * (1.0 / 9007199254740992.0)


def _splitmix_out(state: int) -> tuple[int, int]:
    state = (state + _GAMMA) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
    return state, z ^ (z >> 31)


def counter_bounded_ref(seed: int, step: int, index: int, n: int) -> int:
    """Reference of :func:`counter_bounded` (Python ints)."""
    n = _checks.require_int("n", n, min_value=1, max_value=(1 << 32) - 1)
    state = counter_u64_ref(seed, step, index)
    threshold = ((1 << 32) - n) % n
    while True:
        state, z = _splitmix_out(state)
        m = (z >> 32) * n
        if (m & _MASK32) >= threshold:
            return m >> 32
