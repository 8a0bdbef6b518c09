"""Words a player can trust: a tile named as its own game names it, Tien Gow's plays by their
names, presets in the reader's language, one word for the stock, no gendered Ukrainian."""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

import pytest
from PIL import Image

import games
from bot.commandline import gallery
from faces import HOMES, home, rules_text
from faces.presets import game_title, preset_name
from faces.samples import sample_deal
from faces.trick.names import play_name, trick_names
from games.engine import Event
from games.hierarchy import classify
from games.tiengow_deal import Play
from games.tiles import CHINESE
from words.catalogue import CATALOGUE
from words.i18n import tr

NAMES = ("Олена", "Bob", "Кім", "Ann")


def tiles(*specs: str) -> tuple[int, ...]:
    """Ids by face; a civil face named twice gives both copies."""
    out: list[int] = []
    for spec in specs:
        copies = [t for t in CHINESE.ids_of(int(spec[0]), int(spec[1])) if t not in out]
        out.append(copies[0])
    return tuple(out)


def public_view(game: str, **values: object):
    rules = games.get(game)
    players = rules.min_players
    return rules.view(rules.new_deal(rules.options(**values), players, "names"), None)


def said(game: str, event: Event, lang: str, **values: object) -> str:
    return home(game).footer((event,), public_view(game, **values), NAMES, lang)


# ----- 1. tile names per game -------------------------------------------------------------------

def tien_gow_names(lang: str) -> set[str]:
    return {tr(lang, f"tile.{k.hi}{k.lo}") for k in CHINESE.kinds} | {"Supreme", "Найвища"}


@pytest.mark.parametrize("lang", ["en", "uk"])
def test_line_games_call_a_chinese_tile_by_its_face(lang):
    three = tiles("21")
    assert said("dragon", Event("play", 0, three, 0), lang).endswith(": " + (
        "played [2:1]" if lang == "en" else "[2:1]"))
    assert said("cedeng", Event("lead", 1, tiles("66"), 6), lang) == \
        "Bob: " + tr(lang, "move.lead", tile="[6:6]")


def test_kap_says_what_a_tile_counts_where_its_face_does_not():
    six = tiles("42")
    assert said("kapten", Event("discard", 0, six), "en") == "Олена: discarded [4:2] (counts 3)"
    assert said("kapten", Event("take", 1, six), "uk") == \
        "Bob: бере [4:2] (рахується як 3) з відкинутих"
    assert said("kaptaishap", Event("discard", 0, six), "en") == \
        "Олена: discarded [4:2] (counts 3)"
    # With four_two=6 the tile counts its pips, so its face says it all.
    assert said("kapten", Event("discard", 0, six), "en", four_two=6) == "Олена: discarded [4:2]"
    # Every other tile counts its pips: no Tien Gow name, no count.
    assert said("kapten", Event("discard", 0, tiles("66")), "en") == "Олена: discarded [6:6]"
    assert said("kapten", Event("take", 0, tiles("21")), "uk") == "Олена: бере [2:1] з відкинутих"


def test_tien_gow_names_its_tiles_and_plays():
    assert said("tiengow", Event("beat", 2, tiles("66"), 1), "en") == \
        "Кім: beat it with [6:6] Heaven"
    assert said("tiengow", Event("lead", 0, tiles("66", "63"), 2), "uk") == \
        "Олена: перша плитка [6:6] [6:3] Небо–Дев'ятка"
    assert said("tiengow", Event("lead", 1, tiles("42", "21"), 2), "en") == \
        "Bob: led [4:2] [2:1] Supreme pair"
    # A face-down follow still names nothing.
    assert said("tiengow", Event("fold", 3, (), 2), "en") == "Ann: laid 2 tiles face down"


