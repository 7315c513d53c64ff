"""The RCNN grid of seed 003 as a 2D Turing-machine roll-out (Appendix B.1-B.3): the data representation
(B11), Definition 6 and the TM modifications of B.1.2 (D6), the layer spec f_Conv2D (roll-out = 2D TM, B2),
the head f_head (B2h); the computation phase (B3c) is in verify/rcnn/grid_computation_phase.py.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
import numpy as np
from kernels.constructions import tm2d as T
from kernels.constructions import tm2d_grid as TG
from ..registry import Context, Evidence, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE
from .grid import (
    compare_with_simulator,
    compiled_lookup,
    halting_time,
    initial_tape,
    lookup_machine,
    memorisation_formula,
    memory_spec,
    NINTH,
    random_dataset,
    reachable_values,
    THIRD,
)


# ---------------------------------------------------------------------------------------------
# B11. Data representation
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RepresentationStatement:
    """Cell values a = sum_{i=first}^{N} a(i) 3^{-i} with digits in ``digits``; padding ``pad``;
    N(s) = ``n_digits(s)``."""

    first: int
    digits: tuple = (-1, 0, 1)
    pad: Fraction = Fraction(1, 6)
    n_digits: Callable = T.n_digits_for


def representable(v: Fraction, digits: tuple, first: int, N: int) -> bool:
    """Is v = sum_{i=first}^{N} a(i) 3^{-i} with a(i) in ``digits`` (three consecutive integers)?"""
    u = Fraction(v) * 3**N
    if u.denominator != 1:
        return False
    u = int(u)
    for _ in range(N - first + 1):
        a = next(dd for dd in digits if (u - dd) % 3 == 0)
        u = (u - a) // 3
    return u == 0


@claim(
    id="seed003.data_representation",
    source=SOURCE,
    label="B.1.1 (data representation)",
    entry="B11",
    title="Base-3 cell codes: V_s must start at digit 0 (the ones block and 1 + 1/9 are not in V_s)",
    lines=[(413, 425)],
    printed=RepresentationStatement(first=0),
    proof_step=RepresentationStatement(first=1),
    mutants=[
        Mutant("digits-0-1-2", "unbalanced digits {0, 1, 2}", RepresentationStatement(first=0, digits=(0, 1, 2))),
        Mutant("pad=1/3", "padding p = 1/3 (a code: the memorised value +1/3)", RepresentationStatement(first=0, pad=Fraction(1, 3))),
        Mutant("N=log2(s)+2", "two digits fewer: N = ceil(log2 s) + 2",
               RepresentationStatement(first=0, n_digits=lambda s: T.n_digits_for(s) - 2)),
        Mutant("pad=0", "padding p = 0 (the code of a blank memory cell)",
               RepresentationStatement(first=0, pad=Fraction(0)), part="padding", origin="second-reader"),
    ],
    parts=[
        Part("codes", "a = sum_{i=0}^{log2(s)+4} a(i) 3^{-i}, a(i) in {-1, 0, 1}: decodable (val(a, i) = a(i)) and injective"),
        Part("closure", "every input/output met in the network is exactly representable in that form (the construction "
             "ensures it)"),
        Part("padding", "the padding p = 1/6 is not a code (B.2)"),
        Part("state_codes", "digits 4..log2(s)+4 give at least s state codes including the start code 0"),
        Part("V_s", "V_s := {sum_{i=1}^{log(s)+4} a(i) 3^{-i}} is the set of possible values (proof step: sum from i = 1)"),
    ],
    severity=Severity.TYPO,
    affects=(),
    expect=Status.PROOF_GAP,
    rigor=Rigor.EXACT,
    params=[Param("runs", int, 1, 200, doc="random spec runs (memorisation + inference) per s"),
            Param("s_max", int, 1, 12, doc="machines with s = 1..s_max states"),
            Param("N_exhaustive", int, 4, 9, doc="round trip over all digit vectors for N = 4..this")],
    tiers={"quick": {"runs": 2, "s_max": 4, "N_exhaustive": 6}, "full": {"runs": 6, "s_max": 8, "N_exhaustive": 8}},
)
def check_data_representation(statement: RepresentationStatement, p, ctx) -> Verdict:
    """B.1.1: every value in the network is a base-3 code of precision log2(s) + 4.

    Statement
    ---------
    Each input/output is a = sum_{i=0}^{log2(s)+4} a(i) 3^{-i}, a(i) in {-1, 0, 1}; digit 0: padding
    (1) or not (0); digit 1: tape symbol; digit 2: phase; digit 3: head; digits 4..: state.
    val(a, i) = a(i).  The set of possible values is V_s = {sum_{i=1}^{log(s)+4} a(i) 3^{-i}}; the
    padding p = 1/6 lies outside the representation (B.2).

    Source
    ------
    Seed 003, Appendix B.1.1, lines 413-425; padding, line 451.

    Checkable form
    --------------
    (a) Round trip: for N = 4..N_exhaustive every digit vector (statement's digit set, digits
    first..N) encodes to a value whose balanced-ternary decoding returns it, and distinct vectors give
    distinct values spaced by >= 3^{-N} (exhaustive).  (b) Every value met in spec runs (Algorithm 1's
    memorisation grids and inference roll-outs of random s-state machines, all layers) other than the
    padding is representable with the statement's digits first..N(s).  (c) The padding is not
    representable, at distance >= 3^{-N}/2 from every code.  (d) N(s) - 3 state digits give >= s
    state codes including 0 (start state) for s = 1..256.

    Exactness
    ---------
    Exact (Fractions, integers).

    Mutants
    -------
    Digits {0, 1, 2} cannot hold the symbol -1 (value -1/3) or the memory phase -1/9; p = 1/3 is the
    code of a memorised +1; N = ceil(log2 s) + 2 leaves too few state codes (s = 2: one code).

    Second-reader mutant: p = 0 is the all-zero digit vector, a code (a blank cell of W diag(z)), so
    "the padding is not a code" is false for it (exact; the old checker rejected it too).  A variant
    with one digit fewer (N = ceil(log2 s) + 3) was tried and rejected, but its falsity depends on
    this project's state encoding (3 codes per trit would do for s = 2), so it is not kept.

    Correction
    ----------
    V_s must sum from i = 0 (digit 0 is the padding/ones flag), as the first sentence of B.1.1 does:
    V_s = {sum_{i=0}^{log(s)+4} a(i) 3^{-i}}.  A proof-internal index slip: severity typo.

    Notes
    -----
    Second-reader judgement: proof-gap (typo), formerly erratum.  B.1.1 is part of the proof of
    Lemma 2 (the appendix construction), not a statement of the paper; the definition of V_s with
    i >= 1 contradicts the construction's own values (the ones block, value 1, and compute-phase
    ones cells 1 + 1/9) but no theorem is refuted.  So: printed = B.1.1's first sentence (sum from
    i = 0), which holds on every run; proof_step = the V_s definition (sum from i = 1), which fails
    with the witness below.  No inequality parts (the gap >= 3^{-N} is part of injectivity).
    The first sentence of B.1.1 sums from i = 0, the definition of V_s from i = 1: the ones block
    (value 1, digit 0 set) and compute-phase ones cells (1 + 1/9) are not in V_s, yet B.2's
    conditions test "x_{0,1} = 1".  Theorem 1's "bit precision ceil(log s) + c3" counts ternary
    digits: N + 1 trits are (N + 1) log2 3 = 1.585 log2 s + 7.9 bits, not log2 s + O(1) bits.
    """
    ev = Evidence("true", rigor=Rigor.EXACT)
    for N in range(4, p["N_exhaustive"] + 1):
        ok_round, n_vals, min_gap = _representation_codes(statement.digits, statement.first, N)
        ev.add({"part": "(a) injective and decodable", "N": N, "codes": n_vals},
               ok_round and n_vals == len(statement.digits) ** (N + 1 - statement.first))
        ev.add({"part": "(a) minimum gap", "N": N}, min_gap, Fraction(1, 3**N), relation="ge")
    first_bad = None
    for s, values in enumerate(_representation_runs(ctx.claim_id, p["s_max"], p["runs"]), start=1):
        N = statement.n_digits(s)
        bad = sorted(v for v in values if v != Fraction(1, 6) and not representable(v, statement.digits, statement.first, max(N, 1)))
        if bad and first_bad is None:
            first_bad = [str(v) for v in bad[:8]]
        ev.add({"part": "(b) every value met in the runs is representable", "s": s, "N": N, "distinct values": len(values),
                "not representable": [str(v) for v in bad[:4]]}, not bad)
        pad_rep = representable(statement.pad, statement.digits, 0, max(N, 1))
        dist = min(abs(statement.pad - v) for v in values if v != Fraction(1, 6)) if values else None
        ev.add({"part": "(c) padding is not a code", "s": s, "pad": statement.pad, "distance to nearest value met": dist},
               not pad_rep and statement.pad not in {v for v in values if v != Fraction(1, 6)})
    for s in range(1, 257):
        N = statement.n_digits(s)
        ev.add({"part": "(d) state codes", "s": s, "N": N, "codes with N-3 digits": 3 ** max(N - 3, 0)}, 3 ** max(N - 3, 0) >= s)
    if first_bad:
        ev.details["values met but not representable (first s)"] = first_bad
    ev.details["trits vs bits"] = {str(s): {"trits N+1": T.n_digits_for(s) + 1,
                                            "bits": round(TG.bits_for_trits(T.n_digits_for(s) + 1), 2)} for s in (2, 16, 256, 4096)}
    return ev.verdict()


@functools.lru_cache(maxsize=64)
def _representation_codes(digits: tuple, first: int, N: int) -> tuple:
    """check_data_representation (a) for one digit set, first index and N (statements with the same digits
    share it): (every code decodes back to its digits, number of distinct values, minimum gap)."""
    # every value sum_i a_i 3^-i is A / 3^N with the integer A = sum_i a_i 3^(N-i): the distinct values, the
    # decoding (of the scaled value 2 A) and the gaps are computed on A, exactly as on the Fractions
    lo = min(digits)
    enc = T.CellEncoding(N)
    weights = [3 ** (N - i) for i in range(N + 1)]
    vals = set()
    ok_round = True
    for digs in itertools.product(digits, repeat=N + 1 - first):
        full = (0,) * first + digs
        A = sum(a * w for a, w in zip(full, weights))
        if lo == -1:
            ok_round &= enc.digits(2 * A) == full
        vals.add(A)
    gaps = sorted(vals)
    min_gap = Fraction(min(b - a for a, b in itertools.pairwise(gaps)), 3**N)
    return ok_round, len(vals), min_gap


@functools.lru_cache(maxsize=2)
def _representation_runs(claim_id: str, s_max: int, runs: int) -> tuple:
    """The cell values met in spec runs (reachable_values) for s = 1..s_max, drawn once per (claim, parameters)
    from the claim's "runs" stream in the order of the uncached loop and shared by the statements."""
    rng = Context(claim_id).rng("runs")
    return tuple(frozenset(reachable_values(rng, s, runs)[0]) for s in range(1, s_max + 1))


