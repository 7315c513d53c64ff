"""Figure B.9 of thesis ch. 5 / App. B.3.3 (seed 004): weight trajectories w_t and the hidden progress measure
rho = ||W_t - W_0||_inf for single sinusoidal neurons at several batch sizes and a width-10 ReLU MLP, against a
noise run from the same initialisation (labels independent of x).

Trainer: kernels.training.train_two_layer (snapshots of the parameters every ``se`` steps); the sine neuron's
loss is exact (sgd_progress.sine_population_loss), the MLP's is measured on 2048 held-out samples.  Runs are
cached per configuration (``functools.lru_cache``), so the printed statement and the mutants read the same runs.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import numpy as np

from kernels.activations import Activation
from kernels.training import train_two_layer

from ..plotdata import thin_curve
from ..registry import Evidence, InvalidParameter, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE
from .figures_b_curves import _seeds

CONTRACT_AUDITED = True

# ---------------------------------------------------------------------------------------------
# Figure B.9: weight trajectories and rho for sine neurons at several B and a width-10 MLP
# ---------------------------------------------------------------------------------------------

B9_ID = "thesis_ch5.figure_B.9"
#: "progress visible in the loss": the loss has moved by more than this fraction of its initial value
VISIBLE = 0.05
#: rho_parity / rho_noise must exceed this (catalog E32)
RHO_RATIO = 1.5
#: held-out samples of the MLP loss (the figures' curves use 8192, line 4020)
N_LOSS_MLP = 2048


@dataclass(frozen=True, eq=False)
class ProgressRuns:
    """Parity and noise runs of one configuration (snapshots every ``se`` steps up to t_c per converged seed)."""

    arch: str
    batch: int
    lr: float
    se: int
    t_c: np.ndarray  # (R,) -1 = not converged within the cap
    t_vis: np.ndarray  # (R,) first snapshot step with |L - L0| > VISIBLE L0 (-1: none or not converged)
    t_sep: np.ndarray  # (R,) first snapshot step with every relevant coordinate ahead of every irrelevant one (-1: none)
    ratio_vis: np.ndarray  # (R,) rho_parity / rho_noise at t_vis (NaN if undefined)
    first: dict  # the plotted run: steps, weights (D, n) (sine) or movement per coordinate, rho, rho_noise, loss,
    # windowed batch loss


def _movement(snaps: np.ndarray, n: int, width: int) -> np.ndarray:
    """|W_t - W_0| per input coordinate: (D, n), the max over neurons (sine: width 1, the weight itself)."""
    W = snaps[:, : n * width].reshape(snaps.shape[0], n, width).astype(np.float64)
    return np.max(np.abs(W - W[:1]), axis=2)


def _mlp_loss(snaps: np.ndarray, n: int, width: int, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Held-out hinge loss of each snapshot of a ReLU MLP (float64)."""
    th = snaps.astype(np.float64)
    W = th[:, : n * width].reshape(-1, n, width)
    b = th[:, n * width : n * width + width]
    u = th[:, n * width + width : n * width + 2 * width]
    c = th[:, -1]
    H = np.maximum(np.einsum("mi,dij->dmj", X, W) + b[:, None, :], 0.0)
    f = np.einsum("dmj,dj->dm", H, u) + c[:, None]
    return np.mean(np.maximum(0.0, 1.0 - y[None, :] * f), axis=1)


