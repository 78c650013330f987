"""The `arena` command line. `arena --help` and `arena COMMAND --help` teach the rest."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from engine import InputError
from orchestrator import (
    batch_cmd,
    bots_cmd,
    compare_cmd,
    maps_cmd,
    replay_view,
    serve_cmd,
)
from orchestrator.bots import read_bot
from orchestrator.check_cmd import PROGRAM_FAULTS, check_bot
from orchestrator.games import DEFAULT_GAME, GAMES, Game, get_game
from orchestrator.match import MatchSpec, run_match
from orchestrator.options import (
    CHECK_SANDBOX_HELP,
    CpuOption,
    GameOption,
    Interrupted,
    JsonOption,
    MapOption,
    MaxTurnsOption,
    MemoryOption,
    RandomSpawnOption,
    RobotsOption,
    RulesOption,
    SandboxOption,
    game_limits,
    seed_or_draw,
)
from orchestrator.replay_view import html_path
from orchestrator.scenario_cmd import run_scenario_file
from orchestrator.text import console, plural, shown, shown_text
from sandbox import modes
from sandbox.isolation import SandboxUnavailable, warning_once

app = typer.Typer(
    name="arena", add_completion=False, no_args_is_help=True,
    rich_markup_mode="rich",
    help="Run sandboxed matches of robot programming games.\n\n"
         "Start with [bold]arena run[/bold]: it plays the bundled sample bots on the default "
         "map. Then pass your own bot files: [bold]arena run my_bot.py bots/arena/hunter.py"
         "[/bold].",
)
app.add_typer(maps_cmd.app, name="maps")
app.command()(batch_cmd.batch)
app.command()(batch_cmd.tournament)
app.command()(batch_cmd.results)
app.command()(compare_cmd.compare)
app.command("replay")(replay_view.replay_command)
app.command()(serve_cmd.serve)
app.command()(bots_cmd.bots)
err = console(stderr=True)
out = console()


@app.command()
def run(
    bots: List[Path] = typer.Argument(None, help="Bot files, or bundled samples' names (see `arena bots`). None: the game's sample bots.",
                                      show_default=False),
    game: GameOption = DEFAULT_GAME,
    map: MapOption = None,
    seed: Optional[int] = typer.Option(None, help="Match seed. Omitted: one is drawn and "
                                       "printed, so the match can be replayed."),
    rules: RulesOption = None,
    robots: RobotsOption = None,
    max_turns: MaxTurnsOption = None,
    random_spawn: RandomSpawnOption = False,
    sandbox: SandboxOption = "standard",
    cpu_limit: CpuOption = None,
    memory_mb: MemoryOption = None,
    replay_file: Optional[Path] = typer.Option(None, "--replay", help="Save the match's "
                                               "replay here (gzip JSON; see docs/replay.md)."),
    open_viewer: bool = typer.Option(False, "--open", help="Also write the replay as a web "
                                     "page you can open in a browser, and say where."),
    as_json: JsonOption = False,
) -> None:
    """Play one match and print the ranking, winner and runner-up.

    Examples:

      arena run                                   # the sample bots, default map

      arena run my_bot.py bots/arena/hunter.py --map official --seed 42

      arena run my_bot.py --sandbox off           # debug your bot with pdb

      arena run --game robotgame my_rgkit_bot.py bots/robotgame/example.py
    """
    from orchestrator import api

    played = api.play(bots, game=game, map=map, seed=seed, rules=rules, robots=robots,
                      max_turns=max_turns, random_spawn=random_spawn, sandbox=sandbox,
                      cpu_limit=cpu_limit, memory_mb=memory_mb, progress=not as_json,
                      record=bool(replay_file or open_viewer))
    if replay_file or open_viewer:
        target = replay_file or Path("runs") / "replays" / f"{played.game}-{played.seed}.json.gz"
        played.save_replay(target)
        if open_viewer:
            page = replay_view.write_html(played.replay.data, html_path(target))
            err.print(Text.assemble("replay viewer: ", shown_text(page, "bold"),
                                    " (open it in a browser)"))
    result = played.to_json()
    _warn_sandbox(result)
    if as_json:
        print(json.dumps(result))
    else:
        print_result(result)


def _warn_sandbox(result: dict) -> None:
    """The sandbox's warning, and why a match asked for in one mode played in another."""
    message = warning_once(result.get("sandbox_missing") or {})
    if message:
        err.print(Text.assemble(("warning:", "yellow"), " ", shown_text(message)))
    if result.get("sandbox_note"):
        err.print(Text.assemble("note: ", shown_text(result["sandbox_note"])))


