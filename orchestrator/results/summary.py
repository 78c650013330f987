"""What many matches say about each AI: rates with intervals, failures, game lengths."""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Hashable, Iterable, Mapping, TypedDict

from orchestrator.results.penalties import Penalties
from orchestrator.results.stats import wilson


class SummaryRow(TypedDict):
    """One AI's row of a summary (`summarize`), as `--json` prints it."""

    name: str
    bot: str
    sha256: str
    description: str
    games: int
    matches: int                    # the old name of "games", kept
    wins: int                       # sole first places
    draws: int                      # shared first places
    win_rate: float
    win_ci: list[float]             # its 95 % Wilson interval
    top2_rate: float
    mean_rank: float
    erased: int
    forfeits: int
    load_errors: int
    reasons: dict[str, int]         # "status: reason" -> games, most first
    penalties: list[str]            # every penalty in words (results/penalties.py)
    mean_score: float | None        # where the game scores its players
    mean_cpu_s: float | None
    mean_own_s: float | None        # None where no game kept it


class Lengths(TypedDict):
    """The games' lengths: min, median, max and a histogram of [low, high, games]."""

    min: int | None
    median: float | None
    max: int | None
    histogram: list[list[int]]


class Summary(TypedDict):
    """A summary of matches (`summarize`): a row per AI, best first, and the lengths."""

    players: list[SummaryRow]
    lengths: Lengths
    most_players: int               # the largest match's players: top-2 says nothing at 2


def by_seat(player: Mapping[str, Any]) -> Hashable:
    """A batch's entrant: every match of a batch seats the same lineup in the same order
    (the same file twice is two entrants; two bots may share a name)."""
    seat: Hashable = player["seat"]
    return seat


def by_file(player: Mapping[str, Any]) -> Hashable:
    """A tournament's entrant: a different file each (its path and its content)."""
    return player["bot"], player["sha256"]


class Tally:
    """The per-AI counts of `summarize`, kept one match at a time, so that a batch of any
    length holds one row per AI and one count per game length, not every result."""

    def __init__(self, key: Callable[[Mapping[str, Any]], Hashable] = by_seat) -> None:
        self.key = key
        self.table: dict[Hashable, dict[str, Any]] = {}
        self.turns: Counter[int] = Counter()
        self.matches = 0
        self.most_players = 0           # the largest match: top-2 says nothing at 2

    def add(self, match: Mapping[str, Any]) -> None:
        self.matches += 1
        self.most_players = max(self.most_players, len(match["players"]))
        self.turns[match["turns"]] += 1
        firsts = sum(1 for p in match["players"] if p["rank"] == 1)
        for p in match["players"]:
            row = self.table.setdefault(self.key(p), {
                "name": p["name"], "bot": p["bot"], "sha256": p["sha256"],
                "description": p.get("description") or "", "matches": 0,
                "wins": 0, "draws": 0, "top2": 0, "rank_sum": 0, "erased": 0, "forfeits": 0,
                "load_errors": 0, "reasons": Counter(), "score_sum": 0, "scores": 0,
                "cpu_sum": 0.0, "cpus": 0, "own_sum": 0.0, "owns": 0,
                "penalties": Penalties()})
            row["penalties"].add(p)
            row["matches"] += 1
            # Each figure the match kept (a results file from before own times: none).
            for figure, total, count in (("cpu_s", "cpu_sum", "cpus"),
                                         ("own_s", "own_sum", "owns")):
                if p.get(figure) is not None:
                    row[total] += p[figure]
                    row[count] += 1
            if isinstance((p.get("stats") or {}).get("score"), int):
                row["score_sum"] += p["stats"]["score"]
                row["scores"] += 1
            row["rank_sum"] += p["rank"]
            if p["rank"] == 1:
                row["wins" if firsts == 1 else "draws"] += 1
            row["top2"] += p["rank"] <= 2
            status = p["status"]
            if status != "ok":
                row[{"erased": "erased", "forfeit": "forfeits"}.get(status, "load_errors")] += 1
                row["reasons"][f"{status}: {p['reason']}"] += 1

    def report(self) -> Summary:
        players: list[SummaryRow] = []
        for row in self.table.values():
            n = row["matches"]
            players.append({
                "name": row["name"], "bot": row["bot"], "sha256": row["sha256"],
                "description": row["description"], "games": n,
                "matches": n,                  # the old name of "games", kept

                "wins": row["wins"], "draws": row["draws"],
                "win_rate": round(row["wins"] / n, 4),
                "win_ci": [round(x, 4) for x in wilson(row["wins"], n)],
                "top2_rate": round(row["top2"] / n, 4),
                "mean_rank": round(row["rank_sum"] / n, 3),
                "erased": row["erased"], "forfeits": row["forfeits"],
                "load_errors": row["load_errors"],
                "reasons": dict(row["reasons"].most_common()),
                "penalties": row["penalties"].lines(),
                "mean_score": round(row["score_sum"] / row["scores"], 2) if row["scores"]
                else None,
                "mean_cpu_s": round(row["cpu_sum"] / row["cpus"], 3) if row["cpus"] else None,
                "mean_own_s": round(row["own_sum"] / row["owns"], 3) if row["owns"] else None,
            })
        players.sort(key=lambda r: (-(r["mean_score"] or 0), -r["win_rate"], r["mean_rank"],
                                    r["name"]))
        return {"players": players, "lengths": lengths(self.turns),
                "most_players": self.most_players}


def summarize(matches: Iterable[Mapping[str, Any]],
              key: Callable[[Mapping[str, Any]], Hashable] = by_seat) -> Summary:
    """Per AI (`key` of a participant): matches, wins (sole first place), draws, win rate
    and its 95 % Wilson interval, top-2 rate, mean rank, erases, forfeits and load
    errors with their reasons, and every penalty in words (orchestrator/results/penalties.py);
    and the game lengths; its mean CPU and own seconds a game (None where no game kept
    it: own times in a results file from before them). Where a game scores its players
    (Cave Rangers), their mean score too, which then orders the table, as the seed's
    leaderboard did."""
    tally = Tally(key)
    for match in matches:
        tally.add(match)
    return tally.report()


def lengths(turns: Counter[int], bins: int = 10) -> Lengths:
    """min, median and max game length, and a histogram of `bins` equal ranges, from the
    number of games of each length."""
    if not turns:
        return {"min": None, "median": None, "max": None, "histogram": []}
    low, high = min(turns), max(turns)
    width = max(1, -(-(high - low + 1) // bins))
    counts: Counter[int] = Counter()
    for length, games in turns.items():
        counts[(length - low) // width] += games
    histogram = [[low + i * width, low + (i + 1) * width - 1, counts.get(i, 0)]
                 for i in range((high - low) // width + 1)]
    return {"min": low, "median": _median(turns), "max": high, "histogram": histogram}


def _median(turns: Counter[int]) -> float:
    """statistics.median of the lengths, without listing them."""
    total = sum(turns.values())
    middle = [(total - 1) // 2, total // 2]
    found: list[int] = []
    seen = 0
    for length in sorted(turns):
        seen += turns[length]
        while len(found) < 2 and seen > middle[len(found)]:
            found.append(length)
    return found[0] if found[0] == found[1] else (found[0] + found[1]) / 2
