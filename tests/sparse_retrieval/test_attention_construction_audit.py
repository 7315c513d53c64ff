"""Second-reader property tests (hypothesis) of Lemma 11's q-head construction (seed 002, lines 667-739), as
the paper builds it: every printed size bound (H = q heads, ||W_QK^(h)||_{2,1}, ||a||, ||(W, b)||_F) and the
two error bounds on random instances (N, q, d, eps, codes, prompts drawn by hypothesis)."""

from __future__ import annotations

from math import ceil, e, exp, log, sqrt

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.sequence.qstr import assumption3_codes, encode_transformer
from kernels.constructions.retrieval_constructions import attention_heads, lemma11_query_key, lemma11_readout_linear, two_layer
from verify.sparse_retrieval.attention_construction import _tight_readout


@settings(max_examples=12, deadline=None)
@given(N=st.integers(4, 20), q=st.integers(1, 3), d=st.integers(2, 6), log_eps=st.floats(-14.0, -4.0),
       seed=st.integers(0, 2**31 - 1), tight=st.booleans())
def test_lemma11_construction_meets_its_printed_bounds(N, q, d, log_eps, seed, tight):
    rng = np.random.default_rng(seed)
    eps, n = exp(log_eps), 2
    d_e = ceil(16 * log(N)) + 8
    r_x = sqrt(3 * e * d * log(n * N))
    r_a, r_w, m = 2.0 * q, 1.0, 2 * q
    alpha = 2 * q / d * log(2 * r_a * r_w * r_x * N * sqrt(q) / sqrt(eps))
    W = lemma11_query_key(d, d_e, q, alpha)
    D = W.shape[1]
    assert W.shape[0] == q  # H = q
    assert D == d + (q + 1) * d_e
    for h in range(q):  # ||W^(h)||_{2,1} = alpha d_e = (2 q d_e/d) log(...)
        assert abs(np.linalg.norm(W[h], axis=0).sum() - 2 * q * d_e / d * log(2 * r_a * r_w * r_x * N * sqrt(q) / sqrt(eps))) \
            <= 1e-9 * alpha * d_e
    u = rng.standard_normal((q, d))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    a, W2, b2 = _tight_readout(u[0], q, D, r_a, r_w, m) if tight else lemma11_readout_linear(u, D)
    assert np.linalg.norm(a) <= r_a / sqrt(m) * (1 + 1e-12)
    assert sqrt(np.linalg.norm(W2) ** 2 + np.linalg.norm(b2) ** 2) <= sqrt(m) * r_w * (1 + 1e-12)
    codes = assumption3_codes(rng, N, d_e)
    x = rng.standard_normal((n, N, d)) * rng.uniform(0.5, 3.0)
    nrm = np.linalg.norm(x, axis=2, keepdims=True)
    x = np.where(nrm > r_x, x * (r_x / nrm), x)
    t = rng.integers(0, N, size=(n, N, q))
    heads = attention_heads(encode_transformer(x, t, codes), W)
    target = np.take_along_axis(x[:, :, None, :], t.reshape(n, N * q)[:, :, None, None], axis=1).reshape(n, N, q, d)
    head_err = np.linalg.norm(heads[..., :d] - target, axis=3).max()
    assert head_err <= 2 * (N - 1) * r_x * exp(-alpha * d / (2 * q)) * (1 + 1e-12)
    tz = np.zeros((n, N, q * D))
    for l in range(q):
        tz[:, :, l * D: l * D + d] = target[:, :, l]
    out_err = np.abs(two_layer(heads.reshape(n, N, q * D), a, W2, b2) - two_layer(tz, a, W2, b2)).max()
    assert out_err <= 2 * sqrt(eps)
