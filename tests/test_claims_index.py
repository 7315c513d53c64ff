"""The committed claim index (verify/claims_index.json) matches the registry, and list/show use it."""

from __future__ import annotations

import json
import subprocess
import sys

from verify.claims_index import INDEX_PATH, REGENERATE, build_index, fingerprint
from verify.report import ROOT


def test_claim_index_is_fresh():
    stored = json.loads(INDEX_PATH.read_text(encoding="utf-8"))
    live = build_index()
    hint = f"verify/claims_index.json is stale; regenerate it with `{REGENERATE}` and commit it"
    assert stored["claims"] == json.loads(json.dumps(live["claims"])), hint + " (claim metadata changed)"
    assert stored["fingerprint"] == fingerprint(), hint + " (a module that defines claims changed)"


def _probe(args: list[str]) -> tuple[dict, str]:
    """Run the CLI in a fresh interpreter; report which heavy modules it imported."""
    code = (
        "import sys, json, io, contextlib\n"
        "from verify.__main__ import main\n"
        "buf = io.StringIO()\n"
        "with contextlib.redirect_stdout(buf):\n"
        f"    rc = main({args!r})\n"
        "heavy = sorted(m for m in sys.modules if m.startswith(('verify.hidden_progress', 'verify.rcnn', 'scipy', "
        "'numba', 'kernels')))\n"
        "print(json.dumps({'rc': rc, 'heavy': heavy}))\n"
        "sys.stderr.write(buf.getvalue())\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    return json.loads(proc.stdout.strip().splitlines()[-1]), proc.stderr


def test_list_and_show_do_not_import_the_checkers():
    outputs = {}
    for args in (["list", "--json"], ["show", "thesis_ch5.lemma_B.2"], ["list", "--status", "erratum"]):
        info, out = _probe(args)
        assert info["rc"] == 0, out
        assert info["heavy"] == [], f"{args}: imported {info['heavy'][:5]} (is the index fresh? `{REGENERATE}`)"
        outputs[args[0], args[1]] = out
    out = outputs["show", "thesis_ch5.lemma_B.2"]  # the show run above (a fresh interpreter each)
    assert "Lemma B.2" in out and "parameters:" in out and "mutants:" in out
