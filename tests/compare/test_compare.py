"""`arena compare` on real games: Robot Game (a sample against a weakened copy and an
identical copy), an arena of 4 AIs, determinism, and Ctrl-C then resume."""
from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
from importlib.metadata import distribution
from math import comb
from pathlib import Path

import pytest

from orchestrator.results.stats import wilson
from tests.support.cli import arena, as_json
from tests.support.compare import NOISY, NOISY_TEST, RG, SURVIVOR
from tests.support.paths import ARENA_CMD, ROOT
from tests.support.processes import default_sigint
from tests.support.waiting import wait_until

HERE = Path(__file__).parent / "bots"
COPY = str(HERE / "survivor_copy.py")            # survivor, byte for byte
# A compare plays until its verdict, up to hundreds of games on a machine the tests share.
LONG = 600
ARENA_QUICK = ["--game", "arena", "--map", "tiny", "--robots", "3", "--max-turns", "30"]


def compare(*args: str) -> dict:
    done = arena("compare", *args, "--json", timeout=LONG)
    assert done.returncode in EXIT.values(), done.stderr
    report = json.loads(done.stdout)
    assert done.returncode == report["exit_status"] == EXIT[report["verdict"]]
    return report


# The exit statuses documented in docs/compare.md and `arena compare --help`.
EXIT = {"H1": 0, "H0": 1, "undecided": 3, "identical": 4}
# rgkit's own randombot, unmodified, from the installed rgkit-py3 (a test dependency): by
# its distribution, since `import rgkit` may find the sandbox's rgkit shim first.
RGKIT_RANDOM = str(distribution("rgkit-py3").locate_file("rgkit/bots/randombot.py"))


DECIDED = pytest.mark.xdist_group("compare-decided")


@pytest.fixture(scope="module")
def decided(tmp_path_factory) -> dict:
    return compare(*NOISY_TEST, "--db", str(tmp_path_factory.mktemp("decided") / "c.sqlite"))


def wilson_games(p_new: float, power: float) -> int:
    """Games (even: seats swapped) a fixed batch needs for the two Wilson intervals of the
    win rates to separate with probability `power`, NEW winning each game with p_new and
    OLD the rest."""
    for n in range(2, 2000, 2):
        chance = sum(comb(n, w) * p_new ** w * (1 - p_new) ** (n - w) for w in range(n + 1)
                     if wilson(w, n)[0] > wilson(n - w, n)[1])
        if chance >= power:
            return n
    raise AssertionError("no batch size up to 2000")


@DECIDED
def test_the_original_beats_its_noisy_copy_sooner_than_a_fixed_batch(decided,
                                                                      tmp_path) -> None:
    db = str(tmp_path / "c.sqlite")
    first = decided
    assert first["verdict"] == "H1" and first["elo"] > 0 and first["games"] == 2 * first["pairs"]
    assert sum(first["counts"]) == first["pairs"] and len(first["counts"]) == 5
    again = compare(*NOISY_TEST, "--db", db)                         # a fresh store
    for key in ("verdict", "games", "pairs", "counts", "llr", "elo"):
        assert again[key] == first[key], key
    # A fixed batch, seats swapped, measures the win rate; the games it needs (with the
    # SPRT's power, 1 - beta) for the intervals to separate:
    fixed_batch = ["--seeds", "30", "--first-seed", "1", *RG, "--sandbox", "off", "--db", db,
                   "--json"]
    batch = as_json(arena("batch", SURVIVOR, NOISY, *fixed_batch, timeout=LONG))["players"]
    swapped = as_json(arena("batch", NOISY, SURVIVOR, *fixed_batch, timeout=LONG))["players"]
    wins = {p["name"]: p["wins"] for p in batch}
    for p in swapped:
        wins[p["name"]] += p["wins"]
    rate = wins["survivor"] / (wins["survivor"] + wins["Noisy Survivor"])
    fixed = wilson_games(rate, 0.95)
    print(f"\nSPRT: {first['games']} games; fixed batch: {fixed} (win rate {rate:.2f}; "
          f"{wilson_games(rate, 0.5)} for even odds of separating)")
    # Engine 0.2.0 (seeds "N:purpose"): 12 games against 14 (win rate 0.90). Engine 0.3.0
    # (HMAC streams) deals other cards on the same seeds: 12 against 12 (0.95): at a rate
    # that lopsided a fixed batch is as quick, and the SPRT is never slower.
    assert first["games"] <= fixed


def test_an_identical_copy_is_not_better_in_the_sandbox(tmp_path) -> None:
    # elo1 200: six pairs, every one split, decide H0 (elo1 100 needed twenty such pairs).
    report = compare(COPY, SURVIVOR, *RG, "--elo1", "200", "--seed", "1", "--db",
                     str(tmp_path / "c.sqlite"))
    assert report["verdict"] == "H0" and report["elo"] == 0
    assert report["counts"][2] == report["pairs"]          # every pair split 1-1


