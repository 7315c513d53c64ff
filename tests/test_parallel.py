"""``python -m verify.report -j N``: worker processes give the serial run's report (apart from timings), a
dying worker publishes nothing, and no result depends on numba's thread count (verify/parallel.py)."""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from verify.parallel import run_claims
from verify.registry import ClaimResult, get_claim
from verify.publish import pending_publishes
from verify.report import ROOT, check_report, main, write_report_set

#: quick claims with random draws (seeded streams), figures (two in the last one) and numba prange kernels, from
#: six sources
IDS = ["thesis_ch7.training_features", "thesis_ch8.ngram_extension", "thesis_ch4.lemma_A.2", "seed002.theorem_9",
       "thesis_ch5.sq_counting", "thesis_ch6.proposition_6.3.frontier"]
#: fields that hold wall-clock measurements: the report's only differences between runs
TIMING = ("seconds", "date", "generation")


def _untimed(obj):
    """JSON without the timing fields (any key naming seconds: the verdicts' and claims' own, and
    measurements that checks record in their details, such as 'training seconds (whole grid)')."""
    if isinstance(obj, dict):
        return {k: _untimed(v) for k, v in obj.items() if not any(t in k for t in TIMING)}
    if isinstance(obj, list):
        return [_untimed(v) for v in obj]
    return obj


def _zero_timings(r: ClaimResult) -> ClaimResult:
    def v0(v):
        if v is None:
            return None
        return dataclasses.replace(v, seconds=0.0, details={k: x for k, x in v.details.items() if "seconds" not in k})

    return dataclasses.replace(r, seconds=0.0, printed=v0(r.printed), corrected=v0(r.corrected),
                               proof_step=v0(r.proof_step),
                               mutants=tuple(dataclasses.replace(m, verdict=v0(m.verdict)) for m in r.mutants))


def _files(d: Path) -> dict[str, bytes]:
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def test_two_workers_give_the_serial_results_and_the_same_report(tmp_path: Path):
    claims = [get_claim(i) for i in IDS]
    passed: dict[int, list] = {1: [], 2: []}
    serial = run_claims(claims, tier="quick", backend="auto", jobs=1, on_result=passed[1].append)
    parallel = run_claims(claims, tier="quick", backend="auto", jobs=2, on_result=passed[2].append)
    assert [r.claim.id for r in parallel] == IDS  # registry order, whatever order they finished in
    for jobs, results in ((1, serial), (2, parallel)):  # each result passed on once, the very object returned
        assert sorted(map(id, passed[jobs])) == sorted(map(id, results))
    assert [_untimed(r.to_json()) for r in parallel] == [_untimed(r.to_json()) for r in serial]
    # rendered from the live objects (not from JSON), with the timings zeroed: every file identical, figures included
    assert sum(len(r.printed.plots) for r in serial) >= 2  # so that jobs=2 below draws in two processes
    env = {"date": "d", "commit": "c", "tier": "quick", "backend": "auto", "python": "p", "numpy": "n", "numba": "n",
           "scipy": "s", "sympy": "s", "machine": "m", "gpu": "no", "seconds": 0.0}
    for name, results in (("serial", serial), ("parallel", parallel)):
        (tmp_path / name).mkdir()  # the parallel set's figures are drawn in two processes as well
        write_report_set(tmp_path / name, [_zero_timings(r) for r in results], env, 0.0, jobs=2 if name == "parallel" else 1)
    a, b = _files(tmp_path / "serial"), _files(tmp_path / "parallel")
    assert any(k.endswith(".png") for k in a) and a.keys() == b.keys()
    assert [k for k in a if a[k] != b[k]] == []


def test_numba_thread_count_does_not_change_results():
    """Workers run numba with cores // N threads: the prange kernels must give the same bits at any count
    (the WHT splits its chunks and top passes by the thread count; the trainers run one seed per iteration)."""
    import numba

    from kernels.boolean._wht_cpu import _MIN_PARALLEL
    from kernels.boolean.wht import wht
    from verify.registry import run_claim

    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has one thread here")
    rng = np.random.default_rng(7)
    n = _MIN_PARALLEL.bit_length() + 3  # long enough for the threaded path (parallel chunks and top passes)
    data = [rng.standard_normal(2**n), rng.integers(-9, 9, 2**n)]
    claim = "thesis_ch8.ngram_extension"  # the induction-head trainer: prange over runs
    old = numba.get_num_threads()
    out = {}
    try:
        for threads in (1, 2):
            numba.set_num_threads(threads)
            out[threads] = ([wht(a, backend="cpu") for a in data],
                            _untimed(run_claim(claim, tier="quick", backend="cpu").to_json()))
    finally:
        numba.set_num_threads(old)
    for x, y in zip(out[1][0], out[2][0]):
        assert x.dtype == y.dtype and np.array_equal(x, y)
    assert out[1][1] == out[2][1]


def test_jobs_must_be_a_positive_integer(capsys):
    for bad in ("0", "-1", "abc"):
        with pytest.raises(SystemExit) as exc:
            main(["--tier", "quick", "--only", IDS[0], "-j", bad])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert "argument -j/--jobs: must be an integer >= 1" in err and repr(bad) in err


@pytest.fixture(scope="module")
def old_report_set(tmp_path_factory) -> Path:
    """A quick report of two claims written by `-j 2` (once for the module: the tests below copy it)."""
    out = tmp_path_factory.mktemp("old") / "REPORT.md"
    assert main(["--tier", "quick", "--only", IDS[3], IDS[2], "-j", "2", "--output", str(out)]) == 0
    assert check_report(out, tier="quick", registry=False) == []
    return out.parent


