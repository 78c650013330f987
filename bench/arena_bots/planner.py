"""Bench bot (not a sample): weighs every candidate move with the prediction helpers.

The pattern the bot-side api was made faster for: position_after_move, direction_after_move,
bumps_into_wall, falls_into_pit, shot_by and shooting for each of the moves it may
make, then the landing tile's cell read with get_cell_in_sight.
"""
from roborally.api import *

name = 'Planner'


def score(candidate, flag):
    if falls_into_pit(candidate):
        return -1000
    landing = position_after_move(candidate)
    facing = direction_after_move(candidate)
    value = -10 * len(shot_by(candidate))
    target = shooting(candidate)
    if target is not None and target[TYPE] == ROBOT:
        value += 6 if target[NAME] != name else -6
    if bumps_into_wall(candidate):
        value -= 3
    if flag is not None:
        value -= distance_between(flag, landing)
        if facing in direction_toward(landing, flag):
            value += 1
    elif facing in sense_flag():
        value += 1
    cell = get_cell_in_sight(landing)
    if cell is not None and cell.floor in (LEFT_SPINNER, RIGHT_SPINNER):
        value -= 1
    return value


def move():
    flag = flag_in_sight()
    allowed = [m for m in MOVES if m not in PRIORITY_MOVES or charges() > 0]
    if shooting() is not None and shooting()[TYPE] == ROBOT and shooting()[NAME] != name:
        return LASER
    best = max(allowed, key=lambda candidate: score(candidate, flag))
    memory()['last'] = best
    return best
