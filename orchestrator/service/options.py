"""The options of the commands, in the groups they travel in from the front (a command
line, or a call of the Python API) to the service: what confines each bot, what every
match of a run shares, where and how a run plays, a tournament's format and a
comparison's test. Each group is a frozen dataclass of the values as given; nothing is
checked when one is made: the service's functions that take them check every value
(orchestrator/service/setup.py, values.py, batch.py, compare.py, check.py), once, so the
CLI and the API fail with the same `error:` line, in the same order as before.

A group replaces a run of positional parameters that every function along the way
spelled again (`sandbox, cpu_limit, memory_mb`, ...): tests/test_house.py allows no call
in the orchestrator more than 6 positional arguments.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from orchestrator.games import DEFAULT_GAME


@dataclass(frozen=True)
class Confinement:
    """How each bot is held: the sandbox mode (`--sandbox`), and the game's limits changed
    by `--cpu-limit` (seconds) and `--memory` (MB); None keeps the game's own."""

    sandbox: str = "standard"
    cpu_limit: float | None = None
    memory_mb: int | None = None


@dataclass(frozen=True)
class MatchSettings:
    """What every match of a run (or the one match of `arena run`) shares, as given: the
    game, the map (a name or a file; None: the game's first), the rules' preset and their
    overrides (`--robots`, `--max-turns`, `--random-spawn`), and how each bot is held."""

    game: str = DEFAULT_GAME
    map: str | None = None
    rules: str | None = None
    robots: int | None = None
    max_turns: int | None = None
    random_spawn: bool = False
    confinement: Confinement = field(default_factory=Confinement)

    @property
    def sandbox(self) -> str:
        return self.confinement.sandbox


@dataclass(frozen=True)
class Execution:
    """Where a run's matches are recorded and how they are played: the results file
    (None: runs/GAME.sqlite), the backend and its scheduler's address, the matches played
    at once (None: all cores), and whether every match's replay is kept."""

    workers: int | None = None
    db: Path | None = None
    backend: str = "local"
    address: str | None = None
    replays: bool = False


@dataclass(frozen=True)
class TournamentFormat:
    """A tournament's shape (`arena tournament --format --games --size`); None: the
    game's own."""

    format: str | None = None
    games: int | None = None
    size: int | None = None


@dataclass(frozen=True)
class CompareBounds:
    """A comparison's sequential test (`arena compare`): the Elo bounds of H0 and H1, the
    error rates, the Elo model, and the most games played before it stops undecided."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"
    max_games: int = 20000
