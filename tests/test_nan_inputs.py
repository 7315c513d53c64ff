"""Kernels reject NaN and infinite inputs where the mathematics is undefined (issue 19, item 5).

Each case is a public kernel, valid arguments, and one argument to poison (one entry of an array, or a
scalar) with NaN, +inf and -inf: the call must raise ValueError naming that argument.  The shared check
is kernels._checks.require_finite.  Kernels owned by other work (kernels/boolean/wht.py, kernels/backend.py,
kernels/cuda/*, kernels/training/two_layer.py, kernels/training/quadratic_margin.py) are audited at the end of
this file; the CUDA launchers are private and receive arguments their public wrappers validated.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from kernels import Activation
from kernels._checks import require_finite
from kernels.boolean.population_gradient import neuron_table, population_gradient


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_population_gradient_rejects_non_finite_w_and_b(bad):
    w = np.ones(5)
    w[2] = bad
    with pytest.raises(ValueError, match=r"argument 'w' must be finite, but w\[2\]"):
        population_gradient(w, 0.5, [0, 1], Activation.step(), backend="reference")
    with pytest.raises(ValueError, match="argument 'b' must be a finite real number"):
        population_gradient(np.ones(5), bad, [0, 1], Activation.step(), backend="reference")
    with pytest.raises(ValueError, match="argument 'w' must be finite"):
        neuron_table(w, 0.5, Activation.step(), backend="reference")


def test_require_finite_passes_exact_and_integer_inputs_unchanged():
    a = np.arange(4.0)
    assert require_finite("a", a) is a
    for v in (3, Fraction(1, 3), np.arange(3), np.array([Fraction(1, 2)], dtype=object), True, 2.5):
        assert require_finite("v", v) is v
    assert require_finite("b", np.inf, allow_inf=True) == np.inf
    with pytest.raises(ValueError, match=r"argument 'M' must be finite, but M\[1, 0\] = nan \(1 non-finite entry"):
        require_finite("M", np.array([[0.0, 1.0], [np.nan, 2.0]]))
    with pytest.raises(ValueError, match="argument 'b' must be a real number \\(not NaN\\)"):
        require_finite("b", np.nan, allow_inf=True)


def _rng():
    return np.random.default_rng(0)


def _cases():
    """(id, function, kwargs, name of the argument to poison, path of the entry to poison or None for a
    scalar[, the values that must be refused: NaN and both infinities unless given])."""
    from kernels.training import hinge_opt
    from kernels.sequence import attention, markov_icl
    from kernels.algebra import margin
    from kernels.boolean import mlp_cube, oversparse, pareto_one_step
    from kernels.training import readout_sgd
    from kernels.sequence import qstr
    from kernels.constructions import projected_gd, relu_approx, sm_bounds
    from kernels.boolean import polynet, polynet_flow, polynet_flow_quadrature, sq_frontier
    from kernels.constructions import deep_gd, retrieval_constructions
    from kernels.training import attention as t_attention, disjoint_polynet as t_polynet, induction as t_induction
    from kernels.training import retrieval as t_retrieval

    _ACT = deep_gd.polynomial_activation([0.0, 1.0, 0.5])
    rng = _rng()
    feats = rng.standard_normal((6, 3))
    labels = np.array([1.0, -1, 1, -1, 1, -1])
    P = np.array([[[0.5, 0.5], [0.25, 0.75]]])
    U, V, W = (rng.standard_normal((4, 3)) for _ in range(3))
    init = pareto_one_step.oversparse_init(6, 2, 3, 4, 0)
    X = 1.0 - 2 * rng.integers(0, 2, size=(8, 6))
    Vs = [rng.standard_normal((2, 3)), rng.standard_normal((3, 2))]
    return [
        ("hinge_loss.u", hinge_opt.hinge_loss, dict(features=feats, labels=labels, u=np.ones(3)), "u", (1,)),
        ("hinge_loss.features", hinge_opt.hinge_loss, dict(features=feats, labels=labels, u=np.ones(3)), "features", (0, 1)),
        ("hinge_min_l2_ball.radius", hinge_opt.hinge_min_l2_ball, dict(features=feats, labels=labels, radius=1.0), "radius", None),
        ("hinge_population_loss.u", readout_sgd.hinge_population_loss, dict(features=feats, labels=labels, u=np.ones(3)), "u", (0,)),
        ("hinge_population_loss.features", readout_sgd.hinge_population_loss, dict(features=feats, labels=labels, u=np.ones(3)), "features", (2, 2)),
        ("readout_sgd.eta", readout_sgd.readout_sgd, dict(features=feats, labels=labels, eta=0.1, steps=3, seeds=[1], backend="reference"), "eta", None),
        ("readout_sgd.features", readout_sgd.readout_sgd, dict(features=feats, labels=labels, eta=0.1, steps=3, seeds=[1], backend="reference"), "features", (1, 1)),
        ("readout_sgd.u0", readout_sgd.readout_sgd, dict(features=feats, labels=labels, eta=0.1, steps=3, seeds=[1], u0=np.zeros(3), backend="reference"), "u0", (1,)),
        ("readout_minimiser.features", pareto_one_step.readout_minimiser, dict(features=np.abs(feats), y=labels, lam=0.1), "features", (0, 0)),
        ("readout_minimiser.lam", pareto_one_step.readout_minimiser, dict(features=np.abs(feats), y=labels, lam=0.1), "lam", None),
        ("one_step_weights.eta", pareto_one_step.one_step_weights, dict(init=init, X=X, y=np.ones(8), eta=0.1), "eta", None),
        ("one_step_weights.X", pareto_one_step.one_step_weights, dict(init=init, X=X, y=np.ones(8), eta=0.1), "X", (0, 0)),
        ("hidden_features.W1", pareto_one_step.hidden_features, dict(X=X, W1=np.ones((2, 6)), b=np.zeros(2)), "W1", (1, 1)),
        ("hidden_features.b", pareto_one_step.hidden_features, dict(X=X, W1=np.ones((2, 6)), b=np.zeros(2)), "b", (1,)),
        ("inexact_pgd.w0", projected_gd.inexact_pgd, dict(w0=np.zeros(2), grad=lambda w: w, proj=lambda w: w, eta=0.1, steps=2), "w0", (0,)),
        ("inexact_pgd.eta", projected_gd.inexact_pgd, dict(w0=np.zeros(2), grad=lambda w: w, proj=lambda w: w, eta=0.1, steps=2), "eta", None),
        ("gradient_mapping.w", projected_gd.gradient_mapping, dict(w=np.zeros(2), grad=lambda w: w, proj=lambda w: w, eta=0.1), "w", (1,)),
        ("gradient_mapping.eta", projected_gd.gradient_mapping, dict(w=np.zeros(2), grad=lambda w: w, proj=lambda w: w, eta=0.1), "eta", None),
        ("stationary.P", markov_icl.stationary, dict(P=P), "P", (0, 1, 0)),
        ("sample_chains.P", markov_icl.sample_chains, dict(rng=_rng(), P=P, length=4), "P", (0, 0, 1)),
        ("sample_transition_matrices.alpha", markov_icl.sample_transition_matrices, dict(rng=_rng(), k=2, n=3, alpha=1.0), "alpha", None),
        ("last_token_kl.q", markov_icl.last_token_kl, dict(Prow=np.array([[0.5, 0.5]]), q=np.array([[0.25, 0.75]])), "q", (0, 1)),
        ("last_token_kl.Prow", markov_icl.last_token_kl, dict(Prow=np.array([[0.5, 0.5]]), q=np.array([[0.25, 0.75]])), "Prow", (0, 0)),
        ("t_tensor.P", markov_icl.t_tensor, dict(P=P[0], t=3), "P", (1, 1)),
        ("softmax.z", attention.softmax, dict(z=np.array([0.0, 1.0, 2.0])), "z", (1,), (np.nan, np.inf)),  # -inf: weight 0
        ("box_projection.lo", projected_gd.box_projection, dict(lo=0.0, hi=1.0), "lo", None, (np.nan,)),  # +-inf: unbounded box
        ("quadratic_logits.U", margin.quadratic_logits, dict(U=U, V=V, W=W), "U", (0, 0)),
        ("quadratic_logits.W", margin.quadratic_logits, dict(U=U, V=V, W=W), "W", (3, 2)),
        ("game_value.M", margin.game_value, dict(M=np.array([[1.0, 0.0], [0.0, 1.0]])), "M", (0, 1)),
        ("block_sums.u", polynet.block_sums, dict(u=np.array([1.0, 2.0, 3.0])), "u", (1,)),
        ("block_tails.v", polynet.block_tails, dict(sorted_sums=np.array([-1.0, 1.0]), v=0.5), "v", None),
        ("abs_block_sums.u", polynet_flow_quadrature.abs_block_sums, dict(u=np.array([1.0, 2.0, 3.0])), "u", (2,)),
        ("polynet_population_loss.weights", polynet_flow.polynet_population_loss, dict(weights=np.ones((2, 2))), "weights", (1, 0)),
        ("polynet_population_gradient.weights", polynet_flow.polynet_population_gradient, dict(weights=np.ones((2, 2))), "weights", (0, 1)),
        ("relevant_flow.v0", polynet_flow.relevant_flow, dict(v0=np.array([0.1, 0.1, 0.1]), t_max=1.0), "v0", (0,)),
        ("flow_time.c", polynet_flow_quadrature.flow_time, dict(c=np.array([1.0, 1.0, 1.0]), q_hi=1.0), "c", (1,)),
        ("mlp_hinge_gradient.W", mlp_cube.mlp_hinge_gradient, dict(W=np.ones((2, 3), dtype=np.int64), b_num=np.zeros(2, dtype=np.int64), u=np.ones(2, dtype=np.int64), S=[0]), "W", (0, 0)),
        ("correlation_vector.b", oversparse.correlation_vector, dict(w=np.ones(3), S=[0], b=0.5, backend="reference"), "b", None),
        ("correlation_vector.w", oversparse.correlation_vector, dict(w=np.ones(3), S=[0], b=0.5, backend="reference"), "w", (0,)),
        ("tanh_mlp_tables.W", sq_frontier.tanh_mlp_tables, dict(n=3, W=np.ones((2, 3)), b=np.zeros(2), v=np.ones(2)), "W", (0, 2)),
        ("tanh_mlp_tables.v", sq_frontier.tanh_mlp_tables, dict(n=3, W=np.ones((2, 3)), b=np.zeros(2), v=np.ones(2)), "v", (1,)),
        ("zero_target_trajectory.lr", sq_frontier.zero_target_trajectory, dict(n=3, W=np.ones((2, 3)), b=np.zeros(2), v=np.ones(2), steps=2, lr=0.1), "lr", None),
        ("prop23_bound.eps", sm_bounds.prop23_bound, dict(eps=0.1, n=100, delta=0.01), "eps", None),
        ("prop23_bound.delta", sm_bounds.prop23_bound, dict(eps=0.1, n=100, delta=0.01), "delta", None),
        ("n_vc.eps", sm_bounds.n_vc, dict(eps=0.1, p=10.0), "eps", None),
        ("n_sm.gamma", sm_bounds.n_sm, dict(eps=0.1, alpha=1.0, gamma=0.5, p=10.0), "gamma", None),
        ("pl_error_bound.R", relu_approx.pl_error_bound, dict(R=1.0, H=4, d2_sup=1.0), "R", None),
        ("knots_for_accuracy.eps", relu_approx.knots_for_accuracy, dict(R=1.0, d2_sup=1.0, eps=0.01), "eps", None),
        ("gaussian_norm_moment.r", qstr.gaussian_norm_moment, dict(d=3, r=2.0), "r", None),
        ("lemma11_alpha.eps", retrieval_constructions.lemma11_alpha, dict(q=1, d=2, r_a=1.0, r_w=1.0, r_x=1.0, N=4, eps=0.1), "eps", None),
        ("backprop_gradient.X", deep_gd.backprop_gradient, dict(Vs=Vs, X=np.ones((2, 3)), Y=np.ones((2, 3)), act=_ACT), "X", (0, 0)),
        ("margin_loss.f", t_induction.margin_loss, dict(f=np.zeros((2, 3)), y=np.array([0, 1]), delta=0.5), "f", (0, 2)),
        ("margin_loss.delta", t_induction.margin_loss, dict(f=np.zeros((2, 3)), y=np.array([0, 1]), delta=0.5), "delta", None),
        ("init_params.init_scale", t_attention.init_params, dict(T=4, d=2, k=2, seeds=[1], init_scale=0.02), "init_scale", None),
        ("ffn_forward_backward.X", t_retrieval.ffn_forward_backward, dict(params=t_retrieval.ffn_init(_rng(), 3, 4, 2), X=np.ones((1, 3)), Y=np.zeros((1, 2))), "X", (0, 1)),
        ("disjoint_polynet_sgd.w0", t_polynet.disjoint_polynet_sgd, dict(w0=np.ones((2, 3)), steps=2, seeds=[1], lr=0.1, lr_mode="constant", backend="reference") if "backend" in t_polynet.disjoint_polynet_sgd.__code__.co_varnames else dict(w0=np.ones((2, 3)), steps=2, seeds=[1], lr=0.1, lr_mode="constant"), "w0", (1, 1)),
        ("risk.Y", deep_gd.risk, dict(Vs=Vs, X=np.ones((2, 3)), Y=np.ones((2, 3)), act=_ACT), "Y", (1, 2)),
    ]


CASES = _cases()


def _poison(kwargs, name, path, bad):
    out = dict(kwargs)
    if path is None:
        out[name] = bad
    else:
        a = np.array(kwargs[name], dtype=np.float64, copy=True)
        a[path] = bad
        out[name] = a
    return out


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_kernel_rejects_non_finite_argument(case):
    _id, fn, kwargs, name, path, *rest = case
    fn(**kwargs)  # the valid call runs
    for bad in (rest[0] if rest else (np.nan, np.inf, -np.inf)):
        with pytest.raises(ValueError, match=f"argument '{name}'"):
            fn(**_poison(kwargs, name, path, bad))


# --- the Walsh-Hadamard transform and the training engines (added with issue 19's last audit) ---------


def _wht_cases():
    from kernels import fourier_spectrum, wht_inplace
    from kernels.boolean import wht
    from kernels.training import quadratic_margin as qm
    from kernels.training import two_layer as tl

    mul = (np.arange(3)[:, None] + np.arange(3)[None, :]) % 3
    qkw = dict(mul=mul, m=2, steps=2, lr=0.1, weight_decay=0.01, record_every=1, backend="reference")
    params = [np.full((2, 3), 0.3) for _ in range(3)]
    tkw = dict(n=4, k=2, width=3, seeds=[1, 2], steps=2, backend="reference")
    theta0 = tl.init_two_layer(4, 3, [1])[0]
    return [
        ("wht.a", wht, dict(a=np.arange(8.0)), "a", (3,)),
        ("wht_inplace.a", wht_inplace, dict(a=np.arange(8.0)), "a", (5,)),
        ("fourier_spectrum.f", fourier_spectrum, dict(f=np.ones(16)), "f", (0,)),
        ("lr_schedule.lr", qm.lr_schedule, dict(steps=4, lr=0.1, double_at=[2]), "lr", None),
        ("train_quadratic_margin.lr", qm.train_quadratic_margin, qkw, "lr", None),
        ("train_quadratic_margin.weight_decay", qm.train_quadratic_margin, qkw, "weight_decay", None),
        ("train_quadratic_margin.init_scale", qm.train_quadratic_margin, dict(qkw, init_scale=1.0), "init_scale", None),
        ("train_quadratic_margin.params", qm.train_quadratic_margin, dict(qkw, params=params), "params", None),
        ("init_two_layer.scale", tl.init_two_layer, dict(n=4, width=3, seeds=[1], scale=1.0), "scale", None),
        ("train_two_layer.lr", tl.train_two_layer, dict(tkw, lr=0.1), "lr", None),
        ("train_two_layer.weight_decay", tl.train_two_layer, dict(tkw, weight_decay=0.0), "weight_decay", None),
        ("train_two_layer.label_noise", tl.train_two_layer, dict(tkw, label_noise=0.0), "label_noise", None),
        ("train_two_layer.eps", tl.train_two_layer, dict(tkw, optimizer="adam", eps=1e-8), "eps", None),
        ("train_two_layer.target_accuracy", tl.train_two_layer, dict(tkw, target_accuracy=1.0), "target_accuracy", None),
        ("train_two_layer.init_scale", tl.train_two_layer, dict(tkw, init_scale=1.0), "scale", None),
        ("train_two_layer.theta0", tl.train_two_layer, dict(tkw, theta0=theta0), "theta0", (2,)),
    ]


WHT_CASES = _wht_cases()


def _poison_params(kwargs, bad):
    out = dict(kwargs)
    out["params"] = [p.copy() for p in kwargs["params"]]
    out["params"][1][1, 2] = bad
    return out


@pytest.mark.parametrize("case", WHT_CASES, ids=[c[0] for c in WHT_CASES])
def test_transform_and_training_reject_non_finite_argument(case):
    _id, fn, kwargs, name, path = case
    fn(**kwargs)  # the valid call runs
    for bad in (np.nan, np.inf, -np.inf):
        poisoned = _poison_params(kwargs, bad) if name == "params" else _poison(kwargs, name, path, bad)
        if _id == "train_two_layer.init_scale":
            poisoned = dict(kwargs, init_scale=bad)
        with pytest.raises(ValueError, match=f"argument '{name}'"):
            fn(**poisoned)


def test_wht_detects_non_finite_input_through_the_sum_and_leaves_nothing_half_written():
    """Entry 0 of H a is sum(a): non-finite iff an entry is (or the sum overflows); the in-place transform
    scans first, so a refused array is untouched; a finite input whose sum overflows is refused too."""
    from kernels import wht_inplace
    from kernels.boolean import wht

    a = np.arange(16.0)
    a[[3, 9]] = [np.inf, -np.inf]  # +inf + -inf = nan in the sum: still caught
    with pytest.raises(ValueError, match=r"a\[3\] = inf \(2 non-finite entries"):
        wht(a)
    b = a.copy()
    with pytest.raises(ValueError, match="argument 'a'"):
        wht_inplace(b)
    assert np.array_equal(b, a, equal_nan=True)
    with pytest.raises(ValueError, match="overflows float64"):
        wht(np.full(4, 1e308))
    big = np.ones(3 << 20)
    big[-1] = np.nan  # beyond the first chunk of the chunked scan
    with pytest.raises(ValueError, match=rf"big\[{big.size - 1}\] = nan"):
        require_finite("big", big)
    c = np.arange(8.0)
    c[2] = np.nan
    wht_inplace(c, check_finite=False)  # the documented opt-out: no scan, NaN propagates
    assert np.isnan(c).all()
