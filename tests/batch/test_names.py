"""Hostile names and messages through every command that shows what a bot supplied.

One lineup holds a bot named `[/]` (rich markup), one whose name, output and exception
carry terminal escapes (OSC 0 retitle, OSC 52 clipboard, CSI, C1, a bidi override), one
named like a spreadsheet formula, and `Hunter #2` beside two Hunters. Every command the
CLI registers either is exercised on it here or is listed with why it shows no bot text,
so a new command fails this file until it is classified.
"""
from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
import subprocess
import unicodedata
from pathlib import Path
from typing import Callable

import pytest
import typer
from hypothesis import given
from hypothesis import strategies as st

from orchestrator.cli.app import app
from orchestrator.runner.bots import declared_name, read_bot, unique_names
from orchestrator.text import shown
from tests.support.cli import arena
from tests.support.paths import BOTS, HOSTILE, ROOT

HUNTER = BOTS / "hunter.py"
LINEUP = [HOSTILE / "markup_name.py", HOSTILE / "escape_name.py", HUNTER, HUNTER,
          HOSTILE / "hunter_two.py", HOSTILE / "formula_name.py"]
QUICK = ["--map", "classic", "--robots", "3", "--max-turns", "30"]
# What may reach a terminal besides text: newline and tab. (CSV rows end in \r\n.)
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e"
                    "\u2066-\u2069]")
NO_BOT_TEXT = {
    "bots": "lists the bundled samples, not a contestant's file; markup in a sample's name "
            "or line is shown as text (tests/test_samples.py)",
    "maps": "map files only: no bot is loaded",
    "scenario": "scripted moves on a hand-made position: no bot is loaded",
    "serve": "the ladder's names are [A-Za-z0-9 _.-] and its pages are Jinja2 with "
             "autoescaping (tests/ladder)",
}


def registered() -> set[str]:
    """The commands `arena` has, as typer registered them."""
    return set(typer.main.get_command(app).commands)


