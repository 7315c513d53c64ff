"""``python -m verify.report``: run the registry and rewrite REPORT.md, report/results.json and figures.

Usage::

    python -m verify.report [--tier quick|full|gpu] [--backend auto|cpu|cuda] [--only ID ...]
    python -m verify.report --check        # exit 1 if REPORT.md does not list the registry as it is

The report only renders verdicts: every number in it comes from a claim's Verdict (run here through
``run_claim``) or from benchmarks/results.json; nothing is recomputed while rendering.  Output is
written to temporary files first and moved into place at the end, so a failure leaves the previous
report intact.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from ._machine import machine_line
from .registry import TIERS, ClaimResult, Status, all_claims, get_claim, run_claim, to_jsonable

ROOT = Path(__file__).resolve().parent.parent
STATUS_ORDER = [s.value for s in Status]
INDEX_HEADER = "| claim | label | expected | computed | rigor | cases | mutants rejected | seconds |"


# ---------------------------------------------------------------------------------------------
# environment
# ---------------------------------------------------------------------------------------------


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def environment(tier: str, backend: str) -> dict:
    import numba
    import numpy
    import scipy
    import sympy

    from kernels.backend import gpu_available

    commit = _git("rev-parse", "--short", "HEAD") or "unknown"
    if _git("status", "--porcelain", "--untracked-files=no"):
        commit += " (with uncommitted changes)"
    return {
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit,
        "tier": tier,
        "backend": backend,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "numba": numba.__version__,
        "scipy": scipy.__version__,
        "sympy": sympy.__version__,
        "machine": machine_line(),
        "gpu": "yes" if gpu_available() else "no",
    }


# ---------------------------------------------------------------------------------------------
# rendering helpers
# ---------------------------------------------------------------------------------------------


def _cell(v) -> str:
    if isinstance(v, float):
        text = f"{v:.6g}"
    elif isinstance(v, (dict, list)):
        text = json.dumps(to_jsonable(v))
    else:
        text = str(to_jsonable(v))
    return text.replace("|", "\\|").replace("\n", " ")


def _case_text(case: dict | None) -> str:
    if not case:
        return "n/a"
    return ", ".join(f"{k} = {_cell(v)}" for k, v in case.items())


def _side_text(rec: dict | None) -> str:
    if not rec:
        return "n/a"
    tol = f" (tol {_cell(rec['tol'])})" if rec.get("tol") is not None else ""
    return f"{_case_text(rec.get('case'))}: lhs = {_cell(rec.get('lhs'))} {rec.get('relation', '')} rhs = {_cell(rec.get('rhs'))}{tol}"


def render_details(details: dict) -> list[str]:
    """Markdown for a Verdict's details: tables for dicts of dicts / lists of dicts, else JSON."""
    out: list[str] = []
    for title, value in details.items():
        out.append(f"*{title}*")
        out.append("")
        value = to_jsonable(value)
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            cols: list[str] = []
            for row in value.values():
                cols += [c for c in row if c not in cols]
            out.append("| | " + " | ".join(_cell(c) for c in cols) + " |")
            out.append("|---" * (len(cols) + 1) + "|")
            for key, row in value.items():
                out.append(f"| {_cell(key)} | " + " | ".join(_cell(row.get(c, "")) for c in cols) + " |")
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            cols = []
            for row in value:
                cols += [c for c in row if c not in cols]
            out.append("| " + " | ".join(_cell(c) for c in cols) + " |")
            out.append("|---" * len(cols) + "|")
            for row in value:
                out.append("| " + " | ".join(_cell(row.get(c, "")) for c in cols) + " |")
        elif isinstance(value, dict):
            out.append("| key | value |")
            out.append("|---|---|")
            for k, v in value.items():
                out.append(f"| {_cell(k)} | {_cell(v)} |")
        else:
            out.append(f"`{_cell(value)}`")
        out.append("")
    return out


