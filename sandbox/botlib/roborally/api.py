"""The Robot Arena bot API: `from roborally.api import *`.

Everything here reads only the current robot's sight, which the runtime sets before each
`move()` call. Positions are (row, col) in the 11x11 sight grid; the robot is at (5, 5)
and faces up (row 0 is farthest ahead, column 0 farthest to its left).
"""
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

# Debug marks and notes for the bot's owner (docs/contestant-loop.md, "Marks and notes"):
# `api.note(text)`, `api.dot((row, col), "red")`, `api.line((row, col), (row, col), "blue")`,
# squares as `get_cell_in_sight` takes them (the robot at (5, 5), facing up). Left out of
# `import *`, so a bot's own names stay its own.
from _marks import PALETTE as MARK_COLOURS  # noqa: E402,F401
from _marks import dot, line, note  # noqa: E402,F401

# Wire codes (they mirror engine/arena/constants.py; a test checks they agree).
_FLOORS = (PIT, EMPTY, LEFT_SPINNER, RIGHT_SPINNER, FLAG)
_KINDS = (None, WALL, MOUNTED_LASER, CORPSE, ROBOT)
_FLAG_CODE = 4
_CENTER = (5, 5)
_POSITIONS = [divmod(index, 11) for index in range(121)]
_ROW_STARTS = range(0, 121, 11)
_new = object.__new__


class Cell:
    """One tile of sight: its `floor` and its `content` (None or a dict)."""

    __slots__ = ("floor", "content")

    def __init__(self, floor, content):
        self.floor = floor
        self.content = content

    def __repr__(self):
        return "Cell(floor=%r, content=%r)" % (self.floor, self.content)


class _View:
    """The current robot's sight, set by the runtime before each move() call.

    Everything a bot can ask for is made once per view, when first asked for: the
    content dicts, the cells (all at once when sight() is called), and the outcome of
    each move the prediction helpers simulate.
    """

    __slots__ = ("floor", "things", "first", "end", "own", "names", "cells", "rows",
                 "_contents", "_complete", "_where", "_occupied", "_shooters", "sims")

    def __init__(self, floor, things, first, end, own, names):
        self.floor = floor          # 121 floor codes
        self.things = things        # rows of (cell index, kind, life, facing, owner) ...
        self.first = first          # ... of which this robot sees things[first:end]
        self.end = end
        self.own = own              # the robot's own content dict
        self.names = names
        self.cells = {}             # cells made one by one, before sight() makes them all
        self.rows = None
        self._contents = {}         # {cell index: content dict}, made as asked for
        self._complete = False
        self._where = None
        self._occupied = None
        self._shooters = None
        self.sims = {}

    def content(self, k):
        """The content dict of the thing in row k of `things`, made once."""
        things = self.things
        index = things[k]
        got = self._contents.get(index)
        if got is None:
            if index == 60:
                got = self.own
            else:
                kind = _KINDS[things[k + 1]]
                got = {TYPE: kind, POSITION: _POSITIONS[index], LIFE: things[k + 2],
                       FACING: CLOCKWISE[things[k + 3]],
                       NAME: self.names[things[k + 4]] if kind is ROBOT else kind}
            self._contents[index] = got
        return got

    def contents(self):
        """{cell index: content dict} for everything in sight, the robot included."""
        if not self._complete:
            content = self.content
            for k in range(self.first, self.end, 5):
                content(k)
            self._complete = True
        return self._contents

    def cell(self, index):
        got = self.cells.get(index)
        if got is None:
            k = self.where().get(index)
            got = self.cells[index] = Cell(_FLOORS[self.floor[index]],
                                           None if k is None else self.content(k))
        return got

    def make_rows(self):
        """The 11 rows of sight as plain lists, reusing any cell already handed out."""
        grid = []
        append = grid.append
        for code in self.floor:
            cell = _new(Cell)
            cell.floor = _FLOORS[code]
            cell.content = None
            append(cell)
        for index, content in self.contents().items():
            grid[index].content = content
        for index, cell in self.cells.items():
            grid[index] = cell
        rows = self.rows = [grid[start:start + 11] for start in _ROW_STARTS]
        return rows

    def where(self):
        """{cell index: row k of `things`} for everything in sight."""
        got = self._where
        if got is None:
            things = self.things
            got = self._where = {things[k]: k for k in range(self.first, self.end, 5)}
        return got

    def occupied(self):
        """{(row, col): row k of `things`} for everything in sight but the robot itself."""
        got = self._occupied
        if got is None:
            got = self._occupied = {_POSITIONS[index]: k for index, k in self.where().items()
                                    if index != 60}
        return got

    def shooters(self):
        """[(position, facing, k)] of the robots and mounted lasers in sight."""
        got = self._shooters
        if got is None:
            got = self._shooters = _shooters_in(self.things, self.occupied())
        return got


