"""Generate arenas sized for a number of AIs at the seed's 5-6 % robot density."""
from __future__ import annotations

import math
import random

from engine import InputError
from engine.arena.constants import EMPTY, FLAG_BASE, LEFT_SPINNER, PIT, RIGHT_SPINNER, E, N, S, W
from engine.arena.mapfile import MAX_SIDE, ArenaMap

TARGET_DENSITY = 0.055     # robots per tile at the start
WALL_SHARE = 0.045         # tiles covered by wall segments
PIT_SHARE = 0.015
SPINNER_SHARE = 0.01
LASER_SHARE = 0.003


def arena_side(ais: int, robots_per_ai: int = 40, density: float = TARGET_DENSITY) -> int:
    """The side of a square arena where `ais` x `robots_per_ai` robots fill `density`."""
    return max(12, math.ceil(math.sqrt(ais * robots_per_ai / density)))


def generate(ais: int, seed: int = 0, robots_per_ai: int = 40, flags: int = 8,
             name: str = "generated") -> ArenaMap:
    """A deterministic random arena for `ais` AIs."""
    if not 1 <= ais <= 64:
        raise InputError(f"--ais must be between 1 and 64, got {ais}")
    if not 1 <= flags <= 9:
        raise InputError(f"--flags must be between 1 and 9, got {flags}")
    size = arena_side(ais, robots_per_ai)
    if size > MAX_SIDE:
        raise InputError(f"--ais {ais} x --robots {robots_per_ai} need an arena of side "
                         f"{size}; at most {MAX_SIDE} (a map's largest)")
    rng = random.Random(seed)
    floor = [[EMPTY] * size for _ in range(size)]
    taken: set[tuple[int, int]] = set()
    # Flags first, spread out by farthest-point sampling, then numbered in a random order.
    spots = [(rng.randrange(2, size - 2), rng.randrange(2, size - 2))]
    while len(spots) < flags:
        candidates = [(rng.randrange(2, size - 2), rng.randrange(2, size - 2))
                      for _ in range(60)]
        spots.append(max(candidates, key=lambda p: min(abs(p[0] - q[0]) + abs(p[1] - q[1])
                                                       for q in spots)))
    rng.shuffle(spots)
    for n, (r, c) in enumerate(spots, start=1):
        floor[r][c] = FLAG_BASE + n
    # Keep a clear ring around each flag so it can always be reached.
    for r, c in spots:
        taken.update((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    area = size * size

    def free_spot() -> tuple[int, int] | None:
        for _ in range(100):
            spot = (rng.randrange(size), rng.randrange(size))
            if spot not in taken:
                return spot
        return None

    spot: tuple[int, int] | None
    walls: list[tuple[int, int]] = []
    while len(walls) < WALL_SHARE * area:
        start = free_spot()
        if start is None:
            break
        (dr, dc), length = rng.choice([(0, 1), (1, 0)]), rng.randint(2, 6)
        for k in range(length):
            spot = (start[0] + dr * k, start[1] + dc * k)
            if spot in taken or not (0 <= spot[0] < size and 0 <= spot[1] < size):
                break
            taken.add(spot)
            walls.append(spot)
    for share, kind in ((PIT_SHARE, PIT), (SPINNER_SHARE / 2, LEFT_SPINNER),
                        (SPINNER_SHARE / 2, RIGHT_SPINNER)):
        for _ in range(max(1, round(share * area))):
            spot = free_spot()
            if spot is not None:
                taken.add(spot)
                floor[spot[0]][spot[1]] = kind
    lasers = []
    for _ in range(max(2, round(LASER_SHARE * area))):
        spot = free_spot()
        if spot is not None:
            taken.add(spot)
            lasers.append((spot[0], spot[1], rng.choice((N, E, S, W))))
    return ArenaMap(name=name, size=size, floor=floor, walls=walls, lasers=lasers, flags=spots)
