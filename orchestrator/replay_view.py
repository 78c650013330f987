"""Alias, kept for one release (removed after robot-arena 0.2): this module is now
orchestrator/views/replay.py (a replay drawn in the terminal or as a page) and
orchestrator/views/board.py (`COLORS`, `Grid`, `blank`, `seat_table`: what a game's
`terminal.py` draws with); the `arena replay` command is orchestrator/cli/replay.py.
Import from there: docs/architecture.md, "Aliases"."""
from orchestrator.views.board import COLORS, Grid, blank, seat_table  # noqa: F401
from orchestrator.views.replay import *  # noqa: F401,F403