def _shooters_in(things, occupied):
    """[(position, facing, k)] of the robots and mounted lasers in an occupancy map."""
    return [(pos, CLOCKWISE[things[k + 3]], k) for pos, k in occupied.items()
            if things[k + 1] in _SHOOTER_CODES]


_view = None


def _set_view(view):
    """Called by the runtime; bots never need it."""
    global _view
    _view = view


# -- state helpers ------------------------------------------------------------------------
def sight():
    """The 11x11 grid of cells around the robot, turned so that the robot faces up."""
    rows = _view.rows
    return rows if rows is not None else _view.make_rows()


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


def get_cell_in_sight(pos):
    """The cell at pos, or None outside the grid."""
    row, col = pos[0], pos[1]
    if 0 <= row < 11 and 0 <= col < 11:
        rows = _view.rows
        if rows is not None:
            return rows[row][col]
        return _view.cell(row * 11 + col)
    return None


def flag_in_sight():
    """The (row, col) of the robot's next flag, or None."""
    index = bytes(_view.floor).find(_FLAG_CODE)
    return None if index < 0 else _POSITIONS[index]


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
# A simulated move is the list [landing (row, col) or None after a fall, stopped by a wall
# or mounted laser, relative facing afterwards, {(row, col): row of things} afterwards,
# whether it pushed anything (the map is then a copy), shooting()'s answer or False before
# it is asked, shot_by()'s answer or None]. A list, as it is made for every move asked.
_STEPS = {FORWARD: (AHEAD, 1), FORWARD_TWO: (AHEAD, 2), REVERSE: (BEHIND, 1),
          SIDESTEP_LEFT: (LEFT, 1), SIDESTEP_RIGHT: (RIGHT, 1)}
_FACINGS = {TURN_LEFT: LEFT, TURN_RIGHT: RIGHT, U_TURN: BEHIND}
_SPIN = {LEFT_SPINNER: {AHEAD: LEFT, RIGHT: AHEAD, BEHIND: RIGHT, LEFT: BEHIND},
         RIGHT_SPINNER: {AHEAD: RIGHT, RIGHT: BEHIND, BEHIND: LEFT, LEFT: AHEAD}}
_PUSHABLE_CODES = (_KINDS.index(ROBOT), _KINDS.index(CORPSE))
_SHOOTER_CODES = (_KINDS.index(ROBOT), _KINDS.index(MOUNTED_LASER))
_PIT_CODE = _FLOORS.index(PIT)
_EMPTY_CODE = _FLOORS.index(EMPTY)
# _RAYS[position][direction]: the tiles in sight from position onward, in that direction.
_RAYS: dict[object, dict[tuple[int, int], object]] = {}
for _pos in _POSITIONS:
    _RAYS[_pos] = {}
    for _dr, _dc in CLOCKWISE:
        _ray, (_r, _c) = [], _pos
        while 0 <= _r + _dr < 11 and 0 <= _c + _dc < 11:
            _r, _c = _r + _dr, _c + _dc
            _ray.append(_POSITIONS[_r * 11 + _c])
        _RAYS[_pos][(_dr, _dc)] = _ray


