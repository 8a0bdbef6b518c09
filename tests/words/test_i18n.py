"""The catalogue: both languages complete and consistent, plurals right, every key in use known.

Checked as the homes complete it: each home adds its own games' keys when it is imported, and
`faces` imports every home.
"""

from __future__ import annotations

import ast
import re
import string
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from faces import HOMES
from games import GAMES
from tests.support import sources as parsed_sources
from words.catalogue import CATALOGUE, add
from words.i18n import LANGS, lang_of, minus, plural_index, signed, tr

FORMS = {"uk": 3, "en": 2}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_languages_have_the_same_keys():
    uk, en = set(CATALOGUE["uk"]), set(CATALOGUE["en"])
    assert uk - en == set(), f"missing in English: {sorted(uk - en)}"
    assert en - uk == set(), f"missing in Ukrainian: {sorted(en - uk)}"


@pytest.mark.parametrize("key", sorted(CATALOGUE["en"]))
def test_entries_agree_in_shape_and_placeholders(key):
    entries = {lang: CATALOGUE[lang][key] for lang in LANGS}
    counted = {lang: isinstance(e, tuple) for lang, e in entries.items()}
    assert len(set(counted.values())) == 1, f"{key}: counted in one language only"
    placeholders = set()
    for lang, entry in entries.items():
        forms = entry if isinstance(entry, tuple) else (entry,)
        if isinstance(entry, tuple):
            assert len(forms) == FORMS[lang], f"{key}: {lang} needs {FORMS[lang]} plural forms"
        found = {frozenset(fields(f)) for f in forms}
        assert len(found) == 1, f"{key}: the {lang} forms use different placeholders"
        placeholders.add(found.pop())
    assert len(placeholders) == 1, f"{key}: placeholders differ between languages"


PACKAGES = ("bot", "words", "faces", "rendering", "storage", "games")
"""Every package of the project, subpackages included: a key used only below `bot/` (a home's
caption, a picture's label) must exist as surely as one the session layer uses."""
KEY = re.compile(r"[a-z][a-z0-9_]*(\.[a-z0-9_-]+)+")
FILE = re.compile(r".+\.(png|jpe?g|gif|html|css|js|json|txt|py|ttf|otf|sqlite3)")
FAMILY_HEAD = re.compile(r"([a-z][a-z0-9_]*\.)+[a-z0-9_]*")


@cache
def sources() -> tuple[tuple[Path, ast.Module], ...]:
    """Every module of every package but those that define keys rather than use them: the
    catalogue's own, and each home's words (`faces/line/en.py`, `uk.py`)."""
    found: list[tuple[Path, ast.Module]] = []
    for package in PACKAGES:
        paths = sorted(Path(package).rglob("*.py"))
        assert paths, package
        found += [(path, parsed_sources.tree(path)) for path in paths
                  if "catalogue" not in path.parts and not home_words(path)]
    return tuple(found)


def home_words(path: Path) -> bool:
    """A home's own keys, one module per language (`faces/trick/en.py`)."""
    return path.parts[0] == "faces" and len(path.parts) == 3 and path.stem in LANGS


def docstrings(tree: ast.Module) -> set[int]:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr)}


def constants(node: ast.expr) -> list[str]:
    """The literal strings an argument can be: both sides of `a if c else b`."""
    if isinstance(node, ast.IfExp):
        return constants(node.body) + constants(node.orelse)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    return []


def families() -> set[str]:
    """What a key starts with ("btn", "hint", "tg"): a string of this shape is a key."""
    return {key.split(".")[0] for key in CATALOGUE["en"]}


@cache
def used_keys() -> frozenset[str]:
    """Every key the code names literally, wherever it is written: passed to `tr`, named by a
    refusal (`Refusal("host.rights")`: translated when it is answered), or kept in a variable,
    a table or a condition before it reaches `tr` (`key = "hint.kap_draw"`). A string shaped
    like a key (`family.name`) whose family the catalogue or a `tr` call knows is a key; file
    names (`hand.png`) are not."""
    keys: set[str] = set()
    dotted: set[str] = set()
    for _, tree in sources():
        skip = docstrings(tree) | {id(part) for node in ast.walk(tree)
                                   if isinstance(node, ast.JoinedStr) for part in node.values}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", "") or getattr(node.func, "attr", "")
                if name == "tr" and len(node.args) >= 2:
                    keys.update(constants(node.args[1]))
                elif name == "Refusal" and node.args:
                    keys.update(constants(node.args[0]))
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and id(node) not in skip and KEY.fullmatch(node.value)
                  and not FILE.fullmatch(node.value)):
                dotted.add(node.value)
    known = families() | {key.split(".")[0] for key in keys}
    return frozenset(keys | {key for key in dotted if key.split(".")[0] in known})


