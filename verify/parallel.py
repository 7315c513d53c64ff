"""Running claims for ``python -m verify.report -j N``: in this process (N = 1) or in N worker processes
(on a dask.distributed cluster: :mod:`verify.cluster`).

The workers are a ``concurrent.futures.ProcessPoolExecutor`` over :func:`worker_context`: where the
platform has it, the ``forkserver`` context whose server imports every claim module once
(verify/_preload.py) while this process discovers the claims too, so that each worker starts forked from
a process that holds the whole registry instead of importing it again (about 4 s of CPU per worker);
elsewhere ``spawn``.  A plain ``fork`` of this process would not do: numba's thread pools and CUDA do not
survive it.  The server is safe to fork because importing the claim modules starts neither (no parallel
kernel is compiled eagerly, CUDA is initialised only when a claim asks for it: tests/test_parallel.py
checks the first).  Each worker limits numba to ``max(1, cores // N)`` threads, so
that N workers do not oversubscribe the cores; no result depends on the thread count (every ``prange``
loop of kernels/ writes its own rows, and each sum is accumulated in a fixed order: tests/test_parallel.py
compares results at 1 and 2 threads).  Claims are submitted longest first (the recorded full-tier
seconds, scaled by verify/costs.py where a claim declares a time model), at most N at a time, and the
results are returned in the order of the claims given, so that the report is the same as a serial run's
apart from the timing fields.

Claims that read the same cached runs (:data:`SHARED_RUNS`: module-level ``functools.lru_cache`` functions
called with the same arguments and seeds, such as the disjoint-PolyNet SGD runs of Theorem 5.8 and Claims
B.11-B.12) go to one worker as one task, one after another, so that the runs are computed once.  The
caches are pure (a cached call returns the values the uncached call computes), so the results are the
same as apart; only their ``seconds`` move to the first claim of the group.  (A dask cluster, and the
serial run, take the claims one by one; a serial run shares the caches anyway.)

A worker returns the claim's verdicts (pickled), and this process rebuilds the ClaimResult around its
own Claim object: the rendering sees the same values as in a serial run.  A worker that dies (a crash,
a kill, out of memory) raises :class:`WorkerDied`, naming the claims that were running; nothing is
published then (the caller publishes only after every claim has a result).
"""

from __future__ import annotations

import argparse
import os
import pickle
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Sequence

from .costs import expected_seconds
from .registry import Claim, ClaimResult, MutantResult, run_claim

#: the exit status of a worker killed by fault injection (``VERIFY_REPORT_FAULT=worker:kill``)
FAULT_EXIT = 70


#: groups of claims whose checks read the same cached runs (same functions, arguments and seeds; measured
#: in one process, e.g. at the quick tier claim_B.12 then thm_5.8 take 5.3 s and 0.4 s, thm_5.8 alone 5.1 s);
#: each group runs as one task, in this order.  tests/test_parallel.py checks the ids.
SHARED_RUNS: tuple[tuple[str, ...], ...] = (
    # kernels.training.disjoint_polynet_sgd runs of verify/hidden_progress/polynet_sgd._runs
    ("thesis_ch5.claim_B.12", "thesis_ch5.thm_5.8", "thesis_ch5.thm_5.8.azuma", "thesis_ch5.claim_B.11",
     "thesis_ch5.thm_5.8.main"),
    # the pre-training runs of verify/icl_deep_gd/figures._pretrain (Figure 3's depth-2 runs are Figures 1-2's)
    ("seed001.figure_3", "seed001.figure_1", "seed001.figure_2"),
    # the flows of verify/hidden_progress/polynet_flow_lemma_b8._lemma_b8_data (seeded by Lemma B.8's id)
    ("thesis_ch5.lemma_B.8", "thesis_ch5.lemma_B.8.blowup_time"),
    # the Pareto grid of verify/pareto_sq/experiments.pareto_grid (E23 and E24)
    ("thesis_ch6.pareto_frontier_experiment", "thesis_ch6.data_time_tradeoff"),
    # the ReLU / quadratic pair of verify/max_margin/figures_cyclic.cyclic_pair (seeded by Figure 7.4's id)
    ("thesis_ch7.figure_7_4", "thesis_ch7.figure_D1", "thesis_ch7.figure_7_1"),
    # the simulated Turing machines of verify/sm_approximation/turing.run_all (same machines, same tier sizes)
    ("seed000.setup_C.1", "seed000.theorem_4.1", "seed000.proof_4.1_assembly", "seed000.lemma_C.1", "seed000.lemma_C.2",
     "seed000.lemma_C.3", "seed000.claim_C.4", "seed000.claim_C.5", "seed000.claim_C.6", "seed000.lemma_C.7",
     "seed000.lemma_C.8"),
    # the cyclic-group trainings of verify/max_margin/training.cyclic_run
    ("thesis_ch7.theorem_7_1_training", "thesis_ch7.regularized_exact_cyclic", "thesis_ch7.training_features"),
)


