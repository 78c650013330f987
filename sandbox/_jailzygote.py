"""The match jail's zygote (`--sandbox match`): forks hardened children that play matches.

`python -P -s -S _jailzygote.py CONTROL_FD PROJECT_DIR [SITE_DIR ...]`. Like the bots'
zygote (`botlib/_zygote.py`, whose clone it uses), it imports what a child needs once (here
the engines and `orchestrator.match` too) and answers each request, which carries the
child's two pipe ends and the host's marker page, with the new child's pid. The child puts
on every layer of a standard sandbox child (`_harden.harden`), then plays whole matches,
one at a time, with `run_match` and the jail's players (`sandbox/jailplayers.py`), and
sends back each result and replay. The host trusts nothing it sends but reads it as plain
msgpack. Between two matches the bots' modules and libraries are dropped and loaded anew.
"""
import os
import sys

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "botlib"),
                *sys.argv[2:]]

import dataclasses  # noqa: E402
import gc  # noqa: E402
import io  # noqa: E402
import pickle  # noqa: E402
import socket  # noqa: E402

import _attempts  # noqa: E402
import _child  # noqa: E402
import _harden  # noqa: E402
import _runtime  # noqa: E402
import _seccomp  # noqa: E402
import _wire  # noqa: E402
import _zygote  # noqa: E402
import msgpack  # noqa: E402

from engine import lazy  # noqa: E402
from orchestrator import replay  # noqa: E402, F401  (preloaded for the child)
from orchestrator.games import GAMES, PLUGIN_MODULE, get_game  # noqa: E402
from orchestrator.match import IN_JAIL, run_match  # noqa: E402
from sandbox import jailplayers  # noqa: E402
from sandbox.host import side_parts  # noqa: E402

JOB_BYTES = 1 << 30
LIBRARIES: jailplayers.Libraries | None = None


def serve(in_fd, out_fd, marker_fd, namespaces, ns_problem, outer_ids):
    """A jail's life: harden, then play the matches the host sends, one after another,
    each with its bots and their libraries loaded anew (`jailplayers.Libraries`), until
    the host closes the pipe or the jail is no longer fit to go on."""
    page = jailplayers.map_page(marker_fd)
    os.close(marker_fd)          # no fd left for a bot's os.write to reach it by
    config = _wire.read_frame(in_fd, 1 << 20)["config"]
    jailplayers.install_handlers()       # before seccomp, which forbids replacing them
    layers, missing, scratch = _harden.harden(config, in_fd, set(namespaces), ns_problem,
                                              outer_ids, seccomp=_seccomp.load_seccomp)
    _wire.write_frame(out_fd, {"layers": layers, "missing": missing, "scratch": scratch})
    if config.get("strict") and missing:
        _runtime.exit_now(_runtime.FATAL_EXIT)
    attempts = _attempts.Attempts(config["readable"], os.getcwd())
    attempts.install()
    # The host's own packages, and the games kept elsewhere (ARENA_GAMES), as in a bot's
    # child: out of sys.modules (the jail's code keeps what it imported), refused and
    # noted when a bot imports them.
    _child._Blocker.attempts = attempts
    sys.meta_path.insert(0, _child._Blocker)
    hidden = {m: sys.modules.pop(m) for m in list(sys.modules)
              if m.split(".")[0] in _child.BLOCKED or m.startswith(PLUGIN_MODULE)}
    LIBRARIES.install()
    marker = jailplayers.Marker(page)
    tasks = jailplayers._tasks()
    while True:
        try:
            frame = _wire.read_frame(in_fd, JOB_BYTES)
        except EOFError:
            _runtime.exit_now(0)
        LIBRARIES.refresh()
        attempts.take()
        reply = play(_Job(io.BytesIO(frame["job"]), hidden).load(), marker, attempts, out_fd)
        reply["again"] = jailplayers.clean(tasks)
        _wire.write_frame(out_fd, reply)
        if not reply["again"]:
            _runtime.exit_now(0)


class _Job(pickle.Unpickler):
    """The host's job: its classes from the modules the jail hid from the bots."""

    def __init__(self, data, hidden):
        super().__init__(data)
        self.hidden = hidden

    def find_class(self, module, name):
        if module in self.hidden:
            return getattr(self.hidden[module], name)
        return super().find_class(module, name)


def play(job, marker, attempts, out_fd):
    """One match of the jail: its result and its replay."""
    turn = [0]
    jailplayers.STATE = jailplayers.JailState(marker, attempts, lambda: turn[0], out_fd)
    spec = dataclasses.replace(job["spec"], sandbox=IN_JAIL)
    replays = [] if job["replay"] else None

    def on_turn(now, _max_turns):
        turn[0] = now

    jailplayers.start_clocks()
    try:
        result = run_match(spec, on_turn=on_turn, replays=replays)
    except jailplayers.Poisoned as exc:
        marker.poison(*exc.args)
        _runtime.exit_now(_runtime.FATAL_EXIT)
    jailplayers.stop_clocks()
    marker.idle()
    jailplayers.STATE = None
    return {"result": result, "replay": replays[0] if replays else None}


def spawn(fds, control, wanted):
    """Fork one jail in the `wanted` namespaces (or none, saying why); returns its pid."""
    wanted = tuple(name for name in _harden.CLONE_FLAGS if name in wanted)
    flags = _zygote.CLONE_PARENT
    for name in wanted:
        flags |= _harden.CLONE_FLAGS[name]
    outer_ids = (os.geteuid(), os.getegid())
    try:
        pid, namespaces, problem = _zygote.clone(flags), wanted, "skipped"
    except OSError as exc:
        pid, namespaces, problem = _zygote.clone(_zygote.CLONE_PARENT), (), \
            f"clone: {exc.strerror}"
    if pid == 0:
        code = 0
        try:
            control.close()
            serve(*fds, namespaces, problem, outer_ids)
        except BaseException:
            code = 70
        _runtime.exit_now(code)
    return pid


def main():
    global LIBRARIES
    _harden.set_parent_death_signal()
    sides = [side_parts(get_game(name).bot_side) for name in GAMES]
    for side in sides:          # every game's bot side, a file kept elsewhere's too
        _runtime.bot_side(*side)
    LIBRARIES = jailplayers.Libraries(os.path.dirname(_runtime.__file__),
                                      [name for name, _ in sides])
    for name in _zygote.PRELOAD:
        __import__(name)
    lazy.load_all()             # what the engines import on first use (numpy): once, here
    try:
        _seccomp.PREBUILT[1] = _seccomp.seccomp_program(1)
    except Exception:       # no libseccomp: jails report the seccomp layer missing
        pass
    # What the zygote holds stays out of every jail's collections: a collection would
    # write to each object's header, a copy-on-write fault per page in every jail.
    gc.collect()
    gc.freeze()
    control = socket.socket(fileno=int(sys.argv[1]))
    control.send(msgpack.packb({"ready": os.getpid()}))
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(control, 4096, 3)
        except (ConnectionError, OSError):
            break
        if not message:
            break
        if len(fds) != 3:
            for fd in fds:
                os.close(fd)
            control.send(msgpack.packb({"error": "expected two pipe ends and a page"}))
            continue
        try:
            request = msgpack.unpackb(message)
            answer = {"pid": spawn(fds, control, request["namespaces"])}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            answer = {"error": f"fork failed: {exc}"}
        finally:
            for fd in fds:
                os.close(fd)
        control.send(msgpack.packb(answer))


if __name__ == "__main__":
    main()
