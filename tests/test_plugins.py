"""Games and sandbox modes installed from a package of their own, through the entry point
groups `robot_arena.games` and `robot_arena.sandbox_modes` (sandbox/plugins.py).

The package is built here, in a temporary folder, as a wheel written with zipfile (no build
backend, nothing downloaded): the toy game of tests/toy/ as `arena_wheeltoy` (its game named
`wheeltoy`, beside the toy that tests/conftest.py names in ARENA_GAMES) and the counting mode
of tests/modes/ as `arena_wheelcount` (`--sandbox wheelcount`). pip installs it with
--target into a folder of its own, which each `arena` started here finds on PYTHONPATH: the
shared .venv is never changed, and this process's registries never see the plugins.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.modes.counting import LOG_VARIABLE
from tests.support.cli import arena
from tests.support.paths import COUNTING, ROOT, TOY

GAME, MODE = "wheeltoy", "wheelcount"
GAME_PACKAGE, MODE_MODULE = "arena_wheeltoy", "arena_wheelcount"
TURNS = "5"


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(folder: Path, files: dict[str, bytes], entry_points: str,
                name: str = "arena_wheeltoy") -> Path:
    """A wheel of `files` (its path -> bytes) with these entry points, as a build backend
    writes one: the files, then the dist-info's METADATA, WHEEL, entry_points.txt, RECORD."""
    info = f"{name}-0.1.dist-info"
    files = dict(files)
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n".encode()
    files[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: tests/test_plugins.py\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    files[f"{info}/entry_points.txt"] = entry_points.encode()
    record = [_record_line(path, data) for path, data in files.items()]
    files[f"{info}/RECORD"] = ("\n".join(record + [f"{info}/RECORD,,"]) + "\n").encode()
    wheel = folder / f"{name}-0.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as out:
        for path, data in files.items():
            out.writestr(path, data)
    return wheel


def install(wheel: Path, site: Path) -> None:
    """pip's own install of the wheel into `site` (not into any venv), offline."""
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--no-index", "--target", str(site), str(wheel)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def plugin_files() -> dict[str, bytes]:
    """The toy game's folder as the package `arena_wheeltoy` (its game renamed `wheeltoy`),
    and the counting mode as the module `arena_wheelcount` (its mode renamed)."""
    files = {}
    for path in sorted(TOY.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.name != "test_toy.py":
            files[f"{GAME_PACKAGE}/{path.relative_to(TOY).as_posix()}"] = path.read_bytes()
    init = files[f"{GAME_PACKAGE}/__init__.py"].decode()
    assert '"toy", "the toy game of tests/"' in init
    files[f"{GAME_PACKAGE}/__init__.py"] = init.replace(
        '"toy", "the toy game of tests/"', f'"{GAME}", "the toy game, installed"').encode()
    mode = COUNTING.read_text()
    assert 'name="counting"' in mode
    files[f"{MODE_MODULE}.py"] = mode.replace('name="counting"', f'name="{MODE}"').encode()
    return files


ENTRY_POINTS = f"""[robot_arena.games]
{GAME} = {GAME_PACKAGE}:GAME

[robot_arena.sandbox_modes]
{MODE} = {MODE_MODULE}:MODE
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The folder the plugin's wheel is installed into."""
    where = tmp_path_factory.mktemp("plugin")
    folder = where / "site"
    install(build_wheel(where, plugin_files(), ENTRY_POINTS), folder)
    assert (folder / GAME_PACKAGE / "bots" / "wanderer.py").is_file()
    return folder


def in_site(site: Path, *args: str, code: int = 0, **env: str) -> subprocess.CompletedProcess:
    """`arena ARGS` that finds the installed plugin (PYTHONPATH), piped, wide, with no
    traceback."""
    done = arena(*args, cwd=site.parent, code=code,
                 env={"PYTHONPATH": str(site), "COLUMNS": "200", "NO_COLOR": "1", **env})
    assert "Traceback" not in done.stderr, done.stderr
    return done


def bot(site: Path, name: str) -> str:
    return str(site / GAME_PACKAGE / "bots" / name)


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def test_an_installed_game_and_mode_are_named_in_help(site) -> None:
    top = flat(in_site(site, "--help").stdout)
    assert f"{GAME} (the toy game, installed)" in top and f", {MODE}" in top, top
    run = flat(in_site(site, "run", "--help").stdout)
    assert f"{GAME} (the toy game, installed)" in run, run
    assert f"{MODE}: off, each call of its players counted" in run, run


def test_an_installed_game_plays_run_batch_and_check(site, tmp_path) -> None:
    result = json.loads(in_site(site, "run", "--game", GAME, "--seed", "1", "--max-turns",
                                TURNS, "--json").stdout)
    assert result["game"] == GAME and result["seed"] == 1, result
    assert sorted(p["name"] for p in result["players"]) == ["greedy", "wanderer"], result
    assert all(p["status"] == "ok" for p in result["players"]), result["players"]
    db = tmp_path / "batch.sqlite"
    report = json.loads(in_site(site, "batch", "--game", GAME, bot(site, "greedy.py"),
                                bot(site, "wanderer.py"), "--seeds", "2", "--max-turns", TURNS,
                                "--workers", "1", "--db", str(db), "--json").stdout)
    assert report["game"] == GAME and report["matches"] == 2 and report["skipped"] == 0
    assert all(p["erased"] == p["load_errors"] == 0 for p in report["players"]), report
    found = json.loads(in_site(site, "check", "--game", GAME, bot(site, "wanderer.py"),
                               "--turns", TURNS, "--json").stdout)
    assert found["ok"] is True and found["turns"] >= 1, found


def test_an_installed_game_plays_in_a_match_jail_that_hides_its_modules(site,
                                                                       tmp_path) -> None:
    """`--sandbox match`: the jail's zygote, given only its own site dirs, finds the plugin
    (its folder is passed on) and hides its package from the bots, as the host's own."""
    finder = tmp_path / "finder.py"
    finder.write_text(
        "import sys\n"
        "def step(view):\n"
        "    if view['turn'] == 1:\n"
        f"        print('HOSTS', sorted(m for m in sys.modules if m.split('.')[0] in "
        f"({GAME_PACKAGE!r}, {MODE_MODULE!r}, 'orchestrator', 'engine', 'sandbox')))\n"
        "    return '.'\n")
    result = json.loads(in_site(site, "run", "--game", GAME, str(finder),
                                bot(site, "wanderer.py"), "--sandbox", "match", "--seed", "1",
                                "--max-turns", TURNS, "--json").stdout)
    assert result["sandbox_mode"] == "match" and not result["jail_kills"], result
    assert "sandbox_note" not in result, result          # not played again elsewhere
    me = next(p for p in result["players"] if p["bot"] == str(finder))
    assert me["status"] == "ok" and "HOSTS []" in me["output"], me


def test_an_installed_mode_plays_run_and_batch(site, tmp_path) -> None:
    log = tmp_path / "calls.log"
    result = json.loads(in_site(site, "run", "--game", GAME, "--sandbox", MODE, "--seed", "1",
                                "--max-turns", TURNS, "--json",
                                **{LOG_VARIABLE: str(log)}).stdout)
    assert result["sandbox_mode"] == MODE and result["turns"] >= 1, result
    calls = [line.split()[1] for line in log.read_text().splitlines()]
    assert calls.count("exchange") == result["turns"] and "load" in calls, calls
    db = tmp_path / "batch.sqlite"
    in_site(site, "batch", "--game", GAME, bot(site, "greedy.py"), bot(site, "wanderer.py"),
            "--seeds", "2", "--max-turns", TURNS, "--workers", "1", "--sandbox", MODE, "--db",
            str(db), "--json")
    with sqlite3.connect(db) as conn:
        assert [row[0] for row in conn.execute("SELECT sandbox FROM matches")] == [MODE] * 2
    refused = in_site(site, "check", "--game", GAME, bot(site, "wanderer.py"), "--sandbox",
                      MODE, code=2)                          # off's record: check refuses it
    assert refused.stderr.startswith(f"error: --sandbox {MODE} is not available for check")


def test_the_conformance_rows_include_an_installed_game_and_mode(site) -> None:
    """The matrix's rows come from the registry: an installed game gets every per-game row
    and a check row per sample, an installed mode its mode rows, as the toy and counting do."""
    script = ("from tests.conformance.matrix import rows, mode_rows\n"
              "print([str(r) for r in rows()])\nprint([str(r) for r in mode_rows()])\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": f"{site}{os.pathsep}{ROOT}"})
    assert done.returncode == 0, done.stderr[-3000:]
    games, modes = (eval(line) for line in done.stdout.splitlines()[-2:])
    for name in ("run", "batch", "check-greedy.py", "check-wanderer.py", "ladder"):
        assert f"{GAME}-{name}" in games and f"toy-{name}" in games, (name, games)
    for command in ("run", "batch", "check"):
        assert f"{MODE}-{command}" in modes and f"counting-{command}" in modes, modes


def test_importing_the_registries_loads_no_plugin(site) -> None:
    """Loading is lazy: importing the registries (and the API) imports no plugin; the first
    ask of each loads its own."""
    script = (
        "import sys\n"
        "import orchestrator.games, sandbox.modes, orchestrator.api\n"
        f"assert {GAME_PACKAGE!r} not in sys.modules and {MODE_MODULE!r} not in sys.modules\n"
        "assert 'arena_game_toy' not in sys.modules\n"          # nor ARENA_GAMES's toy
        "assert 'arena_mode_counting' not in sys.modules\n"
        f"assert {GAME!r} in orchestrator.games.GAMES\n"
        f"assert {GAME_PACKAGE!r} in sys.modules and {MODE_MODULE!r} not in sys.modules\n"
        f"assert sandbox.modes.get_mode('standard').name == 'standard'\n"
        f"assert {MODE_MODULE!r} not in sys.modules\n"
        f"assert sandbox.modes.chosen({MODE!r}).name == {MODE!r}\n"
        "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": f"{site}{os.pathsep}{ROOT}"})
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr[-3000:]


