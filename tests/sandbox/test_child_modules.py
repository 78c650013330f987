"""Each child-side module (sandbox/botlib/_*.py) is one module under one name, in the host
as in the child: the host reaches it through `child_module`, never as
`sandbox.botlib._name` (which would load the same file a second time, with its own state,
beside the `_name` the in-process players import)."""
from __future__ import annotations

import re
import sys

from sandbox.botlib import child_module
from sandbox.inprocess import child_runtime
from tests.support.paths import ROOT

DOTTED = re.compile(r"^\s*(from|import)\s+sandbox\.botlib\._", re.MULTILINE)


def test_host_and_in_process_players_share_one_module() -> None:
    harden = child_module("_harden")
    assert sys.modules["_harden"] is harden
    child_runtime()                          # what --sandbox off does: the child's own path
    import _harden  # noqa: PLC0415
    import _keeper  # noqa: PLC0415,F401  (imports _harden and _seccomp by their names)
    assert _harden is harden
    assert "sandbox.botlib._harden" not in sys.modules


def test_no_source_imports_a_child_module_by_its_dotted_name() -> None:
    found = [f"{path.relative_to(ROOT)}" for folder in ("orchestrator", "sandbox", "engine",
                                                         "tests", "bench")
             for path in (ROOT / folder).rglob("*.py") if DOTTED.search(path.read_text())]
    assert not found, f"import the child side through sandbox.botlib.child_module: {found}"
