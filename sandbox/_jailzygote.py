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
child's pid. The child, the jail, puts on its namespaces, private root and no_new_privs,
then holds (`Holder`): for each job it forks a process, in a pid namespace of its own,
which puts on the rest of a standard sandbox child's layers (`_harden.harden`), runs the
job the host sends (pickled by the host; read here with the job module's classes), sends
back the answer and exits. The host trusts nothing it sends but reads it as plain msgpack.
No job's process sees anything another job did.
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
NO_JOB = 3                       # a match's process's exit: the host closed the pipe
CLONE_NEWPID = 0x20000000


def serve(in_fd, out_fd, marker_fd, namespaces, ns_problem, outer_ids):
    """A jail's life. Its process puts on the layers a process that forks may have
    (`_harden.HELD`: the private root, no_new_privs, rlimits, the task cap, Landlock, ...),
    then holds there (`Holder`): it runs no bot's code, ever, and forks a process for each
    match, in a pid namespace of its own, which puts on the rest (the uid, the parent-death
    signal, seccomp) and plays the match. Each match so starts from the same state, with
    the same pid, whatever ran before it."""
    page = jailplayers.map_page(marker_fd)
    os.close(marker_fd)          # no fd left for a bot's os.write to reach it by
    config = _wire.read_frame(in_fd, 1 << 20)["config"]
    jailplayers.install_handlers()       # before seccomp, which forbids replacing them
    holder = Holder(out_fd, "pid_ns" in namespaces, config["readable"])
    seccomp = _seccomp.loader(_seccomp.PREBUILT[1]) if 1 in _seccomp.PREBUILT else \
        _seccomp.load_seccomp
    layers, missing, scratch = _harden.harden(config, in_fd, set(namespaces), ns_problem,
                                              outer_ids, seccomp=seccomp, split=holder.hold)
    # A match's process from here on: the first says what the jail put on.
    if holder.first:
        _wire.write_frame(out_fd, {"layers": layers, "missing": missing, "scratch": scratch})
    if config.get("strict") and missing:
        _runtime.exit_now(_runtime.FATAL_EXIT)
    try:
        frame = _wire.read_frame(in_fd, JOB_BYTES)
    except EOFError:
        _runtime.exit_now(NO_JOB)
    holder.attempts.take()
    reply = run_job(_Job(io.BytesIO(frame["job"]), holder.hidden).load(),
                    jailplayers.Marker(page), holder.attempts, out_fd)
    _wire.write_frame(out_fd, reply)
    _runtime.exit_now(0)


class Holder:
    """The jail's process once hardened up to its private root: it forks the process of
    each match and waits for it. Before it forks the next, the match must have ended
    normally (its answer sent, exit 0) and left nothing behind: no file in the scratch
    directory (the jail's working directory), no other process. Then it tells the host
    that it may play another match (`{"again": true}`), the next match's process forked.
    Otherwise it ends: a match's process's exit passed on (a signal's as 128 + its
    number), so that the host reads why."""

    def __init__(self, out_fd, own_pids, readable):
        self.out_fd = out_fd
        self.flags = CLONE_NEWPID if own_pids else 0
        self.readable = readable
        self.first = True
        self.attempts = None
        self.hidden = {}

    def hold(self):
        """Called by `harden` at the split: returns only in a match's process."""
        _harden.set_parent_death_signal()
        self._prepare()
        if self._fork() == 0:
            return
        while True:
            _, status = os.waitpid(-1, 0)
            if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
                code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else \
                    128 + os.WTERMSIG(status)
                _runtime.exit_now(0 if code == NO_JOB else code)
            if not _left_nothing():
                _runtime.exit_now(0)
            self.first = False
            if self._fork() == 0:
                return
            _wire.write_frame(self.out_fd, {"again": True})

    def _prepare(self):
        """What every match's process starts with, done once here: the record of refused
        attempts (its audit hook), and the host's own packages and the modules the job
        module names (the games kept elsewhere), as in a bot's child: out of sys.modules
        (the jail's code keeps what it imported), refused and noted when a bot imports
        them; the finder of the bots' libraries. Then what this process holds is frozen
        out of the collector's walks, as the zygote's is."""
        self.attempts = _attempts.Attempts(self.readable, os.getcwd())
        self.attempts.install()
        _child._Blocker.attempts = self.attempts
        sys.meta_path.insert(0, _child._Blocker)
        others = tuple(JOB.HIDDEN_PREFIXES)        # a prefix `pkg.` hides `pkg` too
        self.hidden = {m: sys.modules.pop(m) for m in list(sys.modules)
                       if m.split(".")[0] in _child.BLOCKED or f"{m}.".startswith(others)}
        LIBRARIES.install()
        jailplayers.prepare()
        gc.collect()
        gc.freeze()

    def _fork(self):
        """A match's process: in a pid namespace of its own where one can be made (else
        a plain fork, whose pid then counts the matches before it)."""
        try:
            return _zygote.clone(self.flags)
        except OSError:
            self.flags = 0
        try:
            return _zygote.clone(0)
        except OSError:
            _runtime.exit_now(_runtime.FATAL_EXIT)


def _left_nothing():
    """Whether the last match left nothing behind: no process (this one has no child
    left), and no file in the scratch directory, which the jail leaves as it is."""
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        pass
    else:
        return False
    try:
        with os.scandir(".") as entries:
            return next(entries, None) is None
    except OSError:
        return False


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
    global JOB, LIBRARIES
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
        _seccomp.PREBUILT[1] = _seccomp.seccomp_program(1)
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
