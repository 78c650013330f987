"""Who beats whom in a results file (`arena results DB --matrix`, `--games`, and the API's
`ResultsStore.matrix()` and `.games()`): one computation that every output prints.

The matrix counts, for every ordered pair of entrants (A, B) that met, the games in which
A finished ahead of B (a win), level with B (a draw) or behind B (a loss), by the match's
ranks: in a two-player game that is the match's result; in a match of more players, each
pair of its players is one head-to-head. The win rate is wins / games, with its 95 %
Wilson interval, as in `arena results DB --run ID`. `by` splits each pair's games by the
map played or by A's seat.

An entrant is a bot's name and content (sha256): the same file in two runs is one
entrant, two versions of `my_bot.py` are two (labelled with the start of their sha256);
two files that share a bot's `name` are labelled with their file names.
"""
from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from engine import InputError
from orchestrator.results import penalties, score
from orchestrator.results.stats import wilson
from orchestrator.results.store import Store, StoredMatch
from orchestrator.service.values import check_choice
from orchestrator.text import ended, shown

SPLITS = ("map", "seat")
COLUMNS = ("entrant", "opponent", "games", "wins", "draws", "losses", "win_rate", "ci_low",
           "ci_high")


def selected(store: Store, run_id: str | None,
             map: str | None = None) -> Iterator[StoredMatch]:
    """The finished matches of one run (schedule order) or of the whole file (the order
    they finished in), of one map if `map` is given."""
    for match in store.iter_matches(run_id):
        if map is None or match["map"] == map:
            yield match


