"""One-call check of every numba.cuda twin on a real GPU: ``PYTHONPATH=. python3 -m benchmarks.gpu_check``.

Runs, in order, each in its own try/except (an error is recorded and the check goes on), with the JSON
rewritten after every section (a kill leaves the sections done so far) and a global time budget
(``--budget-s``, default 400 s; later sections are recorded as skipped):

* env: GPU, driver, CUDA runtime, numba / numba-cuda versions, SM count, CPU cores;
* wht: float64 and int64 at n = 27 and 30, device-resident, timed by CUDA events against a
  device-to-device copy of the same bytes (targets: float64 n = 30 <= 2.5x the copy; int64 <= 1.2x
  float64), agreement with the CPU twin (int64 bit for bit, float64 within kernels.cuda.agreement, and
  recorded whether bit for bit: the fused schedule applies the bits in the reference's order); the fused
  two-pass schedule by default (``--wht-methods fused tiles`` adds the tiled one), and at n = 30 float64
  the fused kernel's shape variants (WHT_VARIANTS);
* two_layer: the (30, 3) parity, width 100, batch 32, 10^4 runs, float32 and float64, run-steps/s of the
  CUDA engine against the CPU engine on all cores (target >= 5x), agreement on a subset of runs;
* gf2 (10^5 matrices, bit for bit), population_gradient (n = 26), readout_sgd, disjoint_polynet (4096
  runs each), quadratic_margin (Z_23, Z_71): agreement and end-to-end times against the CPU twin;
* pytest: ``python -m pytest -n 0 -m cuda -x -q -p no:cacheprovider`` on the device (in one process: one GPU) (timeout, output tail).

Compilation is excluded from every timing (one warm-up call first).  ``--dry-run`` runs the same code at
tiny sizes (under the simulator when no GPU is visible: NUMBA_ENABLE_CUDASIM=1 must then be set before
Python starts, which tests/test_gpu_check.py does).  The JSON goes to ``--out`` (a directory; default
``$OUT``, else the current directory) as gpu_check.json; ``--write`` also stores
benchmarks/gpu_results.json and regenerates benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
import traceback
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
T0 = time.perf_counter()


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')} +{time.perf_counter() - T0:6.1f}s] {msg}", flush=True)


# ------------------------------------------------------------------------------------------------
# timing
# ------------------------------------------------------------------------------------------------


def gpu_seconds(fn, repeats: int = 3) -> float:
    """Best of ``repeats`` timings of fn() by CUDA events (fn launches device work; one untimed warm-up
    call first, which also compiles).  The simulator's events are unreliable: wall time there, and no
    warm-up (it compiles nothing, and each of its calls costs seconds of Python)."""
    from numba import cuda

    from kernels.backend import cuda_simulator_enabled

    if not cuda_simulator_enabled():
        fn()
        cuda.synchronize()
    best = float("inf")
    for _ in range(repeats):
        if cuda_simulator_enabled():
            t0 = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t0)
            continue
        start, stop = cuda.event(), cuda.event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        best = min(best, cuda.event_elapsed_time(start, stop) / 1000.0)
    return best


def wall_seconds(fn, repeats: int = 1, warmup: bool = True) -> float:
    if warmup:
        fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def timed(fn):
    """(wall seconds, result) of one call of fn() (compile it first with a small warm-up call)."""
    t0 = time.perf_counter()
    res = fn()
    return time.perf_counter() - t0, res


def agree(cuda_value, cpu_value, **kw) -> dict:
    from kernels.cuda.agreement import agreement

    return agreement(cuda_value, cpu_value, **kw)


# ------------------------------------------------------------------------------------------------
# sizes
# ------------------------------------------------------------------------------------------------

FULL = {
    "wht_n": (27, 30), "wht_repeats": 5, "pg_n": 26, "gf2": (100_000, 24, 48),
    "readout": (4096, 256, 64, 2000), "polynet": (4096, 3, 8, 2000),
    "two_layer": {"runs": 10_000, "gpu_steps": 200, "cpu_steps": 20, "check_runs": 256, "check_steps": 20},
    "qm": ((23, 46, 400), (71, 142, 40)), "pytest_timeout": 240,
}
DRY = {
    "wht_n": (8,), "wht_repeats": 1,  # one size: every schedule is one pass below n = 11 (the dry variant: two)
    "pg_n": 9, "gf2": (64, 5, 9),
    "readout": (8, 6, 3, 5), "polynet": (4, 2, 2, 5),
    "two_layer": {"runs": 2, "gpu_steps": 2, "cpu_steps": 2, "check_runs": 2, "check_steps": 2, "n": 10, "width": 5,
                  "variants": ("thread", "block"),  # block_nocap is the same code under the simulator
                  "dtypes": ("float64",), "cpu_backend": "reference"},
    # the dry run compares the two-layer CUDA twin with the numpy reference: compiling the CPU engine takes
    # 30-50 s per dtype, over the dry run's time box; the GPU run always compares with the CPU engine
    "qm": ((3, 2, 3),), "pytest_timeout": 120,
}


# ------------------------------------------------------------------------------------------------
# sections
# ------------------------------------------------------------------------------------------------


def section_env(cfg, dry) -> dict:
    import numba

    from kernels.backend import cuda_diagnosis, cuda_simulator_enabled, gpu_available

    out = {"python": platform.python_version(), "numpy": np.__version__, "numba": numba.__version__,
           "cpu_cores": os.cpu_count(), "numba_threads": numba.get_num_threads(),
           "simulator": cuda_simulator_enabled(), "gpu_available": gpu_available(), "diagnosis": cuda_diagnosis()}
    try:
        from importlib.metadata import version

        out["numba_cuda"] = version("numba-cuda")
    except Exception as exc:
        out["numba_cuda"] = f"not installed ({exc})"
    from numba import cuda

    if not cuda_simulator_enabled():
        dev = cuda.get_current_device()
        out["gpu"] = dev.name.decode() if isinstance(dev.name, bytes) else str(dev.name)
        out["compute_capability"] = list(dev.compute_capability)
        out["sm_count"] = int(dev.MULTIPROCESSOR_COUNT)
        try:
            out["driver_cuda_version"] = list(cuda.cudadrv.driver.driver.get_version())
        except Exception as exc:
            out["driver_cuda_version"] = str(exc)
        try:
            out["runtime_cuda_version"] = list(cuda.runtime.get_version())
        except Exception as exc:
            out["runtime_cuda_version"] = str(exc)
        free, total = cuda.current_context().get_memory_info()
        out["gpu_memory_gib"] = round(total / 2**30, 1)
        try:
            smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,clocks.max.sm,memory.total",
                                  "--format=csv,noheader"], capture_output=True, text=True, timeout=20)
            out["nvidia_smi"] = smi.stdout.strip()
        except Exception as exc:
            out["nvidia_smi"] = str(exc)
    else:
        out["gpu"] = "CUDA simulator"
    return out


def _tiled(n: int, dtype, seed: int) -> np.ndarray:
    """Length-2^n test data, fast to make at 2^30: 2^20 random values tiled with per-tile signs."""
    rng = np.random.default_rng(seed)
    m = min(n, 20)
    base = rng.standard_normal(1 << m) if dtype == np.float64 else rng.integers(-8, 9, size=1 << m)
    a = np.tile(base.astype(dtype), 1 << (n - m))
    if n > m:
        a.reshape(1 << (n - m), 1 << m)[rng.random(1 << (n - m)) < 0.5] *= -1
    return a


#: shapes of the fused WHT timed at the largest n (float64) besides the default, to choose the default from
#: measurements (keyword arguments of kernels.cuda.wht_fused.wht_inplace_cuda_fused; "lag_factor" scales
#: the default lag)
WHT_VARIANTS = [{"max_registers": 80}, {"tpb": 128}, {"lag_factor": 3}]
WHT_VARIANTS_DRY = [{"tile_bits": 5, "radix_bits": 2, "tpb": 16, "blocks_per_sm": 1, "lag_factor": 2}]


def _kernel_resources() -> dict:
    """Registers and local memory per thread of every compiled fused-WHT kernel (None where unreadable)."""
    from kernels.cuda import wht_fused

    out = {}
    for key, k in wht_fused._KERNELS.items():
        if not hasattr(k, "get_regs_per_thread"):
            continue
        try:
            regs = k.get_regs_per_thread()
            local = k.get_local_mem_per_thread()
        except Exception as exc:  # the simulator, or no compiled specialisation
            regs, local = None, type(exc).__name__
        as_json = lambda v: {str(s): x for s, x in v.items()} if isinstance(v, dict) else v  # noqa: E731
        out[str(key)] = {"regs_per_thread": as_json(regs), "local_bytes_per_thread": as_json(local)}
    return out


def section_wht(cfg, dry) -> dict:
    """Both CUDA schedules ("fused": two passes up to n = 30; "tiles": three) at each n and dtype, timed by
    CUDA events against a device-to-device copy of the same bytes; agreement with the CPU twin; at the
    largest n, float64, the fused kernel's shape variants (``WHT_VARIANTS``)."""
    from numba import cuda

    from kernels.boolean._wht_cpu import wht_inplace_cpu
    from kernels.cuda.wht import cuda_pass_schedule, wht_inplace_cuda
    from kernels.cuda.wht_fused import fused_pass_schedule, wht_inplace_cuda_fused

    out = {}
    big = max(cfg["wht_n"])
    for n in cfg["wht_n"]:
        for dtype in (np.float64, np.int64):
            a = _tiled(n, dtype, n)
            ref = a.copy()
            t_cpu = wall_seconds(lambda: wht_inplace_cpu(ref), 1, warmup=False)  # compiled by the n = small warm-up
            # float64: n butterfly stages; each output's rounding error <= n u sum |a| (partial sums
            # bounded by sum |a|): growth = sum |a| / max |result| turns that into kernels.cuda.agreement's scale
            growth = float(np.sum(np.abs(a), dtype=np.float64)) / max(1.0, float(np.max(np.abs(ref)))) if dtype == np.float64 else 1.0
            d = cuda.to_device(a)
            copy = cuda.device_array_like(d)
            t_copy = gpu_seconds(lambda: copy.copy_to_device(d), cfg["wht_repeats"])
            for method in cfg.get("wht_methods") or (("fused", "tiles") if dry else ("fused",)):
                key = f"n{n}_{np.dtype(dtype).name}" + ("" if method == "fused" else "_tiles")
                log(f"wht {key}")
                t_wht = gpu_seconds(lambda: wht_inplace_cuda(d, method=method), cfg["wht_repeats"])
                # agreement: transform a fresh copy once
                copy.copy_to_device(cuda.to_device(a))
                info = {}
                wht_inplace_cuda(copy, method=method, info=info)
                got = copy.copy_to_host()
                ag = agree(got, ref, depth=n, growth=growth)
                ag["bit_for_bit"] = bool(np.array_equal(got, ref))
                passes = len(fused_pass_schedule(n) if method == "fused" else cuda_pass_schedule(n))
                log(f"  {key}: {t_wht:.5f} s, {t_wht / t_copy:.2f}x the copy ({t_copy:.5f} s), agrees {ag['ok']}, "
                    f"bit for bit {ag['bit_for_bit']}, launch {info.get('passes')}")
                out[key] = {"n": n, "dtype": np.dtype(dtype).name, "method": method, "bytes": int(a.nbytes),
                            "gpu_s": t_wht, "copy_s": t_copy, "ratio_to_copy": t_wht / t_copy, "passes": passes,
                            "launch": info.get("passes"), "cpu_s": t_cpu, "speedup_vs_cpu": t_cpu / t_wht, "agreement": ag}
                del got
            if dtype == np.float64 and n == (min(cfg["wht_n"]) if dry else big):
                variants = WHT_VARIANTS_DRY if dry else WHT_VARIANTS
                rows = []
                for variant in variants:
                    log(f"wht variant {variant}")
                    kw = {k: v for k, v in variant.items() if k != "lag_factor"}
                    try:
                        info = {}
                        wht_inplace_cuda_fused(d, info=info, **kw)
                        if "lag_factor" in variant:
                            kw["lag"] = variant["lag_factor"] * info["passes"][0]["lag"]
                        t = gpu_seconds(lambda: wht_inplace_cuda_fused(d, **kw), cfg["wht_repeats"])
                        # timing only (8 GiB comparisons cost ~30 s each): the default shape's agreement is
                        # checked above, and every shape's by tests/kernels/test_wht_fused.py
                        rows.append(dict(variant, passes=len(info["passes"]), launch=info["passes"], gpu_s=t,
                                         ratio_to_copy=t / t_copy))
                        log(f"  variant: {t:.5f} s, {t / t_copy:.2f}x the copy, launch {info['passes']}")
                    except Exception as exc:
                        rows.append(dict(variant, error=f"{type(exc).__name__}: {exc}"[:500]))
                        log(f"  variant: ERROR {type(exc).__name__}: {exc}")
                out["variants_n_float64"] = {"n": n, "rows": rows}
            del d, copy, a, ref
    out["kernel_resources"] = _kernel_resources()
    f, i = out.get(f"n{big}_float64"), out.get(f"n{big}_int64")
    if f and i:
        out["targets"] = {"float64_ratio_to_copy<=2.5": f["ratio_to_copy"] <= 2.5,
                          "int64_over_float64<=1.2": i["gpu_s"] / f["gpu_s"] <= 1.2,
                          "float64_ratio_to_copy": f["ratio_to_copy"],
                          "int64_over_float64": i["gpu_s"] / f["gpu_s"]}
    return out


