"""Kap Ten, Kap Tai Shap and Three Dozen on screen: the move buttons, the hints of every step of
a turn, the table's caption, the moves in words (a drawn tile is never named), the console's
board, and whole deals played through the session layer by people pressing buttons."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from PIL import ImageDraw

import bot.session.lobby
from bot.console.console_input import choose
from bot.console.console_text import board_lines
from bot.present import payload, presenter
from bot.present.keyboards import MAX_MOVE_BUTTONS, moves_keyboard
from bot.present.screens import Actor, Button, Screen
from bot.session.manager import SessionManager
from bot.session.seating import Game, Seat
from faces import home_of, pictures
from faces.moves import describe
from games import get
from games.engine import Action, Event
from games.tiles import CHINESE, WESTERN
from rendering import Frame, hand_labels, sprites
from storage import Session
from tests.support.helpers import read
from tests.support.screens import hint, result_of, table_of, taught
from tests.support.session_helpers import BOB, OLENA, PLACE, Recorder, close, lobby, manager
from words.i18n import tr

kap = get("kapten")
tai_shap = get("kaptaishap")
dozen = get("threedozen")
SEATS = [Seat(i + 1, name, str(i + 1)) for i, name in enumerate(("Олена", "Bob", "Кім", "Ann"))]
NAMES = tuple(s.name for s in SEATS)



def session(game: str, stake: int = 1) -> Session:
    return Session(7, 1, "", game, {}, [], stake, None, "active", None, 123456, None)


def game_of(rules: Any, preset: str | None = None, **values: object) -> Game:
    return Game(rules, rules.options(preset, **values), preset, dict(values), "seed")


def chinese(*specs: str) -> list[int]:
    """Tile ids by spec; a spec ending in "b" takes the second copy of a civil kind."""
    out = []
    for spec in specs:
        copies = CHINESE.ids_of(int(spec[0]), int(spec[1]))
        out.append(copies[1] if spec.endswith("b") else copies[0])
    return out


def western(*specs: str) -> list[int]:
    return [WESTERN.one(spec) for spec in specs]


def labels(rules: Any, view: Any, lang: str = "en") -> list[str]:
    by_tile = dict(zip(view.hand, hand_labels(len(view.hand)), strict=True))
    return [home_of(view).label(a, by_tile, view, lang) for a in view.legal]


def mover_view(rules: Any, state: Any) -> Any:
    return rules.view(state, rules.to_move(state))


def play(rules: Any, state: Any, label: str) -> tuple[Any, tuple[Event, ...]]:
    """The move whose English button reads `label`."""
    view = mover_view(rules, state)
    (action,) = [a for a, text in zip(view.legal, labels(rules, view), strict=True)
                 if text == label]
    result: tuple[Any, tuple[Event, ...]] = rules.apply(state, action)
    return result


# ----- Kap Ten ----------------------------------------------------------------------------------

KAP_HANDS = [chinese("66", "11", "31", "55", "63", "52", "41", "21"),
             chinese("44", "44b", "33", "22", "65", "64", "61")]
KAP_STOCK = chinese("66b", "51", "62", "53", "43", "42", "32", "54", "11b", "31b", "55b")


def kap_deal(preset: str | None = None, stock: Sequence[int] = KAP_STOCK) -> Any:
    return kap.deal_from(kap.options(preset), KAP_HANDS, stock)


def test_a_culin_turn_step_by_step():
    state = kap_deal()
    view = mover_view(kap, state)
    assert (view.phase, view.seat) == ("swap", 0)
    assert hint(view, "en").startswith("First turn: discard a tile; then you draw")
    assert labels(kap, view) == ["A 6:6 ↓", "B 1:1 ↓", "C 3:1 ↓", "D 5:5 ↓", "E 6:3 ↓", "F 5:2 ↓",
                                 "G 4:1 ↓", "H 2:1 ↓"]
    state, events = play(kap, state, "H 2:1 ↓")
    assert [e.kind for e in events] == ["discard", "draw"]
    view = mover_view(kap, state)
    assert view.phase == "discard"
    assert hint(view, "uk") == "Відкиньте одну плитку (↓), щоб закінчити хід."
    state, _ = play(kap, state, "A 6:6 ↓")
    view = mover_view(kap, state)
    assert (view.phase, view.seat) == ("open", 1)
    assert hint(view, "en").startswith("Take any face-up discard (⤴)")
    # Any discard may be taken under Culin's rules, the older one too.
    assert labels(kap, view) == ["⤴ 6:6", "⤴ 2:1", "Draw from the stock"]
    assert labels(kap, view, "uk")[-1] == "Тягнути з базару"
    state, _ = play(kap, state, "⤴ 2:1")
    view = mover_view(kap, state)
    assert view.phase == "swap"
    assert hint(view, "en") == ("Discard a tile unlike the one you took; then "
                                           "you draw from the stock.")
    assert "2:1" not in " ".join(labels(kap, view)), "the taken tile may not go straight back"


def test_a_classical_turn_takes_only_the_last_discard():
    state = kap_deal("classical")
    view = mover_view(kap, state)
    assert view.phase == "discard"
    assert hint(view, "en") == "Discard one tile (↓) to end your turn."
    state, _ = play(kap, state, "H 2:1 ↓")
    view = mover_view(kap, state)
    assert hint(view, "en") == ("Take the last discard (⤴) or draw from the stock; "
                                           "then discard a tile.")
    assert labels(kap, view) == ["⤴ 2:1", "Draw from the stock"]
    state, _ = play(kap, state, "⤴ 2:1")
    view = mover_view(kap, state)
    assert hint(view, "uk") == "Відкиньте плитку, не таку, як щойно взята."
    state, _ = play(kap, state, "A 4:4 ↓")
    state, _ = play(kap, state, "⤴ 4:4")
    view = mover_view(kap, state)
    assert "⤴" not in " ".join(labels(kap, view))


def test_every_face_up_discard_and_the_draw_fit_one_screen():
    """Culin's rules let any discard be taken: at most one button per kind, 21 and the draw,
    within one screen; the draw gets a row of its own."""
    view = mover_view(kap, kap_deal())
    one_per_kind = sorted({CHINESE.kind_of[t]: t for t in range(CHINESE.size)}.values())
    legal = (*(Action("take", (t,)) for t in one_per_kind), Action("draw"))
    view = dataclasses.replace(view, phase="open", legal=legal)
    keyboard = moves_keyboard(session("kapten"), view, "en")
    flat = [b for row in keyboard for b in row]
    assert len(flat) == 22 <= MAX_MOVE_BUTTONS
    assert all("!pick" not in b.data and len(b.data.encode()) <= payload.MAX_BYTES for b in flat)
    assert all(len(row) <= 8 for row in keyboard)
    assert [b.label for b in keyboard[-1]] == ["Draw from the stock"]
    assert len(keyboard[0]) == 4 and keyboard[0][0].label == "⤴ 6:6"


def test_the_kap_caption_tells_the_rules_the_stock_and_the_pot():
    state = kap_deal()
    screen = table_of(session("kapten", stake=5), game_of(kap), SEATS[:2], state, "en",
                             (), presenter.Clock(0.0, 30.0))
    assert "Culin's rules · turn 1 · 11 tiles in the stock · pot 10 chips" in screen.text
    state, events = play(kap, kap_deal("classical"), "H 2:1 ↓")
    screen = table_of(session("kapten"), game_of(kap, "classical"), SEATS[:2], state,
                             "uk", events, presenter.Clock(0.0, 30.0))
    assert "класичні правила · хід 2 · на базарі 11 плиток · у банку 2 фішки" in screen.text
    assert "Олена: відкидає [2:1]" in screen.text.splitlines()


def test_kap_tai_shap_names_its_sets():
    state = tai_shap.new_deal(tai_shap.options(), 10, "sets")
    screen = table_of(session("kaptaishap"), game_of(tai_shap), [
        Seat(i + 1, f"P{i + 1}", str(i + 1)) for i in range(10)], state, "en", (),
        presenter.Clock(0.0, 30.0))
    assert "Culin's rules · 4 sets · turn 1 · 37 tiles in the stock · pot 10 chips" \
        in screen.text


def kap_win() -> tuple[Any, tuple[Event, ...]]:
    """Bob holds KT-01 but for [6:2], which Олена discards on her first turn."""
    hands = [chinese("62", "11", "11b", "44", "55", "61", "51", "42"),
             chinese("22", "22b", "65", "63", "33", "31", "66")]
    state = kap.deal_from(kap.options(), hands, chinese("43", "32", "21", "54", "53"))
    state, _ = play(kap, state, "G 6:2 ↓")
    state, _ = play(kap, state, "A 1:1 ↓")
    return play(kap, state, "⤴ 6:2")


def test_a_won_kap_deal_is_told_and_laid_out():
    state, events = kap_win()
    assert [e.kind for e in events] == ["take", "win", "end"]
    outcome = kap.outcome(state)
    assert outcome.reason == "tens" and outcome.labels == ("normal", "discard")
    screen = table_of(session("kapten"), game_of(kap), SEATS[:2], state, "en", events,
                             presenter.Clock(0.0))
    assert "Winner: Bob (an eye and tens)" in screen.text
    assert "Bob: took [6:2] from the discards · Bob: completed a winning hand" \
        in screen.text
    assert "Winning hand of Bob: eye [2:2][2:2] · tens [6:5][6:3] [6:6][6:2] [3:1][3:3]" \
        in screen.text.splitlines()
    result = result_of(session("kapten"), game_of(kap), SEATS[:2], state, "uk",
                              state.match, presenter.Clock(0.0))
    assert "Перемога: Bob (око й десятки)" in result.text
    assert result.picture is not None and result.picture.frame.notes == ("", "з відкинутої")


def ringed_faces(monkeypatch: pytest.MonkeyPatch, draw: Callable[[], object]
                 ) -> list[tuple[int, int]]:
    """The faces a picture draws ringed in gold (the "last" look of a tile just played)."""
    real = sprites.face
    seen: list[tuple[int, int]] = []

    def spy(family: str, first: int, second: int, height: int, theme_name: str = "dark",
            state: sprites.State = "plain", horizontal: bool = False) -> Any:
        if state == "last":
            seen.append((first, second))
        return real(family, first, second, height, theme_name, state, horizontal)

    monkeypatch.setattr(sprites, "face", spy)
    draw()
    return seen


def test_a_won_kap_board_rings_the_discard_the_footer_says_was_taken(monkeypatch):
    """Bob wins by taking [6:2]: the footer says so, and the gold ring is on that [6:2] in
    the winning hand, not on the newest discard nor on every tile the win showed."""
    state, events = kap_win()
    (taken,) = chinese("62")
    screen = table_of(session("kapten"), game_of(kap), SEATS[:2], state, "en", events,
                      presenter.Clock(0.0))
    assert screen.picture is not None
    assert "Bob: took [6:2] from the discards" in screen.picture.frame.footer
    assert screen.picture.frame.last == (taken,)
    newest, _ = kap.view(state, None).pile[-1]
    assert newest != taken
    assert ringed_faces(monkeypatch, screen.picture.render) == [(6, 2)]


def worth_marks(monkeypatch: pytest.MonkeyPatch, draw: Callable[[], object]) -> list[int]:
    """The counts a picture marks on tiles that count other than their pips."""
    real = sprites.worth_badge
    seen: list[int] = []

    def spy(image: Any, at: tuple[int, int], width: int, value: int,
            theme_name: str = "dark") -> None:
        seen.append(value)
        real(image, at, width, value, theme_name)

    monkeypatch.setattr(sprites, "worth_badge", spy)
    draw()
    return seen


def test_kap_marks_what_four_two_counts_wherever_it_is_drawn(monkeypatch):
    """[4:2] counts 3 (docs/rules-book.md §2.6): the hand picture, the discards, the winning hand
    and the result card all mark it so, and no other tile; with `four_two=6` nothing is marked."""
    hands = [chinese("62", "11", "11b", "44", "55", "61", "51", "31"),
             chinese("22", "22b", "65", "63", "42", "61b", "66")]
    (four_two,) = chinese("42")
    state = kap.deal_from(kap.options(), hands, chinese("43", "32", "21", "54", "53"))
    frame = Frame(title="Test", names=NAMES[:2], lang="en")
    bob = kap.view(state, 1)
    assert four_two in bob.hand
    assert worth_marks(monkeypatch, lambda: pictures.hand(bob, frame)) == [3]
    assert worth_marks(monkeypatch, lambda: pictures.hand(kap.view(state, 0), frame)) == []
    state, _ = play(kap, state, "H 6:2 ↓")
    state, _ = play(kap, state, "A 1:1 ↓")
    won, events = play(kap, state, "⤴ 6:2")  # eye [2:2][2:2], tens with [4:2][6:1]
    assert [e.kind for e in events] == ["take", "win", "end"]
    state, _ = play(kap, state, "Draw from the stock")
    state, _ = play(kap, state, "G 4:2 ↓")  # Bob lets it go: it lies among the discards
    assert worth_marks(monkeypatch, lambda: pictures.board(kap.view(state, None), frame)) == [3]
    end = kap.view(won, None)
    assert worth_marks(monkeypatch, lambda: pictures.board(end, frame)) == [3]
    assert worth_marks(monkeypatch, lambda: pictures.result(end, frame)) == [3]
    pips = kap.deal_from(kap.options(four_two=6), hands, chinese("43", "32", "21", "54", "53"))
    assert worth_marks(monkeypatch, lambda: pictures.hand(kap.view(pips, 1), frame)) == []


def test_a_kap_deal_won_from_the_stock_rings_no_discard(monkeypatch):
    """Bob wins with the tile he draws: the footer names no tile played, so no tile is ringed,
    not even the newest discard (which is Олена's, and not the move just told)."""
    hands = [chinese("62", "11", "11b", "44", "55", "61", "51", "42"),
             chinese("22", "22b", "65", "63", "33", "31", "66")]
    state = kap.deal_from(kap.options("classical"), hands, chinese("53", "43", "32", "21"))
    state, _ = play(kap, state, "C 4:4 ↓")
    state, events = play(kap, state, "Draw from the stock")
    assert [e.kind for e in events] == ["draw", "win", "end"]
    screen = table_of(session("kapten"), game_of(kap, "classical"), SEATS[:2], state, "en",
                      events, presenter.Clock(0.0))
    assert screen.picture is not None and kap.view(state, None).pile
    assert "Bob: drew from the stock" in screen.picture.frame.footer
    assert ringed_faces(monkeypatch, screen.picture.render) == []
    # While a deal goes on, the newest discard keeps its ring (the tile just played).
    going = kap.deal_from(kap.options("classical"), hands, chinese("53", "43", "32", "21"))
    going, events = play(kap, going, "C 4:4 ↓")
    screen = table_of(session("kapten"), game_of(kap, "classical"), SEATS[:2], going, "en",
                      events, presenter.Clock(0.0))
    assert screen.picture is not None
    assert ringed_faces(monkeypatch, screen.picture.render) == [(4, 4)]


def test_an_empty_stock_voids_the_deal():
    state, events = play(kap, kap_deal("classical", stock=()), "H 2:1 ↓")
    assert [e.kind for e in events] == ["discard", "void", "end"]
    assert [describe(e, NAMES, CHINESE, "uk") for e in events[1:]] == [
        "Базар скінчився — роздачу анульовано", "Роздачу закінчено"]
    screen = table_of(session("kapten"), game_of(kap, "classical"), SEATS[:2], state,
                             "en", events, presenter.Clock(0.0))
    assert "Winner: nobody (the stock ran out)" in screen.text
    assert "The stock has run out: the deal is void" in screen.text


# ----- Three Dozen ------------------------------------------------------------------------------

DOZEN_HANDS = [western("66", "55", "54", "53", "52"),
               western("65", "44", "33", "50", "21"),
               western("64", "62", "61", "60", "43"),
               western("42", "41", "40", "32", "30")]
DOZEN_STOCK = western("22", "20", "11", "00", "51", "63", "31")


def dozen_turn(pickup: str = "optional", hands: Sequence[Sequence[int]] = DOZEN_HANDS,
               pile: Sequence[tuple[int, int]] = ((WESTERN.one("10"), 0),),
               stock: Sequence[int] = DOZEN_STOCK,
               melds: Sequence[Sequence[tuple[int, int]]] | None = None) -> Any:
    """Bob to move after Олена discarded [1:0]; he holds [6:5], its partner (TD-07)."""
    return dozen.deal_from(dozen.options(pickup=pickup), hands, stock, turn=1, pile=pile,
                           melds=melds)


def test_a_three_dozen_turn_step_by_step():
    state = dozen_turn()
    view = mover_view(dozen, state)
    assert hint(view, "en") == ("Take the last discard (⤴) only to lay it out at "
                                           "once with its partner, or draw from the stock.")
    assert labels(dozen, view) == ["⤴ 1:0 + A 6:5", "Draw from the stock"]
    state, events = play(dozen, state, "⤴ 1:0 + A 6:5")
    assert describe(events[0], NAMES, WESTERN, "uk") == \
        "Bob: бере [1:0] з відкинутих і викладає пару [1:0][6:5]"
    view = mover_view(dozen, state)
    assert view.phase == "meld"
    assert hint(view, "en").startswith("Lay out a pair (compulsory)")
    assert labels(dozen, view) == ["B+C 4:4 3:3"]
    state, events = play(dozen, state, "B+C 4:4 3:3")
    assert describe(events[0], NAMES, WESTERN, "en") == "Bob: laid out the pair [4:4][3:3]"
    view = mover_view(dozen, state)
    assert hint(view, "uk") == "Відкиньте одну плитку (↓), щоб закінчити хід."
    assert labels(dozen, view) == ["A 5:0 ↓", "B 2:1 ↓"]


def test_the_pickup_hint_follows_the_seats_own_tiles():
    forced = mover_view(dozen, dozen_turn("forced"))
    assert labels(dozen, forced) == ["⤴ 1:0 + A 6:5"]
    assert hint(forced, "en").startswith("The last discard pairs with your tiles")
    no_partner = [DOZEN_HANDS[0], DOZEN_HANDS[2], DOZEN_HANDS[1], DOZEN_HANDS[3]]
    view = mover_view(dozen, dozen_turn(hands=no_partner))
    assert labels(dozen, view, "uk") == ["Тягнути з базару"]
    assert hint(view, "uk") == ("Остання відкинута плитка не дає вам пари: тягніть "
                                           "з базару.")


def drawn_words(monkeypatch: pytest.MonkeyPatch, view: Any, lang: str,
                names: Sequence[str] = NAMES) -> list[str]:
    """Every line of text a table picture writes."""
    said: list[str] = []
    real = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kw: Any) -> None:
        said.append(str(text))
        real(self, xy, text, *args, **kw)

    with monkeypatch.context() as patched:
        patched.setattr(ImageDraw.ImageDraw, "text", spy)
        pictures.board(view, Frame(title="Test", names=names, lang=lang))
    return said


