"""`arena`'s entry point starts the sandbox's zygote first, for the commands that use it."""
from __future__ import annotations

import subprocess
import sys

import pytest

from orchestrator.cli import launch
from orchestrator.cli.launch import wants_jail_zygote, wants_zygote
from sandbox import zygote


@pytest.mark.parametrize("args, wanted", [
    (["run"], True),
    (["run", "a.py", "b.py", "--seed", "3"], True),
    (["check", "bot.py", "--sandbox", "strict"], True),
    (["run", "--sandbox=standard"], True),
    (["run", "--sandbox", "off"], False),
    (["run", "--sandbox=bwrap"], False),
    (["run", "--help"], False),
    (["--debug", "run", "a.py", "b.py"], True),   # the app's own flags before the command
    (["-v", "check", "bot.py"], True),
    (["--debug", "run", "--sandbox", "off"], False),
    (["batch", "a.py", "b.py"], False),         # its workers start their own
    (["maps"], False),
    ([], False),
])
def test_only_sandboxed_run_and_check_warm_the_zygote(args, wanted) -> None:
    assert wants_zygote(args) is wanted


@pytest.mark.parametrize("args, wanted", [
    (["batch", "a.py", "b.py", "--sandbox", "match"], True),
    (["tournament", "a.py", "b.py", "c.py", "--sandbox=match"], True),
    (["compare", "a.py", "b.py", "--sandbox", "match", "--backend", "local"], True),
    (["batch", "a.py", "b.py", "--sandbox", "match", "--backend", "dask"], False),
    (["batch", "a.py", "b.py"], False),
    (["--debug", "batch", "a.py", "b.py", "--sandbox", "match"], True),
    (["batch", "a.py", "b.py", "--sandbox", "match", "--help"], False),
    (["run", "--sandbox", "match"], False),      # one match: its own jail, no zygote warmed
])
def test_jailed_batches_warm_the_jail_zygote(args, wanted) -> None:
    assert wants_jail_zygote(args) is wanted


@pytest.mark.parametrize("args, games", [
    (["batch", "a.py", "b.py", "--game", "robotgame", "--sandbox", "match"], ("robotgame",)),
    (["batch", "a.py", "b.py", "--sandbox=match", "--game=race"], ("race",)),
    (["batch", "a.py", "b.py", "--sandbox", "match"], ()),   # the bots will say: every game's
])
def test_the_jail_zygote_is_warmed_for_the_game_the_command_names(args, games) -> None:
    # The warmed zygote loads only what that game's engine imports on first use.
    assert launch.jail_games(args) == games


NUMPY_IN = """
def numpy_in(pid):
    with open(f"/proc/{pid}/maps") as f:
        return "_multiarray_umath" in f.read()

def play(name):
    game = get_game(name)
    bots = [read_bot(p) for p in game.demo_lineup(on_skip=lambda _: None)][:2]
    rules = game.rules(game.presets[0], max_turns=3)
    result = run_match(MatchSpec(name, game.find_map(None), bots, 1, rules, None, "match"))
    assert result["sandbox_mode"] == "match" and "sandbox_note" not in result, result
"""


def test_a_robot_game_jail_zygote_starts_without_numpy_and_an_arena_one_with_it() -> None:
    # Numpy is the arena engine's alone, 100 ms of CPU in every jail zygote: the
    # zygote started for a Robot Game match does not load it, and an arena match after it
    # gets a zygote of its own that does (its jails never import it themselves).
    code = """
from orchestrator.games import get_game
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match
from sandbox import matchjail
""" + NUMPY_IN + """
play("robotgame")
first = matchjail.jail_zygote_pid()
assert first is not None and not numpy_in(first), "numpy in a Robot Game jail zygote"
play("robotgame")
assert matchjail.jail_zygote_pid() == first
play("arena")
second = matchjail.jail_zygote_pid()
assert second != first and numpy_in(second), (first, second)
play("robotgame")                 # the new zygote serves the games of the last one too
assert matchjail.jail_zygote_pid() == second
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=180)
    assert done.stdout.strip() == "ok", done.stderr[-2000:]


def test_a_prestarted_zygote_is_the_one_that_forks_the_children() -> None:
    code = """
from sandbox import zygote
zygote.prestart()
first = zygote.zygote_pid()
assert first is not None
import os
r, w = os.pipe(); r2, w2 = os.pipe()
pid = zygote.zygote().spawn(r, w2, [])
assert zygote.zygote_pid() == first and pid != first
os.kill(pid, 9); os.waitpid(pid, 0)
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "ok", done.stderr


def test_a_zygote_that_cannot_start_fails_when_a_child_is_asked_for(monkeypatch) -> None:
    monkeypatch.setattr(zygote, "ZYGOTE_MAIN", zygote.ZYGOTE_MAIN.with_name("missing.py"))
    monkeypatch.setattr(zygote, "_current", None)
    zygote.prestart()                           # no error yet: it is still booting
    with pytest.raises(zygote.ZygoteError, match="did not start"):
        zygote.zygote().spawn(0, 1, [])
    assert zygote._current._control.fileno() == -1   # closed: the next zygote() starts anew
    assert not zygote._current.alive()


def test_the_jail_zygote_warmed_first_is_the_one_that_plays_the_match() -> None:
    # The entry point warms the zygote of the jail's job module the match names
    # (orchestrator.runner.JAIL_JOB): it is not started again for the first jailed match.
    code = """
from orchestrator.runner import JAIL_JOB
from sandbox import matchjail
first = matchjail.jail_zygote(JAIL_JOB).pid
from orchestrator.runner.bots import read_bot
from orchestrator.games import get_game
from orchestrator.runner.match import MatchSpec, run_match
game = get_game("robotgame")
bots = [read_bot(p) for p in game.demo_lineup(on_skip=lambda _: None)][:2]
rules = game.rules(game.presets[0], max_turns=3)
result = run_match(MatchSpec("robotgame", game.find_map(None), bots, 1, rules, None, "match"))
assert result["sandbox_mode"] == "match", result
assert matchjail.jail_zygote_pid() == first, (matchjail.jail_zygote_pid(), first)
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.strip() == "ok", done.stderr
