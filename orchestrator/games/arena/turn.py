"""Robot Arena's turn in words (`arena run --turns`): each robot told to move or changed,
with its AI, its move by name, where it stands and faces; then the beams, pushes, falls,
explosions and flags of the turn, as sentences."""
from __future__ import annotations

from typing import Any, Sequence

from engine.arena.constants import COMPASS, MOVE_NAMES, OVERHEAT
from orchestrator.games.entry import Piece, TurnWords
from orchestrator.games.turn_words import changes, listed, sentence

COLUMNS = ("id", "row", "col", "facing", "life", "charges", "flags", "state")
STATE = ("standing", "a wreck", "fallen", "exploded")   # the replay's state 0..3
KINDS = {"wall": "wall", "laser": "mounted laser"}
NAMED = {"facing": lambda f: COMPASS[f], "state": lambda s: STATE[s]}


def move_name(code: int) -> str:
    """A move code as the bots' API names it: FORWARD, TURN_LEFT, ..."""
    return "OVERHEAT" if code == OVERHEAT else MOVE_NAMES[code - 1]


def where(row: Sequence[int]) -> str:
    _, r, c, facing, life, _, _, state = row
    return f"row {r} col {c} facing {COMPASS[facing]}" + (
        f", life {life}" if state == 0 else f", {STATE[state]}")


def tell(data: dict, names: Sequence[str], before: dict, after: dict,
         events: Any) -> TurnWords:
    owners = {rid: ai for rid, ai in data["map"]["owners"]}
    old, new = before.get("robots", {}), after.get("robots", {})

    def robot(rid: int) -> str:
        ai = owners.get(rid)
        return f"robot {rid}" + (f" ({names[ai]})" if ai is not None and ai < len(names)
                                 else "")

    moves = {rid: code for rid, code in events.get("moves", [])}
    moves.update({rid: OVERHEAT for rid in events.get("overheats", [])})
    pieces = []
    for rid, row in sorted(new.items()):
        was = old.get(rid)
        asked = was is not None and was[7] == 0          # a standing robot is asked a move
        said = changes(COLUMNS, was, row, NAMED)
        if rid not in moves and not said:
            continue
        move = move_name(moves[rid]) if rid in moves else "no move" if asked else ""
        pieces.append(Piece(f"robot {rid}", owners.get(rid), move, where(row), said))
    told = []
    if events.get("overheats"):
        told.append(f"{listed([robot(r) for r in events['overheats']])} overheated "
                    f"(an exception or an invalid move: 1 damage and no move)")
    shots = events.get("shots", [])
    if shots:
        hits = events.get("hits", [])
        robots = [robot(r) for r in hits if r >= 0]
        blocks = sum(1 for r in hits if r < 0)
        hit = ([listed(robots)] if robots else []) + (
            [f"{blocks} wall{'s' * (blocks != 1)} or mounted laser{'s' * (blocks != 1)}"]
            if blocks else [])
        told.append(f"{len(shots)} laser beam{'s' * (len(shots) != 1)} fired"
                    + (f", hitting {' and '.join(hit)}" if hit else ", hitting nothing"))
    if events.get("pushed"):
        told.append(f"{listed([robot(r) for r in events['pushed']])} "
                    f"{'was' if len(events['pushed']) == 1 else 'were'} pushed")
    if events.get("fell"):
        told.append(f"{listed([robot(r) for r in events['fell']])} fell into a pit")
    if events.get("exploded"):
        told.append(f"{listed([robot(r) for r in events['exploded']])} exploded")
    for rid, flags in events.get("scored", []):
        told.append(f"{robot(rid)} took a flag ({flags} so far)")
    walls = {b[0]: b for b in data["map"].get("blocks", [])}
    worn = [f"{KINDS.get(walls[i][3], 'block') if i in walls else 'block'} {i}"
            + (f" at row {walls[i][1]} col {walls[i][2]}" if i in walls else "")
            + f" (life {was[1]} -> {row[1]})"
            for i, row in sorted(after.get("blocks", {}).items())
            if (was := before.get("blocks", {}).get(i)) is not None and was[1] != row[1]]
    if worn:
        told.append(f"beams wore down {listed(worn)}")
    return TurnWords(tuple(pieces), tuple(sentence(t) for t in told))
