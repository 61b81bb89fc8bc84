"""The package's modules import each other without cycles, and none is too long.

Every import counts: at the top of a module, inside a function, and under
``TYPE_CHECKING``. ``from package import name`` is an import of the module
``package.name`` when there is one, else of the package itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pokerhouse

ROOT = Path(pokerhouse.__file__).resolve().parent
#: A module longer than this is doing more than one job (see DESIGN.md, "Habits").
MOST_LINES = 600


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that module ``name`` imports, anywhere in it."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                base = ".".join(parent[: len(parent) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.add(candidate if candidate in known else base)
    return {module for module in found if module in known and module != name}


def test_no_module_imports_itself_through_others() -> None:
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    assert sum(map(len, graph.values())) > 300  # the walk sees the package's imports
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for following in sorted(graph[node]):
            if state.get(following) == 1:
                cycles.append([*path[path.index(following) :], following])
            elif following not in state:
                visit(following)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(cycle) for cycle in cycles)


def test_no_module_is_over_six_hundred_lines() -> None:
    long = {
        name: lines
        for name, path in modules().items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert not long, f"modules over {MOST_LINES} lines: {long}"
