"""The match protocol (engine/protocol.py) is what every registered game's `new_match`
returns, and the orchestrator drives it without probing for members: generated from the
registry, so a new game is held to the same contract. So is the rest of a game's contract
(docs/architecture.md, "The game contract"): the `stats()` keys the orchestrator reads,
its bot side's members and the `start` its runtime gets; a game that omits one fails
here, by name, not as a gate of `arena check` that never fires."""
from __future__ import annotations

import ast
import dataclasses
import inspect
import json
import re
from pathlib import Path

import pytest

import orchestrator.runner.match
from engine.protocol import COUNTED_STATS, REQUIRED_STATS, Match
from orchestrator.games import GAMES
from orchestrator.games.contract import START_KEYS, bot_side_problems, stats_problems
from sandbox.botlib import child_module
from sandbox.frames import side_parts, start_frame
from sandbox.paths import BOTLIB
from tests.support.paths import ROOT

ARCHITECTURE = ROOT / "docs" / "architecture.md"


def _new(game):
    names = [f"p{i}" for i in range(game.players or 2)]
    board = game.load_map(game.find_map(None))
    return game.new_match(board, names, 3, game.rules(game.presets[0])), names


@pytest.mark.parametrize("name", sorted(GAMES))
def test_new_match_speaks_the_protocol(name: str) -> None:
    game = GAMES[name]
    match, names = _new(game)
    assert isinstance(match, Match), f"{name}: new_match's result lacks a Match member"
    assert match.turn == 0 and match.end is None and match.first_turn in (0, 1)
    for ai in range(len(names)):
        json.dumps(match.start_info(ai))           # plain data, or None
    json.dumps(match.replay_static())
    frame = match.replay_frame()
    assert all(isinstance(row, list) and row for rows in frame.values() for row in rows)
    views = match.views()
    assert set(views) <= set(range(len(names)))
    assert all(match.calls(ai) >= 0 for ai in views)
    log = match.play_turn({})                      # nobody answered: the game's default
    json.dumps(match.replay_events(log))
    assert match.turn in (0, 1)                    # Race's round 0 does not count
    assert len(match.ranking()) == len(names)
    assert all(isinstance(match.stats(ai), dict) for ai in range(len(names)))
    assert match.snapshot() == match.snapshot()


def test_the_orchestrator_never_probes_a_match() -> None:
    source = inspect.getsource(orchestrator.runner.match)
    assert "hasattr(match" not in source and "getattr(match" not in source


def _played(game, turns: int = 3):
    """A match of `game` after a few turns in which nobody answered, and its AIs."""
    match, names = _new(game)
    for _ in range(turns):
        if match.end is not None:
            break
        match.views()
        match.play_turn({})
    return match, names


def assert_stats_keep_the_contract(game) -> None:
    """Every AI's `stats()`, before the first turn and after a few, holds the keys the
    orchestrator reads, each of its type."""
    match, names = _new(game)
    problems = [p for ai in range(len(names)) for p in stats_problems(game, match.stats(ai))]
    match, names = _played(game)
    problems += [p for ai in range(len(names)) for p in stats_problems(game, match.stats(ai))]
    assert not problems, "\n".join(dict.fromkeys(problems))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_stats_hold_every_key_the_orchestrator_reads(name: str) -> None:
    assert_stats_keep_the_contract(GAMES[name])


def _without(game, key: str):
    """`game` under another name, its matches' stats() lacking `key`."""
    base = game.rulebook.new_match

    class Lacking(base):
        def stats(self, ai: int) -> dict:
            return {k: v for k, v in super().stats(ai).items() if k != key}

    rulebook = dataclasses.replace(game.rulebook, new_match=Lacking)
    return dataclasses.replace(game, name=f"{game.name}-without-{key}", rulebook=rulebook)


@pytest.mark.parametrize("key", sorted(REQUIRED_STATS))
def test_a_toy_whose_stats_lack_a_key_fails_by_name(key: str) -> None:
    variant = _without(GAMES["toy"], key)
    with pytest.raises(AssertionError) as failed:
        assert_stats_keep_the_contract(variant)
    said = str(failed.value)
    assert f"toy-without-{key}: stats() lacks {key!r} (" in said, said
    assert REQUIRED_STATS[key] in said


def test_a_game_ranked_by_score_must_give_an_integer_score() -> None:
    toy = GAMES["toy"]
    scored = dataclasses.replace(
        toy, competition=dataclasses.replace(toy.competition, ranked_by="score"))
    assert stats_problems(toy, {"decisions": 1}) == []
    assert stats_problems(scored, {"decisions": 1}) == [
        f"toy: stats() lacks 'score' ({COUNTED_STATS['score']})"]
    assert stats_problems(scored, {"decisions": 1, "score": 2.5}) == [
        "toy: stats()['score'] is 2.5, not an int (its tournaments rank by score)"]
    assert stats_problems(toy, {"decisions": True, "faults": {"hang": -1}}) == [
        "toy: stats()['decisions'] is True, not a count (an int of 0 or more)",
        "toy: stats()['faults'] is {'hang': -1}, not {kind: count}"]


def _segment(lines: list[bytes], node: ast.expr) -> str:
    """ast.get_source_segment on lines split once (it splits the whole file at each call,
    which made this walk take seconds)."""
    end_line, end_col = node.end_lineno or node.lineno, node.end_col_offset or 0
    if node.lineno == end_line:
        return lines[node.lineno - 1][node.col_offset:end_col].decode()
    parts = [lines[node.lineno - 1][node.col_offset:], *lines[node.lineno:end_line - 1],
             lines[end_line - 1][:end_col]]
    return b"".join(parts).decode()