@app.command()
def check(
    bot: Path = typer.Argument(..., help="The bot file to check, or a bundled sample's name.", show_default=False),
    game: GameOption = DEFAULT_GAME,
    turns: Optional[int] = typer.Option(None, help="Turns to play \\[default: arena 50, "
                                        "robotgame 100, cave 50]."),
    seed: int = typer.Option(1, help="Match seed."),
    max_overheats: float = typer.Option(0.1, help="Largest share of decisions that may "
                                        "overheat (raise, or answer an invalid move); for "
                                        "cave, of answers that may be invalid or late."),
    sandbox: str = typer.Option("standard", help=CHECK_SANDBOX_HELP),
    cpu_limit: CpuOption = None,
    memory_mb: MemoryOption = None,
    as_json: JsonOption = False,
) -> None:
    """The CI gate for a submission: load it in the sandbox and play it against samples.

    Exit status 0: the bot behaves.

    Exit status 1: it does not, and one line says why: load_error, hang, cpu, memory, crash, protocol, sandbox (tried something the sandbox refused: a process, a socket, a signal, importing the engine), overheats (more than --max-overheats of its decisions raised or were invalid), invalid (cave: more than --max-overheats of its answers were invalid, missing or late) or output (printed past the cap).

    Exit status 2: bad input (no such file, a bad option).

    Examples:

      arena check my_bot.py

      arena check my_bot.py --turns 200 --json      # for a CI job

      arena check --game cave my_bot.js             # any language, in the same sandbox
    """
    modes.for_check(sandbox)
    chosen = get_game(game)
    read_bot(bot, chosen.name)          # a missing or unreadable file fails here, first
    limits = game_limits(chosen, cpu_limit, memory_mb)
    if not as_json:
        err.print(shown_text(f"checking {bot} ({game}, seed {seed}, sandbox {sandbox})", "dim"))
    found = check_bot(bot, game, turns, seed, max_overheats, sandbox, limits)
    _warn_sandbox(found)
    if as_json:
        print(json.dumps(found))
    elif found["ok"]:
        said = (f"{found['name']} played {plural(found['turns'], 'turn')}: {found['overheats']} "
                f"overheats in {found['decisions']} decisions, {found['cpu_s']:.2f} CPU s, "
                f"{found['peak_rss_mb']:.0f} MB peak; sandbox: "
                f"{', '.join(found['sandbox']) or 'no isolation layers'}")
        out.print(Text.assemble(("ok", "green"), ": ", shown_text(said)), soft_wrap=True)
    if not found["ok"]:
        typer.echo(f"error: {shown(bot)}: {shown(found['reason'])}", err=True)
        raise typer.Exit(1)


def _build_spec(bots, found: Game, map_ref, seed, rules, overrides: dict, sandbox, limits
                ) -> MatchSpec:
    modes.chosen(sandbox)
    rules_obj = found.rules(rules or found.presets[0], **overrides)
    paths = found.mirrored(list(bots)) if bots else found.demo_lineup(on_skip=_skipped_sample)
    bot_files = [read_bot(p, found.name) for p in paths]
    if not bot_files:
        raise InputError(f"no bots given and no sample bots found for {found.name}")
    map_path = found.find_map(map_ref)
    spec = MatchSpec(found.name, map_path, bot_files, seed_or_draw(seed), rules_obj, limits, sandbox)
    # A bad map, or one too small for these AIs, fails here, before any child starts.
    found.new_match(found.load_map(map_path), [b.name for b in bot_files], spec.seed, rules_obj)
    return spec


def _skipped_sample(why: str) -> None:
    err.print(f"note: {why}; the demo plays without it", markup=False, highlight=False,
              soft_wrap=True)


