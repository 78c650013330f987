"""`arena results DB --matrix` and `--games`: the counts, the splits, and that the table,
JSON, CSV, the API's DataFrame and the page all show the one report, with every bot name
shown as text (hand-written results: tests/batch/matchup_store.py)."""
from __future__ import annotations

import csv
import io
import json
import os
import re
from pathlib import Path

import pytest

from engine import InputError
from orchestrator import api
from orchestrator.results.stats import wilson
from orchestrator.results.store import Store
from orchestrator.service import matchups
from orchestrator.text import shown
from orchestrator.views.matrix_page import seeds_as_text
from orchestrator.views.replay import embed
from tests.batch.matchup_store import (
    ESCAPE,
    FORMULA,
    MARKUP,
    SCRIPT,
    hostile_tournament,
    player,
    result,
    write,
)
from tests.support.cli import WIDE, arena


def _env() -> dict:
    return {**os.environ, "COLUMNS": "250"}


@pytest.fixture
def db(tmp_path) -> Path:
    return hostile_tournament(tmp_path / "m.sqlite")


def cells(report: dict) -> dict[tuple, tuple]:
    by = report["by"]
    return {(c["entrant"], c["opponent"], *((c[by],) if by else ())):
            (c["games"], c["wins"], c["draws"], c["losses"]) for c in report["cells"]}


def test_each_pair_counts_wins_draws_and_losses_by_rank(db) -> None:
    report = api.open_store(db).matrix().to_json()
    found = cells(report)
    assert found[(FORMULA, MARKUP)] == (6, 3, 1, 2)
    assert found[(MARKUP, FORMULA)] == (6, 2, 1, 3)
    # The match of three is a head-to-head for each pair of its players.
    assert found[(FORMULA, SCRIPT)] == (1, 0, 0, 1)
    assert found[(FORMULA, ESCAPE)] == (1, 1, 0, 0)
    assert found[(SCRIPT, ESCAPE)] == (1, 1, 0, 0)
    assert (MARKUP, SCRIPT) not in found                # they never met
    cell = next(c for c in report["cells"] if (c["entrant"], c["opponent"]) == (FORMULA, MARKUP))
    assert cell["win_rate"] == 0.5
    assert cell["win_ci"] == [round(x, 4) for x in wilson(3, 6)]
    assert len(cell["matches"]) == 6 and all(m in report["games"] for m in cell["matches"])


def test_by_seat_and_by_map_split_each_pair_and_add_up_to_it(db) -> None:
    store = api.open_store(db)
    seat = cells(store.matrix(by="seat").to_json())
    assert seat[(FORMULA, MARKUP, 0)] == (3, 2, 1, 0)
    assert seat[(FORMULA, MARKUP, 1)] == (3, 1, 0, 2)
    by_map = cells(store.matrix(by="map").to_json())
    assert by_map[(FORMULA, MARKUP, "quad")] == (3, 2, 1, 0)
    assert by_map[(FORMULA, MARKUP, "duel")] == (3, 1, 0, 2)
    whole = cells(store.matrix().to_json())
    for split in (seat, by_map):
        summed: dict[tuple, list[int]] = {}
        for (me, them, _), counts in split.items():
            total = summed.setdefault((me, them), [0, 0, 0, 0])
            for i, n in enumerate(counts):
                total[i] += n
        assert {k: tuple(v) for k, v in summed.items()} == whole
    assert cells(store.matrix(map="duel").to_json()) == {
        (FORMULA, MARKUP): (3, 1, 0, 2), (MARKUP, FORMULA): (3, 2, 0, 1)}


def test_bot_keeps_its_rows_and_an_unknown_name_is_refused(db) -> None:
    store = api.open_store(db)
    mine = store.matrix(bot=SCRIPT).to_json()
    assert set(cells(mine)) == {(SCRIPT, FORMULA), (SCRIPT, ESCAPE)}
    assert {e["label"] for e in mine["entrants"]} == {SCRIPT, FORMULA, ESCAPE}
    with pytest.raises(InputError, match="--bot nobody: no entrant is named so"):
        store.matrix(bot="nobody")
    with pytest.raises(InputError, match="unknown --by 'colour'"):
        store.matrix(by="colour")


def test_two_versions_of_one_name_are_two_entrants(tmp_path) -> None:
    path = write(tmp_path / "v.sqlite", {
        "a" * 24: result(1, "quad", [player(0, "Mine", 1), player(1, "Them", 2)]),
        "b" * 24: result(1, "quad", [player(0, "Mine", 2, version="v2"), player(1, "Them", 1)]),
    })
    labels = {e["label"] for e in api.open_store(path).matrix().to_json()["entrants"]}
    assert "Them" in labels and len(labels) == 3
    assert sorted(label for label in labels if label.startswith("Mine (")) == sorted(
        f"Mine ({matchups_sha[:8]})" for matchups_sha in (
            player(0, "Mine", 1)["sha256"], player(0, "Mine", 1, version="v2")["sha256"]))
    # --bot by the name alone takes both versions.
    assert len(api.open_store(path).matrix(bot="Mine").cells) == 2


