"""Chips, tables and their hosts in English: what a table holds and pays, the daily refill, the
leaderboard and a person's figures, a deal's fingerprint and seed, and the host's controls."""

from __future__ import annotations

from words.catalogue.types import Entry

TABLES: dict[str, Entry] = {
    # chips and standings
    "chips.balance": ("{name}: {n} chip", "{name}: {n} chips"),
    "chips.rank": "Place {rank} of {players} in this chat.",
    "top.title": "Leaderboard (page {page}):",
    "top.line": ("{rank}. {name} — {chips} chips, {n} deal",
                 "{rank}. {name} — {chips} chips, {n} deals"),
    "top.past_end": ("The leaderboard has only {n} page.", "The leaderboard has only {n} pages."),
    "btn.prev_page": "◀ Page {page}",
    "btn.next_page": "Page {page} ▶",
    "top.more": "More: /top {next}",
    "top.empty": "Nobody has played here yet.",
    "top.picture_title": "Leaderboard",
    "stats.title": "{name}'s games in this chat:",
    "stats.none": "No finished deals yet.",
    "stats.line": ("• {game}: {n} deal, {won} won, net {net}",
                   "• {game}: {n} deals, {won} won, net {net}"),
    "stats.recent": "Recent deals:",
    "stats.picture_title": "{name} · games and chips",
    "chips.held": ("(and {n} chip on tables)", "(and {n} chips on tables)"),
    "chips.refill_due": "Below {floor}: your next game today brings you up to {floor}.",
    "chips.refill_next": "Below {floor}: the next refill up to it comes in {hours} h "
                         "{minutes} min (at 00:00 UTC).",
    "chips.short": "{name}: {balance} chips free, but a table at stake ×{need} needs at "
                   "least {need}.",
    "chips.short_refill": "{name}: {balance} chips free, but a table at stake ×{need} needs "
                          "at least {need}. The next refill, up to {floor}, comes in {hours} h "
                          "{minutes} min (at 00:00 UTC).",
    "top.per_deal_title": "Chips won per deal, at least {least} deals (page {page}):",
    "top.per_deal_line": ("{rank}. {name} — {per_deal} a deal over {n} deal",
                          "{rank}. {name} — {per_deal} a deal over {n} deals"),
    "top.per_deal_empty": "Nobody has played {least} deals for chips here yet.",
    "top.per_deal_more": "More: /top deal {next}",
    "btn.top_chips": "🏆 By chips",
    "btn.top_per_deal": "📈 Per deal",
    "stats.sources": "Chips: {chips} — starting {granted}, refills {refilled}, "
                     "won at tables {won}",
    "stats.adjusted": "Corrections by an admin: {adjusted}",
    # a table's chips
    "lobby.buy_in": ("Each person brings up to {n} chip to the table.",
                     "Each person brings up to {n} chips to the table."),
    "lobby.practice": "Practice table: computers play for no chips, so no chips move.",
    "table.host": "Host: {name}",
    "table.free": "/join takes a seat the computer plays: {names}",
    "table.fingerprint": "🔒 Deal fingerprint: {fingerprint}",
    "result.practice": "Practice: no chips moved.",
    "result.no_chips": "—",
    "result.short": "{name} owed {owed} but had only {paid} on the table: the winners share "
                    "it.",
    "result.seed": "🔓 Seed: {seed} (fingerprint {fingerprint})",
    "result.verify": "Check the deal: {command}",
    "hand.no_chips": "You played this deal for no chips.",
    "hand.left_game": "You left the game; the computer plays your seat for no chips. Your "
                      "chips on the table come back when this deal ends. /join takes your "
                      "seat back.",
    # hearing of new games
    "notify.opened": "A new game is open in {chat}: {game}, stake ×{stake}.",
    "notify.on": "I'll tell you privately when a game opens here, once per game. /notify "
                 "again stops it. (I can only write to you once you have opened a private "
                 "chat with me.)",
    "notify.off": "I won't tell you about new games here any more.",
    # the host's controls
    "host.rights": "Only the game's host (who opened it) or an admin can do that.",
    "host.removed_before": "You were removed from this game and cannot sit at it again.",
    "host.after_deal": "You are still playing this deal for chips on the seat you left: take "
                       "a seat when it ends.",
    "host.no_seat": "Every seat is taken by a person: wait for the next game.",
    "host.took_seat": "{name} takes over a seat.",
    "host.seat_taken_from_you": "{name} took over your seat. Your chips on the table come "
                                "back when this deal ends.",
    "host.removed": "{name} is no longer at the table.",
    "host.removed_you": "{name} removed you from the game: the computer plays your seat for "
                        "no chips. Your chips on the table come back when this deal ends.",
    "host.removed_you_lobby": "{name} removed you from the lobby.",
    "host.not_yourself": "To give up your own seat, use /leave.",
    "host.no_turn": "No turn is due now.",
    "host.skipped": "The computer plays the turn of {name}.",
    "host.no_such_player": "Nobody called “{name}” sits at this table.",
    "host.which": "Several players are called “{name}”: reply to the message of the one you "
                  "mean.",
    "host.kick_usage": "Reply to a player's message with /kick, or name them: /kick NAME",
}
