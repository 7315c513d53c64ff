"""Finite groups and their real orthogonal irreps (kernels.algebra.groups): representation axioms as property
tests on random groups from the supported families, and input validation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels.algebra.groups import (
    absolutely_irreducible,
    alternating_group,
    cyclic_group_real,
    dihedral_group,
    direct_product,
    elementary_abelian_2,
    group_by_name,
    standard_young_tableaux,
    symmetric_group,
)

NAMES = ["S3", "S4", "S5", "D3", "D4", "D7", "D10", "Z2", "Z2^3", "A5", "S3xZ2", "D4xZ2"]
group_names = st.sampled_from(NAMES)


def _check_axioms(G):
    n = G.order
    assert G.mul.shape == (n, n)
    assert all(sorted(row) == list(range(n)) for row in G.mul.tolist())  # Latin square
    a, b, c = np.meshgrid(np.arange(n), np.arange(n), np.arange(n), indexing="ij")
    assert np.array_equal(G.mul[G.mul[a, b], c], G.mul[a, G.mul[b, c]])  # associativity
    for R in G.irreps:
        assert np.abs(R[:, None] @ R[None, :] - R[G.mul]).max() < 1e-10
        assert np.abs(np.einsum("gji,gjk->gik", R, R) - np.eye(R.shape[1])).max() < 1e-10
    assert sum(d * d for d in G.dims) == n
    assert len(G.irreps) == len(G.classes)
    chi = G.characters()
    assert np.abs(chi @ chi.T / n - np.eye(len(chi))).max() < 1e-10
    assert absolutely_irreducible(G).all()


@given(group_names)
def test_representation_axioms(name):
    _check_axioms(group_by_name(name))


@given(group_names, st.integers(0, 2**32 - 1))
def test_schur_orthogonality_is_basis_free(name, seed):
    G = group_by_name(name)
    rng = np.random.default_rng(seed)
    for R in G.irreps:
        d = R.shape[1]
        Q = np.linalg.qr(rng.standard_normal((d, d)))[0]
        Rq = np.einsum("ji,gjk,kl->gil", Q, R, Q)
        gram = np.einsum("gij,gkl->ijkl", Rq, Rq).reshape(d * d, d * d)
        assert np.abs(gram - G.order / d * np.eye(d * d)).max() < 1e-9
        for C in G.classes:
            S = Rq[C].sum(axis=0)
            assert np.abs(S - S[0, 0] * np.eye(d)).max() < 1e-9


@pytest.mark.parametrize("n, dims", [(3, [1, 1, 2]), (4, [1, 1, 2, 3, 3]), (5, [1, 1, 4, 4, 5, 5, 6]), (6, None)])
def test_symmetric_group_dimensions(n, dims):
    G = symmetric_group(n)
    if dims is not None:
        assert sorted(G.dims) == dims
    assert G.order == [1, 1, 2, 6, 24, 120, 720][n]


def test_young_tableaux_counts():
    # hook length formula: f^(3,2) = 5, f^(2,2,1) = 5, f^(4,1) = 4
    assert len(standard_young_tableaux((3, 2))) == 5
    assert len(standard_young_tableaux((2, 2, 1))) == 5
    assert len(standard_young_tableaux((4, 1))) == 4


def test_s5_character_table_matches_known_values():
    G = symmetric_group(5)
    tab = G.character_table
    # the standard representation (4, 1): chi = #fixed points - 1
    row = next(i for i, lab in enumerate(G.labels) if lab == "(4, 1)")
    fixed = np.array([int((G.perms[int(C[0])] == np.arange(5)).sum()) for C in G.classes])
    assert np.allclose(tab[row], fixed - 1)


def test_alternating_and_cyclic_flags():
    assert sorted(alternating_group(5).dims) == [1, 3, 3, 4, 5]
    assert not absolutely_irreducible(alternating_group(4)).all()  # complex pair of A4
    assert not absolutely_irreducible(cyclic_group_real(5)).all()  # rotations of Z_5
    assert absolutely_irreducible(cyclic_group_real(2)).all()


def test_products_and_dihedral():
    G = direct_product(dihedral_group(3), elementary_abelian_2(1))
    assert G.order == 12 and sorted(G.dims) == [1, 1, 1, 1, 2, 2]
    assert sorted(dihedral_group(6).dims) == [1, 1, 1, 1, 2, 2]


@pytest.mark.parametrize("call, arg", [
    (symmetric_group, 7), (symmetric_group, 0), (dihedral_group, 2), (elementary_abelian_2, 10),
    (alternating_group, 3), (group_by_name, "Q8"), (group_by_name, "S9"), (group_by_name, 5),
])
def test_validation(call, arg):
    with pytest.raises(ValueError, match="argument"):
        call(arg)
