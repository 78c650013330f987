"""Run planned matches in parallel: a local process pool, or a Dask cluster.

Workers play matches and return plain results; only the parent writes the store. Bots
never talk to the workers' pool machinery: each match still runs its AIs in sandbox
children that speak msgpack.
"""
from __future__ import annotations

import logging
import os
import signal
import time
from typing import Any, Callable, Iterator, Mapping, cast

from engine import InputError
from orchestrator.faults import details_of, summary_of
from orchestrator.games import GAMES, get_game
from orchestrator.options import CheckSettings
from orchestrator.replay import file as replay
from orchestrator.results.match_result import Played
from orchestrator.runner.bots import BotFile
from orchestrator.runner.check import check_submission
from orchestrator.runner.match import MatchSpec, match_fallback, run_match
from orchestrator.runner.schedule import Planned
from orchestrator.runner.series import Series
from sandbox.botlib import child_module
from sandbox.isolation import SandboxUnavailable
from sandbox.limits import Limits
from sandbox.modes import DEFAULT_MODE, MODES

BACKENDS = ("local", "dask")
log = logging.getLogger(__name__)

# What a worker reports as the input's problem (a game or a mode this machine lacks, a
# map the game refuses): one line, the user's to fix. Any other exception is a fault of
# ours, which comes back with its whole traceback.
USER_ERRORS = (InputError, SandboxUnavailable)


def play_planned(spec: MatchSpec) -> Played:
    """Play one planned match (in a worker). Never raises: a failure comes back as data,
    the input's as an `error` line, ours with its traceback too (`fault`)."""
    started = time.perf_counter()
    replays: list[dict[str, Any]] | None = [] if spec.replay else None
    try:
        result = run_match(spec, replays=replays)
    except USER_ERRORS as exc:
        return {"error": f"{exc}"[:500], "wall_s": time.perf_counter() - started}
    except Exception as exc:              # a worker must report, not die
        log.info("match with seed %d failed: %s", spec.seed, summary_of(exc))
        return {"error": summary_of(exc), "fault": details_of(exc),
                "wall_s": time.perf_counter() - started}
    outcome: Played = {"result": result, "wall_s": time.perf_counter() - started}
    if replays:
        outcome["replay"] = replay.encode(replays[0])     # plain bytes: the parent writes
    return outcome


def _worker_init(cores: list[int] | None, nice: int = 0) -> None:
    """Workers die with the parent, leave Ctrl-C and SIGTERM to it (a signal to the whole
    process group must not kill a worker mid-task), and keep to one core each.

    A match is a conversation: the host and its AIs take turns. On one core each turn's
    wake-ups are cheap; spread over several, every message crosses cores. One core per
    worker (its sandbox children inherit it) is what lets throughput grow with workers.
    """
    try:
        child_module("_harden").set_parent_death_signal()
    except OSError:
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if nice:
        os.nice(nice)
    if cores:
        try:
            os.sched_setaffinity(0, {cores[0]})
        except OSError:
            pass


def check_planned(spec: dict[str, Any]) -> dict[str, Any]:
    """`arena check` on a submission sent as data (in a worker). Never raises."""
    try:
        bot = BotFile(spec["path"], spec["source"], spec["sha256"], spec["name"])
        limits = Limits(**spec["limits"]) if spec.get("limits") else None
        checking = CheckSettings(turns=spec.get("turns"), seed=spec.get("seed", 1), once=True)
        return {"verdict": check_submission(bot, spec["game"], checking,
                                            sandbox=spec.get("sandbox", DEFAULT_MODE),
                                            limits=limits)}
    except USER_ERRORS as exc:
        return {"error": f"{exc}"[:500]}
    except Exception as exc:
        log.info("the check of %s failed: %s", spec.get("name"), summary_of(exc))
        return {"error": summary_of(exc), "fault": details_of(exc)}


