"""What every game's child side shares: loading a bot, guarding each call, capturing output.

The same code runs in a sandbox child and, with `--sandbox off`, in the host process, so
that both modes play the same match for the same seed (each bot's `random` seeded from
its own key, `engine.streams.bot_key`).
"""
import importlib
import os
import random
import resource
import signal
import sys
import time
import types
from gc import disable as _gc_disable
from gc import enable as _gc_enable
from gc import isenabled as _gc_isenabled

import _marks
from _sched import STARVED_TIMES

FATAL_EXIT = 86          # the child's exit status after it reported a fatal error
ERROR_TEXT_CAP = 200     # characters kept of one exception message
ERRORS_PER_REPLY = 8     # per-robot error messages sent back per turn
WARNINGS_PER_REPLY = 20  # rule-1 warnings sent back per turn (the host keeps 20 a match)
WARNING_TEXT_CAP = 60    # characters kept of the name in one


class Fatal(Exception):
    """The AI must be erased (or forfeit): the reason is the message."""


class LoadError(Exception):
    """The bot could not be loaded: the reason is the message."""


class CappedOutput:
    """A text sink keeping at most `cap` characters; the rest is counted, not kept."""

    def __init__(self, cap):
        self.cap = cap
        self.kept = 0
        self.dropped = 0
        self.pending = []

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError("write() argument must be str")
        room = self.cap - self.kept
        if room > 0:
            piece = text[:room]
            self.pending.append(piece)
            self.kept += len(piece)
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False

    def take(self):
        """The text written since the last call."""
        text = "".join(self.pending)
        self.pending.clear()
        return text


class TimeLimit(Exception):
    """Raised inside bot code when a call passes its soft CPU limit (Robot Game's 300 ms):
    that robot guards. If the bot swallows it and goes on, the hard limit ends the AI."""


# The wall limit is judged by the host, from the call's own time (`_sched`): its wall time
# less the time it waited to run, which the kernel measures and the bot cannot change. A
# timer in here is one the bot can read (signal.getitimer), so the guard's wall timer is
# only a backstop, never extended: the host's last look at a call (STARVED_TIMES its wall
# limit and the watchdog's grace), which a call starved to a few % of a core may need.

CPU_TICK_S = 0.005       # the guard's CPU timer fires every this much of the process's CPU
_cpu_now = time.clock_gettime            # bound here: a bot may rebind time's own
_PROCESS_CPU = time.CLOCK_PROCESS_CPUTIME_ID
_wall_now = time.perf_counter


