"""A runtime row per entry of the runtime table (tests/conformance/tiny.py): its tiny bot
plays a Cave game started per turn and persistent, in every spelling of its runtime, and
keeps its scratch across a series. A runtime whose program is missing here is skipped,
saying which."""
from __future__ import annotations

import base64
import gzip
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from orchestrator.results.store import Store
from tests.conformance.matrix import CHECKOUT, run_in
from tests.conformance.tiny import TINY, Spelling, Tiny, runtime_names
from tests.support.cli import as_json

TURNS = 3
GAMES_IN_SERIES = 3


@dataclass(frozen=True)
class RuntimeRow:
    runtime: str
    spelling: Spelling
    mode: str                      # per-turn | persistent | series

    def __str__(self) -> str:
        spelled = "" if len(TINY[self.runtime].spellings) == 1 else f"[{self.spelling.label}]"
        return f"{self.runtime}{spelled}-{self.mode}"

    @property
    def tiny(self) -> Tiny:
        return TINY[self.runtime]


def runtime_rows() -> list[RuntimeRow]:
    """Per runtime of the table: each spelling per turn and persistent; one series."""
    found = []
    for runtime in runtime_names():
        tiny = TINY.get(runtime)
        if tiny is None:
            continue            # test_generation fails for it: no row can be made up
        found += [RuntimeRow(runtime, spelling, mode) for spelling in tiny.spellings
                  for mode in ("per-turn", "persistent")]
        found.append(RuntimeRow(runtime, tiny.spellings[0], "series"))
    return found


def write_bot(row: RuntimeRow, folder: Path, persistent: bool) -> Path:
    """The tiny bot's file, as the row spells it (a C one compiled here, with cc)."""
    folder.mkdir(parents=True, exist_ok=True)
    text = row.tiny.text(row.spelling, persistent)
    path = folder / row.spelling.filename
    if not row.tiny.compiled:
        path.write_text(text)
        return path
    source = path.with_suffix(".c")
    source.write_text(text)
    built = subprocess.run(["cc", "-O2", "-o", str(path), str(source)], capture_output=True,
                           text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    return path


def _scratch_count(files: dict) -> int:
    return int(base64.b64decode(files["games"])) if "games" in files else 0


def _play_one(row: RuntimeRow, tmp_path: Path, persistent: bool) -> None:
    bot = write_bot(row, tmp_path / "bot", persistent)
    result = as_json(run_in(CHECKOUT, tmp_path, "run", "--game", "cave", str(bot), "--seed", "1",
                           "--max-turns", str(TURNS), "--json"))
    (me,) = result["players"]
    assert me["status"] == "ok", me
    assert me["stats"]["decisions"] == TURNS and me["stats"]["invalid"] == 0, me
    assert me["stats"]["faults"] == {} and me["violations"] == [], me
    assert _scratch_count(me.get("scratch", {})) == 1, me
    blocks = [f"game 1 block {k}" for k in range(1, TURNS + 1)]
    # One process answers every turn, or a new one each turn.
    expected = blocks if persistent else ["game 1 block 1"] * TURNS
    assert me["output"].splitlines() == expected, me["output"]


def _slow_per_turn(row: RuntimeRow, tmp_path: Path) -> None:
    """A runtime that may not start within a turn's second (the JVM): `arena check`
    passes it, or says so plainly and points to the persistent protocol."""
    bot = write_bot(row, tmp_path / "bot", persistent=False)
    done = run_in(CHECKOUT, tmp_path, "check", "--game", "cave", str(bot), "--turns",
                 str(TURNS), "--json", code=None)
    found = json.loads(done.stdout)
    if done.returncode == 0:
        assert found["ok"] and found["turns"] == TURNS, found
    else:
        assert done.returncode == 1 and "cave-protocol: persistent" in found["reason"], found


def _series(row: RuntimeRow, tmp_path: Path) -> None:
    """A batch: the bot's scratch goes from game to game, and its stderr shows it."""
    bot = write_bot(row, tmp_path / "bot", persistent=True)
    db = tmp_path / "series.sqlite"
    report = as_json(run_in(CHECKOUT, tmp_path, "batch", "--game", "cave", str(bot), "--seeds",
                           str(GAMES_IN_SERIES), "--max-turns", str(TURNS), "--workers", "1",
                           "--db", str(db), "--replays", "--json"))
    assert report["matches"] == GAMES_IN_SERIES and report["players"][0]["erased"] == 0, report
    store = Store(db)
    try:
        matches = store.run_results(store.runs()[-1]["id"])
        scratch = store.scratch(m["id"] for m in matches)
    finally:
        store.close()
    first = matches[0]["seed"]                   # drawn from the OS: no --first-seed
    assert [m["seed"] for m in matches] == list(range(first, first + GAMES_IN_SERIES))
    for game, match in enumerate(matches, start=1):
        assert _scratch_count(scratch[match["id"]][0]) == game, (match["seed"], scratch)
        replay = json.loads(gzip.decompress((tmp_path / "replays" /
                                             f"{match['id']}.json.gz").read_bytes()))
        printed = replay["output"][match["players"][0]["name"]]
        assert printed.splitlines()[0] == f"game {game} block 1", printed


@pytest.mark.parametrize("row", runtime_rows(), ids=str)
def test_runtime(row: RuntimeRow, tmp_path) -> None:
    if shutil.which(row.tiny.needs) is None:
        pytest.skip(f"runtime {row.runtime!r} is not installed ({row.tiny.needs} is missing)")
    if row.mode == "series":
        _series(row, tmp_path)
    elif row.mode == "per-turn" and row.tiny.slow_start:
        _slow_per_turn(row, tmp_path)
    else:
        _play_one(row, tmp_path, persistent=row.mode == "persistent")
