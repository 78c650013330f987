"""One match (`arena run`, `api.play`): its spec from orchestrator/service/setup.py, played
by the match loop; the result is the dict `arena run --json` prints."""
from __future__ import annotations

from typing import Any, Callable

from orchestrator.results import notes
from orchestrator.results.match_result import MatchData
from orchestrator.runner.match import MatchSpec, run_match


def play(spec: MatchSpec, on_turn: Callable[[int, int], None] | None = None,
         replays: list[dict[str, Any]] | None = None) -> MatchData:
    """Play the match; `on_turn(turn, total)` after each turn; its replay is appended to
    `replays` where given. Each player gets its note (orchestrator/results/notes.py)."""
    if on_turn is None:
        result = run_match(spec, replays=replays)
    else:
        result = run_match(spec, on_turn=on_turn, replays=replays)
    for player in result["players"]:
        player["note"] = notes.note(player)
        player["penalties"] = notes.penalties(player)
    return result
