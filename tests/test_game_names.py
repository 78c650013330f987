"""Shared code knows no game by name (issue 25): outside the registry's folder
(orchestrator/games/) and each game's own bot side, no file of orchestrator/ or sandbox/
holds a game's name, or its bot side's, as a string: no `== "cave"`, no table keyed by
games, no `"_robotgame"`. A game's parts live in its entry; shared code asks the entry.

The names come from the registry, the toy game of tests/ included, so a new game is held
to it without an edit here."""
from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from orchestrator.games import GAMES
from tests.conftest import ROOT

SHARED = ("orchestrator", "sandbox")
REGISTRY = Path("orchestrator/games")
TEXT_SUFFIXES = (".html", ".js", ".css", ".j2", ".txt", ".json")
# "arena" is also the program's own name: the command, and the sandbox's host name.
PROGRAM_NAME = (("orchestrator/cli.py", 'name="arena"'),
                ("orchestrator/cli.py", 'prog_name="arena"'),
                ("sandbox/botlib/_harden.py", 'HOSTNAME = "arena"'))


def names() -> set[str]:
    """Every game's name and its bot side's module name."""
    found = set()
    for game in GAMES.values():
        found |= {game.name, Path(game.bot_side).stem}
    return found


def exempt() -> set[Path]:
    """The games' own files among the shared folders: each bot side of sandbox/botlib/."""
    return {Path("sandbox/botlib") / f"{game.bot_side}.py" for game in GAMES.values()
            if not game.bot_side.endswith(".py")}


def named_in(path: Path, text: str, wanted: set[str]) -> list[tuple[int, str]]:
    """(line, name) for each string literal of the file that is exactly a name in `wanted`."""
    if path.suffix != ".py":
        pattern = re.compile(r"""["'`](%s)["'`]""" % "|".join(map(re.escape, sorted(wanted))))
        return [(text.count("\n", 0, m.start()) + 1, m.group(1))
                for m in pattern.finditer(text)]
    found = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type != tokenize.STRING:
            continue
        try:
            value = ast.literal_eval(token.string)
        except (ValueError, SyntaxError):         # an f-string: its parts are not names
            continue
        if value in wanted:
            found.append((token.start[0], value))
    return found


def shared_files() -> list[Path]:
    skip = exempt()
    return sorted(path.relative_to(ROOT) for folder in SHARED
                  for path in (ROOT / folder).rglob("*")
                  if path.is_file() and path.suffix in (".py", *TEXT_SUFFIXES)
                  and REGISTRY not in path.relative_to(ROOT).parents
                  and path.relative_to(ROOT) not in skip)


def violations() -> list[str]:
    wanted = names()
    found = []
    for path in shared_files():
        text = (ROOT / path).read_text(encoding="utf-8", errors="replace")
        lines = text.splitlines()
        for line, name in named_in(path, text, wanted):
            said = lines[line - 1] if line <= len(lines) else ""
            if any(str(path) == where and snippet in said for where, snippet in PROGRAM_NAME):
                continue
            found.append(f"{path}:{line}: {name!r}: {said.strip()[:80]}")
    return found


def test_shared_code_names_no_game() -> None:
    found = violations()
    assert not found, "shared code names a game (ask its Game entry instead):\n" + \
        "\n".join(found)


def test_the_scan_sees_a_name_as_a_literal_or_a_comparison_only() -> None:
    """The scanner itself: a name compared or keyed is caught, on its line; the same word
    in prose, an f-string or an identifier is not."""
    code = ('"""Plays cave and race."""\nif game == "cave":\n    x = {"race": 1}\n'
            'arena = f"{cave} race"\n')
    assert named_in(Path("x.py"), code, {"cave", "race", "arena"}) == [(2, "cave"), (3, "race")]
    page = 'const a = game === "arena";\n// the arena\nb = `cave`;\n'
    assert named_in(Path("x.js"), page, {"arena", "cave"}) == [(1, "arena"), (3, "cave")]


def test_the_names_and_the_exempt_files_come_from_the_registry() -> None:
    assert {game.name for game in GAMES.values()} <= names()
    for game in GAMES.values():
        side = Path(game.bot_side)
        assert side.suffix == ".py" and side.is_file() or \
            (ROOT / "sandbox" / "botlib" / f"{game.bot_side}.py").is_file(), game.bot_side
