"""`arena check`: the CI gate for one submission (the work: orchestrator/service/check.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from orchestrator.cli.options import JsonOption, grouped, one_option
from orchestrator.options import CheckSettings, Confinement, MatchSettings, helps
from orchestrator.text import console, plural, shown, shown_text

out = console()


@grouped
def check(
    bot: Path = typer.Argument(..., help="The bot file to check, or a bundled sample's name.", show_default=False),
    game: str = one_option(MatchSettings, "game"),
    checking: CheckSettings = CheckSettings(),
    sandbox: str = one_option(Confinement, "sandbox", helps.check_sandbox()),
    cpu_limit: Optional[float] = one_option(Confinement, "cpu_limit"),
    memory_mb: Optional[int] = one_option(Confinement, "memory_mb"),
    as_json: JsonOption = False,
) -> None:
    """The CI gate for a submission: load it in the sandbox and play it against samples.

    It plays the match twice: a bot that behaved must play the same game again.

    Exit status 0: the bot behaves.

    Exit status 1: it does not, and one line says why: load_error, hang, stalls (its own time a turn, the wall time it takes less any wait for a busy machine, would make a full match take longer than the game allows: "stalls: 0.50 s of own time a move, ~5.5 h for a 1,000-turn match"; a turn past 5 s of it is a hang), cpu, memory, crash, protocol, sandbox (tried something the sandbox refused: a process, a socket, a signal, importing the engine), overheats (more than --max-overheats of its decisions raised or were invalid), timeout (more than --max-overheats of its calls went past their time limit), invalid (more than --max-overheats of its answers were invalid, missing or late), output (printed past the cap), warnings (with --strict: a warning, such as rule 1's shared module state, or a slow pace: a full match at it would take more than a quarter of what the game allows) or nondeterministic (it played two different games on one seed: `arena replay` and `compare` need the same game for the same inputs; seed any random generator yourself; `--once` skips this second game).

    Exit status 2: bad input (no such file, a bad option).

    Examples:

      arena check my_bot.py

      arena check my_bot.py --turns 200 --json  # a CI job

      # any language, in the same sandbox:
      arena check --game cave my_bot.js
    """
    # Here, not above: `arena check --help` needs neither the API (the service, the
    # runner, the other commands' work) nor `run`'s views.
    from rich.text import Text  # noqa: PLC0415

    from orchestrator import api  # noqa: PLC0415
    from orchestrator.cli.run import warn_sandbox  # noqa: PLC0415

    held = Confinement(sandbox=sandbox, cpu_limit=cpu_limit, memory_mb=memory_mb)
    found = api.check(bot, game=game, checking=checking, confinement=held,
                      progress=not as_json)
    warn_sandbox(found)
    if as_json:
        print(json.dumps(found))
    elif found["ok"]:
        pace = found.get("pace") or {}
        own = (f", {found['own_s']:.2f} s own time ({pace['said']})"
               if pace.get("verdict") == "ok" else "")
        said = (f"{found['name']} played {plural(found['turns'] or 0, 'turn')}: {found['overheats']} "
                f"overheats in {found['decisions']} decisions, {found['cpu_s']:.2f} CPU s"
                f"{own}, {found['peak_rss_mb']:.0f} MB peak; sandbox: "
                f"{', '.join(found['sandbox']) or 'no isolation layers'}")
        if found.get("warned"):
            said += f"; warnings: {'; '.join(found['warned'])} (--strict fails on them)"
        out.print(Text.assemble(("ok", "green"), ": ", shown_text(said)), soft_wrap=True)
    if not as_json and found.get("description"):     # what the bot says of itself, as text
        out.print(shown_text(f"  {found['description']}", "dim"), soft_wrap=True)
    if not found["ok"]:
        typer.echo(f"error: {shown(bot)}: {shown(found['reason'])}", err=True)
        raise typer.Exit(1)
