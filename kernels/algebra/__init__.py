"""Finite algebra: linear algebra over GF(2) and finite groups with their representations.

``gf2`` eliminates batches of bit-packed GF(2) matrices with exact operation counts and learns parities
from them (shared elimination body ``_gf2_body``; CUDA twin kernels/cuda/gf2.py).  ``groups`` builds
finite groups as multiplication tables with their real orthogonal irreducible representations.
``margin`` computes margins, max-margin constructions and certificate games of polynomial networks on
group tasks (it needs scipy and is not imported here).
"""

from .gf2 import GF2Elimination, ParityFit, gf2_eliminate, gf2_rank, learn_parity, pack_bits, unpack_bits
from .groups import FiniteGroup, group_by_name

__all__ = [
    "FiniteGroup",
    "GF2Elimination",
    "ParityFit",
    "gf2_eliminate",
    "gf2_rank",
    "group_by_name",
    "learn_parity",
    "pack_bits",
    "unpack_bits",
]
