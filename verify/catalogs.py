"""The catalog entries of ../shared/claims/ that the suite covers, per source.

``ENTRIES[source]`` lists every entry of that catalog (id -> short title); ``HANDLED[source]`` the
entries whose claims are registered so far.  The registry audit (tests/test_registry_audit.py)
asserts that every handled entry has at least one registered claim, so a catalog entry cannot be
silently dropped.  Catalog files are not shipped with the repository; these lists are their index.
"""

from __future__ import annotations

CATALOG_FILES = {
    "thesis_ch5": "thesis_ch5_hidden_progress.md",
}

ENTRIES: dict[str, dict[str, str]] = {
    "thesis_ch5": {
        "E1": "Parity orthogonality (B.1) and Fourier expansion (B.2)",
        "E2": "SQ counting fact",
        "E3": "Definition 5.4 (Fourier gap) and relaxed gap Gamma",
        "E4": "Warm-up single ReLU neuron gradient",
        "E5": "Lemma B.1, exact majority coefficients",
        "E6": "Lemma B.1, asymptotic bounds",
        "E7": "Ratio identity and Eq. (B.5)",
        "E8": "Lemma B.2, Fourier gap of majority",
        "E9": "LTF-majority identity",
        "E10": "Lemma B.3, population gradient at the paired init",
        "E11": "Lemma B.4, Claims 1-3",
        "E12": "Lemma B.4, Claim 4",
        "E13": "Lemma B.4, Claim 5",
        "E14": "Lemma B.4, conclusion",
        "E15": "Lemma B.5",
        "E16": "Theorem B.6",
        "E17": "Theorem 5.5",
        "E18": "Proposition B.7",
        "E19": "Theorem 5.6",
        "E20": "Disjoint-PolyNet population gradient and counting",
        "E21": "Lemma B.8",
        "E22": "Lemma B.9",
        "E23": "Corollary B.10",
        "E24": "Theorem 5.7, main-text form",
        "E25": "Theorem 5.7, full statement",
        "E26": "Theorem 5.8 with Claims B.11, B.12",
        "E27": "Noisy parities (B.3.6)",
        "E28": "Layer-by-layer counterexample (B.3.7)",
        "E29": "Representation constructions (B.4.1)",
        "E30": "Empirical Finding 5.1 and convergence-time scaling",
        "E31": "Random-search baseline and width scaling",
        "E32": "Hidden-progress measure",
        "E33": "Fourier gaps beyond majority (B.3.1)",
        "E34": "Grokking / finite-sample regime",
    },
}

HANDLED: dict[str, tuple[str, ...]] = {
    "thesis_ch5": tuple(f"E{i}" for i in range(1, 20)) + ("E33",),
}
