"""Hinge-loss SGD of a linear readout: CPU kernel vs the numpy reference (bit for bit), determinism,
the sampler, the update rule on hand-checkable cases, the CUDA twin under the simulator, bad input."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.cuda_support import cuda_test
from kernels.training.readout_sgd import (
    hinge_population_loss,
    readout_sgd,
    readout_sgd_ref,
    splitmix64_stream,
    uniform_indices,
)

FIELDS = ("u", "checkpoint_loss", "mean_loss", "online_loss")


@st.composite
def sgd_problems(draw, *, max_rows: int = 6, max_r: int = 3, max_runs: int = 3, max_steps: int = 12):
    """Keyword arguments of one small readout_sgd call; shrinks toward 1 row, 1 feature, 1 run, 0 steps."""
    N = draw(st.integers(1, max_rows))
    r = draw(st.integers(1, max_r))
    runs = draw(st.integers(1, max_runs))
    steps = draw(st.integers(0, max_steps))
    per_run = draw(st.booleans()) and runs > 1
    data_seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(data_seed)
    features = rng.standard_normal((runs, N, r) if per_run else (N, r))
    labels = rng.choice(np.array([-1.0, 1.0]), size=N)
    seeds = np.array(draw(st.lists(st.integers(0, 2**64 - 1), min_size=runs, max_size=runs)), dtype=np.uint64)
    cks = sorted(draw(st.lists(st.integers(0, steps), max_size=4)))
    return {
        "features": features,
        "labels": labels,
        "eta": draw(st.floats(0.0, 3.0, allow_nan=False)),
        "steps": steps,
        "seeds": seeds,
        "batch": draw(st.integers(1, 3)),
        "u0": rng.standard_normal(r) if draw(st.booleans()) else None,
        "checkpoints": cks,
        "exact_mean": draw(st.booleans()),
    }


def _assert_same(a, b):
    for f in FIELDS:
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f), err_msg=f)
    np.testing.assert_array_equal(a.checkpoints, b.checkpoints)


@given(sgd_problems())
@example({"features": np.ones((1, 1)), "labels": np.ones(1), "eta": 0.5, "steps": 0, "seeds": np.zeros(1, np.uint64),
          "batch": 1, "u0": None, "checkpoints": [0], "exact_mean": True})
def test_cpu_equals_reference_bit_for_bit(kw):
    _assert_same(readout_sgd(backend="cpu", **kw), readout_sgd_ref(**kw))


@settings(max_examples=25)
@given(sgd_problems(max_rows=40, max_r=6, max_runs=5, max_steps=200))
def test_deterministic_and_runs_independent(kw):
    a = readout_sgd(backend="cpu", **kw)
    _assert_same(a, readout_sgd(backend="cpu", **kw))
    # run s depends only on its own seed (and feature set): re-running the last run alone gives its row
    last = dict(kw, seeds=kw["seeds"][-1:])
    if np.ndim(kw["features"]) == 3:
        last["features"] = kw["features"][-1:]
    b = readout_sgd(backend="cpu", **last)
    for f in FIELDS:
        np.testing.assert_array_equal(getattr(a, f)[-1], getattr(b, f)[0], err_msg=f)


@pytest.mark.parametrize("exact_mean", [False, True])
def test_absorbing_state_shortcut_is_exact(exact_mean):
    # separable rows: F reaches 0 early; the compiled twin stops there, the reference runs every step
    phi = np.array([[1.0, 0.2], [0.3, 1.0], [-1.0, 0.1], [0.2, -0.9]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    kw = {"eta": 0.7, "steps": 1500, "seeds": np.arange(3, dtype=np.uint64), "checkpoints": [0, 3, 10, 100, 1000, 1500],
          "exact_mean": exact_mean}
    a = readout_sgd(phi, y, backend="cpu", **kw)
    assert np.all(a.checkpoint_loss[:, -1] == 0.0)
    _assert_same(a, readout_sgd_ref(phi, y, **kw))


def test_splitmix64_reference_vector():
    # the published first outputs of SplitMix64 from state 0 (Steele, Lea & Flood; Vigna's splitmix64.c)
    assert splitmix64_stream(0, 3) == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_power_of_two_draws_are_the_top_bits():
    for n_bits in (1, 3, 8):
        outs = splitmix64_stream(12345, 50)
        assert uniform_indices(12345, 1 << n_bits, 50) == [z >> (64 - n_bits) for z in outs]


@pytest.mark.parametrize("n", [3, 5, 7, 10])
def test_sampler_frequencies(n):
    # 70,000 seeded draws (deterministic): chi-square with n-1 dof stays far below its 0.999 quantile (< 30)
    draws = 70_000
    counts = Counter(uniform_indices(2024 + n, n, draws))
    assert set(counts) == set(range(n))
    expected = draws / n
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 30.0


def test_single_row_update_rule_by_hand():
    # one row phi = 0.25, y = +1, eta = 1: u grows by 0.25 per step while the margin u/4 < 1, i.e. until u = 4
    res = readout_sgd(np.array([[0.25]]), np.array([1.0]), eta=1.0, steps=40, seeds=np.arange(2, dtype=np.uint64),
                      checkpoints=[0, 1, 16, 40], exact_mean=True, backend="cpu")
    assert np.all(res.u[:, 0] == 4.0)
    assert np.array_equal(res.checkpoint_loss[0], [1.0, 1.0 - 0.0625, 0.0, 0.0])
    # F(u_t) = 1 - t/16 for t <= 16 and 0 afterwards: mean over t = 1..40 is (sum_{t<16} (1 - t/16)) / 40
    assert res.mean_loss[0] == pytest.approx(sum(1 - t / 16 for t in range(1, 16)) / 40, abs=1e-15)
    # online losses at u_0..u_15 (margin < 1) are 1 - t/16; zero afterwards
    assert res.online_loss[0] == pytest.approx(sum(1 - t / 16 for t in range(16)) / 40, abs=1e-15)


def test_one_step_is_unbiased_subgradient_step():
    # average of u_1 over many runs approaches u_0 - eta * E[v] (E[v] = population subgradient at u_0)
    rng = np.random.default_rng(5)
    phi, y = rng.standard_normal((7, 3)), rng.choice(np.array([-1.0, 1.0]), 7)
    u0 = rng.standard_normal(3) * 0.3
    runs = 40_000
    res = readout_sgd(phi, y, eta=1.0, steps=1, seeds=np.arange(runs, dtype=np.uint64), u0=u0, backend="cpu")
    active = (y * (phi @ u0)) < 1
    expected = u0 + (active * y) @ phi / len(y)
    # per-coordinate SD of one draw <= max|phi|; 5 standard errors
    assert np.max(np.abs(res.u.mean(axis=0) - expected)) <= 5 * np.abs(phi).max() / np.sqrt(runs)


def test_population_loss_helper_matches_checkpoints():
    rng = np.random.default_rng(3)
    phi, y = rng.standard_normal((9, 4)), rng.choice(np.array([-1.0, 1.0]), 9)
    res = readout_sgd(phi, y, eta=0.2, steps=30, seeds=np.arange(3, dtype=np.uint64), checkpoints=[30], backend="cpu")
    assert np.allclose(res.checkpoint_loss[:, 0], hinge_population_loss(phi, y, res.u), rtol=0, atol=1e-14)


@cuda_test
@pytest.mark.filterwarnings("ignore:overflow encountered in scalar:RuntimeWarning")  # SplitMix64 wraps mod 2^64 by design
@settings(max_examples=6, deadline=None)
@given(sgd_problems(max_rows=4, max_r=2, max_runs=2, max_steps=6))
def test_cuda_twin_equals_cpu_under_simulator(kw):
    """Bit for bit under the simulator; on a GPU within kernels.cuda.agreement's tolerance.  Depth: every
    value is a chain of at most (steps + 1) (r + 2) (batch + rows) multiply-adds (updates, then the loss
    over all rows); growth 1: the hinge subgradient does not depend on u between kinks, so the update map
    moves a perturbation of u without amplifying it (a kink crossed by a rounding difference would show
    up as a failure here, which is astronomically unlikely with Gaussian features)."""
    from kernels.cuda.agreement import assert_twins_agree

    a, b = readout_sgd(backend="cuda", **kw), readout_sgd(backend="cpu", **kw)
    rows, r = np.shape(kw["features"])[-2:]
    depth = (kw["steps"] + 1) * (r + 2) * (kw["batch"] + rows)
    for f in FIELDS:
        assert_twins_agree(getattr(a, f), getattr(b, f), depth=depth, what=f)
    np.testing.assert_array_equal(a.checkpoints, b.checkpoints)


_OK = {"features": np.ones((2, 1)), "labels": np.ones(2), "eta": 0.1, "steps": 3, "seeds": np.zeros(1, np.uint64)}


@pytest.mark.parametrize(
    "change,match",
    [
        pytest.param({"features": np.ones(3)}, "features", id="features-1d"),
        pytest.param({"features": np.full((2, 1), np.nan)}, "features", id="features-nan"),
        pytest.param({"labels": np.ones(3)}, "labels", id="labels-length"),
        pytest.param({"eta": float("inf")}, "eta", id="eta-inf"),
        pytest.param({"steps": -1}, "steps", id="steps-negative"),
        pytest.param({"steps": 2.5}, "steps", id="steps-float"),
        pytest.param({"seeds": np.array([-1])}, "seeds", id="seeds-negative"),
        pytest.param({"seeds": np.array([], dtype=np.uint64)}, "seeds", id="seeds-empty"),
        pytest.param({"seeds": np.zeros(2, np.uint64), "features": np.ones((3, 2, 1))}, "features", id="feature-sets-mismatch"),
        pytest.param({"batch": 0}, "batch", id="batch-zero"),
        pytest.param({"u0": np.ones(2)}, "u0", id="u0-shape"),
        pytest.param({"checkpoints": [2, 1]}, "checkpoints", id="checkpoints-unsorted"),
        pytest.param({"checkpoints": [4]}, "checkpoints", id="checkpoints-beyond-steps"),
    ],
)
def test_bad_arguments_name_the_argument(change, match):
    with pytest.raises(ValueError, match=match):
        readout_sgd(**dict(_OK, **change), backend="cpu")