def test_a_file_of_two_games_needs_a_run(tmp_path) -> None:
    path = tmp_path / "two.sqlite"
    store = Store(path)
    store.add_match("a" * 24, result(1, "quad", [player(0, "A", 1), player(1, "B", 2)]), 1.0)
    store.add_match("b" * 24, result(1, "x", [player(0, "A", 1), player(1, "B", 2)],
                                     game="robotgame"), 1.0)
    store.close()
    done = arena("results", str(path), "--matrix", env=WIDE)
    assert done.returncode == 2 and done.stderr.startswith("error: ")
    assert "holds matches of 2 games" in done.stderr and done.stderr.count("\n") == 1


def _table_rows(text: str) -> list[list[str]]:
    """The body rows of a rich table, cell by cell."""
    return [[cell.strip() for cell in line.strip("│").split("│")]
            for line in text.splitlines() if line.startswith("│")]


@pytest.mark.parametrize("by", [None, "map", "seat"])
def test_the_table_json_csv_dataframe_and_page_agree(db, tmp_path, by) -> None:
    split = ["--by", by] if by else []
    report = json.loads(arena("results", str(db), "--matrix", *split, "--json", env=WIDE).stdout)
    assert report == api.open_store(db).matrix(by=by).to_json()
    columns, rows = matchups.matrix_rows(report)
    expected = [tuple(shown(v) if isinstance(v, str) else v for v in row) for row in rows]
    assert len(expected) == len(report["cells"]) > 0

    exported = arena("results", str(db), "--matrix", *split, "--export", "csv", env=WIDE)
    read = list(csv.reader(io.StringIO(exported.stdout)))
    assert read[0] == columns
    got = [tuple(_unformula(v) for v in row) for row in read[1:]]
    assert got == [tuple(str(v) for v in row) for row in expected]

    frame = api.open_store(db).matrix(by=by).to_pandas()
    assert list(frame.columns) == columns
    assert [tuple(row) for row in frame.itertuples(index=False)] == [tuple(r) for r in rows]

    table = arena("results", str(db), "--matrix", *split, env=WIDE)
    assert table.returncode == 0, table.stderr
    shown_rows = _table_rows(table.stdout)
    assert shown_rows == [
        [shown(c["entrant"]), shown(c["opponent"]), *((str(c[by]),) if by else ()),
         str(c["games"]), str(c["wins"]), str(c["draws"]), str(c["losses"]),
         f"{100 * c['win_rate']:.1f}",
         f"{100 * c['win_ci'][0]:.1f}-{100 * c['win_ci'][1]:.1f}"] for c in report["cells"]]

    page = tmp_path / "m.html"
    assert arena("results", str(db), "--matrix", *split, "--html", str(page),
                 env=WIDE).returncode == 0
    embedded = re.search(r'<script type="application/json" id="matrix-data">(.*?)</script>',
                         page.read_text(), re.DOTALL).group(1)
    # The report as a page carries it: seeds as text (63-bit seeds are past a JavaScript
    # number) and a bot's controls and bidi marks as their escapes.
    assert json.loads(embedded) == json.loads(embed(seeds_as_text(report)))
    seeds = [g["seed"] for g in json.loads(embedded)["games"].values()]
    assert seeds and seeds == [str(g["seed"]) for g in report["games"].values()]
    assert "\x1b" not in embedded and "\\u001b]0;owned" in embedded


def _unformula(cell: str) -> str:
    """A CSV cell as it was before defusedcsv guarded it (a leading quote)."""
    return cell[1:] if cell[:2] in ("'=", "'+", "'-", "'@") else cell


def test_hostile_names_stay_text_in_every_output(db, tmp_path) -> None:
    table = arena("results", str(db), "--matrix", env=WIDE)
    assert MARKUP in table.stdout                      # the brackets shown, not parsed
    assert "\x1b" not in table.stdout and "\\x1b]0;owned\\x07esc" in table.stdout
    exported = arena("results", str(db), "--matrix", "--export", "csv", env=WIDE).stdout
    for row in csv.reader(io.StringIO(exported)):
        assert not any(cell[:1] in ("=", "+", "-", "@") for cell in row), row
    page = tmp_path / "p.html"
    arena("results", str(db), "--matrix", "--html", str(page), env=WIDE)
    text = page.read_text()
    assert "<img" not in text and "</script><img" not in text
    assert "\\u003c/script\\u003e\\u003cimg" in text
    assert ".innerHTML" not in text                    # names only ever go in as text