@cache
def built_keys() -> dict[str, list[tuple[Path, ast.JoinedStr, ast.FunctionDef | None]]]:
    """Keys built at run time (`f"level.{level}"`), by the literal part they start with, with
    the function each is built in."""
    known = families()
    found: dict[str, list[tuple[Path, ast.JoinedStr, ast.FunctionDef | None]]] = {}

    def visit(path: Path, node: ast.AST, function: ast.FunctionDef | None) -> None:
        if isinstance(node, ast.FunctionDef):
            function = node
        if (isinstance(node, ast.JoinedStr) and node.values
                and isinstance(head := node.values[0], ast.Constant)
                and FAMILY_HEAD.fullmatch(head.value)
                and head.value.split(".")[0] in known):
            found.setdefault(head.value, []).append((path, node, function))
        for child in ast.iter_child_nodes(node):
            visit(path, child, function)

    for path, tree in sources():
        visit(path, tree, None)
    return found


def helper_arguments(path: Path, function: ast.FunctionDef, built: ast.JoinedStr
                     ) -> set[str] | None:
    """Where a key is `f"family.{name}"` and `name` is a parameter of the function that builds
    it (`_option("game")`), the family's members are what every call passes (in its own module
    when the function is private); None when a call passes something other than a literal, or
    the key is built from more than the parameter."""
    if len(built.values) != 2 or not isinstance(part := built.values[1], ast.FormattedValue):
        return None
    if not isinstance(part.value, ast.Name):
        return None
    parameters = [a.arg for a in function.args.args]
    if part.value.id not in parameters:
        return None
    at = parameters.index(part.value.id)
    passed: set[str] = set()
    for where, tree in sources():
        if function.name.startswith("_") and where != path:
            continue
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call)
                    and (getattr(node.func, "id", "") or getattr(node.func, "attr", ""))
                    == function.name):
                continue
            given = [k.value for k in node.keywords if k.arg == part.value.id]
            given += node.args[at:at + 1]
            if len(given) != 1 or not constants(given[0]):
                return None
            passed.update(constants(given[0]))
    return passed


def tileless_verbs(rules) -> set[str]:
    """The moves of a game that carry no tile (`Action("draw")`), as its modules make them."""
    verbs: set[str] = set()
    for cls in type(rules).__mro__:
        module = sys.modules[cls.__module__]
        if not cls.__module__.startswith("games.") or module.__file__ is None:
            continue
        for node in parsed_sources.nodes(Path(module.__file__)):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Action"
                    and len(node.args) == 1 and not node.keywords):
                assert constants(node.args[0]), f"{cls.__module__}: a verb not written out"
                verbs.update(constants(node.args[0]))
    return verbs


@cache
def outcomes() -> tuple[set[str], set[str]]:
    """The reasons and per-seat labels deals end with, from random deals of every game and
    preset: a game keeps them in its states, not in a list of its own, so a rare one (Dragon's
    eight doubles, Ce Deng's penalized seat) is named in `test_keys_made_from_game_data_exist`."""
    from games.engine import rng

    reasons, labels = set(), set()
    for rules in GAMES.values():
        for preset in (None, *rules.presets):
            for players in {rules.min_players, rules.default_players, rules.max_players}:
                for n in range(SAMPLED_DEALS):
                    seed = f"words/{preset}/{players}/{n}"
                    options = rules.options(preset=preset)
                    state = rules.new_deal(options, players, seed,
                                           rules.start_match(options, players, seed))
                    chooser = rng(seed, "test")
                    while rules.to_move(state) is not None:
                        legal = rules.legal_actions(state)
                        state, _ = rules.apply(state, legal[chooser.randrange(len(legal))])
                    result = rules.outcome(state)
                    assert result is not None
                    reasons.add(result.reason)
                    labels.update(result.labels)
    return reasons, labels


SAMPLED_DEALS = 8


def _line_games() -> list[Any]:
    return [GAMES[name] for name, home in HOMES.items()
            if type(home).__module__.startswith("faces.line")]


