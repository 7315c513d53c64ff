"""Gradient flow of a disjoint-PolyNet under the correlation loss (thesis ch. 5, Section 5.4.2, App. B.2.3).

The network on n = k n' inputs is f(x; w) = prod_{i=1}^k <w_i, x_{P_i}> with blocks
P_i = {n'(i-1), ..., n' i - 1} (0-based); the target is y = prod_i x_{P_i[0]} (the first coordinate of
every block is relevant).  With the correlation loss l(y, yhat) = -y yhat the population loss is
L(w) = -E[y f(x; w)] and gradient flow is dw/dt = -grad L(w).  Writing v_i = w_{i,0} for the
relevant weights, the flow of the relevant weights is

    dv_i/dt = prod_{j != i} v_j                                             (1)

and the irrelevant weights do not move (the claims check this from the exhaustive gradient).  Along
(1), v_i^2 - v_l^2 is conserved, and with c_i = v_i(0)^2 and q = v_i^2 - c_i (common to all i) the
time at which q is reached is the quadrature

    t(q) = int_0^q (1/2) prod_i (g + c_i)^{-1/2} dg.                         (2)

This module provides the numerics only (no claims):

* exhaustive population loss and gradient over the cube, exact (Fractions) or float64
  (:func:`polynet_population_loss`, :func:`polynet_population_gradient`), and the full-flow
  right-hand side built on the exhaustive gradient (:func:`full_flow_rhs`);
* an integrator of (1) that locates threshold crossings |v_i(t)| = b and samples v at given times:
  :func:`relevant_flow` with twins ``backend="reference"`` (scipy ``solve_ivp``, DOP853 with event
  functions; slow, obvious) and ``"cpu"`` (numba, Dormand-Prince 5(4) with step-size control, events
  located by root-finding on partial steps; ``parallel=True`` over initialisations);
* the quadrature (2): :func:`flow_time` with twins ``"reference"`` (scipy ``quad``) and ``"cpu"``
  (numba, composite Gauss-Legendre after the substitution g = c_min (e^y - 1));
* the exact error along the flow for a given irrelevant part (App. B.2.3, Lemma B.9's exact form):
  :func:`abs_block_sums` (twins ``"cpu"``, linear merges in numba, and ``"reference"``, numpy sort),
  :func:`sampled_abs_block_sums` (empirical block laws from sampled signs), :func:`flow_levels`,
  :func:`error_after`, :func:`error_at`, :func:`crossing_q` (twins ``"cpu"`` and ``"reference"``).

Error along the flow.  For prod_i v_i > 0 (preserved by the flow) and blocks with irrelevant weights
u_i, err = 1 - (1/2) prod_i (1 - p_z,i) - (1/2) prod_i (1 - p_z,i - 2 p_w,i) (kernels.boolean.polynet); away
from the instants where some |v_i| equals an attainable |A_i| = |u_i . z| (ties, a null set of
times) p_z,i = 0 and err = 1/2 - (1/2) prod_i Pr[|A_i| <= |v_i|].  As a function of q it is
piecewise constant; :func:`error_after` returns its right-continuous version
err(q+) = 1/2 - (1/2) prod_i #{j : Q_ij <= q} / N_i over the "levels" Q_ij = a_ij^2 - c_i, where
a_i1 <= ... <= a_iN_i are the attainable values of |A_i| (one per pair {z, -z}).  At a tie instant
err is at least the left limit, so sup{t : err(t) >= alpha} is the time of the first level q with
err(q+) < alpha (:func:`crossing_q`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numba as nb
import numpy as np
from numba import prange

from .. import _checks

__all__ = [
    "FlowResult",
    "full_flow_rhs",
    "polynet_population_gradient",
    "polynet_population_loss",
    "relevant_flow",
    "relevant_velocity",
]

MAX_EXHAUSTIVE_N = 24
MAX_ABS_SUMS_M = 26  # the merge keeps two arrays of 2^m float64: 1 GiB at m = 26


# ---------------------------------------------------------------------------------------------
# the vector field and the exhaustive population gradient
# ---------------------------------------------------------------------------------------------


def relevant_velocity(v) -> np.ndarray:
    """dv_i/dt = prod_{j != i} v_j for v of shape (k,) or (N, k) (prefix/suffix products, no division)."""
    v = np.asarray(v, dtype=np.float64)
    if v.ndim not in (1, 2) or v.shape[-1] < 1:
        raise ValueError(f"argument 'v' must have shape (k,) or (N, k) with k >= 1, not {v.shape}")
    ones = np.ones(v.shape[:-1] + (1,))
    prefix = np.cumprod(np.concatenate([ones, v[..., :-1]], axis=-1), axis=-1)
    suffix = np.cumprod(np.concatenate([ones, v[..., ::-1][..., :-1]], axis=-1), axis=-1)[..., ::-1]
    return prefix * suffix


def _blocks(weights, name: str = "weights"):
    if isinstance(weights, np.ndarray) and weights.ndim == 2:
        rows = [list(r) for r in weights]
    else:
        try:
            rows = [list(b) for b in weights]
        except TypeError:
            raise ValueError(f"argument '{name}' must be a sequence of k >= 1 blocks of equal length n' >= 1") from None
    if not rows or len({len(r) for r in rows}) != 1 or len(rows[0]) < 1:
        raise ValueError(
            f"argument '{name}' must be a sequence of k >= 1 blocks of equal length n' >= 1, "
            f"not block lengths {[len(r) for r in rows]}"
        )
    k, n_prime = len(rows), len(rows[0])
    _checks.require_finite(name, rows, why="the loss is undefined")
    _checks.require_cube_dim(f"k n' (from '{name}')", k * n_prime, max_value=MAX_EXHAUSTIVE_N, copies=k + 3)
    return rows, k, n_prime


def _block_linear_forms(cols: np.ndarray, k: int, n_prime: int, dtype) -> np.ndarray:
    """lin[l, x] = <w_l, x_{P_l}> over all x (index bit j set <=> x_j = -1), from the 2^{n'} block table
    built by doubling (table[idx] for idx < 2^j, then [table + w_j, table - w_j])."""
    n = k * n_prime
    idx = np.arange(1 << n, dtype=np.int64)
    lin = np.empty((k, 1 << n), dtype=dtype)
    for l in range(k):
        table = np.zeros(1, dtype=dtype)
        for j in range(n_prime):
            w = cols[l][j]
            table = np.concatenate([table + w, table - w])
        lin[l] = table if k == 1 else table[(idx >> (l * n_prime)) & ((1 << n_prime) - 1)]
    return lin


def _signed_sum(p: np.ndarray, bit: int | None):
    """sum_x p(x) x_bit over the cube (x_bit = +1 where the index bit is clear), or sum_x p(x) (bit None)."""
    if bit is None:
        return p.sum()
    halves = p.reshape(-1, 2, 1 << bit).sum(axis=(0, 2))
    return halves[0] - halves[1]


def _exact_setup(rows):
    fr = [[Fraction(x) for x in r] for r in rows]
    D = 1
    for r in fr:
        for x in r:
            D = lcm(D, x.denominator)
    ints = [[int(x * D) for x in r] for r in fr]
    big = max(sum(abs(x) for x in r) for r in ints)
    if big >= 1 << 40:
        raise ValueError(f"argument 'weights': with the common denominator {D} a block has integer l1-norm {big}, "
                         "above the supported 2^40 (use smaller numerators or denominators)")
    return ints, D


def _bound_bits(ints, n: int) -> int:
    """log2 bound on |sum_x prod_l lin_l(x)| (and every partial product sum): 2^n prod_l max(||W_l||_1, 1)."""
    bound = 1 << n
    for r in ints:
        bound *= max(sum(abs(x) for x in r), 1)
    return bound.bit_length()


_PRIMES: list[int] = []


def _primes(count: int) -> list[int]:
    """The ``count`` largest primes below 2^31 (trial division; cached)."""
    p = (_PRIMES[-1] if _PRIMES else 1 << 31) - 1
    while len(_PRIMES) < count:
        if p % 2 and all(p % d for d in range(3, int(p**0.5) + 1, 2)):
            _PRIMES.append(p)
        p -= 1
    return _PRIMES[:count]


def _exact_product_sums(y, lins, bits_list, bound_bits: int) -> list[int]:
    """Exact integers sum_x y(x) prod_{lin in lins} lin(x) x_b for each b in ``bits_list`` (None: no factor x_b).

    Direct int64 arithmetic when the bound 2^bound_bits < 2^62 (overflow guard); otherwise the sums are
    taken modulo primes p < 2^31 (products of two residues fit in int64) and recombined by the Chinese
    remainder theorem into the symmetric residue, which is the integer since |sum| < prod p / 2.
    """
    if bound_bits < 62:
        p = y.copy()
        for lin in lins:
            p = p * lin
        return [int(_signed_sum(p, b)) for b in bits_list]
    primes = _primes(bound_bits // 30 + 2)
    residues = []
    for pr in primes:
        p = y % pr
        for lin in lins:
            p = (p * (lin % pr)) % pr
        residues.append([int(_signed_sum(p, b)) % pr for b in bits_list])
    M = 1
    for pr in primes:
        M *= pr
    out = []
    for j in range(len(bits_list)):
        x = 0
        for pr, res in zip(primes, residues):
            Mi = M // pr
            x += res[j] * Mi * pow(Mi, -1, pr)
        x %= M
        out.append(x - M if x > M // 2 else x)
    return out


def _targets(k: int, n_prime: int) -> np.ndarray:
    """y(x) = prod_i x_{P_i[0]} over all 2^n points (int64 +-1)."""
    idx = np.arange(1 << (k * n_prime), dtype=np.int64)
    y_bits = np.zeros(idx.shape[0], dtype=np.int64)
    for l in range(k):
        y_bits ^= (idx >> (l * n_prime)) & 1
    return 1 - 2 * y_bits


def polynet_population_loss(weights, *, exact: bool = False):
    """L(w) = -E_x[y f(x; w)] by summing over all 2^n points of the cube (n = k n' <= 24).

    ``weights``: k blocks of length n' (relevant weight first).  ``exact=True``: the weights are read as
    rationals (ints, Fractions, decimal strings) and the result is a Fraction computed with integer
    sums (int64 under an overflow guard, residues modulo primes and CRT beyond); else a float64 mean.
    """
    rows, k, n_prime = _blocks(weights)
    n = k * n_prime
    y = _targets(k, n_prime)
    if exact:
        ints, D = _exact_setup(rows)
        lin = _block_linear_forms(np.array(ints, dtype=np.int64), k, n_prime, np.int64)
        (total,) = _exact_product_sums(y, list(lin), [None], _bound_bits(ints, n))
        return -Fraction(total, (1 << n) * D**k)
    lin = _block_linear_forms(np.array(rows, dtype=np.float64), k, n_prime, np.float64)
    return -float(np.mean(y * np.prod(lin, axis=0)))


def polynet_population_gradient(weights, *, exact: bool = False):
    """g_{i,j} = E_x[d l / d w_{i,j}] = -E_x[y prod_{l != i} <w_l, x_{P_l}> x_{P_i, j}], summed over the cube.

    Returns a (k, n') float64 array, or with ``exact=True`` a list of k lists of Fractions (integer
    sums with an int64 overflow guard, Python ints beyond).  The chain rule is applied inside the
    expectation (f is a polynomial); the claims also compare with exact finite differences of
    :func:`polynet_population_loss` (L is affine in each single weight).
    """
    rows, k, n_prime = _blocks(weights)
    n = k * n_prime
    y = _targets(k, n_prime)
    out = []
    if exact:
        ints, D = _exact_setup(rows)
        lin = _block_linear_forms(np.array(ints, dtype=np.int64), k, n_prime, np.int64)
        bits = _bound_bits(ints, n)
        for i in range(k):
            sums = _exact_product_sums(y, [lin[l] for l in range(k) if l != i],
                                       [i * n_prime + j for j in range(n_prime)], bits)
            out.append([-Fraction(s_, (1 << n) * D ** (k - 1)) for s_ in sums])
        return out
    lin = _block_linear_forms(np.array(rows, dtype=np.float64), k, n_prime, np.float64)
    for i in range(k):
        p = y.astype(np.float64)
        for l in range(k):
            if l != i:
                p = p * lin[l]
        out.append([-float(_signed_sum(p, i * n_prime + j)) / (1 << n) for j in range(n_prime)])
    return out if exact else np.array(out, dtype=np.float64)


def full_flow_rhs(k: int, n_prime: int):
    """The gradient-flow vector field on ALL k n' weights, from the exhaustive population gradient.

    Returns ``rhs(t, w_flat) -> dw/dt = -grad L(w)`` (float64, w_flat = the k blocks concatenated),
    computed by summing over the 2^n points of the cube at every call (n = k n' <= 20); nothing about
    the structure of the gradient is assumed.
    """
    k = _checks.require_int("k", k, min_value=1, max_value=MAX_EXHAUSTIVE_N)
    n_prime = _checks.require_int("n_prime", n_prime, min_value=1, max_value=MAX_EXHAUSTIVE_N)
    n = _checks.require_cube_dim("k n'", k * n_prime, max_value=20, copies=2 * k + 2)
    idx = np.arange(1 << n, dtype=np.int64)
    X = (1 - 2 * ((idx[:, None] >> np.arange(n)) & 1)).astype(np.float64)  # (2^n, n)
    y = np.prod(X[:, ::n_prime][:, :k], axis=1)
    # each block contiguous (2^n, n'): the products below then stream it instead of a strided column slice
    blocks = [np.ascontiguousarray(X[:, l * n_prime:(l + 1) * n_prime]) for l in range(k)]
    del X
    scale = 1.0 / (1 << n)

    def rhs(t, w_flat):
        W = np.asarray(w_flat, dtype=np.float64).reshape(k, n_prime)
        lin = np.stack([blocks[l] @ W[l] for l in range(k)])
        out = np.empty((k, n_prime))
        for i in range(k):
            p = y.copy()
            for l in range(k):
                if l != i:
                    p *= lin[l]
            out[i] = (blocks[i].T @ p) * scale  # = -g_i: dw_i/dt = E[y prod_{l != i} lin_l x_{P_i}]
        return out.ravel()

    return rhs


# ---------------------------------------------------------------------------------------------
# integrator of the relevant flow: Dormand-Prince 5(4) (numba) and scipy (reference)
# ---------------------------------------------------------------------------------------------

_C = np.array([0.0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0])
_A = np.zeros((7, 7))
_A[1, 0] = 1 / 5
_A[2, :2] = [3 / 40, 9 / 40]
_A[3, :3] = [44 / 45, -56 / 15, 32 / 9]
_A[4, :4] = [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729]
_A[5, :5] = [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656]
_A[6, :6] = [35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]
_B5 = _A[6].copy()
_B4 = np.array([5179 / 57600, 0.0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100, 1 / 40])
_E = _B5 - _B4


@dataclass(frozen=True)
class FlowResult:
    """Output of :func:`relevant_flow` (leading axis N when several initialisations were given).

    ``event_times`` (N, k, m): the first t >= 0 with |v_i(t)| >= thresholds[j] (inf if not reached
    before the run stopped); ``v_out`` (N, T, k): v at the requested times (nan after the stop);
    ``t_stop``, ``v_stop``: where the run stopped; ``status`` (N,): 0 = max_i |v_i| reached b_stop,
    1 = t reached t_max, 2 = step budget exhausted, 3 = step size underflow; ``steps`` (N,): accepted
    steps; ``backend``: the twin that ran.
    """

    event_times: np.ndarray
    v_out: np.ndarray
    t_stop: np.ndarray
    v_stop: np.ndarray
    status: np.ndarray
    steps: np.ndarray
    backend: str


@nb.njit(cache=True)
def _vel(v, out):  # pragma: no cover - compiled
    k = v.shape[0]
    acc = 1.0
    for i in range(k):
        out[i] = acc
        acc *= v[i]
    acc = 1.0
    for i in range(k - 1, -1, -1):
        out[i] *= acc
        acc *= v[i]


@nb.njit(cache=True)
def _dp_step(y, h, A, E, K, ytmp, y5, err):  # pragma: no cover - compiled
    """One Dormand-Prince step of size h from y: fills y5 (5th order) and err (5th - 4th order)."""
    k = y.shape[0]
    _vel(y, K[0])
    for s in range(1, 7):
        for i in range(k):
            acc = y[i]
            for r in range(s):
                acc += h * A[s, r] * K[r, i]
            ytmp[i] = acc
        _vel(ytmp, K[s])
    for i in range(k):
        y5[i] = ytmp[i]  # the last stage is evaluated at the 5th-order solution (FSAL)
        e = 0.0
        for r in range(7):
            e += E[r] * K[r, i]
        err[i] = h * e


@nb.njit(cache=True)
def _partial(y, s, A, K, ytmp, out):  # pragma: no cover - compiled
    """The 5th-order solution of one Dormand-Prince step of size s (0 <= s <= h) from y."""
    k = y.shape[0]
    _vel(y, K[0])
    for st in range(1, 7):
        for i in range(k):
            acc = y[i]
            for r in range(st):
                acc += s * A[st, r] * K[r, i]
            ytmp[i] = acc
        if st < 6:
            _vel(ytmp, K[st])
    for i in range(k):
        out[i] = ytmp[i]


@nb.njit(cache=True)
def _locate(y, t, h, comp, level, A, K, ytmp, work):  # pragma: no cover - compiled
    """Root of |Phi_s(y)[comp]| = level for s in (0, h] (Illinois method on the partial-step map)."""
    lo, hi = 0.0, h
    flo = abs(y[comp]) - level
    _partial(y, h, A, K, ytmp, work)
    fhi = abs(work[comp]) - level
    if fhi <= 0.0:
        return t + h
    side = 0
    for _ in range(200):
        if hi - lo <= 1e-16 * (abs(t) + hi):
            break
        s = hi - fhi * (hi - lo) / (fhi - flo)
        if not (s > lo and s < hi):
            s = 0.5 * (lo + hi)
        _partial(y, s, A, K, ytmp, work)
        fs = abs(work[comp]) - level
        if fs == 0.0:
            return t + s
        if fs > 0.0:
            hi, fhi = s, fs
            if side == 1:
                flo *= 0.5
            side = 1
        else:
            lo, flo = s, fs
            if side == -1:
                fhi *= 0.5
            side = -1
    return t + hi


@nb.njit(cache=True)
def _flow_one(v0, thresholds, t_out, b_stop, t_max, rtol, atol, max_steps, A, E, ev_row, vout_row, vstop):  # pragma: no cover - compiled
    """Integrate (1) from v0; fills ev_row (k, m), vout_row (T, k), vstop (k); returns (t_stop, status, steps)."""
    k = v0.shape[0]
    m = thresholds.shape[0]
    T = t_out.shape[0]
    y = v0.copy()
    K = np.empty((7, k))
    ytmp = np.empty(k)
    y5 = np.empty(k)
    err = np.empty(k)
    work = np.empty(k)
    for i in range(k):
        for j in range(m):
            ev_row[i, j] = np.inf if abs(y[i]) < thresholds[j] else 0.0
    for j in range(T):
        for i in range(k):
            vout_row[j, i] = np.nan
    t = 0.0
    jo = 0
    while jo < T and t_out[jo] <= 0.0:
        for i in range(k):
            vout_row[jo, i] = y[i]
        jo += 1
    vmax = 0.0
    for i in range(k):
        vmax = max(vmax, abs(y[i]))
    status = 0
    steps = 0
    if vmax >= b_stop:
        for i in range(k):
            vstop[i] = y[i]
        return t, 0, 0
    _vel(y, K[0])
    h = 0.1
    for i in range(k):
        if K[0, i] != 0.0:
            h = min(h, 0.01 * (atol + abs(y[i])) / abs(K[0, i]))
    h = max(h, 1e-12)
    while True:
        if steps >= max_steps:
            status = 2
            break
        if t >= t_max:
            status = 1
            break
        hh = h
        clipped = False
        if t + hh > t_max:
            hh = t_max - t
            clipped = True
        if jo < T and t + hh >= t_out[jo]:
            hh = t_out[jo] - t
            clipped = True
        if hh <= 0.0 or t + hh == t:
            if jo < T and t_out[jo] <= t:
                for i in range(k):
                    vout_row[jo, i] = y[i]
                jo += 1
                continue
            status = 3
            break
        _dp_step(y, hh, A, E, K, ytmp, y5, err)
        en = 0.0
        finite = True
        for i in range(k):
            if not np.isfinite(y5[i]):
                finite = False
            sc_i = atol + rtol * max(abs(y[i]), abs(y5[i]))
            en = max(en, abs(err[i]) / sc_i)
        if not finite or not en <= 1.0:
            fac = 0.2 if not finite or not np.isfinite(en) else max(0.2, 0.9 * en ** (-0.2))
            h = hh * fac
            continue
        # accepted: locate the threshold crossings inside the step, then advance
        for i in range(k):
            for j in range(m):
                if ev_row[i, j] == np.inf and abs(y5[i]) >= thresholds[j]:
                    ev_row[i, j] = _locate(y, t, hh, i, thresholds[j], A, K, ytmp, work)
        vmax = 0.0
        for i in range(k):
            vmax = max(vmax, abs(y5[i]))
        if vmax >= b_stop:
            # stop exactly where max_i |v_i| reaches b_stop; later crossings in this step do not count
            t_stop = t + hh
            for i in range(k):
                if abs(y5[i]) >= b_stop:
                    t_stop = min(t_stop, _locate(y, t, hh, i, b_stop, A, K, ytmp, work))
            for i in range(k):
                for j in range(m):
                    if ev_row[i, j] > t_stop:
                        ev_row[i, j] = np.inf
            if t_stop < t + hh:
                _partial(y, t_stop - t, A, K, ytmp, y5)
            t = t_stop
            for i in range(k):
                y[i] = y5[i]
            steps += 1
            while jo < T and t_out[jo] <= t:
                for i in range(k):
                    vout_row[jo, i] = y[i]
                jo += 1
            status = 0
            break
        landed = jo < T and hh == t_out[jo] - t
        t = t_out[jo] if landed else t + hh
        for i in range(k):
            y[i] = y5[i]
        steps += 1
        while jo < T and t_out[jo] <= t:
            for i in range(k):
                vout_row[jo, i] = y[i]
            jo += 1
        fac = 5.0 if en == 0.0 else min(5.0, max(0.2, 0.9 * en ** (-0.2)))
        h = max(h, hh * fac) if clipped else hh * fac
    for i in range(k):
        vstop[i] = y[i]
    return t, status, steps


@nb.njit(cache=True, parallel=True)
def _flow_batch(V0, TH, TO, b_stop, t_max, rtol, atol, max_steps, A, E, EV, VOUT, TSTOP, VSTOP, STATUS, STEPS):  # pragma: no cover - compiled
    N = V0.shape[0]
    for r in prange(N):
        ts, stt, nst = _flow_one(V0[r], TH[r], TO[r], b_stop[r], t_max, rtol, atol, max_steps, A, E, EV[r], VOUT[r], VSTOP[r])
        TSTOP[r] = ts
        STATUS[r] = stt
        STEPS[r] = nst


@nb.njit(cache=True)
def _flow_batch_serial(V0, TH, TO, b_stop, t_max, rtol, atol, max_steps, A, E, EV, VOUT, TSTOP, VSTOP, STATUS, STEPS):  # pragma: no cover - compiled
    for r in range(V0.shape[0]):
        ts, stt, nst = _flow_one(V0[r], TH[r], TO[r], b_stop[r], t_max, rtol, atol, max_steps, A, E, EV[r], VOUT[r], VSTOP[r])
        TSTOP[r] = ts
        STATUS[r] = stt
        STEPS[r] = nst


_PARALLEL_MIN = 256  # below this many independent items the thread start-up of prange costs more than it saves


def _flow_args(v0, thresholds, t_out, b_stop, t_max, rtol, atol, max_steps):
    V0 = np.atleast_2d(np.asarray(v0, dtype=np.float64))
    if np.asarray(v0).ndim not in (1, 2) or V0.shape[1] < 1 or not np.all(np.isfinite(V0)):
        raise ValueError(f"argument 'v0' must be a finite array of shape (k,) or (N, k) with k >= 1, not shape {np.shape(v0)}")
    N, k = V0.shape
    TH = np.asarray(thresholds, dtype=np.float64)
    TH = np.broadcast_to(TH if TH.ndim == 2 else TH.reshape(1, -1), (N, TH.shape[-1] if TH.size else 0)).copy() if TH.size else np.zeros((N, 0))
    if TH.size and (np.any(~np.isfinite(TH)) or np.any(TH < 0)):
        raise ValueError("argument 'thresholds' must hold finite values >= 0")
    TO = np.asarray(t_out, dtype=np.float64)
    TO = np.broadcast_to(TO if TO.ndim == 2 else TO.reshape(1, -1), (N, TO.shape[-1] if TO.size else 0)).copy() if TO.size else np.zeros((N, 0))
    if TO.size and (np.any(~np.isfinite(TO)) or np.any(TO < 0) or np.any(np.diff(TO, axis=1) < 0)):
        raise ValueError("argument 't_out' must hold finite, non-negative, non-decreasing times")
    if not (rtol > 0 and rtol < 1e-2):
        raise ValueError(f"argument 'rtol' must lie in (0, 1e-2), not {rtol!r}")
    if not atol >= 0:
        raise ValueError(f"argument 'atol' must be >= 0, not {atol!r}")
    BS = np.asarray(b_stop, dtype=np.float64)
    if BS.ndim > 1 or (BS.ndim == 1 and BS.shape[0] != N) or np.any(np.isnan(BS)) or np.any(BS <= 0):
        raise ValueError(f"argument 'b_stop' must be a scalar or an (N,) array of values > 0 (inf allowed), not {b_stop!r:.80}")
    BS = np.broadcast_to(BS, (N,)).copy()
    if not (t_max > 0):
        raise ValueError(f"argument 't_max' must be > 0 (inf allowed), not {t_max!r}")
    if not np.all(np.isfinite(BS)) and not np.isfinite(t_max):
        raise ValueError("arguments 'b_stop' and 't_max' cannot both be infinite (the flow may blow up)")
    max_steps = _checks.require_int("max_steps", max_steps, min_value=1, max_value=10**9)
    return V0, TH, TO, BS, N, k, max_steps


def relevant_flow(v0, *, thresholds=(), t_out=(), b_stop=np.inf, t_max: float = np.inf,
                  rtol: float = 1e-11, atol: float = 1e-14, max_steps: int = 10**6, backend: str = "cpu") -> FlowResult:
    """Integrate dv_i/dt = prod_{j != i} v_j from v0 ((k,) or (N, k)) until max_i |v_i| >= b_stop or t = t_max.

    ``thresholds`` ((m,) or (N, m)): levels b whose first crossing times |v_i(t)| = b are located for every
    i; ``t_out`` ((T,) or (N, T), non-decreasing): times at which v is sampled; ``b_stop``: a scalar or one
    level per initialisation (N,).  ``backend``:
    ``"cpu"`` (numba Dormand-Prince 5(4), error per component <= atol + rtol |v_i|, crossings
    located on the 5th-order partial-step map) or ``"reference"`` (scipy solve_ivp, DOP853, event
    functions; slow).  The result always has a leading axis N (N = 1 for a 1-D v0).
    """
    if backend not in ("cpu", "reference"):
        raise ValueError(f"argument 'backend' must be 'cpu' or 'reference', not {backend!r}")
    V0, TH, TO, BS, N, k, max_steps = _flow_args(v0, thresholds, t_out, b_stop, t_max, rtol, atol, max_steps)
    m, T = TH.shape[1], TO.shape[1]
    if backend == "cpu":
        EV = np.empty((N, k, m))
        VOUT = np.empty((N, T, k))
        TSTOP = np.empty(N)
        VSTOP = np.empty((N, k))
        STATUS = np.empty(N, dtype=np.int64)
        STEPS = np.empty(N, dtype=np.int64)
        run = _flow_batch if N >= _PARALLEL_MIN else _flow_batch_serial
        run(V0, TH, TO, BS, float(t_max), float(rtol), float(atol), max_steps, _A, _E,
                    EV, VOUT, TSTOP, VSTOP, STATUS, STEPS)
        return FlowResult(EV, VOUT, TSTOP, VSTOP, STATUS, STEPS, "cpu")
    return _relevant_flow_ref(V0, TH, TO, BS, t_max, rtol, atol, max_steps)


def _relevant_flow_ref(V0, TH, TO, BS, t_max, rtol, atol, max_steps) -> FlowResult:
    from scipy.integrate import solve_ivp

    N, k = V0.shape
    m, T = TH.shape[1], TO.shape[1]
    EV = np.full((N, k, m), np.inf)
    VOUT = np.full((N, T, k), np.nan)
    TSTOP = np.empty(N)
    VSTOP = np.empty((N, k))
    STATUS = np.empty(N, dtype=np.int64)
    STEPS = np.empty(N, dtype=np.int64)

    def fun(t, y):
        return relevant_velocity(y)

    for r in range(N):
        y0 = V0[r]
        b_stop = BS[r]
        events = []
        keys = []
        for i in range(k):
            for j in range(m):
                if abs(y0[i]) >= TH[r, j]:
                    EV[r, i, j] = 0.0
                    continue
                def ev(t, y, i=i, b=TH[r, j]):
                    return abs(y[i]) - b
                ev.direction = 1
                events.append(ev)
                keys.append((i, j))
        if np.isfinite(b_stop):
            def stop(t, y, b_stop=b_stop):
                return np.max(np.abs(y)) - b_stop
            stop.terminal = True
            stop.direction = 1
            events.append(stop)
        if np.max(np.abs(y0)) >= b_stop:
            TSTOP[r], VSTOP[r], STATUS[r], STEPS[r] = 0.0, y0, 0, 0
            VOUT[r, TO[r] <= 0.0] = y0
            continue
        t_end = float(t_max) if np.isfinite(t_max) else 1e300
        t_eval = TO[r][TO[r] <= t_end] if T else None
        with np.errstate(over="ignore", invalid="ignore"):  # trial steps past the blow-up are rejected by scipy
            sol = solve_ivp(fun, (0.0, t_end), y0, method="DOP853", rtol=rtol, atol=atol, events=events or None,
                            t_eval=t_eval, dense_output=False)
        for e, (i, j) in enumerate(keys):
            if len(sol.t_events[e]):
                EV[r, i, j] = sol.t_events[e][0]
        if T:
            VOUT[r, : sol.t.shape[0]] = sol.y.T
        TSTOP[r] = sol.t_events[-1][0] if (np.isfinite(b_stop) and len(sol.t_events[-1])) else sol.t[-1] if sol.t.size else 0.0
        VSTOP[r] = sol.y_events[-1][0] if (np.isfinite(b_stop) and len(sol.t_events[-1])) else (sol.y[:, -1] if sol.t.size else y0)
        STATUS[r] = 0 if sol.status == 1 else (1 if sol.status == 0 else 3)
        STEPS[r] = sol.nfev
    return FlowResult(EV, VOUT, TSTOP, VSTOP, STATUS, STEPS, "reference")
