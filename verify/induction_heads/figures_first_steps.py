"""Figures E.1 and E.2 of thesis App. E re-run as an empirical claim (issue: figures): the Monte Carlo estimates
of the first GD step of the minimal model (W_k^(1) and v^(1), Fig. E.1) and of the diagonal part of the second
step's v gradient (Fig. E.2), at the thesis's own sizes (c = 0.02, eta = 0.03, t = 100, 10,000 samples of
(a, b)), against the K2 quadrature of the same expectations (verify.induction_heads._common.expected_T).

The per-matrix quantity is the T-tensor of kernel K1 (kernels.sequence.markov_icl.t_tensor): in the linear
regime of the margin loss, -grad_W L = sum_j v_j T_j(P) and -dL/dv_j = sum_{m,l} (W_k)_{ml} T_{j,m,l}(P), so
W^(1) = c 11^T + eta c sum_j E T_j and v^(1)_j = c + eta c sum_{m,l} E T_{j,m,l}, and the diagonal
contribution of the second step is eta (rho - c') sum_m E T_{j,m,m} with rho, c' the diagonal and
off-diagonal entries of W^(1) (eqs. (E.37)-(E.38); catalog C16).  The figure estimates the outer
expectation E_{a,b} by Monte Carlo; the check does the same with its own seeded samples and compares with
the quadrature (an independent computation of the same number).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from kernels.sequence.markov_icl import k2_matrices, t_tensor

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE
from ._common import expected_T

CONTRACT_AUDITED = True


@functools.lru_cache(maxsize=4)
def _mc_moments(seed: int, t: int, n: int, chunk: int = 2000):
    """Mean and standard error over n samples (a, b) ~ U[0,1]^2 of sum_j T_j (2 x 2), sum_{ml} T_{j,m,l} (t,) and
    sum_m T_{j,m,m} (t,)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    a, b = rng.random(n), rng.random(n)
    sW, sv, sd = [], [], []
    for lo in range(0, n, chunk):
        T = t_tensor(k2_matrices(a[lo:lo + chunk], b[lo:lo + chunk]), t)  # (m, t, 2, 2)
        sW.append(T.sum(1))
        sv.append(T.sum((2, 3)))
        sd.append(np.einsum("njmm->nj", T))
    out = []
    for x in (np.concatenate(sW), np.concatenate(sv), np.concatenate(sd)):
        out.append((x.mean(0), x.std(0, ddof=1) / math.sqrt(n)))
    return tuple(out)


@dataclass(frozen=True)
class FirstStepsFigure:
    z_max: float = 4.0  # every Monte Carlo estimate within z_max standard errors of the quadrature value
    diagonal_bias: bool = True  # W^(1): diagonal > off-diagonal (mutant: not)
    v_peak: int = 1  # argmax_j v^(1)_j ('mostly favors the first position')
    diag_peak: int = 2  # argmax_j of the second-step diagonal contribution over j <= zigzag_to
    zigzag_to: int = 10  # the diagonal contribution alternates (even j above both odd neighbours) for j <= zigzag_to


