"""Pure numerics for the verification suite: no claims, no I/O, no global state.

Public kernels validate their arguments (ValueError naming the argument, the value and the allowed
range, before any large allocation) and take ``backend="auto" | "reference" | "cpu" | "cuda"``.
"""

from .activations import Activation
from .backend import resolve_backend
from .cube import chi, mask_of, popcounts, sign_vectors, subset_of, subsets_of_size
from .wht import Spectrum, fourier_spectrum, truth_table, wht, wht_inplace

__all__ = [
    "Activation",
    "Spectrum",
    "chi",
    "fourier_spectrum",
    "mask_of",
    "popcounts",
    "resolve_backend",
    "sign_vectors",
    "subset_of",
    "subsets_of_size",
    "truth_table",
    "wht",
    "wht_inplace",
]
