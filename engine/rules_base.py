"""What every game's rules object shares: checked overrides, and a plain-dict form.

Every rule a game lets change has its range here, in its rules class's RANGES (and any
rule on two numbers in its `conflict`): the one place that says what a rule may be, for
the command line's overrides (`--robots`, `--max-turns`), a position file's rules, a
scenario's and a results file's record alike. A rule out of its range would end a match
in a traceback (a division by zero, `randint(10, 8)`) or a loop without end."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from engine import InputError

R = TypeVar("R", bound="RulesBase")


class RulesBase:
    """Mixed into each game's frozen rules dataclass."""

    # Each integer rule's range, both ends included (a rule not named: any value).
    RANGES: ClassVar[dict[str, tuple[int, int]]] = {}
    if TYPE_CHECKING:   # what makes each (dataclass) subclass a dataclass, to mypy
        __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def conflict(self) -> str | None:
        """Why these rules cannot go together (a game with rules on two numbers says)."""
        return None

    def replace(self: R, **overrides: Any) -> R:
        """A copy with overrides; unknown names or wrong types are an InputError."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        clean = {}
        for key, value in overrides.items():
            if key not in fields:
                raise InputError(f"unknown rule {key!r} (known: {', '.join(sorted(fields))})")
            kind = type(getattr(self, key))
            if kind is int and isinstance(value, bool) or not isinstance(value, kind):
                raise InputError(f"rule {key!r} must be {kind.__name__}, got "
                                 f"{_shown(value)}")
            low, high = self.RANGES.get(key, (None, None))
            if low is not None and not low <= value <= high:
                raise InputError(f"rule {key!r} must be a whole number from {low} to "
                                 f"{high}, not {_shown(value)}")
            clean[key] = value
        made = dataclasses.replace(self, **clean)
        problem = made.conflict()
        if problem is not None:
            raise InputError(problem)
        return made

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _shown(value: Any) -> str:
    """A value in an error, short (a huge integer by its size)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a {value.bit_length()}-bit integer"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def preset_with(presets: dict[str, R], preset: str, **overrides: Any) -> R:
    """The named preset with overrides applied."""
    if not isinstance(preset, str) or preset not in presets:     # (a dict: unhashable)
        raise InputError(f"unknown rules preset {preset!r} (known: {', '.join(presets)})")
    return presets[preset].replace(**overrides) if overrides else presets[preset]
