"""The hostile bots of spec/sandbox.md, each a tiny file in tests/hostile/.

Every case asserts the game outcome (erased, overheat, load_error, or a clean game), the
refused attempt recorded under `violations` where there is one, and that the host is
unharmed: nothing leaked (a bot prints "LEAK" when an attack works), no file was written
outside scratch, no socket reached the host, no process survives, the host's memory
stayed bounded, the host's shared memory (Shmem) and task count came back to where they
were, and the other AIs played the match to its end.

Run as root, these take the root path (the real nobody); run as an ordinary user, the
user-namespace path. As root, tests/sandbox/test_ordinary_user.py runs them both ways.

A case that needs an isolation layer this machine cannot give is skipped, with the
layer and the reason in the skip message (pytest prints it in the summary).
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import pytest

from sandbox.botlib import child_module
from sandbox.isolation import LAYERS, MECHANISMS, USER_NS
from sandbox.limits import Limits
from sandbox.paths import BOTLIB
from tests.support.marks import HOST_WIDE
from tests.support.paths import BOTS, HOSTILE
from tests.support.sandbox import (
    TIERS,
    assert_host_load_back,
    by_name,
    host_load,
    knocked,
    play,
    sandbox_pids,
    survivors,
    tier_layers,
)

TASKS_REFUSED = child_module("_attempts").TASKS_REFUSED

LIMITS = Limits(cpu_per_call_s=0.5, wall_per_call_s=1.0, watchdog_grace_s=3.0, memory_mb=128)
pytestmark = HOST_WIDE
SPIN = Limits(cpu_per_call_s=0.5, wall_per_call_s=4.0, watchdog_grace_s=3.0, memory_mb=128)
NAP = Limits(cpu_per_call_s=0.5, wall_per_call_s=1.0, watchdog_grace_s=3.0, memory_mb=128,
             own_bank_s=0.5)
TURN = Limits(cpu_per_call_s=0.5, memory_mb=128)     # the default 5 s a call, and a turn
API_FILE = BOTLIB / "roborally" / "api.py"
OUTSIDE_FILES = [Path("/tmp/arena-hostile-escape"), Path("/tmp/arena-hostile-shell-out"),
                 API_FILE.parent / "injected.py"]


@dataclass(frozen=True)
class Case:
    bot: str
    outcome: str                          # erased | load_error | overheat | clean
    detail: str = ""                      # in the reason, or in an overheat's error
    needs: tuple[tuple[str, ...], ...] = ()   # each group: one of these layers is enough
    limits: Limits = field(default=LIMITS)
    violation: str = ""                   # what the record of refused attempts must hold
    violation_with: str = ""              # ...only when this layer (a mechanism) is active

    def __str__(self) -> str:
        return self.bot.removesuffix(".py")


FILES = ("fs_view", "landlock")
PROJECT = BOTLIB.parent.parent
CASES = [
    # time
    # A spinner on a busy machine (every core running a test) gets less than a core: the
    # wall limit must not come before the CPU limit it is about.
    Case("spinner_loop.py", "erased", "cpu time limit", limits=SPIN),
    Case("import_loop.py", "load_error", "cpu time limit at import", limits=SPIN),
    Case("sleeper.py", "erased", "wall time limit (hang)"),
    # Sleepers that burn a little CPU, one timed by its guard's own timer (getitimer): the
    # host judges the call's own time (wall less the wait to run), not its CPU progress.
    Case("guard_clock.py", "erased", "wall time limit (hang)"),
    Case("slow_burner.py", "erased", "wall time limit (hang)"),
    Case("thread_runner.py", "erased", "threads kept running after move() returned"),
    # Stallers under every per-call limit: their match's own-time bank ends them (a small
    # bank here: on turn 1). Their own time is their wall time less their wait to run,
    # whatever they sleep on (a timer, their own thread) and whatever clocks they read.
    Case("napper.py", "erased", "time bank: ", limits=NAP),
    Case("timer_napper.py", "erased", "time bank: ", limits=NAP),
    Case("thread_joiner.py", "erased", "time bank: ", limits=NAP),
    # One 7 s sleep in a team's request: a turn's own time is 5 s, whatever the robots.
    Case("long_sleep.py", "erased", "wall time limit (hang)", limits=TURN),
    # memory
    # A wall limit of 4 s: the memory cap, not the clock, must stop them on a loaded machine
    # (at 1 s, one went past its wall limit first at a load of 5 on 2 cores).
    Case("memory_bomb.py", "erased", "memory limit", limits=SPIN),
    Case("memory_bomb_caught.py", "erased", "memory limit", limits=SPIN),
    # 2 GiB at once: refused, said with the cap it went past (not the 14 MB it held).
    Case("huge_allocation.py", "erased", "memory limit: an allocation went past the"),
    Case("sysv_shm.py", "overheat", "shmget refused", needs=(("seccomp",),),
         violation="memory: ctypes shmget()"),
    Case("memfd_hoard.py", "overheat", "PermissionError", needs=(("seccomp",),),
         violation="memory: os.memfd_create"),
    # tasks
    Case("thread_flood.py", "overheat", "can't start new thread", needs=(("tasks",),),
         violation=f"tasks: {TASKS_REFUSED}"),
    # processes
    Case("fork_bomb.py", "overheat", "PermissionError", needs=(("seccomp",),),
         violation="process: os.fork"),
    Case("shell_out.py", "overheat", "PermissionError", needs=(("seccomp",),),
         violation="process: os.system('touch /tmp/arena-hostile-shell-out')"),
    Case("shell_at_import.py", "clean", needs=(("seccomp",),),
         violation="process: os.system('id')"),
    # network
    Case("tcp_socket.py", "overheat", "PermissionError", needs=(("seccomp",),),
         violation="socket: socket(AF_INET, SOCK_STREAM)"),
    Case("udp_socket.py", "overheat", "PermissionError", needs=(("seccomp",),),
         violation="socket: socket(AF_INET, SOCK_DGRAM)"),
    Case("socket_at_import.py", "clean", needs=(("seccomp",),),
         violation="socket: getaddrinfo('127.0.0.1')"),
    Case("dns_lookup.py", "overheat", "gaierror", needs=(("seccomp", "net_ns"), FILES),
         violation="socket: getaddrinfo('localhost')"),
    # files
    Case("read_passwd.py", "overheat", "", needs=(FILES,),
         violation="file: open /etc/passwd for reading"),
    Case("read_project.py", "overheat", "", needs=(FILES,),
         violation=f"file: open {PROJECT}/maps/arena/official.txt for reading"),
    Case("read_parent_environ.py", "overheat", "nothing readable",
         needs=(FILES, ("empty_env",)), violation="file: open /proc/1/environ for reading"),
    Case("write_outside.py", "overheat", "could not write outside scratch", needs=(FILES,),
         violation="file: open /tmp/arena-hostile-escape for writing"),
    Case("fill_disk.py", "overheat", "OSError", needs=(("fs_view", "rlimits"),)),
    # other processes
    Case("kill_parent.py", "overheat", "", needs=(("seccomp", "pid_ns"),),
         violation="signal: os.kill to another process"),
    Case("ptrace_parent.py", "overheat", "ptrace refused", needs=(("seccomp", "pid_ns"),),
         violation="ptrace: ctypes ptrace()"),
    # dying
    Case("sys_exit.py", "erased", "exited (SystemExit)"),
    Case("exits.py", "erased", "exited with status 0"),
    Case("segfault.py", "erased", "crash: killed by SIGSEGV"),
    # The child is pid 1 of its namespace: without its own handler, abort() ended on a
    # SIGSEGV.
    Case("aborts.py", "erased", "crash: aborted (SIGABRT)"),
    # the protocol and the API
    Case("printer.py", "clean", limits=Limits(output_bytes=1000)),
    Case("garbage.py", "overheat", "invalid move"),
    Case("frame_forger.py", "erased", "protocol: frame of 1073741824 bytes"),
    Case("pipe_flood.py", "erased", "protocol"),
    # The sight grid is made from the view's 121 tiles alone: a widened _SIZE changes nothing.
    Case("api_tamper.py", "clean"),
    Case("engine_peeker.py", "clean", violation="import: engine"),
    Case("raiser.py", "overheat", "ValueError: boom"),
    Case("syntax_error.py", "load_error", "syntax error"),
    # names and messages: shown as text (tests/batch/test_names.py runs them through the CLI)
    Case("markup_name.py", "clean"),
    Case("escape_name.py", "overheat", "ValueError: \x1b]0;pwned\x07"),
    Case("hunter_two.py", "clean"),
    Case("formula_name.py", "clean"),
    # the host's name: the child's own UTS namespace calls the machine "arena"
    Case("hostname.py", "overheat", "LookupError: host arena arena", needs=(("uts_ns",),)),
    Case("no_move.py", "load_error", "no move() function"),
    # Framing another AI through what a match jail's bots share: the collector and the CPU
    # clock. Alone in its child nothing happens; in a jail, no other AI may be charged.
    # An honest bot that iterates a set of strings (tests/doors: the same game every run).
    Case("set_order.py", "clean"),
    Case("api_framer.py", "clean"),
    Case("gc_framer_masked.py", "clean"),
]


# The hostile suite also runs in `--sandbox match` (the whole match in one jail): what that
# mode keeps from a bot is the host, not the engine or the other bots (docs/security.md).
TIERS = [*TIERS, "match"]
# These cases reach into what the bots share, so there only the host's safety is asserted.
SHARED_IN_MATCH = {"api_tamper.py": "a bot changes the API module the others use",
                   "engine_peeker.py": "a bot finds the engine's objects in its process"}
# These get the others charged in the jail: its result is not taken, and the match is
# played again in the standard mode, where nobody is charged.
FRAMES_IN_MATCH = {"api_framer.py", "gc_framer_masked.py"}
# A bot that waits on its threads' start and join (64 of them, its robots together): the
# jail has no /proc to tell that wait from a wait to run, so on a busy machine its attempt
# may end at the turn's own time by its wall ticks, charging no one; the standard mode then
# plays the match, whose result stands.
WAITS_IN_MATCH = {"thread_flood.py"}


@pytest.fixture(scope="module")
def layers() -> tuple[list[str], dict[str, str]]:
    return tier_layers("standard")



@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.parametrize("case", CASES, ids=str)
def test_hostile_bot(case: Case, tier: str, listeners, no_stray_processes) -> None:
    active, missing = tier_layers(tier)
    for group in case.needs:
        if not set(group) & set(active):
            reasons = "; ".join(f"{name}: {missing.get(name, 'not applied')}" for name in group)
            pytest.skip(f"{case.bot} needs one of {', '.join(group)} ({reasons})")
    api_digest = hashlib.sha256(API_FILE.read_bytes()).hexdigest()
    sandboxed_before = sandbox_pids()
    host_rss = psutil.Process().memory_info().rss
    load_before = host_load()

    result = play([HOSTILE / case.bot, BOTS / "beeline.py", BOTS / "turtle.py"], robots=3,
                  turns=8, limits=case.limits, sandbox=tier)

    me = next(p for p in result["players"] if p["bot"].endswith(case.bot))
    shared = tier == "match" and case.bot in SHARED_IN_MATCH
    detail = case.detail
    if shared:
        pass
    elif case.outcome in ("erased", "load_error"):
        assert me["status"] == case.outcome, me
        assert detail in me["reason"], me["reason"]
        assert me["rank"] == 3
        assert result["restarts"] == (case.outcome == "erased")
        if case.outcome == "erased":
            assert me["turn"] == 1
            # measured however the child ended (the match jail's bots share one process)
            assert me["peak_rss_mb"] > 0 or tier == "match"
    else:
        assert me["status"] == "ok", me
        if case.outcome == "overheat":
            assert me["overheats"] == me["stats"]["decisions"] > 0, me
            assert any(case.detail in error for error in me["errors"]), me["errors"]
        else:
            assert me["overheats"] == 0, me["errors"]
    if shared:
        pass
    elif case.violation and (not case.violation_with or case.violation_with in active):
        assert case.violation in me["violations"], me["violations"]
    elif not case.violation:
        assert me["violations"] == [], me["violations"]
    # The host is unharmed.
    assert "LEAK" not in json.dumps(result), "an attack worked"
    others = [p for p in result["players"] if p is not me]
    assert all(p["status"] == "ok" and (shared or p["overheats"] == 0) for p in others), \
        [(p["name"], p["status"], p["reason"], p["overheats"]) for p in others]
    if tier == "match" and me["status"] == "ok" and case.bot in WAITS_IN_MATCH and \
            result["sandbox_mode"] == "standard":
        assert result["sandbox_note"].startswith("the match jail failed"), result
    elif tier == "match" and me["status"] == "ok" and case.bot not in FRAMES_IN_MATCH:
        assert result["sandbox_mode"] == "match" and result["jail_kills"] == [], result
    elif tier == "match":        # no charge on the jail's word: the standard mode's result
        assert result["sandbox_mode"] == "standard", result
        assert result["sandbox_note"].startswith("the match jail failed"), result
        assert all(k["unverified"] for k in result["jail_kills"]), result["jail_kills"]
    assert result["end"] in ("turn_limit", "survivor", "flags", "extinction")
    assert result["turns"] == 8 or result["end"] != "turn_limit"
    assert not knocked(listeners), "a bot reached the host over the network"
    assert not [p for p in OUTSIDE_FILES if p.exists()], "a bot wrote outside its scratch"
    assert hashlib.sha256(API_FILE.read_bytes()).hexdigest() == api_digest
    assert not survivors(sandboxed_before), "a sandboxed process survived the match"
    grown_mb = (psutil.Process().memory_info().rss - host_rss) / 2**20
    assert grown_mb < 64, f"the host grew by {grown_mb:.0f} MiB"
    assert_host_load_back(load_before)
    assert os.getpid() == psutil.Process().pid       # and, plainly, we are still here


HOME_BOT = """
from roborally.api import *
name = 'HomeReader'
def move():
    try:
        with open({secret!r}) as f:
            print('LEAK:', f.read())
    except OSError:
        pass
    with open({escape!r}, 'w') as f:
        f.write('LEAK')
    return FORWARD
