"""The claim contract: Claim, Verdict, Status, Rigor, tiers, mutants, and the registry itself.

One claim is one registered check function.  The function takes a *statement* (any object describing the
statement to test: the printed one, a corrected one, or a mutant), the resolved parameters and a :class:`Context`,
and returns a :class:`Verdict`.  Because the printed statement, the corrected statement and every mutant go
through the same function, a checker that cannot fail is caught by its mutants (docs/architecture.md).

Registering::

    @claim(
        id="thesis_ch5.lemma_B.2", source="thesis_ch5", label="Lemma B.2", entry="E8",
        title="Fourier gap of majority", lines=[(3111, 3128)],
        printed=GapStatement(...), corrected=GapStatement(...),
        mutants=[Mutant("constant-0.7", "constant 0.03 -> 0.7", GapStatement(...))],
        expect=Status.ERRATUM, rigor=Rigor.EXACT,
        params=[Param("n_max", int, 5, 100_001)],
        tiers={"quick": {"n_max": 201}, "full": {"n_max": 2001}},
    )
    def check_majority_gap(statement, p, ctx) -> Verdict: ...

The docstring of the check function is the claim's statement text: a one-line title, then the
numpydoc-style sections (title line underlined with dashes) ``Statement``, ``Source``,
``Checkable form``, ``Exactness`` and ``Mutants``; ``Hypotheses`` and ``Notes`` are optional.  A
meta-test enforces the required sections.
"""

from __future__ import annotations

import enum
import hashlib
import importlib
import inspect
import math
import pkgutil
import re
import time
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .blocks import BLOCK_MAPPER
from .params import InvalidParameter, Param

__all__ = [
    "Claim",
    "ClaimResult",
    "Context",
    "Evidence",
    "InvalidParameter",
    "Kind",
    "Mutant",
    "Param",
    "REGISTRY",
    "Part",
    "Rigor",
    "Severity",
    "Status",
    "TIERS",
    "Verdict",
    "all_claims",
    "claim",
    "discover",
    "get_claim",
    "run_claim",
    "to_jsonable",
]

TIERS = ("quick", "full", "gpu")
DOC_SECTIONS = ("Statement", "Source", "Checkable form", "Exactness", "Mutants")
#: docstring section that states the corrected statement (or corrected proof step) in words; required
#: for every erratum and proof-gap of a source audited under the contract
CORRECTION_SECTION = "Correction"


class Status(str, enum.Enum):
    """The verdict the suite stands behind for a claim (docs/contract.md, "Statuses")."""

    CONFIRMED = "confirmed"  # every part of the printed statement asserted, and it holds on every case
    PARTLY_CONFIRMED = "partly-confirmed"  # the asserted parts hold; some part is not asserted (reason given)
    ERRATUM = "erratum"  # the printed *statement* is false: the witness meets every printed hypothesis
    PROOF_GAP = "proof-gap"  # a step / construction / constant of the *proof* fails; the statement is not refuted
    REFUTED = "refuted"
    MECHANISM = "mechanism"
    REPRODUCED = "reproduced"
    NOT_REPRODUCED = "not-reproduced"

    def __str__(self) -> str:
        return self.value


class Severity(str, enum.Enum):
    """How much an erratum or a proof-gap matters (ARCHITECTURE: "severity").

    * TYPO: a reader silently corrects it (an index, a sign, a label, a transcription, a slip the proof
      itself does not make).
    * CONSTANT: a constant, exponent or range is wrong; the form of the result survives the correction.
    * SUBSTANTIVE: a new hypothesis is needed, or the conclusion or a downstream result changes.
    """

    TYPO = "typo"
    CONSTANT = "constant"
    SUBSTANTIVE = "substantive"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Part:
    """One part of a statement (an inequality, a bound, a conclusion, a size bound of a construction).

    ``asserted`` parts are checked by the claim's check function; an unchecked part gives its
    ``reason``.  An asserted part with ``inequality=True`` must record its sharpness (the check passes
    ``part=name`` to :meth:`Evidence.add` or calls :meth:`Evidence.sharpness`) and must have a
    near-boundary mutant (``Mutant(..., near_boundary=True, part=name)``).
    """

    name: str
    text: str
    asserted: bool = True
    reason: str = ""
    inequality: bool = False

    def __post_init__(self):
        if not self.name or not self.text:
            raise ValueError("a statement part needs a name and its printed text")
        if not self.asserted and not self.reason:
            raise ValueError(f"part {self.name!r}: an unchecked part must give the reason it is not asserted")

    def to_json(self) -> dict:
        return {"name": self.name, "text": self.text, "asserted": self.asserted,
                "reason": self.reason or None, "inequality": self.inequality}


