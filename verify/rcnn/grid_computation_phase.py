"""The RCNN grid of seed 003 as a 2D Turing-machine roll-out (Appendix B.3): the computation phase (B3c).
Split from verify/rcnn/grid_rollout.py (the data representation, Definition 6, the layer spec and the head).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
import numpy as np
from kernels.constructions import tm2d as T
from kernels.constructions import tm2d_grid as TG
from ..registry import Context, Evidence, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE
from .grid import (
    compiled_lookup,
    halting_time,
    lookup_machine,
    NINTH,
    random_dataset,
    THIRD,
)


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
    key = (ctx.claim_id, p["datasets"], p["m_max"], p["d_max"])
    for idx, (m, d, k, t0, _X, _y) in enumerate(_cp_datasets(*key)):
        L = statement.layers(t0, m, d)
        row, per_x = _cp_instance(*key, idx, L, statement.halt_shift)
        ev.add({"part": "(a) dummy row after memorisation", "m": m, "d": d, "dataset": k,
                "W_{m+1}": str(row[0]), "statement": str(statement.row_value)},
               all(v == statement.row_value for v in row))
        for x, head_ok, front_ok, c, shape_ok, f in per_x:
            ev.add({"part": "(b) head placed at (m+1, d+1), compute front", "m": m, "d": d, "x": str(x)}, head_ok and front_ok)
            ev.add({"part": "(c) final grid and readout", "m": m, "d": d, "dataset": k, "x": str(x), "depth": L,
                    "final grid shape ok": shape_ok}, f, Fraction(c), relation="eq")
    return ev.verdict()


@functools.lru_cache(maxsize=2)
def _cp_datasets(claim_id: str, datasets: int, m_max: int, d_max: int) -> tuple:
    """check_computation_phase's training sets, drawn once per (claim, parameters) from its "datasets" stream in
    the order of the loop: ((m, d, k, t0, X, y), ...) with t0 = the lookup machine's halting time for (m, d)
    (X and y read-only)."""
    rng = Context(claim_id).rng("datasets")
    out = []
    for m in range(1, m_max + 1):
        for d in range(1, d_max + 1):
            for k in range(datasets):
                X, y = random_dataset(rng, m, d, repeat=bool(k % 2))
                X.setflags(write=False)
                y.setflags(write=False)
                M = lookup_machine()
                t0, _ = halting_time(M, m, d, halt_state=M.names.index("halt"))
                out.append((m, d, k, t0, X, y))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def _cp_instance(claim_id: str, datasets: int, m_max: int, d_max: int, idx: int, L: int, halt_shift: bool) -> tuple:
    """The statement-independent work of check_computation_phase for one training set at depth L (the printed
    statement, the proof step and the row mutant share it): the dummy row W^(m+2)_{m+1} after Algorithm 1
    and, per input x, (x, head placed, front ok, A(S)[x], final shape ok, readout f)."""
    m, d, k, t0, X, y = _cp_datasets(claim_id, datasets, m_max, d_max)[idx]
    machine, _t = compiled_lookup(m, d, max(L, t0 + m + d + 1), halt_shift=halt_shift)
    spec = TG.spec_for(machine)
    enc = spec.enc
    run = TG.algorithm1(X, y, spec, L)
    Wf = run.W[-1]
    row = tuple(Wf[m, b] for b in range(d + 1))
    start_code = spec.settled_code(0)
    per_x = []
    for x in itertools.product((-1, 1), repeat=d):
        G = TG.memory_grid(Wf, list(x) + [1], L, enc)
        ro = TG.rollout(G, spec, L, keep=True)
        R, C = G.shape
        dist = np.abs(np.arange(R)[:, None] - m) + np.abs(np.arange(C)[None, :] - d)
        dec1 = TG.decode_grid(ro.grids[1], spec) if L >= 1 else {"heads": []}
        head_ok = [h[:3] for h in dec1["heads"]] == [(m, d, 0)] and start_code == 0
        front_ok = all(np.array_equal(TG.decode_grid(ro.grids[j], spec)["phase"] == 1, dist <= j - 1)
                       for j in range(1, min(L, m + d + 1) + 1))
        final = ro.final
        c = T.lookup_learner(X, y, x)
        block = [[enc.from_scaled(int(final[a, b])) for b in range(d + 1)] for a in range(m + 1)]
        tl = block[0][0] - c * THIRD - NINTH - Fraction(1, 27)
        shape_ok = abs(tl) < Fraction(1, 54) and all(block[a][b] == NINTH for a in range(m + 1) for b in range(d + 1) if (a, b) != (0, 0))
        f = sum((TG.head_bar(v) for row_ in block for v in row_), Fraction(0))
        per_x.append((x, head_ok, front_ok, c, shape_ok, f))
    return row, tuple(per_x)
