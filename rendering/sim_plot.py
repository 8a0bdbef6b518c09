"""`gupai sim --plot FILE`: what a simulation measured, as a picture.

For the draw-and-discard games, whose views count the player turns of a deal (games/sim.py,
`SimStats.win_turns`; docs/rules-book.md §4 calibrates Kap Ten and Kap Tai Shap by it), a line per
preset gives the share of won deals won on each turn; for every game, bars give each seat's win
rate, one bar per preset. The numbers are the simulator's own, unrounded, and travel in the PNG
(`chart.charts_in`), so the picture can be checked against `--json`.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.sim import SimStats
from rendering.chart import BarChart, BarSeries, Chart, Drawn, LineChart, LineSeries, sheet
from words.i18n import tr


def turn_shares(stats: SimStats, last: int) -> tuple[tuple[float, float], ...]:
    """(turn, share of won deals won on it) for every turn from 1 to `last`, none left out, so
    a turn no deal was won on shows as zero rather than as a line across it."""
    won = stats.won_deals
    return tuple((float(turn), stats.win_turns.get(turn, 0) / won if won else 0.0)
                 for turn in range(1, last + 1))


def sim_charts(runs: Sequence[tuple[str, SimStats]], lang: str) -> tuple[Chart, ...]:
    """The charts of one run or of presets compared (`runs`: preset name, its statistics)."""
    charts: list[Chart] = []
    if runs and all(stats.timed_deals for _, stats in runs):
        last = max((max(stats.win_turns, default=1) for _, stats in runs), default=1)
        charts.append(LineChart(
            tr(lang, "plot.turns"),
            tuple(LineSeries(name, turn_shares(stats, last)) for name, stats in runs),
            x_label=tr(lang, "plot.turn_axis"), values="percent", zero=True))
    players = runs[0][1].players if runs else 0
    charts.append(BarChart(
        tr(lang, "plot.seats"), tuple(str(seat) for seat in range(players)),
        tuple(BarSeries(name, tuple(w / max(stats.games, 1) for w in stats.wins))
              for name, stats in runs),
        x_label=tr(lang, "plot.seat_axis"), values="percent"))
    return tuple(charts)


def sim_plot(title: str, seed: str, runs: Sequence[tuple[str, SimStats]], lang: str,
             theme_name: str = "dark") -> Drawn:
    first = runs[0][1]
    named = [name for name, _ in runs if name]
    heading = f"{title} · {named[0]}" if len(named) == 1 else title
    subtitle = tr(lang, "plot.subtitle", first.games, players=first.players, seed=seed)
    return sheet(heading, subtitle, sim_charts(runs, lang), theme_name)
