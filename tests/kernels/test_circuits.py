"""kernels.constructions.circuits: layered circuits, the Lemma B.1 / Prop 3.4 compiler, exact and float forward
passes, and the certified margin attack (seed 000, Section 3 and Appendix B)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from kernels.constructions import circuits as C


@st.composite
def circuits(draw, max_m=4, max_layers=4, max_width=4):
    m = draw(st.integers(1, max_m))
    n_layers = draw(st.integers(1, max_layers))
    layers, prev = [], m
    for i in range(n_layers):
        n = 1 if i == n_layers - 1 else draw(st.integers(1, max_width))
        layer = []
        for _ in range(n):
            kind = draw(st.sampled_from(sorted(C.GATES)))
            parents = tuple(draw(st.integers(0, prev - 1)) for _ in range(C.GATES[kind]))
            layer.append((kind, parents))
        layers.append(tuple(layer))
        prev = n
    return C.Circuit(m, tuple(layers))


def cube(m):
    return np.array(list(itertools.product([0, 1], repeat=m)), dtype=np.int64)


@given(circuits(), st.booleans())
def test_compiled_net_computes_2G_minus_1_with_binary_blocks(circ, rounding):
    net = C.compile_relu(circ, rounding=rounding)
    X = cube(circ.m)
    out, blocks = C.forward_exact(net, X, keep=True)
    G = C.evaluate_circuit(circ, X)
    assert out == [Fraction(2 * int(g) - 1) for g in G]
    for B in blocks:  # Theorem D.6 needs binary block outputs (pitfall 17: inner round units are not)
        assert all(v in (0, 1) for v in B.ravel())
    bound = 5 * circ.size + (9 * sum(circ.widths[1:]) if rounding else 0) + 3
    assert net.l1_norm() <= bound


@given(circuits(max_m=3, max_layers=3, max_width=3))
def test_float_forward_matches_exact(circ):
    net = C.compile_relu(circ)
    X = cube(circ.m)
    th = np.tile(C.flat_params(net), (len(X), 1))
    got = C.batched_forward(net, th, X)
    want = np.array([float(v) for v in C.forward_exact(net, X)])
    np.testing.assert_allclose(got, want, atol=1e-12)
    m, _ = C.batched_margin_grad(net, th, X, -2.0)
    np.testing.assert_allclose(m, -2.0 * want, atol=1e-12)


def _min_abs_preactivation(net, th, x):
    """min |a_l| over the hidden pre-activations a_l = W_l h_l + b_l of every row (distance to a kink)."""
    h, off, dist = x, 0, np.inf
    for i, (W, b) in enumerate(net.layers):
        o, n = W.shape
        a = np.einsum("boi,bi->bo", th[:, off:off + o * n].reshape(-1, o, n), h) + th[:, off + o * n:off + o * n + o]
        off += o * n + o
        if i < net.depth - 1:
            dist = min(dist, float(np.min(np.abs(a))))
        h = np.maximum(a, 0.0)
    return dist


@given(circuits(max_m=3, max_layers=3, max_width=3), st.booleans(), st.integers(0, 2**32 - 1))
def test_margin_gradient_matches_central_differences(circ, rounding, seed):
    """batched_margin_grad (hand-written reverse mode) against central finite differences, on the
    compiled nets' shapes with random real weights, inputs and signs.  Away from ReLU kinks the margin
    is piecewise polynomial in theta; with every pre-activation >= 1e-3 from 0 and steps h = 1e-6 no
    kink is crossed, the FD truncation error is O(h^2) times third derivatives and the rounding error
    ~1e-16/h = 1e-10 relative, so 1e-6 (relative to the largest entry) is a safe tolerance."""
    net = C.compile_relu(circ, rounding=rounding)
    rng = np.random.default_rng(seed)
    B, p = 3, C.flat_params(net).size
    th = rng.standard_normal((B, p))
    x = rng.standard_normal((B, circ.m))
    sign = rng.choice([-0.5, 0.5], size=B)
    assume(_min_abs_preactivation(net, th, x) > 1e-3)
    m, g = C.batched_margin_grad(net, th, x, sign)
    np.testing.assert_allclose(m, sign * C.batched_forward(net, th, x), rtol=1e-13, atol=1e-13)
    eps = 1e-6
    fd = np.empty_like(th)
    for j in range(p):
        e = np.zeros(p)
        e[j] = eps
        fd[:, j] = sign * (C.batched_forward(net, th + e, x) - C.batched_forward(net, th - e, x)) / (2 * eps)
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-6 * max(1.0, float(np.abs(fd).max())))


def test_margin_gradient_at_the_construction_is_finite_and_zero_off_active_paths():
    """At theta0 of a compiled net pre-activations sit exactly on kinks (e.g. AND(0, 1): 0 + 1 - 1 = 0);
    the convention relu'(0) = 0 must give a finite gradient, and the output bias always gets dm/db = sign."""
    circ = C.Circuit(2, ((("AND", (0, 1)),),))
    net = C.compile_relu(circ)
    X = cube(2).astype(float)
    th = np.tile(C.flat_params(net), (4, 1))
    m, g = C.batched_margin_grad(net, th, X, 0.5)
    assert np.all(np.isfinite(g))
    np.testing.assert_array_equal(g[:, -1], 0.5)
    np.testing.assert_array_equal(m, 0.5 * np.array([-1.0, -1.0, -1.0, 1.0]))


