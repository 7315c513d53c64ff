"""Fig 4.3 (right panel, E34): a single attention head trained on a 3-sparse AND reaches 100%
validation accuracy and its [CLS] attention concentrates on the relevant bits.

Every run is a real full-batch Adam run of kernels.training.train_attention (numba CPU kernel; its
backward pass is checked against finite differences and the numpy reference in
tests/kernels/test_attention.py): single head, trainable token and positional embeddings (init
N(0, 0.02^2) as minGPT), logistic loss, lr 1e-2 (the paper's 1e-3 needs more steps than a CPU tier
affords), no dropout, no weight decay.  Data as in App. A.3.1: x ~ Bern((1/2)^(1/3))^T, y = AND over
I = {3, 8, 12} (T = 16) or the paper's I = {5, 20, 30} (T = 50), validation on fresh samples.
Sizes are reduced from the paper's (d = k = 64, T = 50, m = 300, 500 iterations, lr 1e-3): quick T = 16, d = k = 8,
m = 200, 300 steps, 4 seeds; full T = 50, d = k = 8, m = 300, 400 steps, 4 seeds; gpu the paper's T = 50, d = k = 64,
m = 300, 500 steps, 4 seeds, but still lr 1e-2 (fixed in the check; the paper's 1e-3, dropout 0.1 and weight decay
1e-4 are not run) and 2000 validation samples.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from kernels.training.attention import (
    forward_reference,
    init_params,
    make_shapes,
    train_attention,
)

from ..registry import Part, Evidence, Kind, Mutant, Param, Rigor, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True

P_BIT = 0.5 ** (1 / 3)


@functools.lru_cache(maxsize=8)
def _runs(seed: int, T: int, d: int, m: int, steps: int, seeds: int, n_val: int):
    I = [3, 8, 12] if T < 31 else [5, 20, 30]
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    B = (rng.random((m, T)) < P_BIT).astype(np.int64)
    y = np.where(B[:, I].all(axis=1), 1.0, -1.0)
    Bv = (rng.random((n_val, T)) < P_BIT).astype(np.int64)
    yv = np.where(Bv[:, I].all(axis=1), 1.0, -1.0)
    shp = make_shapes(T, d, d)
    theta0 = init_params(T, d, d, [seed + r for r in range(seeds)])
    theta, losses = train_attention(theta0, shp, B, y, steps, lr=1e-2)
    out = []
    for r in range(seeds):
        z, a = forward_reference(theta[r], shp, Bv)
        out.append({"seed_index": r, "train_loss": float(losses[r, -1]), "val_acc": float(np.mean(np.sign(z) == yv)),
                    "mass_I": float(a[:, I].sum(axis=1).mean()), "mass_cls": float(a[:, -1].mean())})
    return I, tuple(out), losses[:, :: max(1, steps // 50)]


@dataclass(frozen=True)
class AttentionMapStatement:
    max_irrelevant: float | None = 0.1  # "~0 on irrelevant bits": total attention on bits outside I <= 0.1
    uniform: bool = False  # mutant: attention uniform (mass on I within 0.1 of 3/(T+1))


@claim(
    id="thesis_ch4.fig_4.3",
    figure="Figure 4.3 (right)",
    source=SOURCE,
    label="Figure 4.3",
    entry="E34",
    title="A single head learns a 3-sparse AND; [CLS] attention ~0 on the irrelevant bits",
    lines=[(811, 813), (2925, 2929)],
    printed=AttentionMapStatement(),
    mutants=[Mutant("uniform-attention", "the trained head attends uniformly (mass on I = 3/(T+1) +- 0.1)",
                    AttentionMapStatement(max_irrelevant=None, uniform=True))],
    parts=[
        Part("accuracy", "the trained head reaches 100% validation accuracy (read: >= 0.99 on 2000 fresh samples, loss < 1e-3)"),
        Part("attention", "its [CLS] attention is ~0 on the irrelevant bits (read: total mass outside I <= 0.1)"),
    ],
    expect=Status.NOT_REPRODUCED,
    kind=Kind.EMPIRICAL,
    rigor=Rigor.STATISTICAL,
    params=[Param("T", int, 16, 200), Param("d", int, 2, 64), Param("m", int, 20, 2000), Param("steps", int, 10, 10000),
            Param("seeds", int, 1, 64)],
    tiers={"quick": {"T": 16, "d": 8, "m": 200, "steps": 300, "seeds": 4},
           "full": {"T": 50, "d": 8, "m": 300, "steps": 400, "seeds": 4},
           "gpu": {"T": 50, "d": 64, "m": 300, "steps": 500, "seeds": 4}},
)
def check_fig_4_3(statement: AttentionMapStatement, p, ctx) -> Verdict:
    """Fig 4.3 (right): attention of a trained single head on a sparse AND.

    Statement
    ---------
    A single attention head (d = k = 64) trained for 500 iterations on m = 300 samples of a 3-sparse AND
    with T = 50, I = {5, 20, 30}, reaches 100% validation accuracy on 10^4 samples, and its [CLS]
    attention over 100 validation samples is ~0 on the irrelevant bits.

    Source
    ------
    Seed 004, Figure 4.3 (right panel), lines 811-813; App. A.3.1, lines 2925-2929.

    Checkable form
    --------------
    Reduced re-run (module docstring; quick T = 16, full the paper's T = 50 and I): every seed reaches
    validation accuracy >= 0.99 on 2000 fresh samples and training loss < 1e-3 (these hold), and the
    paper's "~0 on irrelevant bits", read as: total [CLS] attention on the bits outside I (averaged over
    validation inputs) <= 0.1.  The latter is NOT reproduced at these reduced sizes: attention on I is
    ~0.64-0.69 (T = 16) and ~0.47 (T = 50), on [CLS] 0.06-0.13, on the irrelevant bits together
    0.26-0.40; per token, a relevant bit gets ~10x (T = 16) to ~19-30x (T = 50) the attention of an
    irrelevant one (details), so
    the head does concentrate on I, but not to ~0 elsewhere.  The reduced model (d = 8, lr 1e-2,
    300-400 steps, no dropout) differs from the paper's (d = 64, lr 1e-3, 500 steps), so this is not
    evidence against the paper; the GPU tier is where the paper's size belongs.

    Exactness
    ---------
    Statistical: seeded runs (CPU results reproducible bit for bit); accuracy on 2000 validation samples
    (a 0.99 cut is 6 standard errors from 0.995 at p = 0.99).

    Mutants
    -------
    "Attention is uniform" (mass on I within 0.1 of 3/(T+1)): rejected by the trained heads (mass on
    I is 8-12x uniform).
    """
    T = p["T"]
    I, runs, curves = _runs(ctx.seed("runs"), T, p["d"], p["m"], p["steps"], p["seeds"], 2000)
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    uni = 3 / (T + 1)
    for r in runs:
        case = {"seed_index": r["seed_index"], "T": T, "m": p["m"], "I": str(I)}
        ev.add(dict(case, part="validation accuracy >= 0.99"), r["val_acc"], 0.99)
        ev.add(dict(case, part="training loss < 1e-3"), r["train_loss"], 1e-3, relation="le")
        per_I = r["mass_I"] / len(I)
        irr = 1 - r["mass_I"] - r["mass_cls"]
        ev.details.setdefault("per_token_ratio_I_vs_irrelevant", []).append(per_I / (irr / (T - len(I))))
        if statement.max_irrelevant is not None:
            ev.add(dict(case, part=f"attention on irrelevant bits (total) <= {statement.max_irrelevant}",
                        mass_I=round(r["mass_I"], 4), mass_cls=round(r["mass_cls"], 4)), irr, statement.max_irrelevant, relation="le")
        if statement.uniform:
            ev.add(dict(case, part="attention mass on I within 0.1 of uniform 3/(T+1)"), abs(r["mass_I"] - uni), 0.1, relation="le")
    ev.details["runs"] = list(runs)
    ev.plots.append({
        "title": f"Single head on a 3-sparse AND: training loss (T = {T}, m = {p['m']})",
        "xlabel": "step", "ylabel": "training loss", "logx": False, "logy": True,
        "series": [{"x": list(range(0, p["steps"], max(1, p["steps"] // 50)))[: curves.shape[1]], "y": curves[i].tolist(),
                    "label": f"seed {i}", "style": "-"} for i in range(curves.shape[0])],
    })
    return ev.verdict(seed=ctx.seed("runs"))
