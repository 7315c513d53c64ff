"""The (2N+4)-layer ReLU-attention block of seed 001 (Lemmas 2-5, Theorem 1) with explicit weights.

Layers (all residual; seed 001, App. C Defs 6-8, lines 303-323 and 490-502):

* ReLU attention, token form (Def 7): [Attn(H)]_i = h_i + (1/T) sum_m sum_s relu(<Q_m h_i, K_m h_s>) V_m h_s,
  T = number of tokens (n + 1 in the ICL prompt).
* MLP (Def 8): MLP(H) = H + W_2 relu(W_1 H).
* EWML (Def 6): [EWML(H)]_i = h_i + sum_m <Q_m h_i, K_m h_i> V_m h_i.

Token layout (one column per token; :class:`Layout`):
``x[d_in] | y[d_out] | w[D_N] | p(1..N) | r'(0..N-1) | g[d_out] | s(1..N) | 1 | t``, where p(j), r'(j-1)
and s(j) have rows_j entries (K for j < N, d_out for j = N), D = d_in + 2 d_out + D_N + 3((N-1)K + d_out) + 2.

One block (:func:`build_block`) in application order:

1. layers 1..N (attention, Lemma 2): heads (m, k) with Q h = [a_m[0] p(j-1); a_m[1]], K h = [v_{j_k}; 1],
   V h = c_m * 1 -> slot p(j)[k]; the average over tokens of identical terms gives r_hat(v_{j_k}^T p(j-1)).
2. layer N+1 (attention, Lemma 3): the same with the approximant of r', written to r'(j-1)[k].
3. layer N+2 (MLP, Lemma 4): units relu(<a_m, [p(N)[k]; y[k]; 1]> - R_3 (1 - t)) -> c_m into g[k];
   the gate -R_3 (1 - t) switches every unit off on the test token (t = 0).
4. layers N+3..2N+2 (EWML, Lemma 5): s(N)[k] = g[k] r'(N-1)[k]; s(j)[k] = (V_{j+1}^T s(j+1))[k] r'(j-1)[k],
   Q reading column k of V_{j+1} from the w-slot.
5. layer 2N+3 (attention, GD step): heads (+-, j, k): Q h = +-1, K h = s(j)[k], V h = -+ eta (T/(2n)) p(j-1)
   into the w-slot of v_{j_k}; relu(z) - relu(-z) = z gives w <- w - (eta/(2n)) sum_s s_s(j) p_s(j-1)^T.
6. layer 2N+4 (MLP): clip the w-slot to [-b, b] (projection onto the box W) and erase p, r', g, s
   (z - relu(z) + relu(-z) = 0).

The variants used as mutants by the claims (``gd_scale``, ``gate_test_token``, ``project``) change
one design choice of the proof each; ``ewml_use_rows`` reads row k of V_{j+1} instead of column k.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import _checks
from ..sequence.attention import softmax
from .deep_gd import layer_shapes, param_offsets
from .relu_approx import SumOfReLUs

__all__ = [
    "EWML",
    "MLP",
    "Layout",
    "ReLUAttention",
    "build_block",
    "embed_prompt",
    "feed_forward",
    "layer_norm_B",
    "run_layers",
    "softmax_attention",
]


@dataclass
class _FactoredHeads:
    """Heads stacked: Q, K of shape (M, q, D); value matrices in factored form V_m = U_m W_m^T with
    U, W of shape (M, D, rank) (explicit D x D matrices: :attr:`V`)."""

    Q: np.ndarray
    K: np.ndarray
    U: np.ndarray
    W: np.ndarray
    name: str = "heads"

    @property
    def V(self) -> np.ndarray:
        return np.einsum("mDr,mEr->mDE", self.U, self.W)

    @property
    def heads(self) -> int:
        return self.Q.shape[0]


@dataclass
class ReLUAttention(_FactoredHeads):
    """ReLU attention (Def 7) with heads stacked as in :class:`_FactoredHeads`."""

    name: str = "attn"

    def __call__(self, H: np.ndarray, *, normaliser: int | None = None) -> np.ndarray:
        T = H.shape[1] if normaliser is None else normaliser
        QH = np.einsum("mqD,Di->mqi", self.Q, H)
        KH = np.einsum("mqD,Ds->mqs", self.K, H)
        S = np.maximum(np.einsum("mqi,mqs->mis", QH, KH), 0.0)
        WH = np.einsum("mDr,Ds->mrs", self.W, H)
        return H + np.einsum("mis,mEr,mrs->Ei", S, self.U, WH, optimize=True) / T

    def matrix_form_as_printed(self, H: np.ndarray) -> np.ndarray:
        """Def 7's matrix formula H + (1/T) sum_m (V_m H) relu((Q_m H)^T (K_m H)) taken literally."""
        T = H.shape[1]
        out = H.copy()
        for Q, K, V in zip(self.Q, self.K, self.V):
            out = out + (V @ H) @ np.maximum((Q @ H).T @ (K @ H), 0.0) / T
        return out


