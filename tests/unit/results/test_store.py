"""The results store's round trip in a temporary SQLite file: what a batch writes is what
every reader gets back, and a file holding what arena never writes is refused with one
InputError that names the file, the match and the field."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, cast

import pytest

from engine import InputError
from orchestrator.results import penalties
from orchestrator.results.match_result import MatchData, PlayerData
from orchestrator.results.store import Store, digest


def player(seat: int, name: str, rank: int, **more: Any) -> PlayerData:
    return cast(PlayerData, {
            "name": name, "seat": seat, "bot": f"bots/{name}.py", "sha256": f"{seat:064x}",
            "rank": rank, "status": "ok", "reason": None, "turn": None, "overheats": 1,
            "cpu_s": 0.25, "own_s": 0.5, "peak_rss_mb": 31.5,
            "stats": {"decisions": 10 + seat, "faults": {"hang": seat}, "score": 3 - seat},
            "warnings": [], "errors": [], "output": "", "output_dropped": 0,
            "violations": [], **more})


def match(seed: int, **more: Any) -> MatchData:
    return cast(MatchData, {
            "game": "arena", "engine_version": "1", "seed": seed, "map": "tiny", "rules":
            {"max_turns": 5}, "turns": 5, "end": "turns", "winner": "a", "runner_up": "b",
            "restarts": 0, "sandbox_mode": "standard", "replay": None,
            "players": [player(0, "a", 1, description="says hello"),
                        player(1, "b", 2, errors=["ValueError: no", "second"],
                               violations=["open /etc/passwd"], output_dropped=7)],
            **more})


@pytest.fixture
def store(tmp_path: Path):
    opened = Store(tmp_path / "results.sqlite")
    yield opened
    opened.close()


def test_a_match_reads_back_as_it_was_written(store: Store) -> None:
    written = match(7, moves=digest(["N", "S"]))
    store.add_run("run1", "batch", "arena", {"seeds": 2}, ["m1", "m2"])
    store.add_match("m1", written, wall_s=1.5, inputs={"seed": 7})
    [read] = store.run_results("run1")
    assert (read["id"], read["game"], read["map"], read["seed"], read["turns"], read["end"],
            read["restarts"], read["replay"], read["ordinal"]) == (
        "m1", "arena", "tiny", 7, 5, "turns", 0, None, 0)
    assert read["moves"] == written["moves"]
    for got, put in zip(read["players"], written["players"], strict=True):
        for key in ("seat", "name", "bot", "sha256", "rank", "status", "reason", "turn",
                    "overheats", "cpu_s", "peak_rss_mb", "stats", "own_s"):
            assert got[key] == put[key], key
        assert {key: got[key] for key in penalties.record(put)} == penalties.record(put)
    assert read["players"][0]["description"] == "says hello"
    assert read["players"][1]["errors"] == ["ValueError: no"]      # the first one kept
    assert store.inputs("m1") == {"seed": 7}


def test_a_run_counts_its_finished_matches_in_schedule_order(store: Store) -> None:
    store.add_run("run1", "tournament", "arena", {"games": 3}, ["m1", "m2", "m3"])
    store.add_match("m3", match(3), wall_s=1)
    store.add_match("m1", match(1), wall_s=1)
    assert [m["id"] for m in store.run_results("run1")] == ["m1", "m3"]
    assert [m["ordinal"] for m in store.iter_run_results("run1")] == [0, 2]
    assert store.run_count("run1") == 2
    assert store.done(["m1", "m2", "m3"]) == {"m1", "m3"}
    [run] = store.runs()
    assert (run["id"], run["kind"], run["game"], run["args"], run["planned"],
            run["finished"]) == ("run1", "tournament", "arena", {"games": 3}, 3, 2)


def test_writing_a_match_again_replaces_it(store: Store) -> None:
    store.add_match("m1", match(1), wall_s=1)
    again = match(2)
    again["players"] = again["players"][:1]
    store.add_match("m1", again, wall_s=1)
    [read] = store.iter_matches()
    assert read["seed"] == 2 and len(read["players"]) == 1


def test_the_file_reopens_with_what_it_holds(tmp_path: Path) -> None:
    path = tmp_path / "results.sqlite"
    first = Store(path)
    first.add_match("abc123", match(4), wall_s=1)
    first.add_match("abd456", match(5), wall_s=1)
    first.close()
    second = Store(path)
    assert second.match_ids("abc") == ["abc123"]
    assert second.match_ids("ab") == ["abc123", "abd456"]
    assert second.match("abd456")["seed"] == 5
    second.close()


def test_a_file_from_before_descriptions_and_penalties_reads_empty_ones(store: Store) -> None:
    store.add_match("m1", match(1), wall_s=1)
    store.db.execute("DELETE FROM penalties")
    store.db.execute("DELETE FROM bot_texts")
    read = store.match("m1")
    assert [p["description"] for p in read["players"]] == ["", ""]
    assert [p["errors"] for p in read["players"]] == [[], []]


HOSTILE = [
    ("UPDATE matches SET seed = 'seven'", "seed must be"),
    ("UPDATE matches SET turns = -1", "turns must be"),
    ("UPDATE participants SET rank = 1.5 WHERE seat = 1", "players[1].rank must be"),
    ("UPDATE participants SET stats = '[1, 2]' WHERE seat = 0", "players[0].stats must be"),
    ("UPDATE participants SET stats = '{\"a\": ' WHERE seat = 0", "players[0].stats must be"),
    ("UPDATE penalties SET record = '{\"errors\": 5}' WHERE seat = 1",
     "players[1].penalties must be"),
    ("UPDATE penalties SET record = " + repr(json.dumps(
        {"errors": [], "violations": [], "warnings": [], "output_dropped": -1}))
     + " WHERE seat = 0", "players[0].penalties must be"),
]


@pytest.mark.parametrize("statement, said", HOSTILE, ids=[s for _, s in HOSTILE])
def test_a_row_arena_never_writes_is_one_input_error(store: Store, statement: str,
                                                     said: str) -> None:
    store.add_match("m1", match(1), wall_s=1)
    store.db.execute(statement)
    with pytest.raises(InputError) as refused:
        store.match("m1")
    text = str(refused.value)
    assert text.startswith(f"{store.path}: the results file's match 'm1'"), text
    assert said in text and "\n" not in text, text


def test_text_that_is_not_utf8_is_refused_naming_the_file(store: Store) -> None:
    store.add_match("m1", match(1), wall_s=1)
    store.db.execute("UPDATE matches SET map = CAST(X'ff6d6170' AS TEXT)")
    with pytest.raises(InputError, match="holds text that is not UTF-8"):
        store.match("m1")


def test_a_file_that_is_not_sqlite_is_one_input_error(tmp_path: Path) -> None:
    path = tmp_path / "results.sqlite"
    path.write_bytes(b"not a database, " * 100)
    with pytest.raises(InputError) as refused:
        Store(path)
    assert str(refused.value).startswith(f"{path}: cannot open the results database")


def test_a_failed_write_leaves_nothing_of_the_match(store: Store) -> None:
    broken = match(1)
    cast(dict[str, Any], broken["players"][1]).pop("peak_rss_mb")  # a KeyError half-way
    with pytest.raises(KeyError):
        store.add_match("m1", broken, wall_s=1)
    assert store.done(["m1"]) == set()
    assert store.db.execute("SELECT count(*) FROM participants").fetchone()[0] == 0
    assert not store.db.in_transaction


def test_the_digest_is_of_the_value_not_its_order_of_keys() -> None:
    assert digest({"a": 1, "b": [2]}) == digest({"b": [2], "a": 1})
    assert digest({"a": 1}) != digest({"a": 2})


def test_sqlite_is_the_only_file_it_touches(tmp_path: Path) -> None:
    opened = Store(tmp_path / "deep" / "er" / "results.sqlite")
    opened.close()
    assert sorted(p.name for p in (tmp_path / "deep" / "er").iterdir() if
                  not p.name.endswith(("-wal", "-shm"))) == ["results.sqlite"]
    assert sqlite3.connect(tmp_path / "deep" / "er" / "results.sqlite").execute(
        "SELECT count(*) FROM matches").fetchone() == (0,)
