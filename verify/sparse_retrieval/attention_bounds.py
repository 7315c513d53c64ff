"""The transformer's covering / generalisation chain (E11-E22): Theorems 4 and 10, Lemmas 12-16, 18, 20, 39,
41, Proposition 17, Corollary 19, evaluated as explicit functions of N, q, d (hidden absolute constants set to
1, as the catalog prescribes), plus the exact sub-lemmas checked directly.

The scaling claims are MECHANISM claims: the bounds have no explicit constants, so what is checked is their
shape - the sample size n*(N) needed by the upper bound grows polylogarithmically in N, in contrast with the feedforward lower bound (1 - eps) N d (E24).  Each has the
mutant "encoding dimension D_e replaced by N" (what an N-dimensional positional encoding would give), which
the same test rejects.  The test: the "polylog degree" Delta log Q / Delta log log N between N = 2^20 and 2^60
must be <= 8 (log^k N growth has degree ~k; a power law N^c has degree ~29 c).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import ceil, e, exp, log, sqrt

import numpy as np
from scipy.stats import chi2

from kernels.qstr import gaussian_norm_moment
from kernels.retrieval_constructions import two_layer

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE

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
    The maximum of (pi^{1/r} rho)^2 / (C_x d r) over r > 0 is at r = -log(pi) (log-concavity), clipped to r >= 1."""
    r_star = max(1.0, -log(pi))
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


# ---------------------------------------------------------------------------------------------
# E14, E15. Lipschitz steps of the covering lemmas
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LipschitzConstant:
    factor: float = 1.0  # L_f = factor * ||a|| ||W||_op (E14) / radius factor (E15)


