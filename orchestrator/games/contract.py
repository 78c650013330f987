"""What a registered game owes the orchestrator beyond the match protocol's members, as
checks that name the game and what it lacks (docs/architecture.md, "The game contract"):
the keys of `stats()` the orchestrator reads (`engine.protocol.REQUIRED_STATS`,
`COUNTED_STATS`) and the members of its bot side. tests/unit/test_protocol.py runs them on
every game of the registry, so a game that omits one fails a test rather than a gate of
`arena check` never firing.
"""
from __future__ import annotations

from types import ModuleType
from typing import Any

from engine.protocol import COUNTED_STATS, REQUIRED_STATS
from orchestrator.games.entry import Game

# What the bot side's RUNTIME gets as `start`, once, before the first view
# (sandbox.frames.start_frame): every AI's name, its own index, its own key (never the
# match seed: engine.streams.bot_key), and the game's `start_info(ai)` (None when the
# game sends nothing).
START_KEYS = ("names", "ai", "key", "info")
COUNTS = ("decisions", "overheats", "timeouts", "invalid")


def required_stats(game: Game) -> dict[str, str]:
    """The keys every AI's `stats()` must hold for `game`, each with what reads it."""
    needed = dict(REQUIRED_STATS)
    if game.competition.ranked_by == "score":
        needed["score"] = COUNTED_STATS["score"]
    return needed


def stats_problems(game: Game, stats: Any) -> list[str]:
    """What one AI's `stats()` lacks or holds wrongly of the keys the orchestrator reads,
    one line each, naming the game and the key; [] when it keeps the contract."""
    if not isinstance(stats, dict):
        return [f"{game.name}: stats() gave {type(stats).__name__}, not a dict"]
    problems = [f"{game.name}: stats() lacks {key!r} ({why})"
                for key, why in required_stats(game).items() if key not in stats]
    for key in COUNTS:
        if key in stats and not _count(stats[key]):
            problems.append(f"{game.name}: stats()[{key!r}] is {stats[key]!r:.40}, not a "
                            f"count (an int of 0 or more)")
    faults = stats.get("faults", {})
    if not isinstance(faults, dict) or not all(
            isinstance(kind, str) and _count(n) for kind, n in faults.items()):
        problems.append(f"{game.name}: stats()['faults'] is {faults!r:.40}, not "
                        f"{{kind: count}}")
    ranked = game.competition.ranked_by == "score"        # summed per bot: an int
    if "score" in stats and type(stats["score"]) not in ((int,) if ranked else (int, float)):
        problems.append(f"{game.name}: stats()['score'] is {stats['score']!r:.40}, not "
                        f"{'an int (its tournaments rank by score)' if ranked else 'a number'}")
    return problems


def bot_side_problems(game: Game, side: ModuleType) -> list[str]:
    """What the game's bot side module (as a child loads it) lacks of the members the
    sandbox calls: `check_module(module)`, `RUNTIME` (None only for a game of programs),
    `WATCH_MODULE_STATE`, and `PROGRAM_ADAPTER` if it names one."""
    problems = []
    if not callable(getattr(side, "check_module", None)):
        problems.append(f"{game.name}: its bot side has no check_module(module)")
    runtime = getattr(side, "RUNTIME", None)
    if runtime is None and not game.programs:
        problems.append(f"{game.name}: its bot side has no RUNTIME class (only a game of "
                        f"programs has none)")
    elif runtime is not None and not callable(getattr(runtime, "handle", None)):
        problems.append(f"{game.name}: its bot side's RUNTIME has no handle(view)")
    if type(getattr(side, "WATCH_MODULE_STATE", None)) is not bool:
        problems.append(f"{game.name}: its bot side has no WATCH_MODULE_STATE (True or False)")
    adapter = getattr(side, "PROGRAM_ADAPTER", None)
    if adapter is not None and not (isinstance(adapter, tuple) and len(adapter) == 2):
        problems.append(f"{game.name}: its bot side's PROGRAM_ADAPTER is not (module, class)")
    return problems


def position_problems(game: Game) -> list[str]:
    """What the game lacks to save a match's state and start a match from one (`arena
    replay --save-position`, `arena run --from`): its rulebook's `position` hooks."""
    hooks = game.position
    if hooks is None:
        return [f"{game.name}: its rulebook has no position hooks (save(match) -> state, "
                f"load(map, names, seed, rules, state) -> match; engine/position.py)"]
    return [f"{game.name}: its position hooks' {part} is not callable"
            for part in ("save", "load") if not callable(getattr(hooks, part, None))]


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0
