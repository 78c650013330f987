"""`arena maps`: list, validate, generate and edit maps."""
from __future__ import annotations

import os
import sys
import webbrowser
from pathlib import Path
from typing import List, Optional

import typer
from rich.table import Table

from engine import InputError
from orchestrator import host_files
from orchestrator.cli.options import missing_server_extra
from orchestrator.games import DEFAULT_GAME, GAMES, games_help, get_game, wrong_game_map_hint
from orchestrator.games.help import has_editor, listed, names
from orchestrator.text import console

app = typer.Typer(help="List the bundled maps, validate map files, generate arenas and "
                       "caverns, and draw maps in the editor.",
                  invoke_without_command=True, no_args_is_help=False)
out = console()
# the games whose maps `arena maps generate` draws
GENERATED = tuple(name for name, game in GAMES.items() if game.options.generate)


@app.callback()
def maps(ctx: typer.Context,
         game: str = typer.Option(DEFAULT_GAME, help=f"Which game's maps: {games_help()}.")
         ) -> None:
    """List the bundled maps (or run a subcommand: validate, generate, edit)."""
    if ctx.invoked_subcommand is not None:
        return
    found = get_game(game)
    table = Table(title=f"bundled {found.name} maps ({found.maps_dir})")
    rows = [(path.stem, found.summary(found.load_map(path))) for path in found.bundled_maps()]
    for column in ("name", *(rows[0][1] if rows else ())):
        table.add_column(column)
    for name, summary in rows:
        table.add_row(name, *summary.values())
    out.print(table)


@app.command()
def validate(files: List[Path] = typer.Argument(..., help="Map files to check."),
             game: str = typer.Option(DEFAULT_GAME, help=f"Which game's map format: "
                                      f"{games_help()}.")) -> None:
    """Check map files; a bad one gives `error: FILE:LINE:COLUMN: problem` and exit 2."""
    found = get_game(game)
    for path in files:
        try:
            board = found.load_map(path)
        except InputError as exc:       # another game's map: say which --game reads it
            raise InputError(f"{exc}{wrong_game_map_hint(path, found.name)}") from None
        print(f"ok: {path}: {found.map_facts(board)}")


GENERATE_HELP = (
    "Generate " + "; or ".join(f"{GAMES[name].options.generate_help} ({name})"
                               for name in GENERATED)
    + ", as a match with that seed would draw it.\n\n"
    "Examples:\n\n"
    "  arena maps generate --ais 8 --seed 3 \\\n"
    "      --out maps/arena/mine.txt\n\n"
    "  arena maps generate --game cave --bots 4 --seed 7 \\\n"
    "      --out cave.txt")


@app.command("generate", help=GENERATE_HELP)
def generate_cmd(
    game: str = typer.Option(DEFAULT_GAME, help="; ".join(
        f"{name}: {GAMES[name].options.generate_help}" for name in GENERATED) + "."),
    ais: int = typer.Option(8, help="How many AIs the map is sized for."),
    robots: int = typer.Option(40, help="Robots per AI."),
    flags: int = typer.Option(8, help="Number of flags (1-9)."),
    bots: int = typer.Option(2, help="How many bots the map is sized for."),
    seed: int = typer.Option(0, help="Generator seed: the same seed gives the same map."),
    out_file: Optional[Path] = typer.Option(None, "--out", help="Write here (default: stdout)."),
) -> None:
    """`arena maps generate`: its help is GENERATE_HELP, made from the registry."""
    found = get_game(game)
    if found.name not in GENERATED:
        raise InputError(f"maps generate draws {' and '.join(GENERATED)} maps, not {found.name}: "
                         f"start from a bundled one (arena maps --game {found.name})")
    assert found.options.generate is not None   # GENERATED: the games that have one
    text, summary = found.options.generate(ais=ais, robots=robots, flags=flags, bots=bots, seed=seed)
    if out_file is None:
        typer.echo(text, nl=False)
        return
    try:
        host_files.write_file(out_file, text.encode("utf-8"))
    except OSError as exc:
        raise InputError(f"{out_file}: cannot write the map ({exc.strerror})") from None
    console(stderr=True).print(f"wrote {out_file}: {summary}")



