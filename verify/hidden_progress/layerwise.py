"""The layer-by-layer counterexample with quadratic activations, App. B.3.7 (E28).

Network: z_0 = x, z_l = sigma(W_l z_{l-1} + b_l) with sigma(z) = z^2 (l = 1..L-1), f = u^T z_{L-1}
(no output bias, lines 3822-3833).  Registered here:

* ``thesis_ch5.layerwise.degree_bound``      an L-layer net has degree <= 2^{L-1} and represents parities up to it
* ``thesis_ch5.layerwise.single_layer``      a single layer cannot represent a parity of k > 2 inputs
* ``thesis_ch5.layerwise.gradient_vanishes`` the layer-wise population gradient is 0 for k > 2
* ``thesis_ch5.layerwise.downstream_degree`` the downstream factor has degree 2^{L-2} - 1 (in z_1)

The (2, 1) network and the training experiments (width_2_1, training_L3, training_L4) are in
verify.hidden_progress.layerwise_width_training, which imports its helpers from here.

Exact routes: every network is evaluated on the whole cube in integers / Fractions
(kernels.boolean.deep_mlp), its multilinear expansion is the integer Walsh-Hadamard transform of the table,
and identities "for all weights" are decided symbolically (sympy, weights as symbols, x_i^2 = 1).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
import sympy as sp

from kernels import chi, popcounts, sign_vectors
from kernels.boolean import wht
from kernels.boolean.deep_mlp import (
    downstream_factor,
    first_layer_correlation_gradient,
    multilinear_degree,
    poly_mlp_forward,
)

from ..registry import Evidence, Mutant, Param, Part, Rigor, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True

_LINES_NET = (3822, 3833)


# ---------------------------------------------------------------------------------------------
# shared helpers
# ---------------------------------------------------------------------------------------------


def _random_net(rng: np.random.Generator, n: int, L: int, *, width_max: int = 3, wmax: int = 2, width_min: int = 1):
    """Integer weights and biases uniform on {-wmax..wmax}, widths uniform on {width_min..width_max}."""
    widths = [n] + [int(rng.integers(width_min, width_max + 1)) for _ in range(L - 1)]
    layers = [(rng.integers(-wmax, wmax + 1, size=(widths[ell + 1], widths[ell])),
               rng.integers(-wmax, wmax + 1, size=widths[ell + 1])) for ell in range(L - 1)]
    u = rng.integers(-wmax, wmax + 1, size=widths[-1])
    return layers, u


def nested_parity_net(S, n: int, L: int, *, output_bias: bool = False):
    """A sigma = z^2 network with L - 1 hidden layers and f = chi_S on {±1}^n ("a 2-sparse parity of
    2-sparse parities"), or None when |S| > 2^{L-1}.

    The 2^{L-1} slots hold the indices of S, padded with constants 1.  Layer 1 squares x_a + x_b (a
    padded slot contributes +1 through the bias): (x_a + x_b)^2 = 2 + 2 x_a x_b.  Layer l >= 2 squares
    z_a/2 + z_b/2 - 2 = p_a + p_b, where z = 2 + 2p: again 2 + 2 p_a p_b.  The last hidden layer holds
    one such neuron, 2 + 2 chi_S; f = (2 + 2 chi_S)/2 - 1.  Without an output bias the -1 comes from
    an extra constant neuron sigma(0 . z + 1) = 1 (widths 2^{L-2}, ..., 2, 1 + 1); with
    ``output_bias=True`` it is the output bias c = -1 (widths 2^{L-2}, ..., 2, 1).
    Returns (layers, u, c).
    """
    S = list(S)
    if L < 2 or len(S) > 2 ** (L - 1):
        return None
    slots = S + [None] * (2 ** (L - 1) - len(S))
    m = 2 ** (L - 2)
    W1 = [[Fraction(0)] * n for _ in range(m)]
    b1 = [Fraction(0)] * m
    for j in range(m):
        for a in slots[2 * j: 2 * j + 2]:
            if a is None:
                b1[j] += 1
            else:
                W1[j][a] += 1
    layers = [[W1, b1]]
    prev = m
    for _ in range(2, L):
        m = prev // 2
        W = [[Fraction(0)] * prev for _ in range(m)]
        for j in range(m):
            W[j][2 * j] = W[j][2 * j + 1] = Fraction(1, 2)
        layers.append([W, [Fraction(-2)] * m])
        prev = m
    if output_bias:
        return [(np.array(W, dtype=object), np.array(b, dtype=object)) for W, b in layers], [Fraction(1, 2)], Fraction(-1)
    W, b = layers[-1]
    W.append([Fraction(0)] * len(W[0]))
    b.append(Fraction(1))
    return [(np.array(W, dtype=object), np.array(b, dtype=object)) for W, b in layers], [Fraction(1, 2), Fraction(-1)], Fraction(0)


def _rng_state(rng: np.random.Generator) -> tuple:
    """The generator's full state as a hashable key (PCG64)."""
    st = rng.bit_generator.state
    return (st["bit_generator"], st["state"]["state"], st["state"]["inc"], st["has_uint32"], st["uinteger"])


def _set_rng_state(rng: np.random.Generator, key: tuple) -> None:
    name, state, inc, has32, uint = key
    rng.bit_generator.state = {"bit_generator": name, "state": {"state": state, "inc": inc}, "has_uint32": has32,
                               "uinteger": uint}


@functools.lru_cache(maxsize=512)
def _random_net_degrees(state: tuple, n: int, L: int, trials: int) -> tuple[tuple, tuple]:
    """(multilinear degrees of ``trials`` random nets drawn from a generator in ``state``, the state after the
    draws): the draws and degrees of the degree-bound check, which every statement repeats (pure function of
    the generator state, so memoised; the caller continues from the returned state)."""
    rng = np.random.default_rng()
    _set_rng_state(rng, state)
    degs = []
    for _ in range(trials):
        layers, u = _random_net(rng, n, L)
        degs.append(multilinear_degree(poly_mlp_forward(layers, u, n=n)))
    return tuple(degs), _rng_state(rng)


@functools.lru_cache(maxsize=512)
def _nested_eval(S: tuple, n: int, L: int):
    """(mismatches with chi_S, multilinear degree, widths) of the nested construction, or None (memoised:
    statement-independent)."""
    net = nested_parity_net(list(S), n, L)
    if net is None:
        return None
    layers, u, _ = net
    table = poly_mlp_forward(layers, u, n=n)
    return _mismatches(table, sum(1 << i for i in S), n), multilinear_degree(table), str([len(b) for _, b in layers])


def _mismatches(table, mask: int, n: int) -> int:
    target = chi(mask, n).astype(np.int64)
    return int(sum(1 for v, t in zip(table.tolist(), target.tolist()) if v != t))


def _multilinearize(expr, xs) -> dict:
    """Multilinear reduction (x_i^2 = 1) of a polynomial: {parity exponent tuple: coefficient}."""
    P = sp.Poly(sp.expand(expr), *xs)
    out: dict = {}
    for mon, c in P.terms():
        key = tuple(e % 2 for e in mon)
        out[key] = out.get(key, 0) + c
    return {k: sp.expand(v) for k, v in out.items()}


def _symbolic_net(n: int, widths: tuple[int, ...]):
    """f(x) of a sigma = z^2 net with symbolic weights, biases and readout (no output bias)."""
    xs = sp.symbols(f"x0:{n}")
    z = list(xs)
    for ell, r in enumerate(widths, start=1):
        new = []
        for j in range(r):
            w = sp.symbols(f"w{ell}_{j}_0:{len(z)}")
            b = sp.Symbol(f"b{ell}_{j}")
            new.append((b + sum(wi * zi for wi, zi in zip(w, z))) ** 2)
        z = new
    u = sp.symbols(f"u0:{len(z)}")
    return sum(ui * zi for ui, zi in zip(u, z)), xs


# ---------------------------------------------------------------------------------------------
# (1) degree bound and representable parities
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DegreeStatement:
    """An L-layer sigma = z^2 net has multilinear degree <= bound(L) and represents every parity of
    degree <= representable(L)."""

    bound: Callable[[int], int]
    representable: Callable[[int], int]
    text: str


_DEG_PRINTED = DegreeStatement(lambda L: 2 ** (L - 1), lambda L: 2 ** (L - 1),
                               "degree <= 2^{L-1}; parities up to degree 2^{L-1} representable")


@claim(
    id="thesis_ch5.layerwise.degree_bound",
    source=SOURCE,
    label="App. B.3.7 (layer-by-layer counterexample)",
    entry="E28",
    title="sigma = z^2: an L-layer MLP is a polynomial of degree <= 2^{L-1} and represents parities up to that degree",
    lines=[_LINES_NET, (3835, 3837)],
    printed=_DEG_PRINTED,
    mutants=[
        Mutant("bound-minus-one", "degree <= 2^{L-1} - 1 (one squaring too few): the bound times (2^{L-1} - 1)/2^{L-1} "
               "(x 1/2 at L = 2), just below the sharpness 1; rejected at L = 2, n = 2 (a random net of degree 2)",
               replace(_DEG_PRINTED, bound=lambda L: 2 ** (L - 1) - 1, representable=lambda L: 2 ** (L - 1) - 1),
               near_boundary=True, part="degree"),
        Mutant("three-layers-five-sparse", "an L-layer net represents a (2^{L-1} + 1)-sparse parity (3 layers: 5-sparse)",
               replace(_DEG_PRINTED, representable=lambda L: 2 ** (L - 1) + 1)),
        Mutant("degree-linear-in-L", "degree <= 2(L - 1) (each layer adds 2 instead of doubling): equal to 2^{L-1} at "
               "L = 2, 3, false from L = 4 (degree 8 > 6)",
               replace(_DEG_PRINTED, bound=lambda L: 2 * (L - 1), representable=lambda L: 2 * (L - 1)), origin="second-reader"),
        Mutant("bound-only-degree-bound", "degree <= 2^{L-1} kept, but parities up to degree 2^{L-1} + 1 at L >= 3 "
               "representable (the ceiling of the construction moved by one at the first composed layer only)",
               replace(_DEG_PRINTED, representable=lambda L: 2 ** (L - 1) + (1 if L >= 3 else 0)), origin="second-reader"),
    ],
    parts=[
        Part("degree", "the output of an L-layer sigma = z^2 MLP is a polynomial of degree <= 2^{L-1} in x (implicit in "
             "lines 3835-3837, used in the sanity check of lines 3851-3852)", inequality=True),
        Part("representable", "an L-layer MLP can represent parities up to degree 2^{L-1} (e.g. 3 layers: a 4-sparse "
             "parity as a 2-sparse parity of 2-sparse parities), lines 3835-3837"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[
        Param("L_max", int, 2, 5, doc="L = 2..L_max layers"),
        Param("n_max", int, 2, 14, doc="n = 1..n_max for random integer networks"),
        Param("trials", int, 1, 200, doc="random integer networks per (L, n)"),
        Param("symbolic_L3", bool, doc="also expand an L = 3, (2, 1) net with symbolic weights (n = 5)"),
    ],
    tiers={"quick": {"L_max": 4, "n_max": 9, "trials": 4, "symbolic_L3": False},
           "full": {"L_max": 4, "n_max": 12, "trials": 12, "symbolic_L3": True}},
)
def check_degree_bound(statement: DegreeStatement, p, ctx) -> Verdict:
    """Degree of a deep quadratic-activation MLP and the parities it represents.

    Statement
    ---------
    "When sigma is a degree-2 polynomial (say, sigma(z) = z^2), an L-layer MLP can represent parities
    up to degree 2^{L-1} - for example, a 3-layer MLP (which composes quadratic activations twice) can
    represent a 4-sparse parity as a 2-sparse parity of 2-sparse parities."  Implicit (and used in
    the sanity check of lines 3851-3852): its output is a polynomial of degree <= 2^{L-1} in x, so no
    parity of more than 2^{L-1} inputs is representable.

    Hypotheses
    ----------
    The network of lines 3822-3833: L - 1 hidden layers z_l = sigma(W_l z_{l-1} + b_l) with biases,
    readout f = u^T z_{L-1} without bias.

    Source
    ------
    Thesis (seed 004), App. B.3.7 (layer-by-layer counterexample), lines 3822-3833 (the network) and
    3835-3837 (the claim).

    Checkable form
    --------------
    (i) For L = 2..L_max and n = 1..n_max, ``trials`` random integer networks (weights and biases on
    {-2..2}, widths on {1..3}) are evaluated on the whole cube (exact integers) and multilinearised
    by the integer Walsh-Hadamard transform; the largest |S| with a nonzero coefficient, maximised
    over the trials, must be <= bound(L).  (ii) For every k = 1..representable(L) (k <= n_max) and a
    random S of size k in [n], n = n_max, the nested construction (:func:`nested_parity_net`: pairs of
    slots squared, (a + b)^2 = 2 + 2ab, padded with constants; widths 2^{L-2}, ..., 2, 2) must equal
    chi_S at every point; it exists only for k <= 2^{L-1}.  (iii) representable(L) <= bound(L) (a
    representable parity of degree k needs a degree-k network).  (iv) With ``symbolic_L3``: the
    L = 3, (r_1, r_2) = (2, 1) net on n = 5 inputs with all 16 parameters symbolic: every coefficient
    of its multilinear expansion at |S| > bound(3) is the zero polynomial (for all real weights).

    Exactness
    ---------
    Exact: integer / Fraction tables, integer transforms, sympy polynomial identities.  Part (i)
    samples weights; the bound itself holds for all weights by composition (each layer at most
    doubles the degree, the readout is linear), which (iv) confirms symbolically at L = 3.
    Measured: the random nets attain degree exactly 2^{L-1} whenever n >= 2^{L-1}.

    Mutants
    -------
    bound-minus-one: random nets reach degree 2^{L-1} (already at L = 2, n = 2: degree 2 > 1).
    three-layers-five-sparse: (iii) fails (2^{L-1} + 1 > 2^{L-1}) and the nested construction does
    not fit.  near-boundary (part degree): bound-minus-one is the bound times (2^{L-1} - 1)/2^{L-1},
    just below the sharpness 1 found (below); rejected at L = 2, n = 2.
    Second reader (origin="second-reader"): degree-linear-in-L is false because the nested construction
    realises chi_[8] (degree 8) with L = 4 layers while 2(L - 1) = 6; rejected by (i) at L = 4, n >= 8
    and by (iii).  bound-only-degree-bound claims a (2^{L-1} + 1)-sparse parity at L = 3 while every
    3-layer net has degree <= 4 (composition); rejected by (iii) (5 > 4).

    Sharpness
    ---------
    Part degree: the ratio (max degree reached)/bound(L).  The search is the proof's extremal instance,
    the nested construction (degree exactly 2^{L-1} when k = 2^{L-1} <= n), plus the random integer nets
    (generic weights attain the top degree whenever n >= 2^{L-1}).  Found: 1 (attained, L = 2..L_max):
    the bound is tight, so a near-boundary mutant is any strengthening.
    """
    ev = Evidence("le", rigor=Rigor.EXACT)
    rng = ctx.rng("networks")
    attained = {}
    for L in range(2, p["L_max"] + 1):
        for n in range(1, p["n_max"] + 1):
            degs, state = _random_net_degrees(_rng_state(rng), n, L, p["trials"])
            _set_rng_state(rng, state)
            ev.add({"part": "(i) degree of random nets <= bound", "L": L, "n": n, "trials": p["trials"]},
                   max(degs), statement.bound(L), part="degree")
            attained[f"L={L}, n={n}"] = max(degs)
        n = p["n_max"]
        for k in range(1, min(statement.representable(L), n) + 1):
            S = sorted(int(v) for v in rng.choice(n, size=k, replace=False))
            nested = _nested_eval(tuple(S), n, L)
            if nested is None:
                ev.add({"part": "(ii) nested construction fits in L layers", "L": L, "k": k},
                       math.ceil(math.log2(k)) + 1, L)
                continue
            bad, degree, widths = nested
            ev.add({"part": "(ii) nested construction = chi_S", "L": L, "n": n, "S": str(S),
                    "widths": widths}, bad, 0, relation="eq")
            # the construction is also the tight instance of the degree bound: degree k = 2^{L-1} at the top
            ev.add({"part": "(i') degree of the nested construction <= bound (tight instance)", "L": L, "n": n, "k": k},
                   degree, statement.bound(L), part="degree")
        ev.add({"part": "(iii) representable(L) <= bound(L)", "L": L}, statement.representable(L), statement.bound(L))
    ev.details["max multilinear degree of random nets"] = attained
    if p["symbolic_L3"]:
        f, xs = _symbolic_net(5, (2, 1))
        coeffs = _multilinearize(f, xs)
        over = [k for k, v in coeffs.items() if sum(k) > statement.bound(3) and v != 0]
        ev.add({"part": "(iv) symbolic L = 3, widths (2, 1), n = 5: coefficients above bound(3) vanish identically"},
               len(over), 0, relation="eq")
        ev.details["symbolic L = 3 net: degree of the multilinear expansion"] = max(sum(k) for k, v in coeffs.items() if v != 0)
    return ev.verdict(backend="cpu")


# ---------------------------------------------------------------------------------------------
# (2) a single layer
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SingleLayerStatement:
    """u^T sigma(W x + b) (sigma = z^2) represents chi_S exactly when |S| <= max_k."""

    max_k: int
    text: str


_SINGLE_PRINTED = SingleLayerStatement(2, "a single layer cannot represent a parity of k > 2 inputs")


@claim(
    id="thesis_ch5.layerwise.single_layer",
    source=SOURCE,
    label="App. B.3.7 (layer-by-layer counterexample)",
    entry="E28",
    title="A single quadratic layer u^T (W x + b)^2 cannot represent a parity of k > 2 inputs (and can for k <= 2)",
    lines=[(3837, 3839)],
    printed=_SINGLE_PRINTED,
    mutants=[
        Mutant("k-above-1", "a single layer cannot represent a parity of k > 1 inputs", SingleLayerStatement(1, "k > 1")),
        Mutant("k-above-3", "a single layer cannot represent a parity of k > 3 inputs (it can represent 3-sparse ones)",
               SingleLayerStatement(3, "k > 3")),
        Mutant("k-above-4", "a single layer represents every parity of at most 4 inputs (the 3-layer figure of line "
               "3836 read as one layer)", SingleLayerStatement(4, "k > 4"), origin="second-reader"),
    ],
    parts=[
        Part("impossible", "an individual layer (sigma = z^2) cannot represent a parity of k > 2 inputs (lines 3837-3839)"),
        Part("threshold", "the threshold is exact: parities of k <= 2 inputs are represented by one layer (the reading "
             "that makes 2 the threshold; the sanity check of lines 3851-3852 uses k > 2^{L-1})"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[
        Param("k_max", int, 1, 10, doc="k = 1..k_max (symbolic coefficient at S = [k])"),
        Param("n_max", int, 2, 14, doc="random integer single-layer nets on n = 2..n_max inputs"),
        Param("trials", int, 1, 100, doc="random nets per n"),
    ],
    tiers={"quick": {"k_max": 6, "n_max": 10, "trials": 4}, "full": {"k_max": 9, "n_max": 13, "trials": 16}},
)
def check_single_layer(statement: SingleLayerStatement, p, ctx) -> Verdict:
    """A single quadratic layer and the parities it can represent.

    Statement
    ---------
    "Equation (B.1) implies the following: an individual layer cannot represent a parity of k > 2
    inputs."  (With sigma(z) = z^2; the layer's inputs are x for the first layer.)

    Source
    ------
    Thesis (seed 004), App. B.3.7 (layer-by-layer counterexample), lines 3837-3839.

    Checkable form
    --------------
    A single layer with readout is f(x) = sum_j u_j (w_j . x + b_j)^2.  On the cube its coefficient at
    S is sum_j u_j c_S(w_j, b_j), where c_S is the coefficient at S of the multilinear reduction of
    (w . x + b)^2; c_S involves only w_S and b, so computing it with n = |S| covers every n.  For
    k = 1..k_max and S = [k]: if c_S is the zero polynomial in (w, b) (sympy), chi_S is representable
    by no weights at all (its own coefficient at S is 1); if not, the explicit net (x_a + x_b)^2/2 - 1
    (k = 2) or (x_a + 1)^2/2 - 1 (k = 1), with the constant neuron sigma(0 . x + 1) = 1, is executed
    on the cube.  The statement says representable iff k <= max_k: each k is one case.  Also, random
    integer nets on n = 2..n_max: every coefficient at |S| > max_k must be exactly 0.

    Exactness
    ---------
    Exact: sympy polynomial identities (all real weights), Fraction evaluation, integer transforms.

    Mutants
    -------
    k-above-1: the k = 2 net represents x_1 x_2 exactly.  k-above-3: c_[3] is identically 0, so
    chi_[3] is not representable (and random nets have zero coefficients at |S| = 3).
    Second reader: k-above-4 is false for the same reason (c_[3] and c_[4] vanish identically: a
    square of an affine form has degree 2); rejected at k = 3.
    """
    ev = Evidence("true", rigor=Rigor.EXACT)
    for k in range(1, p["k_max"] + 1):
        xs = sp.symbols(f"x0:{k}")
        w = sp.symbols(f"w0:{k}")
        b = sp.Symbol("b")
        c_S = _multilinearize((b + sum(wi * xi for wi, xi in zip(w, xs))) ** 2, xs).get((1,) * k, sp.Integer(0))
        net = nested_parity_net(range(k), k, 2)
        exact = net is not None and _mismatches(poly_mlp_forward(net[0], net[1], n=k), (1 << k) - 1, k) == 0
        representable = c_S != 0 and exact
        impossible = c_S == 0
        if k <= statement.max_k:
            ev.add({"k": k, "part": "chi_[k] is represented (explicit net executed)", "c_S(w, b)": str(c_S)}, representable)
        else:
            ev.add({"k": k, "part": "no weights represent chi_[k] (c_S identically 0)", "c_S(w, b)": str(c_S)}, impossible)
    rng = ctx.rng("networks")
    for n in range(2, p["n_max"] + 1):
        over = 0
        for _ in range(p["trials"]):
            layers, u = _random_net(rng, n, 2, width_max=4)
            T = wht(np.asarray(poly_mlp_forward(layers, u, n=n), dtype=np.int64))
            over = max(over, int(np.abs(T[popcounts(n) > statement.max_k]).max(initial=0)))
        ev.add({"n": n, "part": "random single-layer nets: all coefficients at |S| > max_k are 0", "trials": p["trials"],
                "max |2^n f^(S)|": over}, over == 0)
    return ev.verdict(backend="cpu")


# ---------------------------------------------------------------------------------------------
# (3) the layer-wise population gradient vanishes
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LayerwiseGradientStatement:
    """Greedy layer-wise training of layer 1 (f = u^T (W x + b)^2, correlation loss): the population
    gradient (w.r.t. W, b and u) is 0 for every S with |S| > threshold and not identically 0 otherwise."""

    threshold: int
    text: str


_LW_PRINTED = LayerwiseGradientStatement(2, "zero for k > 2")


def _population_loss(layers, u, mask: int, n: int) -> Fraction:
    f = poly_mlp_forward(layers, u, n=n)
    y = chi(mask, n).astype(np.int64)
    return -Fraction(int(np.dot(y, np.asarray(f, dtype=np.int64))), 1 << n)


@claim(
    id="thesis_ch5.layerwise.gradient_vanishes",
    source=SOURCE,
    label="App. B.3.7 (layer-by-layer counterexample)",
    entry="E28",
    title="Layer-wise training: the first layer's population gradient under the correlation loss is 0 for k > 2",
    lines=[(3839, 3841), (3843, 3843)],
    printed=_LW_PRINTED,
    mutants=[
        Mutant("threshold-1", "the gradient vanishes already for k = 2", LayerwiseGradientStatement(1, "k > 1")),
        Mutant("threshold-3", "the gradient vanishes only for k > 3 (nonzero at k = 3)", LayerwiseGradientStatement(3, "k > 3")),
        Mutant("threshold-0", "the layer-wise gradient carries no information for any parity (vanishes for k >= 1)",
               LayerwiseGradientStatement(0, "k > 0"), origin="second-reader"),
    ],
    parts=[
        Part("vanishes", "for k > 2 the population gradient of the first layer under layer-wise training (correlation "
             "loss, linear readout) is zero (lines 3839-3841, 3843)"),
        Part("informative-below", "for k <= 2 it is not identically zero (the threshold 2 is exact; implicit in 'since "
             "every coordinate ... is the correlation between a k-wise parity and a polynomial of degree 2')"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[
        Param("n_max", int, 3, 12, doc="n = 3..n_max"),
        Param("trials", int, 1, 50, doc="random integer layers per n"),
        Param("fd_checks", int, 0, 50, doc="coordinates per instance cross-checked by an exact central difference"),
    ],
    tiers={"quick": {"n_max": 7, "trials": 3, "fd_checks": 2}, "full": {"n_max": 10, "trials": 8, "fd_checks": 6}},
)
def check_layerwise_gradient(statement: LayerwiseGradientStatement, p, ctx) -> Verdict:
    """The layer-wise population gradient of a quadratic layer against a k-sparse parity.

    Statement
    ---------
    "The population gradient (as in Equation (B.4)) is zero (since every coordinate of the gradient
    is the correlation between a k-wise parity and a polynomial of degree 2)" [for k > 2]; "with
    layer-by-layer training, this gradient contains no information: grad_w E[-y x_i sigma'(w^T x) u_j]
    = 0."

    Hypotheses
    ----------
    sigma(z) = z^2, correlation loss l = -y f, layer 1 trained with a linear readout f = u^T z_1,
    y = chi_S(x), k = |S| > 2.

    Source
    ------
    Thesis (seed 004), App. B.3.7 (layer-by-layer counterexample), lines 3839-3841 and 3843.

    Checkable form
    --------------
    For n = 3..n_max and ``trials`` random integer layers (weights, biases, readout on {-2..2}, width
    on {1..3}), for every S: the exact population gradient of L = E[-chi_S f] with respect to W_1 and
    b_1 (backpropagation over the whole cube, kernels.boolean.deep_mlp) and with respect to u (E[-chi_S z_1]).
    Per k, the largest |coordinate| over all S with |S| = k and all trials must be 0 when k >
    threshold and > 0 when k <= threshold (both are parts of "vanishes exactly above the threshold";
    generic random weights give nonzero gradients whenever they can).  Cross-route: for ``fd_checks``
    coordinates per instance the exact central difference (L(W + e) - L(W - e))/2 of the exhaustive
    population loss must equal the backpropagated coordinate (exact: L is quadratic in each weight).

    Exactness
    ---------
    Exact: integer tables, Fractions.

    Mutants
    -------
    threshold-1: at k = 2 the gradient is nonzero (E[-x_1 x_2 2(w.x + b) x_1] = -2 w_2 u).
    threshold-3: at k = 3 every coordinate is exactly 0.
    Second reader: threshold-0 is false: at k = 1, E[-x_1 (w.x + b)^2 u] = -2 b w_1 u != 0 for generic
    weights; rejected at k = 1.
    """
    ev = Evidence("eq", rigor=Rigor.EXACT)
    per_k_items, fd_cases = _layerwise_gradient_data(ctx.seed("networks"), p["n_max"], p["trials"], p["fd_checks"])
    per_k = dict(per_k_items)
    for case, fd, g in fd_cases:
        ev.add(dict(case), fd, g)
    table = {}
    for k in sorted(per_k):
        if k > statement.threshold:
            ev.add({"part": "max |gradient coordinate| over |S| = k is 0", "k": k, "n": f"<= {p['n_max']}"}, per_k[k], 0)
        else:
            ev.add({"part": "gradient not identically 0 for |S| = k", "k": k, "n": f"<= {p['n_max']}"}, per_k[k], 0, relation="gt")
        table[f"k={k}"] = str(per_k[k])
    ev.details["max |population gradient coordinate| by k (W, b and u of the layer)"] = table
    return ev.verdict(backend="cpu")


@functools.lru_cache(maxsize=8)
def _layerwise_gradient_data(seed: int, n_max: int, trials: int, fd_checks: int) -> tuple[tuple, tuple]:
    """The statement-independent part of the layer-wise gradient check, memoised (every statement reads the
    same nets): ((k, max |gradient coordinate| over |S| = k), ...) and the central-difference cases
    (case, fd, backprop)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    per_k: dict = {}
    fd_cases = []
    for n in range(3, n_max + 1):
        for t in range(trials):
            layers, u = _random_net(rng, n, 2)
            (W, b), = layers
            z1 = (sign_vectors(n).astype(np.int64) @ W.T + b[None, :]) ** 2  # (2^n, r): the layer's outputs
            for mask in range(1, 1 << n):
                k = mask.bit_count()
                G, gb = first_layer_correlation_gradient(layers, u, mask, n=n, layerwise=True)
                y = chi(mask, n).astype(np.int64)
                gu = [-Fraction(int(np.dot(y, z1[:, j])), 1 << n) for j in range(len(b))]
                mx = max(max(abs(v) for row in G for v in row), max(abs(v) for v in gb), max(abs(v) for v in gu))
                per_k[k] = max(per_k.get(k, Fraction(0)), mx)
                if t == 0 and mask in (3, (1 << n) - 1, 7) and fd_checks:
                    for _ in range(fd_checks):
                        j, i = int(rng.integers(len(b))), int(rng.integers(n))
                        Wp, Wm = W.copy(), W.copy()
                        Wp[j, i] += 1
                        Wm[j, i] -= 1
                        fd = (_population_loss([(Wp, b)], u, mask, n) - _population_loss([(Wm, b)], u, mask, n)) / 2
                        fd_cases.append(({"part": "central difference = backprop", "n": n, "S": mask, "j": j, "i": i},
                                         fd, G[j][i]))
    return tuple(per_k.items()), tuple(fd_cases)


# ---------------------------------------------------------------------------------------------
# (4) the downstream factor of the end-to-end gradient
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DownstreamStatement:
    """d(f_L o ... o f_2)/d(z_1)_j has degree ``degree(L)`` as a polynomial in ``variable`` ('z1' or 'x')."""

    variable: str
    degree: Callable[[int], int]
    text: str
    #: degree of sigma'(w^T x) in x (printed: 1); x_i contributes one more
    sigma_prime_degree: int = 1


_DOWN_PRINTED = DownstreamStatement("z1", lambda L: 2 ** (L - 2) - 1, "degree 2^{L-2} - 1 (in z_1, the variable differentiated)")


def _capacity(statement: DownstreamStatement, L: int) -> int:
    """Degree in x of x_i sigma'(w^T x) * (downstream factor): 1 + 1 + (x-degree of the factor)."""
    d = statement.degree(L)
    return 1 + statement.sigma_prime_degree + (2 * d if statement.variable == "z1" else d)


def _symbolic_upper_degree(rng: np.random.Generator, L: int, r1: int) -> int:
    """Total degree in z_1 of d(f_L o ... o f_2)/d(z_1)_j, max over j, for random integer upper layers."""
    z = list(sp.symbols(f"z0:{r1}"))
    zs = z
    for _ in range(2, L):
        r = int(rng.integers(1, 3))
        W = rng.integers(-2, 3, size=(r, len(zs)))
        b = rng.integers(-2, 3, size=r)
        zs = [(int(b[j]) + sum(int(W[j, i]) * zs[i] for i in range(len(zs)))) ** 2 for j in range(r)]
    u = rng.integers(1, 3, size=len(zs)) * rng.choice([-1, 1], size=len(zs))
    g = sp.expand(sum(int(ui) * zi for ui, zi in zip(u, zs)))
    degs = []
    for zj in z:
        d = sp.expand(sp.diff(g, zj))
        degs.append(sp.Poly(d, *z).total_degree() if d != 0 else -1)
    return max(degs)


@claim(
    id="thesis_ch5.layerwise.downstream_degree",
    source=SOURCE,
    label="App. B.3.7 (layer-by-layer counterexample)",
    entry="E28",
    title="End-to-end: the downstream factor d(f_L o ... o f_2)/d(z_1)_j has degree 2^{L-2} - 1 in z_1 (2^{L-1} - 2 in x)",
    lines=[(3843, 3847)],
    printed=_DOWN_PRINTED,
    mutants=[
        Mutant("degree-in-x", "the factor has degree 2^{L-2} - 1 in x (the variable of the neighbouring 'degree 1')",
               DownstreamStatement("x", lambda L: 2 ** (L - 2) - 1, "in x")),
        Mutant("no-derivative", "degree 2^{L-2} in z_1 (the derivative's -1 dropped)",
               DownstreamStatement("z1", lambda L: 2 ** (L - 2), "2^{L-2}")),
        Mutant("sigma-prime-degree-2", "sigma'(w^T x) of degree 2 (sigma' confused with sigma)",
               replace(_DOWN_PRINTED, sigma_prime_degree=2), origin="second-reader"),
        Mutant("degree-2^{L-1}-1", "downstream factor of degree 2^{L-1} - 1 in z_1 (one layer too many)",
               replace(_DOWN_PRINTED, degree=lambda L: 2 ** (L - 1) - 1), origin="second-reader"),
    ],
    parts=[
        Part("degree", "the downstream factor d(f_L o ... o f_2)/d(z_1)_j has degree 2^{L-2} - 1 (in z_1), lines 3843-3847"),
        Part("capacity", "with sigma'(w^T x) of degree 1 this gives the end-to-end gradient greater representation "
             "capacity (in polynomial degree): it is nonzero exactly up to degree 2 + 2(2^{L-2} - 1) in x"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
    params=[
        Param("L_max", int, 2, 6, doc="L = 2..L_max for the degrees (the gradient capacity uses L <= 4)"),
        Param("trials", int, 1, 40, doc="random integer networks per L"),
    ],
    tiers={"quick": {"L_max": 4, "trials": 3}, "full": {"L_max": 5, "trials": 8}},
)
def check_downstream_degree(statement: DownstreamStatement, p, ctx) -> Verdict:
    """The degree of the downstream factor in the end-to-end first-layer gradient.

    Statement
    ---------
    "In end-to-end training, the presence of downstream layers removes this barrier:
    grad_w E[-y x_i sigma'(w^T x) (d f_L o ... o f_2 / d(z_1)_j)], with sigma'(w^T x) of degree 1 and
    the downstream factor of degree 2^{L-2} - 1, giving the gradient greater representation capacity
    (in terms of polynomial degree)."

    Hypotheses
    ----------
    sigma(z) = z^2, f_L(z) = u^T z, L >= 2 (for L = 2 the factor is the constant u_j).

    Source
    ------
    Thesis (seed 004), App. B.3.7 (layer-by-layer counterexample), lines 3843-3847.

    Checkable form
    --------------
    The printed degree is read in the variable differentiated, z_1.  (a) z_1 reading: for L =
    2..L_max and ``trials`` random integer upper layers (f_2, ..., f_L, widths 1-2, r_1 = 2) the
    factor is differentiated symbolically (sympy) and its total degree in z_1, maximised over j and
    trials, must equal degree(L).  x reading: the factor evaluated at z_1 = sigma(W_1 x + b_1) on
    the whole cube (exact backpropagation, kernels.boolean.deep_mlp) for random integer networks with n =
    2^{L-1} + 1 inputs; its largest multilinear degree, maximised over trials, must equal degree(L).
    (b) Capacity: x_i sigma'(w^T x) has degree 2, so the integrand's degree in x is 2 + 2 degree(L)
    (z_1 reading; z_1 is quadratic in x) or 2 + degree(L) (x reading).  The exact end-to-end
    population gradient of the correlation loss w.r.t. (W_1, b_1), at random integer networks with
    n = 2^{L-1} + 1, must be nonzero for some S = [k] for every k <= that capacity and exactly 0 for
    every k above it (L <= 4).  Details list both readings' measured degrees.

    Exactness
    ---------
    Exact: sympy polynomials, integer tables and transforms, Fractions.  Random weights can only
    lower a degree (the bound holds for all weights by composition); generic weights attain it.

    Mutants
    -------
    degree-in-x: in x the factor has degree 2^{L-1} - 2 (2 at L = 3, not 1), and the capacity
    2 + 2^{L-2} - 1 = 3 at L = 3 contradicts the nonzero gradient at k = 4.  no-derivative: the
    symbolic degree in z_1 is one less.
    Second reader: sigma-prime-degree-2 (not expressible before the audit: the "2 +" of the capacity
    was a literal) is false since sigma(z) = z^2 has sigma' = 2z of degree 1; the capacity would be 3
    at L = 2 while the exact end-to-end gradient is nonzero only up to k = 2 (n = 3); rejected by (b).
    degree-2^{L-1}-1: the upper network of an L-layer net is an (L-1)-fold composition of squares,
    of degree 2^{L-2} in z_1, so its derivative has degree 2^{L-2} - 1; rejected by (a) at L = 2 (0 vs 1).
    """
    ev = Evidence("eq", rigor=Rigor.EXACT)
    rng = ctx.rng("networks")
    measured = {}
    for L in range(2, p["L_max"] + 1):
        dz = max(_symbolic_upper_degree(rng, L, 2) for _ in range(p["trials"]))
        dx = -1
        n = 2 ** (L - 1) + 1
        if L <= 4:
            for _ in range(p["trials"]):
                layers, u = _random_net(rng, n, L, width_min=1, width_max=2)
                D = downstream_factor(layers, u, n=n)
                dx = max(dx, max(multilinear_degree(np.asarray(row)) for row in D))
        measured[f"L={L}"] = {"degree in z_1": dz, "degree in x (multilinear, on the cube)": dx if L <= 4 else "not computed"}
        if statement.variable == "z1":
            ev.add({"part": "(a) symbolic degree in z_1", "L": L}, dz, statement.degree(L))
        elif L <= 4:
            ev.add({"part": "(a) multilinear degree in x", "L": L, "n": n}, dx, statement.degree(L))
        if L > 4:
            continue
        cap = _capacity(statement, L)
        nonzero_up_to = 0
        zero_above = True
        for k in range(1, n + 1):
            any_nz = False
            for _ in range(p["trials"]):
                layers, u = _random_net(rng, n, L, width_min=2, width_max=2)
                G, gb = first_layer_correlation_gradient(layers, u, (1 << k) - 1, n=n)
                if any(v != 0 for row in G for v in row) or any(v != 0 for v in gb):
                    any_nz = True
                    break
            if any_nz and k == nonzero_up_to + 1:
                nonzero_up_to = k
            if any_nz and k > cap:
                zero_above = False
        measured[f"L={L}"][f"largest k with a nonzero end-to-end gradient (n = {n})"] = nonzero_up_to
        ev.add({"part": "(b) end-to-end gradient nonzero exactly up to the capacity", "L": L, "n": n,
                "capacity 2 + x-degree": cap, "zero above it": zero_above}, nonzero_up_to, cap)
        if not zero_above:
            ev.add({"part": "(b) end-to-end gradient zero above the capacity", "L": L}, False, None, relation="true")
    ev.details["measured degrees of the downstream factor"] = measured
    return ev.verdict(backend="cpu")
