"""What a deal of Ding Niu holds: its options, its state, and what one seat sees.

Apart from the rules (`games.dingniu`) so that Ding Niu's fast table (`games.dingniu_table`)
builds its states and views without importing the rules that make it. Rules source:
docs/rules-book.md §2.11 (the game, its options and the block); decisions D-20 (a block is read
from the line alone) and D-21 (a forced block is no SuanZhang).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.connect_deal import ConnectOptions, ConnectState, ConnectView
from games.engine import option


@dataclass(frozen=True)
class DingNiuOptions(ConnectOptions):
    settlement: str = option("chips", "chips: 6/1/2/3 a deal; tally: points only, no chips",
                             ("chips", "tally"))
    suanzhang: bool = option(True, "a block settles the accounts (SuanZhang); off: plain "
                             "two-armed Jie Long on 24 tiles")
    smothered: bool = option(True, "a 4 or 5 nobody can reach any more is a block too")
    doubles_after: bool = option(True, "after a full block matching doubles are still played")
    forced_counts: bool = option(False, "a block its creator could not avoid counts as "
                                 "SuanZhang too")
    strict: bool = option(False, "SuanZhang succeeds only with strictly the fewest points")
    lead_rule: bool = option(False, "no lead that only the leader's own tiles could answer")


@dataclass(frozen=True, slots=True)
class DingNiuState(ConnectState[DingNiuOptions]):
    block: str = ""
    """"full" or "smothered" once a block was made, else ""."""
    blocker: int | None = None
    """The seat whose attachment made the block."""
    forced: bool = False
    """Whether every attachment the blocker had would have made a block (死砸, D-21)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DingNiuView(ConnectView[DingNiuOptions]):
    block: str
    blocker: int | None
    forced: bool