class Rigor(str, enum.Enum):
    """How strong the evidence is: the strongest level the check reached."""

    EXACT = "exact"  # integer / rational / symbolic, compared with ==
    INTERVAL = "interval"  # rigorous enclosures
    FLOAT = "float"  # float64 with a stated, argued tolerance
    STATISTICAL = "statistical"  # seeded Monte Carlo with a confidence bound
    MECHANISM = "mechanism"  # the mechanism or scaling behind an untestable statement

    def __str__(self) -> str:
        return self.value


class Kind(str, enum.Enum):
    """What sort of statement a claim is; it fixes the status vocabulary.

    * THEOREM: holds -> confirmed; fails -> erratum (a corrected statement holds) or refuted.
    * MECHANISM: the check tests the mechanism/scaling; holds -> mechanism; fails -> erratum/refuted.
    * EMPIRICAL: a figure or table re-run; holds -> reproduced; fails -> not-reproduced.
    """

    THEOREM = "theorem"
    MECHANISM = "mechanism"
    EMPIRICAL = "empirical"


# ---------------------------------------------------------------------------------------------
# verdicts and evidence
# ---------------------------------------------------------------------------------------------

_RELATIONS = ("le", "lt", "ge", "gt", "eq", "approx", "true")
_RELATION_TEXT = {"le": "<=", "lt": "<", "ge": ">=", "gt": ">", "eq": "==", "approx": "~=", "true": "is true"}


@dataclass(frozen=True)
class Verdict:
    """Outcome of checking one statement over all its cases.

    ``slack`` is the margin of the tightest case (>= 0 when the statement holds; for ``le``: rhs - lhs,
    ``ge``: lhs - rhs, ``approx``: tol - |lhs - rhs|, ``eq``: 0 or -|lhs - rhs|).  ``witness`` is the
    first failing case in the check's enumeration order (the checks enumerate small instances first,
    so it is the smallest one found), with both sides' values.
    """

    holds: bool
    cases: int
    relation: str
    tightest: dict | None
    slack: float | None
    witness: dict | None
    failures: int
    rigor: Rigor
    backend: str = "cpu"
    seconds: float = 0.0
    params: Mapping[str, Any] = field(default_factory=dict)
    seed: int | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    plots: tuple = ()
    note: str = ""
    #: the largest lhs/rhs over the cases of inequality parts (rhs/lhs for lower bounds); > 1 means violated
    sharpness: float | None = None
    sharpness_case: dict | None = None
    #: per part: {"ratio": float, "case": {...}}
    sharpness_parts: Mapping[str, Any] = field(default_factory=dict)

    def summary(self) -> str:
        if self.holds:
            t = self.tightest or {}
            return f"holds on {self.cases} cases; tightest {t.get('case')} (slack {_fmt(self.slack)})"
        w = self.witness or {}
        return (
            f"FAILS on {self.failures}/{self.cases} cases; witness {w.get('case')}: "
            f"lhs = {w.get('lhs')}, rhs = {w.get('rhs')}"
        )


def _fmt(x) -> str:
    if x is None:
        return "n/a"
    if isinstance(x, float):
        return f"{x:.6g}"
    return str(x)


def _big_rational_text(num: int, den: int) -> str:
    """'~m.mmmmmmmmmmme[+-]XX (exact rational, D digits)' for huge numerators/denominators."""
    if num == 0:
        return "0"
    sign = "-" if num < 0 else ""
    a = abs(num)
    shift = 64 - (a.bit_length() - den.bit_length())
    scaled = (a << shift) // den if shift >= 0 else a // (den << -shift)
    log10 = math.log10(scaled) - shift * math.log10(2)
    exp10 = math.floor(log10)
    mant = 10 ** (log10 - exp10)
    digits = len(str(den)) if den.bit_length() < 12000 else int(den.bit_length() * 0.30103) + 1
    return f"{sign}{mant:.12f}e{exp10:+d} (exact rational, ~{digits}-digit denominator)"


#: integers of at most this magnitude are JSON numbers; larger ones become text (``_num_text``)
_EXACT_INT = 2**53


def _num_text(v) -> Any:
    """JSON-friendly rendering of a number: Fractions as 'p/q' strings, floats as floats."""
    if isinstance(v, Fraction):
        if max(abs(v.numerator).bit_length(), v.denominator.bit_length()) > 200:
            return _big_rational_text(v.numerator, v.denominator)
        return str(v) if v.denominator != 1 else int(v.numerator) if abs(v.numerator) < 2**53 else str(v.numerator)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        return float(v)
    if isinstance(v, (np.bool_,)):
        return bool(v)
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= _EXACT_INT:
        return str(v) if v.bit_length() <= 200 else _big_rational_text(v, 1)
    return v


