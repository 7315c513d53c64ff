"""Seeded trainings evaluated on several test distributions of Markov chains (thesis App. E, Fig. E.6; Sec. 8.3.1,
Fig. 8.4 (a)), shared by the claims of ``figures_distributions``.

* :func:`prior_eval_set`: n chains of length t under one prior of kernels.sequence.markov_icl
  (``sample_transition_matrices(..., prior=...)``: 'dirichlet' the ICL-MC task, 'iid' i.i.d. tokens (all rows
  equal), 'doubly' uniformly random doubly-stochastic matrices), the true next-token rows of the last tokens and
  the add-one uniform / unigram / bigram strategies' KL levels.
* :func:`train_tf_block`: a block of seeds of the attention-only transformer trained on the ICL-MC stream
  (kernels.training.induction.train_transformer_runs), evaluated at evenly spaced checkpoints on the evaluation
  sets of several priors (last-token KL against the true next-token law, App. E.2 line 6032).
* :func:`train_minimal_block`: the same for the softmax minimal model (train_softmax_minimal_runs).
* :func:`train_prior_tf_block`: a block of transformers trained on a stream whose samples follow per-position
  priors (kernels.training.induction_priors: doubly-stochastic, unigram, mixtures; Fig. 8.4 (a)).

Blocks are cached (functools.lru_cache), so the printed statement and the mutants train once; run r depends on
its seed alone, so blocks merged in order are the bits of one call.
"""

from __future__ import annotations

import functools

import numpy as np

from kernels.sequence.markov_icl import last_token_kl, sample_chains, sample_transition_matrices, strategy_predictions
from kernels.training.induction import softmax_minimal_forward, train_softmax_minimal_runs, train_transformer_runs, transformer_logits

from ._figure_runs import STRATEGIES, checkpoints

PRIORS = ("dirichlet", "iid", "doubly")


@functools.lru_cache(maxsize=16)
def prior_eval_set(seed: int, k: int, t: int, n: int, prior: str):
    """n chains of length t under ``prior`` (stationary start), their true last-token rows and the strategy levels."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, PRIORS.index(prior)]))
    P = sample_transition_matrices(rng, k, n, prior=prior)
    x = sample_chains(rng, P, t)
    row = P[np.arange(n), x[:, -1]]
    levels = {s: float(last_token_kl(row, strategy_predictions(x, k, s, P)).mean()) for s in STRATEGIES}
    return x, row, levels


def _softmax_rows(z: np.ndarray) -> np.ndarray:
    z = z - z.max(-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(-1, keepdims=True)


def _stacked(eval_seed: int, k: int, t: int, n: int, priors: tuple):
    sets = [prior_eval_set(eval_seed, k, t, n, pr) for pr in priors]
    return np.concatenate([s[0] for s in sets]), [s[1] for s in sets], {pr: s[2] for pr, s in zip(priors, sets)}


def _kl_per_prior(lg_last: np.ndarray, rows: list, n: int) -> np.ndarray:
    m = _softmax_rows(lg_last)
    return np.array([float(last_token_kl(rows[j], m[j * n:(j + 1) * n]).mean()) for j in range(len(rows))])


@functools.lru_cache(maxsize=16)
def train_tf_block(k: int, d: int, t: int, steps: int, lr: float, n_ck: int, seeds: tuple, eval_seed: int, eval_n: int,
                   priors: tuple = PRIORS) -> dict:
    """Transformers on the ICL-MC stream; kl (R, len(priors), C) the last-token KL on each prior's evaluation set."""
    cks = checkpoints(steps, n_ck)
    res = train_transformer_runs(np.array(seeds, dtype=np.uint64), k, d, t, steps, lr=lr, checkpoints=cks)
    x, rows, levels = _stacked(eval_seed, k, t, eval_n, priors)
    R, C = len(seeds), len(cks)
    kl = np.zeros((R, len(priors), C))
    for r in range(R):
        for i in range(C):
            lg, _ = transformer_logits({key: val[r, i] for key, val in res.params_at.items()}, x)
            kl[r, :, i] = _kl_per_prior(lg[:, -1], rows, eval_n)
    return {"cks": cks, "levels": levels, "kl": kl, "diverged": res.diverged.copy()}


@functools.lru_cache(maxsize=16)
def train_minimal_block(k: int, t: int, steps: int, lr: float, n_ck: int, seeds: tuple, eval_seed: int, eval_n: int,
                        priors: tuple = PRIORS) -> dict:
    """Softmax minimal models (Adam from W = 0, v = 0, beta = 0) on the ICL-MC stream; kl as train_tf_block."""
    cks = checkpoints(steps, n_ck)
    res = train_softmax_minimal_runs(np.array(seeds, dtype=np.uint64), k, t, steps, lr=lr, checkpoints=cks)
    x, rows, levels = _stacked(eval_seed, k, t, eval_n, priors)
    R, C = len(seeds), len(cks)
    kl = np.zeros((R, len(priors), C))
    for r in range(R):
        for i in range(C):
            lg, _ = softmax_minimal_forward(x, k, res.W_at[r, i], res.v_at[r, i], float(res.beta_at[r, i]))
            kl[r, :, i] = _kl_per_prior(lg[:, -1], rows, eval_n)
    return {"cks": cks, "levels": levels, "kl": kl, "diverged": res.diverged.copy()}


def merge_runs(blocks: list[dict]) -> dict:
    """Blocks of one sweep concatenated along the run axis (shared entries from the first block)."""
    out = dict(blocks[0])
    for key in ("kl", "diverged"):
        out[key] = np.concatenate([b[key] for b in blocks])
    return out


@functools.lru_cache(maxsize=16)
def train_prior_tf_block(k: int, d: int, t: int, steps: int, lr: float, n_ck: int, codes: tuple, seeds: tuple, eval_seed: int,
                         eval_n: int, priors: tuple = ("dirichlet", "doubly")) -> dict:
    """Transformers trained on the per-position prior stream ``codes`` (kernels.training.induction_priors: 0 ICL-MC rows,
    1 unigram chains, 2 doubly stochastic); kl (R, len(priors), C) on each prior's evaluation set; ds_per_step the
    doubly-stochastic samples of one batch."""
    from kernels.training.induction_priors import PRIOR_CODES, train_transformer_prior_runs

    cks = checkpoints(steps, n_ck)
    res = train_transformer_prior_runs(np.array(seeds, dtype=np.uint64), k, d, t, steps, np.array(codes, dtype=np.int64), lr=lr,
                                       checkpoints=cks)
    x, rows, levels = _stacked(eval_seed, k, t, eval_n, priors)
    R, C = len(seeds), len(cks)
    kl = np.zeros((R, len(priors), C))
    for r in range(R):
        for i in range(C):
            lg, _ = transformer_logits({key: val[r, i] for key, val in res.params_at.items()}, x)
            kl[r, :, i] = _kl_per_prior(lg[:, -1], rows, eval_n)
    return {"cks": cks, "levels": levels, "kl": kl, "diverged": res.diverged.copy(),
            "ds_per_step": int(sum(c == PRIOR_CODES["doubly"] for c in codes))}
