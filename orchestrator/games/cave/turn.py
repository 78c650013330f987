"""Cave Rangers' turn in words (`arena run --turns`): each bot with its AI, its two
actions by name, its square, health and gold; then the creatures, Nurse Nina and the
squares that changed, as sentences."""
from __future__ import annotations

from typing import Any, Sequence

from engine.cave.constants import (
    BATS,
    BOULDER,
    CENTIPEDE,
    FOOD,
    GOLD,
    GROUND,
    KNIFE,
    LION,
    PIT,
    REVEALER,
    WATER,
)
from orchestrator.games.entry import Piece, TurnWords
from orchestrator.games.turn_words import changes, listed, sentence

COLUMNS = ("index", "row", "col", "health", "gold", "alive", "poison", "stuck")
ACTS = {"M": "move", "A": "attack", "H": "hold"}
HEADINGS = {"NN": "north", "NE": "north-east", "EE": "east", "SE": "south-east",
            "SS": "south", "SW": "south-west", "WW": "west", "NW": "north-west"}
CREATURES = {LION: "lion", CENTIPEDE: "centipede", BATS: "bats"}
SQUARES = {GROUND: "ground", GOLD: "gold", FOOD: "food", WATER: "water",
           REVEALER: "a revealer", KNIFE: "a knife", BOULDER: "a boulder", PIT: "a pit"}


def answer(text: Any) -> str:
    """A bot's answer line, "MEEMSE": "move east, move south-east"; anything else is
    two holds, as the rules play it."""
    if not isinstance(text, str) or len(text.strip()) != 6:
        return "no valid answer (holds twice)"
    line = text.strip()
    acts = [(line[0], line[1:3]), (line[3], line[4:6])]
    if not all(act in ACTS and heading in HEADINGS for act, heading in acts):
        return "no valid answer (holds twice)"
    return ", ".join(ACTS[act] if act == "H" else f"{ACTS[act]} {HEADINGS[heading]}"
                     for act, heading in acts)


def where(row: Sequence[Any]) -> str:
    _, r, c, health, gold, alive, poison, stuck = row
    return (f"row {r} col {c}, health {health}, gold {gold}" + ("" if alive else ", dead")
            + (f", poisoned {poison}" if poison else "") + (f", stuck {stuck}" if stuck
                                                            else ""))


def tell(data: dict, names: Sequence[str], before: dict, after: dict,
         events: Any) -> TurnWords:
    answers = {ai: line for ai, line in events.get("answers", [])}
    old, new = before.get("bots", {}), after.get("bots", {})
    pieces = []
    for index, row in sorted(new.items()):
        said = changes(COLUMNS, old.get(index), row, {"alive": lambda a: "yes" if a else "no"})
        if index not in answers and not said:
            continue
        move = answer(answers[index]) if index in answers else ""
        pieces.append(Piece(f"bot {index}", index, move, where(row), said))
    told = []
    was, now = before.get("creatures", {}), after.get("creatures", {})
    moved = sum(1 for i, row in now.items() if i in was and was[i] != row)
    if moved:
        told.append(f"{moved} creature{'s' * (moved != 1)} moved")
    gone = [f"the {CREATURES.get(row[1], 'creature')} at row {row[2]} col {row[3]}"
            for i, row in sorted(was.items()) if i not in now]
    if gone:
        told.append(f"{listed(gone)} {'is' if len(gone) == 1 else 'are'} gone")
    nurse = after.get("nurse", {}).get(0)
    if nurse is not None and before.get("nurse", {}).get(0) != nurse:
        told.append(f"Nurse Nina is at row {nurse[1]} col {nurse[2]}")
    squares = []
    for r, row in sorted(after.get("squares", {}).items()):
        prior = before.get("squares", {}).get(r)
        if prior is None:
            continue
        squares += [f"row {r} col {c} ({SQUARES.get(a, a)} -> {SQUARES.get(b, b)})"
                    for c, (a, b) in enumerate(zip(prior[1], row[1], strict=False))
                    if a != b]
    if squares:
        told.append(f"squares changed: {listed(squares)}")
    return TurnWords(tuple(pieces), tuple(sentence(t) for t in told))