def _two_layer(backend, runs, steps, dtype, kw, variant=None):
    from kernels.training.two_layer import train_two_layer

    if backend != "cuda":
        return train_two_layer(kw.get("n", 30), 3, width=kw.get("width", 100), seeds=np.arange(runs, dtype=np.uint64),
                               steps=steps, batch=32, lr=0.05, eval_every=steps, n_eval=128, dtype=dtype, backend=backend)
    import kernels.cuda.training_two_layer as T

    old, T.VARIANT = T.VARIANT, (variant or T.VARIANT)
    try:
        return train_two_layer(kw.get("n", 30), 3, width=kw.get("width", 100), seeds=np.arange(runs, dtype=np.uint64),
                               steps=steps, batch=32, lr=0.05, eval_every=steps, n_eval=128, dtype=dtype, backend=backend)
    finally:
        T.VARIANT = old


def section_two_layer(cfg, dry) -> dict:
    import kernels.cuda.training_two_layer as T

    c = cfg["two_layer"]
    variants = cfg.get("two_layer_variants") or c.get("variants", T.VARIANTS)
    out = {"variants": list(variants), "default_variant": T.VARIANT}
    for dtype in c.get("dtypes", ("float32", "float64")):
        cpu = c.get("cpu_backend", "cpu")
        log(f"two_layer {dtype}: CPU twin on {c['check_runs']} runs x {c['check_steps']} steps")
        p = _two_layer(cpu, c["check_runs"], c["check_steps"], dtype, c)
        log(f"two_layer {dtype}: timing the CPU engine, {c['runs']} runs x {c['cpu_steps']} steps")
        t_cpu = wall_seconds(lambda: _two_layer(cpu, c["runs"], c["cpu_steps"], dtype, c), 1, warmup=False)
        r_cpu = c["runs"] * c["cpu_steps"] / t_cpu
        res = {"cpu_backend": cpu, "runs": c["runs"], "gpu_steps": c["gpu_steps"], "cpu_steps": c["cpu_steps"],
               "cpu_s": t_cpu, "cpu_run_steps_per_s": r_cpu}
        for variant in variants:
            try:  # one variant's failure (recorded) does not cost the others' results
                res[variant] = _two_layer_variant(c, dtype, variant, p, r_cpu)
            except Exception as exc:
                res[variant] = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()[-2000:]}
                log(f"two_layer {dtype} [{variant}]: ERROR {type(exc).__name__}: {exc}")
        ok = [v for v in variants if "error" not in res[v]]
        if not ok:
            raise RuntimeError(f"every two-layer CUDA variant failed: {[res[v]['error'] for v in variants]}")
        best = max(ok, key=lambda v: res[v]["gpu_run_steps_per_s"])
        # the headline fields (RESULTS.md rows, summary) are the fastest variant's
        res.update({k: res[best][k] for k in ("gpu_s", "kernel_s", "gpu_run_steps_per_s", "device_resident_run_steps_per_s",
                                               "speedup", "speedup_device_resident", "target_speedup>=5", "agreement",
                                               "runs_within_tolerance", "agreement_ok", "discrete_equal")})
        res["best_variant"] = best
        out[dtype] = res
    return out


