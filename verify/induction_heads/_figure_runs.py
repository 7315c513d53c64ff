"""Seeded transformer trainings shared by the figure claims of thesis ch. 8 / App. E (``figures``).

A piece of a sweep is :func:`train_block`: one block of seeds of the attention-only transformer
(kernels.training.induction.train_transformer_runs, the numba twin of the numpy reference
``train_transformer``) trained on the counter-based ICL-MC stream, evaluated at evenly spaced checkpoints on a
fixed evaluation set of ICL-MC chains (last-token KL against the true next-token law, as the thesis's
figures, App. E.2 line 6032) and against the add-one uniform / unigram / bigram strategies.  It returns small
arrays only (curves, attention statistics and the attention matrices of one display chain), so that a
cluster task sends back little; it is cached (functools.lru_cache on hashable arguments), so that the
printed statement and the mutants of a claim train once.  Run r's result depends on its seed alone
(kernels.training._induction_cpu), so blocks merged in order are the bits of one call.
"""

from __future__ import annotations

import functools

import numpy as np

from kernels.sequence.markov_icl import last_token_kl, sample_chains, sample_transition_matrices, strategy_predictions
from kernels.training.induction import train_transformer_runs, transformer_logits

STRATEGIES = ("uniform", "unigram", "bigram")


@functools.lru_cache(maxsize=8)
def eval_set(seed: int, k: int, t: int, n: int):
    """n ICL-MC chains of length t (Dirichlet(1) rows, stationary start), the true next-token rows of their last
    tokens, and the add-one strategies' last-token predictions with their KL levels."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    P = sample_transition_matrices(rng, k, n)
    x = sample_chains(rng, P, t)
    row = P[np.arange(n), x[:, -1]]
    q = {s: strategy_predictions(x, k, s, P) for s in STRATEGIES}
    levels = {s: float(last_token_kl(row, q[s]).mean()) for s in STRATEGIES}
    return x, row, q, levels


def _softmax_rows(z: np.ndarray) -> np.ndarray:
    z = z - z.max(-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(-1, keepdims=True)


def checkpoints(steps: int, n_ck: int) -> np.ndarray:
    return np.linspace(0, steps, n_ck + 1).round().astype(np.int64)


def _attention_stats(cache: list, x: np.ndarray, layers: int):
    """Attention of the trained model on chains x (n, t): the mean layer-1 weight on the previous token (query i
    >= 2 to key i - 1) and, for layers >= 2, the mean last-query layer-2 weight on the keys j with x_{j-1} = x_t
    (the successors of earlier occurrences of the current token: the construction of Prop. 8.2), over the chains
    with at least one such key; plus the uniform-attention baselines of both quantities."""
    n, t = x.shape
    a1 = cache[0][4]  # (n, t, t)
    prev = float(np.mean(a1[:, np.arange(1, t), np.arange(0, t - 1)]))
    prev_uniform = float(np.mean(1.0 / np.arange(2, t + 1)))
    if layers < 2:
        return prev, prev_uniform, float("nan"), float("nan")
    a2 = cache[1][4][:, -1, :]  # (n, t): last query
    succ = np.zeros((n, t), dtype=bool)
    succ[:, 1:] = x[:, :-1] == x[:, -1:]
    has = succ.any(1)
    mass = float(np.mean((a2 * succ).sum(1)[has]))
    base = float(np.mean(succ.sum(1)[has] / t))
    return prev, prev_uniform, mass, base


@functools.lru_cache(maxsize=32)
def train_block(k: int, d: int, t: int, layers: int, steps: int, lr: float, n_ck: int, seeds: tuple,
                eval_seed: int, eval_n: int) -> dict:
    """Train the seeds of one block (one run per seed) and evaluate them at n_ck + 1 checkpoints.

    Returns arrays with a leading run axis: kl (R, C) the last-token KL on the evaluation set, dist (R, 3, C)
    KL(strategy || model) for uniform, unigram, bigram, prev (R, C) the layer-1 previous-token weight, succ
    (R, C) the layer-2 last-query weight on successor keys, att1 / att2 (R, C, t, t) the attention matrices of
    evaluation chain 0, diverged (R,); and cks, levels, the baselines prev_uniform and succ_uniform."""
    cks = checkpoints(steps, n_ck)
    res = train_transformer_runs(np.array(seeds, dtype=np.uint64), k, d, t, steps, layers=layers, lr=lr, checkpoints=cks)
    x, row, q, levels = eval_set(eval_seed, k, t, eval_n)
    R, C = len(seeds), len(cks)
    kl, dist = np.zeros((R, C)), np.zeros((R, len(STRATEGIES), C))
    prev, succ = np.zeros((R, C)), np.zeros((R, C))
    att1, att2 = np.zeros((R, C, t, t)), np.zeros((R, C, t, t))
    pu = su = float("nan")
    for r in range(R):
        for i in range(C):
            params = {key: val[r, i] for key, val in res.params_at.items()}
            lg, cache = transformer_logits(params, x)
            m = _softmax_rows(lg[:, -1])
            kl[r, i] = last_token_kl(row, m).mean()
            for j, s in enumerate(STRATEGIES):
                dist[r, j, i] = last_token_kl(q[s], m).mean()
            prev[r, i], pu, succ[r, i], su = _attention_stats(cache, x, layers)
            att1[r, i] = cache[0][4][0]
            if layers >= 2:
                att2[r, i] = cache[1][4][0]
    return {"cks": cks, "levels": levels, "kl": kl, "dist": dist, "prev": prev, "succ": succ, "att1": att1, "att2": att2,
            "prev_uniform": pu, "succ_uniform": su, "diverged": res.diverged.copy(), "chain": x[0].copy()}


def merge(blocks: list[dict]) -> dict:
    """The blocks of one sweep, concatenated along the run axis (the shared entries from the first block)."""
    out = dict(blocks[0])
    for key in ("kl", "dist", "prev", "succ", "att1", "att2", "diverged"):
        out[key] = np.concatenate([b[key] for b in blocks])
    return out


NGRAM_STRATEGIES = ("uniform", "unigram", "bigram", "trigram")


@functools.lru_cache(maxsize=4)
def ngram_eval_set(seed: int, k: int, order: int, t: int, n: int):
    """n in-context n-gram chains of length t (kernels.sequence.markov_icl.sample_ngram_chains), the true next-token
    rows of their last contexts, and the add-one 0..3-gram strategies' predictions with their KL levels."""
    from kernels.sequence.markov_icl import sample_ngram_chains

    rng = np.random.default_rng(np.random.SeedSequence(seed))
    Q, x = sample_ngram_chains(rng, k, order, n, t)
    ctx = np.zeros(n, dtype=np.int64)
    for r in range(order - 1):
        ctx = ctx * k + x[:, t - order + 1 + r]
    row = Q[np.arange(n), ctx]
    q = {s: (strategy_predictions(x, k, "uniform") if o == 0 else strategy_predictions(x, k, "ngram", order=o))
         for o, s in enumerate(NGRAM_STRATEGIES)}
    levels = {s: float(last_token_kl(row, q[s]).mean()) for s in NGRAM_STRATEGIES}
    return x, row, q, levels


