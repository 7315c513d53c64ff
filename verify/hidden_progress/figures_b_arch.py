"""Figure re-runs of thesis App. B.3 (seed 004): convergence times per architecture (Figs. B.3, B.4) and the
coarse scaling fits (Fig. B.5) over the architecture settings (i)-(xv) of Section 5.3.1 (catalog E30).

Every run is a real online-SGD run of the batched engine ``kernels.training.train_two_layer`` (hinge loss,
constant-rate SGD, torch.nn.Linear's default uniform initialisation, a fresh batch of B uniform x in
{+-1}^n every step, S = {1, ..., k}, float32 arithmetic as torch's default).  The settings the engine trains
(Section 5.3.1, line 943-947; activations of App. B.4.1, lines 3898-3919):

* (i), (ii), (iii): ReLU MLPs of width 10, 100, 1000; (iv), (v), (vi): the same with sigma(z) = z^k;
* (*i), (*ii): the minimal width r = k with ReLU, resp. z^k;
* (vii) k-zigzag, (viii) oscillating polynomial (the degree-k interpolant of the zigzag's points), (ix)
  infinite zigzag (triangle wave tri((z - k)/2), the sign convention sigma(w_S . x) = chi_S(x)), (x)
  sinusoid sin(pi/2 z + beta) with the same convention, each a single neuron with a trainable second
  layer u, c; (xi)-(xiv): the same four with no second layer (u = 1, c = 0);
* (xv): the PolyNet f = prod_{j <= k} (<w_j, x> + b_j) (``train_polynet``, biases trained).

The Parity Transformer (*iii) is not trained (no engine in this package trains it with Adam on parities;
kernels.training.attention / induction train other tasks): every claim lists it as missing.

Learning rate.  Each cell (setting, n, k, B) takes the learning rate with the smallest 10th-percentile
convergence time among the tier's rates (the paper: {1, 0.1, 0.01, 0.001}).  The 10th percentile is the
inverted-CDF quantile, the ceil(R/10)-th smallest t_c (the 3rd of 25; a censored run counts as +inf), so it
is exact under censoring: a rate whose quantile exceeds a cap c is never the best where another rate's
quantile is <= c.  The search is therefore run with a ladder of caps (every rate at cap ``screen``, x10
until some rate's quantile is within the cap, at most the full cap), and only the best rate is then run
to the full cap, for the fraction of converged runs (Fig. B.4).  Run r of a cell has the same seed at
every cap and every rate, and a run stopped at a smaller cap is the prefix of the same run at a larger
one (so a larger cap trains only the runs that the smaller cap stopped, and continues them from where
they stopped: ``_raise_cap``), so every 10th percentile equals the exhaustive search's bit for bit.  Ties of the 10th percentile
(frequent at the evaluation stride's resolution) go to the rate with more runs converged within the
deciding cap, then to the larger rate: that tie-break, and the other rates' converged fractions (lower
bounds within the deciding cap where they are not run to the full cap, see ``EXACT_BELOW``), depend on
``screen``.

Caching: the cells are a module-level ``functools.lru_cache`` function of hashable arguments, shared by
the printed statement and the mutants; on a cluster each cell is a task of its own (``Context.map``).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from kernels.activations import Activation
from kernels.backend import resolve_backend
from kernels.training import train_two_layer
from kernels.training.two_layer import train_polynet

from ..registry import Context, Evidence, InvalidParameter, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE
from .constructions import interpolating_polynomial, zigzag_knots
from .figures_b import _floats, _seeds

CONTRACT_AUDITED = True

#: the settings of Section 5.3.1 that the two-layer engine trains, in the thesis' order
SETTINGS = ("i", "ii", "iii", "iv", "v", "vi", "*i", "*ii", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv")
#: the "less robust" minimal-width settings (line 953: the positive results need B >= 16); (*iii) is not trained
STARRED = ("*i", "*ii")
#: the batch size from which the starred settings are claimed robust (line 953)
STARRED_MIN_BATCH = 16
#: settings of Section 5.3.1 that no trainer of this package runs
MISSING = {"*iii": "the Parity Transformer (Adam, d_emb = 1024, H = 128; App. B.4.1): no engine of kernels.training "
                   "trains it on parities"}
#: paper's protocol constants (lines 951, 4024)
PAPER_TRIALS, PAPER_CAP, PAPER_LRS = 25, 100_000, (1.0, 0.1, 0.01, 0.001)


def describe(setting: str) -> str:
    return {"i": "ReLU r=10", "ii": "ReLU r=100", "iii": "ReLU r=1000", "iv": "z^k r=10", "v": "z^k r=100",
            "vi": "z^k r=1000", "*i": "ReLU r=k", "*ii": "z^k r=k", "vii": "k-zigzag", "viii": "osc. poly",
            "ix": "inf-zigzag", "x": "sinusoid", "xi": "k-zigzag, u=1", "xii": "osc. poly, u=1",
            "xiii": "inf-zigzag, u=1", "xiv": "sinusoid, u=1", "xv": "PolyNet"}[setting]


def _oscillating(k: int) -> Activation:
    """The degree-k polynomial through (k - 2m, (-1)^m), m = 0..k (line 3911), exact coefficients rounded once."""
    return Activation.poly([float(Fraction(c)) for c in interpolating_polynomial(zigzag_knots(k))])


def architecture(setting: str, k: int) -> dict:
    """Keyword arguments of ``train_two_layer`` for a setting at degree k (``{"polynet": True}`` for (xv))."""
    zk = Activation.power(k)
    single = {"vii": Activation.zigzag(k), "viii": _oscillating(k), "ix": Activation.parity_triangle(k),
              "x": Activation.parity_sine(k)}
    table = {"i": dict(width=10, activation="relu"), "ii": dict(width=100, activation="relu"),
             "iii": dict(width=1000, activation="relu"), "iv": dict(width=10, activation=zk),
             "v": dict(width=100, activation=zk), "vi": dict(width=1000, activation=zk),
             "*i": dict(width=k, activation="relu"), "*ii": dict(width=k, activation=zk)}
    for a, b in (("vii", "xi"), ("viii", "xii"), ("ix", "xiii"), ("x", "xiv")):
        table[a] = dict(width=1, activation=single[a])
        table[b] = dict(width=1, activation=single[a], second_layer=False)
    table["xv"] = {"polynet": True}
    return table[setting]


def q10(tc: np.ndarray) -> float:
    """Inverted-CDF 10th percentile: the ceil(R/10)-th smallest value (+inf counts as censored)."""
    s = np.sort(np.asarray(tc, dtype=np.float64))
    return float(s[max(1, math.ceil(0.1 * s.size)) - 1])


def _train(n: int, k: int, setting: str, batch: int, lr: float, seeds: np.ndarray, steps: int, eval_every: int,
           n_eval: int, backend: str, resume: tuple | None = None):
    """The runs of one (setting, rate) to cap ``steps`` (a TwoLayerResult); ``resume = (theta, start)`` continues
    runs stopped after ``start`` steps with parameters theta (train_two_layer's start_step)."""
    kw = dict(seeds=seeds, steps=steps, batch=batch, lr=lr, loss="hinge", init="uniform", eval_every=eval_every,
              n_eval=n_eval, target_accuracy=1.0, stop_on_convergence=True, dtype="float32", backend=backend)
    if resume is not None:
        kw.update(theta0=resume[0], start_step=resume[1])
    arch = architecture(setting, k)
    return train_polynet(n, k, bias=True, **kw) if arch.get("polynet") else train_two_layer(n, k, **arch, **kw)


@dataclass(frozen=True)
class _Rung:
    """The runs of one (cell, rate) at a cap: t_c (+inf: not converged), the parameters where each run stopped,
    and which runs the cap stopped (neither converged nor diverged: the ones a larger cap continues)."""

    cap: int
    tc: np.ndarray
    theta: np.ndarray
    open: np.ndarray

    @staticmethod
    def of(cap: int, res) -> _Rung:
        tc = np.where(res.converged_at >= 0, res.converged_at, np.inf).astype(np.float64)
        return _Rung(cap, tc, res.theta, (res.converged_at < 0) & (res.diverged_at < 0))


def _raise_cap(prev: _Rung | None, n: int, k: int, setting: str, batch: int, lr: float, seeds: np.ndarray,
               steps: int, eval_every: int, n_eval: int, backend: str) -> _Rung:
    """The runs at cap ``steps``, given ``prev``, the same runs at a smaller cap (None: none yet).  A run that
    converged or diverged keeps its outcome (a run stopped at a smaller cap is the prefix of the same run at a
    larger one); the runs the smaller cap stopped go on from where they stopped (CPU engine; other backends train
    them again from step 0), each run depending on its seed alone: the result is that of ``_train`` on every
    seed to cap ``steps``, bit for bit."""
    if prev is None:
        return _Rung.of(steps, _train(n, k, setting, batch, lr, seeds, steps, eval_every, n_eval, backend))
    tc, theta, open_ = prev.tc.copy(), prev.theta.copy(), prev.open.copy()
    if open_.any():
        resume = (prev.theta[open_], prev.cap) if resolve_backend(backend) == "cpu" else None
        more = _Rung.of(steps, _train(n, k, setting, batch, lr, seeds[open_], steps, eval_every, n_eval, backend,
                                      resume))
        tc[open_], theta[open_] = more.tc, more.theta
        open_[open_] = more.open
    return _Rung(steps, tc, theta, open_)


#: a cell whose any-rate converged fraction (lower bound from the rate search) is below this runs its rates to
#: larger caps (x10 per rung) until one rate converges in this fraction or all reach the full cap, so that the
#: any-rate fraction is exact wherever it is below EXACT_BELOW (and a lower bound >= EXACT_BELOW elsewhere)
EXACT_BELOW = 0.3


@dataclass(frozen=True)
class Cell:
    """One (setting, n, k, B) cell: its best rate and the any-rate converged fraction."""

    lr: float  # the best rate (smallest q10; ties: more runs converged within the deciding cap, then the larger rate)
    tc: np.ndarray  # (R,) t_c of every run at the best rate, full cap (+inf: not converged; censored at the deciding
    # cap instead when the cell was computed with full_best=False)
    q10_by_lr: tuple  # ((lr, q10, cap, converged fraction within that cap), ...) for every rate tried
    decided_at: int  # the cap at which the best rate was decided
    conv_any: float  # max over the rates of the converged fraction (exact below EXACT_BELOW, else a lower bound)

    @property
    def p10(self) -> float:
        return q10(self.tc)

    @property
    def converged(self) -> float:
        """Converged fraction at the best rate (what Fig. B.4 shows)."""
        return float(np.mean(np.isfinite(self.tc)))


def _cell(n: int, k: int, setting: str, batch: int, lrs: tuple, root: int, runs: int, cap: int, screen: int,
          eval_every: int, n_eval: int, backend: str, full_best: bool = True) -> Cell:
    """Best-rate search of one cell with the ladder of caps (module docstring); a function of its arguments.

    Line 951's "for at least one choice of learning rate" needs the largest converged fraction over the
    rates: the other rates' fractions within the deciding cap are lower bounds of theirs at the full cap,
    and where the bound is below EXACT_BELOW the rates run to larger caps until one reaches it or all reach
    the full cap (exact there).  ``full_best=False``
    skips the best rate's run to the full cap (its 10th percentile is exact at the deciding cap already; Fig.
    B.5 needs no best-rate fraction)."""
    seeds = _seeds(root, runs)

    def raise_cap(prev, lr, steps):
        return _raise_cap(prev, n, k, setting, batch, lr, seeds, steps, eval_every, n_eval, backend)

    c = min(screen, cap)
    rungs = {lr: raise_cap(None, lr, c) for lr in lrs}
    while True:
        within = [lr for lr in lrs if q10(rungs[lr].tc) <= c]
        if within or c >= cap:
            break
        c = min(10 * c, cap)
        rungs = {lr: raise_cap(rungs[lr], lr, c) for lr in lrs}
    tcs = {lr: rungs[lr].tc for lr in lrs}
    pool = within or list(lrs)
    best = min(pool, key=lambda lr: (q10(tcs[lr]), -int(np.isfinite(tcs[lr]).sum()), -lr))
    table = tuple((lr, q10(tcs[lr]), c, float(np.mean(np.isfinite(tcs[lr])))) for lr in lrs)
    if c >= cap:
        full = dict(tcs)
    elif full_best:
        full = {best: raise_cap(rungs[best], best, cap).tc}
    else:
        full = {}
    frac = {lr: float(np.mean(np.isfinite(full.get(lr, tcs[lr])))) for lr in lrs}
    c2 = c
    while max(frac.values()) < EXACT_BELOW and c2 < cap:  # raise the other rates' cap x10 per rung
        c2 = min(10 * c2, cap)
        for lr in lrs:
            if lr not in full:
                rungs[lr] = raise_cap(rungs[lr], lr, c2)
                frac[lr] = float(np.mean(np.isfinite(rungs[lr].tc)))
                if c2 >= cap:
                    full[lr] = rungs[lr].tc
    tc = full.get(best, tcs[best])
    tc.setflags(write=False)
    return Cell(best, tc, table, c, max(frac.values()))


@functools.lru_cache(maxsize=8)
def _grid(claim_id: str, tag: str, n_values: tuple, ks: tuple, settings: tuple, batches: tuple, lrs: tuple, runs: int,
          cap: int, screen: int, eval_every: int, n_eval: int, backend: str, full_best: bool = True) -> dict:
    """Every cell of a sweep; cell seeds from the claim's named streams (independent of the statement)."""
    ctx = Context(claim_id, backend=backend)
    keys = [(n, k, s, B) for n in n_values for k in ks for s in settings for B in batches]
    pieces = [(n, k, s, B, lrs, ctx.seed(f"{tag}/n={n}/k={k}/{s}/B={B}"), runs, cap, screen, eval_every, n_eval, backend,
               full_best) for n, k, s, B in keys]
    return dict(zip(keys, ctx.map(_cell, pieces)))


def _settings(claim_id: str, text: str) -> tuple:
    names = tuple(v.strip() for v in str(text).split(",") if v.strip())
    bad = [v for v in names if v not in SETTINGS]
    if not names or bad or len(set(names)) != len(names):
        raise InvalidParameter(f"{claim_id}: argument 'settings' must list distinct settings of {list(SETTINGS)}, "
                               f"not {text!r}")
    return tuple(s for s in SETTINGS if s in names)


def _ints(claim_id: str, name: str, text: str, lo: int, hi: int) -> tuple:
    vals = _floats(claim_id, name, text, lo, hi)
    if not all(float(v).is_integer() for v in vals):
        raise InvalidParameter(f"{claim_id}: argument '{name}' must list integers, not {text!r}")
    return tuple(int(v) for v in vals)


_COMMON_PARAMS = [
    Param("settings", str, doc="comma-separated settings of Section 5.3.1 trained (of i..xv, *i, *ii)"),
    Param("batches", str, doc="comma-separated batch sizes B"),
    Param("lrs", str, doc="comma-separated SGD rates; the best per cell is taken (the paper: 1, 0.1, 0.01, 0.001)"),
    Param("runs", int, 10, 1000, doc="random trials per cell (the paper: 25)"),
    Param("cap", int, 100, 10_000_000, doc="iteration cap: converged means t_c < cap (the paper: 10^5)"),
    Param("screen", int, 10, 10_000_000, doc="first cap of the rate search (x10 per rung up to cap)"),
    Param("eval_every", int, 1, 1000, doc="held-out evaluation stride (the paper: 10)"),
    Param("n_eval", int, 128, 65_536, doc="held-out samples for '100% accuracy'"),
]


def _heatmap(title: str, rows: list, cols: list, z, zlabel: str, **kw) -> dict:
    return {"kind": "heatmap", "title": title, "z": z, "x": cols, "y": rows, "zlabel": zlabel,
            "xlabel": "(k, B)" if kw.get("xlabel") is None else kw.pop("xlabel"), "ylabel": "setting (Section 5.3.1)",
            "annotate": True, **kw}


# ---------------------------------------------------------------------------------------------
# Figures B.3 and B.4: 10th-percentile t_c and the converged percentage per architecture, k and B (n = 30)
# ---------------------------------------------------------------------------------------------

B34_ID = "thesis_ch5.figure_B.3_B.4"


@dataclass(frozen=True)
class ArchStatement:
    """Figs. B.3 / B.4 read as (pre-registered; the text prints no t_c or percentage):
    (a) "with sufficiently large batch sizes, training is extremely robust in settings (i) through (xv)":
    at the largest B every non-starred setting converges in >= ``robust_min`` of the trials at every k;
    (b) the robust space (line 951): every cell (every setting, k, B; the starred settings only for
    B >= 16) converges in >= ``some_min`` of the trials; (c) t_c grows with k (t_c <= c n^(alpha k)): the
    10th-percentile t_c at the next k exceeds ``k_growth`` times the one at k, in every (setting, B);
    (d) the starred settings are less robust at small B: their converged fraction at the smallest B is at
    most that at the largest B.  Mutant fields: ``k_growth_max`` (t_c(k+1) <= that factor x t_c(k)
    everywhere), ``small_batch_robust`` (the starred settings converge in >= robust_min at the smallest B),
    ``fragile_max`` (some non-starred setting converges in <= that fraction at the largest B)."""

    text: str
    robust_min: float = 0.8
    some_min: float = 0.2
    k_growth: float = 1.0
    k_growth_max: float | None = None
    small_batch_robust: bool = False
    fragile_max: float | None = None


_B34_PRINTED = ArchStatement("Figs. B.3/B.4: SGD learns (30, k)-parities in every architecture setting; t_c grows with k; "
                             "at large B training is extremely robust in (i)-(xv); (*i), (*ii) need larger batches")


def _cols(ks, batches):
    return [f"k={k}, B={B}" for k in ks for B in batches]


@claim(
    id=B34_ID,
    figure=["Figure B.3", "Figure B.4"],
    source=SOURCE,
    label="Figures B.3, B.4",
    entry="E30",
    title="10th-percentile convergence times and converged percentages per architecture (i)-(xv), parity degree k "
          "and batch size B at n = 30: robust at large B, t_c growing with k",
    lines=[(943, 953), (3658, 3660), (3668, 3668), (3679, 3679), (4024, 4024)],
    printed=_B34_PRINTED,
    parts=[
        Part("large_batch_robust", "'With sufficiently large batch sizes, training is extremely robust in settings (i) "
             "through (xv)' (Fig. B.4 caption): criterion (a), converged fraction >= 0.8 at the largest B",
             inequality=True),
        Part("robust_space", "'SGD solved the parity problem ... in at least 20% of 25 random trials, for at least one "
             "choice of learning rate' (line 951; (*i), (*ii) for B >= 16, line 953): criterion (b)", inequality=True),
        Part("k_growth", "t_c <= c n^(alpha k) (line 951) read at n = 30: the 10th-percentile t_c grows with k in "
             "every (setting, B) (Fig. B.3): criterion (c)", inequality=True),
        Part("less_robust", "'Settings (*i) and (*ii) ... are less robust to small batch sizes' (line 953): "
             "criterion (d)"),
        Part("transformer", "setting (*iii), the Parity Transformer", asserted=False, reason=MISSING["*iii"]),
        Part("paper_sizes", "the paper's grid: k in {2, 3, 4}, B in {1, 2, 4, ..., 1024}, 25 trials, cap 10^5, "
             "rates {1, 0.1, 0.01, 0.001}, widths 1000 ((iii), (vi))", asserted=False,
             reason="only in the gpu tier; full: k in {2, 3}, B in {1, 16, 128}, 25 trials, cap 10^4, rates "
                    "{1, 0.1, 0.01}, every setting but (iii) and (vi) (width 1000: ~10^2 x the cost of width 10 "
                    "per step); quick: (10, k), settings (i), (*i), (xv)"),
    ],
    mutants=[
        Mutant("k-free", "t_c does not grow with k: the 10th-percentile t_c at k + 1 is at most 1.5 x that at k in "
               "every (setting, B)", replace(_B34_PRINTED, text="t_c(k+1) <= 1.5 t_c(k)", k_growth=0.0,
                                             k_growth_max=1.5)),
        Mutant("fragile-at-large-batch", "training is not robust at large B: some setting of (i)-(xv) converges in at "
               "most half the trials at the largest B", replace(_B34_PRINTED, text="fragile at large B", robust_min=0.0,
                                                               fragile_max=0.5)),
        Mutant("starred-small-batch-robust", "the minimal-width settings (*i), (*ii) are as robust at the smallest B as "
               "at large B (>= 80% converged)", replace(_B34_PRINTED, text="(*i), (*ii) robust at B = 1",
                                                       small_batch_robust=True)),
        Mutant("robust-near-boundary", "every setting of (i)-(xv) converges in all trials at the largest B (fraction "
               ">= 1; the measured fractions at B = 128 are 0.56 once and 1.0 otherwise at the full tier)",
               replace(_B34_PRINTED, text="robust_min = 1", robust_min=1.0), near_boundary=True,
               part="large_batch_robust"),
        Mutant("space-near-boundary", "every cell converges in >= 0.6 of the trials at some rate (measured at the "
               "full tier: 0.12 at (xiv), k = 3, B = 1, already below the printed 0.2; 0.2 at (*i), k = 3, B = 16)", replace(_B34_PRINTED, text="some_min = 0.6", some_min=0.6),
               near_boundary=True, part="robust_space"),
        Mutant("k-growth-near-boundary", "t_c at k + 1 exceeds 2.5 x t_c at k in every (setting, B) (the measured "
               "factors at the full tier: 1.0 once (a tie at the stride), then 2.0 and up)", replace(_B34_PRINTED, text="k_growth = 2.5", k_growth=2.5),
               near_boundary=True, part="k_growth"),
    ],
    expect=Status.NOT_REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[Param("n", int, 6, 64, doc="input dimension (the figures: 30)"),
            Param("ks", str, doc="comma-separated parity degrees (the figures: 2, 3, 4)"), *_COMMON_PARAMS],
    tiers={"quick": {"n": 10, "ks": "2,3", "settings": "i,*i,xv", "batches": "4,32", "lrs": "1,0.1", "runs": 10,
                     "cap": 500, "screen": 100, "eval_every": 10, "n_eval": 128},
           "full": {"n": 30, "ks": "2,3", "settings": "i,ii,iv,v,*i,*ii,vii,viii,ix,x,xi,xii,xiii,xiv,xv",
                    "batches": "1,16,128", "lrs": "1,0.1,0.01", "runs": 25, "cap": 10_000, "screen": 100,
                    "eval_every": 10, "n_eval": 128},
           "gpu": {"n": 30, "ks": "2,3,4", "settings": ",".join(SETTINGS), "batches": "1,2,4,8,16,32,64,128,256,512,1024",
                   "lrs": "1,0.1,0.01,0.001", "runs": 25, "cap": 100_000, "screen": 1000, "eval_every": 10,
                   "n_eval": 1024}},
)
def check_figures_b3_b4(st: ArchStatement, p, ctx) -> Verdict:
    """Figures B.3 and B.4: 10th-percentile convergence times and converged percentages per architecture.

    Statement
    ---------
    Figure B.3: "10th percentile convergence times t_c of SGD (with n = 30, hinge loss, uniform
    initialization, and best learning rate eta in {1, 10^-1, 10^-2, 10^-3}), for various architectures,
    parity degrees k, and batch sizes B."  Figure B.4: "Percentage of converged runs (t_c < 10^5) out of 25
    random trials, with the same architectures and training parameters as Figure B.3.  With sufficiently
    large batch sizes, training is extremely robust in settings (i) through (xv)."  Protocol (line 4024):
    "validation accuracies were recorded every 10 iterations, and a run was recorded as converged if it
    reached 100% accuracy within 10^5 iterations; we report the 10th percentile over 25 random seeds".
    Section 5.3.1 (line 951): "for all combinations of n in {10, 20, 30}, k in {2, 3, 4}, batch sizes
    B in {1, 2, 4, ..., 1024}, ... and architecture configurations {(i), ..., (xv)}, SGD solved the parity
    problem ... in at least 20% of 25 random trials, for at least one choice of learning rate ... The models
    converged in t_c <= c n^(alpha k) <= 10^5 steps"; line 953: "Settings (*i) and (*ii) ... are less robust
    to small batch sizes ... the same positive results as above only held for sufficiently large batch
    sizes: B >= 16."

    Source
    ------
    Seed 004, Figures B.3, B.4 (captions at lines 3668 and 3679), Section 5.3.1 (lines 943-953), App. B.3
    (lines 3658-3660), App. B.4.2 (line 4024).  Catalog entry E30.  The figures are heat maps; the text prints no t_c or
    percentage, so the paper's side is the captions' and Section 5.3.1's statements.

    Checkable form
    --------------
    For every setting in ``settings`` (module docstring), k in ``ks`` and B in ``batches``: ``runs``
    trials of online SGD (hinge, uniform init) on the (n, k)-parity at each rate of ``lrs``; t_c = first
    evaluation (every ``eval_every`` steps) with 100% accuracy on ``n_eval`` held-out samples, cap ``cap``;
    the best rate is the one with the smallest 10th percentile (the ceil(R/10)-th smallest t_c), and the
    converged fraction is that rate's.  Pre-registered criteria (fixed before the full-tier run):
    (a) at the largest B, every trained setting of (i)-(xv) (not (*i), (*ii)) converges in >= 80% of the
    trials at every k ("extremely robust"); (b) every cell converges in >= 20% of the trials at some rate of
    ``lrs`` (line 951, "for at least one choice of learning rate"), for (*i), (*ii) only at B >= 16; (c) for every (setting, B) and consecutive k in ``ks``, the
    10th-percentile t_c at k + 1 is larger than at k (t_c <= c n^(alpha k) at n = 30, both finite or the
    larger k censored); (d) for (*i) and (*ii) at every k, the converged fraction at the smallest B is at
    most that at the largest B.  The plots are the paper's two heat maps: log10 of the 10th-percentile t_c
    (Fig. B.3) and the converged percentage (Fig. B.4), settings against (k, B).

    Exactness
    ---------
    Statistical, seeded (bit-for-bit reproducible; the rate search is exact, module docstring).  A 10th
    percentile of 25 runs is the 3rd order statistic: its relative spread between seed sets is ~30% for the
    single neurons (heavy-tailed t_c), much less than the k-growth tested by (c).  "100% accuracy" on 128
    held-out samples (the paper's larger-scale probe, line 4026) admits a classifier with 1% error with
    probability 0.28; a parity learner's error falls from ~50% to 0 within a few evaluations, so t_c moves
    by at most a few evaluation strides.

    Mutants
    -------
    k-free (t_c(k+1) <= 1.5 t_c(k) everywhere), fragile-at-large-batch (some setting <= 50% at the largest
    B), starred-small-batch-robust ((*i), (*ii) >= 80% at the smallest B): false variants of the figures'
    points.  robust-near-boundary, space-near-boundary, k-growth-near-boundary: criteria (a)-(c)
    strengthened just beyond the measured numbers (factors in the descriptions).

    Notes
    -----
    Tiers: quick (10, k in {2, 3}), settings (i), (*i), (xv), B in {4, 32}, rates {1, 0.1}, 10 trials, cap
    500 (a smoke test of the same criteria; it fails (c) by the same stride tie as the full tier: (xv) at
    B = 32 converges at the first evaluation for both k); full n = 30 (the figures'), k in {2, 3}, B in {1, 16, 128},
    rates {1, 0.1, 0.01}, 25 trials (the paper's), cap 10^4, the 15 settings without width 1000; gpu the
    paper's grid: all 17 trained settings, k in {2, 3, 4}, B in {1, 2, ..., 1024}, rates {1, 0.1, 0.01,
    0.001}, cap 10^5, 1024 held-out samples, one task per cell (``Context.map``).  What the reduced run
    cannot show: k = 4, width 1000, B > 128, the rate 0.001 (where it is best, t_c is ~10x the rate 0.01's,
    beyond the full cap), and converged runs between 10^4 and 10^5 steps (the full tier's percentages are
    lower bounds of the paper's).

    Result (full tier, recorded after the criteria were fixed): NOT reproduced as pre-registered: 3 of the
    criteria's 161 cases fail, one of them by a tie.  (a) fails once in its 26 cells: at B = 128 the sinusoid
    (x), k = 2, takes the rate 1 (10th percentile 10 steps) at which 14 of 25 runs converge within 10^4
    (56%; 100% at the rate 0.1); the other 25 cells converge in 100%.  (b) fails once: (xiv), k = 3, B = 1
    converges in 3 of 25 (12%) within 10^4 at the best of {1, 0.1, 0.01} (87 of the 90 cells converge in
    >= 20%; the other two are (*i), (*ii) at k = 3, B = 1 with 0%, outside (b) by line 953).  (c) holds in
    44 of 45 (setting, B) pairs (t_c(k=3)/t_c(k=2) from 1.57 to 105, or k = 3 censored) and fails once by a
    tie at the evaluation stride: (xii) at B = 128 converges at the first evaluation (10 steps) for both k.
    (d) holds ((*i): 52% at B = 1 against 60% at B = 128 for k = 2, 0% against 20% for k = 3; (*ii): 100% /
    100% and 0% / 100%).  The 10th-percentile rule can pick a rate at which a few runs are very fast and
    most fail: (viii), k = 2, B = 16 takes the rate 1 with 3 of 25 converged (Fig. B.4's 12%; 100% at 0.1).
    Re-run of the failing cells at the paper's cap 10^5 and rates {1, 0.1, 0.01, 0.001} (same seeds,
    outside the claim): (xiv) k = 3 B = 1 converges in 25 of 25 at the rate 0.001 (14 within 10^4), so
    (b)'s failure is the reduced cap's and rates'; (x) k = 2 B = 128 converges in 23 of 25 at the rate 1
    within 10^5 (92%), so (a)'s failure is the cap's too; the tie of (c) is the paper's stride.  66 CPU s
    (user + sys time of ``verify run --tier full`` with the mutants, which reuse the cached cells, one numba
    thread; 72 before the engine vectorised polynomial activations, 129-133 before the ladder continued its
    stopped runs and the engine cut undecisive evaluations short, 2026-11-27).
    """
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    ks = _ints(ctx.claim_id, "ks", p["ks"], 1, 16)
    batches = _ints(ctx.claim_id, "batches", p["batches"], 1, 65_536)
    lrs = tuple(sorted(_floats(ctx.claim_id, "lrs", p["lrs"], 1e-6, 100.0), reverse=True))
    settings = _settings(ctx.claim_id, p["settings"])
    n = p["n"]
    if any(k > n for k in ks):
        raise InvalidParameter(f"{ctx.claim_id}: every k in 'ks' must be at most n = {n}, not {p['ks']!r}")
    cells = _grid(ctx.claim_id, "b34", (n,), ks, settings, batches, lrs, p["runs"], p["cap"], p["screen"],
                  p["eval_every"], p["n_eval"], ctx.backend)
    C = {(k, s, B): cells[n, k, s, B] for k in ks for s in settings for B in batches}
    bmin, bmax = batches[0], batches[-1]
    plain = [s for s in settings if s not in STARRED]
    # (a) large-batch robustness of (i)-(xv)
    for s in plain:
        for k in ks:
            c = C[k, s, bmax]
            case = {"part": f"(a) converged fraction at B = {bmax}", "setting": s, "k": k, "lr": c.lr,
                    "converged": c.converged}
            ev.add(case, c.converged, st.robust_min, part="large_batch_robust")
    if st.fragile_max is not None:
        worst = min((C[k, s, bmax].converged, s, k) for s in plain for k in ks)
        ev.add({"part": f"some setting converges in <= {st.fragile_max} at B = {bmax}", "setting": worst[1],
                "k": worst[2]}, worst[0], st.fragile_max, relation="le")
    # (b) the robust space
    for (k, s, B), c in C.items():
        if s in STARRED and B < STARRED_MIN_BATCH:
            continue
        ev.add({"part": "(b) converged fraction at some rate", "setting": s, "k": k, "B": B,
                "converged (best rate)": c.converged, "converged (any rate)": c.conv_any}, c.conv_any, st.some_min,
               part="robust_space")
    # (c) growth in k
    for s in settings:
        for B in batches:
            for k0, k1 in zip(ks, ks[1:]):
                a, b = C[k0, s, B].p10, C[k1, s, B].p10
                if not math.isfinite(a) and not math.isfinite(b):
                    continue  # both censored: (b) fails there
                ratio = b / a if math.isfinite(a) else 0.0
                case = {"part": f"(c) p10 t_c(k={k1}) / p10 t_c(k={k0})", "setting": s, "B": B, "p10": [a, b]}
                if st.k_growth_max is not None:
                    ev.add(case, ratio, st.k_growth_max, relation="le")
                else:
                    ev.add(case, ratio, st.k_growth, relation="gt", part="k_growth")
    # (d) the starred settings at small B
    for s in (x for x in settings if x in STARRED):
        for k in ks:
            lo, hi = C[k, s, bmin].converged, C[k, s, bmax].converged
            case = {"part": f"(d) converged fraction at B = {bmin} vs B = {bmax}", "setting": s, "k": k,
                    "converged": [lo, hi]}
            if st.small_batch_robust:
                ev.add(case, lo, st.robust_min, relation="ge")
            else:
                ev.add(case, lo <= hi, relation="true", part="less_robust")
    if ctx.statement_tag == "printed":
        rows = [f"({s}) {describe(s)}" for s in settings]
        cols = _cols(ks, batches)
        p10 = [[math.log10(C[k, s, B].p10) if math.isfinite(C[k, s, B].p10) else math.nan for k in ks for B in batches]
               for s in settings]
        conv = [[100.0 * C[k, s, B].converged for k in ks for B in batches] for s in settings]
        ev.plots.append(_heatmap(f"Fig. B.3 re-run: log10 p10 t_c, n = {n}, {p['runs']} trials, best rate\n(blank: "
                                 f"censored at {p['cap']})", rows, cols, p10, "log10 t_c (10th percentile)"))
        ev.plots.append(_heatmap(f"Fig. B.4 re-run: % converged (t_c < {p['cap']}) of {p['runs']} trials, n = {n}",
                                 rows, cols, conv, "% converged", vmin=0.0, vmax=100.0))
        ev.details["cells (setting, k, B): best rate, 10th-percentile t_c, % converged"] = [
            {"setting": s, "k": k, "B": B, "best lr": C[k, s, B].lr, "p10 t_c": C[k, s, B].p10,
             "converged %": 100.0 * C[k, s, B].converged,
             "converged % (any rate)": 100.0 * C[k, s, B].conv_any,
             "per rate (lr, p10, cap, converged fraction within cap)": [list(v) for v in C[k, s, B].q10_by_lr]}
            for s in settings for k in ks for B in batches]
        ev.details["missing settings"] = dict(MISSING)
        ev.details["paper (captions, line 951)"] = (
            "heat-map images only, no t_c or percentage printed; the printed statements: >= 20% of 25 trials "
            "converge for some rate in every setting (B >= 16 for (*i), (*ii)), t_c <= c n^(alpha k) <= 10^5, and "
            "'with sufficiently large batch sizes, training is extremely robust in settings (i) through (xv)'")
    return ev.verdict(backend=ctx.backend, seed=ctx.seed("b34"), note=f"statement: {st.text}")


# ---------------------------------------------------------------------------------------------
# Figure B.5: coarse scaling fits t_c <= c (n - 9)^alpha over n in {10, 20, 30}, k in {2, 3, 4}
# ---------------------------------------------------------------------------------------------

B5_ID = "thesis_ch5.figure_B.5"
#: n_0 = min N - 1 (line 4024)
N0 = 9


def scaling_fit(p10_by_n: dict) -> tuple[float, float]:
    """(c, alpha) of line 4024: c = t_c at the smallest n, alpha the smallest exponent with
    t_c(n) <= c (n - n_0)^alpha for every n (n_0 = min n - 1); (nan, nan) when some t_c is censored."""
    ns = sorted(p10_by_n)
    n0 = ns[0] - 1
    c = p10_by_n[ns[0]]
    if not all(math.isfinite(p10_by_n[n]) for n in ns):
        return math.nan, math.nan
    return c, max(math.log(p10_by_n[n] / c) / math.log(n - n0) for n in ns[1:])


@dataclass(frozen=True)
class ScalingStatement:
    """Fig. B.5 read as (pre-registered; the figure's c, alpha are an image): (a) no missing entries: every
    setting converges in >= ``some_min`` of the trials at every (n, k) at some rate (line 951; B = 32 >= 16, so
    the starred settings too); (b) alpha grows with k: alpha(k_max) / alpha(k_min) > ``growth`` for every
    setting; (c) the constants are small: alpha <= ``alpha_per_k`` * k for every entry.  Mutant fields:
    ``growth_max`` (alpha(k_max) <= that factor x alpha(k_min) for every setting), ``missing_max`` (some
    setting and k converge in at most that fraction at some n: a missing entry)."""

    text: str
    some_min: float = 0.2
    growth: float = 1.0
    alpha_per_k: float = 1.0
    growth_max: float | None = None
    missing_max: float | None = None


_B5_PRINTED = ScalingStatement("Fig. B.5: every architecture has coarse scaling constants c, alpha with "
                               "t_c <= c (n - 9)^alpha on n in {10, 20, 30}; alpha grows with k and is small")


@claim(
    id=B5_ID,
    figure="Figure B.5",
    source=SOURCE,
    label="Figure B.5",
    entry="E30",
    title="Coarse scaling fits t_c <= c (n - 9)^alpha per architecture and k on n in {10, 20, 30}: every setting "
          "has an entry, alpha grows with k and stays small",
    lines=[(951, 951), (3658, 3660), (3690, 3690), (4024, 4024)],
    printed=_B5_PRINTED,
    parts=[
        Part("no_missing", "'Missing entries denote cases where < 10% of trials were convergent for any n' with "
             "line 951's '>= 20% of 25 random trials' in every setting: criterion (a)", inequality=True),
        Part("alpha_grows", "t_c <= c n^(alpha k) (line 951): the Fig. B.5 exponent grows with k in every "
             "setting: criterion (b)", inequality=True),
        Part("alpha_small", "'for small architecture-dependent constants c, alpha' (line 951) read as alpha <= k "
             "(t_c(n) grows at most like (n - 9)^k): criterion (c)", inequality=True),
        Part("transformer", "setting (*iii), the Parity Transformer", asserted=False, reason=MISSING["*iii"]),
        Part("paper_sizes", "25 trials, cap 10^5, rates {1, 0.1, 0.01, 0.001}, all settings including width 1000",
             asserted=False,
             reason="only in the gpu tier; full: 25 trials, cap 3 x 10^4, rates {1, 0.1, 0.01}, every setting but "
                    "(iii) and (vi) (width 1000); quick: k in {2, 3}, 3 settings.  The batch size is not printed "
                    "for Fig. B.5: B = 32, the protocol of the Fig. B.6 scaling runs (line 3995)"),
    ],
    mutants=[
        Mutant("alpha-k-free", "the exponent does not depend on k: alpha(k_max) <= 1.2 alpha(k_min) in every setting",
               replace(_B5_PRINTED, text="alpha(k_max) <= 1.2 alpha(k_min)", growth=0.0, growth_max=1.2)),
        Mutant("missing-entries", "some setting has a missing entry: at some (n, k) it converges in at most 10% of "
               "the trials", replace(_B5_PRINTED, text="a missing entry", some_min=0.0, missing_max=0.1)),
        Mutant("growth-near-boundary", "alpha(k_max) >= 2.75 alpha(k_min) in every setting (the smallest measured "
               "ratio is 1.30 at the full tier, (*i): alpha 0.228 -> 0.297 at k = 2 -> 4, and 2.50 at the quick tier, "
               "(*i) at k = 2 -> 3; 2.47 there before the CPU engine's products were re-ordered, 2026-11-27, when this "
               "mutant read 2.5)", replace(_B5_PRINTED, text="growth 2.75", growth=2.75),
               near_boundary=True, part="alpha_grows"),
        Mutant("small-near-boundary", "alpha <= 0.2 k for every entry (the largest measured alpha / k is 0.304 at "
               "the full tier, (viii) at k = 3, and 0.207 at the quick tier, (*i) at k = 3)",
               replace(_B5_PRINTED, text="alpha <= 0.2 k", alpha_per_k=0.2), near_boundary=True, part="alpha_small"),
        Mutant("present-near-boundary", "every (setting, n, k) converges in >= 0.24 of the trials at some rate (the "
               "least measured is 0.2 at the full tier: (*i), k = 4, n = 10, 5 of 25)",
               replace(_B5_PRINTED, text="some_min = 0.24", some_min=0.24), near_boundary=True, part="no_missing"),
    ],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[Param("ns", str, doc="comma-separated input dimensions (the figure: 10, 20, 30)"),
            Param("ks", str, doc="comma-separated parity degrees (the figure: 2, 3, 4)"), *_COMMON_PARAMS],
    tiers={"quick": {"ns": "10,14,18", "ks": "2,3", "settings": "*i,viii,xv", "batches": "32", "lrs": "1,0.1", "runs": 10,
                     "cap": 1000, "screen": 100, "eval_every": 10, "n_eval": 128},
           "full": {"ns": "10,20,30", "ks": "2,3,4", "settings": "i,ii,iv,v,*i,*ii,vii,viii,ix,x,xi,xii,xiii,xiv,xv",
                    "batches": "32", "lrs": "1,0.1,0.01", "runs": 25, "cap": 30_000, "screen": 100, "eval_every": 10,
                    "n_eval": 128},
           "gpu": {"ns": "10,20,30", "ks": "2,3,4", "settings": ",".join(SETTINGS), "batches": "32",
                   "lrs": "1,0.1,0.01,0.001", "runs": 25, "cap": 100_000, "screen": 1000, "eval_every": 10,
                   "n_eval": 1024}},
)
def check_figure_b5(st: ScalingStatement, p, ctx) -> Verdict:
    """Figure B.5: coarse scaling estimates c, alpha of the 10th-percentile convergence time per architecture.

    Statement
    ---------
    "Coarse scaling estimates for the 10th percentile convergence time of SGD (with hinge loss, uniform
    initialization, and best learning rate) on every architecture: c, alpha such that t_c <= c (n - n_0)^alpha
    on small parity instances n in {10, 20, 30}, k in {2, 3, 4}.  Missing entries denote cases where < 10% of
    trials were convergent for any n (see Figure B.4).  Boxes are colored according to alpha."  Procedure
    (line 4024): "for n in N := {10, 20, 30}, the smallest alpha is chosen such that t_c <= c (n - n_0)^alpha,
    choosing n_0 = min N - 1 = 9, so that c = t_c at n = 10."  Section 5.3.1 (line 951): "SGD solved the
    parity problem ... in at least 20% of 25 random trials ... The models converged in t_c <= c n^(alpha k)
    <= 10^5 steps, for small architecture-dependent constants c, alpha".

    Source
    ------
    Seed 004, Figure B.5 (caption at line 3690), Section 5.3.1 (line 951), App. B.3 (lines 3658-3660), App.
    B.4.2 (line 4024).  Catalog entry E30 ("Fig. B.5 fit").  The c, alpha of the figure are an image; the text prints none.

    Checkable form
    --------------
    For every setting in ``settings``, n in ``ns`` and k in ``ks`` at the batch size of ``batches`` (one
    value): ``runs`` trials of online SGD (hinge, uniform init) at each rate of ``lrs``, t_c = first
    evaluation (every ``eval_every`` steps) with 100% accuracy on ``n_eval`` held-out samples, cap ``cap``,
    10th percentile = the ceil(R/10)-th smallest t_c at the best rate (module docstring); c = t_c at the
    smallest n, alpha = max over the other n of log(t_c(n)/c) / log(n - n_0), n_0 = min n - 1 (line 4024).
    Pre-registered criteria (fixed before the full-tier run): (a) every (setting, n, k) converges in >= 20%
    of the trials at some rate (no missing entry; line 951); (b) alpha(k_max) > alpha(k_min) in every
    setting (the exponent grows with k, t_c <= c n^(alpha k)); (c) alpha <= k for every entry ("small":
    t_c grows at most like (n - 9)^k over n in {10, 20, 30}).  The plots are Fig. B.5's boxes as heat maps
    (alpha, and log10 c, settings against k) and t_c against n - 9 on log-log axes per setting.

    Exactness
    ---------
    Statistical, seeded (bit-for-bit reproducible).  c and alpha are functions of three 10th percentiles
    (3rd order statistics of 25 runs each) and of the evaluation stride 10 (t_c at n = 10 is a few strides,
    so c carries a rounding of up to 10 steps: at c = 20 that moves alpha at n = 20 by up to
    log(1.5)/log(11) = 0.17); (b) compares exponents that differ by more than that at every setting.

    Mutants
    -------
    alpha-k-free (alpha(k_max) <= 1.2 alpha(k_min) in every setting) and missing-entries (some entry converges
    in <= 10%): false variants of the figure's points.  growth-near-boundary, small-near-boundary,
    present-near-boundary: criteria (a)-(c) strengthened just beyond the measured numbers (factors in the
    descriptions).

    Notes
    -----
    Tiers: quick n in {10, 14, 18}, k in {2, 3}, settings (*i), (viii), (xv), 10 trials, rates {1, 0.1}, cap
    1000 (a smoke test); full the figure's n in {10, 20, 30} and k in {2, 3, 4}, 25 trials (the paper's), rates
    {1, 0.1, 0.01}, cap 3 x 10^4, the 15 settings without width 1000 at B = 32; gpu all 17 trained settings,
    rates {1, 0.1, 0.01, 0.001}, cap 10^5, one task per cell (``Context.map``).  What the reduced run
    cannot show: width 1000 ((iii), (vi)), the rate 0.001, converged runs beyond 3 x 10^4 steps.

    Result (full tier, recorded after the criteria were fixed): reproduced.  (a) no missing entry: every
    (setting, n, k) converges in >= 20% of the trials at some rate (the least, exact: (*i), k = 4, n = 10,
    5 of 25; every other entry reaches the search's 30% at some rate and cap).  (b) alpha(4) > alpha(2) in
    all 15 settings: the smallest ratio is 1.30 ((*i): 0.228 -> 0.297); in (viii), (xii), (xiv), (xv) the
    k = 2 runs converge within one or two evaluation strides at every n (alpha(2) = 0).  (c) alpha ranges
    over 0-0.29 at k = 2, 0.17-0.91 at k = 3, 0.30-1.15 at k = 4 (largest alpha / k = 0.304, (viii) at
    k = 3); c from 10 to 20 steps at k = 2, up to 310 at k = 3 and 2350 at k = 4 (the minimal-width (*i),
    (*ii)).  The ReLU MLPs' t_c are the smoothest in n ((ii): 120, 370, 810 steps at k = 4).  A first run
    of this tier with the best rate run to the full cap showed the 10th-percentile rule picking, in 5 of
    the 135 cells, a rate at which 3 of 25 runs converge (e.g. (iv), k = 2, n = 30; 100% at another rate).
    154 CPU s (user + sys time of ``verify run --tier full`` with the mutants, which reuse the cached cells,
    one numba thread; 211-222 CPU s before the ladder continued its stopped runs instead of training them
    again and the engine cut undecisive evaluations short, 2026-11-27), within the ~3 minutes a full tier
    should take; the minimal-width (*i) cells, whose rates all run to the cap, dominate.
    """
    ev = Evidence("ge", rigor=Rigor.STATISTICAL)
    ns = _ints(ctx.claim_id, "ns", p["ns"], 2, 64)
    ks = _ints(ctx.claim_id, "ks", p["ks"], 1, 16)
    batches = _ints(ctx.claim_id, "batches", p["batches"], 1, 65_536)
    lrs = tuple(sorted(_floats(ctx.claim_id, "lrs", p["lrs"], 1e-6, 100.0), reverse=True))
    settings = _settings(ctx.claim_id, p["settings"])
    if len(ns) < 2 or len(ks) < 2 or len(batches) != 1 or max(ks) > min(ns):
        raise InvalidParameter(f"{ctx.claim_id}: 'ns' and 'ks' need two values each with max k <= min n, and "
                               f"'batches' one value; got ns={p['ns']!r}, ks={p['ks']!r}, batches={p['batches']!r}")
    B = batches[0]
    cells = _grid(ctx.claim_id, "b5", ns, ks, settings, batches, lrs, p["runs"], p["cap"], p["screen"],
                  p["eval_every"], p["n_eval"], ctx.backend, False)
    fits = {(s, k): scaling_fit({n: cells[n, k, s, B].p10 for n in ns}) for s in settings for k in ks}
    # (a) no missing entry
    for s in settings:
        for k in ks:
            worst = min((cells[n, k, s, B].conv_any, n) for n in ns)
            case = {"part": "(a) smallest converged fraction over n (some rate)", "setting": s, "k": k, "n": worst[1]}
            if st.missing_max is None:
                ev.add(case, worst[0], st.some_min, part="no_missing")
    if st.missing_max is not None:
        worst = min((cells[n, k, s, B].conv_any, s, n, k) for s in settings for k in ks for n in ns)
        ev.add({"part": f"some entry converges in <= {st.missing_max}", "setting": worst[1], "n": worst[2],
                "k": worst[3]}, worst[0], st.missing_max, relation="le")
    # (b) alpha grows with k, (c) alpha small
    for s in settings:
        a0, a1 = fits[s, ks[0]][1], fits[s, ks[-1]][1]
        ratio = a1 / a0 if a0 > 0 else (math.inf if a1 > 0 else 0.0)
        case = {"part": f"(b) alpha(k={ks[-1]}) / alpha(k={ks[0]})", "setting": s, "alpha": [a0, a1]}
        if math.isnan(a0) or math.isnan(a1):
            ev.add(dict(case, note="censored t_c: no fit"), False, relation="true", part="alpha_grows")
        elif st.growth_max is not None:
            ev.add(case, ratio, st.growth_max, relation="le")
        else:
            ev.add(case, ratio, st.growth, relation="gt", part="alpha_grows")
        for k in ks:
            a = fits[s, k][1]
            if math.isfinite(a):
                ev.add({"part": f"(c) alpha <= {st.alpha_per_k:g} k", "setting": s, "k": k, "c": fits[s, k][0],
                        "alpha": a}, a, st.alpha_per_k * k, relation="le", part="alpha_small")
    if ctx.statement_tag == "printed":
        rows = [f"({s}) {describe(s)}" for s in settings]
        cols = [f"k={k}" for k in ks]
        alpha = [[fits[s, k][1] for k in ks] for s in settings]
        logc = [[math.log10(fits[s, k][0]) if fits[s, k][0] > 0 else math.nan for k in ks] for s in settings]
        ev.plots.append(_heatmap(f"Fig. B.5 re-run: alpha with t_c <= c (n - {min(ns) - 1})^alpha,\nn in {list(ns)}, "
                                 f"B = {B}, best rate", rows, cols, alpha, "alpha", xlabel="k"))
        ev.plots.append(_heatmap("Fig. B.5 re-run: log10 c (= 10th-percentile t_c at the smallest n)", rows, cols,
                                 logc, "log10 c", xlabel="k"))
        series = []
        colors = "brgmck"
        for s in settings:
            for i, k in enumerate(ks):
                series.append({"label": f"k={k}" if s == settings[0] else None, "x": [n - min(ns) + 1 for n in ns],
                               "y": [cells[n, k, s, B].p10 if math.isfinite(cells[n, k, s, B].p10) else math.nan
                                     for n in ns], "style": colors[i % len(colors)] + "-o"})
        ev.plots.append({"title": f"10th-percentile t_c against n - n_0, one line per setting (B = {B})",
                         "xlabel": "n - n_0", "ylabel": "t_c (10th percentile)", "logx": True, "logy": True,
                         "series": series})
        ev.details["fits (setting, k): c, alpha"] = [
            {"setting": s, "k": k, "c": fits[s, k][0], "alpha": fits[s, k][1],
             "p10 t_c per n": {str(n): cells[n, k, s, B].p10 for n in ns},
             "best lr per n": {str(n): cells[n, k, s, B].lr for n in ns},
             "converged % per n (best rate, within the deciding cap of the rate search)": {
                 str(n): 100.0 * cells[n, k, s, B].converged for n in ns},
             "converged % per n (any rate)": {str(n): 100.0 * cells[n, k, s, B].conv_any for n in ns}}
            for s in settings for k in ks]
        ev.details["missing settings"] = dict(MISSING)
        ev.details["paper (caption, line 951)"] = (
            "the figure's c, alpha are an image; printed: entries missing only where < 10% of trials converge for "
            "any n, t_c <= c n^(alpha k) <= 10^5 'for small architecture-dependent constants c, alpha'")
    return ev.verdict(backend=ctx.backend, seed=ctx.seed("b5"), note=f"statement: {st.text}")
