"""Transformers trained on Markov chains drawn from several priors (thesis Sec. 8.3.1, Fig. 8.4 (a); seed 004 lines
1850-1852, 1879, 1890): uniformly random doubly-stochastic transition matrices (the unigram strategy is as good as
uniform), 'unigram' chains (all rows equal to one r ~ Dir(1): i.i.d. tokens, the unigram strategy is Bayes optimal)
and the ICL-MC rows ~ Dir(1), mixed within a batch by a per-position prior code.

* **Data stream** (:func:`prior_batch`): sample b of batch ``step`` of seed s is a pure function of (s, step, b,
  codes[b]), drawn from the counter-based Philox stream ``kernels.rng.counter_u64(s, step, index)`` with indices
  from base = b 2^32: base + 0 the first state, base + 1 .. base + L - 1 the transitions (inverse CDF), base + L
  onward the uniforms of the matrix (Dirichlet(1) rows as normalised exponentials -log(1 - U), k per row).
  Code 0 ('dirichlet'): k rows, first state from the stationary law (Gaussian elimination, as
  kernels.training._induction_cpu); code 1 ('unigram'): one row r repeated, first state ~ r; code 2 ('doubly'): the
  rejection sampler of kernels.sequence.markov_icl (rows of the (k-1) x (k-1) block uniform on the corner simplex,
  accepted iff the completion is doubly stochastic; repeated with the next uniforms until accepted), first state
  uniform (the stationary law of a doubly-stochastic matrix).
* **Trainer** (:func:`train_transformer_prior_runs`): the attention-only transformer of
  kernels.training.induction (its loss and gradient ``transformer_loss_grad_seq``, Adam with the reference's
  constants), one run per seed, batch = len(codes) and step s on prior_batch(seed, s, k, codes, t + 1).
* **References**: :func:`prior_batch_reference` (Python ints through kernels.rng.counter_u64_ref, numpy's stationary
  law) and the ``backend="reference"`` trainer (kernels.training.induction.train_transformer, numpy, on the reference
  batches).
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np
from numba import prange
from numba.extending import register_jitable

from kernels._checks import require_int, require_memory

from ..rng import counter_u64, counter_u64_ref, unit_double, unit_double_ref
from ._common import require_recording_memory, validate_adamw_run_args, validate_seeds
from ._induction_cpu import _categorical, _stationary_into, adamw_step, tf_workspace, transformer_loss_grad_seq
from .induction import TransformerRunsResult, _tf_shapes, _tf_unpack, init_transformer, train_transformer

__all__ = ["PRIOR_CODES", "prior_batch", "prior_batch_reference", "train_transformer_prior_runs"]

#: prior name -> code of the per-position ``codes`` array
PRIOR_CODES = {"dirichlet": 0, "unigram": 1, "doubly": 2}
_STRIDE = 1 << 32  # counter indices per sample
_K_MAX = 5  # doubly-stochastic rejection sampling: ~7.5% acceptance at k = 5 (kernels.sequence.markov_icl)


@register_jitable
def _dirichlet_row(seed, st, idx, k, row):  # pragma: no cover - compiled
    tot = 0.0
    for j in range(k):
        e = -math.log(1.0 - unit_double(counter_u64(seed, st, np.uint64(idx + j))))
        row[j] = e
        tot += e
    for j in range(k):
        row[j] /= tot


@register_jitable
def prior_sample_into(seed, st, base, code, k, out, P, M, pi, row):  # pragma: no cover - compiled
    """Fill out (L,) and P (k, k) with sample ``base // 2^32`` of (seed, st) under prior ``code``; M (k, k+1), pi (k),
    row (k) are workspace."""
    L = out.shape[0]
    m = base + L
    if code == 0:
        for i in range(k):
            _dirichlet_row(seed, st, m + i * k, k, row)
            for j in range(k):
                P[i, j] = row[j]
        _stationary_into(P, k, M, pi)
    elif code == 1:
        _dirichlet_row(seed, st, m, k, row)
        for i in range(k):
            for j in range(k):
                P[i, j] = row[j]
        for j in range(k):
            pi[j] = row[j]
    else:
        while True:
            for i in range(k - 1):
                _dirichlet_row(seed, st, m, k, row)
                m += k
                for j in range(k - 1):
                    P[i, j] = row[j]
            tot = 0.0
            ok = True
            for j in range(k - 1):
                cs = 0.0
                for i in range(k - 1):
                    cs += P[i, j]
                    tot += P[i, j]
                if cs > 1.0:
                    ok = False
            if ok and tot >= k - 2:
                break
        for i in range(k - 1):
            rs = 0.0
            for j in range(k - 1):
                rs += P[i, j]
            P[i, k - 1] = 1.0 - rs
        for j in range(k - 1):
            cs = 0.0
            for i in range(k - 1):
                cs += P[i, j]
            P[k - 1, j] = 1.0 - cs
        P[k - 1, k - 1] = tot - (k - 2)
        for j in range(k):
            pi[j] = 1.0 / k
    x = _categorical(unit_double(counter_u64(seed, st, np.uint64(base))), pi, k)
    out[0] = x
    for s in range(1, L):
        x = _categorical(unit_double(counter_u64(seed, st, np.uint64(base + s))), P[x], k)
        out[s] = x


@register_jitable
def prior_batch_into(seed, step, k, codes, out, Ps, M, pi, row):  # pragma: no cover - compiled
    st = np.uint64(step)
    for b in range(out.shape[0]):
        prior_sample_into(seed, st, b * _STRIDE, codes[b], k, out[b], Ps[b], M, pi, row)


@nb.njit(cache=True, error_model="numpy")
def _prior_batch_jit(seed, step, k, codes, length):  # pragma: no cover - compiled
    out = np.empty((codes.shape[0], length), dtype=np.int64)
    Ps = np.empty((codes.shape[0], k, k))
    prior_batch_into(np.uint64(seed), step, k, codes, out, Ps, np.empty((k, k + 1)), np.empty(k), np.empty(k))
    return out, Ps


def _validate_codes(codes) -> np.ndarray:
    c = np.asarray(codes)
    if c.ndim != 1 or len(c) < 1 or not np.issubdtype(c.dtype, np.integer) or c.min() < 0 or c.max() > 2:
        raise ValueError(f"argument 'codes' must be a non-empty 1-D array of prior codes in {{0, 1, 2}} ({PRIOR_CODES}), not {codes!r}")
    return c.astype(np.int64)


def prior_batch(seed: int, step: int, k: int, codes, length: int) -> tuple[np.ndarray, np.ndarray]:
    """Batch ``step`` of the counter-based stream ``seed``: chains (len(codes), length) and their transition matrices
    (len(codes), k, k), sample b under prior codes[b] (PRIOR_CODES); compiled, a pure function of its arguments."""
    seed = require_int("seed", seed, min_value=0, max_value=2**64 - 1)
    step = require_int("step", step, min_value=0, max_value=2**62)
    k = require_int("k", k, min_value=2, max_value=_K_MAX)
    length = require_int("length", length, min_value=1, max_value=100_000)
    codes = _validate_codes(codes)
    require_memory("codes", codes.shape, 8 * len(codes) * (length + k * k), what="the chains")
    return _prior_batch_jit(np.uint64(seed), step, k, codes, length)


def _u(seed: int, step: int, index: int) -> float:
    return unit_double_ref(counter_u64_ref(seed, step, index))


def _draw(u: float, p) -> int:
    acc = 0.0
    for j in range(len(p) - 1):
        acc += float(p[j])
        if u < acc:
            return j
    return len(p) - 1


def prior_batch_reference(seed: int, step: int, k: int, codes, length: int) -> tuple[np.ndarray, np.ndarray]:
    """The reference of :func:`prior_batch`: Python ints through kernels.rng.counter_u64_ref, the stationary law of
    code 0 by numpy's eigen-solver, the doubly-stochastic acceptance by kernels.sequence.markov_icl.doubly_accept
    and its completion by complete_doubly (slow: for tests)."""
    from kernels.sequence.markov_icl import complete_doubly, doubly_accept

    codes = _validate_codes(codes)
    out = np.empty((len(codes), length), dtype=np.int64)
    Ps = np.empty((len(codes), k, k))

    def row(idx):
        e = [-math.log(1.0 - _u(seed, step, idx + j)) for j in range(k)]
        tot = 0.0
        for v in e:
            tot += v
        return [v / tot for v in e]

    for b, code in enumerate(codes.tolist()):
        base = b * _STRIDE
        m = base + length
        if code == 0:
            P = np.array([row(m + i * k) for i in range(k)])
            w, V = np.linalg.eig(P.T)
            pi = np.real(V[:, np.argmin(np.abs(w - 1))])
            pi = pi / pi.sum()
        elif code == 1:
            P = np.array([row(m)] * k)
            pi = P[0]
        else:
            while True:
                B = np.array([row(m + i * k)[: k - 1] for i in range(k - 1)])
                m += (k - 1) * k
                if doubly_accept(B[None])[0]:
                    break
            P = complete_doubly(B[None])[0]
            pi = np.full(k, 1.0 / k)
        Ps[b] = P
        x = _draw(_u(seed, step, base), pi)
        out[b, 0] = x
        for s in range(1, length):
            x = _draw(_u(seed, step, base + s), P[x])
            out[b, s] = x
    return out, Ps


@register_jitable
def _train_one(seed, theta, k, d, t, L, steps, codes, lr, wd, checkpoints, th_at, losses):  # pragma: no cover - compiled
    """Adam (m = 0.9 m + 0.1 g, s = 0.999 s + 0.001 g^2, bias-corrected, decoupled weight decay) on
    prior_batch(seed, step, k, codes, t + 1); theta updated in place; returns True if a parameter overflowed."""
    n = theta.shape[0]
    batch = codes.shape[0]
    g, m, v2 = np.zeros(n), np.zeros(n), np.zeros(n)
    xb = np.empty((batch, t + 1), dtype=np.int64)
    Ps, M, pi, row = np.empty((batch, k, k)), np.empty((k, k + 1)), np.empty(k), np.empty(k)
    ws = tf_workspace(k, d, t, L, 1)
    norm = 1.0 / (batch * t)
    ci = 0
    for step in range(steps + 1):
        if ci < checkpoints.shape[0] and checkpoints[ci] == step:
            for i in range(n):
                th_at[ci, i] = theta[i]
            ci += 1
        if step == steps:
            break
        prior_batch_into(seed, step, k, codes, xb, Ps, M, pi, row)
        g.fill(0.0)
        loss = 0.0
        for b in range(batch):
            loss += transformer_loss_grad_seq(theta, g, xb[b], k, d, t, L, norm, ws)
        losses[step] = loss
        if not adamw_step(theta, m, v2, g, lr, wd, step):
            return True
    return False


@nb.njit(parallel=True, cache=True, error_model="numpy")
def _train_runs(seeds, theta, k, d, t, L, steps, codes, lrs, wd, checkpoints, th_at, losses, diverged):  # pragma: no cover - compiled
    for r in prange(seeds.shape[0]):
        diverged[r] = _train_one(seeds[r], theta[r], k, d, t, L, steps, codes, lrs[r], wd, checkpoints, th_at[r], losses[r])


def train_transformer_prior_runs(seeds, k: int, d: int, t: int, steps: int, codes, *, layers: int = 2, lr=1e-3,
                                 weight_decay: float = 0.0, init_scale: float = 0.02, checkpoints=(),
                                 backend: str = "cpu") -> TransformerRunsResult:
    """Adam training of the attention-only transformer, one run per seed: run r starts from
    init_transformer(default_rng(SeedSequence(seeds[r])), k, d, t, layers, init_scale) (as
    kernels.training.induction.train_transformer_runs) and trains at step s on prior_batch(seeds[r], s, k, codes, t + 1)
    (batch len(codes)).  backend "cpu" (numba, prange over runs) or "reference" (numpy trainer on
    prior_batch_reference)."""
    seeds = validate_seeds(seeds)
    k = require_int("k", k, min_value=2, max_value=_K_MAX)
    d = require_int("d", d, min_value=1, max_value=256)
    t = require_int("t", t, min_value=2, max_value=2000)
    steps = require_int("steps", steps, min_value=0, max_value=10**7)
    layers = require_int("layers", layers, min_value=1, max_value=8)
    codes = _validate_codes(codes)
    runs = len(seeds)
    lrs, wd, scale, cks = validate_adamw_run_args(lr, weight_decay, init_scale, checkpoints, steps, runs, backend)
    shapes = _tf_shapes(k, d, t, layers)
    n = sum(a * b for _, (a, b) in shapes)
    C = len(cks)
    require_recording_memory(8 * runs * (n * (C + 1) + steps), f"{runs} runs x {C} checkpoints")
    require_memory("codes", (len(codes), t), 8 * len(codes) * t * (t + 4 * d) * layers, what="the activations")
    theta = np.zeros((runs, n))
    for r in range(runs):
        p0 = init_transformer(np.random.default_rng(np.random.SeedSequence(int(seeds[r]))), k, d, t, layers, scale)
        theta[r] = np.concatenate([p0[name].ravel() for name, _ in shapes])
    th_at = np.zeros((runs, C, n))
    losses = np.full((runs, steps), np.nan)
    diverged = np.zeros(runs, dtype=np.bool_)
    if backend == "cpu":
        _train_runs(seeds, theta, k, d, t, layers, steps, codes, lrs, wd, cks, th_at, losses, diverged)
    else:
        pos = {int(c): i for i, c in enumerate(cks)}
        for r in range(runs):
            counter = [0]

            def sample(_rng, _b, r=r, counter=counter):
                counter[0] += 1
                return prior_batch_reference(int(seeds[r]), counter[0] - 1, k, codes, t + 1)[0]

            def record(params, r=r, counter=counter):
                i = pos.get(counter[0])
                if i is not None:
                    th_at[r, i] = np.concatenate([params[name].ravel() for name, _ in shapes])

            out, _ = train_transformer(None, sample, _tf_unpack(theta[r], k, d, t, layers), steps, batch=len(codes),
                                       lr=float(lrs[r]), weight_decay=wd, eval_every=1, evaluate=record)
            theta[r] = np.concatenate([out[name].ravel() for name, _ in shapes])
    return TransformerRunsResult(_tf_unpack(theta, k, d, t, layers), cks, _tf_unpack(th_at, k, d, t, layers), losses, diverged,
                                 backend)
