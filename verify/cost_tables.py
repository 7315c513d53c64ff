"""Cost tables of verify.costs, first half: the original estimate table (every source), the reasons of the
SAFE entries found by reading the checks (:data:`SAFE_BY_READING`) and the issue-19 audit of thesis ch. 4-5
(part B).  The rest (parts A and C, seed002, :data:`verify.cost_tables_audit.SAFE`) is in
verify.cost_tables_audit; verify.costs merges the two.
"""

from __future__ import annotations

import math

from .cost_model import F8, E, Estimate, _ints, cube, loop, signs


_CH5_MAJ = "majority table over {+-1}^n, its Walsh-Hadamard transform and scratch (3 x 8 bytes x 2^n)"

#: claim id -> estimate of its cost from its resolved parameters
ESTIMATES: dict[str, Estimate] = {
    # ---- seed000 ---------------------------------------------------------------------------------------
    # sm_experiment: the N x n Rademacher matrices (loss columns of one sample, 400 sign vectors) and, per ERM chunk of
    # 500 samples, the (500, n) drawn indices (two int64 copies) and the (500, N) loss counts; 74.5 GiB was the N x n
    # part alone at N = n = 100000 (issue 19).  (Before the ERM used per-sample hit counts it held an (N, 500, n)
    # float64 array: F8 N n 502.)  Measured 1.23 MB against 1.59 at N = 64, n = 96, R = 500 (tests/test_costs.py).
    "seed000.def_2.2": E(lambda p: F8 * p["N"] * p["n"] + F8 * 400 * (p["N"] + p["n"]) + F8 * 500 * (2 * p["n"] + p["N"]),
                         "N x n Rademacher matrices plus (500, n) index and (500, N) count arrays per ERM chunk",
                         {"N": "lin", "n": "lin", "rad_samples": "lin", "R": "lin"}),
    "seed000.prop_2.3": E(lambda p: F8 * p["N"] * p["n"] + F8 * 400 * (p["N"] + p["n"]) + F8 * 500 * (2 * p["n"] + p["N"]),
                          "N x n Rademacher matrices plus (500, n) index and (500, N) count arrays per ERM chunk",
                          {"N": "lin", "n": "lin", "rad_samples": "lin", "R": "lin"}),
    # _cor_a1_runs: Z is (n + test) x (dim + 1) float64 (a few copies); the l1 separator is an LP in n rows
    "seed000.cor_A.1": E(lambda p: 4 * F8 * (2 * p["n_max"] + p["test"]) * (p["dim"] + 2),
                         "(n + test) x (dim + 1) float64 design, 4 copies; LP on n rows",
                         {"n_max": "quad", "dim": "lin", "test": "lin"}),
    # ---- seed002 ---------------------------------------------------------------------------------------
    # st.draw(n // N prompts): x (n, d), t (n, q), y (n) for (N, d, q) up to (5, 2, 2) or (4, 3, 1)
    "seed002.definition_2": E(lambda p: 2 * F8 * p["n"] * 6, "prompts x tokens x (d + q + 1) draws, 2 copies",
                              {"n": "lin"}),
    # oracle MC: x (mc, N d) float64, its projection and gathers (4 copies), N <= N_max, d <= 4
    "seed002.theorem_6": E(lambda p: 4 * F8 * p["mc"] * 4 * p["N_max"] + F8 * (4 * p["N_max"]) ** 2 * 4,
                           "(mc, 4 N_max) float64 Monte Carlo draws, 4 copies",
                           {"N_max": "cubic", "mc": "lin"}),
    # standard_normal((samples, N, d)) with N <= 1000, d <= 5, squared copy
    "seed002.lemma_20": E(lambda p: 2 * F8 * p["samples"] * 1000 * 5, "(samples, 1000, 5) float64 normals, 2 copies",
                          {"samples": "lin"}),
    # U (directions, d) and the einsum output (directions, n, N) with N d <= 64
    "seed002.derived_oracle_ffn_risk": E(lambda p: 2 * F8 * p["directions"] * 64, "(directions, n, N) float64 einsum",
                                         {"directions": "lin"}),
    "seed002.proposition_21": E(lambda p: 8 * F8 * p["mc"] * 8, "(mc, N = 8) Monte Carlo decoder draws",
                                {"mc": "lin"}),
    "seed002.proposition_3": E(lambda p: 8 * F8 * p["mc"] * 8, "(mc, N = 8) Monte Carlo decoder draws",
                               {"mc": "lin"}),
    # ---- seed003 ---------------------------------------------------------------------------------------
    # idx (trials, m) with m ~ 40 d samples, the cube gathered at it (trials, m, d), parity tables (trials, 2^d)
    "seed003.definition_4": E(lambda p: F8 * p["trials"] * (40 * p["d"] * (p["d"] + 2) + 2 * 2 ** p["d"]),
                              "(trials, m, d) gathered samples (m ~ 40 d) and (trials, 2^d) parity tables",
                              {"trials": "lin", "d": "nexp2"}),
    "seed003.definition_2": E(lambda p: F8 * p["trials"] * (40 * p["d"] * (p["d"] + 2) + 2 * 2 ** p["d"]),
                              "(trials, m, d) gathered samples (m ~ 40 d) and (trials, 2^d) tables",
                              {"trials": "lin", "d": "nexp2"}),
    "seed003.claim_1": E(lambda p: F8 * p["trials"] * p["r_sim"] * (2 ** p["d_sim"] + p["d_sim"]),
                         "(trials, r, 2^d) simulated Algorithm-2 tables",
                         {"trials": "lin", "r_sim": "lin", "d_sim": "exp2"}),
    # all datasets of m examples out of 2^(d+1) labelled points: (2^(d+1))^m of them for every (d, m)
    "seed003.algorithm_1": E(lambda p: 64.0 * 2**20, "a generator of datasets (no parameter-driven arrays)",
                             work=lambda p: sum((2.0 ** (d + 1)) ** m for d in range(1, p["d_max"] + 1)
                                                for m in range(1, p["m_max"] + 1)), work_params=("d_max", "m_max")),
    "seed003.definition_1": E(lambda p: 64.0 * 2**20, "a generator of datasets (no parameter-driven arrays)",
                              work=lambda p: sum((2.0 ** (d + 1)) ** s for d in range(1, p["d_max"] + 1)
                                                 for m in range(1, p["m_max"] + 1) for s in range(1, m + 1)),
                              work_params=("d_max", "m_max")),
    # ---- thesis_ch4 ------------------------------------------------------------------------------------
    # B = integers(0, 2, size=(random_b, T)) for every T up to T_max, then a Python loop over its rows
    "thesis_ch4.lemma_A.19": E(lambda p: F8 * p["random_b"] * p["T_max"], "(random_b, T) int64 random inputs",
                               {"random_b": "lin", "T_max": "quad"}),
    "thesis_ch4.lemma_A.20": E(lambda p: F8 * p["random_b"] * p["T_max"], "(random_b, T) int64 random inputs",
                               {"random_b": "lin", "T_max": "quad"}),
    # parity_class_draws(n = 8): (sets, m) samples and (sets, sigmas) sign draws
    "thesis_ch4.lemma_4.2": E(lambda p: 3 * F8 * p["sets"] * (p["m"] + p["sigmas"] * 2 ** 8 / 8),
                              "(sets, m) samples and (sets, sigmas) Rademacher draws over 2^8 functions",
                              {"sets": "lin", "m": "lin", "sigmas": "lin"}),
    # U, V (pairs, d) with d <= 64 drawn at random, projections and differences: ~6 such arrays
    "thesis_ch4.lemma_A.9": E(lambda p: 6 * F8 * p["pairs"] * 64, "(pairs, d <= 64) float64 pairs and projections, 6 copies",
                              {"pairs": "lin"}),
    # Maurey: choice (draws, k) int64 and atoms (draws, 12) float64, the comparison (draws, k) per coordinate
    "thesis_ch4.lemma_4.10": E(lambda p: F8 * p["maurey_draws"] * (2 * p["maurey_k"] + 3 * 12),
                               "(draws, k) choices and comparisons, (draws, 12) atoms",
                               {"ratio_max": "quad", "maurey_k": "lin", "maurey_draws": "lin"}),
    # ---- thesis_ch5 ------------------------------------------------------------------------------------
    "thesis_ch5.lemma_B.1": E(lambda p: cube(p["n_exhaustive_max"]), _CH5_MAJ,
                              {"n_exhaustive_max": "nexp2", "n_symmetric_max": "quad", "n_top": "quad"}),
    "thesis_ch5.lemma_B.2": E(lambda p: cube(p["n_exhaustive_max"]), _CH5_MAJ,
                              {"n_exhaustive_max": "nexp2", "k_max": "lin", "n_span": "lin", "log10_n_large": "exp10",
                               "search_restarts": "lin"}),
    "thesis_ch5.ltf_majority": E(lambda p: signs(p["n_max"]) + cube(p["n_max"]),
                                 "sign_vectors(n) as int64 (2^n x n) and LTF / majority transforms",
                                 {"n_max": "nexp2", "draws": "lin"}),
    "thesis_ch5.warmup_gradient": E(lambda p: cube(p["n_max"], 10 * F8), "popcounts, sums, h, its transform, chi_S and scratch over 2^n (measured 40 MiB at n = 19)",
                                    {"n_max": "nexp2", "k_max": "lin", "n_scaling_max": "quad"}),
    "thesis_ch5.eq_B.1": E(lambda p: 3 * F8 * 4.0 ** p["n_gram_max"] + cube(p["n_inverse_max"]),
                           "2^n x 2^n Gram matrix (3 copies) and 2^n inverse-transform tables",
                           {"n_gram_max": "exp4", "n_inverse_max": "nexp2"}),
    "thesis_ch5.sq_counting": E(lambda p: cube(p["n_max"], 3 * F8 + 2 * 36), "2^n spectrum as int64 and as Python ints",
                                {"n_max": "nexp2"}),
    "thesis_ch5.def_5.4": E(lambda p: signs(p["n"]), "sign_vectors(n) as int64 and 2^n function tables",
                            {"n": "nexp2", "draws": "lin"}),
    "thesis_ch5.noisy_parity": E(lambda p: 6 * F8 * p["mc_samples"] + signs(p["gap_n"]) + cube(p["n_max"]),
                                 "six length-mc_samples int64 arrays; 2^n x n cube at gap_n",
                                 {"mc_samples": "lin", "gap_n": "nexp2", "n_max": "nexp2"}, free=("delta",)),
    "thesis_ch5.fourier_gaps.ltf_symmetry": E(lambda p: cube(p["n_max"], F8 * (p["n_max"] + 4)),
                                              "population gradient and exact transforms over 2^n",
                                              {"n_max": "nexp2", "draws": "lin"}),
    "thesis_ch5.fourier_gaps.sinusoid_symmetry": E(lambda p: cube(p["n_max"], F8 * (p["n_max"] + 4)),
                                                   "population gradient and exact transforms over 2^n",
                                                   {"n_max": "nexp2", "draws": "lin"}),
    "thesis_ch5.fourier_gaps.random_ltf": E(lambda p: cube(p["n"], F8 * (p["n"] + 4)), "transforms over 2^n",
                                            {"n": "nexp2", "draws": "lin"}, free=("confidence",)),
    "thesis_ch5.fourier_gaps.sinusoid": E(lambda p: cube(p["n"], F8 * (p["n"] + 4)), "transforms over 2^n",
                                          {"n": "nexp2", "draws": "lin"}, free=("confidence",)),
    "thesis_ch5.disjoint_polynet.population_gradient": E(
        lambda p: cube(max(p["n_max"], p["n_fd_max"]), F8 * (max(p["n_max"], p["n_fd_max"]) + 4)),
        "population gradient over 2^n (n + 4 float64 per point)", {"n_max": "nexp2", "n_fd_max": "nexp2"}),
    "thesis_ch5.lemma_B.9": E(lambda p: cube(p["n_exhaustive_max"], F8 * (p["n_exhaustive_max"] + 4)),
                              "exhaustive cube formulas over 2^n",
                              {"n_exhaustive_max": "nexp2", "m_pm1_max": "quad", "m_gauss_max": "exp2",
                               "gauss_draws": "lin"}, free=("c_max",)),
    "thesis_ch5.lemma_B.3": E(lambda p: cube(p["n_max"], F8 * (p["n_max"] + 4)), "hinge gradient over 2^n",
                              {"n_max": "nexp2", "pairs": "lin"}),
    "thesis_ch5.lemma_B.4.claims_1-3": E(lambda p: cube(p["n_max"], F8 * (p["n_max"] + 4)), "hinge gradient over 2^n",
                                         {"n_max": "nexp2", "pairs": "lin", "draws": "lin"}),
    "thesis_ch5.lemma_B.4.claim_4.hoeffding": E(lambda p: cube(p["n_max_enum"], F8 * (p["n_max_enum"] + 4)),
                                                "enumeration over 2^n", {"n_max_enum": "nexp2", "n_big": "lin",
                                                                         "draws": "lin"}),
    # two-layer SGD trainings: (runs, width, n + 2) parameters and gradients, (boot, runs) bootstrap resamples
    "thesis_ch5.finding_5.1": E(
        lambda p: 3 * F8 * max(p["runs"], p["precision_runs"], p["ablation_runs"]) * p["width"] * (max(_ints(p["ns"])) + 2)
        + 2 * F8 * p["boot"] * max(p["runs"], p["precision_runs"], p["ablation_runs"]),
        "(runs, width, n + 2) float64 parameters and gradients, (boot, runs) bootstrap resamples",
        {"runs": "lin", "steps": "lin", "width": "lin", "batch": "lin", "boot": "lin", "precision_runs": "lin",
         "ablation_runs": "lin", "ablation_steps": "lin"}, free=("lr", "eval_every"), memory_params=("ns",)),
    # figures_b: train_two_layer on (runs, width (n + 2)) float32 states (4 copies with SGD scratch) and the
    # (runs, batch, n + 3 width) batch work arrays; B.12 and 5.2 center keep (runs, steps / eval_every) curves
    "thesis_ch5.figure_B.12": E(
        lambda p: p["seeds"] * (3 * F8 * (max(p["steps"], p["control_steps"]) / p["eval_every"] + 1)
                                + 4 * F8 * p["width"] * (p["n"] + 2) + F8 * max(_ints(p["batches"])) * (p["n"] + 3 * p["width"])),
        "(seeds, steps / eval_every) curves, (seeds, width (n + 2)) states, (seeds, B, n + 3 width) batch arrays",
        work=lambda p: p["seeds"] * p["width"] * (p["n"] + 2.0) * (
            sum(_ints(p["batches"])) * (len(str(p["noises"]).split(",")) * p["steps"] + p["control_steps"])
            + 2.0 * p["n_eval"] * (len(str(p["noises"]).split(",")) * p["steps"] + p["control_steps"]) / p["eval_every"]),
        work_params=("n", "width", "batches", "noises", "seeds", "steps", "control_steps", "eval_every", "n_eval"),
        free=("lr",)),
    "thesis_ch5.figure_5.2.left": E(
        lambda p: p["runs"] * (4 * F8 * p["width"] * (p["n"] + 2) + F8 * p["batch"] * (p["n"] + 3 * p["width"]) + 2 * F8),
        "(runs, width (n + 2)) states and (runs, B, n + 3 width) batch arrays per seed block (runs <= 10^4 a block)",
        {"runs": "lin", "n": "lin", "width": "lin", "batch": "lin"},
        free=("steps", "lr"), memory_params=()),
    # figures_b_curves B.1: per GD init k sorted |A_i| arrays of 2^(n'-2) float64 and the error of every step
    # (steps ~ T_0 / eta); SGD: (runs, sgd_cap / every, k, n') recorded weights and a (2^(n'-1), n') sign table
    "thesis_ch5.figure_B.1": E(
        lambda p: p["gd_runs"] * (p["k"] * F8 * 2.0 ** (p["n1_gd"] - 2) + 2 * F8 * min(p["gd_cap"], 20.0 / p["eta"]))
        + F8 * p["gd_runs"] * p["k"] * 2000
        + F8 * p["sgd_runs"] * (p["sgd_cap"] / p["every"] + 1) * p["k"] * (p["n1_sgd"] + 3)
        + 2 * F8 * 2.0 ** (p["n1_sgd"] - 1) * p["n1_sgd"],
        "GD: k sorted block-sum arrays of 2^(n'-2) per init and its per-step errors; SGD: recorded weights",
        {"gd_runs": "lin", "n1_gd": "exp2", "gd_cap": "lin", "sgd_runs": "lin", "sgd_cap": "lin", "n1_sgd": "exp2",
         "k": "lin"}, free=("eta", "lr", "every")),
    # figures_b_curves B.13: per cell train_two_layer on (seeds, width (n + 2)) float32 states and (seeds, B, n + 3 width)
    # batch arrays, (seeds, steps / eval_every) curves; work ~ seeds x width x n x (sum of B) x steps per activation
    "thesis_ch5.figure_B.13": E(
        lambda p: p["seeds"] * (3 * F8 * (p["steps"] / p["eval_every"] + 1)
                                + 4 * F8 * max(_ints(p["widths"])) * (p["n"] + 2)
                                + F8 * max(_ints(p["batches"])) * (p["n"] + 3 * max(_ints(p["widths"])))),
        "(seeds, steps / eval_every) curves, (seeds, width (n + 2)) states, (seeds, B, n + 3 width) batch arrays",
        work=lambda p: p["seeds"] * (p["n"] + 2.0) * p["steps"] * (
            sum(_ints(p["widths"])) * sum(_ints(p["batches"])) + max(_ints(p["widths"])) * max(_ints(p["batches"]))
            + 2.0 * p["n_eval"] * (sum(_ints(p["widths"])) * len(_ints(p["batches"])) + max(_ints(p["widths"])))
            / p["eval_every"]),
        work_params=("n", "widths", "batches", "seeds", "steps", "eval_every", "n_eval"),
        free=("lr", "relu_lr")),
    # figures_b_curves B.9: per configuration (runs, cap / se, P) float32 snapshots of the parity and the noise runs,
    # the held-out (2048, n) set and (snapshots, 2048, width) MLP activations of one run at a time
    "thesis_ch5.figure_B.9": E(
        lambda p: 2 * 4 * p["runs"] * (p["cap"] / p["se"] + 1) * (10 * p["n"] + 21) + F8 * 2048 * 64 * 10
        + F8 * (p["cap"] / p["se"] + 1) * 2048 * 10,
        "(runs, cap / se, P) float32 snapshots of the parity and the noise runs, MLP held-out activations",
        {"runs": "lin", "cap": "lin", "n": "lin"}, free=("se",), memory_params=("configs",)),
    # figures_b_curves B.2: per cell train_two_layer states (seeds, width (n + 2)) float32, the (seeds, B, n + 3 width)
    # batch arrays (row 4: width large_width at B = 1024) and (seeds, cap / eval_every) curves, ~20 cells
    "thesis_ch5.figure_B.2": E(
        lambda p: 20 * max(p["seeds"], p["seeds_large"]) * 3 * F8 * (p["cap"] / p["eval_every"] + 1)
        + p["seeds_large"] * (4 * F8 * p["large_width"] * (p["n"] + 2) + F8 * 1024 * (p["n"] + 3 * p["large_width"]))
        + 20 * p["seeds"] * F8 * 1024 * (64 + 3 * 10),
        "(seeds, cap / eval_every) curves of ~20 cells, row-4 width-large_width states and B = 1024 batch arrays",
        {"seeds": "lin", "seeds_large": "lin", "cap": "lin", "large_width": "lin", "n": "lin", "n_eval": "lin"},
        free=("eval_every",), memory_params=("row1", "row2")),
    "thesis_ch5.figure_5.2.center": E(
        lambda p: p["inits"] * p["streams"] * (3 * F8 * (p["steps"] / 10 + 1) + 4 * F8 * p["width"] * (p["n"] + 2)
                                               + F8 * p["batch"] * (p["n"] + 3 * p["width"])),
        "(inits x streams, steps / 10) loss curves, states and batch arrays",
        {"inits": "lin", "streams": "lin", "n": "lin", "width": "lin", "batch": "lin", "steps": "lin"}, free=("lr",)),
    # figures_b_arch: one cell (setting, n, k, B) at a time: (runs, P) float32 states (4 copies) and (runs, B, n + 3
    # width) batch arrays, width up to 1000 ((iii), (vi)); time ~ cells x rates x runs x cap x n (the capped runs of
    # the rate search dominate; the cost of one step, which grows with B and the width, is not modelled: the gpu
    # tier's B up to 1024 and width 1000 make it ~10^2 x slower on CPU than this says)
    "thesis_ch5.figure_B.3_B.4": E(
        lambda p: _arch_memory(p, [p["n"]]), "(runs, P) states and (runs, B, n + 3 width) batch arrays of one cell",
        work=lambda p: _arch_work(p, [p["n"]]),
        work_params=("n", "ks", "settings", "batches", "lrs", "runs", "cap"), memory_params=("n", "settings", "batches"),
        free=("screen", "eval_every", "n_eval")),
    "thesis_ch5.figure_B.5": E(
        lambda p: _arch_memory(p, _ints(p["ns"])), "(runs, P) states and (runs, B, n + 3 width) batch arrays of one cell",
        work=lambda p: _arch_work(p, _ints(p["ns"])),
        work_params=("ns", "ks", "settings", "batches", "lrs", "runs", "cap"), memory_params=("ns", "settings", "batches"),
        free=("screen", "eval_every", "n_eval")),
    # ---- thesis_ch6 ------------------------------------------------------------------------------------
    # popcounts(n) as int64 over 2^n and m sampled indices per resample
    "thesis_ch6.assumption_6.2": E(lambda p: cube(p["n"], 2 * F8), "popcounts(n) int64 over 2^n and sampled parities",
                                   {"n": "exp2", "resamples": "lin"}),
    # targets (trials,) and a Python loop over them, three times
    "thesis_ch6.warmup_sq": E(lambda p: 2 * F8 * p["trials"], "(trials,) int64 targets, a loop over them", {"trials": "lin"}),
    # ---- thesis_ch7 ------------------------------------------------------------------------------------
    # a loop over the moduli q <= p_max, each with q x q tables and q^3 logits (chunked): memory ~ 3 q^3
    # float64 at the largest q, time ~ sum_q q^3 ~ p_max^4 (all (a, b, c, k) up to p_exhaustive: ~ p^5)
    "thesis_ch7.all_frequencies_used": E(lambda p: 3 * F8 * max(p["p_max"], p["p_fft"]) ** 3, "q^3 float64 logits at the largest modulus",
                                         {"p_max": "quartic", "p_fft": "quartic"}),
    "thesis_ch7.cyclic_construction": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 logits at the largest modulus",
                                        {"p_max": "quartic"}),
    "thesis_ch7.cyclic_game_all_p": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 logits at the largest modulus",
                                      {"p_max": "quartic", "p_exec": "quartic"}),
    "thesis_ch7.width_3p": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 logits at the largest modulus",
                             {"p_max": "quartic"}),
    "thesis_ch7.intro_argmax_identity": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 tables at the largest modulus",
                                          {"p_max": "quartic", "p_exhaustive": "pow5"}),
    "thesis_ch7.theorem_7_7": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 logits at the largest modulus",
                                {"p_max": "quartic", "p_opt": "quartic", "restarts": "lin"}),
    "thesis_ch7.single_neuron_optimum_cyclic": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 logits at the largest modulus",
                                                 {"p_max": "quartic", "restarts": "lin"}),
    # ---- thesis_ch8 ------------------------------------------------------------------------------------
    # P (n, k, k), pi (n, k), chains x (n, t) int64, for k up to 5
    "thesis_ch8.icl_mc_data_model": E(lambda p: 2 * F8 * p["n"] * (p["t"] + 2 * 25), "(n, t) int64 chains and (n, 5, 5) transitions",
                                      {"n": "lin", "t": "lin"}),
    "thesis_ch8.ngram_extension": E(lambda p: 4 * F8 * p["n"] * (p["t"] + 8), "(n, t) int64 chains and per-order predictions",
                                    {"n": "lin", "t": "lin"}),
    # P (mc, 2, 2) transition matrices and their stationary laws; chains (chains, t) int64
    "thesis_ch8.proposition_8_2": E(lambda p: 3 * F8 * 6 * p["mc"] + 2 * F8 * p["chains"] * p["t"],
                                    "(mc, 2, 2) transition matrices and (chains, t) int64 chains",
                                    {"chains": "lin", "t": "quad", "mc": "lin"}, free=("c_scan",)),
    # P (n, k, k) for k up to max(k_list), its stationary vectors
    "thesis_ch8.unigram_strategy": E(lambda p: 3 * F8 * p["n"] * max(_ints(p["k_list"])) ** 2,
                                     "(n, k, k) transition matrices, 3 copies", {"n": "lin"},
                                     memory_params=("k_list",)),
}

