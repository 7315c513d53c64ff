"""The ``figure`` field of a claim: which figures or tables of its document it regenerates (issue: figures)."""

import json
import subprocess
import sys

import pytest

from verify.registry import all_claims, figure_json, figure_names


def test_figure_names_accepts_one_name_several_and_panels():
    assert figure_names("x", "Figure B.10") == ("Figure B.10",)
    assert figure_names("x", ["Figure 6.1", "Table C.2", "Figure 5.1 (left)"]) == ("Figure 6.1", "Table C.2", "Figure 5.1 (left)")
    assert figure_names("x", ()) == ()
    assert figure_json(()) is None
    assert figure_json(("Figure 1",)) == "Figure 1"
    assert figure_json(("Figure 1", "Figure 2")) == ["Figure 1", "Figure 2"]


@pytest.mark.parametrize("bad", ["Fig. 4.2", "figure 4.2", "Figure", "Table C.2 left", "Figure 4.2 ()", 42])
def test_figure_names_rejects_what_is_not_a_figure_name(bad):
    with pytest.raises(ValueError, match=r"x: argument 'figure' must name figures"):
        figure_names("x", [bad])


def test_figure_names_rejects_a_figure_named_twice():
    with pytest.raises(ValueError, match="names a figure twice"):
        figure_names("x", ["Figure 4.2", "Figure 4.2"])


def test_every_figure_claim_is_a_rerun_and_the_list_json_carries_the_field():
    claims = all_claims()
    with_figure = [c for c in claims if c.figure]
    assert with_figure, "no claim declares the figure it regenerates"
    for c in with_figure:
        assert c.to_json()["figure"] == figure_json(c.figure)
    out = subprocess.run([sys.executable, "-m", "verify", "list", "--json", "--figures"], capture_output=True, text=True,
                         check=True).stdout
    rows = json.loads(out)
    assert {r["id"] for r in rows} == {c.id for c in with_figure}
    assert all(r["figure"] for r in rows)