@pytest.mark.parametrize(("lang", "honest", "promise"), [
    ("en", "Bob may take it if it pairs", "Bob may take"),
    ("uk", "Bob може взяти, якщо складе пару", "Bob може взяти"),
])
def test_the_three_dozen_board_promises_no_take_it_cannot_see(monkeypatch, lang, honest,
                                                               promise):
    """The table's picture is public: it cannot see whether Bob's tiles pair with the discard
    (docs/rules-book.md §2.9), so it says he may take it if it pairs, whether he can (TD-07's hands)
    or cannot (Bob holds no partner of [1:0])."""
    no_partner = [DOZEN_HANDS[0], DOZEN_HANDS[2], DOZEN_HANDS[1], DOZEN_HANDS[3]]
    for hands in (no_partner, DOZEN_HANDS):
        state = dozen_turn(hands=hands)
        view = dozen.view(state, None)
        assert view.takeable and view.to_move == 1
        said = drawn_words(monkeypatch, view, lang)
        assert honest in said, said
        assert promise not in said
    cannot = mover_view(dozen, dozen_turn(hands=no_partner))
    assert not [a for a in cannot.legal if a.verb == "take"]
    # A name too long for the row gives way; "if it pairs" is never cut.
    long = [*NAMES[:1], "Bob " + "Володимирівна Стефаник-Квітка " * 3, *NAMES[2:]]
    said = drawn_words(monkeypatch, dozen.view(dozen_turn(), None), lang, long)
    note = honest.removeprefix("Bob")
    assert any(line.startswith("Bob ") and line.endswith(f"…{note}") for line in said), said


