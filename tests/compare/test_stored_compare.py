"""A compare run read back from its results file (`arena results DB --run ID`,
`api.open_store(DB).run(ID)`) shows NEW against OLD: pairs won, drawn and lost, the Elo
and its interval, the verdict, as the comparison itself reported them; never per-seat
wins under the bots' names (each pair seats both bots in turn, so those numbers say
nothing: after an H1 where NEW won every pair they read NEW 75 wins, OLD 74)."""
from __future__ import annotations

import json

import pytest

from orchestrator import api
from orchestrator.api.types import CompareResult
from tests.support.cli import arena
from tests.support.compare import NOISY_TEST

SAME = ("verdict", "decided_by", "elo_shown", "exit_status", "games", "pairs", "counts",
        "llr", "elo", "elo_ci", "nelo", "model", "elo0", "elo1", "alpha", "beta")


@pytest.fixture(scope="module")
def compared(tmp_path_factory) -> tuple[dict, str, str]:
    db = str(tmp_path_factory.mktemp("stored") / "c.sqlite")
    done = arena("compare", *NOISY_TEST, "--db", db, "--json")
    assert done.returncode in (0, 1, 3), done.stderr     # a verdict, whichever the status
    report = json.loads(done.stdout)
    runs = json.loads(arena("results", db, "--json").stdout)["runs"]
    (run,) = [r for r in runs if r["kind"] == "compare"]
    return report, db, run["id"]


def test_the_api_gives_a_stored_compare_run_as_new_against_old(compared) -> None:
    report, db, run_id = compared
    found = api.open_store(db).run(run_id[:8])
    assert isinstance(found, CompareResult)
    for key in SAME:
        assert found[key] == report[key], key
    assert (found.new_name, found.old_name) == ("survivor", "Noisy Survivor")
    record = found.record
    assert record["won"] + record["drawn"] + record["lost"] == report["pairs"]
    assert report["verdict"] == "H1" and record["won"] > record["lost"]
    html = found._repr_html_()
    assert f"{record['won']} won, {record['drawn']} drawn, {record['lost']} lost" in html
    assert "compare survivor (new) with Noisy Survivor (old)" in html


def test_arena_results_shows_a_compare_run_by_bot(compared) -> None:
    report, db, run_id = compared
    as_json = json.loads(arena("results", db, "--run", run_id, "--json").stdout)
    for key in SAME:
        assert as_json[key] == report[key], key
    assert as_json["record"]["won"] > as_json["record"]["lost"]
    done = arena("results", db, "--run", run_id[:6])
    assert done.returncode == 0, done.stderr
    record = as_json["record"]
    assert (f"survivor against Noisy Survivor: {record['won']} pairs won, {record['drawn']} "
            f"drawn, {record['lost']} lost") in done.stdout
    assert "survivor (new) against Noisy Survivor (old)" in done.stdout
    assert "(H1 accepted)" in done.stdout and report["elo_shown"] in done.stdout
    # Not the per-seat table of a batch (its columns: games, wins, draws, win %).
    assert "95% CI" not in done.stdout and "wins in %" not in done.stdout


def test_a_batch_run_is_still_shown_by_seat(tmp_path) -> None:
    db = str(tmp_path / "b.sqlite")
    done = arena("batch", "hunter", "beeline", "--seeds", "2", "--max-turns", "3",
                 "--sandbox", "off", "--db", db, "--json")
    assert done.returncode == 0, done.stderr
    run_id = json.loads(arena("results", db, "--json").stdout)["runs"][0]["id"]
    found = api.open_store(db).run(run_id)
    assert not isinstance(found, CompareResult) and found.matches == 2
    assert "95% CI" in arena("results", db, "--run", run_id).stdout
