"""Turtle: the cautious survivor. It steps out of lines of fire, shoots whatever robot
stands in front of it, and creeps toward the flag only when the way is safe."""
from roborally.api import *

name = 'Turtle'


def safe(move):
    return not falls_into_pit(move) and not bumps_into_wall(move) and not shot_by(move)


def move():
    if shot_by(LASER):
        dodges = [FORWARD, REVERSE]
        if charges() > 0:
            dodges += [SIDESTEP_LEFT, SIDESTEP_RIGHT]
        for dodge in dodges:
            if safe(dodge):
                return dodge
    target = shooting()
    if target is not None and target[TYPE] == ROBOT and target[NAME] != name:
        return LASER
    sense = sense_flag()
    if AHEAD in sense and safe(FORWARD):
        return FORWARD
    if LEFT in sense:
        return TURN_LEFT
    if RIGHT in sense or BEHIND in sense:
        return TURN_RIGHT
    return LASER