@pytest.mark.parametrize(("lang", "forced", "optional"), [
    ("en", "Bob must take it if it pairs", "may take"),
    ("uk", "Bob мусить взяти, якщо складе пару", "може взяти"),
])
def test_the_forced_pickup_board_says_the_discard_must_be_taken(monkeypatch, lang, forced,
                                                                 optional):
    """With `pickup=forced` (the forced-pickup preset) a discard that pairs is no choice."""
    view = dozen.view(dozen_turn(pickup="forced"), None)
    assert view.takeable and view.to_move == 1
    said = drawn_words(monkeypatch, view, lang)
    assert forced in said, said
    assert not any(optional in line for line in said), said


def test_the_three_dozen_caption_shows_the_pairs_laid_out():
    state, events = play(dozen, dozen_turn(), "⤴ 1:0 + A 6:5")
    screen = table_of(session("threedozen", stake=2), game_of(dozen), SEATS, state, "en",
                             events, presenter.Clock(0.0, 30.0))
    assert "turn 2 · 7 tiles in the stock · pot 8 chips" in screen.text
    assert "Pairs laid out: Олена — · Bob [1:0][6:5] · Кім — · Ann —" in screen.text


def test_a_draw_from_an_empty_stock_reshuffles_the_discards():
    pile = [(WESTERN.one("00"), 0), (WESTERN.one("11"), 1), (WESTERN.one("10"), 0)]
    hands = [DOZEN_HANDS[0], DOZEN_HANDS[2]]
    state, events = play(dozen, dozen_turn(hands=hands, pile=pile, stock=()),
                         "Draw from the stock")
    assert [e.kind for e in events][:2] == ["reshuffle", "draw"]
    assert describe(events[0], NAMES, WESTERN, "en") == \
        "The discards were shuffled into a new stock (3 tiles)"
    assert describe(events[0], NAMES, WESTERN, "uk") == \
        "Відкинуті плитки перетасовано в новий базар (3 плитки)"
    screen = table_of(session("threedozen"), game_of(dozen), SEATS[:2], state, "uk",
                             events, presenter.Clock(0.0, 30.0))
    assert "на базарі 2 плитки · у банку 2 фішки · перетасовано 1 раз" in screen.text


