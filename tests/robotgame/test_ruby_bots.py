"""Robot Game bots in Ruby: they play like Python bots, under the executables
sandbox, and the seed's example robot in Ruby acts exactly as the Python one."""
from __future__ import annotations

import functools
import json
import shutil
import subprocess
import sys
from array import array
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.robotgame.game import RobotGame
from engine.robotgame.mapfile import load_map
from engine.robotgame.rules import rules_from
from engine.streams import bot_key
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match
from sandbox.inprocess import child_runtime
from sandbox.limits import Limits
from sandbox.paths import BOTLIB
from tests.support.marks import HOST_WIDE
from tests.support.paths import ESCAPES
from tests.support.sandbox import (
    TIERS,
    knocked,
    sandbox_pids,
    survivors,
    tier_layers,
)

pytestmark = pytest.mark.skipif(shutil.which("ruby") is None,
                                reason="Ruby bots need Debian's ruby (make test installs it "
                                       "as root)")
ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "bots" / "robotgame"
HOSTILE = Path(__file__).parent / "hostile"
MAP = ROOT / "maps" / "robotgame" / "default.py"
FAST = Limits(cpu_per_call_s=1.0, wall_per_call_s=0.3, watchdog_grace_s=1.0,
              act_soft_s=0.05, first_act_soft_s=0.5, first_wall_s=1.0)


def play(bots: list[Path], seed: int = 1, turns: int = 100, sandbox: str = "standard",
         limits: Limits | None = None) -> dict:
    return run_match(MatchSpec("robotgame", MAP, [read_bot(b) for b in bots], seed,
                               rules_from(max_turns=turns), limits, sandbox))


def summary(result: dict) -> list[tuple]:
    return [(p["stats"]["robots"], p["status"], p["rank"]) for p in result["players"]]


def test_ruby_and_python_example_robots_play_the_same_game() -> None:
    python = play([BOTS / "example.py", BOTS / "example.py"], seed=3)
    for pair in ([BOTS / "example.rb", BOTS / "example.py"],
                 [BOTS / "example.py", BOTS / "example.rb"]):
        ruby = play(pair, seed=3)
        assert summary(ruby) == summary(python)
        assert all(p["errors"] == [] and p["stats"]["timeouts"] == 0 for p in ruby["players"])
        seat = [b.suffix for b in pair].index(".rb")   # players are listed by rank and name
        assert next(p for p in ruby["players"] if p["seat"] == seat)["sha256"] == \
            read_bot(BOTS / "example.rb").sha256


def _python_player(bot: str, ai: int, seed: int, info: dict):
    """The Python players' runtime for `bot`, in this process."""
    runtime = child_runtime()
    import _robotgame  # noqa: PLC0415
    module = runtime.load_bot((BOTS / bot).read_bytes(), bot, runtime.NoGuard(),
                              module_name=f"{bot.removesuffix('.py')}_{ai}")
    _robotgame.check_module(module)
    guard = runtime.NoGuard()
    guard.limits = {"act_soft_s": None}
    return _robotgame.RobotGameRuntime(module, {"ai": ai, "key": bot_key(seed, ai, 2),
                                                 "info": info}, guard)


def _recorded_states(seeds: range, every: int = 10) -> list[tuple]:
    """(start info, a player's view, its player id, the seed) at every `every`th turn of
    games of the Python example robot against itself, played in-process."""
    states = []
    board = load_map(MAP)
    for seed in seeds:
        match = RobotGame(board, ["a", "b"], seed, rules_from())
        players = {ai: _python_player("example.py", ai, seed, match.start_info(ai))
                   for ai in (0, 1)}
        while match.end is None:
            moves = {}
            for ai, view in match.views().items():
                reply = players[ai].handle(view)
                if match.turn % every == 0 and match.calls(ai):
                    states.append((match.start_info(ai), view, ai, seed))
                moves.update(match.decode_answer(ai, reply["moves"]))
            match.play_turn(moves)
    return states


@functools.cache
def _recorded_games(games: int) -> list[tuple]:
    return _recorded_states(range(games))


