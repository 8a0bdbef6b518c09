"""The web table as one person sees it: the session layer's screens, as JSON for the page.

docs/architecture.md §1 invariants 4 and 5, and §4. The page shows what the chats show, built by the
same presenter from the same views: the group's table (its words, its countdown, its board picture)
and the opener's own hand, from their seat's own view only, so nothing another seat holds ever
reaches the page. Its moves are the hand's buttons (labels and payloads from
`bot.present.keyboards`, every legal move, with the hand letters each plays), so a tap goes through
the same door as a button press: `SessionManager.press`, with its checks, versions and saves.

Where seats play in partnerships (`Rules.teams`), each seat carries its team, which the page
marks on the seat as the pictures do.

Who may look: the people seated at the table, and anyone else as a spectator: the lobby, so
they can join, and a game under way as the group sees it, from the rules' spectator's view,
with no hand and no move (`bot.web.web_watch`). Everything is in the opener's language (they alone
see the page).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from bot.present import payload
from bot.present.keyboards import distinct, letters_of, move_button
from bot.present.payload import BACK
from bot.present.presenter import countdown, in_language
from bot.present.screens import Actor, Keyboard, Screen
from bot.session.manager import SessionManager
from bot.session.requests import OPEN, own_language
from bot.session.seating import seat_index, seats_of
from bot.session.turns import Seen
from bot.web.web_watch import join_button
from faces import home_of
from games import get
from games.engine import View
from rendering import hand_labels
from rendering.sprites import family_of
from storage import Session
from words.i18n import tr

WORDS = ("your_tiles", "tap_tile", "no_moves", "connecting", "offline", "join", "board",
         "moves", "closed", "not_your_turn", "retry", "open_in_telegram", "slow_down",
         "elsewhere", "spectator")
"""The page's own words (catalogue keys `web.<word>`), sent in the opener's language."""
CLOCK_SECONDS = 300
"""The page's countdown words per second up to five minutes; above them the chat counts in
minutes (`presenter.countdown`), and so does the page."""
PICKS = 9
""""Pick n more tiles" is sent for n below this (the page counts; the plural is the
catalogue's)."""


class WebRefusal(Exception):
    """The page may not show this table: an HTTP status and the catalogue key of the reason."""

    def __init__(self, status: int, key: str) -> None:
        super().__init__(key)
        self.status = status
        self.key = key


@dataclass(frozen=True, slots=True)
class Opened:
    """A table as one person may see it: the session, their seat (None: not seated, a
    spectator or someone at a lobby) and their language."""

    session: Session
    seat: int | None
    lang: str

    @property
    def open(self) -> bool:
        return self.session.status in OPEN

    @property
    def spectator(self) -> bool:
        """Watching a game that has begun, without a seat at it."""
        return self.seat is None and self.session.status != "lobby"


async def opened(manager: SessionManager, session_id: int, actor: Actor) -> Opened:
    """The table `actor` asked for, or WebRefusal: no such game on this platform."""
    r = manager.requests
    session = await r.current(session_id)
    if session is None or not await r.ours(session):
        raise WebRefusal(404, "web.no_game")
    seat = seat_index(session, actor.platform_id)
    chat_lang = await r.language(session.chat_id)
    return Opened(session, seat, own_language(await r.saw(actor), chat_lang))


async def table_screen(manager: SessionManager, seen: Opened) -> tuple[Screen, Seen | None]:
    """What the group's table message shows, in the opener's language (the lobby's before
    the first deal), and the deal as the opener sees it."""
    deal = await manager.turns.seen(seen.session, seen.seat, seen.lang, not seen.open)
    if deal is None:
        return await manager.lobby.screen(seen.session, seen.lang), None
    return deal.table, deal


async def table_json(manager: SessionManager, seen: Opened, theme: str) -> dict[str, Any]:
    """Everything the page draws, for one opener."""
    session = seen.session
    now = manager.clock()
    lang = seen.lang
    screen, deal = await table_screen(manager, seen)
    body: dict[str, Any] = {
        "session": session.id, "version": session.version,
        "status": session.status if seen.open else "over",
        "lang": lang, "theme": theme,
        "words": {**{w: tr(lang, f"web.{w}") for w in WORDS},
                  "pick_more": [tr(lang, "web.pick_more", n) for n in range(PICKS)],
                  **clock_words(lang, screen, now)},
        "table": shown_text(screen, now),
        "buttons": (lobby_buttons(screen.keyboard) if deal is None and seen.open
                    else join_button(session, lang) if seen.spectator and seen.open else []),
        "spectator": seen.spectator,
        "board": screen.picture is not None,
        "seats": [], "hand": None,
    }
    if deal is None:
        return body
    seats = seats_of(session)
    shown = [s.name for s in in_language(seats, lang)]
    counts = _counts(deal.public, len(seats))
    teams = get(session.game).teams(len(seats))
    body["seats"] = [{"name": name, "tiles": count, "moving": deal.public.to_move == i,
                      "you": i == seen.seat, "automatic": seat.automatic,
                      "team": None if teams is None else {
                          "index": teams[i], "letter": tr(lang, f"team.{teams[i]}")}}
                     for i, (seat, name, count) in enumerate(zip(seats, shown, counts,
                                                                 strict=True))]
    if seen.seat is not None and deal.own is not None and deal.hand is not None:
        body["hand"] = hand_json(session, deal.own, deal.hand, lang, seats[seen.seat].away,
                                 theme, now)
        body["hand"]["text"] = not_again(body["hand"]["text"], body["table"])
    return body


def not_again(text: dict[str, Any], table: dict[str, Any]) -> dict[str, Any]:
    """The hand's lines without those the table above already shows on the same page (the
    deal's fingerprint): the chats show the two messages apart, the page one under the other.
    The title line and the lines around the countdown stay where the page expects them."""
    shown = {line for line in (table["before"] + "\n" + table["after"]).split("\n") if line}
    timed = text["left"] is not None
    before = text["before"].split("\n")
    head, tail = before[:1], before[-1:] if timed and len(before) > 1 else []
    middle = before[1:len(before) - len(tail)]
    after = text["after"].split("\n")
    first, rest = (after[:1], after[1:]) if timed else ([], after)
    return {**text,
            "before": "\n".join([*head, *(x for x in middle if x not in shown), *tail]),
            "after": "\n".join([*first, *(x for x in rest if x not in shown)])}


def hand_json(session: Session, view: View[Any], screen: Screen, lang: str, away: bool,
              theme: str, now: float) -> dict[str, Any]:
    """The opener's tiles (from their own view) and, on their turn, every move they may make;
    with them the tiles they laid face down, which the board counts (`Home.face_down`)."""
    labels = hand_labels(len(view.hand))
    family = family_of(view.tiles)
    tiles = view.tiles
    letters = letters_of(view)
    moves = []
    if not away and view.to_move == view.seat and view.outcome is None:
        for button in distinct([move_button(session, view, lang, action, letters)
                                for action in view.legal]):
            move = button.move
            moves.append({"label": button.label, "data": button.data,
                          "letters": list(move.letters) if move else [],
                          "verb": move.verb if move else ""})
    controls = []
    if away and view.outcome is None:
        controls.append({"label": tr(lang, "btn.back"),
                         "data": payload.encode(session.id, session.version, BACK)})
    text = shown_text(screen, now)
    return {
        "tiles": [{"letter": labels[i], "face": f"{tiles.a[t]}:{tiles.b[t]}",
                   "image": f"tile/{family}/{tiles.a[t]}-{tiles.b[t]}.png?theme={theme}"}
                  for i, t in enumerate(view.hand)],
        "down": [{"face": f"{tiles.a[t]}:{tiles.b[t]}",
                  "label": tr(lang, "web.face_down", face=f"{tiles.a[t]}:{tiles.b[t]}"),
                  "image": f"tile/{family}/back.png?theme={theme}"}
                 for t in home_of(view).face_down(view)],
        "moves": moves, "controls": controls, "text": text,
        "your_turn": bool(moves),
    }


def shown_text(screen: Screen, now: float) -> dict[str, Any]:
    """A screen's lines, with its countdown cut out for the page to count down itself."""
    split = screen.split_at_countdown()
    if split is None:
        return {"before": screen.text, "after": "", "left": None}
    before, after, deadline = split
    return {"before": before, "after": after, "left": max(0.0, deadline - now)}


def clock_words(lang: str, screen: Screen, now: float) -> dict[str, list[str]]:
    """What the page's countdown says at each whole second left, in the chat's own words
    ("in 90 s", `presenter.countdown`): `clock[n]` up to the last minutes, then
    `minutes[m]`, so the page counting down by itself never says it in another form than the
    table message beside it."""
    split = screen.split_at_countdown()
    left = 0.0 if split is None else max(0.0, split[2] - now)
    return {"clock": [countdown(lang, n) for n in range(CLOCK_SECONDS + 1)],
            "minutes": [tr(lang, "time.minutes", m)
                        for m in range(math.ceil(left / 60) + 2)]}


def lobby_buttons(keyboard: Keyboard) -> list[dict[str, Any]]:
    """The lobby's buttons as the page offers them: its presses, and Join (a link in the
    chats, which opens the private chat; on the page it joins at once)."""
    found: list[dict[str, Any]] = []
    for row in keyboard:
        for button in row:
            if button.link is not None:
                if button.link[0] == "join":
                    found.append({"label": button.label, "join": True, "tone": button.tone})
            elif button.data:
                found.append({"label": button.label, "data": button.data,
                              "tone": button.tone, "enabled": button.enabled})
    return found


def _counts(view: View[Any], seats: int) -> list[int | None]:
    counts = list(view.hand_counts)
    return [counts[i] if i < len(counts) else None for i in range(seats)]

