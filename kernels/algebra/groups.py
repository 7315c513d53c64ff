"""Finite groups with their real orthogonal irreducible representations.

A :class:`FiniteGroup` is a multiplication table plus data derived from it: ``mul[a, b]`` is the index
of the product ``a b`` (identity = index 0), ``inv[a]``, the conjugacy classes (identity class first),
and a list of real orthogonal representations ``irreps[n]`` of shape ``(|G|, d_n, d_n)`` with
``irreps[n][a] @ irreps[n][b] == irreps[n][mul[a, b]]`` (``irreps[0]`` is trivial).  The characters
``chi_n(C) = tr R_n(g)``, g in C, form ``character_table`` (irreps x classes).

Constructions (seed 004, App. D.8, lines 5222-5291, background for Thm 7.9):

* symmetric groups S_n (n <= 6): Young's orthogonal form on standard Young tableaux.  The adjacent
  transposition s_i = (i, i+1) acts on the tableau T by +1 (i, i+1 in one row), -1 (one column), else by
  the 2x2 block [[1/r, sqrt(1-1/r^2)], [sqrt(1-1/r^2), -1/r]] on (T, s_i T), r = content(i+1) - content(i),
  content = column - row.  Other permutations follow by breadth-first search over the Cayley graph
  (R(s g) = R(s) R(g)).
* dihedral groups D_n (order 2n): r^k s^e with R_j = Rot(2 pi j k / n) diag(1, -1)^e, j = 1..floor((n-1)/2),
  and the 2 (odd n) or 4 (even n) one-dimensional representations.
* Z_2^k: characters (-1)^{popcount(S & g)}.
* direct products: Kronecker products of the factors' irreps.
* alternating groups A_n (4 <= n <= 6): restrictions of the S_n irreps, split by the eigenspaces of a
  symmetric element of their commutant (a seeded random symmetric X averaged over the group), then
  deduplicated by character.  A restricted representation whose commutant is C (complex pair, as in A4)
  does not split: it is kept and flagged by the Frobenius-Schur test.
* the cyclic group Z_p with its 2-dim real rotation representations (``cyclic_group_real``): real
  irreducible but NOT absolutely irreducible for p >= 3; used as the counterexample of the "real irreps"
  hypothesis (``absolutely_irreducible`` is False there).

``absolutely_irreducible(G)`` tests each representation with <chi, chi> = 1 and the Frobenius-Schur
indicator (1/|G|) sum_g chi(g^2) = +1, the hypothesis "G with real irreducible representations" of
Thm 7.9 (catalog pitfall 9).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from .._checks import require_int

__all__ = [
    "GROUP_NAMES",
    "FiniteGroup",
    "absolutely_irreducible",
    "alternating_group",
    "cyclic_group_real",
    "dihedral_group",
    "direct_product",
    "elementary_abelian_2",
    "group_by_name",
    "standard_young_tableaux",
    "symmetric_group",
    "young_orthogonal_generators",
]

MAX_SYMMETRIC = 6
MAX_DIHEDRAL = 200
MAX_Z2K = 9
MAX_ORDER = 2000


@dataclass(frozen=True)
class FiniteGroup:
    """A finite group by its multiplication table, with real orthogonal representations."""

    name: str
    mul: np.ndarray  # (n, n) int64, mul[a, b] = index of a b
    irreps: tuple  # of (n, d, d) float64 arrays; irreps[0] trivial
    labels: tuple = ()  # a label per irrep
    inv: np.ndarray = field(init=False)
    classes: tuple = field(init=False)  # tuple of int arrays, identity class first
    class_of: np.ndarray = field(init=False)

    def __post_init__(self):
        mul = self.mul
        n = mul.shape[0]
        inv = np.empty(n, dtype=np.int64)
        if not np.array_equal(mul[0], np.arange(n)) or not np.array_equal(mul[:, 0], np.arange(n)):
            raise ValueError(f"argument 'mul' must have the identity at index 0 (group {self.name!r})")
        rows, cols = np.nonzero(mul == 0)
        inv[rows] = cols
        conj = mul[mul[np.arange(n)[:, None], np.arange(n)[None, :]], inv[:, None]]  # conj[g, a] = g a g^-1
        class_of = -np.ones(n, dtype=np.int64)
        classes = []
        for a in range(n):
            if class_of[a] < 0:
                members = np.unique(conj[:, a])
                class_of[members] = len(classes)
                classes.append(members)
        object.__setattr__(self, "inv", inv)
        object.__setattr__(self, "classes", tuple(classes))
        object.__setattr__(self, "class_of", class_of)
        if not self.labels:
            object.__setattr__(self, "labels", tuple(f"R{i + 1}" for i in range(len(self.irreps))))

    @property
    def order(self) -> int:
        return int(self.mul.shape[0])

    @property
    def dims(self) -> list[int]:
        return [int(R.shape[1]) for R in self.irreps]

    @property
    def class_sizes(self) -> np.ndarray:
        return np.array([len(c) for c in self.classes], dtype=np.int64)

    def characters(self) -> np.ndarray:
        """chi[n, g] = tr R_n(g), shape (K_irreps, |G|)."""
        return np.stack([np.trace(R, axis1=1, axis2=2) for R in self.irreps])

    @property
    def character_table(self) -> np.ndarray:
        """chi_n(C) with rows = irreps, columns = conjugacy classes (identity class first)."""
        chi = self.characters()
        return chi[:, [int(c[0]) for c in self.classes]]

    def basis(self) -> np.ndarray:
        """The |G| basis vectors rho_(n,i,j)(g) = R_n(g)_ij as rows, shape (sum d^2, |G|)."""
        return np.concatenate([R.reshape(self.order, -1).T for R in self.irreps], axis=0)

    def basis_owner(self) -> np.ndarray:
        """Index of the irrep each row of :meth:`basis` belongs to."""
        return np.concatenate([np.full(d * d, n) for n, d in enumerate(self.dims)])


def _check_order(n: int, name: str) -> None:
    if n > MAX_ORDER:
        raise ValueError(f"group {name!r} has order {n}, above the supported maximum {MAX_ORDER}")


# ------------------------------------------------------------------------------------------------
# permutation groups
# ------------------------------------------------------------------------------------------------


def _perm_table(perms: np.ndarray) -> np.ndarray:
    """Multiplication table of a list of permutations (rows), (a b)(i) = a(b(i))."""
    n_el, deg = perms.shape
    weights = deg ** np.arange(deg, dtype=np.int64)
    codes = perms @ weights
    order = np.argsort(codes)
    comp = np.take_along_axis(np.broadcast_to(perms[:, None, :], (n_el, n_el, deg)),
                              np.broadcast_to(perms[None, :, :], (n_el, n_el, deg)), axis=2)  # comp[a, b] = a o b
    mul = order[np.searchsorted(codes, comp @ weights, sorter=order)]
    return mul


def partitions(n: int):
    """Integer partitions of n in decreasing lexicographic order."""
    def rec(rem, mx):
        if rem == 0:
            yield ()
            return
        for k in range(min(rem, mx), 0, -1):
            for rest in rec(rem - k, k):
                yield (k,) + rest
    return list(rec(n, n))


def standard_young_tableaux(shape: tuple[int, ...]) -> list[tuple[tuple[int, int], ...]]:
    """Standard Young tableaux of a partition: tuple pos[v] = (row, col) of the value v = 0..n-1."""
    n = sum(shape)
    out = []

    def rec(filled: list[int], pos: list[tuple[int, int]]):
        v = len(pos)
        if v == n:
            out.append(tuple(pos))
            return
        for r, length in enumerate(shape):
            c = filled[r]
            if c < length and (r == 0 or filled[r - 1] > c):
                filled[r] += 1
                pos.append((r, c))
                rec(filled, pos)
                pos.pop()
                filled[r] -= 1

    rec([0] * len(shape), [])
    return out


def young_orthogonal_generators(shape: tuple[int, ...]) -> list[np.ndarray]:
    """Matrices of s_i = (i, i+1), i = 0..n-2, in Young's orthogonal form for the partition ``shape``."""
    tabs = standard_young_tableaux(shape)
    index = {t: j for j, t in enumerate(tabs)}
    d = len(tabs)
    n = sum(shape)
    gens = []
    for i in range(n - 1):
        M = np.zeros((d, d))
        for j, t in enumerate(tabs):
            (r1, c1), (r2, c2) = t[i], t[i + 1]
            if r1 == r2:
                M[j, j] = 1.0
            elif c1 == c2:
                M[j, j] = -1.0
            else:
                r = (c2 - r2) - (c1 - r1)
                sw = list(t)
                sw[i], sw[i + 1] = sw[i + 1], sw[i]
                k = index[tuple(sw)]
                M[j, j] = 1.0 / r
                M[k, j] = np.sqrt(1.0 - 1.0 / r**2)
        gens.append(M)
    return gens