def test_a_win_on_a_discard_takes_only_that_stake():
    melds = [[], [(WESTERN.one("44"), WESTERN.one("33")), (WESTERN.one("31"), WESTERN.one("62"))],
             [], []]
    hands = [DOZEN_HANDS[0], western("65"), western("64", "61", "60", "43", "21"), DOZEN_HANDS[3]]
    state = dozen_turn(hands=hands, melds=melds, stock=western("22", "20", "11", "00"))
    state, events = play(dozen, state, "⤴ 1:0 + A 6:5")
    assert [e.kind for e in events] == ["take", "win", "end"]
    outcome = dozen.outcome(state)
    assert outcome.reason == "three-pairs" and outcome.deltas == (-1, 1, 0, 0)
    assert describe(events[1], NAMES, WESTERN, "uk") == "Bob: збирає виграшну руку"
    result = result_of(session("threedozen"), game_of(dozen), SEATS, state, "en",
                              state.match, presenter.Clock(0.0))
    assert "Winner: Bob (three pairs)" in result.text
    assert result.picture is not None and result.picture.frame.notes[1] == "with a discard"


# ----- words ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("event", "uk", "en"), [
    (Event("take", 0, tuple(chinese("66"))), "Олена: бере [6:6] з відкинутих",
     "Олена: took [6:6] from the discards"),
    (Event("draw", 1), "Bob: тягне з базару", "Bob: drew from the stock"),
    (Event("discard", 0, tuple(chinese("51"))), "Олена: відкидає [5:1]",
     "Олена: discarded [5:1]"),
    (Event("win", 1, tuple(chinese("22", "22b")), 8), "Bob: збирає виграшну руку",
     "Bob: completed a winning hand"),
    (Event("void"), "Базар скінчився — роздачу анульовано",
     "The stock has run out: the deal is void"),
    (Event("end", None, (), 1), "Роздачу закінчено", "The deal is over"),
])
def test_kap_events_in_words(event, uk, en):
    assert describe(event, NAMES, CHINESE, "uk") == uk
    assert describe(event, NAMES, CHINESE, "en") == en


