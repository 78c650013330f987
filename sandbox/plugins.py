"""Registries kept outside the package: a Python file (or a package's folder) named in an
environment variable, executed as a module of its own, and the one entry it defines.

Sandbox modes (`ARENA_SANDBOX_MODES`, sandbox/modes.py) and games (`ARENA_GAMES`,
orchestrator/games/) are registered this way, so a subprocess, a batch worker or
`arena serve` sees the same registry as the command that started it.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from engine import InputError


def named(variable: str) -> list[str]:
    """The files or folders `$variable` names, separated as in PATH."""
    return [ref for ref in os.environ.get(variable, "").split(os.pathsep) if ref]


def entry(ref: str, variable: str, prefix: str, attribute: str, kind: type, lacks: str,
          folders: bool = False):
    """Execute the file `ref` (with `folders`, a folder's `__init__.py` too) as the module
    `prefix` + its name, and return its `attribute`, which must be a `kind` (else the
    error says it defines no `lacks`)."""
    path = Path(ref).expanduser().resolve()
    folder = folders and path.is_dir()
    init = path / "__init__.py" if folder else path
    if not init.is_file():
        what = "game folder or file" if folders else "file"
        raise InputError(f"{ref} (in ${variable}): no such {what}")
    name = f"{prefix}{path.name if folder else path.stem}"
    spec = importlib.util.spec_from_file_location(
        name, init, submodule_search_locations=[str(path)] if folder else None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    found = getattr(module, attribute, None)
    if not isinstance(found, kind):
        raise InputError(f"{ref} (in ${variable}): defines no {lacks}")
    return found