#: reasons a claim's whole declared domain is cheap (tests/test_costs.py checks these two mechanically;
#: any other reason is a sentence from reading the check, listed in SAFE_BY_READING)
WITHIN_TESTED = ("every numeric parameter's declared maximum is at most DEFAULT_FACTOR x the largest value a tier runs, "
                 "and the full tier takes under a second: even 2^(max - full) growth stays under a few minutes")
ALL_VALUES_TESTED = "every parameter is a finite choice (or boolean) and some tier runs every choice"

#: reasons found by reading the claim's check (not mechanically checkable)
SAFE_BY_READING: dict[str, str] = {
    "thesis_ch7.parity_construction": "k_max <= 7 and k_symbolic <= 6 (the declared ranges): at both maxima the check "
                                      "takes 0.08 s in a warm process (measured 2026-11-27); its recorded full tier "
                                      "(~1 s) is mostly the worker's first sympy call",
    "seed002.corollary_27": "N_max only filters the fixed list N in (16, ..., 8192), all of which the full tier runs",
    "seed002.theorem_7": "N_max only filters the fixed list N in (16, ..., 8192), all of which the full tier runs",
    "seed002.assumption_1": "d_max only spans 25 geometric points of a closed form (gammaln): cost independent of d_max",
    "thesis_ch6.lemma_C.9.chain": "P only scales the nuisance features of psi (a number in the arithmetic of each case): "
                                  "cost independent of P",
    # part C
    "thesis_ch6.lemma_C.10": "n_max only bounds a doubling loop n = 50, 100, ... (at most 11 values up to 10^5) of scipy "
                             "binomial CDFs (O(1) each, 13 bisection steps): cost ~ log n_max, measured 10 s at 10^5",
    "thesis_ch6.proposition_6.3.frontier": "n_max only filters the fixed list n in (21, 51, 101, 301, 1001, 3001) of closed "
                                           "forms (a few exact binomials each): cost independent of n_max",
    "thesis_ch6.theorem_6.1.exponents": "n_max is only the upper end of two closed-form evaluations (exact binomials of "
                                        "n_max bits, milliseconds at 10^5): cost independent of n_max in practice",
    "thesis_ch6.theorem_C.16.precision": "n_max is only the upper end of two closed-form evaluations (exact binomials of "
                                         "n_max bits, milliseconds at 10^5): cost independent of n_max in practice",
    # part B
    "thesis_ch5.lemma_B.4.claim_4": "rho and n_factor only set the integer n fed to closed-form binomial tails (scipy "
                                    "binom.sf/cdf, cost independent of n) on fixed 2^k x 2^(k+1) grids, k in (2, 4): "
                                    "cost independent of both",
    # part A
    "seed001.theorem_6_softmax_icgd": "max_Dw only sets the largest of the ~sqrt(max_Dw) + 3 values D_w fed to a closed-form "
                                      "Fraction comparison (6 per D_w): at most ~600 comparisons over the declared domain",
}

