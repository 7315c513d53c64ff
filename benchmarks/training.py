"""Benchmark of the batched training engine (kernels.training.train_two_layer) against PyTorch.

    python -m benchmarks.training [--write] [--steps 2000] [--repeats 3] [--runs 64] [--json]

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
  optimiser, one ``torch.randint`` batch per step.

Both PyTorch variants are timed with ``torch.set_num_threads(t)`` for t = the machine's CPU count and
t = 1, and the faster setting is the baseline the targets are judged against: on a shared machine
PyTorch's OpenMP pool can lose much of its speed when another process holds a core, and a benchmark
should beat the comparator's best configuration, not its worst.  PyTorch's per-step cost does not
depend on the weights (dense products), so its rate is measured on fewer steps (``--torch-steps``) and,
for the slow loop, on fewer runs (``--loop-runs`` x ``--loop-steps``): a rate is a rate.  The engine is
timed over the full ``steps``, as specified.

Targets (project issue): on the same run, the CPU engine's run-steps/s at least 3x the batched
PyTorch figure and at least 10x the per-run-loop figure.  On a machine with a CUDA GPU, the CUDA
backend also trains ``--gpu-runs`` (10^4) runs at once and its run-steps/s is recorded against the CPU
engine's.  PyTorch is an optional comparator (``pip install '.[bench]'``), never a dependency: without
it the PyTorch rows are missing and a note says so.

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
        gpu: bool | None = None, use_torch: bool = True) -> dict:
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
            seconds = time_interleaved(variants, repeats)
        finally:
            torch.set_num_threads(old_threads)
    else:
        seconds = time_interleaved(variants, repeats)

    t_eng = seconds[0]
    eng_rate = runs * steps / t_eng
    rows.append(_row(f"project engine (numba cpu, {numba.get_num_threads()} threads)", runs, steps, t_eng, 1.0,
                     "baseline", ""))
    notes.append(f"Engine: train_two_layer({N}, {K}, width={WIDTH}, batch={BATCH}, lr={LR}, loss='hinge', "
                 f"dtype='float32', eval_every=0, backend='cpu'), seeds 0..{runs - 1}, {steps} steps; numba threading "
                 f"layer {numba.threading_layer()}.")

    summary = {}
    if torch is None:
        notes.append("PyTorch is not installed (pip install '.[bench]'): its rows are missing." if use_torch
                     else "PyTorch rows skipped on request.")
    else:
        for kind in ("batched", "loop"):
            measured = [(p_[2] * p_[3] / sec, p_, sec) for p_, sec in zip(plan, seconds[1:]) if p_[0] == kind]
            best_rate = max(m[0] for m in measured)
            for rate, (_, label, r_, s_, goal, t), sec in measured:
                ratio = eng_rate / rate
                if rate == best_rate:
                    target = f">= {goal:g}x"
                    met = "yes" if ratio >= goal else f"no ({ratio:.2f}x)"
                    summary[kind] = {"ratio": ratio, "target": goal, "met": ratio >= goal, "torch_threads": t}
                else:
                    target, met = "slower thread setting, not judged", ""
                rows.append(_row(f"{label}, torch {t} thread{'s' if t > 1 else ''}", r_, s_, sec, ratio, target, met))
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

    if gpu is None:
        gpu = gpu_available()
    if gpu:
        from numba import cuda

        t_gpu = time_engine(gpu_runs, steps, max(1, min(repeats, 2)), "cuda")
        name = cuda.get_current_device().name
        name = name.decode() if isinstance(name, bytes) else name
        rate = gpu_runs * steps / t_gpu
        rows.append(_row(f"project engine (numba cuda, {name})", gpu_runs, steps, t_gpu, rate / eng_rate,
                         "recorded (ratio = CUDA / CPU engine)", ""))
    else:
        notes.append(f"No CUDA GPU visible: the CUDA backend ({gpu_runs} runs at once) was not timed here.")
    notes.append("ratio = CPU engine run-steps/s divided by the row's (the CUDA row: its run-steps/s divided by the "
                 "CPU engine's); measured in the same run.  Timings are best of the repeats, interleaved (one "
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
                     "runs": runs, "steps": steps},
        "targets": summary,
        "rows": rows,
        "notes": notes,
    }


def to_text(data: dict) -> str:
    header = (f"{'measurement':<62} {'runs':>6} {'steps':>6} {'seconds':>9} {'run-steps/s':>12} "
              f"{'ratio':>7}  target / met")
    lines = [data["machine"], header]
    for r in data["rows"]:
        lines.append(f"{r['name']:<62} {r['runs']:>6} {r['steps']:>6} {r['seconds']:>9.3f} "
                     f"{r['run_steps_per_s']:>12.0f} {r['ratio']:>7.2f}  {r['target']} {r['met']}")
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
    parser.add_argument("--no-torch", action="store_true", help="skip the PyTorch rows")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--write", action="store_true",
                        help="store benchmarks/training_results.json and regenerate benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    try:
        data = run(args.runs, args.steps, args.repeats, args.torch_steps, min(args.loop_runs, max(args.runs, 1)),
                   args.loop_steps, gpu_runs=args.gpu_runs, use_torch=not args.no_torch)
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