# A worker's task: ("match", a MatchSpec) or ("check", a submission's check as data).
Task = tuple[str, Any]
TASKS: dict[str, Callable[[Any], Mapping[str, Any]]] = {
    "match": play_planned, "check": check_planned}


def run_task(task: Task) -> Mapping[str, Any]:
    kind, spec = task
    return TASKS[kind](spec)


def _worker_main(conn: Any, core: int | None, nice: int = 0) -> None:
    """A pool worker: run the tasks the parent sends, one at a time, until told to stop."""
    _worker_init([core] if core is not None else None, nice)
    # A task's MatchSpec holds its game's own rules class: a game kept elsewhere's lives in
    # a module the registry names as it loads it (`arena_game_NAME`), which a spawned
    # worker has not loaded, and could not unpickle the task (the ladder's worker died on
    # every match of such a game, replaced and retried until the match was dropped).
    try:
        list(GAMES)
    except InputError:
        pass                              # said where the games are asked for by name
    from sandbox import matchjail
    matchjail.keep_spare_jails(True)      # its next match's jail hardens during this one
    log.debug("worker %d started (core %s)", os.getpid(), core)
    try:
        while True:
            try:
                item = conn.recv()
            except (EOFError, OSError):
                return
            if item is None:
                return
            conn.send(run_task(item))
    finally:
        matchjail.discard_spares()
        log.debug("worker %d stops", os.getpid())


class _Worker:
    """One worker process and the task it is running."""

    def __init__(self, core: int | None, context: Any, nice: int = 0) -> None:
        self.conn, theirs = context.Pipe()
        self.proc = context.Process(target=_worker_main, args=(theirs, core, nice),
                                    daemon=True)
        self.proc.start()
        theirs.close()
        self.core, self.nice = core, nice
        self.key: Any = None
        self.task: Task | None = None
        self.deaths = 0                      # workers that died running this task before

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


def _bots_in_worker(task: Task | None) -> bool:
    """Whether the task's bots run in its worker itself (`--sandbox off`), where one of
    them may end the worker."""
    if task is None:
        return False
    kind, spec = task
    name = spec.sandbox if kind == "match" else spec.get("sandbox", DEFAULT_MODE)
    mode = MODES.get(name)
    return mode is not None and not mode.isolates


