"""Where the sandbox's own files are, and what a child may read."""
from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path

BOTLIB = Path(__file__).resolve().parent / "botlib"
JAIL = Path(__file__).resolve().parent / "jail"     # where a child mounts its private root
# Shared libraries a lazily imported extension module may need, and the loader's cache.
SYSTEM_LIBS = ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/etc/ld.so.cache")
# How a child's interpreter starts: isolated as with -I (no user site, no script dir,
# no site hooks), but reading PYTHONHASHSEED, which -I would ignore. A fixed hash seed
# makes a bot's iteration over a set of strings the same in every run, so a match stays a
# function of its inputs. The environment is otherwise empty.
CHILD_PYTHON_FLAGS = ("-P", "-s", "-S")
CHILD_ENV = {"PYTHONHASHSEED": "0"}
# Nor may where things lie in memory vary run to run: with address space layout
# randomisation, `id(None)`, `hash(object())` and every address a bot can read are drawn
# afresh at each exec of the zygote, so a bot that picks its moves from one plays another
# game in every run (and `arena check`'s two games, forked from one zygote, agree). The
# children's interpreter is started without it (`fixed_layout`, as `setarch -R` does):
# the bot runs code of its own in there anyway, so the randomisation guards nothing of
# the host's.
ADDR_NO_RANDOMIZE = 0x0040000


def fixed_layout():
    """A `preexec_fn` that runs the program executed (and its children) without address
    space layout randomisation. Where the kernel refuses (a container's seccomp profile),
    it runs as before. The C library is loaded here, in the parent: a forked child of a
    threaded process must not import."""
    import ctypes
    personality = ctypes.CDLL(None, use_errno=True).personality

    def preexec() -> None:
        current = personality(0xFFFFFFFF)
        if current != -1:
            personality(current | ADDR_NO_RANDOMIZE)
    return preexec
# Devices every program may expect. Not /dev/zero: a shared mapping of it would be memory
# that the cap on what a program allocates does not count.
DEVICES = ("/dev/null", "/dev/random", "/dev/urandom")


def site_dirs() -> list[str]:
    """This interpreter's site-packages directories, in order."""
    paths = sysconfig.get_paths()
    return list(dict.fromkeys([paths["purelib"], paths["platlib"]]))


def readable_paths() -> list[str]:
    """Everything a bot may read: the standard library, the installed packages, the bot
    API and the system's shared libraries. Nothing of the host, the maps or other bots."""
    paths = sysconfig.get_paths()
    wanted = [paths["stdlib"], paths["platstdlib"], *site_dirs(), str(BOTLIB), *SYSTEM_LIBS]
    return [p for p in dict.fromkeys(wanted) if os.path.lexists(p)]


def interpreter_files() -> list[str]:
    """The real interpreter binary, and libpython when it is a shared library."""
    files = [os.path.realpath(sys.executable)]
    if sysconfig.get_config_var("Py_ENABLE_SHARED"):
        lib = os.path.join(sysconfig.get_config_var("LIBDIR") or "",
                           sysconfig.get_config_var("INSTSONAME") or "")
        if os.path.isfile(lib):
            files.append(lib)
    return files