ESTIMATES.update({
    "seed000.arch_4.1": loop("machines"),
    "seed000.def_D.5": loop("maps"),
    "seed001.def_11_softmax_block": loop("instances"),
    # samples only counts the iterations of the cached F4 loop (_f4_worst: range(samples)); constant memory each
    "seed001.lemma_16_softmax_ua": E(lambda p: 256.0 * p["samples"], "samples iterations of the cached F4 loop "
                                    "(_f4_worst), constant memory each", {"samples": "lin"}),
    # instances only counts the iterations of the cached instance loop (_lemma5_runs: range(instances)); constant memory each
    "seed001.lemma_5_backprop_ewml": E(lambda p: 256.0 * p["instances"], "instances iterations of the cached loop "
                                      "(_lemma5_runs), constant memory each", {"instances": "lin"}),
    "seed002.figure_1": loop("seeds", "rnn_seeds"),
    "seed002.lemma_40": E(lambda p: 16384.0 * p["instances"],
                          "instances drawn one by one (d <= 3: sympy Sigma, mu and an exact variance each) and kept for "
                          "the statement and its mutants: time and memory linear in instances",
                          {"instances": "lin"}, memory_params=("instances",)),
    # the instances are drawn once and cached (_def_4_4_instances: the printed statement and the mutants share them):
    # per instance at most ~1,100 float64 (T <= 32, d, k <= 8: X, the four weights, the loop form, X with [CLS], the
    # read-outs) plus eleven array headers, ~10 KB; modelled as 12 KiB each
    "thesis_ch4.def_4.4": E(lambda p: 12 * 1024.0 * p["instances"], "the cached instances (_def_4_4_instances), "
                            "~10 KB each", {"instances": "lin"}),
    # cached per-instance scalars (_a13_instances: T, d, k, the left side, three norms), shared with the mutants
    "thesis_ch4.lemma_A.13": E(lambda p: 1024.0 * p["instances"], "the cached per-instance scalars (_a13_instances)",
                               {"instances": "lin"}),
    "thesis_ch4.lemma_A.14": E(lambda p: 256.0 * p["instances"] * p["restarts"],
                               "Python loops of instances and restarts in the cached helpers _a14_instances and "
                               "_a14_adversarial (six floats kept per instance): time linear in each",
                               {"instances": "lin", "restarts": "lin"}, memory_params=("instances", "restarts")),
    # cached draws, block terms and block rows per instance (_a15_draws / _a15_instances / _a15_blocks: T <= 16,
    # d, k <= 8: ~a dozen arrays of <= 128 float64), modelled as 24 KiB each
    "thesis_ch4.lemma_A.15": E(lambda p: 24 * 1024.0 * p["instances"], "the cached instances (_a15_draws, "
                               "_a15_instances, _a15_blocks)", {"instances": "lin"}),
    # cached per-instance scalars (_a24_random: T, s, R, the left side); the length-T draws are not kept
    "thesis_ch4.lemma_A.24": E(lambda p: 1024.0 * p["instances"], "the cached per-instance scalars (_a24_random)",
                               {"instances": "lin"}),
    # cached per-instance draws and minima (_a8_instances: n <= 6, a, b, C, the minimum)
    "thesis_ch4.lemma_A.8": E(lambda p: 1024.0 * p["instances"], "the cached per-instance draws and minima "
                              "(_a8_instances)", {"instances": "lin"}),
    # instances only counts the iterations of the cached loop (_sec_4_4_2_worst keeps four worst ratios)
    "thesis_ch4.sec_4.4.2_remarks": E(lambda p: 256.0 * p["instances"], "instances iterations of the cached loop "
                                      "(_sec_4_4_2_worst), constant memory each", {"instances": "lin"}),
    "thesis_ch6.lemma_C.4": loop("neurons"),
    "thesis_ch7.eq_D1_reduction": loop("samples"),
    "thesis_ch7.homogeneity_normalized_margin": loop("samples"),
    "thesis_ch7.max_min_reformulation": loop("samples"),
    "thesis_ch8.transformer_and_margin_loss": loop("cases"),
})

