"""The layers hold: the folder tree is the architecture. One table
(MAY_IMPORT) says which folder may import which, and every import of orchestrator/,
sandbox/ and engine/ keeps to it; the orchestrator's modules import one another without
a cycle.

The graph is read from the source, not from a running interpreter: every `import` and
`from ... import` of every module under orchestrator/, sandbox/ and engine/, at module
level and inside functions alike (an import moved into a function still runs, and a
cycle hidden that way is still a cycle). `from package import name` counts as importing
`package.name` where that is a module, else `package`.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.support.paths import ROOT

PACKAGES = ("orchestrator", "sandbox", "engine")


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the three packages, by dotted name."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of `known` that module `name` imports, anywhere in its body."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                targets.add(sub if sub in known else module)
    return {t for t in targets if t in known and t != name}


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    known = modules(root)
    return {name: imported(name, path, known) for name, path in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[tuple[frozenset[str], list[str]]]:
    """Each strongly connected group of two or more modules, with one cycle through it
    (a path that comes back to its start), so the failure shows the imports to undo."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []
    counter = iter(range(len(graph) * 2 + 1))

    def visit(node: str) -> None:        # Tarjan's algorithm; the graph has ~200 nodes
        index[node] = low[node] = next(counter)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [(frozenset(group), _loop(graph, group)) for group in groups]


def _loop(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A shortest path from the group's first module back to itself, inside the group."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for other in sorted(graph[node] & group):
                if other == start:
                    return paths[node] + [start]
                if other not in paths:
                    paths[other] = paths[node] + [other]
                    following.append(other)
        frontier = following
    raise AssertionError(f"no loop through {start}")      # a strongly connected group has one


# The one table of the layers: the places a module of each place may import, besides its
# own. A module's place is its folder under orchestrator/ (a module at orchestrator/'s root
# is "base": text, arguments, given_path, assets), or sandbox/ or engine/. Every
# orchestrator folder may also import the base, the sandbox and the engine (BELOW_ALL).
# docs/architecture.md ("The tree") says what each folder holds.
MAY_IMPORT: dict[str, set[str]] = {
    "engine": set(),                   # the rules, pure (tests/test_layer_line.py too)
    "sandbox": {"engine"},             # processes and isolation; the engine only as data
    "base": set(),
    "games": set(),                    # the registry and each game's entry
    "replay": {"games"},               # the replay file, its reader, positions
    "options": {"games"},              # the option groups every front shares
    "results": {"games", "options"},   # store, summaries, ratings, tests of significance
    "runner": {"results", "replay", "games", "options"},   # the match loop, workers, bot files
    "views": {"results", "replay", "games"},           # terminal and HTML rendering
    "service": {"views", "runner", "results", "replay", "games", "options"},
    "api": {"service", "views", "runner", "results", "replay", "games", "options"},
    "web": {"service", "views", "runner", "results", "replay", "games", "options"},
    "cli": {"api", "web", "service", "views", "runner", "results", "replay", "games",
            "options"},
}
BELOW_ALL = {"base", "sandbox", "engine"}

# A game's plug-in parts, which its entry loads by name (`Game.own(part)`), never by
# import: they draw (its terminal view) and edit (its map editor sheet), in those places.
PLUGIN_PARTS = {"terminal": "views", "editor": "web"}


def place(name: str, path: Path) -> str:
    """The place of module `name` (at `path`) in the table."""
    parts = name.split(".")
    if parts[0] != "orchestrator":
        return parts[0]
    if name == "orchestrator.__main__":           # `python -m orchestrator`: the command line
        return "cli"
    if len(parts) == 1 or (len(parts) == 2 and path.name != "__init__.py"):
        return "base"
    if parts[1] == "games" and len(parts) == 4 and parts[3] in PLUGIN_PARTS:
        return PLUGIN_PARTS[parts[3]]
    return parts[1]


def violations(root: Path = ROOT) -> list[str]:
    """Every import, in all three packages, that the table does not allow."""
    known = modules(root)
    graph = import_graph(root)
    found = []
    for name, targets in sorted(graph.items()):
        where = place(name, known[name])
        assert where in MAY_IMPORT, f"{name}: its folder {where!r} is not in MAY_IMPORT"
        allowed = MAY_IMPORT[where] | {where}
        if where not in ("engine", "sandbox"):
            allowed |= BELOW_ALL
        for target in sorted(targets):
            there = place(target, known[target])
            if there not in allowed:
                found.append(f"{name} ({where}) imports {target} ({there})")
    return found


@pytest.mark.parametrize("package", ["orchestrator", "sandbox"])
def test_the_package_imports_without_a_cycle(package: str) -> None:
    """No cycle among a package's modules, imports only a type checker reads counted too
    (sandbox's players, modes, host, inprocess and jailplayers were one, through `Mode` in
    an annotation)."""
    graph = {name: {t for t in targets if t.startswith(package)}
             for name, targets in import_graph().items() if name.startswith(package)}
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(loop) for _, loop in found)


