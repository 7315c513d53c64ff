"""``python -m verify.report``: run the registry and publish REPORT.md, report/<source>.md, results and figures.

Usage::

    python -m verify.report [--tier quick|full|gpu] [--backend auto|cpu|cuda] [--only ID ...] [--output PATH] [-j N]
    python -m verify.report --tier full --update ID ...   # re-run some claims, reuse the stored results of the rest
    python -m verify.report --rerender                    # re-render from the stored results; runs no claim
    python -m verify.report --check                       # exit 1 unless the committed report is complete and current
    python -m verify.report --recover                     # finish or undo an interrupted publish

Where it writes.  The committed report (REPORT.md at the repository root, report/) is always at the
``full`` tier of the whole registry.  Without ``--output``, a full-tier run of every claim writes
there; any other run (another tier, ``--only``) writes to ``build/report/REPORT.md`` (ignored by git),
so that no command silently replaces the committed report with a smaller one.  Writing another tier
or a subset over the committed report is refused (exit 2).

The output set is ``REPORT.md`` (small: how it was produced, the summary, the errata and proof-gap
table, the sharpness table, an index) and the directory ``report/`` next to it (one page per source,
continued on ``<source>-2.md``, ... past PAGE_SPLIT_BYTES; ``results.json``, ``figures/``).  Every file carries the same *generation* (a content hash of the
results), which ``--check`` compares.  ``figures/keys.json`` records what drew each PNG (its spec, the
drawing code, matplotlib's version: :func:`verify.report_render.figure_key`); a run copies the published
PNGs whose key did not change instead of drawing them again (the same bytes).

Publishing is atomic (see :func:`verify.publish.publish`): the new set is built in a staging directory next to the
outputs, then ``report/`` is swapped by two renames and REPORT.md replaced last (the commit point).
An exception or SIGTERM / SIGINT at any step rolls back to the complete old set and removes the
staging directory; a hard kill (SIGKILL, power loss) leaves a journal that the next run (or
``--recover``) completes or undoes, and that ``--check`` reports.  A lock file next to the outputs
makes a second concurrent run exit 2.  Output locations are validated before any claim runs.

``-j N`` (default: the usable cores) runs the claims in N worker processes (:mod:`verify.parallel`),
longest first; the results keep the registry's order, so the report equals a serial run's (``-j 1``)
apart from the timing fields (seconds, date, and the generation, a hash that includes them).  A
worker that dies exits 2 before anything is published.

The report only renders verdicts: every number in it comes from a claim's Verdict (run here through
``run_claim``) or from benchmarks/*results.json; nothing is recomputed while rendering.

This module builds the report set, reads it back (``--check``) and holds the command line; the
publishing machinery (staging, swap, rollback, recovery, lock) is in :mod:`verify.publish` and the
rendering helpers (cells, details, plots, anchors, links, contract-field text) in :mod:`verify.report_render`.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as _dt
import gc
import hashlib
import json
import os
import platform
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path


from ._machine import machine_line
from .parallel import WorkerDied, jobs_argument, run_claims, start_workers_early, usable_cores
from .registry import TIERS, ClaimResult, Status, all_claims, get_claim, to_jsonable
from .publish import ReportLocked, _worker_fault, pending_publishes, publish, publish_lock, recover
from .report_render import (
    _benchmark_table,
    _case_text,
    _cell,
    _failing_witness,
    _is_audited,
    _no_links,
    _oneline,
    _ratio_text,
    _side_text,
    _slug,
    broken_links,
    corrected_text,
    page_anchors,
    printed_text,
    render_details,
    render_all_plots,
    severity_text,
    sharpness_class,
    witness_words,
)

ROOT = Path(__file__).resolve().parent.parent
STATUS_ORDER = [s.value for s in Status]
SEVERITY_ORDER = ("typo", "constant", "substantive")
INDEX_HEADER = "| claim | label | expected | computed | rigor | cases | mutants rejected | seconds |"
#: the tier of the committed report (REPORT.md at the repository root)
COMMITTED_TIER = "full"
COMMITTED_OUTPUT = ROOT / "REPORT.md"
BUILD_OUTPUT = ROOT / "build" / "report" / "REPORT.md"
REPORT_MAX_BYTES = 250_000
PAGE_MAX_BYTES = 500_000
#: a source's claim sections fill pages of at most this many bytes each (report/<source>.md, then
#: report/<source>-2.md, ...), so that every page stays under PAGE_MAX_BYTES with room for its header and index
PAGE_SPLIT_BYTES = 400_000
MARKER_RE = re.compile(r"<!-- verify-report generation=(\S+) tier=(\S+)(?: page=(\S+))? -->")
#: the documents behind the source ids (full references: docs/sources.md)
SOURCE_NAMES = {
    "thesis_ch4": "Edelman 2024 (PhD thesis), ch. 4: variable creation in self-attention",
    "thesis_ch5": "Edelman 2024 (PhD thesis), ch. 5: hidden progress (sparse parities)",
    "thesis_ch6": "Edelman 2024 (PhD thesis), ch. 6: Pareto frontiers",
    "thesis_ch7": "Edelman 2024 (PhD thesis), ch. 7: feature emergence via margin maximisation",
    "thesis_ch8": "Edelman 2024 (PhD thesis), ch. 8: statistical induction heads",
    "seed000": "Wei, Chen, Ma 2021: statistically meaningful approximation",
    "seed001": "Wu, Su, Hu, Song, Liu 2024: transformers are deep optimizers",
    "seed002": "Mousavi-Hosseini, Sanford, Wu, Erdogdu 2025: sparse token retrieval",
    "seed003": "Goel, Kakade, Kalai, Zhang 2022: recurrent convolutional networks",
}


# ---------------------------------------------------------------------------------------------
# environment
# ---------------------------------------------------------------------------------------------


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def _commit() -> str:
    commit = _git("rev-parse", "--short", "HEAD") or "unknown"
    if _git("status", "--porcelain", "--untracked-files=no"):
        commit += " (with uncommitted changes)"
    return commit


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def environment(tier: str, backend: str) -> dict:
    import numba
    import numpy
    import scipy
    import sympy

    from kernels.backend import gpu_available

    return {
        "date": _now(),
        "commit": _commit(),
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
# the report: REPORT.md and one page per source
# ---------------------------------------------------------------------------------------------


def _page_name(source: str, part: int = 1) -> str:
    """report/<name> of part ``part`` (1-based) of a source's pages."""
    return f"{_slug(source)}.md" if part == 1 else f"{_slug(source)}-{part}.md"


