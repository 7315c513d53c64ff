"""REPORT.md and report/ are complete and current, render the verdict contract, and are published atomically."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from verify.registry import ClaimResult, Part, Severity, Status, all_claims, get_claim, run_claim
from verify.report import INDEX_HEADER as INDEX_HEADER_LINE
from verify.publish import PUBLISH_STEPS, PublishFault, SimulatedKill, pending_publishes, publish, publish_lock, recover
from verify.report import (BUILD_OUTPUT, COMMITTED_OUTPUT, PAGE_MAX_BYTES, REPORT_MAX_BYTES, ROOT, check_report, main,
                           parse_index, resolve_output, write_report_set)
from verify.report_render import broken_links, github_slug, page_anchors

IDS = ["thesis_ch5.sq_counting", "thesis_ch5.lemma_B.1.asymptotic"]


_FRESH: dict[str, ClaimResult] = {}


def _stored(ids=IDS) -> tuple[list[ClaimResult], dict]:
    """Results of these claims as the committed report stores them when it is current, else computed now at
    the quick tier (once per session), so that the rendering and publishing tests do not depend on the
    committed report being current (its currency is the business of the test below)."""
    data = json.loads((ROOT / "report" / "results.json").read_text(encoding="utf-8"))
    stored = {r["id"]: r for r in data["results"]}
    out = []
    for i in ids:
        try:
            out.append(ClaimResult.from_json(get_claim(i), stored[i]))
        except (KeyError, ValueError):  # stored before the claim changed: run it
            if i not in _FRESH:
                _FRESH[i] = run_claim(i, tier="quick")
            out.append(_FRESH[i])
    return out, dict(data["environment"])


def _write(dest: Path, tag: str, ids=IDS, out_dir: Path | None = None) -> str:
    """Write a report set of ``ids`` into ``dest``; ``out_dir``: where it will be published (publish() builds in a
    staging directory one level below; the links to docs/ are relative to the final place, as the CLI does)."""
    results, env = _stored(ids)
    env = dict(env, date=f"test {tag}", reused=None, rerendered=None)
    return write_report_set(dest, results, env, 1.0, out_dir)


def _generation(out: Path) -> str | None:
    try:
        return json.loads((out.parent / "report" / "results.json").read_text())["generation"]
    except OSError:
        return None


# --- the committed report --------------------------------------------------------------------------


#: a declared, explained pending regeneration (written by hand when a full-tier run could not be finished;
#: every publish replaces report/ and so removes it): the staleness test then skips with its text as the
#: reason, loudly, instead of failing; `python -m verify.report --check` still exits 1
PENDING = ROOT / "report" / "REGENERATION_PENDING"


def test_committed_report_is_complete_consistent_and_current():
    problems = check_report(COMMITTED_OUTPUT, tier="full")
    if problems and PENDING.exists():
        pytest.skip(f"REPORT.md is stale ({len(problems)} problems, e.g. {problems[0]}); regeneration declared "
                    f"pending: {PENDING.read_text(encoding='utf-8').strip()}")
    assert not PENDING.exists() or problems, "the report is current: remove report/REGENERATION_PENDING"
    assert not problems, ("REPORT.md / report/ are stale or inconsistent; run `python -m verify.report` (or "
                          "`python -m verify.report --rerender` when only the rendering changed):\n" + "\n".join(problems))
    assert COMMITTED_OUTPUT.stat().st_size <= REPORT_MAX_BYTES
    assert all(p.stat().st_size <= PAGE_MAX_BYTES for p in (ROOT / "report").glob("*.md"))


def test_no_path_outside_the_repository_is_referenced():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    offenders = []
    for name in files:
        path = ROOT / name
        if path.suffix not in (".py", ".md", ".toml", ".txt", ".cfg", "") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for needle in ("../" + "shared", "/" + "work/"):  # split so that this file does not match itself
            if needle in text:
                offenders.append(f"{name}: {needle}")
    assert not offenders, offenders


# --- anchors and links -----------------------------------------------------------------------------


def test_github_slugs_and_duplicate_headings():
    assert github_slug("thesis_ch5.lemma_B.2") == "thesis_ch5lemma_b2"
    assert github_slug("Errata and proof gaps") == "errata-and-proof-gaps"
    assert github_slug("`seed000.def_2.2` (n, k)") == "seed000def_22-n-k"
    assert page_anchors("# A\n## A\n```\n# not a heading\n```\n### a") == ["a", "a-1", "a-2"]


def test_results_document_assembled_from_each_results_texts_equals_one_dump_of_the_whole():
    """results.json and its generation, assembled from per-result texts (some prepared ahead, as the report
    does while claims still run), are the characters of dumping the whole object at once."""
    from verify.report import PreparedTexts, result_texts, results_document
    from verify.registry import to_jsonable

    data = json.loads((ROOT / "report" / "results.json").read_text(encoding="utf-8"))
    stored = {r["id"]: r for r in data["results"]}
    results = []
    for c in all_claims():
        try:
            results.append(ClaimResult.from_json(c, stored[c.id]))
        except (KeyError, ValueError):
            pass
    assert len(results) > 300
    env = dict(data["environment"], date="test", note="line one\nline two \u00e9", nan=float("nan"))
    for rs in (results, results[:1], []):
        body = to_jsonable({"environment": env, "results": [r.to_json() for r in rs]})
        generation = hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()[:16]
        whole = json.dumps({"generation": generation, **body}, indent=1, allow_nan=False)
        prepared = PreparedTexts()
        for r in rs[::3]:
            prepared.add(r)
        assert results_document(rs, env) == (generation, whole)
        assert results_document(rs, env, prepared) == (generation, whole)
    # a text prepared for another object of the same claim is not used
    other = dataclasses.replace(results[0], seconds=results[0].seconds + 1.0)
    prepared = PreparedTexts()
    prepared.add(other)
    assert prepared.get(results[0]) == result_texts(results[0]) != result_texts(other)


def test_a_source_too_large_for_one_page_fills_several(tmp_path: Path, monkeypatch):
    """Claim sections beyond PAGE_SPLIT_BYTES go on further pages (<source>-2.md, ...): each claim on exactly
    one page, in registry order, every link (REPORT.md's index and the pages' navigation) resolving, and the
    report set passing the check; a source within the limit keeps its single page."""
    import verify.report as report

    ids = ["thesis_ch5.sq_counting", "thesis_ch5.lemma_B.1.asymptotic", "thesis_ch5.constructions.k_zigzag"]
    one = tmp_path / "one"
    _write(one, "one page", ids)
    assert sorted(p.name for p in (one / "report").glob("*.md")) == ["thesis_ch5.md"]
    assert check_report(one / "REPORT.md", registry=False) == []

    monkeypatch.setattr(report, "PAGE_SPLIT_BYTES", 1)  # every section alone on a page
    many = tmp_path / "many"
    _write(many, "split", ids)
    names = ["thesis_ch5.md", "thesis_ch5-2.md", "thesis_ch5-3.md"]
    assert sorted(p.name for p in (many / "report").glob("*.md")) == sorted(names)
    for name, cid in zip(names, ids):
        text = (many / "report" / name).read_text(encoding="utf-8")
        assert [line for line in text.splitlines() if line.startswith("### ")] == [f"### {cid}"]
        assert "fill 3 pages" in text and f"page={name}" in text
    index = (many / "REPORT.md").read_text(encoding="utf-8")
    assert f"(report/thesis_ch5-3.md#{github_slug(ids[2])})" in index
    assert check_report(many / "REPORT.md", registry=False) == []


def test_broken_links_are_found(tmp_path: Path):
    (tmp_path / "b.md").write_text("# Title here\n")
    page = tmp_path / "a.md"
    page.write_text("# A\n[ok](b.md#title-here) [self](#a) [bad](b.md#Title-Here) [gone](c.md) [web](https://x.org/#Q)\n")
    assert broken_links(page) == ["a.md: link to missing anchor b.md#Title-Here", "a.md: link to missing file c.md"]


def test_index_parser_keeps_labels_with_escaped_pipes():
    text = INDEX_HEADER_LINE + "\n|---|---|---|---|---|---|---|---|\n" + (
        "| [`a.b`](#ab) | Corollary 3 (\\|U_s\\| = 5) | erratum | erratum | exact | 3 | 1/1 | 0.1 |\n"
    )
    assert parse_index(text) == {"a.b": "erratum"}


# --- rendering the verdict contract ------------------------------------------------------------------


def _doc_check(statement, p, ctx):
    """A contract claim.

    Statement
    ---------
    For   every n >= 1,
    f(n) <= 2 n.

    Source
    ------
    Test.

    Correction
    ----------
    f(n) <= 3 n for every n >= 1.
    """


def test_report_renders_parts_severity_correction_and_sharpness(tmp_path: Path):
    results, env = _stored()
    old, new = results
    c = dataclasses.replace(new.claim, check=_doc_check, severity=Severity.CONSTANT, affects=("thesis_ch5.sq_counting",),
                            parts=(Part("upper", "f(n) <= 2n", inequality=True),
                                   Part("rate", "f = Theta(n)", asserted=False, reason="asymptotic")))
    sharp = dataclasses.replace(new.printed, sharpness=0.995, sharpness_case={"n": 7, "part": "upper"},
                                sharpness_parts={"upper": {"ratio": 0.995, "case": {"n": 7}},
                                                 "lower": {"ratio": 0.05, "case": {"n": 1}}})
    contract = dataclasses.replace(new, claim=c, printed=sharp)
    pre_contract = dataclasses.replace(old, printed=dataclasses.replace(old.printed, sharpness=None, sharpness_case=None,
                                                                         sharpness_parts={}))
    write_report_set(tmp_path, [pre_contract, contract], dict(env, reused=None, rerendered=None), 1.0)
    assert check_report(tmp_path / "REPORT.md", registry=False) == []
    top = (tmp_path / "REPORT.md").read_text()
    page = (tmp_path / "report" / "thesis_ch5.md").read_text()
    row = next(line for line in top.splitlines() if line.startswith(f"| [`{new.claim.id}`](report/thesis_ch5.md#"))
    assert "| constant |" in row and "For every n >= 1, f(n) <= 2 n." in row and "f(n) <= 3 n for every n >= 1." in row
    assert "at " in row and " is not " in row  # the witness in words
    assert f"attained within 1% (ratio >= 0.99) | 1 | [`{new.claim.id}`]" in top
    assert "Sharpness recorded for 1 of 2 claims" in top
    assert "- Severity: constant" in page and "- Affects: `thesis_ch5.sq_counting`" in page
    assert "- Part `rate`: unchecked (asymptotic)" in page and "- Part `upper` (inequality): asserted" in page
    assert "- Sharpness (largest lhs/rhs found): 0.995 at n = 7, part = upper" in page
    assert "  - part `lower`: 0.05 at n = 1" in page
    assert "- Sharpness: not recorded" in page  # the pre-contract result still renders


# --- where it writes, and validation before any claim runs -------------------------------------------


def test_default_output_keeps_the_committed_report_for_the_full_tier_only(tmp_path: Path, capsys):
    assert resolve_output(None, "full", subset=False) == COMMITTED_OUTPUT
    assert resolve_output(None, "quick", subset=False) == BUILD_OUTPUT
    assert resolve_output(None, "full", subset=True) == BUILD_OUTPUT
    assert main(["--tier", "quick", "--output", str(COMMITTED_OUTPUT)]) == 2
    assert "committed REPORT.md is the full-tier report" in capsys.readouterr().err
    assert main(["--only", IDS[0], "--output", str(COMMITTED_OUTPUT)]) == 2
    assert main(["--tier", "quick", "--only", IDS[0], "--output", str(tmp_path / "missing" / "REPORT.md")]) == 2
    assert "does not exist" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["--only"])
    assert exc.value.code == 2
    assert main(["--check", "--rerender"]) == 2


def test_check_flags_a_stale_report(tmp_path: Path):
    stale = tmp_path / "REPORT.md"
    stale.write_text("# empty\n")
    problems = check_report(stale)
    assert len([p for p in problems if "registered but not in the report" in p]) == len(all_claims())
    assert any("no generation marker" in p for p in problems)
    assert main(["--check", "--output", str(stale)]) == 1


def test_check_detects_mixed_generations_and_tiers(tmp_path: Path):
    _write(tmp_path, "a")
    assert check_report(tmp_path / "REPORT.md", registry=False) == []
    assert any("expected 'quick'" in p for p in check_report(tmp_path / "REPORT.md", tier="quick", registry=False))
    other = tmp_path / "other"
    other.mkdir()
    _write(other, "b")
    os.replace(other / "report" / "results.json", tmp_path / "report" / "results.json")
    assert any("report/results.json is generation" in p for p in check_report(tmp_path / "REPORT.md", registry=False))


# --- atomic publishing ------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["raise", "kill"])
@pytest.mark.parametrize("step", PUBLISH_STEPS)
def test_a_fault_at_any_publishing_step_leaves_a_complete_old_or_new_set(tmp_path: Path, step, mode):
    out = tmp_path / "REPORT.md"
    publish(out, lambda d: _write(d, "old", out_dir=out.parent))
    old = _generation(out)
    fault = step if mode == "raise" else f"{step}:kill"
    with pytest.raises(PublishFault if mode == "raise" else SimulatedKill):
        publish(out, lambda d: _write(d, "new", IDS[:1], out_dir=out.parent), fault=fault)
    if mode == "raise":  # an exception or SIGTERM: rolled back (or completed, after the commit point)
        assert not pending_publishes(out)
    elif pending_publishes(out):  # a hard kill: --check says so, the next run recovers
        assert any("interrupted or running publish" in p for p in check_report(out, registry=False))
        recover(out)
        assert not pending_publishes(out)
    assert check_report(out, registry=False) == []
    expected_new = step == "committed"
    assert (_generation(out) != old) is expected_new
    assert (parse_index(out.read_text()) == {IDS[0]: "partly-confirmed"}) is expected_new


def test_a_hard_kill_of_a_real_process_is_recovered(tmp_path: Path):
    (tmp_path / "REPORT.md").write_text("old\n")
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "page.md").write_text("old\n")
    script = textwrap.dedent(f"""
        from pathlib import Path
        from verify.publish import publish
        def build(d):
            (d / "report").mkdir(); (d / "report" / "page.md").write_text("new\\n"); (d / "REPORT.md").write_text("new\\n")
        publish(Path({str(tmp_path / 'REPORT.md')!r}), build)
    """)
    env = dict(os.environ, VERIFY_REPORT_FAULT="new-moved-in:kill", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
    assert proc.returncode == 70, proc.stderr
    assert pending_publishes(tmp_path / "REPORT.md")
    assert main(["--recover", "--output", str(tmp_path / "REPORT.md")]) == 0
    assert not pending_publishes(tmp_path / "REPORT.md")
    assert (tmp_path / "REPORT.md").read_text() == "old\n" == (tmp_path / "report" / "page.md").read_text()


def test_sigterm_while_rendering_rolls_back_and_leaves_no_temporary_directory(tmp_path: Path, monkeypatch):
    import signal

    from verify import report

    out = tmp_path / "REPORT.md"
    publish(out, lambda d: _write(d, "old", out_dir=out.parent))
    before = {p.name: p.read_bytes() for p in (tmp_path / "report").glob("*")  if p.is_file()}

    def interrupted(dest, *a, **k):
        (dest / "report").mkdir()
        signal.raise_signal(signal.SIGTERM)

    monkeypatch.setattr(report, "write_report_set", interrupted)
    monkeypatch.setattr(report, "all_claims", lambda: [get_claim(i) for i in IDS])
    with pytest.raises(SystemExit) as exc:
        main(["--rerender", "--output", str(out)])
    assert exc.value.code == 128 + signal.SIGTERM
    assert not pending_publishes(out)
    assert {p.name: p.read_bytes() for p in (tmp_path / "report").glob("*") if p.is_file()} == before
    assert signal.getsignal(signal.SIGTERM) is not report._raise_on_signal


def test_a_second_concurrent_run_exits_two(tmp_path: Path, capsys):
    with publish_lock(tmp_path):
        code = main(["--tier", "quick", "--only", IDS[0], "--output", str(tmp_path / "REPORT.md")])
    assert code == 2
    assert "another `python -m verify.report`" in capsys.readouterr().err
    assert not (tmp_path / "REPORT.md").exists()


def test_an_unwritable_report_rolls_back(tmp_path: Path, monkeypatch):
    from verify import report

    out = tmp_path / "REPORT.md"
    publish(out, lambda d: _write(d, "old", out_dir=out.parent))
    old = _generation(out)
    real = os.replace

    def refuse(src, dst):
        if Path(dst) == out:
            raise PermissionError(1, "Operation not permitted", str(dst))
        return real(src, dst)

    monkeypatch.setattr(report.os, "replace", refuse)
    with pytest.raises(PermissionError):
        publish(out, lambda d: _write(d, "new", IDS[:1], out_dir=out.parent))
    assert _generation(out) == old and not pending_publishes(out)
    assert check_report(out, registry=False) == []


# --- generation end to end (runs claims: slower) ------------------------------------------------------


def test_update_reruns_some_claims_and_reuses_the_rest(tmp_path: Path, monkeypatch, capsys):
    from verify import report

    ids = IDS
    monkeypatch.setattr(report, "all_claims", lambda: [get_claim(i) for i in ids])
    out = tmp_path / "REPORT.md"
    assert main(["--tier", "quick", "--output", str(out), "-j", "1"]) == 0
    assert check_report(out, tier="quick", registry=False) == []
    first_page = (tmp_path / "report" / "thesis_ch5.md").read_text()
    assert main(["--tier", "quick", "--update", ids[0], "--output", str(out), "-j", "1"]) == 0
    second = out.read_text()
    assert parse_index(second) == {ids[0]: "partly-confirmed", ids[1]: "erratum"}
    assert "Updated with `--update`: 1 claim re-run (`thesis_ch5.sq_counting`)" in second
    page = (tmp_path / "report" / "thesis_ch5.md").read_text()
    # the reused claim renders exactly as before, figures included
    assert page[page.index(f"### {ids[1]}\n"):] == first_page[first_page.index(f"### {ids[1]}\n"):]
    assert list((tmp_path / "report" / "figures").glob("thesis_ch5.lemma_B.1.asymptotic-*.png"))

    # another tier, a claim without a stored result, and --only together with --update: exit 2, nothing written
    assert main(["--tier", "full", "--update", ids[0], "--output", str(out)]) == 2
    assert "stored results are at tier 'quick', not 'full'" in capsys.readouterr().err
    monkeypatch.setattr(report, "all_claims", lambda: [get_claim(i) for i in ids + ["thesis_ch5.warmup_gradient"]])
    assert main(["--tier", "quick", "--update", ids[0], "--output", str(out)]) == 2
    assert "thesis_ch5.warmup_gradient: not stored" in capsys.readouterr().err
    assert main(["--tier", "quick", "--update", ids[0], "--only", ids[1], "--output", str(out)]) == 2
    assert "exclude each other" in capsys.readouterr().err
    assert out.read_text() == second


def test_heatmap_specs_are_drawn_and_bad_ones_rejected(tmp_path: Path):
    import types

    from verify.report_render import render_plots

    spec = {"kind": "heatmap", "title": "p", "z": [[0.0, 0.5], [1.0, 0.25]], "x": [1, 2], "y": ["a", "b"],
            "zlabel": "success", "annotate": True, "series": [{"x": [0, 1], "y": [0, 1], "style": "w--"}]}

    def fake(s):
        return types.SimpleNamespace(printed=types.SimpleNamespace(plots=(s,)), corrected=None,
                                     claim=types.SimpleNamespace(id="x.heat"))

    paths = render_plots(fake(spec), tmp_path)
    assert paths == ["report/figures/x.heat-0.png"]
    assert (tmp_path / "x.heat-0.png").stat().st_size > 1000
    with pytest.raises(ValueError, match="'z' must be 2-dimensional"):
        render_plots(fake(dict(spec, z=[0.0, 1.0])), tmp_path)


def test_a_figure_drawn_from_results_json_equals_the_live_one(tmp_path: Path):
    """results.json stores integers beyond 2^53 and NaN as strings: drawn from there (--rerender,
    --update), the figure must be the same bytes as drawn from the live result, not a categorical axis."""
    from verify.registry import to_jsonable
    from verify.report_render import render_figure

    live = {"title": "t", "logx": True, "logy": True,
            "series": [{"x": [16, 1024, 2**40, 2**58], "y": [1.0, float("nan"), 3.0, 4.0], "label": "a"},
                       {"x": ["dense", "sparse"], "y": [1.0, 2.0], "label": "categories stay categories"}]}
    stored = json.loads(json.dumps(to_jsonable(live)))
    assert stored["series"][0]["x"][-1] == str(2**58) and isinstance(stored["series"][0]["y"][1], str)
    (tmp_path / "live").mkdir()
    (tmp_path / "stored").mkdir()
    render_figure("x.live", 0, live, tmp_path / "live")
    render_figure("x.live", 0, stored, tmp_path / "stored")
    assert (tmp_path / "live" / "x.live-0.png").read_bytes() == (tmp_path / "stored" / "x.live-0.png").read_bytes()


def test_claim_packages_declare_their_catalog_index():
    import importlib

    from verify.catalogs import CATALOG_FILES, ENTRIES, HANDLED

    assert set(CATALOG_FILES) == set(ENTRIES) == set(HANDLED)
    for source in ENTRIES:
        assert set(HANDLED[source]) <= set(ENTRIES[source]), source
    rcnn = importlib.import_module("verify.rcnn")
    assert rcnn.SOURCE in ENTRIES


def test_the_lock_excludes_a_second_process(tmp_path: Path):
    """Two real processes: while one holds the publish lock, `python -m verify.report` in another exits 2
    naming the holder's pid and writes nothing; once the holder exits, the same command runs (exit 0)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys
            from pathlib import Path
            from verify.publish import publish_lock
            with publish_lock(Path({str(tmp_path)!r})):
                print("locked", flush=True)
                sys.stdin.readline()
            """)],
        cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        cmd = [sys.executable, "-m", "verify.report", "--recover", "--output", str(tmp_path / "REPORT.md")]
        second = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert second.returncode == 2, second.stderr
        assert f"(pid {holder.pid})" in second.stderr and "another `python -m verify.report`" in second.stderr
        assert "Traceback" not in second.stderr
        assert sorted(p.name for p in tmp_path.iterdir()) == [".report.lock"]
    finally:
        holder.communicate("\n", timeout=60)
    assert holder.returncode == 0
    again = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr


def _fake_result(cid: str, *specs):
    import types

    return types.SimpleNamespace(printed=types.SimpleNamespace(plots=tuple(specs)), corrected=None,
                                 claim=types.SimpleNamespace(id=cid))


def test_figures_with_unchanged_keys_are_copied_from_the_published_report(tmp_path: Path, monkeypatch):
    """A re-run copies the PNGs whose spec (and drawing code) did not change from the published figures/
    and draws only the others; the copies are the bytes a fresh drawing gives."""
    import verify.report_render as RR

    a = {"title": "a", "series": [{"x": [1, 2, 3], "y": [1.0, 4.0, 9.0], "label": "squares"}]}
    b = {"title": "b", "logy": True, "series": [{"x": [1, 2], "y": [1.0, float("nan")]}]}
    results = [_fake_result("x.a", a), _fake_result("x.b", b)]
    old, new, fresh = (tmp_path / d for d in ("old", "new", "fresh"))
    for d in (old, new, fresh):
        d.mkdir()
    paths = RR.render_all_plots(results, old)
    assert paths == {"x.a": ["report/figures/x.a-0.png"], "x.b": ["report/figures/x.b-0.png"]}
    keys = json.loads((old / RR.FIGURE_KEYS).read_text())
    assert keys == {"x.a-0.png": RR.figure_key(a), "x.b-0.png": RR.figure_key(b)}
    # a spec read back from results.json (NaN as a string) has the key of the live one
    assert RR.figure_key(json.loads(json.dumps(RR.to_jsonable(b)))) == keys["x.b-0.png"]

    drawn = []
    real = RR.render_figure
    monkeypatch.setattr(RR, "render_figure", lambda cid, i, spec, figdir: drawn.append(cid) or real(cid, i, spec, figdir))
    changed = dict(b, title="b, changed")
    assert RR.render_all_plots([_fake_result("x.a", a), _fake_result("x.b", changed)], new, reuse_dir=old) == paths
    assert drawn == ["x.b"]  # x.a copied, x.b drawn again
    assert (new / "x.a-0.png").read_bytes() == (old / "x.a-0.png").read_bytes()
    assert json.loads((new / RR.FIGURE_KEYS).read_text())["x.b-0.png"] == RR.figure_key(changed) != keys["x.b-0.png"]
    real("x.a", 0, a, fresh)
    assert (fresh / "x.a-0.png").read_bytes() == (new / "x.a-0.png").read_bytes()

    # no usable key file (missing, unreadable): everything is drawn
    drawn.clear()
    (old / RR.FIGURE_KEYS).write_text("{not json")
    (tmp_path / "again").mkdir()
    RR.render_all_plots(results, tmp_path / "again", reuse_dir=old)
    assert drawn == ["x.a", "x.b"]
    assert RR._reusable_figures(tmp_path / "missing") == {}