class LocalPool:
    """Worker processes on this machine, each running one task at a time.

    Each worker has its own pipe, so the parent always knows which task a worker holds:
    a worker that dies in the middle of one (killed, out of memory) is replaced and that
    task alone is run again, at most twice. `start="spawn"` gives workers that do not
    inherit the parent's threads (the ladder server's), at a second's start-up each.
    `nice` lowers the workers' priority (and their sandbox children's), so that a server
    answering requests beside them is not starved of CPU.
    """

    def __init__(self, workers: int, pin: bool = True, start: str | None = None,
                 nice: int = 0) -> None:
        import multiprocess

        self.context = multiprocess.get_context(start)
        self.cores = sorted(os.sched_getaffinity(0)) if pin and hasattr(
            os, "sched_getaffinity") else [None]
        self.workers = [_Worker(self.cores[i % len(self.cores)], self.context, nice)
                        for i in range(max(1, workers))]

    def free(self) -> int:
        return sum(w.task is None for w in self.workers)

    def busy(self) -> int:
        return len(self.workers) - self.free()

    def submit(self, key: Any, task: Task) -> None:
        worker = next(w for w in self.workers if w.task is None)
        worker.key, worker.task, worker.deaths = key, task, 0
        worker.conn.send(task)

    def wait(self, timeout: float | None = None) -> list[tuple[Any, dict[str, Any]]]:
        """(key, outcome) of the tasks that finished within `timeout` (None: at least one)."""
        from multiprocess.connection import wait

        busy = [w for w in self.workers if w.task is not None]
        if not busy:
            return []
        owners = {id(w.conn): w for w in busy} | {id(w.proc.sentinel): w for w in busy}
        finished = []
        for ready in wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], timeout):
            worker = owners[id(ready)]
            if worker.task is None:
                continue                                  # already handled this round
            if ready is worker.conn:
                try:
                    outcome = worker.conn.recv()
                except (EOFError, OSError):
                    continue                              # it died: its sentinel says so too
                finished.append((worker.key, outcome))
                worker.key = worker.task = None
            elif not worker.proc.is_alive():
                finished.extend(self._replace(worker))
        return finished

    def _replace(self, worker: _Worker) -> list[tuple[Any, dict[str, Any]]]:
        """A worker died: start another, and give it the same task unless it failed 3 times."""
        log.info("worker %d died (exit status %s) running a task; %s", worker.proc.pid,
                 worker.proc.exitcode, "the task is given up" if worker.deaths >= 2
                 else "a new worker runs it again")
        self.workers.remove(worker)
        worker.stop()
        fresh = _Worker(worker.core, self.context, worker.nice)
        self.workers.append(fresh)
        if worker.deaths < 2:
            fresh.key, fresh.task, fresh.deaths = worker.key, worker.task, worker.deaths + 1
            fresh.conn.send(worker.task)
            return []
        said = f"its worker died three times (the last: exit status {worker.proc.exitcode})"
        if _bots_in_worker(worker.task):
            return [(worker.key, {"error": said, "wall_s": 0.0})]
        # Not the input's doing (its bots run in sandbox children, not in the worker): ours,
        # or the machine's (the OOM killer), with no traceback to keep.
        return [(worker.key, {"error": said, "fault": f"{said}; no traceback: the worker "
                              f"process itself ended\n", "wall_s": 0.0})]

    def close(self) -> None:
        for worker in self.workers:
            worker.stop()


class DaskPool:
    """A Dask cluster: `address`, or a LocalCluster of `workers` single-threaded processes.

    Dask's worker processes are daemonic by default; they are made ordinary processes
    here, so that the sandbox can start its children in them. `capacity` bounds the tasks
    in flight (None: as many as are submitted; the scheduler queues them).
    """

    def __init__(self, workers: int, address: str | None, capacity: int | None = None) -> None:
        try:
            import dask
            from dask.distributed import Client, LocalCluster
        except ImportError:
            from engine import InputError
            raise InputError("--backend dask needs the dask extra: "
                             "pip install 'robot-arena[dask]'") from None
        dask.config.set({"distributed.worker.daemon": False})
        self.cluster = None
        if address:
            self.client = Client(address)
        else:
            self.cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1,
                                        processes=True, dashboard_address=None)
            self.client = Client(self.cluster)
        self.capacity = capacity
        self.running: dict[Any, tuple[Any, Any]] = {}    # by the future's key

    def free(self) -> int:
        if self.capacity is None:
            return 1 << 30
        return max(0, self.capacity - len(self.running))

    def busy(self) -> int:
        return len(self.running)

    def submit(self, key: Any, task: Task) -> None:
        future = self.client.submit(run_task, task, pure=False)
        self.running[future.key] = (future, key)

    def wait(self, timeout: float | None = None) -> list[tuple[Any, dict[str, Any]]]:
        from dask.distributed import wait
        from distributed.utils import TimeoutError as DaskTimeout

        if not self.running:
            return []
        futures = [future for future, _ in self.running.values()]
        try:
            done, _ = wait(futures, timeout=timeout, return_when="FIRST_COMPLETED")
        except (DaskTimeout, TimeoutError):
            return []
        finished = []
        for future in done:
            _, key = self.running.pop(future.key)
            try:
                outcome = future.result()
            except Exception as exc:      # the task's worker was lost: the cluster's doing
                log.info("a dask task was lost: %s", summary_of(exc))
                outcome = {"error": f"{type(exc).__name__}: {exc}"[:500], "wall_s": 0.0}
            finished.append((key, outcome))
        return finished

    def close(self) -> None:
        self.client.cancel([future for future, _ in self.running.values()])
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