def _claim_heading(c) -> str:
    return c.id


@dataclass
class SourcePage:
    """One page of a source: its claims (in registry order) and their rendered sections."""

    source: str
    part: int
    parts: int
    results: list[ClaimResult]
    sections: list[list[str]]

    @property
    def name(self) -> str:
        return _page_name(self.source, self.part)


def source_pages(results: list[ClaimResult], figures: dict[str, list[str]],
                 split_bytes: int | None = None) -> list[SourcePage]:
    """The report's pages: per source (sorted), its claims' sections in order, a new page whenever the next
    section would take the page's sections over ``split_bytes`` (default PAGE_SPLIT_BYTES; a section larger
    than that gets a page of its own)."""
    limit = PAGE_SPLIT_BYTES if split_bytes is None else split_bytes
    pages: list[SourcePage] = []
    for src in sorted({r.claim.source for r in results}):
        groups: list[list[tuple[ClaimResult, list[str]]]] = [[]]
        size = 0
        for r in (r for r in results if r.claim.source == src):
            sec = _claim_section(r, figures.get(r.claim.id, []))
            nbytes = sum(len(line.encode("utf-8")) + 1 for line in sec)
            if groups[-1] and size + nbytes > limit:
                groups.append([])
                size = 0
            groups[-1].append((r, sec))
            size += nbytes
        pages += [SourcePage(src, i + 1, len(groups), [r for r, _ in g], [sec for _, sec in g])
                  for i, g in enumerate(groups)]
    return pages


def _page_heading(page: SourcePage) -> str:
    return _page_title(page.source) + (f" (part {page.part} of {page.parts})" if page.parts > 1 else "")


def _claim_anchors(pages: list[SourcePage]) -> dict[str, tuple[str, str]]:
    """{claim id: (page name, anchor)}, the anchors computed from each page's own headings."""
    out: dict[str, tuple[str, str]] = {}
    for page in pages:
        headings = ["# " + _page_heading(page), "## Claims"] + [f"### {_claim_heading(r.claim)}" for r in page.results]
        anchors = page_anchors("\n".join(headings))[2:]
        out.update({r.claim.id: (page.name, a) for r, a in zip(page.results, anchors)})
    return out


def _page_title(source: str) -> str:
    return f"{source}: {SOURCE_NAMES.get(source, source)}"


def _marker(generation: str, tier: str, page: str | None = None) -> str:
    return f"<!-- verify-report generation={generation} tier={tier}" + (f" page={page}" if page else "") + " -->"


def _produced_line(env: dict, seconds: float) -> str:
    text = (f"Produced {env['date']} at commit {env['commit']}, tier `{env['tier']}`, backend `{env['backend']}` "
            f"(GPU present: {env['gpu']}), in {seconds:.0f} s. Python {env['python']}, numpy {env['numpy']}, "
            f"numba {env['numba']}, scipy {env['scipy']}, sympy {env['sympy']}. Machine: {env['machine']}.")
    if env.get("reused"):
        ru = env["reused"]
        text += (f" Updated with `--update`: {len(ru['rerun'])} claim{'' if len(ru['rerun']) == 1 else 's'} re-run "
                 f"({', '.join(f'`{i}`' for i in ru['rerun'])}); the other {ru['claims']} results are those of the run "
                 f"of {ru['from_date']} at commit {ru['from_commit']}.")
    if env.get("rerendered"):
        rr = env["rerendered"]
        text += (f" Re-rendered with `--rerender` on {rr['date']} at commit {rr['commit']} from the stored results "
                 "(no claim re-run).")
    return text


