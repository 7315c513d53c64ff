"""Seed 003: Goel, Kakade, Kalai, Zhang, "Recurrent Convolutional Neural Networks Learn Succinct
Learning Algorithms".

Catalog: seed003_rcnn.md (not shipped; see docs/sources.md) (entries P1, D1-D6, O1, C1, C2, A1, T1, C2b, L1/L2, B11, B2,
B2h, L3-L6, B3c, C3, PC).  The seed text is cut off inside the proof of Corollary 2 (line 704) and
never constructs the Gaussian-elimination RCNN itself; the claims register what is and is not
established.  Modules, grouped by topic:

* ``gaussian_elimination``  P1        parity learning by elimination over GF(2): samples, rank, operations
* ``learners``              D1-D4, O1, C1, C2, A1, T1, C2b, PC   definitions, reductions, bounds as code
* ``grid``                  D5, L1/L2, B11, D6, B2, B2h, B3c     the RCNN grid and the 2D Turing-machine roll-out
* ``memorisation``          L3, L4    SGD with eta = 1/54 memorises the training set
* ``interpolation``         L5, L6, C3   3-layer ReLU interpolation of values and Jacobians
"""

SOURCE = "seed003"
CONTRACT_AUDITED = True
SEED_FILE = "seeds/003_226bbdd666ff3ef5.txt"
