"""Exhaustive population gradients: CPU and CUDA twins against the dense numpy reference."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings

from kernels import Activation, fourier_spectrum
from tests.cuda_support import cuda_test
from kernels.boolean.population_gradient import neuron_table, population_gradient
from kernels.boolean.reference import neuron_table_ref, population_gradient_ref
from tests.strategies import neurons


def _tol(n: int, act: Activation, w, b) -> float:
    # each entry is a mean of 2^n terms of size <= M = max|phi|; summation error <= 2^n u M per side
    z = np.abs(w).sum() + abs(b)
    scale = max(1.0, z ** max(1, len(act.params)) if act.name == "poly" else z + 1.0)
    return 4 * 2.0 ** (n + 1) * 2.0**-53 * scale * 10


@given(neurons(max_n=11))
def test_cpu_equals_reference(args):
    w, b, S, act = args
    g, g0 = population_gradient(w, b, S, act, backend="cpu")
    gr, g0r = population_gradient_ref(w, b, S, act.code, act.param_array())
    tol = _tol(len(w), act, w, b)
    assert np.max(np.abs(g - gr)) <= tol and abs(g0 - g0r) <= tol


@given(neurons(max_n=10))
def test_gradient_is_fourier_coefficient_of_the_neuron(args):
    w, b, S, act = args
    n = len(w)
    table = neuron_table(w, b, act, backend="cpu")
    assert np.allclose(table, neuron_table_ref(w, b, act.code, act.param_array()), rtol=1e-12, atol=1e-12)
    coeffs = fourier_spectrum(table, backend="cpu").coefficients()
    g, g0 = population_gradient(w, b, S, act, backend="cpu")
    expected = np.array([coeffs[S ^ (1 << i)] for i in range(n)])
    tol = _tol(n, act, w, b)
    assert np.max(np.abs(g - expected)) <= tol and abs(g0 - coeffs[S]) <= tol


def test_step_activation_is_exact():
    rng = np.random.default_rng(1)
    w = rng.choice(np.array([-1.0, 1.0]), 13)
    g, g0 = population_gradient(w, 0.5, 0b1011, Activation.step(), backend="cpu")
    for v in list(g) + [g0]:
        assert Fraction(v) * (1 << 13) == int(Fraction(v) * (1 << 13))


def test_deterministic_bit_for_bit():
    rng = np.random.default_rng(2)
    w = rng.standard_normal(16)
    a = population_gradient(w, 0.3, 0b101, Activation.sine(0.25), backend="cpu")
    b = population_gradient(w, 0.3, 0b101, Activation.sine(0.25), backend="cpu")
    assert np.array_equal(a.g, b.g) and a.g0 == b.g0


@cuda_test
@settings(max_examples=6)
@given(neurons(max_n=9))
def test_cuda_twin_equals_cpu(args):
    w, b, S, act = args
    g, g0 = population_gradient(w, b, S, act, backend="cpu")
    gc, g0c = population_gradient(w, b, S, act, backend="cuda")
    tol = _tol(len(w), act, w, b)
    assert np.max(np.abs(g - gc)) <= tol and abs(g0 - g0c) <= tol


@pytest.mark.parametrize(
    "call,match",
    [
        pytest.param(lambda: population_gradient([1.0, 2.0], 0.0, 0, "relu"), "Activation", id="activation-str"),
        pytest.param(lambda: population_gradient(np.ones((2, 2)), 0.0, 0, Activation.relu()), "1-D", id="w-2d"),
        pytest.param(lambda: population_gradient([1.0, 2.0], 0.0, 4, Activation.relu()), r"\[0, 2\^2 - 1\]", id="S-mask-too-big"),
        pytest.param(lambda: population_gradient([1.0, 2.0], 0.0, [0, 5], Activation.relu()), r"\[0, 1\]", id="S-index"),
        pytest.param(lambda: population_gradient([1.0, 2.0], 0.0, [0, 0], Activation.relu()), "repeats", id="S-repeat"),
        pytest.param(lambda: population_gradient([1.0, 2.0], "x", 0, Activation.relu()), "'b'", id="b-str"),
        pytest.param(lambda: population_gradient([], 0.0, 0, Activation.relu()), "n >= 1", id="w-empty"),
        pytest.param(lambda: Activation.sign().derivative(), "derivative", id="sign-derivative"),
        pytest.param(lambda: Activation.power(-1), "'p'", id="power-negative"),
    ],
)
def test_bad_arguments_name_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()
