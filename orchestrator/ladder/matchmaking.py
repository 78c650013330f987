"""Alias, kept for one release (removed after robot-arena 0.2): matchmaking is now
orchestrator/web/ladder/matchmaking.py, and `LadderRules` is in orchestrator/games/entry.py
(a game's entry names its ladder). Import from there: docs/architecture.md, "Aliases"."""
from orchestrator.games.entry import LadderRules  # noqa: F401
from orchestrator.web.ladder.matchmaking import Standing, pick  # noqa: F401
