"""The RCNN grid of seed 003 and its 2D Turing-machine roll-out: Definition 5 (D5), Lemmas 1 and 2
(L1/L2), the data representation (B11), Definition 6 with the TM modifications (D6), the layer spec
f_Conv2D (B2), the head f_head (B2h) and the computation phase (B3c).

Everything runs at the level of the paper's spec functions (the f-bar of Appendix B.2), exactly:
cell values are integers scaled by 2 * 3^N (kernels.constructions.tm2d), weights W are Fractions.  The
independent side of every roll-out check is the plain 2D Turing-machine simulator
(kernels.constructions.tm2d.simulate) or a learner computed directly in Python.

What is and is not established here.  The paper never builds the Gaussian-elimination RCNN (or any
concrete learner): it gives the generic TM -> RCNN reduction (spec functions, then Lemma 5's
interpolation, verify/rcnn/interpolation.py).  The checks below execute that reduction: random TMs
are rolled out by the spec and compared step by step with the simulator (B2), SGD memorises the
training set exactly (L1/L2, and verify/rcnn/memorisation.py), and a concrete learner (the lookup
learner: "label of the first stored example equal to x, else +1") runs end to end through
Algorithm 1 at spec level (B3c, Lemma 2 part 2).  Two gaps are recorded: the halting convention
(vi) of B.1.2 cannot be reached by a TM whose transitions read only (state, symbol), uniformly in
the grid size (the shift argument of D6), and the catalog's proposed fix (let gamma read the
neighbours' padding flags) is not local to a 3x3 patch; a two-layers-per-step protocol is local and
makes a 20-state learner work for every (m, d).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from kernels.constructions import tm2d as T

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True

THIRD = Fraction(1, 3)
NINTH = Fraction(1, 9)

# ---------------------------------------------------------------------------------------------
# shared helpers (also used by memorisation.py and interpolation.py)
# ---------------------------------------------------------------------------------------------


def random_dataset(rng: np.random.Generator, m: int, d: int, *, repeat: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """m examples in {-1, 1}^d with labels in {-1, 1}; ``repeat`` copies x^(1) into a later row."""
    X = rng.choice(np.array([-1, 1]), size=(m, d))
    y = rng.choice(np.array([-1, 1]), size=m)
    if repeat and m >= 2:
        X[int(rng.integers(1, m))] = X[0]
    return X, y


def memorisation_formula(X, y, i: int, rule: str = "lt") -> np.ndarray:
    """Lemma 1/2's W^(i): row a (1-based) = (1/3) y_a [x_a; 1] if a < i ("lt") or a <= i ("le"), else 0.

    Row m+1 is the dummy example (1_d, 1)."""
    m, d = len(X), len(X[0])
    W = np.full((m + 1, d + 1), Fraction(0), dtype=object)
    rows = [(list(map(int, X[a])), int(y[a])) for a in range(m)] + [([1] * d, 1)]
    for a in range(1, m + 2):
        if (a < i) if rule == "lt" else (a <= i):
            xa, ya = rows[a - 1]
            for b in range(d):
                W[a - 1, b] = THIRD * ya * xa[b]
            W[a - 1, d] = THIRD * ya
    return W


def memory_spec() -> T.LayerSpec:
    """The layer spec with no machine (memorisation only touches f_msg and the identity)."""
    return T.LayerSpec(4)


def initial_tape(G: np.ndarray, d: int, enc: T.CellEncoding) -> np.ndarray:
    """Tape symbols of an inference grid: the sign of the XOR block, blanks on the ones block."""
    tape = np.zeros(G.shape, np.int8)
    for r in range(G.shape[0]):
        for c in range(d + 1):
            tape[r, c] = int(np.sign(int(G[r, c])))
    return tape


def compare_with_simulator(spec: T.LayerSpec, machine: T.Machine2D, W, x, layers: int) -> dict:
    """Roll the RCNN out on f_mem([x; 1]; W) and compare layer k with the simulator after k - 1 steps.

    Returns per-layer records: symbol mismatches, head agreement, state agreement, number of heads,
    invalid cells, and whether the compute phase covers exactly the cells within distance k - 1 of
    the start cell (m+1, d+1)."""
    enc = spec.enc
    W = np.asarray(W, dtype=object)
    m1, d1 = W.shape
    G = T.memory_grid(W, list(map(int, x)) + [1], layers, enc)
    ro = T.rollout(G, spec, layers, keep=True)
    tr = T.simulate(machine, initial_tape(G, d1 - 1, enc), (m1 - 1, d1 - 1), layers)
    R, C = G.shape
    dist = np.abs(np.arange(R)[:, None] - (m1 - 1)) + np.abs(np.arange(C)[None, :] - (d1 - 1))
    recs = []
    for k in range(1, layers + 1):
        dec = T.decode_grid(ro.grids[k], spec)
        sym_bad = int(np.count_nonzero(dec["symbols"] != tr.tapes[k - 1]))
        h = tuple(int(v) for v in tr.heads[k - 1])
        heads = dec["heads"]
        if h[0] < 0:
            head_ok = len(heads) == 0
            state_ok = True
        else:
            head_ok = len(heads) == 1 and heads[0][:2] == h
            state_ok = head_ok and heads[0][2] == int(tr.states[k - 1])
        front_ok = bool(np.array_equal(dec["phase"] == 1, dist <= k - 1))
        recs.append({"layer": k, "step": k - 1, "symbol_mismatches": sym_bad, "head_ok": head_ok, "state_ok": state_ok,
                     "heads": len(heads), "invalid": len(dec["invalid"]), "front_ok": front_ok,
                     "sim_head": h, "sim_state": int(tr.states[k - 1]),
                     "rcnn_head": heads[0][:2] if len(heads) == 1 else None,
                     "rcnn_state": heads[0][2] if len(heads) == 1 else None})
    return {"records": recs, "lost_at": tr.lost_at}


def halting_time(machine: T.Machine2D, m: int, d: int, *, halt_state: int) -> tuple[int, int]:
    """(steps until ``halt_state``, largest column visited) for a flag-reading machine, run on a block
    with no constant row.

    The lookup machine scans (or erases) every row to its end whatever the data, so its running time
    depends on (m, d) only: t = 21 + 9(m-1) + 5(d-1) + 2(m-1)(d-1) (checked for m, d <= 3 on random
    data); the end-to-end checks would fail if a run took longer than the depth allows."""
    width = 8 * (m + 2) * (d + 3)
    tape = np.zeros((m + 1, d + 1 + width), np.int8)
    tape[:, : d + 1] = -1
    tape[:, d] = 1  # no row constant: the full scan
    tr = T.simulate(machine, tape, (m, d), width)
    hit = np.flatnonzero(tr.states == halt_state)
    if hit.size == 0 or tr.lost_at is not None:
        raise RuntimeError("the machine did not halt inside the budget")
    t = int(hit[0])
    return t, int(tr.heads[: t + 1, 1].max())


_LOOKUP = None


def lookup_machine() -> T.Machine2D:
    global _LOOKUP
    if _LOOKUP is None:
        _LOOKUP = T.lookup_machine()
    return _LOOKUP


def compiled_lookup(m: int, d: int, layers: int, *, halt_shift: bool = False) -> tuple[T.Machine2D, int]:
    """The lookup learner as a flag-free machine for a fixed (m, d) (position tracked in the state).

    ``halt_shift``: a variant that writes the output at the top-left cell and then halts one cell to
    its right (on a blank cell) -- the B2h edge case."""
    M = lookup_machine()
    if halt_shift:
        M = _halt_right_variant(M)
    t, maxc = halting_time(M, m, d, halt_state=M.names.index("halt"))
    CM, _ = T.compile_fixed_size(M, m + 1, d + 1 + layers, max(maxc + 1, d + 2), (m, d))
    return CM, t


def _halt_right_variant(M: T.Machine2D) -> T.Machine2D:
    """goleft+/- writes the output at the left edge and steps right into a new state that halts."""
    names = list(M.names) + ["halt_r"]
    s = M.n_states
    ns = np.concatenate([M.next_state, np.zeros((1, 3, 16), np.int64)])
    wr = np.concatenate([M.write, np.zeros((1, 3, 16), np.int64)])
    mv = np.concatenate([M.move, np.zeros((1, 3, 16), np.int64)])
    halt_r = s
    for name in ("goleft+", "goleft-"):
        q = names.index(name)
        for fl in range(16):
            if fl & T.FLAG_LEFT:
                for a in range(3):
                    ns[q, a, fl], mv[q, a, fl] = halt_r, T.RIGHT
    ns[halt_r], wr[halt_r], mv[halt_r] = halt_r, np.array([-1, 0, 1])[:, None], T.STAY
    out = T.machine_from_tables(ns, wr, mv, names)
    # keep "halt" as the recognised halting state name for halting_time: rename halt_r
    names[names.index("halt")] = "halt_unused"
    names[halt_r] = "halt"
    return T.Machine2D(out.next_state, out.write, out.move, tuple(names))


def reachable_values(rng: np.random.Generator, n_states: int, runs: int) -> tuple[set, T.LayerSpec]:
    """Cell values (Fractions) met in spec runs with random ``n_states``-state machines: memorisation
    (Algorithm 1) and inference roll-outs, all layers; plus the padding p."""
    values = {Fraction(1, 6)}
    spec = None
    for _ in range(runs):
        M = T.random_machine(rng, n_states)
        spec = T.spec_for(M)
        enc = spec.enc
        m, d = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        l = int(rng.integers(m + 2, m + 2 + 4 * n_states + 8))
        X, y = random_dataset(rng, m, d)
        mem = T.LayerSpec(spec.N, M, spec.codes)
        run = T.algorithm1(X, y, mem, l)
        for Wi, (xi, _) in zip(run.W[:-1], list(zip(list(X), list(y))) + [([1] * d, 1)]):
            G = T.memory_grid(Wi, list(map(int, xi)) + [1], l, enc)
            for g in T.rollout(G, mem, l, keep=True).grids:
                values.update(enc.from_scaled(int(v)) for v in np.unique(g))
        x = rng.choice(np.array([-1, 1]), size=d)
        G = T.memory_grid(run.W[-1], list(map(int, x)) + [1], l, enc)
        for g in T.rollout(G, spec, l, keep=True).grids:
            values.update(enc.from_scaled(int(v)) for v in np.unique(g))
    return values, spec


# ---------------------------------------------------------------------------------------------
# D5. Definition 5
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RCNNDefinition:
    """Shapes of the head weights and the readout of Definition 5.

    head_U1, head_U2: shapes as ("d_head", 1) etc.; readout: "last" (column d_in only, as printed) or
    "data" (columns 1..d_in) or "all" (every grid column, ones block included)."""

    head_U1: tuple
    head_U2: tuple
    readout: str


_D5_PRINTED = RCNNDefinition(("d_head", 1), (1, "d_head"), "last")
_D5_CORRECTED = RCNNDefinition((1, "d_head"), ("d_head", 1), "data")


def _shape(spec, d_head):
    return tuple(d_head if s == "d_head" else s for s in spec)


def _readout_cols(kind: str, d: int, l: int) -> list[int]:
    return {"last": [d], "data": list(range(d + 1)), "all": list(range(d + 1 + l))}[kind]


def _d5_hypotheses(case: dict) -> list[str]:
    """Definition 5 needs d_head > 0 and f_head applied to a scalar (pixel-wise)."""
    bad = []
    if not int(case.get("d_head", 0)) >= 1:
        bad.append("d_head > 0")
    if int(case.get("z dim", 1)) != 1:
        bad.append("f_head is applied pixel-wise (scalar z)")
    return bad


@claim(
    id="seed003.definition_5",
    source=SOURCE,
    label="Definition 5",
    entry="D5",
    title="RCNN with a memory layer: the head shapes and the readout column must be corrected",
    lines=[(204, 228)],
    printed=_D5_PRINTED,
    corrected=_D5_CORRECTED,
    mutants=[
        Mutant("readout-all-columns", "sum f_head over every grid column (ones block included)",
               replace(_D5_CORRECTED, readout="all")),
        Mutant("head-shapes-as-printed", "corrected readout, but U1 in R^{d_head x 1}, U2 in R^{1 x d_head} as printed",
               replace(_D5_CORRECTED, head_U1=("d_head", 1), head_U2=(1, "d_head"))),
        Mutant("readout-last-column", "corrected head shapes, readout ':, d_in' read as the single column d_in",
               replace(_D5_CORRECTED, readout="last"), part="readout", origin="second-reader"),
        Mutant("U1-square", "U1 in R^{d_head x d_head} (f_head no longer scalar-valued)",
               replace(_D5_CORRECTED, head_U1=("d_head", "d_head")), part="head_shapes", origin="second-reader"),
    ],
    parts=[
        Part("head_shapes", "U1 in R^{d_head x 1}, U2 in R^{1 x d_head}; f_head(z) = U1 sigma(U2 z) applied pixel-wise (scalar z)"),
        Part("mem_shape", "f_mem(z; W) = [W diag(z), 1_{d_mem x l}] has shape d_mem x (d_in + l)"),
        Part("readout", "f = sum(f_head(f_Conv2D^(l)(f_mem(z))_{:, d_in})) lets Algorithm 1 memorise (Lemma 2, part 1)"),
        Part("remark_params", "Remark: the number of shared parameters does not depend on d_in, d_mem, l",
             asserted=False, reason="immediate from the shapes of Definition 5 (V1..V5, U1, U2 involve only d_rc, d_head); "
             "the old check compared a constant with itself, which cannot fail, so it is no longer counted as evidence"),
    ],
    severity=Severity.TYPO,
    affects=("seed003.lemma_1", "seed003.lemma_2"),
    hypotheses=_d5_hypotheses,
    expect=Status.ERRATUM,
    rigor=Rigor.EXACT,
    params=[Param("datasets", int, 1, 200, doc="random training sets per (m, d)"),
            Param("m_max", int, 1, 6, doc="m = 1..m_max"), Param("d_max", int, 1, 5, doc="d = 1..d_max")],
    tiers={"quick": {"datasets": 3, "m_max": 3, "d_max": 3}, "full": {"datasets": 12, "m_max": 5, "d_max": 4}},
)
def check_definition_5(statement: RCNNDefinition, p, ctx) -> Verdict:
    """Definition 5: f(z) = sum(f_head(f_Conv2D^(l)(f_mem(z; W))_{:, d_in})), f_head(z) = U1 sigma(U2 z).

    Statement
    ---------
    F_RCNN^{d_in, d_mem, d_rc, d_head, l}: f_mem(z; W) = [W diag(z), 1_{d_mem x l}] with W in
    R^{d_mem x d_in}; f_Conv2D = V5 sigma(V4 V3 sigma(V2 V1 vec(z))) on every 3x3 patch (padding p),
    V1 in R^{d_rc x 9}, V2, V3, V4 in R^{d_rc x d_rc}, V5 in R^{1 x d_rc}; f_head(z) = U1 sigma(U2 z) with
    U1 in R^{d_head x 1}, U2 in R^{1 x d_head}; the output sums f_head over the grid's column d_in
    (":, d_in").  The number of shared parameters does not depend on m, d, l (Remark).

    Source
    ------
    Seed 003, Definition 5 and the Remark, lines 204-228.

    Checkable form
    --------------
    (a) f_head is applied pixel-wise to scalars: with the statement's shapes and random weights,
    U1 sigma(U2 z) must be defined for z in R^1 and return a scalar (numpy matmul; a shape error is
    a failure).  (b) The count 9 d_rc + 3 d_rc^2 + d_rc + 2 d_head of shared parameters (biases
    hidden, footnote 6) is the same for every (m, d, l) on a grid, and f_mem has shape
    d_mem x (d_in + l).  (c) The readout must let Algorithm 1 memorise: SGD at spec level
    (eta = 1/54, f-bar of B.2, exact) with the statement's readout columns must produce Lemma 2's
    W^(m+2) (row a = (1/3) y_a [x_a; 1], the dummy row (1/3) 1) on random training sets.

    Exactness
    ---------
    Exact: shapes are integers; SGD runs on Fractions and scaled integers.

    Mutants
    -------
    Summing every grid column adds f_head(1) = 1 per ones-block cell during memorisation, so the
    SGD step uses y - (m+1) l instead of y; the printed head shapes with the corrected readout still
    fail (a).

    Second-reader mutants: "readout-last-column" (corrected head shapes, printed readout) is false
    because SGD then stores only (1/3) y_a in the last column (exact run, witness W^(m+2) below);
    "U1-square" (U1 in R^{d_head x d_head}) makes f_head vector-valued, not a pixel-wise scalar map.
    Both were already rejected by the old checker.

    Correction
    ----------
    U1 in R^{1 x d_head}, U2 in R^{d_head x 1} (transposed), and the readout sums f_head over the
    data columns 1..d_in (":, :d_in"), as Lemma 4's proof does.  Severity typo: a reader restores both.

    Notes
    -----
    Second-reader judgement: erratum (typo).  The witness is part (a): with the printed shapes
    U1 sigma(U2 z) is not defined for a scalar z (U2 in R^{1 x d_head} needs z in R^{d_head}), for any
    d_head > 0 -- the definition is ill-typed as printed, whatever the construction.  The readout
    ":, d_in" alone is a failure of the paper's construction (B.2's f-bar), not shown impossible for
    every Theta_rc; it is recorded by part (c) and the "readout-last-column" mutant.  The Remark's
    parameter count is not asserted (reason in the parts).  No inequality parts: no sharpness.
    As printed, the readout ":, d_in" is the single column d_in: the gradient reaches only the last
    column of W, which stores (1/3) y_a and leaves the feature columns 0 (witness below).  Reading it
    as the columns 1..d_in (the data block) is what Lemma 4's proof uses ("sum over i, j").
    """
    ev = Evidence("true", rigor=Rigor.EXACT)
    rng = ctx.rng("head-weights")
    d_head = 100
    U1 = rng.standard_normal(_shape(statement.head_U1, d_head))
    U2 = rng.standard_normal(_shape(statement.head_U2, d_head))
    z = np.array([0.25])
    try:
        out = U1 @ np.maximum(U2 @ z, 0)
        ok, shape = np.shape(out) in ((), (1,)), np.shape(out)
    except ValueError as exc:
        ok, shape = False, f"shape error: {exc}"
    ev.add({"part": "(a) f_head(z) = U1 sigma(U2 z) for scalar z", "d_head": d_head, "z dim": 1, "U1": str(U1.shape),
            "U2": str(U2.shape), "output shape": str(shape)}, ok)
    for m, d, l in itertools.product((1, 3, 7), (1, 4), (2, 9, 30)):
        W = np.zeros((m + 1, d + 1))
        ev.add({"part": "(b) f_mem shape", "m": m, "d": d, "l": l},
               np.hstack([W * np.ones(d + 1), np.ones((m + 1, l))]).shape == (m + 1, d + 1 + l))
    rng = ctx.rng("datasets")
    spec = memory_spec()
    witness_W = None
    for m in range(1, p["m_max"] + 1):
        for d in range(1, p["d_max"] + 1):
            for k in range(p["datasets"]):
                X, y = random_dataset(rng, m, d)
                l = m + 1 + k % 3
                run = T.algorithm1(X, y, spec, l, readout=_readout_cols(statement.readout, d, l))
                want = memorisation_formula(X, y, m + 2)
                ok = run.error is None and len(run.W) == m + 2 and np.array_equal(run.W[-1], want)
                if not ok and witness_W is None:
                    witness_W = [[str(v) for v in row] for row in run.W[-1]]
                ev.add({"part": "(c) SGD memorises with this readout", "m": m, "d": d, "l": l,
                        "readout columns": str(_readout_cols(statement.readout, d, l)[:6])}, ok)
    if witness_W is not None:
        ev.details["W^(m+2) in the first failing run"] = witness_W
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# L1/L2. Lemma 1 and Lemma 2
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MemorisationStatement:
    """W^(i) = memorisation_formula(i, rule) for i in 1..i_max(m); SGD with ``eta``, the dummy example."""

    rule: str  # "lt" (Lemma 2) or "le" (Lemma 1)
    eta: Fraction = Fraction(1, 54)
    init: str = "zero"
    include_m_plus_2: bool = True


def check_memorisation_sequence(statement: MemorisationStatement, p, ctx, ev: Evidence) -> None:
    """Run Algorithm 1 exactly and compare every W^(i) with the statement's formula."""
    rng = ctx.rng("datasets")
    spec = memory_spec()
    for m in range(1, p["m_max"] + 1):
        for d in range(1, p["d_max"] + 1):
            for k in range(p["datasets"]):
                X, y = random_dataset(rng, m, d, repeat=bool(k % 2))
                l = m + 1 + k % 3
                run = T.algorithm1(X, y, spec, l, eta=statement.eta, init=statement.init)
                last = m + 2 if statement.include_m_plus_2 else m + 1
                for i in range(1, last + 1):
                    got = run.W[i - 1] if i - 1 < len(run.W) else None
                    want = memorisation_formula(X, y, i, statement.rule)
                    ok = got is not None and np.array_equal(got, want)
                    bad = None
                    if not ok and got is not None:
                        diff = np.argwhere(got != want)
                        a, b = (int(diff[0][0]), int(diff[0][1]))
                        bad = f"W[{a + 1},{b + 1}] = {got[a, b]}, formula {want[a, b]}"
                    ev.add({"m": m, "d": d, "l": l, "i": i, "dataset": k, "init": statement.init,
                            "eta": statement.eta, "first difference": bad}, ok)
                    if not ok:
                        break
                ev.add({"m": m, "d": d, "l": l, "dataset": k, "part": "f = 0 on every memorisation step"},
                       run.error is None and all(f == 0 for f in run.outputs))


