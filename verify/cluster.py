"""Running claims on a dask.distributed cluster: ``python -m verify.report --scheduler tcp://HOST:PORT``.

Each claim is one task (``_claim_task``), submitted longest first (dask priorities from the same cost
model as ``-j N``); a claim whose check splits a training sweep into seed blocks with
:meth:`verify.registry.Context.map` submits each block as a task of its own from inside its claim task
(``distributed.worker_client``: the claim's thread leaves the worker's pool while it waits) and merges
the blocks in their given order, so the result is the serial run's bits wherever the blocks ran.

Workers need this project importable at the same version as the client (``pip install -e .`` of the
same commit on every machine, or start them from the repository root): every task returns a fingerprint
of the source of verify/ and kernels/, and a worker with other code is an error, never a mixed report.

A worker process runs one computation at a time (a process-wide lock, released while a claim waits for
its blocks): numba's parallel loops use the process's own threads, and the default ``workqueue``
threading layer must not be entered from two threads at once.  Start workers with ``--nthreads 1`` and
as many ``--nworkers`` per machine as you want claims running there at once (and, with more than one,
``NUMBA_NUM_THREADS`` = cores / nworkers).

Floating-point results of BLAS products depend on how many threads OpenBLAS splits them over, and dask
workers start with one (``distributed.nanny.pre-spawn-environ`` sets OPENBLAS_NUM_THREADS=1): every task
runs with this process's BLAS thread count (threadpoolctl, part of the ``distributed`` extra), so a
cluster run is the bits of a serial run on this machine.

A worker that dies mid-claim (a crash, a kill, out of memory) loses only its task: the scheduler runs it
again on another worker, up to ``distributed.scheduler.allowed-failures`` times (default 3); after that
the run stops with :class:`verify.parallel.WorkerDied` and nothing is published.  A scheduler that does
not answer within ``CONNECT_TIMEOUT`` seconds is a ``ValueError`` naming the address (the CLI exits 2).
"""

from __future__ import annotations

import contextvars
import hashlib
import os
import re
import threading
import uuid
from pathlib import Path
from typing import Any, Callable, Sequence

from .costs import expected_seconds
from .parallel import FAULT_EXIT, WorkerDied, claim_payload, rebuild_result
from .blocks import BLOCK_MAPPER
from .registry import Claim, ClaimResult

#: seconds to wait for the scheduler to answer before giving up
CONNECT_TIMEOUT = 10
#: the address forms dask.distributed accepts from a user: PROTOCOL://HOST:PORT
SCHEDULER_RE = re.compile(r"^(tcp|tls|ws|wss|ucx|inproc)://[^\s/]+$")
_ROOT = Path(__file__).resolve().parent.parent
#: one computation at a time per worker process (see the module docstring)
_COMPUTE = threading.Lock()
_FINGERPRINT: str | None = None
#: the BLAS thread count of the claim task running in this thread (its blocks run with the same)
_BLAS: contextvars.ContextVar[int] = contextvars.ContextVar("_BLAS", default=1)


def scheduler_argument(text: str) -> str:
    """Validate ``--scheduler``'s form (``tcp://HOST:PORT``); raise ValueError naming the argument."""
    if not isinstance(text, str) or not SCHEDULER_RE.match(text.strip()):
        raise ValueError(f"argument '--scheduler' must be a dask scheduler address PROTOCOL://HOST:PORT "
                         f"(e.g. tcp://10.0.0.5:8786), not {text!r}")
    return text.strip()


