"""Tests of the helpers behind the training-curve figure claims (Figures B.1, B.2, B.9, B.13).

Oracles: the exhaustive evaluation of a disjoint-PolyNet over the cube (kernels.boolean.polynet) for the exact
error; exact interpolation for the oscillating polynomial; a hand-computed GD step for the population-GD loop;
the movement and held-out loss helpers against direct numpy formulas.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernels.boolean.polynet import disjoint_polynet_error_exhaustive
from kernels.boolean.polynet_flow import relevant_velocity
from verify.hidden_progress.figures_b_assorted import _adjacent, oscillating_polynomial
from verify.hidden_progress.figures_b_curves import (
    _ffill,
    _gaussian_inits,
    _gd_block,
    _population_gd,
    _replay,
    disjoint_error,
)
from verify.hidden_progress.figures_b_trajectories import _mlp_loss, _movement


@pytest.mark.parametrize("seed", range(6))
def test_disjoint_error_matches_the_exhaustive_cube(seed):
    rng = np.random.default_rng(seed)
    k, n1 = (2, 3) if seed % 2 else (3, 4)
    w = rng.standard_normal((k, n1))
    if seed == 4:
        w = rng.integers(-2, 3, size=(k, n1)).astype(float)  # ties: zero outputs count as errors
    assert disjoint_error(w) == pytest.approx(disjoint_polynet_error_exhaustive(list(w)), abs=1e-12)


def test_gaussian_inits_are_conditioned_on_a_positive_product():
    W = _gaussian_inits(7, 500, 3, 5)
    assert np.all(np.prod(W[:, :, 0], axis=1) > 0)
    assert abs(float(np.mean(W[:, :, 1:]))) < 0.1 and abs(float(np.std(W)) - 1.0) < 0.1


def test_replay_is_the_gd_recursion():
    v0 = np.array([[0.5, 1.0, 2.0], [1.0, -1.0, -0.5]])
    steps = np.array([[0, 1, 2], [1, 2, 2]])
    out = _replay(v0, 0.1, steps)
    v1 = v0 + 0.1 * relevant_velocity(v0)
    v2 = v1 + 0.1 * relevant_velocity(v1)
    assert np.array_equal(out[0], np.stack([v0[0], v1[0], v2[0]]))
    assert np.array_equal(out[1], np.stack([v1[1], v2[1], v2[1]]))
    assert np.allclose(v1[0], [0.5 + 0.1 * 2.0, 1.0 + 0.1 * 1.0, 2.0 + 0.1 * 0.5])


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_gd_block_is_the_numpy_loop_bit_for_bit(k):
    """The numba GD steps against the numpy loop they replace (relevant_velocity), with inactive rows and
    overflow to inf/nan in the later steps."""
    rng = np.random.default_rng(k)
    V0 = rng.standard_normal((7, k)) * 3.0
    active = np.array([True, False, True, True, False, True, True])
    eta, C = 0.37, 60
    V = V0.copy()
    block = np.empty((C, 7, k))
    _gd_block(V, active, eta, block)
    W = V0.copy()
    ref = np.empty((C, 7, k))
    ref[0] = W
    with np.errstate(over="ignore", invalid="ignore"):
        for c in range(1, C):
            W[active] = W[active] + eta * relevant_velocity(W[active])
            ref[c] = W
    assert np.array_equal(block, ref, equal_nan=True) and np.array_equal(V, W, equal_nan=True)
    steps = rng.integers(0, C, size=(7, 4))
    out = _replay(V0, eta, steps)
    cols = np.arange(7)[:, None]
    full = np.empty((C, 7, k))
    W = V0.copy()
    with np.errstate(over="ignore", invalid="ignore"):
        for c in range(C):
            full[c] = W
            W = W + eta * relevant_velocity(W)
    assert np.array_equal(out, full[steps, cols], equal_nan=True)


def test_population_gd_plateau_then_zero_error():
    g = _population_gd(3, 3, 8, 6, 1e-3, 50_000)
    assert np.all(g.t_zero > 0) and np.all(g.t_level <= g.t_zero) and np.all(g.t_level > 0)
    for steps, err in g.curves:  # the error never increases along the flow (|v_i| grows when prod v > 0)
        assert np.all(np.diff(err) <= 1e-12) and err[-1] == 0.0
    assert np.nanmax(g.flow_dev) < 0.02


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_oscillating_polynomial_interpolates_the_zigzag_points(k):
    act = oscillating_polynomial(k)
    z = np.array([k - 2.0 * m for m in range(k + 1)])
    assert np.allclose(act(z), [(-1.0) ** m for m in range(k + 1)], atol=1e-9)
    assert len(act.params) == k + 1


def test_adjacent_pairs_differ_in_one_coordinate():
    pairs = _adjacent([(30, 3), (60, 3), (90, 3), (30, 4), (30, 5), (60, 4)])
    assert ((30, 3), (60, 3)) in pairs and ((60, 3), (90, 3)) in pairs and ((30, 3), (30, 4)) in pairs
    assert ((30, 4), (30, 5)) in pairs and ((30, 4), (60, 4)) in pairs and ((60, 3), (60, 4)) in pairs
    assert all((a[0] == b[0]) != (a[1] == b[1]) for a, b in pairs)
    assert ((30, 3), (90, 3)) not in pairs


def test_movement_and_mlp_loss():
    rng = np.random.default_rng(0)
    n, r, D = 5, 3, 4
    snaps = rng.standard_normal((D, n * r + 2 * r + 1)).astype(np.float32)
    mv = _movement(snaps, n, r)
    W = snaps[:, : n * r].reshape(D, n, r).astype(np.float64)
    assert np.allclose(mv, np.abs(W - W[0]).max(axis=2))
    X = rng.choice([-1.0, 1.0], size=(7, n))
    y = np.prod(X[:, :2], axis=1)
    L = _mlp_loss(snaps, n, r, X, y)
    for d in range(D):
        th = snaps[d].astype(np.float64)
        f = np.maximum(X @ th[: n * r].reshape(n, r) + th[n * r : n * r + r], 0) @ th[n * r + r : n * r + 2 * r] + th[-1]
        assert L[d] == pytest.approx(np.mean(np.maximum(0, 1 - y * f)))


def test_ffill():
    a = np.array([[1.0, np.nan, 2.0, np.nan, np.nan]])
    assert np.array_equal(_ffill(a), [[1.0, 1.0, 2.0, 2.0, 2.0]])
