"""How an executable bot runs (spec/cave.md): its runtime, from a shebang line, else its
extension, else it is a native (ELF) program; and whether it is persistent.

RUNTIMES is the table of the runtimes the spec names, as data that tests iterate: how each
is recognised and how it is started. A `#!` line may also name a runtime that is not in
the table: any installed native program works, since what it loads is found, not listed
(`sandbox/loader.py`).

`describe` answers with plain data for the keeper (`botlib/_keeper.py`): the argv (with
BOT where the bot's file goes), the file to exec, the files its private root must show,
the environment it adds, or the problem (a runtime that is not installed), which becomes
the bot's load error.
"""
from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING

from sandbox.botlib import child_module
from sandbox.loader import ELF_MAGIC, is_elf, loaded_files
from sandbox.paths import interpreter_files

if TYPE_CHECKING:
    from _harden import BOT, MEMORY_MB
else:
    BOT, MEMORY_MB = child_module("_harden").BOT, child_module("_harden").MEMORY_MB

PERSISTENT = b"cave-protocol: persistent"
PERSISTENT_LINES = 5
ELF = ELF_MAGIC


@dataclass(frozen=True)
class Runtime:
    """One row of the runtime table.

    `names` is a regular expression that a `#!` line's runtime must match in full (its
    base name, after `env`); `extensions` are the file suffixes that mean this runtime when
    there is no `#!` line. `program` is what is looked up on PATH (None: the host's own
    Python). `flags` always come first (before a `#!` line's own arguments), `file_flags`
    only when the extension chose the runtime (awk's `-f`); `driver_flags` when it runs
    one of our drivers instead of a bot's file. `data_paths` are the non-ELF files and
    directories it reads that the loader cannot find (perl's modules, node's OpenSSL
    configuration). `quiet` are system calls the
    runtime itself makes at every start, whatever the bot does (the JVM's NIO probes for
    IPv4 and IPv6 with a socket): refused as always, but not recorded as the bot's
    attempt. `slow_start` marks a runtime whose start alone takes most of the second a
    per-turn program has (the JVM, compiling a .java file each time): `arena check` then
    suggests the persistent protocol when such a program runs out of time. `native` marks
    the row of ELF programs, which run as they are. `env` is what its environment adds
    (a fixed hash seed), so that a program's match is a function of its inputs (see
    HASH_SEEDS)."""

    name: str
    names: str = ""
    extensions: tuple[str, ...] = ()
    program: str | None = None
    flags: tuple[str, ...] = ()
    file_flags: tuple[str, ...] = ()
    driver_flags: tuple[str, ...] = ()
    data_paths: tuple[str, ...] = ()
    quiet: tuple[str, ...] = ()
    slow_start: bool = False
    native: bool = False
    env: tuple[tuple[str, str], ...] = ()

    def recognises(self, runtime: str) -> bool:
        """Whether a `#!` line's runtime word (a path or a name) means this row."""
        return bool(self.names) and re.fullmatch(self.names, PurePath(runtime).name) is not None

    @property
    def shebang(self) -> str | None:
        """A `#!` line that means this runtime (None for native programs). Java still
        needs the file to end in `.java` (or a `--source N` flag) for a source launch."""
        if self.native:
            return None
        split = ["-S"] if self.file_flags else []      # env needs -S to pass `awk -f` on
        return " ".join(["#!/usr/bin/env", *split, self.program or self.name, *self.file_flags])

    def binary(self) -> str | None:
        """The real file this runtime execs on this machine, or None when not installed."""
        if self.native:
            return None
        if self.program is None:
            return interpreter_files()[0]
        return _installed(self.program)


# The JVM sized for the sandbox and started quickly: its heap half of the memory cap (the
# cap holds what it allocates, RLIMIT_DATA, so the JVM must not plan for the machine's
# RAM); the class data sharing archive, which saves most of its own start; C1 only, with
# one compiler thread (a bot's turn is short; C2 costs start-up and memory); the serial
# collector (no GC threads); no perf data file (there is no /tmp to write it to); and its
# warnings on stderr, since stdout carries the answers.
JVM_FLAGS = (f"-XX:MaxRAM={MEMORY_MB}m", "-XX:MaxRAMPercentage=50", "-Xshare:auto",
             "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:+UseSerialGC",
             "-XX:-UsePerfData", "-XX:ReservedCodeCacheSize=32m", "-Xlog:disable",
             "-Xlog:all=warning:stderr")