def _memorisation_hypotheses(case: dict) -> list[str]:
    """Lemma 1 quantifies over d, m in N and 1 <= i <= m+1; Algorithm 1 sets W^(1) = 0 (l.155)."""
    bad = []
    m, d, i = int(case.get("m", 0)), int(case.get("d", 0)), int(case.get("i", 0))
    if m < 1 or d < 1:
        bad.append("d, m in N (>= 1)")
    if not 1 <= i <= m + 1:
        bad.append("1 <= i <= m+1")
    if case.get("init", "zero") != "zero":
        bad.append("Algorithm 1: W^(1) = 0")
    return bad


@claim(
    id="seed003.lemma_1",
    source=SOURCE,
    label="Lemma 1",
    entry="L1/L2",
    title="Lemma 1 (memorisation): W^(i) has rows a <= i filled -- off by one, rows a < i",
    lines=[(234, 239)],
    printed=MemorisationStatement("le"),
    corrected=MemorisationStatement("lt"),
    mutants=[
        Mutant("eta=1/18", "corrected index rule with eta = 1/18 (stores +-1 instead of +-1/3)",
               MemorisationStatement("lt", Fraction(1, 18))),
        Mutant("init-ones", "corrected index rule with W^(1) = 1 (Lemma 4's printed base case)",
               MemorisationStatement("lt", init="ones")),
        Mutant("eta=1/108", "corrected index rule with eta = 1/108 (stores +-1/6, the padding value)",
               MemorisationStatement("lt", Fraction(1, 108)), part="memorisation", origin="second-reader"),
    ],
    parts=[
        Part("memorisation", "for 1 <= i <= m+1: W^(i)_{ab} = (1/3) y^(a) x^(a)_b (a <= i, b <= d), (1/3) y^(a) (a <= i, "
             "b = d+1), 0 otherwise"),
        Part("computation", "f([x; 1]; W^(m+2)) = A(S)[x] for all x", asserted=False,
             reason="checked as seed003.lemma_2.computation (mechanism check on a concrete learner)"),
        Part("weight_set", "Theta_rc, Theta_head with entries in a fixed set U_s of size O(s)", asserted=False,
             reason="the check runs at spec level (f-bar); weights are the subject of verify/rcnn/interpolation.py"),
    ],
    severity=Severity.TYPO,
    affects=(),
    hypotheses=_memorisation_hypotheses,
    expect=Status.ERRATUM,
    rigor=Rigor.EXACT,
    params=[Param("datasets", int, 1, 200, doc="random training sets per (m, d)"),
            Param("m_max", int, 1, 6, doc="m = 1..m_max"), Param("d_max", int, 1, 5, doc="d = 1..d_max")],
    tiers={"quick": {"datasets": 3, "m_max": 3, "d_max": 3}, "full": {"datasets": 10, "m_max": 5, "d_max": 4}},
)
def check_lemma_1(statement: MemorisationStatement, p, ctx) -> Verdict:
    """Lemma 1, part 1 (memorisation), as printed in the main text.

    Statement
    ---------
    For any (s, m, t)-computable learner A there are Theta_rc, Theta_head (weights in a fixed set U_s
    of size O(s)) such that Algorithm 1 with L = (blank in the text) satisfies, for 1 <= i <= m+1:
    W^(i)_{ab} = (1/3) y^(a) x^(a)_b if a <= i, b <= d; (1/3) y^(a) if a <= i, b = d+1; 0 otherwise.

    Source
    ------
    Seed 003, Lemma 1, lines 234-239 (the depth "L = " is blank in the seed); Lemma 2 (line 404)
    restates it with a < i.

    Checkable form
    --------------
    Algorithm 1 at spec level (f-bar of B.2 with the gradient spec, f-bar_head, eta = 1/54, squared
    loss, the dummy example (1_d, 1), readout over the data columns; kernels.constructions.tm2d.algorithm1) on
    random training sets, m <= m_max, d <= d_max, depth l in {m+1, m+2, m+3}: every W^(i),
    i = 1..m+2, is compared with the formula, and the output f must be 0 on every memorisation step.

    Exactness
    ---------
    Exact (Fractions).

    Mutants
    -------
    eta = 1/18 stores +-1 (the gradient factor is f_head'(-1/9) = 18); W^(1) = 1 puts nonzero values
    in rows that must still be 0.

    Second-reader mutant: eta = 1/108 halves the stored value (the step is eta * 18 * y = y/6), so
    row 1 of W^(2) is (1/6) y [x; 1], not (1/3) y [x; 1] -- exact; the old checker rejected it too.

    Correction
    ----------
    Rows a < i (strictly), as Lemma 2 restates it: W^(i) holds the first i - 1 examples.  Severity typo.

    Notes
    -----
    Second-reader judgement: erratum (typo), not a proof-gap.  Algorithm 1 fixes W^(1) = 0 (seed
    l.155) whatever Theta_rc, Theta_head are, so "a <= i" at i = 1 (in the printed range
    1 <= i <= m+1) demands row 1 = (1/3) y^(1) [x^(1); 1] != 0 before any step: false for every
    construction, hence a statement erratum.  The hypothesis validator checks d, m >= 1,
    1 <= i <= m+1 and W^(1) = 0.  No inequality parts.
    W^(1) = 0 already refutes "a <= i" at i = 1 (row 1 would be filled before any step).  Part 2
    (computation) is checked under seed003.lemma_2.computation.
    """
    ev = Evidence("true", rigor=Rigor.EXACT)
    check_memorisation_sequence(statement, p, ctx, ev)
    return ev.verdict()


