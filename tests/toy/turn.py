"""The toy game's turn in words (`arena run --turns`): each player's step and square, the
coins taken."""
from __future__ import annotations

from orchestrator.games.entry import Piece, TurnWords
from orchestrator.games.turn_words import changes, sentence

COLUMNS = ("id", "x", "y", "player", "coins")
STEPS = {"N": "north", "E": "east", "S": "south", "W": "west", ".": "stay"}


def tell(data, names, before, after, events) -> TurnWords:
    steps = {ai: STEPS.get(step, "stay") for ai, step, *_ in events}
    old, new = before.get("players", {}), after.get("players", {})
    pieces = tuple(Piece(f"player {i}", row[3], steps.get(i, ""),
                         f"{row[1]},{row[2]}, {row[4]} coins", changes(COLUMNS, old.get(i), row))
                   for i, row in sorted(new.items()))
    taken = [f"player {ai} ({names[ai]}) took the coin at {x},{y}"
             for ai, _, x, y, took in events if took and 0 <= ai < len(names)]
    return TurnWords(pieces, tuple(sentence(t) for t in taken))
