"""What a match or a run is built from, checked once for both fronts: the game, its
rules and limits, the map, the bots, the sandbox mode, the workers and the results file.
Every value a user gives is checked here (or by the helpers of orchestrator/service/values.py
called from here), so `arena ...` and `api....` fail with the same `error:` line."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional, TypedDict

from engine import InputError
from orchestrator import arguments, host_files
from orchestrator.games import DEFAULT_GAME, Game, get_game
from orchestrator.options import Confinement, MatchSettings
from orchestrator.replay import position as positions
from orchestrator.runner import execute
from orchestrator.runner.bots import BotFile, read_bot
from orchestrator.runner.match import MatchSpec, match_fallback
from orchestrator.runner.schedule import Setup
from orchestrator.service.values import check_choice, game_limits, rule_overrides, seed_or_draw
from orchestrator.text import shown
from sandbox import modes

RUNS_DIR = Path("runs")


def match_spec(bots: list[Path], settings: MatchSettings, seed: int | None,
               on_skip: Callable[[str], None] | None = None) -> MatchSpec:
    """One match's spec (`arena run`): no bots is the game's demo line-up (a sample that
    cannot be built here is left out and told to `on_skip`); a lone bot of a two-player
    game plays itself. A bad map, or one too small for these AIs, fails here."""
    arguments.check(seed=seed)
    found = get_game(settings.game)
    overrides = rule_overrides(found, settings.robots, settings.max_turns,
                               settings.random_spawn)
    held = settings.confinement
    limits = game_limits(found, held.cpu_limit, held.memory_mb)
    modes.chosen(held.sandbox)
    rules_obj = found.rules(settings.rules or found.presets[0], **overrides)
    paths = found.mirrored(list(bots)) if bots else found.demo_lineup(on_skip=on_skip)
    bot_files = [read_bot(p, found.name) for p in paths]
    if not bot_files:
        raise InputError(f"no bots given and no sample bots found for {found.name}")
    map_path = found.find_map(settings.map)
    spec = MatchSpec(game=found.name, map_path=map_path, bots=bot_files,
                     seed=seed_or_draw(seed), rules=rules_obj, limits=limits,
                     sandbox=held.sandbox)
    # A bad map, or one too small for these AIs, fails here, before any child starts.
    found.new_match(found.load_map(map_path), [b.name for b in bot_files], spec.seed, rules_obj)
    return spec


def from_position(start: str | Path | dict[str, Any], bots: Any, settings: MatchSettings, *,
                  seed: int | None, turns: int | None,
                  files: Callable[[Any, str], list[Path]]) -> MatchSpec:
    """The spec of a match from a position (`arena run --from`, `api.play(start=...)`): a
    file's path or the dict of one; what the position fixes (map, seed, rules) may not be
    given. `files(bots, game)` turns the bots given into files of the position's game."""
    given = [option for option, value in (
        ("--map", settings.map), ("--seed", seed), ("--rules", settings.rules),
        ("--robots", settings.robots), ("--max-turns", settings.max_turns),
        ("--random-spawn", settings.random_spawn)) if value]
    if given:
        raise InputError(f"--from: the position fixes the map, seed and rules; leave out "
                         f"{', '.join(given)}")
    name = str(start) if isinstance(start, (str, Path)) else "the position"
    position = positions.read(Path(start)) if isinstance(start, (str, Path)) else \
        positions.check(start, name)
    if settings.game != DEFAULT_GAME and settings.game != position["game"]:
        raise InputError(f"--game {settings.game}: the position is of {position['game']}")
    if not bots:
        raise InputError("--from: name the bots to play the position (as many as its "
                         f"players: {len(position['players'])})")
    return position_spec(position, name, files(bots, position["game"]), settings.confinement,
                         turns)


def position_spec(start: dict[str, Any], name: str, bots: list[Path], held: Confinement,
                  turns: int | None) -> MatchSpec:
    """A match from a position (`arena run --from`), checked (`position.read`/`check`)
    and called `name` in errors: its game, map, seed, rules and state, the bots given (as
    many as its players: a lone bot of a two-player game plays itself), each starting
    fresh, and `turns` to stop after that many."""
    found = get_game(start["game"])
    modes.chosen(held.sandbox)
    arguments.check(turns=turns)
    limits = game_limits(found, held.cpu_limit, held.memory_mb)
    wanted = len(start["players"])
    paths = found.mirrored(list(bots)) if bots else []
    if len(paths) != wanted:
        raise InputError(f"{shown(name)}: the position has {wanted} players "
                         f"({', '.join(shown(p)[:40] for p in start['players'])}); give "
                         f"{wanted} bots, not {len(paths)}")
    bot_files = [read_bot(p, found.name) for p in paths]
    positions.start(start, [b.name for b in bot_files], name, found)
    rules = found.rules(start["rules"]["preset"],
                        **{k: v for k, v in start["rules"].items() if k != "preset"})
    return MatchSpec(game=found.name, map_path=Path(start["map"]["name"] + found.map_suffix),
                     bots=bot_files, seed=start["seed"], rules=rules, limits=limits,
                     sandbox=held.sandbox, map_text=start["map"]["text"],
                     start=start["state"], turns=turns)


def run_setup(settings: MatchSettings) -> Setup:
    """What every match of a batch, tournament or comparison shares."""
    found = get_game(settings.game)
    held = settings.confinement
    modes.chosen(held.sandbox)
    rules_obj = found.rules(settings.rules or found.presets[0],
                            **rule_overrides(found, settings.robots, settings.max_turns,
                                             settings.random_spawn))
    return Setup.make(found, settings.map, rules_obj,
                      game_limits(found, held.cpu_limit, held.memory_mb), held.sandbox)


def workers_for(backend: str, workers: Optional[int]) -> int:
    """The number of matches played at once (default: all cores), checked with the
    backend that plays them."""
    check_choice(backend, execute.BACKENDS, "--backend")
    arguments.check(workers=workers)
    return workers or execute.default_workers()


def results_path(db: Optional[Path], game: Game) -> Path:
    """The results file of a run: the one given, else runs/GAME.sqlite, a name arena
    chose in the working folder: its folder made and entered without following a link,
    and a link at its name refused (a cloned repository holding `runs -> /elsewhere`
    had the results written there)."""
    if db is not None:
        return db
    host_files.real_folders(RUNS_DIR)
    path = RUNS_DIR / f"{game.name}.sqlite"
    if path.is_symlink():
        raise InputError(f"{path}: a link; nothing is written through a link: remove it, "
                         f"or give the results file with --db")
    return path


class SandboxNote(TypedDict, total=False):
    """A report's word on its sandbox: why `match` played in the standard mode."""

    sandbox_note: str


def sandbox_shown(sandbox: str, game: Game, bots: list[BotFile]) -> tuple[str, SandboxNote]:
    """A run's sandbox as its title names it, and its report's note: `match` asked for
    executable bots plays them in the standard mode, and says so."""
    note = match_fallback(game, bots) if not modes.get_mode(sandbox).programs else None
    if note:
        return f"standard ({note.split(':')[0]}: --sandbox {sandbox} falls back)", \
            {"sandbox_note": note}
    return sandbox, {}