def _bfs_representations(deg: int, gen_perms: list[np.ndarray], gen_mats: list[list[np.ndarray]]):
    """Elements reachable from the identity by left multiplication with generators, and the matrices
    of every representation (R(s g) = R(s) R(g)); identity first."""
    ident = tuple(range(deg))
    elems = {ident: 0}
    order = [np.array(ident)]
    mats = [[np.eye(gm[0].shape[0])] for gm in gen_mats]
    queue = deque([0])
    while queue:
        g = queue.popleft()
        pg = order[g]
        for s, ps in enumerate(gen_perms):
            h = tuple(ps[pg])
            if h not in elems:
                elems[h] = len(order)
                order.append(np.array(h))
                for r, gm in enumerate(gen_mats):
                    mats[r].append(gm[s] @ mats[r][g])
                queue.append(elems[h])
    return np.array(order), [np.array(m) for m in mats]


def symmetric_group(n: int) -> FiniteGroup:
    """S_n (1 <= n <= 6) with its irreps in Young's orthogonal form, one per partition of n."""
    n = require_int("n", n, min_value=1, max_value=MAX_SYMMETRIC)
    shapes = partitions(n)
    gen_perms = []
    for i in range(n - 1):
        p = np.arange(n)
        p[i], p[i + 1] = p[i + 1], p[i]
        gen_perms.append(p)
    if n == 1:
        return FiniteGroup("S1", np.zeros((1, 1), dtype=np.int64), (np.ones((1, 1, 1)),), ("(1)",))
    gen_mats = [young_orthogonal_generators(s) for s in shapes]
    perms, mats = _bfs_representations(n, gen_perms, gen_mats)
    return _finish_perm_group(f"S{n}", perms, mats, [str(s) for s in shapes])


