"""Alias, kept for one release (removed after robot-arena 0.2): the API's result types
are now orchestrator/api/types.py, and `orchestrator.api` exports them. Import from there:
docs/architecture.md, "Aliases"."""
from orchestrator.api.types import *  # noqa: F401,F403
