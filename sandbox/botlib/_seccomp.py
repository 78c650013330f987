"""The seccomp filters of a sandbox child, compiled with libseccomp (pyseccomp): a Python
bot's filter (`load_seccomp`, the last layer `_harden.harden` applies), and an executable
bot's program's filter, whose recorded calls go to its keeper (`program_seccomp`).

The zygote compiles both once (`PREBUILT`, `PROGRAM_PREBUILT`): loading compiled BPF
costs microseconds, building it about a millisecond.
"""
import ctypes
import errno
import os
import signal
import struct

PR_SET_PDEATHSIG, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 1, 22, 2
CLONE_THREAD = 0x00010000

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result, what):
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


# -- what a bot may not call ------------------------------------------------------------------
MEMORY_CALLS = ("shmget", "shmat", "msgget", "semget", "memfd_create", "memfd_secret",
                "mq_open")
DENIED = (
    # network
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
    # new processes and programs
    "fork", "vfork", "execve", "execveat",
    # other processes
    "ptrace", "process_vm_readv", "process_vm_writev", "kill", "tkill", "pidfd_open",
    "pidfd_send_signal", "pidfd_getfd", "kcmp",
    # namespaces, mounts and the root
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "open_tree",
    "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
    # kernel attack surface a bot never needs
    "bpf", "perf_event_open", "keyctl", "add_key", "request_key", "userfaultfd",
    "io_uring_setup", "io_uring_enter", "io_uring_register", "open_by_handle_at",
    "name_to_handle_at", "personality", "syslog", "acct", "quotactl", "kexec_load",
    "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot", "swapon",
    "swapoff", "iopl", "ioperm", "setuid", "setgid", "setreuid", "setregid", "setresuid",
    "setresgid", "setgroups",
    # the host's live figures: sysinfo's uptime, load, free memory and machine-wide task
    # count (a bot learns only what the rules show); ustat's free blocks of a disk
    "sysinfo", "ustat",
    # its own share of the CPU: the host charges a late call only the time it did not wait
    # to run (`_sched`), so a bot that lowers its own priority (SCHED_IDLE, nice 19) or pins
    # itself to one busy core is runnable and unscheduled, "starved", for as long as the
    # host's last look, charged almost no CPU. Its scheduling is the host's to set.
    "sched_setscheduler", "sched_setparam", "sched_setattr", "sched_setaffinity",
    "setpriority",
    # memory no limit of the child sees: SysV IPC (kept by the IPC namespace after a
    # detach), memfd and POSIX queues (pages held by a file, not by a mapping)
    *MEMORY_CALLS,
)


def _import_pyseccomp():
    """pyseccomp finds libseccomp with ctypes.util.find_library, which runs ldconfig in a
    subprocess; a sandbox child may not start processes, so name the libraries directly."""
    import ctypes.util
    real = ctypes.util.find_library
    ctypes.util.find_library = lambda name: {"seccomp": "libseccomp.so.2",
                                             "c": "libc.so.6"}.get(name) or real(name)
    try:
        import pyseccomp
    finally:
        ctypes.util.find_library = real
    return pyseccomp


