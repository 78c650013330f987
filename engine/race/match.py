"""Race some Robots' rules: decks, the five registers, pushes, belts, lasers, reboots and
checkpoints (spec/race.md; the 2016 RoboRally rules where the seed is silent).

Every random choice comes from a stream of its own, one-way derived from the match seed
and what it is for (`engine.streams`: a bot's deck, a round's play order, the start
squares), so a scripted scenario and a full game draw the same way, one bot's draws never
shift another's, and knowing one stream tells nothing of another.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import InputError
from engine.race.factory import STEP, Factory, right
from engine.streams import stream

DECK = {"M1": 3, "M2": 2, "M3": 2, "RT": 3, "LT": 3, "UT": 3, "MB": 2, "Ag": 2}   # 20
SPAM, AGAIN = "Sp", "Ag"
CARDS = (*DECK, SPAM)
MOVES = {"M1": 1, "M2": 2, "M3": 3}
TURNS = {"RT": 1, "LT": -1, "UT": 2}
HAND, REGISTERS = 9, 5
REBOOT_SPAM = 2
END_WIN, END_ROUNDS = "win", "round_limit"


def new_deck(spam: int = 0) -> list[str]:
    return [card for card, n in DECK.items() for _ in range(n)] + [SPAM] * spam


@dataclass
class Bot:
    """One racer: where it is, what it has scored, and its deck."""

    name: str
    x: int
    y: int
    d: str = "E"
    checkpoint: bool = False
    deck: list[str] = field(default_factory=new_deck)
    out: bool = False              # rebooted this round: no more registers, no firing
    reboots: int = 0
    hits: int = 0                  # laser hits taken
    last_card: str | None = None   # the previous register's card and what it did
    last_move: str | None = None

    @property
    def square(self) -> tuple[int, int]:
        return self.x, self.y

    @property
    def spam(self) -> int:
        return self.deck.count(SPAM)


class RaceMatch:
    """The board, the bots, and the rules that advance them a register at a time."""

    def __init__(self, factory: Factory, bots: list[Bot], seed: int, max_rounds: int) -> None:
        self.factory = factory
        self.bots = bots
        self.seed = seed
        self.max_rounds = max_rounds
        self.round = 0
        self.end: str | None = None
        self.winner: int | None = None
        self.decks = [stream(seed, "deck", i) for i in range(len(bots))]
        self.log: list[dict[str, Any]] = []          # the last round, register by register
        # the register being played: what a reboot adds to
        self._events: dict[str, Any] = {}

    @classmethod
    def start(cls, factory: Factory, names: list[str], seed: int, max_rounds: int
              ) -> "RaceMatch":
        """Bots on the start squares, in a seeded order, facing east until they choose."""
        if len(names) > len(factory.starts):
            raise InputError(f"{factory.name}: {len(factory.starts)} start squares cannot "
                             f"hold {len(names)} bots")
        squares = stream(seed, "starts").sample(factory.starts, len(factory.starts))
        return cls(factory, [Bot(name, *squares[i]) for i, name in enumerate(names)], seed,
                   max_rounds)

    # -- order and cards ---------------------------------------------------------------
    def play_order(self) -> list[int]:
        """The order of the round about to be played: closest to the antenna first; then
        the larger east-west distance; then a coin-flip seeded by that round."""
        ax, ay = self.factory.antenna
        coin = stream(self.seed, "order", self.round + 1)
        flips = [coin.random() for _ in self.bots]
        return sorted(range(len(self.bots)), key=lambda i: (
            abs(self.bots[i].x - ax) + abs(self.bots[i].y - ay), -abs(self.bots[i].x - ax),
            flips[i]))

    def deal(self, i: int) -> tuple[list[str], list[str]]:
        """Shuffle bot i's whole deck: (its hand of 9, the rest, in drawing order)."""
        deck = list(self.bots[i].deck)
        self.decks[i].shuffle(deck)
        return deck[:HAND], deck[HAND:]

    @staticmethod
    def program(picks: list[str], rest: list[str]) -> list[str | None]:
        """5 registers: the picks, then cards from the rest of the deck, in order."""
        program: list[str | None] = list(picks[:REGISTERS])
        return program + rest[:REGISTERS - len(picks[:REGISTERS])]

    # -- a round -----------------------------------------------------------------------
    def play_round(self, programs: dict[int, list[str | None]],
                   registers: int = REGISTERS, order: list[int] | None = None) -> None:
        """Round `self.round + 1`: five registers of cards, belts, lasers, checkpoints
        (a scenario may stop after fewer), in `order`, the play order the bots were told
        (by default, `play_order()`)."""
        order = order or self.play_order()
        self.round += 1
        self.log = []
        for bot in self.bots:
            bot.out = False
            bot.last_card = bot.last_move = None
        for register in range(registers):
            events: dict[str, Any] = {"cards": {}, "lasers": [], "reboots": []}
            self._events = events
            for i in order:
                bot = self.bots[i]
                card = (programs.get(i) or [None] * REGISTERS)[register]
                if bot.out:
                    continue
                events["cards"][i] = card
                self._play_card(i, card, register)
            self._belts()
            self._lasers()
            self.log.append(events | {"bots": [[b.x, b.y, b.d] for b in self.bots]})
            if self._checkpoints():
                return
        if self.round >= self.max_rounds:
            self.end = END_ROUNDS

    def _play_card(self, i: int, card: str | None, register: int) -> None:
        bot = self.bots[i]
        move = card
        if card == SPAM:
            if SPAM in bot.deck:               # a played Spam leaves the deck for good (it
                bot.deck.remove(SPAM)          # may have left already, drawn by another)
            move = self._draw(i, register)
        elif card == AGAIN:
            move = self._draw(i, register) if bot.last_card == SPAM else bot.last_move
        bot.last_card, bot.last_move = card, move
        self._execute(i, move)

    def _draw(self, i: int, register: int) -> str | None:
        """A random card of the deck; each Spam drawn leaves it and another is drawn. A
        drawn Again repeats the previous register's instruction."""
        bot = self.bots[i]
        while True:
            card = self.decks[i].choice(bot.deck)
            if card != SPAM:
                break
            bot.deck.remove(SPAM)
        if card == AGAIN:
            return bot.last_move if register > 0 else None
        return card

    def _execute(self, i: int, move: str | None) -> None:
        bot = self.bots[i]
        if move in TURNS:
            bot.d = right(bot.d, TURNS[move])
        elif move in MOVES:
            for _ in range(MOVES[move]):
                if not self._step(i, bot.d) or bot.out:
                    break
        elif move == "MB":
            self._step(i, right(bot.d, 2))

    # -- moving and pushing ------------------------------------------------------------
    def _at(self, square: tuple[int, int]) -> int | None:
        for i, bot in enumerate(self.bots):
            if bot.square == square:
                return i
        return None

    def _step(self, i: int, heading: str) -> bool:
        """Bot i moves one square, pushing the bots in front in a chain. False if it could
        not move (the antenna ahead of it or of the chain) or left the board."""
        dx, dy = STEP[heading]
        chain = [i]
        x, y = self.bots[i].square
        while True:
            x, y = x + dx, y + dy
            if (x, y) == self.factory.antenna:
                return False
            ahead = self._at((x, y)) if self.factory.inside(x, y) else None
            if ahead is None:
                break
            chain.append(ahead)
        fallen = []
        for k in reversed(chain):
            bot = self.bots[k]
            bot.x, bot.y = bot.x + dx, bot.y + dy
            if not self.factory.inside(bot.x, bot.y):
                fallen.append(k)
        for k in fallen:
            self._reboot(k)
        return i not in fallen

    def _reboot(self, i: int) -> None:
        """Off the board: onto the reboot square facing its way, pushing whoever is there
        along in a chain, with 2 Spam and no more registers or firing this round."""
        bot = self.bots[i]
        bot.x, bot.y = -1, -1                  # off the board while the square is cleared
        square = self.factory.reboot
        heading = self.factory.reboot_heading
        dx, dy = STEP[heading]
        chain = []
        x, y = square
        while (k := self._at((x, y))) is not None:
            chain.append(k)
            x, y = x + dx, y + dy
        for k in reversed(chain):              # the factory leaves room for six
            self.bots[k].x += dx
            self.bots[k].y += dy
        bot.x, bot.y = square
        bot.d = heading
        bot.deck += [SPAM] * REBOOT_SPAM
        bot.out = True
        bot.reboots += 1
        self._events["reboots"].append(i)

    # -- belts -------------------------------------------------------------------------
    def _belts(self) -> None:
        """Double belts move their bots twice (the second step by the belt each lands on),
        then single belts move theirs once. Each step is simultaneous."""
        belts = self.factory.belts
        express = [i for i, b in enumerate(self.bots) if b.square in belts and
                   belts[b.square].double]
        moved = self._belt_step(express)
        again = [i for i in moved if self.bots[i].square in belts]
        self._belt_step(again)
        single = [i for i, b in enumerate(self.bots) if i not in express and
                  b.square in belts and not belts[b.square].double]
        self._belt_step(single)

    def _belt_step(self, carried: list[int]) -> list[int]:
        """Carry these bots one square each, at once. A belt never pushes: a bot stops
        before a bot that is not carried along, two bots carried onto one square both
        stay, and two carried into each other's squares both stay. Returns those moved
        (and still on the board)."""
        belts = self.factory.belts
        target = {}
        for i in carried:
            bot = self.bots[i]
            dx, dy = STEP[belts[bot.square].heading]
            target[i] = (bot.x + dx, bot.y + dy)
        moving = {i for i in carried if target[i] != self.factory.antenna}
        while True:                            # stop bots until the rest can all move
            stopped = set()
            for i in moving:
                ahead = self._at(target[i])
                shared = any(j != i and target[j] == target[i] for j in moving)
                swap = ahead in moving and target[ahead] == self.bots[i].square
                if shared or swap or (ahead is not None and ahead not in moving):
                    stopped.add(i)
            if not stopped:
                break
            moving -= stopped
        fallen = []
        for i in sorted(moving):
            bot = self.bots[i]
            bot.x, bot.y = target[i]
            if not self.factory.inside(bot.x, bot.y):
                fallen.append(i)
            elif bot.square in belts and belts[bot.square].turn:
                bot.d = right(bot.d, belts[bot.square].turn)
        for i in fallen:
            self._reboot(i)
        return [i for i in sorted(moving) if i not in fallen]

    # -- lasers and checkpoints --------------------------------------------------------
    def _lasers(self) -> None:
        """Every bot still in the round fires ahead; the first bot in the beam takes a
        Spam. The beam stops at a bot, the antenna or the board's edge."""
        hits = []
        for bot in self.bots:
            if bot.out:
                continue
            dx, dy = STEP[bot.d]
            x, y = bot.x + dx, bot.y + dy
            target = None
            while self.factory.inside(x, y) and (x, y) != self.factory.antenna:
                target = self._at((x, y))
                if target is not None:
                    break
                x, y = x + dx, y + dy
            self._events["lasers"].append([bot.x, bot.y, x - dx if target is None else x,
                                           y - dy if target is None else y])
            if target is not None:
                hits.append(target)
        for target in hits:
            self.bots[target].deck.append(SPAM)
            self.bots[target].hits += 1

    def _checkpoints(self) -> bool:
        """C1 scores; C2 after C1 wins and ends the game at once."""
        for i, bot in enumerate(self.bots):
            if bot.square == self.factory.c1:
                bot.checkpoint = True
            elif bot.square == self.factory.c2 and bot.checkpoint:
                self.winner, self.end = i, END_WIN
                return True
        return False

    # -- standing ----------------------------------------------------------------------
    def distance_to_goal(self, i: int) -> int:
        bot = self.bots[i]
        gx, gy = self.factory.c2 if bot.checkpoint else self.factory.c1
        return abs(bot.x - gx) + abs(bot.y - gy)

    def ranking(self) -> list[int]:
        """The winner first; then checkpoints scored, then distance to the next one."""
        def key(i: int) -> tuple[Any, ...]:
            return (i != self.winner, not self.bots[i].checkpoint, self.distance_to_goal(i))
        keys = [key(i) for i in range(len(self.bots))]
        return [1 + sum(other < mine for other in keys) for mine in keys]
