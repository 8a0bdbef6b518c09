"""What a chart shows, as data: series of points or of bars, and how their numbers are written.

Kept apart from the drawing (`rendering.chart`) because the data is what a chart promises: it is
what a PNG carries beside its pixels and what a test compares with the figures it came from.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

Values = Literal["plain", "signed", "percent"]
"""How numbers are written: as they are, with an explicit sign (chips won or lost), or as a
percentage of a share between 0 and 1."""


@dataclass(frozen=True, slots=True)
class LineSeries:
    name: str
    points: tuple[tuple[float, float], ...]
    """(x, y) in drawing order; an x may repeat (a step straight up or down)."""


@dataclass(frozen=True, slots=True)
class LineChart:
    title: str
    series: tuple[LineSeries, ...]
    x_label: str = ""
    values: Values = "plain"
    zero: bool = False
    """Whether the y axis must reach zero (a share does; a balance of about 1000 need not)."""
    kind: str = "line"


@dataclass(frozen=True, slots=True)
class BarSeries:
    name: str
    values: tuple[float, ...]
    """One value per category of its chart."""


@dataclass(frozen=True, slots=True)
class BarChart:
    """Bars per category, one per series side by side. Horizontal bars take one row each with
    the category's words on their own line above the bar, for categories that are sentences."""

    title: str
    categories: tuple[str, ...]
    series: tuple[BarSeries, ...]
    x_label: str = ""
    values: Values = "plain"
    horizontal: bool = False
    by_sign: bool = False
    """Colour a bar by its sign (gains and losses) instead of by its series."""
    kind: str = "bar"

    def __post_init__(self) -> None:
        for series in self.series:
            if len(series.values) != len(self.categories):
                raise ValueError(f"{series.name!r}: {len(series.values)} values for "
                                 f"{len(self.categories)} categories")


Chart = LineChart | BarChart


def number(value: float, values: Values, step: float = 1.0) -> str:
    """A value written as the chart's kind of number, with a real minus sign."""
    if values == "percent":
        per_cent = step * 100
        digits = next((d for d in range(4) if abs(round(per_cent, d) - per_cent) < 1e-9), 3)
        text = f"{abs(value) * 100:.{digits}f}%"
    else:
        whole = abs(value - round(value)) < 1e-9
        text = str(abs(round(value))) if whole else f"{abs(value):g}"
    if value < 0 and text.strip("0.%") != "":
        return "−" + text
    if values == "signed" and value > 0:
        return "+" + text
    return text


def nice_ticks(lo: float, hi: float, most: int = 6, whole: bool = False) -> list[float]:
    """Round tick values (1, 2, 2.5 or 5 times a power of ten) covering lo..hi."""
    if hi < lo:
        lo, hi = hi, lo
    if hi - lo < 1e-12:
        lo, hi = (lo - 1, hi + 1) if whole or lo == 0 else (lo - abs(lo) / 10, hi + abs(hi) / 10)
    raw = (hi - lo) / max(1, most - 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw * 0.999)
    if whole:
        step = max(1.0, round(step))
    start = math.floor(lo / step + 1e-9) * step
    count = math.ceil((hi - start) / step - 1e-9)
    return [round(start + i * step, 10) for i in range(count + 1)]
