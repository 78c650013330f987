"""Scripted positions (spec/cave.md): a hand-made cavern, bots and their answers, run
through the real engine, and the final state in the spec's shape."""
from __future__ import annotations

from typing import Any

from engine import InputError
from engine.cave.constants import CREATURES, NURSE, SQUARE_SYMBOLS
from engine.cave.match import Bot, CaveMatch, Cavern, Creature

BOT_FIELDS = {"health": int, "gold": int, "turns": int, "poison": int, "stuck": int,
              "revealer": bool, "knife": bool}


def parse_cavern(rows: Any, where: str, lines: list[int] | None = None) -> Cavern:
    """Rows of square symbols, creatures (on ground) and at most one Nurse Nina. With
    `lines` (each row's line in a cavern file), errors say `file:line:column:`, counted
    from 1 as an editor counts; else the grid's row and column (from 0)."""

    def at(r: int, c: int) -> str:
        return f"{where}:{lines[r]}:{c + 1}:" if lines else f"{where}: row {r}, column {c}:"

    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise InputError(f"{where}: 'cavern' must be a non-empty list of strings")
    if any(len(row) != len(rows[0]) for row in rows):
        raise InputError(f"{where}: 'cavern' rows must all have the same length")
    squares, creatures, nurse = [], [], None
    for r, row in enumerate(rows):
        line = []
        for c, symbol in enumerate(row):
            if symbol in CREATURES:
                creatures.append(Creature(symbol, r, c))
            elif symbol == NURSE:
                if nurse is not None:
                    raise InputError(f"{at(r, c)} a second Nurse Nina")
                nurse = (r, c)
            elif symbol not in SQUARE_SYMBOLS:
                raise InputError(f"{at(r, c)} unknown symbol {symbol!r}")
            line.append(symbol if symbol in SQUARE_SYMBOLS else SQUARE_SYMBOLS[0])
        squares.append(line)
    return Cavern(squares, creatures, nurse)


def build(data: Any, name: str = "<scenario>") -> tuple[CaveMatch, list[str]]:
    """The match of a scenario, and the bots' ids in index order."""
    if not isinstance(data, dict):
        raise InputError(f"{name}: a scenario is a JSON object")
    cavern = parse_cavern(data.get("cavern"), name)
    bots, ids = [], []
    listed = data.get("bots", [])
    if not isinstance(listed, list):
        raise InputError(f"{name}: 'bots' must be a list of bots")
    for n, spec in enumerate(listed):
        where = f"{name}: bot {n + 1}"
        if not isinstance(spec, dict) or not isinstance(spec.get("id"), str):
            raise InputError(f"{where}: must be an object with a string 'id'")
        row, col = spec.get("row"), spec.get("col")
        if not (type(row) is int and type(col) is int and cavern.inside(row, col)):
            raise InputError(f"{where}: 'row' and 'col' must be a square of the cavern")
        if spec["id"] in ids:
            raise InputError(f"{where}: id {spec['id']!r} is used twice")
        extra: dict[str, Any] = {}
        for key, kind in BOT_FIELDS.items():
            if key in spec:
                value = spec[key]
                if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                    raise InputError(f"{where}: {key!r} must be {kind.__name__}")
                extra[key] = value
        bots.append(Bot(spec["id"], row, col, **extra))
        ids.append(spec["id"])
    order = data.get("order")
    if order is not None and not (isinstance(order, list) and
                                  all(isinstance(i, str) for i in order)):
        raise InputError(f"{name}: 'order' must be a list of bot ids")
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InputError(f"{name}: 'seed' must be an integer")
    match = CaveMatch(cavern, bots, seed, creatures_move=data.get("creatures_move", True) is True,
                      order=None if order is None else [ids.index(i) for i in order if i in ids])
    return match, ids


def run(data: Any, name: str = "<scenario>") -> dict[str, Any]:
    """Play the scripted turns (or until the game ends); the final state."""
    match, ids = build(data, name)
    turns = data.get("turns", [])
    if not isinstance(turns, list) or not all(isinstance(t, dict) for t in turns):
        raise InputError(f"{name}: 'turns' must be a list of objects of id: answer")
    for answers in turns:
        if match.end is not None:
            break
        match.play_turn({ids.index(i): a for i, a in answers.items() if i in ids})
    return state(match, ids)


def state(match: CaveMatch, ids: list[str]) -> dict[str, Any]:
    bots = [{"id": i, "row": b.row, "col": b.col, "health": b.health, "gold": b.gold,
             "turns": b.turns, "poison": b.poison, "stuck": b.stuck, "revealer": b.revealer,
             "knife": b.knife, "alive": b.alive, "score": b.score, "invalid": b.invalid}
            for i, b in zip(ids, match.bots, strict=True)]
    return {"turn": match.turn, "end": match.end, "bots": bots, "cavern": match.cavern.rows()}
