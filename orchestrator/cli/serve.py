"""`arena serve`: the ladder server (needs the server extra: options.missing_server_extra)."""
from __future__ import annotations

import dataclasses
import logging
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from engine import InputError
from engine.numerals import ascii_decimal
from orchestrator.cli.options import grouped, missing_server_extra
from orchestrator.games import GAMES
from orchestrator.games.help import per_game
from orchestrator.options import LadderSettings
from orchestrator.runner.execute import BACKENDS, default_workers
from orchestrator.service.values import check_choice
from orchestrator.text import console
from sandbox.modes import for_ladder

err = console(stderr=True)


def _lineups(given: list[str]) -> dict[str, int]:
    sizes = {}
    for item in given:
        game, _, text = item.partition("=")
        size = ascii_decimal(text, 6)
        if game not in GAMES or size is None or size < 2:
            raise InputError(f"--lineup {item}: give GAME=N, N at least 2 (games: "
                             f"{', '.join(GAMES)})")
        sizes[game] = size
    return sizes


def _log_to_stderr() -> None:
    """The ladder's log (orchestrator.web.ladder: a match that could not be recorded, a failed
    turn of its loop, the loop's end) on stderr, with the time, for the operator."""
    logger = logging.getLogger("orchestrator.ladder")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False


@grouped
def serve(
    host: Annotated[str, typer.Option(help="Address to bind. The default answers only this "
                                           "machine; 0.0.0.0 opens it to the network.")]
        = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    db: Annotated[Path, typer.Option(help="The ladder's SQLite file (WAL). Restarting on the "
                                          "same file resumes the ladder.")]
        = Path("runs/ladder.sqlite"),
    games: Annotated[str, typer.Option(help="Comma-separated games that get a ladder.")]
        = ",".join(GAMES),
    workers: Annotated[Optional[int], typer.Option(
        help="Matches played at once \\[default: all cores].", show_default=False)] = None,
    lineup: Annotated[Optional[list[str]], typer.Option(
        help=f"A game's match size, GAME=N (repeatable) \\[default: "
             f"{per_game(lambda game: game.ladder_rules.size)}].", show_default=False)] = None,
    trusted_proxy: Annotated[Optional[list[str]], typer.Option(
        help="A reverse proxy (address or network, repeatable) whose X-Forwarded-For "
             "names the client the limits count; no other's header is read "
             "\\[default: none].", show_default=False)] = None,
    settings: LadderSettings = LadderSettings(),
) -> None:
    """Run the ladder server: contestants upload bots (from the /upload page, or
    POST /api/bots), the bots play each other all the time in the sandbox, and the pages
    show Elo and openskill ratings and every match's replay.

    Uploads pass the same check as [bold]arena check[/bold] first. Ctrl-C stops it; matches
    in flight are played again at the next start on the same --db.

    Example: [bold]arena serve --games robotgame --port 8000[/bold], then open
    http://127.0.0.1:8000/upload.
    """
    try:
        import uvicorn

        from orchestrator.web.ladder.app import create_app, trusted_hosts
        from orchestrator.web.ladder.http import ACCEPT_BURST, DeadlineProtocol
        from orchestrator.web.ladder.service import Ladder
    except ImportError as exc:
        raise missing_server_extra("arena serve", exc) from None
    check_choice(settings.backend, BACKENDS, "--backend")
    for_ladder(settings.sandbox)
    if settings.check_queue < 1:
        raise InputError(f"--check-queue {settings.check_queue}: must be at least 1")
    for flag, value in (("--challenge-queue", settings.challenge_queue),
                        ("--challenge-rate", settings.challenge_rate),
                        ("--upload-rate", settings.upload_rate)):
        if value < 0:
            raise InputError(f"{flag} {value}: must be 0 (no challenges) or more")
    if settings.upload_pending < 1:
        raise InputError(f"--upload-pending {settings.upload_pending}: must be at least 1")
    chosen = [g.strip() for g in games.split(",") if g.strip()]
    for game in chosen:
        check_choice(game, tuple(GAMES), "game")
    ladder = Ladder(db, dataclasses.replace(
        settings, games=chosen, workers=workers or default_workers(),
        lineups=_lineups(lineup or []), trusted_proxies=trusted_proxy or ()))
    err.print(f"ladder for {', '.join(chosen)} on [bold]http://{host}:{port}/[/bold] "
              f"(database {db}, {workers or default_workers()} workers); Ctrl-C stops it",
              highlight=False)
    _log_to_stderr()
    app = create_app(ladder, announce=lambda text: err.print(text, highlight=False),
                     hosts=trusted_hosts(host))
    # proxy_headers off: uvicorn's own would take X-Forwarded-For from any client on
    # 127.0.0.1; the ladder reads it only from the proxies named (Ladder.client_key).
    uvicorn.run(app, host=host, port=port, log_level="warning", http=DeadlineProtocol,
                backlog=ACCEPT_BURST, proxy_headers=False)
