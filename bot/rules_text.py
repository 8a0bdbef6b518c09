"""Short rules of every game, in Ukrainian and English, for the bot's `/rules GAME` command.

A player who types `/rules dragon` gets one message: who plays, the deal, a turn, the end of a
deal, how scores become chips, and the presets and options by the exact names `/newgame` accepts
(`/newgame dragon two-arm`, `/newgame dragon deals=3`). The texts follow RULES.md §2.1 (common
core of the connecting games), §2.2–§2.3 (Dragon, one and two arms), §2.4 (Ce Deng), §2.5
(Tails), §2.6–§2.7 (Kap Ten, Kap Tai Shap), §2.8 (Tien Gow), §2.9 (Three Dozen) and §2.10 (the
Ukrainian "ДОМІНО"), with decisions D-02…D-18, and they describe what `games/` actually does
(e.g. the `tally` settlement and the `deals`/`lead` options, which are the project's own). They
are plain text of at most 3000 characters (`MAX_CHARS`), with "• " bullets and no markup
characters, so no adapter has to escape them.
"""

from __future__ import annotations

from games import get
from games.engine import InvalidOptions

MAX_CHARS = 3000
"""The longest a summary may be. It fits one Telegram message (4096); Discord's plain message
content holds 2000, so a Discord adapter sends it as an embed description (4096) instead."""


def _text(*lines: str) -> str:
    return "\n".join(lines)


_DRAGON_UK = _text(
    "З'єднай дракона (接龍, ДзєЛун): 2–4 гравці, китайський набір із 32 плиток.",
    "",
    "• Роздача: учотирьох по 8 плиток, утрьох по 10 (дві зайві лишаються закритими й не "
    "грають), удвох по 16. Базару немає.",
    "• У першій роздачі починає той, на кого впаде жереб. Він кладе будь-яку плитку. З одним "
    "рукавом він оголошує, який кінець відкритий, а другий кінець закритий до кінця роздачі; з "
    "двома рукавами відкриті обидва кінці.",
    "• Далі ходять по черзі. Хто має плитку з числом відкритого кінця, мусить її приєднати; її "
    "другий кінець стає новим відкритим (дубль число не змінює). Хто не може, кладе перед собою "
    "одну плитку на вибір лицем донизу й пасує; ця плитка в гру вже не повертається.",
    "• Роздача закінчується, коли всі плитки викладено або відкладено. Якщо жодна плитка на "
    "руках не підходить до відкритого кінця, гру зупиняють, а все, що лишилося на руках, "
    "рахується як відкладене.",
    "• Очки: сума цяток на відкладених плитках. Виграє найменша сума; за рівності виграє нижча "
    "рука (перша рука — той, хто почав роздачу, далі за чергою).",
    "• settlement=classic: кожні двоє гравців платять один одному різницю своїх очок. "
    "settlement=chips: переможець бере по 1 фішці з кожного. settlement=tally: після роздач "
    "фішки не рухаються, очки накопичуються, і коли чийсь підсумок сягне target (або після "
    "deals роздач), найменший підсумок бере по 1 фішці з кожного.",
    "",
    "Пресети:",
    "• one-arm: типовий, один рукав, класичний розрахунок.",
    "• two-arm: два відкриті кінці (arms=2).",
    "• dancing: два рукави і clean_bonus=on.",
    "• chips: по 1 фішці з кожного переможеного.",
    "• tally: підсумок очок до target.",
    "",
    "Опції (назва=значення):",
    "• arms=1 або 2: скільки відкритих кінців.",
    "• clean_bonus=on: якщо хтось виклав усі свої плитки, очки решти подвоюються.",
    "• settlement=classic, chips або tally: як рухаються фішки.",
    "• lead=winner або rotate: наступну роздачу починає переможець або наступна за чергою рука.",
    "• target=100: для tally, підсумок, на якому матч закінчується.",
    "• deals=0: скільки роздач у матчі (0 — без обмеження, доки гравці не зупиняться).",
    "Приклад: /newgame dragon two-arm deals=3",
)

