"""Certified hinge minima: the L2-ball bracket against an exact 1-D enumeration, weak duality at random
feasible points, consistency with the LPs (unconstrained <= L2 ball <= L1 ball), each refinement step, bad input."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels import chi, sign_vectors
from kernels.training.hinge_opt import hinge_loss, hinge_min_l2_ball, hinge_min_lp

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _exact_1d_min(phi: np.ndarray, y: np.ndarray, M: Fraction) -> Fraction:
    """min_{|u| <= M} F(u) for one integer feature: F is piecewise linear, so the min is at a kink or an end."""
    rows = [(int(a), int(b)) for a, b in zip(phi[:, 0], y)]
    points = {-M, M} | {Fraction(1, b * a) for a, b in rows if a != 0 and abs(Fraction(1, b * a)) <= M}

    def F(u):
        return sum(max(Fraction(0), 1 - b * a * u) for a, b in rows) / len(rows)

    return min(F(u) for u in points)


def _dual(phi, y, M, alpha) -> float:
    """D(alpha) = sum alpha - M ||sum alpha_j y_j phi_j||: a lower bound for every alpha in [0, 1/N]^N."""
    return float(alpha.sum()) - M * float(np.linalg.norm((y[:, None] * phi).T @ alpha))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.sampled_from([-1, 1])), min_size=1, max_size=12),
       st.integers(1, 12))
def test_ball_bracket_contains_exact_1d_minimum(rows, m4):
    phi = np.array([[a] for a, _ in rows], dtype=np.float64)
    y = np.array([b for _, b in rows], dtype=np.float64)
    M = Fraction(m4, 4)
    res = hinge_min_l2_ball(phi, y, float(M))
    exact = float(_exact_1d_min(phi, y, M))
    assert res.lower - 1e-12 <= exact <= res.upper + 1e-12
    assert res.gap <= 1e-12
    assert np.linalg.norm(res.u) <= float(M)
    assert res.method in ("alpha = 1 (linear on the ball)", "1-d breakpoints (exact)")


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 6), D=st.integers(2, 6), seed=seeds, R=st.floats(0.1, 12.0))
def test_ball_bracket_holds_by_weak_duality(n, D, seed, R):
    """Random ReLU-type features on the cube, a parity label: every feasible u has F(u) >= lower."""
    rng = np.random.default_rng(seed)
    X = sign_vectors(n).astype(np.float64)
    psi = np.maximum(X @ rng.standard_normal((n, D)) + rng.standard_normal(D), 0.0) + 0.1 * rng.standard_normal((1 << n, D))
    psi /= np.max(np.linalg.norm(psi, axis=1))
    y = chi(int(rng.integers(0, 1 << n)), n).astype(np.float64)
    res = hinge_min_l2_ball(psi, y, R)
    assert res.lower <= res.upper + 1e-12
    assert res.lower >= 1.0 - R * np.linalg.norm((y[:, None] * psi).mean(axis=0)) - 1e-12  # never below alpha = 1
    assert np.linalg.norm(res.u) <= R
    assert hinge_loss(psi, y, res.u) == res.upper
    assert np.all((0 <= res.alpha) & (res.alpha <= 1.0 / len(y)))
    assert _dual(psi, y, R, res.alpha) == pytest.approx(res.lower, abs=1e-13)  # alpha certifies the lower bound
    for _ in range(20):  # weak duality: every feasible u has loss >= lower
        u = rng.standard_normal(D)
        u *= R * rng.uniform() ** (1 / D) / np.linalg.norm(u)
        assert hinge_loss(psi, y, u) >= res.lower - 1e-12
    assert res.gap <= 1e-6


@settings(max_examples=15, deadline=None)
@given(seeds, st.integers(2, 5), st.floats(0.1, 5.0))
def test_ball_bracket_is_tight_and_consistent_with_the_lps(seed, r, M):
    rng = np.random.default_rng(seed)
    phi = rng.standard_normal((24, r))
    y = rng.choice(np.array([-1.0, 1.0]), 24)
    ball = hinge_min_l2_ball(phi, y, M)
    unconstrained = hinge_min_lp(phi, y)
    l1 = hinge_min_lp(phi, y, l1_radius=M)
    assert ball.lower <= ball.upper + 1e-12 and ball.gap <= 1e-6
    assert hinge_loss(phi, y, ball.u) == pytest.approx(ball.upper, abs=1e-15)
    # unconstrained min <= min over the L2 ball <= min over the L1 ball (the L1 ball lies inside the L2 ball)
    assert unconstrained.value <= ball.upper + 1e-9
    assert ball.lower <= l1.value + 1e-9
    assert np.abs(l1.u).sum() <= M * (1 + 1e-9)


def _stalling_instance():
    """Sign features on {±1}^5 where the dual ascent of step 4 alone leaves a gap of about 1e-2 at M = 1.5."""
    rng = np.random.default_rng(25)
    X = sign_vectors(5).astype(np.float64)
    phi = np.sign(X @ rng.standard_normal((5, 4)) + 0.5 * rng.standard_normal(4))
    phi /= np.max(np.linalg.norm(phi, axis=1))
    return phi, chi(int(rng.integers(1, 1 << 5)), 5).astype(np.float64), 1.5


def test_each_refinement_closes_the_gap_where_the_dual_ascent_stalls():
    phi, y, M = _stalling_instance()
    bare = hinge_min_l2_ball(phi, y, M, slsqp_rounds=0, max_cuts=0)
    full = hinge_min_l2_ball(phi, y, M)
    cuts_only = hinge_min_l2_ball(phi, y, M, slsqp_rounds=0)
    assert bare.gap > 1e-4
    assert full.method == "SLSQP primal (ball active)" and full.gap <= 1e-12
    assert cuts_only.method.startswith("Kelley cutting planes") and cuts_only.gap <= 1e-7
    brackets = [bare, full, cuts_only]
    assert max(b.lower for b in brackets) <= min(b.upper for b in brackets) + 1e-12  # all bracket one number


def test_separable_data_reaches_zero():
    phi = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    y = np.array([1.0, 1.0, -1.0])
    assert hinge_min_lp(phi, y).value == 0.0
    assert hinge_min_l2_ball(phi, y, 2.0).upper == 0.0


def test_zero_radius_is_exact():
    phi = np.array([[1.0, 2.0], [-1.0, 0.5]])
    res = hinge_min_l2_ball(phi, np.array([1.0, -1.0]), 0.0)
    assert res.lower == res.upper == 1.0 and not np.any(res.u)


@pytest.mark.parametrize(
    "call,match",
    [
        pytest.param(lambda: hinge_min_lp(np.ones(3), np.ones(3)), "features", id="features-1d"),
        pytest.param(lambda: hinge_min_l2_ball(np.zeros((0, 2)), np.ones(0), 1.0), "features", id="features-empty"),
        pytest.param(lambda: hinge_min_lp(np.ones((3, 1)), np.ones(2)), "labels", id="labels-shape"),
        pytest.param(lambda: hinge_min_l2_ball(np.ones((3, 1)), np.ones(3), -1.0), "radius", id="radius-negative"),
        pytest.param(lambda: hinge_min_l2_ball(np.ones((2, 2)), np.ones(2), float("inf")), "radius", id="radius-inf"),
        pytest.param(lambda: hinge_min_lp(np.ones((3, 1)), np.ones(3), l1_radius=float("nan")), "l1_radius", id="l1-nan"),
        pytest.param(lambda: hinge_min_l2_ball(np.ones((2, 2)), np.ones(2), 1.0, gap_tol=-1.0), "gap_tol", id="gap-tol"),
        pytest.param(lambda: hinge_min_l2_ball(np.ones((2, 2)), np.ones(2), 1.0, max_cuts=2.5), "max_cuts", id="max-cuts"),
    ],
)
def test_bad_arguments_name_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()
