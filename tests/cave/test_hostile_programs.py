"""The hostile suite for executable bots (Cave Rangers): each program gets what
spec/cave.md says, its refused attempts are recorded, the other bots finish their game,
and the host is unharmed (its Shmem and task count back where they were too), under the
`standard` and `bwrap` tiers. As root, tests/sandbox/test_ordinary_user.py runs this file
as an ordinary user too. The C programs are compiled with `cc` at test time."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match, scratch_files
from sandbox.botlib import child_module
from sandbox.inprocess import child_runtime
from sandbox.limits import Limits
from tests.support.cave import GAME, HOSTILE, SAMPLES
from tests.support.marks import HOST_WIDE
from tests.support.paths import ESCAPES
from tests.support.sandbox import (
    TIERS,
    assert_host_load_back,
    host_load,
    knocked,
    sandbox_pids,
    survivors,
    tier_layers,
)
from tests.support.waiting import wait_until

TASKS_REFUSED = child_module("_attempts").TASKS_REFUSED

pytestmark = HOST_WIDE
LIMITS = Limits(cpu_per_call_s=1.0, wall_per_call_s=1.0, watchdog_grace_s=5.0,
                memory_mb=160, first_wall_s=5.0, output_bytes=16 << 10)
TURNS = 3
OUTSIDE = ESCAPES          # tests/conftest.py removes them before and after each test


@dataclass(frozen=True)
class Case:
    bot: str
    fault: str = ""               # the fault counted every turn it plays (none: clean)
    violation: str = ""           # a refused attempt the record must hold
    violation_with: str = ""      # ...only when this layer (a mechanism) is active
    persistent_hang: bool = False
    stopped_for: str = ""         # a persistent program stopped once for this, then holds
    limits: Limits = field(default=LIMITS)

    def __str__(self) -> str:
        return self.bot


CASES = [
    Case("silent.sh", fault="hang|cpu"),
    Case("sleeper.py", persistent_hang=True),
    Case("forker.py", violation="process: clone"),
    Case("snoop.py"),
    Case("flood.py", fault="output"),
    Case("hoarder.py"),
    Case("knocker.py", violation="socket: socket"),
    Case("glutton.py", fault="memory"),
    Case("shm_hoarder.c", violation="memory: shmget"),
    Case("memfd_hoarder.c", violation="memory: memfd_create"),
    # Refused past the cap either way; counted (recorded) where a pids cgroup holds it.
    Case("thread_hoarder.c", violation=f"tasks: {TASKS_REFUSED}", violation_with="pids_cgroup"),
    # Any CPU between turns is past this match's allowance: charged, stopped, then holds.
    Case("spinner.c", stopped_for="cpu", limits=replace(LIMITS, idle_cpu_s=0.005)),
    Case("execer.c", violation="process: execveat"),
    Case("name_hoarder.py"),
]


@pytest.fixture(scope="session")
def compiled(tmp_path_factory) -> Path:
    """The hostile C programs, compiled for this machine."""
    cc = shutil.which("cc")
    if cc is None:
        pytest.skip("the hostile C programs need a C compiler (cc)")
    out = tmp_path_factory.mktemp("hostile-c")
    for source in HOSTILE.glob("*.c"):
        subprocess.run([cc, "-O1", "-pthread", "-o", str(out / source.stem), str(source)],
                       check=True, capture_output=True, timeout=120)
    return out


def bot_path(bot: str, compiled_dir: Path | None) -> Path:
    return compiled_dir / bot.removesuffix(".c") if bot.endswith(".c") else HOSTILE / bot


def play(bots: list[Path], sandbox: str, turns: int = TURNS, seed: int = 5,
         limits: Limits = LIMITS, scratch: list | None = None) -> dict:
    spec = MatchSpec("cave", GAME.find_map(None), [read_bot(b) for b in bots], seed,
                     GAME.rules("seed", max_turns=turns), limits, sandbox, scratch=scratch)
    return run_match(spec)


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.parametrize("case", CASES, ids=str)
def test_hostile_program(case: Case, tier: str, listeners, no_stray_processes,
                         request) -> None:
    active, _ = tier_layers(tier)                   # skips the bwrap tier without bwrap
    path = bot_path(case.bot, request.getfixturevalue("compiled")
                    if case.bot.endswith(".c") else None)
    before = sandbox_pids()
    load_before = host_load()
    # A spinning thread is charged for what it used between turns: on a loaded machine
    # the gaps between turns are short and its share of them small, so it gets many turns
    # to go past its allowance (it is stopped within a few on a quiet one).
    turns = 40 if case.stopped_for else 5 if case.persistent_hang else TURNS
    result = play([path, SAMPLES / "forager.py", SAMPLES / "miner.sh"], tier,
                  turns=turns, limits=case.limits)
    me = next(p for p in result["players"] if p["bot"] == str(path))
    others = [p for p in result["players"] if p is not me]
    stats = me["stats"]
    assert me["status"] == "ok", me                   # a program is never erased for this
    if case.fault:
        assert sum(stats["faults"].values()) == stats["decisions"] == TURNS, stats
        assert set(stats["faults"]) <= set(case.fault.split("|")), stats
        assert stats["invalid"] == TURNS
    elif case.persistent_hang:
        # Turn 1 answered; 2 late: stopped; 3 answered by the restarted program; 4 late:
        # stopped for good; 5 holds.
        assert stats["faults"] == {"hang": 2} and stats["invalid"] == 3, stats
    elif case.stopped_for:
        # Stopped once for it at some turn after the first; held every turn from then on.
        assert stats["faults"] == {case.stopped_for: 1}, stats
        assert 1 <= stats["invalid"] <= turns - 1, stats
    else:
        assert stats["faults"] == {} and stats["invalid"] == 0, (stats, me["output"])
    if case.violation and (not case.violation_with or case.violation_with in active):
        assert case.violation in me["violations"], me["violations"]
    if case.bot in ("hoarder.py", "name_hoarder.py"):
        files = scratch_files(me["scratch"])
        assert sum(len(name.encode()) + len(data) for name, data in files.items()) <= 1024, files
    if case.bot == "hoarder.py":
        assert "File too large" in me["output"] or "No space" in me["output"], me["output"]
    # The host is unharmed, and the others played their game.
    assert "LEAK" not in json.dumps(result), me["output"]
    assert all(p["status"] == "ok" and p["stats"]["faults"] == {} and
               p["stats"]["invalid"] == 0 for p in others), others
    assert result["turns"] == turns or result["end"] != "turn_limit"
    assert not knocked(listeners), "a program reached the host over the network"
    assert not [p for p in OUTSIDE if p.exists()], "a program wrote outside its scratch"
    assert not survivors(before), "a sandboxed process survived the match"
    assert_host_load_back(load_before)


def test_every_hostile_c_program_has_a_case() -> None:
    assert {p.name for p in HOSTILE.glob("*.c")} <= {c.bot for c in CASES}


SPINNER = """import sys, threading
def spin():
    while True:
        pass