@dataclass
class MLP:
    W1: np.ndarray
    W2: np.ndarray
    name: str = "mlp"

    def __call__(self, H: np.ndarray) -> np.ndarray:
        return H + self.W2 @ np.maximum(self.W1 @ H, 0.0)

    @property
    def heads(self) -> int:
        return 0


@dataclass
class EWML(_FactoredHeads):
    """Element-wise multiplication layer (Def 6), heads stacked as in :class:`_FactoredHeads`."""

    name: str = "ewml"

    def __call__(self, H: np.ndarray) -> np.ndarray:
        QH = np.einsum("mqD,Di->mqi", self.Q, H)
        KH = np.einsum("mqD,Di->mqi", self.K, H)
        G = np.einsum("mqi,mqi->mi", QH, KH)
        WH = np.einsum("mDr,Di->mri", self.W, H)
        return H + np.einsum("mi,mEr,mri->Ei", G, self.U, WH, optimize=True)


def layer_norm_B(layer) -> float:
    """The norm (C.1) of one layer: max_m max(||Q_m||_1, ||K_m||_1) + sum_m ||V_m||_1 (attention/EWML)
    or ||W_1||_1 + ||W_2||_1 (MLP); ||.||_1 = operator 1-norm (max absolute column sum)."""
    def op1(A):
        return float(np.abs(A).sum(axis=-2).max(axis=-1).max()) if A.size else 0.0
    if isinstance(layer, MLP):
        return op1(layer.W1) + op1(layer.W2)
    qk = max(float(np.abs(layer.Q).sum(axis=-2).max(axis=-1).max()), float(np.abs(layer.K).sum(axis=-2).max(axis=-1).max()))
    if layer.U.shape[-1] == 1:
        # rank one: |V_m[a, b]| = |U_m[a] W_m[b]| = |U_m[a]| |W_m[b]| exactly (one product each), without the einsum
        absV = np.abs(layer.U) * np.abs(layer.W[:, :, 0])[:, None, :]
    else:
        absV = np.abs(layer.V)
    return qk + float(absV.sum(axis=-2).max(axis=-1).sum())


