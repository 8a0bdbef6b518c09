"""Ding Niu's own part of the line games' home: what its SuanZhang shows and says.

Rules source: docs/rules-book.md §2.11 (Ding Niu: two open ends on a 24-tile set; SuanZhang, the
block that settles the accounts, §2.11.3; after a full block only doubles, D-22; the lead
restriction, D-25; the settlement, §2.11.6). Everything else it shows is the connecting games'
(`ConnectHome`): the line, its two badged ends, the face-down discards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, cast

from PIL import Image

from faces.home import Typed
from faces.line.board import connecting_board
from faces.line.family import ConnectHome
from faces.line.teach import ConnectTeacher
from faces.moves import tile_text
from games.dingniu import DingNiuView
from games.engine import View
from rendering import Frame
from words.i18n import tr


def _block(view: View[Any]) -> DingNiuView:
    return cast(DingNiuView, view)


def block_sentence(view: View[Any], names: Sequence[str], lang: str) -> str:
    """Who made the deal's block and what it does now ("" before any block)."""
    v = _block(view)
    if not v.block or v.blocker is None:
        return ""
    name = names[v.blocker] if v.blocker < len(names) else f"#{v.blocker + 1}"
    if v.forced and not v.options.forced_counts:
        return tr(lang, "dn.forced", name=name)
    key = "dn.full" if v.block == "full" else "dn.smothered"
    return tr(lang, key, name=name)


class DingNiuTeacher(ConnectTeacher):
    """Ding Niu: the connecting games' lessons, and the block."""

    def help(self, view: Any, lang: str) -> list[str]:
        return [*super().help(view, lang), tr(lang, "teach.dn_block")]

    def refusal(self, view: Any, typed: Typed, lang: str) -> str:
        """A tile that fits but may not go now: after a full block only doubles are played,
        and with the lead restriction a lead nobody else could ever answer is refused."""
        v = _block(view)
        if len(typed.tiles) == 1 and not any(typed.tiles[0] in a.tiles for a in v.legal):
            tile = typed.tiles[0]
            face = tile_text(v.tiles, tile)
            if not v.line and v.legal:
                return tr(lang, "refuse.dn_lead", tile=face)
            if v.block == "full" and any(a.verb == "play" for a in v.legal):
                return tr(lang, "refuse.dn_doubles", tile=face)
        return super().refusal(view, typed, lang)


class DingNiuHome(ConnectHome):
    """Ding Niu: a connecting game whose table says who blocked the line."""

    games: ClassVar[tuple[str, ...]] = ("dingniu",)
    teacher = DingNiuTeacher()
    variants: ClassVar[tuple[tuple[str, str, int], ...]] = (("dingniu", "standard", 4),
                                                            ("dingniu", "beginner", 4))

    def caption(self, view: Any, names: Sequence[str], stake: int, lang: str) -> list[str]:
        said = block_sentence(view, names, lang)
        return [said] if said else []

    def board(self, view: Any, frame: Frame) -> Image.Image:
        """The seat that blocked the line wears it on its box, in place of "leads"."""
        v = _block(view)
        if not v.block or v.blocker is None:
            return connecting_board(v, frame)
        key = "img.dn_forced" if v.forced and not v.options.forced_counts else "img.dn_block"
        return connecting_board(v, frame, {v.blocker: tr(frame.lang, key)})

    def hint(self, view: Any, lang: str) -> str:
        v = _block(view)
        if v.block == "full" and any(a.verb == "play" for a in v.legal):
            return tr(lang, "hint.dn_doubles")
        return super().hint(view, lang)

    def text_board(self, view: Any, names: Sequence[str], lang: str, me: int | None,
                   stake: int) -> list[str]:
        lines = super().text_board(view, names, lang, me, stake)
        said = block_sentence(view, names, lang)
        return [said, *lines] if said else lines


DINGNIU = DingNiuHome()
