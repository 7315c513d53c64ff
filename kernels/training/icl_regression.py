"""In-context regression with a small decoder-only transformer (seed 001, Appendix G, lines 1472-1546).

The setting of Garg et al. (2022) as used by seed 001's experiments, at CPU sizes:

* **Prompts.** ``K`` pairs (x_i, y_i): x_i in R^d from the mixture w1 N(-2 * 1, I) + w2 N(2 * 1, I);
  y_i = f(x_i) for a fresh random N-layer network f per prompt (``sample_targets``: no biases, ReLU
  between the layers, Gaussian weights N(0, 2 / fan_in) in the hidden layers and N(0, 1 / fan_in) in the
  last one, times ``target_scale``; the document leaves width, activation and variance unspecified).
* **Tokens.** [x_1, y_1, ..., x_{K-1}, y_{K-1}, x_K] (T = 2K - 1 tokens), y_i embedded as the vector
  (y_i, 0, ..., 0) in R^d; one linear read-in to the width D, learned absolute position embeddings.
* **Blocks.** L pre-LayerNorm blocks h <- h + Attn(LN(h)); h <- h + MLP(LN(h)), causal multi-head
  attention with ``heads`` heads of size D / heads, scores s_ij = q_i . k_j / sqrt(D / heads), and either
  ``attn="softmax"`` (softmax over j <= i) or ``attn="relu"`` (weights relu(s_ij) / i over the i attended
  positions j <= i, the ReLU attention sigma(q.k) / n of Bai et al. 2023 that seed 001's
  "ReLU-Transformer" uses, normalised by the number of attended positions so that it is causal); MLP
  D -> D -> D with the tanh GeLU (the paper's hidden = MLP dim); final LayerNorm (eps 1e-5), linear read-out at the x positions.
* **Loss.** Mean squared error over every x position of every prompt (position i predicts y_i from the
  i - 1 earlier pairs).
* **Training** (``train_icl``): Adam (beta 0.9 / 0.999, eps 1e-8, no weight decay: the shared
  ``_induction_cpu.adamw_step`` with wd = 0) on a fresh batch of prompts each step, one numpy Generator
  per run (seeded: initialisation, then each step's prompts and targets, in that order).  Position
  embeddings beyond the training length are initialised and never trained (their gradient is zero), as a
  GPT-2 tested on longer prompts than it was trained on.
* **Baseline** (``mlp_baseline_r2``): the N-layer network of the target's architecture (fresh Gaussian
  initialisation) trained on the n in-context pairs of each test prompt, full-batch Adam (lr ``lr``)
  for ``epochs`` epochs (one epoch = one full-batch step), predicting the query x_{n+1}; R^2 per epoch.

The fast body (``loss_grad``) is vectorised numpy (einsums over batch and heads); its plain-numpy twin
``kernels.training._icl_regression_ref.loss_grad_reference`` loops over prompts, heads and positions.
tests/kernels/test_icl_regression.py checks that the two agree (loss and gradient to 1e-10, float64) and
the gradient against central finite differences.
"""

from __future__ import annotations

import functools
import math

import numba as nb
import numpy as np

from ._einsum_order import _dot_rows_sse, _sum_outer_seq
from ._induction_cpu import adamw_step

__all__ = [
    "ATTN",
    "forward",
    "init_params",
    "layout",
    "loss_grad",
    "make_tokens",
    "mlp_baseline_r2",
    "predict",
    "r2_by_position",
    "sample_prompts",
    "sample_targets",
    "target_forward",
    "train_icl",
    "unpack",
]

ATTN = ("softmax", "relu")
LN_EPS = 1e-5
_GC = math.sqrt(2.0 / math.pi)


# ---------------------------------------------------------------------------------------------- data


def sample_targets(rng: np.random.Generator, B: int, d: int, n_layers: int, width: int, scale: float = 1.0) -> list[np.ndarray]:
    """B random N-layer networks R^d -> R: weight matrices V_j of shape (B, out, in), no biases."""
    dims = [d] + [width] * (n_layers - 1) + [1]
    Vs = []
    for j in range(n_layers):
        var = (2.0 if j < n_layers - 1 else 1.0) / dims[j]
        Vs.append(rng.standard_normal((B, dims[j + 1], dims[j])) * math.sqrt(var))
    Vs[-1] = Vs[-1] * scale
    return Vs


