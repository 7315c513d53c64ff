"""In-context learning of Markov chains (ICL-MC; thesis ch. 8 and App. E, seed 004 lines 1667-1913, 5610-6058).

Data model: a transition matrix P on S = [k] with i.i.d. rows P_i ~ Dir(alpha); x_1 ~ pi(P) (the
stationary law); x_{s+1} ~ P_{x_s,:}.  The model sees x_1..x_t and predicts x_{t+1}.

This module holds the reusable pieces:

* ``stationary``, ``sample_transition_matrices``, ``sample_chains``: the sampler (Dirichlet rows, the
  i.i.d.-tokens prior with all rows equal, the doubly-stochastic prior (uniform on the Birkhoff polytope; a = b
  for k = 2), and n-gram chains).
* strategies (all add-one): ``strategy_predictions`` (uniform, unigram, bigram, stationary oracle) and
  ``last_token_kl`` (the test metric E KL(P_{x_t,:} || q)).
* ``t_tensor`` (catalog kernel K1): the linear-regime population-loss tensor
  T_{j,m,l}(P) = (1/t) sum_{p=1}^t sum_{t'=j}^p sum_i pi_l (P^{j-1})_{li} (P^{p-t'})_{im} (P_{mi} - 1/k),
  so that E_x[L | P] = ((k-1)/k) Delta - sum_{j,m,l} v_j W_{ml} T_{j,m,l}.  Fast form
  T_j = (1/t) [(P - J/k) o S_j^T] [diag(pi) P^{j-1}]^T with S_j = sum_{n=0}^{t-j} (t-j+1-n) P^n; it works
  batched over P, in float64 or (object arrays) in exact Fractions.
* ``linear_coefficients`` / ``enumerate_expectation``: the independent route: the coefficient of
  v_j W_{ml} in -L for one sequence, and the exact expectation over all k^{t+1} sequences.
* ``k2_nodes`` (K2): quadrature nodes/weights for (a, b) ~ U[0,1]^2 through 1-a = s q, 1-b = s(1-q)
  (Jacobian s), which removes the corner a = b = 1 where pi is discontinuous; ``diag_nodes`` for
  a = b ~ U[lo, hi] (pi = (1/2, 1/2), the integrand is a polynomial and Gauss-Legendre is exact).
* ``k2_run_classes`` (K3): the O(t^2) classes (x_1, runs, count) of binary sequences with their
  multiplicity and transition counts; ``k2_exact_losses`` combines K2 + K3 into exact k = 2 strategy
  and Bayes losses.
* ``minimal_model_forward`` (K4, eq. 8.8): f = tril(E W (M E)^T) E, M_{ps} = v_{p-s+1}; the plain double
  sum ``minimal_model_forward_ref`` is its reference.
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

import numpy as np

from kernels._checks import require_finite, require_int, require_memory

from . import _markov_icl_cpu

__all__ = [
    "DOUBLY_K_MAX",
    "STRATEGIES",
    "complete_doubly",
    "doubly_accept",
    "diag_nodes",
    "enumerate_expectation",
    "k2_exact_losses",
    "k2_nodes",
    "k2_run_classes",
    "last_token_kl",
    "linear_coefficients",
    "minimal_model_forward",
    "minimal_model_forward_ref",
    "random_rational_chain",
    "sample_chains",
    "sample_ngram_chains",
    "sample_transition_matrices",
    "stationary",
    "stationary_exact",
    "strategy_predictions",
    "t_tensor",
]

STRATEGIES = ("uniform", "unigram", "bigram", "stationary")
PRIORS = ("dirichlet", "iid", "doubly")


def _require_positive(name: str, value) -> float:
    v = float(value)
    if not (v > 0 and math.isfinite(v)):
        raise ValueError(f"argument '{name}' must be a finite real number > 0, not {value!r}")
    return v


def _require_stochastic(P: np.ndarray) -> np.ndarray:
    P = np.asarray(P, dtype=float)
    if P.ndim < 2 or P.shape[-1] != P.shape[-2] or P.shape[-1] < 2:
        raise ValueError(f"argument 'P' must have shape (..., k, k) with k >= 2, not {P.shape}")
    if np.any(P < 0) or not np.allclose(P.sum(-1), 1.0, atol=1e-9):
        raise ValueError("argument 'P' must be row-stochastic (entries >= 0, rows summing to 1)")
    return P


# ---------------------------------------------------------------------------------------------
# sampler
# ---------------------------------------------------------------------------------------------


def stationary(P: np.ndarray) -> np.ndarray:
    """Stationary law pi (pi P = pi, sum pi = 1) of each (k, k) matrix in a batch (linear solve)."""
    P = _require_stochastic(P)
    k = P.shape[-1]

    def solve():
        A = np.swapaxes(P, -1, -2) - np.eye(k)
        A = A.copy()
        A[..., -1, :] = 1.0
        rhs = np.zeros(P.shape[:-1])
        rhs[..., -1] = 1.0
        return np.linalg.solve(A, rhs[..., None])[..., 0]

    if k < 32 or P.ndim == 2:
        return solve()
    # large k: power iteration without BLAS (batched LAPACK solves of big matrices oversubscribe threads
    # on small machines); entries > 0 make the chain primitive, the residual is checked, else solve.
    # pi P by _markov_icl_cpu.vec_mat: np.einsum("ni,nij->nj") bit for bit, without its iterator overhead
    Pf = P.reshape(-1, k, k).astype(np.float64, copy=False)
    pi = np.full(Pf.shape[:-1], 1.0 / k)
    for _ in range(2000):
        new = _markov_icl_cpu.vec_mat(pi, Pf)
        done = np.abs(new - pi).max() <= 1e-15
        pi = new
        if done:
            break
    if np.abs(_markov_icl_cpu.vec_mat(pi, Pf) - pi).max() > 1e-13:
        return solve()
    pi = pi.reshape(P.shape[:-1])
    return pi / pi.sum(-1, keepdims=True)


def stationary_exact(P) -> list[Fraction]:
    """Exact stationary law of a rational transition matrix (list of lists of Fractions), by Gaussian
    elimination on (P^T - I) pi = 0 with the last equation replaced by sum pi = 1."""
    k = len(P)
    A = [[Fraction(P[j][i]) - (1 if i == j else 0) for j in range(k)] + [Fraction(0)] for i in range(k)]
    A[-1] = [Fraction(1)] * k + [Fraction(1)]
    for col in range(k):
        piv = next((r for r in range(col, k) if A[r][col] != 0), None)
        if piv is None:
            raise ValueError("argument 'P' must have a unique stationary law (irreducible chain)")
        A[col], A[piv] = A[piv], A[col]
        for r in range(k):
            if r != col and A[r][col] != 0:
                f = A[r][col] / A[col][col]
                A[r] = [x - f * y for x, y in zip(A[r], A[col])]
    return [A[i][k] / A[i][i] for i in range(k)]


def random_rational_chain(rng: np.random.Generator, k: int, denominator: int = 9) -> list[list[Fraction]]:
    """A random rational transition matrix with entries > 0 (rows of integers 1..denominator, normalised)."""
    k = require_int("k", k, min_value=2, max_value=16)
    rows = []
    for _ in range(k):
        w = [int(v) for v in rng.integers(1, denominator + 1, size=k)]
        rows.append([Fraction(v, sum(w)) for v in w])
    return rows


def sample_transition_matrices(rng: np.random.Generator, k: int, n: int, *, alpha: float = 1.0, prior: str = "dirichlet") -> np.ndarray:
    """n transition matrices (n, k, k).  prior: 'dirichlet' (i.i.d. rows ~ Dir(alpha)), 'iid' (all rows
    equal to one r ~ Dir(alpha): i.i.d. tokens), 'doubly' (uniformly random doubly-stochastic
    matrices, 2 <= k <= DOUBLY_K_MAX: for k = 2 a = b ~ U[0,1]; for k >= 3 rejection sampling, ``_doubly_stochastic``)."""
    k = require_int("k", k, min_value=2, max_value=4096)
    n = require_int("n", n, min_value=1, max_value=10**8)
    alpha = _require_positive("alpha", alpha)
    if prior not in PRIORS:
        raise ValueError(f"argument 'prior' must be one of {PRIORS}, not {prior!r}")
    require_memory("n", n, 8 * n * k * k, what="transition matrices")
    if prior == "dirichlet":
        return rng.dirichlet(np.full(k, alpha), size=(n, k))
    if prior == "iid":
        r = rng.dirichlet(np.full(k, alpha), size=n)
        return np.repeat(r[:, None, :], k, axis=1)
    if k > DOUBLY_K_MAX:
        raise ValueError(f"argument 'k' must be <= {DOUBLY_K_MAX} for prior 'doubly', not {k}")
    if k == 2:
        a = rng.random(n)
        return np.stack([np.stack([a, 1 - a], -1), np.stack([1 - a, a], -1)], 1)
    return _doubly_stochastic(rng, k, n)


#: the largest k of the 'doubly' prior (the rejection sampler accepts ~50% of the proposals at k = 3, ~21% at k = 4, ~7.5% at k = 5)
DOUBLY_K_MAX = 5


def complete_doubly(B: np.ndarray) -> np.ndarray:
    """The k x k matrices (m, k, k) whose top-left (k-1) x (k-1) blocks are B (m, k-1, k-1) and whose rows and columns
    sum to 1 (last column 1 - row sums, last row 1 - column sums, corner sum(B) - (k - 2))."""
    m, j = B.shape[0], B.shape[1]
    P = np.empty((m, j + 1, j + 1))
    P[:, :j, :j] = B
    P[:, :j, j] = 1.0 - B.sum(2)
    P[:, j, :j] = 1.0 - B.sum(1)
    P[:, j, j] = B.sum((1, 2)) - (j - 1)
    return P


def doubly_accept(B: np.ndarray) -> np.ndarray:
    """Whether the completion of each block B (m, k-1, k-1) with rows in the corner simplex {x >= 0, sum x <= 1} is
    doubly stochastic: every column sum of B <= 1 and sum(B) >= k - 2."""
    j = B.shape[1]
    return (B.sum(1) <= 1.0).all(1) & (B.sum((1, 2)) >= j - 1)


def _doubly_stochastic(rng: np.random.Generator, k: int, n: int) -> np.ndarray:
    """n doubly-stochastic k x k matrices, uniform on the Birkhoff polytope: a transition matrix of it is fixed by its
    (k-1) x (k-1) top-left block B, and the map is affine, so the uniform law on the polytope is the uniform law on
    the blocks whose completion is nonnegative.  Proposal: the rows of B i.i.d. uniform on the corner simplex
    {x >= 0, sum x <= 1} (the first k - 1 coordinates of Dir(1, ..., 1) of size k), a product set containing every
    admissible block, with constant density; accept iff ``doubly_accept`` (rejection sampling, exact)."""
    out, got = np.empty((n, k, k)), 0
    while got < n:
        m = max(64, 2 * (n - got) * (8 if k <= 4 else 20))
        B = rng.dirichlet(np.ones(k), size=(m, k - 1))[..., : k - 1]
        B = B[doubly_accept(B)][: n - got]
        out[got:got + len(B)] = complete_doubly(B)
        got += len(B)
    return out


def _categorical(rng: np.random.Generator, probs: np.ndarray) -> np.ndarray:
    u = rng.random(probs.shape[0])
    c = np.cumsum(probs, axis=-1)
    return np.minimum((u[:, None] >= c).sum(-1), probs.shape[-1] - 1)


def sample_chains(rng: np.random.Generator, P: np.ndarray, length: int, *, first: str = "stationary",
                  pi: np.ndarray | None = None) -> np.ndarray:
    """Sequences x (n, length) of the chains P (n, k, k); x_1 ~ pi(P) ('stationary') or U[k] ('uniform').  pi: the
    caller's stationary(P) (n, k), if it has it (to save the solve); it must be stationary(P) itself."""
    P = _require_stochastic(P)
    length = require_int("length", length, min_value=1, max_value=100_000)
    if first not in ("stationary", "uniform"):
        raise ValueError(f"argument 'first' must be 'stationary' or 'uniform', not {first!r}")
    n, k = P.shape[0], P.shape[-1]
    require_memory("length", length, 8 * n * length, what="sequences")
    x = np.empty((n, length), dtype=np.int64)
    if first == "stationary":
        p0 = stationary(P) if pi is None else np.asarray(pi, dtype=float)
        if p0.shape != (n, k):
            raise ValueError(f"argument 'pi' must have shape {(n, k)}, not {p0.shape}")
    else:
        p0 = np.full((n, k), 1.0 / k)
    x[:, 0] = _categorical(rng, p0)
    cum = np.cumsum(P, axis=-1)
    # step s: x_s = min(#{c : u_s >= cum[x_{s-1}, c]}, k - 1) with u_s = rng.random(n); the (length - 1) draws of n
    # at once are the same stream, the steps run in _markov_icl_cpu.chain_steps (comparisons only)
    _markov_icl_cpu.chain_steps(x, cum, rng.random((length - 1, n)))
    return x


