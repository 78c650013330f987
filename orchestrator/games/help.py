"""The commands' per-game help text, made from the registry: each game's part comes from
its entry, so a new game shows in every `--help` with no help string edited, and none is
left out (tests/test_game_names.py fails on a game named by hand in help text)."""
from __future__ import annotations

from typing import Callable, Iterable

from orchestrator.games import GAMES, Game


def listed(words: Iterable[str], last: str = "and") -> str:
    """`a`, `a and b`, `a, b and c`."""
    words = list(words)
    return ", ".join(words[:-1]) + f" {last} " * (len(words) > 1) + words[-1] if words else ""


def names(which: Callable[[Game], bool], last: str = "and") -> str:
    """The games for which `which` is true: `robotgame, cave and toy`."""
    return listed((game.name for game in GAMES.values() if which(game)), last)


def per_game(value: Callable[[Game], object]) -> str:
    """Each game's value, as a default is shown: `arena 50, robotgame 100, cave 50`; a game
    whose value is None is left out."""
    return ", ".join(f"{game.name} {shown}" for game in GAMES.values()
                     if (shown := value(game)) is not None)


def check_turns(game: Game) -> int:
    """The turns `arena check` plays: the entry's, else the first preset's limit."""
    return game.check.turns or game.rules(game.presets[0]).max_turns


def cpu_limit(game: Game) -> str | None:
    """A game's hard CPU limit per call (None where it has a soft one)."""
    return None if game.limits.act_soft_s is not None else f"{game.limits.cpu_per_call_s:g}"


def soft_limit(game: Game) -> str | None:
    """A game's soft CPU limit per call, and its first call's where that differs."""
    limits = game.limits
    if limits.act_soft_s is None:
        return None
    first = limits.first_act_soft_s
    return f"{limits.act_soft_s:g}" + (f" ({first:g} for the first call)"
                                        if first and first != limits.act_soft_s else "")


def tournament_format(tournament: tuple[str, int, int | None]) -> str:
    """A tournament (format, games, size) as --format's help says it:
    `combinations of 6, 3 games`."""
    fmt, games, size = tournament
    return f"{fmt}{f' of {size}' if size else ''}, {games} games"


def has_editor(game: Game) -> bool:
    """Whether `arena maps edit` draws the game's maps (its `editor.py` beside its entry)."""
    return game.folder is not None and (game.folder / "editor.py").is_file()
