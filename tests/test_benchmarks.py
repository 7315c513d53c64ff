"""The benchmark harness: benchmarks/training.py at a tiny size and benchmarks/_results_md.py.

Speed is not asserted here (the machine is shared; the figures live in benchmarks/RESULTS.md).  What is
asserted: the training benchmark's result structure (rows, rates = run-steps / seconds, ratios against
the engine's rate, target verdicts consistent with the ratios, the no-PyTorch and no-GPU notes), its
argument validation, and that RESULTS.md gets one section per ``*results.json`` file, old files without
"title" / "command" included.  Nothing is written into benchmarks/ (tmp_path only).
"""

from __future__ import annotations

import importlib.util
import json
import math
import shutil
import sys
from pathlib import Path

import pytest

from benchmarks import _results_md, training
from benchmarks._results_md import results_markdown, write_results_md

BENCH = Path(training.__file__).resolve().parent
HAS_TORCH = importlib.util.find_spec("torch") is not None
HAS_JAX = importlib.util.find_spec("jax") is not None
TINY = {"runs": 2, "steps": 5, "repeats": 1, "torch_steps": 3, "loop_runs": 1, "loop_steps": 3,
        "torch_threads": (1,), "gpu": False}


@pytest.fixture(scope="module")
def tiny():
    return training.run(**TINY)


def _check_row(row, engine_rate):
    assert row["run_steps_per_s"] == pytest.approx(row["runs"] * row["steps"] / row["seconds"])
    assert row["seconds"] > 0 and math.isfinite(row["run_steps_per_s"])
    assert row["ratio"] == pytest.approx(engine_rate / row["run_steps_per_s"])


def test_training_benchmark_structure(tiny):
    data = tiny
    assert {"title", "command", "date", "machine", "repeats", "rows", "notes", "targets", "workload"} <= set(data)
    assert data["command"] == "python -m benchmarks.training --write"
    json.dumps(data)  # JSON-ready
    eng = data["rows"][0]
    assert eng["name"].startswith("project engine (numba cpu") and eng["ratio"] == 1.0
    assert (eng["runs"], eng["steps"]) == (2, 5)
    _check_row(eng, eng["run_steps_per_s"])
    assert any(n.startswith("No CUDA GPU visible") for n in data["notes"])
    # the JAX comparator runs here only (the other tests pass use_jax=False / --no-jax: importing and compiling
    # JAX costs seconds of CPU for a row they do not look at)
    jax_rows = [r for r in data["rows"] if r["name"].startswith("JAX")]
    if HAS_JAX:
        assert len(jax_rows) == 1 and (jax_rows[0]["runs"], jax_rows[0]["steps"]) == (2, 5)
        _check_row(jax_rows[0], eng["run_steps_per_s"])
        assert data["jax_target"]["ratio"] == pytest.approx(jax_rows[0]["ratio"])
        assert any(n.startswith("Target engine >= ") and n.split(":")[0].endswith("x JAX") for n in data["notes"])
    else:
        assert jax_rows == [] and any("JAX is not installed" in n for n in data["notes"])
    torch_rows = [r for r in data["rows"] if r["name"].startswith("PyTorch")]
    if not HAS_TORCH:
        assert torch_rows == [] and data["targets"] == {}
        return
    assert [r["name"].split(",")[0] for r in torch_rows] == ["PyTorch batched (bmm + autograd", "PyTorch per-run loop (nn.Sequential per run)"]
    assert (torch_rows[0]["runs"], torch_rows[0]["steps"]) == (2, 3)
    assert (torch_rows[1]["runs"], torch_rows[1]["steps"]) == (1, 3)
    for row, kind, goal in zip(torch_rows, ("batched", "loop"), (3, 10)):
        _check_row(row, eng["run_steps_per_s"])
        verdict = data["targets"][kind]
        assert verdict["target"] == goal and verdict["ratio"] == pytest.approx(row["ratio"])
        assert verdict["met"] == (row["ratio"] >= goal)
        assert row["target"] == f">= {goal}x"
        assert (row["met"] == "yes") == verdict["met"]
        assert any(n.startswith(f"Target engine >= {goal}x PyTorch {kind}") for n in data["notes"])


