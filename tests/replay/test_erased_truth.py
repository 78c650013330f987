"""Replays tell the truth once an AI is gone.

For every game of the registry, a match where seat 0's AI leaves at its first turn, and one
where it leaves a few turns in (`leaves_first.*` and `leaves_late.*`, in the game's tests
folder): the AI is erased, or never loads, or, in a forfeit game, forfeits. The replay's
rows number the AIs of the match's last attempt (match-local indices), and once a seat is
erased AI i is no longer seat i. Turn by turn, the owner of every piece, as the terminal
view and the page name it (its data in node, its panels in Chromium), must be the owner
the engine itself has: the name the engine was given for that AI index. On the code
before the fix, every piece was credited to the AI one seat before its own.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.games import GAMES
from orchestrator.options import MatchSettings
from orchestrator.replay import file as replay
from orchestrator.replay.reader import ai_players
from orchestrator.runner import match as matches
from orchestrator.service.setup import match_spec
from orchestrator.views import replay as replay_view
from tests.browser import ARGS, CHROMIUM
from tests.support.games import game_tests
from tests.support.owners import OWNERS, named, names_in_page, panel_names

REPO = Path(__file__).resolve().parents[2]
MAX_TURNS = 9


# Games where no AI can leave mid-match, and why (the test asks every other game for its
# `leaves_late.*`).
NEVER_LATE = {"cave": "a program is never erased for what it does in a turn (a fault is "
                      "two holds); it leaves only by failing to load"}
CASES = [(game, when) for game in GAMES for when in ("leaves_first", "leaves_late")
         if not (when == "leaves_late" and game in NEVER_LATE)]


def _samples(game: str, count: int) -> list[Path]:
    """Python sample bots of the game (no compiler needed), as many as `count`."""
    home = GAMES[game].home
    found = sorted(((home / "bots") if home else REPO / "bots" / game).glob("*.py"))
    assert found, f"{game}: no Python sample bot under bots/{game}"
    return [found[i % len(found)] for i in range(count)]


def _played(game: str, when: str, tmp_path: Path):
    """Play the match; the engine's own owners (by name) at each frame of the attempt
    that counts, the result, and the replay as a reader loads it."""
    entry = GAMES[game]
    found = sorted(game_tests(game).glob(f"{when}.*"))
    assert found, f"{game}: tests need {game_tests(game)}/{when}.* (a bot that {when})"
    hang = found[0]
    seats = entry.players or 3
    bots = [hang, *_samples(game, seats - 1)]
    spec = match_spec(bots, MatchSettings(game=game, max_turns=MAX_TURNS), 1)
    attempts: list[tuple[list[str], list[dict]]] = []    # (names given, owners by frame)
    made = matches._Attempt._new_match

    def new_match(self, names):
        match = made(self, names)
        attempts.append((list(names), [], match))
        attempts[-1][1].append(named(game, match, names))
        return match

    def trace(match):
        names, frames, made_match = attempts[-1]
        assert made_match is match
        frames.append(named(game, match, names))

    replays: list[dict] = []
    matches._Attempt._new_match = new_match
    try:
        result = matches.run_match(spec, trace=trace, replays=replays)
    finally:
        matches._Attempt._new_match = made
    path = replay.save(replays[0], tmp_path / "match.json.gz")
    return attempts[-1][0], attempts[-1][1], result, replay.load(path)


def test_every_game_says_where_its_owners_are():
    assert set(GAMES) <= set(OWNERS), "a game of the registry without its OWNERS entry"


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (tests/browser.py), or None where it is not installed: the page's
    own data is checked in node then, and its drawing is not."""
    if CHROMIUM is None:
        yield None
        return
    from playwright import sync_api
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


def _in_browser(browser, data: dict, truth: list[dict], names: list[str], tmp_path: Path,
                own_viewer: bool) -> None:
    """The page in Chromium: its names by AI index, and (a game's own renderer) each
    piece's panel naming the engine's owner, at every frame."""
    html = replay_view.write_html(data, tmp_path / "match.html")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(html.as_uri())
        assert page.evaluate("viewer.names()") == names
        for index, owners in enumerate(truth):
            if not own_viewer:
                continue
            by_id = {rid: name for (_, rid), name in owners.items()}
            for pid, text in page.evaluate(f"viewer.described({index})"):
                others = [n for n in names if n != by_id[pid] and n not in by_id[pid]]
                assert by_id[pid] in text and not any(n in text for n in others), \
                    f"frame {index}: piece {pid}: {text!r}, owned by {by_id[pid]}"
        assert errors == []
    finally:
        page.close()


