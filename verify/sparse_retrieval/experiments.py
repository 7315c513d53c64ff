"""Theorem 1 / Table 1 (E35) and the experiments: Figure 1 (E36, sample complexity against N) and Figure 2
(E37, trained attention weights against construction (A.2)), re-run at CPU sizes with
kernels.training.retrieval.online_sample_complexity (plain numpy, AdamW, seeded).

Differences from the authors' code (mousavih/transformers-separation), stated in the claims: the transformer
has separate W_Q, W_K, 1/sqrt(D) scaling and no value/output projection (torch MultiheadAttention has both);
the FFN has one hidden layer of width 512 (theirs: N d and 1000); test prompts follow the training law (their
script tests on simple-1STR also for 1STR runs); 1000 test prompts (theirs 5000).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from math import floor, log

import numpy as np

from kernels.qstr import (
    assumption3_codes,
    encode_transformer,
    rademacher_codes,
    sample_qstr,
    unit_vectors,
)
from kernels.retrieval_constructions import (
    ffn_inspan_risk,
    lemma11_alpha,
    lemma11_query_key,
    lemma11_readout_linear,
    linear_state_risk,
    rnn_exact_retrieval,
    transformer_forward,
)
from kernels.training.retrieval import online_sample_complexity

from ..registry import Evidence, Kind, Mutant, Param, Rigor, Status, Verdict, claim
from . import SOURCE

# reference means read from the authors' notebook figure (catalog E36, +-1k)
_REF_1A = {
    "tr": {2: 3100, 4: 5700, 6: 10600, 8: 14600, 10: 15800, 12: 17300},
    "ffn": {2: 2500, 4: 9100, 6: 20300, 8: 40000, 10: 66100, 12: 115300},
}


@functools.lru_cache(maxsize=64)
def _run(arch: str, N: int, seed: int, max_steps: int, simple: bool = False):
    """One seeded training run (cached: the printed statement and its mutants read the same runs)."""
    if simple:
        return online_sample_complexity(arch, N, seed, simple=True, threshold=0.05, max_steps=max_steps,
                                        check_every=50, test_prompts=500, return_params=True)
    return online_sample_complexity(arch, N, seed, max_steps=max_steps)


@dataclass(frozen=True)
class Figure1Claim:
    ffn_growth_min: float = 2.0  # n_FFN(N_max)/n_FFN(2) exceeds this (printed: grows fast with N)
    ffn_flat: bool = False  # mutant: FFN sample complexity N-independent


@claim(
    id="seed002.figure_1",
    source=SOURCE,
    label="Figure 1",
    entry="E36",
    title="1STR: transformer sample complexity grows slowly with N, the FFN's fast (CPU re-run, N <= 8)",
    lines=[(85, 99)],
    printed=Figure1Claim(),
    mutants=[Mutant("ffn-flat", "FFN sample complexity independent of N (growth <= 2x)", Figure1Claim(ffn_flat=True))],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[Param("N_max", int, 2, 12), Param("seeds", int, 1, 5), Param("max_steps", int, 100, 20000)],
    tiers={"quick": {"N_max": 4, "seeds": 1, "max_steps": 600}, "full": {"N_max": 8, "seeds": 1, "max_steps": 1500},
           "gpu": {"N_max": 12, "seeds": 5, "max_steps": 5000}},
)
def check_figure_1(st: Figure1Claim, p, ctx) -> Verdict:
    """Figure 1 (a): sample complexity against N for transformer and feedforward networks on 1STR.

    Statement
    ---------
    Online AdamW (lr 1e-3, weight decay 0.01, batch 64), d = 10, linear link, codes with d_e = floor(5 ln N),
    threshold 0.7 on the test MSE: the transformer's sample count grows slowly with N while the FFN's grows fast
    (reference means, catalog E36: TR 3.1k, 5.7k, 10.6k, 14.6k at N = 2, 4, 6, 8; FFN ~2.5k, 9.1k, 20.3k, ~40k).

    Source
    ------
    Seed 002, Figure 1 caption and text, lines 85-99 (experiment code: mousavih/transformers-separation).

    Checkable form
    --------------
    Re-run (kernels.training.retrieval.online_sample_complexity) for N in {2, 4, 8} (up to N_max), ``seeds``
    seeds; median sample counts per (architecture, N).  Reproduced iff (a) at N_max the transformer needs fewer
    samples than the FFN, (b) the FFN's growth n(N_max)/n(2) exceeds 2 and the transformer's growth, (c) every
    measured median at N >= 4 is within a factor 3 of the reference mean.  The figure plots both curves with the
    references.

    Exactness
    ---------
    Statistical, seeded (bit-for-bit reproducible on one machine); the factor-3 band covers the authors' own
    run-to-run spread (about +-20% at N = 12) plus the architectural differences listed in the module docstring.
    A run that does not reach the threshold within max_steps counts as max_steps * 64 (a lower bound).

    Mutants
    -------
    ffn-flat: the FFN's growth from N = 2 to N_max is far above 2.
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
    ev.plots.append({
        "title": "Figure 1a re-run: prompts to reach test MSE 0.7 on 1STR", "xlabel": "N", "ylabel": "prompts", "logy": True,
        "series": [
            {"x": Ns, "y": [med["tr", N] for N in Ns], "label": "transformer (re-run)", "style": "o-"},
            {"x": Ns, "y": [med["ffn", N] for N in Ns], "label": "FFN (re-run)", "style": "s-"},
            {"x": sorted(_REF_1A["tr"]), "y": [_REF_1A["tr"][N] for N in sorted(_REF_1A["tr"])], "label": "transformer (paper)", "style": "o--"},
            {"x": sorted(_REF_1A["ffn"]), "y": [_REF_1A["ffn"][N] for N in sorted(_REF_1A["ffn"])], "label": "FFN (paper)", "style": "s--"},
            {"x": Ns, "y": [0.3 * N * 10 for N in Ns], "label": "Theorem 6 FFN lower bound (1-0.7) N d", "style": ":"},
        ],
    })
    return ev.verdict(seed=ctx.seed("tr-2-0"))


@dataclass(frozen=True)
class AttentionPattern:
    block: str = "t-slot x j-slot"  # query's omega_{t_i} slot against key's omega_j slot; mutant: own-code slot


@claim(
    id="seed002.figure_2",
    source=SOURCE,
    label="Figure 2",
    entry="E37",
    title="Trained W_Q^T W_K concentrates on the (omega_t slot x omega_j slot) block, near-diagonal, as in (A.2)",
    lines=[(360, 395)],
    printed=AttentionPattern(),
    mutants=[Mutant("own-slot-block", "the mass sits in the query's own-code block (omega_i x omega_j)", AttentionPattern("i-slot x j-slot"))],
    expect=Status.REPRODUCED,
    rigor=Rigor.STATISTICAL,
    kind=Kind.EMPIRICAL,
    params=[Param("N", int, 4, 128), Param("max_steps", int, 100, 20000)],
    tiers={"quick": {"N": 8, "max_steps": 1500}, "full": {"N": 16, "max_steps": 3000}, "gpu": {"N": 100, "max_steps": 20000}},
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
