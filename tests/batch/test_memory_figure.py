"""A bot erased for memory is said with the figure it hit, not only the
peak it was seen holding. A bot asking for 2 GiB at once is refused its allocation with
14 MB held: `memory limit, turn 1, 14 MB` read as a 14 MB bot erased under a 512 MB cap.
Every view says the cap it went past: the run's table and JSON, a tournament's table, the
results CSV and `arena check`."""
from __future__ import annotations

import csv
import io
import json
import re

from tests.support.cli import WIDE, arena
from tests.support.paths import BOTS, HOSTILE

HUGE = str(HOSTILE / "huge_allocation.py")
RANDY = str(BOTS / "randy.py")
QUICK = ["--map", "tiny", "--robots", "1", "--max-turns", "2"]
SAID = re.compile(r"erased \(memory limit: an allocation went past the 512 MB cap, turn 1, "
                  r"peak (?:up to )?\d+ MB\)")


def test_a_refused_allocation_is_said_with_the_cap_it_went_past(tmp_path) -> None:
    played = json.loads(arena("run", HUGE, RANDY, *QUICK, "--seed", "1", "--json", code=0,
                              env=WIDE).stdout)
    huge = next(p for p in played["players"] if p["name"] == "Huge")
    assert huge["reason"] == "memory limit: an allocation went past the 512 MB cap", huge
    assert SAID.fullmatch(huge["note"]), huge["note"]
    assert SAID.search(arena("run", HUGE, RANDY, *QUICK, "--seed", "1", code=0, env=WIDE).stdout)
    db = str(tmp_path / "t.sqlite")
    table = arena("tournament", HUGE, RANDY, *QUICK, "--games", "1", "--first-seed", "1",
                  "--workers", "1", "--db", db, code=0, env=WIDE).stdout
    assert SAID.search(table), table
    rows = list(csv.DictReader(io.StringIO(arena("results", db, "--export", "csv", code=0,
                                                 env=WIDE).stdout)))
    said = [row["penalties"] for row in rows if row["name"] == "Huge"]
    assert said and all(SAID.fullmatch(text) for text in said), said


def test_check_names_the_cap() -> None:
    done = arena("check", HUGE, "--once", "--turns", "2", code=1, env=WIDE)
    assert "memory limit: an allocation went past the 512 MB cap (turn 1)" in done.stderr, \
        done.stderr
