"""A batch or tournament that draws its first seed says which (README: "prints it, so you
can replay any match"), in its table's title and its JSON, and the same command on the
same results file says the same seed."""
from __future__ import annotations

import json
import re
import subprocess

import pytest

from tests.support.paths import ARENA_CMD, ROOT

QUICK = ["--map", "tiny", "--robots", "2", "--max-turns", "3", "--workers", "1"]


@pytest.mark.parametrize("command", [["batch", "--seeds", "2"],
                                     ["tournament", "--games", "1"]])
def test_a_drawn_first_seed_is_shown_and_kept(command, tmp_path) -> None:
    db = str(tmp_path / "r.sqlite")
    argv = [*ARENA_CMD, *command, "hunter", "beeline", *QUICK, "--db", db]
    shown = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300,
                           env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"})
    assert shown.returncode == 0, shown.stderr
    seed = int(re.search(r"first seed (\d+)", shown.stdout + shown.stderr).group(1))
    again = subprocess.run([*argv, "--json"], cwd=ROOT, capture_output=True, text=True,
                           timeout=300)
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["first_seed"] == seed and report["skipped"] == report["matches"], report
