"""The training bridge (thesis Sec. 7.3 Thm 7.1, experiments of App. D.2): gradient descent with small
L_{2,3} weight decay on quadratic networks approaches the max margin gamma*, neurons become
single-frequency / single-irrep and every frequency is used (A1, F), and for Z_p the regularized
optimum is exactly max-margin (X3, derived).

Training: kernels.training.quadratic_margin (numba CPU, full batch, float64), the paper's learning-rate
doubling schedule, init N(0, 1/n) per weight from an explicit seed.  CPU sizes: Z_5, Z_7 (quick), Z_11
(m = 60) and S3 (m = 30, the paper's width) at the full tier; the gpu tier raises Z_p to p = 23
(there is no CUDA twin of this trainer, so the gpu tier runs on the CPU, about a minute; the paper's
p = 71, m = 500 and S4/S5 runs are out of reach there).
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from kernels.algebra import margin as K
from kernels.training.quadratic_margin import train_quadratic_margin

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE
from ._common import fourier_power, group, irrep_power

CYCLIC_SCHEDULE = tuple(range(1000, 10001, 1000))  # App. D.2: lr 0.05 doubled at 1k, 2k, ..., 10k
GROUP_SCHEDULE = tuple(range(200, 2601, 200)) + (5000, 10000)  # App. D.2: S3 / S4
RUNS = {
    "quick": {"cyclic": ((5, 24, 20000), (7, 30, 20000)), "group": ()},
    "full": {"cyclic": ((5, 24, 20000), (7, 30, 20000), (11, 60, 20000)), "group": (("S3", 30, 50000),)},
    "gpu": {"cyclic": ((5, 24, 20000), (7, 30, 20000), (11, 60, 20000), (23, 100, 40000)), "group": (("S3", 30, 50000),)},
}
#: runs added at the gpu tier only when the CUDA twin is used (the paper's Z_71, m = 500, 40k steps; App. D.2)
CUDA_RUNS = ((71, 500, 40000),)
SEED = 0

#: every claim of this module meets the verdict contract (second reader, see docs/audit/thesis_ch7_training.md)
CONTRACT_AUDITED = True


def cyclic_run(p: int, m: int, steps: int, lam: float = 1e-4, seed: int = SEED, backend: str = "cpu"):
    """The cached Z_p run; the arguments are normalised before the cache lookup, so that a call that names
    its defaults (``backend="cpu"``) and one that does not read the same run (functools keys positional and
    keyword arguments apart)."""
    return _cyclic_run(int(p), int(m), int(steps), float(lam), int(seed), str(backend))


@cache
def _cyclic_run(p: int, m: int, steps: int, lam: float, seed: int, backend: str):
    return train_quadratic_margin(K.cyclic_table(p), m, steps=steps, lr=0.05, lr_double_at=CYCLIC_SCHEDULE,
                                  weight_decay=lam, seed=seed, record_every=250, backend=backend)


@cache
def group_run(name: str, m: int, steps: int, lam: float = 1e-7, seed: int = SEED):
    return train_quadratic_margin(group(name).mul, m, steps=steps, lr=0.05, lr_double_at=GROUP_SCHEDULE,
                                  weight_decay=lam, seed=seed, record_every=500)


def trained_cyclic_points(tier: str):
    """(p, final normalized margin) of the tier's Z_p runs (used by the Thm 7.7 figure)."""
    xs, ys = [], []
    for p, m, steps in RUNS["full" if tier == "gpu" else tier]["cyclic"]:
        xs.append(p)
        ys.append(float(cyclic_run(p, m, steps).normalized_margin[-1]))
    return xs, ys


def _live(U, V, W, frac=1e-3):
    c = K.neuron_costs(U, V, W)
    return c > frac * c.max()


