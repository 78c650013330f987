"""The toy game behind the match protocol the orchestrator drives: one request per player
per turn, its step decoded here, then a turn of `Match`."""
from __future__ import annotations

from engine.protocol import MatchBase

from .match import STEPS, Board, Match, Rules


class ToyGame(MatchBase):
    """One match between the players `names`, in that order."""

    def __init__(self, board: Board, names: list[str], seed: int, rules: Rules) -> None:
        self.match = Match(board, len(names), seed, rules.max_turns)
        self.invalid = [0] * len(names)
        self.decisions = [0] * len(names)

    @property
    def turn(self) -> int:
        return self.match.turn

    @property
    def end(self) -> str | None:
        return self.match.end

    def views(self) -> dict[int, dict]:
        """Each player's view: the turn, where it and the others are, the coins left."""
        match = self.match
        for ai in range(len(match.at)):
            self.decisions[ai] += 1
        coins = sorted(match.coins)
        return {ai: {"turn": match.turn, "me": list(at),
                     "others": [list(b) for j, b in enumerate(match.at) if j != ai],
                     "coins": [list(c) for c in coins], "rows": list(match.board.rows)}
                for ai, at in enumerate(match.at)}

    def decode_answer(self, ai: int, moves) -> dict[int, str]:
        """The bot side's {"step": str}; anything else is a protocol error."""
        if type(moves) is not dict or set(moves) != {"step"} or \
                type(moves["step"]) is not str or len(moves["step"]) > 1:
            raise ValueError(f"expected a step record, got {moves!r:.80}")
        step = moves["step"]
        if step not in STEPS:
            self.invalid[ai] += 1
            step = "."
        return {ai: step}

    def kept_answer(self, ai: int, moves: dict) -> dict:
        return {"step": moves["step"]}

    def play_turn(self, steps: dict[int, str]) -> list[list]:
        return self.match.play(steps)

    def stats(self, ai: int) -> dict:
        return {"coins": self.match.score[ai], "invalid": self.invalid[ai],
                "decisions": self.decisions[ai]}

    def ranking(self) -> list[int]:
        return self.match.ranking()

    def replay_static(self) -> dict:
        """The map as rows of text, and the columns of each frame table."""
        rows = self.match.board.rows
        return {"size": max(len(rows), len(rows[0])), "grid": list(rows),
                "columns": {"players": ["id", "x", "y", "player", "coins"],
                            "coins": ["id", "x", "y"]}}

    def replay_frame(self) -> dict:
        match = self.match
        return {"players": [[i, x, y, i, match.score[i]] for i, (x, y) in enumerate(match.at)],
                "coins": [[f"{x},{y}", x, y] for x, y in sorted(match.coins)]}

    def replay_events(self, log: list[list]) -> list[list]:
        return log

    # A plugin game opts in to its bots' debug squares by these two (engine/protocol.py);
    # without them its bots' notes are still kept.
    def mark_square(self, ai: int, call: int, a: int, b: int) -> tuple[int, int] | None:
        rows = self.match.board.rows
        return (a, b) if 0 <= b < len(rows) and 0 <= a < len(rows[b]) else None

    def mark_piece(self, ai: int, call: int) -> int:
        return ai                   # its row of `players`

    def snapshot(self) -> tuple:
        match = self.match
        return (match.turn, match.end, tuple(match.at), tuple(match.score),
                tuple(sorted(match.coins)))
