"""kernels.constructions.tm_transformer: the plain Turing-machine simulator and the Appendix-C transformer compiler
(seed 000).  The compiled decoder must reproduce (C.2) at every step, with attention score gaps >= 1."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from kernels.constructions import tm_transformer as TT


@st.composite
def machines_and_inputs(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    tm = TT.random_machine(rng, draw(st.integers(4, 6)), draw(st.integers(3, 4)))
    T = draw(st.integers(1, 48))
    x = draw(st.lists(st.integers(2, tm.n_symbols - 1), max_size=min(T, 6)))
    return tm, x, T


@st.composite
def raw_machines(draw):
    """Arbitrary transition tables (no marker); runs that fall off the left end are discarded."""
    nZ, nA = draw(st.integers(1, 4)), draw(st.integers(2, 3))
    d = np.array([[[draw(st.integers(0, nZ - 1)), draw(st.integers(0, nA - 1)), draw(st.sampled_from([-1, 1]))]
                   for _ in range(nA)] for _ in range(nZ)], dtype=np.int64)
    tm = TT.TuringMachine(nZ, nA, d, 0, frozenset({0}) if nZ > 1 else frozenset(), frozenset())
    T = draw(st.integers(1, 30))
    x = draw(st.lists(st.integers(1, nA - 1), max_size=min(T, 5)))
    return tm, x, T


def _check(tm, x, T):
    sim = TT.simulate(tm, x, T)
    model = TT.compile_transformer(tm, T)
    out = TT.run_transformer(model, x)
    assert TT.first_mismatch(model, sim, out) is None
    gaps = [g for *_, g in out["gaps"] if g is not None]
    assert min(gaps) >= 1.0
    assert out["ties_ok"]
    if sim["output"] is not None:
        assert np.sign(out["output"]) == 2 * sim["output"] - 1
    assert model.depth == model.w_pos + 4


@given(machines_and_inputs())
def test_transformer_tracks_the_machine_step_by_step(case):
    _check(*case)


@given(raw_machines())
def test_transformer_tracks_arbitrary_tables(case):
    tm, x, T = case
    try:
        TT.simulate(tm, x, T)
    except ValueError:
        assume(False)
    _check(tm, x, T)


def test_long_run_a_few_hundred_steps():
    rng = np.random.default_rng(7)
    tm = TT.random_machine(rng, 6, 4, halt_bias=0.02)
    _check(tm, [2, 3, 2, 3, 3], 300)


def test_runner_reaches_cell_T_and_needs_the_extra_bit():
    d = np.zeros((2, 2, 3), dtype=np.int64)
    d[..., 2] = 1
    tm = TT.TuringMachine(2, 2, d)
    sim = TT.simulate(tm, [1], 8)
    assert list(sim["l"]) == list(range(9))
    assert TT.w_pos_printed(8) == 3 and TT.w_pos_needed(8) == 4
    with pytest.raises(ValueError, match=r"Bin\(8\) needs 4 bits, w_pos = 3"):
        TT.run_transformer(TT.compile_transformer(tm, 8, w_pos=3), [1])


def test_binary_is_msb_first():
    assert TT.binary(6, 4).tolist() == [0, 1, 1, 0]
    assert TT.binary(6, 4, "lsb").tolist() == [0, 1, 1, 0][::-1]


@pytest.mark.parametrize("kwargs, match", [
    ({"n_states": 2, "n_symbols": 2, "delta": np.zeros((2, 1, 3), dtype=np.int64)}, "a transition for every"),
    ({"n_states": 1, "n_symbols": 2, "delta": np.array([[[0, 0, 0], [0, 0, 1]]])}, "move 0 at .* must be -1 or \\+1"),
    ({"n_states": 1, "n_symbols": 2, "delta": np.array([[[3, 0, 1], [0, 0, 1]]])}, "next state 3"),
    ({"n_states": 1, "n_symbols": 2, "delta": np.array([[[0, 0, 1], [0, 0, 1]]]), "accept": frozenset({0}),
          "reject": frozenset({0})}, "disjoint"),
])
def test_machine_validation(kwargs, match):
    with pytest.raises(ValueError, match=match):
        TT.TuringMachine(**kwargs)


def test_simulator_errors():
    d = np.zeros((1, 2, 3), dtype=np.int64)
    d[..., 2] = -1
    tm = TT.TuringMachine(1, 2, d)
    with pytest.raises(ValueError, match="left of cell 0"):
        TT.simulate(tm, [1], 3)
    with pytest.raises(ValueError, match="input symbol 0"):
        TT.simulate(tm, [0], 3)
    with pytest.raises(ValueError, match="argument 'bin_order'"):
        TT.compile_transformer(tm, 4, bin_order="gray")
