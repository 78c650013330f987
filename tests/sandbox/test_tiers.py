"""The sandbox tiers: strict refuses a missing layer, standard warns about it once."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from sandbox.isolation import Isolation, SandboxUnavailable, warning_once
from tests.arena.test_matches import play
from tests.conftest import BOTS, HOSTILE


def test_strict_refuses_when_a_layer_is_missing(no_stray_processes) -> None:
    with pytest.raises(SandboxUnavailable, match="landlock"):
        play([BOTS / "randy.py", BOTS / "turtle.py"], sandbox="strict", turns=2,
             skip_layers=("landlock",))


def test_standard_runs_without_it_and_says_what_is_missing(no_stray_processes) -> None:
    result = play([BOTS / "randy.py", BOTS / "turtle.py"], turns=2, skip_layers=("landlock",))
    assert result["sandbox_mode"] == "standard"
    assert "landlock" not in result["sandbox"] and result["sandbox_missing"] == {
        "landlock": "skipped"}
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


@pytest.mark.parametrize("alone", ["landlock", "fs_view"])
@pytest.mark.parametrize("bot", ["read_passwd.py", "write_outside.py", "read_project.py"])
def test_each_file_layer_alone_keeps_files_safe(alone, bot, no_stray_processes) -> None:
    """Landlock without the private root (as without root), and the private root without
    Landlock (as on an old kernel): either one stops reads and writes outside."""
    other = {"landlock": ("fs_view", "mount_ns"), "fs_view": ("landlock",)}[alone]
    result = play([HOSTILE / bot, BOTS / "turtle.py"], robots=2, turns=3, skip_layers=other)
    if alone not in result["sandbox"]:
        pytest.skip(f"{alone} is not available here: {result['sandbox_missing'].get(alone)}")
    me = result["players"][0] if result["players"][0]["bot"].endswith(bot) else \
        result["players"][1]
    assert me["status"] == "ok" and me["overheats"] == me["stats"]["decisions"] > 0
    assert "LEAK" not in json.dumps(result)
    assert not Path("/tmp/arena-hostile-escape").exists()
