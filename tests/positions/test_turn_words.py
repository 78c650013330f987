"""`arena run --from pos.json --turns K` tells each turn in the game's words,
for every game of the registry: each piece given a move is printed with its AI, its move
by name and where the engine has it after that turn; every piece printed is one the
engine has there. The truth is the engine's own objects, traced turn by turn from the
same position with the answers the match's replay keeps, read here without the printer's
code."""
from __future__ import annotations

import io
import re
import subprocess
import sys
from typing import Any, Callable

import pytest
from rich.console import Console

from orchestrator import api
from orchestrator.games import GAMES
from orchestrator.replay import position as positions
from orchestrator.views import turn_report
from tests.positions.support import lineup, load, recorded
from tests.support.paths import ROOT

TURNS = 4
COMPASS = "NESW"
ARENA_MOVES = {1: "LASER", 2: "FORWARD", 3: "FORWARD_TWO", 4: "REVERSE", 5: "SIDESTEP_LEFT",
               6: "SIDESTEP_RIGHT", 7: "TURN_LEFT", 8: "TURN_RIGHT", 9: "U_TURN",
               0: "no move", 255: "OVERHEAT"}
CAVE_HEADINGS = {"NN": "north", "NE": "north-east", "EE": "east", "SE": "south-east",
                 "SS": "south", "SW": "south-west", "WW": "west", "NW": "north-west"}
RACE_CARDS = {"M1": "Move 1", "M2": "Move 2", "M3": "Move 3", "RT": "Right Turn",
              "LT": "Left Turn", "UT": "U-Turn", "MB": "Back Up", "Ag": "Again",
              "Sp": "Spam"}


# Each game's truth after a turn: {piece: (its AI, the move it was given or None, where
# it is as the printer must say it)}, from the match object, the moves decoded for the
# turn (`moves`), the pieces as they stood before it (`before`) and the turn's log.
Truth = Callable[[Any, dict, Any, Any], dict[str, tuple[int, str | None, str]]]


def _arena(match, moves, before, log) -> dict:
    rc = match.board.rc
    return {f"robot {r.id}": (r.owner, ARENA_MOVES[moves[r.id]] if r.id in moves else None,
                              "now row {} col {} facing {}".format(*rc(r.pos),
                                                                   COMPASS[r.facing]))
            for r in match.board.robots}


def _robotgame(match, moves, before, log) -> dict:
    """`moves` are keyed by the square a robot stood on (`before`: {square: (id, player)})."""
    said = {}
    for loc, act in moves.items():
        said[before[loc][0]] = act[0] if len(act) == 1 else \
            f"{act[0]} {'to' if act[0] == 'move' else 'at'} ({act[1][0]}, {act[1][1]})"
    now = {f"robot {r.rid}": (r.player, said.get(r.rid), f"now ({r.loc[0]}, {r.loc[1]}), "
                                                         f"{r.hp} HP")
           for r in match.robots}
    for rid, player in before.values():             # those destroyed this turn
        now.setdefault(f"robot {rid}", (player, said.get(rid), "now destroyed"))
    return now


def _cave(match, moves, before, log) -> dict:
    def words(line):
        found = re.fullmatch(r"([MAH])(\w\w)([MAH])(\w\w)", line.strip()) \
            if isinstance(line, str) else None
        if found is None or not all(h in CAVE_HEADINGS for h in found.group(2, 4)):
            return "no valid answer (holds twice)"
        acts = {"M": "move", "A": "attack", "H": "hold"}
        return ", ".join(acts[a] if a == "H" else f"{acts[a]} {CAVE_HEADINGS[h]}"
                         for a, h in (found.group(1, 2), found.group(3, 4)))
    return {f"bot {i}": (i, words(moves[i]) if i in moves else None,
                         f"now row {b.row} col {b.col}, health {b.health}, gold {b.gold}")
            for i, b in enumerate(match.match.bots)}


def _race(match, moves, before, log) -> dict:
    said = ({i: f"faces {d}" for i, d in enumerate(log["facing"])} if "facing" in log else
            {i: " / ".join(RACE_CARDS[c] for c in cards)
             for i, cards in enumerate(log["programs"])})
    return {f"bot {i}": (i, said.get(i), f"now x {b.x} y {b.y} facing {b.d}, checkpoint "
                                         f"{int(b.checkpoint)}")
            for i, b in enumerate(match.match.bots)}


def _toy(match, moves, before, log) -> dict:
    steps = {"N": "north", "E": "east", "S": "south", "W": "west", ".": "stay"}
    return {f"player {i}": (i, steps[moves[i]] if i in moves else None,
                            f"now {x},{y}, {match.match.score[i]} coins")
            for i, (x, y) in enumerate(match.match.at)}


def _arena_events(match, log, names) -> list[tuple[str, str]]:
    """Arena's sentences: (a robot as said, the sentence's verb) for each robot the
    engine's log pushed, dropped in a pit or exploded."""
    owner = {r.id: r.owner for r in match.board.robots}
    said = [(rid, "pushed") for rid in log.pushed] + [(rid, "fell into a pit")
                                                       for rid in log.fell]
    said += [(rid, "exploded") for rid in log.exploded]
    return [(f"robot {rid} ({names[owner[rid]].lower()})", verb) for rid, verb in said]


# Each game's events as sentences, where the test checks them: (a piece as said, a word
# of the sentence that must name it).
EVENTS = {"arena": _arena_events}

