"""Whole matches through the sandbox: results, determinism, and hostile bots."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from engine.arena.rules import rules_from
from orchestrator.bots import read_bot
from orchestrator.match import MatchSpec, run_match
from sandbox.limits import Limits
from tests.conftest import BOTS, HOSTILE, MAPS

FAST = Limits(cpu_per_call_s=0.3, wall_per_call_s=1.0, watchdog_grace_s=3.0)


def play(bot_paths, *, seed=1, robots=4, turns=25, mapname="tiny", sandbox="standard",
         limits=FAST, trace=None) -> dict:
    spec = MatchSpec("arena", MAPS / f"{mapname}.txt", [read_bot(p) for p in bot_paths], seed,
                     rules_from("seed", robots_per_type=robots, max_turns=turns), limits,
                     sandbox)
    return run_match(spec, trace=trace)


def by_name(result: dict) -> dict[str, dict]:
    return {p["name"]: p for p in result["players"]}


SAMPLES = [BOTS / "beeline.py", BOTS / "hunter.py", BOTS / "turtle.py", BOTS / "randy.py"]


def state_digests() -> tuple[list[str], callable]:
    digests: list[str] = []

    def trace(match) -> None:
        digests.append(hashlib.sha256(repr(match.snapshot()).encode()).hexdigest())
    return digests, trace


def test_same_seed_same_match_turn_by_turn(no_stray_processes) -> None:
    first, trace1 = state_digests()
    second, trace2 = state_digests()
    a = play(SAMPLES, seed=11, robots=6, turns=60, trace=trace1)
    b = play(SAMPLES, seed=11, robots=6, turns=60, trace=trace2)
    strip = lambda r: [{k: v for k, v in p.items() if k not in ("cpu_s", "peak_rss_mb")}
                       for p in r["players"]]
    assert strip(a) == strip(b)
    assert {k: v for k, v in a.items() if k != "players"} == \
        {k: v for k, v in b.items() if k != "players"}
    assert first == second and len(first) == a["turns"]
    c = play(SAMPLES, seed=12, robots=6, turns=60)
    assert strip(c) != strip(a)


def test_sandbox_off_plays_the_same_match(no_stray_processes) -> None:
    digests_on, trace_on = state_digests()
    digests_off, trace_off = state_digests()
    on = play(SAMPLES, seed=5, robots=5, turns=40, trace=trace_on)
    off = play(SAMPLES, seed=5, robots=5, turns=40, sandbox="off", trace=trace_off)
    assert digests_on == digests_off
    assert [p["rank"] for p in on["players"]] == [p["rank"] for p in off["players"]]


def test_result_records_seed_version_and_hashes() -> None:
    result = play(SAMPLES[:2], seed=9, turns=5)
    assert result["seed"] == 9 and result["engine_version"]
    for player in result["players"]:
        digest = hashlib.sha256(Path(player["bot"]).read_bytes()).hexdigest()
        assert player["sha256"] == digest
        assert player["cpu_s"] > 0 and player["peak_rss_mb"] > 0
        assert {"max_flags", "total_flags", "alive", "last_alive_turn"} <= set(player["stats"])


def test_same_bot_twice_gets_numbered_names() -> None:
    result = play([BOTS / "randy.py", BOTS / "randy.py", BOTS / "randy.py"], turns=3)
    assert sorted(by_name(result)) == ["Randy", "Randy #2", "Randy #3"]


# -- hostile bots ----------------------------------------------------------------------------
def test_raising_bot_overheats_every_robot_every_turn(no_stray_processes) -> None:
    result = play([HOSTILE / "raiser.py", BOTS / "turtle.py"], robots=3, turns=6)
    raiser, turtle = by_name(result)["Raiser"], by_name(result)["Turtle"]
    assert raiser["status"] == "ok"
    assert raiser["overheats"] == raiser["stats"]["decisions"] > 0
    assert "ValueError: boom" in raiser["errors"]
    assert turtle["status"] == "ok" and turtle["overheats"] == 0


def test_garbage_answers_overheat(no_stray_processes) -> None:
    result = play([HOSTILE / "garbage.py", BOTS / "beeline.py"], robots=3, turns=6)
    garbage = by_name(result)["Garbage"]
    assert garbage["status"] == "ok"
    assert garbage["overheats"] == garbage["stats"]["decisions"] > 0
    assert any("invalid move" in e for e in garbage["errors"])
    assert by_name(result)["Beeline"]["overheats"] == 0


@pytest.mark.parametrize("bot,reason", [
    ("spinner_loop.py", "cpu time limit"),
    ("sleeper.py", "wall time limit (hang)"),
    ("memory_bomb.py", "memory limit"),
    ("memory_bomb_caught.py", "memory limit"),
    ("exits.py", "exited with status 0"),
    ("sys_exit.py", "exited (SystemExit)"),
    ("segfault.py", "crash: killed by SIGSEGV"),
])
def test_fatal_bots_are_erased_and_the_match_replayed(bot, reason, no_stray_processes) -> None:
    limits = Limits(cpu_per_call_s=0.5, wall_per_call_s=1.0, watchdog_grace_s=3.0,
                    memory_mb=128)
    result = play([BOTS / "beeline.py", HOSTILE / bot, BOTS / "turtle.py"], robots=3, turns=12,
                  limits=limits)
    players = result["players"]
    erased = [p for p in players if p["status"] == "erased"]
    assert len(erased) == 1 and erased[0]["bot"].endswith(bot)
    assert erased[0]["reason"] == reason
    assert erased[0]["turn"] == 1
    assert erased[0]["rank"] == 3
    assert erased[0]["peak_rss_mb"] > 0      # measured however the child ended
    assert result["restarts"] == 1
    survivors = [p for p in players if p["status"] == "ok"]
    assert [p["name"] for p in survivors] and all(p["overheats"] == 0 for p in survivors)
    assert result["turns"] >= 1 and result["end"] in ("turn_limit", "survivor", "extinction",
                                                      "flags")


def test_erased_match_equals_a_match_without_the_bot() -> None:
    """Only the replayed match counts: it is the match the others would play alone."""
    with_bomb = play([BOTS / "beeline.py", HOSTILE / "spinner_loop.py", BOTS / "turtle.py"],
                     seed=4, robots=3, turns=15)
    without = play([BOTS / "beeline.py", BOTS / "turtle.py"], seed=4, robots=3, turns=15)
    keep = ("name", "rank", "stats", "overheats")
    ok = [{k: p[k] for k in keep} for p in with_bomb["players"] if p["status"] == "ok"]
    assert ok == [{k: p[k] for k in keep} for p in without["players"]]
    assert with_bomb["turns"] == without["turns"]


def test_megabyte_printer_does_not_break_the_protocol(no_stray_processes) -> None:
    limits = Limits(output_bytes=1000)
    result = play([HOSTILE / "printer.py", BOTS / "randy.py"], robots=2, turns=4, limits=limits)
    printer = by_name(result)["Printer"]
    assert printer["status"] == "ok" and printer["overheats"] == 0
    assert printer["output"] == "x" * 1000


@pytest.mark.parametrize("bot,reason", [
    ("syntax_error.py", "syntax error"),
    ("import_loop.py", "cpu time limit at import"),
    ("no_move.py", "no move() function"),
])
def test_unloadable_bots_are_load_errors(bot, reason, no_stray_processes) -> None:
    result = play([HOSTILE / bot, BOTS / "randy.py", BOTS / "beeline.py"], robots=2, turns=3)
    broken = result["players"][-1]
    assert broken["status"] == "load_error" and reason in broken["reason"]
    assert broken["rank"] == 3 and result["restarts"] == 0
    assert all(p["status"] == "ok" for p in result["players"][:2])


def test_bot_cannot_import_or_find_the_engine() -> None:
    """The peeker raises (so overheats) when it can see the engine; sandboxed it cannot."""
    result = play([HOSTILE / "engine_peeker.py", BOTS / "randy.py"], robots=2, turns=2)
    assert by_name(result)["Peeker"]["overheats"] == 0
    # In-process the engine is right there: the same bot overheats, so the test can fail.
    exposed = play([HOSTILE / "engine_peeker.py", BOTS / "randy.py"], robots=2, turns=2,
                   sandbox="off")
    assert by_name(exposed)["Peeker"]["overheats"] > 0


def test_shared_module_state_is_reported() -> None:
    result = play([HOSTILE / "shared_state.py", BOTS / "randy.py"], robots=2, turns=3)
    assert by_name(result)["Gossip"]["warnings"] == ["module state changed by move(): seen"]
    assert by_name(result)["Randy"]["warnings"] == []
