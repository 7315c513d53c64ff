"""Cost tables of verify.costs, second half: the estimates of the issue-19 audit of seed000/001/003 (part A),
thesis ch. 6-8 (part C) and seed002, and :data:`SAFE` (claims whose whole declared domain is cheap).  The first
half is in verify.cost_tables; verify.costs merges the two.
"""

from __future__ import annotations

import math

from .cost_model import F8, E, Estimate, _ints, _parts_work, cube
from .cost_tables import ALL_VALUES_TESTED, SAFE_BY_READING, WITHIN_TESTED


# ---- issue 19 audit, part A: seed000, seed001, seed003 ----
KIB, MIB = 1024.0, 2.0**20


def _words(d: int) -> int:
    """64-bit words of a packed GF(2) row of d bits."""
    return -(-max(int(d), 1) // 64)


def _floats(text: str) -> list[float]:
    """The numbers of a comma-separated list parameter (``'0.3,0.003'``); unparsable items are skipped."""
    out = []
    for item in str(text).split(","):
        try:
            out.append(float(item))
        except ValueError:
            continue
    return out or [1.0]


def _pairs(text: str) -> list[tuple[int, int]]:
    """The (d, m) items of a ``'5:5,8:12'`` list parameter."""
    out = []
    for item in str(text).split(","):
        try:
            d, m = (int(v) for v in item.split(":"))
        except ValueError:
            continue
        out.append((d, m))
    return out or [(1, 1)]


def _parts(*terms):
    """work(params) of a check made of independent parts, with each part's value at the full tier given
    (``terms``: (function of the params, its value at the full tier)): the largest of the parts' ratios, the
    same upper bound as :func:`_parts_work` (which reads the reference values from the recorded run).  A part
    with a zero count in one parameter then no longer zeroes the others, as a product of laws would."""
    return lambda p: max(f(p) / full for f, full in terms)


def _tm_row(T: int) -> float:
    """One cached Appendix-C run (seed000 turing.run_all) of a machine drawn with horizon up to T (T / 2 on average):
    keep_layers stores up to 3 D-vectors per layer and step (numpy headers included), gaps 2 tuples per layer and
    step; the compiled weights as kernels.constructions.tm_transformer.compile_transformer bounds them (w + 4 layers of 6 D x D
    matrices); D = |Z| + 4|A| + 5 w + 5 <= 27 + 5 w for |Z| <= 6, |A| <= 4, w = bits of T."""
    w = max(int(T), 1).bit_length()
    D, L = 27 + 5 * w, w + 4
    return T / 2 * L * (24 * D + 900) + L * 48 * D * D + 40 * T


def _tm(kwargs_sets: int) -> Estimate:
    """seed000.turing claims: run_all caches (machines + 4) compiled runs per distinct compiler kwargs (the printed
    statement's and its mutants'), never freed within the process; each run is T decoder steps over w + 4
    layers attending over up to T cached keys (T^2 (w+4) D^2 work; i_prime is a T^2 Python scan)."""
    def work(p):
        w = max(int(p["T_max"]), 1).bit_length()
        return (p["machines"] + 4) * p["T_max"] * (p["T_max"] + p["m_max"]) * (w + 4) * (27 + 5 * w) ** 2
    return E(lambda p: kwargs_sets * (p["machines"] + 4) * (_tm_row(p["T_max"]) + 8 * p["m_max"] * (27 + 5 * p["T_max"].bit_length())),
             f"{kwargs_sets} cached sets (printed and mutant compiler kwargs) of (machines + 4) runs, each T_max steps x "
             "(w + 4) layers of kept D-vectors plus the compiled D x D weights (tracemalloc: 112 MiB against 293 at the "
             "full tier, 29 against 44 at machines = 4, T_max = 64, mutants included)",
             work=work, work_params=("machines", "T_max", "m_max"))


#: memory per interpolation interval H of one executed ICGD block (kernels.constructions.gd_transformer: (pairs x H) ReLU
#: heads of q x D query/key matrices and their (T x T) scores) for the small instances of seed001 (N <= 3, K <= 3,
#: n <= 8): measured 29 KiB (lemma_6_s_error, H = 1024) and 52 KiB (appendix_h_score, n = 16, H = 2048)
_ICGD_PER_H = 64 * KIB
_ICGD_NOTE = "(pairs x H) ReLU attention heads of one ICGD block, 64 KiB per interval (measured 29-52 KiB)"


def _icgd_grid(fixed: int) -> Estimate:
    """seed001 construction claims over an ``H_grid``: ``fixed`` fixed cases plus ``instances`` random ones, each
    run at every H of the grid (one block's heads alive at a time)."""
    return E(lambda p: _ICGD_PER_H * max(_ints(p["H_grid"])), _ICGD_NOTE + ", at the largest H of H_grid",
             work=lambda p: (p["instances"] + fixed) * sum(_ints(p["H_grid"])), work_params=("H_grid", "instances"))


def _eps_search_cost(eps: float) -> float:
    """_search_H doubles H from 4 until the corrected bound (~ (R/H)^2) is <= eps, up to 4096: cost ~ 2 H_needed,
    H_needed ~ 1/sqrt(eps) (the constant taken small, so that the cap is reached late: conservative ratios)."""
    return min(8192.0, 4.0 + 2.0 / math.sqrt(max(abs(eps), 1e-300)))



def _icl_train(p, L: int) -> float:
    """Work of one kernels.training.icl_regression pre-training run: steps x batch x L x (T D^2 + T^2 D)."""
    T, D = 2 * p["K_test"] - 1, p["width"]
    return p["steps"] * p["batch"] * L * (T * D * D + T * T * D + D * D)


def _icl_fig(depth: bool = False) -> Estimate:
    """seed001.figure_1/2 (target depths (3, 4, 6) up to max_target_depth, 4 test mixtures, the baseline: base_prompts x
    (K_test - 1) networks of the target's width trained 100 epochs on up to K_test pairs) and figure_3 (depths (1, 2, 4)
    or (4, 6, 8, 10) up to max_layers, two attentions).  Memory: the training caches (batch x heads x T^2 and
    batch x T x D per block, ~20 arrays) and the test prompts' forward pass in chunks of 256."""
    def depths(p):
        return [L for L in ((1, 2, 4) if p["max_layers"] <= 4 else (4, 6, 8, 10)) if L <= p["max_layers"]]

    def memory(p):
        T, D, L = 2 * p["K_test"] - 1, p["width"], (p["max_layers"] if depth else p["layers"])
        per_seq = L * (4 * p["heads"] * T * T + 20 * T * D) * F8
        return (p["batch"] + 256) * per_seq + 4 * p["prompts"] * p["K_test"] * (p["d"] + 1) * F8 + 64 * D * D * L * F8 + MIB

    if depth:
        def work(p):
            return 2 * sum(_icl_train(p, L) for L in depths(p)) + p["prompts"] * sum(depths(p)) * p["K_test"] ** 2 * p["width"] ** 2
        params = ("steps", "batch", "K_test", "width", "max_layers", "prompts")
        free = ("heads", "d", "K", "target_width")
    else:
        def work(p):
            Ns = [N for N in (3, 4, 6) if N <= p["max_target_depth"]]
            base = p["base_prompts"] * p["K_test"] ** 2 / 2 * p["target_width"] ** 2 * 100 * sum(Ns)
            evals = 4 * p["prompts"] * p["layers"] * p["K_test"] ** 2 * p["width"] ** 2 * len(Ns)
            return len(Ns) * _icl_train(p, p["layers"]) + base + evals
        params = ("steps", "batch", "K_test", "width", "layers", "max_target_depth", "prompts", "base_prompts", "target_width")
        free = ("heads", "d", "K")
    return E(memory, "numpy transformer trainer (kernels.training.icl_regression): caches of one batch and of one "
             "256-prompt test chunk; heads, d and K change the work by small factors only", free=free,
             memory_params=("heads",), work=work, work_params=params)


ESTIMATES: dict[str, Estimate] = {
    # ---- seed000: toy margins (sm_approximation/toy.py) ----
    # min_flip_radius over d + 4 starts x 7 d parameters (the round-parameter mutant), a Python loop over d layers
    # per margin evaluation, for d = 1, 2, 4, ..., d_max; exact corners only up to d = 8
    "seed000.claim_3.5": E(lambda p: 12 * F8 * (p["d_max"] + 4) * 7 * p["d_max"] + MIB,
                           "(d + 4, 7 d) attack buffers (6 copies) and the reverse-mode tape over d layers",
                           {"d_max": "cubic"}),
    "seed000.toy_product_margin": E(lambda p: 20 * 2 * F8 * p["d_max"] + MIB,
                                    "(2, d) attack buffers and cumulative products", {"d_max": "quad"}),
    # ---- seed000: the Appendix-C transformer (sm_approximation/turing.py) ----
    "seed000.claim_C.4": _tm(2), "seed000.claim_C.5": _tm(2), "seed000.claim_C.6": _tm(2),
    "seed000.lemma_C.1": _tm(2), "seed000.lemma_C.2": _tm(2), "seed000.lemma_C.3": _tm(4),
    "seed000.lemma_C.7": _tm(2), "seed000.lemma_C.8": _tm(2), "seed000.proof_4.1_assembly": _tm(2),
    "seed000.setup_C.1": _tm(3), "seed000.theorem_4.1": _tm(3),
    # ---- seed000: circuits (sm_approximation/circuits.py, bounds.py, margin_d6.py) ----
    # random_circuits(count, fixed small m, q, r) builds the list of circuits, then one loop over it (exact
    # Fraction nets of at most a few hundred entries each)
    "seed000.classes_G_F": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits (m <= 6, q <= 8, r <= 6)",
                             {"circuits": "lin"}),
    "seed000.cond_D.3_D.4": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits (m <= 4, q <= 5, r <= 5)",
                              {"circuits": "lin"}),
    "seed000.def_2.1": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits (m <= 5, q <= 5, r <= 4)",
                         {"circuits": "lin"}),
    "seed000.lemma_2.4": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits (m <= 4, q <= 5, r <= 4)",
                           {"circuits": "lin"}),
    # a Python loop of `samples` single round blocks, then the circuit loop
    "seed000.def_D.1": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits; the samples loop keeps nothing",
                         work=_parts((lambda p: p["samples"], 1000), (lambda p: p["circuits"], 30)),
                         work_params=("samples", "circuits")),
    # _nice_samples: circuits x blocks x samples perturbations; _adversarial_nice: restarts of a fixed search
    "seed000.def_D.2": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits and one row per block",
                         work=_parts((lambda p: p["circuits"] * p["samples"], 20 * 150), (lambda p: p["restarts"], 8)),
                         work_params=("circuits", "samples", "restarts")),
    # _instances keeps (circuit, exact net, X, constants) for 2 ID chains + circuits random ones (m <= 3, q <= 5, r <= 3)
    "seed000.lemma_D.9": E(lambda p: 64 * KIB * (p["circuits"] + 2), "(circuits + 2) compiled exact nets and their constants",
                           work=lambda p: p["circuits"] + 2, work_params=("circuits",)),
    "seed000.lemma_D.7": E(lambda p: 64 * KIB * (p["circuits"] + 2), "(circuits + 2) compiled exact nets; one perturbation at a time",
                           work=lambda p: (p["circuits"] + 2) * p["perturbations"], work_params=("circuits", "perturbations")),
    "seed000.lemma_D.8": E(lambda p: 64 * KIB * (p["circuits"] + 2), "(circuits + 2) compiled exact nets; one perturbation at a time",
                           work=lambda p: (p["circuits"] + 2) * p["perturbations"], work_params=("circuits", "perturbations")),
    # D (perturbations, p <= 400 parameters) float64 directions, its sum with theta and batched_forward's activations
    "seed000.theorem_D.6": E(lambda p: 64 * KIB * (p["circuits"] + 2) + 2 * F8 * 240 * p["perturbations"],
                             "(perturbations, p <= 240) float64 directions, 2 copies (measured 29 MiB against 74 at 20000); (circuits + 2) compiled nets",
                             work=lambda p: (p["circuits"] + 2) * (p["perturbations"] + 1000),
                             work_params=("circuits", "perturbations")),
    # th, xt, th2, al, rho: (cases, dim + 1) float64; a Python loop of two attacks per case
    "seed000.eq_2.1": E(lambda p: 6 * F8 * p["cases"] * (p["dim"] + 2), "(cases, dim + 1) float64 parameters and inputs, 6 copies",
                        {"cases": "lin", "dim": "lin"}),
    # 3 grid + 1 Fractions, four times
    "seed000.eq_2.2": E(lambda p: 3 * 200.0 * p["grid"], "3 grid + 1 Fractions", {"grid": "lin"}),
    # zs: 3 grid + 1 Fractions through an exact (object) round block, a few Fractions per row
    "seed000.prop_3.4": E(lambda p: 3 * 800.0 * p["grid"], "(3 grid + 1) rows of Fractions through an exact round block",
                          {"grid": "lin"}),
    # per circuit (m <= m_max, q <= q_max, widths <= r_max): exact (object) activations of every layer on {0,1}^n_in
    "seed000.lemma_B.1": E(lambda p: 100.0 * 2.0 ** max(p["m_max"], p["r_max"]) * (4 * p["r_max"] + p["m_max"] + 4)
                           + 200.0 * p["circuits"] * p["q_max"] * p["r_max"],
                           "exact (object) layer activations over {0,1}^max(m, r); the list of circuits",
                           {"circuits": "lin", "m_max": "exp2", "q_max": "lin", "r_max": "quad"}),
    # depth_sweep: min_flip_radius over 8 inputs x restarts rows of p ~ 3 q r^2 parameters (6 buffers)
    "seed000.lemma_3.3": E(lambda p: 6 * F8 * 8 * p["restarts"] * 3 * p["q_max"] * (p["random_r"] + 1) ** 2 + MIB,
                           "(8 restarts, p ~ 3 q (r + 1)^2) attack buffers, 6 copies (p measured 21k-35k at q = 129-200, r = 8)",
                           {"q_max": "quad", "random_r": "quad", "restarts": "lin", "steps": "lin"}),
    # width-2 circuits of depth q = 2, 3, 5, 9, ..., q_max: exact nets of ~ 4 q small layers
    "seed000.text_norm_vc": E(lambda p: 2e4 * p["q_max"], "exact nets of depth ~ 2 q (small layers)", {"q_max": "quad"}),
    # circuits (fixed sizes), ID chains up to q_max, fan-out circuits up to width r_max (r x r exact matrices)
    "seed000.theorem_3.1": E(lambda p: 16 * KIB * p["circuits"] + 2e4 * p["q_max"] + 1000.0 * p["r_max"] ** 2,
                             "exact (Fraction) r x r fan-out layers, ID chains of depth q, the list of circuits",
                             {"circuits": "lin", "q_max": "quad", "r_max": "cubic"}),
    # ---- seed001 (icl_deep_gd) ----
    "seed001.appendix_g_experiments": E(lambda p: _ICGD_PER_H * p["H"], _ICGD_NOTE, {"prompts": "lin", "blocks": "lin", "H": "lin"}),
    # Figures 1-3 (verify/icl_deep_gd/figures.py): numpy transformer training, the prompt-trained baseline, evaluation
    "seed001.figure_1": _icl_fig(),
    "seed001.figure_2": _icl_fig(),
    "seed001.figure_3": _icl_fig(depth=True),
    # one block on a prompt of n examples: heads ~ H, scores (heads, n + 1, n + 1)
    "seed001.appendix_h_score": E(lambda p: p["H"] * (30 * KIB + 200.0 * (p["n"] + 1) ** 2),
                                  "(pairs x H) ReLU heads and their (n + 1)^2 scores (measured 107 MiB at n = 16, H = 2048)",
                                  {"n": "quad", "H": "lin"}),
    "seed001.corollary_1_1_trajectory": E(lambda p: _ICGD_PER_H * p["H"], _ICGD_NOTE, {"blocks": "lin", "H": "lin"}),
    "seed001.lemma_6_s_error": E(lambda p: _ICGD_PER_H * p["H"], _ICGD_NOTE + " (measured 30 MiB at H = 1024)",
                                 work=lambda p: (p["instances"] + 1) * p["H"], work_params=("instances", "H")),
    "seed001.problem_2_spec": E(lambda p: _ICGD_PER_H * p["H"], _ICGD_NOTE,
                                {"blocks": "lin", "instances": "lin", "H": "lin"}),
    "seed001.lemma_2_forward": _icgd_grid(3),
    "seed001.lemma_3_derivative": _icgd_grid(3),
    "seed001.lemma_4_loss_mlp": _icgd_grid(3),
    "seed001.theorem_1_construction": _icgd_grid(3),
    # per (instance, eps): a search over H = 4, 8, ..., at most 4096 (its cap), one block alive at a time
    "seed001.theorem_2_informal": E(lambda p: _ICGD_PER_H * 4096, _ICGD_NOTE + ", H at most 4096 (the search's cap)",
                                    work=lambda p: p["instances"] * sum(_eps_search_cost(e) for e in _floats(p["eps_grid"])),
                                    work_params=("eps_grid", "instances")),
    # _matrix_vs_token_form: a loop over instances of fixed small sizes
    "seed001.def_6_ewml": E(lambda p: MIB, "one instance of fixed small size at a time", {"instances": "lin"}),
    "seed001.def_7_relu_attention": E(lambda p: MIB, "one instance of fixed small size at a time", {"instances": "lin"}),
    # 1-D trajectories of `steps` steps; `functions` D-dimensional trajectories of L steps (D small)
    "seed001.lemma_14_inexact_pgd": E(lambda p: 1 * KIB * (p["L"] + p["steps"]), "trajectories of L and steps points (small D)",
                                      work=_parts((lambda p: p["steps"], 50), (lambda p: (p["functions"] + 1) * p["L"], 13 * 200)),
                                      work_params=("steps", "L", "functions")),
    # networks with N <= 8 layers of width <= 6 (counts), sympy / finite differences on N <= max_N, K, d <= 3
    "seed001.lemma_15_dims": E(lambda p: 16 * MIB, "small networks only (N <= 8, widths <= 6); sympy expressions",
                               {"max_N": "quad", "max_width": "cubic", "exact_instances": "lin", "float_instances": "lin"}),
    "seed001.lemma_1_gradient": E(lambda p: 16 * MIB, "small networks only (N <= 8, widths <= 3); sympy expressions",
                                  {"max_N": "quad", "exact_instances": "lin", "float_instances": "lin"}),
    # pl_interpolant(H) evaluated on H * grid_per_interval points: a (points, H) pre-activation matrix, 2 copies
    "seed001.lemma_7_relu_sums": E(lambda p: 2 * F8 * max(_ints(p["H_grid"])) ** 2 * p["grid_per_interval"] + MIB,
                                   "(H grid_per_interval, H) float64 ReLU pre-activations, 2 copies",
                                   work=_parts((lambda p: sum(h * h for h in _ints(p["H_grid"])) * p["grid_per_interval"],
                                                (16 + 256 + 4096 + 65536 + 262144) * 32),
                                               (lambda p: (p["restarts"] + 1) * p["maxiter"], 13 * 60)),
                                   work_params=("H_grid", "grid_per_interval", "restarts", "maxiter")),
    # ---- seed003 (rcnn) ----
    # closed-form big-integer comparisons over k x d x (log2 1/eps, log2 1/delta) x 3 sample sizes
    "seed003.claim_2": E(lambda p: 2 * KIB * len(_ints(p["d_list"])) + MIB, "the d_list values; comparisons of big integers",
                         work=lambda p: p["k_max"] ** 2 * p["log2_inv_max"] ** 2
                         * sum(1 + math.log2(max(d, 2)) / 64 for d in _ints(p["d_list"])),
                         work_params=("k_max", "d_list", "log2_inv_max")),
    # k x dm^2 x log2_inv^2 x (4 + random_M) cases of exact integer arithmetic (integers of ~ 3k log2(4 dm) bits)
    "seed003.observation_1": E(lambda p: MIB, "one case at a time (Evidence keeps aggregates)",
                               work=lambda p: p["k_max"] ** 2 * p["dm_max"] ** 2 * (1 + math.log2(p["dm_max"]))
                               * p["log2_inv_max"] ** 2 * (4 + p["random_M"]),
                               work_params=("k_max", "dm_max", "log2_inv_max", "random_M")),
    # Ms: 3 s_max restart counts s^(c2 s^2) ln(2/delta) (c2 s^2 log2 s bits each) per constant; simulation in
    # chunks of 1000 x M <= 48 uniforms
    "seed003.corollary_2": E(lambda p: 3 * max(_ints(p["c2_list"])) * p["s_max"] ** 3 * math.log2(max(p["s_max"], 2)) / 8
                             + 1000 * 48 * 9.0,
                             "3 s_max big integers s^(c2 s^2) of up to c2 s^2 log2 s bits; (1000, M <= 48) uniforms",
                             work=_parts((lambda p: sum(_ints(p["c2_list"])) * p["s_max"] ** 4 * max(p["c_max"], 1), 6 * 40**4 * 32),
                                         (lambda p: p["trials"], 40000)),
                             work_params=("s_max", "c_max", "c2_list", "trials")),
    # per n <= n_max: weight-value sets of O(n) Fractions; `built` interpolants of <= 6 points
    "seed003.corollary_3": E(lambda p: 20 * KIB * p["n_max"], "weight-value sets of O(n_max) Fractions",
                             work=_parts((lambda p: p["n_max"] ** 2, 300**2), (lambda p: p["built"], 20)),
                             work_params=("n_max", "built")),
    # per s <= s_max: value closure (~ 24 s values), reachable_values (runs spec runs of depth ~ 4 s); all-codes
    # domain 3^(N + 1) ~ s^1.6 Fractions for s <= s_built
    "seed003.corollary_3.U_s": E(lambda p: 2000.0 * 3 ** ((p["s_built"] - 1).bit_length() + 5) + 100 * KIB * p["s_max"],
                                 "3^(N + 1) Fractions of the all-codes domain at s_built; value closures of O(s) values",
                                 work=_parts((lambda p: p["s_max"] ** 3, 64**3), (lambda p: p["runs"] * p["s_max"] ** 3, 4 * 64**3),
                                             (lambda p: p["s_built"] ** 3, 4**3)),
                                 work_params=("s_max", "runs", "s_built")),
    # 3^(N + 1) codes as Fractions (a dict of tuples) for N <= N_exhaustive; reachable values for s <= s_max
    "seed003.data_representation": E(lambda p: 400.0 * 3 ** (p["N_exhaustive"] + 1) + 100 * KIB * p["s_max"],
                                     "3^(N + 1) codes (Fraction -> digit tuple dict)",
                                     work=_parts((lambda p: 3.0 ** p["N_exhaustive"], 3.0**8),
                                                 (lambda p: p["runs"] * p["s_max"] ** 3, 6 * 8**3)),
                                     work_params=("runs", "s_max", "N_exhaustive")),
    # per d of d_list and m in {d, d + 10, 2d}: (instances, m) packed GF(2) rows, the elimination's copy
    "seed003.definition_3": E(lambda p: 4 * F8 * p["instances"] * 2 * max(_ints(p["d_list"])) * _words(max(_ints(p["d_list"])) + 1),
                              "(instances, 2 d) packed GF(2) rows at the largest d, 4 copies",
                              work=lambda p: p["instances"] * sum(4 * d * d * _words(d + 1) for d in _ints(p["d_list"])),
                              work_params=("d_list", "instances")),
    # Algorithm 1 run exactly on m <= m_max examples in dimension d <= d_max for every (m, d), datasets times
    "seed003.definition_5": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1), "one (m + 1) x (d + 1 + l) exact run at a time",
                              {"datasets": "lin", "m_max": "quartic", "d_max": "cubic"}),
    "seed003.lemma_1": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1), "one (m + 1) x (d + 1 + l) exact run at a time",
                         {"datasets": "lin", "m_max": "quartic", "d_max": "cubic"}),
    "seed003.lemma_2": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1), "one (m + 1) x (d + 1 + l) exact run at a time",
                         {"datasets": "lin", "m_max": "quartic", "d_max": "cubic"}),
    "seed003.lemma_4": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1), "one (m + 1) x (d + 1 + l) exact run at a time",
                         {"datasets": "lin", "m_max": "quartic", "d_max": "cubic"}),
    # end to end per (m, d, dataset): Algorithm 1 at depth L ~ t = 21 + 9(m-1) + 5(d-1) + 2(m-1)(d-1), then 2^d
    # roll-outs (measured: 0.4-3 s per (m, d) at m <= 5, d <= 3, growing ~ m^2 d)
    "seed003.computation_phase": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1),
                                   "the kept roll-out grids of one run, L x (m + 1) x (d + 1 + L)",
                                   {"datasets": "lin", "m_max": "cubic", "d_max": "nexp2"}),
    "seed003.lemma_2.computation": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1),
                                     "the kept roll-out grids of one run, L x (m + 1) x (d + 1 + L)",
                                     {"datasets": "lin", "m_max": "cubic", "d_max": "nexp2"}),
    # datasets x (m, d) exact runs, machines fixed-size simulations, boundary flags: 2^d simulations per (m, d)
    "seed003.definition_6": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1), "one exact run or simulation at a time",
                              work=_parts((lambda p: p["datasets"] * p["m_max"] ** 4 * p["d_max"] ** 3, 6 * 4**4 * 3**3),
                                          (lambda p: p["machines"], 200),
                                          (lambda p: p["m_max"] ** 3 * p["d_max"] * 2 ** p["d_max"], 4**3 * 3 * 8)),
                              work_params=("datasets", "machines", "m_max", "d_max")),
    # for ~ 20 values s <= s_max: 2 x 3^(N - 3) codes through f (N ~ log2 s digits: ~ s^1.6); grids loop
    "seed003.head_spec": E(lambda p: MIB, "a few Fractions per s (40 kept points)", {"s_max": "quad", "grids": "lin"}),
    # per machine (and per oracle machine, <= 6 reference conv layers): an l-layer comparison on an
    # (m + 1) x (d + 1 + l) grid, s-state case lists
    "seed003.layer_spec": E(lambda p: 2 * F8 * p["l_max"] * (p["m_max"] + 1) * (p["d_max"] + 1 + p["l_max"]) + MIB,
                            "per-layer records of one (m + 1) x (d + 1 + l) grid run",
                            work=lambda p: (p["machines"] + p["oracle"]) * p["l_max"] ** 2 * (p["m_max"] + 1) * (p["d_max"] + 1)
                            * p["s_max"], work_params=("machines", "oracle", "s_max", "m_max", "d_max", "l_max")),
    # patterns: up to `patterns` sign tuples of (tau - 1)(d + 1) <= m (d + 1) entries; the full Jacobian is
    # (cells x cells) for grids of at most jacobian_cells cells
    "seed003.lemma_3": E(lambda p: 400.0 * p["patterns"] + 2 * F8 * p["jacobian_cells"] ** 2 + MIB,
                         "the list of sign patterns; a (cells, cells) float64 Jacobian",
                         work=_parts((lambda p: p["patterns"] * p["m_max"] ** 4 * p["d_max"] ** 3, 128 * 5**4 * 4**3),
                                     (lambda p: p["jacobian_cells"] ** 2 * p["m_max"] * p["d_max"], 60**2 * 5 * 4)),
                         work_params=("m_max", "d_max", "patterns", "jacobian_cells")),
    # instances exact interpolants of n <= n_max points in d_in -> d_out; one of `patches` 3x3 patches (d_in = 9)
    "seed003.lemma_5": E(lambda p: 20 * KIB * (p["n_max"] * p["d_in_max"] * p["d_out_max"] + 9 * p["patches"]) + MIB,
                         "exact (Fraction) interpolant of the largest instance: O(n d_in d_out) weights",
                         work=_parts((lambda p: p["instances"] * p["n_max"] ** 3 * p["d_in_max"] ** 2 * p["d_out_max"],
                                      80 * 14**3 * 4**2 * 3),
                                     (lambda p: p["patches"] ** 3, 24**3)),
                         work_params=("instances", "n_max", "d_in_max", "d_out_max", "patches")),
    "seed003.lemma_6": E(lambda p: 20 * KIB * 6 * p["n_max"] + MIB, "exact interpolant of n_max points (d_in <= 3)",
                         {"domains": "lin", "draws": "lin", "n_max": "cubic"}),
    # closed forms for s = 1 .. s_max, one at a time
    "seed003.parameter_count": E(lambda p: MIB, "closed forms per s, nothing kept", {"s_max": "lin"}),
    # family: one (d + k) x words matrix per d; random: (T, d + k) packed rows with T = instances (or
    # instances * 256 / d above d = 256), elimination cost rows x pivots x words
    "seed003.gaussian_elimination.runtime": E(
        lambda p: max(4 * F8 * (max(2, p["instances"] * 256 // d) if d > 256 else p["instances"]) * (d + p["extra"]) * _words(d + 1)
                      for d in _ints(p["random_dims"]) + [1])
        + max(4 * F8 * (d + p["extra"]) * _words(d + 1) for d in _ints(p["family_dims"])),
        "(instances, d + extra) packed GF(2) rows at the worst d, 4 copies",
        work=lambda p: sum((d + p["extra"]) * d * _words(d + 1) for d in _ints(p["family_dims"]))
        + sum((max(2, p["instances"] * 256 // d) if d > 256 else p["instances"]) * (d + p["extra"]) * d * _words(d + 1)
              for d in _ints(p["random_dims"])),
        work_params=("family_dims", "random_dims", "instances", "extra")),
    # (replaces the entry above: rank_cases adds (trials, m) packed rows per (d, m) and an exact rank distribution)
    "seed003.gaussian_elimination.samples": E(
        lambda p: p["trials"] * max([max(_ints(p["dims"])) + max(_ints(p["log2_inv_delta"]))] + [m for _, m in _pairs(p["rank_cases"])])
        * (4 * F8 * _words(max([max(_ints(p["dims"]))] + [d for d, _ in _pairs(p["rank_cases"])]) + 1) + 2),
        "(trials, m) packed GF(2) rows, 4 copies, at the largest d + log2(1/delta) or rank case (measured 256 MiB against "
        "260 at trials = 20000, d = 128)",
        {"trials": "lin", "exact_d_max": "quad"}, free=("alpha",),
        work=lambda p: sum((d + j) * d * _words(d + 1) for d in _ints(p["dims"]) for j in _ints(p["log2_inv_delta"]))
        + sum(m * d * _words(d + 1) + d * m for d, m in _pairs(p["rank_cases"])),
        work_params=("dims", "log2_inv_delta", "rank_cases")),
    # was SAFE (within the tested domain, full tier under a second): its full tier takes 0.7-1.1 s, so it gets a
    # time law instead of a threshold it sits on
    "thesis_ch5.random_search.closed_form": E(
        lambda p: 2.0**20, "exact rationals over a 40-point width grid up to r_max and the Fig. B.10 grid: memory "
        "independent of r_max (a constant 1 MiB)", {"r_max": "lin"}),
}

#: claims with parameters whose whole declared domain is cheap (the reason says why); no default rule
SAFE: dict[str, str] = {
    **SAFE_BY_READING,
    "seed001.def_1_param_count": WITHIN_TESTED,
    "seed001.lemma_17_contextual_mapping": WITHIN_TESTED,
    "seed003.theorem_1": WITHIN_TESTED,
    "thesis_ch4.lemma_A.10": WITHIN_TESTED,
    "thesis_ch5.constructions.k_zigzag": WITHIN_TESTED,
    "thesis_ch5.constructions.mlp_power_width": WITHIN_TESTED,
    "thesis_ch5.constructions.oscillating_polynomial": WITHIN_TESTED,
    "thesis_ch6.lemma_C.15": WITHIN_TESTED,
    "thesis_ch6.theorem_C.11.width": WITHIN_TESTED,
    "thesis_ch6.theorem_C.16.one_step": WITHIN_TESTED,
    "thesis_ch7.all_irreps_used": ALL_VALUES_TESTED,
    "thesis_ch7.destructive_interference": WITHIN_TESTED,
    "thesis_ch7.general_group_theorem": WITHIN_TESTED,
    "thesis_ch7.group_game": WITHIN_TESTED,
    "thesis_ch7.lemma_D14": ALL_VALUES_TESTED,
    "thesis_ch7.lemma_D15": ALL_VALUES_TESTED,
    "thesis_ch7.lemma_D16": ALL_VALUES_TESTED,
    "thesis_ch7.parity_width_necessary": WITHIN_TESTED,
    "thesis_ch7.representation_background": ALL_VALUES_TESTED,
    "thesis_ch7.theorem_7_1_training": ALL_VALUES_TESTED,
    "thesis_ch8.sec_8_3_2_corollaries": WITHIN_TESTED,
}


# ---- issue 19 audit, part C: thesis_ch6, thesis_ch7, thesis_ch8 ----
def _k2_exact_bytes(t: int) -> float:
    """kernels.sequence.markov_icl.k2_exact_losses(t): (classes / 4, nodes) float64 weights, built in place, two alive
    at once (a group's new weights while the previous group's are still referenced), with ~t^2 run classes and
    2 max(t/2 + 12, 48)^2 quadrature nodes (measured 29 / 135 MiB at t = 40 / 80 against 28 / 132 MiB modelled;
    43 / 201 / 859 MiB at t = 40 / 80 / 120 before the weights were built in place): 2/3 t^4 bytes, 57 GB at the
    kernel's t = 400."""
    n = max(int(t) // 2 + 12, 48)
    return 2 * F8 * (float(t) ** 2 / 4) * 2 * n * n


def _items(text) -> list[int]:
    return [int(v) for v in _ints(text)]


_SMALL = 64.0 * 2**20  # no parameter-driven array beyond a few MiB
_CH8_EXPECTED_T = "expected_T(t): t_tensor over ~t^2/2 quadrature nodes, chunked to 400000 node-positions (bounded memory), time ~ t^3"

ESTIMATES.update({
    # ---- thesis_ch6 ----
    # pareto_grid: train_two_layer for 2 inits x 4 widths x len(m_grid) sizes, seeds runs at once, steps SGD steps each
    # (data from the counter stream, no training set in memory); (seeds, P <= 128 x 22) parameter arrays
    "thesis_ch6.data_time_tradeoff": E(
        lambda p: F8 * p["seeds"] * 8 * 3000 + _SMALL, "(seeds, P) parameters and optimiser state of the width <= 128 nets",
        work=lambda p: p["seeds"] * p["steps"] * len(_items(p["m_grid"])), work_params=("seeds", "steps", "m_grid")),
    "thesis_ch6.pareto_frontier_experiment": E(
        lambda p: F8 * p["seeds"] * 8 * 3000 + _SMALL,
        "(seeds, P) parameters of the width <= 128 nets (the grid is cached from data_time_tradeoff: its recorded "
        "seconds are a cache hit, so the time scale is optimistic when run alone)",
        work=lambda p: p["seeds"] * p["steps"] * len(_items(p["m_grid"])), work_params=("seeds", "steps", "m_grid")),
    # rng.integers(0, C, size=(inits, r)) with r <= 360 and its comparison
    "thesis_ch6.exact_sparsity_remark": E(lambda p: 2 * F8 * p["inits"] * 400, "(inits, r <= 360) int64 draws and a bool copy",
                                          {"inits": "lin"}),
    # tanh_mlp_tables at width 3: D (3 (n + 2), 2^n) and the (2^n, 3, n) product, one WHT per row of D
    "thesis_ch6.lemma_C.1": E(lambda p: F8 * 2.0 ** p["n_max"] * (4 * 3 * (p["n_max"] + 2) + p["n_max"]),
                              "(3 (n + 2), 2^n) derivative tables and their (2^n, 3, n) product, sign_vectors(n)",
                              {"models": "lin"}, work=lambda p: (p["n_max"] + 2) * p["n_max"] * 2.0 ** p["n_max"],
                              work_params=("n_max",)),
    # WHT of Half_2m over 2^(2m) points (popcounts, table, transform, masks); exact Krawtchouk spectra up to m_max
    # (O(m^2) Fractions of O(m) bits per m: ~ m_max^4)
    "thesis_ch6.lemma_C.12": E(lambda p: 4 * F8 * 4.0 ** p["m_wht"] + 200.0 * p["m_max"] ** 2,
                               "popcounts, table and WHT over 2^(2 m_wht); (2m + 1)^2 Krawtchouk Fractions",
                               {"m_wht": "exp4", "m_max": "quartic"}),
    # one exact correlation_vector (n <= 12, blocked: O(2^(n-c)) memory) per neuron and grid point
    "thesis_ch6.lemma_C.13": E(lambda p: _SMALL, "a cube of n <= 12 per neuron (blocked population gradient)", {"neurons": "lin"}),
    "thesis_ch6.lemma_C.14": E(lambda p: _SMALL, "a cube of n <= 12 per neuron (blocked population gradient)", {"neurons": "lin"}),
    # itertools.combinations over all s-subsets of [n_enum] (~2^n_enum Python tuples, streamed); Fractions of
    # binomials for all (k, n, s) up to (k_max, n_max, n_max)
    "thesis_ch6.lemma_C.2": E(lambda p: _SMALL, "streamed subsets and exact binomial Fractions (no arrays)",
                              {"n_enum": "exp2", "n_max": "cubic", "k_max": "lin"}),
    # correlation_vector on n = s + 1 .. s + n_extra <= 21 (blocked, O(2^(n-c)) memory, time n 2^n); maj_hat
    # Fractions of s-bit binomials for 19 k's and s up to s_max
    "thesis_ch6.lemma_C.3": E(lambda p: _SMALL + F8 * 2.0 ** (17 + p["n_extra"]) / 64,
                              "blocked population gradients on n <= 17 + n_extra; exact binomial Fractions",
                              {"neurons": "lin", "n_extra": "exp2", "s_max": "cubic"}),
    # per_point (2^n, r = 20, n + 1) float64 and the temporaries of its product; one (2^n) multinomial and a
    # (2^n) x 20 (n + 1) product per resample
    "thesis_ch6.lemma_C.5": E(lambda p: 3 * F8 * 2.0 ** p["n"] * 20 * (p["n"] + 1),
                              "(2^n, 20, n + 1) float64 per-point gradients, 3 copies",
                              {"resamples": "lin", "n": "nexp2"}),
    # 3 x 2^n Python Fractions (psi, dpsi, psi2) per pair
    "thesis_ch6.lemma_C.7": E(lambda p: 3 * 3 * 200.0 * 2.0 ** p["n"], "3 lists of 2^n x 3 Python Fractions",
                              {"pairs": "lin", "n": "exp2"}),
    # marg, hinge (2^n, 64) float64 recomputed per sample; psi (2^n, 3); the search is restarts x 200 closed forms
    "thesis_ch6.lemma_C.8": E(lambda p: F8 * 2.0 ** p["n"] * (3 * 64 + 12) + 3 * F8 * 64 * p["m"],
                              "(2^n, 64) margins and hinge losses per sample, (m, 64) gathers",
                              {"samples": "lin", "n": "exp2"},
                              work=_parts_work("thesis_ch6.lemma_C.8", lambda p: p["samples"] * (2.0 ** p["n"] + p["m"]),
                                               lambda p: p["restarts"] + 1),
                              work_params=("m", "restarts")),
    # train_two_layer: tickets width-100 nets, then 2 x tickets x retrains width-5 nets, steps each (k only picks
    # the parity: runs stop at convergence or at `steps`, which the law bounds)
    "thesis_ch6.lottery_ticket_experiment": E(
        lambda p: 4 * F8 * p["tickets"] * (100 + 10 * p["retrains"]) * (p["n"] + 2) + 3 * F8 * 32 * 100 * p["tickets"] + _SMALL,
        "(runs, P) parameters and optimiser state, (runs, 32, width) batch work arrays; k is free (it only "
        "picks the target parity; every run is bounded by `steps`)",
        work=lambda p: p["steps"] * p["tickets"] * (100 + 10 * p["retrains"]) * (p["n"] + 2),
        work_params=("steps", "tickets", "retrains", "n"), free=("k",)),
    # X (C(n,3), 2^n) int64 stacked from a list, its Gram matrix (C^2 2^n); the ERM part loops trials x 7
    "thesis_ch6.parity_facts": E(lambda p: 2 * F8 * math.comb(p["n_gram"], 3) * 2.0 ** p["n_gram"] + _SMALL,
                                 "(C(n,3), 2^n) int64 parity rows, 2 copies",
                                 work=_parts_work("thesis_ch6.parity_facts", lambda p: p["trials"],
                                                  lambda p: math.comb(p["n_gram"], 3) ** 2 * 2.0 ** p["n_gram"]),
                                 work_params=("trials", "n_gram")),
    # zero_target_trajectory keeps all `steps` derivative tables D_t (2 (n + 2), 2^n) float64; one WHT per row
    # (two trajectories alive at once: k = 3's is built while k = 2's is still bound; measured 211 MiB against
    # 186 modelled at n_max = 12, steps = 100)
    "thesis_ch6.proposition_6.3": E(lambda p: F8 * 2.0 ** p["n_max"] * (2 * p["steps"] * 2 * (p["n_max"] + 2) + 8 * (p["n_max"] + 2)),
                                    "2 x steps x (2 (n + 2), 2^n) float64 derivative tables kept along the trajectories",
                                    work=lambda p: p["steps"] * (p["n_max"] + 2) * p["n_max"] * 2.0 ** p["n_max"],
                                    work_params=("steps", "n_max")),
    # comb(N, v) maj_hat(N, v)^2 for 10 v's and N <= N_max (N-bit integers): ~ N_max^2 .. N_max^3
    "thesis_ch6.rho_bounds": E(lambda p: _SMALL, "exact binomials of N_max bits (no arrays)", {"N_max": "cubic"}),
    # inits initialisations per width (cached, 5 widths, sum r = 1364 neurons of 9-sparse supports, ~30 words each);
    # training: seeds (<= inits) runs x widths <= r_train x m in {m_max / 4^j}: (m, r) hidden features, readout
    # epochs <= 3000 over them
    "thesis_ch6.theorem_C.11.one_step": E(
        lambda p: F8 * p["inits"] * 1364 * 16 + 4 * F8 * p["m_max"] * p["r_train"] + 3 * F8 * 4096 * 1024,
        "cached (inits, 1364) neuron supports and weights over the 5 widths, ~16 words each (measured 400 MiB against 625 "
        "modelled at inits = 3000, seeds = 3, r_train = 16, m_max = 2000); (m_max, r_train) hidden features, 4 copies",
        work=_parts_work("thesis_ch6.theorem_C.11.one_step", lambda p: p["inits"],
                         lambda p: min(p["seeds"], p["inits"]) * p["m_max"]
                         * sum(r for r in (4, 16, 64, 256, 1024) if r <= p["r_train"])),
        work_params=("inits", "seeds", "r_train", "m_max")),
    # exhaustive correlation vectors for n <= n_exhaustive (blocked, n 2^n), closed forms (n-bit Fractions) up to n_max
    "thesis_ch6.theorem_C.16.gap_ratio": E(
        lambda p: _SMALL + F8 * 2.0 ** p["n_exhaustive"] / 64, "blocked population gradients; exact Fractions",
        work=_parts_work("thesis_ch6.theorem_C.16.gap_ratio",
                         lambda p: min(p["n_exhaustive"], p["n_max"]) * 2.0 ** min(p["n_exhaustive"], p["n_max"]),
                         lambda p: float(p["n_max"]) ** 2),
        work_params=("n_exhaustive", "n_max")),
    # truncation_success_counts: per trial one stream of m <= 36697 samples x n <= 39 (int32 and int64 cumsums);
    # n_max only filters the fixed list (13, 19, 27, 39), all of which the full tier runs
    "thesis_ch6.theorem_C.16.sample_size": E(lambda p: 4 * F8 * 36697 * 39 + _SMALL,
                                             "one (36697, 39) sample stream and its partial sums (fixed sizes); n_max only "
                                             "filters the fixed list n in (13, 19, 27, 39)",
                                             {"trials": "lin"}, free=("n_max",)),
    # ---- thesis_ch7 ----
    # for every odd q <= p_max: the cyclic construction (~4q neurons) and its q^3 logits (chunked tensordot: m q^3)
    "thesis_ch7.condition_C1": E(lambda p: 3 * F8 * p["p_max"] ** 3 + F8 * 64 * p["p_max"] * 4 * p["p_max"],
                                 "q^3 float64 logits at the largest modulus and a (m, 64, q) chunk", {"p_max": "pow5"}),
    "thesis_ch7.fourier_identity_D3": E(lambda p: _SMALL, "sympy residuals (p_symbolic) and length-64 FFTs",
                                        {"samples": "lin", "p_symbolic": "exp4"}),
    # parity_single_max (cached, restarts L-BFGS runs) and random_nets / mixtures margin evaluations on a fixed cube
    "thesis_ch7.lemma_7_2": E(lambda p: _SMALL, "a fixed small parity cube; restarts optimisations",
                              work=_parts_work("thesis_ch7.lemma_7_2", lambda p: p["random_nets"], lambda p: p["restarts"]),
                              work_params=("random_nets", "restarts")),
    "thesis_ch7.lemma_7_3": E(lambda p: _SMALL, "a fixed small parity cube; restarts optimisations",
                              work=_parts_work("thesis_ch7.lemma_7_3", lambda p: p["mixtures"], lambda p: p["restarts"]),
                              work_params=("mixtures", "restarts")),
    "thesis_ch7.lemma_7_4": E(lambda p: _SMALL, "a fixed small parity cube, 3 perturbations per epsilon", {"epsilons": "lin"}),
    "thesis_ch7.lemma_7_5": E(lambda p: _SMALL, "Z7 and S3 tables; restarts optimisations",
                              work=_parts_work("thesis_ch7.lemma_7_5", lambda p: p["mixtures"], lambda p: p["restarts"]),
                              work_params=("mixtures", "restarts")),
    "thesis_ch7.lemma_7_6": E(lambda p: _SMALL, "Z7 and S3 tables; restarts L-BFGS optimisations", {"restarts": "lin"}),
    # groups are a finite choice (quick / full lists); per group and trial einsums over d^4 <= 10^4 entries
    "thesis_ch7.lemma_D10": E(lambda p: _SMALL, "irreps of the fixed groups (d <= 6)",
                              work=lambda p: p["basis_changes"] + 1, work_params=("basis_changes",)),
    "thesis_ch7.lemma_D11": E(lambda p: _SMALL, "coefficient matrices of the fixed groups", {"samples": "lin"}),
    "thesis_ch7.lemma_D12": E(lambda p: _SMALL, "coefficient matrices of the fixed groups", {"samples": "lin"}),
    # per group and tau (D.14 + taus random) a cached single_max_class_tau of `restarts` L-BFGS runs
    "thesis_ch7.lemma_D13": E(lambda p: _SMALL, "fixed groups (order <= 10); (taus + 1) x restarts optimisations",
                              work=lambda p: (p["taus"] + 1) * p["restarts"], work_params=("taus", "restarts")),
    # addition tables q = 3..p_max and random_tables random ones: q^2 neurons, quadratic_logits (q^2, min(64, q), q)
    # chunks and q^5 work each
    "thesis_ch7.memorizing_construction": E(lambda p: F8 * (p["p_max"] ** 4 + 6 * p["p_max"] ** 3),
                                            "(q^2, q, q) logit chunk of the q^2-neuron network, q^3 tables",
                                            work=lambda p: float(p["p_max"]) ** 6 / 6 + p["random_tables"] * float(p["p_max"]) ** 5,
                                            work_params=("p_max", "random_tables")),
    # parity_cube(n) (2^n x n) and its int64 products per sample, n <= n_max
    "thesis_ch7.parity_single_neuron_expectation": E(lambda p: 2 * F8 * 2.0 ** p["n_max"] * (p["n_max"] + 3),
                                                     "parity_cube(n) as (2^n, n) and the int64 products",
                                                     {"samples": "lin", "n_max": "exp2"}),
    # tier_runs is a choice (the trained runs); random_nets random networks of <= 8 neurons on its fixed moduli
    "thesis_ch7.regularized_exact_cyclic": E(lambda p: _SMALL, "q^3 logits of the tier's fixed moduli", {"random_nets": "lin"}),
    "thesis_ch7.theorem_7_8": E(lambda p: _SMALL, "the tier's fixed parity cubes; restarts optimisations", {"restarts": "lin"}),
    # single_neuron_max (restarts L-BFGS runs, O(order^2) per evaluation) for every group of order <= max_opt_order
    "thesis_ch7.theorem_7_9": E(lambda p: _SMALL + F8 * 3 * float(p["max_opt_order"]) ** 2,
                                "multiplication tables of the fixed groups (order <= 120)",
                                {"restarts": "lin", "max_opt_order": "cubic"}),
    "thesis_ch7.uniform_tau_sign_rep": E(lambda p: _SMALL, "S3 and S4 tables; restarts optimisations", {"restarts": "lin"}),
    # ---- thesis_ch8 ----
    # exact t_tensor (object Fractions, t^2 .. t^3 per t) for t <= t_exact_max per point; per item t of t_list
    # expected_T_diag(t) ((t/2 + 4) nodes x t x 2 x 2 float64, ~6 arrays) and O(t)-term exact harmonic sums
    "thesis_ch8.corollary_E_2": E(lambda p: 6 * F8 * 4 * max(_items(p["t_list"])) * (max(_items(p["t_list"])) / 2 + 4) + _SMALL,
                                  "t_tensor work arrays over (t/2 + 4) nodes x t positions x 2 x 2 at the largest t of t_list",
                                  work=_parts_work("thesis_ch8.corollary_E_2", lambda p: p["points"] * float(p["t_exact_max"]) ** 4,
                                                   lambda p: sum(float(t) ** 2 for t in _items(p["t_list"]))),
                                  work_params=("points", "t_exact_max", "t_list")),
    # _exact_losses(t) (k2_exact_losses: 2/3 t^4 bytes), the (eval_n, t, t) attention arrays of the minimal model,
    # the transformer's (eval_n, tf_t, tf_t / tf_d) arrays at every checkpoint; time: the sum of the parts
    "thesis_ch8.empirical_phases": E(
        lambda p: max(_k2_exact_bytes(p["t"]), 8 * F8 * p["eval_n"] * p["t"] ** 2,
                      8 * F8 * p["eval_n"] * p["tf_t"] * max(p["tf_t"], p["tf_d"])) + _SMALL,
        "k2_exact_losses(t) weights (2/3 t^4 bytes), (eval_n, t, t) minimal-model attention arrays, transformer "
        "evaluation arrays; lr and tf_lr are free (step sizes)",
        work=_parts_work(
            "thesis_ch8.empirical_phases",
            lambda p: float(p["t"]) ** 4,
            lambda p: p["seeds"] * p["steps"] * (64 + p["eval_n"] / max(p["eval_every"], 1)) * float(p["t"]) ** 2,
            lambda p: p["runs"] * (p["runs_steps"] * 64 + 13 * p["eval_n"]) * float(p["t"]) ** 2,
            lambda p: p["tf_seeds"] * (p["tf_steps"] * 64 + 21 * p["eval_n"]) * float(p["tf_t"]) ** 2 * p["tf_d"]),
        work_params=("t", "steps", "seeds", "eval_every", "eval_n", "tf_steps", "tf_t", "tf_d", "tf_seeds", "runs",
                     "runs_steps"),
        free=("lr", "tf_lr")),
    # sympy integrals of Beta / Dirichlet densities for (c_max + 1)^2 count pairs, degree ~ c_max
    "thesis_ch8.eq_8_3_bigram_posterior": E(lambda p: _SMALL, "sympy expressions (no arrays)", {"c_max": "cubic"}),
    # enumerate_expectation over k^(t+1) sequences (k = 2 up to t2_max, k = 3 up to t3_max), O(t^3) Fractions each
    "thesis_ch8.eq_E13_first_step_gradient": E(
        lambda p: _SMALL, "streamed sequences and (t, k, k) Fraction tensors",
        work=lambda p: p["chains"] * (sum(2.0 ** (t + 1) * t ** 3 for t in range(1, p["t2_max"] + 1))
                                      + sum(3.0 ** (t + 1) * t ** 3 for t in range(1, p["t3_max"] + 1))),
        work_params=("chains", "t2_max", "t3_max")),
    # all k^t sequences (k = 2 for t <= t2_max, k = 3 for t <= t3_max) through the minimal model at once: the
    # (k^t, t, t) int64 attention arrays (2 live), the (k^t, t, k) one-hot and cumulative sums, c in {1, 2}
    "thesis_ch8.eq_E6_constant_init": E(
        lambda p: _SMALL + F8 * max(2.0 ** p["t2_max"] * p["t2_max"] * (2 * p["t2_max"] + 8),
                                    3.0 ** p["t3_max"] * p["t3_max"] * (2 * p["t3_max"] + 12)),
        "(k^t, t, t) int64 minimal-model attention arrays and (k^t, t, k) one-hot sums of all sequences",
        work=lambda p: (sum(2.0 ** t * t ** 2 for t in range(2, p["t2_max"] + 1))
                        + sum(3.0 ** t * t ** 2 for t in range(2, p["t3_max"] + 1))),
        work_params=("t2_max", "t3_max")),
    # exact 2 x 2 Fraction matrix powers up to n_max per point (n-bit entries: ~ n_max^2)
    "thesis_ch8.eq_E15_matrix_powers": E(lambda p: _SMALL, "2 x 2 Fraction matrices", {"points": "lin", "n_max": "quad"}),
    # the direct triple sums: t^3 / 6 Fraction powers of O(t) bits per t, for t <= t_max: ~ t_max^5
    "thesis_ch8.eq_E16_E17_triple_sums": E(lambda p: _SMALL, "Python Fractions (no arrays)", {"t_max": "pow5", "points": "lin"}),
    "thesis_ch8.eq_E19_E22_W_entries": E(
        lambda p: 3 * _SMALL, _CH8_EXPECTED_T + " (t_sym); exact Fraction t_tensor for t <= t_max",
        work=_parts_work("thesis_ch8.eq_E19_E22_W_entries", lambda p: p["points"] * float(p["t_max"]) ** 3,
                         lambda p: float(p["t_sym"]) ** 3),
        work_params=("points", "t_max", "t_sym")),
    "thesis_ch8.eq_E23_E25_leading_W": E(lambda p: 3 * _SMALL, _CH8_EXPECTED_T + " for every t of t_list",
                                         work=lambda p: sum(float(t) ** 3 for t in _items(p["t_list"])),
                                         work_params=("t_list",)),
    "thesis_ch8.eq_E26_E29_v_update": E(
        lambda p: 3 * _SMALL, _CH8_EXPECTED_T + " for every t of t_list; exact Fraction t_tensor for t <= t_max",
        work=_parts_work("thesis_ch8.eq_E26_E29_v_update", lambda p: p["points"] * float(p["t_max"]) ** 4,
                         lambda p: sum(float(t) ** 3 for t in _items(p["t_list"]))),
        work_params=("points", "t_max", "t_list")),
    # w_j_float(j) (80- and 120-node quadratures) for j <= j_max + 1, all pairs (i, j) compared
    "thesis_ch8.even_odd_pattern": E(lambda p: _SMALL, "K2 quadrature nodes (fixed 80 / 120 per axis)", {"j_max": "quad"}),
    # per sequence: the minimal model forward (t x t) and reference double sums, O(t^3) Python loops
    "thesis_ch8.fact_8_3": E(lambda p: _SMALL + 4 * F8 * p["t"] ** 2, "(t, t) attention matrices of one sequence",
                             {"sequences": "lin", "t": "cubic"}),
    # expected_T(t) and expected_T(2t) (t^3), eta_star(tt) for tt in t_eta, j_max quadratures, n_eta two-step runs;
    # c is a scalar initial value (free)
    "thesis_ch8.lemma_8_4": E(
        lambda p: 3 * _SMALL + F8 * 2 * p["t"] * 4, _CH8_EXPECTED_T + " at t, 2t and every t of t_eta; c is free (a scalar "
        "initial value)",
        work=_parts_work("thesis_ch8.lemma_8_4", lambda p: 9 * float(p["t"]) ** 3,
                         lambda p: sum(float(t) ** 3 for t in _items(p["t_eta"])),
                         lambda p: p["j_max"], lambda p: p["n_eta"] * p["t"]),
        work_params=("t", "t_eta", "j_max", "n_eta"), free=("c",)),
    "thesis_ch8.linear_regime_dynamics": E(
        lambda p: 3 * _SMALL + 4 * F8 * p["t"] ** 2, _CH8_EXPECTED_T + "; (4, t) SVD; steps O(t) GD steps",
        work=_parts_work("thesis_ch8.linear_regime_dynamics", lambda p: float(p["t"]) ** 3, lambda p: p["steps"] * p["t"]),
        work_params=("t", "steps")),
    # per eps: _e3_cached at t and 2t: sample_chains (chains, 2t), minimal_model_forward's two (chains, L, L)
    # float64 attention arrays (L = 2t), expected_T(2t)
    "thesis_ch8.proposition_8_5": E(
        lambda p: 3 * F8 * p["chains"] * (2 * p["t"]) ** 2 + 3 * _SMALL,
        "(chains, 2t, 2t) float64 minimal-model attention arrays, 3 copies",
        work=_parts_work("thesis_ch8.proposition_8_5",
                         lambda p: len(str(p["eps_list"]).split(",")) * p["chains"] * float(2 * p["t"]) ** 2,
                         lambda p: float(2 * p["t"]) ** 3),
        work_params=("t", "chains", "eps_list")),
    # k2_exact_losses(t) for every t of t_list (2/3 t^4 bytes at the largest, time ~ t^4 each); the 2^t enumeration is t <= 6
    "thesis_ch8.remark_8_1": E(lambda p: _k2_exact_bytes(max(_items(p["t_list"]))) + _SMALL,
                               "k2_exact_losses(t) quadrature weights: (t^2/4 classes, t^2/2 nodes) float64, 2 copies",
                               work=lambda p: sum(float(t) ** 4 for t in _items(p["t_list"])), work_params=("t_list",)),
    # k2_exact_losses(t) (2/3 t^4 bytes) and Monte Carlo chunks of 20000 chains for k = 2, 3 and every k of k_list
    "thesis_ch8.strategy_losses": E(
        lambda p: max(_k2_exact_bytes(p["t"]), 6 * F8 * min(p["n"], 20000) * (p["t"] + max(_items(p["k_list"])) ** 2)) + _SMALL,
        "k2_exact_losses(t) weights (2/3 t^4 bytes); chunks of 20000 chains of length t and (chunk, k, k) transitions",
        work=_parts_work("thesis_ch8.strategy_losses", lambda p: float(p["t"]) ** 4,
                         lambda p: p["n"] * p["t"] * sum(k * k for k in [2, 2, 3] + _items(p["k_list"]))),
        work_params=("t", "n", "k_list")),
})


# ---- issue 19 audit: seed002 (the claims whose parameters changed with their contract audit) ----
def _search_work(p) -> float:
    """A seeded multi-start search (verify.sharpness.maximize_continuous): (restarts + 1) starts x maxiter."""
    return (p["restarts"] + 1.0) * p["maxiter"]


ESTIMATES.update({
    # exact binomial bounds for every N = 2 .. N_max (each O(N) terms), Monte Carlo trials only at N <= 64
    "seed002.assumption_3": E(lambda p: _SMALL + 4 * F8 * p["N_max"], "per-N binomial bounds and a few N_max arrays",
                              work=_parts_work("seed002.assumption_3", lambda p: float(p["N_max"]) ** 2,
                                               lambda p: float(p["trials"])), work_params=("N_max", "trials")),
    # SGD on a fixed small feedforward model: steps iterations, constant memory
    "seed002.definition_5": E(lambda p: _SMALL, "a fixed small model and its gradients", {"steps": "lin"}),
    # training runs: a transformer (attention over N tokens: N^2 per prompt) per N <= N_max and seed, and GRU runs
    "seed002.figure_1": E(lambda p: _SMALL + 64 * F8 * 12 * 12 * 64,
                          "batches of 64 prompts of N <= 12 tokens and small models",
                          work=_parts_work("seed002.figure_1",
                                           lambda p: p["seeds"] * p["max_steps"] * float(p["N_max"]) ** 2,
                                           lambda p: p["rnn_seeds"] * p["rnn_max_steps"] * float(p["N_max"])),
                          work_params=("N_max", "seeds", "max_steps", "rnn_seeds", "rnn_max_steps")),
    "seed002.figure_2": E(lambda p: _SMALL + 64 * F8 * p["N"] * (p["N"] + 64), "batches of 64 prompts of N tokens, N x N attention",
                          {"N": "quad", "max_steps": "lin"}),
    # prompts x N tokens of dimension d + d_e (d = 4, d_e ~ 16 ln N + 8) and the N x N attention of each head
    "seed002.lemma_11": E(lambda p: 3 * F8 * p["prompts"] * p["N_max"] * (12 + 16 * math.log(p["N_max"]))
                          + 3 * 3 * F8 * float(p["N_max"]) ** 2,
                          "(prompts, N, d + d_e) tokens and codes, N x N attention per head (q <= 3)",
                          {"prompts": "lin", "N_max": "quad"}, free=("all_eps",)),
    "seed002.lemma_13": E(lambda p: _SMALL, "small matrices in a multi-start search", work=_search_work,
                          work_params=("restarts", "maxiter")),
    "seed002.lemma_15": E(lambda p: _SMALL, "small matrices in a multi-start search", work=_search_work,
                          work_params=("restarts", "maxiter")),
    "seed002.lemma_30": E(lambda p: _SMALL, "small matrices in a multi-start search", work=_search_work,
                          work_params=("restarts", "maxiter")),
    "seed002.lemma_39": E(lambda p: _SMALL, "small matrices in a multi-start search", work=_search_work,
                          work_params=("restarts", "maxiter")),
    # trials draws of small (n, d) interpolation problems
    "seed002.lemmas_36_38": E(lambda p: _SMALL, "one small interpolation problem per trial", {"trials": "lin"}),
    # (the full tier took 1.85 s on a loaded machine, too long for WITHIN_TESTED): T = 2, 4, ..., 2^L, every
    # s < T and i < log2 T, each a construction over T tokens: ~ T^2 log T at the largest T, 4^L as the law
    # the next two also took over a second at the full tier on the loaded machine (too long for WITHIN_TESTED):
    # every k <= k_max, each over the 2^k sign patterns of the k-zigzag
    "thesis_ch5.constructions.infinite_zigzag": E(lambda p: _SMALL + 8 * F8 * p["k_max"] * 2.0 ** p["k_max"],
                                                  "the 2^k sign patterns of the largest k", {"k_max": "nexp2"}),
    # every k <= k_max, each over the 2^k sign patterns (full tier: 1.4 s on the idle machine, over WITHIN_TESTED's second)
    "thesis_ch5.constructions.sinusoid": E(lambda p: _SMALL + 8 * F8 * p["k_max"] * 2.0 ** p["k_max"],
                                           "the 2^k sign patterns of the largest k", {"k_max": "nexp2"}),
    # the construction executed exhaustively on {+-1}^n for every even k <= k_max
    "thesis_ch6.lemma_C.6.readout": E(lambda p: _SMALL + cube(p["n"], F8 * (p["n"] + 4)), "exhaustive tables over {+-1}^n",
                                      {"n": "nexp2", "k_max": "lin"}),
    "thesis_ch4.prop_4.8": E(lambda p: _SMALL + 4 * F8 * 4.0 ** p["log2_T_max"], "(T, T) attention tables at T = 2^L",
                             {"log2_T_max": "exp4"}),
})


# ---- figures of thesis ch. 8 / App. E (verify/induction_heads/figures.py) ----
def _tf_fig_memory(p, layers: int = 2) -> float:
    """The (eval_n, t, t) attention and score arrays of the evaluation forward pass (about 3 per layer) and the
    (seeds, n_ck + 1, t, t) attention maps of both layers kept per run."""
    t = float(p["t"])
    return _SMALL + 3 * layers * F8 * p["eval_n"] * t * t + 2 * F8 * p["seeds"] * (p["n_ck"] + 1) * t * t


def _tf_fig_work(p, runs: float, steps: float) -> float:
    """runs training runs of `steps` Adam steps (batch 64, t^2 d per sequence) and n_ck + 1 evaluations of eval_n chains."""
    return runs * (steps * 64 + (p["n_ck"] + 1) * p["eval_n"]) * float(p["t"]) ** 2 * p["d"]


_TF_FIG = ("t", "d", "steps", "seeds", "n_ck", "eval_n")
ESTIMATES.update({
    "thesis_ch8.figure_8_1_E_3": E(_tf_fig_memory, "evaluation attention arrays and the kept attention maps; lr is a step size",
                                   work=lambda p: _tf_fig_work(p, p["seeds"], p["steps"]), work_params=_TF_FIG, free=("lr",)),
    "thesis_ch8.figure_8_2_E_5": E(_tf_fig_memory, "evaluation attention arrays and the kept attention maps; lr is a step size, "
                                   "maps only picks checkpoints to draw", work=lambda p: _tf_fig_work(p, p["seeds"], p["steps"]),
                                   work_params=_TF_FIG, free=("lr", "maps")),
    "thesis_ch8.figure_E_4": E(_tf_fig_memory, "evaluation attention arrays and the kept attention maps; lr is a step size",
                               work=lambda p: _tf_fig_work(p, p["seeds"], p["steps"]), work_params=_TF_FIG, free=("lr",)),
    "thesis_ch8.figure_E_8": E(_tf_fig_memory, "evaluation attention arrays and the kept attention maps; lr is a step size",
                               work=lambda p: _tf_fig_work(p, 2 * p["seeds"], p["steps"])
                               + _tf_fig_work(p, min(p["long_seeds"], p["seeds"]), p["long_factor"] * p["steps"]),
                               work_params=_TF_FIG + ("long_factor", "long_seeds"), free=("lr",)),
})
ESTIMATES.update({
    # per chunk of 2000 samples the T-tensor work arrays (about 6 x (2000, t, 2, 2)), per sample sums over t; the
    # K2 quadrature expected_T(t) (~t^2); c and eta scale the numbers only
    "thesis_ch8.figure_E_1_E_2": E(lambda p: _SMALL + 6 * F8 * 2000 * 4 * p["t"] + 2 * F8 * p["samples"] * (p["t"] + 4),
                                   "T-tensor work arrays of one chunk and the per-sample sums; c and eta only scale",
                                   {"samples": "lin", "t": "quad"}, free=("c", "eta")),
})
ESTIMATES.update({
    # three-head and one-head runs (4 heads of t^2 d per sequence and layer, both layers) and their evaluations
    "thesis_ch8.figure_8_5": E(lambda p: _SMALL + 3 * 3 * 2 * F8 * p["eval_n"] * float(p["t"]) ** 2,
                               "evaluation attention arrays of 3 heads x 2 layers; lr is a step size",
                               work=lambda p: 4 * _tf_fig_work(p, p["seeds"], p["steps"]), work_params=_TF_FIG, free=("lr",)),
})


# ---- thesis ch. 4, Fig. 4.4 (verify/variable_creation/figure_4_4.py) ----
ESTIMATES.update({
    # per T and seed: steps x batch samples of (T + 1) tokens through H heads of size d / H and a d x f MLP, and n_ck + 1
    # validation passes over n_val samples (numpy, (n_val, H, T + 1, d / H) arrays)
    "thesis_ch4.figure_4_4": E(lambda p: _SMALL + 6 * F8 * p["n_val"] * 16 * (p["d"] + p["f"]),
                               "validation forward arrays; lr and init_scale are step sizes / scales",
                               work=lambda p: p["seeds"] * (p["steps"] + p["steps15"]) * p["batch"] * 16.0 * p["d"] * (p["d"] + p["f"])
                               + p["seeds"] * (p["n_ck"] + 1) * p["n_val"] * 16.0 * p["d"] * (p["d"] + p["f"]),
                               work_params=("seeds", "steps", "steps15", "batch", "d", "heads", "f", "n_ck", "n_val"),
                               free=("lr", "init_scale", "Ts")),
})


# ---- thesis ch. 8 figures on test / training distributions (verify/induction_heads/figures_distributions.py) ----
ESTIMATES.update({
    # transformer and minimal-model runs (k = 2) evaluated on three test sets of eval_n chains each
    "thesis_ch8.figure_E_6": E(lambda p: _SMALL + 3 * 2 * 3 * F8 * p["eval_n"] * float(p["t"]) ** 2,
                               "evaluation attention arrays of the three test sets; lr and min_lr are step sizes",
                               work=lambda p: p["seeds"] * (p["steps"] * 64 + 3 * (p["n_ck"] + 1) * p["eval_n"]) * float(p["t"]) ** 2
                               * p["d"] + p["seeds"] * p["min_steps"] * 64 * float(p["t"]) ** 2 * 2,
                               work_params=("t", "d", "steps", "min_steps", "seeds", "n_ck", "eval_n"), free=("lr", "min_lr")),
    # DS-only runs of `steps` and mixture runs of 2 x steps Adam steps (batch of t^2 d per sequence), evaluated on two
    # test sets (n_ck + 1 and 2 n_ck + 1 evaluations)
    "thesis_ch8.figure_8_4_a": E(lambda p: _SMALL + 2 * 2 * 3 * F8 * p["eval_n"] * float(p["t"]) ** 2
                                 + 8 * F8 * p["batch"] * float(p["t"]) ** 2,
                                 "evaluation attention arrays of the two test sets and the batch workspace; lr is a step size",
                                 work=lambda p: p["seeds"] * (3 * p["steps"] * p["batch"] + 2 * (3 * p["n_ck"] + 2) * p["eval_n"])
                                 * float(p["t"]) ** 2 * p["d"],
                                 work_params=("t", "d", "steps", "batch", "seeds", "n_ck", "eval_n"), free=("lr",)),
})


# ---- figures of thesis ch. 7 (verify/max_margin/figures*.py) ----
_GROUP_ORDER = {"S3": 6, "S4": 24, "S5": 120}


def _group_fig_memory(p):
    """train_quadratic_margin's full-batch activations n^2 (3 m + 2 n) float64 (its own require_memory), n = |G|."""
    n = _GROUP_ORDER[p["group"]]
    return _SMALL + F8 * n * n * (3 * p["m"] + 2 * n)


def _group_fig_work(p):
    """(steps + 1) full-batch steps of n^3 m multiply-adds each, plus the step-0 evaluation of the init run."""
    n = _GROUP_ORDER[p["group"]]
    return (p["steps"] + 2) * float(n) ** 3 * p["m"]


ESTIMATES.update({
    "thesis_ch7.figure_D2": E(_group_fig_memory, "full-batch activations of the quadratic net on |G|^2 pairs",
                              work=_group_fig_work, work_params=("group", "m", "steps"), free=("lam", "need")),
    "thesis_ch7.figure_D3": E(_group_fig_memory, "full-batch activations of the quadratic net on |G|^2 pairs",
                              work=_group_fig_work, work_params=("group", "m", "steps"), free=("lam", "need")),
    # steps = 0 at the CPU tiers: the init draw (3 m |G| normals), irrep powers of 3 m rows, and the 1190-neuron
    # construction's |G|^3 logits when construction is on
    "thesis_ch7.figure_7_6": E(_group_fig_memory, "full-batch activations of the quadratic net on |G|^2 pairs (gpu "
                               "tier); 3 m |G| init weights", work=_group_fig_work, work_params=("group", "m", "steps"),
                               free=("lam", "need")),
    # train_parity_margin on the 2^n cube: (2^n, m) pre-activations in the reference, 2^n x n inputs; twice (the
    # x^2 mutant's run)
    "thesis_ch7.figure_7_5": E(lambda p: _SMALL + 4 * F8 * 2.0 ** p["n"] * (p["m"] + p["n"]),
                               "(2^n, m) activations and the 2^n x n cube", work=lambda p: 2 * (p["steps"] + 1) * 2.0 ** p["n"]
                               * p["m"] * p["n"], work_params=("n", "m", "steps"), free=("k", "lr", "lam")),
    # cyclic_pair: a ReLU and a quadratic net on Z_p, (steps + 1) full-batch steps of p^3 m each
    **{f"thesis_ch7.{c}": E(lambda p: _SMALL + F8 * p["p"] ** 2 * (3 * p["m"] + 2 * p["p"]),
                            "full-batch activations of both nets on the p^2 pairs",
                            work=lambda p: 2 * (p["steps"] + 2) * float(p["p"]) ** 3 * p["m"], work_params=("p", "m", "steps"))
       for c in ("figure_7_1", "figure_7_4", "figure_D1")},
})