def stats_reads(root: Path = ROOT / "orchestrator") -> dict[str, list[str]]:
    """Each key the orchestrator reads of a result's stats, with where: `X["key"]` or
    `X.get("key")` where X's text names stats (a game's own columns, in its entry under
    orchestrator/games/<game>/, read its own keys and are left out)."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        if path.parent.parent == root / "games":
            continue
        text = path.read_text(encoding="utf-8")
        lines = [line.encode() for line in text.splitlines(keepends=True)]
        for node in ast.walk(ast.parse(text)):
            key = receiver = None
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
                key, receiver = node.slice.value, node.value
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr == "get" and node.args
                  and isinstance(node.args[0], ast.Constant)):
                key, receiver = node.args[0].value, node.func.value
            if isinstance(key, str) and receiver is not None \
                    and "stats" in _segment(lines, receiver):
                found.setdefault(key, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_stats_key_the_orchestrator_reads_is_in_the_contract() -> None:
    """REQUIRED_STATS and COUNTED_STATS are exactly the keys read: a new reader of a key
    adds it there (and so to every game's check), and a key no longer read leaves."""
    reads = stats_reads()
    assert {"decisions", "overheats", "timeouts", "invalid", "faults", "score"} <= set(reads)
    unlisted = {key: where for key, where in reads.items()
                if key not in REQUIRED_STATS and key not in COUNTED_STATS}
    assert not unlisted, f"stats keys read but not in engine/protocol.py: {unlisted}"
    unread = (set(REQUIRED_STATS) | set(COUNTED_STATS)) - set(reads)
    assert not unread, f"stats keys listed in engine/protocol.py that nothing reads: {unread}"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_bot_side_has_what_the_sandbox_calls(name: str, monkeypatch) -> None:
    game = GAMES[name]
    monkeypatch.syspath_prepend(str(BOTLIB))        # as a child's path, and --sandbox off's
    child_module("_runtime")
    side = child_module("_runtime").bot_side(*side_parts(game.bot_side))
    assert not bot_side_problems(game, side)


def test_a_bot_side_that_lacks_a_member_fails_by_name(monkeypatch) -> None:
    monkeypatch.syspath_prepend(str(BOTLIB))
    runtime = child_module("_runtime")
    side = runtime.bot_side(*side_parts(GAMES["toy"].bot_side))
    bare = type(side)("bare")
    bare.check_module = side.check_module
    assert bot_side_problems(GAMES["toy"], bare) == [
        "toy: its bot side has no RUNTIME class (only a game of programs has none)",
        "toy: its bot side has no WATCH_MODULE_STATE (True or False)"]


def test_the_start_a_runtime_gets_is_as_documented() -> None:
    assert tuple(start_frame(["a", "b"], 1, 7, {"x": 1})) == START_KEYS


def _contract_section() -> str:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    found = re.search(r"^## The game contract\n(.*?)(?=^## )", text, re.S | re.M)
    assert found, "docs/architecture.md has no section \"The game contract\""
    return found.group(1)


def _in_code(name: str, text: str) -> bool:
    """Whether `name` is written as code (inside backticks) in `text`."""
    return re.search(rf"`[^`\n]*\b{re.escape(name)}\b[^`\n]*`", text) is not None


def test_the_docs_name_every_part_of_the_contract() -> None:
    """docs/architecture.md's "The game contract" names every protocol member, stats key,
    start key, bot side member and runtime helper a bot side uses."""
    section = _contract_section()
    members = [name for name in dir(Match) if not name.startswith("_")
               and name not in dir(object) and not name.startswith("register")]
    runtime = ["guarded", "seed_random", "LoadError", "TimeLimit", "Fatal", "describe_error",
               "ERRORS_PER_REPLY"]
    side = ["check_module", "RUNTIME", "handle", "WATCH_MODULE_STATE", "PROGRAM_ADAPTER"]
    named = [*members, *REQUIRED_STATS, *COUNTED_STATS, *START_KEYS, *side, *runtime]
    missing = [name for name in named if not _in_code(name, section)]
    assert not missing, f"docs/architecture.md's game contract does not name: {missing}"


def test_every_bot_side_uses_only_documented_runtime_helpers() -> None:
    """What the games' bot sides import of `_runtime` is what the docs list."""
    section = _contract_section()
    sides = [Path(game.bot_side) if game.bot_side.endswith(".py")
             else BOTLIB / f"{game.bot_side}.py" for game in GAMES.values()]
    used = set()
    for path in sides:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "_runtime":
                used |= {alias.name for alias in node.names}
    assert {"guarded", "seed_random", "LoadError"} <= used
    assert not [name for name in used if not _in_code(name, section)], used


def test_a_game_must_say_what_its_replay_keeps_of_an_answer() -> None:
    """`kept_answer` has no default: a replay keeps the game's rebuilding of what it
    validated, so a game that does not write one fails the contract instead of keeping
    whatever a bot's process sent beside its moves."""
    from engine.protocol import MatchBase
    assert not hasattr(MatchBase, "kept_answer")
    for name in sorted(GAMES):
        match, _ = _new(GAMES[name])
        assert "kept_answer" in type(match).__dict__ or any(
            "kept_answer" in vars(base) for base in type(match).__mro__
            if base is not MatchBase and base is not object), name
