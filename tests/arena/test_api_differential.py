"""The reworked roborally.api answers exactly as the api before its rework did.

Recorded views of a real match go through a probe bot that asks every helper (with good
and bad arguments) under both versions: the frozen copy in bench/api_before/ and the
current sandbox/botlib. The logs of answers, and the moves, must be identical.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from api_replay import record, replay_fresh  # noqa: E402

PROBE = Path(__file__).parent / "bots" / "api_probe.py"


def test_every_helper_answers_as_before_on_recorded_views(tmp_path: Path) -> None:
    views = tmp_path / "views.msgpack"
    assert record(views, turns=24, every=4) >= 40
    before, after = replay_fresh("before", PROBE, views, probe=True), \
        replay_fresh("after", PROBE, views, probe=True)
    assert before["decisions"] > 500
    assert len(after["log"]) == before["decisions"]
    for old, new in zip(before["log"], after["log"], strict=True):
        assert new == old
    assert after["moves"] == before["moves"]
    # The views exercised what the helpers are for: a fall, a bump, a push, being shot
    # and a target, each in some view.
    cases = [ast.literal_eval(line)[0] for line in after["log"]]
    assert all(any(case[k] for case in cases) for k in range(5)), cases


def test_the_bench_bots_move_as_before(tmp_path: Path) -> None:
    views = tmp_path / "views.msgpack"
    record(views, turns=12, every=3)
    for bot in sorted((ROOT / "bench" / "arena_bots").glob("*.py")):
        before, after = replay_fresh("before", bot, views), replay_fresh("after", bot, views)
        assert before["moves"] == after["moves"]
