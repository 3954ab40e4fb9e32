"""The dependency rule of docs/architecture.md, checked on the code: the engine never imports the
generator, and inside the generator a stage imports only the stages before it (imports inside
functions included)."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: Each part of patiencebook.generator and its rank: a module may import parts of its own rank or lower.
RANKS = {"errors": 0, "project": 0, "gamenames": 0, "languages": 0, "processes": 0, "docbook": 1, "catalogs": 2,
         "pages": 3,
         "check": 4, "sphinxext": 4, "site": 5, "cli": 6, "play": 6, "serve": 6, "solving": 6}
#: The imports the rule allows across the ranks, with the reason: the language table derives the
#: interface strings of sr@latin with the transliteration of the catalogs stage.
ALLOWED = {("languages", "catalogs.transliterate")}


def _imports(path: Path, package: list[str]):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                yield ".".join(base + ([node.module] if node.module else []))
            elif node.module:
                yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def _part(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if parts[:2] == ["patiencebook", "generator"] and len(parts) > 2 else None


def test_the_engine_never_imports_the_generator():
    for path in (REPO / "engine").glob("*.py"):
        assert not any(m.startswith("patiencebook.generator") for m in _imports(path, ["patiencebook", "engine"])), path


def test_each_stage_imports_only_the_stages_before_it():
    root = REPO / "generator"
    wrong = []
    for path in root.rglob("*.py"):
        rel = path.relative_to(root)
        own = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        if own not in RANKS:
            continue
        package = ["patiencebook", "generator", *rel.parts[:-1]]
        for module in _imports(path, package):
            part = _part(module)
            if part is None or part == own or part not in RANKS:
                continue
            target = ".".join(module.split(".")[2:4])
            if RANKS[part] > RANKS[own] and (own, target) not in ALLOWED:
                wrong.append(f"{rel} imports {module}")
    assert wrong == []


def test_every_part_of_the_generator_has_a_rank():
    parts = {p.stem if p.is_file() else p.name for p in (REPO / "generator").iterdir()
             if (p.suffix == ".py" and p.stem != "__init__") or (p.is_dir() and (p / "__init__.py").is_file())}
    assert parts == set(RANKS)


#: Where a language code as given (by the user, a catalogs folder or a Sphinx project that sets only
#: ``language``) is turned into a Language; everything after receives that value. languages.py is
#: the table itself.
RESOLVING = {
    "cli.py": {"resolve_language", "environment_language"},
    "site/build.py": {"get_language", "resolve_language"},
    "check/run.py": {"resolve_language"},
    "sphinxext/settings.py": {"get_language"},
}
LOOKUPS = {"get_language", "resolve_language", "environment_language"}


def _called(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            yield name, node


def test_a_language_is_looked_up_by_its_code_only_where_it_is_resolved():
    root = REPO / "generator"
    wrong = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel == "languages.py":
            continue
        for name, node in _called(ast.parse(path.read_text(encoding="utf-8"))):
            if name in LOOKUPS and name not in RESOLVING.get(rel, set()):
                wrong.append(f"{rel}:{node.lineno}: {name}")
            # ui_strings takes the resolved Language, not a code to look up again
            if name == "ui_strings" and node.args and (
                    (isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str))
                    or (isinstance(node.args[0], ast.Attribute) and node.args[0].attr in ("code", "lang"))
                    or (isinstance(node.args[0], ast.Name) and node.args[0].id in ("code", "lang"))):
                wrong.append(f"{rel}:{node.lineno}: ui_strings of a code")
    assert wrong == []
