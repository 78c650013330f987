"""The zygote: a small pre-started interpreter that forks sandbox children on request.

`python -I -S _zygote.py CONTROL_FD [SITE_DIR ...]`. It imports the child side once, the
games' bot sides of this folder with it (a game kept elsewhere sends its own in the load
frame), then
waits on its control socket. Each request carries the child's two pipe ends (SCM_RIGHTS);
it answers with the new child's pid. It never sees a map, a bot or a match, so a child
forked from it inherits nothing secret.

Children are made with clone(CLONE_PARENT | namespaces): the host, not the zygote, is their
parent, so the host reaps them, reads their CPU clock and gets their exit status and peak
RSS, exactly as for a child it had started itself.
"""
import os
import sys

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))] + sys.argv[2:]

import ctypes  # noqa: E402
import socket  # noqa: E402

import _child  # noqa: E402
import _harden  # noqa: E402
import _keeper  # noqa: E402
import _runtime  # noqa: E402
import _seccomp  # noqa: E402
import msgpack  # noqa: E402

# What bots commonly import, loaded once here so that no child pays for it.
PRELOAD = ("inspect", "collections", "itertools", "functools", "heapq", "math", "random",
           "re", "json", "copy", "bisect",
           "dataclasses", "typing", "enum", "string", "statistics", "operator", "array",
           "struct", "time")
CLONE_PARENT = 0x00008000
SIGCHLD = 17
SYS_CLONE = 56

# PyDLL keeps the GIL across the call: the forked child must come back holding it.
_clone_libc = ctypes.PyDLL(None, use_errno=True)
_clone_libc.syscall.restype = ctypes.c_long


def clone(flags):
    """fork(), with extra clone flags. Returns the pid in the parent, 0 in the child."""
    pid = _clone_libc.syscall(SYS_CLONE, ctypes.c_ulong(flags | SIGCHLD), None, None, None,
                              ctypes.c_ulong(0))
    if pid < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return pid


MAINS = {"_child": _child.serve, "_keeper": _keeper.serve}


def spawn(in_fd, out_fd, control, wanted, main="_child"):
    """Fork one child in the `wanted` namespaces; it runs `main` (a Python bot's child, or
    an executable bot's keeper) and never returns.

    `wanted` may include the user namespace (the host asks for it when it is not root).
    When the clone is refused (EPERM: not root, or user namespaces disabled), the child is
    forked without namespaces, and says why. Returns the child's pid.
    """
    serve = MAINS[main]
    wanted = tuple(name for name in _harden.CLONE_FLAGS if name in wanted)
    flags = CLONE_PARENT
    for name in wanted:
        flags |= _harden.CLONE_FLAGS[name]
    outer_ids = (os.geteuid(), os.getegid())     # a child in a user namespace maps these
    try:
        pid, namespaces, problem = clone(flags), wanted, "skipped"
    except OSError as exc:
        pid, namespaces, problem = clone(CLONE_PARENT), (), f"clone: {exc.strerror}"
    if pid == 0:
        code = 0
        try:
            control.close()
            serve(in_fd, out_fd, namespaces, problem, outer_ids)
        except BaseException:
            code = 70
        _runtime.exit_now(code)
    return pid


def bot_sides():
    """This folder's games' bot sides, found by what makes one (a top-level `RUNTIME`), so
    that no list here names a game."""
    here = os.path.dirname(os.path.abspath(__file__))
    found = []
    for entry in sorted(os.listdir(here)):
        if entry.endswith(".py"):
            with open(os.path.join(here, entry), encoding="utf-8") as source:
                if any(line.startswith("RUNTIME = ") for line in source):
                    found.append(entry[:-3])
    return found


def _preload_side(side):
    """Import a game's bot side (a module of this folder) here, once, so that the children
    forked from now on find it loaded (one added after the zygote started: on its first
    child). One that fails is left to the child to report."""
    if isinstance(side, str) and side and side not in sys.modules:
        try:
            __import__(side)
        except Exception:
            pass


def main():
    _harden.set_parent_death_signal()
    for name in PRELOAD:
        __import__(name)
    for name in bot_sides():
        _preload_side(name)
    try:
        _seccomp.PREBUILT[1] = _seccomp.seccomp_program(1)
        _seccomp.PROGRAM_PREBUILT = _seccomp.program_seccomp()
    except Exception:       # no libseccomp: children report the seccomp layer missing
        pass
    control = socket.socket(fileno=int(sys.argv[1]))
    control.send(msgpack.packb({"ready": os.getpid()}))
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(control, 4096, 2)
        except (ConnectionError, OSError):
            break
        if not message:
            break
        if len(fds) != 2:
            for fd in fds:
                os.close(fd)
            control.send(msgpack.packb({"error": "expected two pipe ends"}))
            continue
        try:
            request = msgpack.unpackb(message)
            _preload_side(request.get("side"))
            answer = {"pid": spawn(fds[0], fds[1], control, request["namespaces"],
                                   request.get("main", "_child"))}
        except (OSError, ValueError, KeyError, TypeError) as exc:  # KeyError: unknown main
            answer = {"error": f"fork failed: {exc}"}
        finally:
            for fd in fds:
                os.close(fd)
        control.send(msgpack.packb(answer))


if __name__ == "__main__":
    main()
