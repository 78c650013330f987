"""Our Robot Game against rgkit's own engine (rgkit-py3, a test-only dependency).

1. Turn resolution, exactly: the same robots and actions, with attack damage fixed, give
   the same end locations and hp in both engines, on recorded rgkit games and on random
   crowded positions built to exercise chains, cycles, swaps and pile-ups.
2. Whole games, statistically: the same bots over 200 seeds in each engine win equally
   often, within their 95 % Wilson intervals (make bench; make test plays 50 seeds).
"""
from __future__ import annotations

import ast
import importlib
import random
import sys
from pathlib import Path

import pytest

from engine.robotgame.resolve import Robot, resolve
from engine.robotgame.rules import rules_from
from orchestrator.results.stats import wilson
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match
from sandbox.paths import BOTLIB
from tests.support.paths import ROOT


def _import_rgkit():
    """The real rgkit from site-packages (a test-only dependency: never skipped). An
    in-process match earlier in this session may have put the bots' `rgkit` shim first."""
    shim = str(BOTLIB)
    saved = list(sys.path)
    sys.path[:] = [p for p in sys.path if p != shim]
    for name in [m for m in sys.modules if m == "rgkit" or m.startswith("rgkit.")]:
        if shim in (getattr(sys.modules[name], "__file__", None) or ""):
            del sys.modules[name]
    try:
        return (importlib.import_module("rgkit.game"), importlib.import_module("rgkit.rg"),
                importlib.import_module("rgkit.gamestate").GameState,
                importlib.import_module("rgkit.settings").settings)
    finally:
        sys.path[:] = saved


rgkit_game, rgkit_rg, GameState, settings = _import_rgkit()

MAP = ROOT / "maps" / "robotgame" / "default.py"
BOTS = ROOT / "bots" / "robotgame"
FIXED_DAMAGE = 9


@pytest.fixture(scope="module", autouse=True)
def rgkit_map() -> None:
    """rgkit keeps its map in a global, and its bots import `rg`: its own, here."""
    settings.init_map(ast.literal_eval(MAP.read_text()))
    sys.modules["rg"] = rgkit_rg


def rgkit_turn(robots: list[tuple], actions: dict) -> list[tuple]:
    """rgkit's resolution of one turn, without spawning: (loc_end, hp_end) per robot."""
    state = GameState(seed=1)
    for loc, player, hp, rid in robots:
        state.add_robot(loc, player, hp, rid)
    state._attack_random.randint = lambda low, high: FIXED_DAMAGE
    delta = state.get_delta({loc: list(act) for loc, act in actions.items()}, spawn=False)
    return [(d.loc_end, d.hp_end) for d in delta]


def our_turn(robots: list[tuple], actions: dict) -> list[tuple]:
    bots = [Robot(loc, player, hp, rid) for loc, player, hp, rid in robots]
    return resolve(bots, actions, collision_damage=settings.collision_damage,
                   suicide_damage=settings.suicide_damage,
                   attack_damage=lambda: FIXED_DAMAGE)


def recorded_turns(bot_a: Path, bot_b: Path, seeds: range) -> list[tuple[list, dict]]:
    """(robots, actions) of every turn of real rgkit games."""
    players = [rgkit_game.Player(file_name=str(bot_a)), rgkit_game.Player(file_name=str(bot_b))]
    turns = []
    for seed in seeds:
        for player in players:
            player.load()
        game = rgkit_game.Game(players, seed=seed)
        while game._state.turn < settings.max_turns:
            state = game._state
            actions = game._get_robots_responses()[0]
            robots = [(loc, r.player_id, r.hp, r.robot_id) for loc, r in state.robots.items()]
            turns.append((robots, {loc: tuple(a) for loc, a in actions.items()}))
            game._state = state.apply_delta(state.get_delta(actions))
    return turns