class Guard:
    """Per-call limits: CPU seconds, and a wall backstop at the host's last look (see
    above): the wall limit itself is the host's to judge.

    One system call per call, not two timers armed for each (a Robot Game request is one
    short call per robot; those timers were up to 8 % of a child's time in its turns,
    measured): a call reads the process's CPU clock as it begins. The CPU timer
    (ITIMER_PROF) ticks every CPU_TICK_S of the process's CPU from the first call to the
    exit, and a tick in a call reads the clock again: the call's CPU, exact, judged at
    most a tick late (as a one-shot timer is, at the kernel's tick); a tick late, or two
    merged while the bot was in a long C call, still reads the true clock. It fires only
    while the process computes, so a child waiting for its next request is not woken.
    The wall backstop (ITIMER_REAL) is armed once and runs on across calls: when it fires
    in a call that began after it was armed, it is re-armed for what that call has left,
    so each call still gets exactly the backstop; one that fires between calls is
    re-armed at the next call.

    When a limit fires inside bot code, `on_fatal` reports the reason and ends the
    process, so a bot cannot catch it. The host's watchdog backs this up. A game with a
    soft limit sets `soft` before a call: the first expiry raises TimeLimit in the bot,
    and the rest of the hard limit keeps running. `fired` tells that the soft limit
    expired in the last call, even if the bot (or a `__del__`, which Python makes swallow
    every exception) caught the TimeLimit.

    Outside calls the cyclic garbage collector is off, so that no finalizer of the bot's
    runs in the runtime's own code, unguarded; inside a call it is as the bot left it.
    """

    def __init__(self, cpu, wall, on_fatal, limits=None):
        self.cpu = cpu
        self.wall = wall
        self.on_fatal = on_fatal
        self.limits = limits or {}
        self.soft = None
        self.fired = False
        self.backstop = STARVED_TIMES * (wall + self.limits.get("watchdog_grace_s", 0.0))
        self._soft_armed = False
        self._in_call = False
        self._ticking = False           # the CPU timer runs (from the first call on)
        self._began_cpu = 0.0           # the process's CPU clock as the call began
        self._wall_armed = False        # the wall backstop is running
        self._began_wall = 0.0
        self._bot_gc = _gc_isenabled()
        _gc_disable()
        signal.signal(signal.SIGPROF, self._cpu_expired)
        signal.signal(signal.SIGALRM, self._wall_expired)

    # An expiry outside a call is ignored (a wall one noted), so it never raises in the
    # runtime's own code. The timers start at the first call, once the layers are on: a
    # tick interrupts a system call, and the layers' own calls are not retried.
    def _cpu_expired(self, *_):
        if not self._in_call:
            return
        used = _cpu_now(_PROCESS_CPU) - self._began_cpu
        if self._soft_armed and used >= self.soft:
            self._soft_armed = False
            self.fired = True
            raise TimeLimit("act went past its time limit")
        if used >= self.cpu:
            self.on_fatal("cpu time limit")

    def _wall_expired(self, *_):
        if not self._in_call:
            self._wall_armed = False        # lapsed between calls: the next call arms it
            return
        left = self.backstop - (_wall_now() - self._began_wall)
        if left > 0:                        # armed in an earlier call: this one's runs on
            signal.setitimer(signal.ITIMER_REAL, left)
            return
        self.on_fatal("wall time limit (hang)")

    def __enter__(self):
        self.fired = False
        self._soft_armed = self.soft is not None and self.soft < self.cpu
        if not self._ticking:
            signal.setitimer(signal.ITIMER_PROF, CPU_TICK_S, CPU_TICK_S)
            self._ticking = True
        self._began_cpu = _cpu_now(_PROCESS_CPU)
        self._began_wall = _wall_now()
        if not self._wall_armed:
            signal.setitimer(signal.ITIMER_REAL, self.backstop)
            self._wall_armed = True
        self._in_call = True
        if self._bot_gc:
            _gc_enable()

    def __exit__(self, *exc):
        self._bot_gc = _gc_isenabled()
        _gc_disable()
        self._in_call = False

    def disarm(self):
        """The end of a request: no call runs. The timers run on (see above)."""
        self._in_call = False


class NoGuard:
    """In-process mode: no limits, so that a debugger can stop inside a bot."""

    soft = None
    fired = False
    limits: dict = {}

    def disarm(self):
        pass

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        pass


_TIMED_OUT, _MEMORY, _EXITED = object(), object(), object()


def guarded(guard, call):
    """Call bot code under the guard: (its result, None), or (None, the error's text).

    `call` should return plain data of the runtime's own: whatever of the bot's it
    touched is let go inside the guard, so that hooks (`__del__`, a hostile `__str__`)
    run on the bot's time. A MemoryError (even one the bot caught and re-raised) and
    SystemExit end the AI (Fatal); a call past its soft limit raises TimeLimit, for the
    caller to handle, once the bot's frames are freed.
    """
    outcome = None
    with guard:
        try:
            try:
                result = call()
                if not guard.fired:
                    return result, None
                outcome = _TIMED_OUT
            except (Fatal, KeyboardInterrupt):
                raise
            except TimeLimit:
                outcome = _TIMED_OUT
            except MemoryError:
                outcome = _MEMORY
            except SystemExit:
                outcome = _EXITED
            except BaseException as exc:
                outcome = describe_error(exc)      # a hostile __str__ is bot code too
            result = None
        except TimeLimit:
            outcome = _TIMED_OUT
        except MemoryError:
            outcome = _MEMORY
    if outcome is _TIMED_OUT or guard.fired:
        raise TimeLimit("act went past its time limit")
    if outcome is _MEMORY:
        raise Fatal("memory limit: an allocation failed")
    if outcome is _EXITED:
        raise Fatal("exited (SystemExit)")
    return None, outcome


