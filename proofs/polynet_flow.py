"""Symbolic facts about the gradient flow of a disjoint-PolyNet (thesis ch. 5, Lemma B.8, App. B.2.3).

The relevant weights follow dv_i/dt = prod_{j != i} v_j (i in [k]).  Each function returns a sympy
residual (lhs - rhs, simplified) that is 0 exactly when the identity holds, or the value of a
symbolic limit; the claims compare these with 0 / the stated value.  Symbols carry the assumptions of
the lemma: positive bases, k > 2 as k = 2 + s with s > 0.  No printing, no I/O.
"""

from __future__ import annotations

from functools import cache

import sympy as sp

__all__ = [
    "blowup_expression_residuals",
    "comparison_solution_residual",
    "counting_limits",
    "equal_init_blowup_residual",
    "equal_init_solution_residual",
    "k2_sandwich_residuals",
    "maclaurin_integral_residuals",
    "product_rate_residual",
    "square_rate_residual",
]

t = sp.Symbol("t", nonnegative=True)
a, c, g, m, q = sp.symbols("a c g m q", positive=True)
s = sp.Symbol("s", positive=True)  # k = 2 + s > 2


def _simplify(expr):
    """sp.simplify(expr), with a cheap exact first try: when sp.cancel (sound rational-function
    normalisation) already gives 0, that is the residual; otherwise the full sp.simplify as before
    (so every non-zero residual is the same expression)."""
    expr = sp.sympify(expr)
    quick = sp.cancel(expr)
    return quick if quick == 0 else sp.simplify(expr)


def _vel(v, i):
    out = sp.Integer(1)
    for j, vj in enumerate(v):
        if j != i:
            out *= vj
    return out


@cache
def square_rate_residual(k: int) -> tuple:
    """(B.7): d(v_i^2)/dt - 2 prod_j v_j along dv/dt = F(v), for each i (symbolic v_1..v_k; k fixed)."""
    v = sp.symbols(f"v1:{k + 1}", real=True)
    total = sp.Integer(1)
    for vj in v:
        total *= vj
    return tuple(sp.expand(2 * v[i] * _vel(v, i) - 2 * total) for i in range(k))


@cache
def product_rate_residual(k: int) -> sp.Expr:
    """(a): d(prod_i v_i)/dt - sum_i (prod_{j != i} v_j)^2 along the flow (chain rule, k fixed)."""
    v = sp.symbols(f"v1:{k + 1}", real=True)
    prod = sp.Integer(1)
    for vj in v:
        prod *= vj
    rate = sum(sp.diff(prod, v[i]) * _vel(v, i) for i in range(k))
    return sp.expand(rate - sum(_vel(v, i) ** 2 for i in range(k)))


@cache
def equal_init_solution_residual() -> tuple:
    """v(t) = (a^{2-k} - (k-2) t)^{-1/(k-2)} solves v' = v^{k-1}, v(0) = a, for symbolic k = 2 + s > 2.

    Returns (v' - v^{k-1}, v(0) - a), both 0.  The base X = a^{2-k} - (k-2)t is positive before the
    blow-up; it is a positive symbol here and t = (a^{-s} - X)/s.
    """
    X = sp.Symbol("X", positive=True)
    k = 2 + s
    v = X ** (-1 / (k - 2))
    dXdt = -(k - 2)
    ode = _simplify(sp.powsimp(sp.diff(v, X) * dXdt - v ** (k - 1), force=True))
    init = _simplify(v.subs(X, a ** (2 - k)) - a)
    return ode, init


@cache
def equal_init_blowup_residual() -> tuple:
    """T_inf for equal init: int_0^oo (1/2)(g + a^2)^{-k/2} dg - a^{2-k}/(k-2) (= 0), and the zero of the
    base of the closed form, a^{2-k}/(k-2) (k = 2 + s symbolic)."""
    k = 2 + s
    integral = sp.integrate(sp.Rational(1, 2) * (g + a**2) ** (-k / 2), (g, 0, sp.oo), conds="none", meijerg=False)
    r1 = _simplify(sp.powsimp(integral - a ** (2 - k) / (k - 2), force=True))
    T = sp.solve(sp.Eq(a ** (2 - k) - (k - 2) * t, 0), t)
    r2 = _simplify(T[0] - a ** (2 - k) / (k - 2)) if len(T) == 1 else sp.Integer(1)
    return r1, r2


@cache
def maclaurin_integral_residuals() -> tuple:
    """The two integrals of the proof of Lemma B.8 with a mean m (= vbar_a or vbar_g), k = 2 + s:

    int_0^c (1/2)(g + m)^{-k/2} dg - (m^{1-k/2} - (c + m)^{1-k/2})/(k-2)   and
    int_c^oo (1/2)(g + m)^{-k/2} dg - (c + m)^{1-k/2}/(k-2);  both 0.
    """
    k = 2 + s
    f = sp.Rational(1, 2) * (g + m) ** (-k / 2)
    i1 = sp.integrate(f, (g, 0, c), conds="none", meijerg=False)
    i2 = sp.integrate(f, (g, c, sp.oo), conds="none", meijerg=False)
    r1 = _simplify(sp.powsimp(i1 - (m ** (1 - k / 2) - (c + m) ** (1 - k / 2)) / (k - 2), force=True))
    r2 = _simplify(sp.powsimp(i2 - (c + m) ** (1 - k / 2) / (k - 2), force=True))
    return r1, r2


