"""`arena scenario --game toy FILE`: a map (rows of text), the players' steps per turn by
id (`1`, `2`), a seed; the state it ends in."""
from __future__ import annotations

from engine import InputError

from .match import Match, parse_map


def run(data: dict, filename: str) -> dict:
    if not isinstance(data, dict) or not isinstance(data.get("map"), list) or not all(
            isinstance(row, str) for row in data["map"]):
        raise InputError(f"{filename}: a toy scenario needs \"map\": a list of rows of text")
    board = parse_map("\n".join(data["map"]), filename)
    steps = data.get("steps", [])
    seed = data.get("seed", 1)
    if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps) or \
            type(seed) is not int:
        raise InputError(f"{filename}: \"steps\" must be a list of {{id: step}}, \"seed\" a "
                         f"number")
    match = Match(board, 2, seed, max(1, len(steps)))
    for turn in steps:
        match.play({int(pid) - 1: step for pid, step in turn.items() if pid in ("1", "2")})
    return {"turn": match.turn, "coins": len(match.coins),
            "players": [{"id": str(ai + 1), "x": x, "y": y, "coins": match.score[ai]}
                        for ai, (x, y) in enumerate(match.at)]}