def describe_error(exc):
    """`Type: message`, short, and safe against hostile __str__."""
    kind = type(exc).__name__
    try:
        text = str(exc)
    except BaseException:
        text = "<unprintable>"
    if not isinstance(text, str):
        text = "<unprintable>"
    return f"{kind}: {text}"[:ERROR_TEXT_CAP] if text else kind


def bot_side(name, source=None):
    """A game's bot side: a module of this folder, imported by `name`, or, for a game kept
    elsewhere, its `source` (sent by the host in the load frame) run as module `name`.
    Source, not a path: it reaches every tier alike (a private root, bubblewrap, the host
    itself with --sandbox off, an installed wheel) with nothing to mount."""
    if source is None:
        return importlib.import_module(name)
    module = sys.modules.get(name)
    if module is None or getattr(module, "__side_source__", None) != source:
        module = types.ModuleType(name)
        module.__file__ = f"<bot side {name}>"
        module.__side_source__ = source
        sys.modules[name] = module
        exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module


# (source, filename) -> code: a process that plays match after match (a batch's worker, its
# jail) compiles each bot once
_COMPILED: dict[tuple[str, str], types.CodeType] = {}


def load_bot(source, filename, guard, module_name="bot"):
    """Execute the bot's source as a fresh module; raise LoadError with the reason."""
    code = _COMPILED.get((source, filename))
    if code is None:
        try:
            code = compile(source, filename, "exec")
        except SyntaxError as exc:
            raise LoadError(f"syntax error: {exc.msg} (line {exc.lineno})") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise LoadError(f"cannot compile: {describe_error(exc)}") from None
        except (MemoryError, RecursionError):     # the parser's own depth guards
            raise LoadError("cannot compile: nested too deeply for the parser") from None
        if len(_COMPILED) >= 8:
            _COMPILED.clear()
        _COMPILED[(source, filename)] = code
    module = types.ModuleType(module_name)
    module.__file__ = filename
    sys.modules[module_name] = module
    # What it draws from `random` at import (a strategy chosen at module level) is the same
    # in every run and mode: the shared generator was seeded from the OS once per zygote
    # (or host), so another run drew other numbers while `arena check`'s two games, forked
    # from one zygote, agreed. A constant: the key comes with the start frame, after this.
    seed_random("import")
    try:
        with guard:
            exec(code, module.__dict__)
        guard.disarm()
    except MemoryError:
        raise LoadError("memory limit: an allocation failed at import") from None
    except Fatal as exc:
        raise LoadError(f"{exc} at import") from None
    except BaseException as exc:          # SystemExit too: the bot must not stop the child
        raise LoadError(f"raised at import: {describe_error(exc)}") from None
    return module


# A bot's life, the same in a sandbox child (`_child.py`), in the match jail
# (`sandbox/jailplayers.py`) and in the host (`sandbox/inprocess.py`): load and check,
# start, then serve each request (the runtime's `handle`), each step under the bot's guard.
def load_checked(game, source, filename, guard, module_name="bot"):
    """The bot's module, executed (`load_bot`) and held to its game's bot side
    (`check_module`, which may run the bot's code: under its guard). LoadError says why
    it is not a bot of this game."""
    modules = getattr(game, "BOT_MODULES", None)
    if modules:              # in-process (--sandbox off), another `rg` may have come since
        sys.modules.update(modules)
    module = load_bot(source, filename, guard, module_name)
    try:
        with guard:
            game.check_module(module)
    finally:
        guard.disarm()
    return module


def start_runtime(game, module, start, guard):
    """The game's runtime for the bot's match (`start`: the start frame), made under the
    bot's guard: it reads the bot's module, where a hostile one runs code."""
    try:
        with guard:
            return game.RUNTIME(module, start, guard)
    finally:
        guard.disarm()
        _marks.reset()          # what it drew at import or start is no turn's


