"""Tests of the helpers behind thesis_ch5.hidden_progress.rho (E32) and thesis_ch5.grokking (E34).

Oracles: the exhaustive average over the cube for the exact population loss of the sine neuron, the
binomial tail for the Clopper-Pearson bounds, true first-hitting times for the interval ratio, and
synthetic per-seed data (a memoryless world and a drifting world) on which the statements and their
mutants must be decided by the same statistic.  A small real training run checks the pairing of the
parity and noise runs (same init, same inputs, labels independent of x).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom

from kernels.activations import Activation
from kernels.boolean.cube import chi, sign_vectors
from kernels.training import parity_samples
from verify.hidden_progress.sgd_progress import (
    _GROK_NO_WD,
    _GROK_NONE,
    _GROK_PRINTED,
    _RHO_MEMORYLESS,
    _RHO_PRINTED,
    CONFIDENCE,
    LR_CATALOG,
    _cell_events,
    _sine_runs,
    _sine_stats,
    evaluate_grokking,
    evaluate_progress,
    fraction_bounds,
    interval_ratio,
    parse_cells,
    progress_stats,
    sine_population_loss,
)
from verify.registry import Evidence, Rigor

seeds = st.integers(min_value=0, max_value=2**32 - 1)


# --------------------------------------------------------------------------- exact population loss


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 9), seed=seeds, scale=st.sampled_from([1.0, 2.0]), spread=st.sampled_from([0.2, 1.0, 3.0]))
def test_sine_population_loss_equals_the_cube_average(n, seed, scale, spread):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, n + 1))
    act = Activation.parity_sine(k, scale=scale)
    W = rng.uniform(-spread, spread, size=(3, n))
    b = rng.uniform(-spread, spread, size=3)
    X = sign_vectors(n).astype(np.float64)
    y = chi((1 << k) - 1, n).astype(np.float64)  # S = the first k coordinates, as in the engine
    brute = [float(np.mean(np.maximum(0.0, 1.0 - y * act(X @ W[r] + b[r])))) for r in range(3)]
    assert np.allclose(sine_population_loss(W, b, k, act), brute, rtol=0, atol=1e-12)


def test_sine_population_loss_matches_the_engine_samples():
    """Second route: the mean hinge loss over 200,000 engine samples is within 5 SE of the formula."""
    n, k = 12, 3
    act = Activation.parity_sine(k)
    rng = np.random.default_rng(1)
    w, b = rng.uniform(-0.8, 0.8, n), 0.3
    X, y = parity_samples(5, 0, 200_000, n, k=k)
    vals = np.maximum(0.0, 1.0 - y * act(X @ w + b))
    se = vals.std() / math.sqrt(vals.size)
    assert abs(vals.mean() - sine_population_loss(w, b, k, act)) <= 5 * se


def test_sine_population_loss_rejects_bad_input():
    with pytest.raises(ValueError, match="'act'"):
        sine_population_loss(np.zeros(3), 0.0, 1, Activation.relu())
    with pytest.raises(ValueError, match="'act'"):
        sine_population_loss(np.zeros(3), 0.0, 1, Activation.sine(1.0, 0.0, amplitude=2.0))
    with pytest.raises(ValueError, match="'k'"):
        sine_population_loss(np.zeros(3), 0.0, 4, Activation.parity_sine(3))


# --------------------------------------------------------------------------- per-seed statistics


def test_progress_stats_on_a_constructed_trajectory():
    n, k, se = 6, 2, 10
    D = 11  # t = 0, 10, ..., 100 = t_c
    t = np.arange(D, dtype=np.float64)
    par = np.zeros((D, n))
    par[:, :k] = 0.1 * t[:, None]  # relevant drift
    par[:, k:] = 0.05 * t[:, None] * np.array([1, -1, 0.5, 0.2])  # irrelevant, smaller
    noise = np.zeros((D, n))
    noise[:, :] = 0.02 * t[:, None]
    loss = np.array([1.0, 1.0, 0.995, 1.004, 0.98, 0.5, 0.2, 0.1, 0.0, 0.0, 0.0])
    s = progress_stats(par, noise, loss, k, t_c=100, se=se)
    assert s["t_flat"] == 30  # the loss first leaves the 1% band at t = 40
    assert s["half"]["t"] == 50 and s["flat"]["t"] == 30
    assert s["half"]["ratio"] == pytest.approx(0.5 / 0.1) and s["flat"]["ratio"] == pytest.approx(0.3 / 0.06)
    assert s["half"]["sep"] and s["flat"]["sep"]
    assert s["flat"]["flat"] and not s["half"]["flat"]


def test_progress_stats_without_movement_or_band_exit():
    par = np.zeros((3, 4))
    loss = np.ones(3)
    s = progress_stats(par, par.copy(), loss, 2, t_c=2, se=1)
    assert s["t_flat"] == 2 and math.isnan(s["half"]["ratio"]) and not s["half"]["sep"]
    with pytest.raises(ValueError, match="'par'"):
        progress_stats(par, par, np.ones(2), 2, t_c=2, se=1)


# --------------------------------------------------------------------------- Clopper-Pearson


@settings(max_examples=40, deadline=None)
@given(total=st.integers(1, 200), data=st.data())
def test_fraction_bounds_are_the_exact_binomial_inversions(total, data):
    hits = data.draw(st.integers(0, total))
    lo, up = fraction_bounds(hits, total)
    alpha = 1 - CONFIDENCE
    if hits > 0:
        assert binom.sf(hits - 1, total, lo) == pytest.approx(alpha, rel=1e-6)  # P(X >= hits | lo) = alpha
    else:
        assert lo == 0.0
    if hits < total:
        assert binom.cdf(hits, total, up) == pytest.approx(alpha, rel=1e-6)  # P(X <= hits | up) = alpha
    else:
        assert up == 1.0


# --------------------------------------------------------------------------- the statements on synthetic data


def _synthetic_stats(rng, R: int, drift: float) -> tuple:
    """Per-seed stats of R seeds: n = 20 walks of 200 steps; the parity run adds ``drift`` per step on S."""
    n, k, T = 20, 3, 200
    out = []
    for _ in range(R):
        par = np.vstack([np.zeros(n), np.cumsum(rng.standard_normal((T, n)), axis=0)])
        par[:, :k] += drift * np.arange(T + 1)[:, None]
        noise = np.vstack([np.zeros(n), np.cumsum(rng.standard_normal((T, n)), axis=0)])
        loss = 1.0 - np.where(np.arange(T + 1) > 150, 0.5, 0.0)  # flat until t = 150, t_c = 200
        out.append(progress_stats(par, noise, loss, k, t_c=T, se=1))
    return tuple(out)


def _decide_progress(statement, stats) -> bool:
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    evaluate_progress(statement, stats, ev, {"world": "synthetic"})
    return ev.verdict().holds


def test_memoryless_world_rejects_the_printed_statement_and_keeps_the_mutant():
    stats = _synthetic_stats(np.random.default_rng(3), 64, drift=0.0)
    assert not _decide_progress(_RHO_PRINTED, stats)
    assert _decide_progress(_RHO_MEMORYLESS, stats)


def test_drifting_world_rejects_the_memoryless_mutant():
    stats = _synthetic_stats(np.random.default_rng(4), 64, drift=1.0)
    assert not _decide_progress(_RHO_MEMORYLESS, stats)
    # the printed (A) holds here; (B) needs the loss in the band at t_c/2, which this world has
    assert _decide_progress(_RHO_PRINTED, stats)


class _Res:
    def __init__(self, fitted, conv):
        self.fitted_at = np.asarray(fitted, dtype=np.int64)
        self.converged_at = np.asarray(conv, dtype=np.int64)


def _world(grok: bool, R: int = 20) -> dict:
    """Cells of a synthetic grid: small m never generalises, large m has no gap, the middle cell groks or not."""
    step = 50
    fit = [1000] * R
    cells = {
        (200, 0.01): _cell_events(_Res([250] * R, [-1] * R), step),
        (500, 0.01): _cell_events(_Res(fit, [8000 if grok else 1100] * R), step),
        (5000, 0.0): _cell_events(_Res([-1] * R, [1000] * R), step),
    }
    return cells


def _decide_grok(statement, events) -> bool:
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    evaluate_grokking(statement, events, ev, {"world": "synthetic"})
    return ev.verdict().holds


def test_grokking_world_rejects_both_mutants():
    events = _world(grok=True)
    assert _decide_grok(_GROK_PRINTED, events)
    assert not _decide_grok(_GROK_NONE, events)
    assert not _decide_grok(_GROK_NO_WD, events)


def test_world_without_grokking_rejects_the_printed_statement():
    events = _world(grok=False)
    assert not _decide_grok(_GROK_PRINTED, events)
    assert _decide_grok(_GROK_NONE, events)


def test_a_scope_without_cells_fails():
    events = {(500, 0.01): _world(grok=True)[(500, 0.01)]}
    assert not _decide_grok(_GROK_NO_WD, events)  # no lambda = 0 cell: the existential has no witness


# --------------------------------------------------------------------------- E34 helpers


@settings(max_examples=60, deadline=None)
@given(a=st.integers(1, 10_000), c=st.integers(1, 100_000), step=st.integers(1, 500))
def test_interval_ratio_contains_the_true_ratio(a, c, step):
    """True first-hitting times a, c; the eval grid sees ceil(a/step) step and ceil(c/step) step."""
    ta, tc = -(-a // step) * step, -(-c // step) * step
    lo, hi = interval_ratio(ta, tc, step)
    assert lo <= c / a <= hi


def test_interval_ratio_special_cases():
    assert all(math.isnan(v) for v in interval_ratio(100, -1, 10))
    assert interval_ratio(-1, 500, 50) == (0.0, 1.0)
    assert interval_ratio(50, 500, 50)[1] == math.inf


def test_cell_events_classify_each_seed():
    e = _cell_events(_Res([1000, 1000, 1000, -1, 1000], [6000, 2500, 1500, 900, -1]), 50)
    assert e["gen"].tolist() == [True, True, True, True, False]
    assert e["grok"].tolist() == [True, False, False, False, False]
    assert e["delay"].tolist() == [True, True, False, False, False]
    assert e["nogap"].tolist() == [False, False, True, True, False]


def test_parse_cells_expands_products_and_validates():
    assert parse_cells("200/500:0/0.01, 500:0") == [(200, 0.0), (200, 0.01), (500, 0.0), (500, 0.01)]
    for bad in ("200", "x:0", "0:0.1", "200:2", "200:-1"):
        with pytest.raises(ValueError, match="'cells'"):
            parse_cells(bad)


# --------------------------------------------------------------------------- one small real configuration


def test_parity_and_noise_runs_are_paired_and_consistent():
    n, k = 10, 2
    runs = _sine_runs(n, k, LR_CATALOG, 1.0, "torch", 8, 12345, 400, "cpu")
    assert len(runs.converged) >= 4
    act = Activation.parity_sine(k)
    for P, Q, L, t in zip(runs.par, runs.noise, runs.loss, runs.t_c[runs.converged]):
        assert t % runs.eval_every == 0 and P.shape[0] == Q.shape[0] == t // runs.se + 1
        assert np.array_equal(P[0, :n], Q[0])  # same w_0
        assert np.allclose(L, sine_population_loss(P[:, :n], P[:, n], k, act))
    stats = _sine_stats(runs)
    assert len(stats) == len(runs.converged)
    # the noise run is a random walk without drift: its mean displacement on S is not systematically
    # larger than off S (both are O(sigma sqrt t)), unlike the parity run at t_c
    dS = np.mean([np.abs(Q[-1, :k] - Q[0, :k]).mean() for Q in runs.noise])
    dP = np.mean([np.abs(P[-1, :k] - P[0, :k]).mean() for P in runs.par])
    assert dP > 2 * dS
