"""``pytest verify/``: every registered claim re-derives its recorded verdict on this machine.

For each claim (at the tier in VERIFY_TIER, default ``quick``): the computed status equals the expected
one; every mutant is rejected; an erratum's printed statement fails with a witness and its corrected
statement holds.  Each claim is run once per process and the tests share the result (the
``claim_result`` fixture of conftest.py); under pytest-xdist
(``-n auto``, pyproject.toml) the tests of one claim are one work unit (``pytest_xdist_make_scheduler`` in
conftest.py), so that each claim is computed once, and the claims come longest first (their recorded
full-tier seconds, verify/costs.py), which shortens the parallel run.
"""

from __future__ import annotations

import json
import os

import pytest

from verify.catalogs import is_audited
from verify.costs import expected_seconds
from verify.registry import Status, all_claims, to_jsonable

TIER = os.environ.get("VERIFY_TIER", "quick")
CLAIMS = sorted(all_claims(), key=lambda c: -expected_seconds(c.id, c.resolve_params(TIER)))
def _show(obj) -> str:
    return json.dumps(to_jsonable(obj), indent=1)[:3000]


@pytest.mark.parametrize("c", CLAIMS, ids=[c.id for c in CLAIMS])
def test_verdict_matches_expected(c, claim_result):
    r = claim_result(c)
    assert r.status == c.expect, (
        f"{c.id}: computed status {r.status.value}, expected {c.expect.value}\n"
        f"printed: {r.printed.summary()}\nwitness: {_show(r.printed.witness)}\n"
        + (f"corrected: {r.corrected.summary()}\ncorrected witness: {_show(r.corrected.witness)}" if r.corrected else "")
    )


@pytest.mark.parametrize("c", CLAIMS, ids=[c.id for c in CLAIMS])
def test_every_mutant_is_rejected(c, claim_result):
    r = claim_result(c)
    assert r.mutants, f"{c.id}: no mutant was checked (every claim needs at least one)"
    survivors = [m for m in r.mutants if not m.rejected]
    assert not survivors, (
        f"{c.id}: mutants not rejected: " + ", ".join(f"{m.mutant.name} ({m.mutant.description}): {m.verdict.summary()}"
                                                      for m in survivors)
    )
    for m in r.mutants:
        assert m.verdict.witness is not None, f"{c.id}: mutant {m.mutant.name} was rejected without a witness"


ERRATA = [c for c in CLAIMS if c.expect in (Status.ERRATUM, Status.REFUTED)]


@pytest.mark.parametrize("c", ERRATA, ids=[c.id for c in ERRATA])
def test_erratum_printed_fails_with_witness_and_correction_holds(c, claim_result):
    r = claim_result(c)
    assert not r.printed.holds, f"{c.id}: printed statement unexpectedly holds: {r.printed.summary()}"
    w = r.printed.witness
    assert w is not None and "lhs" in w and "rhs" in w, f"{c.id}: printed statement fails without a witness"
    if c.expect is Status.ERRATUM:
        assert c.corrected is not None, f"{c.id}: an erratum needs a corrected statement"
        assert r.corrected is not None and r.corrected.holds, (
            f"{c.id}: corrected statement does not hold: {r.corrected.summary() if r.corrected else 'not run'}\n"
            f"witness: {_show(r.corrected.witness if r.corrected else None)}"
        )


# --- the verdict contract at run time (sources audited under it; see tests/test_contract.py) --------

AUDITED_CLAIMS = [c for c in CLAIMS if is_audited(c)]
AUDITED_ERRATA = [c for c in AUDITED_CLAIMS if c.expect is Status.ERRATUM]


@pytest.mark.parametrize("c", AUDITED_ERRATA, ids=[c.id for c in AUDITED_ERRATA])
def test_erratum_witness_meets_every_printed_hypothesis(c, claim_result):
    """An erratum refutes the *statement*: its witness must satisfy every hypothesis as printed."""
    r = claim_result(c)
    case = (r.printed.witness or {}).get("case")
    assert case is not None, f"{c.id}: the witness records no case"
    violated = c.hypotheses(case)
    assert violated == [], f"{c.id}: the erratum witness {case} violates printed hypotheses {violated}: a proof-gap or no error"


AUDITED_GAPS = [c for c in AUDITED_CLAIMS if c.expect is Status.PROOF_GAP]


@pytest.mark.parametrize("c", AUDITED_GAPS, ids=[c.id for c in AUDITED_GAPS])
def test_proof_gap_step_fails_and_statement_holds(c, claim_result):
    r = claim_result(c)
    assert r.printed.holds, f"{c.id}: the statement fails ({r.printed.summary()}): an erratum, not a proof-gap"
    assert r.proof_step is not None and not r.proof_step.holds and r.proof_step.witness, (
        f"{c.id}: the proof step does not fail with a witness")


INEQUALITY_CLAIMS = [c for c in AUDITED_CLAIMS if any(q.asserted and q.inequality for q in c.parts or ())]


@pytest.mark.parametrize("c", INEQUALITY_CLAIMS, ids=[c.id for c in INEQUALITY_CLAIMS])
def test_every_inequality_part_records_its_sharpness(c, claim_result):
    r = claim_result(c)
    # an erratum's printed check may stop at its witness; the corrected statement then carries the search
    verdicts = [v for v in (r.printed, r.corrected) if v is not None]
    recorded = set().union(*(set(v.sharpness_parts) for v in verdicts))
    missing = [q.name for q in c.parts if q.asserted and q.inequality and q.name not in recorded]
    assert not missing, f"{c.id}: inequality parts without a recorded sharpness: {missing} (recorded: {sorted(recorded)})"
