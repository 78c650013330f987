"""Numeric codes shared by the engine, its views and the bot-side decoder.

These codes cross the process boundary, so `sandbox/botlib/roborally/api.py` mirrors
them; a test checks the two agree.
"""

# Compass directions, clockwise.
N, E, S, W = 0, 1, 2, 3
COMPASS = "NESW"

# Floors. Flags are FLAG_BASE + number. OUTSIDE is the padding around the arena: a pit
# that also stops lasers.
PIT, EMPTY, LEFT_SPINNER, RIGHT_SPINNER, FLAG, OUTSIDE = 0, 1, 2, 3, 4, 5
FLAG_BASE = 10

# Contents.
WALL, MOUNTED_LASER, CORPSE, ROBOT = 1, 2, 3, 4
KIND_NAMES = {WALL: "WALL", MOUNTED_LASER: "MOUNTED_LASER", CORPSE: "CORPSE", ROBOT: "ROBOT"}

# Moves. 0 means "no move" and OVERHEAT marks an exception or invalid answer.
MOVE_NAMES = ("LASER", "FORWARD", "FORWARD_TWO", "REVERSE", "SIDESTEP_LEFT",
              "SIDESTEP_RIGHT", "TURN_LEFT", "TURN_RIGHT", "U_TURN")
NO_MOVE = 0
(LASER, FORWARD, FORWARD_TWO, REVERSE, SIDESTEP_LEFT, SIDESTEP_RIGHT,
 TURN_LEFT, TURN_RIGHT, U_TURN) = range(1, 10)
OVERHEAT = 255
MOVE_CODES = {name: code for code, name in enumerate(MOVE_NAMES, start=1)}
PRIORITY_MOVES = frozenset((FORWARD_TWO, SIDESTEP_LEFT, SIDESTEP_RIGHT))
TURN_MOVES = {TURN_LEFT: 3, TURN_RIGHT: 1, U_TURN: 2}   # quarter turns clockwise

# Sight.
SIGHT_RADIUS = 5
SIGHT = 2 * SIGHT_RADIUS + 1

# Robot states reported by scenarios and results.
ACTIVE, DEAD_CORPSE, FALLEN, EXPLODED = "active", "corpse", "fallen", "exploded"
