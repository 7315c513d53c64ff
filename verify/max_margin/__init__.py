"""Thesis ch. 7 + App. D (seed 004): "Feature Emergence via Margin Maximization" (Morwani, Edelman,
Oncescu, Zhao, Kakade): max-margin features for modular addition, sparse parity and finite groups.

Catalog: thesis_ch7_max_margin.md (not shipped; see docs/sources.md).  Modules, grouped by topic:

* ``framework``  A0, A2-A8    homogeneity and norms, max-min form, the certificate lemmas 7.2-7.6, C.1
* ``cyclic``     B1-B8, E, X1, X4   modular addition: Thm 7.7, the Fourier identity, the construction,
                              all frequencies used, the memorizing construction, even p, width 3(p-1)
* ``parity``     C1-C3        sparse parity: Thm 7.8, the single-neuron expectation, the construction
* ``groups``     D0-D10, D4b, X2   finite groups with real irreps: Thm 7.9, Lemmas D.10-D.16, Table D.1
* ``training``   A1, F, X3    GD with small L_{2,3} weight decay approaches gamma* (Thm 7.1), neurons
                              become single-frequency, all frequencies used (figures)
* ``figures``    F            Figures 7.6 (S5), D.2 (S3), D.3 (S4) re-run: quadratic nets on symmetric groups
* ``figures_cyclic`` F        Figures 7.1, 7.4, D.1 re-run: ReLU and quadratic nets on Z_p (Fourier features)
* ``figures_parity`` F        Figure 7.5 re-run: x^4 net on the (10, 4) sparse parity

Kernels: kernels.algebra.groups (finite groups, real orthogonal irreps), kernels.algebra.margin (margins,
constructions, single-neuron maxima, games), kernels.training.quadratic_margin, relu_margin and
parity_margin (GD), proofs.max_margin.
"""

SOURCE = "thesis_ch7"
#: every claim of every module has been audited under the verdict contract (second reader; docs/audit/thesis_ch7_*.md)
CONTRACT_AUDITED = True
SEED_FILE = "seeds/004_04714447523023d5.txt"
CATALOG_FILE = "thesis_ch7_max_margin.md"
CATALOG_ENTRIES = {
    "A0": "Definitions: homogeneity, norms, margins",
    "A1": "Thm 7.1 (Wei et al.): vanishing regularization gives max margin",
    "A2": "Max-min reformulation",
    "A3": "Lemma 7.2: certificate pair implies max margin",
    "A4": "Lemma 7.3: binary single-neuron optimisation and combining neurons",
    "A5": "Lemma 7.4: all binary max-margin solutions",
    "A6": "Lemma 7.5: class-weighted analogue of 7.3",
    "A7": "Condition C.1",
    "A8": "Lemma 7.6: multi-class certificate",
    "B1": "Intro identity: a+b = argmax_c cos(2 pi k (a+b-c)/p)",
    "B2": "Informal theorem and destructive interference",
    "B3": "Thm 7.7: max L_{2,3} margin for modular addition",
    "B4": "Eq. D.1 and reduction to the cross term",
    "B5": "Key Fourier identity (D.3)",
    "B6": "Single-neuron optimum (D.4-D.6)",
    "B7": "Construction satisfying C.1 and Eq 7.1 (D.6.2)",
    "B8": "All frequencies are used (D.6.3)",
    "C1": "Thm 7.8: max L_{2,k+1} margin for sparse parity",
    "C2": "Single-neuron expectation E[(u.x)^k chi_S] = k! prod u_S",
    "C3": "Sparse-parity construction (D.7)",
    "D0": "Representation-theory background (D.8)",
    "D1": "Lemma D.10: basis vectors",
    "D2": "Lemma D.11: weighted margin in representation coordinates",
    "D3": "Lemma D.12: norm in representation coordinates",
    "D4": "Lemma D.13: single-neuron maximum for class-constant tau",
    "D4b": "Remark before Lemma D.14: uniform tau gives sign-rep neurons",
    "D5": "Lemma D.14: class weights equalizing all irreps",
    "D6": "Lemma D.15: trace construction with 2 d^3 neurons",
    "D7": "Lemma D.16: scaling d^{1/3}",
    "D8": "Thm 7.9: finite groups with real irreps",
    "D9": "All representations used (D.9.1)",
    "D10": "General theorem for finite groups (D.9.2)",
    "E": "Alternative memorizing construction (D.4)",
    "F": "Experimental protocol (D.2-D.3)",
    "X1": "Z_p for all p via a finite game (derived)",
    "X2": "Finite groups via a finite game (derived)",
    "X3": "Regularized minimizers exactly max-margin for Z_p (derived)",
    "X4": "Width 3(p-1) suffices for Z_p; 2^{k-1} necessary for parity k <= 3 (derived)",
}
CATALOG_HANDLED = tuple(CATALOG_ENTRIES)
