"""An option of the match group reaches the matches of every command that takes the
group: `--random-spawn`, once offered by `run` and `batch` only, plays Robot Game's
spawns without the mirror in a tournament and a comparison too, and each run's record
says so (its rules), so the same command resumes the same run."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from orchestrator.cli.app import app

QUICK = ["--game", "robotgame", "--max-turns", "2", "--workers", "1", "--json"]


def _rules(db: Path, kind: str) -> dict:
    with sqlite3.connect(db) as store:
        [(args,)] = store.execute("SELECT args FROM runs WHERE kind = ?", (kind,)).fetchall()
    return json.loads(args)["rules"]


def test_random_spawn_reaches_a_tournament_and_a_comparison(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite"
    runner = CliRunner()
    played = runner.invoke(app, ["tournament", "example", "rusher", "--games", "2",
                                 "--random-spawn", "--db", str(db), *QUICK])
    assert played.exit_code == 0, played.output
    assert _rules(db, "tournament")["symmetric_spawn"] is False
    compared = runner.invoke(app, ["compare", "example", "rusher", "--max-games", "2",
                                   "--random-spawn", "--db", str(db), *QUICK])
    assert compared.exit_code in (0, 1, 3, 4), compared.output      # a verdict, any
    assert _rules(db, "compare")["symmetric_spawn"] is False
    mirrored = runner.invoke(app, ["tournament", "example", "rusher", "--games", "2",
                                   "--db", str(tmp_path / "mirrored.sqlite"), *QUICK])
    assert mirrored.exit_code == 0, mirrored.output
    assert _rules(tmp_path / "mirrored.sqlite", "tournament")["symmetric_spawn"] is True
