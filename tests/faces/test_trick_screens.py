"""Tien Gow's screens: every play within two taps and within a phone's (and Discord's) limits,
the words that explain a follow, and the table caption's banker and tricks."""

from __future__ import annotations

import random

from bot.present import keyboards, payload, presenter
from bot.present.keyboards import MAX_MOVE_BUTTONS, moves_keyboard
from bot.session.seating import Game, Seat
from faces import home_of
from games import get
from games.tiles import CHINESE
from rendering import hand_labels
from storage import Session
from tests.support.screens import hint, table_of, taught

TELEGRAM_MAX_BUTTONS = 100
TELEGRAM_MAX_PER_ROW = 8
DISCORD_MAX_COMPONENTS = 25

rules = get("tiengow")
SESSION = Session(7, 1, "", "tiengow", {}, [], 1, None, "active", None, 123456, None)
SEATS = [Seat(i + 1, name, str(i + 1)) for i, name in enumerate(("Олена", "Bob", "Кім", "Ann"))]



def game(**values: object) -> Game:
    return Game(rules, rules.options(**values), None, dict(values), "seed")


def ids(*specs: str) -> list[int]:
    """Tile ids by spec; a spec ending in "b" takes the second copy of a civil kind."""
    out = []
    for spec in specs:
        copies = CHINESE.ids_of(int(spec[0]), int(spec[1]))
        out.append(copies[1] if spec.endswith("b") else copies[0])
    return out


def buttons(keyboard):
    return [b for row in keyboard for b in row]


def reachable(g: Game, view) -> dict[str, int]:
    """Every action code a player can press within two taps, and the most moves on a screen."""
    first = moves_keyboard(SESSION, view, "en")
    found: dict[str, int] = {}
    screens = [first]
    for button in buttons(first):
        code = payload.decode(button.data).code
        if code.startswith("!pick-"):
            screens.append(moves_keyboard(SESSION, view, "en",
                                          code.removeprefix("!pick-")))
    for keyboard in screens:
        flat = buttons(keyboard)
        assert len(flat) <= min(TELEGRAM_MAX_BUTTONS, DISCORD_MAX_COMPONENTS)
        assert all(len(row) <= TELEGRAM_MAX_PER_ROW for row in keyboard)
        moves = [b for b in flat if "!" not in b.data]
        assert len(moves) <= MAX_MOVE_BUTTONS
        for b in moves:
            assert len(b.data.encode()) <= payload.MAX_BYTES
            found[payload.decode(b.data).code] = found.get(payload.decode(b.data).code, 0) + 1
    return found


HANDS = [ids("66", "66b", "63", "54", "62", "53", "52", "43"),
         ids("11", "44", "31", "55", "33", "22", "65", "64"),
         ids("11b", "44b", "31b", "55b", "33b", "22b", "65b", "64b"),
         ids("61", "61b", "51", "51b", "42", "41", "32", "21")]


def four_tile_lead():
    """Seat 0 leads Heaven–Heaven–Nine–Nine; seat 1 holds eight different kinds, so it has the
    most face-down choices a hand can have: C(8, 4) = 70."""
    state = rules.deal_from(rules.options(), HANDS, banker=0)
    lead = next(a for a in rules.legal_actions(state) if len(a.tiles) == 4)
    state, _ = rules.apply(state, lead)
    return state


def test_seventy_face_down_choices_are_two_taps_away():
    state = four_tile_lead()
    view = rules.view(state, 1)
    assert len(view.legal) == 70 and {a.verb for a in view.legal} == {"fold"}
    g = game()
    first = buttons(moves_keyboard(SESSION, view, "en"))
    assert len(first) <= MAX_MOVE_BUTTONS
    assert all(b.label.startswith("↓ ") for b in first)
    found = reachable(g, view)
    codes = {rules.encode(state, a) for a in view.legal}
    assert set(found) == codes
    assert all(n == 1 for n in found.values()), "each play sits on exactly one screen"


def test_every_play_of_many_deals_is_within_two_taps():
    g = game()
    chooser = random.Random(5)
    checked = grouped = 0
    for n in range(60):
        state = rules.new_deal(g.options, 4, f"screens{n}")
        while (seat := rules.to_move(state)) is not None:
            view = rules.view(state, seat)
            found = reachable(g, view)
            assert set(found) == {rules.encode(state, a) for a in view.legal}
            checked += 1
            grouped += len(view.legal) > MAX_MOVE_BUTTONS
            legal = rules.legal_actions(state)
            state, _ = rules.apply(state, legal[chooser.randrange(len(legal))])
    assert checked > 1000 and grouped > 0


