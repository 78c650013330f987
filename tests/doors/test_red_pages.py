"""Red team of the user-facing doors: what a bot's author, an uploader or a
caller of the API puts in a name, a file or a page, against the places that read or show
it. Each test is an attack that worked before its fix."""
from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.games import kinds, wrong_game_hint
from orchestrator.runner.bots import read_bot

HOSTILE_SOURCES = {
    # ast.literal_eval of a dict or set with a list in it raises TypeError
    "unhashable_name": b"name = {[]: 1}\ndef move(*a):\n    return None\n",
    "unhashable_set": b"name = {1, []}\nclass Robot:\n    pass\n",
    # the parser's stack: 60,000 unary minuses are a MemoryError, 5,000 a RecursionError
    "deep_unary": b"x = " + b"-" * 60_000 + b"1\ndef move(*a):\n    return None\n",
    "deeper_than_recursion": b"x = " + b"-" * 5_000 + b"1\n",
}


@pytest.mark.parametrize("case", sorted(HOSTILE_SOURCES))
def test_a_bot_file_the_parser_cannot_take_is_read_by_its_stem(tmp_path: Path, case: str):
    """Reading a bot's name (run, check, batch, the API) and guessing its game (the check's
    hint, the ladder's check too) parse the file: a TypeError or MemoryError there was a
    traceback instead of the bot's own load error."""
    path = tmp_path / f"{case}.py"
    path.write_bytes(HOSTILE_SOURCES[case])
    assert read_bot(path).name == case
    if case.startswith("deep"):
        assert kinds.read(path.name, HOSTILE_SOURCES[case]).tree is None
    assert isinstance(wrong_game_hint(path.name, HOSTILE_SOURCES[case], "robotgame"), str)


def test_every_invisible_or_format_character_a_bot_names_itself_with_is_shown():
    """`Hunter\\u200b` (a zero-width space) printed as `Hunter` in every table and line of
    the terminal: a bot passed for another, a result's row for another's. Every format
    character (Unicode's Cf: zero-width space and joiners, BOM, soft hyphen, tags, the
    bidi controls) and the Hangul fillers are now shown as their escapes."""
    import sys
    import unicodedata

    from orchestrator.text import shown

    assert shown("Hunter\u200b") == "Hunter\\u200b" != shown("Hunter")
    assert shown("Hunter\u2060\ufeff\u3164") == "Hunter\\u2060\\ufeff\\u3164"
    assert shown("\U000e0048\U000e0069") == "\\U000e0048\\U000e0069"     # tags: invisible
    missed = [f"U+{c:04X}" for c in range(sys.maxunicode + 1)
              if unicodedata.category(chr(c)) == "Cf" and shown(chr(c)) == chr(c)]
    assert missed == []
    assert shown("Zoë ü 🤖 名前") == "Zoë ü 🤖 名前"      # letters and emoji stay themselves


class _Sneaky(str):
    """A str whose comparisons, repr and format are code of its own."""

    __hash__ = str.__hash__

    def __eq__(self, other):
        return other in ("move", "_sneaky_move") or str.__eq__(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return "'x'\nprint('smuggled')"

    def __format__(self, spec):
        return "move\nprint('smuggled')"

    __str__ = __format__


def _sneaky_move(*args):
    return None


@pytest.mark.parametrize("where", ["name", "__name__"])
def test_a_name_that_is_code_writes_nothing_into_the_bot_that_plays(tmp_path, monkeypatch,
                                                                      where):
    """The file a function bot plays is its definition, checked against its code: a
    `name=` (or a __name__ set after the definition) that is a str subclass wrote its
    own repr into that file, so `print('smuggled')` (any code) played under the bot's
    sha256 without being in the definition. Now refused, before any file is written."""
    from engine import InputError
    from orchestrator import api

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if where == "__name__":
        monkeypatch.setattr(_sneaky_move, "__name__", _Sneaky("_sneaky_move"))
        options = {}
    else:
        options = {"name": _Sneaky("x")}
    with pytest.raises(InputError) as refused:
        written = api.bot_file(_sneaky_move, "arena", **options)
        assert "smuggled" not in written.read_text()       # (before: it was there)
    assert ("__name__" if where == "__name__" else "name:") in str(refused.value)
    assert not [p for p in tmp_path.rglob("*.py") if "smuggled" in p.read_text()]


def test_a_plain_name_and_an_unusual_one_still_make_a_bot(tmp_path, monkeypatch):
    from orchestrator import api

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    for name in ("Sneaky", "\x1b]52;c;Zm9v\x07'\"\n)"):
        text = api.bot_file(_sneaky_move, "arena", name=name).read_text()
        assert f"name = {name!r}\n" in text and "def _sneaky_move" in text


def _policy(page: str) -> str:
    import re

    return re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">',
                     page).group(1)


