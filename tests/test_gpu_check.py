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


def test_write_with_only_keeps_the_rows_of_sections_not_rerun():
    """--only two_layer --write: the stored rows of the other sections stay (marked with their run's date),
    the stored two-layer rows are replaced, and the earlier run's notes are kept, marked."""
    from benchmarks.gpu_check import HERE, _keep_rows_not_rerun

    stored = json.loads((HERE / "gpu_results.json").read_text())
    new_rows = [{"name": "two-layer engine float32, 10 runs, block kernel", "seconds": 1.0}]
    rows, notes = _keep_rows_not_rerun(new_rows, ["n"], {"sections": {"env": {}, "two_layer": {}}}, ["env", "two_layer"])
    assert rows[0] == new_rows[0]
    old_names = [r["name"] for r in stored["rows"]]
    assert any(n.startswith("WHT") for n in old_names)
    kept = rows[1:]
    assert kept and all("(run of " in r["name"] for r in kept)
    assert not any(r["name"].startswith("two-layer engine") for r in kept)
    assert len(kept) == sum(not n.startswith("two-layer engine") for n in old_names)
    assert notes[0] == "n" and any(line.startswith("[run of ") for line in notes)
    assert _keep_rows_not_rerun(new_rows, ["n"], {"sections": {}}, None) == (new_rows, ["n"])


def test_from_json_writes_the_results_of_an_earlier_run(tmp_path, monkeypatch):
    """--from-json PATH --write: RESULTS.md rows from a fetched gpu_check.json (here run 1's), no GPU work;
    writes go to a copy of benchmarks/ (HERE is redirected)."""
    import shutil

    import benchmarks.gpu_check as G
    import benchmarks._results_md as R

    bench = tmp_path / "benchmarks"
    shutil.copytree(ROOT / "benchmarks", bench, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(G, "HERE", bench)
    monkeypatch.setattr(R, "HERE", bench)
    run1 = ROOT / "benchmarks" / "gpu_runs" / "2026-11-26-h100-run1.json"
    part = json.loads(run1.read_text())
    part["sections"] = {k: part["sections"][k] for k in ("env", "disjoint_polynet")}
    src = tmp_path / "part.json"
    src.write_text(json.dumps(part))
    assert G.main(["--from-json", str(src), "--write"]) == 0
    res = json.loads((bench / "gpu_results.json").read_text())
    names = [r["name"] for r in res["rows"]]
    assert names[0] == "disjoint_polynet" and any(n.startswith("WHT") and "(run of " in n for n in names)
    assert "disjoint_polynet" in (bench / "RESULTS.md").read_text()
