"""A sandbox mode kept outside the package, as a test's or a game master's own would be:
`off`, with every call the match loop makes of its players written down.

Registered by naming this file in ARENA_SANDBOX_MODES (tests/conftest.py does), so every
`arena` the tests start, and the workers it spawns, know `--sandbox counting`. Each call
appends one line, `PID CALL`, to the file named by ARENA_COUNTING_LOG (none: nothing is
written): a test that reads them knows the match really played through the registry.
"""
from __future__ import annotations

import dataclasses
import os

from sandbox.modes import OFF, Mode
from sandbox.players import Exchanged, Payloads, Players

LOG_VARIABLE = "ARENA_COUNTING_LOG"


def _count(call: str) -> None:
    path = os.environ.get(LOG_VARIABLE)
    if not path:
        return
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, f"{os.getpid()} {call}\n".encode())   # one write: whole lines
    finally:
        os.close(fd)


class Counting:
    """`off`'s players, each call counted."""

    def __init__(self, mode: Mode, bot_side: str, bots: dict, limits, skip=()) -> None:
        _count("load")
        self.inner: Players = OFF.load(bot_side, bots, limits, skip)
        self.failed = self.inner.failed

    def seats(self):
        return self.inner.seats()

    def start(self, seat: int, names: list[str], ai: int, key: str,
              info: dict | None) -> tuple[str, list[str]]:
        _count("start")
        return self.inner.start(seat, names, ai, key, info)

    def exchange(self, payloads: Payloads) -> Exchanged:
        _count("exchange")
        return self.inner.exchange(payloads)

    def layers(self) -> tuple[list[str], dict[str, str]]:
        _count("layers")
        return self.inner.layers()

    def close(self) -> None:
        _count("close")
        self.inner.close()

    def usage(self, seat: int) -> tuple[float, ...]:
        _count("usage")
        return self.inner.usage(seat)


MODE = dataclasses.replace(OFF, name="counting", players=Counting,
                           help="off, each call of its players counted (the tests' mode).")
