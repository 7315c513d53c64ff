"""``python -m verify.report --scheduler tcp://HOST:PORT``: claims as tasks of a dask.distributed cluster
(verify/cluster.py) give the serial run's results, seed blocks merge to the whole sweep's bits, a worker
that dies is retried, and bad or unreachable addresses exit 2 before anything is written."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from verify.parallel import run_claims
from verify.blocks import seed_blocks
from verify.registry import Context, get_claim
from verify.publish import pending_publishes
from verify.report import check_report, main

from .test_parallel import _files, _untimed

#: thm_B.6 splits its SGD sweep into seed blocks (Context.map): on a cluster each block is a task
IDS = ["thesis_ch5.thm_B.6", "thesis_ch4.lemma_A.2", "seed002.theorem_9"]


def test_seed_blocks_cover_the_runs_in_order():
    assert seed_blocks(0, 4) == []
    assert seed_blocks(10, 4) == [(0, 4), (4, 8), (8, 10)]
    assert seed_blocks(8, 8) == [(0, 8)]
    for count, block in ((-1, 4), (4, 0), (2.5, 1), (True, 1)):
        with pytest.raises(ValueError, match="argument '(count|block)'"):
            seed_blocks(count, block)


def test_seed_blocks_of_the_trainers_merge_to_the_whole_sweep():
    """Run r of a sweep depends on seeds[r] alone: blocks of runs, concatenated, are the whole sweep's bits
    (what lets Context.map run blocks anywhere).  The readout SGD of Theorem B.6 and the two-layer engine."""
    from kernels.training.readout_sgd import readout_sgd
    from kernels.training import train_two_layer

    rng = np.random.default_rng(3)
    phi, y = rng.standard_normal((12, 3)), rng.choice([-1.0, 1.0], 12)
    seeds = rng.integers(0, 2**63, 37, dtype=np.uint64)
    whole = readout_sgd(phi, y, eta=0.1, steps=50, seeds=seeds, exact_mean=True, backend="cpu").mean_loss
    parts = Context("test").map(lambda a, b: readout_sgd(phi, y, eta=0.1, steps=50, seeds=seeds[a:b],
                                                         exact_mean=True, backend="cpu").mean_loss,
                                seed_blocks(len(seeds), 10))
    assert np.array_equal(np.concatenate(parts), whole)
    kw = dict(width=8, steps=60, batch=4, lr=0.1, loss="hinge", eval_every=10, backend="cpu")
    whole = train_two_layer(6, 2, seeds=seeds[:9], **kw)
    blocks = [train_two_layer(6, 2, seeds=seeds[a:b], **kw) for a, b in seed_blocks(9, 4)]
    for name in ("theta", "converged_at", "fitted_at", "diverged_at", "steps_done", "loss", "eval_accuracy"):
        merged = np.concatenate([getattr(b, name) for b in blocks])
        assert np.array_equal(merged, getattr(whole, name), equal_nan=True), name


@pytest.mark.parametrize("address", ["localhost:8786", "http://10.0.0.1:8786", "tcp://", ""])
def test_a_malformed_scheduler_address_exits_two(address, tmp_path: Path, capsys):
    assert main(["--tier", "quick", "--only", IDS[1], "--scheduler", address, "--output", str(tmp_path / "R.md")]) == 2
    assert "argument '--scheduler' must be a dask scheduler address" in capsys.readouterr().err
    assert not (tmp_path / "R.md").exists()


def test_scheduler_and_jobs_exclude_each_other(tmp_path: Path, capsys):
    assert main(["--tier", "quick", "--only", IDS[1], "--scheduler", "tcp://127.0.0.1:8786", "-j", "2",
                 "--output", str(tmp_path / "R.md")]) == 2
    assert "'--scheduler' and '-j' exclude each other" in capsys.readouterr().err


def test_an_unreachable_scheduler_exits_two_and_writes_nothing(tmp_path: Path, capsys, monkeypatch):
    pytest.importorskip("distributed")
    import socket

    import verify.cluster

    monkeypatch.setattr(verify.cluster, "CONNECT_TIMEOUT", 2)
    with socket.socket() as s:  # a port that nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "R.md"
    assert main(["--tier", "quick", "--only", IDS[1], "--scheduler", f"tcp://127.0.0.1:{port}", "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"no dask scheduler answered at tcp://127.0.0.1:{port}" in err and "Traceback" not in err
    assert not out.exists() and not pending_publishes(out)


def test_a_local_cluster_gives_the_serial_results_retries_a_dead_worker_and_stops_on_repeated_deaths(tmp_path: Path):
    """One LocalCluster of 2 worker processes (1 thread each), as `dask scheduler` + 2 `dask worker`s would
    be: the claims' results equal the serial run's (seed blocks included), a worker killed mid-claim is
    replaced and its claim re-run (the report is the serial one), and workers that keep dying stop the run
    with exit 2 and the previous report untouched."""
    distributed = pytest.importorskip("distributed")
    import dask

    from verify.cluster import run_claims_on_cluster

    claims = [get_claim(i) for i in IDS]
    serial = run_claims(claims, tier="quick", backend="cpu", jobs=1)
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        on_cluster = run_claims_on_cluster(claims, tier="quick", backend="cpu", address=address)
        assert [r.claim.id for r in on_cluster] == IDS
        assert [_untimed(r.to_json()) for r in on_cluster] == [_untimed(r.to_json()) for r in serial]

        out = tmp_path / "REPORT.md"
        argv = ["--tier", "quick", "--backend", "cpu", "--only", IDS[1], "--scheduler", address, "--output", str(out)]
        marker = tmp_path / "died-once"
        assert main(argv, fault=f"worker:kill-once:{marker}") == 0  # the first attempt died; the retry ran it
        assert marker.read_text() == IDS[1] and check_report(out, tier="quick", registry=False) == []
        stored = json.loads((tmp_path / "report" / "results.json").read_text())["results"]
        assert _untimed(stored) == _untimed([r.to_json() for r in serial[1:2]])

        before = _files(tmp_path / "report") | {"REPORT.md": out.read_bytes()}
        assert main(argv, fault="worker:kill") == 2  # dies on every attempt: KilledWorker after the retries
        assert _files(tmp_path / "report") | {"REPORT.md": out.read_bytes()} == before
        assert not pending_publishes(out)