def _two_layer_variant(c, dtype, variant, p, r_cpu) -> dict:
    """Agreement with the CPU twin's result ``p`` and the timing of one two-layer CUDA kernel variant."""
    import kernels.cuda.training_two_layer as T

    log(f"two_layer {dtype} [{variant}]: compile + agreement on {c['check_runs']} runs x {c['check_steps']} steps")
    g = _two_layer("cuda", c["check_runs"], c["check_steps"], dtype, c, variant)
    ran = T.LAST.get("variant")
    # each parameter after T steps: a chain of ~T (n B + r) operations; the hinge loss is piecewise
    # linear, so between kinks a perturbation grows at most linearly in T (growth T + 1).  A rounding
    # difference can push one sample across the hinge (or ReLU) kink and change a run discretely:
    # agreement counts the runs within tolerance; a few runs (<= 1%) may differ for that reason.
    depth = c["check_steps"] * (c.get("n", 30) * 32 + c.get("width", 100))
    # the CUDA bodies go sample by sample (the block kernel also sums f over its threads), the CPU body
    # by gemm: other summation orders, so a tolerance even under the simulator (exact=False)
    tol = dict(depth=depth, growth=c["check_steps"] + 1, exact=False)
    per_run = [agree(g.theta[q], p.theta[q], **tol)["ok"] for q in range(g.theta.shape[0])]
    frac = float(np.mean(per_run))
    log(f"two_layer {dtype} [{variant}]: timing {c['runs']} runs x {c['gpu_steps']} steps")
    t_gpu = wall_seconds(lambda: _two_layer("cuda", c["runs"], c["gpu_steps"], dtype, c, variant), 1, warmup=False)
    last = dict(T.LAST)
    r_gpu = c["runs"] * c["gpu_steps"] / t_gpu
    r_dev = c["runs"] * c["gpu_steps"] / last["kernel_s"]
    return {
        "variant_ran": ran, "gpu_s": t_gpu, "kernel_s": last["kernel_s"], "h2d_s": last["h2d_s"],
        "d2h_s": last["d2h_s"], "launch": [last["blocks"], last["threads_per_block"]],
        "gpu_run_steps_per_s": r_gpu, "device_resident_run_steps_per_s": r_dev,
        "speedup": r_gpu / r_cpu, "speedup_device_resident": r_dev / r_cpu,
        "target_speedup>=5": r_gpu / r_cpu >= 5.0, "agreement": agree(g.theta, p.theta, **tol),
        "runs_within_tolerance": frac, "agreement_ok": frac >= 0.99,
        "discrete_equal": {f: float(np.mean(getattr(g, f) == getattr(p, f)))
                           for f in ("converged_at", "diverged_at", "steps_done")},
        "note": "gpu_s: end-to-end call (host<->device copies of the state included); kernel_s: the kernel "
                "alone on device-resident state (CUDA events)"}


