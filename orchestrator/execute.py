"""Run planned matches in parallel: a local process pool, or a Dask cluster.

Workers play matches and return plain results; only the parent writes the store. Bots
never talk to the workers' pool machinery: each match still runs its AIs in sandbox
children that speak msgpack.
"""
from __future__ import annotations

import ctypes
import os
import signal
import time
from pathlib import Path
from typing import Iterator

from orchestrator.bots import BotFile
from orchestrator.games import get_game
from orchestrator.match import MatchSpec, run_match
from orchestrator.schedule import Planned
from sandbox.limits import Limits

BACKENDS = ("local", "dask")


def play_planned(spec: dict) -> dict:
    """Play one planned match (in a worker). Never raises: a failure comes back as data."""
    started = time.perf_counter()
    try:
        game = get_game(spec["game"])
        rules = dict(spec["rules"])
        bots = [BotFile(b["path"], b["source"], b["sha256"], b["name"]) for b in spec["bots"]]
        match = MatchSpec(game.name, Path(spec["map_name"]), bots, spec["seed"],
                          game.rules(rules.pop("preset"), **rules), Limits(**spec["limits"]),
                          spec["sandbox"], map_text=spec["map_text"])
        result = run_match(match)
    except Exception as exc:              # a worker must report, not die
        return {"error": f"{type(exc).__name__}: {exc}"[:500],
                "wall_s": time.perf_counter() - started}
    return {"result": result, "wall_s": time.perf_counter() - started}


def _worker_init(cores: list[int] | None) -> None:
    """Pool workers die with the parent, leave Ctrl-C to it, and keep to one core each.

    A match is a conversation: the host and its AIs take turns. On one core each turn's
    wake-ups are cheap; spread over several, every message crosses cores. One core per
    worker (its sandbox children inherit it) is what lets throughput grow with workers.
    """
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if cores:
        import multiprocess
        identity = multiprocess.current_process()._identity
        index = (identity[0] - 1) if identity else 0
        try:
            os.sched_setaffinity(0, {cores[index % len(cores)]})
        except OSError:
            pass


def _play_indexed(item: tuple[int, dict]) -> tuple[int, dict]:
    index, spec = item
    return index, play_planned(spec)


def run_local(planned: list[Planned], workers: int, pin: bool = True
              ) -> Iterator[tuple[Planned, dict]]:
    """Yield (planned, outcome) as matches finish, on a `multiprocess` pool."""
    import multiprocess

    if len(planned) <= 1:
        for item in planned:
            yield item, play_planned(item.spec)
        return
    cores = sorted(os.sched_getaffinity(0)) if pin and hasattr(os, "sched_getaffinity") \
        else None
    pool = multiprocess.Pool(min(workers, len(planned)), initializer=_worker_init,
                             initargs=(cores,))
    try:
        jobs = ((i, item.spec) for i, item in enumerate(planned))
        for index, outcome in pool.imap_unordered(_play_indexed, jobs):
            yield planned[index], outcome
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def run_dask(planned: list[Planned], workers: int, address: str | None
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
    futures = []
    try:
        futures = client.map(play_planned, [item.spec for item in planned],
                             key=[f"match-{item.match_id}" for item in planned], pure=False)
        index = {future.key: item for future, item in zip(futures, planned, strict=True)}
        for future in as_completed(futures):
            yield index[future.key], future.result()
    finally:
        client.cancel(futures)
        client.close()
        if cluster is not None:
            cluster.close()


def run(planned: list[Planned], backend: str, workers: int, address: str | None = None,
        pin: bool = True) -> Iterator[tuple[Planned, dict]]:
    if backend == "dask":
        return run_dask(planned, workers, address)
    return run_local(planned, workers, pin)


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)


