"""Alias, kept for one release (removed after robot-arena 0.2): the replay reader is now
orchestrator/replay/reader.py (`ai_players`, `load`, ...). Import from there:
docs/architecture.md, "Aliases"."""
from orchestrator.replay.reader import *  # noqa: F401,F403
from orchestrator.replay.reader import ai_players  # noqa: F401
