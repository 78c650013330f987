"""The door a bot's replies come through: what a bot's side sends back is
checked against its schema, the host keeps only what it validated, and a reply's cost is
the sender's.

A bot's child runs the bot's code, so every byte of its reply may be the bot's: these bots
reach their own child's `_runtime.finish_reply` and rewrite the frame it sends
(tests/hostile/replies/: race_junk.py, rg_warn_flood.py; the forgeries below). Each is
a protocol violation of that AI, decided from the frame's length prefix, at its first object past
the count a reply may hold, or from the envelope's keys, types and bounds
(sandbox/replies.py), and the game's `decode_answer` checks the moves exactly. What a
replay keeps is the game's re-encoding of what it validated (`kept_answer`).

As root, these run again as an ordinary user (tests/sandbox/test_ordinary_user.py).
"""
from __future__ import annotations

import base64
import math
import time
from pathlib import Path

import msgpack
import pytest

from orchestrator.games import GAMES
from orchestrator.replay import file as replay
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match
from sandbox import replies
from sandbox.botlib import child_module
from sandbox.limits import Limits
from tests.support.paths import HOSTILE

_wire = child_module("_wire")
REPLIES = HOSTILE / "replies"          # not arena bots: apart from the hostile suite's

PYTHON_GAMES = sorted(name for name, game in GAMES.items() if not game.programs)
TURNS = {"race": 4}
# The host's own CPU for a short match with a hostile bot: a few hundredths of a second
# for an honest one (measured 0.02 s for 30 turns of Robot Game); the warn flood took
# 6.5 s on the code before. Far from both, so that load cannot decide it.
HOST_CPU_S = 1.5


def sample(game) -> "object":
    return read_bot(next(iter(game.demo_lineup(on_skip=lambda _: None))))


def play(game, bots, mode: str = "standard", turns: int | None = None,
         limits: Limits | None = None) -> tuple[dict, dict, float]:
    """The result, the replay, and the host's own CPU seconds for them."""
    rules = game.rules(game.presets[0], max_turns=turns or TURNS.get(game.name, 6))
    spec = MatchSpec(game.name, game.find_map(None), bots, 1, rules, limits, mode)
    replays: list[dict] = []
    started = time.process_time()
    result = run_match(spec, replays=replays)
    replay.encode(replays[0])
    return result, replays[0], time.process_time() - started


def seat(result: dict, index: int) -> dict:
    return next(p for p in result["players"] if p["seat"] == index)


def kept_answers(found: dict) -> list:
    return [msgpack.unpackb(base64.b64decode(raw), raw=False)
            for turn in found["setup"]["answers"] for _, raw in turn]


def charged(player: dict, game) -> bool:
    """Erased (or, in a forfeit game, forfeit) for breaking the protocol."""
    lost = "forfeit" if game.failure == "forfeit" else "erased"
    return player["status"] == lost and player["reason"].startswith("protocol: ")


# -- the two attacks found ---------------------------------------------------------------
@pytest.mark.parametrize("mode", ["standard", "match"])
def test_junk_beside_a_legal_race_program_is_refused_and_never_kept(mode,
                                                                    no_stray_processes):
    game = GAMES["race"]
    junk_bot = read_bot(REPLIES / "race_junk.py")
    result, found, _ = play(game, [junk_bot, sample(game)], mode, turns=10)
    junk = seat(result, 0)
    assert charged(junk, game), junk
    assert seat(result, 1)["status"] == "ok"
    # Before: 11.1 MB for these 10 rounds, the junk kept in setup.answers every round.
    assert len(replay.encode(found)) < 20_000
    for answer in kept_answers(found):
        assert set(answer) in ({"answer"}, {"problem"}), answer


def test_a_warn_flood_is_refused_before_the_host_walks_it(no_stray_processes):
    game = GAMES["robotgame"]
    flood_bot = read_bot(REPLIES / "rg_warn_flood.py")
    result, _, host_s = play(game, [flood_bot, sample(game)], turns=30)
    flood = seat(result, 0)
    assert charged(flood, game) and "byte cap" in flood["reason"], flood
    assert flood["warnings"] == []
    assert host_s < HOST_CPU_S, host_s


