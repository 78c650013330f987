"""The layer line, read from the source: engine <- sandbox <- orchestrator.

Every import counts, at the top of a module or inside a function (an import hidden in a
function is still a dependency), and so does a module named as a literal string to
`importlib.import_module` or `__import__`. The match jail's zygote
(`sandbox/_jailzygote.py`) is held to it too: it imports the job module the orchestrator
names at run time, never the orchestrator itself.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.paths import ROOT

BELOW = {"engine": ("orchestrator", "sandbox"), "sandbox": ("orchestrator",)}


def imported(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, module) for every import in `path`, relative ones resolved against its
    package, and every module named as a literal string to an import function."""
    package = list(path.relative_to(root).parent.parts)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found += [(node.lineno, f"{module}.{alias.name}" if module else alias.name)
                      for alias in node.names]
        elif isinstance(node, ast.Call) and node.args and _imports_by_name(node.func) \
                and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            found.append((node.lineno, node.args[0].value))
    return found


def _imports_by_name(func: ast.expr) -> bool:
    name = func.attr if isinstance(func, ast.Attribute) else \
        func.id if isinstance(func, ast.Name) else ""
    return name in ("import_module", "__import__")


def crossings(layer: str, root: Path = ROOT) -> list[str]:
    """Each import in `layer`'s folder of a layer above it, as "file:line: module"."""
    return [f"{path.relative_to(root)}:{line}: {module}"
            for path in sorted((root / layer).rglob("*.py"))
            for line, module in imported(path, root)
            if module.split(".")[0] in BELOW[layer]]


@pytest.mark.parametrize("layer", sorted(BELOW))
def test_no_sandbox_or_engine_module_imports_a_layer_above_it(layer) -> None:
    assert crossings(layer) == []


def test_the_layer_check_sees_every_kind_of_import(tmp_path) -> None:
    source = tmp_path / "sandbox" / "botlib" / "_x.py"
    source.parent.mkdir(parents=True)
    source.write_text("import json\n"
                      "from orchestrator.games import GAMES\n"
                      "def later():\n"
                      "    import orchestrator.runner.match\n"
                      "    from .. import host\n"
                      "    importlib.import_module('orchestrator.replay.file')\n"
                      "    __import__('engine')\n"
                      "    importlib.import_module(name)\n")
    assert [m for _, m in imported(source, tmp_path)] == [
        "json", "orchestrator.games.GAMES", "orchestrator.runner.match", "sandbox.host",
        "orchestrator.replay.file", "engine"]
    assert crossings("sandbox", tmp_path) == [
        "sandbox/botlib/_x.py:2: orchestrator.games.GAMES",
        "sandbox/botlib/_x.py:4: orchestrator.runner.match",
        "sandbox/botlib/_x.py:6: orchestrator.replay.file"]
