"""The arena board and its physics: stepping, pushing, lasers and destruction.

Positions inside the board are flat indices into a grid padded by the sight radius on
every side, so a sight window or a laser never needs a bounds check: the padding is
OUTSIDE, which is a pit for movers and a stop for beams.
"""
from __future__ import annotations

from collections import deque

from engine.arena.constants import (
    ACTIVE,
    CORPSE,
    DEAD_CORPSE,
    EXPLODED,
    FALLEN,
    MOUNTED_LASER,
    OUTSIDE,
    PIT,
    ROBOT,
    SIGHT_RADIUS,
    WALL,
)
from engine.arena.mapfile import ArenaMap
from engine.arena.rules import Rules


class Thing:
    """Anything that stands on a tile: a robot, a corpse, a wall or a mounted laser."""

    __slots__ = ("id", "kind", "pos", "life", "facing", "owner", "charges", "flags", "state")

    def __init__(self, tid: int, kind: int, pos: int, life: int, facing: int = 0,
                 owner: int = -1, charges: int = 0) -> None:
        self.id = tid
        self.kind = kind
        self.pos = pos
        self.life = life
        self.facing = facing
        self.owner = owner
        self.charges = charges
        self.flags = 0
        self.state = ACTIVE

    def __repr__(self) -> str:
        return f"Thing(id={self.id}, kind={self.kind}, pos={self.pos}, life={self.life})"


class Board:
    """Tiles, the things on them, and the rules that move and break things."""

    def __init__(self, arena: ArenaMap, rules: Rules) -> None:
        self.rules = rules
        self.size = arena.size
        pad = SIGHT_RADIUS
        self.pad = pad
        self.width = width = arena.size + 2 * pad
        self.delta = (-width, 1, width, -1)
        self.floor = [OUTSIDE] * (width * width)
        for r, row in enumerate(arena.floor):
            base = (r + pad) * width + pad
            self.floor[base:base + arena.size] = row
        self.cells: list[Thing | None] = [None] * (width * width)
        self.robots: list[Thing] = []
        self.blocks: list[Thing] = []          # walls and mounted lasers, alive or not
        self.pushed: list[int] = []            # ids of robots and corpses pushed (for logs)
        self.fallen: list[int] = []            # ids of what fell into a pit or off the map
        self.flag_pos = [self.at(r, c) for r, c in arena.flags]
        for r, c in arena.walls:
            self._add(Thing(-1, WALL, self.at(r, c), rules.wall_life))
        for r, c, facing in arena.lasers:
            self._add(Thing(-1, MOUNTED_LASER, self.at(r, c), rules.laser_life, facing))

    # -- geometry ----------------------------------------------------------------------
    def at(self, row: int, col: int) -> int:
        return (row + self.pad) * self.width + col + self.pad

    def rc(self, pos: int) -> tuple[int, int]:
        row, col = divmod(pos, self.width)
        return row - self.pad, col - self.pad

    def _add(self, thing: Thing) -> None:
        self.cells[thing.pos] = thing
        (self.robots if thing.kind == ROBOT else self.blocks).append(thing)

    def add_robot(self, row: int, col: int, facing: int, owner: int, life: int | None = None,
                  charges: int | None = None, flags: int = 0) -> Thing:
        rules = self.rules
        robot = Thing(len(self.robots), ROBOT, self.at(row, col),
                      rules.robot_life if life is None else life, facing, owner,
                      rules.robot_charges if charges is None else charges)
        robot.flags = flags
        self._add(robot)
        return robot

    def lasers_alive(self) -> list[Thing]:
        """Mounted lasers still standing."""
        return [b for b in self.blocks if b.kind == MOUNTED_LASER and b.life > 0]

    # -- movement ----------------------------------------------------------------------
    def step(self, mover: Thing, direction: int) -> bool:
        """One step of `mover` along `direction`, pushing what is in the way.

        Returns True when the mover entered the next tile (False when it bounced or fell).
        """
        d = self.delta[direction]
        target = mover.pos + d
        cells, floor = self.cells, self.floor
        if floor[target] in (PIT, OUTSIDE):
            self._fall(mover, target)
            return False
        first = cells[target]
        if first is not None:
            if first.kind in (WALL, MOUNTED_LASER):
                return False
            chain = [first]
            end = target + d
            while (nxt := cells[end]) is not None and nxt.kind in (ROBOT, CORPSE):
                chain.append(nxt)
                end += d
            if nxt is not None:                      # the chain ends at a wall or laser
                return False
            if floor[end] in (PIT, OUTSIDE):
                self._fall(chain.pop(), end)
            for pushed in reversed(chain):
                self.pushed.append(pushed.id)
                cells[pushed.pos] = None
                pushed.pos += d
                cells[pushed.pos] = pushed
        cells[mover.pos] = None
        mover.pos = target
        cells[target] = mover
        return True

    def _fall(self, thing: Thing, into: int) -> None:
        """`thing` drops into the pit at `into` and is gone; it keeps that position."""
        self.cells[thing.pos] = None
        thing.pos = into
        thing.state = FALLEN
        self.fallen.append(thing.id)

    # -- lasers ------------------------------------------------------------------------
    def beam_target(self, pos: int, facing: int) -> Thing | None:
        """The first thing a beam fired from `pos` along `facing` hits, or None."""
        d = self.delta[facing]
        cells, floor = self.cells, self.floor
        pos += d
        while floor[pos] != OUTSIDE:
            if (hit := cells[pos]) is not None:
                return hit
            pos += d
        return None

    def fire(self, shooters: list[Thing]) -> list[tuple[Thing, Thing]]:
        """All `shooters` fire at once; each hit deals 1 damage. Returns (shooter, target)."""
        hits = []
        for shooter in shooters:
            target = self.beam_target(shooter.pos, shooter.facing)
            if target is not None:
                hits.append((shooter, target))
        for _, target in hits:
            target.life -= 1
        return hits

    # -- destruction -------------------------------------------------------------------
    def resolve_destruction(self) -> list[Thing]:
        """Explode corpses (chained), crumble walls and lasers, then turn robots to corpses.

        Returns the corpses that exploded, in the order they went off.
        """
        cells, width = self.cells, self.width
        # Every corpse was once a robot, so the robot list holds them all.
        queue = deque(sorted((t for t in self.robots
                              if t.state == DEAD_CORPSE and t.life <= 0), key=lambda t: t.pos))
        exploded = []
        queued = {id(t) for t in queue}
        while queue:
            corpse = queue.popleft()
            cells[corpse.pos] = None
            corpse.state = EXPLODED
            exploded.append(corpse)
            for off in (-width - 1, -width, -width + 1, -1, 1, width - 1, width, width + 1):
                victim = cells[corpse.pos + off]
                if victim is None:
                    continue
                victim.life -= 1
                if victim.kind == CORPSE and victim.life <= 0 and id(victim) not in queued:
                    queued.add(id(victim))
                    queue.append(victim)
        for block in self.blocks:
            if block.life <= 0 and cells[block.pos] is block:
                cells[block.pos] = None
        corpse_life = self.rules.corpse_life
        for robot in self.robots:
            if robot.state == ACTIVE and robot.life <= 0:
                robot.state = DEAD_CORPSE
                robot.kind = CORPSE
                robot.life = corpse_life
        return exploded
