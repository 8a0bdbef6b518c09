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
    head_short: str
    total: str
    points: str
    match: str
    player: str
    balance: str
    games: str
    rank: str
    nobody: str
    empty_line: str
    deal: str
    tricks: str
    banker: str
    holds: str
    taken: str
    banker_leads: str
    tricks_column: str
    turn: str
    pot: str
    deck: str
    reshuffles: str
    may_take: str
    no_discards: str
    eye: str
    wins: str
    from_deal: str
    from_discard: str
    from_stock: str
    void_deal: str
    taken_tile: str
    won_paid_column: str
    pairs_column: str


WORDS: dict[str, Words] = {
    "en": Words(
        hand="hand: {n}", face_down="face down: {n}", stock="stock: {n}",
        in_hands="tiles in hands: {n}", score="score: {n}/{target}", chips="chips: {n}",
        head="leads", head_short="1st", total="total: {n}", points="points", match="match",
        player="player", balance="chips", games="games", rank="#", nobody="no players yet",
        empty_line="no tiles on the table yet", deal="deal {n}",
        tricks="tricks: {n}", banker="banker ×{m}", holds="holds the trick",
        taken="taken by {name} (+{n})", banker_leads="banker {name} leads", tricks_column="tricks",
        turn="turn {n}", pot="pot: {n}", deck="stock: {n}", reshuffles="reshuffled: {n}",
        may_take="{name} may take", no_discards="no discards yet", eye="eye",
        wins="{name} wins", from_deal="dealt complete", from_discard="with a discard",
        from_stock="from the stock", void_deal="void deal: the stock ran out, antes go back",
        taken_tile="taken", won_paid_column="won / paid", pairs_column="pairs",
    ),
    "uk": Words(
        hand="у руці: {n}", face_down="скинуто: {n}", stock="базар: {n}",
        in_hands="плиток у руках: {n}", score="очки: {n}/{target}", chips="фішки: {n}",
        head="перший", head_short="1-й", total="разом: {n}", points="очки", match="матч",
        player="гравець", balance="фішки", games="ігри", rank="№", nobody="гравців ще немає",
        empty_line="на столі ще немає плиток", deal="роздача {n}",
        tricks="взятки: {n}", banker="банкір ×{m}", holds="тримає взятку",
        taken="бере {name} (+{n})", banker_leads="банкір {name} ходить першим",
        tricks_column="взятки",
        turn="хід {n}", pot="банк: {n}", deck="колода: {n}", reshuffles="перетасовано: {n}",
        may_take="{name} може взяти", no_discards="відкинутих плиток ще немає", eye="око",
        wins="виграє {name}", from_deal="готова з роздачі", from_discard="з відкинутої",
        from_stock="з колоди",
        void_deal="роздачу анульовано: колода скінчилася, внески повертаються",
        taken_tile="взято", won_paid_column="виграш / сплата", pairs_column="пари",
    ),
}


def words(lang: str) -> Words:
    return WORDS.get(lang, WORDS["en"])


def signed(n: int) -> str:
    """Chip changes with an explicit sign and a real minus (−5, +3, 0)."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"
