"""An executable bot's child: it hardens itself like a Python child, then runs the bot's
program, per turn or for the whole game, and talks frames to the host for it.

`python -I -S _keeper.py IN_FD OUT_FD [SITE_DIR ...]` (the bwrap tier), or forked from the
zygote. The keeper is our code; the bot's program is the keeper's own child, in the same
namespaces, private root, uid, Landlock domain and rlimits, plus a seccomp filter of its
own (`_seccomp._program_filter`): it may exec its runtime once and start no process. Its
refused calls come to the keeper, which records them and answers EPERM.

Frames in: the config (with the program: how to run it), the bot (its file and the
scratch it starts with), the match start, then one request per turn, {"input": text}; and
mid-turn, {"overtime": true} when the host judged the program's own time past its wall
limit (`_sched`: the keeper has no /proc to judge it), which ends the turn as a hang.
Frames out per turn: {"moves": {"answer": line or None, "problem": kind or None}, "out":
the program's stderr, "violations", "scratch" when it changed, "busy_s", "usage" (what
its programs used, `_program.Runner.usage`)}.

A game whose players may be Python modules or programs (Robot Game, with Ruby bots) names
an adapter in its bot side's PROGRAM_ADAPTER (module, class): its requests are the Python
players' views, and the adapter turns each into the program's input and its answer into
the Python players' reply.
"""
import os
import sys

if __name__ == "__main__":       # -I leaves the script's own directory off the path
    sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))] + sys.argv[3:]

import importlib  # noqa: E402
import time  # noqa: E402

import _harden  # noqa: E402
import _program  # noqa: E402
import _runtime  # noqa: E402
import _sched  # noqa: E402
import _seccomp  # noqa: E402
import _wire  # noqa: E402

BOT_DIR = "/bot"


def program_adapter(side_name, side_source=None):
    """The adapter class a game's bot side names (PROGRAM_ADAPTER), or None."""
    named = getattr(_runtime.bot_side(side_name, side_source), "PROGRAM_ADAPTER", None)
    if named is None:
        return None
    module, name = named
    return getattr(importlib.import_module(module), name)


def serve(in_fd, out_fd, namespaces=(), ns_problem="fresh interpreter", outer_ids=None):
    """Everything an executable bot's child does, from its first frame to its exit."""
    config = _wire.read_frame(in_fd, 1 << 20)["config"]
    hello = _wire.read_frame(in_fd, 64 << 20)
    program = config["program"]
    bot_file = f"{BOT_DIR}/{program['file']}"
    files = {bot_file: hello["source"]}
    prepared = {}

    def prepare_filter():        # compiled once by the zygote; a fresh interpreter compiles
        prepared["bpf"], prepared["recorded"] = (_seccomp.PROGRAM_PREBUILT
                                                 or _seccomp.program_seccomp())

    layers, missing, scratch = _harden.harden(config, in_fd, set(namespaces), ns_problem,
                                              outer_ids, files, seccomp=prepare_filter)
    _wire.write_frame(out_fd, {"layers": layers, "missing": missing, "scratch": scratch})
    if config.get("strict") and missing:
        _runtime.exit_now(_runtime.FATAL_EXIT)
    if program.get("problem"):
        _wire.write_frame(out_fd, {"load_error": program["problem"]})
        return
    bot_path = (scratch or "") + bot_file
    exec_path = _program.executable(program, bot_path)
    try:
        fd = os.open(exec_path, os.O_RDONLY | os.O_CLOEXEC)
        os.dup2(fd, _harden.EXEC_FD, inheritable=False)
        os.close(fd)
    except OSError as exc:
        _wire.write_frame(out_fd, {"load_error": f"cannot open {exec_path}: {exc.strerror}"})
        return
    runner = _program.runner_for(program, bot_path, config["limits"], os.getcwd(),
                                 hello.get("scratch") or {}, prepared.get("bpf"),
                                 prepared.get("recorded"), interrupt=in_fd)
    _wire.write_frame(out_fd, {"ready": True, "out": "", "violations": []})
    try:
        start = _wire.read_frame(in_fd, 1 << 20)["start"]
    except (EOFError, KeyError, TypeError):
        return
    adapter = program_adapter(hello["bot_side"], hello.get("bot_side_source"))
    if adapter is not None:
        adapter = adapter(runner, start, config["limits"])
    while True:
        try:
            request = _wire.read_frame(in_fd, 1 << 20)
        except EOFError:
            runner.stop()
            return
        if isinstance(request, dict) and _sched.OVERTIME in request:
            continue              # the host's word on a turn that had ended meanwhile
        started = time.perf_counter()
        reply = adapter.turn(request) if adapter else runner.turn(request["input"])
        reply["busy_s"] = time.perf_counter() - started
        reply["usage"] = runner.usage()
        _wire.write_frame(out_fd, reply)
        if "fatal" in reply:
            runner.stop()
            _runtime.exit_now(_runtime.FATAL_EXIT)


if __name__ == "__main__":
    serve(int(sys.argv[1]), int(sys.argv[2]))
    _runtime.exit_now(0)
