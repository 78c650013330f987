"""What a newcomer game master's red team found on the published site: a drawn
63-bit seed shown rounded by the viewer and the matrix, bidi controls reordering a name in
the viewer, an index whose penalties counted only erases, an AI page counting overheats
twice, and the game master's own folders in the pages' commands."""
from __future__ import annotations

import base64
import gzip
import json
import re
import shutil
from pathlib import Path

import pytest

from orchestrator import api
from orchestrator.views import matrix_page
from orchestrator.views.replay import embed

REPO = Path(__file__).resolve().parents[2]
SEED = 8059044599109831840              # past 2**53: a JavaScript number would round it
BIDI = "Bidi\u202eTXT.exe"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[Path, Path]:
    """A round robin of a raising bot (its name reversed by a bidi override), Hunter and
    Turtle, on a drawn-size seed, published."""
    folder = tmp_path_factory.mktemp("red")
    raiser = folder / "raiser.py"
    raiser.write_text((REPO / "tests/hostile/raiser.py").read_text()
                      .replace("name = 'Raiser'", f"name = {BIDI!r}"))
    hunter = folder / "hunter.py"
    shutil.copy(REPO / "bots/arena/hunter.py", hunter)
    db = folder / "results.sqlite"
    api.tournament([str(raiser), str(hunter), str(REPO / "bots/arena/turtle.py")],
                   format="round-robin", games=1, map="tiny", max_turns=8, first_seed=SEED,
                   workers=1, db=db, progress=False)
    out = folder / "site"
    api.publish(db, out, progress=False)
    return folder, out


def replay_of(site: Path, number: int) -> dict:
    script = (site / "replays" / f"{number}.js").read_text()
    packed = re.search(r'ARENA_REPLAY_GZ = "([^"]+)"', script).group(1)
    return json.loads(gzip.decompress(base64.b64decode(packed)))


def test_the_viewer_gets_the_seed_as_text_and_the_name_with_its_escape(site) -> None:
    _, out = site
    shown = replay_of(out, 1)
    assert shown["seed"] == str(SEED), shown["seed"]
    names = json.dumps(shown["players"])
    assert "\u202e" not in json.dumps(shown, ensure_ascii=False)
    assert "Bidi\\\\u202eTXT.exe" in names, names


def test_the_index_names_every_penalty_and_the_ai_page_counts_overheats_once(site) -> None:
    _, out = site
    index = (out / "index.html").read_text()
    row = next(line for line in index.splitlines() if "TXT.exe" in line)
    assert re.search(r"\d+ overheats in 2 games, first: ValueError: boom", row), row
    assert "2 of 2 games" in row, row
    page = next(p.read_text() for p in (out / "ais").glob("*.html") if "TXT.exe" in p.read_text())
    assert "overheats)" not in page                       # once, in the penalty's words
    assert re.search(r"over its 2 games</b>: \d+ overheats in 2 games", page), page


def test_no_page_names_the_game_masters_folders(site) -> None:
    folder, out = site
    for page in out.rglob("*.html"):
        assert str(folder) not in page.read_text(), page
    match = (out / "matches" / "1.html").read_text()
    assert "--map tiny --" in match and f"--seed {SEED}" in match, match


def test_embed_shows_hidden_characters_as_their_escapes_and_keeps_text_text() -> None:
    for text, shown in [("a\u202eb", "a\\u202eb"), ("a\x1bb", "a\\u001bb"),
                        ("zero\u200bwidth", "zero\\u200bwidth"),
                        ("x\\u202e", "x\\u202e"),             # text that looks like one
                        ("x\\\u202e", "x\\\\u202e"), ("é\n\t", "é\n\t")]:
        assert json.loads(embed({"s": text}))["s"] == shown, text
    assert json.loads(embed({"seed": SEED}))["seed"] == str(SEED)


def test_the_matrix_page_carries_seeds_as_text() -> None:
    page = matrix_page.page({"cells": [{"games": [{"seed": SEED, "map": "tiny"}]}]})
    data = json.loads(re.search(r'id="matrix-data">(.*?)</script>', page, re.S).group(1))
    assert data["cells"][0]["games"][0]["seed"] == str(SEED)