def _docs_link(out_dir: Path | None, name: str = "sources.md") -> str:
    """Relative link from a report written in ``out_dir`` to docs/<name> of this repository."""
    target = ROOT / "docs" / name
    if out_dir is None:
        return f"docs/{name}"
    return Path(os.path.relpath(target, Path(out_dir).absolute())).as_posix()


def build_markdown(results: list[ClaimResult], env: dict, figures: dict[str, list[str]], seconds: float,
                   generation: str = "unversioned", out_dir: Path | None = None,
                   pages: list[SourcePage] | None = None) -> str:
    """REPORT.md: how it was produced, summary, errata and proof-gaps, sharpness, the index, performance.
    ``pages``: the report's :func:`source_pages` (computed here when not given)."""
    sources = sorted({r.claim.source for r in results})
    anchors = _claim_anchors(source_pages(results, figures) if pages is None else pages)
    audited_sources = {src for src in sources
                       if all(_is_audited(r.claim) for r in results if r.claim.source == src)}
    L: list[str] = [_marker(generation, env["tier"]), "# Verification report", ""]
    L.append("Generated by `python -m verify.report`; do not edit by hand. The documents checked, with titles, "
             f"authors and where to find them, are listed in [docs/sources.md]({_docs_link(out_dir)}). One page per "
             "source (continued on further pages when large) holds the claim-by-claim sections; `report/results.json` holds every number.")
    L.append("")
    L.append(_produced_line(env, seconds) + f" Generation `{generation}` (shared by every file of this report).")
    L.append("")
    L.append("## How to read this report")
    L.append("")
    L.append(
        "Each claim of a source document is checked **as printed** over the cases listed in its section. "
        "*confirmed*: every part of the printed statement is asserted and held on every case. *partly-confirmed*: "
        "the asserted parts held; some part is not asserted (the claim's section gives the reason). *erratum*: the "
        "printed statement failed on a case meeting its hypotheses (the witness), and a corrected statement, checked "
        "by the same code, held. *proof-gap*: a step, construction or constant of the proof failed while the statement "
        "held or is undecided. *refuted*: it failed and no correction is established. *mechanism*: the statement "
        "cannot be tested at its own constants; its mechanism or scaling was checked instead. *reproduced* / "
        "*not-reproduced*: an empirical finding re-run with stated seeds. Severity (errata and proof-gaps): *typo*, "
        "*constant* (a constant, exponent or range is wrong; the form survives), *substantive* (a new hypothesis is "
        "needed or the conclusion changes); sources not yet audited under the verdict contract show *not yet "
        "classified*. Every claim carries mutants (plausible false variants) that the same checker must reject. "
        "*Sharpness* is the largest lhs/rhs found over the cases of an inequality (rhs/lhs for a lower bound): 1 "
        "means attained, above 1 violated; results stored before it was recorded say *not recorded*."
    )
    L.append("")
    L.append("## Summary")
    L.append("")
    L.append("| source | audited under the contract | claims | " + " | ".join(STATUS_ORDER)
             + " | " + " | ".join(SEVERITY_ORDER) + " | not yet classified | mutants rejected | verdicts as expected |")
    L.append("|---" * (len(STATUS_ORDER) + len(SEVERITY_ORDER) + 6) + "|")
    for src in sources:
        rs = [r for r in results if r.claim.source == src]
        counts = {s: sum(r.status.value == s for r in rs) for s in STATUS_ORDER}
        flagged = [r for r in rs if r.claim.expect in (Status.ERRATUM, Status.PROOF_GAP, Status.REFUTED)]
        sev = {s: sum(r.claim.severity is not None and r.claim.severity.value == s for r in flagged) for s in SEVERITY_ORDER}
        unclassified = sum(r.claim.severity is None for r in flagged)
        mut = f"{sum(r.mutants_rejected for r in rs)}/{sum(len(r.mutants) for r in rs)}"
        ok = f"{sum(r.as_expected for r in rs)}/{len(rs)}"
        L.append(f"| [{src}](report/{_page_name(src)}) | {'yes' if src in audited_sources else 'not yet'} | {len(rs)} | "
                 + " | ".join(str(counts[s]) for s in STATUS_ORDER) + " | "
                 + " | ".join(str(sev[s]) for s in SEVERITY_ORDER) + f" | {unclassified} | {mut} | {ok} |")
    L.append("")
    L.append("Audited under the verdict contract (parts, severity, sharpness, near-boundary mutants, a second reader): "
             + (", ".join(sorted(audited_sources)) if audited_sources else "no source yet")
             + ". The others carry their pre-contract declarations until their re-audit.")
    L.append("")
    flagged = [r for r in results if r.status in (Status.ERRATUM, Status.REFUTED, Status.PROOF_GAP)]
    L.append("## Errata and proof gaps")
    L.append("")
    if flagged:
        L.append("| claim | label | status | severity | printed statement | corrected statement | witness |")
        L.append("|---|---|---|---|---|---|---|")
        for r in flagged:
            page, a = anchors[r.claim.id]
            L.append(f"| [`{r.claim.id}`](report/{page}#{a}) | {_cell(r.claim.label)} | {r.status.value} | "
                     f"{severity_text(r.claim)} | {_cell(printed_text(r.claim))} | {_cell(corrected_text(r))} | "
                     f"{_cell(witness_words(_failing_witness(r)))} |")
    else:
        L.append("None.")
    L.append("")
    L.extend(_sharpness_section(results, anchors))
    L.append("## Claims")
    L.append("")
    L.append(INDEX_HEADER)
    L.append("|---|---|---|---|---|---|---|---|")
    for r in results:
        page, a = anchors[r.claim.id]
        mark = "" if r.as_expected else " (!)"
        L.append(
            f"| [`{r.claim.id}`](report/{page}#{a}) | {_cell(r.claim.label)} | {r.claim.expect.value} | "
            f"{r.status.value}{mark} | {r.printed.rigor.value} | {r.printed.cases} | {r.mutants_rejected}/{len(r.mutants)} | "
            f"{r.seconds:.2f} |"
        )
    L.append("")
    L.append("## Performance")
    L.append("")
    L.extend(_benchmark_table())
    return "\n".join(L).rstrip() + "\n"


