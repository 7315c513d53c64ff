"""The layer definitions of seed 001: ReLU attention and its norm (Defs 7-9, E05), the gamma operator and
the element-wise multiplication layer (Defs 5-6, E06), and the Softmax block FF o Attn o FF (F.1, Def 11;
E16), each checked by comparing the printed matrix formula with the printed token-wise formula on
random instances (kernels.constructions.gd_transformer).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from kernels.constructions import gd_transformer as T

from ..registry import Evidence, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True

TOL = 1e-12  # relative; sums of < 10^3 products of O(1) float64 numbers


def _relu(x):
    return np.maximum(x, 0.0)


def _random_heads(rng, M, D, q):
    Q = rng.normal(size=(M, q, D))
    K = rng.normal(size=(M, q, D))
    U = rng.normal(size=(M, D, D)) / D
    W = np.repeat(np.eye(D)[None], M, axis=0)
    return Q, K, U, W


def _matrix_vs_token_form(matrix: Callable, layer_cls, instances: int, rng) -> Verdict:
    """Random heads (M <= 4, D <= 6, q <= 4) and tokens (2..6): ``matrix(Q, K, V, H)`` against the
    token form ``layer_cls(Q, K, U, W)(H)``, max abs difference <= TOL (1 + max|token form|)."""
    ev = Evidence("le", rigor=Rigor.FLOAT)
    for k in range(instances):
        M, D, q, Tn = (int(rng.integers(1, 5)), int(rng.integers(2, 7)), int(rng.integers(1, 5)), int(rng.integers(2, 7)))
        Q, K, U, W = _random_heads(rng, M, D, q)
        layer = layer_cls(Q, K, U, W)
        H = rng.normal(size=(D, Tn))
        token = layer(H)
        mat = matrix(list(Q), list(K), list(layer.V), H)
        ev.add({"instance": k, "M": M, "D": D, "q": q, "tokens": Tn}, float(np.abs(mat - token).max()),
               TOL * (1 + float(np.abs(token).max())), part="matrix_eq_token")
    return ev.verdict()


# ---------------------------------------------------------------------------------------------
# E05. Def 7: ReLU attention
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttnFormula:
    """matrix(Q, K, V, H) -> the layer's output by a matrix formula."""

    matrix: Callable


def _printed_attn(Qs, Ks, Vs, H, T_=None):
    T_ = H.shape[1] if T_ is None else T_
    return H + sum((V @ H) @ _relu((Q @ H).T @ (K @ H)) for Q, K, V in zip(Qs, Ks, Vs)) / T_


def _corrected_attn(Qs, Ks, Vs, H, T_=None):
    T_ = H.shape[1] if T_ is None else T_
    return H + sum((V @ H) @ _relu((K @ H).T @ (Q @ H)) for Q, K, V in zip(Qs, Ks, Vs)) / T_


