"""Run an executable bot's program over pipes: one turn at a time, or for the whole game.

Used by the keeper (`_keeper.py`), where each program gets its seccomp filter and execs
its runtime through EXEC_FD, and by `--sandbox off`, where it is a plain child process.
A turn's outcome is an answer line, or none and the kind of problem: hang (no answer in
time), cpu, memory, crash or output (more than OUTPUT_CAP bytes on stdout).
"""
import errno
import fcntl
import os
import re
import resource
import select
import selectors
import shutil
import signal
import socket
import struct
import time

import _harden
import _marks
import _sched
import _seccomp
import _wire
from _sched import PROBE_S, STARVED_TIMES

BOT = _harden.BOT
OUTPUT_CAP = 64 << 10            # stdout bytes per turn: past this, the program is stopped
ANSWER_CAP = 256                 # bytes of the answer line that are kept
SCRATCH_FILES = 16               # files of the scratch directory that are carried over
SCRATCH_BYTES = _harden.SCRATCH_BYTES    # names and contents carried over, all told
# seccomp user notifications: struct seccomp_notif is 80 bytes, the response 24.
NOTIF_RECV, NOTIF_SEND = 0xC0502100, 0xC0182101
NOTIF_SIZE = 80
NOTIF_CONTINUE = 1               # SECCOMP_USER_NOTIF_FLAG_CONTINUE
EXEC_WAIT_S = 10.0               # for the program's one exec, made by our own code


class Program:
    """One started program: its pid, its three pipes and its seccomp listener."""

    def __init__(self, argv, executable, cpu_s, workdir, bpf, env, recorded=None):
        in_r, self.stdin = os.pipe()
        self.stdout, out_w = os.pipe()
        self.stderr, err_w = os.pipe()
        ours = theirs = None
        if bpf is not None:
            # SEQPACKET: a child that dies before it sends is an end of file, not a wait.
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.cpu_cap = cpu_s
        self.pid = os.fork()
        if self.pid == 0:
            _become(argv, executable, cpu_s, workdir, bpf, env, (in_r, out_w, err_w),
                    theirs.fileno() if theirs else None)
        for fd in (in_r, out_w, err_w):
            os.close(fd)
        self.listener = -1
        if ours is not None:
            theirs.close()
            try:
                _, fds, _, _ = socket.recv_fds(ours, 16, 1)
            except OSError:
                fds = []
            ours.close()
            self.listener = fds[0] if fds else -1
            if self.listener >= 0:
                _let_exec(self.listener, recorded or {})
        self.pidfd = os.pidfd_open(self.pid)
        for fd in (self.stdin, self.stdout, self.stderr):
            os.set_blocking(fd, False)
        self.status = None           # (exit code or -signal, peak RSS bytes, CPU s) once reaped
        self.cpu_at_turn = 0.0       # its CPU when its last turn ended (or it started)
        self.turns = 0
        self.pending = b""           # stdout read past the last answer line

    def cpu(self):
        try:
            return time.clock_gettime(_harden.cpu_clock(self.pid))
        except OSError:
            return self.cpu_at_turn

    def reap(self, block):
        if self.status is None:
            try:
                pid, status, usage = os.wait4(self.pid, 0 if block else os.WNOHANG)
            except ChildProcessError:
                pid, status, usage = self.pid, 0, None
            if pid:
                rss = usage.ru_maxrss * 1024 if usage else 0
                cpu = usage.ru_utime + usage.ru_stime if usage else 0.0
                self.status = (os.waitstatus_to_exitcode(status), rss, cpu)
        return self.status

    def kill(self):
        if self.status is None:
            try:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            except OSError:
                pass
            self.reap(block=True)

    def close(self):
        self.kill()
        for fd in (self.stdin, self.stdout, self.stderr, self.listener, self.pidfd):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.stdin = self.stdout = self.stderr = self.listener = self.pidfd = -1


