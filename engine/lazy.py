"""Modules imported on first use (importlib's LazyLoader), so that a command that never
uses one starts without it: numpy is about a quarter of `arena`'s start.

A zygote that forks children calls `load_all()` first, so that no child loads one again."""
from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

_LAZY: list[str] = []


def lazy_import(name: str) -> ModuleType:
    """`name`, loaded on its first attribute access (at once if it is loaded already)."""
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
    return module


def load_all() -> None:
    """Load every module `lazy_import` has deferred."""
    for name in _LAZY:
        vars(sys.modules[name])          # any attribute: the first one loads it