def _sharpness_section(results: list[ClaimResult], anchors: dict) -> list[str]:
    L = ["## Sharpness of the bounds", ""]
    groups: dict[str, list[str]] = {"within 1%": [], "within 10%": [], "loose >10x": [], "violated": []}
    recorded = 0
    for r in results:
        cls = sharpness_class(r.printed.sharpness)
        if cls is None:
            continue
        recorded += 1
        if cls in groups:
            page, a = anchors[r.claim.id]
            groups[cls].append(f"[`{r.claim.id}`](report/{page}#{a}) ({_ratio_text(r.printed.sharpness)})")
    L.append(f"Sharpness recorded for {recorded} of {len(results)} claims (inequalities checked since the verdict "
             "contract; the rest: not recorded).")
    L.append("")
    L.append("| bound | claims | which (largest lhs/rhs) |")
    L.append("|---|---|---|")
    for name, text in (("within 1%", "attained within 1% (ratio >= 0.99)"), ("within 10%", "within 10% (0.9 <= ratio < 0.99)"),
                       ("loose >10x", "loose by more than 10x on every case tried (ratio < 0.1)"),
                       ("violated", "violated (ratio > 1: errata)")):
        L.append(f"| {text} | {len(groups[name])} | {', '.join(groups[name]) or '-'} |")
    L.append("")
    return L


def build_source_page(page: SourcePage, env: dict, generation: str, out_dir: Path | None = None) -> str:
    """report/<source>.md (and <source>-2.md, ... when a source fills several pages): per-claim sections."""
    anchors = _claim_anchors([page])
    L = [_marker(generation, env["tier"], page.name), f"# {_page_heading(page)}", ""]
    L.append(f"Part of the [verification report](../REPORT.md) (generation `{generation}`, tier `{env['tier']}`, "
             f"{env['date']}, commit {env['commit']}). The document: [docs/sources.md]("
             f"{'../docs/sources.md' if out_dir is None else _docs_link(Path(out_dir) / 'report')}). "
             "Line numbers are lines of a plain-text copy of the document (see docs/sources.md).")
    if page.parts > 1:
        L.append("")
        L.append(f"The claims of {page.source} fill {page.parts} pages: "
                 + ", ".join(f"[part {i}]({_page_name(page.source, i)})" if i != page.part else f"part {i} (this page)"
                             for i in range(1, page.parts + 1)) + ".")
    L.append("")
    L.append("## Claims")
    L.append("")
    L.append("| claim | label | expected | computed | severity | sharpness |")
    L.append("|---|---|---|---|---|---|")
    for r in page.results:
        sev = severity_text(r.claim) if r.claim.expect in (Status.ERRATUM, Status.PROOF_GAP, Status.REFUTED) else ""
        L.append(f"| [`{r.claim.id}`](#{anchors[r.claim.id][1]}) | {_cell(r.claim.label)} | {r.claim.expect.value} | "
                 f"{r.status.value}{'' if r.as_expected else ' (!)'} | {sev} | {_ratio_text(r.printed.sharpness)} |")
    L.append("")
    for sec in page.sections:
        L.extend(sec)
    return "\n".join(L).rstrip() + "\n"


