"""The cost model (bench/cost_model.py) keeps every row and column the doc's table
shows (docs/cost-model.md), each a positive, finite figure where its mode has that part:
a column dropped, renamed or left unmeasured fails here, not silently in the doc."""
from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys

from tests.support.paths import ROOT

MODES = ["rgkit", "off", "standard", "match"]
COLUMNS = ["start_host_ms", "start_children_ms", "turn_host_p50_us", "turn_host_p99_us",
           "turn_child_p50_us", "turn_child_p99_us", "turn_all_p50_us", "turn_all_p99_us",
           "guarded_call_us", "bots_ms", "other_ms", "total_ms"]
TURNS = ["turn_host_p50_us", "turn_host_p99_us", "turn_all_p50_us", "turn_all_p99_us"]
# What each mode has: rgkit's loop and off start no child and (rgkit) guard no call; a
# match jail is seen only whole from the host.
MEASURED = {
    "rgkit": {"start_host_ms", *TURNS, "bots_ms", "other_ms", "total_ms"},
    "off": {"start_host_ms", *TURNS, "guarded_call_us", "bots_ms", "other_ms", "total_ms"},
    "standard": set(COLUMNS),
    "match": {"bots_ms", "total_ms"},
}


def cost_model(*args: str) -> dict:
    done = subprocess.run([sys.executable, "bench/cost_model.py", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_mode_and_column_is_measured() -> None:
    figures = cost_model("--games", "1", "--turns", "3", "--calls", "5000", "--json")
    assert list(figures["rows"]) == MODES
    assert list(figures["columns"]) == COLUMNS
    for mode, row in figures["rows"].items():
        assert list(row) == COLUMNS, mode
        for column, value in row.items():
            if column in MEASURED[mode]:
                assert isinstance(value, float) and math.isfinite(value) and value > 0, \
                    (mode, column, value)
            else:
                assert value is None, (mode, column, value)
    # The two derived lines: the floor where rgkit or off has the part, the overhead
    # where standard has it (off's missing child counted 0).
    for column in COLUMNS:
        low = figures["floor"][column]
        assert (low is not None) == (column in MEASURED["rgkit"] | MEASURED["off"]), column
        assert low is None or (math.isfinite(low) and low > 0)
        extra = figures["overhead"][column]
        assert extra is not None and math.isfinite(extra), column
    # A turn's child side is the standard mode's only, and what it adds shows whole
    assert figures["overhead"]["turn_child_p50_us"] == \
        figures["rows"]["standard"]["turn_child_p50_us"]
    assert figures["turns"] == 3 and figures["games"] == 1


def test_the_doc_shows_every_column() -> None:
    """docs/cost-model.md's table heads every column the bench measures, and every mode."""
    doc = (ROOT / "docs" / "cost-model.md").read_text()
    head = next(line for line in doc.splitlines() if line.startswith("| mode |"))
    cells = [cell.strip() for cell in head.strip().strip("|").split("|")]
    spec = importlib.util.spec_from_file_location("cost_model", ROOT / "bench" / "cost_model.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert list(bench.COLUMNS) == COLUMNS
    assert cells[1:] == [f"{header} ({unit})" for header, unit, _ in bench.COLUMNS.values()]
    for mode in [*MODES, "floor", "overhead"]:
        assert any(line.startswith(f"| {mode} |") for line in doc.splitlines()), mode
