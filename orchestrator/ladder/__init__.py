"""Alias, kept for one release (removed after robot-arena 0.2): the ladder server is now
orchestrator/web/ladder/, and `LadderRules` (a game's ladder, named by its entry) is in
orchestrator/games/entry.py. Import from there: docs/architecture.md, "Aliases"."""
