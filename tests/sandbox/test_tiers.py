"""The sandbox tiers: strict refuses a missing layer, standard warns about it once."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from sandbox.isolation import NAMESPACES, USER_NS, Isolation, SandboxUnavailable, warning_once
from tests.support.marks import HOST_WIDE
from tests.support.paths import ARENA_CMD, BOTS, HOSTILE
from tests.support.sandbox import play, tier_layers


def test_strict_refuses_when_a_layer_is_missing(no_stray_processes) -> None:
    with pytest.raises(SandboxUnavailable, match="landlock"):
        play([BOTS / "randy.py", BOTS / "turtle.py"], sandbox="strict", turns=2,
             skip_layers=("landlock",))


def test_standard_runs_without_it_and_says_what_is_missing(no_stray_processes) -> None:
    _, missing_here = tier_layers("standard")
    result = play([BOTS / "randy.py", BOTS / "turtle.py"], turns=2, skip_layers=("landlock",))
    assert result["sandbox_mode"] == "standard"
    assert "landlock" not in result["sandbox"]
    assert result["sandbox_missing"] == {**missing_here, "landlock": "skipped"}
    assert all(p["status"] == "ok" for p in result["players"])


def test_the_warning_comes_once_and_not_for_skipped_layers() -> None:
    missing = {"uid": "needs root", "net_ns": "clone: Operation not permitted"}
    first = warning_once(missing)
    assert first and "uid (needs root)" in first and "net_ns" in first
    assert warning_once(dict(missing)) is None
    assert warning_once({"seccomp": "skipped"}) is None


def test_unknown_layers_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown sandbox layers: nope"):
        Isolation(skip=("nope",))


@HOST_WIDE
@pytest.mark.parametrize("alone", ["landlock", "fs_view"])
@pytest.mark.parametrize("bot", ["read_passwd.py", "write_outside.py", "read_project.py"])
def test_each_file_layer_alone_keeps_files_safe(alone, bot, no_stray_processes) -> None:
    """Landlock without the private root (as without root), and the private root without
    Landlock (as on an old kernel): either one stops reads and writes outside."""
    other = {"landlock": ("fs_view", "mount_ns"), "fs_view": ("landlock",)}[alone]
    active, missing = tier_layers("standard")
    if alone not in active:
        pytest.skip(f"{alone} is not available here: {missing.get(alone)}")
    result = play([HOSTILE / bot, BOTS / "turtle.py"], robots=2, turns=3, skip_layers=other)
    assert alone in result["sandbox"]
    me = result["players"][0] if result["players"][0]["bot"].endswith(bot) else \
        result["players"][1]
    assert me["status"] == "ok" and me["overheats"] == me["stats"]["decisions"] > 0
    assert "LEAK" not in json.dumps(result)
    assert not Path("/tmp/arena-hostile-escape").exists()


def _check_without_user_namespaces(ordinary_user, *args: str):
    """`arena check` as an ordinary user on a machine that refuses user namespaces."""
    return ordinary_user.run([*ARENA_CMD, "check", str(BOTS / "hunter.py"), "--turns", "3",
                              *args], timeout=120, user_namespaces=False)


def test_without_user_namespaces_standard_warns_once_naming_what_is_missing(ordinary_user):
    done = _check_without_user_namespaces(ordinary_user, "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    refused = "clone: Operation not permitted"
    assert found["sandbox_missing"] == {
        USER_NS: refused, **dict.fromkeys(NAMESPACES, refused), "fs_view": "needs mount_ns",
        "uid": "needs root or a user namespace",
        "tasks": "needs a pids cgroup or a user namespace"}
    assert {"landlock", "seccomp", "no_new_privs", "rlimits"} <= set(found["sandbox"])
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "user_ns (clone: Operation not permitted)" in done.stderr
    assert "--sandbox strict refuses" in " ".join(done.stderr.split())   # however wrapped


@pytest.mark.parametrize("tier", ["strict", "bwrap"])
def test_without_user_namespaces_strict_and_bwrap_exit_2(ordinary_user, tier):
    if tier == "bwrap" and shutil.which("bwrap") is None:
        pytest.skip("the bwrap tier needs bubblewrap (make test installs it as root)")
    done = _check_without_user_namespaces(ordinary_user, "--sandbox", tier)
    assert done.returncode == 2, done.stderr
    error = done.stderr.strip().splitlines()[-1]
    expected = {"strict": "error: --sandbox strict: missing isolation layers: user_ns (clone: "
                          "Operation not permitted), mount_ns",
                "bwrap": "error: --sandbox bwrap: bubblewrap cannot start a sandbox here: "}
    assert error.startswith(expected[tier])


def test_ordinary_user_path_is_taken_only_when_not_root() -> None:
    assert (USER_NS in Isolation().namespaces()) == (os.geteuid() != 0)
    assert USER_NS in Isolation(user_ns=True).namespaces()
    assert USER_NS not in Isolation(user_ns=True, skip=tuple(NAMESPACES)).namespaces()
