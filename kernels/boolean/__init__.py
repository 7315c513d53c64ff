"""The Boolean cube {±1}^n and its Fourier analysis.

Conventions (``cube``: a point is an index whose bit i is set when x_i = -1, a subset is a bitmask),
the Walsh-Hadamard transform and Fourier spectra (``wht``, with its numba CPU body ``_wht_cpu`` and
numpy oracles ``reference``), Krawtchouk spectra of symmetric functions (``symmetric``), exhaustive
population gradients of single neurons (``population_gradient``), and the exact quantities of networks
on the cube built on them: disjoint-PolyNet errors, tails and gradient flow (``polynet``,
``polynet_tails``, ``polynet_flow``), one-hidden-layer and deep MLPs (``mlp_cube``, ``deep_mlp``),
sparse-initialised neurons and the one-step algorithm of thesis ch. 6 (``oversparse``,
``pareto_one_step``) and the statistical-query frontier (``sq_frontier``).
"""

from .cube import chi, mask_of, popcounts, sign_vectors, subset_of, subsets_of_size
from .symmetric import krawtchouk_rows, majority_values, symmetric_spectrum
from .wht import Spectrum, fourier_spectrum, truth_table, wht, wht_inplace

__all__ = [
    "Spectrum",
    "chi",
    "fourier_spectrum",
    "krawtchouk_rows",
    "majority_values",
    "mask_of",
    "popcounts",
    "sign_vectors",
    "subset_of",
    "subsets_of_size",
    "symmetric_spectrum",
    "truth_table",
    "wht",
    "wht_inplace",
]
