"""Kernels reject NaN and infinite inputs where the mathematics is undefined (issue 19, item 5)."""

from __future__ import annotations

import numpy as np
import pytest

from kernels import Activation
from kernels.population_gradient import neuron_table, population_gradient


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_population_gradient_rejects_non_finite_w_and_b(bad):
    w = np.ones(5)
    w[2] = bad
    with pytest.raises(ValueError, match=r"argument 'w' must be finite, but w\[2\]"):
        population_gradient(w, 0.5, [0, 1], Activation.step(), backend="reference")
    with pytest.raises(ValueError, match="argument 'b' must be a finite real number"):
        population_gradient(np.ones(5), bad, [0, 1], Activation.step(), backend="reference")
    with pytest.raises(ValueError, match="argument 'w' must be finite"):
        neuron_table(w, 0.5, Activation.step(), backend="reference")
