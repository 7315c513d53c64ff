"""The spec-level RCNN grid of seed 003 (Goel, Kakade, Kalai, Zhang, "Recurrent Convolutional Neural Networks
Learn Succinct Learning Algorithms", Appendix B.1-B.3): the layer spec f_Conv2D with its numba kernel and the
reference twin on Fractions, the roll-out and its decoding, the memory layer, the head and Algorithm 1 at
spec level.  The plain 2D Turing machines are in kernels.constructions.tm2d.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
import numba as nb
import numpy as np
from .. import _checks
from .tm2d import (
    _MAX_SCALED,
    CellEncoding,
    DOWN,
    FLAG_DOWN,
    FLAG_LEFT,
    FLAG_RIGHT,
    FLAG_UP,
    LEFT,
    Machine2D,
    machine_from_tables,
    n_digits_for,
    NotDifferentiable,
    NotRepresentable,
    RIGHT,
    STAY,
    UP,
    zigzag,
)

__all__ = [
    "Algorithm1Run",
    "LayerSpec",
    "RollOut",
    "algorithm1",
    "conv2d_reference",
    "conv_layer",
    "decode_grid",
    "head_bar",
    "head_bar_slope",
    "head_relu",
    "head_relu_weights",
    "memory_grid",
    "predict",
    "rollout",
]


# ---------------------------------------------------------------------------------------------
# the layer spec
# ---------------------------------------------------------------------------------------------

_PROTOCOLS = ("paper", "two_layer")


@dataclass(frozen=True, eq=False)
class LayerSpec:
    """What f_Conv2D computes: the encoding, the machine, its state codes and the tested variants.

    ``codes``: shape (s,) for the paper protocol (code of state q); shape (s, 6) for the two-layer
    protocol (column 0: settled state q; column 1 + move: q with that move pending).
    ``head_right_state_from``: "right" (corrected) or "above" (printed gamma(x_{-1,0})[0]).
    ``memory_broadcast``: "vertical" (printed case 2) or "four".
    ``compute_broadcast``: "four" (printed case 4) or "vertical".
    ``head_start``: "right" (printed case 3: x_{0,1} = 1 and x_{1,0} = p) or "left" (x_{0,-1} = p and x_{1,0} = p).
    """

    N: int
    machine: Machine2D | None = None
    codes: np.ndarray | None = None
    protocol: str = "paper"
    head_right_state_from: str = "right"
    memory_broadcast: str = "vertical"
    compute_broadcast: str = "four"
    head_start: str = "right"
    _tables: tuple = field(default=(), repr=False)

    def __post_init__(self):
        enc = CellEncoding(self.N)
        if self.protocol not in _PROTOCOLS:
            raise ValueError(f"argument 'protocol' must be one of {_PROTOCOLS}, not {self.protocol!r}")
        for name, value, allowed in (("head_right_state_from", self.head_right_state_from, ("right", "above")),
                                     ("memory_broadcast", self.memory_broadcast, ("vertical", "four")),
                                     ("compute_broadcast", self.compute_broadcast, ("four", "vertical")),
                                     ("head_start", self.head_start, ("right", "left"))):
            if value not in allowed:
                raise ValueError(f"argument '{name}' must be one of {allowed}, not {value!r}")
        m = self.machine
        if m is None:
            m = machine_from_tables(np.zeros((1, 3), np.int64), np.array([[-1, 0, 1]]), np.zeros((1, 3), np.int64))
            codes = np.zeros((1,) if self.protocol == "paper" else (1, 6), np.int64)
            if self.protocol == "two_layer":
                codes = np.array([[zigzag(k) for k in range(6)]], np.int64)
        else:
            if self.protocol == "paper" and m.reads_flags:
                raise ValueError("argument 'machine' reads boundary flags; the paper protocol evaluates gamma on the head cell's value only")
            codes = self.codes
            if codes is None:
                codes = default_codes(m.n_states, self.protocol)
        codes = np.ascontiguousarray(np.asarray(codes, dtype=np.int64))
        want = (m.n_states,) if self.protocol == "paper" else (m.n_states, 6)
        if codes.shape != want:
            raise ValueError(f"argument 'codes' must have shape {want}, not {codes.shape}")
        if len(np.unique(codes)) != codes.size:
            raise ValueError("argument 'codes' must hold distinct state codes")
        if np.abs(codes).max() > enc.max_code:
            raise ValueError(f"argument 'codes' must lie in [-{enc.max_code}, {enc.max_code}] for N = {self.N} "
                             f"(N - 3 state digits); need a larger N, not max |code| = {np.abs(codes).max()}")
        if codes.flat[0] != 0:
            raise ValueError("argument 'codes' must give the start state (settled) the code 0")
        size = 2 * enc.max_code + 1
        lut_q = np.full(size, -1, np.int64)
        lut_d = np.full(size, -1, np.int64)
        if self.protocol == "paper":
            lut_q[codes + enc.max_code] = np.arange(m.n_states)
            lut_d[codes + enc.max_code] = 0
        else:
            for q in range(m.n_states):
                for k in range(6):
                    lut_q[codes[q, k] + enc.max_code] = q
                    lut_d[codes[q, k] + enc.max_code] = k
        object.__setattr__(self, "machine", m)
        object.__setattr__(self, "codes", codes)
        object.__setattr__(self, "_tables", (lut_q, lut_d))

    @property
    def enc(self) -> CellEncoding:
        return CellEncoding(self.N)

    @property
    def variant_flags(self) -> np.ndarray:
        return np.array([
            1 if self.protocol == "two_layer" else 0,
            1 if self.head_right_state_from == "above" else 0,
            1 if self.memory_broadcast == "four" else 0,
            1 if self.compute_broadcast == "vertical" else 0,
            1 if self.head_start == "left" else 0,
        ], dtype=np.int64)

    def settled_code(self, q: int) -> int:
        return int(self.codes[q] if self.protocol == "paper" else self.codes[q, 0])

    def state_of_code(self, code: int) -> tuple[int, int]:
        """(state index, pending slot) of a code; (-1, -1) if the code is unused."""
        lut_q, lut_d = self._tables
        i = int(code) + self.enc.max_code
        return int(lut_q[i]), int(lut_d[i])


def default_codes(n_states: int, protocol: str = "paper") -> np.ndarray:
    """Codes 0, 1, -1, 2, -2, ... in state order (two-layer: six codes per state)."""
    if protocol == "paper":
        return np.array([zigzag(k) for k in range(n_states)], np.int64)
    return np.array([[zigzag(6 * q + k) for k in range(6)] for q in range(n_states)], np.int64)


def spec_for(machine: Machine2D | None, protocol: str = "paper", **variants) -> LayerSpec:
    """A LayerSpec with the smallest N >= ceil(log2 s) + 4 that holds the machine's codes."""
    s = 1 if machine is None else machine.n_states
    need = s if protocol == "paper" else 6 * s
    N = n_digits_for(s)
    while 3 ** (N - 3) < need:
        N += 1
    return LayerSpec(N, machine, None, protocol, **variants)


