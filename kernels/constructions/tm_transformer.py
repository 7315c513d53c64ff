"""Turing machines and their compilation to the hard-attention transformer of Appendix C (seed 000).

Plain simulator
---------------
A machine is (Z, A, S, Z_term) with S: Z x A -> Z x A x {-1, +1} (the head always moves; l.181-186).
Conventions (the paper leaves them open; Pitfalls 4-6 of the catalog):

* the tape is indexed by cells 0, 1, 2, ...; the input x (length m, no blank symbols) is written
  on cells 1..m; every other cell holds the blank symbol 0;
* the head starts on cell 0 in the start state: z_0 = start, l_0 = 0, a_0 = blank;
* a move left of cell 0 is an error (``ValueError``); :func:`random_machine` builds machines with a
  left-end marker (symbol 1) that the first transition writes on cell 0 and that every state
  leaves to the right, so they never fall off;
* the machine runs exactly T steps; terminal states are meant to loop (Pitfall 6: "move right");
  the output is 1 if z_T is accepting, 0 if rejecting.

Quantities of step i (Appendix C.1, l.419-443): z_i state, l_i head location and a_i the symbol
under the head at the end of step i; u_i the symbol written at step i (at cell l_{i-1}); q_i the move.

Transformer (Sec. 4.1, l.196-218; Appendix C)
--------------------------------------------
Hidden vectors have the coordinate groups st (|Z|), sym1, sym2 (|A|), pos1, pos2, pos3 (w_pos),
scr1, scr2 (|A|), scr3 (w_pos), scr4 (3), mv (2: the move one-hot of Lemma C.1's "scr").
Attention is hard-max with the null key/value and the residual inside: Attn(h', H) = h' +
mean_{j in argmax} v_j.  A transformer layer is self-attention, encoder-decoder attention, then
FF(h) = relu(W3 relu(W2 relu(W1 h + b1) + b2) + b3) (no residual).  The decoder has
d = w_pos + 4 layers, shared by all T timesteps:

=======  ======================  =====================  ==================================
layer    self-attention          enc-dec attention      FF
=======  ======================  =====================  ==================================
1        -                       -                      Lemma C.1 (transition; 2 layers + id)
2        -                       -                      Lemma C.2 (head +-1 in binary)
3        Claim C.4 (i' > 0 ?)    -                      identity
4..3+w   Claim C.5 (bit j of i') -                      move scr4_3 -> scr3_j
4+w      Claim C.6 (copy u_i')   Lemma C.7 (read x_l)   Lemma C.8 (select a_i, clean up)
=======  ======================  =====================  ==================================

The decoder input of step i is o_{i-1} + beta(i) with pos1 = Bin(i) (the printed (C.3) says Bin(i)
for o_i + beta(i+1), a one-step lag; ``pos1_lag=True`` builds that variant).  o_0 (the trainable
h_0) encodes z_0 = start, a_0 = blank, l_0 = 0.  Bin is MSB-first (``bin_order="lsb"`` builds the
variant the catalog says fails).  Unused modules are zero (attention with V = V_0 = 0 is the
identity thanks to the residual; FF identity copies the nonnegative binary coordinates).  The
round correction layers of Thm 4.1's proof are not inserted: on the construction's own inputs every
block output is binary, where round is the identity.

All weights are integers and all attention scores are integers (computed exactly in float64,
|values| < 2^53), so ties and score gaps are exact.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._checks import require_int, require_memory

__all__ = [
    "Transformer",
    "TuringMachine",
    "binary",
    "compile_transformer",
    "first_mismatch",
    "invariant_vector",
    "random_machine",
    "run_transformer",
    "simulate",
    "w_pos_needed",
    "w_pos_printed",
]


@dataclass(frozen=True)
class TuringMachine:
    """States 0..n_states-1, symbols 0..n_symbols-1 (0 = blank); ``delta[z, a] = (z', a', move)``
    with move in {-1, +1}; ``accept`` and ``reject`` are disjoint sets of terminal states."""

    n_states: int
    n_symbols: int
    delta: np.ndarray
    start: int = 0
    accept: frozenset = frozenset()
    reject: frozenset = frozenset()

    def __post_init__(self):
        require_int("n_states", self.n_states, min_value=1, max_value=10_000)
        require_int("n_symbols", self.n_symbols, min_value=1, max_value=10_000)
        d = np.asarray(self.delta)
        if d.shape != (self.n_states, self.n_symbols, 3):
            raise ValueError(f"argument 'delta' must have shape ({self.n_states}, {self.n_symbols}, 3) "
                             f"(a transition for every (state, symbol)), not {d.shape}")
        if not np.issubdtype(d.dtype, np.integer):
            raise ValueError(f"argument 'delta' must be an integer array, not dtype {d.dtype}")
        bad = np.argwhere((d[..., 0] < 0) | (d[..., 0] >= self.n_states))
        if len(bad):
            z, a = bad[0]
            raise ValueError(f"argument 'delta': next state {d[z, a, 0]} at (state {z}, symbol {a}) must be in "
                             f"[0, {self.n_states - 1}]")
        bad = np.argwhere((d[..., 1] < 0) | (d[..., 1] >= self.n_symbols))
        if len(bad):
            z, a = bad[0]
            raise ValueError(f"argument 'delta': written symbol {d[z, a, 1]} at (state {z}, symbol {a}) must be in "
                             f"[0, {self.n_symbols - 1}]")
        bad = np.argwhere((d[..., 2] != -1) & (d[..., 2] != 1))
        if len(bad):
            z, a = bad[0]
            raise ValueError(f"argument 'delta': move {d[z, a, 2]} at (state {z}, symbol {a}) must be -1 or +1")
        require_int("start", self.start, min_value=0, max_value=self.n_states - 1)
        for name in ("accept", "reject"):
            for z in getattr(self, name):
                require_int(name, z, min_value=0, max_value=self.n_states - 1)
        if set(self.accept) & set(self.reject):
            raise ValueError(f"arguments 'accept' and 'reject' must be disjoint, both contain "
                             f"{sorted(set(self.accept) & set(self.reject))}")


def random_machine(rng: np.random.Generator, n_states: int, n_symbols: int, *, halt_bias: float = 0.15) -> TuringMachine:
    """A random machine with a left-end marker, so that it never moves left of cell 0.

    Symbols: 0 blank, 1 the marker, 2.. input symbols (n_symbols >= 3).  States: 0 start, 1 accept,
    2 reject (terminal: rewrite the symbol and move right, Pitfall 6), 3.. working states
    (n_states >= 4).  S(start, blank) = (working state 3, marker, +1); on the marker every state
    rewrites it and moves right; other transitions of working states are uniform, going to a
    terminal state with probability ``halt_bias``, never writing the marker."""
    n_states = require_int("n_states", n_states, min_value=4, max_value=10_000)
    n_symbols = require_int("n_symbols", n_symbols, min_value=3, max_value=10_000)
    d = np.zeros((n_states, n_symbols, 3), dtype=np.int64)
    for z in range(n_states):
        for a in range(n_symbols):
            if z in (1, 2):
                d[z, a] = (z, a, 1)
            elif a == 1:
                d[z, a] = (z if z != 0 else 3, 1, 1)
            elif z == 0:
                d[z, a] = (3, 1, 1)
            else:
                nz = int(rng.integers(1, 3)) if rng.random() < halt_bias else int(rng.integers(3, n_states))
                na = 0 if rng.random() < 0.2 else int(rng.integers(2, n_symbols))
                d[z, a] = (nz, na, int(rng.choice([-1, 1])))
    return TuringMachine(n_states, n_symbols, d, 0, frozenset({1}), frozenset({2}))


def simulate(tm: TuringMachine, x, T: int) -> dict:
    """Run the machine for T steps on input x; arrays z, a, l (index 0..T) and u, q (index 1..T; entry 0
    unused), and ``output`` (1 accept, 0 reject, None if z_T is not terminal)."""
    T = require_int("T", T, min_value=1, max_value=10_000_000)
    x = [int(v) for v in x]
    for v in x:
        if not 1 <= v < tm.n_symbols:
            raise ValueError(f"argument 'x': input symbol {v} must be in [1, {tm.n_symbols - 1}] (0 is the blank)")
    tape = {j + 1: v for j, v in enumerate(x)}
    z = np.zeros(T + 1, np.int64)
    a = np.zeros(T + 1, np.int64)
    l_ = np.zeros(T + 1, np.int64)
    u = np.zeros(T + 1, np.int64)
    q = np.zeros(T + 1, np.int64)
    z[0], l_[0], a[0] = tm.start, 0, tape.get(0, 0)
    for i in range(1, T + 1):
        nz, na, mv = (int(v) for v in tm.delta[z[i - 1], a[i - 1]])
        tape[int(l_[i - 1])] = na
        loc = int(l_[i - 1]) + mv
        if loc < 0:
            raise ValueError(f"the machine moves left of cell 0 at step {i} (input {x}); "
                             "use a left-end marker (see random_machine)")
        z[i], u[i], q[i], l_[i], a[i] = nz, na, mv, loc, tape.get(loc, 0)
    out = 1 if int(z[T]) in tm.accept else 0 if int(z[T]) in tm.reject else None
    return {"z": z, "a": a, "l": l_, "u": u, "q": q, "output": out}


def w_pos_printed(T: int) -> int:
    """w_pos = ceil(log2 T) as printed (l.425)."""
    T = require_int("T", T, min_value=2)
    return (T - 1).bit_length()


def w_pos_needed(T: int) -> int:
    """Bits needed for Bin(i), 0 <= i <= T (timesteps and head cells reach T): ceil(log2 (T + 1))."""
    T = require_int("T", T, min_value=1)
    return T.bit_length()


def binary(i: int, w: int, order: str = "msb") -> np.ndarray:
    """Bin(i) in {0,1}^w, MSB-first (index 0 = most significant) or LSB-first; ValueError if i does not
    fit in w bits (0 <= i < 2^w)."""
    if not 0 <= int(i) < (1 << int(w)):
        raise ValueError(f"argument 'i': Bin({int(i)}) needs {max(int(i), 1).bit_length()} bits, w_pos = {int(w)} "
                         f"(allowed i in [0, {(1 << int(w)) - 1}])")
    bits = np.array([(int(i) >> (w - 1 - k)) & 1 for k in range(w)], dtype=np.float64)
    return bits if order == "msb" else bits[::-1].copy()


@dataclass
class _Attn:
    WQ: np.ndarray
    bQ: np.ndarray
    WK: np.ndarray
    bK: np.ndarray
    K0: np.ndarray
    WV: np.ndarray
    bV: np.ndarray
    V0: np.ndarray


@dataclass
class Transformer:
    """The compiled decoder: per layer (self-attn or None, enc-attn or None, FF = 3 (W, b) pairs)."""

    tm: TuringMachine
    T: int
    w_pos: int
    groups: dict
    dim: int
    layers: list
    E: np.ndarray
    h0: np.ndarray
    cls: np.ndarray
    bin_order: str = "msb"
    pos1_lag: bool = False
    residual: bool = True
    meta: dict = field(default_factory=dict)

    def arrays(self):
        for sa, ea, ff in self.layers:
            for at in (sa, ea):
                if at is not None:
                    yield from (at.WQ, at.bQ, at.WK, at.bK, at.K0, at.WV, at.bV, at.V0)
            for W, b in ff:
                yield W
                yield b
        yield from (self.E, self.h0, self.cls)

    @property
    def l1_norm(self) -> float:
        return float(sum(np.abs(a).sum() for a in self.arrays()))

    @property
    def n_params(self) -> int:
        return int(sum(a.size for a in self.arrays()))

    @property
    def depth(self) -> int:
        return len(self.layers)

    @property
    def width(self) -> int:
        return max([self.dim] + [W.shape[0] for _, _, ff in self.layers for W, _ in ff])

    def beta(self, i: int) -> np.ndarray:
        v = np.zeros(self.dim)
        v[self.groups["pos1"]] = binary(i, self.w_pos, self.bin_order)
        return v

    def decode(self, h: np.ndarray) -> dict:
        """Read the groups of a hidden vector: one-hot groups as the index of their 1 (or -1),
        binary groups as integers."""
        out = {}
        for g, sl in self.groups.items():
            out[g] = h[sl].copy()
        return out


def _groups(nZ: int, nA: int, w: int) -> tuple[dict, int]:
    sizes = [("st", nZ), ("sym1", nA), ("sym2", nA), ("pos1", w), ("pos2", w), ("pos3", w), ("scr1", nA),
             ("scr2", nA), ("scr3", w), ("scr4", 3), ("mv", 2)]
    groups, off = {}, 0
    for name, n in sizes:
        groups[name] = slice(off, off + n)
        off += n
    return groups, off


def _idx(groups, name, k=0):
    return groups[name].start + k


def compile_transformer(tm: TuringMachine, T: int, *, w_pos: int | None = None, bin_order: str = "msb",
                        pos1_lag: bool = False, residual: bool = True, k0_c4_offset: int = 0,
                        c6_value_group: str = "sym2", c8_priority: str = "write") -> Transformer:
    """Build the Appendix-C transformer for ``tm`` and horizon T (w_pos defaults to the bits needed
    for 0..T).  The keyword arguments other than ``w_pos`` build the catalog's mutants: ``bin_order``
    'lsb', ``pos1_lag`` (printed (C.3)), ``residual=False`` (Attn without h'), ``k0_c4_offset`` (null
    key of Claim C.4 shifted), ``c6_value_group='sym1'`` (copy the read, not the written symbol) and
    ``c8_priority='input'`` (the input symbol beats the last write)."""
    if not isinstance(tm, TuringMachine):
        raise ValueError(f"argument 'tm' must be a TuringMachine, not {type(tm).__name__}")  # noqa: TRY004
    T = require_int("T", T, min_value=1, max_value=(1 << 62) - 1)
    w = w_pos_needed(T) if w_pos is None else require_int("w_pos", w_pos, min_value=1, max_value=62)
    if bin_order not in ("msb", "lsb"):
        raise ValueError(f"argument 'bin_order' must be 'msb' or 'lsb', not {bin_order!r}")
    if c6_value_group not in ("sym1", "sym2"):
        raise ValueError(f"argument 'c6_value_group' must be 'sym1' or 'sym2', not {c6_value_group!r}")
    if c8_priority not in ("write", "input"):
        raise ValueError(f"argument 'c8_priority' must be 'write' or 'input', not {c8_priority!r}")
    nZ, nA = tm.n_states, tm.n_symbols
    G, D = _groups(nZ, nA, w)
    # largest arrays: C.1's (|Z||A| + 2 w) x D pair table, the w + 4 layers of D x D matrices
    require_memory("tm", f"{nZ} states x {nA} symbols", 8 * ((nZ * nA + 2 * w) * D * 2 + (w + 4) * 6 * D * D),
                   what="the compiled transformer's weight matrices")
    ix = lambda g, k=0: _idx(G, g, k)
    rng_g = lambda g: range(G[g].start, G[g].stop)
    sig = [(w - 1 - k) if bin_order == "msb" else k for k in range(w)]  # significance of bit position k
    eye = (np.eye(D), np.zeros(D))
    identity_ff = [eye, eye, eye]

    def copy_rows(W, dst_rows, src_cols):
        for r, c in zip(dst_rows, src_cols):
            W[r, c] = 1.0

    layers = []
    # --- layer 1: Lemma C.1 (transition)
    P = nZ * nA
    W1 = np.zeros((P + 2 * w, D))
    b1 = np.zeros(P + 2 * w)
    for z in range(nZ):
        for a in range(nA):
            r = z * nA + a
            W1[r, ix("st", z)] = W1[r, ix("sym1", a)] = 1.0
            b1[r] = -1.0
    copy_rows(W1, range(P, P + 2 * w), list(rng_g("pos1")) + list(rng_g("pos2")))
    W2 = np.zeros((D, P + 2 * w))
    for z in range(nZ):
        for a in range(nA):
            nz, na, mv = (int(v) for v in tm.delta[z, a])
            c = z * nA + a
            W2[ix("st", nz), c] = W2[ix("sym2", na), c] = W2[ix("mv", (mv + 1) // 2), c] = 1.0
    copy_rows(W2, list(rng_g("pos1")) + list(rng_g("pos2")), range(P, P + 2 * w))
    layers.append((None, None, [(W1, b1), (W2, np.zeros(D)), eye]))
    # --- layer 2: Lemma C.2 (pos3 = Bin(l_{i-1} + move)); inc_k, dec_k, then XOR with bit k
    keep = list(rng_g("st")) + list(rng_g("sym2")) + list(rng_g("pos1")) + list(rng_g("pos2"))
    H1 = 2 * w + D
    W1 = np.zeros((H1, D))
    b1 = np.zeros(H1)
    for k in range(w):
        lower = [j for j in range(w) if sig[j] < sig[k]]
        for j in lower:
            W1[k, ix("pos2", j)] = 1.0
            W1[w + k, ix("pos2", j)] = -1.0
        W1[k, ix("mv", 1)] = 1.0
        b1[k] = -float(len(lower))
        W1[w + k, ix("mv", 0)] = 1.0
    copy_rows(W1, [2 * w + c for c in keep], keep)
    H2 = 2 * w + D
    W2 = np.zeros((H2, H1))
    for k in range(w):
        W2[k, 2 * w + ix("pos2", k)] = 1.0
        W2[k, k] = W2[k, w + k] = -1.0
        W2[w + k, 2 * w + ix("pos2", k)] = -1.0
        W2[w + k, k] = W2[w + k, w + k] = 1.0
    copy_rows(W2, [2 * w + c for c in keep], [2 * w + c for c in keep])
    W3 = np.zeros((D, H2))
    for k in range(w):
        W3[ix("pos3", k), k] = W3[ix("pos3", k), w + k] = 1.0
    copy_rows(W3, keep, [2 * w + c for c in keep])
    layers.append((None, None, [(W1, b1), (W2, np.zeros(H2)), (W3, np.zeros(D))]))

    def attn(q_rows, k_rows, k0_last, v_pairs=(), v_bias=()):
        """q_rows / k_rows: list of (coordinate or None, coef, const) per query/key entry."""
        dk = len(q_rows)
        WQ, bQ, WK, bK = np.zeros((dk, D)), np.zeros(dk), np.zeros((dk, D)), np.zeros(dk)
        for r, (c, coef, const) in enumerate(q_rows):
            if c is not None:
                WQ[r, c] = coef
            bQ[r] = const
        for r, (c, coef, const) in enumerate(k_rows):
            if c is not None:
                WK[r, c] = coef
            bK[r] = const
        K0 = np.zeros(dk)
        K0[-1] = k0_last
        WV, bV = np.zeros((D, D)), np.zeros(D)
        for dst, src in v_pairs:
            WV[dst, src] = 1.0
        for dst in v_bias:
            bV[dst] = 1.0
        return _Attn(WQ, bQ, WK, bK, K0, WV, bV, np.zeros(D))

    pm = lambda g: [(ix(g, k), 2.0, -1.0) for k in range(w)]
    # --- layer 3: Claim C.4
    c4 = attn(pm("pos3") + [(None, 0.0, 1.0)], pm("pos2") + [(None, 0.0, 0.0)], w - 1 + k0_c4_offset,
              v_bias=[ix("scr4", 0)])
    layers.append((c4, None, identity_ff))
    # --- layers 4..3+w: Claim C.5, one bit per layer (bit positions in Bin's own order)
    for j in range(w):
        q = pm("pos3") + [(ix("scr3", k), 2.0, -1.0) for k in range(j)] + [(None, 0.0, 1.0), (None, 0.0, 1.0)]
        kk = pm("pos2") + [(ix("pos1", k), 2.0, -1.0) for k in range(j + 1)] + [(None, 0.0, 0.0)]
        c5 = attn(q, kk, w + j, v_bias=[ix("scr4", 2)])
        Wm = np.eye(D)
        Wm[ix("scr4", 2), ix("scr4", 2)] = 0.0
        Wm[ix("scr3", j), ix("scr4", 2)] = 1.0
        layers.append((c5, None, [(Wm, np.zeros(D)), eye, eye]))
    # --- last layer: Claim C.6 + Lemma C.7 + Lemma C.8
    c6 = attn(pm("pos3") + pm("scr3") + [(None, 0.0, 1.0)], pm("pos2") + pm("pos1") + [(None, 0.0, 0.0)], 2 * w - 1,
              v_pairs=[(ix("scr1", a), ix(c6_value_group, a)) for a in range(nA)])
    c7 = attn(pm("pos3") + [(None, 0.0, 1.0)], pm("pos1") + [(None, 0.0, 0.0)], w - 1,
              v_pairs=[(ix("scr2", a), ix("sym1", a)) for a in range(nA)], v_bias=[ix("scr4", 1)])
    # C.8: hidden1 = [st, pos3, scr1, scr2, v1, v2, v3]; hidden2 = [st, pos3, A1, A2, v3]; out = D
    o_st, o_p3, o_s1, o_s2 = 0, nZ, nZ + w, nZ + w + nA
    o_v = nZ + w + 2 * nA
    H1 = o_v + 3
    W1 = np.zeros((H1, D))
    b1 = np.zeros(H1)
    copy_rows(W1, range(o_st, o_st + nZ), rng_g("st"))
    copy_rows(W1, range(o_p3, o_p3 + w), rng_g("pos3"))
    copy_rows(W1, range(o_s1, o_s1 + nA), rng_g("scr1"))
    copy_rows(W1, range(o_s2, o_s2 + nA), rng_g("scr2"))
    s41, s42 = ix("scr4", 0), ix("scr4", 1)
    if c8_priority == "write":
        W1[o_v, s41] = 1.0                                   # v1 = 1(i' > 0)
        W1[o_v + 1, s42], W1[o_v + 1, s41] = 1.0, -1.0       # v2 = relu(scr4_2 - scr4_1)
    else:
        W1[o_v + 1, s42] = 1.0                               # input first
        W1[o_v, s41], W1[o_v, s42] = 1.0, -1.0
    W1[o_v + 2, s41] = W1[o_v + 2, s42] = -1.0
    b1[o_v + 2] = 1.0                                        # v3 = relu(1 - scr4_1 - scr4_2)
    H2 = nZ + w + 2 * nA + 1
    W2 = np.zeros((H2, H1))
    b2 = np.zeros(H2)
    copy_rows(W2, range(nZ + w), range(nZ + w))
    for a in range(nA):
        W2[nZ + w + a, o_s1 + a] = W2[nZ + w + a, o_v] = 1.0
        b2[nZ + w + a] = -1.0
        W2[nZ + w + nA + a, o_s2 + a] = W2[nZ + w + nA + a, o_v + 1] = 1.0
        b2[nZ + w + nA + a] = -1.0
    W2[H2 - 1, o_v + 2] = 1.0
    W3 = np.zeros((D, H2))
    copy_rows(W3, rng_g("st"), range(nZ))
    copy_rows(W3, rng_g("pos2"), range(nZ, nZ + w))
    for a in range(nA):
        W3[ix("sym1", a), nZ + w + a] = W3[ix("sym1", a), nZ + w + nA + a] = 1.0
    W3[ix("sym1", 0), H2 - 1] = 1.0                          # blank when neither source applies
    layers.append((c6, c7, [(W1, b1), (W2, b2), (W3, np.zeros(D))]))

    E = np.zeros((D, nA))
    for a in range(nA):
        E[ix("sym1", a), a] = 1.0
    h0 = np.zeros(D)
    h0[ix("st", tm.start)] = 1.0
    h0[ix("sym1", 0)] = 1.0                                  # a_0 = blank on cell 0, l_0 = 0
    cls = np.zeros(D)
    for z in tm.accept:
        cls[ix("st", z)] = 1.0
    for z in tm.reject:
        cls[ix("st", z)] = -1.0
    return Transformer(tm, T, w, G, D, layers, E, h0, cls, bin_order, pos1_lag, residual)


def _attend(at: _Attn, h: np.ndarray, keys: np.ndarray, residual: bool):
    q = at.WQ @ h + at.bQ
    n = len(keys)
    scores = np.empty(n + 1)
    scores[0] = q @ at.K0
    vals = np.empty((n + 1, at.V0.shape[0]))
    vals[0] = at.V0
    if n:
        scores[1:] = (keys @ at.WK.T + at.bK) @ q
        vals[1:] = keys @ at.WV.T + at.bV
    top = scores.max()
    J = np.flatnonzero(scores == top)
    below = scores[scores < top]
    gap = float(top - below.max()) if below.size else None
    if J.size == 1:  # the mean of one row, as numpy's mean computes it: (0 + v) / 1 = 0 + v
        tie_values_equal, out = True, vals[J[0]] + 0.0
    else:
        tie_values_equal = bool(np.all(vals[J] == vals[J[0]]))
        out = vals[J].mean(axis=0)
    return (h + out if residual else out), gap, tie_values_equal, scores


def run_transformer(model: Transformer, x, T: int | None = None, *, keep_scores: bool = False,
                    keep_layers: bool = False) -> dict:
    """Run the decoder for T steps (default model.T) on input x.  Returns ``o`` (T+1, dim) outputs
    (o[0] = h0), ``gaps`` (list of (step, layer, kind, gap)), ``ties_ok`` (tied maxima have equal
    values), and ``output`` = cls . o_T."""
    T = model.T if T is None else require_int("T", T, min_value=1, max_value=model.T)
    x = [int(v) for v in x]
    for v in x:
        if not 0 <= v < model.tm.n_symbols:
            raise ValueError(f"argument 'x': symbol {v} must be in [0, {model.tm.n_symbols - 1}]")
    require_memory("T", T, 8 * T * model.dim * (len(model.layers) + (2 + 2 * len(model.layers) if keep_layers else 1)),
                   what="the per-layer key caches of T decoder steps")
    enc = np.array([model.E[:, v] + model.beta(j + 1) for j, v in enumerate(x)]).reshape(len(x), model.dim)
    caches = [np.empty((T, model.dim)) for _ in model.layers]  # row i - 1: layer L's input at step i (keys)
    o = [model.h0.copy()]
    gaps, ties_ok, score_log, trace = [], True, [], []
    for i in range(1, T + 1):
        h = o[-1] + model.beta(i - 1 if model.pos1_lag else i)
        steps = []
        for L, (sa, ea, ff) in enumerate(model.layers):
            caches[L][i - 1] = h
            for kind, att, memory in (("self", sa, caches[L][:i]), ("enc", ea, enc)):
                if att is None:
                    continue
                h, gap, tie, sc = _attend(att, h, memory, model.residual)
                gaps.append((i, L, kind, gap))
                ties_ok &= tie
                if keep_layers:
                    steps.append((L, kind, h.copy()))
                if keep_scores:
                    score_log.append((i, L, kind, sc))
            for k, (W, b) in enumerate(ff):
                h = np.maximum(W @ h + b, 0.0)
            if keep_layers:
                steps.append((L, "ff", h.copy()))
        o.append(h)
        trace.append(steps)
    O = np.array(o)
    return {"o": O, "gaps": gaps, "ties_ok": bool(ties_ok), "output": float(model.cls @ O[-1]), "scores": score_log,
            "layers": trace}


def invariant_vector(model: Transformer, z: int, a: int, l: int) -> np.ndarray:
    """The decoder output (C.2) must equal: st = 1(z), sym1 = 1(a), pos2 = Bin(l), zeros elsewhere."""
    v = np.zeros(model.dim)
    v[_idx(model.groups, "st", int(z))] = 1.0
    v[_idx(model.groups, "sym1", int(a))] = 1.0
    v[model.groups["pos2"]] = binary(int(l), model.w_pos, model.bin_order)
    return v


def first_mismatch(model: Transformer, tm_run: dict, out: dict):
    """First step i (0..T) where o_i differs from (C.2) for the plain simulator's (z_i, a_i, l_i); None if none.
    Returns (i, expected, got) as decoded dicts."""
    O = out["o"]
    for i in range(len(O)):
        exp = invariant_vector(model, tm_run["z"][i], tm_run["a"][i], tm_run["l"][i])
        if not np.array_equal(O[i], exp):
            return i, model.decode(exp), model.decode(O[i])
    return None
