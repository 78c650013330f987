"""One game's entry in the registry: how the orchestrator runs it.

An entry joins the engine's `RULEBOOK` of the game (`engine/<game>/__init__.py`) with
the module its bots run beside in the sandbox (`sandbox/botlib/<bot_side>.py`) and how
the commands run it: limits, maps, the bots `check` and the demo play against, columns.
Each game's entry is `GAME` in its own folder, `orchestrator/games/<game>/`.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from engine import InputError
from engine.protocol import Match
from engine.rulebook import Rulebook
from orchestrator.assets import bundled
from orchestrator.bots import BotFile, sample_bots
from orchestrator.samples import Unbuildable, runnable
from sandbox.host import BotSpec
from sandbox.limits import Limits
from sandbox.programs import describe, with_driver


@dataclass(frozen=True)
class Game:
    """How to load a game's maps and rules, start a match of it, and run its bots."""

    name: str
    title: str                         # what --help calls it
    rulebook: Rulebook                 # the engine's side: maps, rules, matches
    bot_side: str                      # the child's module, in sandbox/botlib/
    default_map: str
    map_suffix: str
    check_map: str                     # where `arena check` plays a submission
    check_opponents: tuple[str, ...]   # sample bots it plays against
    failure: str = "erase"             # a dead AI is erased and the match replayed, or
                                       # "forfeit": the match ends and it loses
    limits: Limits = Limits()          # the game's default limits
    demo: tuple[str, ...] = ()         # `arena run` with no bots: these (default: all)
    columns: tuple[tuple[str, Callable[[dict], str]], ...] = ()   # result table columns
    programs: bool = False             # bots are programs in any language, not Python modules
    tournament: tuple[str, int, int | None] = ("round-robin", 2, None)   # format, games, size
    ranked_by: str = "elo"             # a tournament's standings: "elo", "points" (wins) or
                                       # "score" (mean score)
    players: int | None = None         # a match's exact number of players, if fixed
    drivers: tuple[tuple[str, str], ...] = ()   # (suffix, driver): bots in other languages,
                                               # loaded by our driver program (Ruby)

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
    def scenario(self) -> Callable[[Any, str], dict] | None:
        return self.rulebook.scenario

    def bot_spec(self, bot: BotFile, scratch: dict | None = None) -> BotSpec:
        """What the sandbox needs to run `bot` (a program: how, and its scratch files)."""
        name = Path(bot.path).name
        driver = dict(self.drivers).get(Path(name).suffix.lower())
        if driver is not None:
            return BotSpec(name, bot.source, with_driver(name, bot.source, driver),
                           scratch or {})
        if not self.programs:
            return BotSpec(filename=name, source=bot.source)
        return BotSpec(name, bot.source, describe(name, bot.source), scratch or {})

    def check_lineup(self) -> list[Path]:
        return [runnable(bundled("bots") / self.name / bot) for bot in self.check_opponents]

    def demo_lineup(self, on_skip: Callable[[str], None] | None = None) -> list[Path]:
        """The files `arena run` plays with no bots given: the game's `demo` samples
        (a C sample built on first use), else all its Python samples. A sample that cannot
        be built here is an error, or with `on_skip`, left out and reported to it."""
        if not self.demo:
            return sample_bots(self.name)
        lineup = []
        for bot in self.demo:
            try:
                lineup.append(runnable(bundled("bots") / self.name / bot))
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
        return bundled("maps") / self.name

    def bundled_maps(self) -> list[Path]:
        return sorted(self.maps_dir.glob(f"*{self.map_suffix}"))

    def find_map(self, ref: str | None) -> Path:
        """A map file path from a path or a bundled map's name."""
        ref = ref or self.default_map
        path = Path(ref)
        if path.is_file():
            return path
        bundled = self.maps_dir / f"{ref}{self.map_suffix}"
        if bundled.is_file():
            return bundled
        names = ", ".join(p.stem for p in self.bundled_maps())
        raise InputError(f"{ref}: map not found (not a file, nor a bundled {self.name} map: "
                         f"{names})")