@claim(
    id="seed002.lemma_13",
    source=SOURCE,
    label="Lemma 13",
    entry="E14",
    title="Covering of the composition: |f(A) - f'(A')| <= |f(A') - f'(A')| + ||a|| ||W||_op ||A - A'||",
    lines=[(808, 820)],
    printed=LipschitzConstant(),
    mutants=[Mutant("L_f/2", "Lipschitz constant ||a|| ||W||_op / 2", LipschitzConstant(0.5))],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
)
def check_lemma_13(st: LipschitzConstant, p, ctx) -> Verdict:
    """Lemma 13: covering number of the composition f_2NN o f_Attn.

    Statement
    ---------
    If every f_2NN is L_f-Lipschitz with L_f = ||a|| ||W||_op, then log C(F_TR, eps_2NN + L_f eps_Attn) <=
    log C(F_2NN, eps_2NN) + log C(F_Attn, eps_Attn); the step is |f(A) - f'(A')| <= |f(A') - f'(A')| +
    L_f ||A - A'||.

    Source
    ------
    Seed 002, Lemma 13, lines 808-820.

    Checkable form
    --------------
    Random 2-layer ReLU nets f, f' and points A, A' (500 instances), plus the tight instance m = 1 in the
    linear region with A - A' parallel to the weight row (equality).

    Exactness
    ---------
    float64, relative allowance 1e-12.

    Mutants
    -------
    L_f / 2 fails on the tight instance.
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    rng = ctx.rng("lemma13")
    for k in range(500):
        m, D = int(rng.integers(1, 8)), int(rng.integers(1, 6))
        a, W, b = rng.standard_normal(m), rng.standard_normal((m, D)), rng.standard_normal(m)
        a2, W2, b2 = a + 0.1 * rng.standard_normal(m), W + 0.1 * rng.standard_normal((m, D)), b
        A = rng.standard_normal(D)
        A2 = A + rng.standard_normal(D) * 10.0 ** rng.uniform(-3, 0)
        L = st.factor * np.linalg.norm(a) * np.linalg.norm(W, 2)
        lhs = abs(two_layer(A, a, W, b) - two_layer(A2, a2, W2, b2))
        rhs = abs(two_layer(A2, a, W, b) - two_layer(A2, a2, W2, b2)) + L * np.linalg.norm(A - A2)
        ev.add({"instance": k}, float(lhs), float(rhs) * (1 + 1e-12) + 1e-15)
    w = np.array([[0.6, 0.8]])
    A, A2 = np.array([1.0, 1.0]), np.array([1.0, 1.0]) + 0.5 * w[0]
    L = st.factor * 2.0 * 1.0
    lhs = abs(two_layer(A, np.array([2.0]), w, np.array([5.0])) - two_layer(A2, np.array([2.0]), w, np.array([5.0])))
    ev.add({"instance": "tight: linear region, A - A' along w"}, float(lhs), L * 0.5 * (1 + 1e-12))
    return ev.verdict(seed=ctx.seed("lemma13"))


@claim(
    id="seed002.lemma_30",
    source=SOURCE,
    label="Lemma 30",
    entry="E15",
    title="Parameter-Lipschitz step of Lemmas 14/30, Corollary 31: |f_T(x) - f_T'(x)| <= poly(R, r) ||T - T'||",
    lines=[(822, 824), (1873, 1934)],
    printed=LipschitzConstant(),
    mutants=[Mutant("no-input-radius", "the constant without the input radius r", LipschitzConstant(0.0))],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
)
def check_lemma_30(st: LipschitzConstant, p, ctx) -> Verdict:
    """Lemma 30 (with Lemma 14 and Corollary 31): parameter-count covering of bounded ReLU nets.

    Statement
    ---------
    For F_{NN,L} with ||W_l||_F, ||b_l|| <= R and inputs ||x|| <= r: log C(F, d_inf, eps) <= p log(1 +
    poly(R)/eps), via ||f_Theta(x) - f_Theta'(x)|| <= poly(R) ||vec Theta - vec Theta'||.  For the 2-layer
    case: |f - f'| <= (R r + R) ||a - a'|| + R (r + 1) ||(W, b) - (W', b')||_F.

    Source
    ------
    Seed 002, Lemma 14, lines 822-824; Lemma 30 and Corollary 31, lines 1873-1934.

    Checkable form
    --------------
    Random 2-layer nets with norms <= R = 2 and inputs of norm r in {0.5, 3, 10} (500 instances), plus the tight
    instance (one active unit, W - W' along x).

    Exactness
    ---------
    float64, relative allowance 1e-12.

    Mutants
    -------
    Dropping the input radius (r -> 1 in the constant) fails on the tight instance with r = 10.
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    rng = ctx.rng("lemma30")
    R = 2.0

    def const(r):
        rr = r if st.factor else 1.0
        return R * rr + R, R * (rr + 1)

    for k in range(500):
        m, D = int(rng.integers(1, 8)), int(rng.integers(1, 6))
        r = float(rng.choice([0.5, 3.0, 10.0]))

        def draw(m=m, D=D):
            a, W, b = rng.standard_normal(m), rng.standard_normal((m, D)), rng.standard_normal(m)
            return a * R / max(np.linalg.norm(a), R), W * R / max(np.linalg.norm(W), R), b * R / max(np.linalg.norm(b), R)

        (a, W, b), (a2, W2, b2) = draw(), draw()
        x = rng.standard_normal(D)
        x *= r / np.linalg.norm(x)
        ca, cw = const(r)
        lhs = abs(two_layer(x, a, W, b) - two_layer(x, a2, W2, b2))
        rhs = ca * np.linalg.norm(a - a2) + cw * sqrt(np.linalg.norm(W - W2) ** 2 + np.linalg.norm(b - b2) ** 2)
        ev.add({"instance": k, "r": r}, float(lhs), float(rhs) * (1 + 1e-12))
    r = 10.0
    x = np.array([r, 0.0])
    a, W, b = np.array([R]), np.array([[0.1, 0.0]]), np.array([0.0])
    W2 = np.array([[0.2, 0.0]])
    ca, cw = const(r)
    lhs = abs(two_layer(x, a, W, b) - two_layer(x, a, W2, b))
    ev.add({"instance": "tight: one active unit, W - W' along x", "r": r}, float(lhs), cw * 0.1 * (1 + 1e-12))
    return ev.verdict(seed=ctx.seed("lemma30"))


# ---------------------------------------------------------------------------------------------
# E16. softmax Lipschitz and Lemma 15
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SoftmaxConstant:
    c: float = 2.0


def _softmax(u):
    z = np.exp(u - u.max(axis=-1, keepdims=True))
    return z / z.sum(axis=-1, keepdims=True)


@claim(
    id="seed002.lemma_15",
    source=SOURCE,
    label="Lemma 15",
    entry="E16",
    title="||softmax(u) - softmax(v)||_1 <= 2 ||u - v||_inf and the per-head bound 2 r_z^2 ||(W - W')^T z||",
    lines=[(830, 876)],
    printed=SoftmaxConstant(),
    mutants=[Mutant("constant-1/2", "softmax Lipschitz constant 1/2", SoftmaxConstant(0.5))],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
)
def check_lemma_15(st: SoftmaxConstant, p, ctx) -> Verdict:
    """Lemma 15: attention covering via the softmax Lipschitz bound.

    Statement
    ---------
    If ||z_j|| <= r_z: log C(F_Attn, eps) <= log C(Theta_QK, eps/(2 r_z^2)); per head
    ||f_Attn(W)_j - f_Attn(W')_j|| <= r_z ||s - s'||_1 <= 2 r_z^2 ||(W - W')^T z_j||, using
    ||softmax(u) - softmax(v)||_1 <= 2 ||u - v||_inf.

    Source
    ------
    Seed 002, Lemma 15, lines 830-876 ([EGKZ22, Cor. A.7]).

    Checkable form
    --------------
    (i) the softmax inequality on 2000 random logit pairs (dims 2-64, perturbation scales 1e-6..10) and the
    near-tight pair u = 0 in R^2, v = (eps, -eps) (ratio -> 1, so the sharp constant is 1); (ii) the per-head
    inequality on random Z with ||z_j|| <= r_z and random W, W'.

    Exactness
    ---------
    float64; relative allowance 1e-9 (the ratios are O(1), differences of probabilities of size >= 1e-7).

    Mutants
    -------
    constant 1/2: the ratio at near-uniform logits is ~1 > 1/2.
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    rng = ctx.rng("softmax")
    for k in range(2000):
        m = int(rng.integers(2, 65))
        u = rng.standard_normal(m) * float(rng.choice([0.1, 1, 5]))
        v = u + rng.standard_normal(m) * 10.0 ** rng.uniform(-6, 1)
        ev.add({"instance": k, "dim": m}, float(np.abs(_softmax(u) - _softmax(v)).sum()), st.c * float(np.abs(u - v).max()) * (1 + 1e-9))
    eps_ = 1e-4
    ev.add({"instance": "u = 0, v = (eps, -eps)"}, float(np.abs(_softmax(np.zeros(2)) - _softmax(np.array([eps_, -eps_]))).sum()),
           st.c * eps_ * (1 + 1e-9))
    for k in range(200):
        N, D = int(rng.integers(2, 10)), int(rng.integers(2, 6))
        Z = rng.standard_normal((N, D))
        r_z = float(np.linalg.norm(Z, axis=1).max())
        W = rng.standard_normal((D, D))
        W2 = W + 0.01 * rng.standard_normal((D, D))
        j = int(rng.integers(0, N))
        s, s2 = _softmax(Z @ W.T @ Z[j]), _softmax(Z @ W2.T @ Z[j])
        lhs = float(np.linalg.norm(s @ Z - s2 @ Z))
        rhs = st.c * r_z**2 * float(np.linalg.norm((W - W2) @ Z[j]))
        ev.add({"instance": f"head {k}"}, lhs, rhs * (1 + 1e-9))
    return ev.verdict(seed=ctx.seed("softmax"))


# ---------------------------------------------------------------------------------------------
# E17. Lemma 16 / Lemma 41: packing numbers
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PackingBound:
    numer: float = 2.0  # log P <= d log(1 + numer/eps)


@claim(
    id="seed002.lemma_41",
    source=SOURCE,
    label="Lemma 41",
    entry="E17",
    title="eps-packing of the unit ball: log P <= d log(1 + 2/eps) (volumetric branch; Lemma 16's covering)",
    lines=[(2419, 2423), (880, 899)],
    printed=PackingBound(),
    mutants=[Mutant("1+1/eps", "d log(1 + 1/eps)", PackingBound(1.0))],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
)
def check_lemma_41(st: PackingBound, p, ctx) -> Verdict:
    """Lemma 41 (used by Lemma 16): packing number of the unit ball.

    Statement
    ---------
    The eps-packing number P of the unit ball of R^d satisfies log P <= d log(1 + 2/eps) (and a Maurey-type
    branch (1/eps^2)(1 + log(1 + 2 d eps^2)) [OCR? constants], not checked).

    Source
    ------
    Seed 002, Lemma 41, lines 2419-2423; Lemma 16, lines 880-899.

    Checkable form
    --------------
    d = 1 exactly: the largest eps-separated subset of [-1, 1] has floor(2/eps) + 1 points (rational eps, exact
    arithmetic), compared with (1 + 2/eps).  d = 2: greedy packings on a fine grid (lower bounds on P) compared
    with (1 + 2/eps)^2.

    Exactness
    ---------
    d = 1 exact (Fractions); d = 2 integer counts against the float bound (margins >= 1).

    Mutants
    -------
    d log(1 + 1/eps) at d = 1, eps = 1/2: 5 points > 3.
    """
    from fractions import Fraction

    ev = Evidence("le", rigor=Rigor.EXACT)
    for den in range(1, 40):
        for num in (1, 2, 3):
            eps = Fraction(num, den)
            if eps > 2:
                continue
            P = int(2 / eps) + 1
            ev.add({"d": 1, "eps": eps}, P, 1 + st.numer / eps)
    rng = ctx.rng("packing")
    for eps in (0.5, 0.3, 0.2):
        g = np.linspace(-1, 1, 81)
        pts = np.array([(a, b) for a in g for b in g if a * a + b * b <= 1])
        pts = pts[rng.permutation(len(pts))]
        chosen = np.empty((0, 2))
        for x in pts:
            if chosen.shape[0] == 0 or float(np.min(np.linalg.norm(chosen - x, axis=1))) >= eps:
                chosen = np.vstack([chosen, x])
        ev.add({"d": 2, "eps": eps, "part": "greedy packing size"}, len(chosen), (1 + st.numer / eps) ** 2, relation="le")
    return ev.verdict(seed=ctx.seed("packing"))


# ---------------------------------------------------------------------------------------------
# E21. Lemma 20: the max-moment step
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MaxMoment:
    union_power: float = 1.0  # E[max_j ||x_j||^{2r}]^{1/r} <= union_const N^{union_power/r} E[||x||^{2r}]^{1/r}
    union_const: float = 1.0
    moment_const: float = 2 * e  # at r = log N: N^{1/r} E[||x||^{2r}]^{1/r} <= moment_const C_x d log N


def _lemma_20_case_two_point(d: int, N: int, r: float, C_x: float, t: float, pi: float) -> dict:
    """A case with i.i.d. token norms ||x|| = rho = sqrt(t C_x e d) w.p. pi, else 0, and the largest Assumption-1
    ratio max_{s >= 1} pi^{1/s} rho / sqrt(C_x d s) (attained at s = max(1, -2 log pi); <= 1 iff Assumption 1 holds)."""
    s = max(1.0, -2 * log(pi))
    a1 = pi ** (1 / s) * sqrt(t * C_x * e * d) / sqrt(C_x * d * s)
    return {"law": "two-point", "d": d, "N": N, "r": r, "C_x": C_x, "rho^2": t * C_x * e * d, "pi": pi,
            "assumption1_ratio": a1}


@claim(
    id="seed002.lemma_20",
    source=SOURCE,
    label="Lemma 20",
    entry="E21",
    title="Truncation: E[max_j ||x_j||^{2r}]^{1/r} <= N^{1/r} E||x||^{2r}^{1/r} <= e C_x d 2r at r = log N",
    lines=[(993, 1043), (1989, 2039)],
    printed=MaxMoment(),
    parts=[
        Part("truncation", "under Assumption 1, for tau >~ kappa^2 log(kappa^2 N sqrt n) + log(kappa^2 sqrt n)^{2s}, "
             "kappa^2 = H r_{m,a}^2 R_{m,w}^2 r_z^2: R^TR(Theta-hat) - R_tau^TR(Theta-hat) <= sqrt(1/n) (Lemma 34: "
             "tau = poly(R, log n) for RNNs)", asserted=False,
             reason="the threshold on tau hides an absolute constant (>~) and its second term is OCR-garbled (s "
                    "undefined); no explicit tau to test; the proof's max-moment steps are asserted instead"),
        Part("step_max_union", "proof, line ~1030: for r >= 1, E[max_{j<=N} ||x_j||^{2r}]^{1/r} <= "
             "N^{1/r} E[||x||^{2r}]^{1/r}", inequality=True),
        Part("step_moment_logN", "proof, lines ~1031-1033: under Assumption 1, N^{1/r} E[||x||^{2r}]^{1/r} <~ N^{1/r} "
             "C_x d r <~ C_x d log N at r = log N; explicit form N^{1/r} E[||x||^{2r}]^{1/r} <= 2e C_x d log N "
             "(Assumption 1 at moment 2r, N^{1/log N} = e)", inequality=True),
    ],
    mutants=[
        Mutant("no-union-factor", "the max over N tokens bounded like a single token (N^{1/r} dropped)",
               MaxMoment(union_power=0.0)),
        Mutant("union-x0.99", "E[max ||x_j||^{2r}]^{1/r} <= 0.99 N^{1/r} E[||x||^{2r}]^{1/r}; sharpness 1 - 1.1e-8 (i.i.d. "
               "two-point norms with pi = 1e-9, N = 100, r = ln N): rejected there (ratio 1/0.99)", MaxMoment(union_const=0.99),
               near_boundary=True, part="step_max_union", origin="second-reader"),
        Mutant("moment-x0.99", "N^{1/r} E[||x||^{2r}]^{1/r} <= 0.99 * 2e C_x d log N at r = log N; sharpness 1 - 7e-11 "
               "(two-point norm with Assumption 1 binding at moment 2 log N, N = 10^6): rejected there (ratio 1/0.99)",
               MaxMoment(moment_const=0.99 * 2 * e), near_boundary=True, part="step_moment_logN", origin="second-reader"),
        Mutant("moment-order-r", "the printed '<~ N^{1/r} C_x d r' read with constant 1 (e C_x d log N, Assumption 1 "
               "applied at moment r instead of 2r): the binding two-point norm reaches twice that",
               MaxMoment(moment_const=e), origin="second-reader"),
    ],
    expect=Status.PARTLY_CONFIRMED,
    rigor=Rigor.STATISTICAL,
    params=[Param("samples", int, 100, 10**6)],
    tiers={"quick": {"samples": 2000}, "full": {"samples": 5000}},
)
def check_lemma_20(st: MaxMoment, p, ctx) -> Verdict:
    """Lemma 20 (and Lemma 34): truncation of the loss, the max-moment ingredient.

    Statement
    ---------
    For tau >~ kappa^2 log(kappa^2 N sqrt n) + ...: R(Theta-hat) - R_tau(Theta-hat) <= sqrt(1/n).  Ingredient:
    E[max_j ||x_j||^{2r}]^{1/r} <= N^{1/r} C_x d (2r) with r = log N, i.e. E[max_j ||x_j||^4]^{1/2} <~ (C_x d log N)^2.

    Source
    ------
    Seed 002, Lemma 20, lines 993-1043; Lemma 34, lines 1989-2039.

    Checkable form
    --------------
    Part step_max_union: E[max_j ||x_j||^{2r}]^{1/r} against union_const N^{union_power/r} E[||x||^{2r}]^{1/r}
    (printed 1, 1) on (a) Gaussian tokens, d in {2, 5}, N in {100, 1000}, r = ln N: Monte Carlo with a 5-SE lower
    allowance on the max-moment, exact single-token moment (Gamma functions); (b) i.i.d. two-point norms
    ||x|| = rho w.p. pi = 1e-9 (exact: E[max] = rho^{2r}(1 - (1 - pi)^N)), N in {100, 1000, 10^6}, r in {1, ln N}.
    Part step_moment_logN: N^{1/r} E[||x||^{2r}]^{1/r} at r = ln N against moment_const C_x d ln N (printed 2e)
    on the Gaussian (C_x = 1) and on the two-point norm with rho^2 = 2r C_x e d, pi = (1 - 1e-9) e^{-r}, for which
    Assumption 1 binds at moment 2r (the case records the Assumption-1 ratio, <= 1).

    Exactness
    ---------
    Statistical for the Gaussian Monte Carlo (5-SE allowance; the bounds are exact closed forms); the two-point
    instances are exact closed forms in float64 (expm1/log1p), their margins (>= 1e-10 relative) far above rounding.

    Mutants
    -------
    no-union-factor: the two-point instance has E[max]^{1/r} / E[single]^{1/r} -> N^{1/r} (= e at r = ln N).
    union-x0.99: on the two-point instance the ratio is ((1 - (1 - pi)^N)/(N pi))^{1/r} >= 1 - (N - 1) pi/(2r)
    (= 1 - 1.1e-8 at N = 100, r = ln N, pi = 1e-9) > 0.99.  moment-x0.99 and moment-order-r: the binding two-point norm
    (pi = (1 - 1e-9)/N, rho^2 = 2 C_x e d ln N, which meets Assumption 1: max_s pi^{1/s} rho/sqrt(C_x d s) is
    attained at s = 2 ln N and equals (1 - 1e-9)^{1/(2 ln N)}) has N^{1/r} E[||x||^{2r}]^{1/r} = (1 - 1e-9)^{1/r}
    2e C_x d ln N: above 0.99 * 2e and twice e C_x d ln N.  The old checker accepted union-x0.99 and
    moment-order-r had they been expressible (Gaussian-only cases: union ratio <= 0.863, moment ratio <= 0.27,
    so 0.53 against e C_x d ln N).

    Notes
    -----
    Second reader (parts): the lemma's statement (the truncation bound) hides an absolute constant in the
    threshold of tau and its second term is OCR-garbled, so it is not asserted and the status is partly-confirmed
    (was confirmed).  The two proof steps are asserted.  The printed chain ends in '(C_x d log(N))^2' (OCR); the
    explicit form checked is 2e C_x d log N for E[max ||x||^{2r}]^{1/r} (>= E[max ||x||^4]^{1/2} when 2r >= 4).
    Sharpness: both steps are attained in the limit by two-point norm laws: the union step by i.i.d. rare large
    tokens (N pi -> 0: the max is a sum of disjoint events), the moment step by the law for which Assumption 1
    binds at moment 2r (Markov's equality case, as in Lemma 12).  Found (quick and full): step_max_union 1 - 1.1e-8
    (d = 2, N = 100, r = ln N, pi = 1e-9), step_moment_logN 1 - 7e-11 (d = 2, N = 10^6); the Gaussian reaches only
    0.86 and 0.27.  No search can exceed 1: both
    steps are proved inequalities (union bound; the hypothesis itself).
    """
    ev = Evidence("le", rigor=Rigor.STATISTICAL)
    C_x = 1.0
    # (b) exact extremal two-point instances
    for d in (2, 5):
        for N in (100, 1000, 10**6):
            rl = log(N)
            for r in (1.0, rl):
                pi = 1e-9
                t = 2 * rl  # rho^2 = 2 ln N C_x e d: Assumption 1 holds since pi < e^{-t/2} = 1/N
                rho2 = t * C_x * e * d
                lhs = rho2 * (-np.expm1(N * np.log1p(-pi))) ** (1 / r)
                rhs = st.union_const * N ** (st.union_power / r) * rho2 * pi ** (1 / r)
                ev.add(_lemma_20_case_two_point(d, N, r, C_x, t, pi), lhs, rhs, part="step_max_union")
            pi = (1 - 1e-9) * exp(-rl)  # Assumption 1 binds at moment s = 2r = 2 ln N
            rho2 = 2 * rl * C_x * e * d
            lhs = N ** (1 / rl) * pi ** (1 / rl) * rho2
            ev.add(_lemma_20_case_two_point(d, N, rl, C_x, 2 * rl, pi), lhs, st.moment_const * C_x * d * rl,
                   part="step_moment_logN")
    if ev.failures:  # a false variant is refuted exactly; the Monte Carlo adds nothing
        return ev.verdict()
    # (a) Gaussian tokens, Monte Carlo
    rng = ctx.rng("maxmoment")
    for d in (2, 5):
        for N in (100, 1000):
            r = log(N)
            sq = (rng.standard_normal((p["samples"], N, d)) ** 2).sum(2).max(1)
            vals = sq**r
            mean = float(vals.mean())
            se = float(vals.std(ddof=1) / sqrt(p["samples"]))
            lhs_low = max(mean - 5 * se, 1e-300) ** (1 / r)
            single = gaussian_norm_moment(d, 2 * r) ** 2
            bound = st.union_const * N ** (st.union_power / r) * single
            ev.add({"law": "gaussian", "d": d, "N": N, "r": round(r, 4), "C_x": C_x,
                    "what": "MC (lower 5-SE) vs N^{1/r} moment"}, lhs_low, bound, part="step_max_union")
            ev.add({"law": "gaussian", "d": d, "N": N, "r": round(r, 4), "C_x": C_x, "what": "N^{1/r} moment vs 2e d ln N"},
                   N ** (1 / r) * single, st.moment_const * C_x * d * r, part="step_moment_logN")
    return ev.verdict(seed=ctx.seed("maxmoment"))


# ---------------------------------------------------------------------------------------------
# E22. Lemma 39
# ---------------------------------------------------------------------------------------------


def _mixed(A, p_, q_):
    cols = np.linalg.norm(A, ord=p_, axis=0)
    return float(np.linalg.norm(cols, ord=q_))


@dataclass(frozen=True)
class HolderPair:
    conjugate: bool = True


@claim(
    id="seed002.lemma_39",
    source=SOURCE,
    label="Lemma 39",
    entry="E22",
    title="Mixed-norm Hoelder: ||AB||_{r,s} <= ||A||_{r,p} ||B||_{q,s} for 1/p + 1/q = 1",
    lines=[(2387, 2411)],
    printed=HolderPair(),
    mutants=[Mutant("p=q=inf", "non-conjugate exponents p = q = infinity", HolderPair(False))],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
)
def check_lemma_39(st: HolderPair, p, ctx) -> Verdict:
    """Lemma 39: mixed-norm Hoelder inequality.

    Statement
    ---------
    For A (d1 x d2), B (d2 x d3), r, s >= 1 and 1/p + 1/q = 1: ||AB||_{r,s} <= ||A||_{r,p} ||B||_{q,s}, where
    ||A||_{p,q} is the q-norm of the column p-norms [OCR? convention; the proof uses columns].

    Source
    ------
    Seed 002, Lemma 39, lines 2387-2411.

    Checkable form
    --------------
    1000 random instances (shapes up to 6, r, s, p in {1, 1.5, 2, 3, inf}), plus the all-ones instance
    A = 1 x k, B = k x 1.

    Exactness
    ---------
    float64, relative allowance 1e-12.

    Mutants
    -------
    p = q = inf: the all-ones instance gives k > 1.
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    rng = ctx.rng("holder")
    choices = [1.0, 1.5, 2.0, 3.0, np.inf]

    def conj(pp):
        return np.inf if pp == 1.0 else (1.0 if pp == np.inf else pp / (pp - 1))

    for k in range(1000):
        d1, d2, d3 = (int(v) for v in rng.integers(1, 7, size=3))
        A, B = rng.standard_normal((d1, d2)), rng.standard_normal((d2, d3))
        r_, s_, pp = (float(rng.choice(choices)) for _ in range(3))
        qq = conj(pp) if st.conjugate else np.inf
        if not st.conjugate:
            pp = np.inf
        ev.add({"instance": k, "r": r_, "s": s_, "p": pp}, _mixed(A @ B, r_, s_), _mixed(A, r_, pp) * _mixed(B, qq, s_) * (1 + 1e-12))
    kk = 5
    A, B = np.ones((1, kk)), np.ones((kk, 1))
    pp, qq = (2.0, 2.0) if st.conjugate else (np.inf, np.inf)
    ev.add({"instance": "all ones, k = 5", "p": pp}, _mixed(A @ B, 2, 2), _mixed(A, 2, pp) * _mixed(B, qq, 2) * (1 + 1e-12))
    return ev.verdict(seed=ctx.seed("holder"))
