"""Shared machinery of the construction claims: instances, one executed ICGD block with its per-stage
quantities, and the constants of Lemmas 2-6 and Theorem 1 (printed and corrected).

Everything here is bookkeeping around kernels.constructions.gd_transformer (the explicit layers) and
kernels.constructions.deep_gd (the true forward pass, backprop and gradient); no claim is decided here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kernels.constructions import deep_gd as G
from kernels.constructions import gd_transformer as T
from kernels.constructions import relu_approx as RA


@dataclass(frozen=True)
class Instance:
    """A network w = Vs (inside the box W = [-box, box]^{D_N}), a prompt (X, Y, x_test), an activation."""

    label: str
    act: str
    Vs: tuple
    X: np.ndarray
    Y: np.ndarray
    xt: np.ndarray
    box: float

    @property
    def N(self):
        return len(self.Vs)

    @property
    def K(self):
        return self.Vs[0].shape[0]

    @property
    def d_in(self):
        return self.Vs[0].shape[1]

    @property
    def d_out(self):
        return self.Vs[-1].shape[0]

    @property
    def n(self):
        return self.X.shape[0]

    @property
    def activation(self):
        return G.ACTIVATIONS[self.act]

    @property
    def Bx(self):
        return float(max(np.linalg.norm(self.X, axis=1).max(), np.linalg.norm(self.xt)))

    @property
    def By(self):
        return float(np.linalg.norm(self.Y, axis=1).max())

    @property
    def Bv(self):
        return float(max(np.linalg.norm(V, axis=1).max() for V in self.Vs))

    @property
    def P(self):
        return math.sqrt(max(self.K, self.d_out))

    def describe(self) -> dict:
        return {"instance": self.label, "activation": self.act, "N": self.N, "K": self.K, "d_in": self.d_in,
                "d_out": self.d_out, "n": self.n}


def random_instance(rng: np.random.Generator, label: str, act: str, N: int, K: int, d_in: int, d_out: int, n: int,
                    *, Bv: float = 1.5, Bx: float = 1.0, By: float = 1.0) -> Instance:
    """Weights uniform in the box b = Bv / sqrt(max fan-in) (so every row has norm <= Bv), x in the
    Bx-ball, y in the By-ball."""
    fan = max(K, d_in)
    box = Bv / math.sqrt(fan)
    Vs = tuple(rng.uniform(-box, box, size=s) for s in G.layer_shapes(N, K, d_in, d_out))

    def ball(m, dim, radius):
        z = rng.normal(size=(m, dim))
        z /= np.linalg.norm(z, axis=1, keepdims=True)
        return z * radius * rng.uniform(0, 1, size=(m, 1)) ** (1.0 / dim)

    X = ball(n + 1, d_in, Bx)
    Y = ball(n, d_out, By)
    return Instance(label, act, Vs, X[:n], Y, X[n], box)


def domain_instance() -> Instance:
    """The radius counterexample: tanh, N = 2, K = 4, d = 1, every row of norm B_v = 2, x = 1:
    the layer-2 argument is 2 * sqrt(4) * tanh(2) = 3.86 while the printed R_1 = B_v B_r = 1.93."""
    V1 = np.full((4, 1), 2.0)
    V2 = np.full((1, 4), 1.0)
    X = np.ones((3, 1))
    Y = np.array([[0.5], [-0.2], [0.1]])
    return Instance("domain (tanh, rows of norm 2, x = 1)", "tanh", (V1, V2), X, Y, np.ones(1), 2.0)


def tight_linear_instance(K: int = 9, Bv: float = 1.5) -> Instance:
    """r(t) = t, v_{2_k} = B_v 1/sqrt(K): with r_hat(t) = t + eps the layer-2 error equals (3.9)."""
    rng = np.random.default_rng(12345)
    V1 = rng.uniform(-0.5, 0.5, size=(K, 1))
    V2 = np.full((1, K), Bv / math.sqrt(K))
    X = np.array([[0.5], [-0.25], [1.0]])
    Y = np.array([[0.1], [0.2], [-0.3]])
    return Instance(f"tight linear (K = {K}, B_v = {Bv})", "linear", (V1, V2), X, Y, np.array([0.3]), max(1.0, Bv))


def lemma6_instance() -> Instance:
    """r(t) = t, N = 2, d = K = 4, B_v = 1, V_2 = four copies of e_1^T, y chosen so that u = 2(p(2) - y) = 1."""
    V1 = np.eye(4) * 0.5
    V2 = np.zeros((4, 4))
    V2[:, 0] = 1.0
    X = np.array([[0.6, -0.2, 0.1, 0.3], [0.1, 0.4, -0.5, 0.2]])
    P1 = X @ V1.T
    P2 = P1 @ V2.T
    Y = P2 - 0.5
    return Instance("Lemma 6 counterexample (r = t, V_2 = 4 x e_1^T, u = 1)", "linear", (V1, V2), X, Y,
                    np.zeros(4), 1.0)


# ---------------------------------------------------------------------------------------------
# radii and approximants
# ---------------------------------------------------------------------------------------------


def _printed_recursion(inst: Instance, bound) -> float:
    """B^0 = B_x, B^j = bound(B_v B^{j-1}), returns max_{j in [N]} B^j (the printed radius recursions)."""
    b, out = inst.Bx, 0.0
    for _ in range(inst.N):
        b = bound(inst.Bv * b)
        out = max(out, b)
    return out


def printed_B_r(inst: Instance) -> float:
    """B_r^0 = B_x, B_r^j = max_{|t| <= B_v B_r^{j-1}} |r(t)|, B_r = max_{j in [N]} B_r^j (Lemma 2)."""
    return _printed_recursion(inst, inst.activation.bound)


def printed_B_rp(inst: Instance) -> float:
    """Lemma 3's recursion as printed: B^0 = B_x, B^j = max_{|t| <= B_v B^{j-1}} |r'(t)|, max over j in [N]."""
    return _printed_recursion(inst, inst.activation.bound_prime)


def corrected_R0(inst: Instance) -> float:
    """B_v max{B_x, sqrt(K) Bbar_r}: Bbar^1 = max_{|t| <= B_v B_x}|r|, Bbar^j = max_{|t| <= sqrt(K) B_v Bbar^{j-1}}|r|."""
    a = inst.activation
    b = a.bound(inst.Bv * inst.Bx)
    top = b
    for _ in range(2, inst.N):
        b = a.bound(math.sqrt(inst.K) * inst.Bv * b)
        top = max(top, b)
    return inst.Bv * max(inst.Bx, math.sqrt(inst.K) * top)


def corrected_radius(inst: Instance, H: int) -> float:
    """The smallest R with R >= R_0 + B_v E_r eps_r(R), R_0 = :func:`corrected_R0`, where
    eps_r(R) = (2R/H)^2 sup|r''|/8 is the interpolation error on [-R, R] (fixed-point iteration from R_0,
    monotone increasing); R_0 + 1 when no fixed point exists (the check then records the failed margin)."""
    R0 = corrected_R0(inst)
    if inst.act == "linear" or H <= 0:
        return R0 + 1.0
    coef = inst.Bv * E_r(inst) * inst.activation.lip_prime / 8.0
    R = R0
    for _ in range(500):
        nxt = R0 + coef * (2.0 * R / H) ** 2
        if nxt - R <= 1e-12 * (1.0 + R):
            return nxt * (1 + 1e-9)
        R = nxt
        if R > 1e6:
            break
    return R0 + 1.0


def E_r(inst: Instance) -> float:
    """(3.10): max over j of (sum_{l<j} K^{l/2} L_r^l B_v^l) sqrt(K) (j < N), (sum_{l<N} ...) sqrt(d) (j = N)."""
    a = inst.activation
    q = math.sqrt(inst.K) * a.lip * inst.Bv
    s = [sum(q**l for l in range(j)) for j in range(1, inst.N + 1)]
    return max(max(s[:-1], default=0.0) * math.sqrt(inst.K), s[-1] * math.sqrt(inst.d_out))


def lemma2_coeff(inst: Instance, j: int) -> float:
    """The coefficient of eps_r in (3.9) for layer j (vector 2-norm)."""
    a = inst.activation
    q = math.sqrt(inst.K) * a.lip * inst.Bv
    s = sum(q**l for l in range(j))
    return s * (math.sqrt(inst.K) if j < inst.N else math.sqrt(inst.d_out))


@dataclass(frozen=True)
class Approximants:
    r_hat: RA.SumOfReLUs
    rp_hat: RA.SumOfReLUs
    u_hat: RA.SumOfReLUs
    eps_r: float
    eps_rp: float
    eps_l: float
    R1: float
    R2: float
    R3: float


def approximants(inst: Instance, H_r: int, H_rp: int, *, radius: str, eps_lin: float = 0.0, eps_l: float = 0.0) -> Approximants:
    """r_hat, r_hat' as piecewise-linear interpolants on [-R1, R1], [-R2, R2] (radius "printed":
    R1 = max{B_v B_r, 1}, R2 = max{B_v B_r', 1} as in Lemmas 2-3; "corrected": R1 = R2 = the
    smallest R >= B_v max{B_x, sqrt(K) Bbar_r} + B_v E_r eps_r(R)) with eps = h^2 sup|g''|/8; for r(t) = t exact affine sums
    (r_hat = t + eps_lin, r_hat' = 1).  u_hat = the exact two-ReLU squared-loss derivative + eps_l."""
    a = inst.activation
    Br = printed_B_r(inst)
    R3 = max(inst.Bv * Br, inst.By, 1.0)
    if radius == "printed":
        R1 = max(inst.Bv * Br, 1.0)
        R2 = max(inst.Bv * printed_B_rp(inst), 1.0)
    else:
        R1 = R2 = corrected_radius(inst, H_r)
        R3 = max(R3, a.bound(R1) + 1.0, inst.By)
    if inst.act == "linear":
        r_hat, eps_r = RA.affine_exact(1.0, eps_lin), abs(eps_lin)
        rp_hat, eps_rp = RA.affine_exact(0.0, 1.0), 0.0
    else:
        r_hat, eps_r = RA.pl_interpolant(a.f, R1, H_r), RA.pl_error_bound(R1, H_r, a.lip_prime)
        rp_hat, eps_rp = RA.pl_interpolant(a.df, R2, H_rp), RA.pl_error_bound(R2, H_rp, a.third)
    return Approximants(r_hat, rp_hat, RA.squared_loss_derivative(eps_l), eps_r, eps_rp, abs(eps_l), R1, R2, R3)


# ---------------------------------------------------------------------------------------------
# one executed block
# ---------------------------------------------------------------------------------------------


def run_block(inst: Instance, ap: Approximants, eta: float, *, w=None, **variants) -> dict:
    """Execute one block on the prompt (w-slot = flatten(Vs) unless w is given) and collect the
    per-stage quantities next to the true ones (rows = tokens; the test token is the last row)."""
    lay = T.Layout(inst.N, inst.K, inst.d_in, inst.d_out)
    w = G.flatten(inst.Vs) if w is None else np.asarray(w, dtype=float)
    Vs = G.unflatten(w, lay.shapes)
    H0 = T.embed_prompt(lay, inst.X, inst.Y, inst.xt, w)
    layers = T.build_block(lay, inst.n, eta, ap.r_hat, ap.rp_hat, ap.u_hat, ap.R3, inst.box, **variants)
    H, hist = T.run_layers(layers, H0, keep=True)
    N, n = inst.N, inst.n
    act = inst.activation
    Xall = np.vstack([inst.X, inst.xt[None, :]])
    P, Z = G.forward(Vs, Xall, act)
    grads, S = G.backprop_gradient(Vs, inst.X, inst.Y, act, return_s=True)
    out = {
        "layout": lay, "layers": layers, "H0": H0, "H": H, "hist": hist, "Vs": Vs, "w": w,
        "p_hat": {j: hist[j][lay.p_idx(j)].T for j in range(1, N + 1)},
        "rp_hat": {j: hist[N + 1][lay.rp_idx(j)].T for j in range(1, N + 1)},
        "g": hist[N + 2][lay.g:lay.g + inst.d_out].T,
        "s_hat": {j: hist[2 * N + 2][lay.s_idx(j)].T for j in range(1, N + 1)},
        "P": P, "Z": Z, "S": S, "grad": G.flatten(grads),
        "rp": {j: act.df(Z[j]) for j in range(1, N + 1)},
        "u": 2.0 * (P[N][:n] - inst.Y),
    }
    w_pre = hist[2 * N + 3][lay.w:lay.w + lay.offsets[-1], 0]
    out["grad_hat"] = (w - w_pre) / eta
    out["w_out"] = H[lay.w:lay.w + lay.offsets[-1], 0]
    pre = [np.abs(np.vstack([inst.X, inst.xt[None, :]]) @ Vs[0].T).max()]
    for j in range(2, N + 1):
        pre.append(np.abs(out["p_hat"][j - 1] @ Vs[j - 1].T).max())
    out["max_arg"] = float(max(pre))
    return out


# ---------------------------------------------------------------------------------------------
# Lemma 6 and Theorem 1 constants
# ---------------------------------------------------------------------------------------------


def lemma6_constants(P: float, N: int, Brp: float, Bv: float, Bl: float, Lrp: float, Ll: float, Er: float) -> dict:
    """B_s, E_s^r, E_s^r', E_s^l as printed in (3.22)-(3.24)."""
    q = P * Brp * Bv
    Bs = max(q ** (N - j) * Brp * Bl for j in range(1, N + 1))
    geo = [sum(q**l for l in range(N - j)) for j in range(1, N + 1)]
    Esr = max(Lrp * Er * P * Bs * Bv**2 * geo[j - 1] + q ** (N - j) * (Bl * Lrp * Bv * Er + Brp * Ll * Er) for j in range(1, N + 1))
    Esrp = max(P * Bs * Bv * geo[j - 1] + q ** (N - j) * Bl for j in range(1, N + 1))
    Esl = max(q ** (N - j) * Brp for j in range(1, N + 1))
    return {"B_s": Bs, "E_s^r": Esr, "E_s^r'": Esrp, "E_s^l": Esl}


def corrected_s_bounds(P: float, N: int, d_out: int, Brp: float, Bv: float, Bl: float, Lrp: float, Ll: float, Er: float,
                       eps_r: float, eps_rp: float, eps_l: float) -> tuple[dict, dict]:
    """Per layer j: ||s_hat(j)||_2 <= Bs(j) = P (P B_r' B_v)^{N-j} B_r' B_l and
    ||s_hat(j) - s(j)||_2 <= e(j), e(N) = sqrt(d)[delta' B_l + B_r'(eps_l + L_l E_r eps_r)],
    e(j) = delta' P B_v Bs(j+1) + B_r' P B_v e(j+1), delta' = eps_r' + L_r' B_v E_r eps_r."""
    q = P * Brp * Bv
    Bs = {j: P * q ** (N - j) * Brp * Bl for j in range(1, N + 1)}
    dp = eps_rp + Lrp * Bv * Er * eps_r
    e = {N: math.sqrt(d_out) * (dp * Bl + Brp * (eps_l + Ll * Er * eps_r))}
    for j in range(N - 1, 0, -1):
        e[j] = dp * P * Bv * Bs[j + 1] + Brp * P * Bv * e[j + 1]
    return Bs, e


def instance_bounds(inst: Instance, ap: Approximants, res: dict) -> dict:
    """Instance-tight constants that satisfy the hypotheses of Lemma 6 / Theorem 1: B_r' >= |r_hat'|, |r'|
    at every argument met; B_l >= |g|, |u|; B_r >= every |p(j)[k]|, |p_hat(j)[k]| and B_x."""
    N, n = inst.N, inst.n
    Brp = max(max(np.abs(res["rp_hat"][j][:n]).max(), np.abs(res["rp"][j][:n]).max()) for j in range(1, N + 1))
    Bl = max(np.abs(res["g"][:n]).max(), np.abs(res["u"]).max())
    Br = max([inst.Bx] + [max(np.abs(res["p_hat"][j]).max(), np.abs(res["P"][j]).max()) for j in range(1, N + 1)])
    return {"B_r'": float(Brp), "B_l": float(Bl), "B_r": float(Br)}


def theorem1_bounds(inst: Instance, ap: Approximants, tight: dict) -> dict:
    """The gradient-error bound of the proof of Theorem 1 as printed (l.994-1001, with sqrt(P) and the
    printed Lemma 6 constants) and corrected (||p_hat(j-1)||_2 <= max{B_x, P B_r}, Lemma 6 in 2-norms)."""
    a = inst.activation
    P, N, Bv = inst.P, inst.N, inst.Bv
    Er = E_r(inst)
    Ll = 2.0
    c = lemma6_constants(P, N, tight["B_r'"], Bv, tight["B_l"], a.lip_prime, Ll, Er)
    inner = c["E_s^r"] * ap.eps_r + c["E_s^r'"] * ap.eps_rp + c["E_s^l"] * ap.eps_l
    printed = 0.5 * N * P * (inner * math.sqrt(P) * tight["B_r"] + c["B_s"] * Er * ap.eps_r)
    Bs, e = corrected_s_bounds(P, N, inst.d_out, tight["B_r'"], Bv, tight["B_l"], a.lip_prime, Ll, Er,
                               ap.eps_r, ap.eps_rp, ap.eps_l)
    Bp = max(inst.Bx, P * tight["B_r"])
    corrected = 0.5 * sum(e[j] * Bp + Bs[j] * Er * ap.eps_r for j in range(1, N + 1))
    return {"printed": printed, "corrected": corrected, "E_r": Er, **c}
