"""The slash commands, mirroring Telegram's: declared here, run by `DiscordBot.command`.

docs/architecture.md §5 (Discord) and §8. Each command's options are turned back into the words the
platform-neutral layer parses (`/newgame tiengow classic 5 rounds=2`), so both platforms accept
exactly the same games, presets, stakes and options. Names, descriptions and option names are
declared in English with a catalogue key; `CatalogueTranslator` gives Discord the Ukrainian.
Game, preset and stake are offered by autocomplete from the rules core's own tables. The game
and chip commands work in servers only; `/lang` and `/settings`, which change a server, are
shown by default only to members who may manage it.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.present.screens import Target
from bot.session.manager import MAX_STAKE
from faces.presets import game_title
from games import GAMES, get
from games.engine import InvalidOptions
from words.i18n import LANGS, lang_of, tr

Interaction = discord.Interaction[Any]
STAKES = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
PRIVATE = ("newgame", "join", "leave", "stop", "kick", "skip", "chips", "stats", "notify")
"""Answered only to the one who asked: errors and personal figures (the lobby itself and the
tables are public)."""


def _name(command: str) -> locale_str:
    return locale_str(command, key=f"dcmd.{command}")


def _describe(command: str) -> locale_str:
    key = "ddesc.newgame" if command == "newgame" else f"command.{command}"
    return locale_str(tr("en", key)[:100], key=key)


def _option(name: str) -> locale_str:
    return locale_str(name, key=f"dopt.{name}")


def _help(name: str) -> locale_str:
    return locale_str(tr("en", f"dhelp.{name}")[:100], key=f"dhelp.{name}")


async def game_choices(interaction: Interaction, current: str
                       ) -> list[app_commands.Choice[str]]:
    lang = lang_of(str(interaction.locale.value))
    typed = current.strip().lower()
    found = []
    for rules in GAMES.values():
        title = game_title(rules.id, None, lang)
        words = (rules.id, title.lower(), *rules.aliases)
        if not typed or any(typed in w for w in words):
            found.append(app_commands.Choice(name=f"{rules.id} — {title}"[:100],
                                             value=rules.id))
    return found[:25]


async def preset_choices(interaction: Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
    chosen = getattr(interaction.namespace, "game", None)
    try:
        rules = get(str(chosen)) if chosen else None
    except InvalidOptions:
        rules = None
    names = rules.presets if rules is not None else sorted(
        {p for r in GAMES.values() for p in r.presets})
    typed = current.strip().lower()
    return [app_commands.Choice(name=p, value=p) for p in names if typed in p][:25]


async def stake_choices(interaction: Interaction, current: int | str
                        ) -> list[app_commands.Choice[int]]:
    typed = str(current or "").strip()
    return [app_commands.Choice(name=f"×{s}", value=s) for s in STAKES
            if not typed or str(s).startswith(typed)][:25]


def season_words(season: str | None) -> list[str]:
    """`/top`'s season option as the words the platform-neutral layer parses: "all", a
    season's number, or what was typed (which `/top` then answers with how to ask)."""
    typed = (season or "").strip()
    return ["season", typed] if typed.isascii() and typed.isdigit() else typed.split()


class Commanded(Protocol):
    """What the commands need of the bot (`DiscordBot`): its tree, and a command run."""

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...

    async def command(self, interaction: Interaction, name: str, words: list[str], *,
                      private: bool = False, target: Target | None = None) -> None: ...


