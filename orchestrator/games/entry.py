"""One game's entry in the registry: how the orchestrator runs it.

An entry joins the engine's `RULEBOOK` of the game (`engine/<game>/__init__.py`) with
the module its bots run beside in the sandbox (`sandbox/botlib/<bot_side>.py`) and how
the commands run it: limits, maps, the bots `check` and the demo play against, columns,
and every other per-game part the shared commands ask for (check turns, ladder rules,
legend, map generator, the wrong-game hint): shared code never names a game.
Each game's entry is `GAME` in its own folder, `orchestrator/games/<game>/`.

A game kept elsewhere (registered through `ARENA_GAMES`) sets `home`, its folder with
`bots/` and `maps/`, and names its bot side by the path of a `.py` file: the host sends
that file's source in each child's load frame and the child runs it as a module
(`_runtime.bot_side`), the same under every sandbox tier and from an installed wheel.
It may import only what a child has: `_runtime` and the standard library.
"""
from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Protocol, Sequence

from engine import InputError
from engine.position import PositionHooks
from engine.protocol import Match
from engine.rulebook import Rulebook
from orchestrator import given_path
from orchestrator.assets import bundled
from orchestrator.games.sample_folder import Unbuildable, listed, runnable
from sandbox.frames import BotSpec
from sandbox.limits import Limits
from sandbox.programs import describe, with_driver


@dataclass(frozen=True)
class ReplayShape:
    """What a game's replays hold beyond the shared envelope, for the reader to check:
    `map` names the static map's fields and `tables` the state's tables (each must be in
    the initial state, and each row, initial or changed, must fit). A shape is a type
    (`int` is an integer, never a bool or a float), a tuple (a JSON list of exactly those
    items), a one-item list (a JSON list of any length of that item) or a union
    (`int | None`)."""

    map: dict[str, Any] = field(default_factory=dict)
    tables: dict[str, tuple] = field(default_factory=dict)
    # What each table's columns are called (for `arena run --turns`'s changes), where the
    # replay's map does not name them itself (`columns`).
    names: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class LadderRules:
    """A game's ladder: how many bots a match takes, the fewest it needs, and its maps.
    Each game's entry has its own (`Game.ladder_rules`)."""

    size: int
    minimum: int
    maps: tuple[str, ...]


class BotSource(Protocol):
    """What `Game.bot_spec` reads of a bot: a `BotFile` (orchestrator/runner/bots.py)."""

    @property                  # read-only: a frozen BotFile matches
    def path(self) -> str: ...

    @property
    def source(self) -> bytes: ...


@dataclass(frozen=True)
class CodeBot:
    """How a bot given as Python code (a notebook cell's function or class) is written
    to a file for a game: the name the game calls, its kind, and the file's first lines."""

    entry: str                 # the name the game calls: move, Robot or bot
    kind: str                  # "function" or "class"
    prelude: str = ""          # the imports every bot of the game starts with


@dataclass(frozen=True)
class Check:
    """`arena check`: where a submission plays, against which samples, for how long."""

    map: str                           # the map it plays on
    opponents: tuple[str, ...]         # sample bots it plays against
    turns: int | None = None           # this many turns (default: the rules')
    call: str = "move"                 # one bot call, in the game's words (its time gate:
                                       # "0.50 s of own time a move")


@dataclass(frozen=True)
class Competition:
    """Many matches: a tournament's format and standings, the ladder's matches, and how
    `arena compare` plays."""

    tournament: tuple[str, int, int | None] = ("round-robin", 2, None)   # format, games, size
    ranked_by: str = "elo"             # a tournament's standings: "elo", "points" (wins) or
                                       # "score" (mean score)
    ladder: LadderRules | None = None  # `arena serve`: match size, fewest bots, maps
                                       # (default: `players`, else 2, on the default map)
    head_to_head: bool = False         # `arena compare` without --against: NEW against OLD
    game_seconds: float = 1.0          # one game's wall seconds on one worker, its samples
                                       # in the standard sandbox (measured): sizes `arena
                                       # compare`'s default --max-games and its estimate


@dataclass(frozen=True)
class Piece:
    """One piece in `arena run --turns`' account of a turn, in the game's own words."""

    name: str                          # "robot 48", "bot 0", "lion 3"
    ai: int | None                     # its AI's index (None: nobody's, a creature)
    move: str                          # what it was told to do, by the game's name
                                       # ("": nothing asked of it)
    at: str                            # where it is after the turn: "row 12 col 7 facing N"
    changed: str = ""                  # what changed: "facing S -> N, life 5 -> 4"


@dataclass(frozen=True)
class TurnWords:
    """A turn told in the game's terms: each piece that was told to move or changed, and
    what happened, as sentences."""

    pieces: tuple[Piece, ...] = ()
    events: tuple[str, ...] = ()


# A game's teller of a turn: (the replay's data, its AIs' names by index, the state before
# the turn, after it, the turn's events) -> its words. The states are the replay's frames,
# {table: {id: row}}; the replay was checked against the game's shape (or just recorded).
TellTurn = Callable[[dict, Sequence[str], dict, dict, Any], TurnWords]