@pytest.mark.parametrize(("event", "uk", "en"), [
    (Event("take", 1, tuple(western("10", "65"))),
     "Bob: бере [1:0] з відкинутих і викладає пару [1:0][6:5]",
     "Bob: took [1:0] from the discards and laid out the pair [1:0][6:5]"),
    (Event("meld", 0, tuple(western("33", "44"))), "Олена: викладає пару [3:3][4:4]",
     "Олена: laid out the pair [3:3][4:4]"),
    (Event("meld", 0, tuple(western("33", "44", "60", "51"))),
     "Олена: викладає пари [3:3][4:4] [6:0][5:1]",
     "Олена: laid out the pairs [3:3][4:4] [6:0][5:1]"),
    (Event("discard", 1, tuple(western("55"))), "Bob: відкидає [5:5]", "Bob: discarded [5:5]"),
    (Event("reshuffle", None, (), 21),
     "Відкинуті плитки перетасовано в новий базар (21 плитка)",
     "The discards were shuffled into a new stock (21 tiles)"),
    (Event("win", 0, (), 3), "Олена: збирає виграшну руку", "Олена: completed a winning hand"),
])
def test_three_dozen_events_in_words(event, uk, en):
    assert describe(event, NAMES, WESTERN, "uk") == uk
    assert describe(event, NAMES, WESTERN, "en") == en


