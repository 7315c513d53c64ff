"""Sums of the two-layer engine's CPU body written as vector-register code (LLVM IR through numba's ``intrinsic``), in
the order of summation that every twin of the engine uses, so with the same bits as the scalar loops they replace.

* ``signed_row_sums``: out[j] = ((o_j + s_0 T[i_0, j]) + s_1 T[i_1, j]) + ... (s_t = ±1): every row of H = X W + b
  and of grad_W = X^T D from the group tables (kernels/training/_two_layer_rows.py).  As a loop over j that LLVM
  vectorises, each vector of out waits on its chain of m dependent adds, one vector at a time; here blocks of up to
  ``ROW_BLOCK`` vectors of out stay in registers while the loop runs over the terms, so that ``ROW_BLOCK`` chains run
  side by side (and out is read and written once per call, not once per pass of terms).
* ``lane_sums``: a read-out sum_j u_j a_j is four partial sums o_k = sum_i u_{4i+k} a_{4i+k} (k = 0..3), each added in
  increasing i.  They are the four lanes of one vector, but LLVM's vectorisers leave that loop scalar (a reduction
  whose lanes are the loop's own unrolled statements); here two samples share an 8-lane vector, four vectors in
  flight.

Every lane does the multiplications and additions of the scalar code, one rounding each (no fused multiply-add), in
the same order; the tests compare the bits (tests/kernels/test_training_two_layer.py).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

#: samples per call of ``lane_sums`` (four 8-lane accumulators of two samples each)
LANE_BLOCK = 8
#: vectors of 8 entries of out held in registers by ``signed_row_sums`` (float32; half as many for float64): 13 of
#: the 16 ymm registers of AVX2, and a whole padded row of 100 units (measured 2026-11-28, float32, width 100, one
#: thread, time per run-step: 4 vectors 1.16x, 6 1.04x, 8 1.12x the time with 13)
ROW_BLOCK = 13

_I32 = ir.IntType(32)
_I64 = ir.IntType(64)


def _is_row(a, layout="C"):
    return isinstance(a, types.Array) and a.ndim == 1 and isinstance(a.dtype, types.Float) and a.layout == layout


def _is_table(a):
    return isinstance(a, types.Array) and a.ndim == 2 and isinstance(a.dtype, types.Float) and a.layout == "C"


def _splat(builder, x, n):
    v = builder.insert_element(ir.Constant(ir.VectorType(x.type, n), None), x, ir.Constant(_I32, 0))
    return builder.shuffle_vector(v, v, ir.Constant(ir.VectorType(_I32, n), [0] * n))


def _vector_at(builder, ptr, j, vec):
    """The address of the vector of ``vec`` entries at element j of ``ptr``."""
    return builder.bitcast(builder.gep(ptr, [j], inbounds=True), vec.as_pointer())


@intrinsic
def signed_row_sums(typingctx, out, T, terms, m, count, relu):  # pragma: no cover - compiled
    """out[j] = (((+0 + s_0 T[i_0, j]) + s_1 T[i_1, j]) + ...) + s_{m-1} T[i_{m-1}, j] for j < count, where
    terms[t] = 2 i_t + [s_t < 0] (s_t = ±1, so each product s_t T[i_t, j] is exact); with ``relu``, max(0, that) as
    numba's max(0, x) gives it (x if x > 0 else +0).  T's rows are padded to a multiple of 8 entries and at least
    count long (whole vectors are read; only out[:count] is written); out is no row of T named by a term; terms may
    be strided (a column of a term matrix)."""
    if not (_is_row(out) and _is_table(T) and T.dtype == out.dtype and isinstance(terms, types.Array)
            and terms.ndim == 1 and terms.dtype == types.int64):
        return None

    def codegen(context, builder, sig, args):
        o = context.make_array(sig.args[0])(context, builder, args[0])
        tab = context.make_array(sig.args[1])(context, builder, args[1])
        tm = context.make_array(sig.args[2])(context, builder, args[2])
        fty = sig.args[1].dtype
        elt = context.get_data_type(fty)
        align = fty.bitwidth // 8
        block = ROW_BLOCK if align == 4 else max(1, ROW_BLOCK // 2)
        vec = ir.VectorType(elt, 8)
        i8p = ir.IntType(8).as_pointer()
        m_ = context.cast(builder, args[3], sig.args[3], types.int64)
        count_ = context.cast(builder, args[4], sig.args[4], types.int64)
        relu_ = _splat(builder, context.cast(builder, args[5], sig.args[5], types.boolean), 8)
        row_bytes = cgutils.unpack_tuple(builder, tab.strides, 2)[0]
        term_bytes = cgutils.unpack_tuple(builder, tm.strides, 1)[0]
        tab_base = builder.bitcast(tab.data, i8p)
        term_base = builder.bitcast(tm.data, i8p)
        zero = ir.Constant(vec, [ir.Constant(elt, 0.0)] * 8)
        accs = [cgutils.alloca_once(builder, vec) for _ in range(block)]

        def store(v, j):
            """out[j : min(j + 8, count)] = v's lanes (ReLU'd if asked)."""
            v = builder.select(relu_, builder.select(builder.fcmp_ordered(">", v, zero), v, zero), v)
            whole = builder.icmp_signed("<=", builder.add(j, ir.Constant(_I64, 8)), count_)
            with builder.if_else(whole) as (then, otherwise):
                with then:
                    builder.store(v, _vector_at(builder, o.data, j, vec), align=align)
                with otherwise:  # the last, partial vector of the row
                    for e in range(8):
                        je = builder.add(j, ir.Constant(_I64, e))
                        with builder.if_then(builder.icmp_signed("<", je, count_)):
                            builder.store(builder.extract_element(v, ir.Constant(_I32, e)),
                                          builder.gep(o.data, [je], inbounds=True))

        def sums(size, j0):
            """out[j0 : j0 + 8 size]: size accumulators, one pass over the terms."""
            for k in range(size):
                builder.store(zero, accs[k])
            with cgutils.for_range(builder, m_) as loop:
                at = builder.gep(term_base, [builder.mul(loop.index, term_bytes)])
                term = builder.load(builder.bitcast(at, _I64.as_pointer()))
                # s_t as the bits of +1.0 with the sign bit [s_t < 0] (arithmetic: a select of constants may become a
                # branch, which random signs defeat)
                bits = builder.shl(builder.and_(term, ir.Constant(_I64, 1)), ir.Constant(_I64, fty.bitwidth - 1))
                if fty.bitwidth == 32:
                    bits = builder.trunc(bits, _I32)
                one_bits = ir.Constant(bits.type, 0x3F800000 if fty.bitwidth == 32 else 0x3FF0000000000000)
                sign = _splat(builder, builder.bitcast(builder.or_(bits, one_bits), elt), 8)
                row = builder.gep(tab_base, [builder.mul(builder.ashr(term, ir.Constant(_I64, 1)), row_bytes)])
                row = builder.bitcast(row, elt.as_pointer())
                for k in range(size):
                    g = builder.load(_vector_at(builder, row, builder.add(j0, ir.Constant(_I64, 8 * k)), vec), align=align)
                    builder.store(builder.fadd(builder.load(accs[k]), builder.fmul(sign, g)), accs[k])
            for k in range(size):
                store(builder.load(accs[k]), builder.add(j0, ir.Constant(_I64, 8 * k)))

        nvec = builder.udiv(builder.add(count_, ir.Constant(_I64, 7)), ir.Constant(_I64, 8))
        full = builder.udiv(nvec, ir.Constant(_I64, block))
        with cgutils.for_range(builder, full) as loop:
            sums(block, builder.mul(loop.index, ir.Constant(_I64, 8 * block)))
        # the vectors left over (fewer than a block): blocks of 8, 4, 2, 1 vectors as the bits of their count say
        left = builder.urem(nvec, ir.Constant(_I64, block))
        done = builder.mul(full, ir.Constant(_I64, block))
        for size in (8, 4, 2, 1):
            if size >= block:
                continue
            with builder.if_then(builder.icmp_unsigned("!=", builder.and_(left, ir.Constant(_I64, size)),
                                                       ir.Constant(_I64, 0))):
                before = builder.and_(left, ir.Constant(_I64, -2 * size))  # the vectors of the larger blocks
                sums(size, builder.mul(builder.add(done, before), ir.Constant(_I64, 8)))
        return context.get_dummy_value()

    return types.void(out, T, terms, m, count, relu), codegen


@intrinsic
def lane_sums(typingctx, uvec, A, first, last, quads):  # pragma: no cover - compiled
    """(o_0, o_1, o_2, o_3 of row first, of row first + 1, ..., of row first + 7 of A): 32 values, where
    o_k = sum_{i < quads} uvec[4i + k] A[row, 4i + k], added in increasing i from +0.  Rows after ``last`` are read as
    row ``last`` (their sums are not needed: the caller passes the last row it wants).  uvec and the rows of A must be
    contiguous, of the same float type, with at least 4 quads entries."""
    if not (_is_row(uvec) and _is_table(A) and A.dtype == uvec.dtype):
        return None
    ret = types.UniTuple(A.dtype, 4 * LANE_BLOCK)

    def codegen(context, builder, sig, args):
        u = context.make_array(sig.args[0])(context, builder, args[0])
        a = context.make_array(sig.args[1])(context, builder, args[1])
        elt = context.get_data_type(sig.args[1].dtype)
        align = sig.args[1].dtype.bitwidth // 8
        v4, v8 = ir.VectorType(elt, 4), ir.VectorType(elt, 8)
        first_ = context.cast(builder, args[2], sig.args[2], types.int64)
        last_ = context.cast(builder, args[3], sig.args[3], types.int64)
        quads_ = context.cast(builder, args[4], sig.args[4], types.int64)
        row_bytes = cgutils.unpack_tuple(builder, a.strides, 2)[0]
        base = builder.bitcast(a.data, ir.IntType(8).as_pointer())
        rows = []
        for k in range(LANE_BLOCK):
            idx = builder.add(first_, ir.Constant(_I64, k))
            idx = builder.select(builder.icmp_signed(">", idx, last_), last_, idx)
            rows.append(builder.bitcast(builder.gep(base, [builder.mul(idx, row_bytes)]), elt.as_pointer()))
        accs = [cgutils.alloca_once_value(builder, ir.Constant(v8, [ir.Constant(elt, 0.0)] * 8))
                for _ in range(LANE_BLOCK // 2)]
        twice = ir.Constant(ir.VectorType(_I32, 8), [0, 1, 2, 3, 0, 1, 2, 3])
        joined = ir.Constant(ir.VectorType(_I32, 8), list(range(8)))
        with cgutils.for_range(builder, quads_) as loop:
            j = builder.mul(loop.index, ir.Constant(_I64, 4))
            uq = builder.load(_vector_at(builder, u.data, j, v4), align=align)
            u8 = builder.shuffle_vector(uq, uq, twice)
            for p, acc in enumerate(accs):
                x0 = builder.load(_vector_at(builder, rows[2 * p], j, v4), align=align)
                x1 = builder.load(_vector_at(builder, rows[2 * p + 1], j, v4), align=align)
                builder.store(builder.fadd(builder.load(acc), builder.fmul(u8, builder.shuffle_vector(x0, x1, joined))),
                              acc)
        values = []
        for acc in accs:
            v = builder.load(acc)
            values += [builder.extract_element(v, ir.Constant(_I32, k)) for k in range(8)]
        return context.make_tuple(builder, sig.return_type, values)

    return ret(uvec, A, first, last, quads), codegen


def _fixed_identity(fn, name: str) -> None:
    """Give the intrinsic ``fn`` an identity that is the same in every process.  numba pickles an intrinsic, identity
    included, into the cache index key of every cached kernel that calls it (through the closures of the engine's
    bodies); its default identity is a uuid drawn in each process, which would make every process miss the cache and
    compile the engine again (tests/kernels/test_training_two_layer.py checks that the key does not change)."""
    try:
        fn._set_uuid(f"dltheory-verify:{__name__}.{name}")
    except (AttributeError, AssertionError):  # another numba's private API: a process-specific key, a slower start
        pass


_fixed_identity(signed_row_sums, "signed_row_sums")
_fixed_identity(lane_sums, "lane_sums")