# ---------------------------------------------------------------------------------------------
# D6. Definition 6 and the TM modifications of B.1.2
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TMModifications:
    """state_digits: digits of the state codes; xor_last: the last entry of XOR row i ("y*y" printed
    or "y"); xor_scaled_features: row i features y (x o x_i) (True) or (x o x_i) (False);
    first_step_states: extra states that implement "do not move first"; boundary: the model reaches
    the halting convention (vi) with "none" (transitions read (state, symbol)) or "flags"."""

    state_digits: tuple
    xor_last: str
    xor_scaled_features: bool = True
    first_step_states: int = 1
    boundary: str = "none"


_D6_PRINTED = TMModifications((-1, 1), "y*y")
_D6_CORRECTED = TMModifications((-1, 0, 1), "y", boundary="flags")


@functools.lru_cache(maxsize=32)
def _state_codes(state_digits: tuple, n: int) -> tuple[bool, int]:
    """check_definition_6 (a): (0 is a code, number of distinct codes sum_j a_j 3^(n-1-j)), once per digit set and n."""
    codes = {sum(a * 3 ** (n - 1 - j) for j, a in enumerate(digs)) for digs in itertools.product(state_digits, repeat=n)}
    return 0 in codes, len(codes)


@functools.lru_cache(maxsize=2)
def _d6_xor_tapes(claim_id: str, datasets: int, m_max: int, d_max: int) -> tuple:
    """check_definition_6 (b)'s statement-independent part, once per (claim, parameters): per training set (drawn
    from the claim's "datasets" stream in the order of the loop) the tape after memorisation and one input x,
    (m, d, k, X, y, x, tape) with read-only arrays."""
    rng = Context(claim_id).rng("datasets")
    spec = memory_spec()
    enc = spec.enc
    out = []
    for m in range(1, m_max + 1):
        for d in range(1, d_max + 1):
            for k in range(datasets):
                X, y = random_dataset(rng, m, d)
                if k == 0:
                    y[0] = -1
                run = TG.algorithm1(X, y, spec, m + 1)
                x = rng.choice(np.array([-1, 1]), size=d)
                G = TG.memory_grid(run.W[-1], list(map(int, x)) + [1], 1, enc)
                tape = initial_tape(G, d, enc)[:, : d + 1]
                for a in (X, y, x, tape):
                    a.setflags(write=False)
                out.append((m, d, k, X, y, x, tape))
    return tuple(out)


