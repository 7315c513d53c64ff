"""The transformer's covering / generalisation chain (E11-E22): Theorems 4 and 10, Lemmas 12-16, 18, 20, 39,
41, Proposition 17, Corollary 19, evaluated as explicit functions of N, q, d (hidden absolute constants set to
1, as the catalog prescribes), plus the exact sub-lemmas checked directly.

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

from kernels.sequence.qstr import gaussian_norm_moment
from kernels.constructions.retrieval_constructions import two_layer

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
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


# ---------------------------------------------------------------------------------------------
# E14, E15. Lipschitz steps of the covering lemmas
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LipschitzConstant:
    """Lemma 13's triangle step |f(A) - f'(A')| <= first_term |f(A') - f'(A')| + L_f ||A - A'||, with
    L_f = factor * ||a||_{a_norm} ||W||_op (printed: factor 1, the Euclidean norm of a, first_term 1)."""

    factor: float = 1.0
    a_norm: float = 2.0
    first_term: float = 1.0


_L13_PRINTED = LipschitzConstant()


def _lemma_13_ratio(st: LipschitzConstant, a, W, b, a2, W2, b2, A, A2):
    """lhs/rhs of Lemma 13's triangle step for f = (a, W, b), f' = (a2, W2, b2) at the points A, A'."""
    L = st.factor * np.linalg.norm(a, st.a_norm) * np.linalg.norm(W, 2)
    lhs = abs(two_layer(A, a, W, b) - two_layer(A2, a2, W2, b2))
    rhs = st.first_term * abs(two_layer(A2, a, W, b) - two_layer(A2, a2, W2, b2)) + L * np.linalg.norm(A - A2)
    return float(lhs), float(rhs)


