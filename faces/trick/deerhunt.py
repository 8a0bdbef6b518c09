"""The home of Deer Hunt (鹿狩り), the trick family's partnership game: what its table, its hands
and its terminal show.

Rules source: docs/rules-book.md §2.12 (two partnerships, partners opposite; one tile each to a
trick, any tile, face up; the highest takes it; the red pips of the tricks a team took are its
score, §1.4; deer escaped, D-32/D-33). A move is one tile, so a button names its letter, its face
and the red pips it carries ("A 6:4 · 4 red"). Who plays with whom is said wherever a player looks:
the table's caption names both teams with their red pips, the picture marks every seat, name and
taken trick with its team's colour and letter, the hand says whom its holder plays with, and the
terminal lists the teams above the seats. The partnerships themselves are the rules'
(`Rules.teams`), read here as everywhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from PIL import Image, ImageDraw

from faces.home import Home, Letters, Teacher, Typed, chips_fact, seat_lines, team_name
from faces.moves import Namer, describe, tile_text
from faces.samples import SEEDS, Step, sample_deal
from faces.trick.deer_board import deerhunt_board
from games.deerhunt_deal import DeerHuntView
from games.deerhunt_tiles import PLAYERS, RED, TEAM, partner
from games.engine import Action, Event, Rules
from rendering import Frame, hand_image
from rendering.canvas import PAD, team_edge
from rendering.text import draw_text, font, printable, width
from rendering.theme import theme
from words.i18n import tr

BAND = 56
"""The band above a hand that says whom its holder plays with and how the hunt stands."""
PARTNER_SIZE, SCORE_SIZE = 22, 24


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else f"#{seat + 1}"


def members(names: Sequence[str], team: int) -> str:
    return " & ".join(_name(names, s) for s in range(PLAYERS) if TEAM[s] == team)


def score_line(view: DeerHuntView, names: Sequence[str], lang: str) -> str:
    """"Red pips: team A (Ann & Carl) 26 · team B (Bob & Dan) 12"."""
    a, b = (tr(lang, "table.dh_team", team=team_name(team, lang), names=members(names, team),
               red=view.red[team]) for team in (0, 1))
    return tr(lang, "table.dh_score", a=a, b=b)


class DeerTeacher(Teacher[DeerHuntView]):
    def help(self, view: DeerHuntView, lang: str) -> list[str]:
        return [tr(lang, key) for key in ("teach.dh_play", "teach.dh_rank", "teach.dh_red",
                                          "teach.dh_partners")]

    def refusal(self, view: DeerHuntView, typed: Typed, lang: str) -> str:
        if not typed.tiles:
            return tr(lang, "refuse.not_in_hand", face=typed.face) if typed.face else ""
        return tr(lang, "refuse.dh_one") if len(typed.tiles) > 1 else ""

    def standing(self, view: DeerHuntView, seat: int, stake: int, lang: str) -> list[str]:
        return chips_fact(view, seat, stake, lang)


class DeerHome(Home[DeerHuntView]):
    games = ("deerhunt",)
    teacher = DeerTeacher()
    variants = (("deerhunt", "deerhunt", 4), ("deerhunt", "fair", 4))

    def label(self, action: Action, letters: Letters, view: DeerHuntView, lang: str) -> str:
        """"A 6:4 · 4 red": the letter matches the hand picture; the red pips are the score."""
        tile = action.tiles[0]
        text = f"{letters.get(tile, '?')} {tile_text(view.tiles, tile)}"
        return f"{text} · {tr(lang, 'dh.red_short', RED[tile])}" if RED[tile] else text

    def named(self, view: DeerHuntView, lang: str) -> Namer:
        """A tile by its face, with its red pips when it has any: "[6:4] (4 red pips)"."""
        def said(tiles: Sequence[int]) -> str:
            return " ".join(view.tiles.label(t) + (f" ({tr(lang, 'dh.red', RED[t])})"
                                                  if RED[t] else "") for t in tiles)
        return said

    def hint(self, view: DeerHuntView, lang: str) -> str:
        if not view.trick:
            return tr(lang, "hint.dh_lead")
        best = view.trick[cast(int, view.best)]
        return tr(lang, "hint.dh_follow", sum(RED[lay.tile] for lay in view.trick),
                  team=team_name(TEAM[best.seat], lang), tile=view.tiles.label(best.tile))

    def caption(self, view: DeerHuntView, names: Sequence[str], stake: int, lang: str
                ) -> list[str]:
        """Both teams with their red pips, then the trick and the dealer."""
        trick = min(len(view.history) + 1, 8)
        return [score_line(view, names, lang),
                tr(lang, "table.dh_trick", trick, name=_name(names, view.dealer))]

    def footer(self, events: Sequence[Event], view: DeerHuntView, names: Sequence[str],
               lang: str) -> str:
        """A tile with its red pips; a trick taken with the red pips it brings and to which
        team; an escaped deer with who leads next."""
        named = self.named(view, lang)
        said = []
        for event in events:
            seat = event.seat if event.seat is not None else 0
            if event.kind == "trick":
                said.append(f"{_name(names, seat)}: " + tr(
                    lang, "move.dh_trick", event.value or 0, team=team_name(TEAM[seat], lang)))
            elif event.kind == "escaped":
                said.append(tr(lang, "move.dh_escaped", event.value or 0,
                               name=_name(names, seat)))
            elif event.kind != "end":
                said.append(describe(event, names, view.tiles, lang, named=named))
        return " · ".join(said)

    def text_board(self, view: DeerHuntView, names: Sequence[str], lang: str, me: int | None,
                   stake: int) -> list[str]:
        """The trick on the table (or the last one taken), both teams' red pips, and every
        seat with its team, its tiles left and the red pips of its tricks."""
        def shown(plays: Sequence[Any]) -> str:
            return " · ".join(f"{_name(names, lay.seat)} {tile_text(view.tiles, lay.tile)}"
                              for lay in plays)

        if view.trick:
            lines = [tr(lang, "console.trick", plays=shown(view.trick))]
        elif view.history:
            last = view.history[-1]
            lines = [tr(lang, "console.last_trick", name=_name(names, last.winner),
                        plays=shown(last.plays))]
        else:
            lines = [tr(lang, "console.trick_empty")]
        for team in (0, 1):
            said = tr(lang, "console.dh_score", view.red[team], team=team_name(team, lang),
                      names=members(names, team))
            lines.append(said[:1].upper() + said[1:])
        taken = [0] * PLAYERS
        for trick in view.history:
            if not trick.escaped:
                taken[trick.winner] += trick.red
        return lines + seat_lines(view, names, lang, me, lambda seat: [
            team_name(TEAM[seat], lang), tr(lang, "console.tiles", view.hand_counts[seat]),
            tr(lang, "img.dh_took", v=taken[seat]),
            *self.teacher.standing(view, seat, stake, lang)])

    def board(self, view: DeerHuntView, frame: Frame) -> Image.Image:
        return deerhunt_board(view, frame)

    def hand(self, view: DeerHuntView, frame: Frame) -> Image.Image:
        """The tiles, under a band in the team's colour: whom the seat plays with, and both
        teams' red pips, beside it where the hand is wide enough, else under it (a name is
        never cut for the score)."""
        tiles = hand_image(view, frame)
        seat = cast(int, view.seat)
        team, lang, look = TEAM[seat], frame.lang, theme(frame.theme)
        score = f"{tr(lang, 'team.0')} {view.red[0]} · {tr(lang, 'team.1')} {view.red[1]}"
        named = team_name(team, lang)
        said = tr(lang, "img.dh_partner", team=named[:1].upper() + named[1:],
                  name=_name(frame.names, partner(seat)))
        room = tiles.width - 2 * PAD - 12
        said_w = width(printable(said), font(PARTNER_SIZE, bold=True))
        score_w = width(score, font(SCORE_SIZE, bold=True))
        beside = said_w + score_w + 2 * PAD <= room
        band = BAND if beside else 2 * BAND - 12
        image = Image.new("RGB", (tiles.width, tiles.height + band), look.panel)
        image.paste(tiles, (0, band))
        draw = ImageDraw.Draw(image)
        team_edge(draw, look, team, (PAD - 8, 0, band + 8))
        middle = BAND // 2 + 4
        draw_text(draw, (PAD + 12, middle), said, PARTNER_SIZE, look.teams[team], room=room,
                  bold=True, anchor="lm")
        at = (tiles.width - PAD, middle) if beside else (PAD + 12, middle + BAND - 12)
        draw_text(draw, at, score, SCORE_SIZE, look.text, bold=True,
                  anchor="rm" if beside else "lm")
        return image

    def points_column(self, lang: str) -> str:
        return tr(lang, "img.dh_points")

    def samples(self, rules: Rules[Any, Any], options: Any, players: int, seed: str
                ) -> dict[str, Step]:
        """The dealer about to lead, a trick half played, a trick just taken and the end (a
        few seeds are tried for a trick with two or three tiles on it)."""
        for k in range(SEEDS):
            steps = sample_deal(rules, options, players, f"{seed}/{k}")

            def seen(step: Step) -> DeerHuntView:
                return cast(DeerHuntView, rules.view(step.state, None))
            busy = [s for s in steps if 1 < len(seen(s).trick) < PLAYERS
                    and any(RED[lay.tile] for lay in seen(s).trick)]
            if busy:
                break
        samples = {"opening": steps[0]}
        if busy:
            samples["trick"] = busy[len(busy) // 2]
        samples["taken"] = next(s for s in steps[1:] if not seen(s).trick and seen(s).history)
        samples["end"] = steps[-1]
        return samples

    def ringed(self, event: Event) -> tuple[int, ...]:
        return event.tiles if event.kind == "play" else ()


DEER = DeerHome()
