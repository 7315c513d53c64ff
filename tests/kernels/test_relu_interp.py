"""kernels.constructions.relu_interp: exact interpolation of values and Jacobians on random finite sets (Lemma 5),
the two evaluators agree, the 5-layer split equals the merged 3-layer net, the weight values lie in
Lemma 6's sets, the net is flat away from the data, the widths, the mutants' failures, bad input."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernels.constructions.relu_interp import build_interpolant, min_distinct_gap, weight_value_sets

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def problems(draw, *, max_in: int = 3, max_out: int = 2, max_n: int = 6):
    d_in = draw(st.integers(1, max_in))
    d_out = draw(st.integers(1, max_out))
    q = draw(st.sampled_from([1, 2, 3, 6, 7]))
    pts = draw(st.lists(st.tuples(*[st.integers(-4, 4)] * d_in), min_size=1, max_size=max_n, unique=True))
    X = [tuple(Fraction(v, q) for v in p) for p in pts]
    n = len(X)
    Y = [[Fraction(draw(st.integers(-9, 9)), draw(st.integers(1, 4))) for _ in range(d_out)] for _ in range(n)]
    binary = draw(st.booleans())
    gv = st.sampled_from([Fraction(0), Fraction(1)]) if binary else st.sampled_from([Fraction(-2), Fraction(0), Fraction(1, 3), Fraction(5)])
    G = [[[draw(gv) for _ in range(d_in)] for _ in range(d_out)] for _ in range(n)]
    return X, Y, G


@SETTINGS
@given(problems())
def test_interpolates_values_and_jacobians_exactly(prob):
    X, Y, G = prob
    net = build_interpolant(X, Y, G)
    d_in, d_out, n = len(X[0]), len(Y[0]), len(X)
    assert net.widths == (10 * d_in * n, 6 * d_in * d_out * n)
    assert net.used["d1"] <= 10 * d_in * n and net.used["d2"] == 3 * d_in * d_out * n
    for x, y, g in zip(X, Y, G):
        out, J, margin = net.evaluate_exact(x)
        assert out == y and J == g
        assert margin is None or margin > 0
        assert net.evaluate(x) == (out, J, margin)
        assert net.evaluate_exact(x, split=True) == (out, J, margin)


@SETTINGS
@given(problems())
def test_flat_away_from_the_data(prob):
    X, Y, G = prob
    net = build_interpolant(X, Y, G)
    far = max(abs(v) for x in X for v in x) + 1
    for x in X:
        z = (Fraction(far),) + tuple(x[1:])  # first coordinate outside every bump
        out, J, _ = net.evaluate_exact(z)
        assert all(v == 0 for v in out) and all(v == 0 for row in J for v in row)


@SETTINGS
@given(problems())
def test_weight_values_lie_in_the_lemma_6_sets(prob):
    X, Y, G = prob
    net = build_interpolant(X, Y, G)
    xs = {v for x in X for v in x}
    ys = {v for y in Y for v in y}
    gs = {v for g in G for row in g for v in row}
    U = weight_value_sets(xs, ys, gs, len(X[0]))
    assert net.delta == U["delta"] and net.zeta0 == U["zeta0"]
    for name, L in (("W1", net.W1), ("W1'", net.W1p), ("W1+", net.W1plus), ("W2'", net.W2p), ("W2+", net.W2plus)):
        assert L.values() <= U[name], name
    assert len(U["W1"]) <= 4 * len(xs) + 2 and len(U["W1+"]) <= 4 and U["W2+"] == {Fraction(1)}


def test_merged_layers_are_exact_compositions():
    X = [(Fraction(0), Fraction(1)), (Fraction(1), Fraction(1)), (Fraction(1), Fraction(0))]
    Y = [[Fraction(1)], [Fraction(-2)], [Fraction(1, 3)]]
    G = [[[Fraction(1), Fraction(0)]], [[Fraction(0), Fraction(1)]], [[Fraction(1), Fraction(1)]]]
    net = build_interpolant(X, Y, G)
    _W1, W2, W3 = net.three_layer()
    A = net.W1plus.dense().dot(net.W1p.dense())
    np.testing.assert_array_equal(W2.dense(), A)
    np.testing.assert_array_equal(W3.dense(), net.W2plus.dense().dot(net.W2p.dense()))


def test_the_construction_mutants_fail_on_neighbours():
    # two points differing in one coordinate by the minimal gap
    X = [(Fraction(0), Fraction(0)), (Fraction(1), Fraction(0))]
    Y = [[Fraction(1)], [Fraction(2)]]
    G = [[[Fraction(1), Fraction(0)]], [[Fraction(0), Fraction(1)]]]
    good = build_interpolant(X, Y, G)
    assert all(good.evaluate_exact(x)[0] == y for x, y in zip(X, Y))
    wide = build_interpolant(X, Y, G, delta_factor=Fraction(1))
    assert any(wide.evaluate_exact(x)[0] != y or wide.evaluate_exact(x)[2] == 0 for x, y in zip(X, Y))
    noind = build_interpolant(X, Y, G, indicator_first=False)
    assert noind.evaluate_exact(X[0])[0] == [Fraction(2)]
    allg = build_interpolant(X, Y, G, gamma_selective=False)
    assert allg.evaluate_exact(X[0])[1] == [[Fraction(1), Fraction(1)]]


def test_min_distinct_gap():
    assert min_distinct_gap([Fraction(1, 3), Fraction(1, 3), 1]) == Fraction(2, 3)
    assert min_distinct_gap([5]) is None


def test_bad_input_names_the_argument():
    X = [(Fraction(0),), (Fraction(1),)]
    Y = [[Fraction(0)], [Fraction(1)]]
    G = [[[Fraction(0)]], [[Fraction(1)]]]
    with pytest.raises(ValueError, match="points"):
        build_interpolant([], [], [])
    with pytest.raises(ValueError, match="points"):
        build_interpolant([X[0], X[0]], Y, G)
    with pytest.raises(ValueError, match="values"):
        build_interpolant(X, Y[:1], G)
    with pytest.raises(ValueError, match="jacobians"):
        build_interpolant(X, Y, [[[0, 0]], [[0, 0]]])
    with pytest.raises(ValueError, match="delta_factor"):
        build_interpolant(X, Y, G, delta_factor=0)
    with pytest.raises(ValueError, match="width"):
        build_interpolant(X, Y, G, widths=(5, 100))
    with pytest.raises(ValueError, match="x"):
        build_interpolant(X, Y, G).evaluate_exact([0, 0])
    with pytest.raises(ValueError, match="x_values"):
        weight_value_sets([], [0], [0], 1)
