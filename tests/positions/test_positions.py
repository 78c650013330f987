"""From a turn of a replay to a position, and a match from it, for every game
of the registry: its entry keeps the position contract; the state saved at any turn loads
to the same match; playing on from turn N of a replay with the same memoryless samples
gives the replay's remaining turns byte for byte, in every sandbox mode; `--turns K`
stops there and says what happened; the bots start fresh."""
from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import InputError
from orchestrator import api
from orchestrator.games import GAMES
from orchestrator.games.contract import position_problems
from orchestrator.replay import position as positions
from tests.positions.support import SEED, lineup, load, recorded, turns_of
from tests.support.cli import arena
from tests.support.paths import ROOT

ARENA = [sys.executable, "-m", "orchestrator"]
NAMES = sorted(GAMES)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("replays"))


def _json(value):
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("name", NAMES)
def test_every_game_keeps_the_position_contract(name: str) -> None:
    game = GAMES[name]
    assert position_problems(game) == []
    assert game.memoryless, f"{name} names no memoryless samples for its position tests"
    for bot in game.memoryless:
        assert (game.bots_dir / bot).is_file(), bot


def test_a_game_without_position_hooks_is_named() -> None:
    game = GAMES["arena"]
    bare = dataclasses.replace(game, rulebook=dataclasses.replace(game.rulebook, position=None))
    assert position_problems(bare) == [
        "arena: its rulebook has no position hooks (save(match) -> state, "
        "load(map, names, seed, rules, state) -> match; engine/position.py)"]


@pytest.mark.parametrize("name", NAMES)
def test_the_state_saved_at_every_turn_loads_to_the_same_match(name: str, folder) -> None:
    """At each turn of a replayed match: save, through JSON, load; the match loaded is
    the match saved (its snapshot, its replay frame, its stats, its state saved again)."""
    path, _ = recorded(name, folder)
    data = load(path)
    game = GAMES[name]
    setup = data["setup"]
    rules = positions._rules(game, data["rules"], "r")
    board = positions._board(game, data["map"]["name"], setup["map_text"], "r")
    match = game.new_match(board, setup["names"], data["seed"], rules)
    for t, entry in enumerate(data["turns"]):
        state = _json(game.position.save(match))
        again = game.position.load(board, setup["names"], data["seed"], rules, state)
        assert again.snapshot() == match.snapshot(), (name, t)
        assert again.replay_frame() == match.replay_frame(), (name, t)
        assert [again.stats(ai) for ai in range(len(setup["names"]))] == \
            [match.stats(ai) for ai in range(len(setup["names"]))], (name, t)
        assert _json(game.position.save(again)) == state, (name, t)
        positions._replay_turn(match, setup["answers"][t], entry["turn"])