def _old_report(out: Path, old: Path) -> dict[str, bytes]:
    """A copy of the module's old report set next to ``out``: the previous report that a failed run must leave."""
    shutil.copy2(old / "REPORT.md", out)
    shutil.copytree(old / "report", out.parent / "report")
    assert check_report(out, tier="quick", registry=False) == []
    return _files(out.parent / "report") | {"REPORT.md": out.read_bytes()}


def test_an_exception_in_a_worker_publishes_nothing(tmp_path: Path, old_report_set):
    out = tmp_path / "REPORT.md"
    before = _old_report(out, old_report_set)
    with pytest.raises(RuntimeError, match="fault injected in the worker"):
        main(["--tier", "quick", "--only", IDS[3], IDS[2], "-j", "2", "--output", str(out)], fault="worker")
    assert _files(tmp_path / "report") | {"REPORT.md": out.read_bytes()} == before
    assert not pending_publishes(out) and not multiprocessing.active_children()


def test_a_worker_that_dies_exits_two_and_publishes_nothing(tmp_path: Path, old_report_set):
    """A real `python -m verify.report -j 2` whose workers exit abruptly (VERIFY_REPORT_FAULT=worker:kill):
    exit 2 with a message naming the claims, no traceback, the previous report untouched."""
    out = tmp_path / "REPORT.md"
    before = _old_report(out, old_report_set)
    env = dict(os.environ, VERIFY_REPORT_FAULT="worker:kill", PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "verify.report", "--tier", "quick", "--only", IDS[3], IDS[2], "-j", "2",
           "--output", str(out)]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2, proc.stderr
    assert "a worker process died while running one of" in proc.stderr and "nothing was written" in proc.stderr
    assert IDS[3] in proc.stderr and "Traceback" not in proc.stderr
    assert _files(tmp_path / "report") | {"REPORT.md": out.read_bytes()} == before
    assert not pending_publishes(out)
    assert json.loads((tmp_path / "report" / "results.json").read_text())["environment"]["tier"] == "quick"


def test_shared_run_groups_name_registered_claims_once():
    from verify.parallel import SHARED_RUNS

    ids = [cid for group in SHARED_RUNS for cid in group]
    assert len(ids) == len(set(ids))
    for cid in ids:
        get_claim(cid)  # raises for an unknown id


def test_task_groups_put_a_groups_members_in_one_task(monkeypatch):
    import verify.parallel as P

    monkeypatch.setattr(P, "SHARED_RUNS", (("g.a", "g.b", "g.c"), ("h.a", "h.b")))
    ids = ["x", "g.c", "y", "g.a", "h.b", "z"]
    assert P.task_groups(ids) == [[0], [3, 1], [2], [4], [5]]  # g in the group's order; h.b alone is one task
    assert P.task_groups([]) == []


def test_a_shared_run_group_gives_the_results_of_runs_apart(monkeypatch):
    """claim_B.11 and thm_5.8.main read the same cached SGD runs and go to one worker as one task: the results
    are those of the two claims run in two workers (the serial run shares the cache as well: the test above)."""
    import verify.parallel as P

    ids = ["thesis_ch5.claim_B.11", "thesis_ch5.thm_5.8.main"]
    assert P.task_groups(ids) == [[0, 1]]
    claims = [get_claim(i) for i in ids]
    together = run_claims(claims, tier="quick", backend="auto", jobs=2)
    monkeypatch.setattr(P, "SHARED_RUNS", ())
    assert P.task_groups(ids) == [[0], [1]]
    apart = run_claims(claims, tier="quick", backend="auto", jobs=2)
    assert [_untimed(r.to_json()) for r in together] == [_untimed(r.to_json()) for r in apart]


def test_importing_verify_sets_openblas_idle_thread_timeout_unless_set():
    """verify/__init__.py sets OPENBLAS_THREAD_TIMEOUT before numpy loads (idle OpenBLAS threads would spin
    on the core another claim process needs), and keeps a value the user chose."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_THREAD_TIMEOUT"}
    code = "import os, sys, verify; print(os.environ.get('OPENBLAS_THREAD_TIMEOUT'), 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.split()
    assert out == ["4", "True"]
    env["OPENBLAS_THREAD_TIMEOUT"] = "20"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.split()
    assert out == ["20", "True"]


def test_report_workers_fork_from_a_server_that_imported_every_claim_and_started_no_thread_pool():
    """The report's workers fork from the forkserver (verify/_preload.py): it holds the whole registry, and
    importing the claim modules launched no numba thread pool (a pool does not survive fork; a parallel
    kernel compiled eagerly, with a signature, launches one when it loads from the cache)."""
    from concurrent.futures import ProcessPoolExecutor

    from verify.parallel import worker_context
    from verify.registry import all_claims

    ctx = worker_context()
    if ctx.get_start_method() != "forkserver":  # pragma: no cover - platforms without forkserver spawn workers
        pytest.skip("no forkserver start method here")
    probe = ("(len(__import__('verify.registry', fromlist=['x']).REGISTRY), "
             "__import__('numba.np.ufunc.parallel', fromlist=['x'])._is_initialized, "
             "'numba.cuda' in __import__('sys').modules)")
    with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
        registered, pool_launched, cuda_imported = pool.submit(eval, probe).result()
    assert registered == len(all_claims())
    assert pool_launched is False and cuda_imported is False
