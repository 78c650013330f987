"""The batch summary kept one match at a time (Tally) equals the one computed over the
whole list, down to the median game length."""
from __future__ import annotations

import random
import statistics
from collections import Counter

from orchestrator.results.summary import Tally, _median, lengths, summarize


def fake_match(rng: random.Random) -> dict:
    names = ["a", "b", "c"]
    ranks = [rng.randint(1, 3) for _ in names]
    return {"turns": rng.randint(1, 90), "players": [
        {"name": n, "seat": seat, "bot": f"{n}.py", "sha256": n * 64, "rank": r,
         "status": rng.choice(["ok", "ok", "ok", "erased", "forfeit"]),
         "reason": rng.choice(["cpu time limit", "hang"]),
         "stats": {"score": rng.randint(0, 50)} if rng.random() < 0.5 else {}}
        for seat, (n, r) in enumerate(zip(names, ranks, strict=True))]}


def test_the_running_tally_equals_the_summary_of_the_list() -> None:
    rng = random.Random(3)
    matches = [fake_match(rng) for _ in range(400)]
    tally = Tally()
    for match in matches:
        tally.add(match)
    assert tally.matches == 400
    assert tally.report() == summarize(iter(matches)) == summarize(matches)
    assert sum(row["matches"] for row in tally.report()["players"]) == 1200
    assert len(tally.table) == 3 and sum(tally.turns.values()) == 400
    scored = [p["stats"]["score"] for m in matches for p in m["players"]
              if p["name"] == "a" and "score" in p["stats"]]
    row = next(r for r in tally.report()["players"] if r["name"] == "a")
    assert row["mean_score"] == round(statistics.mean(scored), 2)


def test_lengths_from_counts_match_the_statistics_module() -> None:
    rng = random.Random(5)
    for _ in range(300):
        turns = [rng.randint(1, 40) for _ in range(rng.randint(1, 25))]
        counted = Counter(turns)
        assert _median(counted) == statistics.median(turns)
        found = lengths(counted)
        assert (found["min"], found["max"]) == (min(turns), max(turns))
        assert sum(count for _, _, count in found["histogram"]) == len(turns)