@claim(
    id="thesis_ch7.theorem_7_1_training", source=SOURCE, label="Theorem 7.1", entry="A1",
    figure=["Figure 7.1 (c)", "Figure D.2 (a)"],
    title="GD with vanishing L_{2,3} regularization: normalized margin approaches gamma*, never exceeds it",
    lines=[(1416, 1420), (4780, 4819)],
    printed={"may_exceed": False, "need_small_p": 0.999, "cap": 1 + 1e-9},
    parts=[Part("approaches", "GD-trained networks approach gamma* (final gamma_t >= 0.999 gamma* on Z_5, Z_7; full: Z_11, "
                "S3 >= 0.95)"),
           Part("never_exceeds", "gamma_t <= gamma* along training (gamma* is a maximum)", inequality=True),
           Part("theorem_7_1", "Thm 7.1: the margin of GLOBAL minimizers of L_lam tends to gamma* as lam -> 0", asserted=False,
                reason="a cited theorem (Wei et al. 2019b); GD at fixed lam does not give global minimizers or the limit"),
           Part("paper_scale", "the paper's runs (Z_71 m = 500, S4 m = 200, S5 m = 2000) approach gamma*", asserted=False,
                reason="GPU-scale runs; no CUDA twin run here, only CPU-sized tasks")],
    mutants=[Mutant("exceeds-gamma*", "for some lambda the trained normalized margin exceeds gamma*", {"may_exceed": True,
                    "need_small_p": 0.999, "cap": 1 + 1e-9}),
             Mutant("reaches-1.001", "final gamma_t >= 1.001 gamma* (impossible: gamma* is the maximum)",
                    {"may_exceed": False, "need_small_p": 1.001, "cap": 1 + 1e-9}, origin="second-reader"),
             Mutant("cap-1-1e-13", "gamma_t <= (1 - 1e-13) gamma* along training (sharpness 1 - 5.7e-15 at Z_5; Z_5 rejects it)",
                    {"may_exceed": False, "need_small_p": 0.999, "cap": 1 - 1e-13}, near_boundary=True, part="never_exceeds",
                    origin="second-reader")],
    expect=Status.REPRODUCED, rigor=Rigor.FLOAT, kind=Kind.EMPIRICAL, uses_backend=True,
    params=[Param("tier_runs", str, choices=("quick", "full", "gpu"))],
    tiers={"quick": {"tier_runs": "quick"}, "full": {"tier_runs": "full"}, "gpu": {"tier_runs": "gpu"}},
)
def check_theorem_7_1(st, p, ctx) -> Verdict:
    """Theorem 7.1 (Wei et al. 2019b) as an empirical bridge: weak regularization gives max margin.

    Statement
    ---------
    For homogeneous f (nu > 0), any norm and r > 0: if gamma* > 0 then lim_{lam -> 0} gamma_lam = gamma*,
    gamma_lam the normalized margin of a global minimizer of L_lam = mean CE + lam ||theta||^r.  The
    chapter's figures (7.1c, 7.5b, 7.6a, D.2a, D.3a) show GD-trained networks "approach the theoretical
    maximum margin".

    Source
    ------
    Seed 004, Theorem 7.1, lines 1416-1420 (cited, no proof); experiments App. D.2, lines 4780-4819.

    Checkable form
    --------------
    GD (not a global minimizer) with the paper's lr-doubling schedule, L_{2,3} penalty
    lam sum ||omega_i||^3 (lam = 1e-4 for Z_p, 1e-7 for S3 as in App. D.2), seed 0, runs of the tier:
    Z_5 (m = 24), Z_7 (m = 30); full: Z_11 (m = 60), S3 (m = 30, 50k steps); gpu tier (CPU, ~3 min):
    Z_23 (m = 100, 40k steps; measured 1 - 2.7e-4) and, with the CUDA twin, the paper's Z_71 (m = 500,
    40k steps; not yet run on a GPU).  Reproduced if (a) along
    every recorded step the normalized margin stays <= gamma* (1 + 1e-9) (weak duality; the mutant
    claims it can exceed), and (b) at the end it is >= 0.999 gamma* for Z_p with p < 23 (>= 0.99 for
    p >= 23) and >= 0.95 gamma* for S3
    (the catalog's small-scale run reached 0.977 at 50k steps, still rising; the thesis prints no
    number).  Figure: margin trajectories gamma_t / gamma*.

    Exactness
    ---------
    Float64 training; thresholds are empirical (one seed per task, deterministic).

    Mutants
    -------
    "The trained margin exceeds gamma* for some lambda": impossible (gamma* is a maximum); rejected.
    Second reader: final margin >= 1.001 gamma* (provably false: gamma* is the maximum) and, near the
    boundary, gamma_t <= (1 - 1e-13) gamma* (the Z_5 run reaches 1 - 5.7e-15): both rejected.

    Notes
    -----
    Second reader: the "reproduced" criterion (>= 0.999 gamma*, never above) is stricter than the
    paper's words ("approaches what we have predicted", Figs 7.1c, 7.5b, 7.6a) and was fixed in the
    catalog before the runs; but it is tested at CPU scale only (Z_5, Z_7 quick), so the paper-scale
    part is not asserted, nor Thm 7.1 itself (cited, about global minimizers).  Empirical: status
    reproduced for the asserted parts.
    """
    ev = Evidence("true", rigor=Rigor.FLOAT)
    series = []
    cyc = list(RUNS[p["tier_runs"]]["cyclic"])
    if p["tier_runs"] == "gpu" and ctx.backend == "cuda":
        cyc += list(CUDA_RUNS)
    runs = [(f"Z{q}", cyclic_run(q, m, steps, backend=ctx.backend if q >= 23 else "cpu"), K.cyclic_gamma(q),
             st["need_small_p"] if q < 23 else 0.99) for q, m, steps in cyc]
    runs += [(name, group_run(name, m, steps), K.group_gamma(group(name).dims), 0.95)
             for name, m, steps in RUNS[p["tier_runs"]]["group"]]
    for name, r, gam, need in runs:
        ratio = r.normalized_margin / gam
        top = float(np.nanmax(ratio))
        exceeded = top > st["cap"]
        case = {"task": name, "max over training of gamma_t/gamma*": top}
        ev.add(case, exceeded == st["may_exceed"])
        ev.sharpness(case, top, part="never_exceeds")
        if not st["may_exceed"]:
            ev.add({"task": name, "final gamma/gamma*": float(ratio[-1]), "required": need, "diverged_at": r.diverged_at},
                   float(ratio[-1]) >= need and r.diverged_at < 0)
        series.append({"x": r.record_steps.tolist(), "y": np.clip(ratio, -0.5, None).tolist(), "label": name, "style": "-"})
    ev.plots.append({"title": "Normalized L_{2,3} margin during GD (lr doubling, weak L_{2,3} decay)",
                     "xlabel": "GD step", "ylabel": "gamma_t / gamma*", "logx": False, "logy": False, "series": series})
    return ev.verdict(seed=SEED)


