"""Asks every roborally.api helper, with good and bad arguments, and logs each answer.

Used by test_api_differential.py, which replays recorded views through this bot with the
api before and after its rework and compares the logs.
"""
from roborally.api import *

LOG = []
SPOTS = [(2, 3), (5, 5), (0, 0), (10, 10), (4, 5), (-1, 5), (5, 11), (11, 0), [3, 4]]
DIRECTIONS = CLOCKWISE + [[0, 1]]


def helpers():
    out = []
    first = [get_cell_in_sight(spot) for spot in SPOTS[:5]]
    out.append(repr(myself()))
    out += [charges(), flags(), life(), sense_flag(), flag_in_sight()]
    grid = sight()
    out.append(repr(grid))
    out.append([cell is grid[r][c] for cell, (r, c) in zip(first, SPOTS, strict=False)])
    out.append(sight() is grid and sight()[3] is grid[3])
    out.append(repr([get_cell_in_sight(spot) for spot in SPOTS]))
    out.append([repr(row[-1]) + repr(row[2:4]) for row in grid] + [len(grid), len(grid[0])])
    for move in MOVES + ["bogus"]:
        out.append((move, position_after_move(move), direction_after_move(move),
                    bumps_into_wall(move), falls_into_pit(move), repr(shooting(move)),
                    repr(shot_by(move)), opposite_move(move), direction_of_move(move)))
    out.append((repr(shooting()), repr(shot_by())))
    for direction in DIRECTIONS:
        out.append((moves_in_direction(direction), moves_in_direction(direction, NORMAL_MOVES),
                    opposite_direction(direction), turn_direction(direction, True),
                    turn_direction(direction, False), convert_direction(RIGHT, direction),
                    get_pos_in_direction((5, 5), direction, 3)))
    out.append(moves_in_directions([LEFT, BEHIND], PROGRESS_MOVES))
    for spot in SPOTS:
        out.append((distance_between(spot), distance_between(spot, (1, 9)),
                    direction_toward((5, 5), spot)))
    return out


def coverage():
    """Which cases this view exercises: a fall, a bump, a push, being shot, a target."""
    pushes = any(position_after_move(m) == get_pos_in_direction((5, 5), direction_of_move(m))
                 and get_cell_in_sight(position_after_move(m)).content is not None
                 for m in PROGRESS_MOVES if position_after_move(m) is not None)
    return (any(falls_into_pit(m) for m in MOVES), any(bumps_into_wall(m) for m in MOVES),
            pushes, any(shot_by(m) for m in MOVES), shooting() is not None)


def move():
    LOG.append(repr([coverage()] + helpers()))
    memory()['calls'] = memory().get('calls', 0) + 1
    return MOVES[len(LOG) % len(MOVES)]
