"""A position file is untrusted input: shared like a replay, it is bounded
before it is decoded and checked field by field, and each forged, oversized or malformed
file ends in one `error:` line naming it (exit status 2) from `arena run --from`, and in
an InputError from the API, never a traceback."""
from __future__ import annotations

import copy
import json
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from engine import InputError
from orchestrator.replay import position as positions
from tests.positions.support import lineup, load, recorded
from tests.support.paths import ROOT

ARENA = [sys.executable, "-m", "orchestrator"]
MiB = 1 << 20


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> dict[str, dict]:
    """A real position of each game the attacks edit: arena, robotgame, cave, race."""
    folder = str(tmp_path_factory.mktemp("replays"))
    made = {}
    for name in ("arena", "robotgame", "cave", "race"):
        path, _ = recorded(name, folder)
        made[name] = positions.from_replay(load(path), 3, str(path))
    return made


def edit(game: str, change: Callable[[dict], Any]) -> Callable[[dict], bytes]:
    def forged(good: dict[str, dict]) -> bytes:
        data = copy.deepcopy(good[game])
        change(data)
        return json.dumps(data).encode()
    return forged


def raw(text: bytes) -> Callable[[dict], bytes]:
    return lambda good: text


def setitem(path: str, value: Any) -> Callable[[dict], None]:
    """Set data[a][b]... (keys split on dots, list indices as numbers) to value."""
    def change(data: dict) -> None:
        *parents, last = path.split(".")
        for key in parents:
            data = data[int(key)] if isinstance(data, list) else data[key]
        if isinstance(data, list):
            data[int(last)] = value
        else:
            data[last] = value
    return change


def _stack(robots: list[list]) -> None:
    """Robot 1 active on robot 0's square, robot 0 active there too."""
    robots[1][1:3] = robots[0][1:3]
    robots[0][7] = robots[1][7] = "active"
    robots[0][9] = robots[1][9] = "robot"


def deleted(key: str) -> Callable[[dict], None]:
    return lambda data: data.pop(key)


