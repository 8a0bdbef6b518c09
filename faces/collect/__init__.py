"""The home of the draw-and-discard games: Kap Ten and Kap Tai Shap (夾十, 夾大十) on the Chinese
set, and Three Dozen on the double-six set.

Rules sources: docs/rules-book.md §2.6 (Kap Ten: Culin's rules let a player take any discard and pay
for it with a discard before the compulsory draw; the classical rules only the last discard; a
winning hand is an eye and tens), §2.7 (Kap Tai Shap: up to twenty players, several sets) and §2.9
(Three Dozen: take the last discard only to lay it out as a pair, the first to three pairs wins). A
discard on the table has no hand letter, so taking it is "⤴ 6:6"; a hand tile is its letter and
face.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar, cast

from PIL import Image

from faces.collect import en, uk
from faces.collect.board import kap_board, threedozen_board
from faces.collect.teach import KapTeacher, ThreeDozenTeacher
from faces.collect.winning import kap_worth, winning_groups
from faces.home import Home, Letters, seat_lines
from faces.moves import Namer, faces_of, pairs_text, tile_text
from faces.samples import SEEDS, Step, sample_deal, won
from games.engine import Action, Event, Rules
from games.kap_deal import KapTaiShapOptions, KapView
from games.tens import values
from games.threedozen_deal import ThreeDozenView
from rendering import Frame, hand_image
from words.catalogue import add
from words.i18n import signed, tr

add({"en": en.COLLECT, "uk": uk.COLLECT})

TILES_PER_ROW = 12
"""Discards printed on one row of text."""
CollectView = TypeVar("CollectView", KapView, ThreeDozenView)


class CollectHome(Home[CollectView]):
    """What the collecting games show alike: the discards, the stock, the pot."""


    def label(self, action: Action, letters: Letters, view: CollectView, lang: str) -> str:
        """"⤴ 6:6" takes from the discards (a pile tile has no hand letter; "⤴ 1:0 + C 6:5"
        also lays out its partner), "A 6:6 ↓" discards, "A+B 3:3 4:4" lays out a pair."""
        def lettered(tile: int) -> str:
            return f"{letters.get(tile, '?')} {tile_text(view.tiles, tile)}"

        if action.verb == "take":
            first, *partners = action.tiles
            return (f"⤴ {tile_text(view.tiles, first)}"
                    + "".join(f" + {lettered(t)}" for t in partners))
        if action.verb == "meld":
            joined = "+".join(letters.get(t, "?") for t in action.tiles)
            return f"{joined} " + " ".join(tile_text(view.tiles, t) for t in action.tiles)
        if action.verb == "discard":
            return " ".join(map(lettered, action.tiles)) + " ↓"
        return tr(lang, "btn.draw_stock")

    def stock_line(self, view: CollectView, stake: int, lang: str) -> str:
        """The deal's state in one line: the rule facts first, then the turn, the stock and
        the pot in chips (the view counts it in antes or stakes)."""
        facts = [*self.rule_facts(view, lang), tr(lang, "table.turn", view.turns),
                 tr(lang, "table.stock", view.stock), tr(lang, "table.pot", view.pot * stake),
                 *self.stock_facts(view, lang)]
        return " · ".join(facts)

    def rule_facts(self, view: CollectView, lang: str) -> list[str]:
        return []

    def stock_facts(self, view: CollectView, lang: str) -> list[str]:
        return []

    def text_board(self, view: CollectView, names: Sequence[str], lang: str, me: int | None,
                   stake: int) -> list[str]:
        """The discards (those the player to move may take marked ⤴), the stock and the pot,
        and every seat's tiles."""
        takeable = set(view.takeable)
        shown = [("⤴" if t in takeable else "") + tile_text(view.tiles, t)
                 for t, _ in view.pile]
        rows: list[str] = [" ".join(shown[i:i + TILES_PER_ROW])
                           for i in range(0, len(shown), TILES_PER_ROW)]
        lines: list[str]
        if not rows:
            lines = [tr(lang, "console.discards_empty")]
        else:
            key = "console.discards_take" if takeable else "console.discards"
            lines = [tr(lang, key, tiles=rows[0]), *(f"  {row}" for row in rows[1:])]
        lines.append(self.stock_line(view, stake, lang))

        def counted(seat: int) -> list[str]:
            return [tr(lang, "console.tiles", view.hand_counts[seat]),
                    *self.seat_facts(view, seat, lang),
                    *self.teacher.standing(view, seat, stake, lang)]

        return [*lines, *seat_lines(view, names, lang, me, counted),
                *self.closing_lines(view, names, lang)]

    def seat_facts(self, view: CollectView, seat: int, lang: str) -> list[str]:
        return []

    def closing_lines(self, view: CollectView, names: Sequence[str], lang: str) -> list[str]:
        return []

    def samples(self, rules: Rules[Any, Any], options: Any, players: int, seed: str
                ) -> dict[str, Step]:
        """Of a few seeds the longest won deal (the longest void one if none was won): the
        opening, a turn two thirds in where the player may take a discard (the pile is long
        and, in Three Dozen, pairs are laid by then), the last time a Kap player took a
        discard (his hand marks the tile he may not throw back), and the end with its winning
        hand."""
        deals = [sample_deal(rules, options, players, f"{seed}/{k}") for k in range(SEEDS)]
        wins = [d for d in deals if won(rules, d[-1])]
        steps = max(wins or deals, key=len)

        def seen(step: Step) -> CollectView:
            return cast(CollectView, rules.view(step.state, None))
        samples = {"opening": steps[0]}
        offers = [step for step in steps[:-1] if seen(step).takeable]
        if offers:
            samples["middle"] = offers[len(offers) * 2 // 3]
        takes = [step for step in steps[:-1] if self.taken(seen(step)) is not None]
        if takes:
            samples["picked"] = takes[-1]
        samples["end"] = steps[-1]
        return samples

    def taken(self, view: CollectView) -> int | None:
        """The tile just taken from the discards that may not go straight back, if any."""
        return None

    def ringed(self, event: Event) -> tuple[int, ...]:
        return event.tiles if event.kind in ("discard", "take", "meld") else ()


class KapHome(CollectHome[KapView]):
    games = ("kapten", "kaptaishap")
    teacher = KapTeacher()
    variants = (("kapten", "culin", 2), ("kapten", "classical", 2),
                ("kaptaishap", "classical", 10), ("kaptaishap", "culin", 20),
                ("kaptaishap", "classical", 20))

    def hint(self, view: KapView, lang: str) -> str:
        """The turn's step: under Culin's rules a take is paid for by a discard before the
        compulsory draw ("swap"), and the first player's first turn starts with that
        discard."""
        if view.phase == "open":
            # Nothing face up yet (the first turn of an even deal): the draw is the only move.
            opening = "hint.kap_culin" if view.options.rules == "culin" else "hint.kap_classical"
            return tr(lang, opening if view.takeable else "hint.kap_draw")
        if view.phase == "swap":
            return tr(lang, "hint.kap_first" if view.taken is None else "hint.kap_swap")
        return tr(lang, "hint.discard" if view.taken is None else "hint.kap_taken")

    def named(self, view: KapView, lang: str) -> Namer:
        """A tile by its face, and by what it counts where the face says otherwise: "[4:2] (counts
        3)" (docs/rules-book.md §2.6; the `four_two` option may make it count its six pips)."""
        counts = values(view.options.four_two)
        kinds, plain = view.tiles.kind_of, faces_of(view.tiles)

        def named(tiles: Sequence[int]) -> str:
            return " ".join(
                tr(lang, "tile.counts", tile=plain((t,)), value=counts[kinds[t]])
                if counts[kinds[t]] != view.tiles.pips[t] else plain((t,)) for t in tiles)
        return named

    def rule_facts(self, view: KapView, lang: str) -> list[str]:
        """The rule set (it decides which discards may be taken) and, in Kap Tai Shap, the
        sets shuffled together."""
        facts = [tr(lang, "table.culin" if view.options.rules == "culin"
                    else "table.classical")]
        if isinstance(view.options, KapTaiShapOptions):
            facts.append(tr(lang, "table.sets", view.sets))
        return facts

    def caption(self, view: KapView, names: Sequence[str], stake: int, lang: str
                ) -> list[str]:
        """Besides the stock, the winning hand once the deal is won: the picture shows the
        tiles, the caption says how they pair."""
        return [self.stock_line(view, stake, lang), *self.closing_lines(view, names, lang)]

    def closing_lines(self, view: KapView, names: Sequence[str], lang: str) -> list[str]:
        """The winning hand laid out as eye and tens, once the deal is won."""
        winners = view.outcome.winners if view.outcome is not None else ()
        if view.winning is None or not winners:
            return []
        eye, tens = view.winning
        return [tr(lang, "table.winning", name=names[winners[0]],
                   eye=pairs_text(view.tiles, eye),
                   tens=pairs_text(view.tiles, [t for pair in tens for t in pair]))]

    def taken(self, view: KapView) -> int | None:
        return view.taken

    def board(self, view: KapView, frame: Frame) -> Image.Image:
        return kap_board(view, frame)

    def hand(self, view: KapView, frame: Frame) -> Image.Image:
        return hand_image(view, frame, taken=view.taken, worth=self.worth(view))

    def worth(self, view: KapView) -> Mapping[int, int]:
        """`[4:2]` counts 3 (docs/rules-book.md §2.6), unless the `four_two` option counts its
        pips."""
        return kap_worth(view)

    def points_column(self, lang: str) -> str:
        return tr(lang, "img.won_paid_column")

    def points(self, n: int) -> str:
        """Kap's points are the chips themselves, won or paid, so they carry a sign."""
        return signed(n)

    def revealed(self, view: KapView, seat: int) -> tuple[int, ...]:
        """The winner's hand, eye first and then its tens, as the table lays it out."""
        result = view.outcome
        if result is None or seat not in result.winners[:1]:
            return ()
        return tuple(t for group in winning_groups(view) for t in group)


class ThreeDozenHome(CollectHome[ThreeDozenView]):
    games = ("threedozen",)
    teacher = ThreeDozenTeacher()
    variants = (("threedozen", "standard", 4), ("threedozen", "forced-pickup", 5))

    def hint(self, view: ThreeDozenView, lang: str) -> str:
        """Whether the last discard may (or must) be taken depends on the seat's own tiles,
        so the hint reads the legal moves rather than the pile."""
        if view.phase == "open":
            verbs = {a.verb for a in view.legal}
            if "take" not in verbs:
                return tr(lang, "hint.td_draw")
            return tr(lang, "hint.td_open" if "draw" in verbs else "hint.td_forced")
        if view.phase == "meld":
            return tr(lang, "hint.td_meld")
        return tr(lang, "hint.discard")

    def stock_facts(self, view: ThreeDozenView, lang: str) -> list[str]:
        return [tr(lang, "table.reshuffles", view.reshuffles)] if view.reshuffles else []

    def caption(self, view: ThreeDozenView, names: Sequence[str], stake: int, lang: str
                ) -> list[str]:
        """Besides the stock, the pairs every seat has laid out: they are public and tell who
        is close to winning."""
        laid = " · ".join(f"{name} {laid_pairs(view, seat) or '—'}"
                          for seat, name in enumerate(names))
        return [self.stock_line(view, stake, lang), tr(lang, "table.pairs", pairs=laid)]

    def seat_facts(self, view: ThreeDozenView, seat: int, lang: str) -> list[str]:
        pairs = laid_pairs(view, seat)
        return [tr(lang, "console.pairs", pairs=pairs)] if pairs else []

    def board(self, view: ThreeDozenView, frame: Frame) -> Image.Image:
        return threedozen_board(view, frame)

    def points_column(self, lang: str) -> str:
        return tr(lang, "img.pairs_column")

    def revealed(self, view: ThreeDozenView, seat: int) -> tuple[int, ...]:
        """The pairs each seat laid out: the pairs column counts them."""
        return tuple(t for pair in view.melds[seat] for t in pair)


def laid_pairs(view: ThreeDozenView, seat: int) -> str:
    """"[3:3][4:4] [6:0][5:1]": the pairs a seat has laid out, "" when none."""
    return pairs_text(view.tiles, [t for pair in view.melds[seat] for t in pair])


KAP = KapHome()
THREE_DOZEN = ThreeDozenHome()
HOMES = (KAP, THREE_DOZEN)
"""This family's homes (`faces.HOMES` finds them here)."""