@dataclass(frozen=True)
class Shown:
    """How its results read: `arena run`'s columns and what they mean, its short name,
    and `arena run --turns`' account of a turn."""

    columns: tuple[tuple[str, Callable[[dict], str]], ...] = ()   # result table columns
    legend: str = ""                   # `arena run`'s table: what its columns mean
    called: str = ""                   # its short name in messages (default: title)
    turn: TellTurn | None = None       # --turns: a turn in its words (None: the replay's
                                       # rows and events as they are)
    score: str = ""                    # the stat that is a match's score, read as `12–7`
                                       # (orchestrator/results/score.py); "": none
    seen_turns: bool = False           # turns named as the bots see them (rgkit's
                                       # game.turn): frame N is the board of turn N, shown
                                       # with what was decided on it (the replay's entry
                                       # N + 1: its actions, notes and marks); else frame N
                                       # shows turn N, played, with its entry's


@dataclass(frozen=True)
class Options:
    """The game's own part of the commands' options."""

    robots_rule: str = "robots_per_type"   # the rule --robots sets
    random_spawn: bool = False         # --random-spawn: the rules' symmetric_spawn off
    generate: Callable[..., tuple[str, str]] | None = None   # `arena maps generate`:
                                       # (ais, robots, flags, bots, seed) -> (text, summary)
    generate_help: str = ""            # what its generator draws, for --help
    robots_help: str = ""              # what --robots counts, where not robots per AI
    presets_help: str = ""             # what its rules presets are, for --rules' help
    edit_help: str = ""                # what `arena maps edit` paints on its maps
    scenario_help: str = ""            # its scenario file, for `arena scenario --help`