_DRAGON_EN = _text(
    "Dragon (接龍, Jie Long): 2 to 4 players, the 32-tile Chinese set.",
    "",
    "• Deal: 8 tiles each for 4 players, 10 each for 3 (the 2 left over stay face down, out of "
    "play), 16 each for 2. There is no stock.",
    "• The first deal is led by lot. The leader lays any tile. With one arm he says which end is "
    "open, and the other end stays closed for the whole deal; with two arms both ends are open.",
    "• Then players take turns. If you hold a tile with the number of an open end, you must "
    "attach it; its other end becomes the new open end (a double keeps the number). If you "
    "cannot, you lay one tile of your choice face down in front of you and pass; it never comes "
    "back into play.",
    "• The deal ends when every tile is placed or laid down. If no tile in any hand fits an open "
    "end, play stops and the tiles still in hand count as laid down.",
    "• Score: the pips on your face-down tiles. Lowest wins; a tie goes to the lower hand (the "
    "leader is hand 1, then in turn order).",
    "• settlement=classic: every two players pay each other the difference of their scores. "
    "settlement=chips: the winner takes 1 chip from each other player. settlement=tally: no chips "
    "after a deal; scores add up, and when someone's total reaches target (or after the number "
    "of deals set by deals) the lowest total takes 1 chip from each.",
    "",
    "Presets:",
    "• one-arm: the default, one open end, classic settlement.",
    "• two-arm: both ends open (arms=2).",
    "• dancing: two arms and clean_bonus=on.",
    "• chips: 1 chip from each loser.",
    "• tally: running totals up to target.",
    "",
    "Options (name=value):",
    "• arms=1 or 2: how many open ends.",
    "• clean_bonus=on: if anyone places all his tiles, everyone else's score doubles.",
    "• settlement=classic, chips or tally: how chips move.",
    "• lead=winner or rotate: the next deal is led by the winner or by the next hand in turn.",
    "• target=100: tally only, the total that ends the match.",
    "• deals=0: deals in a match (0 means no limit, until the players stop).",
    "Example: /newgame dragon two-arm deals=3",
)

_CEDENG_UK = _text(
    "Косий цвях (斜釘, ЦеДенг): рівно 4 гравці, китайський набір із 32 плиток, по 8 плиток, "
    "базару немає, один рукав.",
    "",
    "• Якщо комусь здали сім чи більше дублів (про вісім див. eight_doubles), роздачу "
    "скасовують і здають знову з тією самою головою.",
    "• Гра як у З'єднай дракона з одним рукавом. Голова (перший гравець; у першій роздачі за "
    "жеребом) кладе будь-яку плитку й оголошує відкритий кінець. Хто має плитку під відкритий "
    "кінець, мусить її приєднати, інакше кладе одну плитку на вибір лицем донизу й пасує. Коли "
    "ніхто вже не може нічого приєднати, плитки на руках рахуються як відкладені.",
    "• Очки: сума цяток відкладених плиток; виграє найменша сума, за рівності нижча рука.",
    "• Після роздачі кожен гравець чистий, оштрафований або звичайний. Чистий виклав усі 8 "
    "плиток. Оштрафований: за penalty=7-8 голова відклав 7 плиток (зіграв лише першу) або хвіст "
    "(будь-хто інший) відклав усі 8; за penalty=6-7 голова відклав 6 і більше, хвіст 7 і більше.",
    "• settlement=classic: кожні двоє платять один одному різницю очок, помножену на 2 між "
    "чистим і звичайним або між оштрафованим і звичайним, на 4 між чистим і оштрафованим, на 1 "
    "при однаковому статусі. settlement=chips: переможець бере по 1 фішці з кожного, без "
    "множників. settlement=tally: очки накопичуються до target, тоді найменший підсумок бере по "
    "1 фішці з кожного.",
    "• eight_doubles=win: кому здали вісім дублів, той одразу виграє, а кожен інший платить йому "
    "подвійну суму цяток зі своєї руки.",
    "",
    "Пресети:",
    "• classic: типовий, голова-7-хвіст-8, класичний розрахунок із множниками.",
    "• strict: суворіше правило голова-6-хвіст-7 (penalty=6-7).",
    "• eight-win: вісім дублів виграють одразу, з подвійною оплатою (eight_doubles=win).",
    "• chips: по 1 фішці з кожного переможеного.",
    "",
    "Опції (назва=значення):",
    "• penalty=7-8 або 6-7: скільки відкладених плиток означає штраф для голови і для хвоста.",
    "• eight_doubles=redeal або win: вісім дублів у роздачі дають перездачу або перемогу.",
    "• settlement=classic, chips або tally: як рухаються фішки.",
    "• lead=winner або rotate: наступну роздачу починає переможець або наступна за чергою рука.",
    "• target=100: для tally, підсумок, на якому матч закінчується.",
    "• deals=0: скільки роздач у матчі (0 — без обмеження).",
    "Приклад: /newgame cedeng strict",
)

