"""The few words drawn inside images, in Ukrainian and English.

Everything longer (titles, the last move in words) comes from the caller already translated;
these are the short labels of a seat box or a card's columns. They are written with a colon
before the number ("у руці: 5") so no label ever needs a plural form.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Words:
    hand: str
    face_down: str
    stock: str
    in_hands: str
    score: str
    chips: str
    head: str
    banker: str
    total: str
    points: str
    match: str
    winner: str
    player: str
    balance: str
    games: str
    rank: str
    open_end: str
    closed_end: str
    nobody: str
    empty_line: str
    deal: str


WORDS: dict[str, Words] = {
    "en": Words(
        hand="hand: {n}", face_down="face down: {n}", stock="stock: {n}",
        in_hands="tiles in hands: {n}", score="score: {n}/{target}", chips="chips: {n}",
        head="leads", banker="banker", total="total: {n}", points="points", match="match",
        winner="winner", player="player", balance="chips", games="games", rank="#",
        open_end="open", closed_end="closed", nobody="no players yet",
        empty_line="no tiles on the table yet", deal="deal {n}",
    ),
    "uk": Words(
        hand="у руці: {n}", face_down="скинуто: {n}", stock="базар: {n}",
        in_hands="плиток у руках: {n}", score="очки: {n}/{target}", chips="фішки: {n}",
        head="перший", banker="банкір", total="разом: {n}", points="очки", match="матч",
        winner="переможець", player="гравець", balance="фішки", games="ігри", rank="№",
        open_end="відкрито", closed_end="закрито", nobody="гравців ще немає",
        empty_line="на столі ще немає плиток", deal="роздача {n}",
    ),
}


def words(lang: str) -> Words:
    return WORDS.get(lang, WORDS["en"])


def signed(n: int) -> str:
    """Chip changes with an explicit sign and a real minus (−5, +3, 0)."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"
