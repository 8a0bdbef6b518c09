"""Deals for Доміно and Tien Gow: every unseen tile dealt uniformly to the places that hold
unseen tiles (the moves of these games are not read for what the hands hold).

Rules sources: RULES.md §2.10 (Доміно: the other hands and the stock), §2.8 (Tien Gow:
face-down follows).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, cast

from games.domino import DominoState
from games.hidden.chain import _seed, hand_out
from games.tiengow import TienGowState
from games.tiles import CHINESE, WESTERN

if TYPE_CHECKING:
    from games.domino import DominoView
    from games.tiengow import TienGowView

def domino_sample(view: Any, rng: random.Random) -> Any:
    v = cast("DominoView", view)
    seat = cast(int, v.seat)
    known = set(v.hand)
    known.update(p[0] for p in v.line)
    pool = [t for t in range(WESTERN.size) if t not in known]
    rng.shuffle(pool)
    hands, at = hand_out(v.hand_counts, seat, v.hand, pool)
    stock = tuple(pool[at:])
    if len(stock) != v.stock:
        raise ValueError("the view's counts do not add up to the unseen tiles")
    return DominoState(
        options=v.options, seed=_seed(rng), players=v.players, match=v.match,
        version=v.version, leader=v.leader, turn=seat, hands=hands, stock=stock,
        line=v.line, ends=v.ends, pending=v.pending, redeals=v.redeals, done="")



def tiengow_sample(view: Any, rng: random.Random) -> Any:
    v = cast("TienGowView", view)
    seat = cast(int, v.seat)
    known = set(v.hand)
    for play in [p for t in v.history for p in t.plays] + list(v.trick):
        known.update(play.tiles)
    pool = [t for t in range(CHINESE.size) if t not in known]
    folded = sum(p.size for t in v.history for p in t.plays if not p.tiles)
    folded += sum(p.size for p in v.trick if not p.tiles)
    rng.shuffle(pool)
    hands, at = hand_out(v.hand_counts, seat, v.hand, pool)
    if len(pool) - at != folded:
        raise ValueError("the view's counts do not add up to the unseen tiles")
    # Face-down follows stay blank: nothing in the rules reads them again.
    return TienGowState(
        options=v.options, seed=_seed(rng), players=v.players, match=v.match,
        version=v.version, banker=v.banker, multiplier=v.multiplier, turn=seat,
        hands=hands, trick=v.trick, history=v.history, tricks=v.tricks)
