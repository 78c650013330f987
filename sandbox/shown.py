"""A bot's text, made safe to show: the one escaping every layer uses (the orchestrator's
tables, pages and error lines through `orchestrator.text`; `--sandbox off`, which writes
what a bot prints to the host's own stderr, here)."""
from __future__ import annotations

import re

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
