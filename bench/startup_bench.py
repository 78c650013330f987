"""Start-up: `arena --version`, `arena check --help`, and `arena run` to turn 1 for 8 AIs,
side by side with `python -c pass`.

Each round runs, one after another: `python -c pass`; the console script's `arena
--version` and `arena check --help` (what a CI job running `arena check` a hundred times
pays before any check); `arena run` with the 4 sample bots twice (8 sandboxed AIs) and
`--max-turns 1`, timed as a whole process, so turn 1, the result and the exit are counted
too; and the same without the early zygote (the command line's `main` called directly),
to show what starting it first saves. `--before REF` times the first two for the tree at
git REF too (exported to a temporary folder, put first on PYTHONPATH), interleaved.
Targets: `arena --version` under 0.25 s; the arena run at most 0.35 s more
than `python -c pass` (medians).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
BOTS = [str(ROOT / "bots" / "arena" / f"{name}.py")
        for name in ("beeline", "hunter", "randy", "turtle")] * 2
RUN = ["run", *BOTS, "--max-turns", "1", "--seed", "1", "--json"]
ARENA = str(Path(sys.executable).parent / "arena")     # the console script, as installed
QUICK = {
    "arena --version": [ARENA, "--version"],
    "arena check --help": [ARENA, "check", "--help"],
}
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    **QUICK,
    "arena run, 8 AIs, 1 turn": [sys.executable, "-m", "orchestrator", *RUN],
    "  the same, zygote started late": [
        sys.executable, "-c",
        "import sys; from orchestrator.cli.app import main; main(sys.argv[1:])",
        *RUN],
}
out = Console(width=110)


# As on a user's machine: Python writes and reads its .pyc files.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str], env: dict[str, str] = ENV) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - started


def exported(ref: str, into: Path) -> dict[str, str]:
    """The environment that runs the console script on the tree at git `ref`."""
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return {**ENV, "PYTHONPATH": str(into)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--before", metavar="REF",
                        help="also time --version and check --help on the tree at git REF")
    parser.add_argument("--quick", action="store_true",
                        help="only python -c pass, --version and check --help")
    args = parser.parse_args()
    commands = {name: (command, ENV) for name, command in COMMANDS.items()
                if not args.quick or name == "python -c pass" or name in QUICK}
    with tempfile.TemporaryDirectory() as before:
        if args.before:
            env = exported(args.before, Path(before))
            commands.update({f"{name}, at {args.before}": (command, env)
                             for name, command in QUICK.items()})
        times = rounds(commands, args.rounds)
    report(times, args.rounds)


def rounds(commands: dict[str, tuple[list[str], dict[str, str]]],
           count: int) -> dict[str, list[float]]:
    for command, env in commands.values():      # warm the disk cache and the .pyc files
        timed(command, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(count):
        for name, (command, env) in commands.items():
            times[name].append(timed(command, env))
    return times


def report(times: dict[str, list[float]], count: int) -> None:
    base = statistics.median(times["python -c pass"])
    table = Table(title=f"start-up, {count} rounds interleaved")
    for column in ("command", "median s", "min s", "over python -c pass"):
        table.add_column(column, justify="right")
    for name, got in times.items():
        table.add_row(name, f"{statistics.median(got):.3f}", f"{min(got):.3f}",
                      f"{statistics.median(got) - base:+.3f} s")
    out.print(table)
    out.print("targets: arena --version under 0.25 s; arena run at most 0.35 s over "
              "python -c pass\n")


if __name__ == "__main__":
    main()
