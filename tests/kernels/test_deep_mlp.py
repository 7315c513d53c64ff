"""kernels.boolean.deep_mlp: exact deep power-activation MLPs on the cube against point-by-point oracles."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import Rational, diff, interpolate, symbols

from kernels import chi
from kernels.boolean.deep_mlp import (
    _batches,
    _batches_ref,
    _sgd_chunk,
    degree_profile,
    downstream_factor,
    first_layer_correlation_gradient,
    init_poly_mlp,
    multilinear_degree,
    poly_mlp_forward,
    poly_mlp_forward_ref,
    poly_mlp_sgd,
    poly_mlp_sgd_ref,
)

SETTINGS = settings(max_examples=30, deadline=None, derandomize=True)


@st.composite
def integer_nets(draw, max_n: int = 6, max_layers: int = 3, max_width: int = 3, wmax: int = 3):
    n = draw(st.integers(1, max_n))
    L1 = draw(st.integers(1, max_layers))
    widths = [n] + [draw(st.integers(1, max_width)) for _ in range(L1)]
    ints = lambda size: np.array(draw(st.lists(st.integers(-wmax, wmax), min_size=size, max_size=size)), dtype=np.int64)
    layers = [(ints(widths[i + 1] * widths[i]).reshape(widths[i + 1], widths[i]), ints(widths[i + 1])) for i in range(L1)]
    u = ints(widths[-1])
    c = draw(st.integers(-wmax, wmax))
    power = draw(st.integers(1, 3))
    return n, layers, u, c, power


def _as_fraction_net(layers, u, c, den):
    fl = [(np.array([[Fraction(int(v), den) for v in row] for row in W], dtype=object),
           np.array([Fraction(int(v), den) for v in b], dtype=object)) for W, b in layers]
    return fl, np.array([Fraction(int(v), den) for v in u], dtype=object), Fraction(c, den)


@SETTINGS
@given(integer_nets())
def test_forward_matches_pointwise_oracle(net):
    n, layers, u, c, power = net
    fast = poly_mlp_forward(layers, u, n=n, power=power, output_bias=c)
    ref = poly_mlp_forward_ref(layers, u, n=n, power=power, output_bias=c)
    assert [Fraction(int(v)) for v in fast.tolist()] == ref


@SETTINGS
@given(integer_nets(), st.integers(1, 4))
def test_fraction_forward_matches_oracle(net, den):
    n, layers, u, c, power = net
    fl, fu, fc = _as_fraction_net(layers, u, c, den)
    fast = poly_mlp_forward(fl, fu, n=n, power=power, output_bias=fc)
    assert list(fast.tolist()) == poly_mlp_forward_ref(fl, fu, n=n, power=power, output_bias=fc)


@SETTINGS
@given(integer_nets())
def test_float_forward_close_to_exact(net):
    n, layers, u, c, power = net
    exact = np.array([float(v) for v in poly_mlp_forward(layers, u, n=n, power=power, output_bias=c).tolist()])
    fl = [(W.astype(float), b.astype(float)) for W, b in layers]
    approx = poly_mlp_forward(fl, u.astype(float), n=n, power=power, output_bias=float(c))
    assert approx.dtype == np.float64
    assert np.allclose(approx, exact, rtol=1e-8, atol=1e-9)  # float64 cancellation in u . z_{L-1}


def test_big_integers_fall_back_to_python_ints():
    n = 8
    layers = [(np.full((2, n), 40, dtype=np.int64), np.array([3, -5]))] * 1 + [(np.full((2, 2), 30, dtype=np.int64), np.array([1, 1]))] * 3
    u = np.array([7, -9])
    f = poly_mlp_forward(layers, u, n=n, power=2)
    assert f.dtype == object
    assert max(abs(int(v)) for v in f.tolist()) > 2**63
    assert [Fraction(v) for v in f.tolist()[:4]] == poly_mlp_forward_ref(layers, u, n=n, power=2)[:4]


def _brute_multilinear_degree(table, n):
    deg = -1
    X = np.array(list(itertools.product([1, -1], repeat=n)))[:, ::-1]  # row idx: bit i <=> x_i = -1
    for mask in range(1 << n):
        S = [i for i in range(n) if mask >> i & 1]
        c = sum(Fraction(v) * int(np.prod(X[idx, S])) for idx, v in enumerate(table))
        if c != 0:
            deg = max(deg, len(S))
    return deg


@SETTINGS
@given(integer_nets(max_n=5))
def test_multilinear_degree_against_brute_force(net):
    n, layers, u, c, power = net
    f = poly_mlp_forward(layers, u, n=n, power=power, output_bias=c)
    assert multilinear_degree(f) == _brute_multilinear_degree(f.tolist(), n)
    prof = degree_profile(f)
    assert len(prof) == n + 1 and all(v >= 0 for v in prof)
    assert (max((d for d, v in enumerate(prof) if v != 0), default=-1)) == multilinear_degree(f)


@SETTINGS
@given(integer_nets(max_n=6), st.integers(1, 2))
def test_degree_bound_of_composition(net, _):
    n, layers, u, c, power = net
    f = poly_mlp_forward(layers, u, n=n, power=power, output_bias=c)
    assert multilinear_degree(f) <= min(n, power ** len(layers))


def _finite_difference_gradient(layers, u, mask, n, power):
    """E[-chi_S d f/d W_1[j, i]] by the exact polynomial-interpolation derivative in the weight: f is a
    polynomial of degree <= power^(L-1) in W_1[j, i], so d/dh at 0 follows from enough exact samples."""
    y = chi(mask, n).astype(np.int64)
    W1, b1 = layers[0]
    D = power ** len(layers) + 1  # f has degree power^(L-1) in one first-layer weight
    hs = list(range(-(D // 2) - 1, D // 2 + 2))
    out = []
    for j in range(W1.shape[0]):
        row = []
        for i in range(n + 1):
            vals = []
            for h in hs:
                W, b = W1.copy(), b1.copy()
                if i < n:
                    W[j, i] += h
                else:
                    b[j] += h
                f = poly_mlp_forward([(W, b)] + list(layers[1:]), u, n=n, power=power)
                vals.append(-Fraction(int(np.dot(y, np.asarray(f.tolist(), dtype=object))), 1 << n))
            # derivative at 0 of the interpolating polynomial through (h, vals)
            t = symbols("t")
            poly = interpolate([(h, Rational(v.numerator, v.denominator)) for h, v in zip(hs, vals)], t)
            d = diff(poly, t).subs(t, 0)
            row.append(_frac(d))
        out.append(row)
    return out


@settings(max_examples=12, deadline=None, derandomize=True)
@given(integer_nets(max_n=4, max_layers=2, max_width=2, wmax=2), st.data())
def test_first_layer_gradient_against_exact_derivative(net, data):
    n, layers, u, _, power = net
    mask = data.draw(st.integers(0, (1 << n) - 1))
    G, gb = first_layer_correlation_gradient(layers, u, mask, n=n, power=power)
    fd = _finite_difference_gradient(layers, u, mask, n, power)
    assert [list(r) + [g] for r, g in zip(G, gb)] == fd


def _upper(layers, u, power, z):
    """u . f_{L-1} o ... o f_2 (z) at a rational point z (the layers above the first)."""
    for W, b in layers[1:]:
        z = [(sum((Fraction(int(w)) * zi for w, zi in zip(row, z)), Fraction(0)) + int(bb)) ** power
             for row, bb in zip(W.tolist(), b.tolist())]
    return sum((Fraction(int(ui)) * zi for ui, zi in zip(u.tolist(), z)), Fraction(0))


@settings(max_examples=15, deadline=None, derandomize=True)
@given(integer_nets(max_n=3, max_layers=3, max_width=2, wmax=2))
def test_downstream_factor_is_the_derivative_of_the_upper_layers(net):
    n, layers, u, _, power = net
    D = downstream_factor(layers, u, n=n, power=power)
    W1, b1 = layers[0]
    assert D.shape == (W1.shape[0], 1 << n)
    t = symbols("t")
    deg = power ** (len(layers) - 1)
    for idx in range(1 << n):
        x = [1 - 2 * ((idx >> i) & 1) for i in range(n)]
        z1 = [Fraction(sum(int(w) * xi for w, xi in zip(row, x)) + int(b)) ** power for row, b in zip(W1.tolist(), b1.tolist())]
        for j in range(len(z1)):
            pts = []
            for h in range(deg + 1):
                z = list(z1)
                z[j] += h
                v = _upper(layers, u, power, z)
                pts.append((h, Rational(v.numerator, v.denominator)))
            d = diff(interpolate(pts, t), t).subs(t, 0) if deg else 0
            assert _frac(d) == Fraction(D[j, idx])


def _frac(v) -> Fraction:
    r = Rational(v)
    return Fraction(int(r.p), int(r.q))


@SETTINGS
@given(st.integers(1, 3), st.integers(0, 2**31 - 1), st.booleans())
def test_compiled_sgd_step_matches_numpy_reference(depth, seed, bias):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 7))
    widths = [n] + [int(rng.integers(1, 4)) for _ in range(depth)]
    theta = init_poly_mlp(widths, rng, output_bias=bias)
    Xb, yb = _batches(rng, 7, 5, n, int(rng.integers(1, 1 << n)))
    fast = theta.copy()
    assert _sgd_chunk(fast, np.array(widths, dtype=np.int64), 2, 0.05, Xb, yb, bias)
    ref = poly_mlp_sgd_ref(theta, widths, 2, 0.05, Xb, yb, output_bias=bias)
    assert np.allclose(fast, ref, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("power", [1, 3])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_compiled_sgd_step_matches_numpy_reference_other_powers(power, seed):
    """The general-power branches of the compiled forward and backward (power 2 has its own)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 7))
    widths = [n] + [int(rng.integers(1, 4)) for _ in range(2)]
    theta = init_poly_mlp(widths, rng)
    Xb, yb = _batches(rng, 7, 5, n, int(rng.integers(1, 1 << n)))
    fast = theta.copy()
    assert _sgd_chunk(fast, np.array(widths, dtype=np.int64), power, 0.05, Xb, yb, True)
    ref = poly_mlp_sgd_ref(theta, widths, power, 0.05, Xb, yb, output_bias=True)
    assert np.allclose(fast, ref, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("pre", ["none", "uint32", "int8x5", "uniform3"])
@pytest.mark.parametrize("shape", [(1, 1, 1), (1, 1, 3), (1, 1, 4), (3, 5, 7), (7, 5, 10), (40, 32, 30), (2, 2, 64), (0, 3, 4)])
def test_batches_are_the_numpy_draws_and_leave_the_generator_alike(pre, shape):
    """The random_raw route gives numpy's bits and generator state (the buffered 32-bit half included)."""
    T, B, n = shape
    for seed in range(6):
        gens = [np.random.default_rng(seed), np.random.default_rng(seed)]
        for r in gens:
            if pre == "uint32":
                r.integers(0, 2**32, dtype=np.uint32)
            elif pre == "int8x5":
                r.integers(0, 2, size=5, dtype=np.int8)
            elif pre == "uniform3":
                r.uniform(size=3)
        for rep in range(3):
            mask = (1 << n) - 1 if rep == 2 else int(gens[0].integers(0, 1 << min(n, 62)))
            if rep != 2:
                gens[1].integers(0, 1 << min(n, 62))
            Xa, ya = _batches_ref(gens[0], T, B, n, mask)
            Xb, yb = _batches(gens[1], T, B, n, mask)
            assert Xa.dtype == Xb.dtype == np.int8 and ya.dtype == yb.dtype == np.int8
            assert np.array_equal(Xa, Xb) and np.array_equal(ya, yb)
            assert gens[0].bit_generator.state == gens[1].bit_generator.state
        assert gens[0].integers(0, 2**32, size=3, dtype=np.uint32).tolist() == gens[1].integers(0, 2**32, size=3, dtype=np.uint32).tolist()
        assert gens[0].random() == gens[1].random()


def test_sgd_is_reproducible_and_learns_a_small_parity():
    a = poly_mlp_sgd([6, 2, 1], 2, 0b11, seeds=[1, 2, 3], steps=3000, batch=16, lr=0.02)
    b = poly_mlp_sgd([6, 2, 1], 2, 0b11, seeds=[1, 2, 3], steps=3000, batch=16, lr=0.02)
    assert np.array_equal(a.first_success, b.first_success) and np.array_equal(a.final_accuracy, b.final_accuracy)
    assert np.all(a.first_success > 0)
    none = poly_mlp_sgd([6, 2, 1], 2, 0b11, seeds=[1, 2], steps=500, batch=16, lr=0.02, output_bias=False)
    assert np.all(none.first_success == -1) and np.all(none.final_accuracy <= 0.5)


@pytest.mark.parametrize(
    "call,match",
    [
        pytest.param(lambda: poly_mlp_forward([], [1], n=2), "at least one hidden layer", id="no-layers"),
        pytest.param(lambda: poly_mlp_forward([(np.ones((2, 3), dtype=int), [0, 0])], [1, 1], n=2), r"shape \(r_1 >= 1, 2\)", id="bad-W"),
        pytest.param(lambda: poly_mlp_forward([(np.ones((2, 2), dtype=int), [0])], [1, 1], n=2), "b_1 must have shape", id="bad-b"),
        pytest.param(lambda: poly_mlp_forward([(np.ones((2, 2), dtype=int), [0, 0])], [1], n=2), "argument 'u'", id="bad-u"),
        pytest.param(lambda: poly_mlp_forward([(np.ones((1, 2), dtype=int), [0])], [1], n=21), "'n'", id="n-too-big"),
        pytest.param(lambda: poly_mlp_forward([(np.ones((1, 2), dtype=int), [0])], [1], n=2, power=0), "'power'", id="power-0"),
        pytest.param(lambda: poly_mlp_forward([([[True, 1]], [0])], [1], n=2), "booleans", id="bool-weight"),
        pytest.param(lambda: poly_mlp_forward([([[float("nan"), 1.0]], [0.0])], [1.0], n=2), "finite", id="nan"),
        pytest.param(lambda: multilinear_degree(np.ones(4)), "exact degree", id="float-degree"),
        pytest.param(lambda: multilinear_degree(np.ones(3, dtype=np.int64)), "power-of-two", id="bad-length"),
        pytest.param(lambda: poly_mlp_sgd([4, 2, 1], 2, 0b1, seeds=[1], steps=10, batch=4, lr=-1.0, eval_every=5), "'lr'", id="bad-lr"),
        pytest.param(lambda: poly_mlp_sgd([4], 2, 0b1, seeds=[1], steps=10, batch=4, lr=0.1, eval_every=5), "'widths'", id="bad-widths"),
        pytest.param(lambda: poly_mlp_sgd([4, 2, 1], 2, 0b1, seeds=[], steps=10, batch=4, lr=0.1, eval_every=5), "'seeds'", id="no-seeds"),
        pytest.param(lambda: init_poly_mlp([4, 2], np.random.default_rng(0), scheme="he"), "'scheme'", id="bad-scheme"),
    ],
)
def test_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_degree_of_fraction_tables_with_huge_denominators():
    """The common denominator of a Fraction table is an exact Python int even beyond int64."""
    p, q = 2**61 - 1, 2**31 - 1  # coprime: the lcm of the denominators is ~2^92
    table = [Fraction(1, p), Fraction(1, q), Fraction(1, p), Fraction(1, q)]  # f = (1/p + 1/q)/2 + (1/p - 1/q)/2 x_1
    assert multilinear_degree(table) == 1
    assert degree_profile(table) == [(Fraction(1, p) + Fraction(1, q)) / 2, abs(Fraction(1, p) - Fraction(1, q)) / 2, Fraction(0)]
