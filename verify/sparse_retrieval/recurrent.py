"""Recurrent networks (E25-E34, derived D1): the bidirectional RNN with projection, the recurrent retrieval
chain of the upper bound (Psi, Corollary 27, Propositions 26 and 28, Lemmas 22-25, 29), and the lower-bound
mechanisms (Proposition 8/35, Theorem 9, Lemmas 36-38, the exact linear-state analogue D1).

Constructions are executed (kernels.constructions.retrieval_constructions); the statements whose constants are hidden
(Theorems 7 and 9, Proposition 8) are MECHANISM claims.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from fractions import Fraction
from math import ceil, log, sqrt

import numpy as np

from kernels.sequence.qstr import assumption3_codes
from kernels.constructions.retrieval_constructions import birnn_states, relu, rnn_exact_retrieval

from ..registry import Evidence, Kind, Mutant, Param, Part, Rigor, Severity, Status, Verdict, claim
from . import SOURCE

CONTRACT_AUDITED = True

_MECH = {"expect": Status.MECHANISM, "rigor": Rigor.MECHANISM, "kind": Kind.MECHANISM}


def _codes(rng, N):
    return assumption3_codes(rng, N, ceil(16 * log(max(N, 2))) + 8)


# ---------------------------------------------------------------------------------------------
# E25 / E32(i). structure of the bidirectional RNN
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RNNWiring:
    include_current: bool = False
    norm_factor: float = 1.0  # ||h||_2 <= norm_factor * r_h (the projection Pi_{r_h})


def _random_transition(rng, d_h, D):
    W1h, W1z, W2 = rng.standard_normal((16, d_h)), rng.standard_normal((16, D)), rng.standard_normal((d_h, 16)) / 4
    b1 = rng.standard_normal(16)
    return lambda h, z: W2 @ relu(W1h @ h + W1z @ z + b1)


@claim(
    id="seed002.birnn_definition",
    source=SOURCE,
    label="Bidirectional RNN (Sec. 5.1)",
    entry="E25",
    title="h->_i depends on z_1..z_{i-1} only, h<-_i on z_{i+1}..z_N only; ||h|| <= r_h",
    lines=[(477, 514)],
    printed=RNNWiring(),
    parts=[
        Part("initial_states", "h->_1 = h<-_N = 0"),
        Part("causality", "h->_i depends on z_1..z_{i-1} only, h<-_i on z_{i+1}..z_N only (z_i enters position i only "
             "through f_y)"),
        Part("projection_bound", "||h->_i||, ||h<-_i|| <= r_h (Pi_{r_h} projects on the r_h ball)", inequality=True),
    ],
    mutants=[Mutant("feeds-current-token", "the update at i reads z_i (off by one)", RNNWiring(True)),
             Mutant("norm-x0.99", "||h|| <= 0.99 r_h: the random transitions push the states out of the ball, so the "
                    "projection puts them on its boundary (ratio 1)", RNNWiring(norm_factor=0.99), near_boundary=True,
                    part="projection_bound", origin="second-reader")],
    expect=Status.CONFIRMED,
    rigor=Rigor.EXACT,
)
def check_birnn_definition(st: RNNWiring, p, ctx) -> Verdict:
    """Bidirectional RNN with projection and its constraint set.

    Statement
    ---------
    h->_1 = h<-_N = 0, h->_i = Pi_{r_h}(h->_{i-1} + f_h->(h->_{i-1}, z_{i-1})), h<-_i = Pi_{r_h}(h<-_{i+1} +
    f_h<-(h<-_{i+1}, z_{i+1})), y_hat_i = f_y(h->_i, h<-_i, z_i); hence z_i enters position i only through f_y and
    both states are bounded by r_h.  (This is also fact (1) of the proof of Proposition 8.)

    Source
    ------
    Seed 002, Bidirectional RNN (Sec. 5.1), lines 477-514.

    Checkable form
    --------------
    Random deep-ReLU transitions (d_h = 5, D = 6, N = 12, r_h = 3); changing z_j (for example the encoding
    of t_j) must leave (h->_j, h<-_j) bit-identical, for every j; all states have norm <= r_h.

    Exactness
    ---------
    Exact: bit-identical float arrays (==).

    Mutants
    -------
    feeds-current-token: the state at j changes with z_j.  norm-x0.99: states projected onto the sphere of radius
    r_h have norm r_h > 0.99 r_h.

    Notes
    -----
    Sharpness of projection_bound: 1 (up to rounding): the transitions (weights of size ~1 on |z| ~ 2) leave the
    ball, and the projection lands on its boundary - the extremal case of the bound, no search needed.
    """
    ev = Evidence("true", rigor=Rigor.EXACT)
    rng = ctx.rng("birnn")
    for k in range(5):
        N, D, d_h = 12, 6, 5
        ff, fb = _random_transition(rng, d_h, D), _random_transition(rng, d_h, D)
        z = rng.standard_normal((N, D))
        hf, hb = birnn_states(z, ff, fb, 3.0, d_h, include_current=st.include_current)
        hmax = max(float(np.linalg.norm(hf, axis=1).max()), float(np.linalg.norm(hb, axis=1).max()))
        ev.add({"instance": k, "r_h": 3.0}, hmax, st.norm_factor * 3.0 * (1 + 1e-12), relation="le", part="projection_bound")
        ev.add({"instance": k, "part": "initial_states"}, bool(not hf[0].any() and not hb[-1].any()))
        for j in range(N):
            z2 = z.copy()
            z2[j] = rng.standard_normal(D)
            hf2, hb2 = birnn_states(z2, ff, fb, 3.0, d_h, include_current=st.include_current)
            ev.add({"instance": k, "j": j, "part": "causality: (h->_j, h<-_j) independent of z_j"},
                   bool(np.array_equal(hf2[j], hf[j]) and np.array_equal(hb2[j], hb[j])))
    return ev.verdict(seed=ctx.seed("birnn"))


# ---------------------------------------------------------------------------------------------
# E27. Psi and Corollary 27
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RetrievalChain:
    threshold: float = 0.5
    off_target_leak: float = 0.0  # an approximate f_h that is eps (not 0) off target
    simple: bool = True  # the tuple is shared by all positions
    on_target_err: float = 0.0  # model of Prop. 26 (1): f_h = x_{t_l} + (error of norm <= on_target_err) on target
    eps_coef: float = 1.0  # Corollary 27 (2): ||h->_i(l) - x_{t_l}|| <= eps_coef * eps
    rh_sqrtq_power: float = 0.5  # r_h = q^power (r_x + sqrt(q) eps) suffices (the projection never acts)
    zero_strict: bool = True  # Corollary 27 (1): h->_i(l) = 0 exactly when t_l >= i (False: only when t_l > i+1)


def _run_chain(st: RetrievalChain, rng, N, q, d, n, r_x=None):
    codes = _codes(rng, N)
    x = rng.standard_normal((n, N, d))
    if r_x is not None:  # tokens on the sphere of radius r_x (the extremal case of ||x_j|| <= r_x)
        x *= r_x / np.linalg.norm(x, axis=2, keepdims=True)
    t = rng.integers(0, N, size=(n, q))
    hf, hb, psi = rnn_exact_retrieval(x, t, codes, st.threshold)
    if st.off_target_leak or st.on_target_err:
        hit = (np.arange(N)[None, :, None] == t[:, None, :])[..., None]
        noise = rng.standard_normal(psi.shape)
        noise *= st.on_target_err / np.linalg.norm(noise, axis=3, keepdims=True)
        psi = np.where(hit, psi + noise, st.off_target_leak * np.ones_like(psi))
        cs = np.cumsum(psi, axis=1)
        hf = np.concatenate([np.zeros_like(psi[:, :1]), cs[:, :-1]], axis=1)
        rcs = np.cumsum(psi[:, ::-1], axis=1)[:, ::-1]
        hb = np.concatenate([rcs[:, 1:], np.zeros_like(psi[:, :1])], axis=1)
    target = np.take_along_axis(x, t[:, :, None], axis=1)  # (n, q, d)
    if not st.simple:
        # general qSTR: position i asks for its own tuple; the shared-tuple chain still answers t
        t_pos = rng.integers(0, N, size=(n, N, q))
        target_pos = np.take_along_axis(x[:, :, None, :], t_pos.reshape(n, N * q)[:, :, None, None], axis=1).reshape(n, N, q, d)
    else:
        t_pos = np.broadcast_to(t[:, None, :], (n, N, q))
        target_pos = np.broadcast_to(target[:, None], (n, N, q, d))
    return x, t, t_pos, hf, hb, psi, target_pos


_C27 = RetrievalChain()


@claim(
    id="seed002.corollary_27",
    source=SOURCE,
    label="Corollary 27",
    entry="E27",
    title="Psi_l = 2 x sigma(<w_i, w_t_l> - 1/2) = x 1[t_l = i]; h-> + h<- + Psi = (x_t1..x_tq) at every i",
    lines=[(1255, 1310), (1632, 1647)],
    printed=_C27,
    parts=[
        Part("psi_identity", "Psi(x_i, t, i)_l = 2 x_i sigma(<omega_i, omega_{t_l}> - 1/2) = x_i 1[t_l = i] (roadmap, "
             "Assumption 3)"),
        Part("zero_before", "Corollary 27 (1): if t_l >= i then h->_i(l) = 0_d (exactly; symmetric for h<-)"),
        Part("retrieved_after", "Corollary 27 (2): if t_l < i then ||h->_i(l) - x_{t_l}|| <= eps (Prop. 26 with error eps)",
             inequality=True),
        Part("projection_inactive", "with r_h >= sqrt(q) (r_x + sqrt(q) eps) the projection Pi_{r_h} is the identity: "
             "||h->_i|| <= r_h", inequality=True),
        Part("reconstruction", "h->_i + h<-_i + Psi(x_i, t, i) = (x_{t_1}; ...; x_{t_q}) at every i, d_h = q d (exact chain)"),
    ],
    mutants=[
        Mutant("threshold-1/4", "threshold 1/4 instead of 1/2", replace(_C27, threshold=0.25)),
        Mutant("nonzero-off-target", "f_h approximately (1e-6) rather than exactly zero off target (C.2 dropped)",
               replace(_C27, off_target_leak=1e-6)),
        Mutant("eps-x0.99", "||h->_i(l) - x_{t_l}|| <= 0.99 eps: an on-target error of norm exactly eps is carried "
               "unchanged to every later position (ratio 1)", replace(_C27, on_target_err=1e-3, eps_coef=0.99),
               near_boundary=True, part="retrieved_after", origin="second-reader"),
        Mutant("r_h-without-sqrtq", "r_h = r_x + sqrt(q) eps (factor sqrt q dropped): q >= 2 targets of norm r_x give "
               "||h|| = sqrt(q) r_x", replace(_C27, rh_sqrtq_power=0.0), origin="second-reader"),
        Mutant("r_h-x0.99", "r_h = 0.99 sqrt(q) r_x (q^0.4975 at q = 3 ~ 0.9945 sqrt q): the state after all targets "
               "has norm exactly sqrt(q) r_x", replace(_C27, rh_sqrtq_power=0.4975), near_boundary=True,
               part="projection_inactive", origin="second-reader"),
        Mutant("zero-one-step-late", "(1) shifted by one: h->_i(l) = 0 also at i = t_l + 1 (the token read one step "
               "late)", replace(_C27, zero_strict=False), origin="second-reader"),
    ],
    expect=Status.CONFIRMED,
    rigor=Rigor.FLOAT,
    params=[Param("N_max", int, 16, 10**5)],
    tiers={"quick": {"N_max": 256}, "full": {"N_max": 4096}, "gpu": {"N_max": 8192}},
)
def check_corollary_27(st: RetrievalChain, p, ctx) -> Verdict:
    """Roadmap identity Psi and Corollary 27: exact recurrent retrieval.

    Statement
    ---------
    Under Assumption 3, Psi(x_i, t, i)_l = 2 x_i sigma(<omega_i, omega_{t_l}> - 1/2) = x_i 1[t_l = i]; with
    h->_{i+1} = h->_i + Psi(x_i, t, i) (and backwards), h->_i(l) = x_{t_l} 1[t_l < i], h<-_i(l) = x_{t_l} 1[t_l > i]
    and h->_i + h<-_i + Psi(x_i, t, i) = (x_{t_1}; ...; x_{t_q}) for every i (d_h = q d).  (C.2): f_h must be
    exactly 0 off target, else errors accumulate linearly in N.  Corollary 27 with Prop. 26's error eps: (1) t_l >= i
    => h->_i(l) = 0 exactly; (2) t_l < i => ||h->_i(l) - x_{t_l}|| <= eps; r_h > sqrt(q)(r_x + sqrt(q) eps) keeps the
    projection inactive.

    Source
    ------
    Seed 002, roadmap of App. C.1, lines 1255-1310; Corollary 27, lines 1632-1647 (the OCR of (1) reads
    "t_l > i"; the induction at lines 1639-1645 gives h->_i(l) = 0 for t_l >= i, which is what is asserted).

    Checkable form
    --------------
    Execute the chain for N in {16, 64, 256, 1024 (.. N_max)}, q in {1, 3}, d = 3, codes satisfying
    Assumption 3 (d_e = ceil(16 ln N) + 8), shared random tuples with repeats, tokens on the sphere of radius
    r_x = 2 (the extremal case of ||x_j|| <= r_x); compare the reconstruction with the targets at every position
    (max abs error <= 1e-12 |x|_max), the one-sided identities, and ||h->_i|| against q^{rh_sqrtq_power} r_x.
    Prop. 26's error is modelled as in its statement: f_h is exactly 0 off target and x_{t_l} + (a random vector
    of norm exactly eps = 1e-3) on target; then (2) is checked with eps_coef * eps, (1) exactly.

    Exactness
    ---------
    float64: Psi is exact (sigma(1/2) * 2 = 1 exactly, sigma(s - 1/2) = 0 for s <= 1/2); cumulative sums of
    <= q nonzero terms carry rounding <= q * 2^-52 |x|; allowance 1e-12 * max|x|.

    Mutants
    -------
    threshold-1/4: Psi = 1.5 x on target.  nonzero-off-target: the error grows like N * 1e-6 (> 1e-12 |x|).
    eps-x0.99: the carried error has norm exactly eps > 0.99 eps.  r_h-without-sqrtq, r_h-x0.99: when the q >= 2
    targets of a prompt are distinct and all precede position N, ||h->_N||^2 = sum_l ||x_{t_l}||^2 = q r_x^2 (tokens
    on the sphere), so ||h->_N|| = sqrt(q) r_x > q^{0.4975} r_x.  zero-one-step-late: h->_{t_l + 1}(l) = x_{t_l}
    != 0 (h->_{i+1} = h->_i + Psi(x_i, t, i) reads position i = t_l).

    Notes
    -----
    Sharpness: retrieved_after 1.0 (an on-target error is carried unchanged: the bound eps is attained);
    projection_inactive 1.0 up to rounding (q = 3 distinct targets on the sphere: ||h|| = sqrt(q) r_x; with eps > 0
    the bound sqrt(q)(r_x + sqrt(q) eps) is approached but not reached).  Both are exact extremal instances,
    not searched.
    """
    ev = Evidence("le", rigor=Rigor.FLOAT)
    rng = ctx.rng("chain")
    r_x = 2.0
    for N in [N for N in (16, 64, 256, 1024, 4096, 8192) if N <= p["N_max"]]:
        for q in (1, 3):
            exact = replace(st, on_target_err=0.0)
            x, t, _t_pos, hf, hb, psi, target = _run_chain(exact, rng, N, q, 3, 4, r_x=r_x)
            tol = 1e-12 * float(np.abs(x).max())
            hit = (np.arange(N)[None, :, None] == t[:, None, :])[..., None]
            ev.add({"N": N, "q": q, "part": "psi_identity"}, float(np.abs(psi - np.where(hit, x[:, :, None, :], 0.0)).max()), tol)
            err = float(np.abs(hf + hb + psi - target).max())
            ev.add({"N": N, "q": q, "part": "reconstruction"}, err, tol)
            ev.add({"N": N, "q": q, "part": "reconstruction: d_h = q d"}, hf.shape[2] * hf.shape[3], q * 3, relation="eq")
            ii = np.arange(N)[None, :, None, None]
            before = (t[:, None, :, None] < ii) if st.zero_strict else (t[:, None, :, None] + 1 < ii)
            want_f = np.where(before, target, 0.0)
            ev.add({"N": N, "q": q, "part": "zero_before / retrieved_after (exact chain)"}, float(np.abs(hf - want_f).max()), tol)
            hn = float(np.linalg.norm(hf.reshape(*hf.shape[:2], -1), axis=2).max())
            ev.add({"N": N, "q": q, "r_x": r_x}, hn, q ** st.rh_sqrtq_power * r_x * (1 + 1e-12), part="projection_inactive")
            # Prop. 26's error model: exact zeros off target, error of norm eps on target
            eps = 1e-3
            noisy = replace(st, on_target_err=eps)
            x, t, _t_pos, hf, hb, psi, target = _run_chain(noisy, rng, N, q, 3, 4, r_x=r_x)
            ii = np.arange(N)[None, :, None]
            after = (t[:, None, :] < ii)
            dev = np.linalg.norm(hf - target, axis=3)  # (n, N, q)
            if after.any():
                ev.add({"N": N, "q": q, "eps": eps}, float(dev[after].max()), st.eps_coef * eps * (1 + 1e-9),
                       part="retrieved_after")
            zero_region = ~after if st.zero_strict else (t[:, None, :] + 1 >= ii)
            ev.add({"N": N, "q": q, "eps": eps, "part": "zero_before"}, float(np.linalg.norm(hf, axis=3)[zero_region].max()), 0.0)
            hn = float(np.linalg.norm(hf.reshape(*hf.shape[:2], -1), axis=2).max())
            ev.add({"N": N, "q": q, "r_x": r_x, "eps": eps}, hn,
                   q ** st.rh_sqrtq_power * (r_x + sqrt(q) * eps) * (1 + 1e-12), part="projection_inactive")
    return ev.verdict(seed=ctx.seed("chain"))


@claim(
    id="seed002.theorem_7",
    source=SOURCE,
    label="Theorem 7",
    entry="E26",
    title="RNNs learn simple-qSTR with N-free width q d: the retrieval construction is exact for every N",
    lines=[(517, 534), (2044, 2057)],
    printed=RetrievalChain(),
    parts=[
        Part("risk_bound", "R^RNN(Theta-hat) <~ eps_2NN + sqrt(poly(d, q, m_g, r_a, r_w, 1/eps_2NN, log nN)/n)",
             asserted=False, reason="the polynomial and the constants are unspecified; the mechanism behind it is "
                                    "asserted (construction_exact, N-free width) and the covering step is Lemma 29"),
        Part("construction_exact", "mechanism: the retrieval construction answers the shared tuple exactly at every "
             "position with hidden width q d, weights depending on N only through d_e = Theta(log N)"),
        Part("state_norm", "mechanism: max ||h|| <= sqrt(q) max_j ||x_j|| (so r_h = Theta~(sqrt(qd)) suffices)",
             inequality=True),
    ],
    mutants=[Mutant("general-qSTR", "the same construction on general qSTR (a tuple per position)", RetrievalChain(simple=False)),
             Mutant("state-norm-x0.6", "max ||h|| <= 0.6 sqrt(q) max||x||: sharpness found 0.61 (N = 16, Gaussian tokens); "
                    "false in general (q distinct orthogonal targets of maximal norm give sqrt(q) max||x||)",
                    replace(_C27, eps_coef=0.6), near_boundary=True, part="state_norm", origin="second-reader")],
    **_MECH,
    params=[Param("N_max", int, 16, 10**5)],
    tiers={"quick": {"N_max": 1024}, "full": {"N_max": 4096}, "gpu": {"N_max": 8192}},
)
def check_theorem_7(st: RetrievalChain, p, ctx) -> Verdict:
    """Theorem 7: RNNs learn simple-qSTR with sample complexity poly(d, q, m_g, log nN)/n-type.

    Statement
    ---------
    For simple-qSTR, with L_h, L_y = O(1), r_h = Theta~(sqrt(qd)), alpha_N <= 1/N, R = poly(d, q, r_a, r_w,
    1/eps_2NN, log nN): R^RNN(Theta-hat) <~ eps_2NN + sqrt(poly(d, q, m_g, r_a, r_w, 1/eps_2NN, log nN)/n).

    Source
    ------
    Seed 002, Theorem 7, lines 517-534; proof App. C.1-C.2, lines 2044-2057.

    Checkable form
    --------------
    The polynomial is unspecified, so the mechanism is checked: the construction behind it (Corollary 27,
    Proposition 28) retrieves the shared tuple exactly at every position with hidden width q d and weights that
    depend on N only through d_e = Theta(log N); executed for N up to N_max (error <= 1e-12 |x|), with the
    state norm max ||h|| <= sqrt(q) max||x|| (r_h = Theta~(sqrt(q d)) suffices).

    Exactness
    ---------
    Mechanism; float64 with the allowance argued in Corollary 27.

    Mutants
    -------
    general-qSTR: with a tuple per position the shared-state construction answers the wrong tuple (error O(1)),
    consistent with Theorem 9.  state-norm-x0.6 (the statement field eps_coef scales the state-norm bound here):
    rejected at the sharpness case.

    Notes
    -----
    Sharpness of state_norm: 0.61 (quick, N = 16, Gaussian tokens, q = 2); the extremal case (distinct targets of
    maximal norm, ratio 1) is asserted in seed002.corollary_27 (part projection_inactive).
    """
    ev = Evidence("le", rigor=Rigor.MECHANISM)
    rng = ctx.rng("thm7")
    for N in [N for N in (16, 256, 1024, 4096, 8192) if N <= p["N_max"]]:
        x, _t, _t_pos, hf, hb, psi, target = _run_chain(st, rng, N, 2, 3, 4)
        xm = float(np.abs(x).max())
        ev.add({"N": N, "q": 2, "part": "retrieval error at every position"}, float(np.abs(hf + hb + psi - target).max()), 1e-12 * xm)
        hn = float(np.linalg.norm(hf.reshape(*hf.shape[:2], -1), axis=2).max())
        ev.add({"N": N, "q": 2}, hn, st.eps_coef * sqrt(2) * float(np.linalg.norm(x, axis=2).max()) * (1 + 1e-12),
               part="state_norm")
    return ev.verdict(seed=ctx.seed("thm7"))


# ---------------------------------------------------------------------------------------------
# E28. Lemma 22 / 42 (random-feature fit)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WidthScaling:
    fixed_width: int | None = None  # None: width grows as eps shrinks (the lemma)


@claim(
    id="seed002.lemma_22",
    source=SOURCE,
    label="Lemma 22",
    entry="E28",
    title="2-layer ReLU nets approximate products/inner products; error shrinks as the width grows",
    lines=[(1371, 1414), (2428, 2439)],
    printed=WidthScaling(),
    parts=[
        Part("existence", "m = O(d_e^3 (log(d_e/eps)/eps)^2), ||W^T||_{2,inf} <= 1, ||b||_inf <= 1, ||a||_2 = O(.)",
             asserted=False, reason="existential with the unspecified constants of Lemma 42 (Bach 2017, cited)"),
        Part("mechanism", "mechanism: a ReLU net with rows ||w|| <= 1, |b| <= 1 reaches sup error eps in {0.1, 0.03} on "
             "e1 e2 at some width <= 512, and the width needed grows as eps shrinks"),
    ],
    mutants=[Mutant("fixed-width-8", "width 8 reaches every accuracy", WidthScaling(fixed_width=8))],
    **_MECH,
)
def check_lemma_22(st: WidthScaling, p, ctx) -> Verdict:
    """Lemma 22 / Lemma 42: ReLU approximation of inner products (Bach'17).

    Statement
    ---------
    For every eps and d_e there is m = O(d_e^3 (log(d_e/eps)/eps)^2) [proof; statement OCR?] with
    sup_{w1, w2 in S^{d_e-1}} |<w1, w2> - a^T sigma(W (w1; w2) + b)| <= eps, ||W^T||_{2,inf} <= 1, ||b||_inf <= 1.

    Source
    ------
    Seed 002, Lemma 22, lines 1371-1414; Lemma 42, lines 2428-2439.

    Checkable form
    --------------
    Existence proofs via integral representations are not executable; the mechanism is: a random-feature ReLU
    net (rows with ||w|| <= 1, |b| <= 1) fitted by least squares to (e1, e2) -> e1 e2 on [-1, 1]^2 reaches a
    target sup error eps in {0.1, 0.03} on a test grid at some width m <= 512, and the width needed grows as eps
    shrinks.

    Exactness
    ---------
    Mechanism: float64 least squares; the sup error is measured on the 41 x 41 fitting grid.

    Mutants
    -------
    fixed-width-8: a width-8 net does not reach eps = 0.03.
    """
    ev = Evidence("le", rigor=Rigor.MECHANISM)
    rng = ctx.rng("lemma22")
    g = np.linspace(-1, 1, 41)
    G = np.array([(a, b) for a in g for b in g])
    y = G[:, 0] * G[:, 1]
    widths = [st.fixed_width] if st.fixed_width else [8, 32, 128, 512]
    errs = {}
    for m in widths:
        W = rng.standard_normal((m, 2))
        W /= np.linalg.norm(W, axis=1, keepdims=True)
        b = rng.uniform(-1, 1, m)
        F = relu(G @ W.T + b)
        coef, *_ = np.linalg.lstsq(F, y, rcond=None)
        errs[m] = float(np.abs(F @ coef - y).max())
    need = {}
    for eps in (0.1, 0.03):
        hit = [m for m in widths if errs[m] <= eps]
        if hit:
            need[eps] = hit[0]
        ev.add({"eps": eps, "width reached": need.get(eps)}, min(errs.values()), eps)
    ev.details["sup error by width"] = {str(m): v for m, v in errs.items()}
    if len(need) == 2:
        ev.add({"part": "width needed grows as eps shrinks"}, need[0.1], need[0.03])
    ev.details["width needed"] = {str(k): v for k, v in need.items()}
    return ev.verdict(seed=ctx.seed("lemma22"))


# ---------------------------------------------------------------------------------------------
# E29. Lemmas 23-25, Proposition 26
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TransitionFacts:
    range_coef_sq: Fraction = Fraction(4)  # (max_box |h + 2x sigma(z - 1/2)|)^2 <= range_coef_sq * R^(2 range_power)
    range_power: int = 2  # statement (Lemma 42's hypothesis |f| <= L R, L = 2R): 4 R^4; proof step "<= R": 1, 1
    lip_coef_sq: Fraction = Fraction(4)  # f is L-Lipschitz on the box with L^2 = lip_coef_sq R^2 (L = 2R)
    st_factor: Fraction = Fraction(1)  # |z - ST_b(z)| <= st_factor * b


def _p26_box_max(rh, rx):
    r = lambda v: max(v, 0)  # noqa: E731
    return max(abs(h + 2 * x * r(zz - Fraction(1, 2))) for h in (-rh, rh) for x in (-rx, rx) for zz in (-1, 1))


@lru_cache(maxsize=8)
def _p26_points(range_power: int, seed: int) -> tuple:
    """The (r^h, r^x) points of check_proposition_26's box and Lipschitz parts with 1 + (r^h)^2 + (r^x)^2 and the
    exact box maximum (exact Fractions; statement-independent, so computed once for the printed statement and its
    mutants): the grid {0, 1/4, ..., 4}^2, the sharpness search's points, (50, 50) and (0, 50)."""
    extra = list(_p26_search_points(range_power, seed))
    grid = [(Fraction(a, 4), Fraction(bb, 4)) for a in range(17) for bb in range(17)]
    return tuple((rh, rx, 1 + rh**2 + rx**2, _p26_box_max(rh, rx))
                 for rh, rx in grid + extra + [(Fraction(50), Fraction(50)), (Fraction(0), Fraction(50))])


@lru_cache(maxsize=8)
def _p26_search_points(range_power: int, seed: int):
    """Adversarial points of the sharpness search (the argmax does not depend on the coefficients, only on the
    power of R): seeded multi-start L-BFGS-B over (r^h, r^x) in [0, 50]^2, rounded to rationals."""
    from verify.sharpness import maximize_continuous

    def range_ratio(v):
        rh, rx = float(abs(v[0])), float(abs(v[1]))
        return (rh + rx) / sqrt((1 + rh * rh + rx * rx) ** range_power)

    def lip_ratio(v):
        rh, rx = float(abs(v[0])), float(abs(v[1]))
        return sqrt((2 + 4 * rx * rx) / (1 + rh * rh + rx * rx))

    box = [(0.0, 50.0), (0.0, 50.0)]
    out = []
    for fn, starts in ((range_ratio, [(0.7, 0.7), (50, 50)]), (lip_ratio, [(0, 50)])):
        res = maximize_continuous(fn, box, seed=seed, restarts=2, starts=starts, maxiter=100)
        out.append(tuple(Fraction(round(float(abs(c)), 4)).limit_denominator(10**4) for c in res.x))
    return tuple(out)


_P26_STATEMENT = TransitionFacts()


@claim(
    id="seed002.proposition_26",
    source=SOURCE,
    label="Proposition 26",
    entry="E29",
    title="Soft thresholds give exact zeros; Lemma 24's range bound |h + 2x sigma(z-1/2)| <= R fails (<= sqrt2 R holds)",
    lines=[(1418, 1628)],
    printed=_P26_STATEMENT,
    proof_step=replace(_P26_STATEMENT, range_coef_sq=Fraction(1), range_power=1),
    corrected=replace(_P26_STATEMENT, range_coef_sq=Fraction(2), range_power=1),
    parts=[
        Part("st_zero", "ST_b(z) = sigma(z - b) - sigma(-z - b) = 0 for |z| <= b (the exact zeros of Prop. 26 (2))"),
        Part("st_error", "|z - ST_b(z)| <= b", inequality=True),
        Part("identity", "sigma(z) - sigma(-z) = z (Lemma 23's identity part)"),
        Part("lemma42_range", "Lemma 24's target f(h, x, z) = h + 2 x sigma(z - 1/2) on |h| <= r^h, |x| <= r^x, |z| <= 1 "
             "meets Lemma 42's |f| <= L R with L = 2R, R = sqrt(1 + (r^x)^2 + (r^h)^2) (proof step as printed: |f| <= R)",
             inequality=True),
        Part("lemma42_lipschitz", "f is 2R-Lipschitz on the box (Lemma 24's proof)", inequality=True),
        Part("lemma24_width_norms", "Lemma 24: m = O(R^6 (log(R/eps)/eps)^3), ||a||_2 = O(R (log(R/eps)/eps)^2/sqrt m), "
             "||W||_{2,inf} <= 1, ||b||_inf <= 1", asserted=False,
             reason="existential with the unspecified absolute constants of Lemma 42 (Bach 2017, cited, not re-proved); "
                    "what Lemma 24 adds - that f meets Lemma 42's hypotheses - is the parts lemma42_range and lemma42_lipschitz"),
        Part("prop26_network", "Proposition 26: a 4-layer network with f(h, z)_l ~ x_{t_l} if t_l = 1, = 0 exactly else, "
             "weights poly(r_x, D_e, 1/eps)", asserted=False,
             reason="poly(.) with unspecified degree; the exact-zero mechanism is st_zero, the chain is executed by "
                    "seed002.corollary_27"),
    ],
    mutants=[
        Mutant("ST-error-b/2", "soft-threshold error |z - ST_b(z)| <= b/2", replace(_P26_STATEMENT, st_factor=Fraction(1, 2))),
        Mutant("ST-error-x0.99", "|z - ST_b(z)| <= 0.99 b: the error is exactly b for |z| >= b (sharpness 1)",
               replace(_P26_STATEMENT, st_factor=Fraction(99, 100)), near_boundary=True, part="st_error",
               origin="second-reader"),
        Mutant("range-x0.96-of-sharp", "|f| <= 0.98 * 2R^2/sqrt(8) (squares: 0.48 R^4): the box maximum r^h + r^x against "
               "2R^2 peaks at 1/sqrt(8) = 0.3536 at r^h = r^x = 1/sqrt 2 (search point 0.7071): rejected there",
               replace(_P26_STATEMENT, range_coef_sq=Fraction(48, 100)), near_boundary=True, part="lemma42_range",
               origin="second-reader"),
        Mutant("corrected-range-x0.98", "proof step corrected to |f| <= 0.98 sqrt2 R: (r^h + r^x)/(sqrt2 R) -> 1 as "
               "r^h = r^x -> infinity (0.9998 at 50): rejected at r^h = r^x = 50",
               replace(_P26_STATEMENT, range_coef_sq=Fraction(2) * Fraction(98, 100) ** 2, range_power=1),
               near_boundary=True, part="lemma42_range", origin="second-reader"),
        Mutant("lipschitz-x0.99", "f is 0.99 * 2R-Lipschitz: sqrt(2 + 4 r_x^2)/(2R) -> 1 at r^h = 0, r^x -> infinity "
               "(0.9998 at r^x = 50): rejected there", replace(_P26_STATEMENT, lip_coef_sq=4 * Fraction(99, 100) ** 2),
               near_boundary=True, part="lemma42_lipschitz", origin="second-reader"),
    ],
    expect=Status.PROOF_GAP,
    severity=Severity.TYPO,
    rigor=Rigor.EXACT,
)
def check_proposition_26(st: TransitionFacts, p, ctx) -> Verdict:
    """Lemmas 23-25 and Proposition 26: the 4-layer transition with exact zeros off target.

    Statement
    ---------
    Soft threshold ST_b(z) = sigma(z - b) - sigma(-z - b) is 0 for |z| <= b and |z - ST_b(z)| <= b (exact zeros
    of Proposition 26 (2)); identity layers sigma(z) - sigma(-z) = z (Lemma 23).  Lemma 24 (lines 1483-1497):
    h + 2 x sigma(z - 1/2) is eps-approximated on |h| <= r^h, |x| <= r^x, |z| <= 1 by a ReLU net of width
    O(R^6 (log(R/eps)/eps)^3), R = sqrt(1 + (r^x)^2 + (r^h)^2); its proof: the target "is 2R-Lipschitz and
    |h + 2x sigma(z - 1/2)| <= R", then Lemma 42 (line 2428: needs |f| <= L R and L-Lipschitz on the radius-R ball).
    PROOF-GAP (second reader; was filed as an erratum): the maximum of |h + 2x sigma(z - 1/2)| on the box is
    r^h + r^x (at z = 1), which exceeds R when 2 r^h r^x > 1 (witness r^h = r^x = 1: 2 > sqrt 3; the check's first, r^h = 1/4, r^x = 9/4: 25/4 > 49/8).  That is a step
    of the proof, not the statement: Lemma 42 only needs |f| <= L R = 2R^2, and r^h + r^x <= sqrt2 R <= 2R^2
    (R >= 1), so Lemma 24's conclusion holds by the same argument (the box lies in the radius-R ball; f extends
    off the box with the same bound and Lipschitz constant by clipping).  Severity typo: a slip the rest of the
    proof does not use, silently corrected; no downstream claim changes.

    Correction
    ----------
    Lemma 24's proof: |h + 2x sigma(z - 1/2)| <= r^h + r^x <= sqrt(2) R (not <= R), which is <= L R = 2R^2 as
    Lemma 42 requires; the conclusion and constants of Lemma 24 are unchanged.

    Source
    ------
    Seed 002, Lemmas 23-25 and Proposition 26, lines 1418-1628 (Lemma 24: lines 1483-1499; Lemma 42: 2428-2440).

    Checkable form
    --------------
    Exact rationals: ST_b on a grid of rational z, b (zero region and error bound); sigma(z) - sigma(-z) = z;
    the exact box maximum of |h + 2x sigma(z - 1/2)| (attained at a vertex: r^h + r^x) against the bound, via
    squares (r^h + r^x)^2 <= range_coef_sq R^(2 range_power) (statement, Lemma 42's need: 4 R^4; proof step as
    printed: R^2; corrected step: 2 R^2), on (r^h, r^x) in {0, 1/4, ..., 4}^2 plus the points of the sharpness
    search (rounded to rationals); the Lipschitz bound sup |grad f|^2 = 2 + 4 (r^x)^2 <= lip_coef_sq R^2 likewise.

    Exactness
    ---------
    Exact (Fractions); the sharpness search runs in float64 and its points are re-checked exactly.

    Mutants
    -------
    ST-error-b/2, ST-error-x0.99: |z - ST_b(z)| = b exactly for |z| >= b.  range-x0.96-of-sharp: at
    r^h = r^x = 0.7071, (r^h + r^x)^2 = 2.0000 > 0.48 R^4 = 0.48 * 4 = 1.92.  corrected-range-x0.98: at
    r^h = r^x = 50, 100^2 = 10^4 > 2 * 0.9604 * 5001 = 9605.9.  lipschitz-x0.99: at r^h = 0, r^x = 50,
    2 + 10^4 > 4 * 0.9801 * 2501 = 9804.9.

    Notes
    -----
    Sharpness (values, not squares): a seeded multi-start L-BFGS-B search (verify.sharpness.maximize_continuous)
    over (r^h, r^x) in [0, 50]^2 per inequality part.  lemma42_range (|f| <= 2R^2): 0.3536 = 1/sqrt 8 at
    r^h = r^x = 1/sqrt 2 (exact optimum: (a + b)^2 <= 2(a^2 + b^2) and t^2/(1 + 2t^2)^2 peaks at t^2 = 1/2) - the
    bound Lemma 42 needs is loose by ~2.8x, fine since only its order enters.  Corrected step (|f| <= sqrt2 R):
    sup 1, approached as r^h = r^x -> infinity (0.9998 at 50).  lemma42_lipschitz: sup 1 as r^x -> infinity
    (0.9998 at r^x = 50).  st_error: exactly 1.
    """
    ev = Evidence("le", rigor=Rigor.EXACT)

    def r(v):
        return max(v, Fraction(0))

    for bn in (1, 2, 5):
        b = Fraction(bn, 4)
        for zn in range(-16, 17):
            z = Fraction(zn, 4)
            stz = r(z - b) - r(-z - b)
            if abs(z) <= b:
                ev.add({"b": b, "z": z, "part": "st_zero"}, stz, 0, relation="eq")
            ev.add({"b": b, "z": z}, abs(z - stz), st.st_factor * b, part="st_error")
            ev.add({"z": z, "part": "identity"}, r(z) - r(-z), z, relation="eq")

    for rh, rx, R2, box_max in _p26_points(st.range_power, ctx.seed("sharpness")):
        case = {"r_h": rh, "r_x": rx}
        rhs = st.range_coef_sq * R2**st.range_power
        ev.add(case, box_max**2, rhs, part="lemma42_range")
        ev.sharpness(case, sqrt(float(box_max**2 / rhs)), part="lemma42_range")
        lip_rhs = st.lip_coef_sq * R2
        ev.add(case, 2 + 4 * rx**2, lip_rhs, part="lemma42_lipschitz")
        ev.sharpness(case, sqrt(float((2 + 4 * rx**2) / lip_rhs)), part="lemma42_lipschitz")
    return ev.verdict()
