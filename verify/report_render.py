"""Rendering helpers of the report (verify.report): table cells, the details tables and plots of a claim,
the benchmark table, GitHub's heading anchors and the link check, and the text of the contract fields
(printed / corrected statements, severity, witnesses, sharpness classes).
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from pathlib import Path

import numpy as np

from .registry import ClaimResult, to_jsonable

_ROOT = Path(__file__).resolve().parent.parent


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
    return _no_links(text.replace("|", "\\|").replace("\n", " "))


def _no_links(text: str) -> str:
    """Escape '](' in prose (e.g. chi_[k](x)) so that markdown does not render it as a link."""
    return text.replace("](", "]\\(")


def _case_text(case: dict | None) -> str:
    if not case:
        return "n/a"
    return ", ".join(f"{k} = {_cell(v)}" for k, v in case.items())


def _side_text(rec: dict | None) -> str:
    if not rec:
        return "n/a"
    tol = f" (tol {_cell(rec['tol'])})" if rec.get("tol") is not None else ""
    return f"{_case_text(rec.get('case'))}: lhs = {_cell(rec.get('lhs'))} {rec.get('relation', '')} rhs = {_cell(rec.get('rhs'))}{tol}"


DETAIL_MAX_ROWS = 60
DETAIL_MAX_CELL = 400


def _clip(text: str, limit: int = DETAIL_MAX_CELL) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def render_details(details: dict) -> list[str]:
    """Markdown for a Verdict's details: tables for dicts of dicts / lists of dicts, else JSON.

    Tables are cut at DETAIL_MAX_ROWS rows and cells at DETAIL_MAX_CELL characters (the full values
    are in report/results.json), so that a per-source page stays readable and under PAGE_MAX_BYTES."""
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
            for key, row in list(value.items())[:DETAIL_MAX_ROWS]:
                out.append(f"| {_clip(_cell(key))} | " + " | ".join(_clip(_cell(row.get(c, ""))) for c in cols) + " |")
            out.extend(_more_rows(len(value)))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            cols = []
            for row in value:
                cols += [c for c in row if c not in cols]
            out.append("| " + " | ".join(_cell(c) for c in cols) + " |")
            out.append("|---" * len(cols) + "|")
            for row in value[:DETAIL_MAX_ROWS]:
                out.append("| " + " | ".join(_clip(_cell(row.get(c, ""))) for c in cols) + " |")
            out.extend(_more_rows(len(value)))
        elif isinstance(value, dict):
            out.append("| key | value |")
            out.append("|---|---|")
            for k, v in list(value.items())[:DETAIL_MAX_ROWS]:
                out.append(f"| {_clip(_cell(k))} | {_clip(_cell(v))} |")
            out.extend(_more_rows(len(value)))
        else:
            out.append(f"`{_clip(_cell(value), 2000)}`")
        out.append("")
    return out


def _more_rows(n: int) -> list[str]:
    if n <= DETAIL_MAX_ROWS:
        return []
    return ["", f"({n - DETAIL_MAX_ROWS} more rows in report/results.json)"]


def _slug(claim_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", claim_id)


def plot_specs(result: ClaimResult) -> list[dict]:
    """The plot specs of a result: the printed verdict's, then the corrected one's with new titles."""
    specs = list(result.printed.plots)
    if result.corrected is not None:
        titles = {spec.get("title") for spec in specs}
        specs += [spec for spec in result.corrected.plots if spec.get("title") not in titles]
    return specs


def render_plots(result: ClaimResult, figdir: Path) -> list[str]:
    """Draw the Verdict's plot specs to PNG files; return the relative paths."""
    return render_specs(result.claim.id, plot_specs(result), figdir)


#: the file in a report's figures/ folder that records, per PNG, the key of what drew it (:func:`figure_key`)
FIGURE_KEYS = "keys.json"


def figure_key(spec: dict) -> str:
    """What a figure's bytes depend on: the spec as stored in results.json (so that a live spec and the same
    spec read back from results.json have one key), this module's source (the drawing code) and matplotlib's
    version.  A figure with the key of a PNG already drawn is that PNG, byte for byte (the drawing is
    deterministic: no timestamps, no metadata; tested)."""
    text = json.dumps(to_jsonable(spec), sort_keys=True, allow_nan=False)
    return hashlib.sha256(hashlib.sha256(text.encode()).digest() + _drawing_code_digest()).hexdigest()[:32]