def register(bot: Commanded) -> None:
    """Declare every command on the bot's tree."""
    tree = bot.tree

    async def run(interaction: Interaction, name: str, *words: str | int | None,
                  target: Target | None = None) -> None:
        await bot.command(interaction, name, [str(w) for w in words if w not in (None, "")],
                          private=name in PRIVATE, target=target)

    @tree.command(name=_name("newgame"), description=_describe("newgame"))
    @app_commands.guild_only()
    @app_commands.rename(game=_option("game"), preset=_option("preset"), stake=_option("stake"),
                         options=_option("options"))
    @app_commands.describe(game=_help("game"), preset=_help("preset"), stake=_help("stake"),
                           options=_help("options"))
    @app_commands.autocomplete(game=game_choices, preset=preset_choices)
    @app_commands.autocomplete(stake=stake_choices)
    async def newgame(interaction: Interaction, game: str, preset: str | None = None,
                      stake: app_commands.Range[int, 1, MAX_STAKE] | None = None,
                      options: str | None = None) -> None:
        await run(interaction, "newgame", game, preset, stake, *(options or "").split())

    @tree.command(name=_name("join"), description=_describe("join"))
    @app_commands.guild_only()
    async def join(interaction: Interaction) -> None:
        await run(interaction, "join")

    @tree.command(name=_name("leave"), description=_describe("leave"))
    @app_commands.guild_only()
    async def leave(interaction: Interaction) -> None:
        await run(interaction, "leave")

    @tree.command(name=_name("stop"), description=_describe("stop"))
    @app_commands.guild_only()
    async def stop(interaction: Interaction) -> None:
        await run(interaction, "stop")

    @tree.command(name=_name("kick"), description=_describe("kick"))
    @app_commands.guild_only()
    @app_commands.rename(player=_option("player"))
    @app_commands.describe(player=_help("player"))
    async def kick(interaction: Interaction, player: discord.User | discord.Member) -> None:
        await run(interaction, "kick", target=Target(str(player.id), player.display_name))

    @tree.command(name=_name("skip"), description=_describe("skip"))
    @app_commands.guild_only()
    async def skip(interaction: Interaction) -> None:
        await run(interaction, "skip")

    @tree.command(name=_name("notify"), description=_describe("notify"))
    @app_commands.guild_only()
    async def notify(interaction: Interaction) -> None:
        await run(interaction, "notify")

    @tree.command(name=_name("games"), description=_describe("games"))
    async def games(interaction: Interaction) -> None:
        await run(interaction, "games")

    @tree.command(name=_name("rules"), description=_describe("rules"))
    @app_commands.rename(game=_option("game"))
    @app_commands.describe(game=_help("game"))
    @app_commands.autocomplete(game=game_choices)
    async def rules(interaction: Interaction, game: str) -> None:
        await run(interaction, "rules", game)

    @tree.command(name=_name("chips"), description=_describe("chips"))
    @app_commands.guild_only()
    async def chips(interaction: Interaction) -> None:
        await run(interaction, "chips")

    @tree.command(name=_name("top"), description=_describe("top"))
    @app_commands.guild_only()
    @app_commands.rename(season=_option("season"), page=_option("page"))
    @app_commands.describe(season=_help("season"), page=_help("page"))
    async def top(interaction: Interaction, season: str | None = None,
                  page: app_commands.Range[int, 1, 1000] | None = None) -> None:
        await run(interaction, "top", *season_words(season), page)

    @tree.command(name=_name("stats"), description=_describe("stats"))
    @app_commands.guild_only()
    async def stats(interaction: Interaction) -> None:
        await run(interaction, "stats")

    @tree.command(name=_name("lang"), description=_describe("lang"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(language=_option("language"))
    @app_commands.describe(language=_help("language"))
    @app_commands.choices(language=[app_commands.Choice(name=code, value=code)
                                    for code in LANGS])
    async def lang(interaction: Interaction, language: str | None = None) -> None:
        await run(interaction, "lang", language)

    @tree.command(name=_name("settings"), description=_describe("settings"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(setting=_option("setting"), value=_option("value"))
    @app_commands.describe(setting=_help("setting"), value=_help("value"))
    @app_commands.choices(setting=[app_commands.Choice(name=s, value=s)
                                   for s in ("turn", "lobby", "default", "mentions", "level",
                                             "grant", "floor", "maxstake", "buyin",
                                             "mindeals", "season")])
    async def settings(interaction: Interaction, setting: str | None = None,
                       value: str | None = None) -> None:
        await run(interaction, "settings", setting, *(value or "").split())

    @tree.command(name=_name("help"), description=_describe("help"))
    async def help_(interaction: Interaction) -> None:
        await run(interaction, "help")


class CatalogueTranslator(app_commands.Translator):
    """Command names, descriptions and options in Ukrainian from the catalogue; English is the
    text the commands are declared with."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        if locale is not discord.Locale.ukrainian or not key:
            return None
        return tr("uk", key)