def _as_float(v) -> float:
    try:
        return float(v)
    except (OverflowError, TypeError, ValueError):
        return math.nan


def _case_record(case: Mapping[str, Any], lhs, rhs, rel: str, margin, tol, note: str) -> dict:
    """The JSON-friendly record of one case of :meth:`Evidence.add`."""
    record = {
        "case": {k: _num_text(v) for k, v in case.items()},
        "lhs": _num_text(lhs),
        "rhs": _num_text(rhs),
        "relation": _RELATION_TEXT[rel],
        "margin": _num_text(margin),
    }
    if rel == "approx":
        record["tol"] = _num_text(tol)
    if note:
        record["note"] = note
    return record


class Evidence:
    """Accumulates the cases of one check and turns them into a :class:`Verdict`.

    Each :meth:`add` records one case: its parameters, both sides and the relation (the claim's
    declared relation unless overridden).  Exact inputs (int/Fraction) are compared exactly.
    """

    def __init__(self, relation: str, *, rigor: Rigor, tol: float | None = None):
        if relation not in _RELATIONS:
            raise ValueError(f"argument 'relation' must be one of {_RELATIONS}, not {relation!r}")
        self.relation = relation
        self.rigor = rigor
        self.tol = tol
        self.cases = 0
        self.failures = 0
        self.tightest: dict | None = None
        self._tight_margin = None
        self.witness: dict | None = None
        self.worst: dict | None = None
        self._worst_margin = None
        self.details: dict = {}
        self.plots: list = []
        self._secondary: dict | None = None
        self.sharp: dict[str, dict] = {}

    def sharpness(self, case: Mapping[str, Any], ratio, *, part: str = "statement") -> None:
        """Record the ratio lhs/rhs (rhs/lhs for a lower bound) that one case reaches for an inequality part.

        :meth:`add` records it by itself for inequality relations; call this directly when the ratio is
        computed otherwise (an adversarial search that returns the best ratio and its case)."""
        r = _as_float(ratio)
        if math.isnan(r):
            return
        best = self.sharp.get(part)
        if best is None or r > best["ratio"]:
            self.sharp[part] = {"ratio": r, "case": {k: _num_text(v) for k, v in case.items()}}

    def add(self, case: Mapping[str, Any], lhs, rhs=None, *, relation: str | None = None, tol: float | None = None,
            note: str = "", part: str | None = None) -> bool:
        """Record one case.  ``part`` names the statement part the case tests (default: the main
        relation's cases count for part "statement"); inequality cases then update that part's sharpness."""
        rel = relation or self.relation
        tol = self.tol if tol is None else tol
        holds, margin = _compare(rel, lhs, rhs, tol)
        if rel in ("le", "lt", "ge", "gt") and (part is not None or rel == self.relation):
            ratio = _ratio(rel, lhs, rhs)
            if ratio is not None:
                self.sharpness(case, ratio, part=part or "statement")
        self.cases += 1
        # identity / predicate sub-checks (cross-route equalities) do not define the tightest case of an
        # inequality statement: their margin is 0 by construction.  The JSON record of a case is built only
        # where it is kept (most cases of a large grid are neither the tightest nor a witness).
        secondary = rel in ("eq", "true") and self.relation not in ("eq", "true")
        if holds and secondary:
            if self.tightest is None and self._tight_margin is None:
                self._secondary = _case_record(case, lhs, rhs, rel, margin, tol, note)
        elif holds:
            if margin is not None and (self._tight_margin is None or margin < self._tight_margin):
                self._tight_margin = margin
                self.tightest = _case_record(case, lhs, rhs, rel, margin, tol, note)
            elif self.tightest is None:
                self.tightest = _case_record(case, lhs, rhs, rel, margin, tol, note)
        else:
            self.failures += 1
            record = None
            if self.witness is None:
                record = self.witness = _case_record(case, lhs, rhs, rel, margin, tol, note)
            if margin is not None and (self._worst_margin is None or margin < self._worst_margin):
                self._worst_margin = margin
                self.worst = record if record is not None else _case_record(case, lhs, rhs, rel, margin, tol, note)
        return holds

    def extend(self, other: "Evidence") -> None:
        """Merge the cases of another Evidence (sub-checks of one statement)."""
        self.cases += other.cases
        self.failures += other.failures
        if other.tightest is not None and (
            self._tight_margin is None or (other._tight_margin is not None and other._tight_margin < self._tight_margin)
        ):
            self.tightest, self._tight_margin = other.tightest, other._tight_margin
        if self.witness is None and other.witness is not None:
            self.witness = other.witness
        if other.worst is not None and (self._worst_margin is None or (other._worst_margin is not None and other._worst_margin < self._worst_margin)):
            self.worst, self._worst_margin = other.worst, other._worst_margin
        self.details.update(other.details)
        self.plots.extend(other.plots)
        for name, rec in other.sharp.items():
            if name not in self.sharp or rec["ratio"] > self.sharp[name]["ratio"]:
                self.sharp[name] = rec

    def verdict(self, *, backend: str = "cpu", seed: int | None = None, note: str = "") -> Verdict:
        if self.cases == 0:
            raise RuntimeError("a check recorded no cases: a verdict needs at least one")
        witness = self.witness
        if witness is not None and self.worst is not None and self.worst is not witness:
            witness = dict(witness, worst=self.worst)
        top = max(self.sharp.items(), key=lambda kv: kv[1]["ratio"], default=None)
        return Verdict(
            holds=self.failures == 0,
            cases=self.cases,
            relation=self.relation,
            tightest=self.tightest if self.tightest is not None else self._secondary,
            slack=_as_float(self._tight_margin) if self._tight_margin is not None else None,
            witness=witness,
            failures=self.failures,
            rigor=self.rigor,
            backend=backend,
            seed=seed,
            details=dict(self.details),
            plots=tuple(self.plots),
            note=note,
            sharpness=top[1]["ratio"] if top else None,
            sharpness_case=dict(top[1]["case"], part=top[0]) if top else None,
            sharpness_parts={k: dict(v) for k, v in self.sharp.items()},
        )


