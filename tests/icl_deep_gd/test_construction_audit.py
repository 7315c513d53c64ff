"""Second-reader property tests (hypothesis) of the (2N+4)-layer ICGD block of seed 001 on random instances:
the printed size bounds asserted against the construction as the paper builds it, and the per-stage bounds
with the corrected radius (docs/audit/seed001_construction.md)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.constructions import gd_transformer as T
from verify.icl_deep_gd import _block as B
from verify.icl_deep_gd.construction import ETA
from verify.icl_deep_gd.construction_theorem import run_blocks

REL = 1e-9

instances = st.builds(
    lambda seed, act, N, K, d_in, d_out, n: B.random_instance(np.random.default_rng(seed), "hyp", act, N, K, d_in, d_out, n),
    st.integers(0, 2**31 - 1), st.sampled_from(("tanh", "softplus", "sin")), st.integers(2, 3), st.integers(2, 3),
    st.integers(1, 2), st.integers(1, 3), st.integers(2, 5))


@settings(max_examples=12, deadline=None)
@given(instances, st.sampled_from((8, 32)))
def test_block_sizes_and_stage_bounds(inst, H):
    ap = B.approximants(inst, H, H, radius="corrected")
    res = B.run_block(inst, ap, ETA)
    layers, N, n = res["layers"], inst.N, inst.n
    # depth of one block: N forward, r', loss MLP, N EWML, GD step, projection
    assert len(layers) == 2 * N + 4
    # Lemma 2: (3.9) and the printed norm 1 + K C_1 (attained by the forward layers j < N)
    for j in range(1, N + 1):
        err = float(np.linalg.norm(res["p_hat"][j][:n] - res["P"][j][:n], axis=1).max())
        assert err <= B.lemma2_coeff(inst, j) * ap.eps_r * (1 + REL) + 1e-15
        groups = inst.K if j < N else inst.d_out
        assert math.isclose(T.layer_norm_B(layers[j - 1]), 1 + groups * ap.r_hat.C, rel_tol=1e-9)
        # the printed 1 + K C_1 holds for every layer iff d <= K (layer N has d groups)
        assert (T.layer_norm_B(layers[j - 1]) <= (1 + inst.K * ap.r_hat.C) * (1 + REL)) == (groups <= inst.K)
    # Lemma 3: (3.13); the r' layer's norm is 1 + ((N-1)K + d) C_2 (the printed 1 + K(N-1) C_2 omits d C_2)
    lhs = max(float(np.abs(res["rp_hat"][j][:n] - res["rp"][j][:n]).max()) for j in range(1, N + 1))
    a = inst.activation
    assert lhs <= (ap.eps_rp + a.lip_prime * inst.Bv * B.E_r(inst) * ap.eps_r) * (1 + REL) + 1e-15
    assert math.isclose(T.layer_norm_B(layers[N]), 1 + ((N - 1) * inst.K + inst.d_out) * ap.rp_hat.C, rel_tol=1e-9)
    assert T.layer_norm_B(layers[N]) > 1 + inst.K * (N - 1) * ap.rp_hat.C
    # Lemmas 4-5: the test token is switched off
    assert float(np.abs(res["g"][n]).max()) == 0.0
    assert max(float(np.abs(res["s_hat"][j][n]).max()) for j in range(1, N + 1)) == 0.0
    # Lemma 5's printed B_theta <= 1 fails for the EWML layers as built (1 + K or 1 + d)
    assert min(T.layer_norm_B(layers[N + 2 + j]) for j in range(N)) > 1
    # Lemma 6 corrected (2-norm) bounds and Theorem 1's bound with the corrected radius
    tb = B.instance_bounds(inst, ap, res)
    Bs, e = B.corrected_s_bounds(inst.P, N, inst.d_out, tb["B_r'"], inst.Bv, tb["B_l"], a.lip_prime, 2.0, B.E_r(inst),
                                 ap.eps_r, ap.eps_rp, ap.eps_l)
    for j in range(1, N + 1):
        assert float(np.linalg.norm(res["s_hat"][j][:n], axis=1).max()) <= Bs[j] * (1 + REL)
        assert float(np.linalg.norm(res["s_hat"][j][:n] - res["S"][j], axis=1).max()) <= e[j] * (1 + REL) + 1e-15
    bounds = B.theorem1_bounds(inst, ap, tb)
    err = float(np.linalg.norm(res["grad_hat"] - res["grad"]))
    assert err <= bounds["corrected"] * (1 + REL) and err <= bounds["printed"] * (1 + REL)


@settings(max_examples=6, deadline=None)
@given(instances)
def test_block_output_format_over_two_blocks(inst):
    ap = B.approximants(inst, 16, 16, radius="corrected")
    w0 = np.random.default_rng(0).uniform(-inst.box, inst.box, size=sum(int(np.prod(s)) for s in T.Layout(
        inst.N, inst.K, inst.d_in, inst.d_out).shapes))
    lay, _layers, Hs = run_blocks(inst, ap, ETA, 2, w0)
    fixed = np.r_[np.arange(lay.x, lay.w), [lay.one, lay.t]]
    for H in Hs[1:]:
        assert np.array_equal(H[fixed], Hs[0][fixed])
        assert float(np.abs(H[lay.scratch]).max()) == 0.0
        wsl = H[lay.w:lay.w + lay.offsets[-1]]
        assert float(np.ptp(wsl, axis=1).max()) == 0.0
        assert float(np.abs(wsl[:, 0]).max()) <= inst.box
