"""Race some Robots behind the match protocol (engine/protocol.py): a turn is a round (round
0: each bot chooses its facing), one request per bot per round, answers checked here
against the hand dealt, then the five registers of `RaceMatch`."""
from __future__ import annotations

from typing import Any

from engine.protocol import MatchBase
from engine.race.factory import HEADINGS, Factory
from engine.race.match import REGISTERS, RaceMatch
from engine.race.rules import Rules
from engine.streams import stream

# What the bot side reports besides an answer (the bot raised, or passed its time), and
# the stats that count them, named as in the other games.
PROBLEMS = {"error": "overheats", "timeout": "timeouts"}
# What an answer may be, as the bot side copies it (`_race.plain`): None, a text of at
# most ANSWER_TEXT characters (round 0's facing), or at most MOST_CARDS cards (a hand's
# most) of at most CARD_TEXT characters each. Whether it is a legal facing or program
# is the game's (an invalid answer); anything else breaks the protocol.
ANSWER_TEXT, MOST_CARDS, CARD_TEXT = 8, 9, 4


def check_picks(picks: object, hand: list[str]) -> list[str] | None:
    """The picks if they are at most 5 cards taken from the hand (as many of each as it
    holds), else None."""
    if not isinstance(picks, list) or len(picks) > REGISTERS:
        return None
    left = list(hand)
    for card in picks:
        if not isinstance(card, str) or card not in left:
            return None
        left.remove(card)
    return list(picks)


def answer_problem(answer: object) -> str | None:
    """Why `answer` is not one the bot side can send (None: it is)."""
    if answer is None:
        return None
    if type(answer) is str:
        return None if len(answer) <= ANSWER_TEXT else \
            f"an answer is at most {ANSWER_TEXT} characters"
    if type(answer) is not list or len(answer) > MOST_CARDS:
        return f"an answer is a text or at most {MOST_CARDS} cards"
    if not all(type(card) is str and len(card) <= CARD_TEXT for card in answer):
        return f"a card is a text of at most {CARD_TEXT} characters"
    return None