def _ratio(rel: str, lhs, rhs) -> float | None:
    """lhs/rhs for an upper bound (le, lt), rhs/lhs for a lower bound (ge, gt); None where the ratio says
    nothing about closeness to the bound (a non-positive denominator, a non-finite side)."""
    a, b = _as_float(lhs), _as_float(rhs)
    num, den = (a, b) if rel in ("le", "lt") else (b, a)
    if not (math.isfinite(num) and math.isfinite(den)) or den <= 0:
        return None
    return num / den


_EXACT = (int, Fraction, np.integer)


def _exact_difference(a, b):
    """a - b for exact numbers (int, numpy integer, Fraction): a Python int when neither is a Fraction (the
    value Fraction(a) - Fraction(b) would have, and rendered alike by ``_num_text``), else a Fraction."""
    if isinstance(a, Fraction) or isinstance(b, Fraction):
        return Fraction(a) - Fraction(b)
    return int(a) - int(b)


def _compare(rel: str, lhs, rhs, tol):
    if rel == "true":
        ok = bool(lhs)
        return ok, (1 if ok else -1)
    exact = isinstance(lhs, _EXACT) and isinstance(rhs, _EXACT)
    if rel == "eq":
        if exact:
            d = _exact_difference(lhs, rhs)
            return d == 0, -abs(d)
        d = abs(_as_float(lhs) - _as_float(rhs))
        return d == 0, -d
    if rel == "approx":
        if tol is None:
            raise ValueError("relation 'approx' needs a tolerance")
        d = abs(_as_float(lhs) - _as_float(rhs))
        m = tol - d
        return m >= 0, m
    if exact:
        m = _exact_difference(rhs, lhs) if rel in ("le", "lt") else _exact_difference(lhs, rhs)
    else:
        a = _as_float(lhs)
        b = _as_float(rhs)
        m = b - a if rel in ("le", "lt") else a - b
        if math.isnan(m):
            return False, -math.inf
    ok = m >= 0 if rel in ("le", "ge") else m > 0
    return ok, m


# ---------------------------------------------------------------------------------------------
# context
# ---------------------------------------------------------------------------------------------


def stable_seed(*parts: Any) -> int:
    """A 63-bit seed from a SHA-256 of the parts' text (never Python's randomised hash())."""
    h = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(h[:8], "little") >> 1


@dataclass
class Context:
    """What a check may use besides its parameters: backend, tier, and seeded generators."""

    claim_id: str
    tier: str = "quick"
    backend: str = "cpu"
    statement_tag: str = "printed"

    def seed(self, tag: str = "") -> int:
        """The seed of a named random stream of this claim (independent of the statement tested)."""
        return stable_seed(self.claim_id, tag)

    def rng(self, tag: str = "") -> np.random.Generator:
        """A fresh generator for a named stream; the same tag gives the same draws on every run."""
        return np.random.default_rng(np.random.SeedSequence(self.seed(tag)))

    def map(self, fn: Callable[..., Any], items: Sequence[tuple]) -> list:
        """``[fn(*item) for item in items]`` for independent pieces of this check (seed blocks), which the
        executor may run as separate tasks (verify/blocks.py); the results keep the order of ``items``.
        ``fn`` must be module-level and each result a function of its arguments alone (run r on seed r)."""
        return BLOCK_MAPPER.get()(fn, items)