def _finish_perm_group(name, perms, mats, labels):
    mul = _perm_table(perms)
    G = FiniteGroup(name, mul, tuple(mats), tuple(labels))
    object.__setattr__(G, "perms", perms)
    return G


def alternating_group(n: int) -> FiniteGroup:
    """A_n (4 <= n <= 6): restrictions of the S_n irreps, split via the commutant, deduplicated."""
    n = require_int("n", n, min_value=4, max_value=MAX_SYMMETRIC)
    S = symmetric_group(n)
    perms = S.perms
    sign = S.irreps[-1][:, 0, 0]  # the partition (1^n) is last: the sign representation
    even = np.nonzero(sign > 0)[0]
    rng = np.random.default_rng(12345)
    reps, labels = [], []
    for R, lab in zip(S.irreps, S.labels):
        Rr = R[even]
        d = Rr.shape[1]
        X = rng.standard_normal((d, d))
        X = X + X.T
        M = np.einsum("gij,jk,glk->il", Rr, X, Rr) / len(even)
        w, Q = np.linalg.eigh((M + M.T) / 2)
        groups, start = [], 0
        for i in range(1, d + 1):
            if i == d or abs(w[i] - w[start]) > 1e-8 * max(1.0, abs(w).max()):
                groups.append((start, i))
                start = i
        for a, b in groups:
            Qs = Q[:, a:b]
            reps.append(np.einsum("ji,gjk,kl->gil", Qs, Rr, Qs))
            labels.append(lab if len(groups) == 1 else f"{lab}/{a}")
    # deduplicate by character
    chars, keep = [], []
    for i, R in enumerate(reps):
        ch = np.trace(R, axis1=1, axis2=2)
        if not any(np.allclose(ch, c, atol=1e-9) for c in chars):
            chars.append(ch)
            keep.append(i)
    order = sorted(keep, key=lambda i: (reps[i].shape[1], labels[i]))
    return _finish_perm_group(f"A{n}", perms[even], [reps[i] for i in order], [labels[i] for i in order])


# ------------------------------------------------------------------------------------------------
# dihedral, Z_2^k, cyclic, products
# ------------------------------------------------------------------------------------------------


def dihedral_group(n: int) -> FiniteGroup:
    """D_n of order 2n, element r^k s^e at index k + n e, (r^k s^e)(r^l s^f) = r^{k + (-1)^e l} s^{e+f}."""
    n = require_int("n", n, min_value=3, max_value=MAX_DIHEDRAL)
    k = np.arange(2 * n) % n
    e = np.arange(2 * n) // n
    kk = (k[:, None] + np.where(e[:, None] == 1, -k[None, :], k[None, :])) % n
    ee = (e[:, None] + e[None, :]) % 2
    mul = (kk + n * ee).astype(np.int64)
    irreps = [np.ones((2 * n, 1, 1)), ((-1.0) ** e).reshape(-1, 1, 1)]
    labels = ["trivial", "s->-1"]
    if n % 2 == 0:
        irreps += [((-1.0) ** k).reshape(-1, 1, 1), ((-1.0) ** (k + e)).reshape(-1, 1, 1)]
        labels += ["r->-1", "r,s->-1"]
    for j in range(1, (n - 1) // 2 + 1):
        t = 2 * np.pi * j * k / n
        c, s = np.cos(t), np.sin(t)
        rot = np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2)
        F = np.where(e[:, None, None] == 1, np.diag([1.0, -1.0])[None], np.eye(2)[None])
        irreps.append(rot @ F)
        labels.append(f"rot{j}")
    return FiniteGroup(f"D{n}", mul, tuple(irreps), tuple(labels))


