"""Run a command as an ordinary user:
`python as_user.py [--no-user-namespaces] [--apart] UID HOME CMD...`

The tests run as root exercise the sandbox's non-root path for real through this: the
command runs as UID (no groups, no capabilities, a clean environment with HOME), exactly
as a contestant on a laptop or a CI runner would run it. One thing differs from a plain
`setpriv`: the interpreter often lives under a home that only root may enter (here
/root/.pyenv, mode 0700). So the command gets a private mount namespace in which every
directory on the way to the interpreter, the virtual environment and the checkout that
others cannot enter is covered by an empty tmpfs (mode 0755) holding just those paths.
Nothing outside this process tree changes, and no other file of that home becomes visible.

Started by an ordinary user, it only changes to HOME's environment (UID must be the
caller's). With `--no-user-namespaces`, a seccomp filter (inherited by everything the
command starts) also makes every attempt to create a user namespace fail with EPERM, as
on distributions that restrict them.

With `--apart` (as root), the command also gets a network namespace of its own (loopback
only) and a /tmp of its own (HOME/.tmp, HOME kept in it): a hostile suite run so
knocks on its own port and writes its own escape files, so it may run beside the root
run's (tests/sandbox/test_ordinary_user.py) and beside another such run.
"""
import os
import signal
import sys

HARDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sandbox",
                      "botlib", "_harden.py")
CLONE_NEWNS = 0x00020000
CLONE_NEWNET = 0x40000000
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
ORDINARY_UID = 47110            # as root: a uid with no account, no groups and no files
ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
               "PYTHONDONTWRITEBYTECODE": "1"}


def make_home(uid):
    """A fresh home directory for `uid` (mode 0700), under the system's temporary dir."""
    import tempfile
    home = tempfile.mkdtemp(prefix="arena-ordinary-home-")
    os.chown(home, uid, uid)
    os.chmod(home, 0o700)
    return home


def command(uid, home, argv, user_namespaces=True, apart=False):
    """The command line that runs `argv` through this script."""
    flag = ([] if user_namespaces else ["--no-user-namespaces"]) + (["--apart"] if apart else [])
    return [sys.executable, os.path.abspath(__file__), *flag, str(uid), str(home), *argv]


def closed_to_others(path):
    return not os.stat(path).st_mode & 0o001


def first_closed_directory(needed):
    """The shallowest directory that others cannot enter on the way to a needed path,
    and the entries under it that lead on to them."""
    found, below = None, set()
    for path in needed:
        parts = path.strip("/").split("/")
        for depth in range(len(parts)):
            directory = "/" + "/".join(parts[:depth])
            if closed_to_others(directory):
                if found is None or len(directory) < len(found):
                    found, below = directory, set()
                if directory == found:
                    below.add(parts[depth])
                break
    return found, sorted(below)


def sandbox_calls():
    """The sandbox's own mount and prctl wrappers (`_harden`), loaded from its file: a
    test that imports this module for `command` keeps the bot library off its path."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("_as_user_harden", HARDEN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def open_the_way(needed, h):
    """Cover each closed directory with a tmpfs that shows only the needed entries."""
    h._check(h._libc.unshare(CLONE_NEWNS), "unshare")
    h._mount(None, "/", None, h.MS_REC | h.MS_PRIVATE)
    while True:
        directory, entries = first_closed_directory(needed)
        if directory is None:
            return
        held = {name: os.open(os.path.join(directory, name), os.O_PATH) for name in entries}
        mode = os.stat(directory).st_mode & 0o777 | 0o005
        h._mount("tmpfs", directory, "tmpfs", 0, f"mode={mode:o}")
        for name, fd in held.items():
            target = os.path.join(directory, name)
            if os.path.isdir(f"/proc/self/fd/{fd}"):
                os.mkdir(target)
            else:
                open(target, "w").close()
            h._mount(f"/proc/self/fd/{fd}", target, None, h.MS_BIND | h.MS_REC)
            os.close(fd)


def loopback_up():
    """Bring up `lo` of this network namespace (a new one has it down)."""
    import fcntl
    import socket
    import struct
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        asked = fcntl.ioctl(sock, SIOCGIFFLAGS, struct.pack("16sH14s", b"lo", 0, b""))
        flags = struct.unpack("16sH14s", asked)[1]
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH14s", b"lo", flags | IFF_UP, b""))


def set_apart(home, h, keep=()):
    """A network namespace of its own, and a /tmp of its own that still holds `home` and
    the folders of `keep` (the checkout, its venv: a clone in /tmp is one) where they were
    (called in the private mount namespace `open_the_way` made). The /tmp is HOME/.tmp on
    HOME's own file system, not a tmpfs: what the command writes there is not the
    machine's shared memory, which the hostile suites check beside it."""
    h._check(h._libc.unshare(CLONE_NEWNET), "unshare net")
    loopback_up()
    home = os.path.realpath(home)
    tmp = os.path.realpath("/tmp")
    private = os.path.join(home, ".tmp")
    os.makedirs(private, exist_ok=True)
    os.chmod(private, 0o1777)
    wanted = sorted({os.path.realpath(p) for p in (home, *keep)})
    # Only the outermost of nested folders: binding it back shows the ones inside.
    inside = [p for p in wanted if p.startswith(tmp + "/")
              and not any(p != q and p.startswith(q + "/") for q in wanted)]
    held = [(p, os.open(p, os.O_PATH)) for p in inside]
    h._mount(private, tmp, None, h.MS_BIND)
    for path, fd in held:                 # in /tmp before: shown again where they were
        os.makedirs(path, exist_ok=True)
        h._mount(f"/proc/self/fd/{fd}", path, None, h.MS_BIND | h.MS_REC)
        os.close(fd)


def deny_user_namespaces(clone_newuser):
    import errno

    import pyseccomp as sc
    rules = sc.SyscallFilter(sc.ALLOW)
    deny = sc.ERRNO(errno.EPERM)
    rules.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")       # so that callers fall back to clone
    rules.add_rule(deny, "clone", sc.Arg(0, sc.MASKED_EQ, clone_newuser, clone_newuser))
    rules.add_rule(deny, "unshare", sc.Arg(0, sc.MASKED_EQ, clone_newuser, clone_newuser))
    rules.load()


def main():
    args = sys.argv[1:]
    no_user_namespaces = "--no-user-namespaces" in args
    apart = "--apart" in args
    args = [a for a in args if a not in ("--no-user-namespaces", "--apart")]
    uid, home, argv = int(args[0]), args[1], args[2:]
    h = sandbox_calls()
    checkout = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if os.geteuid() == 0:
        needed = [os.path.realpath(sys.executable), sys.base_prefix, sys.prefix, checkout, home]
        open_the_way([os.path.realpath(p) for p in needed], h)
        if apart:
            set_apart(home, h, keep=(checkout, sys.prefix))
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)                 # clears every capability
    elif uid != os.getuid():
        sys.exit(f"as_user.py: only root can become uid {uid}")
    elif apart:
        sys.exit("as_user.py: only root can set a command apart")
    h._check(h._libc.prctl(h.PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "prctl")
    if no_user_namespaces:
        deny_user_namespaces(h.CLONE_NEWUSER)
    os.chdir(checkout)
    os.execvpe(argv[0], argv, dict(ENVIRONMENT, HOME=home))


if __name__ == "__main__":
    main()