@claim(
    id="thesis_ch8.figure_E_1_E_2",
    figure=["Figure E.1", "Figure E.2"],
    source=SOURCE,
    label="Figs. E.1, E.2",
    entry="C16",
    title="Monte Carlo first GD step of the minimal model (W_k^(1) diagonal-biased, v^(1) peaked at j = 1 with quadratic "
          "decay) and the second step's diagonal v contribution (peak at j = 2, even/odd zigzag), at c = 0.02, eta = 0.03, "
          "t = 100, 10,000 samples; matches the quadrature",
    lines=[(5802, 5804), (5866, 5868), (1866, 1870)],
    printed=FirstStepsFigure(),
    parts=[
        Part("monte_carlo_matches", "Figs. E.1, E.2: 'the outer expectations are approximated using 10,000 samples' (read: the "
             "estimates of W^(1), v^(1)_j and the diagonal contribution for j = 1..t lie within 4 s.e. of the quadrature)",
             inequality=True),
        Part("W_diagonal_bias", "Fig. E.1 (left) / Lemma 8.4: 'the gradient of W_k at initialization has a clear diagonal bias'"),
        Part("v_first_position", "Fig. E.1 (right) / Sec. 8.3.2: the first-step v gradient 'mostly favors the first position "
             "(look at current token), and has a quadratic decay' (read: argmax_j v^(1)_j = 1 and v^(1)_j decreasing in j)"),
        Part("diag_even_odd", "Fig. E.2 / Sec. 8.3.2: the diagonal part of the second step amplifies the even coordinates more "
             "than the odd ones; the 2nd coordinate grows larger than the rest (read: over j <= 10 the contribution peaks at "
             "j = 2 and every even j lies above both odd neighbours)"),
    ],
    mutants=[Mutant("no-diagonal-bias", "W^(1) has no diagonal bias (diagonal <= off-diagonal)",
                    FirstStepsFigure(diagonal_bias=False)),
             Mutant("v-peak-2", "the first-step v update already peaks at j = 2", FirstStepsFigure(v_peak=2)),
             Mutant("diag-peak-1", "the second step's diagonal contribution peaks at j = 1", FirstStepsFigure(diag_peak=1)),
             Mutant("zigzag-to-40", "the even/odd zigzag persists up to j = 40", FirstStepsFigure(zigzag_to=40), origin="author"),
             Mutant("z-1", "near-boundary: every estimate within 1 s.e. of the quadrature", FirstStepsFigure(z_max=1.0),
                    near_boundary=True, part="monte_carlo_matches")],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[Param("t", int, 10, 400, doc="sequence length (thesis: 100)"), Param("samples", int, 100, 1_000_000,
                                                                                doc="Monte Carlo samples of (a, b) (thesis: 10,000)"),
            Param("c", float, 1e-4, 1.0, doc="initialisation (thesis: 0.02)"), Param("eta", float, 1e-5, 1.0, doc="learning rate (thesis: 0.03)")],
    tiers={"quick": {"t": 100, "samples": 2000, "c": 0.02, "eta": 0.03}, "full": {"t": 100, "samples": 10000, "c": 0.02, "eta": 0.03},
           "gpu": {"t": 100, "samples": 10000, "c": 0.02, "eta": 0.03}},
)
def check_figure_E_1_E_2(st: FirstStepsFigure, p, ctx) -> Verdict:
    """Figures E.1 and E.2: Monte Carlo estimates of the first two GD steps of the minimal model.

    Statement
    ---------
    Fig. E.1 (lines 5802-5804): values of W_k and v after one step of GD from eqs. (E.17), (E.28), c = 0.02,
    eta = 0.03, t = 100, outer expectations by 10,000 samples.  Fig. E.2 (lines 5866-5868): the same estimate of
    the second step's v gradient coming from the diagonal bias of W_k (eqs. (E.37), (E.38)).  Sec. 8.3.2 (lines
    1866-1870): the W gradient has a diagonal bias; the v gradient mostly favours the first position with a
    quadratic decay; after the second step the even coordinates are amplified more than the odd ones and v_2
    grows largest.

    Hypotheses
    ----------
    Minimal model (E.2), k = 2, P = [[a, 1-a], [1-b, b]] with a, b ~ U[0,1], stationary start, init W = c 11^T,
    v = c 1, linear regime of the margin loss (Delta large), population GD (the thesis's "SGD" is the
    expectation).  Seeds: ctx.seed('ab').

    Source
    ------
    Thesis (seed 004), App. E, Figs. E.1, E.2: Fig. E.1 caption lines 5802-5804, Fig. E.2 caption lines 5866-5868, Sec. 8.3.2
    lines 1866-1870.

    Checkable form
    --------------
    Draw `samples` (a, b); per sample the T-tensor (kernel K1); Monte Carlo means and s.e. of W^(1) = c + eta c
    sum_j T_j, v^(1)_j = c + eta c sum_{ml} T_{jml} and D_j = eta (rho - c') sum_m T_{jmm} (rho, c' the
    quadrature's W^(1) entries).  Reproduced iff (a) every estimate (the 4 W entries, v_j and D_j for j = 1..t)
    is within z_max (4) s.e. of the K2 quadrature of the same expectation; (b) the estimated W^(1) has
    diagonal > off-diagonal (both entries of each row); (c) argmax_j v^(1)_j = v_peak (1) and v^(1) decreases in
    j; (d) over j <= zigzag_to (10), argmax D_j = diag_peak (2) and every even j has D_j above D_{j-1} and
    D_{j+1}.  Criteria fixed before the full-tier run, from the figures' description in the text.

    Exactness
    ---------
    Statistical: seeded Monte Carlo (bit-for-bit reproducible) against a quadrature exact to ~1e-12; about
    300 comparisons at 4 s.e. (a false alarm has probability ~2%).

    Mutants
    -------
    no-diagonal-bias, v-peak-2 and diag-peak-1 negate (b)-(d); zigzag-to-40 extends the alternation to j = 40
    (in the quadrature it holds up to j = 15 and breaks at j = 16, where D_16 < D_15: the even/odd pattern
    fades into the smooth decay); z-1 is the near-boundary mutant of (a).

    Notes
    -----
    Sizes: the thesis's (t = 100, 10,000 samples) at full and gpu; quick 2,000 samples.  No numbers are
    printed in the captions: the reference values are the quadrature's (details), drawn beside the estimates.

    Measured (full tier, 8 s CPU, reproduced): max |z| 2.8 (W), 2.9 (v), 2.7 (D); W^(1) = [[0.06936, 0.03115],
    [0.03072, 0.06620]] (s.e. 0.0010 on the diagonal, 0.00014 off it) against the quadrature's [[0.06902, 0.03098],
    [0.03098, 0.06902]].
    """
    ev = Evidence("le", rigor=Rigor.STATISTICAL)
    t, n, c, eta = p["t"], p["samples"], p["c"], p["eta"]
    (mW, sW), (mv, sv), (md, sd) = _mc_moments(ctx.seed("ab"), t, n)
    ET = expected_T(t)
    W_ex = c + eta * c * ET.sum(0)
    v_ex = c + eta * c * ET.sum((1, 2))
    rho, cp = float(W_ex[0, 0]), float(W_ex[0, 1])
    d_ex = eta * (rho - cp) * np.einsum("jmm->j", ET)
    W_mc, W_se = c + eta * c * mW, eta * c * sW
    v_mc, v_se = c + eta * c * mv, eta * c * sv
    d_mc, d_se = eta * (rho - cp) * md, eta * abs(rho - cp) * sd
    zs = []
    for name, est, se, ex in (("W", W_mc.ravel(), W_se.ravel(), W_ex.ravel()), ("v", v_mc, v_se, v_ex), ("D", d_mc, d_se, d_ex)):
        z = np.abs(est - ex) / np.maximum(se, 1e-300)
        i = int(np.argmax(z))
        zs.append((name, z))
        ev.add({"part": f"(a) max over entries of |MC - quadrature| / s.e. ({name})", "entry": i, "t": t, "samples": n},
               float(z[i]), st.z_max, part="monte_carlo_matches")
    diag_ok = bool(W_mc[0, 0] > W_mc[0, 1] and W_mc[1, 1] > W_mc[1, 0])
    ev.add({"part": "(b) W^(1): diagonal > off-diagonal", "W": np.round(W_mc, 6).tolist()}, diag_ok, st.diagonal_bias, relation="eq")
    ev.add({"part": "(c) argmax_j v^(1)_j"}, int(np.argmax(v_mc)) + 1, st.v_peak, relation="eq")
    ev.add({"part": "(c) v^(1)_j decreasing in j"}, bool(np.all(np.diff(v_mc) < 0)), True, relation="eq")
    J = min(st.zigzag_to, t - 1)
    ev.add({"part": f"(d) argmax_(j <= {J}) D_j"}, int(np.argmax(d_mc[:J])) + 1, st.diag_peak, relation="eq")
    zig = all(d_mc[j - 1] > d_mc[j - 2] and d_mc[j - 1] > d_mc[j] for j in range(2, J + 1, 2))
    ev.add({"part": f"(d) every even j <= {J}: D_j above both odd neighbours"}, zig, True, relation="eq")
    ev.details["W^(1): Monte Carlo (s.e.) and quadrature"] = {"MC": np.round(W_mc, 7).tolist(), "s.e.": np.round(W_se, 7).tolist(),
                                                             "quadrature": np.round(W_ex, 7).tolist()}
    ev.details["v^(1)_j, j = 1, 2, 3, 10, 50, 100: MC / quadrature"] = [
        (j, round(float(v_mc[j - 1]), 7), round(float(v_ex[j - 1]), 7)) for j in (1, 2, 3, 10, 50, 100) if j <= t]
    ev.details["D_j (second step, diagonal part), j = 1..10: MC / quadrature"] = [
        (j, round(float(d_mc[j - 1]), 6), round(float(d_ex[j - 1]), 6)) for j in range(1, min(10, t) + 1)]
    ev.details["max |z| per block"] = {name: round(float(z.max()), 3) for name, z in zs}
    ev.details["paper"] = "captions give c = 0.02, eta = 0.03, t = 100, 10,000 samples; no values printed"
    js = list(range(1, t + 1))
    ev.plots.append({"kind": "heatmap", "title": f"Fig. E.1 (left) re-run: W_k^(1), Monte Carlo ({n} samples)", "z": W_mc.tolist(),
                     "x": ["1", "2"], "y": ["1", "2"], "zlabel": "W_k^(1) entry", "series": []})
    ev.plots.append({"title": f"Fig. E.1 (right) re-run: v^(1)_j (c = {c}, eta = {eta}, t = {t})", "xlabel": "j", "ylabel": "v_j^(1)",
                     "series": [{"x": js, "y": v_mc.tolist(), "label": f"Monte Carlo ({n} samples)", "style": "o"},
                                {"x": js, "y": v_ex.tolist(), "label": "quadrature (K2)", "style": "-"}]})
    ev.plots.append({"title": f"Fig. E.2 re-run: diagonal part of the second-step v update (t = {t})", "xlabel": "j",
                     "ylabel": "eta (rho - c') sum_m E T_jmm",
                     "series": [{"x": js[:20], "y": d_mc[:20].tolist(), "label": f"Monte Carlo ({n} samples)", "style": "o-"},
                                {"x": js[:20], "y": d_ex[:20].tolist(), "label": "quadrature (K2)", "style": "--"}]})
    return ev.verdict(seed=ctx.seed("ab"))