def _with_stay_start(M: T.Machine2D) -> T.Machine2D:
    """A new start state that keeps the symbol, does not move and goes to M's start state."""
    ns = np.concatenate([np.ones((1, 3, 16), np.int64), M.next_state + 1])
    wr = np.concatenate([np.broadcast_to(np.array([-1, 0, 1])[:, None], (1, 3, 16)), M.write])
    mv = np.concatenate([np.zeros((1, 3, 16), np.int64), M.move])
    return T.machine_from_tables(ns, wr, mv)


@claim(
    id="seed003.definition_6",
    source=SOURCE,
    label="Definition 6 and B.1.2 (TM modifications)",
    entry="D6",
    title="TM modifications: the start code 0, the XOR row's last entry and the halting convention (vi)",
    lines=[(427, 447)],
    printed=_D6_CORRECTED,
    proof_step=_D6_PRINTED,
    mutants=[
        Mutant("xor-unscaled", "XOR row i = (1/3)[x o x^(i); y^(i)] (features not multiplied by y^(i))",
               replace(_D6_CORRECTED, xor_scaled_features=False)),
        Mutant("no-extra-state", "the first-step convention with no extra state", replace(_D6_CORRECTED, first_step_states=0)),
        Mutant("xor-last-y*y", "corrected model, but the XOR row's last entry y^(i) y^(i) as printed",
               replace(_D6_CORRECTED, xor_last="y*y"), part="xor_input", origin="second-reader"),
    ],
    parts=[
        Part("states", "(i) states map 1-1 to {sum_{i=4}^{log(s)+4} a_i 3^{-i} : a_i in {-1, 1}} with 0 the start state"),
        Part("xor_input", "(v) row m+1 = [x^T 1], row i = y^(i) [(x o x^(i))^T y^(i)] (what memorisation writes)"),
        Part("first_step", "(iv) first step neither moves nor writes, by one additional state"),
        Part("halting", "(vi) halt with the output at the top-left and the rest of the block blank, by two additional "
             "states (O(1) states, uniformly in m, d)"),
        Part("tm_2d", "(ii)-(iii) single 2D tape simulating the 1D two-tape TM", asserted=False,
             reason="a standard reduction the paper skips ('we skip the details'); nothing printed to execute"),
    ],
    severity=Severity.SUBSTANTIVE,
    affects=("seed003.computation_phase", "seed003.lemma_2.computation"),
    expect=Status.PROOF_GAP,
    rigor=Rigor.EXACT,
    params=[Param("datasets", int, 1, 100, doc="random training sets per (m, d)"),
            Param("machines", int, 1, 500, doc="random machines for the first-step and shift checks"),
            Param("m_max", int, 1, 5, doc="m = 1..m_max"), Param("d_max", int, 1, 4, doc="d = 1..d_max")],
    tiers={"quick": {"datasets": 2, "machines": 30, "m_max": 3, "d_max": 2}, "full": {"datasets": 6, "machines": 200, "m_max": 4, "d_max": 3}},
)
def check_definition_6(statement: TMModifications, p, ctx) -> Verdict:
    """Definition 6 (Turing machine) and the modifications of B.1.2.

    Statement
    ---------
    A TM <Q, Gamma, delta, F>, s = |Q|, is modified so that: (i) states map 1-1 to
    {sum_{i=4}^{log(s)+4} a_i 3^{-i} : a_i in {-1, 1}} "with 0 being the start state"; (iii) the tape
    is 2D with moves up/down/left/right/stay; (iv) the first step neither moves nor writes ("adding a
    single additional state"); (v) XOR input: an (m+1) x (d+1) block, row m+1 = [x^T 1] and row i
    = y^(i) [(x o x^(i))^T y^(i)]; (vi) the machine halts with the output in the top-left cell and the
    rest of the input block blank ("two additional states").  All conversions cost O(1) states.

    Source
    ------
    Seed 003, Definition 6 and B.1.2, lines 427-447.

    Checkable form
    --------------
    (a) For s = 1..64, the statement's state-code set with ceil(log2 s) + 1 digits must contain 0 and
    >= s codes.  (b) The XOR block: SGD at spec level (Algorithm 1, exact) memorises W^(m+2); the tape
    symbols of f_mem([x; 1]; W^(m+2)) must equal the statement's rows for random S, x.  (c) (iv) by
    the statement's number of extra states: for random 2D TMs M (first step unrestricted), M' must
    keep the symbol and stay at step 1 and then follow M step for step (tape, head, state).  (d) (vi)
    uniformly in m: with boundary "flags" the 20-state lookup machine (kernels.constructions.tm2d) must halt on
    every instance (m <= m_max, d <= d_max, random S, x) with the output in the top-left cell and the
    rest of the block blank.  With boundary "none" (transitions read (state, symbol) only) the
    shift argument applies: a flag-free run on the grid with one more row on top coincides with
    the run on the smaller grid, shifted by one row, until the head would leave the smaller grid --
    verified on random machines -- so a machine that halts at the top-left of the m-row instance
    halts at row 2 of the (m+1)-row one; the witness runs the lookup learner compiled for m rows
    on m+1 rows.

    Exactness
    ---------
    Exact (integers, Fractions).

    Mutants
    -------
    Unscaled XOR features fail (b) whenever some y^(i) = -1; zero extra states leave a random
    machine free to move on its first step (c).

    Second-reader mutant "xor-last-y*y": the memorised row i is (1/3) y^(i) [x^(i); 1], times diag([x; 1]) gives last entry
    y^(i), never y^(i)^2 = 1 when y^(i) = -1 (k = 0 forces y^(1) = -1): false, rejected.

    Correction
    ----------
    State codes use digits {-1, 0, 1} (so 0 is a code); the XOR row's last entry is y^(i) (not
    y^(i) y^(i)); and (vi) needs boundary information (the padding flags of the head cell, realised in
    the RCNN by two layers per TM step) -- O(1) extra states of a (state, symbol)-reading TM cannot
    find the top-left corner uniformly in m on the finite grid.

    Notes
    -----
    A variant with state digits {0, 1} (B.1.1's "{0,1}^log(s)") was tried and holds -- 2^n >= s codes
    including 0 -- so it is a valid encoding, not a false variant, and is not kept as a mutant.
    Second-reader judgement: proof-gap (substantive), formerly erratum.  Definition 6 is the
    textbook TM; the modifications (i)-(vi) are B.1.2's set-up of the proof of Lemma 2 (an appendix
    construction), so a failure of them refutes a step of the proof, not a printed theorem: printed
    = the corrected model (holds on every case), proof_step = the modifications as printed (fails:
    (i) 0 is not a code, since sum a_i 3^{-i} with a_i = +-1 is never 0; (v) the last entry; (vi) the
    shift witness).  (vi) is substantive: the repair changes the RCNN layer protocol (two layers per
    step), though Lemma 2's form (depth c'_2 (t + m + d)) survives with a larger constant.  The
    reduction (ii)-(iii) is not asserted.  No inequality parts.
    Proof of the impossibility behind (d): the head only reads its own cell, and a move into the
    padding removes it; so a run that never leaves the m-row grid sees the same symbols, at the same
    positions relative to the bottom-right start cell, on the (m+1)-row grid, and takes the same
    steps.  It therefore halts in row 2 there, and any TM satisfying (vi) must have Omega(m) states
    (or boundary information).  The corrected model reads the padding flags of the head cell; in the
    RCNN this needs two layers per TM step (kernels.constructions.tm2d, protocol "two_layer"), because a
    neighbour of the head cannot see the head's far neighbours inside a 3x3 patch.
    """
    ev = Evidence("true", rigor=Rigor.EXACT)
    for s in range(1, 65):
        n = (s - 1).bit_length() + 1
        has_zero, n_codes = _state_codes(statement.state_digits, n)
        ev.add({"part": "(a) state codes contain the start code 0 and >= s codes", "s": s, "digits": n, "codes": n_codes},
               has_zero and n_codes >= s)
    spec = memory_spec()
    enc = spec.enc
    for m, d, k, X, y, x, tape in _d6_xor_tapes(ctx.claim_id, p["datasets"], p["m_max"], p["d_max"]):
        want = np.zeros((m + 1, d + 1), np.int64)
        for i in range(m):
            feats = x * X[i] * (y[i] if statement.xor_scaled_features else 1)
            last = y[i] * y[i] if statement.xor_last == "y*y" else y[i]
            want[i] = np.concatenate([feats, [last]])
        want[m] = np.concatenate([x, [1]])
        diff = np.argwhere(tape != want)
        ev.add({"part": "(b) XOR tape", "m": m, "d": d, "dataset": k,
                "first difference": None if diff.size == 0 else f"row {diff[0][0] + 1}, col {diff[0][1] + 1}: "
                f"tape {tape[tuple(diff[0])]}, statement {want[tuple(diff[0])]}"}, diff.size == 0)
    rng = ctx.rng("machines")
    for k in range(p["machines"]):
        s = int(rng.integers(1, 6))
        M = T.random_machine(rng, s, first_step_stays=False)
        Mp = M
        for _ in range(statement.first_step_states):
            Mp = _with_stay_start(Mp)
        R, C = int(rng.integers(2, 5)), int(rng.integers(2, 6))
        tape = rng.integers(-1, 2, size=(R, C))
        start = (R - 1, int(rng.integers(0, C)))
        steps = 12
        a = T.simulate(M, tape, start, steps)
        b = T.simulate(Mp, tape, start, steps + statement.first_step_states)
        e = statement.first_step_states
        stays = bool(np.array_equal(b.tapes[1], tape)) and tuple(b.heads[1]) == start
        follows = all(np.array_equal(a.tapes[j], b.tapes[j + e]) and tuple(a.heads[j]) == tuple(b.heads[j + e])
                      and (a.heads[j][0] < 0 or a.states[j] + e == b.states[j + e]) for j in range(steps + 1))
        ev.add({"part": "(c) first step stays, then follows M", "machine": k, "s": s}, stays and follows)
    if statement.boundary == "flags":
        M = lookup_machine()
        halt = M.names.index("halt")
        rng = ctx.rng("halting")
        for m in range(1, p["m_max"] + 1):
            for d in range(1, p["d_max"] + 1):
                t, _ = halting_time(M, m, d, halt_state=halt)
                X, y = random_dataset(rng, m, d, repeat=True)
                W = memorisation_formula(X, y, m + 2)
                for x in itertools.product((-1, 1), repeat=d):
                    G = TG.memory_grid(W, list(x) + [1], 2, enc)
                    tape = np.zeros((m + 1, d + 1 + t + 2), np.int8)
                    tape[:, : d + 1] = initial_tape(G, d, enc)[:, : d + 1]
                    tr = T.simulate(M, tape, (m, d), t + 1)
                    block = tr.tapes[-1][:, : d + 1].copy()
                    out = int(block[0, 0])
                    block[0, 0] = 0
                    ok = (tr.lost_at is None and tuple(tr.heads[-1]) == (0, 0) and tr.states[-1] == halt and not block.any()
                          and out == T.lookup_learner(X, y, x))
                    ev.add({"part": "(d) (vi) reached uniformly in m (boundary flags)", "m": m, "d": d, "x": str(x)}, ok)
    else:
        rng = ctx.rng("shift")
        for k in range(p["machines"]):
            M = T.random_machine(rng, int(rng.integers(1, 6)))
            R, C = int(rng.integers(2, 5)), int(rng.integers(2, 6))
            small = rng.integers(-1, 2, size=(R, C))
            big = np.vstack([rng.integers(-1, 2, size=(1, C)), small])
            start = (R - 1, C - 1)
            a = T.simulate(M, small, start, 20)
            b = T.simulate(M, big, (R, C - 1), 20)
            end = a.lost_at if a.lost_at is not None else 21
            same = all(np.array_equal(a.tapes[j], b.tapes[j][1:]) and a.heads[j][0] + 1 == b.heads[j][0]
                       and a.heads[j][1] == b.heads[j][1] and a.states[j] == b.states[j] for j in range(end))
            ev.add({"part": "(d) shift lemma: runs on m and m+1 rows coincide until the smaller grid is left", "machine": k}, same)
        m, d = 2, 1
        X = np.array([[1], [-1]])
        y = np.array([1, -1])
        CM, t = compiled_lookup(m, d, 40)
        W = memorisation_formula(np.vstack([X[:1], X]), np.concatenate([y[:1], y]), m + 3)
        G = TG.memory_grid(W, [1, 1], 40, enc)
        tape = initial_tape(G, d, enc)
        tr = T.simulate(CM, tape, (m + 1, d), t + 1)
        ev.add({"part": "(d) (vi) uniformly in m without boundary information",
                "witness": f"lookup learner compiled for m = {m} (flag-free, {CM.n_states} states) on the m = {m + 1} instance",
                "halts at (row, col)": str(tuple(int(v) + 1 for v in tr.heads[-1])), "top-left": "(1, 1)"},
               tuple(tr.heads[-1]) == (0, 0))
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# B2. The layer spec: roll-out = 2D TM
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LayerSpecStatement:
    """The spec variant (kernels.constructions.tm2d.LayerSpec keywords) and whether machines obey the first-step
    convention (iv)."""

    variant: tuple
    first_step_stays: bool = True
    text: str = ""

    def spec(self, machine):
        return TG.spec_for(machine, **dict(self.variant))