def _new_maps() -> str:
    """The new file `arena maps edit` makes without one: `new_map.txt, or new_map.py for
    robotgame` (the default game's suffix, then each other suffix with its games)."""
    editable = [game for game in GAMES.values() if has_editor(game)]
    first = GAMES[DEFAULT_GAME].map_suffix
    others: dict[str, list[str]] = {game.map_suffix: [] for game in editable if game.map_suffix != first}
    for game in editable:
        others.get(game.map_suffix, []).append(game.name)
    return ", or ".join([f"new_map{first}"] + [f"new_map{suffix} for {listed(games)}"
                                               for suffix, games in others.items()])


EDIT_HELP = (
    "Draw a map in a browser, as the kit's map editor did: paint "
    + listed((f"{game.options.edit_help} ({game.name})" for game in GAMES.values()
              if has_editor(game)), "or")
    + ", with mirror symmetry, and see [bold]arena maps validate[/bold]'s verdict as you "
    "go. Save writes the file only when it is valid, so [bold]arena run --map FILE[/bold] "
    "plays on it.\n\n"
    "The page is served on 127.0.0.1 only, until Ctrl-C.\n\n"
    "Examples:\n\n"
    "  arena maps edit --game robotgame mine.py --from default\n\n"
    "  arena maps edit maps/arena/mine.txt --size 24")


@app.command(help=EDIT_HELP)
def edit(
    file: Optional[Path] = typer.Argument(
        None, help="The map file to edit; a new one if it does not exist \\[default: a new "
                   f"{_new_maps()}, in this folder].",
        show_default=False),
    game: str = typer.Option(DEFAULT_GAME, help=f"{names(has_editor, 'or')}."),
    start: Optional[str] = typer.Option(None, "--from", help="A new file starts as this map "
                                        "(a file or a bundled map's name), not blank."),
    size: int = typer.Option(20, help="A new blank map's side, for a game whose maps vary in size."),
    port: int = typer.Option(0, help="Loopback port \\[default: a free one].", show_default=False),
    open_browser: Optional[bool] = typer.Option(
        None, "--open/--no-open", help="Open the page in a browser \\[default: when there is "
                                       "a display]."),
) -> None:
    """`arena maps edit`: its help is EDIT_HELP, made from the registry."""
    try:
        import uvicorn

        from orchestrator.web.map_editor import create_app, loopback_socket, open_sheet
    except ImportError as exc:
        raise missing_server_extra("arena maps edit", exc) from None
    found = get_game(game)
    file = file or _unused("new_map", found.map_suffix)
    sheet = open_sheet(found, file, found.find_map(start) if start else None, size)
    sock = loopback_socket(port)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    state = "a new map" if sheet.new else "the map"
    err = console(stderr=True, soft_wrap=True)      # a path stays whole in a log
    err.print(f"editing {state} {file} ({found.name}) at [bold]{url}[/bold]; Ctrl-C stops",
              highlight=False)
    if open_browser or (open_browser is None and _has_display()):
        webbrowser.open(url)
    config = uvicorn.Config(create_app(sheet), log_level="warning")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:           # uvicorn stops, then passes Ctrl-C on: the way out
        pass
    err.print(f"stopped; {file} was {'saved' if sheet.saves else 'not saved'}", highlight=False)


def _has_display() -> bool:
    return sys.platform in ("darwin", "win32") or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _unused(stem: str, suffix: str) -> Path:
    """stem + suffix in this folder, or the first stem_2, stem_3... not taken yet."""
    path, n = Path(stem + suffix), 1
    while path.exists():
        n += 1
        path = Path(f"{stem}_{n}{suffix}")
    return path
