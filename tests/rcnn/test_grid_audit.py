"""Second-reader property tests for verify/rcnn/grid.py (seed 003, B.1-B.3): the RCNN grid rolled out
at spec level against the plain 2D Turing-machine simulator, on random instances drawn by hypothesis.

Kept small (a few dozen examples, small grids): the claims' own checks run the larger sweeps.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.constructions import tm2d as T
from kernels.constructions import tm2d_grid as TG
from verify.rcnn import grid as G
from verify.rcnn import grid_rollout as GR


def _instance(seed, s, m, d, l):
    rng = np.random.default_rng(seed)
    M = T.random_machine(rng, s)
    X, y = G.random_dataset(rng, m, d)
    x = rng.choice(np.array([-1, 1]), size=d)
    W = G.memorisation_formula(X, y, m + 2)
    return M, W, x


def _bad(cmp):
    return [r for r in cmp["records"] if r["symbol_mismatches"] or not r["head_ok"] or not r["state_ok"]
            or r["heads"] > 1 or r["invalid"] or not r["front_ok"]]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 5), st.integers(1, 3), st.integers(1, 3), st.integers(2, 10))
def test_corrected_layer_spec_rolls_out_the_tm(seed, s, m, d, l):
    """B.2 with gamma(x_{0,1}) (corrected): layer k == simulator after k - 1 steps, every cell."""
    M, W, x = _instance(seed, s, m, d, l)
    cmp = G.compare_with_simulator(GR._B2_CORRECTED.spec(M), M, W, x, l)
    assert not _bad(cmp)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_memorisation_matches_lemma_2(m, d, seed):
    """Algorithm 1 (exact, eta = 1/54) writes Lemma 2's W^(i), rows a < i, for every i <= m + 2."""
    rng = np.random.default_rng(seed)
    X, y = G.random_dataset(rng, m, d, repeat=True)
    run = TG.algorithm1(X, y, G.memory_spec(), m + 1)
    assert run.error is None
    for i in range(1, m + 3):
        assert np.array_equal(run.W[i - 1], G.memorisation_formula(X, y, i, "lt"))
    # Lemma 1's printed "a <= i" already fails at i = 1 (W^(1) = 0 by Algorithm 1)
    assert not np.array_equal(run.W[0], G.memorisation_formula(X, y, 1, "le"))


@settings(max_examples=60, deadline=None)
@given(st.fractions(Fraction(-1, 2), Fraction(1, 2), max_denominator=3**7))
def test_head_relu_net_equals_continuous_head(v):
    """The 4-ReLU net equals the continuous f-bar_head at every rational point (B.2, corrected)."""
    w = TG.head_relu_weights(Fraction(18))
    assert TG.head_relu(v, w) == TG.head_bar(v, printed=False)
    assert len(w["U2"]) <= 6
