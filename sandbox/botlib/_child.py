"""Entry point of a sandbox child: `python -I -S _child.py IN_FD OUT_FD [SITE_DIR ...]`.

It starts from a fresh interpreter that has never held match data. It reads a hello frame
(game, bot source, limits), loads the bot, then answers one request frame per turn until
its input closes. Fatal problems are reported as a frame and end the process.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE] + sys.argv[3:]

import resource  # noqa: E402
import time  # noqa: E402

import _runtime  # noqa: E402
import _wire  # noqa: E402

BLOCKED = ("engine", "orchestrator", "sandbox")


class _Blocker:
    """Refuses the host's own packages, should they be importable from a site dir."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} is not available to bots")
        return None


def _limit(which, value):
    try:
        resource.setrlimit(which, (value, value))
    except (ValueError, OSError):
        pass


def _die_with_parent():
    """PR_SET_PDEATHSIG: the kernel kills this child when the host dies, however it dies."""
    import ctypes
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, 9, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:       # the host died before the call above
        _runtime.exit_now(1)


def main():
    in_fd, out_fd = int(sys.argv[1]), int(sys.argv[2])
    _die_with_parent()

    def fatal(reason):
        try:
            _wire.write_frame(out_fd, {"fatal": reason})
        finally:
            _runtime.exit_now(_runtime.FATAL_EXIT)

    hello = _wire.read_frame(in_fd, 64 << 20)
    limits = hello["limits"]
    _limit(resource.RLIMIT_CORE, 0)
    _limit(resource.RLIMIT_AS, limits["memory_mb"] << 20)
    _limit(resource.RLIMIT_CPU, int(limits["cpu_bank_s"] + limits["cpu_per_call_s"]) + 2)
    memory_alarm = int(limits["memory_mb"] * (1 << 20) * limits["memory_alarm"])
    sys.meta_path.insert(0, _Blocker)
    for name in [m for m in sys.modules if m.split(".")[0] in BLOCKED]:
        del sys.modules[name]
    output = _runtime.CappedOutput(limits["output_bytes"])
    sys.stdout = sys.stderr = output
    sys.stdin = None
    guard = _runtime.Guard(limits["cpu_per_call_s"], limits["wall_per_call_s"], fatal)
    game = __import__("_" + hello["game"])
    try:
        module = _runtime.load_bot(hello["source"], hello["filename"], guard)
        game.check_module(module)
    except _runtime.LoadError as exc:
        _wire.write_frame(out_fd, {"load_error": str(exc)})
        return
    _wire.write_frame(out_fd, {"ready": True, "out": output.take()})
    try:
        start = _wire.read_frame(in_fd, 1 << 20)["start"]
    except (EOFError, KeyError, TypeError):
        return
    runtime = game.RUNTIME(module, start, guard)
    watch = _runtime.ModuleWatch(module)
    while True:
        try:
            request = _wire.read_frame(in_fd, 64 << 20)
        except EOFError:
            return
        started = time.perf_counter()
        try:
            reply = runtime.handle(request)
        except _runtime.Fatal as exc:
            fatal(str(exc))
        except BaseException as exc:
            fatal(f"crash: {_runtime.describe_error(exc)}")
        if _runtime.peak_rss_bytes() > memory_alarm:
            fatal("memory limit")
        reply["warn"] = watch.changes()
        reply["out"] = output.take()
        reply["busy_s"] = time.perf_counter() - started
        _wire.write_frame(out_fd, reply)


if __name__ == "__main__":
    main()
