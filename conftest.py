"""Repository-wide pytest setup: hypothesis profiles and a version header.

Hypothesis profiles (choose with HYPOTHESIS_PROFILE): ``ci`` (default; derandomized, no example
database, no deadline, so runs are reproducible) and ``explore`` (random, more examples).
"""

from __future__ import annotations

import os
import platform

import pytest

# verify/__init__.py sets OPENBLAS_THREAD_TIMEOUT (OpenBLAS's idle threads sleep at once instead of spinning)
# in os.environ.  A plugin has loaded numpy in this process already, but the pytest-xdist workers start
# after this file is loaded and inherit the variable before they load numpy.
import verify  # noqa: E402,F401
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, database=None, deadline=None, max_examples=25,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("explore", deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config):
    """Ignore numba-cuda's performance notes (its NumbaPerformanceWarning is a class of its own, not
    numba.NumbaPerformanceWarning): added here, not in pyproject.toml, because pytest refuses a
    filterwarnings class it cannot import, and numba-cuda is an optional dependency."""
    try:
        from numba.cuda.core.errors import NumbaPerformanceWarning  # noqa: F401
    except Exception:
        pass
    else:  # the same three numba notes pyproject.toml ignores, in numba-cuda's own classes
        for cls in ("NumbaPerformanceWarning", "NumbaPendingDeprecationWarning", "NumbaDeprecationWarning"):
            config.addinivalue_line("filterwarnings", f"ignore::numba.cuda.core.errors.{cls}")
    # any other copy of the class (older numba-cuda layouts): by its message
    config.addinivalue_line("filterwarnings", r"ignore:Grid size \d+ will likely result in GPU under-utilization")
    # the CUDA simulator's threads wait for its polling launcher at the default GIL switch interval (5x slower)
    from kernels.backend import shorten_simulator_switch_interval

    shorten_simulator_switch_interval()
    # a pytest-xdist worker (pyproject.toml runs one per core): cores // workers numba threads each, as the
    # workers of `python -m verify.report -j N` (no result depends on the count: tests/test_parallel.py)
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        from verify.parallel import limit_numba_threads

        limit_numba_threads(workers)


#: claim results by (claim id, tier), computed once per process (the ``claim_result`` fixture)
_CLAIM_RESULTS: dict = {}


@pytest.fixture(scope="session")
def claim_result():
    """``claim_result(claim or id)``: its :func:`verify.registry.run_claim` result at the tier in VERIFY_TIER
    (default ``quick``), backend ``auto``, computed once per process and shared by every test that inspects
    it (verify/test_claims.py and the per-module tests).  Tests parametrized by the claim id (the id in the
    brackets of the test id) go to the claim's pytest-xdist work unit, so the claim is computed once."""
    from verify.registry import run_claim

    tier = os.environ.get("VERIFY_TIER", "quick")

    def get(c):
        key = (c if isinstance(c, str) else c.id, tier)
        if key not in _CLAIM_RESULTS:
            _CLAIM_RESULTS[key] = run_claim(key[0], tier=tier, backend="auto")
        return _CLAIM_RESULTS[key]

    return get


def _claim_ids() -> frozenset[str]:
    """The registered claim ids, from the committed index (cheap; a stale index only groups tests worse)."""
    import json
    from pathlib import Path

    try:
        index = json.loads((Path(__file__).parent / "verify" / "claims_index.json").read_text())
        return frozenset(r["id"] for r in index["claims"])
    except (OSError, ValueError, KeyError, TypeError):
        return frozenset()

#: tests that share an expensive module-scoped fixture: one work unit each, so that the fixture is built once
#: (on one pytest-xdist worker) rather than once per worker that gets one of them
SHARED_FIXTURE_UNITS = {
    # old_report_set: a `-j 2` report (two spawned workers that import the registry and run two claims)
    "tests/test_parallel.py::test_an_exception_in_a_worker_publishes_nothing": "parallel old report",
    "tests/test_parallel.py::test_a_worker_that_dies_exits_two_and_publishes_nothing": "parallel old report",
    # tiny: a training benchmark at tiny sizes (imports and compiles the PyTorch and JAX comparators, ~11 s)
    "tests/test_benchmarks.py::test_training_benchmark_structure": "benchmarks tiny",
    "tests/test_benchmarks.py::test_results_md_one_section_per_file": "benchmarks tiny",
}


