"""arena batch, tournament and results through the real command line: tables, JSON,
failures, Ctrl-C or SIGKILL and resume, and the Dask backend."""
from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
from pathlib import Path

import psutil
import pytest

from tests.support.cli import arena
from tests.support.paths import ARENA_CMD, BOTS, HOSTILE, ROOT
from tests.support.processes import default_sigint
from tests.support.waiting import wait_until

SAMPLES = [str(BOTS / n) for n in ("beeline.py", "hunter.py", "turtle.py", "randy.py")]
QUICK = ["--map", "tiny", "--robots", "3", "--max-turns", "40"]


def counts(db: Path) -> tuple[int, int]:
    with sqlite3.connect(db) as conn:
        return (conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0],
                conn.execute("SELECT COUNT(*) FROM participants").fetchone()[0])


# 200 seeds (about 50 s) is a soak for `make bench`; make test's 30 seeds run every step
# of it (rates with intervals, lengths, the database, a resumed batch, the table).
@pytest.mark.parametrize("seeds", [pytest.param(200, marks=pytest.mark.slow), 30])
def test_seeds_of_the_samples_give_rates_with_intervals(seeds: int, tmp_path) -> None:
    db = tmp_path / "b.sqlite"
    done = arena("batch", *SAMPLES, "--seeds", str(seeds), *QUICK, "--db", str(db), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["matches"] == seeds and report["skipped"] == 0 and report["db"] == str(db)
    assert {p["name"] for p in report["players"]} == {"Beeline", "Hunter", "Turtle", "Randy"}
    for p in report["players"]:
        assert p["matches"] == seeds and 0 <= p["win_ci"][0] <= p["win_rate"] <= p["win_ci"][1]
        assert 1 <= p["mean_rank"] <= 4 and 0 <= p["top2_rate"] <= 1
    assert sum(p["wins"] for p in report["players"]) + \
        sum(p["draws"] for p in report["players"]) >= seeds
    assert report["lengths"]["min"] <= report["lengths"]["median"] <= 40
    assert sum(c for _, _, c in report["lengths"]["histogram"]) == seeds
    assert counts(db) == (seeds, 4 * seeds)
    again = json.loads(arena("batch", *SAMPLES, "--seeds", str(seeds), *QUICK, "--db", str(db),
                             "--json").stdout)
    assert again["skipped"] == seeds and again["players"] == report["players"]
    table = arena("batch", *SAMPLES, "--seeds", str(seeds), *QUICK, "--db", str(db))
    assert "95% CI" in table.stdout and "game length" in table.stdout


def test_a_hostile_bot_is_erased_in_every_match_and_the_batch_finishes(tmp_path) -> None:
    db = tmp_path / "h.sqlite"
    done = arena("batch", str(HOSTILE / "segfault.py"), *SAMPLES[:2], "--seeds", "6", *QUICK,
                 "--db", str(db), "--json")
    assert done.returncode == 0, done.stderr
    hostile = next(p for p in json.loads(done.stdout)["players"] if p["name"] == "Segfault")
    assert hostile["erased"] == 6 and hostile["wins"] == 0
    assert hostile["reasons"] == {"erased: crash: killed by SIGSEGV": 6}
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT status, reason, turn FROM participants WHERE name = "
                            "'Segfault'").fetchall()
    assert rows == [("erased", "crash: killed by SIGSEGV", 1)] * 6


def _start(db: Path, seeds: int) -> subprocess.Popen:
    return subprocess.Popen(ARENA_CMD + ["batch", *SAMPLES, "--seeds", str(seeds), *QUICK,
                                         "--robots", "6", "--max-turns", "80",
                                         "--db", str(db), "--workers", "2"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_sigint)


def _wait_for_matches(db: Path, at_least: int, proc: subprocess.Popen) -> None:
    def recorded() -> bool:
        assert proc.poll() is None, "the batch ended before it recorded matches"
        try:
            return db.exists() and counts(db)[0] >= at_least
        except sqlite3.OperationalError:
            return False

    wait_until(recorded, 120, f"the batch to record {at_least} matches")


SEEDS_INTERRUPTED = 12      # the signal comes after 4, and at least one is still to play


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "sigkill"])
def test_interrupted_batch_loses_nothing_and_resumes(how, tmp_path) -> None:
    db = tmp_path / "r.sqlite"
    proc = _start(db, SEEDS_INTERRUPTED)
    _wait_for_matches(db, 4, proc)
    family = psutil.Process(proc.pid).children(recursive=True)
    proc.send_signal(how)
    _, err = proc.communicate(timeout=60)
    if how == signal.SIGINT:
        assert proc.returncode == 130
        assert err.strip().splitlines()[-1].startswith("error: interrupted; ")
        assert "run the same command again" in err
    gone, alive = psutil.wait_procs(family, timeout=10)
    assert not alive, f"left running: {alive}"
    saved, rows = counts(db)
    assert 4 <= saved < SEEDS_INTERRUPTED and rows == 4 * saved      # whole matches only
    resumed = arena("batch", *SAMPLES, "--seeds", str(SEEDS_INTERRUPTED), *QUICK, "--robots", "6",
                    "--max-turns", "80", "--db", str(db), "--json")
    report = json.loads(resumed.stdout)
    assert report["matches"] == SEEDS_INTERRUPTED and report["skipped"] == saved
    assert counts(db) == (SEEDS_INTERRUPTED, 4 * SEEDS_INTERRUPTED)


