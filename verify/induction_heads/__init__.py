"""Thesis ch. 8 + App. E (seed 004): "The Evolution of Statistical Induction Heads: In-Context Learning
Markov Chains" (Edelman, Edelman, Goel, Malach, Tsilivis; arXiv 2402.11004).

Catalog: thesis_ch8_induction_heads.md (not shipped; see docs/sources.md) (entries C1-C23).  Kernels:
kernels.sequence.markov_icl (sampler, strategies, T-tensor K1, quadrature K2, run classes K3, minimal model K4)
and kernels.training.induction (transformer K5, the Prop. 8.2 construction, trainers).  Modules:

* ``data_model``     C1-C5    ICL-MC sampler, Dirichlet posterior, Remark 8.1, unigram, strategy losses
* ``architecture``   C6-C9    transformer/margin-loss definitions, Prop. 8.2 construction, Fact 8.3, (E.6)
* ``first_step``     C10-C15  exact first-step gradients (E.8-E.29) of the minimal model
* ``two_step``       C16-C18  Lemma 8.4/E.1, even/odd pattern, Corollary E.2
* ``two_step_consequences``  C19, C20, C23  Prop. 8.5/E.3, Sec. 8.3.2 corollaries, linear-regime dynamics
* ``training``       C21, C22  empirical phases (minimal model and transformer) and the trigram task
* ``figures``        C21       Figs. 8.1/E.3, 8.2/E.5, E.4, E.8 re-run (transformer trainings in ``_figure_runs``)
* ``figures_first_steps``  C16  Figs. E.1/E.2 (Monte Carlo first two GD steps of the minimal model)
* ``figures_distributions``  C21  Figs. E.6 and 8.4 (a): test distributions and doubly-stochastic training
  (trainings in ``_distribution_runs``)
"""

SOURCE = "thesis_ch8"
#: every module of the package is audited under the verdict contract (docs/audit/thesis_ch8_*.md)
CONTRACT_AUDITED = True
SEED_FILE = "seeds/004_04714447523023d5.txt"
CATALOG_FILE = "thesis_ch8_induction_heads.md"
CATALOG_ENTRIES = {
    "C1": "ICL-MC data model",
    "C2": "Eqs. (8.1)-(8.3), Dirichlet posterior and the bigram estimator",
    "C3": "Remark 8.1, bigram vs Bayes gap",
    "C4": "Unigram strategy and pi -> uniform",
    "C5": "[derived] strategy losses (reference lines)",
    "C6": "Definitions (8.4)-(8.7), transformer and margin loss",
    "C7": "Proposition 8.2, transformer construction",
    "C8": "Minimal model (8.8)/(E.2) and Fact 8.3",
    "C9": "Eq. (E.6), output at the constant initialisation",
    "C10": "Eqs. (E.8)-(E.13), exact first-step W gradient",
    "C11": "Eq. (E.15), P^n and pi for k = 2",
    "C12": "Eqs. (E.16)-(E.17), triple sums (A)-(D)",
    "C13": "Eqs. (E.19)-(E.22), first-step W entries and symmetry",
    "C14": "Eqs. (E.23)-(E.25), leading-order W update, B ~ 4A",
    "C15": "Eqs. (E.26)-(E.29), first-step v update",
    "C16": "Lemma 8.4 = Lemma E.1, two GD steps",
    "C17": "Even/odd pattern",
    "C18": "Corollary E.2 (a = b)",
    "C19": "Proposition 8.5 = Proposition E.3",
    "C20": "Sec. 8.3.2 qualitative corollaries",
    "C21": "Empirical phenomenology (phases)",
    "C22": "n-gram extension",
    "C23": "[derived] linear-regime GD dynamics",
}
CATALOG_HANDLED = tuple(CATALOG_ENTRIES)