def _members() -> dict[str, Callable[[], set[str]]]:
    """Each family of keys built at run time and its source of truth: the list, table or tile
    set whose every member the code may turn into a key."""
    from bot.deals.replay_steps import WORDS as REPLAY_WORDS
    from bot.discord.discord_messages import NEEDED, NEEDED_IN_THREAD
    from bot.session.adapter import CHAT_COMMANDS, GAME_COMMANDS
    from bot.web.web_table import WORDS
    from faces.tile_sheet import MILITARY_PAIRS
    from games.hierarchy import CIVIL_PAIR, MILITARY_PAIR, classify
    from games.players import LEVELS
    from games.tiles import CHINESE

    pairs = [(a, b) for a in range(CHINESE.size) for b in range(CHINESE.size) if a < b]
    return {
        "btn.": lambda: {v for rules in _line_games() for v in tileless_verbs(rules)},
        "btn.add_": lambda: set(LEVELS),
        "level.": lambda: set(LEVELS),
        "command.": lambda: {*GAME_COMMANDS, *CHAT_COMMANDS},
        "discord.perm.": lambda: {*NEEDED, *NEEDED_IN_THREAD},
        "web.": lambda: set(WORDS),
        "web.replay_": lambda: set(REPLAY_WORDS),
        "preset.": lambda: {p for rules in GAMES.values() for p in rules.presets},
        "game.": lambda: set(GAMES),
        "team.": lambda: {str(team) for rules in GAMES.values()
                          for team in rules.teams(rules.max_players) or ()},
        "rules.": lambda: set(GAMES),
        "tile.": lambda: {f"{k.hi}{k.lo}" for k in CHINESE.kinds},
        "tg.pair.": lambda: {f"{CHINESE.kind(a).hi}{CHINESE.kind(a).lo}" for a, b in pairs
                             if (c := classify((a, b))) and c.category == CIVIL_PAIR},
        "tg.mpair.": lambda: {str(c.rank) for a, b in pairs
                              if (c := classify((a, b))) and c.category == MILITARY_PAIR}
                             | {str(value) for _, _, value in MILITARY_PAIRS},
        "reason.": lambda: outcomes()[0],
        "label.": lambda: outcomes()[1],
    }


def family_members(head: str) -> set[str] | None:
    """Every key of a family built at run time, or None when this test cannot know them."""
    members = _members()
    if head in members:
        return {head + m for m in members[head]()}
    found: set[str] = set()
    for path, built, function in built_keys()[head]:
        passed = None if function is None else helper_arguments(path, function, built)
        if passed is None:
            return None
        found |= {head + m for m in passed}
    return found


def test_every_key_built_at_run_time_has_a_known_family():
    """A new `f"family.{…}"` key fails here until this test knows where its members come from,
    so that no key escapes the check by being built."""
    unknown = {head: [f"{path}:{built.lineno}" for path, built, _ in sites]
               for head, sites in built_keys().items() if family_members(head) is None}
    assert not unknown, f"keys built from what this test cannot list: {unknown}"
    assert set(_members()) <= set(built_keys()), "a family no code builds any longer"


def test_every_key_a_family_can_build_exists(subtests: pytest.Subtests) -> None:
    """Each family its own check (the families are found by reading the code, which every
    test process would otherwise do at collection, for a parameter list)."""
    for head in sorted(built_keys()):
        with subtests.test(head=head):
            members = family_members(head)
            assert members, head
            missing = members - set(CATALOGUE["en"])
            assert not missing, (
                f"keys the code can build but the catalogue lacks: {sorted(missing)}")


def test_the_scan_finds_keys_below_the_session_layer():
    """The homes and the toolkit are scanned too, subpackages included."""
    assert {"teach.kap_take_culin", "hint.kap_draw", "img.head_short", "sheet.military"} \
        <= used_keys()


def test_every_key_the_code_uses_exists():
    missing = used_keys() - set(CATALOGUE["en"])
    assert not missing, f"keys used but not in the catalogue: {sorted(missing)}"
    assert len(used_keys()) > 50


def test_keys_made_from_game_data_exist():
    """Keys built at run time: outcome reasons, per-seat labels, move verbs, commands."""
    for key in ("reason.out", "reason.blocked", "reason.eight-doubles", "reason.domino",
                "label.clean", "label.penalized", "label.normal", "move.lead", "move.play",
                "move.drop", "move.pass", "btn.draw", "btn.pass"):
        assert key in CATALOGUE["en"], key
    from bot.session.adapter import CHAT_COMMANDS, GAME_COMMANDS
    for name in (*GAME_COMMANDS, *CHAT_COMMANDS):
        assert f"command.{name}" in CATALOGUE["en"]


