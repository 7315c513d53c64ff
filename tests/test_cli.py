"""The CLI contract (README.md, "Command line"): JSON shapes and exit codes 0 / 1 / 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from verify.__main__ import main
from verify.registry import all_claims


def _run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def _strict_json(text: str):
    """json.loads that refuses NaN / Infinity (not JSON: other parsers reject them)."""
    def refuse(token):
        raise ValueError(f"not strict JSON: {token}")
    return json.loads(text, parse_constant=refuse)


def test_list_json_has_the_contract_fields(capsys):
    code, out, _ = _run(["list", "--json"], capsys)
    assert code == 0
    data = _strict_json(out)
    assert isinstance(data, list) and [d["id"] for d in data] == [c.id for c in all_claims()]
    # a sharpness is a number, null, or the text "inf" (a bound violated where its right side is 0)
    assert all(d["sharpness"] is None or isinstance(d["sharpness"], (int, float)) or d["sharpness"] == "inf"
               for d in data)
    for d in data:
        for key in ("id", "source", "label", "title", "status", "rigor", "mutants", "has_corrected",
                    "severity", "parts", "sharpness"):
            assert key in d, key
        assert d["mutants"] >= 1
        if d["parts"] is not None:
            assert all({"name", "asserted", "reason"} <= set(q) for q in d["parts"])


def test_list_filters_by_status(capsys):
    code, out, _ = _run(["list", "--json", "--status", "proof-gap"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data and all(d["status"] == "proof-gap" and d["severity"] is not None for d in data)


def test_run_json_contract_and_exit_zero(capsys):
    code, out, _ = _run(["run", "thesis_ch5.sq_counting", "--json", "--param", "n_max=8"], capsys)
    assert code == 0
    d = _strict_json(out)
    for key in ("id", "status", "holds_as_printed", "witness", "slack", "cases", "seconds", "backend", "params",
                "mutants_rejected", "mutants_total", "severity", "parts", "sharpness", "sharpness_case"):
        assert key in d, key
    # the 1/tau^2 count is asserted and attained (sharpness 1); the asymptotic Omega(n^k) part is not asserted
    assert d["status"] == "partly-confirmed" and d["holds_as_printed"] is True and d["params"] == {"n_max": 8}
    assert d["severity"] is None and any(not q["asserted"] and q["reason"] for q in d["parts"])
    assert d["sharpness"] == 1.0 and d["sharpness_case"] is not None
    assert d["mutants_rejected"] == d["mutants_total"] >= 1


def test_run_erratum_reports_witness(capsys):
    code, out, _ = _run(["run", "thesis_ch5.warmup_gradient", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["status"] == "erratum" and d["holds_as_printed"] is False
    assert d["witness"]["case"]["n"] == 7 and d["severity"] == "substantive"


def test_run_exits_one_when_verdict_differs(capsys, monkeypatch):
    import dataclasses

    import verify.__main__ as cli
    from verify.registry import Status, get_claim

    real = get_claim("thesis_ch5.sq_counting")
    wrong = dataclasses.replace(real, expect=Status.ERRATUM)  # the checker computes "confirmed"
    monkeypatch.setattr(cli, "get_claim", lambda cid: wrong)
    code, out, _ = _run(["run", "thesis_ch5.sq_counting", "--param", "n_max=6", "--json"], capsys)
    d = json.loads(out)
    assert code == 1 and d["status"] == "partly-confirmed" and d["expected"] == "erratum"


def test_run_exits_one_when_a_mutant_survives(capsys, monkeypatch):
    import dataclasses

    import verify.__main__ as cli
    from verify.registry import Mutant, get_claim

    real = get_claim("thesis_ch5.sq_counting")
    # a "mutant" identical to the printed statement cannot be rejected
    weak = dataclasses.replace(real, mutants=(Mutant("same", "the printed statement itself", real.printed),))
    monkeypatch.setattr(cli, "get_claim", lambda cid: weak)
    code, out, _ = _run(["run", "thesis_ch5.sq_counting", "--param", "n_max=6", "--json"], capsys)
    d = json.loads(out)
    assert code == 1 and d["mutants_rejected"] == 0 and d["mutants_total"] == 1


@pytest.mark.parametrize(
    "args,needle",
    [
        pytest.param(["run", "no.such.claim"], "unknown claim id", id="unknown-claim"),
        pytest.param(["run", "thesis_ch5.sq_counting", "--param", "n_max=1"], "'n_max' must be an integer in [2, 24]", id="below-range"),
        pytest.param(["run", "thesis_ch5.sq_counting", "--param", "n_max=abc"], "'n_max'", id="not-an-int"),
        pytest.param(["run", "thesis_ch5.sq_counting", "--param", "bogus=3"], "unknown parameter 'bogus'", id="unknown-param"),
        pytest.param(["run", "thesis_ch5.sq_counting", "--param", "n_max"], "name=value", id="malformed-param"),
        pytest.param(["show", "nothing"], "unknown claim id", id="show-unknown"),
    ],
)
def test_bad_input_exits_two_with_message(args, needle, capsys):
    code, out, err = _run(args, capsys)
    assert code == 2
    assert needle in err


def test_cuda_backend_without_gpu_or_simulator_exits_two():
    code = (
        "import os; os.environ.pop('NUMBA_ENABLE_CUDASIM', None);"
        "import sys; from verify.__main__ import main; sys.exit(main(['run','thesis_ch5.sq_counting','--backend','cuda']))"
    )
    env = {k: v for k, v in __import__("os").environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    from kernels.backend import gpu_available

    if gpu_available():
        pytest.skip("a GPU is present")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 2 and "needs a CUDA GPU" in proc.stderr


def test_gpu_available_answers_without_importing_numba_cuda_where_no_driver_library_opens():
    """kernels.backend.gpu_available() says False without importing numba.cuda (~0.6 s per process) where no CUDA
    driver library opens (this CI machine); where one does, numba.cuda decides and the test does not apply."""
    code = ("import sys; from kernels.backend import _driver_library_present, gpu_available; "
            "print(_driver_library_present(), gpu_available(), 'numba.cuda' in sys.modules)")
    env = {k: v for k, v in __import__("os").environ.items() if k not in ("NUMBA_ENABLE_CUDASIM", "NUMBA_CUDA_DRIVER")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout.split()
    if out[0] == "True":
        pytest.skip("a CUDA driver library opens here: numba.cuda decides")
    assert out == ["False", "False", "False"]


def test_show_prints_statement(capsys):
    code, out, _ = _run(["show", "thesis_ch5.lemma_B.2"], capsys)
    assert code == 0 and "Statement" in out and "0.03" in out


def test_missing_dependency_reruns_under_the_project_venv_or_says_what_is_missing(monkeypatch, capsys):
    import verify.__main__ as cli

    calls = []
    monkeypatch.setattr(cli.os, "execv", lambda path, args: calls.append((path, args)))
    monkeypatch.setattr(cli.sys, "prefix", "/nonexistent-interpreter-prefix")
    exc = ModuleNotFoundError("No module named 'numba'", name="numba")
    venv_python = cli.Path(cli.__file__).resolve().parent.parent / ".venv" / "bin" / "python"
    if venv_python.exists():
        cli._missing_dependency(exc, ["list", "--json"])
        assert calls == [(str(venv_python), [str(venv_python), "-m", "verify", "list", "--json"])]
    monkeypatch.setattr(cli.Path, "exists", lambda self: False)
    assert cli._missing_dependency(exc, ["list"]) == 2
    assert "'numba' is missing" in capsys.readouterr().err


def test_list_json_is_an_array_of_claims_from_any_directory(tmp_path):
    """The machine-readable listing parses as a JSON array of claims wherever the command is run."""
    import json
    import subprocess
    import sys

    from verify.registry import all_claims

    out = subprocess.run([sys.executable, "-m", "verify", "list", "--json"], cwd=tmp_path,
                         capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    assert isinstance(data, list)
    assert [d["id"] for d in data] == [c.id for c in all_claims()]
    assert all({"id", "source", "label", "status", "rigor", "mutants"} <= set(d) for d in data)


def test_inconsistent_install_exits_two_with_a_message(monkeypatch, capsys):
    from verify import __main__ as cli

    def broken(_args):
        raise ImportError("cannot import name 'chi' from 'kernels' (unknown location)")

    monkeypatch.setattr(cli, "_cmd_list", broken)
    assert cli.main(["list"]) == 2
    err = capsys.readouterr().err
    assert "installed project is inconsistent" in err and "pip install -e" in err
