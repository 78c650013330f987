"""The house rules of the orchestrator's code that a reader cannot see drift (issue 43).

No call passes more than MAX_POSITIONAL positional arguments: a long positional list is
where options travel unnamed, and one value shifted by one place is another option
silently (`cpu_limit` where `memory_mb` was meant). Options travel in their groups
(orchestrator/service/options.py) or by name. A starred argument (`*row`, `*columns`) is
one variadic list, not a run of options, and does not count: a rich table's row is built
as a list and passed whole.

Read from the source (every .py under orchestrator/), as tests/test_layers.py reads the
imports.
"""
from __future__ import annotations

import ast
from pathlib import Path

from tests.support.paths import ROOT

MAX_POSITIONAL = 6



def long_calls(root: Path = ROOT) -> list[tuple[str, int, str, int]]:
    """Every call under root/orchestrator with more than MAX_POSITIONAL positional
    arguments that are not starred: (file, line, called name, how many)."""
    found = []
    for path in sorted((root / "orchestrator").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            count = sum(1 for arg in node.args if not isinstance(arg, ast.Starred))
            if count > MAX_POSITIONAL:
                found.append((path.relative_to(root).as_posix(), node.lineno,
                              ast.unparse(node.func), count))
    return sorted(found)


def test_no_call_passes_more_than_six_positional_arguments():
    found = long_calls()
    long = [f"{file}:{line}: {name}(...) with {count} positional arguments"
            for file, line, name, count in found]
    assert not long, ("pass these by name, or as one of the option groups of "
                      "orchestrator/service/options.py:\n" + "\n".join(long))


def test_the_scan_counts_positional_arguments_not_starred_nor_named(tmp_path):
    """The scan's own rule on a made-up tree: seven plain arguments are too many; six
    with a starred list, or six with names after them, are not."""
    (tmp_path / "orchestrator").mkdir()
    (tmp_path / "orchestrator" / "made.py").write_text(
        "f(1, 2, 3, 4, 5, 6, 7)\n"
        "g(1, 2, 3, 4, 5, 6, *rest)\n"
        "h(1, 2, 3, 4, 5, 6, seven=7, eight=8)\n"
        "obj.method(a, b, c, d, e, f, g, h)\n", encoding="utf-8")
    assert long_calls(tmp_path) == [("orchestrator/made.py", 1, "f", 7),
                                    ("orchestrator/made.py", 4, "obj.method", 8)]


def _imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    try:
        tree = ast.parse(path.read_text(), str(path))
    except SyntaxError:                 # a hostile bot's file that is meant not to parse
        return found
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_no_test_imports_conftest():
    """pytest loads conftest.py itself; what tests share is in tests/support."""
    importers = [str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("*.py")
                 if p.name != "conftest.py"
                 and any(m.split(".")[-1] == "conftest" for m in _imported_modules(p))]
    assert importers == []


def _defined_functions(path: Path) -> set[str]:
    """The functions a file defines, at its top or within a function (not methods)."""
    try:
        tree = ast.parse(path.read_text(), str(path))
    except SyntaxError:                 # a hostile bot's file that is meant not to parse
        return set()
    methods = {id(item) for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
               for item in node.body}
    return {node.name for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and id(node) not in methods}


def test_one_arena_runner():
    """Every test runs `arena` through tests/support/cli.py, so its timeout, environment
    and failure message are written once."""
    runners = [str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("*.py")
               if p != ROOT / "tests" / "support" / "cli.py"
               and "arena" in _defined_functions(p)]
    assert runners == []


# Imports of a test module that remain, each with why: the ordinary-user run counts the
# cases of the suites it runs (their tables), and the install test reads the README's
# commands as tests/test_docs.py does.
TEST_MODULE_IMPORTS = {
    "tests/sandbox/test_ordinary_user.py": {"tests.sandbox.test_check",
                                            "tests.sandbox.test_hostile"},
    "tests/test_install_paths.py": {"tests.test_docs"},
}


def _test_modules_imported(path: Path) -> set[str]:
    return {m for m in _imported_modules(path)
            if m.startswith("tests.") and m.split(".")[-1].startswith("test_")}


def test_no_test_module_imports_another():
    """What tests share lives in tests/support: a test module imported by another runs its
    module-level code there, and its helpers are private to its own tests."""
    found = {str(p.relative_to(ROOT)): _test_modules_imported(p)
             for p in (ROOT / "tests").rglob("*.py")}
    found = {path: names for path, names in found.items() if names}
    assert found == TEST_MODULE_IMPORTS
