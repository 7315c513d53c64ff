"""Compare two report/results.json files claim by claim, timings aside: ``python -m verify.compare OLD NEW``.

The check behind "no behaviour change" (a refactor, a kernel move, a new engine): every verdict, witness,
case, sharpness and number of one report must equal the other's.  Fields named ``seconds`` or containing
"seconds" (at any depth, also inside ``details``) are timings and are ignored; so are mutant descriptions
with ``--ignore-descriptions`` (texts, not results).  Non-finite numbers compare equal to the strings the
report writes for them ("inf", "-inf", "nan"; older files hold the non-standard Infinity and NaN).  Prints one line per difference (claim id, the path
of the field, both values) and exits 0 when the reports agree, 1 when they differ, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any, Iterator

__all__ = ["differences", "main"]


def _is_timing(key: Any) -> bool:
    return isinstance(key, str) and "seconds" in key


def _norm(v: Any) -> Any:
    """Non-finite floats as the strings the report writes for them (strict JSON: "inf", "-inf", "nan"); an
    older results.json holds them as the non-standard JSON numbers Infinity and NaN."""
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


def _walk(a: Any, b: Any, path: tuple, ignore_descriptions: bool) -> Iterator[tuple[tuple, Any, Any]]:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if _is_timing(key) or (ignore_descriptions and key == "description"):
                continue
            yield from _walk(a.get(key), b.get(key), path + (key,), ignore_descriptions)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            yield from _walk(x, y, path + (i,), ignore_descriptions)
    elif _norm(a) != _norm(b):
        yield path, a, b


def differences(old: dict, new: dict, *, ignore_descriptions: bool = False) -> list[tuple[str, str, Any, Any]]:
    """(claim id, field path, old value, new value) for every non-timing difference of two results.json
    documents; a claim present on one side only is reported with the path '(claim)'."""
    a = {r["id"]: r for r in old["results"]}
    b = {r["id"]: r for r in new["results"]}
    out = [(cid, "(claim)", cid in a or None, cid in b or None) for cid in sorted(set(a) ^ set(b))]
    for cid in sorted(set(a) & set(b)):
        out += [(cid, "/".join(map(str, p)), x, y) for p, x, y in _walk(a[cid], b[cid], (), ignore_descriptions)]
    return out


def _load(name: str, path: str) -> dict:
    try:
        doc = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise ValueError(f"argument '{name}': cannot read a results.json from {path!r} ({exc})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), list):
        raise ValueError(f"argument '{name}': {path!r} is not a report/results.json (no 'results' list)")
    return doc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m verify.compare", description=__doc__.splitlines()[0])
    ap.add_argument("old", help="a report/results.json (e.g. from `git show REV:report/results.json`)")
    ap.add_argument("new", help="another report/results.json")
    ap.add_argument("--ignore-descriptions", action="store_true", help="ignore mutant description texts")
    args = ap.parse_args(argv)
    try:
        old, new = _load("old", args.old), _load("new", args.new)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    diffs = differences(old, new, ignore_descriptions=args.ignore_descriptions)
    for cid, path, x, y in diffs:
        print(f"{cid}  {path}  {str(x)[:160]!s}  ->  {str(y)[:160]!s}")
    n = len({d[0] for d in diffs})
    print(f"{len(old['results'])} and {len(new['results'])} claims; {n} differ ({len(diffs)} fields), timings aside",
          file=sys.stderr)
    return 1 if diffs else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
