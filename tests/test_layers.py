"""The package's layers: what importing it loads, who imports click, no import cycle, and
each module importing only from its own layer or those below it."""

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "nardy_analysis"

LAYERS = ["errors", "game", "notation", "simulate", "replay", "load", "parallel", "parquet",
          "analysis", "batch", "plots", "report", "cli"]
"""Bottom to top: a module may import from its own layer and the layers below."""

EXEMPT = {"nardy_analysis", "nardy_analysis.__main__"}
"""The package's front door and ``python -m``: they gather from every layer."""


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ("nardy_analysis",) + path.relative_to(PACKAGE).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


MODULES = _modules()


def _imports(name: str, source: str, is_package: bool = False) -> set[str]:
    """The package's modules that module ``name`` (source text ``source``) imports, at module
    level or inside functions, relative imports resolved; ``from package import module``
    counts as an import of that module. Imports for the type checker alone (under ``if
    TYPE_CHECKING:``) never run and do not count."""
    package = name if is_package else name.rpartition(".")[0]
    tree = ast.parse(source)
    typing_only = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
                   for statement in node.body for inner in ast.walk(statement)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                       for alias in node.names]
        else:
            continue
        found |= {target for target in targets if target in MODULES and target != name}
    return found


GRAPH = {name: _imports(name, path.read_text(encoding="utf-8"), path.name == "__init__.py")
         for name, path in MODULES.items()}


def _layer(name: str) -> int:
    return LAYERS.index(name.split(".")[1])


def test_importing_the_package_loads_no_cli_plotting_or_frames():
    code = ("import json, sys, nardy_analysis; "
            "print(json.dumps(sorted({m.partition('.')[0] for m in sys.modules})))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=PACKAGE.parent)
    loaded = set(json.loads(done.stdout))
    assert "nardy_analysis" in loaded and "lark" in loaded  # the check sees real imports
    assert loaded & {"click", "tqdm", "matplotlib", "pandas", "scipy"} == set()


def test_the_scan_finds_imports_at_every_level():
    source = ("import json\nimport nardy_analysis.errors\nfrom ..load import load_file\n"
              "from . import shots\nfrom .turns import turns_frame\n"
              "def f():\n    from ..plots import game\n    from ..game.rules import STANDARD\n"
              "if TYPE_CHECKING:\n    from ..replay import ReplayedMatch\n")
    assert _imports("nardy_analysis.analysis.luck", source) == {
        "nardy_analysis.errors", "nardy_analysis.load", "nardy_analysis.analysis.shots",
        "nardy_analysis.analysis.turns", "nardy_analysis.plots.game",
        "nardy_analysis.game.rules"}
    assert _imports("nardy_analysis.cli", "from .common import OutputFile\n", True) == {
        "nardy_analysis.cli.common"}
    assert "nardy_analysis.load" in GRAPH["nardy_analysis"]  # the real files are scanned


def test_click_is_imported_only_by_the_command_line():
    users = set()
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and
                     not node.level else [])
            if any(n.partition(".")[0] == "click" for n in names):
                users.add(name)
    assert users and all(name.startswith("nardy_analysis.cli") for name in users), users


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The cycles of ``graph``, as ``[a, b, ..., a]``: in each strongly connected group of
    modules (Tarjan), the shortest cycle through each member, each cycle once."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    cycles = {}
    for group in groups:
        for start in sorted(group):
            cycle = _cycle_through(graph, group, start)
            cycles.setdefault(frozenset(zip(cycle, cycle[1:])), cycle)
    return list(cycles.values())


def _cycle_through(graph: dict[str, set[str]], group: set[str], start: str) -> list[str]:
    """The shortest cycle from ``start`` back to itself inside ``group`` (breadth first)."""
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node] & group):
            if nxt == start:
                return paths[node] + [start]
            if nxt not in paths:
                paths[nxt] = paths[node] + [nxt]
                queue.append(nxt)
    raise AssertionError(f"no cycle in {group}")


def test_the_cycle_finder_names_each_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"f"}, "f": {"e"}}
    assert _cycles(graph) == [["a", "b", "c", "a"], ["e", "f", "e"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle():
    cycles = _cycles(GRAPH)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def _documented() -> dict[str, set[str]]:
    """The layers each layer imports, as the table of docs/ARCHITECTURE.md gives them, in
    its order (``everything``: every layer below)."""
    table = {}
    for line in (PACKAGE.parent / "docs" / "ARCHITECTURE.md").read_text("utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 3 and cells[0] in LAYERS:
            words = set(re.findall(r"[a-z]+", cells[2]))
            table[cells[0]] = (set(LAYERS[:LAYERS.index(cells[0])]) if "everything" in words
                               else words & set(LAYERS))
    return table


def test_the_documented_table_is_what_each_layer_imports():
    table = _documented()
    assert list(table) == LAYERS
    imported: dict[str, set[str]] = {layer: set() for layer in LAYERS}
    for name, targets in GRAPH.items():
        if name not in EXEMPT:
            imported[name.split(".")[1]] |= {target.split(".")[1] for target in targets
                                             if target not in EXEMPT}
    for layer in LAYERS:
        imported[layer].discard(layer)
        if layer == "cli":
            assert imported[layer] <= table[layer]
        else:
            assert imported[layer] == table[layer], f"{layer} imports {sorted(imported[layer])}"


@pytest.mark.parametrize("name", sorted(set(MODULES) - EXEMPT))
def test_imports_only_from_its_layer_or_below(name):
    above = {target for target in GRAPH[name]
             if target in EXEMPT or _layer(target) > _layer(name)}
    assert not above, f"{name} ({LAYERS[_layer(name)]}) imports from above: {sorted(above)}"


def test_the_front_door_exports_what_it_lists_and_the_version():
    import importlib.metadata

    import nardy_analysis

    assert [name for name in nardy_analysis.__all__ if not hasattr(nardy_analysis, name)] == []
    assert nardy_analysis.__version__ == importlib.metadata.version("nardy-analysis")