@functools.lru_cache(maxsize=16)
def _progress_runs(arch: str, n: int, k: int, width: int, batch: int, lr: float, root: int, runs: int, cap: int,
                   se: int, window: int, backend: str) -> ProgressRuns:
    """Parity runs stopped at t_c (100% on 128 held-out samples, checked every 5 snapshot strides) and, from the
    same init and inputs, noise runs (labels independent of x) up to the same step; quantities of Fig. B.9."""
    from .sgd_progress import sine_population_loss

    sine = arch == "sine"
    act = Activation.parity_sine(k) if sine else "relu"
    kw = {"width": width, "activation": act, "batch": batch, "lr": lr, "loss": "hinge", "second_layer": not sine,
          "bias": True, "dtype": "float32", "backend": backend}
    seeds = _seeds(root, runs)
    res = train_two_layer(n, k, seeds=seeds, steps=cap, eval_every=5 * se, n_eval=128, stop_on_convergence=True,
                          snapshot_every=se, **kw)
    t_c = res.converged_at.copy()
    conv = np.flatnonzero(t_c >= 0)
    # the noise run of a converged seed r is read up to t_c[r] only (a run depends on its seed alone): one engine
    # call per value of t_c, over the converged seeds only
    noise_snaps: dict = {}
    for tc_val in np.unique(t_c[conv]):
        grp = conv[t_c[conv] == tc_val]
        res_n = train_two_layer(n, k, seeds=seeds[grp], steps=int(tc_val), eval_every=0, label_noise=0.5,
                                snapshot_every=se, **kw)
        for j, r in enumerate(grp):
            noise_snaps[int(r)] = res_n.snapshots[j]
    X = y = None
    if not sine:
        g = np.random.default_rng(np.random.SeedSequence([root, 9]))
        X = g.choice(np.array([-1.0, 1.0]), size=(N_LOSS_MLP, n))
        y = np.prod(X[:, :k], axis=1)
    t_vis = np.full(runs, -1, dtype=np.int64)
    t_sep = np.full(runs, -1, dtype=np.int64)
    ratio = np.full(runs, np.nan)
    first: dict = {}
    for r in conv:
        D = int(t_c[r]) // se + 1
        snaps = res.snapshots[r, :D]
        if sine:
            L = sine_population_loss(snaps[:, :n].astype(np.float64), snaps[:, n].astype(np.float64), k, act)
        else:
            L = _mlp_loss(snaps, n, width, X, y)
        mv = _movement(snaps, n, width)
        mv_noise = _movement(noise_snaps[int(r)][:D], n, width)
        moved = np.flatnonzero(np.abs(L - L[0]) > VISIBLE * abs(L[0]))
        iv = int(moved[0]) if moved.size else D - 1
        t_vis[r] = iv * se
        sep = np.flatnonzero(mv[:, :k].min(axis=1) > mv[:, k:].max(axis=1))
        sep = sep[sep > 0]
        if sep.size:
            t_sep[r] = sep[0] * se
        rho_n = float(mv_noise[iv].max())
        ratio[r] = float(mv[iv].max()) / rho_n if rho_n > 0 else math.nan
        if not first:
            steps = np.arange(D) * se
            first = {"seed": int(r), "steps": steps, "loss": L, "movement": mv, "rho": mv.max(axis=1),
                     "rho_noise": mv_noise.max(axis=1), "weights": snaps[:, :n].astype(np.float64) if sine else None,
                     "t_c": int(t_c[r])}
    if first:  # the windowed batch loss of the plotted run (the caption's windows 16 and 4 at B = 1 and 4)
        # only the batch loss is read: one held-out sample keeps the per-step evaluation of the records cheap (the
        # evaluation changes no state of the run, so the loss is the same)
        one = train_two_layer(n, k, seeds=seeds[first["seed"] : first["seed"] + 1], steps=first["t_c"], eval_every=0,
                              record_every=1, n_eval=1, **kw)
        bl = one.loss[0, 1:]
        w = max(1, window)
        first["batch_loss"] = (np.arange(w, bl.shape[0] + 1), np.convolve(bl, np.ones(w) / w, mode="valid"))
    return ProgressRuns(arch, batch, lr, se, t_c, t_vis, t_sep, ratio, first)


