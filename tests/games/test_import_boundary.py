"""games/ is pure: standard library only, no I/O, clock or global randomness (docs/architecture.md
§1.1)."""

import ast
import sys
from pathlib import Path

from tests.support import sources

GAMES = Path(__file__).resolve().parents[2] / "games"
FORBIDDEN_MODULES = {"asyncio", "bot", "rendering", "storage", "telegram", "discord", "PIL",
                     "aiosqlite", "logging", "time", "datetime", "os", "sqlite3", "socket",
                     "threading", "subprocess"}


def _imports(path: Path) -> list[str]:
    names = []
    for node in sources.nodes(path):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_games_imports_only_the_standard_library_and_itself():
    files = sorted(GAMES.glob("**/*.py"))
    assert files
    for path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            assert top not in FORBIDDEN_MODULES, f"{path.name} imports {name}"
            assert top == "games" or top in sys.stdlib_module_names, f"{path.name}: {name}"


def test_games_never_uses_the_global_random_generator():
    for path in sorted(GAMES.glob("**/*.py")):
        for node in sources.nodes(path):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "random" and node.attr != "Random"):
                raise AssertionError(f"{path.name} uses random.{node.attr}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("hash", "print", "open", "input"), path.name


def test_the_boundary_check_catches_a_forbidden_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import asyncio\nfrom PIL import Image\n", encoding="utf-8")
    assert {"asyncio", "PIL"} <= {n.split(".")[0] for n in _imports(bad)}
