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
    """The child-side module `name` (say "_harden"), imported once under that name."""
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
