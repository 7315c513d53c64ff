"""Certified hinge minima: the L2-ball bracket against an exact 1-D enumeration, LP consistency, bad input."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.hinge_opt import hinge_loss, hinge_min_l2_ball, hinge_min_lp


def _exact_1d_min(phi: np.ndarray, y: np.ndarray, M: Fraction) -> Fraction:
    """min_{|u| <= M} F(u) for one integer feature: F is piecewise linear, so the min is at a kink or an end."""
    rows = [(int(a), int(b)) for a, b in zip(phi[:, 0], y)]
    points = {-M, M} | {Fraction(1, b * a) for a, b in rows if a != 0 and abs(Fraction(1, b * a)) <= M}

    def F(u):
        return sum(max(Fraction(0), 1 - b * a * u) for a, b in rows) / len(rows)

    return min(F(u) for u in points)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.sampled_from([-1, 1])), min_size=1, max_size=8),
       st.integers(1, 12))
def test_ball_bracket_contains_exact_1d_minimum(rows, m4):
    phi = np.array([[a] for a, _ in rows], dtype=np.float64)
    y = np.array([b for _, b in rows], dtype=np.float64)
    M = Fraction(m4, 4)
    res = hinge_min_l2_ball(phi, y, float(M))
    exact = float(_exact_1d_min(phi, y, M))
    assert res.lower <= exact + 1e-12 and exact <= res.upper + 1e-12
    assert res.gap <= 1e-9
    assert np.linalg.norm(res.u) <= float(M)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.floats(0.1, 5.0))
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


def test_separable_data_reaches_zero():
    phi = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    y = np.array([1.0, 1.0, -1.0])
    assert hinge_min_lp(phi, y).value == 0.0
    assert hinge_min_l2_ball(phi, y, 2.0).upper == 0.0


@pytest.mark.parametrize(
    "call,match",
    [
        pytest.param(lambda: hinge_min_lp(np.ones(3), np.ones(3)), "features", id="features-1d"),
        pytest.param(lambda: hinge_min_lp(np.ones((3, 1)), np.ones(2)), "labels", id="labels-shape"),
        pytest.param(lambda: hinge_min_l2_ball(np.ones((3, 1)), np.ones(3), -1.0), "radius", id="radius-negative"),
        pytest.param(lambda: hinge_min_lp(np.ones((3, 1)), np.ones(3), l1_radius=float("nan")), "l1_radius", id="l1-nan"),
    ],
)
def test_bad_arguments_name_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()