threading.Thread(target=spin, daemon=True).start()
for line in sys.stdin:
    if line == "\\n":
        print("HNNHNN", flush=True)
"""


def test_a_program_is_charged_for_cpu_between_turns(tmp_path) -> None:
    """The keeper's runner, alone: what a persistent program's threads use while no turn
    is asked counts against the next turn and the match's idle allowance."""
    child_runtime()                         # the keeper's modules, by their own names
    from _program import Runner  # noqa: PLC0415
    bot = tmp_path / "spin.py"
    bot.write_text(SPINNER)
    limits = Limits(idle_cpu_s=0.2, cpu_per_call_s=5.0).for_child()
    runner = Runner(["python3", str(bot)], shutil.which("python3"), limits, True,
                    str(tmp_path))
    try:
        first = runner.turn("x\n")
        assert first["moves"] == {"answer": "HNNHNN", "problem": None}, first
        # Between turns the thread spins on: until it has used more than the allowance
        # (on a busy machine that takes longer than on an idle one).
        spinning = runner.program
        wait_until(lambda: spinning.cpu() - spinning.cpu_at_turn > 0.3, 20,
                   "the thread to spin past its allowance")
        second = runner.turn("x\n")
        assert second["moves"]["problem"] == "cpu", second
        assert runner.idle_cpu > 0.2
        assert runner.turn("x\n")["moves"] == {"answer": None, "problem": None}   # holds
    finally:
        runner.stop()


