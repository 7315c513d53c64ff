"""GF(2) elimination and the parity learner: CPU twin == numpy reference (every output and count),
rank against an exhaustive span count, the reduced-echelon invariants, the learner's guarantees
(consistency with every sample, S recovered when rank = d, None exactly when no parity fits,
row operations <= d * m), hand-computed cost on the triangular family, the CUDA twin under the
simulator, and argument validation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.cuda_support import cuda_test
from kernels.algebra.gf2 import (
    gf2_eliminate,
    gf2_eliminate_packed,
    gf2_rank,
    learn_parity,
    learn_parity_batch,
    pack_bits,
    parity_labels_packed,
    random_packed,
    unpack_bits,
)

FIELDS = ("reduced", "rank", "pivots", "xors", "swaps", "bit_ops", "word_ops")


@st.composite
def matrices(draw, *, max_batch: int = 3, max_m: int = 12, max_n: int = 140):
    """(B, m, n) 0/1 arrays with a drawn density (sparse matrices exercise zero columns and swaps)."""
    B = draw(st.integers(1, max_batch))
    m = draw(st.integers(0, max_m))
    n = draw(st.integers(0, max_n))
    p = draw(st.sampled_from([0.05, 0.3, 0.5, 0.9]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return (rng.random((B, m, n)) < p).astype(np.uint8)


@st.composite
def parity_samples(draw, *, max_d: int = 10, max_extra: int = 8):
    """(X, y, S): m = d + k uniform examples in {-1,1}^d labelled by chi_S; k may be negative."""
    d = draw(st.integers(1, max_d))
    m = max(0, d + draw(st.integers(-3, max_extra)))
    S = draw(st.integers(0, (1 << d) - 1))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    X = rng.choice(np.array([-1, 1]), size=(m, d))
    inS = np.array([(S >> i) & 1 for i in range(d)], dtype=bool)
    y = np.prod(np.where(inS[None, :], X, 1), axis=1) if m else np.zeros(0, dtype=np.int64)
    return X, y.astype(np.int64), S


def _span_rank(rows: list[int]) -> int:
    """log2 of the size of the row space, by exhaustive enumeration of all XOR combinations."""
    span = {0}
    for r in rows:
        span |= {v ^ r for v in span}
    return len(span).bit_length() - 1


def _row_ints(bits: np.ndarray) -> list[int]:
    return [sum(int(v) << j for j, v in enumerate(row)) for row in bits]


@settings(max_examples=150, deadline=None)
@given(matrices())
@example(np.zeros((1, 0, 0), dtype=np.uint8))
@example(np.ones((2, 5, 64), dtype=np.uint8))
def test_cpu_equals_reference(bits):
    a = gf2_eliminate(bits, backend="cpu")
    b = gf2_eliminate(bits, backend="reference")
    for f in FIELDS:
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f), err_msg=f)


@settings(max_examples=150, deadline=None)
@given(matrices(max_m=9, max_n=70))
def test_rank_and_reduced_echelon_invariants(bits):
    res = gf2_eliminate(bits, backend="cpu")
    red = res.reduced_bits()
    m, n = bits.shape[1], bits.shape[2]
    for b in range(bits.shape[0]):
        r = int(res.rank[b])
        assert r == _span_rank(_row_ints(bits[b]))  # independent route: size of the row space
        assert _span_rank(_row_ints(red[b])) == r
        if m <= 9:  # row space preserved: every reduced row lies in the span of the original rows
            span = {0}
            for v in _row_ints(bits[b]):
                span |= {s ^ v for s in span}
            assert set(_row_ints(red[b])) <= span
        piv = res.pivots[b]
        assert list(piv[:r]) == sorted(piv[:r]) and np.all(piv[r:] == -1)
        for j in range(r):
            col = red[b][:, piv[j]]
            assert col[j] == 1 and col.sum() == 1  # pivot columns are unit vectors
            assert not red[b][j, : piv[j]].any()  # the pivot row is zero left of its pivot
        assert not red[b][r:].any()  # all columns pivoted (pivot_cols = n): rows below the rank vanish
        assert res.xors[b] <= r * max(m - 1, 0) and res.swaps[b] <= r
        assert res.row_ops[b] <= r * m <= min(m, n) * m
        assert res.bit_ops[b] <= res.xors[b] * n


@settings(max_examples=200, deadline=None)
@given(parity_samples())
@example((np.array([[1, -1]]), np.array([-1]), 2))
def test_learner_is_consistent_recovers_S_and_counts(sample):
    X, y, S = sample
    m, d = X.shape
    fit = learn_parity(X, y, backend="cpu")
    assert fit.S is not None  # realisable data: a consistent parity always exists
    inT = np.array([(fit.S >> i) & 1 for i in range(d)], dtype=bool)
    pred = np.prod(np.where(inT[None, :], X, 1), axis=1) if m else y
    assert np.array_equal(pred, y)  # consistent with every sample
    if fit.rank == d:
        assert fit.unique and fit.S == S
    assert fit.ops <= fit.rank * m <= d * m
    assert fit.rank == gf2_rank((X == -1).astype(np.uint8)) if m else fit.rank == 0


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 7), st.integers(1, 12), st.integers(0, 2**32 - 1))
def test_learner_returns_none_exactly_when_no_parity_fits(d, m, seed):
    rng = np.random.default_rng(seed)
    X = rng.choice(np.array([-1, 1]), size=(m, d))
    y = rng.choice(np.array([-1, 1]), size=m)
    fit = learn_parity(X, y, backend="cpu")
    fits = [T for T in range(1 << d)
            if np.array_equal(np.prod(np.where(np.array([(T >> i) & 1 for i in range(d)], bool)[None, :], X, 1), axis=1), y)]
    assert (fit.S is None) == (not fits)
    if fit.S is not None:
        assert fit.S in fits and (len(fits) == 1) == fit.unique


def test_batch_equals_single_fits_and_reference():
    rng = np.random.default_rng(7)
    B, m, d = 40, 75, 70  # two words per row, augmented column in word 1
    X = rng.choice(np.array([-1, 1]), size=(B, m, d))
    S = rng.integers(0, 2, size=(B, d)).astype(bool)
    y = np.prod(np.where(S[:, None, :], X, 1), axis=2)
    batch = learn_parity_batch(X, y, backend="cpu")
    ref = learn_parity_batch(X, y, backend="reference")
    for f in ("solution", "consistent", "rank", "xors", "swaps", "bit_ops", "word_ops"):
        np.testing.assert_array_equal(getattr(batch, f), getattr(ref, f), err_msg=f)
    for i in range(B):
        assert batch.fit(i) == learn_parity(X[i], y[i], backend="cpu")
        if batch.unique[i]:
            assert batch.subset(i) == sum(1 << j for j in range(d) if S[i, j])


@pytest.mark.parametrize("d, k", [(1, 0), (5, 0), (63, 2), (64, 1), (130, 3)])
def test_triangular_family_cost_by_hand(d, k):
    # rows i < d: ones in columns 0..i (lower triangular); k extra all-ones rows; label column 0.
    # column c is pivoted by row c; the d - 1 - c rows below and the k extra rows are XORed, each
    # over the n - c = d + 1 - c columns c..d: xors = d(d-1)/2 + k d, bits = sum_c (d-1-c+k)(d+1-c).
    bits = np.zeros((d + k, d + 1), dtype=np.uint8)
    for i in range(d):
        bits[i, : i + 1] = 1
    bits[d:, :d] = 1
    res = gf2_eliminate(bits, pivot_cols=d, backend="cpu")
    assert int(res.rank[0]) == d and int(res.swaps[0]) == 0
    assert int(res.xors[0]) == d * (d - 1) // 2 + k * d
    assert int(res.bit_ops[0]) == sum((d - 1 - c + k) * (d + 1 - c) for c in range(d))
    W = (d + 64) // 64
    assert int(res.word_ops[0]) == sum((d - 1 - c + k) * (W - c // 64) for c in range(d))


def test_pack_roundtrip_and_labels():
    rng = np.random.default_rng(3)
    for n in (0, 1, 63, 64, 65, 200):
        bits = rng.integers(0, 2, size=(4, 6, n), dtype=np.uint8)
        np.testing.assert_array_equal(unpack_bits(pack_bits(bits), n), bits)
    words = random_packed(rng, (50, 9), 77)
    assert words.shape == (50, 9, 2) and not np.any(words[..., 1] >> np.uint64(13))
    S = random_packed(rng, (), 77)
    bits = unpack_bits(words, 77)
    expect = (bits.astype(np.int64) @ unpack_bits(S, 77).astype(np.int64)) % 2
    np.testing.assert_array_equal(parity_labels_packed(words, S), expect)


def test_input_is_not_modified_and_deterministic():
    rng = np.random.default_rng(11)
    words = random_packed(rng, (500, 40), 33)  # large enough for the parallel path
    keep = words.copy()
    a = gf2_eliminate_packed(words, 33, pivot_cols=32, backend="cpu")
    b = gf2_eliminate_packed(words, 33, pivot_cols=32, backend="cpu")
    np.testing.assert_array_equal(words, keep)
    for f in FIELDS:
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    ref = gf2_eliminate_packed(words[:20], 33, pivot_cols=32, backend="reference")
    for f in FIELDS:
        np.testing.assert_array_equal(getattr(a, f)[:20], getattr(ref, f), err_msg=f)


@cuda_test
def test_cuda_twin_equals_reference():
    rng = np.random.default_rng(5)
    bits = (rng.random((3, 7, 70)) < 0.4).astype(np.uint8)
    a = gf2_eliminate(bits, backend="cuda")
    b = gf2_eliminate(bits, backend="reference")
    for f in FIELDS:
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f), err_msg=f)


@pytest.mark.parametrize("call, match", [
    (lambda: pack_bits(np.array([[0, 2]])), "only 0 and 1"),
    (lambda: pack_bits(np.array([[0.0, 1.0]])), "dtype"),
    (lambda: gf2_eliminate(np.zeros(3, dtype=np.uint8)), "shape"),
    (lambda: gf2_eliminate(np.zeros((2, 3), dtype=np.uint8), pivot_cols=4), "pivot_cols"),
    (lambda: gf2_eliminate_packed(np.zeros((2, 1), dtype=np.uint64), 65), "words per row"),
    (lambda: gf2_eliminate_packed(np.full((1, 1), 8, dtype=np.uint64), 3), "beyond column"),
    (lambda: gf2_eliminate_packed(np.zeros((1, 1), dtype=np.int64), 3), "uint64"),
    (lambda: gf2_eliminate(np.zeros((2, 3), dtype=np.uint8), backend="gpu"), "backend"),
    (lambda: learn_parity(np.array([[1, 0]]), np.array([1])), "only -1 and 1"),
    (lambda: learn_parity(np.array([[1, 1]]), np.array([1, 1])), "shape"),
    (lambda: learn_parity(np.ones((2, 0)), np.ones(2)), "d >= 1"),
    (lambda: learn_parity_batch(np.ones((2, 3)), np.ones(2)), "shape"),
    (lambda: random_packed(0, (2,), 3), "Generator"),
])
def test_bad_arguments_raise_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_exhaustive_small_cases_agree_with_reference():
    # every 3 x 3 matrix over GF(2)
    for code in range(1 << 9):
        bits = np.array([(code >> j) & 1 for j in range(9)], dtype=np.uint8).reshape(1, 3, 3)
        a = gf2_eliminate(bits, backend="cpu")
        b = gf2_eliminate(bits, backend="reference")
        for f in FIELDS:
            assert np.array_equal(getattr(a, f), getattr(b, f)), (code, f)
