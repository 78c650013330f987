"""The layers hold (issue 34): the orchestrator's modules import one another without a
cycle, and nothing below the commands (the Python API, the service layer) imports a
command module.

The graph is read from the source, not from a running interpreter: every `import` and
`from ... import` of every module under orchestrator/, sandbox/ and engine/, at module
level and inside functions alike (an import moved into a function still runs, and a
cycle hidden that way is still a cycle). `from package import name` counts as importing
`package.name` where that is a module, else `package`.
"""
from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

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


def is_command(name: str) -> bool:
    """A command module: the typer adapters (`*_cmd`, `cli`, anything under a
    `commands` package) and the entry point that starts them."""
    parts = name.split(".")
    return (parts[-1].endswith("_cmd") or parts[-1] in ("cli", "launch", "__main__")
            or "commands" in parts[1:])


def test_the_orchestrator_imports_without_a_cycle() -> None:
    graph = {name: {t for t in targets if t.startswith("orchestrator")}
             for name, targets in import_graph().items() if name.startswith("orchestrator")}
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(loop) for _, loop in found)


def test_the_api_and_the_service_layer_import_no_command_module() -> None:
    graph = import_graph()
    below = [name for name in graph if name == "orchestrator.api"
             or name.startswith("orchestrator.service.") or name == "orchestrator.service"]
    assert "orchestrator.service.play" in below and "orchestrator.service.batch" in below
    wrong = {name: sorted(t for t in graph[name] if is_command(t)) for name in below}
    assert not any(wrong.values()), {name: found for name, found in wrong.items() if found}


def test_nothing_below_the_commands_imports_one() -> None:
    """Only a command module (or the entry point) imports a command module: the workers,
    the ladder, the views and the match loop never do."""
    graph = import_graph()
    wrong = {name: sorted(t for t in targets if is_command(t))
             for name, targets in graph.items() if not is_command(name)}
    assert not any(wrong.values()), {name: found for name, found in wrong.items() if found}


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