def run_ids(db: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [row[0] for row in conn.execute("SELECT id FROM runs ORDER BY created")]


def invocations(tmp: Path) -> dict[str, list[tuple[Callable[[], list[str]], int]]]:
    """Per command: (its arguments, made when it runs; the exit status it must end with),
    in an order where each finds what the ones before it wrote (results file, replay)."""
    db, replay = str(tmp / "runs.sqlite"), str(tmp / "match.json.gz")
    copy = tmp / "hunter_copy.py"            # a tournament wants different files
    copy.write_text(HUNTER.read_text() + "# the same Hunter, another file\n")
    lineup = [str(p) for p in LINEUP]
    entrants = [*lineup[:3], str(copy), *lineup[4:]]
    return {
        "run": [(lambda: [*lineup, *QUICK, "--seed", "2", "--replay", replay], 0),
                (lambda: [*lineup, *QUICK, "--seed", "2", "--json"], 0)],
        "check": [(lambda: [lineup[0], "--turns", "5"], 0),
                  (lambda: [lineup[1], "--turns", "5"], 1),
                  (lambda: [lineup[5], "--turns", "5"], 0)],
        "batch": [(lambda: [*lineup, "--seeds", "3", *QUICK, "--db", db, "--workers", "2"], 0),
                  (lambda: [*lineup, "--seeds", "3", *QUICK, "--db", db, "--json"], 0)],
        "tournament": [(lambda: [*entrants, "--format", "ffa", "--games", "2", *QUICK,
                                 "--db", db, "--workers", "2"], 0)],
        "results": [(lambda: [db, "--export", "csv"], 0), (lambda: [db], 0),
                    *[(lambda i=i: [db, "--run", run_ids(db)[i][:8]], 0) for i in (0, 1)]],
        "publish": [(lambda: [db, "--out", str(tmp / "site")], 0)],
        "replay": [(lambda: [replay, "--turn", "3"], 0)],
        "compare": [(lambda: [lineup[0], lineup[1], "--against", f"{lineup[5]},{lineup[2]}",
                              *QUICK, "--max-games", "4", "--db", db], 3)],   # undecided
    }


# Plain text, one line per table row (for the row counts below).
PLAIN = {"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "COLUMNS": "220"}


Done = tuple[list[str], int, subprocess.CompletedProcess]


# The tests reading `outputs` share one pytest-xdist worker: the fixture runs every command
# (about 15 CPU-s), and a module fixture runs again on each worker that needs it.
ONE_WORKER = pytest.mark.xdist_group("names")


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, list[Done]]:
    tmp = tmp_path_factory.mktemp("names")
    done: dict[str, list] = {}
    for command, calls in invocations(tmp).items():
        done[command] = []
        for make, status in calls:
            args = make()
            done[command].append((args, status, arena(command, *args, env=PLAIN, forked=True)))
    return done


@ONE_WORKER
@pytest.mark.parametrize("command", sorted(registered() - set(NO_BOT_TEXT)))
def test_no_escape_markup_or_traceback_reaches_the_terminal(command, outputs) -> None:
    assert command in outputs, f"arena {command}: not exercised here nor in NO_BOT_TEXT"
    for args, status, done in outputs[command]:
        said = done.stdout + done.stderr
        assert done.returncode == status, (args, said[-3000:])
        assert "Traceback" not in said and "MarkupError" not in said, said[-3000:]
        found = UNSAFE.findall(said.replace("\r\n", "\n"))
        assert not found, f"arena {command} {args}: {found[:5]} reached the terminal"


def test_every_command_without_bot_text_exists() -> None:
    assert set(NO_BOT_TEXT) <= registered()


@ONE_WORKER
def test_names_show_as_text_and_stay_distinct(outputs) -> None:
    """Three Hunter rows (Hunter, Hunter #3 beside the given Hunter #2; in a tournament,
    Hunter (hunter.py) and Hunter (hunter_copy.py) beside it) in every table,
    and the hostile names as visible escapes."""
    visible = shown(read_bot(HOSTILE / "escape_name.py").name)
    assert visible.startswith("Esc\\x1b]0;pwned\\x07")
    tables = {"run": outputs["run"][0][2].stdout, "batch": outputs["batch"][0][2].stdout,
              "tournament": outputs["tournament"][0][2].stdout,
              "results --run (batch)": outputs["results"][2][2].stdout,
              "results --run (tournament)": outputs["results"][3][2].stdout}
    for command, table in tables.items():
        rows = re.findall(r"│ (Hunter(?: #\d| \(hunter\w*\.py\))?) +│", table)
        # A tournament's two Hunters are two files (hunter.py and a copy): each is named
        # by its file.
        expected = ["Hunter #2", "Hunter (hunter.py)", "Hunter (hunter_copy.py)"] \
            if "tournament" in command else ["Hunter", "Hunter #2", "Hunter #3"]
        assert sorted(rows) == expected, (command, table)
        assert "│ [/] " in table and visible in table, (command, table)
    batch = json.loads(outputs["batch"][1][2].stdout)
    assert len(batch["players"]) == len(LINEUP)
    assert len({p["name"] for p in batch["players"]}) == len(LINEUP)
    assert all(p["matches"] == 3 for p in batch["players"])
    check = outputs["check"][1][2]
    assert check.stderr.strip().splitlines()[-1].startswith(
        f"error: {LINEUP[1]}: overheats: "), check.stderr
    assert "first: ValueError: \\x1b]0;pwned\\x07" in check.stderr


@ONE_WORKER
def test_csv_cells_are_neither_formulas_nor_escapes(outputs) -> None:
    text = outputs["results"][0][2].stdout
    rows = list(csv.DictReader(io.StringIO(text)))
    names = {row["name"] for row in rows}
    assert "'=HYPERLINK(\"http://evil.example\",\"x\")" in names
    assert not [row for row in rows for cell in row.values() if cell and cell[0] in "=+-@\t\r"
                and not re.fullmatch(r"-?[0-9.]+", cell)]
    assert len(rows) == (3 + 2) * len(LINEUP)         # the batch's 3 matches, the tournament's 2


@given(st.lists(st.sampled_from(["A", "A #2", "A #3", "A #2 #2", "B", "#2", ""]),
                max_size=12))
def test_unique_names_never_collide(names) -> None:
    unique = unique_names(names)
    assert len(unique) == len(names) == len(set(unique))
    for i, name in enumerate(names):          # a name's first bearer keeps it
        assert unique[i] == name or name in names[:i]


@given(st.lists(st.tuples(st.sampled_from(["A", "A (a.py)", "A #2", "B", ""]),
                          st.sampled_from(["a.py", "b.py", "x/a.py"])), max_size=12))
def test_unique_names_by_file_never_collide(bots) -> None:
    names, files = [name for name, _ in bots], [file for _, file in bots]
    unique = unique_names(names, files)
    assert len(unique) == len(names) == len(set(unique))
    for i, (name, file) in enumerate(bots):     # a name of one file keeps it; every bearer
        others = {Path(f).name for n, f in bots if n == name}  # of a name files share
        label = f"{name} ({Path(file).name})"                 # says its file's name
        if len(others) == 1 and name not in names[:i]:
            assert unique[i] == name
        elif len(others) > 1 and label not in names:
            assert unique[i].startswith(label), unique


def test_bots_sharing_a_name_are_all_told_apart_by_file_name() -> None:
    assert unique_names(["Flagger", "Flagger", "Hunter", "Flagger"],
                        ["v1/flagger_v1.py", "flagger_v2.py", "hunter.py", "flagger_v2.py"]) == [
        "Flagger (flagger_v1.py)", "Flagger (flagger_v2.py)", "Hunter",
        "Flagger (flagger_v2.py) #2"]
    # The same file twice (a mirror match) has nothing else to tell it by.
    assert unique_names(["Rusher", "Rusher"], ["rusher.py", "rusher.py"]) == [
        "Rusher", "Rusher #2"]


def test_two_files_of_one_name_are_both_labelled_and_warned_of(tmp_path) -> None:
    """Two files that both set name='Twin' played silently as `Twin` and
    `Twin (dup2.py)`: only the second labelled, and nothing warned."""
    source = HUNTER.read_text().replace("name = 'Hunter'", "name = 'Twin'")
    (tmp_path / "dup1.py").write_text(source)
    (tmp_path / "dup2.py").write_text(source + "# two\n")
    labels = ["Twin (dup1.py)", "Twin (dup2.py)"]
    warning = ("warning: 2 AIs of different files declare the name 'Twin' (dup1.py, "
               "dup2.py): shown as 'Twin (dup1.py)', 'Twin (dup2.py)' "
               "(docs/spec/arena.md, \"Names\")")
    played = arena("run", "dup1.py", "dup2.py", *QUICK, "--seed", "3", "--json", cwd=tmp_path)
    assert played.returncode == 0, played.stderr[-2000:]
    assert sorted(p["name"] for p in json.loads(played.stdout)["players"]) == labels
    assert warning in played.stderr.splitlines(), played.stderr
    db = str(tmp_path / "runs.sqlite")
    done = arena("tournament", "dup1.py", "dup2.py", "--games", "1", *QUICK, "--first-seed",
                 "3", "--db", db, "--workers", "1", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert sorted(p["name"] for p in json.loads(done.stdout)["players"]) == labels
    assert warning in done.stderr.splitlines(), done.stderr
    matrix = arena("results", db, "--matrix", "--json", env=PLAIN, forked=True)
    assert sorted(e["label"] for e in json.loads(matrix.stdout)["entrants"]) == labels


def test_the_same_name_rule_is_stated_once() -> None:
    """docs/spec/arena.md states it; the other pages link there."""
    stated = [path for path in [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]
              if "numbered from its second bearer" in " ".join(path.read_text().split())]
    assert stated == [ROOT / "docs/spec/arena.md"], stated
    assert 'docs/spec/arena.md ("Names")' in (ROOT / "docs/security/output.md").read_text()


@given(st.lists(st.characters() | st.characters(categories=["Cs"]), max_size=60)
       .map("".join))              # st.text() never draws a lone surrogate
def test_any_declared_name_can_be_sent_stored_and_shown(value) -> None:
    """Whatever string literal a bot declares (a lone surrogate fits no encoding, and
    once crashed even `run --json`), its name encodes as UTF-8."""
    name = declared_name(f"name = {value!r}\n".encode(), "stem")
    name.encode("utf-8")
    assert len(name) <= 40 * len("\\udc80") and (name == "stem" or name)


def test_shown_replaces_exactly_the_controls_bidi_marks_and_surrogates() -> None:
    """Generated from the Unicode database, not from shown()'s own pattern: every
    character of category Cc, Cf (the bidi controls and the invisible format characters,
    zero-width ones included), Cs, Zl or Zp, or a Hangul filler, becomes its visible
    escape; every other character of every plane is left as it is."""
    fillers = {"\u115f", "\u1160", "\u3164", "\uffa0"}
    explicit = {"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
    marks = {"\u200e", "\u200f", "\u061c"}             # LRM, RLM, ALM
    for code in range(0x110000):
        ch = chr(code)
        unsafe = (unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") or ch in marks
                  or unicodedata.bidirectional(ch) in explicit or ch in fillers)
        assert (shown(ch) != ch) == unsafe, hex(code)
        if unsafe:
            assert shown(ch).isascii() and shown(ch).startswith("\\"), hex(code)
    assert shown("a\nb\tc\rd", lines=True) == "a\nb\tc\\rd"
