"""The child side: the modules a sandbox child runs. A child imports each by its bare name
(`_harden`, `_wire`: it puts this folder first on its path, as `--sandbox off` does in the
host). The host reaches the same files under the same names through `child_module`, so
one file is one module in any process, never `sandbox.botlib._harden` beside `_harden`."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent


def child_module(name: str) -> ModuleType:
    """The child-side module `name` (say "_harden"), imported once under that name. The
    child-side modules it imports by their bare names (`from _sched import ...`, as in a
    child) come through here too, whichever the host asked for first."""
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    return module


class _SiblingFinder:
    """Finds a child-side module's bare-name import of another (`_sched`) while the host
    imports it through `child_module`: only names of this folder's `_*.py` files."""

    @staticmethod
    def find_spec(name: str, path=None, target=None):
        if "." in name or not name.startswith("_") or not (HERE / f"{name}.py").is_file():
            return None
        return importlib.util.spec_from_file_location(name, HERE / f"{name}.py")


if not any(getattr(f, "__name__", "") == "_SiblingFinder" for f in sys.meta_path):
    sys.meta_path.append(_SiblingFinder)
