"""The option groups, each declared once: what confines each bot, what every match of a
run shares, where and how a run plays, a tournament's format, a comparison's test, what
a check plays, which games `arena results` reads, and a ladder's settings. The command
line, the Python API and the ladder all take them:

- a command offers every field of each group it takes, by the flag and help its field
  names here (`option_of`; orchestrator/cli/options.py turns them into typer options), so
  no option of a group can exist for one command and be missing from a sibling;
- an API function takes a group whole (`match=MatchSettings(...)`) or its fields as
  keywords (`sandbox="off"`), and builds the same group from them (`build`);
- the service's functions and the ladder take the groups as they are.

Each group is a frozen dataclass of the values as given; nothing is checked when one is
made: the service's functions that take them check every value once, so the CLI and the
API fail with the same `error:` line. A help text that names the registry's games or
modes is a function, made when a command's help is built, not when this module loads
(the registries load their plugins at their first ask).

May import the registry (games) and below (tests/test_layers.py).
"""
from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, TypeVar, Union

from orchestrator.games import DEFAULT_GAME
from orchestrator.options import helps
from sandbox.limits import Limits

Help = Union[str, Callable[[], str]]


@dataclass(frozen=True)
class Flag:
    """How a group's field shows on the command line: its flag names (none: typer's, from
    the field's name), its help (a function: made when the help is built), and whether
    typer adds the default to it."""

    names: tuple[str, ...]
    help: Help
    show_default: bool = True

    def text(self) -> str:
        return self.help() if callable(self.help) else self.help


def flag(help: Help, *names: str, show_default: bool = True) -> dict[str, Flag]:
    """A field's metadata: the option that offers it (`field(metadata=flag(...))`)."""
    return {"flag": Flag(names, help, show_default)}


def option_of(item: dataclasses.Field) -> Flag | None:
    """The option a group's field is offered as; None: a field no command offers (set by
    the API or the ladder's caller)."""
    return item.metadata.get("flag")


@dataclass(frozen=True)
class Confinement:
    """How each bot is held: the sandbox mode (`--sandbox`), and the game's limits changed
    by `--cpu-limit` (seconds) and `--memory-mb` (MiB); None keeps the game's own."""

    sandbox: str = field(default="standard", metadata=flag(helps.sandbox))
    cpu_limit: float | None = field(default=None, metadata=flag(helps.cpu,
                                                                 show_default=False))
    memory_mb: int | None = field(default=None, metadata=flag(
        "Memory cap per AI, in MiB \\[default: 512]."))


@dataclass(frozen=True)
class MatchSettings:
    """What every match of a run (or the one match of `arena run`) shares, as given: the
    game, the map (a name or a file; None: the game's first), the rules' preset and their
    overrides (`--robots`, `--max-turns`, `--random-spawn`), and how each bot is held."""

    game: str = field(default=DEFAULT_GAME, metadata=flag(helps.game))
    map: str | None = field(default=None, metadata=flag(
        "A map file or a bundled map name (see `arena maps`).", "--map"))
    rules: str | None = field(default=None, metadata=flag(helps.rules, show_default=False))
    robots: int | None = field(default=None, metadata=flag(helps.robots))
    max_turns: int | None = field(default=None, metadata=flag(
        "Turn limit (default: the preset's)."))
    random_spawn: bool = field(default=False, metadata=flag(helps.random_spawn,
                                                            "--random-spawn"))
    confinement: Confinement = field(default_factory=Confinement)

    @property
    def sandbox(self) -> str:
        return self.confinement.sandbox


@dataclass(frozen=True)
class Execution:
    """Where a run's matches are recorded and how they are played: the results file
    (None: runs/GAME.sqlite), the backend and its scheduler's address, and the matches
    played at once (None: all cores)."""

    workers: int | None = field(default=None, metadata=flag(
        "Matches played at once \\[default: all cores].", show_default=False))
    db: Path | None = field(default=None, metadata=flag(
        "The SQLite results file \\[default: runs/GAME.sqlite]. A rerun resumes from it.",
        show_default=False))
    backend: str = field(default="local", metadata=flag(
        "local: worker processes on this machine. dask: a Dask cluster (--address), or a "
        "LocalCluster without one; needs pip install '.\\[dask]'."))
    address: str | None = field(default=None, metadata=flag(
        "Dask scheduler, tcp://host:port."))


@dataclass(frozen=True)
class TournamentFormat:
    """A tournament's shape (`arena tournament --format --games --size`); None: the
    game's own."""

    format: str | None = field(default=None, metadata=flag(
        helps.tournament_format, "--format", show_default=False))
    games: int | None = field(default=None, metadata=flag(
        "Games per pair, per group, or in all (ffa).", show_default=False))
    size: int | None = field(default=None, metadata=flag(
        "combinations: bots per match (at most the number of bots)."))