# ---- issue 19 audit, part B: thesis_ch4, thesis_ch5 ----
def _arch_width(p) -> int:
    """Largest hidden width of the settings of thesis_ch5.figure_B.* (figures_b_arch): 1000, 100, 10 or k."""
    names = {v.strip() for v in str(p["settings"]).split(",")}
    return 1000 if names & {"iii", "vi"} else 100 if names & {"ii", "v"} else 10 if names & {"i", "iv"} else 16


def _arch_memory(p, ns) -> float:
    n, w, B = max(ns), _arch_width(p), max(_ints(p["batches"]))
    return p["runs"] * (4 * F8 * (n * w + 2 * w + 1) + F8 * B * (n + 3 * w) + 4 * F8)


def _arch_work(p, ns) -> float:
    cells = len(ns) * len(_ints(p["ks"])) * len([v for v in str(p["settings"]).split(",") if v.strip()])
    bs = _ints(p["batches"])
    return cells * len(bs) * len(str(p["lrs"]).split(",")) * p["runs"] * p["cap"] * max(ns)


def _nums(text, cast=int) -> list:
    """The items of a comma-separated list parameter ('' -> []; unparseable items skipped)."""
    out = []
    for item in str(text).split(","):
        try:
            out.append(cast(item.strip()))
        except ValueError:
            continue
    return out


def _triples(text, sep="x") -> list[tuple[int, ...]]:
    """'2x3x1,3x2x2' -> [(2, 3, 1), (3, 2, 2)] (unparseable items skipped)."""
    out = []
    for item in str(text).split(","):
        try:
            out.append(tuple(int(v) for v in item.strip().lower().split(sep)))
        except ValueError:
            continue
    return out


def _polynet_horizon(k, n1, delta, eps) -> float:
    """Theorem 5.8's horizon T (the claim module's own function; a float bound when it cannot be computed)."""
    try:
        from .hidden_progress.polynet_sgd import horizon

        return float(horizon(int(k), int(n1), float(delta), float(eps)))
    except Exception:  # an invalid size: the check itself refuses it
        return 6.0 * math.log(2 * k / eps) * (3 * n1 - 2.0) ** (2 * k - 1) * 40


