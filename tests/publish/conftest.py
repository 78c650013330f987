"""A small tournament's results file, with an AI whose name and description are hostile
text (markup, a terminal escape), for the results site's tests."""
from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator import api
from tests.support.publish import REPO, hostile_bot


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    """A round-robin of three arena AIs on the tiny map, 12 turns a match, no replays kept
    (the site plays each match again from its record)."""
    folder = tmp_path_factory.mktemp("official")
    db = folder / "results.sqlite"
    api.tournament([hostile_bot(folder), str(REPO / "bots/arena/hunter.py"),
                    str(REPO / "bots/arena/turtle.py")], format="round-robin", games=1,
                   map="tiny", max_turns=12, first_seed=7, workers=1, db=db, progress=False)
    return db


@pytest.fixture(scope="module")
def site(results, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    api.publish(results, out, progress=False, sources=[REPO / "bots"])
    return out