_CEDENG_EN = _text(
    "Ce Deng (斜釘, slanted nail): exactly 4 players, the 32-tile Chinese set, 8 tiles each, no "
    "stock, one arm.",
    "",
    "• If anyone is dealt seven or more doubles (for eight see eight_doubles), the deal is void "
    "and dealt again with the same head.",
    "• Play as in one-arm Dragon. The head (the first player; by lot in the first deal) lays any "
    "tile and says which end is open. If you hold a tile that fits the open end you must attach "
    "it; otherwise you lay one tile of your choice face down and pass. Once nobody can attach "
    "anything, the tiles still in hand count as laid down.",
    "• Score: the pips on your face-down tiles; lowest wins, a tie goes to the lower hand.",
    "• After the deal each player is clean, penalized or normal. Clean: placed all 8 tiles. "
    "Penalized: with penalty=7-8 the head laid down 7 tiles (played only his lead) or a tail "
    "(any other player) laid down all 8; with penalty=6-7 the head laid down 6 or more, a tail 7 "
    "or more.",
    "• settlement=classic: every two players pay each other the difference of their scores, "
    "times 2 between clean and normal or between penalized and normal, times 4 between clean and "
    "penalized, times 1 for equal status. settlement=chips: the winner takes 1 chip from each, "
    "no multipliers. settlement=tally: scores add up to target, then the lowest total takes 1 "
    "chip from each.",
    "• eight_doubles=win: a player dealt eight doubles wins at once, and each other player pays "
    "him twice the pips in his own hand.",
    "",
    "Presets:",
    "• classic: the default, head-7/tail-8, classic settlement with multipliers.",
    "• strict: the stricter head-6/tail-7 rule (penalty=6-7).",
    "• eight-win: eight dealt doubles win at once, paid double (eight_doubles=win).",
    "• chips: 1 chip from each loser.",
    "",
    "Options (name=value):",
    "• penalty=7-8 or 6-7: how many face-down tiles penalize the head and a tail.",
    "• eight_doubles=redeal or win: eight dealt doubles mean a redeal or a win.",
    "• settlement=classic, chips or tally: how chips move.",
    "• lead=winner or rotate: the next deal is led by the winner or by the next hand in turn.",
    "• target=100: tally only, the total that ends the match.",
    "• deals=0: deals in a match (0 means no limit).",
    "Example: /newgame cedeng strict",
)

_TAILS_UK = _text(
    "Хвости (꼬리붙이기, Коріпут-ігі, корейська гра): 2–4 гравці, один рукав, базару немає.",
    "",
    "• Колода: учотирьох усі 32 плитки, по 8. Утрьох і вдвох з набору забирають обидві копії "
    "дублів [3:3], [4:4], [5:5] і [6:6] (лишається 24 плитки): утрьох по 8, удвох по 12.",
    "• Гра як у З'єднай дракона з одним рукавом. Перший гравець (у першій роздачі за жеребом) "
    "кладе будь-яку плитку й оголошує відкритий кінець. Хто має плитку під відкритий кінець, "
    "мусить її приєднати, інакше кладе одну плитку на вибір лицем донизу й пасує. Роздача "
    "закінчується, коли всі плитки викладено або відкладено; якщо ніхто вже не може нічого "
    "приєднати, плитки на руках рахуються як відкладені.",
    "• Очки: сума цяток відкладених плиток; виграє найменша сума, за рівності нижча рука.",
    "• Платять переможцю не всі: гравець із найбільшими очками (якщо таких кілька — той із них, "
    "чия рука пізніша за чергою) і кожен інший, у кого понад 30 очок (рівно 30 не платить).",
    "• settlement=chips: кожен платник дає переможцю 1 фішку. settlement=points: кожен платник "
    "дає різницю між своїми очками й очками переможця. settlement=tally: після роздач фішки не "
    "рухаються, очки накопичуються, і коли чийсь підсумок сягне target (або після deals роздач), "
    "найменший підсумок бере по 1 фішці з кожного.",
    "",
    "Пресети:",
    "• chips: типовий, по 1 фішці з кожного платника.",
    "• points: платники віддають різницю очок (settlement=points).",
    "",
    "Опції (назва=значення):",
    "• settlement=chips, points або tally: як рухаються фішки.",
    "• lead=winner або rotate: наступну роздачу починає переможець або наступна за чергою рука.",
    "• target=100: для tally, підсумок, на якому матч закінчується.",
    "• deals=0: скільки роздач у матчі (0 — без обмеження).",
    "Приклад: /newgame tails points",
)

