"""`arena check`, the CI gate: samples pass, every hostile bot fails for the right reason."""
from __future__ import annotations

import json
import subprocess

import pytest

from orchestrator.options import CheckSettings
from orchestrator.service.check import check_bot
from sandbox.limits import Limits
from tests.support.cli import arena
from tests.support.paths import BOTS, HOSTILE

FAST = Limits(cpu_per_call_s=0.5, wall_per_call_s=1.0, watchdog_grace_s=3.0, memory_mb=128)
SAMPLES = sorted(BOTS.glob("*.py"))
# Starting a process, opening a socket, signalling or tracing another process, and
# importing the engine fail as `sandbox`, even when the bot otherwise plays well.
# None: the attack does nothing, and the bot passes (tampering with the api's constants).
EXPECTED = {
    "spinner_loop.py": "cpu", "import_loop.py": "load_error", "sleeper.py": "hang",
    "thread_runner.py": "cpu", "memory_bomb.py": "memory", "memory_bomb_caught.py": "memory",
    "fork_bomb.py": "sandbox", "shell_out.py": "sandbox", "shell_at_import.py": "sandbox",
    "tcp_socket.py": "sandbox", "udp_socket.py": "sandbox", "socket_at_import.py": "sandbox",
    "dns_lookup.py": "sandbox", "read_passwd.py": "overheats",
    "read_project.py": "overheats", "read_parent_environ.py": "overheats",
    "write_outside.py": "overheats", "fill_disk.py": "overheats", "kill_parent.py": "sandbox",
    "ptrace_parent.py": "sandbox", "sys_exit.py": "crash", "exits.py": "crash",
    "segfault.py": "crash", "printer.py": "output", "garbage.py": "overheats",
    "frame_forger.py": "protocol", "pipe_flood.py": "protocol", "api_tamper.py": None,
    "engine_peeker.py": "sandbox", "sysv_shm.py": "sandbox", "memfd_hoard.py": "sandbox",
    "thread_flood.py": "sandbox",
    "raiser.py": "overheats", "syntax_error.py": "load_error", "no_move.py": "load_error",
    "markup_name.py": None, "escape_name.py": "overheats", "hunter_two.py": None,
    "formula_name.py": None, "hostname.py": "overheats", "api_framer.py": None,
    "gc_framer_masked.py": None, "guard_clock.py": "hang",
    # 8 % of a core: its 0.5 s of CPU would come after 6.25 s of own time, past the
    # turn's 5 s (a turn's own time no longer grows with its robots: 1 s each, before).
    "slow_burner.py": "hang", "set_order.py": None,
    # Stallers under every per-call limit: the turn's 5 s of own time, its robots together.
    "napper.py": "hang", "timer_napper.py": "hang", "thread_joiner.py": "hang",
    "long_sleep.py": "hang",
    "aborts.py": "crash", "huge_allocation.py": "memory",
}


def test_every_hostile_bot_has_an_expected_failure() -> None:
    assert set(EXPECTED) == {p.name for p in HOSTILE.glob("*.py")}


@pytest.mark.parametrize("bot", SAMPLES, ids=lambda p: p.stem)
def test_sample_bots_pass(bot, no_stray_processes) -> None:
    found = check_bot(bot, checking=CheckSettings(turns=30, once=True))
    assert found["ok"] and found["reason"] is None and found["failure"] is None, found
    assert found["turns"] >= 1 and found["decisions"] > 0
    assert found["sandbox"], "the JSON lists the active layers"


@pytest.mark.parametrize("bot", sorted(EXPECTED), ids=lambda b: b.removesuffix(".py"))
def test_hostile_bots_fail_with_the_right_reason(bot, no_stray_processes) -> None:
    found = check_bot(HOSTILE / bot, checking=CheckSettings(turns=4, once=True), limits=FAST)
    if EXPECTED[bot] is None:
        assert found["ok"] and "LEAK" not in json.dumps(found), found
        return
    assert not found["ok"]
    assert found["failure"] == EXPECTED[bot], found["reason"]
    assert found["reason"].startswith(EXPECTED[bot]) and "\n" not in found["reason"]


def test_a_shell_at_import_fails_check_with_the_command_in_the_json() -> None:
    done = _check(str(HOSTILE / "shell_at_import.py"), "--turns", "3", "--json")
    assert done.returncode == 1
    found = json.loads(done.stdout)
    assert found["failure"] == "sandbox" and found["overheats"] == 0
    assert found["violations"] == ["process: os.system('id')"]
    assert found["reason"] == "sandbox: refused process: os.system('id')"


def _check(*args: str) -> subprocess.CompletedProcess:
    return arena("check", *args, timeout=120)


def test_exit_status_0_for_a_good_bot_with_json() -> None:
    done = _check(str(BOTS / "hunter.py"), "--turns", "10", "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert {"ok", "reason", "game", "turns", "overheats", "cpu_s", "peak_rss_mb",
            "sandbox"} <= set(found)
    assert found["ok"] is True and found["game"] == "arena" and found["turns"] == 10
    assert isinstance(found["sandbox"], list)


def test_exit_status_1_and_one_line_for_a_bad_bot() -> None:
    done = _check(str(HOSTILE / "spinner_loop.py"), "--turns", "3", "--cpu-limit", "0.3")
    assert done.returncode == 1
    lines = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert lines == [f"error: {HOSTILE / 'spinner_loop.py'}: cpu time limit (turn 1)"]


def test_exit_status_1_for_too_many_overheats_but_0_within_the_share() -> None:
    assert _check(str(HOSTILE / "raiser.py"), "--turns", "2").returncode == 1
    assert _check(str(HOSTILE / "raiser.py"), "--turns", "2",
                  "--max-overheats", "1").returncode == 0


def test_exit_status_2_for_bad_input() -> None:
    done = _check("no/such/bot.py")
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and "no/such/bot.py" in done.stderr
    assert _check(str(BOTS / "hunter.py"), "--max-overheats", "3").returncode == 2