@cache
def comparison_solution_residual() -> tuple:
    """The comparison ODEs behind (g) and (B.8): r' = 2 r^{k/2}, r(0) = m.

    k > 2: r(t) = (m^{-(k/2-1)} - (k-2) t)^{-1/(k/2-1)} (base X > 0 as a symbol, t = (m^{-(k/2-1)} - X)/(k-2));
    k = 2: r(t) = m e^{2t}.  Returns (ode residual k > 2, initial residual k > 2, ode residual k = 2), all 0.
    q = r - m then gives the bounds of (B.8) and (g).
    """
    X = sp.Symbol("X", positive=True)
    k = 2 + s
    r = X ** (-1 / (k / 2 - 1))
    ode = _simplify(sp.powsimp(sp.diff(r, X) * (-(k - 2)) - 2 * r ** (k / 2), force=True))
    init = _simplify(sp.powsimp(r.subs(X, m ** (-(k / 2 - 1))) - m, force=True))
    r2 = m * sp.exp(2 * t)
    ode2 = _simplify(sp.diff(r2, t) - 2 * r2)
    return ode, init, ode2


@cache
def k2_sandwich_residuals() -> tuple:
    """k = 2, v1(0) = a, v2(0) = c with a c > 0 (a, c > 0 here; the sign-flipped case is the same).

    The flow is v1 = ((a+c)/2) e^t + ((a-c)/2) e^{-t}, v2 = ((a+c)/2) e^t - ((a-c)/2) e^{-t}.  Returns
    (ODE residuals of v1, v2; q - vbar_g (e^{2t} - 1) - ((a-c)^2/4)(e^t - e^{-t})^2;
    vbar_a (e^{2t} - 1) - q - ((a-c)^2/4)(e^{2t} - e^{-2t})), all 0: the gaps to the bounds of (g) are
    these manifestly non-negative expressions for t >= 0.
    """
    v1 = (a + c) / 2 * sp.exp(t) + (a - c) / 2 * sp.exp(-t)
    v2 = (a + c) / 2 * sp.exp(t) - (a - c) / 2 * sp.exp(-t)
    ode1 = _simplify(sp.diff(v1, t) - v2)
    ode2 = _simplify(sp.diff(v2, t) - v1)
    init = _simplify(v1.subs(t, 0) - a) + _simplify(v2.subs(t, 0) - c)
    qq = sp.expand(v1**2 - a**2)
    vg = a * c
    va = (a**2 + c**2) / 2
    low = _simplify(sp.expand(qq - vg * (sp.exp(2 * t) - 1) - (a - c) ** 2 / 4 * (sp.exp(t) - sp.exp(-t)) ** 2))
    up = _simplify(sp.expand(va * (sp.exp(2 * t) - 1) - qq - (a - c) ** 2 / 4 * (sp.exp(2 * t) - sp.exp(-2 * t))))
    return ode1, ode2, init, low, up


@cache
def blowup_expression_residuals(k: int) -> tuple:
    """The blow-up time of Lemma B.8's proof for fixed k >= 3 and positive |v_i(0)| = p_i.

    Returns (final - from_B8, intermediate - final): ``from_B8`` = vbar_g^{1-k/2}/(k-2) is the zero of the
    base of the lower bound in (B.8); ``final`` = 1/((k-2) (prod p_i)^{1-2/k}) is the printed final
    expression; ``intermediate`` = 1/((k-2) vbar_g^{-(k/2-1)}) is the printed intermediate.  The first
    residual is 0; the second is not (the intermediate has the exponent's sign flipped).
    """
    p = sp.symbols(f"p1:{k + 1}", positive=True)
    prod = sp.Integer(1)
    for pi in p:
        prod *= pi
    vg = (prod**2) ** sp.Rational(1, k)
    from_b8 = vg ** (1 - sp.Rational(k, 2)) / (k - 2)
    final = 1 / ((k - 2) * prod ** (1 - sp.Rational(2, k)))
    intermediate = 1 / ((k - 2) * vg ** (-(sp.Rational(k, 2) - 1)))
    r1 = _simplify(sp.powsimp(sp.expand_power_base(from_b8 - final, force=True), force=True))
    r2 = _simplify(sp.powsimp(sp.expand_power_base(intermediate - final, force=True), force=True))
    return r1, r2


@cache
def counting_limits(k: int) -> tuple:
    """For fixed k, the limits as n -> oo of (n/k)^k / C(n, k) and of C(n, k) / (n e / k)^k (symbolic n)."""
    n = sp.Symbol("n", positive=True)
    binom = sp.expand_func(sp.binomial(n, k))
    frac = sp.limit((n / k) ** k / binom, n, sp.oo)
    approx = sp.limit(binom / (n * sp.E / k) ** k, n, sp.oo)
    return sp.nsimplify(frac), sp.simplify(approx)
