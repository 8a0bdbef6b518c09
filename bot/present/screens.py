"""What the session layer hands to a platform adapter: neutral screens, not platform calls.

docs/architecture.md §1 invariant 8 and §4: the session layer decides *what* to show (text, a
picture to draw, buttons with their payloads); an adapter decides *how* (Telegram edits one table
message, the console prints and writes PNG files). Pictures are requested, not drawn, so the adapter
can draw them in a worker thread and skip the ones it coalesces away.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from faces import pictures
from rendering import Frame, Standing
from rendering.encoding import Destination

if TYPE_CHECKING:
    from rendering.stats_card import StatsCard

PictureKind = Literal["board", "hand", "result", "leaderboard", "season", "podium", "stats"]


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture to draw: `view` is a public or own-seat view (never a state)."""

    kind: PictureKind
    frame: Frame
    view: Any = None
    rows: tuple[Standing, ...] = ()
    card: StatsCard | None = None
    """A player's figures for the `/stats` card."""

    def render(self, to: Destination = "lossless") -> bytes:
        """The picture's bytes, encoded for where it goes (`rendering.encoding`)."""
        if self.kind == "board":
            return pictures.board(self.view, self.frame, to=to)
        if self.kind == "hand":
            return pictures.hand(self.view, self.frame, to=to)
        if self.kind == "result":
            return pictures.result(self.view, self.frame, to=to)
        if self.kind == "stats" and self.card is not None:
            # Its charts are drawn by nothing else: loaded at the first `/stats`, not at start.
            from rendering.stats_card import stats_png

            return stats_png(self.card, self.frame)
        if self.kind == "podium":
            return pictures.podium(self.rows, self.frame, to=to)
        if self.kind == "season":
            return pictures.leaderboard(self.rows, self.frame, to=to, won=True)
        return pictures.leaderboard(self.rows, self.frame, to=to)


@dataclass(frozen=True, slots=True)
class Move:
    """What a move button plays, as data for platforms that choose by typing or by picking
    tiles: the hand letters of the tiles it plays from the hand, the faces of every tile it
    names (a discard taken from the table has a face and no letter), the end of the line it
    goes to (the open number that marks it, "4", or ""), and its verb."""

    letters: tuple[str, ...]
    faces: tuple[str, ...]
    end: str = ""
    verb: str = ""


Tone = Literal["", "go", "stop", "main"]
"""What a button does, for platforms that colour buttons: joins (go), leaves (stop), the one
action a screen is for (main); "" for the rest."""


@dataclass(frozen=True, slots=True)
class Button:
    """A callback button (`data` is a payload from `bot.present.payload`), or a link the adapter
    builds.

    Links are named, not spelled: ("join", session) becomes a Telegram deep link that opens the
    private chat, so the bot may write to the player before their tiles are due; ("app",
    session) opens the game's web table, where the platform has one (a Telegram Mini App). A
    button that cannot be used yet (`enabled` False) is greyed out where a platform can, and
    says why in its label everywhere; pressed anyway, it is refused with the reason.
    """

    label: str
    data: str = ""
    link: tuple[str, int] | None = None
    url: str = ""
    """A web address the button opens, the same on every platform (a deal's replay)."""
    tone: Tone = ""
    enabled: bool = True
    move: Move | None = None
    """The game move the button plays (None for the session layer's own buttons)."""


Keyboard = tuple[tuple[Button, ...], ...]


def rows(buttons: Sequence[Button], per_row: int) -> Keyboard:
    return tuple(tuple(buttons[i:i + per_row]) for i in range(0, len(buttons), per_row))


@dataclass(frozen=True, slots=True)
class TileChoice:
    """A play chosen by its tiles in one step, where a platform has a multi-select (Discord):
    the hand's letters and faces, how many tiles a play takes, and the payload (`!tiles`) the
    chosen letters are appended to. Platforms without one use the keyboard's two taps."""

    prompt: str
    options: tuple[tuple[str, str], ...]
    least: int
    most: int
    data: str


@dataclass(frozen=True, slots=True)
class Countdown:
    """Where a screen's text shows the time left (`text[start:end]`, "in 45 s") and the moment
    it counts to (seconds since the epoch, by the session layer's clock). A platform that shows
    live times (Discord's `<t:…:R>`) puts one there and never edits the screen to count."""

    deadline: float
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Screen:
    text: str
    picture: Picture | None = None
    keyboard: Keyboard = ()
    choice: TileChoice | None = None
    countdown: Countdown | None = None

    @property
    def asks(self) -> bool:
        """Whether the screen has a button to press (a link that only opens a page is not)."""
        return any(button.data for row in self.keyboard for button in row)

    def split_at_countdown(self) -> tuple[str, str, float] | None:
        """The text before and after its countdown, and the deadline; None without one."""
        c = self.countdown
        return None if c is None else (self.text[:c.start], self.text[c.end:], c.deadline)


@dataclass(frozen=True, slots=True)
class Post:
    """A new message in the chat. `key` names a post the session layer keeps until the adapter
    reports it `delivered` (a deal's result); None for one that may be lost with a restart."""

    screen: Screen
    key: int | None = None


@dataclass(frozen=True, slots=True)
class Place:
    """Where a game lives on its platform: a chat and, on Telegram forums, a topic."""

    chat: str
    topic: str = ""
    title: str = ""


@dataclass(frozen=True, slots=True)
class Actor:
    """Who pressed or typed: the platform's user id, display name and client language."""

    platform_id: str
    name: str
    language: str | None = None


@dataclass(frozen=True, slots=True)
class Target:
    """The player a host's command names: by platform id (a reply, a user option) or by the
    name they sit under."""

    platform_id: str = ""
    name: str = ""


@dataclass(frozen=True, slots=True)
class HandUpdate:
    """A player's private hand screen. `fresh` sends a new message (it notifies: "your turn",
    a new deal) instead of editing the last one in place."""

    user: str
    screen: Screen
    fresh: bool = False


@dataclass(slots=True)
class Reply:
    """Everything one request (a press, a command, a timer) makes the adapter do."""

    session_id: int | None = None
    place: Place | None = None
    table: Screen | None = None
    """The new content of the game's one table message in the chat."""
    table_fresh: bool = False
    """Post the table as a new message (the lobby became a game) and retire the old one."""
    hands: list[HandUpdate] = field(default_factory=list)
    posts: list[Post] = field(default_factory=list)
    """New messages in the chat, in order: a deal's result, the end of a match."""
    private: list[tuple[str, Screen]] = field(default_factory=list)
    """New private messages (user, screen): "you joined", "the computer plays for you"."""
    invites: list[tuple[str, Screen]] = field(default_factory=list)
    """Private messages to people not at the table (a lobby opened, for those who asked to
    hear of it): sent if the platform lets the bot write to them, else dropped quietly."""
    toast: str = ""
    """The short answer to the press or command, shown only to the presser."""
    alert: bool = False
    """Show the toast as an alert that stays until dismissed (the private "peek")."""
    answer: Screen | None = None
    """A reply in the chat the command came from (/top, /chips, errors of a command)."""
    closed: bool = False
    """The session has ended; the adapter may forget what it kept for it."""
    deal_starts: bool = False
    """A deal was dealt: its table (with the deal's fingerprint) goes on screen before any of
    its hands, so the group has the fingerprint before anyone sees a tile."""