def section_gf2(cfg, dry) -> dict:
    from kernels.algebra.gf2 import gf2_eliminate

    B, m, n = cfg["gf2"]
    bits = (np.random.default_rng(1).random((B, m, n)) < 0.5).astype(np.uint8)
    for be in ("cuda", "cpu"):  # compile
        gf2_eliminate(bits[:64], backend=be)
    t_gpu, a = timed(lambda: gf2_eliminate(bits, backend="cuda"))
    t_cpu, b = timed(lambda: gf2_eliminate(bits, backend="cpu"))
    fields = ("reduced", "rank", "pivots", "xors", "swaps", "bit_ops", "word_ops")
    ags = {f: agree(getattr(a, f), getattr(b, f), exact=True) for f in fields}
    return {"batch": B, "shape": [m, n], "gpu_s": t_gpu, "cpu_s": t_cpu, "speedup": t_cpu / t_gpu,
            "bit_for_bit": all(v["ok"] for v in ags.values()), "agreement": ags}


def section_population_gradient(cfg, dry) -> dict:
    from kernels.activations import Activation
    from kernels.boolean.population_gradient import population_gradient

    n = cfg["pg_n"]
    rng = np.random.default_rng(2)
    w = rng.standard_normal(n) / np.sqrt(n)
    act = Activation.relu()
    for be in ("cuda", "cpu"):  # compile (c = 8 low bits from n >= 8 on)
        population_gradient(w[:9], 0.1, 0b111, act, backend=be)
    t_gpu, a = timed(lambda: population_gradient(w, 0.1, 0b111, act, backend="cuda"))
    t_cpu, b = timed(lambda: population_gradient(w, 0.1, 0b111, act, backend="cpu"))
    # means of 2^n terms |phi| <= sum|w| + |b| summed in different orders (not only FMA): error <= 2^n u M per
    # twin relative to the mean's scale; kernels.cuda.agreement scales by max(1, max|g|), so growth = 2 (2^n M / 2^n)
    M = float(np.abs(w).sum() + 0.1)
    ag = agree(np.append(a.g, a.g0), np.append(b.g, b.g0), depth=2.0 ** n / 2.0 ** n * (n + 256), growth=2 * M, exact=False)
    return {"n": n, "gpu_s": t_gpu, "cpu_s": t_cpu, "speedup": t_cpu / t_gpu, "agreement": ag}