_B2_PRINTED = LayerSpecStatement((("head_right_state_from", "above"),), text="printed")
_B2_CORRECTED = LayerSpecStatement((("head_right_state_from", "right"),), text="corrected")


@claim(
    id="seed003.layer_spec",
    source=SOURCE,
    label="B.2 (f_Conv2D spec)",
    entry="B2",
    title="f_Conv2D = {f_msg, f_TM, identity} rolls out the 2D TM step for step (after a typo fix)",
    lines=[(449, 477), (479, 506)],
    printed=_B2_CORRECTED,
    proof_step=_B2_PRINTED,
    mutants=[
        Mutant("first-step-moves", "machines whose first step may move (convention (iv) dropped)",
               replace(_B2_CORRECTED, first_step_stays=False, text="first step may move")),
        Mutant("broadcast-vertical", "case 4 of f_msg broadcasts the compute phase vertically only",
               replace(_B2_CORRECTED, variant=(("compute_broadcast", "vertical"),), text="vertical broadcast")),
        Mutant("head-bottom-left", "case 3 places the head at the bottom-left cell (x_{0,-1} = p), as the text says",
               replace(_B2_CORRECTED, variant=(("head_start", "left"),), text="head at bottom-left")),
        Mutant("vertical-and-above", "vertical-only compute broadcast together with the printed gamma(x_{-1,0})[0]",
               replace(_B2_CORRECTED, variant=(("compute_broadcast", "vertical"), ("head_right_state_from", "above")),
                       text="vertical broadcast + printed state source"), part="rollout", origin="second-reader"),
    ],
    parts=[
        Part("rollout", "after layer k the grid encodes the TM after k - 1 steps: every tape symbol, the head position "
             "(or none after it leaves), its state, at most one head"),
        Part("no_undefined", "every value stays a code (val(., i) defined) on every layer"),
        Part("compute_front", "the compute phase covers the cells within distance k - 1 of (m+1, d+1), ahead of the head"),
        Part("state_right_case", "'head on the right' case: new state gamma(x_{-1,0})[0] (proof step as printed)"),
        Part("network_level", "f-bar_Conv2D is realised by the 5-layer ReLU net of B.4", asserted=False,
             reason="this claim runs the spec; the ReLU realisation is verify/rcnn/interpolation.py"),
    ],
    severity=Severity.TYPO,
    affects=(),
    expect=Status.PROOF_GAP,
    rigor=Rigor.EXACT,
    params=[Param("machines", int, 1, 2000, doc="random machines (each with a random S, x, m, d, depth)"),
            Param("s_max", int, 1, 12, doc="states s = 1..s_max"), Param("m_max", int, 1, 6, doc="m <= m_max"),
            Param("d_max", int, 1, 6, doc="d <= d_max"), Param("l_max", int, 2, 40, doc="depth <= l_max"),
            Param("oracle", int, 0, 100, doc="machines whose layers are also recomputed by the Fraction reference")],
    tiers={"quick": {"machines": 150, "s_max": 6, "m_max": 3, "d_max": 3, "l_max": 14, "oracle": 3},
           "full": {"machines": 600, "s_max": 10, "m_max": 4, "d_max": 4, "l_max": 24, "oracle": 20}},
)
def check_layer_spec(statement: LayerSpecStatement, p, ctx) -> Verdict:
    """B.2: the recurrent layer spec f-bar_Conv2D implements one TM step per application.

    Statement
    ---------
    f-bar_Conv2D(X) = f-bar_msg(X) if val(x00, 2) = 0; f-bar_TM(X) if val(x00, 2) = 1; x00 otherwise,
    with f-bar_msg (five cases: memorise, memory broadcast, head start at the cell with x_{0,1} = 1 and
    x_{1,0} = p, compute broadcast, identity) and f-bar_TM (head here; head below / above / right /
    left moving onto this cell; identity).  In the "head on the right" case the new state is printed
    as gamma(x_{-1,0})[0].  After memorisation, the RCNN "computes the roll-out of A" (one TM step per
    layer, the first step being a stay so that the compute phase stays ahead of the head).

    Source
    ------
    Seed 003, Appendix B.2, lines 449-477 (spec) and Figure 3, lines 479-506.

    Checkable form
    --------------
    Random 2D TMs (s <= s_max states, uniform transitions; the start state stays and keeps its
    symbol, convention (iv)), random S with m <= m_max, d <= d_max, random x, depth l <= l_max.  The
    grid f_mem([x; 1]; W^(m+2)) is rolled out exactly (kernels.constructions.tm2d, cases as if/elif in printed
    order) and after layer k compared with the plain simulator after k - 1 steps started at
    (m+1, d+1) in state 0 on the XOR tape (data = sign of the block, ones block blank): every tape
    symbol, the head position (or its absence after leaving the grid), the state, at most one head,
    no undefined values, and the compute front = the cells within distance k - 1 of the start.  On
    ``oracle`` machines every layer is recomputed patch by patch from the printed case lists on
    Fractions (kernels.constructions.tm2d.conv2d_reference) and must agree.

    Exactness
    ---------
    Exact (scaled integers, Fractions).

    Mutants
    -------
    Letting the first step move sends the head into a cell that is not yet in the compute phase,
    where f_msg drops it; a vertical-only compute broadcast leaves the head's horizontal target in
    phase 0; a head started at the bottom-left cell (the text's "bottom-left") disagrees with the
    (m+1, d+1) start of the formal condition and of B.3.

    Second-reader mutant "vertical-and-above" combines two wrong cases; it is false on the recorded
    case (the independent simulator disagrees with the roll-out; exact); the old checker rejected it.

    Correction
    ----------
    In the "head on the right" case of f-bar_TM the new state is read from the right neighbour,
    gamma(x_{0,1})[0], not from the cell above gamma(x_{-1,0})[0].  Index slip: severity typo.

    Notes
    -----
    Second-reader judgement: proof-gap (typo), formerly erratum.  B.2's spec is the construction in
    the proof of Lemma 2, not a printed theorem: printed = the spec with the index fixed (rolls the TM
    out exactly on every random case), proof_step = the spec as printed (fails with the witness).
    Random instances (machines, S, x, m, d, depth) are drawn by the claim's seeded RNG rather than by
    hypothesis; the comparison is with the independent simulator kernels.constructions.tm2d.simulate.  No
    inequality parts.
    The printed gamma(x_{-1,0})[0] reads the state of the cell above (no head: code 0) and its symbol,
    so the first left move gets a wrong state (or an undefined one on the top row).  The catalog's
    other two mutants are not rejectable, so they are not used: reordering cases 1 and 2 of f_msg
    cannot matter (both give -1/9; the gradient spec has its own conditions), nor cases 3 and 4
    (case 3 fires only at (m+1, d+1) on the first inference layer, before any cell is in phase 1,
    and never during memorisation, when row m+1 is still 0); a horizontal memory broadcast only
    rewrites ones-block cells, which the readout ignores -- Algorithm 1 with it still memorises
    exactly (computed on 30 random training sets while preparing this check).
    Quick tier (150 machines, s <= 6, m, d <= 3, depth <= 14; see the tiers for full): a smoke test of
    what the full tier shows.  The printed statement and the proof step run every machine; a mutant
    stops at its first disagreeing machine (the 1st or 2nd: its rejection is then decided, the details
    say so), so the quick tier does not count a mutant's disagreeing layers; the full tier does.
    """
    ev = Evidence("true", rigor=Rigor.EXACT)
    rng = ctx.rng("machines")
    steps_total = mism_steps = 0
    # quick tier: a mutant stops at its first disagreeing machine (its rejection is then decided); the
    # printed statement and the proof step run every machine at every tier, and mutants at full
    stop_at_failure = ctx.tier == "quick" and ctx.statement_tag.startswith("mutant:")
    for k in range(p["machines"]):
        s = int(rng.integers(1, p["s_max"] + 1))
        M = T.random_machine(rng, s, first_step_stays=statement.first_step_stays)
        spec = statement.spec(M)
        m, d = int(rng.integers(1, p["m_max"] + 1)), int(rng.integers(1, p["d_max"] + 1))
        l = int(rng.integers(2, p["l_max"] + 1))
        X, y = random_dataset(rng, m, d)
        x = rng.choice(np.array([-1, 1]), size=d)
        W = memorisation_formula(X, y, m + 2)
        cmp = compare_with_simulator(spec, M, W, x, l)
        bad = [r for r in cmp["records"] if r["symbol_mismatches"] or not r["head_ok"] or not r["state_ok"]
               or r["heads"] > 1 or r["invalid"] or not r["front_ok"]]
        steps_total += len(cmp["records"])
        mism_steps += len(bad)
        first = bad[0] if bad else None
        ev.add({"machine": k, "s": s, "m": m, "d": d, "depth": l, "head lost at step": cmp["lost_at"],
                "first disagreeing layer": None if first is None else first["layer"],
                "detail": None if first is None else {kk: str(first[kk]) for kk in ("symbol_mismatches", "sim_head", "rcnn_head",
                                                                                     "sim_state", "rcnn_state", "invalid", "front_ok")}},
               not bad)
        if k < p["oracle"]:
            G = TG.memory_grid(W, list(map(int, x)) + [1], l, spec.enc)
            cur = G
            same = True
            for _ in range(min(l, 6)):
                a, ga = TG.conv_layer(cur, spec, backend="reference")
                b, gb = TG.conv_layer(cur, spec)
                same &= bool(np.array_equal(a, b) and np.array_equal(ga, gb))
                cur = b
            ev.add({"machine": k, "part": "kernel == Fraction reference of the printed case lists"}, same)
        if bad and stop_at_failure:
            ev.details["stopped"] = f"quick tier, mutant: at its first disagreeing machine ({k + 1} of {p['machines']})"
            break
    ev.details["layers compared"] = steps_total
    ev.details["layers disagreeing"] = mism_steps
    _layer_spec_plot(statement, ctx, ev)
    return ev.verdict()