@pytest.mark.parametrize("lang", ["en", "uk"])
def test_no_tien_gow_name_in_any_other_game(lang):
    """Every move of a sample deal of every other game, in words: no rank name, no Supreme."""
    forbidden = re.compile(r"\b(" + "|".join(map(re.escape, tien_gow_names(lang))) + r")\b")
    seen = 0
    for family in dict.fromkeys(HOMES.values()):
        for game, preset, players in family.variants:
            if game == "tiengow":
                continue
            rules = games.get(game)
            for step in sample_deal(rules, rules.options(preset), players, f"names/{game}"):
                if step.event is None:
                    continue
                text = family.footer((step.event,), rules.view(step.state, None),
                                     NAMES * 5, lang)
                assert not forbidden.search(text), (game, text)
                seen += bool(step.event.tiles)
    assert seen > 100


# ----- 2. Tien Gow's combinations ---------------------------------------------------------------

@pytest.mark.parametrize(("specs", "en", "uk"), [
    (("66",), "Heaven", "Небо"),
    (("42",), "Six", "Шістка"),
    (("21",), "Three", "Трійка"),
    (("66", "66"), "Heaven pair", "пара Неба"),
    (("51", "51"), "Copper-hammer Six pair", "пара Червономолоткової шестірки"),
    (("62", "53"), "pair of Eights", "пара вісімок"),
    (("41", "32"), "pair of Fives", "пара п'ятірок"),
    (("42", "21"), "Supreme pair", "Найвища пара"),
    (("66", "63"), "Heaven–Nine", "Небо–Дев'ятка"),
    (("54", "66"), "Heaven–Nine", "Небо–Дев'ятка"),
    (("11", "11", "62"), "Earth–Earth–Eight", "Земля–Земля–Вісімка"),
    (("66", "63", "54"), "Heaven–Nine–Nine", "Небо–Дев'ятка–Дев'ятка"),
    (("44", "52"), "Man–Seven", "Людина–Сімка"),
    (("31", "31", "41", "32"), "Harmony–Harmony–Five–Five", "Гармонія–Гармонія–П'ятірка–П'ятірка"),
])
def test_a_play_is_named_as_tien_gow_knows_it(specs, en, uk):
    assert play_name(tiles(*specs), "en") == en
    assert play_name(tiles(*specs), "uk") == uk


def test_what_may_not_be_led_has_no_name():
    assert play_name(tiles("66", "62"), "en") is None       # TG-12: not one family
    assert play_name(tiles("63", "62"), "en") is None
    assert play_name(tiles("66", "63"), "en", mixed=False) is None  # pure pairs only
    assert play_name(tiles("66", "66"), "en", mixed=False) == "Heaven pair"


def test_every_play_that_may_be_led_has_one_name_per_combination():
    """All 1–4 tile groups of the set: a name in both languages exactly when the game's own
    classification accepts the group, and plays the game tells apart are named apart."""
    named: dict[tuple[str, str], object] = {}
    for size in (1, 2, 3, 4):
        for group in combinations(range(CHINESE.size), size):
            combo = classify(group)
            for lang in ("en", "uk"):
                name = play_name(group, lang)
                assert (name is None) == (combo is None), group
                if name is not None:
                    key = (combo.category, combo.civil, combo.military, combo.rank)
                    assert named.setdefault((lang, name), key) == key, (name, group)
    # Singles: 11 civil, 6 military values; pairs: 11 civil, 4 military, the Supreme pair;
    # mixed: 4 families in 4 shapes.
    assert len(named) == 2 * (11 + 6 + 11 + 4 + 1 + 4 * 4)


def test_a_trick_names_its_leader_and_the_play_holding_it():
    trick = (Play(1, 2, True, tiles("62", "53")), Play(2, 2, True, tiles("63", "54")),
             Play(3, 2, False, ()))
    names = trick_names(trick, "en")
    assert (names.leader, names.led, names.holder, names.best) == \
        (1, "pair of Eights", 2, "pair of Nines")
    # The Supreme pair played on a led pair beats nothing: the lead holds (TG-08).
    trick = (Play(0, 2, True, tiles("41", "32")), Play(1, 2, True, tiles("42", "21")))
    names = trick_names(trick, "uk")
    assert (names.leader, names.led, names.holder, names.best) == \
        (0, "пара п'ятірок", 0, "пара п'ятірок")
    assert trick_names((), "en") is None