def outcome(mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> str:
    """`mine` against `theirs` in one match: "win", "draw" or "loss" by their ranks."""
    if mine["rank"] == theirs["rank"]:
        return "draw"
    return "win" if mine["rank"] < theirs["rank"] else "loss"


class Entrants:
    """The entrants met so far, keyed by (name, sha256), and the label each is shown by."""

    def __init__(self) -> None:
        self.found: dict[tuple[str, str], dict[str, Any]] = {}

    def key(self, player: Mapping[str, Any]) -> tuple[str, str]:
        key = (player["name"], player["sha256"])
        self.found.setdefault(key, {"name": player["name"], "bot": player["bot"],
                                    "sha256": player["sha256"]})
        return key

    def labels(self) -> dict[tuple[str, str], str]:
        """Each entrant's name; where two share a name, with its file's name when theirs
        differ (`Flagger (flagger_v2.py)`, as the author knows it), else its sha256's first
        8 digits (two versions of one `my_bot.py`)."""
        files: dict[str, list[str]] = {}
        for key, found in self.found.items():
            files.setdefault(key[0], []).append(Path(found["bot"]).name)
        labels = {}
        for (name, sha), found in self.found.items():
            file = Path(found["bot"]).name
            if len(files[name]) == 1:
                labels[name, sha] = name
            elif files[name].count(file) == 1:
                labels[name, sha] = f"{name} ({file})"
            else:
                labels[name, sha] = f"{name} ({sha[:8]})"
        return labels


def matrix(store: Store, run_id: str | None = None, bot: str | None = None,
           by: str | None = None, map: str | None = None) -> dict[str, Any]:
    """The matchup matrix of a run (or of the whole file): entrants, one cell per (entrant,
    opponent[, map or seat]) with its games, wins, draws, losses, win rate, Wilson
    interval and match ids, and each of those games. `bot`: only that entrant's rows."""
    if by is not None:
        check_choice(by, SPLITS, "--by")
    entrants = Entrants()
    counts: dict[tuple[Any, ...], dict[str, Any]] = {}
    games: dict[str, dict[str, Any]] = {}
    game_names: set[str] = set()
    for match in selected(store, run_id, map):
        game_names.add(match["game"])
        players = match["players"]
        keys = [entrants.key(p) for p in players]
        games[match["id"]] = _compact(match, keys)        # not its stats: any length
        for mine, me in zip(players, keys, strict=True):
            for theirs, them in zip(players, keys, strict=True):
                if mine is theirs:
                    continue
                split = (match["map"] if by == "map" else mine["seat"]) if by else None
                cell = counts.setdefault((me, them, split), {
                    "games": 0, "win": 0, "draw": 0, "loss": 0, "matches": []})
                cell["games"] += 1
                cell[outcome(mine, theirs)] += 1
                cell["matches"].append(match["id"])
    if map is not None and not games:
        _no_such_map(store, run_id, map)
    if len(game_names) > 1:
        raise InputError(f"{store.path}: holds matches of {len(game_names)} games "
                         f"({', '.join(sorted(game_names))}): choose one run with --run")
    labels = entrants.labels()
    chosen = _chosen(bot, labels) if bot is not None else None
    order = _strongest_first(counts, labels)
    cells = []
    for (me, them, split), c in sorted(counts.items(), key=lambda kv: (
            order[kv[0][0]], order[kv[0][1]], kv[0][2] if by else 0)):
        if chosen is not None and me not in chosen:
            continue
        low, high = wilson(c["win"], c["games"])
        cells.append({"entrant": labels[me], "opponent": labels[them],
                      **({by: split} if by else {}),
                      "games": c["games"], "wins": c["win"], "draws": c["draw"],
                      "losses": c["loss"], "win_rate": round(c["win"] / c["games"], 4),
                      "win_ci": [round(low, 4), round(high, 4)], "matches": c["matches"]})
    shown_ids = {mid for cell in cells for mid in cell["matches"]}
    kept = Kept(store.path)
    shown_labels = {cell[side] for cell in cells for side in ("entrant", "opponent")}
    return {
        "db": str(store.path), "run": run_id, "game": next(iter(game_names), None),
        "by": by, "bot": bot, "map": map,
        "entrants": [{"label": labels[key], **entrants.found[key]}
                     for key in sorted(labels, key=order.__getitem__)
                     if labels[key] in shown_labels],
        "splits": sorted({cell[by] for cell in cells}) if by else [],   # one type each
        "cells": cells,
        "games": {mid: _game(games[mid], labels, kept)
                  for mid in games if mid in shown_ids},
    }


def _chosen(bot: str, labels: dict[tuple[str, str], str], option: str = "--bot"
            ) -> set[tuple[str, str]]:
    """The entrants `--bot` (or `option`) names: by label, else every version of that
    name, else, whatever its case, the one name it spells (`hunter` for Hunter, as a
    sample is named on the command line)."""
    found = {key for key, label in labels.items() if label == bot} or \
        {key for key in labels if key[0] == bot}
    if not found and len(alike := {key[0] for key in labels
                                   if key[0].casefold() == bot.casefold()}) == 1:
        found = {key for key in labels if key[0] in alike}
    if not found:
        raise InputError(f"{option} {bot}: no entrant is named so (entrants: "
                         f"{', '.join(sorted(labels.values())) or 'none'})")
    return found


def _strongest_first(counts: dict[tuple[Any, ...], dict[str, Any]],
                     labels: dict[tuple[str, str], str]) -> dict[tuple[str, str], int]:
    """Each entrant's place in the matrix: the best head-to-head win rate first."""
    won: dict[tuple[str, str], list[int]] = {key: [0, 0] for key in labels}
    for (me, _, _), c in counts.items():
        won[me][0] += c["win"]
        won[me][1] += c["games"]
    ranked = sorted(labels, key=lambda k: (-won[k][0] / max(1, won[k][1]), labels[k]))
    return {key: i for i, key in enumerate(ranked)}


def _compact(match: StoredMatch, keys: list[tuple[str, str]]) -> dict[str, Any]:
    """What the matrix keeps of a game until the labels are known."""
    return {"id": match["id"], "seed": match["seed"], "map": match["map"],
            "turns": match["turns"], "end": match["end"], "replay": match["replay"],
            "players": [(key, p["seat"], p["rank"], p["status"], elimination_turn(p))
                        for key, p in zip(keys, match["players"], strict=True)]}


def _game(match: dict[str, Any], labels: dict[tuple[str, str], str],
          kept: "Kept") -> dict[str, Any]:
    """One game as a cell of the matrix lists it."""
    return {"id": match["id"], "seed": match["seed"], "map": match["map"],
            "turns": match["turns"], "end": match["end"],
            "players": [{"name": labels[key], "seat": seat, "rank": rank, "status": status,
                         "eliminated": out} for key, seat, rank, status, out in match["players"]],
            "open": kept.command(match)}


def matrix_rows(report: dict[str, Any]) -> tuple[list[str], list[tuple[Any, ...]]]:
    """The matrix as flat rows (CSV, the DataFrame): one per cell."""
    by = report["by"]
    columns = list(COLUMNS[:2]) + ([by] if by else []) + list(COLUMNS[2:])
    rows = [(c["entrant"], c["opponent"], *((c[by],) if by else ()), c["games"], c["wins"],
             c["draws"], c["losses"], c["win_rate"], c["win_ci"][0], c["win_ci"][1])
            for c in report["cells"]]
    return columns, rows


# -- the games of one bot --------------------------------------------------------------------
def elimination_turn(player: Mapping[str, Any]) -> int | None:
    """The turn a player was out of the game, where it was: the turn it was erased or
    forfeited; else, in a game whose stats say whether it still has `alive` pieces, the
    last turn it had any (`last_alive_turn`, Robot Arena) or lasted (`turns`, Cave
    Rangers). None for a player still in at the end, or a game with no elimination."""
    if player["status"] in ("erased", "forfeit") and player.get("turn") is not None:
        out_at: int = player["turn"]
        return out_at
    stats = player.get("stats") or {}
    if "alive" in stats and not stats["alive"]:
        for turn in (stats.get("last_alive_turn"), stats.get("turns")):
            if isinstance(turn, int):
                return turn
    return None


def result_of(player: Mapping[str, Any], players: Sequence[Mapping[str, Any]]) -> str:
    """"won" (sole first), "draw" (first, shared) or "lost" (any other place)."""
    if player["rank"] != 1:
        return "lost"
    return "draw" if sum(p["rank"] == 1 for p in players) > 1 else "won"


class Kept:
    """The replays kept beside a results file, listed once for a listing of any length."""

    def __init__(self, db: Path) -> None:
        self.db = Path(db)
        folder = self.db.parent / "replays"
        # Regular files only: a FIFO or a device planted under a replay's name (a folder
        # someone else made) would hold up whoever reads it.
        self.names = ({entry.name for entry in os.scandir(folder) if entry.is_file()}
                      if folder.is_dir() else set())

    def file(self, match: Mapping[str, Any]) -> Path | None:
        """The match's replay file (kept by the batch, or made by `arena replay DB:ID`,
        both beside the results file), or None."""
        name = f"{match['id']}.json.gz"
        if name in self.names:
            return self.db.parent / "replays" / name
        # Where the batch's working folder put it, as the results file says: only a file
        # of this name in a folder named replays (as a batch writes it). A forged row may
        # name any file (a secret, another match's replay), which arena would then read.
        kept = match.get("replay")
        if isinstance(kept, str) and len(kept) <= 4096 and shown(kept) == kept:
            path = Path(kept)
            if path.name == name and path.parent.name == "replays" and path.is_file():
                return path
        return None

    def command(self, match: Mapping[str, Any]) -> str:
        """The command that opens the game: its replay file, else its record."""
        found = self.file(match)
        target = str(found) if found else f"{self.db}:{match['id']}"
        return f"arena replay {shlex.quote(target)}"


def games(store: Store, bot: str | None, run_id: str | None = None, lost: bool = False,
          vs: str | None = None, map: str | None = None) -> dict[str, Any]:
    """The games of the entrant `bot` (of one run, or the whole file), those it lost with
    `lost`, against `vs`, on `map`: each with its id, seed, map, opponents, result, score,
    rank, turn of elimination, its CPU and own seconds (own: None in a results file from
    before own times) and the command that opens it. Without `bot`: every game, once
    (`every_game`)."""
    matches = list(selected(store, run_id, map))
    if map is not None and not matches:
        _no_such_map(store, run_id, map)
    entrants = Entrants()
    for match in matches:
        for p in match["players"]:
            entrants.key(p)
    labels = entrants.labels()
    if bot is None:
        return every_game(store, matches, entrants, labels, run_id, map)
    chosen = _chosen(bot, labels)
    opponents_named = _chosen(vs, labels, "--vs") if vs is not None else None
    rows = []
    played = 0                  # the games that --lost chose from
    kept = Kept(store.path)
    for match in matches:
        players = match["players"]
        for me in players:
            if entrants.key(me) not in chosen:
                continue
            others = [p for p in players if p is not me]
            if opponents_named is not None and not any(
                    entrants.key(p) in opponents_named for p in others):
                continue
            result = result_of(me, players)
            played += 1
            if lost and result != "lost":
                continue
            rows.append({"match": match["id"], "seed": match["seed"], "map": match["map"],
                         "bot": labels[entrants.key(me)], "seat": me["seat"],
                         "opponents": [labels[entrants.key(p)] for p in others],
                         "result": result, "score": score.said(match["game"], players, me),
                         "rank": me["rank"], "of": len(players),
                         "status": me["status"], "outcome": penalties.outcome(me),
                         "penalties": penalties.lines(me), "eliminated": elimination_turn(me),
                         "turns": match["turns"], "cpu_s": me["cpu_s"],
                         "own_s": me.get("own_s"), "open": kept.command(match)})
    return {"db": str(store.path), "run": run_id, "bot": bot, "lost": lost, "vs": vs,
            "map": map, "played": played, "games": rows}


def every_game(store: Store, matches: list[StoredMatch], entrants: Entrants,
               labels: dict[tuple[str, str], str], run_id: str | None,
               map: str | None) -> dict[str, Any]:
    """Every game once (`--games` without `--bot`): its players by rank, who won (or a
    draw), its score, how it ended, each player's penalties and the command that opens it."""
    kept = Kept(store.path)
    rows = []
    for match in matches:
        players = sorted(match["players"], key=lambda p: (p["rank"], p["seat"]))
        names = [labels[entrants.key(p)] for p in players]
        first = [name for p, name in zip(players, names, strict=True) if p["rank"] == 1]
        result = "draw" if score.draw(players) else \
            f"{' = '.join(first)} won" if first else "no winner"
        rows.append({"match": match["id"], "seed": match["seed"], "map": match["map"],
                     "players": names, "result": result,
                     "score": score.said(match["game"], players), "turns": match["turns"],
                     "end": ended(match["end"]),
                     "penalties": [f"{name}: {line}" for p, name in zip(players, names, strict=True)
                                   for line in penalties.lines(p)],
                     "open": kept.command(match)})
    return {"db": str(store.path), "run": run_id, "bot": None, "lost": False, "vs": None,
            "map": map, "played": len(rows), "games": rows}


GAME_COLUMNS = ("match", "seed", "map", "bot", "seat", "opponents", "result", "score",
                "outcome", "rank", "of", "eliminated", "turns", "cpu_s", "own_s", "penalties",
                "open")
EVERY_GAME_COLUMNS = ("match", "seed", "map", "players", "result", "score", "turns", "end",
                      "penalties", "open")


def games_rows(report: dict[str, Any]) -> tuple[list[str], list[tuple[Any, ...]]]:
    """`games`' rows for CSV (`arena results --games --export csv`): lists joined by "; ",
    an own time the file did not keep empty."""
    columns = GAME_COLUMNS if report["bot"] is not None else EVERY_GAME_COLUMNS
    return list(columns), [
        tuple("; ".join(row[c]) if isinstance(row[c], list) else "" if row[c] is None
              and c == "own_s" else row[c] for c in columns)
        for row in report["games"]]


def _no_such_map(store: Store, run_id: str | None, map: str) -> None:
    """`--map M` that no game of the file (or run) was played on: one error line naming
    the maps that were."""
    maps = sorted({match["map"] for match in selected(store, run_id)})
    where = f"run {run_id[:10]} of {store.path}" if run_id else str(store.path)
    raise InputError(f"--map {map}: no game of {where} was played on it (maps: "
                     f"{', '.join(maps) or 'none'})")