def _floor_code(pos):
    row, col = pos
    if 0 <= row < 11 and 0 <= col < 11:
        return _view.floor[row * 11 + col]
    return _EMPTY_CODE              # beyond sight: assume open floor


def _simulate(move):
    view = _view
    cached = view.sims.get(move)
    if cached is not None:
        return cached
    occupied = view.occupied()
    stepping = _STEPS.get(move)
    if stepping is None:            # the robot stays where it is
        facing = _FACINGS.get(move, AHEAD)
        spin = _SPIN.get(_FLOORS[view.floor[60]])
        outcome = view.sims[move] = [_CENTER, False, facing if spin is None else spin[facing],
                                     occupied, False, False, None]
        return outcome
    things = view.things
    position, bumped, pushed = _CENTER, False, False
    (dr, dc), steps = stepping
    for _ in range(steps):
        target = (position[0] + dr, position[1] + dc)
        if _floor_code(target) == _PIT_CODE:
            position = None
            break
        chain, end = [], target
        while end in occupied and things[occupied[end] + 1] in _PUSHABLE_CODES:
            chain.append(end)
            end = (end[0] + dr, end[1] + dc)
        if end in occupied:         # a wall or mounted laser stops the whole chain
            bumped = True
            break
        if chain:
            if not pushed:
                occupied, pushed = dict(occupied), True
            falls = _floor_code(end) == _PIT_CODE
            for spot in reversed(chain):
                moved = occupied.pop(spot)
                if not (falls and spot == chain[-1]):
                    occupied[(spot[0] + dr, spot[1] + dc)] = moved
        position = target
    facing = AHEAD
    if position is not None:
        spin = _SPIN.get(_FLOORS[_floor_code(position)])
        if spin is not None:
            facing = spin[facing]
    outcome = view.sims[move] = [position, bumped, facing, occupied, pushed, False, None]
    return outcome


def direction_after_move(move):
    """The robot's facing after `move`, counting a spinner on the landing tile."""
    return (_view.sims.get(move) or _simulate(move))[2]


def position_after_move(move):
    """The landing tile; None if the robot would fall; its own tile if it bumps at once."""
    return (_view.sims.get(move) or _simulate(move))[0]


def bumps_into_wall(move):
    """Whether `move` is stopped by a wall or mounted laser, directly or through a push."""
    return (_view.sims.get(move) or _simulate(move))[1]


def falls_into_pit(move):
    return (_view.sims.get(move) or _simulate(move))[0] is None


def shooting(move=LASER):
    """The content dict the robot's laser would hit after `move`, or None in sight."""
    outcome = _view.sims.get(move) or _simulate(move)
    target = outcome[5]
    if target is False:
        target = None
        if outcome[0] is not None:
            occupied = outcome[3]
            for pos in _RAYS[outcome[0]][outcome[2]]:
                if pos in occupied:
                    target = _view.content(occupied[pos])
                    break
        outcome[5] = target
    return target


def shot_by(move=LASER):
    """Robots and mounted lasers in sight facing the landing tile with a clear line."""
    outcome = _view.sims.get(move) or _simulate(move)
    found = outcome[6]
    if found is None:
        found = outcome[6] = _shooters_of(outcome)
    return list(found)


def _shooters_of(outcome):
    landing, occupied = outcome[0], outcome[3]
    if landing is None:
        return []
    view = _view
    if outcome[4]:                  # pushed: the shooters may have moved
        candidates = _shooters_in(view.things, occupied)
    else:
        candidates = view.shooters()
    row, col = landing
    shooters = []
    for pos, facing, k in candidates:
        # Only a shooter in the landing's row or column, facing it, can hit it.
        if (pos[0] == row and facing[0] == 0 and (col - pos[1]) * facing[1] > 0) or \
                (pos[1] == col and facing[1] == 0 and (row - pos[0]) * facing[0] > 0):
            for spot in _RAYS[pos][facing]:
                if spot == landing:
                    shooters.append(view.content(k))
                    break
                if spot in occupied:
                    break
    return shooters