def test_labels_say_face_up_or_down_with_the_hand_letters():
    state = four_tile_lead()
    view = rules.view(state, 1)
    labels = {home_of(view).label(a, dict(zip(view.hand, hand_labels(8), strict=True)), view,
                                  "en") for a in view.legal}
    assert "↓ A B C D" in labels
    opening = rules.deal_from(rules.options(), HANDS, banker=0)
    lead_view = rules.view(opening, 0)
    by_tile = dict(zip(lead_view.hand, hand_labels(8), strict=True))
    lead_labels = [home_of(lead_view).label(a, by_tile, lead_view, "en")
                   for a in lead_view.legal]
    assert "A 6:6" in lead_labels and "A B 6:6 6:6" in lead_labels
    assert "A B C D 6:6 6:6 6:3 5:4" in lead_labels


def test_hints_explain_the_follow_and_early_death():
    state = four_tile_lead()
    assert hint(rules.view(state, 1), "en") == (
        "Play 4 tiles: face up (▲) if they beat the trick, or face down (↓).")
    assert hint(rules.view(state, 1), "uk").startswith("Покладіть 4 плитки")
    last = rules.deal_from(rules.options(early_death=True), [ids("62"), ids("66"), ids("21"),
                                                             ids("11")],
                           banker=0, tricks=(4, 0, 3, 0))
    last, _ = rules.apply(last, rules.legal_actions(last)[0])
    view = rules.view(last, 1)
    assert {a.verb for a in view.legal} == {"fold"}
    assert hint(view, "en").startswith("Early death")


def test_the_terminal_help_explains_tien_gow_own_moves_and_marks():
    shown = "\n".join(taught("tiengow", "modern", 4))
    for mark in ("▲ A 6:6", "↓ A B", "family"):
        assert mark in shown, (mark, shown)
    for mark in ("◀", "⤴"):
        assert mark not in shown, (mark, shown)


def test_the_caption_names_the_banker_and_the_tricks():
    state = four_tile_lead()
    g = game()
    screen = table_of(SESSION, g, SEATS, state, "uk", (), presenter.Clock(0.0, 30.0))
    assert "Банкір: Олена ×2" in screen.text
    assert "Взятки: Олена 0 · Bob 0 · Кім 0 · Ann 0" in screen.text


def test_the_last_play_of_a_trick_is_told_with_who_took_it():
    state = four_tile_lead()
    for _ in range(2):
        state, _ = rules.apply(state, rules.legal_actions(state)[-1])
    state, events = rules.apply(state, rules.legal_actions(state)[-1])
    assert [e.kind for e in events] == ["fold", "trick"]
    screen = table_of(SESSION, game(), SEATS, state, "en", events,
                             presenter.Clock(0.0, 30.0))
    assert "Ann: laid 4 tiles face down · Олена: takes the trick (+4)" in screen.text
    assert screen.picture is not None
    assert screen.picture.frame.footer.endswith("Олена: takes the trick (+4)")


def test_a_play_can_be_chosen_by_its_tiles_where_moves_are_grouped():
    """The tile multi-select (Discord): offered only when the moves come in groups; the
    chosen letters name the moves that play exactly those tiles, in any order."""
    state = four_tile_lead()
    view = rules.view(state, 1)
    assert len(view.legal) > MAX_MOVE_BUTTONS
    labels = hand_labels(len(view.hand))
    choice = keyboards.tile_choice(SESSION, view, "en")
    assert choice is not None and (choice.least, choice.most) == (4, 4)
    assert [letter for letter, _ in choice.options] == list(labels)
    assert payload.decode(choice.data).code == "!tiles"
    chosen = keyboards.moves_by_letters(view, ["D", "C", "B", "A"])
    assert [a.tiles for a in chosen] == [tuple(view.hand[:4])] * len(chosen)
    assert keyboards.moves_by_letters(view, ["A"]) == []  # a follow of four takes four
    keyboard = moves_keyboard(SESSION, view, "en", "=A-B-C-D")
    assert [b.label for b in buttons(keyboard)][-1] == "« Tiles"
    assert len(buttons(keyboard)) == len(chosen) + 1
    opening = rules.deal_from(rules.options(), HANDS, banker=0)
    lead = rules.view(opening, 0)
    if len(lead.legal) <= MAX_MOVE_BUTTONS:
        assert keyboards.tile_choice(SESSION, lead, "en") is None
