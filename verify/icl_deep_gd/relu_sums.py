"""Def 4 (sums of ReLUs in normal form) and Lemma 7 (smooth functions are approximable) of seed 001,
checked constructively with kernels.relu_approx (E04)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kernels import deep_gd as G
from kernels import relu_approx as RA

from ..registry import Evidence, Mutant, Param, Rigor, Status, Verdict, claim
from . import SOURCE


@dataclass(frozen=True)
class ApproxStatement:
    """sup-error of the H-interval interpolant <= const * h^2 sup|g''| (linear interpolation: 1/8)."""

    const: float = 1 / 8


def _targets():
    out = []
    for name in ("tanh", "softplus", "sin"):
        a = G.ACTIVATIONS[name]
        out.append((f"{name}", a.f, a.lip_prime))
        out.append((f"{name}'", a.df, a.third))
    return out


@claim(
    id="seed001.lemma_7_relu_sums",
    source=SOURCE,
    label="Lemma 7",
    entry="E04",
    title="Smooth r, r', u are (eps, R, H, C)-approximable by sums of ReLUs with ||a_h||_1 <= 1 (constructive, k = 1, 2)",
    lines=[(197, 203), (524, 530)],
    printed=ApproxStatement(),
    mutants=[Mutant("h^2/16", "interpolation error constant 1/16 instead of 1/8", ApproxStatement(1 / 16))],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("H_grid", str, doc="comma-separated interval counts"), Param("grid_per_interval", int, 4, 1024)],
    tiers={"quick": {"H_grid": "4,16,64,256", "grid_per_interval": 32}, "full": {"H_grid": "4,16,64,256,512", "grid_per_interval": 32}},
)
def check_lemma_7(statement: ApproxStatement, p, ctx) -> Verdict:
    """Def 4 and Lemma 7: sums of ReLUs approximating smooth functions.

    Statement
    ---------
    Def 4: g: R^k -> R is (eps, R, H, C)-approximable if f(z) = sum_{h <= H} c_h relu(a_h^T [z; 1]) with
    ||a_h||_1 <= 1, sum |c_h| <= C and sup_{[-R, R]^k} |g - f| <= eps.  Lemma 7: if g is C^s on
    B_inf^k(R), s = ceil((k-1)/2) + 1, with max_i L_i R^i <= C_l, then g is (eps, R, H, C)-approximable
    with H <= C(k) C_l^2 log(1 + C_l/eps)/eps^2, C <= C(k) C_l.

    Source
    ------
    Seed 001, Def 4 (lines 197-203), Lemma 7 (lines 524-530, "modified from Prop A.1 of Bai et al. 2023").

    Checkable form
    --------------
    k = 1 (r and r' for tanh, softplus, sin; R in {1, 3, 6}): the piecewise-linear interpolant in
    normal form (kernels.relu_approx.pl_interpolant); asserted: max ||a_h||_1 <= 1, and the sup error
    on a dense grid (grid_per_interval points per interval plus the knots) <= const * h^2 sup|g''|
    with h = 2R/H.  k = 2 (u = 2(t - y)): the exact two-ReLU representation, error <= 1e-12 on a grid of
    [-R, R]^2, ||a||_1 = 1, C = 8.  Lemma 7's size claim has an unspecified C(k); recorded (details) are
    the ratios H eps^2 / (C_l^2 log(1 + C_l/eps)) and C / C_l, which stay bounded (they decrease:
    interpolation needs H = O(eps^{-1/2}), far fewer than eps^{-2}).

    Exactness
    ---------
    float64 on grids: interpolation error bound h^2 sup|g''|/8 is a theorem; the grid maximum is below
    the true maximum, so the check of "<=" can only err towards passing by the grid deficit, which is
    at most sup|g''| (h/grid)^2 / 2 (relative 4/grid^2 of the bound).  The mutant's constant 1/16 is
    exceeded by a factor close to 2 where |g''| is near its maximum (no grid effect).

    Mutants
    -------
    Constant 1/16: fails for every target at the larger H (the error is h^2 |g''(xi)|/8 (1 - O(h))).

    Notes
    -----
    The printed s = ceil((k-1)/2) + 1 differs from Bai et al.'s + 2 (catalog P6); with C(k) unspecified
    this is not numerically decidable.  Only k = 1, 2 (what the construction uses) are checked.
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    Hs = [int(h) for h in p["H_grid"].split(",")]
    shape = []
    for name, g, d2 in _targets():
        for R in (1.0, 3.0, 6.0):
            for H in Hs:
                f = RA.pl_interpolant(g, R, H)
                z = np.linspace(-R, R, H * p["grid_per_interval"] + 1)
                err = float(np.abs(f(z) - g(z)).max())
                h = 2 * R / H
                case = {"g": name, "R": R, "H": H}
                ev.add(dict(case, part="||a_h||_1 <= 1"), f.max_a_l1, 1.0 + 1e-15)
                ev.add(dict(case, part="sup error"), err, statement.const * h * h * d2)
                if R == 3.0 and err > 0:
                    Cl = max(float(np.abs(g(z)).max()), d2 * R * R)
                    shape.append({"g": name, "H": H, "eps": err, "H eps^2/(C_l^2 log(1+C_l/eps))":
                                  H * err**2 / (Cl**2 * math.log(1 + Cl / err)), "C/C_l": f.C / Cl})
    u = RA.squared_loss_derivative()
    for R in (1.0, 5.0):
        t, y = np.meshgrid(np.linspace(-R, R, 81), np.linspace(-R, R, 81))
        Z = np.stack([t.ravel(), y.ravel()], axis=1)
        ev.add({"g": "u = 2(t - y)", "R": R, "part": "exact"}, float(np.abs(u(Z) - 2 * (Z[:, 0] - Z[:, 1])).max()), 1e-12)
        ev.add({"g": "u = 2(t - y)", "R": R, "part": "||a_h||_1 <= 1"}, u.max_a_l1, 1.0 + 1e-15)
    ev.details["Lemma 7 size ratios (R = 3), C(k) unspecified"] = shape[:12]
    return ev.verdict()
