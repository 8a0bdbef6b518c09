"""What the terminal explains about the line games: the marks on their buttons, why a tile
cannot go where it was typed, and the running figures their seat panels show.

Rules sources: docs/rules-book.md §2.1 (a tile is attached where its number matches the open end; a
player who holds a tile that fits must attach one, otherwise lays one face down; the lead of a
one-arm game declares the open end), §2.3 (two arms: either open end), §2.10 (ДОМІНО: the
highest double opens, a tile that fits must be played, otherwise draw from the stock, or pass
once it is empty; a match to 100 or 50).
"""

from __future__ import annotations

from typing import Any

from faces.home import Teacher, Typed, chips_fact
from faces.moves import tile_text
from games.connect_deal import ConnectView
from games.domino import DominoView
from games.tiles import TileSet
from words.i18n import tr


def _ends(ends: tuple[int, ...]) -> str:
    return " · ".join(map(str, ends))


def _fits(tiles: TileSet, tile: int, end: int) -> bool:
    return end in (tiles.a[tile], tiles.b[tile])


def end_refusal(tiles: TileSet, ends: tuple[int, ...], typed: Typed, lang: str) -> str:
    """Why one typed tile does not go where it was typed, from the open ends alone ("" when it
    fits as typed)."""
    if len(typed.tiles) != 1:
        return tr(lang, "refuse.one_tile")
    tile = typed.tiles[0]
    face = tile_text(tiles, tile)
    if not any(_fits(tiles, tile, end) for end in ends):
        key = "refuse.fits_no_end" if len(ends) > 1 else "refuse.fits_not_end"
        return tr(lang, key, tile=face, ends=_ends(ends))
    if typed.end and len(ends) == 2:
        # An end is named by its open number, as the picture's badges and the buttons name it.
        end = int(typed.end)
        if end not in ends:
            return tr(lang, "refuse.no_such_end", end=end, ends=_ends(ends))
        if not _fits(tiles, tile, end):
            return tr(lang, "refuse.not_end", tile=face, end=end)
    if typed.end and len(ends) == 1:
        return tr(lang, "refuse.one_end", end=ends[0])
    return ""


def _not_in_hand(typed: Typed, lang: str) -> str:
    return tr(lang, "refuse.not_in_hand", face=typed.face) if typed.face else ""


class ConnectTeacher(Teacher[ConnectView[Any]]):
    """Dragon, Ce Deng and Tails."""

    def help(self, view: ConnectView[Any], lang: str) -> list[str]:
        if view.arms == 2:
            lines = ["teach.lead_both", "teach.on_end"]
        else:
            lines = ["teach.lead_open", "teach.attach_one"]
        return [tr(lang, key) for key in [*lines, "teach.drop", "teach.attach_two",
                                          "teach.connect_goal"]]

    def refusal(self, view: ConnectView[Any], typed: Typed, lang: str) -> str:
        if not typed.tiles:
            return _not_in_hand(typed, lang)
        verbs = {a.verb for a in view.legal}
        if "drop" in verbs:
            # Nothing fits: any one tile goes face down, at no end.
            return tr(lang, "refuse.drop" if len(typed.tiles) == 1 else "refuse.one_tile")
        if not view.ends:
            return tr(lang, "refuse.one_tile") if len(typed.tiles) != 1 else ""
        why = end_refusal(view.tiles, view.ends, typed, lang)
        if why and len(typed.tiles) == 1 and not any(
                _fits(view.tiles, typed.tiles[0], end) for end in view.ends):
            if view.closed is not None:
                why += " " + tr(lang, "refuse.closed", end=view.closed)
            why += " " + tr(lang, "refuse.must_attach")
        return why

    def standing(self, view: ConnectView[Any], seat: int, stake: int, lang: str) -> list[str]:
        """Tally matches count pips toward a target; the others chips, once a deal has paid
        them."""
        if view.options.settlement == "tally":
            scores = (view.match.totals(view.outcome)[0] if view.outcome is not None
                      else view.match.scores)
            return [tr(lang, "console.pips_to", pips=scores[seat], target=view.options.target)]
        return chips_fact(view, seat, stake, lang)


class DominoTeacher(Teacher[DominoView[Any]]):
    """"ДОМІНО"."""

    def help(self, view: DominoView[Any], lang: str) -> list[str]:
        draw = "teach.domino_draw" if view.options.draw == "until" else "teach.domino_draw_one"
        return [tr(lang, "teach.domino_lead"), tr(lang, "teach.on_end"),
                tr(lang, draw, button=tr(lang, "btn.draw").ljust(8)),
                tr(lang, "teach.domino_pass", button=tr(lang, "btn.pass").ljust(8)),
                tr(lang, "teach.attach_two"),
                tr(lang, "teach.domino_goal", target=view.options.target)]

    def refusal(self, view: DominoView[Any], typed: Typed, lang: str) -> str:
        if not typed.tiles:
            return _not_in_hand(typed, lang)
        if not view.ends:
            opening = [a.tiles[0] for a in view.legal if a.verb == "lead"]
            return (tr(lang, "refuse.domino_lead", tile=tile_text(view.tiles, opening[0]))
                    if opening else "")
        if view.pending is not None and typed.tiles != (view.pending,):
            return tr(lang, "refuse.pending", tile=tile_text(view.tiles, view.pending))
        why = end_refusal(view.tiles, view.ends, typed, lang)
        verbs = {a.verb for a in view.legal}
        if why and "draw" in verbs:
            why += " " + tr(lang, "refuse.then_draw")
        elif why and "pass" in verbs:
            why += " " + tr(lang, "refuse.then_pass")
        return why

    def standing(self, view: DominoView[Any], seat: int, stake: int, lang: str) -> list[str]:
        scores = (view.match.totals(view.outcome)[0] if view.outcome is not None
                  else view.match.scores)
        return [tr(lang, "console.points_to", points=scores[seat],
                   target=view.options.target)]

