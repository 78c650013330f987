"""Every penalty with its reason, wherever results are shown. A looping, a
memory-eating, a raising, two snooping (a socket, /etc/passwd), a shouting and a
memory-sharing bot among honest ones: the run table, the batch table, the tournament
table, `results` (a run's table, `--games`), the `--json` of each, the CSV exports, the
ladder's match page and `arena check` name each penalty with its reason, in the words of
orchestrator/results/penalties.py. Few turns on the tiny map, the CPU and memory limits lowered,
explicit seeds."""
from __future__ import annotations

import csv
import io
import json
import re
import shutil
import sqlite3
import threading

import pytest

from orchestrator import api
from tests.support.cli import WIDE, arena
from tests.support.paths import BOTS, HOSTILE, ROOT

BOTS_OF = {"Spinner": HOSTILE / "spinner_loop.py", "MemoryBomb": HOSTILE / "memory_bomb.py",
           "Raiser": HOSTILE / "raiser.py", "PasswdReader": HOSTILE / "read_passwd.py",
           "TcpClient": HOSTILE / "tcp_socket.py", "Printer": HOSTILE / "printer.py",
           "Gossip": ROOT / "tests" / "arena" / "bots" / "shared_state.py",
           "Hunter": BOTS / "hunter.py", "Beeline": BOTS / "beeline.py"}
LINEUP = [str(path) for path in BOTS_OF.values()]
QUICK = ["--map", "tiny", "--robots", "2", "--max-turns", "3", "--cpu-limit", "0.3",
         "--memory-mb", "80"]
RUNS = [*QUICK, "--workers", "1"]

# Each bot's penalty, as every output must say it (a regular expression).
EXPECTED = {
    "Spinner": r"erased \(cpu time limit, turn 1\)",
    # The cap it hit (the peak alone read as the figure that erased it).
    "MemoryBomb": r"erased \(memory limit: (?:an allocation went past the 80 MB cap|held "
                  r"over 64 MB \(80 % of the 80 MB cap\)), turn 1, peak (?:up to )?(\d+) MB\)",
    "Raiser": r"\d+ overheats.*first: ValueError: boom",
    "PasswdReader": r"refused: 1 file \(open /etc/passwd for reading\)",
    "TcpClient": r"refused: 1 socket \(socket\(AF_INET, SOCK_STREAM\)\)",
    "Printer": r"output cut: [\d.]+ MB",
    "Gossip": r"rule 1: module state changed by move\(\): seen",
}
HONEST = ("Hunter", "Beeline")
PENALTY_WORDS = r"erased|forfeit|not loaded|overheat|refused|output cut|rule 1"


def shown(*args: str) -> str:
    """What `arena ARGS` prints, wide, once it exited 0."""
    return arena(*args, code=0, env=WIDE).stdout


def said_of(lines: dict[str, str]) -> None:
    """Every bot's penalty in the text said of it; nothing said of an honest bot; the
    memory at the erase is the eater's, near the cap, not a figure from before it."""
    for name, pattern in EXPECTED.items():
        assert re.search(pattern, lines[name]), (name, lines[name])
    memory = int(re.search(EXPECTED["MemoryBomb"], lines["MemoryBomb"]).group(1))
    assert 60 <= memory <= 90, lines["MemoryBomb"]
    for name in HONEST:
        assert not re.search(PENALTY_WORDS, lines[name]), (name, lines[name])


def table_lines(text: str) -> dict[str, str]:
    """What a table (and the lines under it) says of each bot: its rows and its lines."""
    found = {name: "" for name in BOTS_OF}
    for line in text.splitlines():
        for name in BOTS_OF:
            if re.search(rf"(^|[│ ]){name}(:| *│)", line):
                # The bot's own row or its line below: drop the name and the count columns.
                found[name] += " " + line.split(name, 1)[1]
    return found


