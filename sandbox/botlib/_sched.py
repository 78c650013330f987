"""A call's own time, judged from what the kernel says of its tasks, never from a timer.

A bot that sleeps is ended at its wall limit; one starved by a loaded machine is not: it
keeps its allowance, and its CPU limit judges it. Which of the two a late call is, the
kernel knows and the bot cannot change: the time each of its tasks waited on a run queue
(/proc/PID/schedstat's run_delay) and whether a task is runnable now (/proc/PID/stat's
state R). A call's own time is its wall time less the time it waited to run: a sleeper's
is its wall time, whatever it does with its timers or its CPU; a starved call's is about
its CPU time.

/proc is the host's (and `--sandbox off`'s): a sandboxed child has none, so its guard only
holds a backstop (STARVED_TIMES its limit), and its host judges it (sandbox/host.py; an
executable bot's keeper is told, `OVERTIME`).
"""
import os

# Past its wall limit, a call that is runnable (computing, or waiting to) is looked at
# again every PROBE_S, up to STARVED_TIMES its wall limit in all: a backstop for a kernel
# that does not report run queue waits, and for the guards that cannot read them.
PROBE_S = 0.25
STARVED_TIMES = 4
# The frame a host sends an executable bot's keeper mid-turn: its program's own time is
# past its wall limit, so the turn ends as a hang.
OVERTIME = "overtime"


def _read(path):
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        return os.read(fd, 1024)
    except OSError:
        return None
    finally:
        os.close(fd)


def waited_s(pid, kept=None):
    """Seconds task `pid` (a process's main thread) has waited on a run queue in its life,
    or None when it is gone or this kernel (or this process, in a sandbox) cannot say.
    `kept`: a KeptFile of that task's schedstat, read again instead of opened anew."""
    data = kept.read() if kept is not None and kept.pid == pid \
        else _read(f"/proc/{pid}/schedstat")
    try:
        return int(data.split()[1]) / 1e9
    except (AttributeError, IndexError, ValueError):
        return None


def runnable(pid):
    """Whether task `pid` is running or waiting to run now (state R): its wait so far is
    added to run_delay only once it runs, so a starved task is given another look."""
    data = _read(f"/proc/{pid}/stat")
    if not data:
        return False
    at = data.rfind(b")")
    return at >= 0 and data[at + 2:at + 3] == b"R"


class KeptFile:
    """/proc/PID/schedstat of a task looked at request after request (a host's child),
    opened once and read again from its start (pread): 1 us a look against 5 us for an
    open, a read and a close (measured). The open file is the task's own: once it is gone
    a read fails (ESRCH), even if its pid is given to another."""

    def __init__(self, pid):
        self.pid = pid
        try:
            self.fd = os.open(f"/proc/{pid}/schedstat", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            self.fd = -1

    def read(self):
        if self.fd < 0:
            return None
        try:
            return os.pread(self.fd, 1024, 0)
        except OSError:
            return None

    def close(self):
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def task_waits(pid):
    """{thread id: seconds it has waited on a run queue} for every thread of process `pid`,
    or None when it is gone or this kernel cannot say."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    waits = {}
    for tid in tids:
        data = _read(f"/proc/{pid}/task/{tid}/schedstat")
        try:
            waits[int(tid)] = int(data.split()[1]) / 1e9
        except (AttributeError, IndexError, ValueError):
            continue
    return waits or None


def any_runnable(pid):
    """Whether any thread of process `pid` is running or waiting to run now."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    return any(runnable(f"{pid}/task/{tid}") for tid in tids)


class OwnTime:
    """The own time of a request: the wall time since it began, less what its tasks waited
    to run since then. `pids` are the tasks running when it began (their waits then are
    the baselines); a task seen later was born during it (baseline 0).

    `threads`: each process's wait is the longest wait of any of its threads, not only of
    its main thread. A program whose main thread waits on others (the JVM's launcher joins
    the thread that runs `main`, beside its compiler's and collector's threads) would
    otherwise be charged its workers' waits on a busy machine: a JVM started each turn
    beside 12 busy loops on its core took 1.31 s, its main thread waited 0.09 s of them
    and its longest-waiting thread 0.87 s. The longest, not the sum: threads wait side by
    side, so their sum can pass the wall time, and a bot's own threads could buy it time."""

    def __init__(self, pids, now, kept=None, threads=False):
        self.began = now
        self.base = {}
        self.kept = kept                # a KeptFile of one of them
        self.threads = threads
        for pid in pids:
            if threads:
                for tid, waited in (task_waits(pid) or {}).items():
                    self.base[pid, tid] = waited
                continue
            waited = waited_s(pid, kept)
            if waited is not None:
                self.base[pid] = waited
        self.waited = {}

    def _since(self, pid):
        """Seconds process `pid` waited to run since the request began (None: unknown)."""
        if not self.threads:
            waited = waited_s(pid, self.kept)
            return None if waited is None else waited - self.base.get(pid, 0.0)
        waits = task_waits(pid)
        if waits is None:
            return None
        return max(waited - self.base.get((pid, tid), 0.0) for tid, waited in waits.items())

    def look(self, pids, now, busy_too=True):
        """(own seconds, whether a task is runnable now), reading `pids` afresh. Without
        `busy_too` (a request's end, for its bank), whether one is runnable is not read."""
        busy = False
        for pid in pids:
            since = self._since(pid)
            if since is None:
                continue
            self.waited[pid] = max(self.waited.get(pid, 0.0), since)
            if busy_too and not busy:
                busy = any_runnable(pid) if self.threads else runnable(pid)
        return max(0.0, now - self.began - sum(self.waited.values())), busy


def request_own_s(limits, calls, per_call):
    """The own time a request of `calls` calls may take, `per_call` each, from a child's
    copy of the limits (a dict): `Limits.request_own_s` (sandbox/limits.py), the same."""
    return min(max(1, calls) * per_call, max(per_call, limits.get("own_per_turn_s", per_call)))


BANK = "time bank"


def bank_reason(own_s, bank_s):
    """Why an AI whose requests took `own_s` of own time in all is over its `bank_s`."""
    return f"{BANK}: {own_s:.1f} s of own time, past its {bank_s:g} s"
