"""Cave Rangers behind the match protocol (engine/protocol.py): views, answers, a turn,
stats, ranking, replays, over `CaveMatch`, which holds the rules."""
from __future__ import annotations

from typing import Any

from engine.cave.constants import REVEALER_RADIUS, VIEW_RADIUS
from engine.cave.generate import generate, place_bots
from engine.cave.mapfile import CaveMap
from engine.cave.match import CaveMatch
from engine.cave.rules import Rules
from engine.protocol import MatchBase

# What can go wrong with a program in a turn (the sandbox's kinds), counted per bot.
FAULTS = ("hang", "cpu", "memory", "crash", "output")
ANSWER_TEXT = 256        # characters of an answer line the keeper keeps (_program.ANSWER_CAP)


class CaveGame(MatchBase):
    """One game of Cave Rangers between the bots `names`, in that order."""

    def __init__(self, cave_map: CaveMap, names: list[str], seed: int, rules: Rules) -> None:
        cavern = generate(len(names), seed) if cave_map.rows is None else cave_map.cavern()
        bots = place_bots(cavern, names, seed)
        self.match = CaveMatch(cavern, bots, seed, rules.max_turns)
        self.faults = [dict.fromkeys(FAULTS, 0) for _ in names]
        self.asked = [0] * len(names)           # turns each bot was asked to play
        self._asked: list[int] = []

    @property
    def turn(self) -> int:
        return self.match.turn

    @property
    def end(self) -> str | None:
        return self.match.end

    # -- a turn ----------------------------------------------------------------------------
    def views(self) -> dict[int, dict[str, Any]]:
        """Poison and creatures first; then each living bot's input block."""
        self.match.begin_turn()
        self._asked = [i for i, bot in enumerate(self.match.bots) if bot.alive]
        for i in self._asked:
            self.asked[i] += 1
        return {i: {"input": self.match.view(i)} for i in self._asked}

    def decode_answer(self, ai: int, moves: Any) -> dict[int, str | None]:
        """The keeper's {"answer": line or None, "problem": kind or None}, and nothing
        else: a line of at most ANSWER_TEXT characters, a fault of FAULTS."""
        if type(moves) is not dict or set(moves) != {"answer", "problem"}:
            raise ValueError(f"expected an answer record, got {moves!r:.80}")
        problem, answer = moves["problem"], moves["answer"]
        if problem is not None and (type(problem) is not str or problem not in FAULTS):
            raise ValueError(f"unknown fault {problem!r:.40}")
        if answer is not None and (type(answer) is not str or len(answer) > ANSWER_TEXT):
            raise ValueError(f"an answer is a line of at most {ANSWER_TEXT} characters")
        if problem is not None:
            self.faults[ai][problem] += 1
        return {ai: answer}

    def kept_answer(self, ai: int, moves: dict[str, Any]) -> dict[str, Any]:
        """The record `decode_answer` accepted, rebuilt from its checked parts."""
        return {"answer": moves["answer"], "problem": moves["problem"]}

    def play_turn(self, answers: dict[int, str | None]) -> dict[str, Any]:
        """The bots act (no answer: two holds), then Nina heals. Returns the answers."""
        self.match.finish_turn(answers)
        return {"answers": [[i, answers.get(i)] for i in self._asked]}

    # -- results ---------------------------------------------------------------------------
    def stats(self, ai: int) -> dict[str, Any]:
        bot = self.match.bots[ai]
        faults = {kind: n for kind, n in self.faults[ai].items() if n}
        return {"score": bot.score, "gold": bot.gold, "turns": bot.turns,
                "health": bot.health, "alive": bot.alive, "invalid": bot.invalid,
                "decisions": self.asked[ai], "faults": faults}

    def ranking(self) -> list[int]:
        """Higher score first; equal scores share a rank."""
        scores = [bot.score for bot in self.match.bots]
        return [1 + sum(other > mine for other in scores) for mine in scores]

    # -- replays ---------------------------------------------------------------------------
    def mark_square(self, ai: int, call: int, a: int, b: int) -> tuple[int, int] | None:
        """(row, col) of the view's rows as the input block gave them (row 0 its first row
        of the view, col 0 its first character), as (col, row) of the cavern."""
        if not 0 <= ai < len(self.match.bots):
            return None
        bot, side = self.match.bots[ai], self.match.cavern.side
        radius = REVEALER_RADIUS if bot.revealer else VIEW_RADIUS
        top, left = max(0, bot.row - radius), max(0, bot.col - radius)
        row, col = top + a, left + b
        if not (0 <= a and 0 <= b and row <= min(side - 1, bot.row + radius)
                and col <= min(side - 1, bot.col + radius)):
            return None
        return col, row

    def mark_piece(self, ai: int, call: int) -> Any:
        return ai                   # its bot's row of `bots`

    def replay_static(self) -> dict[str, Any]:
        return {"size": self.match.cavern.side}

    def replay_frame(self) -> dict[str, Any]:
        """bots [index, row, col, health, gold, alive, poison, stuck]; creatures [index,
        kind, row, col]; nurse [0, row, col]; squares [row, its symbols]."""
        cavern = self.match.cavern
        return {
            "bots": [[i, b.row, b.col, b.health, b.gold, int(b.alive), b.poison, b.stuck]
                     for i, b in enumerate(self.match.bots)],
            "creatures": [[i, c.kind, c.row, c.col] for i, c in enumerate(cavern.creatures)],
            "nurse": [[0, *cavern.nurse]] if cavern.nurse is not None else [],
            "squares": [[r, "".join(row)] for r, row in enumerate(cavern.squares)],
        }

    def snapshot(self) -> tuple[Any, ...]:
        bots = tuple((b.row, b.col, b.health, b.gold, b.alive) for b in self.match.bots)
        creatures = tuple((c.kind, c.row, c.col) for c in self.match.cavern.creatures)
        return (self.match.turn, self.match.end, bots, creatures, self.match.cavern.nurse)
