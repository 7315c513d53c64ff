"""Thesis ch. 5 + App. B (seed 004): "Hidden Progress in Deep Learning: SGD Learns Parities Near the
Computational Limit" (Barak, Edelman, Goel, Kakade, Malach, Zhang; arXiv 2207.08799).

Catalog: thesis_ch5_hidden_progress.md (not shipped; see docs/sources.md).  Modules, grouped by topic:

* ``fourier_basics``   E1-E3   parity orthogonality, SQ counting, Definition 5.4 (Fourier gap)
* ``majority``         E5-E6   Lemma B.1 (exact coefficients, asymptotic bounds); cached spectra of Maj_n
* ``majority_gap``     E7-E9   the ratio identity and (B.5), Lemma B.2 (Fourier gap), the LTF identity
* ``warmup``           E4      the single-neuron warm-up gradient (lines 985-995)
* ``mlp_first_step``   E10-E11 Lemma B.3 and Lemma B.4 Claims 1-3 (population gradient at the paired init,
                             post-step weights); the setting's shared helpers
* ``mlp_first_step_claim4``      E12     Lemma B.4 Claim 4 (its Hoeffding display and its conclusion)
* ``mlp_first_step_claim5_loss`` E13-E14 Lemma B.4 Claim 5 (k ReLUs represent 2 chi_[k]) and its loss bound
* ``mlp_first_step_lemma_b5``    E15     Lemma B.5 (one large-batch step yields the features)
* ``mlp_sgd``          E16-E17 Theorem B.6 and Theorem 5.5
* ``recovery``         E18-E19 Proposition B.7 and Theorem 5.6
* ``fourier_gaps``     E33     Fourier gaps of random LTFs and sinusoids (B.3.1)
* ``polynet_flow``     E20, E21, E25  disjoint-PolyNet population gradient, Lemma B.8 (gradient flow),
                                      Theorem 5.7 with Gaussian initialisation
* ``polynet_plateau``  E22-E24 Lemma B.9 (exact error and its bounds), Corollary B.10, Theorem 5.7
* ``polynet_sgd``      E26     Theorem 5.8 with Claims B.11, B.12 (SGD on disjoint-PolyNets)
* ``noisy_parity``     E27     noisy parities (B.3.6)
* ``layerwise``        E28     the layer-by-layer counterexample with quadratic activations (B.3.7)
* ``layerwise_width_training`` E28 its (2, 1) network (width_2_1) and the training experiments (L = 3, 4)
* ``constructions``    E29     representation constructions used in the experiments (B.4.1)
* ``sgd_scaling``      E30     Empirical Finding 5.1 (convergence-time scaling, setting (ii)); the training
                             runs and statistics shared with E31
* ``sgd_scaling_random_search`` E31 the random-search baseline and convergence time vs width (Fig. B.10)
* ``sgd_progress``     E32, E34  hidden-progress measure of a sine neuron (B.3.3), grokking (B.3.5)
* ``figures_b``        E27, E30  figure re-runs: Fig. B.12 (noisy parities), Fig. 5.2 left (t_c histograms)
                             and center (t_c depends on the initialisation)
* ``figures_b_curves`` E25, E26, E30  training-curve figures: Fig. B.1 (disjoint-PolyNet, population GD and
                             batch-1 SGD), Fig. B.13 (polynomial-activation MLPs)
* ``figures_b_trajectories`` E32  Fig. B.9 (weight trajectories and rho at several B, a width-10 MLP)
* ``figures_b_assorted`` E30  Fig. B.2 (assorted training curves; the transformer panels are not re-run)
* ``figures_b_arch``   E30      figure re-runs over the architecture settings (i)-(xv): Figs. B.3, B.4 (t_c
                             and converged % per architecture, k, B) and B.5 (scaling fits c, alpha)
"""

SOURCE = "thesis_ch5"
SEED_FILE = "seeds/004_04714447523023d5.txt"
