"""Margins of one-hidden-layer polynomial networks, explicit max-margin constructions, single-neuron
maxima and the finite matrix games of the certificate method (seed 004, Ch. 7 and App. D).

Group tasks (cyclic Z_p is the group with ``mul[a, b] = (a + b) mod p``): the network
``f(theta, a, b)[c] = sum_i (U[i, a] + V[i, b])^2 W[i, c]`` (quadratic activation, homogeneity nu = 3),
labels ``c = mul[a, b]``, every pair (a, b) in the data set.  Margin of a point: correct logit minus the
largest wrong one; h = min over points; normalized margin h / sum_i ||omega_i||_2^3 (the L_{2,3} norm
to the power nu, omega_i = (U[i], V[i], W[i])).

Sparse parity: ``f(x) = sum_i (U[i] . x)^k Wout[i]`` with Wout[i] in R^2 (coordinate 0 = class y = +1),
all x in {+-1}^n, y = prod_{j in S} x_j; margin y (f_0 - f_1); norm sum_i ||(U[i], Wout[i])||^{k+1}.

Class-weighted margin (Lemma 7.5): for a weighting tau over the non-identity elements (sum 1), one
neuron's expected weighted margin is E_{a,b}[(u_a + v_b)^2 (w(ab) - sum_c tau_c w(ab c))].  Its maximum
over the unit sphere is computed numerically (L-BFGS on -J(omega)/||omega||^3 with random restarts),
independently of every closed form.

Games (catalog X1/X2, derived): the block networks of the constructions cost linearly in their output
amplitude, so the best combination of blocks is the value of a finite matrix game, solved as a linear
programme (scipy.optimize.linprog, HiGHS).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import linprog, minimize

from .._checks import require_finite, require_int, require_memory

__all__ = [
    "certificate",
    "cyclic_block_network",
    "cyclic_construction",
    "cyclic_game_value",
    "cyclic_gamma",
    "cyclic_table",
    "game_value",
    "group_game_matrix",
    "group_gamma",
    "group_margins",
    "group_trace_construction",
    "lemma_d14_tau",
    "neuron_costs",
    "neuron_weighted_margin",
    "normalized_margin",
    "parity_construction",
    "parity_cube",
    "parity_margins",
    "parity_neuron_value",
    "parity_single_neuron_max",
    "quadratic_logits",
    "single_neuron_max",
    "tau_from_classes",
]

MAX_GROUP_ORDER = 2000
MAX_PARITY_N = 20


def _require_table(mul) -> np.ndarray:
    mul = np.asarray(mul)
    if mul.ndim != 2 or mul.shape[0] != mul.shape[1] or mul.shape[0] < 2 or mul.shape[0] > MAX_GROUP_ORDER:
        raise ValueError(f"argument 'mul' must be a square table of size in [2, {MAX_GROUP_ORDER}], not shape {mul.shape}")
    return mul.astype(np.int64)


def _require_neurons(n: int, **arrays) -> list[np.ndarray]:
    out = []
    m = None
    for name, arr in arrays.items():
        a = np.asarray(arr, dtype=np.float64)
        if a.ndim != 2 or a.shape[1] != n:
            raise ValueError(f"argument '{name}' must have shape (m, {n}), not {a.shape}")
        if m is not None and a.shape[0] != m:
            raise ValueError(f"argument '{name}' must have {m} rows (neurons), not {a.shape[0]}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"argument '{name}' must be finite")
        m = a.shape[0]
        out.append(a)
    return out


def cyclic_table(p: int) -> np.ndarray:
    """Multiplication table of Z_p: (a + b) mod p."""
    p = require_int("p", p, min_value=2, max_value=MAX_GROUP_ORDER)
    x = np.arange(p)
    return (x[:, None] + x[None, :]) % p


# ------------------------------------------------------------------------------------------------
# evaluation
# ------------------------------------------------------------------------------------------------


def quadratic_logits(U, V, W, *, chunk: int = 64) -> np.ndarray:
    """F[a, b, c] = sum_i (U[i, a] + V[i, b])^2 W[i, c], shape (n, n, n)."""
    U = np.asarray(U, dtype=np.float64)
    n = U.shape[1] if U.ndim == 2 else -1
    if n < 1 or n > MAX_GROUP_ORDER:
        raise ValueError(f"argument 'U' must have shape (m, n) with n in [1, {MAX_GROUP_ORDER}], not {U.shape}")
    U, V, W = _require_neurons(n, U=U, V=V, W=W)
    m = U.shape[0]
    require_memory("U", f"{m} neurons on {n} elements", 8 * (n**3 + min(chunk, n) * n * m), what="logit table")
    F = np.empty((n, n, n))
    for a0 in range(0, n, chunk):
        a1 = min(n, a0 + chunk)
        H = (U[:, a0:a1, None] + V[:, None, :]) ** 2  # (m, ca, n)
        F[a0:a1] = np.tensordot(H, W, axes=([0], [0]))
    return F


def group_margins(F, mul) -> tuple[np.ndarray, np.ndarray]:
    """Per point (a, b): margin g = F[a,b,ab] - max_{c != ab} F[a,b,c], and the wrong-logit spread
    max_{c != ab} F - min_{c != ab} F (0 <=> all wrong logits equal: condition C.1 for full-support tau)."""
    mul = _require_table(mul)
    n = mul.shape[0]
    F = np.asarray(F, dtype=np.float64)
    if F.shape != (n, n, n):
        raise ValueError(f"argument 'F' must have shape {(n, n, n)}, not {F.shape}")
    a, b = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    correct = F[a, b, mul]
    Fw = F.copy()
    Fw[a, b, mul] = -np.inf
    top = Fw.max(axis=2)
    Fw[a, b, mul] = np.inf
    low = Fw.min(axis=2)
    return correct - top, top - low


def neuron_costs(*blocks, nu: float = 3.0) -> np.ndarray:
    """||omega_i||_2^nu per neuron, omega_i = concatenation of the rows i of the blocks."""
    sq = sum(np.sum(np.asarray(b, dtype=np.float64) ** 2, axis=1) for b in blocks)
    return sq ** (nu / 2)


def normalized_margin(mul, U, V, W) -> dict:
    """h(theta) / sum_i ||omega_i||^3 and the diagnostics of Eq. 7.1 and C.1 (scale-free)."""
    mul = _require_table(mul)
    F = quadratic_logits(U, V, W)
    g, spread = group_margins(F, mul)
    cost = float(neuron_costs(U, V, W).sum())
    scale = float(np.abs(F).max()) or 1.0
    return {
        "normalized": float(g.min()) / cost,
        "mean_normalized": float(g.mean()) / cost,
        "margin_spread": float(g.max() - g.min()) / scale,  # Eq 7.1 with uniform q: all points on the margin
        "wrong_spread": float(spread.max()) / scale,  # C.1 with full-support tau
        "cost": cost,
        "min": float(g.min()),
    }


# ------------------------------------------------------------------------------------------------
# constructions
# ------------------------------------------------------------------------------------------------

#: the 8 phase triples (theta_u, theta_v, theta_w) of App. D.6.2 (lines 5071-5110)
CYCLIC_PHASES_8 = (
    (0.0, 0.0, 0.0), (0.0, math.pi, math.pi),
    (math.pi / 2, -math.pi / 2, 0.0), (math.pi / 2, math.pi / 2, math.pi),
    (-math.pi / 2, 0.0, -math.pi / 2), (-math.pi / 2, math.pi, math.pi / 2),
    (0.0, -math.pi / 2, -math.pi / 2), (0.0, math.pi / 2, math.pi / 2),
)
#: 6 neurons per frequency (catalog B7 item 7, derived): phases (2 pi k/6, 2 pi 4k/6, sum)
CYCLIC_PHASES_6 = tuple((2 * math.pi * k / 6, 2 * math.pi * 4 * k / 6, 2 * math.pi * 5 * k / 6) for k in range(6))


def cyclic_construction(p: int, *, phases=CYCLIC_PHASES_8, freqs=None, b_uses_a: bool = False, shifts=None):
    """Neurons u(a) = cos(th_u + 2 pi z a / p), v(b) = cos(th_v + 2 pi z b/p), w(c) = cos(th_w + 2 pi z c/p)
    for every frequency z in ``freqs`` (default 1..(p-1)/2) and every phase triple.  ``b_uses_a``
    reproduces the printed typo of the first pair (v evaluated at a).  ``shifts[z] = (s, t)`` adds
    (s, t, s + t) to every triple of frequency z (output unchanged)."""
    p = require_int("p", p, min_value=3, max_value=MAX_GROUP_ORDER)
    freqs = list(range(1, (p - 1) // 2 + 1)) if freqs is None else [int(z) for z in freqs]
    for z in freqs:
        if not 1 <= z <= p // 2:
            raise ValueError(f"argument 'freqs' must contain integers in [1, {p // 2}], not {z}")
    x = np.arange(p)
    U, V, W = [], [], []
    for z in freqs:
        s, t = (0.0, 0.0) if shifts is None else shifts[z]
        arg = 2 * math.pi * z * x / p
        for j, (tu, tv, tw) in enumerate(phases):
            U.append(np.cos(tu + s + arg))
            V.append(np.cos(tv + t + arg) if not (b_uses_a and j < 2) else np.cos(tu + s + arg))
            W.append(np.cos(tw + s + t + arg))
    return np.array(U), np.array(V), np.array(W)


def cyclic_gamma(p: int) -> float:
    """Thm 7.7 closed form sqrt(2/27) / (p^{1/2} (p - 1))."""
    return math.sqrt(2 / 27) / (math.sqrt(p) * (p - 1))


def group_gamma(dims) -> float:
    """Thm 7.9 closed form 2 / (3 sqrt(3|G|) sum_{n>=2} d_n^{2.5}); dims includes the trivial irrep first."""
    order = sum(d * d for d in dims)
    return 2 / (3 * math.sqrt(3 * order) * sum(d**2.5 for d in dims[1:]))


def group_trace_construction(G, *, scale_exponent: float = 1 / 3, w_index: str = "ik", irreps=None):
    """Lemma D.15 + D.16: for each non-trivial irrep R (or those in ``irreps``) and each (i, j, k), the
    pair u = s R_ij, v = +-s R_jk, w = +-s R_ik with s = d_R^scale_exponent; the pair computes
    4 s^3 R(a)_ij R(b)_jk R(c)_ik, the network 4 sum_R s_R^3 chi_R(a b c^-1).  ``w_index='ij'`` is the
    printed typo gamma_(i,j)."""
    chosen = range(1, len(G.irreps)) if irreps is None else irreps
    U, V, W = [], [], []
    for r in chosen:
        R = G.irreps[r]
        d = R.shape[1]
        s = d**scale_exponent
        for i in range(d):
            for j in range(d):
                for k in range(d):
                    wv = R[:, i, k] if w_index == "ik" else R[:, i, j]
                    for sign in (1.0, -1.0):
                        U.append(s * R[:, i, j])
                        V.append(sign * s * R[:, j, k])
                        W.append(sign * s * wv)
    return np.array(U), np.array(V), np.array(W)


# ------------------------------------------------------------------------------------------------
# class-weighted single-neuron values
# ------------------------------------------------------------------------------------------------


def tau_from_classes(G, tau_class) -> np.ndarray:
    """Element weights tau_c = tau_{C(c)} (identity weight 0) from per-class weights."""
    t = np.asarray(tau_class, dtype=np.float64)[G.class_of]
    t[0] = 0.0
    return t


def _weighted_w(mul, tau, w):
    """w~(x) = w(x) - sum_c tau_c w(x c), for w of shape (..., n)."""
    return w - w[..., mul] @ tau


def neuron_weighted_margin(mul, tau, u, v, w) -> float:
    """E_{a,b}[(u_a + v_b)^2 (w(ab) - sum_c tau_c w(ab c))] (exhaustive)."""
    mul = _require_table(mul)
    wt = _weighted_w(mul, np.asarray(tau, dtype=np.float64), np.asarray(w, dtype=np.float64))
    S = (np.asarray(u)[:, None] + np.asarray(v)[None, :]) ** 2
    return float(np.mean(S * wt[mul]))


def single_neuron_max(mul, tau, *, restarts: int, rng: np.random.Generator, maxiter: int = 3000):
    """max over ||(u, v, w)|| = 1 of the weighted margin, by L-BFGS on -J/||omega||^3 from Gaussian
    starts; returns (best value, best unit maximizer (3n,), all restart values)."""
    mul = _require_table(mul)
    restarts = require_int("restarts", restarts, min_value=1, max_value=10_000)
    n = mul.shape[0]
    tau = np.asarray(tau, dtype=np.float64)
    if tau.shape != (n,) or tau[0] != 0 or np.any(tau < -1e-15) or abs(tau.sum() - 1) > 1e-9:
        raise ValueError("argument 'tau' must be a probability vector over the non-identity elements (tau[0] = 0)")
    # T with w~ = T w: T[x, y] = 1[x = y] - sum_c tau_c 1[x c = y]
    T = np.eye(n)
    np.add.at(T, (np.repeat(np.arange(n), n), mul.reshape(-1)), -np.tile(tau, n))
    inv_n2 = 1.0 / (n * n)

    def fun(z):
        u, v, w = z[:n], z[n:2 * n], z[2 * n:]
        wt = (T @ w)[mul]  # (a, b)
        H = u[:, None] + v[None, :]
        J = inv_n2 * np.sum(H * H * wt)
        gu = 2 * inv_n2 * np.sum(H * wt, axis=1)
        gv = 2 * inv_n2 * np.sum(H * wt, axis=0)
        gwt = np.bincount(mul.reshape(-1), weights=(inv_n2 * H * H).reshape(-1), minlength=n)
        gw = T.T @ gwt
        g = np.concatenate([gu, gv, gw])
        r2 = z @ z
        r3 = r2**1.5
        return -J / r3, -(g / r3 - 3 * J * z / (r3 * r2))

    vals, best, best_z = [], -np.inf, None
    for _ in range(restarts):
        z0 = rng.standard_normal(3 * n)
        res = minimize(fun, z0, jac=True, method="L-BFGS-B", options={"maxiter": maxiter, "gtol": 1e-13, "ftol": 1e-15})
        z = res.x / np.linalg.norm(res.x)
        val = neuron_weighted_margin(mul, tau, z[:n], z[n:2 * n], z[2 * n:])
        vals.append(val)
        if val > best:
            best, best_z = val, z
    return best, best_z, np.array(vals)


# ------------------------------------------------------------------------------------------------
# games (derived X1, X2)
# ------------------------------------------------------------------------------------------------


def game_value(M) -> tuple[float, np.ndarray, np.ndarray]:
    """max_{nu in simplex} min_col sum_r nu_r M[r, col]; returns (value, nu, dual column weights)."""
    M = np.asarray(M, dtype=np.float64)
    if M.ndim != 2 or min(M.shape) < 1:
        raise ValueError(f"argument 'M' must be a non-empty matrix, not shape {M.shape}")
    require_finite("M", M, why="the game has no value")
    R, C = M.shape
    scale = float(np.abs(M).max()) or 1.0
    A = M / scale
    c = np.zeros(R + 1)
    c[-1] = -1.0
    A_ub = np.hstack([-A.T, np.ones((C, 1))])
    A_eq = np.hstack([np.ones((1, R)), np.zeros((1, 1))])
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(C), A_eq=A_eq, b_eq=[1.0],
                  bounds=[(0, None)] * R + [(None, None)], method="highs")
    if res.status != 0:
        raise RuntimeError(f"game LP failed: {res.message}")
    dual = -np.asarray(res.ineqlin.marginals)
    return float(-res.fun * scale), res.x[:R], dual


def cyclic_game_value(p: int, freqs=None) -> float:
    """X1: value of A[z, delta] = (1 - cos(2 pi z delta / p)) / c_z over z in ``freqs`` (default
    1..floor(p/2)), delta = 1..p-1; c_z = 2 (3p/2)^{3/2} (8-neuron block with output 4 cos_z),
    c_{p/2} = sqrt(2) (3p/2)^{3/2} (the Nyquist pair u = v = w = (-1)^x with output 4 (-1)^{a+b-c})."""
    p = require_int("p", p, min_value=3, max_value=MAX_GROUP_ORDER)
    freqs = list(range(1, p // 2 + 1)) if freqs is None else list(freqs)
    d = np.arange(1, p)
    rows = [(1 - np.cos(2 * math.pi * z * d / p)) / _block_cost(p, z) for z in freqs]
    return game_value(np.array(rows))[0]


def _block_cost(p: int, z: int) -> float:
    return (math.sqrt(2) if 2 * z == p else 2.0) * (1.5 * p) ** 1.5


def cyclic_block_network(p: int, weights: dict):
    """The X1 lower-bound network: for each frequency z with cost share weights[z] >= 0, the 8-neuron
    block (or, for z = p/2, the pair u = v = w = (-1)^x, v, w negated in the second neuron) scaled so
    that its sum of ||omega||^3 equals weights[z]."""
    p = require_int("p", p, min_value=3, max_value=MAX_GROUP_ORDER)
    U, V, W = [], [], []
    x = np.arange(p)
    for z, wt in weights.items():
        if wt <= 0:
            continue
        if 2 * z == p:
            s = (wt / (2 * (3 * p) ** 1.5)) ** (1 / 3)
            alt = s * (-1.0) ** x
            U += [alt, alt]
            V += [alt, -alt]
            W += [alt, -alt]
        else:
            Ub, Vb, Wb = cyclic_construction(p, freqs=[z])
            s = (wt / (8 * (1.5 * p) ** 1.5)) ** (1 / 3)
            U += list(s * Ub)
            V += list(s * Vb)
            W += list(s * Wb)
    return np.array(U), np.array(V), np.array(W)


def group_game_matrix(G, irreps=None) -> np.ndarray:
    """X2: M[R, C] = 2 (d_R - chi_R(C)) / ((3|G|)^{3/2} d_R^{3/2}), R and C non-trivial."""
    tab = G.character_table
    chosen = list(range(1, len(G.irreps))) if irreps is None else list(irreps)
    d = tab[chosen, 0]
    return 2 * (d[:, None] - tab[chosen][:, 1:]) / ((3 * G.order) ** 1.5 * d[:, None] ** 1.5)


def lemma_d14_tau(G) -> np.ndarray:
    """Lemma D.14 (compact, corrected sign): tau_C = -(sum_{n>=2} d_n^{1.5} chi_n(C)) / sum_{n>=2} d_n^{2.5}
    per class (identity class entry 0)."""
    tab = G.character_table
    d = tab[1:, 0]
    tau = -(d[:, None] ** 1.5 * tab[1:]).sum(axis=0) / np.sum(d**2.5)
    tau[0] = 0.0
    return tau


def certificate(mul, U, V, W, tau, single_max: float) -> dict:
    """The certificate method (Lemmas 7.2, 7.5, 7.6) for a network and weighting tau (uniform q*):
    normalized margin h, normalized E_q g' (class-weighted), Eq 7.1 spread, C.1 spread, and the
    per-neuron normalized weighted margins relative to ``single_max`` (Eq 7.3: all equal 1)."""
    mul = _require_table(mul)
    info = normalized_margin(mul, U, V, W)
    costs = neuron_costs(U, V, W)
    per = np.array([neuron_weighted_margin(mul, tau, U[i], V[i], W[i]) for i in range(len(U))])
    live = costs > 1e-300
    info["per_neuron_ratio_min"] = float((per[live] / costs[live]).min() / single_max)
    info["per_neuron_ratio_max"] = float((per[live] / costs[live]).max() / single_max)
    info["weighted_normalized"] = float(per.sum() / costs.sum())
    return info


# ------------------------------------------------------------------------------------------------
# sparse parity
# ------------------------------------------------------------------------------------------------


def parity_cube(n: int, support) -> tuple[np.ndarray, np.ndarray]:
    """All x in {+-1}^n (rows, int8) and y = prod_{j in support} x_j."""
    n = require_int("n", n, min_value=1, max_value=MAX_PARITY_N)
    S = list(support)
    if len(set(S)) != len(S) or any(not 0 <= j < n for j in S):
        raise ValueError(f"argument 'support' must be distinct indices in [0, {n - 1}], not {S}")
    X = 1 - 2 * ((np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1).astype(np.int8)
    y = np.prod(X[:, S], axis=1, dtype=np.int64) if S else np.ones(2**n, dtype=np.int64)
    return X, y


def parity_margins(U, Wout, k: int, X, y) -> np.ndarray:
    """g(x) = y (f_0(x) - f_1(x)), f(x) = sum_i (U[i] . x)^k Wout[i]."""
    Z = X.astype(np.float64) @ np.asarray(U, dtype=np.float64).T  # (2^n, m)
    F = (Z**k) @ np.asarray(Wout, dtype=np.float64)
    return y * (F[:, 0] - F[:, 1])


def parity_construction(n: int, k: int, support, *, with_sign_factor: bool = True, classes=None):
    """App. D.7: one neuron per sign pattern sigma in {+-1}^k with sigma_1 = 1 (2^{k-1} neurons, or the
    first ``classes`` of them): u = sigma on S / sqrt(k+1), Wout = (prod sigma) b / sqrt(2(k+1)),
    b = (1, -1), then scaled so that every neuron carries lambda^{k+1} = 1 / (number of neurons)."""
    S = list(support)
    pats = [s for s in np.array(np.meshgrid(*[[1, -1]] * k, indexing="ij")).reshape(k, -1).T if s[0] == 1]
    if classes is not None:
        pats = pats[:classes]
    U = np.zeros((len(pats), n))
    Wout = np.zeros((len(pats), 2))
    lam = (1.0 / len(pats)) ** (1 / (k + 1))
    for i, s in enumerate(pats):
        U[i, S] = lam * s / math.sqrt(k + 1)
        sign = float(np.prod(s)) if with_sign_factor else 1.0
        Wout[i] = lam * sign * np.array([1.0, -1.0]) / math.sqrt(2 * (k + 1))
    return U, Wout


def parity_neuron_value(u, wout, k: int, X, y) -> float:
    """E_x[(u . x)^k y (w_0 - w_1)] (exhaustive)."""
    z = X.astype(np.float64) @ np.asarray(u, dtype=np.float64)
    return float(np.mean(z**k * y) * (wout[0] - wout[1]))


def parity_single_neuron_max(n: int, k: int, support, *, restarts: int, rng: np.random.Generator):
    """max over ||(u, w)|| = 1 of E[(u . x)^k y (w_0 - w_1)], L-BFGS from Gaussian starts."""
    X, y = parity_cube(n, support)
    restarts = require_int("restarts", restarts, min_value=1, max_value=10_000)
    Xf = X.astype(np.float64)
    N = len(y)

    def fun(zz):
        u, w = zz[:n], zz[n:]
        z = Xf @ u
        m = np.mean(z**k * y)
        J = m * (w[0] - w[1])
        gu = k * (Xf.T @ (z ** (k - 1) * y)) / N * (w[0] - w[1])
        g = np.concatenate([gu, [m, -m]])
        r2 = zz @ zz
        r = r2 ** ((k + 1) / 2)
        return -J / r, -(g / r - (k + 1) * J * zz / (r * r2))

    best, best_z = -np.inf, None
    for _ in range(restarts):
        res = minimize(fun, rng.standard_normal(n + 2), jac=True, method="L-BFGS-B",
                       options={"maxiter": 3000, "gtol": 1e-13, "ftol": 1e-15})
        z = res.x / np.linalg.norm(res.x)
        val = parity_neuron_value(z[:n], z[n:], k, X, y)
        if val > best:
            best, best_z = val, z
    return best, best_z