_TAILS_EN = _text(
    "Tails (꼬리붙이기, Kkori-but-igi, a Korean game): 2 to 4 players, one arm, no stock.",
    "",
    "• Deck: 4 players use all 32 tiles, 8 each. For 3 or 2 players both copies of the doubles "
    "[3:3], [4:4], [5:5] and [6:6] are taken out (24 tiles left): 8 each for 3, 12 each for 2.",
    "• Play as in one-arm Dragon. The first player (by lot in the first deal) lays any tile and "
    "says which end is open. If you hold a tile that fits the open end you must attach it; "
    "otherwise you lay one tile of your choice face down and pass. The deal ends when every tile "
    "is placed or laid down; once nobody can attach anything, the tiles still in hand count as "
    "laid down.",
    "• Score: the pips on your face-down tiles; lowest wins, a tie goes to the lower hand.",
    "• Not everyone pays the winner: only the player with the highest score (on a tie, the "
    "latest hand among them) and everyone else with more than 30 (exactly 30 does not pay).",
    "• settlement=chips: each payer gives the winner 1 chip. settlement=points: each payer gives "
    "the difference between his score and the winner's. settlement=tally: no chips after a "
    "deal; scores add up, and when someone's total reaches target (or after the number of deals "
    "set by deals) the lowest total takes 1 chip from each.",
    "",
    "Presets:",
    "• chips: the default, 1 chip from each payer.",
    "• points: payers pay the difference of scores (settlement=points).",
    "",
    "Options (name=value):",
    "• settlement=chips, points or tally: how chips move.",
    "• lead=winner or rotate: the next deal is led by the winner or by the next hand in turn.",
    "• target=100: tally only, the total that ends the match.",
    "• deals=0: deals in a match (0 means no limit).",
    "Example: /newgame tails points",
)

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

_DOMINO_UK = _text(
    "Доміно (українська гра з базаром): 2–4 гравці, європейський набір дубль-шість із 28 "
    "плиток; порожня половинка — 0 балів.",
    "",
    "• Роздача: удвох по 7 плиток, утрьох і вчотирьох по 5; решта плиток лицем донизу — це "
    "базар.",
    "• Починає той, у кого найбільший дубль, і саме цим дублем (спершу питають [6:6], потім "
    "[5:5] і так далі). Якщо дублів немає ні в кого, плитки перемішують і здають знову. Так у "
    "кожній роздачі.",
    "• Ланцюжок має два кінці; плитку приставляють так, щоб числа на дотичних половинках "
    "збігалися. Дубль стоїть у ланцюжку й нових гілок не відкриває.",
    "• Хто може походити, мусить ходити. Хто не може: за draw=until бере з базару, доки не "
    "витягне плитку, що підходить, лишає собі все витягнуте й одразу кладе цю плитку (якщо базар "
    "скінчився, хід переходить далі); за draw=one бере одну плитку: якщо вона підходить — кладе, "
    "якщо ні — лишає собі, і хід переходить далі. Базар порожній: пас.",
    "• Роздача закінчується, коли хтось кладе останню плитку: він отримує суму балів на руках "
    "усіх інших. Якщо базар порожній і ніхто не може походити (риба), виграє той, у кого "
    "найменше балів на руках, і отримує суму балів усіх рук разом зі своєю; якщо найменше у "
    "кількох, ніхто нічого не отримує.",
    "• Матч виграє той, чий рахунок першим сягне target.",
    "• chips=pips: після кожної роздачі кожен переможений платить переможцю стільки фішок, "
    "скільки балів лишилося в нього на руках. chips=stake: після роздач фішки не рухаються, а "
    "переможець матчу бере по stake фішок з кожного.",
    "",
    "Пресети:",
    "• 100: типовий, гра до 100 балів.",
    "• 50: коротка гра до 50 (target=50).",
    "• one-draw: брати з базару лише одну плитку (draw=one).",
    "• stake: гра на ставку (chips=stake).",
    "",
    "Опції (назва=значення):",
    "• target=100 або 50: рахунок, що виграє матч.",
    "• draw=until або one: брати з базару до підхожої плитки чи лише одну.",
    "• chips=pips або stake: платити бали з руки після кожної роздачі чи ставку в кінці матчу.",
    "• stake=1: скільки фішок кожен платить переможцю матчу.",
    "Приклад: /newgame domino stake stake=5",
)

