"""Exact 3-layer ReLU networks that interpolate given values AND Jacobians on a finite set
(seed 003, Lemma 5, lines 599-654) and the 5-layer split whose weight values lie in small sets
(Lemma 6 and Corollary 3, lines 656-693).

Construction (Lemma 5's proof, with its slips repaired and recorded):

* Delta = delta_factor * min(1, smallest gap between *distinct* values occurring in any input
  coordinate) with delta_factor = 1/10.  (The proof's minimum runs over all pairs x, x' and all i,
  which includes x = x' and gives Delta <= 0.)
* psi_v^{(gamma)} (gamma in {0, 1}): the continuous piecewise-linear bump that is 0 outside
  (v - 2 Delta, v + 2 Delta), equals 1 at v and has slope gamma on (v - Delta, v + Delta); written
  with 5 ReLUs sigma(x - zeta0), sigma(x - (v -+ 2 Delta)), sigma(x - (v -+ Delta)).  One bank of
  bumps per input coordinate i, per distinct value v of that coordinate and per gamma.
* tau_y^{(gamma)}: 0 on (-inf, d_in - 2 Delta], equal to y at d_in, slope gamma on [d_in - Delta, inf);
  3 ReLUs sigma(u - zeta0), sigma(u - (d_in - 2 Delta)), sigma(u - (d_in - Delta)).
* f_net(x)_j = sum_{x0 in X} sum_{i'} tau^{(g(x0, j, i'))}_{f(x0)_j 1[i' = 1]}( sum_i psi^{(1[i = i'])}_{(x0)_i}(x_i) )
  (equation (4) with the statement's index order g(x, out, in)).
* zeta0 = min(0, min value) - 1 lies below every knot and every bump sum, so its units are always
  active and carry coefficient 0 (footnote 10 places zeta0 below all knots; Lemma 6's proof calls it
  "sufficiently large": only the position below the knots makes the units harmless).

The five affine maps of Lemma 6: W1 (inputs -> 5-ReLU banks), W1' (banks -> bumps psi), W1+ (bumps
-> tau pre-activations), W2' (tau ReLUs -> tau), W2+ (tau -> outputs); the 3-layer net of Lemma 5
is W1, sigma, W2 = W1+ o W1', sigma, W3 = W2+ o W2'.  Unused units (up to the printed widths
d1 = 10 d_in |X| and d2 = 6 d_in d_out |X|) have zero weights, zero bias and zero outgoing weights.

Everything is exact (``fractions.Fraction``); the matrices are sparse (rows of (column, value)).
Evaluation returns the value, the Jacobian from the activation pattern and the smallest
|pre-activation| among units with a nonzero outgoing weight: a zero there means a kink at the point
(the Jacobian would not exist), which a check must treat as a failure.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .. import _checks

__all__ = ["Affine", "Interpolant", "build_interpolant", "min_distinct_gap", "weight_value_sets"]


@dataclass
class Affine:
    """y = A x + b with A stored as sparse rows [(column, value), ...] (zero values never stored)."""

    n_in: int
    rows: list
    bias: list
    _int: tuple | None = field(default=None, repr=False, compare=False)
    _used: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def n_out(self) -> int:
        return len(self.rows)

    def apply(self, v: Sequence[Fraction]) -> list[Fraction]:
        out = []
        for row, b in zip(self.rows, self.bias):
            s = b
            for k, w in row:
                s += w * v[k]
            out.append(s)
        return out

    def weights(self) -> set:
        return {w for row in self.rows for _, w in row}

    def biases(self) -> set:
        return {b for b in self.bias if b != 0}

    def values(self) -> set:
        """Distinct nonzero entries (weights and biases)."""
        return self.weights() | self.biases()

    def outgoing_nonzero(self) -> np.ndarray:
        """Mask over inputs: does input k have a nonzero weight into some output?"""
        mask = np.zeros(self.n_in, bool)
        for row in self.rows:
            for k, _ in row:
                mask[k] = True
        return mask

    def _used_mask(self) -> np.ndarray:
        """``outgoing_nonzero()``, computed once per map (read-only; the rows are not changed after construction)."""
        if self._used is None:
            mask = self.outgoing_nonzero()
            mask.setflags(write=False)
            self._used = mask
        return self._used

    def compose(self, inner: Affine) -> Affine:
        """self o inner (exact sparse product).

        Computed on the integer forms (numerators over the common denominators Da of self's weights, Dc of
        inner's weights, Db and De of the biases): entry sum_k a_k c_k / (Da Dc), bias
        (b Da De + Db sum_k a_k e_k) / (Db Da De); each becomes the same reduced Fraction as the direct
        Fraction sum, about 5x faster."""
        a_rows, Da, b_num, Db = self.integer_form()
        c_rows, Dc, e_num, De = inner.integer_form()
        Dw, Dbias = Da * Dc, Db * Da * De
        rows, bias = [], []
        for row, bn in zip(a_rows, b_num):
            acc: dict[int, int] = {}
            be = 0
            for k, a in row:
                for kk, c in c_rows[k]:
                    acc[kk] = acc.get(kk, 0) + a * c
                be += a * e_num[k]
            rows.append(sorted((kk, v) for kk, v in acc.items() if v != 0))
            bias.append(bn * Da * De + Db * be)
        return _ComposedAffine(inner.n_in, (rows, Dw, bias, Dbias))

    def integer_form(self) -> tuple:
        """(rows of (column, int numerator), weight denominator Dw, bias numerators, bias denominator Db)."""
        if self._int is None:
            Dw = 1
            for row in self.rows:
                for _, w in row:
                    Dw = Dw * w.denominator // math.gcd(Dw, w.denominator)
            Db = 1
            for b in self.bias:
                Db = Db * b.denominator // math.gcd(Db, b.denominator)
            # w * Dw is an integer: its numerator times Dw / denominator (no Fraction arithmetic)
            rows = [[(k, w.numerator * (Dw // w.denominator)) for k, w in row] for row in self.rows]
            self._int = (rows, Dw, [b.numerator * (Db // b.denominator) for b in self.bias], Db)
        return self._int

    def dense(self) -> np.ndarray:
        A = np.zeros((self.n_out, self.n_in), dtype=object)
        A[:] = Fraction(0)
        for r, row in enumerate(self.rows):
            for k, w in row:
                A[r, k] = w
        return A


class _ComposedAffine(Affine):
    """The result of ``Affine.compose``, held in integer form (numerators over the common denominators, which
    need not be the smallest: evaluate_exact's results are reduced Fractions, the same for any common
    denominator); ``rows`` and ``bias`` become Fractions on first access (evaluate_exact never needs them)."""

    def __init__(self, n_in: int, int_form: tuple):
        self.n_in = n_in
        self._int = int_form
        self._used = None
        self._rows = self._bias = None

    @property
    def rows(self) -> list:
        if self._rows is None:
            rows, Dw, _, _ = self._int
            self._rows = [[(k, Fraction(v, Dw)) for k, v in row] for row in rows]
        return self._rows

    @rows.setter
    def rows(self, value) -> None:
        self._rows = value

    @property
    def bias(self) -> list:
        if self._bias is None:
            _, _, bias, Db = self._int
            self._bias = [Fraction(b, Db) for b in bias]
        return self._bias

    @bias.setter
    def bias(self, value) -> None:
        self._bias = value

    @property
    def n_out(self) -> int:
        return len(self._int[0])

    def outgoing_nonzero(self) -> np.ndarray:
        mask = np.zeros(self.n_in, bool)
        for row in self._int[0]:  # the same columns as the Fraction rows (zero values are never stored)
            for k, _ in row:
                mask[k] = True
        return mask


def _relu(v):
    return v if v > 0 else Fraction(0)


@dataclass
class Interpolant:
    """The construction: 5 affine maps (Lemma 6 split) and the merged 3-layer net (Lemma 5)."""

    W1: Affine
    W1p: Affine
    W1plus: Affine
    W2p: Affine
    W2plus: Affine
    delta: Fraction
    zeta0: Fraction
    used: dict = field(default_factory=dict)
    _three: tuple | None = None

    def three_layer(self) -> tuple[Affine, Affine, Affine]:
        """(W1, W2 = W1+ o W1', W3 = W2+ o W2')."""
        if self._three is None:
            self._three = (self.W1, self.W1plus.compose(self.W1p), self.W2plus.compose(self.W2p))
        return self._three

    @property
    def widths(self) -> tuple[int, int]:
        return self.W1.n_out, self.W1plus.n_out

    def evaluate_exact(self, x: Sequence, *, split: bool = False) -> tuple[list[Fraction], list[list[Fraction]], Fraction | None]:
        """Same as :meth:`evaluate` with integer numerators over common denominators (about 10x faster)."""
        xs = [Fraction(v) for v in x]
        if len(xs) != self.W1.n_in:
            raise ValueError(f"argument 'x' must have length {self.W1.n_in}, not {len(xs)}")
        if split:
            layers = [(self.W1, True), (self.W1p, False), (self.W1plus, True), (self.W2p, False), (self.W2plus, False)]
        else:
            A1, W2, W3 = self.three_layer()
            layers = [(A1, True), (W2, True), (W3, False)]
        d_in = len(xs)
        Dv = 1
        for v in xs:
            Dv = Dv * v.denominator // math.gcd(Dv, v.denominator)
        vn = [int(v * Dv) for v in xs]
        # Jacobian numerators (rows of length d_in) share the denominator DJ
        Jn = [[1 if i == k else 0 for i in range(d_in)] for k in range(d_in)]
        DJ = 1
        margin = None
        for idx, (L, relu) in enumerate(layers):
            rows, Dw, bn, Db = L.integer_form()
            out = []
            Jout = []
            for row, b in zip(rows, bn):
                acc = 0
                jac = [0] * d_in
                for k, w in row:
                    acc += w * vn[k]
                    Jk = Jn[k]
                    for i in range(d_in):
                        if Jk[i]:
                            jac[i] += w * Jk[i]
                out.append(acc * Db + b * Dw * Dv)
                Jout.append(jac)
            Dv = Dw * Dv * Db
            DJ = DJ * Dw
            if relu:
                nxt = layers[idx + 1][0]
                used = nxt._used_mask()
                # the smallest |pre-activation| of a used unit: one common denominator Dv per layer, so the
                # smallest numerator gives it (one Fraction per layer instead of one per unit)
                low = None
                for k, v in enumerate(out):
                    if used[k]:
                        av = abs(v)
                        if low is None or av < low:
                            low = av
                if low is not None:
                    a = Fraction(low, Dv)
                    margin = a if margin is None or a < margin else margin
                for k, v in enumerate(out):
                    if v <= 0:
                        out[k] = 0
                        Jout[k] = [0] * d_in
            vn, Jn = out, Jout
        return [Fraction(v, Dv) for v in vn], [[Fraction(v, DJ) for v in row] for row in Jn], margin

    def evaluate(self, x: Sequence, *, split: bool = False) -> tuple[list[Fraction], list[list[Fraction]], Fraction | None]:
        """(f_net(x), Jacobian [out][in], smallest |pre-activation| of a unit with an outgoing weight).

        ``split=False`` runs the merged 3-layer net W3 sigma W2 sigma W1 of Lemma 5; ``split=True`` the
        5-layer form (the same function: W2 and W3 are exact compositions)."""
        x = [Fraction(v) for v in x]
        if len(x) != self.W1.n_in:
            raise ValueError(f"argument 'x' must have length {self.W1.n_in}, not {len(x)}")
        if split:
            A1, B2, B3 = self.W1, (self.W1p, self.W1plus), (self.W2p, self.W2plus)
        else:
            A1, W2, W3 = self.three_layer()
            B2, B3 = (W2,), (W3,)
        z1 = A1.apply(x)
        h1 = [_relu(v) for v in z1]
        # Jacobian of h1: unit k reads one coordinate with weight 1 (or none)
        J1 = []
        for k, row in enumerate(A1.rows):
            vec = [Fraction(0)] * len(x)
            if z1[k] > 0:
                for i, w in row:
                    vec[i] += w
            J1.append(vec)
        z2, J2 = h1, J1
        for L in B2:
            z2 = L.apply(z2)
            J2 = [[sum((w * J2[k][i] for k, w in row), Fraction(0)) for i in range(len(x))] for row in L.rows]
        h2 = [_relu(v) for v in z2]
        J2 = [vec if z2[u] > 0 else [Fraction(0)] * len(x) for u, vec in enumerate(J2)]
        out, Jo = h2, J2
        for L in B3:
            out = L.apply(out)
            Jo = [[sum((w * Jo[k][i] for k, w in row), Fraction(0)) for i in range(len(x))] for row in L.rows]
        # kink margin: units whose output is used downstream
        used1 = (B2[0]).outgoing_nonzero()
        used2 = (B3[0]).outgoing_nonzero()
        cand = [abs(z1[k]) for k in range(len(z1)) if used1[k]] + [abs(z2[u]) for u in range(len(z2)) if used2[u]]
        margin = min(cand) if cand else None
        return out, Jo, margin


def min_distinct_gap(values) -> Fraction | None:
    """Smallest positive difference between distinct values (None for fewer than two values)."""
    vs = sorted({Fraction(v) for v in values})
    if len(vs) < 2:
        return None
    return min(b - a for a, b in itertools.pairwise(vs))


def _psi_coeffs(gamma: Fraction, delta: Fraction) -> list[Fraction]:
    """Coefficients of sigma(x - zeta0), sigma(x - (v-2D)), sigma(x - (v-D)), sigma(x - (v+D)), sigma(x - (v+2D))."""
    s1 = (1 - gamma * delta) / delta
    s3 = -(1 + gamma * delta) / delta
    return [Fraction(0), s1, gamma - s1, s3 - gamma, -s3]


def _tau_coeffs(y: Fraction, gamma: Fraction, delta: Fraction) -> list[Fraction]:
    """Coefficients of sigma(u - zeta0), sigma(u - (d_in - 2D)), sigma(u - (d_in - D))."""
    r = (y - gamma * delta) / delta
    return [Fraction(0), r, gamma - r]


def build_interpolant(points, values, jacobians, *, delta_factor: Fraction = Fraction(1, 10),
                      widths: tuple[int, int] | None = None, indicator_first: bool = True,
                      gamma_selective: bool = True) -> Interpolant:
    """Lemma 5's network for f(points[k]) = values[k], df/dx(points[k]) = jacobians[k] ([out][in]).

    ``widths`` = (d1, d2) to pad to (default: the printed 10 d_in |X|, 6 d_in d_out |X|); a
    construction that needs more units raises ValueError.  ``indicator_first=False`` drops the
    factor 1[i' = 1] (mutant); ``gamma_selective=False`` uses gamma = 1 in every bump (mutant).
    """
    X = [tuple(Fraction(v) for v in p) for p in points]
    if not X:
        raise ValueError("argument 'points' must be non-empty")
    d_in = len(X[0])
    if d_in < 1 or any(len(p) != d_in for p in X):
        raise ValueError(f"argument 'points' must be points of one dimension >= 1, not dimensions {sorted({len(p) for p in X})}")
    if len(set(X)) != len(X):
        raise ValueError("argument 'points' must be distinct (f is a function on a set)")
    Y = [tuple(Fraction(v) for v in y) for y in values]
    if len(Y) != len(X):
        raise ValueError(f"argument 'values' must have one entry per point ({len(X)}), not {len(Y)}")
    d_out = len(Y[0])
    if d_out < 1 or any(len(y) != d_out for y in Y):
        raise ValueError("argument 'values' must be vectors of one dimension >= 1")
    G = [[[Fraction(v) for v in row] for row in J] for J in jacobians]
    if len(G) != len(X) or any(len(J) != d_out or any(len(row) != d_in for row in J) for J in G):
        raise ValueError(f"argument 'jacobians' must have shape ({len(X)}, {d_out}, {d_in})")
    delta_factor = Fraction(delta_factor)
    if not (0 < delta_factor):
        raise ValueError(f"argument 'delta_factor' must be positive, not {delta_factor}")
    n = len(X)
    if widths is None:
        widths = (10 * d_in * n, 6 * d_in * d_out * n)
    d1, d2 = (_checks.require_int("widths[0]", widths[0], min_value=1), _checks.require_int("widths[1]", widths[1], min_value=1))

    all_values = {v for p in X for v in p}
    gap = min_distinct_gap(all_values)
    delta = delta_factor * (min(Fraction(1), gap) if gap is not None else Fraction(1))
    zeta0 = min(Fraction(0), min(all_values)) - 1

    # layer 1 and the bump bank: psi index for (i, v, gamma)
    W1_rows, W1_bias, psi_index, W1p_rows = [], [], {}, []
    for i in range(d_in):
        for v in sorted({p[i] for p in X}):
            for gamma in (Fraction(0), Fraction(1)):
                base = len(W1_rows)
                for knot in (zeta0, v - 2 * delta, v - delta, v + delta, v + 2 * delta):
                    W1_rows.append([(i, Fraction(1))])
                    W1_bias.append(-knot)
                psi_index[(i, v, gamma)] = len(W1p_rows)
                W1p_rows.append([(base + k, c) for k, c in enumerate(_psi_coeffs(gamma, delta)) if c != 0])
    used1 = len(W1_rows)
    if used1 > d1:
        raise ValueError(f"the construction needs {used1} first-layer units, more than the width d1 = {d1}")
    while len(W1_rows) < d1:
        W1_rows.append([])
        W1_bias.append(Fraction(0))
    W1 = Affine(d_in, W1_rows, W1_bias)
    W1p = Affine(d1, W1p_rows, [Fraction(0)] * len(W1p_rows))

    # tau units: for each x0, output j, input i'
    Wplus_rows, Wplus_bias, W2p_rows, out_rows = [], [], [], [[] for _ in range(d_out)]
    thresholds = (zeta0, d_in - 2 * delta, d_in - delta)
    for k, x0 in enumerate(X):
        for j in range(d_out):
            for ip in range(d_in):
                psis = []
                for i in range(d_in):
                    gamma = Fraction(1) if (i == ip or not gamma_selective) else Fraction(0)
                    psis.append((psi_index[(i, x0[i], gamma)], Fraction(1)))
                base = len(Wplus_rows)
                for t in thresholds:
                    Wplus_rows.append(sorted(psis))
                    Wplus_bias.append(-t)
                y = Y[k][j] if (ip == 0 or not indicator_first) else Fraction(0)
                coeffs = _tau_coeffs(y, G[k][j][ip], delta)
                out_rows[j].append((len(W2p_rows), Fraction(1)))
                W2p_rows.append([(base + kk, c) for kk, c in enumerate(coeffs) if c != 0])
    used2 = len(Wplus_rows)
    if used2 > d2:
        raise ValueError(f"the construction needs {used2} second-layer units, more than the width d2 = {d2}")
    while len(Wplus_rows) < d2:
        Wplus_rows.append([])
        Wplus_bias.append(Fraction(0))
    W1plus = Affine(len(W1p_rows), Wplus_rows, Wplus_bias)
    W2p = Affine(d2, W2p_rows, [Fraction(0)] * len(W2p_rows))
    W2plus = Affine(len(W2p_rows), out_rows, [Fraction(0)] * d_out)
    used = {"d1": used1, "d1'": len(W1p_rows), "d2": used2, "d2'": len(W2p_rows), "d_in": d_in, "d_out": d_out, "|X|": n}
    return Interpolant(W1, W1p, W1plus, W2p, W2plus, delta, zeta0, used)


def weight_value_sets(x_values, y_values, g_values, d_in: int, *, delta_factor: Fraction = Fraction(1, 10)) -> dict:
    """The sets U(W) of Lemma 6 computed from (X_i, Y_i, G, d_in) alone (nonzero values).

    x_values: the input values X_i (Delta and zeta0 depend on them only); y_values: Y_i; g_values: G.
    """
    xs = sorted({Fraction(v) for v in x_values})
    if not xs:
        raise ValueError("argument 'x_values' must be non-empty")
    gap = min_distinct_gap(xs)
    delta = Fraction(delta_factor) * (min(Fraction(1), gap) if gap is not None else Fraction(1))
    zeta0 = min(Fraction(0), xs[0]) - 1
    U1 = {Fraction(1), -zeta0} | {-(v + s * delta) for v in xs for s in (-2, -1, 1, 2)}
    U1p = {c for gamma in (Fraction(0), Fraction(1)) for c in _psi_coeffs(gamma, delta)}
    Uplus1 = {Fraction(1), -zeta0, -(d_in - 2 * delta), -(d_in - delta)}
    ys = {Fraction(v) for v in y_values} | {Fraction(0)}
    U2p = {c for y in ys for g in g_values for c in _tau_coeffs(y, Fraction(g), delta)}
    U2plus = {Fraction(1)}
    out = {"W1": U1, "W1'": U1p, "W1+": Uplus1, "W2'": U2p, "W2+": U2plus}
    return {k: {v for v in s if v != 0} for k, s in out.items()} | {"delta": delta, "zeta0": zeta0}
