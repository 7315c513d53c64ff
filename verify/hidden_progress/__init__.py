"""Thesis ch. 5 + App. B (seed 004): "Hidden Progress in Deep Learning: SGD Learns Parities Near the
Computational Limit" (Barak, Edelman, Goel, Kakade, Malach, Zhang; arXiv 2207.08799).

Catalog: ../shared/claims/thesis_ch5_hidden_progress.md.  Modules, grouped by topic:

* ``fourier_basics``   E1-E3   parity orthogonality, SQ counting, Definition 5.4 (Fourier gap)
* ``majority``         E5-E9   Lemma B.1, the ratio identity and (B.5), Lemma B.2, the LTF identity
* ``warmup``           E4      the single-neuron warm-up gradient (lines 985-995)
* ``mlp_first_step``   E10-E15 Lemmas B.3-B.5 (population gradient at the paired init, one step)
* ``mlp_sgd``          E16-E17 Theorem B.6 and Theorem 5.5
* ``recovery``         E18-E19 Proposition B.7 and Theorem 5.6
* ``fourier_gaps``     E33     Fourier gaps of random LTFs and sinusoids (B.3.1)
"""

SOURCE = "thesis_ch5"
SEED_FILE = "seeds/004_04714447523023d5.txt"