def _slug(claim_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", claim_id)


def render_plots(result: ClaimResult, figdir: Path) -> list[str]:
    """Draw the Verdict's plot specs to PNG files; return the relative paths."""
    specs = list(result.printed.plots)
    if result.corrected is not None:
        titles = {spec.get("title") for spec in specs}
        specs += [spec for spec in result.corrected.plots if spec.get("title") not in titles]
    if not specs:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    for i, spec in enumerate(specs):
        fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100)
        if spec.get("kind") == "heatmap":
            _draw_heatmap(fig, ax, spec)
        for s in spec.get("series", []):
            style = s.get("style", "-o" if len(s.get("x", [])) < 40 else "-")
            ax.plot(s["x"], s["y"], style, label=s.get("label"), markersize=3)
        ax.set_title(spec.get("title", ""), fontsize=10)
        ax.set_xlabel(spec.get("xlabel", ""))
        ax.set_ylabel(spec.get("ylabel", ""))
        if spec.get("logx"):
            ax.set_xscale("log")
        if spec.get("logy"):
            ax.set_yscale("log")
        if any(s.get("label") for s in spec.get("series", [])):
            ax.legend(fontsize=8)
        if spec.get("kind") != "heatmap":
            ax.grid(True, alpha=0.3)
        fig.tight_layout()
        name = f"{_slug(result.claim.id)}-{i}.png"
        fig.savefig(figdir / name, metadata={"Software": None})
        plt.close(fig)
        paths.append(f"report/figures/{name}")
    return paths


def _draw_heatmap(fig, ax, spec: dict) -> None:
    """A heat map spec: ``{"kind": "heatmap", "z": rows x cols, "x": col labels, "y": row labels,
    "zlabel", "vmin", "vmax", "annotate"}``; optional ``series`` are drawn over it in cell coordinates
    (column index on x, row index on y), e.g. a theoretical frontier."""
    z = np.asarray(spec["z"], dtype=float)
    if z.ndim != 2:
        raise ValueError(f"heatmap 'z' must be 2-dimensional, got shape {z.shape}")
    im = ax.imshow(z, origin="lower", aspect="auto", cmap=spec.get("cmap", "viridis"),
                   vmin=spec.get("vmin"), vmax=spec.get("vmax"), interpolation="nearest")
    cb = fig.colorbar(im, ax=ax)
    cb.set_label(spec.get("zlabel", ""))
    xs, ys = spec.get("x"), spec.get("y")
    if xs is not None:
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels([str(v) for v in xs], fontsize=7, rotation=45 if len(xs) > 8 else 0)
    if ys is not None:
        ax.set_yticks(range(len(ys)))
        ax.set_yticklabels([str(v) for v in ys], fontsize=7)
    if spec.get("annotate") and z.size <= 200:
        for (r, c), v in np.ndenumerate(z):
            if np.isfinite(v):
                ax.text(c, r, f"{v:.2g}", ha="center", va="center", fontsize=6, color="w")


def _benchmark_table() -> list[str]:
    """One table per benchmarks/*results.json file (written by the benchmark modules; read, never run)."""
    files = sorted((ROOT / "benchmarks").glob("*results.json"))
    if not files:
        return ["No benchmark results yet: run `python -m benchmarks.fwht --write`.", ""]
    out: list[str] = []
    for path in files:
        data = json.loads(path.read_text())
        rows = data.get("rows", [])
        module = "fwht" if path.name == "results.json" else path.name.replace("_results.json", "")
        out.append(f"**`python -m benchmarks.{module}`** on {data.get('machine', '?')} ({data.get('date', '?')}); "
                   "ratios are against baselines measured in the same run.")
        out.append("")
        cols: list[str] = []
        for row in rows:
            cols += [c for c in row if c not in cols]
        out.append("| " + " | ".join(cols) + " |")
        out.append("|---" * len(cols) + "|")
        for row in rows:
            out.append("| " + " | ".join(_cell(row.get(c, "")) for c in cols) + " |")
        out.append("")
        for note in data.get("notes", []):
            out.append(f"- {note}")
        if data.get("notes"):
            out.append("")
    return out


# ---------------------------------------------------------------------------------------------
# the report
# ---------------------------------------------------------------------------------------------


