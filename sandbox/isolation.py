"""Sandbox tiers and the per-child configuration of the isolation layers.

`standard` applies every layer the machine allows and reports the rest; `strict` refuses
to run a bot when any layer is missing. The layers themselves are applied inside the child
(`botlib/_harden.py`); this module decides what to ask for and judges what came back.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from sandbox.botlib import child_module
from sandbox.cgroups import available
from sandbox.limits import Limits
from sandbox.paths import (
    CHILD_ENV,
    CHILD_PYTHON_FLAGS,
    DEVICES,
    JAIL,
    interpreter_files,
    readable_paths,
)

if TYPE_CHECKING:
    import _harden
else:
    _harden = child_module("_harden")
HOSTNAME, LAYERS, MECHANISMS, NAMESPACES, USER_NS = (
    _harden.HOSTNAME, _harden.LAYERS, _harden.MECHANISMS, _harden.NAMESPACES, _harden.USER_NS)
SCRATCH_BYTES, SCRATCH_PREFIX = _harden.SCRATCH_BYTES, _harden.SCRATCH_PREFIX
TIERS = ("strict", "standard", "bwrap")
NOBODY = 65534
# What bubblewrap provides in the bwrap tier; the child applies the rest itself.
BWRAP_LAYERS = (USER_NS, "pid_ns", "net_ns", "mount_ns", "ipc_ns", "uts_ns", "fs_view", "uid")
SKIPPABLE = (USER_NS, *LAYERS)
# An executable bot's scratch directory: one tmpfs page, so a single file with data, of at
# most PROGRAM_SCRATCH bytes (RLIMIT_FSIZE): 1 KiB in all, names included (the keeper
# removes what is past it after each turn), as the seed's bots had.
PROGRAM_SCRATCH_PAGE = 4096
PROGRAM_SCRATCH = SCRATCH_BYTES
# A child's memory cgroup holds its memory cap plus this: the keeper of a program, the
# scratch tmpfs and kernel memory (RLIMIT_AS or RLIMIT_DATA hold the bot's own first).
CGROUP_SLACK_MB = 64
# Address space a runtime may reserve at start beyond the memory cap (node reserves about
# 700 MB); RLIMIT_DATA holds what it really allocates to the cap.
PROGRAM_RESERVE_MB = 4096


class SandboxUnavailable(RuntimeError):
    """`--sandbox strict` asked for a layer this machine cannot give."""


@dataclass(frozen=True)
class Isolation:
    """How a child is isolated: the tier, layers left off on purpose, the scratch cap."""

    tier: str = "standard"
    skip: tuple[str, ...] = ()        # for benchmarks and tests: layers not to apply
    # For tests and benchmarks: take the user-namespace path even as root (None: only
    # when not root, as a contestant's laptop or a CI runner does).
    user_ns: bool | None = None
    scratch_mb: int = 16              # the bot's writable directory, in total (and per file)
    uid: int = NOBODY

    def __post_init__(self) -> None:
        if self.tier not in TIERS:
            raise ValueError(f"unknown sandbox tier {self.tier!r} (tiers: {', '.join(TIERS)})")
        unknown = set(self.skip) - set(SKIPPABLE)
        if unknown:
            raise ValueError(f"unknown sandbox layers: {', '.join(sorted(unknown))}")

    @property
    def strict(self) -> bool:
        """Whether a child missing any layer is refused (strict, bwrap) rather than run
        with a warning (standard)."""
        return self.tier != "standard"

    @property
    def wrapped(self) -> bool:
        """Whether each child is a fresh interpreter inside bubblewrap (bwrap), rather
        than a fork of the zygote."""
        return self.tier == "bwrap"

    def wants_user_ns(self) -> bool:
        """Whether children go into a user namespace: when not root (it is what lets an
        ordinary user make the other namespaces and the private root)."""
        wanted = os.geteuid() != 0 if self.user_ns is None else self.user_ns
        return (wanted and USER_NS not in self.skip
                and any(name not in self.skip for name in NAMESPACES))

    def namespaces(self) -> list[str]:
        wanted = [name for name in NAMESPACES if name not in self.skip]
        return [USER_NS, *wanted] if self.wants_user_ns() else wanted

    def wants_cgroups(self) -> bool:
        """Whether children get a memory and a pids cgroup (when the machine lets us)."""
        return "tasks" not in self.skip

    def tasks_config(self, limits: Limits, cgroups: list[str]) -> dict:
        """How the child's task cap holds: the cgroups it was moved into, else
        RLIMIT_NPROC in its own user namespace, which the kernel does not apply to a uid 0
        outside it (root's children, and bwrap's as root)."""
        problem = None
        if "pids" not in cgroups and os.geteuid() == 0:
            problem = f"{available()[1] or 'no pids cgroup'} (root: RLIMIT_NPROC does not apply)"
        elif "pids" not in cgroups and not self.wrapped and not self.wants_user_ns():
            problem = "needs a pids cgroup or a user namespace"
        return {"cap": limits.tasks, "cgroups": cgroups, "problem": problem}

    def child_config(self, limits: Limits, program: dict | None = None,
                     cgroups: Sequence[str] = ()) -> dict:
        """The first frame a child reads: everything it needs to isolate itself.

        An executable bot's `program` (see `sandbox/programs.py`) adds its runtime's files
        to the private root, a 1 KiB scratch, and the memory cap on what it allocates.
        `cgroups` are the controllers whose cgroup the host moved it into."""
        scratch = self.scratch_mb << 20
        config = {"limits": limits.for_child(), "strict": self.strict,
                  "tasks": self.tasks_config(limits, list(cgroups)),
                  USER_NS: self.wants_user_ns(),
                  "skip": list(self.skip), "uid": self.uid, "scratch_bytes": scratch,
                  "file_bytes": scratch, "readable": _readable(), "jail": str(JAIL),
                  "devices": list(DEVICES)}
        if program is not None:
            readable = list(dict.fromkeys([*_readable(), *program["files"]]))
            config.update(program=program, readable=readable,
                          scratch_bytes=PROGRAM_SCRATCH_PAGE, file_bytes=PROGRAM_SCRATCH,
                          reserve_mb=PROGRAM_RESERVE_MB)
        if self.wrapped:
            config["outer"] = list(BWRAP_LAYERS)
        return config

    def bwrap_command(self, child_main: str, in_fd: int, out_fd: int, site: list[str],
                      program: dict | None = None, bot_fd: int = -1, block_fd: int = -1
                      ) -> list[str]:
        """bubblewrap's command line for a fresh interpreter running `child_main`; for an
        executable bot, its runtime's files and its own file (read from `bot_fd`) too.
        With `block_fd`, the sandbox waits for a byte there before it runs anything (the
        host moves it into its cgroups meanwhile)."""
        bwrap = shutil.which("bwrap")
        if bwrap is None:
            raise SandboxUnavailable("--sandbox bwrap: bubblewrap is not installed "
                                     "(apt-get install bubblewrap)")
        command = [bwrap, "--unshare-all", "--unshare-user", "--disable-userns",
                   "--uid", str(self.uid), "--gid", str(self.uid), "--cap-drop", "ALL",
                   "--die-with-parent", "--new-session", "--clearenv", "--as-pid-1",
                   "--hostname", HOSTNAME]
        shown = interpreter_files() + _readable()
        scratch = self.scratch_mb << 20
        if program is not None:
            shown += [p for p in program["files"] if p not in shown]
            scratch = PROGRAM_SCRATCH_PAGE
        for path in outermost(shown):
            if os.path.islink(path):
                command += ["--symlink", os.readlink(path), path]
            else:
                command += ["--ro-bind", path, path]
        for path in DEVICES:
            command += ["--dev-bind", path, path]
        if program is not None:
            command += ["--perms", "0555", "--ro-bind-data", str(bot_fd),
                        f"/bot/{program['file']}"]
        if block_fd >= 0:
            command += ["--block-fd", str(block_fd)]
        command += ["--size", str(scratch), "--tmpfs", "/scratch",
                    "--chdir", "/scratch", *[arg for name, value in CHILD_ENV.items()
                                             for arg in ("--setenv", name, value)],
                    interpreter_files()[0], *CHILD_PYTHON_FLAGS, child_main,
                    str(in_fd), str(out_fd), *site]
        return command


def bwrap_problem() -> str | None:
    """Why bubblewrap cannot start a sandbox here, in its own words (it has no other
    channel for them: a sandboxed child's stderr is /dev/null); None if it can."""
    bwrap = shutil.which("bwrap") or "bwrap"
    try:
        done = subprocess.run([bwrap, "--unshare-all", "--unshare-user", "--ro-bind", "/", "/",
                               "true"], capture_output=True, text=True, timeout=10,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if done.returncode == 0:
        return None
    said = done.stderr.strip().splitlines()
    return said[-1] if said else f"exit status {done.returncode}"


def outermost(paths: list[str]) -> list[str]:
    """`paths` in order, less those that one before them already shows (a file in a shown
    directory, or past a shown link), as `_harden.enter_view` skips them too."""
    kept: list[str] = []
    for path in sorted(dict.fromkeys(paths)):
        if not any(path == k or path.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(path)
    return kept


_READABLE: list[str] | None = None


def _readable() -> list[str]:
    global _READABLE
    if _READABLE is None:
        _READABLE = readable_paths()
    return _READABLE


def is_scratch(path: object) -> bool:
    """Whether a child's reported scratch directory is one a child makes (and may go)."""
    return (isinstance(path, str) and os.path.isabs(path) and ".." not in path
            and os.path.basename(path).startswith(SCRATCH_PREFIX))


def refusal(missing: dict[str, str]) -> str:
    listed = ", ".join(f"{layer} ({why})" for layer, why in missing.items())
    return f"--sandbox strict: missing isolation layers: {listed}"


_warned: set[frozenset] = set()


def warning_once(missing: dict[str, str]) -> str | None:
    """A warning about missing layers, the first time this process sees that set."""
    real = {k: v for k, v in missing.items() if v != "skipped"}
    key = frozenset(real.items())
    if not real or key in _warned:
        return None
    _warned.add(key)
    listed = ", ".join(f"{layer} ({why})" for layer, why in real.items())
    return (f"sandbox: running without {listed}. Bots are still limited in CPU, memory "
            f"and output; --sandbox strict refuses to run like this (see docs/security.md)")