@pytest.mark.parametrize("game,when", CASES, ids=[f"{g}-{w}" for g, w in CASES])
def test_replay_views_name_the_engines_owner(game, when, tmp_path, browser):
    names, truth, result, data = _played(game, when, tmp_path)
    gone = [p for p in result["players"] if p["status"] != "ok"]
    assert [p["seat"] for p in gone] == [0], result["players"]
    kinds = {"forfeit"} if GAMES[game].failure == "forfeit" else {"erased", "load_error"}
    assert gone[0]["status"] in kinds, gone[0]
    if GAMES[game].failure != "forfeit":
        assert gone[0]["name"] not in names           # the last attempt played without it
    frames = replay.Frames(data)
    assert len(frames) == len(truth), (len(frames), len(truth))
    by_ai = [p["name"] for p in ai_players(data)]
    assert by_ai == names                            # the terminal's names, by AI index
    page_names, _ = names_in_page(replay_view.page(data))
    assert page_names == names                       # the page's names, by AI index
    owners = OWNERS[game]
    for index in range(len(frames)):
        turn, state = frames[index]
        pieces = owners(data["map"], state)
        shown = {piece: by_ai[ai] for piece, ai in pieces.items()}
        assert shown == truth[index], f"frame {index} (turn {turn})"
        assert {piece: page_names[ai] for piece, ai in pieces.items()} == truth[index]
        # The terminal's score table: a row per AI (arena, Robot Game, the plain view's
        # list) or per bot row (Cave, Race), each named by its AI index.
        listed = names if game not in ("cave", "race") else [
            truth[index][piece] for piece in pieces]
        assert panel_names(data, state, index) == listed, f"frame {index} (turn {turn})"
    if browser is not None:
        _in_browser(browser, data, truth, names, tmp_path, GAMES[game].viewer is not None)


@pytest.fixture(scope="module")
def erased_replay(tmp_path_factory) -> dict:
    """An arena replay whose seat 0 was erased at turn 1, as its match wrote it."""
    names, _, _, data = _played("arena", "leaves_first",
                                tmp_path_factory.mktemp("erased"))
    assert data["seats"] == [1, 2] and names == ["Beeline", "Hunter"]
    return data


def _saved(data: dict, path: Path) -> Path:
    return replay.save(data, path)


def test_a_schema_1_replay_is_read_with_its_seats_recovered(erased_replay, tmp_path):
    """A replay written before `seats` (schema 1) is read right: its result says seat 0 was
    erased, so its AIs are seats 1 and 2."""
    old = {key: value for key, value in erased_replay.items() if key != "seats"}
    old["schema"] = 1
    data = replay.load(_saved(old, tmp_path / "old.json.gz"))
    assert data["seats"] == [1, 2]
    assert [p["name"] for p in ai_players(data)] == ["Beeline", "Hunter"]


def test_a_schema_1_replay_that_cannot_say_is_refused(erased_replay, tmp_path):
    old = {key: value for key, value in erased_replay.items() if key != "seats"}
    old["schema"] = 1
    old["result"] = {**old["result"], "players": []}
    from engine import InputError
    with pytest.raises(InputError, match="which seat each AI is cannot be told"):
        replay.load(_saved(old, tmp_path / "old.json.gz"))


@pytest.mark.parametrize("seats", [[0, 1, 2, 3], [2, 1], [1, 1], [-1], ["1"], None, {"0": 1}])
def test_a_replay_whose_seats_are_not_seats_is_refused(erased_replay, tmp_path, seats):
    from engine import InputError
    forged = {**erased_replay, "seats": seats}
    if seats is None:
        del forged["seats"]
    with pytest.raises(InputError, match="seats"):
        replay.load(_saved(forged, tmp_path / "forged.json.gz"))