def task_groups(ids: Sequence[str]) -> list[list[int]]:
    """Indices of ``ids`` grouped into tasks: the members of a SHARED_RUNS group that are present form one
    task (in the group's order), every other claim a task of its own; tasks in the order of their first id."""
    where = {cid: g for g, group in enumerate(SHARED_RUNS) for cid in group}
    rank = {cid: r for group in SHARED_RUNS for r, cid in enumerate(group)}
    tasks: list[list[int]] = []
    open_group: dict[int, list[int]] = {}
    for i, cid in enumerate(ids):
        g = where.get(cid)
        if g is None:
            tasks.append([i])
        elif g in open_group:
            open_group[g].append(i)
        else:
            open_group[g] = [i]
            tasks.append(open_group[g])
    for task in tasks:
        task.sort(key=lambda i: rank.get(ids[i], 0))
    return tasks


class WorkerDied(RuntimeError):
    """A worker process ended abruptly while running claims (BrokenProcessPool)."""


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def jobs_argument(text: str) -> int:
    """argparse ``type`` of ``-j``: an integer >= 1 (argparse names the argument and exits 2)."""
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1 (worker processes; default: the {usable_cores()} "
                                         f"usable cores), not {text!r}")
    return jobs


# --- in a worker ---------------------------------------------------------------------------------


_WORKER_FAULT: str | None = None


