"""A bot that floods marks and notes every turn: it is cut at the caps, on its
own CPU, with one warning and never an error; the host's CPU for the match and the replay's
size stay within the caps, beside an honest bot's.

Figures (`python bench/marks_cost.py robotgame 100`: 100 turns of Robot Game against the
example robot, the host process's own CPU clock) on the 2-core test machine: without marks
0.046 s of host CPU and 57 KB of replay JSON; the honest thinker 0.051 s and 113 KB; the
flood (6,000 marks a robot a turn) 0.124 s and 1,043 KB (its AI's 1 MiB budget), its own
CPU 1.2 s. The bound here is far from both.
"""
from __future__ import annotations

import json
import time

import pytest

from orchestrator.games import GAMES
from orchestrator.replay import debug
from orchestrator.replay import file as replay
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match
from tests.support.thinkers import THINKERS, opponent, thinker

HOST_CPU_S = 1.5           # the host's own CPU for the match (test_replies' bound)
TURNS = 30


def played(name: str, bot) -> tuple[dict, dict, float]:
    game = GAMES[name]
    spec = MatchSpec(name, game.find_map(None), [bot, opponent(name)], 1,
                     game.rules(game.presets[0], max_turns=TURNS))
    replays: list[dict] = []
    started = time.process_time()
    result = run_match(spec, replays=replays)
    replay.encode(replays[0])
    return result, replays[0], time.process_time() - started


def section_bytes(data: dict) -> int:
    return len(json.dumps(data.get(debug.SECTION, {}), separators=(",", ":")))


@pytest.mark.parametrize("name", ["robotgame", "cave"])
def test_a_flood_of_marks_is_cut_at_the_caps_and_costs_the_host_little(name, tmp_path) -> None:
    honest_result, honest, honest_s = played(name, read_bot(thinker(name)))
    result, flood, flood_s = played(name, read_bot(THINKERS / f"flood_{name}.py"))
    flooder = next(p for p in result["players"] if p["seat"] == 0)
    assert flooder["status"] == "ok", flooder                  # never an error
    assert flooder["warnings"].count(debug.CUT_WARNING) == 1    # one warning
    assert debug.CUT_WARNING not in next(
        p for p in honest_result["players"] if p["seat"] == 0)["warnings"]
    section = flood[debug.SECTION]
    assert set(section) == {"0"}
    for kept in section["0"].values():
        assert sum(len(items) for items in kept.values()) <= debug.TURN_MARKS
        assert sum(len(text) for _, text in kept.get("notes", [])) <= debug.TURN_NOTE_CHARS
    # What the match keeps: within the AI's budget (each mark's bytes and its turn's keys).
    assert section_bytes(flood) <= debug.budget(2) + 64 * len(flood["turns"])
    assert section_bytes(flood) > section_bytes(honest)
    # The replay reads back through the bounded reader.
    path = replay.save(flood, tmp_path / "flood.json.gz")
    assert replay.load(path)[debug.SECTION] == section
    # The host's own CPU: a bounded multiple of the honest match's, far under the bound.
    assert flood_s < HOST_CPU_S and honest_s < HOST_CPU_S, (flood_s, honest_s)


def test_the_match_budget_holds_for_many_ais() -> None:
    """Every AI's marks together stay under what leaves the game room in a replay."""
    for ais in (1, 2, 4, 8, 256):
        assert debug.budget(ais) * ais <= max(debug.TOTAL_BYTES, debug.MATCH_BYTES)
