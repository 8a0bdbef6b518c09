"""What the terminal explains about the collecting games: the marks on their buttons, why a
typed tile or discard is no move now, and the running chips their seat panels show.

Rules sources: docs/rules-book.md §2.6 (Kap Ten: under Culin's rules any face-up discard may be
taken, paid for with another discard, then the compulsory draw; under the classical rules the last
discard or the stock; a winning hand is an eye and tens, [4:2] counting 3), §2.7 (Kap Tai Shap: ten
tiles, four tens) and §2.9 (Three Dozen: only the last discard, and only to lay it out at once as a
pair; a pair is two neighbouring doubles or twelve pips together; three pairs win).
"""

from __future__ import annotations

from faces.home import Teacher, Typed, chips_fact
from faces.moves import tile_text
from games.dozen_pairs import is_pair
from games.kap_deal import KapTaiShapOptions, KapView
from games.threedozen_deal import ThreeDozenView
from words.i18n import tr


def _same_face(typed: str, face: str) -> bool:
    """"1:2" names the tile written "2:1"."""
    return typed in (face, ":".join(reversed(face.split(":"))))


def _draw(lang: str) -> str:
    """The draw button's own words, then what it does."""
    return tr(lang, "teach.draw_stock", button=tr(lang, "btn.draw_stock"))


def _face_refusal(view: KapView | ThreeDozenView, face: str, lang: str, only_last: bool,
                  rules: str = "") -> str:
    """Why a face typed is not a discard to take now: not on the table, not the last one (by
    `rules`, when they are named), or not at this step of the turn."""
    pile = [tile_text(view.tiles, t) for t, _ in view.pile]
    if not any(_same_face(face, shown) for shown in pile):
        return tr(lang, "refuse.no_such_discard", face=face)
    if view.phase != "open":
        return tr(lang, "refuse.take_first")
    if only_last and not _same_face(face, pile[-1]):
        return " ".join(filter(None, (tr(lang, "refuse.only_last", face=face, last=pile[-1]),
                                      rules)))
    return ""


class KapTeacher(Teacher[KapView]):
    """Kap Ten and Kap Tai Shap."""

    def help(self, view: KapView, lang: str) -> list[str]:
        culin = view.options.rules == "culin"
        big = isinstance(view.options, KapTaiShapOptions)
        return [tr(lang, "teach.kap_take_culin" if culin else "teach.kap_take_classical"),
                tr(lang, "teach.discard"), _draw(lang), tr(lang, "teach.kap_marks"),
                tr(lang, "teach.kap_goal", tiles=10 if big else 8, tens=4 if big else 3,
                   four_two=view.options.four_two)]

    def refusal(self, view: KapView, typed: Typed, lang: str) -> str:
        if not typed.tiles:
            if not typed.face:
                return ""
            classical = view.options.rules != "culin"
            return _face_refusal(view, typed.face, lang, classical,
                                 tr(lang, "refuse.classical") if classical else "")
        if view.phase == "open":
            return tr(lang, "refuse.kap_first")
        if len(typed.tiles) > 1:
            return tr(lang, "refuse.one_discard")
        if view.taken is not None:
            taken = tile_text(view.tiles, view.taken)
            if tile_text(view.tiles, typed.tiles[0]) == taken:
                return tr(lang, "refuse.kap_taken", tile=taken)
        return ""

    def standing(self, view: KapView, seat: int, stake: int, lang: str) -> list[str]:
        return chips_fact(view, seat, stake, lang)


class ThreeDozenTeacher(Teacher[ThreeDozenView]):
    """Three Dozen."""

    def help(self, view: ThreeDozenView, lang: str) -> list[str]:
        return [tr(lang, "teach.td_take"), tr(lang, "teach.td_meld"), tr(lang, "teach.discard"),
                _draw(lang), tr(lang, "teach.td_marks"), tr(lang, "teach.td_goal")]

    def refusal(self, view: ThreeDozenView, typed: Typed, lang: str) -> str:
        if not typed.tiles:
            if not typed.face:
                return ""
            why = _face_refusal(view, typed.face, lang, True)
            if why or view.phase != "open":
                return why
            return tr(lang, "refuse.td_no_partner", face=typed.face)
        if view.phase == "open":
            return tr(lang, "refuse.td_first")
        if view.phase == "meld":
            if len(typed.tiles) != 2:
                return tr(lang, "refuse.td_two")
            first, second = typed.tiles
            if not is_pair(first, second):
                return tr(lang, "refuse.td_not_pair", first=tile_text(view.tiles, first),
                          second=tile_text(view.tiles, second))
            return ""
        return tr(lang, "refuse.one_discard") if len(typed.tiles) > 1 else ""

    def standing(self, view: ThreeDozenView, seat: int, stake: int, lang: str) -> list[str]:
        return chips_fact(view, seat, stake, lang)