def test_tournament_round_robin_rates_every_bot(tmp_path) -> None:
    db = tmp_path / "t.sqlite"
    done = arena("tournament", *SAMPLES[:3], "--games", "4", *QUICK, "--db", str(db), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["format"] == "round-robin" and report["matches"] == 3 * 4
    assert report["elo"] == {"initial": 1200.0, "k": 32.0}
    assert [p["elo"] for p in report["players"]] == sorted((p["elo"] for p in
                                                            report["players"]), reverse=True)
    # Elo is zero-sum; each rating is shown to a tenth, so the shown sum is within 3 x 0.05
    # (the tournament's seeds are drawn, so which roundings add up varies).
    assert sum(p["elo"] for p in report["players"]) == pytest.approx(3 * 1200, abs=0.15)
    assert all(p["matches"] == 8 and p["sigma"] < 25 / 3 for p in report["players"])
    rerun = json.loads(arena("tournament", *SAMPLES[:3], "--games", "4", *QUICK, "--db",
                             str(db), "--json").stdout)
    assert rerun["skipped"] == 12 and rerun["players"] == report["players"]


def test_results_lists_shows_and_exports_runs(tmp_path) -> None:
    db = tmp_path / "x.sqlite"
    arena("batch", *SAMPLES[:2], "--seeds", "3", *QUICK, "--db", str(db))
    listed = json.loads(arena("results", str(db), "--json").stdout)
    assert [r["kind"] for r in listed["runs"]] == ["batch"]
    run = listed["runs"][0]
    assert run["planned"] == run["finished"] == 3
    shown = json.loads(arena("results", str(db), "--run", run["id"][:6], "--json").stdout)
    assert shown["matches"] == 3
    csv_file = tmp_path / "out.csv"
    assert arena("results", str(db), "--export", "csv", "--out", str(csv_file)).returncode == 0
    lines = csv_file.read_text().splitlines()
    assert lines[0].startswith("match_id,game,map,seed") and len(lines) == 1 + 3 * 2
    missing = arena("results", str(tmp_path / "none.sqlite"))
    assert missing.returncode == 2 and missing.stderr.startswith("error: ")
    for out in (tmp_path, tmp_path / "no-such-folder" / "x.csv"):   # a folder; no folder
        unwritable = arena("results", str(db), "--export", "csv", "--out", str(out))
        assert unwritable.returncode == 2, unwritable.stderr
        assert unwritable.stderr.startswith(f"error: {out}: cannot write the export")
        assert len(unwritable.stderr.strip().splitlines()) == 1, unwritable.stderr


def test_dask_backend_on_a_local_cluster_matches_the_local_backend(tmp_path) -> None:
    pytest.importorskip("distributed", reason="dask[distributed] is in the test extra")
    local, remote = tmp_path / "local.sqlite", tmp_path / "dask.sqlite"
    # The same seeds for both (without --first-seed each file's run draws its own).
    args = ["batch", *SAMPLES[:3], "--seeds", "6", "--first-seed", "1", *QUICK, "--json"]
    one = arena(*args, "--db", str(local))
    two = arena(*args, "--db", str(remote), "--backend", "dask", "--workers", "2")
    assert one.returncode == 0 and two.returncode == 0, two.stderr
    figures = ("mean_cpu_s", "mean_own_s")        # the machine's, not the matches'
    assert [{k: v for k, v in row.items() if k not in figures}
            for row in json.loads(one.stdout)["players"]] == \
        [{k: v for k, v in row.items() if k not in figures}
         for row in json.loads(two.stdout)["players"]]
    query = ("SELECT match_id, seat, name, rank, status, overheats, stats FROM participants "
             "ORDER BY match_id, seat")
    with sqlite3.connect(local) as a, sqlite3.connect(remote) as b:
        assert a.execute(query).fetchall() == b.execute(query).fetchall()
        ends = "SELECT id, seed, turns, end_reason FROM matches ORDER BY id"
        assert a.execute(ends).fetchall() == b.execute(ends).fetchall()


def test_a_killed_worker_loses_only_its_match_which_is_played_again(tmp_path) -> None:
    db = tmp_path / "w.sqlite"
    proc = _start(db, 16)
    _wait_for_matches(db, 2, proc)
    workers = [p for p in psutil.Process(proc.pid).children() if "zygote" not in
               " ".join(p.cmdline())]
    assert workers, "no pool workers found"
    workers[0].kill()
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert counts(db) == (16, 64)
