"""The layout of the engine's modules: which module imports which, read from the source (every import,
those inside functions and ``try`` blocks included), has no cycle; and no module imports another's
private names.

Imports under ``if TYPE_CHECKING:`` are left out: they never run, and they are how a lower module
names a higher one's class in its annotations (``moves`` and ``hooks`` name ``Position``).
"""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
PACKAGE = "patiencebook.engine"


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST):
    """Every import statement of ``tree`` that can run, at any depth."""
    stack = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                stack.extend(child.orelse)  # the ``else`` of a TYPE_CHECKING test does run
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child
            stack.append(child)


def _engine_module(name: str) -> str | None:
    """The engine module (file stem, ``__init__`` for the package) that an absolute import names."""
    if name == PACKAGE:
        return "__init__"
    if name.startswith(PACKAGE + "."):
        return name[len(PACKAGE) + 1:].split(".")[0]
    return None


def import_graph() -> dict[str, dict[str, list[str]]]:
    """Module -> {engine module it imports: the names it takes from there}, for ``engine/*.py``."""
    modules = {path.stem for path in ENGINE.glob("*.py")}
    graph: dict[str, dict[str, list[str]]] = {}
    for path in sorted(ENGINE.glob("*.py")):
        edges: dict[str, list[str]] = {}
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[tuple[str, list[str]]] = []
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = _engine_module(alias.name)
                    if target:
                        targets.append((target, []))
            elif node.level == 0:
                target = _engine_module(node.module or "")
                if target == "__init__":  # from patiencebook.engine import cards, Position
                    targets += [(a.name, []) if a.name in modules else ("__init__", [a.name]) for a in node.names]
                elif target:
                    targets.append((target, [a.name for a in node.names]))
            elif node.level == 1:
                if node.module:  # from .position import Position
                    targets.append((node.module.split(".")[0], [a.name for a in node.names]))
                else:  # from . import tables
                    targets += [(a.name, []) if a.name in modules else ("__init__", [a.name]) for a in node.names]
            for target, names in targets:
                if target != path.stem:
                    edges.setdefault(target, []).extend(names)
        graph[path.stem] = edges
    return graph


def find_cycle(graph: dict[str, dict[str, list[str]]]) -> list[str] | None:
    """A cycle of ``graph`` as the modules along it (the first one again at the end), or ``None``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, {})):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_engine_modules_import_each_other_without_a_cycle():
    graph = import_graph()
    assert {"position", "tables", "validation", "notation", "game", "solver"} <= set(graph)
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or ())


def test_the_cycle_finder_finds_a_cycle_through_a_function_level_import():
    # The check above is only worth something if it sees imports inside functions.
    tree = ast.parse("import json\ndef f():\n    from .game import Game\n")
    assert [type(n).__name__ for n in _imports(tree)] == ["Import", "ImportFrom"]
    assert find_cycle({"game": {"notation": []}, "notation": {"game": []}}) == ["game", "notation", "game"]
    assert find_cycle({"a": {"b": []}, "b": {}}) is None


def test_no_engine_module_imports_a_private_name_of_another():
    private = [(module, target, name) for module, edges in import_graph().items()
               for target, names in edges.items() for name in names if name.startswith("_")]
    assert private == []


def test_the_solver_and_validation_build_on_the_compiled_tables_not_on_each_other():
    graph = import_graph()
    assert "tables" in graph["position"] and "tables" in graph["solver"] and "tables" in graph["validation"]
    assert "position" not in graph["validation"] and "position" not in graph["tables"]
    assert "notation" not in graph["position"] and "notation" not in graph["game"]


def test_every_engine_module_imports_only_the_standard_library_and_the_engine():
    import sys

    allowed = sys.stdlib_module_names | {"__future__"}
    outside = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            outside += [(path.name, name) for name in names
                        if name.split(".")[0] not in allowed and _engine_module(name) is None]
    assert outside == []
