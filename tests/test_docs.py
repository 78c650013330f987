"""The docs, read from a clean clone: every repository path they name exists, and the
commands of the README and of docs/ run as written (those that need no server, browser or
terminal)."""
from __future__ import annotations

import html
import json
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.forked import ForkedArena, forked_arena
from tests.support.paths import ROOT

# One pytest-xdist worker for the module: its module-scoped fixtures (a ladder, a browser,
# a recorded match) would be made again on each worker that drew one of its tests.
pytestmark = pytest.mark.xdist_group("docs")

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
TOP = {path.name for path in ROOT.iterdir() if not path.name.startswith(".")}
# What a doc names that the user makes or the commands write, not the repository's.
MADE = re.compile(r"^(runs|more|my_|a\.py|b\.py|c\.py|\*)|GAME|NAME|FILE|XDG|~")
TOKEN = re.compile(r"`([^`\s]+)`|\]\(([^)\s#]+)(?:#[^)]*)?\)")


def named_paths(doc: Path) -> list[str]:
    """What paths_in finds in the doc."""
    return paths_in(doc.read_text())


def paths_in(text: str) -> list[str]:
    """Every relative link target, and backticked words that look like repository paths: a
    folder of the repository first, a relative path (`../x/`), or a Markdown file. (A
    relative `../seeds/` once slipped through: only words starting with a folder of the
    repository were checked, so a path reaching outside it was never looked at.)"""
    found = []
    for match in TOKEN.finditer(text):
        link = match.group(2) is not None
        word = (match.group(1) or match.group(2)).rstrip(".,:;")
        if "://" in word or word.startswith("mailto:") or "{" in word:
            continue
        if not link and MADE.search(word):
            continue
        first = word.split("/")[0]
        if link or ("/" in word and first in TOP | {".", ".."}) or word.endswith(".md"):
            found.append(word)
    return found


def exists(word: str, doc: Path) -> bool:
    """A path inside the repository from its root, the doc's own folder (links) or docs/;
    a glob matches at least one file. Nothing outside the checkout counts: the project
    must not depend on what lies beside it."""
    root = ROOT.resolve()
    for base in (ROOT, doc.parent, ROOT / "docs"):      # README names docs/ files bare
        if any(ch in word for ch in "*?["):
            if any(root in path.resolve().parents for path in base.glob(word)):
                return True
        elif (base / word).exists() and (base / word).resolve().is_relative_to(root):
            return True
    return False


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: str(doc.relative_to(ROOT)))
def test_every_path_a_doc_names_exists(doc) -> None:
    named = named_paths(doc)
    missing = [word for word in named if not exists(word, doc)]
    assert missing == [], f"{doc.relative_to(ROOT)} names what the repository lacks"


def test_the_path_check_sees_what_it_should() -> None:
    readme = named_paths(ROOT / "README.md")
    assert "docs/security.md" in readme and "docs/spec/arena.md" in readme
    assert "sandbox/botlib/roborally/api.py" in named_paths(ROOT / "docs" / "robot-arena.md")
    assert not exists("spec/lost.md", ROOT / "README.md")      # the kind of slip it catches
    assert not exists("orchestrator/nowhere.py", ROOT / "README.md")
    # A relative path is checked, and one reaching outside the checkout never resolves,
    # even where the folder beside it exists.
    spec = ROOT / "docs" / "spec" / "arena.md"
    assert "../seeds/" in paths_in("The seed (in `../seeds/`).")
    assert "../../README.md" in paths_in("[the README](../../README.md#install)")
    assert exists("../../README.md", spec) and not exists("../../..", spec)


# -- the game master's page, run in order ---------------------------------------------------
GAME_MASTER = ROOT / "docs" / "game-master.md"
# The official game shortened: fewer matches and turns, robots and workers.
GAME_MASTER_FAST = {"tournament": ["--max-turns", "20", "--robots", "3", "--workers", "1"],
                    "check": ["--turns", "5"]}
# The submissions the section's folder holds: three samples renamed by their contestants,
# and a bot that loops (the seed's "retroactively erased").
SUBMISSIONS = {"alice.py": ("hunter.py", "Alice", "Alice's hunter: fires at whoever it faces."),
               "bob.py": ("beeline.py", "Bob", "Bob's beeline: runs for the flags."),
               "carol.py": ("turtle.py", "Carol", "Carol's turtle: stays put and fires.")}


def game_master_steps() -> list[str]:
    """The `.venv/bin/arena` lines of the game master's page, in order."""
    text = GAME_MASTER.read_text()
    return [line.split("  #")[0].strip() for block in re.findall(r"```\n(.*?)```", text, re.S)
            for line in block.splitlines() if line.startswith(".venv/bin/arena ")]