@pytest.mark.parametrize("which", ["replay", "matrix"])
def test_a_written_page_runs_only_its_own_inline_script(which):
    """The pages `arena replay --html` and `results --matrix --html` write (and the
    notebook's iframes) allowed 'unsafe-inline' scripts: any `<script>` or `onerror=` a
    bot's name or output ever got into the page as markup would have run. Their policy
    now names their one inline script and style by hash."""
    import base64
    import hashlib
    import re

    from orchestrator.views import matrix_page
    from orchestrator.views import replay as replay_view

    hostile = "__POLICY__</script><script>alert(1)</script><img src=x onerror=alert(2)>"
    if which == "replay":
        page = replay_view.page({"game": "arena", "players": [{"name": hostile}],
                                 "output": {hostile: hostile}, "turns": []})
    else:
        page = matrix_page.page({"cells": [], "entrants": [hostile]})
    policy = _policy(page)
    assert "unsafe-inline" not in policy and "default-src 'none'" in policy
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 1
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert re.search(r"script-src ([^;]*);", policy).group(1) == f"'sha256-{digest}'"
    assert "style-src 'sha256-" in policy
    assert "__POLICY__" in page                      # the bot's text, not replaced


LONG = "x" * 5000           # past the system's 255 bytes a name (ENAMETOOLONG)
COMMANDS = {
    "run --map": ["run", "hunter", "hunter", "--game", "arena", "--map", LONG],
    "run bot": ["run", LONG, "hunter", "--game", "arena"],
    "check": ["check", LONG],
    "results": ["results", LONG],
    "replay": ["replay", LONG],
    "batch --db": ["batch", "hunter", "hunter", "--game", "arena", "--seeds", "1", "--db", LONG],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_path_too_long_for_the_system_is_one_error_line(command, tmp_path):
    """`Path.is_file()` hides a missing file, not a name the system refuses to look up:
    a 5,000-character path was an OSError traceback from each of these commands."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "orchestrator", *COMMANDS[command]],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 2, done.stderr[-500:]
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: xxx")
    assert "(5000 characters): File name too long" in lines[0]


@pytest.mark.parametrize("options, words", [
    ({"map": LONG}, "(5000 characters): File name too long"),
    ({"map": 5}, "5: a path is text, not int"),
    ({"rules": {"max_turns": 3}}, "unknown rules preset {'max_turns': 3}"),
])
def test_the_api_refuses_a_map_or_rules_of_the_wrong_kind_with_an_input_error(options, words):
    """From the API these were an OSError and TypeErrors ('unhashable type: dict')."""
    from engine import InputError
    from orchestrator import api

    with pytest.raises(InputError) as refused:
        api.play(["hunter", "hunter"], game="arena", seed=1, max_turns=2, progress=False,
                 **options)
    assert words in str(refused.value)


def test_a_notebooks_tables_show_a_bots_bidi_override_as_text():
    """A result's table in a notebook (`_repr_html_`) escaped markup but not a bidi
    override or a zero-width character: `\\u202e` in a bot's name reversed the rest of
    its cell, and `Hunter\\u200b` passed for `Hunter`, as in the terminal before."""
    from orchestrator.api.types import html_table

    name = "Hunter\u200b\u202e<b>x</b>"
    table = html_table([{"name": name}], [("AI", lambda row: row["name"])], caption=name)
    assert "\u202e" not in table and "\u200b" not in table
    assert table.count("Hunter\\u200b\\u202e&lt;b&gt;x&lt;/b&gt;") == 2
