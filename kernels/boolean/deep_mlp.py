"""Deep MLPs with a power activation sigma(z) = z^p on the Boolean cube: exact evaluation, exact
backpropagation, exact multilinear degree, and a small online-SGD trainer.

The network (seed 004, App. B.3.7, lines 3822-3833; App. B.4.1, lines 3894-3905) is

    z_0 = x,   a_l = W_l z_{l-1} + b_l,   z_l = sigma(a_l) = a_l^p   (l = 1, ..., L-1),
    f(x) = u . z_{L-1} + c,

with W_l of shape (r_l, r_{l-1}) (r_0 = n), b_l of shape (r_l,), u of shape (r_{L-1},) and an output
bias c (the thesis' f_L(z) = u^T z has c = 0; PyTorch's ``nn.Linear`` default has a trainable c).
``layers`` is the sequence ((W_1, b_1), ..., (W_{L-1}, b_{L-1})).

Exactness.  Integer parameters are evaluated in int64 when a bound computed beforehand in Python ints
(|a_l| <= ||W_l||_row * max|z_{l-1}| + |b_l|, |z_l| <= |a_l|^p) shows that nothing can overflow, and in
exact Python ints (numpy object arrays) otherwise; Fraction parameters are evaluated exactly in object
arrays; float parameters in float64.  The multilinear expansion of any function on {±1}^n is its
Fourier expansion, f = sum_S f^(S) chi_S with f^(S) = (H f)[S] / 2^n (kernels.boolean.wht), so the multilinear
degree of an integer or rational table is decided exactly by one integer transform.

Indexing follows kernels/boolean/cube.py: point ``idx`` has x_i = -1 exactly when bit i of ``idx`` is set.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numba as nb
import numpy as np

from .. import _checks
from .cube import popcounts, sign_vectors
from .wht import wht

__all__ = [
    "PolyMLPSGDResult",
    "degree_profile",
    "downstream_factor",
    "first_layer_correlation_gradient",
    "init_poly_mlp",
    "multilinear_degree",
    "poly_mlp_forward",
    "poly_mlp_forward_ref",
    "poly_mlp_sgd",
    "poly_mlp_sgd_ref",
]

_MAX_N = 20
_INT64_SAFE = 2**62


# ---------------------------------------------------------------------------------------------
# validation and number modes
# ---------------------------------------------------------------------------------------------


def _mode_of(values) -> str:
    """'int', 'fraction' or 'float' for a flat iterable of scalars (refusing anything else)."""
    mode = "int"
    for v in values:
        if isinstance(v, (bool, np.bool_)):
            raise ValueError(f"network parameters must be numbers, not booleans ({v!r})")
        if isinstance(v, numbers.Integral):
            continue
        if isinstance(v, Fraction):
            mode = "fraction" if mode != "float" else mode
            continue
        if isinstance(v, numbers.Real):
            if not np.isfinite(float(v)):
                raise ValueError(f"network parameters must be finite, not {v!r}")
            mode = "float"
            continue
        raise ValueError(f"network parameters must be ints, Fractions or floats, not {type(v).__name__} ({v!r})")
    return mode


def _validate(layers, u, n: int, power: int, output_bias):
    n = _checks.require_int("n", n, min_value=1, max_value=_MAX_N)
    power = _checks.require_int("power", power, min_value=1, max_value=16)
    if len(layers) < 1:
        raise ValueError("argument 'layers' must list at least one hidden layer (W_1, b_1), not an empty sequence")
    mats = []
    prev = n
    flat: list = []
    for ell, layer in enumerate(layers, start=1):
        try:
            W, b = layer
        except (TypeError, ValueError):
            raise ValueError(f"argument 'layers'[{ell - 1}] must be a pair (W_{ell}, b_{ell})") from None
        W = np.asarray(W, dtype=object) if not isinstance(W, np.ndarray) or W.dtype == object else W
        b = np.asarray(b, dtype=object) if not isinstance(b, np.ndarray) or b.dtype == object else b
        if W.ndim != 2 or W.shape[1] != prev or W.shape[0] < 1:
            raise ValueError(
                f"argument 'layers'[{ell - 1}]: W_{ell} must have shape (r_{ell} >= 1, {prev}), not {W.shape}")
        if b.shape != (W.shape[0],):
            raise ValueError(f"argument 'layers'[{ell - 1}]: b_{ell} must have shape ({W.shape[0]},), not {b.shape}")
        flat.extend(W.ravel().tolist())
        flat.extend(b.ravel().tolist())
        mats.append((W, b))
        prev = W.shape[0]
    u = np.asarray(u, dtype=object) if not isinstance(u, np.ndarray) or u.dtype == object else u
    if u.shape != (prev,):
        raise ValueError(f"argument 'u' must have shape ({prev},) (the width of the last hidden layer), not {u.shape}")
    flat.extend(u.tolist())
    flat.append(output_bias)
    mode = _mode_of(flat)
    return mats, u, n, power, mode


def _convert(arr, mode: str):
    if mode == "float":
        return np.asarray(arr, dtype=np.float64)
    if mode == "fraction":
        return np.array([Fraction(v) if not isinstance(v, Fraction) else v for v in np.ravel(arr).tolist()],
                        dtype=object).reshape(np.shape(arr))
    return np.array([int(v) for v in np.ravel(arr).tolist()], dtype=object).reshape(np.shape(arr))


def _int64_is_safe(mats, u, n: int, power: int, c) -> bool:
    """Python-int bounds on every intermediate of the forward and backward passes, and on sums of the
    backward values over the 2^n points, all below 2^62."""
    zmax = 1  # |x_i| = 1
    amaxes = []
    for W, b in mats:
        Wa = np.abs(np.asarray(W.tolist(), dtype=object))
        ba = np.abs(np.asarray(b.tolist(), dtype=object))
        amax = max(int(v) for v in (Wa.sum(axis=1) * zmax + ba).tolist())
        amaxes.append(amax)
        zmax = max(amax**power, 1)
        if zmax >= _INT64_SAFE:
            return False
    ua = [abs(int(v)) for v in u.tolist()]
    if sum(ua) * zmax + abs(int(c)) >= _INT64_SAFE:
        return False
    g = max(ua)  # bound on |d f / d z_{L-1}|
    for ell in range(len(mats) - 1, -1, -1):
        da = g * power * max(amaxes[ell], 1) ** max(power - 1, 0)
        if (da << n) >= _INT64_SAFE:
            return False
        Wa = np.abs(np.asarray(mats[ell][0].tolist(), dtype=object))
        g = da * max(int(v) for v in Wa.sum(axis=0).tolist())
        if g >= _INT64_SAFE:
            return False
    return True


def _prepare(layers, u, n, power, output_bias):
    mats, u, n, power, mode = _validate(layers, u, n, power, output_bias)
    if mode == "int" and _int64_is_safe(mats, u, n, power, output_bias):
        dtype = np.int64
        mats = [(np.asarray(W.tolist(), dtype=np.int64), np.asarray(b.tolist(), dtype=np.int64)) for W, b in mats]
        u = np.asarray(u.tolist(), dtype=np.int64)
        c = int(output_bias)
        X = sign_vectors(n).astype(np.int64)
    elif mode == "float":
        dtype = np.float64
        mats = [(np.asarray(W, dtype=np.float64), np.asarray(b, dtype=np.float64)) for W, b in mats]
        u = np.asarray(u, dtype=np.float64)
        c = float(output_bias)
        X = sign_vectors(n).astype(np.float64)
    else:
        dtype = object
        mats = [(_convert(W, mode), _convert(b, mode)) for W, b in mats]
        u = _convert(u, mode)
        c = Fraction(output_bias) if mode == "fraction" else int(output_bias)
        X = sign_vectors(n).astype(np.int64).astype(object)
    return mats, u, c, n, power, X, dtype


# ---------------------------------------------------------------------------------------------
# forward / backward over the whole cube
# ---------------------------------------------------------------------------------------------


def _forward(mats, u, c, power, X):
    pre = []
    z = X
    for W, b in mats:
        a = z @ W.T + b[None, :]
        pre.append(a)
        z = a**power
    return z @ u + c, pre


def _lcm_of_denominators(values) -> int:
    d = 1
    for v in values:
        q = Fraction(v).denominator
        d = d * q // math.gcd(d, q)
    return d


def _forward_scaled(mats, u, c, power, X):
    """The Fraction forward pass in Python ints: with z_{l-1} = s z'_{l-1} (z' integer), the layer
    D_l (W_l s) and D_l b_l are integers for D_l the lcm of their denominators, so a'_l = D_l a_l is an
    integer and z_l = a'_l^p / D_l^p.  Returns the Fraction table of f."""
    z = X
    s = Fraction(1)
    for W, b in mats:
        Ws = [[v * s for v in row] for row in W.tolist()]
        bs = b.tolist()
        D = _lcm_of_denominators([v for row in Ws for v in row] + bs)
        Wi = np.array([[int(v * D) for v in row] for row in Ws], dtype=object)
        bi = np.array([int(v * D) for v in bs], dtype=object)
        z = (z @ Wi.T + bi[None, :]) ** power
        s = Fraction(1, D**power)
    us = [v * s for v in u.tolist()]
    D = _lcm_of_denominators(us + [c])
    ui = np.array([int(v * D) for v in us], dtype=object)
    num = z @ ui + int(c * D)
    return np.array([Fraction(int(v), D) for v in num.tolist()], dtype=object)