def build_markdown(results: list[ClaimResult], env: dict, figures: dict[str, list[str]], seconds: float) -> str:
    sources = sorted({r.claim.source for r in results})
    L: list[str] = []
    L.append("# Verification report")
    L.append("")
    L.append("Generated by `python -m verify.report`; do not edit by hand.")
    L.append("")
    L.append(
        f"Produced {env['date']} at commit {env['commit']}, tier `{env['tier']}`, backend `{env['backend']}` "
        f"(GPU present: {env['gpu']}), in {seconds:.0f} s. Python {env['python']}, numpy {env['numpy']}, numba {env['numba']}, "
        f"scipy {env['scipy']}, sympy {env['sympy']}. Machine: {env['machine']}."
    )
    if env.get("reused"):
        ru = env["reused"]
        L.append("")
        L.append(
            f"Updated with `--update`: {len(ru['rerun'])} claim{'' if len(ru['rerun']) == 1 else 's'} re-run ({', '.join(f'`{i}`' for i in ru['rerun'])}); "
            f"the other {ru['claims']} results are those of the run of {ru['from_date']} at commit {ru['from_commit']}."
        )
    L.append("")
    L.append("## How to read this report")
    L.append("")
    L.append(
        "Each claim of a source document is checked **as printed** over the cases listed in its section. "
        "*confirmed*: the printed statement held on every case. *erratum*: it failed (the witness is the first failing "
        "case, with both sides' values) and a corrected statement, checked by the same code, held. *refuted*: it failed and "
        "no correction is established. *mechanism*: the statement cannot be tested at its own constants; its mechanism or "
        "scaling was checked instead. *reproduced* / *not-reproduced*: an empirical finding re-run with stated seeds. "
        "Every claim also carries mutants (plausible false variants) that the same checker must reject; the count of "
        "rejected mutants shows that each checker can fail. Slack is the margin of the tightest case (rhs - lhs for <=, "
        "lhs - rhs for >=, tolerance minus error for approximate equalities)."
    )
    L.append("")
    L.append("## Summary")
    L.append("")
    L.append("| source | claims | confirmed | erratum | refuted | mechanism | reproduced | not-reproduced | mutants rejected | verdicts as expected |")
    L.append("|---|---|---|---|---|---|---|---|---|---|")
    for src in sources:
        rs = [r for r in results if r.claim.source == src]
        counts = {s: sum(r.status.value == s for r in rs) for s in STATUS_ORDER}
        mut = f"{sum(r.mutants_rejected for r in rs)}/{sum(len(r.mutants) for r in rs)}"
        ok = f"{sum(r.as_expected for r in rs)}/{len(rs)}"
        L.append(f"| {src} | {len(rs)} | " + " | ".join(str(counts[s]) for s in STATUS_ORDER) + f" | {mut} | {ok} |")
    L.append("")
    errata = [r for r in results if r.status in (Status.ERRATUM, Status.REFUTED)]
    L.append("## Errata and refutations")
    L.append("")
    if errata:
        L.append("| claim | label | witness against the printed statement | corrected statement |")
        L.append("|---|---|---|---|")
        for r in errata:
            corr = r.corrected.summary() if r.corrected else "none established"
            L.append(f"| `{r.claim.id}` | {_cell(r.claim.label)} | {_cell(_side_text(r.printed.witness))} | {_cell(corr)} |")
    else:
        L.append("None.")
    L.append("")
    L.append("## Claims")
    L.append("")
    L.append(INDEX_HEADER)
    L.append("|---|---|---|---|---|---|---|---|")
    for r in results:
        mark = "" if r.as_expected else " (!)"
        L.append(
            f"| [`{r.claim.id}`](#{_slug(r.claim.id).replace('.', '')}) | {_cell(r.claim.label)} | {r.claim.expect.value} | "
            f"{r.status.value}{mark} | {r.printed.rigor.value} | {r.printed.cases} | {r.mutants_rejected}/{len(r.mutants)} | "
            f"{r.seconds:.2f} |"
        )
    L.append("")
    for src in sources:
        L.append(f"## {src}")
        L.append("")
        for r in (r for r in results if r.claim.source == src):
            c = r.claim
            L.append(f"### {c.id}")
            L.append("")
            L.append(f"**{c.label}: {c.title}** (catalog entry {c.entry}; seed lines "
                     + ", ".join(f"{a}-{b}" for a, b in c.lines) + f"; {c.kind.value}{', derived' if c.derived else ''})")
            L.append("")
            for sec in ("Statement", "Hypotheses", "Checkable form", "Exactness"):
                body = c.section(sec)
                if body:
                    L.append(f"*{sec}.* " + " ".join(body.split()))
                    L.append("")
            L.append(f"**Verdict: {r.status.value}** (expected {c.expect.value}; rigor {r.printed.rigor.value}; "
                     f"backend {r.backend}; {r.seconds:.2f} s; parameters {_cell(dict(r.params))})")
            L.append("")
            L.append(f"- Printed statement: {r.printed.summary()}")
            if r.printed.holds and r.printed.tightest:
                L.append(f"- Tightest case: {_side_text(r.printed.tightest)}")
            if r.printed.witness:
                L.append(f"- Witness: {_side_text(r.printed.witness)}")
                worst = r.printed.witness.get("worst")
                if worst:
                    L.append(f"- Largest violation: {_side_text(worst)}")
            if r.corrected is not None:
                L.append(f"- Corrected statement: {r.corrected.summary()}")
                if r.corrected.tightest:
                    L.append(f"- Corrected, tightest case: {_side_text(r.corrected.tightest)}")
            for m in r.mutants:
                state = "rejected" if m.rejected else "**NOT rejected**"
                wit = f"; witness {_side_text(m.verdict.witness)}" if m.verdict.witness else ""
                L.append(f"- Mutant `{m.mutant.name}` ({m.mutant.description}): {state}{wit}")
            L.append("")
            details = dict(r.printed.details)
            if r.corrected is not None:
                details.update({f"(corrected) {k}": v for k, v in r.corrected.details.items()})
            if details:
                L.extend(render_details(details))
            for path in figures.get(c.id, []):
                L.append(f"![{c.id}]({path})")
                L.append("")
    L.append("## Performance")
    L.append("")
    L.extend(_benchmark_table())
    return "\n".join(L).rstrip() + "\n"


