"""Bot-supplied strings, made safe to show.

A bot chooses its name, what it prints, its exception messages, and so the reasons and
violations recorded about it. Shown as they are, they could move a terminal's cursor,
retitle it or write its clipboard (escape sequences), reorder what follows them on the
line (bidi controls), or be read as rich markup (`[/]` raises, `[link=...]` hides a link).
Every place that shows one goes through `shown` (a plain string: CSV, `typer.echo`) or
`shown_text` (a rich `Text`, which never parses markup or emoji codes).
"""
from __future__ import annotations

import re

from rich.console import Console
from rich.text import Text

# Unicode's control characters (C0, DEL and C1: ESC, BEL, CSI 0x9b, OSC 0x9d...), its
# format characters (category Cf: the bidi controls, which reorder the text after them,
# and the invisible ones, zero-width space and joiners, word joiner, BOM, soft hyphen,
# tags, with which `Hunter\u200b` passed for `Hunter`), the Hangul fillers (letters that
# show as nothing), the line and paragraph separators, and lone surrogates (which no
# terminal or file encoding takes). tests/doors/test_red_pages.py holds this to every Cf
# character of the running Python's Unicode.
_FORMAT = (r"\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
           r"\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
           r"\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001"
           r"\U000e0020-\U000e007f")
_FILLERS = r"\u115f\u1160\u3164\uffa0"
_OTHERS = rf"\x7f-\x9f{_FORMAT}{_FILLERS}\u2028\u2029\ud800-\udfff"
_UNSAFE = re.compile(rf"[\x00-\x1f{_OTHERS}]")
_UNSAFE_BUT_LINES = re.compile(rf"[\x00-\x08\x0b-\x1f{_OTHERS}]")     # keeps \t and \n


def _escaped(match: re.Match) -> str:
    return match.group().encode("unicode_escape").decode("ascii")     # ESC -> \x1b


def shown(value: object, lines: bool = False) -> str:
    """`value` as text in which every control, escape or bidi character is replaced by
    its visible Python escape (`\\x1b`, `\\u202e`, `\\n`). `lines`: keep newlines and tabs
    (a bot's output, a multi-line message)."""
    return (_UNSAFE_BUT_LINES if lines else _UNSAFE).sub(_escaped, str(value))


def shown_text(value: object, style: str | None = None, lines: bool = False) -> Text:
    """`shown(value)` as a rich Text: a table cell or a line that rich prints as it is."""
    return Text(shown(value, lines), style=style or "")


def plural(count: int, noun: str) -> str:
    """`1 turn`, `2 turns`."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


# Piped output (a CI log, a file) is read later, in any width: rich's default of 80
# columns cuts names and headers there (`coord…`). Off a terminal, tables take their own
# width, up to this.
PIPED_WIDTH = 200


def console(stderr: bool = False, **options) -> Console:
    """A rich console for a command's output: the terminal's width on a terminal, else
    wide enough that no table cuts a name (COLUMNS, when wider, still counts)."""
    found = Console(stderr=stderr, **options)
    if not found.is_terminal:
        found = Console(stderr=stderr, width=max(PIPED_WIDTH, found.width), **options)
    return found
