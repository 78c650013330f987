"""`Players`: the one interface every sandbox mode's players implement (sandbox/modes.py).

The match loop (`orchestrator/runner/match.py`) sees the bots of an attempt only through it, and
never asks which mode made them. `Seats` is the shared implementation for modes that keep
one object per seat (a child process, a bot loaded in this process); the mode adds how a
turn is exchanged and what isolation its bots got.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Collection, NamedTuple, Protocol

if TYPE_CHECKING:
    from sandbox.frames import BotSpec
    from sandbox.limits import Limits
    from sandbox.replies import Reply



class Usage(NamedTuple):
    """What the bot of a seat used over an attempt: CPU seconds, peak RSS MiB, and its own
    time (the wall time of its requests less their run-queue wait, as its mode measures
    it: `sandbox/botlib/_sched.py`). A tuple: `cpu_s, peak_mb, own_s = usage`."""

    cpu_s: float
    peak_mb: float
    own_s: float


Payloads = dict[int, tuple[dict, int]]          # seat -> (request, bot calls it makes)
# The checked replies (sandbox/replies.py), and why each failed seat failed
Exchanged = tuple[dict[int, "Reply"], dict[int, str]]


class Players(Protocol):
    """The bots of one attempt at a match, loaded by one sandbox mode.

    Load: a mode's factory, `Mode.players(mode, bot_side, bots, limits, skip)`, loads every
    bot of `bots` (seat -> BotSpec) beside the game's bot side (a module of
    `sandbox/botlib/`, or a `.py` file kept elsewhere) under `limits`; `skip` names
    isolation layers left off (benchmarks, tests). A bot that fails to load is a value,
    not an exception: its seat is in `failed`, with why, and not in `seats()`. Only a mode
    that cannot run at all here raises (`SandboxUnavailable`: `strict` missing a layer).

    Then, per attempt: `start` once per loaded seat, `exchange` once per turn, and at the
    end `layers`, `close`, then `usage` per seat.
    """

    failed: dict[int, str]

    def seats(self) -> Collection[int]:
        """The seats whose bot loaded."""
        ...

    def start(self, seat: int, names: list[str], ai: int, key: str,
              info: dict | None) -> tuple[str, list[str]]:
        """Tell the bot of `seat` its match: every player's name, its own index among
        them (`ai`), its own key (never the seed: `engine.streams.bot_key`), and what its
        game tells each bot once (`info`). Returns what it printed while loading and what
        the sandbox refused it then."""
        ...

    def exchange(self, payloads: Payloads) -> Exchanged:
        """One turn. `payloads[seat]` is (request, how many bot calls it makes). Returns
        the replies, and per seat that failed (a limit, a crash, a bad reply) why. A seat
        that failed is done for the attempt."""
        ...

    def layers(self) -> tuple[list[str], dict[str, str]]:
        """The isolation layers every bot got, and those some bot lacked, with why."""
        ...

    def close(self) -> None:
        """Stop every bot: kill its processes, drop its module."""
        ...

    def usage(self, seat: int) -> Usage:
        """CPU seconds, peak RSS MiB and own time of the bot of `seat` over the attempt,
        final once `close` has run."""
        ...


class ModeRecord(Protocol):
    """What a mode's players read of its record (`sandbox.modes.Mode`, which holds the
    factory: named here by what it has, so this module imports no mode)."""

    @property
    def name(self) -> str: ...

    @property
    def tier(self) -> str | None: ...


class PlayersFactory(Protocol):
    """How a mode loads an attempt's bots: `Players` by its own record (`mode`)."""

    def __call__(self, mode: ModeRecord, bot_side: str, bots: dict[int, BotSpec], limits: Limits,
                 skip: tuple[str, ...]) -> Players:
        ...


class Seats:
    """`Players` kept as one object per seat, each with `start(names, ai, key, info)`,
    `startup_output`, `startup_violations`, `usage()` and `kill()`. A subclass loads them
    (`__init__`) and exchanges a turn with them (`exchange`); `layers` says none here."""

    failed: dict[int, str]

    def __init__(self, loaded: dict[int, Any], failed: dict[int, str]) -> None:
        self.loaded = loaded
        self.failed = failed

    def seats(self) -> Collection[int]:
        return self.loaded.keys()

    def start(self, seat: int, names: list[str], ai: int, key: str,
              info: dict | None) -> tuple[str, list[str]]:
        player = self.loaded[seat]
        player.start(names, ai, key, info)
        return player.startup_output, player.startup_violations

    def exchange(self, payloads: Payloads) -> Exchanged:
        raise NotImplementedError

    def layers(self) -> tuple[list[str], dict[str, str]]:
        return [], {}

    def close(self) -> None:
        for player in self.loaded.values():
            player.kill()

    def usage(self, seat: int) -> Usage:
        return as_usage(self.loaded[seat].usage())


def as_usage(figures: tuple[float, ...]) -> Usage:
    """A player's figures as Usage: a mode written before own time was measured (a
    plugin's) says CPU and peak memory only, and its own time is then 0."""
    cpu_s, peak_mb, *own = figures
    return Usage(cpu_s, peak_mb, own[0] if own else 0.0)