@dataclass(frozen=True)
class B9Statement:
    """Fig. B.9 read as, in every configuration: (i) at least ``conv_min`` of the runs converge within the cap;
    (ii) among them, in at least ``lead_min`` the relevant coordinates move more than every irrelevant one no
    later than the loss becomes visibly different (|L - L0| > 5% of L0); (iii) in at least ``rho_min`` of them
    rho_parity / rho_noise >= 1.5 at that time.  ``lead_max`` / ``rho_max``: a mutant's upper bounds on those
    fractions in every configuration (no hidden progress)."""

    text: str
    conv_min: float = 0.75
    lead_min: float | None = 0.75
    rho_min: float | None = 0.75
    lead_max: float | None = None
    rho_max: float | None = None


_B9_PRINTED = B9Statement("Fig. B.9: in sine neurons at B in {1, 4, 32} and a width-10 MLP the relevant weights overtake "
                          "the irrelevant ones before the loss moves, and rho is clearly above training on noise then")


def _configs(text: str) -> list[tuple[str, int, int, float]]:
    """'sine:B:eta' and 'mlp:width:B:eta' items -> (arch, width, B, eta)."""
    out = []
    for item in str(text).split(","):
        f = item.strip().split(":")
        try:
            if f[0] == "sine" and len(f) == 3:
                out.append(("sine", 1, int(f[1]), float(f[2])))
            elif f[0] == "mlp" and len(f) == 4:
                out.append(("mlp", int(f[1]), int(f[2]), float(f[3])))
            else:
                raise ValueError
        except ValueError:
            raise InvalidParameter(f"{B9_ID}: argument 'configs' items must be 'sine:B:eta' or 'mlp:width:B:eta', not "
                                   f"{item!r}") from None
        if not (1 <= out[-1][1] <= 1000 and 1 <= out[-1][2] <= 4096 and 0 < out[-1][3] <= 1):
            raise InvalidParameter(f"{B9_ID}: argument 'configs' item {item!r} out of range (width <= 1000, B <= 4096, "
                                   f"0 < eta <= 1)")
    if not out:
        raise InvalidParameter(f"{B9_ID}: argument 'configs' must list at least one configuration")
    return out


