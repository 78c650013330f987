"""Numbers spelled as text in untrusted data (a replay's keys, a command's argument): ASCII
decimal in its one canonical spelling, or not a number at all.

`str.isdigit()` is true of '²' (which `int` refuses: a ValueError) and of '٠', an
Arabic-Indic zero (which `int` reads as 0), and `int` takes ' 7', '+7', '07' and '7_0'
too: a key read that way is a traceback, or a second spelling of the same number that a
check keyed by text counts apart (two budgets for one AI). Every reader of a number as
text reads it here.
"""
from __future__ import annotations

MOST_DIGITS = 18                 # below 10**18: every count and index the files hold


def ascii_decimal(text: object, most_digits: int = MOST_DIGITS) -> int | None:
    """The whole number from 0 that `text` spells as the host writes one (`str(n)`: ASCII
    digits, no sign, space or leading zero, at most `most_digits` of them); None for
    anything else, whatever its type."""
    if type(text) is not str or not 0 < len(text) <= most_digits or not text.isascii() \
            or not text.isdigit() or (text[0] == "0" and len(text) > 1):
        return None
    return int(text)


def ascii_integer(text: object, most_digits: int = MOST_DIGITS) -> int | None:
    """`ascii_decimal`, or one with a leading '-' ("-3"; never "-0")."""
    if type(text) is str and text.startswith("-"):
        found = ascii_decimal(text[1:], most_digits)
        return -found if found else None
    return ascii_decimal(text, most_digits)
