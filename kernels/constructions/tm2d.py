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

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

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
    "CellEncoding",
    "Machine2D",
    "NotDifferentiable",
    "NotRepresentable",
    "Trajectory",
    "compile_fixed_size",
    "lookup_learner",
    "lookup_machine",
    "machine_from_tables",
    "n_digits_for",
    "random_machine",
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


@functools.lru_cache(maxsize=1 << 16)
def _digits(N: int, A: int) -> tuple[int, ...] | None:
    """CellEncoding.digits, memoised: a grid holds few distinct values, decoded many times (the tuple is immutable)."""
    if A % 2:
        return None
    u = A // 2
    out = []
    for _ in range(N + 1):
        r = u % 3
        if r == 2:
            r = -1
        out.append(r)
        u = (u - r) // 3
    if u != 0:
        return None
    return tuple(reversed(out))


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
        return _digits(self.N, int(A))

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
