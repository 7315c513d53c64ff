"""Small trainers for the sparse-retrieval experiments of seed 002 (arXiv 2503.11272): a feedforward net
with a fully connected first layer (Definition 5, lines 399-441) and a single-layer multi-head transformer
(lines 275-313, separate W_Q, W_K so that the Figure 2 experiment can be mirrored).

Both are plain numpy with hand-written backward passes (tested against central finite differences in
tests/sparse_retrieval/test_sparse_retrieval_training.py).  Everything is float64 and seeded, so runs are
bit-for-bit reproducible on one machine.

FFN: x_flat (n, P) -> y_hat (n, K),  y_hat = relu(x_flat W^T + c) A^T   (W (m, P), c (m,), A (K, m)).
Transformer: Z (n, N, D) -> y_hat (n, N); head h: S = (Z Wq_h^T)(Z Wk_h^T)^T / sqrt(D_k), softmax rows,
O_h = softmax(S) Z; readout a^T relu(W2 concat_h O_h + b2) + c2.
Bidirectional GRU (the recurrent model of Figure 1: the authors' ``BGRU``, torch ``nn.GRU(bidirectional=True)``
followed by ``Linear(2 H -> 1)``; catalog E36): Z (n, N, D) -> y_hat (n, N), see ``bigru_forward_backward``.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import sqrt

import numba
import numpy as np

from .._checks import require_finite, require_int
from ._common import single_threaded_blas
from ._einsum_order import _dot_rows_sse, _sum_outer_seq

__all__ = [
    "Adam",
    "bigru_forward_backward",
    "bigru_init",
    "ffn_forward_backward",
    "ffn_init",
    "transformer_forward_backward",
    "transformer_init",
]


def ffn_init(rng: np.random.Generator, P: int, m: int, K: int) -> dict:
    P = require_int("P", P, min_value=1, max_value=10**7)
    m = require_int("m", m, min_value=1, max_value=10**6)
    K = require_int("K", K, min_value=1, max_value=10**6)
    return {"W": rng.standard_normal((m, P)) / sqrt(P), "c": np.zeros(m), "A": rng.standard_normal((K, m)) / sqrt(m)}


def ffn_forward_backward(params: dict, X: np.ndarray, Y: np.ndarray | None = None):
    """Forward (and, with targets Y, the MSE loss mean((y_hat - Y)^2) and its gradients)."""
    require_finite("X", X)
    if Y is not None:
        require_finite("Y", Y)
    pre = X @ params["W"].T + params["c"]
    h = np.maximum(pre, 0.0)
    out = h @ params["A"].T
    if Y is None:
        return out
    loss, g_out = _mse(out, Y)
    gA = g_out.T @ h
    g_pre = (g_out @ params["A"]) * (pre > 0)
    return out, loss, {"W": g_pre.T @ X, "c": g_pre.sum(0), "A": gA}


def transformer_init(rng: np.random.Generator, D: int, H: int, Dk: int, m: int) -> dict:
    D = require_int("D", D, min_value=1, max_value=10**5)
    H = require_int("H", H, min_value=1, max_value=1024)
    Dk = require_int("Dk", Dk, min_value=1, max_value=10**5)
    m = require_int("m", m, min_value=1, max_value=10**6)
    return {
        "Wq": rng.standard_normal((H, Dk, D)) / sqrt(D),
        "Wk": rng.standard_normal((H, Dk, D)) / sqrt(D),
        "W2": rng.standard_normal((m, H * D)) / sqrt(H * D),
        "b2": np.zeros(m),
        "a": rng.standard_normal(m) / sqrt(m),
        "c2": np.zeros(1),
    }


def transformer_forward_backward(params: dict, Z: np.ndarray, Y: np.ndarray | None = None):
    """Forward pass (n, N) and, with targets, MSE over all positions and gradients of every parameter.

    The contractions are the numba kernels ``_dot_rows_sse`` / ``_sum_outer_seq``, which sum in the order of the
    numpy einsums they replaced (kept as ``_transformer_forward_backward_einsum``; same bits, ~3x less time at
    the experiments' sizes)."""
    n, N, D = Z.shape
    H, Dk, _ = params["Wq"].shape
    m = params["W2"].shape[0]
    if min(N, D, Dk, m) < 2:  # einsum's loop order there (size-1 axes coalesced) was not emulated: call it
        return _transformer_forward_backward_einsum(params, Z, Y)
    scale = 1.0 / sqrt(Dk)
    Z = np.ascontiguousarray(Z, dtype=np.float64)
    Zf = Z.reshape(1, n * N, D)
    # Q/K: (a, h, n, k) = sum_d W[h, k, d] Z[a, n, d]
    Qs = np.ascontiguousarray(np.stack([_dot_rows_sse(Zf, np.ascontiguousarray(params["Wq"][h])[None])[0]
                                        for h in range(H)], axis=0).reshape(H, n, N, Dk).transpose(1, 0, 2, 3))
    Ks = np.ascontiguousarray(np.stack([_dot_rows_sse(Zf, np.ascontiguousarray(params["Wk"][h])[None])[0]
                                        for h in range(H)], axis=0).reshape(H, n, N, Dk).transpose(1, 0, 2, 3))
    S = _dot_rows_sse(Qs.reshape(n * H, N, Dk), Ks.reshape(n * H, N, Dk)).reshape(n, H, N, N) * scale
    S -= S.max(axis=3, keepdims=True)
    Pm = np.exp(S)
    Pm /= Pm.sum(axis=3, keepdims=True)
    # O (a, i, h, d) = sum_j P[a, h, i, j] Z[a, j, d]
    PmT = np.ascontiguousarray(Pm.transpose(0, 1, 3, 2))  # (a, h, j, i)
    Zrep = np.ascontiguousarray(np.broadcast_to(Z[:, None], (n, H, N, D))).reshape(n * H, N, D)
    O = np.ascontiguousarray(_sum_outer_seq(PmT.reshape(n * H, N, N), Zrep).reshape(n, H, N, D)
                             .transpose(0, 2, 1, 3)).reshape(n, N, H * D)
    pre, hid, out = _readout(params, O)
    if Y is None:
        return out
    loss, g_out = _mse(out, Y)
    g = {"a": _sum_outer_seq(np.ascontiguousarray(g_out).reshape(1, n * N, 1), hid.reshape(1, n * N, m))[0, 0],
         "c2": np.array([g_out.sum()])}
    g_pre = g_out[:, :, None] * params["a"] * (pre > 0)
    g["W2"] = _sum_outer_seq(g_pre.reshape(1, n * N, m), O.reshape(1, n * N, H * D))[0]
    g["b2"] = g_pre.sum((0, 1))
    gO = (g_pre @ params["W2"]).reshape(n, N, H, D)
    # gP (a, h, i, j) = sum_d gO[a, i, h, d] Z[a, j, d]
    gOh = np.ascontiguousarray(gO.transpose(0, 2, 1, 3)).reshape(n * H, N, D)
    gP = _dot_rows_sse(gOh, Zrep).reshape(n, H, N, N)
    gS = Pm * (gP - (gP * Pm).sum(axis=3, keepdims=True)) * scale
    # gQ (a, h, i, k) = sum_j gS[a, h, i, j] Ks[a, h, j, k];  gK (a, h, j, k) = sum_i gS[a, h, i, j] Qs[a, h, i, k]
    gSf = gS.reshape(n * H, N, N)
    gQ = _sum_outer_seq(np.ascontiguousarray(gS.transpose(0, 1, 3, 2)).reshape(n * H, N, N),
                        Ks.reshape(n * H, N, Dk)).reshape(n, H, N, Dk)
    gK = _sum_outer_seq(gSf, Qs.reshape(n * H, N, Dk)).reshape(n, H, N, Dk)
    # W grads (h, k, d) = sum_{a, n} g[a, h, n, k] Z[a, n, d]
    g["Wq"] = np.stack([_sum_outer_seq(np.ascontiguousarray(gQ[:, h]).reshape(1, n * N, Dk), Zf)[0] for h in range(H)])
    g["Wk"] = np.stack([_sum_outer_seq(np.ascontiguousarray(gK[:, h]).reshape(1, n * N, Dk), Zf)[0] for h in range(H)])
    return out, loss, g


def _readout(params: dict, O: np.ndarray):
    """(pre, hid, out) of the transformer's ReLU readout of the attention output O (n, N, H D)."""
    pre = O @ params["W2"].T + params["b2"]
    hid = np.maximum(pre, 0.0)
    return pre, hid, hid @ params["a"] + params["c2"][0]


def _mse(out: np.ndarray, Y: np.ndarray) -> tuple[float, np.ndarray]:
    """(mean squared error over all positions, its gradient with respect to ``out``)."""
    diff = out - Y
    return float(np.mean(diff**2)), 2 * diff / diff.size


def _transformer_forward_backward_einsum(params: dict, Z: np.ndarray, Y: np.ndarray | None = None):
    """The numpy-einsum form of ``transformer_forward_backward`` (reference of its tests; same bits)."""
    n, N, D = Z.shape
    H, Dk, _ = params["Wq"].shape
    scale = 1.0 / sqrt(Dk)
    Qs = np.einsum("hkd,and->ahnk", params["Wq"], Z)
    Ks = np.einsum("hkd,and->ahnk", params["Wk"], Z)
    S = np.einsum("ahik,ahjk->ahij", Qs, Ks) * scale
    S -= S.max(axis=3, keepdims=True)
    Pm = np.exp(S)
    Pm /= Pm.sum(axis=3, keepdims=True)
    O = np.einsum("ahij,ajd->aihd", Pm, Z).reshape(n, N, H * D)
    pre, hid, out = _readout(params, O)
    if Y is None:
        return out
    loss, g_out = _mse(out, Y)
    g = {"a": np.einsum("an,anm->m", g_out, hid), "c2": np.array([g_out.sum()])}
    g_pre = g_out[:, :, None] * params["a"] * (pre > 0)
    g["W2"] = np.einsum("anm,anp->mp", g_pre, O)
    g["b2"] = g_pre.sum((0, 1))
    gO = (g_pre @ params["W2"]).reshape(n, N, H, D)
    gP = np.einsum("aihd,ajd->ahij", gO, Z)
    gS = Pm * (gP - (gP * Pm).sum(axis=3, keepdims=True)) * scale
    gQ = np.einsum("ahij,ahjk->ahik", gS, Ks)
    gK = np.einsum("ahij,ahik->ahjk", gS, Qs)
    g["Wq"] = np.einsum("ahnk,and->hkd", gQ, Z)
    g["Wk"] = np.einsum("ahnk,and->hkd", gK, Z)
    return out, loss, g


def bigru_init(rng: np.random.Generator, D: int, H: int) -> dict:
    """Bidirectional GRU parameters with torch's default initialisation (every entry ~ U(-1/sqrt(H), 1/sqrt(H))).

    Direction s in {f (left to right), b (right to left)}: ``Wx_s`` (3H, D), ``Wh_s`` (3H, H), ``bx_s``, ``bh_s``
    (3H,), gate blocks in torch's order (reset r, update z, candidate n); readout ``a`` (2H,), ``c`` (1,)."""
    D = require_int("D", D, min_value=1, max_value=10**5)
    H = require_int("H", H, min_value=1, max_value=10**4)
    k = 1.0 / sqrt(H)
    params = {}
    for s in ("f", "b"):
        params[f"Wx_{s}"] = rng.uniform(-k, k, (3 * H, D))
        params[f"Wh_{s}"] = rng.uniform(-k, k, (3 * H, H))
        params[f"bx_{s}"] = rng.uniform(-k, k, 3 * H)
        params[f"bh_{s}"] = rng.uniform(-k, k, 3 * H)
    k2 = 1.0 / sqrt(2 * H)
    params["a"] = rng.uniform(-k2, k2, 2 * H)
    params["c"] = rng.uniform(-k2, k2, 1)
    return params


def _sigmoid(x):
    return 0.5 * (1.0 + np.tanh(0.5 * x))


def _rowblock_matmul(A, B, rows: int = 64):
    """A (M, K) @ B (K, J) as a stack of (rows, K) @ (K, J) products: for the GRU sizes of the experiments
    (rows * K * J below OpenBLAS's multithreading threshold, e.g. K <= 32 hidden units) every BLAS call stays
    single-threaded; spin-waiting BLAS threads otherwise slowed the scan about 5x on the shared 2-core machine.
    Agrees with A @ B to rounding (each output row is the same dot products)."""
    M = A.shape[0]
    full = M - M % rows
    out = np.empty((M, B.shape[1]))
    if full:
        out[:full] = (A[:full].reshape(full // rows, rows, A.shape[1]) @ B).reshape(full, B.shape[1])
    if M > full:
        out[full:] = A[full:] @ B
    return out


def _gru_scan(Z, Wx, Wh, bx, bh, reverse: bool):
    """One GRU direction over the positions of Z (n, N, D); returns the states (n, N, H) and the BPTT cache."""
    n, N, _ = Z.shape
    H = Wh.shape[1]
    Xg = _rowblock_matmul(Z.reshape(n * N, -1), np.ascontiguousarray(Wx.T)).reshape(n, N, 3 * H) + bx
    hs = np.empty((n, N, H))
    cache = []
    h = np.zeros((n, H))
    WhT = np.ascontiguousarray(Wh.T)
    for i in (range(N - 1, -1, -1) if reverse else range(N)):
        Hg = _rowblock_matmul(h, WhT) + bh
        r = _sigmoid(Xg[:, i, :H] + Hg[:, :H])
        z = _sigmoid(Xg[:, i, H:2 * H] + Hg[:, H:2 * H])
        cand = np.tanh(Xg[:, i, 2 * H:] + r * Hg[:, 2 * H:])
        cache.append((i, h, r, z, cand, Hg[:, 2 * H:]))
        h = (1.0 - z) * cand + z * h
        hs[:, i] = h
    return hs, cache


def _gru_scan_backward(Z, Wh, cache, dhs):
    """Backpropagation through time for ``_gru_scan``: dhs (n, N, H) = dL/d(states) -> grads (Wx, Wh, bx, bh)."""
    n = Z.shape[0]
    H = Wh.shape[1]
    gWx = np.zeros((3 * H, Z.shape[2]))
    gbx = np.zeros(3 * H)
    gWh = np.zeros_like(Wh)
    gbh = np.zeros(3 * H)
    carry = np.zeros((n, H))
    for i, h_prev, r, z, cand, hn in reversed(cache):
        dh = dhs[:, i] + carry
        d_pre_n = dh * (1.0 - z) * (1.0 - cand**2)
        d_pre_z = dh * (h_prev - cand) * z * (1.0 - z)
        d_pre_r = d_pre_n * hn * r * (1.0 - r)
        dHg = np.concatenate([d_pre_r, d_pre_z, d_pre_n * r], axis=1)
        dXg = np.concatenate([d_pre_r, d_pre_z, d_pre_n], axis=1)
        gWx += dXg.T @ Z[:, i]
        gbx += dXg.sum(0)
        gWh += dHg.T @ h_prev
        gbh += dHg.sum(0)
        carry = dh * z + _rowblock_matmul(dHg, Wh)
    return gWx, gWh, gbx, gbh


def bigru_forward_backward(params: dict, Z: np.ndarray, Y: np.ndarray | None = None):
    """Bidirectional GRU (torch ``nn.GRU`` equations, zero initial states) with a linear readout per position.

    For each direction, with x_i = z_i and h_0 = 0 (the reverse direction runs i = N, ..., 1):
    r = sigma(W_xr x + b_xr + W_hr h + b_hr), u = sigma(W_xz x + b_xz + W_hz h + b_hz),
    c = tanh(W_xn x + b_xn + r * (W_hn h + b_hn)), h' = (1 - u) * c + u * h;
    y_hat_i = a^T (h->_i ; h<-_i) + c0.  Unlike the RNN class of seed 002 Sec. 5.1 (lines 477-514, E25), whose
    states exclude the current token and are projected onto a ball, the trained model (as in the authors' code)
    feeds z_i into both states and has no projection; both are bidirectional maps of the prompt.
    Forward returns (n, N); with targets Y (n, N), also the MSE over all positions and the gradients (hand-written
    backpropagation through time)."""
    H = params["Wh_f"].shape[1]
    hf, cf = _gru_scan(Z, params["Wx_f"], params["Wh_f"], params["bx_f"], params["bh_f"], False)
    hb, cb = _gru_scan(Z, params["Wx_b"], params["Wh_b"], params["bx_b"], params["bh_b"], True)
    out = hf @ params["a"][:H] + hb @ params["a"][H:] + params["c"][0]
    if Y is None:
        return out
    loss, g_out = _mse(out, Y)
    g = {"a": np.concatenate([np.einsum("an,anh->h", g_out, hf), np.einsum("an,anh->h", g_out, hb)]),
         "c": np.array([g_out.sum()])}
    for s, cache, half in (("f", cf, params["a"][:H]), ("b", cb, params["a"][H:])):
        gWx, gWh, gbx, gbh = _gru_scan_backward(Z, params[f"Wh_{s}"], cache, g_out[:, :, None] * half)
        g[f"Wx_{s}"], g[f"Wh_{s}"], g[f"bx_{s}"], g[f"bh_{s}"] = gWx, gWh, gbx, gbh
    return out, loss, g


@numba.njit(cache=True)
def _adam_update(p, g, m, v, beta1, beta2, bc1, bc2, lr, eps, wd):
    """One Adam(W) step on flat float64 arrays, in place: the operations of ``Adam.step``'s numpy form, element by
    element in the same order (no fastmath, so the same bits) without its temporaries."""
    c1 = 1 - beta1
    c2 = 1 - beta2
    for i in range(p.shape[0]):
        gi = g[i]
        mi = m[i] * beta1
        mi = mi + c1 * gi
        m[i] = mi
        vi = v[i] * beta2
        vi = vi + c2 * gi * gi
        v[i] = vi
        p[i] = p[i] - lr * ((mi / bc1) / (np.sqrt(vi / bc2) + eps) + wd * p[i])


@dataclass
class Adam:
    """Adam / AdamW (decoupled weight decay) on a dict of arrays; ``step`` updates in place."""

    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    weight_decay: float = 0.0

    def __post_init__(self):
        self.t = 0
        self.m: dict = {}
        self.v: dict = {}

    def step(self, params: dict, grads: dict) -> None:
        self.t += 1
        bc1, bc2 = 1 - self.beta1**self.t, 1 - self.beta2**self.t
        for k, g in grads.items():
            m = self.m.setdefault(k, np.zeros_like(g))
            v = self.v.setdefault(k, np.zeros_like(g))
            p = params[k]
            if (p.dtype == g.dtype == m.dtype == v.dtype == np.float64 and p.shape == g.shape == m.shape == v.shape
                    and p.flags.c_contiguous and g.flags.c_contiguous and m.flags.c_contiguous and v.flags.c_contiguous
                    and p.flags.writeable):
                _adam_update(p.reshape(-1), g.reshape(-1), m.reshape(-1), v.reshape(-1), self.beta1, self.beta2,
                             bc1, bc2, self.lr, self.eps, self.weight_decay)
                continue
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            mh = m / (1 - self.beta1**self.t)
            vh = v / (1 - self.beta2**self.t)
            params[k] -= self.lr * (mh / (np.sqrt(vh) + self.eps) + self.weight_decay * params[k])


def online_sample_complexity(
    arch: str,
    N: int,
    seed: int,
    *,
    d: int = 10,
    threshold: float = 0.7,
    simple: bool = False,
    max_steps: int = 1500,
    check_every: int = 10,
    test_prompts: int = 1000,
    batch: int = 64,
    ffn_width: int = 512,
    gru_hidden: int = 32,
    lr: float = 1e-3,
    weight_decay: float = 0.01,
    return_params: bool = False,
    curve: list | None = None,
):
    """Figure 1 protocol (seed 002 lines 96-99; authors' sample_complexity.py): online AdamW on fresh (simple-)1STR
    prompts, linear link with u fixed by seed 42, codes omega in {+-1/sqrt(d_e)}^{d_e}, d_e = floor(5 ln N),
    encoding z_i = (x_i, omega_i, omega_{t_i}); returns the number of prompts seen when the test MSE (averaged
    over positions, ``test_prompts`` fresh prompts of the same law) first drops below ``threshold``, or None
    after ``max_steps`` steps.  ``arch``: 'tr' (one head, MLP width 100), 'ffn' (one hidden layer of width
    ``ffn_width`` on the flattened prompt, N outputs) or 'gru' (bidirectional GRU with ``gru_hidden`` units per
    direction and a linear readout, ``bigru_forward_backward``; the authors use 500).  If ``curve`` is a list,
    (prompts seen, test MSE) is appended to it at every check."""
    from math import floor, log

    from ..sequence.qstr import encode_transformer, rademacher_codes, sample_qstr, unit_vectors

    if arch not in ("tr", "ffn", "gru"):
        raise ValueError(f"argument 'arch' must be 'tr', 'ffn' or 'gru', not {arch!r}")
    N = require_int("N", N, min_value=2, max_value=4096)
    max_steps = require_int("max_steps", max_steps, min_value=1, max_value=10**7)
    rng = np.random.default_rng(seed)
    u = unit_vectors(np.random.default_rng(42), 1, d)
    d_e = max(1, floor(5 * log(N)))
    codes = rademacher_codes(np.random.default_rng(43), N, d_e)

    def draw(n):
        b = sample_qstr(rng, n, N, d, 1, u=u, simple=simple)
        return encode_transformer(b.x, b.t, codes, scaled=False), b.y

    Zt, yt = draw(test_prompts)
    D = Zt.shape[2]
    if arch == "tr":
        params = transformer_init(rng, D, 1, D, 100)
        fb, conv = transformer_forward_backward, (lambda Z: Z)
    elif arch == "gru":
        params = bigru_init(rng, D, gru_hidden)
        fb, conv = bigru_forward_backward, (lambda Z: Z)
    else:
        params = ffn_init(rng, N * D, ffn_width, N)
        fb, conv = ffn_forward_backward, (lambda Z: Z.reshape(Z.shape[0], -1))
    opt = Adam(lr=lr, weight_decay=weight_decay)
    reached = None
    # one BLAS thread (kernels.training._common.single_threaded_blas): the products here are small (batch 64,
    # <= 1000 test prompts), and OpenBLAS's spinning threads cost several times the work on a loaded machine
    # (the FFN's runs of seed002.figure_1's quick tier: 3.2 -> 0.44 CPU s); it also makes the bits independent
    # of the machine's core count
    with single_threaded_blas():
        for step in range(1, max_steps + 1):
            Z, y = draw(batch)
            _, _, g = fb(params, conv(Z), y)
            opt.step(params, g)
            if step % check_every == 0:
                test_mse = float(np.mean((fb(params, conv(Zt)) - yt) ** 2))
                if curve is not None:
                    curve.append((step * batch, test_mse))
                if test_mse < threshold:
                    reached = step * batch
                    break
    return (reached, params, codes) if return_params else reached
