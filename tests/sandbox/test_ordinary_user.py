"""The non-root path for real: run as root, the suite also plays the hostile bots, `arena
check` and sample matches as an ordinary user (through as_user.py), with every "host
unharmed" check of the root run.

Run by an ordinary user, the whole suite already is that run, and these say so as skips.
"""
from __future__ import annotations

import json
import os
import re

import pytest

from sandbox.isolation import LAYERS, USER_NS
from tests.conftest import ARENA_CMD, BOTS, CONTROLLER, HOST_WIDE, HOSTILE
from tests.sandbox.test_check import EXPECTED
from tests.sandbox.test_hostile import CASES

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0, reason="not root: the whole suite already runs as an ordinary user")

# Not the bwrap tier: bubblewrap builds its sandbox in a user namespace whoever starts it,
# so its run as root is already its run as a user. Nor `arena check`'s command-line
# twin of each Robot Game hang (test_arena_check_...): the API's check of the same bots
# runs here, and the command adds only its exit status, which runs as root. Nor
# tests/sandbox/test_check_hangs.py: when `check` stops a hanging bot of each game is the
# check's own rule, whoever runs it; the kills it ends in are the hostile suite's sleeper
# and spinner, and Robot Game's hanging hooks (tests/robotgame/test_hangs.py), run here.
NOT_AS_USER = "not bwrap and not test_arena_check_of_a_hanging_bot"
SUITES = ["tests/sandbox/test_hostile.py", "tests/sandbox/test_jail_attacks.py",
          "tests/doors/test_replies.py",
          "tests/sandbox/test_check.py", "tests/sandbox/test_tiers.py",
          "tests/arena/test_matches.py", "tests/cave/test_hostile_programs.py",
          "tests/robotgame/test_hangs.py", "tests/api/test_code_bots.py",
          "tests/replay/test_hostile_replays.py", "tests/doors/test_time_and_determinism.py",
          "tests/doors/test_secrets.py", "tests/doors/test_files.py",
          "tests/ladder/test_doors.py", "tests/doors/test_red_frames.py"]


@HOST_WIDE        # it runs the hostile suites, whose port and files it shares
@pytest.mark.timeout(900)   # ten suites one after another: its own run's deadline, not 300 s
def test_the_hostile_suite_check_and_matches_pass_as_an_ordinary_user(ordinary_user) -> None:
    # -n 0: this worker's own process, not two more beside the session's workers; and
    # the session's other processes are not the hostile suite's leftovers.
    session = [f"{CONTROLLER}={os.environ[CONTROLLER]}"] if CONTROLLER in os.environ else []
    done = ordinary_user.run(
        ["env", *session, *ARENA_CMD[:1], "-m", "pytest", "-q", "-n", "0", "-p",
         "no:cacheprovider", "-rs", "--basetemp", str(ordinary_user.home / "pytest"),
         "-k", NOT_AS_USER, *SUITES], timeout=900)
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    passed = int(re.search(r"(\d+) passed", summary).group(1))
    # At least every hostile bot under both tiers run (standard and match), and `arena
    # check` on each of them.
    assert passed >= 2 * len(CASES) + len(EXPECTED), summary
    assert "skipped" not in summary and "failed" not in summary, summary


def test_arena_check_strict_as_an_ordinary_user(ordinary_user) -> None:
    done = ordinary_user.run([*ARENA_CMD, "check", str(BOTS / "hunter.py"), "--turns", "10",
                              "--sandbox", "strict", "--json"], timeout=120)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["ok"] and found["sandbox_missing"] == {}
    # No cgroup is the ordinary user's here: the task cap is RLIMIT_NPROC in its namespace.
    assert set(found["sandbox"]) == {USER_NS, *LAYERS, "rlimit_nproc"}
    assert "warning" not in done.stderr


def test_arena_check_fails_a_shell_as_an_ordinary_user(ordinary_user) -> None:
    done = ordinary_user.run([*ARENA_CMD, "check", str(HOSTILE / "shell_at_import.py"),
                              "--turns", "3", "--json"], timeout=120)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["reason"] == "sandbox: refused process: os.system('id')"


def test_a_sample_match_as_an_ordinary_user(ordinary_user) -> None:
    done = ordinary_user.run([*ARENA_CMD, "run", "--map", "quad", "--seed", "3", "--json",
                              *[str(p) for p in sorted(BOTS.glob("*.py"))]], timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["sandbox_missing"] == {} and USER_NS in result["sandbox"]
    assert all(p["status"] == "ok" for p in result["players"])