def sample_ngram_chains(rng: np.random.Generator, k: int, order: int, n: int, length: int) -> tuple[np.ndarray, np.ndarray]:
    """n-gram chains (thesis l.1730): every (order-1)-tuple context has its own Dir(1) next-token law.
    The first order-1 tokens follow the stationary law of the induced chain on tuples (the thesis
    leaves this open; the public code uses the stationary law).  Returns (Q, x) with Q of shape
    (n, k^(order-1), k) indexed by the context number sum_r x_{s-order+1+r} k^(order-2-r)."""
    k = require_int("k", k, min_value=2, max_value=8)
    order = require_int("order", order, min_value=2, max_value=4)
    n = require_int("n", n, min_value=1, max_value=10**7)
    length = require_int("length", length, min_value=order, max_value=10_000)
    C = k ** (order - 1)
    Q = rng.dirichlet(np.ones(k), size=(n, C))
    # chain on contexts: c -> (c * k + y) mod C with probability Q[c, y]
    T = np.zeros((n, C, C))
    for c in range(C):
        for y in range(k):
            T[:, c, (c * k + y) % C] += Q[:, c, y]
    ctx = _categorical(rng, stationary(T))
    x = np.empty((n, length), dtype=np.int64)
    for r in range(order - 1):
        x[:, r] = (ctx // k ** (order - 2 - r)) % k
    idx = np.arange(n)
    for s in range(order - 1, length):
        y = _categorical(rng, Q[idx, ctx])
        x[:, s] = y
        ctx = (ctx * k + y) % C
    return Q, x


# ---------------------------------------------------------------------------------------------
# strategies and the test metric
# ---------------------------------------------------------------------------------------------


def strategy_predictions(x: np.ndarray, k: int, strategy: str, P: np.ndarray | None = None, *, order: int = 2) -> np.ndarray:
    """Prediction q (n, k) of x_{t+1} from x (n, t) by an add-one strategy.

    uniform: 1/k; unigram: (n_j + 1)/(t + k); bigram (order 2) / n-gram (order n): (c_{ctx, j} + 1)/(N_ctx + k)
    with ctx the last order-1 tokens; stationary: pi(P) (needs P)."""
    x = np.asarray(x)
    k = require_int("k", k, min_value=2, max_value=64)
    if x.ndim != 2 or x.shape[1] < 1:
        raise ValueError(f"argument 'x' must have shape (n, t) with t >= 1, not {x.shape}")
    if strategy not in STRATEGIES + ("ngram",):
        raise ValueError(f"argument 'strategy' must be one of {STRATEGIES + ('ngram',)}, not {strategy!r}")
    n, t = x.shape
    if strategy == "uniform":
        return np.full((n, k), 1.0 / k)
    if strategy == "stationary":
        if P is None:
            raise ValueError("argument 'P' is required for strategy 'stationary'")
        return stationary(P)
    if strategy == "unigram" or (strategy == "ngram" and order == 1):
        counts = np.stack([(x == j).sum(1) for j in range(k)], 1)
        return (counts + 1.0) / (t + k)
    o = 2 if strategy == "bigram" else require_int("order", order, min_value=1, max_value=6)
    L = o - 1
    if t <= L:
        return np.full((n, k), 1.0 / k)
    match = np.ones((n, t - L), dtype=bool)
    for r in range(L):  # window positions s = L..t-1 (0-based target) with context x[s-L..s-1] == last context
        match &= x[:, r : t - L + r] == x[:, t - L + r][:, None]
    nxt = x[:, L:]
    counts = np.stack([(match & (nxt == j)).sum(1) for j in range(k)], 1)
    return (counts + 1.0) / (counts.sum(1, keepdims=True) + k)


def last_token_kl(Prow: np.ndarray, q: np.ndarray) -> np.ndarray:
    """KL(Prow || q) per row (natural log); Prow are the true next-token laws P_{x_t,:}."""
    Prow = np.asarray(Prow, dtype=float)
    q = np.asarray(q, dtype=float)
    require_finite("Prow", Prow, why="KL is undefined")
    require_finite("q", q, why="KL is undefined")
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(Prow > 0, Prow * (np.log(Prow) - np.log(q)), 0.0)
    return terms.sum(-1)


# ---------------------------------------------------------------------------------------------
# K1: the T-tensor, and the enumeration route
# ---------------------------------------------------------------------------------------------


def _matmul(A, B):
    return A @ B if A.dtype != object else np.einsum("...ij,...jk->...ik", A, B)


def t_tensor(P: np.ndarray, t: int, pi: np.ndarray | None = None) -> np.ndarray:
    """T_{j,m,l}(P) for j = 1..t as an array (..., t, k, k) (index j-1, m, l).

    P may be a float array (..., k, k) or an object array of Fractions (exact).  pi defaults to the
    stationary law (floats) and must be given for exact input."""
    t = require_int("t", t, min_value=1, max_value=100_000)
    exact = np.asarray(P).dtype == object
    P = np.asarray(P) if exact else _require_stochastic(P)
    k = P.shape[-1]
    batch = P.shape[:-2]
    if not exact:
        require_memory("t", t, 8 * 4 * int(np.prod(batch, dtype=np.int64)) * t * k * k, what="T-tensor work arrays")
    if pi is None:
        if exact:
            raise ValueError("argument 'pi' is required for an exact (Fraction) P")
        pi = stationary(P)
    one = Fraction(1) if exact else 1.0
    if exact:
        eye = np.array([[Fraction(int(i == j)) for j in range(k)] for i in range(k)], dtype=object)
    else:
        eye = np.eye(k)
    eye = np.broadcast_to(eye, batch + (k, k))
    powers = [np.array(eye)]
    for _ in range(t - 1):
        powers.append(_matmul(powers[-1], P))
    pw = np.stack(powers, axis=-3)  # (..., t, k, k): P^0..P^{t-1}
    S = np.cumsum(np.cumsum(pw, axis=-3), axis=-3)  # S[N] = sum_{n<=N} (N+1-n) P^n
    Sj = S[..., ::-1, :, :]  # index j-1 -> S[t-j]
    Q = P - one / k
    X = Q[..., None, :, :] * np.swapaxes(Sj, -1, -2)  # (..., t, m, i)
    R = pw * np.asarray(pi)[..., None, :, None]  # diag(pi) P^{j-1}: R[l, i] = pi_l (P^{j-1})_{li}
    T = _matmul(X, np.swapaxes(R, -1, -2))
    return T / t if not exact else T * Fraction(1, t)


def linear_coefficients(x, k: int) -> np.ndarray:
    """For one sequence x_1..x_{t+1}: the coefficient C_{j,m,l} of v_j W_{ml} in -L, where
    L = (1/t) sum_p [(1/k) sum_i f_{p,i} - f_{p,x_{p+1}}] is the linear-regime margin loss without its
    constant, and f is the minimal model (8.8).  Exact (Fractions)."""
    x = [int(v) for v in x]
    t = len(x) - 1
    C = np.full((t, k, k), Fraction(0), dtype=object)
    for p in range(1, t + 1):
        m = x[p - 1]
        y = x[p]
        for tp in range(1, p + 1):
            w = (Fraction(1) if x[tp - 1] == y else Fraction(0)) - Fraction(1, k)
            for s in range(1, tp + 1):
                C[tp - s, m, x[s - 1]] += w
    return C * Fraction(1, t)


def enumerate_expectation(P, pi, t: int, fn):
    """Exact E_x[fn(x)] over all k^{t+1} sequences of the chain (P, pi) (entries may be Fractions)."""
    k = len(pi)
    t = require_int("t", t, min_value=1, max_value=24)
    if k ** (t + 1) > 2_000_000:
        raise ValueError(f"argument 't' = {t} gives k^(t+1) = {k ** (t + 1)} sequences; allowed at most 2e6")
    total = None
    for x in itertools.product(range(k), repeat=t + 1):
        w = pi[x[0]]
        for a, b in itertools.pairwise(x):
            w = w * P[a][b]
        term = fn(x) * w
        total = term if total is None else total + term
    return total


# ---------------------------------------------------------------------------------------------
# K2: quadrature over (a, b) ~ U[0,1]^2 and a = b
# ---------------------------------------------------------------------------------------------


def k2_nodes(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Nodes (a, b) and weights w (summing to 1) for E over (a, b) ~ U[0,1]^2.

    Substitution 1-a = s q, 1-b = s(1-q), da db = s ds dq.  Region 1: s, q in [0, 1]; region 2:
    s in [1, 2], q in [1-1/s, 1/s].  In both regions pi = (1-q, q), so an integrand that is a
    polynomial in (a, b, pi) is a polynomial in (s, q): with n >= (degree+1)/2 nodes per axis region 1
    is exact and region 2 (smooth, rational in s) converges geometrically.  Cached (read-only arrays): the
    claims ask for the same few n many times."""
    return _k2_nodes(require_int("n", n, min_value=2, max_value=2000))


@functools.lru_cache(maxsize=16)
def _k2_nodes(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    g, gw = np.polynomial.legendre.leggauss(n)
    u, uw = (g + 1) / 2, gw / 2
    s1, q1 = np.meshgrid(u, u, indexing="ij")
    w1 = np.outer(uw, uw) * s1
    s2 = 1 + u
    lo, hi = 1 - 1 / s2, 1 / s2
    q2 = lo[:, None] + (hi - lo)[:, None] * u[None, :]
    S2 = np.broadcast_to(s2[:, None], q2.shape)
    w2 = np.outer(uw, uw) * (hi - lo)[:, None] * S2
    s = np.concatenate([s1.ravel(), S2.ravel()])
    q = np.concatenate([q1.ravel(), q2.ravel()])
    w = np.concatenate([w1.ravel(), w2.ravel()])
    a = 1 - s * q
    b = 1 - s * (1 - q)
    out = (np.clip(a, 0.0, 1.0), np.clip(b, 0.0, 1.0), w)
    for arr in out:
        arr.setflags(write=False)
    return out


def diag_nodes(n: int, lo: float = 0.0, hi: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Legendre nodes/weights (summing to 1) for a = b ~ U[lo, hi]."""
    n = require_int("n", n, min_value=1, max_value=5000)
    if not (0.0 <= lo < hi <= 1.0):
        raise ValueError(f"arguments 'lo', 'hi' must satisfy 0 <= lo < hi <= 1, not ({lo!r}, {hi!r})")
    g, gw = np.polynomial.legendre.leggauss(n)
    return lo + (hi - lo) * (g + 1) / 2, gw / 2


def k2_matrices(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The k = 2 transition matrices [[a, 1-a], [1-b, b]] (App. E parametrisation)."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    return np.stack([np.stack([a, 1 - a], -1), np.stack([1 - b, b], -1)], -2)


# ---------------------------------------------------------------------------------------------
# K3: exact k = 2 enumeration by run structure
# ---------------------------------------------------------------------------------------------


def k2_run_classes(t: int) -> dict[str, np.ndarray]:
    """Classes of binary sequences x_1..x_t by (x_1, number of runs R, count N_s of the state x_1).

    Returns arrays over classes: x1, xt, mult (multiplicity C(N_s-1, r_s-1) C(N_o-1, r_o-1)),
    n0, n1 (unigram counts of states 0 and 1) and c (transition counts c_{ij}, shape (classes, 2, 2))."""
    t = require_int("t", t, min_value=1, max_value=5000)
    rows = []
    for x1 in (0, 1):
        for R in range(1, t + 1):
            rs, ro = (R + 1) // 2, R // 2
            for Ns in range(rs, t + 1):
                No = t - Ns
                if (ro == 0 and No != 0) or (ro > 0 and No < ro):
                    continue
                mult = math.comb(Ns - 1, rs - 1) * (math.comb(No - 1, ro - 1) if ro > 0 else 1)
                css, coo, cso, cos_ = Ns - rs, No - ro, ro, rs - 1
                xt = x1 if R % 2 == 1 else 1 - x1
                c = np.zeros((2, 2), dtype=np.int64)
                c[x1, x1], c[1 - x1, 1 - x1], c[x1, 1 - x1], c[1 - x1, x1] = css, coo, cso, cos_
                n = [0, 0]
                n[x1], n[1 - x1] = Ns, No
                rows.append((x1, xt, mult, n[0], n[1], c))
    return {
        "x1": np.array([r[0] for r in rows]),
        "xt": np.array([r[1] for r in rows]),
        "logmult": np.array([math.lgamma(1) + math.log(r[2]) for r in rows]),
        "mult": [r[2] for r in rows],
        "n0": np.array([r[3] for r in rows]),
        "n1": np.array([r[4] for r in rows]),
        "c": np.stack([r[5] for r in rows]),
    }


def k2_exact_losses(t: int, nodes: int | None = None) -> dict[str, float]:
    """Exact (quadrature-exact in region 1 of K2) last-token KL losses for k = 2, (a, b) ~ U[0,1]^2,
    x_1 ~ pi: 'uniform', 'unigram', 'bigram' (add-one), 'bayes' (posterior predictive including the
    pi_{x_1} factor), 'stationary' (oracle q = pi) and 'total' (total probability, should be 1)."""
    t = require_int("t", t, min_value=1, max_value=400)
    nodes = max(t // 2 + 12, 48) if nodes is None else require_int("nodes", nodes, min_value=4, max_value=400)
    a, b, w = k2_nodes(nodes)
    P = k2_matrices(a, b)
    eps = 1e-300
    pi = np.stack([1 - b, 1 - a], -1) / np.maximum(2 - a - b, eps)[:, None]
    cl = k2_run_classes(t)
    c = cl["c"]
    la, l1a, l1b, lb = (np.log(np.maximum(v, eps)) for v in (a, 1 - a, 1 - b, b))
    logpi = np.log(np.maximum(pi, eps))
    feats = np.stack([c[:, 0, 0], c[:, 0, 1], c[:, 1, 0], c[:, 1, 1]], 1).astype(float)
    L = np.stack([la, l1a, l1b, lb])  # (4, nodes)
    xt = cl["xt"]
    with np.errstate(divide="ignore", invalid="ignore"):
        negent = np.where(P > 0, P * np.log(P), 0.0).sum(-1)  # (nodes, 2): sum_j P_ij log P_ij
        statkl = negent - (P * logpi[:, None, :]).sum(-1)  # KL(P_i || pi)
    n0, n1 = cl["n0"], cl["n1"]
    q = {
        "uniform": np.full((len(xt), 2), 0.5),
        "unigram": np.stack([(n0 + 1.0) / (t + 2), (n1 + 1.0) / (t + 2)], 1),
        "bigram": (c[np.arange(len(xt)), xt] + 1.0) / (c[np.arange(len(xt)), xt].sum(1, keepdims=True) + 2.0),
    }
    M = np.empty((len(xt), 2))  # M[c, j] = sum_n W[c, n] P_{x_t j}(n)
    mass = np.empty(len(xt))
    H = 0.0
    S = 0.0
    for x1 in (0, 1):
        for last in (0, 1):
            sel = (cl["x1"] == x1) & (xt == last)
            if not sel.any():
                continue
            # W = exp(logmult + feats @ L + logpi) * w, in place (the same operations: a + b = b + a exactly)
            W = feats[sel] @ L
            W += cl["logmult"][sel, None]
            W += logpi[None, :, x1]
            np.exp(W, out=W)
            W *= w[None, :]
            M[sel] = W @ P[:, last, :]
            mass[sel] = W.sum(1)
            col = W.sum(0)
            H += float(col @ negent[:, last])
            S += float(col @ statkl[:, last])
    q["bayes"] = M / mass[:, None]
    out = {"total": float(mass.sum()), "stationary": S}
    for name, qq in q.items():
        out[name] = H - float((M * np.log(qq)).sum())
    return out


# ---------------------------------------------------------------------------------------------
# K4: the minimal model (8.8)
# ---------------------------------------------------------------------------------------------


def minimal_model_forward(x: np.ndarray, W: np.ndarray, v: np.ndarray, k: int) -> np.ndarray:
    """f (n, t, k) of the minimal model f = tril(E W (M E)^T) E, M_{ps} = v_{p-s+1} (s <= p), for a batch
    x (n, t).  Integer inputs give integer outputs."""
    x = np.asarray(x)
    if x.ndim == 1:
        x = x[None]
    n, t = x.shape
    v = np.asarray(v)
    if v.shape[0] < t:
        raise ValueError(f"argument 'v' must have length >= t = {t}, not {v.shape[0]}")
    require_memory("x", x.shape, 8 * n * t * t * 2, what="minimal-model attention matrices")
    W = np.asarray(W)
    E = np.eye(k, dtype=W.dtype)[x]  # (n, t, k)
    idx = np.arange(t)
    D = idx[:, None] - idx[None, :]
    M = np.where(D >= 0, v[np.clip(D, 0, t - 1)], 0)  # M[p, s] = v_{p-s+1}
    ME = np.matmul(M, E)  # (n, t, k)
    A = np.matmul(W[x], ME.transpose(0, 2, 1))  # (E W)_p = W[x_p] since E is one-hot
    A = np.where(D >= 0, A, 0)
    return np.matmul(A, E)


def minimal_model_forward_ref(x, W, v, k: int) -> list[list]:
    """Reference double sum f_{p,i} = sum_{t'<=p} 1{x_t' = i} sum_{s<=t'} v_{t'-s+1} W[x_p, x_s] (one sequence)."""
    t = len(x)
    f = [[0] * k for _ in range(t)]
    for p in range(t):
        for tp in range(p + 1):
            for s in range(tp + 1):
                f[p][x[tp]] += v[tp - s] * W[x[p]][x[s]]
    return f
