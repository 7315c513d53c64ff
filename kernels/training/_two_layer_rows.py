"""Row sums of the two-layer engine's CPU body (kernels/training/_two_layer_body.py): add_combination, the order
of summation of every row of H = X W + b and of grad_W = X^T D on the loop path, and the group tables that give the
same bits with fewer operations; the read-out sums (two samples at once).

``build_row_sums(F)`` returns the ``register_jitable`` functions in the float type F (np.float32 / np.float64),
which ``_two_layer_body._build`` unpacks.  The group tables exploit that the coefficients are ±1 (the inputs of
the parity task): for each group of four rows, the eight entries (R0 + c1 R1) + (c2 R2 + c3 R3) hold every sign
pattern up to an exact overall sign, so each group of four products and three adds of add_combination becomes one
row read and a sign.  The padded rows (a multiple of 8 entries, the padding +0) let every pass over a row run in
whole vectors.  Nothing here changes a bit of the sums (tests/kernels/test_training_two_layer.py checks them against
add_combination's order computed in numpy).
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable


def build_row_sums(F):
    """(add_combination, fill_group, group_term_of, group_term, row_term, add_terms, copy_row, weight_groups,
    is_zero_row, table_parts, readout_pair) in the float type F."""
    zero = F(0.0)
    one = F(1.0)
    two = F(2.0)

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
    def term_sign(term):  # pragma: no cover - compiled
        """The sign (±1 in F) of a term."""
        return one - two * F(term & 1)

    @register_jitable
    def add_terms(out, T, terms, m, fresh):  # pragma: no cover - compiled
        """out[j] = (((o_j + s_0 T[i_0, j]) + s_1 T[i_1, j]) + ...) + s_{m-1} T[i_{m-1}, j] for every j < T.shape[1]
        (the padded width: a multiple of 8, so that the vectorised loops have no scalar remainder), where
        terms[t] = 2 i_t + [s_t < 0] (``group_term``, ``row_term``) and o_j = +0 if ``fresh`` else out[j]; up to eight
        terms per pass over out (the same sums in the same order; each pass saves the load and store of out and its
        set-up).  Every s_t T[i_t, j] is exact (s_t = ±1).  Fresh, out is never -0 (a sum that starts at +0 is never
        -0 when rounding to nearest), so out + g does not depend on the sign of a zero g: a group's entry may be
        minus the zero that add_combination's sum gives (``fill_group``), with the same result."""
        rp = T.shape[1]
        t = 0
        keep = not fresh
        while t + 8 <= m:
            G0 = T[terms[t] >> 1]
            G1 = T[terms[t + 1] >> 1]
            G2 = T[terms[t + 2] >> 1]
            G3 = T[terms[t + 3] >> 1]
            G4 = T[terms[t + 4] >> 1]
            G5 = T[terms[t + 5] >> 1]
            G6 = T[terms[t + 6] >> 1]
            G7 = T[terms[t + 7] >> 1]
            s0 = term_sign(terms[t])
            s1 = term_sign(terms[t + 1])
            s2 = term_sign(terms[t + 2])
            s3 = term_sign(terms[t + 3])
            s4 = term_sign(terms[t + 4])
            s5 = term_sign(terms[t + 5])
            s6 = term_sign(terms[t + 6])
            s7 = term_sign(terms[t + 7])
            for j in range(rp):
                o = out[j] if keep else zero
                out[j] = (((((((o + s0 * G0[j]) + s1 * G1[j]) + s2 * G2[j]) + s3 * G3[j]) + s4 * G4[j]) + s5 * G5[j])
                          + s6 * G6[j]) + s7 * G7[j]
            keep = True
            t += 8
        if t + 4 <= m:
            G0 = T[terms[t] >> 1]
            G1 = T[terms[t + 1] >> 1]
            G2 = T[terms[t + 2] >> 1]
            G3 = T[terms[t + 3] >> 1]
            s0 = term_sign(terms[t])
            s1 = term_sign(terms[t + 1])
            s2 = term_sign(terms[t + 2])
            s3 = term_sign(terms[t + 3])
            for j in range(rp):
                o = out[j] if keep else zero
                out[j] = (((o + s0 * G0[j]) + s1 * G1[j]) + s2 * G2[j]) + s3 * G3[j]
            keep = True
            t += 4
        if t + 2 <= m:
            G0 = T[terms[t] >> 1]
            G1 = T[terms[t + 1] >> 1]
            s0 = term_sign(terms[t])
            s1 = term_sign(terms[t + 1])
            for j in range(rp):
                o = out[j] if keep else zero
                out[j] = (o + s0 * G0[j]) + s1 * G1[j]
            keep = True
            t += 2
        if t < m:
            G0 = T[terms[t] >> 1]
            s0 = term_sign(terms[t])
            for j in range(rp):
                o = out[j] if keep else zero
                out[j] = o + s0 * G0[j]
            keep = True
        if not keep:
            for j in range(rp):
                out[j] = zero

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
        """The parts of the CPU body's table scratch (``table_scratch``): T's rows are [the group tables and the
        rows left over (8 max(n // 4, batch // 4) + 4 rows) | one padded row of sums], live's [the live groups and
        samples (max(n, batch) + 4 entries) | the terms (``add_terms``): of one row of H, or of every row of
        grad_W at once (batch // 4 + 4 rows of n)].  Returns (the row of sums, the terms)."""
        return T[8 * max(n // 4, batch // 4) + 4], live[max(n, batch) + 4 :]

    @register_jitable
    def readout_pair(uvec, A0, A1, r):  # pragma: no cover - compiled
        """(sum_j u_j a_j for a = A0, the same for A1): each as four partial sums over j mod 4, ((o0 + o1) +
        (o2 + o3)), the order of every twin (the per-sample body's ``forward``, the CUDA kernels, the numpy reference);
        the two samples' chains of dependent adds interleaved in one loop (eight independent partial sums).  One
        sample: pass it twice."""
        o0 = zero
        o1 = zero
        o2 = zero
        o3 = zero
        p0 = zero
        p1 = zero
        p2 = zero
        p3 = zero
        j = 0
        while j + 4 <= r:
            o0 += uvec[j] * A0[j]
            o1 += uvec[j + 1] * A0[j + 1]
            o2 += uvec[j + 2] * A0[j + 2]
            o3 += uvec[j + 3] * A0[j + 3]
            p0 += uvec[j] * A1[j]
            p1 += uvec[j + 1] * A1[j + 1]
            p2 += uvec[j + 2] * A1[j + 2]
            p3 += uvec[j + 3] * A1[j + 3]
            j += 4
        while j < r:
            o0 += uvec[j] * A0[j]
            p0 += uvec[j] * A1[j]
            j += 1
        return (o0 + o1) + (o2 + o3), (p0 + p1) + (p2 + p3)

    return (add_combination, fill_group, group_term_of, group_term, row_term, add_terms, copy_row, weight_groups,
            is_zero_row, table_parts, readout_pair)
