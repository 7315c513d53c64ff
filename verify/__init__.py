"""Claim-by-claim verification of deep-learning theory documents.

``verify.registry`` holds the contract (Claim, Verdict, Status, Rigor, tiers, mutants); one subpackage
per source document registers its claims (``verify.hidden_progress`` for thesis ch. 5).  Use
``python -m verify list|run|show`` from the shell and ``python -m verify.report`` to rebuild REPORT.md.
"""

import os as _os

# OpenBLAS (numpy's BLAS) keeps its idle threads spinning for 2^28 iterations after every threaded call.
# Two claim processes on two cores (``verify.report -j 2``, pytest-xdist) then lose a core to the other's
# spinning threads (measured: six ch. 6-7 claims on a loaded 2-core machine, 14.3 CPU s and 43 s wall by
# default, 3.7 CPU s and 11 s with 2^4).  The exponent is read once, when numpy loads OpenBLAS, so it is
# set here, before anything imports numpy; the number of threads and the split of the work do not change,
# so neither does any result.  A value the user set is kept.
_os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")

from .registry import (  # noqa: E402
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