def code_fingerprint() -> str:
    """SHA-256 (16 hex digits) of every ``.py`` file under verify/ and kernels/, paths included."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        h = hashlib.sha256()
        for pkg in ("verify", "kernels"):
            for path in sorted((_ROOT / pkg).rglob("*.py")):
                h.update(path.relative_to(_ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
        _FINGERPRINT = h.hexdigest()[:16]
    return _FINGERPRINT


# --- on a worker -----------------------------------------------------------------------------------


def _cluster_map(fn: Callable[..., Any], items: Sequence[tuple]) -> list:
    """:meth:`Context.map` inside a claim task: one task per piece, gathered in order."""
    from distributed import worker_client

    if len(items) <= 1:
        return [fn(*item) for item in items]
    _COMPUTE.release()  # the blocks may run in this very process while this thread waits
    try:
        with worker_client() as client:
            futures = [client.submit(_block_task, fn, item, _BLAS.get(), pure=False) for item in items]
            return client.gather(futures)
    finally:
        _COMPUTE.acquire()


def blas_threads() -> int:
    """The BLAS thread count of this process (the largest over the BLAS libraries numpy and scipy load)."""
    import scipy.linalg  # noqa: F401 - loads scipy's own OpenBLAS beside numpy's
    from threadpoolctl import threadpool_info

    return max([d["num_threads"] for d in threadpool_info() if d.get("user_api") == "blas"] or [1])


def _blas_limited(threads: int):
    import scipy.linalg  # noqa: F401 - so that the limit reaches scipy's BLAS too
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits={"blas": threads})


def _block_task(fn: Callable[..., Any], item: tuple, blas: int) -> Any:
    with _COMPUTE, _blas_limited(blas):
        return fn(*item)


def _claim_task(claim_id: str, tier: str, backend: str, fault: str | None, blas: int) -> tuple[str, bytes]:
    from .registry import get_claim

    with _COMPUTE, _blas_limited(blas):
        _BLAS.set(blas)
        if fault == "kill":
            os._exit(FAULT_EXIT)
        if fault is not None and fault.startswith("kill-once:"):  # tests: die on the first attempt only
            marker = Path(fault.split(":", 1)[1])
            if not marker.exists():
                marker.write_text(claim_id)
                os._exit(FAULT_EXIT)
        elif fault is not None:
            raise RuntimeError(f"fault injected in the worker running {claim_id}")
        token = BLOCK_MAPPER.set(_cluster_map)
        try:
            return code_fingerprint(), claim_payload(get_claim(claim_id), tier, backend)
        finally:
            BLOCK_MAPPER.reset(token)


# --- in this process -------------------------------------------------------------------------------


def connect(address: str):
    """A ``distributed.Client`` for ``address``; ValueError (naming the argument) if dask.distributed is
    missing or nothing answers there within CONNECT_TIMEOUT seconds."""
    address = scheduler_argument(address)
    try:
        import threadpoolctl  # noqa: F401 - the workers need it too
        from distributed import Client
    except ImportError:
        raise ValueError("argument '--scheduler' needs dask.distributed, which is not installed: "
                         "pip install -e '.[distributed]'") from None
    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise ValueError(f"argument '--scheduler': no dask scheduler answered at {address} within "
                         f"{CONNECT_TIMEOUT} s ({type(exc).__name__}: {exc})") from None


def run_claims_on_cluster(claims: Sequence[Claim], *, tier: str, backend: str, address: str, bar=None,
                          fault: str | None = None) -> list[ClaimResult]:
    """The results of ``claims`` in their order, each computed as a task of the cluster at ``address``."""
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    client = connect(address)
    mine, blas = code_fingerprint(), blas_threads()
    run = uuid.uuid4().hex[:8]
    futures = {}
    results: list[ClaimResult | None] = [None] * len(claims)
    try:
        for i, c in enumerate(claims):
            cost = expected_seconds(c.id, c.resolve_params(tier))
            f = client.submit(_claim_task, c.id, tier, backend, fault, blas, key=f"verify-{run}-{c.id}", pure=False,
                              priority=int(min(cost, 1e9)))
            futures[f] = i
        for f in as_completed(list(futures), loop=client.loop):
            i = futures[f]
            try:
                theirs, blob = f.result()
            except KilledWorker as exc:
                raise WorkerDied(f"workers died running {claims[i].id} more often than the scheduler retries "
                                 f"({exc})") from None
            if theirs != mine:
                raise ValueError(f"argument '--scheduler': the worker that ran {claims[i].id} has other code "
                                 f"(fingerprint {theirs}, here {mine}): install the same commit on every worker")
            results[i] = rebuild_result(claims[i], blob)
            if bar is not None:
                bar.update(1)
    finally:
        client.cancel(list(futures), force=True)
        client.close()
    return results  # type: ignore[return-value]

