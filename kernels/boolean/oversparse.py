"""Exact Fourier quantities of sparse-initialised ReLU neurons (seed 004, thesis ch. 6 and App. C).

Conventions (App. C.2, lines 4042-4626).  Maj_N(x) = sign(sum_i x_i) with sign(0) := -1, and
Maj_N^(t) is its Fourier coefficient on any t-subset.  For odd N and odd t (O'Donnell 2014, Thm 5.19)

    Maj_N^(t) = (-1)^{(t-1)/2} C((N-1)/2, (t-1)/2) / C(N-1, t-1) * 2^{1-N} C(N-1, (N-1)/2),

and 0 for even t.  For even N the tie convention gives, since Maj_N(x) = Maj_{N+1}(x, -1),
Maj_N^(t) = Maj_{N+1}^(t) for odd t and -Maj_{N+1}^(t+1) for even t.  Half_s(x) = 1[sum_i x_i = 0]
(s even) has Half_s^(2j) = Maj_{s+1}^(2j+1) (Lemma C.12 with the missing 4^{-m}) and 0 on odd levels.

Over-sparse neuron (Lemmas C.3, C.4): w in {0,1}^n with |supp w| = s odd, h_w = relu(<w, x>); with
C_{k,s} = Maj_s^(k-1) / 2 and c_{k,s} = Maj_s^(k+1) / 2, the correlation vector
g_i = E[1[<w,x> > 0] x_i chi_S(x)] is C on S, c on supp(w) \\ S when S is inside supp(w).

Under-sparse neuron (Lemmas C.13-C.15): weight 1 on S' (|S'| = s even), epsilon elsewhere; the
correlations of a good neuron (S' inside S) are xi_rel = Half_s^([s]) Maj_{n-s}^(k-s-1) / 2 on S \\ S'
and xi_irr = Half_s^([s]) Maj_{n-s}^(k-s+1) / 2 off S.  On the cube the epsilon-perturbation is
realised exactly by integer weights (:func:`undersparse_weights`): M = 2(n - s) + 1 on S', 1 elsewhere,
which orders the points exactly as 1 on S' and epsilon < 1/(n - s) elsewhere (no float ties).

:func:`correlation_vector` is the exhaustive route: it evaluates g exactly by summing over all 2^n
points (kernels.boolean.population_gradient with the STEP activation; integer partial sums below 2^53, so the
float64 result times 2^n is an exact integer).
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import comb

import numpy as np

from .. import _checks
from ..activations import Activation
from .population_gradient import population_gradient

__all__ = [
    "C_ks",
    "c_ks",
    "correlation_vector",
    "half_hat",
    "kappa",
    "maj_hat",
    "p_good_oversparse",
    "p_good_undersparse",
    "parity_readout",
    "rho",
    "undersparse_weights",
    "xi_irr",
    "xi_rel",
]

_MAX_N = 100_000


def maj_hat(N: int, t: int) -> Fraction:
    """Maj_N^(t): the Fourier coefficient of Maj_N (sign(0) = -1) on any t-subset, exact."""
    N = _checks.require_int("N", N, min_value=1, max_value=_MAX_N)
    t = _checks.require_int("t", t, min_value=0, max_value=_MAX_N)
    if t > N:
        return Fraction(0)
    if N % 2 == 0:
        return maj_hat(N + 1, t) if t % 2 == 1 else -maj_hat(N + 1, t + 1)
    if t % 2 == 0:
        return Fraction(0)
    m, j = (N - 1) // 2, (t - 1) // 2
    return (-1) ** j * Fraction(comb(m, j) * comb(N - 1, m), comb(N - 1, t - 1) * 2 ** (N - 1))


def half_hat(s: int, t: int) -> Fraction:
    """Half_s^(t) for Half_s(x) = 1[x_1 + ... + x_s = 0], s even: Maj_{s+1}^(t+1) for even t, else 0."""
    s = _checks.require_int("s", s, min_value=0, max_value=_MAX_N)
    t = _checks.require_int("t", t, min_value=0, max_value=_MAX_N)
    if s % 2 == 1:
        raise ValueError(f"argument 's' must be an even integer in [0, {_MAX_N}], not {s}")
    if t > s or t % 2 == 1:
        return Fraction(0)
    return maj_hat(s + 1, t + 1)


def C_ks(k: int, s: int) -> Fraction:
    """C_{k,s} = Maj_s^(k-1) / 2 (Lemma C.3 (1)): correlation of a good over-sparse neuron on i in S."""
    return maj_hat(s, _checks.require_int("k", k, min_value=1, max_value=_MAX_N) - 1) / 2


def c_ks(k: int, s: int) -> Fraction:
    """c_{k,s} = Maj_s^(k+1) / 2 (Lemma C.3 (2)): correlation on i in supp(w) \\ S."""
    return maj_hat(s, _checks.require_int("k", k, min_value=0, max_value=_MAX_N) + 1) / 2


def xi_rel(n: int, k: int, s: int) -> Fraction:
    """xi_rel = Half_s^([s]) Maj_{n-s}^(k-s-1) / 2 (Lemma C.15): good under-sparse neuron, i in S \\ S'."""
    n, k, s = _undersparse_args(n, k, s)
    return half_hat(s, s) * maj_hat(n - s, k - s - 1) / 2


def xi_irr(n: int, k: int, s: int) -> Fraction:
    """xi_irr = Half_s^([s]) Maj_{n-s}^(k-s+1) / 2 (Lemma C.15): good under-sparse neuron, i not in S."""
    n, k, s = _undersparse_args(n, k, s)
    return half_hat(s, s) * maj_hat(n - s, k - s + 1) / 2


