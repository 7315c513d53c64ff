"""The two-pass CUDA Walsh-Hadamard schedule (kernels/cuda/wht_fused.py): its plan on the host (passes
cover every bit once, rounds cover every tile bit once, the shared-memory swizzle is a bank-conflict-free
bijection) and the kernels against the radix-2 reference (exact on int64, under the simulator or a GPU)."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.boolean.reference import wht_butterflies
from kernels.cuda.wht_fused import (
    MAX_TILE_BITS,
    fused_pass_schedule,
    producer_rounds,
    swizzle,
)
from tests.cuda_support import cuda_test


def test_n30_is_two_passes_of_16_and_14_bits():
    assert fused_pass_schedule(30) == [(0, 0, 12, 4), (16, 2, 10, 4)]
    assert len(fused_pass_schedule(27)) == 2
    assert len(fused_pass_schedule(31)) == 3


@pytest.mark.parametrize("T", [3, 4, 7, 12])
@pytest.mark.parametrize("R", [0, 1, 3])
def test_passes_cover_each_bit_once(T, R):
    for n in range(1, 41):
        bits = []
        for lo, cb, tr, r in fused_pass_schedule(n, T, min(R, T)):
            assert lo == len(bits) and tr >= 1 and cb + tr <= T and (lo == 0) == (cb == 0)
            bits += range(lo, lo + tr + r)
        assert bits == list(range(n)), (n, T, R)


@pytest.mark.parametrize("T", range(1, MAX_TILE_BITS + 2))
@pytest.mark.parametrize("cb", [0, 2])
def test_rounds_cover_tile_bits_once(T, cb):
    if T <= cb:
        return
    rounds = producer_rounds(T, cb)
    covered = [b for p, w in rounds for b in range(p, p + w)]
    assert covered == list(range(cb, T))  # every tile bit once, in ascending order (bit-for-bit rounding)
    assert all(1 <= w <= 3 for p, w in rounds) or T - cb == 0


def _half_warp_conflicts(T: int, cb: int, layout=swizzle) -> int:
    """Largest number of lanes of a half-warp that hit one 8-byte bank in any round of a producer."""
    worst = 1
    for p, w in producer_rounds(T, cb):
        items = 1 << (T - w)
        for h in range(0, items, 16):
            for j in range(1 << w):
                banks = [layout(((u >> p) << (p + w)) | (u & ((1 << p) - 1)) | (j << p)) % 16
                         for u in range(h, min(h + 16, items))]
                worst = max(worst, max(banks.count(b) for b in banks))
    return worst


@pytest.mark.parametrize("T", [11, 12])
@pytest.mark.parametrize("cb", [0, 2])
def test_swizzle_is_a_conflict_free_bijection(T, cb):
    assert sorted(swizzle(e) for e in range(1 << T)) == list(range(1 << T))
    assert _half_warp_conflicts(T, cb) == 1
    # the check can fail: without the swizzle some round has 2- to 8-way conflicts
    assert _half_warp_conflicts(T, cb, layout=lambda e: e) >= 2


@cuda_test
@pytest.mark.parametrize(
    "n,T,R,tpb",
    [(5, 3, 2, 4), (8, 4, 3, 8), (9, 4, 2, 4), (10, 5, 3, 4), (7, 3, 0, 4)],
    ids=["one-pass", "two-pass", "consumers-both-passes", "radix8", "no-consumers"],
)
def test_fused_equals_reference(n, T, R, tpb):
    from numba import cuda

    from kernels.cuda.wht_fused import wht_inplace_cuda_fused

    rng = np.random.default_rng(n * 100 + T * 10 + R)
    f = rng.integers(-9, 10, size=1 << n)
    d = cuda.to_device(f)
    info = {}
    wht_inplace_cuda_fused(d, tile_bits=T, radix_bits=R, tpb=tpb, blocks_per_sm=2, info=info)
    assert np.array_equal(d.copy_to_host(), wht_butterflies(f))
    assert len(info["passes"]) == len(fused_pass_schedule(n, T, R))
    x = rng.standard_normal(1 << n)
    d = cuda.to_device(x)
    wht_inplace_cuda_fused(d, tile_bits=T, radix_bits=R, tpb=tpb, blocks_per_sm=2)
    # the bits are applied in ascending order, as in the reference: the same roundings, bit for bit
    assert np.array_equal(d.copy_to_host(), wht_butterflies(x))


@cuda_test
@pytest.mark.parametrize(
    "kw,match",
    [
        pytest.param({"tile_bits": 2}, r"'tile_bits' must be an integer in \[3, 12\]", id="tile-2"),
        pytest.param({"tile_bits": 13}, r"'tile_bits' must be an integer in \[3, 12\]", id="tile-13"),
        pytest.param({"radix_bits": 5}, r"'radix_bits' must be an integer in \[0, 4\]", id="radix-5"),
        pytest.param({"tile_bits": 3, "radix_bits": 4}, r"'radix_bits' must be an integer in \[0, 3\]", id="radix-gt-tile"),
        pytest.param({"blocks_per_sm": 0}, r"'blocks_per_sm' must be an integer in \[1, 32\]", id="bps-0"),
        pytest.param({"method": "fast"}, r"'method' must be 'fused' or 'tiles'", id="method"),
    ],
)
def test_fused_arguments_are_validated(kw, match):
    from kernels.cuda.wht import wht_inplace_cuda

    with pytest.raises(ValueError, match=match):
        wht_inplace_cuda(np.zeros(16), **kw)
