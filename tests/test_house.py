"""The house rules of the orchestrator's code that a reader cannot see drift.

No call passes more than MAX_POSITIONAL positional arguments: a long positional list is
where options travel unnamed, and one value shifted by one place is another option
silently (`cpu_limit` where `memory_mb` was meant). Options travel in their groups
(orchestrator/options/) or by name. A starred argument (`*row`, `*columns`) is
one variadic list, not a run of options, and does not count: a rich table's row is built
as a list and passed whole.

Read from the source (every .py under orchestrator/), as tests/test_layers.py reads the
imports.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
import tomllib
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
                      "orchestrator/options/:\n" + "\n".join(long))


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
def silenced_modules(root: Path = ROOT) -> list[str]:
    """The modules pyproject's mypy overrides leave unchecked (`ignore_errors`)."""
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    found = []
    for override in config["tool"]["mypy"].get("overrides", []):
        if override.get("ignore_errors"):
            modules = override["module"]
            found += [modules] if isinstance(modules, str) else modules
    return sorted(found)


def test_the_type_checker_reads_all_of_the_sandbox():
    """The sandbox core (its host side and the child's modules) is checked like the rest:
    no override silences a module of sandbox/ or a child's module (mypy reads
    sandbox/botlib/ under the children's bare names, `_wire`, `_harden`)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert "sandbox" in config["files"] and "sandbox/botlib" in config.get("mypy_path", [])
    child = {path.stem for path in (ROOT / "sandbox" / "botlib").glob("*.py")}
    silenced = [name for name in silenced_modules()
                if name.startswith("sandbox") or name.split(".")[0] in child]
    assert not silenced, f"mypy's ignore_errors on {silenced}: fix their errors instead"


def test_the_scan_finds_a_silenced_module(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mypy]\n[[tool.mypy.overrides]]\nmodule = ["sandbox.host", "engine.x"]\n'
        'ignore_errors = true\n[[tool.mypy.overrides]]\nmodule = "psutil"\n'
        'ignore_missing_imports = true\n', encoding="utf-8")
    assert silenced_modules(tmp_path) == ["engine.x", "sandbox.host"]


# A number of the project's tracker, as a comment or a docstring cites it (the word issue
# and a number, or a number after "(#"): the tracker does not ship, so a reader cannot follow it;
# what a change did and why goes in words, its history to CHANGELOG.md.
ISSUE_NUMBER = re.compile(r"\bissues?\s+#?\d+|\(#\d+\)", re.IGNORECASE)
# The project's own code, in every folder of it; bots under a `hostile` folder are data
# (attacks, some of them not even Python), not the project's text.
CODE_FOLDERS = ("engine", "sandbox", "orchestrator", "bots", "bench", "tests")


def project_sources(root: Path = ROOT) -> list[Path]:
    found = [path for folder in CODE_FOLDERS for path in (root / folder).rglob("*.py")
             if "hostile" not in path.relative_to(root).parts]
    return sorted(found + [path for path in (root / "setup.py",) if path.exists()])


def comments_and_docstrings(path: Path) -> list[tuple[int, str]]:
    """A Python file's comments and docstrings (module, class, function), each with the
    line it starts on."""
    source = path.read_text(encoding="utf-8")
    found = [(token.start[0], token.string)
             for token in tokenize.generate_tokens(io.StringIO(source).readline)
             if token.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node, clean=False)
            if text is not None:
                found.append((node.body[0].lineno, text))
    return found


def issue_numbers(root: Path = ROOT) -> list[str]:
    """Every comment or docstring of the project's code that cites an issue by its number,
    and every comment line of its Makefile and pyproject.toml that does: `file:line: text`."""
    found = []
    for path in project_sources(root):
        for line, text in comments_and_docstrings(path):
            for hit in ISSUE_NUMBER.finditer(text):
                at = line + text[:hit.start()].count("\n")
                found.append(f"{path.relative_to(root).as_posix()}:{at}: {hit.group()}")
    for name in ("Makefile", "pyproject.toml"):
        path = root / name
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        for at, text in enumerate(lines, 1):
            comment = text[text.index("#"):] if "#" in text else ""
            found += [f"{name}:{at}: {hit.group()}" for hit in ISSUE_NUMBER.finditer(comment)]
    return found


def test_no_comment_or_docstring_cites_an_issue_number() -> None:
    found = issue_numbers()
    assert len(project_sources()) > 300
    assert not found, ("say what and why in words (history goes to CHANGELOG.md):\n"
                       + "\n".join(found))


def test_the_scan_finds_issue_numbers_in_comments_and_docstrings_only(tmp_path: Path) -> None:
    """The scan's own rule on a made-up tree: a comment's and a docstring's number is
    found, on its own line; a string that is data, and a hostile bot, are not read."""
    for folder in ("orchestrator", "tests/hostile"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "orchestrator" / "made.py").write_text(
        '"""A module.\n\nIts second line names issue 7."""\n'
        "X = 'issue 8, as data'\n"
        "\n\ndef f():\n    '''Fixed (#9).'''\n    return 1  # issues 10 and 11\n",
        encoding="utf-8")
    (tmp_path / "tests" / "hostile" / "bot.py").write_text("# issue 12\n", encoding="utf-8")
    (tmp_path / "Makefile").write_text("test:  # Issue 13\n\techo 'issue 14'\n")
    assert sorted(issue_numbers(tmp_path)) == [
        "Makefile:1: Issue 13", "orchestrator/made.py:3: issue 7",
        "orchestrator/made.py:8: (#9)", "orchestrator/made.py:9: issues 10"]


def _spec(name: str) -> bool:
    import importlib.util
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):       # a name inside a module, not a module
        return False


def test_every_project_module_a_bench_or_test_imports_exists():
    """A module moved or removed leaves no import of it behind in bench/ or tests/ (a
    bench is not run by the suite, so only this sees it)."""
    missing = []
    for path in [*(ROOT / "bench").glob("*.py"), *(ROOT / "tests").rglob("*.py")]:
        if "hostile" in path.parts:
            continue
        for module in _imported_modules(path):
            top = module.split(".")[0]
            if top not in ("orchestrator", "engine", "sandbox", "tests"):
                continue
            if not any(_spec(name) for name in (module, module.rsplit(".", 1)[0])):
                missing.append(f"{path.relative_to(ROOT)}: {module}")
    assert missing == []


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