@claim(
    id="thesis_ch7.training_features", source=SOURCE, label="App. D.2 experiments", entry="F",
    figure=["Figure 7.4 (c)", "Figure D.1 (b)", "Figure D.2 (b-d)"],
    title="Trained nets: every neuron single-frequency (max normalized Fourier power ~1), all frequencies used",
    lines=[(4780, 4819)],
    printed={"at": "end", "power": 0.99},
    parts=[Part("single_frequency", "every (live) neuron's max normalized Fourier power is 'almost exactly 1' (>= 0.99)"),
           Part("all_used", "every frequency 1..(p-1)/2 (every non-trivial irrep of S3, full tier) is some neuron's dominant one"),
           Part("close_to_uniform", "the distribution of neurons over frequencies is 'close to uniform' (Fig. D.1)", asserted=False,
                reason="no threshold in the thesis; per-frequency counts are recorded in the case, not judged"),
           Part("paper_scale", "Z_71 m = 500, S4 m = 200, S5 m = 2000 (Figs 7.4c, 7.6, D.2, D.3)", asserted=False,
                reason="GPU-scale runs; only CPU-sized tasks run here")],
    mutants=[Mutant("at-initialization", "the same concentration already holds at initialization", {"at": "init", "power": 0.99}),
             ],
    expect=Status.REPRODUCED, rigor=Rigor.FLOAT, kind=Kind.EMPIRICAL,
    params=[Param("tier_runs", str, choices=("quick", "full", "gpu"))],
    tiers={"quick": {"tier_runs": "quick"}, "full": {"tier_runs": "full"}, "gpu": {"tier_runs": "full"}},
)
def check_training_features(st, p, ctx) -> Verdict:
    """App. D.2-D.3 experimental claims: learned features are single-frequency / single-irrep.

    Statement
    ---------
    After GD with L_{2,3} regularization (Z_71, m = 500, 40k steps; S3 m = 30; S4 m = 200; S5 m = 2000),
    the max normalized Fourier power max_j |u^(j)|^2 / sum_j |u^(j)|^2 (folding +-j) of every neuron is
    "almost exactly 1" (Fig. 7.4c), frequencies are used "close to uniform" (Fig. D.1), and for groups
    every neuron concentrates in one irrep (Fig. 7.6c-d, D.2, D.3).

    Source
    ------
    Seed 004, App. D.2 experiments and protocol, lines 4780-4819 (figure captions near lines 1590-1640).

    Checkable form
    --------------
    CPU-sized runs of the tier (Z_5, Z_7; full adds Z_11 and S3; the paper's Z_71 m = 500 is a GPU
    experiment not run here): every neuron carrying >= 1e-3 of the largest ||omega||^3 has max
    normalized power >= 0.99 for each of u, v, w (one frequency; for S3 one irrep), and every
    frequency 1..(p-1)/2 (every non-trivial irrep) is the dominant one of some neuron.  Heat map:
    per-neuron Fourier power spectrum of w (neurons x frequencies) for the largest Z_p run.

    Exactness
    ---------
    Float64; thresholds empirical (0.99 power).

    Mutants
    -------
    The same test at initialization (Gaussian weights): power is spread over all frequencies.  Second
    reader: no new false variant -- a guessed one (power >= 1 - 1e-9) turned out TRUE on the quick runs
    (min max-power 1.0 to print precision), so it is not a mutant; the runs are cleaner than "almost
    exactly 1".

    Notes
    -----
    Second reader: the 0.99 threshold reads "almost exactly 1"; "close to uniform" (Fig. D.1) was a
    weaker reading before (only "every frequency used" was tested) and is now declared unasserted.
    Empirical: status reproduced for the asserted parts at CPU scale.
    """
    ev = Evidence("true", rigor=Rigor.FLOAT)
    heat = None
    for q, m, steps in RUNS[p["tier_runs"]]["cyclic"]:
        r = cyclic_run(q, m, steps)
        if st["at"] == "init":
            r = train_quadratic_margin(K.cyclic_table(q), m, steps=0, lr=0.05, weight_decay=1e-4, seed=SEED)
        live = _live(r.U, r.V, r.W)
        pw = [np.array([fourier_power(x) for x in M[live]]) for M in (r.U, r.V, r.W)]
        conc = float(min(P[:, 1:].max(axis=1).min() for P in pw))
        dom = {int(j) for j in pw[2][:, 1:].argmax(axis=1) + 1}
        counts = np.bincount(pw[2][:, 1:].argmax(axis=1), minlength=(q - 1) // 2).tolist()
        ev.add({"task": f"Z{q}", "live neurons": int(live.sum()), "min max-power": conc, "frequency counts": counts},
               conc >= st["power"] and dom == set(range(1, (q - 1) // 2 + 1)))
        order = np.argsort(pw[2][:, 1:].argmax(axis=1), kind="stable")
        heat = (q, pw[2][order][:, 1:])
    for name, m, steps in RUNS[p["tier_runs"]]["group"]:
        G = group(name)
        r = group_run(name, m, steps)
        if st["at"] == "init":
            r = train_quadratic_margin(G.mul, m, steps=0, lr=0.05, weight_decay=1e-7, seed=SEED)
        live = _live(r.U, r.V, r.W)
        pw = [np.array([irrep_power(G, x) for x in M[live]]) for M in (r.U, r.V, r.W)]
        conc = float(min(P[:, 1:].max(axis=1).min() for P in pw))
        dom = {int(j) for j in pw[2][:, 1:].argmax(axis=1) + 1}
        ev.add({"task": name, "live neurons": int(live.sum()), "min max-irrep-power": conc,
                "irreps used": sorted(G.labels[j] for j in dom)}, conc >= st["power"] and dom == set(range(1, len(G.irreps))))
    if heat is not None:
        q, H = heat
        ev.plots.append({"kind": "heatmap", "title": f"Per-neuron Fourier power of w after training (Z_{q})",
                         "z": H.tolist(), "x": [str(j) for j in range(1, q // 2 + 1)],
                         "y": [str(i) for i in range(len(H))], "zlabel": "normalized power",
                         "xlabel": "frequency", "ylabel": "neuron (sorted by frequency)", "series": []})
    return ev.verdict(seed=SEED)


@claim(
    id="thesis_ch7.regularized_exact_cyclic", source=SOURCE, label="Theorem 7.1 (derived X3)", entry="X3", derived=True,
    title="Z_p (odd p): L_lam >= log(1 + (p-1) e^{-gamma* C}) + lam C; GD reaches it and gamma* to 1e-9",
    lines=[(1416, 1420), (5071, 5110)],
    printed={"count": lambda q: q - 1, "scale": 1.0},
    parts=[Part("bound", "mean CE >= log(1 + (p-1) exp(-gamma* C)) for every theta", inequality=True),
           Part("attained", "GD reaches the bound (relative gap <= 1e-8) and gamma/gamma* >= 1 - 1e-9")],
    mutants=[Mutant("count-p", "the Jensen bound with p instead of p - 1 wrong labels", {"count": lambda q: q, "scale": 1.0}),
             Mutant("bound-x(1+1e-6)", "mean CE >= (1 + 1e-6) log(1 + (p-1) exp(-gamma* C)) (sharpness 1 - O(1e-9) "
                    "at the trained Z_5, Z_7 runs, which reject it)", {"count": lambda q: q - 1, "scale": 1 + 1e-6},
                    near_boundary=True, part="bound", origin="second-reader")],
    expect=Status.CONFIRMED, rigor=Rigor.FLOAT,
    params=[Param("tier_runs", str, choices=("quick", "full", "gpu")), Param("random_nets", int, 1, 500)],
    tiers={"quick": {"tier_runs": "quick", "random_nets": 20}, "full": {"tier_runs": "full", "random_nets": 100},
           "gpu": {"tier_runs": "full"}},
)
def check_regularized_exact(st, p, ctx) -> Verdict:
    """Derived X3: for odd p every regularized minimizer is exactly max-margin.

    Statement
    ---------
    For the cyclic task (odd p) and any theta with C = sum ||omega_i||^3:
    mean CE(theta) >= log(1 + (p - 1) exp(-gamma* C)) (Jensen twice, with the uniform-tau class-weighted
    margin E g' <= gamma* C), with equality for the (uniform-tau) max-margin networks; hence minimizers
    of L_lam are max-margin for every lam > 0, and GD gets gamma_lam / gamma* to within 1e-9 (not in
    the thesis; the Z_11 spec run reached 1 - 5e-12).

    Source
    ------
    Derived from Theorem 7.1 (lines 1416-1420) and the construction of App. D.6.2 (lines 5071-5110).

    Checkable form
    --------------
    (a) Random Gaussian networks on Z_p and the trained runs: mean CE >= log(1 + count * exp(-gamma* C))
    (relative slack >= -1e-12); (b) trained runs: gap L_lam - bound <= 1e-8 relative, and final
    gamma/gamma* >= 1 - 1e-9.

    Exactness
    ---------
    Float64 (the bound is evaluated with log1p; CE values are O(1e-3) at the end, so 1e-12 relative is
    above rounding).

    Mutants
    -------
    count = p (one label too many): the bound exceeds the trained networks' loss.  Second reader,
    near-boundary: the bound x (1 + 1e-6): the trained runs sit within 1e-8 of the bound, so it fails
    there; rejected.

    Notes
    -----
    Second reader: both parts asserted (confirmed; derived, not in the thesis).  Sharpness of "bound"
    (a lower bound: bound / CE): the trained networks (the extremal case: max-margin networks attain
    equality) give ~1 - 1e-9; random Gaussian nets are far (recorded too).
    """
    ev = Evidence("true", rigor=Rigor.FLOAT)
    rng = ctx.rng("random")

    def ce(U, V, W, mul):
        F = K.quadratic_logits(U, V, W)
        q = mul.shape[0]
        a, b = np.meshgrid(np.arange(q), np.arange(q), indexing="ij")
        Fm = F.max(axis=2, keepdims=True)
        lse = np.log(np.exp(F - Fm).sum(axis=2)) + Fm[..., 0]
        return float(np.mean(lse - F[a, b, mul]))

    for q, m, steps in RUNS[p["tier_runs"]]["cyclic"]:
        mul = K.cyclic_table(q)
        gam = K.cyclic_gamma(q)
        for i in range(p["random_nets"]):
            U, V, W = rng.standard_normal((3, int(rng.integers(1, 9)), q)) * rng.uniform(0.1, 2)
            C = float(K.neuron_costs(U, V, W).sum())
            bound = st["scale"] * math.log1p(st["count"](q) * math.exp(-gam * C))
            loss = ce(U, V, W, mul)
            ev.sharpness({"p": q, "random net": i}, bound / loss, part="bound")
            if loss < bound * (1 - 1e-12):
                ev.add({"p": q, "random net": i, "CE": loss, "bound": bound}, False)
                break
        else:
            ev.add({"p": q, "random nets": p["random_nets"], "part": "CE >= bound"}, True)
        r = cyclic_run(q, m, steps)
        C = float(K.neuron_costs(r.U, r.V, r.W).sum())
        loss = ce(r.U, r.V, r.W, mul)
        bound = st["scale"] * math.log1p(st["count"](q) * math.exp(-gam * C))
        ratio = float(r.normalized_margin[-1] / gam)
        ev.sharpness({"p": q, "trained": True}, bound / loss, part="bound")
        ev.add({"p": q, "trained CE": loss, "bound": bound, "relative gap": (loss - bound) / bound, "gamma/gamma*": ratio},
               loss >= bound * (1 - 1e-12) and (loss - bound) <= 1e-8 * bound and ratio >= 1 - 1e-9)
    return ev.verdict(seed=SEED)
