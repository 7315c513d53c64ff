"""Sparse first-layer initialisation for kernels.training.train_two_layer (seed 004, Sec. 6.4.1, App. C.3).

The experiments of thesis ch. 6 compare PyTorch's dense default initialisation with "s-sparse" rows:
each hidden neuron has exactly s non-zero incoming weights at random coordinates (s = 2 in Fig. 6.1).
The seed does not give the value of the non-zero weights; here they are the dense draws
U(-1/sqrt(n), 1/sqrt(n)) at the chosen coordinates rescaled by sqrt(n/s), i.e. U(-1/sqrt(s), 1/sqrt(s)),
so every row keeps the dense row's expected squared norm 1/3.  Biases and the second layer keep the
dense default.  Training then updates all weights (the sparsity is only the initial condition).

:func:`sparse_theta0` returns flat parameter vectors in the layout of train_two_layer
(W input-major: entry i * width + j is w_j[i]), a pure function of the run seeds.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _checks
from .two_layer import init_two_layer

__all__ = ["row_supports", "sparse_theta0"]


def row_supports(n: int, width: int, s: int, seed: int) -> np.ndarray:
    """(width, s) sorted coordinates of the non-zero weights of each neuron of the run ``seed``."""
    n = _checks.require_int("n", n, min_value=1, max_value=4096)
    width = _checks.require_int("width", width, min_value=1, max_value=100_000)
    s = _checks.require_int("s", s, min_value=1, max_value=n)
    seed = _checks.require_int("seed", seed, min_value=0, max_value=2**64 - 1)
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0x5A5E]))
    keys = rng.random((width, n))
    return np.sort(np.argpartition(keys, s - 1, axis=1)[:, :s], axis=1)


def sparse_theta0(n: int, width: int, seeds, s: int) -> np.ndarray:
    """Initial parameters (R, P) with s-sparse first-layer rows (module docstring), float64."""
    s = _checks.require_int("s", s, min_value=1, max_value=_checks.require_int("n", n, min_value=1, max_value=4096))
    seeds_arr = np.atleast_1d(np.asarray(seeds, dtype=np.uint64))
    theta = init_two_layer(n, width, seeds_arr, init="uniform")
    scale = math.sqrt(n / s)
    for a, seed in enumerate(seeds_arr):
        W = theta[a, : n * width].reshape(n, width)
        mask = np.zeros((n, width), dtype=bool)
        supp = row_supports(n, width, s, int(seed))
        mask[supp.T, np.arange(width)[None, :]] = True
        W[:] = np.where(mask, W * scale, 0.0)
    return theta
