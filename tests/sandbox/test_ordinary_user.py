"""The non-root path for real: run as root, the suite also plays the hostile bots, `arena
check` and sample matches as an ordinary user (through as_user.py), with every "host
unharmed" check of the root run.

Run by an ordinary user, the whole suite already is that run, and these say so as skips.
"""
from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from sandbox.isolation import LAYERS, USER_NS
from tests.sandbox import as_user
from tests.sandbox.test_check import EXPECTED
from tests.sandbox.test_hostile import CASES
from tests.support.marks import LONG
from tests.support.paths import ARENA_CMD, BOTS, HOSTILE, ROOT
from tests.support.processes import CONTROLLER
from tests.support.sandbox import OrdinaryUser

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
# The suites, in parts that run side by side (each 1-2.5 minutes at a load of 8 on 2 cores,
# where the suites one after another took 9.6 minutes in one test): each
# part as a uid of its own, in a network namespace and a /tmp of its own (as_user.py
# --apart), so that its network bots knock on its own listeners and its escape files are
# its own, beside the root run's hostile suites (the host-wide group) and the other parts.
PARTS = {
    "hostile": ["tests/sandbox/test_hostile.py", "tests/sandbox/test_tiers.py"],
    "jail-replies": ["tests/sandbox/test_jail_attacks.py", "tests/doors/test_replies.py",
                     "tests/doors/test_red_frames.py"],
    "check": ["tests/sandbox/test_check.py"],
    "time-hangs": ["tests/doors/test_time_and_determinism.py", "tests/doors/test_own_time.py",
                   "tests/robotgame/test_hangs.py"],
    "programs-matches": ["tests/cave/test_hostile_programs.py", "tests/arena/test_matches.py",
                         "tests/api/test_code_bots.py", "tests/replay/test_hostile_replays.py"],
    "files": ["tests/doors/test_files.py"],
    "doors": ["tests/doors/test_secrets.py", "tests/ladder/test_doors.py"],
}
SUITES = [suite for part in PARTS.values() for suite in part]
# At least every hostile bot under both tiers run (standard and match), and `arena check`
# on each of them.
AT_LEAST = {"tests/sandbox/test_hostile.py": 2 * len(CASES),
            "tests/sandbox/test_check.py": len(EXPECTED)}


@pytest.fixture
def user_of_its_own(request):
    """An ordinary user of this part alone (a uid and a home of its own: the processes a
    uid may hold are counted across namespaces, and a part's fork bombs meet their caps)."""
    uid = as_user.ORDINARY_UID + 1 + list(PARTS).index(request.node.callspec.params["part"])
    home = Path(as_user.make_home(uid))
    try:
        yield OrdinaryUser(uid, home)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def test_the_parts_hold_each_suite_once() -> None:
    assert len(SUITES) == len(set(SUITES)) == 16
    assert all((ROOT / suite).is_file() for suite in SUITES)


@LONG
@pytest.mark.timeout(900)   # a few suites one after another: its own run's deadline
@pytest.mark.parametrize("part", PARTS)
def test_the_hostile_suite_check_and_matches_pass_as_an_ordinary_user(part,
                                                                     user_of_its_own) -> None:
    # -n 0: this worker's own process, not two more beside the session's workers; and
    # the session's other processes are not the hostile suite's leftovers.
    session = [f"{CONTROLLER}={os.environ[CONTROLLER]}"] if CONTROLLER in os.environ else []
    done = user_of_its_own.run(
        ["env", *session, *ARENA_CMD[:1], "-m", "pytest", "-q", "-n", "0", "-p",
         "no:cacheprovider", "-rA", "--basetemp", str(user_of_its_own.home / "pytest"),
         "-k", NOT_AS_USER, *PARTS[part]], timeout=900, apart=True)
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr
    failures = done.stdout.partition("= FAILURES =")[2].partition("short test summary")[0]
    assert done.returncode == 0, failures[:6000] + summary + done.stderr[-2000:]
    assert "skipped" not in summary and "failed" not in summary, summary
    passed = re.findall(r"^PASSED (\S+?)::", done.stdout, re.MULTILINE)
    for suite in PARTS[part]:
        assert passed.count(suite) >= AT_LEAST.get(suite, 1), (suite, summary)


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