# ---- numba kernel --------------------------------------------------------------------------------


@nb.njit(cache=True)
def _decode(A, M, half):  # pragma: no cover - compiled
    """(valid, d0, d1, d2, d3, code) of a scaled value; M = 3^(N-3), half = (M - 1) / 2."""
    if A % 2 != 0:
        return False, 0, 0, 0, 0, 0
    u = A // 2
    r = u % M
    if r > half:
        r -= M
    hi = (u - r) // M
    d = np.zeros(4, np.int64)
    for k in range(4):
        t = hi % 3
        if t == 2:
            t = -1
        d[3 - k] = t
        hi = (hi - t) // 3
    if hi != 0:
        return False, 0, 0, 0, 0, 0
    return True, d[0], d[1], d[2], d[3], r


@nb.njit(cache=True)
def _layer(G, out, cg, N, variants, lut_q, lut_d, codes, ns_t, wr_t, mv_t):  # pragma: no cover - compiled
    R, C = G.shape
    M = 3 ** (N - 3)
    half = (M - 1) // 2
    P = 3 ** (N - 1)
    ONE = 2 * 3**N
    THIRD = 2 * 3 ** (N - 1)
    NINTH = 2 * 3 ** (N - 2)
    T27 = 2 * 3 ** (N - 3)
    INVALID = P + 2
    two_layer = variants[0] == 1
    typo = variants[1] == 1
    mem4 = variants[2] == 1
    comp_vert = variants[3] == 1
    start_left = variants[4] == 1
    for r in range(R):
        for c in range(C):
            x = G[r, c]
            up = G[r - 1, c] if r > 0 else P
            dn = G[r + 1, c] if r < R - 1 else P
            lf = G[r, c - 1] if c > 0 else P
            rt = G[r, c + 1] if c < C - 1 else P
            vx, _x0, x1, x2, x3, xq = _decode(x, M, half)
            g = 0
            o = x
            if not vx:
                o = x
            elif x2 == -1:
                o = x
                g = 1
            elif x2 == 0:
                vu, _u0, u1, u2, u3, uq = _decode(up, M, half)
                vd, _e0, e1, e2, e3, eq = _decode(dn, M, half)
                vl, _l0, l1, l2, l3, lq = _decode(lf, M, half)
                vr, _r0, r1, r2, r3, rq = _decode(rt, M, half)
                if x == 0 and (up == P or (vu and u1 != 0)):
                    o = -NINTH
                    g = 1
                elif (vu and u2 == -1) or (vd and e2 == -1) or (mem4 and ((vl and l2 == -1) or (vr and r2 == -1))):
                    o = -NINTH
                elif x1 != 0 and dn == P and ((not start_left and rt == ONE) or (start_left and lf == P)):
                    o = x + NINTH + T27
                elif (vu and u2 == 1) or (vd and e2 == 1) or ((not comp_vert) and ((vl and l2 == 1) or (vr and r2 == 1))):
                    o = x + NINTH
                else:
                    o = x
            else:  # compute phase
                vu, _u0, u1, u2, u3, uq = _decode(up, M, half)
                vd, _e0, e1, e2, e3, eq = _decode(dn, M, half)
                vl, _l0, l1, l2, l3, lq = _decode(lf, M, half)
                vr, _r0, r1, r2, r3, rq = _decode(rt, M, half)
                if not two_layer:
                    if x3 == 1:
                        q = lut_q[xq + half]
                        if q < 0:
                            o = INVALID
                        else:
                            q2 = ns_t[q, x1 + 1, 0]
                            o = wr_t[q, x1 + 1, 0] * THIRD + NINTH
                            if mv_t[q, x1 + 1, 0] == 0:
                                o += T27 + 2 * codes[q2]
                    elif vd and e3 == 1:
                        q = lut_q[eq + half]
                        if q < 0:
                            o = INVALID
                        elif mv_t[q, e1 + 1, 0] == 1:
                            o = x + T27 + 2 * codes[ns_t[q, e1 + 1, 0]]
                    elif vu and u3 == 1:
                        q = lut_q[uq + half]
                        if q < 0:
                            o = INVALID
                        elif mv_t[q, u1 + 1, 0] == 2:
                            o = x + T27 + 2 * codes[ns_t[q, u1 + 1, 0]]
                    elif vr and r3 == 1:
                        q = lut_q[rq + half]
                        if q < 0:
                            o = INVALID
                        elif mv_t[q, r1 + 1, 0] == 3:
                            if typo:
                                qa = lut_q[uq + half] if vu else -1
                                if qa < 0:
                                    o = INVALID
                                else:
                                    o = x + T27 + 2 * codes[ns_t[qa, u1 + 1, 0]]
                            else:
                                o = x + T27 + 2 * codes[ns_t[q, r1 + 1, 0]]
                    elif vl and l3 == 1:
                        q = lut_q[lq + half]
                        if q < 0:
                            o = INVALID
                        elif mv_t[q, l1 + 1, 0] == 4:
                            o = x + T27 + 2 * codes[ns_t[q, l1 + 1, 0]]
                else:
                    # two-layer protocol: codes is (s, 6) flattened row-major
                    if x3 == 1:
                        q = lut_q[xq + half]
                        k = lut_d[xq + half]
                        if q < 0:
                            o = INVALID
                        elif k == 0:
                            fl = 0
                            if up == P:
                                fl |= 1
                            if dn == P:
                                fl |= 2
                            if lf == P:
                                fl |= 4
                            if rt == P:
                                fl |= 8
                            q2 = ns_t[q, x1 + 1, fl]
                            o = wr_t[q, x1 + 1, fl] * THIRD + NINTH + T27 + 2 * codes[q2 * 6 + 1 + mv_t[q, x1 + 1, fl]]
                        elif k == 1:
                            o = x - 2 * xq + 2 * codes[q * 6]
                        else:
                            o = x - T27 - 2 * xq
                    elif vd and e3 == 1:
                        q = lut_q[eq + half]
                        if q >= 0 and lut_d[eq + half] == 2:
                            o = x + T27 + 2 * codes[q * 6]
                    elif vu and u3 == 1:
                        q = lut_q[uq + half]
                        if q >= 0 and lut_d[uq + half] == 3:
                            o = x + T27 + 2 * codes[q * 6]
                    elif vr and r3 == 1:
                        q = lut_q[rq + half]
                        if q >= 0 and lut_d[rq + half] == 4:
                            o = x + T27 + 2 * codes[q * 6]
                    elif vl and l3 == 1:
                        q = lut_q[lq + half]
                        if q >= 0 and lut_d[lq + half] == 5:
                            o = x + T27 + 2 * codes[q * 6]
            out[r, c] = o
            cg[r, c] = g


