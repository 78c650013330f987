"""Modules imported on first use (importlib's LazyLoader), so that a command that never
uses one starts without it: numpy is about a quarter of `arena`'s start.

A zygote that forks children calls `load_all()` first, so that no child loads one again;
the match jail's zygote, told which games its jails play, loads only the modules those
games' engines asked for (`load_all(askers)`: a Robot Game jail starts without numpy,
100 ms of CPU)."""
from __future__ import annotations

import importlib.util
import sys
import threading
from types import ModuleType

_LAZY: list[str] = []
_ASKED: dict[str, set[str]] = {}         # a deferred module -> the modules that asked for it
_LOADING = threading.RLock()


class _Deferred(ModuleType):
    """A module not loaded yet: the first attribute read loads it, in one thread, and
    another thread that reads one meanwhile waits for the load. (Python 3.11's LazyLoader
    makes the module plain before it runs its code, so such a thread would find the
    attribute missing.)"""

    def __getattribute__(self, attr: str) -> object:
        with _LOADING:
            if type(self) is _Deferred:
                _load(self)
        return ModuleType.__getattribute__(self, attr)

    def __delattr__(self, attr: str) -> None:
        with _LOADING:
            if type(self) is _Deferred:
                _load(self)
        ModuleType.__delattr__(self, attr)


class _Loading(ModuleType):
    """A module being loaded: the loading thread reads it as it is, any other waits."""

    def __getattribute__(self, attr: str) -> object:
        with _LOADING:
            pass
        return ModuleType.__getattribute__(self, attr)


def _load(module: ModuleType) -> None:
    """Run the module's code (as importlib's _LazyModule does: keep what was set on it
    before, refuse a module replaced in sys.modules meanwhile); then it is plain."""
    module.__class__ = _Loading
    try:
        spec = module.__spec__
        assert spec is not None and spec.loader is not None and spec.loader_state
        then = spec.loader_state["__dict__"]
        updated = {key: value for key, value in module.__dict__.items()
                   if key not in then or then[key] is not value}
        spec.loader.exec_module(module)
        if spec.name in sys.modules and sys.modules[spec.name] is not module:
            raise ValueError(f"module object for {spec.name!r} substituted in sys.modules "
                             "during a lazy load")
        module.__dict__.update(updated)
    finally:
        module.__class__ = ModuleType


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
    module.__class__ = _Deferred
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
