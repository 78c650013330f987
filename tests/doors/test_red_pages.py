"""Red team of the user-facing doors (issue 41): what a bot's author, an uploader or a
caller of the API puts in a name, a file or a page, against the places that read or show
it. Each test is an attack that worked before its fix."""
from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator import kinds
from orchestrator.bots import read_bot
from orchestrator.games import wrong_game_hint

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