def test_an_arena_of_four_reaches_a_verdict(tmp_path) -> None:
    report = compare("hunter", "randy", "--against", "beeline,turtle", "--against", "hunter",
                     *ARENA_QUICK, "--workers", "2", "--sandbox", "off", "--elo1", "150",
                     "--max-games", "400", "--seed", "1", "--db", str(tmp_path / "a.sqlite"))
    assert report["verdict"] in ("H0", "H1") and len(report["counts"]) == 3
    assert len(report["against"]) == 3 and report["games"] == 2 * report["pairs"]


@DECIDED
def test_ctrl_c_then_the_same_command_decides_as_an_unbroken_run(decided, tmp_path) -> None:
    common = [*NOISY_TEST, "--json"]
    whole = decided
    db = tmp_path / "broken.sqlite"
    proc = subprocess.Popen(ARENA_CMD + ["compare", *common, "--db", str(db)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_sigint)
    wait_until(lambda: _games(db) >= 4, 120, "4 games stored")
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "run the same command again" in stderr
    saved = _games(db)
    assert 0 < saved < whole["games"]
    resumed = compare(*common[:-1], "--db", str(db))
    assert resumed["skipped"] == saved
    for key in ("verdict", "games", "pairs", "counts", "llr", "elo", "elo_ci"):
        assert resumed[key] == whole[key], key


def _games(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db) as conn:
            return conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


@DECIDED
def test_dask_decides_as_local_workers_do(decided, tmp_path) -> None:
    """On a Dask LocalCluster the pairs come back in any order; the test reads them in
    schedule order, so the verdict and the counts are those of local workers."""
    pytest.importorskip("distributed", reason="dask[distributed] is in the test extra")
    local = decided
    remote = compare(*NOISY_TEST, "--backend", "dask", "--db", str(tmp_path / "dask.sqlite"))
    for key in ("verdict", "games", "pairs", "counts", "llr", "elo", "elo_ci"):
        assert remote[key] == local[key], key


def test_a_strong_bot_routs_rgkits_random_bot_within_24_games(tmp_path) -> None:
    """coordinator against rgkit's randombot wins every pair: the betting test ends it
    (the GSPRT alone needed 74 pairs for any rout); the other way round, H0 as fast."""
    db = str(tmp_path / "c.sqlite")
    won = compare("coordinator", RGKIT_RANDOM, *RG, "--sandbox", "off", "--seed", "1", "--db",
                  db)
    assert (won["verdict"], won["decided_by"]) == ("H1", "betting")
    assert won["games"] <= 24 and won["counts"][4] == won["pairs"]
    assert won["elo_shown"].startswith("more than +")
    lost = compare(RGKIT_RANDOM, "coordinator", *RG, "--sandbox", "off", "--seed", "1",
                   "--db", db)
    assert (lost["verdict"], lost["exit_status"]) == ("H0", 1) and lost["games"] <= 24


def test_a_copy_under_another_name_is_identical_within_40_games(tmp_path) -> None:
    done = arena("compare", COPY, SURVIVOR, *RG, "--sandbox", "off", "--db",
                 str(tmp_path / "c.sqlite"), timeout=LONG)
    assert done.returncode == 4, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith("survivor_copy and survivor are identical on 15 pairs"), first
    assert "30 counted in 15 pairs" in done.stdout and "exit status  4" in done.stdout
    report = compare(COPY, SURVIVOR, *RG, "--sandbox", "off", "--db",
                     str(tmp_path / "c.sqlite"))                             # resumed
    # Byte-identical files: a pair's two games are one match id, stored once.
    assert report["skipped"] >= 15
    assert (report["verdict"], report["decided_by"]) == ("identical", "moves")
    assert report["games"] <= 40 and report["alike_pairs"] == report["pairs"]


def test_undecided_and_usage_errors_have_their_own_exit_status(tmp_path) -> None:
    done = arena("compare", SURVIVOR, NOISY, *RG, "--sandbox", "off", "--max-games", "4",
                 "--db", str(tmp_path / "c.sqlite"))
    assert done.returncode == 3, done.stderr
    assert done.stdout.startswith("undecided after 4 games")
    assert "past the verdict" not in done.stdout and "exit status  3" in done.stdout
    bad = arena("compare", SURVIVOR, NOISY, *RG, "--alpha", "0.7")
    assert bad.returncode == 2 and bad.stderr.startswith("error: --alpha 0.7")
    assert len(bad.stderr.strip().splitlines()) == 1
    helped = arena("compare", "--help")
    assert "0 H1, 1 H0, 3 undecided, 4 identical, 2" in " ".join(helped.stdout.split())