_PLOT_INSTANCE: dict = {}


def _layer_spec_plot(statement: LayerSpecStatement, ctx, ev: Evidence) -> None:
    """One random 5-state machine (m = d = 3, 16 layers) on which the printed typo bites and whose head
    stays on the grid and visits several cells; the statement's roll-out against the simulator."""
    seed = ctx.seed("plot")
    if seed not in _PLOT_INSTANCE:
        prng = np.random.default_rng(np.random.SeedSequence(seed))
        for _ in range(2000):
            M = T.random_machine(prng, 5)
            X, y = random_dataset(prng, 3, 3)
            x = prng.choice(np.array([-1, 1]), size=3)
            W = memorisation_formula(X, y, 5)
            typo = compare_with_simulator(TG.spec_for(M, head_right_state_from="above"), M, W, x, 16)
            recs = typo["records"]
            if typo["lost_at"] is None and any(not r["state_ok"] for r in recs) and len({r["sim_head"] for r in recs}) >= 6:
                break
        _PLOT_INSTANCE[seed] = (M, W, x)
    M, W, x = _PLOT_INSTANCE[seed]
    recs = compare_with_simulator(statement.spec(M), M, W, x, 16)["records"]
    steps = [r["step"] for r in recs]
    bad = [r["symbol_mismatches"] + (not r["head_ok"]) + (not r["state_ok"]) for r in recs]
    ev.plots.append({
        "title": f"Roll-out vs 2D-TM simulator, random 5-state machine ({statement.text or 'statement'} spec)",
        "xlabel": "TM step (= layer - 1)", "ylabel": "head column / state index / disagreements",
        "series": [
            {"label": "simulator head column", "x": steps, "y": [r["sim_head"][1] for r in recs], "style": "o-"},
            {"label": "RCNN head column", "x": steps, "y": [(r["rcnn_head"] or (-1, -1))[1] for r in recs], "style": "x--"},
            {"label": "simulator state", "x": steps, "y": [r["sim_state"] for r in recs], "style": "s-"},
            {"label": "RCNN state (-1: no head)", "x": steps, "y": [-1 if r["rcnn_state"] is None else r["rcnn_state"] for r in recs],
             "style": "+--"},
            {"label": "disagreements (cells + head + state)", "x": steps, "y": bad, "style": "k:"},
        ],
        "logx": False, "logy": False,
    })


