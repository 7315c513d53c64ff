"""Publishing the report atomically (the machinery behind ``python -m verify.report``, see verify.report):
the staging directory, the two-rename swap of report/ and the replace of REPORT.md, rollback on an exception
or signal, recovery of an interrupted publish, the fault-injection hook and the lock file next to the outputs.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Callable, Iterator

STAGING_PREFIX = ".report-staging-"
LOCK_NAME = ".report.lock"
#: the steps of :func:`publish`, in order (fault-injection points)
PUBLISH_STEPS = ("staged", "old-moved-aside", "new-moved-in", "committed")
#: fault-injection point in each worker process of ``-j N`` (N > 1), before it runs a claim
WORKER_STEP = "worker"
FAULT_ENV = "VERIFY_REPORT_FAULT"


# ---------------------------------------------------------------------------------------------
# publishing: staging, swap, rollback, recovery, lock
# ---------------------------------------------------------------------------------------------


class PublishFault(RuntimeError):
    """Raised by the fault-injection hook (an interruption that the publisher handles: rolled back)."""


class SimulatedKill(BaseException):
    """Raised by the fault-injection hook in ``kill`` mode: a hard kill, nothing is cleaned up."""


class ReportLocked(RuntimeError):
    pass


def _fault_spec(fault: str | None) -> tuple[str, str, bool]:
    """(step, mode, from the environment) of ``fault`` or else of VERIFY_REPORT_FAULT; step "" if none."""
    spec, from_env = (fault, False) if fault is not None else (os.environ.get(FAULT_ENV), True)
    name, _, mode = (spec or "").partition(":")
    return name, mode, from_env


def _fault_point(step: str, fault: str | None) -> None:
    """Fault injection: ``fault`` (or the environment variable VERIFY_REPORT_FAULT) names a step of
    PUBLISH_STEPS, optionally with ':kill'.  Plain: raise PublishFault (rolled back like SIGTERM);
    ':kill' in-process: raise SimulatedKill (no cleanup); ':kill' from the environment: os._exit(70).
    The step WORKER_STEP acts in every worker of ``-j N`` before its claim: ':kill' os._exit(70) (a
    worker dying), plain: RuntimeError (see :func:`_worker_fault`); on a cluster (``--scheduler``) also
    ':kill-once:PATH': the first claim task to start creates PATH and dies, the scheduler's retry runs it."""
    name, mode, from_env = _fault_spec(fault)
    if name != step:
        return
    if mode == "kill":
        if from_env:
            os._exit(70)
        raise SimulatedKill(step)
    raise PublishFault(f"fault injected at publishing step {step!r}")


def _worker_fault(fault: str | None) -> str | None:
    """What :func:`verify.parallel.run_claims` injects in its workers: "kill", "" (raise) or None."""
    name, mode, _ = _fault_spec(fault)
    return mode if name == WORKER_STEP else None


@contextlib.contextmanager
def _signals_deferred() -> Iterator[None]:
    """Block SIGTERM and SIGINT for the few renames of the swap; a pending signal is delivered after."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _rollback_or_finish(staging: Path, out_md: Path) -> str:
    """Bring the outputs next to ``staging`` back to a complete set and remove ``staging``.

    The journal is the staging directory itself: while staging/REPORT.md exists the publish has not
    committed, so undo it (put the new report/ back into staging, the old one back in place); once
    REPORT.md has been moved out, the new set is complete and only the old report/ is left to delete."""
    report_dir = out_md.parent / "report"
    if (staging / "REPORT.md").exists():
        if not (staging / "report").exists() and report_dir.exists():
            os.rename(report_dir, staging / "report")  # the new report/ had been moved in: take it out
        if (staging / "old").exists():
            os.rename(staging / "old", report_dir)  # the old report/ had been moved aside: put it back
        outcome = "rolled back to the previous report"
    else:
        outcome = "completed the new report"
    shutil.rmtree(staging, ignore_errors=True)
    return outcome


def pending_publishes(out_md: Path) -> list[Path]:
    return sorted(out_md.parent.glob(STAGING_PREFIX + "*"))


def recover(out_md: Path) -> list[str]:
    """Complete or undo every interrupted publish next to ``out_md`` (call with the lock held)."""
    return [f"{s.name}: {_rollback_or_finish(s, out_md)}" for s in pending_publishes(out_md)]


def publish(out_md: Path, build: Callable[[Path], None], *, fault: str | None = None) -> None:
    """Build the output set with ``build(staging_dir)`` and swap it in atomically.

    Steps (fault-injection points in PUBLISH_STEPS): the new REPORT.md and report/ are written into a
    staging directory next to ``out_md`` ("staged"); the old report/ is renamed into the staging
    directory ("old-moved-aside"); the new report/ is renamed into place ("new-moved-in"); REPORT.md is
    replaced with os.replace, the commit point ("committed"); the staging directory is removed.  Any
    exception (SIGTERM and SIGINT become exceptions in :func:`main`) rolls back to the old set."""
    out_md = Path(out_md)
    staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out_md.parent))
    try:
        build(staging)
        _fault_point("staged", fault)
        report_dir = out_md.parent / "report"
        with _signals_deferred():
            if report_dir.exists():
                os.rename(report_dir, staging / "old")
            _fault_point("old-moved-aside", fault)
            os.rename(staging / "report", report_dir)
            _fault_point("new-moved-in", fault)
            os.replace(staging / "REPORT.md", out_md)
        _fault_point("committed", fault)
    except SimulatedKill:
        raise
    except BaseException:
        _rollback_or_finish(staging, out_md)
        raise
    shutil.rmtree(staging, ignore_errors=True)


@contextlib.contextmanager
def publish_lock(out_dir: Path) -> Iterator[None]:
    """An exclusive lock on ``out_dir/.report.lock``; ReportLocked when another run holds it."""
    path = Path(out_dir) / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:  # pragma: no cover - not POSIX: no lock
            pass
        except OSError:
            other = os.pread(fd, 64, 0).decode(errors="replace").strip() or "unknown"
            raise ReportLocked(f"another `python -m verify.report` (pid {other}) is writing to {out_dir}; "
                               "wait for it to finish and run again") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)


def _lock_is_held(out_dir: Path) -> bool:
    try:
        with publish_lock(out_dir):
            return False
    except ReportLocked:
        return True
    except OSError:
        return False