def _bkd_bod(h: np.ndarray, V: np.ndarray) -> np.ndarray:
    """np.einsum("bkd,bod->bko", h, V) (float64) bit for bit: a contraction over both operands' contiguous last
    axis, summed in einsum's order by kernels.training._einsum_order._dot_rows_sse (tests/kernels/test_icl_regression.py)."""
    return _dot_rows_sse(np.ascontiguousarray(h, dtype=np.float64), np.ascontiguousarray(V, dtype=np.float64))


def target_forward(Vs: list[np.ndarray], X: np.ndarray) -> np.ndarray:
    """f(x) for each prompt's network: X (B, K, d) -> (B, K); ReLU between the layers."""
    h = X
    for j, V in enumerate(Vs):
        h = _bkd_bod(h, V)
        if j < len(Vs) - 1:
            h = np.maximum(h, 0.0)
    return h[..., 0]


def sample_prompts(rng: np.random.Generator, B: int, K: int, d: int, w1: float, n_layers: int, width: int,
                   scale: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """B prompts of K pairs: x from w1 N(-2 * 1, I) + (1 - w1) N(2 * 1, I), y = f(x) with a fresh f per prompt."""
    comp = rng.random((B, K)) >= w1  # True: the N(+2, I) component
    X = rng.standard_normal((B, K, d)) + np.where(comp, 2.0, -2.0)[..., None]
    Vs = sample_targets(rng, B, d, n_layers, width, scale)
    return X, target_forward(Vs, X)


def make_tokens(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Token sequence [x_1, (y_1, 0..), ..., x_K]: (B, 2K - 1, d)."""
    B, K, d = X.shape
    Z = np.zeros((B, 2 * K - 1, d))
    Z[:, 0::2] = X
    Z[:, 1::2, 0] = Y[:, : K - 1]
    return Z


# ---------------------------------------------------------------------------------------------- parameters


def layout(d: int, D: int, L: int, T_max: int) -> list[tuple[str, tuple[int, ...]]]:
    """Names and shapes of the parameters, in the order of the flat vector."""
    M = D
    out = [("W_in", (d, D)), ("b_in", (D,)), ("pos", (T_max, D))]
    for l in range(L):
        out += [(f"g1_{l}", (D,)), (f"c1_{l}", (D,)), (f"Wq_{l}", (D, D)), (f"Wk_{l}", (D, D)), (f"Wv_{l}", (D, D)),
                (f"Wo_{l}", (D, D)), (f"g2_{l}", (D,)), (f"c2_{l}", (D,)), (f"W1_{l}", (D, M)), (f"b1_{l}", (M,)),
                (f"W2_{l}", (M, D)), (f"b2_{l}", (D,))]
    out += [("gf", (D,)), ("cf", (D,)), ("w_out", (D,)), ("b_out", (1,))]
    return out


@functools.lru_cache(maxsize=64)
def _slots(d: int, D: int, L: int, T_max: int) -> tuple[tuple[str, int, int, tuple[int, ...]], ...]:
    """(name, start, stop, shape) of each parameter in the flat vector: ``layout`` with offsets (cached, since
    ``unpack`` runs twice per training step)."""
    out, o = [], 0
    for name, shape in layout(d, D, L, T_max):
        out.append((name, o, o + math.prod(shape), shape))
        o += math.prod(shape)
    return tuple(out)


def unpack(theta: np.ndarray, d: int, D: int, L: int, T_max: int) -> dict[str, np.ndarray]:
    """Views of the flat vector ``theta`` by name (writing to a view writes ``theta``)."""
    n = n_params(d, D, L, T_max)
    if n != theta.shape[0]:
        raise ValueError(f"argument 'theta' must have {n} entries for d={d}, D={D}, L={L}, T_max={T_max}, not {theta.shape[0]}")
    return {name: theta[a:b].reshape(shape) for name, a, b, shape in _slots(d, D, L, T_max)}


def n_params(d: int, D: int, L: int, T_max: int) -> int:
    return _slots(d, D, L, T_max)[-1][2]


def init_params(rng: np.random.Generator, d: int, D: int, L: int, T_max: int) -> np.ndarray:
    """Flat parameter vector: matrices N(0, 1 / fan_in) (Wo, W2 also / sqrt(2L)), positions N(0, 0.02^2),
    LayerNorm gains 1, biases 0."""
    theta = np.zeros(n_params(d, D, L, T_max))
    P = unpack(theta, d, D, L, T_max)
    P["W_in"][:] = rng.standard_normal((d, D)) / math.sqrt(d)
    P["pos"][:] = 0.02 * rng.standard_normal((T_max, D))
    for l in range(L):
        P[f"g1_{l}"][:] = 1.0
        P[f"g2_{l}"][:] = 1.0
        for w in ("Wq", "Wk", "Wv"):
            P[f"{w}_{l}"][:] = rng.standard_normal((D, D)) / math.sqrt(D)
        P[f"Wo_{l}"][:] = rng.standard_normal((D, D)) / math.sqrt(D * 2 * L)
        P[f"W1_{l}"][:] = rng.standard_normal((D, D)) / math.sqrt(D)
        P[f"W2_{l}"][:] = rng.standard_normal((D, D)) / math.sqrt(D * 2 * L)
    P["gf"][:] = 1.0
    P["w_out"][:] = rng.standard_normal(D) / math.sqrt(D)
    return theta


# ---------------------------------------------------------------------------------------------- fast body


# np.add.reduce(., axis=-1, keepdims=True) / n is what ndarray.mean(-1, keepdims=True) computes (numpy's _mean:
# the same reduction, then true_divide by the count), without mean's Python-level overhead: bit-identical.
_sum = np.add.reduce


def _ln(x, g, c):
    n = x.shape[-1]
    mu = _sum(x, axis=-1, keepdims=True) / n
    xc = x - mu
    rs = 1.0 / np.sqrt(_sum(xc * xc, axis=-1, keepdims=True) / n + LN_EPS)
    xh = xc * rs
    return xh * g + c, (xh, rs)


def _ln_back(dy, g, cache):
    xh, rs = cache
    dxh = dy * g
    n = xh.shape[-1]
    dx = rs * (dxh - _sum(dxh, axis=-1, keepdims=True) / n - xh * (_sum(dxh * xh, axis=-1, keepdims=True) / n))
    return dx, (dy * xh).reshape(-1, xh.shape[-1]).sum(0), dy.reshape(-1, dy.shape[-1]).sum(0)


def _gelu(z):
    t = np.tanh(_GC * (z + 0.044715 * (z * z * z)))
    return 0.5 * z * (1.0 + t), t


def _gelu_back(z, t):
    return 0.5 * (1.0 + t) + 0.5 * z * (1.0 - t * t) * _GC * (1.0 + 3 * 0.044715 * z * z)


@functools.lru_cache(maxsize=16)
def _masks(T: int) -> tuple[np.ndarray, np.ndarray]:
    """The causal mask (T, T) and the counts 1..T of attended positions (T, 1), read-only (cached per T)."""
    causal = np.tril(np.ones((T, T), dtype=bool))
    cnt = np.arange(1, T + 1, dtype=np.float64)[:, None]
    causal.setflags(write=False)
    cnt.setflags(write=False)
    return causal, cnt


def forward(theta: np.ndarray, Z: np.ndarray, *, d: int, D: int, L: int, T_max: int, heads: int, attn: str,
            keep: bool = False):
    """Predictions at the x positions, (B, K); with ``keep`` also the caches of the backward pass."""
    if attn not in ATTN:
        raise ValueError(f"argument 'attn' must be one of {ATTN}, not {attn!r}")
    P = unpack(theta, d, D, L, T_max)
    B, T, _ = Z.shape
    H, dh = heads, D // heads
    h = Z @ P["W_in"] + P["b_in"] + P["pos"][:T]
    causal, cnt = _masks(T)
    caches = []
    for l in range(L):
        a, ln1 = _ln(h, P[f"g1_{l}"], P[f"c1_{l}"])
        q = (a @ P[f"Wq_{l}"]).reshape(B, T, H, dh).transpose(0, 2, 1, 3)
        k = (a @ P[f"Wk_{l}"]).reshape(B, T, H, dh).transpose(0, 2, 1, 3)
        v = (a @ P[f"Wv_{l}"]).reshape(B, T, H, dh).transpose(0, 2, 1, 3)
        S = (q @ k.swapaxes(-1, -2)) / math.sqrt(dh)
        if attn == "softmax":
            Sm = np.where(causal, S, -np.inf)
            E = np.exp(Sm - Sm.max(-1, keepdims=True))
            A = E / E.sum(-1, keepdims=True)
        else:
            A = np.where(causal, np.maximum(S, 0.0), 0.0) / cnt
        O = (A @ v).transpose(0, 2, 1, 3).reshape(B, T, D)
        h = h + O @ P[f"Wo_{l}"]
        a2, ln2 = _ln(h, P[f"g2_{l}"], P[f"c2_{l}"])
        z1 = a2 @ P[f"W1_{l}"] + P[f"b1_{l}"]
        m, t = _gelu(z1)
        h = h + m @ P[f"W2_{l}"] + P[f"b2_{l}"]
        if keep:
            caches.append((a, ln1, q, k, v, S, A, O, a2, ln2, z1, m, t))
    af, lnf = _ln(h, P["gf"], P["cf"])
    pred = af[:, 0::2] @ P["w_out"] + P["b_out"][0]
    if keep:
        return pred, (P, caches, af, lnf, causal, cnt)
    return pred


def loss_grad(theta: np.ndarray, X: np.ndarray, Y: np.ndarray, *, d: int, D: int, L: int, T_max: int, heads: int,
              attn: str) -> tuple[float, np.ndarray]:
    """Mean squared error over all x positions of the batch and its gradient (flat, like ``theta``)."""
    Z = make_tokens(X, Y)
    B, T, _ = Z.shape
    K = X.shape[1]
    H, dh = heads, D // heads
    pred, (P, caches, af, lnf, causal, cnt) = forward(theta, Z, d=d, D=D, L=L, T_max=T_max, heads=heads, attn=attn, keep=True)
    r = pred - Y
    loss = float((r * r).mean())
    grad = np.zeros_like(theta)
    G = unpack(grad, d, D, L, T_max)
    dpred = 2.0 * r / (B * K)
    G["b_out"][0] = dpred.sum()
    G["w_out"][:] = np.einsum("bk,bkd->d", dpred, af[:, 0::2])
    daf = np.zeros((B, T, D))
    daf[:, 0::2] = dpred[..., None] * P["w_out"]
    dh_, G["gf"][:], G["cf"][:] = _ln_back(daf, P["gf"], lnf)
    for l in reversed(range(L)):
        a, ln1, q, k, v, S, A, O, a2, ln2, z1, m, t = caches[l]
        # MLP
        G[f"b2_{l}"][:] = dh_.reshape(-1, D).sum(0)
        G[f"W2_{l}"][:] = m.reshape(-1, D).T @ dh_.reshape(-1, D)
        dz1 = (dh_ @ P[f"W2_{l}"].T) * _gelu_back(z1, t)
        G[f"b1_{l}"][:] = dz1.reshape(-1, D).sum(0)
        G[f"W1_{l}"][:] = a2.reshape(-1, D).T @ dz1.reshape(-1, D)
        dx, G[f"g2_{l}"][:], G[f"c2_{l}"][:] = _ln_back(dz1 @ P[f"W1_{l}"].T, P[f"g2_{l}"], ln2)
        dh_ = dh_ + dx
        # attention
        G[f"Wo_{l}"][:] = O.reshape(-1, D).T @ dh_.reshape(-1, D)
        dO = (dh_ @ P[f"Wo_{l}"].T).reshape(B, T, H, dh).transpose(0, 2, 1, 3)
        dA = dO @ v.swapaxes(-1, -2)
        dv = A.swapaxes(-1, -2) @ dO
        if attn == "softmax":
            dS = A * (dA - (dA * A).sum(-1, keepdims=True))
        else:
            dS = np.where(causal & (S > 0.0), dA, 0.0) / cnt
        dS = dS / math.sqrt(dh)
        dq = dS @ k
        dk = dS.swapaxes(-1, -2) @ q
        flat = lambda u: u.transpose(0, 2, 1, 3).reshape(B * T, D)  # noqa: E731
        a_f = a.reshape(-1, D)
        G[f"Wq_{l}"][:] = a_f.T @ flat(dq)
        G[f"Wk_{l}"][:] = a_f.T @ flat(dk)
        G[f"Wv_{l}"][:] = a_f.T @ flat(dv)
        da = (flat(dq) @ P[f"Wq_{l}"].T + flat(dk) @ P[f"Wk_{l}"].T + flat(dv) @ P[f"Wv_{l}"].T).reshape(B, T, D)
        dx, G[f"g1_{l}"][:], G[f"c1_{l}"][:] = _ln_back(da, P[f"g1_{l}"], ln1)
        dh_ = dh_ + dx
    G["pos"][:T] = dh_.sum(0)
    G["b_in"][:] = dh_.reshape(-1, D).sum(0)
    G["W_in"][:] = Z.reshape(-1, d).T @ dh_.reshape(-1, D)
    return loss, grad


# ---------------------------------------------------------------------------------------------- training


@nb.njit(cache=True)
def _adam_jit(theta, m, v2, g, lr, step):  # pragma: no cover - compiled
    return adamw_step(theta, m, v2, g, lr, 0.0, step)


def train_icl(seed: int, *, d: int, K: int, D: int, L: int, heads: int, attn: str, steps: int, batch: int, lr: float,
              target_layers: int, target_width: int, T_max: int | None = None, w1: float = 1.0,
              target_scale: float = 1.0, record_every: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Pre-train on prompts of K pairs (mixture weight w1); returns (theta, loss per step)."""
    for name, val, lo in (("d", d, 1), ("K", K, 2), ("D", D, 1), ("L", L, 1), ("heads", heads, 1), ("steps", steps, 0),
                          ("batch", batch, 1), ("target_layers", target_layers, 1), ("target_width", target_width, 1)):
        if not isinstance(val, (int, np.integer)) or val < lo:
            raise ValueError(f"argument '{name}' must be an integer >= {lo}, not {val!r}")
    if D % heads:
        raise ValueError(f"argument 'heads' must divide D = {D}, not {heads}")
    if attn not in ATTN:
        raise ValueError(f"argument 'attn' must be one of {ATTN}, not {attn!r}")
    if not (0.0 < lr <= 1.0):
        raise ValueError(f"argument 'lr' must be in (0, 1], not {lr!r}")
    T_max = 2 * K - 1 if T_max is None else T_max
    if T_max < 2 * K - 1:
        raise ValueError(f"argument 'T_max' must be >= 2K - 1 = {2 * K - 1}, not {T_max}")
    rng = np.random.default_rng(seed)
    theta = init_params(rng, d, D, L, T_max)
    m, v2 = np.zeros_like(theta), np.zeros_like(theta)
    losses = np.empty(steps)
    for s in range(steps):
        X, Y = sample_prompts(rng, batch, K, d, w1, target_layers, target_width, target_scale)
        losses[s], g = loss_grad(theta, X, Y, d=d, D=D, L=L, T_max=T_max, heads=heads, attn=attn)
        if not _adam_jit(theta, m, v2, g, lr, s):
            losses[s + 1:] = np.nan
            break
    return theta, losses


def predict(theta: np.ndarray, X: np.ndarray, Y: np.ndarray, *, d: int, D: int, L: int, T_max: int, heads: int,
            attn: str, chunk: int = 256) -> np.ndarray:
    """Predictions at every x position of the prompts (X, Y): (B, K); position i sees i earlier pairs."""
    out = [forward(theta, make_tokens(X[a:a + chunk], Y[a:a + chunk]), d=d, D=D, L=L, T_max=T_max, heads=heads, attn=attn)
           for a in range(0, X.shape[0], chunk)]
    return np.concatenate(out)


def r2_by_position(pred: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """R^2 at each position over the prompts: 1 - mean (pred - y)^2 / var(y) (both over the prompts)."""
    return 1.0 - ((pred - Y) ** 2).mean(0) / Y.var(0)


# ---------------------------------------------------------------------------------------------- baseline


@nb.njit(cache=True)
def _baseline_epoch(Xtr, Ytr, Vs, ms, ss, n, lr, c1, c2):  # pragma: no cover - compiled
    """One full-batch Adam epoch of ``mlp_baseline_r2`` on the n pairs Xtr (B, n, d), Ytr (B, n); updates the
    weights Vs and the moments ms, ss (tuples of (B, out, in) arrays) in place; c1 = 1 - 0.9^(e+1),
    c2 = 1 - 0.999^(e+1).  The same floating-point operations in the same order as the numpy epoch it
    replaced: np.einsum("bkd,bod->bko") = _dot_rows_sse, np.einsum("bko,bkd->bod") = _sum_outer_seq,
    np.einsum("bko,bod->bkd") = _sum_outer_seq on delta's transpose, the ReLU and the masks elementwise
    (z is never -0.0: the sums start from +0.0), Adam entry by entry as numpy evaluates it."""
    N = len(Vs)
    hs = [Xtr]
    for j in range(N):
        z = _dot_rows_sse(hs[j], Vs[j])
        if j < N - 1:
            zf = z.reshape(z.size)
            for q in range(zf.size):
                if not (zf[q] > 0.0 or zf[q] != zf[q]):
                    zf[q] = 0.0
        hs.append(z)
    out = hs[N]
    B, K = Ytr.shape
    delta = np.empty((B, K, 1))
    for b in range(B):
        for k in range(K):
            delta[b, k, 0] = 2.0 * (out[b, k, 0] - Ytr[b, k]) / n
    for j in range(N - 1, -1, -1):
        g = _sum_outer_seq(delta, hs[j])
        V = Vs[j]
        if j:
            dn = _sum_outer_seq(np.ascontiguousarray(delta.transpose(0, 2, 1)), V)
            hf = hs[j].reshape(hs[j].size)
            df = dn.reshape(dn.size)
            for q in range(df.size):
                df[q] = df[q] * (1.0 if hf[q] > 0.0 else 0.0)
            delta = dn
        gf = g.reshape(g.size)
        mf = ms[j].reshape(ms[j].size)
        sf = ss[j].reshape(ss[j].size)
        Vf = V.reshape(V.size)
        for q in range(gf.size):
            mf[q] = 0.9 * mf[q] + 0.1 * gf[q]
            sf[q] = 0.999 * sf[q] + 0.001 * gf[q] * gf[q]
            Vf[q] = Vf[q] - lr * (mf[q] / c1) / (np.sqrt(sf[q] / c2) + 1e-8)


def mlp_baseline_r2(rng: np.random.Generator, X: np.ndarray, Y: np.ndarray, ns, *, n_layers: int, width: int,
                    epochs: int = 100, lr: float = 1e-2) -> dict[int, np.ndarray]:
    """For each n in ``ns``: train a fresh N-layer network (the target's architecture) on the n pairs before
    position n of each prompt (full-batch Adam, MSE), predict y_{n+1}; R^2 over the prompts after each epoch.
    Returns {n: R^2 per epoch, shape (epochs,)}."""
    B, _, d = X.shape
    out = {}
    for n in ns:
        Vs = sample_targets(rng, B, d, n_layers, width)
        ms = [np.zeros_like(V) for V in Vs]
        ss = [np.zeros_like(V) for V in Vs]
        # one epoch = one call of _baseline_epoch (its einsums and elementwise operations bit for bit:
        # tests/kernels/test_icl_regression.py)
        Xtr = np.ascontiguousarray(X[:, :n], dtype=np.float64)
        Ytr = np.ascontiguousarray(Y[:, :n], dtype=np.float64)
        xq, yq = X[:, n:n + 1], Y[:, n]
        Vt, mt, st = tuple(Vs), tuple(ms), tuple(ss)
        r2 = np.empty(epochs)
        var = yq.var()
        for e in range(epochs):
            _baseline_epoch(Xtr, Ytr, Vt, mt, st, float(n), float(lr), 1 - 0.9 ** (e + 1), 1 - 0.999 ** (e + 1))
            r2[e] = 1.0 - ((target_forward(list(Vt), xq)[:, 0] - yq) ** 2).mean() / var
        out[int(n)] = r2
    return out
