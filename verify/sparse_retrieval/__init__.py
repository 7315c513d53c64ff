"""Seed 002: Mousavi-Hosseini, Sanford, Wu, Erdogdu, "When Do Transformers Outperform Feedforward and
Recurrent Networks? A Statistical Perspective" (arXiv 2503.11272 v1; OCR text).

Catalog: seed002_sparse_retrieval.md (not shipped; see docs/sources.md) (entries E01-E37, derived D1-D2).  Statements marked
[R] in the catalog are rebuilt from the proofs because the OCR lost the display; the claims say so.
Modules, grouped by topic:

* ``data_model``      E01-E06   qSTR sampler, Assumptions 1-3, risks, the attention layer
* ``head_bounds``     E07-E09   few heads cannot retrieve: Prop 3, Prop 21, Lemma 40
* ``attention_construction`` E10   Lemma 11 construction
* ``attention_bounds`` E11-E13, E18-E20   covering / generalisation chain as functions of N, Lemma 12
* ``attention_lipschitz`` E14-E16   Lipschitz steps of the covering lemmas (Lemmas 13, 30, 15)
* ``attention_packing_moments`` E17, E21, E22   packing numbers (Lemmas 16/41), Lemma 20, Lemma 39
* ``feedforward``     E23, E24, D2   Definition 5 span property, Theorem 6's 1 - n/(N d)
* ``recurrent``       E25-E34, D1    RNN construction chain and lower-bound mechanisms
* ``experiments``     E35-E37   Theorem 1 / Table 1 bookkeeping, Figures 1-2 (small CPU re-runs)
"""

SOURCE = "seed002"
#: every module of this package has been audited under the verdict contract (second reader, docs/audit/seed002_*.md)
CONTRACT_AUDITED = True
SEED_FILE = "seeds/002_592ad4c7c39040b4.txt"
CATALOG_FILE = "seed002_sparse_retrieval.md"

CATALOG_ENTRIES = {
    "E01": "Definition 2, qSTR and simple-qSTR",
    "E02": "Assumption 1, moments",
    "E03": "Assumption 2, link approximable by a 2-layer ReLU net",
    "E04": "Risks (2.1)-(2.3) and learning rules (2.4)",
    "E05": "Encoding and Assumption 3, near-orthogonal codes",
    "E06": "Single-layer multi-head transformer",
    "E07": "Proposition 3, few heads cannot approximate (any W_QK)",
    "E08": "Proposition 21, H >= q heads for block-diagonal W_QK",
    "E09": "Lemma 40, variance of a Gaussian quadratic",
    "E10": "Lemma 11, explicit q-head transformer",
    "E11": "Theorem 4, ERM sample complexity almost N-free",
    "E12": "Theorem 10, norm-constrained general version",
    "E13": "Lemma 12, uniform token-norm bound",
    "E14": "Lemma 13, covering of a composition",
    "E15": "Lemma 14 / Lemma 30 / Corollary 31, parameter-count covering",
    "E16": "Lemma 15, attention covering and softmax Lipschitz constant",
    "E17": "Lemma 16 and Lemma 41, covering of query-key parameters, packing",
    "E18": "Proposition 17, covering of F_TR",
    "E19": "Lemma 18 / Lemma 32, Rademacher complexity of the truncated loss",
    "E20": "Corollary 19 / Corollary 33, generalisation gap",
    "E21": "Lemma 20 / Lemma 34, truncation",
    "E22": "Lemma 39, mixed-norm Hoelder inequality",
    "E23": "FFN model and Definition 5 (algorithm class)",
    "E24": "Theorem 6, FFN lower bound 1 - n/(N d)",
    "E25": "Bidirectional RNN with projection, constraint set",
    "E26": "Theorem 7, RNNs learn simple-qSTR",
    "E27": "Roadmap identity Psi and Corollary 27",
    "E28": "Lemma 22 / Lemma 42, ReLU approximation of inner products",
    "E29": "Lemmas 23-25 and Proposition 26, transition with exact zeros",
    "E30": "Proposition 28, end-to-end RNN for simple-qSTR",
    "E31": "Lemma 29, RNN covering via error contraction",
    "E32": "Proposition 8 / 35, RNN width and norm lower bound",
    "E33": "Theorem 9, RNN sample complexity N^Omega(1)",
    "E34": "Lemmas 36-38, two-layer ReLU interpolation with polynomial norm",
    "E35": "Theorem 1 and Table 1",
    "E36": "Figure 1, sample complexity against N",
    "E37": "Figure 2, trained attention weights",
    "D1": "Derived: linear-state analogue of Proposition 8",
    "D2": "Derived: in-span oracle FFN risk",
}

CATALOG_HANDLED = tuple(CATALOG_ENTRIES)
