"""A long Robot Game batch: the parent's RSS after 1,000 matches and at the end.

`arena batch` keeps running aggregates (summary.Tally) for its live standings and reads
the store one match at a time for the final summary, so its memory should not grow with
the batch's length. Target: the two figures within 10 % of each other.
"""
from __future__ import annotations

import argparse
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
BOTS = [ROOT / "bots" / "robotgame" / name for name in ("coordinator.py", "survivor.py")]


def finished(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
            return conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    except sqlite3.Error:
        return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--early", type=int, default=1_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "long.sqlite"
        started = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "orchestrator", "batch", *map(str, BOTS),
                                 "--game", "robotgame", "--seeds", str(args.matches),
                                 "--db", str(db), "--json"], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        parent = psutil.Process(proc.pid)
        samples: list[tuple[int, float]] = []      # (matches finished, parent RSS in MB)
        while proc.poll() is None:
            count = finished(db)
            try:
                samples.append((count, parent.memory_info().rss / 1e6))
            except psutil.Error:
                break
            time.sleep(0.5)
        assert proc.wait() == 0, "the batch failed"
        elapsed = time.monotonic() - started
    # An instant's RSS swings with what is being rendered or collected: compare medians
    # over the 1,000 matches after the first `early`, and over the last 1,000.
    early = [rss for count, rss in samples if args.early <= count < 2 * args.early]
    late = [rss for count, rss in samples if count >= args.matches - args.early]
    e, late_median = statistics.median(early), statistics.median(late)
    print(f"Robot Game batch of {args.matches} matches (coordinator v survivor) in "
          f"{elapsed:.0f} s")
    print(f"parent RSS, median of samples: {e:.1f} MB over matches {args.early}-"
          f"{2 * args.early}, {late_median:.1f} MB over the last {args.early} "
          f"({late_median / e - 1:+.1%}; target: within 10 %); peak "
          f"{max(rss for _, rss in samples):.1f} MB")


if __name__ == "__main__":
    main()
