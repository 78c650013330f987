"""The sample bots that think aloud (tests/marks/bots/<game>.py: notes and marks), and an
opponent for them, which the marks tests of several folders play."""
from __future__ import annotations

from pathlib import Path

from orchestrator.games import GAMES
from orchestrator.runner.bots import read_bot

THINKERS = Path(__file__).resolve().parent.parent / "marks" / "bots"


def thinker(name: str) -> Path:
    path = THINKERS / f"{name}.py"
    assert path.is_file(), f"the game {name} has no sample bot that uses marks: add {path}"
    return path


def opponent(name: str):
    game = GAMES[name]
    samples = game.demo_lineup(on_skip=lambda _: None)
    python = [p for p in samples if p.suffix == ".py"]
    return read_bot((python or samples)[0])