# ---------------------------------------------------------------------------------------------
# B2h. The head
# ---------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1 << 16)
def _head_bar(v: Fraction, slope: Fraction, printed: bool) -> Fraction:
    """TG.head_bar, cached: the same points are evaluated for every statement with the same (slope, printed)
    and, in the readout grids, for every blank cell."""
    return TG.head_bar(v, slope=slope, printed=printed)


@functools.lru_cache(maxsize=16)
def _head_codes(N: int) -> tuple:
    """The output-cell values of check_head_spec (a) for N digits: ((c, c/3 + 1/9, (c/3 + 1/9 + 1/27 + code 3^-N
    for every code)) for c = -1, 1), and the extreme points (codes -mc, mc) in the order the loop appended them."""
    mc = (3 ** (N - 3) - 1) // 2
    per_c, pts = [], []
    for c in (-1, 1):
        vs = tuple(c * THIRD + NINTH + Fraction(1, 27) + Fraction(code, 3**N) for code in range(-mc, mc + 1))
        per_c.append((c, c * THIRD + NINTH, vs))
        pts += [vs[0], vs[-1]] if mc else [vs[0]]
    return tuple(per_c), tuple(pts)


@functools.lru_cache(maxsize=64)
def _head_codes_ok(N: int, slope: Fraction, printed: bool) -> bool:
    """check_head_spec (a) for N digits: f(c/3 + 1/9) = c and f = c at every output-cell value (the state counts
    s with the same N share it)."""
    ok = True
    for c, v0, vs in _head_codes(N)[0]:
        ok &= _head_bar(v0, slope, printed) == c
        for v in vs:  # each value once per key: TG.head_bar directly (hashing for _head_bar's cache costs more)
            ok &= TG.head_bar(v, slope=slope, printed=printed) == c
    return ok


