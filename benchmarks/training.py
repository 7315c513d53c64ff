"""Benchmark of the batched training engine (kernels.training.train_two_layer) against PyTorch and JAX.

    python -m benchmarks.training [--write] [--steps 2000] [--repeats 3] [--runs 64] [--json] [--no-torch] [--no-jax]

Workload (the project issue's training-engine benchmark): R = 64 runs of the width-100 ReLU network
f(x) = sum_j u_j relu(<w_j, x> + b_j) + c on the (n = 30, k = 3) sparse parity y = x_0 x_1 x_2, x uniform
on {±1}^30, a fresh batch of 32 samples every step, hinge loss max(0, 1 - y f) averaged over the batch,
plain SGD with lr 0.1, torch.nn.Linear's default initialisation U(-1/sqrt(fan_in), 1/sqrt(fan_in)),
float32 everywhere.  The figure of merit is run-steps per second: (runs x optimiser steps) / seconds.
Measured in one process, side by side (best of ``repeats`` timed repetitions after a warm-up, so that
numba compilation and PyTorch's first-call set-up are excluded; the repetitions are interleaved, one of
every variant per round, so that on a shared machine all variants sample the same load):

* the project's CPU engine: ``train_two_layer(..., eval_every=0, backend="cpu")`` for ``steps`` steps
  (numba, one run per thread, data drawn inside the kernel);
* PyTorch batched: all runs in one model, parameters W (R, 30, 100), b (R, 1, 100), u (R, 100, 1),
  c (R, 1, 1), forward ``relu(baddbmm(b, x, W)) @ u + c``, loss = sum over runs of each run's batch-mean
  hinge loss (so each run receives exactly its own mean gradient), autograd, ``torch.optim.SGD``; the
  batch (R, 32, 30) is drawn with ``torch.randint`` inside the timed loop (the engine also draws its
  data inside the timed kernel);
* PyTorch per-run loop, the way published code trains seeds: a loop over runs, each a whole training
  of its own ``nn.Sequential(nn.Linear(30, 100), nn.ReLU(), nn.Linear(100, 1))`` with its own SGD
  optimiser, one ``torch.randint`` batch per step;
* JAX, the idiomatic batched formulation: one run's training is a ``lax.scan`` over the steps whose
  body draws the batch with ``jax.random`` (a key split per step, ``jax.random.rademacher`` inputs),
  takes ``jax.grad`` of the batch-mean hinge loss and applies the SGD step; ``jax.vmap`` maps it over
  the runs (one PRNG key per run) and ``jax.jit`` compiles the whole training (compilation is outside
  the timer: the compiled function is called once before timing).  Same initial distribution
  (U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for W, b and u, c), float32, on JAX's CPU device (XLA's own
  thread pool over all cores; ``XLA_FLAGS`` is recorded in the note when set).  Timed on ``--jax-steps``
  steps (at most ``steps``) of all runs, the result blocked on (``block_until_ready``).

Both PyTorch variants are timed with ``torch.set_num_threads(t)`` for t = the machine's CPU count and
t = 1, and the faster setting is the baseline the targets are judged against: on a shared machine
PyTorch's OpenMP pool can lose much of its speed when another process holds a core, and a benchmark
should beat the comparator's best configuration, not its worst.  PyTorch's per-step cost does not
depend on the weights (dense products), so its rate is measured on fewer steps (``--torch-steps``) and,
for the slow loop, on fewer runs (``--loop-runs`` x ``--loop-steps``): a rate is a rate.  The engine is
timed over the full ``steps``, as specified.

Targets (project issue): on the same run, the CPU engine's run-steps/s at least 3x the batched
PyTorch figure, at least 4x the JAX figure and at least 10x the per-run-loop figure.  On a machine with a CUDA GPU, the CUDA
backend also trains ``--gpu-runs`` (10^4) runs at once and its run-steps/s is recorded against the CPU
engine's.  PyTorch and JAX are optional comparators (``pip install '.[bench]'``), never dependencies: without
one, its rows are missing and a note says so.

Achieved FLOP rate.  Every row also reports GFLOP/s = run-steps/s x FLOP_PER_RUN_STEP / 1e9, where
FLOP_PER_RUN_STEP counts the dense products of one SGD step of one run, a multiply-add as 2 FLOP:
forward H = X W (B n r) and f = sigma(H) u (B r), backward grad_W = X^T D (B n r) and grad_u = A^T g
(B r): 2 (2 B n r + 2 B r) = 2 (2 x 32 x 30 x 100 + 2 x 32 x 100) = 396,800 FLOP (198,400 multiply-adds);
the elementwise work (bias, ReLU and its mask, the loss slope, grad_b, the update: about 5 B r + 2 P =
23k operations, 6 % more) is not counted.  The figure is put beside the machine's float32 peak,

    peak = cpus x f x fma_units x lanes x 2   [FLOP/s],

with cpus = the CPUs this process may run on (os.sched_getaffinity), f = the "cpu MHz" of
/proc/cpuinfo (the frequency the kernel reports; boost clocks can be higher), lanes = float32 lanes of
the widest vector unit the flags report (avx512f: 16, avx/avx2: 8, else 4), the factor 2 = a fused
multiply-add per lane (flag fma; without it a multiply and an add on separate ports, also 2 FLOP per
lane per cycle), and fma_units = 2 vector FMA pipes per core (Intel since Haswell, AMD since Zen 2; the
flags cannot tell this, so it is an assumption stated in the note).  On the 2-CPU AMD EPYC (avx2, fma,
2445 MHz) that is 2 x 2.445e9 x 2 x 8 x 2 = 156.5 GFLOP/s.

``--write`` stores benchmarks/training_results.json and regenerates benchmarks/RESULTS.md from every
benchmarks/*results.json (benchmarks/_results_md.py).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

from benchmarks._timing import best_seconds

HERE = Path(__file__).resolve().parent
TITLE = "Training engine: run-steps per second (benchmarks.training)"
COMMAND = "python -m benchmarks.training --write"
N, K, WIDTH, BATCH, LR = 30, 3, 100, 32, 0.1
TARGET_BATCHED = 3.0
TARGET_LOOP = 10.0
TARGET_JAX = 4.0
#: FLOP of one run-step counted as the dense products (docstring): 2 (2 B n r + 2 B r)
FLOP_PER_RUN_STEP = 2 * (2 * BATCH * N * WIDTH + 2 * BATCH * WIDTH)
#: vector FMA pipes per core assumed by cpu_peak (Haswell+ / Zen 2+; /proc/cpuinfo cannot tell)
FMA_UNITS = 2


def cpu_peak(cpuinfo: str | None = None, cpus: int | None = None) -> dict:
    """The float32 peak of the CPUs this process may use, from /proc/cpuinfo's flags and "cpu MHz"
    (formula in the module docstring).  Returns {"gflops", "cpus", "mhz", "lanes", "fma", "formula"};
    "gflops" is None when the frequency is not reported (not Linux)."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text()
        except OSError:
            cpuinfo = ""
    if cpus is None:
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    flags: set[str] = set()
    mhz = []
    for line in cpuinfo.splitlines():
        key, _, val = line.partition(":")
        key = key.strip()
        if key == "flags" and not flags:
            flags = set(val.split())
        elif key == "cpu MHz":
            try:
                mhz.append(float(val))
            except ValueError:
                pass
    lanes = 16 if "avx512f" in flags else 8 if ("avx2" in flags or "avx" in flags) else 4
    fma = "fma" in flags
    f = max(mhz) if mhz else None
    gflops = cpus * f * 1e6 * FMA_UNITS * lanes * 2 / 1e9 if f else None
    formula = (f"{cpus} CPUs x {f / 1000:.3f} GHz x {FMA_UNITS} FMA pipes x {lanes} float32 lanes x 2"
               if f else "frequency not reported")
    return {"gflops": gflops, "cpus": cpus, "mhz": f, "lanes": lanes, "fma": fma, "formula": formula}


