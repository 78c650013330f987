"""Ctrl-C in the Python API: a batch called from a script or a notebook stops
every bot process, raises `api.Interrupted` (its message says what was kept), and
the same call resumes from the store, as `arena batch` does."""
from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from orchestrator import api
from tests.support.paths import BOTS, ROOT
from tests.support.processes import default_sigint

SAMPLES = [str(BOTS / n) for n in ("beeline.py", "hunter.py", "turtle.py", "randy.py")]
# 12 seeds: the signal comes after 4, and at least one is still to play.
ARGS = dict(seeds=12, map="tiny", robots=6, max_turns=80, workers=2, progress=False)
SCRIPT = f"""
import sys
from orchestrator import api
try:
    api.batch({SAMPLES!r}, db=sys.argv[1], **{ARGS!r})
except api.Interrupted as exc:
    print("caught:", exc)
    sys.exit(3)
"""


def saved(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0]


def test_ctrl_c_stops_an_api_batch_which_the_same_call_resumes(tmp_path) -> None:
    db = tmp_path / "r.sqlite"
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, str(db)], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=default_sigint)
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            if db.exists() and saved(db) >= 4:
                break
        except sqlite3.OperationalError:
            pass
        time.sleep(0.05)
    else:
        pytest.fail(f"the batch recorded no matches: {proc.communicate()}")
    family = psutil.Process(proc.pid).children(recursive=True)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 3, err                  # the script caught api.Interrupted
    assert out.startswith("caught: interrupted") and "Traceback" not in err, (out, err)
    _, alive = psutil.wait_procs(family, timeout=10)
    assert not alive, f"left running: {alive}"
    before = saved(db)
    assert 4 <= before < ARGS["seeds"]
    resumed = api.batch(SAMPLES, db=db, **ARGS)
    assert resumed.to_json()["skipped"] == before
    assert resumed.to_json()["matches"] == saved(db) == ARGS["seeds"]
