"""Run planned matches in parallel: a local process pool, or a Dask cluster.

Workers play matches and return plain results; only the parent writes the store. Bots
never talk to the workers' pool machinery: each match still runs its AIs in sandbox
children that speak msgpack.
"""
from __future__ import annotations

import os
import signal
import time
from collections import Counter
from pathlib import Path
from typing import Iterator

from orchestrator import replay
from orchestrator.bots import BotFile
from orchestrator.games import get_game
from orchestrator.match import MatchSpec, run_match, scratch_files
from orchestrator.schedule import Planned
from orchestrator.series import Series
from sandbox.botlib._harden import set_parent_death_signal
from sandbox.limits import Limits

BACKENDS = ("local", "dask")


def play_planned(spec: dict) -> dict:
    """Play one planned match (in a worker). Never raises: a failure comes back as data."""
    started = time.perf_counter()
    try:
        game = get_game(spec["game"])
        rules = dict(spec["rules"])
        bots = [BotFile(b["path"], b["source"], b["sha256"], b["name"]) for b in spec["bots"]]
        scratch = [scratch_files(text) for text in spec["scratch"]] \
            if spec.get("scratch") is not None else None
        match = MatchSpec(game.name, Path(spec["map_name"]), bots, spec["seed"],
                          game.rules(rules.pop("preset"), **rules), Limits(**spec["limits"]),
                          spec["sandbox"], map_text=spec["map_text"], scratch=scratch)
        replays: list[dict] | None = [] if spec.get("replay") else None
        result = run_match(match, replays=replays)
    except Exception as exc:              # a worker must report, not die
        return {"error": f"{type(exc).__name__}: {exc}"[:500],
                "wall_s": time.perf_counter() - started}
    outcome = {"result": result, "wall_s": time.perf_counter() - started}
    if replays:
        outcome["replay"] = replay.encode(replays[0])     # plain bytes: the parent writes
    return outcome


def _worker_init(cores: list[int] | None) -> None:
    """Workers die with the parent, leave Ctrl-C to it, and keep to one core each.

    A match is a conversation: the host and its AIs take turns. On one core each turn's
    wake-ups are cheap; spread over several, every message crosses cores. One core per
    worker (its sandbox children inherit it) is what lets throughput grow with workers.
    """
    try:
        set_parent_death_signal()
    except OSError:
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if cores:
        try:
            os.sched_setaffinity(0, {cores[0]})
        except OSError:
            pass


def _worker_main(conn, core: int | None) -> None:
    """A pool worker: play the matches the parent sends, one at a time, until told to stop."""
    _worker_init([core] if core is not None else None)
    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):
            return
        if item is None:
            return
        index, spec = item
        conn.send((index, play_planned(spec)))


class _Worker:
    """One worker process and the match it is playing."""

    def __init__(self, core: int | None) -> None:
        import multiprocess

        self.conn, theirs = multiprocess.Pipe()
        self.proc = multiprocess.Process(target=_worker_main, args=(theirs, core), daemon=True)
        self.proc.start()
        theirs.close()
        self.core = core
        self.task: int | None = None

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except (OSError, ValueError):
            pass
        self.proc.join(timeout=1)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()


def run_local(series: Series, workers: int, pin: bool = True
              ) -> Iterator[tuple[Planned, dict]]:
    """Yield (planned, outcome) as matches finish, on `multiprocess` worker processes.

    Each worker has its own pipe, so the parent always knows which match a worker holds:
    a worker that dies in the middle of one (killed, out of memory) is replaced and that
    match alone is played again, at most twice. Matches start in the order `series` allows.
    """
    from multiprocess.connection import wait

    total = len(series.waiting)
    if total <= 1:
        while (item := series.take()) is not None:
            outcome = play_planned(item.spec)
            series.finish(item, outcome)
            yield item, outcome
        return
    cores = sorted(os.sched_getaffinity(0)) if pin and hasattr(os, "sched_getaffinity") \
        else [None]
    retries: Counter[int] = Counter()
    pool = [_Worker(cores[i % len(cores)]) for i in range(min(workers, total))]

    def feed_idle() -> None:
        for worker in pool:
            if worker.task is None and (item := series.take()) is not None:
                worker.task = item
                worker.conn.send((item.ordinal, item.spec))

    try:
        feed_idle()
        while series.waiting or series.running:
            busy = [w for w in pool if w.task is not None]
            if not busy:
                raise RuntimeError("no match can start: the schedule's order is broken")
            owners = {id(w.conn): w for w in busy} | {id(w.proc.sentinel): w for w in busy}
            for ready in wait([w.conn for w in busy] + [w.proc.sentinel for w in busy]):
                worker = owners[id(ready)]
                if ready is worker.conn and worker.task is not None:
                    try:
                        _, outcome = worker.conn.recv()
                    except (EOFError, OSError):
                        continue                    # it died: its sentinel says so too
                    item, worker.task = worker.task, None
                elif ready is not worker.conn and not worker.proc.is_alive():
                    item, outcome = worker.task, None
                    pool.remove(worker)
                    worker.stop()
                    pool.append(_Worker(worker.core))
                    if item is not None:
                        retries[item.ordinal] += 1
                        if retries[item.ordinal] <= 2:
                            series.retry(item)
                        else:
                            outcome = {"error": "its worker died three times", "wall_s": 0.0}
                else:
                    continue
                if outcome is not None:
                    series.finish(item, outcome)
                feed_idle()
                if outcome is not None:
                    yield item, outcome
                break                               # the busy set changed: wait afresh
    finally:
        for worker in pool:
            worker.stop()


def run_dask(series: Series, workers: int, address: str | None
             ) -> Iterator[tuple[Planned, dict]]:
    """Yield (planned, outcome) as matches finish, on a Dask cluster.

    Without an address, a LocalCluster of `workers` single-threaded processes. Dask's
    worker processes are daemonic by default; they are made ordinary processes here, so
    that the sandbox can start its children in them.
    """
    try:
        import dask
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        from engine import InputError
        raise InputError("--backend dask needs the dask extra: pip install '.[dask]'") from None
    dask.config.set({"distributed.worker.daemon": False})
    cluster = None
    if address:
        client = Client(address)
    else:
        cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    running: dict[str, tuple] = {}
    started = as_completed()

    def submit_ready() -> None:
        while (item := series.take()) is not None:
            future = client.submit(play_planned, item.spec, key=f"match-{item.match_id}",
                                   pure=False)
            running[future.key] = (future, item)
            started.add(future)

    try:
        submit_ready()
        for future in started:
            _, item = running.pop(future.key)
            outcome = future.result()
            series.finish(item, outcome)
            submit_ready()
            yield item, outcome
    finally:
        client.cancel([future for future, _ in running.values()])
        client.close()
        if cluster is not None:
            cluster.close()


def run(series: Series, backend: str, workers: int, address: str | None = None,
        pin: bool = True) -> Iterator[tuple[Planned, dict]]:
    """Play the series' matches on a backend, yielding each as it finishes."""
    if backend == "dask":
        return run_dask(series, workers, address)
    return run_local(series, workers, pin)


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)


