"""Pure numerics for the verification suite: no claims, no I/O, no global state.

Public kernels validate their arguments (ValueError naming the argument, the value and the allowed
range, before any large allocation) and take ``backend="auto" | "reference" | "cpu" | "cuda"``.
"""

import numpy as _np

# numba-cuda <= 0.30 registers an overload for ``np.row_stack`` when it first compiles a kernel; NumPy 2.5
# removed that alias of ``np.vstack``, so every CUDA compilation fails with AttributeError on such an
# install (seen on an H100 machine with numpy 2.5.2 and numba-cuda 0.30.4).  Restoring the alias (it
# was exactly ``vstack``) is the smallest fix; it changes nothing where NumPy still has it.
if not hasattr(_np, "row_stack"):
    _np.row_stack = _np.vstack

from .activations import Activation  # noqa: E402
from .backend import resolve_backend  # noqa: E402
from .boolean.cube import chi, mask_of, popcounts, sign_vectors, subset_of, subsets_of_size  # noqa: E402
from .boolean.wht import Spectrum, fourier_spectrum, truth_table, wht, wht_inplace  # noqa: E402

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
