"""A player's note: what went wrong for an AI in one match, in one line, for the tables
(`arena run`), the API's result (`PlayerResult.note`, `"note"` in `--json`) and the
notebook view.

Why an AI was erased or did not load (its reason) says it all. An AI that finished can
still have gone wrong: its calls raised (a notebook bot using a module imported in
another cell raises NameError on every call: status ok, every decision an overheat), a
program's turns failed, or the sandbox refused it something. The note names the first
error as the bot raised it, and the rest by count. Everything in it that a bot chose (an
exception's message) is hostile text: escaped here, and escaped again where shown.
"""
from __future__ import annotations

from orchestrator.sample_folder import cache_dir
from orchestrator.text import plural, shown

# What the sandbox counts as a program's failed turn (service/check.py keeps the same).
PROGRAM_FAULTS = {"hang": "gave no answer in time", "cpu": "went past its CPU limit",
                  "memory": "was stopped at the memory cap", "crash": "ended with an error",
                  "output": "wrote more than the output cap to stdout"}
ERROR_CAP = 160         # characters of the first error kept in the note
CODE_HINT = ("a bot given as code runs alone in its sandbox: import what it uses inside "
             "the function, or pass its helpers")


def note(player: dict) -> str:
    """The note of one player of a match result (a dict of `arena run --json`'s players)."""
    if player.get("reason"):
        said = shown(player["reason"])
    else:
        # A warning names a module-level name the bot chose: any text, escaped too.
        said = "; ".join(part for part in (first_error(player),
                                           *map(shown, player.get("warnings", ())[:1]),
                                           faults(player)) if part)
    if player.get("turn"):
        said = f"{said} (turn {player['turn']})"
    return said


def first_error(player: dict) -> str:
    """`162 overheats, first: NameError: name 'math' is not defined`, or ""."""
    errors = player.get("errors") or []
    if not errors:
        return ""
    text = shown(errors[0])
    text = text if len(text) <= ERROR_CAP else text[:ERROR_CAP - 3] + "..."
    count = player.get("overheats") or len(errors)
    said = f"{plural(count, 'overheat')}, first: {text}"
    if text.startswith("NameError") and _is_code_bot(player.get("bot") or ""):
        said += f" ({CODE_HINT})"
    return said


def faults(player: dict) -> str:
    """What went wrong for an AI that still finished: a program's failed turns (by kind),
    its invalid answers and what the sandbox refused it, else ""."""
    stats = player.get("stats") or {}
    turns = stats.get("decisions") or 0
    said = [f"{kind}: {PROGRAM_FAULTS.get(kind, 'failed')} in {count} of {turns} turns"
            for kind, count in (stats.get("faults") or {}).items() if count]
    if stats.get("invalid") and not said:
        said.append(f"{plural(stats['invalid'], 'invalid answer')}")
    if player.get("violations"):
        said.append("refused: " + ", ".join(shown(v) for v in player["violations"][:3]))
    return "; ".join(said)


def _is_code_bot(path: str) -> bool:
    """Whether a bot's file is one the API wrote from a function or class (cellbots)."""
    return str(cache_dir() / "cells") in path
