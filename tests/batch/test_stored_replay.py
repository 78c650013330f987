"""`arena replay DB:MATCH_ID`: a stored match opened from its kept replay, or played again
from its record, in every game of the registry (the toy game of tests/toy too), and
refused in one error line when a bot or the map changed or went missing since."""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from orchestrator import api
from orchestrator.games import GAMES
from orchestrator.replay import file as replay
from tests.conformance.matrix import folder, lineup, missing_runtime
from tests.support.cli import arena, one_error_line

TURNS = 8


def _bots(name: str) -> list[str]:
    game = GAMES[name]
    for sample in lineup(game):
        reason = missing_runtime(game, sample)
        if reason:
            pytest.skip(reason)
    return [str(folder(name, "bots") / sample) for sample in lineup(game)]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_match_played_again_from_its_record_is_the_replay_the_batch_kept(name,
                                                                          tmp_path) -> None:
    """Two seeds of the game's line-up, once keeping replays and once not: every match
    replayed from the second file's record equals the first file's kept replay (in a
    series game, the second match starts from the scratch the first one left)."""
    bots = _bots(name)
    kept, bare = tmp_path / "kept" / "r.sqlite", tmp_path / "bare" / "r.sqlite"
    for db, replays in ((kept, True), (bare, False)):
        # The same seeds in both files (without first_seed each would draw its own).
        api.batch(bots, seeds=2, first_seed=1, game=name, max_turns=TURNS, workers=1, db=db,
                  replays=replays, progress=False)
    ids = [row["match"] for row in api.open_store(bare).games(
        api.open_store(bare).matrix().entrants[0]["label"])]
    assert len(ids) == 2
    assert not (bare.parent / "replays").exists()
    for match_id in ids:
        again = api.open_store(bare).replay(match_id[:10]).to_json()
        assert again == replay.load(kept.parent / "replays" / f"{match_id}.json.gz")
        # The replay made is kept: the listing now opens that file.
        assert (bare.parent / "replays" / f"{match_id}.json.gz").is_file()
    listed = api.open_store(bare).games(api.open_store(bare).matrix().entrants[0]["label"])
    assert all(row["open"].startswith("arena replay ") and row["open"].endswith(".json.gz")
               for row in listed)


@pytest.fixture
def toy_batch(tmp_path) -> tuple[Path, Path, Path, list[str]]:
    """One toy match of copies of its samples and map, in a results file of tmp_path."""
    work = tmp_path / "work"
    shutil.copytree(folder("toy", "bots"), work / "bots")
    shutil.copy(folder("toy", "maps") / "plain.txt", work / "plain.txt")
    db = work / "r.sqlite"
    done = arena("batch", "--game", "toy", "bots/greedy.py", "bots/wanderer.py", "--map",
                 "plain.txt", "--seeds", "2", "--max-turns", str(TURNS), "--workers", "1",
                 "--db", str(db), "--json", cwd=work)
    assert done.returncode == 0, done.stderr
    listed = json.loads(arena("results", str(db), "--games", "--bot", "greedy", "--json").stdout)
    return work, db, work / "bots" / "greedy.py", [row["match"] for row in listed["games"]]


def test_the_command_line_opens_a_listed_game(toy_batch) -> None:
    work, db, _, ids = toy_batch
    opened = arena("replay", f"{db}:{ids[0][:8]}", "--turn", "1")
    assert opened.returncode == 0, opened.stderr
    assert f"replaying {db}:{ids[0]} from its record" in opened.stderr
    assert "turn 1/" in opened.stdout
    again = arena("replay", f"{db}:{ids[0]}", "--turn", "1")     # now from the file made
    assert again.returncode == 0 and again.stderr == "" and again.stdout == opened.stdout


def test_a_changed_or_missing_bot_or_map_is_refused(toy_batch) -> None:
    work, db, bot, ids = toy_batch
    source = bot.read_text()
    bot.write_text(source + "\n# changed\n")
    one_error_line(arena("replay", f"{db}:{ids[0]}"), f"{db}:{ids[0]}", str(bot),
                   "changed since the match was played (sha256 differs)")
    bot.unlink()
    one_error_line(arena("replay", f"{db}:{ids[0]}"), str(bot), "is missing")
    bot.write_text(source)                       # the same content again: it replays
    assert arena("replay", f"{db}:{ids[0]}", "--turn", "0").returncode == 0
    plain = work / "plain.txt"
    plain.write_text(plain.read_text() + "\n")
    one_error_line(arena("replay", f"{db}:{ids[1]}"), "the map", "sha256 differs")


def test_an_unknown_or_unrecorded_match_is_refused(toy_batch) -> None:
    _, db, _, ids = toy_batch
    one_error_line(arena("replay", f"{db}:ffffffff"), "no match has this id")
    one_error_line(arena("replay", f"{db}:"), "no match has this id")
    with sqlite3.connect(db) as conn:           # a results file from before the records
        conn.execute("DELETE FROM inputs")
    one_error_line(arena("replay", f"{db}:{ids[0]}"), "does not record what this match was "
                   "played from")
    # A replay file's own path is still read as one (a colon in no results file's name).
    one_error_line(arena("replay", str(db.parent / "nothing.json.gz")), "nothing.json.gz")
