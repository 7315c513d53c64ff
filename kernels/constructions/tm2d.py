"""Plain 2D Turing machines and the spec-level RCNN grid of seed 003 (Goel, Kakade, Kalai, Zhang,
"Recurrent Convolutional Neural Networks Learn Succinct Learning Algorithms", Appendix B.1-B.3).

Three pieces, kept independent so that one can be checked against another:

1. **A plain 2D Turing machine simulator** (Definition 6 with the modifications of B.1.2): tape symbols
   {-1, 0 (blank), 1} on an R x C grid, states 0..s-1 with 0 the start state, moves
   STAY (x), UP, DOWN, LEFT, RIGHT.  The transition tables have shape (s, 3, 16): state, symbol + 1,
   and a 4-bit mask of which neighbours of the head cell lie outside the grid (bit 0 up, 1 down,
   2 left, 3 right).  The paper's machines read (state, symbol) only (``reads_flags`` False: the
   tables are constant along the last axis); flag-reading machines are the boundary-aware extension.
   Moving off the grid loses the head (the RCNN's padding cells are never updated), after which the
   tape is frozen.

2. **The base-3 cell encoding** (B.1.1): a cell value is a = sum_{i=0}^{N} a(i) 3^{-i}, a(i) in
   {-1, 0, 1}; digit 0 = "ones/padding" flag, 1 = tape symbol, 2 = phase (-1 memorise, 0 unknown,
   1 compute), 3 = head, 4..N = state code.  Values are stored exactly as integers scaled by
   S = 2 * 3^N: a code is an even integer, the padding p = 1/6 is the odd integer 3^(N-1), so p is
   never a code (p = 0.0111..._3 is a tie of two infinite balanced-ternary expansions).  A state
   code is the integer c = sum_{j=4}^{N} a(j) 3^(N-j), so state(a) = c 3^{-(N-4)} in the paper's
   normalisation and the term gamma[0] 3^{-4} of f_TM is c 3^{-N} (scaled: 2c).  The start state
   has code 0 (the paper's "0 being the start state"; its printed code set with digits in {-1, 1}
   does not contain 0, so digits in {-1, 0, 1} are used).

3. **The RCNN layer spec** f_Conv2D of B.2 (three modes by the phase digit of the centre: f_msg,
   f_TM, identity) with its gradient spec (only the centre cell, slope 0 or 1), the memory layer
   f_mem(z; W) = [W diag(z), 1], the head f_head and Algorithm 1's SGD on W at spec level.  Every
   case list is evaluated as if/elif in the printed order.  Conditions on val(x, i) are false when
   x is not a code (the padding p, or a corrupted value): val is undefined there.  A transition
   gamma that must be evaluated on an undefined input (only the printed typo of the "head on the
   right" case can do that) yields the marker ``INVALID`` (an odd scaled value != p).

   ``LayerSpec`` carries the variants used to test alternatives (the printed typo
   gamma(x_{-1,0})[0] in the "head on the right" case, horizontal broadcasts, the bottom-left head
   start) and two protocols: ``"paper"`` (one TM step per layer, gamma reads the head cell only) and
   ``"two_layer"`` (boundary-aware: the head cell decides with the padding flags of its own 3x3
   patch and records the pending move in its state code; the move completes in the next layer, so
   one TM step takes two layers).  The second protocol exists because a neighbour of the head cannot
   see the head's far neighbours inside a 3x3 patch (see verify/rcnn/grid.py, D6 and B3c).

Twins: ``conv_layer(..., backend="reference")`` evaluates the printed case lists patch by patch on
``fractions.Fraction`` values (the oracle); ``backend="cpu"`` is a serial numba kernel on the scaled
integers (``cache=True``; the grids are small, so no threads).  Both are exact and agree bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numba as nb
import numpy as np

from .. import _checks

__all__ = [
    "DOWN",
    "FLAG_DOWN",
    "FLAG_LEFT",
    "FLAG_RIGHT",
    "FLAG_UP",
    "LEFT",
    "MOVE_NAMES",
    "RIGHT",
    "STAY",
    "UP",
    "Algorithm1Run",
    "CellEncoding",
    "LayerSpec",
    "Machine2D",
    "NotDifferentiable",
    "NotRepresentable",
    "RollOut",
    "Trajectory",
    "algorithm1",
    "compile_fixed_size",
    "conv2d_reference",
    "conv_layer",
    "decode_grid",
    "head_bar",
    "head_bar_slope",
    "head_relu",
    "head_relu_weights",
    "lookup_learner",
    "lookup_machine",
    "machine_from_tables",
    "memory_grid",
    "n_digits_for",
    "predict",
    "random_machine",
    "rollout",
    "simulate",
    "zigzag",
]

STAY, UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3, 4
MOVE_NAMES = ("x", "up", "down", "left", "right")
_DR = (0, -1, 1, 0, 0)
_DC = (0, 0, 0, -1, 1)
FLAG_UP, FLAG_DOWN, FLAG_LEFT, FLAG_RIGHT = 1, 2, 4, 8
_MAX_N = 36  # 2 * 3^37 < 2^63: every scaled value and sum used below fits in int64
_MAX_SCALED = 2**60  # grid values beyond this are refused (sums of a few of them stay below 2^63)


class NotRepresentable(ValueError):
    """A grid value is not on the lattice (1 / (2 * 3^N)) Z of the scaled encoding."""


class NotDifferentiable(ValueError):
    """The head (or a spec function) is evaluated for a gradient at a knot."""


# ---------------------------------------------------------------------------------------------
# plain 2D Turing machines
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Machine2D:
    """Transition tables of a 2D TM: ``next_state``, ``write``, ``move`` of shape (s, 3, 16).

    Index [q, a + 1, flags]; ``write`` in {-1, 0, 1}; ``move`` in {STAY, UP, DOWN, LEFT, RIGHT}.
    State 0 is the start state.
    """

    next_state: np.ndarray
    write: np.ndarray
    move: np.ndarray
    names: tuple = ()

    @property
    def n_states(self) -> int:
        return int(self.next_state.shape[0])

    @property
    def reads_flags(self) -> bool:
        t = (self.next_state, self.write, self.move)
        return any(bool(np.any(a != a[:, :, :1])) for a in t)

    def delta(self, q: int, a: int, flags: int = 0) -> tuple[int, int, int]:
        return int(self.next_state[q, a + 1, flags]), int(self.write[q, a + 1, flags]), int(self.move[q, a + 1, flags])


def machine_from_tables(next_state, write, move, names: Sequence[str] = ()) -> Machine2D:
    """Validate and broadcast (s, 3) or (s, 3, 16) tables into a :class:`Machine2D`."""
    arrs = []
    for name, a in (("next_state", next_state), ("write", write), ("move", move)):
        a = np.asarray(a, dtype=np.int64)
        if a.ndim == 2:
            a = np.repeat(a[:, :, None], 16, axis=2)
        if a.ndim != 3 or a.shape[1:] != (3, 16) or a.shape[0] < 1:
            raise ValueError(f"argument '{name}' must have shape (s, 3) or (s, 3, 16) with s >= 1, not {np.shape(a)}")
        arrs.append(np.ascontiguousarray(a))
    ns, wr, mv = arrs
    if ns.shape != wr.shape or ns.shape != mv.shape:
        raise ValueError(f"arguments 'next_state', 'write', 'move' must have one shape, not {ns.shape}, {wr.shape}, {mv.shape}")
    s = ns.shape[0]
    if ns.min() < 0 or ns.max() >= s:
        raise ValueError(f"argument 'next_state' must lie in [0, {s - 1}], not [{ns.min()}, {ns.max()}]")
    if wr.min() < -1 or wr.max() > 1:
        raise ValueError(f"argument 'write' must lie in [-1, 1], not [{wr.min()}, {wr.max()}]")
    if mv.min() < 0 or mv.max() > 4:
        raise ValueError(f"argument 'move' must lie in [0, 4] (STAY, UP, DOWN, LEFT, RIGHT), not [{mv.min()}, {mv.max()}]")
    return Machine2D(ns, wr, mv, tuple(names))


def random_machine(rng: np.random.Generator, n_states: int, *, first_step_stays: bool = True,
                   reads_flags: bool = False) -> Machine2D:
    """A uniformly random 2D TM with ``n_states`` states.

    With ``first_step_stays`` (modification (iv) of B.1.2) the start state 0 keeps the symbol and does
    not move, whatever it reads; its next state is still random.
    """
    s = _checks.require_int("n_states", n_states, min_value=1, max_value=10_000)
    shape = (s, 3, 16) if reads_flags else (s, 3)
    ns = rng.integers(0, s, size=shape)
    wr = rng.integers(-1, 2, size=shape)
    mv = rng.integers(0, 5, size=shape)
    if first_step_stays:
        sym = np.array([-1, 0, 1]).reshape((3, 1) if reads_flags else (3,))
        wr[0] = np.broadcast_to(sym, wr[0].shape)
        mv[0] = STAY
    return machine_from_tables(ns, wr, mv)


def _flags_at(r: int, c: int, R: int, C: int) -> int:
    return (FLAG_UP if r == 0 else 0) | (FLAG_DOWN if r == R - 1 else 0) | (FLAG_LEFT if c == 0 else 0) | (FLAG_RIGHT if c == C - 1 else 0)


@dataclass(frozen=True)
class Trajectory:
    """tapes[k], heads[k] ((-1, -1) once lost), states[k] after k steps; ``lost_at`` the step the head left."""

    tapes: np.ndarray
    heads: np.ndarray
    states: np.ndarray
    lost_at: int | None


def simulate(machine: Machine2D, tape, head: tuple[int, int], steps: int, *, state: int = 0) -> Trajectory:
    """Run ``steps`` steps of a 2D TM on an R x C symbol grid (plain Python; the independent side)."""
    T = np.array(tape, dtype=np.int8)
    if T.ndim != 2 or T.size == 0:
        raise ValueError(f"argument 'tape' must be a non-empty 2D array, not shape {T.shape}")
    if T.min() < -1 or T.max() > 1:
        raise ValueError("argument 'tape' must hold symbols in {-1, 0, 1}")
    R, C = T.shape
    r, c = int(head[0]), int(head[1])
    if not (0 <= r < R and 0 <= c < C):
        raise ValueError(f"argument 'head' must lie in the {R} x {C} grid, not {head}")
    steps = _checks.require_int("steps", steps, min_value=0, max_value=10**7)
    q = _checks.require_int("state", state, min_value=0, max_value=machine.n_states - 1)
    tapes = np.empty((steps + 1, R, C), dtype=np.int8)
    heads = np.empty((steps + 1, 2), dtype=np.int64)
    states = np.empty(steps + 1, dtype=np.int64)
    tapes[0], heads[0], states[0] = T, (r, c), q
    lost = None
    for k in range(1, steps + 1):
        if lost is None:
            q2, a2, mv = machine.delta(q, int(T[r, c]), _flags_at(r, c, R, C))
            T[r, c] = a2
            q = q2
            r, c = r + _DR[mv], c + _DC[mv]
            if not (0 <= r < R and 0 <= c < C):
                lost, r, c = k, -1, -1
        tapes[k], heads[k], states[k] = T, (r, c), q
    return Trajectory(tapes, heads, states, lost)


def compile_fixed_size(machine: Machine2D, rows: int, cols: int, window: int, start: tuple[int, int]) -> tuple[Machine2D, dict]:
    """A flag-free machine that runs a flag-reading ``machine`` on a rows x cols grid of known size.

    The new state is (q, r, c) for the head position (r, c) inside columns [0, window): the position
    gives the flags, so the paper's (state, symbol) transitions suffice -- at the price of
    s * rows * window + 1 states (the extra one is a sink for leaving the window, which the caller
    must rule out).  State (0, start) is the new start state 0.
    """
    rows = _checks.require_int("rows", rows, min_value=1, max_value=10_000)
    cols = _checks.require_int("cols", cols, min_value=1, max_value=10_000)
    window = _checks.require_int("window", window, min_value=1, max_value=cols)
    r0, c0 = int(start[0]), int(start[1])
    if not (0 <= r0 < rows and 0 <= c0 < window):
        raise ValueError(f"argument 'start' must lie in the {rows} x {window} window, not {start}")
    s = machine.n_states
    order = [(0, r0, c0)] + [(q, r, c) for q in range(s) for r in range(rows) for c in range(window) if (q, r, c) != (0, r0, c0)]
    index = {t: i for i, t in enumerate(order)}
    sink = len(order)
    S2 = sink + 1
    ns = np.full((S2, 3), sink, dtype=np.int64)
    wr = np.zeros((S2, 3), dtype=np.int64)
    mv = np.zeros((S2, 3), dtype=np.int64)
    for (q, r, c), i in index.items():
        fl = _flags_at(r, c, rows, cols)
        for a in (-1, 0, 1):
            q2, a2, m = machine.delta(q, a, fl)
            r2, c2 = r + _DR[m], c + _DC[m]
            wr[i, a + 1], mv[i, a + 1] = a2, m
            ns[i, a + 1] = index.get((q2, r2, c2), sink)
    for a in (-1, 0, 1):
        wr[sink, a + 1] = a
    return machine_from_tables(ns, wr, mv), {"order": order, "sink": sink}


# ---------------------------------------------------------------------------------------------
# the lookup learner as a boundary-aware 2D TM
# ---------------------------------------------------------------------------------------------

_LOOKUP_STATES = ("start", "up", "left", "read_first", "scan+", "scan-", "scan_x", "nend", "nleft",
                  "end+", "eleft+", "erase+", "gotop+", "goleft+", "halt",
                  "end-", "eleft-", "erase-", "gotop-", "goleft-")


def lookup_machine() -> Machine2D:
    """The lookup learner on the XOR block, as a 20-state flag-reading 2D TM.

    From the start cell (m+1, d+1) it climbs to the top-left corner (flags), then scans the rows of
    the XOR block top-down, erasing them: row i (entries (1/3) y_i x_i(j) x(j) and (1/3) y_i) is
    constant iff x = x_i, and then its sign is y_i.  The first constant row (the dummy row m+1 is
    constant iff x = 1, with sign +1) gives the output; the rows after it are erased too; with no
    constant row the output is +1.  It returns to the top-left cell, writes the output and halts
    (state ``halt`` keeps everything).  The end of a data row is the first blank cell (the ones block).
    """
    idx = {n: i for i, n in enumerate(_LOOKUP_STATES)}
    s = len(idx)
    ns = np.zeros((s, 3, 16), np.int64)
    wr = np.zeros((s, 3, 16), np.int64)
    mv = np.zeros((s, 3, 16), np.int64)

    def put(state, a, fl, nxt, write, move):
        ns[idx[state], a + 1, fl], wr[idx[state], a + 1, fl], mv[idx[state], a + 1, fl] = idx[nxt], write, move

    for fl in range(16):
        up, down, left = bool(fl & FLAG_UP), bool(fl & FLAG_DOWN), bool(fl & FLAG_LEFT)
        for a in (-1, 0, 1):
            put("start", a, fl, "up", a, STAY)
            put("up", a, fl, "left", a, STAY) if up else put("up", a, fl, "up", a, UP)
            put("left", a, fl, "read_first", a, STAY) if left else put("left", a, fl, "left", a, LEFT)
            put("read_first", a, fl, {1: "scan+", -1: "scan-", 0: "scan_x"}[a], 0, RIGHT)
            for sign, name in ((1, "+"), (-1, "-")):
                if a == sign:
                    put("scan" + name, a, fl, "scan" + name, 0, RIGHT)
                elif a == -sign:
                    put("scan" + name, a, fl, "scan_x", 0, RIGHT)
                else:
                    put("scan" + name, a, fl, "end" + name, 0, STAY)
                put("end" + name, a, fl, "gotop" + name, a, STAY) if down else put("end" + name, a, fl, "eleft" + name, a, DOWN)
                put("eleft" + name, a, fl, "erase" + name, a, STAY) if left else put("eleft" + name, a, fl, "eleft" + name, a, LEFT)
                put("erase" + name, a, fl, "erase" + name, 0, RIGHT) if a != 0 else put("erase" + name, a, fl, "end" + name, 0, STAY)
                put("gotop" + name, a, fl, "goleft" + name, a, STAY) if up else put("gotop" + name, a, fl, "gotop" + name, a, UP)
                if left:
                    put("goleft" + name, a, fl, "halt", sign, STAY)
                else:
                    put("goleft" + name, a, fl, "goleft" + name, a, LEFT)
            put("scan_x", a, fl, "scan_x", 0, RIGHT) if a != 0 else put("scan_x", a, fl, "nend", 0, STAY)
            put("nend", a, fl, "gotop+", a, STAY) if down else put("nend", a, fl, "nleft", a, DOWN)
            put("nleft", a, fl, "read_first", a, STAY) if left else put("nleft", a, fl, "nleft", a, LEFT)
            put("halt", a, fl, "halt", a, STAY)
    return machine_from_tables(ns, wr, mv, _LOOKUP_STATES)


def lookup_learner(X_train, y_train, x) -> int:
    """A(S)[x] of the lookup learner: the label of the first training point equal to x, else +1."""
    for xi, yi in zip(X_train, y_train):
        if all(int(a) == int(b) for a, b in zip(xi, x)):
            return int(yi)
    return 1


# ---------------------------------------------------------------------------------------------
# the cell encoding
# ---------------------------------------------------------------------------------------------


def n_digits_for(n_states: int) -> int:
    """N = ceil(log2 s) + 4, the largest digit index of B.1.1 (digits 0..N)."""
    s = _checks.require_int("n_states", n_states, min_value=1, max_value=2**30)
    return (s - 1).bit_length() + 4


def zigzag(k: int) -> int:
    """0, 1, -1, 2, -2, ...: the k-th state code (code 0 = start state)."""
    return (k + 1) // 2 if k % 2 else -(k // 2)


@dataclass(frozen=True)
class CellEncoding:
    """Scaled integer encoding with digits 0..N: value a <-> A = a * 2 * 3^N."""

    N: int

    def __post_init__(self):
        _checks.require_int("N", self.N, min_value=4, max_value=_MAX_N)

    @property
    def scale(self) -> int:
        return 2 * 3**self.N

    @property
    def pad(self) -> int:
        return 3 ** (self.N - 1)

    @property
    def invalid(self) -> int:
        return 3 ** (self.N - 1) + 2

    @property
    def max_code(self) -> int:
        """Largest |state code| with N - 3 balanced-ternary digits."""
        return (3 ** (self.N - 3) - 1) // 2

    def to_scaled(self, a) -> int:
        v = Fraction(a) * self.scale
        if v.denominator != 1:
            raise NotRepresentable(f"value {a} is not a multiple of 1/(2*3^{self.N})")
        return int(v)

    def from_scaled(self, A: int) -> Fraction:
        return Fraction(int(A), self.scale)

    def digits(self, A: int) -> tuple[int, ...] | None:
        """Balanced-ternary digits a(0..N) of a scaled value, or None if it is not a code."""
        A = int(A)
        if A % 2:
            return None
        u = A // 2
        out = []
        for _ in range(self.N + 1):
            r = u % 3
            if r == 2:
                r = -1
            out.append(r)
            u = (u - r) // 3
        if u != 0:
            return None
        return tuple(reversed(out))

    def encode(self, digits: Sequence[int]) -> int:
        if len(digits) != self.N + 1 or any(d not in (-1, 0, 1) for d in digits):
            raise ValueError(f"argument 'digits' must be {self.N + 1} digits in {{-1, 0, 1}}, not {tuple(digits)}")
        return 2 * sum(int(d) * 3 ** (self.N - i) for i, d in enumerate(digits))

    def cell(self, *, ones: int = 0, symbol: int = 0, phase: int = 0, head: int = 0, code: int = 0) -> int:
        """Scaled value with the given digit 0 / symbol / phase / head digits and state code."""
        if abs(code) > self.max_code:
            raise ValueError(f"argument 'code' must lie in [-{self.max_code}, {self.max_code}], not {code}")
        return 2 * (ones * 3**self.N + symbol * 3 ** (self.N - 1) + phase * 3 ** (self.N - 2) + head * 3 ** (self.N - 3) + code)

    def val(self, A: int, i: int) -> int | None:
        d = self.digits(A)
        return None if d is None else d[i]

    def state_code(self, A: int) -> int | None:
        d = self.digits(A)
        if d is None:
            return None
        return sum(d[j] * 3 ** (self.N - j) for j in range(4, self.N + 1))


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


def head_bar(x, *, slope: Fraction = Fraction(18), printed: bool = False) -> Fraction:
    """f_head-bar of B.2 (l.512) with the given slope.

    ``printed=True`` follows the case split literally: the middle pieces are open intervals, so
    x = 0 and x = 1/9 fall under "otherwise" and give 1.  ``printed=False`` is the continuous
    piecewise-linear function through the same pieces (value 2 at 0 and 0 at 1/9 for slope 18).
    """
    x = Fraction(x)
    s = Fraction(slope)
    if x <= Fraction(-1, 6):
        return Fraction(-1)
    if Fraction(-1, 6) < x < 0:
        return s * (x + Fraction(1, 9))
    if 0 < x < Fraction(1, 9):
        return -s * (x - Fraction(1, 9))
    if Fraction(1, 9) < x < Fraction(1, 6):
        return s * (x - Fraction(1, 9))
    if printed or x >= Fraction(1, 6):
        return Fraction(1)
    # the continuous extension at the knots 0 and 1/9
    return s * Fraction(1, 9) if x == 0 else Fraction(0)


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
