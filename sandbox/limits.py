"""The resource limits of one AI in one match."""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Defaults follow `spec/sandbox.md`. Times are CPU seconds unless named wall."""

    cpu_per_call_s: float = 1.0       # one move()/act() call
    cpu_bank_s: float = 120.0         # the whole match, like Kaggle's overage bank
    wall_per_call_s: float = 5.0      # one call's own time (catches sleepers)
    # Own time is a request's wall time less the time its tasks waited to run, as the host
    # measures it (`sandbox/botlib/_sched.py`): sleeping, waiting on its own threads and
    # blocking on I/O count; a busy machine's run queue does not. A request of many calls
    # (one per robot) gets calls x wall_per_call_s, but never more than own_per_turn_s
    # (nor less than one call's): a turn's stall does not grow with the robot count. Over
    # the match, an AI's requests may take own_bank_s of own time in all: a napper that
    # stays under every per-call limit still cannot hold a match for hours. The bank is
    # above the CPU bank (a computing bot's own time is about its CPU time), so a bot
    # that only computes meets its CPU bank first.
    own_per_turn_s: float = 5.0
    own_bank_s: float = 150.0
    watchdog_grace_s: float = 10.0    # the host's last guard, on top of the above
    memory_mb: int = 512              # address-space cap of the child
    memory_alarm: float = 0.8         # a peak RSS above this share of the cap is fatal
    tasks: int = 64                   # threads and processes of a child, all told
    output_bytes: int = 64 << 10      # captured bot output kept per AI
    reply_bytes: int = 1 << 20        # largest frame the host accepts from a child
    load_timeout_s: float = 10.0      # wall seconds to start and import the bot
    first_wall_s: float = 5.0         # executable bots: a persistent program's first turn
    idle_cpu_s: float = 2.0           # CPU a child may use between turns, over a match
    # Robot Game: past this many CPU seconds an act() is a timeout (that robot guards);
    # cpu_per_call_s stays the hard limit. The first act gets first_act_soft_s.
    act_soft_s: float | None = None
    first_act_soft_s: float | None = None

    def request_cpu_s(self, calls: int, first: bool = False) -> float:
        """The CPU one request of `calls` bot calls may take, as the host measures it.

        With a soft limit, a call ends at it (a timeout) unless the bot swallows the
        timeout, and then the AI ends at the hard limit: so every call at the soft limit
        and one at the hard one, with room for timer slack and the runtime's own work.
        A child whose guard is subverted (or stuck in C code that signals cannot stop) is
        ended at this, not after `calls` hard limits."""
        if self.act_soft_s is None or calls < 1:
            return calls * self.cpu_per_call_s + 0.5
        first_extra = (self.first_act_soft_s or self.act_soft_s) if first else 0.0
        return min(calls * self.cpu_per_call_s, self.cpu_per_call_s + first_extra
                   + calls * (self.act_soft_s + 0.05)) + 0.5

    def request_own_s(self, calls: int, per_call: float | None = None) -> float:
        """The own time one request of `calls` bot calls may take: `per_call` each (the
        wall_per_call_s; a persistent program's first turn, first_wall_s), and the whole
        request at most own_per_turn_s, or one call's if that is more. (`_program.py`
        computes the same for a program's turn, from the child's copy of the limits.)"""
        per_call = self.wall_per_call_s if per_call is None else per_call
        return min(max(1, calls) * per_call, max(per_call, self.own_per_turn_s))

    @property
    def cpu_backstop_s(self) -> int:
        """RLIMIT_CPU of a child: past the whole bank and one more call, the kernel ends it."""
        return int(self.cpu_bank_s + self.cpu_per_call_s) + 2

    def for_child(self) -> dict:
        return dataclasses.asdict(self) | {"cpu_backstop_s": self.cpu_backstop_s}


# What a limit read from a file (a results file's record of a match) may be: a field of
# Limits, a finite number above zero (the soft limits may be null: none), and never looser
# than the limit the reader allows. memory_alarm is a share of the cap, at most 1.
_OPTIONAL = ("act_soft_s", "first_act_soft_s")
ADDED = ("own_per_turn_s", "own_bank_s")       # limits a record made before them lacks


def _effective(limits: dict, name: str) -> float | None:
    """A limit as the sandbox applies it: a first act with no soft limit of its own has
    the act's (sandbox/botlib: `first_act_soft_s or act_soft_s`)."""
    if name == "first_act_soft_s":
        return limits["first_act_soft_s"] or limits["act_soft_s"]
    return limits[name]


def looser(value: object, allowed: Limits) -> str | None:
    """Why the limits `value` (plain data, from a file) may not be used where `allowed`
    are the most a run may have: the first field that is unknown, missing, not a finite
    number above zero, or looser than allowed's; None when every field is within."""
    fields = {f.name: f for f in dataclasses.fields(Limits)}
    if not isinstance(value, dict):
        return "the limits are not an object"
    for name in value:
        if name not in fields:
            return f"no limit is named {str(name)[:40]!r}"
    bound = dataclasses.asdict(allowed)
    value = filled(value, allowed)
    for name, field in fields.items():
        if name not in value:
            return f"the limit {name} is missing"
        got = value[name]
        if got is None and name in _OPTIONAL:
            continue
        whole = field.type in ("int", int)
        if isinstance(got, bool) or not isinstance(got, int if whole else (int, float)) \
                or (isinstance(got, float) and not math.isfinite(got)) or got <= 0 \
                or (name == "memory_alarm" and got > 1):
            return f"the limit {name} is not a {'whole ' * whole}number above zero"
    for name in fields:
        have, most = _effective(value, name), _effective(bound, name)
        if most is None:
            continue                      # no such limit allowed: any is tighter
        if have is None or have > most:
            return f"{name} {_figure(have)} is looser than {_figure(most)}"
    return None


def filled(value: dict, allowed: Limits) -> dict:
    """A record's limits, with each limit added since records began (ADDED) that it lacks
    taken from `allowed` (the match then had none: it is played again under today's)."""
    return {**{name: getattr(allowed, name) for name in ADDED}, **value}


def _figure(value: float | None) -> str:
    if value is None:
        return "none"
    if isinstance(value, int):
        return str(value) if value.bit_length() <= 64 else f"(a {value.bit_length()}-bit number)"
    return f"{value:g}"