# ---------------------------------------------------------------------------------------------
# claims and the registry
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutant:
    """A plausible false variant of the statement that the same check must reject."""

    name: str
    description: str
    statement: Any
    #: a near-boundary mutant: the statement strengthened by a factor just beyond the sharpness found
    #: for inequality part ``part`` (the description states the factor)
    near_boundary: bool = False
    part: str | None = None
    #: who proposed it: "author" (the checker's author) or "second-reader" (an independent reader)
    origin: str = "author"


@dataclass(frozen=True)
class Claim:
    id: str
    source: str
    label: str
    title: str
    entry: str
    lines: tuple[tuple[int, int], ...]
    check: Callable[[Any, Mapping[str, Any], Context], Verdict]
    printed: Any
    corrected: Any
    mutants: tuple[Mutant, ...]
    expect: Status
    rigor: Rigor
    kind: Kind
    params: tuple[Param, ...]
    tiers: Mapping[str, Mapping[str, Any]]
    derived: bool = False
    uses_backend: bool = False
    summary: str = ""
    #: the statement's parts; None = not yet declared (a source not yet audited under the contract)
    parts: tuple[Part, ...] | None = None
    severity: Severity | None = None
    #: hypothesis validator: case dict -> list of the printed hypotheses the case violates ([] = all met)
    hypotheses: Callable[[Mapping[str, Any]], list[str]] | None = None
    #: the proof's step / construction as a statement object for the same check (proof-gap claims)
    proof_step: Any = None
    #: later claims whose statement or proof uses this one (listed for errata and proof-gaps)
    affects: tuple[str, ...] = ()
    #: the document's figures or tables this claim regenerates ("Figure B.10", "Table C.2", "Figure 5.1 (left)")
    figure: tuple[str, ...] = ()

    @property
    def doc(self) -> str:
        return inspect.cleandoc(self.check.__doc__ or "")

    def section(self, name: str) -> str:
        """Text of one docstring section (``Statement``, ``Source``, ...), '' if absent."""
        return doc_section(self.doc, name)

    @property
    def has_corrected(self) -> bool:
        return self.corrected is not None

    def tier_params(self, tier: str) -> dict[str, Any]:
        if tier not in TIERS:
            raise InvalidParameter(f"{self.id}: argument 'tier' must be one of {TIERS}, not {tier!r}")
        base = dict(self.tiers.get("quick", {}))
        if tier in ("full", "gpu"):
            base.update(self.tiers.get("full", {}))
        if tier == "gpu":
            base.update(self.tiers.get("gpu", {}))
        return base

    def resolve_params(self, tier: str, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        values = self.tier_params(tier)
        declared = {p.name: p for p in self.params}
        for key, value in (overrides or {}).items():
            if key not in declared:
                allowed = ", ".join(sorted(declared)) or "none"
                raise InvalidParameter(f"{self.id}: unknown parameter '{key}' (this claim takes: {allowed})")
            values[key] = value
        out = {}
        for name, p in declared.items():
            if name not in values:
                raise InvalidParameter(f"{self.id}: parameter '{name}' has no value at tier '{tier}'")
            out[name] = p.coerce(self.id, values[name])
        return out

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "source": self.source,
            "label": self.label,
            "title": self.title,
            "entry": self.entry,
            "lines": [list(r) for r in self.lines],
            "status": self.expect.value,
            "rigor": self.rigor.value,
            "kind": self.kind.value,
            "mutants": len(self.mutants),
            "has_corrected": self.has_corrected,
            "derived": self.derived,
            "severity": self.severity.value if self.severity else None,
            "parts": [p.to_json() for p in self.parts] if self.parts is not None else None,
            "affects": list(self.affects),
            "figure": figure_json(self.figure),
            "has_proof_step": self.proof_step is not None,
            "params": {p.name: p.domain_text() for p in self.params},
            "tiers": {t: self.tier_params(t) for t in TIERS},
        }

    @property
    def unchecked_parts(self) -> tuple[Part, ...]:
        return tuple(p for p in (self.parts or ()) if not p.asserted)


_FIGURE_NAME = re.compile(r"(Figure|Table) ([A-Z]\.)?[0-9]+(\.[0-9]+)?( \([^()]+\))?")


