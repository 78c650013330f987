"""The one table of the numbers a user gives (`--seed`, `--max-turns`, `--cpu-limit`, ...),
with the range each may take, checked the same way for `arena ...` and `api....`.

The command line parses a number (typer) and hands it to the API; the API takes any
Python object. Both fronts call `check` on the service layer's way in, so a bad value is
the same one-line InputError either way: `--seed 99999999999999999999999: must be a
whole number from 0 to 9223372036854775807`. tests/api/test_arguments.py walks this
table, so a row added here is tested on both fronts without a new test.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from engine import InputError

# A seed travels to the bots in msgpack and JSON and is stored in SQLite: a signed
# 64-bit integer, and a match's seeds are never negative (drawn ones, the ladder's).
SEED_MAX = (1 << 63) - 1


@dataclass(frozen=True)
class Argument:
    """One argument: its command-line flag, whole number or not, and its range."""

    flag: str
    whole: bool                     # int (bool refused) or float (int accepted)
    low: float
    high: float
    low_open: bool = False          # low itself refused (a positive time)
    high_open: bool = False
    unit: str = ""
    commands: tuple[str, ...] = ()  # the commands (and API functions) that take it
    example: float = 1              # a usual value (the tests play with it)

    def rule(self) -> str:
        """`must be ...`, the same words for every bad value."""
        kind = "a whole number" if self.whole else "a number"
        low, high = _figure(self.low), _figure(self.high)
        unit = f" {self.unit}" if self.unit else ""
        if self.low_open and self.high_open:
            return f"{kind} between {low} and {high}{unit}, both excluded"
        if self.low_open:
            return f"{kind} greater than {low} and at most {high}{unit}"
        return f"{kind} from {low} to {high}{unit}"

    def fits(self, value: Any) -> bool:
        if isinstance(value, bool):
            return False
        if self.whole:
            if not isinstance(value, int):
                return False
        elif not isinstance(value, (int, float)) or not math.isfinite(value):
            return False
        above = value > self.low if self.low_open else value >= self.low
        below = value < self.high if self.high_open else value <= self.high
        return above and below


def _figure(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


_RUN = ("run", "check", "batch", "tournament", "compare")
_RUNS = ("batch", "tournament", "compare")

ARGUMENTS: dict[str, Argument] = {
    "seed": Argument("--seed", True, 0, SEED_MAX, commands=("run", "check", "compare"),
                     example=42),
    "first_seed": Argument("--first-seed", True, 0, SEED_MAX,
                           commands=("batch", "tournament"), example=7),
    "seeds": Argument("--seeds", True, 1, 100_000, commands=("batch",)),
    "games": Argument("--games", True, 1, 100_000, commands=("tournament",)),
    "size": Argument("--size", True, 2, 1000, commands=("tournament",), example=2),
    "max_games": Argument("--max-games", True, 2, 200_000, commands=("compare",),
                          example=2),
    "robots": Argument("--robots", True, 1, 100_000, commands=("run", *_RUNS), example=3),
    "max_turns": Argument("--max-turns", True, 1, 1_000_000, commands=("run", *_RUNS),
                          example=2),
    "turns": Argument("--turns", True, 1, 1_000_000, commands=("run", "check"), example=2),
    "cpu_limit": Argument("--cpu-limit", False, 0, 3600, low_open=True, unit="seconds",
                          commands=_RUN, example=0.5),
    "memory_mb": Argument("--memory-mb", True, 64, 1 << 20, unit="MiB", commands=_RUN,
                          example=512),
    "workers": Argument("--workers", True, 1, 4096, commands=_RUNS),
    "max_overheats": Argument("--max-overheats", False, 0, 1, commands=("check",),
                              example=0.5),
    "alpha": Argument("--alpha", False, 0, 0.5, low_open=True, high_open=True,
                      commands=("compare",), example=0.05),
    "beta": Argument("--beta", False, 0, 0.5, low_open=True, high_open=True,
                     commands=("compare",), example=0.05),
    "elo0": Argument("--elo0", False, -2000, 2000, unit="Elo", commands=("compare",),
                     example=-5),
    "elo1": Argument("--elo1", False, -2000, 2000, unit="Elo", commands=("compare",),
                     example=20),
}


def shown_value(value: Any) -> str:
    """A value as the error names it: its repr, short (a huge int by its size; no str
    conversion of more than 4300 digits, which Python refuses)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        return f"(a {value.bit_length()}-bit integer)"
    if isinstance(value, float):
        return f"{value:g}"             # the same for 0 and 0.0, from the API or a flag
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check(**values: Any) -> None:
    """Check each given value (None: the default, not checked) against its row of the
    table: the first bad one is an InputError `FLAG VALUE: must be ...`."""
    for name, value in values.items():
        argument = ARGUMENTS[name]
        if value is not None and not argument.fits(value):
            raise InputError(f"{argument.flag} {shown_value(value)}: must be {argument.rule()}")


def check_span(first: int, count: int, flag: str = "--first-seed") -> None:
    """A run's seeds first..first+count-1 all fit a seed."""
    if first + count - 1 > SEED_MAX:
        raise InputError(f"{flag} {first}: the run's seeds would go past {SEED_MAX}, the "
                         f"largest seed (at most {SEED_MAX - count + 1} for {count} seeds)")