def test_batched_forward_validation():
    net = C.compile_relu(C.Circuit(2, ((("AND", (0, 1)),),)))
    p = C.flat_params(net).size
    with pytest.raises(ValueError, match="argument 'theta'"):
        C.batched_forward(net, np.zeros((2, p + 1)), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="argument 'x'"):
        C.batched_margin_grad(net, np.zeros((2, p)), np.zeros((3, 2)), 1.0)
    with pytest.raises(ValueError, match="argument 'upto_block'"):
        C.batched_forward(net, np.zeros((2, p)), np.zeros((2, 2)), upto_block=len(net.block_ends))
    h = C.batched_forward(net, np.tile(C.flat_params(net), (4, 1)), cube(2), upto_block=0)
    np.testing.assert_array_equal(h[:, 0], [0, 0, 0, 1])  # the AND block's output


def test_round_block_fixes_binary_values_and_the_grid():
    blk = C.round_block(1)
    ident = (np.array([[Fraction(1)]], dtype=object), np.array([Fraction(0)], dtype=object))
    net = C.ReluNet(tuple(blk) + (ident,), (1,), (True,))
    zs = [Fraction(k, 12) for k in range(-12, 25)]
    out = C.forward_exact(net, np.array([[z] for z in zs], dtype=object))
    for z, o in zip(zs, out):
        want = 0 if z < Fraction(1, 3) else 1 if z >= Fraction(2, 3) else 3 * z - 1
        assert o == want


@pytest.mark.parametrize("bad, match", [
    ({"m": 2, "layers": ((("XOR", (0, 1)),),)}, "unknown gate type 'XOR'"),
    ({"m": 2, "layers": ((("AND", (0,)),),)}, "needs 2"),
    ({"m": 2, "layers": ((("NOT", (5,)),),)}, r"parent 5 .* \[0, 1\]"),
    ({"m": 2, "layers": ((("ID", (0,)), ("ID", (1,))),)}, "exactly 1 gate"),
    ({"m": 0, "layers": ((("ID", (0,)),),)}, "argument 'm'"),
])
def test_circuit_validation(bad, match):
    with pytest.raises(ValueError, match=match):
        C.Circuit(**bad)


def test_random_circuit_validation():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="argument 'q'"):
        C.random_circuit(rng, 2, 1, 3)
    with pytest.raises(ValueError, match="unknown gate type"):
        C.random_circuit(rng, 2, 3, 3, gates=("AND", "NAND"))
    c = C.random_circuit(rng, 3, 5, 4)
    assert c.depth == 5 and c.width >= 3 and len(c.layers[-1]) == 1