def test_a_drawn_tile_is_never_named():
    """Culin's compulsory draw follows the discard in the same move: the footer tells both, and
    the tile drawn (the stock's [6:6]) appears nowhere on the table."""
    state, events = play(kap, kap_deal(), "D 5:5 ↓")
    screen = table_of(session("kapten"), game_of(kap), SEATS[:2], state, "en", events,
                             presenter.Clock(0.0, 30.0))
    assert "Олена: discarded [5:5] · Олена: drew from the stock" in screen.text
    assert "6:6" not in screen.text
    assert screen.picture is not None and screen.picture.frame.last == tuple(chinese("55"))


def test_every_new_reason_and_label_has_words():
    for lang in ("uk", "en"):
        for key in ("reason.tens", "reason.void", "reason.three-pairs", "label.deal",
                    "label.discard", "label.stock", "btn.draw_stock"):
            assert tr(lang, key)


# ----- the console ------------------------------------------------------------------------------

@pytest.mark.parametrize(("game", "preset", "players", "marks", "absent"), [
    ("kapten", "culin", 2, ["⤴ 6:6", "any face-up one", "A 6:6 ↓", "Draw from the stock"],
     ["◀", "▲", "A+B"]),
    ("kaptaishap", "classical", 3, ["⤴ 6:6", "the last discard", "10 tiles"], ["◀", "▲"]),
    ("threedozen", "standard", 3, ["⤴ 2:1 + A 6:3", "A+B 3:3 4:4", "three pairs"],
     ["◀", "▲"]),
])
def test_the_terminal_help_explains_each_game_own_moves_and_marks(game, preset, players, marks,
                                                                 absent):
    shown = "\n".join(taught(game, preset, players))
    for mark in marks:
        assert mark in shown, (mark, shown)
    for mark in absent:
        assert mark not in shown, (mark, shown)


