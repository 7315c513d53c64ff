"""Audit of the claim registry itself (models: hypothesis ``_check_exports``, scipy ``test_distr_params_lists``)."""

from __future__ import annotations

import re

import pytest

from verify.catalogs import ENTRIES, HANDLED
from verify.registry import DOC_SECTIONS, TIERS, Kind, Rigor, Status, all_claims

CLAIMS = all_claims()
IDS = [c.id for c in CLAIMS]


def test_ids_are_unique_and_well_formed():
    assert len(IDS) == len(set(IDS))
    for cid in IDS:
        assert re.fullmatch(r"[a-z0-9_]+\.[A-Za-z0-9_.\-]+", cid), cid


@pytest.mark.parametrize("c", CLAIMS, ids=IDS)
def test_claim_declares_its_contract(c):
    assert c.id.startswith(c.source + "."), f"{c.id}: id must start with its source '{c.source}.'"
    assert c.label and c.title and c.entry, f"{c.id}: label, title and catalog entry are required"
    assert c.lines and all(0 < a <= b for a, b in c.lines), f"{c.id}: seed line ranges are required"
    assert len(c.mutants) >= 1, f"{c.id}: at least one mutant is required"
    assert len({m.name for m in c.mutants}) == len(c.mutants), f"{c.id}: mutant names must be unique"
    assert isinstance(c.rigor, Rigor) and isinstance(c.expect, Status) and isinstance(c.kind, Kind)
    if c.expect is Status.ERRATUM:
        assert c.corrected is not None, f"{c.id}: an erratum needs a corrected statement"
    if c.expect is Status.MECHANISM:
        assert c.kind is Kind.MECHANISM, f"{c.id}: status mechanism needs kind mechanism"
    if c.kind is Kind.EMPIRICAL:
        assert c.expect in (Status.REPRODUCED, Status.NOT_REPRODUCED)
    for t in TIERS:
        c.resolve_params(t)  # every tier resolves to valid parameters


@pytest.mark.parametrize("c", CLAIMS, ids=IDS)
def test_docstring_has_the_fixed_sections(c):
    missing = [s for s in DOC_SECTIONS if not c.section(s)]
    assert not missing, f"{c.id}: docstring lacks sections {missing}"
    src = c.section("Source")
    assert c.label.split(" (")[0].split(",")[0] in src or c.label in src, f"{c.id}: Source section must cite '{c.label}'"
    assert re.search(r"lines? \d+", src), f"{c.id}: Source section must give seed line numbers"


@pytest.mark.parametrize("source", sorted(HANDLED))
def test_every_handled_catalog_entry_is_registered(source):
    registered = {c.entry for c in CLAIMS if c.source == source}
    missing = [e for e in HANDLED[source] if e not in registered]
    assert not missing, f"{source}: catalog entries without a registered claim: {missing}"
    unknown = sorted(registered - set(ENTRIES[source]))
    assert not unknown, f"{source}: claims cite entries that are not in the catalog: {unknown}"
