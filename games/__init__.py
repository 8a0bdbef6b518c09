"""The pure rules core: tile sets, the game contract, the games, computer players, the simulator.

Standard library only (DESIGN.md §1, invariant 1; `tests/test_import_boundary.py` enforces it).
"""

from __future__ import annotations

from typing import Any

from games.cedeng import CeDeng
from games.domino import Domino
from games.dragon import Dragon
from games.engine import InvalidOptions, Rules
from games.kap import KapTaiShap, KapTen
from games.tails import Tails
from games.threedozen import ThreeDozen
from games.tiengow import TienGow

GAMES: dict[str, Rules[Any, Any]] = {
    r.id: r for r in (Dragon(), CeDeng(), Tails(), KapTen(), KapTaiShap(), TienGow(), ThreeDozen(),
                      Domino())
}


def get(name: str) -> Rules[Any, Any]:
    """A game by id or alias (Ukrainian and Chinese aliases too)."""
    key = name.strip().lower()
    for rules in GAMES.values():
        if key == rules.id or key in rules.aliases:
            return rules
    raise InvalidOptions(f"unknown game {name!r} (known: {', '.join(GAMES)})")
