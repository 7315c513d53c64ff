"""numba.cuda twins of the hot kernels (same signatures as the CPU kernels).

Importing this package does not import numba.cuda; each module imports it when a kernel is first
built, so CPU-only machines never touch the CUDA stack.  Tests run these kernels under the numba CUDA
simulator (``NUMBA_ENABLE_CUDASIM=1``, set before Python starts) at small sizes.
"""