def test_a_missing_runtime_is_a_load_error_naming_it(tmp_path) -> None:
    bot = tmp_path / "bot.rb"
    bot.write_text("#!/usr/bin/env no-such-runtime\nputs 'HNNHNN'\n")
    result = play([bot, SAMPLES / "miner.sh"], "standard", turns=2)
    me = next(p for p in result["players"] if p["bot"] == str(bot))
    assert me["status"] == "load_error"
    assert "runtime 'no-such-runtime' is not installed" in me["reason"]


def test_a_file_with_no_runtime_is_a_load_error(tmp_path) -> None:
    bot = tmp_path / "bot.txt"
    bot.write_text("HNNHNN\n")
    result = play([bot, SAMPLES / "miner.sh"], "standard", turns=1)
    me = next(p for p in result["players"] if p["bot"] == str(bot))
    assert me["status"] == "load_error" and "cannot tell how to run it" in me["reason"]


def test_the_scratch_directory_persists_across_a_series_and_is_private() -> None:
    """Wanderer keeps its heading in its scratch; a game started from what it left has
    the file already; another bot never sees it."""
    first = play([SAMPLES / "wanderer.py", HOSTILE / "snoop.py"], "standard", turns=2)
    left = [p.get("scratch") for p in sorted(first["players"], key=lambda p: p["seat"])]
    assert set(scratch_files(left[0])) == {"heading"}
    assert scratch_files(left[1]) == {}
    seeded = [{"heading": b"SS"}, {}]
    again = play([SAMPLES / "wanderer.py", HOSTILE / "snoop.py"], "standard", turns=1,
                 scratch=seeded)
    wanderer = next(p for p in again["players"] if p["seat"] == 0)
    assert scratch_files(wanderer["scratch"])["heading"] in (b"SS", b"WW", b"SW", b"NW",
                                                             b"NN", b"NE", b"EE", b"SE")
    assert "LEAK" not in json.dumps(again)


@pytest.mark.skipif(os.geteuid() != 0 and not os.access("/usr/bin/node", os.X_OK),
                    reason="node is not installed (make test installs it as root)")
def test_node_starts_and_plays_under_the_default_memory_cap() -> None:
    result = play([SAMPLES / "scout.js", SAMPLES / "miner.sh"], "standard", turns=3,
                  limits=GAME.limits)
    scout = next(p for p in result["players"] if p["name"] == "scout")
    assert scout["stats"]["faults"] == {} and scout["stats"]["invalid"] == 0, scout


def test_without_the_sandbox_the_snoop_gets_through() -> None:
    """The snoop's attacks are real: with --sandbox off it reads the project's files."""
    result = play([HOSTILE / "snoop.py", SAMPLES / "miner.sh"], "off", turns=1)
    assert "LEAK: read" in json.dumps(result)


def test_a_program_runs_with_the_seccomp_layer_left_off() -> None:
    """Without its filter (no libseccomp, or skipped) a program execs its runtime by path."""
    spec = MatchSpec("cave", GAME.find_map(None), [read_bot(SAMPLES / "miner.sh")], 1,
                     GAME.rules("seed", max_turns=2), LIMITS, "standard",
                     skip_layers=("seccomp",))
    result = run_match(spec)
    miner = result["players"][0]
    assert "seccomp" not in result["sandbox"]
    assert miner["stats"]["faults"] == {} and miner["stats"]["invalid"] == 0, miner
