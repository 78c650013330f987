"""`arena scenario FILE --json`, the command around arena's rules scenarios (which
tests/unit/arena/test_scenarios.py runs in process)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.support.paths import ARENA_CMD, ROOT
from tests.support.scenarios import check_expected


def test_scenario_command_json_contract() -> None:
    """`arena scenario FILE --json` prints exactly one JSON object of the cli.md shape."""
    path = Path(__file__).parent / "scenarios" / "push_chain_into_pit.json"
    done = subprocess.run(ARENA_CMD + ["scenario", str(path), "--json"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    state = json.loads(done.stdout)
    assert set(state) == {"turn", "end", "robots", "objects"}
    assert set(state["robots"][0]) == {"id", "row", "col", "facing", "life", "charges",
                                       "flags", "state"}
    check_expected(state, json.loads(path.read_text())["expect"], "robots",
                   ("turn", "end", "objects"))
