"""Walsh-Hadamard transform: reference / CPU / CUDA-simulator twins, algebraic properties, bad input."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kernels import fourier_spectrum, popcounts, truth_table, wht_inplace
from kernels.boolean import wht
from tests.cuda_support import cuda_test
from kernels.boolean.cube import chi, mask_of, sign_vectors, subset_of
from kernels.boolean.reference import wht_butterflies, wht_matrix
from tests.strategies import cube_functions, subsets



@given(cube_functions(max_n=9))
@example((0, np.array([5])))
def test_reference_matches_definition(nf):
    n, f = nf
    assert np.array_equal(wht_butterflies(f), wht_matrix(f))


@given(cube_functions(max_n=16))
def test_cpu_int64_equals_reference(nf):
    n, f = nf
    assert np.array_equal(wht(f, backend="cpu"), wht_butterflies(f))


@given(cube_functions(max_n=16, dtype=np.float64))
def test_cpu_float64_close_to_reference(nf):
    n, f = nf
    # both are sums of 2^n terms of size <= max|f|: the error of either is <= n 2^n u max|f| per entry
    tol = 4 * (n + 1) * 2.0**n * 2.0**-53 * max(1.0, float(np.abs(f).max()))
    assert np.max(np.abs(wht(f, backend="cpu") - wht_butterflies(f))) <= tol


@given(cube_functions(max_n=18))
def test_transform_is_its_own_inverse_up_to_2n(nf):
    n, f = nf
    assert np.array_equal(wht(wht(f, backend="cpu"), backend="cpu"), f * (1 << n))


@given(cube_functions(max_n=12), st.integers(-5, 5), st.integers(0, 2**32 - 1))
def test_linearity(nf, c, seed):
    n, f = nf
    g = np.random.default_rng(seed).integers(-9, 10, size=1 << n)
    assert np.array_equal(wht(c * f + g, backend="cpu"), c * wht(f, backend="cpu") + wht(g, backend="cpu"))


@given(cube_functions(max_n=12))
def test_parseval_exact(nf):
    n, f = nf
    spec = fourier_spectrum(f, backend="cpu")
    assert spec.exact
    assert sum(spec.weights()) == Fraction(int(np.sum(f.astype(object) ** 2)), 1 << n)


@given(st.integers(1, 10).flatmap(lambda n: st.tuples(st.just(n), subsets(n), subsets(n))))
def test_character_orthogonality(args):
    n, S, T = args
    assert Fraction(int(np.dot(chi(S, n).astype(np.int64), chi(T, n))), 1 << n) == (1 if S == T else 0)


@given(st.integers(1, 10).flatmap(lambda n: st.tuples(st.just(n), subsets(n))))
def test_character_spectrum_is_a_delta(args):
    n, S = args
    H = wht(chi(S, n).astype(np.int64), backend="cpu")
    expected = np.zeros(1 << n, dtype=np.int64)
    expected[S] = 1 << n
    assert np.array_equal(H, expected)


@given(st.integers(2, 9), st.integers(0, 2**32 - 1))
def test_symmetric_function_invariant_under_coordinate_permutation(n, seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(-3, 4, size=n + 1)
    f = values[popcounts(n)]
    spec = wht(f, backend="cpu")
    perm = rng.permutation(n)
    # permuting coordinates permutes subsets: S -> pi(S); a symmetric f is unchanged, so coefficients
    # at S and pi(S) agree
    for S in range(1 << n):
        T = mask_of(perm[i] for i in subset_of(S))
        assert spec[S] == spec[T]


def test_int64_overflow_falls_back_to_python_ints():
    a = np.array([2**62, 2**62, 0, 1], dtype=np.int64)
    out = wht(a, backend="cpu")
    assert out.dtype == object
    assert list(out) == [2**63 + 1, -1, 2**63 - 1, 1]
    with pytest.raises(ValueError, match="overflow"):
        wht_inplace(a.copy(), backend="cpu")


def test_truth_table_of_jitted_function_matches_python_loop():
    import numba

    @numba.njit
    def f(x):
        return float(x[0] * x[1] + 2 * x[2])

    table = truth_table(f, 5)
    X = sign_vectors(5)
    assert np.array_equal(table, [float(x[0] * x[1] + 2 * x[2]) for x in X])


@cuda_test
@settings(max_examples=8)
@given(cube_functions(max_n=7))
def test_cuda_twin_equals_reference_int64(nf):
    from kernels.cuda.wht import wht_inplace_cuda

    n, f = nf
    a = f.copy()
    wht_inplace_cuda(a, method="tiles", low_bits=3, group_bits=2, cols=2, tpb=8)
    assert np.array_equal(a, wht_butterflies(f))


@cuda_test
def test_cuda_twin_default_tiling_and_float64():
    from kernels.cuda.wht import wht_inplace_cuda

    f = np.random.default_rng(3).standard_normal(1 << 6)
    a = f.copy()
    wht_inplace_cuda(a, tpb=16)
    assert np.allclose(a, wht_butterflies(f), rtol=0, atol=1e-12)
    b = np.random.default_rng(4).integers(-5, 6, size=1 << 7)
    c = b.copy()
    wht(c, backend="cuda")  # through the public dispatcher
    assert np.array_equal(wht(b, backend="cuda"), wht_butterflies(b))


BAD = [
    pytest.param(np.zeros(3), "power-of-two", id="length-3"),
    pytest.param(np.zeros(0), "power-of-two", id="empty"),
    pytest.param(np.zeros((2, 2)), "1-D", id="2d"),
    pytest.param(np.zeros(4, dtype=np.float32), "dtype", id="float32"),
    pytest.param(np.zeros(4, dtype=np.complex128), "dtype", id="complex"),
]


@pytest.mark.parametrize("a,match", BAD)
def test_bad_input_is_a_clear_value_error(a, match):
    with pytest.raises(ValueError, match=match):
        wht(a)


@pytest.mark.parametrize(
    "call,match",
    [
        pytest.param(lambda: wht_inplace(np.zeros(4, dtype=np.int32)), "float64 or int64", id="inplace-int32"),
        pytest.param(lambda: wht_inplace(np.zeros(8)[::2]), "C-contiguous", id="inplace-strided"),
        pytest.param(lambda: wht_inplace([1.0, 2.0]), "numpy array", id="inplace-list"),
        pytest.param(lambda: wht(np.zeros(4), backend="gpu"), "backend", id="bad-backend"),
        pytest.param(lambda: truth_table(lambda x: 1.0, 3), "numba-compiled", id="truth-table-python-func"),
        pytest.param(lambda: truth_table(None, 3.5), "integer", id="truth-table-n-float"),
        pytest.param(lambda: truth_table(None, 60), r"\[0, 40\]", id="truth-table-n-huge"),
        pytest.param(lambda: fourier_spectrum(np.zeros(8), n=4), "does not match", id="spectrum-n-mismatch"),
    ],
)
def test_bad_arguments_name_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_memory_refused_before_allocation():
    from kernels._checks import require_cube_dim

    with pytest.raises(ValueError, match=r"needs .*iB .* available"):
        require_cube_dim("n", 39)


@cuda_test
@pytest.mark.parametrize(
    "kw,match",
    [
        pytest.param({"low_bits": 13}, r"'low_bits' must be an integer in \[1, 12\]", id="low-13"),
        pytest.param({"cols": 6}, r"'cols' must be a power of 2", id="cols-6"),
        pytest.param({"tpb": 96}, r"'tpb' must be a power of 2", id="tpb-96"),
        pytest.param({"group_bits": 11, "cols": 4}, r"'group_bits' = 11 .* \[1, 10\]", id="tile-64KiB"),
        pytest.param({"low_bits": 2, "cols": 8}, r"'cols' = 8 must be at most", id="cols-gt-low"),
    ],
)
def test_cuda_tiling_is_validated(kw, match):
    from kernels.cuda.wht import wht_inplace_cuda

    a = np.zeros(16)
    with pytest.raises(ValueError, match=match):
        wht_inplace_cuda(a, **kw)
    with pytest.raises(ValueError, match="power-of-2 length"):
        wht_inplace_cuda(np.zeros(12))


@cuda_test
def test_cuda_twin_odd_schedules_float64_exact_on_integers():
    """Several tilings (cols 1..4, uneven groups) on integer-valued float64: every sum is exact, so all agree."""
    from kernels.cuda.wht import wht_inplace_cuda

    f = np.random.default_rng(7).integers(-9, 10, size=1 << 9).astype(np.float64)
    want = wht_butterflies(f)
    for kw in ({"low_bits": 2, "group_bits": 3, "cols": 4, "tpb": 4}, {"low_bits": 4, "group_bits": 2, "cols": 1, "tpb": 2},
               {"low_bits": 3, "group_bits": 5, "cols": 2, "tpb": 32}):
        a = f.copy()
        wht_inplace_cuda(a, method="tiles", **kw)
        assert np.array_equal(a, want), kw


@pytest.mark.parametrize("threads", [1, 2])
def test_cpu_is_bit_identical_to_reference(threads):
    """The CPU schedule regroups the reference's radix-2 butterflies without reordering any addition:
    float64 results are bit-identical (compared as bit patterns, so signed zeros count; the first stages'
    in-register form x * (+-1) + y must give x_l - x_u exactly), and int64 exact, for every n = 0..22, serial
    and threaded."""
    import numba

    old = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        rng = np.random.default_rng(21)
        for n in range(23):
            for f in (rng.standard_normal(1 << n) * 10.0 ** rng.integers(-3, 4, size=1 << n),
                      rng.choice(np.array([0.0, -0.0, 1.0, -1.0, 0.5]), size=1 << n),
                      rng.integers(-(2**20), 2**20, size=1 << n)):
                a = f.copy()
                wht_inplace(a, backend="cpu", check_finite=False)
                assert np.array_equal(a.view(np.int64), wht_butterflies(f).view(np.int64)), (n, f.dtype)
    finally:
        numba.set_num_threads(old)


def test_buffered_sweep_is_bit_identical_to_the_direct_sweep():
    """The radix-8 sweep through a buffer (used at strides >= _BUFFERED_H entries, n >= 26: beyond the
    sizes the reference comparison above runs) does the direct sweep's butterflies on copies: the same bits, float64
    and int64, at strides below, equal to and above the run length _COLS (runs of whole and partial rows)."""
    from numba import uint64 as u64

    from kernels.boolean import _wht_cpu as K

    rng = np.random.default_rng(3)
    for dtype in (np.float64, np.int64):
        for k in (3, 7, 12, 13):
            h = 1 << k
            src = (rng.standard_normal(16 * h) * 1000).astype(dtype)
            direct, buffered = src.copy(), src.copy()
            K._sweep8(direct, u64(0), u64(16 * h), u64(h))
            K._sweep8_buffered(buffered, u64(0), u64(16 * h), u64(h))
            assert direct.view(np.int64).tobytes() == buffered.view(np.int64).tobytes(), (dtype, k)
            assert not np.array_equal(direct, src)
        # one run of m < h columns, as a parallel work item does it
        h, m = 1 << 9, 100
        src = (rng.standard_normal(8 * h) * 1000).astype(dtype)
        direct, buffered = src.copy(), src.copy()
        for c in range(5, 5 + m):
            K._bf8(direct, u64(c), u64(h))
        K._bf8_buffered(buffered, u64(5), u64(h), u64(m), np.empty(8 * m, dtype))
        assert direct.view(np.int64).tobytes() == buffered.view(np.int64).tobytes()


def test_inplace_fast_path_refuses_what_it_cannot_take():
    """The small-float64 fast path of wht_inplace must hand bad input to the full checks."""
    ro = np.zeros(8)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writeable C-contiguous"):
        wht_inplace(ro, backend="cpu", check_finite=False)
    with pytest.raises(ValueError, match="C-contiguous"):
        wht_inplace(np.zeros(16)[::2], backend="cpu", check_finite=False)
    with pytest.raises(ValueError, match="power-of-two"):
        wht_inplace(np.zeros(12), backend="cpu", check_finite=False)
    with pytest.raises(ValueError, match="1-D"):
        wht_inplace(np.zeros((2, 4)), backend="cpu", check_finite=False)
    with pytest.raises(ValueError, match="float64 or int64"):
        wht_inplace(np.zeros(8, np.float32), backend="cpu", check_finite=False)
    with pytest.raises(ValueError, match="float64 or int64"):
        wht_inplace(np.zeros(8, ">f8"), backend="cpu", check_finite=False)
    with pytest.raises(ValueError, match="numpy array"):
        wht_inplace([0.0] * 8, backend="cpu", check_finite=False)
    # int64 passes the fast path's signatures, which leave it to the full path: its overflow bound is checked
    big = np.full(8, 2**61, np.int64)
    with pytest.raises(ValueError, match="would overflow int64"):
        wht_inplace(big, backend="cpu", check_finite=False)
    assert np.all(big == 2**61)


def test_memory_checks_read_the_available_memory_only_for_large_allocations(monkeypatch):
    """kernels._checks.require_memory: small allocations pass without reading /proc/meminfo; a large one that does
    not fit is refused with a ValueError naming the argument, the value and both sizes."""
    from kernels import _checks

    def unreadable():
        raise AssertionError("read the available memory for a small allocation")

    monkeypatch.setattr(_checks, "available_memory_bytes", unreadable)
    _checks.require_memory("n", 3, _checks.UNCHECKED_BYTES, what="a small table")
    monkeypatch.setattr(_checks, "available_memory_bytes", lambda: 2**30)
    _checks.require_memory("n", 29, 2**29, what="a table")  # 0.5 GiB of 1 GiB: fits in 80%
    with pytest.raises(ValueError, match=r"argument 'n' = 30 needs 1.0 GiB for a table, but only 1.0 GiB"):
        _checks.require_memory("n", 30, 2**30, what="a table")
