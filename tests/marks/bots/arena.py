"""Beeline, thinking aloud: a note with its life, a dot on the square ahead of it and a
line from it to there, in its own sight's (row, col) (the robot at (5, 5), facing up)."""
from roborally import api
from roborally.api import *  # noqa: F403

name = "Thinker"


def move():
    api.note(f"life {life()}, flag {flag_in_sight()}")
    api.dot((4, 5), "green")
    api.line((5, 5), (3, 5), "red")
    goal = flag_in_sight()
    if goal is not None:
        for option in moves_in_direction(direction_toward((5, 5), goal)):
            if not falls_into_pit(option):
                return option
    return FORWARD if not falls_into_pit(FORWARD) else TURN_LEFT
