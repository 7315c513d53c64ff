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
from kernels.constructions import tm2d_grid as TG

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


def memory_spec() -> TG.LayerSpec:
    """The layer spec with no machine (memorisation only touches f_msg and the identity)."""
    return TG.LayerSpec(4)


def initial_tape(G: np.ndarray, d: int, enc: T.CellEncoding) -> np.ndarray:
    """Tape symbols of an inference grid: the sign of the XOR block, blanks on the ones block."""
    tape = np.zeros(G.shape, np.int8)
    for r in range(G.shape[0]):
        for c in range(d + 1):
            tape[r, c] = int(np.sign(int(G[r, c])))
    return tape


def compare_with_simulator(spec: TG.LayerSpec, machine: T.Machine2D, W, x, layers: int) -> dict:
    """Roll the RCNN out on f_mem([x; 1]; W) and compare layer k with the simulator after k - 1 steps.

    Returns per-layer records: symbol mismatches, head agreement, state agreement, number of heads,
    invalid cells, and whether the compute phase covers exactly the cells within distance k - 1 of
    the start cell (m+1, d+1)."""
    enc = spec.enc
    W = np.asarray(W, dtype=object)
    m1, d1 = W.shape
    G = TG.memory_grid(W, list(map(int, x)) + [1], layers, enc)
    ro = TG.rollout(G, spec, layers, keep=True)
    tr = T.simulate(machine, initial_tape(G, d1 - 1, enc), (m1 - 1, d1 - 1), layers)
    R, C = G.shape
    dist = np.abs(np.arange(R)[:, None] - (m1 - 1)) + np.abs(np.arange(C)[None, :] - (d1 - 1))
    recs = []
    for k in range(1, layers + 1):
        dec = TG.decode_grid(ro.grids[k], spec)
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


def reachable_values(rng: np.random.Generator, n_states: int, runs: int) -> tuple[set, TG.LayerSpec]:
    """Cell values (Fractions) met in spec runs with random ``n_states``-state machines: memorisation
    (Algorithm 1) and inference roll-outs, all layers; plus the padding p."""
    values = {Fraction(1, 6)}
    spec = None
    for _ in range(runs):
        M = T.random_machine(rng, n_states)
        spec = TG.spec_for(M)
        enc = spec.enc
        m, d = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        l = int(rng.integers(m + 2, m + 2 + 4 * n_states + 8))
        X, y = random_dataset(rng, m, d)
        mem = TG.LayerSpec(spec.N, M, spec.codes)
        run = TG.algorithm1(X, y, mem, l)
        for Wi, (xi, _) in zip(run.W[:-1], list(zip(list(X), list(y))) + [([1] * d, 1)]):
            G = TG.memory_grid(Wi, list(map(int, xi)) + [1], l, enc)
            for g in TG.rollout(G, mem, l, keep=True).grids:
                values.update(enc.from_scaled(int(v)) for v in np.unique(g))
        x = rng.choice(np.array([-1, 1]), size=d)
        G = TG.memory_grid(run.W[-1], list(map(int, x)) + [1], l, enc)
        for g in TG.rollout(G, spec, l, keep=True).grids:
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
                run = TG.algorithm1(X, y, spec, l, readout=_readout_cols(statement.readout, d, l))
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
                run = TG.algorithm1(X, y, spec, l, eta=statement.eta, init=statement.init)
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
        spec = TG.spec_for(machine)
    else:
        spec = TG.spec_for(M, protocol="two_layer")
    run = TG.algorithm1(X, y, spec, L, eta=statement.eta, dummy=statement.dummy)
    out = []
    for x in itertools.product((-1, 1), repeat=d):
        if run.error is not None:
            f = None
        else:
            try:
                f = TG.predict(run.W[-1], x, spec, L)
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
    Quick tier (2 datasets per (m, d), m <= 3, d <= 2; full: 6, m <= 4, d <= 3): a smoke test of what
    the full tier shows, on the same two realisations.  The printed statement runs every case; a mutant
    stops at its first failing run (its rejection is then decided; the details say so), so the quick
    tier does not report how many runs each mutant fails.  The full tier runs every case of every mutant.
    """
    ev = Evidence("true", rigor=Rigor.MECHANISM)
    rng = ctx.rng("datasets")
    table = []
    # quick tier: a mutant stops at its first failing run (its rejection is decided; the printed statement
    # runs every case at every tier, and every tier runs every case of every mutant but quick)
    stop_at_failure = ctx.tier == "quick" and ctx.statement_tag.startswith("mutant:")
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
                    if bad and stop_at_failure:
                        ev.details["end-to-end runs (first dataset per (m, d))"] = table
                        ev.details["stopped"] = "quick tier, mutant: at its first failing run"
                        return ev.verdict()
                    if k == 0:
                        table.append({"protocol": protocol, "m": m, "d": d, "TM steps t": info["t"], "depth": info["L"],
                                      "states s": info["states"], "digits N+1": info["N"] + 1})
    ev.details["end-to-end runs (first dataset per (m, d))"] = table
    return ev.verdict()