#: the longest tests that are not claims (each 7-30 s under `-n auto` on two cores: a subprocess running the GPU
#: check's dry run, spawned report workers, a LocalCluster, simulated CUDA training), longest first: under
#: pytest-xdist they are collected before everything else, so that none of them is handed out last and leaves
#: one worker running alone at the end (pytest_collection_modifyitems; the order of the rest is unchanged)
LONG_FIRST = (
    "tests/test_gpu_check.py::test_gpu_check_dry_run",
    "tests/test_parallel.py::test_a_shared_run_group_gives_the_results_of_runs_apart",
    "tests/test_cluster.py::test_a_local_cluster_gives_the_serial_results_retries_a_dead_worker_and_stops_on_repeated_deaths",
    "tests/test_parallel.py::test_an_exception_in_a_worker_publishes_nothing",
    "tests/test_parallel.py::test_a_worker_that_dies_exits_two_and_publishes_nothing",
    "tests/test_parallel.py::test_two_workers_give_the_serial_results_and_the_same_report",
    "tests/max_margin/test_max_margin_kernels.py::test_trainer_cuda_detects_divergence_between_record_steps",
    "tests/kernels/test_polynet_flow.py::test_sampled_block_sums_against_numpy",
)


def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (the collection of a worker), the tests of ``LONG_FIRST`` go first, in its order."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    rank = {nodeid: i for i, nodeid in enumerate(LONG_FIRST)}
    first = sorted((it for it in items if it.nodeid in rank), key=lambda it: rank[it.nodeid])
    items[:] = first + [it for it in items if it.nodeid not in rank]


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` (pyproject.toml), extended: the tests of one claim (``test_*[<claim id>]``, in
    verify/test_claims.py or any test file) form one work unit, so that the claim is computed on one worker, once; so do the
    tests of each group in ``SHARED_FIXTURE_UNITS``, and the claims of each ``verify.parallel.SHARED_RUNS`` group
    (they read the same cached runs).  Done here
    rather than with ``xdist_group`` marks, which pytest-xdist 3.8 loses under pytest >= 9.2 (it appends the
    group to ``item._nodeid``, which pytest no longer reads: pytest-dev/pytest-xdist#1386).  The units go
    out in collection order (``--no-loadscope-reorder``): verify/test_claims.py lists the longest claims first."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    from verify.parallel import SHARED_RUNS

    claim_ids = _claim_ids()
    unit_of = {cid: group[0] for group in SHARED_RUNS for cid in group}  # claims that share cached runs: one unit

    class ClaimGroups(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            if scope == nodeid and nodeid.endswith("]") and nodeid[nodeid.index("[") + 1:-1] in claim_ids:
                cid = nodeid[nodeid.index("[") + 1:-1]
                return "claim " + unit_of.get(cid, cid)
            if scope == nodeid and nodeid in SHARED_FIXTURE_UNITS:
                return "fixture " + SHARED_FIXTURE_UNITS[nodeid]
            return scope

    return ClaimGroups(config, log)


def pytest_report_header(config):
    import numba
    import numpy
    import scipy
    import sympy

    from kernels.backend import cuda_simulator_enabled, gpu_available

    return [
        f"verify suite: python {platform.python_version()}, numpy {numpy.__version__}, numba {numba.__version__}, "
        f"scipy {scipy.__version__}, sympy {sympy.__version__}",
        f"numba threads {numba.get_num_threads()}; CUDA simulator {'on' if cuda_simulator_enabled() else 'off'}; "
        f"GPU {'yes' if gpu_available() else 'no'}; VERIFY_TIER={os.environ.get('VERIFY_TIER', 'quick')}",
    ]