BROKEN = {
    "an import that fails": ("import no_such_module_here\n", "x = {p}:GAME",
                             "cannot be loaded: ModuleNotFoundError: No module named "
                             "'no_such_module_here'"),
    "a syntax error": ("def (\n", "x = {p}:GAME", "cannot be loaded: SyntaxError: "),
    "no such attribute": ("X = 1\n", "x = {p}:GAME", "cannot be loaded: AttributeError: "),
    "not a Game": ("GAME = 3\n", "x = {p}:GAME", "names a int, not a Game entry"),
    "a built-in's name": ("from orchestrator.games import BUILT_IN\nGAME = BUILT_IN[0]\n",
                          "x = {p}:GAME", "the game 'arena' is already registered"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_installed_plugin_is_one_error_line(case, tmp_path) -> None:
    source, point, says = BROKEN[case]
    package = f"arena_broken_{list(BROKEN).index(case)}"
    wheel = build_wheel(tmp_path, {f"{package}/__init__.py": source.encode()},
                        f"[robot_arena.games]\n{point.format(p=package)}\n", name=package)
    site = tmp_path / "site"
    install(wheel, site)
    done = in_site(site, "run", "--help", code=2)
    assert done.stderr.count("\n") == 1, done.stderr
    named = f"error: x = {package}:GAME (entry point of {package} 0.1 in robot_arena.games): "
    assert done.stderr.startswith(named + says), done.stderr


def test_a_broken_installed_mode_is_one_error_line(tmp_path) -> None:
    wheel = build_wheel(tmp_path, {"arena_offagain.py": b"import dataclasses\n"
                                   b"from sandbox.modes import OFF\n"
                                   b"MODE = dataclasses.replace(OFF, name='off')\n"},
                        "[robot_arena.sandbox_modes]\noff = arena_offagain:MODE\n",
                        name="arena_offagain")
    site = tmp_path / "site"
    install(wheel, site)
    done = in_site(site, "run", "--seed", "1", code=2)
    assert done.stderr == ("error: off = arena_offagain:MODE (entry point of arena_offagain "
                           "0.1 in robot_arena.sandbox_modes): --sandbox off is already a "
                           "mode\n"), done.stderr


def test_a_file_in_the_variable_that_fails_as_it_loads_is_one_error_line(tmp_path) -> None:
    """The ad-hoc way (ARENA_GAMES) says a plugin's own failure in one line too."""
    broken = tmp_path / "broken.py"
    broken.write_text("1 / 0\n")
    done = in_site(tmp_path / "site", "run", "--help", code=2, ARENA_GAMES=str(broken))
    assert done.stderr == (f"error: {broken} (in $ARENA_GAMES): cannot be loaded: "
                           "ZeroDivisionError: division by zero\n"), done.stderr


# A plugin's words as help shows them (rich markup): a `[/]` in a game's title or name, or
# in a mode's help, made `arena --help` and every command's --help a traceback
# (rich.errors.MarkupError), and a `[link=...]` would have hidden a link in the terminal.
# Each plugin here is the toy game (or the counting mode) with one word changed.
_GAME_WORDS = (f"import dataclasses\nimport sys\nsys.path.insert(0, {str(ROOT)!r})\n"
               "from tests.toy import GAME as TOY\nGAME = dataclasses.replace(TOY, {change})\n")
_MODE_WORDS = ("import dataclasses\nfrom sandbox.modes import OFF\n"
               "MODE = dataclasses.replace(OFF, name='count2', {change})\n")
HOSTILE_WORDS = {
    "a game's title closing no tag": (
        "ARENA_GAMES", _GAME_WORDS, "name='toy2', title='[/]'",
        "its title holds '[/]', which help would read as markup"),
    "a game's name with markup": (
        "ARENA_GAMES", _GAME_WORDS, "name='to[/]y'",
        "a game's name is lower-case letters, digits, - and _, not 'to[/]y'"),
    "a game's help with a hidden link": (
        "ARENA_GAMES", _GAME_WORDS, "name='toy2', options=dataclasses.replace(TOY.options, "
        "robots_help='[link=https://evil.example]robots[/link]')",
        "its robots_help holds '[link=https://evil.example]', which help would read as "
        "markup"),
    "a game's title with a terminal escape": (
        "ARENA_GAMES", _GAME_WORDS, "name='toy2', title='toy\\x1b]0;pwned\\x07'",
        "its title holds a control character (toy\\x1b]0;pwned\\x07)"),
    "a mode's help closing no tag": (
        "ARENA_SANDBOX_MODES", _MODE_WORDS, "help='[/] counts'",
        "its help holds '[/]', which help would read as markup"),
}


@pytest.mark.parametrize("case", list(HOSTILE_WORDS))
def test_a_plugins_words_that_help_would_read_as_markup_are_one_error_line(case,
                                                                          tmp_path) -> None:
    variable, source, change, says = HOSTILE_WORDS[case]
    plugin = tmp_path / "words.py"
    plugin.write_text(source.format(change=change))
    for args in (("--help",), ("run", "--help"), ("batch", "--help")):
        done = in_site(tmp_path / "site", *args, code=2, **{variable: str(plugin)})
        assert done.stderr.startswith(f"error: {plugin} (in ${variable}): {says}"), done.stderr
        assert done.stderr.count("\n") == 1, done.stderr


def test_a_plugins_escaped_brackets_are_its_words() -> None:
    """A bracket that rich would not read as a tag, or one escaped, is plain text."""
    from sandbox.plugins import wording_problems  # noqa: PLC0415
    assert wording_problems({"title": "Robots [RG] \\[bold] [1]", "help": None}) == []
    assert wording_problems({"title": "a [b]"}) == [
        "its title holds '[b]', which help would read as markup (escape it: \\[)"]


def test_every_built_in_game_and_mode_has_the_words_a_plugin_must() -> None:
    """The rule a plugin is held to is the built-ins' own: each would pass as a plugin."""
    from orchestrator.games import BUILT_IN, _well_formed  # noqa: PLC0415
    from sandbox import modes  # noqa: PLC0415
    for game in BUILT_IN:
        _well_formed(game, game.name)
    for mode in modes.BUILT_IN:
        if not mode.hidden:
            modes._add({}, mode, mode.name)
