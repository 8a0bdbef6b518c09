"""The lower layers never reach up into the session layer (docs/architecture.md §2, §8).

`games/` is the pure core, `words/` the catalogue and `tr`, `rendering/` the toolkit and `faces/`
the homes: all of them sit below `bot/`, so none may import it, not even inside a function, where
an import is easy to miss. `words/` is the base the homes and the toolkit share: it imports only
the standard library and itself, so it can never pull a higher layer in.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from tests.support import sources

ROOT = Path(__file__).resolve().parents[2]
BELOW_BOT = ("games", "words", "rendering", "faces")


def imported(path: Path) -> list[str]:
    """Every module `path` imports, at its top or anywhere inside (relative ones by their dots)."""
    names = []
    for node in sources.nodes(path):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append("." * node.level + (node.module or ""))
    return names


def modules(package: str) -> list[Path]:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, package
    return files


def test_no_layer_below_the_session_layer_imports_bot():
    reaching_up = [f"{path.relative_to(ROOT)} imports {name}"
                   for package in BELOW_BOT for path in modules(package)
                   for name in imported(path) if name.split(".")[0] == "bot"]
    assert not reaching_up, reaching_up


def test_words_imports_only_the_standard_library_and_itself():
    for path in modules("words"):
        for name in imported(path):
            top = name.split(".")[0]
            assert name.startswith(".") or top == "words" or top in sys.stdlib_module_names, \
                f"{path.relative_to(ROOT)} imports {name}"


def test_the_layer_check_catches_an_import_of_bot_inside_a_function(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from bot.i18n import tr\n    import bot.present.presenter\n",
                   encoding="utf-8")
    assert [n.split(".")[0] for n in imported(bad)] == ["bot", "bot"]
