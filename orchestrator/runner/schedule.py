"""Which matches a batch or a tournament plays, each as a MatchSpec with a stable id.

A planned match carries everything it is a function of (map text, bot sources, seed,
rules, limits), so it can run in any process or on any machine, and its id is a digest
of exactly that: the same arguments give the same ids, and a rerun skips what is done.

In a game whose bots keep a scratch directory across a series (Cave Rangers), a match is
also a function of the matches its entrants played before it: each entrant starts with
the scratch its previous match left. Such a match names those matches (`after`), and
its id includes them, so a series is a chain that a rerun resumes at the same link.
"""
from __future__ import annotations

import dataclasses
import hashlib
import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import ENGINE_VERSION, InputError
from orchestrator.games import Game
from orchestrator.results.store import digest
from orchestrator.runner.bots import BotFile, unique_names
from orchestrator.runner.match import MatchSpec
from sandbox.limits import Limits
from sandbox.modes import get_mode

FORMATS = ("round-robin", "ffa", "combinations")


@dataclass
class Planned:
    """One match to play: its place in the schedule, its id and its spec. A series
    match's spec gets its entrants' starting scratch as it starts (`Series.take`)."""

    ordinal: int
    match_id: str
    spec: MatchSpec
    # Series games: which entrant of the run sits in each seat, and the id of the match
    # each of them played before this one (None for an entrant's first match).
    entrants: tuple[int, ...] = ()
    after: tuple[str | None, ...] = ()


@dataclass(frozen=True)
class Setup:
    """What every match of a run shares."""

    game: Game
    map_path: Path
    map_text: str
    rules: Any
    limits: Limits
    sandbox: str

    @classmethod
    def make(cls, game: Game, map_ref: str | None, rules: Any, limits: Limits,
             sandbox: str) -> "Setup":
        path = game.find_map(map_ref)
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{path}: cannot read the map (not UTF-8 text)") from None
        game.parse_map(text, path.name)              # a bad map fails here, once
        return cls(game, path, text, rules, limits, sandbox)

    def plan(self, ordinal: int, lineup: list[BotFile], seed: int,
             entrants: tuple[int, ...] = (), after: tuple[str | None, ...] = ()) -> Planned:
        identity = {
            "game": self.game.name, "map": hashlib.sha256(self.map_text.encode()).hexdigest(),
            "rules": self.rules.as_dict(), "seed": seed, "engine": ENGINE_VERSION,
            "bots": [bot.sha256 for bot in lineup],
            "limits": dataclasses.asdict(self.limits),
            "sandboxed": get_mode(self.sandbox).isolates,
        }
        if get_mode(self.sandbox).whole_match:
            # A jail's result is not a standard match's (its bots share one process): a
            # batch in one mode never takes the other's results as its own.
            identity["jailed"] = True
        spec = MatchSpec(self.game.name, self.map_path, list(lineup), seed, self.rules,
                         limits=self.limits, sandbox=self.sandbox, map_text=self.map_text)
        if after:
            identity["after"] = list(after)
        return Planned(ordinal, digest(identity), spec, entrants, after)


def plan_batch(setup: Setup, bots: list[BotFile], seeds: list[int]) -> list[Planned]:
    """The same lineup, once per seed."""
    _check_lineup(setup.game, len(bots))
    bots = entrants(bots)
    seats = list(range(len(bots)))          # each seat is an entrant, even the same file twice
    return _plan_series(setup, [(bots, seed, seats) for seed in seeds])


