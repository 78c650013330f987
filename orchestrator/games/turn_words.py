"""What every game's account of a turn (`arena run --turns`, its entry's `Shown.turn`)
shares: a row's changes in words, a list in a sentence."""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

Namer = Callable[[Any], str]


def changes(names: Sequence[str], old: Sequence[Any] | None, new: Sequence[Any] | None,
            named: Mapping[str, Namer] | None = None, skip: Sequence[str] = ()) -> str:
    """The fields of a row that changed, "facing S -> N, life 5 -> 4", each value as
    `named` names its field (else as it is); a new row: "new"; a row gone: "gone"."""
    if old is None or new is None:
        return "gone" if new is None else "new"
    named = named or {}
    said = []
    for i, name in enumerate(names):
        if i == 0 or name in skip or i >= len(old) or i >= len(new) or old[i] == new[i]:
            continue
        show = named.get(name, str)
        said.append(f"{name} {show(old[i])} -> {show(new[i])}")
    return ", ".join(said)


def listed(items: Sequence[str], most: int = 40) -> str:
    """"a, b and c"; past `most`, the first ones and how many more."""
    items = list(items)
    if len(items) > most:
        items = items[:most] + [f"{len(items) - most} more"]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."
