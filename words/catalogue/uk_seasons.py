"""Сезони українською: таблиця сезону й вибір сезону, допис із п'єдесталом, коли сезон
закінчується, сезони гравця і налаштування сезонів чату (`storage.seasons`)."""

from __future__ import annotations

from words.catalogue.types import Entry

SEASONS: dict[str, Entry] = {
    # як називається сезон
    "season.month_1": "січень",
    "season.month_2": "лютий",
    "season.month_3": "березень",
    "season.month_4": "квітень",
    "season.month_5": "травень",
    "season.month_6": "червень",
    "season.month_7": "липень",
    "season.month_8": "серпень",
    "season.month_9": "вересень",
    "season.month_10": "жовтень",
    "season.month_11": "листопад",
    "season.month_12": "грудень",
    "season.span_month": "{month} {year}",
    "season.span_days": "{first} – {last}",
    "season.kind_week": "тиждень (від понеділка 00:00 UTC)",
    "season.kind_month": "календарний місяць (UTC)",
    "season.kind_off": "вимкнено",
    # /top
    "top.season_title": "Сезон {number} · {span} (сторінка {page}):",
    "top.season_over_title": "Сезон {number} · {span}, завершено (сторінка {page}):",
    "top.season_line": ("{rank}. {name} — {won}, роздачі: {n}",
                        "{rank}. {name} — {won}, роздачі: {n}",
                        "{rank}. {name} — {won}, роздачі: {n}"),
    "top.season_ends": "Сезон закінчується {when} UTC. За весь час: /top all",
    "top.season_empty": "У сезоні {number} ({span}) ще не зіграно жодної роздачі. За весь "
                        "час: /top all",
    "top.per_deal_season_title": "Сезон {number}: виграш за роздачу, щонайменше {least} роздач "
                                 "(сторінка {page}):",
    "top.per_deal_season_empty": "У сезоні {number} ще немає гравців, що мають {least} "
                                 "роздач на фішки.",
    "top.season_picture_title": "Сезон {number} · {span}",
    "top.usage": "/top показує таблицю лідерів сезону. Можна додати: all (за весь час), "
                 "season N (один із минулих сезонів), deal (за виграшем на роздачу), число "
                 "(сторінку). Наприклад: /top season 2 deal",
    "top.no_season": "Сезону {number} тут немає: досі були сезони {seasons}.",
    "top.no_seasons_yet": "Сезону {number} тут немає: перший сезон ще триває.",
    "top.seasons_off": "Цей чат грає без сезонів (/settings season month їх вмикає); "
                       "/top all показує таблицю лідерів.",
    "btn.top_all": "🏛 За весь час",
    "btn.top_season": "🗓 Цей сезон",
    # допис із п'єдесталом
    "season.over": "🏁 Сезон {number} ({span}) завершено!",
    "season.podium_line": ("{medal} {name}: {won}, роздачі: {n}",
                           "{medal} {name}: {won}, роздачі: {n}",
                           "{medal} {name}: {won}, роздачі: {n}"),
    "season.summary": ("Гравців: {players}, роздач разом: {n}.",
                       "Гравців: {players}, роздач разом: {n}.",
                       "Гравців: {players}, роздач разом: {n}."),
    "season.next": "Починається сезон {next}: його таблиця — з нуля, а фішки кожен зберігає. "
                   "Уся таблиця сезону {number}: /top season {number}",
    "season.next_off": "Далі цей чат грає без сезонів. Уся таблиця сезону {number}: "
                       "/top season {number}",
    "season.picture_footer": ("гравців: {players} · роздач: {n}",
                              "гравців: {players} · роздач: {n}",
                              "гравців: {players} · роздач: {n}"),
    "img.won": "виграно",
    "img.podium_deals": ("{n} роздача", "{n} роздачі", "{n} роздач"),
    # /stats
    "stats.seasons": "Сезони:",
    "stats.season_line": ("• сезон {number} ({span}): місце {rank} з {players}, {won}, "
                          "роздачі: {n}",
                          "• сезон {number} ({span}): місце {rank} з {players}, {won}, "
                          "роздачі: {n}",
                          "• сезон {number} ({span}): місце {rank} з {players}, {won}, "
                          "роздачі: {n}"),
    "stats.season_now": ("• сезон {number} ({span}, триває): місце {rank} з {players}, "
                         "{won}, роздачі: {n}",
                         "• сезон {number} ({span}, триває): місце {rank} з {players}, "
                         "{won}, роздачі: {n}",
                         "• сезон {number} ({span}, триває): місце {rank} з {players}, "
                         "{won}, роздачі: {n}"),
    # /settings season
    "settings.bad_season": "Сезон може тривати тиждень чи місяць або бути вимкненим: "
                           "/settings season week|month|off",
    "settings.season_same": "Сезони тут уже такі: {kind}.",
    "settings.season_set": "Збережено: відтепер сезон — {kind}.",
    "settings.season_off": "Збережено: сезонів тут більше немає; /top показує таблицю за весь "
                           "час.",
    "settings.season_cut": "Сезон {number} закінчився з цією зміною; його п'єдестал — у чаті.",
    # /top у Discord
    "dopt.season": "сезон",
    "dhelp.season": "all — за весь час, або номер минулого сезону",
}
