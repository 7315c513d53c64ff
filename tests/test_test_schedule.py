"""The test scheduling lists of conftest.py name tests that exist (a renamed test would silently drop out of them)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import LONG_FIRST, SHARED_FIXTURE_UNITS

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("nodeid", sorted(set(LONG_FIRST) | set(SHARED_FIXTURE_UNITS)))
def test_scheduled_test_exists(nodeid: str):
    path, _, name = nodeid.partition("::")
    source = (ROOT / path).read_text(encoding="utf-8")
    assert re.search(rf"^def {re.escape(name)}\(", source, flags=re.M), nodeid
