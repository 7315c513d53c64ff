"""Property tests of the helpers behind thesis_ch5.prop_B.7*, thesis_ch5.thm_5.6* and thesis_ch5.fourier_gaps.*.

Each helper is checked against an independent oracle: brute force over all corners of the noise box,
binomial tails for the Clopper-Pearson bounds, a grid of w for the 0-1 loss, dense sign vectors and the
population-gradient kernel.  The hinge-minimum solver behind thesis_ch5.thm_5.6* is a kernel
(kernels.training.hinge_opt.hinge_min_l2_ball), tested in tests/kernels/test_hinge_opt.py.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom

from kernels import Activation, chi, sign_vectors
from kernels.boolean import wht
from kernels.boolean.population_gradient import population_gradient
from verify.hidden_progress.fourier_gaps import dots, gamma_relaxed
from verify.hidden_progress.recovery import (
    DEF_5_4,
    SHRINK,
    clopper_pearson,
    worst_corner,
    zero_one_inf_scalar,
)

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _margin(g, relevant, rank="abs"):
    score = [abs(v) for v in g] if rank == "abs" else list(g)
    return min(s for s, r in zip(score, relevant) if r) - max(s for s, r in zip(score, relevant) if not r)


# --------------------------------------------------------------------------- worst_corner


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 7), seed=seeds, rank=st.sampled_from(["abs", "signed"]))
def test_worst_corner_minimises_the_margin_over_every_corner(n, seed, rank):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, n))
    relevant = [i < k for i in range(n)]
    radius = Fraction(int(rng.integers(1, 20)), 64)
    # relevant entries at least the radius away from 0 (as under the gap hypothesis), others anywhere
    gbar = [(radius + Fraction(int(rng.integers(0, 40)), 64)) * int(rng.choice([-1, 1])) if r
            else Fraction(int(rng.integers(-40, 41)), 64) for r in relevant]
    worst = _margin([a + b for a, b in zip(gbar, worst_corner(gbar, relevant, radius, rank))], relevant, rank)
    every = min(_margin([a + s * radius for a, s in zip(gbar, signs)], relevant, rank)
                for signs in itertools.product((-1, 1), repeat=n))
    assert worst == every


def test_worst_corner_rejects_an_unknown_ranking():
    with pytest.raises(ValueError, match="rank"):
        worst_corner([Fraction(1)], [True], Fraction(1, 2), rank="median")


# --------------------------------------------------------------------------- Prop. B.7 itself


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 9), seed=seeds, law=st.sampled_from(["gaussian", "sign", "uniform"]))
def test_recovery_for_noise_strictly_inside_the_box(n, seed, law):
    """Catalog E18 PBT: whenever h has a Definition 5.4 gap gamma > 0 at S and ||e||_inf < gamma/2,
    the top-k of |gbar + e| is S (noise drawn at random inside the box, exact Fractions)."""
    rng = np.random.default_rng(seed)
    w = {"gaussian": rng.standard_normal(n), "sign": rng.choice([-1.0, 1.0], n), "uniform": rng.uniform(-1, 1, n)}[law]
    k = int(rng.integers(1, n))
    mask = int(sum(1 << int(i) for i in rng.choice(n, size=k, replace=False)))
    h = Activation.relu().derivative()
    table = h(sign_vectors(n).astype(np.float64) @ w).astype(np.int64)
    spec = wht(table, backend="reference")
    gamma = Fraction(int(DEF_5_4(np.abs(spec), mask, n)), 1 << n)
    g_kernel = population_gradient(w, 0.0, mask, h, backend="reference").g
    gbar = [Fraction(-int(round(v * (1 << n))), 1 << n) for v in g_kernel]
    relevant = [bool(mask >> i & 1) for i in range(n)]
    if gamma <= 0:
        return
    for _ in range(5):
        e = [gamma / 2 * (1 - SHRINK) * Fraction(int(rng.integers(-1000, 1001)), 1000) for _ in range(n)]
        assert _margin([a + b for a, b in zip(gbar, e)], relevant) > 0


# --------------------------------------------------------------------------- clopper_pearson


@settings(max_examples=80, deadline=None)
@given(trials=st.integers(1, 400), frac=st.floats(0, 1), conf=st.sampled_from([0.9, 0.99, 0.999]))
def test_clopper_pearson_inverts_the_binomial_tails(trials, frac, conf):
    f = int(round(frac * trials))
    lo, hi = clopper_pearson(f, trials, conf)
    assert 0.0 <= lo <= f / trials <= hi <= 1.0
    if f < trials:  # P(Bin(T, hi) <= f) = 1 - conf
        assert binom.cdf(f, trials, hi) == pytest.approx(1 - conf, rel=1e-6, abs=1e-12)
    else:
        assert hi == 1.0
    if f > 0:  # P(Bin(T, lo) >= f) = 1 - conf
        assert binom.sf(f - 1, trials, lo) == pytest.approx(1 - conf, rel=1e-6, abs=1e-12)
    else:
        assert lo == 0.0


@pytest.mark.parametrize("args, match", [((-1, 10, 0.9), "failures"), ((11, 10, 0.9), "failures"),
                                         ((0, 0, 0.9), "trials"), ((1, 10, 1.0), "confidence")])
def test_clopper_pearson_rejects_bad_arguments(args, match):
    with pytest.raises(ValueError, match=match):
        clopper_pearson(*args)


# --------------------------------------------------------------------------- 0-1 loss, D = 1


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 6), seed=seeds, r=st.sampled_from([Fraction(0), Fraction(1, 3), Fraction(2)]))
def test_zero_one_inf_scalar_matches_a_grid_of_w(n, seed, r):
    rng = np.random.default_rng(seed)
    psi = rng.integers(-2, 3, 1 << n)  # zeros allowed: they are errors for every w
    y = chi(int(rng.integers(0, 1 << n)), n).astype(np.int64)
    got = zero_one_inf_scalar(np.sign(psi), y, r)
    grid = np.linspace(-float(r), float(r), 9) if r > 0 else np.array([0.0])
    brute = min(Fraction(int(np.count_nonzero(np.sign(w * psi) != y)), 1 << n) for w in grid)
    assert got == brute


# --------------------------------------------------------------------------- fourier_gaps helpers


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 10), seed=seeds)
def test_dots_match_dense_sign_vectors(n, seed):
    w = np.random.default_rng(seed).integers(-5, 6, n).astype(np.float64)
    assert np.array_equal(dots(w), sign_vectors(n).astype(np.float64) @ w)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(3, 10), seed=seeds, k=st.integers(1, 4))
def test_gamma_from_the_spectrum_equals_the_gradient_kernel_route(n, seed, k):
    if k >= n:
        return
    w = np.random.default_rng(seed).standard_normal(n)
    h = Activation.relu().derivative()
    spec = np.abs(wht(h(dots(w)).astype(np.int64), backend="reference"))
    via_wht = gamma_relaxed(spec, k, n, 1 << n)
    g = np.rint(np.abs(population_gradient(w, 0.0, (1 << k) - 1, h, backend="reference").g) * (1 << n)).astype(np.int64)
    assert via_wht == Fraction(int(g[:k].max() - g[k:].max()), 1 << n)