@nb.njit(cache=True)
def _rollout(G0, layers, keep, N, variants, lut_q, lut_d, codes, ns_t, wr_t, mv_t):  # pragma: no cover - compiled
    R, C = G0.shape
    hist = np.empty((layers + 1 if keep else 1, R, C), np.int64)
    hist[0] = G0
    cur = G0.copy()
    nxt = np.empty_like(G0)
    cg = np.empty((R, C), np.int8)
    gp = np.ones((R, C), np.int64)
    for k in range(layers):
        _layer(cur, nxt, cg, N, variants, lut_q, lut_d, codes, ns_t, wr_t, mv_t)
        for i in range(R):
            for j in range(C):
                gp[i, j] *= cg[i, j]
        cur, nxt = nxt, cur
        if keep:
            hist[k + 1] = cur
    if not keep:
        hist[0] = cur
    return hist, gp


def _kernel_args(spec: LayerSpec):
    lut_q, lut_d = spec._tables
    m = spec.machine
    return (np.int64(spec.N), spec.variant_flags, lut_q, lut_d, np.ascontiguousarray(spec.codes.ravel()),
            m.next_state, m.write, m.move)


def _check_grid(grid, spec: LayerSpec) -> np.ndarray:
    G = np.asarray(grid)
    if G.ndim != 2 or G.size == 0:
        raise ValueError(f"argument 'grid' must be a non-empty 2D array of scaled values, not shape {G.shape}")
    if G.dtype.kind not in "iu":
        raise ValueError(f"argument 'grid' must hold integers (values scaled by 2*3^N), not dtype {G.dtype}")
    G = np.ascontiguousarray(G, dtype=np.int64)
    if G.size and np.abs(G).max() > _MAX_SCALED:
        raise NotRepresentable(f"argument 'grid' must hold scaled values in [-2^60, 2^60] (no int64 overflow), "
                               f"not max {np.abs(G).max()}")
    return G


