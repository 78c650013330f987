"""Hunter: faces the nearest robot of another AI and fires.
With nobody in sight it roams toward the flag."""
from roborally.api import *

name = 'Hunter'

TURN_TOWARD = {LEFT: TURN_LEFT, RIGHT: TURN_RIGHT, BEHIND: U_TURN}


def enemies():
    found = []
    for row in sight():
        for cell in row:
            content = cell.content
            if content and content[TYPE] == ROBOT and content[NAME] != name:
                found.append(content)
    return found


def move():
    target = shooting()
    if target is not None and target[TYPE] == ROBOT and target[NAME] != name:
        return LASER
    foes = enemies()
    if foes:
        nearest = min(foes, key=lambda foe: distance_between(foe[POSITION]))
        directions = direction_toward((5, 5), nearest[POSITION])
        for direction in directions:
            if direction == AHEAD:
                continue
            if direction in (LEFT, RIGHT) and charges() > 0 and nearest[POSITION][0] == 5 - 1:
                side = SIDESTEP_LEFT if direction == LEFT else SIDESTEP_RIGHT
                if not falls_into_pit(side):
                    return side
            return TURN_TOWARD[direction]
    if not falls_into_pit(FORWARD) and not bumps_into_wall(FORWARD):
        return FORWARD
    sense = sense_flag()
    return TURN_LEFT if LEFT in sense else TURN_RIGHT
