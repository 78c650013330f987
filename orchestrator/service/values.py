"""The checks of the values a user gives that every command shares (a seed, the rule
overrides, the limits, a choice among names), so that the CLI and the API say the same
`error:` line; and `Interrupted`, a long run stopped by Ctrl-C."""
from __future__ import annotations

import dataclasses
import secrets
from typing import Any, Collection, Optional

from engine import InputError
from orchestrator import arguments
from orchestrator.games import GAMES, Game
from sandbox.limits import Limits


class Interrupted(Exception):
    """Ctrl-C during a long run: the message says what was kept. Exit status 130."""


def seed_or_draw(seed: Optional[int], span: int = 1) -> int:
    """The seed given, or one drawn from the OS, unguessable (63 bits): a match's hidden
    information (decks, rolls) is only as hidden as its seed. With `span`, the first of
    `span` seeds in a row, all of them within 0..SEED_MAX."""
    if seed is not None:
        return seed
    return secrets.randbelow(arguments.SEED_MAX - span + 2)


def rule_overrides(found: Game, robots: Optional[int], max_turns: Optional[int],
               random_spawn: bool = False) -> dict[str, Any]:
    arguments.check(robots=robots, max_turns=max_turns)
    rules: dict[str, Any] = {}
    if robots is not None:
        rules[found.options.robots_rule] = robots
    if max_turns is not None:
        rules["max_turns"] = max_turns
    if random_spawn:
        if not found.options.random_spawn:
            having = " or ".join(g.name for g in GAMES.values() if g.options.random_spawn)
            raise InputError(f"--random-spawn is a {having} option")
        rules["symmetric_spawn"] = False
    return rules


def game_limits(found: Game, cpu_limit: Optional[float], memory_mb: Optional[int]) -> Limits:
    """The game's default limits, with the command line's changes."""
    arguments.check(cpu_limit=cpu_limit, memory_mb=memory_mb)
    limits = found.limits
    if cpu_limit is not None:
        if limits.act_soft_s is not None:        # a timeout (the robot guards), not fatal
            limits = dataclasses.replace(limits, act_soft_s=cpu_limit, first_act_soft_s=None,
                                         cpu_per_call_s=max(limits.cpu_per_call_s,
                                                            4 * cpu_limit))
        else:
            limits = dataclasses.replace(limits, cpu_per_call_s=cpu_limit)
    if memory_mb is not None:
        limits = dataclasses.replace(limits, memory_mb=memory_mb)
    return limits


def check_choice(value: str, allowed: Collection[str], what: str) -> str:
    if value not in allowed:
        raise InputError(f"unknown {what} {value!r} (choose from: {', '.join(allowed)})")
    return value
