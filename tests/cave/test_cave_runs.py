"""Cave Rangers through the orchestrator: `arena check`'s verdicts for programs, whole
matches of the samples (and their determinism), batches, replays and cavern files."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from orchestrator.options import CheckSettings
from orchestrator.runner.match import MatchSpec, run_match
from orchestrator.service.check import check_bot
from sandbox.limits import Limits
from tests.support.cave import GAME, HOSTILE, SAMPLES
from tests.support.cli import arena

SMALL = Limits(cpu_per_call_s=1.0, wall_per_call_s=1.0, watchdog_grace_s=5.0, memory_mb=160,
               first_wall_s=5.0, output_bytes=16 << 10)
SAMPLE_NAMES = ["forager", "wanderer", "miner", "scout", "digger"]    # digger: built from C


@pytest.mark.parametrize(("bot", "failure"), [
    (SAMPLES / "forager.py", None), ("digger", None),
    (HOSTILE / "glutton.py", "memory"), (HOSTILE / "silent.sh", "hang|cpu"),
    (HOSTILE / "raiser.py", "crash"), (HOSTILE / "flood.py", "output"),
    (HOSTILE / "forker.py", "sandbox"), (HOSTILE / "nonsense.sh", "invalid"),
], ids=lambda v: v.name if isinstance(v, Path) else str(v))
def test_check_names_what_went_wrong(bot: Path | str, failure: str | None) -> None:
    found = check_bot(bot, "cave", CheckSettings(turns=3, once=True), limits=SMALL)
    kinds = failure.split("|") if failure else [None]     # a spinner: either, by a hair
    assert found["failure"] in kinds, found["reason"]
    assert found["ok"] is (failure is None)
    if failure:
        assert found["reason"].startswith(found["failure"])


def test_check_on_a_missing_runtime_is_a_load_error(tmp_path) -> None:
    bot = tmp_path / "bot.pl"
    bot.write_text("#!/usr/bin/env no-such-perl\n")
    done = arena("check", "--game", "cave", str(bot), timeout=120)
    assert done.returncode == 1
    said = done.stderr.strip().splitlines()[-1]
    assert said == (f"error: {bot}: load_error: runtime 'no-such-perl' is not installed on "
                    f"this machine (needed to run bot.pl)")


def _match(seed: int, sandbox: str = "standard", turns: int = 12) -> dict:
    from orchestrator.runner.bots import read_bot
    bots = [read_bot(name, "cave") for name in SAMPLE_NAMES]
    spec = MatchSpec("cave", GAME.find_map(None), bots, seed,
                     GAME.rules("seed", max_turns=turns), None, sandbox)
    return run_match(spec)


def _outcome(result: dict) -> list:
    return [(p["name"], p["rank"], p["status"], p["stats"]) for p in result["players"]]


def test_five_samples_in_four_languages_play_cleanly_and_the_same_twice() -> None:
    first = _match(7)
    assert {p["name"] for p in first["players"]} == {"forager", "wanderer", "miner", "scout",
                                                     "digger"}
    for p in first["players"]:
        assert p["status"] == "ok" and p["stats"]["faults"] == {}, p
        assert p["stats"]["invalid"] == 0, p
    assert _outcome(_match(7)) == _outcome(first)


def test_the_sandbox_off_plays_the_same_match() -> None:
    assert _outcome(_match(9, "off", turns=6)) == _outcome(_match(9, turns=6))


def test_the_forager_beats_the_simple_bots_on_average() -> None:
    """The strong sample: over a few seeds, its average score is the best."""
    totals: dict[str, int] = {}
    for seed in range(1, 5):
        for p in _match(seed, turns=50)["players"]:
            totals[p["name"]] = totals.get(p["name"], 0) + p["stats"]["score"]
    assert totals["forager"] > max(v for k, v in totals.items() if k in ("miner", "digger"))


def test_run_json_result_and_replay(tmp_path) -> None:
    target = tmp_path / "cave.json.gz"
    done = arena("run", "--game", "cave", "--seed", "4", "--max-turns", "5", "--json", "--replay",
                 str(target), str(SAMPLES / "forager.py"), str(SAMPLES / "miner.sh"), timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["game"] == "cave" and result["turns"] == 5 and result["seed"] == 4
    assert all(len(p["sha256"]) == 64 for p in result["players"])
    from orchestrator.replay import file as replay
    data = replay.load(target)
    frames = list(replay.frames(data))
    assert len(frames) == 6
    assert {row[0] for row in frames[-1][1]["bots"].values()} == {0, 1}
    assert data["map"]["size"] == 50


def test_maps_generate_writes_a_cavern_that_run_loads(tmp_path) -> None:
    target = tmp_path / "cave.txt"
    done = arena("maps", "generate", "--game", "cave", "--bots", "2", "--seed", "3", "--out",
                 str(target), timeout=60)
    assert done.returncode == 0, done.stderr
    rows = [r for r in target.read_text().splitlines() if r and not r.startswith("#")]
    assert len(rows) == 50 and all(len(r) == 50 for r in rows)
    done = arena("maps", "validate", "--game", "cave", str(target), timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("ok:"), done.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("# a comment\n-----\n--X--\n")
    done = arena("maps", "validate", "--game", "cave", str(bad), timeout=60)
    assert done.returncode == 2
    # As an editor counts: line 3 of the file (its comment counted), column 3.
    assert done.stderr.strip() == f"error: {bad}:3:3: unknown symbol 'X'"
