"""No module of the project imports, through others, a module that imports it.

A circle makes a module's meaning depend on which end is imported first, and hides which of two
modules is the lower one. Every import counts, at a module's top, inside a function or under
`TYPE_CHECKING`: each is a dependency a reader has to follow (docs/architecture.md §2).
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "faces", "rendering", "storage", "words", "bot")


def modules(root: Path) -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules `name` imports (a name imported from a package counts as the
    package, unless it is a module of it)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                base = ".".join(here[:len(here) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                found.add(target)
    return found


def circle(root: Path) -> list[str] | None:
    """One circle of imports among the project's modules, or None."""
    known = modules(root)
    graph = {name: imports(name, path, known) for name, path in known.items()}
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as error:
        return list(error.args[1])
    return None


def test_no_module_imports_itself_through_others() -> None:
    assert circle(ROOT) is None


def test_the_check_finds_a_circle_under_type_checking(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    for package in PACKAGES:
        (tmp_path / package).mkdir(exist_ok=True)
    (tmp_path / "games" / "kap.py").write_text("from games import kap_ai\n", encoding="utf-8")
    (tmp_path / "games" / "kap_ai.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from games.kap import KapView\n",
        encoding="utf-8")
    assert circle(tmp_path) is not None
    (tmp_path / "games" / "kap_ai.py").write_text("", encoding="utf-8")
    assert circle(tmp_path) is None