@dataclass(frozen=True)
class CompareBounds:
    """A comparison's sequential test (`arena compare`): the Elo bounds of H0 and H1, the
    error rates, the Elo model, and the most games played before it stops undecided
    (None: sized to the game's cost)."""

    elo0: float = field(default=0.0, metadata=flag(
        "H0: NEW is not better than this, in normalized Elo (nElo; see --model), or in Elo "
        "with --model logistic."))
    elo1: float = field(default=10.0, metadata=flag(
        "H1: NEW is better by at least this (nElo, or Elo with --model logistic). The "
        "closer to elo0, the more games the test needs near the bounds; a wide gap "
        "between the bots ends in a few pairs whatever the bounds."))
    alpha: float = field(default=0.05, metadata=flag(
        "The chance of accepting H1 when NEW is only elo0 better (a false 'better')."))
    beta: float = field(default=0.05, metadata=flag(
        "The chance of accepting H0 when NEW is elo1 better (a missed improvement)."))
    model: str = field(default="normalized", metadata=flag(
        "normalized: elo0 and elo1 are normalized Elo (nElo: the mean score's distance "
        "from 1/2 in standard deviations of a game's score, times 800/ln 10), whatever "
        "the draw rate (fishtest's default). logistic: the usual Elo."))
    max_games: int | None = field(default=None, metadata=flag(
        "Stop undecided after this many games \\[default: sized to the game: what one "
        "worker plays in about 2 hours of its games, from 200 to 20,000; the number, and "
        "the time it may take, are shown before the first game].", show_default=False))


@dataclass(frozen=True)
class CheckSettings:
    """What `arena check` plays and how it judges: the turns (None: the game's check
    length), the seed, the share of decisions that may overheat, one game or two (the
    second to see the bot play the same game again), and whether a warning fails it."""

    turns: int | None = field(default=None, metadata=flag(helps.check_turns))
    seed: int = field(default=1, metadata=flag("Match seed."))
    max_overheats: float = field(default=0.1, metadata=flag(
        "Largest share of decisions that may overheat (raise, or answer an invalid move), "
        "and apart from it, of calls that may time out and of answers that may be invalid "
        "or late."))
    once: bool = field(default=False, metadata=flag(
        "Play one game, not two: no check that the bot plays the same game twice on one "
        "seed.", "--once"))
    strict: bool = field(default=False, metadata=flag(
        "Any warning fails the check too (exit status 1): rule 1's module state changed "
        "by move() (robots sharing memory), an attempt the sandbox refused, a slow pace "
        "of own time.", "--strict"))


@dataclass(frozen=True)
class ResultsQuery:
    """Which of a results file's games `arena results` reads: one run's (its id or a
    prefix; None: the whole file), one bot's, against one bot, on one map, only those
    lost (`--games`), split by map or seat (`--matrix`)."""

    run: str | None = field(default=None, metadata=flag(
        "Show one run (its id, or a prefix)."))
    bot: str | None = field(default=None, metadata=flag(
        "--matrix: only this bot's rows; --games: this bot's games (its name).", "--bot",
        show_default=False))
    vs: str | None = field(default=None, metadata=flag(
        "--games: only those against this bot.", "--vs", show_default=False))
    map: str | None = field(default=None, metadata=flag(
        "--matrix or --games: only the games on this map (its name).", "--map",
        show_default=False))
    lost: bool = field(default=False, metadata=flag("--games: only those it lost.",
                                                    "--lost"))
    by: str | None = field(default=None, metadata=flag(
        "--matrix split by map or by seat (the row's bot's seat).", "--by",
        show_default=False))


CHECK_QUEUE = 16                  # uploads waiting for a check worker; more are refused
CHALLENGE_QUEUE = 64              # challenges waiting to start, in all; more are refused (503)
CHALLENGE_RATE = 30               # challenges an owner or an address makes per hour (429)
UPLOAD_RATE = 30                  # uploads (bots and versions) an address or owner makes (429)
UPLOADS_PENDING = 2               # an owner's or address's uploads waiting for their check (429)


