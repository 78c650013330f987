"""`arena maps`: list, validate and generate maps."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.table import Table

from engine import InputError
from engine.arena.generate import generate
from orchestrator.games import get_game

app = typer.Typer(help="List the bundled maps, validate map files, generate arenas.",
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
    ais: int = typer.Option(8, help="How many AIs the arena is sized for."),
    robots: int = typer.Option(40, help="Robots per AI."),
    flags: int = typer.Option(8, help="Number of flags (1-9)."),
    seed: int = typer.Option(0, help="Generator seed: the same seed gives the same map."),
    out_file: Optional[Path] = typer.Option(None, "--out", help="Write here (default: stdout)."),
) -> None:
    """Generate an arena at the seed's 5-6 % robot density, with walls, lasers, spinners
    and pits. Example: arena maps generate --ais 8 --seed 3 --out maps/arena/mine.txt"""
    if robots < 1:
        raise InputError(f"--robots must be at least 1, got {robots}")
    arena = generate(ais, seed, robots, flags)
    text = arena.to_text()
    if out_file is None:
        typer.echo(text, nl=False)
        return
    out_file.write_text(text, encoding="utf-8")
    Console(stderr=True).print(f"wrote {out_file}: {arena.size}x{arena.size}, "
                               f"{len(arena.flags)} flags, fits {ais} AIs x {robots} robots")