def _filter(pid):
    """The seccomp filter: deny, with EPERM, every call in DENIED, a clone that is not a
    thread, signals to other processes' threads, replacing the CPU and wall-clock limit
    handlers, and clearing the parent-death signal."""
    sc = _import_pyseccomp()
    deny = sc.ERRNO(errno.EPERM)
    rules = sc.SyscallFilter(sc.ALLOW)
    for name in DENIED:
        try:
            rules.add_rule(deny, name)
        except (OSError, ValueError, RuntimeError):
            pass                              # not a call on this architecture
    rules.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")    # so that libc falls back to clone
    rules.add_rule(deny, "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0))
    rules.add_rule(deny, "tgkill", sc.Arg(0, sc.NE, pid))
    for sig in (signal.SIGPROF, signal.SIGALRM):
        rules.add_rule(deny, "rt_sigaction", sc.Arg(0, sc.EQ, sig))
    rules.add_rule(deny, "prctl", sc.Arg(0, sc.EQ, PR_SET_PDEATHSIG))
    return rules


# -- an executable bot's program -------------------------------------------------------------
PROGRAM_PID = 0x5EC0DE11   # stands for the program's pid in the compiled filter; patched
SYS_SECCOMP, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER = 317, 1, 8
MAP_SHARED, MAP_ANONYMOUS = 0x01, 0x20
AF_UNIX = 1
# Calls a program's filter hands to its keeper, who refuses them (EPERM) and records the
# attempt, as the audit hook does for Python bots. The rest of DENIED fails silently.
RECORDED = {"fork": "process", "vfork": "process", "clone": "process", "execve": "process",
            "execveat": "process", "socket": "socket", "socketpair": "socket",
            "connect": "socket", "bind": "socket", "listen": "socket", "accept": "socket",
            "accept4": "socket", "kill": "signal", "tkill": "signal", "tgkill": "signal",
            "pidfd_open": "signal", "pidfd_send_signal": "signal", "ptrace": "ptrace",
            "process_vm_readv": "ptrace", "process_vm_writev": "ptrace",
            **dict.fromkeys(MEMORY_CALLS, "memory")}


def _program_filter():
    """A program's filter, on top of what the keeper shares with it: it may exec only the
    file on EXEC_FD (its runtime), and once (every execveat goes to the keeper, which lets
    the first through and refuses the others), start no process, signal only itself, hold
    no memory outside RLIMIT_DATA (shared anonymous mappings, SysV IPC, memfd)."""
    sc = _import_pyseccomp()
    deny, notify = sc.ERRNO(errno.EPERM), sc.NOTIFY
    rules = sc.SyscallFilter(sc.ALLOW)
    special = ("clone", "execveat", "kill", "tgkill", "socket", "socketpair")
    for name in (*DENIED, *RECORDED):
        if name in special:
            continue
        try:
            rules.add_rule(notify if name in RECORDED else deny, name)
        except (OSError, ValueError, RuntimeError):
            pass
    rules.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    rules.add_rule(notify, "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0))
    rules.add_rule(notify, "execveat")
    # A Unix socket pair reaches nothing (the JVM's NIO makes one at start); a Unix socket
    # is what glibc opens to ask nscd for a user's name (the JVM's user.name): refused, as
    # there is no nscd here, without a record. Other families are recorded.
    rules.add_rule(notify, "socketpair", sc.Arg(0, sc.NE, AF_UNIX))
    rules.add_rule(deny, "socket", sc.Arg(0, sc.EQ, AF_UNIX))
    rules.add_rule(notify, "socket", sc.Arg(0, sc.NE, AF_UNIX))
    rules.add_rule(notify, "kill", sc.Arg(0, sc.NE, PROGRAM_PID))
    rules.add_rule(notify, "tgkill", sc.Arg(0, sc.NE, PROGRAM_PID))
    rules.add_rule(deny, "prctl", sc.Arg(0, sc.EQ, PR_SET_PDEATHSIG))
    both = MAP_SHARED | MAP_ANONYMOUS
    rules.add_rule(deny, "mmap", sc.Arg(3, sc.MASKED_EQ, both, both))
    return rules


def program_seccomp():
    """The program filter compiled to BPF, with PROGRAM_PID still to patch; and the
    recorded calls by number."""
    sc = _import_pyseccomp()
    arch = sc.system_arch()
    numbers = {}
    for name, kind in RECORDED.items():
        try:
            numbers[sc.resolve_syscall(arch, name)] = f"{kind}: {name}"
        except (OSError, ValueError, RuntimeError):
            pass
    return _export(_program_filter()), numbers


def patch_pid(program, pid):
    """The compiled filter with the program's pid in place of PROGRAM_PID (each BPF
    instruction is 8 bytes: code u16, jt u8, jf u8, k u32)."""
    marker, real = struct.pack("<I", PROGRAM_PID), struct.pack("<I", pid)
    out = bytearray(program)
    for at in range(4, len(out), 8):
        if out[at:at + 4] == marker:
            out[at:at + 4] = real
    return bytes(out)


def load_with_listener(program):
    """Load a compiled filter on this process; returns the fd its notifications come to."""
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    fd = _libc.syscall(SYS_SECCOMP, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
                       ctypes.byref(fprog))
    if fd < 0:
        _check(-1, "seccomp")
    return fd


def _export(rules):
    read_end, write_end = os.pipe()
    try:
        rules.export_bpf(os.fdopen(write_end, "wb", closefd=False))
        os.close(write_end)
        write_end = -1
        chunks = []
        while chunk := os.read(read_end, 1 << 16):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)


def seccomp_program(pid):
    """The filter for a process whose pid is `pid`, compiled to BPF bytes."""
    return _export(_filter(pid))


# The zygote compiles the filter once for pid 1, which every child in its own pid
# namespace is; loading compiled BPF costs microseconds, building it about a millisecond.
PREBUILT: dict[int, bytes] = {}
# Likewise a program's filter (pid patched at each start) and its recorded calls.
PROGRAM_PREBUILT = None


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def loader(program):
    """A function that loads the compiled `program` on the process that calls it, its
    buffers made here, once (a match jail's holder): each match's process only calls
    prctl. One whose pid is not 1 (the pid the filter names) loads its own instead."""
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    pointer = ctypes.byref(fprog)

    def load():
        if os.getpid() != 1:
            load_seccomp()
            return
        _check(_libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, pointer, 0, 0),
               "prctl SECCOMP")
    load.kept = (buffer, fprog)
    return load


def load_seccomp():
    program = PREBUILT.get(os.getpid())
    if program is None:
        _filter(os.getpid()).load()
        return
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    _check(_libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0),
           "prctl SECCOMP")
