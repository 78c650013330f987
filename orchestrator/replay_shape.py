"""Alias, kept for one release (removed after robot-arena 0.2): `ReplayShape` is now
defined with the rest of a game's entry, in orchestrator/games/entry.py. Import it from
there: docs/architecture.md, "Aliases"."""
from orchestrator.games.entry import ReplayShape  # noqa: F401