def _undersparse_args(n, k, s):
    n = _checks.require_int("n", n, min_value=2, max_value=_MAX_N)
    k = _checks.require_int("k", k, min_value=1, max_value=n - 1)
    s = _checks.require_int("s", s, min_value=0, max_value=k - 1)
    return n, k, s


def p_good_oversparse(n: int, k: int, s: int) -> Fraction:
    """P[S inside supp w] = C(n-k, s-k) / C(n, s) for w uniform over s-subsets of [n] (Lemma C.2)."""
    n = _checks.require_int("n", n, min_value=1, max_value=_MAX_N)
    s = _checks.require_int("s", s, min_value=0, max_value=n)
    k = _checks.require_int("k", k, min_value=0, max_value=s)
    return Fraction(comb(n - k, s - k), comb(n, s))


def p_good_undersparse(n: int, k: int, s: int) -> Fraction:
    """P[S' inside S] = C(k, s) / C(n, s) for S' uniform over s-subsets of [n] (Thm C.16)."""
    n = _checks.require_int("n", n, min_value=1, max_value=_MAX_N)
    k = _checks.require_int("k", k, min_value=0, max_value=n)
    s = _checks.require_int("s", s, min_value=0, max_value=k)
    return Fraction(comb(k, s), comb(n, s))


def rho(v: int) -> float:
    """rho(v) = 2 / (pi v 2^{v-1}) C(v-1, (v-1)/2) = lim_{N -> inf} W^v[Maj_N] for odd v (Lemma C.3)."""
    v = _checks.require_int("v", v, min_value=1, max_value=10_000)
    if v % 2 == 0:
        raise ValueError(f"argument 'v' must be an odd integer in [1, 10000], not {v}")
    return 2.0 / math.pi * float(Fraction(comb(v - 1, (v - 1) // 2), v * 2 ** (v - 1)))


def kappa(k: int) -> float:
    """kappa_k = sqrt(rho(k - 1)) / 2 (proof of Lemma C.3), k even."""
    k = _checks.require_int("k", k, min_value=2, max_value=10_000)
    if k % 2:
        raise ValueError(f"argument 'k' must be an even integer in [2, 10000], not {k}")
    return 0.5 * math.sqrt(rho(k - 1))


def undersparse_weights(n: int, support) -> np.ndarray:
    """Integer weights M on ``support`` (M = 2(n - s) + 1), 1 elsewhere: the exact epsilon-perturbed row."""
    n = _checks.require_int("n", n, min_value=1, max_value=_checks.MAX_CUBE_DIM)
    mask = _checks.require_subset("support", support, n)
    s = (mask).bit_count()
    w = np.ones(n, dtype=np.float64)
    for i in range(n):
        if mask >> i & 1:
            w[i] = 2 * (n - s) + 1
    return w


_STEP = Activation.step()


def correlation_vector(w, S, b: float = 0.0, *, backend: str = "auto") -> list[Fraction]:
    """[E_x 1[<w, x> + b > 0] x_i chi_S(x)] for i < n, exact Fractions with denominator 2^n.

    ``w`` must be integer-valued (as float64 or int) so that the cube sums are exact; ``S`` is a
    bitmask or an iterable of 0-based indices.
    """
    w = np.asarray(w, dtype=np.float64)
    if w.ndim != 1 or not np.all(np.isfinite(w)) or not np.all(w == np.round(w)) or np.max(np.abs(w), initial=0) > 2**20:
        raise ValueError("argument 'w' must be a 1-D array of integers with |w_i| <= 2^20 (exact cube sums)")
    g = population_gradient(w, b, S, _STEP, backend=backend).g
    n = w.shape[0]
    scaled = g * float(1 << n)
    ints = np.round(scaled)
    if not np.all(ints == scaled):
        raise ArithmeticError("correlation_vector: a cube sum was not an integer (inexact input)")
    return [Fraction(int(v), 1 << n) for v in ints]


def parity_readout(k: int, bias_indices) -> tuple[list[Fraction], Fraction] | None:
    """The readout v with v(t) . v = (-1)^{(k - t)/2} for t = -k, -k+2, ..., k (Lemma C.6, psi*).

    Features v(t) = (1, relu(t/(2k) + beta_j), relu(-t/(2k) + beta_j))_{j in bias_indices}, with
    beta_j = (-k + 2j + 1/16) / (2k).  Returns (v, ||v||_2^2) as exact Fractions (minimum-norm
    solution when the system is underdetermined), or None when no readout represents the parity.
    """
    import sympy as sp

    k = _checks.require_int("k", k, min_value=2, max_value=40)
    js = [_checks.require_int("bias_indices[i]", j, min_value=-k, max_value=k) for j in bias_indices]
    betas = [Fraction(-k + 2 * j, 2 * k) + Fraction(1, 32 * k) for j in js]
    rows, rhs = [], []
    for t in range(-k, k + 1, 2):
        z = Fraction(t, 2 * k)
        row = [Fraction(1)]
        for beta in betas:
            row += [max(z + beta, Fraction(0)), max(-z + beta, Fraction(0))]
        rows.append([sp.Rational(q.numerator, q.denominator) for q in row])
        rhs.append(sp.Integer((-1) ** ((k - t) // 2)))
    A = sp.Matrix(rows)
    y = sp.Matrix(rhs)
    try:
        sol, free = A.gauss_jordan_solve(y)
    except ValueError:
        return None
    if free.shape[0]:  # minimum-norm solution: v = A^+ y
        sol = A.pinv() * y
    v = [Fraction(int(sp.fraction(e)[0]), int(sp.fraction(e)[1])) for e in sol]
    return v, sum(q * q for q in v)
