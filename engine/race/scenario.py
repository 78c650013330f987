"""Scripted positions (spec/race.md): a factory, bots and their registers, run through the
real engine, and the final state in the spec's shape."""
from __future__ import annotations

from typing import Any

from engine import InputError
from engine.race.factory import HEADINGS, SEED_FACTORY, check_cells
from engine.race.match import CARDS, DECK, REGISTERS, Bot, RaceMatch, new_deck

MAX_DECK = 1_000            # a deck's cards, Spam included (as a position's, position.py)
MAX_SPAM = MAX_DECK - sum(DECK.values())
MAX_BOTS = 64               # bots of one scenario (a race is 2 to 8)
MAX_ROUNDS = 1_000          # scripted rounds of one file (a race is 100)


def build(data: Any, name: str = "<scenario>") -> tuple[RaceMatch, list[str]]:
    """The match of a scenario, and the bots' ids in index order."""
    if not isinstance(data, dict):
        raise InputError(f"{name}: a scenario is a JSON object")
    cells = data.get("factory")
    factory = check_cells(SEED_FACTORY if cells is None else cells, name)
    bots: list[Bot] = []
    ids: list[str] = []
    listed = data.get("bots") or []
    if not isinstance(listed, list) or len(listed) > MAX_BOTS:
        raise InputError(f"{name}: 'bots' must be a list of at most {MAX_BOTS} bots")
    for n, spec in enumerate(listed):
        where = f"{name}: bot {n + 1}"
        if not isinstance(spec, dict) or not isinstance(spec.get("id"), str):
            raise InputError(f"{where}: must be an object with a string 'id'")
        x, y, d = spec.get("x"), spec.get("y"), spec.get("d")
        if not (type(x) is int and type(y) is int and factory.inside(x, y)):
            raise InputError(f"{where}: 'x' and 'y' must be a square of the factory")
        if (x, y) == factory.antenna or any(b.square == (x, y) for b in bots):
            raise InputError(f"{where}: ({x}, {y}) is the antenna or another bot's square")
        if d not in tuple(HEADINGS):
            raise InputError(f"{where}: 'd' must be one of N, E, S, W")
        if spec["id"] in ids:
            raise InputError(f"{where}: id {spec['id']!r} is used twice")
        spam = spec.get("spam", 0)
        checkpoint = spec.get("checkpoint", False)
        if type(spam) is not int or not 0 <= spam <= MAX_SPAM or type(checkpoint) is not bool:
            # Each Spam drawn leaves a deck of n cards: a deck's cost grows as n squared.
            raise InputError(f"{where}: 'spam' must be a count from 0 to {MAX_SPAM} and "
                             f"'checkpoint' a boolean")
        bots.append(Bot(spec["id"], x, y, d, checkpoint, new_deck(spam)))
        ids.append(spec["id"])
    seed = data.get("seed", 0)
    if type(seed) is not int or not 0 <= seed < 1 << 63:
        raise InputError(f"{name}: 'seed' must be an integer from 0 to 2^63 - 1")
    rounds = data.get("rounds", [])
    return RaceMatch(factory, bots, seed, max(1, len(rounds) if isinstance(rounds, list)
                                             else 1)), ids


def _registers(value: Any, where: str) -> list[str | None]:
    if not isinstance(value, list) or len(value) != REGISTERS or not all(
            card is None or card in CARDS for card in value):
        raise InputError(f"{where}: registers are a list of 5 cards ({', '.join(CARDS)}) "
                         f"or nulls")
    return value


def run(data: Any, name: str = "<scenario>") -> dict[str, Any]:
    """Play the scripted rounds (or until a bot wins); the final state. Our addition to
    the spec's format: "registers": n plays only the first n registers of the last round,
    so a test can look at one register."""
    match, ids = build(data, name)
    rounds = data.get("rounds", [])
    if not isinstance(rounds, list) or len(rounds) > MAX_ROUNDS or not all(
            isinstance(r, dict) for r in rounds):
        raise InputError(f"{name}: 'rounds' must be a list of at most {MAX_ROUNDS} objects "
                         f"of id: registers")
    last = data.get("registers", REGISTERS)
    if type(last) is not int or not 1 <= last <= REGISTERS:
        raise InputError(f"{name}: 'registers' must be 1 to 5")
    for n, scripted in enumerate(rounds):
        if match.end == "win":
            break
        unknown = sorted(set(scripted) - set(ids))
        if unknown:
            raise InputError(f"{name}: round {n + 1}: unknown bot {unknown[0]!r}")
        match.play_round({ids.index(i): _registers(cards, f"{name}: round {n + 1}, bot {i}")
                          for i, cards in scripted.items()},
                         last if n == len(rounds) - 1 else REGISTERS)
    return state(match, ids)


def state(match: RaceMatch, ids: list[str]) -> dict[str, Any]:
    bots = [{"id": i, "x": b.x, "y": b.y, "d": b.d, "checkpoint": b.checkpoint,
             "spam": b.spam} for i, b in zip(ids, match.bots, strict=True)]
    return {"round": match.round, "winner": None if match.winner is None else
            ids[match.winner], "bots": bots}
