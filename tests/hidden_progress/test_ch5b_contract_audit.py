"""Run-time half of the verdict contract for the modules audited by the ch5b second reader
(mlp_first_step and the modules split off it, mlp_sgd, mlp_sgd_convex, recovery), which declare
``CONTRACT_AUDITED = True`` at module level:
verify/test_claims.py runs these checks only for sources audited as a whole.

Every erratum witness passes its hypothesis validator, every asserted inequality part records a
sharpness (printed or corrected verdict), a proof-gap's proof step fails with a witness while the
statement holds, and every near-boundary mutant is rejected.
"""

from __future__ import annotations

import pytest

from verify.catalogs import is_audited
from verify.registry import Status, all_claims

MODULES = ("verify.hidden_progress.mlp_first_step", "verify.hidden_progress.mlp_first_step_claim4",
           "verify.hidden_progress.mlp_first_step_claim5_loss", "verify.hidden_progress.mlp_first_step_lemma_b5",
           "verify.hidden_progress.mlp_sgd", "verify.hidden_progress.mlp_sgd_convex", "verify.hidden_progress.recovery")
CLAIMS = [c for c in all_claims() if c.check.__module__ in MODULES and is_audited(c)]
IDS = [c.id for c in CLAIMS]
@pytest.mark.parametrize("c", CLAIMS, ids=IDS)
def test_audited_claim_runtime_contract(c, claim_result):
    r = claim_result(c)  # shared with verify/test_claims.py (conftest.py), on the claim's xdist work unit
    assert r.status is c.expect, f"{c.id}: {r.status.value}, expected {c.expect.value}"
    if c.expect is Status.ERRATUM:
        case = (r.printed.witness or {}).get("case")
        assert case is not None, f"{c.id}: the witness records no case"
        assert c.hypotheses(case) == [], f"{c.id}: witness {case} violates {c.hypotheses(case)}"
    if c.expect is Status.PROOF_GAP:
        assert r.printed.holds and r.proof_step is not None and not r.proof_step.holds and r.proof_step.witness
    recorded = set()
    for v in (r.printed, r.corrected):
        if v is not None:
            recorded |= set(v.sharpness_parts)
    missing = [q.name for q in c.parts if q.asserted and q.inequality and q.name not in recorded]
    assert not missing, f"{c.id}: inequality parts without a recorded sharpness: {missing}"
    for m in r.mutants:
        assert not m.verdict.holds, f"{c.id}: mutant {m.mutant.name} accepted"
