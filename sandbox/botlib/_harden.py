"""The isolation layers a sandbox child puts on itself before any bot code runs.

Each layer is tried at run time. What it did not get is reported with the reason, so the
host can warn (`standard`) or refuse (`strict`). The order matters:
namespaces (at clone) -> the id map of a user namespace -> private root -> no_new_privs
-> uid -> parent-death signal (it is cleared by a uid change) -> rlimits -> environment
-> Landlock -> seccomp (last, since it forbids the calls the other layers need; its
filters are compiled in `_seccomp.py`).

Two paths give the same layers. As root, the child is cloned into the namespaces and then
drops to the real `nobody`. Otherwise it is cloned into a new user namespace as well,
where it is `nobody` mapped to the caller, builds the same private root with the
namespace's capabilities, and then drops every capability.
"""
import ctypes
import errno
import os
import resource
import select
import signal
import sys

LAYERS = ("pid_ns", "net_ns", "mount_ns", "ipc_ns", "uts_ns", "fs_view", "no_new_privs", "uid",
          "parent_death", "rlimits", "tasks", "empty_env", "stdin_closed", "landlock", "seccomp")
# Not layers of their own: which mechanism holds a limit, listed among the active layers
# when used. The task cap (`tasks`) is a pids cgroup or RLIMIT_NPROC in the child's own
# user namespace; a memory cgroup adds an honest memory cap where the machine has one.
MECHANISMS = ("memory_cgroup", "pids_cgroup", "rlimit_nproc")
NAMESPACES = {"mount_ns": 0x00020000, "uts_ns": 0x04000000, "ipc_ns": 0x08000000,
              "pid_ns": 0x20000000, "net_ns": 0x40000000}
# Not a layer of its own: the means by which a caller that is not root gets the others.
# Listed among the active layers when used, and among the missing ones when refused.
USER_NS = "user_ns"
CLONE_NEWUSER = 0x10000000
CLONE_FLAGS = {USER_NS: CLONE_NEWUSER, **NAMESPACES}   # what the zygote may clone into
SCRATCH = "/scratch"
HOSTNAME = "arena"         # what the child's own UTS namespace calls the machine
SCRATCH_PREFIX = "arena-scratch-"
SCRATCH_INODES = 64
# The private root's own inodes (its directories, mount points and files). A tmpfs's
# default is half the machine's pages, which `statvfs("/")` would tell the bot: the host's
# memory (f_files x 2 pages; 24 GiB read on the machine that found it).
ROOT_INODES = 4096
SCRATCH_BYTES = 1024         # an executable bot's scratch: names and contents, all told
NOFILE = 64

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND = 1, 2, 4, 8, 32, 4096
MS_NOATIME, MS_NODIRATIME, MS_REC, MS_PRIVATE, MS_RELATIME = 1024, 2048, 1 << 14, 1 << 18, 1 << 21
# A bind mount made in a user namespace must keep these flags of the mount it shows
# (the kernel locks them), or the read-only remount fails with EPERM.
LOCKED_FLAGS = ((os.ST_NOEXEC, MS_NOEXEC), (os.ST_NOATIME, MS_NOATIME),
                (os.ST_NODIRATIME, MS_NODIRATIME), (os.ST_RELATIME, MS_RELATIME))
MNT_DETACH = 2
SYS_PIVOT_ROOT = 155
PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS = 1, 38
PR_CAPBSET_DROP, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4
LINUX_CAPABILITY_VERSION_3 = 0x20080522

_libc = ctypes.CDLL(None, use_errno=True)

ABORT_EXIT = 128 + signal.SIGABRT   # an aborted child's exit status (a shell's, for SIGABRT)
_ON_ABORT: list[object] = []                      # the handler's C thunk, kept alive


def abort_exits():
    """Make abort() end the child with status ABORT_EXIT. As pid 1 of its namespace the
    child ignores a signal it sends itself with no handler: glibc's abort() then ends on
    an illegal instruction, a SIGSEGV, and an `os.abort()` read as a segfault. A handler of
    the child's own (set before seccomp, which then forbids replacing it) exits at once."""
    handler = ctypes.CFUNCTYPE(None, ctypes.c_int)(lambda signum: os._exit(ABORT_EXIT))
    _ON_ABORT.append(handler)
    _libc.signal.argtypes = (ctypes.c_int, ctypes.c_void_p)
    _libc.signal(signal.SIGABRT, ctypes.cast(handler, ctypes.c_void_p))


