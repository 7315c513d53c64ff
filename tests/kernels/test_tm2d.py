"""kernels.constructions.tm2d: the base-3 cell encoding, the numba layer against the Fraction reference of the printed
case lists, the RCNN roll-out against the plain 2D-TM simulator (both protocols) on random machines,
the lookup machine, fixed-size compilation, Algorithm 1's memorisation, the head, and bad input."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernels.constructions import tm2d as T
from kernels.constructions import tm2d_grid as TG

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def machines(draw, *, max_states: int = 5, reads_flags: bool = False, first_step_stays: bool = True):
    s = draw(st.integers(1, max_states))
    shape = (s, 3, 16) if reads_flags else (s, 3)
    n = int(np.prod(shape))
    ns = np.array(draw(st.lists(st.integers(0, s - 1), min_size=n, max_size=n))).reshape(shape)
    wr = np.array(draw(st.lists(st.integers(-1, 1), min_size=n, max_size=n))).reshape(shape)
    mv = np.array(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))).reshape(shape)
    if first_step_stays:
        wr[0] = np.array([-1, 0, 1]).reshape((3, 1) if reads_flags else (3,))
        mv[0] = T.STAY
    return T.machine_from_tables(ns, wr, mv)


@st.composite
def instances(draw, *, max_m: int = 3, max_d: int = 3):
    m = draw(st.integers(1, max_m))
    d = draw(st.integers(1, max_d))
    X = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=m * d, max_size=m * d))).reshape(m, d)
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=m, max_size=m)))
    x = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=d, max_size=d)))
    return X, y, x


def xor_W(X, y):
    m, d = X.shape
    W = np.empty((m + 1, d + 1), dtype=object)
    for a in range(m):
        for b in range(d):
            W[a, b] = Fraction(int(y[a] * X[a, b]), 3)
        W[a, d] = Fraction(int(y[a]), 3)
    W[m, :] = Fraction(1, 3)
    return W


def start_tape(G, d):
    tape = np.zeros(G.shape, np.int8)
    tape[:, : d + 1] = np.sign(G[:, : d + 1])
    return tape


def same_config(grid, spec, tr, k):
    dec = TG.decode_grid(grid, spec)
    if dec["invalid"] or not np.array_equal(dec["symbols"], tr.tapes[k]):
        return False
    h = tuple(int(v) for v in tr.heads[k])
    if h[0] < 0:
        return dec["heads"] == []
    return len(dec["heads"]) == 1 and dec["heads"][0][:3] == (h[0], h[1], int(tr.states[k])) and dec["heads"][0][3] == 0


# ---------------------------------------------------------------------------------------------
# encoding
# ---------------------------------------------------------------------------------------------


@SETTINGS
@given(st.integers(4, 12).flatmap(lambda N: st.tuples(st.just(N), st.lists(st.integers(-1, 1), min_size=N + 1, max_size=N + 1))))
def test_encoding_round_trip(args):
    N, digits = args
    enc = T.CellEncoding(N)
    A = enc.encode(digits)
    assert A % 2 == 0
    assert enc.digits(A) == tuple(digits)
    assert enc.from_scaled(A) == sum(Fraction(a, 3**i) for i, a in enumerate(digits))
    assert enc.to_scaled(enc.from_scaled(A)) == A


def test_padding_is_never_a_code():
    for N in range(4, 12):
        enc = T.CellEncoding(N)
        assert enc.to_scaled(Fraction(1, 6)) == enc.pad
        assert enc.digits(enc.pad) is None and enc.digits(enc.invalid) is None
    enc = T.CellEncoding(5)
    codes = sorted(enc.encode(d) for d in itertools.product((-1, 0, 1), repeat=6))
    assert min(b - a for a, b in itertools.pairwise(codes)) == 2  # gap 3^{-N}
    assert min(abs(c - enc.pad) for c in codes) == 1  # distance 3^{-N}/2


def test_cell_builder_matches_digits():
    enc = T.CellEncoding(6)
    A = enc.cell(ones=1, symbol=-1, phase=1, head=1, code=-7)
    assert enc.val(A, 0) == 1 and enc.val(A, 1) == -1 and enc.val(A, 2) == 1 and enc.val(A, 3) == 1
    assert enc.state_code(A) == -7


# ---------------------------------------------------------------------------------------------
# the layer: numba kernel == Fraction reference of the printed case lists
# ---------------------------------------------------------------------------------------------


@st.composite
def grids_for(draw, spec: TG.LayerSpec, *, max_r=4, max_c=5):
    enc = spec.enc
    R, C = draw(st.integers(1, max_r)), draw(st.integers(1, max_c))
    codes = [int(c) for c in np.ravel(spec.codes)]
    cells = []
    for _ in range(R * C):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            cells.append(enc.pad)
        elif kind == 1:
            cells.append(draw(st.sampled_from([0, enc.scale, -2 * 3 ** (enc.N - 2), 2 * 3 ** (enc.N - 1), -2 * 3 ** (enc.N - 1)])))
        else:
            head = draw(st.integers(0, 1)) if kind > 5 else 0
            cells.append(enc.cell(ones=draw(st.integers(0, 1)), symbol=draw(st.integers(-1, 1)), phase=draw(st.integers(-1, 1)),
                                  head=head, code=draw(st.sampled_from(codes)) if head else 0))
    return np.array(cells, np.int64).reshape(R, C)


VARIANTS = [{}, {"head_right_state_from": "above"}, {"memory_broadcast": "four"}, {"compute_broadcast": "vertical"},
            {"head_start": "left"}]


@SETTINGS
@given(machines(max_states=4), st.sampled_from(VARIANTS), st.data())
def test_layer_kernel_matches_reference_paper(M, variant, data):
    spec = TG.spec_for(M, **variant)
    G = data.draw(grids_for(spec))
    a, ga = TG.conv_layer(G, spec, backend="reference")
    b, gb = TG.conv_layer(G, spec)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(ga, gb)


@SETTINGS
@given(machines(max_states=3, reads_flags=True, first_step_stays=False), st.data())
def test_layer_kernel_matches_reference_two_layer(M, data):
    spec = TG.spec_for(M, protocol="two_layer")
    G = data.draw(grids_for(spec))
    a, ga = TG.conv_layer(G, spec, backend="reference")
    b, gb = TG.conv_layer(G, spec)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(ga, gb)


def test_gradient_spec_is_centre_only_and_matches_case_1():
    spec = TG.LayerSpec(4)
    p = Fraction(1, 6)
    v, g = TG.conv2d_reference([[p, p, p], [p, 0, 0], [0, 0, 0]], spec)
    assert v == Fraction(-1, 9) and g == ((0, 0, 0), (0, 1, 0), (0, 0, 0))
    v, g = TG.conv2d_reference([[0, Fraction(-1, 9), 0], [0, 0, 0], [0, 0, 0]], spec)
    assert v == Fraction(-1, 9) and g == ((0, 0, 0), (0, 0, 0), (0, 0, 0))  # case 2: constant, slope 0
    v, g = TG.conv2d_reference([[0, 0, 0], [0, Fraction(-1, 9), 0], [0, 0, 0]], spec)
    assert v == Fraction(-1, 9) and g[1][1] == 1  # memory phase: identity


# ---------------------------------------------------------------------------------------------
# roll-out == simulator
# ---------------------------------------------------------------------------------------------


@SETTINGS
@given(machines(max_states=6), instances(), st.integers(2, 10))
def test_rollout_matches_simulator_paper_protocol(M, inst, layers):
    X, y, x = inst
    m, d = X.shape
    spec = TG.spec_for(M)
    G = TG.memory_grid(xor_W(X, y), list(x) + [1], layers, spec.enc)
    ro = TG.rollout(G, spec, layers, keep=True)
    tr = T.simulate(M, start_tape(G, d), (m, d), layers)
    for k in range(1, layers + 1):
        assert same_config(ro.grids[k], spec, tr, k - 1), k


@SETTINGS
@given(machines(max_states=4, reads_flags=True, first_step_stays=False), instances(), st.integers(1, 7))
def test_rollout_matches_simulator_two_layer_protocol(M, inst, steps):
    X, y, x = inst
    m, d = X.shape
    spec = TG.spec_for(M, protocol="two_layer")
    layers = 1 + 2 * steps
    G = TG.memory_grid(xor_W(X, y), list(x) + [1], layers, spec.enc)
    ro = TG.rollout(G, spec, layers, keep=True)
    tr = T.simulate(M, start_tape(G, d), (m, d), steps)
    for k in range(steps + 1):
        assert same_config(ro.grids[1 + 2 * k], spec, tr, k), k


def test_printed_typo_changes_the_state_on_a_left_move():
    # start stays and goes to state 1; state 1 on symbol +1 moves left into state 2
    ns = np.array([[1, 1, 1], [2, 2, 2], [2, 2, 2]])
    wr = np.array([[-1, 0, 1], [1, 1, 1], [1, 1, 1]])
    mv = np.array([[0, 0, 0], [3, 3, 3], [0, 0, 0]])
    M = T.machine_from_tables(ns, wr, mv)
    X, y, x = np.array([[1, 1]]), np.array([1]), np.array([1, 1])
    for variant, ok in (("right", True), ("above", False)):
        spec = TG.spec_for(M, head_right_state_from=variant)
        G = TG.memory_grid(xor_W(X, y), list(x) + [1], 4, spec.enc)
        ro = TG.rollout(G, spec, 4, keep=True)
        tr = T.simulate(M, start_tape(G, 2), (1, 2), 4)
        assert all(same_config(ro.grids[k], spec, tr, k - 1) for k in range(1, 5)) == ok


# ---------------------------------------------------------------------------------------------
# simulator, compilation, lookup machine
# ---------------------------------------------------------------------------------------------


def test_simulator_hand_case_and_head_loss():
    ns = np.zeros((1, 3), np.int64)
    wr = np.array([[1, 1, 1]])
    mv = np.full((1, 3), T.UP)
    tr = T.simulate(T.machine_from_tables(ns, wr, mv), np.zeros((2, 2), np.int8), (1, 0), 3)
    assert tr.tapes[1].tolist() == [[0, 0], [1, 0]] and tuple(tr.heads[1]) == (0, 0)
    assert tr.lost_at == 2 and tuple(tr.heads[3]) == (-1, -1)
    assert tr.tapes[3].tolist() == [[1, 0], [1, 0]]


@SETTINGS
@given(machines(max_states=4, reads_flags=True), st.integers(1, 4), st.integers(1, 4), st.integers(0, 10**6))
def test_compiled_machine_follows_the_flag_reading_one(M, R, C, seed):
    rng = np.random.default_rng(seed)
    tape = rng.integers(-1, 2, size=(R, C))
    start = (R - 1, C - 1)
    CM, info = T.compile_fixed_size(M, R, C, C, start)
    assert not CM.reads_flags
    a = T.simulate(M, tape, start, 12)
    b = T.simulate(CM, tape, start, 12)
    np.testing.assert_array_equal(a.tapes, b.tapes)
    np.testing.assert_array_equal(a.heads, b.heads)
    order = info["order"]
    for k in range(13):
        if a.heads[k][0] >= 0:
            assert order[b.states[k]] == (a.states[k], *a.heads[k])


@pytest.mark.parametrize("m,d", [(1, 1), (2, 3), (3, 2), (4, 1)])
def test_lookup_machine_halts_at_top_left_with_the_learner_output(m, d):
    M = T.lookup_machine()
    halt = M.names.index("halt")
    rng = np.random.default_rng(m * 10 + d)
    for _ in range(4):
        X = rng.choice([-1, 1], size=(m, d))
        y = rng.choice([-1, 1], size=m)
        for x in itertools.product((-1, 1), repeat=d):
            G = TG.memory_grid(xor_W(X, y), list(x) + [1], 3, T.CellEncoding(4))
            tape = np.zeros((m + 1, d + 1 + 4 * (m + 2) * (d + 3)), np.int8)
            tape[:, : d + 1] = start_tape(G, d)[:, : d + 1]
            tr = T.simulate(M, tape, (m, d), tape.shape[1])
            assert tr.lost_at is None and tr.states[-1] == halt and tuple(tr.heads[-1]) == (0, 0)
            block = tr.tapes[-1][:, : d + 1].copy()
            assert block[0, 0] == T.lookup_learner(X, y, x)
            block[0, 0] = 0
            assert not block.any()


# ---------------------------------------------------------------------------------------------
# Algorithm 1 and the head
# ---------------------------------------------------------------------------------------------


@SETTINGS
@given(instances(max_m=3, max_d=3), st.integers(0, 2))
def test_algorithm1_memorises_the_xor_rows(inst, extra):
    X, y, _ = inst
    m, _ = X.shape
    run = TG.algorithm1(X, y, TG.LayerSpec(4), m + 1 + extra)
    assert run.error is None and all(f == 0 for f in run.outputs)
    W = run.W[-1]
    ref = xor_W(np.vstack([X, np.ones((1, X.shape[1]), int)]), np.concatenate([y, [1]]))[:-1]
    assert np.array_equal(W, ref)


def test_head_functions():
    w = TG.head_relu_weights()
    for k in range(-60, 61):
        v = Fraction(k, 108)
        assert TG.head_relu(v, w) == TG.head_bar(v)
    assert TG.head_bar(Fraction(1, 9)) == 0 and TG.head_bar(Fraction(1, 9), printed=True) == 1
    assert TG.head_bar(0) == 2 and TG.head_bar(0, printed=True) == 1
    assert TG.head_bar_slope(Fraction(-1, 9)) == 18
    with pytest.raises(T.NotDifferentiable):
        TG.head_bar_slope(Fraction(1, 9))


# ---------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="next_state"):
        T.machine_from_tables(np.zeros((2, 4)), np.zeros((2, 4)), np.zeros((2, 4)))
    with pytest.raises(ValueError, match="move"):
        T.machine_from_tables(np.zeros((1, 3)), np.zeros((1, 3)), np.full((1, 3), 7))
    with pytest.raises(ValueError, match="write"):
        T.machine_from_tables(np.zeros((1, 3)), np.full((1, 3), 2), np.zeros((1, 3)))
    M = T.random_machine(np.random.default_rng(0), 2)
    with pytest.raises(ValueError, match="head"):
        T.simulate(M, np.zeros((2, 2)), (5, 0), 3)
    with pytest.raises(ValueError, match="steps"):
        T.simulate(M, np.zeros((2, 2)), (0, 0), -1)
    with pytest.raises(ValueError, match="N"):
        T.CellEncoding(2)
    with pytest.raises(ValueError, match="protocol"):
        TG.LayerSpec(5, M, protocol="three_layer")
    with pytest.raises(ValueError, match="codes"):
        TG.LayerSpec(5, M, np.array([1, 0]))
    with pytest.raises(ValueError, match="codes"):
        TG.LayerSpec(4, T.random_machine(np.random.default_rng(0), 9))
    with pytest.raises(ValueError, match="machine"):
        TG.spec_for(T.random_machine(np.random.default_rng(0), 2, reads_flags=True))
    spec = TG.spec_for(M)
    with pytest.raises(ValueError, match="backend"):
        TG.conv_layer(np.zeros((2, 2), np.int64), spec, backend="gpu")
    with pytest.raises(ValueError, match="grid"):
        TG.rollout(np.zeros((2, 2)), spec, 1)
    with pytest.raises(ValueError, match="layers"):
        TG.rollout(np.zeros((2, 2), np.int64), spec, -1)
    with pytest.raises(ValueError, match="'z'"):
        TG.memory_grid(np.zeros((2, 2), object), [1], 1, spec.enc)
    with pytest.raises(T.NotRepresentable):
        TG.memory_grid(np.full((1, 1), Fraction(1, 5), dtype=object), [1], 1, spec.enc)
