"""Thesis ch. 6 + App. C (seed 004): "Pareto Frontiers in Deep Feature Learning: Data, Compute, Width,
and Luck" (Edelman, Goel, Kakade, Malach, Zhang, NeurIPS 2023).

Catalog: thesis_ch6_pareto_sq.md (not shipped; see docs/sources.md) (entries E1-E28).  Modules, grouped by topic:

* ``sq_lower_bound``  E1-E5      parity orthogonality and ERM, Assumption 6.2, Lemma C.1, Prop. 6.3 (the
                                 visibility count and the frontier surface), the warm-up SQ algorithms
* ``oversparse``      E7-E10, E12  lottery probability, Fourier gap of good / bad over-sparse neurons,
                                 rho bounds, the parity readout psi*
* ``oversparse_width`` E16, E17, E28  r'-good initialisation, the width rule of Theorem 6.4 / C.11,
                                 exact sparsity
* ``undersparse``     E6, E18-E22  Half/Maj coefficients, under-sparse correlations, Thm C.16 gap ratio,
                                 exponents of Theorem 6.1
* ``readout``         E11, E13-E15  concentration of the first gradient at init, Lipschitz readout loss,
                                 generalisation with transfer (Lemma C.8), the bound chain of Lemma C.9
* ``one_step_training`` E17, E22  Theorem C.11's algorithm executed at n = 12 (lottery x one-step-feature
                                 law of the error vs width and samples), Theorem C.16's sample size m_50%(n)
* ``experiments``     E23-E27    the empirical Pareto frontier, data vs time and lottery tickets at CPU
                                 sizes; bookkeeping of the tabular reference numbers and compute
"""

SOURCE = "thesis_ch6"
CONTRACT_AUDITED = True  # every module of verify/pareto_sq audited under the verdict contract (docs/audit/thesis_ch6_*.md)
SEED_FILE = "seeds/004_04714447523023d5.txt"
CATALOG_FILE = "thesis_ch6_pareto_sq.md"
CATALOG_ENTRIES = {
    "E1": "Parity facts and SQ dimension",
    "E2": "Assumption 6.2 and its remark (gradient-estimation error)",
    "E3": "Lemma C.1, Parseval averaging over targets",
    "E4": "Proposition 6.3, SQ multi-resource frontier",
    "E5": "Warm-up SQ algorithms (6.3.2)",
    "E6": "Informal Theorem 6.1",
    "E7": "Lemma C.2, probability of a good over-sparse neuron",
    "E8": "Lemma C.3, Fourier gap of a good over-sparse neuron",
    "E9": "Lemma C.4, bad over-sparse neurons",
    "E10": "O'Donnell Thm 5.22 as used in C.3 (rho bounds)",
    "E11": "Lemma C.5, uniform gradient concentration",
    "E12": "Lemma C.6, one-step features",
    "E13": "Lemma C.7, Lipschitz in the feature map",
    "E14": "Lemma C.8, generalisation of norm-bounded readouts",
    "E15": "Lemma C.9, convex training of the readout",
    "E16": "Lemma C.10, r'-good initialisation",
    "E17": "Theorem 6.4 / C.11, over-sparse data x width frontier",
    "E18": "Lemma C.12, Half/Maj coefficients",
    "E19": "Lemma C.13, under-sparse gradient on S",
    "E20": "Lemma C.14, under-sparse gradient off S",
    "E21": "Lemma C.15, under-sparse good neurons",
    "E22": "Theorem 6.5 / C.16, under-sparse one-step subnetwork",
    "E23": "Empirical Pareto frontier (Fig. 6.1, C.1)",
    "E24": "Figure 6.2, width buys luck, data vs time",
    "E25": "Figure C.2, lottery-ticket experiment",
    "E26": "Tabular experiments (Tables C.1-C.2)",
    "E27": "Compute statement (App. C.3.4)",
    "E28": "Kernel-regime and exact-sparsity remarks",
}
CATALOG_HANDLED = tuple(f"E{i}" for i in range(1, 29))
