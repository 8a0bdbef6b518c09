"""The project's own modules as syntax trees, parsed once per test process.

A dozen checks read the code itself (the import directions, the rooms of `bot/`, the keys the
code uses, the settings it reads); parsing every module costs some 3 s, which each of them paid
again. A tree is kept for a file as long as the file is unchanged (its size and modification
time), so a check's planted file in a temporary folder is parsed afresh. The trees are shared:
read them, never change them.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path


def tree(path: Path) -> ast.Module:
    """The syntax tree of the module at `path`."""
    seen = path.stat()
    return _parsed(path.resolve(), seen.st_mtime_ns, seen.st_size)


def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of `path`'s tree, in `ast.walk`'s order."""
    seen = path.stat()
    return _walked(path.resolve(), seen.st_mtime_ns, seen.st_size)


@cache
def _parsed(path: Path, mtime: int, size: int) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@cache
def _walked(path: Path, mtime: int, size: int) -> tuple[ast.AST, ...]:
    return tuple(ast.walk(_parsed(path, mtime, size)))
