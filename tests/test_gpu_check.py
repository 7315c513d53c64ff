"""benchmarks/gpu_check.py --dry-run: the GPU check's whole logic at tiny sizes under the CUDA simulator,
so that the script cannot rot between (rare, rented) GPU runs.  Speed is not asserted; structure,
agreement verdicts and the RESULTS.md rows are.  Writes only to tmp_path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_gpu_check_dry_run(tmp_path):
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYTHONPATH=str(ROOT), OUT=str(tmp_path / "from_env"))
    proc = subprocess.run([sys.executable, "-m", "benchmarks.gpu_check", "--dry-run", "--out", str(tmp_path)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "wht: start" in proc.stdout and "wrote" in proc.stdout  # timestamped progress lines
    data = json.loads((tmp_path / "gpu_check.json").read_text())
    assert data["dry_run"] and data["errors"] == {} and data["skipped"] == []
    s = data["sections"]
    assert list(s) == ["env", "wht", "two_layer", "gf2", "population_gradient", "readout_sgd", "disjoint_polynet",
                       "quadratic_margin", "pytest"]
    assert s["env"]["simulator"] and s["env"]["gpu"] == "CUDA simulator"
    for key, r in s["wht"].items():
        if isinstance(r, dict) and "gpu_s" in r:
            assert r["agreement"]["ok"] and r["gpu_s"] > 0 and r["copy_s"] > 0, key
    assert set(s["wht"]["targets"]) >= {"float64_ratio_to_copy<=2.5", "int64_over_float64<=1.2"}
    tl = s["two_layer"]["float64"]
    assert tl["agreement_ok"] and tl["gpu_run_steps_per_s"] > 0 and "target_speedup>=5" in tl
    assert s["gf2"]["bit_for_bit"]
    assert s["population_gradient"]["agreement"]["ok"]
    assert s["readout_sgd"]["agreement_ok"]
    assert s["disjoint_polynet"]["runs_within_tolerance"] == 1.0 and s["disjoint_polynet"]["diverged_at_equal"]
    assert all(v["ok"] for v in s["quadratic_margin"]["Z3"]["agreement"].values())
    assert s["pytest"]["returncode"] == 0 and "collected" in s["pytest"]["tail"]

    from benchmarks._results_md import section_markdown
    from benchmarks.gpu_check import rows_for_results

    rows, notes, machine = rows_for_results(data)
    assert machine.startswith("CUDA simulator") and len(rows) >= 10 and all(r["agrees"] for r in rows)
    md = section_markdown({"title": data["title"], "command": data["command"], "date": data["date"],
                           "machine": machine, "repeats": 1, "rows": rows, "notes": notes}, Path("gpu_results.json"))
    assert "two-layer engine float64" in md and "CUDA simulator" in md


def test_gpu_check_budget_skips_and_still_writes(tmp_path):
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "benchmarks.gpu_check", "--dry-run", "--budget-s", "0",
                           "--out", str(tmp_path)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads((tmp_path / "gpu_check.json").read_text())
    assert data["sections"] == {} and "wht" in data["skipped"] and "pytest" in data["skipped"]