def module_watch(game, module):
    """Rule 1's watch on the bot's module, for a game whose bot side asks for it."""
    return ModuleWatch(module) if game.WATCH_MODULE_STATE else None


def finish_reply(reply, watch, output, attempts, started):
    """A request's reply, with what the host keeps of the bot's side of it: rule-1
    warnings, its output, the attempts refused (`_attempts.Attempts`), the time it took
    since `started` (time.perf_counter)."""
    reply["warn"] = watch.changes() if watch else []
    reply["out"] = output.take()
    reply["out_dropped"] = output.dropped
    reply["violations"] = attempts.take()
    reply["busy_s"] = time.perf_counter() - started
    return _marks.take(reply)


_MODULE_NAMESPACE = vars(types.ModuleType)["__dict__"]     # a module's own dict, always


class ModuleWatch:
    """Special rule 1: report module-level state that move() changes.

    It runs between calls, unguarded, so it runs none of the bot's code: the module's
    namespace is read through ModuleType's own slot (a module may change its class), and
    only exact built-in types are looked into; a key that is not an exact str (one could
    hash or compare in the bot's code) is left out.
    """

    SKIP = (types.ModuleType, types.FunctionType, type, types.BuiltinFunctionType)
    OPENED = (list, dict, set, bytearray)

    def __init__(self, module):
        self.namespace = _MODULE_NAMESPACE.__get__(module)
        self.before = self._snapshot()
        self.reported = set()

    # A mark is (the value, its length, its items): compared by identity, never with the
    # bot's own __eq__, and without id(), which is an audited call in a sandbox child.
    # issubclass() of the value's real type, not isinstance(), which reads `__class__`.
    def _snapshot(self):
        shot = {}
        for key, value in list(self.namespace.items()):
            kind = type(value)
            if type(key) is not str or key.startswith("__") or issubclass(kind, self.SKIP):
                continue
            mark = (value, -1)
            if kind in self.OPENED:
                items = value.values() if kind is dict else value
                mark = (value, len(value), *(items if len(value) <= 256 else ()))
            shot[key] = mark
        return shot

    @staticmethod
    def _same(a, b):
        return (a is not None and b is not None and a[0] is b[0] and a[1] == b[1]
                and len(a) == len(b)
                and all(x is y for x, y in zip(a[2:], b[2:], strict=True)))

    def changes(self):
        """Names whose module-level value changed since load, each reported once: the
        first WARNINGS_PER_REPLY of them, each cut at WARNING_TEXT_CAP characters (all
        the host keeps)."""
        now = self._snapshot()
        changed = sorted(k for k in now.keys() | self.before.keys()
                         if k not in self.reported and not self._same(now.get(k),
                                                                      self.before.get(k)))
        self.reported.update(changed)
        return [name[:WARNING_TEXT_CAP] for name in changed[:WARNINGS_PER_REPLY]]


class _LazyRandom(random.Random):
    """The `random` module's shared generator, seeded only if a call actually uses it.

    Seeding a Mersenne Twister costs about 4 us, once per robot per turn; most bots never
    draw a number. The numbers a bot draws are exactly those of an eager seed.
    """

    _pending = None

    def _ready(self):
        if self._pending is not None:
            key, self._pending = self._pending, None
            super().seed(key)

    def random(self):
        self._ready()
        return super().random()

    def getrandbits(self, k):
        self._ready()
        return super().getrandbits(k)

    def getstate(self):
        self._ready()
        return super().getstate()

    def setstate(self, state):
        self._pending = None
        super().setstate(state)

    def seed(self, a=None, version=2):
        self._pending = None
        super().seed(a, version)


_shared = random._inst
_shared.__class__ = _LazyRandom
for _name in random.__all__:
    if getattr(getattr(random, _name, None), "__self__", None) is _shared:
        setattr(random, _name, getattr(_shared, _name))


def seed_random(*parts):
    """Seed the bot's `random` from the AI's own key (never the match seed), the robot
    and the turn."""
    _shared._pending = ":".join(map(str, parts))
    _shared.gauss_next = None          # as seed() would: no normal variate carried over


def peak_rss_bytes():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024



def exit_now(code):
    os._exit(code)
