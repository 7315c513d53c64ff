"""Launching a one-thread-per-run kernel on host arrays (shared by the training twins).

Layout: a per-run state array given as (runs, ...) on the host can travel transposed, (..., runs) on
the device (``columns``), so that thread r's element p is at p * runs + r and a warp's 32 runs read 32
consecutive addresses (coalesced) instead of 32 addresses P elements apart.  The launcher transposes on
the way in and back, so callers see the same (runs, ...) arrays.

Launch shape: one thread per run in blocks of 32, 64 or 128 threads, the largest that still gives every
SM of the device at least two blocks (small run counts: 32-thread blocks, spread over the whole chip).
"""

from __future__ import annotations

import contextlib

import numpy as np
from numba import cuda

from ..backend import cuda_simulator_enabled

__all__ = ["fma_instructions", "launch_per_run", "no_fma_contraction", "threads_per_block"]


@contextlib.contextmanager
def no_fma_contraction():
    """Compile the kernels first launched inside this block with NVVM's ``-fma=0``: no multiply-add
    contraction, so every float operation is rounded on its own, as on the CPU (numba's CPU target never
    contracts), and a kernel whose operations are otherwise IEEE-exact (+ - * /, sqrt; no transcendental
    functions) computes the CPU's results bit for bit.

    numba-cuda 0.30 has no cuda.jit option for it (``fastmath`` only turns contraction on; its NVVM options
    are {'fastmath', 'opt'} and libNVVM's default is -fma=1), so this wraps
    ``numba.cuda.cudadrv.nvvm.compile_ir`` (the function numba-cuda's code library calls, through the module
    attribute, to turn a kernel's LLVM IR into PTX when the kernel is first compiled) and adds ``fma=False``
    (passed to NVVM as ``-fma=0``; NVVM then emits mul.rn / add.rn, which ptxas never fuses).  A kernel
    compiled before the block keeps its code (check with :func:`fma_instructions`).  Yields True when the
    option is in force, False under the simulator (nothing is compiled) or without that function.

    Measured on an H100 with numba-cuda 0.30.4 (benchmarks/gpu_runs/2026-11-26-h100-run2.json): the
    request did NOT take effect there (the PTX still held 8 fma instructions), so callers must not rely on
    it; the disjoint-PolyNet twin is compared by ``agreement.diverging_runs_agreement`` on hardware."""
    if cuda_simulator_enabled():
        yield False
        return
    try:
        from numba.cuda.cudadrv import nvvm
    except Exception:  # pragma: no cover - a numba-cuda without this module
        yield False
        return
    orig = getattr(nvvm, "compile_ir", None)
    if orig is None:  # pragma: no cover
        yield False
        return

    def compile_ir(llvmir, **options):
        options["fma"] = False
        return orig(llvmir, **options)

    nvvm.compile_ir = compile_ir
    try:
        yield True
    finally:
        nvvm.compile_ir = orig


def fma_instructions(kernel) -> int | None:
    """Number of fused multiply-add instructions (``fma.rn``) in the PTX of every compiled specialisation
    of a cuda.jit kernel; None under the simulator or when the PTX cannot be read."""
    if cuda_simulator_enabled():
        return None
    try:
        asm = kernel.inspect_asm()
    except Exception:  # pragma: no cover
        return None
    texts = asm.values() if isinstance(asm, dict) else [asm]
    return sum(str(t).count("fma.rn") for t in texts)


def _sm_count() -> int:
    try:
        return int(cuda.get_current_device().MULTIPROCESSOR_COUNT)
    except Exception:  # the simulator's device has no such attribute
        return 132


def threads_per_block(runs: int) -> int:
    """32, 64 or 128: the largest with ceil(runs / tpb) >= 2 x (number of SMs), else 32."""
    sms = _sm_count()
    for tpb in (128, 64):
        if runs >= 2 * sms * tpb:
            return tpb
    return 32


def launch_per_run(kernel, args: list, runs: int, threads_per_block_: int | None = None, columns=(),
                   grid: tuple | None = None, timing: dict | None = None) -> None:
    """Copy the array arguments to the device (those at the indices in ``columns`` transposed, run axis
    last), launch ceil(runs / tpb) blocks of tpb threads (thread r trains run r; or the launch shape
    ``grid`` = (blocks, threads) when given), and copy every array back into its host array in place.

    ``timing``: a dict that receives the seconds of the copies to the device (``h2d_s``), of the kernel
    alone on device-resident arrays (``kernel_s``) and of the copies back (``d2h_s``), by CUDA events (wall
    time under the simulator), and the launch shape."""
    import time

    from ..backend import cuda_simulator_enabled

    sim = cuda_simulator_enabled()
    tpb = threads_per_block_ or threads_per_block(runs)
    shape = grid or ((runs + tpb - 1) // tpb, tpb)
    cols = set(columns)

    def mark():
        if sim or timing is None:
            return time.perf_counter()
        ev = cuda.event()
        ev.record()
        return ev

    def seconds(a, b):
        if sim or timing is None:
            return b - a
        b.synchronize()
        return cuda.event_elapsed_time(a, b) / 1000.0

    m0 = mark()
    dev = []
    for i, a in enumerate(args):
        if not isinstance(a, np.ndarray):
            dev.append(a)
        elif i in cols:
            dev.append(cuda.to_device(np.ascontiguousarray(np.moveaxis(a, 0, -1))))
        else:
            dev.append(cuda.to_device(a))
    m1 = mark()
    kernel[shape](*dev)
    m2 = mark()
    for i, (host, d) in enumerate(zip(args, dev)):
        if isinstance(host, np.ndarray):
            if i in cols:
                host[...] = np.moveaxis(d.copy_to_host(), -1, 0)
            else:
                d.copy_to_host(host)
    m3 = mark()
    if timing is not None:
        timing.update(h2d_s=seconds(m0, m1), kernel_s=seconds(m1, m2), d2h_s=seconds(m2, m3), blocks=int(shape[0]),
                      threads_per_block=int(shape[1]))
