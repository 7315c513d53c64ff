"""Shared, cached computations of the thesis_ch7 claims (statement-independent, so the printed
statement, the corrected one and every mutant are compared against the same numbers)."""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from kernels.algebra import margin as K
from kernels.algebra.groups import group_by_name
from kernels.training._common import single_threaded_blas

# The numerical single-neuron maxima (L-BFGS-B on vectors of 3|G| <= 72 entries) run with ONE BLAS thread
# (kernels.training._common.single_threaded_blas): the vectors are far below OpenBLAS's threading thresholds, so
# the values are those of any thread count, but a multi-threaded OpenBLAS keeps its idle threads spinning between
# the thousands of tiny calls -- measured on the loaded 2-core machine, Lemma D.13's quick tier took 2.9 CPU s with
# the default 2 BLAS threads and 0.1 with one.

#: relative tolerance of float64 cross-route equalities of exhaustive sums: the tables have at most
#: 113^3 ~ 1.4e6 entries with O(p) summands each, so accumulated rounding stays below 1e-13 relative;
#: 1e-11 leaves two decades of headroom and is still 10^8 times smaller than any mutant effect (>= 1e-3).
RTOL_EXACT = 1e-11
#: relative tolerance of numerical single-neuron maxima (L-BFGS to gtol 1e-13 on a smooth function;
#: the value error is quadratic in the position error): 1e-7; mutant effects are >= 3 %.
RTOL_OPT = 1e-7


def primes(lo: int, hi: int) -> list[int]:
    return [q for q in range(max(lo, 2), hi + 1) if all(q % d for d in range(2, int(q**0.5) + 1))]


def rel(a: float, b: float) -> float:
    return abs(a - b) / max(abs(b), 1e-300)


@cache
def group(name: str):
    return group_by_name(name)


@cache
def cyclic_construction_margin(p: int) -> dict:
    U, V, W = K.cyclic_construction(p)
    return K.normalized_margin(K.cyclic_table(p), U, V, W)


@cache
def cyclic_single_max(p: int, restarts: int, seed: int) -> tuple:
    """Numerical max of E_unif psi' over the unit sphere of R^{3p} (uniform tau)."""
    tau = np.r_[0.0, np.full(p - 1, 1.0 / (p - 1))]
    with single_threaded_blas():  # one BLAS thread: see the note above RTOL_EXACT
        best, z, vals = K.single_neuron_max(K.cyclic_table(p), tau, restarts=restarts, rng=np.random.default_rng(seed))
    return best, z, vals