def _claim_section(r: ClaimResult, figs: list[str]) -> list[str]:
    c = r.claim
    L = [f"### {_claim_heading(c)}", ""]
    lines = ", ".join(f"{a}-{b}" for a, b in c.lines)
    L.append(f"**{c.label}: {c.title}** (catalog entry {c.entry}; lines {lines} of the plain-text copy; "
             f"{c.kind.value}{', derived' if c.derived else ''})")
    L.append("")
    for sec in ("Statement", "Hypotheses", "Checkable form", "Exactness", "Correction"):
        body = c.section(sec)
        if body:
            L.append(f"*{sec}.* " + " ".join(body.split()))
            L.append("")
    L.append(f"**Verdict: {r.status.value}** (expected {c.expect.value}; rigor {r.printed.rigor.value}; "
             f"backend {r.backend}; {r.seconds:.2f} s; parameters {_cell(dict(r.params))})")
    L.append("")
    if c.expect in (Status.ERRATUM, Status.PROOF_GAP, Status.REFUTED) or r.status in (Status.ERRATUM, Status.PROOF_GAP, Status.REFUTED):
        L.append(f"- Severity: {severity_text(c)}")
    if c.affects:
        L.append("- Affects: " + ", ".join(f"`{a}`" for a in c.affects))
    if c.figure:
        L.append(f"- Regenerates: {', '.join(c.figure)} of {c.source}")
    if c.parts is None:
        L.append("- Parts: not yet declared (source not yet audited under the verdict contract)")
    else:
        for q in c.parts:
            state = "asserted" if q.asserted else f"unchecked ({q.reason})"
            L.append(f"- Part `{q.name}`{' (inequality)' if q.inequality else ''}: {state}. {_oneline(q.text, 240)}")
    L.append(f"- Printed statement: {r.printed.summary()}")
    if r.printed.sharpness is not None:
        L.append(f"- Sharpness (largest lhs/rhs found): {_ratio_text(r.printed.sharpness)} at {_case_text(r.printed.sharpness_case)}")
        parts = dict(r.printed.sharpness_parts or {})
        if len(parts) > 1:
            for name, rec in parts.items():
                L.append(f"  - part `{name}`: {_ratio_text((rec or {}).get('ratio'))} at {_case_text((rec or {}).get('case'))}")
    else:
        L.append("- Sharpness: not recorded")
        if r.printed.holds and r.printed.tightest:
            L.append(f"- Smallest absolute slack (recorded before sharpness): {_side_text(r.printed.tightest)}")
    if r.proof_step is not None:
        L.append(f"- Proof step: {r.proof_step.summary()}")
    if r.printed.witness:
        L.append(f"- Witness: {_side_text(r.printed.witness)}")
        worst = r.printed.witness.get("worst")
        if worst:
            L.append(f"- Largest violation: {_side_text(worst)}")
    if r.corrected is not None:
        L.append(f"- Corrected statement: {r.corrected.summary()}")
        if r.corrected.sharpness is not None:
            L.append(f"- Corrected, sharpness: {_ratio_text(r.corrected.sharpness)} at {_case_text(r.corrected.sharpness_case)}")
    for m in r.mutants:
        state = "rejected" if m.rejected else "**NOT rejected**"
        tags = [t for t, on in (("near-boundary", m.mutant.near_boundary), (f"part {m.mutant.part}", m.mutant.part),
                                ("second reader", m.mutant.origin == "second-reader")) if on]
        wit = f"; witness {_side_text(m.verdict.witness)}" if m.verdict.witness else ""
        L.append(f"- Mutant `{m.mutant.name}` ({m.mutant.description})" + (f" [{', '.join(tags)}]" if tags else "")
                 + f": {state}{wit}")
    L.append("")
    details = dict(r.printed.details)
    if r.corrected is not None:
        details.update({f"(corrected) {k}": v for k, v in r.corrected.details.items()})
    if details:
        L.extend(render_details(details))
    L = [line if line.startswith("#") else _no_links(line) for line in L]
    for path in figs:
        L.append(f"![{c.id}]({path.removeprefix('report/')})")
        L.append("")
    return L


def result_texts(r: ClaimResult) -> tuple[str, str]:
    """The two texts of one result in :func:`results_document`: its JSON with sorted keys (hashed into the
    generation) and its JSON with ``indent=1`` as it appears at depth 2 of results.json.  A JSON text holds
    no raw newline (strings escape it), so nesting is a prefix after each newline."""
    obj = to_jsonable(r.to_json())  # strict JSON: no NaN/Infinity
    return json.dumps(obj, sort_keys=True, default=str), json.dumps(obj, indent=1, allow_nan=False).replace("\n", "\n  ")


class PreparedTexts:
    """:func:`result_texts` of results computed ahead, while other claims still run (``run_claims``'s
    ``on_result``: this process waits on its workers then), so that the report's serial tail is shorter.
    Holds each result object itself: a text is used only for the very object it was computed from."""

    def __init__(self) -> None:
        self._texts: dict[str, tuple[ClaimResult, tuple[str, str]]] = {}

    def add(self, r: ClaimResult) -> None:
        self._texts[r.claim.id] = (r, result_texts(r))

    def get(self, r: ClaimResult) -> tuple[str, str]:
        held = self._texts.get(r.claim.id)
        return held[1] if held is not None and held[0] is r else result_texts(r)