@claim(
    id=B9_ID,
    figure="Figure B.9",
    source=SOURCE,
    label="Figure B.9",
    entry="E32",
    title="Weight trajectories: relevant weights lead before the loss moves and rho beats training on noise (sine "
          "neuron B = 32: reproduced; B = 1, 4 and the width-10 MLP: rho not 1.5x the noise run's in 3/4 of runs)",
    lines=[(3758, 3773)],
    printed=_B9_PRINTED,
    parts=[
        Part("converge", "the plotted runs learn the parity: criterion (i)"),
        Part("lead", "'progress only becomes visible in the loss once the relevant weights become larger than all of "
             "the irrelevant weights' (line 3760): criterion (ii)", inequality=True),
        Part("rho", "rho is 'clearly distinguishable from the maximum of n unbiased random walks, even when SGD appears "
             "to make no progress in terms of loss and accuracy' (line 3773): criterion (iii)", inequality=True),
        Part("paper_sizes", "the figure's (n, k), learning rates and batch sizes other than 1 and 4", asserted=False,
             reason="not printed; the re-run uses (30, 3), eta = 0.002 for the sine neurons and 0.1 for the MLP "
                    "(B.2 row 1's width-10 ReLU rate), B in {1, 4, 32}"),
    ],
    mutants=[
        Mutant("no-lead", "the relevant weights lead before the loss moves in at most half the runs of every "
               "configuration", replace(_B9_PRINTED, text="lead in <= 1/2", lead_min=None, rho_min=None, lead_max=0.5)),
        Mutant("rho-like-noise", "rho_parity / rho_noise >= 1.5 when the loss moves in at most half the runs of every "
               "configuration", replace(_B9_PRINTED, text="rho ratio in <= 1/2", lead_min=None, rho_min=None,
                                        rho_max=0.5)),
        Mutant("lead-near-boundary", "the relevant weights lead before the loss moves in at most 95% of the runs of "
               "every configuration (measured: 16/16 at B = 32 full, 4/4 quick: barely excluded)",
               replace(_B9_PRINTED, text="lead in <= 0.95", lead_min=None, rho_min=None, lead_max=0.95),
               near_boundary=True, part="lead"),
        Mutant("rho-near-boundary", "rho_parity / rho_noise >= 1.5 when the loss moves in at most 95% of the runs of "
               "every configuration (measured: 16/16 at B = 32 full, 4/4 quick)",
               replace(_B9_PRINTED, text="rho ratio in <= 0.95", lead_min=None, rho_min=None, rho_max=0.95),
               near_boundary=True, part="rho"),
    ],
    expect=Status.NOT_REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[
        Param("n", int, 6, 64, doc="input dimension (k = 3)"),
        Param("configs", str, doc="comma-separated 'sine:B:eta' / 'mlp:width:B:eta' configurations"),
        Param("runs", int, 2, 10_000, doc="seeds per configuration"),
        Param("cap", int, 100, 10_000_000, doc="steps cap per run"),
        Param("se", int, 1, 10_000, doc="snapshot stride (steps)"),
    ],
    tiers={"quick": {"n": 20, "configs": "sine:1:0.002,sine:32:0.002,mlp:10:32:0.1", "runs": 4, "cap": 20_000, "se": 20},
           "full": {"n": 30, "configs": "sine:1:0.002,sine:4:0.002,sine:32:0.002,mlp:10:32:0.1", "runs": 16,
                    "cap": 40_000, "se": 10},
           "gpu": {"n": 50, "configs": "sine:1:0.002,sine:4:0.002,sine:32:0.002,sine:128:0.002,mlp:10:32:0.1",
                   "runs": 128, "cap": 50_000, "se": 20}},
    uses_backend=True,
)
def check_figure_b9(st: B9Statement, p, ctx) -> Verdict:
    """Figure B.9: weight trajectories w_t and the hidden progress measure rho for sine neurons and an MLP.

    Statement
    ---------
    "Figure B.9 supplements these plots from the main paper with additional plots of weight trajectories, at
    different batch sizes B, as well as a width-10 MLP architecture.  As seen in these plots, progress only
    becomes visible in the loss once the relevant weights become larger than all of the irrelevant weights."
    (line 3760); rho(w_{0:t}) := ||w_t - w_0||_inf; "we only note that they are clearly distinguishable from the
    maximum of n unbiased random walks, even when SGD appears to make no progress in terms of loss and
    accuracy" (line 3773).  Caption: "In the MLP plots, the single scalar rho is the inf-norm of the entire
    first layer W ... With small batch sizes B in {1, 4}, per-iteration losses are averaged over a short window
    (lengths 16 and 4, respectively)."

    Source
    ------
    Seed 004, App. B.3.3, Figure B.9 and its discussion, lines 3758-3773 (caption line 3767).  Catalog entry E32.

    Checkable form
    --------------
    Configurations (``configs``): a single sinusoidal neuron sin(pi/2 (w.x + b) + beta) (bias, no second layer,
    beta = pi/2 - 3 pi/2, line 3919) at batch B and rate eta, and a width-10 ReLU MLP; hinge loss, torch's
    uniform init, online SGD on the (n, 3)-parity, float32, ``runs`` seeds each.  A parity run stops at t_c
    (100% accuracy on 128 held-out samples, checked every 5 snapshot strides; cap ``cap``); its noise twin
    starts from the same init and sees the same inputs with labels independent of x (label noise 1/2).
    Snapshots every ``se`` steps.  Loss L_t: the exact population hinge loss for the sine neuron
    (sgd_progress.sine_population_loss), the hinge loss on 2048 held-out samples for the MLP.  Movement per
    coordinate m_i(t) = max over neurons of |W_t - W_0|_{ij} (the sine neuron: |w_t - w_0|_i); rho = max_i m_i
    (the inf-norm of the first layer's movement).  t_vis = first snapshot with |L_t - L_0| > 0.05 L_0 (the
    loss visibly moved); t_sep = first snapshot with min_{i in S} m_i > max_{i not in S} m_i.  Pre-registered
    criteria (fixed before the first run), in every configuration: (i) >= 3/4 of the runs converge within the
    cap; among those, (ii) t_sep <= t_vis in >= 3/4 of them; (iii) rho_parity / rho_noise at t_vis >= 1.5 in
    >= 3/4 of them.  Plots per configuration (the figure's panels): the loss (windowed batch loss, windows 16
    and 4 at B = 1 and 4, and the exact / held-out loss), the coordinates' movement (relevant coloured) and rho
    (red) with the noise run's rho, for the first converged seed.

    Exactness
    ---------
    Statistical, seeded (bit-for-bit reproducible).  Fractions of 16 runs per configuration at the full tier
    (a binomial standard error of ~0.1 near 3/4).  The exact population loss has no sampling error; the MLP's
    2048-sample loss has a standard error ~ 0.01 L_0, below the 5% band.

    Mutants
    -------
    no-lead and rho-like-noise: the fractions are at most 1/2 in every configuration (no hidden progress).
    lead-near-boundary and rho-near-boundary: at most 95% in every configuration; rejected by B = 32's 16/16.

    Result (full tier, recorded after the criteria were fixed): not reproduced at small batches.  Every run
    of every configuration converges ((i) holds).  Sine neuron, B = 32: the relevant weights lead before the
    loss moves in 16/16 runs and rho_par / rho_noise at t_vis is 2.3-7.5 (16/16 >= 1.5): reproduced there.
    B = 4: lead 12/16 (= 3/4, holds), rho ratio >= 1.5 in 11/16 (fails).  B = 1: lead 6/16, rho ratio 3/16
    (median ~1.1): at the same rate the per-step noise of the irrelevant weights is sqrt(32) times larger and
    the relevant weights overtake them only about when the loss moves (t_sep ~ t_vis).  MLP (width 10, B =
    32, eta = 0.1): lead 13/16 (holds), rho ratio >= 1.5 in 9/16 (fails; ratios 1.2-2.8): the loss moves at
    ~t_c/2, early, while rho is still near the noise run's.  So the figure's point holds at B = 32 and not at
    B in {1, 4} at eta = 0.002 (the figure's own rates are not printed; a smaller rate at small B might show
    it, which was not tried).  Quick tier: B = 1 lead 0/4, rho 1/4; B = 32 and the MLP 4/4.  17 s wall.

    Notes
    -----
    Tiers: quick (n = 20, sine B in {1, 32}, the MLP, 4 runs) is a smoke test; full (30, 3), sine B in {1, 4,
    32} and the MLP, 16 runs; gpu (50, 3), B up to 128, 128 runs.  The figure's rates and (n, k) are not
    printed: eta = 0.002 for the neurons is the rate at which thesis_ch5.hidden_progress.rho finds a plateau
    long enough to see the lead (at 0.05 it does not), fixed before this claim's runs.
    """
    configs = _configs(p["configs"])
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    n, k = p["n"], 3
    stats = {}
    for arch, width, B, lr in configs:
        window = 16 if B == 1 else 4 if B == 4 else 1
        pr = _progress_runs(arch, n, k, width, B, lr, ctx.seed(f"b9/{arch}/r={width}/n={n}"), p["runs"], p["cap"],
                            p["se"], window, ctx.backend)
        conv = np.flatnonzero(pr.t_c >= 0)
        lead = int(np.sum((pr.t_sep[conv] >= 0) & (pr.t_sep[conv] <= pr.t_vis[conv])))
        rho = int(np.sum(pr.ratio_vis[conv] >= RHO_RATIO))
        m = max(conv.size, 1)
        case = {"config": f"{arch} r={width} B={B} eta={lr:g}", "converged": f"{conv.size}/{p['runs']}",
                "lead": f"{lead}/{conv.size}", "rho >= 1.5": f"{rho}/{conv.size}"}
        stats[arch, width, B, lr] = (pr, conv.size / p["runs"], lead / m, rho / m)
        if st.lead_min is not None or st.rho_min is not None:
            ev.add(dict(case, part=f"(i) converged >= {st.conv_min}"), conv.size / p["runs"] >= st.conv_min,
                   relation="true", part="converge")
        if st.lead_min is not None:
            ev.add(dict(case, part=f"(ii) fraction t_sep <= t_vis >= {st.lead_min}"), lead / m, st.lead_min, part="lead")
        if st.rho_min is not None:
            ev.add(dict(case, part=f"(iii) fraction rho ratio >= 1.5 >= {st.rho_min}"), rho / m, st.rho_min, part="rho")
    if st.lead_max is not None:
        worst = max(v[2] for v in stats.values())
        ev.add({"part": f"lead fraction <= {st.lead_max} in every configuration", "max fraction": worst}, worst,
               st.lead_max, relation="le")
    if st.rho_max is not None:
        worst = max(v[3] for v in stats.values())
        ev.add({"part": f"rho fraction <= {st.rho_max} in every configuration", "max fraction": worst}, worst,
               st.rho_max, relation="le")
    if ctx.statement_tag == "printed":
        table = {}
        for (arch, width, B, lr), (pr, fc, fl, fr) in stats.items():
            conv = pr.t_c >= 0
            with np.errstate(invalid="ignore"):
                table[f"{arch} r={width} B={B} eta={lr:g}"] = {
                    "converged fraction": fc, "lead fraction": fl, "rho fraction": fr,
                    "median t_c": float(np.median(pr.t_c[conv])) if conv.any() else None,
                    "median t_vis / t_c": float(np.median(pr.t_vis[conv] / pr.t_c[conv])) if conv.any() else None,
                    "t_sep per run (-1: never)": pr.t_sep.tolist(), "t_vis per run": pr.t_vis.tolist(),
                    "rho_par / rho_noise at t_vis per run": [round(float(x), 3) for x in pr.ratio_vis]}
            if pr.first:
                ev.plots.extend(_b9_plots(pr, arch, width, B, lr, n, k))
        ev.details["per configuration"] = table
        ev.details["paper"] = "image only: windows 16 (B = 1) and 4 (B = 4) printed; no times or rates"
    return ev.verdict(backend=ctx.backend, seed=ctx.seed(f"b9/sine/r=1/n={n}"), note=f"statement: {st.text}")


