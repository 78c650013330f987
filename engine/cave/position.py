"""Cave Rangers' state between turns (engine/position.py): the cavern as it is now (its
squares, items taken, the creatures, Nurse Nina), every bot (square, health, gold,
poison, what it carries), the match's random generator, the turn and the counters. A
generated cavern is drawn from the seed once; the state holds it as it is now, so the
map file beside it is read only for its name."""
from __future__ import annotations

from typing import Any

from engine import InputError
from engine.cave.constants import CREATURES, SQUARE_SYMBOLS
from engine.cave.game import FAULTS, CaveGame
from engine.cave.match import Bot, CaveMatch, Cavern, Creature
from engine.cave.rules import Rules
from engine.position import PositionHooks, State, rng_state

MAX_SIDE = 512
ENDS = {"last_bot", "no_bots", "turn_limit"}
# bots: [row, col, health, gold, turns, poison, stuck, revealer, knife, alive, invalid]
BOT_ROW = (int, int, int, int, int, int, int, bool, bool, bool, int)


def save(game: CaveGame) -> dict[str, Any]:
    match, cavern = game.match, game.match.cavern
    return {
        "turn": match.turn, "end": match.end, "rng": rng_state(match.rng),
        "squares": ["".join(row) for row in cavern.squares],
        "creatures": [[c.kind, c.row, c.col] for c in cavern.creatures],
        "nurse": list(cavern.nurse) if cavern.nurse is not None else None,
        "nurse_stay": cavern.nurse_stay,
        "bots": [[b.row, b.col, b.health, b.gold, b.turns, b.poison, b.stuck, b.revealer,
                  b.knife, b.alive, b.invalid] for b in match.bots],
        "faults": [[f[kind] for kind in FAULTS] for f in game.faults],
        "asked": list(game.asked)}


def load(cave_map: Any, names: list[str], seed: int, rules: Rules,
         data: dict[str, Any]) -> CaveGame:
    state = State(data)
    n = len(names)
    squares = state.list("squares", most=MAX_SIDE)
    side = len(squares)
    if not squares or not all(isinstance(row, str) and len(row) == side and set(row) <=
                              set(SQUARE_SYMBOLS) for row in squares):
        raise InputError(f"state.squares: must be 1 to {MAX_SIDE} rows of {side} squares "
                         f"({''.join(SQUARE_SYMBOLS)})")

    def inside(r: int, c: int, where: str) -> tuple[int, int]:
        if not (0 <= r < side and 0 <= c < side):
            raise InputError(f"{where}: off the {side}x{side} cavern")
        return r, c

    creatures = []
    for i, (kind, r, c) in enumerate(state.rows("creatures", (str, int, int))):
        if kind not in CREATURES:
            raise InputError(f"state.creatures[{i}]: a creature is one of {CREATURES}")
        creatures.append(Creature(kind, *inside(r, c, f"state.creatures[{i}]")))
    nurse: Any = state.get("nurse")            # untrusted: checked below
    if nurse is not None:
        r, c = State({"nurse": [nurse]}).rows("nurse", (int, int), 1)[0]
        nurse = inside(r, c, "state.nurse")
    cavern = Cavern([list(row) for row in squares], creatures, nurse,
                    state.int("nurse_stay", 0, 1 << 30))
    bots = []
    for i, row in enumerate(state.rows("bots", BOT_ROW, n)):
        r, c, health, gold, turns, poison, stuck, revealer, knife, alive, invalid = row
        inside(r, c, f"state.bots[{i}]")
        if min(gold, turns, poison, stuck, invalid) < 0:
            raise InputError(f"state.bots[{i}]: counts below 0")
        bots.append(Bot(names[i], r, c, health, gold, turns, poison, stuck, revealer, knife,
                        alive, invalid))
    game = CaveGame.__new__(CaveGame)
    game.match = CaveMatch(cavern, bots, seed, rules.max_turns)
    game.match.turn = state.int("turn", 0, rules.max_turns)
    game.match.end = state.str("end", ENDS, optional=True)
    game.match.rng = state.rng("rng")
    faults = state.list("faults", n)
    game.faults = [dict(zip(FAULTS, State({"f": f}).ints("f", len(FAULTS)), strict=True))
                   for f in faults]
    game.asked = state.ints("asked", n)
    game._asked = []
    return game


HOOKS = PositionHooks(save, load)
