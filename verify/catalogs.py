"""The catalog entries (one per checkable statement of a document) that the suite covers, per source.

``ENTRIES[source]`` lists every entry of that catalog (id -> short title); ``HANDLED[source]`` the
entries whose claims are registered so far.  The two first sources are listed here; every other
claim package declares its own index in its ``__init__`` (``SOURCE``, ``CATALOG_FILE``,
``CATALOG_ENTRIES``, ``CATALOG_HANDLED``), collected below, so a package is self-contained.  The registry audit (tests/test_registry_audit.py)
asserts that every handled entry has at least one registered claim, so a catalog entry cannot be
silently dropped.  Catalog files are not shipped with the repository; these lists are their index.
"""

from __future__ import annotations

CATALOG_FILES = {
    "thesis_ch5": "thesis_ch5_hidden_progress.md",
    "seed003": "seed003_rcnn.md",
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
    "seed003": {
        "P1": "Parity learning by Gaussian elimination: O(d) examples, O(d^2) runtime",
        "D1": "Definition 1, (s,m,t)-bounded learner",
        "D2": "Definition 2, PAO learner",
        "O1": "Observation 1, (eps,delta)-PAO reduction",
        "D3": "Definition 3, Turing-optimal",
        "C1": "Claim 1 with Algorithm 2",
        "D4": "Definition 4, PAC learning",
        "C2": "Claim 2, Turing-optimal learners PAC-learn",
        "A1": "Algorithm 1, SGD on a randomly initialised RCNN",
        "T1": "Theorem 1, Turing-optimality of SGD on an RCNN",
        "C2b": "Corollary 2, random restarts and validation",
        "D5": "Definition 5, RCNN with a memory layer",
        "L1/L2": "Lemma 1 and Lemma 2",
        "B11": "Data representation (B.1.1)",
        "D6": "Definition 6 (TM) and its modifications (B.1.2)",
        "B2": "RCNN layer spec and gradient spec",
        "B2h": "Head function and its ReLU realisation",
        "L3": "Lemma 3, forward pass and gradient during memorisation",
        "L4": "Lemma 4, SGD memorisation with eta = 1/54",
        "B3c": "Computation-phase claim (end of B.3)",
        "L5": "Lemma 5, function and Jacobian interpolation",
        "L6": "Lemma 6, bounded weight-value sets",
        "C3": "Corollary 3, single weight set",
        "PC": "Parameter count and success probability",
    },
}

HANDLED: dict[str, tuple[str, ...]] = {
    "thesis_ch5": tuple(f"E{i}" for i in range(1, 35)),
    "seed003": (
        "P1", "D1", "D2", "O1", "D3", "C1", "D4", "C2", "A1", "T1", "C2b", "D5", "L1/L2", "B11", "D6", "B2", "B2h",
        "L3", "L4", "B3c", "L5", "L6", "C3", "PC",
    ),
}


#: sources whose every claim has been audited under the verdict contract (statement vs proof errata,
#: severity, parts, sharpness, near-boundary mutants, a second reader); a package says so with
#: ``CONTRACT_AUDITED = True`` in its ``__init__``, and tests/test_contract.py enforces the contract there
AUDITED: set[str] = set()


def is_audited(claim) -> bool:
    """True when the claim's source, or the module that defines it (``CONTRACT_AUDITED = True`` at module
    level: a re-audit in progress, one topic at a time), has been audited under the verdict contract."""
    import sys

    if claim.source in AUDITED:
        return True
    return bool(getattr(sys.modules.get(claim.check.__module__), "CONTRACT_AUDITED", False))


def _collect_package_catalogs() -> None:
    """Add the catalog index of every verify/ sub-package that declares one in its ``__init__``."""
    import importlib
    import pkgutil

    import verify

    for info in sorted(pkgutil.iter_modules(verify.__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        mod = importlib.import_module(f"verify.{info.name}")
        if getattr(mod, "CONTRACT_AUDITED", False):
            AUDITED.add(mod.SOURCE)
        entries = getattr(mod, "CATALOG_ENTRIES", None)
        if entries is None:
            continue
        source = mod.SOURCE
        if source in ENTRIES:
            raise ValueError(f"catalog of source {source!r} declared twice (again by verify.{info.name})")
        CATALOG_FILES[source] = mod.CATALOG_FILE
        ENTRIES[source] = dict(entries)
        HANDLED[source] = tuple(getattr(mod, "CATALOG_HANDLED", ()))


_collect_package_catalogs()
