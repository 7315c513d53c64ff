"""Cost estimates are checked before a claim runs (issue 19, item 5); see verify/costs.py."""

from __future__ import annotations

import math
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

import verify.__main__ as cli
from verify.__main__ import main
from verify.cost_tables import ALL_VALUES_TESTED, SAFE_BY_READING, WITHIN_TESTED
from verify.costs import (DEFAULT_FACTOR, ESTIMATES, GIB, SAFE, _as_number, _full_seconds, _pending, _tier_max, estimate,
                          uncovered, memory_budget, refusal, time_budget)
from verify.registry import TIERS, all_claims, get_claim

CLAIMS = all_claims()
BY_ID = {c.id: c for c in CLAIMS}
ROOT = Path(__file__).resolve().parent.parent

#: claims with a parameter that neither an estimate nor a justification covers yet (it gets the default
#: rule).  A ratchet: it may only go down; a new claim with parameters needs an entry in the cost tables (verify/cost_tables.py, verify/cost_tables_audit.py).
PENDING_AUDIT_MAX = 0


@pytest.fixture(autouse=True)
def _four_gib(monkeypatch):
    """Refusals below are stated for a 4 GiB budget, whatever this machine's memory."""
    monkeypatch.setenv("VERIFY_MEMORY_BUDGET_GIB", "4")


def _ends(c):
    for p in c.params:
        if p.choices is not None or p.type not in (int, float):
            continue
        for end in (p.min, p.max):
            if end is not None:
                yield p, end


@pytest.fixture
def no_run(monkeypatch):
    """Fail if the CLI gets as far as running (allocating for) a claim."""
    def boom(*a, **k):
        raise AssertionError("run_claim was called: the refusal must come before anything is allocated")
    monkeypatch.setattr(cli, "run_claim", boom)


@pytest.mark.parametrize("c", CLAIMS, ids=[c.id for c in CLAIMS])
def test_cost_estimate_at_the_ends_of_every_domain(c, capsys, no_run):
    """At both ends of every parameter's declared domain the estimate is a finite number, and the CLI
    refuses (exit 2, before run_claim) exactly the values whose estimate exceeds the budget."""
    tiers = {t: c.tier_params(t) for t in TIERS}
    for t in TIERS:
        reason = refusal(c.id, c.resolve_params(t), tiers)
        if t == "gpu":  # sized for a large machine: accepted, or refused for the (4 GiB) memory budget only
            assert reason is None or "memory budget" in reason, reason
        else:
            assert reason is None, f"the {t} tier itself must be accepted: {reason}"
    for p, end in _ends(c):
        params = dict(c.resolve_params("full"), **{p.name: end})
        cost = estimate(c.id, params)
        if cost is not None:
            assert math.isfinite(cost.memory_bytes) and cost.memory_bytes >= 0
            assert cost.seconds is None or (math.isfinite(cost.seconds) and cost.seconds >= 0)
            over = cost.memory_bytes > memory_budget() or (cost.seconds is not None and cost.seconds > time_budget())
            reason = refusal(c.id, params, tiers)
            if over:
                assert reason is not None and "budget" in reason
            else:  # only the default rule, for a parameter the estimate does not cover, may refuse
                assert reason is None or ("no cost estimate" in reason and p.name in uncovered(c)), reason
        reason = refusal(c.id, params, tiers)
        if reason is None:
            continue
        assert c.id in reason
        assert refusal(c.id, params, tiers, force=True) is None
        argv = ["run", c.id, "--tier", "full"] + [a for k, v in params.items() if v != tiers["full"][k]
                                                  for a in ("--param", f"{k}={v}")]
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert c.id in err and ("budget" in err or "no cost estimate" in err), err


