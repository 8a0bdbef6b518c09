"""Tien Gow's own words in Ukrainian: its title (`game.tiengow`), its hints, refusals and lessons,
its table and pictures, its pairs by name (added to the catalogue when the home is imported). Like
the rest of the catalogue, no verb agrees with a player's gender, and counts have three forms."""

from __future__ import annotations

from words.catalogue import Entry

TRICK: dict[str, Entry] = {
    # the games' titles
    "game.tiengow": "Небо-Дев'ять",
    # the terminal
    "console.trick": "Взятка: {plays}",
    "console.last_trick": "Остання взятка, бере {name}: {plays}",
    "console.trick_empty": "У взятці ще немає плиток.",
    "console.tricks": ("{n} взятка", "{n} взятки", "{n} взяток"),
    "refuse.tg_size": ("Взятку почали з {n} плитки: покладіть {n} (ви написали {typed}).",
                       "Взятку почали з {n} плиток: покладіть {n} (ви написали {typed}).",
                       "Взятку почали з {n} плиток: покладіть {n} (ви написали {typed})."),
    "refuse.tg_too_many": "Заходять щонайбільше {most} плитками.",
    "refuse.tg_no_combo_mixed": "{tiles} — не хід: зайдіть однією плиткою, парою (дві однакові "
                                "цивільні, військова пара, Найвища пара [4:2][2:1]) або "
                                "плитками однієї родини (Небо–Дев'ять, Земля–Вісім, "
                                "Людина–Сім, Гармонія–П'ять).",
    "refuse.tg_no_combo": "{tiles} — не хід: зайдіть однією плиткою або парою (дві однакові "
                          "цивільні, військова пара, Найвища пара [4:2][2:1]); змішані "
                          "комбінації вимкнено.",
    "teach.tg_lead_mixed": "A B 6:2 5:3   зайти однією плиткою, парою або плитками однієї "
                           "родини (напишіть ab)",
    "teach.tg_lead_pure": "A B 6:6 6:6   зайти однією плиткою або парою (напишіть ab)",
    "teach.tg_beat": "▲ A 6:6       відповісти лицем догори: б'є найкращий хід взятки",
    "teach.tg_fold": "↓ A B         відповісти лицем донизу стількома ж плитками: будь-якими, "
                     "вони не виграють",
    "teach.tg_groups": "↓ A … / 2 плитки   група ходів: виберіть її, потім хід",
    "teach.tg_marks": "На столі ↓2 — хід із 2 плиток лицем донизу.",
    "teach.tg_goal": "Роздачу виграє той, хто бере останню взятку.",
    # the table, its pictures and its moves
    "table.banker": "Банкір: {name} ×{multiplier}",
    "table.tricks": "Взятки: {tricks}",
    "hint.tg_lead": "Зайдіть однією плиткою, парою чи комбінацією; решта відповідають стількома "
                    "ж плитками.",
    "hint.tg_follow": ("Покладіть {n} плитку: відкрито (▲), якщо вона б'є взятку, або лицем "
                       "донизу (↓).",
                       "Покладіть {n} плитки: відкрито (▲), якщо вони б'ють взятку, або лицем "
                       "донизу (↓).",
                       "Покладіть {n} плиток: відкрито (▲), якщо вони б'ють взятку, або лицем "
                       "донизу (↓)."),
    "hint.tg_dead": "Рання смерть: без жодної взятки останню взятку не взяти, тож плитка йде "
                    "лицем донизу.",
    "group.tiles": ("{n} плитка", "{n} плитки", "{n} плиток"),
    "group.beat": "▲ Бити",
    "tg.pair.66": "пара Неба",
    "tg.pair.11": "пара Землі",
    "tg.pair.44": "пара Людини",
    "tg.pair.31": "пара Гармонії",
    "tg.pair.55": "пара Квітів сливи",
    "tg.pair.33": "пара Довгих трійок",
    "tg.pair.22": "пара Лавки",
    "tg.pair.65": "пара Сокири",
    "tg.pair.64": "пара Червоноголової десятки",
    "tg.pair.61": "пара Довгоногої семірки",
    "tg.pair.51": "пара Червономолоткової шестірки",
    "img.tricks": "взятки: {v}",
    "img.banker": "банкір ×{m}",
    "img.led": "перший хід",
    "img.trick_led": "{name}: перший хід, {play}",
    "img.trick_best": "{name}: тримає, {play}",
    "img.trick_took": "{name}: бере, {play}",
    "img.holds": "тримає взятку",
    "img.taken": "бере {name} (+{v})",
    "img.banker_leads": "перший хід: банкір {name}",
    "img.tricks_column": "взятки",
}