def section_readout(cfg, dry) -> dict:
    from kernels.training.readout_sgd import readout_sgd

    runs, rows, r, steps = cfg["readout"]
    rng = np.random.default_rng(3)
    phi = rng.standard_normal((rows, r)) / np.sqrt(r)
    y = rng.choice(np.array([-1.0, 1.0]), rows)
    kw = dict(eta=0.05, steps=steps, seeds=np.arange(runs, dtype=np.uint64), batch=4, checkpoints=[steps])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for be in ("cuda", "cpu"):  # compile
            readout_sgd(phi, y, backend=be, **dict(kw, steps=2, seeds=kw["seeds"][:2], checkpoints=[2]))
        t_gpu, a = timed(lambda: readout_sgd(phi, y, backend="cuda", **kw))
        t_cpu, b = timed(lambda: readout_sgd(phi, y, backend="cpu", **kw))
    depth = (steps + 1) * (r + 2) * (4 + rows)  # as argued in tests/kernels/test_readout_sgd.py
    ags = {f: agree(getattr(a, f), getattr(b, f), depth=depth) for f in ("u", "checkpoint_loss", "mean_loss", "online_loss")}
    return {"runs": runs, "rows": rows, "r": r, "steps": steps, "gpu_s": t_gpu, "cpu_s": t_cpu, "speedup": t_cpu / t_gpu,
            "agreement_ok": all(v["ok"] for v in ags.values()), "agreement": ags}


def section_polynet(cfg, dry) -> dict:
    from kernels.cuda.agreement import diverging_runs_agreement
    from kernels.cuda.training_disjoint_polynet import fma_count
    from kernels.training.disjoint_polynet import _FIELDS, disjoint_polynet_sgd

    runs, k, n1, steps = cfg["polynet"]
    w0 = np.random.default_rng(4).choice(np.array([-1.0, 1.0]), size=(k, n1))
    kw = dict(steps=steps, seeds=np.arange(runs, dtype=np.uint64), lr=0.01, lr_mode="constant", batch=2,
              checkpoints=[steps])
    for be in ("cuda", "cpu"):  # compile
        disjoint_polynet_sgd(w0, backend=be, **dict(kw, steps=2, seeds=kw["seeds"][:2], checkpoints=[2]))
    t_gpu, a = timed(lambda: disjoint_polynet_sgd(w0, backend="cuda", **kw))
    t_cpu, b = timed(lambda: disjoint_polynet_sgd(w0, backend="cpu", **kw))
    # The kernel is compiled without FMA contraction (kernels/cuda/training_disjoint_polynet.py), so every
    # field should agree bit for bit on hardware too (run 1, with contraction: 7% of the runs outside the
    # rounding tolerance, near their blow-up).  Besides that, the classified comparison of
    # kernels.cuda.agreement.diverging_runs_agreement, the rule for dynamics that blow up: bounded runs within
    # the rounding tolerance, diverged runs diverging on both twins at steps at most 2 apart.
    fields = {f: (getattr(a, f), getattr(b, f)) for f in _FIELDS if getattr(a, f) is not None}
    same = {f: bool(np.array_equal(x, y, equal_nan=True)) for f, (x, y) in fields.items()}
    # depth: 8 k n' B rounded operations per step; growth: T steps of injected rounding, each amplified by
    # the blow-up factor (M / M0)^(k - 2) of v' = eta v^(k-1) (M: the run's largest |w| on either twin,
    # M0 = min |w0| = 1 here): tolerance SAFETY depth u T M^(k-2) max(1, M)
    depth = 8 * k * n1 * 2 * steps
    with np.errstate(invalid="ignore", over="ignore"):
        scale = np.nanmax(np.abs(np.concatenate([a.w.reshape(runs, -1), b.w.reshape(runs, -1)], axis=1)), axis=1)
    growth = steps * np.maximum(1.0, np.nan_to_num(scale, nan=1.0, posinf=1e300)) ** max(0, k - 2)
    classified = diverging_runs_agreement(a.w, b.w, a.diverged_at, b.diverged_at, steps=steps, depth=depth, growth=growth)
    per_run = [agree(a.w[q], b.w[q], depth=depth, growth=steps)["ok"] for q in range(runs)]
    bit = all(same.values())
    return {"runs": runs, "k": k, "n1": n1, "steps": steps, "gpu_s": t_gpu, "cpu_s": t_cpu, "speedup": t_cpu / t_gpu,
            "ptx_fma_instructions": fma_count(), "bit_for_bit": bit, "fields_equal": same,
            "classified": classified, "agreement_ok": bool(bit or classified["ok"]),
            "runs_within_tolerance": float(np.mean(per_run)), "agreement_w": agree(a.w, b.w, depth=depth, growth=steps),
            "diverged_at_equal": bool(np.array_equal(a.diverged_at, b.diverged_at)),
            "diverged_runs": [int(np.count_nonzero(a.diverged)), int(np.count_nonzero(b.diverged))]}


