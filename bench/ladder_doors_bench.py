"""The ladder's doors under the issue's two attacks, against one `arena serve` (give
another checkout's `arena` with --arena to measure it side by side):

1. Memory: 200 MB sent with Transfer-Encoding: chunked to POST /api/challenges, without a
   token. The server process's peak resident memory (VmHWM) before and after, and its
   resident memory (VmRSS) once it has answered; the answer's status, and how much was
   sent before it came.
2. Rated play during a challenge flood: three Robot Game bots; rated matches finished in
   a quiet minute, then in a minute in which one token posts challenges naming the other
   two as fast as it is answered. Also the challenges accepted, refused and played, and
   the server process's CPU in that minute (workers not included).

Loopback only (127.0.0.1, a port the OS picks); every loop is bounded in bytes or time.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.ladder.test_doors import chunked_post, vm  # noqa: E402
from tests.support.ladder import Server  # noqa: E402

RG = ROOT / "bots" / "robotgame"


def memory(server: Server, total: int) -> dict:
    before = vm(server.proc.pid, "VmHWM")
    answer, sent = chunked_post(server.port, "/api/challenges", None, total)
    time.sleep(1.0)
    return {"peak before MiB": before / 1024, "peak after MiB": vm(server.proc.pid, "VmHWM") / 1024,
            "resident after MiB": vm(server.proc.pid, "VmRSS") / 1024,
            "answer": answer.split(b"\r\n", 1)[0].decode(errors="replace"),
            "sent before the answer MiB": sent / (1 << 20)}


def rated_in(server: Server, since: float, until: float) -> tuple[int, int]:
    """(rated, unrated) matches finished in [since, until), by the server's clock."""
    found = [m for m in server.matches() if since <= m["finished"] < until]
    return sum(m["rated"] for m in found), sum(not m["rated"] for m in found)


def cpu_s(pid: int) -> float:
    """The process's user + system CPU seconds so far (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def flood(server: Server, seconds: float, nice: int = 0) -> dict:
    bots = []
    for name in ("example", "rusher", "survivor"):
        made = server.upload("robotgame", name, RG / f"{name}.py")
        assert made.status_code == 201, made.text
        bots.append((made.json()["id"], made.json()["token"]))
    time.sleep(5)                                        # the first matches under way
    quiet = time.time()
    time.sleep(seconds)
    os.nice(nice)          # the flooding client only (the server was started before)
    started, cpu = time.time(), cpu_s(server.proc.pid)
    codes: dict[int, int] = {}
    (mine, token), others = bots[0], [b for b, _ in bots[1:]]
    with httpx.Client(base_url=server.url, timeout=30) as client:
        while time.time() < started + seconds:
            answer = client.post("/api/challenges", json={"bots": [mine, others[len(codes) % 2]]},
                                 headers={"Authorization": f"Bearer {token}"})
            codes[answer.status_code] = codes.get(answer.status_code, 0) + 1
    ended, cpu = time.time(), cpu_s(server.proc.pid) - cpu
    time.sleep(0.5)
    quiet_rated, _ = rated_in(server, quiet, started)
    rated, challenges = rated_in(server, started, ended)
    return {"rated per minute, quiet": quiet_rated * 60 / (started - quiet),
            "rated per minute, flood": rated * 60 / (ended - started),
            "challenges played in the flood": challenges, "challenge answers": codes,
            "server CPU in the flood, share of one core": cpu / (ended - started),
            "queue after": server.client.get("/api/health").json()["queue"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arena", default=None, help="an `arena` executable (default: "
                                                      "this checkout's, via python -m)")
    parser.add_argument("--megabytes", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--client-nice", type=int, default=0,
                        help="the flooding client's niceness: 19 leaves the machine's CPU "
                             "to the server and its workers, as an attacker elsewhere would")
    args = parser.parse_args()
    arena = [args.arena] if args.arena else None
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "memory.sqlite", "--games", "robotgame", "--workers",
                        str(args.workers), arena=arena)
        try:
            print("memory:", memory(server, args.megabytes * 1_000_000))
        finally:
            server.stop()
        server = Server(Path(tmp) / "flood.sqlite", "--games", "robotgame", "--workers",
                        str(args.workers), arena=arena)
        try:
            print("flood:", flood(server, args.seconds, args.client_nice))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