TRUTHS: dict[str, Truth] = {"arena": _arena, "robotgame": _robotgame, "cave": _cave,
                            "race": _race, "toy": _toy}


def _before(name: str, match) -> dict:
    """What the truth needs of the pieces before a turn (Robot Game keys moves by square)."""
    return {r.loc: (r.rid, r.player) for r in match.robots} if name == "robotgame" else {}


def _traced(name: str, data: dict, start: dict) -> list[dict]:
    """The engine's truth after each turn of the replay `data`, played again from the
    position `start` with the answers the replay keeps."""
    game = GAMES[name]
    setup = data["setup"]
    rules = positions._rules(game, data["rules"], "r")
    board = positions._board(game, data["map"]["name"], setup["map_text"], "r")
    match = game.position.load(board, setup["names"], data["seed"], rules, start["state"])
    for ai in range(len(setup["names"])):
        match.start_info(ai)
    truths = []
    for t, answers in enumerate(setup["answers"]):
        match.views()
        moves: dict = {}
        for ai, raw in answers:
            moves.update(match.decode_answer(ai, positions._unpacked(raw, t)))
        before = _before(name, match)
        log = match.play_turn(moves)
        truths.append((TRUTHS[name](match, moves, before, log),
                       EVENTS[name](match, log, setup["names"]) if name in EVENTS else []))
    return truths


def _start_frame(name: str, whole: dict) -> int:
    """The middle of the match; for arena, just before its first push, fall or explosion
    (so its sentences are checked)."""
    if name == "arena":
        return next(i for i, turn in enumerate(whole["turns"])
                    if any(turn["events"].get(k) for k in ("pushed", "fell", "exploded")))
    return len(whole["turns"]) // 2


LINE = re.compile(r"  (?P<piece>[a-z]+ \d+)(?: \((?P<ai>[^)]*)\))?: (?P<rest>.*)")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_turns_are_told_in_the_games_words_as_the_engine_has_them(name: str, tmp_path,
                                                                   tmp_path_factory) -> None:
    assert name in TRUTHS, f"{name}: add its truth (its pieces after a turn) here"
    assert GAMES[name].shown.turn is not None, f"{name}: its entry tells no turn in words"
    path, _ = recorded(name, str(tmp_path_factory.mktemp("words")))
    whole = load(path)
    start = positions.from_replay(whole, _start_frame(name, whole), str(path))
    saved = positions.write(start, tmp_path / "pos.json")
    played = api.play(lineup(name), start=saved, turns=TURNS, sandbox="off", record=True,
                      progress=False)
    data = played.replay.data
    buffer = io.StringIO()
    turn_report.print_turns(Console(file=buffer, width=1000, color_system=None),
                            turn_report.played_turns(data), data)
    printed = buffer.getvalue().splitlines()
    truths = _traced(name, data, start)
    names = data["setup"]["names"]
    assert len(truths) == min(TURNS, len(data["turns"])) > 0
    headers = [i for i, line in enumerate(printed) if line.startswith("turn ")]
    # Robot Game names a turn as its bots see it (game.turn): the entry after it.
    seen = 1 if GAMES[name].shown.seen_turns else 0
    assert [printed[i] for i in headers] == [f"turn {t['turn'] - seen}" for t in data["turns"]]
    checked = 0
    for k, (truth, events) in enumerate(truths):
        lines = printed[headers[k] + 1:headers[k + 1] if k + 1 < len(headers) else None]
        seen = {}
        for line in lines:
            found = LINE.fullmatch(line)
            if found and found["piece"] in truth:
                seen[found["piece"]] = found
        for piece, (_, move, _) in truth.items():
            if move is None:
                continue
            assert piece in seen, f"{name} turn {k}: {piece} was given {move!r}, not printed"
        for piece, found in seen.items():
            ai, move, at = truth[piece]
            assert found["ai"] == names[ai], (name, k, found.group(0))
            rest = found["rest"]
            if move is not None:
                assert rest.startswith(f"{move}, "), (name, k, found.group(0), move)
            assert f"{at}" in rest, (name, k, found.group(0), at)
            checked += move is not None
        for piece, verb in events:
            assert any(piece in line.lower() and verb in line for line in lines
                       if not LINE.fullmatch(line)), (name, k, piece, verb, lines)
    assert checked, f"{name}: no piece given a move was printed"
    assert name not in EVENTS or any(events for _, events in truths), \
        f"{name}: no event of the turns to check"


def test_the_board_is_titled_with_the_games_turn(tmp_path, tmp_path_factory) -> None:
    """The board after `--turns 2` from a position at turn N is "after turn N+2", the
    game's number, not the replay's frame ("turn 2/2")."""
    path, _ = recorded("arena", str(tmp_path_factory.mktemp("title")))
    whole = load(path)
    at = len(whole["turns"]) // 2
    pos = positions.write(positions.from_replay(whole, at, str(path)), tmp_path / "p.json")
    done = subprocess.run([sys.executable, "-m", "orchestrator", "run", "--from", str(pos),
                           *map(str, lineup("arena")), "--turns", "2", "--sandbox", "off"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    number = whole["turns"][at + 1]["turn"]
    assert f"after turn {number}" in done.stdout
    assert "turn 2/2" not in done.stdout and '{"moves"' not in done.stdout
    assert re.search(r"^  robot \d+ \((Hunter|Beeline)\): [A-Z_]+, now row", done.stdout,
                     re.MULTILINE), done.stdout
