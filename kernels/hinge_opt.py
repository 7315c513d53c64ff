"""Certified minima of the population hinge loss of a linear readout on fixed features.

F(u) = (1/N) sum_j max(0, 1 - y_j u . phi_j) over a finite population (rows of ``features``).

* :func:`hinge_min_l2_ball` brackets min_{||u||_2 <= M} F(u) between a dual lower bound and a
  primal upper bound.  By Sion's minimax theorem (the ball is compact and convex),

      min_{||u|| <= M} F(u) = max_{alpha in [0, 1/N]^N} sum_j alpha_j - M || sum_j alpha_j y_j phi_j ||_2,

  so *any* alpha in the box gives a lower bound and any u in the ball an upper bound.  The dual is
  maximised with L-BFGS-B, the primal (an SOCP in (u, s)) with SLSQP; the primal point is rescaled
  into the ball before it is evaluated, and the primal point M z / ||z|| recovered from the dual
  (z = sum_j alpha_j y_j phi_j, the minimiser of the inner problem) is tried as well.  The result
  reports both bounds and the gap: the caller decides whether the gap is small enough.
* :func:`hinge_min_lp` solves min F(u), unconstrained or over ||u||_1 <= M, exactly as a linear
  program (scipy HiGHS).  Since ||u||_2 <= ||u||_1, the L1 value is an upper bound for the L2 ball
  of the same radius; the unconstrained value is a lower bound for every ball.

Floating point: the bounds are float64 evaluations of the objective at the returned points (sums of
N terms, relative error <= N u with u = 2^-53); the caller's tolerance must exceed that.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["HingeBallMin", "HingeLP", "hinge_min_l2_ball", "hinge_min_lp", "hinge_loss"]


def _check(features, labels, radius=None, *, radius_name="radius"):
    phi = np.asarray(features, dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    if phi.ndim != 2 or phi.shape[0] < 1 or phi.shape[1] < 1:
        raise ValueError(f"argument 'features' must be a 2-D array (N, r) with N, r >= 1, not shape {phi.shape}")
    if y.shape != (phi.shape[0],):
        raise ValueError(f"argument 'labels' must have shape ({phi.shape[0]},), not {y.shape}")
    if not (np.all(np.isfinite(phi)) and np.all(np.isfinite(y))):
        raise ValueError("arguments 'features' and 'labels' must be finite")
    if radius is not None:
        radius = float(radius)
        if not np.isfinite(radius) or radius < 0:
            raise ValueError(f"argument '{radius_name}' must be a finite real >= 0, not {radius!r}")
    return phi, y, radius


def hinge_loss(features, labels, u) -> float:
    """F(u) for one u (float64, numpy)."""
    phi, y, _ = _check(features, labels)
    u = np.asarray(u, dtype=np.float64)
    return float(np.mean(np.maximum(0.0, 1.0 - y * (phi @ u))))


@dataclass(frozen=True)
class HingeBallMin:
    """min_{||u||_2 <= radius} F(u) lies in [lower, upper]; ``u`` attains ``upper`` (||u|| <= radius)."""

    lower: float
    upper: float
    u: np.ndarray
    alpha: np.ndarray

    @property
    def gap(self) -> float:
        return self.upper - self.lower


def _dual_value(yp: np.ndarray, a: np.ndarray, M: float) -> float:
    """D(alpha) = sum alpha - M ||sum alpha_j y_j phi_j||: a lower bound on the ball minimum for any alpha in the box."""
    return float(a.sum()) - M * float(np.linalg.norm(yp.T @ a))


def hinge_min_l2_ball(features, labels, radius) -> HingeBallMin:
    """Bracket min over the Euclidean ball of radius ``radius`` (see the module docstring).

    1. The unconstrained LP (HiGHS) gives a minimiser u_LP and dual values alpha_LP in the box; if
       ||u_LP|| <= M, F(u_LP) is optimal and D(alpha_LP) certifies it (the ball constraint is inactive,
       z(alpha_LP) = 0 up to the LP tolerance).
    2. Otherwise SLSQP solves the primal SOCP in (u, s) from u_LP rescaled into the ball, and the dual
       is maximised by L-BFGS-B (where ||z|| > 0 and D is smooth) from the KKT guess of that primal point
       (alpha_j = 1/N on rows with margin < 1, 0 on rows with margin > 1, 1/(2N) on the support rows),
       first over the support rows only, then (only while the gap exceeds 1e-12) over all rows and
       from two uniform starts.
    The lower bound is the best D(alpha) found (and 0); the upper bound the best F at a point of the ball.
    """
    from scipy.optimize import minimize

    phi, y, M = _check(features, labels, radius)
    N, r = phi.shape
    yp = y[:, None] * phi
    box = 1.0 / N

    lp = hinge_min_lp(phi, y)
    alphas = [np.zeros(N)]
    if lp.alpha is not None:
        alphas.append(np.clip(lp.alpha, 0.0, box))
    candidates = [np.zeros(r)]
    nrm = float(np.linalg.norm(lp.u))
    candidates.append(lp.u if nrm <= M else lp.u * (M / nrm))
    if nrm > M:
        x0 = np.concatenate([candidates[-1], np.maximum(0.0, 1.0 - yp @ candidates[-1])])
        cons = [
            {"type": "ineq", "fun": lambda x: x[r:] - (1.0 - yp @ x[:r]), "jac": lambda x: np.hstack([yp, np.eye(N)])},
            {"type": "ineq", "fun": lambda x: np.array([M * M - x[:r] @ x[:r]]),
             "jac": lambda x: np.concatenate([-2.0 * x[:r], np.zeros(N)])[None, :]},
        ]
        obj_grad = np.concatenate([np.zeros(r), np.full(N, box)])
        res = minimize(lambda x: (float(x[r:].mean()), obj_grad), x0, jac=True, method="SLSQP", constraints=cons,
                       bounds=[(None, None)] * r + [(0.0, None)] * N, options={"maxiter": 2000, "ftol": 1e-15})
        up = np.asarray(res.x[:r], dtype=np.float64)
        if float(np.linalg.norm(up)) > M:
            up = up * (M / float(np.linalg.norm(up)))
        candidates.append(up)
        margins = yp @ up
        guess = np.where(margins < 1.0 - 1e-7, box, np.where(margins > 1.0 + 1e-7, 0.0, 0.5 * box))

        def neg_dual_on(free, fixed):
            def f(a_free):
                a = fixed.copy()
                a[free] = a_free
                z = yp.T @ a
                nz = float(np.linalg.norm(z))
                grad = np.ones(N)
                if nz > 0:
                    grad = grad - M * (yp @ z) / nz
                return -(float(a.sum()) - M * nz), -grad[free]
            return f

        free = np.flatnonzero(guess == 0.5 * box)
        everything = np.arange(N)
        starts = [(free, guess), (everything, guess), (everything, np.full(N, 0.5 * box)), (everything, np.full(N, box))]
        best_up = min(hinge_loss(phi, y, c) for c in candidates)
        for idx, a0 in starts:
            if max(_dual_value(yp, a, M) for a in alphas) >= best_up - 1e-12:
                break  # certified to rounding: no further start needed
            if idx.size == 0:
                continue
            dres = minimize(neg_dual_on(idx, a0), a0[idx], jac=True, method="L-BFGS-B", bounds=[(0.0, box)] * idx.size,
                            options={"maxiter": 5000, "ftol": 1e-16, "gtol": 1e-14})
            a = a0.copy()
            a[idx] = np.clip(dres.x, 0.0, box)
            alphas.append(a)
            z = yp.T @ a
            if float(np.linalg.norm(z)) > 0:
                candidates.append(M * z / float(np.linalg.norm(z)))
    lows = [_dual_value(yp, a, M) for a in alphas]
    ia = int(np.argmax(lows))
    values = [hinge_loss(phi, y, c) for c in candidates]
    iu = int(np.argmin(values))
    u = candidates[iu]
    if float(np.linalg.norm(u)) > M:  # rounding of a rescaling
        u = u * (1.0 - 1e-15)
    return HingeBallMin(lower=float(lows[ia]), upper=float(hinge_loss(phi, y, u)), u=u, alpha=alphas[ia])


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
    yp = sp.csr_matrix(y[:, None] * phi)
    eye = sp.identity(N, format="csr")
    if M is None:
        c = np.concatenate([np.zeros(r), np.full(N, 1.0 / N)])
        A = sp.hstack([-yp, -eye], format="csr")
        res = linprog(c, A_ub=A, b_ub=-np.ones(N), bounds=[(None, None)] * r + [(0, None)] * N, method="highs")
        u = res.x[:r] if res.x is not None else np.zeros(r)
        marg = getattr(getattr(res, "ineqlin", None), "marginals", None)
        alpha = -np.asarray(marg, dtype=np.float64) if marg is not None else None
    else:
        c = np.concatenate([np.zeros(2 * r), np.full(N, 1.0 / N)])
        budget = sp.csr_matrix(np.concatenate([np.ones(2 * r), np.zeros(N)])[None, :])
        A = sp.vstack([sp.hstack([-yp, yp, -eye]), budget], format="csr")
        b = np.concatenate([-np.ones(N), [M]])
        res = linprog(c, A_ub=A, b_ub=b, bounds=[(0, None)] * (2 * r + N), method="highs")
        u = res.x[:r] - res.x[r:2 * r] if res.x is not None else np.zeros(r)
        alpha = None
        excess = float(np.abs(u).sum()) - M
        if excess > 0:  # solver tolerance: shrink onto the L1 ball so the value stays attained
            u = u * (M / float(np.abs(u).sum()))
    return HingeLP(value=hinge_loss(phi, y, u), u=np.asarray(u, dtype=np.float64), status=int(res.status),
                   message=str(res.message), alpha=alpha)