def poly_mlp_forward(layers: Sequence, u, *, n: int, power: int = 2, output_bias=0, return_preactivations: bool = False):
    """f(x) for every x in {±1}^n (length-2^n table in index order).

    Integer parameters give exact int64 (when safe) or Python-int (object) tables, Fractions give
    Fraction tables (computed in scaled Python ints), floats give float64.  With
    ``return_preactivations`` the list of a_l tables (each of shape (2^n, r_l)) is returned as well.
    """
    mats, u, c, n, power, X, dtype = _prepare(layers, u, n, power, output_bias)
    if dtype == object and isinstance(c, Fraction) and not return_preactivations:
        return _forward_scaled(mats, u, c, power, X)
    f, pre = _forward(mats, u, c, power, X)
    return (f, pre) if return_preactivations else f


def poly_mlp_forward_ref(layers: Sequence, u, *, n: int, power: int = 2, output_bias=0) -> list:
    """The same table by a plain point-by-point loop in Fractions (the oracle; n <= 12)."""
    n = _checks.require_int("n", n, min_value=1, max_value=12)
    out = []
    for idx in range(1 << n):
        z = [Fraction(1 - 2 * ((idx >> i) & 1)) for i in range(n)]
        for W, b in layers:
            W = np.asarray(W, dtype=object).tolist()
            b = np.asarray(b, dtype=object).tolist()
            z = [(sum((Fraction(wij) * zj for wij, zj in zip(row, z)), Fraction(0)) + Fraction(bi)) ** power
                 for row, bi in zip(W, b)]
        out.append(sum((Fraction(ui) * zi for ui, zi in zip(np.asarray(u, dtype=object).tolist(), z)), Fraction(0))
                   + Fraction(output_bias))
    return out