@dataclass
class Layout:
    """Slot offsets of the token (see the module docstring)."""

    N: int
    K: int
    d_in: int
    d_out: int
    shapes: list = field(init=False)
    offsets: list = field(init=False)

    def __post_init__(self):
        self.shapes = layer_shapes(self.N, self.K, self.d_in, self.d_out)
        self.offsets = param_offsets(self.N, self.K, self.d_in, self.d_out)
        self.rows = [None] + [r for r, _ in self.shapes]
        self.P = sum(self.rows[1:])
        o = 0
        self.x = o; o += self.d_in
        self.y = o; o += self.d_out
        self.w = o; o += self.offsets[-1]
        self.p = o; o += self.P
        self.rp = o; o += self.P
        self.g = o; o += self.d_out
        self.s = o; o += self.P
        self.one = o; o += 1
        self.t = o; o += 1
        self.D = o
        cum = np.cumsum([0] + self.rows[1:])
        self._blk = {j: int(cum[j - 1]) for j in range(1, self.N + 1)}

    def p_idx(self, j: int) -> np.ndarray:
        """Indices of p(j) (j = 0 is x)."""
        if j == 0:
            return np.arange(self.x, self.x + self.d_in)
        return self.p + self._blk[j] + np.arange(self.rows[j])

    def rp_idx(self, j: int) -> np.ndarray:
        """Indices of r'(j-1) (same size as p(j))."""
        return self.rp + self._blk[j] + np.arange(self.rows[j])

    def s_idx(self, j: int) -> np.ndarray:
        return self.s + self._blk[j] + np.arange(self.rows[j])

    def w_row(self, j: int, k: int) -> np.ndarray:
        """Indices of row v_{j_k} in the w-slot."""
        cols = self.shapes[j - 1][1]
        return self.w + self.offsets[j - 1] + k * cols + np.arange(cols)

    def w_entry(self, j: int, row: int, col: int) -> int:
        cols = self.shapes[j - 1][1]
        return self.w + self.offsets[j - 1] + row * cols + col

    @property
    def scratch(self) -> np.ndarray:
        return np.arange(self.p, self.one)


def embed_prompt(lay: Layout, X: np.ndarray, Y: np.ndarray, x_test: np.ndarray, w: np.ndarray) -> np.ndarray:
    """H^(0): tokens [x_i; y_i; w; 0; 1; t_i] for the n examples and the test token (y = 0, t = 0)."""
    n = X.shape[0]
    if X.shape != (n, lay.d_in) or Y.shape != (n, lay.d_out) or np.shape(x_test) != (lay.d_in,):
        raise ValueError(f"arguments 'X', 'Y', 'x_test' must have shapes (n, {lay.d_in}), (n, {lay.d_out}), "
                         f"({lay.d_in},), not {X.shape}, {Y.shape}, {np.shape(x_test)}")
    if np.shape(w) != (lay.offsets[-1],):
        raise ValueError(f"argument 'w' must have length D_N = {lay.offsets[-1]}, not shape {np.shape(w)}")
    H = np.zeros((lay.D, n + 1))
    H[lay.x:lay.x + lay.d_in, :n] = X.T
    H[lay.x:lay.x + lay.d_in, n] = x_test
    H[lay.y:lay.y + lay.d_out, :n] = Y.T
    H[lay.w:lay.w + lay.offsets[-1], :] = np.asarray(w)[:, None]
    H[lay.one, :] = 1.0
    H[lay.t, :n] = 1.0
    return H


def _function_heads(lay: Layout, approx: SumOfReLUs, pairs: list, target) -> ReLUAttention:
    """Heads computing approx(v_{j_k}^T p(j-1)) into target(j)[k] for every (j, k) in pairs."""
    q = max(lay.shapes[j - 1][1] for j, _ in pairs) + 1
    H_ = approx.H
    M = len(pairs) * H_
    Q = np.zeros((M, q, lay.D))
    K = np.zeros((M, q, lay.D))
    U = np.zeros((M, lay.D, 1))
    W = np.zeros((M, lay.D, 1))
    # heads m = i H_ + h for the i-th pair (j, k) and the h-th ReLU of approx (one block of H_ heads per pair)
    for i, (j, k) in enumerate(pairs):
        src = lay.p_idx(j - 1)
        wr = lay.w_row(j, k)
        dst = target(j)[k]
        blk = slice(i * H_, (i + 1) * H_)
        Q[blk, np.arange(src.size), src] = approx.A[:, 0][:, None]
        Q[blk, q - 1, lay.one] = approx.A[:, 1]
        K[blk, np.arange(wr.size), wr] = 1.0
        K[blk, q - 1, lay.one] = 1.0
        U[blk, dst, 0] = approx.c
        W[blk, lay.one, 0] = 1.0
    return ReLUAttention(Q, K, U, W)


