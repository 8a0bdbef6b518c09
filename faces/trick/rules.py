"""The rules of Tien Gow in short, in Ukrainian and English, for `/rules GAME`.

The texts follow RULES.md §2.8, with decisions D-02…D-18, and describe what
`games/` actually does. They are plain text of at most 3000 characters, with "• " bullets and
no markup characters.
"""

from __future__ import annotations


def _text(*lines: str) -> str:
    return "\n".join(lines)


_TIENGOW_UK = _text(
    "Небо-Дев'ять (天九, ТяньДзю): гра на взятки, 4 гравці, китайський набір із 32 плиток, по 8 "
    "кожному.",
    "",
    "• Старшинство. Цивільні: [6:6] Небо › [1:1] Земля › [4:4] Людина › [3:1] Гармонія › [5:5] "
    "› [3:3] › [2:2] › [6:5] › [6:4] › [6:1] › [5:1]. Військові за сумою цяток: дев'ятки "
    "[6:3] і [5:4] › вісімки [6:2] і [5:3] › сімки [5:2] і [4:3] › [4:2] › п'ятірки [4:1] і "
    "[3:2] › [2:1]. Рівні плитки одна одну не б'ють: бере та, що лягла першою.",
    "• Першим заходить банкір (у першій роздачі за жеребом, далі переможець попередньої); "
    "наступну взятку починає той, хто взяв попередню. Ходять по черзі.",
    "• Зайти можна однією плиткою, парою (дві однакові цивільні; військові дев'ятки, вісімки, "
    "сімки, п'ятірки; Найвища пара [4:2][2:1]) або змішаною комбінацією однієї з чотирьох "
    "родин: Небо з дев'ятками, Земля з вісімками, Людина з сімками, Гармонія з п'ятірками, з 2, "
    "3 або 4 плиток. Інших комбінацій немає.",
    "• Решта кладуть стільки ж плиток: або відкрито, якщо це б'є найвищу гру у взятці (вища "
    "плитка тієї ж масті, вища комбінація того ж виду й складу цивільних і військових), або "
    "лицем донизу будь-які. Бити не обов'язково. Найвищу пару ніхто не б'є, але й вона нічого "
    "не б'є: виграє лише тоді, коли нею зайшли.",
    "• Хто взяв взятку з k плиток, тому зараховують k взяток. Роздачу виграє той, хто взяв "
    "останню взятку; він стає банкіром.",
    "• Розрахунок із переможцем: хто не взяв жодної взятки, платить 5; інші платять 4 мінус свої "
    "взятки (більше 4: переможець платить їм). Платежі банкіра й банкірові множаться на banker; "
    "програлий банкір, що взяв більше 4 взяток, отримує без множника. Усе множиться на unit.",
    "",
    "Пресети:",
    "• modern: типовий, змішані комбінації дозволені.",
    "• pure: лише пари, як у давній грі (mixed=off).",
    "• streak: множник банкіра росте, доки він виграє (streak=on).",
    "• early-death: рання смерть (early_death=on).",
    "",
    "Опції (назва=значення):",
    "• mixed=on або off: змішані комбінації родин.",
    "• streak=on або off: банкір, що виграв знову, грає наступну роздачу з множником на 1 "
    "більшим (×2, ×3, ×4…), доки не виграє інший.",
    "• early_death=on або off: якщо в останню взятку зайшли однією плиткою, гравець без жодної "
    "взятки кладе свою плитку лицем донизу.",
    "• banker=2: множник платежів банкіра.",
    "• unit=1: фішок за одиницю платежу.",
    "• deals=0: кількість роздач у матчі (0: доки стіл не зупинять).",
    "Приклад: /newgame tiengow streak early_death=on",
)

_TIENGOW_EN = _text(
    "Tien Gow (天九, Heaven and Nine): a trick-taking game for 4 players with the Chinese set "
    "of 32 tiles, 8 each.",
    "",
    "• Ranks. Civil: [6:6] Heaven › [1:1] Earth › [4:4] Man › [3:1] Harmony › [5:5] › [3:3] › "
    "[2:2] › [6:5] › [6:4] › [6:1] › [5:1]. Military by pips: Nines [6:3] and [5:4] › Eights "
    "[6:2] and [5:3] › Sevens [5:2] and [4:3] › [4:2] › Fives [4:1] and [3:2] › [2:1]. Equal "
    "tiles never beat each other: the first one played wins.",
    "• The banker leads the first trick (drawn by lot in the first deal, then the last deal's "
    "winner); whoever takes a trick leads the next. Play goes round in turn.",
    "• A lead is one tile, a pair (two identical civil tiles; the military Nines, Eights, "
    "Sevens, Fives; the Supreme pair [4:2][2:1]) or a mixed combination of one family: Heaven "
    "with Nines, Earth with Eights, Man with Sevens, Harmony with Fives, of 2, 3 or 4 tiles. "
    "Nothing else may be led.",
    "• The others play as many tiles: face up if they beat the highest play of the trick (a "
    "higher tile of the same suit, a higher combination of the same kind and the same mix of "
    "civil and military tiles), or face down, any tiles. Beating is never compulsory. The "
    "Supreme pair cannot be beaten and beats nothing: it wins only when led.",
    "• A trick of k tiles counts as k tricks for its winner. Whoever takes the last trick wins "
    "the deal and becomes the banker.",
    "• Settlement with the winner: a player with no trick pays 5; the others pay 4 minus their "
    "tricks (more than 4: the winner pays them). Payments to or from the banker are multiplied "
    "by banker; a losing banker who took more than 4 tricks is paid without it. Everything is "
    "multiplied by unit.",
    "",
    "Presets:",
    "• modern: the default, mixed combinations allowed.",
    "• pure: pairs only, the historical game (mixed=off).",
    "• streak: the banker's multiplier grows while he keeps winning (streak=on).",
    "• early-death: the early death rule (early_death=on).",
    "",
    "Options (name=value):",
    "• mixed=on or off: the mixed family combinations.",
    "• streak=on or off: a banker who wins again plays the next deal at one more (×2, ×3, "
    "×4 …) until someone else wins.",
    "• early_death=on or off: when the last trick is led with one tile, a player with no trick "
    "must lay his tile face down.",
    "• banker=2: the multiplier on the banker's payments.",
    "• unit=1: chips per point of every payment.",
    "• deals=0: deals in a match (0: until the table stops).",
    "Example: /newgame tiengow streak early_death=on",
)

TEXTS: dict[str, dict[str, str]] = {
    "tiengow": {"uk": _TIENGOW_UK, "en": _TIENGOW_EN},
}
