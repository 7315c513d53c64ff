"""The per-run body of the readout SGD (kernels/training/readout_sgd.py), shared by its twins.

``_run_one`` (one SGD run: SplitMix64 step, Lemire's bounded draw, the update, the population hinge
loss) is a ``register_jitable`` function: the numba CPU driver (kernels/training/readout_sgd.py) and the
numba.cuda launcher (kernels/cuda/readout_sgd.py) compile this same code, and neither is imported here.
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from ..rng import splitmix64_next as _splitmix_next  # noqa: F401  (shared stream; see kernels/rng.py)
from ..rng import uniform_index as _uniform_index


# ---------------------------------------------------------------------------------------------
# shared scalar bodies (CPU and CUDA compile the same code)
# ---------------------------------------------------------------------------------------------


@register_jitable
def _population_loss(feat, lab, u):  # pragma: no cover - compiled
    """(1/N) sum_j max(0, 1 - y_j u . phi_j), sums in index order."""
    n_rows = feat.shape[0]
    r = feat.shape[1]
    total = 0.0
    for j in range(n_rows):
        m = 0.0
        for i in range(r):
            m += feat[j, i] * u[i]
        m = lab[j] * m
        if m < 1.0:
            total += 1.0 - m
    return total / n_rows


@register_jitable
def _run_one(feat, lab, eta, steps, state, batch, checkpoints, exact_mean, u, v, ck_row):  # pragma: no cover - compiled
    """One SGD run, the body shared by the CPU and CUDA twins: updates u in place, fills ck_row, and
    returns (mean exact loss or nan, mean online loss or nan)."""
    r = feat.shape[1]
    n_u = np.uint64(feat.shape[0])
    threshold = (np.uint64(4294967296) - n_u) % n_u
    scale = eta / batch
    n_ck = checkpoints.shape[0]
    c = 0
    acc = 0.0
    online = 0.0
    absorbed = False
    for t in range(steps):
        while c < n_ck and checkpoints[c] == t:
            ck_row[c] = _population_loss(feat, lab, u)
            absorbed = absorbed or ck_row[c] == 0.0
            c += 1
        if absorbed:
            break  # F(u) = 0: every margin >= 1, no later step changes u, acc or online
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
        ck_row[c] = _population_loss(feat, lab, u)
        c += 1
    if steps > 0:
        return (acc / steps if exact_mean else np.nan), online / (steps * batch)
    return np.nan, np.nan
