"""A match's score, in the game's own count: Robot Game's robots alive at the end, read
as rgkit's users read every game, `12–7`, `9–9 draw`. A game names the stat that is its
score (`Shown.score`); a game without one has no score (""). The one place that says it,
for `arena run`, `results --games` (its table, JSON and CSV), the published site and the
ladder's pages."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from orchestrator.games import GAMES

DASH = "–"


def stat_of(game: object) -> str:
    """The stat that is `game`'s score ("" for a game without one, or no known game)."""
    entry = GAMES.get(game) if isinstance(game, str) else None
    return entry.shown.score if entry is not None else ""


def _count(player: Mapping[str, Any], stat: str) -> int | None:
    value = (player.get("stats") or {}).get(stat)
    return value if type(value) is int else None


def draw(players: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the match ended level: every player shares the first rank."""
    return len(players) > 1 and all(p.get("rank") == 1 for p in players)


def said(game: object, players: Sequence[Mapping[str, Any]],
         first: Mapping[str, Any] | None = None) -> str:
    """`12–7` (the players by rank, then seat; `first`'s own count first when given),
    `9–9 draw`; "" when the game keeps no score or a player has none (forfeited before
    it played)."""
    stat = stat_of(game)
    if not stat or not players:
        return ""
    ordered = sorted(players, key=lambda p: (p is not first, p.get("rank") or 0,
                                             p.get("seat") or 0))
    counts = [_count(p, stat) for p in ordered]
    if any(count is None for count in counts):
        return ""
    return DASH.join(map(str, counts)) + (" draw" if draw(players) else "")


def named(game: object, players: Sequence[Mapping[str, Any]]) -> str:
    """`survivor 12–7 rusher`, `survivor 9–9 example, a draw` (two players, by rank);
    `a 3, b 2, c 1` for more; "" without a score."""
    text = said(game, players)
    if not text:
        return ""
    ordered = sorted(players, key=lambda p: (p.get("rank") or 0, p.get("seat") or 0))
    counts = text.removesuffix(" draw").split(DASH)
    if len(ordered) == 2:
        out = f"{ordered[0].get('name')} {counts[0]}{DASH}{counts[1]} {ordered[1].get('name')}"
    else:
        out = ", ".join(f"{p.get('name')} {count}"
                        for p, count in zip(ordered, counts, strict=True))
    return out + (", a draw" if draw(players) else "")