ATTACKS: dict[str, tuple[Callable[[dict], bytes], str]] = {
    "an empty file": (raw(b""), "not a position file"),
    "not JSON": (raw(b"pos: 1\n"), "not a position file"),
    "not UTF-8": (raw(b'{"format": "\xff"}'), "not UTF-8"),
    "a 5 MiB file": (raw(b" " * (5 * MiB)), "over 4 MiB"),
    "lists nested 100,000 deep": (raw(b"[" * 100_000 + b"]" * 100_000), "nest more than 32"),
    "600,000 empty lists": (raw(b"[" + b"[]," * 600_000 + b"[]]"), "at most 500,000"),
    "NaN": (raw(b'{"format": NaN}'), "NaN"),
    "a number that is Infinity": (raw(b'{"seed": 1e999}'), "Infinity"),
    "an integer of 5,000 digits": (raw(b'{"seed": ' + b"9" * 5000 + b"}"), "digits"),
    "a list at the top": (raw(b"[1, 2]"), "not a position file"),
    "a replay's format": (edit("arena", setitem("format", "robot-arena-replay")),
                          "not a position file"),
    "schema 2": (edit("arena", setitem("schema", 2)), "schema 2"),
    "an unknown game": (edit("arena", setitem("game", "chess")), "'chess' is not one"),
    "a seed that is text": (edit("arena", setitem("seed", "5")), "seed: must be an integer"),
    "a seed that is true": (edit("arena", setitem("seed", True)), "seed: must be an integer"),
    "a negative seed": (edit("arena", setitem("seed", -1)), "seed: must be an integer from"),
    "no state": (edit("arena", deleted("state")), "state: missing"),
    "no players": (edit("arena", setitem("players", [])), "players: must be 1 to 256"),
    "300 players": (edit("arena", setitem("players", ["a"] * 300)), "players: must be 1 to"),
    "a player named with a number": (edit("arena", setitem("players", [1, 2])), "players:"),
    "a map of 2 MiB": (edit("arena", setitem("map.text", "." * (2 * MiB))),
                       "at most 1,048,576"),
    "a map that is not a map": (edit("arena", setitem("map.text", "%%%")), "map:"),
    "an unknown rules preset": (edit("arena", setitem("rules.preset", "nope")),
                                "rules.preset: must be one of"),
    "an unknown rule": (edit("arena", setitem("rules.gravity", 3)), "unknown rule 'gravity'"),
    "a rule of the wrong type": (edit("arena", setitem("rules.max_turns", "many")),
                                 "rule 'max_turns' must be int"),
    "a turn the state does not say": (edit("arena", setitem("turn", 77)),
                                      "but the state is at turn"),
    "a generator of 10 words": (edit("arena", setitem("state.rng", [3, [1] * 10, None])),
                                "state.rng: must be a random generator's state"),
    "a generator word over 32 bits": (edit("arena", setitem("state.rng.1.5", 1 << 40)),
                                      "state.rng: must be a random generator's state"),
    "a generator of version 2": (edit("arena", setitem("state.rng.0", 2)), "state.rng:"),
    "an arena robot off the board": (edit("arena", setitem("state.robots.0.1", 10_000)),
                                     "state.robots[0]: a value out of range"),
    "an arena robot on another": (edit("arena", lambda d: _stack(d["state"]["robots"])),
                                  "state.robots[1]: a robot standing off the board or on"),
    "an arena robot owned by no player": (edit("arena", setitem("state.robots.0.8", 9)),
                                          "state.robots[0]: a value out of range"),
    "an arena robot row of text": (edit("arena", setitem("state.robots.0", "robot")),
                                   "state.robots[0]: must be a list of 10"),
    "an arena robot id out of order": (edit("arena", setitem("state.robots.0.0", 5)),
                                       "robot ids are 0, 1, 2"),
    "arena blocks of another map": (edit("arena", setitem("state.blocks", [1])),
                                    "state.blocks: must be a list of"),
    "100,001 arena robots": (edit("arena", setitem("state.robots", [[0] * 10] * 100_001)),
                             "state.robots: must be a list of at most"),
    "a robot game robot on an obstacle": (edit("robotgame", setitem("state.robots.0.2", 0)),
                                          "state.robots[0]"),
    "two robot game robots with one id": (edit("robotgame", lambda d: d["state"]["robots"][1]
                                               .__setitem__(0, d["state"]["robots"][0][0])),
                                          "state.robots[1]"),
    "a robot game robot with 0 hp": (edit("robotgame", setitem("state.robots.0.4", 0)),
                                     "state.robots[0]"),
    "a cavern of 600 rows": (edit("cave", setitem("state.squares", ["-" * 600] * 600)),
                             "state.squares: must be a list of at most 512"),
    "a cavern with an unknown square": (edit("cave", lambda d: d["state"]["squares"].__setitem__(
        0, "X" * len(d["state"]["squares"][0]))), "state.squares: must be 1 to 512 rows"),
    "a cave bot off the cavern": (edit("cave", setitem("state.bots.0.0", 999)),
                                  "state.bots[0]: off the"),
    "a cave creature that is a bot": (edit("cave", setitem("state.creatures", [["Y", 0, 0]])),
                                      "state.creatures[0]: a creature is one of"),
    "a race deck with a made-up card": (edit("race", setitem("state.decks.0.0", "M9")),
                                        "state.decks[0]: must be at most 1000 cards"),
    "a race bot facing up": (edit("race", setitem("state.bots.0.2", "U")), "state.bots[0]"),
    "a race winner who is not a player": (edit("race", setitem("state.winner", 7)),
                                          "state.winner: must be an integer from 0 to 1"),
}


def _file(tmp_path: Path, good: dict, label: str) -> Path:
    path = tmp_path / "pos.json"
    path.write_bytes(ATTACKS[label][0](good))
    return path


@pytest.mark.parametrize("label", ATTACKS)
def test_each_forged_position_is_one_input_error_from_the_api(label, good, tmp_path) -> None:
    path = _file(tmp_path, good, label)
    with pytest.raises(InputError) as caught:
        positions.read(path)
    message = str(caught.value)
    assert message.startswith(str(path)), message
    assert ATTACKS[label][1] in message, message
    assert "\n" not in message


@pytest.mark.parametrize("label", ["a 5 MiB file", "lists nested 100,000 deep",
                                   "600,000 empty lists", "a map of 2 MiB",
                                   "100,001 arena robots", "an arena robot on another",
                                   "a generator word over 32 bits", "a cavern of 600 rows"])
def test_arena_run_from_a_forged_position_says_one_error_line(label, good, tmp_path) -> None:
    """The command reads it before any bot process starts: one line, status 2, in bounded
    memory (the child's peak, with generous slack for a loaded machine)."""
    path = _file(tmp_path, good, label)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    done = subprocess.run(ARENA + ["run", "--from", str(path), *map(str, lineup("arena"))],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert ATTACKS[label][1] in lines[0]
    assert "Traceback" not in done.stderr
    if peak_mib > before / 1024:               # this child set a new peak: it is its own
        assert peak_mib < 400, f"{label}: {peak_mib:.0f} MiB"


def test_a_missing_file_and_a_folder_are_one_line_each(tmp_path) -> None:
    for target, said in ((tmp_path / "nope.json", "position file not found"),
                         (tmp_path, "a folder, not a position file")):
        done = subprocess.run(ARENA + ["run", "--from", str(target), "hunter", "beeline"],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert said in done.stderr