def results_document(results: list[ClaimResult], env: dict, prepared: PreparedTexts | None = None) -> tuple[str, str]:
    """(generation, text of results.json); the generation is a content hash of the results: the SHA-256 of
    ``json.dumps({"environment": env, "results": [...]}, sort_keys=True)``, whose text is
    ``json.dumps(..., indent=1)`` of the same object with the generation first.  Both are assembled from the
    results' own texts (:func:`result_texts`, ``prepared`` where given): the same characters as dumping the
    whole object at once (tests/test_report.py checks it), without redoing the results dumped ahead."""
    texts = [(prepared or PreparedTexts()).get(r) for r in results]
    env_obj = to_jsonable(env)
    hashed = ('{"environment": ' + json.dumps(env_obj, sort_keys=True, default=str) + ', "results": ['
              + ", ".join(t[0] for t in texts) + "]}")
    generation = hashlib.sha256(hashed.encode()).hexdigest()[:16]
    items = "[\n  " + ",\n  ".join(t[1] for t in texts) + "\n ]" if texts else "[]"
    text = ('{\n "generation": ' + json.dumps(generation) + ',\n "environment": '
            + json.dumps(env_obj, indent=1, allow_nan=False).replace("\n", "\n ") + ',\n "results": ' + items + "\n}")
    return generation, text


def write_report_set(dest: Path, results: list[ClaimResult], env: dict, seconds: float,
                     out_dir: Path | None = None, jobs: int = 1, prepared: PreparedTexts | None = None) -> str:
    """Write REPORT.md and report/ (pages, results.json, figures) into ``dest`` (a staging directory
    whose content will be published in ``out_dir``, by default ``dest`` itself); return the generation.
    ``jobs``: processes that draw the figures (the files do not depend on it); ``prepared``: results'
    JSON texts computed ahead (:class:`PreparedTexts`)."""
    out_dir = Path(dest if out_dir is None else out_dir)
    report = dest / "report"
    figdir = report / "figures"
    figdir.mkdir(parents=True)
    generation, text = results_document(results, env, prepared)
    (report / "results.json").write_text(text, encoding="utf-8")
    figures = render_all_plots(results, figdir, jobs, reuse_dir=out_dir / "report" / "figures")
    pages = source_pages(results, figures)
    for page in pages:
        (report / page.name).write_text(build_source_page(page, env, generation, out_dir), encoding="utf-8")
    (dest / "REPORT.md").write_text(build_markdown(results, env, figures, seconds, generation, out_dir, pages),
                                    encoding="utf-8")
    return generation


# ---------------------------------------------------------------------------------------------
# stored results and the check
# ---------------------------------------------------------------------------------------------


def _stored_results(path: Path, tier: str | None, rerun: set[str]) -> tuple[dict[str, ClaimResult], dict]:
    """The stored results of every registered claim not in ``rerun`` (for ``--update``), and their environment.

    Raises ValueError naming the claims that have no usable stored result (never stored, another
    expected status or other mutants than registered now), so that a report never mixes in a result
    that no longer matches its claim."""
    if not path.exists():
        raise ValueError(f"argument '--update' needs stored results, but {path} does not exist")
    data = json.loads(path.read_text(encoding="utf-8"))
    env = data.get("environment", {})
    if tier is not None and env.get("tier") != tier:
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


def _refuse_non_json(token: str):
    raise ValueError(f"{token} is not JSON (other parsers reject it): write non-finite numbers as text")


def check_report(path: Path, tier: str | None = None, registry: bool = True) -> list[str]:
    """Problems with the report set at ``path`` (empty list: complete and current).

    It must list every registered claim with its expected status (``registry``), REPORT.md, every
    per-source page and report/results.json must carry the same generation and tier (``tier`` when
    given), every link must resolve (GitHub anchors), sizes must be within REPORT_MAX_BYTES and
    PAGE_MAX_BYTES, and no publish may be pending."""
    path = Path(path)
    if not path.exists():
        return [f"{path} does not exist"]
    problems = []
    for s in pending_publishes(path):
        problems.append(f"an interrupted or running publish left {s.name}; run `python -m verify.report --recover`")
    text = path.read_text(encoding="utf-8")
    listed = parse_index(text)
    if registry:
        claims = all_claims()
        for c in claims:
            if c.id not in listed:
                problems.append(f"{c.id} is registered but not in the report")
            elif listed[c.id] != c.expect.value:
                problems.append(f"{c.id}: report says expected '{listed[c.id]}', registry says '{c.expect.value}'")
        registered = {c.id for c in claims}
        problems += [f"{cid} is in the report but no longer registered" for cid in listed if cid not in registered]
    m = MARKER_RE.search(text)
    if not m:
        return problems + [f"{path.name} carries no generation marker (written by an older version): regenerate it"]
    generation, md_tier = m.group(1), m.group(2)
    if tier is not None and md_tier != tier:
        problems.append(f"{path.name} is at tier '{md_tier}', expected '{tier}'")
    if path.stat().st_size > REPORT_MAX_BYTES:
        problems.append(f"{path.name} is {path.stat().st_size} bytes, over {REPORT_MAX_BYTES}")
    report_dir = path.parent / "report"
    results_path = report_dir / "results.json"
    try:
        data = json.loads(results_path.read_text(encoding="utf-8"), parse_constant=_refuse_non_json)
    except (OSError, ValueError) as exc:
        return problems + [f"report/results.json unreadable: {exc}"]
    if data.get("generation") != generation:
        problems.append(f"report/results.json is generation {data.get('generation')!r}, {path.name} is {generation!r}")
    if data.get("environment", {}).get("tier") != md_tier:
        problems.append(f"report/results.json is at tier {data.get('environment', {}).get('tier')!r}, {path.name} at {md_tier!r}")
    stored = {r.get("id"): r.get("expected") for r in data.get("results", [])}
    if stored != listed:
        problems.append(f"report/results.json and {path.name} list different claims or expected statuses")
    pages = sorted(report_dir.glob("*.md"))
    sources = {r.get("id", "").split(".", 1)[0] for r in data.get("results", [])}
    expected_pages = {_page_name(s) for s in sources}
    for name in sorted(expected_pages - {p.name for p in pages}):
        problems.append(f"report/{name} is missing")
    for page in pages:
        pm = MARKER_RE.search(page.read_text(encoding="utf-8"))
        if not pm or pm.group(1) != generation or pm.group(2) != md_tier:
            problems.append(f"report/{page.name} is not generation {generation} at tier {md_tier}")
        if page.stat().st_size > PAGE_MAX_BYTES:
            problems.append(f"report/{page.name} is {page.stat().st_size} bytes, over {PAGE_MAX_BYTES}")
        problems += [f"report/{p}" for p in broken_links(page)]
    problems += broken_links(path)
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