# ---- the reference twin: the printed case lists on Fractions ----------------------------------


def conv2d_reference(patch, spec: LayerSpec) -> tuple[Fraction, tuple[tuple[int, ...], ...]]:
    """f_Conv2D and its gradient spec on one 3x3 patch of Fractions (padding = Fraction(1, 6)).

    Returns (value, grad) with grad the 3x3 matrix of partial derivatives by the gradient spec.
    The value ``INVALID`` (scaled) is returned as Fraction(INVALID, 2*3^N).
    """
    enc = spec.enc
    S = enc.scale
    p = Fraction(1, 6)
    X = [[Fraction(v) for v in row] for row in patch]
    if len(X) != 3 or any(len(row) != 3 for row in X):
        raise ValueError("argument 'patch' must be 3 x 3")

    def dig(v):
        if v == p:
            return None
        try:
            return enc.digits(enc.to_scaled(v))
        except NotRepresentable:
            return None

    def val(v, i):
        d = dig(v)
        return None if d is None else d[i]

    def state(v):
        d = dig(v)
        return None if d is None else sum(d[j] * 3 ** (enc.N - j) for j in range(4, enc.N + 1))

    invalid = Fraction(enc.invalid, S)
    third, ninth, t27 = Fraction(1, 3), Fraction(1, 9), Fraction(1, 27)
    x = X[1][1]
    up, dn, lf, rt = X[0][1], X[2][1], X[1][0], X[1][2]
    m = spec.machine
    zero_grad = ((0, 0, 0), (0, 0, 0), (0, 0, 0))
    one_grad = ((0, 0, 0), (0, 1, 0), (0, 0, 0))
    phase = val(x, 2)

    def gamma(v, flags=0):
        """(q', a', move, pending) from the head value v; None if undefined."""
        code = state(v)
        if code is None or abs(code) > enc.max_code:
            return None
        q, k = spec.state_of_code(code)
        if q < 0:
            return None
        a = val(v, 1)
        return (*m.delta(q, a, flags), k)

    def state_term(q, k=0):
        c = spec.codes[q] if spec.protocol == "paper" else spec.codes[q, k]
        return Fraction(int(c), 3**enc.N)

    if phase is None:
        return x, zero_grad
    if phase == -1:
        return x, one_grad
    if phase == 0:
        if x == 0 and (up == p or (val(up, 1) not in (None, 0))):
            return -ninth, one_grad
        horiz = spec.memory_broadcast == "four" and (val(lf, 2) == -1 or val(rt, 2) == -1)
        if val(up, 2) == -1 or val(dn, 2) == -1 or horiz:
            return -ninth, zero_grad
        start = (rt == 1) if spec.head_start == "right" else (lf == p)
        if val(x, 1) != 0 and start and dn == p:
            return x + ninth + t27, zero_grad
        nb4 = [up, dn] + ([lf, rt] if spec.compute_broadcast == "four" else [])
        if any(val(v, 2) == 1 for v in nb4):
            return x + ninth, zero_grad
        return x, zero_grad
    # compute phase
    if spec.protocol == "paper":
        if val(x, 3) == 1:
            g = gamma(x)
            if g is None:
                return invalid, zero_grad
            q2, a2, mv, _ = g
            return a2 * third + ninth + ((t27 + state_term(q2)) if mv == STAY else 0), zero_grad
        for nbv, want in ((dn, UP), (up, DOWN), (rt, LEFT), (lf, RIGHT)):
            if val(nbv, 3) == 1:
                g = gamma(nbv)
                if g is None:
                    return invalid, zero_grad
                if g[2] != want:
                    return x, zero_grad
                src = g
                if want == LEFT and spec.head_right_state_from == "above":
                    src = gamma(up)
                    if src is None:
                        return invalid, zero_grad
                return x + t27 + state_term(src[0]), zero_grad
        return x, zero_grad
    # two-layer protocol
    if val(x, 3) == 1:
        flags = (FLAG_UP if up == p else 0) | (FLAG_DOWN if dn == p else 0) | (FLAG_LEFT if lf == p else 0) | (FLAG_RIGHT if rt == p else 0)
        g = gamma(x, flags)
        if g is None:
            return invalid, zero_grad
        q2, a2, mv, k = g
        code = state(x)
        q, _ = spec.state_of_code(code)
        if k == 0:
            return a2 * third + ninth + t27 + state_term(q2, 1 + mv), zero_grad
        if k == 1:
            return x - Fraction(code, 3**enc.N) + state_term(q, 0), zero_grad
        return x - t27 - Fraction(code, 3**enc.N), zero_grad
    for nbv, want in ((dn, UP), (up, DOWN), (rt, LEFT), (lf, RIGHT)):
        if val(nbv, 3) == 1:
            code = state(nbv)
            q, k = spec.state_of_code(code) if code is not None and abs(code) <= enc.max_code else (-1, -1)
            if q >= 0 and k == 1 + want:
                return x + t27 + state_term(q, 0), zero_grad
            return x, zero_grad
    return x, zero_grad


