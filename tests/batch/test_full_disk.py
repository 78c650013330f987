"""A batch whose results disk fills up: one `error:` line naming the file, the problem and
what to do, exit status 2 and no traceback; what was recorded stays, no half-written
replay is left, and the same command resumes once there is room.

The disk is a small tmpfs mounted in a private mount namespace (root only): a holder
process keeps the namespace, and every command runs inside it with nsenter, so the mount
is never seen by the rest of the machine and goes away with the holder.
"""
from __future__ import annotations

import errno
import json
import os
import sqlite3
import subprocess

import pytest

from engine import InputError
from orchestrator.results.store import Store, WriteFailed
from orchestrator.service.batch import stopped_writing, write_whole
from tests.support.paths import ARENA_CMD, BOTS, ROOT

SEEDS = 40
SMALL, ROOMY = "300k", "16m"


@pytest.fixture
def small_disk(tmp_path):
    """(folder, run): a SMALL tmpfs at `folder` in a mount namespace of its own, and a
    function that runs a command inside that namespace."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (the unit tests below run anyway)")
    folder = tmp_path / "disk"
    folder.mkdir()
    holder = subprocess.Popen(
        ["unshare", "-m", "--propagation", "private", "sh", "-c",
         f"mount -t tmpfs -o size={SMALL} tmpfs '{folder}' && echo ready && exec sleep 600"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        if holder.stdout.readline().strip() != "ready":
            holder.wait(timeout=10)
            pytest.skip(f"no private tmpfs here: {holder.stderr.read().strip()}")

        def run(*command: str) -> subprocess.CompletedProcess:
            return subprocess.run(["nsenter", "-t", str(holder.pid), "-m", *command],
                                  cwd=ROOT, capture_output=True, text=True, timeout=300)
        yield folder, run
    finally:
        holder.kill()
        holder.wait(timeout=10)


def test_a_batch_on_a_full_disk_stops_with_one_line_and_resumes(small_disk) -> None:
    folder, run = small_disk
    db = folder / "results.sqlite"
    batch = [*ARENA_CMD, "batch", str(BOTS / "hunter.py"), str(BOTS / "beeline.py"),
             "--seeds", str(SEEDS), "--map", "tiny", "--robots", "3", "--max-turns", "20",
             "--workers", "2", "--db", str(db), "--replays", "--json", "--first-seed", "1"]
    # A first seed given: the second results file below plays the same matches, so the
    # replays it writes before the disk fills are the same files, not three more.

    first = run(*batch)
    assert first.returncode == 2, first.stderr
    assert first.stdout == "" and "Traceback" not in first.stderr
    lines = first.stderr.strip().splitlines()
    assert len(lines) == 1, first.stderr
    line = lines[0]
    assert line.startswith(f"error: {folder}/") and "cannot write the results (the disk " \
        "is full)" in line, line
    assert line.endswith(f"matches are saved in {db}: free some space, then run the same "
                         f"command again to resume"), line
    saved = int(line.split("; ")[1].split(" of ")[0])
    assert 0 < saved < SEEDS, line            # it filled up partway through

    # A new results file on the full disk: the same one line, whether its opening or its
    # first write finds no room.
    other = run(*[str(folder / "other.sqlite") if arg == str(db) else arg for arg in batch])
    assert other.returncode == 2 and "Traceback" not in other.stderr, other.stderr
    assert len(other.stderr.strip().splitlines()) == 1, other.stderr
    assert other.stderr.startswith(f"error: {folder}/other.sqlite: cannot ")
    assert "(the disk is full)" in other.stderr and "free some space, then run the same " \
        "command again" in other.stderr
    run("rm", "-f", *(str(folder / f"other.sqlite{end}") for end in ("", "-wal", "-shm")))

    grown = run("mount", "-o", f"remount,size={ROOMY}", str(folder))
    assert grown.returncode == 0, grown.stderr
    again = run(*batch)
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["skipped"] == saved and report["matches"] == SEEDS   # only what was missing

    stored = json.loads(run(*ARENA_CMD, "results", str(db), "--json").stdout)
    assert [(r["planned"], r["finished"]) for r in stored["runs"]] == [(SEEDS, SEEDS)]
    listed = run("ls", "-A", str(folder / "replays")).stdout.split()
    assert len(listed) == SEEDS and all(name.endswith(".json.gz") for name in listed)


def test_a_failed_write_names_the_file_the_problem_and_what_to_do(tmp_path) -> None:
    """The message itself, from a real ENOSPC (/dev/full) and SQLite's own full-disk
    error; another failure names its problem and says to fix it."""
    try:
        with open("/dev/full", "wb", buffering=0) as full:
            full.write(b"x")
        pytest.fail("/dev/full took a write")
    except OSError as exc:
        no_space = exc
    assert no_space.errno == errno.ENOSPC
    store = Store(tmp_path / "r.sqlite")
    replay = tmp_path / "replays" / "abc.json.gz"
    with pytest.raises(WriteFailed) as caught, store.writing(replay):
        raise no_space
    assert caught.value.full and caught.value.path == replay
    told = stopped_writing(caught.value, store, "no-such-run", 7, "matches")
    assert isinstance(told, InputError)
    assert str(told) == (f"{replay}: cannot write the results (the disk is full); 0 of 7 "
                         f"matches are saved in {store.path}: free some space, then run the "
                         f"same command again to resume")

    sqlite_full = WriteFailed(store.path, sqlite3.OperationalError("database or disk is full"))
    assert sqlite_full.full and sqlite_full.problem == "the disk is full"
    locked = WriteFailed(store.path, sqlite3.OperationalError("database is locked"))
    assert not locked.full and locked.hint() == "fix that"
    assert str(locked) == f"{store.path}: cannot write the results (database is locked)"


def test_a_replay_is_written_whole_or_not_at_all(tmp_path, monkeypatch) -> None:
    target = tmp_path / "replays" / "m.json.gz"
    write_whole(target, b"first")
    assert target.read_bytes() == b"first"

    opened = os.fdopen

    class Full:
        """The new file's handle, on a disk that fills after 2 bytes."""

        def __init__(self, fd: int, *args, **kwargs) -> None:
            self.handle = opened(fd, *args, **kwargs)

        def __enter__(self) -> "Full":
            return self

        def __exit__(self, *exc) -> None:
            self.handle.close()

        def write(self, data: bytes) -> int:
            self.handle.write(data[:2])     # a part of it reached the disk...
            self.handle.flush()
            raise OSError(errno.ENOSPC, "No space left on device")     # ...then no more

    monkeypatch.setattr(os, "fdopen", Full)
    with pytest.raises(OSError):
        write_whole(target, b"second")
    assert target.read_bytes() == b"first"                    # the old one, whole
    assert sorted(p.name for p in target.parent.iterdir()) == ["m.json.gz"]
