"""Layered Boolean circuits, their compilation to ReLU networks, and the all-layer margin.

Seed 000 (Wei, Chen, Ma, "Statistically meaningful approximation"), Section 3 and Appendix B/D:

* a *layered circuit* (l.115-123) has an input layer of m bits and layers of gates AND(2), OR(2),
  NOT(1), ID(1); the parents of a gate lie in the previous layer (repeated parents allowed);
  depth q counts the input layer, width r = max gates per layer, size s = total gates;
* Lemma B.1 / 3.2 (l.381-393, 413-415): each circuit layer is one block
  ``f(h) = relu(W2 relu(W1 h + b1) + b2)`` with the rows of Prop. B.2 (l.409-411)

  ==========  ============  ====  =======  ====  ==========
  gate        W1 row        b1    W2_jj    b2    l1 norm
  ==========  ============  ====  =======  ====  ==========
  AND(a, b)   +1 at a, b    -1    1        0     4
  OR(a, b)    -1 at a, b    +1    -1       +1    5
  NOT(a)      -1 at a       +1    1        0     3
  ID(a)       +1 at a       0     1        0     2
  ==========  ============  ====  =======  ====  ==========

* Prop. 3.4 (l.159-161): ``round(z) = 3 relu(z - 1/3) - 3 relu(z - 2/3)`` as a 2-layer block
  (l1 norm 9 per coordinate), inserted after every gate block (proof of Thm 3.1, l.395-405);
* the output layer is the affine map z -> 2z - 1, so F(x) = 2 G(x) - 1.

A network is a list of affine layers ``(W, b)`` with a ReLU after every layer except the last
(``block_ends`` records where a block - gate or round - ends, i.e. where the values of Theorem D.6,
h_i, live).  Weights are exact ``Fraction`` object arrays; :func:`forward_exact` evaluates exactly,
:func:`flat_params` / :func:`batched_forward` give the float64 view used by the margin attack, and
:func:`batched_margin_grad` its hand-written reverse-mode gradient (numpy; no autodiff framework).

The all-layer margin rho_F(theta, x, y) = min ||delta||_2 s.t. (y - 1/2) F(x, theta + delta) <= 0
(eq. 2.1, l.87-93) is estimated from above by :func:`min_flip_radius`: a batched projected-gradient
attack with bisection on the radius (every reported radius comes with a perturbation that flips
the sign, so it is a certified *upper* bound on rho).  The attack only needs margins and their
gradients, supplied by the caller's ``margin_fn``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .._checks import require_int, require_memory

__all__ = [
    "GATES",
    "Circuit",
    "ReluNet",
    "batched_forward",
    "batched_margin_grad",
    "compile_relu",
    "evaluate_circuit",
    "flat_params",
    "forward_exact",
    "min_flip_radius",
    "params_formula",
    "random_circuit",
    "round_block",
]

GATES = {"AND": 2, "OR": 2, "NOT": 1, "ID": 1}
_ONE, _ZERO = Fraction(1), Fraction(0)


@dataclass(frozen=True)
class Circuit:
    """A layered circuit: ``layers[i]`` is the tuple of gates ``(type, parents)`` of layer i+1;
    parents index the previous layer (layer 0 = the m inputs).  The last layer has one gate."""

    m: int
    layers: tuple

    def __post_init__(self):
        require_int("m", self.m, min_value=1, max_value=30)
        if not self.layers:
            raise ValueError("argument 'layers' must contain at least one gate layer, not an empty tuple")
        prev = self.m
        for li, layer in enumerate(self.layers):
            if len(layer) == 0:
                raise ValueError(f"argument 'layers': layer {li + 1} has no gates (must have >= 1)")
            for gate in layer:
                kind, parents = gate
                if kind not in GATES:
                    raise ValueError(f"argument 'layers': unknown gate type {kind!r} in layer {li + 1} "
                                     f"(allowed: {', '.join(GATES)})")
                if len(parents) != GATES[kind]:
                    raise ValueError(f"argument 'layers': gate {kind} in layer {li + 1} has {len(parents)} parents, "
                                     f"needs {GATES[kind]}")
                for a in parents:
                    if not (isinstance(a, (int, np.integer)) and 0 <= a < prev):
                        raise ValueError(f"argument 'layers': parent {a!r} of a gate in layer {li + 1} must be an "
                                         f"integer in [0, {prev - 1}]")
            prev = len(layer)
        if len(self.layers[-1]) != 1:
            raise ValueError(f"argument 'layers': the last layer must have exactly 1 gate, not {len(self.layers[-1])}")

    @property
    def depth(self) -> int:
        """q: number of layers, the input layer included."""
        return len(self.layers) + 1

    @property
    def widths(self) -> tuple:
        return (self.m,) + tuple(len(layer) for layer in self.layers)

    @property
    def width(self) -> int:
        """r: the largest layer (inputs included, so r >= m)."""
        return max(self.widths)

    @property
    def size(self) -> int:
        """s: total number of gates."""
        return sum(len(layer) for layer in self.layers)


def random_circuit(rng: np.random.Generator, m: int, q: int, r: int, gates=tuple(GATES)) -> Circuit:
    """A random layered circuit with m inputs, depth q (>= 2) and layer widths <= r; the gate types
    are drawn uniformly from ``gates`` and parents uniformly (with repetition) from the previous layer."""
    m = require_int("m", m, min_value=1, max_value=30)
    q = require_int("q", q, min_value=2, max_value=10_000)
    r = require_int("r", r, min_value=1, max_value=10_000)
    for g in gates:
        if g not in GATES:
            raise ValueError(f"argument 'gates': unknown gate type {g!r} (allowed: {', '.join(GATES)})")
    layers = []
    prev = m
    for i in range(1, q):
        n = 1 if i == q - 1 else int(rng.integers(1, r + 1))
        layer = []
        for _ in range(n):
            kind = gates[int(rng.integers(len(gates)))]
            layer.append((kind, tuple(int(v) for v in rng.integers(0, prev, size=GATES[kind]))))
        layers.append(tuple(layer))
        prev = n
    return Circuit(m, tuple(layers))


def evaluate_circuit(circuit: Circuit, X: np.ndarray) -> np.ndarray:
    """Plain gate-by-gate evaluation on the rows of X (shape (N, m), entries 0/1); returns (N,) ints."""
    X = np.asarray(X)
    if X.ndim != 2 or X.shape[1] != circuit.m:
        raise ValueError(f"argument 'X' must have shape (N, {circuit.m}), not {X.shape}")
    h = X.astype(np.int64)
    for layer in circuit.layers:
        cols = []
        for kind, par in layer:
            if kind == "AND":
                cols.append(h[:, par[0]] & h[:, par[1]])
            elif kind == "OR":
                cols.append(h[:, par[0]] | h[:, par[1]])
            elif kind == "NOT":
                cols.append(1 - h[:, par[0]])
            else:
                cols.append(h[:, par[0]].copy())
        h = np.stack(cols, axis=1)
    return h[:, 0]


@dataclass(frozen=True)
class ReluNet:
    """Affine layers (W, b) with exact Fraction entries; ReLU after every layer but the last.
    ``block_ends`` are the indices of the layers after whose ReLU a block (gate or round) ends;
    ``round_blocks`` flags, per block, whether it is a correction (round) block."""

    layers: tuple
    block_ends: tuple
    round_blocks: tuple

    @property
    def depth(self) -> int:
        return len(self.layers)

    @property
    def width(self) -> int:
        return max(W.shape[0] for W, _ in self.layers[:-1]) if len(self.layers) > 1 else 1

    @property
    def n_params(self) -> int:
        return sum(W.size + b.size for W, b in self.layers)

    def l1_norm(self) -> Fraction:
        return sum((abs(v) for W, b in self.layers for v in list(W.ravel()) + list(b.ravel())), Fraction(0))


def _frac_zeros(rows: int, cols: int | None = None) -> np.ndarray:
    shape = (rows,) if cols is None else (rows, cols)
    out = np.empty(shape, dtype=object)
    out.fill(_ZERO)
    return out


def _gate_block(layer, n_in: int, *, or_outer: bool = True):
    n = len(layer)
    W1, b1, W2, b2 = _frac_zeros(n, n_in), _frac_zeros(n), _frac_zeros(n, n), _frac_zeros(n)
    for j, (kind, par) in enumerate(layer):
        if kind == "AND":
            for a in par:
                W1[j, a] += 1
            b1[j], W2[j, j] = Fraction(-1), _ONE
        elif kind == "OR":
            for a in par:
                W1[j, a] += -1 if or_outer else 1
            if or_outer:
                b1[j], W2[j, j], b2[j] = _ONE, Fraction(-1), _ONE
            else:  # the plausible but wrong relu(x_a + x_b)
                W2[j, j] = _ONE
        elif kind == "NOT":
            W1[j, par[0]] = Fraction(-1)
            b1[j], W2[j, j] = _ONE, _ONE
        else:
            W1[j, par[0]] = _ONE
            W2[j, j] = _ONE
    return [(W1, b1), (W2, b2)]


def round_block(n: int, *, scale: Fraction = Fraction(3)) -> list:
    """The 2-layer correction block of Prop. 3.4 on n coordinates: relu(c*relu(z-1/3) - c*relu(z-2/3)),
    c = ``scale`` (3 in the paper)."""
    n = require_int("n", n, min_value=1, max_value=1_000_000)
    W1, b1 = _frac_zeros(2 * n, n), _frac_zeros(2 * n)
    W2, b2 = _frac_zeros(n, 2 * n), _frac_zeros(n)
    for j in range(n):
        W1[2 * j, j] = W1[2 * j + 1, j] = _ONE
        b1[2 * j], b1[2 * j + 1] = Fraction(-1, 3), Fraction(-2, 3)
        W2[j, 2 * j], W2[j, 2 * j + 1] = Fraction(scale), -Fraction(scale)
    return [(W1, b1), (W2, b2)]


def compile_relu(circuit: Circuit, *, rounding: bool = True, or_outer: bool = True,
                 round_scale: Fraction = Fraction(3)) -> ReluNet:
    """The network of Lemma B.1 (one 2-layer block per circuit layer), with a round block after every
    gate block when ``rounding`` (proof of Thm 3.1), and the output layer z -> 2z - 1.

    ``or_outer=False`` and ``round_scale`` exist only to build the mutants of the claims."""
    if not isinstance(circuit, Circuit):
        raise ValueError(f"argument 'circuit' must be a Circuit, not {type(circuit).__name__}")  # noqa: TRY004
    layers, ends, rounds = [], [], []
    n_in = circuit.m
    for layer in circuit.layers:
        layers += _gate_block(layer, n_in, or_outer=or_outer)
        ends.append(len(layers) - 1)
        rounds.append(False)
        n_in = len(layer)
        if rounding:
            layers += round_block(n_in, scale=round_scale)
            ends.append(len(layers) - 1)
            rounds.append(True)
    W, b = _frac_zeros(1, 1), _frac_zeros(1)
    W[0, 0], b[0] = Fraction(2), Fraction(-1)
    layers.append((W, b))
    return ReluNet(tuple(layers), tuple(ends), tuple(rounds))


def forward_exact(net: ReluNet, X: np.ndarray, *, keep: bool = False):
    """Exact forward pass on the rows of X (0/1 or Fractions).  Returns the outputs (list of
    Fractions); with ``keep`` also the list of block outputs h_i (object arrays, shape (N, n_i))."""
    H = np.asarray(X, dtype=object)
    if H.ndim == 2:
        require_memory("X", f"{H.shape[0]} rows", 64 * H.shape[0] * max(W.shape[0] for W, _ in net.layers),
                       what="exact (Fraction) activations")
    if H.ndim != 2 or H.shape[1] != net.layers[0][0].shape[1]:
        raise ValueError(f"argument 'X' must have shape (N, {net.layers[0][0].shape[1]}), not {np.shape(X)}")
    H = np.vectorize(Fraction, otypes=[object])(H)
    blocks = []
    last = len(net.layers) - 1
    for i, (W, b) in enumerate(net.layers):
        H = H.dot(W.T) + b
        if i < last:
            H = np.where(H > 0, H, _ZERO)
            if i in net.block_ends:
                blocks.append(H)
    out = [v for v in H[:, 0]]
    return (out, blocks) if keep else out


def flat_params(net: ReluNet) -> np.ndarray:
    """All parameters (W then b, layer by layer) as one float64 vector theta."""
    return np.concatenate([np.concatenate([W.astype(float).ravel(), b.astype(float).ravel()]) for W, b in net.layers])


def _layout(net: ReluNet) -> list:
    """(W slice, b slice, out, in) of every affine layer inside the flat vector theta (see flat_params)."""
    out, off = [], 0
    for W, _ in net.layers:
        o, n = W.shape
        out.append((slice(off, off + o * n), slice(off + o * n, off + o * n + o), o, n))
        off += o * n + o
    return out


def _check_batch(net: ReluNet, theta, x):
    theta = np.asarray(theta, dtype=float)
    x = np.asarray(x, dtype=float)
    p, m = sum(W.size + b.size for W, b in net.layers), net.layers[0][0].shape[1]
    if theta.ndim != 2 or theta.shape[1] != p:
        raise ValueError(f"argument 'theta' must have shape (B, {p}), not {theta.shape}")
    if x.shape != (theta.shape[0], m):
        raise ValueError(f"argument 'x' must have shape ({theta.shape[0]}, {m}), not {x.shape}")
    return theta, x


def _forward(net: ReluNet, theta: np.ndarray, x: np.ndarray, *, stop: int | None = None) -> list:
    """[h_0 = x, h_1, ..., h_L]: the inputs of every affine layer and the last layer's output, with
    h_{l+1} = relu(W_l^b h_l + b_l^b) (no ReLU after the last layer); stops after layer ``stop``."""
    hs, h = [x], x
    last = len(net.layers) - 1
    for i, (sw, sb, o, n) in enumerate(_layout(net)):
        h = np.einsum("boi,bi->bo", theta[:, sw].reshape(-1, o, n), h) + theta[:, sb]
        if i < last:
            h = np.maximum(h, 0.0)
        hs.append(h)
        if i == stop:
            break
    return hs


def batched_forward(net: ReluNet, theta, x, *, upto_block: int | None = None) -> np.ndarray:
    """Float64 forward with per-sample parameters: row b of ``theta`` (B, p) (layout of
    :func:`flat_params`) is applied to row b of ``x`` (B, m):  h_0 = x, h_{l+1} = relu(W_l^b h_l + b_l^b)
    (no ReLU after the last layer).  Returns the (B,) outputs, or the (B, n) output of block
    ``upto_block`` (after its ReLU)."""
    theta, x = _check_batch(net, theta, x)
    if upto_block is not None:
        upto_block = require_int("upto_block", upto_block, min_value=0, max_value=len(net.block_ends) - 1)
        return _forward(net, theta, x, stop=net.block_ends[upto_block])[-1]
    return _forward(net, theta, x)[-1][:, 0]


def batched_margin_grad(net: ReluNet, theta, x, sign) -> tuple:
    """Signed outputs m_b = sign_b F(x_b, theta_b) and their gradients dm_b/dtheta_b, shape (B, p).

    Hand-written reverse mode of :func:`batched_forward`: with a_l = W_l h_l + b_l, h_{l+1} = relu(a_l)
    and the adjoint g_l = dm/da_l (g_last = sign):  dm/dW_l = g_l h_l^T, dm/db_l = g_l,
    g_{l-1} = (W_l^T g_l) * 1[a_{l-1} > 0]  (ReLU derivative 0 at the kink, as in the usual convention).
    Tested against central finite differences (tests/kernels/test_circuits.py)."""
    theta, x = _check_batch(net, theta, x)
    sign = np.broadcast_to(np.asarray(sign, dtype=float), (theta.shape[0],))
    lay = _layout(net)
    hs = _forward(net, theta, x)
    grad = np.empty_like(theta)
    g = sign[:, None].copy()
    for i in range(len(lay) - 1, -1, -1):
        sw, sb, o, n = lay[i]
        h_in = hs[i]
        grad[:, sw] = (g[:, :, None] * h_in[:, None, :]).reshape(-1, o * n)
        grad[:, sb] = g
        if i > 0:
            g = np.einsum("boi,bo->bi", theta[:, sw].reshape(-1, o, n), g) * (h_in > 0)
    return sign * hs[-1][:, 0], grad


def min_flip_radius(margin_fn, theta0: np.ndarray, n: int, *, rng: np.random.Generator, restarts: int = 4,
                    steps: int = 40, bisections: int = 14, r_max: float = 4.0, starts=None):
    """Smallest radius r (per sample) at which an attack finds delta, ||delta||_2 <= r, with
    margin_fn(theta0 + delta) <= 0.

    ``margin_fn(theta)`` maps a (B, p) float64 array to the pair (m, g): the (B,) signed margins
    m_b = (y - 1/2) F(x_b, theta_b) for the n samples, each repeated ``restarts`` times (B = n * restarts,
    sample-major), and their gradients g = dm_b/dtheta_b, shape (B, p) (e.g. :func:`batched_margin_grad`;
    a wrong gradient only weakens the attack, never the certificate).  Method: for a radius r, projected
    gradient descent on the margin over the ball ||delta|| <= r (normalised gradient steps of size r/2
    decaying linearly to 0; one start on the sphere of radius r, the others at random radii in
    [0.3 r, r]); bisection on r in [0, r_max] per sample.  Returns (radius (n,), delta (n, p)) with
    radius = inf where no flip was found at r_max.  Each finite radius is certified by its delta
    (re-evaluated at the end), so it is an upper bound on the all-layer margin rho.  ``starts`` (k, p),
    k <= restarts, optionally fixes the directions of the first k starts (scaled to the sphere of
    radius r), e.g. coordinate axes.  Random starts come from a numpy stream seeded by ``rng``, so the
    result is reproducible bit for bit."""
    n = require_int("n", n, min_value=1, max_value=10_000_000)
    restarts = require_int("restarts", restarts, min_value=1, max_value=1000)
    steps = require_int("steps", steps, min_value=1, max_value=100_000)
    bisections = require_int("bisections", bisections, min_value=0, max_value=200)
    if not (np.isfinite(r_max) and r_max > 0):
        raise ValueError(f"argument 'r_max' must be a finite positive number, not {r_max!r}")
    theta0 = np.asarray(theta0, dtype=float).ravel()
    p = theta0.size
    B = n * restarts
    require_memory("n", f"{n} samples x {restarts} restarts x {p} parameters", 8 * 6 * B * p, what="attack buffers")
    S = None
    if starts is not None:
        S = np.asarray(starts, dtype=float)
        if S.ndim != 2 or S.shape[1] != p or S.shape[0] > restarts:
            raise ValueError(f"argument 'starts' must have shape (k, {p}) with k <= restarts = {restarts}, "
                             f"not {S.shape}")
    gen = np.random.default_rng(int(rng.integers(2**62)))

    def evaluate(theta):
        m, g = margin_fn(theta)
        m, g = np.asarray(m, dtype=float), np.asarray(g, dtype=float)
        if m.shape != (theta.shape[0],) or g.shape != theta.shape:
            raise ValueError(f"argument 'margin_fn' must return margins of shape ({theta.shape[0]},) and gradients "
                             f"of shape {theta.shape}, not {m.shape} and {g.shape}")
        return m, g

    def keep_better(m, d, best_m, best_d):  # per start, the lower margin and its delta
        better = m < best_m
        return np.where(better, m, best_m), np.where(better[:, None], d, best_d)

    def attack(radius):  # radius: (n,); returns the best (margin, delta) per sample
        rad = np.repeat(radius, restarts)[:, None]
        d = gen.standard_normal((B, p))
        scale = gen.random((B, 1)) * 0.7 + 0.3
        scale[::restarts] = 1.0  # one start per sample on the sphere (escapes flat ReLU plateaus)
        if S is not None:
            for j in range(S.shape[0]):
                d[j::restarts] = S[j]
                scale[j::restarts] = 1.0
        d = d / np.linalg.norm(d, axis=1, keepdims=True) * rad * scale
        best_m = np.full(B, np.inf)
        best_d = d.copy()
        for t in range(steps):
            step = rad * (1.0 - t / steps) * 0.5  # linearly decaying step: converges on smooth problems
            m, g = evaluate(theta0 + d)
            best_m, best_d = keep_better(m, d, best_m, best_d)
            d = d - step * g / np.maximum(np.linalg.norm(g, axis=1, keepdims=True), 1e-300)
            nrm = np.linalg.norm(d, axis=1, keepdims=True)
            d = np.where(nrm > rad, d / np.maximum(nrm, 1e-300) * rad, d)
        m, _ = evaluate(theta0 + d)
        best_m, best_d = keep_better(m, d, best_m, best_d)
        bm = best_m.reshape(n, restarts)
        idx = np.arange(n) * restarts + bm.argmin(axis=1)
        return bm.min(axis=1), best_d[idx]

    lo = np.zeros(n)
    hi = np.full(n, float(r_max))
    m_hi, d_hi = attack(hi)
    found = m_hi <= 0
    best = np.where(found[:, None], d_hi, 0.0)
    for _ in range(bisections):
        mid = (lo + hi) / 2
        m_mid, d_mid = attack(mid)
        ok = (m_mid <= 0) & found
        hi = np.where(ok, mid, hi)
        lo = np.where(ok | ~found, lo, mid)
        best = np.where(ok[:, None], d_mid, best)
    # certify: every reported radius is the norm of a perturbation that really flips the sign
    m_final, _ = evaluate(theta0 + np.repeat(best, restarts, axis=0))
    ok = (m_final.reshape(n, restarts)[:, 0] <= 0) & found
    radius = np.where(ok, np.linalg.norm(best, axis=1), np.inf)
    return radius, best


def params_formula(w: int, d: int, m: int) -> int:
    """p for F_{w,d} (l.119-123): W_0 in R^{w x m}, W_i in R^{w x w} (1 <= i <= d-1), W_d in R^{1 x w},
    b_i in R^w (i < d), b_d in R:  p = w m + (d-1) w^2 + w + d w + 1."""
    w = require_int("w", w, min_value=1)
    d = require_int("d", d, min_value=1)
    m = require_int("m", m, min_value=1)
    return w * m + (d - 1) * w * w + w + d * w + 1
