"""Plain-numpy reference twin of kernels.training.icl_regression.loss_grad: the same transformer, loss and
hand-written backward, prompt by prompt, head by head and query row by query row (loops; no einsum, no
batched reshapes).  Used only by tests/kernels/test_icl_regression.py."""

from __future__ import annotations

import math

import numpy as np

from .icl_regression import LN_EPS, make_tokens, unpack

__all__ = ["loss_grad_reference"]

_C = math.sqrt(2.0 / math.pi)


def _ln_row(x, g, c):
    mu = sum(x) / len(x)
    var = sum((xi - mu) ** 2 for xi in x) / len(x)
    rs = 1.0 / math.sqrt(var + LN_EPS)
    xh = (x - mu) * rs
    return xh * g + c, xh, rs


def _ln_row_back(dy, g, xh, rs):
    dxh = dy * g
    n = len(dy)
    return rs * (dxh - dxh.sum() / n - xh * (dxh * xh).sum() / n), dy * xh, dy.copy()


def _gelu(z):
    t = math.tanh(_C * (z + 0.044715 * z**3))
    return 0.5 * z * (1.0 + t), 0.5 * (1.0 + t) + 0.5 * z * (1.0 - t * t) * _C * (1.0 + 3 * 0.044715 * z * z)


def loss_grad_reference(theta, X, Y, *, d, D, L, T_max, heads, attn):
    """(loss, flat gradient), computed one prompt at a time with explicit loops."""
    Zall = make_tokens(X, Y)
    B, T, _ = Zall.shape
    K = X.shape[1]
    dh = D // heads
    P = unpack(theta, d, D, L, T_max)
    grad = np.zeros_like(theta)
    G = unpack(grad, d, D, L, T_max)
    loss = 0.0
    gel = np.vectorize(_gelu, otypes=[float, float])
    for b in range(B):
        Z = Zall[b]
        h = np.array([Z[t] @ P["W_in"] + P["b_in"] + P["pos"][t] for t in range(T)])
        cache = []
        for l in range(L):
            ln1 = [_ln_row(h[t], P[f"g1_{l}"], P[f"c1_{l}"]) for t in range(T)]
            a = np.array([r[0] for r in ln1])
            q, k, v = a @ P[f"Wq_{l}"], a @ P[f"Wk_{l}"], a @ P[f"Wv_{l}"]
            O = np.zeros((T, D))
            Aw = np.zeros((heads, T, T))
            Sall = np.zeros((heads, T, T))
            for hd in range(heads):
                sl = slice(hd * dh, (hd + 1) * dh)
                for i in range(T):
                    s = np.array([q[i, sl] @ k[j, sl] for j in range(i + 1)]) / math.sqrt(dh)
                    Sall[hd, i, : i + 1] = s
                    if attn == "softmax":
                        e = np.exp(s - s.max())
                        w = e / e.sum()
                    else:
                        w = np.maximum(s, 0.0) / (i + 1)
                    Aw[hd, i, : i + 1] = w
                    for j in range(i + 1):
                        O[i, sl] += w[j] * v[j, sl]
            h = h + O @ P[f"Wo_{l}"]
            ln2 = [_ln_row(h[t], P[f"g2_{l}"], P[f"c2_{l}"]) for t in range(T)]
            a2 = np.array([r[0] for r in ln2])
            z1 = a2 @ P[f"W1_{l}"] + P[f"b1_{l}"]
            mm, gp = gel(z1)
            h = h + mm @ P[f"W2_{l}"] + P[f"b2_{l}"]
            cache.append((ln1, a, q, k, v, O, Aw, Sall, ln2, a2, mm, gp))
        lnf = [_ln_row(h[t], P["gf"], P["cf"]) for t in range(T)]
        dhs = np.zeros((T, D))
        for i in range(K):
            t = 2 * i
            af = lnf[t][0]
            r = af @ P["w_out"] + P["b_out"][0] - Y[b, i]
            loss += r * r / (B * K)
            dp = 2.0 * r / (B * K)
            G["b_out"][0] += dp
            G["w_out"] += dp * af
            dx, dg, dc = _ln_row_back(dp * P["w_out"], P["gf"], lnf[t][1], lnf[t][2])
            dhs[t] += dx
            G["gf"] += dg
            G["cf"] += dc
        for l in reversed(range(L)):
            ln1, a, q, k, v, O, Aw, Sall, ln2, a2, mm, gp = cache[l]
            G[f"b2_{l}"] += dhs.sum(0)
            G[f"W2_{l}"] += mm.T @ dhs
            dz1 = (dhs @ P[f"W2_{l}"].T) * gp
            G[f"b1_{l}"] += dz1.sum(0)
            G[f"W1_{l}"] += a2.T @ dz1
            da2 = dz1 @ P[f"W1_{l}"].T
            for t in range(T):
                dx, dg, dc = _ln_row_back(da2[t], P[f"g2_{l}"], ln2[t][1], ln2[t][2])
                dhs[t] += dx
                G[f"g2_{l}"] += dg
                G[f"c2_{l}"] += dc
            G[f"Wo_{l}"] += O.T @ dhs
            dO = dhs @ P[f"Wo_{l}"].T
            dq, dk, dv = np.zeros((T, D)), np.zeros((T, D)), np.zeros((T, D))
            for hd in range(heads):
                sl = slice(hd * dh, (hd + 1) * dh)
                for i in range(T):
                    w = Aw[hd, i, : i + 1]
                    dw = np.array([dO[i, sl] @ v[j, sl] for j in range(i + 1)])
                    for j in range(i + 1):
                        dv[j, sl] += w[j] * dO[i, sl]
                    if attn == "softmax":
                        ds = w * (dw - (dw * w).sum())
                    else:
                        ds = np.where(Sall[hd, i, : i + 1] > 0.0, dw, 0.0) / (i + 1)
                    ds = ds / math.sqrt(dh)
                    for j in range(i + 1):
                        dq[i, sl] += ds[j] * k[j, sl]
                        dk[j, sl] += ds[j] * q[i, sl]
            G[f"Wq_{l}"] += a.T @ dq
            G[f"Wk_{l}"] += a.T @ dk
            G[f"Wv_{l}"] += a.T @ dv
            da = dq @ P[f"Wq_{l}"].T + dk @ P[f"Wk_{l}"].T + dv @ P[f"Wv_{l}"].T
            for t in range(T):
                dx, dg, dc = _ln_row_back(da[t], P[f"g1_{l}"], ln1[t][1], ln1[t][2])
                dhs[t] += dx
                G[f"g1_{l}"] += dg
                G[f"c1_{l}"] += dc
        for t in range(T):
            G["pos"][t] += dhs[t]
            G["b_in"] += dhs[t]
            G["W_in"] += np.outer(Z[t], dhs[t])
    return float(loss), grad