@claim(
    id="seed003.lemma_2",
    source=SOURCE,
    label="Lemma 2",
    entry="L1/L2",
    title="Lemma 2, part 1: SGD with eta = 1/54 memorises row a as (1/3) y^(a) [x^(a); 1] (rows a < i)",
    lines=[(404, 409)],
    printed=MemorisationStatement("lt"),
    mutants=[
        Mutant("a<=i", "Lemma 1's index rule a <= i", MemorisationStatement("le")),
        Mutant("eta=1/27", "eta = 1/27 (stores +-2/3)", MemorisationStatement("lt", Fraction(1, 27))),
        Mutant("init-ones", "W^(1) = 1 instead of 0", MemorisationStatement("lt", init="ones"),
               part="memorisation", origin="second-reader"),
    ],
    parts=[
        Part("memorisation", "for 1 <= i <= m+1: W^(i)_{ab} = 3^{-1} y^(a) x^(a)_b (a < i, b <= d), 3^{-1} y^(a) (a < i, "
             "b = d+1), 0 otherwise, with eta = 1/54"),
        Part("f_zero", "(proof, Lemma 3) f = 0 on every memorisation step, so the gradient is the pure memorising one"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[Param("datasets", int, 1, 200, doc="random training sets per (m, d)"),
            Param("m_max", int, 1, 6, doc="m = 1..m_max"), Param("d_max", int, 1, 5, doc="d = 1..d_max")],
    tiers={"quick": {"datasets": 3, "m_max": 3, "d_max": 3}, "full": {"datasets": 10, "m_max": 5, "d_max": 4}},
)
def check_lemma_2_memorisation(statement: MemorisationStatement, p, ctx) -> Verdict:
    """Lemma 2, part 1 (memorisation).

    Statement
    ---------
    For 1 <= i <= m+1: W^(i)_{ab} = 3^{-1} y^(a) x^(a)_b if a < i, b <= d; 3^{-1} y^(a) if a < i,
    b = d+1; 0 otherwise -- for Algorithm 1 with l = c'_2 (t + m + d), eta = 1/54 and the layers of
    the construction.  (It also holds for i = m+2, where the dummy row is (1/3) 1.)

    Source
    ------
    Seed 003, Lemma 2 (restatement of Lemma 1), lines 404-409; proof in B.3 (Lemmas 3, 4).

    Checkable form
    --------------
    As seed003.lemma_1: exact Algorithm 1 at spec level on random training sets (repeated examples
    included), depth l in {m+1, m+2, m+3}; W^(i) for i = 1..m+2 against the formula and f = 0 on
    every memorisation step.

    Exactness
    ---------
    Exact (Fractions).

    Mutants
    -------
    Lemma 1's "a <= i" fails at i = 1; eta = 1/27 stores +-2/3.

    Second-reader mutant: W^(1) = 1 leaves nonzero rows a >= i at i = 1 (exact; rejected by the old
    checker too).

    Notes
    -----
    The construction is the paper's f-bar (spec functions), with Definition 5's readout read as the
    data columns (seed003.definition_5).  Depth l = m+1 already suffices for memorisation (Lemma 3).
    This claim is part 1 of Lemma 2; part 2 is seed003.lemma_2.computation, the weight set U_s is
    verify/rcnn/interpolation.py.  Second reader: confirmed, no inequality parts.
    """
    ev = Evidence("true", rigor=Rigor.EXACT)
    check_memorisation_sequence(statement, p, ctx, ev)
    return ev.verdict()


@dataclass(frozen=True)
class ComputationStatement:
    """f([x; 1]; W^(m+2)) = A(S)[x] for the lookup learner A, run end to end at spec level.

    protocols: which realisations are run ("paper": the printed f_TM with the learner compiled to a
    flag-free machine for the given (m, d); "two_layer": the 20-state boundary-aware machine).
    layers(t, m, d, protocol): the depth used."""

    protocols: tuple
    layers: Callable
    eta: Fraction = Fraction(1, 54)
    dummy: bool = True
    text: str = ""


def _layers_printed(t, m, d, protocol):
    # B.3: ">= l + m + 1 + d applications" with l read as the running time t; the two-layer protocol
    # spends two layers per step.
    return (t if protocol == "paper" else 2 * t) + m + d + 1


def _layers_t(t, m, d, protocol):
    return t if protocol == "paper" else 2 * t


def run_lookup_end_to_end(m, d, X, y, statement: ComputationStatement, protocol: str, *, halt_shift: bool = False):
    """Algorithm 1 + inference for every x in {-1, 1}^d; returns (list of (x, f, A(S)[x]), info)."""
    M = lookup_machine()
    t, _ = halting_time(M, m, d, halt_state=M.names.index("halt"))
    L = statement.layers(t, m, d, protocol)
    L = max(L, 1)
    if protocol == "paper":
        machine, t = compiled_lookup(m, d, L, halt_shift=halt_shift)
        spec = T.spec_for(machine)
    else:
        spec = T.spec_for(M, protocol="two_layer")
    run = T.algorithm1(X, y, spec, L, eta=statement.eta, dummy=statement.dummy)
    out = []
    for x in itertools.product((-1, 1), repeat=d):
        if run.error is not None:
            f = None
        else:
            try:
                f = T.predict(run.W[-1], x, spec, L)
            except (T.NotRepresentable, T.NotDifferentiable):
                f = None
        out.append((x, f, T.lookup_learner(X, y, x)))
    return out, {"t": t, "L": L, "states": spec.machine.n_states, "N": spec.N, "W": run.W[-1], "spec": spec,
                 "error": run.error}


@claim(
    id="seed003.lemma_2.computation",
    source=SOURCE,
    label="Lemma 2, part 2",
    entry="L1/L2",
    title="Lemma 2, part 2 (computation): executed end to end at spec level for a concrete learner",
    lines=[(404, 409), (582, 584)],
    printed=ComputationStatement(("paper", "two_layer"), _layers_printed),
    mutants=[
        Mutant("eta=1/27", "eta = 1/27 in Algorithm 1", ComputationStatement(("paper", "two_layer"), _layers_printed, Fraction(1, 27))),
        Mutant("no-dummy", "drop the dummy example (1_d, 1)", ComputationStatement(("paper", "two_layer"), _layers_printed, dummy=False)),
        Mutant("depth=t", "depth t (one TM step per layer, nothing for the head placement)",
               ComputationStatement(("paper", "two_layer"), _layers_t)),
        Mutant("eta=1/108", "eta = 1/108 in Algorithm 1 (stores +-1/6: the padding value)",
               ComputationStatement(("paper", "two_layer"), _layers_printed, Fraction(1, 108)),
               part="lookup_learner", origin="second-reader"),
    ],
    parts=[
        Part("lookup_learner", "f([x; 1]; W^(m+2)) = A(S)[x] for every x, for the lookup learner, at depth t + m + d + 1 "
             "(one step per layer) or 2t + m + d + 1 (two-layer protocol)"),
        Part("every_learner", "... for every (s, m, t)-computable learner A, with l = c'_2 (t + m + d)", asserted=False,
             reason="a statement over all learners and all networks: only the mechanism on a concrete learner is executable"),
        Part("network_level", "Theta_rc, Theta_head are ReLU-network weights (not spec functions)", asserted=False,
             reason="the roll-out runs at spec level; the ReLU realisation is verify/rcnn/interpolation.py"),
    ],
    expect=Status.MECHANISM,
    kind=Kind.MECHANISM,
    rigor=Rigor.MECHANISM,
    params=[Param("datasets", int, 1, 100, doc="random training sets per (m, d)"),
            Param("m_max", int, 1, 5, doc="m = 1..m_max"), Param("d_max", int, 1, 4, doc="d = 1..d_max")],
    tiers={"quick": {"datasets": 2, "m_max": 3, "d_max": 2}, "full": {"datasets": 6, "m_max": 4, "d_max": 3}},
)
def check_lemma_2_computation(statement: ComputationStatement, p, ctx) -> Verdict:
    """Lemma 2, part 2: after memorisation the RCNN outputs A(S)[x] for every x.

    Statement
    ---------
    For any (s, m, t)-computable learner A there are Theta_rc, Theta_head such that for all S and all
    x in {-1, 1}^d: f([x; 1]; W^(m+2), Theta_rc, Theta_head) = A(S)[x], with l = c'_2 (t + m + d).

    Source
    ------
    Seed 003, Lemma 2 (part 2), lines 404-409; its proof is the last paragraph of B.3, lines 582-584.

    Checkable form
    --------------
    The statement quantifies over all learners and is about a neural network; neither can be tested
    as such, so this is a mechanism check of the spec-level construction on one concrete learner.
    The lookup learner (A(S)[x] = label of the first stored example equal to x, else +1) is written
    as a 2D TM (kernels.constructions.tm2d.lookup_machine; on the XOR tape, row a is constant iff x = x^(a)).  For
    random training sets (repeated examples included) with m <= m_max, d <= d_max: Algorithm 1 runs
    exactly at spec level (memorisation by SGD, eta = 1/54, dummy example), then f([x; 1]) is
    computed for every x in {-1, 1}^d by rolling out f-bar_Conv2D and summing f-bar_head; it must
    equal A(S)[x] computed directly.  Two realisations: (i) the printed f_TM (one step per layer) with
    the learner compiled to a flag-free machine for the given (m, d) (its states track the head
    position, so s grows like 20 (m+1)(d+2)); (ii) the boundary-aware two-layer protocol with the
    20-state machine, the same for every (m, d).  Depth: t + m + d + 1 (B.3's bound, with its "l"
    read as t), 2t + m + d + 1 for (ii).

    Exactness
    ---------
    Exact (Fractions and scaled integers); the learner's output is an integer.

    Mutants
    -------
    eta = 1/27 stores +-2/3 (digit 0 set: the tape is wrong); without the dummy example row m+1 stays
    0, case 3 of f_msg never fires and no head is placed; depth t leaves the last TM step(s) undone.

    Notes
    -----
    What is not established: the network level (f-bar realised by Lemma 5's ReLU nets, see
    verify/rcnn/interpolation.py), other learners (Gaussian elimination is never constructed as a TM
    in the paper), and uniformity in (m, d) of the paper's own TM model (D6: the halting convention
    (vi) needs boundary information a flag-free TM cannot obtain; realisation (ii) supplies it).
    """
    ev = Evidence("true", rigor=Rigor.MECHANISM)
    rng = ctx.rng("datasets")
    table = []
    for m in range(1, p["m_max"] + 1):
        for d in range(1, p["d_max"] + 1):
            for k in range(p["datasets"]):
                X, y = random_dataset(rng, m, d, repeat=bool(k % 2))
                for protocol in statement.protocols:
                    res, info = run_lookup_end_to_end(m, d, X, y, statement, protocol)
                    bad = [(x, f, a) for x, f, a in res if f != a]
                    ev.add({"protocol": protocol, "m": m, "d": d, "dataset": k, "depth": info["L"], "states": info["states"],
                            "inputs x": len(res), "first mismatch": None if not bad else f"x={bad[0][0]}: f={bad[0][1]}, A(S)[x]={bad[0][2]}"},
                           not bad)
                    if k == 0:
                        table.append({"protocol": protocol, "m": m, "d": d, "TM steps t": info["t"], "depth": info["L"],
                                      "states s": info["states"], "digits N+1": info["N"] + 1})
    ev.details["end-to-end runs (first dataset per (m, d))"] = table
    return ev.verdict()


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
    lo = min(statement.digits)
    for N in range(4, p["N_exhaustive"] + 1):
        vals = {}
        ok_round = True
        for digs in itertools.product(statement.digits, repeat=N + 1 - statement.first):
            full = (0,) * statement.first + digs
            v = sum(Fraction(a, 3**i) for i, a in enumerate(full))
            if lo == -1:
                back = T.CellEncoding(N).digits(int(v * 2 * 3**N))
                ok_round &= back == full
            vals[v] = full
        gaps = sorted(vals)
        min_gap = min(b - a for a, b in itertools.pairwise(gaps))
        ev.add({"part": "(a) injective and decodable", "N": N, "codes": len(vals)},
               ok_round and len(vals) == len(statement.digits) ** (N + 1 - statement.first))
        ev.add({"part": "(a) minimum gap", "N": N}, min_gap, Fraction(1, 3**N), relation="ge")
    rng = ctx.rng("runs")
    first_bad = None
    for s in range(1, p["s_max"] + 1):
        values, _spec = reachable_values(rng, s, p["runs"])
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
                                            "bits": round(T.bits_for_trits(T.n_digits_for(s) + 1), 2)} for s in (2, 16, 256, 4096)}
    return ev.verdict()


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
        codes = {sum(a * 3 ** (n - 1 - j) for j, a in enumerate(digs)) for digs in itertools.product(statement.state_digits, repeat=n)}
        ev.add({"part": "(a) state codes contain the start code 0 and >= s codes", "s": s, "digits": n, "codes": len(codes)},
               0 in codes and len(codes) >= s)
    rng = ctx.rng("datasets")
    spec = memory_spec()
    enc = spec.enc
    for m in range(1, p["m_max"] + 1):
        for d in range(1, p["d_max"] + 1):
            for k in range(p["datasets"]):
                X, y = random_dataset(rng, m, d)
                if k == 0:
                    y[0] = -1
                run = T.algorithm1(X, y, spec, m + 1)
                x = rng.choice(np.array([-1, 1]), size=d)
                G = T.memory_grid(run.W[-1], list(map(int, x)) + [1], 1, enc)
                tape = initial_tape(G, d, enc)[:, : d + 1]
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
                    G = T.memory_grid(W, list(x) + [1], 2, enc)
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
        G = T.memory_grid(W, [1, 1], 40, enc)
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
        return T.spec_for(machine, **dict(self.variant))


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
    """
    ev = Evidence("true", rigor=Rigor.EXACT)
    rng = ctx.rng("machines")
    steps_total = mism_steps = 0
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
            G = T.memory_grid(W, list(map(int, x)) + [1], l, spec.enc)
            cur = G
            same = True
            for _ in range(min(l, 6)):
                a, ga = T.conv_layer(cur, spec, backend="reference")
                b, gb = T.conv_layer(cur, spec)
                same &= bool(np.array_equal(a, b) and np.array_equal(ga, gb))
                cur = b
            ev.add({"machine": k, "part": "kernel == Fraction reference of the printed case lists"}, same)
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
            typo = compare_with_simulator(T.spec_for(M, head_right_state_from="above"), M, W, x, 16)
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
    f = lambda v: T.head_bar(v, slope=statement.slope, printed=statement.printed)
    pts = [Fraction(-1, 9), NINTH]
    ev.add({"part": "(a) f(-1/9) = 0 (memory phase)"}, f(Fraction(-1, 9)) == 0)
    ev.add({"part": "(a) f'(-1/9) = 18"}, T.head_bar_slope(Fraction(-1, 9), slope=statement.slope), Fraction(18), relation="eq")
    ev.add({"part": "(a) f(1/9) = 0 (blank compute cell)", "f(1/9)": f(NINTH)}, f(NINTH) == 0)
    for s in sorted({1, 2, 3, 4, 8, 16, 64, p["s_max"]} | set(range(1, min(p["s_max"], 16) + 1))):
        if s > p["s_max"]:
            continue
        N = T.n_digits_for(s)
        mc = (3 ** (N - 3) - 1) // 2
        okc = True
        for c in (-1, 1):
            okc &= f(c * THIRD + NINTH) == c
            for code in range(-mc, mc + 1):
                v = c * THIRD + NINTH + Fraction(1, 27) + Fraction(code, 3**N)
                okc &= f(v) == c
                if code in (-mc, mc):
                    pts.append(v)
        ev.add({"part": "(a) output cell values map to +-1", "s": s, "N": N, "codes": 2 * mc + 1}, okc)
    w = T.head_relu_weights(statement.slope)
    grid = [Fraction(k, 108) for k in range(-54, 55)] + pts
    bad = [v for v in grid if T.head_relu(v, w) != f(v)]
    ev.add({"part": "(b) 4-ReLU net equals f", "points": len(grid), "ReLUs": len(w["U2"]),
            "first disagreement": None if not bad else f"x = {bad[0]}: net {T.head_relu(bad[0], w)}, f {f(bad[0])}"}, not bad)
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
        total = sum(f(v) for row in block for v in row)
        ev.add({"part": "(c) readout of a halted grid", "grid": k, "m": m, "d": d, "output": c}, total, Fraction(c), relation="eq")
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# B3c. The computation phase
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ComputationPhaseStatement:
    """row_value: W^(m+2)_{m+1} = row_value * 1; layers(t, m, d); halt_shift: the machine halts one
    cell right of the output cell."""

    row_value: Fraction
    layers: Callable
    halt_shift: bool = False


@claim(
    id="seed003.computation_phase",
    source=SOURCE,
    label="B.3 (computation phase)",
    entry="B3c",
    title="Computation phase: head at (m+1, d+1), broadcast, roll-out, readout +-1 (dummy row is 1/3, not 1)",
    lines=[(582, 582)],
    printed=ComputationPhaseStatement(THIRD, lambda t, m, d: t + m + 1 + d),
    proof_step=ComputationPhaseStatement(Fraction(1), lambda t, m, d: t + m + 1 + d),
    mutants=[
        Mutant("depth=t", "t layers (the head placement takes one layer)", ComputationPhaseStatement(THIRD, lambda t, m, d: t)),
        Mutant("halt-on-blank", "the machine halts on a blank cell next to the output cell",
               ComputationPhaseStatement(THIRD, lambda t, m, d: t + m + 1 + d, halt_shift=True)),
        Mutant("row=2/3", "dummy row W^(m+2)_{m+1} = 2/3", ComputationPhaseStatement(2 * THIRD, lambda t, m, d: t + m + 1 + d),
               part="dummy_row", origin="second-reader"),
    ],
    parts=[
        Part("dummy_row", "after memorisation W^(m+2)_{m+1} = 1_{d+1} (proof step as printed; the construction gives 1/3)"),
        Part("head_start", "f-bar_msg case 3 sets the head at (m+1, d+1) in the start state; case 4 broadcasts the compute "
             "phase ahead of the head"),
        Part("readout", "after >= 'l + m + 1 + d' applications the data block is +-1/3 + 1/9 (+ state) at the top-left, "
             "1/9 elsewhere, and f = A(S)[x]"),
    ],
    severity=Severity.TYPO,
    affects=(),
    expect=Status.PROOF_GAP,
    rigor=Rigor.EXACT,
    params=[Param("datasets", int, 1, 100, doc="random training sets per (m, d)"),
            Param("m_max", int, 1, 5, doc="m = 1..m_max"), Param("d_max", int, 1, 4, doc="d = 1..d_max")],
    tiers={"quick": {"datasets": 2, "m_max": 3, "d_max": 2}, "full": {"datasets": 5, "m_max": 4, "d_max": 3}},
)
def check_computation_phase(statement: ComputationPhaseStatement, p, ctx) -> Verdict:
    """End of B.3: the computation phase after memorisation.

    Statement
    ---------
    After memorisation W^(m+2)_{m+1} = 1_{d+1} (dummy sample); f-bar_msg sets the head at (m+1, d+1)
    by its third case, broadcasts the compute phase by its fourth; the first step does not move, so
    the broadcast stays ahead of the head; f-bar_TM rolls the TM out; after >= "l + m + 1 + d"
    applications the TM has terminated, the top-left cell holds +-3^{-1} + 3^{-2} (+ state digits),
    every other data cell 3^{-2}, and f-bar_head turns the sum into +-1.

    Source
    ------
    Seed 003, Appendix B.3, line 582 (the paragraph after Lemma 4).

    Checkable form
    --------------
    For the lookup learner compiled to a flag-free 2D TM for the given (m, d) (the paper's TM model;
    t = its halting time) and random training sets: (a) Algorithm 1 at spec level gives
    W^(m+2)_{m+1} = row_value * 1; (b) on every input x, after layer 1 the only head is at (m+1, d+1)
    in the start state, and after layer k the compute phase covers exactly the cells within distance
    k - 1 of it (k <= m + d + 1); (c) after the statement's number of layers (the printed "l" read
    as t) the data block is the output cell c/3 + 1/9 + 1/27 + code and 1/9 elsewhere, and
    f([x; 1]) = A(S)[x] for every x in {-1, 1}^d.

    Exactness
    ---------
    Exact.

    Mutants
    -------
    t layers stop one TM step early (layer k holds step k - 1); a machine that halts on the blank
    cell right of the output cell adds 18 (1/27 + code 3^{-N}) to the sum.

    Second-reader mutant: row value 2/3 is false: the SGD step on the dummy example stores
    eta * 18 * 1 = 1/54 * 18 = 1/3 exactly (Lemma 4); the old checker rejected it.

    Correction
    ----------
    After memorisation the dummy row is W^(m+2)_{m+1} = (1/3) 1_{d+1} (as Lemma 2 gives), and the
    depth "l + m + 1 + d" reads t + m + d + 1 with t the TM's running time.  Severity typo.

    Notes
    -----
    Second-reader judgement: proof-gap (typo), formerly erratum.  The paragraph is the end of Lemma 2's
    proof; Lemma 2's own formula (line 404-409, a < i at i = m+2) gives the dummy row 1/3, so the
    printed "1" is a slip of the proof, not of a statement: printed = the paragraph with 1/3 (holds
    end to end), proof_step = with 1 (fails at part (a)).  No inequality parts.
    The dummy row is (1/3) 1, not 1: the SGD step stores (1/54) * 18 * 1 = 1/3 (Lemma 4).  The
    printed depth "l + m + 1 + d" names the depth itself; t + m + d + 1 (>= t + 1, what the roll-out
    needs) is what the sentence can mean.  The machine is instance-specific (its states track the
    head position) because the paper's TM model cannot find the top-left corner uniformly in m
    (seed003.definition_6); seed003.lemma_2.computation also runs the uniform two-layer variant.
    """
    ev = Evidence("true", rigor=Rigor.EXACT)
    rng = ctx.rng("datasets")
    for m in range(1, p["m_max"] + 1):
        for d in range(1, p["d_max"] + 1):
            for k in range(p["datasets"]):
                X, y = random_dataset(rng, m, d, repeat=bool(k % 2))
                M = lookup_machine()
                t0, _ = halting_time(M, m, d, halt_state=M.names.index("halt"))
                L = statement.layers(t0, m, d)
                machine, _t = compiled_lookup(m, d, max(L, t0 + m + d + 1), halt_shift=statement.halt_shift)
                spec = T.spec_for(machine)
                enc = spec.enc
                run = T.algorithm1(X, y, spec, L)
                Wf = run.W[-1]
                ev.add({"part": "(a) dummy row after memorisation", "m": m, "d": d, "dataset": k,
                        "W_{m+1}": str(Wf[m, 0]), "statement": str(statement.row_value)},
                       all(Wf[m, b] == statement.row_value for b in range(d + 1)))
                start_code = spec.settled_code(0)
                for x in itertools.product((-1, 1), repeat=d):
                    G = T.memory_grid(Wf, list(x) + [1], L, enc)
                    ro = T.rollout(G, spec, L, keep=True)
                    R, C = G.shape
                    dist = np.abs(np.arange(R)[:, None] - m) + np.abs(np.arange(C)[None, :] - d)
                    dec1 = T.decode_grid(ro.grids[1], spec) if L >= 1 else {"heads": []}
                    head_ok = [h[:3] for h in dec1["heads"]] == [(m, d, 0)] and start_code == 0
                    front_ok = all(np.array_equal(T.decode_grid(ro.grids[j], spec)["phase"] == 1, dist <= j - 1)
                                   for j in range(1, min(L, m + d + 1) + 1))
                    ev.add({"part": "(b) head placed at (m+1, d+1), compute front", "m": m, "d": d, "x": str(x)}, head_ok and front_ok)
                    final = ro.final
                    c = T.lookup_learner(X, y, x)
                    block = [[enc.from_scaled(int(final[a, b])) for b in range(d + 1)] for a in range(m + 1)]
                    tl = block[0][0] - c * THIRD - NINTH - Fraction(1, 27)
                    shape_ok = abs(tl) < Fraction(1, 54) and all(block[a][b] == NINTH for a in range(m + 1) for b in range(d + 1) if (a, b) != (0, 0))
                    f = sum((T.head_bar(v) for row in block for v in row), Fraction(0))
                    ev.add({"part": "(c) final grid and readout", "m": m, "d": d, "dataset": k, "x": str(x), "depth": L,
                            "final grid shape ok": shape_ok}, f, Fraction(c), relation="eq")
    return ev.verdict()
