"""The toy game's state between turns (engine/position.py): where each player stands, its
coins, the coins left, the turn and the counters. Its random order is drawn from the
seed and the turn, so there is no generator to save."""
from __future__ import annotations

from engine import InputError
from engine.position import PositionHooks, State

from .game import ToyGame
from .match import Board, Rules


def save(game: ToyGame) -> dict:
    match = game.match
    return {"turn": match.turn, "end": match.end, "at": [list(at) for at in match.at],
            "score": list(match.score), "coins": sorted(list(c) for c in match.coins),
            "invalid": list(game.invalid), "decisions": list(game.decisions)}


def load(board: Board, names: list[str], seed: int, rules: Rules, data: dict) -> ToyGame:
    state = State(data)
    n = len(names)
    game = ToyGame(board, names, seed, rules)
    match = game.match
    match.turn = state.int("turn", 0, rules.max_turns)
    match.end = state.str("end", {"coins", "turns"}, optional=True)
    at = [tuple(xy) for xy in state.rows("at", (int, int), n)]
    coins = {tuple(xy) for xy in state.rows("coins", (int, int))}
    for where, squares in (("at", at), ("coins", coins)):
        if not all(board.free(x, y) for x, y in squares):
            raise InputError(f"state.{where}: a square off the map or on a wall")
    match.at, match.coins = at, coins
    match.score = state.ints("score", n)
    game.invalid, game.decisions = state.ints("invalid", n), state.ints("decisions", n)
    return game


HOOKS = PositionHooks(save, load)
