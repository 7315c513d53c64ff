"""Row sums of the two-layer engine's CPU body (kernels/training/_two_layer_body.py): add_combination, the order
of summation of every row of H = X W + b and of grad_W = X^T D on the loop path, and the group tables that give the
same bits with fewer operations; the read-out sums; grad_u and grad_b's running sums over the batch.

``build_row_sums(F)`` returns the ``register_jitable`` functions in the float type F (np.float32 / np.float64),
which ``_two_layer_body._build`` unpacks.  The group tables exploit that the coefficients are ±1 (the inputs of
the parity task): for each group of four rows, the eight entries (R0 + c1 R1) + (c2 R2 + c3 R3) hold every sign
pattern up to an exact overall sign, so each group of four products and three adds of add_combination becomes one
row read and a sign.  The sums over a table's rows and the read-outs run as vector-register code
(kernels/training/_vector_sums.py); the padded rows (a multiple of 8 entries, the padding +0) let it read whole
vectors.  Nothing here changes a bit of the sums (tests/kernels/test_training_two_layer.py checks them against
add_combination's order computed in numpy).
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from ._vector_sums import LANE_BLOCK, lane_sums, signed_row_sums


def build_row_sums(F):
    """(add_combination, fill_group, group_term_of, group_term, row_term, add_terms, copy_row, weight_groups,
    is_zero_row, table_parts, readouts, accumulate_rows) in the float type F."""
    zero = F(0.0)

    @register_jitable
    def add_combination(out, coef, rows, count, r):  # pragma: no cover - compiled
        """out[j] += sum_{q < count} coef[q] rows[q, j], four rows per pass over out (in that order:
        ((c0 R0 + c1 R1) + (c2 R2 + c3 R3)), then one row at a time).  Row views indexed by the loop
        counter: LLVM vectorises the loop over j (see forward_rows)."""
        q = 0
        while q + 4 <= count:
            c0 = coef[q]
            c1 = coef[q + 1]
            c2 = coef[q + 2]
            c3 = coef[q + 3]
            R0 = rows[q]
            R1 = rows[q + 1]
            R2 = rows[q + 2]
            R3 = rows[q + 3]
            for j in range(r):
                out[j] += (c0 * R0[j] + c1 * R1[j]) + (c2 * R2[j] + c3 * R3[j])
            q += 4
        while q < count:
            c = coef[q]
            Rq = rows[q]
            for j in range(r):
                out[j] += c * Rq[j]
            q += 1

    @register_jitable
    def fill_group(T, q, R0, R1, R2, R3, r):  # pragma: no cover - compiled
        """The group table of one of add_combination's groups of four rows: T[8q + 4 e1 + 2 e2 + e3, j] =
        (R0[j] + c1 R1[j]) + (c2 R2[j] + c3 R3[j]) with c_i = 1 - 2 e_i, the group's sum for the coefficients
        (1, c1, c2, c3), in F (the same products and sums as add_combination's: the coefficients are ±1, so each
        product is exact, and -R2 + R3 = -(R2 - R3) exactly).  The coefficients (-1, -c1, -c2, -c3) give minus that
        entry, exactly (rounding to nearest is symmetric; only the sign of a zero sum may differ, and out + 0 does
        not depend on it, as out is never -0: see ``add_terms``)."""
        G0 = T[8 * q]
        G1 = T[8 * q + 1]
        G2 = T[8 * q + 2]
        G3 = T[8 * q + 3]
        G4 = T[8 * q + 4]
        G5 = T[8 * q + 5]
        G6 = T[8 * q + 6]
        G7 = T[8 * q + 7]
        for j in range(r):
            ap = R0[j] + R1[j]
            am = R0[j] - R1[j]
            bp = R2[j] + R3[j]
            bm = R2[j] - R3[j]
            G0[j] = ap + bp
            G1[j] = ap + bm
            G2[j] = ap - bm
            G3[j] = ap - bp
            G4[j] = am + bp
            G5[j] = am + bm
            G6[j] = am - bm
            G7[j] = am - bp

    @register_jitable
    def group_term_of(q, c0, c1, c2, c3):  # pragma: no cover - compiled
        """The term (2 row + [s < 0]) whose row of T times the sign s is group q's sum for the coefficients
        (c0, c1, c2, c3) (±1; ``fill_group``'s row 8q + v, s = c0; no branch: random signs would defeat branch
        prediction)."""
        v = 4 * np.int64(c1 != c0) + 2 * np.int64(c2 != c0) + np.int64(c3 != c0)
        return 2 * (8 * q + v) + np.int64(c0 < zero)

    @register_jitable
    def group_term(coef, q):  # pragma: no cover - compiled
        """``group_term_of`` for the coefficients coef[4q : 4q + 4]."""
        return group_term_of(q, coef[4 * q], coef[4 * q + 1], coef[4 * q + 2], coef[4 * q + 3])

    @register_jitable
    def row_term(row, c):  # pragma: no cover - compiled
        """The term of row ``row`` of T with the coefficient c (±1)."""
        return 2 * row + np.int64(c < zero)

    @register_jitable
    def add_terms(out, T, terms, m, count, relu):  # pragma: no cover - compiled
        """out[j] = (((+0 + s_0 T[i_0, j]) + s_1 T[i_1, j]) + ...) + s_{m-1} T[i_{m-1}, j] for j < count (with ``relu``,
        max(0, that)), where terms[t] = 2 i_t + [s_t < 0] (``group_term``, ``row_term``): ``signed_row_sums``, which
        holds blocks of out in vector registers while it runs over the terms.  Every s_t T[i_t, j] is exact
        (s_t = ±1).  A sum that starts at +0 is never -0 (rounding to nearest), so out + g does not depend on the sign
        of a zero g: a group's entry may be minus the zero that add_combination's sum gives (``fill_group``), with the
        same result."""
        signed_row_sums(out, T, terms, m, count, relu)

    @register_jitable
    def copy_row(T, row, R, r):  # pragma: no cover - compiled
        """T[row, :r] = R[:r] (the padding T[row, r:] stays +0)."""
        Tr = T[row]
        for j in range(r):
            Tr[j] = R[j]

    @register_jitable
    def weight_groups(theta, n, r, T):  # pragma: no cover - compiled
        """The group table of the rows of W (every group of four: rows 8q .. 8q + 7 of T), then the rows of W left
        over and b (rows 8 (n // 4) + 0, 1, ...)."""
        W = theta[: n * r].reshape((n, r))
        G = n // 4
        for q in range(G):
            fill_group(T, q, W[4 * q], W[4 * q + 1], W[4 * q + 2], W[4 * q + 3], r)
        for i in range(4 * G, n):
            copy_row(T, 8 * G + i - 4 * G, W[i], r)
        copy_row(T, 8 * G + n - 4 * G, theta[n * r : n * r + r], r)

    @register_jitable
    def is_zero_row(row, r):  # pragma: no cover - compiled
        """Whether every entry of row[:r] is +0 or -0 (a NaN is not): a count without an early exit, which LLVM
        vectorises (a row of zeros, the case that has to read every entry, costs r / 8 vector compares)."""
        nonzero = 0
        for j in range(r):
            nonzero += np.int32(row[j] != zero)
        return nonzero == 0

    @register_jitable
    def table_parts(T, live, n, batch):  # pragma: no cover - compiled
        """The terms (``add_terms``) in the CPU body's table scratch (``table_scratch``): live's entries after the live
        groups and samples (max(n, batch) + 4 entries), the terms of one row of H or of every row of grad_W at once
        (batch // 4 + 4 rows of n).  T's rows are the group tables and the rows left over (8 max(n // 4, batch // 4) + 4
        rows)."""
        return live[max(n, batch) + 4 :]

    @register_jitable
    def readouts(uvec, A, fout, m, r, c):  # pragma: no cover - compiled
        """fout[s] = c + sum_j u_j A[s, j] for s < m: the sum as four partial sums over j mod 4 (the entries left
        over added to the first), then ((o0 + o1) + (o2 + o3)), the order of every twin (the per-sample body's
        ``forward``, the CUDA kernels, the numpy reference); the partial sums of eight samples at a time in vector
        registers (``lane_sums``: the same bits)."""
        quads = r // 4
        last = m - 1
        for s0 in range(0, m, LANE_BLOCK):
            L = lane_sums(uvec, A, s0, last, quads)
            for k in range(min(LANE_BLOCK, m - s0)):
                o0 = L[4 * k]
                As = A[s0 + k]
                for j in range(4 * quads, r):
                    o0 += uvec[j] * As[j]
                fout[s0 + k] = c + ((o0 + L[4 * k + 1]) + (L[4 * k + 2] + L[4 * k + 3]))

    @register_jitable
    def accumulate_rows(out, coef, rows, count, r, scaled):  # pragma: no cover - compiled
        """out[j] = (((out[j] + c_0 R_0[j]) + c_1 R_1[j]) + ...) + c_{count-1} R_{count-1}[j] for j < r, R_s = rows[s],
        c_s = coef[s] if ``scaled`` else no product (R_s[j] itself): the sums of one row at a time, four rows per
        pass over out (the same adds in the same order, a quarter of the loads and stores of out)."""
        s = 0
        while s + 4 <= count:
            R0 = rows[s]
            R1 = rows[s + 1]
            R2 = rows[s + 2]
            R3 = rows[s + 3]
            if scaled:
                c0 = coef[s]
                c1 = coef[s + 1]
                c2 = coef[s + 2]
                c3 = coef[s + 3]
                for j in range(r):
                    out[j] = (((out[j] + c0 * R0[j]) + c1 * R1[j]) + c2 * R2[j]) + c3 * R3[j]
            else:
                for j in range(r):
                    out[j] = (((out[j] + R0[j]) + R1[j]) + R2[j]) + R3[j]
            s += 4
        while s < count:
            Rs = rows[s]
            c = coef[s]
            for j in range(r):
                out[j] += c * Rs[j] if scaled else Rs[j]
            s += 1

    return (add_combination, fill_group, group_term_of, group_term, row_term, add_terms, copy_row, weight_groups,
            is_zero_row, table_parts, readouts, accumulate_rows)