def test_params_formula_and_validation():
    assert C.params_formula(3, 2, 2) == 3 * 2 + 9 + 3 + 6 + 1
    with pytest.raises(ValueError, match="argument 'w'"):
        C.params_formula(0, 2, 2)


def test_min_flip_radius_linear_model_matches_distance_to_hyperplane():
    rng = np.random.default_rng(1)
    th = rng.standard_normal(4)
    x = rng.standard_normal(4)
    s = float(np.sign(th @ x))

    def mf(theta):
        return s * (theta @ x), np.broadcast_to(s * x, theta.shape)

    r, d = C.min_flip_radius(mf, th, 1, rng=rng, restarts=2, steps=20, bisections=18, r_max=8.0)
    assert abs(r[0] - abs(th @ x) / np.linalg.norm(x)) < 1e-4
    assert s * ((th + d[0]) @ x) <= 0  # the certificate flips the sign
    r2, d2 = C.min_flip_radius(mf, th, 1, rng=np.random.default_rng(7), restarts=2, steps=20, bisections=18, r_max=8.0)
    r3, d3 = C.min_flip_radius(mf, th, 1, rng=np.random.default_rng(7), restarts=2, steps=20, bisections=18, r_max=8.0)
    assert r2[0] == r3[0] and np.array_equal(d2, d3)  # seeded: reproducible bit for bit


@pytest.mark.parametrize("flip", [1.0, -1.0])
def test_min_flip_radius_never_reports_an_uncertified_radius(flip):
    """With the true gradient (flip = 1) every input's margin is found; with a sign-flipped gradient
    the attack climbs instead of descending, yet whatever it reports stays certified: each finite
    radius is the norm of a delta that flips the sign."""
    circ = C.Circuit(2, ((("AND", (0, 1)), ("OR", (0, 1))), (("AND", (0, 1)),)))
    net = C.compile_relu(circ)
    X = cube(2).astype(float)
    y = C.evaluate_circuit(circ, X.astype(np.int64))
    th0 = C.flat_params(net)

    def mf(theta):
        m, g = C.batched_margin_grad(net, theta, X, y - 0.5)
        return m, flip * g

    r, d = C.min_flip_radius(mf, th0, len(X), rng=np.random.default_rng(3), restarts=1, steps=10, bisections=8)
    for k in range(len(X)):
        if np.isfinite(r[k]):
            assert abs(np.linalg.norm(d[k]) - r[k]) < 1e-12
            out = C.batched_forward(net, (th0 + d[k])[None, :], X[k:k + 1])
            assert (y[k] - 0.5) * out[0] <= 0
    if flip == 1.0:
        assert np.all(np.isfinite(r)) and np.all(r < 1.0)


def test_min_flip_radius_reports_inf_when_nothing_flips():
    def mf(theta):
        return np.ones(theta.shape[0]), np.zeros(theta.shape)

    r, _ = C.min_flip_radius(mf, np.zeros(2), 1, rng=np.random.default_rng(0), steps=3, bisections=2)
    assert np.isinf(r[0])


def test_min_flip_radius_validation():
    def bad_shape(theta):
        return np.ones(theta.shape[0]), np.zeros(theta.shape[0])

    with pytest.raises(ValueError, match="argument 'margin_fn'"):
        C.min_flip_radius(bad_shape, np.zeros(2), 1, rng=np.random.default_rng(0), steps=1, bisections=0)
    with pytest.raises(ValueError, match="argument 'starts'"):
        C.min_flip_radius(bad_shape, np.zeros(2), 1, rng=np.random.default_rng(0), restarts=1, starts=np.eye(2))
    with pytest.raises(ValueError, match="argument 'r_max'"):
        C.min_flip_radius(bad_shape, np.zeros(2), 1, rng=np.random.default_rng(0), r_max=-1.0)
