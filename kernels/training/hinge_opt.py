"""Certified minima of the population hinge loss of a linear readout on fixed features.

F(u) = (1/N) sum_j max(0, 1 - y_j u . phi_j) over a finite population (rows of ``features``).

* :func:`hinge_min_l2_ball` brackets min_{||u||_2 <= M} F(u) between a dual lower bound and a
  primal upper bound.  From (z)_+ = max_{a in [0, 1]} a z and max_{||u|| <= M} v . u = M ||v||
  (weak duality; equality by Sion's minimax theorem, the ball being compact and convex),

      min_{||u|| <= M} F(u) = max_{alpha in [0, 1/N]^N} D(alpha),
      D(alpha) = sum_j alpha_j - M || sum_j alpha_j y_j phi_j ||_2,

  so *any* alpha in the box gives a lower bound and any u in the ball an upper bound.  A sequence of
  increasingly expensive steps (see the function) stops as soon as the bracket is narrow enough; the
  result names the step that produced the upper bound, reports both bounds and the gap, and the
  caller decides whether the gap is small enough.
* :func:`hinge_min_lp` solves min F(u), unconstrained or over ||u||_1 <= M, exactly as a linear
  program (scipy HiGHS).  Since ||u||_2 <= ||u||_1, the L1 value is an upper bound for the L2 ball
  of the same radius; the unconstrained value is a lower bound for every ball.

Floating point: the bounds are float64 evaluations of the objective at the returned points (sums of
N terms, relative error <= N u with u = 2^-53); the caller's tolerance must exceed that.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._checks import require_finite

__all__ = ["HingeBallMin", "HingeLP", "hinge_loss", "hinge_min_l2_ball", "hinge_min_lp"]


def _check(features, labels, radius=None, *, radius_name="radius"):
    phi = np.asarray(features, dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    if phi.ndim != 2 or phi.shape[0] < 1 or phi.shape[1] < 1:
        raise ValueError(f"argument 'features' must be a 2-D array (N, r) with N, r >= 1, not shape {phi.shape}")
    if y.shape != (phi.shape[0],):
        raise ValueError(f"argument 'labels' must have shape ({phi.shape[0]},), not {y.shape}")
    require_finite("features", phi)
    require_finite("labels", y)
    if radius is not None:
        radius = float(radius)
        if not np.isfinite(radius) or radius < 0:
            raise ValueError(f"argument '{radius_name}' must be a finite real >= 0, not {radius!r}")
    return phi, y, radius


def hinge_loss(features, labels, u) -> float:
    """F(u) for one u (float64, numpy)."""
    phi, y, _ = _check(features, labels)
    u = np.asarray(u, dtype=np.float64)
    require_finite("u", u)
    return float(np.mean(np.maximum(0.0, 1.0 - y * (phi @ u))))


def _lp_rows(A: np.ndarray):
    """The LP min (1/N) sum s over (u, s): s >= 0, s_j >= 1 - A_j . u, as (c, A_ub, b_ub, bounds) for linprog."""
    import scipy.sparse as sp

    N, r = A.shape
    c = np.concatenate([np.zeros(r), np.full(N, 1.0 / N)])
    A_ub = sp.hstack([sp.csr_matrix(-A), -sp.identity(N, format="csr")], format="csr")
    return c, A_ub, -np.ones(N), [(None, None)] * r + [(0, None)] * N


@dataclass(frozen=True)
class HingeBallMin:
    """min_{||u||_2 <= radius} F(u) lies in [lower, upper].

    ``u`` attains ``upper`` (||u|| <= radius); ``alpha`` (in [0, 1/N]^N) is the best dual point found,
    D(alpha) <= lower (equal up to rounding, except after the exact 1-D enumeration, which certifies
    ``lower`` by itself); ``method`` names the step of :func:`hinge_min_l2_ball` that produced ``u``.
    """

    lower: float
    upper: float
    u: np.ndarray
    alpha: np.ndarray
    method: str

    @property
    def gap(self) -> float:
        return self.upper - self.lower


class _Bracket:
    """Running best bounds for A = y[:, None] * phi: dual points a in [0, 1]^N (alpha = a / N), primal u in the ball."""

    def __init__(self, A: np.ndarray, M: float):
        self.A, self.M = A, M
        self.N, self.r = A.shape
        self.lower, self.a = 0.0, np.zeros(self.N)  # D(0) = 0
        self.upper, self.u, self.method = np.inf, np.zeros(self.r), ""

    @property
    def gap(self) -> float:
        return self.upper - self.lower

    def loss(self, u: np.ndarray) -> float:
        return float(np.mean(np.maximum(0.0, 1.0 - self.A @ u)))

    def dual(self, a: np.ndarray) -> float:
        """D(a / N) = mean(a) - M ||A^T a / N||."""
        return float(np.mean(a)) - self.M * float(np.linalg.norm(self.A.T @ a / self.N))

    def offer_dual(self, a: np.ndarray) -> None:
        a = np.clip(np.asarray(a, dtype=np.float64), 0.0, 1.0)
        val = self.dual(a)
        if val > self.lower:
            self.lower, self.a = val, a

    def offer_primal(self, u: np.ndarray, method: str) -> None:
        u = np.asarray(u, dtype=np.float64)
        nu = float(np.linalg.norm(u))
        if nu > self.M:
            u = u * (self.M / nu)
            while float(np.linalg.norm(u)) > self.M:  # rounding of the rescaling
                u = u * (1.0 - 2.0**-52)
        val = self.loss(u)
        if val < self.upper:
            self.upper, self.u, self.method = val, u, method

    def offer_dual_direction(self, a: np.ndarray, method: str) -> None:
        """The dual point a and the primal point M v / ||v||, v = A^T a (the inner maximiser of the Lagrangian)."""
        self.offer_dual(a)
        v = self.A.T @ np.clip(a, 0.0, 1.0) / self.N
        nv = float(np.linalg.norm(v))
        if nv > 0:
            self.offer_primal(self.M * v / nv, method)

    def dual_ascent(self, a0: np.ndarray, free: np.ndarray | None = None, *, maxiter: int = 20000) -> np.ndarray:
        """L-BFGS-B ascent on D over the box (only the coordinates ``free`` move; all if None), from a0."""
        from scipy.optimize import minimize

        A, N, M = self.A, self.N, self.M
        idx = np.arange(N) if free is None else free
        a_full = np.array(a0, dtype=np.float64)

        def neg_dual(x):
            a_full[idx] = x
            v = A.T @ a_full / N
            nv = float(np.linalg.norm(v))
            grad = np.full(N, 1.0 / N)
            if nv > 0:
                grad = grad - M * (A @ v) / (N * nv)
            return -(float(np.mean(a_full)) - M * nv), -grad[idx]

        res = minimize(neg_dual, a_full[idx].copy(), jac=True, method="L-BFGS-B", bounds=[(0.0, 1.0)] * idx.size,
                       options={"maxiter": maxiter, "ftol": 1e-15, "gtol": 1e-13})
        out = np.array(a0, dtype=np.float64)
        out[idx] = np.clip(res.x, 0.0, 1.0)
        return out

    def result(self) -> HingeBallMin:
        return HingeBallMin(lower=float(self.lower), upper=float(self.upper), u=self.u, alpha=self.a / self.N,
                            method=self.method)


def _slsqp_near_rows(A: np.ndarray, M: float, u0: np.ndarray, k: int) -> np.ndarray:
    """One active-set SLSQP step on the primal min_{||u|| <= M} F(u), from u0.

    The k rows with margins A_j . u0 nearest 1 keep a slack s_j >= max(0, 1 - A_j . u) (the SOCP in
    (u, s) of those rows); the other rows are frozen on their side of the kink: linear 1 - A_j . u
    below margin 1, dropped above.  The model is exact near u0, so its minimiser is a good primal
    point; the caller evaluates the true F there (so the upper bound never depends on the model).
    Cost: SLSQP in r + k variables, independent of N.
    """
    from scipy.optimize import minimize

    N, r = A.shape
    margins = A @ u0
    near = np.argsort(np.abs(margins - 1.0), kind="stable")[:min(k, N)]
    rest = np.ones(N, dtype=bool)
    rest[near] = False
    below = rest & (margins < 1.0)
    As = A[near]
    m = near.size
    # N F(u) in the model (scaled by N: SLSQP's stopping test is absolute)
    lin_grad = np.concatenate([-A[below].sum(axis=0), np.ones(m)])
    const = float(np.count_nonzero(below))
    jac_margin = np.hstack([As, np.eye(m)])
    x0 = np.concatenate([u0, np.maximum(0.0, 1.0 - As @ u0)])
    cons = [
        {"type": "ineq", "fun": lambda x: x[r:] - (1.0 - As @ x[:r]), "jac": lambda x: jac_margin},
        {"type": "ineq", "fun": lambda x: np.array([M * M - x[:r] @ x[:r]]),
         "jac": lambda x: np.concatenate([-2.0 * x[:r], np.zeros(m)])[None, :]},
    ]
    res = minimize(lambda x: (const + float(lin_grad @ x), lin_grad), x0, jac=True, method="SLSQP", constraints=cons,
                   bounds=[(None, None)] * r + [(0.0, None)] * m, options={"maxiter": 500, "ftol": 1e-15})
    return np.asarray(res.x[:r], dtype=np.float64)


def _check_tolerances(gap_tol, refine_gap, max_cuts, slsqp_rounds, slsqp_rows):
    for name, val in (("gap_tol", gap_tol), ("refine_gap", refine_gap)):
        if not (isinstance(val, (int, float)) and np.isfinite(val) and val >= 0):
            raise ValueError(f"argument '{name}' must be a finite real >= 0, not {val!r}")
    for name, val in (("max_cuts", max_cuts), ("slsqp_rounds", slsqp_rounds), ("slsqp_rows", slsqp_rows)):
        if isinstance(val, bool) or not isinstance(val, (int, np.integer)) or val < 0:
            raise ValueError(f"argument '{name}' must be an integer >= 0, not {val!r}")


def hinge_min_l2_ball(features, labels, radius, *, gap_tol: float = 1e-10, refine_gap: float = 1e-7,
                      max_cuts: int = 25, slsqp_rounds: int = 3, slsqp_rows: int = 32) -> HingeBallMin:
    """Bracket min over the Euclidean ball of radius ``radius`` (see the module docstring).

    features: (N, r) float64; labels: (N,) (usually ±1); radius M >= 0.  With A = y[:, None] * phi and
    v(alpha) = A^T alpha, the steps below run in order; each dual point alpha raises ``lower`` to
    D(alpha) and each u (rescaled into the ball if needed) lowers ``upper`` to F(u).  The function
    returns after steps 1 and 3 once the gap is <= ``gap_tol``, after steps 4 and 5 once it is
    <= ``refine_gap``.

    1. alpha = 1/N (all rows) with u = M v / ||v||: lower bound 1 - M ||mean_j y_j phi_j|| (the
       Parseval bound in Fourier terms), exact whenever every margin on the ball is <= 1 (F is then
       linear on the ball), e.g. when M max_j ||phi_j|| <= 1 and |y| = 1.
    2. r = 1: F is convex and piecewise linear, so its minimum over [-M, M] is attained at an end or
       a breakpoint 1/A_j; all of them are enumerated and the bracket is exact (lower = upper).
    3. The unconstrained LP min F (HiGHS) and its dual multipliers, then the minimiser of least
       max-norm on the LP's optimal face (if it lies in the ball it is optimal).
    4. L-BFGS-B ascent on D over the box from alpha = 1/N, with the primal point u = M v / ||v||.
    5. At most ``slsqp_rounds`` rounds of active-set SLSQP on the primal SOCP in (u, s), each from
       the best u so far: the max(``slsqp_rows``, 2r) rows with margins nearest 1 keep a slack, the
       others stay on their side of the kink, so the cost does not grow with N; then L-BFGS-B on D from
       the KKT guess of the new point (alpha_j = 1/N on rows with margin < 1, 0 above 1, 1/(2N) on the
       support), over the support rows first, then over all rows.  This closes the gap where the dual
       point of step 4 is nearly optimal but its primal point M v / ||v|| is not (F is nonsmooth at
       the minimiser, so a small error in v costs first order in F).
    6. At most ``max_cuts`` Kelley cutting-plane LPs: the ball replaced by tangent cuts c_i . u <= M
       at the directions of earlier points; each LP's multipliers are a dual point and its solution,
       rescaled into the ball, a primal point.

    ``method`` in the result names the step that gave ``upper``: "alpha = 1 (linear on the ball)",
    "1-d breakpoints (exact)", "LP (unconstrained optimum inside the ball)", "LP scaled",
    "dual L-BFGS-B (ball active)", "SLSQP primal (ball active)", "dual L-BFGS-B (KKT start)",
    or "Kelley cutting planes (k LPs)".
    """
    phi, y, M = _check(features, labels, radius)
    _check_tolerances(gap_tol, refine_gap, max_cuts, slsqp_rounds, slsqp_rows)
    A = y[:, None] * phi
    N, r = A.shape
    b = _Bracket(A, M)

    # (1) alpha = 1
    b.offer_dual(np.ones(N))
    v = A.T @ np.ones(N) / N
    nv = float(np.linalg.norm(v))
    b.offer_primal(M * v / nv if nv > 0 else np.zeros(r), "alpha = 1 (linear on the ball)")
    if b.gap <= gap_tol:
        return b.result()

    # (2) one feature: exact enumeration of the breakpoints
    if r == 1:
        cand = [-M, 0.0, M] + [1.0 / t for t in A[:, 0] if t != 0 and abs(1.0 / t) <= M]
        vals = [b.loss(np.array([c])) for c in cand]
        j = int(np.argmin(vals))
        b.lower = b.upper = vals[j]
        b.u, b.method = np.array([cand[j]]), "1-d breakpoints (exact)"
        return b.result()

    # (3) unconstrained LP, then the least max-norm minimiser on its optimal face
    import scipy.sparse as sp
    from scipy.optimize import linprog

    c, A_ub, b_ub, bounds = _lp_rows(A)
    lp = linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=bounds, method="highs")
    if lp.status == 0:
        b.offer_dual(-N * np.asarray(lp.ineqlin.marginals))
        c2 = np.concatenate([np.zeros(r + N), [1.0]])
        rows = sp.vstack([
            sp.hstack([A_ub, sp.csr_matrix((N, 1))]),
            sp.hstack([sp.csr_matrix((1, r)), sp.csr_matrix(np.full((1, N), 1.0 / N)), sp.csr_matrix((1, 1))]),
            sp.hstack([sp.identity(r), sp.csr_matrix((r, N)), sp.csr_matrix(-np.ones((r, 1)))]),
            sp.hstack([-sp.identity(r), sp.csr_matrix((r, N)), sp.csr_matrix(-np.ones((r, 1)))]),
        ], format="csr")
        b2 = np.concatenate([b_ub, [lp.fun + 1e-12], np.zeros(2 * r)])
        lp2 = linprog(c2, A_ub=rows, b_ub=b2, bounds=bounds + [(0, None)], method="highs")
        for uc in ([lp2.x[:r]] if lp2.status == 0 else []) + [lp.x[:r]]:
            inside = float(np.linalg.norm(uc)) <= M
            b.offer_primal(uc, "LP (unconstrained optimum inside the ball)" if inside else "LP scaled")
        if b.gap <= gap_tol:
            return b.result()

    # (4) dual ascent from alpha = 1/N
    b.offer_dual_direction(b.dual_ascent(np.ones(N)), "dual L-BFGS-B (ball active)")
    if b.gap <= refine_gap:
        return b.result()

    # (5) active-set SLSQP on the primal, then dual ascent from the KKT guess of its point
    for _ in range(slsqp_rounds):
        before = b.upper
        b.offer_primal(_slsqp_near_rows(A, M, b.u, max(slsqp_rows, 2 * r)), "SLSQP primal (ball active)")
        margins = A @ b.u
        guess = np.where(margins < 1.0 - 1e-7, 1.0, np.where(margins > 1.0 + 1e-7, 0.0, 0.5))
        support = np.flatnonzero(guess == 0.5)
        for free in ([support] if support.size else []) + [None]:
            b.offer_dual_direction(b.dual_ascent(guess, free), "dual L-BFGS-B (KKT start)")
            if b.gap <= refine_gap:
                return b.result()
        if b.upper >= before:
            break  # no progress from this point: leave the rest to the cutting planes

    # (6) Kelley cutting planes: the ball replaced by the cuts c_i . u <= M (c_i unit, at the directions
    # of earlier points); the LP's multipliers a give D(a / N) >= the LP value, since
    # A^T a / N = C^T beta and ||C^T beta|| <= sum beta
    cuts = [b.u / max(float(np.linalg.norm(b.u)), 1e-300)]
    if lp.status == 0 and np.linalg.norm(lp.x[:r]) > 0:
        cuts.append(lp.x[:r] / np.linalg.norm(lp.x[:r]))
    for it in range(max_cuts):
        C = sp.csr_matrix(np.array(cuts))
        rows = sp.vstack([A_ub, sp.hstack([C, sp.csr_matrix((len(cuts), N))])], format="csr")
        lpk = linprog(c, A_ub=rows, b_ub=np.concatenate([b_ub, np.full(len(cuts), M)]), bounds=bounds, method="highs")
        if lpk.status != 0:
            break
        b.offer_dual(-N * np.asarray(lpk.ineqlin.marginals[:N]))
        uk = lpk.x[:r]
        nk = float(np.linalg.norm(uk))
        b.offer_primal(uk, f"Kelley cutting planes ({it + 1} LPs)")
        if b.gap <= refine_gap or nk <= M:
            break
        cuts.append(uk / nk)
    return b.result()


@dataclass(frozen=True)
class HingeLP:
    """Optimal value and minimiser of the LP min F(u) [s.t. ||u||_1 <= l1_radius]; ``status`` from HiGHS."""

    value: float
    u: np.ndarray
    status: int
    message: str
    alpha: np.ndarray | None = None  # dual values of the margin rows (unconstrained LP only), in [0, 1/N]


def hinge_min_lp(features, labels, *, l1_radius=None) -> HingeLP:
    """min_u F(u) as an LP (HiGHS), unconstrained or over ||u||_1 <= l1_radius.

    Variables (u, s) (or (p, q, s) with u = p - q, p, q >= 0 in the L1 case); constraints
    s_j >= 1 - y_j phi_j . u, s >= 0; objective (1/N) sum s.  The returned value is F evaluated at
    the returned u (so it is attained, up to float64 rounding).
    """
    import scipy.sparse as sp
    from scipy.optimize import linprog

    phi, y, M = _check(features, labels, l1_radius, radius_name="l1_radius")
    N, r = phi.shape
    A = y[:, None] * phi
    if M is None:
        c, A_ub, b_ub, bounds = _lp_rows(A)
        res = linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=bounds, method="highs")
        u = res.x[:r] if res.x is not None else np.zeros(r)
        marg = getattr(getattr(res, "ineqlin", None), "marginals", None)
        alpha = -np.asarray(marg, dtype=np.float64) if marg is not None else None
    else:
        yp = sp.csr_matrix(A)
        eye = sp.identity(N, format="csr")
        c = np.concatenate([np.zeros(2 * r), np.full(N, 1.0 / N)])
        budget = sp.csr_matrix(np.concatenate([np.ones(2 * r), np.zeros(N)])[None, :])
        A_ub = sp.vstack([sp.hstack([-yp, yp, -eye]), budget], format="csr")
        b = np.concatenate([-np.ones(N), [M]])
        res = linprog(c, A_ub=A_ub, b_ub=b, bounds=[(0, None)] * (2 * r + N), method="highs")
        u = res.x[:r] - res.x[r:2 * r] if res.x is not None else np.zeros(r)
        alpha = None
        excess = float(np.abs(u).sum()) - M
        if excess > 0:  # solver tolerance: shrink onto the L1 ball so the value stays attained
            u = u * (M / float(np.abs(u).sum()))
    return HingeLP(value=hinge_loss(phi, y, u), u=np.asarray(u, dtype=np.float64), status=int(res.status),
                   message=str(res.message), alpha=alpha)
