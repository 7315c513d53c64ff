"""Constructions of the papers executed as code: each network, circuit or machine that a proof builds
is built here with explicit weights and run, so that a claim can compare it with what it should compute.

One module per construction (import the module; it is the API):

* ``circuits``, ``sm_bounds``: layered Boolean circuits compiled to ReLU networks, the all-layer margin
  and the sample-complexity constants of seed 000;
* ``tm_transformer``: Turing machines and their hard-attention transformer (seed 000, App. C);
* ``tm2d``, ``tm2d_grid``: 2D Turing machines and the spec-level RCNN grid of seed 003 (App. B);
* ``relu_interp``: exact ReLU networks interpolating values and Jacobians (seed 003, Lemmas 5-6);
* ``deep_gd``, ``gd_transformer``, ``relu_approx``, ``projected_gd``: the N-layer networks, the
  ReLU-attention block that runs gradient descent in context, sums of ReLUs and inexact projected
  gradient descent of seed 001;
* ``retrieval_constructions``: the attention, feedforward and recurrent retrieval constructions of
  seed 002.
"""
