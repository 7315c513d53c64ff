"""Symbolic derivations (sympy): identities proved for symbolic n, k, not only sampled.

Each function returns a sympy expression (a residual lhs - rhs, simplified); a claim asserts it is 0.
No printing, no I/O.
"""
