"""The batched training engine: many small networks trained at once, one run per seed or
hyper-parameter row, on data generated inside the kernel.

Modules: ``two_layer`` and ``disjoint_polynet`` (below; shared per-run bodies in ``_two_layer_body`` and
``_disjoint_polynet_body``), ``induction``, ``attention`` and ``retrieval`` (batched trainers of the
sequence models of kernels.sequence), ``quadratic_margin``, ``readout_sgd`` (SGD of a linear readout on
fixed features, body ``_readout_sgd_body``) with ``hinge_opt`` (the certified minimum of the same hinge
loss), ``pareto_init`` (sparse first-layer initialisation for ``train_two_layer``), and ``icl_regression``
(in-context regression of random deep networks, seed 001 Appendix G; loop reference ``_icl_regression_ref``).

Architectures: ``two_layer`` (2-layer MLPs with any activation of kernels.activations, single
neurons with or without a second layer, PolyNets: settings (i)-(xv) of seed 004's Empirical Finding
5.1 except the transformer (*iii)) and
``disjoint_polynet`` (Section 5.4.2).  Shape shared by every architecture module:

* **Runs.** A call trains S independent runs.  Per-run inputs are rows (initialisation, learning
  rate, label noise, ...): a scalar or a length-1 leading axis is shared by all runs.  Every run has
  an explicit 64-bit seed.
* **Data inside the kernel.** Samples are never passed in: step t of run s draws its batch from the
  counter-based Philox stream ``kernels.rng.counter_u64(seed_s, t, index)``, a pure function of its
  position.  Hence the CPU and CUDA twins see identical batches, a run's result does not depend on the
  other runs or the thread count, and any run can be replayed alone (pass its seed and its rows).
* **Three twins, one signature** (``backend="auto" | "reference" | "cpu" | "cuda"``): a slow,
  obvious Python reference (the oracle of the property tests), a numba CPU kernel (``prange`` over
  runs; serial when there is little work) and a numba.cuda kernel (one thread per run).  The per-run
  bodies are ``register_jitable`` functions compiled for the CPU and the GPU; ``disjoint_polynet``
  shares one body (bit-identical twins), ``two_layer`` shares everything but the batch computation
  (the CPU forms the batch as a matrix for gemm, the GPU thread goes sample by sample), so its twins
  agree to rounding.  numba.cuda is imported only when the CUDA twin is first used.
* **Outputs.** A frozen result dataclass: final parameters, records at requested checkpoint steps,
  window statistics between checkpoints, whole-run diagnostics, and a divergence flag: a run whose
  parameters become non-finite or exceed ``OVERFLOW`` stops and is reported as diverged, never as a
  run that merely failed to converge.
* **Validation** before any work: ValueError naming the argument, the value and the allowed range
  (``kernels.training._common``).
"""

from ._common import OVERFLOW
from .disjoint_polynet import (
    LR_MODES,
    PolyNetSGDResult,
    adaptive_lr_constant,
    disjoint_polynet_sgd,
    disjoint_polynet_sgd_ref,
    sample_batch_ref,
)
from .two_layer import (
    INITS,
    LOSSES,
    OPTIMIZERS,
    SCHEDULES,
    TwoLayerResult,
    init_two_layer,
    n_params,
    parity_samples,
    train_polynet,
    train_two_layer,
)

__all__ = [
    "INITS",
    "LOSSES",
    "LR_MODES",
    "OPTIMIZERS",
    "OVERFLOW",
    "SCHEDULES",
    "PolyNetSGDResult",
    "TwoLayerResult",
    "adaptive_lr_constant",
    "disjoint_polynet_sgd",
    "disjoint_polynet_sgd_ref",
    "init_two_layer",
    "n_params",
    "parity_samples",
    "sample_batch_ref",
    "train_polynet",
    "train_two_layer",
]