def figure_names(claim_id: str, figure: str | Sequence[str]) -> tuple[str, ...]:
    """Validate a claim's ``figure`` argument; return the names as a tuple (empty: regenerates none)."""
    names = (figure,) if isinstance(figure, str) else tuple(figure)
    for name in names:
        if not isinstance(name, str) or not _FIGURE_NAME.fullmatch(name):
            raise ValueError(f"{claim_id}: argument 'figure' must name figures or tables like 'Figure B.10', "
                             f"'Table C.2' or 'Figure 5.1 (left)', not {name!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"{claim_id}: argument 'figure' names a figure twice: {list(names)}")
    return names


def figure_json(names: tuple[str, ...]) -> str | list[str] | None:
    """The ``figure`` field of ``verify list --json``: None, one name, or a list where there are several."""
    if not names:
        return None
    return names[0] if len(names) == 1 else list(names)


def doc_section(doc: str, name: str) -> str:
    """The body of a numpydoc-style section (a title line underlined with dashes) of a docstring."""
    lines = inspect.cleandoc(doc).splitlines()
    body: list[str] = []
    inside = False
    i = 0
    while i < len(lines):
        is_header = i + 1 < len(lines) and lines[i].strip() and set(lines[i + 1].strip()) == {"-"}
        if is_header:
            if inside:
                break
            inside = lines[i].strip() == name
            i += 2
            continue
        if inside:
            body.append(lines[i])
        i += 1
    return "\n".join(body).strip()


REGISTRY: dict[str, Claim] = {}


def claim(
    *,
    id: str,
    source: str,
    label: str,
    title: str,
    entry: str,
    lines: Sequence[tuple[int, int]],
    printed: Any,
    mutants: Sequence[Mutant],
    expect: Status,
    rigor: Rigor,
    corrected: Any = None,
    kind: Kind = Kind.THEOREM,
    params: Sequence[Param] = (),
    tiers: Mapping[str, Mapping[str, Any]] | None = None,
    derived: bool = False,
    uses_backend: bool = False,
    summary: str = "",
    parts: Sequence[Part] | None = None,
    severity: Severity | str | None = None,
    hypotheses: Callable[[Mapping[str, Any]], list[str]] | None = None,
    proof_step: Any = None,
    affects: Sequence[str] = (),
    figure: str | Sequence[str] = (),
):
    """Register the decorated check function as a claim (a duplicate id raises at import time).

    ``figure`` names the figures or tables of the document that the claim regenerates: one name
    ("Figure B.10") or several (["Figure 6.1", "Figure C.1"]), each "Figure" or "Table", the document's
    number, and optionally a panel in parentheses ("Figure 5.1 (left)").
    """
    figures = figure_names(id, figure)

    def deco(fn):
        if id in REGISTRY:
            raise ValueError(f"duplicate claim id {id!r} (already registered by {REGISTRY[id].check.__module__})")
        c = Claim(
            id=id,
            source=source,
            label=label,
            title=title,
            entry=entry,
            lines=tuple((int(a), int(b)) for a, b in lines),
            check=fn,
            printed=printed,
            corrected=corrected,
            mutants=tuple(mutants),
            expect=Status(expect),
            rigor=Rigor(rigor),
            kind=Kind(kind),
            params=tuple(params),
            tiers={k: dict(v) for k, v in (tiers or {"quick": {}}).items()},
            derived=derived,
            uses_backend=uses_backend,
            summary=summary,
            parts=tuple(parts) if parts is not None else None,
            severity=Severity(severity) if severity is not None else None,
            hypotheses=hypotheses,
            proof_step=proof_step,
            affects=tuple(affects),
            figure=figures,
        )
        if c.parts is not None and len({q.name for q in c.parts}) != len(c.parts):
            raise ValueError(f"{id}: part names must be unique")
        REGISTRY[id] = c
        fn.claim = c
        return fn

    return deco


_DISCOVERED = False


def discover() -> dict[str, Claim]:
    """Import every module under verify/ so that all claims register; return the registry."""
    global _DISCOVERED
    if not _DISCOVERED:
        import verify

        for info in pkgutil.walk_packages(verify.__path__, prefix="verify."):
            leaf = info.name.rsplit(".", 1)[-1]
            if leaf.startswith("test_") or leaf in ("__main__", "report", "conftest", "_preload"):
                continue
            importlib.import_module(info.name)
        _DISCOVERED = True
    return REGISTRY


def all_claims() -> list[Claim]:
    """Every registered claim, sorted by source then id."""
    return sorted(discover().values(), key=lambda c: (c.source, c.id))


def get_claim(claim_id: str) -> Claim:
    reg = discover()
    if claim_id not in reg:
        close = [c for c in reg if claim_id.lower() in c.lower()]
        hint = f"; did you mean one of {close[:5]}?" if close else "; 'python -m verify list' shows all ids"
        raise InvalidParameter(f"unknown claim id {claim_id!r}{hint}")
    return reg[claim_id]


# ---------------------------------------------------------------------------------------------
# running
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MutantResult:
    mutant: Mutant
    verdict: Verdict

    @property
    def rejected(self) -> bool:
        return not self.verdict.holds


@dataclass(frozen=True)
class ClaimResult:
    claim: Claim
    status: Status
    printed: Verdict
    corrected: Verdict | None
    mutants: tuple[MutantResult, ...]
    params: Mapping[str, Any]
    tier: str
    backend: str
    seconds: float
    proof_step: Verdict | None = None

    @property
    def as_expected(self) -> bool:
        return self.status == self.claim.expect

    @property
    def mutants_rejected(self) -> int:
        return sum(m.rejected for m in self.mutants)

    @property
    def ok(self) -> bool:
        return self.as_expected and self.mutants_rejected == len(self.mutants)

    def to_json(self) -> dict:
        return {
            "id": self.claim.id,
            "status": self.status.value,
            "expected": self.claim.expect.value,
            "as_expected": self.as_expected,
            "holds_as_printed": self.printed.holds,
            "witness": to_jsonable(self.printed.witness),
            "slack": self.printed.slack,
            "cases": self.printed.cases,
            "seconds": round(self.seconds, 3),
            "backend": self.backend,
            "tier": self.tier,
            "params": to_jsonable(dict(self.params)),
            "rigor": self.printed.rigor.value,
            "mutants_rejected": self.mutants_rejected,
            "mutants_total": len(self.mutants),
            "mutants": [
                {"name": m.mutant.name, "description": m.mutant.description, "rejected": m.rejected,
                 "witness": to_jsonable(m.verdict.witness), "verdict": verdict_json(m.verdict)}
                for m in self.mutants
            ],
            "severity": self.claim.severity.value if self.claim.severity else None,
            "parts": [{"name": q.name, "asserted": q.asserted, "reason": q.reason or None}
                      for q in self.claim.parts] if self.claim.parts is not None else None,
            "sharpness": to_jsonable(self.printed.sharpness),  # a number, null, or "inf" (strict JSON)
            "sharpness_case": to_jsonable(self.printed.sharpness_case),
            "sharpness_parts": to_jsonable(dict(self.printed.sharpness_parts)),
            "printed": verdict_json(self.printed),
            "corrected": verdict_json(self.corrected) if self.corrected else None,
            "proof_step": verdict_json(self.proof_step) if self.proof_step else None,
        }

    @classmethod
    def from_json(cls, c: Claim, data: Mapping[str, Any]) -> "ClaimResult":
        """Rebuild a stored result (``to_json`` output) of claim ``c``, for re-rendering a report.

        Raises ValueError when the stored result does not belong to ``c`` as registered now (other id,
        other expected status, other mutants) or was written before verdicts were stored in full.
        """
        if data.get("id") != c.id:
            raise ValueError(f"stored result is for {data.get('id')!r}, not {c.id!r}")
        if data.get("expected") != c.expect.value:
            raise ValueError(f"{c.id}: stored result expects {data.get('expected')!r}, the registry {c.expect.value!r}")
        stored = {m["name"]: m for m in data.get("mutants", [])}
        if set(stored) != {m.name for m in c.mutants} or any("verdict" not in m for m in stored.values()):
            raise ValueError(f"{c.id}: stored mutants differ from the registered ones (or predate full storage)")
        return cls(
            claim=c,
            status=Status(data["status"]),
            printed=verdict_from_json(data["printed"]),
            corrected=verdict_from_json(data["corrected"]) if data.get("corrected") else None,
            mutants=tuple(MutantResult(m, verdict_from_json(stored[m.name]["verdict"])) for m in c.mutants),
            params=dict(data.get("params", {})),
            tier=data["tier"],
            backend=data["backend"],
            seconds=float(data["seconds"]),
            proof_step=verdict_from_json(data["proof_step"]) if data.get("proof_step") else None,
        )


def verdict_json(v: Verdict) -> dict:
    return to_jsonable(
        {
            "holds": v.holds,
            "cases": v.cases,
            "failures": v.failures,
            "relation": v.relation,
            "tightest": v.tightest,
            "slack": v.slack,
            "witness": v.witness,
            "rigor": v.rigor.value,
            "backend": v.backend,
            "seconds": round(v.seconds, 3),
            "seed": v.seed,
            "details": dict(v.details),
            "plots": list(v.plots),
            "note": v.note,
            "sharpness": v.sharpness,
            "sharpness_case": v.sharpness_case,
            "sharpness_parts": dict(v.sharpness_parts),
        }
    )


def verdict_from_json(d: Mapping[str, Any]) -> Verdict:
    """Inverse of :func:`verdict_json` up to JSON types (exact numbers come back as their text)."""
    return Verdict(
        holds=bool(d["holds"]),
        cases=int(d["cases"]),
        relation=d["relation"],
        tightest=d.get("tightest"),
        slack=d.get("slack"),
        witness=d.get("witness"),
        failures=int(d["failures"]),
        rigor=Rigor(d["rigor"]),
        backend=d.get("backend", "cpu"),
        seconds=float(d.get("seconds", 0.0)),
        seed=d.get("seed"),
        details=dict(d.get("details") or {}),
        plots=tuple(d.get("plots") or ()),
        note=d.get("note", ""),
        sharpness=_as_float(d["sharpness"]) if d.get("sharpness") is not None else None,
        sharpness_case=d.get("sharpness_case"),
        sharpness_parts=dict(d.get("sharpness_parts") or {}),
    )


def to_jsonable(obj):
    """Recursively convert numpy / Fraction / tuples / enums into JSON-serialisable values."""
    t = type(obj)  # the plain JSON leaves first (most of a report): the same values as the general branches below
    if t is str or t is bool or obj is None:
        return obj
    if t is float:
        return obj if math.isfinite(obj) else str(obj)
    if t is int and -_EXACT_INT < obj < _EXACT_INT:
        return obj
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return [to_jsonable(v) for v in obj.tolist()]
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, float) and not math.isfinite(obj):
        return str(obj)
    if isinstance(obj, (complex, np.complexfloating)):  # a complex value recorded by a check: JSON has none
        z = complex(obj)
        return to_jsonable(z.real) if z.imag == 0 else {"re": to_jsonable(z.real), "im": to_jsonable(z.imag)}
    return _num_text(obj)