def _let_exec(listener, recorded):
    """Let the program's first execveat through: ours, in `_become`, before any of its
    code runs. The filter sends every execveat here; any later one is refused and
    recorded (`Runner._refuse`), so the program is its runtime exactly once."""
    if not select.select([listener], [], [], EXEC_WAIT_S)[0]:
        return
    buffer = bytearray(NOTIF_SIZE)
    try:
        fcntl.ioctl(listener, NOTIF_RECV, buffer, True)
    except OSError:
        return                       # it died before its exec: its stderr says why
    notif_id, _pid, _flags, nr = struct.unpack_from("<QIIi", buffer)
    allow = recorded.get(nr) == "process: execveat"
    response = struct.pack("<QqiI", notif_id, 0, 0 if allow else -errno.EPERM,
                           NOTIF_CONTINUE if allow else 0)
    try:
        fcntl.ioctl(listener, NOTIF_SEND, response)
    except OSError:
        pass


def _become(argv, executable, cpu_s, workdir, bpf, env, pipes, sock):
    """In the forked child: take the pipes, the CPU cap and the filter, then exec."""
    try:
        os.setsid()                  # its own group: kill(0, ...) reaches only itself
        # Out of the way first: a pipe may already sit on 0, 1 or 2 (stdin was closed).
        wanted = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (*pipes, sock) if fd is not None]
        for target, fd in enumerate(wanted):
            os.dup2(fd, target)
        keep = len(wanted)
        os.closerange(keep, _harden.EXEC_FD)
        os.closerange(_harden.EXEC_FD + 1, 1 << 16)
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        if hard != resource.RLIM_INFINITY:
            cpu_s = min(cpu_s, hard - 1)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
        os.chdir(workdir)
        if bpf is None:
            os.execve(executable, argv, env)
        listener = _seccomp.load_with_listener(_seccomp.patch_pid(bpf, os.getpid()))
        with socket.socket(fileno=keep - 1) as channel:
            socket.send_fds(channel, [b"L"], [listener])
        os.close(listener)
        os.execve(_harden.EXEC_FD, argv, env)
    except BaseException as exc:     # said on its stderr, which the bot's output keeps
        try:
            os.write(2, f"sandbox: cannot start {argv[0]}: {exc}\n".encode())
        except BaseException:
            pass
    os._exit(127)


def executable(program, bot_path):
    """The file a program's process execs: its runtime, or the bot itself if native."""
    return bot_path if program["native"] else program["exec"]


def runner_for(program, bot_path, limits, workdir, scratch, bpf=None, recorded=None,
               interrupt=-1):
    """The Runner of the bot at `bot_path` (described by `sandbox/programs.py`), its
    scratch directory `workdir` first given the files it left last game. `interrupt`: the
    keeper's pipe from the host, which may say mid-turn that the turn is over (OVERTIME)."""
    restore_scratch(workdir, scratch)
    memory = str(limits["memory_mb"])
    argv = [bot_path if arg == BOT else arg.replace(_harden.MEMORY_MB, memory)
            for arg in program["argv"]]
    runner = Runner(argv, executable(program, bot_path), limits, program["persistent"],
                    workdir, bpf, recorded)
    runner.env.update(program.get("env") or {})
    runner.interrupt = interrupt
    runner.quiet = frozenset(program.get("quiet") or ())
    return runner


