"""Backend selection for the kernels with three twins (``reference``, ``cpu``, ``cuda``).

``"auto"`` picks ``"cuda"`` only when numba.cuda sees a real GPU (never the simulator), else ``"cpu"``.
The backend actually used is always returned to the caller so that it can be recorded: there is no
silent fallback.  Asking for ``"cuda"`` without a GPU and without the simulator raises ValueError whose
text says why (:func:`cuda_diagnosis`): no NVIDIA driver, no device, or a driver and a device but not
the CUDA toolkit libraries numba-cuda compiles with (NVVM, NVRTC), which ``pip install numba-cuda[cu12]``
(the project's ``[cuda]`` extra) provides.  ``"auto"`` on a machine with a GPU but no toolkit runs on
the CPU and says so once in a RuntimeWarning (the GPU is there; the toolkit is not).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
import sys
import warnings

__all__ = ["BACKENDS", "cuda_diagnosis", "cuda_simulator_enabled", "gpu_available", "resolve_backend"]

TOOLKIT_HINT = (
    "install the CUDA toolkit libraries that numba-cuda compiles with: pip install 'numba-cuda[cu12]' "
    "(the project's [cuda] extra; it brings cuda-toolkit[nvcc,nvrtc] = the nvidia-cuda-nvcc-cu12 and "
    "nvidia-cuda-nvrtc-cu12 wheels, with NVVM), or a system CUDA toolkit (CUDA_HOME)"
)

BACKENDS = ("auto", "reference", "cpu", "cuda")


def cuda_simulator_enabled() -> bool:
    """True when the numba CUDA simulator is switched on (``NUMBA_ENABLE_CUDASIM=1`` before import)."""
    return os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0")


#: the GIL switch interval :func:`shorten_simulator_switch_interval` sets
SIMULATOR_SWITCH_INTERVAL_S = 2e-4


def shorten_simulator_switch_interval() -> bool:
    """Under the CUDA simulator, set this process's GIL switch interval to ``SIMULATOR_SWITCH_INTERVAL_S``;
    return whether it did.  For test and benchmark processes, not called by the library itself.

    The simulator runs each CUDA thread of a block as a Python thread while its launcher polls them in a
    busy loop; at Python's default 5 ms interval the threads mostly wait for the poller.  One simulated
    training kernel of the tests (3 runs, 6 steps) takes 13 s at 5 ms, 2.5 s at 0.2 ms, 112 s at 50 ms.
    Only the scheduling of the Python threads changes, no result.
    """
    if not cuda_simulator_enabled():
        return False
    sys.setswitchinterval(SIMULATOR_SWITCH_INTERVAL_S)
    return True


def _driver_library_present() -> bool:
    """Whether a CUDA driver library opens here, tried under the names and in the directories numba-cuda
    tries (cudadrv/driver.py ``locate_driver_and_loader``): a cheap first test for :func:`gpu_available`,
    since importing numba.cuda alone costs ~0.6 s.  A custom driver path (``NUMBA_CUDA_DRIVER``) defers to
    numba.cuda.  Opening the library does not initialise CUDA (no cuInit).  The search runs once per process
    (~0.35 ms where nothing opens, and ``resolve_backend("auto")`` asks on every kernel call)."""
    if os.environ.get("NUMBA_CUDA_DRIVER"):
        return True
    return _driver_library_opens()


@functools.lru_cache(maxsize=1)
def _driver_library_opens() -> bool:
    if sys.platform == "win32":  # pragma: no cover - not Linux
        loader, dirs, names = ctypes.WinDLL, ["\\windows\\system32"], ["nvcuda.dll"]
    elif sys.platform == "darwin":  # pragma: no cover - not Linux
        loader, dirs, names = ctypes.CDLL, ["/usr/local/cuda/lib"], ["libcuda.dylib"]
    else:
        loader, dirs, names = ctypes.CDLL, ["/usr/lib", "/usr/lib64"], ["libcuda.so", "libcuda.so.1"]
    for path in names + [os.path.join(d, n) for d in dirs for n in names]:
        try:
            loader(path)
        except OSError:
            continue
        return True
    return False


def gpu_available() -> bool:
    """True when numba.cuda can reach a real CUDA device (the simulator does not count)."""
    if cuda_simulator_enabled() or not _driver_library_present():
        return False
    try:
        from numba import cuda
    except Exception:  # pragma: no cover - numba without any cuda module
        return False
    try:
        return bool(cuda.is_available())
    except Exception:  # pragma: no cover - broken driver installs
        return False


def _driver_device_count() -> int | None:
    """Devices the NVIDIA driver reports through libcuda (None: no driver library or cuInit fails)."""
    try:
        lib = ctypes.CDLL("libcuda.so.1") if os.name != "nt" else ctypes.WinDLL("nvcuda.dll")
    except OSError:
        return None
    try:
        if lib.cuInit(0) != 0:
            return None
        count = ctypes.c_int(0)
        if lib.cuDeviceGetCount(ctypes.byref(count)) != 0:
            return None
        return int(count.value)
    except Exception:  # pragma: no cover - exotic driver builds
        return None


def _toolkit_missing() -> list[str]:
    """The toolkit libraries (NVVM, NVRTC) that numba-cuda cannot find ([] when both are found)."""
    missing = []
    for lib in ("nvvm", "nvrtc"):
        found = False
        try:
            from cuda.pathfinder import load_nvidia_dynamic_lib

            load_nvidia_dynamic_lib(lib)
            found = True
        except Exception:
            found = ctypes.util.find_library(lib) is not None
        if not found:
            missing.append(lib.upper())
    return missing


def cuda_diagnosis() -> str:
    """One sentence on why numba.cuda cannot run kernels here ('' when a GPU is usable or the simulator is on)."""
    if cuda_simulator_enabled() or gpu_available():
        return ""
    try:
        import numba.cuda  # noqa: F401
    except Exception as exc:  # pragma: no cover - numba without any cuda module
        return f"numba.cuda cannot be imported ({exc}); install numba-cuda: pip install 'numba-cuda[cu12]'"
    count = _driver_device_count()
    if count is None:
        return "no NVIDIA driver is loaded here (libcuda not found or cuInit failed)"
    if count == 0:
        return "the NVIDIA driver is loaded but reports no CUDA device"
    missing = _toolkit_missing()
    if missing:
        return (f"the NVIDIA driver sees {count} GPU(s), but the CUDA toolkit libraries {' and '.join(missing)} are "
                f"missing, so numba-cuda cannot compile kernels: {TOOLKIT_HINT}")
    return (f"the NVIDIA driver sees {count} GPU(s) but numba.cuda.is_available() is False; run "
            "'python -c \"from numba import cuda; cuda.detect()\"' for numba-cuda's own diagnosis")


_WARNED = []


def _has_numba_cuda() -> bool:
    """True when numba.cuda is numba-cuda's target (the package numba_cuda), not numba's built-in one."""
    import importlib.util

    return importlib.util.find_spec("numba_cuda") is not None


def resolve_backend(backend: str) -> str:
    """Map a requested backend name to the one that will run, or raise ValueError."""
    if backend not in BACKENDS:
        raise ValueError(f"argument 'backend' must be one of {BACKENDS}, not {backend!r}")
    if backend in ("auto", "cuda") and gpu_available() and not _has_numba_cuda():
        msg = ("numba's built-in CUDA target is deprecated and cannot compile these kernels (max() in device code, "
               "kernels/training/two_layer.py): install numba-cuda: pip install 'numba-cuda[cu12]'")
        if backend == "cuda":
            raise ValueError(f"argument 'backend' = 'cuda': {msg}")
        if not _WARNED:
            _WARNED.append(True)
            warnings.warn(f"backend 'auto' runs on the CPU: {msg}", RuntimeWarning, stacklevel=2)
        return "cpu"
    if backend == "auto":
        if gpu_available():
            return "cuda"
        if not _WARNED and not cuda_simulator_enabled() and (_driver_device_count() or 0) > 0:
            _WARNED.append(True)  # a GPU the toolkit cannot use: say so once, then run on the CPU
            warnings.warn(f"backend 'auto' runs on the CPU: {cuda_diagnosis()}", RuntimeWarning, stacklevel=2)
        return "cpu"
    if backend == "cuda" and not (gpu_available() or cuda_simulator_enabled()):
        raise ValueError(
            f"argument 'backend' = 'cuda' needs a CUDA GPU that numba-cuda can use, or the simulator (set "
            f"NUMBA_ENABLE_CUDASIM=1 before starting Python); here {cuda_diagnosis()}"
        )
    return backend
