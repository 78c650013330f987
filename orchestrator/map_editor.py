"""Alias, kept for one release (removed after robot-arena 0.2): the map editor is now
orchestrator/web/map_editor.py (`Palette`, `Sheet`, `Tool`, `MAX_SIDE`: what a game's
`editor.py` builds its sheet with). Import from there: docs/architecture.md, "Aliases"."""
from orchestrator.web.map_editor import *  # noqa: F401,F403
from orchestrator.web.map_editor import MAX_SIDE, Palette, Sheet, Tool  # noqa: F401