# 200 games (about 40 s) are a soak for `make bench`; make test's 50 games still hold
# over 500 states and thousands of robots' actions, with moves, attacks and guards. Both
# robots on one pytest-xdist worker, so that the games are recorded once.
@pytest.mark.xdist_group("ruby-recorded")
@pytest.mark.parametrize("games", [pytest.param(200, marks=pytest.mark.slow), 50])
@pytest.mark.parametrize("robot", ["example", "survivor"])
def test_ruby_robots_act_as_their_python_originals_on_recorded_states(robot, games) -> None:
    """`games` games' worth of states, every 10th turn of each, both players: the Ruby
    robot's actions, through the driver and the keeper's checks, are the Python robot's."""
    sys.path.insert(0, str(BOTLIB))
    import _rg_program  # noqa: PLC0415
    recorded = _recorded_games(games)
    assert len(recorded) > 10 * games
    lines, expected = [], []
    for info, view, ai, seed in recorded:
        rows = array("h", view["robots"])
        lines.append(json.dumps({"turn": view["turn"], "info": info, "player_id": ai,
                                 "key": bot_key(seed, ai, 2), "soft": 5.0,
                                 "first_soft": 5.0,
                                 "robots": [list(rows[i:i + 5]) for i in
                                            range(0, len(rows), 5)]}))
        expected.append(_python_player(f"{robot}.py", ai, seed, info).handle(view)["moves"])
    done = subprocess.run(["ruby", str(BOTLIB / "ruby" / "driver.rb"), str(BOTS / f"{robot}.rb")],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    answers = done.stdout.splitlines()
    assert len(answers) == len(recorded)
    acted = 0
    kinds = set()
    for answer, (_, view, _, _), python_moves in zip(answers, recorded, expected, strict=True):
        rows = array("h", view["robots"])
        own = [(rows[i], rows[i + 1]) for i in range(0, len(rows), 5) if rows[i + 4] >= 0]
        moves, errors = _rg_program.RobotGameProgram.decode(answer, own)
        assert errors == [] and moves == python_moves, (answer, python_moves)
        acted += len(own)
        kinds |= set(moves[::3])
    assert acted > 50 * games
    assert len(kinds) >= 3              # moves, attacks and guards at least


@dataclass(frozen=True)
class Case:
    bot: str
    status: str = "ok"            # ok, forfeit, or load_error (as a Python bot's)
    reason: str = ""              # in the forfeit's reason
    error: str = ""               # in the robots' errors (they guard)
    violation: str = ""           # a refused attempt the record must hold

    def __str__(self) -> str:
        return self.bot.removesuffix(".rb")


CASES = [
    Case("looper.rb", status="forfeit", reason="timeout: every act"),
    Case("setter_looper.rb", status="forfeit", reason="timeout: every act"),
    Case("stubborn.rb", status="forfeit", reason="hang"),
    Case("forker.rb", violation="process: clone"),
    Case("knocker.rb", violation="socket: socket"),
    Case("snoop.rb"),
    Case("raiser.rb", error="ArgumentError: boom"),
    Case("no_robot.rb", status="load_error", reason="the bot has no Robot class"),
    Case("broken.rb", status="load_error", reason="SyntaxError: /bot/broken.rb:3: syntax error"),
]


@HOST_WIDE
@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.parametrize("case", CASES, ids=str)
def test_hostile_ruby_bot(case: Case, tier: str, listeners, no_stray_processes) -> None:
    tier_layers(tier)                               # skips the bwrap tier without bwrap
    before = sandbox_pids()
    result = play([HOSTILE / case.bot, BOTS / "example.py"], turns=3, sandbox=tier,
                  limits=FAST)
    me = next(p for p in result["players"] if p["bot"].endswith(case.bot))
    other = next(p for p in result["players"] if p is not me)
    assert me["status"] == case.status, me
    assert case.reason in (me["reason"] or ""), me["reason"]
    if case.status == "ok":
        assert result["turns"] == 3
        errors = " ".join(me["errors"])
        assert case.error in errors, me["errors"]
        assert me["stats"]["timeouts"] == 0, me["stats"]
        if not case.error:
            assert me["errors"] == [], me["errors"]
    else:
        assert other["rank"] == 1 and me["rank"] == 2
        if case.reason.startswith("timeout"):       # two turns: the robots act from turn 1
            assert me["turn"] == 2, me
    if case.violation:
        assert case.violation in me["violations"], me["violations"]
    assert other["status"] == "ok" and other["errors"] == []
    assert "LEAK" not in json.dumps(result), me["output"]
    assert not knocked(listeners), "a Ruby bot reached the host over the network"
    assert not [p for p in ESCAPES if p.exists()]
    assert not survivors(before), "a sandboxed process survived the match"


# 100 seeds (about 40 s) are a soak for `make bench`; make test's 25 are the same check
# (exact, seed by seed) on fewer games.
@pytest.mark.parametrize("seeds", [pytest.param(100, marks=pytest.mark.slow), 25])
def test_ruby_against_python_is_symmetric_over_many_seeds(seeds: int) -> None:
    """Each seed played twice, the Ruby example robot in either seat: every seat's score is
    the same whichever language holds it."""
    from orchestrator.games import get_game  # noqa: PLC0415
    from orchestrator.runner import execute  # noqa: PLC0415
    from orchestrator.runner.schedule import Setup, plan_batch  # noqa: PLC0415
    from orchestrator.runner.series import Series  # noqa: PLC0415
    game = get_game("robotgame")
    setup = Setup.make(game, None, game.rules("rgkit"), game.limits, "standard")
    ruby, python = read_bot(BOTS / "example.rb"), read_bot(BOTS / "example.py")
    scores: dict[tuple[str, int], list[int]] = {}
    for order in ("rb-py", "py-rb"):
        lineup = [ruby, python] if order == "rb-py" else [python, ruby]
        for _, outcome in execute.run(Series(plan_batch(setup, lineup, list(range(seeds)))),
                                      "local", 2):
            players = sorted(outcome["result"]["players"], key=lambda p: p["seat"])
            assert all(p["status"] == "ok" for p in players), players
            scores[(order, outcome["result"]["seed"])] = [p["stats"]["robots"] for p in players]
    assert len(scores) == 2 * seeds
    for seed in range(seeds):
        assert scores[("rb-py", seed)] == scores[("py-rb", seed)], seed
    wins = sum(a > b for a, b in (scores[("rb-py", s)] for s in range(seeds)))
    losses = sum(a < b for a, b in (scores[("rb-py", s)] for s in range(seeds)))
    assert wins + losses > 0          # the seeds decide games, in both directions or one


def test_a_ruby_bot_without_ruby_is_a_load_error_naming_it(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))           # no ruby to be found
    result = play([BOTS / "example.rb", BOTS / "example.py"], turns=2)
    me = next(p for p in result["players"] if p["bot"].endswith("example.rb"))
    assert me["status"] == "load_error", me
    assert "runtime 'ruby' is not installed" in me["reason"]