def _timed(claim: Claim, statement: Any, params: Mapping[str, Any], ctx: Context) -> Verdict:
    t0 = time.perf_counter()
    v = claim.check(statement, params, ctx)
    if not isinstance(v, Verdict):
        raise TypeError(f"{claim.id}: check returned {type(v).__name__}, not a Verdict")
    # rounded as stored (report/results.json): a result rendered fresh and one rendered from the store agree
    return replace(v, seconds=round(time.perf_counter() - t0, 3), params=dict(params), backend=v.backend or ctx.backend)


def derive_status(kind: Kind, printed: Verdict, corrected: Verdict | None, proof_step: Verdict | None = None,
                  parts: Sequence[Part] | None = None) -> Status:
    """The status the verdicts establish (docs/contract.md, "Statuses").

    A failing printed statement is an erratum when its correction holds, else refuted.  A printed
    statement that holds while the proof's step fails is a proof-gap.  A theorem that holds with some
    part unchecked is partly-confirmed; with every part asserted (or parts not yet declared) confirmed.
    """
    if kind is Kind.EMPIRICAL:
        return Status.REPRODUCED if printed.holds else Status.NOT_REPRODUCED
    if not printed.holds:
        return Status.ERRATUM if corrected is not None and corrected.holds else Status.REFUTED
    if proof_step is not None and not proof_step.holds:
        return Status.PROOF_GAP
    if kind is Kind.MECHANISM:
        return Status.MECHANISM
    if parts is not None and any(not q.asserted for q in parts):
        return Status.PARTLY_CONFIRMED
    return Status.CONFIRMED