def test_every_claim_with_parameters_has_an_estimate_or_a_justification():
    for cid, est in ESTIMATES.items():
        assert cid in BY_ID, f"{cid}: estimate for an unknown claim"
        names = {p.name for p in BY_ID[cid].params}
        assert est.covers() <= names, f"{cid}: the estimate names parameters the claim lacks: {est.covers() - names}"
        assert cid not in SAFE
    fs = _full_seconds()
    for cid, reason in SAFE.items():
        c = BY_ID[cid]
        tiers = {t: c.tier_params(t) for t in TIERS}
        if cid in SAFE_BY_READING:
            assert reason == SAFE_BY_READING[cid] and len(reason) > 20
        elif reason == ALL_VALUES_TESTED:
            for p in c.params:
                assert p.choices is not None or p.type is bool, f"{cid}: {p.name} is not a finite choice"
                if p.choices is not None:
                    assert set(p.choices) <= {t[p.name] for t in tiers.values()}, f"{cid}: a choice of {p.name} is untested"
        else:
            assert reason == WITHIN_TESTED, f"{cid}: unknown reason {reason!r}"
            assert fs.get(cid, (99.0,))[0] < 1.0, f"{cid}: the full tier is not under a second"
            for p in c.params:
                if p.choices is not None or p.type is bool:
                    continue
                assert p.type in (int, float), f"{cid}: {p.name} is a free-form parameter"
                top = _tier_max(tiers, p.name)
                assert p.max is not None and top and p.max <= DEFAULT_FACTOR * top, f"{cid}: {p.name} goes beyond"
    pending = _pending()
    assert len(pending) <= PENDING_AUDIT_MAX, (
        f"{len(pending)} claims with parameters have neither an estimate nor a justification in verify/cost_tables*.py "
        f"(at most {PENDING_AUDIT_MAX}); new ones: add an Estimate or a SAFE entry")


def test_loop_estimates_match_the_source():
    """A loop() estimate is only for parameters whose sole use in the check is ``range(p[name]...)``."""
    import inspect
    import re

    for cid, est in ESTIMATES.items():
        if not est.note.startswith("a loop of"):
            continue
        src = inspect.getsource(BY_ID[cid].check)
        for name in est.time:
            uses = re.findall(r'(.{0,12})p\["%s"\]' % re.escape(name), src)
            assert uses and all(u.endswith("range(") for u in uses), f"{cid}: {name} is used as {uses}"


def test_cli_refuses_an_out_of_budget_value_before_allocating(capsys, no_run):
    code = main(["run", "seed000.def_2.2", "--param", "N=100000", "--param", "n=100000"])
    assert code == 2
    err = capsys.readouterr().err
    assert "GiB" in err and "memory budget" in err


@pytest.mark.parametrize("cid, args", [
    ("thesis_ch5.lemma_B.1", ["n_exhaustive_max=31"]),  # 2^31 majority table
    ("thesis_ch6.assumption_6.2", ["n=30"]),  # 2^30 popcounts
    ("thesis_ch4.lemma_A.20", ["random_b=100000", "T_max=100000"]),  # (random_b, T) int64
    ("thesis_ch8.icl_mc_data_model", ["n=10000000", "t=1000"]),
    ("thesis_ch8.strategy_losses", ["t=400"]),  # k2_exact_losses: t^4 bytes, 80 GiB (part C)
])
def test_cli_refuses_exponential_and_quadratic_blowups(cid, args, capsys, no_run):
    assert main(["run", cid] + [a for x in args for a in ("--param", x)]) == 2
    assert "memory budget" in capsys.readouterr().err


def test_cli_refuses_a_run_of_days(capsys, no_run):
    # all datasets of 6 examples out of 2^6 points: 64^6 of them, some 10^6 times the full tier
    assert main(["run", "seed003.algorithm_1", "--param", "d_max=5", "--param", "m_max=6"]) == 2
    err = capsys.readouterr().err
    assert "time budget" in err and "days" in err


