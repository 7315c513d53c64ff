"""python -m verify.compare: two results.json files claim by claim, timings aside."""

import copy
import json

from verify.compare import differences, main


def _doc():
    return {"results": [
        {"id": "a.x", "status": "confirmed", "seconds": 1.0,
         "printed": {"witness": {"lhs": 0.5}, "details": {"seconds (shared)": 3.0, "n": 4}},
         "mutants": [{"description": "bound 1 -> 2", "verdict": {"holds": False}}]},
        {"id": "a.y", "status": "erratum", "seconds": 2.0, "printed": {"witness": {"lhs": 1.5}}},
    ]}


def test_equal_reports_and_timings_agree(tmp_path, capsys):
    old, new = _doc(), _doc()
    new["results"][0]["seconds"] = 9.0
    new["results"][0]["printed"]["details"]["seconds (shared)"] = 7.0
    old["results"][1]["sharpness"] = float("inf")  # an older file's Infinity, the strict writer's "inf"
    new["results"][1]["sharpness"] = "inf"
    assert differences(old, new) == []
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(old))
    b.write_text(json.dumps(new))
    assert main([str(a), str(b)]) == 0
    assert "0 differ" in capsys.readouterr().err


def test_a_changed_number_a_missing_claim_and_descriptions(tmp_path, capsys):
    old = _doc()
    new = copy.deepcopy(old)
    new["results"][0]["printed"]["witness"]["lhs"] = 0.5000000001
    new["results"][0]["mutants"][0]["description"] = "bound 1 -> 3"
    del new["results"][1]
    diffs = differences(old, new)
    assert ("a.x", "printed/witness/lhs", 0.5, 0.5000000001) in diffs
    assert ("a.x", "mutants/0/description", "bound 1 -> 2", "bound 1 -> 3") in diffs
    assert ("a.y", "(claim)", True, None) in diffs
    assert ("a.x", "mutants/0/description", "bound 1 -> 2", "bound 1 -> 3") not in differences(
        old, new, ignore_descriptions=True)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(old))
    b.write_text(json.dumps(new))
    assert main([str(a), str(b)]) == 1
    assert "printed/witness/lhs" in capsys.readouterr().out


def test_bad_input_exits_2_naming_the_argument(tmp_path, capsys):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_doc()))
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    assert main([str(bad), str(good)]) == 2
    assert "argument 'old'" in capsys.readouterr().err
    assert main([str(good), str(tmp_path / "missing.json")]) == 2
    assert "argument 'new'" in capsys.readouterr().err