def _b9_plots(pr: ProgressRuns, arch: str, width: int, B: int, lr: float, n: int, k: int) -> list[dict]:
    f = pr.first
    name = f"{'sine neuron' if arch == 'sine' else f'width-{width} ReLU MLP'}, B = {B}, eta = {lr:g}, ({n}, {k})"
    xs, bl = f["batch_loss"]
    loss = {"title": f"Fig. B.9 re-run: loss, {name}", "xlabel": "SGD step t", "ylabel": "hinge loss",
            "series": [dict(thin_curve(xs, bl), label=f"batch loss (window {16 if B == 1 else 4 if B == 4 else 1})",
                            style="-"),
                       dict(thin_curve(f["steps"], f["loss"]),
                            label="population loss (exact)" if arch == "sine" else "held-out loss (2048 samples)", style="k-")]}
    traj = f["weights"] if arch == "sine" else f["movement"]
    series = [dict(thin_curve(f["steps"], traj[:, i]),
                   label=("relevant w_i (i in S)" if arch == "sine" else "relevant max_j |dW_ij|") if i == 0 else
                   ("irrelevant" if i == k else None), style="b-" if i < k else "c-") for i in range(n)]
    series += [dict(thin_curve(f["steps"], f["rho"]), label="rho = ||W_t - W_0||_inf", style="r-"),
               dict(thin_curve(f["steps"], f["rho_noise"]), label="rho of the noise run", style="r--")]
    wts = {"title": f"Fig. B.9 re-run: weights and rho, {name}", "xlabel": "SGD step t",
           "ylabel": "w_t" if arch == "sine" else "movement |W_t - W_0| per coordinate", "series": series}
    return [loss, wts]