class Runner:
    """A bot's program over a game: started per turn, or once (and restarted once).
    With `bpf` (in the keeper), each start loads that filter and execs through EXEC_FD;
    without it (`--sandbox off`), it execs `executable`."""

    def __init__(self, argv, executable, limits, persistent, workdir, bpf=None,
                 recorded=None):
        self.argv = argv
        self.executable = executable
        self.limits = limits
        self.persistent = persistent
        self.workdir = workdir
        self.bpf = bpf
        self.recorded = recorded or {}
        self.quiet = frozenset()         # calls its runtime makes on its own: not recorded
        self.env = {"PATH": "/usr/bin:/bin", "HOME": workdir, "LANG": "C.UTF-8"}
        self.program = None
        self.starts = 0
        self.violations = []
        self.stderr = bytearray()
        self.dropped = 0
        self.scratch = snapshot(workdir)
        self.answer_cap = ANSWER_CAP     # a game whose answers are longer raises it
        self.ended_cpu_s = 0.0           # CPU of its programs that have ended, every thread
        self.ended_peak = 0              # their peak RSS, bytes
        self.idle_cpu = 0.0              # CPU a persistent program used between turns
        self.own_s = 0.0                 # its turns' own time, where /proc shows it (off)
        self.interrupt = -1              # the host's pipe to the keeper (see runner_for)

    def _start(self, cpu_s):
        self.starts += 1
        return Program(self.argv, self.executable, max(1, int(cpu_s + 0.999)), self.workdir,
                       self.bpf, self.env, self.recorded)

    def _charge(self, program):
        """The CPU problem of a program that used more than it may, between turns too
        (threads left spinning): past the match's idle allowance or its bank, it is
        stopped and holds from then on."""
        limits = self.limits
        if self.idle_cpu > limits["idle_cpu_s"] or \
                self.ended_cpu_s + (program.cpu() if program else 0.0) > limits["cpu_bank_s"]:
            self.starts = max(self.starts, 2)
            return "cpu"
        return None

    def turn(self, text, calls=1):
        """Play one turn of `calls` bot decisions: the input block in, a reply frame out."""
        data = text.encode()
        limits = self.limits
        if not self.persistent:
            program = self._start(limits["cpu_per_call_s"])
            _write(program, data)
            _close_input(program)
            answer, problem = self._read(program, limits["wall_per_call_s"],
                                         limits["cpu_per_call_s"], until_exit=True)
            self._end(program)
            if problem is None and self._charge(None):
                answer, problem = None, "cpu"
        else:
            answer, problem = self._persistent_turn(data + b"\n", calls)
        reply = {"moves": {"answer": answer, "problem": problem},
                 "out": marked_lines(self._take_out()),
                 "out_dropped": self.dropped, "violations": self.violations}
        _marks.take(reply)
        self.violations = []
        now = snapshot(self.workdir)
        trim_scratch(self.workdir, now)
        if now != self.scratch:
            self.scratch = reply["scratch"] = now
        return reply

    def _persistent_turn(self, data, calls):
        program = self.program
        if program is None:
            if self.starts >= 2:     # started once and restarted once: it holds from now on
                return None, None
            program = self.program = self._start(self.limits["cpu_backstop_s"])
        first = program.turns == 0
        program.turns += 1
        wall = self.limits["first_wall_s"] if first else self.limits["wall_per_call_s"]
        wall = _sched.request_own_s(self.limits, calls, wall)
        # What it used since its last turn ended (threads left running) counts against
        # this turn, and against the match's idle allowance.
        if not first:
            self.idle_cpu += max(0.0, program.cpu() - program.cpu_at_turn)
        problem = self._charge(program)
        answer = None
        cpu_s = self.limits["cpu_per_call_s"] * max(1, calls)
        if problem is None:
            _write(program, data)
            # The first turn's start (a JVM's) has no CPU limit but its wall time.
            answer, problem = self._read(program, wall, wall if first else cpu_s,
                                         until_exit=False)
        if problem is None and not first and program.cpu() - program.cpu_at_turn > cpu_s:
            problem = "cpu"
        program.cpu_at_turn = program.cpu()
        if problem is not None or program.status is not None:
            self._end(program)
            self.program = None
        return answer, problem

    def _read(self, program, wall, cpu_allowance, until_exit):
        """Read the program's answer line for `wall` seconds of its own time. Per turn
        (`until_exit`), also wait for it to end, so that what it writes to its scratch
        after answering counts.

        A program's own time is its wall time less the time it waited to run (`_sched`):
        one starved by a busy machine (a JVM compiling its bot beside other work) keeps its
        allowance, up to STARVED_TIMES `wall` in all, while one that sleeps has none, past
        `wall`, whatever it does with its CPU. Past `wall` with `cpu_allowance` of CPU
        used this turn, it is over too. Where /proc shows its waits (`--sandbox off`) this
        judges them; in a sandbox, which has no /proc, the host does, and says so on
        `interrupt` (OVERTIME), the last look being STARVED_TIMES `wall`."""
        started = time.monotonic()
        deadline, last = started + wall, started + STARVED_TIMES * wall
        cpu_start = program.cpu()
        own = _sched.OwnTime([program.pid], started, threads=True)
        judged = _sched.waited_s(program.pid) is not None     # /proc shows its waits
        selector = selectors.DefaultSelector()
        for fd in (program.stdout, program.stderr, program.listener, program.pidfd,
                   self.interrupt):
            if fd >= 0:
                selector.register(fd, selectors.EVENT_READ)
        out = bytearray(program.pending)
        program.pending = b""
        answer = None
        total = 0
        exited = out_closed = False
        try:
            while True:
                if answer is None and b"\n" in out:
                    line, _, rest = bytes(out).partition(b"\n")
                    answer = line[:self.answer_cap].decode("utf-8", "replace").strip()
                    out = bytearray(rest)
                    if not until_exit:
                        program.pending = bytes(rest)
                        return answer, None
                if out_closed and (exited or not until_exit):
                    break
                now = time.monotonic()
                left = deadline - now
                if left <= 0:
                    if answer is not None:
                        return answer, None            # answered; lingered: stopped
                    if now < last and program.cpu() - cpu_start < cpu_allowance:
                        spent, runnable = own.look([program.pid], now)
                        if not judged or spent <= wall or runnable:
                            deadline = min(now + max(PROBE_S, wall - spent), last)
                            continue
                    program.kill()
                    return None, "hang"
                for key, _ in selector.select(left):
                    fd = key.fd
                    if fd == self.interrupt:
                        if _overtime(fd):
                            if answer is not None:
                                return answer, None
                            program.kill()
                            return None, "hang"
                        selector.unregister(fd)
                    elif fd == program.listener:
                        if not self._refuse(fd):
                            selector.unregister(fd)
                    elif fd == program.pidfd:
                        exited = True
                        selector.unregister(fd)
                    else:
                        chunk = _read_some(fd)
                        if chunk is None:
                            continue
                        if not chunk:
                            selector.unregister(fd)
                            if fd == program.stdout:
                                out_closed = True
                            continue
                        if fd == program.stderr:
                            self._keep_err(chunk)
                            continue
                        total += len(chunk)
                        if total > OUTPUT_CAP:
                            program.kill()
                            return None, "output"
                        out += chunk
            if answer is None and out.strip():
                answer = bytes(out[:self.answer_cap]).decode("utf-8", "replace").strip()
            own.look([program.pid], time.monotonic(), busy_too=False)    # before it is reaped
            status = program.reap(block=True)
            if answer is not None:
                return answer, None
            return None, self._why(program, status)
        finally:
            selector.close()
            if judged:        # its own time, to the bank (in a sandbox, the host judges it)
                self.own_s += own.look([program.pid], time.monotonic(), busy_too=False)[0]

    def _why(self, program, status):
        """Why a program ended without an answer (None: it ended cleanly, saying nothing)."""
        code, rss, cpu = status
        limits = self.limits
        if rss >= limits["memory_mb"] * limits["memory_alarm"] * (1 << 20):
            return "memory"
        if code == -signal.SIGXCPU or (code == -signal.SIGKILL and cpu >= program.cpu_cap):
            return "cpu"
        return "crash" if code != 0 else None

    def _refuse(self, listener):
        """Answer one refused call with EPERM and record it. False once the program is gone."""
        buffer = bytearray(NOTIF_SIZE)
        try:
            fcntl.ioctl(listener, NOTIF_RECV, buffer, True)
        except OSError as exc:
            return exc.errno in (errno.EINTR, errno.ENOENT)
        notif_id, _pid, _flags, nr = struct.unpack_from("<QIIi", buffer)
        what = self.recorded.get(nr, f"process: system call {nr}")
        if what.partition(": ")[2] not in self.quiet and what not in self.violations \
                and len(self.violations) < 20:
            self.violations.append(what)
        try:
            fcntl.ioctl(listener, NOTIF_SEND, struct.pack("<QqiI", notif_id, 0, -errno.EPERM, 0))
        except OSError:
            pass
        return True

    def _keep_err(self, chunk):
        room = self.limits["output_bytes"] - len(self.stderr)
        self.stderr += chunk[:max(0, room)]
        self.dropped += max(0, len(chunk) - max(0, room))

    def _collect(self, program):
        """What is left on stderr, once a program has ended."""
        while (chunk := _read_some(program.stderr)):
            self._keep_err(chunk)

    def _end(self, program, collect=True):
        """Stop `program` (its last stderr kept) and add what it used, as wait4 says: its
        CPU goes to the match's bank."""
        if collect:
            self._collect(program)
        program.close()
        _code, rss, cpu = program.status
        self.ended_cpu_s += cpu
        self.ended_peak = max(self.ended_peak, rss)

    def usage(self):
        """What its programs used: the ended ones' CPU s and peak RSS MiB (from wait4), and
        which start is running (0: none). The running one's figures are read by whoever
        can see it (the host, through its /proc), so the keeper needs no /proc."""
        return {"cpu_s": self.ended_cpu_s, "peak_mb": self.ended_peak / (1 << 20),
                "running": self.starts if self.program is not None else 0}

    def _take_out(self):
        text = self.stderr.decode("utf-8", "replace")
        self.stderr = bytearray()
        return text

    def stop(self):
        if self.program is not None:
            self._end(self.program, collect=False)
            self.program = None