def test_the_console_board_of_a_kap_deal():
    state, _ = play(kap, kap_deal(), "H 2:1 ↓")
    state, _ = play(kap, state, "A 6:6 ↓")
    lines = board_lines(kap.view(state, 1), NAMES[:2], "en", me=1, stake=3)
    assert lines == ["Discards (⤴ may be taken): ⤴2:1 ⤴6:6",
                     "Culin's rules · turn 2 · 10 tiles in the stock · pot 6 chips",
                     "  Олена  7 tiles",
                     "▶ Bob    7 tiles (you)"]
    state, _ = play(kap, state, "⤴ 2:1")
    assert board_lines(kap.view(state, None), NAMES[:2], "uk")[0] == "Відкинуті: 6:6"
    assert board_lines(kap.view(kap_deal(), None), NAMES[:2], "uk")[0] == \
        "На столі немає відкинутих плиток."
    won, _ = kap_win()
    lines = board_lines(kap.view(won, None), NAMES[:2], "en")
    assert lines[-1].startswith("Winning hand of Bob: eye [2:2][2:2] · tens ")
    assert not any(line.startswith("▶") for line in lines)


def test_the_console_board_of_a_three_dozen_deal():
    state, _ = play(dozen, dozen_turn(), "⤴ 1:0 + A 6:5")
    lines = board_lines(dozen.view(state, None), NAMES, "uk")
    assert lines[0] == "На столі немає відкинутих плиток."
    assert lines[1] == "хід 2 · на базарі 7 плиток · у банку 4 фішки"
    assert lines[3] == "▶ Bob    4 плитки, пари [1:0][6:5]"
    state, _ = play(dozen, state, "B+C 4:4 3:3")
    state, _ = play(dozen, state, "B 2:1 ↓")
    lines = board_lines(dozen.view(state, 2), NAMES, "en", me=2)
    assert lines[0] == "Discards (⤴ may be taken): ⤴2:1"
    assert lines[3] == "  Bob    1 tile, pairs [1:0][6:5] [4:4][3:3]"
    assert lines[4] == "▶ Кім    5 tiles (you)"


def buttons(*texts: str) -> list[Button]:
    return [read(text, f"g:1:1:{i}") for i, text in enumerate(texts)]


def test_typed_answers_reach_the_new_moves():
    takes = buttons("⤴ 6:6", "⤴ 2:1", "Draw from the stock")
    assert choose("6:6", takes) == takes[0]
    assert choose("2:1", takes) == takes[1]
    assert choose("dr", takes) == takes[2]
    melds = buttons("A+B 4:4 3:3", "A+C 4:4 2:2")
    assert choose("ab", melds) == melds[0] and choose("AC", melds) == melds[1]
    pickup = buttons("⤴ 1:0 + C 6:5", "Draw from the stock")
    assert choose("c", pickup) == pickup[0]
    # Twin tiles play alike, so one button stands for both: the twin's letter finds it.
    discards = buttons("A 1:1 ↓", "C 3:1 ↓")
    hand = {"a": "1:1", "b": "1:1", "c": "3:1"}
    assert choose("b", discards, hand) == discards[0]
    assert choose("b", discards) != discards[0]