# -- forged replies, for every game of Python bots ------------------------------------------
# Prepended to the game's own sample: the sample plays, and every reply its child sends is
# rewritten by FORGE.
FORGER = """import sys as _sys
_runtime = _sys.modules["_runtime"]
_finish = _runtime.finish_reply
def _forged(reply, *args):
    reply = _finish(reply, *args)
{forge}
    return reply
_runtime.finish_reply = _forged
"""
NESTED = "[" * 60 + "]" * 60
FORGERIES = {
    # oversized: refused from its length prefix (a frame past what this reply may hold)
    "oversized output": ('    reply["out"] = "x" * 400_000', "byte cap"),
    # more objects than a reply may hold, in fewer bytes than its cap: refused at the
    # first one too many, the rest never walked
    "a flood of warnings": ('    reply["warn"] = [1] * 200_000', "objects"),
    "a flood of violations": ('    reply["violations"] = [""] * 100_000', "objects"),
    "deeply nested errors": (f'    reply["errors"] = [{NESTED}]', "error"),
    "deeply nested moves": (f'    reply["moves"] = {NESTED}', ""),
    "NaN seconds": ('    reply["busy_s"] = float("nan")', "busy_s is not finite"),
    "infinite bot_s": ('    reply["bot_s"] = float("inf")', "bot_s is not finite"),
    "a forged key": ('    reply["result"] = {"winner": "me"}', "'result' is not a key"),
    "a keeper's key": ('    reply["usage"] = {"cpu_s": 0.0, "peak_mb": 0.0, "running": 0}',
                       "'usage' is not a key"),
    "out of range": ('    reply["out_dropped"] = -1', "out_dropped is out of range"),
    "an error of no robot": ('    reply["errors"] = [[10_000, "x"]]', "robot"),
    "too long a warning": ('    reply["warn"] = ["w" * 5000]', "longer than"),
    "junk in the moves": ('    m = reply["moves"]\n'
                          '    reply["moves"] = {**m, "junk": 1} if type(m) is dict '
                          'else m + b"\\0"', ""),
    "moves of the wrong type": ('    reply["moves"] = 3.5', ""),
    "no moves": ('    del reply["moves"]', "no moves"),
}


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
@pytest.mark.parametrize("name", PYTHON_GAMES)
def test_a_forged_reply_is_a_protocol_violation_of_its_sender(name, forgery, tmp_path,
                                                             no_stray_processes):
    game = GAMES[name]
    honest = sample(game)
    forge, said = FORGERIES[forgery]
    path = tmp_path / "forger.py"
    path.write_text(FORGER.format(forge=forge) + Path(honest.path).read_text())
    result, found, host_s = play(game, [read_bot(path), honest], turns=3)
    forger = seat(result, 0)
    assert charged(forger, game), forger
    assert said in forger["reason"], forger["reason"]
    assert seat(result, 1)["status"] == "ok"
    assert host_s < HOST_CPU_S, host_s
    for raw in (raw for turn in found["setup"]["answers"] for _, raw in turn):
        assert len(base64.b64decode(raw)) < 1000


# -- each game's decode_answer: exactly its answer, and what it keeps ----------------------
def first_answers(game) -> tuple[object, dict]:
    """A match of the game at the first turn it asks a bot, and the answers its samples
    gave then."""
    bots = [read_bot(p) for p in game.demo_lineup(on_skip=lambda _: None)]
    bots = game.mirrored(bots[:game.players] if game.players else bots)
    if game.programs:
        bots = [b for b in bots if str(b.path).endswith(".py")] or bots
    result, found, _ = play(game, bots, "off" if not game.programs else "standard", turns=3)
    match = game.new_match(game.parse_map(found["setup"]["map_text"], "map"),
                           found["setup"]["names"], 1,
                           game.rules(game.presets[0], max_turns=2))
    for ai in range(len(found["setup"]["names"])):
        match.start_info(ai)
    for turn in found["setup"]["answers"]:        # the first turn that asks a bot
        match.views()
        if turn:
            return match, {ai: msgpack.unpackb(base64.b64decode(raw), raw=False)
                           for ai, raw in turn}
        match.play_turn({})
    raise AssertionError(f"{game.name}: no bot was asked in two turns")