class RaceGame(MatchBase):
    """One race between the bots `names`, in that order."""

    first_turn = 0

    def __init__(self, factory: Factory, names: list[str], seed: int, rules: Rules) -> None:
        self.match = RaceMatch.start(factory, names, seed, rules.max_turns)
        self.order: list[int] = []
        self.hands: dict[int, tuple[list[str], list[str]]] = {}
        self.counts = [{"overheats": 0, "timeouts": 0, "invalid": 0} for _ in names]
        self.decisions = [0] * len(names)
        self.fallback = stream(seed, "fallback")
        self.started = False               # round 0, the choice of facing, is played
        self._failed: set[int] = set()     # bots whose call this round raised or timed out

    @property
    def turn(self) -> int:
        return self.match.round

    @property
    def end(self) -> str | None:
        return self.match.end

    # -- a round ---------------------------------------------------------------------------
    def start_info(self, ai: int) -> dict[str, Any]:
        """The factory, sent once: the bot side hands each call a fresh copy."""
        return {"factory": self.match.factory.to_data()}

    def views(self) -> dict[int, dict[str, Any]]:
        """Each bot's call: round, order, position, score, its 9 cards, the other bots."""
        match = self.match
        self.order = match.play_order()
        rank = {ai: n + 1 for n, ai in enumerate(self.order)}
        starting = not self.started
        self._failed = set()
        views = {}
        for ai, bot in enumerate(match.bots):
            if starting:
                cards: list[str] = []
            else:
                self.hands[ai] = match.deal(ai)
                cards = self.hands[ai][0]
            self.decisions[ai] += 1
            views[ai] = {"round": match.round + (0 if starting else 1), "order": rank[ai],
                         "position": [bot.x, bot.y, bot.d], "score": bot.checkpoint,
                         "cards": cards,
                         "bots": [[b.x, b.y, b.d] for j, b in enumerate(match.bots) if j != ai]}
        return views

    def decode_answer(self, ai: int, moves: Any) -> dict[int, object]:
        """The bot side's {"answer": plain data} or {"problem": "error"|"timeout"}, and
        nothing else (`answer_problem`)."""
        if type(moves) is not dict or len(moves) != 1:
            raise ValueError(f"expected an answer record, got {moves!r:.80}")
        if "problem" in moves:
            problem = moves["problem"]
            if type(problem) is not str or problem not in PROBLEMS:
                raise ValueError(f"unknown problem {problem!r:.40}")
            self.counts[ai][PROBLEMS[problem]] += 1
            self._failed.add(ai)
            return {ai: None}
        if "answer" not in moves:
            raise ValueError(f"expected an answer record, got {moves!r:.80}")
        why = answer_problem(moves["answer"])
        if why:
            raise ValueError(why)
        return {ai: moves["answer"]}

    def kept_answer(self, ai: int, moves: dict[str, Any]) -> dict[str, Any]:
        """The record `decode_answer` accepted, rebuilt from its checked parts."""
        if "problem" in moves:
            return {"problem": str(moves["problem"])}
        answer = moves["answer"]
        return {"answer": list(answer) if type(answer) is list else answer}

    def play_turn(self, answers: dict[int, object]) -> dict[str, Any]:
        """Round 0 sets each bot's facing; later rounds play the five registers. A bad or
        missing answer is a random facing, or random cards from the rest of the deck."""
        match = self.match
        if not self.started:
            self.started = True
            for ai, bot in enumerate(match.bots):
                facing = answers.get(ai)
                if not (isinstance(facing, str) and len(facing) == 1 and facing in HEADINGS):
                    self._count_invalid(ai)
                    facing = self.fallback.choice(HEADINGS)
                bot.d = facing
            return {"facing": [bot.d for bot in match.bots]}
        programs = {}
        for ai in range(len(match.bots)):
            hand, rest = self.hands[ai]
            picks = check_picks(answers.get(ai), hand)
            if picks is None:
                self._count_invalid(ai)
                picks = []
            programs[ai] = match.program(picks, rest)
        match.play_round(programs, order=self.order)
        return {"order": self.order, "programs": [programs[ai] for ai in range(len(programs))],
                "registers": match.log}

    def _count_invalid(self, ai: int) -> None:
        if ai not in self._failed:         # an error or a timeout is counted as such
            self.counts[ai]["invalid"] += 1

    # -- results ---------------------------------------------------------------------------
    def stats(self, ai: int) -> dict[str, Any]:
        bot = self.match.bots[ai]
        return {"won": self.match.winner == ai, "checkpoint": bot.checkpoint,
                "distance": self.match.distance_to_goal(ai), "rounds": self.match.round,
                "reboots": bot.reboots, "hits": bot.hits, "spam": bot.spam,
                "decisions": self.decisions[ai], **self.counts[ai]}

    def ranking(self) -> list[int]:
        return self.match.ranking()

    # -- replays ---------------------------------------------------------------------------
    def mark_square(self, ai: int, call: int, a: int, b: int) -> tuple[int, int] | None:
        """The factory's (x, y), as the bots' positions give it."""
        factory = self.match.factory
        return (a, b) if 0 <= a < factory.width and 0 <= b < factory.height else None

    def mark_piece(self, ai: int, call: int) -> Any:
        return ai                   # its bot's row of `bots`

    def replay_static(self) -> dict[str, Any]:
        factory = self.match.factory
        return {"size": max(factory.width, factory.height), "width": factory.width,
                "height": factory.height, "cells": factory.to_data()}

    def replay_frame(self) -> dict[str, Any]:
        """bots [index, x, y, facing, checkpoint, spam, reboots]."""
        return {"bots": [[i, b.x, b.y, b.d, int(b.checkpoint), b.spam, b.reboots]
                         for i, b in enumerate(self.match.bots)]}

    def snapshot(self) -> tuple[Any, ...]:
        return (self.match.round, self.match.end, self.match.winner,
                tuple((b.x, b.y, b.d, b.checkpoint, tuple(b.deck)) for b in self.match.bots))