def plan_tournament(setup: Setup, bots: list[BotFile], fmt: str, games: int, first_seed: int,
                    size: int | None = None) -> list[Planned]:
    """The matches of a tournament format.

    - round-robin: every pair, `games` games each; odd games swap the sides and replay the
      even game's seed, so each side plays each position;
    - ffa: every bot in every match, `games` matches, seats rotated each match;
    - combinations: every combination of `size` bots (the seed's "every combination of 6"),
      `games` games each.
    """
    if fmt not in FORMATS:
        raise InputError(f"unknown --format {fmt!r} (choose from: {', '.join(FORMATS)})")
    if games < 1:
        raise InputError(f"--games {games}: must be at least 1")
    seen: dict[str, BotFile] = {}
    for bot in bots:
        if bot.sha256 not in seen:
            seen[bot.sha256] = bot
            continue
        first = seen[bot.sha256]
        if first.path == bot.path:
            raise InputError(f"{bot.path}: given twice; a tournament needs different bots")
        # Results are keyed by content, so two copies would be one entrant under two names.
        raise InputError(f"{first.path} and {bot.path} have the same content; a tournament "
                         f"rates each bot once: give one of them")
    if len(bots) < 2:
        raise InputError("a tournament needs at least 2 bots")
    bots = entrants(bots)
    lineups: list[tuple[list[int], int]] = []          # entrant indexes, seed
    everyone = list(range(len(bots)))
    if fmt == "round-robin":
        _check_lineup(setup.game, 2)
        for a, b in itertools.combinations(everyone, 2):
            for k in range(games):
                lineups.append(([a, b] if k % 2 == 0 else [b, a], first_seed + k // 2))
    elif fmt == "ffa":
        _check_lineup(setup.game, len(bots))
        for k in range(games):
            turn = k % len(bots)
            lineups.append((everyone[turn:] + everyone[:turn], first_seed + k))
    else:
        size = size or 2
        if not 2 <= size <= len(bots):
            raise InputError(f"--size {size}: must be between 2 and the number of bots")
        _check_lineup(setup.game, size)
        for group in itertools.combinations(everyone, size):
            for k in range(games):
                lineups.append((list(group), first_seed + k))
    return _plan_series(setup, [([bots[e] for e in group], seed, group)
                                for group, seed in lineups])


def entrants(bots: list[BotFile]) -> list[BotFile]:
    """The run's lineup, each bot under a name no other entrant has, so that an entrant
    keeps one name in all its matches, whoever else plays (a match only de-duplicates
    the names of its own seats)."""
    names = unique_names([bot.name for bot in bots], [bot.path for bot in bots])
    return [dataclasses.replace(bot, name=name) for bot, name in zip(bots, names, strict=True)]


def _plan_series(setup: Setup, lineups: list[tuple[list[BotFile], int, list[int]]]
                 ) -> list[Planned]:
    """Plan (bots, seed, entrant per seat) in order; in a series game, chain each entrant's
    matches."""
    if not setup.game.programs:
        return [setup.plan(i, bots, seed) for i, (bots, seed, _) in enumerate(lineups)]
    last: dict[int, str] = {}
    planned = []
    for i, (bots, seed, entrants) in enumerate(lineups):
        item = setup.plan(i, bots, seed, tuple(entrants),
                          tuple(last.get(e) for e in entrants))
        last.update((e, item.match_id) for e in entrants)
        planned.append(item)
    return planned


def _check_lineup(game: Game, size: int) -> None:
    if game.players is not None and size != game.players:
        raise InputError(f"{game.shown.called or game.title} is for {game.players} players, "
                         f"not {size}")
    if size < 1:
        raise InputError("no bots given")


def plan_compare(setup: Setup, new: BotFile, old: BotFile, against: list[BotFile], pairs: int,
                 first_seed: int) -> list[Planned]:
    """`arena compare`'s games, two per pair, pair k on seed first_seed + k.

    Without opponents: NEW against OLD, then OLD against NEW (seats swapped). With them:
    NEW in one seat among the opponents, then OLD in that seat; the seat turns with k. In
    a two-player game with opponents (a pool): NEW against one opponent, then OLD against
    it, in the same seat on the same seed; pair k meets opponent (k mod 2m) // 2 of the
    m, in seat k mod 2, so that every 2m pairs (a round) meet each in both seats.
    Entrants: 0 is NEW, 1 is OLD, 2... the opponents.
    """
    bots = entrants([new, old, *against])
    pool = setup.game.players == 2 and bool(against)
    _check_lineup(setup.game, 2 if pool else 1 + len(against) if against else 2)
    lineups: list[tuple[list[BotFile], int, list[int]]] = []
    others = list(range(2, len(bots)))
    for k in range(pairs):
        seed = first_seed + k
        if pool:
            rival, seat = others[(k % (2 * len(others))) // 2], k % 2
            seatings = [[who, rival] if seat == 0 else [rival, who] for who in (0, 1)]
        elif not others:
            seatings = [[0, 1], [1, 0]]
        else:
            seat = k % (len(others) + 1)
            seatings = [others[:seat] + [who] + others[seat:] for who in (0, 1)]
        lineups += [([bots[e] for e in group], seed, group) for group in seatings]
    return _plan_series(setup, lineups)
