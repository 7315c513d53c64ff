"""numba.cuda twin of kernels/training/readout_sgd.py: one thread per run.

Each thread owns one run: its SplitMix64 stream, its readout u and its batch gradient v (columns of
(r, runs) device arrays, coalesced across a warp, since the width r is known only at run time).  The whole per-run body
(``_run_one``: SplitMix64 step, Lemire's bounded draw, the update, the population hinge loss) is the
``register_jitable`` function of the CPU kernel, compiled as a device function, so every sum runs in
the same index order as on the CPU.  Results can still differ from the CPU twin in the last bits where the GPU
compiler contracts a multiply and an add into one fused multiply-add; under the CUDA simulator
(Python semantics) they agree bit for bit.
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from ..training._readout_sgd_body import _run_one
from ._launch import threads_per_block

__all__ = ["sgd_cuda"]


@cuda.jit
def _sgd_kernel(features, labels, eta, steps, seeds, batch, checkpoints, exact_mean,
                U, V, ck_loss, mean_loss, online_loss):  # pragma: no cover - compiled
    s = cuda.grid(1)
    if s >= seeds.shape[0]:
        return
    feat = features[0] if features.shape[0] == 1 else features[s]
    lab = labels[0] if labels.shape[0] == 1 else labels[s]
    mean_loss[s], online_loss[s] = _run_one(feat, lab, eta, steps, seeds[s], batch, checkpoints, exact_mean,
                                            U[:, s], V[:, s], ck_loss[s])


def sgd_cuda(features, labels, eta, steps, seeds, batch, u0, checkpoints, exact_mean,
             u_out, ck_loss, mean_loss, online_loss) -> None:
    """Fill the host output arrays on the GPU; same contract as the CPU kernel ``_sgd_cpu``."""
    runs, r = seeds.shape[0], features.shape[2]
    # u and v as (r, runs): run s is column s, so a warp's accesses to entry i are coalesced
    d_u = cuda.to_device(np.ascontiguousarray(np.broadcast_to(u0, (runs, r)).T))
    d_v = cuda.device_array((r, runs), dtype=np.float64)
    d_ck = cuda.to_device(ck_loss)
    d_mean = cuda.device_array(runs, dtype=np.float64)
    d_online = cuda.device_array(runs, dtype=np.float64)
    tpb = threads_per_block(runs)
    _sgd_kernel[(runs + tpb - 1) // tpb, tpb](
        cuda.to_device(features), cuda.to_device(labels), float(eta), int(steps), cuda.to_device(seeds), int(batch),
        cuda.to_device(checkpoints), bool(exact_mean), d_u, d_v, d_ck, d_mean, d_online,
    )
    u_out[...] = d_u.copy_to_host().T
    d_ck.copy_to_host(ck_loss)
    d_mean.copy_to_host(mean_loss)
    d_online.copy_to_host(online_loss)
