"""The line games' own words in Ukrainian (Dragon, Ce Deng, Tails, Ding Niu, Доміно): their titles
(`game.<id>`), the line and its open ends in the terminal, why a typed move is refused and what the
moves mean, their hints, buttons and picture labels (added to the catalogue when the home is
imported). Like the rest of the catalogue, no verb agrees with a player's gender, and counts have
three forms."""

from __future__ import annotations

from words.catalogue import Entry

LINE: dict[str, Entry] = {
    # the games' titles
    "game.dragon": "З'єднай дракона",
    "game.cedeng": "Косий цвях",
    "game.tails": "Хвости",
    "game.dingniu": "Бій биків",
    "game.domino": "Доміно",
    # the terminal
    "console.line": "Ряд: {tiles}",
    "console.line_empty": "Ряд порожній.",
    "console.ends": "відкрито: {ends}",
    "console.closed_end": "закрито: {end}",
    "console.stock": ("на базарі {n} плитка", "на базарі {n} плитки", "на базарі {n} плиток"),
    "console.face_down": ("{n} лицем донизу", "{n} лицем донизу", "{n} лицем донизу"),
    "console.my_face_down": "Лицем донизу: {tiles}",
    "console.pips_to": "очки (сума точок) {pips}/{target}",
    "console.points_to": "очки {points}/{target}",
    "refuse.one_tile": "Один хід — одна плитка: напишіть одну літеру.",
    "refuse.fits_no_end": "[{tile}] не підходить до жодного відкритого кінця ({ends}): кінці, що "
                          "торкаються, мають бути однакові.",
    "refuse.fits_not_end": "[{tile}] не підходить до відкритого кінця ({ends}): кінці, що "
                           "торкаються, мають бути однакові.",
    "refuse.not_end": "[{tile}] не підходить до кінця {end}: кінці, що торкаються, мають бути "
                      "однакові.",
    "refuse.no_such_end": "Відкритого кінця {end} немає: відкриті кінці {ends}.",
    "refuse.one_end": "У ряду один відкритий кінець ({end}): напишіть лише літеру, без кінця.",
    "refuse.closed": "Другий кінець закритий до кінця роздачі.",
    "refuse.must_attach": "У вас є плитка, що підходить, і її треба покласти: лицем донизу "
                          "зараз нічого не кладуть.",
    "refuse.drop": "Жодна ваша плитка не підходить до відкритого кінця, тож одну плитку "
                   "кладуть лицем донизу: напишіть лише її літеру.",
    "refuse.domino_lead": "Ряд починає найбільший дубль: [{tile}].",
    "refuse.pending": "Щойно витягнута плитка [{tile}] підходить, і її треба покласти зараз.",
    "refuse.then_draw": "Жодна ваша плитка не підходить: тягніть нову.",
    "refuse.then_pass": "Жодна ваша плитка не підходить, а тягнути вже нічого: пропустіть хід.",
    "teach.lead_open": "A 6:4 →4   перша плитка; число після → — кінець, що лишається "
                       "відкритим (напишіть a, а потім номер ходу, якщо їх два)",
    "teach.lead_both": "A 6:4      перша плитка; обидва її кінці лишаються відкритими",
    "teach.attach_one": "A 6:4      прикласти плитку, число якої збігається з відкритим "
                        "кінцем (напишіть a)",
    "teach.attach_two": "Плитку, що підходить, треба покласти; кінці, що торкаються, "
                        "однакові.",
    "teach.on_end": "A 6:4 на 4 прикласти до відкритого кінця 4: це число в кружечку на кожному "
                    "кінці ряду на малюнку (напишіть a4)",
    "teach.drop": "A 6:4 ↓    нічого не підходить: покладіть плитку лицем донизу; її точки "
                  "рахують проти вас",
    "teach.connect_goal": "Роздачу виграє той, у кого найменше точок лицем донизу.",
    "teach.domino_lead": "A 6:6      ряд починає найбільший дубль",
    "teach.domino_draw": "{button}   нічого не підходить: тягніть, доки не трапиться плитка, що "
                         "підходить",
    "teach.domino_draw_one": "{button}   нічого не підходить: витягніть одну плитку",
    "teach.domino_pass": "{button}   нічого не підходить, а тягнути вже нічого",
    "teach.domino_goal": "Хто раніше за всіх позбудеться плиток, отримує точки всіх рук; матч — до "
                         "{target}.",
    # the table, its pictures and its moves
    "btn.draw": "Взяти з базару",
    "btn.on_end": "{move} на {end}",
    "btn.pass": "Пас",
    "hint.lead_open_end": "Ходіть будь-якою плиткою; число після → лишається відкритим, "
                          "другий кінець закрито.",
    "hint.drop": "Жодна плитка не підходить: покладіть одну лицем донизу.",
    "img.face_down": "скинуто: {v}",
    "img.stock": "базар: {v}",
    "img.in_hands": "плиток у руках: {v}",
    "img.score": "очки: {v}/{target}",
    "img.total": "разом: {v}",
    "img.empty_line": "на столі ще немає плиток",
    # Бій биків (RULES.md §2.11): його блок, Суаньчжан
    "dn.full": "Суаньчжан ({name}): ряд заблоковано; відтепер приєднують лише дублі.",
    "dn.smothered": "Суаньчжан ({name}): ряд задушено, роздача закінчується.",
    "dn.forced": "Вимушений блок ({name}): іншої підхожої плитки не було, тож це не "
                 "Суаньчжан.",
    "hint.dn_doubles": "Ряд заблоковано: можна класти лише підхожий дубль.",
    "refuse.dn_doubles": "[{tile}] підходить, але після блоку приєднують лише дублі.",
    "refuse.dn_lead": "До [{tile}] ніхто інший ніколи не зможе приєднатися: почніть з іншої "
                      "плитки.",
    "teach.dn_block": "Заблокувати ряд, маючи вибір (Суаньчжан): виграш роздачі подвоює всі "
                      "виплати, програш — платите переможцю 12.",
    "preset.beginner": "для початківців",
    "preset.zhwiki": "китайські правила",
    "img.dn_block": "Суаньчжан",
    "img.dn_forced": "вимушений блок",
    "label.suanzhang": "Суаньчжан",
    "label.suanzhang_failed": "Суаньчжан не вдався",
}
