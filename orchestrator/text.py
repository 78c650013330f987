"""Bot-supplied strings, made safe to show.

A bot chooses its name, what it prints, its exception messages, and so the reasons and
violations recorded about it. Shown as they are, they could move a terminal's cursor,
retitle it or write its clipboard (escape sequences), reorder what follows them on the
line (bidi controls), or be read as rich markup (`[/]` raises, `[link=...]` hides a link).
Every place that shows one goes through `shown` (a plain string: CSV, `typer.echo`) or
`shown_text` (a rich `Text`, which never parses markup or emoji codes).

Rich is imported by the two functions that make its objects, not by this module: the
runner, the results and the service read their words here (`shown`, `plural`, `ended`)
and draw nothing, so they start without rich (tests/test_lazy.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.shown import shown

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

__all__ = ["shown", "shown_text", "plural", "seconds", "console", "ended", "PIPED_WIDTH"]


def shown_text(value: object, style: str | None = None, lines: bool = False) -> Text:
    """`shown(value)` as a rich Text: a table cell or a line that rich prints as it is."""
    from rich.text import Text

    return Text(shown(value, lines), style=style or "")


def plural(count: int, noun: str) -> str:
    """`1 turn`, `2 turns`."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def seconds(value: float | None) -> str:
    """`0.15`: a figure in seconds for a table; a dash where none was kept (an AI's own
    time in a results file from before own times)."""
    return "-" if value is None else f"{value:.2f}"


# Piped output (a CI log, a file) is read later, in any width: rich's default of 80
# columns cuts names and headers there (`coord…`). Off a terminal, tables take their own
# width, up to this.
PIPED_WIDTH = 200


def console(stderr: bool = False, **options) -> Console:
    """A rich console for a command's output: the terminal's width on a terminal, else
    wide enough that no table cuts a name (COLUMNS, when wider, still counts)."""
    from rich.console import Console

    found = Console(stderr=stderr, **options)
    if not found.is_terminal:
        found = Console(stderr=stderr, width=max(PIPED_WIDTH, found.width), **options)
    return found


# How a match ended, in words: the engines' codes (a result's `end`) as a sentence's end.
ENDINGS = {"turn_limit": "ended at the turn limit", "round_limit": "ended at the round limit",
           "flags": "ended when an AI took the last flag", "survivor": "ended with one AI left",
           "extinction": "ended with no robot left", "last_bot": "ended with one bot left",
           "no_bots": "ended with no bot left", "win": "ended with a robot's win",
           "stopped": "stopped after the turns asked for"}


def ended(end: object) -> str:
    """`ended at the turn limit` for a result's `turn_limit`; a code of no known game as
    `ended by its code` (shown: a results file may come from anyone)."""
    if isinstance(end, str) and end in ENDINGS:
        return ENDINGS[end]
    return f"ended by {shown(str(end)).replace('_', ' ')}"
