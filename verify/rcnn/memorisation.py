"""SGD memorises the training set in the memory layer (seed 003, Appendix B.3): Lemma 3 (forward pass
and back-propagated gradient during memorisation, L3) and Lemma 4 (SGD with eta = 1/54, L4).

Both are executed at the level of the paper's spec functions (f-bar_Conv2D with its gradient spec,
f-bar_head), exactly (kernels.constructions.tm2d).  The independent side is the lemma's closed form.
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
from .grid import memorisation_formula, memory_spec, random_dataset

CONTRACT_AUDITED = True

THIRD = Fraction(1, 3)


# ---------------------------------------------------------------------------------------------
# L3. Lemma 3
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lemma3Statement:
    """After l layers every data cell equals ``value``; d out_{a,b} / d X_{i,j} = 1 iff (a, b) = (i, j)
    and a is in ``grad_rows(tau)``; depths l in ``depths(m)``."""

    value: Fraction
    grad_rows: str  # "tau" or "upto_tau"
    depths: Callable
    text: str = ""
    grad_value: int = 1  # the printed gradient entry at a = i = tau, b = j


_L3_PRINTED = Lemma3Statement(Fraction(-1, 9), "tau", lambda m: (m + 1, m + 2, m + 3), "l >= m + 1")


def _full_jacobian(G: np.ndarray, spec: TG.LayerSpec, layers: int) -> np.ndarray:
    """d out / d G (all cells) by the chain rule with the 3x3 gradient spec of conv2d_reference."""
    enc = spec.enc
    R, C = G.shape
    n = R * C
    J = np.eye(n, dtype=np.int64)
    cur = G
    p = Fraction(1, 6)
    for _ in range(layers):
        F = [[enc.from_scaled(int(v)) for v in row] for row in cur]
        Jn = np.zeros_like(J)
        nxt = np.empty_like(cur)
        for r in range(R):
            for c in range(C):
                patch = [[(F[r + i][c + j] if 0 <= r + i < R and 0 <= c + j < C else p) for j in (-1, 0, 1)] for i in (-1, 0, 1)]
                v, g = TG.conv2d_reference(patch, spec)
                nxt[r, c] = enc.to_scaled(v)
                for i in (-1, 0, 1):
                    for j in (-1, 0, 1):
                        if g[i + 1][j + 1] and 0 <= r + i < R and 0 <= c + j < C:
                            Jn[r * C + c] += g[i + 1][j + 1] * J[(r + i) * C + (c + j)]
        J, cur = Jn, nxt
    return J


@functools.lru_cache(maxsize=4096)
def _memory_rollout(m: int, d: int, pat: tuple, l: int):
    """(G, roll-out) of the memory grid whose first rows hold the signs ``pat`` (times 1/3), depth l; the
    statement-independent part of check_lemma_3, computed once and shared by the printed statement and the
    mutants (the same grids at the same depths).  The caller only reads the arrays."""
    spec = memory_spec()
    X = np.full((m + 1, d + 1), Fraction(0), dtype=object)
    for idx, sgn in enumerate(pat):
        X[idx // (d + 1), idx % (d + 1)] = sgn * THIRD
    G = TG.memory_grid(X, [1] * (d + 1), l, spec.enc)
    return G, TG.rollout(G, spec, l)


@functools.lru_cache(maxsize=4096)
def _memory_jacobian(m: int, d: int, pat: tuple, l: int) -> np.ndarray:
    """_full_jacobian of the grid of _memory_rollout(m, d, pat, l) (cached likewise)."""
    G, _ro = _memory_rollout(m, d, pat, l)
    return _full_jacobian(G, memory_spec(), l)


@claim(
    id="seed003.lemma_3",
    source=SOURCE,
    label="Lemma 3",
    entry="L3",
    title="Forward pass -1/9 everywhere, gradient 1 exactly at the memorising row tau (depth l >= m+1)",
    lines=[(518, 557)],
    printed=_L3_PRINTED,
    mutants=[
        Mutant("value+1/9", "the memory-phase value +3^{-2} (as written in the proof)", replace(_L3_PRINTED, value=Fraction(1, 9))),
        Mutant("depth=m", "depth l = m (one layer short of reaching every row)", replace(_L3_PRINTED, depths=lambda m: (m,), text="l = m")),
        Mutant("grad-rows<=tau", "the gradient also flows through the rows a < tau already memorised",
               replace(_L3_PRINTED, grad_rows="upto_tau")),
        Mutant("grad=18", "gradient entry 18 (the head slope) instead of 1 at a = i = tau, b = j",
               replace(_L3_PRINTED, grad_value=18), part="gradient", origin="second-reader"),
    ],
    parts=[
        Part("forward", "f-bar_ConvLayer^(l)(Z)_{a,b} = -3^{-2} for all a in [m+1], b in [d+1]"),
        Part("gradient", "grad_{X_{i,j}} f-bar_ConvLayer^(l)(Z)_{a,b} = 1 if a = i = tau and b = j, 0 otherwise"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[Param("m_max", int, 1, 6, doc="m = 1..m_max"), Param("d_max", int, 1, 5, doc="d = 1..d_max"),
            Param("patterns", int, 1, 10_000, doc="sign patterns per (m, d, tau): all when fewer, else a random sample"),
            Param("jacobian_cells", int, 0, 400, doc="full chain-rule Jacobian when the grid has at most this many cells")],
    tiers={"quick": {"m_max": 3, "d_max": 2, "patterns": 16, "jacobian_cells": 30},
           "full": {"m_max": 5, "d_max": 4, "patterns": 128, "jacobian_cells": 60}},
)
def check_lemma_3(statement: Lemma3Statement, p, ctx) -> Verdict:
    """Lemma 3: forward pass and backward gradient during memorisation.

    Statement
    ---------
    For X in R^{(m+1) x (d+1)}, if there is 1 <= tau <= m+1 with X_{i,j} in {+-3^{-1}} for all
    i < tau and X_{i,j} = 0 for all i >= tau, then with Z = [X 1_{(m+1) x l}]:
    f-bar_ConvLayer^(l)(Z)_{a,b} = -3^{-2} for all a in [m+1], b in [d+1], and
    grad_{X_{i,j}} f-bar_ConvLayer^(l)(Z)_{a,b} = 1 if a = i = tau and b = j, 0 otherwise.

    Hypotheses
    ----------
    The depth l is the network's (Lemma 2: l = c'_2 (t + m + d)); the proof uses l > m+1.  Checked
    for l in {m+1, m+2, m+3}: l >= m+1 suffices.

    Source
    ------
    Seed 003, Lemma 3 and its proof, lines 518-557.

    Checkable form
    --------------
    Every m <= m_max, d <= d_max, tau = 1..m+1 and sign pattern of the memorised rows (all
    2^{(tau-1)(d+1)} patterns when at most ``patterns``, else a seeded sample), every depth of the
    statement: roll the spec layer out exactly (kernels.constructions.tm2d) and compare every data cell with the
    statement's value and the product of the centre derivatives (the Jacobian's diagonal) with the
    statement's gradient; on grids of at most ``jacobian_cells`` cells the full Jacobian
    d out / d Z is also propagated by the chain rule with the 3x3 gradient spec (Fraction
    reference) and compared entry by entry.

    Exactness
    ---------
    Exact (scaled integers, Fractions).

    Mutants
    -------
    +3^{-2} (the proof's sign typo) fails everywhere; l = m leaves row m+1 outside the memory phase
    when tau = 1 (it still holds 0); letting the memorised rows pass gradient fails because their
    first layer is case 2 of f_msg (value -1/9, slope 0).

    Second-reader mutant "grad=18": the printed gradient entry 1 was a literal of the check; it is now
    the field grad_value.  18 is false: the exact chain-rule Jacobian (3x3 gradient spec) has diagonal
    entry 1 at row tau (the f_head slope 18 enters only later, in Lemma 4); rejected.

    Notes
    -----
    Second reader: confirmed, every part asserted, no inequality parts.
    The proof writes the memory-phase value as 3^{-2}; the statement's -3^{-2} is right.  The induction
    "rows with |a - tau| < t are in the memory phase after t layers" needs t > max |a - tau| = m
    (tau = 1), i.e. l >= m+1.
    """
    ev = Evidence("true", rigor=Rigor.EXACT)
    spec = memory_spec()
    enc = spec.enc
    rng = ctx.rng("patterns")
    for m in range(1, p["m_max"] + 1):
        for d in range(1, p["d_max"] + 1):
            for tau in range(1, m + 2):
                n_sig = (tau - 1) * (d + 1)
                if 2**n_sig <= p["patterns"]:
                    pats = list(itertools.product((-1, 1), repeat=n_sig))
                else:
                    pats = [tuple(rng.choice([-1, 1], size=n_sig)) for _ in range(p["patterns"])]
                for pat in pats:
                    key = tuple(int(v) for v in pat)
                    for l in statement.depths(m):
                        G, ro = _memory_rollout(m, d, key, l)
                        vals = {enc.from_scaled(int(v)) for v in ro.final[:, : d + 1].ravel()}
                        ok_a = vals == {statement.value}
                        rows = {tau} if statement.grad_rows == "tau" else set(range(1, tau + 1))
                        want = np.array([[statement.grad_value if (a + 1) in rows else 0 for b in range(d + 1)]
                                         for a in range(m + 1)])
                        ok_b = bool(np.array_equal(ro.grad[:, : d + 1], want))
                        ev.add({"m": m, "d": d, "tau": tau, "l": l, "signs": "".join("+" if s > 0 else "-" for s in pat)[:12],
                                "part": "(a) values", "values": sorted(str(v) for v in vals)[:3]}, ok_a)
                        ev.add({"m": m, "d": d, "tau": tau, "l": l, "part": "(b) diagonal gradient"}, ok_b)
                        if G.size <= p["jacobian_cells"] and pat == pats[0]:
                            J = _memory_jacobian(m, d, key, l)
                            _R, C = G.shape
                            wantJ = np.zeros_like(J)
                            for a in range(m + 1):
                                for b in range(d + 1):
                                    if (a + 1) in rows:
                                        wantJ[a * C + b, a * C + b] = statement.grad_value
                            data = [a * C + b for a in range(m + 1) for b in range(d + 1)]
                            ok_j = bool(np.array_equal(J[np.ix_(data, data)], wantJ[np.ix_(data, data)]))
                            ev.add({"m": m, "d": d, "tau": tau, "l": l, "part": "(b) full Jacobian (chain rule, 3x3 spec)"}, ok_j)
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# L4. Lemma 4
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lemma4Statement:
    """W^(tau+1) has rows a < tau ("lt", printed) or a <= tau ("le") filled, for tau = 1..m+1."""

    rule: str
    eta: Fraction = Fraction(1, 54)
    dummy: bool = True
    init: str = "zero"


_L4_PRINTED = Lemma4Statement("lt")
_L4_CORRECTED = Lemma4Statement("le")


def _l4_hypotheses(case: dict) -> list[str]:
    """Lemma 4: 1 <= tau < m+2, d, m >= 1, Algorithm 1 (W^(1) = 0, eta = 1/54, dummy example)."""
    bad = []
    m, d, tau = int(case.get("m", 0)), int(case.get("d", 0)), int(case.get("tau", 0))
    if m < 1 or d < 1:
        bad.append("d, m in N (>= 1)")
    if not 1 <= tau < m + 2:
        bad.append("1 <= tau < m+2")
    if case.get("init") != "zero":
        bad.append("Algorithm 1: W^(1) = 0")
    if case.get("eta") != "1/54":
        bad.append("eta = 1/54")
    if case.get("dummy") is not True:
        bad.append("Algorithm 1's dummy example (1_d, 1)")
    return bad


@claim(
    id="seed003.lemma_4",
    source=SOURCE,
    label="Lemma 4",
    entry="L4",
    title="SGD with eta = 1/54 memorises exactly; W^(tau+1) has rows a <= tau (printed a < tau: off by one)",
    lines=[(559, 580)],
    printed=_L4_PRINTED,
    corrected=_L4_CORRECTED,
    mutants=[
        Mutant("eta=1/27", "eta = 1/27 (stores +-2/3)", replace(_L4_CORRECTED, eta=Fraction(1, 27))),
        Mutant("eta=1/108", "eta = 1/108 (stores +-1/6, the padding value)", replace(_L4_CORRECTED, eta=Fraction(1, 108))),
        Mutant("no-dummy", "drop the dummy example (1_d, 1)", replace(_L4_CORRECTED, dummy=False)),
        Mutant("init-ones", "W^(1) = 1 (the proof's printed base case)", replace(_L4_CORRECTED, init="ones")),
        Mutant("a<=tau+1", "rows a <= tau + 1 filled in W^(tau+1) (one too many)", replace(_L4_CORRECTED, rule="le2"),
               part="memorisation", origin="second-reader"),
    ],
    parts=[
        Part("memorisation", "for tau < m+2: W^(tau+1)_{ab} = 3^{-1} y^(a) x^(a)_b (a < tau, b <= d), 3^{-1} y^(a) "
             "(a < tau, b = d+1), 0 otherwise, with eta = 1/54"),
        Part("f_zero", "(proof) f = 0 during memorisation, so the step adds (1/54) 18 y z to row tau"),
    ],
    severity=Severity.TYPO,
    affects=(),
    hypotheses=_l4_hypotheses,
    expect=Status.ERRATUM,
    rigor=Rigor.EXACT,
    params=[Param("datasets", int, 1, 500, doc="random training sets per (m, d)"),
            Param("m_max", int, 1, 6, doc="m = 1..m_max"), Param("d_max", int, 1, 5, doc="d = 1..d_max")],
    tiers={"quick": {"datasets": 8, "m_max": 3, "d_max": 3}, "full": {"datasets": 20, "m_max": 5, "d_max": 4}},
)
def check_lemma_4(statement: Lemma4Statement, p, ctx) -> Verdict:
    """Lemma 4: SGD memorisation with eta = 1/54.

    Statement
    ---------
    For tau < m+2, Algorithm 1 with layers f-bar_Conv2D, head f-bar_head and eta = 1/54 gives
    W^(tau+1)_{ab} = 3^{-1} y^(a) x^(a)_b if a < tau, b <= d; 3^{-1} y^(a) if a < tau, b = d+1;
    0 otherwise.  Key step: during memorisation f = 0 and grad_{W_ab} loss = -18 y 1[a = tau] z_b with
    z = [x; 1], so the step adds (1/54) 18 y z = (1/3) y z to row tau.

    Source
    ------
    Seed 003, Lemma 4 and its proof, lines 559-580.

    Checkable form
    --------------
    Algorithm 1 at spec level, exactly (kernels.constructions.tm2d.algorithm1: f-bar forward, gradient by the
    chain rule through the gradient spec and f-bar_head' at the cell values), on random training sets
    (m <= m_max, d <= d_max, repeated examples included, depth l in {m+1, m+2, m+3}): for
    tau = 1..m+1, W^(tau+1) is compared with the statement's formula, and the output f before each
    update must be 0.

    Exactness
    ---------
    Exact (Fractions).

    Mutants
    -------
    eta = 1/27 and 1/108 store +-2/3 and +-1/6; without the dummy example the pass ends after m
    steps and row m+1 of W^(m+2) is missing; W^(1) = 1 fills every row from the start.

    Second-reader mutant "a<=tau+1": row tau + 1 of W^(tau+1) is still 0 (example tau + 1 has not been
    seen; exact), so filling it is false; rejected by the old checker too.

    Correction
    ----------
    W^(tau+1) has the rows a <= tau filled (equivalently: W^(tau) has rows a < tau, as in Lemma 2), and
    the proof's base case reads W^(1) = 0.  Severity typo (off-by-one index).

    Notes
    -----
    Second-reader judgement: erratum (typo), kept.  Lemma 4 is a stated lemma about Algorithm 1 with
    the paper's own f-bar layers and eta = 1/54 (no existential choice left), and at tau = 1 (in range
    tau < m+2) it claims W^(2) = 0, while the first SGD step writes (1/3) y^(1) [x^(1); 1] into row 1:
    false on every training set.  The validator checks 1 <= tau < m+2, W^(1) = 0, eta = 1/54 and the
    dummy example.  No inequality parts.
    As printed (a < tau) the formula describes W^(tau), not W^(tau+1): after the update with example
    tau, row tau is filled (Lemma 2's W^(i) with a < i agrees with the corrected form).  The proof's
    base case "W^(1) = 1_{(m+1) x (d+1)}" must read 0 (Algorithm 1 initialises W^(1) = 0; the mutant
    shows that 1 fails).
    """
    ev = Evidence("true", rigor=Rigor.EXACT)
    key = (ctx.claim_id, p["datasets"], p["m_max"], p["d_max"])
    for idx, (m, d, k, X, y) in enumerate(_l4_datasets(*key)):
        l = m + 1 + k % 3
        run = _l4_run(*key, idx, statement.eta, statement.dummy, statement.init)
        for tau in range(1, m + 2):
            shift = {"lt": 0, "le": 1, "le2": 2}[statement.rule]
            want = memorisation_formula(X, y, tau + shift, "lt")
            got = run.W[tau] if tau < len(run.W) else None
            ok = got is not None and bool(np.array_equal(got, want))
            bad = None
            if got is None:
                bad = "no W^(tau+1): the pass has fewer steps"
            elif not ok:
                a, b = (int(v) for v in np.argwhere(got != want)[0])
                bad = f"W[{a + 1},{b + 1}] = {got[a, b]}, formula {want[a, b]}"
            ev.add({"m": m, "d": d, "l": l, "dataset": k, "tau": tau, "eta": statement.eta, "init": statement.init,
                    "dummy": statement.dummy, "first difference": bad}, ok)
            if not ok:
                break
        ev.add({"m": m, "d": d, "l": l, "dataset": k, "part": "f = 0 before every update"},
               run.error is None and all(f == 0 for f in run.outputs))
    return ev.verdict()


@functools.lru_cache(maxsize=2)
def _l4_datasets(claim_id: str, datasets: int, m_max: int, d_max: int) -> tuple:
    """check_lemma_4's training sets, drawn once per (claim, parameters) from its "datasets" stream in the order
    of the loop: (m, d, k, X, y) with read-only arrays."""
    rng = Context(claim_id).rng("datasets")
    out = []
    for m in range(1, m_max + 1):
        for d in range(1, d_max + 1):
            for k in range(datasets):
                X, y = random_dataset(rng, m, d, repeat=bool(k % 2))
                X.setflags(write=False)
                y.setflags(write=False)
                out.append((m, d, k, X, y))
    return tuple(out)


@functools.lru_cache(maxsize=256)
def _l4_run(claim_id: str, datasets: int, m_max: int, d_max: int, idx: int, eta, dummy: bool, init: str):
    """Algorithm 1 at spec level on training set idx of _l4_datasets with depth l = m + 1 + k % 3; shared by the
    statements with the same (eta, dummy, init) (the printed statement, the corrected one and the row mutant)."""
    m, d, k, X, y = _l4_datasets(claim_id, datasets, m_max, d_max)[idx]
    return TG.algorithm1(X, y, memory_spec(), m + 1 + k % 3, eta=eta, dummy=dummy, init=init)