def test_every_import_keeps_to_the_layer_table() -> None:
    found = violations()
    assert not found, "imports the layer table forbids:\n" + "\n".join(found)


def test_every_folder_is_placed() -> None:
    """A module's folder is in the table."""
    places = {place(name, path) for name, path in modules().items()}
    assert places <= set(MAY_IMPORT), places - set(MAY_IMPORT)


def test_the_table_fails_a_forbidden_import(tmp_path: Path) -> None:
    """A registry module that imports the command line, inside a function, breaks the
    table (and an import the table allows does not)."""
    package = tmp_path / "orchestrator"
    for folder in ("games", "cli", "results"):
        (package / folder).mkdir(parents=True)
        (package / folder / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "text.py").write_text("")
    (package / "games" / "entry.py").write_text(
        "from orchestrator import text\n\n\ndef late():\n"
        "    from orchestrator.cli import app\n")
    (package / "cli" / "app.py").write_text("from orchestrator.games import entry\n")
    (package / "results" / "store.py").write_text("import orchestrator.games.entry\n")
    for other in ("sandbox", "engine"):
        (tmp_path / other).mkdir()
    assert violations(tmp_path) == [
        "orchestrator.games.entry (games) imports orchestrator.cli.app (cli)"]
    (package / "games" / "entry.py").write_text("from orchestrator import text\n")
    assert violations(tmp_path) == []


def test_the_graph_sees_imports_inside_functions(tmp_path: Path) -> None:
    """The reader counts an import hidden in a function, and finds the cycle it makes."""
    package = tmp_path / "orchestrator"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from orchestrator import b\n")
    (package / "b.py").write_text("def late():\n    from orchestrator.a import thing\n")
    for other in ("sandbox", "engine"):
        (tmp_path / other).mkdir()
    graph = import_graph(tmp_path)
    assert graph["orchestrator.b"] == {"orchestrator.a"}
    assert cycles(graph) == [(frozenset({"orchestrator.a", "orchestrator.b"}),
                              ["orchestrator.a", "orchestrator.b", "orchestrator.a"])]


def test_the_tree_is_as_docs_architecture_draws_it() -> None:
    """docs/architecture.md's drawing of the tree ("The tree: a folder per tier") names
    every folder of orchestrator/ and no other, and each file it
    names in a folder is there. (What each may import is MAY_IMPORT's, above.)"""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text[text.index("## The tree: a folder per tier"):]
    drawing = section[section.index("```\norchestrator/"):].split("```")[1]
    folders: dict[str, str] = {}
    current = None
    for line in drawing.splitlines()[2:]:
        if line.startswith("  ") and not line.startswith("   ") and "/" in line.split()[0]:
            current = line.split()[0].rstrip("/")
            folders[current] = line
        elif current is not None and line.startswith("   "):
            folders[current] += " " + line
    real = {p.name for p in (ROOT / "orchestrator").iterdir()
            if (p / "__init__.py").exists()}
    assert set(folders) == real, (set(folders) ^ real)
    for folder, words in folders.items():
        for named in re.findall(r"\b([a-z_]+\.py)\b", words):
            assert (ROOT / "orchestrator" / folder / named).exists(), f"{folder}/{named}"