def _play(spec: MatchSpec, show_progress: bool, replays: list | None = None) -> dict:
    if not show_progress:
        return run_match(spec, replays=replays)
    columns = (TextColumn("turn"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True) as progress:
        task = progress.add_task("match", total=spec.rules.max_turns)
        return run_match(spec, on_turn=lambda turn, total: progress.update(task, completed=turn),
                         replays=replays)


def print_result(result: dict) -> None:
    """The human summary: a ranking table, then winner and runner-up."""
    game = get_game(result["game"])
    table = Table(title=shown_text(f"{result['game']} on {result['map']}, seed "
                                   f"{result['seed']}: {plural(result['turns'], 'turn')}, ended by "
                                   f"{result['end']}"))
    headers = ("rank", "AI", "status", *(name for name, _ in game.columns), "heat", "CPU s",
               "MB", "note")
    for column in headers:
        table.add_column(column, justify="left" if column in ("AI", "status", "note")
                         else "right", overflow="fold" if column in ("AI", "note") else "ellipsis")
    for p in result["players"]:
        stats = p["stats"]
        note = p["reason"] or "; ".join(p["warnings"][:1]) or faults_note(p)
        if p["turn"]:
            note = f"{note} (turn {p['turn']})"
        style = {"erased": "red", "load_error": "red", "forfeit": "red"}.get(p["status"])
        table.add_row(str(p["rank"]), shown_text(p["name"]), p["status"],
                      *((cell(stats) if stats else "-") for _, cell in game.columns),
                      str(p["overheats"]), f"{p['cpu_s']:.2f}", f"{p['peak_rss_mb']:.0f}",
                      shown_text(note), style=style)
    out.print(table)
    out.print(f"[dim]{game.legend}heat: overheats (exceptions and invalid moves)[/dim]")
    out.print(Text.assemble("Winner: ", shown_text(_placed(result, 0), "bold green"),
                            "   Runner-up: ", shown_text(_placed(result, 1), "bold")))
    if result["restarts"]:
        out.print(f"The match was replayed from turn 0 {result['restarts']} time(s) "
                  f"after erasing an AI.")


def faults_note(player: dict) -> str:
    """What went wrong for an AI that still finished: a program's failed turns (by kind),
    its invalid answers and what the sandbox refused it, else ""."""
    stats = player.get("stats") or {}
    turns = stats.get("decisions") or 0
    said = [f"{kind}: {PROGRAM_FAULTS.get(kind, 'failed')} in {count} of {turns} turns"
            for kind, count in (stats.get("faults") or {}).items() if count]
    if stats.get("invalid") and not said:
        said.append(f"{plural(stats['invalid'], 'invalid answer')}")
    if player.get("violations"):
        said.append("refused: " + ", ".join(player["violations"][:3]))
    return "; ".join(said)


def _placed(result: dict, place: int) -> str:
    """The name(s) at the best (0) or next (1) rank among AIs that finished."""
    ranks = sorted({p["rank"] for p in result["players"] if p["status"] == "ok"})
    if place >= len(ranks):
        return "none"
    names = [p["name"] for p in result["players"] if p["rank"] == ranks[place]
             and p["status"] == "ok"]
    return names[0] if len(names) == 1 else " = ".join(names) + " (tied)"


@app.command()
def scenario(
    file: Path = typer.Argument(..., help="A scenario JSON file."),
    game: str = typer.Option(DEFAULT_GAME, help=f"Which game: "
                             f"{', '.join(g.name for g in GAMES.values() if g.scenario)} "
                             f"(their formats: docs/scenarios.md)."),
    as_json: JsonOption = False,
) -> None:
    """Play scripted moves on a hand-made position, print the final state.

    An arena file gives a map, robots and moves per turn, for example:

      {"map": ["#####", "#1  #", "#   #", "#####"],
       "robots": [{"id": "a", "ai": "A", "row": 1, "col": 2, "facing": "N"}],
       "moves": [{"a": "FORWARD"}, {"a": "LASER"}], "seed": 1}

    A cave file (--game cave) gives a cavern, bots and their answers per turn:

      {"cavern": ["-----", "-G}--", "--P--"], "bots": [{"id": "a", "row": 2, "col": 1}],
       "turns": [{"a": "MNNANW"}], "creatures_move": false, "seed": 1}

    A race file (--game race) gives a factory (null: the seed's), bots and their five
    registers per round:

      {"factory": null, "bots": [{"id": "a", "x": 7, "y": 4, "d": "E"}],
       "rounds": [{"a": ["M1", null, null, null, null]}], "seed": 1}
    """
    state = run_scenario_file(file, game)
    if as_json:
        print(json.dumps(state))
        return
    _print_state(state)


def _print_state(state: dict) -> None:
    """Any game's scenario state: its counters as a title, each list of pieces (robots,
    bots, objects) as a table, and rows of text (a cavern) as they are."""
    title = ", ".join(f"{key} {value}" for key, value in state.items()
                      if not isinstance(value, (list, dict)) and value is not None)
    for key, value in state.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            _print_rows(f"{key}: {title}", value, tuple(value[0]))
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            out.print(shown_text("\n".join(value), lines=True))


def _print_rows(title: str, rows: list[dict], columns: tuple[str, ...]) -> None:
    table = Table(title=shown_text(title))
    for column in columns:
        table.add_column(shown_text(column))
    for row in rows:
        table.add_row(*(shown_text(row[k]) for k in columns))
    out.print(table)


def _usage_problem(exc: Exception) -> str | None:
    """The message of a command-line usage error (typer's vendored click raises these)."""
    if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
        return exc.format_message()
    return None


def main(argv: list[str] | None = None) -> None:
    """Entry point: bad input becomes one `error:` line and exit status 2."""
    command = typer.main.get_command(app)
    try:
        code = command.main(args=argv, prog_name="arena", standalone_mode=False)
    except (InputError, SandboxUnavailable) as exc:
        typer.echo(f"error: {shown(exc, lines=True)}", err=True)
        sys.exit(2)
    except Interrupted as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(130)
    except (typer.Abort, KeyboardInterrupt):
        code = 130
    except typer.Exit as exc:           # typer turns Ctrl-C into Exit(130)
        code = exc.exit_code
    except Exception as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            typer.echo(exc.ctx.get_help())
            sys.exit(0)
        problem = _usage_problem(exc)
        if problem is None:
            raise
        typer.echo(f"error: {problem}", err=True)
        sys.exit(2)
    if code == 130:
        typer.echo("error: interrupted; every bot process was stopped", err=True)
    sys.exit(code if isinstance(code, int) else 0)