class JailPool:
    """`--sandbox match` on this machine: threads of this process, one per match in play,
    each driving the jail that plays its match whole (sandbox/matchjail.py). The host's
    side of a jailed match only waits and reads, so a worker process per match slot would
    be pure cost, and the jail zygote is this process's own, started as the command began
    (orchestrator/cli/launch.py). Each thread plays its line-up's matches in one jail.
    """

    def __init__(self, workers: int) -> None:
        from concurrent.futures import ThreadPoolExecutor

        from sandbox import matchjail
        matchjail.keep_spare_jails(True)
        self.slots = max(1, workers)
        self.executor = ThreadPoolExecutor(self.slots, thread_name_prefix="arena-match")
        self.running: dict[Any, Any] = {}

    def free(self) -> int:
        return self.slots - len(self.running)

    def busy(self) -> int:
        return len(self.running)

    def submit(self, key: Any, task: Task) -> None:
        self.running[self.executor.submit(run_task, task)] = key

    def wait(self, timeout: float | None = None) -> list[tuple[Any, dict[str, Any]]]:
        from concurrent.futures import FIRST_COMPLETED
        from concurrent.futures import wait as wait_futures

        if not self.running:
            return []
        done, _ = wait_futures(list(self.running), timeout, return_when=FIRST_COMPLETED)
        return [(self.running.pop(future), future.result()) for future in done]

    def close(self) -> None:
        """Stop: the jails in play are killed (their matches come back as errors)."""
        from sandbox import matchjail
        for future in self.running:
            future.cancel()
        matchjail.discard_spares()
        self.executor.shutdown(wait=True)
        matchjail.discard_spares()
        matchjail.keep_spare_jails(False)


def jailed_only(planned: list[Planned]) -> bool:
    """Whether every match plays whole in a match jail (`--sandbox match`, and no bot it
    would play in the standard mode instead)."""
    for item in planned:
        spec = item.spec
        mode = MODES.get(spec.sandbox)
        if mode is None or not mode.whole_match:
            return False
        if not mode.programs and match_fallback(get_game(spec.game), spec.bots):
            return False
    return bool(planned)


def open_pool(backend: str, workers: int, address: str | None = None, pin: bool = True,
              start: str | None = None, capacity: int | None = None,
              nice: int = 0) -> "LocalPool | DaskPool":
    """A LocalPool or a DaskPool: `free()`, `submit(key, task)`, `wait(timeout)`, `close()`."""
    if backend == "dask":
        return DaskPool(workers, address, capacity)
    return LocalPool(workers, pin, start, nice)


def run(series: Series, backend: str, workers: int, address: str | None = None,
        pin: bool = True, capacity: int | None = None) -> Iterator[tuple[Planned, Played]]:
    """Play the series' matches on a backend, yielding (planned, outcome) as each finishes.

    Matches start in the order `series` allows. Workers play matches and return plain
    results; only the caller writes the store. `capacity` bounds a Dask cluster's matches
    in flight (None: all at once), for a caller that may stop handing out matches.
    """
    if backend == "local" and len(series.waiting) <= 1:
        while (item := series.take()) is not None:
            outcome = play_planned(item.spec)
            series.finish(item, outcome)
            yield item, outcome
        return
    if backend == "local":
        workers = min(workers, len(series.waiting))
    pool = JailPool(workers) if backend == "local" and jailed_only(series.waiting) else \
        open_pool(backend, workers, address, pin, capacity=capacity)
    try:
        while series.waiting or series.running:
            while pool.free() and (item := series.take()) is not None:
                pool.submit(item, ("match", item.spec))
            if not pool.busy():
                raise RuntimeError("no match can start: the schedule's order is broken")
            for item, sent in pool.wait():
                played = cast(Played, sent)              # a match task's: play_planned's
                series.finish(item, played)
                yield item, played
    finally:
        pool.close()


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)


