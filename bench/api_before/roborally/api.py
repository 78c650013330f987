"""The Robot Arena bot API: `from roborally.api import *`.

Everything here reads only the current robot's sight, which the runtime sets before each
`move()` call. Positions are (row, col) in the 11x11 sight grid; the robot is at (5, 5)
and faces up (row 0 is farthest ahead, column 0 farthest to its left).
"""
from collections.abc import Sequence as _Sequence

# Directions, relative to the robot: (drow, dcol) in the sight grid.
AHEAD = (-1, 0)
RIGHT = (0, 1)
BEHIND = (1, 0)
LEFT = (0, -1)
CLOCKWISE = [AHEAD, RIGHT, BEHIND, LEFT]

# Keys of content dicts.
TYPE = "type"
POSITION = "position"
LIFE = "life"
FACING = "facing"
NAME = "name"
FLAGS_SCORED = "flags"
CHARGES = "charges"
MEMORY = "memory"
FLAG_SENSE = "sense"

# Floors.
PIT = None
EMPTY = "empty"
FLAG = "flag"
LEFT_SPINNER = "left_spinner"
RIGHT_SPINNER = "right_spinner"

# Content types.
WALL = "wall"
MOUNTED_LASER = "mounted_laser"
CORPSE = "corpse"
ROBOT = "robot"

# Moves.
LASER = "laser"
FORWARD = "forward"
FORWARD_TWO = "forward_two"
REVERSE = "reverse"
SIDESTEP_LEFT = "sidestep_left"
SIDESTEP_RIGHT = "sidestep_right"
TURN_LEFT = "turn_left"
TURN_RIGHT = "turn_right"
U_TURN = "u_turn"

MOVES = [LASER, FORWARD, FORWARD_TWO, REVERSE, SIDESTEP_LEFT, SIDESTEP_RIGHT, TURN_LEFT,
         TURN_RIGHT, U_TURN]
NORMAL_MOVES = [FORWARD, REVERSE, TURN_LEFT, TURN_RIGHT, U_TURN]
ATTACK_MOVES = [LASER]
PRIORITY_MOVES = [FORWARD_TWO, SIDESTEP_LEFT, SIDESTEP_RIGHT]
TURN_MOVES = [TURN_LEFT, TURN_RIGHT, U_TURN]
PROGRESS_MOVES = [FORWARD, FORWARD_TWO, REVERSE, SIDESTEP_LEFT, SIDESTEP_RIGHT]

__all__ = [
    "AHEAD", "RIGHT", "BEHIND", "LEFT", "CLOCKWISE",
    "TYPE", "POSITION", "LIFE", "FACING", "NAME", "FLAGS_SCORED", "CHARGES", "MEMORY",
    "FLAG_SENSE", "PIT", "EMPTY", "FLAG", "LEFT_SPINNER", "RIGHT_SPINNER",
    "WALL", "MOUNTED_LASER", "CORPSE", "ROBOT",
    "LASER", "FORWARD", "FORWARD_TWO", "REVERSE", "SIDESTEP_LEFT", "SIDESTEP_RIGHT",
    "TURN_LEFT", "TURN_RIGHT", "U_TURN", "MOVES", "NORMAL_MOVES", "ATTACK_MOVES",
    "PRIORITY_MOVES", "TURN_MOVES", "PROGRESS_MOVES",
    "sight", "myself", "memory", "charges", "flags", "life", "sense_flag",
    "get_cell_in_sight", "flag_in_sight",
    "opposite_move", "moves_in_direction", "moves_in_directions", "direction_of_move",
    "distance_between", "get_pos_in_direction", "opposite_direction", "turn_direction",
    "convert_direction", "direction_toward",
    "direction_after_move", "position_after_move", "bumps_into_wall", "falls_into_pit",
    "shooting", "shot_by",
]

# Wire codes (they mirror engine/arena/constants.py; a test checks they agree).
_FLOORS = (PIT, EMPTY, LEFT_SPINNER, RIGHT_SPINNER, FLAG)
_KINDS = (None, WALL, MOUNTED_LASER, CORPSE, ROBOT)
_FLAG_CODE = 4
_SIZE = 11
_CENTER = (5, 5)


class Cell:
    """One tile of sight: its `floor` and its `content` (None or a dict)."""

    __slots__ = ("floor", "content")

    def __init__(self, floor, content):
        self.floor = floor
        self.content = content

    def __repr__(self):
        return "Cell(floor=%r, content=%r)" % (self.floor, self.content)


