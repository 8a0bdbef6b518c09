"""The homes of the trick games: Tien Gow (天九: tricks, pairs, mixed combinations and a banker)
here, and Deer Hunt (鹿狩り, two partnerships and red pips) in `deerhunt`.

Rules sources: docs/rules-book.md §2.8 and §2.12. In Tien Gow the leader plays one to four tiles;
every other seat follows with as many, face up when the play beats the best so far ("▲ A 6:6"),
otherwise face down ("↓ A B", any tiles of the hand). A hand of eight answering a lead of four has
seventy face-down choices, so the moves come in groups: the beating plays, then the face-down ones
by their first letters.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from PIL import Image

from faces.home import MAX_MOVES, Groups, Home, Letters, seat_lines
from faces.moves import Namer, tile_text
from faces.samples import SEEDS, Step, sample_deal
from faces.trick import en, uk
from faces.trick.board import tiengow_board
from faces.trick.deerhunt import DEER
from faces.trick.names import play_words
from faces.trick.teach import TrickTeacher
from games.engine import Action, Event, Rules
from games.tiengow import dead
from games.tiengow_deal import Play, TienGowView
from rendering import Frame
from words.catalogue import add
from words.i18n import tr

add({"en": en.TRICK, "uk": uk.TRICK})


class TrickHome(Home[TienGowView]):
    games = ("tiengow",)
    teacher = TrickTeacher()
    variants = (("tiengow", "modern", 4),)

    def label(self, action: Action, letters: Letters, view: TienGowView, lang: str) -> str:
        """"A B 6:2 5:3" for a lead, "▲ A 6:6" for a beating follow, "↓ A B" face down (tile
        faces only while they fit: the letters match the hand picture)."""
        shown = " ".join(letters.get(t, "?") for t in action.tiles)
        faces = " ".join(tile_text(view.tiles, t) for t in action.tiles)
        if action.verb == "fold":
            return f"↓ {shown} {faces}" if len(action.tiles) <= 2 else f"↓ {shown}"
        mark = "▲ " if action.verb == "beat" else ""
        return f"{mark}{shown} {faces}"

    def groups(self, legal: Sequence[Action], letters: Letters, lang: str) -> Groups:
        """Leads by how many tiles they use; follows as the beating plays, then the face-down
        choices grouped by their first letters, as few letters as keep both screens within
        `MAX_MOVES`. A hand of eight answering a lead of four has 70 face-down choices: 21
        groups of at most 15."""
        groups: Groups = {}
        if legal and legal[0].verb == "lead":
            for action in legal:
                size = len(action.tiles)
                groups.setdefault(str(size), (tr(lang, "group.tiles", size), []))[1].append(
                    action)
            return groups
        beats = [a for a in legal if a.verb == "beat"]
        folds = [a for a in legal if a.verb == "fold"]
        if beats:
            groups["up"] = (tr(lang, "group.beat"), beats)
        size = len(folds[0].tiles) if folds else 0
        split: Groups = {}
        for prefix in range(size + 1):
            split = {}
            for action in folds:
                first = [letters.get(t, "?") for t in action.tiles[:prefix]]
                key = "d" + "".join(first)
                label = "↓ " + " ".join(first) + " …" if first else "↓ …"
                split.setdefault(key, (label, []))[1].append(action)
            if (max(len(acts) for _, acts in split.values()) <= MAX_MOVES
                    and len(split) + len(groups) <= MAX_MOVES):
                break
        groups.update(split)
        return groups

    def named(self, view: TienGowView, lang: str) -> Namer:
        """Tien Gow's own names: "[6:6] Heaven", "[6:2] [5:3] pair of Eights"."""
        return lambda tiles: play_words(tiles, lang, view.options.mixed)

    def hint(self, view: TienGowView, lang: str) -> str:
        if not view.trick:
            return tr(lang, "hint.tg_lead")
        lead = view.trick[0].size
        if view.seat is not None and dead(view.options, lead, len(view.hand),
                                          view.tricks[view.seat]):
            return tr(lang, "hint.tg_dead")
        return tr(lang, "hint.tg_follow", lead)

    def caption(self, view: TienGowView, names: Sequence[str], stake: int, lang: str
                ) -> list[str]:
        """The banker and the tricks taken."""
        tricks = " · ".join(f"{name} {n}" for name, n in zip(names, view.tricks, strict=True))
        return [tr(lang, "table.banker", name=names[view.banker], multiplier=view.multiplier),
                tr(lang, "table.tricks", tricks=tricks)]

    def text_board(self, view: TienGowView, names: Sequence[str], lang: str, me: int | None,
                   stake: int) -> list[str]:
        """The trick on the table (or the last one taken), the banker, and every seat's tiles
        and tricks. Face-down plays show only their size unless they are `me`'s."""
        def shown(play: Play) -> str:
            name = names[play.seat] if play.seat < len(names) else f"#{play.seat + 1}"
            faces = " ".join(tile_text(view.tiles, t) for t in play.tiles)
            if play.up:
                return f"{name} {faces}"
            return f"{name} ↓{faces or play.size}"

        if view.trick:
            lines = [tr(lang, "console.trick", plays=" · ".join(map(shown, view.trick)))]
        elif view.history:
            last = view.history[-1]
            lines = [tr(lang, "console.last_trick", name=names[last.winner],
                        plays=" · ".join(map(shown, last.plays)))]
        else:
            lines = [tr(lang, "console.trick_empty")]
        lines.append(tr(lang, "table.banker", name=names[view.banker],
                        multiplier=view.multiplier))
        return lines + seat_lines(view, names, lang, me, lambda seat: [
            tr(lang, "console.tiles", view.hand_counts[seat]),
            tr(lang, "console.tricks", view.tricks[seat]),
            *self.teacher.standing(view, seat, stake, lang)])

    def board(self, view: TienGowView, frame: Frame) -> Image.Image:
        return tiengow_board(view, frame)

    def points_column(self, lang: str) -> str:
        return tr(lang, "img.tricks_column")

    def samples(self, rules: Rules[Any, Any], options: Any, players: int, seed: str
                ) -> dict[str, Step]:
        """The first deal gives the banker about to lead, the first trick just taken and the
        end; the trick in progress comes from the following deal, with a face-down play of two
        or more tiles and a seat still to play, the case a table picture has most to show (a
        few seeds are tried for it)."""
        for k in range(SEEDS):
            samples = self._samples(rules, options, players, f"{seed}/{k}")
            if "trick" in samples:
                break
        return samples

    def _samples(self, rules: Rules[Any, Any], options: Any, players: int, seed: str
                 ) -> dict[str, Step]:
        first = sample_deal(rules, options, players, seed)
        second = sample_deal(rules, options, players, f"{seed}/2",
                             rules.next_match(first[-1].state))

        def seen(step: Step) -> TienGowView:
            return cast(TienGowView, rules.view(step.state, None))
        samples = {"opening": first[0]}
        samples["taken"] = next(step for step in first[1:]
                                if not seen(step).trick and seen(step).history)
        busy = [step for step in second if _busy_trick(seen(step), players)]
        if busy:
            samples["trick"] = max(busy, key=lambda step: len(seen(step).trick))
        samples["end"] = first[-1]
        return samples

    def ringed(self, event: Event) -> tuple[int, ...]:
        return event.tiles if event.kind in ("lead", "beat") else ()


def _busy_trick(view: TienGowView, players: int) -> bool:
    """A trick in progress, led with two or more tiles, with a face-down play among them."""
    trick = view.trick
    return (1 < len(trick) < players and trick[0].size > 1
            and any(not play.up for play in trick))


TRICK = TrickHome()
HOMES = (TRICK, DEER)
"""This family's homes (`faces.HOMES` finds them here)."""
