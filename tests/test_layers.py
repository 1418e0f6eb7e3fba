"""The layers go one way, api → replay → projections → rules → events, with no import cycle.

Read from the source (every import statement, inside functions too), not from what a run
happens to import, so that a lazy import cannot hide a cycle or a call upwards.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: lowest first; a module may import its own package and the packages before it. The
#: benchmarks sit above everything: they may use every layer and nothing may use them.
LAYERS = ("events", "rules", "projections", "replay", "api", "benchmarks")


def modules(root: Path) -> dict[str, Path]:
    """Every module of the layered packages, by dotted name (a package by its own name)."""
    out: dict[str, Path] = {}
    for package in LAYERS:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def imports(root: Path) -> dict[str, list[tuple[str, int]]]:
    """For each module, the modules of the tree it imports, with the line of each import."""
    known = modules(root)

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    out: dict[str, list[tuple[str, int]]] = {}
    for name, path in known.items():
        found: list[tuple[str, int]] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                found += [(target, node.lineno) for alias in node.names if (target := resolve(alias.name))]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                    package = package[: len(package) - node.level + 1]
                    base = ".".join([*package, *([node.module] if node.module else [])])
                for alias in node.names:
                    # `from a import b` names the submodule a.b when there is one
                    target = resolve(f"{base}.{alias.name}") if base else None
                    if target is None or target == name:
                        target = resolve(base)
                    if target:
                        found.append((target, node.lineno))
        out[name] = [(target, line) for target, line in dict.fromkeys(found) if target != name]
    return out


def upward(root: Path) -> list[str]:
    rank = {package: i for i, package in enumerate(LAYERS)}
    known = modules(root)
    return [
        f"{known[name].relative_to(root)}:{line} imports {target}"
        for name, targets in imports(root).items()
        for target, line in targets
        if rank[target.split(".")[0]] > rank[name.split(".")[0]]
    ]


def cycles(root: Path) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    graph = {name: sorted({target for target, _ in targets}) for name, targets in imports(root).items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in graph:
        if v not in index:
            visit(v)
    return sorted(groups)


def test_no_module_imports_a_layer_above_its_own():
    assert upward(ROOT) == []


def test_no_import_cycle_in_the_tree():
    assert cycles(ROOT) == []


def test_the_check_sees_a_cycle_and_an_upward_import_even_inside_a_function(tmp_path):
    for package in LAYERS:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "api" / "cli.py").write_text("from api.stats_cli import register\n")
    (tmp_path / "api" / "stats_cli.py").write_text("def register():\n    from . import cli\n")
    (tmp_path / "projections" / "projector.py").write_text("from replay.history import History\n")
    (tmp_path / "replay" / "history.py").write_text("from events import codec\n")

    assert cycles(tmp_path) == [["api.cli", "api.stats_cli"]]
    assert upward(tmp_path) == ["projections/projector.py:1 imports replay.history"]


#: the doors of ``api``: each a subpackage; the HTTP service and the command line never import
#: each other, and the file formats serve both without knowing either
DOORS = {"api.http": ("api.cli",), "api.cli": ("api.http",), "api.formats": ("api.http", "api.cli")}


def test_the_doors_of_api_do_not_import_each_other():
    crossings = [
        f"{name} imports {target}"
        for name, targets in imports(ROOT).items()
        for door, barred in DOORS.items()
        if name == door or name.startswith(door + ".")
        for target, _ in targets
        if any(target == b or target.startswith(b + ".") for b in barred)
    ]
    assert crossings == []


def test_each_door_of_api_says_in_one_line_what_it_holds():
    for door in (*DOORS, "api.web"):
        package = ROOT.joinpath(*door.split(".")) / "__init__.py"
        doc = ast.get_docstring(ast.parse(package.read_text(encoding="utf-8")))
        assert doc and "\n" not in doc.strip(), f"{door} needs a one-line docstring"