# Same inputs, same match: a runtime that randomises its hashing per process would make an
# honest program that iterates a set or a hash play differently in every run (and
# `arena replay` refuse its match, `compare` of two identical bots never say identical).
# Each runtime whose flags or environment can fix that is started with it fixed:
#   python3: PYTHONHASHSEED=0, read because it runs isolated by flags (-P -s -S: no script
#            directory, no user site, no site hooks) instead of -I, which would ignore it;
#            the environment is the keeper's own (PATH, HOME, LANG), no other PYTHON*.
#   perl:    PERL_HASH_SEED=0 and PERL_PERTURB_KEYS=0: `keys %h` in one order every run.
# The others have no per-process order to fix: node's Map, Set and object keys keep
# insertion order whatever V8's hash seed, Ruby's Hash keeps insertion order, gawk's
# `for (k in a)` and its unseeded rand() are the same in every run, Java's HashMap of
# String keys is (String.hashCode is fixed), and sh has none. What no flag fixes: Java's
# Set.of/Map.of iteration (a salt drawn per JVM) and identity hash codes, and whatever a
# program draws from a generator seeded by the clock or /dev/urandom (Python's random,
# Math.random, Perl's and Ruby's rand, srand() in awk): `arena check` plays a bot twice
# and says when its two games differ.
HASH_SEEDS = {"python3": (("PYTHONHASHSEED", "0"),),
              "perl": (("PERL_HASH_SEED", "0"), ("PERL_PERTURB_KEYS", "0"))}
RUNTIMES: tuple[Runtime, ...] = (
    # `python`, `python3`, `python3.11` and `/usr/bin/python` all mean the host's own
    # interpreter (as Debian's python-is-python3 has it), with the standard library only
    # (-S): no site hooks to slow every per-turn start.
    Runtime("python3", names=r"python(3(\.\d+)?)?", extensions=(".py",),
            flags=("-P", "-s", "-S"), env=HASH_SEEDS["python3"]),
    Runtime("node", names=r"node(js)?", extensions=(".js",), program="node",
            # OpenSSL's configuration: read at every start. Without a private root (Landlock
            # alone) an unreadable one is EACCES, and node exits.
            data_paths=("/usr/share/nodejs", "/etc/ssl/openssl.cnf")),
    Runtime("perl", names=r"perl(5[.\d]*)?", extensions=(".pl",), program="perl",
            # Its architecture's modules are under /usr/lib, which every child sees.
            data_paths=("/etc/perl", "/usr/share/perl", "/usr/share/perl5"),
            env=HASH_SEEDS["perl"]),
    # Ruby's driver needs no gems, and loading RubyGems would cost each game about 50 ms.
    Runtime("ruby", names=r"ruby[.\d]*", extensions=(".rb",), program="ruby",
            driver_flags=("--disable-gems",), data_paths=("/usr/share/rubygems-integration",)),
    Runtime("sh", names=r"sh", extensions=(".sh",), program="sh"),
    Runtime("awk", names=r"[gm]?awk", extensions=(".awk",), program="awk", file_flags=("-f",)),
    Runtime("java", names=r"java", extensions=(".java",), program="java", flags=JVM_FLAGS,
            quiet=("socket",), slow_start=True),
    Runtime("native", native=True),
)
BY_NAME = {runtime.name: runtime for runtime in RUNTIMES}
EXTENSIONS = {ext: runtime for runtime in RUNTIMES for ext in runtime.extensions}