def _polynet_runs(p, delta=None, adversary=False) -> tuple[float, float]:
    """(work, bytes) of the thesis_ch5.thm_5.8 family: runs x sum over the kxn'xB sizes of T B k n' SGD
    sample-steps (x 2 for B = 1: the complementary-init runs) plus the exact final errors (2^(n'-1) k n'
    Fraction steps per run); memory: the ~310 recorded checkpoints of every run (cached for all sizes) and
    the (runs, 310, k, 2^(n'-1)) float error table of one size; adversary paths: T 2^(k n') k n' steps and
    a few length-T float64 arrays each."""
    delta = p["delta"] if delta is None else delta
    runs = p["runs"]
    work = mem = top = 0.0
    for size in _triples(p["sizes"]):
        if len(size) != 3:
            continue
        k, n1, b = size
        T = _polynet_horizon(k, n1, delta, p["eps"])
        work += runs * (T * b * k * n1 * (2 if b == 1 else 1) + 100.0 * k * n1 * 2.0 ** (n1 - 1))
        mem += 2 * F8 * runs * 310 * k * (n1 + 1)
        top = max(top, 10.0 * runs * 310 * k * 2.0 ** (n1 - 1))
    if adversary:
        for pair in _triples(p["adversary"]):
            if len(pair) != 2:
                continue
            k, n1 = pair
            T = _polynet_horizon(k, n1, delta, p["eps"])
            work += T * 2.0 ** (k * n1) * k * n1
            mem += 8 * F8 * T
    return max(work, 1.0), mem + top


def _cells(text) -> list[tuple[int, float]]:
    """thesis_ch5.grokking cells 'm:lambda' with '/'-lists (their product), unparseable items skipped."""
    out = set()
    for item in str(text).split(","):
        try:
            ms, ls = item.strip().split(":")
            out.update((int(m), float(lam)) for m in ms.split("/") for lam in ls.split("/"))
        except ValueError:
            continue
    return sorted(out)


def _printed(claim_id: str):
    from .registry import get_claim

    return get_claim(claim_id).printed


def _b4_n(p) -> float:
    """Lemma B.4's largest n = c k^4 rho^2 log(2k/eps) over its k <= k_max, eps >= 1e-15 (the printed rule)."""
    try:
        return float(max(_printed("thesis_ch5.lemma_B.4").n_rule(k, 1e-15, p["rho"]) for k in range(2, p["k_max"] + 1, 2)))
    except Exception:
        return 32.0 * p["k_max"] ** 4 * p["rho"] ** 2 * math.log(2e15 * p["k_max"])


def _b5_batch(p) -> float:
    """Lemma B.5's Hoeffding batch size B at (hoeff_tau, hoeff_n, 2 hoeff_pairs, delta = 0.1) (the printed rule)."""
    try:
        return float(_printed("thesis_ch5.lemma_B.5").batch(p["hoeff_tau"], p["hoeff_n"], 2 * p["hoeff_pairs"], 0.1))
    except Exception:
        return 32.0 / p["hoeff_tau"] ** 2 * math.log(80.0 * p["hoeff_n"] * p["hoeff_pairs"])


def _t57_work(p) -> float:
    """thesis_ch5.thm_5.7.full: exact block laws (2^(n'-1) sums per block, k blocks, per init and gamma),
    Monte Carlo block laws (mc_samples sums per block) and the plotted flows (12 per n')."""
    ks, nps, mks, mnps = _nums(p["ks"]), _nums(p["n_primes"]), _nums(p["mc_ks"]), _nums(p["mc_n_primes"])
    g = 1 + len(_nums(p["gammas"], float))
    exact = sum(k * n * 2.0 ** (n - 1) for k in ks for n in nps)
    mc = sum(k * (n + 10) * float(p["mc_samples"]) for k in mks for n in mnps)
    return p["inits"] * g * (exact + mc) + sum(24 * n * 2.0 ** (n - 1) for n in _nums(p["plot_n_primes"]))


def _t57_memory(p) -> float:
    mks, mnps = _nums(p["mc_ks"]), _nums(p["mc_n_primes"])
    nps = _nums(p["n_primes"]) + _nums(p["plot_n_primes"])
    mc = 2 * F8 * p["inits"] * max(mks) * p["mc_samples"] + p["mc_samples"] * max(mnps) if mks and mnps else 0.0
    return (2 * F8 * p["bootstrap"] * p["inits"] + mc + 8 * F8 * p["ingredient_draws"]
            + 4 * F8 * 5 * 2.0 ** (max(nps, default=2) - 1))


def _eq_b5_work(p) -> float:
    """thesis_ch5.eq_B.5: exact xi_k(n) are Fractions of n-bit integers (gcd ~ n^2 bit operations), over
    the odd n in [2(k+1)^2 + 1, + n_span] and 10^e + 1 (e <= log10_n_large) for even k <= k_max, plus the
    constants' Lemma B.1 weights at n = 2k^2 + 1, 20k^2 + 1 (exact up to 20000)."""
    w = 0.0
    for k in range(2, p["k_max"] + 1, 2):
        a = 2.0 * (k + 1) ** 2 + 1
        b = a + p["n_span"]
        w += (b**3 - a**3) / 6 + sum((10.0**e + 1) ** 2 for e in range(4, p["log10_n_large"] + 1))
    return w + sum(min(f * k * k + 1.0, 20000.0) ** 2 for k in range(1, p["k_max_constants"] + 1, 2) for f in (2, 20))


def _b1_asym_work(p) -> float:
    """thesis_ch5.lemma_B.1.asymptotic: Lemma B.1 weights W^k(n) at n = f k^2 + 1 (exact Fractions of
    n-bit integers up to n = 20000, ~n^2 each, mpmath beyond), and the search's 40 x 7 evaluations per restart."""
    fs = [2, 4, 10, 20, 50, 100][: p["n_factors"]]
    grid = sum(min(f * k * k + 1.0, 20000.0) ** 2 for k in range(1, p["k_max"] + 1, 2) for f in fs)
    return grid + p["search_restarts"] * 2 * 280 * 20000.0**2


_SYMBOLIC = "sympy expressions (no parameter-driven arrays)"

#: thesis_ch5.layerwise.training_L3 / _L4 (the same poly_mlp_sgd grid at depth 3 and 4)
_LAYERWISE_TRAINING = E(
    lambda p: 3 * F8 * (min(2.0 ** max(_nums(p["ns"]) + _nums(p["xavier_ns"]) + [1]), 65536) + 64000)
    * max(_nums(p["ns"]) + _nums(p["xavier_ns"]) + [1]),
    "evaluation set over min(2^n, 65536) points and batch chunks of 2000 x 32 samples",
    work=lambda p: p["seeds"] * (sum(n + 8.0 for n in _nums(p["ns"]) for _ in _nums(p["ks"]))
                                 + (_nums(p["ns"])[0] + 8.0 if p["sanity_k"] and _nums(p["ns"]) else 0.0)
                                 + sum(n + 8.0 for n in _nums(p["xavier_ns"]) for _ in _nums(p["ks"]))) or 1.0,
    work_params=("ns", "ks", "seeds", "sanity_k", "xavier_ns"))