def build_block(lay: Layout, n: int, eta: float, r_hat: SumOfReLUs, rp_hat: SumOfReLUs, u_hat: SumOfReLUs,
                R3: float, box: float, *, gd_scale: str = "paper", gate_test_token: bool = True,
                project: bool = True, ewml_use_rows: bool = False) -> list:
    """The 2N+4 layers of one ICGD block for prompts with n examples (T = n + 1 tokens).

    ``gd_scale``: "paper" (V = -+ eta (n+1)/(2n)) or "no-n+1" (V = -+ eta/(2n), a mutant);
    ``gate_test_token``: the -R_3(1 - t) gate of Lemma 4; ``project``: the final clip/erase MLP
    (False leaves the scratch slots as they are, a mutant); ``ewml_use_rows``: a mutant."""
    n = _checks.require_int("n", n, min_value=1, max_value=10**5)
    if not (eta > 0 and box > 0 and R3 > 0):
        raise ValueError(f"arguments 'eta', 'box', 'R3' must be > 0, not {eta!r}, {box!r}, {R3!r}")
    if r_hat.k != 1 or rp_hat.k != 1 or u_hat.k != 2:
        raise ValueError("arguments 'r_hat', 'rp_hat' must be 1-variable and 'u_hat' 2-variable sums of ReLUs")
    heads = (r_hat.H * max(lay.K, lay.d_out) + rp_hat.H * lay.P) * lay.D * 4 * 8
    _checks.require_memory("r_hat.H", r_hat.H, heads, what="the weight matrices of the attention heads")
    N, D = lay.N, lay.D
    layers: list = []
    # 1. forward pass
    for j in range(1, N + 1):
        L = _function_heads(lay, r_hat, [(j, k) for k in range(lay.rows[j])], lay.p_idx)
        L.name = f"attn p({j})"
        layers.append(L)
    # 2. r'
    L = _function_heads(lay, rp_hat, [(j, k) for j in range(1, N + 1) for k in range(lay.rows[j])], lay.rp_idx)
    L.name = "attn r'"
    layers.append(L)
    # 3. g = u(p(N), y), gated on the test token
    Mu = lay.d_out * u_hat.H
    W1 = np.zeros((Mu, D))
    W2 = np.zeros((D, Mu))
    m = 0
    for k in range(lay.d_out):
        for h in range(u_hat.H):
            a = u_hat.A[h]
            W1[m, lay.p_idx(N)[k]] = a[0]
            W1[m, lay.y + k] = a[1]
            W1[m, lay.one] = a[2] - (R3 if gate_test_token else 0.0)
            if gate_test_token:
                W1[m, lay.t] = R3
            W2[lay.g + k, m] = u_hat.c[h]
            m += 1
    layers.append(MLP(W1, W2, name="mlp g"))
    # 4. backprop by EWML
    Q = np.zeros((lay.d_out, 1, D))
    K = np.zeros((lay.d_out, 1, D))
    U = np.zeros((lay.d_out, D, 1))
    W = np.zeros((lay.d_out, D, 1))
    for k in range(lay.d_out):
        Q[k, 0, lay.g + k] = 1.0
        K[k, 0, lay.one] = 1.0
        U[k, lay.s_idx(N)[k], 0] = 1.0
        W[k, lay.rp_idx(N)[k], 0] = 1.0
    layers.append(EWML(Q, K, U, W, name=f"ewml s({N})"))
    for j in range(N - 1, 0, -1):
        rows_next = lay.rows[j + 1]
        Q = np.zeros((lay.K, rows_next, D))
        K = np.zeros((lay.K, rows_next, D))
        U = np.zeros((lay.K, D, 1))
        W = np.zeros((lay.K, D, 1))
        for k in range(lay.K):
            for l in range(rows_next):
                Q[k, l, lay.w_entry(j + 1, k, l) if ewml_use_rows and k < rows_next and l < lay.K else lay.w_entry(j + 1, l, k)] = 1.0
                K[k, l, lay.s_idx(j + 1)[l]] = 1.0
            U[k, lay.s_idx(j)[k], 0] = 1.0
            W[k, lay.rp_idx(j)[k], 0] = 1.0
        layers.append(EWML(Q, K, U, W, name=f"ewml s({j})"))
    # 5. GD step
    scale = eta * (n + 1) / (2 * n) if gd_scale == "paper" else eta / (2 * n)
    pairs = [(j, k) for j in range(1, N + 1) for k in range(lay.rows[j])]
    M = 2 * len(pairs)
    Q = np.zeros((M, 1, D))
    K = np.zeros((M, 1, D))
    rank = max(lay.shapes[j - 1][1] for j in range(1, N + 1))
    U = np.zeros((M, D, rank))
    W = np.zeros((M, D, rank))
    m = 0
    for j, k in pairs:
        src = lay.p_idx(j - 1)
        dst = lay.w_row(j, k)
        for sign in (1.0, -1.0):
            Q[m, 0, lay.one] = sign
            K[m, 0, lay.s_idx(j)[k]] = 1.0
            U[m, dst, np.arange(dst.size)] = -sign * scale
            W[m, src, np.arange(src.size)] = 1.0
            m += 1
    layers.append(ReLUAttention(Q, K, U, W, name="attn GD step"))
    # 6. projection and erasing
    if project:
        wi = np.arange(lay.w, lay.w + lay.offsets[-1])
        sc = lay.scratch
        Mp = 2 * (wi.size + sc.size)
        W1 = np.zeros((Mp, D))
        W2 = np.zeros((D, Mp))
        m = 0
        for i in wi:
            W1[m, i] = 1.0; W1[m, lay.one] = -box; W2[i, m] = -1.0; m += 1
            W1[m, i] = -1.0; W1[m, lay.one] = -box; W2[i, m] = 1.0; m += 1
        for i in sc:
            W1[m, i] = 1.0; W2[i, m] = -1.0; m += 1
            W1[m, i] = -1.0; W2[i, m] = 1.0; m += 1
        layers.append(MLP(W1, W2, name="mlp proj/erase"))
    else:
        layers.append(MLP(np.zeros((1, D)), np.zeros((D, 1)), name="mlp (identity)"))
    return layers


