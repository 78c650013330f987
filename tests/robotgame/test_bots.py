"""Robot Game through the sandbox: rgkit bots unmodified, time limits, forfeits."""
from __future__ import annotations

import dataclasses
import hashlib

import pytest

from orchestrator.options import CheckSettings
from orchestrator.service.check import check_bot
from sandbox.limits import Limits
from tests.support.paths import ROOT
from tests.support.robotgame import SAMPLES, play, player

HERE = ROOT / "tests" / "robotgame" / "bots"
FAST = Limits(cpu_per_call_s=1.0, act_soft_s=0.1, first_act_soft_s=0.1, wall_per_call_s=2.0,
              watchdog_grace_s=3.0, memory_mb=256)


@pytest.mark.parametrize("a,b", [("coordinator.py", "example.py"), ("rusher.py", "survivor.py")])
def test_sample_bots_play_clean_games(a, b, no_stray_processes) -> None:
    result = play(SAMPLES / a, SAMPLES / b)
    assert result["turns"] == 100 and result["end"] == "turn_limit"
    for p in result["players"]:
        assert p["status"] == "ok" and p["overheats"] == 0 and p["stats"]["timeouts"] == 0
        assert p["stats"]["spawned"] == 50
    ranks = sorted(p["rank"] for p in result["players"])
    scores = [p["stats"]["robots"] for p in result["players"]]
    assert ranks == ([1, 1] if scores[0] == scores[1] else [1, 2])


def test_the_seeds_example_runs_verbatim() -> None:
    result = play(HERE / "seed_example_verbatim.py", SAMPLES / "rusher.py", turns=30)
    me = player(result, HERE / "seed_example_verbatim.py")
    assert me["status"] == "ok" and me["overheats"] == 0 and me["stats"]["decisions"] > 50


def test_rgkit_api_and_installed_packages_like_numpy_work_in_the_sandbox() -> None:
    result = play(HERE / "api_checker.py", SAMPLES / "example.py", turns=12)
    me = player(result, HERE / "api_checker.py")
    assert me["status"] == "ok", me["reason"]
    assert me["overheats"] == 0, me["errors"]
    assert me["stats"]["decisions"] > 0
    assert "seccomp" in result["sandbox"] and "fs_view" in result["sandbox"] or \
        result["sandbox_missing"]


def test_an_act_past_its_limit_is_a_timeout_and_the_robot_guards() -> None:
    result = play(HERE / "slowpoke.py", SAMPLES / "survivor.py", turns=2, limits=FAST)
    me = player(result, HERE / "slowpoke.py")
    assert me["status"] == "ok" and me["stats"]["timeouts"] == me["stats"]["decisions"] > 0
    assert me["stats"]["robots"] == 5           # it asked to suicide; it guarded instead
    assert "timeout" in me["errors"][0]


def test_two_turns_of_timeouts_only_forfeit_the_match() -> None:
    result = play(HERE / "slowpoke.py", SAMPLES / "survivor.py", turns=10, limits=FAST)
    me = player(result, HERE / "slowpoke.py")
    assert me["status"] == "forfeit" and me["reason"].startswith("timeout: every act"), me
    assert me["turn"] == 2 and result["end"] == "forfeit"       # robots act from turn 1


@pytest.mark.parametrize("bot,status,reason", [
    ("stubborn.py", "forfeit", "cpu time limit"),
    ("crasher.py", "forfeit", "exited with status 3"),
    ("hog.py", "forfeit", "memory limit"),
    ("no_robot.py", "load_error", "no Robot class"),
    ("broken_init.py", "load_error", "Robot() raised: RuntimeError: cannot start"),
])
def test_a_dead_bot_forfeits_and_the_other_wins(bot, status, reason, no_stray_processes) -> None:
    # Filling 256 MiB can take longer than FAST's 0.1 s act limit on a busy machine; then
    # the robot would only time out and guard. On a busy machine (every core running a
    # test) a spinning bot also gets less than a core: the wall limit must not come first.
    limits = dataclasses.replace(FAST, act_soft_s=2.0, first_act_soft_s=2.0,
                                 cpu_per_call_s=4.0, wall_per_call_s=12.0) \
        if bot == "hog.py" else dataclasses.replace(FAST, wall_per_call_s=6.0) \
        if bot == "stubborn.py" else FAST
    result = play(HERE / bot, SAMPLES / "example.py", turns=20, limits=limits)
    me, other = player(result, HERE / bot), player(result, SAMPLES / "example.py")
    assert me["status"] == status and reason in me["reason"], me["reason"]
    assert me["rank"] == 2 and other["rank"] == 1 and other["status"] == "ok"
    assert result["end"] == "forfeit" and result["winner"] == other["name"]
    assert result["restarts"] == 0
    if status == "forfeit":
        assert me["turn"] == 1 and result["turns"] == 1     # robots first act on turn 1


def digests():
    seen: list[str] = []
    return seen, lambda match: seen.append(
        hashlib.sha256(repr(match.snapshot()).encode()).hexdigest())


def test_same_seed_same_game_sandboxed_or_not() -> None:
    first, trace1 = digests()
    second, trace2 = digests()
    third, trace3 = digests()
    a, b = SAMPLES / "coordinator.py", SAMPLES / "survivor.py"
    one = play(a, b, seed=7, trace=trace1)
    two = play(a, b, seed=7, trace=trace2)
    off = play(a, b, seed=7, trace=trace3, sandbox="off")
    assert first == second == third and len(first) == 100
    assert [p["stats"] for p in one["players"]] == [p["stats"] for p in two["players"]] == \
        [p["stats"] for p in off["players"]]
    other, trace4 = digests()
    play(a, b, seed=8, trace=trace4)
    assert other != first


def test_check_passes_samples_and_fails_a_forfeit() -> None:
    assert check_bot(SAMPLES / "rusher.py", "robotgame", CheckSettings(turns=30, once=True))["ok"]
    found = check_bot(HERE / "crasher.py", "robotgame", CheckSettings(turns=10, once=True),
                      limits=FAST)
    assert not found["ok"] and found["failure"] == "crash"
    slow = check_bot(HERE / "slowpoke.py", "robotgame", CheckSettings(turns=3, once=True),
                     limits=FAST)
    assert not slow["ok"] and slow["failure"] == "timeout" and "time limit" in slow["reason"]