@pytest.mark.parametrize("name", NAMES)
def test_playing_on_from_turn_n_gives_the_replays_remaining_turns(name: str, folder,
                                                                  tmp_path) -> None:
    path, result = recorded(name, folder)
    data = load(path)
    whole = turns_of(data)
    first = json.loads(result)
    assert len(whole) > 4, "the match is too short to test"
    for frame in (0, 1, len(whole) // 2, len(whole) - 1):
        saved = positions.write(positions.from_replay(data, frame, str(path)),
                                tmp_path / f"{name}-{frame}.json")
        played = api.play(lineup(name), start=saved, sandbox="off", progress=False)
        assert turns_of(played.replay.data) == whole[frame:], (name, frame)
        again = played.to_json()
        assert again["end"] == first["end"] and again["turns"] == first["turns"]
        assert [(p["name"], p["rank"], p["stats"]) for p in again["players"]] == \
            [(p["name"], p["rank"], p["stats"]) for p in first["players"]], (name, frame)


@pytest.mark.parametrize("name", NAMES)
def test_the_commands_play_on_from_a_position_in_the_standard_and_match_modes(
        name: str, folder, tmp_path) -> None:
    """`arena replay FILE --turn N --save-position`, then `arena run --from` with --turns,
    in a child process, in the standard sandbox and in one match jail."""
    path, _ = recorded(name, folder)
    whole = turns_of(load(path))
    frame = len(whole) // 2
    pos = tmp_path / "pos.json"
    saved = subprocess.run(ARENA + ["replay", str(path), "--turn", str(frame),
                                    "--save-position", str(pos)],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert saved.returncode == 0, saved.stderr
    assert f"arena run --from {pos}" in saved.stderr
    # How many bots it takes, and in which seats: a 4-player match's loser is not first.
    names = [p["name"] for p in load(path)["players"]]
    assert f"({len(names)} bots, in seat order: {', '.join(names)})" in saved.stderr
    for mode in ("standard", "match"):
        again = tmp_path / f"{mode}.json.gz"
        done = subprocess.run(ARENA + ["run", "--from", str(pos), *map(str, lineup(name)),
                                       "--turns", "3", "--sandbox", mode, "--json",
                                       "--replay", str(again)],
                              cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert result["end"] == "stopped" or frame + 3 >= len(whole)
        seen = 1 if GAMES[name].shown.seen_turns else 0      # Robot Game: its game.turn
        assert [t["turn"] for t in result["played_turns"]] == \
            [json.loads(t)["turn"] - seen for t in whole[frame:frame + 3]]
        assert turns_of(load(again)) == whole[frame:frame + 3], (name, mode)


def test_turns_k_prints_each_turns_events_and_changes_and_the_board(folder, tmp_path) -> None:
    path, _ = recorded("toy", folder)
    pos = positions.write(positions.from_replay(load(path), 4, str(path)), tmp_path / "p.json")
    done = subprocess.run(ARENA + ["run", "--from", str(pos), *map(str, lineup("toy")),
                                   "--turns", "2", "--sandbox", "off"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "turn 5\n" in out and "turn 6\n" in out and "turn 7" not in out
    assert re.search(r"^  player [01] \((greedy|wanderer)\): (north|east|south|west|stay), "
                     r"now \d,\d, \d+ coins", out, re.MULTILINE), out   # its words
    assert "after turn 6" in out                         # the board, by the game's turn
    assert "stopped after the turns asked for" in out       # the table
    assert "#" in out                                       # the board's walls


def test_the_bots_start_fresh_their_memory_empty(folder, tmp_path) -> None:
    """A bot that steps east on its first call only: from a position at turn 6 its first
    move there is east again (its module starts anew), not what a bot 6 turns in says."""
    path, _ = recorded("toy", folder)
    pos = positions.write(positions.from_replay(load(path), 6, str(path)), tmp_path / "p.json")
    bot = tmp_path / "counter.py"
    bot.write_text("calls = []\n\ndef step(view):\n    calls.append(1)\n"
                   "    return 'E' if len(calls) == 1 else '.'\n")
    played = api.play([bot, bot], start=pos, turns=2, sandbox="off", progress=False)
    turns = played.replay.data["turns"]
    assert [sorted(e[:2] for e in t["events"]) for t in turns] == \
        [[[0, "E"], [1, "E"]], [[0, "."], [1, "."]]]


def test_a_replay_kept_without_answers_cannot_give_a_position(folder, tmp_path) -> None:
    path, _ = recorded("toy", folder)
    data = load(path)
    del data["setup"]
    with pytest.raises(InputError, match="keeps no answers of its bots"):
        positions.from_replay(data, 3, "old.json.gz")


def test_an_edited_replay_is_found_out_when_played_again(folder) -> None:
    path, _ = recorded("arena", folder)
    data = load(path)
    data["turns"][2]["changed"]["robots"][0][4] += 5           # a robot's life, edited
    with pytest.raises(InputError, match=r"turn 3: the match played again .* differs"):
        positions.from_replay(data, 10, "edited.json.gz")
    data = load(path)
    data["setup"]["answers"][1][0][1] = "!!not base64"
    with pytest.raises(InputError, match="turn 2: an answer the replay keeps is not readable"):
        positions.from_replay(data, 10, "edited.json.gz")


def test_a_position_names_what_it_fixes_and_the_bots_it_needs(folder, tmp_path) -> None:
    path, _ = recorded("arena", folder)
    pos = positions.write(positions.from_replay(load(path), 3, str(path)), tmp_path / "p.json")
    with pytest.raises(InputError, match="leave out --seed, --max-turns"):
        api.play(lineup("arena"), start=pos, seed=3, max_turns=9)
    with pytest.raises(InputError, match=r"p.json: the position has 2 players .*not 3"):
        api.play(lineup("arena") + lineup("arena")[:1], start=pos)
    with pytest.raises(InputError, match="--game toy: the position is of arena"):
        api.play(lineup("arena"), start=pos, game="toy")
    with pytest.raises(InputError, match=r"--turn 9999: the replay has turns 0 to \d+"):
        positions.from_replay(load(path), 9999, str(path))
    loaded = json.loads(pos.read_text())                      # a dict works as a path does
    assert api.play(lineup("arena"), start=loaded, turns=1, sandbox="off",
                    progress=False).to_json()["end"] == "stopped"


@pytest.mark.xdist_group("installed")
@pytest.mark.parametrize("name", NAMES)
def test_the_installed_wheel_saves_a_position_and_plays_on_from_it(name, installed,
                                                                   tmp_path) -> None:
    """The loop's last steps from the wheel installed outside the checkout, its samples
    named as a user names them: a match with its replay, a position at its middle, then
    two turns from there, the replay's own."""
    samples = [Path(bot).name for bot in lineup(name)]       # a sample's file name
    mine = installed.arena
    first = arena("run", "--game", name, *samples, "--seed", str(SEED), "--sandbox", "off",
                  "--replay", "m.json.gz", "--json", cwd=tmp_path, command=mine)
    assert first.returncode == 0, first.stderr
    whole = turns_of(load(tmp_path / "m.json.gz"))
    frame = len(whole) // 2
    saved = arena("replay", "m.json.gz", "--turn", str(frame), "--save-position", "p.json",
                  cwd=tmp_path, command=mine)
    assert saved.returncode == 0, saved.stderr
    again = arena("run", "--from", "p.json", *samples, "--turns", "2", "--replay",
                  "again.json.gz", "--json", cwd=tmp_path, command=mine)
    assert again.returncode == 0, again.stderr
    assert turns_of(load(tmp_path / "again.json.gz")) == whole[frame:frame + 2]


@pytest.mark.parametrize("name", ["toy", "arena"])
def test_a_position_from_a_match_that_started_from_one_is_the_same(name, folder,
                                                                   tmp_path) -> None:
    """A replay of a match played from turn N keeps where it started: its turn 2 is the
    first match's turn N + 2, state and all."""
    path, _ = recorded(name, folder)
    data = load(path)
    frame = len(data["turns"]) // 3
    pos = positions.write(positions.from_replay(data, frame, str(path)), tmp_path / "p.json")
    played = api.play(lineup(name), start=pos, sandbox="off", progress=False,
                      replay=tmp_path / "on.json.gz")
    later = positions.from_replay(load(tmp_path / "on.json.gz"), 2, "on.json.gz")
    direct = positions.from_replay(data, frame + 2, str(path))
    assert later["state"] == direct["state"] and later["turn"] == direct["turn"]
    assert played.replay.data["setup"]["start"] == json.loads(pos.read_text())["state"]


def test_a_position_where_the_match_ended_says_no_turn_was_left(folder, tmp_path) -> None:
    """`--save-position` without --turn saves the last turn: played on from, it plays
    nothing, and `run --from` says so (and how to save one that plays), once; a position
    with turns left says nothing of the kind."""
    path, _ = recorded("toy", folder)
    data = load(path)
    last = positions.write(positions.from_replay(data, len(data["turns"]), str(path)),
                           tmp_path / "last.json")
    done = subprocess.run(ARENA + ["run", "--from", str(last), *map(str, lineup("toy")),
                                   "--sandbox", "off"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count(f"note: {last} is turn ") == 1, done.stderr
    assert "no turn was left to play; save an earlier one with arena replay" in done.stderr
    early = positions.write(positions.from_replay(data, 2, str(path)), tmp_path / "early.json")
    done = subprocess.run(ARENA + ["run", "--from", str(early), *map(str, lineup("toy")),
                                   "--turns", "1", "--sandbox", "off"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "no turn was left" not in done.stderr, done.stderr
