"""The views show a bot's strings as text: in the terminal (no escape sequence, no bidi
control, no rich markup), in a page (no markup, no end of the <script> that carries the
data) and in error lines (one line)."""
from __future__ import annotations

import json
import re

import pytest
from rich.console import Console

from orchestrator.text import ended, plural, seconds, shown, shown_text
from orchestrator.views import compare, matchups, matrix_page

HOSTILE = {
    "escape": "\x1b]0;pwned\x07\x1b[2J",
    "bidi": "evil\u202egnp.exe",
    "zero width": "Hunter\u200b",
    "markup": "[bold red]x[/][link=https://e.vil]y[/link]",
    "html": "<img src=x onerror=alert(1)></script><!--",
    "newline": "a\nb\rc",
    "separator": "a\u2028b\u2029c",
    "filler": "\u3164",
    "surrogate": "\ud800",
}


@pytest.mark.parametrize("text", HOSTILE.values(), ids=list(HOSTILE))
def test_shown_leaves_nothing_a_terminal_acts_on(text: str) -> None:
    found = shown(text)
    assert re.search(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2028\u2029\u3164"
                     r"\ud800-\udfff]", found) is None, found
    found.encode("utf-8")                       # every character encodes


def test_shown_says_what_it_replaced() -> None:
    assert shown("a\x1bb\u202ec") == "a\\x1bb\\u202ec"
    assert shown("line\nnext\ttab") == "line\\nnext\\ttab"
    assert shown("line\nnext\ttab", lines=True) == "line\nnext\ttab"
    assert shown("é 名前 ok") == "é 名前 ok"     # letters of any script are kept


@pytest.mark.parametrize("text", HOSTILE.values(), ids=list(HOSTILE))
def test_a_rich_cell_prints_the_text_not_its_markup(text: str) -> None:
    console = Console(record=True, width=200, color_system=None)
    console.print(shown_text(text))
    printed = console.export_text()
    assert printed.rstrip("\n") == shown(text)
    assert "\x1b" not in printed


_INVISIBLE = re.compile("[\x00-\x07\x0b\x0e-\x1f\x7f-\x9f\xad\u061c\u180e\u200b-\u200f"
                        "\u202a-\u202e\u2060-\u206f\ufeff]")


def _matrix(name: str) -> dict:
    cell = {"entrant": name, "opponent": "plain", "games": 4, "wins": 3, "draws": 0,
            "losses": 1, "win_rate": 0.75, "win_ci": [0.3, 0.95]}
    return {"db": "results.sqlite", "run": "", "by": None, "cells": [cell],
            "seed": 8059044599109831840}


@pytest.mark.parametrize("name", HOSTILE.values(), ids=list(HOSTILE))
def test_the_matrix_table_shows_a_hostile_name_as_text(name: str, monkeypatch) -> None:
    console = Console(record=True, width=300, color_system=None)
    monkeypatch.setattr(matchups, "out", console)
    matchups.print_matrix(_matrix(name))
    printed = console.export_text()
    assert shown(name) in printed and "\x1b" not in printed
    assert "75.0" in printed and "30.0-95.0" in printed


@pytest.mark.parametrize("name", HOSTILE.values(), ids=list(HOSTILE))
def test_the_matrix_page_carries_a_hostile_name_as_data(name: str) -> None:
    page = matrix_page.page(_matrix(name))
    start = page.index('<script type="application/json"')
    body_start = page.index(">", start) + 1
    body = page[body_start:page.index("</script>", body_start)]
    for forbidden in ("<", ">", "\u2028", "\u2029", "\u202e", "\u200b"):
        assert forbidden not in body, forbidden
    data = json.loads(body)
    # The name itself, but for what a page would hide (controls, bidi, zero width), which
    # reads as its escape: `\u202e` in letters.
    assert data["cells"][0]["entrant"] == _INVISIBLE.sub(
        lambda found: f"\\u{ord(found.group()):04x}", name)
    assert data["seed"] == "8059044599109831840"        # past a JavaScript number
    assert "unsafe-inline" not in page and "default-src 'none'" in page


def test_the_matrix_page_has_one_policy_and_no_placeholder_left() -> None:
    page = matrix_page.page(_matrix("x"))
    assert "__POLICY__" not in page and "__MATRIX_JSON__" not in page
    assert page.count("Content-Security-Policy") == 1


def test_seeds_become_text_at_every_depth() -> None:
    assert matrix_page.seeds_as_text({"seed": 1, "a": [{"seed": 2, "b": True}], "c": 3}) == {
        "seed": "1", "a": [{"seed": "2", "b": True}], "c": 3}


@pytest.mark.parametrize("end, words", [
    ("turn_limit", "ended at the turn limit"), ("survivor", "ended with one AI left"),
    ("made_up_code", "ended by made up code"), ("\x1b[2J", "ended by \\x1b[2J"),
    (None, "ended by None")])
def test_an_ending_in_words_even_one_no_game_has(end: object, words: str) -> None:
    assert ended(end) == words


def test_small_words() -> None:
    assert [plural(n, "turn") for n in (0, 1, 2)] == ["0 turns", "1 turn", "2 turns"]
    assert seconds(None) == "-" and seconds(0.154) == "0.15"
    assert matchups.percent(0.5555) == "55.5" and matchups.interval([0.4012, 0.6921]) == \
        "40.1-69.2"


REPORT = {"model": "logistic", "elo0": 0, "elo1": 10, "pairs": 40, "games": 80,
          "elo_ci": [-5.0, 20.0]}


@pytest.mark.parametrize("change, words", [
    ({"verdict": "identical"}, "new and old are identical on 40 pairs: they played every "
                               "game move for move alike (not an improvement)"),
    ({"verdict": "undecided"}, "undecided after 80 games: --max-games ran out before either "
                               "test decided"),
    ({"verdict": "H1"}, "new is better than old (H1 accepted)"),
    ({"verdict": "H1", "elo0": 5}, "new is better than old by more than 5 Elo (H1 accepted)"),
    ({"verdict": "H1", "elo0": -5, "model": "normalized"},
     "new is not worse than old by 5 nElo or more (H1 accepted)"),
    ({"verdict": "H0"}, "new is not better than old by 10 Elo (H1's step) or more "
                        "(H0 accepted)"),
    ({"verdict": "H0", "elo_ci": [-30.0, -2.0]},
     "new is worse than old: not an improvement (H0 accepted)"),
    ({"verdict": "H0", "elo0": -10, "elo1": 0},
     "new is worse than old by about 10 Elo or more (H0 accepted)"),
])
def test_a_comparisons_verdict_in_one_sentence(change: dict, words: str) -> None:
    assert compare.headline({**REPORT, **change}, "new", "old") == words
