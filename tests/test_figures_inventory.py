"""docs/figures.md, the inventory of the documents' figures and tables, stays in step with the ``figure`` fields.

The format is stated at the top of docs/figures.md: one section per document headed
``## <document> (claims `<prefix>`)``, one table row per figure or table
``| name | what | paper's sizes | claims | status | paper's numbers | notes |``.
"""

import re
from collections import Counter
from pathlib import Path

import pytest

from verify.registry import all_claims

DOC = Path(__file__).resolve().parents[1] / "docs" / "figures.md"
NAME = re.compile(r"(Figure|Table) ([A-Z]\.)?[0-9]+(\.[0-9]+)?")
STATUSES = ("paper size (", "reduced (", "partial: ", "not regenerated", "non-numeric: ")


def _base(name: str) -> str:
    """'Figure 5.1 (right)' -> 'Figure 5.1'."""
    return re.sub(r" \([^()]*\)$", "", name)


def _rows():
    """(prefix, figure name, claim ids, status) for every table row of the inventory."""
    rows, prefix = [], None
    for line in DOC.read_text().splitlines():
        head = re.match(r"^## .*\(claims `([^`]+)`\)\s*$", line)
        if head:
            prefix = head.group(1)
            continue
        if line.startswith("## "):
            prefix = None
            continue
        if not line.startswith("| ") or prefix is None:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not NAME.fullmatch(cells[0]):
            continue  # header or separator row
        assert len(cells) == 7, f"row of {cells[0]} must have 7 cells, has {len(cells)}: {line}"
        ids = re.findall(r"`([^`]+)`", cells[3])
        assert ids or cells[3] == "-", f"{cells[0]}: claims cell must list backticked ids or '-': {cells[3]!r}"
        rows.append((prefix, cells[0], ids, cells[4]))
    return rows


def test_every_row_is_well_formed_and_each_figure_listed_once():
    rows = _rows()
    assert len(rows) >= 53
    keys = Counter((p, name) for p, name, _, _ in rows)
    assert [k for k, n in keys.items() if n > 1] == []
    for _, name, ids, status in rows:
        assert status.startswith(STATUSES), f"{name}: status must start with one of {STATUSES}: {status!r}"
        regenerated = status.startswith(("paper size (", "reduced (", "partial: "))
        assert bool(ids) == regenerated, f"{name}: a regenerated row names its claims and only such a row does"


def test_every_named_claim_exists_and_names_that_figure():
    claims = {c.id: c for c in all_claims()}
    for prefix, name, ids, _ in _rows():
        for cid in ids:
            assert cid in claims, f"{name}: claim {cid} does not exist"
            assert cid.startswith(prefix), f"{name}: claim {cid} is not of this section's document ({prefix})"
            bases = {_base(f) for f in claims[cid].figure}
            assert name in bases, f"{name}: claim {cid} does not name it in its figure field ({claims[cid].figure})"


def test_every_claim_with_a_figure_field_is_in_the_inventory():
    listed = {(cid, name) for _, name, ids, _ in _rows() for cid in ids}
    missing = [(c.id, _base(f)) for c in all_claims() for f in c.figure if (c.id, _base(f)) not in listed]
    assert missing == [], f"claims naming figures that docs/figures.md does not list them under: {missing}"


def test_the_totals_are_the_counts_of_the_rows():
    rows = _rows()
    statuses = [s for _, _, _, s in rows]
    numeric = [s for s in statuses if not s.startswith("non-numeric: ")]
    counts = {
        "Figures and tables in the five documents": len(rows),
        "Numeric": len(numeric),
        "Regenerated (any size, all or part)": sum(s.startswith(("paper size (", "reduced (", "partial: ")) for s in numeric),
        "At the paper's own sizes (all or some panels; tier in the status)": sum("paper size (" in s for s in numeric),
        "Partial (some panels missing)": sum(s.startswith("partial: ") for s in numeric),
        "Not regenerated": sum(s.startswith("not regenerated") for s in numeric),
        "Non-numeric (not counted)": len(rows) - len(numeric),
    }
    text = DOC.read_text()
    for label, n in counts.items():
        m = re.search(rf"^- {re.escape(label)}: (\d+)$", text, re.M)
        assert m, f"docs/figures.md lacks the total line '- {label}: N'"
        assert int(m.group(1)) == n, f"total '{label}' says {m.group(1)}, the rows give {n}"


@pytest.mark.parametrize("name", ["Figure 5.1 (right)", "Figure D.2 (b-d)", "Table D.1"])
def test_base_name_strips_the_panel(name):
    assert NAME.fullmatch(_base(name))