def test_cli_refuses_values_far_beyond_the_tested_range_without_an_estimate(capsys, no_run, monkeypatch):
    """Every registered parameter is covered now (PENDING_AUDIT_MAX = 0); the default rule still guards a claim
    whose estimate is missing (a new claim): withdraw one and its far-out value is refused through the CLI."""
    import verify.costs as costs

    cid = "seed002.lemmas_36_38"  # trials: declared up to 100000, the tiers run at most 2000
    monkeypatch.delitem(costs.ESTIMATES, cid)
    assert uncovered(BY_ID[cid]) == ["trials"]
    assert main(["run", cid, "--param", "trials=100000"]) == 2
    assert "no cost estimate" in capsys.readouterr().err


def test_list_parameters_are_bounded_by_the_default_rule(capsys, no_run):
    assert _as_number("10,50,200") == 200 and _as_number("2x3x1,3x2x2") == 12 and _as_number("full") is None
    # a claim without an estimate (none is registered under this id): the default rule on the largest item
    reason = refusal("no_source.list_claim", {"t_list": "10,1000000"}, {"full": {"t_list": "10,25,50,100"}})
    assert reason is not None and "largest item" in reason
    # thesis_ch8.remark_8_1 now has an estimate: k2_exact_losses(t) needs ~t^4 bytes
    assert main(["run", "thesis_ch8.remark_8_1", "--param", "t_list=10,1000000"]) == 2
    assert "memory budget" in capsys.readouterr().err


def test_budget_is_configurable(monkeypatch):
    monkeypatch.delenv("VERIFY_MEMORY_BUDGET_GIB")
    assert memory_budget() >= 4 * GIB  # half the physical memory, at least 4 GiB
    monkeypatch.setenv("VERIFY_MEMORY_BUDGET_GIB", "4")
    c = get_claim("seed000.def_2.2")
    tiers = {t: c.tier_params(t) for t in TIERS}
    params = dict(c.resolve_params("full"), N=30000, n=30000)  # about 6.8 GiB (the N x n Rademacher matrices), 16 h
    assert refusal(c.id, params, tiers) is not None
    monkeypatch.setenv("VERIFY_MEMORY_BUDGET_GIB", "100")
    assert refusal(c.id, params, tiers) is None


#: (claim, tier, parameters, mutants too): cases of test_memory_model_against_tracemalloc, each a few seconds
TRACEMALLOC_CASES = [
    ("seed000.def_2.2", "quick", {"N": 64, "n": 96, "rad_samples": 1, "R": 500}, False),
    # part A of the issue-19 audit: 18.9 MiB measured against 23.4 (packed GF(2) rows); 27 MiB (interpolated from
    # 13.6 at H = 256 and 107 at H = 2048) against 43 (ReLU heads and their scores)
    ("seed003.definition_3", "full", {"instances": 1000, "d_list": "128"}, False),
    ("seed001.appendix_h_score", "full", {"H": 512}, False),
    # part B: 70.3 MiB against 110.4
    ("thesis_ch4.lemma_A.25", "quick", {"instances": 1, "n_max": 40, "df_max": 4, "z_draws": 150}, False),
    # part C: 39.5 against 52.5 MiB ((2^n, 20, n + 1) per-point gradients); 96.7 against 158.9 MiB
    # (k2_exact_losses: t^4 bytes of quadrature weights)
    ("thesis_ch6.lemma_C.5", "quick", {"n": 13, "resamples": 20}, False),
    ("thesis_ch8.remark_8_1", "quick", {"t_list": "10,60"}, False),
]