def cpu_clock(pid):
    """The Linux per-process CPU clock id of `pid` (CPUCLOCK_SCHED)."""
    return ((~pid) << 3) | 2


def _check(result, what):
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _mount(source, target, fstype, flags, data=None):
    enc = lambda s: s.encode() if s is not None else None
    _check(_libc.mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)),
           f"mount {target}")


def enter_view(jail, readable, scratch_bytes, uid, files=None, devices=()):
    """Make a private root holding only `readable` (read-only), `files` ({absolute path:
    bytes}, read-only, made by us: an executable bot's own file), the character `devices`
    programs expect (/dev/null) and a capped /scratch.

    `jail` is an empty directory to build it on; paths keep their absolute names, so
    sys.path stays valid. Needs root in a private mount namespace.
    """
    files = files or {}
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    size = (1 << 20) + sum(len(data) + 4096 for data in files.values())
    _mount("tmpfs", jail, "tmpfs", MS_NOSUID | MS_NODEV,
           f"size={size},nr_inodes={ROOT_INODES},mode=0755")
    _place(files, jail)
    shown = []
    for path in sorted(readable):
        if any(path == s or path.startswith(s.rstrip("/") + "/") for s in shown):
            continue                      # already visible through a parent
        inside = jail + path
        os.makedirs(os.path.dirname(inside), exist_ok=True)
        if os.path.islink(path):
            os.symlink(os.readlink(path), inside)
            shown.append(path)            # what lies beyond it is shown by its target's path
            continue
        if os.path.isdir(path):
            os.makedirs(inside, exist_ok=True)
        elif os.path.isfile(path):
            open(inside, "wb").close()
        else:
            continue
        _mount(path, inside, None, MS_BIND)       # not MS_REC: no submounts (the jail)
        _mount(None, inside, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV
               | _locked_flags(path))
        shown.append(path)
    for path in devices:
        inside = jail + path
        os.makedirs(os.path.dirname(inside), exist_ok=True)
        open(inside, "wb").close()
        _mount(path, inside, None, MS_BIND)       # a device node: usable, so no MS_NODEV
        _mount(None, inside, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID
               | _locked_flags(path))
    os.mkdir(jail + SCRATCH)
    _mount("tmpfs", jail + SCRATCH, "tmpfs", MS_NOSUID | MS_NODEV,
           f"size={scratch_bytes},nr_inodes={SCRATCH_INODES},mode=0700,uid={uid},gid={uid}")
    os.chdir(jail)
    _check(_libc.syscall(SYS_PIVOT_ROOT, b".", b"."), "pivot_root")
    _check(_libc.umount2(b".", MNT_DETACH), "umount old root")
    _mount(None, "/", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    os.chdir(SCRATCH)


def _locked_flags(path):
    flags = os.statvfs(path).f_flag
    return sum(ms for st, ms in LOCKED_FLAGS if flags & st)


def map_ids(uid, outer_ids):
    """In a new user namespace: be `uid` there, mapped to the caller's own ids outside.

    An unprivileged process may map exactly its own uid and gid, once setgroups is denied.
    """
    outer_uid, outer_gid = outer_ids
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {outer_uid} 1"),
                       ("gid_map", f"{uid} {outer_gid} 1")):
        with open(f"/proc/self/{name}", "w") as f:
            f.write(text)


def neutral_hostname():
    """In the child's own UTS namespace (which starts as a copy of the host's): a host
    name and NIS domain name that say nothing about the host. Needs CAP_SYS_ADMIN there."""
    for call, value in ((_libc.sethostname, HOSTNAME.encode()),
                        (_libc.setdomainname, b"(none)")):
        _check(call(value, len(value)), call.__name__)


def drop_uid(uid):
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def drop_capabilities():
    """Give up every capability, including those a new user namespace grants its creator:
    the bounding set, the ambient set, then the effective, permitted and inheritable sets."""
    cap = 0
    while _libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0:
        cap += 1
    if ctypes.get_errno() != errno.EINVAL:      # EINVAL: past the last capability
        _check(-1, "prctl CAPBSET_DROP")
    _check(_libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "prctl CAP_AMBIENT")
    header = _CapHeader(LINUX_CAPABILITY_VERSION_3, 0)
    _check(_libc.capset(ctypes.byref(header), (_CapData * 2)()), "capset")


