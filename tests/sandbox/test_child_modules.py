"""Each child-side module (sandbox/botlib/_*.py) is one module under one name, in the host
as in the child: the host reaches it through `child_module`, never as
`sandbox.botlib._name` (which would load the same file a second time, with its own state,
beside the `_name` the in-process players import)."""
from __future__ import annotations

import re
import subprocess
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


# Run in a fresh interpreter: this process may have imported sandbox.botlib already.
QUIET_IMPORT = """
import sys
before = list(sys.meta_path)
import sandbox.botlib
assert sys.meta_path == before, sys.meta_path
program = sandbox.botlib.child_module("_program")   # imports _sched, _wire... by bare name
assert sys.meta_path == before, sys.meta_path
assert sys.modules["_sched"] is program._sched and sys.modules["_wire"] is program._wire
assert "sandbox.botlib._sched" not in sys.modules
"""


def test_importing_the_child_side_changes_nothing_in_the_process() -> None:
    """A notebook or a tool that imports sandbox.botlib keeps its own import machinery:
    the finder of the child's modules is there only while `child_module` loads one, and
    their bare-name imports of one another still come through it."""
    done = subprocess.run([sys.executable, "-c", QUIET_IMPORT], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
