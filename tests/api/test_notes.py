"""A bot's errors reach its note: a bot that finishes but raises on its calls (a notebook
bot using a module imported in another cell: status ok, every decision an overheat) shows
its first error, type and message, in `arena run`'s table, in the API's result
(`PlayerResult.note`, `"note"` in `--json`) and in the notebook's HTML view; a hostile
message is escaped in each."""
from __future__ import annotations

from orchestrator import api
from tests.api import bots
from tests.support.cli import arena

NAME_ERROR = "NameError: name 'math' is not defined"


def test_a_code_bot_s_name_error_is_in_its_note_in_the_api_and_the_notebook_view() -> None:
    played = api.play([bots.uses_math, "hunter"], seed=3, max_turns=4, robots=3,
                      progress=False)
    me = next(p for p in played.players if p.name == "uses_math")
    assert me.status == "ok" and me.overheats > 0
    assert NAME_ERROR in me.note, me.note
    assert "import what it uses inside the function" in me.note     # the way out
    assert me.note.startswith(f"{me.overheats} overheats, first: ")
    assert me.to_json()["note"] == me.note
    assert played.to_json()["players"][[p.name for p in played.players].index("uses_math")][
        "note"] == me.note
    assert "NameError: name &#x27;math&#x27; is not defined" in played._repr_html_()
    hunter = next(p for p in played.players if p.name != "uses_math")
    assert hunter.note == ""


def test_the_first_error_is_in_arena_run_s_table(tmp_path) -> None:
    bot = api.bot_file(bots.uses_math)
    done = arena("run", str(bot), "hunter", "--max-turns", "4", "--robots", "3", "--seed", "3",
                 timeout=120)
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if "uses_math" in line)
    assert "overheats, first: NameError: name 'math'" in row, done.stdout


def test_a_hostile_error_message_is_escaped_in_the_note() -> None:
    played = api.play([bots.says_hostile, "hunter"], seed=3, max_turns=3, robots=2,
                      progress=False)
    me = next(p for p in played.players if p.name == "says_hostile")
    assert "ValueError: \\x1b]52;c;cGFzdGU=\\x07\\x1b[31mred\\u202eevil" in me.note, me.note
    for raw in ("\x1b", "\x07", "\u202e"):
        assert raw not in me.note and raw not in played._repr_html_()