def _backward_to_first(mats, u, power, pre):
    """d f / d (z_1)_j and d f / d (a_1)_j for every point: two arrays of shape (2^n, r_1)."""
    g = np.broadcast_to(u[None, :], pre[-1].shape).copy()  # d f / d z_{L-1}
    for ell in range(len(mats) - 1, 0, -1):
        da = g * (power * pre[ell] ** (power - 1))  # d f / d a_{ell+1} (0-based ell)
        g = da @ mats[ell][0]  # d f / d z_ell
    da1 = g * (power * pre[0] ** (power - 1))
    return g, da1


def downstream_factor(layers: Sequence, u, *, n: int, power: int = 2):
    """D_j(x) = d(f_L o ... o f_2)/d(z_1)_j evaluated at z_1 = z_1(x), as an array of shape (r_1, 2^n).

    For a network with a single hidden layer (L = 2) this is the constant u_j.
    """
    mats, u, c, n, power, X, _ = _prepare(layers, u, n, power, 0)
    _, pre = _forward(mats, u, c, power, X)
    g, _ = _backward_to_first(mats, u, power, pre)
    return np.ascontiguousarray(g.T)


def first_layer_correlation_gradient(layers: Sequence, u, S, *, n: int, power: int = 2, layerwise: bool = False):
    """Population gradient of the correlation loss l = -chi_S(x) f(x) with respect to (W_1, b_1).

    Returns (G, g_b): G[j][i] = E_x[-chi_S(x) d f/d W_1[j, i]] and g_b[j] = E_x[-chi_S(x) d f/d b_1[j]],
    as Fractions for exact parameters (floats otherwise).  With ``layerwise=True`` the layers above the
    first are replaced by the linear readout u (greedy layer-wise training of layer 1: f = u . z_1), so
    that d f/d a_1[j] = u_j sigma'(a_1[j]); ``u`` must then have length r_1.
    """
    if layerwise:
        layers = list(layers)[:1]
    mats, u, c, n, power, X, dtype = _prepare(layers, u, n, power, 0)
    mask = _checks.require_subset("S", S, n)
    _, pre = _forward(mats, u, c, power, X)
    _, da1 = _backward_to_first(mats, u, power, pre)
    idx = np.arange(1 << n, dtype=np.int64)
    par = np.zeros(1 << n, dtype=np.int64)
    for i in range(n):
        if mask >> i & 1:
            par ^= (idx >> i) & 1
    y = (1 - 2 * par)
    y = y.astype(object) if dtype == object else y.astype(dtype)
    T = -(da1 * y[:, None])  # (2^n, r_1)
    G = T.T @ X  # (r_1, n)
    gb = T.sum(axis=0)
    N = 1 << n
    if dtype == np.float64:
        return G / N, gb / N
    G = [[Fraction(v) / N for v in row] for row in G.tolist()]
    gb = [Fraction(v) / N for v in gb.tolist()]
    return G, gb