@dataclass(frozen=True)
class LadderSettings:
    """A ladder's settings (`arena serve`, and `Ladder(db, settings)`): the games that get
    a ladder (None: all), their match sizes (None: each game's own), the matches and
    upload checks played at once and where, the sandbox, the matchmaking's seed, and the
    limits on what waits and on what one owner or address asks for. `check_turns` and
    `check_limits` change the upload check's (None: as `arena check`); `trusted_proxies`:
    the reverse proxies whose X-Forwarded-For names the client (Ladder.client_key)."""

    games: Sequence[str] | None = None
    lineups: Mapping[str, int] | None = None
    workers: int = 1
    backend: str = field(default="local", metadata=flag(
        "local: worker processes here. dask: a Dask cluster (--address), or a "
        "LocalCluster."))
    address: str | None = field(default=None, metadata=flag(
        "Dask scheduler, tcp://host:port."))
    seed: int = field(default=0, metadata=flag(
        "The matchmaking's seed: who meets whom, on which map. Each match's own seed is "
        "drawn from the OS."))
    sandbox: str = field(default="standard", metadata=flag(helps.ladder_sandbox))
    check_workers: int = field(default=1, metadata=flag(
        "Uploads checked at once; more uploads wait their turn."))
    check_queue: int = field(default=CHECK_QUEUE, metadata=flag(
        "Uploads that may wait for a check; past that, an upload is refused (503)."))
    challenge_queue: int = field(default=CHALLENGE_QUEUE, metadata=flag(
        "Challenges that may wait to start; past that, a challenge is refused (503). "
        "While challenges wait, rated matches still get every other match slot."))
    challenge_rate: int = field(default=CHALLENGE_RATE, metadata=flag(
        "Challenges an owner (the address its bots were uploaded from: all their tokens "
        "together), and a client address, may make per hour (429 past that; each also "
        "has at most 4 waiting or playing)."))
    upload_rate: int = field(default=UPLOAD_RATE, metadata=flag(
        "Uploads (new bots and versions) a client address, and an owner, may make per "
        "hour (429 past that)."))
    upload_pending: int = field(default=UPLOADS_PENDING, metadata=flag(
        "Uploads of a client address, and of an owner, that may wait for their check at "
        "once (429 past that; each is a check in the sandbox)."))
    trusted_proxies: Sequence[str] = ()
    check_turns: int | None = None
    check_limits: Limits | None = None


GROUPS: dict[str, type] = {"match": MatchSettings, "confinement": Confinement,
                           "execution": Execution, "shape": TournamentFormat,
                           "bounds": CompareBounds, "checking": CheckSettings,
                           "query": ResultsQuery, "ladder": LadderSettings}
"""Every group by its keyword: the parameter an API function takes it whole as (or its
fields one by one), and `build` finds it under."""

G = TypeVar("G")


def is_group(kind: object) -> bool:
    return isinstance(kind, type) and kind in GROUPS.values()


def members(group: type) -> list[tuple[dataclasses.Field, Any]]:
    """A group's fields with their types resolved (a nested group is one field)."""
    hints = typing.get_type_hints(group)
    return [(item, hints[item.name]) for item in dataclasses.fields(group)]


def keywords(group: type) -> list[str]:
    """The keywords a group is built from: its fields, a nested group's flattened."""
    return [name for item, kind in members(group)
            for name in (keywords(kind) if is_group(kind) else [item.name])]


def build(group: type[G], given: dict[str, Any], whole: G | None = None) -> G:
    """The group `group` from `whole` (None: the one `given` holds under the group's
    keyword, else its defaults) with the fields named in `given` (a nested group's too)
    taken out of `given` and set."""
    named = given.pop(next(key for key, kind in GROUPS.items() if kind is group), None)
    base = whole if whole is not None else named if named is not None else group()
    changes: dict[str, Any] = {}
    for item, kind in members(group):
        if is_group(kind):
            changes[item.name] = build(kind, given, getattr(base, item.name))
        elif item.name in given:
            changes[item.name] = given.pop(item.name)
    return dataclasses.replace(base, **changes) if changes else base  # type: ignore[type-var]  # a dataclass


def taken(function: Callable[..., Any]) -> list[type]:
    """The groups an API function takes (each a parameter typed by it, whose fields it
    takes as keywords too), in its signature's order."""
    hints = typing.get_type_hints(function)
    return [kind for name, hint in hints.items() if name != "return"
            for kind in typing.get_args(hint) or (hint,) if is_group(kind)]


def accepted(function: Callable[..., Any]) -> set[str]:
    """Every keyword an API function takes: its parameters and its groups' fields."""
    import inspect  # noqa: PLC0415  (a test's and a doc's question, not a call's)

    return set(inspect.signature(function).parameters) | {
        keyword for group in taken(function) for keyword in keywords(group)}


def no_more(function: str, left: Mapping[str, Any]) -> None:
    """A keyword that no group of an API function took is a TypeError, as Python says it
    for any function."""
    if left:
        raise TypeError(f"{function}() got an unexpected keyword argument "
                        f"{next(iter(left))!r}")
