"""Button payloads: "g:<session>:<version>:<code>", at most 64 bytes (Telegram's limit).

docs/architecture.md §4. `code` is either a rules-core action code (`play.63a@1`, always with a dot
or a bare verb such as `draw`) or a control of the session layer, which starts with "!" (`!join`,
`!peek`). The version makes a press on an old keyboard recognisably stale; a payload that does not
parse is forged, and both are refused before anything is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_BYTES = 64
PREFIX = "g"

# The session layer's own presses (every other code is a move of the game).
JOIN = "!join"
LEAVE = "!leave"
ADD = "!add"
"""Add a computer player to the lobby: bare, at the chat's level; `!add-LEVEL`, at that one."""
REMOVE = "!remove"
"""Remove the last computer player added."""
START = "!start"
PEEK = "!peek"
"""The presser's tiles as a private alert (for a player the bot cannot write to)."""
BACK = "!back"
""""I'm back": the computer stops playing the presser's seat."""
HAND = "!hand"
"""The presser's hand again, as a new private message."""
WATCH = "!watch"
"""The game's table for the presser alone, following the game (where a platform answers a
press with a message it edits, Discord's ephemeral one)."""
PICK = "!pick"
"""The first of two taps: `!pick-KEY` shows one group of moves, bare `!pick` the groups."""
TILES = "!tiles"
"""A play chosen by its tiles: `!tiles-A-B` (a platform's multi-select)."""
AGAIN = "!again"
"""Play again: a new lobby with a finished match's players, options and stake."""
TOP = "!top"
"""A page of the season's leaderboard: the page is sent in the version's place, with no session
(0); `!top-all` is all time's, `!top-s3` season 3's."""
TOP_PER_DEAL = "!top-deal"
"""A page of the ranking by chips won per deal, likewise (`!top-deal-all`, `!top-deal-s3`)."""


class BadPayload(ValueError):
    """The button data was not made by this bot (or was cut short)."""


@dataclass(frozen=True, slots=True)
class Press:
    session_id: int
    version: int
    code: str

    @property
    def control(self) -> bool:
        return self.code.startswith("!")


def encode(session_id: int, version: int, code: str) -> str:
    data = f"{PREFIX}:{session_id}:{version}:{code}"
    if len(data.encode()) > MAX_BYTES:
        raise ValueError(f"button payload longer than {MAX_BYTES} bytes: {data!r}")
    return data


def decode(data: str) -> Press:
    if len(data.encode()) > MAX_BYTES:
        raise BadPayload("too long")
    parts = data.split(":", 3)
    if len(parts) != 4 or parts[0] != PREFIX:
        raise BadPayload("not a game button")
    _, session, version, code = parts
    if not (_number(session) and _number(version)) or not code or not code.isprintable():
        raise BadPayload("malformed game button")
    if len(session) > 12 or len(version) > 9:
        raise BadPayload("malformed game button")
    return Press(int(session), int(version), code)


def top_code(per_deal: bool, all_time: bool = False, season: int | None = None) -> str:
    """The code of a leaderboard button: which ranking of which table."""
    code = TOP_PER_DEAL if per_deal else TOP
    return f"{code}-all" if all_time else f"{code}-s{season}" if season else code


def top_words(data: str) -> list[str] | None:
    """The `/top` words a leaderboard button stands for ("2", "deal 2", "all 2", "season 3 2");
    None for any other button."""
    try:
        press = decode(data)
    except BadPayload:
        return None
    if press.session_id:
        return None
    code, per_deal = press.code, press.code.startswith(TOP_PER_DEAL)
    scope = code.removeprefix(TOP_PER_DEAL if per_deal else TOP)
    if scope == "-all":
        words = ["all"]
    elif scope.startswith("-s") and _number(scope[2:]) and len(scope) <= 11:
        words = ["season", str(int(scope[2:]))]
    elif scope == "":
        words = []
    else:
        return None
    return [*(["deal"] if per_deal else []), *words, str(max(1, press.version))]


def _number(text: str) -> bool:
    return text.isascii() and text.isdigit()
