"""The verdict contract, statically (what a claim declares): statuses, severity, parts, hypothesis
validators, near-boundary mutants.  The run-time half (every erratum witness passes its validator,
every inequality part records a sharpness, a proof-gap's proof step fails) is in verify/test_claims.py.

Sources listed in ``verify.catalogs.AUDITED`` have been audited under the contract and must meet all of
it; the other sources still carry their pre-contract declarations (``parts`` is None) until their
re-audit, and the report says so.
"""

from __future__ import annotations

import math

import pytest

from verify.catalogs import AUDITED, is_audited
from verify.registry import CORRECTION_SECTION, Evidence, Kind, Part, Rigor, Severity, Status, all_claims, derive_status

CLAIMS = all_claims()
AUDITED_CLAIMS = [c for c in CLAIMS if is_audited(c)]
IDS = [c.id for c in AUDITED_CLAIMS]


def test_every_claim_is_under_the_audited_contract():
    """Every source has been re-audited, so every claim must count as audited: a module split that forgets a
    module-level ``CONTRACT_AUDITED = True`` (as happened once) would silently take its claims out of these
    tests and out of the report's audited status."""
    missing = sorted(c.id for c in CLAIMS if not is_audited(c))
    assert not missing, f"claims outside the audited contract (module without CONTRACT_AUDITED?): {missing}"


def test_audited_sources_are_known():
    sources = {c.source for c in CLAIMS}
    assert AUDITED <= sources, f"AUDITED names unknown sources: {sorted(AUDITED - sources)}"


@pytest.mark.parametrize("c", CLAIMS, ids=[c.id for c in CLAIMS])
def test_severity_only_on_errata_and_proof_gaps(c):
    if c.severity is not None:
        assert c.expect in (Status.ERRATUM, Status.PROOF_GAP, Status.REFUTED), (
            f"{c.id}: severity {c.severity.value} on a claim expected {c.expect.value}")
    if c.proof_step is not None:
        assert c.kind is not Kind.EMPIRICAL, f"{c.id}: an empirical finding has no proof step"


@pytest.mark.parametrize("c", AUDITED_CLAIMS, ids=IDS)
def test_audited_claim_declares_parts_severity_and_mutants(c):
    assert c.parts is not None and len(c.parts) >= 1, f"{c.id}: an audited claim declares its statement parts"
    if c.expect is Status.CONFIRMED:
        assert not c.unchecked_parts, f"{c.id}: confirmed, yet parts are unchecked: {[q.name for q in c.unchecked_parts]}"
    if c.expect is Status.PARTLY_CONFIRMED:
        assert c.unchecked_parts, f"{c.id}: partly-confirmed needs at least one unchecked part"
    assert any(q.asserted for q in c.parts) or c.expect in (Status.MECHANISM,), f"{c.id}: no part is asserted"
    if c.expect in (Status.ERRATUM, Status.PROOF_GAP, Status.REFUTED):
        assert isinstance(c.severity, Severity), f"{c.id}: an {c.expect.value} needs a severity"
        assert c.section(CORRECTION_SECTION), f"{c.id}: docstring needs a '{CORRECTION_SECTION}' section (the corrected statement in words)"
    if c.expect is Status.ERRATUM:
        assert c.hypotheses is not None, f"{c.id}: an erratum needs a hypothesis validator"
    if c.expect is Status.PROOF_GAP:
        assert c.proof_step is not None, f"{c.id}: a proof-gap declares the proof step it checks (proof_step=...)"
    part_names = {q.name for q in c.parts}
    for m in c.mutants:
        if m.part is not None:
            assert m.part in part_names, f"{c.id}: mutant {m.name} names unknown part {m.part!r}"
        assert m.origin in ("author", "second-reader"), f"{c.id}: mutant {m.name} origin {m.origin!r}"
    for q in c.parts:
        if q.asserted and q.inequality:
            near = [m for m in c.mutants if m.near_boundary and m.part == q.name]
            assert near, f"{c.id}: inequality part {q.name!r} needs a near-boundary mutant (Mutant(..., near_boundary=True, part={q.name!r}))"


# --- the machinery itself ------------------------------------------------------------------------


def test_part_requires_reason_when_unchecked():
    with pytest.raises(ValueError, match="reason"):
        Part("upper", "f <= g", asserted=False)
    assert Part("upper", "f <= g", asserted=False, reason="needs n ~ 1e6").reason