@claim(
    id="seed001.def_7_relu_attention",
    source=SOURCE,
    label="Def 7",
    entry="E05",
    title="ReLU attention: the matrix form H + (1/n) sum_m (V_m H) relu((Q_m H)^T (K_m H)) equals the token form",
    lines=[(490, 518)],
    printed=AttnFormula(_printed_attn),
    corrected=AttnFormula(_corrected_attn),
    mutants=[Mutant("1/(n-1)", "the corrected matrix form normalised by 1/(T-1) over T tokens",
                    AttnFormula(lambda Qs, Ks, Vs, H: _corrected_attn(Qs, Ks, Vs, H, H.shape[1] - 1))),
             Mutant("relu-matrix-transposed", "the corrected form with its relu matrix transposed, "
                    "(V H) relu((K H)^T (Q H))^T, which is the printed (query/key swapped) form",
                    AttnFormula(lambda Qs, Ks, Vs, H: H + sum((V @ H) @ _relu((K @ H).T @ (Q @ H)).T
                                                               for Q, K, V in zip(Qs, Ks, Vs)) / H.shape[1]),
                    origin="second-reader")],
    expect=Status.ERRATUM,
    severity=Severity.TYPO,
    hypotheses=lambda case: [h for h, ok in (("M >= 1 heads", int(case["M"]) >= 1), ("D >= 1", int(case["D"]) >= 1),
                                             ("n >= 1 tokens", int(case["tokens"]) >= 1)) if not ok],
    parts=[Part("matrix_eq_token", "Attn(H) = H + (1/n) sum_m (V_m H) relu((Q_m H)^T (K_m H)) equals, in vector form, "
                "[Attn(H)]_i = h_i + (1/n) sum_m sum_s relu(<Q_m h_i, K_m h_s>) V_m h_s")],
    rigor=Rigor.FLOAT,
    params=[Param("instances", int, 1, 1000)],
    tiers={"quick": {"instances": 20}, "full": {"instances": 200}},
)
def check_def_7(statement: AttnFormula, p, ctx) -> Verdict:
    """Def 7 (ReLU attention), Def 8 (MLP), Def 9 (transformer, norm (C.1)).

    Statement
    ---------
    Attn(H) = H + (1/n) sum_m (V_m H) relu((Q_m H)^T (K_m H)); "in vector form"
    [Attn(H)]_i = h_i + (1/n) sum_m sum_s relu(<Q_m h_i, K_m h_s>) V_m h_s.

    Source
    ------
    Seed 001, Def 7 (lines 490-498), Def 8 (lines 500-502), Def 9 with the norm (C.1) (lines 506-518).

    Checkable form
    --------------
    Random heads (M in [1, 4], D in [2, 6], q in [1, 4], T in [2, 6] tokens): the statement's matrix
    formula against the token-wise formula (kernels.constructions.gd_transformer.ReLUAttention, which the
    construction uses, as do the proofs of Lemmas 2-3), max abs difference <= 1e-12 (1 + max|out|).
    Column i of (V H) relu((Q H)^T (K H)) is sum_s relu(<Q h_s, K h_i>) V h_s: query and key are
    swapped relative to the token form.  Corrected matrix form: (V H) relu((K H)^T (Q H)).

    Exactness
    ---------
    float64; the two printed forms differ by O(1) on generic instances, rounding is 1e-15.

    Mutants
    -------
    The corrected form with 1/(T-1) for T tokens (normalising by the number of examples n while
    summing over n + 1 tokens) differs by the factor T/(T-1).  Second reader: the corrected form with
    the relu matrix transposed is the printed form again (column i = sum_s relu(<Q h_s, K h_i>) V h_s),
    rejected on generic instances.

    Correction
    ----------
    Matrix form Attn(H) = H + (1/n) sum_m (V_m H) relu((K_m H)^T (Q_m H)) (key-query order swapped); the
    token form, which the construction and the proofs use, is unchanged.

    Hypotheses
    ----------
    The two forms are claimed equal for every H, every M >= 1 and all head matrices; the validator
    checks M, D, tokens >= 1 on the case.  Every random instance is a witness.

    Notes
    -----
    Verdict (second reader): erratum of the definition's claim that the two forms agree, severity typo
    (a transposition a reader corrects; the token form is what Lemmas 2-3 and the construction use, so
    nothing downstream changes).  The same transposition is in Bai et al. (2023), from which Def 7 is
    taken.  The norm (C.1) is
    evaluated for the construction's layers by seed001.theorem_1_construction.
    """
    return _matrix_vs_token_form(statement.matrix, T.ReLUAttention, p["instances"], ctx.rng("attn"))


# ---------------------------------------------------------------------------------------------
# E06. Defs 5-6: EWML
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EWMLFormula:
    matrix: Callable


def _printed_ewml(Qs, Ks, Vs, H):
    return H + sum((V @ H) @ np.diag(np.diag((Q @ H).T @ (K @ H))) for Q, K, V in zip(Qs, Ks, Vs))


def _relu_inside_ewml(Qs, Ks, Vs, H):
    return H + sum((V @ H) @ np.diag(_relu(np.diag((Q @ H).T @ (K @ H)))) for Q, K, V in zip(Qs, Ks, Vs))


