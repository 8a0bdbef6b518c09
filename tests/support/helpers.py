"""Small builders shared by the rules tests: tiles by name, finished deals with chosen discards,
and tables whose hidden tiles are dealt anew."""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

from bot.present.screens import Button, Move
from games.connect_deal import ConnectOptions, ConnectState
from games.connecting import ConnectingRules
from games.tiles import TileSet


def ids(tileset: TileSet, *specs: str) -> list[int]:
    """Tile ids for kinds written "63", taking the next free copy when a kind repeats."""
    taken: list[int] = []
    for spec in specs:
        hi, lo = int(spec[0]), int(spec[1])
        free = [t for t in tileset.ids_of(hi, lo) if t not in taken]
        assert free, f"no copy of {spec} left"
        taken.append(free[0])
    return taken


def finished(rules: ConnectingRules, options: ConnectOptions, discards: list[list[str]],
             leader: int = 0) -> ConnectState:
    """A deal played out with these face-down discards (everything else went on the line)."""
    tileset = rules.tileset(options)
    flat = ids(tileset, *[spec for seat in discards for spec in seat])
    per_seat: list[tuple[int, ...]] = []
    start = 0
    for seat in discards:
        per_seat.append(tuple(flat[start:start + len(seat)]))
        start += len(seat)
    state = rules.deal_from(options, [[] for _ in discards], leader=leader)
    return dataclasses.replace(state, discards=tuple(per_seat), done="out")


def hidden_twin(state: Any, seat: int | None, rnd: random.Random) -> Any:
    """The same table with every tile `seat` cannot see (other hands and the stock) dealt again
    among those places: a view that changes under it leaks a hidden tile."""
    slots = [s for s in range(state.players) if s != seat]
    pool = [t for s in slots for t in state.hands[s]] + list(state.stock)
    rnd.shuffle(pool)
    hands = list(state.hands)
    for s in slots:
        size = len(hands[s])
        hands[s], pool = tuple(sorted(pool[:size])), pool[size:]
    return dataclasses.replace(state, hands=tuple(hands), stock=tuple(pool))


def short_match(rules: Any, deals: int = 1) -> list[str]:
    """The `name=value` words that end a match soon: after `deals` deals, or at the least
    target a game takes where it counts no deals."""
    fields = {f.name: f for f in dataclasses.fields(rules.options_type)}
    if "deals" in fields:
        return [f"deals={deals}"]
    target = fields["target"].metadata
    return [f"target={min(target['choices']) if target['choices'] else target['lo']}"]


_LETTERS = re.compile(r"(?:[A-Z]\d*)+")
_FACES = re.compile(r"\d:\d")


def read(label: str, data: str) -> Button:
    """A move button as a player reads its label ("A 6:1 on 1", "⤴ 1:0 + C 6:5",
    "A+B 3:3 4:4", "Draw"): the hand letters, the faces and the end it names (by its open
    number), as the bot puts them in its data."""
    on = re.search(r" on (\d)$", label)
    end = on[1] if on else ""
    label_tiles = label[:on.start()] if on else label
    letters = tuple(t for t in label_tiles.replace("+", " ").split() if _LETTERS.fullmatch(t))
    return Button(label, data, move=Move(letters, tuple(_FACES.findall(label)), end))
