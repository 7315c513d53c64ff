"""Theorem 1 / Table 1 (E35) and the experiments: Figure 1 (E36, sample complexity against N) and Figure 2
(E37, trained attention weights against construction (A.2)), re-run at CPU sizes with
kernels.training.retrieval.online_sample_complexity (plain numpy, AdamW, seeded).  Figure 1a's recurrent curve
is re-run with the bidirectional GRU of kernels.training.retrieval.bigru_forward_backward (the authors' BGRU).

Differences from the authors' code (mousavih/transformers-separation), stated in the claims: the transformer
has separate W_Q, W_K, 1/sqrt(D) scaling and no value/output projection (torch MultiheadAttention has both);
the FFN has one hidden layer of width 512 (theirs: N d and 1000); the bidirectional GRU has 32 units per
direction (theirs 500: BiGRU-500 costs 10-30 min per run on this machine, catalog E36); test prompts follow the training law (their
script tests on simple-1STR also for 1STR runs); 1000 test prompts (theirs 5000).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from math import floor, log

import numpy as np

from kernels.sequence.qstr import (
    assumption3_codes,
    encode_transformer,
    rademacher_codes,
    sample_qstr,
    unit_vectors,
)
from kernels.constructions.retrieval_constructions import (
    ffn_inspan_risk,
    lemma11_alpha,
    lemma11_query_key,
    lemma11_readout_linear,
    linear_state_risk,
    rnn_exact_retrieval,
    transformer_forward,
)
from kernels.training.retrieval import online_sample_complexity

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True

# reference means read from the authors' notebook figure (catalog E36, +-1k)
_REF_1A = {
    "tr": {2: 3100, 4: 5700, 6: 10600, 8: 14600, 10: 15800, 12: 17300},
    "ffn": {2: 2500, 4: 9100, 6: 20300, 8: 40000, 10: 66100, 12: 115300},
    "rnn": {2: 1000, 4: 16200, 6: 33100, 8: 41000, 10: 58800, 12: 73800},  # BiGRU-500; N = 2 is "<~1k"
}
_GRU_HIDDEN = 32  # units per direction of the re-run GRU (budget; the authors use 500)


@functools.lru_cache(maxsize=64)
def _run(arch: str, N: int, seed: int, max_steps: int, simple: bool = False):
    """One seeded training run (cached: the printed statement and its mutants read the same runs)."""
    if simple:
        return online_sample_complexity(arch, N, seed, simple=True, threshold=0.05, max_steps=max_steps,
                                        check_every=50, test_prompts=500, return_params=True)
    return online_sample_complexity(arch, N, seed, max_steps=max_steps)


@functools.lru_cache(maxsize=64)
def _run_gru(N: int, seed: int, max_steps: int):
    """One seeded bidirectional-GRU run of the Figure 1a protocol: (prompts to threshold or None, test-MSE curve)."""
    curve: list = []
    n = online_sample_complexity("gru", N, seed, max_steps=max_steps, gru_hidden=_GRU_HIDDEN, curve=curve)
    return n, tuple(curve)


@dataclass(frozen=True)
class Figure1Claim:
    ffn_growth_min: float = 2.0  # n_FFN(N_max)/n_FFN(2) exceeds this (printed: grows fast with N)
    ffn_flat: bool = False  # mutant: FFN sample complexity N-independent
    rnn_like_tr: bool = False  # mutant: the RNN's sample complexity grows no faster than the transformer's


@claim(
    id="seed002.figure_1",
    figure="Figure 1",
    source=SOURCE,
    label="Figure 1",
    entry="E36",
    title="1STR: transformer sample complexity grows slowly with N, the FFN's and the RNN's fast (CPU re-run, N <= 8)",
    lines=[(85, 99)],
    printed=Figure1Claim(),
    parts=[
        Part("panel_a_tr_vs_ffn", "Fig. 1(a), 1STR, threshold 0.7: the transformer's sample count grows slowly with N, "
             "the FFN's fast (criteria (a)-(c))"),
        Part("panel_a_rnn", "Fig. 1(a): 'on a 1STR task, both FFNs and RNNs suffer from a large sample complexity for "
             "larger N' (criteria (d), (e); BiGRU-32 instead of BiGRU-500)"),
        Part("panel_b_simple", "Fig. 1(b), simple-1STR, threshold 0.02: 'RNNs perform closer to Transformers with a much "
             "milder dependence on N compared to FFNs' (lines 86-87)", asserted=False,
             reason="not re-run (CPU budget): the old criterion covered panel (a) only, half of the sentence at lines "
                    "85-87; the mechanism is seed002.theorem_7 / corollary_27"),
        Part("five_runs", "'averaged over 5 experiments' (caption, line 96)", asserted=False,
             reason="quick/full tiers use 1 seed (TR, FFN) and 2 (RNN), medians; only the gpu tier uses 5"),
    ],
    mutants=[Mutant("ffn-flat", "FFN sample complexity independent of N (growth <= 2x)", Figure1Claim(ffn_flat=True)),
             Mutant("rnn-like-tr", "on 1STR the RNN's sample complexity grows no faster with N than the transformer's",
                    Figure1Claim(rnn_like_tr=True))],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[Param("N_max", int, 2, 12), Param("seeds", int, 1, 5), Param("max_steps", int, 100, 20000),
            Param("rnn_seeds", int, 1, 5), Param("rnn_max_steps", int, 100, 20000)],
    tiers={"quick": {"N_max": 4, "seeds": 1, "max_steps": 600, "rnn_seeds": 1, "rnn_max_steps": 150},
           "full": {"N_max": 8, "seeds": 1, "max_steps": 1500, "rnn_seeds": 2, "rnn_max_steps": 1000},
           "gpu": {"N_max": 12, "seeds": 5, "max_steps": 5000, "rnn_seeds": 5, "rnn_max_steps": 5000}},
)
def check_figure_1(st: Figure1Claim, p, ctx) -> Verdict:
    """Figure 1 (a): sample complexity against N for transformer, feedforward and recurrent networks on 1STR.

    Statement
    ---------
    Online AdamW (lr 1e-3, weight decay 0.01, batch 64), d = 10, linear link, codes with d_e = floor(5 ln N),
    threshold 0.7 on the test MSE: the transformer's sample count grows slowly with N while the FFN's and the
    RNN's grow fast ("on a 1STR task, both FFNs and RNNs suffer from a large sample complexity for larger N",
    lines 85-86); reference means, catalog E36: TR 3.1k, 5.7k, 10.6k, 14.6k at N = 2, 4, 6, 8; FFN ~2.5k, 9.1k,
    20.3k, ~40k; RNN (bidirectional GRU, 500 units per direction) <~1k, 16.2k, 33.1k, 41.0k.

    Source
    ------
    Seed 002, Figure 1 caption and text, lines 85-99 (experiment code: mousavih/transformers-separation).

    Checkable form
    --------------
    Re-run (kernels.training.retrieval.online_sample_complexity) for N in {2, 4, 8} (up to N_max), ``seeds``
    seeds; median sample counts per (architecture, N).  Reproduced iff (a) at N_max the transformer needs fewer
    samples than the FFN, (b) the FFN's growth n(N_max)/n(2) exceeds 2 and the transformer's growth, (c) every
    measured median at N >= 4 is within a factor 3 of the reference mean.  RNN (bidirectional GRU with 32 units
    per direction, kernels.training.retrieval.bigru_forward_backward, same protocol, ``rnn_seeds`` seeds, at most
    ``rnn_max_steps`` steps): (d) every RNN seed reaches the threshold at N = 2, the transformer's runs at N = 2
    and N_max reach it, and the most conservative seed pairing min_s n_RNN(N_max) / max_s n_RNN(2) exceeds the
    transformer's growth n_TR(N_max)/n_TR(2), with n_TR(N_max) < min_s n_RNN(N_max); (e) at N >= 4 the RNN
    median is within a factor 3 of the BiGRU-500 reference (a run stopped at the cap only has the lower bound
    cap * 64, so there (e) can only check that the lower bound is not already above 3x the reference).  The
    figure plots the three curves with the references; a second figure draws the GRU's test-MSE curves.

    Exactness
    ---------
    Statistical, seeded (bit-for-bit reproducible on one machine); the factor-3 band covers the authors' own
    run-to-run spread (about +-20% at N = 12) plus the architectural differences listed in the module docstring.
    A run that does not reach the threshold within max_steps counts as max_steps * 64 (a lower bound); for the
    RNN this makes (d) conservative (a lower bound on the numerator, reached runs in the denominator).
    The GRU is 16x narrower than the authors' (budget: the full tier's RNN runs take ~27 s here); at N = 8 it
    does not reach 0.7 within 1000 steps (64k prompts; test MSE 0.79-0.82), and in side runs neither within
    1500 steps (96k prompts, seeds 1000-1002, final MSE 0.77-0.78), while a 64-unit GRU reached it at 92k
    (seed 1): the narrow GRU is slower than BiGRU-500's 41k, so (e) is only a consistency check at N = 8.
    The RNN observation is the paper's experiment, not Theorem 9 (min-norm ERM, not online AdamW).

    Mutants
    -------
    ffn-flat: the FFN's growth from N = 2 to N_max is far above 2.
    rnn-like-tr: the RNN's conservative growth lower bound exceeds the transformer's growth.

    Notes
    -----
    Tiers: the quick tier is a smoke test of what the full tier shows: N in {2, 4}, one seed per
    architecture, and one GRU seed capped at 150 steps (9.6k prompts; the full tier runs 2 GRU seeds to
    1000 steps, where at N = 4 they reach the threshold at ~31k-36k prompts).  At the quick size the GRU
    reaches 0.7 at N = 2 (3.2k prompts) but not within the cap at N = 4 (test MSE ~0.8), so (d) rests on
    the censored lower bound: growth >= 9600/3200 = 3.0 against the transformer's 7040/3200 = 2.2, and
    n_TR(4) = 7040 < 9600 (both 1.36x clear; with the cap 200 before: 12800, 4.0, 1.8x); (e) at N = 4 is
    then only the upper-bound check.  The quick tier can fail (d) if the GRU reached the threshold at N = 4
    within ~110 steps or the transformer needed more than the cap, and rejects both mutants (rnn-like-tr on
    the same 3.0 > 2.2); it cannot show the RNN's actual count at N = 4, N = 8, or the seed spread (full
    tier).  Cost: the GRU's 150 steps at N = 4 are ~0.85 s of the quick tier's CPU time (200 steps were
    ~1.15 s, 250 steps ~1.3 s; the 2-seed, 600-step GRU before that ~12 s).
    """
    ev = Evidence("true", rigor=Rigor.STATISTICAL)
    Ns = [N for N in (2, 4, 8, 12) if N <= p["N_max"]]
    med = {}
    for arch in ("tr", "ffn"):
        for N in Ns:
            runs = []
            for s in range(p["seeds"]):
                n = _run(arch, N, ctx.seed(f"{arch}-{N}-{s}") % 2**32, p["max_steps"])
                runs.append(n if n is not None else p["max_steps"] * 64)
            med[arch, N] = float(np.median(runs))
    Nm = Ns[-1]
    ev.details["median prompts"] = {f"{a} N={N}": v for (a, N), v in med.items()}
    ev.add({"N": Nm, "part": "(a) n_TR < n_FFN at N_max", "n_TR": med["tr", Nm], "n_FFN": med["ffn", Nm]},
           med["tr", Nm] < med["ffn", Nm])
    g_ffn, g_tr = med["ffn", Nm] / med["ffn", 2], med["tr", Nm] / med["tr", 2]
    if st.ffn_flat:
        ev.add({"part": "FFN growth <= 2", "growth": g_ffn}, g_ffn <= 2.0)
    else:
        ev.add({"part": "(b) FFN growth > 2 and > TR growth", "ffn_growth": g_ffn, "tr_growth": g_tr},
               g_ffn > st.ffn_growth_min and g_ffn > g_tr)
    for (a, N), v in med.items():
        if N >= 4 and N in _REF_1A[a]:
            r = v / _REF_1A[a][N]
            ev.add({"arch": a, "N": N, "part": "(c) within factor 3 of reference", "measured": v, "reference": _REF_1A[a][N]},
                   1 / 3 <= r <= 3)
    # RNN: bidirectional GRU re-run (d), (e)
    cap = p["rnn_max_steps"] * 64
    rnn = {N: [_run_gru(N, ctx.seed(f"gru-{N}-{s}") % 2**32, p["rnn_max_steps"]) for s in range(p["rnn_seeds"])] for N in Ns}
    n_rnn = {N: [n if n is not None else cap for n, _ in runs] for N, runs in rnn.items()}
    med_rnn = {N: float(np.median(v)) for N, v in n_rnn.items()}
    ev.details[f"RNN (BiGRU-{_GRU_HIDDEN}) prompts per seed (None: not reached within {cap})"] = {
        f"N={N}": [n for n, _ in runs] for N, runs in rnn.items()}
    ev.details["RNN final test MSE per seed"] = {f"N={N}": [round(c[-1][1], 4) for _, c in runs] for N, runs in rnn.items()}
    tr_reached = all(_run("tr", N, ctx.seed(f"tr-{N}-{s}") % 2**32, p["max_steps"]) is not None
                     for N in (2, Nm) for s in range(p["seeds"]))
    rnn2_reached = all(n is not None for n, _ in rnn[2])
    g_rnn = min(n_rnn[Nm]) / max(n_rnn[2])
    case = {"N": Nm, "rnn_growth_lower_bound": g_rnn, "tr_growth": g_tr, "n_TR": med["tr", Nm], "min_n_RNN": min(n_rnn[Nm]),
            "rnn_N2_reached": rnn2_reached, "tr_reached": tr_reached}
    if st.rnn_like_tr:
        ev.add({**case, "part": "RNN growth <= TR growth"}, (not (rnn2_reached and tr_reached)) or g_rnn <= g_tr)
    else:
        ev.add({**case, "part": "(d) RNN growth > TR growth, n_TR < n_RNN at N_max"},
               rnn2_reached and tr_reached and g_rnn > g_tr and med["tr", Nm] < min(n_rnn[Nm]))
    for N in Ns:
        if N >= 4 and N in _REF_1A["rnn"]:
            censored = any(n is None for n, _ in rnn[N])
            r = med_rnn[N] / _REF_1A["rnn"][N]
            ev.add({"arch": "rnn", "N": N, "part": "(e) within factor 3 of reference" + (" (censored: lower bound only)" if censored else ""),
                    "measured": med_rnn[N], "reference": _REF_1A["rnn"][N]}, r <= 3 if censored else 1 / 3 <= r <= 3)
    ev.plots.append({
        "title": "Figure 1a re-run: prompts to reach test MSE 0.7 on 1STR", "xlabel": "N", "ylabel": "prompts", "logy": True,
        "series": [
            {"x": Ns, "y": [med["tr", N] for N in Ns], "label": "transformer (re-run)", "style": "o-"},
            {"x": Ns, "y": [med["ffn", N] for N in Ns], "label": "FFN (re-run)", "style": "s-"},
            {"x": Ns, "y": [med_rnn[N] for N in Ns], "label": f"BiGRU-{_GRU_HIDDEN} (re-run; cap {cap} = not reached)", "style": "^-"},
            {"x": sorted(_REF_1A["rnn"]), "y": [_REF_1A["rnn"][N] for N in sorted(_REF_1A["rnn"])], "label": "BiGRU-500 (paper)", "style": "^--"},
            {"x": sorted(_REF_1A["tr"]), "y": [_REF_1A["tr"][N] for N in sorted(_REF_1A["tr"])], "label": "transformer (paper)", "style": "o--"},
            {"x": sorted(_REF_1A["ffn"]), "y": [_REF_1A["ffn"][N] for N in sorted(_REF_1A["ffn"])], "label": "FFN (paper)", "style": "s--"},
            {"x": Ns, "y": [0.3 * N * 10 for N in Ns], "label": "Theorem 6 FFN lower bound (1-0.7) N d", "style": ":"},
        ],
    })
    ev.plots.append({
        "title": f"BiGRU-{_GRU_HIDDEN} test MSE during online training on 1STR (first seed per N)", "xlabel": "prompts seen",
        "ylabel": "test MSE", "logx": True,
        "series": [{"x": [m for m, _ in rnn[N][0][1]], "y": [v for _, v in rnn[N][0][1]], "label": f"N = {N}", "style": "-"} for N in Ns]
        + [{"x": [640, cap], "y": [0.7, 0.7], "label": "threshold 0.7", "style": ":"}],
    })
    return ev.verdict(seed=ctx.seed("tr-2-0"))


@dataclass(frozen=True)
class AttentionPattern:
    block: str = "t-slot x j-slot"  # query's omega_{t_i} slot against key's omega_j slot; mutant: own-code slot


@claim(
    id="seed002.figure_2",
    figure="Figure 2",
    source=SOURCE,
    label="Figure 2",
    entry="E37",
    title="Trained W_Q^T W_K concentrates on the (omega_t slot x omega_j slot) block, near-diagonal, as in (A.2)",
    lines=[(360, 395)],
    printed=AttentionPattern(),
    parts=[
        Part("block_concentration", "trained W_Q^T W_K concentrates on the (query omega_{t_i} slot) x (key omega_j slot) "
             "block of (A.2) (criterion: >= 0.8 of ||M||_F^2)"),
        Part("near_diagonal", "... near-diagonal within the block as alpha I in (A.2) (criterion: diagonal share >= 3/d_e)"),
        Part("setup_1STR_N100", "'We use the 1STR setup of Figure 1 with N = 100' (caption, lines 383-384)", asserted=False,
             reason="quick/full re-run simple-1STR (the authors' attention_weights.py) at N = 8 / 16; the caption's 1STR at "
                    "N = 100 only in the gpu tier: a weaker reading than the caption (smaller N, simple variant)"),
    ],
    mutants=[Mutant("own-slot-block", "the mass sits in the query's own-code block (omega_i x omega_j)", AttentionPattern("i-slot x j-slot"))],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[Param("N", int, 4, 128), Param("max_steps", int, 100, 20000)],
    tiers={"quick": {"N": 8, "max_steps": 400}, "full": {"N": 16, "max_steps": 3000}, "gpu": {"N": 100, "max_steps": 20000}},
)
def check_figure_2(st: AttentionPattern, p, ctx) -> Verdict:
    """Figure 2: trained attention weights match the construction (A.2).

    Statement
    ---------
    The trained W_Q^T W_K of a single-head transformer on the Figure 1 setup (the authors' script: simple-1STR,
    N = 100) concentrates on the block (query's omega_{t_i} slot) x (key's omega_j slot), near-diagonal, as in the
    Lemma 11 construction (A.2), even with separate W_Q and W_K.

    Source
    ------
    Seed 002, Figure 2 and its discussion, lines 360-395 (code attention_weights.py).

    Checkable form
    --------------
    Train online (AdamW, lr 1e-3, weight decay 0.01) on simple-1STR at N = 8 (quick) / 16 (full) until the test MSE
    is < 0.05 (or max_steps); M = |W_Q^T W_K|: reproduced iff the block's share of ||M||_F^2 is >= 0.8 and the
    diagonal's share of the block's energy is >= 3 times the uniform share 1/d_e.  The heat map of M is drawn.

    Exactness
    ---------
    Statistical, one seeded run (bit-for-bit reproducible); thresholds 0.8 (the catalog's expectation) and 3x
    uniform (diagonal dominance) are far from the measured values (~0.98 and ~6x at N = 16).

    Mutants
    -------
    own-slot-block: the query's own-code block carries almost no energy.

    Notes
    -----
    Tiers: the quick tier is a smoke test of what the full tier shows: N = 8 (d_e = 10), stopped at
    400 steps (25.6k prompts), before the test MSE reaches 0.05 (the run that goes on converges at 73.6k
    prompts, 1150 steps, ~7 s of CPU).  The pattern is already formed there: block share 0.891 (>= 0.8),
    diagonal share 0.368 against 3/d_e = 0.3 (0.44 at convergence); the own-slot block has share 0.029
    (the mutant's case: 0.029 against 0.8).  (At 500 steps, the cap before: 0.935, 0.385 and 0.020;
    at 350 steps 0.839, 0.364 and 0.040; at 300 steps the block share is still 0.75.)  N = 6 is cheaper
    but its diagonal share 0.36 at 500 steps is below its 3/d_e = 0.375.  The quick tier cannot show the
    converged pattern at larger N (full tier N = 16 to convergence; gpu N = 100).
    """
    ev = Evidence("true", rigor=Rigor.STATISTICAL)
    N, d = p["N"], 10
    d_e = max(1, floor(5 * log(N)))
    n, params, _ = _run("tr", N, ctx.seed("fig2") % 2**32, p["max_steps"], True)
    M = np.abs(params["Wq"][0].T @ params["Wk"][0])
    rows = slice(d + d_e, d + 2 * d_e) if st.block == "t-slot x j-slot" else slice(d, d + d_e)
    blk = M[rows, d:d + d_e]
    share = float((blk**2).sum() / (M**2).sum())
    diag = float((np.diag(blk) ** 2).sum() / (blk**2).sum())
    ev.details["prompts to MSE 0.05"] = n
    ev.add({"N": N, "d_e": d_e, "part": "block energy share >= 0.8", "share": share}, share >= 0.8)
    ev.add({"N": N, "d_e": d_e, "part": "diagonal share >= 3/d_e", "diag_share": diag}, diag >= 3 / d_e)
    ev.plots.append({"kind": "heatmap", "title": f"|W_Q^T W_K| after training (N = {N}, d_e = {d_e})",
                     "z": M.tolist(), "x": [str(i) for i in range(M.shape[1])], "y": [str(i) for i in range(M.shape[0])],
                     "zlabel": "|entry|", "series": []})
    return ev.verdict(seed=ctx.seed("fig2"))


# ---------------------------------------------------------------------------------------------
# E35. Theorem 1 / Table 1
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table1:
    ffn_simple_ok: bool = False  # printed: FFN fails on simple-qSTR (n = N d / 2 leaves risk >= 1/2)
    rnn_general_ok: bool = False


@claim(
    id="seed002.theorem_1",
    source=SOURCE,
    label="Theorem 1",
    entry="E35",
    title="Table 1: TR learns qSTR N-free; RNN only simple-qSTR; FFN neither (mechanisms executed)",
    lines=[(41, 47), (74, 87)],
    printed=Table1(),
    parts=[
        Part("tr_qstr", "(i) transformers with H >= q heads learn qSTR (executed witness: Lemma 11 construction, general qSTR)"),
        Part("rnn_simple", "(ii) RNNs learn simple-qSTR almost N-free (executed witness: the Corollary 27 chain)"),
        Part("ffn_simple", "(iii) FFNs need Omega(N d) samples even for simple-qSTR (witness: Theorem 6's oracle risk "
             ">= 1/2 at n = N d/2)"),
        Part("rnn_general", "(ii) RNNs need N^{Omega(1)} samples for qSTR (witness: linear-state analogue D1)"),
        Part("sample_complexities", "the sample-complexity rates of Table 1 (polylog N, N^{Omega(1)}, Omega(N d))",
             asserted=False, reason="informal theorem with hidden constants; each rate is registered separately "
                                    "(attention_bounds, theorem_6, theorem_9) and here only one executed witness per cell"),
        Part("few_heads_fail", "H < q heads fail", asserted=False,
             reason="proved only for H < qd/(q+d) or block-diagonal W_QK: seed002.proposition_3 / proposition_21"),
    ],
    mutants=[Mutant("ffn-learns-simple", "FFN learns simple-1STR with n = N d / 2 samples (risk < 1/2)", Table1(ffn_simple_ok=True)),
             Mutant("rnn-learns-general", "a width-d_h linear-state RNN learns 1STR with d_h = (N-1)/4", Table1(rnn_general_ok=True))],
    expect=Status.MECHANISM,
    rigor=Rigor.MECHANISM,
    kind=Kind.MECHANISM,
)
def check_theorem_1(st: Table1, p, ctx) -> Verdict:
    """Theorem 1 (informal) and Table 1.

    Statement
    ---------
    (i) Transformers with H >= q heads learn qSTR with sample complexity almost independent of N; H < q fails.
    (ii) RNNs learn simple-qSTR almost N-free but need N^{Omega(1)} samples for qSTR.  (iii) FFNs need Omega(N d)
    samples even for simple-qSTR.  Caveats (catalog): "H < q fails" is proved for H < qd/(q+d) or block-diagonal
    W_QK; the FFN bound is for q = 1 and algorithms in A; the RNN bound for q = 1 and min-norm ERM.

    Source
    ------
    Seed 002, Theorem 1, lines 41-47; Table 1, lines 74-87.

    Checkable form
    --------------
    One executed witness per cell: TR on qSTR: the Lemma 11 construction (q = 2, N = 64) on general qSTR has
    error <= 2 sqrt(eps); RNN on simple-qSTR: the Corollary 27 chain is exact at N = 1024; FFN on simple-1STR:
    Theorem 6's oracle sup-risk at n = N d / 2 is >= 1/2 (N = 16, d = 4, random V); RNN on 1STR: the linear-state
    analogue at d_h = (N - 1)/4 has risk >= 3/4 (N = 21).  Each cell's full claim is registered separately
    (seed002.lemma_11, seed002.corollary_27, seed002.theorem_6, seed002.derived_linear_state).

    Exactness
    ---------
    Mechanism; float64 with the allowances of the cited claims.

    Mutants
    -------
    ffn-learns-simple and rnn-learns-general contradict the executed lower bounds.
    """
    ev = Evidence("true", rigor=Rigor.MECHANISM)
    rng = ctx.rng("table1")
    # TR, general qSTR
    N, q, d, eps = 64, 2, 4, 1e-4
    d_e = 80
    codes = assumption3_codes(rng, N, d_e)
    b = sample_qstr(rng, 4, N, d, q)
    x = b.x * np.minimum(1.0, 10.0 / np.linalg.norm(b.x, axis=2, keepdims=True))
    y = np.einsum("anld,ld->an", np.take_along_axis(x[:, :, None, :], b.t.reshape(4, N * q)[:, :, None, None], axis=1).reshape(4, N, q, d), b.u)
    W = lemma11_query_key(d, d_e, q, lemma11_alpha(q, d, 2 * q, 1.0, 10.0, N, eps))
    a, W2, b2 = lemma11_readout_linear(b.u, W.shape[1])
    err = float(np.abs(transformer_forward(encode_transformer(x, b.t, codes), W, a, W2, b2) - y).max())
    ev.add({"cell": "TR / qSTR", "error": err}, err <= 2 * eps**0.5)
    # RNN, simple-qSTR
    codes2 = rademacher_codes(rng, 1024, 120)
    xs = rng.standard_normal((2, 1024, 3))
    ts = rng.integers(0, 1024, size=(2, 2))
    hf, hb, psi = rnn_exact_retrieval(xs, ts, codes2)
    tgt = np.take_along_axis(xs, ts[:, :, None], axis=1)[:, None]
    ev.add({"cell": "RNN / simple-qSTR"}, float(np.abs(hf + hb + psi - tgt).max()) <= 1e-12 * float(np.abs(xs).max()))
    # FFN, simple-1STR at n = N d / 2
    Nf, df = 16, 4
    Q, _ = np.linalg.qr(rng.standard_normal((Nf * df, Nf * df // 2)))
    _, sup, _ = ffn_inspan_risk(Q.T, Nf, df)
    ev.add({"cell": "FFN / simple-1STR", "sup_risk": sup}, (sup < 0.5) if st.ffn_simple_ok else (sup >= 0.5 - 1e-9))
    # RNN, 1STR (linear-state analogue)
    Nr, dr = 21, 2
    u = unit_vectors(rng, 1, dr)[0]
    risk = linear_state_risk(rng.standard_normal(((Nr - 1) // 4, (Nr - 1) * dr)), Nr, dr, u)
    ev.add({"cell": "RNN / 1STR (linear analogue)", "risk": risk}, (risk < 0.75) if st.rnn_general_ok else (risk >= 0.75 - 1e-9))
    return ev.verdict(seed=ctx.seed("table1"))