def conv_layer(grid, spec: LayerSpec, *, backend: str = "cpu") -> tuple[np.ndarray, np.ndarray]:
    """One application of f_Conv2D to every cell (padding p): (new scaled grid, centre gradients 0/1)."""
    G = _check_grid(grid, spec)
    if backend == "reference":
        enc = spec.enc
        R, C = G.shape
        p = Fraction(1, 6)
        F = [[enc.from_scaled(v) for v in row] for row in G]
        out = np.empty_like(G)
        cg = np.empty((R, C), np.int8)
        for r in range(R):
            for c in range(C):
                patch = [[(F[r + i][c + j] if 0 <= r + i < R and 0 <= c + j < C else p) for j in (-1, 0, 1)] for i in (-1, 0, 1)]
                v, g = conv2d_reference(patch, spec)
                out[r, c] = enc.to_scaled(v)
                cg[r, c] = g[1][1]
        return out, cg
    if backend != "cpu":
        raise ValueError(f"argument 'backend' must be 'reference' or 'cpu', not {backend!r}")
    out = np.empty_like(G)
    cg = np.empty(G.shape, np.int8)
    _layer(G, out, cg, *_kernel_args(spec))
    return out, cg


@dataclass(frozen=True)
class RollOut:
    """grids[k] = the grid after k layers (only the final one unless ``keep``); ``grad`` the product of
    the centre gradients over the layers (the diagonal of the Jacobian of the roll-out)."""

    grids: np.ndarray
    grad: np.ndarray

    @property
    def final(self) -> np.ndarray:
        return self.grids[-1]


