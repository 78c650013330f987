"""A new results file is made in one synced write, not one per table."""
from __future__ import annotations

import sqlite3

from orchestrator.results import store


def test_a_new_results_file_is_in_wal_mode_before_its_tables_are_made(tmp_path,
                                                                       monkeypatch) -> None:
    # Each CREATE of the schema, in the rollback journal's mode, was a transaction of its
    # own, synced to the disk: 200 ms of wall time in every batch into a new file.
    # In WAL mode first, with NORMAL syncing, the tables go to the log, synced once.
    said: list[str] = []
    connect = sqlite3.connect

    def traced(*args, **kwargs):
        db = connect(*args, **kwargs)
        db.set_trace_callback(said.append)
        return db

    monkeypatch.setattr(store.sqlite3, "connect", traced)
    opened = store.Store(tmp_path / "results.sqlite")
    creates = [i for i, sql in enumerate(said) if sql.lstrip().upper().startswith("CREATE")]
    wal = [i for i, sql in enumerate(said) if "journal_mode=WAL" in sql]
    normal = [i for i, sql in enumerate(said) if "synchronous=NORMAL" in sql]
    assert creates and wal and normal, said
    assert wal[0] < creates[0] and normal[0] < creates[0], said
    assert opened.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    opened.close()
    again = store.Store(tmp_path / "results.sqlite")        # an existing file opens alike
    assert again.db.execute("SELECT count(*) FROM runs").fetchone()[0] == 0
    again.close()