@functools.lru_cache(maxsize=16)
def train_ngram_block(k: int, order: int, d: int, t: int, heads: int, layers: int, steps: int, lr: float, n_ck: int,
                      seeds: tuple, eval_seed: int, eval_n: int) -> dict:
    """Train the seeds of one block of multi-head transformers on in-context n-grams
    (kernels.training.ngram_heads.train_multihead_runs) and evaluate them at n_ck + 1 checkpoints: kl (R, C) and
    dist (R, 4, C) KL(strategy || model) for the uniform, unigram, bigram, trigram strategies; cks, levels,
    diverged."""
    from kernels.training.ngram_heads import multihead_logits, train_multihead_runs

    cks = checkpoints(steps, n_ck)
    res = train_multihead_runs(np.array(seeds, dtype=np.uint64), k, d, t, steps, heads=heads, layers=layers, order=order, lr=lr,
                               checkpoints=cks)
    x, row, q, levels = ngram_eval_set(eval_seed, k, order, t, eval_n)
    R, C = len(seeds), len(cks)
    kl, dist = np.zeros((R, C)), np.zeros((R, len(NGRAM_STRATEGIES), C))
    for r in range(R):
        for i in range(C):
            lg, _ = multihead_logits({key: val[r, i] for key, val in res.params_at.items()}, x)
            m = _softmax_rows(lg[:, -1])
            kl[r, i] = last_token_kl(row, m).mean()
            for j, s in enumerate(NGRAM_STRATEGIES):
                dist[r, j, i] = last_token_kl(q[s], m).mean()
    return {"cks": cks, "levels": levels, "kl": kl, "dist": dist, "diverged": res.diverged.copy()}
