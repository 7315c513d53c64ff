"""Second-reader property tests (hypothesis) of the recurrent retrieval construction (seed 002, roadmap of
App. C.1 lines 1255-1310, Corollary 27 lines 1632-1647): Psi's identity, the one-sided exact zeros, the
reconstruction at every position with hidden width q d, and the state norm <= sqrt(q) r_x (projection inactive)."""

from __future__ import annotations

from math import ceil, log, sqrt

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.sequence.qstr import assumption3_codes
from kernels.constructions.retrieval_constructions import rnn_exact_retrieval


@settings(max_examples=15, deadline=None)
@given(N=st.integers(2, 40), q=st.integers(1, 4), d=st.integers(1, 5), r_x=st.floats(0.1, 10.0),
       seed=st.integers(0, 2**31 - 1))
def test_rnn_retrieval_construction(N, q, d, r_x, seed):
    rng = np.random.default_rng(seed)
    codes = assumption3_codes(rng, N, ceil(16 * log(max(N, 2))) + 8)
    n = 3
    x = rng.standard_normal((n, N, d))
    x *= r_x * rng.uniform(0, 1, (n, N, 1)) / np.linalg.norm(x, axis=2, keepdims=True)  # ||x_j|| <= r_x
    t = rng.integers(0, N, size=(n, q))
    hf, hb, psi = rnn_exact_retrieval(x, t, codes)
    assert hf.shape[2] * hf.shape[3] == q * d  # d_h = q d
    target = np.take_along_axis(x, t[:, :, None], axis=1)  # (n, q, d)
    tol = 1e-12 * max(1.0, float(np.abs(x).max()))
    ii = np.arange(N)[None, :, None]
    hit = ii == t[:, None, :]
    assert np.abs(psi - np.where(hit[..., None], x[:, :, None, :], 0.0)).max() <= tol  # Psi = x_i 1[t_l = i]
    assert np.all(hf[~(t[:, None, :] < ii)] == 0.0)  # exact zeros: t_l >= i
    assert np.all(hb[~(t[:, None, :] > ii)] == 0.0)  # t_l <= i
    assert np.abs(hf + hb + psi - target[:, None]).max() <= tol
    for h in (hf, hb):
        assert np.linalg.norm(h.reshape(n, N, -1), axis=2).max() <= sqrt(q) * r_x * (1 + 1e-12)
