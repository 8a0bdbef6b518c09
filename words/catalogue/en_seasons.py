"""Seasons in English: the season's leaderboard and how to choose one, the podium post when a
season ends, a person's seasons, and the chat's season setting (`storage.seasons`)."""

from __future__ import annotations

from words.catalogue.types import Entry

SEASONS: dict[str, Entry] = {
    # what a season is called
    "season.month_1": "January",
    "season.month_2": "February",
    "season.month_3": "March",
    "season.month_4": "April",
    "season.month_5": "May",
    "season.month_6": "June",
    "season.month_7": "July",
    "season.month_8": "August",
    "season.month_9": "September",
    "season.month_10": "October",
    "season.month_11": "November",
    "season.month_12": "December",
    "season.span_month": "{month} {year}",
    "season.span_days": "{first} – {last}",
    "season.kind_week": "a week (from Monday 00:00 UTC)",
    "season.kind_month": "a calendar month (UTC)",
    "season.kind_off": "off",
    # /top
    "top.season_title": "Season {number} · {span} (page {page}):",
    "top.season_over_title": "Season {number} · {span}, over (page {page}):",
    "top.season_line": ("{rank}. {name} — {won}, {n} deal", "{rank}. {name} — {won}, {n} deals"),
    "top.season_ends": "The season ends {when} UTC. All time: /top all",
    "top.season_empty": "Nobody has played in season {number} ({span}) yet. All time: /top all",
    "top.per_deal_season_title": "Season {number}: chips won per deal, at least {least} deals "
                                 "(page {page}):",
    "top.per_deal_season_empty": "Nobody has played {least} deals for chips in season "
                                 "{number} yet.",
    "top.season_picture_title": "Season {number} · {span}",
    "top.usage": "/top shows this season's leaderboard. Add: all (all time), season N (an "
                 "earlier season), deal (by chips won per deal), a number (a page). For "
                 "example: /top season 2 deal",
    "top.no_season": "There is no season {number} here: the seasons so far are {seasons}.",
    "top.no_seasons_yet": "There is no season {number} here: the first is still under way.",
    "top.seasons_off": "This chat plays no seasons (/settings season month turns them on); "
                       "/top all shows the leaderboard.",
    "btn.top_all": "🏛 All time",
    "btn.top_season": "🗓 This season",
    # the podium post
    "season.over": "🏁 Season {number} ({span}) is over!",
    "season.podium_line": ("{medal} {name}: {won}, {n} deal", "{medal} {name}: {won}, {n} deals"),
    "season.summary": ("{players} played, {n} deal in all.", "{players} played, {n} deals in all."),
    "season.next": "Season {next} begins: its table starts from zero, and everyone keeps their "
                   "chips. The whole table of season {number}: /top season {number}",
    "season.next_off": "This chat plays no more seasons. The whole table of season {number}: "
                       "/top season {number}",
    "season.picture_footer": ("{players} played · {n} deal", "{players} played · {n} deals"),
    "img.won": "won",
    "img.podium_deals": ("{n} deal", "{n} deals"),
    # /stats
    "stats.seasons": "Seasons:",
    "stats.season_line": ("• season {number} ({span}): place {rank} of {players}, {won}, "
                          "{n} deal",
                          "• season {number} ({span}): place {rank} of {players}, {won}, "
                          "{n} deals"),
    "stats.season_now": ("• season {number} ({span}, under way): place {rank} of {players}, "
                         "{won}, {n} deal",
                         "• season {number} ({span}, under way): place {rank} of {players}, "
                         "{won}, {n} deals"),
    # /settings season
    "settings.bad_season": "Seasons can last a week or a month, or be off: /settings season "
                           "week|month|off",
    "settings.season_same": "Seasons here are already {kind}.",
    "settings.season_set": "Saved: from now on a season is {kind}.",
    "settings.season_off": "Saved: no more seasons here; /top shows the all-time leaderboard.",
    "settings.season_cut": "Season {number} ended with this change; its podium is in the chat.",
    # Discord's /top
    "dopt.season": "season",
    "dhelp.season": "all for all time, or the number of an earlier season",
}
