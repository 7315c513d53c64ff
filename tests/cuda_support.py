"""The one marker of every CUDA-twin test: ``@cuda_test`` = ``pytest.mark.cuda`` + run where a CUDA twin
can run (a GPU that numba.cuda sees, else the simulator with NUMBA_ENABLE_CUDASIM=1), skip otherwise.
Agreement with the CPU twin: kernels.cuda.agreement (bit for bit under the simulator and for integer
kernels, an argued tolerance on hardware)."""

from __future__ import annotations

import pytest

from kernels.backend import cuda_simulator_enabled, gpu_available

CUDA_RUNNABLE = cuda_simulator_enabled() or gpu_available()
ON_GPU = CUDA_RUNNABLE and not cuda_simulator_enabled()


def cuda_test(fn):
    fn = pytest.mark.skipif(not CUDA_RUNNABLE, reason="CUDA twin: needs a GPU or NUMBA_ENABLE_CUDASIM=1")(fn)
    return pytest.mark.cuda(fn)