class _Row(_Sequence):
    """One row of sight; its cells are made when first read."""

    __slots__ = ("_view", "_row")

    def __init__(self, view, row):
        self._view = view
        self._row = row

    def __len__(self):
        return _SIZE

    def __getitem__(self, col):
        if isinstance(col, slice):
            return [self[c] for c in range(*col.indices(_SIZE))]
        if col < 0:
            col += _SIZE
        if not 0 <= col < _SIZE:
            raise IndexError("sight column out of range")
        return self._view.cell(self._row * _SIZE + col)

    def __iter__(self):
        cell = self._view.cell
        base = self._row * _SIZE
        for col in range(_SIZE):
            yield cell(base + col)

    def __repr__(self):
        return repr(list(self))


class _View:
    """The current robot's sight, set by the runtime before each move() call."""

    def __init__(self, floor, things, own, names):
        self.floor = floor          # 121 floor codes
        self.things = things        # {cell index: (kind, life, facing, owner)}
        self.own = own              # the robot's own content dict
        self.names = names
        self.cells = {}
        self.contents = {}
        self.rows = None
        self.sims = {}

    def content(self, index):
        got = self.contents.get(index)
        if got is None and index in self.things:
            if index == 60:
                got = self.own
            else:
                kind, life, facing, owner = self.things[index]
                kind = _KINDS[kind]
                got = {TYPE: kind, POSITION: divmod(index, _SIZE), LIFE: life,
                       FACING: CLOCKWISE[facing],
                       NAME: self.names[owner] if kind == ROBOT else kind}
            self.contents[index] = got
        return got

    def cell(self, index):
        got = self.cells.get(index)
        if got is None:
            got = self.cells[index] = Cell(_FLOORS[self.floor[index]], self.content(index))
        return got


_view = None


def _set_view(view):
    """Called by the runtime; bots never need it."""
    global _view
    _view = view


# -- state helpers ------------------------------------------------------------------------
def sight():
    """The 11x11 grid of cells around the robot, turned so that the robot faces up."""
    if _view.rows is None:
        _view.rows = [_Row(_view, r) for r in range(_SIZE)]
    return _view.rows


def myself():
    return _view.own


def memory():
    return _view.own[MEMORY]


def charges():
    return _view.own[CHARGES]


def flags():
    return _view.own[FLAGS_SCORED]


def life():
    return _view.own[LIFE]


def sense_flag():
    return _view.own[FLAG_SENSE]


def _inside(pos):
    return 0 <= pos[0] < _SIZE and 0 <= pos[1] < _SIZE


def get_cell_in_sight(pos):
    """The cell at pos, or None outside the grid."""
    if not _inside(pos):
        return None
    return _view.cell(pos[0] * _SIZE + pos[1])


def flag_in_sight():
    """The (row, col) of the robot's next flag, or None."""
    index = bytes(_view.floor).find(_FLAG_CODE)
    return None if index < 0 else divmod(index, _SIZE)


# -- geometry helpers ---------------------------------------------------------------------
_OPPOSITE_MOVES = {FORWARD: REVERSE, FORWARD_TWO: REVERSE, REVERSE: FORWARD,
                   SIDESTEP_LEFT: SIDESTEP_RIGHT, SIDESTEP_RIGHT: SIDESTEP_LEFT,
                   TURN_LEFT: TURN_RIGHT, TURN_RIGHT: TURN_LEFT, U_TURN: U_TURN, LASER: LASER}
_DIRECTION_MOVES = {AHEAD: (FORWARD, FORWARD_TWO), BEHIND: (U_TURN, REVERSE),
                    LEFT: (TURN_LEFT, SIDESTEP_LEFT), RIGHT: (TURN_RIGHT, SIDESTEP_RIGHT)}
_MOVE_DIRECTIONS = {FORWARD: AHEAD, FORWARD_TWO: AHEAD, REVERSE: BEHIND,
                    SIDESTEP_LEFT: LEFT, SIDESTEP_RIGHT: RIGHT}
_TURNS = {TURN_LEFT: 3, TURN_RIGHT: 1, U_TURN: 2}


def opposite_move(move):
    """The move that undoes `move`; None for an unknown move."""
    try:
        return _OPPOSITE_MOVES.get(move)
    except TypeError:
        return None


def moves_in_direction(direction, potential_moves=None):
    """The first moves that take the robot toward `direction`, in potential_moves' order."""
    wanted = _DIRECTION_MOVES.get(tuple(direction), ())
    return [m for m in (potential_moves or MOVES) if m in wanted]


def moves_in_directions(directions, potential_moves=None):
    result = []
    for direction in directions:
        result.extend(moves_in_direction(direction, potential_moves))
    return result


def direction_of_move(move):
    """The direction a progress move steps in, else None."""
    try:
        return _MOVE_DIRECTIONS.get(move)
    except TypeError:
        return None


def distance_between(pos, other=None):
    """Manhattan distance; `other` defaults to the robot's own position."""
    other = _CENTER if other is None else other
    return abs(pos[0] - other[0]) + abs(pos[1] - other[1])


def get_pos_in_direction(pos, direction, distance=1):
    return (pos[0] + direction[0] * distance, pos[1] + direction[1] * distance)