MARK_PREFIXES = ("#note ", "#dot ", "#line ")


def marked_lines(text):
    """A program's stderr of a turn, without its mark lines, which go to `_marks`:
    `#note TEXT`, `#dot A B COLOUR`, `#line A B C D COLOUR` (squares as the game's programs
    name them). A line that does not parse stays in the output, as the program wrote it."""
    _marks.reset()
    if "#" not in text:
        return text
    kept = []
    for line in text.splitlines(keepends=True):
        if not line.startswith(MARK_PREFIXES) or not _mark_line(line.rstrip("\r\n")):
            kept.append(line)
    return "".join(kept)


SQUARE_NUMBER = re.compile(r"-?[0-9]{1,6}", re.ASCII)   # a mark line's row or column


def _mark_line(line):
    """Whether `line` was a mark, which it then made."""
    kind, _, rest = line.partition(" ")
    if kind == "#note":
        _marks.note(rest)
        return True
    words = rest.split()
    numbers = len(words) - 1
    if numbers != (2 if kind == "#dot" else 4) or len(rest) > 80:
        return False
    if not all(SQUARE_NUMBER.fullmatch(word) for word in words[:-1]):
        return False                  # '٠' or '１' are digits to int(), not to a program
    try:
        squares = [int(word) for word in words[:-1]]
        if kind == "#dot":
            _marks.dot(squares, words[-1])
        else:
            _marks.line(squares[:2], squares[2:], words[-1])
    except ValueError:
        return False
    return True