def _best_seconds(fn, repeats: int) -> float:
    """Best wall time of fn() over ``repeats`` calls (the caller has already warmed fn up)."""
    return best_seconds(fn, repeats, warmup=False)


def _check_int(name: str, value, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
        raise ValueError(f"argument '{name}' must be an integer in [{lo}, {hi}], not {value!r}")
    return int(value)


# ---------------------------------------------------------------------------------------------
# the project engine
# ---------------------------------------------------------------------------------------------


def _engine(runs: int, steps: int, backend: str):
    from kernels.training import train_two_layer

    seeds = np.arange(runs, dtype=np.uint64)

    def go(s: int):
        return train_two_layer(N, K, width=WIDTH, seeds=seeds, steps=s, batch=BATCH, lr=LR, loss="hinge",
                               dtype="float32", eval_every=0, backend=backend)

    return go


def time_engine(runs: int, steps: int, repeats: int, backend: str = "cpu") -> float:
    """Best seconds of ``runs`` x ``steps`` engine run-steps (after a 5-step warm-up that compiles)."""
    go = _engine(runs, steps, backend)
    go(min(steps, 5))
    if backend == "cuda":
        from numba import cuda

        def fn():
            go(steps)
            cuda.synchronize()

        return _best_seconds(fn, repeats)
    return _best_seconds(lambda: go(steps), repeats)


# ---------------------------------------------------------------------------------------------
# PyTorch comparators (imported only here; torch is optional)
# ---------------------------------------------------------------------------------------------


def _torch_batched(torch, runs: int, seed: int):
    """A step function training ``runs`` networks as one batched model (bmm + autograd + SGD)."""
    g = torch.Generator().manual_seed(seed)

    def uniform(shape, fan_in):
        a = 1.0 / math.sqrt(fan_in)
        return torch.empty(shape, dtype=torch.float32).uniform_(-a, a, generator=g).requires_grad_()

    W = uniform((runs, N, WIDTH), N)
    b = uniform((runs, 1, WIDTH), N)
    u = uniform((runs, WIDTH, 1), WIDTH)
    c = uniform((runs, 1, 1), WIDTH)
    opt = torch.optim.SGD([W, b, u, c], lr=LR)

    def step():
        x = torch.randint(0, 2, (runs, BATCH, N), generator=g, dtype=torch.float32).mul_(2).sub_(1)
        y = x[:, :, 0] * x[:, :, 1] * x[:, :, 2]
        f = (torch.relu(torch.baddbmm(b, x, W)) @ u + c).squeeze(-1)  # (runs, batch)
        loss = torch.clamp(1 - y * f, min=0).mean(dim=1).sum()  # sum of per-run batch means
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()

    return step


def _torch_loop(torch, runs: int, seed: int):
    """A function training ``runs`` separate nn.Sequential models one after another for s steps each."""
    nn = torch.nn
    torch.manual_seed(seed)  # nn.Linear's default init draws from the global generator
    g = torch.Generator().manual_seed(seed + 1)
    models = [nn.Sequential(nn.Linear(N, WIDTH), nn.ReLU(), nn.Linear(WIDTH, 1)) for _ in range(runs)]
    opts = [torch.optim.SGD(m.parameters(), lr=LR) for m in models]

    def train_all(s: int):
        for model, opt in zip(models, opts):  # a loop over runs of whole trainings
            for _ in range(s):
                x = torch.randint(0, 2, (BATCH, N), generator=g, dtype=torch.float32).mul_(2).sub_(1)
                y = x[:, 0] * x[:, 1] * x[:, 2]
                loss = torch.clamp(1 - y * model(x).squeeze(-1), min=0).mean()
                opt.zero_grad(set_to_none=True)
                loss.backward()
                opt.step()

    return train_all


def prepare_torch(torch, kind: str, runs: int, steps: int, threads: int):
    """A warmed-up callable doing ``runs`` x ``steps`` PyTorch run-steps of ``kind`` ("batched" or "loop")
    with ``threads`` torch threads (the caller sets torch.set_num_threads(threads) before timing it)."""
    torch.set_num_threads(threads)
    if kind == "batched":
        step = _torch_batched(torch, runs, seed=0)
        for _ in range(min(steps, 10)):
            step()

        def fn():
            for _ in range(steps):
                step()

        return fn
    train_all = _torch_loop(torch, runs, seed=0)
    train_all(min(steps, 5))
    return lambda: train_all(steps)


# ---------------------------------------------------------------------------------------------
# JAX comparator (imported only here; jax is optional)
# ---------------------------------------------------------------------------------------------


def prepare_jax(jax, runs: int, steps: int, seed: int = 0):
    """A warmed-up (compiled) callable doing ``runs`` x ``steps`` JAX run-steps: vmap over runs of a
    jit-compiled lax.scan over steps, the batch drawn inside with jax.random, float32."""
    jnp = jax.numpy
    cpu = jax.devices("cpu")[0]
    a1, a2 = 1.0 / math.sqrt(N), 1.0 / math.sqrt(WIDTH)

    def init(key):
        k1, k2, k3, k4 = jax.random.split(key, 4)
        return (jax.random.uniform(k1, (N, WIDTH), jnp.float32, -a1, a1),
                jax.random.uniform(k2, (WIDTH,), jnp.float32, -a1, a1),
                jax.random.uniform(k3, (WIDTH,), jnp.float32, -a2, a2),
                jax.random.uniform(k4, (), jnp.float32, -a2, a2))

    def loss(params, x, y):
        W, b, u, c = params
        f = jax.nn.relu(x @ W + b) @ u + c
        return jnp.mean(jnp.maximum(0.0, 1.0 - y * f))

    grad = jax.grad(loss)

    def step(carry, _):
        params, key = carry
        key, sub = jax.random.split(key)
        x = jax.random.rademacher(sub, (BATCH, N), dtype=jnp.float32)
        y = x[:, 0] * x[:, 1] * x[:, 2]
        g = grad(params, x, y)
        params = jax.tree_util.tree_map(lambda p, gp: p - LR * gp, params, g)
        return (params, key), None

    def train_one(key):
        k_init, k_data = jax.random.split(key)
        (params, _), _ = jax.lax.scan(step, (init(k_init), k_data), None, length=steps)
        return params

    train = jax.jit(jax.vmap(train_one))
    with jax.default_device(cpu):
        keys = jax.random.split(jax.random.PRNGKey(seed), runs)
        jax.block_until_ready(train(keys))  # compiles

    def fn():
        with jax.default_device(cpu):  # the same context as the compiling call (part of jit's cache key)
            jax.block_until_ready(train(keys))

    return fn


def time_interleaved(variants: list[tuple], repeats: int) -> list[float]:
    """Best seconds of each (setup, fn) in ``variants``; the repeats are interleaved (one of each variant per
    round), so that every variant samples the same periods of a shared machine's load.  setup() runs
    before the timer starts."""
    best = [float("inf")] * len(variants)
    for _ in range(repeats):
        for i, (setup, fn) in enumerate(variants):
            setup()
            t0 = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


# ---------------------------------------------------------------------------------------------
# the benchmark
# ---------------------------------------------------------------------------------------------


def _row(name, runs, steps, seconds, ratio, target, met) -> dict:
    return {"name": name, "runs": runs, "steps": steps, "seconds": seconds,
            "run_steps_per_s": runs * steps / seconds, "ratio": ratio, "target": target, "met": met}


def run(runs: int = 64, steps: int = 2000, repeats: int = 3, torch_steps: int = 300, loop_runs: int = 4,
        loop_steps: int = 250, torch_threads: tuple[int, ...] | None = None, gpu_runs: int = 10_000,
        gpu: bool | None = None, use_torch: bool = True, use_jax: bool = True, jax_steps: int = 500) -> dict:
    """Measure the engine and its comparators; return the JSON-ready result (rows, notes, parameters).

    ``ratio`` of a PyTorch row = the CPU engine's run-steps/s divided by the row's (how many times faster
    the engine is); of the CUDA row = the CUDA engine's run-steps/s divided by the CPU engine's.
    ``gpu``: None = time the CUDA backend when kernels.backend.gpu_available(), False = never.
    """
    runs = _check_int("runs", runs, 1, 1_000_000)
    steps = _check_int("steps", steps, 1, 10**7)
    repeats = _check_int("repeats", repeats, 1, 100)
    torch_steps = _check_int("torch_steps", torch_steps, 1, 10**7)
    loop_runs = _check_int("loop_runs", loop_runs, 1, runs)
    loop_steps = _check_int("loop_steps", loop_steps, 1, 10**7)
    gpu_runs = _check_int("gpu_runs", gpu_runs, 1, 10**7)
    jax_steps = min(_check_int("jax_steps", jax_steps, 1, 10**7), steps)
    cpus = os.cpu_count() or 1
    if torch_threads is None:
        torch_threads = tuple(dict.fromkeys((cpus, 1)))
    torch_threads = tuple(_check_int("torch_threads", t, 1, 1024) for t in torch_threads)
    if not torch_threads:
        raise ValueError("argument 'torch_threads' must name at least one thread count, not ()")

    import numba

    from kernels.backend import gpu_available
    from verify._machine import machine_line

    rows: list[dict] = []
    notes: list[str] = []
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    go = _engine(runs, steps, "cpu")
    go(min(steps, 5))  # compiles
    variants: list[tuple] = [(lambda: None, lambda: go(steps))]
    plan = []  # (kind, label, runs, steps, goal, threads) of each PyTorch variant, in the order of ``variants``
    torch = None
    if use_torch:
        try:
            import torch
        except ImportError:
            torch = None
    if torch is not None:
        old_threads = torch.get_num_threads()
        try:
            for kind, label, r_, s_, goal in (
                    ("batched", "PyTorch batched (bmm + autograd, one model)", runs, torch_steps, TARGET_BATCHED),
                    ("loop", "PyTorch per-run loop (nn.Sequential per run)", loop_runs, loop_steps, TARGET_LOOP)):
                for t in torch_threads:
                    fn = prepare_torch(torch, kind, r_, s_, t)
                    variants.append((lambda t=t: torch.set_num_threads(t), fn))
                    plan.append((kind, label, r_, s_, goal, t))
        finally:
            torch.set_num_threads(old_threads)
    jax = None
    if use_jax:
        try:
            import jax
        except ImportError:
            jax = None
    if jax is not None:
        variants.append((lambda: None, prepare_jax(jax, runs, jax_steps)))
    old_threads = torch.get_num_threads() if torch is not None else None
    try:
        seconds = time_interleaved(variants, repeats)
    finally:
        if torch is not None:
            torch.set_num_threads(old_threads)
    peak = cpu_peak()

    def flops(row):
        row["gflop_s"] = row["run_steps_per_s"] * FLOP_PER_RUN_STEP / 1e9
        row["pct_of_peak"] = 100.0 * row["gflop_s"] / peak["gflops"] if peak["gflops"] else None
        return row

    t_eng = seconds[0]
    eng_rate = runs * steps / t_eng
    rows.append(flops(_row(f"project engine (numba cpu, {numba.get_num_threads()} threads)", runs, steps, t_eng, 1.0,
                           "baseline", "")))
    notes.append(f"Engine: train_two_layer({N}, {K}, width={WIDTH}, batch={BATCH}, lr={LR}, loss='hinge', "
                 f"dtype='float32', eval_every=0, backend='cpu'), seeds 0..{runs - 1}, {steps} steps; numba threading "
                 f"layer {numba.threading_layer()}.")

    summary = {}  # the PyTorch verdicts; the JAX one is "jax_target" (None without JAX)
    jax_target = None
    if torch is None:
        notes.append("PyTorch is not installed (pip install '.[bench]'): its rows are missing." if use_torch
                     else "PyTorch rows skipped on request.")
    else:
        for kind in ("batched", "loop"):
            measured = [(p_[2] * p_[3] / sec, p_, sec) for p_, sec in zip(plan, seconds[1:1 + len(plan)])
                        if p_[0] == kind]
            best_rate = max(m[0] for m in measured)
            for rate, (_, label, r_, s_, goal, t), sec in measured:
                ratio = eng_rate / rate
                if rate == best_rate:
                    target = f">= {goal:g}x"
                    met = "yes" if ratio >= goal else f"no ({ratio:.2f}x)"
                    summary[kind] = {"ratio": ratio, "target": goal, "met": ratio >= goal, "torch_threads": t}
                else:
                    target, met = "slower thread setting, not judged", ""
                rows.append(flops(_row(f"{label}, torch {t} thread{'s' if t > 1 else ''}", r_, s_, sec, ratio, target,
                                       met)))
        notes.append(f"PyTorch {torch.__version__}, float32.  Batched: {runs} runs x {torch_steps} steps; per-run loop: "
                     f"{loop_runs} of the runs, each trained for {loop_steps} steps, one run after another (a loop "
                     "over runs of whole trainings); model construction is outside the timer.  Their per-step cost "
                     "does not depend on the weights, so run-steps/s measured on these fewer steps and runs is the "
                     f"rate of the full {runs} x {steps} workload.")
        notes.append("Each PyTorch variant was timed with torch.set_num_threads(t) for t in "
                     f"{', '.join(map(str, torch_threads))}; the targets are judged against the faster setting.")
        for kind, goal in (("batched", TARGET_BATCHED), ("loop", TARGET_LOOP)):
            s_ = summary[kind]
            notes.append(f"Target engine >= {goal:g}x PyTorch {kind}: {s_['ratio']:.2f}x, "
                         f"{'met' if s_['met'] else 'NOT met'}.")
    if jax is None:
        notes.append("JAX is not installed (pip install '.[bench]'): its row is missing." if use_jax
                     else "JAX row skipped on request.")
    else:
        import jaxlib

        sec = seconds[-1]
        rate = runs * jax_steps / sec
        ratio = eng_rate / rate
        dev = jax.devices("cpu")[0]
        jax_target = {"ratio": ratio, "target": TARGET_JAX, "met": ratio >= TARGET_JAX}
        rows.append(flops(_row(f"JAX (vmap over runs, jit, lax.scan over steps), {dev.platform} device", runs, jax_steps,
                               sec, ratio, f">= {TARGET_JAX:g}x", "yes" if ratio >= TARGET_JAX else f"no ({ratio:.2f}x)")))
        xla = os.environ.get("XLA_FLAGS")
        notes.append(f"JAX {jax.__version__} (jaxlib {jaxlib.__version__}), device {dev} ({dev.device_kind}), "
                     f"{len(jax.devices('cpu'))} CPU device(s); XLA's CPU thread pool over the {cpus} CPUs"
                     + (f", XLA_FLAGS={xla!r}" if xla else " (no XLA_FLAGS)") + f"; {runs} runs x {jax_steps} steps "
                     "per timed call, one jit-compiled vmap(lax.scan) call (compiled before timing), data drawn "
                     "inside with jax.random (rademacher inputs, a key split per step), float32.")
        notes.append(f"Target engine >= {TARGET_JAX:g}x JAX: {ratio:.2f}x, {'met' if ratio >= TARGET_JAX else 'NOT met'}.")
    if peak["gflops"]:
        notes.append(f"GFLOP/s = run-steps/s x {FLOP_PER_RUN_STEP} FLOP (the dense products of one run-step, "
                     f"2 (2 B n r + 2 B r), a multiply-add = 2 FLOP; elementwise work not counted); pct_of_peak = "
                     f"that / the float32 peak {peak['gflops']:.1f} GFLOP/s = {peak['formula']} (from /proc/cpuinfo: "
                     f"flags {'avx512f' if peak['lanes'] == 16 else 'avx2' if peak['lanes'] == 8 else 'sse'}"
                     f"{', fma' if peak['fma'] else ', no fma'}, cpu MHz {peak['mhz']:.0f}; {FMA_UNITS} vector FMA "
                     "pipes per core assumed: Haswell+ / Zen 2+).")
    else:
        notes.append(f"GFLOP/s = run-steps/s x {FLOP_PER_RUN_STEP} FLOP; no CPU frequency reported, so no peak.")

    if gpu is None:
        gpu = gpu_available()
    if gpu:
        from numba import cuda

        t_gpu = time_engine(gpu_runs, steps, max(1, min(repeats, 2)), "cuda")
        name = cuda.get_current_device().name
        name = name.decode() if isinstance(name, bytes) else name
        rate = gpu_runs * steps / t_gpu
        rows.append(flops(_row(f"project engine (numba cuda, {name})", gpu_runs, steps, t_gpu, rate / eng_rate,
                               "recorded (ratio = CUDA / CPU engine)", "")))
    else:
        notes.append(f"No CUDA GPU visible: the CUDA backend ({gpu_runs} runs at once) was not timed here.")
    notes.append("ratio = CPU engine run-steps/s divided by the row's (the CUDA row: its run-steps/s divided by the "
                 "CPU engine's); measured in the same run.  On a loaded machine the absolute rates mean little (all "
                 "variants compete with other processes for the same cores); the ratios are what count.  Timings are best of the repeats, interleaved (one "
                 "repeat of every CPU variant per round) so that all see the same load; the machine may be "
                 "shared with other processes" + (f" (1-minute load average {load[0]:.2f} on {cpus} CPUs when the "
                                                  "benchmark started)." if load else "."))
    return {
        "title": TITLE,
        "command": COMMAND,
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine_line(),
        "repeats": repeats,
        "workload": {"n": N, "k": K, "width": WIDTH, "batch": BATCH, "lr": LR, "loss": "hinge", "dtype": "float32",
                     "runs": runs, "steps": steps, "flop_per_run_step": FLOP_PER_RUN_STEP},
        "peak": peak,
        "targets": summary,
        "jax_target": jax_target,
        "rows": rows,
        "notes": notes,
    }


def to_text(data: dict) -> str:
    header = (f"{'measurement':<62} {'runs':>6} {'steps':>6} {'seconds':>9} {'run-steps/s':>12} "
              f"{'ratio':>7} {'GFLOP/s':>8} {'%peak':>6}  target / met")
    lines = [data["machine"], header]
    for r in data["rows"]:
        pct = r.get("pct_of_peak")
        lines.append(f"{r['name']:<62} {r['runs']:>6} {r['steps']:>6} {r['seconds']:>9.3f} "
                     f"{r['run_steps_per_s']:>12.0f} {r['ratio']:>7.2f} {r.get('gflop_s', math.nan):>8.1f} "
                     f"{pct if pct is not None else math.nan:>6.1f}  {r['target']} {r['met']}")
    lines += [f"- {note}" for note in data["notes"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.training", description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000, help="engine steps per run (default 2000)")
    parser.add_argument("--repeats", type=int, default=3, help="timed repetitions, best kept (default 3)")
    parser.add_argument("--runs", type=int, default=64, help="runs trained at once (default 64)")
    parser.add_argument("--torch-steps", type=int, default=300, help="steps of the batched PyTorch timing")
    parser.add_argument("--loop-runs", type=int, default=4, help="runs of the PyTorch per-run loop timing")
    parser.add_argument("--loop-steps", type=int, default=250, help="steps per run of the PyTorch loop timing")
    parser.add_argument("--gpu-runs", type=int, default=10_000, help="runs of the CUDA timing (GPU only)")
    parser.add_argument("--jax-steps", type=int, default=500, help="steps of the JAX timing (at most --steps)")
    parser.add_argument("--no-torch", action="store_true", help="skip the PyTorch rows")
    parser.add_argument("--no-jax", action="store_true", help="skip the JAX row")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--write", action="store_true",
                        help="store benchmarks/training_results.json and regenerate benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    try:
        data = run(args.runs, args.steps, args.repeats, args.torch_steps, min(args.loop_runs, max(args.runs, 1)),
                   args.loop_steps, gpu_runs=args.gpu_runs, use_torch=not args.no_torch, use_jax=not args.no_jax,
                   jax_steps=args.jax_steps)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(data, indent=1) if args.json else to_text(data))
    if args.write:
        from ._results_md import write_results_md

        (HERE / "training_results.json").write_text(json.dumps(data, indent=1) + "\n")
        write_results_md()
    return 0


if __name__ == "__main__":
    sys.exit(main())
