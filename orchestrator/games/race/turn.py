"""Race some Robots' turn (a round) in words (`arena run --turns`): each bot with its AI,
its program's cards by name (or the facing it chose in round 0), its square, facing and
checkpoint; then the order the registers played in and the reboots, as sentences."""
from __future__ import annotations

from typing import Any, Sequence

from orchestrator.games.entry import Piece, TurnWords
from orchestrator.games.turn_words import changes, listed, sentence

COLUMNS = ("index", "x", "y", "facing", "checkpoint", "spam", "reboots")
CARDS = {"M1": "Move 1", "M2": "Move 2", "M3": "Move 3", "RT": "Right Turn",
         "LT": "Left Turn", "UT": "U-Turn", "MB": "Back Up", "Ag": "Again", "Sp": "Spam"}


def program(cards: Sequence[Any]) -> str:
    return " / ".join(CARDS.get(card, str(card)) if card is not None else "(none)"
                      for card in cards) or "no cards"


def where(row: Sequence[Any]) -> str:
    _, x, y, facing, checkpoint, spam, reboots = row
    return (f"x {x} y {y} facing {facing}, checkpoint {checkpoint}"
            + (f", {spam} spam" if spam else ""))


def tell(data: dict, names: Sequence[str], before: dict, after: dict,
         events: Any) -> TurnWords:
    old, new = before.get("bots", {}), after.get("bots", {})
    if "facing" in events:
        moves = {i: f"faces {d}" for i, d in enumerate(events["facing"])}
    else:
        moves = {i: program(cards) for i, cards in enumerate(events.get("programs", []))}
    pieces = []
    for index, row in sorted(new.items()):
        said = changes(COLUMNS, old.get(index), row)
        if index not in moves and not said:
            continue
        pieces.append(Piece(f"bot {index}", index, moves.get(index, ""), where(row), said))

    def bot(i: int) -> str:
        return f"bot {i}" + (f" ({names[i]})" if 0 <= i < len(names) else "")

    told = []
    order = events.get("order")
    if order:
        told.append(f"the registers played in the order {listed([bot(i) for i in order])}")
    for n, register in enumerate(events.get("registers", []), start=1):
        rebooted = register.get("reboots") or []
        if rebooted:
            told.append(f"register {n}: {listed([bot(int(i)) for i in rebooted])} "
                        f"rebooted")
    return TurnWords(tuple(pieces), tuple(sentence(t) for t in told))
