"""Cave Rangers' rules (spec/cave.md): a cavern, its creatures, and the bots' turns.

A turn is `begin_turn` (poison, then the creatures), the bots' views, then `finish_turn`
with their answers (the bots act one by one, then Nurse Nina heals). Everything random
comes from one generator per match, one-way derived from the seed (`engine.streams`),
drawn in a fixed order.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.cave.constants import (
    ATTACK,
    ATTACK_DAMAGE,
    BATS,
    BITE_DAMAGE,
    BITERS,
    BOULDER,
    CENTIPEDE,
    CREATURES,
    DIRECTION_NAMES,
    DIRECTIONS,
    FOOD,
    FOOD_HEALTH,
    GOLD,
    GROUND,
    HOLD_TWICE,
    KNIFE,
    KNIFE_DAMAGE,
    LION,
    LION_DAMAGE,
    MAX_TURNS,
    ME,
    MOVE,
    NOISE_SYMBOLS,
    NURSE,
    NURSE_HEALTH,
    NURSE_STAY,
    OTHER_BOT,
    PIT,
    PIT_TURNS,
    POISON_DAMAGE,
    POISON_TURNS,
    REVEALER,
    REVEALER_RADIUS,
    REVEALER_TRUTH,
    START_HEALTH,
    VIEW_RADIUS,
    WATER,
)
from engine.streams import stream

ANSWER = re.compile(r"([MAH])(NN|NE|EE|SE|SS|SW|WW|NW)([MAH])(NN|NE|EE|SE|SS|SW|WW|NW)")
STEPS = tuple(DIRECTIONS.values())


@dataclass
class Bot:
    name: str
    row: int
    col: int
    health: int = START_HEALTH
    gold: int = 0
    turns: int = 0               # whole turns survived
    poison: int = 0              # turns of poison left
    stuck: int = 0               # coming turns whose moves do nothing (a pit)
    revealer: bool = False
    knife: bool = False
    alive: bool = True
    invalid: int = 0             # answers that were invalid, missing or late

    @property
    def score(self) -> int:
        return self.gold + self.turns

    def status_line(self) -> str:
        return (f"{self.health},{self.gold},{self.turns},{self.poison},{self.stuck},"
                f"{self.revealer},{self.knife}")


@dataclass
class Creature:
    kind: str                    # LION, CENTIPEDE or BATS
    row: int
    col: int


@dataclass
class Cavern:
    """The squares (an item, an obstacle or ground each), the creatures and Nurse Nina."""

    squares: list[list[str]]
    creatures: list[Creature] = field(default_factory=list)
    nurse: tuple[int, int] | None = None
    nurse_stay: int = 0          # turns Nina has stood where she is

    @property
    def side(self) -> int:
        return len(self.squares)

    def inside(self, row: int, col: int) -> bool:
        return 0 <= row < len(self.squares) and 0 <= col < len(self.squares[0])

    def rows(self) -> list[str]:
        """The cavern as text without bots: a creature hides the square it stands on."""
        shown = [list(row) for row in self.squares]
        for (row, col), symbol in self.occupants().items():
            shown[row][col] = symbol
        return ["".join(row) for row in shown]

    def occupants(self) -> dict[tuple[int, int], str]:
        """The symbol a view shows on each square where Nina or a creature stands."""
        shown: dict[tuple[int, int], str] = {}
        if self.nurse is not None:
            shown[self.nurse] = NURSE
        for kind in (BATS, CENTIPEDE, LION):         # painted last is shown
            for c in self.creatures:
                if c.kind == kind:
                    shown[(c.row, c.col)] = kind
        return shown


class CaveMatch:
    """One game: bots by index, in the order of `names`."""

    def __init__(self, cavern: Cavern, bots: list[Bot], seed: int,
                 max_turns: int = MAX_TURNS, creatures_move: bool = True,
                 order: list[int] | None = None) -> None:
        self.cavern = cavern
        self.bots = bots
        self.rng = stream(seed, "cave")
        self.max_turns = max_turns
        self.creatures_move = creatures_move
        self.order = order              # a fixed acting order (scenarios), else drawn
        self.turn = 0
        self.end: str | None = None
        self.several = len(bots) >= 2   # a lone bot plays on: "last bot" needs two

    # -- a turn --------------------------------------------------------------------------
    def begin_turn(self) -> None:
        """Steps 1 and 2: poison, then the creatures move and bite, and Nina may jump."""
        self.turn += 1
        for bot in self.living():
            if bot.poison > 0:
                bot.poison -= 1
                self._hurt(bot, POISON_DAMAGE)
        if self.creatures_move:
            for creature in self.cavern.creatures:
                self._wander(creature)
        for creature in self.cavern.creatures:
            if creature.kind in BITERS:
                self._bite(creature)
        if self.creatures_move and self.cavern.nurse is not None:
            self.cavern.nurse_stay += 1
            if self.cavern.nurse_stay > NURSE_STAY:
                self._nurse_jumps()

    def finish_turn(self, answers: dict[int, str | None]) -> None:
        """Steps 3 and 4: each bot's two actions, one bot after another, then Nina heals.
        `answers` are the bots' lines; a missing or invalid one is two holds."""
        living = [i for i, bot in enumerate(self.bots) if bot.alive]
        if self.order is not None:
            order = [i for i in self.order if i in living]
            order += [i for i in living if i not in order]
        else:
            order = living
            self.rng.shuffle(order)
        for i in order:
            bot = self.bots[i]
            if bot.alive:
                self._act(bot, self.parse(bot, answers.get(i)))
        if self.cavern.nurse is not None:
            for bot in self.living():
                if (bot.row, bot.col) == self.cavern.nurse:
                    bot.health += NURSE_HEALTH
        for bot in self.living():
            bot.turns = self.turn
        alive = len(self.living())
        if self.several and alive <= 1:
            self.end = "last_bot" if alive == 1 else "no_bots"
        elif not self.several and alive == 0:
            self.end = "no_bots"
        elif self.turn >= self.max_turns:
            self.end = "turn_limit"

    def play_turn(self, answers: dict[int, str | None]) -> None:
        self.begin_turn()
        self.finish_turn(answers)

    @staticmethod
    def parse(bot: Bot, answer: str | None) -> tuple[tuple[str, str], tuple[str, str]]:
        found = ANSWER.fullmatch(answer.strip()) if isinstance(answer, str) else None
        if found is None:
            bot.invalid += 1
            return HOLD_TWICE
        a, d, b, e = found.groups()
        return (a, d), (b, e)

    # -- what a bot sees -------------------------------------------------------------------
    def view(self, index: int) -> str:
        """The bot's input for this turn: its status line, then its view, one row a line."""
        bot = self.bots[index]
        radius = REVEALER_RADIUS if bot.revealer else VIEW_RADIUS
        shown = self._symbols(bot)
        lines = [bot.status_line()]
        for row in range(max(0, bot.row - radius), min(self.cavern.side, bot.row + radius + 1)):
            line = []
            for col in range(max(0, bot.col - radius),
                             min(self.cavern.side, bot.col + radius + 1)):
                symbol = shown.get((row, col)) or self.cavern.squares[row][col]
                if max(abs(row - bot.row), abs(col - bot.col)) > VIEW_RADIUS and \
                        self.rng.random() >= REVEALER_TRUTH:
                    symbol = self.rng.choice(NOISE_SYMBOLS)
                line.append(symbol)
            lines.append("".join(line))
        return "\n".join(lines) + "\n"

    def _symbols(self, me: Bot) -> dict[tuple[int, int], str]:
        """What stands on each occupied square, by the view's priority."""
        shown = self.cavern.occupants()
        for bot in self.living():
            shown[(bot.row, bot.col)] = OTHER_BOT
        shown[(me.row, me.col)] = ME
        return shown

    def living(self) -> list[Bot]:
        return [bot for bot in self.bots if bot.alive]

    # -- the rules -------------------------------------------------------------------------
    def _hurt(self, bot: Bot, damage: int) -> None:
        bot.health -= damage
        if bot.health <= 0:
            bot.alive = False        # leaves at once, keeps its gold; `turns` stays t - 1

    def _bot_at(self, row: int, col: int) -> Bot | None:
        return next((b for b in self.bots if b.alive and (b.row, b.col) == (row, col)), None)

    def _creature_at(self, row: int, col: int, kinds: tuple[str, ...] = CREATURES) -> bool:
        return any(c.kind in kinds and (c.row, c.col) == (row, col)
                   for c in self.cavern.creatures)

    def _wander(self, creature: Creature) -> None:
        """A random free neighbouring square, or stay: all nine equally likely."""
        options = [(creature.row, creature.col)]
        for dr, dc in STEPS:
            row, col = creature.row + dr, creature.col + dc
            if (self.cavern.inside(row, col) and self.cavern.squares[row][col] != BOULDER
                    and not self._creature_at(row, col)
                    and (creature.kind == BATS or self._bot_at(row, col) is None)):
                options.append((row, col))
        creature.row, creature.col = self.rng.choice(options)

    def _bite(self, creature: Creature) -> None:
        for bot in self.living():
            if max(abs(bot.row - creature.row), abs(bot.col - creature.col)) == 1:
                if creature.kind == LION:
                    self._hurt(bot, LION_DAMAGE)
                else:
                    bot.poison = POISON_TURNS
                    self._hurt(bot, BITE_DAMAGE)

    def _nurse_jumps(self) -> None:
        taken: set[tuple[int, int] | None] = {(b.row, b.col) for b in self.living()}
        taken |= {(c.row, c.col) for c in self.cavern.creatures}
        taken.add(self.cavern.nurse)
        ground = [(r, c) for r, row in enumerate(self.cavern.squares)
                  for c, square in enumerate(row) if square == GROUND and (r, c) not in taken]
        if ground:
            self.cavern.nurse = self.rng.choice(ground)
        self.cavern.nurse_stay = 1

    def _act(self, bot: Bot, actions: tuple[tuple[str, str], ...]) -> None:
        was_stuck = bot.stuck > 0
        fell = False
        confused = self._creature_at(bot.row, bot.col, (BATS,))
        for kind, direction in actions:
            if kind == MOVE:
                if confused:
                    direction = self.rng.choice(DIRECTION_NAMES)
                if not (was_stuck or fell):
                    fell = self._move(bot, direction)
            elif kind == ATTACK:
                self._attack(bot, direction)
        if was_stuck:
            bot.stuck -= 1

    def _free_for_bot(self, row: int, col: int) -> bool:
        return (self.cavern.inside(row, col) and self.cavern.squares[row][col] != BOULDER
                and self._bot_at(row, col) is None and not self._creature_at(row, col, BITERS))

    def _move(self, bot: Bot, direction: str) -> bool:
        """One square, or as close as it gets: a blocked diagonal tries its north-south
        part, then its east-west part. Returns whether the bot fell into a pit."""
        dr, dc = DIRECTIONS[direction]
        tries = [(bot.row + dr, bot.col + dc)]
        if dr and dc:
            tries += [(bot.row + dr, bot.col), (bot.row, bot.col + dc)]
        target = next((t for t in tries if self._free_for_bot(*t)), None)
        if target is None:
            return False
        bot.row, bot.col = target
        square = self.cavern.squares[bot.row][bot.col]
        if square == PIT:
            bot.stuck = PIT_TURNS
            return True
        if square == GOLD:
            bot.gold += 1
        elif square == FOOD:
            bot.health += FOOD_HEALTH
        elif square == WATER:
            bot.poison = 0
        elif square == REVEALER:
            bot.revealer = True
        elif square == KNIFE:
            bot.knife = True
        else:
            return False
        self.cavern.squares[bot.row][bot.col] = GROUND
        return False

    def _attack(self, bot: Bot, direction: str) -> None:
        dr, dc = DIRECTIONS[direction]
        row, col = bot.row + dr, bot.col + dc
        self.cavern.creatures = [c for c in self.cavern.creatures
                                 if (c.row, c.col) != (row, col)]
        victim = self._bot_at(row, col)
        if victim is not None:
            self._hurt(victim, KNIFE_DAMAGE if bot.knife else ATTACK_DAMAGE)
