"""Counter-based Philox4x32-10 stream (kernels/rng.py): published known answers, compiled == Python
reference, derived draws (unit doubles, bounded integers, sign bits), uniformity."""

from __future__ import annotations

from collections import Counter

import numba as nb
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels.rng import (
    counter_bounded,
    counter_bounded_ref,
    counter_u64,
    counter_u64_array,
    counter_u64_fill,
    counter_u64_ref,
    philox4x32_10_array,
    philox4x32_10_ref,
    sign_from_bit,
    splitmix64_next,
    unit_double,
    unit_double_ref,
)

# Random123's kat_vectors for philox4x32_10 (Salmon et al. 2011): counter, key, output
KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]

U64 = st.integers(0, 2**64 - 1)


@nb.njit
def _bounded_many(seed, step, n, count):  # pragma: no cover - compiled
    out = np.empty(count, dtype=np.int64)
    for i in range(count):
        out[i] = counter_bounded(seed, step, np.uint64(i), n)
    return out


@nb.njit
def _units_and_signs(seed, count):  # pragma: no cover - compiled
    u = np.empty(count)
    bits = np.zeros(64)
    for i in range(count):
        z = counter_u64(seed, np.uint64(7), np.uint64(i))
        u[i] = unit_double(z)
        for b in range(64):
            bits[b] += sign_from_bit(z, b)
    return u, bits


@nb.njit
def _splitmix_first(seed, count):  # pragma: no cover - compiled
    out = np.empty(count, dtype=np.uint64)
    state = seed
    for i in range(count):
        state, out[i] = splitmix64_next(state)
    return out


@pytest.mark.parametrize("ctr,key,expected", KAT)
def test_philox_known_answers(ctr, key, expected):
    assert philox4x32_10_ref(ctr, key) == expected
    assert tuple(int(v) for v in philox4x32_10_array([ctr], [key])[0]) == expected


@given(st.lists(st.tuples(U64, U64, U64), min_size=1, max_size=8))
def test_compiled_counter_stream_equals_reference(triples):
    seeds, steps, idx = (np.array(col, dtype=np.uint64) for col in zip(*triples))
    got = counter_u64_array(seeds, steps, idx)
    assert [int(v) for v in got] == [counter_u64_ref(*t) for t in triples]


def test_counter_layout_is_the_documented_philox_words():
    seed, step, index = 0x0123456789ABCDEF, 0xFEDCBA9876543210, 0x1122334455667788
    r = philox4x32_10_ref((index & 0xFFFFFFFF, index >> 32, step & 0xFFFFFFFF, step >> 32), (seed & 0xFFFFFFFF, seed >> 32))
    assert counter_u64_ref(seed, step, index) == r[0] | (r[1] << 32)


@nb.njit
def _fill(seed, step, first, stride, count):  # pragma: no cover - compiled
    out = np.zeros(count + 1, dtype=np.uint64)
    counter_u64_fill(seed, step, first, stride, out, count)
    return out


@given(U64, U64, st.integers(0, 2**64 - 1 - 40 * 3), st.integers(1, 3), st.integers(0, 40))
def test_vectorised_fill_equals_the_reference_stream(seed, step, first, stride, count):
    """counter_u64_fill (the inlined, vectorised loop of the CPU engine's draws) gives counter_u64 at first + s stride
    for every s < count (counts across the vector width and its remainder, 64-bit counters near the top) and writes
    nothing else."""
    got = _fill(np.uint64(seed), np.uint64(step), np.uint64(first), np.uint64(stride), count)
    assert [int(v) for v in got[:count]] == [counter_u64_ref(seed, step, first + s * stride) for s in range(count)]
    assert int(got[count]) == 0


@given(U64, st.integers(0, 2**40), st.integers(1, 2**32 - 1))
def test_compiled_bounded_equals_reference(seed, step, n):
    got = _bounded_many(np.uint64(seed), np.uint64(step), np.uint64(n), 5)
    assert [int(v) for v in got] == [counter_bounded_ref(seed, step, i, n) for i in range(5)]
    assert all(0 <= v < n for v in got)


@pytest.mark.parametrize("n", [3, 7, 10])
def test_bounded_frequencies(n):
    # 60,000 draws (deterministic): chi-square with n-1 dof stays far below its 0.999 quantile (< 30)
    draws = 60_000
    counts = Counter(_bounded_many(np.uint64(99 + n), np.uint64(5), np.uint64(n), draws).tolist())
    expected = draws / n
    assert set(counts) == set(range(n))
    assert sum((c - expected) ** 2 / expected for c in counts.values()) < 30.0


def test_unit_doubles_and_sign_bits():
    count = 20_000
    u, bits = _units_and_signs(np.uint64(2024), count)
    assert np.all((u >= 0) & (u < 1))
    assert np.all(u * 2.0**53 == np.floor(u * 2.0**53))
    assert unit_double_ref(counter_u64_ref(2024, 7, 3)) == u[3]
    assert abs(u.mean() - 0.5) < 5 * np.sqrt(1 / 12 / count)
    # every bit position is balanced: |sum of +-1| <= 5 sqrt(count)
    assert np.max(np.abs(bits)) <= 5 * np.sqrt(count)


def test_splitmix_stream_is_the_published_one():
    # Vigna's splitmix64.c from state 0
    assert [int(v) for v in _splitmix_first(np.uint64(0), 3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@pytest.mark.parametrize(
    "call,match",
    [
        pytest.param(lambda: counter_u64_ref(-1, 0, 0), "seed", id="seed-negative"),
        pytest.param(lambda: counter_u64_ref(0, 2**64, 0), "step", id="step-too-big"),
        pytest.param(lambda: counter_bounded_ref(0, 0, 0, 0), "n", id="n-zero"),
        pytest.param(lambda: philox4x32_10_array([[0, 0, 0]], [[0, 0]]), "counters", id="counter-shape"),
        pytest.param(lambda: philox4x32_10_array([[0, 0, 0, 2**32]], [[0, 0]]), "counters", id="counter-word"),
        pytest.param(lambda: counter_u64_array([1, 2], [1], [1, 2]), "equal lengths", id="lengths"),
    ],
)
def test_bad_arguments_name_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()
