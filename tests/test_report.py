"""REPORT.md is current (names every registered claim with its expected status) and the generator works."""

from __future__ import annotations

from pathlib import Path

from verify.registry import all_claims
from verify.report import INDEX_HEADER as INDEX_HEADER_LINE
from verify.report import ROOT, check_report, main, parse_index


def test_committed_report_lists_every_claim_with_its_expected_status():
    problems = check_report(ROOT / "REPORT.md")
    assert not problems, "REPORT.md is stale; run `python -m verify.report`:\n" + "\n".join(problems)


def test_report_generation_writes_everything_atomically(tmp_path: Path):
    out = tmp_path / "REPORT.md"
    code = main(["--tier", "quick", "--only", "thesis_ch5.sq_counting", "thesis_ch5.lemma_B.1.asymptotic", "--output", str(out)])
    assert code == 0
    text = out.read_text()
    listed = parse_index(text)
    assert listed == {"thesis_ch5.sq_counting": "confirmed", "thesis_ch5.lemma_B.1.asymptotic": "erratum"}
    assert (tmp_path / "report" / "results.json").exists()
    assert list((tmp_path / "report" / "figures").glob("*.png"))
    assert "## Errata and refutations" in text and "## Performance" in text


def test_check_flags_a_stale_report(tmp_path: Path):
    stale = tmp_path / "REPORT.md"
    stale.write_text("# empty\n")
    assert len(check_report(stale)) == len(all_claims())
    assert main(["--check", "--output", str(stale)]) == 1


def test_index_parser_keeps_labels_with_escaped_pipes():
    text = INDEX_HEADER_LINE + "\n|---|---|---|---|---|---|---|---|\n" + (
        "| [`a.b`](#ab) | Corollary 3 (\\|U_s\\| = 5) | erratum | erratum | exact | 3 | 1/1 | 0.1 |\n"
    )
    assert parse_index(text) == {"a.b": "erratum"}


def test_heatmap_specs_are_drawn_and_bad_ones_rejected(tmp_path: Path):
    import types

    import pytest

    from verify.report import render_plots

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


def test_claim_packages_declare_their_catalog_index():
    import importlib

    from verify.catalogs import CATALOG_FILES, ENTRIES, HANDLED

    assert set(CATALOG_FILES) == set(ENTRIES) == set(HANDLED)
    for source in ENTRIES:
        assert set(HANDLED[source]) <= set(ENTRIES[source]), source
    rcnn = importlib.import_module("verify.rcnn")
    assert rcnn.SOURCE in ENTRIES


def _section(text: str, claim_id: str) -> str:
    start = text.index(f"### {claim_id}\n")
    end = text.find("\n### ", start + 1)
    return text[start: end if end >= 0 else len(text)]


def test_update_reruns_some_claims_and_reuses_the_rest(tmp_path: Path, monkeypatch, capsys):
    from verify import report
    from verify.registry import get_claim

    ids = ["thesis_ch5.sq_counting", "thesis_ch5.lemma_B.1.asymptotic"]
    monkeypatch.setattr(report, "all_claims", lambda: [get_claim(i) for i in ids])
    out = tmp_path / "REPORT.md"
    assert main(["--tier", "quick", "--output", str(out)]) == 0
    first = out.read_text()
    assert main(["--tier", "quick", "--update", ids[0], "--output", str(out)]) == 0
    second = out.read_text()
    assert parse_index(second) == parse_index(first)
    assert "Updated with `--update`: 1 claim re-run (`thesis_ch5.sq_counting`)" in second
    # the reused claim renders exactly as before, figures included
    assert _section(second, ids[1]) == _section(first, ids[1])
    assert list((tmp_path / "report" / "figures").glob("thesis_ch5.lemma_B.1.asymptotic-*.png"))

    # another tier, a claim without a stored result, and --only together with --update: exit 2, nothing written
    assert main(["--tier", "full", "--update", ids[0], "--output", str(out)]) == 2
    assert "stored results are at tier 'quick', not 'full'" in capsys.readouterr().err
    monkeypatch.setattr(report, "all_claims", lambda: [get_claim(i) for i in ids + ["thesis_ch5.warmup_gradient"]])
    assert main(["--tier", "quick", "--update", ids[0], "--output", str(out)]) == 2
    assert "thesis_ch5.warmup_gradient: not stored" in capsys.readouterr().err
    assert main(["--tier", "quick", "--update", ids[0], "--only", ids[1], "--output", str(out)]) == 2
    assert "'--update' and '--only' exclude each other" in capsys.readouterr().err
    assert out.read_text() == second