@dataclass(frozen=True)
class HeadStatement:
    """f-bar_head with ``slope``; ``printed`` boundaries (open middle pieces); final grids with the
    head anywhere (``head_anywhere``) instead of on the output cell."""

    printed: bool
    slope: Fraction = Fraction(18)
    head_anywhere: bool = False


@claim(
    id="seed003.head_spec",
    source=SOURCE,
    label="B.2 (f_head) and B.3",
    entry="B2h",
    title="f_head: the printed case split gives f_head(1/9) = 1; the continuous version (4 ReLUs) works",
    lines=[(510, 514), (582, 584)],
    printed=HeadStatement(printed=False),
    proof_step=HeadStatement(printed=True),
    mutants=[
        Mutant("slope-9", "slope 9 instead of 18", HeadStatement(printed=False, slope=Fraction(9))),
        Mutant("head-anywhere", "the TM may halt with the head on a blank data cell", HeadStatement(printed=False, head_anywhere=True)),
        Mutant("slope-27", "slope 27 (50% steeper) instead of 18", HeadStatement(printed=False, slope=Fraction(27)),
               part="values", origin="second-reader"),
    ],
    parts=[
        Part("values", "f(-1/9) = 0 with f'(-1/9) = 18; f(3^{-2}) = 0 on blank compute cells; f = +-1 on the output cell "
             "c/3 + 1/9 + 1/27 + state (every state code)"),
        Part("relu_size", "f-bar_head is a one-layer ReLU network with at most 6 ReLUs (l.584)"),
        Part("readout", "the sum of f-bar_head over the halted data block is the TM's output +-1"),
        Part("boundaries", "the middle pieces on open intervals, 'otherwise' = 1 (proof step as printed)"),
    ],
    severity=Severity.TYPO,
    affects=(),
    expect=Status.PROOF_GAP,
    rigor=Rigor.EXACT,
    params=[Param("s_max", int, 1, 4096, doc="state counts s = 1..s_max (all codes with ceil(log2 s) + 1 digits)"),
            Param("grids", int, 1, 2000, doc="random final grids for the readout")],
    tiers={"quick": {"s_max": 64, "grids": 200}, "full": {"s_max": 1024, "grids": 2000}},
)
def check_head_spec(statement: HeadStatement, p, ctx) -> Verdict:
    """B.2's head f-bar_head and its one-layer ReLU realisation.

    Statement
    ---------
    f-bar_head(x) = -1 if x <= -1/6; 18 (x + 3^{-2}) on (-1/6, 0); -18 (x - 3^{-2}) on (0, 3^{-2});
    18 (x - 3^{-2}) on (3^{-2}, 1/6); 1 otherwise.  It "can be constructed using a one layer ReLU
    network with at most 6 ReLUs" (l.584).  Used as: f-bar_head(-1/9) = 0 with slope 18 (memory
    phase, Lemma 4), f-bar_head(3^{-2}) = 0 (blank compute cells) and +-1 on the output cell, so that
    the sum over the data block is the TM's output.

    Source
    ------
    Seed 003, B.2, lines 510-514 (definition); B.3, lines 582-584 (use and the ReLU claim).

    Checkable form
    --------------
    (a) Exact values: f(-1/9) = 0 and f'(-1/9) = 18; f(1/9) = 0; f(c/3 + 1/9) = c and
    f(c/3 + 1/9 + 1/27 + code 3^{-N}) = c for c = +-1 and every state code with ceil(log2 s) + 1
    digits, s = 1..s_max.  (b) The ReLU net -1 + 18 s(x + 1/6) - 36 s(x) + 36 s(x - 1/9) - 18 s(x - 1/6)
    (4 ReLUs; U2 in R^{4 x 1}, U1 in R^{1 x 4}) equals the statement's f on a rational grid of step
    1/108 over [-1/2, 1/2] plus every point of (a).  (c) Random final grids obeying the halting
    convention (output cell at the top-left with head and state, every other data cell 1/9; m, d
    <= 5): the sum of f over the data block equals the output c.

    Exactness
    ---------
    Exact (Fractions).

    Mutants
    -------
    Slope 9 gives f'(-1/9) = 9 (Lemma 4 would store +-1/6, the padding value); a head halting on a
    blank data cell contributes 18 (1/27 + code 3^{-N}) in (1/3, 1) to the sum.

    Second-reader mutant: slope 27 gives f'(-1/9) = 27 != 18 exactly (Lemma 4 would store +-1/2); the
    old checker rejected it too.

    Correction
    ----------
    Take the continuous piecewise-linear function through the printed pieces (closed middle intervals:
    f(0) = 2, f(1/9) = 0); it is the 4-ReLU net -1 + 18 s(x + 1/6) - 36 s(x) + 36 s(x - 1/9) - 18 s(x - 1/6).

    Notes
    -----
    Second-reader judgement: proof-gap (typo), formerly erratum.  f-bar_head is defined inside the
    proof (B.2/B.3); the open intervals make f(1/9) = 1 (the witness), a boundary slip that the
    proof's own claim "a one-layer ReLU network" (a continuous function) already excludes.  printed =
    the continuous version (holds: values, the 4-ReLU net, the readout), proof_step = the printed case
    split (fails).  The size bound "at most 6 ReLUs" is asserted on a net built here (4 ReLUs): the
    paper builds none.  No inequality parts (the ReLU count is an integer bound met with 4 <= 6).
    As printed, the middle pieces are open intervals, so x = 0 and x = 1/9 fall under "otherwise"
    and f(1/9) = 1: every blank compute cell would add 1.  The continuous piecewise-linear function
    through the same pieces (f(0) = 2, f(1/9) = 0) is what the ReLU net computes.  The output cell
    -1/3 + 1/9 + 1/27 + state stays <= -1/6 only because |state| < 1/54 = sum_{i >= 4} 3^{-i}.
    """
    ev = Evidence("true", rigor=Rigor.EXACT)
    f = lambda v: _head_bar(v, statement.slope, statement.printed)
    pts = [Fraction(-1, 9), NINTH]
    ev.add({"part": "(a) f(-1/9) = 0 (memory phase)"}, f(Fraction(-1, 9)) == 0)
    ev.add({"part": "(a) f'(-1/9) = 18"}, TG.head_bar_slope(Fraction(-1, 9), slope=statement.slope), Fraction(18), relation="eq")
    ev.add({"part": "(a) f(1/9) = 0 (blank compute cell)", "f(1/9)": f(NINTH)}, f(NINTH) == 0)
    for s in sorted({1, 2, 3, 4, 8, 16, 64, p["s_max"]} | set(range(1, min(p["s_max"], 16) + 1))):
        if s > p["s_max"]:
            continue
        N = T.n_digits_for(s)
        mc = (3 ** (N - 3) - 1) // 2
        okc = _head_codes_ok(N, statement.slope, statement.printed)
        pts += _head_codes(N)[1]
        ev.add({"part": "(a) output cell values map to +-1", "s": s, "N": N, "codes": 2 * mc + 1}, okc)
    w = TG.head_relu_weights(statement.slope)
    grid = [Fraction(k, 108) for k in range(-54, 55)] + pts
    bad = [v for v in grid if TG.head_relu(v, w) != f(v)]
    ev.add({"part": "(b) 4-ReLU net equals f", "points": len(grid), "ReLUs": len(w["U2"]),
            "first disagreement": None if not bad else f"x = {bad[0]}: net {TG.head_relu(bad[0], w)}, f {f(bad[0])}"}, not bad)
    ev.add({"part": "(b) at most 6 ReLUs"}, len(w["U2"]) <= 6)
    rng = ctx.rng("grids")
    for k in range(p["grids"]):
        m, d = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        s = int(rng.integers(1, 33))
        N = T.n_digits_for(s)
        mc = (3 ** (N - 3) - 1) // 2
        c = int(rng.choice([-1, 1]))
        code = Fraction(int(rng.integers(-mc, mc + 1)), 3**N)
        block = [[NINTH] * (d + 1) for _ in range(m + 1)]
        if statement.head_anywhere:
            r, cc = int(rng.integers(0, m + 1)), int(rng.integers(1, d + 1)) if d >= 1 else 0
            block[0][0] = c * THIRD + NINTH
            block[r][cc] = NINTH + Fraction(1, 27) + code
        else:
            block[0][0] = c * THIRD + NINTH + Fraction(1, 27) + code
        # the exact sum of f over the block: each distinct cell value once, times its count (Fractions are exact,
        # so this is the value of the cell-by-cell sum)
        counts: dict = {}
        for row in block:
            for v in row:
                counts[v] = counts.get(v, 0) + 1
        total = sum(f(v) * n for v, n in counts.items())
        ev.add({"part": "(c) readout of a halted grid", "grid": k, "m": m, "d": d, "output": c}, total, Fraction(c), relation="eq")
    return ev.verdict()
