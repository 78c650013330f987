"""Bench bot (not a sample): reads its whole sight grid several times per decision.

The pattern the bot-side api was made faster for: full scans of sight() for enemies, shooters' lines
and terrain, content fields read on every occupied cell, and get_cell_in_sight around
the robot and along its lines.
"""
from roborally.api import *

name = 'Scanner'

TURN_TOWARD = {LEFT: TURN_LEFT, RIGHT: TURN_RIGHT, BEHIND: U_TURN}


def enemies():
    found = []
    for row in sight():
        for cell in row:
            content = cell.content
            if content is not None and content[TYPE] == ROBOT and content[NAME] != name:
                found.append(content)
    return found


def danger():
    """How many shooters' lines cross each free tile in sight."""
    lines = {}
    for row in sight():
        for cell in row:
            content = cell.content
            if content is None or content[TYPE] not in (ROBOT, MOUNTED_LASER):
                continue
            if content[TYPE] == ROBOT and content[NAME] == name:
                continue
            step = content[FACING]
            pos = get_pos_in_direction(content[POSITION], step)
            while True:
                ahead = get_cell_in_sight(pos)
                if ahead is None or ahead.content is not None:
                    break
                lines[pos] = lines.get(pos, 0) + 1
                pos = get_pos_in_direction(pos, step)
    return lines


def terrain():
    pits = walls = corpses = 0
    for _r, row in enumerate(sight()):
        for _c, cell in enumerate(row):
            if cell.floor is PIT:
                pits += 1
            elif cell.content is not None:
                kind = cell.content[TYPE]
                walls += kind == WALL
                corpses += kind == CORPSE
    return pits, walls, corpses


def free_around():
    free = []
    for direction in CLOCKWISE:
        cell = get_cell_in_sight(get_pos_in_direction((5, 5), direction))
        if cell is not None and cell.floor is not PIT and cell.content is None:
            free.append(direction)
    return free


def target_ahead():
    for row in range(4, -1, -1):
        content = get_cell_in_sight((row, 5)).content
        if content is not None:
            return content
    return None


def move():
    mine = memory()
    foes = enemies()
    lines = danger()
    pits, walls, corpses = terrain()
    mine['crowd'] = len(foes) + corpses
    target = target_ahead()
    if target is not None and target[TYPE] == ROBOT and target[NAME] != name:
        return LASER
    free = free_around()
    if lines.get((5, 5)) and free:
        for direction in free:
            if direction in (LEFT, RIGHT) and charges() > 0:
                return SIDESTEP_LEFT if direction == LEFT else SIDESTEP_RIGHT
    if foes:
        nearest = min(foes, key=lambda foe: distance_between(foe[POSITION]))
        for direction in direction_toward((5, 5), nearest[POSITION]):
            if direction != AHEAD:
                return TURN_TOWARD[direction]
    flag = flag_in_sight()
    wanted = direction_toward((5, 5), flag) if flag else sense_flag()
    for direction in wanted:
        if direction == AHEAD and AHEAD in free and not lines.get((4, 5)):
            return FORWARD
        if direction in TURN_TOWARD:
            return TURN_TOWARD[direction]
    return FORWARD if AHEAD in free and pits < 60 else TURN_RIGHT