@claim(
    id="seed002.lemma_13",
    source=SOURCE,
    label="Lemma 13",
    entry="E14",
    title="Covering of the composition: |f(A) - f'(A')| <= |f(A') - f'(A')| + ||a|| ||W||_op ||A - A'||",
    lines=[(808, 820)],
    printed=_L13_PRINTED,
    parts=[
        Part("triangle_step", "|f_2NN(A) - f'_2NN(A')| <= |f_2NN(A') - f'_2NN(A')| + L_f ||A - A'||_2 with "
             "L_f = ||a||_2 ||W||_op (the Lipschitz constant of f_2NN = a^T sigma(W h + b))", inequality=True),
        Part("covering", "log C(F_TR, d_inf^TR, eps_2NN + L_f eps_Attn) <= log C(F_2NN, d_inf^2NN, eps_2NN) + "
             "log C(F_Attn, d_inf^Attn, eps_Attn) on the event of Lemma 12", asserted=False,
             reason="covering numbers of these continuous classes are not computed; the conclusion follows from the "
                    "asserted triangle step by composing an eps_2NN-cover of F_2NN with an eps_Attn-cover of F_Attn "
                    "(the proof's one line; covers taken inside the classes, so that the covering attention outputs "
                    "stay in the ball ||h|| <= sqrt(H) r_z where d_inf^2NN is taken)"),
    ],
    mutants=[
        Mutant("L_f/2", "Lipschitz constant ||a|| ||W||_op / 2", replace(_L13_PRINTED, factor=0.5)),
        Mutant("L_f-x0.99", "L_f -> 0.99 ||a|| ||W||_op; sharpness 1 (f = f', two active units with equal rows, A - A' "
               "along the row: |f(A) - f(A')| = ||a|| ||W||_op ||A - A'|| exactly): rejected there",
               replace(_L13_PRINTED, factor=0.99), near_boundary=True, part="triangle_step", origin="second-reader"),
        Mutant("first-term-x0.99", "0.99 |f(A') - f'(A')| + L_f ||A - A'||: at A = A' the step is the identity "
               "|f(A) - f'(A)| = |f(A) - f'(A)|, rejected on every instance with A = A', f != f'",
               replace(_L13_PRINTED, first_term=0.99), near_boundary=True, part="triangle_step", origin="second-reader"),
        Mutant("a-sup-norm", "L_f = ||a||_inf ||W||_op: two equal active units a = (1, 1), rows w = (0.6, 0.8) give "
               "Lipschitz constant 2 > sqrt(2) = ||a||_inf ||W||_op", replace(_L13_PRINTED, a_norm=np.inf),
               origin="second-reader"),
        Mutant("no-first-term", "|f(A) - f'(A')| <= L_f ||A - A'|| (the distance between f and f' dropped): false at "
               "A = A' whenever f != f'", replace(_L13_PRINTED, first_term=0.0), origin="second-reader"),
    ],
    expect=Status.PARTLY_CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("restarts", int, 0, 200), Param("maxiter", int, 1, 10_000)],
    tiers={"quick": {"restarts": 1, "maxiter": 25}, "full": {"restarts": 8, "maxiter": 100}},
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
    Part triangle_step: random 2-layer ReLU nets f, f' (widths 1-7, inputs 1-5) and points A, A' at distance
    1e-3..1 (500 instances); instances with A = A' (the step is then an identity); the Lipschitz-tight instances
    (f = f', one unit, or two equal units a = (1, 1), in the linear region, A - A' along the row); and an
    adversarial search (``maximize_continuous``, L-BFGS-B, seeded starts incl. the tight instance) of
    |f(A) - f(A')| / (L_f ||A - A'||) over 2-unit nets in R^2.  Part covering is not asserted (reason in parts).

    Exactness
    ---------
    float64, relative allowance 1e-12.

    Mutants
    -------
    L_f / 2, L_f-x0.99: the tight instances have |f(A) - f(A')| = ||a||_2 ||W||_op ||A - A'|| exactly (linear region,
    f(h) = a^T (W h + b) with rank-one W, A - A' along the top right singular vector).  first-term-x0.99,
    no-first-term: at A = A' the lhs equals the first term, positive for f != f'.  a-sup-norm: a = (1, 1) with two
    equal rows w = (0.6, 0.8): f is 2-Lipschitz along w, while ||a||_inf ||W||_op = sqrt(2).

    Notes
    -----
    Second reader: the old check asserted only the triangle step, with L_f fixed by a literal (2.0 * 1.0) on the
    tight instance; L_f's formula (norm of a, factor, first-term coefficient) is now a field of the statement.
    No false variant was accepted by the old check.  Sharpness: 1 (attained: A = A', and the Lipschitz-tight
    instances; the search, started also from the tight instance, finds
    nothing above it).  The covering conclusion needs the covers inside the
    classes (or the 2NN distance taken on a larger ball): an external cover of F_Attn may leave the ball
    ||h|| <= sqrt(H) r_z on which d_inf^2NN is measured.
    """
    from ..sharpness import maximize_continuous

    ev = Evidence("le", rigor=Rigor.FLOAT)
    rng = ctx.rng("lemma13")
    for k in range(500):
        m, D = int(rng.integers(1, 8)), int(rng.integers(1, 6))
        a, W, b = rng.standard_normal(m), rng.standard_normal((m, D)), rng.standard_normal(m)
        a2, W2, b2 = a + 0.1 * rng.standard_normal(m), W + 0.1 * rng.standard_normal((m, D)), b
        A = rng.standard_normal(D)
        A2 = A if k % 10 == 0 else A + rng.standard_normal(D) * 10.0 ** rng.uniform(-3, 0)
        lhs, rhs = _lemma_13_ratio(st, a, W, b, a2, W2, b2, A, A2)
        ev.add({"instance": k, "m": m, "D": D, "A = A'": bool(k % 10 == 0)}, lhs, rhs * (1 + 1e-12) + 1e-15,
               part="triangle_step")
    # Lipschitz-tight instances: f = f' in the linear region, A - A' along the row(s)
    w = np.array([0.6, 0.8])
    for name, a, W in (("one unit, a = 2", np.array([2.0]), w[None, :]),
                       ("two equal units, a = (1, 1)", np.array([1.0, 1.0]), np.vstack([w, w]))):
        b = np.full(len(a), 5.0)
        A, A2 = np.array([1.0, 1.0]), np.array([1.0, 1.0]) + 0.5 * w
        lhs, rhs = _lemma_13_ratio(st, a, W, b, a, W, b, A, A2)
        ev.add({"instance": f"tight: {name}, linear region, A - A' along w"}, lhs, rhs * (1 + 1e-12), part="triangle_step")

    # adversarial search over 2-unit nets in R^2 with f = f' (the first term vanishes)
    def unpack(x):
        return x[0:2], x[2:6].reshape(2, 2), x[6:8], x[8:10], x[10:12]

    def ratio(x):
        a, W, b, A, A2 = unpack(x)
        if np.linalg.norm(A - A2) < 1e-9:
            return -np.inf
        lhs, rhs = _lemma_13_ratio(st, a, W, b, a, W, b, A, A2)
        return lhs / rhs if rhs > 0 else -np.inf

    start = np.concatenate([[1.0, 1.0], np.vstack([w, w]).ravel(), [5.0, 5.0], [1.0, 1.0], [1.0, 1.0] + 0.5 * w])
    res = maximize_continuous(ratio, [(-3.0, 3.0)] * 10 + [(-6.0, 6.0)] * 2, seed=ctx.seed("lemma13-search"),
                              restarts=p["restarts"], starts=[start], maxiter=p["maxiter"])
    a, W, b, A, A2 = unpack(np.asarray(res.x))
    lhs, rhs = _lemma_13_ratio(st, a, W, b, a, W, b, A, A2)
    ev.add({"instance": "search: f = f', 2 units in R^2", "method": res.method, "evaluations": res.evaluations},
           lhs, rhs * (1 + 1e-12) + 1e-15, part="triangle_step")
    return ev.verdict(seed=ctx.seed("lemma13"))


@dataclass(frozen=True)
class ParamLipschitz:
    """Lemma 30's step for L = 2 (f = a^T sigma(W x + b), ||a||, ||W||_F, ||b|| <= R, ||x|| <= r), from (C.13)-(C.14):
    (C.13) ||sigma(W x + b)|| <= hid_r ||W||_op ||x|| + hid_1 ||b||;
    |f(x) - f'(x)| <= a_coef (R r + R) ||a - a'|| + w_coef R (r ||W - W'||_F + ||b - b'||).
    ``input_radius`` False replaces r by 1 in the constants (poly(R) read without the input radius)."""

    hid_r: float = 1.0
    hid_1: float = 1.0
    a_coef: float = 1.0
    w_coef: float = 1.0
    input_radius: bool = True


_L30_PRINTED = ParamLipschitz()


def _lemma_30_sides(st: ParamLipschitz, R, r, x, a, W, b, a2, W2, b2):
    """(lhs, rhs) of the parameter-Lipschitz step and of (C.13) for one pair of nets and one input."""
    rr = r if st.input_radius else 1.0
    lhs = abs(two_layer(x, a, W, b) - two_layer(x, a2, W2, b2))
    rhs = (st.a_coef * (R * rr + R) * np.linalg.norm(a - a2)
           + st.w_coef * R * (rr * np.linalg.norm(W - W2) + np.linalg.norm(b - b2)))
    hid = np.linalg.norm(np.maximum(W @ x + b, 0.0))
    hid_rhs = st.hid_r * np.linalg.norm(W, 2) * np.linalg.norm(x) + st.hid_1 * np.linalg.norm(b)
    return float(lhs), float(rhs), float(hid), float(hid_rhs)


@claim(
    id="seed002.lemma_30",
    source=SOURCE,
    label="Lemma 30",
    entry="E15",
    title="Parameter-Lipschitz step of Lemmas 14/30, Corollary 31: |f_T(x) - f_T'(x)| <= poly(R, r) ||T - T'||",
    lines=[(822, 824), (1873, 1934)],
    printed=_L30_PRINTED,
    parts=[
        Part("hidden_norm", "(C.13): ||x_l||_2 <= ||W_l||_op ||x_{l-1}||_2 + ||b_l||_2 (here l = 1, x_0 = x)",
             inequality=True),
        Part("param_lipschitz", "||f_Theta(x) - f_Theta'(x)|| <= poly(R) ||vec Theta - vec Theta'||, in the explicit "
             "form of the proof for L = 2: |f - f'| <= (R r + R) ||a - a'|| + R (r ||W - W'||_F + ||b - b'||) for "
             "||a||, ||W||_F, ||b|| <= R and ||x|| <= r", inequality=True),
        Part("deep", "the same step for any absolute constant depth L = O(1)", asserted=False,
             reason="only depth L = 2 (the 2NN of Lemma 14) is checked; the recursion (C.13)-(C.14) for L > 2 is not "
                    "instantiated"),
        Part("covering", "log C(F_NN,L, d_inf, eps) <= p log(1 + poly(R)/eps)", asserted=False,
             reason="poly(R) is not specified, and covering numbers are not computed; for L = 2 the conclusion "
                    "follows from the asserted param_lipschitz part and the volumetric branch of Lemma 41 (checked "
                    "in seed002.lemma_41)"),
    ],
    mutants=[
        Mutant("no-input-radius", "the constant without the input radius r (r -> 1)",
               replace(_L30_PRINTED, input_radius=False)),
        Mutant("a-coef-x0.99", "0.99 (R r + R) ||a - a'||: sharpness 1, attained by a - a' along u, W = R u e^T, "
               "b = R u, x = r e (||sigma(W x + b)|| = R (r + 1)): rejected there", replace(_L30_PRINTED, a_coef=0.99),
               near_boundary=True, part="param_lipschitz", origin="second-reader"),
        Mutant("w-coef-x0.99", "0.99 R (r ||W - W'||_F + ||b - b'||): attained with equality by a = R u, "
               "W - W' = delta u e^T, b - b' = delta' u on an active unit: rejected there",
               replace(_L30_PRINTED, w_coef=0.99), near_boundary=True, part="param_lipschitz", origin="second-reader"),
        Mutant("hidden-x0.99", "(C.13) with 0.99 ||W||_op ||x||: equality for b = 0, x along the top right singular "
               "vector with W x >= 0", replace(_L30_PRINTED, hid_r=0.99), near_boundary=True, part="hidden_norm",
               origin="second-reader"),
    ],
    expect=Status.PARTLY_CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("restarts", int, 0, 200), Param("maxiter", int, 1, 10_000)],
    tiers={"quick": {"restarts": 0, "maxiter": 25}, "full": {"restarts": 8, "maxiter": 100}},
)
def check_lemma_30(st: ParamLipschitz, p, ctx) -> Verdict:
    """Lemma 30 (with Lemma 14 and Corollary 31): parameter-count covering of bounded ReLU nets.

    Statement
    ---------
    For F_{NN,L} with ||W_l||_F, ||b_l|| <= R and inputs ||x|| <= r: log C(F, d_inf, eps) <= p log(1 +
    poly(R)/eps), via (C.13) ||x_l|| <= ||W_l||_op ||x_{l-1}|| + ||b_l|| and ||f_Theta(x) - f_Theta'(x)|| <=
    poly(R) ||vec Theta - vec Theta'||.  For the 2-layer case the proof's chain gives
    |f - f'| <= (R r + R) ||a - a'|| + R (r ||W - W'||_F + ||b - b'||).

    Source
    ------
    Seed 002, Lemma 14, lines 822-824; Lemma 30 and Corollary 31, lines 1873-1934.

    Checkable form
    --------------
    R = 2.  Random 2-layer nets with norms <= R and inputs of norm r in {0.5, 3, 10} (500 instances); the tight
    instances (one active unit: a - a' along u with W = R u e^T, b = R u, x = r e; W - W', b - b' along the active
    unit; b = 0 with x along the top singular vector for (C.13)); and an adversarial search
    (``maximize_continuous``, L-BFGS-B over 2-unit nets in R^2, parameters projected on the norm balls, r = 3,
    seeded starts incl. the tight instance) of both ratios.  Parts deep and covering are not asserted.

    Exactness
    ---------
    float64, relative allowance 1e-12.

    Mutants
    -------
    no-input-radius: the tight W-instance at r = 10 has |f - f'| = R r ||W - W'||_F > R ||W - W'||_F.
    a-coef-x0.99, w-coef-x0.99, hidden-x0.99: each term is attained with equality by its tight instance (see
    Checkable form), so a factor 0.99 fails there.

    Notes
    -----
    Second reader: the old check asserted a looser W-part, R (r + 1) ||(W, b) - (W', b')||_F, whose best ratio was
    0.909 (= 10/11 at r = 10); the proof's own chain (C.13)-(C.14) gives the sharper R (r ||dW||_F + ||db||),
    attained, now checked.  The old statement object had a single switch (no constant fields); no false variant was
    accepted.  Sharpness found: 1 for both parts (tight instances; the search, started also there, finds nothing above).  Reading note:
    "poly(R)" must depend on the input radius r as well (through ||x_0|| in (C.14)); Lemma 14 and Corollary 31
    assume ||z|| <= R, so poly(R) is right there and nothing downstream changes (the no-input-radius mutant
    encodes this).

    Tiers: the quick tier is a smoke test of what the full tier shows: 150 random nets (full 500), the tight
    instances as at full, and the searches from the tight start only (restarts 0, 25 iterations; full 8 random
    restarts x 100 iterations).  The sharpness 1 comes from the tight instances at both tiers, so every mutant is
    rejected at quick; the quick tier cannot show that searches from random starts find nothing above 1.
    """
    from ..sharpness import maximize_continuous

    ev = Evidence("le", rigor=Rigor.FLOAT)
    rng = ctx.rng("lemma30")
    R = 2.0

    def proj(v):
        n = np.linalg.norm(v)
        return v * (R / n) if n > R else v

    for k in range(150 if ctx.tier == "quick" else 500):  # quick: a smoke test with 150 random instances
        m, D = int(rng.integers(1, 8)), int(rng.integers(1, 6))
        r = float(rng.choice([0.5, 3.0, 10.0]))

        def draw(m=m, D=D):
            return proj(rng.standard_normal(m)), proj(rng.standard_normal((m, D))), proj(rng.standard_normal(m))

        (a, W, b), (a2, W2, b2) = draw(), draw()
        x = rng.standard_normal(D)
        x *= r / np.linalg.norm(x)
        lhs, rhs, hid, hid_rhs = _lemma_30_sides(st, R, r, x, a, W, b, a2, W2, b2)
        ev.add({"instance": k, "r": r, "m": m, "D": D}, lhs, rhs * (1 + 1e-12), part="param_lipschitz")
        ev.add({"instance": k, "r": r, "m": m, "D": D}, hid, hid_rhs * (1 + 1e-12) + 1e-15, part="hidden_norm")
    # tight instances (one active unit u = e_1, x = r e_1)
    for r in (0.5, 3.0, 10.0):
        u, x = np.array([1.0, 0.0]), np.array([r, 0.0])
        W, b = R * np.outer(u, [1.0, 0.0]), R * u
        a, a2 = R * u, 0.9 * R * u  # a - a' along u
        lhs, rhs, hid, hid_rhs = _lemma_30_sides(st, R, r, x, a, W, b, a2, W, b)
        ev.add({"instance": "tight: a - a' along the active unit", "r": r}, lhs, rhs * (1 + 1e-12), part="param_lipschitz")
        ev.add({"instance": "tight: W x and b aligned", "r": r}, hid, hid_rhs * (1 + 1e-12), part="hidden_norm")
        W0, b0 = np.array([[0.1, 0.0], [0.0, 0.0]]), np.array([0.05, 0.0])
        W1, b1 = np.array([[0.2, 0.0], [0.0, 0.0]]), np.array([0.1, 0.0])  # W - W' along x, b - b' on the unit
        lhs, rhs, _, _ = _lemma_30_sides(st, R, r, x, R * u, W0, b0, R * u, W1, b1)
        ev.add({"instance": "tight: W - W', b - b' on the active unit", "r": r}, lhs, rhs * (1 + 1e-12),
               part="param_lipschitz")
        _, _, hid, hid_rhs = _lemma_30_sides(st, R, r, x, a, W, np.zeros(2), a, W, np.zeros(2))
        ev.add({"instance": "tight: b = 0, x along the top singular vector", "r": r}, hid, hid_rhs * (1 + 1e-12),
               part="hidden_norm")

    # adversarial search: 2-unit nets in R^2, r = 3, parameters projected on the balls of radius R
    r = 3.0

    def unpack(x):
        th = [proj(x[0:2]), proj(x[2:6].reshape(2, 2)), proj(x[6:8]), proj(x[8:10]), proj(x[10:14].reshape(2, 2)),
              proj(x[14:16])]
        xin = x[16:18]
        n = np.linalg.norm(xin)
        return th, (xin * (r / n) if n > 1e-12 else np.array([r, 0.0]))

    def ratio_param(x):
        (a, W, b, a2, W2, b2), xin = unpack(x)
        lhs, rhs, _, _ = _lemma_30_sides(st, R, r, xin, a, W, b, a2, W2, b2)
        return lhs / rhs if rhs > 1e-12 else -np.inf

    def ratio_hid(x):
        (a, W, b, _, _, _), xin = unpack(x)
        _, _, hid, hid_rhs = _lemma_30_sides(st, R, r, xin, a, W, b, a, W, b)
        return hid / hid_rhs if hid_rhs > 1e-12 else -np.inf

    start = np.concatenate([[R, 0.0], [R, 0.0, 0.0, 0.0], [R, 0.0], [0.9 * R, 0.0], [R, 0.0, 0.0, 0.0], [R, 0.0],
                            [1.0, 0.0]])
    for name, fn in (("param_lipschitz", ratio_param), ("hidden_norm", ratio_hid)):
        res = maximize_continuous(fn, [(-3.0, 3.0)] * 18, seed=ctx.seed(f"lemma30-{name}"), restarts=p["restarts"],
                                  starts=[start], maxiter=p["maxiter"])
        (a, W, b, a2, W2, b2), xin = unpack(np.asarray(res.x))
        if name == "hidden_norm":
            a2, W2, b2 = a, W, b
        lhs, rhs, hid, hid_rhs = _lemma_30_sides(st, R, r, xin, a, W, b, a2, W2, b2)
        case = {"instance": f"search ({name}), 2 units in R^2", "r": r, "method": res.method,
                "evaluations": res.evaluations}
        if name == "hidden_norm":
            ev.add(case, hid, hid_rhs * (1 + 1e-12) + 1e-15, part=name)
        else:
            ev.add(case, lhs, rhs * (1 + 1e-12) + 1e-15, part=name)
    return ev.verdict(seed=ctx.seed("lemma30"))


# ---------------------------------------------------------------------------------------------
# E16. softmax Lipschitz and Lemma 15
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SoftmaxConstant:
    """Lemma 15: ||softmax(u) - softmax(v)||_1 <= c ||u - v||_inf ([EGKZ22, Cor. A.7]) and, per position j over the
    H heads, ||f_Attn(Theta)_j - f_Attn(Theta')_j||_2 <= head_c r_z^rz_pow ||Theta^T z_j - Theta'^T z_j||_2, where
    Theta^T z_j stacks (W^(h))^T z_j (``transpose`` False: W^(h) z_j, the untransposed reading)."""

    c: float = 2.0
    head_c: float = 2.0
    rz_pow: float = 2.0
    transpose: bool = True


def _softmax(u):
    z = np.exp(u - u.max(axis=-1, keepdims=True))
    return z / z.sum(axis=-1, keepdims=True)


_L15_PRINTED = SoftmaxConstant()


def _lemma_15_sides(st: SoftmaxConstant, Z, Ws, W2s, j):
    """(lhs, rhs) of the all-heads distance step at position j: heads f^h = softmax(z_j^T W^(h) Z^T) Z."""
    r_z = float(np.linalg.norm(Z, axis=1).max())
    lhs2 = rhs2 = 0.0
    for W, W2 in zip(Ws, W2s):
        s, s2 = _softmax(Z @ W.T @ Z[j]), _softmax(Z @ W2.T @ Z[j])  # logits u_k = z_j^T W z_k
        lhs2 += float(np.linalg.norm(s @ Z - s2 @ Z)) ** 2
        dW = (W - W2).T if st.transpose else (W - W2)
        rhs2 += float(np.linalg.norm(dW @ Z[j])) ** 2
    return sqrt(lhs2), st.head_c * r_z**st.rz_pow * sqrt(rhs2)


@claim(
    id="seed002.lemma_15",
    source=SOURCE,
    label="Lemma 15",
    entry="E16",
    title="||softmax(u) - softmax(v)||_1 <= 2 ||u - v||_inf and the per-head bound 2 r_z^2 ||(W - W')^T z||",
    lines=[(830, 876)],
    printed=_L15_PRINTED,
    parts=[
        Part("softmax_lipschitz", "||softmax(u) - softmax(v)||_1 <= 2 ||u - v||_inf ([EGKZ22, Cor. A.7])", inequality=True),
        Part("distance", "||f_Attn(p; Theta)_j - f_Attn(p; Theta')_j||_2 <= 2 r_z^2 ||Theta^T z_j - Theta'^T z_j||_2 for "
             "||z_k|| <= r_z (all H heads; per head via ||Z^T||_{2,inf} ||s - s'||_1 and the softmax bound), i.e. "
             "d_inf^Attn <= 2 r_z^2 d_inf^Theta", inequality=True),
        Part("covering", "log C(F_Attn, d_inf^Attn, eps) <= log C(Theta_QK, d_inf^Theta, eps/(2 r_z^2))", asserted=False,
             reason="covering numbers of these continuous classes are not computed; the conclusion follows from the "
                    "asserted distance part by mapping an eps/(2 r_z^2)-cover of Theta_QK to F_Attn"),
    ],
    mutants=[
        Mutant("constant-1/2", "softmax Lipschitz constant 1/2", replace(_L15_PRINTED, c=0.5)),
        Mutant("softmax-c-0.99", "||softmax(u) - softmax(v)||_1 <= 0.99 ||u - v||_inf (the printed 2 x 0.495, just below "
               "the sharp constant 1; sharpness 0.5): u = 0, v = (eps, -eps) gives tanh(eps) > 0.99 eps",
               replace(_L15_PRINTED, c=0.99), near_boundary=True, part="softmax_lipschitz", origin="second-reader"),
        Mutant("head-c-0.99", "0.99 r_z^2 ||Theta^T z_j - Theta'^T z_j|| (2 x 0.495; sharpness 0.5): z_1 = -z_2 = r e, "
               "W' - W = delta e e^T gives ratio tanh(delta r^2)/(0.99 delta r^2) > 1",
               replace(_L15_PRINTED, head_c=0.99), near_boundary=True, part="distance", origin="second-reader"),
        Mutant("untransposed", "2 r_z^2 ||(W - W') z_j|| (W instead of W^T): W' - W = e_1 e_2^T, z_j = e_1, other tokens "
               "+-e_2: (W - W') z_j = 0 while the logits and the output move", replace(_L15_PRINTED, transpose=False),
               origin="second-reader"),
        Mutant("r_z^1", "2 r_z ||Theta^T z_j - Theta'^T z_j|| (power 1): the tight instance at r = 3 has ratio -> r/2 = 1.5",
               replace(_L15_PRINTED, rz_pow=1.0), origin="second-reader"),
    ],
    expect=Status.PARTLY_CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("restarts", int, 0, 200), Param("maxiter", int, 1, 10_000)],
    tiers={"quick": {"restarts": 0, "maxiter": 25}, "full": {"restarts": 8, "maxiter": 100}},
)
def check_lemma_15(st: SoftmaxConstant, p, ctx) -> Verdict:
    """Lemma 15: attention covering via the softmax Lipschitz bound.

    Statement
    ---------
    If ||z_j|| <= r_z: log C(F_Attn, eps) <= log C(Theta_QK, eps/(2 r_z^2)); per head
    ||f_Attn(W)_j - f_Attn(W')_j|| <= r_z ||s - s'||_1 <= 2 r_z^2 ||(W - W')^T z_j||, using
    ||softmax(u) - softmax(v)||_1 <= 2 ||u - v||_inf; summed over the heads, d_inf^Attn <= 2 r_z^2 d_inf^Theta.

    Source
    ------
    Seed 002, Lemma 15, lines 830-876 ([EGKZ22, Cor. A.7]).

    Checkable form
    --------------
    Part softmax_lipschitz: 2000 random logit pairs (dims 2-64, perturbation scales 1e-6..10), the near-tight pair
    u = 0, v = (eps, -eps), and an adversarial search (``maximize_continuous`` over (u, v - u) in R^3 x R^3, seeded
    starts incl. the near-tight pair).  Part distance: 300 random instances (H = 1-3 heads, N = 2-9 tokens of
    dimension 2-5, r_z = max ||z_k||, W' = W + perturbation of scale 1e-3..1), the tight instance z_1 = -z_2 = r e,
    W = 0, W' = delta e e^T (r in {0.5, 1, 3}), the transposition instance (z_j = e_1, tokens +-e_2,
    W' - W = e_1 e_2^T), and an adversarial search over one head with 3 tokens in R^2.  Part covering is not
    asserted (reason in parts).

    Exactness
    ---------
    float64; relative allowance 1e-9 (the ratios are O(1), differences of probabilities of size >= 1e-7).

    Mutants
    -------
    constant 1/2, softmax-c-0.99: at u = 0, v = (eps, -eps) the lhs is tanh(eps) = eps - eps^3/3 + ..., above
    0.99 eps for eps < 0.17 (eps = 1e-4 used).  head-c-0.99: the tight instance has lhs = r tanh(delta r^2),
    rhs = 0.99 r^2 delta r: ratio tanh(x)/(0.99 x) > 1 at x = delta r^2 = 9e-6.  untransposed: with z_j = e_1,
    W' - W = e_1 e_2^T the logits z_j^T W z_k change by +-delta on the tokens +-e_2, so the output moves, while
    (W - W') z_j = 0 (rhs 0).  r_z^1: the tight instance scales like r^3 delta on the left, r^2 delta on the right.

    Notes
    -----
    Second reader: the OLD check's per-head right side was 2 r_z^2 ||(W - W') z_j|| (untransposed) although its
    docstring printed (W - W')^T z_j; that inequality is FALSE (mutant untransposed) and the old check accepted it,
    because random perturbations never hit the kernel of z_j^T.  With the logit convention of line 852,
    softmax(z_j^T W Z^T), the factor is (W - W')^T z_j, and Theta^T z_j is the only product that typechecks for
    Theta in R^{D_e x H D_e}; the OCR'd "Theta_QK z_j" of d_inf^Theta is read with the transpose (no erratum).
    Sharpness: both parts 0.5 (the constant 2 is loose by exactly 2: sup ||softmax(u) - softmax(v)||_1 /
    ||u - v||_inf = 1, approached at near-uniform logits, as the catalog argues).  The searches reach 0.42 (softmax)
    and 0.48 (one head) with 2 starts x 25 iterations, 0.4999992 and 0.4996 with 17 starts x 200 iterations (full);
    the tight instances give 0.5 - 2e-9.

    Tiers: the quick tier is a smoke test of what the full tier shows: 500 random logit pairs and 100 random head
    instances (full 2000 and 300), the near-tight and tight instances as at full, and the two searches from their
    seeded start only (restarts 0, 25 iterations; they reach 0.33 there, full 8 random restarts x 100 iterations).
    The sharpness (0.5 on both parts) comes from the tight instances, so it is the same at both tiers and every
    mutant, the near-boundary ones included, is rejected at the quick tier; the quick tier cannot show that a broad
    search finds nothing above 0.5.
    """
    from ..sharpness import maximize_continuous

    ev = Evidence("le", rigor=Rigor.FLOAT)
    rng = ctx.rng("softmax")
    quick = ctx.tier == "quick"  # smoke test: 500 random logit pairs and 100 head instances (full: 2000 and 300)
    for k in range(500 if quick else 2000):
        m = int(rng.integers(2, 65))
        u = rng.standard_normal(m) * float(rng.choice([0.1, 1, 5]))
        v = u + rng.standard_normal(m) * 10.0 ** rng.uniform(-6, 1)
        ev.add({"instance": k, "dim": m}, float(np.abs(_softmax(u) - _softmax(v)).sum()),
               st.c * float(np.abs(u - v).max()) * (1 + 1e-9), part="softmax_lipschitz")
    eps_ = 1e-4
    ev.add({"instance": "u = 0, v = (eps, -eps)", "eps": eps_},
           float(np.abs(_softmax(np.zeros(2)) - _softmax(np.array([eps_, -eps_]))).sum()), st.c * eps_ * (1 + 1e-9),
           part="softmax_lipschitz")

    def sm_ratio(x):
        u, dv = x[:3], x[3:]
        n = float(np.abs(dv).max())
        if n < 1e-7:
            return -np.inf
        return float(np.abs(_softmax(u) - _softmax(u + dv)).sum()) / (st.c * n)

    res = maximize_continuous(sm_ratio, [(-4.0, 4.0)] * 3 + [(-2.0, 2.0)] * 3, seed=ctx.seed("softmax-search"),
                              restarts=p["restarts"], starts=[[0, 0, 0, 1e-3, -1e-3, 0]], maxiter=p["maxiter"])
    u, dv = np.asarray(res.x[:3]), np.asarray(res.x[3:])
    ev.add({"instance": "search (u, v - u) in R^3", "method": res.method, "evaluations": res.evaluations},
           float(np.abs(_softmax(u) - _softmax(u + dv)).sum()), st.c * float(np.abs(dv).max()) * (1 + 1e-9),
           part="softmax_lipschitz")

    for k in range(100 if quick else 300):
        H, N, D = int(rng.integers(1, 4)), int(rng.integers(2, 10)), int(rng.integers(2, 6))
        Z = rng.standard_normal((N, D)) * float(rng.choice([0.3, 1.0, 2.0]))
        Ws = [rng.standard_normal((D, D)) for _ in range(H)]
        W2s = [W + 10.0 ** rng.uniform(-3, 0) * rng.standard_normal((D, D)) for W in Ws]
        j = int(rng.integers(0, N))
        lhs, rhs = _lemma_15_sides(st, Z, Ws, W2s, j)
        ev.add({"instance": f"heads {k}", "H": H, "N": N, "D": D}, lhs, rhs * (1 + 1e-9), part="distance")
    e1, e2 = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    for r in (0.5, 1.0, 3.0):
        delta = 1e-6
        Z = np.array([r * e1, -r * e1])
        lhs, rhs = _lemma_15_sides(st, Z, [np.zeros((2, 2))], [delta * np.outer(e1, e1)], 0)
        ev.add({"instance": "tight: z_1 = -z_2 = r e, W' - W = delta e e^T", "r": r, "delta": delta}, lhs,
               rhs * (1 + 1e-9), part="distance")
    Z = np.array([e1, e2, -e2])
    lhs, rhs = _lemma_15_sides(st, Z, [np.zeros((2, 2))], [0.5 * np.outer(e1, e2)], 0)
    ev.add({"instance": "transposition: z_j = e_1, tokens +-e_2, W' - W = e_1 e_2^T / 2"}, lhs, rhs * (1 + 1e-9),
           part="distance")

    def head_ratio(x):
        Z = x[:6].reshape(3, 2)
        W, W2 = x[6:10].reshape(2, 2), x[10:14].reshape(2, 2)
        lhs, rhs = _lemma_15_sides(st, Z, [W], [W2], 0)
        return lhs / rhs if rhs > 1e-12 else -np.inf

    start = np.concatenate([[1, 0, -1, 0, 0, 0.5], np.zeros(4), [1e-3, 0, 0, 0]])
    res = maximize_continuous(head_ratio, [(-2.0, 2.0)] * 14, seed=ctx.seed("head-search"), restarts=p["restarts"],
                              starts=[start], maxiter=p["maxiter"])
    x = np.asarray(res.x)
    lhs, rhs = _lemma_15_sides(st, x[:6].reshape(3, 2), [x[6:10].reshape(2, 2)], [x[10:14].reshape(2, 2)], 0)
    ev.add({"instance": "search: one head, 3 tokens in R^2", "method": res.method, "evaluations": res.evaluations},
           lhs, rhs * (1 + 1e-9) + 1e-300, part="distance")
    return ev.verdict(seed=ctx.seed("softmax"))


# ---------------------------------------------------------------------------------------------
# E17. Lemma 16 / Lemma 41: packing numbers
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PackingBound:
    """Lemma 41: log P <= {d log(1 + numer/eps)} min {(maurey_coef/eps^2)(1 + log(1 + maurey_inner d eps^2))};
    ``maurey`` False drops the second (Maurey) branch."""

    numer: float = 2.0
    maurey: bool = True
    maurey_coef: float = 1.0
    maurey_inner: float = 2.0


_L41_PRINTED = PackingBound()


def _extended_hamming_16() -> np.ndarray:
    """The codewords (2048 x 16, entries 0/1) of the extended Hamming code [16, 11, 4]: even-weight words whose
    first 15 bits have zero syndrome for the parity-check matrix with all nonzero 4-bit columns."""
    words = (np.arange(2**16)[:, None] >> np.arange(16)) & 1
    Hm = (np.arange(1, 16)[None, :] >> np.arange(4)[:, None]) & 1
    keep = (((words[:, :15] @ Hm.T) % 2).sum(1) == 0) & (words.sum(1) % 2 == 0)
    return words[keep]


_L41_CACHE: dict = {}


def _lemma_41_planar_packings(ctx) -> list[tuple[float, int, int]]:
    """(eps, greedy packing size on a grid, best hexagonal-lattice count) for eps in (0.5, 0.3, 0.2), the greedy
    order drawn from the stream ctx.rng("packing").  Statement-independent (the stream does not depend on the
    statement): computed once and cached across the printed statement and the mutants (same values)."""
    key = (ctx.claim_id, ctx.seed("packing"))
    if key in _L41_CACHE:
        return _L41_CACHE[key]
    rng = ctx.rng("packing")
    g = np.linspace(-1, 1, 81)
    grid = np.array([(a, b) for a in g for b in g if a * a + b * b <= 1])
    out = []
    for eps in (0.5, 0.3, 0.2):
        pts = grid[rng.permutation(len(grid))]
        chosen = np.empty((0, 2))
        for x in pts:
            if chosen.shape[0] == 0 or float(np.min(np.linalg.norm(chosen - x, axis=1))) >= eps:
                chosen = np.vstack([chosen, x])
        best = 0
        K = int(2 / eps) + 2
        ii, jj = np.meshgrid(np.arange(-K, K + 1), np.arange(-K, K + 1))
        base = np.stack([eps * (ii + 0.5 * jj), eps * (sqrt(3) / 2) * jj], axis=-1).reshape(-1, 2)
        for ox in np.linspace(0, eps, 6, endpoint=False):
            for oy in np.linspace(0, eps * sqrt(3) / 2, 6, endpoint=False):
                best = max(best, int((((base + [ox, oy]) ** 2).sum(1) <= 1).sum()))
        out.append((eps, len(chosen), best))
    _L41_CACHE[key] = out
    return out


def _lemma_41_hypotheses(case) -> list[str]:
    """Printed hypotheses of Lemma 41 for a packing witness: d >= 1, eps > 0, and the witness's points lie in the
    unit ball with pairwise distances > eps (so P is at least their number, under either reading > eps / >= eps)."""
    from fractions import Fraction

    out = []
    d, eps = int(case["d"]), Fraction(str(case["eps"]))
    if d < 1:
        out.append("d >= 1")
    if not eps > 0:
        out.append("eps > 0")
    if "min_dist_sq" in case:
        if not Fraction(str(case["max_norm_sq"])) <= 1:
            out.append("points in the unit ball")
        if not Fraction(str(case["min_dist_sq"])) > eps * eps:
            out.append("pairwise distances > eps (an eps-packing)")
    return out


@claim(
    id="seed002.lemma_41",
    source=SOURCE,
    label="Lemma 41",
    entry="E17",
    title="eps-packing of the unit ball: log P <= d log(1 + 2/eps) (volumetric branch; Lemma 16's covering)",
    lines=[(2417, 2423), (880, 899), (2190, 2200)],
    printed=_L41_PRINTED,
    corrected=replace(_L41_PRINTED, maurey=False),
    parts=[
        Part("volumetric", "log P <= d log(1 + 2/eps) for the eps-packing number P of the unit ball of R^d",
             inequality=True),
        Part("maurey", "log P <= (1/eps^2)(1 + log(1 + 2 d eps^2)) (the second branch of the minimum, 'Maurey's "
             "sparsification'; constants as OCR'd)", inequality=True),
    ],
    mutants=[
        Mutant("1+1/eps", "d log(1 + 1/eps)", replace(_L41_PRINTED, maurey=False, numer=1.0)),
        Mutant("numer-1.98", "d log(1 + 1.98/eps) (x 0.99; sharpness 1 at d = 1, eps = 2/k): d = 1, eps = 1 packs "
               "{-1, 0, 1}, 3 points > 2.98", replace(_L41_PRINTED, maurey=False, numer=1.98), near_boundary=True,
               part="volumetric", origin="second-reader"),
        Mutant("maurey-x0.99", "the Maurey branch x 0.99 (the printed branch already fails: sharpness 1.67 at the "
               "extended Hamming packing)", replace(_L41_PRINTED, maurey_coef=0.99), near_boundary=True, part="maurey",
               origin="second-reader"),
        Mutant("maurey-x1.5", "the Maurey branch x 1.5 (1.5/eps^2)(1 + log(1 + 2 d eps^2)): still below log 2048 = 7.62 at "
               "the extended Hamming packing (6.85); no OCR reading of its constants rescues the branch",
               replace(_L41_PRINTED, maurey_coef=1.5), origin="second-reader"),
        Mutant("maurey-x20", "the Maurey branch x 20 (any OCR reading of its numerator up to 182 fails): d = 10^4, "
               "eps = 1/2, log P >= d log 2 = 6931 > 20 x 38.1", replace(_L41_PRINTED, maurey_coef=20.0),
               origin="second-reader"),
        Mutant("maurey-RNN-form", "the form used at line 2196, (1/eps^2)(1 + log(1 + d eps^2)) for the unit ball: 4.22 < 7.62 "
               "at the extended Hamming packing", replace(_L41_PRINTED, maurey_inner=1.0), origin="second-reader"),
    ],
    expect=Status.ERRATUM,
    severity=Severity.SUBSTANTIVE,
    affects=("seed002.proposition_8", "seed002.theorem_9"),
    hypotheses=_lemma_41_hypotheses,
    rigor=Rigor.FLOAT,
)
def check_lemma_41(st: PackingBound, p, ctx) -> Verdict:
    """Lemma 41 (used by Lemma 16 and Proposition 8): packing number of the unit ball.

    Statement
    ---------
    The eps-packing number P of the unit ball of R^d satisfies log P <= {d log(1 + 2/eps)} min
    {(1/eps^2)(1 + log(1 + 2 d eps^2))} ("the second construction uses Maurey's sparsification lemma").
    ERRATUM (second reader): the Maurey branch is false for the Euclidean unit ball.  Witness: the extended Hamming
    code [16, 11, 4] written as +-1/4 vectors: 2048 points on the unit sphere of R^16, pairwise squared distances
    (Hamming distance)/4 >= 1 > eps^2 at eps = 0.99, so log P >= log 2048 = 7.62 > (1/0.98)(1 + log(1 + 31.4)) =
    4.57 (ratio 1.67); also the cross-polytope +-e_i, d = 10, eps = 1.4: log 20 = 3.00 > 2.39.  The witness meets
    every printed hypothesis (``_lemma_41_hypotheses`` re-checks d, eps, the unit ball and the separation).  The
    branch fails in its form, not only its constants: for any fixed eps < 1, log P >= d log(1/eps) (a maximal
    eps-packing is an eps-covering: P vol(eps B) >= vol(B)), against (C/eps^2) log d; at d = 10^4, eps = 1/2 this
    refutes every numerator C < 182, so no OCR reading of the branch's constants rescues it.  Severity substantive: Maurey's bound
    holds for the l1 ball (convex hull of +-e_i), not the l2 ball; the proof of Proposition 8 applies the branch
    to an l2 ball (lines 2192-2200) for its norm lower bound on ||U||_op, which Theorem 9 uses, so those lose
    their justification as written.

    Correction
    ----------
    For the Euclidean unit ball only the volumetric branch holds: log P <= d log(1 + 2/eps) (sharp at d = 1);
    the Maurey-type branch (C/eps^2) log(d eps^2) holds for the l1 unit ball (convex hull of +-e_i) instead.

    Source
    ------
    Seed 002, Lemma 41, lines 2417-2423; Lemma 16, lines 880-899; its use in Proposition 8's proof, lines 2190-2200.

    Checkable form
    --------------
    Part volumetric: d = 1 exactly: the largest eps-separated (>= eps, the larger reading) subset of [-1, 1] has
    floor(2/eps) + 1 points (rational eps = k/den, exact arithmetic) against 1 + numer/eps; d = 2: greedy packings
    on a fine grid and hexagonal-lattice packings over a 6 x 6 grid of offsets (lower bounds on P) against
    (1 + numer/eps)^2.  Part maurey: the same d = 1 packings, the cross-polytope (d = 10, eps = 1.4) and the
    extended Hamming packing (d = 16, eps = 0.99), log P against the branch; and the volume lower bound
    log P >= d log(1/eps) at d = 10^3, 10^4, eps = 1/2 (a standard argument, not an executed packing).

    Exactness
    ---------
    d = 1 exact (Fractions); the packings' separations are exact (squared distances are multiples of 1/4, computed
    exactly in float64 from +-1/4 entries); the logarithms are float64 with margins >= 0.6 at the witnesses.

    Mutants
    -------
    1+1/eps, numer-1.98: d = 1, eps = 1 has P = 3 > 2.98 (and > 2).  maurey-x0.99, maurey-x1.5, maurey-RNN-form: at
    the extended Hamming packing log P >= 7.62 against 4.52, 6.85, 4.22; maurey-x20: the volume bound at d = 10^4,
    eps = 1/2: 6931 > 762.

    Notes
    -----
    The volumetric constant 2 fixes the reading "eps-packing = points at pairwise distance >= eps" (balls of radius
    eps/2 inside the ball of radius 1 + eps/2); the witness has distances > eps, so it packs under both readings.
    The old check never evaluated the Maurey branch and confirmed the minimum: the printed false statement was
    accepted.  Sharpness (corrected, volumetric): 1 at d = 1, eps = 2/k (k + 1 points); the best d = 2 packings
    reach 0.69 of (1 + 2/eps)^2.  Maurey branch: 1.67 (extended Hamming packing).
    """
    from fractions import Fraction

    ev = Evidence("le", rigor=Rigor.FLOAT)
    for den in range(1, 40):
        for num in (1, 2, 3):
            eps = Fraction(num, den)
            if eps > 2:
                continue
            P = int(2 / eps) + 1
            ev.add({"d": 1, "eps": eps}, P, 1 + st.numer / eps, part="volumetric")
    for eps, greedy, best in _lemma_41_planar_packings(ctx):
        ev.add({"d": 2, "eps": eps, "packing": "greedy on a grid"}, greedy, (1 + st.numer / eps) ** 2,
               part="volumetric")
        ev.add({"d": 2, "eps": eps, "packing": "hexagonal lattice, best of 36 offsets"}, best, (1 + st.numer / eps) ** 2,
               part="volumetric")
    if not st.maurey:
        return ev.verdict(seed=ctx.seed("packing"))

    def maurey(d, eps):
        return st.maurey_coef / eps**2 * (1 + log(1 + st.maurey_inner * d * eps**2))

    for den in (1, 2, 4, 8):
        eps = Fraction(1, den)
        ev.add({"d": 1, "eps": eps}, log(int(2 / eps) + 1), maurey(1, float(eps)), part="maurey")
    for d, eps, name, S in (
        (10, 1.4, "cross-polytope +-e_i", np.vstack([np.eye(10), -np.eye(10)])),
        (16, 0.99, "extended Hamming [16, 11, 4] as +-1/4 vectors", (1 - 2 * _extended_hamming_16()) / 4.0),
    ):
        G = S @ S.T
        sq = np.diag(G)
        dist = sq[:, None] + sq[None, :] - 2 * G
        np.fill_diagonal(dist, np.inf)
        case = {"d": d, "eps": eps, "packing": name, "points": len(S), "min_dist_sq": float(dist.min()),
                "max_norm_sq": float(sq.max())}
        ev.add(case, log(len(S)), maurey(d, eps), part="maurey")
    # the form, whatever the OCR'd constants: a maximal eps-packing is an eps-covering (else a point could be
    # added), so P vol(eps B) >= vol(B), i.e. log P >= d log(1/eps) (linear in d) against (C/eps^2) log(d eps^2)
    for d in (10**3, 10**4):
        ev.add({"d": d, "eps": 0.5, "packing": "volume bound: a maximal eps-packing covers, so P >= eps^-d"},
               d * log(2.0), maurey(d, 0.5), part="maurey")
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


def _mixed(A, p_, q_, axis: int = 0):
    """||A||_{p,q}: the q-norm of the column (axis 0) p-norms; axis 1 takes row norms (the transposed reading).
    p_ < 1 gives the quasi-norm (sum |x|^p)^(1/p)."""
    cols = np.linalg.norm(A, ord=p_, axis=axis)
    return float(np.linalg.norm(cols, ord=q_))


@dataclass(frozen=True)
class HolderPair:
    """Lemma 39: ||AB||_{r,s} <= ||A||_{r,p} ||B||_{q,s} for r, s >= r_min and p, q >= 1 with
    1/p + 1/q = conj_sum (printed: r_min = 1, conj_sum = 1); ``axis`` 0 = column norms (notation, line 138)."""

    conj_sum: float = 1.0
    r_min: float = 1.0
    axis: int = 0


_L39_PRINTED = HolderPair()


def _lemma_39_q(st: HolderPair, pp: float) -> float | None:
    """The exponent q with 1/p + 1/q = conj_sum, or None where no q >= 1 exists."""
    t = st.conj_sum - (0.0 if pp == np.inf else 1.0 / pp)
    if t < -1e-15:
        return None
    q = np.inf if abs(t) <= 1e-15 else 1.0 / t
    return q if q >= 1.0 else None


@claim(
    id="seed002.lemma_39",
    source=SOURCE,
    label="Lemma 39",
    entry="E22",
    title="Mixed-norm Hoelder: ||AB||_{r,s} <= ||A||_{r,p} ||B||_{q,s} for 1/p + 1/q = 1",
    lines=[(2387, 2411), (137, 139)],
    printed=_L39_PRINTED,
    parts=[
        Part("holder", "for A in R^{d1 x d2}, B in R^{d2 x d3}, all r, s >= 1 and p, q >= 1 with 1/p + 1/q = 1: "
             "||AB||_{r,s} <= ||A||_{r,p} ||B||_{q,s} (||A||_{p,q} = q-norm of the column p-norms)", inequality=True),
    ],
    mutants=[
        Mutant("p=q=inf", "non-conjugate exponents p = q = infinity (1/p + 1/q = 0)", replace(_L39_PRINTED, conj_sum=0.0)),
        Mutant("conj-0.99", "1/p + 1/q = 0.99 (just beyond the sharpness 1): the all-ones 1 x k, k x 1 instance with "
               "p = q = 2/0.99 gives k^{0.99} < k", replace(_L39_PRINTED, conj_sum=0.99), near_boundary=True,
               part="holder", origin="second-reader"),
        Mutant("r>=1/2", "the range r, s >= 1/2 (quasi-norms): A = I_2, B = (1, 1)^T, r = s = 1/2, p = q = 2 gives "
               "||AB||_{1/2,1/2} = 4 > 2", replace(_L39_PRINTED, r_min=0.5), origin="second-reader"),
        Mutant("row-norms", "||A||_{p,q} read as the q-norm of the ROW p-norms: A = 1_{k x 1}, B = 1_{1 x k}, r = s = 1, "
               "p = q = 2 gives k^2 > k", replace(_L39_PRINTED, axis=1), origin="second-reader"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("restarts", int, 0, 200), Param("maxiter", int, 1, 10_000)],
    tiers={"quick": {"restarts": 0, "maxiter": 25}, "full": {"restarts": 8, "maxiter": 100}},
)
def check_lemma_39(st: HolderPair, p, ctx) -> Verdict:
    """Lemma 39: mixed-norm Hoelder inequality.

    Statement
    ---------
    For A (d1 x d2), B (d2 x d3), r, s >= 1 and p, q >= 1 with 1/p + 1/q = 1: ||AB||_{r,s} <= ||A||_{r,p}
    ||B||_{q,s}, where ||A||_{p,q} is the q-norm of the column p-norms (notation, lines 137-139; the proof works
    column by column).

    Source
    ------
    Seed 002, Lemma 39, lines 2387-2411; notation, lines 137-139.

    Checkable form
    --------------
    1000 random instances (shapes up to 6, r, s, p in {r_min, 1, 1.5, 2, 3, inf}, q from 1/p + 1/q = conj_sum);
    the equality instances: all-ones A = 1 x k, B = k x 1 (r = s = 2, p = q = 2/conj_sum), A = I_2, B = (1, 1)^T
    (r = s = r_min, p = q = 2) and A = 1_{k x 1}, B = 1_{1 x k} (r = s = r_min, p = q = 2); and an adversarial search
    (``maximize_continuous``, L-BFGS-B over A in R^{2x3}, B in R^{3x2}, for (r, s, p) in {(1, 2, 2), (2, 1, 3),
    (3, inf, 1.5)}, seeded starts incl. the rank-one all-ones instance).

    Exactness
    ---------
    float64, relative allowance 1e-12.

    Mutants
    -------
    p = q = inf and conj-0.99: the all-ones instance has lhs k and rhs k^{1/p + 1/q} = k^{conj_sum} < k (k = 5).
    r >= 1/2: ||(1, 1)||_{1/2} = 4 while ||I_2||_{1/2,2} ||(1,1)^T||_{2,1/2} = sqrt 2 sqrt 2 = 2.  row-norms: for
    A = 1_{k x 1}, B = 1_{1 x k}, r = s = 1 the lhs is k^2 (both readings) and the row-reading rhs is
    k^{1/2} k^{1/2} = k (the column reading gives k^2: equality).

    Notes
    -----
    Second reader: the statement object had a single switch (conjugate or p = q = inf); the exponent relation,
    the range r, s >= 1 and the column convention are now fields.  No false variant was accepted by the old
    check (the row-norms and r >= 1/2 variants were not expressible).  Sharpness: 1 (equality on the instances
    above and on random ones with p = 1 or r = 1; the search finds nothing above); the statement is exact Hoelder, no slack.

    Tiers: the quick tier is a smoke test of what the full tier shows: 300 random instances (full 1000), the
    equality instances as at full, and the three searches from the all-ones start only (restarts 0, 25
    iterations; full 8 random restarts x 100 iterations).  The sharpness 1 comes from the equality instances
    at both tiers, so every mutant is rejected at quick; the quick tier cannot show that searches from random
    starts find nothing above 1.
    """
    from ..sharpness import maximize_continuous

    ev = Evidence("le", rigor=Rigor.FLOAT)
    rng = ctx.rng("holder")
    choices = [st.r_min, 1.0, 1.5, 2.0, 3.0, np.inf]

    def sides(A, B, r_, s_, pp, qq):
        return _mixed(A @ B, r_, s_, st.axis), _mixed(A, r_, pp, st.axis) * _mixed(B, qq, s_, st.axis)

    for k in range(300 if ctx.tier == "quick" else 1000):  # quick: a smoke test with 300 random instances
        d1, d2, d3 = (int(v) for v in rng.integers(1, 7, size=3))
        A, B = rng.standard_normal((d1, d2)), rng.standard_normal((d2, d3))
        r_, s_, pp = (float(rng.choice(choices)) for _ in range(3))
        qq = _lemma_39_q(st, pp)
        if qq is None or pp < 1:
            pp, qq = np.inf, _lemma_39_q(st, np.inf)
            if qq is None:
                continue
        lhs, rhs = sides(A, B, r_, s_, pp, qq)
        ev.add({"instance": k, "r": r_, "s": s_, "p": pp, "q": qq}, lhs, rhs * (1 + 1e-12), part="holder")
    kk = 5
    pq = 2.0 / st.conj_sum if st.conj_sum > 0 else np.inf
    lhs, rhs = sides(np.ones((1, kk)), np.ones((kk, 1)), 2.0, 2.0, pq, pq)
    ev.add({"instance": "all ones 1 x k, k x 1", "k": kk, "p": pq, "q": pq}, lhs, rhs * (1 + 1e-12), part="holder")
    lhs, rhs = sides(np.eye(2), np.ones((2, 1)), st.r_min, st.r_min, 2.0, 2.0)
    ev.add({"instance": "A = I_2, B = (1, 1)^T", "r": st.r_min, "s": st.r_min, "p": 2.0, "q": 2.0}, lhs,
           rhs * (1 + 1e-12), part="holder")
    lhs, rhs = sides(np.ones((kk, 1)), np.ones((1, kk)), st.r_min, st.r_min, 2.0, 2.0)
    ev.add({"instance": "all ones k x 1, 1 x k", "k": kk, "r": st.r_min, "s": st.r_min, "p": 2.0, "q": 2.0}, lhs,
           rhs * (1 + 1e-12), part="holder")
    for r_, s_, pp in ((1.0, 2.0, 2.0), (2.0, 1.0, 3.0), (3.0, np.inf, 1.5)):
        qq = _lemma_39_q(st, pp)
        if qq is None:
            continue

        def ratio(x, r_=r_, s_=s_, pp=pp, qq=qq):
            lhs, rhs = sides(x[:6].reshape(2, 3), x[6:].reshape(3, 2), r_, s_, pp, qq)
            return lhs / rhs if rhs > 1e-12 else -np.inf

        res = maximize_continuous(ratio, [(-2.0, 2.0)] * 12, seed=ctx.seed(f"holder-search-{r_}-{s_}-{pp}"),
                                  restarts=p["restarts"], starts=[np.full(12, 1.0)], maxiter=p["maxiter"])
        x = np.asarray(res.x)
        lhs, rhs = sides(x[:6].reshape(2, 3), x[6:].reshape(3, 2), r_, s_, pp, qq)
        ev.add({"instance": "search A 2x3, B 3x2", "r": r_, "s": s_, "p": pp, "q": qq, "method": res.method,
                "evaluations": res.evaluations}, lhs, rhs * (1 + 1e-12) + 1e-300, part="holder")
    return ev.verdict(seed=ctx.seed("holder"))
