"""Shared code knows no game by name: outside the registry's folder
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
from tests.support.paths import ROOT

SHARED = ("orchestrator", "sandbox")
REGISTRY = Path("orchestrator/games")
TEXT_SUFFIXES = (".html", ".js", ".css", ".j2", ".txt", ".json")
# "arena" is also the program's own name: the command, and the sandbox's host name.
PROGRAM_NAME = (("orchestrator/cli/app.py", 'name="arena"'),
                ("orchestrator/cli/app.py", 'prog_name="arena"'),
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


# -- help text ------------------------------------------------------------------------------
# Every per-game part of `--help` is made from the registry (orchestrator/games/help.py and
# each entry's fields), so a new game shows in every help text and none is left out (the
# hand-written `check --turns` help once listed three games of four).
COMMAND_MODULES = ("cli.py", "_cmd.py", "options.py")


def app_commands() -> set[tuple[str, str]]:
    """(module, function) of every command the `arena` app runs."""
    import click  # noqa: PLC0415  (the CLI's own dependency, only for this scan)
    import typer  # noqa: PLC0415

    from orchestrator.cli.app import app  # noqa: PLC0415

    found = set()
    groups = [typer.main.get_command(app)]
    while groups:
        for command in groups.pop().commands.values():
            if isinstance(command, click.Group):
                groups.append(command)
            callback = getattr(command, "callback", None)
            if callback is not None:
                found.add((callback.__module__, callback.__name__))
    return found


def help_literals(path: Path, text: str, commands: set[tuple[str, str]]) -> list[tuple[int, str]]:
    """(line, text) of every piece of help written by hand in a command module: each string
    literal (an f-string's literal parts too) in a `help=` argument or in a value given to
    a name ending in `_HELP`, and each command function's docstring (typer's help for it)."""
    module = ".".join(path.with_suffix("").parts)
    found = []

    def literals(node: ast.AST) -> None:
        for part in ast.walk(node):
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                found.append((part.lineno, part.value))

    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.keyword) and node.arg == "help":
            literals(node.value)
        elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id.endswith("_HELP") for t in node.targets):
            literals(node.value)
        elif isinstance(node, ast.FunctionDef) and (module, node.name) in commands:
            doc = node.body[0] if node.body else None
            if isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant):
                literals(doc.value)
    return found


def game_words() -> set[str]:
    """Each game's name, and its short name in messages."""
    return {word for game in GAMES.values() for word in (game.name, game.shown.called) if word}


def named_in_help(literal: str, words: set[str], commands: set[str]) -> list[str]:
    """The game names a piece of help text holds, save in example command lines (`arena
    run --game robotgame ...`, `Examples: ...`), in a path (`bots/arena/hunter.py`) and
    where `arena` is the program (`arena bots`)."""
    pattern = re.compile(r"\b(%s)\b" % "|".join(map(re.escape, sorted(words, key=len)[::-1])))
    program = re.compile(r"\barena (?=(%s)\b)" % "|".join(map(re.escape, sorted(commands))))
    found = []
    for line in literal.splitlines():
        if line.strip().startswith(("arena ", "Example")):
            continue
        found += pattern.findall(program.sub("", re.sub(r"[\w.-]*/[\w./-]*", "", line)))
    return found


def help_violations() -> list[str]:
    import typer  # noqa: PLC0415

    from orchestrator.cli.app import app  # noqa: PLC0415

    commands = app_commands()
    names_of_commands = set(typer.main.get_command(app).commands)
    words = game_words()
    found = []
    for path in shared_files():
        if path.parts[0] != "orchestrator" or not path.name.endswith(COMMAND_MODULES):
            continue
        text = (ROOT / path).read_text(encoding="utf-8")
        for line, literal in help_literals(path, text, commands):
            for name in named_in_help(literal, words, names_of_commands):
                found.append(f"{path}:{line}: {name!r} in {literal.strip()[:70]!r}")
    return found


def test_no_help_text_names_a_game_by_hand() -> None:
    found = help_violations()
    assert not found, ("help text names a game by hand (make it from the registry: "
                       "orchestrator/games/help.py):\n" + "\n".join(found))


def test_the_help_scan_sees_a_name_written_by_hand() -> None:
    """The scanner itself: a name in a help= literal, in an f-string's literal part, in a
    *_HELP constant or in a command's docstring is caught; an example line, the program's
    own name and a name made from the registry are not."""
    code = ('X_HELP = "for robotgame only"\n'
            'def run(turns=Option(help=f"default: arena 50, {per_game(x)}")):\n'
            '    """Play.\n\n    cave: a cavern. See `arena bots`, bots/arena/a.py.\n\n'
            '      arena run --game robotgame a.py\n    Examples: arena run --game cave\n    """\n'
            'def helper():\n    """robotgame is not a command."""\n'
            'Y = Option(help=names(lambda g: g.random_spawn))\n')
    literals = help_literals(Path("orchestrator/x_cmd.py"), code, {("orchestrator.x_cmd", "run")})
    said = [name for _, text in literals
            for name in named_in_help(text, {"arena", "robotgame", "cave"}, {"run", "bots"})]
    assert sorted(said) == ["arena", "cave", "robotgame"]
