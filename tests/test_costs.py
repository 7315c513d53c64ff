"""Cost estimates are checked before a claim runs (issue 19, item 5); see verify/costs.py."""

from __future__ import annotations

import pytest

from verify.__main__ import main
from verify.costs import refusal
from verify.registry import TIERS, all_claims

CLAIMS = all_claims()


@pytest.mark.parametrize("c", CLAIMS, ids=[c.id for c in CLAIMS])
def test_cost_estimate_at_the_ends_of_every_domain(c):
    tiers = {t: c.tier_params(t) for t in TIERS}
    for p in c.params:
        for end in (p.min, p.max):
            if end is None or p.choices is not None:
                continue
            params = dict(c.resolve_params("full"), **{p.name: end})
            reason = refusal(c.id, params, tiers)
            assert reason is None or c.id in reason
            assert refusal(c.id, c.resolve_params("full"), tiers) is None, "the full tier itself must be accepted"


def test_cli_refuses_an_out_of_budget_value_before_allocating(capsys):
    code = main(["run", "seed000.def_2.2", "--param", "N=100000", "--param", "n=100000"])
    assert code == 2
    err = capsys.readouterr().err
    assert "GiB" in err and "memory budget" in err


def test_cli_refuses_values_far_beyond_the_tested_range_without_an_estimate(capsys):
    assert main(["run", "thesis_ch5.lemma_B.2", "--param", "n_span=100000"]) == 2
    assert "no cost estimate" in capsys.readouterr().err
