"""The pure rules core: tile sets, the game contract, the games, computer players, the simulator.

Standard library only (docs/architecture.md §1, invariant 1), as
`tests/games/test_import_boundary.py` checks.

The games are found, not listed: every module of this package is imported once, and each
concrete `Rules` class it defines with an `id` of its own is a game, in the order its `order`
says. Adding a game is writing its module.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from typing import Any

from games.engine import InvalidOptions, Rules

GAMES: dict[str, Rules[Any, Any]] = {}
"""Game id -> its rules, in the order lists of games show them."""


def get(name: str) -> Rules[Any, Any]:
    """A game by id or alias (Ukrainian and Chinese aliases too)."""
    key = name.strip().lower()
    for rules in GAMES.values():
        if key == rules.id or key in rules.aliases:
            return rules
    raise InvalidOptions(f"unknown game {name!r} (known: {', '.join(GAMES)})")


def _found() -> list[type[Rules[Any, Any]]]:
    found = []
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        found += [cls for _, cls in inspect.getmembers(module, inspect.isclass)
                  if issubclass(cls, Rules) and cls.__module__ == module.__name__
                  and "id" in vars(cls) and not inspect.isabstract(cls)]
    return sorted(found, key=lambda cls: (cls.order, cls.id))


GAMES.update((cls.id, cls()) for cls in _found())
