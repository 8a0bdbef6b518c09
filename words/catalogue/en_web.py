"""The web table in English: its button in the chats, the page's own words and its refusals
(a Telegram Mini App, `bot.web.webapp`), and watching a game (the page's spectators, Discord's
live ephemeral table)."""

from __future__ import annotations

from words.catalogue.types import Entry

WEB: dict[str, Entry] = {
    "btn.web_table": "🀄 Open the table",
    "web.your_tiles": "Your tiles",
    "web.face_down": "{face}, laid face down",
    "web.tap_tile": "Tap a tile to see its moves.",
    "web.pick_more": ("Pick {n} more tile, or a move below.",
                      "Pick {n} more tiles, or a move below."),
    "web.no_moves": "No move plays these tiles: tap a tile to start again.",
    "web.connecting": "Connecting…",
    "web.offline": "Connection lost: trying again…",
    "web.join": "Join",
    "web.board": "The table",
    "web.moves": "Your moves",
    "web.closed": "This game is over.",
    "web.not_your_turn": "Waiting for your turn.",
    "web.retry": "Try again",
    'web.open_in_telegram': "Open this table from the game's message in Telegram.",
    "web.no_game": "There is no such game here.",
    "web.unsigned": "This page could not prove who you are: open it again from Telegram.",
    "web.slow_down": "Too many requests at once: the table catches up in a moment.",
    "web.elsewhere": "This table is open in a newer window; this one no longer follows it.",
    "btn.watch": "👁 Watch",
    "web.watching": ("👁 {n} watching", "👁 {n} watching"),
    "web.spectator": "You are watching: only what lies on the table is shown.",
    "web.watch_only": "You are watching this game: only its players move. Join takes a free "
                      "seat when there is one.",
    "watch.live": "Live until {until}: press Watch again then to keep watching.",
    "watch.over": "This game is over: this was its last table.",
    "watch.lapsed": "This picture no longer follows the game: press Watch again.",
    "watch.crowded": "Too many are watching at once: the table in the channel shows the same.",
    "watch.not_yet": "This game has not begun: the lobby shows who sits.",
    "web.not_member": "Only the members of this game's group can watch it.",
    "web.cannot_tell": "Telegram could not say whether you are in this group: try again in a "
                       "moment.",
}
