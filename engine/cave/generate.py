"""A cavern from the match seed: its size from the number of bots, its content from DENSITY."""
from __future__ import annotations

from engine.cave.constants import CREATURES, DENSITY, GROUND, cavern_side
from engine.cave.match import Bot, Cavern, Creature
from engine.streams import stream


def generate(bots: int, seed: int) -> Cavern:
    """Each square draws once: an item, an obstacle, a creature (on ground), or ground.
    Nurse Nina then stands on a random ground square."""
    rng = stream(seed, "cavern", bots)
    side = cavern_side(bots)
    squares = [[GROUND] * side for _ in range(side)]
    creatures = []
    for row in range(side):
        for col in range(side):
            draw, total = rng.random(), 0.0
            for thing, share in DENSITY.items():
                total += share
                if draw < total:
                    if thing in CREATURES:
                        creatures.append(Creature(thing, row, col))
                    else:
                        squares[row][col] = thing
                    break
    cavern = Cavern(squares, creatures)
    cavern.nurse = rng.choice(_open_ground(cavern, set()))
    return cavern


def place_bots(cavern: Cavern, names: list[str], seed: int) -> list[Bot]:
    """Distinct random ground squares, none on or next to an animal, nor on Nina."""
    rng = stream(seed, "cave-bots", len(names))
    near_animals: set[tuple[int, int] | None] = {(c.row + dr, c.col + dc) for c in cavern.creatures
                    for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    free = _open_ground(cavern, near_animals | {cavern.nurse})
    if len(free) < len(names):
        raise ValueError(f"no room for {len(names)} bots in this cavern")
    return [Bot(name, *square) for name, square in zip(names, rng.sample(free, len(names)),
                                                       strict=True)]


def _open_ground(cavern: Cavern, avoid: set[tuple[int, int] | None]) -> list[tuple[int, int]]:
    taken = {(c.row, c.col) for c in cavern.creatures} | avoid
    return [(r, c) for r, row in enumerate(cavern.squares) for c, square in enumerate(row)
            if square == GROUND and (r, c) not in taken]
