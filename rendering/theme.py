"""Colours of the table and the tiles, in one place so every image agrees (docs/architecture.md §7).

Two looks for the Chinese tiles, as the issue asks: `dark` (white pips on black tiles, the way most
Chinese sets are made) and `ivory` (dark pips on light tiles, like the early white sets
docs/rules-book.md §1.1 mentions). Red is the same in both, because the red pips are part of the
tile.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Theme:
    name: str
    table: RGB
    """Felt behind the line."""
    panel: RGB
    """Header, seat boxes and footer."""
    panel_hi: RGB
    """The seat to move."""
    text: RGB
    muted: RGB
    accent: RGB
    """Who is to move, open ends."""
    gold: RGB
    """Just played, the winner, the banker's badge."""
    good: RGB
    """Playable tiles and chip gains."""
    bad: RGB
    """Chip losses and a closed end."""
    select: RGB
    face: RGB
    edge: RGB
    pip: RGB
    red: RGB
    back: RGB
    back_mark: RGB
    western_face: RGB
    western_pip: RGB
    teams: tuple[RGB, RGB] = ((246, 150, 56), (156, 138, 255))
    """Where seats play in partnerships: each team's mark (orange, violet), apart from the
    gold of a winner, the blue of the seat to move and the red of the pips, on both looks'
    dark panels and felts."""
    medals: tuple[RGB, RGB, RGB] = ((250, 196, 60), (200, 208, 216), (214, 140, 74))
    """A season's podium: gold (the winner's gold), silver and bronze, each light enough
    for the dark panel's colour to be read on it."""


THEMES: dict[str, Theme] = {
    "dark": Theme(
        name="dark", table=(24, 70, 52), panel=(20, 28, 34), panel_hi=(44, 62, 80),
        text=(240, 240, 236), muted=(160, 172, 178), accent=(88, 190, 255), gold=(250, 196, 60),
        good=(92, 214, 120), bad=(255, 110, 100), select=(120, 150, 255),
        face=(26, 26, 30), edge=(90, 90, 98), pip=(246, 246, 240), red=(220, 36, 40),
        back=(132, 38, 34), back_mark=(206, 150, 80),
        western_face=(250, 246, 232), western_pip=(24, 24, 28),
    ),
    "ivory": Theme(
        name="ivory", table=(30, 86, 62), panel=(22, 30, 38), panel_hi=(46, 66, 86),
        text=(240, 240, 236), muted=(160, 172, 178), accent=(88, 190, 255), gold=(250, 196, 60),
        good=(92, 214, 120), bad=(255, 110, 100), select=(120, 150, 255),
        face=(248, 242, 222), edge=(150, 138, 110), pip=(28, 28, 30), red=(210, 30, 36),
        back=(40, 84, 140), back_mark=(200, 214, 236),
        western_face=(250, 246, 232), western_pip=(24, 24, 28),
    ),
}

DEFAULT_THEME = "dark"


def theme(name: str) -> Theme:
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}; one of {', '.join(THEMES)}") from None
