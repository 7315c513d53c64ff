"""Dependencies flow one way: kernels never import verify, proofs or the report."""

from __future__ import annotations

import subprocess
import sys


def test_kernels_do_not_import_verify():
    code = (
        "import sys, kernels, kernels.boolean.wht, kernels.boolean.symmetric, kernels.boolean.population_gradient, kernels.boolean.reference;"
        "bad=[m for m in sys.modules if m.split('.')[0] in ('verify','proofs','benchmarks')];"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"kernels imported {out.stdout.strip()}"