def json_lines(players: list[dict], key: str = "penalties") -> dict[str, str]:
    return {p["name"]: "; ".join(p[key]) for p in players}


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict:
    """Every output, each made once: the match, a batch, a tournament, the results."""
    db = str(tmp_path_factory.mktemp("penalties") / "p.sqlite")
    found = {"run_table": shown("run", *LINEUP, *QUICK, "--seed", "3"),
             "run_json": json.loads(shown("run", *LINEUP, *QUICK, "--seed", "3", "--json")),
             "batch_table": shown("batch", *LINEUP, *RUNS, "--first-seed", "3", "--seeds", "1",
                                  "--db", db),
             # The same command again plays nothing (it is stored) and says it as JSON.
             "batch_json": json.loads(shown("batch", *LINEUP, *RUNS, "--first-seed", "3",
                                            "--seeds", "1", "--db", db, "--json")),
             "tournament_table": shown("tournament", *LINEUP, *RUNS, "--format", "ffa",
                                       "--games", "1", "--first-seed", "4", "--db", db),
             "tournament_json": json.loads(shown("tournament", *LINEUP, *RUNS, "--format",
                                                 "ffa", "--games", "1", "--first-seed", "4",
                                                 "--db", db, "--json")),
             "db": db}
    runs = json.loads(shown("results", db, "--json"))["runs"]
    batch = next(r["id"] for r in runs if r["kind"] == "batch")
    found["results_table"] = shown("results", db, "--run", batch)
    found["results_json"] = json.loads(shown("results", db, "--run", batch, "--json"))
    found["csv"] = list(csv.DictReader(io.StringIO(shown("results", db, "--export", "csv"))))
    return found


def test_the_run_table_and_json_name_every_penalty(played) -> None:
    said_of(table_lines(played["run_table"]))
    said_of(json_lines(played["run_json"]["players"]))
    said_of({p["name"]: p["note"] for p in played["run_json"]["players"]})
    printer = next(p for p in played["run_json"]["players"] if p["name"] == "Printer")
    assert printer["output_dropped"] > 1_000_000


@pytest.mark.parametrize("output", ["batch", "tournament", "results"])
def test_batch_tournament_and_results_tables_and_json_name_every_penalty(played,
                                                                         output) -> None:
    table = table_lines(played[f"{output}_table"])
    said_of(table)
    said_of(json_lines(played[f"{output}_json"]["players"]))
    # Counted over the games: the erase with its count, the overheats in how many games.
    assert re.search(r"1 x erased \(cpu time limit, turn 1\)", table["Spinner"])
    assert re.search(r"\d+ overheats in 1 game, first: ValueError: boom", table["Raiser"])


def test_results_games_say_erased_and_why_not_lost(played) -> None:
    db = played["db"]
    table = shown("results", db, "--games", "--bot", "Spinner")
    assert "erased (cpu time limit, turn 1)" in table and "│ lost" not in table
    games = json.loads(shown("results", db, "--games", "--bot", "Spinner", "--json"))["games"]
    assert games and all(g["outcome"] == "erased (cpu time limit, turn 1)" for g in games)
    for name, pattern in EXPECTED.items():
        rows = list(csv.DictReader(io.StringIO(shown("results", db, "--games", "--bot", name,
                                                     "--export", "csv"))))
        assert len(rows) == 2 and all(re.search(pattern, row["penalties"]) for row in rows), \
            (name, rows)
    listed = shown("results", db, "--games", "--bot", "Printer")
    assert re.search(EXPECTED["Printer"], listed), listed


def test_the_csv_export_names_every_penalty(played) -> None:
    rows = played["csv"]
    assert len(rows) == 2 * len(BOTS_OF)          # the batch's match and the tournament's
    for row in rows:
        if row["name"] in EXPECTED:
            assert re.search(EXPECTED[row["name"]], row["penalties"]), row
        else:
            assert row["penalties"] == "", row
    assert all(int(row["output_dropped"]) > 1_000_000 for row in rows
               if row["name"] == "Printer")


def test_the_ladder_match_page_names_every_penalty(played) -> None:
    """The ladder keeps a match's result as `arena run --json` says it; its page shows each
    player's penalties, HTML-escaped."""
    from orchestrator.web.ladder.app import page_templates
    match = {**played["run_json"], "id": 1}
    page = page_templates().get_template("match.html").render(games=["arena"], match=match)
    rows = {name: row for row in re.findall(r"<tr class=.*?</tr>", page)
            for name in BOTS_OF if f"<td>{name}</td>" in row}
    said_of({name: re.sub(r"<[^>]+>", " ", row.split(f"<td>{name}</td>", 1)[1])
             .replace("&#39;", "'") for name, row in rows.items()})


