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
    wall_per_call_s: float = 5.0      # one call, in wall seconds (catches sleepers)
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


def _figure(value: float | None) -> str:
    if value is None:
        return "none"
    if isinstance(value, int):
        return str(value) if value.bit_length() <= 64 else f"(a {value.bit_length()}-bit number)"
    return f"{value:g}"