def _stored_results(path: Path, tier: str, rerun: set[str]) -> tuple[dict[str, ClaimResult], dict]:
    """The stored results of every registered claim not in ``rerun`` (for ``--update``), and their environment.

    Raises ValueError naming the claims that have no usable stored result (never stored, another
    expected status or other mutants than registered now), so that a report never mixes in a result
    that no longer matches its claim."""
    if not path.exists():
        raise ValueError(f"argument '--update' needs stored results, but {path} does not exist")
    data = json.loads(path.read_text(encoding="utf-8"))
    env = data.get("environment", {})
    if env.get("tier") != tier:
        raise ValueError(f"argument '--update': stored results are at tier {env.get('tier')!r}, not {tier!r}")
    stored = {r["id"]: r for r in data.get("results", [])}
    out: dict[str, ClaimResult] = {}
    unusable = []
    for c in all_claims():
        if c.id in rerun:
            continue
        try:
            if c.id not in stored:
                raise ValueError(f"{c.id}: not stored")
            out[c.id] = ClaimResult.from_json(c, stored[c.id])
        except ValueError as exc:
            unusable.append(str(exc))
    if unusable:
        raise ValueError("argument '--update': these claims have no usable stored result; re-run them too: "
                         + "; ".join(unusable))
    return out, env


def check_report(path: Path) -> list[str]:
    """Problems that make ``path`` stale with respect to the registry (empty list: up to date)."""
    if not path.exists():
        return [f"{path} does not exist"]
    listed = parse_index(path.read_text(encoding="utf-8"))
    problems = []
    for c in all_claims():
        if c.id not in listed:
            problems.append(f"{c.id} is registered but not in the report")
        elif listed[c.id] != c.expect.value:
            problems.append(f"{c.id}: report says expected '{listed[c.id]}', registry says '{c.expect.value}'")
    registered = {c.id for c in all_claims()}
    problems += [f"{cid} is in the report but no longer registered" for cid in listed if cid not in registered]
    return problems


