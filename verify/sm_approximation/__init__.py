"""Seed 000: Wei, Chen, Ma, "Statistically Meaningful Approximation: a Case Study on Approximating
Turing Machines with Transformers".

Catalog: seed000_sm_approximation.md (not shipped; see docs/sources.md) (entries E1-E36).  The paper has no experiments;
its claims are definitions, sample-complexity bounds and explicit constructions.  Modules, grouped by
topic:

* ``bounds``     E1-E7    SM-approximation, Prop 2.3, the all-layer margin, ramp loss, Lemma 2.4, Cor A.1
* ``circuits``   E8-E12, E14, E36   layered circuits compiled to ReLU nets (kernels.constructions.circuits), round, margins
* ``toy``        E13, E15 the scalar product toy and its rounded version (Claim 3.5)
* ``turing``     E19-E26  the Appendix-C transformer (kernels.constructions.tm_transformer) against a plain TM simulator:
                          the per-module lemmas and claims C.1-C.8
* ``turing_theorem`` E16-E18, E27  the architecture, Theorem 4.1, the setup (C.1)-(C.3), the proof's assembly
* ``margin_d6``  E28-E35  correction functions and Theorem D.6 with Lemmas D.7-D.9
"""

CONTRACT_AUDITED = True

SOURCE = "seed000"
SEED_FILE = "seeds/000_c94f8aa37c22b6cc.txt"
CATALOG_FILE = "seed000_sm_approximation.md"
CATALOG_ENTRIES = {
    "E1": "Definition 2.1, classical approximation",
    "E2": "Definition 2.2, SM-approximation",
    "E3": "Proposition 2.3, sufficient conditions (5 eps + 2 sqrt(log(2/delta)/n))",
    "E4": "All-layer margin, eq. (2.1)",
    "E5": "Ramp surrogate loss, eq. (2.2)",
    "E6": "Lemma 2.4, all-layer margin implies SM-approximation",
    "E7": "Corollary A.1, all-layer margin generalisation bound",
    "E8": "Circuit class G_{q,r,s} and network class F_{w,d,alpha}",
    "E9": "Theorem 3.1, ReLU nets SM-approximate circuits",
    "E10": "Lemma 3.2 / B.1, layerwise circuit simulation",
    "E11": "Proposition B.2, ReLU AND/OR",
    "E12": "Lemma 3.3, correction functions give large margin",
    "E13": "Toy product network margin (l.155)",
    "E14": "Proposition 3.4, round via ReLU",
    "E15": "Claim 3.5, rounded toy has margin >= 1/3",
    "E16": "TM class (4.1) and transformer architecture",
    "E17": "Theorem 4.1, transformers SM-approximate TMs",
    "E18": "Appendix C.1 setup: dimensions, Bin, embeddings, (C.1)-(C.3)",
    "E19": "Lemma C.1, transition via 2 FF layers",
    "E20": "Lemma C.2, head position update",
    "E21": "Lemma C.3, last write to the current cell",
    "E22": "Claim C.4, does a previous write exist",
    "E23": "Claim C.5, one bit of binary search per layer",
    "E24": "Claim C.6, copy the symbol written at i'",
    "E25": "Lemma C.7, read the input symbol",
    "E26": "Lemma C.8, select the symbol under the head",
    "E27": "Assembly of Theorem 4.1 (text claims)",
    "E28": "Definition D.1, correction functions and (D.1)",
    "E29": "Definition D.2, nice layers",
    "E30": "Conditions D.3 and D.4",
    "E31": "Definition D.5, layer-based weight sharing",
    "E32": "Theorem D.6, depth-independent all-layer margin",
    "E33": "Lemma D.7, base case",
    "E34": "Lemma D.8, inductive step",
    "E35": "Lemma D.9, per-block bounds imply margin",
    "E36": "Text claims comparing surrogates (VC / norm-based)",
}
CATALOG_HANDLED = tuple(CATALOG_ENTRIES)
