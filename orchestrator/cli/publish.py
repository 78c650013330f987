"""`arena publish`: one run of a results file as a static results site (the work:
orchestrator/service/publish.py)."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import List, Optional

import typer

from orchestrator import api
from orchestrator.cli.options import JsonOption, one_option
from orchestrator.options import Confinement
from orchestrator.text import console, shown_text

err = console(stderr=True)


def publish(
    db: Path = typer.Argument(..., help="A results file written by batch or tournament "
                              "(--db)."),
    out: Path = typer.Option(..., "--out", help="The folder to write the site in (made if "
                             "missing; refused if it holds anything, unless --force)."),
    run: Optional[str] = typer.Option(None, help="The run to publish (its id, or a prefix; "
                                      "`arena results DB` lists them) \\[default: the latest]."),
    force: bool = typer.Option(False, "--force", help="Write over a folder that holds files "
                               "(files of the same name are replaced; others stay; a link "
                               "where the site writes is refused)."),
    sources: Optional[List[Path]] = typer.Option(
        None, "--sources", help="A folder the run's bots are in, read for their source and "
        "to play a match again (repeatable; the results file's folder always is one; no "
        "file outside these is read)."),
    sandbox: str = one_option(Confinement, "sandbox"),
    as_json: JsonOption = False,
) -> None:
    """Publish a run as a static results site: standings, matchup matrix, a page per AI
    (its description, source, games, penalties) and per match (its replay, and the
    commands that play it again).

    The folder opens from file:// or any static host; nothing in it reaches the network.
    A match whose replay the batch did not keep (--replays) is played again from its
    record, in the --sandbox mode given here.

    Examples:

      arena tournament bots/*.py --map official \\
          --db runs/official.sqlite --replays

      arena publish runs/official.sqlite --out site/ \\
          --sources bots/

      arena publish runs/official.sqlite --run 3f2a9c \\
          --out site/ --force
    """
    started = time.monotonic()
    found = api.publish(db, out, run=run, force=force, sandbox=sandbox,
                        progress=None if not as_json else False, sources=sources or ())
    if as_json:
        print(json.dumps(found))
        return
    took = time.monotonic() - started
    err.print(shown_text(
        f"wrote {found['out']}: {found['matches']} matches of {found['ais']} AIs "
        f"({found['replays']} with replays), {found['bytes'] / 1e6:.1f} MB in {took:.1f} s; "
        f"open {Path(found['out']) / 'index.html'}"), soft_wrap=True)
    for match_id, why in found["without_replay"].items():
        err.print(shown_text(f"no replay for {match_id[:10]}: {why}", "yellow"),
                  soft_wrap=True)