@pytest.mark.parametrize("cid, tier, over, mutants", TRACEMALLOC_CASES, ids=[c[0] for c in TRACEMALLOC_CASES])
def test_memory_model_against_tracemalloc(cid, tier, over, mutants):
    """Memory models against measured peaks at small values, within a factor 2 either way.  Also measured the
    same way, too slowly for this test: thesis_ch5.lemma_B.1 48.2 vs 48.0 MiB at n = 21,
    thesis_ch8.icl_mc_data_model 111 vs 122 MiB at n = 10^5, t = 30, seed000.lemma_C.1 112 vs 293 MiB at the
    full tier with mutants, seed000.theorem_D.6 29 vs 74 MiB at perturbations = 20000, thesis_ch4.thm_4.6 42.3
    vs 70.9 MiB at K = 300, m = 10, T = 8, thesis_ch5.prop_B.7.sample_complexity 330 vs 469 MiB at trials =
    20000, thesis_ch6.proposition_6.3 211 vs 186 MiB at n_max = 12, steps = 100, thesis_ch8.proposition_8_5
    562 vs 1016 MiB at chains = 400, t = 150, thesis_ch6.theorem_C.11.one_step 400 vs 625 MiB at inits = 3000."""
    import tracemalloc

    from verify.registry import run_claim

    c = get_claim(cid)
    tracemalloc.start()
    try:
        run_claim(c, tier=tier, params=over, backend="cpu", mutants=mutants)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    model = estimate(c.id, c.resolve_params(tier, over)).memory_bytes
    assert model / 2 <= peak <= 2 * model, (peak, model)


# --- accepted extreme values under a memory limit (slow) ---------------------------------------------

#: (claim, params): extreme values the estimates accept at a 1 GiB budget; each must end with a verdict or
#: exit 2, never a traceback, under ulimit -v
EXTREMES = [
    ("seed000.def_2.2", ["N=300", "n=300", "rad_samples=1", "R=100"]),
    ("thesis_ch5.lemma_B.1", ["n_exhaustive_max=23", "n_symmetric_max=3", "n_top=3"]),
    ("thesis_ch6.assumption_6.2", ["n=22", "resamples=20"]),
    ("seed000.def_2.2", ["N=100000", "n=100000"]),  # refused: exit 2 before allocating
]


def _limit_memory(nbytes: int):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (nbytes, nbytes))
    return apply


@pytest.mark.slow
@pytest.mark.parametrize("cid, args", EXTREMES, ids=[f"{c}:{','.join(a)}" for c, a in EXTREMES])
def test_accepted_extremes_under_a_memory_limit(cid, args):
    env = dict(os.environ, VERIFY_MEMORY_BUDGET_GIB="1", PYTHONPATH=str(ROOT), NUMBA_NUM_THREADS="1")
    cmd = [sys.executable, "-m", "verify", "run", cid, "--no-mutants", "--backend", "cpu"]
    cmd += [a for x in args for a in ("--param", x)]
    # 1 GiB of budget plus the interpreter, numpy, scipy, sympy and numba (about 1.5 GiB of address space)
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
                          preexec_fn=_limit_memory(4 * GIB))
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert proc.returncode in (0, 1, 2), (proc.returncode, proc.stderr[-3000:])
    if proc.returncode == 2:
        assert proc.stderr.startswith("error: ") or "\nerror: " in proc.stderr, proc.stderr[-3000:]


def test_claims_that_share_a_cache_are_calibrated_with_the_producers_seconds():
    """A claim whose recorded time is a cache hit on another claim's work gets the producer's seconds added."""
    from verify.costs import SHARED_CACHE

    fs = _full_seconds()
    for consumer, producer in SHARED_CACHE.items():
        assert consumer in BY_ID and producer in BY_ID, (consumer, producer)
        assert consumer in ESTIMATES, f"{consumer}: a shared-cache claim needs an estimate"
        if consumer in fs and producer in fs:
            cost = estimate(consumer, BY_ID[consumer].resolve_params("full"))
            assert cost.seconds >= fs[producer][0], (consumer, cost.seconds, fs[producer][0])


def test_a_claim_never_timed_is_ordered_first(monkeypatch):
    """expected_seconds: without a time model and a recorded full-tier run, a claim counts as infinitely long,
    so the longest-first orders (verify.report -j, the cluster, verify/test_claims.py) start it first."""
    import verify.costs as costs

    cid = "seed003.theorem_1"  # no estimate (SAFE): ordered by its recorded seconds alone
    params = BY_ID[cid].resolve_params("full")
    recorded = costs.expected_seconds(cid, params)
    assert 0 <= recorded < math.inf
    monkeypatch.setattr(costs, "_full_seconds", lambda: {})
    assert costs.expected_seconds(cid, params) == math.inf