def drop_privileges(uid, in_user_ns):
    """As root: become the real `nobody`. In a user namespace: already `nobody` there;
    drop the namespace's capabilities."""
    if in_user_ns:
        drop_capabilities()
    elif os.geteuid() == 0:
        drop_uid(uid)
    else:
        raise OSError("needs root or a user namespace")


def set_parent_death_signal():
    """PR_SET_PDEATHSIG: the kernel SIGKILLs this process when its parent thread dies."""
    _check(_libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "prctl PDEATHSIG")


def die_with_parent(in_fd):
    """PR_SET_PDEATHSIG, then make sure the host did not die before it was set."""
    set_parent_death_signal()
    poller = select.poll()
    poller.register(in_fd, select.POLLHUP)
    if any(event & select.POLLHUP for _, event in poller.poll(0)):
        os._exit(1)


def set_rlimits(limits, file_bytes, reserve_mb=0):
    """The memory cap is on the address space, plus `reserve_mb` for runtimes that reserve
    a large one at start (node, the JVM): then what is really allocated (RLIMIT_DATA:
    private writable memory) is what the cap holds to."""
    memory = limits["memory_mb"] << 20
    caps = [(resource.RLIMIT_CORE, 0), (resource.RLIMIT_AS, memory + (reserve_mb << 20)),
            (resource.RLIMIT_CPU, limits["cpu_backstop_s"]), (resource.RLIMIT_NOFILE, NOFILE),
            (resource.RLIMIT_FSIZE, file_bytes)]
    if reserve_mb:
        caps.append((resource.RLIMIT_DATA, memory))
    for which, value in caps:
        resource.setrlimit(which, (value, value))


def cap_tasks(tasks, own_user_ns, mechanisms):
    """The cap on this child's tasks (threads included). A pids cgroup the host moved us
    into already holds it. Otherwise RLIMIT_NPROC does, in a user namespace of our own,
    where the kernel counts the tasks of this namespace's uid only (and not for a uid 0
    outside, which it exempts: the host says so in `problem`)."""
    cgroups = tasks.get("cgroups", ())
    mechanisms += [f"{name}_cgroup" for name in cgroups]
    if "pids" in cgroups:
        return
    if own_user_ns and not tasks.get("problem"):
        resource.setrlimit(resource.RLIMIT_NPROC, (tasks["cap"], tasks["cap"]))
        mechanisms.append("rlimit_nproc")
        return
    raise OSError(tasks.get("problem") or "needs a pids cgroup or a user namespace")


def clear_env():
    os.environ.clear()          # unsetenv()s each name, so the C environment is empty too


def close_stdin():
    sys.stdin = None
    try:
        os.close(0)
    except OSError as exc:
        if exc.errno != errno.EBADF:
            raise


# -- an executable bot's program -------------------------------------------------------------
BOT = "{bot}"              # stands for the bot's own file in a program's argv
MEMORY_MB = "{memory_mb}"  # within an argument: the memory cap, in MB (the JVM's sizing)
EXEC_FD = 63               # the runtime's binary, opened by the keeper (below RLIMIT_NOFILE)


# The layers a match jail's holder puts on before it forks its matches' processes (which
# inherit them): all but the uid (as root, its clone makes a pid namespace), the
# parent-death signal (each process's own) and seccomp (which forbids the fork).
HELD = ("fs_view", "no_new_privs", "rlimits", "tasks", "empty_env", "stdin_closed",
        "landlock")


