"""Robot Game's child side: the board in, one `Robot.act(game)` per robot, actions out.

Bots are rgkit bots, unmodified: `import rg`, a `Robot` class, `act(self, game)`. One
Robot instance serves the whole match, as in rgkit; before each call its `location`,
`hp`, `player_id` and `robot_id` are set and `random` is seeded.
"""
import importlib.util
import os
import sys
import time
from array import array

import _marks
import rg
from _runtime import (
    ERRORS_PER_REPLY,
    Fatal,
    LoadError,
    TimeLimit,
    describe_error,
    guarded,
    seed_random,
)

# A Ruby bot is a program: the keeper speaks to it through this adapter.
PROGRAM_ADAPTER = ("_rg_program", "RobotGameProgram")

if not hasattr(rg, "_configure"):
    # In-process (--sandbox off) next to rgkit, which names its own module `rg`: bots
    # must get this one.
    _spec = importlib.util.spec_from_file_location(
        "rg", os.path.join(os.path.dirname(os.path.abspath(__file__)), "rg.py"))
    if _spec is None or _spec.loader is None:
        raise ImportError("no rg.py beside the child's modules")
    rg = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(rg)
    sys.modules["rg"] = rg
# What a bot of this game imports by name, put back before each bot loads (a process that
# imported rgkit's own `rg` since this module was loaded would give bots that one).
BOT_MODULES = {"rg": rg}

_new_dict = dict.__new__
_AttrDict = rg.AttrDict            # the runtime's own: a bot may rebind rg.AttrDict
WATCH_MODULE_STATE = False         # rgkit bots may keep state in their module
CODES = {"guard": 0, "move": 1, "attack": 2, "suicide": 3}
ERROR, TIMEOUT = 4, 5
INSTANCE = "_arena_robot_instance"
TIMED_OUT_TURNS = 2                # the AI forfeits after this many turns of timeouts only


def check_module(module):
    """A loadable bot has a Robot class with act(); its one instance is made here."""
    robot_class = getattr(module, "Robot", None)
    if not isinstance(robot_class, type) or not callable(getattr(robot_class, "act", None)):
        raise LoadError("the bot has no Robot class with an act() method")
    try:
        setattr(module, INSTANCE, robot_class())
    except (Fatal, MemoryError):
        raise
    except BaseException as exc:
        raise LoadError(f"Robot() raised: {describe_error(exc)}") from None


def _number(value):
    return type(value) in (int, float)


def validate(action, location):
    """(code, x, y) of a legal action, or raise ValueError. Touches the bot's object only
    through exact built-in types, as rgkit does, so a hostile answer runs no code."""
    if type(action) not in (list, tuple) or len(action) not in (1, 2):
        raise ValueError("an action is a list or tuple of 1 or 2 items")
    name = action[0]
    if type(name) is not str or name not in CODES:
        raise ValueError('an action is "move", "attack", "guard" or "suicide"')
    if name in ("move", "attack"):
        if len(action) != 2:
            raise ValueError(f"{name} needs a location")
        target = action[1]
        if type(target) not in (list, tuple) or len(target) != 2 \
                or not (_number(target[0]) and _number(target[1])):
            raise ValueError(f"{name} needs an (x, y) location")
        # As in rgkit, a list never equals a location tuple: only (x, y) tuples pass.
        if type(target) is not tuple or target not in rg.open_around(location):
            raise ValueError(f"{name} to {tuple(target)} is not an adjacent open square")
        return CODES[name], int(target[0]), int(target[1])
    if len(action) != 1:
        raise ValueError(f"{name} takes no location")
    return CODES[name], 0, 0


class RobotGameRuntime:
    """One player's bot for the whole match."""

    def __init__(self, module, start, guard):
        rg._configure(start["info"])
        self.robot = getattr(module, INSTANCE)
        self.player_id = start["ai"]
        self.key = start["key"]          # this AI's own key, never the match seed
        self.guard = guard
        self.soft = guard.limits.get("act_soft_s")
        self.first_soft = guard.limits.get("first_act_soft_s") or self.soft
        self.acted = False
        self.timed_out_turns = 0        # turns in a row on which every act timed out

    def handle(self, view):
        """Answer one turn: {'moves': 3 bytes per own robot, 'errors', 'bot_s'}."""
        rows = iter(array("h", view["robots"]))
        turn = view["turn"]
        record_type = _AttrDict
        robots = record_type()
        own = []
        for x, y, hp, player, rid in zip(rows, rows, rows, rows, rows, strict=True):
            loc = (x, y)
            # AttrDict(location=loc, hp=hp, player_id=player), without a Python frame
            record = _new_dict(record_type)
            record["location"], record["hp"], record["player_id"] = loc, hp, player
            record.__dict__ = record
            if rid >= 0:
                record["robot_id"] = rid
                own.append((loc, hp, player, rid))
            robots[loc] = record
        # The bot may keep its own objects in these: they are let go under the guard.
        held = [record_type(robots=robots, turn=turn)]
        del robots
        record = None
        out = bytearray()
        errors = []
        spent = 0.0
        timeouts = 0
        clock = time.perf_counter
        for i, robot in enumerate(own):
            _marks.at(i)
            started = clock()
            code, x, y, error = self._act(held[0], turn, *robot)
            spent += clock() - started
            timeouts += code == TIMEOUT
            out += bytes((code, x, y))
            if error and len(errors) < ERRORS_PER_REPLY:
                errors.append([i, error])
        self.guard.soft = None          # only the hard limit: this is no robot's act
        guarded(self.guard, held.clear)
        self.timed_out_turns = self.timed_out_turns + 1 if own and timeouts == len(own) else 0
        if self.timed_out_turns >= TIMED_OUT_TURNS:
            raise Fatal(f"timeout: every act went past its time limit, {TIMED_OUT_TURNS} "
                        f"turns in a row")
        return {"moves": bytes(out), "errors": errors, "bot_s": spent}

    def _act(self, game, turn, location, hp, player, rid):
        """(code, x, y, error): a validated action, or a guard with why."""
        self.guard.soft = self.soft if self.acted else self.first_soft
        self.acted = True
        try:
            answer, error = guarded(self.guard, lambda: self._decide(game, turn, location,
                                                                      hp, player, rid))
        except TimeLimit:
            return TIMEOUT, 0, 0, "timeout: act() went past its time limit"
        return (ERROR, 0, 0, error) if error else answer

    def _decide(self, game, turn, location, hp, player, rid):
        """Everything of one robot's act that can run the bot's code, under the guard:
        setting its attributes (a bot's `__setattr__` or property), seeding `random`
        (the bot may have replaced it), act() itself, and letting go of its answer."""
        robot = self.robot
        robot.location, robot.hp, robot.player_id, robot.robot_id = location, hp, player, rid
        seed_random(self.key, turn, rid)
        action = robot.act(game)
        try:
            return (*validate(action, location), None)
        except ValueError as exc:
            return ERROR, 0, 0, f"invalid action: {exc}"


RUNTIME = RobotGameRuntime