"""


@pytest.mark.parametrize("tier", TIERS)
def test_the_users_home_is_out_of_reach(tier, tmp_path, no_stray_processes) -> None:
    """Whoever runs the match (root, or a contestant on a laptop), a bot can neither read
    a file in their home directory nor write there."""
    tier_layers(tier)
    home = Path.home()
    secret = home / f".arena-test-secret-{os.getpid()}"
    escape = home / f".arena-test-escape-{os.getpid()}"
    secret.write_text("LEAK: the user's secret")
    secret.chmod(0o600)
    bot = tmp_path / "home_reader.py"
    bot.write_text(HOME_BOT.format(secret=str(secret), escape=str(escape)))
    try:
        result = play([bot, BOTS / "turtle.py"], robots=2, turns=3, limits=LIMITS,
                      sandbox=tier)
    finally:
        secret.unlink()
        leaked = escape.exists()
        escape.unlink(missing_ok=True)
    me = by_name(result)["HomeReader"]
    assert not leaked and "LEAK" not in json.dumps(result)
    assert me["status"] == "ok" and me["overheats"] == me["stats"]["decisions"] > 0
    assert f"file: open {secret} for reading" in me["violations"]
    assert f"file: open {escape} for writing" in me["violations"]


@pytest.mark.parametrize("bot", ["read_passwd.py", "udp_socket.py"])
def test_without_the_layers_the_attacks_work(bot, listeners) -> None:
    """The layers are what stops these bots: with every layer off, the attack lands and
    the checks above would catch it."""
    result = play([HOSTILE / bot, BOTS / "turtle.py"], robots=1, turns=2, limits=LIMITS,
                  skip_layers=LAYERS)
    assert result["sandbox"] == [] and set(result["sandbox_missing"]) == set(LAYERS)
    assert "LEAK" in json.dumps(result)
    assert bot != "udp_socket.py" or knocked(listeners)


def test_printer_output_is_captured_and_capped() -> None:
    result = play([HOSTILE / "printer.py", BOTS / "randy.py"], robots=2, turns=4,
                  limits=Limits(output_bytes=1000))
    printer = next(p for p in result["players"] if p["name"] == "Printer")
    assert printer["output"] == "x" * 1000


def test_every_listed_hostile_bot_has_a_case() -> None:
    assert {p.name for p in HOSTILE.glob("*.py")} == {c.bot for c in CASES}


@pytest.mark.parametrize("tier", TIERS)
def test_every_layer_is_active(tier) -> None:
    """As root through the real nobody; otherwise through a user namespace, which bwrap
    uses in both cases."""
    active, missing = tier_layers(tier)
    assert missing == {}
    through_user_ns = tier == "bwrap" or os.geteuid() != 0
    assert set(active) - set(MECHANISMS) == set(LAYERS) | ({USER_NS} if through_user_ns
                                                           else set())
    # The task cap says how it holds: a pids cgroup, or RLIMIT_NPROC (never as root).
    held_by = {"pids_cgroup", "rlimit_nproc"} & set(active)
    assert len(held_by) == 1 and (os.geteuid() != 0 or held_by == {"pids_cgroup"}), active
