"""Registries kept outside the package: installed plugins (entry points), and files named in
an environment variable; and the lazy registry (`Registry`) that loads them when first asked.

Sandbox modes (sandbox/modes.py) and games (orchestrator/games/) are registered two ways:

- an installed distribution's entry point in the group `robot_arena.sandbox_modes` or
  `robot_arena.games` (`installed`), pointing at the `Mode` or the `Game` (`pkg.mod:GAME`),
  the way pytest finds its `pytest11` plugins;
- for ad-hoc use, a Python file (or a package's folder) named in `ARENA_SANDBOX_MODES` or
  `ARENA_GAMES` (`entry`), executed as a module of its own.

Either way a subprocess, a batch worker or `arena serve` sees the same registry as the
command that started it (the same installed distributions, the same environment). Nothing
is loaded when a module is imported: a registry loads its plugins the first time it is
asked, and a plugin that cannot load is one `InputError` naming it and its problem.
"""
from __future__ import annotations

import functools
import importlib.util
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import InputError
from sandbox.shown import shown

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GAMES_GROUP = "robot_arena.games"
MODES_GROUP = "robot_arena.sandbox_modes"
GROUPS = (GAMES_GROUP, MODES_GROUP)
# The top-level modules of the entry points loaded in this process: a match jail hides them
# from its bots, as it hides the host's own packages (orchestrator/runner/jail_job.py).
LOADED_PACKAGES: list[str] = []


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
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]  # a .py: a spec
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]  # with a loader
    except InputError:
        raise
    except Exception as exc:
        sys.modules.pop(name, None)
        raise InputError(f"{ref} (in ${variable}): cannot be loaded: {_said(exc)}") from None
    found = getattr(module, attribute, None)
    if not isinstance(found, kind):
        raise InputError(f"{ref} (in ${variable}): defines no {lacks}")
    return found


# A registered entry's name: what `--game` or `--sandbox` takes, a file's and a URL's part.
NAME = re.compile(r"[a-z][a-z0-9_-]*")
# What rich reads as a tag in the help it renders (`[bold]`, `[/]`, `[link=...]`: rich's own
# RE_TAGS), unless a backslash escapes it.
_TAG = re.compile(r"(?<!\\)\[[a-z#/@][^\[]*?\]")


def wording_problems(words: dict[str, object]) -> list[str]:
    """What is wrong with a plugin's words that help, messages and pages show (`words`:
    what each is called -> its value), one phrase each: each is plain text, with no
    control character (but newline and tab) and nothing rich reads as markup (`[/]` in
    a title made every `--help` a traceback); [] when all are."""
    problems = []
    for what, value in words.items():
        if value is None:
            continue
        if not isinstance(value, str):
            problems.append(f"its {what} is a {type(value).__name__}, not text")
        elif shown(value, lines=True) != value:
            problems.append(f"its {what} holds a control character "
                            f"({shown(value, lines=True)[:60]})")
        elif (tag := _TAG.search(value)) is not None:
            problems.append(f"its {what} holds {tag.group()[:40]!r}, which help would read "
                            f"as markup (escape it: \\[)")
    return problems


def plugin_name(point: EntryPoint) -> str:
    """How an error names an installed plugin: `wheeltoy = arena_wheeltoy:GAME (entry point
    of arena-wheeltoy 0.1 in robot_arena.games)`."""
    dist = point.dist
    whose = f" of {dist.name} {dist.version}" if dist is not None else ""
    return f"{point.name} = {point.value} (entry point{whose} in {point.group})"


def installed(group: str, kind: type, lacks: str) -> list[tuple[str, Any]]:
    """Each entry point of `group` in the installed distributions, by name, loaded:
    (how an error names it, the object it points at, which must be a `kind`)."""
    found = []
    for point in sorted(_points(group), key=lambda p: (p.name, p.value)):
        name = plugin_name(point)
        try:
            loaded = point.load()
        except InputError:
            raise
        except Exception as exc:
            raise InputError(f"{name}: cannot be loaded: {_said(exc)}") from None
        top = point.module.split(".")[0]
        if top not in LOADED_PACKAGES:
            LOADED_PACKAGES.append(top)
        if not isinstance(loaded, kind):
            raise InputError(f"{name}: names a {type(loaded).__name__}, not {lacks}")
        found.append((name, loaded))
    return found


def homes(group: str) -> list[str]:
    """The folders the entry points of `group` come from, found without importing them: each
    distribution's (where its metadata is) and each entry point's top-level module's (an
    editable install's source). A process started with only its own site dirs (the match
    jail's zygote) puts these on its path to see the same plugins."""
    found: list[str] = []
    for point in _points(group):
        if point.dist is not None:
            found.append(str(point.dist.locate_file("")))
        try:
            spec = importlib.util.find_spec(point.module.split(".")[0])
        except (ImportError, ValueError):
            spec = None             # the registry's load says what is wrong with it
        if spec is not None and spec.origin not in (None, "built-in", "frozen"):
            where = Path(spec.origin).parent
            found.append(str(where.parent if spec.submodule_search_locations else where))
    return [p for p in dict.fromkeys(found) if os.path.isdir(p)]


@functools.cache
def _installed_points() -> Any:
    """Every installed distribution's entry points, read once (one walk of sys.path's
    metadata, about 7 ms; importing importlib.metadata is 15 ms more: at the first ask)."""
    from importlib.metadata import entry_points  # noqa: PLC0415

    return entry_points()


def _points(group: str) -> tuple[EntryPoint, ...]:
    return tuple(_installed_points().select(group=group))


def _said(exc: BaseException) -> str:
    """An exception as one line: its type and the first line of its message."""
    message = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {message[0]}" if message else type(exc).__name__


class Registry(MutableMapping):
    """A registry (name -> entry) that holds its built-in entries from the start and loads
    its plugins (`load(entries)`, which adds them) the first time it is asked anything. A
    plugin that cannot load raises its InputError at that ask, and at every later one."""

    def __init__(self, built_in: dict[str, Any], load: Callable[[dict[str, Any]], None]):
        self._built_in = dict(built_in)
        self._load = load
        self._entries: dict[str, Any] | None = None
        self._loading: dict[str, Any] | None = None
        self._lock = threading.RLock()

    def _all(self) -> dict[str, Any]:
        if self._entries is not None:
            return self._entries
        with self._lock:
            if self._entries is not None:
                return self._entries
            if self._loading is not None:       # asked by a plugin as it loads
                return self._loading
            self._loading = dict(self._built_in)
            try:
                self._load(self._loading)
                self._entries = self._loading
            finally:
                self._loading = None
            return self._entries

    def built_in(self, name: str) -> Any | None:
        """A built-in entry, without loading any plugin (no plugin may replace one)."""
        return self._built_in.get(name)

    def __getitem__(self, name: str) -> Any:
        return self._all()[name]

    def __setitem__(self, name: str, value: Any) -> None:
        self._all()[name] = value

    def __delitem__(self, name: str) -> None:
        del self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __repr__(self) -> str:
        return f"Registry({self._all()!r})"