@claim(
    id="seed001.def_6_ewml",
    source=SOURCE,
    label="Def 6",
    entry="E06",
    title="EWML(H) = H + sum_m (V_m H) gamma((Q_m H)^T (K_m H)) is the token-wise product <Q h_i, K h_i> V h_i",
    lines=[(303, 323)],
    printed=EWMLFormula(_printed_ewml),
    mutants=[Mutant("relu-inside", "relu applied to <Q h_i, K h_i> (as the proof text, l.839, writes)", EWMLFormula(_relu_inside_ewml)),
             Mutant("no-gamma", "gamma dropped: H + sum_m (V_m H) (Q_m H)^T (K_m H) mixes tokens",
                    EWMLFormula(lambda Qs, Ks, Vs, H: H + sum((V @ H) @ ((Q @ H).T @ (K @ H)) for Q, K, V in zip(Qs, Ks, Vs))),
                    origin="second-reader"),
             Mutant("gamma-offdiag", "gamma reading the first super-diagonal A[i, i+1] (an index slip)",
                    EWMLFormula(lambda Qs, Ks, Vs, H: H + sum((V @ H) @ np.diag(np.append(np.diag((Q @ H).T @ (K @ H), 1), 0.0))
                                                               for Q, K, V in zip(Qs, Ks, Vs))),
                    origin="second-reader")],
    expect=Status.CONFIRMED,
    parts=[Part("matrix_eq_token", "EWML(H) = H + sum_m (V_m H) gamma((Q_m H)^T (K_m H)) with gamma(A) = diag(A[1,1], ..., "
                "A[n,n]) equals [EWML(H)]_i = h_i + sum_m <Q_m h_i, K_m h_i> V_m h_i")],
    rigor=Rigor.FLOAT,
    params=[Param("instances", int, 1, 1000)],
    tiers={"quick": {"instances": 20}, "full": {"instances": 200}},
)
def check_def_6(statement: EWMLFormula, p, ctx) -> Verdict:
    """Def 5 (gamma operator), Def 6 (element-wise multiplication layer), Remark 3, (3.18).

    Statement
    ---------
    gamma(A) = diag(A[1,1], ..., A[n,n]); EWML(H) = H + sum_m (V_m H) gamma((Q_m H)^T (K_m H)), i.e.
    [EWML(H)]_i = h_i + sum_m <Q_m h_i, K_m h_i> V_m h_i.

    Source
    ------
    Seed 001, Def 5 (lines 303-305), Def 6 with (3.17) (lines 309-315), Remark 3 (lines 317-319), (3.18) line 323.

    Checkable form
    --------------
    Random heads and tokens: the matrix formula against the token form (kernels.constructions.gd_transformer.EWML),
    max abs difference <= 1e-12 (1 + max|out|).

    Exactness
    ---------
    float64 with rounding 1e-15; the mutant differs by O(1).

    Mutants
    -------
    relu applied to the products (the proof of Lemma 5 writes relu(<Q h_i, K h_s>) V h_s, l.839) zeroes
    every negative product.  Second reader: gamma dropped (the full matrix mixes tokens: column i gets
    sum_s <Q h_s, K h_i> V h_s) and gamma reading the super-diagonal (column i gets <Q h_i, K h_{i+1}>
    V h_i); both differ by O(1) on generic instances.  Note that the transposed product
    (K H)^T (Q H) is NOT a mutant here: its diagonal is the same <Q h_i, K h_i>.

    Notes
    -----
    Verdict (second reader): confirmed.  The relu in the proof of Lemma 5 (l.839) and the sum index
    "i = 1..m" (for m = 1..M) are slips outside Def 6's statement; the construction uses the product
    without relu (kernels.constructions.gd_transformer.EWML) and Lemma 5 is checked with it
    (seed001.lemma_5_backprop_ewml), so neither is an erratum of this claim.
    The printed sum index "i = 1..m" is a typo for m = 1..M.  EWML is not a standard transformer layer:
    it has no cross-token mixing and computes a cubic polynomial of one token.
    """
    return _matrix_vs_token_form(statement.matrix, T.EWML, p["instances"], ctx.rng("ewml"))


