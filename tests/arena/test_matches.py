"""Whole matches through the sandbox: results, determinism, and hostile bots."""
from __future__ import annotations

import hashlib
from pathlib import Path

from tests.support.paths import BOTS, HOSTILE
from tests.support.sandbox import by_name, play

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
    strip = lambda r: [{k: v for k, v in p.items() if k not in ("cpu_s", "own_s", "peak_rss_mb")}
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


# -- erase and replay, module state ---------------------------------------------------------
# The hostile bots themselves are in tests/sandbox/test_hostile.py.
def test_erased_match_equals_a_match_without_the_bot() -> None:
    """Only the replayed match counts: it is the match the others would play alone."""
    with_bomb = play([BOTS / "beeline.py", HOSTILE / "spinner_loop.py", BOTS / "turtle.py"],
                     seed=4, robots=3, turns=15)
    without = play([BOTS / "beeline.py", BOTS / "turtle.py"], seed=4, robots=3, turns=15)
    keep = ("name", "rank", "stats", "overheats")
    ok = [{k: p[k] for k in keep} for p in with_bomb["players"] if p["status"] == "ok"]
    assert ok == [{k: p[k] for k in keep} for p in without["players"]]
    assert with_bomb["turns"] == without["turns"]


def test_engine_peeker_finds_the_engine_in_process() -> None:
    """Sandboxed, the peeker finds nothing (tests/sandbox); in-process the engine is right
    there, and the same bot overheats, so that test can fail."""
    exposed = play([HOSTILE / "engine_peeker.py", BOTS / "randy.py"], robots=2, turns=2,
                   sandbox="off")
    assert by_name(exposed)["Peeker"]["overheats"] > 0


def test_shared_module_state_is_reported() -> None:
    gossip = Path(__file__).parent / "bots" / "shared_state.py"
    result = play([gossip, BOTS / "randy.py"], robots=2, turns=3)
    assert by_name(result)["Gossip"]["warnings"] == ["module state changed by move(): seen"]
    assert by_name(result)["Randy"]["warnings"] == []
