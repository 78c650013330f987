"""The child side: the modules a sandbox child runs. A child imports each by its bare name
(`_harden`, `_wire`: it puts this folder first on its path, as `--sandbox off` does in the
host). The host reaches the same files under the same names through `child_module`, so
one file is one module in any process, never `sandbox.botlib._harden` beside `_harden`.

Importing this package changes nothing in the process: the finder of the child's modules
is on `sys.meta_path` only while `child_module` loads one.

Typed, a host module names the child's module as the child does, for the type checker
(which reads this folder under those names: pyproject's mypy_path), and loads it here:

    if TYPE_CHECKING:
        import _harden
    else:
        _harden = child_module("_harden")
"""
from __future__ import annotations

import importlib.util
import sys
import threading
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
_LOADING = threading.RLock()


def child_module(name: str) -> ModuleType:
    """The child-side module `name` (say "_harden"), imported once under that name. The
    child-side modules it imports by their bare names (`from _sched import ...`, as in a
    child) come through here too, whichever the host asked for first."""
    module = sys.modules.get(name)
    if module is not None:
        return module
    with _LOADING:
        module = sys.modules.get(name)
        if module is not None:
            return module
        spec = _SiblingFinder.find_spec(name)
        if spec is None or spec.loader is None:
            raise ImportError(f"no child-side module {name!r} in {HERE}", name=name)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        sys.meta_path.append(_SiblingFinder)
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
        finally:
            sys.meta_path.remove(_SiblingFinder)
        return module


class _SiblingFinder:
    """Finds a child-side module's bare-name import of another (`_sched`) while the host
    imports it through `child_module`: only names of this folder's `_*.py` files."""

    @staticmethod
    def find_spec(name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if "." in name or not name.startswith("_") or not (HERE / f"{name}.py").is_file():
            return None
        return importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
