"""numba.cuda twin of kernels/readout_sgd.py: one thread per run.

Each thread owns one run: its SplitMix64 stream, its readout u and its batch gradient v (rows of
device scratch arrays, since the width r is known only at run time).  The scalar bodies
(SplitMix64 step, Lemire's bounded draw, the population hinge loss) are the ``register_jitable``
functions of the CPU kernel, compiled as device functions, and every sum runs in the same index
order as on the CPU.  Results can still differ from the CPU twin in the last bits where the GPU
compiler contracts a multiply and an add into one fused multiply-add; under the CUDA simulator
(Python semantics) they agree bit for bit.
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from ..readout_sgd import _population_loss, _uniform_index

__all__ = ["sgd_cuda"]

_TPB = 64


@cuda.jit
def _sgd_kernel(features, labels, eta, steps, seeds, batch, checkpoints, exact_mean,
                U, V, ck_loss, mean_loss, online_loss):  # pragma: no cover - compiled
    s = cuda.grid(1)
    if s >= seeds.shape[0]:
        return
    fs = 0 if features.shape[0] == 1 else s
    ls = 0 if labels.shape[0] == 1 else s
    feat = features[fs]
    lab = labels[ls]
    u = U[s]
    v = V[s]
    r = feat.shape[1]
    n_u = np.uint64(feat.shape[0])
    threshold = (np.uint64(4294967296) - n_u) % n_u
    scale = eta / batch
    n_ck = checkpoints.shape[0]
    state = seeds[s]
    c = 0
    acc = 0.0
    online = 0.0
    absorbed = False
    for t in range(steps):
        while c < n_ck and checkpoints[c] == t:
            ck_loss[s, c] = _population_loss(feat, lab, u)
            absorbed = absorbed or ck_loss[s, c] == 0.0
            c += 1
        if absorbed:
            break  # F(u) = 0 is absorbing (see kernels/readout_sgd.py)
        for i in range(r):
            v[i] = 0.0
        for _ in range(batch):
            state, j = _uniform_index(state, n_u, threshold)
            m = 0.0
            for i in range(r):
                m += feat[j, i] * u[i]
            m = lab[j] * m
            if m < 1.0:
                online += 1.0 - m
                for i in range(r):
                    v[i] += lab[j] * feat[j, i]
        for i in range(r):
            u[i] += scale * v[i]
        if exact_mean:
            f_now = _population_loss(feat, lab, u)
            acc += f_now
            absorbed = f_now == 0.0
    while c < n_ck:
        ck_loss[s, c] = _population_loss(feat, lab, u)
        c += 1
    if steps > 0:
        mean_loss[s] = acc / steps if exact_mean else np.nan
        online_loss[s] = online / (steps * batch)
    else:
        mean_loss[s] = np.nan
        online_loss[s] = np.nan


def sgd_cuda(features, labels, eta, steps, seeds, batch, u0, checkpoints, exact_mean,
             u_out, ck_loss, mean_loss, online_loss) -> None:
    """Fill the host output arrays on the GPU; same contract as the CPU kernel ``_sgd_cpu``."""
    runs, r = seeds.shape[0], features.shape[2]
    d_u = cuda.to_device(np.ascontiguousarray(np.broadcast_to(u0, (runs, r))))
    d_v = cuda.device_array((runs, r), dtype=np.float64)
    d_ck = cuda.to_device(ck_loss)
    d_mean = cuda.device_array(runs, dtype=np.float64)
    d_online = cuda.device_array(runs, dtype=np.float64)
    grid = (runs + _TPB - 1) // _TPB
    _sgd_kernel[grid, _TPB](
        cuda.to_device(features), cuda.to_device(labels), float(eta), int(steps), cuda.to_device(seeds), int(batch),
        cuda.to_device(checkpoints), bool(exact_mean), d_u, d_v, d_ck, d_mean, d_online,
    )
    d_u.copy_to_host(u_out)
    d_ck.copy_to_host(ck_loss)
    d_mean.copy_to_host(mean_loss)
    d_online.copy_to_host(online_loss)