def test_games_lists_the_lost_ones_with_opponents_and_the_turn_out(db) -> None:
    listed = json.loads(arena("results", str(db), "--games", "--bot", FORMULA, "--lost",
                              "--json", env=WIDE).stdout)
    rows = {row["match"]: row for row in listed["games"]}
    assert set(rows) == {"m03aaaaaaaaaaaaaaaaaaaa", "m05aaaaaaaaaaaaaaaaaaaa",
                         "m90aaaaaaaaaaaaaaaaaaaa"}
    three = rows["m90aaaaaaaaaaaaaaaaaaaa"]
    assert three["opponents"] == [SCRIPT, ESCAPE] and three["rank"] == 2 and three["of"] == 3
    assert three["eliminated"] == 31 and three["seed"] == 90 and three["map"] == "quad"
    assert three["open"] == f"arena replay {db}:m90aaaaaaaaaaaaaaaaaaaa"
    store = api.open_store(db)
    assert store.games(FORMULA, lost=True) == listed["games"]
    assert [r["match"] for r in store.games(FORMULA, lost=True, vs=MARKUP)] == [
        "m03aaaaaaaaaaaaaaaaaaaa", "m05aaaaaaaaaaaaaaaaaaaa"]
    assert [r["match"] for r in store.games(FORMULA, lost=True, map="quad")] == [
        "m90aaaaaaaaaaaaaaaaaaaa"]
    assert store.games(ESCAPE)[0]["eliminated"] == 7          # erased at turn 7
    assert [r["result"] for r in store.games(FORMULA, vs=MARKUP)] == [
        "won", "won", "draw", "lost", "won", "lost"]
    table = arena("results", str(db), "--games", "--bot", FORMULA, "--lost", env=WIDE)
    assert table.returncode == 0 and f"arena replay {db}:m90aaaaaaaaaaaaaaaaaaaa" in table.stdout


@pytest.mark.parametrize("args, problem", [
    (["--lost"], "--lost goes with --games"),
    (["--games", "--lost"], "--lost needs --bot NAME"),
    (["--by", "map"], "--by goes with --matrix"),
    (["--matrix", "--games", "--bot", "x"], "--matrix and --games: choose one"),
    (["--matrix", "--export", "xls"], "unknown --export format 'xls'"),
    (["--games", "--bot", FORMULA, "--export", "xls"], "unknown --export format 'xls'"),
    (["--games", "--bot", FORMULA, "--vs", "nobody"], "--vs nobody: no entrant is named so"),
    (["--matrix", "--bot", "nobody"], "--bot nobody: no entrant is named so"),
    (["--games", "--bot", FORMULA, "--map", "moon"],
     "--map moon: no game of {db} was played on it (maps: duel, quad)"),
    (["--matrix", "--map", "moon"], "--map moon: no game of {db} was played on it"),
])
def test_a_wrong_option_is_one_error_line(db, args, problem) -> None:
    done = arena("results", str(db), *args, env=WIDE)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    assert problem.format(db=db) in done.stderr


def test_a_bot_named_in_another_case_is_the_one_name_it_spells(tmp_path) -> None:
    """`--bot hunter` for Hunter, as the sample is named on the command line; two names
    that differ only in case stay apart, and neither is guessed."""
    path = write(tmp_path / "c.sqlite", {
        "a" * 24: result(1, "quad", [player(0, "Hunter", 1), player(1, "Beeline", 2)]),
    })
    store = api.open_store(path)
    assert [r["bot"] for r in store.games("hunter")] == ["Hunter"]
    assert {c["entrant"] for c in store.matrix(bot="BEELINE").cells} == {"Beeline"}
    both = write(tmp_path / "d.sqlite", {
        "b" * 24: result(1, "quad", [player(0, "Hunter", 1), player(1, "hunter", 2)]),
    })
    with pytest.raises(InputError, match="--bot HUNTER: no entrant is named so"):
        api.open_store(both).games("HUNTER")
    assert [r["bot"] for r in api.open_store(both).games("hunter")] == ["hunter"]


def test_lost_with_no_lost_game_says_so_in_words(tmp_path) -> None:
    """A bot that lost nothing is told so (and how to see its games), not shown an empty
    table; JSON keeps the empty list and says how many games were looked at."""
    path = write(tmp_path / "w.sqlite", {
        "a" * 24: result(1, "quad", [player(0, "Hunter", 1), player(1, "Beeline", 2)]),
        "b" * 24: result(2, "quad", [player(0, "Hunter", 1), player(1, "Beeline", 1)]),
    })
    done = arena("results", str(path), "--games", "--bot", "Hunter", "--lost", env=WIDE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"Hunter lost none of its 2 games in {path}: drop --lost " \
                                  f"to list them"
    listed = json.loads(arena("results", str(path), "--games", "--bot", "Hunter", "--lost",
                              "--json", env=WIDE).stdout)
    assert listed["games"] == [] and listed["played"] == 2
    lost = arena("results", str(path), "--games", "--bot", "Beeline", "--lost", env=WIDE)
    assert "lost games of Beeline" in lost.stdout and "1 lost game;" in lost.stdout
