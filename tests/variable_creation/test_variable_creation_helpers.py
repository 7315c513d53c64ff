"""Unit tests of the helpers inside the thesis_ch4 claim package (verify.variable_creation)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from verify.variable_creation.covering import (
    basis_packing_log,
    executed_basis_packing,
    numeric_split_min,
)
from verify.variable_creation.definitions import exact_proper_cover, greedy_cover
from verify.variable_creation.sample_complexity import first_identified, quantile_ci, truth_unique


def test_basis_packing_formula_matches_execution():
    # ratio 4 -> k = 3; executed packing on N = 8 inputs has C(8, 3) 2^3 members
    low, k = basis_packing_log(8, 4.0)
    assert k == 3
    assert executed_basis_packing(8, 3, 1.0, 0.25) == round(np.exp(low))


@given(st.integers(2, 8), st.integers(1, 3), st.floats(0.3, 2.0), st.integers(0, 2**31 - 1))
def test_exact_cover_between_packing_and_greedy(K, m, eps, seed):
    from kernels.sequence.attention import greedy_packing

    F = np.random.default_rng(seed).normal(size=(K, m))
    exact = exact_proper_cover(F, eps)
    assert len(greedy_packing(F, 2 * eps)) <= exact <= greedy_cover(F, eps)


def test_numeric_split_matches_closed_form():
    from kernels.sequence.attention import lemma_a8_optimum

    rng = np.random.default_rng(0)
    a, b = np.array([2.0, 0.5, 3.0]), np.array([1.0, 4.0, 0.2])
    assert abs(numeric_split_min(a, b, 1.5, rng) / lemma_a8_optimum(a, b, 1.5)[0] - 1) < 1e-6


def test_first_identified_is_a_valid_threshold():
    from kernels.sequence.attention import conjunction_unique

    rng = np.random.default_rng(3)
    for _ in range(5):
        state = rng.bit_generator.state
        m_star = first_identified(rng, 40, 120)
        rng2 = np.random.default_rng(0)
        rng2.bit_generator.state = state
        X = rng2.random((120, 40)) < 0.5 ** (1 / 3)
        y = X[:, :3].all(axis=1)
        assert conjunction_unique(X[:m_star], y[:m_star], range(3))
        assert not conjunction_unique(X[: m_star - 1], y[: m_star - 1], range(3))


@given(st.integers(3, 60), st.integers(0, 60), st.sampled_from([0.5, 0.5 ** (1 / 3), 0.9]), st.integers(0, 2**31 - 1))
def test_truth_unique_is_conjunction_unique(T, m, p_bit, seed):
    from kernels.sequence.attention import conjunction_unique

    X = np.random.default_rng(seed).random((m, T)) < p_bit
    y = X[:, :3].all(axis=1)
    assert truth_unique(X, y, 3) == conjunction_unique(X, y, range(3))


def test_truth_unique_on_the_quick_tier_sizes():
    from kernels.sequence.attention import conjunction_unique

    rng = np.random.default_rng(11)
    for T in (16, 100, 1000):
        for _ in range(4):
            X = rng.random((100, T)) < 0.5 ** (1 / 3)
            y = X[:, :3].all(axis=1)
            for m in (0, 3, 10, 20, 30, 45, 60, 100):
                assert truth_unique(X[:m], y[:m], 3) == conjunction_unique(X[:m], y[:m], range(3))


def test_quantile_ci_brackets_the_quantile():
    vals = np.arange(100)
    q, lo, hi = quantile_ci(vals, 0.8)
    assert q == 79 and lo < q < hi


def test_selector_head_outputs_stacked_equal_per_row_bit_for_bit():
    """selectors._head_outputs (the stacked rows of _max_err) returns exactly [head(b) for b in B] for the heads of
    Lemmas A.19 (Gram family, proof and dual key) and A.20 (trainable P), brute-force and random inputs."""
    import itertools
    import math
    from dataclasses import replace

    from kernels.sequence.attention import selector_head_det_p, selector_head_trainable_p
    from verify.variable_creation import selectors as S

    rng = np.random.default_rng(20261128)
    for T in (4, 10, 37):
        for s in (1, 2, 3):
            I = sorted(rng.choice(T, size=s, replace=False).tolist())
            for gamma in (1.0, 0.01):
                heads = [selector_head_trainable_p(T, I, gamma, R=math.log(8 * T / gamma)),
                         selector_head_trainable_p(T, I, gamma, R=math.log(T / gamma))]
                for Delta in (0.0, 1 / 12):
                    h = selector_head_det_p(T, I, gamma, V=S._gram(T, s, Delta), R=math.log(8 * T / gamma) / (1 - s * Delta),
                                            Delta=Delta)
                    Vrows = h.embed(np.zeros(T, dtype=np.int64))[:T, : h.W_K.shape[0]].copy()
                    Vrows[:, -3:] = 0.0
                    heads += [h, replace(h, W_K=np.outer(S._dual(Vrows, I).sum(axis=0), np.eye(h.W_K.shape[1])[0]))]
                B = np.array(list(itertools.product((0, 1), repeat=T))) if T <= 10 else rng.integers(0, 2, size=(25, T))
                for h in heads:
                    assert S._head_outputs(h, B) == [h(b) for b in B]
                    assert S._max_err(h, B) == max(abs(h(b) - h.target(b)) for b in B)
