"""Lemma B.1's exhaustive route reads the transform of Maj_n through its level values
(verify.hidden_progress.majority._majority_wht_levels): the summary must be what the 2^n entries say, and a
check through it must give the same cases as the entry-by-entry comparison it replaces."""

from math import comb

import numpy as np
import pytest

from verify.hidden_progress import majority as M
from verify.registry import get_claim, run_claim


@pytest.mark.parametrize("n", [1, 3, 7, 11])
def test_level_values_are_the_transform_on_every_subset(n):
    H = M._majority_wht(n, "cpu")
    pc = M._popcounts_u8(n)
    levels = M._majority_wht_levels(n, "cpu")
    assert levels is not None
    for k in range(n + 1):
        assert np.all(H[pc == k] == levels[k])
        assert int(np.count_nonzero(pc == k)) == comb(n, k)


def test_a_non_constant_level_is_detected(monkeypatch):
    H = np.array(M._majority_wht(5, "cpu"), copy=True)
    H[0b10100] += 2  # one subset of size 2 off its level
    monkeypatch.setattr(M, "_majority_wht", lambda n, backend: H)
    M._majority_wht_levels.cache_clear()
    try:
        assert M._majority_wht_levels(5, "cpu") is None
    finally:
        M._majority_wht_levels.cache_clear()


def test_the_level_route_and_the_entry_route_give_the_same_cases(monkeypatch):
    c = get_claim("thesis_ch5.lemma_B.1")
    params = {"n_exhaustive_max": 9, "n_symmetric_max": 9, "n_top": 11}
    fast = run_claim(c, params=params)
    monkeypatch.setattr(M, "_majority_wht_levels", lambda n, backend: None)
    slow = run_claim(c, params=params)
    for a, b in [(fast.printed, slow.printed)] + [(x.verdict, y.verdict) for x, y in zip(fast.mutants, slow.mutants)]:
        assert (a.holds, a.cases, a.failures, a.witness, a.tightest) == (b.holds, b.cases, b.failures, b.witness, b.tightest)
    assert all(m.rejected for m in fast.mutants)
