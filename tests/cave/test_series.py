"""A series carries each Cave bot's scratch from game to game: in schedule order, private
to each entrant, through parallel workers, and across a resumed run."""
from __future__ import annotations

import base64
from pathlib import Path

from orchestrator.games import get_game
from orchestrator.results.store import Store
from orchestrator.runner.bots import read_bot
from orchestrator.runner.schedule import Setup, plan_batch, plan_tournament
from orchestrator.runner.series import Series
from tests.support.cave import SAMPLES
from tests.support.cli import arena, as_json

TALLY = Path(__file__).parent / "series" / "tally.sh"    # counts its turns in its scratch
CAVE = get_game("cave")


def cave(*args: str) -> dict:
    """What `arena ARGS` printed as JSON, in the cave, six turns a match."""
    return as_json(arena(*args, "--game", "cave", "--max-turns", "6", "--json", code=0,
                         timeout=600))


def _series(db: Path) -> list[tuple[dict, dict[int, dict]]]:
    """The last run's matches in schedule order, each with its seats' final scratch."""
    store = Store(db)
    try:
        run = store.runs()[-1]
        matches = store.run_results(run["id"])
        scratch = store.scratch(m["id"] for m in matches)
        return [(m, scratch[m["id"]]) for m in matches]
    finally:
        store.close()


def _tally(files: dict) -> int:
    return int(base64.b64decode(files["asked"])) if "asked" in files else 0


def _check_chain(series: list[tuple[dict, dict]], bot: str, games: int) -> None:
    """Every game of `bot` ends with its previous game's count plus the turns it was asked."""
    count = 0
    seen = 0
    for match, scratch in series:
        for player in match["players"]:
            if player["bot"] == bot:
                count += player["stats"]["decisions"]
                assert _tally(scratch[player["seat"]]) == count, (match["seed"], player)
                seen += 1
    assert seen == games and count > games


def test_a_batch_chains_each_entrants_scratch_even_for_the_same_file_twice(tmp_path) -> None:
    db = tmp_path / "batch.sqlite"
    cave("batch", str(TALLY), str(TALLY), "--seeds", "4", "--workers", "2", "--db", str(db))
    series = _series(db)
    first = series[0][0]["seed"]             # drawn from the OS: no --first-seed
    assert [m["seed"] for m, _ in series] == [first, first + 1, first + 2, first + 3]
    for seat in (0, 1):                      # two entrants, two private tallies
        count = 0
        for match, scratch in series:
            count += next(p for p in match["players"] if p["seat"] == seat)["stats"]["decisions"]
            assert _tally(scratch[seat]) == count


def test_a_tournament_chains_scratch_through_parallel_matches(tmp_path) -> None:
    db = tmp_path / "tour.sqlite"
    report = cave("tournament", str(TALLY), str(SAMPLES / "wanderer.py"),
                    str(SAMPLES / "miner.sh"), "--games", "2", "--workers", "2",
                    "--db", str(db))
    assert report["matches"] == 6
    _check_chain(_series(db), str(TALLY), games=4)


def test_a_resumed_series_continues_the_chain_and_equals_one_run(tmp_path) -> None:
    bots = [str(SAMPLES / "wanderer.py"), str(TALLY)]
    resumed, straight = tmp_path / "resumed.sqlite", tmp_path / "straight.sqlite"
    # The resumed run draws its first seed and extends it (--seeds 2, then 4); the
    # straight run in another file plays from that seed.
    cave("batch", *bots, "--seeds", "2", "--db", str(resumed))
    report = cave("batch", *bots, "--seeds", "4", "--db", str(resumed))
    assert report["skipped"] == 2
    first = _series(resumed)[0][0]["seed"]
    cave("batch", *bots, "--seeds", "4", "--first-seed", str(first), "--db", str(straight))

    def outcome(db: Path) -> list:
        return [(m["id"], [(p["seat"], p["stats"]) for p in m["players"]], scratch)
                for m, scratch in _series(db)]
    assert outcome(resumed) == outcome(straight)
    _check_chain(_series(resumed), str(TALLY), games=4)


def _setup(game: str) -> Setup:
    found = get_game(game)
    return Setup.make(found, None, found.rules(found.presets[0]), found.limits, "standard")


def test_series_hands_out_a_cave_match_only_after_its_entrants_previous_ones() -> None:
    bots = [read_bot(SAMPLES / "wanderer.py"), read_bot(TALLY)]
    planned = plan_batch(_setup("cave"), bots, [1, 2, 3])
    series = Series(planned)
    first = series.take()
    assert first is planned[0] and first.spec.scratch == [{}, {}]
    assert series.take() is None                         # seed 2 waits for seed 1
    left = {"asked": base64.b64encode(b"7").decode()}
    left_files = {"asked": b"7"}
    series.finish(first, {"result": {"players": [{"seat": 1, "scratch": left}]}})
    second = series.take()
    assert second is planned[1] and second.spec.scratch == [{}, left_files]
    # a run that finds seed 1 already played starts seed 2 from what seed 1 left
    resumed = Series(planned, {planned[0].match_id: {1: left}})
    assert resumed.take().spec.scratch == [{}, left_files]


def test_a_series_match_id_names_the_matches_before_it() -> None:
    bots = [read_bot(SAMPLES / "wanderer.py"), read_bot(TALLY)]
    setup = _setup("cave")
    assert plan_batch(setup, bots, [1, 2])[1].match_id != plan_batch(setup, bots, [2])[0].match_id
    assert [p.match_id for p in plan_batch(setup, bots, [1, 2])] == \
        [p.match_id for p in plan_batch(setup, bots, [1, 2, 3])][:2]
    three = bots + [read_bot(SAMPLES / "miner.sh")]
    games = plan_tournament(setup, three, "round-robin", 2, 1)
    # round-robin: (w,t) (t,w) (w,m) (m,w) (t,m) (m,t); the 5th follows t's 2nd and m's 4th
    assert games[4].entrants == (1, 2)
    assert games[4].after == (games[1].match_id, games[3].match_id)


def test_games_without_a_series_start_every_match_at_once() -> None:
    arena = [read_bot(p) for p in sorted((SAMPLES.parent / "arena").glob("*.py"))[:2]]
    series = Series(plan_batch(_setup("arena"), arena, [1, 2, 3]))
    assert [series.take() is not None for _ in range(4)] == [True, True, True, False]
