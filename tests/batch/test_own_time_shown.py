"""The game master sees time before it bites. A napper (an arena bot that sleeps
0.1 s in every move, and uses next to no CPU) beside two honest bots: each AI's own time
(its calls' wall time less their wait for a CPU) sits beside its CPU in the run table, the
batch and tournament tables, `results` (a run's table, `--games`), the `--json` of each,
the CSV exports, the published site and the Python API's types. A results file from
before own times still opens, and shows a dash, not 0. Three turns on the tiny map, one
robot each, explicit seeds: the napper makes 3 calls, so about 0.3 s of own time."""
from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from pathlib import Path

import pytest

from orchestrator import api
from tests.support.cli import WIDE, arena
from tests.support.paths import BOTS

NAPPER = '''"""Napper: sleeps a little in every move."""
import time
from roborally.api import *

name = 'Napper'


def move():
    time.sleep(0.1)
    return TURN_LEFT
'''
NAP_S = 0.2                    # 3 calls of 0.1 s of sleep, less what a busy host's own
                               # wait to read a reply takes off (0.26 s seen): still far
                               # above an honest bot's few ms
QUICK = ["--map", "tiny", "--robots", "1", "--max-turns", "3"]
RUNS = [*QUICK, "--workers", "1"]
NAMES = ("Napper", "Hunter", "Turtle")


def out(*args: str) -> str:
    """What `arena ARGS` prints, wide, once it exited 0."""
    return arena(*args, code=0, env=WIDE).stdout


def cells_of(text: str, header: str) -> list[list[str]]:
    """The table's rows (a rich table's box, as printed), each with its `header` cell
    last."""
    lines = text.splitlines()
    head = next(line for line in lines if f" {header} " in line and "┃" in line)
    at = [cell.strip() for cell in head.split("┃")].index(header)
    return [[*cells, cells[at]] for line in lines if "│" in line
            for cells in [[cell.strip() for cell in line.split("│")]]]


def column(text: str, header: str) -> dict[str, str]:
    """Each AI's cell of the table's `header` column."""
    return {name: row[-1] for row in cells_of(text, header) for name in NAMES if name in row}


def games_column(text: str, header: str) -> list[str]:
    """The `header` cell of each game of `results --games`' table."""
    return [row[-1] for row in cells_of(text, header)]


def slow_shown(cells: dict[str, str]) -> None:
    """The napper's own time is its naps; every honest bot has a figure, not a dash."""
    assert float(cells["Napper"]) >= NAP_S, cells
    for name in NAMES[1:]:
        if name in cells:
            assert re.fullmatch(r"\d+\.\d\d", cells[name]), cells


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict:
    """Every output, each made once: the match, a batch, a tournament, the results."""
    folder = tmp_path_factory.mktemp("own")
    napper = folder / "napper.py"
    napper.write_text(NAPPER)
    lineup = [str(napper), str(BOTS / "hunter.py"), str(BOTS / "turtle.py")]
    db = str(folder / "r.sqlite")
    found = {"run_table": out("run", *lineup, *QUICK, "--seed", "3"),
             "run_json": json.loads(out("run", *lineup, *QUICK, "--seed", "3", "--json")),
             "batch_table": out("batch", *lineup, *RUNS, "--first-seed", "3", "--seeds", "1",
                                "--db", db),
             "batch_json": json.loads(out("batch", *lineup, *RUNS, "--first-seed", "3",
                                          "--seeds", "1", "--db", db, "--json")),
             "tournament_table": out("tournament", *lineup, *RUNS, "--format", "ffa",
                                     "--games", "1", "--first-seed", "4", "--db", db),
             "tournament_json": json.loads(out("tournament", *lineup, *RUNS, "--format", "ffa",
                                               "--games", "1", "--first-seed", "4", "--db", db,
                                               "--json")),
             "db": db, "folder": folder}
    runs = json.loads(out("results", db, "--json"))["runs"]
    found["batch"] = next(r["id"] for r in runs if r["kind"] == "batch")
    found["results_table"] = out("results", db, "--run", found["batch"])
    found["results_json"] = json.loads(out("results", db, "--run", found["batch"], "--json"))
    return found


def old_copy(played: dict, name: str) -> str:
    """The results file as arena wrote it before own times: no table of them."""
    db = played["folder"] / name
    source = sqlite3.connect(played["db"])
    copy = sqlite3.connect(db)
    source.backup(copy)
    source.close()
    copy.execute("DROP TABLE own_times")
    copy.commit()
    copy.close()
    return str(db)


def test_the_run_table_and_json_show_own_time_beside_cpu(played) -> None:
    table = played["run_table"]
    assert re.search(r"┃ CPU s ┃ own s ┃", table), table
    slow_shown(column(table, "own s"))
    players = {p["name"]: p for p in played["run_json"]["players"]}
    assert players["Napper"]["own_s"] >= NAP_S
    assert all(p["own_s"] >= 0 and p["cpu_s"] >= 0 for p in players.values())