def forged(answer):
    """Variants of an honest answer no bot side sends."""
    nested = []
    for _ in range(60):
        nested = [nested]
    out = [nested, float("nan"), math.inf, -1, 1 << 70, None, b"\0" * 100_000,
           "x" * 100_000, [answer] * 3]
    if type(answer) is dict:
        out += [{**answer, "junk": b"\0" * 1000}, {**answer, 1: 2},
                {key: float("nan") for key in answer}, {key: nested for key in answer},
                {key: ["x" * 5000] * 3 for key in answer}, dict(list(answer.items())[1:])]
    if type(answer) is bytes:
        out += [answer + b"\0", answer[:-1], answer + b"x" * 1000, bytes([200]) * len(answer)]
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_games_decode_answer_takes_exactly_its_answer(name, no_stray_processes):
    game = GAMES[name]
    match, answers = first_answers(game)
    for ai, answer in answers.items():
        assert msgpack.packb(match.kept_answer(ai, answer), use_bin_type=True) == \
            msgpack.packb(answer, use_bin_type=True), (ai, answer)
        for bad in forged(answer):
            if bad == answer:
                continue
            with pytest.raises(ValueError):
                match.decode_answer(ai, bad)


def test_the_kept_answer_is_rebuilt_not_the_value_sent():
    game = GAMES["race"]
    match, answers = first_answers(game)
    sent = {"answer": ["M1"]}
    match.decode_answer(0, sent)
    kept = match.kept_answer(0, sent)
    assert kept == sent and kept is not sent and kept["answer"] is not sent["answer"]


# -- the envelope itself (sandbox/replies.py) ----------------------------------------------
HONEST = {"moves": b"\0\0\0", "errors": [[0, "ValueError: x"]], "bot_s": 0.01,
          "warn": [], "out": "hello", "out_dropped": 0, "violations": [], "busy_s": 0.02}
KEEPER = {"moves": {"answer": "NN", "problem": None}, "out": "", "out_dropped": 0,
          "violations": ["process: fork"], "busy_s": 0.1,
          "usage": {"cpu_s": 0.5, "peak_mb": 12.0, "running": 1},
          "scratch": {"heading": b"NE"}}


def test_honest_replies_pass_the_envelope():
    assert replies.reply_problem(HONEST, 3, 64 << 10) is None
    assert replies.reply_problem(KEEPER, 1, 64 << 10, program=True) is None
    assert replies.reply_problem({"fatal": "crash: x"}, 1, 0) is None
    assert replies.reply_problem({"fatal": "hang", "busy_s": 1.0, "usage": KEEPER["usage"]},
                                 1, 0, program=True) is None


def test_the_reply_type_names_the_keys_the_envelope_checks():
    """`Reply` is the checked reply's type: one key for each the envelope accepts (and a
    fatal frame's), so the type and the door cannot drift apart."""
    assert set(replies.Reply.__annotations__) == {*replies._REPLY, "fatal"}
    assert replies.reply_problem({**KEEPER, "usage": dict.fromkeys(
        replies.Usage.__annotations__, 0)}, 1, 64 << 10, program=True) is None


def test_a_checked_reply_is_the_frame_or_why_not():
    assert replies.checked_reply(HONEST, 3, 64 << 10) is HONEST
    assert replies.checked_reply({**HONEST, "junk": 1}, 3, 64 << 10) == \
        "protocol: 'junk' is not a key of a reply"
    assert replies.checked_reply([1], 3, 0) == "protocol: reply is not a map"


