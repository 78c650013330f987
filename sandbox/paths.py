"""Where the sandbox's own files are, and what a child may read."""
from __future__ import annotations

import os
import sysconfig
from pathlib import Path

BOTLIB = Path(__file__).resolve().parent / "botlib"
JAIL = Path(__file__).resolve().parent / "jail"     # where a child mounts its private root
# Shared libraries a lazily imported extension module may need, and the loader's cache.
SYSTEM_LIBS = ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/etc/ld.so.cache")


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
