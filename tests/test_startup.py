"""`arena` starts in a blink: `arena --version` imports neither the command line
nor the registries, and `arena check --help` imports what the check's help shows (typer,
the games and modes it names) but not the API, the service, the runner, the ladder or the
other commands. What they import is asserted here; how long they take is timed by
bench/startup_bench.py."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.support.paths import ROOT

# The entry point as the console script runs it, then every module it imported (not those
# only registered to load on first use: engine/lazy.py's numpy).
PROBE = """
import json, sys
sys.argv = ["arena", *sys.argv[1:]]
from orchestrator.cli.launch import main
try:
    main()
except SystemExit:
    pass
sys.stdout.flush()
loaded = [name for name, module in sys.modules.items() if type(module).__name__ != "_Deferred"]
sys.stderr.write("\\nMODULES " + json.dumps(sorted(loaded)) + "\\n")
"""

# Never needed to print a version or the check's help.
HEAVY = ("numpy", "fastapi", "starlette", "uvicorn", "orchestrator.web", "orchestrator.api",
         "orchestrator.service", "orchestrator.runner", "orchestrator.results",
         "orchestrator.replay", "orchestrator.views", "dask")


def imported(*args: str) -> tuple[str, set[str]]:
    """What `arena ARGS` prints, and the modules it imported."""
    done = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "COLUMNS": "100"})
    assert "MODULES " in done.stderr, done.stderr
    modules = json.loads(done.stderr.rpartition("MODULES ")[2])
    return done.stdout, set(modules)


def under(modules: set[str], packages: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in packages))


def test_version_imports_neither_the_command_line_nor_the_registries() -> None:
    out, modules = imported("--version")
    assert out.startswith("robot-arena ") and ", engine " in out
    assert under(modules, HEAVY + ("typer", "click", "rich", "psutil", "msgpack", "sandbox",
                                   "orchestrator.games", "orchestrator.cli.app",
                                   "engine.arena", "engine.robotgame", "engine.cave",
                                   "engine.race")) == []


def test_check_help_imports_only_what_its_help_shows() -> None:
    out, modules = imported("check", "--help")
    assert "Usage: arena check" in out and "--max-overheats" in out
    assert under(modules, HEAVY) == []
    # the other commands' modules are not imported either
    others = tuple(f"orchestrator.cli.{name}" for name in (
        "batch", "bots", "compare", "maps", "publish", "replay", "results", "run",
        "scenario", "serve"))
    assert under(modules, others) == []


# The layers that draw nothing: they say things in words (orchestrator/text.py's `shown`,
# `plural`, `ended`) and leave drawing to the views and the command line. The service's
# publish writes the site's pages through the views, so it may; a game's terminal view
# and editor sheet sit beside its entry but are the views' and the web's
# (tests/test_layers.py, PLUGIN_PARTS).
UNDRAWN = ("orchestrator.games", "orchestrator.options", "orchestrator.replay",
           "orchestrator.results", "orchestrator.runner", "orchestrator.service")
DRAWS = {"orchestrator.service.publish"}
IMPORT_ALL = """
import importlib, json, pkgutil, sys
names = []
for package in sys.argv[2:]:
    found = importlib.import_module(package)
    names += [package] + [m.name for m in pkgutil.walk_packages(found.__path__, package + ".")]
names = [n for n in names if n not in json.loads(sys.argv[1]) and "._" not in n
         and n.rpartition(".")[2] not in ("terminal", "editor")]
for name in names:
    importlib.import_module(name)
print(json.dumps({"imported": names, "rich": sorted(m for m in sys.modules
                                                    if m == "rich" or m.startswith("rich."))}))
"""


def test_the_layers_that_draw_nothing_import_no_rich() -> None:
    done = subprocess.run([sys.executable, "-c", IMPORT_ALL, json.dumps(sorted(DRAWS)),
                           *UNDRAWN], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert "orchestrator.service.batch" in found["imported"], found["imported"]
    assert "orchestrator.runner.check" in found["imported"], found["imported"]
    assert found["rich"] == [], found["rich"]