_DOMINO_EN = _text(
    "Domino (the Ukrainian draw game): 2 to 4 players, the double-six set of 28 tiles; a blank "
    "counts 0.",
    "",
    "• Deal: 7 tiles each for 2 players, 5 each for 3 or 4; the rest lies face down as the "
    "stock.",
    "• Whoever holds the highest double opens with it ([6:6] is asked for first, then [5:5] and "
    "so on). If nobody holds a double, the tiles are shuffled and dealt again. This happens "
    "every deal.",
    "• The line has two ends; a tile goes where its number matches the end it touches. A double "
    "sits in the line and never opens new branches.",
    "• If you can play, you must. If you cannot: with draw=until you draw from the stock until a "
    "tile fits, keep everything drawn and play that tile at once (if the stock runs out, the "
    "turn passes); with draw=one you draw one tile, play it if it fits, otherwise keep it and "
    "the turn passes. Empty stock: pass.",
    "• The deal ends when someone lays his last tile: he scores the pips left in all other "
    "hands. If the stock is empty and nobody can play, the player with the fewest pips in hand "
    "wins and scores the pips of all hands, his own included; if two or more tie for fewest, "
    "nobody scores.",
    "• The match is won by the first score to reach target.",
    "• chips=pips: after every deal each loser pays the winner as many chips as the pips left in "
    "his own hand. chips=stake: no chips after a deal; the match winner takes stake chips from "
    "each other player.",
    "",
    "Presets:",
    "• 100: the default, play to 100.",
    "• 50: the short game to 50 (target=50).",
    "• one-draw: draw a single tile only (draw=one).",
    "• stake: play for a stake (chips=stake).",
    "",
    "Options (name=value):",
    "• target=100 or 50: the score that wins the match.",
    "• draw=until or one: draw until a tile fits, or one tile only.",
    "• chips=pips or stake: pay the pips in hand every deal, or a stake at the end of the match.",
    "• stake=1: chips each player pays the match winner.",
    "Example: /newgame domino stake stake=5",
)

# The presets and options both Kap games share, in the order every text lists them.
_KAP_CHOICES_UK = (
    "",
    "Пресети:",
    "• culin: типовий, правила Куліна.",
    "• classical: класичні правила (rules=classical).",
    "",
    "Опції (назва=значення):",
    "• rules=culin або classical: як минає хід.",
    "• ante=1: скільки фішок кожен кладе в банк.",
    "• four_two=3 або 6: скільки важить [4:2] у десятці: 3 (як у Куліна) або свої 6 цяток.",
    "• deal=seed або even: seed — першому гравцеві на плитку більше, і він починає з "
    "відкидання; even — усім порівну, а перший хід — потягнути й відкинути, як роздає "
    "симулятор автора правил.",
)