def opposite_direction(direction):
    return (-direction[0], -direction[1])


def turn_direction(direction, clockwise):
    """`direction` turned a quarter, clockwise or not."""
    index = CLOCKWISE.index(tuple(direction))
    return CLOCKWISE[(index + (1 if clockwise else -1)) % 4]


def convert_direction(reference, direction):
    """`direction` as seen by something facing `reference`."""
    return CLOCKWISE[(CLOCKWISE.index(tuple(direction)) - CLOCKWISE.index(tuple(reference))) % 4]


def direction_toward(start, target):
    """One or two directions from start toward target, by the 4x rule."""
    dr, dc = target[0] - start[0], target[1] - start[1]
    result = []
    if dr and abs(dc) < 4 * abs(dr):
        result.append(AHEAD if dr < 0 else BEHIND)
    if dc and abs(dr) < 4 * abs(dc):
        result.append(LEFT if dc < 0 else RIGHT)
    return result


# -- prediction helpers -------------------------------------------------------------------
class _Outcome:
    """What the robot's own move would do, read from sight alone."""

    __slots__ = ("position", "bumped", "facing", "occupied")

    def __init__(self, position, bumped, facing, occupied):
        self.position = position    # landing (row, col), or None after a fall
        self.bumped = bumped        # stopped by a wall or mounted laser
        self.facing = facing        # relative facing afterwards
        self.occupied = occupied    # {(row, col): content dict} after the move


def _floor_at(pos):
    if not _inside(pos):
        return EMPTY                # beyond sight: assume open floor
    return _FLOORS[_view.floor[pos[0] * _SIZE + pos[1]]]


def _simulate(move):
    cached = _view.sims.get(move)
    if cached is not None:
        return cached
    occupied = {}
    for index in _view.things:
        if index != 60:
            occupied[divmod(index, _SIZE)] = _view.content(index)
    position, bumped = _CENTER, False
    direction = direction_of_move(move)
    steps = 2 if move == FORWARD_TWO else (1 if direction else 0)
    for _ in range(steps):
        target = get_pos_in_direction(position, direction)
        if _floor_at(target) is PIT:
            position = None
            break
        chain, end = [], target
        while end in occupied and occupied[end][TYPE] in (ROBOT, CORPSE):
            chain.append(end)
            end = get_pos_in_direction(end, direction)
        if end in occupied:         # a wall or mounted laser stops the whole chain
            bumped = True
            break
        falls = _floor_at(end) is PIT
        for spot in reversed(chain):
            moved = occupied.pop(spot)
            after = get_pos_in_direction(spot, direction)
            if not (falls and spot == chain[-1]):
                occupied[after] = moved
        position = target
    facing = CLOCKWISE[_TURNS.get(move, 0)]
    if position is not None:
        spin = _floor_at(position)
        if spin == LEFT_SPINNER:
            facing = turn_direction(facing, False)
        elif spin == RIGHT_SPINNER:
            facing = turn_direction(facing, True)
    outcome = _view.sims[move] = _Outcome(position, bumped, facing, occupied)
    return outcome


def direction_after_move(move):
    """The robot's facing after `move`, counting a spinner on the landing tile."""
    return _simulate(move).facing


def position_after_move(move):
    """The landing tile; None if the robot would fall; its own tile if it bumps at once."""
    return _simulate(move).position


def bumps_into_wall(move):
    """Whether `move` is stopped by a wall or mounted laser, directly or through a push."""
    return _simulate(move).bumped


def falls_into_pit(move):
    return _simulate(move).position is None


def shooting(move=LASER):
    """The content dict the robot's laser would hit after `move`, or None in sight."""
    outcome = _simulate(move)
    if outcome.position is None:
        return None
    pos = get_pos_in_direction(outcome.position, outcome.facing)
    while _inside(pos):
        if pos in outcome.occupied:
            return outcome.occupied[pos]
        pos = get_pos_in_direction(pos, outcome.facing)
    return None


def shot_by(move=LASER):
    """Robots and mounted lasers in sight facing the landing tile with a clear line."""
    outcome = _simulate(move)
    landing = outcome.position
    if landing is None:
        return []
    shooters = []
    for pos, content in outcome.occupied.items():
        if content[TYPE] not in (ROBOT, MOUNTED_LASER):
            continue
        facing = content[FACING]
        dr, dc = landing[0] - pos[0], landing[1] - pos[1]
        if (dr and dc) or not (dr or dc):
            continue
        step = ((dr > 0) - (dr < 0), (dc > 0) - (dc < 0))
        if step != facing:
            continue
        between = get_pos_in_direction(pos, step)
        while between != landing and between not in outcome.occupied:
            between = get_pos_in_direction(between, step)
        if between == landing:
            shooters.append(content)
    return shooters