def test_evidence_records_sharpness_per_part():
    ev = Evidence("le", rigor=Rigor.FLOAT)
    ev.add({"n": 1}, 1.0, 4.0)
    ev.add({"n": 2}, 3.0, 4.0)
    ev.add({"n": 3}, 0.5, 1.0, relation="ge", part="lower")  # rhs/lhs = 2: a violated lower bound
    ev.add({"n": 4}, 1.0, -1.0)  # non-positive rhs: no ratio
    ev.add({"n": 5}, 5.0, 5.0, relation="eq")  # identity sub-check: no sharpness
    v = ev.verdict()
    assert v.sharpness_parts["statement"]["ratio"] == 0.75
    assert v.sharpness_parts["statement"]["case"] == {"n": 2}
    assert v.sharpness_parts["lower"]["ratio"] == 2.0
    assert v.sharpness == 2.0 and v.sharpness_case["part"] == "lower"
    ev2 = Evidence("eq", rigor=Rigor.EXACT)
    ev2.add({"n": 1}, 1, 1)
    assert ev2.verdict().sharpness is None


def test_evidence_explicit_sharpness_and_extend():
    a = Evidence("le", rigor=Rigor.FLOAT)
    a.add({"x": 0}, 1.0, 2.0, part="upper")
    b = Evidence("le", rigor=Rigor.FLOAT)
    b.sharpness({"x": 0.3, "search": "L-BFGS-B"}, 0.9, part="upper")
    b.sharpness({"x": 0.1}, float("nan"), part="upper")  # ignored
    b.add({"x": 1}, 1.0, 10.0)
    a.extend(b)
    v = a.verdict()
    assert math.isclose(v.sharpness_parts["upper"]["ratio"], 0.9)
    assert v.sharpness_parts["upper"]["case"]["search"] == "L-BFGS-B"


@pytest.mark.parametrize("big", [7, 2**53 + 1, 2**210 + 3])
def test_evidence_integer_margins_equal_their_fraction_form(big):
    """Two integers (Python or numpy) are compared by subtracting ints; the verdict, its slack and the recorded
    cases must be exactly those of the same sides given as Fractions (which go through Fraction arithmetic)."""
    import numpy as np
    from fractions import Fraction

    def verdict(wrap, rel):
        ev = Evidence(rel, rigor=Rigor.EXACT)
        ev.add({"i": 0}, wrap(big), wrap(big + 5))  # holds for le (margin 5), fails for eq and ge
        ev.add({"i": 1}, wrap(-big), wrap(3), relation="le")
        ev.add({"i": 2}, wrap(2), wrap(2), relation="eq")
        return ev.verdict()

    def margins(v):
        return [None if rec is None else rec["margin"] for rec in (v.tightest, v.witness)]

    for rel in ("le", "lt", "ge", "gt", "eq"):
        want = verdict(Fraction, rel)
        got = verdict(int, rel)  # Python ints: the whole verdict, sides and margins rendered alike
        assert (got.holds, got.failures, got.slack, got.tightest, got.witness, got.sharpness_parts) == (
            want.holds, want.failures, want.slack, want.tightest, want.witness, want.sharpness_parts)
        if big < 2**62:  # numpy integers (their sides render as JSON ints): the same outcome and margins
            got = verdict(np.int64, rel)
            assert (got.holds, got.failures, got.slack, margins(got), got.sharpness_parts) == (
                want.holds, want.failures, want.slack, margins(want), want.sharpness_parts)
    v = verdict(int, "le")
    assert v.holds and v.slack == 5.0
    assert not verdict(int, "ge").holds and verdict(int, "ge").witness["margin"] == -5
    mixed = Evidence("le", rigor=Rigor.EXACT)
    mixed.add({"i": 0}, Fraction(1, 3), 1)  # a Fraction and an int: Fraction arithmetic
    assert mixed.verdict().tightest["margin"] == "2/3"


def _v(holds: bool):
    ev = Evidence("le", rigor=Rigor.EXACT)
    ev.add({"i": 0}, 0 if holds else 2, 1)
    return ev.verdict()


def test_status_derivation():
    parts_all = (Part("a", "x <= 1"),)
    parts_some = (Part("a", "x <= 1"), Part("b", "y <= 1", asserted=False, reason="not computable"))
    T, M, E = Kind.THEOREM, Kind.MECHANISM, Kind.EMPIRICAL
    assert derive_status(T, _v(True), None, None, parts_all) is Status.CONFIRMED
    assert derive_status(T, _v(True), None, None, None) is Status.CONFIRMED
    assert derive_status(T, _v(True), None, None, parts_some) is Status.PARTLY_CONFIRMED
    assert derive_status(T, _v(True), _v(True), _v(False), parts_all) is Status.PROOF_GAP
    assert derive_status(T, _v(True), None, _v(True), parts_all) is Status.CONFIRMED
    assert derive_status(T, _v(False), _v(True), None, parts_all) is Status.ERRATUM
    assert derive_status(T, _v(False), _v(False), None, parts_all) is Status.REFUTED
    assert derive_status(T, _v(False), None, _v(False), parts_all) is Status.REFUTED
    assert derive_status(M, _v(True), None, None, parts_some) is Status.MECHANISM
    assert derive_status(E, _v(False), None, None, parts_all) is Status.NOT_REPRODUCED