def section_quadratic_margin(cfg, dry) -> dict:
    from kernels.algebra import margin as K
    from kernels.training.quadratic_margin import train_quadratic_margin

    out = {}
    for p, m, steps in cfg["qm"]:
        kw = dict(steps=steps, lr=0.05, weight_decay=1e-4, seed=1, record_every=max(1, steps // 4))
        log(f"quadratic_margin Z_{p}, m = {m}, {steps} steps")
        tab = K.cyclic_table(p)
        train_quadratic_margin(tab, m, backend="cuda", **dict(kw, steps=1))  # compile
        t0 = time.perf_counter()
        a = train_quadratic_margin(tab, m, backend="cuda", **kw)
        t_gpu = time.perf_counter() - t0
        t0 = time.perf_counter()
        b = train_quadratic_margin(tab, m, backend="cpu", **kw)
        t_cpu = time.perf_counter() - t0
        # full-batch GD, each step sums p^2 pairs x p labels x m neurons: depth p^2 m per step, growth = steps;
        # the CUDA twin sums in another order than the CPU loops (exact=False even under the simulator)
        depth = p * p * m
        out[f"Z{p}"] = {"p": p, "m": m, "steps": steps, "gpu_s": t_gpu, "cpu_s": t_cpu, "speedup": t_cpu / t_gpu,
                        "diverged_at": [a.diverged_at, b.diverged_at],
                        "agreement": {x: agree(getattr(a, x), getattr(b, x), depth=depth, growth=steps + 1,
                                                 exact=False) for x in ("U", "V", "W", "loss", "normalized_margin")}}
    return out


def section_pytest(cfg, dry, timeout: float) -> dict:
    cmd = [sys.executable, "-m", "pytest", "-n", "0", "-m", "cuda", "-x", "-q", "-p", "no:cacheprovider", "tests/kernels",
           "tests/max_margin"]
    if dry:  # the machinery only: collect one file's CUDA tests
        cmd = cmd[:-2] + ["--collect-only", "tests/kernels/test_gf2.py"]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=env)
        tail = (proc.stdout + proc.stderr)[-4000:]
        rc = proc.returncode
    except subprocess.TimeoutExpired as exc:
        tail = ((exc.stdout or b"").decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or ""))[-4000:]
        rc = "timeout"
    return {"command": " ".join(cmd[1:]), "returncode": rc, "seconds": time.perf_counter() - t0,
            "timeout_s": timeout, "tail": tail}


#: rough seconds each section needs on an H100 box, JIT included: a section is skipped (and recorded as
#: such) when less budget than that is left, so the whole check stays within --budget-s plus one section
ESTIMATE_S = {"env": 5, "wht": 150, "two_layer": 150, "gf2": 20, "population_gradient": 15, "readout_sgd": 25,
              "disjoint_polynet": 25, "quadratic_margin": 40, "pytest": 45}
SECTIONS = ["env", "wht", "two_layer", "gf2", "population_gradient", "readout_sgd", "disjoint_polynet",
            "quadratic_margin", "pytest"]


def run(*, dry: bool = False, budget_s: float = 400.0, out_dir: Path | None = None, only=None,
        two_layer_variants=None, wht_methods=None) -> dict:
    cfg = dict(DRY if dry else FULL, two_layer_variants=two_layer_variants, wht_methods=wht_methods)
    warnings.simplefilter("ignore")  # numba's performance notes (e.g. small grids in the dry run)
    out_dir = Path(out_dir or os.environ.get("OUT") or ".")
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "gpu_check.json"
    data = {"title": "CUDA twins on a GPU (benchmarks.gpu_check)", "command": "python -m benchmarks.gpu_check --write",
            "date": time.strftime("%Y-%m-%d %H:%M:%S"), "dry_run": dry, "budget_s": budget_s, "sections": {},
            "errors": {}, "skipped": []}
    fns = {"env": section_env, "wht": section_wht, "two_layer": section_two_layer, "gf2": section_gf2,
           "population_gradient": section_population_gradient, "readout_sgd": section_readout,
           "disjoint_polynet": section_polynet, "quadratic_margin": section_quadratic_margin}
    if not dry:  # compile the CPU WHT once at a small size (its timing uses it without a warm-up)
        try:
            from kernels.boolean._wht_cpu import wht_inplace_cpu

            wht_inplace_cpu(np.zeros(1 << 14))
            wht_inplace_cpu(np.zeros(1 << 14, dtype=np.int64))
        except Exception:
            pass
    for name in SECTIONS:
        if only and name not in only:
            continue
        left = budget_s - (time.perf_counter() - T0)
        need = 0 if dry else ESTIMATE_S[name]
        if left <= need:
            log(f"{name}: skipped ({left:.0f} s of the {budget_s:.0f} s budget left, the section needs ~{need} s)")
            data["skipped"].append(name)
            path.write_text(json.dumps(data, indent=1, default=_json_default) + "\n")
            continue
        log(f"{name}: start ({left:.0f} s of budget left)")
        t0 = time.perf_counter()
        try:
            if name == "pytest":
                res = section_pytest(cfg, dry, timeout=min(cfg["pytest_timeout"], left))
            else:
                res = fns[name](cfg, dry)
            res["section_s"] = time.perf_counter() - t0
            data["sections"][name] = res
            log(f"{name}: done in {res['section_s']:.1f} s")
        except Exception as exc:
            data["errors"][name] = f"{type(exc).__name__}: {exc}\n{traceback.format_exc()[-3000:]}"
            log(f"{name}: ERROR {type(exc).__name__}: {exc}")
        path.write_text(json.dumps(data, indent=1, default=_json_default) + "\n")
    data["total_s"] = time.perf_counter() - T0
    data["summary"] = summary(data)
    path.write_text(json.dumps(data, indent=1, default=_json_default) + "\n")
    log(f"wrote {path}")
    return data


