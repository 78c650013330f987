"""The `rg` module of Robot Game, as rgkit's bots import it.

The same names and behaviour as rgkit's `rg`: dist, wdist, loc_types, locs_around, toward,
CENTER_POINT, settings, memoize. The sandbox fills `settings` with the match's map and
rules before the first `act`.

Beyond rgkit: debug marks and notes for the bot's owner, `rg.note(text)`,
`rg.dot(loc, "red")`, `rg.line(loc, loc, "blue")` (docs/contestant-loop.md).
"""
from _marks import PALETTE as MARK_COLOURS  # noqa: F401
from _marks import dot, line, note  # noqa: F401


class AttrDict(dict):
    """A dict whose keys are also attributes, with Python 2's iteration names."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.__dict__ = self

    def iteritems(self):
        return iter(self.items())

    def iterkeys(self):
        return iter(self.keys())

    def itervalues(self):
        return iter(self.values())


settings = AttrDict({
    "spawn_every": 10, "spawn_per_player": 5, "board_size": 19, "robot_hp": 50,
    "attack_range": (8, 10), "collision_damage": 5, "suicide_damage": 15, "max_turns": 100,
    "spawn_coords": [], "obstacles": [], "player_count": 2,
})
CENTER_POINT = (int(settings["board_size"] / 2), int(settings["board_size"] / 2))
_spawn: set[tuple[int, int]] = set()
_obstacles: set[tuple[int, int]] = set()


def memoize(f):
    """Memoization decorator for a function of one argument (rgkit's)."""
    class MemoDict(dict):
        def __missing__(self, key):
            ret = self[key] = f(key)
            return ret
    return MemoDict().__getitem__


memodict = memoize


def _configure(info):
    """Called by the sandbox once per match: the map and the rules' settings."""
    global CENTER_POINT
    settings.update(info["settings"])
    settings.attack_range = tuple(settings.attack_range)
    settings.spawn_coords = [tuple(loc) for loc in info["map"]["spawn"]]
    settings.obstacles = [tuple(loc) for loc in info["map"]["obstacle"]]
    _spawn.clear()
    _spawn.update(settings.spawn_coords)
    _obstacles.clear()
    _obstacles.update(settings.obstacles)
    CENTER_POINT = (int(settings.board_size / 2), int(settings.board_size / 2))
    _types.clear()
    _open_around.clear()


def dist(p1, p2):
    return ((p2[0] - p1[0]) ** 2 + (p2[1] - p1[1]) ** 2) ** 0.5


def wdist(p1, p2):
    return abs(p2[0] - p1[0]) + abs(p2[1] - p1[1])


def _loc_types(loc):
    """A set of 'invalid', or 'normal' plus 'spawn' and/or 'obstacle'."""
    size = settings.board_size
    if not (0 <= loc[0] < size and 0 <= loc[1] < size):
        return {"invalid"}
    got = {"normal"}
    if loc in _spawn:
        got.add("spawn")
    if loc in _obstacles:
        got.add("obstacle")
    return got


class _Memo(dict):
    def __missing__(self, loc):
        got = self[loc] = _loc_types(loc)
        return got


_types = _Memo()
# As rgkit's memoized loc_types: a dict look-up in C (the cached set itself is returned),
# the bots' most frequent call.
loc_types = _types.__getitem__


def locs_around(loc, filter_out=None):
    """The 4 neighbours of loc, without those of any type in filter_out."""
    x, y = loc
    near = [(x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)]
    if not filter_out:
        return near
    drop = set(filter_out)
    return [n for n in near if not drop & loc_types(n)]


_open_around: dict[tuple[int, int], frozenset[tuple[int, int]]] = {}


def open_around(loc):
    """The neighbours a robot at loc may move to or attack (for the sandbox's checks)."""
    got = _open_around.get(loc)
    if got is None:
        got = _open_around[loc] = frozenset(locs_around(loc, filter_out=("invalid",
                                                                         "obstacle")))
    return got


def _sign(x):
    return x and 1 if x > 0 else -1


def toward(curr, dest):
    """One greedy step from curr toward dest, avoiding obstacles (rgkit's)."""
    if curr == dest:
        return curr
    x0, y0 = curr
    x, y = dest
    x_diff, y_diff = x - x0, y - y0
    move_y = (x0, y0 + _sign(y_diff))
    move_x = (x0 + _sign(x_diff), y0)
    if abs(y_diff) > abs(x_diff):
        return move_y if move_y not in _obstacles else move_x
    return move_x if move_x not in _obstacles else move_y
