"""The terminal replay viewer, driven as a user drives it: in tmux, with the keys a real
terminal sends (Home and End as tmux and xterm send them, presses that arrive in one
read), in an 80×24 window on the 54×54 default arena."""
from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from engine.arena.rules import rules_from
from orchestrator.replay import file as replay
from orchestrator.views.replay import KEYS, parse_keys
from tests.support.paths import ARENA_CMD, BOTS, MAPS, ROOT
from tests.support.replays import record

# One pytest-xdist worker for the module: its module-scoped fixtures (a ladder, a browser,
# a recorded match) would be made again on each worker that drew one of its tests.
pytestmark = pytest.mark.xdist_group("terminal-viewer")

TURNS = 30
HEADER = re.compile(r"turn (\d+)/(\d+)")


def test_parse_keys_reads_every_key_of_a_burst() -> None:
    assert parse_keys("\x1b[C\x1b[C") == ["right", "right"]
    assert parse_keys("\x1b[1~\x1b[4~\x1bOH\x1bOF\x1b[H\x1b[F") == [
        "home", "end", "home", "end", "home", "end"]
    assert parse_keys("\x1bOD.,") == ["left", "right", "left"]
    assert parse_keys("\x1b[A\x1b[5~x") == []           # keys we do not use are skipped
    assert parse_keys("\x1b") == ["quit"]


@pytest.fixture(scope="module")
def quad_replay(tmp_path_factory) -> Path:
    data = record("arena", sorted(BOTS.glob("*.py")), MAPS / "quad.txt", 1,
                  rules_from("seed", max_turns=TURNS))
    assert data["map"]["size"] == 54
    return replay.save(data, tmp_path_factory.mktemp("tui") / "quad.json.gz")


class Pane:
    """An `arena replay` in a detached tmux session of its own server."""

    def __init__(self, file: Path, socket: str) -> None:
        self.tmux = ["tmux", "-L", socket]
        command = " ".join([*ARENA_CMD, "replay", str(file), "--speed", "0.5"])
        subprocess.run([*self.tmux, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y",
                        "24", "-c", str(ROOT), command], check=True)
        self.wait_for(lambda screen: HEADER.search(screen))

    def screen(self) -> str:
        return subprocess.run([*self.tmux, "capture-pane", "-p"], capture_output=True,
                              text=True, check=True).stdout

    def keys(self, *keys: str, literal: bool = False) -> None:
        subprocess.run([*self.tmux, "send-keys", *(["-l"] if literal else []), *keys],
                       check=True)

    def wait_for(self, ready, seconds: float = 20.0) -> str:
        deadline = time.monotonic() + seconds
        while True:
            screen = self.screen()
            if ready(screen) or time.monotonic() > deadline:
                return screen
            time.sleep(0.05)

    def turn_becomes(self, turn: int) -> str:
        screen = self.wait_for(lambda s: (m := HEADER.search(s)) and int(m[1]) == turn)
        found = HEADER.search(screen)
        assert found and int(found[1]) == turn, screen
        return screen

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)


@pytest.fixture
def pane(quad_replay, request):
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (make test installs it as root)")
    found = Pane(quad_replay, f"arena-test-{request.node.name}")
    yield found
    found.close()


def test_an_80x24_window_shows_the_scores_keys_and_legend_of_a_54x54_board(pane) -> None:
    pane.keys("Space")                                  # pause, wherever it got to
    pane.keys("End")
    screen = pane.turn_becomes(TURNS)
    lines = screen.rstrip("\n").split("\n")
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    assert "rows " in lines[0] and "/54" in lines[0]         # it says which part shows
    for name in ("Beeline", "Hunter", "Randy", "Turtle"):      # each after its letter
        assert any(re.match(rf"[A-L] {name}\b", line) for line in lines), screen
    assert "mounted laser" in screen and "wreck" in screen      # the legend
    assert KEYS in screen                                       # the keys, last
    pane.keys("q")


def test_home_end_and_bursts_land_on_the_turn_asked_for(pane) -> None:
    pane.keys("Space")
    pane.keys("\x1b[4~", literal=True)                  # End as tmux and the VT220 send it
    pane.turn_becomes(TURNS)
    pane.keys("\x1b[1~", literal=True)                  # Home
    pane.turn_becomes(0)
    pane.keys("\x1b[C\x1b[C\x1b[C", literal=True)       # three presses in one read
    pane.turn_becomes(3)
    pane.keys("\x1bOF", literal=True)                   # End in application cursor mode
    pane.turn_becomes(TURNS)
    pane.keys("\x1b[D\x1b[D", literal=True)
    pane.turn_becomes(TURNS - 2)
    pane.keys("\x1bOH", literal=True)
    pane.turn_becomes(0)
    pane.keys("End")                                    # tmux's own names for the keys
    pane.turn_becomes(TURNS)
    pane.keys("Home")
    pane.turn_becomes(0)
    pane.keys("q")


def test_replay_turn_prints_the_frame_and_legend_without_key_help(quad_replay) -> None:
    shown = subprocess.run([*ARENA_CMD, "replay", str(quad_replay), "--turn", "3"],
                           capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert f"turn 3/{TURNS}" in shown and "mounted laser" in shown
    assert "quit" not in shown and "play/pause" not in shown