def _overtime(fd):
    """Whether the host's frame on `fd` says the turn is over (OVERTIME); False for an end
    of file (the host is done with the keeper) or anything else, which the host never
    sends while a turn is under way."""
    try:
        frame = _wire.read_frame(fd, 1 << 10)
    except (EOFError, _wire.FrameError, OSError):
        return False
    return isinstance(frame, dict) and frame.get(_sched.OVERTIME) is True


def _write(program, data):
    try:
        os.write(program.stdin, data)
    except OSError:
        pass                         # it stopped reading, or is gone: its answer says so


def _close_input(program):
    os.close(program.stdin)
    program.stdin = -1


def _read_some(fd):
    try:
        return os.read(fd, 1 << 16)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def snapshot(workdir):
    """The scratch directory's regular files ({name: bytes}), in name order, while they
    fit in SCRATCH_BYTES counting each name's bytes as well as its contents (a name
    carries state as well as a file does), and at most SCRATCH_FILES of them."""
    files = {}
    try:
        names = sorted(os.listdir(workdir))[:SCRATCH_FILES]
    except OSError:
        return files
    room = SCRATCH_BYTES
    for name in names:
        path = os.path.join(workdir, name)
        try:
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as f:
                    data = f.read(1 << 12)
            else:
                continue
        except OSError:
            continue
        room -= len(os.fsencode(name)) + len(data)
        if room < 0:
            break
        files[name] = data
    return files


def trim_scratch(workdir, kept):
    """Remove from the scratch directory all that `snapshot` did not keep (past the
    1 KiB, names included; directories; links): the limit holds between turns too."""
    try:
        names = os.listdir(workdir)
    except OSError:
        return
    for name in names:
        if name in kept:
            continue
        path = os.path.join(workdir, name)
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)
        except OSError:
            pass


def restore_scratch(workdir, files):
    """Put back the files a bot left in its scratch directory at the end of its last game
    (what fits in SCRATCH_BYTES, names included)."""
    room = SCRATCH_BYTES
    for name, data in list(files.items())[:SCRATCH_FILES]:
        if not (isinstance(name, str) and isinstance(data, bytes)):
            continue
        room -= len(name.encode(errors="replace")) + len(data)
        if room < 0:
            break
        if name not in ("", ".", "..") and "/" not in name:
            try:
                with open(os.path.join(workdir, name), "wb") as f:
                    f.write(data)
            except OSError:
                pass
