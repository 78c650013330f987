"""engine/lazy.py: a deferred module is loaded once, by one thread; another thread that
reads it meanwhile waits for the load. (Python 3.11's own LazyLoader makes the module
plain before its code has run: a batch whose jailed matches fell back to the standard
mode in two of its threads at once stopped on `module 'numpy' has no attribute 'empty'`.)
"""
from __future__ import annotations

import sys
import threading

from engine import lazy

GATE = """
import threading
entered, release = threading.Event(), threading.Event()
"""
SLOW = """
import lazy_gate
lazy_gate.entered.set()
lazy_gate.release.wait(60)
VALUE = 1
"""


def test_a_thread_reading_a_module_being_loaded_waits_for_it(tmp_path, monkeypatch) -> None:
    (tmp_path / "lazy_gate.py").write_text(GATE)
    (tmp_path / "lazy_slow.py").write_text(SLOW)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("lazy_gate", "lazy_slow"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import lazy_gate
    module = lazy.lazy_import("lazy_slow")
    found: dict[str, object] = {}

    def read(who: str) -> None:
        try:
            found[who] = module.VALUE
        except AttributeError as exc:
            found[who] = exc

    loader = threading.Thread(target=read, args=("loader",))
    loader.start()
    assert lazy_gate.entered.wait(60)          # the load has begun, in that thread
    reader = threading.Thread(target=read, args=("reader",))
    reader.start()
    reader.join(0.5)                           # before: it failed at once
    lazy_gate.release.set()
    loader.join(60)
    reader.join(60)
    assert found == {"loader": 1, "reader": 1}
