"""A committed index of claim metadata (verify/claims_index.json) so that ``verify list`` and ``verify show``
start without importing the checkers.

``python -m verify index --write`` regenerates it (``python -m verify index`` exits 1 when it is stale).
The index records a fingerprint of the sources that define claims (every module under verify/ that the
registry imports); when the fingerprint differs, ``list`` and ``show`` ignore the index and import the
registry (slower, never wrong), and tests/test_claims_index.py fails with the command that regenerates it.
``run`` always imports the real claim.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
INDEX_PATH = PACKAGE / "claims_index.json"
REGENERATE = "python -m verify index --write"
#: modules under verify/ that do not define claim metadata
_NOT_METADATA = {"__main__.py", "report.py", "claims_index.py", "costs.py"}


def _metadata_sources() -> list[Path]:
    files = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.name.startswith("test_") or (len(rel.parts) == 1 and rel.name in _NOT_METADATA):
            continue
        if "__pycache__" in rel.parts:
            continue
        files.append(path)
    return files


def fingerprint() -> str:
    """Content hash of the modules that define claims (line endings normalised)."""
    h = hashlib.sha256()
    for path in _metadata_sources():
        h.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0")
        h.update(path.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    return h.hexdigest()[:20]


def claim_record(c) -> dict:
    """Everything ``list --json`` and ``show`` print about a claim, as JSON."""
    return dict(
        c.to_json(),
        doc=c.doc,
        param_docs={p.name: p.doc for p in c.params if p.doc},
        mutant_details=[{"name": m.name, "description": m.description, "near_boundary": m.near_boundary,
                         "part": m.part, "origin": m.origin} for m in c.mutants],
    )


def build_index() -> dict:
    from .registry import all_claims

    return {"fingerprint": fingerprint(), "regenerate": REGENERATE,
            "claims": [claim_record(c) for c in all_claims()]}


def write_index(path: Path = INDEX_PATH) -> dict:
    index = build_index()
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(index, indent=0, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)
    return index


def load_index(path: Path = INDEX_PATH) -> list[dict] | None:
    """The indexed claim records, or None when the index is missing or stale."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if data.get("fingerprint") != fingerprint():
        return None
    return data.get("claims")


def claim_records() -> tuple[list[dict], bool]:
    """(records of every claim, whether they came from the fresh index)."""
    records = load_index()
    if records is not None:
        return records, True
    from .registry import all_claims

    return [claim_record(c) for c in all_claims()], False
