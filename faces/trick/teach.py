"""What the terminal explains about Tien Gow: the marks on its buttons and its table, why typed
tiles are no lead or follow, and the running chips its seat panels show.

Rules source: docs/rules-book.md §2.8 (a lead is one tile, a pair or a mixed combination of one
family; every follow has as many tiles, face up when it beats the best play so far, otherwise face
down; the last trick wins the deal).
"""

from __future__ import annotations

from faces.home import Teacher, Typed, chips_fact
from faces.moves import tile_text
from games.hierarchy import classify
from games.tiengow_deal import TienGowView
from words.i18n import tr

MOST_LED = 4
"""The most tiles a lead may have (a four-tile combination)."""


class TrickTeacher(Teacher[TienGowView]):
    def help(self, view: TienGowView, lang: str) -> list[str]:
        keys = ["teach.tg_lead_mixed" if view.options.mixed else "teach.tg_lead_pure",
                "teach.tg_beat", "teach.tg_fold", "teach.tg_groups", "teach.tg_marks",
                "teach.tg_goal"]
        return [tr(lang, key) for key in keys]

    def refusal(self, view: TienGowView, typed: Typed, lang: str) -> str:
        if not typed.tiles:
            return tr(lang, "refuse.not_in_hand", face=typed.face) if typed.face else ""
        if view.trick:
            size = view.trick[0].size
            if len(typed.tiles) != size:
                return tr(lang, "refuse.tg_size", size, typed=len(typed.tiles))
            return ""
        faces = " ".join(f"[{tile_text(view.tiles, t)}]" for t in typed.tiles)
        if len(typed.tiles) > MOST_LED:
            return tr(lang, "refuse.tg_too_many", most=MOST_LED)
        if classify(typed.tiles, view.options.mixed) is None:
            key = "refuse.tg_no_combo_mixed" if view.options.mixed else "refuse.tg_no_combo"
            return tr(lang, key, tiles=faces)
        return ""

    def standing(self, view: TienGowView, seat: int, stake: int, lang: str) -> list[str]:
        return chips_fact(view, seat, stake, lang)
