"""Seed 001: Wu, Su, Hu, Song, Liu, "Transformers are Deep Optimizers: Provable In-Context Learning for
Deep Model Training" (arXiv 2411.16549v1).

Catalog: seed001_icl_deep_gd.md (not shipped; see docs/sources.md) (entries E01-E22).  Modules, grouped by topic:

* ``network_gradient``  E01, E03, E15   N-layer networks, Lemma 1's backprop gradient (exact and float),
                                        different input/output dimensions
* ``relu_sums``         E04             Def 4 sums of ReLUs, Lemma 7 (constructive 1-D and exact 2-D pieces)
* ``layers``            E05, E06, E16   ReLU attention / EWML / Softmax-block definitions
* ``construction``      E07-E11         the (2N+4)-layer block executed with explicit weights: per-stage
                                        errors against Lemmas 2-6
* ``construction_theorem`` E02, E12, E13  the whole block: Problems 1/2 over L blocks, Theorem 1,
                                        Corollary 1.1
* ``inexact_pgd``       E14             Lemma 14 (inexact projected GD)
* ``softmax_ua``        E17-E19         Lemma 16 pieces, Lemma 17's constant, Theorem 6 bookkeeping
* ``informal``          E20-E22         informal theorems, Appendix H, the experiments of Appendix G
* ``figures``           E22             Figures 1-3 re-run at CPU sizes (trained ReLU / softmax transformers
                                        against training the N-layer network; depth), kernels.training.icl_regression
"""

SOURCE = "seed001"
#: every module of this package has been audited under the verdict contract (second reader, docs/audit/seed001_*.md)
CONTRACT_AUDITED = True
SEED_FILE = "seeds/001_7e6f1de934488944.txt"
CATALOG_FILE = "seed001_icl_deep_gd.md"
CATALOG_ENTRIES = {
    "E01": "Def 1, Remark 1, Def 2: N-layer network and parameter counts D_j",
    "E02": "Problems 1/2: the ICGD specification and the prompt format (2.1)",
    "E03": "Lemma 1, Def 3, (3.7)/(3.8): backpropagation form of the gradient",
    "E04": "Def 4 and Lemma 7: sums of ReLUs approximating smooth functions",
    "E05": "Defs 7-9: ReLU attention, MLP, transformer, norm (C.1)",
    "E06": "Defs 5-6: the gamma operator and the element-wise multiplication layer",
    "E07": "Lemma 2: N attention layers compute the forward pass",
    "E08": "Lemma 3: one attention layer computes r'",
    "E09": "Lemma 4: one MLP computes the loss derivative, zero on the test token",
    "E10": "Lemma 5: N EWML layers compute the backprop vectors exactly",
    "E11": "Lemma 6: bounds on s-hat and its error",
    "E12": "Theorem 1: the (2N+4)L-layer transformer implements L steps of ICGD",
    "E13": "Corollary 1.1: ICGD versus the true GD trajectory",
    "E14": "Lemma 14: inexact projected GD, error accumulation and convergence",
    "E15": "Def 10, Lemma 15, Theorem 5: different input and output dimensions",
    "E16": "(F.1) and Def 11: Softmax attention and the block FF o Attn o FF",
    "E17": "Lemma 16: universal approximation by Softmax transformers with explicit error",
    "E18": "Defs 12-13 and Lemma 17: separateness, contextual mapping (cited)",
    "E19": "Theorem 6: 4L-layer Softmax transformer for ICGD",
    "E20": "Theorems 2 and 3: informal versions",
    "E21": "Appendix H: Problem 3 and Lemma 19 (diffusion score)",
    "E22": "Appendix G: experiments",
}
CATALOG_HANDLED = tuple(CATALOG_ENTRIES)