# ----- whole deals through the session layer ----------------------------------------------------

Chooser = Callable[[list[Button]], Button]


def chooser(seed: int, prefer: str = "") -> Chooser:
    """A press at random, or always one whose label starts with `prefer` when there is one."""
    pick = random.Random(seed)

    def choose_move(moves: list[Button]) -> Button:
        preferred = [b for b in moves if prefer and b.label.startswith(prefer)]
        return pick.choice(preferred or moves)
    return choose_move


async def press_until_closed(m: SessionManager, rec: Recorder, people: Sequence[Actor],
                             choose_move: Chooser, limit: float = 60) -> int:
    """The seat to move presses a move chosen by `choose_move`, until the session closes; every
    hand screen on the way offers all its moves at once (none of these games needs groups)."""
    presses = 0

    async def loop() -> None:
        nonlocal presses
        while await m.open_in(PLACE) is not None:
            pressed = False
            for actor in people:
                assert not rec.groups(actor.platform_id)
                moves = rec.moves(actor.platform_id)
                assert len(moves) <= MAX_MOVE_BUTTONS
                if moves:
                    reply = await m.press(actor, choose_move(moves).data)
                    pressed = pressed or not reply.toast
                    presses += 1
            if not pressed:
                await asyncio.sleep(0.005)
    await asyncio.wait_for(loop(), limit)
    return presses


def tables(rec: Recorder) -> list[Screen]:
    return [r.table for r in rec.replies if r.table is not None and r.table.picture is not None]


def people(count: int) -> list[Actor]:
    more = [Actor(str(10 + i), f"Гравець {i + 3}", "uk") for i in range(count - 2)]
    return [OLENA, BOB, *more]


@pytest.mark.parametrize(("words", "players", "prefer", "caption"), [
    (["kapten", "deals=1"], 2, "", "правила Куліна"),
    (["kapten", "classical", "deals=1"], 2, "", "класичні правила"),
    (["kaptaishap", "deals=1"], 10, "", "правила Куліна · 4 набори"),
    (["threedozen", "deals=1"], 4, "⤴", "Викладені пари: Олена"),
], ids=["kapten-culin", "kapten-classical", "kaptaishap-10", "threedozen-4"])
async def test_a_whole_deal_is_played_by_pressing_buttons(tmp_path, monkeypatch, words, players,
                                                          prefer, caption):
    # A fixed seed: with a random one, a hand dealt complete (three pairs, an eye and tens)
    # ends the match before anybody presses, a few times in a thousand.
    monkeypatch.setattr(bot.session.lobby.secrets, "token_hex", lambda n=8: "5eed" * n)
    m, rec = await manager(tmp_path / "db")
    try:
        seated = people(players)
        sid = await lobby(m, rec, words, seated)
        assert await press_until_closed(m, rec, seated, chooser(players, prefer)) > 0
        stored = await m.storage.sessions.get(sid)
        assert stored is not None and stored.status == "finished"
        shown = tables(rec)
        assert shown and all(caption in t.text for t in shown)
        assert all("на базарі" in t.text and "у банку" in t.text for t in shown)
        names = {a.name for a in seated}
        for table in shown:
            assert table.picture is not None
            for said in table.picture.frame.footer.split(" · "):
                if "тягне з базару" in said:
                    assert said.removesuffix(": тягне з базару") in names, said
        (post,) = rec.posts
        assert "Роздачу 1 закінчено" in post.text and "Матч закінчено" in post.text
        assert any(reason in post.text for reason in ("(око й десятки)", "(базар скінчився)",
                                                      "(три пари)"))
    finally:
        await close(m)


def test_an_even_deal_opens_with_a_draw_and_says_so():
    options = kap.options(deal="even")
    state = kap.new_deal(options, 2, "even", kap.start_match(options, 2, "even", leader=0))
    view = mover_view(kap, state)
    assert labels(kap, view) == ["Draw from the stock"]
    assert hint(view, "en") == ("Nothing is face up yet: draw from the stock, then "
                                           "discard a tile.")
    assert hint(view, "uk").startswith("Відкритих плиток ще немає")