# -- the commands of the README and of docs/ ------------------------------------------------
# Commands that need what a test cannot give here: a server, a browser (the editor), a Dask
# cluster, a terminal, or a folder of the user's bots (more/*.py, *.py). (--open only
# writes the page and says where: it runs.)
NEEDS_MORE = re.compile(r"arena (serve|maps edit)|--backend dask|"
                        r"arena replay match\.json\.gz\s*$|more/|tournament \*\.py")
# The user's own files the docs name, played by samples of the command's game.
USERS = {"arena": {"my_bot.py": "hunter.py", "a.py": "hunter.py", "b.py": "beeline.py",
                   "c.py": "turtle.py", "v2.py": "hunter.py", "v1.py": "randy.py"},
         "robotgame": {"my_rgkit_bot.py": "survivor.py", "a.py": "example.py",
                       "my_map.py": "../../maps/robotgame/default.py", "b.py": "rusher.py",
                       "c.py": "survivor.py", "my_bot.py": "example.py",
                       "my_bot_v2.py": "survivor.py", "my_bot_v1.py": "example.py"},
         "cave": {"my_bot.js": "scout.js", "my_bot": "miner.sh", "my_bot.py": "forager.py"},
         "race": {"my_bot.py": "planner.py"}}
# Flags that make a sample run fast, appended to commands that play many matches.
FAST = {"batch": ["--seeds", "2", "--max-turns", "10", "--workers", "1"],
        "tournament": ["--games", "1", "--max-turns", "10", "--workers", "1"],
        "check": ["--turns", "5"],
        "compare": ["--max-games", "4", "--max-turns", "10", "--workers", "1"]}


def commands_in(doc: Path) -> list[str]:
    """Every `.venv/bin/arena ...` line of a doc's code blocks, comments cut."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", doc.read_text(), re.S)
    return [line.split("  #")[0].strip() for block in blocks for line in block.splitlines()
            if line.strip().startswith(".venv/bin/arena ")]


def doc_commands() -> list[str]:
    """Every command the README and the pages of docs/ show, each once, in page order. The
    game master's page runs in order, from its folder of submissions (below)."""
    lines: list[str] = []
    for doc in DOCS:
        if doc != GAME_MASTER:
            lines += [line for line in commands_in(doc) if line not in lines]
    return lines


def test_the_docs_have_commands_to_run() -> None:
    assert len(commands_in(ROOT / "README.md")) >= 10
    assert len(doc_commands()) > 60


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """A clean clone's files (what git tracks, as a newcomer gets them), with the
    project's own arena as .venv/bin/arena (the user's bot files: USERS)."""
    where = tmp_path_factory.mktemp("clone")
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode().split("\0")
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (where / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, where / name)
    (where / ".venv" / "bin").mkdir(parents=True)
    arena = where / ".venv" / "bin" / "arena"
    arena.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m orchestrator \"$@\"\n")
    arena.chmod(0o755)
    return where


def adapted(command: str, clone: Path) -> list[str] | None:
    """The doc's line as argv, made fast; None for a line that needs more (NEEDS_MORE)."""
    if NEEDS_MORE.search(command):
        return None
    argv = []
    for word in shlex.split(command):                   # as the shell expands a glob
        argv += sorted(str(p.relative_to(clone)) for p in clone.glob(word)) \
            if "*" in word else [word]
    sub = argv[1]
    if sub == "run" and "--max-turns" not in argv and "--from" not in argv:
        argv += ["--max-turns", "10"]
    argv += FAST.get(sub, [])
    game = argv[argv.index("--game") + 1] if "--game" in argv else "arena"
    for mine, sample in USERS[game].items():
        shutil.copy2(ROOT / "bots" / game / sample, clone / mine)
    return argv


def clone_arena(clone: Path, env: dict[str, str]) -> ForkedArena:
    """The clone's `.venv/bin/arena` (`python -m orchestrator` in the clone): each command a
    process forked from one that imported the clone's CLI (tests/support/forked.py)."""
    return forked_arena((sys.executable, "-m", "orchestrator"), env, str(clone))


def given(clone: Path, *args: str) -> None:
    """A command whose output a doc's line reads (a map, a replay, a results file)."""
    env = dict(os.environ)
    done = clone_arena(clone, env).run(list(args), clone, 300, env)
    assert done.returncode == 0, done.stderr[-1500:]


