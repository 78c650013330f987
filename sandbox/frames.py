"""What crosses to a sandbox child before its first turn: the bot it loads (`BotSpec`, the
load frame, its game's bot side) and the match it plays in (the start frame). Plain data:
the host, the match jail's players and the in-process players build the same frames."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NotRequired, TypedDict


@dataclass(frozen=True)
class BotSpec:
    """What the sandbox needs of a bot: its file name (for tracebacks) and its source.

    An executable bot (a game whose bots are programs) also has `program`, how to run it
    (`sandbox/programs.py`), and the files its scratch directory starts with."""

    filename: str
    source: bytes
    program: dict | None = None
    scratch: dict | None = None

    @property
    def child_main(self) -> str:
        """Which kind of child runs it: a Python bot's, or an executable bot's keeper."""
        return "_child" if self.program is None else "_keeper"


def side_parts(bot_side: str) -> tuple[str, str | None]:
    """A game's bot side as the child loads it (`_runtime.bot_side`): a module name of
    `sandbox/botlib/`, or for a `.py` file kept elsewhere its stem and source."""
    if not bot_side.endswith(".py"):
        return bot_side, None
    return _side_file(bot_side)


def botlib_side(bot_side: str) -> str:
    """The module the zygote may import ahead (a botlib one), or "" for a file elsewhere."""
    return "" if bot_side.endswith(".py") else bot_side


@functools.lru_cache(maxsize=None)
def _side_file(path: str) -> tuple[str, str]:
    return Path(path).stem, Path(path).read_text(encoding="utf-8")


class LoadFrame(TypedDict):
    """The bot a child loads (`load_frame`)."""

    bot_side: str                   # its game's bot side: a module name
    source: bytes                   # the bot's
    filename: str                   # for its tracebacks
    scratch: dict[str, Any]         # an executable bot's files
    bot_side_source: NotRequired[str]   # the bot side's own, for one kept elsewhere


class StartFrame(TypedDict):
    """The match a loaded bot plays in (`start_frame`)."""

    names: list[str]                # the AIs', by seat
    ai: int                         # its own seat
    key: str                        # its own key, which seeds its `random`
    info: dict[str, Any] | None     # what its game tells each bot once


def load_frame(bot_side: str, bot: BotSpec) -> LoadFrame:
    """The frame after the sandbox config: the bot to load, and its game's bot side (a
    module of `sandbox/botlib/`, or the source of one kept elsewhere)."""
    name, source = side_parts(bot_side)
    frame: LoadFrame = {"bot_side": name, "source": bot.source, "filename": bot.filename,
                        "scratch": bot.scratch or {}}
    if source is not None:
        frame["bot_side_source"] = source
    return frame


def start_frame(names: list[str], ai: int, key: str,
                info: dict[str, Any] | None = None) -> StartFrame:
    """The frame after loading: the match the bot plays in, which AI it is, its own key
    (never the match seed: `engine.streams.bot_key`, from which its `random` is seeded),
    and what the game tells each bot once (Robot Game: the map and its settings)."""
    return {"names": names, "ai": ai, "key": key, "info": info}