_KAPTEN_UK = _text(
    "Тягни десятки (夾十, Kap Shap): рівно 2 гравці, китайський набір із 32 плиток.",
    "",
    "• Роздача: першому гравцеві (у першій роздачі його визначає жереб) 8 плиток, другому 7; "
    "решта 17 лицем донизу — колода.",
    "• Ціна плитки — сума цяток, але [4:2] рахується як 3 (four_two). Виграшна рука з 8 плиток: "
    "око (дві однакові плитки) і три десятки — пари, що разом мають 10 або 20. Вона виграє тієї "
    "ж миті, коли зібрана: одразу з роздачі, після взятої відкинутої плитки чи після плитки з "
    "колоди. Розкладати руку не треба: це робить гра.",
    "• Правила Куліна (типові): за свій хід можна взяти будь-яку відкриту відкинуту плитку, "
    "навіть власну, і тоді відкинути іншу (не таку саму). Потім обов'язково тягнете плитку з "
    "колоди й "
    "відкидаєте одну. Тож за хід можна взяти дві плитки. Перший хід першого гравця: відкинути, "
    "потягнути, відкинути.",
    "• Класичні правила: за хід або берете останню відкинуту плитку, або тягнете з колоди, і "
    "відкидаєте одну (не щойно взяту й не таку саму). Перший хід першого гравця: лише відкинути "
    "плитку.",
    "• Якщо на початку ходу колода порожня, роздачу анульовано: внески повертаються.",
    "• Кожен кладе в банк ante фішок, переможець забирає банк. Наступну роздачу починає "
    "переможець, після анульованої — той самий гравець.",
    *_KAP_CHOICES_UK,
    "• deals=0: кількість роздач у матчі (0: доки стіл не зупинять).",
    "Приклад: /newgame kapten classical deals=3",
)

_KAP_CHOICES_EN = (
    "",
    "Presets:",
    "• culin: the default, Culin's rules.",
    "• classical: the classical rules (rules=classical).",
    "",
    "Options (name=value):",
    "• rules=culin or classical: how a turn goes.",
    "• ante=1: chips each player puts into the pot.",
    "• four_two=3 or 6: what [4:2] counts in a ten: 3 (as Culin has it) or its own 6 pips.",
    "• deal=seed or even: seed gives the first player one tile more and he opens with a "
    "discard; even deals everyone alike and the first turn is a draw and a discard, as the "
    "rules author's simulator deals.",
)

_KAPTEN_EN = _text(
    "Kap Ten (夾十, Kap Shap): exactly 2 players, the 32-tile Chinese set.",
    "",
    "• Deal: 8 tiles to the first player (drawn by lot in the first deal), 7 to the other; "
    "the other 17 lie face down as the stock.",
    "• A tile is worth its pips, but [4:2] counts 3 (four_two). A winning hand of 8 tiles is an "
    "eye (two identical tiles) and three tens: pairs worth 10 or 20 together. It wins the "
    "moment it is held: straight from the deal, after taking a discard or after a draw. Nobody "
    "has to lay it out: the game does.",
    "• Culin's rules (the default): on your turn you may take any face-up discard, your own "
    "too, and then discard another tile (not an identical one). Then you must draw from the stock "
    "and discard one "
    "tile. So a turn can bring two tiles. The first player's first turn is discard, draw, "
    "discard.",
    "• Classical rules: each turn you either take the last discard or draw from the stock, "
    "then discard one tile (neither the one just taken nor an identical one). The first player's "
    "first turn is a "
    "single discard.",
    "• If the stock is empty when a turn begins, the deal is void and the antes go back.",
    "• Everyone puts ante chips into the pot; the winner takes it. The winner leads the next "
    "deal; after a void deal the same player leads again.",
    *_KAP_CHOICES_EN,
    "• deals=0: deals in a match (0: until the table stops).",
    "Example: /newgame kapten classical deals=3",
)

