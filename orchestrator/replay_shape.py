"""What a game's replays hold beyond the shared envelope (its entry's `replay_shape`), for
`orchestrator.replay_reader` to check. Kept apart from the reader, which asks the registry
for a game's shape, so the registry's entries can state theirs."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ReplayShape:
    """What a game's replays hold beyond the shared envelope, for the reader to check:
    `map` names the static map's fields and `tables` the state's tables (each must be in
    the initial state, and each row, initial or changed, must fit). A shape is a type
    (`int` is an integer, never a bool or a float), a tuple (a JSON list of exactly those
    items), a one-item list (a JSON list of any length of that item) or a union
    (`int | None`)."""

    map: dict[str, Any] = field(default_factory=dict)
    tables: dict[str, tuple] = field(default_factory=dict)
    # What each table's columns are called (for `arena run --turns`'s changes), where the
    # replay's map does not name them itself (`columns`).
    names: dict[str, tuple[str, ...]] = field(default_factory=dict)
