"""Full-batch gradient descent with L_{2,nu} weight decay on one-hidden-layer quadratic networks over a
finite group's composition table (seed 004, Sec. 7.3 Thm 7.1 and the experiments of App. D.2,
lines 4780-4819).

Model: f(theta, a, b)[c] = sum_{i<m} (U[i, a] + V[i, b])^2 W[i, c] for all n^2 pairs (a, b) of the
table ``mul`` (label ``mul[a, b]``; Z_p is ``mul = (a + b) mod p``).  Objective

    L(theta) = (1 / n^2) sum_{a,b} CE(f(theta, a, b), mul[a, b]) + lam sum_i ||omega_i||_2^3,

omega_i = (U[i], V[i], W[i]) (the L_{2,3} penalty with r = nu = 3; catalog F: "unspecified ... we used
lam sum_i ||omega_i||^3").  Step t: theta <- theta - eta_t grad L with eta_t = lr * 2^{#{s in lr_double_at:
s <= t}} (the paper's doubling schedule).  Initialisation: U, V, W i.i.d. N(0, init_scale^2 / n) from
``numpy.random.default_rng(seed)``, or explicit parameters.

Records every ``record_every`` steps (and at step 0 and the end): loss and the normalized margin
h(theta) / sum_i ||omega_i||^3 (h = min over pairs of correct minus largest wrong logit).  A run whose
parameters become non-finite stops (``diverged_at``).

Twins: ``backend="reference"`` (numpy, vectorised matrix products, the oracle), ``backend="cpu"``
(numba, explicit loops, ``cache=True``) and ``backend="cuda"`` (numba.cuda, float64, one step = six
small kernels without atomics: activations A = (U_a + V_b)^2 per (pair, neuron); logits, softmax and
dL/dlogits per pair; grad W per (neuron, label); the back-propagated E = 2 H (G W^T) per (pair, neuron);
grad U / grad V per (neuron, element); the update per neuron).  numba.cuda is imported only when the
CUDA twin is first used; it is tested under the simulator (NUMBA_ENABLE_CUDASIM=1).  All agree to
rounding (tests/max_margin).  ``backend="auto"`` resolves by kernels.backend.resolve_backend.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from .._checks import require_finite, require_int, require_memory

__all__ = ["QuadraticMarginResult", "lr_schedule", "train_quadratic_margin"]

MAX_ELEMENTS = 500
MAX_WIDTH = 20_000
MAX_STEPS = 10_000_000


@dataclass(frozen=True)
class QuadraticMarginResult:
    U: np.ndarray
    V: np.ndarray
    W: np.ndarray
    record_steps: np.ndarray
    loss: np.ndarray
    normalized_margin: np.ndarray
    diverged_at: int


def lr_schedule(steps: int, lr: float, double_at) -> np.ndarray:
    """eta_t = lr * 2^{#{s in double_at : s <= t}} for t = 0..steps-1.

    ``steps`` an int in [0, MAX_STEPS], ``lr`` a finite positive real, ``double_at`` integer steps >= 0
    (ValueError naming the argument otherwise)."""
    steps = require_int("steps", steps, min_value=0, max_value=MAX_STEPS)
    _require_positive_real("lr", lr)
    at = np.asarray(double_at)
    if at.size and (at.dtype.kind not in "iu" or at.ndim != 1 or int(at.min()) < 0):
        raise ValueError(f"argument 'double_at' must be a sequence of integer steps >= 0, not {double_at!r}")
    t = np.arange(steps)
    return lr * 2.0 ** np.searchsorted(np.sort(np.asarray(double_at, dtype=np.int64)), t, side="right")


def _require_positive_real(name, value):
    if isinstance(value, bool) or not (isinstance(value, (int, float, np.integer, np.floating)) and np.isfinite(value)
                                       and value > 0):
        raise ValueError(f"argument '{name}' must be a finite positive real number, not {value!r}")


def _validate(mul, m, steps, lr, weight_decay, record_every):
    mul = np.asarray(mul)
    if mul.ndim != 2 or mul.shape[0] != mul.shape[1] or not 2 <= mul.shape[0] <= MAX_ELEMENTS:
        raise ValueError(f"argument 'mul' must be a square table of size in [2, {MAX_ELEMENTS}], not shape {mul.shape}")
    n = mul.shape[0]
    if mul.min() < 0 or mul.max() >= n:
        raise ValueError(f"argument 'mul' must have entries in [0, {n - 1}]")
    require_int("m", m, min_value=1, max_value=MAX_WIDTH)
    require_int("steps", steps, min_value=0, max_value=MAX_STEPS)
    require_int("record_every", record_every, min_value=1, max_value=MAX_STEPS)
    _require_positive_real("lr", lr)
    if not (isinstance(weight_decay, (int, float)) and np.isfinite(weight_decay) and weight_decay >= 0):
        raise ValueError(f"argument 'weight_decay' must be a real number >= 0, not {weight_decay!r}")
    require_memory("m", m, 8 * n * n * (3 * m + 2 * n), what="activations of the full batch")
    return mul.astype(np.int64), n


# ------------------------------------------------------------------------------------------------
# numpy reference
# ------------------------------------------------------------------------------------------------


def _neuron_costs(U, V, W):
    """Per-neuron squared norms ||u_i||^2 + ||v_i||^2 + ||w_i||^2 and the cost sum_i (that)^{3/2}."""
    sq = (U * U).sum(1) + (V * V).sum(1) + (W * W).sum(1)
    return sq, float(np.sum(sq**1.5))


def _all_finite(*arrays) -> bool:
    return all(bool(np.all(np.isfinite(a))) for a in arrays)


def _objective_ref(mul, U, V, W, lam):
    """Loss, gradients and normalized margin (numpy, vectorised)."""
    n = mul.shape[0]
    N = n * n
    lab = mul.reshape(-1)
    H = (U[:, :, None] + V[:, None, :]).reshape(U.shape[0], N)  # (m, N), pair index a n + b
    A = H * H
    L = A.T @ W  # (N, n)
    rows = np.arange(N)
    correct = L[rows, lab]
    Lw = L.copy()
    Lw[rows, lab] = -np.inf
    sq, cost = _neuron_costs(U, V, W)
    margin = float((correct - Lw.max(1)).min()) / cost if cost > 0 else 0.0
    mx = L.max(1, keepdims=True)
    E = np.exp(L - mx)
    Z = E.sum(1, keepdims=True)
    loss = float(np.mean(np.log(Z[:, 0]) + mx[:, 0] - correct)) + lam * cost
    P = E / Z
    P[rows, lab] -= 1.0
    G = P / N  # dLoss / dlogits
    gW = A @ G
    GH = 2 * H * (W @ G.T)  # (m, N)
    GH = GH.reshape(U.shape[0], n, n)
    gU = GH.sum(2)
    gV = GH.sum(1)
    r = 3 * lam * np.sqrt(sq)[:, None]
    return loss, margin, gU + r * U, gV + r * V, gW + r * W


def _train_ref(mul, U, V, W, etas, lam, record_every):
    steps = len(etas)
    rec_steps, losses, margins = [], [], []
    diverged = -1
    for t in range(steps + 1):
        loss, margin, gU, gV, gW = _objective_ref(mul, U, V, W, lam)
        if t % record_every == 0 or t == steps:
            rec_steps.append(t)
            losses.append(loss)
            margins.append(margin)
        if t == steps:
            break
        U = U - etas[t] * gU
        V = V - etas[t] * gV
        W = W - etas[t] * gW
        if not _all_finite(U, V, W):
            diverged = t + 1
            break
    return U, V, W, np.array(rec_steps), np.array(losses), np.array(margins), diverged


# ------------------------------------------------------------------------------------------------
# numba CPU kernel
# ------------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def _softmax_row(labels, L, GL, loss, hmin):
    """The pairs (a, b) of one row a, in order of b: logits L[b] (n x n) with labels[b] = mul[a, b].  Adds
    each pair's cross-entropy to ``loss`` and takes its margin (correct minus largest wrong logit) into
    ``hmin``; GL[b] = dLoss/dlogits of the pair (the mean over the n^2 pairs).  Returns (loss, hmin)."""
    n = L.shape[0]
    N = n * n
    for b in range(n):
        lab = labels[b]
        mx = -np.inf
        wrong = -np.inf
        for c in range(n):
            mx = max(mx, L[b, c])
            if c != lab and L[b, c] > wrong:
                wrong = L[b, c]
        hmin = min(hmin, L[b, lab] - wrong)
        Z = 0.0
        for c in range(n):
            GL[b, c] = np.exp(L[b, c] - mx)
            Z += GL[b, c]
        loss += np.log(Z) + mx - L[b, lab]
        for c in range(n):
            GL[b, c] = GL[b, c] / Z / N
        GL[b, lab] -= 1.0 / N
    return loss, hmin


@numba.njit(cache=True)
def _objective_nb(mul, U, V, W, lam, gU, gV, gW):
    """Loss and normalized margin; the gradients go to gU, gV, gW.  The pairs (a, b) are taken a row a at a
    time (its n pairs in order of b), so that W, its transpose WT and gW are read once per row: logits
    L[b] = sum_i H2[b, i] W[i], the softmax gradients GL[b], gW[i] += H2[b, i] GL[b] and the
    backpropagated dot products DOT[b, i] = W[i] . GL[b] (labels outside, neurons inside), with the
    independent entries innermost on contiguous rows (vectorised); gU and gV accumulate in their
    transposes.  Each entry sees the same floating-point operations in the same order as a loop over
    the pairs with plain per-neuron loops."""
    m, n = U.shape
    N = n * n
    VT = np.ascontiguousarray(V.T)
    WT = np.ascontiguousarray(W.T)
    gUT = np.zeros((n, m))
    gVT = np.zeros((n, m))
    for i in range(m):
        for j in range(n):
            gW[i, j] = 0.0
    sq = np.empty(m)
    cost = 0.0
    for i in range(m):
        s = 0.0
        for j in range(n):
            s += U[i, j] * U[i, j] + V[i, j] * V[i, j] + W[i, j] * W[i, j]
        sq[i] = s
        cost += s ** 1.5
    H = np.empty((n, m))  # row a: H[b, i] = U[i, a] + V[i, b]
    H2 = np.empty((n, m))
    L = np.empty((n, n))
    GL = np.empty((n, n))
    DOT = np.empty((n, m))
    loss = 0.0
    hmin = np.inf
    for a in range(n):
        for b in range(n):
            for i in range(m):
                H[b, i] = U[i, a] + VT[b, i]
                H2[b, i] = H[b, i] * H[b, i]
                DOT[b, i] = 0.0
            for c in range(n):
                L[b, c] = 0.0
        for i in range(m):
            for b in range(n):
                hh = H2[b, i]
                for c in range(n):
                    L[b, c] += hh * W[i, c]
        loss, hmin = _softmax_row(mul[a], L, GL, loss, hmin)
        for i in range(m):
            for b in range(n):
                hh = H2[b, i]
                for c in range(n):
                    gW[i, c] += hh * GL[b, c]
        for b in range(n):
            for c in range(n):
                g = GL[b, c]
                for i in range(m):
                    DOT[b, i] += WT[c, i] * g
            for i in range(m):
                d = 2.0 * H[b, i] * DOT[b, i]
                gUT[a, i] += d
                gVT[b, i] += d
    for i in range(m):
        r = 3.0 * lam * np.sqrt(sq[i])
        for j in range(n):
            gU[i, j] = gUT[j, i] + r * U[i, j]
            gV[i, j] = gVT[j, i] + r * V[i, j]
            gW[i, j] += r * W[i, j]
    margin = hmin / cost if cost > 0 else 0.0
    return loss / N + lam * cost, margin


@numba.njit(cache=True)
def _train_nb(mul, U, V, W, etas, lam, record_every, rec_loss, rec_margin):
    steps = etas.shape[0]
    gU = np.empty_like(U)
    gV = np.empty_like(V)
    gW = np.empty_like(W)
    k = 0
    m, n = U.shape
    for t in range(steps + 1):
        loss, margin = _objective_nb(mul, U, V, W, lam, gU, gV, gW)
        if t % record_every == 0 or t == steps:
            rec_loss[k] = loss
            rec_margin[k] = margin
            k += 1
        if t == steps:
            break
        ok = True
        for i in range(m):
            for j in range(n):
                U[i, j] -= etas[t] * gU[i, j]
                V[i, j] -= etas[t] * gV[i, j]
                W[i, j] -= etas[t] * gW[i, j]
                if not (np.isfinite(U[i, j]) and np.isfinite(V[i, j]) and np.isfinite(W[i, j])):
                    ok = False
        if not ok:
            return t + 1, k
    return -1, k


def train_quadratic_margin(mul, m: int, *, steps: int, lr: float, weight_decay: float, seed: int = 0,
                           lr_double_at=(), init_scale: float = 1.0, record_every: int = 100,
                           params=None, backend: str = "cpu") -> QuadraticMarginResult:
    """Train one quadratic network by full-batch GD on CE + weight_decay * sum_i ||omega_i||^3."""
    mul, n = _validate(mul, m, steps, lr, weight_decay, record_every)
    from ..backend import resolve_backend

    backend = resolve_backend(backend)
    if params is None:
        _require_positive_real("init_scale", init_scale)
        rng = np.random.default_rng(require_int("seed", seed, min_value=0))
        U, V, W = (rng.standard_normal((m, n)) * init_scale / np.sqrt(n) for _ in range(3))
    else:
        U, V, W = (np.array(x, dtype=np.float64) for x in params)
        for name, x in zip("UVW", (U, V, W)):
            if x.shape != (m, n):
                raise ValueError(f"argument 'params' ({name}) must have shape {(m, n)}, not {x.shape}")
            require_finite("params", x, why=f"the initial {name} must be a point of parameter space")
    etas = lr_schedule(steps, float(lr), lr_double_at)
    if backend == "reference":
        U, V, W, rs, ls, ms, div = _train_ref(mul, U, V, W, etas, float(weight_decay), record_every)
        return QuadraticMarginResult(U, V, W, rs, ls, ms, div)
    if backend == "cuda":
        U, V, W, rs, ls, ms, div = _train_cuda(mul, U, V, W, etas, float(weight_decay), record_every)
        return QuadraticMarginResult(U, V, W, rs, ls, ms, div)
    n_rec = steps // record_every + 2
    rec_loss = np.full(n_rec, np.nan)
    rec_margin = np.full(n_rec, np.nan)
    U, V, W = (np.ascontiguousarray(x) for x in (U, V, W))
    div, k = _train_nb(mul, U, V, W, etas, float(weight_decay), int(record_every), rec_loss, rec_margin)
    rs = [t for t in range(steps + 1) if t % record_every == 0 or t == steps]
    if div >= 0:
        rs = rs[:k]
    return QuadraticMarginResult(U, V, W, np.array(rs[:k]), rec_loss[:k], rec_margin[:k], int(div))


# ------------------------------------------------------------------------------------------------
# numba.cuda twin
# ------------------------------------------------------------------------------------------------

MAX_CUDA_ELEMENTS = 256  # per-thread logit buffer (local array) size
_CUDA = {}
cuda = None  # numba.cuda, bound on first use of the CUDA twin


def _cuda_kernels():
    global cuda  # the kernels below look `cuda` up as a module global (the simulator swaps it there)
    if _CUDA:
        return _CUDA
    from numba import cuda

    # ``flag[0]``: -1 while every parameter is finite, else the step t + 1 whose update made one non-finite
    # (set by ``update``, as the CPU twin checks after every update).  Every kernel of a later step is then
    # a no-op, so the parameters stay those after the diverging update, and the host needs to read the
    # flag only where it synchronises anyway (record steps and the end).

    @cuda.jit
    def activations(U, V, H, A, flag):
        t = cuda.grid(1)
        m, n = U.shape
        if flag[0] < 0 and t < n * n * m:
            ab = t // m
            i = t % m
            h = U[i, ab // n] + V[i, ab % n]
            H[ab, i] = h
            A[ab, i] = h * h

    @cuda.jit
    def logits_softmax(mul, A, W, G, loss, marg, flag):
        ab = cuda.grid(1)
        m, n = W.shape
        if flag[0] < 0 and ab < n * n:
            buf = cuda.local.array(MAX_CUDA_ELEMENTS, dtype=numba.float64)
            lab = mul[ab // n, ab % n]
            for c in range(n):
                buf[c] = 0.0
            for i in range(m):
                a = A[ab, i]
                for c in range(n):
                    buf[c] += a * W[i, c]
            mx = -math.inf
            wrong = -math.inf
            for c in range(n):  # Python's max(a, b) (= a unless b > a), written out
                if buf[c] > mx:
                    mx = buf[c]
                if c != lab and buf[c] > wrong:
                    wrong = buf[c]
            z = 0.0
            for c in range(n):
                z += math.exp(buf[c] - mx)
            loss[ab] = math.log(z) + mx - buf[lab]
            marg[ab] = buf[lab] - wrong
            inv = 1.0 / (n * n)
            for c in range(n):
                G[ab, c] = math.exp(buf[c] - mx) / z * inv
            G[ab, lab] -= inv

    @cuda.jit
    def grad_w(A, G, gW, flag):
        t = cuda.grid(1)
        m, n = gW.shape
        if flag[0] < 0 and t < m * n:
            i = t // n
            c = t % n
            s = 0.0
            for ab in range(n * n):
                s += A[ab, i] * G[ab, c]
            gW[i, c] = s

    @cuda.jit
    def backprop(H, G, W, E, flag):
        t = cuda.grid(1)
        m, n = W.shape
        if flag[0] < 0 and t < n * n * m:
            ab = t // m
            i = t % m
            d = 0.0
            for c in range(n):
                d += W[i, c] * G[ab, c]
            E[ab, i] = 2.0 * H[ab, i] * d

    @cuda.jit
    def grad_uv(E, gU, gV, flag):
        t = cuda.grid(1)
        m, n = gU.shape
        if flag[0] < 0 and t < m * n:
            i = t // n
            x = t % n
            su = 0.0
            sv = 0.0
            for y in range(n):
                su += E[x * n + y, i]
                sv += E[y * n + x, i]
            gU[i, x] = su
            gV[i, x] = sv

    @cuda.jit
    def update(U, V, W, gU, gV, gW, lam, eta, cost, flag, step):
        i = cuda.grid(1)
        m, n = U.shape
        # skip only after an earlier step diverged: this step's own flag (step + 1) must not stop the other
        # threads of this launch from updating their neurons (the CPU updates everything, then checks)
        if (flag[0] < 0 or flag[0] > step) and i < m:
            sq = 0.0
            for j in range(n):
                sq += U[i, j] * U[i, j] + V[i, j] * V[i, j] + W[i, j] * W[i, j]
            r = 3.0 * lam * math.sqrt(sq)
            cost[i] = sq * math.sqrt(sq)
            for j in range(n):
                U[i, j] -= eta * (gU[i, j] + r * U[i, j])
                V[i, j] -= eta * (gV[i, j] + r * V[i, j])
                W[i, j] -= eta * (gW[i, j] + r * W[i, j])
                if not (math.isfinite(U[i, j]) and math.isfinite(V[i, j]) and math.isfinite(W[i, j])):
                    flag[0] = step + 1

    _CUDA.update(activations=activations, logits_softmax=logits_softmax, grad_w=grad_w, backprop=backprop,
                 grad_uv=grad_uv, update=update, cuda=cuda)
    return _CUDA


def _train_cuda(mul, U, V, W, etas, lam, record_every):
    m, n = U.shape
    if n > MAX_CUDA_ELEMENTS:
        raise ValueError(f"argument 'mul' has {n} elements; the CUDA twin supports at most {MAX_CUDA_ELEMENTS}")
    k = _cuda_kernels()
    cuda = k["cuda"]
    N = n * n
    dU, dV, dW = (cuda.to_device(np.ascontiguousarray(x)) for x in (U, V, W))
    dmul = cuda.to_device(mul)
    H = cuda.device_array((N, m))
    A = cuda.device_array((N, m))
    E = cuda.device_array((N, m))
    G = cuda.device_array((N, n))
    loss = cuda.device_array(N)
    marg = cuda.device_array(N)
    gU, gV, gW = (cuda.device_array((m, n)) for _ in range(3))
    cost = cuda.device_array(m)
    flag = cuda.to_device(np.full(1, -1, dtype=np.int64))
    tpb = 128

    def blocks(count):
        return (count + tpb - 1) // tpb

    steps = len(etas)
    rec_steps, losses, margins = [], [], []
    diverged = -1
    for t in range(steps + 1):
        k["activations"][blocks(N * m), tpb](dU, dV, H, A, flag)
        k["logits_softmax"][blocks(N), tpb](dmul, A, dW, G, loss, marg, flag)
        if t % record_every == 0 or t == steps:
            div = int(flag.copy_to_host()[0])
            if div >= 0:  # an update since the last record diverged: as on the CPU, no record after it
                diverged = div
                break
            Uh, Vh, Wh = dU.copy_to_host(), dV.copy_to_host(), dW.copy_to_host()
            c = _neuron_costs(Uh, Vh, Wh)[1]
            rec_steps.append(t)
            losses.append(float(loss.copy_to_host().mean()) + lam * c)
            margins.append(float(marg.copy_to_host().min()) / c if c > 0 else 0.0)
            if not _all_finite(Uh, Vh, Wh):
                diverged = t
                break
        if t == steps:
            break
        k["grad_w"][blocks(m * n), tpb](A, G, gW, flag)
        k["backprop"][blocks(N * m), tpb](H, G, dW, E, flag)
        k["grad_uv"][blocks(m * n), tpb](E, gU, gV, flag)
        k["update"][blocks(m), tpb](dU, dV, dW, gU, gV, gW, lam, float(etas[t]), cost, flag, t)
    return (dU.copy_to_host(), dV.copy_to_host(), dW.copy_to_host(), np.array(rec_steps), np.array(losses),
            np.array(margins), diverged)
