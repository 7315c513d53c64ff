"""The transformer's covering / generalisation chain (E11-E22): Theorems 4 and 10, Lemma 18, Proposition 17,
Corollary 19, evaluated as explicit functions of N, q, d (hidden absolute constants set to 1, as the catalog
prescribes), plus Lemma 12 (E13) checked directly; the other exact sub-lemmas are in
verify.sparse_retrieval.attention_lipschitz (Lemmas 13, 15, 30) and
verify.sparse_retrieval.attention_packing_moments (Lemmas 16/41, 20, 39).

The scaling claims are MECHANISM claims: the bounds have no explicit constants, so what is checked is their
shape - the sample size n*(N) needed by the upper bound grows polylogarithmically in N, in contrast with the feedforward lower bound (1 - eps) N d (E24).  Each has the
mutant "encoding dimension D_e replaced by N" (what an N-dimensional positional encoding would give), which
the same test rejects.  The test: the "polylog degree" Delta log Q / Delta log log N between N = 2^20 and 2^60
must be <= 8 (log^k N growth has degree ~k; a power law N^c has degree ~29 c), and its drift (the degree on
[2^60, 2^180] minus the degree on [2^20, 2^60]) at most 1.5: a power law's degree keeps growing, so the drift
catches powers down to about N^0.015 that a single window misses.

Audited under the verdict contract (second reader): docs/audit/seed002_attention_bounds.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import ceil, e, exp, log, sqrt

import numpy as np
from scipy.stats import chi2


from ..registry import Evidence, Kind, Mutant, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True

# ---------------------------------------------------------------------------------------------
# closed forms (hidden constants = 1; linear link: r_a = 2q, r_w = 1, m_g = 2q; C_x = 1; c_e = 16)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setting:
    q: int = 2
    d: int = 10
    eps: float = 0.1
    dim_of_N: str = "log"  # D_e = d + (q+1) d_e with d_e = ceil(c_e ln N); 'linear': d_e = N (mutant)
    c_e: float = 16.0  # Assumption 3's encoding dimension d_e = ceil(c_e ln N) (the catalog's c_e = 16)
    de_power: float = 0.0  # printed d_e = Theta(log N): d_e carries an extra factor N^de_power (0 as printed)
    rx_coef: float = 3.0  # Lemma 12's radius r_x^2 = rx_coef C_x e d log(nN)


def _d_e(s: Setting, N: float) -> float:
    base = float(ceil(s.c_e * log(N))) if s.dim_of_N == "log" else float(N)
    return base * N**s.de_power


def _r_z2(s: Setting, n: float, N: float) -> float:
    return s.rx_coef * e * s.d * log(n * N) + s.d * (1 + 1 / s.q)


def _thm4(s: Setting, n: float, N: float) -> float:
    q, d = s.q, s.d
    r_a, r_w, m_g = 2.0 * q, 1.0, 2 * q
    De = d + (q + 1) * _d_e(s, N)
    kappa2 = q * r_a**2 * r_w**2 * _r_z2(s, n, N)
    return kappa2 * sqrt((m_g * q * De + q * De**2) * log(n * N) / n)


def _alpha(s: Setting, n: float, N: float) -> float:
    return 2 * s.q / s.d * log(2 * 2 * s.q * sqrt(_r_z2(s, n, N)) * N * sqrt(s.q) / sqrt(s.eps))


def _thm10_maurey(s: Setting, n: float, N: float) -> float:
    """C_2' = r_z^6 r_a^2 r_w^2 q^2 (q d_e/d)^2 alpha^2 (the Maurey branch of Theorem 10's min)."""
    q, d = s.q, s.d
    r_a, r_w = 2.0 * q, 1.0
    return _r_z2(s, n, N) ** 3 * r_a**2 * r_w**2 * q**2 * (q * _d_e(s, N) / d) ** 2 * _alpha(s, n, N) ** 2


def _thm10(s: Setting, n: float, N: float, branch: str = "min") -> float:
    """Theorem 10's bound with hidden constants 1.  Its O~ terms m_g q (d + q) and q (q^2 + d^2) abbreviate
    the proof's C_1 = m_g H D_e and C_3 = H D_e^2 (Lemma 18, Corollary 19) with D_e = d + (q+1) d_e = O~(d + q);
    they are evaluated with D_e, so that the N-dependence the O~ hides (d_e = Theta(log N)) is kept."""
    q = s.q
    r_a, r_w, m_g = 2.0 * q, 1.0, 2 * q
    De = s.d + (q + 1) * _d_e(s, N)
    c_tau = q * r_a**2 * r_w**2 * _r_z2(s, n, N)
    maurey = _thm10_maurey(s, n, N)
    frob = q * De**2
    inner = {"min": min(maurey, frob), "maurey": maurey}[branch]
    return c_tau * sqrt((m_g * q * De + inner) * log(n * N) / n)


def _prop17(s: Setting, N: float, eps_cov: float = 0.1) -> float:
    q, d = s.q, s.d
    H, m_g = q, 2 * q
    n = 1000.0
    r_a, r_w = 2.0 * q, 1.0
    De = d + (q + 1) * _d_e(s, N)
    r_z = sqrt(_r_z2(s, n, N))
    r_qk = _alpha(s, n, N) * _d_e(s, N)
    R = max(r_a / sqrt(m_g), sqrt(m_g) * r_w, r_z)
    maurey = r_z**6 * (r_a / sqrt(m_g)) ** 2 * (sqrt(m_g) * r_w) ** 2 * H**2 * r_qk**2 * log(H * De**2) / eps_cov**2
    vol = H * De**2 * log(1 + sqrt(H) * r_qk * r_z**2 * r_a * r_w / eps_cov)
    return m_g * H * De * log(1 + R / eps_cov) + min(maurey, vol)


def _lemma18(s: Setting, N: float, n: float = 10**4) -> float:
    q, d = s.q, s.d
    H, m_g = q, 2 * q
    r_a, r_w = 2.0 * q, 1.0
    De = d + (q + 1) * _d_e(s, N)
    rz2 = _r_z2(s, n, N)
    tau = H * r_a**2 * r_w**2 * rz2 * log(N * n)
    C1, C3 = m_g * H * De, H * De**2
    C2 = rz2**3 * r_a**2 * r_w**2 * H**2 * (_alpha(s, n, N) * _d_e(s, N)) ** 2
    return tau * sqrt((C1 + min(C2, C3)) / n)


def _cor19(s: Setting, N: float, n: float = 10**4, delta: float = 0.05) -> float:
    q = s.q
    tau = q * (2.0 * q) ** 2 * _r_z2(s, n, N) * log(N * n)
    return _lemma18(s, N, n) + tau * sqrt(log(1 / delta) / n)


def _nstar(bound, s: Setting, N: float) -> float:
    """min n with bound(n, N) <= eps (bisection on log n in [0, 700]; the bounds decrease in n for n >= N)."""
    lo, hi = 0.0, 700.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid == lo or mid == hi:
            # lo and hi are adjacent floats: every further step would set lo = mid = lo or hi = mid = hi,
            # whatever the bound, so stopping here returns the value of the 200 steps (after ~60 of them)
            break
        if bound(s, exp(mid), N) <= s.eps:
            hi = mid
        else:
            lo = mid
    return exp(hi)


def _polylog_degree(f, N1: float = 2.0**20, N2: float = 2.0**60) -> float:
    """Delta log f / Delta log log N between N1 and N2: bounded for polylog(N) growth (the degree), while a
    power law N^c gives c ln N -> infinity (c * 25 on 2^20..2^60, so c >= 0.32 exceeds 8)."""
    return (log(f(N2)) - log(f(N1))) / (log(log(N2)) - log(log(N1)))


_DEGREE_MAX = 8.0
#: the power-law test: the polylog degree on 2^60..2^180 may exceed the one on 2^20..2^60 by at most this.  A
#: factor N^c adds c (ln N2 - ln N1)/(ln ln N2 - ln ln N1) to a degree: 25.2 c on the low range, 75.7 c on the
#: high one, so the drift grows by 50.5 c; the evaluated polylog bounds drift by 0.01..0.76.
_DRIFT_MAX = 1.5
_N_LOW = (2.0**20, 2.0**60)
_N_HIGH = (2.0**60, 2.0**180)


def _scaling_check(st: Setting, fn, what: str, extra=None) -> Verdict:
    """Part polylog_N for (q, d) in {(1,10), (2,10), (4,16), (8,8)}: the polylog degree of fn(N) on 2^20..2^60
    is <= 8, and its drift (degree on 2^60..2^180 minus degree on 2^20..2^60) is <= 1.5."""
    ev = Evidence("le", rigor=Rigor.MECHANISM)
    for q, d in ((1, 10), (2, 10), (4, 16), (8, 8)):
        s = replace(st, q=q, d=d)
        low = _polylog_degree(lambda N, s=s: fn(s, N), *_N_LOW)
        high = _polylog_degree(lambda N, s=s: fn(s, N), *_N_HIGH)
        ev.add({"q": q, "d": d, "quantity": what, "criterion": "polylog degree", "N range": "2^20..2^60"}, low,
               _DEGREE_MAX, part="polylog_N")
        ev.add({"q": q, "d": d, "quantity": what, "criterion": "degree drift (power-law test)",
                "N range": "2^60..2^180 vs 2^20..2^60", "degree_low": low, "degree_high": high}, high - low,
               _DRIFT_MAX, part="polylog_N")
        if extra is not None:
            extra(ev, s)
    return ev.verdict()


_MECH = {"expect": Status.MECHANISM, "rigor": Rigor.MECHANISM, "kind": Kind.MECHANISM}
_MUT_N = Mutant("D_e=N", "encoding dimension growing like N (one-hot positions) instead of Theta(log N)",
                Setting(dim_of_N="linear"))
_MUT_POW = Mutant("d_e-x-N^0.05", "encoding dimension d_e = ceil(16 ln N) N^{0.05} (a power of N, not Theta(log N)): "
                  "the evaluated bound then grows like a power of N; the old degree-only test (degree <= 8 on "
                  "2^20..2^60) accepted it, the drift test rejects it", Setting(de_power=0.05), origin="second-reader")
_POLYLOG_TEXT = ("checked as: for (q, d) in {(1,10), (2,10), (4,16), (8,8)}, hidden constants 1, the evaluated quantity "
                 "has polylog degree Delta log Q / Delta log log N <= 8 on N in [2^20, 2^60] and degree drift "
                 "(degree on [2^60, 2^180] minus degree on [2^20, 2^60]) <= 1.5")
_HIDDEN = ("the bound hides absolute constants and polylog factors (O~, <~) and its exponents are OCR-uncertain; no "
           "explicit inequality to test (catalog pitfall 13); only its N-dependence is checked (part polylog_N)")


@claim(
    id="seed002.theorem_4",
    source=SOURCE,
    label="Theorem 4",
    entry="E11",
    title="Transformer ERM sample complexity is polylogarithmic in N (bound evaluated; crossover with FFN's N d)",
    lines=[(348, 395)],
    printed=Setting(),
    parts=[
        Part("risk_bound", "w.p. >= 1 - n^{-c}: R^TR(Theta-hat) <~ eps_2NN + O~(C_1 sqrt((m_g q (d + q) + q^3 + q d^2)/n)), "
             "C_1 = R^2 q d, H = q, m = m_g, R^2 = O~(r_a^2/m_g + m_g r_w^2 + q^?/d)", asserted=False,
             reason=_HIDDEN + "; the ERM over the non-convex class is not computable"),
        Part("polylog_N", "the sample complexity depends on N only up to log factors (remark, lines 358-359); "
             + _POLYLOG_TEXT + ", Q = n*(N) = min{n : kappa^2 sqrt((m_g q D_e + q D_e^2) ln(nN)/n) <= eps}"),
        Part("fewer_than_ffn", "with Theorem 6 (FFN risk >= 1 - n/(N d)): beyond some N the transformer's n*(N) is below "
             "the FFN's (1 - eps) N d (the separation the section builds towards); checked for N = 2^k, k <= 300"),
    ],
    mutants=[_MUT_N, _MUT_POW],
    **_MECH,
)
def check_theorem_4(st: Setting, p, ctx) -> Verdict:
    """Theorem 4: the q-head transformer's ERM learns qSTR with sample size almost independent of N.

    Statement
    ---------
    [OCR? for exponents.]  With H = q, m = m_g, ||vec Theta|| <= R: R^TR(Theta-hat) <~ eps_2NN +
    O~(C_1 sqrt((m_g q (d + q) + q^3 + q d^2)/n)); N enters only through logarithms.

    Source
    ------
    Seed 002, Theorem 4, lines 348-356; remarks lines 358-395.

    Checkable form
    --------------
    Evaluate B(n; N) = kappa^2 sqrt((m_g q D_e + q D_e^2) ln(nN)/n), kappa^2 = q r_a^2 r_w^2 r_z^2,
    r_z^2 = rx_coef e d ln(nN) + d (1 + 1/q), D_e = d + (q + 1) ceil(c_e ln N) N^de_power (printed: rx_coef = 3,
    c_e = 16, de_power = 0; hidden constants 1, linear link r_a = 2q, r_w = 1, m_g = 2q), solve
    n*(N) = min{n : B <= eps = 0.1} by bisection.  Part polylog_N: for (q, d) in {(1,10), (2,10), (4,16), (8,8)}
    the polylog degree Delta log n* / Delta log log N over N in [2^20, 2^60] is <= 8, and the degree on
    [2^60, 2^180] exceeds it by at most 1.5 (a power law N^c raises the drift by 50.5 c).  Part fewer_than_ffn:
    the first N = 2^k (k <= 300) with n*(N) < (1 - eps) N d (Theorem 6's FFN lower bound) exists.

    Exactness
    ---------
    Mechanism: closed-form float evaluation.  The degree threshold 8 separates polylog growth of degree <= 8
    from a power law N^c with c >= 0.32 (degree ~25 c on the low range); the drift test resolves c >~ 0.015.

    Mutants
    -------
    D_e = N: n*(N) grows like N^2 (degree > 50).  d_e-x-N^0.05 (second reader): n* grows like N^{0.1} polylog N,
    not polylog (n* >= kappa^4 q D_e^2 ln(nN)/eps^2 >= c N^{0.1}); the old degree-only test accepted it
    (degree 5.55-5.80 < 8 on 2^20..2^60), the drift test rejects it (drift 5.74-5.76 > 1.5).

    Notes
    -----
    Second reader (parts): the risk bound itself has hidden constants and O~ factors (and C_1 = R^2 q d is
    OCR-uncertain against the proof's kappa^2 ~ R^4 q d, catalog pitfall 2): not asserted.  polylog_N and
    fewer_than_ffn are qualitative (growth class, existence of a crossover), not inequalities with printed
    constants, so they have no sharpness; the recorded ratios are degree/8, drift/1.5 and, for the crossover,
    n*/((1 - eps) N d) at the first crossing N (quick: degree 2.96-3.21, drift 0.70-0.71; crossovers at
    N = 2^61..2^88, the last at ratio 0.946 for q = d = 8).  Resolution: a factor N^c with c <~ 0.015 on n* is not distinguishable from polylog on any
    finite range; this limit is the drift threshold.
    """
    def extra(ev, s):
        for k in range(4, 301):
            N = 2.0**k
            ns = _nstar(_thm4, s, N)
            if ns < (1 - s.eps) * N * s.d:
                break
        ev.details[f"crossover q={s.q}, d={s.d}"] = f"N = 2^{k}: TR upper bound {ns:.3g} vs FFN lower bound {(1 - s.eps) * N * s.d:.3g}"
        ev.add({"q": s.q, "d": s.d, "N": f"2^{k}", "criterion": "n*_TR(N) < (1 - eps) N d"}, ns,
               (1 - s.eps) * N * s.d, relation="lt", part="fewer_than_ffn")

    v = _scaling_check(st, lambda s, N: _nstar(_thm4, s, N), "n*(N) of Theorem 4", extra)
    if st == Setting():
        s = Setting(q=1, d=10, eps=st.eps)
        ks = list(range(4, 161, 4))
        Ns = [2.0**k for k in ks]
        plot = {
            "title": "Sample sizes against N (q = 1, d = 10, target 0.1; hidden constants = 1)",
            "xlabel": "N", "ylabel": "prompts n", "logx": True, "logy": True,
            "series": [
                {"x": Ns, "y": [_nstar(_thm4, s, N) for N in Ns], "label": "Theorem 4 upper bound n*(N) (transformer)", "style": "-"},
                {"x": Ns, "y": [_nstar(_thm10, s, N) for N in Ns], "label": "Theorem 10 upper bound n*(N)", "style": "--"},
                {"x": Ns, "y": [0.9 * N * s.d for N in Ns], "label": "Theorem 6 lower bound 0.9 N d (FFN)", "style": ":"},
                {"x": Ns, "y": [((N / log(N)) ** 0.5) ** (1 / 3) for N in Ns],
                 "label": "Theorem 9 RNN crossover (N/log N)^{1/6} (1STR)", "style": "-."},
            ],
        }
        v = replace(v, plots=tuple(v.plots) + (plot,))
    return v


@claim(
    id="seed002.theorem_10",
    source=SOURCE,
    label="Theorem 10",
    entry="E12",
    title="Norm-constrained version: n*(N) polylog; the Frobenius branch of the min is the active one",
    lines=[(642, 663)],
    printed=Setting(),
    parts=[
        Part("risk_bound", "w.p. >= 1 - n^{-c}: R^TR(Theta-hat) <= O(eps_2NN) + O~(C_tau sqrt((m_g q (d+q) + min{C_2', "
             "q (q^2 + d^2)})/n)), C_tau = q r_a^2 r_w^2 r_z^2, C_2' = r_z^6 r_a^2 r_w^2 q^2 (q d_e/d)^2 alpha^2",
             asserted=False, reason=_HIDDEN + "; the ERM over the norm-constrained class is not computable"),
        Part("polylog_N", "(as Theorem 4) the sample complexity depends on N only through logarithms; " + _POLYLOG_TEXT
             + ", Q = n*(N) of the bound with m_g q (d+q) -> m_g q D_e and q (q^2 + d^2) -> q D_e^2 (the proof's C_1, C_3)"),
    ],
    mutants=[Mutant("maurey-only-one-hot", "the Maurey branch alone with one-hot codes (d_e = N)", Setting(dim_of_N="maurey-linear")),
             _MUT_N, _MUT_POW],
    **_MECH,
)
def check_theorem_10(st: Setting, p, ctx) -> Verdict:
    """Theorem 10: general norm-constrained version of Theorem 4.

    Statement
    ---------
    [R/OCR?]  With ||a|| <= r_a/sqrt m, ||(W, b)||_F <= sqrt(m) r_w, ||W_QK^(h)||_{2,1} <= alpha d_e:
    R^TR <= O(eps_2NN) + O~(C_tau sqrt((m_g q (d+q) + min{C_2', q (q^2 + d^2)})/n)), C_tau = q r_a^2 r_w^2 r_z^2,
    C_2' = r_z^6 r_a^2 r_w^2 q^2 (q d_e/d)^2 alpha^2.

    Source
    ------
    Seed 002, Theorem 10, lines 642-663.

    Checkable form
    --------------
    Evaluate the bound (hidden constants 1, fields of ``Setting`` as in Theorem 4) and n*(N); part polylog_N as in
    Theorem 4 (degree <= 8 on [2^20, 2^60], drift <= 1.5).  The O~ terms m_g q (d + q) and q (q^2 + d^2) are
    evaluated as the proof's C_1 = m_g H D_e and C_3 = H D_e^2 (Lemma 18 via Corollary 19), D_e = d + (q+1) d_e.
    The details record which branch of the min is active (Frobenius q D_e^2 for these settings).

    Exactness
    ---------
    Mechanism: closed-form float evaluation; thresholds as in Theorem 4.

    Mutants
    -------
    maurey-only-one-hot: without the min, with one-hot codes (d_e = N), C_2' grows like N^2 and n*(N) like N^2.
    D_e = N: the Frobenius term grows like N^2.  d_e-x-N^0.05 (second reader): both branches of the min grow like
    N^{0.1} (C_2' through d_e^2, q D_e^2), so n* >= c N^{0.1}: not polylog; accepted by the degree-only test
    (degree 5.55-5.80), rejected by the drift test (drift 5.74-5.76).

    Notes
    -----
    Second reader: the old check evaluated the Frobenius branch as the literal q (q^2 + d^2), with no D_e, so that
    branch (the active one) carried no N-dependence at all and no encoding-dimension mutant could act on it; it
    also ignored every field of the statement but eps.  Both are fixed.  The risk bound has hidden constants: not
    asserted.  polylog_N is a growth-class statement (no sharpness); quick: degree 2.96-3.21, drift 0.70-0.71
    (old: 1.04-1.33).  Evaluated with D_e, the bound coincides with Theorem 4's (kappa^2 = C_tau and the
    numerators agree once the O~ is expanded), as it should: Theorem 4 is the case ||vec Theta|| <= R.
    """
    def bound(s, n, N):
        if s.dim_of_N == "maurey-linear":
            return _thm10(replace(s, dim_of_N="linear"), n, N, branch="maurey")
        return _thm10(s, n, N)

    def extra(ev, s):
        n, N = 1e6, 2.0**15
        De = s.d + (s.q + 1) * _d_e(s, N)
        ev.details[f"branch q={s.q}, d={s.d}"] = "Frobenius" if s.q * De**2 < _thm10_maurey(s, n, N) else "Maurey"

    return _scaling_check(st, lambda s, N: _nstar(bound, s, N), "n*(N) of Theorem 10", extra)


@claim(
    id="seed002.proposition_17",
    source=SOURCE,
    label="Proposition 17",
    entry="E18",
    title="log covering number of F_TR grows polylogarithmically in N",
    lines=[(902, 916)],
    printed=Setting(),
    parts=[
        Part("covering_bound", "log C(F_TR, d_inf, eps) <~ m_g H D_e log(1 + R/eps) + min(r_z^6 r_{m,a}^2 R_{m,w}^2 H^2 "
             "r_QK^2 log(H D_e^2)/eps^2, H D_e^2 log(1 + sqrt(H) r_QK r_z^2 r_{m,a} R_{m,w}/eps)), R = max(r_{m,a}, "
             "R_{m,w}, r_z)", asserted=False,
             reason="hidden absolute constant (<~); covering numbers of F_TR are not computable at these sizes; only "
                    "the N-dependence of the evaluated bound is checked (part polylog_N)"),
        Part("polylog_N", "(used by Theorem 4) with D_e = d + (q+1) d_e, d_e = Theta(log N), r_z^2 = O(d log(nN)), "
             "r_QK = alpha d_e (Lemma 11), the bound grows polylogarithmically in N; " + _POLYLOG_TEXT
             + ", Q = the bound at n = 1000, eps = 0.1"),
    ],
    mutants=[_MUT_N, _MUT_POW],
    **_MECH,
)
def check_proposition_17(st: Setting, p, ctx) -> Verdict:
    """Proposition 17: covering number of the transformer class.

    Statement
    ---------
    log C(F_TR, d_inf, eps) <~ m_g H D_e log(1 + R/eps) + min(r_z^6 r_{m,a}^2 R_{m,w}^2 H^2 r_QK^2
    log(H D_e^2)/eps^2, H D_e^2 log(1 + sqrt(H) r_QK r_z^2 r_{m,a} R_{m,w}/eps)).

    Source
    ------
    Seed 002, Proposition 17, lines 902-916.

    Checkable form
    --------------
    Evaluate with r_QK = alpha d_e (Lemma 11), r_z from r_x at n = 1000, eps = 0.1 (fields of ``Setting`` as in
    Theorem 4); part polylog_N: degree of the log covering number over N in [2^20, 2^60] <= 8 and drift to
    [2^60, 2^180] <= 1.5.

    Exactness
    ---------
    Mechanism: closed-form evaluation.

    Mutants
    -------
    D_e = N: the volumetric term grows like N^2.  d_e-x-N^0.05 (second reader): the first term m_g H D_e alone grows
    like N^{0.05}, so the bound is >= c N^{0.05}: not polylog; the old degree-only test accepted it (degree
    4.67-4.70), the drift test rejects it (drift 5.1).

    Notes
    -----
    Second reader: the covering bound has a hidden constant, so it is not asserted; polylog_N is a growth-class
    statement (no sharpness).  Quick: degree 2.10-2.11, drift <= 0.01.
    """
    return _scaling_check(st, _prop17, "log covering number")


@claim(
    id="seed002.lemma_18",
    source=SOURCE,
    label="Lemma 18",
    entry="E19",
    title="Rademacher complexity of the truncated loss class grows polylogarithmically in N",
    lines=[(933, 968), (1944, 1967)],
    printed=Setting(),
    parts=[
        Part("rademacher_bound", "if max ||x_j^(i)|| <= r_x: R-hat_n(L_tau) <= O~(tau sqrt((C_1 + C_2 ^ C_3)/n)), "
             "C_1 = m_g H D_e, C_2 = 16? r_z^6 r_{m,a}^2 R_{m,w}^2 H^2 r_QK^2, C_3 = H D_e^2 (Lemma 32: "
             "O~(tau sqrt(p log(RNn tau)/n)) for RNNs)", asserted=False,
             reason="hidden constants and polylog factors (O~), C_2's numeric factor OCR-lost; the empirical Rademacher "
                    "complexity of L_tau is not computable; only the N-dependence is checked (part polylog_N)"),
        Part("polylog_N", "(used by Theorem 4) the bound grows polylogarithmically in N; " + _POLYLOG_TEXT
             + ", Q = the bound at n = 10^4 with tau = kappa^2 log(nN), r_QK = alpha d_e"),
    ],
    mutants=[_MUT_N, _MUT_POW],
    **_MECH,
)
def check_lemma_18(st: Setting, p, ctx) -> Verdict:
    """Lemma 18 (and Lemma 32 for RNNs): Rademacher complexity of the truncated loss.

    Statement
    ---------
    [R/OCR?]  R_n(L_tau) <= O~(tau sqrt((C_1 + C_2 ^ C_3)/n)), C_1 = m_g H D_e, C_2 = r_z^6 r_{m,a}^2 R_{m,w}^2
    H^2 r_QK^2, C_3 = H D_e^2.

    Source
    ------
    Seed 002, Lemma 18, lines 933-968; Lemma 32, lines 1944-1967.

    Checkable form
    --------------
    Evaluate at n = 10^4 with tau = kappa^2 log(nN) (Lemma 20's level) and r_QK = alpha d_e (fields of ``Setting``
    as in Theorem 4); part polylog_N: degree <= 8 on [2^20, 2^60], drift to [2^60, 2^180] <= 1.5.

    Exactness
    ---------
    Mechanism: closed-form evaluation.

    Mutants
    -------
    D_e = N: C_1 and C_3 grow with N (degree ~15).  d_e-x-N^0.05 (second reader): C_1 = m_g H D_e >= c N^{0.05}, so
    the bound is >= c' N^{0.025}: not polylog; the old degree-only test accepted it (degree 3.68-3.69), the drift
    test rejects it (drift 2.86).

    Notes
    -----
    Second reader: the Rademacher bound has hidden constants (and C_2's numeric factor is OCR-lost; it is set to 1
    with the other hidden constants): not asserted.  Lemma 32 (RNN) is not evaluated.  polylog_N is a growth-class
    statement (no sharpness); quick: degree 2.42-2.43, drift 0.33-0.34.
    """
    return _scaling_check(st, _lemma18, "Rademacher bound")


@claim(
    id="seed002.corollary_19",
    source=SOURCE,
    label="Corollary 19",
    entry="E20",
    title="Generalisation gap bound grows polylogarithmically in N",
    lines=[(973, 988), (1971, 1983)],
    printed=Setting(),
    parts=[
        Part("gap_bound", "w.p. >= 1 - delta - (nN)^{-1/2}: R_tau^TR(Theta-hat) - R-hat^TR(Theta-hat) <= O~(tau sqrt((C_1 + "
             "C_2 ^ C_3)/n)) + tau sqrt(log(1/delta)/n), r_z = sqrt(r_x^2 + d(1 + 1/q)) (Corollary 33 for RNNs)",
             asserted=False,
             reason="hidden constants (O~); the generalisation gap of the ERM is not computable; only the N-dependence "
                    "of the evaluated bound is checked (part polylog_N)"),
        Part("polylog_N", "(used by Theorem 4) the bound grows polylogarithmically in N; " + _POLYLOG_TEXT
             + ", Q = the bound at n = 10^4, delta = 0.05"),
    ],
    mutants=[_MUT_N, _MUT_POW],
    **_MECH,
)
def check_corollary_19(st: Setting, p, ctx) -> Verdict:
    """Corollary 19 (and Corollary 33 for RNNs): the generalisation gap.

    Statement
    ---------
    W.p. >= 1 - delta - (nN)^{-1/2}: R_tau(Theta-hat) - R-hat(Theta-hat) <= O~(tau sqrt((C_1 + C_2 ^ C_3)/n))
    + tau sqrt(log(1/delta)/n), r_z = sqrt(r_x^2 + d(1 + 1/q)).

    Source
    ------
    Seed 002, Corollary 19, lines 973-988; Corollary 33, lines 1971-1983.

    Checkable form
    --------------
    Evaluate at n = 10^4, delta = 0.05 (fields of ``Setting`` as in Theorem 4); part polylog_N: degree <= 8 on
    [2^20, 2^60], drift to [2^60, 2^180] <= 1.5.

    Exactness
    ---------
    Mechanism: closed-form evaluation.

    Mutants
    -------
    D_e = N: degree ~15.  d_e-x-N^0.05 (second reader): the Lemma 18 term is >= c N^{0.025} (through C_1), so the
    bound is not polylog; accepted by the old degree-only test (degree 3.68-3.69), rejected by the drift test
    (drift 2.86).

    Notes
    -----
    Second reader: the gap bound has hidden constants: not asserted (Corollary 33 is not evaluated).  polylog_N
    is a growth-class statement (no sharpness); quick: degree 2.41-2.43, drift 0.33-0.34.
    """
    return _scaling_check(st, _cor19, "generalisation gap bound")


# ---------------------------------------------------------------------------------------------
# E13. Lemma 12
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TailBound:
    denom_factor: float = 2 * e  # P(||x|| >= r) <= m N exp(-r^2 / (denom_factor C_x d))
    r_min_sq_over_ed: float = 0.0  # the bound is claimed for r^2 >= r_min_sq_over_ed * C_x e d (printed: any r > 0)
    rx_coef: float = 3.0  # r_x = sqrt(rx_coef C_x e d log(nN))
    union_exponent: float = 0.5  # ... then P(max ||x|| >= r_x) <= union_factor (nN)^{-union_exponent}
    union_factor: float = 1.0


def _gaussian_moment_ratio(d: int, C_x: float) -> float:
    """max over r >= 1 (grid 1..2000, geometric) of E[||x||^r]^{1/r} / sqrt(C_x d r) for x ~ N(0, I_d):
    Assumption 1 holds with this C_x iff the value is <= 1 (the ratio decreases like sqrt(1/(e d)) for large r)."""
    from math import lgamma

    best = 0.0
    for r in np.geomspace(1.0, 2000.0, 400):
        logm = (r / 2) * log(2.0) + lgamma((d + r) / 2) - lgamma(d / 2)
        best = max(best, exp(logm / r) / sqrt(C_x * d * r))
    return best


def _two_point_moment_ratio(d: int, C_x: float, rho: float, pi: float) -> float:
    """max over r >= 1 of E[||x||^r]^{1/r} / sqrt(C_x d r) for ||x|| = rho w.p. pi, else 0 (any direction).
    log((pi^{1/r} rho)^2 / (C_x d r)) = (2/r) log pi - log r + const has its maximum over r > 0 at r = -2 log(pi)
    (derivative -(2/r^2) log pi - 1/r), clipped to r >= 1; the grid is a safeguard."""
    r_star = max(1.0, -2.0 * log(pi))
    best = 0.0
    for r in sorted({1.0, r_star, *np.geomspace(1.0, 4000.0, 200)}):
        best = max(best, pi ** (1 / r) * rho / sqrt(C_x * d * r))
    return best


def _lemma_12_hypotheses(case) -> list[str]:
    """The printed hypotheses of Lemma 12: m >= 1 prompts of N >= 1 tokens in R^d under Assumption 1 with the
    case's C_x (the token-norm moment bound E[||x||^r]^{1/r} <= sqrt(C_x d r) for all r >= 1; y = 0 meets the
    y-part), and r_x > 0 ("for any r_x > 0")."""
    out = []
    d, m, N = int(case["d"]), int(case.get("m", 1)), int(case.get("N", 1))
    C_x, r = float(case["C_x"]), float(case["r"])
    if d < 1 or m < 1 or N < 1:
        out.append("d, m, N >= 1")
    if not C_x > 0:
        out.append("C_x > 0")
    if not r > 0:
        out.append("r_x > 0")
    if case.get("dist") == "gaussian":
        if _gaussian_moment_ratio(d, C_x) > 1:
            out.append("Assumption 1: E[||x||^r]^{1/r} <= sqrt(C_x d r) for all r >= 1 (Gaussian tokens)")
    elif case.get("dist") == "two-point":
        if _two_point_moment_ratio(d, C_x, float(case["rho"]), float(case["pi"])) > 1:
            out.append("Assumption 1: E[||x||^r]^{1/r} <= sqrt(C_x d r) for all r >= 1 (two-point norm)")
    else:
        out.append("token distribution named in the case")
    return out


_L12_PRINTED = TailBound()


@claim(
    id="seed002.lemma_12",
    source=SOURCE,
    label="Lemma 12",
    entry="E13",
    title="P(||x|| >= r) <= exp(-r^2/(2 C_x e d)); union bound over m N tokens",
    lines=[(746, 775)],
    printed=_L12_PRINTED,
    corrected=replace(_L12_PRINTED, r_min_sq_over_ed=1.0),
    parts=[
        Part("tail", "for any r_x > 0: P(max_{i<=m, j<=N} ||x_j^(i)|| >= r_x) <= m N exp(-r_x^2/(2 C_x e d))",
             inequality=True),
        Part("union_at_r_x", "for r_x = sqrt(3 C_x e d log(nN)) (m = n): P(max ||x_j^(i)|| >= r_x) <= sqrt(1/(nN))",
             inequality=True),
    ],
    mutants=[
        Mutant("exponent-r^2/d", "exp(-r^2/(C_x d)) (factors 2e dropped), in the corrected range",
               replace(_L12_PRINTED, denom_factor=1.0, r_min_sq_over_ed=1.0)),
        Mutant("tail-denominator-x0.99", "corrected tail with 2e -> 0.99 * 2e (exp(-r^2/(1.98 e C_x d))); sharpness of the "
               "corrected tail is 1 - 1e-9 (two-point norm, t = r^2/(C_x e d) = 1..40): rejected there (ratio "
               "exp(0.01 t / 1.98) > 1)", replace(_L12_PRINTED, r_min_sq_over_ed=1.0, denom_factor=0.99 * 2 * e),
               near_boundary=True, part="tail", origin="second-reader"),
        Mutant("union-x0.99", "sqrt(1/(nN)) -> 0.99 sqrt(1/(nN)); the disjoint two-point instance attains (1 - 1e-9) "
               "sqrt(1/(nN)) (n N = 1000)", replace(_L12_PRINTED, r_min_sq_over_ed=1.0, union_factor=0.99),
               near_boundary=True, part="union_at_r_x", origin="second-reader"),
        Mutant("union-exponent-0.6", "(nN)^{-0.6} instead of (nN)^{-1/2}: the disjoint two-point instance has probability "
               "(1 - 1e-9)(nN)^{-1/2}", replace(_L12_PRINTED, r_min_sq_over_ed=1.0, union_exponent=0.6),
               origin="second-reader"),
        Mutant("r_x-coef-2", "r_x = sqrt(2 C_x e d log(nN)) with the same sqrt(1/(nN)): at that radius the two-point instance "
               "reaches nN (nN)^{-1} = 1 > (nN)^{-1/2}", replace(_L12_PRINTED, r_min_sq_over_ed=1.0, rx_coef=2.0),
               origin="second-reader"),
    ],
    expect=Status.ERRATUM,
    severity=Severity.CONSTANT,
    hypotheses=_lemma_12_hypotheses,
    rigor=Rigor.FLOAT,
)
def check_lemma_12(st: TailBound, p, ctx) -> Verdict:
    """Lemma 12: uniform token-norm bound.

    Statement
    ---------
    Under Assumption 1, "for any r_x > 0", P(max_{i<=m, j<=N} ||x_j^(i)|| >= r_x) <= m N exp(-r_x^2/(2 C_x e d));
    with r_x = sqrt(3 C_x e d log(nN)) and m = n this is <= (nN)^{-1/2}.
    ERRATUM: the proof applies Markov with p = r_x^2/(C_x e d), but Assumption 1 only covers moments p >= 1; for
    r_x^2 < C_x e d the bound fails (witness: d = 5, m = N = 1, r_x = 0.559, Gaussian tokens with C_x = 1:
    tail 0.9974 > 0.9886).  Second reader: the witness meets every printed hypothesis - m = N = 1 prompts, r_x > 0,
    and N(0, I_5) satisfies Assumption 1 with C_x = 1 (max_{r >= 1} E[||x||^r]^{1/r}/sqrt(5 r) = 0.952, at r = 1;
    the validator ``_lemma_12_hypotheses`` recomputes it); y = 0 meets the y-part.  So the statement, not only
    the proof, is false: an erratum.  Severity constant (the range of r_x is wrong; the form survives, and the
    "in particular" r_x = sqrt(3 C_x e d log(nN)) lies in the corrected range as soon as nN >= 2, so no
    downstream result changes).

    Correction
    ----------
    The tail bound holds for r_x >= sqrt(C_x e d) (Markov with p = r_x^2/(C_x e d) >= 1), which contains the
    r_x = sqrt(3 C_x e d log(nN)) used afterwards whenever nN >= 2; it is then attained (see Notes).

    Source
    ------
    Seed 002, Lemma 12, lines 746-775 (Assumption 1: line 175).

    Checkable form
    --------------
    Part tail: Gaussian tokens (C_x = 1, m = N = 1): the exact tail P(chi_d >= r) = chi2.sf(r^2, d) against
    exp(-r^2/(denom_factor C_x d)) for d in {1, 2, 3, 5, 10, 30, 100}, r in [0, 10 sqrt d] (corrected: r >= sqrt(e d));
    and the extremal two-point instance (Notes) at t = r^2/(C_x e d) in [1, 40], d in {1, 5, 30}, in the range of
    the statement checked.  Part union_at_r_x: the disjoint two-point instance (Notes) at r_x = sqrt(rx_coef C_x e d
    log(nN)) for nN in {2, 10, 1000, 10^6}: exact probability nN pi against union_factor (nN)^{-union_exponent}.

    Exactness
    ---------
    float64; chi2.sf relative error ~1e-14, compared with relative allowance 1e-12.  The two-point instances use
    pi = (1 - 1e-9) exp(-t/2), so Assumption 1 holds with margin 1e-9 (not at equality) and the ratio is 1 - 1e-9.

    Mutants
    -------
    exp(-r^2/d) is below the true tail at d = 1, r >= 2.  tail-denominator-x0.99: the two-point instance reaches
    ratio (1 - 1e-9) exp(t (1/1.98 - 1/2)) > 1 for t >= 1e-6 * 198.  union-x0.99, union-exponent-0.6: the disjoint
    two-point instance has probability exactly (1 - 1e-9)(nN)^{-1/2} > 0.99 (nN)^{-1/2} and > (nN)^{-0.6}.
    r_x-coef-2: at t = 2 log(nN) the disjoint instance has probability nN exp(-log(nN)) (1 - 1e-9) ~ 1.

    Notes
    -----
    Sharpness (second reader): the corrected bound is attained.  Two-point norm: ||x|| = rho = r w.p. pi, else 0.
    Assumption 1 asks pi^{1/s} rho <= sqrt(C_x d s) for all s >= 1; with r^2 = t C_x e d (t >= 1) the binding s is
    s = t and the condition reads pi <= exp(-t/2) - exactly the claimed bound, so P(||x|| >= r) = pi reaches it.
    For the union bound, the nN tokens are made mutually exclusive (at most one token of the n prompts is large,
    each with probability pi; allowed: the prompts are "not necessarily independent" and Assumption 1 is
    per-token), so P(max >= r_x) = nN pi = (nN)^{-1/2} at t = 3 log(nN).  Sharpness found: 1 - 1e-9 for both
    parts (quick and full: the instance is the extremal case of Markov's inequality, no search can exceed 1 since
    the corrected bound is proved).  The Gaussian grid reaches only 0.16 (d = 1, r = sqrt e).
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    C_x = 1.0
    for d in (1, 2, 3, 5, 10, 30, 100):
        for r in np.linspace(0, 10 * sqrt(d), 41):
            if r * r < st.r_min_sq_over_ed * C_x * e * d or r <= 0:
                continue
            tail = float(chi2.sf(r * r, d))
            ev.add({"dist": "gaussian", "d": d, "r": round(float(r), 6), "m": 1, "N": 1, "C_x": C_x}, tail,
                   exp(-r * r / (st.denom_factor * C_x * d)) * (1 + 1e-12) + 1e-300, part="tail")
            if ev.failures:
                return ev.verdict()
    # the extremal two-point instance (Markov's equality case)
    for d in (1, 5, 30):
        for t in (1.0, 1.5, 2.0, 4.0, 10.0, 40.0):
            r = sqrt(t * C_x * e * d)
            if r * r < st.r_min_sq_over_ed * C_x * e * d:
                continue
            pi = (1 - 1e-9) * exp(-t / 2)
            ev.add({"dist": "two-point", "d": d, "r": r, "rho": r, "pi": pi, "m": 1, "N": 1, "C_x": C_x, "t": t}, pi,
                   exp(-r * r / (st.denom_factor * C_x * d)) * (1 + 1e-12), part="tail")
    for nN in (2, 10, 1000, 10**6):
        d = 4
        rx2 = st.rx_coef * C_x * e * d * log(nN)
        t = rx2 / (C_x * e * d)
        pi = (1 - 1e-9) * exp(-t / 2)
        prob = min(1.0, nN * pi)  # disjoint large-token events
        ev.add({"dist": "two-point", "d": d, "r": sqrt(rx2), "rho": sqrt(rx2), "pi": pi, "m": nN, "N": 1, "C_x": C_x,
                "nN": nN, "disjoint": True}, prob, st.union_factor * nN ** (-st.union_exponent) * (1 + 1e-12),
               part="union_at_r_x")
    return ev.verdict()