@functools.lru_cache(maxsize=1)
def _drawing_code_digest() -> bytes:
    import matplotlib

    return hashlib.sha256(Path(__file__).read_bytes() + b"\0matplotlib " + matplotlib.__version__.encode()).digest()


def _reusable_figures(reuse_dir: Path | None) -> dict[str, str]:
    """{PNG name: key} of the figures in ``reuse_dir`` (the published report's figures/) that may be copied;
    empty when there is none or its key file is unreadable."""
    if reuse_dir is None:
        return {}
    try:
        keys = json.loads((Path(reuse_dir) / FIGURE_KEYS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {name: key for name, key in keys.items() if isinstance(key, str) and (Path(reuse_dir) / name).is_file()} \
        if isinstance(keys, dict) else {}


def render_all_plots(results: list[ClaimResult], figdir: Path, jobs: int = 1,
                     reuse_dir: Path | None = None) -> dict[str, list[str]]:
    """:func:`render_plots` of every result, by claim id, and ``figdir/keys.json`` ({PNG name: figure_key}).

    A figure whose key equals that of the PNG of the same name in ``reuse_dir`` (the published report's
    figures/, which a re-run mostly redraws unchanged) is copied from there instead of drawn: the same
    bytes, without matplotlib's ~0.3 s per figure.  The others are drawn one per task in ``jobs`` spawned
    processes when ``jobs > 1`` (the PNG files are the same bytes whichever process draws them).  An error
    or a signal here stops the processes and re-raises."""
    import shutil

    work = [(r.claim.id, plot_specs(r)) for r in results]
    tasks = [(cid, i, spec) for cid, specs in work for i, spec in enumerate(specs)]
    names = [_figure_name(cid, i) for cid, i, _ in tasks]
    keys = [figure_key(spec) for _, _, spec in tasks]
    old = _reusable_figures(reuse_dir)
    todo = []
    for t, (name, key) in enumerate(zip(names, keys)):
        if old.get(name) == key:
            shutil.copyfile(Path(reuse_dir) / name, figdir / name)
        else:
            todo.append(t)
    if jobs <= 1 or len(todo) < 2:
        for t in todo:
            render_figure(*tasks[t], figdir)
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        from .parallel import stop_pool

        pool = ProcessPoolExecutor(max_workers=min(jobs, len(todo)), mp_context=multiprocessing.get_context("spawn"))
        try:
            futures = [pool.submit(render_figure, *tasks[t], figdir) for t in todo]
            for f in futures:
                f.result()
        except BaseException:
            stop_pool(pool)
            raise
        pool.shutdown(wait=True)
    (figdir / FIGURE_KEYS).write_text(json.dumps(dict(zip(names, keys)), indent=0, sort_keys=True) + "\n",
                                      encoding="utf-8")
    out: dict[str, list[str]] = {cid: [] for cid, _ in work}
    for (cid, _, _), name in zip(tasks, names):
        out[cid].append(f"report/figures/{name}")
    return out


def _figure_name(claim_id: str, i: int) -> str:
    return f"{_slug(claim_id)}-{i}.png"


def render_specs(claim_id: str, specs: list[dict], figdir: Path) -> list[str]:
    """Draw plot specs to ``figdir/<claim id>-<i>.png``; return the paths relative to the report."""
    return [render_figure(claim_id, i, spec, figdir) for i, spec in enumerate(specs)]


def render_figure(claim_id: str, i: int, spec: dict, figdir: Path) -> str:
    """Draw plot spec ``i`` of a claim to ``figdir/<claim id>-<i>.png``; return its path relative to the report."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    if spec.get("kind") == "heatmap":
        _draw_heatmap(fig, ax, spec)
    for s in spec.get("series", []):
        style = s.get("style", "-o" if len(s.get("x", [])) < 40 else "-")
        ax.plot(_axis_values(s["x"]), _axis_values(s["y"]), style, label=s.get("label"), markersize=3)
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
    name = _figure_name(claim_id, i)
    fig.savefig(figdir / name, metadata={"Software": None})
    plt.close(fig)
    return f"report/figures/{name}"


def _axis_values(values):
    """Plot coordinates as float64 where they are numbers: results.json stores integers beyond 2^53 and NaN as
    strings (strict JSON; None is read as NaN too), which matplotlib would otherwise draw as categories, so a figure re-rendered
    from results.json (``--rerender``, ``--update``) would differ from the one drawn from the live result.
    Values that are not numbers (category labels) are returned as they are."""
    try:
        return np.array([np.nan if v is None else float(v) for v in values], dtype=np.float64)
    except (TypeError, ValueError):
        return values


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
    files = sorted((_ROOT / "benchmarks").glob("*results.json"))
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
# anchors and links (GitHub's rules)
# ---------------------------------------------------------------------------------------------


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower-cased, punctuation other than '-' and '_' removed,
    spaces turned into '-' (duplicates on one page get '-1', '-2', ... : see :func:`page_anchors`)."""
    text = re.sub(r"[`*_]{2,}|`", "", heading.strip()).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def page_anchors(markdown: str) -> list[str]:
    """Every heading anchor of a markdown page, in order, with GitHub's de-duplication."""
    seen: dict[str, int] = {}
    out = []
    fenced = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        m = re.match(r"#{1,6} (.+)$", line)
        if not m:
            continue
        slug = github_slug(m.group(1))
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.append(slug if n == 0 else f"{slug}-{n}")
    return out


LINK_RE = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def broken_links(page: Path) -> list[str]:
    """Relative links (files and #anchors) of a markdown page that do not resolve."""
    text = page.read_text(encoding="utf-8")
    problems = []
    cache: dict[Path, set[str]] = {page: set(page_anchors(text))}
    for target in LINK_RE.findall(text):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        path_part, _, anchor = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        if not dest.exists():
            problems.append(f"{page.name}: link to missing file {target}")
            continue
        if anchor:
            if dest.suffix != ".md":
                problems.append(f"{page.name}: anchor on a non-markdown file {target}")
                continue
            if dest not in cache:
                cache[dest] = set(page_anchors(dest.read_text(encoding="utf-8")))
            if anchor not in cache[dest]:
                problems.append(f"{page.name}: link to missing anchor {target}")
    return problems


# ---------------------------------------------------------------------------------------------
# text of the contract fields
# ---------------------------------------------------------------------------------------------


def _oneline(text: str, limit: int = 320) -> str:
    """Whitespace collapsed; cut at a word boundary near ``limit`` characters with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + " …"


def printed_text(c) -> str:
    return _oneline(c.section("Statement")) or "(no Statement section)"


def corrected_text(r: ClaimResult) -> str:
    """The corrected statement in words (the docstring's Correction section); for claims written before
    the verdict contract, the corrected statement object or its verdict, labelled as such."""
    c = r.claim
    words = c.section("Correction")
    if words:
        return _oneline(words)
    if c.corrected is not None:
        return "(no Correction section yet; corrected statement object:) " + _oneline(repr(c.corrected), 240)
    if r.corrected is not None:
        return "(no Correction section yet; verdict of the corrected check:) " + _oneline(r.corrected.summary(), 240)
    return "none established"


def severity_text(c) -> str:
    if c.severity is not None:
        return c.severity.value
    return "not yet classified"


def _num(v) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    text = str(v)
    return text if len(text) <= 40 else text[:37] + "…"


def witness_words(w: dict | None) -> str:
    """A one-line witness in words: 'at n = 2, k = 1: lhs 0.5 is not <= rhs 0.25'."""
    if not w:
        return "no witness recorded"
    case = ", ".join(f"{k} = {_num(v)}" for k, v in (w.get("case") or {}).items()) or "the only case"
    rel = w.get("relation") or "?"
    if rel == "is true":
        return _oneline(f"at {case}: the predicate is false", 240)
    tol = f" (tolerance {_num(w['tol'])})" if w.get("tol") is not None else ""
    return _oneline(f"at {case}: lhs {_num(w.get('lhs'))} is not {rel} rhs {_num(w.get('rhs'))}{tol}", 240)


def _ratio_text(x) -> str:
    if x is None:
        return "not recorded"
    try:
        return f"{float(x):.4g}"
    except (TypeError, ValueError):
        return str(x)


def _failing_witness(r: ClaimResult) -> dict | None:
    if not r.printed.holds:
        return r.printed.witness
    if r.proof_step is not None and not r.proof_step.holds:
        return r.proof_step.witness
    return None


def _is_audited(c) -> bool:
    try:
        from .catalogs import is_audited
    except ImportError:  # pragma: no cover
        return False
    return is_audited(c)


def sharpness_class(ratio) -> str | None:
    """'violated' (> 1), 'within 1%', 'within 10%', 'loose >10x' (< 0.1 on every case), or None."""
    if ratio is None:
        return None
    r = float(ratio)
    if r > 1:
        return "violated"
    if r >= 0.99:
        return "within 1%"
    if r >= 0.9:
        return "within 10%"
    if r < 0.1:
        return "loose >10x"
    return "between"
