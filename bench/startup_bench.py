"""Start-up: from `arena run` to turn 1 for 8 AIs, side by side with `python -c pass`.

Each round runs, one after another: `python -c pass`; `arena run` with the 4 sample bots
twice (8 sandboxed AIs) and `--max-turns 1`, timed as a whole process, so turn 1, the
result and the exit are counted too; and the same without the early zygote (the command
line's `main` called directly), to show what starting it first saves. Target: the
arena run at most 0.35 s more than `python -c pass` (medians).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
BOTS = [str(ROOT / "bots" / "arena" / f"{name}.py")
        for name in ("beeline", "hunter", "randy", "turtle")] * 2
RUN = ["run", *BOTS, "--max-turns", "1", "--seed", "1", "--json"]
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "arena run, 8 AIs, 1 turn": [sys.executable, "-m", "orchestrator", *RUN],
    "  the same, zygote started late": [
        sys.executable, "-c",
        "import sys; from orchestrator.cli.app import main; main(sys.argv[1:])",
        *RUN],
}
out = Console(width=110)


# As on a user's machine: Python writes and reads its .pyc files.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, env=ENV)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    for command in COMMANDS.values():       # warm the disk cache and the .pyc files
        timed(command)
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(args.rounds):
        for name, command in COMMANDS.items():
            times[name].append(timed(command))
    base = statistics.median(times["python -c pass"])
    table = Table(title=f"start-up, {args.rounds} rounds interleaved")
    for column in ("command", "median s", "min s", "over python -c pass"):
        table.add_column(column, justify="right")
    for name, got in times.items():
        table.add_row(name, f"{statistics.median(got):.3f}", f"{min(got):.3f}",
                      f"{statistics.median(got) - base:+.3f} s")
    out.print(table)
    out.print("target: arena run at most 0.35 s over python -c pass\n")


if __name__ == "__main__":
    main()
