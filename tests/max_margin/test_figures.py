"""Helpers of the figure claims (verify/max_margin/figures*.py): the init they draw without training equals
the trainer's, per-irrep and per-frequency powers on known vectors."""

from __future__ import annotations

import math

import numpy as np

from kernels.algebra import margin as K
from kernels.algebra.groups import group_by_name
from kernels.training.quadratic_margin import train_quadratic_margin
from verify.max_margin.figures import init_params, irrep_powers
from verify.max_margin.figures_cyclic import folded_power
from verify.max_margin.figures_parity import neuron_structure


def test_init_params_equal_the_trainers_init():
    G = group_by_name("S3")
    r = train_quadratic_margin(G.mul, 7, steps=0, lr=0.05, weight_decay=0.0, seed=1234567890123)
    U, V, W = init_params(G.order, 7, 1234567890123)
    assert np.array_equal(U, r.U) and np.array_equal(V, r.V) and np.array_equal(W, r.W)


def test_irrep_powers_of_construction_neurons_are_single_irrep():
    for name in ("S3", "S4"):
        G = group_by_name(name)
        U, V, W = K.group_trace_construction(G)
        for X in (U, V, W):
            P = irrep_powers(G, X)
            assert np.allclose(P.sum(1), 1.0) and P.max(1).min() > 1 - 1e-12
        rng = np.random.default_rng(0)
        P = irrep_powers(G, rng.standard_normal((50, G.order)))
        assert np.allclose(P.sum(1), 1.0) and np.median(P.max(1)) < 0.9


def test_folded_power_of_a_sinusoid():
    p = 11
    x = np.cos(2 * math.pi * 3 * np.arange(p) / p + 0.4)
    P = folded_power(x[None, :])
    assert abs(P[0, 3] - 1) < 1e-12 and abs(P.sum() - 1) < 1e-12


def test_parity_structure_of_the_construction():
    n, k = 8, 4
    U, W = K.parity_construction(n, k, range(k))
    s = neuron_structure(U, W, k, range(k))
    assert np.all(s["on"] > 1 - 1e-12) and np.all(s["span"] > 1 - 1e-12)
    assert np.allclose(s["ratio"], 1.0) and np.all(s["sign"] > 0)
