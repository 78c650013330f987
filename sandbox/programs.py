"""How an executable bot runs (spec/cave.md): its runtime, from a shebang line, else its
extension, else it is a native (ELF) program; and whether it is persistent.

The answer is plain data for the keeper (`botlib/_keeper.py`): the argv (with BOT where
the bot's file goes), the file to exec, the runtime's files its private root must show,
or the problem (a runtime that is not installed), which becomes the bot's load error.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import PurePath

from sandbox.botlib._harden import BOT
from sandbox.paths import interpreter_files

EXTENSIONS = {".py": ("python3",), ".js": ("node",), ".pl": ("perl",), ".rb": ("ruby",),
              ".sh": ("sh",), ".awk": ("awk", "-f"), ".java": ("java",)}
PYTHONS = re.compile(r"python(3(\.\d+)?)?")
# What a runtime reads besides its binary and the shared libraries (always shown).
RUNTIME_DIRS = {"perl": ("/usr/share/perl", "/usr/share/perl5"), "node": ("/usr/share/nodejs",),
                "ruby": ("/usr/share/rubygems-integration",), "java": ("/etc/java-17-openjdk",)}
# What a runtime is given when it runs our driver (not a bot's own script): Ruby's driver
# needs no gems, and loading RubyGems would cost each game about 50 ms.
DRIVER_FLAGS = {"ruby": ("--disable-gems",)}
PERSISTENT = b"cave-protocol: persistent"
PERSISTENT_LINES = 5
ELF = b"\x7fELF"


def describe(filename: str, source: bytes) -> dict:
    """How to run the bot in `filename` whose content is `source`."""
    name = re.sub(r"[^\w.+-]", "_", PurePath(filename).name) or "bot"
    info = {"file": name, "native": False, "persistent": _persistent(source), "files": [],
            "problem": None, "runtime": None, "exec": None, "argv": []}
    if source.startswith(b"#!"):
        words = source[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()
        if not words:
            return info | {"problem": "its #! line names no runtime"}
        runtime, args = words[0], words[1:]
        if PurePath(runtime).name == "env":
            args = [a for a in args if not a.startswith("-")]
            if not args:
                return info | {"problem": "its #!/usr/bin/env line names no runtime"}
            runtime, args = args[0], args[1:]
        return _with_runtime(info, runtime, args)
    suffix = PurePath(filename).suffix.lower()
    if suffix in EXTENSIONS:
        runtime, *args = EXTENSIONS[suffix]
        return _with_runtime(info, runtime, args)
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
    flags = DRIVER_FLAGS.get(info["runtime"], ())
    return info | {"argv": [*runtime, *flags, driver, bot], "persistent": True,
                   "files": [*info["files"], os.path.dirname(driver)]}


def _with_runtime(info: dict, runtime: str, args: list[str]) -> dict:
    """The runtime's binary found, or the problem naming it."""
    label = PurePath(runtime).name
    info = info | {"runtime": label}
    if PYTHONS.fullmatch(label) and not os.path.isabs(runtime):
        # The host's own interpreter (a `python3` on PATH may be a wrapper script), with
        # the standard library only (-S): no site hooks to slow every per-turn start.
        files = interpreter_files()
        return info | {"exec": files[0], "argv": [label, "-I", "-S", *args, BOT],
                       "files": files}
    found = runtime if os.path.isabs(runtime) else shutil.which(runtime)
    if not found or not os.path.isfile(found) or not os.access(found, os.X_OK):
        return info | {"problem": f"runtime {label!r} is not installed on this machine "
                                  f"(needed to run {info['file']})"}
    binary = os.path.realpath(found)
    with open(binary, "rb") as f:
        if f.read(4) != ELF:
            return info | {"problem": f"runtime {label!r} ({found}) is a script, not a "
                                      f"program the sandbox can start"}
    extra = [d for d in RUNTIME_DIRS.get(label, ()) if os.path.isdir(d)]
    return info | {"exec": binary, "argv": [label, *args, BOT], "files": [binary, *extra]}


def _persistent(source: bytes) -> bool:
    head = source.split(b"\n", PERSISTENT_LINES)[:PERSISTENT_LINES]
    return any(PERSISTENT in line for line in head)
