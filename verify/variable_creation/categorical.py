"""Section A.2.4 (E31): beyond Boolean inputs, categorical tokens {1..M}^T.

Construction executed (the categorical analogue of Lemma A.19 + Lemma A.25, as the section sketches):
M orthogonal token embeddings, s deterministic-P selector heads (kernels.sequence.attention.categorical_selector),
head h returning ~ b_{I[h]}/(M-1) (error <= gamma/8 at R = log(8T/gamma)), then the 3-layer ReLU net of
Lemma A.25 (kernels.sequence.attention.memorisation_net, corrected bump) on the n = M^s grid points
{0, 1/(M-1), ..., 1}^s, which are 1/(M-1)-separated in l_inf, so delta = 1/(4(M-1)) and gamma = 4 delta.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np

from kernels.sequence.attention import categorical_selector, memorisation_net

from ..registry import Part, Evidence, Mutant, Param, Rigor, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True

TOL = 1e-9


def memorisation_nonzeros(n: int, df: int) -> int:
    """Nonzero parameters of Lemma A.25's network on n points in R^df (all values f nonzero): layer 1 has a
    weight and a bias per unit (4 n df units), layer 2 two weights per unit plus 2n biases, the read-out 2n."""
    return 8 * n * df + (8 * n * df + 2 * n) + 2 * n


@dataclass(frozen=True)
class CategoricalStatement:
    points: str = "M^s"  # the memorisation net is built on M^s grid points ("2^s": mutant, Boolean width reused)
    count_exp_offset: int = 0  # parameter count 16 s M^(s + offset) + 4 M^(s + offset) (printed Theta(s M^s): offset 0)


@claim(
    id="thesis_ch4.sec_A.2.4",
    source=SOURCE,
    label="Section A.2.4",
    entry="E31",
    title="Categorical tokens: M orthogonal embeddings + s selector heads + ReLU net represent every s-sparse f exactly with Theta(s M^s) parameters",
    lines=[(2739, 2746)],
    printed=CategoricalStatement(),
    mutants=[Mutant("boolean-width", "the Boolean network (2^s bumps, width 4 s 2^s) reused for M > 2", CategoricalStatement(points="2^s"),
                    part="exact"),
             Mutant("count-M^(s-1)", "parameter count 16 s M^(s-1) + 4 M^(s-1) (one factor M lost): the network needs one "
                    "bump per pattern, M^s of them", CategoricalStatement(count_exp_offset=-1), part="parameters",
                    origin="second-reader")],
    parts=[Part("exact", "M orthogonal embeddings + s selector heads + ReLU net represent every s-sparse f on {1..M}^T exactly"),
           Part("parameters", "with Theta(s M^s) parameters instead of s 2^s (counted: 16 s M^s + 4 M^s nonzeros)"),
           Part("continuous", "for continuous inputs positional selection still works with another approximator", asserted=False,
                reason="a remark without a quantitative statement (no approximator or rate is given)"),
           Part("capacity", "the capacity results hold for any embedding bounded in ||.||_{2,inf}", asserted=False,
                reason="the capacity bounds (covering.py) never use the token set; nothing separate to execute")],
    expect=Status.PARTLY_CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("M_max", int, 3, 6), Param("T", int, 4, 512), Param("fill", int, 1, 100)],
    tiers={"quick": {"M_max": 4, "T": 32, "fill": 2}, "full": {"M_max": 5, "T": 128, "fill": 4}},
)
def check_sec_A_2_4(statement: CategoricalStatement, p, ctx) -> Verdict:
    """Section A.2.4: categorical tokens {1..M}^T.

    Statement
    ---------
    With M orthogonal token embeddings (instead of 2) the sparse function approximation construction
    carries over to {1..M}^T and uses s M^s instead of s 2^s parameters; continuous inputs: positional
    selection still works with another approximator; the capacity results hold for any embedding bounded
    in ||.||_{2,inf}.

    Source
    ------
    Seed 004, Section A.2.4, lines 2739-2746.

    Checkable form
    --------------
    The categorical part is executed (module docstring): for M in [2, M_max], s in {1, 2, 3}, random
    I subset of [T], random values f on {0..M-1}^s (uniform in [-1, 1]), every one of the M^s patterns of
    b_I, each with ``fill`` random fillings of the other T - s tokens: |net(heads(b)) - f(b_I)| <= 1e-9.
    The parameter count is counted on the built network (nonzero entries) and must equal
    16 s M^s + 4 M^s (Theta(s M^s); at M = 2 the Boolean s 2^s form).  The continuous-input and capacity
    remarks are not separate numerical statements (the capacity bounds E8-E12 never use the token set).

    Exactness
    ---------
    float64, tolerance 1e-9 on outputs that are exactly f(b_I) once the head error gamma/8 = delta/2 is
    below the bump half-width delta (ReLU plateaus; observed error ~1e-15); the parameter count is an
    integer equality.

    Mutants
    -------
    The Boolean network reused for M > 2 (bumps only at the 2^s patterns with tokens in {0, M-1}): the
    other M^s - 2^s patterns map to 0 instead of f, rejected at M = 3.  Second reader: the count with
    M^(s-1) (one bump per pattern is needed, the built network has M^s), not expressible before.  Parts
    "continuous" and "capacity" are unasserted remarks, so partly-confirmed (was confirmed).  No
    inequality part: nothing to sharpen.
    """
    rng = ctx.rng("patterns")
    ev = Evidence("le", rigor=Rigor.FLOAT)
    T = p["T"]
    for M in range(2, p["M_max"] + 1):
        for s in (1, 2, 3):
            delta = 1.0 / (4 * (M - 1))
            I = sorted(rng.choice(T, size=s, replace=False).tolist())
            heads = categorical_selector(T, M, I, 4 * delta)
            pats = np.array(list(product(range(M), repeat=s)))
            f = rng.uniform(-1, 1, size=len(pats))
            if statement.points == "M^s":
                keep = np.arange(len(pats))
            else:
                keep = np.flatnonzero(np.all((pats == 0) | (pats == M - 1), axis=1))
            net = memorisation_net(pats[keep] / (M - 1), f[keep], delta, bump="corrected")
            feats, want = [], []
            for q, pt in enumerate(pats):
                for _ in range(p["fill"]):
                    b = rng.integers(0, M, size=T)
                    b[I] = pt
                    feats.append(heads(b))
                    want.append(f[q])
            feats = np.array(feats)
            ev.add({"M": M, "s": s, "T": T, "part": "head error <= gamma/8 = delta/2"},
                   float(np.abs(feats - np.repeat(pats, p["fill"], axis=0) / (M - 1)).max()), delta / 2)
            err = float(np.abs(net(feats) - np.array(want)).max())
            ev.add({"M": M, "s": s, "T": T, "I": str(I), "part": "exact representation on all M^s patterns"}, err, TOL)
            nnz = int(np.count_nonzero(net.W1) + np.count_nonzero(net.W2) + np.count_nonzero(net.w))
            ev.add({"M": M, "s": s, "part": "nonzero parameters = 16 s M^s + 4 M^s"}, nnz,
                   memorisation_nonzeros(M ** (s + statement.count_exp_offset), s), relation="eq")
    return ev.verdict(seed=ctx.seed("patterns"))