def elementary_abelian_2(k: int) -> FiniteGroup:
    """Z_2^k (1 <= k <= 9), group law xor, irreps (-1)^{popcount(S & g)}."""
    k = require_int("k", k, min_value=1, max_value=MAX_Z2K)
    g = np.arange(2**k)
    mul = (g[:, None] ^ g[None, :]).astype(np.int64)
    pc = np.vectorize(lambda x: int(x).bit_count())
    irreps = tuple(((-1.0) ** pc(S & g)).reshape(-1, 1, 1) for S in range(2**k))
    return FiniteGroup("Z2" if k == 1 else f"Z2^{k}", mul, irreps, tuple(f"chi{S}" for S in range(2**k)))


def cyclic_group_real(p: int) -> FiniteGroup:
    """Z_p with its REAL irreducible representations: trivial, (p even) x -> (-1)^x, and the 2-dim
    rotations by 2 pi j x / p (j = 1..ceil(p/2)-1), which are not absolutely irreducible."""
    p = require_int("p", p, min_value=2, max_value=MAX_ORDER)
    x = np.arange(p)
    mul = ((x[:, None] + x[None, :]) % p).astype(np.int64)
    irreps, labels = [np.ones((p, 1, 1))], ["trivial"]
    if p % 2 == 0:
        irreps.append(((-1.0) ** x).reshape(-1, 1, 1))
        labels.append("nyquist")
    for j in range(1, (p - 1) // 2 + 1):
        t = 2 * np.pi * j * x / p
        c, s = np.cos(t), np.sin(t)
        irreps.append(np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2))
        labels.append(f"rot{j}")
    return FiniteGroup(f"Z{p}", mul, tuple(irreps), tuple(labels))


def direct_product(G: FiniteGroup, H: FiniteGroup) -> FiniteGroup:
    """G x H, element (g, h) at index g |H| + h, irreps R (x) S (Kronecker products)."""
    n, m = G.order, H.order
    _check_order(n * m, f"{G.name}x{H.name}")
    mul = (G.mul[:, None, :, None] * m + H.mul[None, :, None, :]).reshape(n * m, n * m)
    irreps, labels = [], []
    for R, a in zip(G.irreps, G.labels):
        for S, b in zip(H.irreps, H.labels):
            K = np.einsum("gij,hkl->ghikjl", R, S)
            dr, ds = R.shape[1], S.shape[1]
            irreps.append(K.reshape(n * m, dr * ds, dr * ds))
            labels.append(f"{a}x{b}")
    return FiniteGroup(f"{G.name}x{H.name}", mul.astype(np.int64), tuple(irreps), tuple(labels))


GROUP_NAMES = ("S3", "S4", "S5", "S6", "A4", "A5", "A6", "D3..D200", "Z2^k", "Z2", "Zp (real)", "GxH")


def group_by_name(name: str) -> FiniteGroup:
    """'S3'..'S6', 'A4'..'A6', 'D<n>', 'Z2', 'Z2^<k>', 'Z<p>' (real rotation irreps), 'G x H' / 'GxH'."""
    if not isinstance(name, str):
        raise ValueError(f"argument 'name' must be a group name string, not {name!r}")  # noqa: TRY004
    text = name.replace(" ", "")
    if "x" in text:
        parts = text.split("x")
        G = group_by_name(parts[0])
        for part in parts[1:]:
            G = direct_product(G, group_by_name(part))
        return G
    try:
        if text.startswith("S") and text[1:].isdigit():
            return symmetric_group(int(text[1:]))
        if text.startswith("A") and text[1:].isdigit():
            return alternating_group(int(text[1:]))
        if text.startswith("D") and text[1:].isdigit():
            return dihedral_group(int(text[1:]))
        if text == "Z2":
            return elementary_abelian_2(1)
        if text.startswith("Z2^") and text[3:].isdigit():
            return elementary_abelian_2(int(text[3:]))
        if text.startswith("Z") and text[1:].isdigit():
            return cyclic_group_real(int(text[1:]))
    except ValueError as exc:
        raise ValueError(f"argument 'name' = {name!r}: {exc}") from None
    raise ValueError(f"argument 'name' must be one of {', '.join(GROUP_NAMES)}, not {name!r} (unknown group)")


def absolutely_irreducible(G: FiniteGroup) -> np.ndarray:
    """Per representation: <chi, chi> = 1 and Frobenius-Schur indicator (1/|G|) sum_g chi(g^2) = +1."""
    chi = G.characters()
    norm = (chi * chi).sum(axis=1) / G.order
    sq = G.mul[np.arange(G.order), np.arange(G.order)]
    fs = chi[:, sq].sum(axis=1) / G.order
    return (np.abs(norm - 1) < 1e-9) & (np.abs(fs - 1) < 1e-9)
