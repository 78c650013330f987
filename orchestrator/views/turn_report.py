"""What happened in each turn of a short match (`arena run --from pos.json --turns K`):
the turn's events (what each robot did: the game's own log) and every row of the state
that changed, field by field, before and after (why it changed: the events say).

Built from the match's replay, so it reads the same for every game; the fields are named
by the replay's map (`columns`) or the game's entry (`replay_shape.names`)."""
from __future__ import annotations

import json
from typing import Any

from rich.console import Console
from rich.table import Table

from orchestrator.games import GAMES
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
        report.append({"turn": entry["turn"], "events": entry.get("events"),
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


def print_turns(out: Console, turns: list[dict]) -> None:
    """The report as text: per turn, its events, then a table of the rows that changed."""
    for turn in turns:
        out.print(shown_text(f"turn {turn['turn']}: events "
                             f"{json.dumps(turn['events'], separators=(',', ':'))[:2000]}",
                             "bold"))
        print_marks(out, turn)
        if not turn["changes"] and not turn["gone"]:
            out.print("  nothing changed")
            continue
        table = Table(show_header=True, box=None, padding=(0, 1))
        for column in ("table", "id", "changed (before -> after)"):
            table.add_column(column)
        for change in turn["changes"][:MAX_SHOWN]:
            said = ", ".join(f"{name} {_text(old)} -> {_text(new)}"
                             for name, (old, new) in change["fields"].items())
            table.add_row(shown_text(change["table"]), shown_text(change["id"]),
                          shown_text(said))
        for gone in turn["gone"][:MAX_SHOWN]:
            table.add_row(shown_text(gone["table"]), shown_text(gone["id"]), "gone")
        out.print(table)


def _text(value: Any) -> str:
    return "-" if value is None else str(value)[:60]
