"""Imported by the forkserver of ``python -m verify.report -j N`` (verify/parallel.py ``worker_context``):
registers every claim once, so that each worker process forks with the whole registry already imported."""

import gc

from .registry import discover

discover()
# the registry is long-lived: moved out of the collector's generations, the forked workers' collections do not
# traverse it (nor write to its pages, which then stay shared with this server)
gc.freeze()
