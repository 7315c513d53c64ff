"""Lemma 11 (E10): the explicit q-head transformer, executed with its norms, on random codes and on an
adversarial instance where the attention-error bound is tight to first order."""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from math import ceil, e, exp, log, sqrt

import numpy as np

from kernels.sequence.qstr import assumption3_codes, encode_transformer
from kernels.constructions.retrieval_constructions import (
    attention_heads,
    lemma11_alpha,
    lemma11_query_key,
    lemma11_readout_linear,
    two_layer,
)

from ..registry import Evidence, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True


def _adversarial_codes(rng, N, d_e, target):
    """omega_target = 1/sqrt(d_e) * ones; others have a minus-set of size d_e/4 (overlap exactly 1/2 with the
    target) with pairwise minus-set intersections <= d_e/8 (so Assumption 3 holds among them)."""
    k = d_e // 4
    sets = []
    while len(sets) < N - 1:
        s = set(rng.choice(d_e, size=k, replace=False).tolist())
        if all(len(s & o) <= d_e // 8 for o in sets):
            sets.append(s)
    codes = np.ones((N, d_e)) / sqrt(d_e)
    others = [j for j in range(N) if j != target]
    for j, s in zip(others, sets):
        codes[j, list(s)] *= -1
    return codes


@functools.lru_cache(maxsize=4)
def _lemma11_cases(seed: int, n: int, N_max: int, all_eps: bool, alpha_coef: float, alpha_q_power: int, slot: int,
                   heads_minus_q: int) -> tuple:
    """The executed constructions of check_lemma_11 (cached on what they depend on: the statement's alpha and
    construction fields, not its bound coefficients, so the bound mutants re-read the printed statement's runs).
    One record per (N, q, eps, instance): (N, q, eps, instance, alpha, d_e, r_x, r_a, r_w, m, head error,
    ((link, output error), ...), norms per link on the random instance at eps = 1e-4 (else None))."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    d = 4
    out = []
    Ns = [N for N in (8, 16, 64, 256, 1024, 4096) if N <= N_max]
    for N in Ns:
        d_e = 8 * ceil((ceil(16 * log(N)) + 8) / 8)  # multiple of 8: the adversarial overlaps are exactly 1/2
        r_x = sqrt(3 * e * d * log(n * N))
        for q in (1, 2, 3):
            u = rng.standard_normal((q, d))
            u /= np.linalg.norm(u, axis=1, keepdims=True)
            v = u[0]
            m = 2 * q
            for eps in ((1e-2, 1e-4, 1e-6) if all_eps else (1e-4,)):
                r_a, r_w = 2.0 * q, 1.0
                alpha = (alpha_coef * q ** alpha_q_power / d
                         * log(2 * r_a * r_w * r_x * N * sqrt(q) / sqrt(eps)))
                W = lemma11_query_key(d, d_e, q, alpha, slot=slot)
                H = q + heads_minus_q
                D = W.shape[1]
                readouts = {"linear": lemma11_readout_linear(u, D), "tight": _tight_readout(v, q, D, r_a, r_w, m)}
                for inst in ("random", "adversarial"):
                    if inst == "random":
                        codes = assumption3_codes(rng, N, d_e)
                        x = rng.standard_normal((n, N, d))
                        nrm = np.linalg.norm(x, axis=2, keepdims=True)
                        x = np.where(nrm > r_x, x * (r_x / nrm), x)
                        t = rng.integers(0, N, size=(n, N, q))
                    else:
                        if N > 256 or eps != 1e-4:
                            continue
                        tgt = int(rng.integers(0, N))
                        codes = _adversarial_codes(rng, N, d_e, tgt)  # d_e is a multiple of 8 here
                        x = np.broadcast_to(-r_x * v, (1, N, d)).copy()
                        x[0, tgt] = r_x * v
                        t = np.full((1, N, q), tgt)
                    Z = encode_transformer(x, t, codes)
                    heads = (attention_heads(Z, W[:H], backend="cpu" if N >= 64 else "numpy") if H > 0
                             else np.zeros((x.shape[0], N, 0, D)))
                    target = np.take_along_axis(x[:, :, None, :], t.reshape(x.shape[0], N * q)[:, :, None, None],
                                                axis=1).reshape(x.shape[0], N, q, d)
                    head_err = float(np.linalg.norm(heads[..., :d] - target[:, :, :H], axis=3).max()) if H > 0 else 0.0
                    tz = np.zeros((x.shape[0], N, q * D))
                    for l in range(q):
                        tz[:, :, l * D: l * D + d] = target[:, :, l]
                    links, norms = [], ({} if inst == "random" and eps == 1e-4 else None)
                    for link, (a, W2, b2) in readouts.items():
                        yhat = two_layer(heads.reshape(x.shape[0], N, H * D), a, W2[:, : H * D], b2)  # the H heads present
                        g = two_layer(tz, a, W2, b2)  # the exact link on the retrieved tokens
                        links.append((link, float(np.abs(yhat - g).max())))
                        if norms is not None:
                            norms[link] = (float(np.linalg.norm(W[0], axis=0).sum()), float(np.linalg.norm(a)),
                                           float(np.sqrt(np.linalg.norm(W2) ** 2 + np.linalg.norm(b2) ** 2)),
                                           W[:H].shape[0])
                    out.append((N, q, eps, inst, alpha, d_e, r_x, r_a, r_w, m, head_err, tuple(links), norms))
    return tuple(out)


@dataclass(frozen=True)
class Lemma11Statement:
    alpha_coef: float = 2.0  # alpha = (alpha_coef q^alpha_q_power / d) log(2 r_a r_w r_x N sqrt(q)/sqrt(eps))
    alpha_q_power: int = 1
    exponent_den: float = 2.0  # head error bound head_coef (N-1) r_x e^{-alpha d/(exponent_den q)}
    head_coef: float = 2.0
    out_coef: float = 2.0  # sup |g - y_hat| <= out_coef sqrt(eps_2NN)
    norm_coef: float = 2.0  # ||W_QK^(h)||_{2,1} <= (norm_coef q d_e/d) log(...)
    a_factor: float = 1.0  # ||a_2NN||_2 <= a_factor r_a/sqrt(m)
    w_factor: float = 1.0  # ||(W_2NN, b_2NN)||_F <= w_factor sqrt(m) r_w
    heads_minus_q: int = 0  # H = q + heads_minus_q heads
    slot: int | None = None  # query slot carrying alpha I (None: omega_{t_ih}; 0: the query's own code)


def _tight_readout(v: np.ndarray, q: int, D: int, r_a: float, r_w: float, m: int):
    """Assumption-2 network at its norm bounds with Lipschitz constant exactly r_a r_w: a = (r_a/m) 1_m, every row
    of W equal to r_w (v, ..., v)/sqrt(q) on the q heads' x-parts, b = 0; g = r_a sigma(r_w sum_l <v, x_l>/sqrt q)."""
    d = v.shape[0]
    W2 = np.zeros((m, q * D))
    for l in range(q):
        W2[:, l * D: l * D + d] = r_w * v / sqrt(q)
    return np.full(m, r_a / m), W2, np.zeros(m)


_L11 = Lemma11Statement()


@claim(
    id="seed002.lemma_11",
    source=SOURCE,
    label="Lemma 11",
    entry="E10",
    title="The explicit q-head transformer approximates qSTR within 2 sqrt(eps) with ||W_QK||_{2,1} = alpha d_e",
    lines=[(667, 739)],
    printed=_L11,
    parts=[
        Part("output_error", "sup_{||x_j|| <= r_x} |g(x_{t_i1}, ..., x_{t_iq}) - y_hat_i| <= 2 sqrt(eps_2NN)", inequality=True),
        Part("head_error", "proof: ||A f_Attn(p; W_QK^(h))_i - x_{t_ih}|| <= 2 (N-1) r_x e^{-alpha d/(2q)}, "
             "alpha = (2q/d) log(2 r_a r_w r_x N sqrt(q)/sqrt(eps_2NN))", inequality=True),
        Part("wqk_norm", "||W_QK^(h)||_{2,1} <= (2 q d_e/d) log(2 r_a r_w r_x N sqrt(q)/sqrt(eps_2NN)) for all h",
             inequality=True),
        Part("a_norm", "||a_2NN||_2 <= r_a/sqrt(m)", inequality=True),
        Part("w_norm", "||(W_2NN, b_2NN)||_F <= sqrt(m) r_w", inequality=True),
        Part("heads", "H = q heads, m_g = m (the construction's sizes)"),
    ],
    mutants=[
        Mutant("alpha-without-q", "alpha = (2/d) log(...) (factor q dropped)", replace(_L11, alpha_q_power=0)),
        Mutant("exponent-alpha-d/q", "attention error bound with e^{-alpha d/q}", replace(_L11, exponent_den=1.0)),
        Mutant("own-code-slot", "alpha I placed in the query's omega_i slot", replace(_L11, slot=0)),
        Mutant("q-1-heads", "H = q - 1 heads (one retrieved token missing)", replace(_L11, heads_minus_q=-1),
               origin="second-reader"),
        Mutant("alpha-coef-1", "alpha = (q/d) log(...) (the 2 dropped): attention error e^{-alpha d/(2q)} = "
               "(...)^{-1/2}, on the tight instance the output error exceeds 2 sqrt(eps)", replace(_L11, alpha_coef=1.0),
               origin="second-reader"),
        Mutant("output-x0.9", "|g - y_hat| <= 0.9 sqrt(eps) (factor 0.45): the tight readout on the adversarial codes "
               "reaches 0.47 x 2 sqrt(eps) = 0.94 sqrt(eps) (N = 16, q = 1)", replace(_L11, out_coef=0.9),
               near_boundary=True, part="output_error", origin="second-reader"),
        Mutant("head-x0.96", "head error bound 0.96 x 2 (N-1) r_x e^{-alpha d/(2q)}: the adversarial instance reaches "
               "(1 + (N-1) e^{-beta})^{-1} > 0.99 of it", replace(_L11, head_coef=1.92), near_boundary=True,
               part="head_error", origin="second-reader"),
        Mutant("norm-x0.99", "||W_QK||_{2,1} <= 0.99 x (2 q d_e/d) log(...): the construction has exactly alpha d_e",
               replace(_L11, norm_coef=1.98), near_boundary=True, part="wqk_norm", origin="second-reader"),
        Mutant("a-norm-x0.99", "||a|| <= 0.99 r_a/sqrt m: the linear-link readout (r_a = 2q, m = 2q) has ||a|| = sqrt(2q)",
               replace(_L11, a_factor=0.99), near_boundary=True, part="a_norm", origin="second-reader"),
        Mutant("w-norm-x0.99", "||(W, b)||_F <= 0.99 sqrt(m) r_w: the readouts have exactly sqrt(m) r_w",
               replace(_L11, w_factor=0.99), near_boundary=True, part="w_norm", origin="second-reader"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("N_max", int, 8, 4096), Param("prompts", int, 1, 10**5),
            Param("all_eps", bool, doc="eps in {1e-2, 1e-4, 1e-6} (else 1e-4 only)")],
    tiers={"quick": {"N_max": 16, "prompts": 2, "all_eps": False}, "full": {"N_max": 64, "prompts": 10, "all_eps": True},
           "gpu": {"N_max": 1024, "prompts": 20, "all_eps": True}},
)
def check_lemma_11(st: Lemma11Statement, p, ctx) -> Verdict:
    """Lemma 11: explicit q-head transformer for qSTR.

    Statement
    ---------
    [R for the W_QK norm.]  Under Assumption 2, r_x = sqrt(3 C_x e d log(nN)), H = q, m = m_g: there is
    Theta_TR with sup_{||x_j|| <= r_x} |g(x_{t_i1..t_iq}) - y_hat_i| <= 2 sqrt(eps_2NN) for all i and t,
    ||a|| <= r_a/sqrt(m), ||(W, b)||_F <= sqrt(m) r_w, ||W_QK^(h)||_{2,1} <= (2 q d_e/d) log(2 r_a r_w r_x N
    sqrt(q)/sqrt(eps)).  Intermediate: each head's x-part is within 2 (N-1) r_x e^{-alpha d/(2q)} of x_{t_ih}.

    Source
    ------
    Seed 002, Lemma 11, lines 667-676; proof (construction (A.2)) lines 678-739.

    Checkable form
    --------------
    Every part is asserted against the construction as the paper builds it (alpha of line 700ff, W_QK^(h) =
    alpha I in the (omega_{t_ih} slot, key omega_j slot) block, (A.2); H = q + heads_minus_q heads; a_2NN, W_2NN
    from Assumption 2, zero-extended).  Two exact Assumption-2 links (eps_2NN = 0, target eps in
    {1e-2, 1e-4, 1e-6} in alpha; quick: 1e-4 only): the linear link g = sum_l <u_l, x_l> (r_a = 2q, r_w = 1, m = 2q, claim E03) and
    the "tight" link g = r_a sigma(r_w sum_l <v, x_l>/sqrt q) (a = (r_a/m) 1, rows r_w (v, ..., v)/sqrt q: both
    norms at their bounds and Lipschitz constant exactly r_a r_w).  Prompts with tokens clipped to the r_x ball,
    codes satisfying Assumption 3 (d_e = ceil(16 ln N) + 8 rounded up to a multiple of 8), q in {1, 2, 3}, N up
    to N_max; and the adversarial instance (all t_il = t, <omega_t, omega_j> = 1/2 for every j != t, x_t = r_x v,
    x_j = -r_x v) where the head error is 2 r_x (N-1) e^{-beta}/(1 + (N-1) e^{-beta}), beta = alpha d/(2q).
    Norms ||W^(h)||_{2,1}, ||a||_2, ||(W, b)||_F computed from the matrices.  tests/sparse_retrieval/
    test_attention_construction_audit.py property-tests the construction (hypothesis) on random N, q, d, eps.

    Exactness
    ---------
    float64 (softmax with max subtraction; for N >= 64 the numba twin of the attention kernel, equal to the
    numpy reference up to rounding); errors of size >= 1e-9 are compared with bounds >= 1e-4; the
    allowance is 1e-12 relative.

    Mutants
    -------
    alpha-without-q: on the adversarial instance (q >= 2) the output error exceeds 2 sqrt(eps).
    exponent-alpha-d/q: the adversarial head error exceeds 2 (N-1) r_x e^{-alpha d/q}.  own-code-slot: every
    head attends to the query itself, error O(r_x).  q-1-heads: head q is missing, so g loses <u_q, x_{t_iq}>
    (error O(r_x)).  alpha-coef-1: the tight readout's adversarial error is ~ r_a r_w sqrt(q) 2 (N-1) r_x
    e^{-beta} with e^{-beta} = (2 r_a r_w r_x N sqrt q/sqrt eps)^{-1/2} >> sqrt(eps).  Near-boundary
    (output-x0.9, head-x0.96, norm-x0.99, a-norm-x0.99, w-norm-x0.99): each just beyond the sharpness found
    (Notes), rejected on the case recorded there.

    Notes
    -----
    Sharpness (quick, N <= 16): head_error ~0.99+ (adversarial codes, the first-order tight instance:
    ratio 1/(1 + (N-1) e^{-beta})); wqk_norm, a_norm, w_norm exactly 1 (the construction sits on its
    bounds); output_error ~0.47 with the tight readout on the adversarial codes: with eps_2NN = 0 the
    attention error alone is (N-1)/N/(1 + (N-1) e^{-beta}) x sqrt(eps), i.e. half the printed 2 sqrt(eps) (the
    other half is reserved for eps_2NN, which an exact link does not use).  The linear link alone reached only
    ~0.23 (q = 1; its Lipschitz constant sqrt(2q) < r_a r_w = 2q): the old check's sharpness for the output bound.
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    d = 4
    for rec in _lemma11_cases(ctx.seed("lemma11"), p["prompts"], p["N_max"], p["all_eps"], st.alpha_coef,
                              st.alpha_q_power, st.slot, st.heads_minus_q):
        N, q, eps, inst, alpha, d_e, r_x, r_a, r_w, m, head_err, links, norms = rec
        bound_head = st.head_coef * (N - 1) * r_x * exp(-alpha * d / (st.exponent_den * q))
        for link, out_err in links:
            case = {"N": N, "q": q, "eps": eps, "codes": inst, "link": link, "alpha": alpha, "d_e": d_e}
            if link == "linear":
                ev.add(case, head_err, bound_head * (1 + 1e-12), part="head_error")
            ev.add(case, out_err, st.out_coef * sqrt(eps), part="output_error")
            if norms is not None:
                norm21, a_norm, w_norm, n_heads = norms[link]
                ev.add(case, norm21, st.norm_coef * q * d_e / d
                       * log(2 * r_a * r_w * r_x * N * sqrt(q) / sqrt(eps)) * (1 + 1e-12), part="wqk_norm")
                ev.add(case, a_norm, st.a_factor * r_a / sqrt(m) * (1 + 1e-12), part="a_norm")
                ev.add(case, w_norm, st.w_factor * sqrt(m) * r_w * (1 + 1e-12), part="w_norm")
                ev.add(dict(case, part="heads"), n_heads, q, relation="eq")
    return ev.verdict(seed=ctx.seed("lemma11"))
