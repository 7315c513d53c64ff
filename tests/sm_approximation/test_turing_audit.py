"""Second-reader property tests of the Appendix-C compiler (seed 000): for random machines, horizons
and inputs, the compiled hard-attention transformer keeps the invariant (C.2) at every step, its
attention score gap is >= 1, intermediate layers stay binary within the corrected sparsity count, and
the proof's w_pos = ceil(log2 T) fails exactly when a position in 0..T needs one more bit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.constructions import tm_transformer as TT


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31), nZ=st.integers(4, 7), nA=st.integers(3, 5), T=st.integers(2, 40),
       m=st.integers(0, 8))
def test_compiled_transformer_simulates_random_machines(seed, nZ, nA, T, m):
    rng = np.random.default_rng(seed)
    tm = TT.random_machine(rng, nZ, nA)
    x = [int(v) for v in rng.integers(2, nA, size=min(m, T))]
    sim = TT.simulate(tm, x, T)
    model = TT.compile_transformer(tm, T)
    assert model.w_pos == T.bit_length()
    out = TT.run_transformer(model, x, keep_layers=True)
    assert TT.first_mismatch(model, sim, out) is None
    gaps = [g for *_, g in out["gaps"] if g is not None]
    assert min(gaps) >= 1.0 and out["ties_ok"]
    H = np.array([h for step in out["layers"] for _, _, h in step])
    assert np.all((H == 0) | (H == 1))
    assert (H != 0).sum(axis=1).max() <= 4 * model.w_pos + 9  # the corrected count of proof_4.1_assembly
    assert model.depth == model.w_pos + 4


@settings(max_examples=15, deadline=None)
@given(T=st.integers(2, 300))
def test_printed_w_pos_short_exactly_at_powers_of_two(T):
    short = TT.w_pos_printed(T) < TT.w_pos_needed(T)
    assert short == (T & (T - 1) == 0)
    if short:  # Bin(T) (the timestep T, l.425 asks 0 <= i <= T) does not fit
        with pytest.raises(ValueError):
            TT.binary(T, TT.w_pos_printed(T))