def rollout(grid, spec: LayerSpec, layers: int, *, keep: bool = False) -> RollOut:
    """``layers`` applications of f_Conv2D with shared weights (the recurrent convolution)."""
    G = _check_grid(grid, spec)
    layers = _checks.require_int("layers", layers, min_value=0, max_value=10**6)
    hist, gp = _rollout(G, np.int64(layers), bool(keep), *_kernel_args(spec))
    return RollOut(hist, gp)


def decode_grid(grid, spec: LayerSpec) -> dict:
    """Symbols (digit 1), phases (digit 2; 9 where not a code), head cells and the head's state."""
    enc = spec.enc
    G = np.asarray(grid)
    R, C = G.shape
    sym = np.zeros((R, C), np.int8)
    phase = np.full((R, C), 9, np.int8)
    heads = []
    invalid = []
    if G.dtype.kind in "iu":
        # decode each distinct value once (a grid holds few), then place them; heads and invalid cells are
        # listed in row-major order as by the cell loop below
        vals, inv = np.unique(G, return_inverse=True)
        inv = inv.reshape(R, C)
        ds = [enc.digits(int(v)) for v in vals]
        lut_sym = np.array([d[1] if d is not None else 0 for d in ds], np.int8)
        lut_phase = np.array([d[2] if d is not None else 9 for d in ds], np.int8)
        sym[:] = lut_sym[inv]
        phase[:] = lut_phase[inv]
        special = np.array([d is None or d[3] != 0 for d in ds], bool)
        for r, c in zip(*np.nonzero(special[inv])):
            r, c = int(r), int(c)
            d = ds[inv[r, c]]
            if d is None:
                invalid.append((r, c))
            elif d[3] == 1:
                code = sum(d[j] * 3 ** (enc.N - j) for j in range(4, enc.N + 1))
                q, k = spec.state_of_code(code)
                heads.append((r, c, q, k))
            else:
                invalid.append((r, c))
        return {"symbols": sym, "phase": phase, "heads": heads, "invalid": invalid}
    for r in range(R):
        for c in range(C):
            d = enc.digits(int(G[r, c]))
            if d is None:
                invalid.append((r, c))
                continue
            sym[r, c], phase[r, c] = d[1], d[2]
            if d[3] == 1:
                code = sum(d[j] * 3 ** (enc.N - j) for j in range(4, enc.N + 1))
                q, k = spec.state_of_code(code)
                heads.append((r, c, q, k))
            elif d[3] != 0:
                invalid.append((r, c))
    return {"symbols": sym, "phase": phase, "heads": heads, "invalid": invalid}


