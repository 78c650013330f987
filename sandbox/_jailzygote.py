"""The match jail's zygote (`--sandbox match`): forks hardened children that run the
caller's jobs, one after another.

`python -P -s -S _jailzygote.py CONTROL_FD JOB_MODULE PROJECT_DIR [SITE_DIR ...]`. It knows
no game and no orchestrator: the caller names the module its jails run (for a match,
`orchestrator/runner/jail_job.py`), importable from PROJECT_DIR, which provides:

- `preload()`: imports what its jobs need, here, once, and returns the bot sides their
  bots may load, as (name, source or None) pairs for `_runtime.bot_side`;
- `HIDDEN_PREFIXES`: the names (prefixes) of the modules the bots must not see beyond the
  host's own packages (the games kept elsewhere: ARENA_GAMES's, the installed ones), read
  after `preload()`;
- `play(job, on_turn)`: one job, in a hardened jail, with the jail's players
  (`sandbox/jailplayers.py`) and their clocks running; `on_turn(turn, max_turns)` puts the
  turn in the page the host reads. Returns the answer, plain data with a "result".

Like the bots' zygote (`botlib/_zygote.py`, whose loop and clone it uses), it answers each
request, which carries the child's two pipe ends and the host's marker page, with the new
child's pid. The child puts on every layer of a standard sandbox child (`_harden.harden`),
then runs the jobs the host sends (pickled by the host; read here with the job module's
classes), one at a time, and sends back each answer. The host trusts nothing it sends but
reads it as plain msgpack. Between two jobs the bots' modules and libraries are dropped and
loaded anew.
"""
import os
import sys

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "botlib"),
                *sys.argv[3:]]

import gc  # noqa: E402
import importlib  # noqa: E402
import io  # noqa: E402
import pickle  # noqa: E402

import _attempts  # noqa: E402
import _child  # noqa: E402
import _harden  # noqa: E402
import _runtime  # noqa: E402
import _seccomp  # noqa: E402
import _wire  # noqa: E402
import _zygote  # noqa: E402

from sandbox import jailplayers  # noqa: E402

JOB_BYTES = 1 << 30
JOB = None                       # the job module (JOB_MODULE), imported by main()
LIBRARIES: jailplayers.Libraries | None = None
# The seccomp filters, compiled in the zygote: the jail's own, which lets it fork, and a
# match process's whole filter, loaded on top of it, with its pid still to patch in.
JAIL_FILTER: bytes | None = None
MATCH_FILTER: bytes | None = None
NO_JOB = 3                       # a match process's exit: the host closed the pipe


def serve(in_fd, out_fd, marker_fd, namespaces, ns_problem, outer_ids):
    """A jail's life: harden, then play the host's matches one after another, each in a
    process forked for it from this one. This process runs no bot's code, ever: each
    match starts from the same state (nothing a bot does in one match, to the standard
    library or anything else, survives into the next), and this process keeps the next
    match's process forked and waiting before it says it may play another (`again`).
    It ends when the host closes the pipe, when a match's process did not end normally,
    or when a match left a file in the scratch directory."""
    page = jailplayers.map_page(marker_fd)
    os.close(marker_fd)          # no fd left for a bot's os.write to reach it by
    config = _wire.read_frame(in_fd, 1 << 20)["config"]
    jailplayers.install_handlers()       # before seccomp, which forbids replacing them
    layers, missing, scratch = _harden.harden(config, in_fd, set(namespaces), ns_problem,
                                              outer_ids, seccomp=_load_jail_filter)
    hardened = {"layers": layers, "missing": missing, "scratch": scratch}
    if config.get("strict") and missing:
        _wire.write_frame(out_fd, hardened)
        _runtime.exit_now(_runtime.FATAL_EXIT)
    attempts = _attempts.Attempts(config["readable"], os.getcwd())
    attempts.install()
    # The host's own packages, and the modules the job module names (the games kept
    # elsewhere), as in a bot's child: out of sys.modules (the jail's code keeps what it
    # imported), refused and noted when a bot imports them.
    _child._Blocker.attempts = attempts
    sys.meta_path.insert(0, _child._Blocker)
    others = tuple(JOB.HIDDEN_PREFIXES)        # a prefix `pkg.` hides `pkg` too
    hidden = {m: sys.modules.pop(m) for m in list(sys.modules)
              if m.split(".")[0] in _child.BLOCKED or f"{m}.".startswith(others)}
    LIBRARIES.install()
    play = (in_fd, out_fd, jailplayers.Marker(page), attempts, hidden,
            "seccomp" in layers)
    tasks = jailplayers._tasks()
    pid = _fork_match(*play)
    _wire.write_frame(out_fd, hardened)
    while True:
        _, status = os.waitpid(pid, 0)
        if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
            # The host reads why from this exit: a signal's as 128 + its number.
            code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else \
                128 + os.WTERMSIG(status)
            _runtime.exit_now(0 if code == NO_JOB else code)
        if not (jailplayers.clean(tasks) and _alone()):
            _runtime.exit_now(0)
        pid = _fork_match(*play)
        _wire.write_frame(out_fd, {"again": True})


