"""`.env.example` documents every setting the code reads (tried as a new user would: the
terminal's `GUPAI_CONSOLE_DB` was read but documented nowhere). The sections it sends a reader
to are held to their documents' headings by `tests/test_docs.py`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.support import sources
from tests.test_container import documented

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "games", "faces", "words", "rendering", "storage")
SETTING = re.compile(r"\b(?:GUPAI|TELEGRAM|DISCORD)_[A-Z0-9_]+\b")


def code_files() -> list[Path]:
    return [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]


def settings_read() -> set[str]:
    """Every setting name in the code's strings: what it reads from the environment or `.env`
    (`"GUPAI_DB"`, or `TELEGRAM_TOKEN` as an f-string builds it) and what it tells people to
    set."""
    names: set[str] = set()
    for path in code_files():
        for node in sources.nodes(path):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                names.update(SETTING.findall(node.value))
    return names


def test_every_setting_the_code_reads_is_documented() -> None:
    read = settings_read()
    assert {"GUPAI_DB", "TELEGRAM_TOKEN", "GUPAI_CONSOLE_DB", "GUPAI_WEB_STREAMS"} <= read
    assert read - documented() == set()
