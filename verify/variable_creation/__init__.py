"""Seed 004 (Edelman thesis), Chapter 4 "Variable Creation" + Appendix A: capacity of attention heads,
sparse variable creation, and the log T sample complexity (Edelman, Goel, Kakade, Zhang, ICML 2022).

Catalog: thesis_ch4_variable_creation.md (not shipped; see docs/sources.md) (entries E1-E35).  Modules, by topic:

* ``definitions``         E1, E4, E5, E21        Def 4.1, Cor A.3, the head definitions, Sec 4.5
* ``generalization``      E2, E3                 Thm A.4 by Monte Carlo; exact Dudley on the interval class
* ``softmax_lipschitz``   E6, E7, E14, E17, E18  Lipschitz lemmas checked directly (random + adversarial)
* ``covering``            E8, E10-E13, E16, E20  covering bounds as explicit functions vs packings (lower bounds)
* ``shattering``          E9, E23                Prop 4.8 executed for T <= 1024; softmax truncation
* ``remarks``             E15, E22, E32          fixed positional embeddings, sparse-function definitions, remarks
* ``block_perturbation``  E19                    Lemmas A.15 and A.16 executed
* ``selectors``           E24, E25, E26          the selector heads of Lemmas A.19-A.21 executed
* ``memorisation``        E27-E30                the 3-layer ReLU net of Lemma A.25, its use in A.22-A.23, Prop 4.12
* ``categorical``         E31                    M-ary selector heads and Lemma A.25
* ``sample_complexity``   E33                    identifiability baseline of Fig 4.2 (brute-force ERM)
* ``transformer_sample_complexity``  E33         a small Transformer's sample complexity against T
* ``training``            E34                    Fig 4.3: trained single heads, attention on the relevant bits
* ``parity_training``     E35                    ERM threshold for sparse parities; the single-head obstruction
* ``figure_4_4``          E35                    Fig 4.4 re-run: multi-head transformers with an MLP learn sparse parities

Kernels: kernels.sequence.attention (heads, bounds, constructions).
"""

SOURCE = "thesis_ch4"
#: every claim of this source has been audited under the verdict contract (docs/contract.md)
CONTRACT_AUDITED = True
SEED_FILE = "seeds/004_04714447523023d5.txt"
CATALOG_FILE = "thesis_ch4_variable_creation.md"

CATALOG_ENTRIES = {
    "E1": "Def 4.1, covering number N_inf and the quoted linear-class bound",
    "E2": "Lemma 4.2 / A.5, generalization via covering",
    "E3": "Def A.1 and Lemma A.2, Rademacher complexity and modified Dudley",
    "E4": "Cor A.3, Rademacher via covering",
    "E5": "Defs 4.3, 4.4, Transformer head definitions and the average head",
    "E6": "Assumption 4.5, Lemma A.6, Cor A.7, softmax Jacobian constant 2",
    "E7": "Lemma 4.7, l_inf-Lipschitzness of f_head in the parameters",
    "E8": "Thm 4.6, attention-head capacity via token-level covers",
    "E9": "Prop 4.8, pseudo-dimension >= floor(log2 T) for unbounded heads",
    "E10": "Lemma 4.10, covering of (2,1)-bounded vector linear maps",
    "E11": "Lemma A.10, Zhang's linear-class covering bound",
    "E12": "Cor 4.9, covering number of a Transformer head",
    "E13": "Lemma A.8, optimal epsilon split",
    "E14": "Lemma A.9, contractivity of Pi_norm",
    "E15": "Lemma A.11, fixed positional embeddings",
    "E16": "Lemma A.12, H parallel heads",
    "E17": "Lemma A.13, weight-perturbation bound of a self-attention layer",
    "E18": "Lemma A.14, input-perturbation Lipschitz bound",
    "E19": "Lemmas A.15, A.16, one-block perturbation and CLS readout",
    "E20": "Thm A.17 / Thm 4.11, depth-L Transformer covering",
    "E21": "Sec 4.5 lower bound and realizable functions",
    "E22": "Definitions of A.2.1, input maps and Boolean-function properties",
    "E23": "Lemma A.24, softmax truncation",
    "E24": "Lemma A.19, deterministic P selector heads",
    "E25": "Lemma A.20, trainable P selector heads",
    "E26": "Lemma A.21, bag-of-vectors selector head",
    "E27": "Lemma A.25, exact representation by a 3-layer ReLU net",
    "E28": "Lemma A.22, monotone to symmetric functions via MLP",
    "E29": "Lemma A.23, injective to arbitrary functions via MLP",
    "E30": "Prop 4.12 / A.18, sparse variable creation",
    "E31": "Section A.2.4, beyond Boolean inputs",
    "E32": "Remarks on residuals, LayerNorm, positional capacity",
    "E33": "Fig 4.2, sample complexity of 3-sparse AND ~ log T",
    "E34": "Fig 4.3, training curves and attention maps",
    "E35": "Fig 4.4, Transformers learn sparse parities",
}

CATALOG_HANDLED = ("E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8", "E9", "E10", "E11", "E12", "E13", "E14", "E15", "E16", "E17", "E18", "E19", "E20", "E21", "E22", "E23", "E24", "E25", "E26", "E27", "E28", "E29", "E30", "E31", "E32", "E33", "E34", "E35")
