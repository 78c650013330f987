"""A match's state between two turns as plain data, and back: each game's part of a
position file (`arena replay FILE --turn N --save-position`, `arena run --from`).

Each game's rulebook names a `PositionHooks`: `save(match)` gives the state after the
turns played (everything that changes: robots, counters, the random generators' states,
the turn), `load(map, names, seed, rules, state)` gives a match that plays on from there
exactly as the saved one would. The map itself travels beside the state as its file's
text. A state is read as untrusted data: `State` checks every value it hands out and
names the field of a bad one in an InputError.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable

from engine import InputError
from engine.protocol import Match

MAX_ITEMS = 50_000             # items in one list of a state (robots, rows, cards): a
                               # replay's state holds at most as many rows
MAX_INT = 1 << 53              # integers of a state stay below this, either sign
RNG_VERSION, RNG_WORDS = 3, 625

# State's readers are named int, bool, str and list: in its class body those names are
# the methods, so its annotations name the builtins through these.
_Int = int
_Bool = bool
_Str = str
_List = list


@dataclass(frozen=True)
class PositionHooks:
    """How a game saves its match's state and starts a match from one."""

    # Each game's own match and map types: a hook takes its game's, never another's.
    save: Callable[[Any], dict[str, Any]]
    load: Callable[[Any, list[str], int, Any, dict[str, Any]], Match]


def rng_state(rng: random.Random) -> list[Any]:
    """A random generator's state as plain data: [version, [625 words], gauss_next]."""
    version, words, gauss = rng.getstate()
    return [version, list(words), gauss]


class State:
    """Checked reads of one state dict; a bad value is an InputError naming its field."""

    def __init__(self, data: Any, where: _Str = "state") -> None:
        if not isinstance(data, dict):
            raise InputError(f"{where}: must be an object")
        self.data, self.where = data, where

    def fail(self, key: _Str, problem: _Str) -> InputError:
        return InputError(f"{self.where}.{key}: {problem}")

    def get(self, key: _Str) -> Any:
        if key not in self.data:
            raise self.fail(key, "missing")
        return self.data[key]

    def int(self, key: _Str, low: _Int = 0, high: _Int = MAX_INT) -> _Int:
        return check_int(self.get(key), low, high, f"{self.where}.{key}")

    def optional_int(self, key: _Str, low: _Int = 0, high: _Int = MAX_INT) -> _Int | None:
        value = self.get(key)
        return None if value is None else self.int(key, low, high)

    def bool(self, key: _Str) -> _Bool:
        value = self.get(key)
        if type(value) is not bool:
            raise self.fail(key, "must be true or false")
        return value

    def str(self, key: _Str, allowed: Any = None, optional: _Bool = False) -> _Str | None:
        value = self.get(key)
        if value is None and optional:
            return None
        if not isinstance(value, str) or len(value) > 10_000 or (
                allowed is not None and value not in allowed):
            raise self.fail(key, "must be " + (f"one of {sorted(allowed)}"[:200]
                                               if allowed is not None else "a string"))
        return value

    def list(self, key: _Str, length: _Int | None = None, most: _Int = MAX_ITEMS) -> _List[Any]:
        value = self.get(key)
        if not isinstance(value, list) or len(value) > most or (
                length is not None and len(value) != length):
            count = length if length is not None else f"at most {most}"
            raise self.fail(key, f"must be a list of {count} items")
        return value

    def ints(self, key: _Str, length: _Int | None = None, low: _Int = 0,
             high: _Int = MAX_INT) -> _List[_Int]:
        return [check_int(v, low, high, f"{self.where}.{key}[{i}]")
                for i, v in enumerate(self.list(key, length))]

    def rows(self, key: _Str, shape: tuple[Any, ...],
             length: _Int | None = None) -> _List[_List[Any]]:
        """A list of rows, each a list of exactly the types of `shape` (int: never bool;
        a tuple of types: any of them)."""
        rows = self.list(key, length)
        for i, row in enumerate(rows):
            if not isinstance(row, list) or len(row) != len(shape) or not all(
                    _is(value, kind) for value, kind in zip(row, shape, strict=True)):
                raise InputError(f"{self.where}.{key}[{i}]: must be a list of {len(shape)}: "
                                 f"{', '.join(_name(kind) for kind in shape)}")
        return rows

    def rng(self, key: _Str) -> random.Random:
        """A random generator in the saved state (as `rng_state` wrote it)."""
        value = self.get(key)
        if not (isinstance(value, list) and len(value) == 3 and value[0] == RNG_VERSION
                and isinstance(value[1], list) and len(value[1]) == RNG_WORDS
                and all(type(w) is int and 0 <= w < 1 << 32 for w in value[1])
                and value[1][-1] <= RNG_WORDS - 1
                and (value[2] is None or type(value[2]) is float)):
            raise self.fail(key, f"must be a random generator's state: [{RNG_VERSION}, "
                                 f"[{RNG_WORDS} words], null]")
        words = value[1]
        if not (words[0] & 0x80000000 or any(words[1:RNG_WORDS - 1])):
            # Mersenne Twister's one state no seed reaches (random.setstate takes it): it
            # draws 0 forever, and a loop waiting for another draw never ends.
            raise self.fail(key, "not a random generator's state (all its words are zero, "
                                 "which no seed reaches)")
        if value[2] is not None and not math.isfinite(value[2]):
            raise self.fail(key, "not a random generator's state (its gauss_next is not a "
                                 "finite number)")
        rng = random.Random()
        try:
            rng.setstate((value[0], tuple(value[1]), value[2]))
        except (ValueError, TypeError, OverflowError) as exc:
            raise self.fail(key, f"not a random generator's state ({exc})") from None
        return rng


def check_int(value: Any, low: int, high: int, where: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise InputError(f"{where}: must be an integer from {low} to {high}")
    return value


def _is(value: Any, kind: Any) -> bool:
    if isinstance(kind, tuple):
        return any(_is(value, k) for k in kind)
    if kind is int:
        return type(value) is int and -MAX_INT <= value <= MAX_INT
    if kind is None:
        return value is None
    return type(value) is kind


def _name(kind: Any) -> str:
    if isinstance(kind, tuple):
        return " or ".join(_name(k) for k in kind)
    return "null" if kind is None else {int: "integer", str: "string", bool: "true/false",
                                        float: "number"}.get(kind, str(kind))