@pytest.mark.parametrize("change, program", [
    ({"busy_s": math.nan}, False), ({"busy_s": -math.inf}, False), ({"bot_s": 1e300}, False),
    ({"out_dropped": 1.5}, False), ({"out_dropped": True}, False),
    ({"out": "x" * 11}, False),                       # past the output room (10)
    ({"errors": [[0, "x"]] * 9}, False), ({"errors": [[3, "x"]]}, False),
    ({"errors": [[0, "x" * 1000]]}, False), ({"errors": [["0", "x"]]}, False),
    ({"warn": ["x"] * 21}, False), ({"warn": [b"x"]}, False),
    ({"violations": ["x" * 101]}, False), ({"violations": "x"}, False),
    ({"scratch": {"a": b"x"}}, False), ({"junk": 1}, False), ({1: 1}, False),
    ({"usage": {"cpu_s": math.nan, "peak_mb": 0, "running": 0}}, True),
    ({"usage": {"cpu_s": 0, "peak_mb": 0, "running": 0, "x": 1}}, True),
    ({"usage": {"cpu_s": 0, "peak_mb": -1, "running": 0}}, True),
    ({"scratch": {"a": b"x" * 2000}}, True), ({"scratch": {str(i): b"" for i in range(17)}},
                                              True),
    ({"scratch": {"a": "text"}}, True), ({"warn": []}, True),
])
def test_the_envelope_refuses_what_no_child_sends(change, program):
    frame = {**(KEEPER if program else HONEST), **change}
    problem = replies.reply_problem(frame, 3, 10, program=program)
    assert problem is not None and problem.startswith("protocol: "), (change, problem)


def test_a_fatal_frame_carries_nothing_else():
    assert replies.reply_problem({"fatal": "x", "moves": b""}, 1, 0) is not None
    assert replies.reply_problem({"fatal": 3}, 1, 0) is not None
    assert replies.reply_problem({"fatal": "x" * 5000}, 1, 0) is not None


@pytest.mark.parametrize("frame", [
    {"ready": True, "out": "", "violations": []}, {"load_error": "syntax error"},
    {"fatal": "memory limit"}])
def test_honest_answers_to_load_pass(frame):
    assert replies.ready_problem(frame, 100) is None


@pytest.mark.parametrize("frame", [
    {"ready": 1, "out": "", "violations": []}, {"ready": True, "out": "x" * 101,
                                                "violations": []},
    {"ready": True, "out": "", "violations": [""] * 21}, {"ready": True},
    {"ready": True, "out": "", "violations": [], "x": 1}, {"load_error": 5}, [1], None])
def test_forged_answers_to_load_are_refused(frame):
    assert replies.ready_problem(frame, 100) is not None


def test_a_frame_past_its_object_count_is_refused_without_walking_it():
    count = 5_000_000
    data = msgpack.packb({"moves": b"", "warn": [1] * count})
    started = time.process_time()
    with pytest.raises(_wire.FrameError, match="objects"):
        _wire.unpack(data, 1 << 30, items=replies.frame_items(3))
    # A walk of every object took 0.45 s of CPU for 5 million (measured); the cap stops
    # after a couple of hundred.
    assert time.process_time() - started < 0.05
    assert _wire.unpack(msgpack.packb(HONEST), 1 << 30, items=replies.frame_items(3)) == HONEST


def test_a_replys_byte_cap_is_sized_from_its_calls_and_its_output_room():
    limits = Limits()
    assert replies.frame_bytes(limits, 3, 0) < 64 << 10
    assert replies.frame_bytes(limits, 3, 64 << 10) < limits.reply_bytes // 2
    assert replies.frame_bytes(limits, 10_000, 64 << 10) == limits.reply_bytes


def test_a_robot_game_action_without_a_target_carries_no_location():
    game = GAMES["robotgame"]
    match, answers = first_answers(game)
    ai, answer = next(iter(answers.items()))
    guard_at = bytes([0, 7, 7]) + answer[3:]          # guard, "at" (7, 7)
    with pytest.raises(ValueError, match="takes no location"):
        match.decode_answer(ai, guard_at)


