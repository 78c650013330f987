"""Robot Game's turn in words (`arena run --turns`): each robot that acted, spawned or
died, with its player, its action as rgkit names it, its square and HP; then the spawns,
deaths and faults of the turn, as sentences."""
from __future__ import annotations

from typing import Any, Sequence

from orchestrator.games.entry import Piece, TurnWords
from orchestrator.games.turn_words import changes, listed, sentence

COLUMNS = ("id", "player", "x", "y", "hp")


def action(act: Sequence[Any]) -> str:
    """An action of the replay's log, [id, kind, x, y]: "move to (11, 16)", "guard"."""
    kind = str(act[1])
    return f"{kind} {'to' if kind == 'move' else 'at'} ({act[2]}, {act[3]})" \
        if len(act) == 4 else kind


def tell(data: dict, names: Sequence[str], before: dict, after: dict,
         events: Any) -> TurnWords:
    old, new = before.get("robots", {}), after.get("robots", {})

    def robot(rid: int) -> str:
        row = new.get(rid) or old.get(rid)
        ai = row[1] if row is not None else None
        return f"robot {rid}" + (f" ({names[ai]})" if ai is not None and ai < len(names)
                                 else "")

    acts = {act[0]: action(act) for act in events.get("actions", [])}
    pieces = []
    for rid in sorted(set(old) | set(new)):
        was, row = old.get(rid), new.get(rid)
        said = changes(COLUMNS, was, row)
        if rid not in acts and not said:
            continue
        at = f"({row[2]}, {row[3]}), {row[4]} HP" if row is not None else "destroyed"
        pieces.append(Piece(f"robot {rid}", (row or was)[1], acts.get(rid, ""), at,
                            "" if said in ("new", "gone") else said))
    told = []
    spawned = [robot(rid) for rid in sorted(set(new) - set(old))]
    died = [robot(rid) for rid in sorted(set(old) - set(new))]
    if spawned:
        told.append(f"{listed(spawned)} spawned")
    if died:
        told.append(f"{listed(died)} {'was' if len(died) == 1 else 'were'} destroyed")
    for rid, fault in events.get("faults", []):
        told.append(f"{robot(rid)}'s act {'timed out' if fault == 'timeout' else 'raised'}"
                    f" (it guarded)")
    return TurnWords(tuple(pieces), tuple(sentence(t) for t in told))
