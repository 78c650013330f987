"""Beeline: a flag racer. Heads for the next flag, spends charges on FORWARD_TWO when the
way ahead is clear, and never steps into a pit on purpose."""
import random

from roborally.api import *

name = 'Beeline'

TURN_TOWARD = {LEFT: TURN_LEFT, RIGHT: TURN_RIGHT, BEHIND: U_TURN}


def safe(move):
    return not falls_into_pit(move) and not bumps_into_wall(move)


def move():
    goal = flag_in_sight()
    directions = direction_toward((5, 5), goal) if goal else sense_flag()
    if AHEAD in directions:
        if charges() > 0 and safe(FORWARD_TWO) and distance_between(goal or (0, 5)) > 1:
            return FORWARD_TWO
        if safe(FORWARD):
            return FORWARD
    for direction in directions:
        if direction != AHEAD:
            return TURN_TOWARD[direction]
    target = shooting()
    if target is not None and target[TYPE] == ROBOT and distance_between(target[POSITION]) <= 2:
        return LASER
    return random.choice([TURN_LEFT, TURN_RIGHT])