@pytest.mark.parametrize("output", ["batch", "tournament", "results"])
def test_batch_tournament_and_results_tables_and_json_show_own_time(played, output) -> None:
    table = played[f"{output}_table"]
    assert re.search(r"┃ CPU s ┃ own s ┃", table), table
    slow_shown(column(table, "own s"))
    rows = {r["name"]: r for r in played[f"{output}_json"]["players"]}
    assert rows["Napper"]["mean_own_s"] >= NAP_S
    assert all(r["mean_own_s"] is not None and r["mean_cpu_s"] is not None
               for r in rows.values())


def test_results_games_show_own_time(played) -> None:
    db = played["db"]
    shown = games_column(out("results", db, "--games", "--bot", "Napper"), "own s")
    assert len(shown) == 2 and all(float(cell) >= NAP_S for cell in shown), shown
    games = json.loads(out("results", db, "--games", "--bot", "Napper", "--json"))["games"]
    assert len(games) == 2 and all(g["own_s"] >= NAP_S and g["cpu_s"] >= 0 for g in games)
    rows = list(csv.DictReader(io.StringIO(out("results", db, "--games", "--bot", "Napper",
                                               "--export", "csv"))))
    assert len(rows) == 2 and all(float(row["own_s"]) >= NAP_S for row in rows), rows


def test_the_csv_export_has_own_time_beside_cpu(played) -> None:
    text = out("results", played["db"], "--export", "csv")
    header = text.splitlines()[0].split(",")
    assert header[header.index("cpu_s") + 1] == "own_s", header
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 2 * len(NAMES)          # the batch's match and the tournament's
    assert all(float(row["own_s"]) >= NAP_S for row in rows if row["name"] == "Napper")
    assert all(float(row["own_s"]) >= 0 for row in rows)


def test_the_published_site_shows_own_time(played, tmp_path) -> None:
    site = tmp_path / "site"
    api.publish(played["db"], site, run=played["batch"], progress=False)
    match = (site / "matches" / "1.html").read_text()
    assert "<th>CPU s</th><th>own s</th>" in match
    row = next(r for r in re.findall(r"<tr>.*?</tr>", match) if ">Napper</a>" in r)
    cpu, own = re.findall(r'<td class="n">([\d.]+)</td>', row)[-2:]
    assert float(own) >= NAP_S, row
    index = (site / "index.html").read_text()
    assert "<th>CPU s</th><th>own s</th>" in index
    row = next(r for r in re.findall(r"<tr>.*?</tr>", index, re.S) if ">Napper</a>" in r)
    assert float(re.findall(r'<td class="n">([\d.]+)</td>', row)[-1]) >= NAP_S, row


def test_the_python_api_types_carry_own_time(played) -> None:
    store = api.open_store(played["db"])
    run = store.run(played["batch"])
    napper = next(p for p in run.players if p.name == "Napper")
    assert napper.mean_own_s is not None and napper.mean_own_s >= NAP_S
    assert napper.mean_cpu_s is not None
    assert "<th>own s</th>" in run._repr_html_()
    match = api.MatchResult.from_dict(played["run_json"])
    assert next(p for p in match.players if p.name == "Napper").own_s >= NAP_S
    assert "<th>own s</th>" in match._repr_html_()


def test_a_results_file_from_before_own_times_opens_and_shows_a_dash(played) -> None:
    db = old_copy(played, "old.sqlite")
    table = out("results", db, "--run", played["batch"])
    assert set(column(table, "own s").values()) == {"-"}, table
    assert all(re.fullmatch(r"\d+\.\d\d", cell) for cell in column(table, "CPU s").values())
    report = json.loads(out("results", db, "--run", played["batch"], "--json"))
    assert {r["mean_own_s"] for r in report["players"]} == {None}
    assert games_column(out("results", db, "--games", "--bot", "Napper"), "own s") == ["-"] * 2
    rows = list(csv.DictReader(io.StringIO(out("results", db, "--export", "csv"))))
    assert rows and {row["own_s"] for row in rows} == {""}
    assert all(float(row["cpu_s"]) >= 0 for row in rows)
    site = Path(played["folder"]) / "old-site"
    api.publish(db, site, run=played["batch"], progress=False)
    match = (site / "matches" / "1.html").read_text()
    row = next(r for r in re.findall(r"<tr>.*?</tr>", match) if ">Napper</a>" in r)
    assert row.endswith('<td class="n">–</td></tr>'), row


@pytest.mark.parametrize("forged, said", [
    ("-1", "own_s must be a finite number from 0 or null"),
    ("'slow'", "own_s must be a finite number from 0 or null"),
    ("1e999", "own_s must be a finite number from 0 or null"),
])
def test_a_forged_own_time_in_a_results_file_is_one_error_line(played, forged, said) -> None:
    db = old_copy(played, f"forged{abs(hash(forged))}.sqlite")
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE own_times (match_id TEXT NOT NULL, seat INTEGER NOT NULL, "
                 "own_s REAL NOT NULL, PRIMARY KEY (match_id, seat))")
    conn.execute(f"INSERT INTO own_times SELECT match_id, seat, {forged} FROM participants")
    conn.commit()
    conn.close()
    for args in (["--run", played["batch"]], ["--export", "csv"],
                 ["--games", "--bot", "Napper"]):
        done = arena("results", db, *args, code=2, env=WIDE)
        assert done.returncode == 2 and said in done.stderr, done.stderr
        assert done.stderr.startswith("error:") and "Traceback" not in done.stderr