@pytest.mark.parametrize(("n", "form"), [
    (0, 2), (1, 0), (2, 1), (4, 1), (5, 2), (11, 2), (12, 2), (14, 2), (21, 0), (22, 1),
    (25, 2), (101, 0), (111, 2), (1000, 2),
])
def test_ukrainian_plural_forms(n, form):
    assert plural_index("uk", n) == form


def test_plurals_in_sentences():
    assert tr("uk", "chips.balance", 1, name="Олена") == "Олена: 1 фішка"
    assert tr("uk", "chips.balance", 3, name="Олена") == "Олена: 3 фішки"
    assert tr("uk", "chips.balance", 11, name="Олена") == "Олена: 11 фішок"
    assert tr("uk", "chips.balance", 21, name="Олена") == "Олена: 21 фішка"
    assert tr("en", "chips.balance", 1, name="Bob") == "Bob: 1 chip"
    assert tr("en", "chips.balance", 0, name="Bob") == "Bob: 0 chips"
    assert tr("uk", "move.draw", 5) == "бере з базару 5 плиток"


def test_a_counted_entry_needs_a_number():
    with pytest.raises(ValueError):
        tr("en", "chips.balance", name="Bob")


def test_client_languages():
    assert lang_of("uk") == "uk"
    assert lang_of("en-GB") == "en"
    assert lang_of("de") == "en"
    assert lang_of(None) == "uk"
    assert signed(-5) == "−5" and signed(3) == "+3" and signed(0) == "0"
    assert minus(-5) == "−5" and minus(3) == "3" and minus(0) == "0"


def test_no_stray_braces():
    for lang in LANGS:
        for key, entry in CATALOGUE[lang].items():
            for form in entry if isinstance(entry, tuple) else (entry,):
                assert not re.search(r"\{[^a-z_}]", form), f"{lang} {key}"


OWN_KEYS = {"trick": ("TRICK", "hint.tg_lead", "tg.pair.66"),
            "line": ("LINE", "hint.drop", "teach.domino_goal"),
            "collect": ("COLLECT", "hint.kap_draw", "teach.td_goal")}
"""Each home's own keys, by the name of its table in `faces/<home>/en.py`, `uk.py`, and two of
them."""


@pytest.mark.parametrize("home", sorted(OWN_KEYS))
def test_a_home_adds_its_own_keys_to_the_catalogue(home):
    from importlib import import_module

    from words.catalogue import _PARTS

    table, *some = OWN_KEYS[home]
    assert any(type(h).__module__.startswith(f"faces.{home}") for h in HOMES.values())
    for lang in LANGS:
        part = getattr(import_module(f"faces.{home}.{lang}"), table)
        assert set(some) <= part.keys()
        assert all(CATALOGUE[lang][key] == entry for key, entry in part.items())
        assert not any(part.keys() & shared.keys() for shared in _PARTS[lang])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_games_title_and_rules_live_in_its_home(game):
    """Adding a game touches its home's words, not a list of titles or texts elsewhere."""
    from importlib import import_module

    family = type(HOMES[game]).__module__.split(".")[1]
    table = OWN_KEYS[family][0]
    for lang in LANGS:
        words = getattr(import_module(f"faces.{family}.{lang}"), table)
        assert {f"game.{game}", f"rules.{game}"} <= words.keys()


def test_the_scan_skips_the_homes_own_words():
    """A home's word modules define keys: were they scanned, a key deleted from them would
    still count as used and found."""
    scanned = {path for path, _ in sources()}
    assert Path("faces/line/en.py") not in scanned and Path("faces/line/family.py") in scanned


def test_a_home_adds_its_keys_in_every_language_and_never_a_taken_one():
    before = {lang: dict(entries) for lang, entries in CATALOGUE.items()}
    with pytest.raises(ValueError, match="come in"):
        add({"en": {"x.only_english": "Only English"}})
    with pytest.raises(ValueError, match="already has"):
        add({"en": {"x.new": "New", "btn.join": "Join"},
             "uk": {"x.new": "Нове", "btn.join": "Так"}})
    assert before == CATALOGUE