_KAPTAISHAP_UK = _text(
    "Тягни багато десяток (夾大十, Kap Tai Shap): 2–20 гравців, кілька китайських наборів по "
    "32 плитки, перетасованих разом.",
    "",
    "• Усе як у Тягни десятки, крім цього. Наборів типово приблизно два на п'ятьох гравців "
    "(10 гравців › 4 набори, 20 › 8; sets). Першому гравцеві 10 плиток, решті по 9; решта — "
    "колода.",
    "• Виграшна рука з 10 плиток: око (дві однакові плитки, тепер і військові) і чотири "
    "десятки — пари, що разом мають 10 або 20; [4:2] рахується як 3 (four_two). Рука виграє "
    "тієї ж миті, коли зібрана: з роздачі, після взятої відкинутої плитки чи після плитки з "
    "колоди.",
    "• Правила Куліна (типові): за хід можна взяти будь-яку відкриту відкинуту плитку, навіть "
    "власну, і відкинути іншу (не таку саму); потім обов'язково тягнете з колоди й відкидаєте "
    "одну. Перший "
    "хід першого гравця: відкинути, потягнути, відкинути. З багатьма гравцями так роздача "
    "часто кінчається ще в першому колі.",
    "• Класичні правила (радять для великого столу): за хід або берете останню відкинуту "
    "плитку, або тягнете з колоди, і відкидаєте одну (не щойно взяту й не таку саму). Перший хід: "
    "лише "
    "відкинути.",
    "• Якщо на початку ходу колода порожня, роздачу анульовано: внески повертаються.",
    "• Кожен кладе в банк ante фішок, переможець забирає банк і починає наступну роздачу.",
    *_KAP_CHOICES_UK,
    "• sets=0: скільки наборів (0: два на п'ятьох гравців, з округленням угору; наборів має "
    "вистачити на колоду).",
    "• deals=0: кількість роздач у матчі (0: доки стіл не зупинять).",
    "Приклад: /newgame kaptaishap classical sets=4",
)

_KAPTAISHAP_EN = _text(
    "Kap Tai Shap (夾大十): 2 to 20 players, several 32-tile Chinese sets shuffled together.",
    "",
    "• As Kap Ten, except as follows. There are about two sets per five players (10 players › "
    "4 sets, 20 › 8; sets). The first player gets 10 tiles, everyone else 9; the rest is the "
    "stock.",
    "• A winning hand of 10 tiles is an eye (two identical tiles, now military ones too) and "
    "four tens: pairs worth 10 or 20 together; [4:2] counts 3 (four_two). It wins the moment "
    "it is held: from the deal, after taking a discard or after a draw.",
    "• Culin's rules (the default): on your turn you may take any face-up discard, your own "
    "too, and discard another tile (not an identical one); then you must draw from the stock and "
    "discard one. The "
    "first player's first turn is discard, draw, discard. With many players a deal often ends "
    "within the first round.",
    "• Classical rules (advised for a big table): each turn you either take the last discard "
    "or draw from the stock, then discard one tile (neither the one just taken nor an identical "
    "one). The first turn is "
    "a single discard.",
    "• If the stock is empty when a turn begins, the deal is void and the antes go back.",
    "• Everyone puts ante chips into the pot; the winner takes it and leads the next deal.",
    *_KAP_CHOICES_EN,
    "• sets=0: how many sets (0: two per five players, rounded up; there must be enough for a "
    "stock).",
    "• deals=0: deals in a match (0: until the table stops).",
    "Example: /newgame kaptaishap classical sets=4",
)

_THREEDOZEN_UK = _text(
    "Три дюжини: 2–5 гравців, європейський набір дубль-шість із 28 плиток.",
    "",
    "• Роздача: по 5 плиток, першому гравцеві 6; решта лицем донизу — колода. Першого гравця "
    "в першій роздачі визначає жереб, далі починає попередній переможець.",
    "• Пара — це два сусідні дублі ([0:0][1:1] … [5:5][6:6]) або дві плитки, що разом мають 12 "
    "очок: [3:3] складає пару з [4:4], [2:2], [6:0], [5:1] і [4:2].",
    "• Перший хід першого гравця: викласти всі свої пари відкрито й відкинути одну плитку.",
    "• Далі за хід: або взяти останню плитку, відкинуту попереднім гравцем, — лише якщо вона "
    "одразу складає пару з вашою плиткою, і цю пару ви відразу викладаєте, — або потягнути з "
    "колоди. Потім викладаєте пари (обов'язково; яку саме — ваш вибір) і відкидаєте одну "
    "плитку. Викладені пари лишаються на столі.",
    "• Хто першим має три пари з усіх своїх 6 плиток (викладених і на руці), той виграє тієї ж "
    "миті.",
    "• Коли треба тягнути, а колода порожня, усі відкинуті плитки перетасовують у нову колоду.",
    "• Кожен ставить stake фішок. Перемога з плиткою з колоди (або з роздачі) забирає всі "
    "ставки; перемога з плиткою, відкинутою попереднім гравцем, забирає лише його ставку, інші "
    "ставки повертаються.",
    "",
    "Пресети:",
    "• standard: типовий, брати відкинуту плитку не обов'язково.",
    "• forced-pickup: якщо відкинута плитка складає вам пару, її треба взяти (pickup=forced).",
    "",
    "Опції (назва=значення):",
    "• pickup=optional або forced: чи обов'язково брати відкинуту плитку, що складає пару.",
    "• stake=1: скільки фішок ставить кожен гравець.",
    "• deals=0: кількість роздач у матчі (0: доки стіл не зупинять).",
    "Приклад: /newgame threedozen forced-pickup deals=5",
)

