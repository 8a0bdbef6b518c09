"""The web table in Ukrainian: its button in the chats, the page's own words and its refusals
(a Telegram Mini App, `bot.web.webapp`), and watching a game (the page's spectators, Discord's
live ephemeral table)."""

from __future__ import annotations

from words.catalogue.types import Entry

WEB: dict[str, Entry] = {
    "btn.web_table": "🀄 Відкрити стіл",
    "web.your_tiles": "Ваші плитки",
    "web.face_down": "{face}, покладена лицем донизу",
    "web.tap_tile": "Торкніться плитки, щоб побачити її ходи.",
    "web.pick_more": ("Виберіть ще {n} плитку або хід нижче.",
                      "Виберіть ще {n} плитки або хід нижче.",
                      "Виберіть ще {n} плиток або хід нижче."),
    "web.no_moves": "Цими плитками не походити: торкніться плитки, щоб почати знову.",
    "web.connecting": "З'єднання…",
    "web.offline": "Зв'язок втрачено: пробуємо знову…",
    "web.join": "Приєднатися",
    "web.board": "Стіл",
    "web.moves": "Ваші ходи",
    "web.closed": "Цю гру закінчено.",
    "web.not_your_turn": "Чекаємо на ваш хід.",
    "web.retry": "Спробувати ще",
    "web.open_in_telegram": "Відкрийте цей стіл з повідомлення гри в Telegram.",
    "web.no_game": "Такої гри тут немає.",
    "web.unsigned": "Ця сторінка не змогла довести, хто ви: відкрийте її знову з Telegram.",
    "web.slow_down": "Забагато запитів водночас: стіл наздожене за мить.",
    "web.elsewhere": "Цей стіл відкрито в новішому вікні; це вікно за ним більше не стежить.",
    "btn.watch": "👁 Дивитися",
    "web.watching": ("👁 {n} глядач", "👁 {n} глядачі", "👁 {n} глядачів"),
    "web.spectator": "Ви дивитеся гру: показано лише те, що лежить на столі.",
    "web.watch_only": "Ви дивитеся цю гру: ходять лише її гравці. «Приєднатися» дає вільне "
                      "місце, коли воно є.",
    "watch.live": "Оновлюється до {until}: тоді натисніть «Дивитися» знову, щоб дивитися далі.",
    "watch.over": "Цю гру закінчено: це її останній стіл.",
    "watch.lapsed": "Ця картинка більше не стежить за грою: натисніть «Дивитися» знову.",
    "watch.crowded": "Забагато глядачів водночас: стіл у каналі показує те саме.",
    "watch.not_yet": "Ця гра ще не почалася: хто гратиме, видно в повідомленні про набір.",
    "web.not_member": "Дивитися цю гру можуть лише учасники її групи.",
    "web.cannot_tell": "Telegram не зміг сказати, чи ви в цій групі: спробуйте ще раз за мить.",
}
