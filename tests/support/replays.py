"""A match played in this process for its replay, for the tests of the replay's views."""
from __future__ import annotations

from orchestrator.replay import file as replay
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match


def record(game: str, bots, map_path, seed: int, rules, frames: list | None = None) -> dict:
    """The replay of a match played here; with `frames`, each turn's state as the engine had
    it is appended there too."""
    replays: list[dict] = []
    trace = (lambda match: frames.append(replay._index(match.replay_frame()))) \
        if frames is not None else None
    run_match(MatchSpec(game, map_path, [read_bot(b) for b in bots], seed, rules), trace=trace,
              replays=replays)
    return replays[0]
