"""Modules imported on first use (importlib's LazyLoader), so that a command that never
uses one starts without it: numpy is about a quarter of `arena`'s start.

A zygote that forks children calls `load_all()` first, so that no child loads one again;
the match jail's zygote, told which games its jails play, loads only the modules those
games' engines asked for (`load_all(askers)`: a Robot Game jail starts without numpy,
100 ms of CPU, issue 44)."""
from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

_LAZY: list[str] = []
_ASKED: dict[str, set[str]] = {}         # a deferred module -> the modules that asked for it


def lazy_import(name: str) -> ModuleType:
    """`name`, loaded on its first attribute access (at once if it is loaded already)."""
    asker = sys._getframe(1).f_globals.get("__name__", "")
    if name in _ASKED:
        _ASKED[name].add(asker)
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    _LAZY.append(name)
    _ASKED[name] = {asker}
    return module


def load_all(askers: tuple[str, ...] | None = None) -> None:
    """Load every module `lazy_import` has deferred; given `askers` (packages or modules),
    only those that a module of one of them asked for."""
    for name in _LAZY:
        if askers is None or any(asker == package or asker.startswith(f"{package}.")
                                 for asker in _ASKED.get(name, ()) for package in askers):
            vars(sys.modules[name])          # any attribute: the first one loads it