def describe(filename: str, source: bytes) -> dict:
    """How to run the bot in `filename` whose content is `source`."""
    name = re.sub(r"[^\w.+-]", "_", PurePath(filename).name) or "bot"
    info = {"file": name, "native": False, "persistent": _persistent(source), "files": [],
            "problem": None, "runtime": None, "exec": None, "argv": [], "env": {},
            "quiet": []}
    if source.startswith(b"#!"):
        words = source[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()
        if not words:
            return info | {"problem": "its #! line names no runtime"}
        runtime, args = words[0], words[1:]
        if PurePath(runtime).name == "env":     # env's own options (-S) and NAME=value first
            while args and (args[0].startswith("-") or "=" in args[0]):
                args = args[1:]
            if not args:
                return info | {"problem": "its #!/usr/bin/env line names no runtime"}
            runtime, args = args[0], args[1:]
        row = next((r for r in RUNTIMES if r.recognises(runtime)), None)
        return _with_runtime(info, runtime, row, args)
    suffix = PurePath(filename).suffix.lower()
    if suffix in EXTENSIONS:
        row = EXTENSIONS[suffix]
        return _with_runtime(info, row.program or row.name, row, list(row.file_flags))
    if source.startswith(ELF):
        return info | {"native": True, "runtime": "native", "argv": [BOT],
                       "persistent": PERSISTENT in source}
    known = " ".join(EXTENSIONS)
    return info | {"problem": f"cannot tell how to run it: no #! line, no known extension "
                              f"({known}), and not a native (ELF) program"}


def with_driver(filename: str, source: bytes, driver: str) -> dict:
    """A bot that our `driver` program loads (a Ruby Robot Game bot): its runtime runs the
    driver with the bot's file, once for the whole game; the driver's folder is shown."""
    info = describe(filename, source)
    if info["problem"] or info["native"]:
        return info | {"problem": info["problem"] or f"{info['file']} is a native program, "
                                                     f"not a script for {driver}"}
    *runtime, bot = info["argv"]
    row = BY_NAME.get(info["runtime"])
    flags = row.driver_flags if row else ()
    return info | {"argv": [*runtime, *flags, driver, bot], "persistent": True,
                   "files": [*info["files"], os.path.dirname(driver)]}


def runtime_env(binary: str) -> dict[str, str]:
    """What a runtime's environment needs in a private root, which has no /proc: the
    loader learns a program's `$ORIGIN` (the JVM's `$ORIGIN/../lib`, where libjli.so is)
    from /proc/self/exe, and, failing that, from LD_ORIGIN_PATH."""
    return {"LD_ORIGIN_PATH": os.path.dirname(binary)}


def _with_runtime(info: dict, runtime: str, row: Runtime | None, args: list[str]) -> dict:
    """The runtime's binary found, or the problem naming it."""
    label = row.name if row else PurePath(runtime).name
    info = info | {"runtime": label}
    if row is not None and row.program is None:       # the host's own Python
        binary = row.binary()
    else:
        binary = _installed(runtime)
        if binary is None and os.path.isabs(runtime):   # `#!/usr/local/bin/perl` on Debian
            binary = _installed(PurePath(runtime).name)
    if binary is None:
        return info | {"problem": f"runtime {PurePath(runtime).name!r} is not installed on "
                                  f"this machine (needed to run {info['file']})"}
    if not is_elf(binary):
        return info | {"problem": f"runtime {label!r} ({runtime}) is a script, not a "
                                  f"program the sandbox can start"}
    flags = row.flags if row else ()
    extra = [d for d in (row.data_paths if row else ()) if os.path.exists(d)]
    files = list(dict.fromkeys([*loaded_files(binary), *extra]))
    # argv[0] is the real binary's path: a runtime that finds its home from its own name
    # (the JVM's launcher, without /proc/self/exe) finds it there.
    return info | {"exec": binary, "argv": [binary, *flags, *args, BOT], "files": files,
                   "env": runtime_env(binary) | dict(row.env if row else ()),
                   "quiet": list(row.quiet if row else ())}


def _installed(program: str) -> str | None:
    """The real file of an executable `program` (a path, or a name on PATH), or None."""
    found = program if os.path.isabs(program) else shutil.which(program)
    if not found or not os.path.isfile(found) or not os.access(found, os.X_OK):
        return None
    return os.path.realpath(found)


def _persistent(source: bytes) -> bool:
    head = source.split(b"\n", PERSISTENT_LINES)[:PERSISTENT_LINES]
    return any(PERSISTENT in line for line in head)