def run_claim(
    claim: Claim | str,
    *,
    tier: str = "quick",
    params: Mapping[str, Any] | None = None,
    backend: str = "auto",
    mutants: bool = True,
) -> ClaimResult:
    """Check a claim's printed statement, its corrected one when the printed fails, and its mutants."""
    from kernels.backend import resolve_backend

    c = get_claim(claim) if isinstance(claim, str) else claim
    resolved = c.resolve_params(tier, params)
    try:
        used = resolve_backend(backend) if c.uses_backend else "cpu"
    except ValueError as exc:
        raise InvalidParameter(f"{c.id}: {exc}") from None
    t0 = time.perf_counter()
    printed = _timed(c, c.printed, resolved, Context(c.id, tier, used, "printed"))
    proof_step = None
    if c.proof_step is not None:
        proof_step = _timed(c, c.proof_step, resolved, Context(c.id, tier, used, "proof-step"))
    corrected = None
    if c.corrected is not None and (not printed.holds or (proof_step is not None and not proof_step.holds)):
        corrected = _timed(c, c.corrected, resolved, Context(c.id, tier, used, "corrected"))
    results = []
    if mutants:
        for m in c.mutants:
            results.append(MutantResult(m, _timed(c, m.statement, resolved, Context(c.id, tier, used, f"mutant:{m.name}"))))
    status = derive_status(c.kind, printed, corrected, proof_step, c.parts)
    return ClaimResult(c, status, printed, corrected, tuple(results), resolved, tier, used,
                       round(time.perf_counter() - t0, 3), proof_step=proof_step)