ESTIMATES.update({
    # --- thesis_ch4 ---
    # C(T, s) selector heads for T = 8, 16, ..., T_max: each builds (T + 3)^2 weight matrices and is run on
    # m inputs; F (C(T, s), m) float64 holds their outputs
    "thesis_ch4.cor_4.9": E(lambda p: F8 * math.comb(p["T_max"], p["s"]) * p["m"] + 6 * F8 * (p["T_max"] + 3) ** 2,
                            "(C(T, s), m) float64 head outputs and (T + 3)^2 head weights",
                            work=lambda p: sum(math.comb(T, p["s"]) * ((T + 3.0) ** 2 + p["m"] * T)
                                               for T in (8, 16, 32, 64, 128, 256, 512, 1024) if T <= p["T_max"]),
                            work_params=("T_max", "m", "s")),
    # a while loop appending (A, C, m) tuples up to `instances`, one bounded minimisation each
    "thesis_ch4.cor_A.3": E(lambda p: 300.0 * p["instances"], "a list of instances tuples (A, C, m)", {"instances": "lin"}),
    # pairs of length-T softmax inputs (T <= T_max), T x T Jacobians for the first 300 pairs and at T_max
    "thesis_ch4.cor_A.7": E(lambda p: 4 * F8 * p["T_max"] ** 2, "T_max x T_max softmax Jacobians (4 copies)",
                            {"pairs": "lin", "T_max": "quad"}),
    # exact_proper_cover: exhaustive set cover over the subsets of K <= K_max functions
    "thesis_ch4.def_4.1": E(lambda p: F8 * p["K_max"] ** 2 * 8, "K x K distance tables; exhaustive cover over 2^K subsets",
                            {"instances": "lin", "K_max": "nexp2"}),
    # T_max random unit vectors in d = 192 ln T dimensions, their T x T Gram matrix and diag(b) (T x T)
    "thesis_ch4.defs_A.2.1": E(lambda p: 4 * F8 * p["T_max"] ** 2 + 2 * F8 * p["T_max"] * 200 * math.log(p["T_max"]),
                               "T x T Gram matrix, |G|, diag(b) and products; (T, 192 ln T) vectors",
                               {"T_max": "cubic"}),
    # per trial an (m_max, T) stream (float64 draws, bool), bisection with exact consistent-set counts,
    # for T in (16, ..., 10000) up to T_max
    "thesis_ch4.fig_4.2": E(lambda p: 2 * 9.0 * p["m_max"] * p["T_max"] + 64 * 2**20,
                            "(m_max, T) float64 draws and bool samples, 2 copies; 3-subset tables of the candidates",
                            {"trials": "lin", "T_max": "quad", "m_max": "nlogn"}),
    # forward_reference on (2000 + m_max, T + 1, d) float64 embeddings (X, concat, K, products) per training
    "thesis_ch4.fig_4.2.transformer": E(
        lambda p: 4 * F8 * (2000 + p["m_max"]) * (p["T_max"] + 1) * p["d"] + 2 * F8 * (2000 + p["m_max"]) * p["T_max"],
        "(2000 + m_max, T + 1, d) float64 embeddings, 4 copies, and int64 bit streams",
        {"T_max": "quad", "trials": "lin", "restarts": "lin", "steps": "lin", "d": "quad", "m_max": "nlogn"}),
    "thesis_ch4.fig_4.3": E(lambda p: 4 * F8 * (2000 + p["m"]) * (p["T"] + 1) * p["d"] + 2 * F8 * (2000 + p["m"]) * p["T"],
                            "(2000 + m, T + 1, d) float64 embeddings, 4 copies, and int64 bit streams",
                            {"T": "lin", "d": "quad", "m": "lin", "steps": "lin", "seeds": "lin"}),
    # parity_elimination_counts: C(T, 3) x 3 int64 subsets, chunk parities and masks per trial, T <= T_max
    "thesis_ch4.fig_4.4": E(lambda p: 64.0 * math.comb(p["T_max"], 3) + F8 * 96 * p["T_max"] + 2**10 * 200,
                            "C(T, 3) x 3 int64 subset table and its per-chunk parities",
                            {"trials": "lin", "T_max": "cubic", "train_steps": "lin"}),
    "thesis_ch4.lemma_4.7": E(lambda p: 8 * F8 * 8 * p["T_max"], "(T <= T_max, d <= 8) token matrices per instance",
                              {"instances": "lin", "T_max": "lin"}),
    # product_cover_gap: head outputs of all (K/2, K) score/value pairs, (K/2) x K x 2 float64, 5 copies
    "thesis_ch4.lemma_A.11": E(lambda p: 5 * F8 * p["K"] ** 2 + 4096.0 * p["instances"],
                               "(K/2, K, 1, 2) float64 head outputs of all pairs, 5 copies", {"K": "quad", "instances": "lin"}),
    # SLSQP on 2H variables for H = 1..H_max (a dense (2H)^2 Hessian approximation; ~H^3 per iteration)
    "thesis_ch4.lemma_A.12": E(lambda p: 8 * F8 * (2 * p["H_max"]) ** 2 + 4096.0, "SLSQP on 2H variables",
                               {"H_max": "quartic", "instances": "lin"}),
    # rademacher_linear_exhaustive: the 2^m x m sign matrix and its products with X (m x 3)
    "thesis_ch4.lemma_A.2": E(lambda p: signs(p["m_exh"]), "2^m x m sign matrix and 2^m products",
                              {"instances": "lin", "m_exh": "nexp2"}),
    # per (s <= 3, gamma, Delta): Cholesky of a T x T Gram matrix, (T, T + 3) positional vectors, (T + 1, T + 3)
    # embeddings evaluated on 2^s + 5 inputs
    "thesis_ch4.lemma_A.21": E(lambda p: 6 * F8 * (p["T_max"] + 3) ** 2, "T x T Gram, Cholesky factor, (T, T + 3) vectors and embeddings",
                               {"T_max": "cubic"}),
    # selector_head_det_p(T): (T + 3)^2 weight matrices, evaluated on 2^s patterns for s <= s_max
    "thesis_ch4.lemma_A.22": E(lambda p: 8 * F8 * (p["T"] + 3) ** 2, "(T + 3)^2 head weights and (T + 1, T + 3) embeddings",
                               {"s_max": "exp2", "T": "quad", "functions": "lin"}),
    # 60 bisection steps x 2^s patterns of (T + 1, T + 3) embeddings; memorisation nets with 2^s centres
    "thesis_ch4.lemma_A.23": E(lambda p: 8 * F8 * (p["T"] + 3) ** 2 + F8 * 4.0 ** p["s_max"] * 16,
                               "(T + 3)^2 head weights and embeddings; 2^s-centre memorisation nets",
                               {"s_max": "exp4", "T": "quad", "functions": "lin"}),
    # memorisation_net on (17 + z_draws) n perturbed points: hidden layers of 4 n d_f and 2 n units
    "thesis_ch4.lemma_A.25": E(lambda p: 3 * F8 * (17 + p["z_draws"]) * p["n_max"] * (4 * p["n_max"] * p["df_max"] + 2 * p["n_max"] + 2),
                               "(points, 4 n d_f) and (points, 2 n) float64 activations for (17 + z_draws) n points, 3 copies",
                               {"instances": "lin", "n_max": "cubic", "df_max": "quad", "z_draws": "lin"}),
    # selector_head_bag(T) for T in (16, 64, T_max): (T, T + 3) positional vectors, (T + 3)^2 weights, embeddings
    "thesis_ch4.prop_4.12": E(lambda p: 6 * F8 * (p["T_max"] + 3) ** 2, "(T + 3)^2 head weights, positional vectors and embeddings",
                              {"T_max": "quad"}),
    # selector_head_trainable_p(T): (T, 4) positional rows and (T + 1, 4) embeddings for T in (10, ..., 10^6) <= T_max
    "thesis_ch4.sec_4.5": E(lambda p: 8 * F8 * 4 * (p["T_max"] + 1), "(T + 1, 4) float64 embeddings, 8 copies", {"T_max": "lin"}),
    # per (M, s): categorical heads on fill M^s inputs ((T + 1) x (T + M + 1) context each), a memorisation net
    # with M^s centres in s <= 3 dimensions evaluated on the fill M^s head outputs
    "thesis_ch4.sec_A.2.4": E(
        lambda p: 4 * F8 * (p["T"] + 1) * (p["T"] + p["M_max"] + 1)
        + 3 * F8 * p["fill"] * p["M_max"] ** 3 * (14 * p["M_max"] ** 3 + 2),
        "(fill M^3, 12 M^3) and (fill M^3, 2 M^3) float64 net activations; (T + 1) x (T + M + 1) contexts",
        work=lambda p: sum(p["fill"] * M**s * ((p["T"] + 1.0) * (p["T"] + M + 1) + 16 * s * M**s)
                           for M in range(2, p["M_max"] + 1) for s in (1, 2, 3)),
        work_params=("M_max", "T", "fill")),
    # exact Fractions: (instances + 1) x (L_max + 1) layers; per L a product over up to L layers (~L^3 digits work)
    "thesis_ch4.thm_4.11": E(lambda p: 1000.0 * (p["instances"] + 1) * (p["L_max"] + 1), "(instances, L_max + 1) Fraction layer norms",
                             {"instances": "lin", "L_max": "cubic"}),
    # product_cover_gap on K score and K value parameters: head outputs (K, K, m, 2) float64, 5 copies;
    # (K, m T) scores and (K, m T, 2) values
    "thesis_ch4.thm_4.6": E(lambda p: 5 * F8 * p["K"] ** 2 * p["m"] * 2 + 4 * F8 * p["K"] * p["m"] * p["T"] * 3,
                            "(K, K, m, 2) float64 head outputs of all pairs, 5 copies; (K, m T, 2) values",
                            {"K": "quad", "m": "lin", "T": "lin"}),
    # --- thesis_ch5 ---
    # the SGD runs of Theorem 5.8 (shared by the four claims), their horizon T(k, n', delta, eps)
    "thesis_ch5.thm_5.8": E(lambda p: _polynet_runs(p)[1], "(runs, 310, k, n') checkpoints per size and the error table",
                            work=lambda p: _polynet_runs(p)[0], work_params=("sizes", "runs", "delta", "eps")),
    "thesis_ch5.thm_5.8.azuma": E(lambda p: _polynet_runs(p)[1], "(runs, 310, k, n') checkpoints per size and the error table",
                                  work=lambda p: _polynet_runs(p)[0], work_params=("sizes", "runs", "delta", "eps")),
    "thesis_ch5.thm_5.8.main": E(lambda p: _polynet_runs(p, delta=0.01)[1],
                                 "(runs, 310, k, n') checkpoints per size (delta = 0.01) and the error table",
                                 work=lambda p: _polynet_runs(p, delta=0.01)[0], work_params=("sizes", "runs", "eps")),
    "thesis_ch5.claim_B.11": E(lambda p: _polynet_runs(p, adversary=True)[1],
                               "(runs, 310, k, n') checkpoints per size; length-T adversarial paths",
                               work=lambda p: _polynet_runs(p, adversary=True)[0],
                               work_params=("sizes", "runs", "delta", "eps", "adversary")),
    "thesis_ch5.claim_B.12": E(lambda p: _polynet_runs(p, adversary=True)[1],
                               "(runs, 310, k, n') checkpoints per size; length-T adversarial paths and envelopes",
                               work=lambda p: _polynet_runs(p, adversary=True)[0],
                               work_params=("sizes", "runs", "delta", "eps", "adversary")),
    # poly_mlp_forward tables over {+-1}^n (int64 or Python ints) and their transforms, k' <= 4
    "thesis_ch5.constructions.low_degree": E(lambda p: 2.0 ** p["n_max"] * (F8 * (p["n_max"] + 6) + 200),
                                             "2^n x n cube, tables and transforms (some as Python ints)",
                                             {"n_max": "nexp2", "kprime_max": "lin", "trials": "lin"}),
    # _relu_net_table on {+-1}^(k+2) (a Python list of Fractions) for k <= k_max; the exact LP decision only for
    # k <= k_lp <= 2 (k_lp's declared maximum is the full tier's value); least squares for k in (2, 3, 4)
    "thesis_ch5.constructions.mlp_relu_width": E(lambda p: signs(p["k_max"] + 2) + 200 * 2.0 ** (p["k_max"] + 2),
                                                 "2^(k+2) x (k+2) cube and a list of Fractions over it",
                                                 {"k_max": "nexp2", "search_starts": "lin"}, free=("k_lp",)),
    # per n <= n_max: min(2^n - 1, subsets) masks, each a product of |S| factors over the 2^n x n cube
    "thesis_ch5.constructions.polynet": E(lambda p: signs(p["n_max"]), "2^n x n int64 cube and products",
                                          work=lambda p: sum(min(2.0**n - 1, p["subsets"]) * 2.0**n * n * n
                                                             for n in range(1, p["n_max"] + 1)),
                                          work_params=("n_max", "subsets")),
    # one_minus_ratio: exact route = binomial counts of n-bit integers (~n^2 per n', n' <= n_exact_max), float
    # route = scipy tails on a window of ~sqrt(n') levels; the gamma-slope part runs the float route at n_slope
    "thesis_ch5.cor_B.10": E(lambda p: F8 * p["n_exact_max"] ** 2 / 4 + 64 * F8 * math.sqrt(max(p["n_float_max"], p["n_slope"])),
                             "binomial counts of n-bit integers (exact route); sqrt(n')-long float tail windows",
                             {"n_exact_max": "cubic", "n_float_max": "lin", "n_float_points": "lin", "n_slope": "lin",
                              "gamma_points": "lin"}),
    "thesis_ch5.thm_5.7": E(lambda p: F8 * p["n_exact_max"] ** 2 / 4 + 64 * F8 * math.sqrt(p["n_float_max"]),
                            "binomial counts of n-bit integers (exact route); sqrt(n')-long float tail windows; "
                            "n_calibration only selects which computed points calibrate K",
                            {"n_exact_max": "cubic", "n_float_max": "lin", "n_float_points": "lin"}, free=("n_calibration",)),
    # sympy limits of (n/k)^k / C(n, k) for k <= k_max (polynomials of degree k), sandwich over m <= n_sandwich_max
    "thesis_ch5.disjoint_polynet.counting": E(lambda p: 64.0 * 2**20, _SYMBOLIC + "; k x n_sandwich_max interval checks",
                                              {"k_max": "quartic", "n_sandwich_max": "lin"}),
    # exact Fractions of n-bit integers; c_ratio is one Fraction factor of each comparison (cost independent)
    "thesis_ch5.eq_B.5": E(lambda p: 64.0 * 2**20 + 10.0**p["log10_n_large"] / 2,
                           "Fractions of n-bit integers (no arrays); c_ratio is a scalar factor of every comparison",
                           work=_eq_b5_work, work_params=("k_max", "n_span", "log10_n_large", "k_max_constants"),
                           free=("c_ratio",)),
    # train_two_layer(width 100) on every cell for all seeds at once: 3 (seeds, budget/eval_every) float64
    # curves per cell (kept for all cells) and (seeds, 100 (n + 2)) parameters with Adam state
    "thesis_ch5.grokking": E(
        lambda p: 3 * F8 * p["seeds"] * (p["budget"] / p["eval_every"] + 1) * max(len(_cells(p["cells"])), 1)
        + 5 * F8 * p["seeds"] * 100 * (p["n"] + 2),
        "3 (seeds, budget/eval_every) float64 curves per cell; (seeds, 100 (n + 2)) parameters, 5 copies",
        {"k": "lin"},
        work=lambda p: sum(p["seeds"] * (p["n"] + 1.0) * 100 * (32 * p["budget"] + p["budget"] / p["eval_every"] * (1000 + m))
                           for m, _ in _cells(p["cells"])) or 1.0,
        work_params=("n", "cells", "seeds", "budget", "eval_every")),
    # per (n:k size, lr): seeds sine neurons for budget 0.05/lr steps, ~2.5 budget snapshots of n + 2 floats per
    # run kept (parity and noise runs, float64), plus the extras (3 more (size, lr) cells at most per size)
    "thesis_ch5.hidden_progress.rho": E(
        lambda p: sum(2 * F8 * p["seeds"] * (2.5 * p["budget"] + 1) * (n + 2) for n, _ in (t for t in _triples(p["sizes"], ":") if len(t) == 2))
        * (len(_nums(p["lrs"], float)) + 3),
        "(seeds, 2.5 budget, n + 2) float64 snapshots of the parity and noise runs per (size, lr)",
        work=lambda p: sum(p["seeds"] * p["budget"] * 0.05 / max(lr, 1e-12) * 32 * (n + 1) * 2
                           for n, _ in (t for t in _triples(p["sizes"], ":") if len(t) == 2) for lr in _nums(p["lrs"], float) + [0.05] * 3) or 1.0,
        work_params=("sizes", "lrs", "seeds", "budget")),
    # multilinear degree of random z^2 nets over {+-1}^n (values square at every layer: Python ints beyond int64)
    "thesis_ch5.layerwise.degree_bound": E(lambda p: 2.0 ** p["n_max"] * (p["n_max"] + 8) * 64,
                                           "2^n x (n + widths) tables (object ints at depth), transforms",
                                           {"L_max": "exp4", "n_max": "nexp2", "trials": "lin"}),
    # sympy: the downstream polynomial in 2 variables has degree 2^(L-1): ~4^L terms, squared at each layer
    "thesis_ch5.layerwise.downstream_degree": E(lambda p: 64.0 * 2**20, _SYMBOLIC + " (bivariate, degree 2^(L-1))",
                                                work=lambda p: p["trials"] * sum(16.0**L for L in range(2, p["L_max"] + 1)),
                                                work_params=("L_max", "trials")),
    # every mask S of {+-1}^n: an exact population gradient over the 2^n points (4^n n per n), plus fd_checks
    # finite differences (two population losses over 2^n) at three masks
    "thesis_ch5.layerwise.gradient_vanishes": E(
        lambda p: signs(p["n_max"]) + 200 * 2.0 ** p["n_max"], "2^n x n sign vectors, layer outputs and Fractions over 2^n",
        work=lambda p: sum(p["trials"] * n * 4.0**n + p["fd_checks"] * 6 * n * 2.0**n for n in range(3, p["n_max"] + 1)),
        work_params=("n_max", "trials", "fd_checks")),
    "thesis_ch5.layerwise.single_layer": E(lambda p: signs(p["n_max"]) + 8 * F8 * 2.0 ** p["n_max"],
                                           "2^n x n cube, width-4 tables and transforms; sympy in k variables",
                                           {"k_max": "cubic", "n_max": "nexp2", "trials": "lin"}),
    # poly_mlp_sgd (n <= 64, the statement's 20000-step budget): per seed and (n, k) config, steps x batch x n
    # and evaluations on min(2^n, 65536) points; k only picks the target (cost independent)
    "thesis_ch5.layerwise.training_L3": _LAYERWISE_TRAINING,
    "thesis_ch5.layerwise.training_L4": _LAYERWISE_TRAINING,
    # exact tables over {+-1}^n (Fractions / Python ints in lists) for n <= n_max; random (2, 1) nets on n = 6
    "thesis_ch5.layerwise.width_2_1": E(lambda p: 2.0 ** p["n_max"] * (p["n_max"] + 8) * 64,
                                        "2^n-long object tables and lists over the cube", {"n_max": "nexp2", "random_nets": "lin"}),
    # Lemma B.1 weights as exact Fractions; limit_proofs sympy limits of growing degree
    "thesis_ch5.lemma_B.1.asymptotic": E(lambda p: 64.0 * 2**20, "Fractions of n-bit integers (n <= 20000) and sympy limits",
                                         {"limit_proofs": "quad"}, work=_b1_asym_work,
                                         work_params=("k_max", "n_factors", "search_restarts")),
    # per odd n <= n_max: the exact spectrum (Krawtchouk sums of n-bit integers) and n/2 sympy ratios
    "thesis_ch5.lemma_B.2.ratio": E(lambda p: F8 * p["n_max"] ** 2, "exact spectra of Maj_n (n Fractions of n bits)",
                                    {"n_max": "quartic"}),
    # _Support(k, n): the irrelevant sum's central range, 8 sqrt(n) + 1 points with n = c k^4 rho^2 log(2k/eps);
    # features (k + 1, 8 sqrt(n), r) and the hinge terms; the LP is binned (400 bins)
    "thesis_ch5.lemma_B.4": E(lambda p: 6 * F8 * (p["k_max"] + 1) * (8 * math.sqrt(_b4_n(p)) + 1) * 2 * p["k_max"],
                              "(k + 1, 8 sqrt(n), r) float64 features over the binomial support, 6 copies; "
                              "k_max and eps_min_exp cannot exceed the full tier's values (their declared maxima)",
                              {"rho": "lin"}, free=("k_max", "eps_min_exp")),
    # exact elimination on (k + 1) x k Fraction systems for even k <= k_max; draws x k least squares, starts
    # Nelder-Mead runs for k in (2, 4, 6)
    "thesis_ch5.lemma_B.4.claim_5": E(lambda p: 64.0 * 2**20 + 4 * F8 * p["draws"] * 8, "Fraction systems; (draws, k <= 6) biases",
                                      {"k_max": "pow5", "draws": "lin", "starts": "lin"}),
    # Monte Carlo cover: inits x r/2 ~ (2k - 1) 2^k log(k/delta) pair draws in 4e6-entry chunks; Hoeffding
    # batches (B, hoeff_n) and (B, 2 pairs) float32 per trial, (bisect + 2) rounds; exact gradients over 2^hoeff_n
    "thesis_ch5.lemma_B.5": E(lambda p: 6 * F8 * 4e6 + 3 * 4 * _b5_batch(p) * (p["hoeff_n"] + 4 * p["hoeff_pairs"])
                              + 100.0 * 2 ** p["hoeff_n"] * 2 * p["hoeff_pairs"],
                              "4e6-entry Monte Carlo chunks, (B, n + 2r) float32 batches, exact gradients over 2^hoeff_n",
                              {"hoeff_n": "nexp2", "hoeff_pairs": "lin", "hoeff_tau": "inv2", "hoeff_trials": "lin",
                               "bisect": "lin"},
                              work=lambda p: p["inits"] * sum(k * k * 2.0**k for k in range(2, p["k_max"] + 1, 2)),
                              work_params=("k_max", "inits")),
    # _lemma_b8_data (shared by the two claims): per k <= k_max the families of `inits` initialisations
    # (thresholds, flow times, Maclaurin Fractions), then full flows over the cube for k n' <= n_full_max
    "thesis_ch5.lemma_B.8": E(lambda p: F8 * p["inits"] * p["k_max"] * 64 * 4 + cube(p["n_full_max"], F8 * (p["n_full_max"] + 8)),
                              "(inits, k, levels) flow tables per family; full flows over 2^(k n') points",
                              {"k_max": "cubic", "inits": "lin", "n_full_max": "nexp2", "full_inits": "lin"}),
    "thesis_ch5.lemma_B.8.blowup_time": E(
        lambda p: F8 * p["inits"] * p["k_max"] * 64 * 4 + cube(p["n_full_max"], F8 * (p["n_full_max"] + 8)),
        "(inits, k, levels) flow tables per family; full flows over 2^(k n') points (the data of thesis_ch5.lemma_B.8)",
        {"k_max": "cubic", "inits": "lin", "n_full_max": "nexp2", "full_inits": "lin"}),
    # neurons for n = 4..n_max, 4 families, k <= 4, `draws` each: tables and transforms over 2^n
    "thesis_ch5.prop_B.7": E(lambda p: cube(p["n_max"], F8 * (p["n_max"] + 6)), "tables, transforms and gradients over 2^n",
                             {"n_max": "nexp2", "draws": "lin"}),
    "thesis_ch5.prop_B.7.proof_step": E(lambda p: cube(p["n_max"], F8 * (p["n_max"] + 6)), "tables, transforms and gradients over 2^n",
                                        {"n_max": "nexp2", "draws": "lin"}),
    # fixed instances (n <= 10): (trials, 2^n) int64 multinomial batch counts and their float products, per
    # bisection step; delta only sets the batch size B (a multinomial row costs 2^n draws whatever B) and
    # confidence only the Clopper-Pearson bounds
    "thesis_ch5.prop_B.7.sample_complexity": E(lambda p: 3 * F8 * p["trials"] * 1024, "(trials, 1024) int64 batch counts, 3 copies",
                                               {"trials": "lin", "bisect": "lin"}, free=("delta", "confidence")),
    # the existing estimate (thesis_ch5 block above) plus k: the parity degree only changes the labels (O(k) per
    # sample); every run stops at the `steps` budget
    "thesis_ch5.random_search.width": E(
        lambda p: 3 * F8 * p["runs"] * max(_ints(p["widths"])) * (p["n"] + 2) + 2 * F8 * p["boot"] * p["runs"],
        "(runs, width, n + 2) float64 parameters and gradients, (boot, runs) bootstrap resamples; k only sets the "
        "parity's degree (labels O(k) per sample, runs bounded by `steps`)",
        {"n": "lin", "runs": "lin", "steps": "lin", "batch": "lin", "boot": "lin"}, free=("lr", "eval_every", "k"),
        memory_params=("widths",)),
    # the existing estimate plus envelope: one LP lower envelope per n:k:r triple (odd n <= 15, r <= 256) over 2^n
    "thesis_ch5.thm_5.5": E(lambda p: signs(p["n"]) + 3 * F8 * p["r"] * 2.0 ** p["n"]
                            + max((3 * F8 * r * 2.0**n for n, _, r in (t for t in _triples(p["envelope"], ":") if len(t) == 3)),
                                  default=0.0),
                            "sign_vectors(n) and (2^n, r) activations; (2^n, r) envelope LPs",
                            {"n": "nexp2", "r": "lin", "inits": "lin", "t_fraction": "lin", "eps": "inv2"},
                            work=lambda p: 1.0 + sum(n * 2.0**n * r for n, _, r in (t for t in _triples(p["envelope"], ":")
                                                                                    if len(t) == 3)) / 1e6,
                            work_params=("envelope",)),
    # NTK embeddings on {+-1}^n, n = 6, 8, ..., n_max, k in (2, 3): a hinge infimum over 2^n points per |S| = k
    "thesis_ch5.thm_5.6": E(lambda p: F8 * 2.0 ** p["n_max"] * (3 * 64 + math.comb(p["n_max"], 3)),
                            "(2^n, D <= 64) embeddings and a 2^n label table per subset", {"n_max": "exp4", "draws": "lin"}),
    "thesis_ch5.thm_5.6.dimension_free": E(lambda p: F8 * 2.0 ** p["n_max"] * (3 * 64 + math.comb(p["n_max"], 3)),
                                           "(2^n, D <= 64) embeddings and a 2^n label table per subset",
                                           {"n_max": "exp4", "draws": "lin"}),
    # the existing estimate's time laws (bootstrap, ingredient_draws) plus the list parameters (work) and the
    # (inits, k, mc_samples) float64 Monte Carlo block sums the old memory model missed
    "thesis_ch5.thm_5.7.full": E(_t57_memory, "(inits, k, mc_samples) float64 Monte Carlo block sums, (bootstrap, inits) "
                                 "resamples, 2^(n'-1) exact block laws",
                                 {"bootstrap": "lin", "ingredient_draws": "lin"}, work=_t57_work,
                                 work_params=("ks", "n_primes", "gammas", "mc_ks", "mc_n_primes", "plot_n_primes", "inits",
                                              "mc_samples")),
    # readout SGD: runs x sum_{T = 2^j <= 2^log2_t_max} T steps per instance and radius; per-run averages only
    "thesis_ch5.thm_B.6": E(lambda p: 8 * F8 * p["runs"] * 4, "(runs,) seeds and averages per horizon",
                            {"runs": "lin", "log2_t_max": "exp2"}),
})
