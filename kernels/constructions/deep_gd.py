"""N-layer networks without biases (seed 001, Def 1), their empirical risk, and its gradient by the
backpropagation recursion of Lemma 1 / (3.7)-(3.8); finite differences; an exact rational variant.

The network (seed 001, Def 1, lines 96-108; Remark 1, lines 109-115) has activation r applied after
every layer, including the last (no linear read-out):

    p(0) = x in R^{d_in},   p(j) = r(V_j p(j-1))   (j = 1, ..., N),   f(w, x) = p(N) in R^{d_out},

with V_1 in R^{K x d_in}, V_j in R^{K x K} (2 <= j <= N-1), V_N in R^{d_out x K}; w is the
concatenation of all rows (v_{1_1}, ..., v_{1_K}, ..., v_{N_1}, ..., v_{N_dout}), of length
D_N = (N-2) K^2 + (d_in + d_out) K (Def 2, line 145; Def 10 for d_in != d_out).

Risk (2.2): L_n(w) = (1/(2n)) sum_i l(f(w, x_i), y_i); for the squared loss l(t, y) = ||t - y||^2,
u(t, y) = (dl/dt)^T = 2 (t - y).  Gradient (Lemma 1 with Def 3):

    s(N) = r'(V_N p(N-1)) * u,    s(j) = r'(V_j p(j-1)) * (V_{j+1}^T s(j+1)),
    dL_n/dV_j = (1/(2n)) sum_i s_i(j) p_i(j-1)^T        (block k of A_i(j) is s_i(j)[k] p_i(j-1)).

Number modes: float64 arrays, or numpy object arrays of ``fractions.Fraction`` when the activation is
a polynomial with rational coefficients (then every quantity is rational and computed exactly).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .. import _checks

__all__ = [
    "ACTIVATIONS",
    "Activation",
    "backprop_gradient",
    "fd_gradient",
    "flatten",
    "forward",
    "layer_shapes",
    "param_offsets",
    "polynomial_activation",
    "random_network",
    "risk",
    "unflatten",
]

_MAX_SIZE = 4096


@dataclass(frozen=True)
class Activation:
    """A smooth activation r with r', r'' and the constants the lemmas use.

    ``lip`` = sup |r'| (Lipschitz constant L_r of r), ``lip_prime`` = sup |r''| (L_{r'}), both over R;
    ``bound(R)`` = max_{|t| <= R} |r(t)|, ``bound_prime(R)`` = max_{|t| <= R} |r'(t)|, ``third`` = sup |r'''|.
    """

    name: str
    f: Callable
    df: Callable
    d2f: Callable
    lip: float
    lip_prime: float
    bound: Callable[[float], float]
    bound_prime: Callable[[float], float]
    exact: bool = False
    third: float = math.inf  # sup |r'''| over R (interpolation error of r')


def _tanh_d2(t):
    th = np.tanh(t)
    return -2.0 * th * (1.0 - th * th)


def _softplus(t):
    return np.logaddexp(0.0, t)


def _sigmoid(t):
    return 0.5 * (1.0 + np.tanh(0.5 * np.asarray(t, dtype=float)))


ACTIVATIONS: dict[str, Activation] = {
    "tanh": Activation("tanh", np.tanh, lambda t: 1.0 - np.tanh(t) ** 2, _tanh_d2, 1.0, 4.0 / (3.0 * math.sqrt(3.0)),
                       lambda R: math.tanh(R), lambda R: 1.0, third=2.0),
    "softplus": Activation("softplus", _softplus, _sigmoid, lambda t: _sigmoid(t) * (1.0 - _sigmoid(t)), 1.0, 0.25,
                           lambda R: math.log1p(math.exp(R)), lambda R: 1.0 / (1.0 + math.exp(-R)),
                           third=1.0 / (6.0 * math.sqrt(3.0))),
    "sin": Activation("sin", np.sin, np.cos, lambda t: -np.sin(t), 1.0, 1.0,
                      lambda R: 1.0 if R >= math.pi / 2 else math.sin(R), lambda R: 1.0, third=1.0),
    "linear": Activation("linear", lambda t: 1.0 * t, lambda t: np.ones_like(np.asarray(t, dtype=float)),
                         lambda t: np.zeros_like(np.asarray(t, dtype=float)), 1.0, 0.0, lambda R: R, lambda R: 1.0,
                         third=0.0),
}


def polynomial_activation(coeffs: Sequence) -> Activation:
    """r(t) = sum_m coeffs[m] t^m with rational coefficients (exact on Fraction object arrays).

    ``lip``/``lip_prime`` are +inf (a polynomial of degree >= 2 is not globally Lipschitz); the bounds
    are sum_m |c_m| R^m (valid upper bounds on |r| over [-R, R])."""
    c = [Fraction(v) for v in coeffs]
    if not c:
        raise ValueError("argument 'coeffs' must be a non-empty sequence of rationals, not []")

    def poly(cs):
        def ev(t):
            acc = 0 * t + cs[-1] if len(cs) else 0 * t
            for a in reversed(cs[:-1]):
                acc = acc * t + a
            return acc
        return ev

    d1 = [m * c[m] for m in range(1, len(c))] or [Fraction(0)]
    d2 = [m * d1[m] for m in range(1, len(d1))] or [Fraction(0)]
    deg = len(c) - 1
    return Activation(
        f"poly{tuple(str(v) for v in c)}", poly(c), poly(d1), poly(d2),
        float(abs(d1[0])) if deg <= 1 else math.inf, 0.0 if deg <= 1 else (float(abs(d2[0])) if deg == 2 else math.inf),
        lambda R: float(sum(abs(a) * R**m for m, a in enumerate(c))),
        lambda R: float(sum(abs(a) * R**m for m, a in enumerate(d1))), exact=True,
    )


# ---------------------------------------------------------------------------------------------
# parameter bookkeeping
# ---------------------------------------------------------------------------------------------


def layer_shapes(N: int, K: int, d_in: int, d_out: int | None = None) -> list[tuple[int, int]]:
    """Shapes (rows, cols) of V_1, ..., V_N (Def 1; Def 10 when d_out != d_in)."""
    N = _checks.require_int("N", N, min_value=2, max_value=64)
    K = _checks.require_int("K", K, min_value=1, max_value=_MAX_SIZE)
    d_in = _checks.require_int("d_in", d_in, min_value=1, max_value=_MAX_SIZE)
    d_out = d_in if d_out is None else _checks.require_int("d_out", d_out, min_value=1, max_value=_MAX_SIZE)
    return [(K, d_in)] + [(K, K)] * (N - 2) + [(d_out, K)]


def param_offsets(N: int, K: int, d_in: int, d_out: int | None = None) -> list[int]:
    """[D_0, D_1, ..., D_N]: D_j = number of parameters of the first j layers (layer j is w[D_{j-1}:D_j])."""
    out = [0]
    for r, c in layer_shapes(N, K, d_in, d_out):
        out.append(out[-1] + r * c)
    return out


def flatten(Vs: Sequence[np.ndarray]) -> np.ndarray:
    """w = concatenation of the rows of V_1, ..., V_N (row-major), dtype preserved."""
    return np.concatenate([np.asarray(V).reshape(-1) for V in Vs])


def unflatten(w, shapes: Sequence[tuple[int, int]]) -> list[np.ndarray]:
    """Inverse of :func:`flatten` for the given layer shapes."""
    w = np.asarray(w)
    total = sum(r * c for r, c in shapes)
    if w.ndim != 1 or w.shape[0] != total:
        raise ValueError(f"argument 'w' must be a vector of length {total} for shapes {list(shapes)}, not shape {w.shape}")
    out, o = [], 0
    for r, c in shapes:
        out.append(w[o:o + r * c].reshape(r, c))
        o += r * c
    return out


def random_network(rng: np.random.Generator, N: int, K: int, d_in: int, d_out: int | None = None, *,
                   box: float = 1.0) -> list[np.ndarray]:
    """Weights uniform in [-box, box] (so every row has ||v||_2 <= box sqrt(fan_in))."""
    return [rng.uniform(-box, box, size=s) for s in layer_shapes(N, K, d_in, d_out)]


def _check_net(Vs, X, Y=None):
    if len(Vs) < 2:
        raise ValueError(f"argument 'Vs' must hold N >= 2 weight matrices, not {len(Vs)}")
    X = np.asarray(X)
    if X.ndim != 2 or X.shape[1] != np.shape(Vs[0])[1]:
        raise ValueError(f"argument 'X' must have shape (n, {np.shape(Vs[0])[1]}), not {X.shape}")
    for j in range(1, len(Vs)):
        if np.shape(Vs[j])[1] != np.shape(Vs[j - 1])[0]:
            raise ValueError(f"argument 'Vs': V_{j + 1} has {np.shape(Vs[j])[1]} columns, V_{j} has {np.shape(Vs[j - 1])[0]} rows")
    if Y is not None:
        Y = np.asarray(Y)
        if Y.shape != (X.shape[0], np.shape(Vs[-1])[0]):
            raise ValueError(f"argument 'Y' must have shape {(X.shape[0], np.shape(Vs[-1])[0])}, not {Y.shape}")
        _checks.require_finite("Y", Y)
    _checks.require_finite("X", X)
    for j, V in enumerate(Vs):
        _checks.require_finite(f"Vs[{j}]", V)
    return X, Y


# ---------------------------------------------------------------------------------------------
# forward, risk, gradient
# ---------------------------------------------------------------------------------------------


def forward(Vs: Sequence[np.ndarray], X, act: Activation) -> tuple[list, list]:
    """(P, Z): P[j] = p(j) for all samples (rows), P[0] = X; Z[j] = V_j p(j-1) (Z[0] is None)."""
    X, _ = _check_net(Vs, X)
    P, Z = [X], [None]
    for V in Vs:
        z = P[-1] @ np.asarray(V).T
        Z.append(z)
        P.append(act.f(z))
    return P, Z


def risk(Vs, X, Y, act: Activation):
    """L_n(w) = (1/(2n)) sum_i ||f(w, x_i) - y_i||^2 (squared loss)."""
    X, Y = _check_net(Vs, X, Y)
    P, _ = forward(Vs, X, act)
    diff = P[-1] - Y
    n = X.shape[0]
    total = (diff * diff).sum()
    return total / (2 * n) if act.exact else float(total) / (2 * n)


def backprop_gradient(Vs, X, Y, act: Activation, *, return_s: bool = False, hidden_derivative: bool = True):
    """The gradient dL_n/dV_j (list, one matrix per layer) by the recursion (3.7)/(3.8) of Lemma 1.

    With ``return_s`` also the backprop vectors S[j] = s(j) (rows = samples, j = 1..N; S[0] None).
    ``hidden_derivative=False`` drops the factor R_i(j-1) = r'(V_j p(j-1)) from (3.8) for j < N, i.e.
    s(j) = V_{j+1}^T s(j+1): a deliberately wrong variant (the mutant of seed001.lemma_1_gradient)."""
    X, Y = _check_net(Vs, X, Y)
    n = X.shape[0]
    P, Z = forward(Vs, X, act)
    N = len(Vs)
    S = [None] * (N + 1)
    S[N] = act.df(Z[N]) * (2 * (P[N] - Y))
    for j in range(N - 1, 0, -1):
        back = S[j + 1] @ np.asarray(Vs[j])
        S[j] = act.df(Z[j]) * back if hidden_derivative else back
    half = Fraction(1, 2 * n) if act.exact else 1.0 / (2 * n)
    grads = [(S[j].T @ P[j - 1]) * half for j in range(1, N + 1)]
    return (grads, S) if return_s else grads


def fd_gradient(Vs, X, Y, act: Activation, *, h: float = 1e-5) -> list[np.ndarray]:
    """Central finite differences of :func:`risk` in every weight (float64)."""
    if not (0 < h < 1):
        raise ValueError(f"argument 'h' must be a step in (0, 1), not {h!r}")
    shapes = [np.shape(V) for V in Vs]
    w = flatten([np.asarray(V, dtype=float) for V in Vs])
    g = np.empty_like(w)
    for a in range(w.size):
        wp, wm = w.copy(), w.copy()
        wp[a] += h
        wm[a] -= h
        g[a] = (risk(unflatten(wp, shapes), X, Y, act) - risk(unflatten(wm, shapes), X, Y, act)) / (2 * h)
    return unflatten(g, shapes)
