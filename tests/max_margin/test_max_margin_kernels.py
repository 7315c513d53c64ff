"""kernels.algebra.margin, kernels.training.quadratic_margin and proofs.max_margin: constructions as property
tests on random instances, numba trainer against its numpy reference, input validation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels.algebra import margin as K
from tests.cuda_support import cuda_test
from kernels.algebra.groups import group_by_name
from kernels.training.quadratic_margin import lr_schedule, train_quadratic_margin
from proofs import max_margin as PR

odd = st.integers(1, 20).map(lambda k: 2 * k + 1)


def _naive_logits(U, V, W):
    m, n = U.shape
    F = np.zeros((n, n, n))
    for i in range(m):
        for a in range(n):
            for b in range(n):
                F[a, b] += (U[i, a] + V[i, b]) ** 2 * W[i]
    return F


@given(st.integers(1, 6), st.integers(2, 7), st.integers(0, 2**32 - 1))
def test_logits_match_naive_loop(m, n, seed):
    U, V, W = np.random.default_rng(seed).standard_normal((3, m, n))
    assert np.allclose(K.quadratic_logits(U, V, W, chunk=3), _naive_logits(U, V, W), rtol=1e-12, atol=1e-12)


@given(odd, st.integers(0, 2**32 - 1))
def test_cyclic_construction_phase_shifts_keep_gamma(p, seed):
    rng = np.random.default_rng(seed)
    shifts = {z: tuple(rng.uniform(0, 2 * math.pi, 2)) for z in range(1, (p - 1) // 2 + 1)}
    U, V, W = K.cyclic_construction(p, shifts=shifts)
    perm = rng.permutation(len(U))
    info = K.normalized_margin(K.cyclic_table(p), U[perm], V[perm], W[perm])
    assert abs(info["normalized"] / K.cyclic_gamma(p) - 1) < 1e-11
    assert info["wrong_spread"] < 1e-11


@given(st.integers(3, 9), st.integers(0, 2**32 - 1))
def test_random_unit_neurons_stay_below_gamma(p, seed):
    """Weak duality (Lemma 7.5): no unit neuron beats the single-neuron maximum."""
    rng = np.random.default_rng(seed)
    tau = np.r_[0.0, np.full(p - 1, 1.0 / (p - 1))]
    z = rng.standard_normal(3 * p)
    z /= np.linalg.norm(z)
    val = K.neuron_weighted_margin(K.cyclic_table(p), tau, z[:p], z[p:2 * p], z[2 * p:])
    bound = 4 / ((p - 1) * p * p) * (p / 6) ** 1.5 * (math.sqrt(2) if p % 2 == 0 else 1.0)
    assert val <= bound * (1 + 1e-12)


@given(st.sampled_from(["S3", "S4", "D4", "D5", "Z2^3", "S3xZ2"]), st.integers(0, 2**32 - 1))
def test_group_construction_invariant_under_basis_change(name, seed):
    G = group_by_name(name)
    rng = np.random.default_rng(seed)
    irreps = []
    for R in G.irreps:
        d = R.shape[1]
        Q = np.linalg.qr(rng.standard_normal((d, d)))[0]
        irreps.append(np.einsum("ji,gjk,kl->gil", Q, R, Q))
    object.__setattr__(G, "irreps", tuple(irreps))
    U, V, W = K.group_trace_construction(G)
    info = K.normalized_margin(G.mul, U, V, W)
    assert abs(info["normalized"] / K.group_gamma(G.dims) - 1) < 1e-10


def test_game_value_of_known_matrix():
    val, nu, dual = K.game_value(np.array([[1.0, 0.0], [0.0, 1.0]]))  # matching pennies-like
    assert abs(val - 0.5) < 1e-12 and np.allclose(nu, [0.5, 0.5]) and np.allclose(dual, [0.5, 0.5])


def test_parity_construction_margin_equals_gamma():
    for n, k in [(4, 2), (6, 3)]:
        X, y = K.parity_cube(n, range(k))
        U, Wout = K.parity_construction(n, k, list(range(k)))
        g = K.parity_margins(U, Wout, k, X, y)
        cost = np.sum((np.sum(U**2, 1) + np.sum(Wout**2, 1)) ** ((k + 1) / 2))
        assert abs(g.min() / cost / (math.factorial(k) * math.sqrt(2 * (k + 1) ** (-(k + 1)))) - 1) < 1e-12


@given(st.integers(2, 6), st.integers(1, 8), st.integers(0, 2**32 - 1))
def test_trainer_numba_matches_reference(n, m, seed):
    rng = np.random.default_rng(seed)
    mul = group_by_name("S3").mul if n == 6 else K.cyclic_table(n)
    kw = {"steps": 12, "lr": 0.05, "lr_double_at": (4, 8), "weight_decay": 1e-3, "seed": int(rng.integers(0, 1000)), "record_every": 5}
    a = train_quadratic_margin(mul, m, backend="reference", **kw)
    b = train_quadratic_margin(mul, m, backend="cpu", **kw)
    assert np.array_equal(a.record_steps, b.record_steps)
    assert np.allclose(a.U, b.U, rtol=1e-10, atol=1e-12) and np.allclose(a.W, b.W, rtol=1e-10, atol=1e-12)
    assert np.allclose(a.loss, b.loss, rtol=1e-10) and np.allclose(a.normalized_margin, b.normalized_margin, rtol=1e-9, atol=1e-14)


def test_trainer_reaches_gamma_on_z5():
    r = train_quadratic_margin(K.cyclic_table(5), 24, steps=20000, lr=0.05, lr_double_at=range(1000, 10001, 1000),
                               weight_decay=1e-4, seed=0, record_every=5000)
    assert r.diverged_at == -1
    assert np.nanmax(r.normalized_margin) <= K.cyclic_gamma(5) * (1 + 1e-9)
    assert r.normalized_margin[-1] >= K.cyclic_gamma(5) * (1 - 1e-6)


def test_lr_schedule_doubles():
    assert lr_schedule(6, 0.5, [2, 4]).tolist() == [0.5, 0.5, 1.0, 1.0, 2.0, 2.0]


@pytest.mark.parametrize("kwargs", [
    {"m": 0}, {"steps": -1}, {"lr": 0.0}, {"weight_decay": -1.0}, {"record_every": 0}, {"backend": "gpu"},
])
def test_trainer_validation(kwargs):
    base = {"m": 3, "steps": 2, "lr": 0.1, "weight_decay": 0.0, "record_every": 1}
    base.update(kwargs)
    with pytest.raises(ValueError, match="argument"):
        train_quadratic_margin(K.cyclic_table(3), **base)


def test_margin_validation():
    with pytest.raises(ValueError, match="argument 'mul'"):
        K.group_margins(np.zeros((2, 2, 2)), np.zeros((2, 3)))
    with pytest.raises(ValueError, match="argument 'V'"):
        K.quadratic_logits(np.zeros((2, 3)), np.zeros((2, 4)), np.zeros((2, 3)))
    with pytest.raises(ValueError, match="argument 'tau'"):
        K.single_neuron_max(K.cyclic_table(3), np.ones(3), restarts=1, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="argument 'support'"):
        K.parity_cube(4, [0, 7])
    with pytest.raises(ValueError, match="argument 'freqs'"):
        K.cyclic_construction(7, freqs=[4])


def test_proofs():
    assert PR.root_of_unity_sum_residual() == (0, 0)
    assert PR.b5_residual(3) == 0 and PR.b5_residual(4) == 0
    assert PR.b5_residual(3, conjugate=False) != 0
    # the wrong identity's residual: its number of terms (the case value of fourier_identity_D3's mutant w(j)) at p = 3..5
    assert [len(PR.b5_residual(q, conjugate=False).as_ordered_terms()) for q in (3, 4, 5)] == [12, 16, 40]
    assert PR.cyclic_gamma_chain_residual() == 0
    assert PR.group_construction_residual() == 0
    assert PR.parity_gamma_residual() == 0
    assert PR.parity_construction_residual(3) == 0 and PR.parity_construction_residual(3, sign_factor=False) != 0


@given(st.sampled_from(["S3", "D4", "D5", "S3xZ2"]), st.integers(0, 2**32 - 1))
def test_random_group_neurons_stay_below_gamma(name, seed):
    """Lemma 7.5 with the Lemma D.14 weights: no unit neuron beats gamma*(G) (Thm 7.9 groups)."""
    G = group_by_name(name)
    tau = K.tau_from_classes(G, K.lemma_d14_tau(G))
    z = np.random.default_rng(seed).standard_normal(3 * G.order)
    z /= np.linalg.norm(z)
    n = G.order
    assert K.neuron_weighted_margin(G.mul, tau, z[:n], z[n:2 * n], z[2 * n:]) <= K.group_gamma(G.dims) * (1 + 1e-12)


def test_certificate_on_cyclic_construction():
    p = 5
    U, V, W = K.cyclic_construction(p)
    tau = np.r_[0.0, np.full(p - 1, 1 / (p - 1))]
    c = K.certificate(K.cyclic_table(p), U, V, W, tau, K.cyclic_gamma(p))
    assert abs(c["per_neuron_ratio_min"] - 1) < 1e-12 and abs(c["per_neuron_ratio_max"] - 1) < 1e-12
    assert c["margin_spread"] < 1e-12 and c["wrong_spread"] < 1e-12
    assert abs(c["normalized"] / K.cyclic_gamma(p) - 1) < 1e-12


@cuda_test
def test_trainer_cuda_matches_reference_under_simulator():
    kw = {"steps": 3, "lr": 0.05, "lr_double_at": (2,), "weight_decay": 1e-3, "seed": 5, "record_every": 1}
    a = train_quadratic_margin(K.cyclic_table(3), 2, backend="reference", **kw)
    b = train_quadratic_margin(K.cyclic_table(3), 2, backend="cuda", **kw)
    assert np.allclose(a.U, b.U, rtol=1e-10, atol=1e-13) and np.allclose(a.W, b.W, rtol=1e-10, atol=1e-13)
    assert np.allclose(a.loss, b.loss, rtol=1e-10) and np.allclose(a.normalized_margin, b.normalized_margin, rtol=1e-9)


@cuda_test
@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # the point of the test
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_trainer_cuda_detects_divergence_between_record_steps():
    """Z_3 at lr = 50 diverges at step 8, between the records at 5 and 10: every twin must stop there
    (the CUDA twin used to notice only at the next record step, 10, after recording a NaN loss)."""
    kw = {"steps": 20, "lr": 50.0, "weight_decay": 1e-3, "seed": 0, "record_every": 5}
    res = [train_quadratic_margin(K.cyclic_table(3), 2, backend=b, **kw) for b in ("reference", "cpu", "cuda")]
    for r in res:
        assert r.diverged_at == 8 and list(r.record_steps) == [0, 5], r
        assert np.all(np.isfinite(r.loss))
    assert not np.all(np.isfinite(res[2].U)) or not np.all(np.isfinite(res[2].W))


def test_cyclic_run_cache_ignores_how_defaults_are_passed():
    """verify.max_margin.training.cyclic_run: a call naming its defaults reads the run of a call that does not."""
    from verify.max_margin import training as T

    a = T.cyclic_run(5, 4, 10)
    assert T.cyclic_run(5, 4, 10, backend="cpu") is a
    assert T.cyclic_run(5, 4, 10, lam=1e-4, seed=T.SEED) is a
    assert T.cyclic_run(5, 4, 11) is not a
