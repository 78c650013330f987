"""A bot's pithy name and short description come from its file (the seed's game
master collects each contestant's bot "with a pithy name and a short description of its
strategy"): its module docstring, or a leading comment in any language, read without
running it, cut short, and text wherever it goes (results, the store, `arena check`)."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator import api
from orchestrator.results.store import DESCRIPTION_CHARS, Store
from orchestrator.runner.bots import described, read_bot

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("filename, source, want", [
    ("a.py", b'#!/usr/bin/env python3\n"""Runner: runs.\n\nDetails nobody reads."""\nx = 1\n',
     "Runner: runs."),
    ("a.py", b"# Rusher: hits the weakest.\n#   Then charges.\n\n# licence\nimport rg\n",
     "Rusher: hits the weakest. Then charges."),
    ("a.rb", b"# Example, in Ruby: walks to the center.\nrequire 'rg'\n",
     "Example, in Ruby: walks to the center."),
    ("a.js", b"#!/usr/bin/env node\n// cave-protocol: persistent\n// Scout: steps to gold.\n"
     b"const x = 1;\n", "Scout: steps to gold."),
    ("a.lua", b"-- Lua bot: digs.\n-- Deeply.\nprint(1)\n", "Lua bot: digs. Deeply."),
    ("a.scm", b";;; Schemer: waits.\n(display 1)\n", "Schemer: waits."),
    ("a.c", b"/* Digger: in C.\n * Holds when idle. */\n#include <stdio.h>\n",
     "Digger: in C. Holds when idle."),
    ("a.py", b"import os\nx = 1\n", ""),
])
def test_the_description_is_the_files_first_paragraph(filename, source, want):
    assert described(filename, source) == want


def test_it_is_text_cut_short_and_never_run(tmp_path):
    marker = tmp_path / "ran"
    source = (f'"""Sly: \x1b]52;c;aGk=\x07 {"word " * 200}"""\n'
              f'open({str(marker)!r}, "w").write("x")\n').encode()
    found = described("sly.py", source)
    assert not marker.exists()
    assert "\x1b" not in found and "\x07" not in found and found.startswith(
        "Sly: \\x1b]52;c;aGk=\\x07 word")
    assert DESCRIPTION_CHARS - 2 <= len(found) <= DESCRIPTION_CHARS and found.endswith("…")


def test_every_sample_describes_itself():
    for path in sorted((REPO / "bots").glob("*/*")):
        if path.name.startswith("_") or path.name == "random_bot.py":   # kept verbatim
            continue
        assert read_bot(path).description, path


def test_results_standings_and_the_store_carry_it(tmp_path):
    db = tmp_path / "r.sqlite"
    found = api.batch(["hunter", "turtle"], seeds=1, first_seed=3, max_turns=5, map="tiny",
                      workers=1, db=db, progress=False)
    hunter = next(p for p in found.to_json()["players"] if p["name"] == "Hunter")
    assert hunter["description"].startswith("Hunter: faces the nearest robot")
    store = Store(db)
    try:
        run = store.runs()[0]["id"]
        players = store.run_results(run)[0]["players"]
        assert {p["name"]: p["description"][:7] for p in players} == {
            "Hunter": "Hunter:", "Turtle": "Turtle:"}
    finally:
        store.close()
    # A results file written before descriptions were kept reads "" for each bot.
    old = sqlite3.connect(db)
    old.execute("DROP TABLE bot_texts")
    old.commit()
    old.close()
    store = Store(db)
    try:
        assert {p["description"] for p in store.run_results(run)[0]["players"]} == {""}
    finally:
        store.close()


def test_a_forged_description_in_a_results_file_is_refused(tmp_path):
    db = tmp_path / "r.sqlite"
    api.batch(["hunter", "turtle"], seeds=1, first_seed=3, max_turns=5, map="tiny",
              workers=1, db=db, progress=False)
    forged = sqlite3.connect(db)
    forged.execute("UPDATE bot_texts SET description = ?", ("\x1b[2J" + "x" * 400,))
    forged.commit()
    forged.close()
    with pytest.raises(api.InputError, match=r"description must be plain text"):
        api.open_store(db).run(api.open_store(db).runs()[0].id)


def test_arena_check_shows_it(tmp_path):
    found = subprocess.run([sys.executable, "-m", "orchestrator", "check", "hunter", "--turns",
                            "5", "--once"], capture_output=True, text=True, timeout=300)
    assert found.returncode == 0, found.stderr
    assert "Hunter: faces the nearest robot" in found.stdout
    as_json = subprocess.run([sys.executable, "-m", "orchestrator", "check", "hunter",
                              "--turns", "5", "--once", "--json"], capture_output=True,
                             text=True, timeout=300)
    assert json.loads(as_json.stdout)["description"].startswith("Hunter: faces")


@pytest.mark.parametrize("sandbox", ["standard", "match"])
def test_every_mode_gives_the_hosts_reading(sandbox):
    """A match jail's result never says a description (the jail is the bots' own ground);
    the host adds its own reading of each file, as the standard mode does."""
    found = api.play(["hunter", "turtle"], map="tiny", max_turns=3, seed=5, sandbox=sandbox,
                     progress=False, record=False)
    assert found.data["sandbox_mode"] == sandbox
    assert {p.name: p.description[:7] for p in found.players} == {
        "Hunter": "Hunter:", "Turtle": "Turtle:"}
