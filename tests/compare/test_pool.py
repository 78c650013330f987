"""`arena compare NEW OLD --against POOL` in a two-player game. NEW and
OLD each play every opponent, paired by seed and seat: pair k is NEW against opponent j,
then OLD against it, on one seed with NEW and OLD in one seat; each round of 2m pairs meets
each of the m opponents in both seats. A pair scores NEW's points less OLD's (five
classes), and the tests decide only at the end of a round (docs/compare.md)."""
from __future__ import annotations

import json
from pathlib import Path

from orchestrator.results.store import Store
from orchestrator.service.compare import Test as Sequential
from orchestrator.service.compare import pair_outcome
from tests.support.cli import arena
from tests.support.paths import ROOT

RG = ROOT / "bots" / "robotgame"
HERE = Path(__file__).parent / "bots"
COPY = str(HERE / "survivor_copy.py")            # survivor, byte for byte
NOISY = str(HERE / "noisy_survivor.py")          # survivor, 30 % random legal actions
SURVIVOR = str(RG / "survivor.py")


def compare(*args: str) -> tuple[int, dict]:
    done = arena("compare", *args, "--json", timeout=600)
    assert done.returncode in (0, 1, 3, 4), done.stderr
    return done.returncode, json.loads(done.stdout)


def test_a_copy_against_a_pool_is_identical_at_a_round_end(tmp_path) -> None:
    status, report = compare(COPY, SURVIVOR, "--game", "robotgame", "--against",
                             "rusher,coordinator", "--seed", "3", "--workers", "2",
                             "--db", str(tmp_path / "c.sqlite"))
    # A copy plays every pair alike: identical, at the end of a round (15 pairs -> 16).
    assert (status, report["verdict"], report["design"]) == (4, "identical", "pool"), report
    assert report["round_pairs"] == 4 and report["pairs"] == 16
    assert report["counts"] == [0, 0, 16, 0, 0]
    assert [Path(b).stem for b in report["against"]] == ["rusher", "coordinator"]


def test_a_two_player_game_compares_against_a_pool_paired_by_seed_and_seat(tmp_path) -> None:
    db = tmp_path / "c.sqlite"
    status, report = compare(NOISY, SURVIVOR, "--game", "robotgame", "--against",
                             "rusher,coordinator", "--seed", "3", "--workers", "2",
                             "--max-games", "18", "--db", str(db))
    # 9 pairs' worth, cut to whole rounds of 4 pairs: 8 pairs, 16 games.
    assert report["design"] == "pool" and report["max_games"] == 16, report
    assert report["pairs"] == 8 or report["verdict"] != "undecided"
    store = Store(db)
    try:
        run = next(r for r in store.runs() if r["kind"] == "compare")
        games = list(store.iter_run_results(run["id"]))
    finally:
        store.close()
    by_place = {g["ordinal"]: g for g in games}
    met = []
    for k in range(report["pairs"]):
        first, second = by_place[2 * k], by_place[2 * k + 1]
        assert first["seed"] == second["seed"] == 3 + k
        seats = [{p["seat"]: Path(p["bot"]).stem for p in g["players"]}
                 for g in (first, second)]
        mine = k % 2                                  # NEW's and OLD's seat
        assert seats[0][mine] == "noisy_survivor" and seats[1][mine] == "survivor", seats
        assert seats[0][1 - mine] == seats[1][1 - mine]          # the same opponent
        met.append((seats[0][1 - mine], mine))
    assert met[:4] == [("rusher", 0), ("rusher", 1), ("coordinator", 0), ("coordinator", 1)]
    assert met[4:8] == met[:4]


def test_the_pool_pair_scores_new_points_less_old_and_decides_at_round_ends() -> None:
    won, lost = {"players": [{"seat": 0, "rank": 1}, {"seat": 1, "rank": 2}]}, \
        {"players": [{"seat": 0, "rank": 2}, {"seat": 1, "rank": 1}]}
    drawn = {"players": [{"seat": 0, "rank": 1}, {"seat": 1, "rank": 1}]}
    assert pair_outcome(won, lost, 0, pool=True) == 4         # NEW won, OLD lost
    assert pair_outcome(lost, won, 0, pool=True) == 0
    assert pair_outcome(won, won, 0, pool=True) == 2          # both won: no difference
    assert pair_outcome(drawn, lost, 0, pool=True) == 3
    assert pair_outcome(won, drawn, 1, pool=True) == 1        # seat 1: NEW lost, OLD drew
    test = Sequential(0.0, 10.0, 0.05, 0.05, "normalized", 5, round_pairs=6)
    for _ in range(60):
        test.add(4)
        if test.verdict:
            break
    assert test.verdict == "H1" and test.pairs % 6 == 0, (test.verdict, test.pairs)