# ---------------------------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------------------------


def _usage_error(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def resolve_output(output: str | None, tier: str, subset: bool) -> Path:
    """The REPORT.md path to write; ValueError (exit 2) for an unusable or forbidden location.

    Default: the committed REPORT.md for a full-tier run of the whole registry, else build/report/."""
    committed = tier == COMMITTED_TIER and not subset
    if output is None:
        out = COMMITTED_OUTPUT if committed else BUILD_OUTPUT
        if not committed:
            out.parent.mkdir(parents=True, exist_ok=True)
        return out
    out = Path(output).absolute()
    if out.resolve() == COMMITTED_OUTPUT.resolve() and not committed:
        what = f"tier '{tier}'" if tier != COMMITTED_TIER else "a subset of the claims (--only)"
        raise ValueError(f"argument '--output': the committed {out.name} is the {COMMITTED_TIER}-tier report of every "
                         f"claim; a report of {what} is written to {BUILD_OUTPUT.relative_to(ROOT)} (the default) or "
                         "another path")
    if out.exists() and out.is_dir():
        raise ValueError(f"argument '--output' must be a file path such as DIR/REPORT.md, not the directory {out}")
    if not out.parent.is_dir():
        raise ValueError(f"argument '--output': directory {out.parent} does not exist")
    if not os.access(out.parent, os.W_OK):
        raise ValueError(f"argument '--output': directory {out.parent} is not writable")
    report_dir = out.parent / "report"
    if report_dir.exists() and not report_dir.is_dir():
        raise ValueError(f"argument '--output': {report_dir} exists and is not a directory")
    return out


def _raise_on_signal(signum, _frame):
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None, *, fault: str | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m verify.report", description="Regenerate REPORT.md from the claim registry.")
    parser.add_argument("--tier", choices=TIERS, default=None, help=f"default {COMMITTED_TIER}")
    parser.add_argument("--backend", choices=("auto", "cpu", "cuda"), default="auto")
    parser.add_argument("--output", default=None,
                        help=f"REPORT.md to write (report/ goes next to it); default: the committed REPORT.md for a "
                             f"{COMMITTED_TIER}-tier run of every claim, else build/report/REPORT.md")
    parser.add_argument("--only", nargs="+", default=None, metavar="ID", help="run only these claim ids (others are not reported)")
    parser.add_argument("--update", nargs="+", default=None, metavar="ID",
                        help="re-run only these claims; take every other claim's result from the existing "
                             "report/results.json (same tier), and say so in the report")
    parser.add_argument("--rerender", action="store_true",
                        help="run no claim: re-render the report from the stored report/results.json")
    parser.add_argument("--check", action="store_true",
                        help="only check that the report is complete, consistent and current; exit 1 if not")
    parser.add_argument("--recover", action="store_true", help="only complete or undo an interrupted publish")
    parser.add_argument("-j", "--jobs", type=jobs_argument, default=None, metavar="N",
                        help=f"run the claims in N worker processes, longest first, and draw the figures in N "
                             f"(default: the usable cores, here {usable_cores()}; 1: in this process); the report is "
                             "the same for every N apart from timings")
    parser.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                        help="run the claims as tasks of the dask.distributed cluster whose scheduler is at this "
                             "address (optional extra: pip install -e '.[distributed]'; README: 'On a cluster'); "
                             "excludes -j")
    args = parser.parse_args(argv)
    if args.scheduler is not None and args.jobs is not None:
        return _usage_error("arguments '--scheduler' and '-j' exclude each other (the cluster's workers decide "
                            "how many claims run at once)")
    modes = [n for n in ("only", "update", "rerender", "check", "recover") if getattr(args, n) not in (None, False)]
    if len(modes) > 1:
        return _usage_error("arguments " + " and ".join(f"'--{m}'" for m in modes) + " exclude each other")
    tier = args.tier or COMMITTED_TIER
    if args.check:
        out_path = Path(args.output).absolute() if args.output else COMMITTED_OUTPUT
        expect_tier = COMMITTED_TIER if out_path.resolve() == COMMITTED_OUTPUT.resolve() else args.tier
        problems = check_report(out_path, tier=expect_tier)
        for p in problems:
            print(f"stale: {p}", file=sys.stderr)
        return 1 if problems else 0
    try:
        out_path = resolve_output(args.output, tier, subset=args.only is not None)
    except ValueError as exc:
        return _usage_error(str(exc))
    try:
        lock = publish_lock(out_path.parent)
        lock.__enter__()
    except ReportLocked as exc:
        return _usage_error(str(exc))
    except OSError as exc:
        return _usage_error(f"argument '--output': cannot write next to {out_path}: {exc}")
    old_handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        for s in old_handlers:
            with contextlib.suppress(ValueError):  # not the main thread: signals stay as they are
                signal.signal(s, _raise_on_signal)
        for line in recover(out_path):
            print(f"note: interrupted publish {line}", file=sys.stderr)
        if args.recover:
            return 0
        return _run_and_publish(args, tier, out_path, fault)
    finally:
        for s, h in old_handlers.items():
            with contextlib.suppress(ValueError, TypeError):
                signal.signal(s, h)
        lock.__exit__(None, None, None)


