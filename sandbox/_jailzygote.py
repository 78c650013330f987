"""The match jail's zygote (`--sandbox match`): forks one hardened child per match.

`python -P -s -S _jailzygote.py CONTROL_FD PROJECT_DIR [SITE_DIR ...]`. Like the bots'
zygote (`botlib/_zygote.py`, whose clone it uses), it imports what a child needs once (here
the engines and `orchestrator.match` too) and answers each request, which carries the
child's two pipe ends and the host's marker page, with the new child's pid. The child puts
on every layer of a standard sandbox child (`_harden.harden`), then plays the whole match
with `run_match` and the jail's players (`sandbox/jailplayers.py`), and sends back the
result and the replay. The host trusts nothing it sends but reads it as plain msgpack.
"""
import os
import sys

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "botlib"),
                *sys.argv[2:]]

import dataclasses  # noqa: E402
import gc  # noqa: E402
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
from orchestrator.games import GAMES, get_game  # noqa: E402
from orchestrator.match import IN_JAIL, run_match  # noqa: E402
from sandbox import jailplayers  # noqa: E402
from sandbox.host import side_parts  # noqa: E402

JOB_BYTES = 1 << 30


def serve(in_fd, out_fd, marker_fd, namespaces, ns_problem, outer_ids):
    """A jail's life: harden, read the match, play it, send the result."""
    page = jailplayers.map_page(marker_fd)
    os.close(marker_fd)          # no fd left for a bot's os.write to reach it by
    config = _wire.read_frame(in_fd, 1 << 20)["config"]
    jailplayers.install_handlers()       # before seccomp, which forbids replacing them
    layers, missing, scratch = _harden.harden(config, in_fd, set(namespaces), ns_problem,
                                              outer_ids, seccomp=_seccomp.load_seccomp)
    _wire.write_frame(out_fd, {"layers": layers, "missing": missing, "scratch": scratch})
    if config.get("strict") and missing:
        _runtime.exit_now(_runtime.FATAL_EXIT)
    job = pickle.loads(_wire.read_frame(in_fd, JOB_BYTES)["job"])
    attempts = _attempts.Attempts(config["readable"], os.getcwd())
    attempts.install()
    marker = jailplayers.Marker(page)
    turn = [0]
    jailplayers.STATE = jailplayers.JailState(marker, job["charges"], attempts,
                                              lambda: turn[0], out_fd)
    # The host's own packages, as in a bot's child: out of sys.modules (the jail's code
    # keeps what it imported), refused and noted when a bot imports them.
    _child._Blocker.attempts = attempts
    sys.meta_path.insert(0, _child._Blocker)
    for name in [m for m in sys.modules if m.split(".")[0] in _child.BLOCKED]:
        del sys.modules[name]
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
    _wire.write_frame(out_fd, {"result": result, "replay": replays[0] if replays else None})


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
    _harden.set_parent_death_signal()
    for name in GAMES:          # every game's bot side, a file kept elsewhere's too
        _runtime.bot_side(*side_parts(get_game(name).bot_side))
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