def fourier_power(vec: np.ndarray) -> np.ndarray:
    """Folded normalized Fourier power per frequency 0..floor(p/2) of a real vector."""
    p = len(vec)
    P = np.abs(np.fft.fft(vec)) ** 2
    out = np.zeros(p // 2 + 1)
    for j in range(p):
        out[min(j, p - j)] += P[j]
    return out / max(P.sum(), 1e-300)


@cache
def group_single_max(name: str, tau_kind: str, restarts: int, seed: int) -> tuple:
    G = group(name)
    if tau_kind == "d14":
        tau = K.tau_from_classes(G, K.lemma_d14_tau(G))
    else:
        tau = np.r_[0.0, np.full(G.order - 1, 1.0 / (G.order - 1))]
    with single_threaded_blas():  # one BLAS thread: see the note above RTOL_EXACT
        best, z, vals = K.single_neuron_max(G.mul, tau, restarts=restarts, rng=np.random.default_rng(seed))
    return best, z, vals


def basis_with_dims(G) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The matrix-entry basis rho_(n,i,j) of G (rows), each row's irrep index n, and d_n per row."""
    own = G.basis_owner()
    return G.basis(), own, np.array(G.dims)[own]


def irrep_power(G, vec: np.ndarray) -> np.ndarray:
    """Power of vec per irrep in the orthonormal basis sqrt(d/|G|) rho_(n,i,j)."""
    B, own, d = basis_with_dims(G)
    coef = (B * np.sqrt(d / G.order)[:, None]) @ vec
    pw = np.bincount(own, weights=coef**2, minlength=len(G.irreps))
    return pw / max(pw.sum(), 1e-300)


def block_lp(Psi: np.ndarray) -> float:
    """max_{lambda in simplex} min_x sum_s lambda_s Psi[s, x] (rows = neuron classes, columns = points)."""
    return K.game_value(Psi)[0]


def gamma_parity(k: int) -> float:
    return math.factorial(k) * math.sqrt(2 * (k + 1) ** (-(k + 1)))

#: one seed for the numerical single-neuron maxima shared by several claims (a cache key, so the
#: optimisation runs once per (group, tau, restarts) in a session)
SINGLE_SEED = 20231107


@cache
def single_max_class_tau(name: str, tau_class: tuple, restarts: int, seed: int) -> tuple:
    """Numerical single-neuron max for class weights tau_class (cached: statement-independent)."""
    G = group(name)
    tau = K.tau_from_classes(G, np.array(tau_class))
    with single_threaded_blas():  # one BLAS thread: see the note above RTOL_EXACT
        best, z, _ = K.single_neuron_max(G.mul, tau, restarts=restarts, rng=np.random.default_rng([SINGLE_SEED, seed]))
    return best, z


@cache
def parity_single_max_point(n: int, k: int, restarts: int) -> tuple:
    """Numerical single-neuron max and maximizer for (n, k)-parity, S = first k coordinates (cached)."""
    with single_threaded_blas():  # one BLAS thread: see the note above RTOL_EXACT
        return K.parity_single_neuron_max(n, k, list(range(k)), restarts=restarts,
                                          rng=np.random.default_rng([SINGLE_SEED, n, k]))


def parity_single_max(n: int, k: int, restarts: int) -> float:
    return parity_single_max_point(n, k, restarts)[0]


@cache
def cyclic_game(p: int) -> float:
    """Value of the finite game X1 for Z_p (cached)."""
    return K.cyclic_game_value(p)


@cache
def group_game(name: str, irreps: tuple | None = None) -> float:
    """Value of the finite game X2 of ``name`` over all non-trivial irreps (``irreps`` None) or over the given
    irrep indices (cached: statement-independent, shared by the printed statement and the mutants)."""
    return K.game_value(K.group_game_matrix(group(name), None if irreps is None else list(irreps)))[0]


@cache
def group_game_drop_one(name: str) -> float:
    """The best game value of ``name`` with one non-trivial irrep removed (-inf for a single one; cached)."""
    nontriv = list(range(1, len(group(name).irreps)))
    return max(group_game(name, tuple(r for r in nontriv if r != x)) for x in nontriv) if len(nontriv) > 1 else -math.inf


@cache
def cyclic_best_block_network(p: int) -> float:
    """Normalized margin (exhaustive) of the block network with the X1 LP weights (cached)."""
    import math

    rows = np.array([(1 - np.cos(2 * math.pi * z * np.arange(1, p) / p)) / K._block_cost(p, z) for z in range(1, p // 2 + 1)])
    _, nu, _ = K.game_value(rows)
    U, V, W = K.cyclic_block_network(p, {z + 1: nu[z] for z in range(len(nu))})
    return K.normalized_margin(K.cyclic_table(p), U, V, W)["normalized"]


@cache
def group_construction_info(name: str, exponent: float = 1 / 3) -> dict:
    """kernels.algebra.margin.normalized_margin of the D.15 + D.16 network with scaling d^exponent (cached)."""
    G = group(name)
    U, V, W = K.group_trace_construction(G, scale_exponent=exponent)
    F = K.quadratic_logits(U, V, W)
    g, spread = K.group_margins(F, G.mul)
    cost = float(K.neuron_costs(U, V, W).sum())
    scale = float(np.abs(F).max())
    return {"normalized": float(g.min()) / cost, "margin_spread": float(g.max() - g.min()) / scale,
            "wrong_spread": float(spread.max()) / scale, "width": len(U),
            "wrong_over_correct": float(F[0, 0, 1] / F[0, 0, 0])}
