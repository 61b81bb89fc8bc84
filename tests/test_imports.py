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


#: The package's layers, lowest first (docs/architecture.md): a module imports only from
#: its own top-level package and the packages of lower layers. Packages on one line sit
#: side by side and import none of each other.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors",),
    ("cards",),
    ("evaluate", "duplicate", "intervals"),
    ("engine",),
    ("games",),
    ("history", "client", "rl"),
    ("analysis",),
    ("bots",),
    ("table", "arena"),
    ("tournament",),
    ("store",),
    ("server",),
    ("cli",),
    ("__main__", ""),
)


def layer_of(module: str) -> tuple[int, str]:
    """The layer of a module of the package, and its top-level package ('' for the
    package's own ``__init__``)."""
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else ""
    for rank, names in enumerate(LAYERS):
        if top in names:
            return rank, top
    raise AssertionError(f"{module} is in no layer: add its package to LAYERS")


def test_every_import_goes_down_the_layers() -> None:
    known = modules()
    upward = []
    for name, path in known.items():
        rank, top = layer_of(name)
        for imported in imports(name, path, known):
            other_rank, other_top = layer_of(imported)
            if other_top != top and other_rank >= rank:
                upward.append(f"{name} -> {imported}")
    assert not upward, "imports that do not go down the layers:\n" + "\n".join(sorted(upward))


def test_no_two_classes_share_a_name() -> None:
    """A class's name says which one it is, wherever it is read (nested classes too)."""
    where: dict[str, list[str]] = {}
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                where.setdefault(node.name, []).append(name)
    shared = {cls: found for cls, found in where.items() if len(found) > 1}
    assert not shared, f"classes of one name in several places: {shared}"


#: The server's layers, lowest first (docs/architecture.md, "The server's layout"): a
#: module of ``pokerhouse.server`` imports only from lower layers, or from its own
#: folder within its layer. A module belongs to the layer that names the longest part of
#: its path (``table.lines`` before ``table``).
SERVER_LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "settings", "runtime"),
    (
        "http.paging",
        "http.problems",
        "http.rate_limits",
        "http.hash_gate",
        "http.auth",
        "http.shared_limits",
        "http.bearer",
    ),
    (
        "table.lines",
        "tournaments.lines",
        "accounts.schemas",
        "hands.schemas",
        "botaccounts.schemas",
        "private.schemas",
    ),
    ("stats.schemas",),
    (
        "socket.incoming",
        "socket.outgoing",
        "socket.protocol_schema",
        "socket.connection",
        "socket.message_rates",
        "socket.open_sockets",
        "socket.signins",
    ),
    ("table.inputs",),
    ("cluster.bus", "cluster.redis_bus"),
    ("table",),
    ("cluster",),
    ("private.policy", "tournaments.policy", "tournaments.view"),
    ("tournaments.task",),
    ("tournaments.relay",),
    ("tournaments.schedule",),
    ("room",),
    ("site",),
    ("http",),
    ("accounts", "hands", "botaccounts", "stats", "private", "tournaments", "room_api"),
    ("routes",),
    ("socket.endpoint",),
    ("app", ""),
)
#: The folders' own ``__init__`` modules (a docstring each): at the bottom.
SERVER_FOLDERS = ("accounts", "botaccounts", "cluster", "hands", "http", "private", "runtime",
                  "socket", "stats", "table", "tournaments")  # fmt: skip


def server_layer_of(module: str) -> tuple[int, str]:
    """The server layer of a module of ``pokerhouse.server``, and its folder."""
    path = module.removeprefix("pokerhouse.server").removeprefix(".")
    if path in SERVER_FOLDERS:
        return 0, path
    best: tuple[int, int] | None = None
    for rank, names in enumerate(SERVER_LAYERS):
        for name in names:
            found = path == name or path.startswith(f"{name}.")
            if found and (best is None or len(name) > best[1]):
                best = (rank, len(name))
    assert best is not None, f"{module} is in no server layer: add it to SERVER_LAYERS"
    return best[0], path.split(".")[0]


def test_every_server_import_goes_down_the_servers_layers() -> None:
    known = modules()
    upward = []
    for name, path in known.items():
        if not name.startswith("pokerhouse.server"):
            continue
        rank, folder = server_layer_of(name)
        for imported in imports(name, path, known):
            if not imported.startswith("pokerhouse.server"):
                continue
            other_rank, other_folder = server_layer_of(imported)
            if other_rank > rank or (other_rank == rank and other_folder != folder):
                upward.append(f"{name} -> {imported}")
    assert not upward, "server imports that do not go down its layers:\n" + "\n".join(upward)
