"""Sample-complexity bounds and margin constants of seed 000 as explicit functions.

* :func:`prop23_bound`   Prop. 2.3 (l.71-83, proof l.337-353): L(F_hat) <= 5 eps + 2 sqrt(log(2/delta)/n).
* :func:`n_sm`           Lemma 2.4 (l.103-111): n ~ eps^-2 (alpha^2 log p / gamma^2 + 1), with the
  polylog factor log^2(alpha^2 log p / (gamma^2 eps^2)) that O-tilde hides (explicit choice, documented).
* :func:`gamma_d6`       Theorem D.6 (l.777-783), the minimum (D.5) of nine terms.
* :func:`circuit_d6_constants`  the constants of Conditions D.3/D.4 for the net of kernels.constructions.circuits,
  from operator norms (derivation in the docstring).
"""

from __future__ import annotations

import math

import numpy as np

from .._checks import require_finite

__all__ = ["block_constants", "circuit_d6_constants", "gamma_d6", "n_sm", "n_vc", "prop23_bound"]


def _pos(name, v):
    v = float(v)
    if not (v > 0 and math.isfinite(v)):
        raise ValueError(f"argument '{name}' must be a finite real number > 0, not {v!r}")
    return v


def prop23_bound(eps: float, n: int, delta: float = 0.01) -> float:
    """5 eps + 2 sqrt(ln(2/delta)/n) (natural log: McDiarmid)."""
    if not 0 < delta < 1:
        raise ValueError(f"argument 'delta' must be in (0, 1), not {delta!r}")
    _pos("n", n)
    require_finite("eps", eps)
    return 5 * float(eps) + 2 * math.sqrt(math.log(2 / delta) / n)


def n_sm(eps: float, alpha: float, gamma: float, p: float, *, polylog: bool = True) -> float:
    """eps^-2 (alpha^2 ln p / gamma^2 + 1) [* ln^2(max(e, alpha^2 ln p / (gamma^2 eps^2)))]."""
    eps, alpha, gamma, p = _pos("eps", eps), _pos("alpha", alpha), _pos("gamma", gamma), _pos("p", p)
    core = alpha ** 2 * math.log(max(p, 2.0)) / gamma ** 2
    base = (core + 1) / eps ** 2
    return base * (math.log(max(math.e, core / eps ** 2)) ** 2 if polylog else 1.0)


def n_vc(eps: float, p: float) -> float:
    """The VC-type baseline p / eps^2 (number of parameters over eps^2)."""
    return _pos("p", p) / _pos("eps", eps) ** 2


def gamma_d6(*, lam, mu, mu0, kappa_theta, kappa_xi, sigma_zeta, sigma_theta=1.0, sigma_xi=1.0,
             sigma_h=math.inf) -> float:
    """(D.5): min{lam/mu0, s_z/mu0, s_t, s_x, 1/(2 k_t), s_z/(2 k_t lam), s_h/(2 k_x lam),
    s_z/(4 lam mu k_x), 1/(4 mu k_x)}."""
    terms = [lam / mu0, sigma_zeta / mu0, sigma_theta, sigma_xi, 1 / (2 * kappa_theta),
             sigma_zeta / (2 * kappa_theta * lam), sigma_h / (2 * kappa_xi * lam),
             sigma_zeta / (4 * lam * mu * kappa_xi), 1 / (4 * mu * kappa_xi)]
    return float(min(terms))


def block_constants(W1, b1, W2, b2, sigma: float = 1.0) -> tuple[float, float]:
    """(kappa, mu) of f(h) = relu(W2 relu(W1 h + b1) + b2) in the sense of Definition D.2 for
    parameter perturbations of l2 norm <= sigma:

    * mu = (||W2|| + sigma)(||W1|| + sigma)  (relu is 1-Lipschitz; ||W + dW||_op <= ||W|| + ||dW||_F);
    * kappa = ||W1|| + ||b1|| + 1 + 2(||W2|| + sigma), from
      ||f(h,t) - f(h,t')|| <= ||dW2|| ||relu(W1 h + b1)|| + ||db2|| + (||W2|| + sigma)(||dW1|| ||h|| + ||db1||)
      and ||relu(W1 h + b1)|| <= ||W1|| ||h|| + ||b1||, each ||d.|| <= ||dtheta||, divided by max(||h||, 1)."""
    op = lambda A: float(np.linalg.norm(np.asarray(A, dtype=float), 2)) if np.size(A) else 0.0
    n1, n2 = op(W1), op(W2)
    nb1 = float(np.linalg.norm(np.asarray(b1, dtype=float)))
    return n1 + nb1 + 1 + 2 * (n2 + sigma), (n2 + sigma) * (n1 + sigma)


def circuit_d6_constants(net, X, sigma: float = 1.0) -> dict:
    """Constants of Conditions D.3/D.4 for a rounded circuit net (kernels.constructions.circuits.compile_relu):
    f_0 = first gate block (mu0 = kappa_0 * max_x max(||x||, 1)), f_i = gate blocks and the output layer,
    zeta_i = round blocks (kappa_xi), lambda = max over blocks and inputs of max(||h_i||, 1), sigma_zeta = 1/3."""
    from .circuits import forward_exact

    L = net.layers
    gates, rounds = [], []
    start = 0
    for end, is_round in zip(net.block_ends, net.round_blocks):
        blk = L[start:end + 1]
        (rounds if is_round else gates).append(blk)
        start = end + 1
    k_list, mu_list = [], []
    for (W1, b1), (W2, b2) in gates:
        k, mu = block_constants(W1, b1, W2, b2, sigma)
        k_list.append(k)
        mu_list.append(mu)
    Wd = L[-1][0]
    k_out = float(np.linalg.norm(np.asarray(Wd, float), 2)) + 1 + sigma
    kx = max(block_constants(W1, b1, W2, b2, sigma)[0] for (W1, b1), (W2, b2) in rounds)
    _, blocks = forward_exact(net, X, keep=True)
    lam = max([1.0] + [float(np.sqrt(np.max(np.sum(np.asarray(B, dtype=float) ** 2, axis=1)))) for B in blocks])
    xmax = max(1.0, float(np.sqrt(np.max(np.sum(np.asarray(X, dtype=float) ** 2, axis=1)))))
    mu = max(mu_list[1:] + [float(np.linalg.norm(np.asarray(Wd, float), 2)) + sigma]) if len(mu_list) > 1 else \
        float(np.linalg.norm(np.asarray(Wd, float), 2)) + sigma
    consts = {"lam": lam, "mu": mu, "mu0": k_list[0] * xmax, "kappa_theta": max(k_list[1:] + [k_out]), "kappa_xi": kx,
                  "sigma_zeta": 1 / 3, "sigma_theta": sigma, "sigma_xi": sigma}
    consts["gamma"] = gamma_d6(**consts)
    return consts
