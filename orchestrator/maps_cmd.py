"""`arena maps`: list, validate and generate maps."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.table import Table

from engine import InputError
from engine.arena.generate import generate
from engine.cave.generate import generate as generate_cavern
from orchestrator.games import get_game

app = typer.Typer(help="List the bundled maps, validate map files, generate arenas and "
                       "caverns.",
                  invoke_without_command=True, no_args_is_help=False)
out = Console()


@app.callback()
def maps(ctx: typer.Context,
         game: str = typer.Option("arena", help="Which game's maps.")) -> None:
    """List the bundled maps (or run a subcommand: validate, generate)."""
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
             game: str = typer.Option("arena", help="Which game's map format.")) -> None:
    """Check map files; a bad one gives `error: FILE:LINE:COLUMN: problem` and exit 2."""
    found = get_game(game)
    for path in files:
        summary = found.summary(found.load_map(path))
        facts = [value if key == "size" else f"{value} {key}" for key, value in summary.items()]
        print(f"ok: {path}: {', '.join(facts)}")


@app.command("generate")
def generate_cmd(
    game: str = typer.Option("arena", help="arena, or cave (a cavern for --bots bots)."),
    ais: int = typer.Option(8, help="How many AIs the arena is sized for."),
    robots: int = typer.Option(40, help="Robots per AI."),
    flags: int = typer.Option(8, help="Number of flags (1-9)."),
    bots: int = typer.Option(2, help="cave: how many bots the cavern is sized for."),
    seed: int = typer.Option(0, help="Generator seed: the same seed gives the same map."),
    out_file: Optional[Path] = typer.Option(None, "--out", help="Write here (default: stdout)."),
) -> None:
    """Generate an arena at the seed's 5-6 % robot density, with walls, lasers, spinners
    and pits; or (--game cave) a fixed cavern, as a match with that seed would draw it.
    Examples: arena maps generate --ais 8 --seed 3 --out maps/arena/mine.txt;
    arena maps generate --game cave --bots 4 --seed 7 --out cave.txt"""
    if get_game(game).name == "cave":
        if bots < 1:
            raise InputError(f"--bots must be at least 1, got {bots}")
        cavern = generate_cavern(bots, seed)
        text = (f"# Cave Rangers cavern for {bots} bots, seed {seed}: "
                f"{cavern.side}x{cavern.side}\n" + "\n".join(cavern.rows()) + "\n")
        summary = f"{cavern.side}x{cavern.side} cavern for {bots} bots"
    else:
        if robots < 1:
            raise InputError(f"--robots must be at least 1, got {robots}")
        arena = generate(ais, seed, robots, flags)
        text = arena.to_text()
        summary = (f"{arena.size}x{arena.size}, {len(arena.flags)} flags, fits {ais} AIs x "
                   f"{robots} robots")
    if out_file is None:
        typer.echo(text, nl=False)
        return
    try:
        out_file.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{out_file}: cannot write the map ({exc.strerror})") from None
    Console(stderr=True).print(f"wrote {out_file}: {summary}")
