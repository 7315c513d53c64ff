"""numba.cuda Walsh-Hadamard transform in two passes through device memory up to length 2^30.

The transform H_{2^n} = H_2 (x) ... (x) H_2 is one radix-2 butterfly stage per index bit, in any order.
A *pass* reads the array from device memory once, applies the stages of a range of bits and writes it
back once; the time of a pass is at best that of a device-to-device copy.  The tiled schedule of
kernels/cuda/wht.py needs three passes for n = 30 (a tile of 2^12 eight-byte entries in the 48 KiB of
static shared memory covers at most 12 bits), so it cannot beat 3x a copy.  This schedule covers
``tile_bits + radix_bits`` bits per pass by splitting a pass into two kinds of work items:

* a *producer* loads a tile of 2^T entries (T = ``tile_bits``) into shared memory, applies the stages
  of its bits and writes it back: ``radix_bits`` = R further bits of the same pass are not yet applied;
* a *consumer* applies those R bits, radix 2^R in registers, to a slice of a *group* (the 2^R tiles that
  differ only in those bits) once all 2^R producers of the group have finished (a per-group counter).
  Its loads hit the L2 cache that the producers' stores just filled, so device memory sees each entry
  read once and written once per pass.

Work items are handed out in a fixed order by an atomic ticket counter: the producers of group s and the
consumers of group s - L (the *lag* L, a few times the number of items in flight) share one step of the
order.  A consumer waits only for producers that hold earlier tickets, that is, that are already running
or done; so the schedule cannot deadlock whatever the number of resident blocks (no cooperative launch),
and under the simulator, which runs the blocks one after another, the first block does all items in
order.  The L2 footprint is about (L + items in flight / 2^(R+1)) groups of 2^(T+R) entries (about
16 MiB with the defaults, within an H100's 50 MB).

Geometry of a pass (lo, cb, tr, R): it applies the global bits [lo, lo + tr + R).  A tile has 2^cb
consecutive *columns* (cb = 0 in the first pass, 2 afterwards: 4 eight-byte words = one 32-byte sector
per row, so the strided passes stay sector-efficient) and 2^tr *rows* at stride 2^lo; tile entry e is
column e & (2^cb - 1) of row e >> cb.  With the defaults (T = 12, R = 4) n = 30 is two passes: bits
0-15 (contiguous tiles of 2^12, groups of 2^16 entries = 512 KiB) and bits 16-29 (tiles of 2^10 rows x
4 columns, groups of 2^14 rows x 4 columns).

Inside a producer the tile is copied into shared memory (consecutive threads, consecutive addresses)
and its bits are applied in *rounds* of up to 3 bits, in ascending order: each thread holds the 2^w
entries of one radix-2^w butterfly in registers, so shared memory is read and written once per 3 bits,
not once per bit.  The last round holds the tile's top bits, so its writes to device memory are
consecutive too.  Shared-memory addresses are XOR-swizzled (:data:`SWIZZLE_MASKS`) so that no access
pattern has bank conflicts for T in 11..13 and cb in {0, 2}.

Measured on an H100 (benchmarks/gpu_runs/2026-11-27-h100-wht-run3.json; python -m benchmarks.gpu_check),
with this schedule as of commit 055ae1a: n = 30 float64 in 31.0 ms, 4.86x a device-to-device copy of the
8 GiB (6.4 ms), int64 5.07x, both bit for bit equal to the CPU twin; the tiled three-pass schedule took
5.99x on the same machine type the same morning (2026-11-27-h100-wht-run2.log).  The issue's target, 2.5x,
was not reached: each pass took about 2.4 copies.  The kernels used 96-126 registers per thread (the
radix-16 consumer holds 16 entries), so 2 blocks of 256 threads fit per SM; capping registers at 64 or 80
spilled to local memory and was slower (6.8x, 5.4x), and 512 threads per block did not fit.  A count of
the instructions then pointed at the index arithmetic: every shared-memory access computed its swizzled
address (four popcounts) and every device-memory access its offset, all in 64-bit integers, about 25
integer operations per entry and round, about 10^11 per pass, comparable with the GPU's integer
throughput over a copy's time.  Since then both maps are applied through their XOR-linearity (once per
thread or butterfly, plus a compile-time constant per entry); the simulator checks the results bit for
bit, the GPU has not timed it yet.  Other leads: a radix-8 consumer with a 13-bit tile (needs the
dynamic shared-memory opt-in above 48 KiB, which numba-cuda 0.30 does not expose), 32-bit tile indices.

Every pass, round and radix step applies the bits in ascending order, and a radix-2^w step applies its
w stages in ascending order too, so each entry goes through the same additions and subtractions, in the
same order, as in the radix-2 reference (kernels.boolean.reference.wht_butterflies): float64 results are
bit for bit those of the reference and the CPU twin (there are no multiplications, so no fused
multiply-adds either); int64 results are exact.  All index arithmetic is shifts, masks and XORs (no
64-bit division on the GPU).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import cuda

__all__ = ["SWIZZLE_MASKS", "check_fused_args", "fused_pass_schedule", "producer_rounds", "swizzle", "wht_inplace_cuda_fused"]

#: bit k of the entry index (k >= 4) flips these low 4 bits of its shared-memory address; found by an
#: exhaustive check of the rounds' access patterns (16 lanes of a half-warp hit 16 distinct 8-byte banks)
SWIZZLE_MASKS = (7, 9, 13, 8, 6, 9, 0, 8, 15)

#: largest tile: 2^12 eight-byte entries = 32 KiB of static shared memory (the limit without opt-in is 48 KiB)
MAX_TILE_BITS = 12
MAX_RADIX_BITS = 4
_SPIN_LIMIT = 1 << 22  # a consumer gives up (and flags an error) after this many polls of its counter (seconds)

_KERNELS: dict = {}


def _swizzle_columns() -> tuple[int, int, int, int]:
    """For each output bit b of the 4-bit XOR term: the mask of the index bits >> 4 whose parity sets it."""
    cols = []
    for b in range(4):
        m = 0
        for k, mask in enumerate(SWIZZLE_MASKS):
            if mask >> b & 1:
                m |= 1 << k
        cols.append(m)
    return tuple(cols)


_SWZ_COLS = _swizzle_columns()


def swizzle(e: int) -> int:
    """Shared-memory address of tile entry ``e`` (host-side twin of the device code; a bijection)."""
    x = e
    for k, mask in enumerate(SWIZZLE_MASKS):
        if e >> (4 + k) & 1:
            x ^= mask
    return x


def producer_rounds(T: int, cb: int) -> list[tuple[int, int]]:
    """The rounds (p, w) of a producer: tile bits [cb, T) in ascending chunks of at most 3 bits (the
    smaller chunk first, so that the last round, which writes device memory, is 3 bits wide)."""
    tr = T - cb
    if tr <= 3:
        return [(cb, tr)]
    sizes = ([tr % 3] if tr % 3 else []) + [3] * (tr // 3)
    out, p = [], cb
    for w in sizes:
        out.append((p, w))
        p += w
    return out


def fused_pass_schedule(n: int, tile_bits: int = MAX_TILE_BITS, radix_bits: int = MAX_RADIX_BITS,
                        col_bits: int = 2) -> list[tuple[int, int, int, int]]:
    """The passes (lo, cb, tr, R) for length 2^n: pass i applies the bits [lo, lo + tr + R)."""
    passes = []
    lo = 0
    while lo < n:
        cb = 0 if lo == 0 else min(col_bits, lo)
        tr = min(n - lo, tile_bits - cb)
        R = min(radix_bits, n - lo - tr)
        passes.append((lo, cb, tr, R))
        lo += tr + R
    return passes


def _numba_dtype(dtype):
    return numba.float64 if np.dtype(dtype) == np.float64 else numba.int64


def _device(fn):
    """A device function inlined at the NVVM level on a GPU (its local arrays stay in registers)."""
    from ..backend import cuda_simulator_enabled

    if cuda_simulator_enabled():
        return cuda.jit(device=True)(fn)
    return cuda.jit(device=True, forceinline=True)(fn)


def _butterflies(w: int):
    """Device function: the radix-2^w butterfly (w stages, compile-time) on the local array x[0:2^w]."""
    key = ("bfly", w)
    if key not in _KERNELS:
        @_device
        def bfly(x):  # pragma: no cover - compiled
            for s in range(w):
                h = 1 << s
                for j in range(1 << w):
                    if not j & h:
                        u = x[j]
                        v = x[j + h]
                        x[j] = u + v
                        x[j + h] = u - v

        _KERNELS[key] = bfly
    return _KERNELS[key]


def _use_cg() -> bool:
    from ..backend import cuda_simulator_enabled

    return not cuda_simulator_enabled() and getattr(cuda, "ldcg", None) is not None


def _pass_kernel(dtype, T: int, cb: int, R: int, tpb: int, max_registers: int | None = None,
                 carveout: str | None = None):
    """The persistent kernel of one pass: tile bits T = tr + cb, cb column bits, R consumer bits, tpb
    threads (a power of 2 with tpb <= 2^(T-3)).  Every loop has a trip count known at compile time, so
    the compiler unrolls it and issues a thread's loads back to back (independent loads in flight)."""
    key = (np.dtype(dtype).str, T, cb, R, tpb, max_registers, carveout)
    if key in _KERNELS:
        return _KERNELS[key]
    nbtype = _numba_dtype(dtype)
    size = 1 << T
    tr = T - cb
    cmask = (1 << cb) - 1
    rounds = producer_rounds(T, cb)
    single = len(rounds) == 1
    p0, w0 = rounds[0]
    pl, wl = rounds[-1]
    mids = tuple(rounds[:-1])  # in shared memory; the last round writes device memory
    nprod = 1 << R
    half = 1 << (T - R) if R else 0  # positions per consumer item
    c0, c1, c2, c3 = _SWZ_COLS
    use_cg = _use_cg()
    chunk = min(16, size // tpb)  # entries a thread copies per batch of loads
    batches = size // tpb // chunk
    per_consumer = max(1, half // tpb)

    @_device
    def swz(e):  # pragma: no cover - compiled
        h = e >> 4
        return e ^ ((cuda.popc(h & c0) & 1) | ((cuda.popc(h & c1) & 1) << 1) | ((cuda.popc(h & c2) & 1) << 2)
                    | ((cuda.popc(h & c3) & 1) << 3))

    @_device
    def offset(e, lo):  # pragma: no cover - compiled
        return ((e >> cb) << lo) | (e & cmask)

    @_device
    def spread(u, p, w):  # pragma: no cover - compiled
        return ((u >> p) << (p + w)) | (u & ((1 << p) - 1))

    bf0, bfl, bfr = _butterflies(w0), _butterflies(wl), _butterflies(R)

    def make_mid(p, w):
        bfw = _butterflies(w)

        @_device
        def mid(sh, tid):  # pragma: no cover - compiled
            x = cuda.local.array(8, nbtype)
            for k in range((size >> w) // tpb):
                sb = swz(spread(tid + k * tpb, p, w))
                for j in range(1 << w):
                    x[j] = sh[sb ^ swz(j << p)]  # swz is XOR-linear; swz(j << p) folds to a constant
                bfw(x)
                for j in range(1 << w):
                    sh[sb ^ swz(j << p)] = x[j]
            cuda.syncthreads()
        return mid

    def chain(fns):
        if not fns:
            @_device
            def nothing(sh, tid):  # pragma: no cover - compiled
                pass
            return nothing
        head, rest = fns[0], chain(fns[1:])

        @_device
        def both(sh, tid):  # pragma: no cover - compiled
            head(sh, tid)
            rest(sh, tid)
        return both

    middle = chain([make_mid(p, w) for p, w in mids])

    @_device
    def produce(a, sh, base, lo, tid):  # pragma: no cover - compiled
        x = cuda.local.array(16, nbtype)
        if single:
            for k in range((size >> w0) // tpb):
                ob = base + offset(spread(tid + k * tpb, p0, w0), lo)
                for j in range(1 << w0):
                    x[j] = a[ob + offset(j << p0, lo)]
                bf0(x)
                for j in range(1 << w0):
                    a[ob + offset(j << p0, lo)] = x[j]
            return
        # index arithmetic once per thread or item: offset and swz are XOR-linear and tid < tpb, so the entry
        # tid + m tpb sits at offset(tid) + offset(m tpb) and swz(tid) ^ swz(m tpb), m tpb a constant
        ot = base + offset(tid, lo)
        st = swz(tid)
        for c in range(batches):  # consecutive threads, consecutive addresses; all loads of a batch first
            for k in range(chunk):
                x[k] = a[ot + offset((c * chunk + k) * tpb, lo)]
            for k in range(chunk):
                sh[st ^ swz((c * chunk + k) * tpb)] = x[k]
        cuda.syncthreads()
        middle(sh, tid)
        for k in range((size >> wl) // tpb):  # last round: the top bits, back to device memory
            u = tid + k * tpb
            su = swz(u)
            ou = base + offset(u, lo)
            for j in range(1 << wl):
                x[j] = sh[su ^ swz(j << pl)]
            bfl(x)
            for j in range(1 << wl):
                a[ou + offset(j << pl, lo)] = x[j]

    @_device
    def consume(a, base, lo, c, tid):  # pragma: no cover - compiled
        x = cuda.local.array(16, nbtype)
        step = 1 << (lo + tr)
        for k in range(per_consumer):
            v = tid + k * tpb
            if v >= half:
                break
            at = base + offset(c * half + v, lo)
            for j in range(nprod):
                if use_cg:
                    x[j] = cuda.ldcg(a, at + j * step)
                else:
                    x[j] = a[at + j * step]
            bfr(x)
            for j in range(nprod):
                a[at + j * step] = x[j]

    options = {}
    if use_cg and max_registers:
        options["max_registers"] = max_registers
    if use_cg and carveout:
        options["shared_memory_carveout"] = carveout

    @cuda.jit(**options)
    def kernel(a, lo, ngroups, lag, tickets, counters, status):  # pragma: no cover - compiled
        sh = cuda.shared.array(shape=size, dtype=nbtype)
        nxt = cuda.shared.array(shape=1, dtype=numba.int64)
        tid = cuda.threadIdx.x
        cshift = lo - cb  # 2^cshift column chunks of 2^cb columns
        cchunk = (1 << cshift) - 1
        span = lo + tr + R  # group g: rows [0, 2^(tr+R)) of its column chunk, above bit span its high part
        total = ((ngroups + lag) << (R + 1)) if R else ngroups
        if tid == 0:
            nxt[0] = cuda.atomic.add(tickets, 0, 1)
        cuda.syncthreads()
        item = nxt[0]
        while item < total:
            cuda.syncthreads()
            if tid == 0:
                nxt[0] = cuda.atomic.add(tickets, 0, 1)  # the next ticket, fetched while this item runs
            if R == 0:
                g = item
                base = ((g >> cshift) << span) | ((g & cchunk) << cb)
                produce(a, sh, base, lo, tid)
            else:
                s = item >> (R + 1)
                k = item & ((2 << R) - 1)
                if k < nprod:
                    if s < ngroups:
                        g = s
                        base = ((g >> cshift) << span) | ((g & cchunk) << cb)
                        produce(a, sh, base + (k << (lo + tr)), lo, tid)
                        cuda.threadfence()
                        cuda.syncthreads()
                        if tid == 0:
                            cuda.atomic.add(counters, g, 1)
                elif s >= lag:
                    g = s - lag
                    if tid == 0:
                        polls = 0
                        while cuda.atomic.add(counters, g, 0) < nprod:
                            polls += 1
                            if polls > _SPIN_LIMIT:
                                status[0] = 1
                                break
                        cuda.threadfence()
                    cuda.syncthreads()
                    base = ((g >> cshift) << span) | ((g & cchunk) << cb)
                    consume(a, base, lo, k - nprod, tid)
            cuda.syncthreads()
            item = nxt[0]

    _KERNELS[key] = kernel
    return kernel


def _reset_kernel():
    if "reset" not in _KERNELS:
        @cuda.jit
        def reset(tickets, counters):  # pragma: no cover - compiled
            i = cuda.grid(1)
            if i == 0:
                tickets[0] = 0
            for j in range(i, counters.shape[0], cuda.gridsize(1)):
                counters[j] = 0

        _KERNELS["reset"] = reset
    return _KERNELS["reset"]


def _sm_count() -> int:
    try:
        return int(cuda.get_current_device().MULTIPROCESSOR_COUNT)
    except Exception:  # the simulator's device has no such attribute
        return 1


def _resident_blocks(kernel, args, threads: int) -> int | None:
    """How many blocks of ``kernel`` fit on the device at once (compiles it for ``args``); None under the
    simulator or where numba-cuda cannot tell."""
    try:
        compiled = kernel.compile(tuple(numba.typeof(a) for a in args))
        return int(compiled.max_cooperative_grid_blocks(threads))
    except Exception:
        return None


def _check(name, v, lo, hi, pow2=False) -> None:
    if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or not lo <= v <= hi or (pow2 and v & (v - 1)):
        kind = "a power of 2" if pow2 else "an integer"
        raise ValueError(f"argument '{name}' must be {kind} in [{lo}, {hi}], not {v!r}")


def check_fused_args(tile_bits, radix_bits, tpb, blocks_per_sm, lag=None) -> None:
    """ValueError naming the argument unless every shape argument of :func:`wht_inplace_cuda_fused` is valid."""
    _check("tile_bits", tile_bits, 3, MAX_TILE_BITS)
    _check("radix_bits", radix_bits, 0, min(MAX_RADIX_BITS, tile_bits))
    _check("tpb", tpb, 1, 1024, pow2=True)
    _check("blocks_per_sm", blocks_per_sm, 1, 32)
    if lag is not None:
        _check("lag", lag, 0, 1 << 20)


def wht_inplace_cuda_fused(d, *, tile_bits: int = MAX_TILE_BITS, radix_bits: int = MAX_RADIX_BITS, tpb: int = 256,
                           blocks_per_sm: int = 8, lag: int | None = None, max_registers: int | None = None,
                           carveout: str | None = None, info: dict | None = None) -> None:
    """Transform the device array ``d`` (float64 or int64, length 2^n, validated by the caller) in place.

    ``tile_bits`` in [3, 12] (tiles of 2^tile_bits entries in shared memory), ``radix_bits`` in [0, 4]
    and at most ``tile_bits`` (consumer radix), ``tpb`` a power of 2 in [1, 1024], ``blocks_per_sm`` in
    [1, 32] (the persistent grid is at most that many blocks per SM and at most as many as fit at once),
    ``lag`` in [0, 2^20] steps (None: twice the blocks over the items per step, plus 2).
    ``max_registers`` (numba-cuda's register cap per thread, more blocks per SM) and ``carveout``
    (e.g. "MaxShared") are passed to cuda.jit on a GPU and ignored by the simulator.  ``info``, when given, receives
    the passes and launch shapes.  RuntimeError if a consumer timed out waiting for its producers (a bug,
    not a property of the input)."""
    check_fused_args(tile_bits, radix_bits, tpb, blocks_per_sm, lag)
    n = int(d.shape[0]).bit_length() - 1
    dtype = np.dtype(d.dtype)
    passes = fused_pass_schedule(n, tile_bits, radix_bits)
    reset = _reset_kernel()
    sms = _sm_count()
    status = cuda.to_device(np.zeros(1, dtype=np.int32))
    shapes = []
    ngmax = max(1 << (n - tr - R - cb) for _, cb, tr, R in passes)
    tickets = cuda.device_array(1, dtype=np.int64)
    counters = cuda.device_array(ngmax, dtype=np.int64)
    for lo, cb, tr, R in passes:
        T = tr + cb
        ngroups = 1 << (n - tr - R - cb)
        threads = max(1, min(tpb, (1 << T) >> 3))
        items = ngroups << (R + 1) if R else ngroups
        kernel = _pass_kernel(dtype, T, cb, R, threads, max_registers, carveout)
        resident = _resident_blocks(kernel, (d, lo, ngroups, 0, tickets, counters, status), threads)
        if resident == 0:
            raise ValueError(f"argument 'tpb' = {tpb}: no block of {threads} threads of this kernel fits on the device "
                             f"(registers per thread x threads over the register file); use a smaller tpb")
        blocks = max(1, min(items, sms * blocks_per_sm, resident or items))
        step = 2 << R if R else 1
        lg = 0 if R == 0 else (2 * blocks // step + 2) if lag is None else lag
        reset[max(1, min(64, -(-ngroups // 256))), 256](tickets, counters)
        kernel[blocks, threads](d, lo, ngroups, lg, tickets, counters, status)
        shapes.append({"lo": lo, "cols": 1 << cb, "tile_rows": 1 << tr, "radix": 1 << R, "groups": ngroups,
                       "blocks": blocks, "resident_blocks": resident, "threads": threads, "lag": lg})
    cuda.synchronize()
    if info is not None:
        info["passes"] = shapes
    if int(status.copy_to_host()[0]):
        raise RuntimeError("wht_inplace_cuda_fused: a consumer timed out waiting for its producers")
