"""In-process ladders for the ladder's tests: a ladder on a temporary database with its bots
added directly, a pool that records what the scheduler gives it, a token's header, and a
real replay's bytes. Needs the server extra: a test module imports it after
`pytest.importorskip("fastapi")`."""
from __future__ import annotations

import functools
from pathlib import Path

from orchestrator.games import get_game
from orchestrator.options import LadderSettings
from orchestrator.replay import file as replay
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match
from orchestrator.web.ladder.app import create_app
from orchestrator.web.ladder.service import Ladder
from tests.support.ladder import SAMPLES

RG = SAMPLES / "robotgame"

VERDICT = {"ok": True, "reason": "", "decisions": 1}


class Ladders:
    """Ladders on temporary databases (no workers: matches are only scheduled), with
    bots added directly (their check skipped): `bots[name] = (id, token)`."""

    def __init__(self, tmp: Path, **options) -> None:
        self.ladder = Ladder(tmp / "ladder.sqlite", LadderSettings(games=["robotgame", "race"],
                                                                   **options))
        self.app = create_app(self.ladder, run=False)
        self.bots: dict[str, tuple[int, str]] = {}

    def add(self, name: str, game: str = "robotgame") -> tuple[int, str]:
        source = (RG / "example.py").read_bytes() if game == "robotgame" else \
            (SAMPLES / "race" / "planner.py").read_bytes()
        made = self.ladder.add_bot(game, name, self.ladder.submission(
            game, name, "bot.py", source), VERDICT)
        self.bots[name] = (made["id"], made["token"])
        return self.bots[name]


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


class RecordingPool:
    """A match pool with `slots` free slots that records the matches it is given."""

    def __init__(self, slots: int) -> None:
        self.slots, self.given = slots, []

    def free(self) -> bool:
        return len(self.given) < self.slots

    def submit(self, queued, job) -> None:
        self.given.append(queued)


@functools.lru_cache(maxsize=1)
def a_replay() -> bytes:
    """A real replay file's bytes (the ladder reads a match's replay before it records the
    match, to set its bots' marks aside): two turns of the Robot Game samples."""
    game = get_game("robotgame")
    replays: list[dict] = []
    run_match(MatchSpec(game.name, game.find_map(None),
                        [read_bot(p) for p in game.demo_lineup()[:2]], 1,
                        game.rules(game.presets[0], max_turns=2)), replays=replays)
    return replay.encode(replays[0])