# ---------------------------------------------------------------------------------------------
# E16. (F.1), Def 11: Softmax block
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SoftmaxBlockStatement:
    causal: bool = False
    equivariant: bool = True  # f(H pi) = f(H) pi (False: the invariance f(H pi) = f(H))


@claim(
    id="seed001.def_11_softmax_block",
    source=SOURCE,
    label="Def 11",
    entry="E16",
    title="The Softmax block FF o Attn o FF of (F.1) is permutation equivariant",
    lines=[(1141, 1149)],
    printed=SoftmaxBlockStatement(),
    mutants=[Mutant("causal-mask", "the GPT-2 style causal attention of the experiments (App. G) in place of (F.1)",
                    SoftmaxBlockStatement(True)),
             Mutant("invariant", "permutation invariance f(H pi) = f(H) instead of equivariance",
                    SoftmaxBlockStatement(equivariant=False), origin="second-reader")],
    expect=Status.CONFIRMED,
    parts=[Part("equivariance", "every FF o Attn o FF block (F.1) is permutation equivariant: f(H pi) = f(H) pi")],
    rigor=Rigor.FLOAT,
    params=[Param("instances", int, 1, 1000)],
    tiers={"quick": {"instances": 20}, "full": {"instances": 200}},
)
def check_def_11(statement: SoftmaxBlockStatement, p, ctx) -> Verdict:
    """(F.1) Softmax attention and Def 11: the block T_Softmax = FF o Attn o FF.

    Statement
    ---------
    Attn(H) = H + W^(O) (V H) Softmax[(K H)^T (Q H)] (single head, column-wise softmax),
    FF(H) = H + W_2 ReLU(W_1 H + b_1 1^T) + b_2 1^T, T_Softmax = {FF o Attn o FF}; Lemma 16 uses that
    these maps are permutation equivariant (f(H pi) = f(H) pi), as its target f is.

    Source
    ------
    Seed 001, (F.1) lines 1141-1145, Def 11 lines 1147-1149.

    Checkable form
    --------------
    Random weights (D in [2, 6], FF width in [1, 8]), tokens T in [2, 7], a random permutation pi:
    max |T(H pi) - T(H) pi| <= 1e-12 (1 + max|T(H)|).

    Exactness
    ---------
    float64; softmax is evaluated with the max subtracted, rounding 1e-15.

    Mutants
    -------
    The causal mask of the GPT-2 backbone used in the experiments breaks equivariance: the first
    token then attends only to itself.  Second reader: invariance (f(H pi) = f(H)) fails on generic
    instances (the residual H alone is permuted).

    Notes
    -----
    Verdict (second reader): confirmed (an identity; every part asserted).
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    rng = ctx.rng("softmax")
    for k in range(p["instances"]):
        D, w, Tn = int(rng.integers(2, 7)), int(rng.integers(1, 9)), int(rng.integers(2, 8))
        ff1 = (rng.normal(size=(w, D)), rng.normal(size=w), rng.normal(size=(D, w)) / w, rng.normal(size=D))
        ff2 = (rng.normal(size=(w, D)), rng.normal(size=w), rng.normal(size=(D, w)) / w, rng.normal(size=D))
        att = [rng.normal(size=(D, D)) for _ in range(4)]

        def block(H, ff1=ff1, ff2=ff2, att=att):
            H = T.feed_forward(H, *ff1)
            H = T.softmax_attention(H, *att, causal=statement.causal)
            return T.feed_forward(H, *ff2)

        H = rng.normal(size=(D, Tn))
        perm = rng.permutation(Tn)
        while Tn > 1 and perm[0] == 0:
            perm = rng.permutation(Tn)
        out = block(H)
        target = out[:, perm] if statement.equivariant else out
        ev.add({"instance": k, "D": D, "tokens": Tn, "permutation": perm.tolist()},
               float(np.abs(block(H[:, perm]) - target).max()), TOL * (1 + float(np.abs(out).max())),
               part="equivariance")
    return ev.verdict()