# ---------------------------------------------------------------------------------------------
# multilinear degree
# ---------------------------------------------------------------------------------------------


def _exact_numerators(table) -> np.ndarray:
    """An integer array proportional (by a positive constant) to an int / Fraction table."""
    arr = np.asarray(table)
    if arr.dtype.kind in "iub":
        return arr.astype(np.int64)
    if arr.dtype == object:
        vals = arr.tolist()
        if all(isinstance(v, numbers.Integral) for v in vals):
            return np.array([int(v) for v in vals], dtype=object)
        if all(isinstance(v, (numbers.Integral, Fraction)) for v in vals):
            # the lcm D of the denominators, and v D = num(v) (D / den(v)) exactly (an integer)
            nd = [(int(v.numerator), int(v.denominator)) if isinstance(v, Fraction) else (int(v), 1) for v in vals]
            den = math.lcm(*{d for _, d in nd})
            return np.array([a * (den // d) for a, d in nd], dtype=object)
    raise ValueError(
        f"argument 'table' must hold integers or Fractions for an exact degree (dtype {arr.dtype}); "
        "floats have no exact multilinear degree")


def multilinear_degree(table) -> int:
    """Largest |S| with f^(S) != 0 (exact, from the integer WHT); -1 for the zero function."""
    arr = np.asarray(table)
    n = _checks.require_power_of_two_length("table", arr)
    H = wht(_exact_numerators(arr))
    deg = popcounts(n)
    nz = np.flatnonzero(H != 0)
    return int(deg[nz].max()) if nz.size else -1


def degree_profile(table) -> list[Fraction]:
    """max_{|S| = d} |f^(S)| for d = 0..n, exactly (Fractions) for int / Fraction tables."""
    arr = np.asarray(table)
    n = _checks.require_power_of_two_length("table", arr)
    num = _exact_numerators(arr)
    scale = Fraction(1)
    if arr.dtype == object and any(isinstance(v, Fraction) for v in arr.tolist()):
        nz = next((i for i, v in enumerate(arr.tolist()) if v != 0), None)
        scale = Fraction(arr[nz]) / int(num[nz]) if nz is not None else Fraction(1)
    H = wht(num)
    deg = popcounts(n)
    out = [Fraction(0)] * (n + 1)
    for d, v in zip(deg.tolist(), H.tolist()):
        a = abs(Fraction(int(v)) * scale) / (1 << n)
        out[d] = max(out[d], a)
    return out


# ---------------------------------------------------------------------------------------------
# online SGD (hinge loss) of a small deep power-activation MLP
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PolyMLPSGDResult:
    """Per seed: the first evaluated step at which sign(f) = chi_S on every evaluation point (-1 if
    never within ``steps``), the accuracy on the evaluation points at that stop (or at the end; 0 for
    a diverged run), and whether it diverged (a non-finite parameter)."""

    first_success: np.ndarray
    final_accuracy: np.ndarray
    diverged: np.ndarray
    steps: int
    eval_every: int


def _layer_shapes(widths: Sequence[int]):
    """Offsets of (W_l, b_l) for l = 1..L-1, then u, then c, in one flat parameter vector."""
    shapes = []
    off = 0
    for ell in range(1, len(widths)):
        r, q = widths[ell], widths[ell - 1]
        shapes.append((off, off + r * q, r, q))
        off += r * q + r
    u_off = off
    off += widths[-1]
    return shapes, u_off, off, off + 1


def init_poly_mlp(widths: Sequence[int], rng: np.random.Generator, *, scheme: str = "torch", output_bias: bool = True) -> np.ndarray:
    """A flat parameter vector (W_1, b_1, ..., W_{L-1}, b_{L-1}, u, c) drawn i.i.d. uniform.

    ``scheme="torch"``: each affine map with fan-in q gets U(-1/sqrt(q), 1/sqrt(q)) for weights and
    bias (PyTorch's ``nn.Linear`` default); ``"xavier"``: U(-c, c), c = sqrt(6 / (fan_in + fan_out))
    for weights and the same c for biases.  The output map has fan-in r_{L-1} and fan-out 1; without
    ``output_bias`` its bias c is 0 and stays 0 in training.
    """
    widths = [int(w) for w in widths]
    if len(widths) < 2 or min(widths) < 1:
        raise ValueError(f"argument 'widths' must be (n, r_1, ..., r_(L-1)) with every entry >= 1, not {widths}")
    if scheme not in ("torch", "xavier"):
        raise ValueError(f"argument 'scheme' must be 'torch' or 'xavier', not {scheme!r}")
    shapes, u_off, c_off, size = _layer_shapes(widths)
    theta = np.zeros(size, dtype=np.float64)
    fans = [(widths[ell - 1], widths[ell]) for ell in range(1, len(widths))] + [(widths[-1], 1)]
    blocks = [(s[0], s[1], s[1] + s[2]) for s in shapes] + [(u_off, c_off, c_off + 1)]
    for (fi, fo), (w0, b0, b1) in zip(fans, blocks):
        c = 1.0 / np.sqrt(fi) if scheme == "torch" else float(np.sqrt(6.0 / (fi + fo)))
        theta[w0:b0] = rng.uniform(-c, c, size=b0 - w0)
        if b1 - b0:
            theta[b0:b1] = rng.uniform(-c, c, size=b1 - b0)
    if not output_bias:
        theta[c_off] = 0.0
    return theta


@nb.njit(cache=True)
def _forward_batch(theta, widths, offs, power, At, Zt, nb_):  # pragma: no cover - compiled
    """The hidden layers at nb_ points at once, stored point-innermost (Zt[0, i, s] = x_s[i], set by the caller):
    At[ell, j, s] = b_{ell+1}[j] + the products W_{ell+1}[j, i] Zt[ell, i, s] added in order of i, Zt[ell + 1, j, s]
    = At[ell, j, s]^power.  Each point's sums are the ones of a point-by-point forward (the same operations in the
    same order); the points run innermost over contiguous rows, so the nb_ independent sums are vectorised."""
    for ell in range(widths.shape[0] - 1):
        r = widths[ell + 1]
        q = widths[ell]
        o = offs[ell]
        for j in range(r):
            bj = theta[o + r * q + j]
            for s in range(nb_):
                At[ell, j, s] = bj
            for i in range(q):
                wi = theta[o + j * q + i]
                for s in range(nb_):
                    At[ell, j, s] += wi * Zt[ell, i, s]
            if power == 2:  # a**2 is a*a in numba's integer power (r = 1.0 * (a * a)): the same bits, vectorisable
                for s in range(nb_):
                    Zt[ell + 1, j, s] = At[ell, j, s] * At[ell, j, s]
            else:
                for s in range(nb_):
                    Zt[ell + 1, j, s] = At[ell, j, s]**power


@nb.njit(cache=True)
def _offsets(widths):  # pragma: no cover - compiled
    """(offs, u_off, c_off, maxw): offsets of the layers' blocks (W_{ell+1} row-major, then b_{ell+1}), of u and
    of c in the flat parameter vector, and the largest width."""
    L1 = widths.shape[0] - 1
    maxw = 0
    for i in range(widths.shape[0]):
        maxw = max(maxw, widths[i])
    offs = np.zeros(L1 + 1, dtype=np.int64)
    off = 0
    for ell in range(L1):
        offs[ell] = off
        off += widths[ell + 1] * widths[ell] + widths[ell + 1]
    return offs, off, off + widths[L1], maxw


@nb.njit(cache=True)
def _sgd_chunk(theta, widths, power, lr, Xb, yb, use_c):  # pragma: no cover - compiled
    """Steps of mini-batch SGD on the hinge loss; Xb: (T, B, n) int8, yb: (T, B) int8.  Returns False
    on a non-finite parameter.  Per step the forward pass of the B points runs first (:func:`_forward_batch`;
    theta changes only at the end of the step), then each point's backward in order of the points."""
    L1 = widths.shape[0] - 1
    offs, u_off, c_off, maxw = _offsets(widths)
    T, B, n = Xb.shape
    At = np.zeros((L1, maxw, B))
    Zt = np.zeros((L1 + 1, maxw, B))
    A = np.zeros((L1, maxw))
    Z = np.zeros((L1 + 1, maxw))
    G = np.zeros(theta.shape[0])
    delta = np.zeros(maxw)
    nxt = np.zeros(maxw)
    for t in range(T):
        G[:] = 0.0
        for i in range(n):
            for s in range(B):
                Zt[0, i, s] = Xb[t, s, i]
        _forward_batch(theta, widths, offs, power, At, Zt, B)
        for s in range(B):
            for ell in range(L1):  # point s's activations, contiguous for the backward
                for i in range(widths[ell]):
                    Z[ell, i] = Zt[ell, i, s]
                for j in range(widths[ell + 1]):
                    A[ell, j] = At[ell, j, s]
            for j in range(widths[L1]):
                Z[L1, j] = Zt[L1, j, s]
            f = theta[c_off] if use_c else 0.0
            rL = widths[L1]
            for j in range(rL):
                f += theta[u_off + j] * Z[L1, j]
            y = yb[t, s]
            if y * f >= 1.0:
                continue
            d = -float(y)  # d hinge / d f
            for j in range(rL):
                G[u_off + j] += d * Z[L1, j]
            if use_c:
                G[c_off] += d
            if power == 2:  # a**1 is 1.0 * a = a in numba's integer power: the same bits
                for j in range(rL):
                    delta[j] = d * theta[u_off + j] * power * A[L1 - 1, j]
            else:
                for j in range(rL):
                    delta[j] = d * theta[u_off + j] * power * A[L1 - 1, j] ** (power - 1)
            for ell in range(L1 - 1, -1, -1):
                r = widths[ell + 1]
                q = widths[ell]
                o = offs[ell]
                z = Z[ell]
                for j in range(r):
                    dj = delta[j]
                    G[o + r * q + j] += dj
                    g = G[o + j * q:o + j * q + q]
                    for i in range(q):
                        g[i] += dj * z[i]
                if ell > 0:
                    for i in range(q):
                        nxt[i] = 0.0
                    for j in range(r):  # nxt = W_{ell+1}^T delta: each sum over j in order, the q sums interleaved
                        dj = delta[j]
                        w = theta[o + j * q:o + j * q + q]
                        for i in range(q):
                            nxt[i] += w[i] * dj
                    if power == 2:
                        for i in range(q):
                            delta[i] = nxt[i] * power * A[ell - 1, i]
                    else:
                        for i in range(q):
                            delta[i] = nxt[i] * power * A[ell - 1, i] ** (power - 1)
        for i in range(theta.shape[0]):
            theta[i] -= lr * G[i] / B
            if not np.isfinite(theta[i]):
                return False
    return True


#: points per block of the accuracy's batched forward pass
_ACC_BLOCK = 64


@nb.njit(cache=True)
def _accuracy(theta, widths, power, X, y, use_c):  # pragma: no cover - compiled
    """Fraction of evaluation points with sign(f) = y (sign(0) = 0 counts as an error); the forward pass in
    blocks of _ACC_BLOCK points (:func:`_forward_batch`), f = c + the products u_j z_j added in order of j."""
    L1 = widths.shape[0] - 1
    offs, u_off, c_off, maxw = _offsets(widths)
    nblk = _ACC_BLOCK
    At = np.zeros((L1, maxw, nblk))
    Zt = np.zeros((L1 + 1, maxw, nblk))
    good = 0
    N = X.shape[0]
    for s0 in range(0, N, nblk):
        m = min(nblk, N - s0)
        for i in range(X.shape[1]):
            for s in range(m):
                Zt[0, i, s] = X[s0 + s, i]
        _forward_batch(theta, widths, offs, power, At, Zt, m)
        for s in range(m):
            f = theta[c_off] if use_c else 0.0
            for j in range(widths[L1]):
                f += theta[u_off + j] * Zt[L1, j, s]
            if (f > 0 and y[s0 + s] > 0) or (f < 0 and y[s0 + s] < 0):
                good += 1
    return good / N


def _validate_sgd(widths, power, S, steps, batch, lr, eval_every, seeds):
    widths = [int(_checks.require_int("widths[...]", w, min_value=1, max_value=4096)) for w in widths]
    if len(widths) < 2:
        raise ValueError(f"argument 'widths' must be (n, r_1, ..., r_(L-1)), not {widths}")
    n = _checks.require_int("widths[0] (n)", widths[0], min_value=1, max_value=64)
    power = _checks.require_int("power", power, min_value=1, max_value=16)
    mask = _checks.require_subset("S", S, n)
    steps = _checks.require_int("steps", steps, min_value=1, max_value=10**8)
    batch = _checks.require_int("batch", batch, min_value=1, max_value=1 << 16)
    eval_every = _checks.require_int("eval_every", eval_every, min_value=1, max_value=steps)
    if not (isinstance(lr, numbers.Real) and 0 < float(lr) < 1e6):
        raise ValueError(f"argument 'lr' must be a real number in (0, 1e6), not {lr!r}")
    seeds = [int(_checks.require_int("seeds[...]", s, min_value=0)) for s in seeds]
    if not seeds:
        raise ValueError("argument 'seeds' must list at least one seed")
    return widths, n, power, mask, steps, batch, float(lr), eval_every, seeds


def _eval_set(n: int, mask: int, eval_points: int, rng: np.random.Generator):
    if n <= 16:
        X = sign_vectors(n)
    else:
        X = (1 - 2 * rng.integers(0, 2, size=(eval_points, n))).astype(np.int8)
    y = np.ones(X.shape[0], dtype=np.int8)
    for i in range(n):
        if mask >> i & 1:
            y = y * X[:, i]
    return np.ascontiguousarray(X), y.astype(np.int8)


def _batches_ref(rng: np.random.Generator, T: int, B: int, n: int, mask: int):
    """The batches by plain numpy (the oracle of :func:`_batches`): x = 1 - 2 rng.integers(0, 2, int8), y = chi_S(x)."""
    Xb = (1 - 2 * rng.integers(0, 2, size=(T, B, n), dtype=np.int8)).astype(np.int8)
    sel = [i for i in range(n) if mask >> i & 1]
    yb = np.prod(Xb[:, :, sel], axis=2, dtype=np.int8) if sel else np.ones((T, B), dtype=np.int8)
    return Xb, yb.astype(np.int8)


@nb.njit(cache=True)
def _signs_from_bytes(byts, T, B, n, sel):  # pragma: no cover - compiled
    """x = 1 - 2 (byte >> 7) for the T B n bytes in order, y = the product of x_i over the indices i in sel."""
    N = T * B * n
    flat = np.empty(N, dtype=np.int8)
    for k in range(N):
        flat[k] = np.int8(1) - np.int8(2) * np.int8(byts[k] >> 7)
    yb = np.ones((T, B), dtype=np.int8)
    for t in range(T):
        for s in range(B):
            base = (t * B + s) * n
            y = np.int8(1)
            for i in sel:
                y *= flat[base + i]
            yb[t, s] = y
    return flat.reshape((T, B, n)), yb


def _batches(rng: np.random.Generator, T: int, B: int, n: int, mask: int):
    """(Xb, yb): T B n fresh signs and their parities, bit for bit those of :func:`_batches_ref`, which consume the
    generator the same way.  numpy's rng.integers(0, 2, dtype=int8) (Lemire's method on a 2-value range, no
    rejection) returns the top bit of successive bytes of the generator's 32-bit stream (4 draws per 32-bit word,
    low byte first; a word's unused bytes are dropped at the end of the call), and PCG64's 32-bit stream is its
    64-bit outputs split low half first, with a half kept over between calls (state['has_uint32']).  For PCG64
    the bytes are therefore read from random_raw (and the kept-over half set as numpy would); any other bit
    generator takes the numpy route."""
    N = T * B * n
    bg = rng.bit_generator
    if N == 0 or type(bg) is not np.random.PCG64 or np.little_endian is False:
        return _batches_ref(rng, T, B, n, mask)
    words = (N + 3) // 4  # 32-bit draws the numpy route consumes
    st = bg.state
    head = []
    if st["has_uint32"]:
        head = [int(st["uinteger"])]
        words -= 1
    raw = bg.random_raw((words + 1) // 2) if words > 0 else np.zeros(0, dtype=np.uint64)
    w32 = raw.view(np.uint32)
    if head:
        w32 = np.concatenate([np.array(head, dtype=np.uint32), w32])
    if words > 0 or head:  # numpy keeps the last 64-bit output's high half, buffered iff it was not used
        st2 = bg.state
        st2["has_uint32"] = words % 2
        if words > 0:
            st2["uinteger"] = int(raw[-1] >> np.uint64(32))
        bg.state = st2
    sel = np.array([i for i in range(n) if mask >> i & 1], dtype=np.int64)
    return _signs_from_bytes(w32.view(np.uint8), T, B, n, sel)


def poly_mlp_sgd(widths: Sequence[int], power: int, S, *, seeds: Sequence[int], steps: int, batch: int, lr: float,
                 eval_every: int = 100, output_bias: bool = True, init: str = "torch", eval_points: int = 8192,
                 chunk: int = 2000) -> PolyMLPSGDResult:
    """Online SGD with fresh batches (hinge loss) of f = u . z_{L-1} + c, sigma = z^power, on chi_S.

    One run per seed: parameters from :func:`init_poly_mlp` with ``np.random.default_rng(seed)``, then
    ``steps`` steps of batch-``batch`` SGD with step size ``lr`` on x ~ Unif{±1}^n, y = chi_S(x), drawn
    from the same generator in chunks.  Accuracy (sign(f) = y, sign(0) = 0 an error) is evaluated on
    the whole cube (n <= 16) or on ``eval_points`` fixed held-out points (drawn first from a generator
    seeded by the first seed) every ``eval_every`` steps; a run stops at its first 100% evaluation.
    Results are reproducible bit for bit (serial compiled loops, fixed order).
    """
    widths, n, power, mask, steps, batch, lr, eval_every, seeds = _validate_sgd(widths, power, S, steps, batch, lr, eval_every, seeds)
    if init not in ("torch", "xavier"):
        raise ValueError(f"argument 'init' must be 'torch' or 'xavier', not {init!r}")
    Xe, ye = _eval_set(n, mask, int(eval_points), np.random.default_rng(np.random.SeedSequence([seeds[0], 0xE7A1])))
    w_arr = np.asarray(widths, dtype=np.int64)
    first = np.full(len(seeds), -1, dtype=np.int64)
    acc = np.zeros(len(seeds))
    div = np.zeros(len(seeds), dtype=bool)
    block = max(eval_every, (int(chunk) // eval_every) * eval_every)
    pre = min(512, Xe.shape[0])
    Xp, yp = np.ascontiguousarray(Xe[:pre]), np.ascontiguousarray(ye[:pre])

    def accuracy(theta):
        # a run below 100% almost always errs on the first 512 evaluation points already
        a0 = _accuracy(theta, w_arr, power, Xp, yp, output_bias)
        return _accuracy(theta, w_arr, power, Xe, ye, output_bias) if a0 == 1.0 and pre < Xe.shape[0] else a0

    for r, seed in enumerate(seeds):
        rng = np.random.default_rng(seed)
        theta = init_poly_mlp(widths, rng, scheme=init, output_bias=output_bias)
        a = _accuracy(theta, w_arr, power, Xe, ye, output_bias)
        if a == 1.0:
            first[r], acc[r] = 0, a
            continue
        t = 0
        done = False
        while t < steps and not done:
            T = min(block, steps - t)
            Xb, yb = _batches(rng, T, batch, n, mask)
            for s0 in range(0, T, eval_every):
                s1 = min(T, s0 + eval_every)
                if not _sgd_chunk(theta, w_arr, power, lr, Xb[s0:s1], yb[s0:s1], output_bias):
                    div[r] = True
                    a = 0.0
                    done = True
                    break
                a = accuracy(theta)
                if a == 1.0:
                    first[r] = t + s1
                    done = True
                    break
            t += T
        acc[r] = a if (a == 1.0 or div[r]) else _accuracy(theta, w_arr, power, Xe, ye, output_bias)
    return PolyMLPSGDResult(first_success=first, final_accuracy=acc, diverged=div, steps=steps, eval_every=eval_every)


def poly_mlp_sgd_ref(theta: np.ndarray, widths: Sequence[int], power: int, lr: float, Xb: np.ndarray, yb: np.ndarray,
                     output_bias: bool = True) -> np.ndarray:
    """The same SGD steps by numpy autograd-free formulas (the oracle of the compiled step): returns the
    parameters after len(Xb) steps on the given batches (no accuracy evaluation, no early stop)."""
    widths = [int(w) for w in widths]
    shapes, u_off, c_off, size = _layer_shapes(widths)
    th = np.array(theta, dtype=np.float64, copy=True)
    for X, y in zip(Xb.astype(np.float64), yb.astype(np.float64)):
        Ws = [th[o:o + r * q].reshape(r, q) for o, _, r, q in shapes]
        bs = [th[o + r * q:o + r * q + r] for o, _, r, q in shapes]
        u = th[u_off:c_off]
        c = th[c_off] if output_bias else 0.0
        zs, As = [X], []
        for W, b in zip(Ws, bs):
            As.append(zs[-1] @ W.T + b)
            zs.append(As[-1] ** power)
        f = zs[-1] @ u + c
        d = np.where(y * f < 1.0, -y, 0.0)  # (B,)
        G = np.zeros(size)
        G[u_off:c_off] = d @ zs[-1]
        if output_bias:
            G[c_off] = d.sum()
        delta = d[:, None] * u[None, :] * power * As[-1] ** (power - 1)
        for ell in range(len(Ws) - 1, -1, -1):
            o, _, r, q = shapes[ell]
            G[o:o + r * q] = (delta.T @ zs[ell]).ravel()
            G[o + r * q:o + r * q + r] = delta.sum(axis=0)
            if ell > 0:
                delta = (delta @ Ws[ell]) * power * As[ell - 1] ** (power - 1)
        th -= lr * G / X.shape[0]
    return th
