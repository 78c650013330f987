"""The ladder server against `arena batch`, side by side in one run, over loopback.

1. Throughput: the same two Robot Game bots, the same number of workers. `arena batch`
   plays M seeds into a fresh results file; the ladder (`arena serve`, with only those two
   bots uploaded) plays until it has M matches, timed from the second upload's answer.
   Rounds alternate the two; medians are reported. The ladder also writes every match's
   replay, which the batch is not asked to.
2. Latency: while the ladder keeps playing on every worker, 50 concurrent clients send
   a bounded number of requests to GET /api/ladders/robotgame, then to /ladder/robotgame
   (the page). p50 and p99 of each, and the matches that finished meanwhile.

Every request goes to 127.0.0.1; each load loop is bounded in count and in time.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import h11
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from orchestrator.runner.execute import default_workers  # noqa: E402
from tests.support.ladder import Server  # noqa: E402

out = Console(width=110)
BOTS = [ROOT / "bots" / "robotgame" / name for name in ("coordinator.py", "survivor.py")]
CLIENTS = 50


def batch_rate(matches: int, workers: int, tmp: Path) -> float:
    """Matches per minute of `arena batch`, the whole command timed."""
    db = tmp / f"batch-{time.monotonic_ns()}.sqlite"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "orchestrator", "batch", *map(str, BOTS),
                    "--game", "robotgame", "--seeds", str(matches), "--workers", str(workers),
                    "--db", str(db), "--json"], check=True, capture_output=True, cwd=ROOT)
    return matches / (time.perf_counter() - started) * 60


def ladder_rate(matches: int, workers: int, tmp: Path) -> float:
    """Matches per minute of the ladder, from the moment both bots are on it."""
    server = Server(tmp / f"ladder-{time.monotonic_ns()}.sqlite", "--games", "robotgame",
                    "--workers", str(workers))
    try:
        for path in BOTS:
            assert server.upload("robotgame", path.stem, path).status_code == 201
        started = time.perf_counter()
        while server.client.get("/api/ladders/robotgame").json()["matches"] < matches:
            time.sleep(0.05)
        return matches / (time.perf_counter() - started) * 60
    finally:
        server.stop()


async def load(url: str, path: str, per_client: int, limit_s: float) -> list[float]:
    """Latencies (ms) of CLIENTS concurrent clients sending `per_client` requests each, one
    after another, each over its own keep-alive connection.

    The clients speak HTTP/1.1 through h11 on asyncio streams: httpx, measured here, spent
    4 ms of CPU per request on this machine, six times the server's, so the numbers were
    the load generator's.
    """
    host, port = url.removeprefix("http://").split(":")
    deadline = time.monotonic() + limit_s
    latencies: list[float] = []

    async def client() -> None:
        reader, writer = await asyncio.open_connection(host, int(port))
        conn = h11.Connection(h11.CLIENT)
        try:
            for _ in range(per_client):
                if time.monotonic() > deadline:
                    return
                started = time.perf_counter()
                writer.write(conn.send(h11.Request(method="GET", target=path,
                                                   headers=[("Host", host)])))
                writer.write(conn.send(h11.EndOfMessage()))
                status = 0
                while True:
                    event = conn.next_event()
                    if event is h11.NEED_DATA:
                        conn.receive_data(await reader.read(65536))
                    elif isinstance(event, h11.Response):
                        status = event.status_code
                    elif isinstance(event, h11.EndOfMessage):
                        break
                latencies.append((time.perf_counter() - started) * 1000)
                assert status == 200, status
                conn.start_next_cycle()
        finally:
            writer.close()

    await asyncio.gather(*(client() for _ in range(CLIENTS)))
    return latencies


def latency(workers: int, per_client: int, tmp: Path) -> list[tuple]:
    server = Server(tmp / "latency.sqlite", "--games", "robotgame", "--workers", str(workers))
    rows = []
    try:
        for path in (*BOTS, ROOT / "bots" / "robotgame" / "rusher.py",
                     ROOT / "bots" / "robotgame" / "example.py"):
            assert server.upload("robotgame", path.stem, path).status_code == 201
        while server.client.get("/api/ladders/robotgame").json()["matches"] < 20:
            time.sleep(0.1)
        for path in ("/api/ladders/robotgame", "/ladder/robotgame"):
            before = server.client.get("/api/ladders/robotgame").json()["matches"]
            running = server.client.get("/api/health").json()["running"]
            found = asyncio.run(load(server.url, path, per_client, 120.0))
            after = server.client.get("/api/ladders/robotgame").json()["matches"]
            cuts = statistics.quantiles(found, n=100)
            rows.append((path, len(found), cuts[49], cuts[98], running, after - before))
    finally:
        server.stop()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--requests", type=int, default=100, help="per client and endpoint")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rates: dict[str, list[float]] = {"batch": [], "ladder": []}
        for _ in range(args.rounds):
            rates["batch"].append(batch_rate(args.matches, args.workers, Path(tmp)))
            rates["ladder"].append(ladder_rate(args.matches, args.workers, Path(tmp)))
        batch, ladder = (statistics.median(rates[k]) for k in ("batch", "ladder"))
        table = Table(title=f"Robot Game, coordinator v survivor, {args.matches} matches, "
                            f"{args.workers} workers, median of {args.rounds} rounds")
        for column in ("runner", "matches/min", "rounds", "vs batch"):
            table.add_column(column, justify="right")
        table.add_row("arena batch", f"{batch:.0f}",
                      ", ".join(f"{r:.0f}" for r in rates["batch"]), "1.00")
        table.add_row("arena serve (ladder)", f"{ladder:.0f}",
                      ", ".join(f"{r:.0f}" for r in rates["ladder"]), f"{ladder / batch:.2f}")
        out.print(table)
        out.print(f"ladder throughput = {ladder / batch:.0%} of the batch's (target: >= 90 %)")

        rows = latency(args.workers, args.requests, Path(tmp))
        table = Table(title=f"{CLIENTS} concurrent clients over loopback while matches run")
        for column in ("GET", "requests", "p50 ms", "p99 ms", "running", "matches meanwhile"):
            table.add_column(column, justify="right")
        for path, count, p50, p99, running, played in rows:
            table.add_row(path, str(count), f"{p50:.1f}", f"{p99:.1f}", str(running),
                          str(played))
        out.print(table)
        out.print(f"worst p99: {max(r[3] for r in rows):.1f} ms (target: under 100 ms)")


if __name__ == "__main__":
    main()
