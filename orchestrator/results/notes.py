"""A player's note: what went wrong for an AI in one match, in one line, for the tables
(`arena run`), the API's result (`PlayerResult.note`, `"note"` in `--json`) and the
notebook view.

The wording is orchestrator/results/penalties.py's, the one place every printer, export and page
takes it from: why an AI was erased, forfeited or did not load (with the turn), its
overheats with the first error as the bot raised it, what the sandbox refused it (by
kind), the output cut past the cap, rule 1's warnings and a program's failed turns.
Everything in it that a bot chose (an exception's message) is hostile text: escaped
there, and escaped again where shown.
"""
from __future__ import annotations

from typing import Any, Mapping

from orchestrator.results.penalties import CODE_HINT, ERROR_CAP, PROGRAM_FAULTS, faults, lines

__all__ = ["CODE_HINT", "ERROR_CAP", "PROGRAM_FAULTS", "faults", "note", "penalties"]


def note(player: Mapping[str, Any]) -> str:
    """The note of one player of a match result (a dict of `arena run --json`'s players)."""
    return "; ".join(lines(player))


def penalties(player: Mapping[str, Any]) -> list[str]:
    """The note's phrases, one a penalty (`"penalties"` in `--json`)."""
    return lines(player)
