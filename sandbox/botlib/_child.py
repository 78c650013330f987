"""A sandbox child's life: harden, load the bot, answer one request frame per turn.

It runs in a process forked from the zygote (`_zygote.py`), or in a fresh interpreter:
`python -I -S _child.py IN_FD OUT_FD [SITE_DIR ...]` (the bwrap tier). Either way it has
never held match data. Frames in: the sandbox config (trusted, from the host), the bot to
load, the match start, then one request per turn until the input closes. Fatal problems
are reported as a frame and end the process.
"""
import os
import sys

if __name__ == "__main__":       # -I leaves the script's own directory off the path
    sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))] + sys.argv[3:]

import _thread  # noqa: E402
import time  # noqa: E402

import _attempts  # noqa: E402
import _harden  # noqa: E402
import _runtime  # noqa: E402
import _seccomp  # noqa: E402
import _wire  # noqa: E402

BLOCKED = ("engine", "orchestrator", "sandbox")


class _Blocker:
    """Refuses the host's own packages, should they be importable from a site dir, and
    notes the attempts: `arena check` reports them."""

    attempts = None

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            if cls.attempts is not None:
                cls.attempts.note("import", name)
            raise ImportError(f"{name} is not available to bots")
        return None


def serve(in_fd, out_fd, namespaces=(), ns_problem="fresh interpreter", outer_ids=None):
    """Everything a child does, from its first frame to its exit."""
    def fatal(reason):
        try:
            _wire.write_frame(out_fd, {"fatal": reason})
        finally:
            _runtime.exit_now(_runtime.FATAL_EXIT)

    config = _wire.read_frame(in_fd, 1 << 20)["config"]
    limits = config["limits"]
    # The limit handlers go in before seccomp, which then forbids replacing them.
    guard = _runtime.Guard(limits["cpu_per_call_s"], limits["wall_per_call_s"], fatal, limits)
    _harden.abort_exits()
    layers, missing, scratch = _harden.harden(config, in_fd, set(namespaces), ns_problem,
                                              outer_ids, seccomp=_seccomp.load_seccomp)
    # Reported before any bot code runs, so a bot cannot forge it.
    _wire.write_frame(out_fd, {"layers": layers, "missing": missing, "scratch": scratch})
    if config.get("strict") and missing:
        _runtime.exit_now(_runtime.FATAL_EXIT)
    hello = _wire.read_frame(in_fd, 64 << 20)
    memory_alarm = int(limits["memory_mb"] * (1 << 20) * limits["memory_alarm"])
    attempts = _Blocker.attempts = _attempts.Attempts(config["readable"], os.getcwd())
    attempts.install()
    sys.meta_path.insert(0, _Blocker)
    for name in [m for m in sys.modules if m.split(".")[0] in BLOCKED]:
        del sys.modules[name]
    output = _runtime.CappedOutput(limits["output_bytes"])
    sys.stdout = sys.stderr = output
    game = _runtime.bot_side(hello["bot_side"], hello.get("bot_side_source"))
    try:
        module = _runtime.load_checked(game, hello["source"], hello["filename"], guard)
    except _runtime.LoadError as exc:
        _wire.write_frame(out_fd, {"load_error": str(exc)})
        return
    _wire.write_frame(out_fd, {"ready": True, "out": output.take(),
                                "violations": attempts.take()})
    try:
        start = _wire.read_frame(in_fd, 1 << 20)["start"]
    except (EOFError, KeyError, TypeError):
        return
    try:
        runtime = _runtime.start_runtime(game, module, start, guard)
    except BaseException:        # not described: its __str__ would be the bot's code
        fatal("crash: the bot's module raised as the match started")
    watch = _runtime.module_watch(game, module)
    while True:
        try:
            request = _wire.read_frame(in_fd, 64 << 20)
        except EOFError:
            return
        started = time.perf_counter()
        try:
            reply = runtime.handle(request)
            guard.disarm()
        except _runtime.Fatal as exc:
            fatal(str(exc))
        except BaseException as exc:
            fatal(f"crash: {_runtime.describe_error(exc)}")
        if _runtime.peak_rss_bytes() > memory_alarm:
            fatal("memory limit")
        if _thread._count():         # Python threads the bot started and left running
            fatal("threads kept running after move() returned")
        _wire.write_frame(out_fd, _runtime.finish_reply(reply, watch, output, attempts,
                                                        started))


if __name__ == "__main__":
    serve(int(sys.argv[1]), int(sys.argv[2]))
    _runtime.exit_now(0)
