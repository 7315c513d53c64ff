"""Attention and sequence models: their data models, forward passes and exact quantities.

One module per model family (import the module; it is the API):

* ``attention``: attention heads, their Lipschitz and covering-number bounds, and the selector and
  memorisation constructions of thesis ch. 4 (variable creation);
* ``markov_icl``: in-context learning of Markov chains (thesis ch. 8): chain samplers, stationary laws,
  the minimal model and its exact losses;
* ``qstr``: q-sparse token regression (seed 002): the seeded sampler, positional codes and encodings.

The batched trainers of these models live in kernels.training (``induction``, ``attention``,
``retrieval``).
"""