def harden(cfg, in_fd, namespaces, ns_problem, outer_ids=None, files=None, *, seccomp,
           split=None):
    """Apply every layer `cfg` asks for. `namespaces` are those the child was cloned into,
    `ns_problem` why the others are not, `outer_ids` the (uid, gid) that cloned it.
    `files` go into the private root (see `enter_view`); `seccomp` is the last step:
    `_seccomp.load_seccomp` for a Python bot, while an executable bot's keeper prepares its
    program's filter there instead. `split`, if given, is a match jail's holder: it is
    called once the layers a process that forks may have are on (`HELD`), stays there and
    forks a process per match, which returns from it and puts on the uid, the parent-death
    signal and seccomp.

    Returns (active layers, {missing layer: reason}, the scratch directory the host must
    remove, or None when it lives and dies in the child's private root).
    """
    skip = set(cfg.get("skip", ()))
    outer = set(cfg.get("outer", ()))      # layers an outer sandbox (bwrap) already gave
    active, missing = [], {}
    in_user_ns = USER_NS in namespaces
    if USER_NS in outer:
        active.append(USER_NS)
    elif in_user_ns:
        try:
            map_ids(cfg["uid"], outer_ids)
        except Exception as exc:
            in_user_ns = False
            missing[USER_NS] = _reason(exc)
        else:
            active.append(USER_NS)
    elif cfg.get(USER_NS):
        missing[USER_NS] = ns_problem
    for name in NAMESPACES:
        if name in namespaces or name in outer:
            active.append(name)
        else:
            missing[name] = "skipped" if name in skip else ns_problem
    if "uts_ns" in namespaces and "uts_ns" not in outer:     # bwrap names it (--hostname)
        try:
            neutral_hostname()
        except OSError as exc:
            active.remove("uts_ns")
            missing["uts_ns"] = _reason(exc)
    uid = cfg["uid"]
    landlock = {}
    mechanisms = []
    steps = (
        ("fs_view", lambda: _need("mount_ns", namespaces) or enter_view(
            cfg["jail"], cfg["readable"], cfg["scratch_bytes"], uid, files,
            cfg.get("devices", ()))),
        ("no_new_privs", lambda: _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0),
                                        "prctl NO_NEW_PRIVS")),
        ("uid", lambda: drop_privileges(uid, in_user_ns)),
        ("parent_death", lambda: die_with_parent(in_fd)),
        ("rlimits", lambda: set_rlimits(cfg["limits"], cfg["file_bytes"],
                                        cfg.get("reserve_mb", 0))),
        ("tasks", lambda: cap_tasks(cfg.get("tasks") or {}, in_user_ns or USER_NS in outer,
                                    mechanisms)),
        ("empty_env", clear_env),
        ("stdin_closed", close_stdin),
        ("landlock", lambda: _enforce_landlock(landlock)),
        ("seccomp", seccomp),
    )
    order = {name: at for at, (name, _) in enumerate(steps)}
    if split is not None:
        steps = (*(step for step in steps if step[0] in HELD), ("split", split),
                 *(step for step in steps if step[0] not in HELD))
    scratch = None
    for name, apply in steps:
        if name == "split":
            apply()
            continue
        if name in outer:
            active.append(name)
        elif name in skip:
            missing[name] = "skipped"
        else:
            try:
                apply()
            except Exception as exc:      # a layer that cannot be had is reported, not fatal
                missing[name] = _reason(exc)
            else:
                active.append(name)
        active += mechanisms         # the cgroups hold, even if the task cap is missing
        mechanisms.clear()
        if name == "fs_view":
            root = ""
            if name not in active:
                scratch = root = own_scratch(uid)
                _place(files or {}, root)
            if "landlock" not in skip and "landlock" not in outer:
                shown = {root + os.path.dirname(path) for path in files or ()}
                _prepare_landlock(landlock, [*cfg["readable"], *sorted(shown)],
                                  cfg.get("devices", ()))
    if split is not None:        # named in the order of a child that does not split
        active.sort(key=lambda name: order.get(name, order["tasks"] + 0.5)
                    if name not in NAMESPACES and name != USER_NS else -1)
    return active, missing, scratch


def _place(files, root):
    """The files ({absolute path: bytes}) under `root`, read-only and executable: in the
    private root being built, or, without one, in the directory that stands for it."""
    for path, data in files.items():
        inside = root + path
        os.makedirs(os.path.dirname(inside), exist_ok=True)
        with open(inside, "wb") as f:
            f.write(data)
        os.chmod(inside, 0o555)


def own_scratch(uid):
    """Without a private root: a fresh directory under /tmp, which the host removes."""
    import tempfile
    path = tempfile.mkdtemp(prefix=SCRATCH_PREFIX)
    if os.geteuid() == 0:
        os.chown(path, uid, uid)
    os.chdir(path)
    return path


def _prepare_landlock(landlock, readable, devices):
    """Open the allowed paths now, while the uid can still reach them."""
    import _landlock  # imported here so that the host can read LAYERS
    try:
        landlock["fd"] = _landlock.ruleset(readable, [os.getcwd()], devices)
    except Exception as exc:
        landlock["error"] = exc


def _enforce_landlock(landlock):
    import _landlock
    if "error" in landlock:
        raise landlock["error"]
    _landlock.enforce(landlock.pop("fd"))


def _need(layer, present):
    if layer not in present:
        raise OSError(f"needs {layer}")


def _reason(exc):
    text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return (text or type(exc).__name__)[:120]
