"""Second-reader property tests of the circuit -> ReLU-net compiler (seed 000, Lemma B.1, Prop. 3.4,
proof of Theorem 3.1): on random layered circuits the compiled net (with and without round blocks)
computes 2G - 1 exactly on every input, each gate block costs <= 5 per gate (the proof's constant),
and alpha <= 5 s + 9 sum r_i + 3 (the corrected count of the proof's 'at most s', l.397)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.constructions import circuits as C

COST = {"OR": 5, "AND": 4, "NOT": 3, "ID": 2}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), m=st.integers(1, 5), q=st.integers(2, 6), r=st.integers(1, 5),
       rounding=st.booleans())
def test_compiled_net_computes_the_circuit(seed, m, q, r, rounding):
    circ = C.random_circuit(np.random.default_rng(seed), m, q, r)
    net = C.compile_relu(circ, rounding=rounding)
    X = np.array(list(itertools.product([0, 1], repeat=circ.m)), dtype=np.int64)
    out = C.forward_exact(net, X)
    G = C.evaluate_circuit(circ, X)
    assert all(o == 2 * g - 1 for o, g in zip(out, G))
    alpha = net.l1_norm()
    assert alpha <= 5 * circ.size + (9 * sum(circ.widths[1:]) if rounding else 0) + 3
    if not rounding:  # the Lemma B.1 blocks cost exactly the proof's per-gate count
        want = sum(COST[g[0]] for layer in circ.layers for g in layer) + 3
        assert alpha == want and alpha - 3 > circ.size  # 'at most s' (l.397) fails on every circuit


@settings(max_examples=30, deadline=None)
@given(k=st.integers(-90, 180))
def test_round_block_matches_piecewise(k):
    z = Fraction(k, 90)
    blk = C.round_block(1)
    net = C.ReluNet(tuple(blk) + ((np.array([[Fraction(1)]], dtype=object), np.array([Fraction(0)], dtype=object)),),
                    (1,), (True,))
    out = C.forward_exact(net, np.array([[z]], dtype=object))[0]
    assert out == (0 if z < Fraction(1, 3) else 3 * z - 1 if z < Fraction(2, 3) else 1)