def _json_default(x):
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    return str(x)


def summary(data) -> list[str]:
    s = data["sections"]
    lines = []
    w = s.get("wht", {}).get("targets")
    if w:
        ratio = f" ({w['float64_ratio_to_copy']:.2f}x, fused two-pass schedule)" if "float64_ratio_to_copy" in w else ""
        lines.append(f"WHT: float64 ratio to copy <= 2.5: {w['float64_ratio_to_copy<=2.5']}{ratio}; int64/float64 = "
                     f"{w['int64_over_float64']:.2f} (<= 1.2: {w['int64_over_float64<=1.2']})")
    var = s.get("wht", {}).get("variants_n_float64")
    if var:
        parts = []
        for row in var["rows"]:
            shape = ", ".join(f"{k} {v}" for k, v in row.items() if k not in ("passes", "launch", "gpu_s", "ratio_to_copy", "error", "lag"))
            parts.append(f"{shape}: " + (f"{row['ratio_to_copy']:.2f}x" if "ratio_to_copy" in row else "launch failed"))
        lines.append(f"WHT n = {var['n']} float64, fused shapes besides the default (ratio to the copy): " + "; ".join(parts))
    for dt, r in s.get("two_layer", {}).items():
        if isinstance(r, dict) and "speedup" in r:
            var = f" [{r['best_variant']} kernel]" if "best_variant" in r else ""
            dev = f", {r['speedup_device_resident']:.1f}x on device-resident state" if "speedup_device_resident" in r else ""
            lines.append(f"two-layer {dt}{var}: {r['speedup']:.1f}x the CPU engine end to end{dev} (>= 5: "
                         f"{r['target_speedup>=5']}); runs within tolerance {r['runs_within_tolerance']:.3f}")
            for v in ("thread", "block", "block_nocap"):
                if isinstance(r.get(v), dict) and "error" in r[v]:
                    lines.append(f"  {v} kernel: ERROR {r[v]['error']}")
                elif isinstance(r.get(v), dict):
                    x = r[v]
                    lines.append(f"  {v} kernel: {x['gpu_run_steps_per_s']:.0f} run-steps/s end to end, "
                                 f"{x['device_resident_run_steps_per_s']:.0f} device-resident; runs within tolerance "
                                 f"{x['runs_within_tolerance']:.3f}")
    pn = s.get("disjoint_polynet")
    if pn and "classified" in pn:
        c = pn["classified"]
        lines.append(f"disjoint-PolyNet: bit for bit {pn['bit_for_bit']} (PTX fma instructions: {pn['ptx_fma_instructions']}); "
                     f"bounded on both {c['bounded_within_tolerance']}/{c['bounded_both']} within tolerance, diverged on "
                     f"both {c['diverged_both_within_slack']}/{c['diverged_both']} within {c['step_slack']} steps, on one "
                     f"only {c['diverged_one_only']}; agreement {pn['agreement_ok']}")
    if "gf2" in s:
        lines.append(f"GF(2): bit for bit {s['gf2']['bit_for_bit']}, {s['gf2']['speedup']:.1f}x CPU")
    if data["errors"]:
        lines.append("errors in: " + ", ".join(data["errors"]))
    if data["skipped"]:
        lines.append("skipped: " + ", ".join(data["skipped"]))
    return lines


def rows_for_results(data) -> tuple[list[dict], list[str], str]:
    """(rows, notes, machine) for benchmarks/RESULTS.md."""
    env = data["sections"].get("env", {})
    machine = f"{env.get('gpu', '?')} ({env.get('nvidia_smi', '')}), numba-cuda {env.get('numba_cuda', '?')}, {env.get('cpu_cores')} CPU cores"
    rows = []
    for key, r in data["sections"].get("wht", {}).items():
        if isinstance(r, dict) and "gpu_s" in r:
            method = f", {r['method']} schedule, {r['passes']} passes" if "method" in r else ""
            rows.append({"name": f"WHT {r['dtype']} n = {r['n']}{method} (device-resident)", "seconds": r["gpu_s"],
                         "ratio": r["ratio_to_copy"], "vs": "device-to-device copy", "agrees": r["agreement"]["ok"]})
    for dt, r in data["sections"].get("two_layer", {}).items():
        if not (isinstance(r, dict) and "speedup" in r):
            continue
        for v in ("thread", "block", "block_nocap"):
            x = r.get(v)
            if isinstance(x, dict) and "gpu_s" in x:
                rows.append({"name": f"two-layer engine {dt}, {r['runs']} runs, {v} kernel", "seconds": x["gpu_s"],
                             "run_steps_per_s": x["gpu_run_steps_per_s"], "ratio": x["speedup"],
                             "vs": "CPU engine, all cores", "agrees": x["agreement_ok"]})
                rows.append({"name": f"two-layer engine {dt}, {r['runs']} runs, {v} kernel, device-resident",
                             "seconds": x["kernel_s"], "run_steps_per_s": x["device_resident_run_steps_per_s"],
                             "ratio": x["speedup_device_resident"], "vs": "CPU engine, all cores", "agrees": x["agreement_ok"]})
        if not any(isinstance(r.get(v), dict) for v in ("thread", "block", "block_nocap")):  # a JSON of before the variants
            rows.append({"name": f"two-layer engine {dt}, {r['runs']} runs", "seconds": r["gpu_s"],
                         "run_steps_per_s": r["gpu_run_steps_per_s"], "ratio": r["speedup"], "vs": "CPU engine, all cores",
                         "agrees": r["agreement_ok"]})
    for name in ("gf2", "population_gradient", "readout_sgd", "disjoint_polynet"):
        r = data["sections"].get(name)
        if r and "speedup" in r:
            if name == "disjoint_polynet":
                ok = "bit for bit" if r.get("bit_for_bit") else r.get("agreement_ok", r.get("runs_within_tolerance"))
            else:
                ok = r.get("bit_for_bit", r.get("agreement_ok", r.get("agreement", {}).get("ok", r.get("runs_within_tolerance"))))
            rows.append({"name": name, "seconds": r["gpu_s"], "ratio": r["speedup"], "vs": "CPU twin", "agrees": ok})
    for key, r in data["sections"].get("quadratic_margin", {}).items():
        if isinstance(r, dict) and "speedup" in r:
            rows.append({"name": f"quadratic margin {key}", "seconds": r["gpu_s"], "ratio": r["speedup"], "vs": "CPU twin",
                         "agrees": all(v["ok"] for v in r["agreement"].values())})
    notes = list(data.get("summary", [])) + [
        "ratio: CUDA speed-up over the comparator (WHT: time / copy time, lower is better).",
        "Agreement: kernels/cuda/agreement.py (bit for bit for integer kernels; argued tolerance for floats)."]
    return rows, notes, machine


