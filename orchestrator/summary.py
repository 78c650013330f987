"""What many matches say about each AI: rates with intervals, failures, game lengths."""
from __future__ import annotations

import statistics
from collections import Counter
from typing import Callable

from orchestrator.stats import wilson


def summarize(matches: list[dict], key: Callable[[dict], str] = lambda p: p["name"]) -> dict:
    """Per AI (`key` of a participant): matches, wins (sole first place), draws, win rate
    and its 95 % Wilson interval, top-2 rate, mean rank, erases, forfeits and load
    errors with their reasons; and the game lengths. Where a game scores its players
    (Cave Rangers), their mean score too, which then orders the table, as the seed's
    leaderboard did."""
    table: dict[str, dict] = {}
    for match in matches:
        firsts = sum(1 for p in match["players"] if p["rank"] == 1)
        for p in match["players"]:
            row = table.setdefault(key(p), {
                "name": p["name"], "bot": p["bot"], "sha256": p["sha256"], "matches": 0,
                "wins": 0, "draws": 0, "top2": 0, "rank_sum": 0, "erased": 0, "forfeits": 0,
                "load_errors": 0, "reasons": Counter(), "scores": []})
            row["matches"] += 1
            if isinstance((p.get("stats") or {}).get("score"), int):
                row["scores"].append(p["stats"]["score"])
            row["rank_sum"] += p["rank"]
            if p["rank"] == 1:
                row["wins" if firsts == 1 else "draws"] += 1
            row["top2"] += p["rank"] <= 2
            status = p["status"]
            if status != "ok":
                row[{"erased": "erased", "forfeit": "forfeits"}.get(status, "load_errors")] += 1
                row["reasons"][f"{status}: {p['reason']}"] += 1
    players = []
    for row in table.values():
        n = row["matches"]
        players.append({
            "name": row["name"], "bot": row["bot"], "sha256": row["sha256"], "matches": n,
            "wins": row["wins"], "draws": row["draws"], "win_rate": round(row["wins"] / n, 4),
            "win_ci": [round(x, 4) for x in wilson(row["wins"], n)],
            "top2_rate": round(row["top2"] / n, 4), "mean_rank": round(row["rank_sum"] / n, 3),
            "erased": row["erased"], "forfeits": row["forfeits"],
            "load_errors": row["load_errors"], "reasons": dict(row["reasons"].most_common()),
            "mean_score": round(statistics.mean(row["scores"]), 2) if row["scores"] else None,
        })
    players.sort(key=lambda r: (-(r["mean_score"] or 0), -r["win_rate"], r["mean_rank"],
                                r["name"]))
    return {"players": players, "lengths": lengths([m["turns"] for m in matches])}


def lengths(turns: list[int], bins: int = 10) -> dict:
    """min, median and max game length, and a histogram of `bins` equal ranges."""
    if not turns:
        return {"min": None, "median": None, "max": None, "histogram": []}
    low, high = min(turns), max(turns)
    width = max(1, -(-(high - low + 1) // bins))
    counts = Counter((t - low) // width for t in turns)
    histogram = [[low + i * width, low + (i + 1) * width - 1, counts.get(i, 0)]
                 for i in range((high - low) // width + 1)]
    return {"min": low, "median": statistics.median(turns), "max": high,
            "histogram": histogram}
