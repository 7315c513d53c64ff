"""The algorithm of Theorem 6.4 / C.11 run at small sizes (seed 004, App. C.2.2, lines 4195-4466).

Network (lines 4195-4225): f(x) = sum_{i < r} u_i relu(<w_i, x> + b_i) + beta with the over-sparse
symmetric initialisation: for the r/2 free neurons, w_i in {0, 1}^n uniform over the s-subsets of
[n] (:func:`kernels.training.pareto_init.row_supports`), b_i uniform over the bias values
beta_j = (-k + 2j + 1/16)/(2k), u_i uniform in {±1}; neuron i + r/2 copies w_i, b_i and has
u_{i+r/2} = -u_i; beta = 0.  The bias set is j = 0..k/2-1 (the printed j = 1..k/2-1 is empty for
k = 2 and cannot represent the parity: claim thesis_ch6.lemma_C.6.readout).

Step 1 (proof of Lemma C.6 (3), lines 4290-4330): one gradient step of the sample hinge loss L_S on the
first-layer weights only, weight decay lambda = 1 and step eta = 1/(2k |C_{k,s}|); biases, u and beta
are not moved.  With lambda = 1 the new weights are w_i^(1) = -eta grad_{w_i} L_S(f_0).  At the
symmetric initialisation f_0 = 0, the hinge subgradient is -y, and

    w_i^(1) = eta u_i (1/m) sum_{(x, y) in S} y 1[<w_i, x> + b_i > 0] x,      w_{i+r/2}^(1) = -w_i^(1).

:func:`one_step_weights` evaluates this formula with the general subgradient 1[y f_0(x) < 1] so that
nothing relies on f_0 = 0 being assumed; ``weight_decay`` and ``eta`` are arguments so that variants
can be run.

Step 2 (Lemma C.9, lines 4378-4424): the readout (u, beta) is trained on the fixed features
phi^(1)(x) = (1, relu(<w_i^(1), x> + b_i))_i by minimising the convex objective
L(w) = L_S(h_{phi, w}) + (lambda/2) ||w||^2 (lambda = eps/B^2 in the proof).  GD with the Shamir-Zhang
steps approaches its minimiser; :func:`readout_minimiser` computes the minimiser itself by dual
coordinate ascent (Hsieh et al. 2008: maximise sum alpha - ||sum alpha_i y_i phi_i||^2/2 over
0 <= alpha_i <= 1/(lambda m), w = sum alpha_i y_i phi_i), deterministic cyclic order, and returns
the duality gap as its certificate.  All-zero feature columns (dead neurons) have minimiser weight 0
and are dropped before the solve.

Population-step prediction (k = 2, Lemmas C.2-C.4): replacing L_S by L_D in step 1 gives the features
psi of Lemma C.6: a good neuron (S inside supp w) has w^(1) = ±eta (C on S, c on supp w \\ S), a bad one
has ||w^(1)||_1 <= 1/(2k) and is dead (b <= -15/(16k)).  For k = 2 every feature vanishes where
s_x = x_S1 + x_S2 = 0 (label -1), so the best readout errs exactly on U = P_x[s_x = ±2 and no good
copy is active at x]; over the initialisation, with p = p_good (Lemma C.2) and a(x) = P[the matching
copy of a good neuron is active at x] (hypergeometric in the number of -1 coordinates of x off S),

    E[U_r] = sum_{t = ±2} P[s_x = t] E_x[(1 - p a(x))^{r/2} | s_x = t]        (:func:`expected_uncovered`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numba
import numpy as np

from .. import _checks
from .oversparse import C_ks, c_ks, p_good_oversparse
from ..training.pareto_init import row_supports

__all__ = [
    "OneStepInit",
    "ReadoutFit",
    "bias_values",
    "expected_uncovered",
    "hidden_features",
    "one_step_weights",
    "oversparse_init",
    "readout_minimiser",
    "readout_minimiser_ref",
    "step_size",
    "truncation_success_counts",
]

_MAX_N = 64


def bias_values(k: int) -> list[Fraction]:
    """beta_j = (-k + 2j + 1/16)/(2k) for j = 0..k/2-1 (the corrected bias set, k even)."""
    k = _checks.require_int("k", k, min_value=2, max_value=40)
    if k % 2:
        raise ValueError(f"argument 'k' must be an even integer in [2, 40], not {k}")
    return [Fraction(-k + 2 * j, 2 * k) + Fraction(1, 32 * k) for j in range(k // 2)]


def step_size(k: int, s: int) -> Fraction:
    """eta = 1/(2k |C_{k,s}|), the first-layer step of the proof of Lemma C.6 (exact)."""
    return 1 / (2 * _checks.require_int("k", k, min_value=2, max_value=40) * abs(C_ks(k, s)))


@dataclass(frozen=True)
class OneStepInit:
    """Free half of the symmetric initialisation: supports (r/2, s), 0/1 rows W0 (r/2, n), biases, signs."""

    supports: np.ndarray
    W0: np.ndarray
    b: np.ndarray
    u: np.ndarray


def oversparse_init(n: int, k: int, s: int, r: int, seed: int) -> OneStepInit:
    """The over-sparse symmetric initialisation of lines 4195-4225 (module docstring), free half only."""
    n = _checks.require_int("n", n, min_value=2, max_value=_MAX_N)
    k = _checks.require_int("k", k, min_value=2, max_value=n)
    s = _checks.require_int("s", s, min_value=k, max_value=n)
    r = _checks.require_int("r", r, min_value=2, max_value=200_000)
    if r % 2:
        raise ValueError(f"argument 'r' must be an even integer in [2, 200000], not {r}")
    seed = _checks.require_int("seed", seed, min_value=0, max_value=2**63 - 1)
    betas = np.array([float(v) for v in bias_values(k)])
    half = r // 2
    supp = row_supports(n, half, s, seed)
    W0 = np.zeros((half, n))
    W0[np.arange(half)[:, None], supp] = 1.0
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0xB1A5]))
    b = betas[rng.integers(0, betas.size, size=half)]
    u = rng.choice(np.array([-1.0, 1.0]), size=half)
    return OneStepInit(supp, W0, b, u)


def one_step_weights(init: OneStepInit, X, y, eta: float, *, weight_decay: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(W1 (r, n), b (r,)) after the first-layer step (1 - lambda) w - eta grad_w L_S at the symmetric init.

    Rows 0..r/2-1 are the free neurons, rows r/2.. their mirrored copies (u negated).
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    half, n = init.W0.shape
    if X.ndim != 2 or X.shape[1] != n or X.shape[0] < 1:
        raise ValueError(f"argument 'X' must have shape (m, {n}) with m >= 1, not {X.shape}")
    _checks.require_finite("X", X)
    _checks.require_finite("y", y)
    _checks.require_finite("eta", eta)
    if y.shape != (X.shape[0],):
        raise ValueError(f"argument 'y' must have shape ({X.shape[0]},), not {y.shape}")
    if not (math.isfinite(eta) and eta > 0):
        raise ValueError(f"argument 'eta' must be a finite positive real number, not {eta!r}")
    if not (0.0 <= weight_decay <= 1.0):
        raise ValueError(f"argument 'weight_decay' must be in [0, 1], not {weight_decay!r}")
    _checks.require_memory("X", X.shape, 8 * X.shape[0] * half * 3, what="the first-layer activations")
    act = (X @ init.W0.T + init.b) > 0  # (m, half); identical for a neuron and its copy
    h = np.where(act, X @ init.W0.T + init.b, 0.0)
    f0 = h @ init.u + h @ (-init.u)  # exactly 0 by the symmetry, evaluated anyway
    dl = -y * (y * f0 < 1)  # hinge subgradient in f
    G = (act * dl[:, None]).T @ X / X.shape[0]  # (half, n): (1/m) sum dl 1[act] x
    grad_free = init.u[:, None] * G
    W_free = (1 - weight_decay) * init.W0 - eta * grad_free
    W_copy = (1 - weight_decay) * init.W0 + eta * grad_free
    return np.vstack([W_free, W_copy]), np.concatenate([init.b, init.b])


def hidden_features(X, W1, b) -> np.ndarray:
    """relu(X W1^T + b), shape (m, r)."""
    X = np.asarray(X, dtype=np.float64)
    for name, a in (("X", X), ("W1", W1), ("b", b)):
        _checks.require_finite(name, a)
    return np.maximum(X @ np.asarray(W1).T + np.asarray(b), 0.0)


@dataclass(frozen=True)
class ReadoutFit:
    """Minimiser w (constant feature first, then the kept columns), kept column indices, objective, gap."""

    w: np.ndarray
    columns: np.ndarray
    primal: float
    gap: float
    epochs: int

    def predict(self, features) -> np.ndarray:
        F = np.asarray(features, dtype=np.float64)[:, self.columns]
        return self.w[0] + F @ self.w[1:]


def _objective(F1, y, w, lam):
    return float(np.mean(np.maximum(0.0, 1 - y * (F1 @ w))) + 0.5 * lam * (w @ w))


@numba.njit(cache=True)
def _dcd_epochs(F1, y, Cbox, alpha, w, epochs):  # pragma: no cover - compiled
    m, d = F1.shape
    # the squared row norms do not change over the epochs: computed once per call, in the same order (same bits)
    qs = np.empty(m)
    for i in range(m):
        q = 0.0
        for j in range(d):
            q += F1[i, j] * F1[i, j]
        qs[i] = q
    for _ in range(epochs):
        for i in range(m):
            g = 0.0
            for j in range(d):
                g += F1[i, j] * w[j]
            g = y[i] * g - 1.0
            a = min(max(alpha[i] - g / qs[i], 0.0), Cbox)
            da = a - alpha[i]
            if da != 0.0:
                alpha[i] = a
                for j in range(d):
                    w[j] += da * y[i] * F1[i, j]


def _dcd_epochs_ref(F1, y, Cbox, alpha, w, epochs):
    """Plain-Python twin of the compiled epoch loop (the oracle of the tests)."""
    m, d = F1.shape
    for _ in range(epochs):
        for i in range(m):
            q = sum(float(F1[i, j]) ** 2 for j in range(d))
            g = y[i] * sum(float(F1[i, j]) * w[j] for j in range(d)) - 1.0
            a = min(max(alpha[i] - g / q, 0.0), Cbox)
            da = a - alpha[i]
            if da != 0.0:
                alpha[i] = a
                for j in range(d):
                    w[j] += da * y[i] * F1[i, j]


def _readout(features, y, lam, gap_tol, max_epochs, epochs_fn) -> ReadoutFit:
    F = np.asarray(features, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if F.ndim != 2 or F.shape[0] < 1:
        raise ValueError(f"argument 'features' must be a 2-D array (m, r) with m >= 1, not shape {F.shape}")
    _checks.require_finite("features", F)
    if y.shape != (F.shape[0],) or not np.all(np.abs(y) == 1):
        raise ValueError(f"argument 'y' must be a ±1 vector of length {F.shape[0]}")
    if not (math.isfinite(lam) and lam > 0):
        raise ValueError(f"argument 'lam' must be a finite positive real number, not {lam!r}")
    if not (gap_tol > 0):
        raise ValueError(f"argument 'gap_tol' must be positive, not {gap_tol!r}")
    max_epochs = _checks.require_int("max_epochs", max_epochs, min_value=1, max_value=10**6)
    cols = np.flatnonzero(np.any(F != 0, axis=0))
    F1 = np.hstack([np.ones((F.shape[0], 1)), F[:, cols]])
    m = F.shape[0]
    # (1/m) sum hinge + lam/2 |w|^2 = lam m [ (1/(lam m)) sum hinge + |w|^2/2 ] / m: box 1/(lam m)
    Cbox = 1.0 / (lam * m)
    alpha = np.zeros(m)
    w = np.zeros(F1.shape[1])
    epochs = 0
    primal, gap = _objective(F1, y, w, lam), math.inf
    while epochs < max_epochs:
        step = min(10, max_epochs - epochs)
        epochs_fn(F1, y, Cbox, alpha, w, step)
        epochs += step
        primal = _objective(F1, y, w, lam)
        dual = lam * (float(alpha.sum()) - 0.5 * float(w @ w))  # scaled back to the (1/m)-normalised objective
        gap = primal - dual
        if gap <= gap_tol:
            break
    return ReadoutFit(w.copy(), cols, primal, gap, epochs)


def readout_minimiser(features, y, lam: float, *, gap_tol: float = 1e-6, max_epochs: int = 2000) -> ReadoutFit:
    """argmin_w (1/m) sum hinge(y_i <(1, phi_i), w>) + (lam/2)|w|^2 by dual coordinate ascent (numba)."""
    return _readout(features, y, lam, gap_tol, max_epochs, _dcd_epochs)


def readout_minimiser_ref(features, y, lam: float, *, gap_tol: float = 1e-6, max_epochs: int = 2000) -> ReadoutFit:
    """Plain-Python twin of :func:`readout_minimiser` (same iteration, no compilation)."""
    return _readout(features, y, lam, gap_tol, max_epochs, _dcd_epochs_ref)


def expected_uncovered(n: int, s: int, r: int) -> float:
    """E[U_r] for k = 2 under the population step with eta = 1/(2k|C_{2,s}|) (module docstring).

    A good pair has the two orientations ±eta (C 1_S + c 1_{supp w \\ S}); at x with s_x = t in {2, -2}
    the matching one has pre-activation eta (|C| |t| + sign(C t) c Sigma) + beta_0 (the other is
    below -1/4 + beta_0 < 0), Sigma the sum of x over the s - 2 coordinates of supp w \\ S; Sigma = (s - 2) - 2J with J ~ Hypergeometric(n - 2, A, s - 2) where
    A ~ Binomial(n - 2, 1/2) counts the -1 coordinates of x off S.
    """
    n = _checks.require_int("n", n, min_value=4, max_value=10_000)
    s = _checks.require_int("s", s, min_value=3, max_value=n)
    r = _checks.require_int("r", r, min_value=2, max_value=10**9)
    k = 2
    C, c = C_ks(k, s), c_ks(k, s)
    eta = 1 / (2 * k * abs(C))
    beta0 = bias_values(k)[0]
    p = float(p_good_oversparse(n, k, s))
    sgn = 1 if C > 0 else -1
    N, d = n - k, s - k
    total = 0.0
    for t in (2, -2):
        sgn_t = sgn * (1 if t > 0 else -1)
        for A in range(N + 1):
            pA = comb(N, A) / 2**N
            a = 0.0
            for J in range(max(0, d - (N - A)), min(d, A) + 1):
                Sigma = d - 2 * J
                pre = eta * (abs(C) * abs(t) + sgn_t * c * Sigma) + beta0
                if pre > 0:
                    a += comb(A, J) * comb(N - A, d - J) / comb(N, d)
            total += 0.25 * pA * (1 - p * a) ** (r // 2)
    return total


def truncation_success_counts(n: int, k: int, s: int, ms, trials: int, gamma: float, seed: int) -> np.ndarray:
    """Theorem C.16's finite-sample step: how often the truncated SAMPLE gradient keeps exactly S \\ S'.

    Good under-sparse neuron: S = {0..k-1}, S' = {0..s-1}, integer weights of
    kernels.boolean.oversparse.undersparse_weights (M = 2(n - s) + 1 on S', 1 elsewhere: the eps-perturbed
    row), bias 0.  For each of ``trials`` independent sample streams (uniform x, y = chi_S(x)) and each m
    in ``ms`` (increasing; the first m samples of the stream), g_i = (1/m) sum y 1[<w, x> > 0] x_i; the
    trial succeeds at m iff {i : |g_i| > gamma} = S \\ S'.  Returns the success counts, shape (len(ms),).
    Randomness: numpy Generator of SeedSequence([seed, n, k, s]).
    """
    from .oversparse import undersparse_weights

    n = _checks.require_int("n", n, min_value=3, max_value=4096)
    k = _checks.require_int("k", k, min_value=1, max_value=n - 1)
    s = _checks.require_int("s", s, min_value=0, max_value=k - 1)
    trials = _checks.require_int("trials", trials, min_value=1, max_value=100_000)
    seed = _checks.require_int("seed", seed, min_value=0, max_value=2**63 - 1)
    ms = [_checks.require_int("ms[i]", m, min_value=1, max_value=10**7) for m in ms]
    if not ms or any(a >= b for a, b in itertools.pairwise(ms)):
        raise ValueError(f"argument 'ms' must be a non-empty strictly increasing list of sample sizes, not {ms}")
    if not (math.isfinite(gamma) and gamma > 0):
        raise ValueError(f"argument 'gamma' must be a finite positive real number, not {gamma!r}")
    _checks.require_memory("ms", ms[-1], 13 * ms[-1] * n, what="one sample stream (int8 and float64 copies and their temporaries)")
    w = undersparse_weights(n, list(range(s))).astype(np.int64)
    target = np.zeros(n, dtype=bool)
    target[s:k] = True
    rng = np.random.default_rng(np.random.SeedSequence([seed, n, k, s]))
    counts = np.zeros(len(ms), dtype=np.int64)
    blocks = list(itertools.pairwise([0, *ms]))  # sample block j is rows ms[j-1] .. ms[j]-1 of the stream
    wf = w.astype(np.float64)
    for _ in range(trials):
        # the ±1 draws straight to float64: <w, x> (integers of modulus <= sum |w| < 2^53) and the products of
        # k signs are exact in float64, so the signs and coefficients are those of the integer computation (and
        # np.where writes +0.0 where the neuron is off, as the integer product did)
        Xf = (1 - 2 * rng.integers(0, 2, size=(ms[-1], n), dtype=np.int8)).astype(np.float64)
        coef = np.where(Xf @ wf > 0, np.prod(Xf[:, :k], axis=1), 0.0)
        # (len(ms), n) partial sums over the first m rows: the block sums coef[a:b] @ X[a:b], accumulated.  Every
        # partial sum is an integer of modulus <= ms[-1] <= 1e7 < 2^53, so the float64 sums are exact: the values of
        # the integer running sum at rows m - 1, without writing the running sum of every row
        G = np.cumsum(np.stack([coef[a:b] @ Xf[a:b] for a, b in blocks]), axis=0)
        kept = np.abs(G) > gamma * np.array(ms)[:, None]
        counts += np.all(kept == target, axis=1)
    return counts