_THREEDOZEN_EN = _text(
    "Three Dozen: 2 to 5 players, the 28-tile Western double-six set.",
    "",
    "• Deal: 5 tiles each, 6 to the first player; the rest lies face down as the stock. The "
    "first deal is led by lot, later deals by the last winner.",
    "• A pair is two neighbouring doubles ([0:0][1:1] … [5:5][6:6]) or two tiles with 12 pips "
    "together: [3:3] pairs with [4:4], [2:2], [6:0], [5:1] and [4:2].",
    "• The first player's first turn: lay out all his pairs face up and discard one tile.",
    "• Each later turn: either take the last tile the previous player discarded, only if it "
    "makes a pair with a tile of yours, and lay that pair out at once, or draw from the "
    "stock. Then lay out pairs (compulsory; which pair is your choice) and discard one tile. "
    "Pairs laid out stay on the table.",
    "• The first player whose 6 tiles (laid out and in hand) make three pairs wins at that "
    "moment.",
    "• When a draw is due and the stock is empty, all the discards are shuffled into a new "
    "stock.",
    "• Everyone stakes stake chips. A win with a tile from the stock (or from the deal) takes "
    "every stake; a win with the previous player's discard takes only that player's stake, "
    "and the other stakes go back.",
    "",
    "Presets:",
    "• standard: the default, taking the discard is optional.",
    "• forced-pickup: a discard that makes you a pair must be taken (pickup=forced).",
    "",
    "Options (name=value):",
    "• pickup=optional or forced: whether a discard that pairs must be taken.",
    "• stake=1: chips each player stakes.",
    "• deals=0: deals in a match (0: until the table stops).",
    "Example: /newgame threedozen forced-pickup deals=5",
)

RULES_TEXT: dict[str, dict[str, str]] = {
    "dragon": {"uk": _DRAGON_UK, "en": _DRAGON_EN},
    "cedeng": {"uk": _CEDENG_UK, "en": _CEDENG_EN},
    "tails": {"uk": _TAILS_UK, "en": _TAILS_EN},
    "kapten": {"uk": _KAPTEN_UK, "en": _KAPTEN_EN},
    "kaptaishap": {"uk": _KAPTAISHAP_UK, "en": _KAPTAISHAP_EN},
    "tiengow": {"uk": _TIENGOW_UK, "en": _TIENGOW_EN},
    "threedozen": {"uk": _THREEDOZEN_UK, "en": _THREEDOZEN_EN},
    "domino": {"uk": _DOMINO_UK, "en": _DOMINO_EN},
}
"""Game id -> language -> the rules summary."""


def rules_text(game: str, lang: str) -> str:
    """The summary of `game` (an id or any alias `games.get` knows) in `lang`.

    A language without a text falls back to English ("uk-UA" and "en_GB" count as their base
    language); a game nobody knows raises KeyError.
    """
    key = game.strip().lower()
    if key not in RULES_TEXT:
        try:
            key = get(key).id
        except InvalidOptions:
            raise KeyError(game) from None
        if key not in RULES_TEXT:
            raise KeyError(game)
    texts = RULES_TEXT[key]
    base = lang.strip().lower().replace("_", "-").split("-")[0]
    return texts.get(base, texts["en"])
