"""Benchmark of the GF(2) elimination kernel (kernels.algebra.gf2) against a vectorised numpy baseline.

    python -m benchmarks.gf2 [--repeats 3] [--json] [--write]

Measured in one run, side by side, on the same uniform random packed batches (best of ``repeats``
after a warm-up):

* the project's numba kernel (backend cpu: parallel over the batch, serial for small work);
* numpy, batched: the same Gauss-Jordan schedule on the packed uint64 words, vectorised over the
  batch (one pass of array operations per column) -- the natural numpy implementation;
* the project's numpy reference twin (per instance, on unpacked bits) at the smallest size only.

The outputs of the three are checked to be identical (ranks and reduced matrices) before timing.
``--write`` stores benchmarks/gf2_results.json and regenerates benchmarks/RESULTS.md from every
benchmarks/*results.json (benchmarks/_results_md.py).  Ratios, not absolute times, are the result:
the machine may be shared.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
from pathlib import Path

import numpy as np

from benchmarks._timing import best_seconds

HERE = Path(__file__).resolve().parent

SIZES = ((2000, 64, 74), (200, 256, 266), (8, 1024, 1034))  # (batch, d, m): m = d + 10 examples, n = d + 1 columns


def numpy_batched_eliminate(words: np.ndarray, n: int, pivot_cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Jordan on a packed batch (B, m, W), vectorised over the batch; same pivot rule as the kernel."""
    A = words.copy()
    B, m, _ = A.shape
    r = np.zeros(B, dtype=np.int64)
    rows = np.arange(m)
    for c in range(pivot_cols):
        w, bit = c >> 6, np.uint64(1) << np.uint64(c & 63)
        has = (A[:, :, w] & bit) != 0
        cand = has & (rows[None, :] >= r[:, None])
        active = np.flatnonzero(cand.any(axis=1))
        if active.size == 0:
            continue
        rr = r[active]
        pp = np.argmax(cand[active], axis=1)
        tmp = A[active, pp].copy()
        A[active, pp] = A[active, rr]
        A[active, rr] = tmp
        piv = A[active, rr]
        hit = (A[active, :, w] & bit) != 0
        hit[np.arange(active.size), rr] = False
        A[active] ^= np.where(hit[:, :, None], piv[:, None, :], np.uint64(0))
        r[active] += 1
    return A, r


def _best(fn, repeats: int) -> float:
    return best_seconds(fn, repeats)


def run(repeats: int = 3) -> dict:
    from kernels.algebra.gf2 import gf2_eliminate_packed, random_packed
    from verify._machine import machine_line

    rng = np.random.default_rng(0)
    rows = []
    for i, (B, d, m) in enumerate(SIZES):
        words = random_packed(rng, (B, m), d + 1)
        ker = gf2_eliminate_packed(words, d + 1, pivot_cols=d, backend="cpu")
        A_np, r_np = numpy_batched_eliminate(words, d + 1, d)
        assert np.array_equal(ker.rank, r_np) and np.array_equal(ker.reduced, A_np), "numpy baseline disagrees with the kernel"
        t_k = _best(lambda: gf2_eliminate_packed(words, d + 1, pivot_cols=d, backend="cpu"), repeats)  # noqa: B023
        t_np = _best(lambda: numpy_batched_eliminate(words, d + 1, d), repeats)  # noqa: B023
        rows.append({"name": "kernels.algebra.gf2 (numba cpu)", "batch": B, "d": d, "m": m, "seconds": t_k, "ratio": 1.0})
        rows.append({"name": "numpy, vectorised over the batch", "batch": B, "d": d, "m": m, "seconds": t_np,
                     "ratio": t_np / t_k})
        if i == 0:
            small = words[:20]
            ref = gf2_eliminate_packed(small, d + 1, pivot_cols=d, backend="reference")
            assert np.array_equal(ref.reduced, ker.reduced[:20])
            t_ref = _best(lambda: gf2_eliminate_packed(small, d + 1, pivot_cols=d, backend="reference"), 1)  # noqa: B023
            t_k20 = _best(lambda: gf2_eliminate_packed(small, d + 1, pivot_cols=d, backend="cpu"), repeats)  # noqa: B023
            rows.append({"name": "numpy reference twin (per instance, unpacked)", "batch": 20, "d": d, "m": m,
                         "seconds": t_ref, "ratio": t_ref / t_k20})
    return {"date": _dt.datetime.now().isoformat(timespec="seconds"), "machine": machine_line(), "repeats": repeats,
            "rows": rows, "notes": ["ratio = baseline seconds / kernel seconds on the same batch in the same run"]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--write", action="store_true", help="store benchmarks/gf2_results.json and regenerate benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    data = run(args.repeats)
    if args.json:
        print(json.dumps(data, indent=1))
    else:
        print(data["machine"])
        for r in data["rows"]:
            print(f"{r['name']:<48} B={r['batch']:<5} d={r['d']:<5} {r['seconds'] * 1e3:10.2f} ms   x{r['ratio']:.1f}")
    if args.write:
        from ._results_md import write_results_md

        data = {"title": "GF(2) elimination (benchmarks.gf2)", "command": "python -m benchmarks.gf2 --write", **data}
        (HERE / "gf2_results.json").write_text(json.dumps(data, indent=1) + "\n")
        write_results_md()  # one RESULTS.md from every benchmarks/*results.json
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