def parse_index(text: str) -> dict[str, str]:
    """{claim id: expected status} from the claims index table of a REPORT.md."""
    out = {}
    inside = False
    for line in text.splitlines():
        if line.startswith(INDEX_HEADER):
            inside = True
            continue
        if inside:
            if not line.startswith("|"):
                break
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
            m = re.search(r"`([^`]+)`", cells[0])
            if m:
                out[m.group(1)] = cells[2]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m verify.report", description="Regenerate REPORT.md from the claim registry.")
    parser.add_argument("--tier", choices=TIERS, default="full")
    parser.add_argument("--backend", choices=("auto", "cpu", "cuda"), default="auto")
    parser.add_argument("--output", default=str(ROOT / "REPORT.md"))
    parser.add_argument("--only", nargs="*", default=None, help="run only these claim ids (others are not reported)")
    parser.add_argument("--update", nargs="+", default=None, metavar="ID",
                        help="re-run only these claims; take every other claim's result from the existing "
                             "report/results.json (same tier), and say so in the report")
    parser.add_argument("--check", action="store_true", help="only check that the report lists the registry; exit 1 if stale")
    args = parser.parse_args(argv)
    out_path = Path(args.output)
    if args.check:
        problems = check_report(out_path)
        for p in problems:
            print(f"stale: {p}", file=sys.stderr)
        return 1 if problems else 0
    reused: dict[str, ClaimResult] = {}
    reuse_env: dict = {}
    try:
        if args.update is not None and args.only is not None:
            raise ValueError("arguments '--update' and '--only' exclude each other")
        if args.update is not None:
            reused, reuse_env = _stored_results(out_path.parent / "report" / "results.json", args.tier,
                                                {get_claim(i).id for i in args.update})
            claims = [c for c in all_claims() if c.id not in reused]
        else:
            claims = [get_claim(i) for i in args.only] if args.only else all_claims()
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    from tqdm import tqdm

    t0 = time.perf_counter()
    results: list[ClaimResult] = []
    bar = tqdm(claims, desc=f"verify ({args.tier})", unit="claim", file=sys.stderr)
    for c in bar:
        bar.set_postfix_str(c.id)
        try:
            results.append(run_claim(c, tier=args.tier, backend=args.backend))
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    seconds = time.perf_counter() - t0
    env = environment(args.tier, args.backend)
    if reused:
        env["reused"] = {"claims": len(reused), "from_commit": reuse_env.get("commit", "unknown"),
                         "from_date": reuse_env.get("date", "unknown"), "rerun": [r.claim.id for r in results]}
        fresh = {r.claim.id: r for r in results}
        results = [reused.get(c.id) or fresh[c.id] for c in all_claims()]
    report_dir = out_path.parent / "report"
    with tempfile.TemporaryDirectory(dir=out_path.parent) as tmp:
        tmpdir = Path(tmp)
        figdir = tmpdir / "figures"
        figdir.mkdir()
        figures = {r.claim.id: render_plots(r, figdir) for r in results}
        text = build_markdown(results, env, figures, seconds)
        (tmpdir / "results.json").write_text(json.dumps({"environment": env, "results": [r.to_json() for r in results]}, indent=1))
        (tmpdir / "REPORT.md").write_text(text, encoding="utf-8")
        # everything is ready: move into place (figures directory replaced as a whole)
        report_dir.mkdir(exist_ok=True)
        if (report_dir / "figures").exists():
            shutil.rmtree(report_dir / "figures")
        shutil.move(str(figdir), str(report_dir / "figures"))
        shutil.move(str(tmpdir / "results.json"), str(report_dir / "results.json"))
        shutil.move(str(tmpdir / "REPORT.md"), str(out_path))
    bad = [r.claim.id for r in results if not r.ok]
    print(f"wrote {out_path} ({len(results)} claims, {seconds:.0f} s)" + (f"; NOT as expected: {bad}" if bad else ""), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
