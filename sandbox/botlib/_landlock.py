"""Landlock, the unprivileged Linux access-control module, through its three system calls.

Why not the `landlock` package from PyPI: it is a pre-release (1.0.0.dev5) that handles only
file-system rights. The sandbox also needs ABI 4 (deny TCP bind and connect) and ABI 6
(scoping: no signals to, and no abstract unix sockets of, processes outside the domain).
"""
import ctypes
import os
import stat

SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446   # x86_64 and arm64
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1, 2, 4, 8
FS_V1 = (1 << 13) - 1            # execute ... make_sym
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV
READ_ONLY = EXECUTE | READ_FILE | READ_DIR
NET_BIND_TCP, NET_CONNECT_TCP = 1, 2
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1, 2

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _call(number, *args):
    result = _libc.syscall(number, *args)
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return result


def abi_version():
    """The kernel's Landlock ABI version, or 0 when Landlock is off or unknown."""
    try:
        return _call(SYS_CREATE_RULESET, None, ctypes.c_size_t(0),
                     ctypes.c_uint32(CREATE_RULESET_VERSION))
    except OSError:
        return 0


def _handled_fs(abi):
    rights = FS_V1
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    if abi >= 5:
        rights |= IOCTL_DEV
    return rights


def ruleset(read_only, read_write, devices=()):
    """A ruleset fd: `read_only` paths may be read and executed, `read_write` paths are
    fully usable, `devices` may be read and written (no ioctl), nothing else in the file
    system is; with ABI 4+ TCP bind/connect are
    denied, and with ABI 6+ signals and abstract sockets cannot leave the sandbox.

    Build it while the paths can still be opened (before a uid change); `enforce` later.
    """
    abi = abi_version()
    if abi < 1:
        raise OSError("Landlock is not enabled in this kernel")
    fs = _handled_fs(abi)
    attr = _RulesetAttr(fs, NET_BIND_TCP | NET_CONNECT_TCP if abi >= 4 else 0,
                        SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= 6 else 0)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    fd = _call(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size),
               ctypes.c_uint32(0))
    try:
        for paths, rights in ((read_only, READ_ONLY & fs), (read_write, fs),
                              (devices, (READ_FILE | WRITE_FILE | TRUNCATE) & fs)):
            for path in paths:
                _allow(fd, path, rights)
    except BaseException:
        os.close(fd)
        raise
    return fd


def enforce(ruleset_fd):
    """Confine this process, and any it could start, to the ruleset. Needs no_new_privs."""
    try:
        _call(SYS_RESTRICT_SELF, ctypes.c_int(ruleset_fd), ctypes.c_uint32(0))
    finally:
        os.close(ruleset_fd)


def _allow(ruleset, path, rights):
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except (FileNotFoundError, PermissionError):
        return                    # what we cannot reach, the bot cannot either
    try:
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            rights &= FILE_RIGHTS
        rule = _PathBeneath(rights, fd)
        _call(SYS_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(RULE_PATH_BENEATH),
              ctypes.byref(rule), ctypes.c_uint32(0))
    finally:
        os.close(fd)
