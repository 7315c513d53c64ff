"""kernels.boolean.polynet_flow_quadrature.abs_block_sums: the half merges (_upper_half_sums) give the values of the
full merges (_sorted_abs_sums) bit for bit, and fall back to them where a sum could overflow."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.boolean.polynet_flow_quadrature import _sorted_abs_sums, _upper_half_sums, abs_block_sums


def _cases():
    rng = np.random.default_rng(20261128)
    for m in range(1, 17):
        yield f"gauss-{m}", rng.standard_normal(m)
        yield f"ints-{m}", rng.integers(-3, 4, size=m).astype(np.float64)  # many ties and zero sums
        yield f"ones-{m}", np.ones(m)
        u = np.zeros(m)
        u[::2] = rng.standard_normal(u[::2].shape[0])
        yield f"zeros-{m}", u  # |u_j| = 0: duplicate levels
        yield f"scales-{m}", rng.standard_normal(m) * 10.0 ** rng.integers(-300, 290, size=m)
    yield "signed-zeros", np.array([-0.0, 0.0, 1.0, -1.0])
    yield "cancel", np.array([1.0, 1.0, 1e-17, 1e-17, 0.1, 0.2, 0.3])
    yield "overflow", np.array([1e308, 1e308, -1e308])  # the full-merge fallback


@pytest.mark.parametrize("name,u", list(_cases()), ids=[c[0] for c in _cases()])
def test_half_merges_give_the_full_merges_values_bit_for_bit(name, u):
    ref = _sorted_abs_sums(u)  # the full merges of all 2^m sums, then their upper half
    got = abs_block_sums(u)
    assert got.dtype == np.float64 and got.shape == ref.shape
    assert got.tobytes() == ref.tobytes()  # the same sums, added in the same order


def test_the_half_merge_declines_overflowing_sums_and_the_wrapper_checks_its_input():
    assert _upper_half_sums(np.array([1e308, 1e308, -1e308])) is None
    assert _upper_half_sums(np.array([1.0, 2.0])) is not None
    assert abs_block_sums(np.zeros(0)).tolist() == [0.0]
    assert abs_block_sums([1.0, 2.0]).tolist() == [1.0, 3.0]
    with pytest.raises(ValueError, match="finite"):
        abs_block_sums(np.array([1.0, np.nan]))