# ---------------------------------------------------------------------------------------------
# memory layer, head, Algorithm 1 at spec level
# ---------------------------------------------------------------------------------------------


def memory_grid(W, z, l: int, enc: CellEncoding) -> np.ndarray:
    """f_mem(z; W) = [W diag(z), 1_{rows x l}] as a scaled integer grid (exact)."""
    W = np.asarray(W, dtype=object)
    if W.ndim != 2:
        raise ValueError(f"argument 'W' must be a matrix, not shape {W.shape}")
    z = list(z)
    if len(z) != W.shape[1]:
        raise ValueError(f"argument 'z' must have length {W.shape[1]} (columns of W), not {len(z)}")
    l = _checks.require_int("l", l, min_value=0, max_value=10**6)
    R, D = W.shape
    G = np.empty((R, D + l), np.int64)
    for a in range(R):
        for b in range(D):
            v = enc.to_scaled(Fraction(W[a, b]) * Fraction(z[b]))
            if abs(v) > _MAX_SCALED:
                raise NotRepresentable(f"value W[{a},{b}] z[{b}] = {Fraction(W[a, b]) * Fraction(z[b])} is too large for the scaled grid")
            G[a, b] = v
    G[:, D:] = enc.scale
    return G


_KNOTS = (Fraction(-1, 6), Fraction(0), Fraction(1, 9), Fraction(1, 6))
_MINUS_SIXTH, _NINTH, _SIXTH = Fraction(-1, 6), Fraction(1, 9), Fraction(1, 6)
_MINUS_ONE, _ONE, _ZERO = Fraction(-1), Fraction(1), Fraction(0)


def head_bar(x, *, slope: Fraction = Fraction(18), printed: bool = False) -> Fraction:
    """f_head-bar of B.2 (l.512) with the given slope.

    ``printed=True`` follows the case split literally: the middle pieces are open intervals, so
    x = 0 and x = 1/9 fall under "otherwise" and give 1.  ``printed=False`` is the continuous
    piecewise-linear function through the same pieces (value 2 at 0 and 0 at 1/9 for slope 18).
    """
    # the constants are module-level Fractions (immutable; building them per call was most of the cost)
    x = x if type(x) is Fraction else Fraction(x)
    s = slope if type(slope) is Fraction else Fraction(slope)
    if x <= _MINUS_SIXTH:
        return _MINUS_ONE
    if _MINUS_SIXTH < x < 0:
        return s * (x + _NINTH)
    if 0 < x < _NINTH:
        return -s * (x - _NINTH)
    if _NINTH < x < _SIXTH:
        return s * (x - _NINTH)
    if printed or x >= _SIXTH:
        return _ONE
    # the continuous extension at the knots 0 and 1/9
    return s * _NINTH if x == 0 else _ZERO


def head_bar_slope(x, *, slope: Fraction = Fraction(18), printed: bool = False) -> Fraction:
    """Derivative of head_bar; raises NotDifferentiable at a knot."""
    x = Fraction(x)
    if x in _KNOTS:
        raise NotDifferentiable(f"f_head has a knot at {x}")
    s = Fraction(slope)
    if x < Fraction(-1, 6) or x > Fraction(1, 6):
        return Fraction(0)
    if x < 0:
        return s
    if x < Fraction(1, 9):
        return -s
    return s


def head_relu_weights(slope: Fraction = Fraction(18)) -> dict:
    """f_head(z) = U1 sigma(U2 z + b2) + b1 with 4 ReLUs (knots -1/6, 0, 1/9, 1/6), scalar z.

    Shapes: U2 (4, 1), b2 (4,), U1 (1, 4), b1 (1,) -- i.e. U2 in R^{d_head x 1}, U1 in R^{1 x d_head}.
    """
    s = Fraction(slope)
    U2 = [[Fraction(1)] for _ in range(4)]
    b2 = [-k for k in _KNOTS]
    U1 = [[s, -2 * s, 2 * s, -s]]
    b1 = [Fraction(-1)]
    return {"U2": U2, "b2": b2, "U1": U1, "b1": b1}