def test_check_shows_rule_one_and_strict_fails_on_it() -> None:
    gossip = str(BOTS_OF["Gossip"])
    done = arena("check", gossip, "--once", "--turns", "3")
    assert done.returncode == 0 and "rule 1: module state changed by move(): seen" in \
        done.stdout, done
    done = arena("check", gossip, "--once", "--turns", "3", "--strict")
    assert done.returncode == 1 and "warnings (--strict): rule 1" in done.stderr, done
    verdict = api.check(gossip, once=True, turns=3, strict=True, progress=False)
    assert not verdict["ok"] and verdict["failure"] == "warnings"
    assert api.check(gossip, once=True, turns=3, progress=False)["ok"]


def test_the_ladder_match_table_names_each_erase(played, tmp_path) -> None:
    """The ladder's match rows (the index, a game's and a bot's pages, /api/matches) say
    an erased seat's reason and turn, not only `erased`."""
    from orchestrator.web.ladder.app import page_templates
    from orchestrator.web.ladder.service import Ladder
    from orchestrator.web.ladder.store import LadderStore
    store = LadderStore(tmp_path / "ladder.sqlite")
    result = played["run_json"]
    lineup = [(store.add_bot("arena", p["name"], "x", "bot.py", p["sha256"], b"", {}), 1)
              for p in sorted(result["players"], key=lambda p: p["seat"])]
    queued = store.enqueue("arena", "tiny", lineup, True)
    store.finish(queued, "d", result, 1.0, [])
    ladder = Ladder.__new__(Ladder)           # the listing needs only the store and a lock
    ladder.store, ladder.lock = store, threading.RLock()
    listed = ladder.matches_list()
    said = {p["name"]: p["penalty"] for p in listed[0]["players"]}
    assert said["Spinner"] == "erased (cpu time limit, turn 1)", said
    assert re.fullmatch(EXPECTED["MemoryBomb"], said["MemoryBomb"]), said
    assert said["Hunter"] == ""
    page = page_templates().get_template("index.html").render(
        games=["arena"], boards=[], latest=listed)
    assert "(erased (cpu time limit, turn 1))" in page, page



@pytest.mark.parametrize("sandbox", ["standard", "bwrap"])
def test_the_memory_at_a_memory_erase_is_the_memory_then(sandbox) -> None:
    """Under bwrap, wait4 reports bwrap's own peak and the interpreter's was read only
    between turns: an AI erased for memory showed the 15 MB it held before its last turn.
    The host now reads it at the erase (the memory cgroup's high-water mark outlives the
    process)."""
    if sandbox == "bwrap" and shutil.which("bwrap") is None:
        pytest.skip("the bwrap tier needs bubblewrap (make test installs it as root)")
    result = json.loads(shown("run", str(BOTS_OF["MemoryBomb"]), str(BOTS_OF["Hunter"]),
                              *QUICK, "--seed", "3", "--sandbox", sandbox, "--json"))
    bomb = next(p for p in result["players"] if p["name"] == "MemoryBomb")
    assert bomb["status"] == "erased" and bomb["reason"].startswith("memory limit"), bomb
    assert 60 <= bomb["peak_rss_mb"] <= 120, bomb       # the cap is 80 MiB (+ the cgroup's slack)
    assert re.fullmatch(EXPECTED["MemoryBomb"], bomb["note"]), bomb["note"]


def test_the_python_api_and_its_html_name_every_penalty(played) -> None:
    """`api.open_store(DB).run(ID)`: each Standing's penalties, and the notebook's table."""
    store = api.open_store(played["db"])
    batch = next(run for run in store.runs() if run.kind == "batch")
    table = store.run(batch.id)
    said_of({row.name: "; ".join(row.penalties) for row in table.players})
    page = table._repr_html_()
    assert "erased (cpu time limit, turn 1)" in page and "output cut: " in page


@pytest.mark.parametrize("record", ['{"errors": "x"}', "[1]", "not json",
                                    '{"errors": [], "violations": [], "warnings": [], '
                                    '"output_dropped": -1}'])
def test_a_forged_penalties_record_is_one_error_line(played, tmp_path, record) -> None:
    """A results file may come from anyone: a participant's kept penalties that are not
    a record arena writes are refused with one line naming the field, never walked."""
    forged = tmp_path / "forged.sqlite"
    shutil.copy(played["db"], forged)
    with sqlite3.connect(forged) as conn:
        conn.execute("UPDATE penalties SET record = ?", (record,))
    for args in (["--export", "csv"], ["--games", "--bot", "Spinner"]):
        done = arena("results", str(forged), *args)
        assert done.returncode == 2 and done.stdout == "", done
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ") and \
            "penalties must be a record arena writes" in done.stderr, done.stderr
