"""What happened in each turn of a short match (`arena run --from pos.json --turns K`).

For `--json` (`played_turns`): the turn's events (the game's own log) and every row of
the state that changed, field by field, before and after, the fields named by the
replay's map (`columns`) or the game's entry (`replay_shape.names`). For people
(`print_turns`): the turn in the game's words, its entry's `Shown.turn` (each piece with
its AI, its move by name, where it is; the events as sentences)."""
from __future__ import annotations

import json
from typing import Any

from rich.console import Console

from orchestrator.games import GAMES
from orchestrator.games.entry import Piece, TurnWords
from orchestrator.replay import debug
from orchestrator.replay import file as replays
from orchestrator.replay.reader import ai_players
from orchestrator.text import shown_text

MAX_SHOWN = 200                  # changed rows shown per turn in the terminal


def played_turns(data: dict) -> list[dict]:
    """Each turn of the replay `data`: {"turn", "events", "changes": [{"table", "id",
    "fields": {name: [before, after]}}], "gone": [{"table", "id"}]}."""
    frames = replays.Frames(data)
    report = []
    # A game that names turns as its bots see them (Robot Game's game.turn) names an entry
    # by the turn it was decided on: entry N, the board after it, is game.turn N - 1's.
    game = GAMES.get(data["game"]) if isinstance(data.get("game"), str) else None
    decided = 1 if game is not None and game.shown.seen_turns else 0
    for index, entry in enumerate(data["turns"], start=1):
        before = frames[index - 1][1]
        changes = []
        for table, rows in entry.get("changed", {}).items():
            names = _names(data, table)
            for row in rows:
                old = before.get(table, {}).get(row[0])
                fields = {(names[i] if i < len(names) else str(i)):
                          [old[i] if old is not None and i < len(old) else None, value]
                          for i, value in enumerate(row)
                          if i and (old is None or i >= len(old) or old[i] != value)}
                changes.append({"table": table, "id": row[0], "fields": fields})
        gone = [{"table": table, "id": rid} for table, ids in entry.get("gone", {}).items()
                for rid in ids]
        report.append({"turn": entry["turn"] - decided, "events": entry.get("events"),
                       "changes": changes, "gone": gone, **_marks(data, entry["turn"])})
    return report


def _marks(data: dict, turn: int) -> dict:
    """{"marks": {AI name: its debug marks of the turn}} where a bot made some
    (orchestrator/replay/debug.py), else nothing."""
    found = debug.turn_marks(data, turn)
    players = ai_players(data)
    named = {players[ai]["name"]: kept for ai, kept in found.items() if ai < len(players)}
    return {"marks": named} if named else {}


def print_marks(out: Console, turn: dict) -> None:
    """A turn's debug marks, a line each, under the AI that made them."""
    for name, kept in turn.get("marks", {}).items():
        for line in debug.described(kept):
            out.print(shown_text(f"  marks of {name}: {line}"))


def _names(data: dict, table: str) -> list[str]:
    columns = data["map"].get("columns")
    if isinstance(columns, dict) and isinstance(columns.get(table), list):
        return [str(name) for name in columns[table]]
    game = GAMES.get(data["game"])
    shape = game.replay_shape if game is not None else None
    return list(shape.names.get(table, ())) if shape is not None else []


def print_turns(out: Console, turns: list[dict], data: dict) -> None:
    """The report in the game's words (its entry's `Shown.turn`): per turn, each piece
    told to move or changed, with its AI, its move and where it is, then what happened."""
    names = [str(p["name"]) for p in ai_players(data)]
    game = GAMES.get(data["game"])
    tell = game.shown.turn if game is not None else None
    frames = replays.Frames(data)
    for index, turn in enumerate(turns, start=1):
        out.print(shown_text(f"turn {turn['turn']}", "bold"))
        print_marks(out, turn)
        if tell is not None:
            words = tell(data, names, frames[index - 1][1], frames[index][1], turn["events"])
        else:
            words = _rows_as_they_are(turn)
        if not words.pieces and not words.events:
            out.print("  nothing happened")
        for piece in words.pieces[:MAX_SHOWN]:
            out.print(shown_text(piece_line(piece, names)))
        if len(words.pieces) > MAX_SHOWN:
            out.print(f"  and {len(words.pieces) - MAX_SHOWN} more")
        for event in words.events:
            out.print(shown_text(f"  {event}"[:2000]))


def piece_line(piece: Piece, names: list[str]) -> str:
    """`  robot 4 (Hunter): TURN_RIGHT, now row 12 col 7 facing E (facing S -> E)`."""
    owner = f" ({names[piece.ai]})" if piece.ai is not None and piece.ai < len(names) else ""
    what = ", ".join(part for part in (piece.move, f"now {piece.at}" if piece.at else "")
                     if part)
    return f"  {piece.name}{owner}: {what or 'changed'}" + (
        f" ({piece.changed})" if piece.changed else "")


def _rows_as_they_are(turn: dict) -> TurnWords:
    """A game that tells no turn in its words: the rows that changed, and its events as
    the replay keeps them."""
    pieces = [Piece(f"{change['table']} {_text(change['id'])}", None, "", "",
                    ", ".join(f"{name} {_text(old)} -> {_text(new)}"
                              for name, (old, new) in change["fields"].items()))
              for change in turn["changes"]]
    pieces += [Piece(f"{gone['table']} {_text(gone['id'])}", None, "", "", "gone")
               for gone in turn["gone"]]
    events = json.dumps(turn["events"], separators=(",", ":"))[:2000]
    return TurnWords(tuple(pieces), (f"events: {events}",) if turn["events"] else ())


def _text(value: Any) -> str:
    return "-" if value is None else str(value)[:60]
