"""One turn of Robot Game: moves, collisions, attacks, suicides and guards.

A pure function of the robots, their actions and the attack damage drawn. Moves follow
rgkit's rules: a move fails when several robots want the same square or two robots swap;
a failed robot stays, and so does any robot that wanted its square, back along the chain;
cycles of four or more all move. Damage never hits a friend.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Callable, Sequence

Loc = tuple[int, int]
GUARD, MOVE, ATTACK, SUICIDE = "guard", "move", "attack", "suicide"


@dataclass
class Robot:
    loc: Loc
    player: int
    hp: int
    rid: int


def around(loc: Loc) -> list[Loc]:
    """The 4 neighbours, in rgkit's order."""
    x, y = loc
    return [(x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)]


def resolve(robots: Sequence[Robot], actions: dict[Loc, tuple[Any, ...]], *, collision_damage: int,
            suicide_damage: int, attack_damage: Callable[[], int]
            ) -> list[tuple[Loc, int]]:
    """Each robot's (final location, final hp), in the order given; hp <= 0 is dead.

    `actions[loc]` is (kind,) or (kind, target); a missing action is a guard. All must be
    valid already. `attack_damage()` is drawn once per attack, in robot order.
    """
    at = {r.loc: r for r in robots}
    kind = {loc: actions.get(loc, (GUARD,))[0] for loc in at}
    dest = {loc: actions[loc][1] if kind[loc] == MOVE else loc for loc in at}
    wanted_by: dict[Loc, set[Loc]] = defaultdict(set)      # square -> robots bound for it
    for loc in at:
        wanted_by[dest[loc]].add(loc)

    def stuck(loc: Loc) -> None:
        """The robot at loc stays; so does every robot that wanted its square."""
        others = wanted_by[loc]
        wanted_by[loc] = {loc}
        for other in others:
            if other != loc:
                stuck(other)

    for loc in at:
        to = dest[loc]
        if len(wanted_by[to]) > 1 or (to != loc and to in at and dest[to] == loc):
            stuck(loc)
    final = {loc: loc if dest[loc] != loc and loc in wanted_by[loc] else dest[loc]
             for loc in at}
    bumped: dict[Loc, set[Loc]] = defaultdict(set)          # robot -> robots it collided with
    for loc in at:
        for other in wanted_by[dest[loc]]:
            bumped[loc].add(other)
            bumped[other].add(loc)
    hits: dict[Loc, list[tuple[int, int]]] = defaultdict(list)   # square -> (player, damage)
    for loc, robot in at.items():
        if kind[loc] == ATTACK:
            hits[actions[loc][1]].append((robot.player, attack_damage()))
        elif kind[loc] == SUICIDE:
            for square in around(loc):
                hits[square].append((robot.player, suicide_damage))
    out = []
    for robot in robots:
        loc, hp = robot.loc, robot.hp
        guarding = kind[loc] == GUARD
        if not guarding:
            hp -= collision_damage * sum(1 for other in bumped[loc]
                                         if at[other].player != robot.player)
        for player, damage in hits.get(final[loc], ()):
            if player != robot.player:
                hp -= damage // 2 if guarding else damage
        if kind[loc] == SUICIDE:
            hp = 0
        out.append((final[loc], hp))
    return out