def _load_jail_filter():
    """The jail's own seccomp layer: every rule of a bot's child but those that keep it
    from forking its matches' processes, which load the rest first (`_match_process`)."""
    if JAIL_FILTER is None:
        _seccomp._filter(0, forks=True).load()
    else:
        _seccomp.load_program(JAIL_FILTER)


def _alone():
    """Whether this process has no child left (a match's process ends, and starts none)."""
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def _fork_match(in_fd, out_fd, marker, attempts, hidden, filtered):
    """A process for the next match, forked from this one: it waits for the match, plays
    it, sends the answer and exits (0). Returns its pid."""
    parent = os.getpid()
    pid = os.fork()
    if pid:
        return pid
    try:
        _match_process(parent, in_fd, out_fd, marker, attempts, hidden, filtered)
    finally:
        _runtime.exit_now(_runtime.FATAL_EXIT)


def _match_process(parent, in_fd, out_fd, marker, attempts, hidden, filtered):
    """One match's process: the layers a fork does not carry over first (the parent-death
    signal; the whole seccomp filter, whose rules name this pid), then the host's job."""
    _harden.set_parent_death_signal()
    if os.getppid() != parent:
        _runtime.exit_now(_runtime.FATAL_EXIT)
    if filtered:
        if MATCH_FILTER is None:
            _seccomp._filter(os.getpid()).load()
        else:
            _seccomp.load_program(_seccomp.patch_pid(MATCH_FILTER, os.getpid()))
    try:
        frame = _wire.read_frame(in_fd, JOB_BYTES)
    except EOFError:
        _runtime.exit_now(NO_JOB)
    attempts.take()
    reply = run_job(_Job(io.BytesIO(frame["job"]), hidden).load(), marker, attempts, out_fd)
    _wire.write_frame(out_fd, reply)
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


def run_job(job, marker, attempts, out_fd):
    """One job of the jail: the job module's answer, with the jail's players' state set
    up and their clocks running. A bot that left the jail unfit to go on (`Poisoned`)
    ends the jail here, its reason in the page."""
    turn = [0]
    jailplayers.STATE = jailplayers.JailState(marker, attempts, lambda: turn[0], out_fd)

    def on_turn(now, _max_turns):
        turn[0] = now

    jailplayers.start_clocks()
    try:
        reply = JOB.play(job, on_turn)
    except jailplayers.Poisoned as exc:
        marker.poison(*exc.args)
        _runtime.exit_now(_runtime.FATAL_EXIT)
    jailplayers.stop_clocks()
    marker.idle()
    jailplayers.STATE = None
    return reply


def _spawn_requested(control, fds, request):
    """The jail a request asks for ({"namespaces"}), on its two pipe ends and the page."""
    return _zygote.fork_child(control, request["namespaces"],
                              lambda *how: serve(*fds, *how))


def main():
    global JOB, LIBRARIES, JAIL_FILTER, MATCH_FILTER
    _harden.set_parent_death_signal()
    JOB = importlib.import_module(sys.argv[2])
    sides = JOB.preload()
    for side in sides:          # every game's bot side, a file kept elsewhere's too
        _runtime.bot_side(*side)
    LIBRARIES = jailplayers.Libraries(os.path.dirname(_runtime.__file__),
                                      [name for name, _ in sides])
    for name in _zygote.PRELOAD:
        __import__(name)
    try:
        JAIL_FILTER = _seccomp.seccomp_program(0, forks=True)
        MATCH_FILTER = _seccomp.seccomp_program(_seccomp.PROGRAM_PID)
    except Exception:       # no libseccomp: jails report the seccomp layer missing
        pass
    # What the zygote holds stays out of every jail's collections: a collection would
    # write to each object's header, a copy-on-write fault per page in every jail.
    gc.collect()
    gc.freeze()
    _zygote.answer_requests(int(sys.argv[1]), 3, "two pipe ends and a page",
                            _spawn_requested)


if __name__ == "__main__":
    main()