@pytest.mark.parametrize("command", doc_commands())
def test_a_doc_command_runs_as_written(command, clone) -> None:
    argv = adapted(command, clone)
    if argv is None:
        pytest.skip("needs a server, a browser, a terminal, or the user's own files")
    env = {**os.environ, "COLUMNS": "80"}
    if argv[1] == "maps" and "validate" in argv and "my_arena.txt" in argv:
        given(clone, "maps", "generate", "--ais", "8", "--seed", "3", "--out", "my_arena.txt")
    if argv[1] == "replay":
        given(clone, "run", "--max-turns", "5", "--seed", "1", "--replay", "match.json.gz")
    if "--from" in argv:           # a position of the README's bots, from their replay
        mine = [word for word in argv if word.endswith(".py")]
        given(clone, "run", *mine, "--max-turns", "8", "--seed", "1", "--replay",
              "mine.json.gz")
        given(clone, "replay", "mine.json.gz", "--turn", "3", "--save-position", "pos.json")
    if argv[1] in ("results", "publish") or argv[1] == "replay" and ":" in argv[2]:
        given(clone, "batch", "hunter", "beeline", "--seeds", "1", "--max-turns", "5",
              "--workers", "1")
    if argv[1] == "replay" and ":" in argv[2]:         # DB:MATCH_ID: an id of that file
        db = argv[2].rpartition(":")[0]
        with sqlite3.connect(clone / db) as conn:
            argv[2] = f"{db}:{conn.execute('SELECT id FROM matches').fetchone()[0]}"
    if argv[1] == "maps" and "validate" in argv and "my_factory.json" in argv:
        shutil.copy2(ROOT / "maps" / "race" / "seed.json", clone / "my_factory.json")
    # The clone's .venv/bin/arena is `python -m orchestrator` there (the `clone` fixture):
    # run as a process forked from one that imported the clone's CLI once.
    done = clone_arena(clone, env).run(argv[1:], clone, 300, env)
    # compare's --max-games 4 (above) ends undecided: exit status 3 (docs/compare.md)
    expected = 3 if argv[1] == "compare" else 0
    assert done.returncode == expected, \
        f"{command}\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}"
    assert "Traceback" not in done.stdout + done.stderr


# -- the contestant's loop page, run in order -----------------------------------------------
LOOP = ROOT / "docs" / "contestant-loop.md"
# Commands played shorter than the page says (it is a worked example at full size).
LOOP_FAST = {"batch": ["--seeds", "3", "--max-turns", "60", "--workers", "1"],
             "compare": ["--max-games", "2", "--max-turns", "30", "--workers", "1"]}


def loop_steps() -> list[str]:
    """The shell lines of the loop page's code blocks (`arena ...`, `cp ...`), in order."""
    steps, fence = [], None
    for line in LOOP.read_text().splitlines():
        if line.startswith("```"):
            fence = line[3:] if fence is None else None
        elif fence == "" and line.startswith(("arena ", "cp ")):
            steps.append(line.split("  #")[0].strip())
    return steps


def loop_edit(text: str) -> str:
    """The page's ```diff block applied to `text`: each of its hunks (split at `@@`), its
    context lines with the `+` lines added where they stand."""
    diff = re.search(r"```diff\n(.*?)```", LOOP.read_text(), re.S).group(1)
    for hunk in diff.split("@@\n"):
        lines = hunk.splitlines()
        old = "".join(line[1:] + "\n" for line in lines if line.startswith(" "))
        new = "".join(line[1:] + "\n" for line in lines if line.startswith((" ", "+")))
        assert old in text and new != old, "the page's edit does not apply to its bot"
        text = text.replace(old, new, 1)
    return text


