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
import gc  # noqa: E402
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
    """Fork one child in the `wanted` namespaces that runs `main` (a Python bot's child, or
    an executable bot's keeper) on the pipe ends `in_fd` and `out_fd`. Returns its pid."""
    serve = MAINS[main]
    return fork_child(control, wanted, lambda *how: serve(in_fd, out_fd, *how))


def fork_child(control, wanted, serve):
    """Fork one child in the `wanted` namespaces; it closes `control` and runs
    `serve(namespaces, ns_problem, outer_ids)`, and never returns. Returns its pid.

    `wanted` may include the user namespace (the host asks for it when it is not root).
    When the clone is refused (EPERM: not root, or user namespaces disabled), the child is
    forked without namespaces, and says why (`ns_problem`).
    """
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
            serve(namespaces, problem, outer_ids)
        except BaseException:
            code = 70
        _runtime.exit_now(code)
    return pid


def answer_requests(control_fd, fds_wanted, what, spawn_one):
    """A zygote's loop, for as long as the host keeps its control socket open: say ready,
    then answer each request, which carries `fds_wanted` descriptors (SCM_RIGHTS; `what`
    names them) and a msgpack map, with {"pid"} of the child `spawn_one(control, fds,
    request)` forked, or {"error"}. The descriptors are closed here once the child has its
    copies, so the zygote keeps none."""
    control = socket.socket(fileno=control_fd)
    control.send(msgpack.packb({"ready": os.getpid()}))
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(control, 4096, fds_wanted)
        except (ConnectionError, OSError):
            break
        if not message:
            break
        if len(fds) != fds_wanted:
            for fd in fds:
                os.close(fd)
            control.send(msgpack.packb({"error": f"expected {what}"}))
            continue
        try:
            answer = {"pid": spawn_one(control, fds, msgpack.unpackb(message))}
        except (OSError, ValueError, KeyError, TypeError) as exc:  # KeyError: unknown main
            answer = {"error": f"fork failed: {exc}"}
        finally:
            for fd in fds:
                os.close(fd)
        control.send(msgpack.packb(answer))


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
    freeze()
    answer_requests(int(sys.argv[1]), 2, "two pipe ends", _spawn_requested)


def freeze():
    """Keep what the zygote holds out of its children's collections, as the match jail's
    zygote does: a collection in a child (a bot's calls run with the collector on) would
    otherwise walk every object imported here and write to each one's header, a
    copy-on-write fault per page in every child."""
    gc.collect()
    gc.freeze()


def _spawn_requested(control, fds, request):
    """The child a request asks for: {"namespaces", "main", "side"} (a bot side to import
    here first), on the request's two pipe ends."""
    side = request.get("side")
    if isinstance(side, str) and side and side not in sys.modules:
        _preload_side(side)
        freeze()                # the side imported now joins what the children share
    return spawn(fds[0], fds[1], control, request["namespaces"], request.get("main", "_child"))


if __name__ == "__main__":
    main()
