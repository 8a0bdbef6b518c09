"""The `/stats` card: a player's chips after each deal as a line, and each game's net chips as
a bar with the deals played and won beside its name.

The card is read on a phone (`rendering.chart`: 800 px wide, no text under 18 px). It is drawn
from figures storage has already added up and words the caller has translated (game titles come
from the games' own titles), so nothing here knows a game. The figures travel in the PNG
(`chart.charts_in`), which is how the chart is checked against the ledger.
"""

from __future__ import annotations

from dataclasses import dataclass

from rendering.canvas import Frame
from rendering.chart import BarChart, BarSeries, Drawn, LineChart, LineSeries, sheet
from words.i18n import minus, tr


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game's figures for one player: its title in the reader's language."""

    title: str
    played: int
    won: int
    net: int


@dataclass(frozen=True, slots=True)
class StatsCard:
    balance: int
    history: tuple[tuple[int, int], ...]
    """(deals settled so far, balance after) per chip movement, oldest first."""
    games: tuple[GameLine, ...]


def stats_card(card: StatsCard, frame: Frame) -> Drawn:
    lang = frame.lang
    played = sum(g.played for g in card.games)
    chips = LineChart(
        tr(lang, "img.chips_history"),
        (LineSeries("", tuple((float(d), float(b)) for d, b in card.history)),),
        x_label=tr(lang, "img.deals_axis"))
    per_game = BarChart(
        tr(lang, "img.per_game"),
        tuple(tr(lang, "img.game_line", g.played, game=g.title, won=g.won) for g in card.games),
        (BarSeries("", tuple(float(g.net) for g in card.games)),),
        values="signed", horizontal=True, by_sign=True)
    subtitle = tr(lang, "img.stats_subtitle", played, chips=minus(card.balance))
    return sheet(frame.title, subtitle, (chips, per_game), frame.theme)


def stats_png(card: StatsCard, frame: Frame) -> bytes:
    return stats_card(card, frame).png()
