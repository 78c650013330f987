"""Thinker: Beeline's flag race, thinking aloud. Each robot notes what it is after, dots the
flag it sees (or the square ahead) and draws a line to it: `arena replay --turn N` and the
viewer show them to its owner only (docs/contestant-loop.md, "Marks and notes")."""
from roborally import api
from roborally.api import *

name = 'Thinker'

TURN_TOWARD = {LEFT: TURN_LEFT, RIGHT: TURN_RIGHT, BEHIND: U_TURN}
WORDS = {AHEAD: "ahead", LEFT: "left", RIGHT: "right", BEHIND: "behind"}


def safe(move):
    return not falls_into_pit(move) and not bumps_into_wall(move)


def move():
    goal = flag_in_sight()
    directions = direction_toward((5, 5), goal) if goal else sense_flag()
    if goal:
        api.note(f"flag at {goal}, life {life()}")
        api.dot(goal, "green")
        api.line((5, 5), goal, "green")
    else:
        where = ", ".join(WORDS[d] for d in directions) or "nowhere"
        api.note(f"no flag in sight; it is {where}")
        api.dot((4, 5), "yellow")
    if AHEAD in directions:
        if charges() > 0 and safe(FORWARD_TWO) and distance_between(goal or (0, 5)) > 1:
            return FORWARD_TWO
        if safe(FORWARD):
            return FORWARD
        api.note("the way ahead is a pit or a wall")
    for direction in directions:
        if direction != AHEAD:
            return TURN_TOWARD[direction]
    return TURN_LEFT
