"""Robot Game's time limits (docs/robotgame.md): a bot that hangs costs seconds, and is
charged for everything the runtime runs of its code.

Each bot in `hangs/` names, on its first line, the failure `arena check` must give it. No
wall times are asserted: that a hang costs seconds shows as the turn it forfeits on
(the robots act from turn 1; two turns of nothing but timeouts forfeit on turn 2).
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
import resource
import shutil
import signal
from pathlib import Path

import pytest

from orchestrator.games import get_game
from orchestrator.service.check import check_bot
from sandbox.processes import describe_exit
from tests.support.cli import arena
from tests.support.robotgame import SAMPLES, play, player

HANGS = Path(__file__).parent / "hangs"
BOTS = Path(__file__).parent / "bots"
RUBY_LOOPER = Path(__file__).parent / "hostile" / "looper.rb"
MARK = re.compile(r"# arena check: (\w+)\n")
LIMITS = get_game("robotgame").limits


def expected(bot: Path) -> str:
    found = MARK.match(bot.read_text())
    assert found, f"{bot.name}: the first line must be '# arena check: FAILURE'"
    return found.group(1)


@pytest.mark.parametrize("bot", sorted(HANGS.glob("*.py")), ids=lambda p: p.stem)
def test_check_fails_a_hanging_bot_within_a_few_turns(bot, no_stray_processes) -> None:
    """The game's own limits and the check's full 100 turns: the forfeit comes early."""
    verdict = check_bot(bot, game="robotgame")
    assert not verdict["ok"] and verdict["failure"] == expected(bot), verdict["reason"]
    assert "crash" not in verdict["reason"]
    if verdict["failure"] != "overheats":
        assert verdict["turns"] <= 3, verdict["reason"]
        assert verdict["cpu_s"] < LIMITS.cpu_bank_s / 2, verdict       # far from the bank
    else:
        # The runtime never compares the bot's objects: nothing of it ran, nothing timed out.
        assert verdict["turns"] == 100 and "timeout" not in " ".join(verdict["errors"])


def run_check(bot: Path) -> tuple[int, dict]:
    done = arena("check", "--game", "robotgame", str(bot), "--json", timeout=120)
    return done.returncode, json.loads(done.stdout)


@pytest.mark.parametrize("bot", [
    HANGS / "loop_act.py", HANGS / "loop_setattr.py", HANGS / "sleep_act.py",
    pytest.param(RUBY_LOOPER, marks=pytest.mark.skipif(
        shutil.which("ruby") is None, reason="Ruby bots need Debian's ruby (make test "
                                             "installs it as root)"))],
    ids=lambda p: p.name)
def test_arena_check_of_a_hanging_bot_exits_1_with_hang_or_timeout(bot) -> None:
    code, verdict = run_check(bot)
    assert code == 1 and not verdict["ok"]
    assert verdict["failure"] in ("hang", "timeout"), verdict["reason"]
    assert verdict["turns"] <= 3, verdict["reason"]


def test_a_bot_with_some_acts_in_time_plays_on() -> None:
    """Timeouts on every act but one a turn: those robots guard, the AI is not forfeit."""
    result = play(BOTS / "mostly_slow.py", SAMPLES / "example.py", turns=4)
    me = player(result, BOTS / "mostly_slow.py")
    assert me["status"] == "ok" and result["turns"] == 4, me["reason"]
    assert 0 < me["stats"]["timeouts"] < me["stats"]["decisions"]


def test_a_spent_cpu_bank_forfeits() -> None:
    limits = dataclasses.replace(LIMITS, cpu_bank_s=1.5)
    result = play(BOTS / "mostly_slow.py", SAMPLES / "example.py", turns=100, limits=limits)
    me = player(result, BOTS / "mostly_slow.py")
    assert me["status"] == "forfeit" and me["reason"] == "cpu bank exhausted", me["reason"]
    assert result["end"] == "forfeit" and me["turn"] < 100


def test_the_match_bank_is_20_cpu_seconds() -> None:
    assert LIMITS.cpu_bank_s == 20.0
    assert LIMITS.cpu_backstop_s > LIMITS.cpu_bank_s      # the kernel's kill comes after ours


def test_the_host_caps_a_request_at_the_soft_limits_and_one_hard_one() -> None:
    """A child whose guard cannot act (C code, a subverted runtime) is ended after about
    one hard limit, not one per robot."""
    five = LIMITS.request_cpu_s(5)
    assert LIMITS.cpu_per_call_s + 5 * LIMITS.act_soft_s < five < 5 * LIMITS.cpu_per_call_s
    assert LIMITS.request_cpu_s(5, first=True) - five == pytest.approx(LIMITS.first_act_soft_s)


def test_the_kernels_cpu_kill_is_reported_as_a_cpu_limit_not_a_crash() -> None:
    """RLIMIT_CPU's SIGKILL, for real: the kernel judges the limit on its tick-sampled
    clock, so the rusage CPU the process is charged when the kill comes can be under the
    limit (0.994 s, and on a loaded CI run 0.694 s, of a 1 s one), which once read as a
    crash. A kill under half the limit is taken as not the one under test, and the child
    is tried again (three times at most), the figures of every try kept for the message."""
    cap = 1
    tries = []
    for _ in range(3):
        pid = os.fork()
        if pid == 0:                                     # pragma: no cover (the child)
            signal.signal(signal.SIGXCPU, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_CPU, (cap, cap))
            while True:
                pass
        _, status, usage = os.wait4(pid, 0)
        code, cpu_s = os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime
        tries.append((code, round(cpu_s, 3)))
        if cpu_s >= cap / 2:
            break
    assert code == -signal.SIGKILL, tries
    assert describe_exit(code, cpu_s, cap) == "cpu time limit", tries
    assert describe_exit(code, 0.1, cap).startswith("crash")   # a SIGKILL well before it
