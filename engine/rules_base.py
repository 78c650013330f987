"""What every game's rules object shares: checked overrides, and a plain-dict form."""
from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from engine import InputError

R = TypeVar("R", bound="RulesBase")


class RulesBase:
    """Mixed into each game's frozen rules dataclass."""

    def replace(self: R, **overrides: Any) -> R:
        """A copy with overrides; unknown names or wrong types are an InputError."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        clean = {}
        for key, value in overrides.items():
            if key not in fields:
                raise InputError(f"unknown rule {key!r} (known: {', '.join(sorted(fields))})")
            kind = type(getattr(self, key))
            if kind is int and isinstance(value, bool) or not isinstance(value, kind):
                raise InputError(f"rule {key!r} must be {kind.__name__}, got {value!r}")
            clean[key] = value
        return dataclasses.replace(self, **clean)

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def preset_with(presets: dict[str, R], preset: str, **overrides: Any) -> R:
    """The named preset with overrides applied."""
    if not isinstance(preset, str) or preset not in presets:     # (a dict: unhashable)
        raise InputError(f"unknown rules preset {preset!r} (known: {', '.join(presets)})")
    return presets[preset].replace(**overrides) if overrides else presets[preset]