# -- programs: Robot Game's Ruby bots, Cave's keeper ---------------------------------------
# A Ruby bot writes straight to the answer stream (fd 1, which its driver keeps for its
# answers) on its first act: the keeper reads that line as the turn's answer.
RUBY_FORGER = """require 'rg'
class Robot
  def act(game)
    unless $forged
      $forged = true
      out = IO.for_fd(1, autoclose: false)
      out.sync = true
      out.write(%s + "\\n")
    end
    ['guard']
  end
end
"""
RUBY_LINES = {
    "deeply nested": ("'[' * 5000 + ']' * 5000", "protocol: the answer nests too deep"),
    # past the keeper's 64 KiB a turn: stopped, for its output
    "oversized": ("'[' + '1,' * 200_000 + '1]'", "output: the program stopped"),
    # under it: parsed by its keeper (its own CPU), and refused there
    "long": ("'[' + '1,' * 30_000 + '1]'", "protocol: expected 5 actions"),
    "NaN": ("'[' + (['[\"move\",[NaN,NaN]]'] * 40).join(',') + ']'", "protocol: expected"),
    # its own end, in its own words: cut at 200 characters
    "forged fatal": ("'{\"fatal\":\"' + 'x' * 30_000 + '\"}'", "x" * 200),
}


@pytest.mark.skipif(not __import__("shutil").which("ruby"), reason="no ruby on this machine")
@pytest.mark.parametrize("line", sorted(RUBY_LINES))
def test_a_ruby_bots_forged_answer_line_is_its_own_fault(line, tmp_path, no_stray_processes):
    game = GAMES["robotgame"]
    code, said = RUBY_LINES[line]
    path = tmp_path / "forger.rb"
    path.write_text(RUBY_FORGER % code)
    result, found, host_s = play(game, [read_bot(path), sample(game)], turns=5)
    forger = seat(result, 0)
    assert forger["status"] == "forfeit" and forger["reason"].startswith(said), forger
    assert len(forger["reason"]) <= 200
    assert seat(result, 1)["status"] == "ok"
    assert host_s < HOST_CPU_S, host_s
    for answer in kept_answers(found):
        assert type(answer) is bytes and len(answer) % 3 == 0


# A Cave program's one door is its answer line (and its stderr): what it writes past them
# is cut by its keeper, and the replay keeps the line as the game took it.
CAVE_PROGRAM = """import sys
sys.stdin.read()
sys.stdout.write({line} + "\\n")
sys.stderr.write("\\x1b[31m" * 100_000)
"""
CAVE_LINES = {
    "oversized": '"MN" * 20_000',
    "deeply nested": '"[" * 30_000',
    "NaN": '"NaN " * 5_000',
    "escapes": '"\\x1b]0;owned\\x07" * 1000',
}


@pytest.mark.parametrize("line", sorted(CAVE_LINES))
def test_a_cave_programs_answer_is_kept_as_the_game_took_it(line, tmp_path,
                                                           no_stray_processes):
    game = GAMES["cave"]
    path = tmp_path / "forger.py"
    path.write_text(CAVE_PROGRAM.format(line=CAVE_LINES[line]))
    result, found, host_s = play(game, [read_bot(path), sample(game)], turns=4)
    assert all(p["status"] == "ok" for p in result["players"]), result["players"]
    assert host_s < HOST_CPU_S, host_s
    for answer in kept_answers(found):
        assert set(answer) == {"answer", "problem"}
        assert answer["answer"] is None or len(answer["answer"]) <= 256
    forger = seat(result, 0)
    assert len(forger["output"]) <= Limits().output_bytes