# ----- 4. presets -------------------------------------------------------------------------------

def test_every_preset_of_every_game_has_a_name_in_both_languages():
    for rules in games.GAMES.values():
        for preset in rules.presets:
            for lang in ("en", "uk"):
                assert f"preset.{preset}" in CATALOGUE[lang], (rules.id, preset, lang)
    assert preset_name("one-arm", "uk") == "один рукав"
    assert preset_name("forced-pickup", "uk") == "обов'язкове взяття"
    assert preset_name("culin", "en") == "Culin's rules"
    assert preset_name("no-such", "uk") == "no-such"


def test_a_title_names_the_preset_in_the_readers_language():
    assert game_title("dragon", "one-arm", "uk") == "З'єднай дракона · один рукав"
    assert game_title("tiengow", "modern", "uk") == "Небо-Дев'ять · сучасний"
    assert game_title("threedozen", "forced-pickup", "en") == "Three Dozen · forced pickup"
    assert game_title("domino", None, "en") == tr("en", "game.domino")


def test_the_gallery_titles_are_translated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    titles: list[str] = []

    def board(view, frame):
        titles.append(frame.title)
        return b""

    monkeypatch.setattr(gallery.pictures, "board", board)
    monkeypatch.setattr(gallery.pictures, "hand", lambda view, frame: b"")
    monkeypatch.setattr(gallery.pictures, "result", lambda view, frame: b"")
    monkeypatch.setattr(gallery, "tile_sheet", lambda *args: Image.new("RGB", (1, 1)))
    gallery.render_gallery(tmp_path, lang="uk")
    assert "З'єднай дракона · один рукав" in titles
    assert "Тягни десятки · правила Куліна" in titles
    ids = {p for rules in games.GAMES.values() for p in rules.presets}
    assert not [t for t in titles if t.rsplit(" · ", 1)[-1] in ids]


# ----- 5. one word for the stock; 6. no gendered Ukrainian --------------------------------------

def entries(lang: str):
    for key, entry in CATALOGUE[lang].items():
        for text in entry if isinstance(entry, tuple) else (entry,):
            yield key, text


def test_one_word_for_the_stock():
    assert not [key for key, text in entries("uk") if "колод" in text.lower()]
    assert not [key for key, text in entries("en") if re.search(r"\b(deck|wall)\b", text)]
    for key in ("table.stock", "btn.draw_stock", "move.draw_hidden", "img.deck", "img.stock",
                "console.stock", "move.void", "reason.void", "label.stock", "img.from_stock"):
        uk = CATALOGUE["uk"][key]
        assert "базар" in (uk[0] if isinstance(uk, tuple) else uk).lower(), key
        en = CATALOGUE["en"][key]
        assert "stock" in (en[0] if isinstance(en, tuple) else en), key
    for game in ("kapten", "kaptaishap", "threedozen"):
        text = rules_text(game, "uk")
        assert "колод" not in text.lower() and "базар" in text


GENDERED = re.compile(
    r"\b(я|ви|він|вона)\s+\w+(в|ла)(ся)?\b"  # "я повернувся", "він виклав"
    r"|\bповерну(вся|лася)\b|\bпереможець\b|\bпереможниця\b|\bчистий\b|\bчиста\b"
    r"|\b(першим|першою|останнім|останньою)\s+(ходить|збере|позбудеться|має)\b"
    r"|\b(ходить|збере|позбудеться|має)\s+(першим|першою)\b"
    r"|\bхто\s+\w+(в|ла)\b|\bніхто\s+не\s+\w+(в|ла)\b",
    re.IGNORECASE)


def test_ukrainian_wording_does_not_agree_with_a_players_gender():
    # The `/rules` texts speak of "the winner" of any deal, not of one person at the table.
    found = [(key, text) for key, text in entries("uk")
             if GENDERED.search(text) and not key.startswith("rules.")]
    assert not found, found
    assert tr("uk", "btn.back") == "Я знову тут"
