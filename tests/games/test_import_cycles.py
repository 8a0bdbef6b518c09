"""games/ has no import cycles, and imports its own modules at the top only (docs/architecture.md
§11); no package of the project has one, even through imports made for type checking only.

The layers, from the bottom: tiles, the contract (`engine`) and pure helpers (`tens`,
`dozen_pairs`, `hierarchy`, `settlement`); what a deal of each game holds (its options, state
and view: `kap_deal`, `connect_deal`, …); each game's computer player (`*_ai`) and re-dealer
(`hidden/`), which read those and are given the game's `Rules` (as the small protocol of what
they ask of it) when they build a state; the games, which import their player and re-dealer;
and the levels (`heuristic`, `search`, `players`) and the simulator above them.

The graph is read with `ast` from every module of the package, from imports at the top and
inside functions alike; an import made for type checking only never runs, so the check of
games/ at run time leaves it out, and the check of every package counts it: a reader follows
it all the same. The
registry (`games/__init__.py`) finds the game modules by walking the package at run time,
which is no import by name: a module that looks a game up by id (`games.get`) imports the
registry, not the games.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support import sources

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "games"
PACKAGES = ("games", "words", "faces", "rendering", "storage", "bot")


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def type_checking_only(tree: ast.Module) -> set[int]:
    """The import statements inside `if TYPE_CHECKING:` blocks."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for part in node.body for n in ast.walk(part)
                        if isinstance(n, ast.Import | ast.ImportFrom)}
    return skipped


def imports(tree: ast.Module, name: str, is_package: bool, modules: set[str],
            types: bool = False) -> list[tuple[str, ast.stmt]]:
    """The package's modules that module `name` imports, with the statement importing each
    (`types`: also those imported for type checking only)."""
    found: list[tuple[str, ast.stmt]] = []
    skipped = set() if types else type_checking_only(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, node) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                base = name.split(".")[:len(name.split(".")) - node.level + is_package]
                source = ".".join([*base, *([source] if source else [])])
            # `from games import connecting_ai` imports the module games.connecting_ai.
            found += [(f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules
                       else source, node) for alias in node.names]
    return [(module, node) for module, node in found if module in modules]


def parsed(root: Path, *packages: str) -> dict[str, tuple[ast.Module, bool]]:
    """Module name -> its syntax tree, and whether it is a package's `__init__`."""
    return {module_name(p, root): (sources.tree(p), p.stem == "__init__")
            for package in packages for p in sorted((root / package).rglob("*.py"))}


def import_graph(root: Path = ROOT, package: str = PACKAGE, *more: str, types: bool = False
                 ) -> dict[str, set[str]]:
    """Module -> the modules of the packages it imports (`types`: for type checking too)."""
    trees = parsed(root, package, *more)
    return {name: {m for m, _ in imports(tree, name, is_package, set(trees), types)} - {name}
            for name, (tree, is_package) in trees.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every set of modules that import one another, around however many steps (the strongly
    connected components of more than one module, Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def imports_in_functions(root: Path = ROOT, package: str = PACKAGE) -> list[str]:
    """"module:line imported" for every import of the package's own modules made inside a
    function: put off until the function runs, the usual way round a cycle."""
    trees = parsed(root, package)
    found = []
    for name, (tree, is_package) in trees.items():
        inner = {id(n) for f in ast.walk(tree)
                 if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
                 for n in ast.walk(f) if isinstance(n, ast.Import | ast.ImportFrom)}
        found += [f"{name}:{node.lineno} {module}"
                  for module, node in imports(tree, name, is_package, set(trees))
                  if id(node) in inner]
    return sorted(found)


def test_games_has_no_import_cycles():
    graph = import_graph()
    assert {"games.engine", "games.kap", "games.kap_ai", "games.hidden.kap"} <= set(graph)
    assert "games.kap_ai" in graph["games.kap"] and "games.hidden.kap" in graph["games.kap"]
    assert cycles(graph) == []


def test_no_package_has_import_cycles_even_for_types():
    graph = import_graph(ROOT, *PACKAGES, types=True)
    assert {"bot.session.turns", "storage.db", "games.kap_deal"} <= set(graph)
    assert cycles(graph) == []


def test_games_imports_its_own_modules_at_the_top():
    assert imports_in_functions() == []


def test_the_checks_find_a_cycle_through_a_function(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def f():\n    from pkg.sub.c import x\n")
    (package / "sub" / "c.py").write_text("from ..a import y\n")
    (package / "d.py").write_text("from typing import TYPE_CHECKING\n"
                                  "if TYPE_CHECKING:\n    from pkg.e import z\n")
    (package / "e.py").write_text("import pkg.d\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.sub.c"] == {"pkg.a"} and graph["pkg.d"] == set()
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.sub.c"]]
    with_types = import_graph(tmp_path, "pkg", types=True)
    assert cycles(with_types) == [["pkg.a", "pkg.b", "pkg.sub.c"], ["pkg.d", "pkg.e"]]
    assert imports_in_functions(tmp_path, "pkg") == ["pkg.b:2 pkg.sub.c"]