# -- a match jail's per-bot content ---------------------------------------------------------
# In `--sandbox match` a bot shares the jail's process with the match loop: it can write
# into what the result and the replay will carry. The host takes neither past what the
# standard mode keeps (orchestrator/runner/jail_result.py); the match is played again there.
JAIL_FORGER = """import gc
import rg  # noqa: F401

def _forge():
{forge}

class Robot:
    def act(self, game):
        if game.turn == 2:
            _forge()
        return ['guard']
"""
JAIL_FORGERIES = {
    "junk among the kept answers": (
        "    import base64\n"
        "    for o in gc.get_objects():\n"
        "        if type(o).__name__ == 'Recorder' and getattr(o, 'setup', None):\n"
        "            o.answers[-1][0][1] = base64.b64encode(b'x' * 500_000).decode()",
        "its replay keeps an answer no game sends"),
    "a flood of notes": (
        "    for o in gc.get_objects():\n"
        "        if type(o).__name__ == 'Seat':\n"
        "            o.warnings.extend(['w'] * 10_000)",
        "its result's warnings are past what a player keeps"),
    "an own time below zero": (
        "    for o in gc.get_objects():\n"
        "        if type(o).__name__ == 'GuardedPlayer':\n"
        "            o.own_used = -1000.0",
        "its result has a malformed player"),
    "seats that are not the match's AIs": (
        "    for o in gc.get_objects():\n"
        "        if type(o).__name__ == 'Recorder':\n"
        "            o.seats = [1, 0]",
        "its replay's seats are not the AIs its result has play"),
}


@pytest.mark.parametrize("forgery", sorted(JAIL_FORGERIES))
def test_a_jails_forged_per_bot_content_is_not_taken(forgery, tmp_path, no_stray_processes):
    game = GAMES["robotgame"]
    forge, said = JAIL_FORGERIES[forgery]
    path = tmp_path / "forger.py"
    path.write_text(JAIL_FORGER.format(forge=forge))
    result, found, _ = play(game, [read_bot(path), sample(game)], "match", turns=5)
    assert result["sandbox_mode"] == "standard", result
    assert said in result["sandbox_note"], result["sandbox_note"]
    assert all(len(p["warnings"]) <= 20 for p in result["players"])
    assert len(replay.encode(found)) < 50_000


# -- what a note shows of a bot's strings ---------------------------------------------------
def test_a_players_note_shows_a_bots_strings_escaped_and_bounded():
    from orchestrator.results.notes import note
    escape = "\x1b]0;owned\x07\u202e"
    said = note({"warnings": [f"module state changed by move(): {escape}"],
                 "errors": [escape * 100], "overheats": 1,
                 "violations": [f"file: open /tmp/{escape}"] * 5})
    assert not any(ch in said for ch in "\x1b\x07\u202e"), said
    assert len(said) < 600
    assert not any(ch in note({"reason": escape, "turn": 3}) for ch in "\x1b\x07\u202e")


def test_a_warning_named_by_a_bot_is_escaped_end_to_end(tmp_path, no_stray_processes):
    game = GAMES["arena"]
    path = tmp_path / "namer.py"
    path.write_text("from roborally.api import *\nname = 'Namer'\n"
                    "def move():\n    globals()['\\x1b]0;owned\\x07' + 'n' * 200] = object()\n"
                    "    return FORWARD\n")
    result, _, _ = play(game, [read_bot(path), sample(game)], turns=2)
    from orchestrator.results.notes import note
    namer = seat(result, 0)
    assert namer["status"] == "ok" and namer["warnings"], namer
    assert all(len(w) <= 92 for w in namer["warnings"])
    assert "\x1b" not in note(namer)


def test_a_forged_answer_to_the_load_is_refused_before_the_host_walks_it(tmp_path,
                                                                        no_stray_processes):
    game = GAMES["arena"]
    path = tmp_path / "loader.py"
    # At import, the bot's code runs in its child: it rewrites the frame that says
    # it loaded, with a million violations.
    path.write_text("import sys\nfrom roborally.api import *\nname = 'Loader'\n"
                    "_wire = sys.modules['_wire']\n_write = _wire.write_frame\n"
                    "def write_frame(fd, obj):\n"
                    "    if isinstance(obj, dict) and obj.get('ready'):\n"
                    "        obj['violations'] = [''] * 1_000_000\n"
                    "    _write(fd, obj)\n"
                    "_wire.write_frame = write_frame\n"
                    "def move():\n    return FORWARD\n")
    result, _, host_s = play(game, [read_bot(path), sample(game)], turns=2)
    loader = seat(result, 0)
    assert loader["status"] == "load_error" and "protocol: " in loader["reason"], loader
    assert host_s < HOST_CPU_S, host_s