def head_relu(x, weights: dict) -> Fraction:
    """Evaluate the one-hidden-layer ReLU head exactly."""
    x = Fraction(x)
    h = [max(Fraction(0), row[0] * x + b) for row, b in zip(weights["U2"], weights["b2"])]
    return sum((u * v for u, v in zip(weights["U1"][0], h)), Fraction(0)) + weights["b1"][0]


def _forward(W, z, spec: LayerSpec, l: int, readout: Sequence[int], head: dict):
    enc = spec.enc
    G = memory_grid(W, z, l, enc)
    ro = rollout(G, spec, l)
    out = ro.final
    R, D = np.asarray(W, dtype=object).shape
    f = Fraction(0)
    dfdX = {}
    for a in range(R):
        for b in readout:
            v = enc.from_scaled(int(out[a, b]))
            f += head_bar(v, slope=head["slope"], printed=head["printed"])
            if b < D and ro.grad[a, b] != 0:
                dfdX[(a, b)] = head_bar_slope(v, slope=head["slope"], printed=head["printed"]) * int(ro.grad[a, b])
    return f, dfdX, out


@dataclass(frozen=True)
class Algorithm1Run:
    """W[i] = W^{(i+1)} (W[0] the initialisation); outputs[i] = f on example i before its update."""

    W: list
    outputs: list
    error: str | None = None


def algorithm1(X_train, y_train, spec: LayerSpec, l: int, *, eta=Fraction(1, 54), readout: Sequence[int] | None = None,
               slope=Fraction(18), printed_head: bool = False, dummy: bool = True, init: str = "zero",
               stop_when=None) -> Algorithm1Run:
    """Algorithm 1 at spec level: plain SGD on W only, squared loss, one pass plus the dummy (1_d, 1).

    Exact (Fractions for W, scaled integers for the grid).  ``readout`` lists the grid columns summed by
    the head (default: the d+1 data columns).  ``stop_when(i, W)`` may stop the pass early (it returns
    True); a non-representable grid or a gradient at a head knot ends the run with ``error`` set.
    """
    X_train = [list(map(int, x)) for x in X_train]
    y_train = [int(y) for y in y_train]
    if len(X_train) != len(y_train) or not X_train:
        raise ValueError("arguments 'X_train' and 'y_train' must be non-empty and of one length")
    d = len(X_train[0])
    m = len(X_train)
    R, D = m + 1, d + 1
    readout = list(range(D)) if readout is None else list(readout)
    if init not in ("zero", "ones"):
        raise ValueError(f"argument 'init' must be 'zero' or 'ones', not {init!r}")
    W = np.full((R, D), Fraction(0 if init == "zero" else 1), dtype=object)
    examples = list(zip(X_train, y_train)) + ([([1] * d, 1)] if dummy else [])
    hist = [W.copy()]
    outs = []
    head = {"slope": Fraction(slope), "printed": printed_head}
    eta = Fraction(eta)
    for i, (x, y) in enumerate(examples):
        z = x + [1]
        try:
            f, dfdX, _ = _forward(W, z, spec, l, readout, head)
        except (NotRepresentable, NotDifferentiable) as exc:
            return Algorithm1Run(hist, outs, f"example {i + 1}: {exc}")
        outs.append(f)
        # d loss / dW_ab = -(y - f) * df/dX_ab * z_b  (X = W diag(z))
        for (a, b), gx in dfdX.items():
            W[a, b] = W[a, b] + eta * (y - f) * gx * z[b]
        hist.append(W.copy())
        if stop_when is not None and stop_when(i, W):
            break
    return Algorithm1Run(hist, outs)


def predict(W, x, spec: LayerSpec, l: int, *, readout: Sequence[int] | None = None, slope=Fraction(18),
            printed_head: bool = False) -> Fraction:
    """f([x; 1]; W) at spec level."""
    W = np.asarray(W, dtype=object)
    readout = list(range(W.shape[1])) if readout is None else list(readout)
    f, _, _ = _forward(W, list(map(int, x)) + [1], spec, l, readout, {"slope": Fraction(slope), "printed": printed_head})
    return f


def bits_for_trits(n_trits: int) -> float:
    """Bits carried by n balanced-ternary digits: n log2 3."""
    return n_trits * math.log2(3)