@pytest.mark.parametrize("pair", [("coordinator.py", "rusher.py"), ("survivor.py", "example.py")])
def test_recorded_turns_resolve_exactly_alike(pair) -> None:
    turns = recorded_turns(BOTS / pair[0], BOTS / pair[1], range(5))
    busy = [t for t in turns if t[0]]
    assert len(busy) > 400
    for robots, actions in busy:
        assert our_turn(robots, actions) == rgkit_turn(robots, actions), (robots, actions)


def random_position(rng: random.Random) -> tuple[list, dict]:
    """Robots packed into a small window, each with a random legal action."""
    cx, cy = rng.randint(4, 14), rng.randint(4, 14)
    window = [(x, y) for x in range(cx - 2, cx + 3) for y in range(cy - 2, cy + 3)
              if (x, y) not in settings.obstacles]
    locs = rng.sample(window, min(len(window), rng.randint(2, 14)))
    robots, actions = [], {}
    for rid, loc in enumerate(locs):
        robots.append((loc, rng.randint(0, 1), rng.randint(1, 50), rid))
        open_squares = [n for n in around(loc) if n not in settings.obstacles
                        and all(0 <= v < 19 for v in n)]
        kind = rng.choice(["move", "move", "move", "attack", "guard", "suicide"])
        if kind in ("move", "attack") and open_squares:
            actions[loc] = (kind, rng.choice(open_squares))
        else:
            actions[loc] = ("guard",) if kind != "suicide" else ("suicide",)
    return robots, actions


def around(loc):
    x, y = loc
    return [(x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)]


def test_random_crowded_positions_resolve_exactly_alike() -> None:
    rng = random.Random(2026)
    for _ in range(3000):
        robots, actions = random_position(rng)
        assert our_turn(robots, actions) == rgkit_turn(robots, actions), (robots, actions)


def rgkit_wins(bot_a: Path, bot_b: Path, seeds: range) -> tuple[float, int]:
    """Points of bot A (win 1, draw 0.5) over the seeds, in rgkit."""
    players = [rgkit_game.Player(file_name=str(bot_a)), rgkit_game.Player(file_name=str(bot_b))]
    points = 0.0
    for seed in seeds:
        for player in players:
            player.load()
        game = rgkit_game.Game(players, seed=seed)
        game.run_all_turns()
        a, b = game.get_scores()
        points += 1.0 if a > b else 0.5 if a == b else 0.0
    return points, len(seeds)


def our_wins(bot_a: Path, bot_b: Path, seeds: range) -> tuple[float, int]:
    bots = [read_bot(bot_a), read_bot(bot_b)]
    points = 0.0
    for seed in seeds:
        result = run_match(MatchSpec("robotgame", MAP, bots, seed, rules_from()))
        ranks = {p["bot"]: p["rank"] for p in result["players"]}
        a, b = ranks[str(bot_a)], ranks[str(bot_b)]
        points += 1.0 if a < b else 0.5 if a == b else 0.0
    return points, len(seeds)


# 200 seeds (about 95 s a pair) are a soak for `make bench`. The 50 of `make test` give
# intervals about +-0.14 wide at an even rate (+-0.09 at 85 %): too coarse for a subtle
# rule drift, but a rule that changes who wins (a swapped collision, a lost spawn) moves a
# pair's rate by far more than both intervals together, and fails.
@pytest.mark.parametrize("seeds", [pytest.param(200, marks=pytest.mark.slow), 50])
@pytest.mark.parametrize("pair", [("survivor.py", "example.py"), ("rusher.py", "survivor.py")])
def test_win_rates_agree_over_many_seeds(pair, seeds: int) -> None:
    a, b = BOTS / pair[0], BOTS / pair[1]
    theirs = wilson(*rgkit_wins(a, b, range(seeds)))
    ours = wilson(*our_wins(a, b, range(seeds)))
    assert theirs[0] <= ours[1] and ours[0] <= theirs[1], (pair, theirs, ours)