def test_training_benchmark_without_torch(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # makes `import torch` raise ImportError
    data = training.run(**TINY, use_jax=False)
    assert [r["name"] for r in data["rows"] if r["name"].startswith("PyTorch")] == []
    assert any("PyTorch is not installed" in n for n in data["notes"])
    assert data["targets"] == {}


@pytest.mark.parametrize(("arg", "value"), [("runs", 0), ("steps", -1), ("repeats", 0), ("loop_runs", 3),
                                            ("torch_steps", 1.5), ("torch_threads", (0,)), ("gpu_runs", True)])
def test_training_benchmark_rejects_bad_arguments(arg, value):
    with pytest.raises(ValueError, match=f"argument '{arg}'"):
        training.run(**{**TINY, arg: value})


def test_training_cli_error_exit_code(capsys):
    assert training.main(["--steps", "0", "--no-torch"]) == 2
    assert "argument 'steps'" in capsys.readouterr().err


def test_results_md_one_section_per_file(tmp_path, tiny):
    for name in ("results.json", "gf2_results.json"):
        if (BENCH / name).exists():
            shutil.copy(BENCH / name, tmp_path / name)
    old = {"date": "then", "machine": "m", "rows": [{"name": "a", "seconds": 0.5, "ratio": 2.0, "extra": "x|y"}],
           "notes": ["old file"]}  # no title / command: falls back to the file name
    (tmp_path / "old_results.json").write_text(json.dumps(old))
    (tmp_path / "training_results.json").write_text(json.dumps(tiny))
    (tmp_path / "unrelated.json").write_text("{}")  # not a *results.json file: ignored
    path = write_results_md(tmp_path)
    assert path == tmp_path / "RESULTS.md"
    text = path.read_text()
    files = sorted(tmp_path.glob("*results.json"))
    sections = [line for line in text.splitlines() if line.startswith("## ")]
    assert len(sections) == len(files)
    for f in files:
        assert f"`{f.name}`" in text.splitlines()[2]
    assert "## benchmarks.old" in sections
    assert "`python -m benchmarks.old --write`, then, m. Ratios" in text
    assert "| a | 0.5000 | 2.00 | x\\|y |" in text and "- old file" in text
    assert f"## {training.TITLE}" in sections
    assert "| measurement | runs | steps | seconds | run-steps/s | ratio | target | met |" in text
    if (tmp_path / "results.json").exists():  # fwht's table keeps the format of benchmarks.fwht.to_markdown
        from benchmarks.fwht import to_markdown

        fwht = json.loads((tmp_path / "results.json").read_text())
        table = [line for line in to_markdown(fwht).splitlines() if line.startswith("|")]
        assert sections[0] == f"## {fwht.get('title', _results_md.KNOWN['results.json'][0])}"
        body = text.split("## ")[1]
        assert [line for line in body.splitlines() if line.startswith("|")] == table
    # regenerating is deterministic and `out` is honoured
    other = write_results_md(tmp_path, out=tmp_path / "copy.md")
    assert other.read_text() == text == results_markdown(tmp_path)


def test_results_md_empty_and_bad_directory(tmp_path):
    assert "No benchmark results yet" in results_markdown(tmp_path)
    with pytest.raises(ValueError, match="argument 'directory'"):
        write_results_md(tmp_path / "missing")


def test_training_write_goes_to_results_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(training, "HERE", tmp_path)
    monkeypatch.setattr(_results_md, "HERE", tmp_path)
    assert training.main(["--runs", "2", "--steps", "3", "--repeats", "1", "--gpu-runs", "4", "--no-torch",
                          "--no-jax", "--write"]) == 0
    data = json.loads((tmp_path / "training_results.json").read_text())
    assert data["rows"][0]["steps"] == 3
    assert f"## {training.TITLE}" in (tmp_path / "RESULTS.md").read_text()


@pytest.mark.skipif(importlib.util.find_spec("ffht") is None, reason="FFHT (ffht-unofficial) is not installed")
def test_fwht_ffht_table_structure():
    from benchmarks.fwht import run_ffht

    data = run_ffht(max_n=11, min_n=10)
    assert [r["n"] for r in data["rows"]] == [10, 11]
    for r in data["rows"]:
        assert r["1t / ffht"] == pytest.approx(r["project_1t_s"] / r["ffht_s"])
        assert r["target 1t <= 1x ffht"] == ("yes" if r["1t / ffht"] <= 1 else "no")
        assert r["target 2t <= 0.67x ffht"] == ""  # only judged at n >= 22
    assert any(n.startswith("Call overhead at n = 3") for n in data["notes"])
    json.dumps(data)
