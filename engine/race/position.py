"""Race some Robots' state between rounds (engine/position.py): every bot (square,
facing, checkpoint, its deck with the spam it took, reboots, hits), each bot's deck
shuffler and the fallback generator, the round, the winner, whether the facings are
chosen, and the counters. Play order and each round's start squares are drawn from the
seed and the round, so they need no saving. The factory comes from the map file."""
from __future__ import annotations

from typing import Any

from engine import InputError
from engine.position import PositionHooks, State, rng_state
from engine.race.factory import HEADINGS, Factory
from engine.race.game import RaceGame
from engine.race.match import CARDS, DECK, END_ROUNDS, END_WIN, SPAM, Bot, new_deck
from engine.race.rules import Rules

MAX_DECK = 1_000              # a deck's cards, Spam included (engine/race/scenario.py too)
BASE_DECK = sorted(new_deck())
COUNTS = ("overheats", "timeouts", "invalid")
# bots: [x, y, facing, checkpoint, reboots, hits]
BOT_ROW = (int, int, str, bool, int, int)


def save(game: RaceGame) -> dict[str, Any]:
    match = game.match
    return {
        "turn": match.round, "end": match.end, "winner": match.winner,
        "started": game.started,
        "bots": [[b.x, b.y, b.d, b.checkpoint, b.reboots, b.hits] for b in match.bots],
        "decks": [list(b.deck) for b in match.bots],
        "deck_rngs": [rng_state(r) for r in match.decks],
        "fallback_rng": rng_state(game.fallback),
        "counts": [[c[k] for k in COUNTS] for c in game.counts],
        "decisions": list(game.decisions)}


def load(factory: Factory, names: list[str], seed: int, rules: Rules,
         data: dict[str, Any]) -> RaceGame:
    state = State(data)
    n = len(names)
    game = RaceGame(factory, names, seed, rules)
    match = game.match
    match.round = state.int("turn", 0, rules.max_turns)
    match.end = state.str("end", {END_WIN, END_ROUNDS}, optional=True)
    match.winner = state.optional_int("winner", 0, n - 1)
    game.started = state.bool("started")
    decks = state.list("decks", n)
    bots = []
    for i, (x, y, d, checkpoint, reboots, hits) in enumerate(
            state.rows("bots", BOT_ROW, n)):
        deck = decks[i]
        if not factory.inside(x, y) or d not in HEADINGS or min(reboots, hits) < 0:
            raise InputError(f"state.bots[{i}]: a square off the factory, a facing not "
                             f"one of {HEADINGS}, or a count below 0")
        if not isinstance(deck, list) or len(deck) > MAX_DECK or not all(
                isinstance(card, str) and card in CARDS for card in deck):
            raise InputError(f"state.decks[{i}]: must be at most {MAX_DECK} cards of "
                             f"{', '.join(CARDS)}")
        if sorted(card for card in deck if card != SPAM) != BASE_DECK:
            # A played card stays in the deck; only Spam comes and goes. A deck without
            # its 20 cards (only Spam, say) is no match's, and drawing from it would fail.
            raise InputError(f"state.decks[{i}]: must hold the 20 cards of a bot's deck "
                             f"({', '.join(f'{n} {c}' for c, n in DECK.items())}) and any "
                             f"Spam")
        bot = Bot(names[i], x, y, d, checkpoint, list(deck))
        bot.reboots, bot.hits = reboots, hits
        bots.append(bot)
    match.bots = bots
    rngs = state.list("deck_rngs", n)
    match.decks = [State({"rng": r}, f"state.deck_rngs[{i}]").rng("rng")
                   for i, r in enumerate(rngs)]
    game.fallback = state.rng("fallback_rng")
    game.counts = [dict(zip(COUNTS, State({"c": c}, f"state.counts[{i}]").ints(
        "c", len(COUNTS)), strict=True)) for i, c in enumerate(state.list("counts", n))]
    game.decisions = state.ints("decisions", n)
    return game


HOOKS = PositionHooks(save, load)