@dataclass(frozen=True)
class Game:
    """How to load a game's maps and rules, start a match of it, and run its bots; the
    parts for one command or view each in a record of their own."""

    name: str
    title: str                         # what --help calls it
    rulebook: Rulebook                 # the engine's side: maps, rules, matches
    bot_side: str                      # the child's module: a name in sandbox/botlib/, or
                                       # the path of a .py file (a game kept elsewhere)
    default_map: str
    map_suffix: str
    check: Check                       # `arena check`
    competition: Competition = Competition()   # tournaments, the ladder, `arena compare`
    shown: Shown = Shown()             # `arena run`'s table, its name in messages
    options: Options = Options()       # --robots, --random-spawn, `arena maps generate`
    failure: str = "erase"             # a dead AI is erased and the match replayed, or
                                       # "forfeit": the match ends and it loses
    limits: Limits = Limits()          # the game's default limits
    demo: tuple[str, ...] = ()         # `arena run` with no bots: these (default: all)
    programs: bool = False             # bots are programs in any language, not Python modules
    players: int | None = None         # a match's exact number of players, if fixed
    drivers: tuple[tuple[str, str], ...] = ()   # (suffix, driver): bots in other languages,
                                               # loaded by our driver program (Ruby)
    home: Path | None = None           # a game kept elsewhere: its folder, with bots/ and
                                       # maps/ (None: the bundled bots/<name>/, maps/<name>/)
    looks_like: Callable[[Any], int] | None = None   # how sure (0: not) a bot file
                                       # (orchestrator.games.kinds.BotText) is written for it
    code_bot: CodeBot | None = None    # the Python API's bots as code (None: files only)
    package: str | None = None         # the entry's module (its `__name__`): the game's own
                                       # viewer.js, terminal.py and editor.py sit beside it
    replay_shape: ReplayShape | None = None   # what its replays' map and rows hold, checked
                                       # when a replay file is read (None: the envelope only)
    memoryless: tuple[str, ...] = ()   # its samples that keep nothing from turn to turn:
                                       # from a position they play as they did in the match
                                       # (the positions' byte-for-byte tests play them)
    bot_modules: tuple[str, ...] | None = None   # the modules of sandbox/botlib/ its bots
                                       # import, by the names they import them as, for a
                                       # bot run on the host (orchestrator.api.testing);
                                       # None: it has none there (a game kept elsewhere)
    configure_api: Callable[[dict[str, ModuleType], Match], None] | None = None   # sets
                                       # those modules up for a match's start, as the
                                       # sandbox does (Robot Game's `rg`, for its map)

    @property
    def folder(self) -> Path | None:
        """The game's own folder (where its entry is): its `home`, else its module's."""
        module = sys.modules.get(self.package) if self.package else None
        file = getattr(module, "__file__", None)
        return Path(file).parent if file else self.home

    @property
    def viewer(self) -> Path | None:
        """The HTML replay viewer's renderer of this game (`viewer.js`), if it has one;
        without one, its replays get the plain grid-and-log view."""
        home = self.folder
        return home / "viewer.js" if home and (home / "viewer.js").is_file() else None

    def own(self, part: str) -> ModuleType | None:
        """The game's own module `part` beside its entry (`terminal`: its terminal replay
        drawing; `editor`: its map editor sheet), or None when it has none."""
        home = self.folder
        if self.package is None or home is None or not (home / f"{part}.py").is_file():
            return None
        return importlib.import_module(f"{self.package}.{part}")

    @property
    def load_map(self) -> Callable[[Path], Any]:
        return self.rulebook.load_map

    @property
    def parse_map(self) -> Callable[[str, str], Any]:
        return self.rulebook.parse_map

    @property
    def rules(self) -> Callable[..., Any]:
        return self.rulebook.rules

    @property
    def presets(self) -> tuple[str, ...]:
        return self.rulebook.presets

    @property
    def new_match(self) -> Callable[[Any, list[str], int, Any], Match]:
        return self.rulebook.new_match

    @property
    def summary(self) -> Callable[[Any], dict[str, str]]:
        return self.rulebook.summary

    def map_facts(self, board: Any) -> str:
        """A map in one line, as `arena maps validate` reports it."""
        return ", ".join(value if key == "size" else f"{value} {key}"
                         for key, value in self.summary(board).items())

    @property
    def position(self) -> PositionHooks | None:
        """How a match's state is saved and a match started from one (a position file)."""
        return self.rulebook.position

    @property
    def scenario(self) -> Callable[[Any, str], dict] | None:
        return self.rulebook.scenario

    @property
    def scenarios_dir(self) -> Path | None:
        """Its example scenario files (`scenarios/` beside its entry), shipped with it."""
        home = self.folder
        return home / "scenarios" if home else None

    def bundled_scenarios(self) -> list[Path]:
        folder = self.scenarios_dir
        return sorted(folder.glob("*.json")) if folder and folder.is_dir() else []

    def find_scenario(self, ref: str | Path) -> Path | None:
        """A scenario file given by a bundled example's name (`laser_fires_twice`, with or
        without `.json`), as maps are found by name; None when `ref` names something on
        disk (a file, or what the reader refuses) or no example of this game."""
        name = str(ref)
        folder = self.scenarios_dir
        if (folder is None or "/" in name or name in ("", ".", "..")
                or os.path.lexists(name)):
            return None
        for candidate in (folder / name, folder / f"{name}.json"):
            if candidate.suffix == ".json" and candidate.is_file():
                return candidate
        return None

    def bot_spec(self, bot: BotSource, scratch: dict | None = None) -> BotSpec:
        """What the sandbox needs to run `bot` (a program: how, and its scratch files)."""
        name = Path(bot.path).name
        driver = dict(self.drivers).get(Path(name).suffix.lower())
        if driver is not None:
            return BotSpec(name, bot.source, with_driver(name, bot.source, driver),
                           scratch or {})
        if not self.programs:
            return BotSpec(filename=name, source=bot.source)
        return BotSpec(name, bot.source, describe(name, bot.source), scratch or {})

    @property
    def bots_dir(self) -> Path:
        """The game's sample bots."""
        return (self.home / "bots") if self.home else bundled("bots") / self.name

    @property
    def ladder_rules(self) -> LadderRules:
        size = self.players or 2
        return self.competition.ladder or LadderRules(size, size, (self.default_map,))

    def check_lineup(self) -> list[Path]:
        return [runnable(self.bots_dir / bot) for bot in self.check.opponents]

    def demo_lineup(self, on_skip: Callable[[str], None] | None = None) -> list[Path]:
        """The files `arena run` plays with no bots given: the game's `demo` samples
        (a C sample built on first use), else all its Python samples. A sample that cannot
        be built here is an error, or with `on_skip`, left out and reported to it."""
        if not self.demo:
            return [path for path in listed(self.bots_dir) if path.suffix == ".py"]
        lineup = []
        for bot in self.demo:
            try:
                lineup.append(runnable(self.bots_dir / bot))
            except Unbuildable as exc:
                if on_skip is None:
                    raise
                on_skip(str(exc))
        return lineup

    def mirrored(self, bots: list) -> list:
        """A lone bot of a two-player game plays itself (seed 001: "run a bot against
        itself"); any other line-up as it is."""
        return bots * 2 if self.players == 2 and len(bots) == 1 else bots

    @property
    def maps_dir(self) -> Path:
        return (self.home / "maps") if self.home else bundled("maps") / self.name

    def bundled_maps(self) -> list[Path]:
        return sorted(self.maps_dir.glob(f"*{self.map_suffix}"))

    def find_map(self, ref: str | None) -> Path:
        """A map file path from a path or a bundled map's name."""
        ref = ref or self.default_map
        if given_path.is_file(ref):
            return Path(ref)
        bundled = self.maps_dir / f"{ref}{self.map_suffix}"
        if given_path.is_file(bundled):
            return bundled
        names = ", ".join(p.stem for p in self.bundled_maps())
        raise InputError(f"{ref}: map not found (not a file, nor a bundled {self.name} map: "
                         f"{names})")

