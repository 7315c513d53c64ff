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


def test_no_module_over_1000_lines():
    """docs/architecture.md: a module stays under about 800 lines, 1,000 at most (split along its sections)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    too_long = {}
    for top in ("kernels", "verify", "benchmarks", "proofs", "tests"):
        for path in (root / top).rglob("*.py"):
            lines = path.read_text().count("\n")
            if lines > 1000:
                too_long[str(path.relative_to(root))] = lines
    assert too_long == {}, f"modules over 1,000 lines (split them): {too_long}"