def test_the_loop_pages_worked_example_runs_in_order(tmp_path) -> None:
    """Every command of docs/contestant-loop.md, in order, in one folder: the batch, the
    listing of the lost games, a lost game's replay by its id (the listed one), a position
    saved from it, the bot and its edited copy from there, compare. The user's bot is
    Beeline named `Mine`, as the page says; matches are shorter than the page's."""
    steps = loop_steps()
    assert [s.split()[1] for s in steps if s.startswith("arena ")][:3] == \
        ["batch", "results", "results"] and "compare" in " ".join(steps)
    beeline = (ROOT / "bots" / "arena" / "beeline.py").read_text()
    (tmp_path / "my_bot.py").write_text(beeline.replace("name = 'Beeline'", "name = 'Mine'"))
    env = {**os.environ, "COLUMNS": "100"}
    arena = [sys.executable, "-m", "orchestrator"]
    lost: dict | None = None
    for step in steps:
        argv = shlex.split(step)
        if argv[0] == "cp":
            (tmp_path / argv[2]).write_text(loop_edit((tmp_path / argv[1]).read_text()))
            continue
        argv = argv[1:] + LOOP_FAST.get(argv[1], [])
        if argv[0] == "replay":                 # the page's id: the listing's lost game
            assert lost is not None, "the page replays a game before listing the lost ones"
            argv[1] = f"runs/arena.sqlite:{lost['match'][:12]}"
            if "--turn" in argv:
                at = argv.index("--turn") + 1
                argv[at] = str(min(int(argv[at]), lost["turns"] - 1))
        done = subprocess.run(arena + argv, cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=300)
        # compare's shortened --max-games (LOOP_FAST) ends undecided: exit status 3
        expected = 3 if argv[0] == "compare" else 0
        assert done.returncode == expected, \
            f"{step}\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}"
        assert "Traceback" not in done.stdout + done.stderr, step
        if argv[0] == "results" and "--lost" in argv:
            listed = json.loads(subprocess.run(arena + argv + ["--json"], cwd=tmp_path,
                                               capture_output=True, text=True,
                                               timeout=120).stdout)["games"]
            assert listed, f"Mine lost no game of the page's batch: {done.stdout}"
            lost = listed[0]
            assert lost["open"] in done.stdout
        if argv[0] == "run" and "my_bot_v2.py" in argv and "--turns" in argv:
            # The edit's marks and notes, printed with each turn.
            assert "marks of Mine: note" in done.stdout, done.stdout[-3000:]
        if "--save-position" in argv:
            assert "(2 bots, in seat order: Mine, Hunter)" in done.stderr, done.stderr
        if argv[0] == "run" and "my_bot_v2.py" in argv and "--turns" in argv:
            assert "turn " in done.stdout and "stopped after the turns asked for" in done.stdout
    assert (tmp_path / "runs" / "replays").is_dir() and (tmp_path / "lost.html").is_file()



def submission(sample: str, name: str, about: str) -> str:
    """A sample as a contestant sends it: its own name, and its strategy as the docstring."""
    text = (ROOT / "bots" / "arena" / sample).read_text()
    text = re.sub(r"^name = .*$", f"name = {name!r}", text, count=1, flags=re.M)
    return f'"""{about}"""\n{text}'


def test_the_game_master_page_runs_in_order(tmp_path) -> None:
    """From a folder of submissions (three honest, one that loops) to the published site:
    the check passes an honest bot, the tournament erases the looping one, the results and
    each game name why, and the site lists every AI with its description and its penalty."""
    steps = game_master_steps()
    assert [s.split()[1] for s in steps] == \
        ["check", "maps", "tournament", "results", "results", "publish"], steps
    subs = tmp_path / "subs"
    subs.mkdir()
    for file, (sample, name, about) in SUBMISSIONS.items():
        (subs / file).write_text(submission(sample, name, about))
    shutil.copy2(ROOT / "tests" / "hostile" / "spinner_loop.py", subs / "spinner.py")
    env = {**os.environ, "COLUMNS": "160"}
    said = {}
    for step in steps:
        argv = []
        for word in shlex.split(step)[1:]:                   # as the shell expands a glob
            argv += sorted(str(p.relative_to(tmp_path)) for p in tmp_path.glob(word)) \
                if "*" in word else [word]
        if argv[0] == "tournament":
            argv[argv.index("--games") + 1] = "4"
        argv += GAME_MASTER_FAST.get(argv[0], [])
        done = subprocess.run([sys.executable, "-m", "orchestrator", *argv], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{step}\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}"
        assert "Traceback" not in done.stdout + done.stderr, step
        said[" ".join(argv[:2]) if argv[0] == "results" and "--games" in argv else argv[0]] = \
            done.stdout
    assert "Alice's hunter" in said["check"]
    erased = "erased (cpu time limit, turn 1)"
    assert erased in said["tournament"] and "Alice" in said["tournament"], said["tournament"]
    assert "tournament" in said["results"] and "4/4" in said["results"], said["results"]
    assert said["results runs/official.sqlite"].count(erased) == 4, said
    site = tmp_path / "site"
    index = (site / "index.html").read_text()
    for _, name, about in SUBMISSIONS.values():
        assert name in index and html.escape(about) in index, name
    pages = {path: path.read_text() for path in (site / "ais").glob("*.html")}
    spinner = [text for text in pages.values() if "<h1>Spinner" in text or "Spinner</h1>" in text]
    assert len(pages) == 4 and len(spinner) == 1, sorted(pages)
    assert erased in spinner[0] and len(list((site / "matches").glob("*.html"))) == 4