def _row_section(name: str) -> str:
    """The gpu_check section a RESULTS.md row comes from (by its name)."""
    if name.startswith("WHT"):
        return "wht"
    if name.startswith("two-layer engine"):
        return "two_layer"
    if name.startswith("quadratic margin"):
        return "quadratic_margin"
    return name


def _keep_rows_not_rerun(rows, notes, data, only):
    """With --only, keep the stored rows (benchmarks/gpu_results.json) of the sections that were not rerun,
    marked with the date of their run, after the new rows."""
    path = HERE / "gpu_results.json"
    if not only or not path.is_file():
        return rows, notes
    old = json.loads(path.read_text())
    rerun = set(data["sections"])
    kept = []
    for r in old.get("rows", []):
        if _row_section(r["name"]) not in rerun:
            r = dict(r)
            if "(run of " not in r["name"]:
                r["name"] += f" (run of {old.get('date', '?')})"
            kept.append(r)
    if kept:
        notes = notes + [f"Rows marked '(run of ...)' are kept from that earlier run (sections not rerun: --only "
                         f"{' '.join(only)})."]
    for line in old.get("notes", []):  # the earlier run's observations, marked with its date
        if not line.startswith(("ratio:", "Agreement:", "Rows marked")):
            notes.append(line if line.startswith("[run of ") else f"[run of {old.get('date', '?')}] {line}")
    return rows + kept, notes


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dry-run", action="store_true", help="tiny sizes (the simulator when no GPU is visible)")
    ap.add_argument("--budget-s", type=float, default=400.0, help="skip the remaining sections after this many seconds")
    ap.add_argument("--out", default=None, help="directory for gpu_check.json (default $OUT, else .)")
    ap.add_argument("--only", nargs="*", choices=SECTIONS, help="run only these sections")
    ap.add_argument("--wht-methods", nargs="*", choices=("fused", "tiles"), default=None,
                    help="CUDA WHT schedules to time (default: fused; the tiled one adds ~60 s at n = 30)")
    ap.add_argument("--two-layer-variants", nargs="*", choices=("thread", "block", "block_nocap"), default=None,
                    help="two-layer CUDA kernels to check and time (default: all three)")
    ap.add_argument("--write", action="store_true", help="store benchmarks/gpu_results.json and regenerate RESULTS.md "
                    "(with --only, the rows of the sections not rerun are kept from the stored file)")
    ap.add_argument("--from-json", default=None, metavar="PATH",
                    help="run nothing: take the results of an earlier check (its gpu_check.json, e.g. fetched from "
                         "the GPU machine) for --write; the sections it lacks keep their stored rows")
    args = ap.parse_args(argv)
    if args.from_json:
        data = json.loads(Path(args.from_json).read_text())
        data["summary"] = summary(data)  # with this version's summary lines
        if args.only is None and set(data["sections"]) != set(SECTIONS):
            args.only = [name for name in SECTIONS if name in data["sections"]]
    else:
        from kernels.backend import shorten_simulator_switch_interval

        shorten_simulator_switch_interval()  # a dry run under the simulator: 5x faster, same results
        data = run(dry=args.dry_run, budget_s=args.budget_s, out_dir=args.out, only=args.only,
                   two_layer_variants=args.two_layer_variants, wht_methods=args.wht_methods)
    for line in data["summary"]:
        log(line)
    if args.write:
        from ._results_md import write_results_md

        rows, notes, machine = rows_for_results(data)
        rows, notes = _keep_rows_not_rerun(rows, notes, data, args.only)
        res = {"title": data["title"], "command": data["command"], "date": data["date"], "machine": machine,
               "repeats": FULL["wht_repeats"], "rows": rows, "notes": notes}
        (HERE / "gpu_results.json").write_text(json.dumps(res, indent=1, default=_json_default) + "\n")
        write_results_md()
    return 0


if __name__ == "__main__":
    sys.exit(main())
