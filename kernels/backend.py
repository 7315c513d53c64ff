"""Backend selection for the kernels with three twins (``reference``, ``cpu``, ``cuda``).

``"auto"`` picks ``"cuda"`` only when numba.cuda sees a real GPU (never the simulator), else ``"cpu"``.
The backend actually used is always returned to the caller so that it can be recorded: there is no
silent fallback.  Asking for ``"cuda"`` without a GPU and without the simulator raises ValueError.
"""

from __future__ import annotations

import os

__all__ = ["BACKENDS", "cuda_simulator_enabled", "gpu_available", "resolve_backend"]

BACKENDS = ("auto", "reference", "cpu", "cuda")


def cuda_simulator_enabled() -> bool:
    """True when the numba CUDA simulator is switched on (``NUMBA_ENABLE_CUDASIM=1`` before import)."""
    return os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0")


def gpu_available() -> bool:
    """True when numba.cuda can reach a real CUDA device (the simulator does not count)."""
    if cuda_simulator_enabled():
        return False
    try:
        from numba import cuda
    except Exception:  # pragma: no cover - numba without any cuda module
        return False
    try:
        return bool(cuda.is_available())
    except Exception:  # pragma: no cover - broken driver installs
        return False


def resolve_backend(backend: str) -> str:
    """Map a requested backend name to the one that will run, or raise ValueError."""
    if backend not in BACKENDS:
        raise ValueError(f"argument 'backend' must be one of {BACKENDS}, not {backend!r}")
    if backend == "auto":
        return "cuda" if gpu_available() else "cpu"
    if backend == "cuda" and not (gpu_available() or cuda_simulator_enabled()):
        raise ValueError(
            "argument 'backend' = 'cuda' needs a CUDA GPU (none is visible to numba.cuda here) or the "
            "simulator (set NUMBA_ENABLE_CUDASIM=1 before starting Python)"
        )
    return backend
