"""A record of what a bot tried that the sandbox refuses, through Python's audit hooks.

The kernel layers (seccomp, Landlock, the namespaces, the private root) do the refusing;
this only writes down the attempt, so that a game master sees it in the result and
`arena check` can fail on it. Each entry is `kind: detail`, with nothing in it that
changes from run to run (no pids), so results stay a function of the match.

Kinds: `process` (start a process or a program), `socket` (open a socket, resolve a
name), `signal` (signal another process), `ptrace` (trace or read another process),
`file` (open outside what the bot may read, or write outside its scratch directory),
`import` (the host's own packages), `memory` (memory no limit sees: SysV IPC, memfd,
POSIX message queues), `tasks` (past the cap on threads, noted by the host). A bot that
calls C directly through ctypes is recorded when it looks up one of the C functions for
those; a raw `syscall()` is not.
"""
import os
import sys

TASKS_REFUSED = "refused past the cap on tasks"
CAP = 20                       # entries kept per reply; the host keeps 20 per match
# `arena check` fails these
FAILING = ("process", "socket", "signal", "ptrace", "import", "memory", "tasks")

_PROCESS_EVENTS = {"os.system": "os.system", "subprocess.Popen": "subprocess",
                   "os.fork": "os.fork", "os.forkpty": "os.forkpty", "os.exec": "os.exec",
                   "os.posix_spawn": "os.posix_spawn", "os.spawn": "os.spawn"}
_NAME_EVENTS = ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyname_ex",
                "socket.gethostbyaddr", "socket.getnameinfo")
# C functions a bot would reach through ctypes to do what the audit events above cover.
_C_FUNCTIONS = {
    **dict.fromkeys(("fork", "vfork", "clone", "clone3", "execve", "execv", "execvp",
                     "execl", "execlp", "system", "popen", "posix_spawn", "posix_spawnp",
                     "daemon"), "process"),
    **dict.fromkeys(("socket", "socketpair", "connect", "bind", "getaddrinfo",
                     "gethostbyname"), "socket"),
    **dict.fromkeys(("kill", "killpg", "tgkill", "tkill", "pidfd_send_signal", "sigqueue"),
                    "signal"),
    **dict.fromkeys(("ptrace", "process_vm_readv", "process_vm_writev"), "ptrace"),
    **dict.fromkeys(("shmget", "shmat", "msgget", "semget", "memfd_create", "memfd_secret",
                     "mq_open", "shm_open"), "memory"),
}
# Every audited event passes through the hook (`id()` is one, called often by the rule-1
# watch): the hook turns away all but these with one set look-up.
_WATCHED = frozenset(("open", "socket.__new__", "os.kill", "os.killpg", "ctypes.dlsym",
                      *_PROCESS_EVENTS, *_NAME_EVENTS))
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


class Attempts:
    """The hook, and the entries noted since the last `take`."""

    def __init__(self, readable, scratch):
        self.readable = tuple(p.rstrip("/") for p in readable)
        self.scratch = scratch.rstrip("/")
        self.entries = []

    def note(self, kind, detail):
        entry = f"{kind}: {detail}"[:100]
        if len(self.entries) < CAP and entry not in self.entries:
            self.entries.append(entry)

    def take(self):
        taken, self.entries = self.entries, []
        return taken

    def install(self):
        """From now on, every audited event of this process passes through `_hook`.
        Audit hooks cannot be removed; bytecode is not written (the root is read-only,
        and the failed writes would read as attempts)."""
        sys.dont_write_bytecode = True
        sys.addaudithook(self._hook)
        self._wrap_memfd()
        self._wrap_threads()

    def _wrap_threads(self):
        """A thread refused by the task cap (a pids cgroup, or RLIMIT_NPROC) is noted with
        the words the host uses for its cgroup's count, so either path records it once."""
        import _thread
        import threading
        real = _thread.start_new_thread

        def start_new_thread(*args, **kwargs):
            try:
                return real(*args, **kwargs)
            except RuntimeError:
                self.note("tasks", TASKS_REFUSED)
                raise
        _thread.start_new_thread = threading._start_new_thread = start_new_thread

    def _wrap_memfd(self):
        """os.memfd_create raises no audit event: note it on the way to its refusal."""
        import posix
        real = getattr(posix, "memfd_create", None)
        if real is None:
            return

        def memfd_create(name, flags=getattr(os, "MFD_CLOEXEC", 1)):
            self.note("memory", "os.memfd_create")
            return real(name, flags)
        os.memfd_create = posix.memfd_create = memfd_create

    def _hook(self, event, args):
        if event not in _WATCHED:
            return
        try:
            if event == "open":
                self._open(*args[:3])
            elif event in _PROCESS_EVENTS:
                self.note("process", _PROCESS_EVENTS[event] + _first(args))
            elif event == "socket.__new__":
                self.note("socket", "socket(" + ", ".join(_socket_names(args[1:3])) + ")")
            elif event in _NAME_EVENTS:
                self.note("socket", event.partition(".")[2] + _first(args))
            elif event in ("os.kill", "os.killpg"):
                if event == "os.killpg" or args[0] != os.getpid():
                    self.note("signal", f"{event} to another process")
            elif event == "ctypes.dlsym":
                kind = _C_FUNCTIONS.get(args[1]) if isinstance(args[1], str) else None
                if kind:
                    self.note(kind, f"ctypes {args[1]}()")
        except Exception:            # the hook must never be the thing that breaks a bot
            pass

    def _open(self, path, mode, flags):
        if isinstance(path, int):
            return
        path = os.path.abspath(os.fsdecode(path))
        if isinstance(mode, str):
            writes = any(c in mode for c in "wax+")
        else:
            writes = bool((flags or 0) & _WRITE_FLAGS)
        if _under(path, (self.scratch,)) or (not writes and _under(path, self.readable)):
            return
        self.note("file", f"open {path} for {'writing' if writes else 'reading'}")


def _under(path, roots):
    return any(path == root or path.startswith(root + "/") for root in roots if root)


def _first(args):
    """The first argument, short: the command a bot tried to run, the name it looked up."""
    if not args:
        return ""
    first = args[0]
    if isinstance(first, (list, tuple)):
        first = " ".join(map(str, first))
    elif isinstance(first, bytes):
        first = first.decode(errors="replace")
    return f"({str(first)[:50]!r})"


def _socket_names(values):
    import socket
    kinds = (socket.AddressFamily, socket.SocketKind)
    names = []
    for kind, value in zip(kinds, values, strict=False):
        try:
            names.append(kind(value).name)
        except (ValueError, TypeError):
            names.append(str(value))
    return names
