"""Command line: ``python -m verify list | run ID | show ID | index``.

``list`` and ``show`` read the committed claim index (verify/claims_index.json) when it is fresh, so they
start without importing the checkers; ``index --write`` regenerates it.

Exit codes: 0 when the computed verdict equals the expected one and every mutant is rejected, 1 when
not, 2 on bad input (unknown claim, parameter outside its domain, impossible backend) with the message
on stderr.  ``--json`` prints machine-readable output (README.md, "Command line").
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from pathlib import Path

from .registry import TIERS, InvalidParameter, Status, get_claim, run_claim, to_jsonable

RESULTS_JSON = Path(__file__).resolve().parent.parent / "report" / "results.json"


def _recorded_sharpness() -> dict[str, tuple]:
    """Sharpness (and its case) per claim as recorded in the committed full-tier results, where any."""
    try:
        data = json.loads(RESULTS_JSON.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if data.get("environment", {}).get("tier") not in ("full", "gpu"):
        return {}
    return {r["id"]: (r.get("sharpness"), r.get("sharpness_case")) for r in data.get("results", []) if "id" in r}


_RECORD_ONLY = ("doc", "param_docs", "mutant_details")


def _records():
    from .claims_index import REGENERATE, claim_records

    records, fresh = claim_records()
    if not fresh:
        print(f"note: the claim index is stale or missing, so every claim module was imported; "
              f"`{REGENERATE}` makes this fast again", file=sys.stderr)
    return records


def _record(claim_id: str) -> dict:
    for rec in _records():
        if rec["id"] == claim_id:
            return rec
    get_claim(claim_id)  # raises InvalidParameter with suggestions
    raise InvalidParameter(f"unknown claim id {claim_id!r}")  # pragma: no cover


def _parse_params(items: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise InvalidParameter(f"argument '--param' must look like name=value, not {item!r}")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _cmd_list(args) -> int:
    claims = [r for r in _records() if (args.source is None or r["source"] == args.source)
              and (args.status is None or r["status"] == args.status)
              and (not args.figures or r.get("figure"))]
    if args.json:
        sharp = _recorded_sharpness()
        rows = []
        for r in claims:
            s, case = sharp.get(r["id"], (None, None))
            rows.append(dict({k: v for k, v in r.items() if k not in _RECORD_ONLY}, sharpness=s, sharpness_case=case))
        print(json.dumps(to_jsonable(rows), indent=1, allow_nan=False))
        return 0
    width = max((len(r["id"]) for r in claims), default=10)
    for r in claims:
        figure = r.get("figure")
        regenerates = f"  [{figure if isinstance(figure, str) else ', '.join(figure)}]" if figure else ""
        print(f"{r['id']:<{width}}  {r['status']:<16} {r['rigor']:<11} {r['label']}: {r['title']}{regenerates}")
    print(f"{len(claims)} claims")
    return 0


def _cmd_show(args) -> int:
    c = _record(args.id)
    if args.json:
        print(json.dumps(to_jsonable({k: v for k, v in c.items() if k not in ("param_docs", "mutant_details")}), indent=1,
                         allow_nan=False))
        return 0
    print(f"{c['id']}  ({c['source']}, {c['label']}, catalog entry {c['entry']}, lines "
          + ", ".join(f"{a}-{b}" for a, b in c["lines"]) + " of the plain-text copy; docs/sources.md)")
    print(f"expected status: {c['status']}; rigor: {c['rigor']}; kind: {c['kind']}"
          + (f"; severity: {c['severity']}" if c.get("severity") else ""))
    if c.get("affects"):
        print(f"affects: {', '.join(c['affects'])}")
    if c.get("figure"):
        figure = c["figure"]
        print(f"regenerates: {figure if isinstance(figure, str) else ', '.join(figure)}")
    if c.get("parts") is not None:
        print("parts:")
        for q in c["parts"]:
            mark = "asserted" if q["asserted"] else f"unchecked ({q['reason']})"
            print(f"  {q['name']}{' [inequality]' if q['inequality'] else ''}: {mark}\n      {q['text']}")
    else:
        print("parts: not yet declared (source not yet audited under the verdict contract)")
    print()
    print(c["doc"])
    print()
    print("parameters:")
    for name, domain in c["params"].items():
        doc = c.get("param_docs", {}).get(name)
        print(f"  {name}: {domain}" + (f"  -- {doc}" if doc else ""))
    for t in TIERS:
        print(f"  tier {t}: {c['tiers'][t]}")
    print("mutants:")
    for m in c["mutant_details"]:
        tags = [t for t, on in (("near-boundary", m["near_boundary"]), ("second reader", m["origin"] == "second-reader")) if on]
        print(f"  {m['name']}: {m['description']}" + (f"  [{', '.join(tags)}]" if tags else ""))
    return 0


def _cmd_index(args) -> int:
    from .claims_index import INDEX_PATH, REGENERATE, build_index, load_index, write_index

    if args.write:
        index = write_index()
        print(f"wrote {INDEX_PATH.name} ({len(index['claims'])} claims)", file=sys.stderr)
        return 0
    current = load_index()
    if current is None or current != build_index()["claims"]:
        print(f"stale: {INDEX_PATH.name} does not match the registry; run `{REGENERATE}`", file=sys.stderr)
        return 1
    return 0


def _cmd_run(args) -> int:
    from .costs import refusal

    c = get_claim(args.id)
    overrides = _parse_params(args.param)
    resolved = c.resolve_params(args.tier, overrides)
    problem = refusal(c.id, resolved, {t: c.tier_params(t) for t in TIERS}, force=args.force)
    if problem:
        raise InvalidParameter(problem)
    result = run_claim(c, tier=args.tier, params=overrides, backend=args.backend, mutants=not args.no_mutants)
    if args.json:
        print(json.dumps(to_jsonable(result.to_json()), indent=1, allow_nan=False))
    else:
        p = result.printed
        print(f"{c.id}: {result.status.value} (expected {c.expect.value}) in {result.seconds:.2f} s on {result.backend}")
        print(f"  printed:   {p.summary()}")
        if result.proof_step is not None:
            print(f"  proof step: {result.proof_step.summary()}")
        if result.corrected is not None:
            print(f"  corrected: {result.corrected.summary()}")
        if p.sharpness is not None:
            print(f"  sharpness: {p.sharpness:.6g} (largest lhs/rhs found) at {p.sharpness_case}")
        for m in result.mutants:
            print(f"  mutant {m.mutant.name}: {'rejected' if m.rejected else 'NOT REJECTED'}"
                  + (f" ({m.verdict.summary()})" if m.rejected else ""))
        print(f"  params: {dict(result.params)}")
    return 0 if result.ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m verify", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_list = sub.add_parser("list", help="list the registered claims")
    p_list.add_argument("--json", action="store_true")
    p_list.add_argument("--source", default=None, help="only claims of this source (e.g. thesis_ch5)")
    p_list.add_argument("--figures", action="store_true",
                        help="only claims that regenerate a figure or table of their document (field 'figure')")
    p_list.add_argument("--status", default=None, choices=[s.value for s in Status],
                        help="only claims with this expected status (e.g. proof-gap)")
    p_show = sub.add_parser("show", help="statement, parameters and mutants of one claim")
    p_show.add_argument("id")
    p_show.add_argument("--json", action="store_true")
    p_run = sub.add_parser("run", help="check one claim")
    p_run.add_argument("id")
    p_run.add_argument("--tier", choices=TIERS, default="quick")
    p_run.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    p_run.add_argument("--backend", choices=("auto", "cpu", "cuda", "reference"), default="auto")
    p_run.add_argument("--json", action="store_true")
    p_run.add_argument("--no-mutants", action="store_true", help="skip the mutants (faster)")
    p_run.add_argument("--force", action="store_true",
                       help="run parameter values beyond the claim's cost estimate or tested range (verify/costs.py)")
    p_index = sub.add_parser("index", help="check (exit 1 if stale) or --write the claim index used by list and show")
    p_index.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    try:
        return {"list": _cmd_list, "show": _cmd_show, "run": _cmd_run, "index": _cmd_index}[args.cmd](args)
    except ValueError as exc:  # InvalidParameter and kernel argument errors
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:  # an interpreter without the project's dependencies
        return _missing_dependency(exc, sys.argv[1:] if argv is None else argv)
    except ImportError as exc:  # e.g. a stale editable install that resolves a package to a namespace
        print(f"error: the installed project is inconsistent ({exc}); reinstall it from the repository root: "
              f"python -m pip install -e \".[cuda]\"", file=sys.stderr)
        return 2


def _missing_dependency(exc: ModuleNotFoundError, argv: list[str]) -> int:
    """Re-run under the project's virtual environment (README: ``.venv``) when this interpreter lacks a
    dependency and that environment exists; otherwise say what is missing (exit 2)."""
    venv_python = Path(__file__).resolve().parent.parent / ".venv" / "bin" / "python"
    if venv_python.exists() and Path(sys.prefix).resolve() != venv_python.parent.parent.resolve():
        print(f"note: {exc.name} is not installed for {sys.executable}; re-running under {venv_python}", file=sys.stderr)
        sys.stdout.flush()
        os.execv(str(venv_python), [str(venv_python), "-m", "verify", *argv])
    print(f"error: dependency {exc.name!r} is missing; install the project first: "
          f"python -m pip install -e \".[cuda]\" (README, first command)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    status = main()
    gc.freeze()  # exiting: spares the interpreter's final collections over every claim module (~0.6 s here)
    sys.exit(status)
