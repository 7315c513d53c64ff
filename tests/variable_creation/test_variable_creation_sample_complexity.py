"""Unit tests of the helpers of verify.variable_creation.transformer_sample_complexity (Fig 4.2, E33)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.variable_creation.transformer_sample_complexity import (
    MODELS,
    SUCCESS_ACC,
    bootstrap_fits,
    first_success,
    fit_sse,
    power_exponent,
    prefix_accuracy,
    trial_data,
)

TS = [8, 16, 32, 64, 128]


@given(st.sampled_from(sorted(MODELS)), st.floats(-50, 50), st.floats(0.01, 20))
def test_fit_recovers_exact_family_and_it_wins(model, a, b):
    m = a + b * MODELS[model](np.array(TS, dtype=float))
    fa, fb, sse = fit_sse(TS, m, model)
    assert abs(fa - a) < 1e-6 * (1 + abs(a)) + 1e-6 and abs(fb - b) < 1e-6 * (1 + b)
    assert sse < 1e-12 * (1 + float(m @ m))
    assert all(fit_sse(TS, m, other)[2] > sse for other in MODELS if other != model)


@given(st.floats(0.5, 50), st.floats(-1, 2))
def test_power_exponent_exact_on_power_laws(c, alpha):
    assert abs(power_exponent(TS, c * np.array(TS, dtype=float) ** alpha) - alpha) < 1e-9


def test_power_exponent_is_exactly_zero_on_constant_thresholds():
    assert power_exponent(TS, [30] * len(TS)) == 0.0


def test_bootstrap_on_noiseless_trials_is_degenerate():
    # every trial of T has m* = round(10 + 5 ln T): all resamples give the same thresholds
    thr = [round(10 + 5 * np.log(T)) for T in TS]
    samples = [np.full(12, v) for v in thr]
    out = bootstrap_fits(np.random.default_rng(0), samples, TS, reps=50)
    lo, hi = out["alpha_ci95"]
    assert abs(lo - power_exponent(TS, thr)) < 1e-12 and abs(hi - lo) < 1e-12
    winner = min(MODELS, key=lambda k: fit_sse(TS, thr, k)[2])
    assert out["win_fraction"][winner] == 1.0


@settings(max_examples=20)
@given(st.integers(3, 40), st.integers(0, 2**31 - 1))
def test_trial_data_is_a_seeded_3_sparse_and(T, seed):
    I, B, y, Bv, yv = trial_data(seed, T, 50, 30)
    assert len(set(I.tolist())) == 3 and 0 <= I.min() and I.max() < T
    assert np.array_equal(y == 1, B[:, I].all(axis=1)) and np.array_equal(yv == 1, Bv[:, I].all(axis=1))
    I2, B2, *_ = trial_data(seed, T, 50, 30)
    assert np.array_equal(I, I2) and np.array_equal(B, B2)


def test_first_success_sentinel_when_training_cannot_succeed():
    # one Adam step from a 0.02-scale init cannot reach 99% validation accuracy on any prefix
    assert first_success(5, 8, 4, 16, restarts=1, steps=1, n_val=300) == (18, 1)


def test_first_success_is_a_bisection_boundary():
    seed, T, d, m_max, restarts, steps = 11, 8, 8, 40, 1, 150
    m_star, used = first_success(seed, T, d, m_max, restarts, steps, n_val=500)
    assert 4 <= m_star <= m_max and m_star % 2 == 0 and 1 < used <= 7
    data = trial_data(seed, T, m_max, 500)
    assert prefix_accuracy(seed, T, d, m_star, data, restarts, steps) > SUCCESS_ACC
    if m_star > 4:
        assert prefix_accuracy(seed, T, d, m_star - 2, data, restarts, steps) <= SUCCESS_ACC
