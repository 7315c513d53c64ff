"""Claim-by-claim verification of deep-learning theory documents.

``verify.registry`` holds the contract (Claim, Verdict, Status, Rigor, tiers, mutants); one subpackage
per source document registers its claims (``verify.hidden_progress`` for thesis ch. 5).  Use
``python -m verify list|run|show`` from the shell and ``python -m verify.report`` to rebuild REPORT.md.
"""

from .registry import (
    Claim,
    ClaimResult,
    Context,
    Evidence,
    InvalidParameter,
    Kind,
    Mutant,
    Param,
    Rigor,
    Status,
    Verdict,
    all_claims,
    claim,
    discover,
    get_claim,
    run_claim,
)

__all__ = [
    "Claim",
    "ClaimResult",
    "Context",
    "Evidence",
    "InvalidParameter",
    "Kind",
    "Mutant",
    "Param",
    "Rigor",
    "Status",
    "Verdict",
    "all_claims",
    "claim",
    "discover",
    "get_claim",
    "run_claim",
]