def run_layers(layers: list, H: np.ndarray, *, keep: bool = False):
    """Apply the layers in order; with ``keep`` return every intermediate H as well."""
    hist = [H]
    for L in layers:
        H = L(H)
        if keep:
            hist.append(H)
    return (H, hist) if keep else H


# ---------------------------------------------------------------------------------------------
# Softmax block of Appendix F (F.1), Def 11: FF o Attn o FF
# ---------------------------------------------------------------------------------------------


def softmax_attention(H: np.ndarray, WO: np.ndarray, V: np.ndarray, K: np.ndarray, Q: np.ndarray, *,
                      causal: bool = False) -> np.ndarray:
    """(F.1): H + W_O (V H) Softmax[(K H)^T (Q H)], softmax over each column (over the keys).

    ``causal`` masks keys after the query (GPT-2 style; not the seed's definition)."""
    S = (K @ H).T @ (Q @ H)
    if causal:
        S = np.where(np.triu(np.ones_like(S), 0) > 0, S, -np.inf)
    return H + WO @ (V @ H) @ softmax(S, axis=0)


def feed_forward(H: np.ndarray, W1: np.ndarray, b1: np.ndarray, W2: np.ndarray, b2: np.ndarray) -> np.ndarray:
    """FF(H) = H + W_2 ReLU(W_1 H + b_1 1^T) + b_2 1^T."""
    return H + W2 @ np.maximum(W1 @ H + b1[:, None], 0.0) + b2[:, None]