def _run_and_publish(args, tier: str, out_path: Path, fault: str | None) -> int:
    results_path = out_path.parent / "report" / "results.json"
    reused: dict[str, ClaimResult] = {}
    reuse_env: dict = {}
    if (args.scheduler is None and not args.rerender and (args.jobs or usable_cores()) > 1
            and (args.only is None or len(args.only) > 1)):
        start_workers_early()  # the workers' server imports the claim modules while this process discovers them
    try:
        if args.rerender:
            reused, reuse_env = _stored_results(results_path, args.tier, set())
            claims = []
        elif args.update is not None:
            reused, reuse_env = _stored_results(results_path, tier, {get_claim(i).id for i in args.update})
            claims = [c for c in all_claims() if c.id not in reused]
        else:
            claims = [get_claim(i) for i in args.only] if args.only else all_claims()
    except ValueError as exc:
        return _usage_error(str(exc))
    from tqdm import tqdm

    t0 = time.perf_counter()
    jobs = args.jobs or usable_cores()
    prepared = PreparedTexts()
    where = f"on {args.scheduler}" if args.scheduler else f"-j {jobs}"
    with tqdm(total=len(claims), desc=f"verify ({tier}, {where})", unit="claim", file=sys.stderr,
              disable=not claims) as bar:
        try:
            if args.scheduler is not None and claims:
                from .cluster import run_claims_on_cluster

                results = run_claims_on_cluster(claims, tier=tier, backend=args.backend, address=args.scheduler,
                                                bar=bar, fault=_worker_fault(fault))
            else:
                results = run_claims(claims, tier=tier, backend=args.backend, jobs=jobs, bar=bar,
                                     fault=_worker_fault(fault), on_result=prepared.add if jobs > 1 else None)
        except ValueError as exc:
            return _usage_error(str(exc))
        except WorkerDied as exc:
            return _usage_error(f"{exc}; nothing was written")
    seconds = time.perf_counter() - t0
    if args.rerender:
        env = dict(reuse_env, rerendered={"date": _now(), "commit": _commit()})
        results = [reused[c.id] for c in all_claims()]
        seconds = float(env.get("seconds", sum(r.seconds for r in results)))
    else:
        env = environment(tier, args.backend)
        env["seconds"] = round(seconds, 1)
        if reused:
            env["reused"] = {"claims": len(reused), "from_commit": reuse_env.get("commit", "unknown"),
                             "from_date": reuse_env.get("date", "unknown"), "rerun": [r.claim.id for r in results]}
            fresh = {r.claim.id: r for r in results}
            results = [reused.get(c.id) or fresh[c.id] for c in all_claims()]
    publish(out_path, lambda staging: write_report_set(staging, results, env, seconds, out_path.parent, jobs=jobs,
                                                         prepared=prepared),
            fault=fault)
    bad = [r.claim.id for r in results if not r.ok]
    shown = out_path.relative_to(ROOT) if out_path.is_relative_to(ROOT) else out_path
    print(f"wrote {shown} and {shown.parent / 'report'}/ ({len(results)} claims, tier {env['tier']}, {seconds:.0f} s)"
          + (f"; NOT as expected: {bad}" if bad else ""), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    status = main()
    gc.freeze()  # exiting: spares the interpreter's final collections over every claim module (~0.6 s here)
    sys.exit(status)
