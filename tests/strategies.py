"""Hypothesis strategies for the suite's tests: valid by construction, shrinking toward small n,
S = {} and zero values (STYLE_ANCHORS.md, pattern 17)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from kernels import Activation

__all__ = ["activations", "cube_functions", "neurons", "subsets"]


@st.composite
def subsets(draw, n: int):
    """A subset of [n] as a bitmask, built from a list of distinct indices (shrinks to the empty set)."""
    idx = draw(st.lists(st.integers(min_value=0, max_value=n - 1), unique=True, max_size=n)) if n else []
    mask = 0
    for i in idx:
        mask |= 1 << i
    return mask


@st.composite
def cube_functions(draw, *, min_n: int = 0, max_n: int = 10, min_value: int = -50, max_value: int = 50, dtype=np.int64):
    """(n, truth table of length 2^n) with integer entries in [min_value, max_value] (or floats from a seed)."""
    n = draw(st.integers(min_value=min_n, max_value=max_n))
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    rng = np.random.default_rng(seed)
    if np.dtype(dtype) == np.float64:
        return n, rng.standard_normal(1 << n)
    return n, rng.integers(min_value, max_value + 1, size=1 << n).astype(dtype)


def activations():
    """Activations with their parameters drawn in moderate ranges."""
    small = st.floats(min_value=-2.0, max_value=2.0, allow_nan=False, allow_infinity=False)
    return st.one_of(
        st.just(Activation.step()),
        st.just(Activation.relu()),
        st.just(Activation.sign()),
        st.lists(small, min_size=1, max_size=4).map(Activation.poly),
        st.tuples(small, small).map(lambda t: Activation.sine(freq=t[0], phase=t[1])),
        st.tuples(small, small).map(lambda t: Activation.cosine(freq=t[0], phase=t[1])),
    )


@st.composite
def neurons(draw, *, min_n: int = 1, max_n: int = 10):
    """(w, b, S, activation) with w Gaussian from a drawn seed (or +-1), b small, S a random subset."""
    n = draw(st.integers(min_value=min_n, max_value=max_n))
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(n) if draw(st.booleans()) else rng.choice(np.array([-1.0, 1.0]), n)
    b = draw(st.floats(min_value=-1.5, max_value=1.5, allow_nan=False))
    return w, b, draw(subsets(n)), draw(activations())