def limit_numba_threads(workers: int) -> int:
    """Give this process (one of ``workers`` running at once) ``max(1, cores // workers)`` numba threads;
    return the count.  Also used by conftest.py for pytest-xdist workers."""
    import numba

    threads = max(1, min(usable_cores() // max(workers, 1), numba.config.NUMBA_NUM_THREADS))
    numba.set_num_threads(threads)
    return threads


def _init_worker(workers: int, fault: str | None) -> None:
    global _WORKER_FAULT
    _WORKER_FAULT = fault
    limit_numba_threads(workers)


def claim_payload(c: Claim, tier: str, backend: str) -> bytes:
    """Run ``c`` here and pickle its verdicts (what a worker sends back; :func:`rebuild_result` reads it)."""
    r = run_claim(c, tier=tier, backend=backend)
    return pickle.dumps((r.status, r.printed, r.corrected, tuple(m.verdict for m in r.mutants), dict(r.params),
                         r.tier, r.backend, r.seconds, r.proof_step))


def _run_in_worker(claim_id: str, tier: str, backend: str) -> bytes:
    from .registry import get_claim

    if _WORKER_FAULT == "kill":
        os._exit(FAULT_EXIT)
    if _WORKER_FAULT is not None:
        raise RuntimeError(f"fault injected in the worker running {claim_id}")
    return claim_payload(get_claim(claim_id), tier, backend)


def _run_task_in_worker(claim_ids: tuple[str, ...], tier: str, backend: str) -> list[bytes]:
    """The payloads of a task's claims, run one after another in this worker (see SHARED_RUNS)."""
    return [_run_in_worker(cid, tier, backend) for cid in claim_ids]


def rebuild_result(c: Claim, blob: bytes) -> ClaimResult:
    """The ClaimResult of ``c`` (this process's Claim object) around the verdicts a worker pickled."""
    status, printed, corrected, verdicts, params, tier, backend, seconds, proof_step = pickle.loads(blob)
    if len(verdicts) != len(c.mutants):  # pragma: no cover - the worker imported another registry
        raise RuntimeError(f"{c.id}: the worker checked {len(verdicts)} mutants, the registry has {len(c.mutants)}")
    mutants = tuple(MutantResult(m, v) for m, v in zip(c.mutants, verdicts))
    return ClaimResult(c, status, printed, corrected, mutants, params, tier, backend, seconds, proof_step=proof_step)


# --- in this process -----------------------------------------------------------------------------


def worker_context():
    """The multiprocessing context of the report's worker processes: ``forkserver`` preloading
    verify/_preload.py (every claim registered) where available, else ``spawn``.  Creating the context
    does not start the server; :func:`start_workers_early` does."""
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():  # pragma: no cover - Windows
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["verify._preload"])  # no effect once this process's server runs
    return ctx


def start_workers_early() -> None:
    """Start the forkserver now (it imports the claim modules while this process discovers them too), so
    that the workers of :func:`run_claims` fork from it without waiting; a no-op with ``spawn``."""
    ctx = worker_context()
    if ctx.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def run_claims(claims: Sequence[Claim], *, tier: str, backend: str, jobs: int = 1, bar=None,
               fault: str | None = None, on_result: Callable[[ClaimResult], None] | None = None) -> list[ClaimResult]:
    """The results of ``claims``, in their order; ``bar``: a tqdm bar to advance (optional).

    ``on_result`` (optional) is called in this process with each result once it is in, after the workers
    have been given their next tasks (the report prepares its text then, while it would otherwise wait).
    ``fault`` (tests): ``"kill"`` makes each worker exit abruptly before its claim, ``""`` makes it raise."""
    workers = min(jobs, len(claims))
    if workers <= 1:
        results = []
        for c in claims:
            if bar is not None:
                bar.set_postfix_str(c.id)
            results.append(run_claim(c, tier=tier, backend=backend))
            if on_result is not None:
                on_result(results[-1])
            if bar is not None:
                bar.update(1)
        return results
    cost = [expected_seconds(c.id, c.resolve_params(tier)) for c in claims]
    tasks = task_groups([c.id for c in claims])
    workers = min(workers, len(tasks))
    queue = sorted(range(len(tasks)), key=lambda t: -sum(cost[i] for i in tasks[t]))[::-1]  # pop(): longest first
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=worker_context(), initializer=_init_worker,
                               initargs=(workers, fault))
    running: dict[Future, int] = {}
    results: list[ClaimResult | None] = [None] * len(claims)
    arrived: list[int] = []  # results not yet passed to on_result
    try:
        while queue or running:
            while queue and len(running) < workers:
                t = queue.pop()
                running[pool.submit(_run_task_in_worker, tuple(claims[i].id for i in tasks[t]), tier, backend)] = t
            if bar is not None:
                bar.set_postfix_str(", ".join(claims[i].id for t in sorted(running.values()) for i in tasks[t]))
            _pass_on(results, arrived, on_result)
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for f in done:
                t = running.pop(f)
                try:
                    blobs = f.result()
                except BrokenProcessPool as exc:
                    ids = sorted(claims[i].id for u in [t, *running.values()] for i in tasks[u])
                    raise WorkerDied(f"a worker process died while running one of {ids} ({exc})") from None
                for i, blob in zip(tasks[t], blobs):
                    results[i] = rebuild_result(claims[i], blob)
                arrived.extend(tasks[t])
                if bar is not None:
                    bar.update(len(tasks[t]))
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown(wait=False)  # every result is in; the idle workers exit while the caller writes the report
    _pass_on(results, arrived, on_result)
    return results  # type: ignore[return-value]


def _pass_on(results: list, arrived: list[int], on_result) -> None:
    if on_result is not None:
        for i in arrived:
            on_result(results[i])
    arrived.clear()


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel what is queued and end the workers now (an error, SIGTERM or Ctrl-C in this process)."""
    terminate = getattr(pool, "terminate_workers", None)  # Python >= 3.14
    if terminate is not None:
        terminate()
        return
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    for proc in procs:
        proc.join(30)
