"""The `gupai` command: one console script, one subcommand per way of using the games.

`gupai sim` plays computer players against each other and prints what the rules produce, so a rule
or an option can be watched and measured without a chat platform
(`bot/commandline/sim_command.py`). `gupai play` seats a person at a table of computer players in
the terminal (`bot/console/console.py`); `gupai rules` prints a game's rules
(`bot/commandline/cli_rules.py`). `gupai verify` and `gupai replay` check and show a deal from its
seed and its moves (`bot/commandline/deal_commands.py`). Each command loads what it needs when it
runs, and `gupai health`, the container's health check every 30 seconds, nothing but the settings
and an HTTP request: not even the games the other commands list. A bot's start (`gupai run`,
`gupai telegram`, `gupai discord`, with no more words) does without the parser too, and the other
commands' modules it would load.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bot.commandline.option_pairs import option_pairs


def cmd_sim(args: argparse.Namespace) -> int:
    from bot.commandline.sim_command import cmd_sim

    return cmd_sim(args)


def build_parser() -> argparse.ArgumentParser:
    import games
    from bot.commandline import deal_commands
    from bot.commandline.cli_rules import add_rules_parser
    from games.players import LEVELS, STRATEGIES
    from rendering.theme import DEFAULT_THEME, THEMES

    parser = argparse.ArgumentParser(
        prog="gupai", description="Domino games of China, Korea and Ukraine.")
    sub = parser.add_subparsers(dest="command")
    sim = sub.add_parser(
        "sim", help="play many games between computer players and print statistics",
        description="Play many games between computer players and print per-seat statistics.")
    sim.add_argument("game", help=f"one of: {', '.join(games.GAMES)}")
    sim.add_argument("--players", type=int, help="number of players (default: the game's usual)")
    sim.add_argument("--preset", help="a named set of options (see `gupai games`)")
    sim.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                     help="set one option; repeatable")
    sim.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    sim.add_argument("--seed", default="gupai", help="any text; the same seed gives the same run")
    sim.add_argument("--strategy", default="heuristic",
                     help=f"one per seat, comma-separated, or one for all: {', '.join(STRATEGIES)}")
    sim.add_argument("--sets", type=int, help="sets shuffled together (Kap Tai Shap): "
                                              "the same as --option sets=N")
    sim.add_argument("--compare", nargs="?", const="all", metavar="PRESET,PRESET",
                     help="play every preset (or the ones listed; NAME=VALUE: that option "
                          "on the default) with the same seeds and print them side by side")
    sim.add_argument("--jobs", type=int,
                     help="processes that play the games (default: one per core); the "
                          "figures are the same for any number")
    sim.add_argument("--json", action="store_true", help="print the statistics as JSON")
    sim.add_argument("--plot", metavar="FILE",
                     help="also draw the statistics into FILE (PNG): the turn deals are won on "
                          "(draw-and-discard games) and each seat's win rate, per preset")
    sim.set_defaults(func=cmd_sim)
    listing = sub.add_parser(
        "games", help="list the games, their presets and options",
        description="List every game with its players, its presets and each option, with "
                    "its default and the values `--option NAME=VALUE` takes.")
    listing.set_defaults(func=cmd_games)
    gallery = sub.add_parser(
        "gallery", help="draw every kind of image for every game into PNG files",
        description="Draw boards, hands, result cards, the leaderboard and tile sheets from "
                    "sample deals into OUTDIR.")
    gallery.add_argument("outdir", help="folder for the PNG files (created if missing)")
    gallery.add_argument("--lang", choices=("uk", "en"),
                         help="language of the words in the images (default: uk if the "
                              "system's locale is Ukrainian, else en)")
    gallery.add_argument("--theme", choices=tuple(THEMES), default=DEFAULT_THEME,
                         help=f"tile colours (default {DEFAULT_THEME})")
    gallery.set_defaults(func=cmd_gallery)
    play = sub.add_parser(
        "play", help="play a game in the terminal against computer players",
        description="Play one game against computer players in the terminal, through the same "
                    "session layer as the chat bots. Pictures of the table, your tiles and each "
                    "deal's result are written as PNG files into OUT (none with --no-pictures); "
                    "chips are kept in DB between runs. An unfinished game (q, Ctrl-C) goes on "
                    "at the next run; naming another game asks first.")
    play.add_argument("game", nargs="?", default="",
                      help=f"one of: {', '.join(games.GAMES)} (default: the saved game)")
    play.add_argument("--players", type=int, help="players with you (default: the game's usual)")
    play.add_argument("--preset", help="a named set of options (see `gupai games`)")
    play.add_argument("--stake", type=int, help="chips per point (default 1)")
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                      help="set one option, e.g. deals=1; repeatable")
    play.add_argument("--lang", choices=("uk", "en"),
                      help="language (default: uk if the system's locale is Ukrainian, else en)")
    play.add_argument("--level", choices=LEVELS,
                      help="how well the computer players play (default normal); a game "
                           "that offers no such level gives the strongest one it does")
    play.add_argument("--name", help="your name at the table (default: $USER)")
    play.add_argument("--out", help="folder for the PNG files (default ./gupai-play)")
    play.add_argument("--no-pictures", dest="pictures", action="store_false",
                      help="write no PNG files: the terminal's text only")
    play.add_argument("--db", help="SQLite file for chips and saved games (default: "
                                   "$GUPAI_CONSOLE_DB or ./gupai-console.sqlite3)")
    play.add_argument("--fast", action="store_true",
                      help="computer players move at once; no pause between deals and no "
                           "wait for Enter after each one")
    play.add_argument("--new", action="store_true",
                      help="stop an unfinished game from an earlier run instead of resuming it")
    play.set_defaults(func=cmd_play)
    run = sub.add_parser(
        "run", help="start every chat platform whose token is set (TELEGRAM_TOKEN, "
                    "DISCORD_TOKEN) in one process; with none, say what to set",
        description="Start the Telegram bot, the Discord bot or both in one process, on one "
                    "database: each starts when its token (TELEGRAM_TOKEN, DISCORD_TOKEN) is "
                    "set in the environment or in .env. With no token, say what to set.")
    run.set_defaults(func=cmd_run)
    telegram = sub.add_parser(
        "telegram", help="start the Telegram bot only (TELEGRAM_TOKEN)",
        description="Start only the Telegram bot; it needs TELEGRAM_TOKEN (from @BotFather) "
                    "in the environment or in .env. The other settings: .env.example.")
    telegram.set_defaults(func=cmd_telegram)
    discord = sub.add_parser(
        "discord", help="start the Discord bot only (DISCORD_TOKEN)",
        description="Start only the Discord bot; it needs DISCORD_TOKEN (from the Discord "
                    "developer portal) in the environment or in .env. The other settings: "
                    ".env.example.")
    discord.set_defaults(func=cmd_discord)
    health = sub.add_parser(
        "health", help="ask the running bot whether it is well (exit 0) or not (exit 1)",
        description="GET /healthz from the bot's HTTP server on this machine "
                    "(GUPAI_HTTP_PORT, from the environment or .env) and print the answer: "
                    "exit 0 when the database and every platform answer, else 1. The "
                    "container's HEALTHCHECK.")
    health.set_defaults(func=cmd_health)
    deal_commands.add(sub, option_pairs)
    backup = sub.add_parser(
        "backup", help="copy the SQLite database (GUPAI_DB) to FILE, safely while the bot runs",
        description="Copy GUPAI_DB's SQLite database (or --db's, or --terminal's) to FILE with "
                    "SQLite's online backup, safely while the bot runs, and check the copy.")
    backup.add_argument("file", help="the backup file to write (not the database itself)")
    backup.add_argument("--db", help="the database to copy instead of GUPAI_DB's")
    backup.add_argument("--terminal", action="store_true", help="copy `gupai play`'s database")
    backup.add_argument("--force", action="store_true", help="replace FILE if it exists")
    backup.set_defaults(func=cmd_backup)
    add_rules_parser(sub)
    return parser


def cmd_games(args: argparse.Namespace) -> int:
    import games
    from faces.presets import game_title

    for rules in games.GAMES.values():
        span = (f"{rules.min_players}" if rules.min_players == rules.max_players
                else f"{rules.min_players}–{rules.max_players}")
        titles = " / ".join(game_title(rules.id, None, lang) for lang in ("en", "uk"))
        print(f"{rules.id}  {titles}  ({span} players)")
        print(f"  presets: {', '.join(rules.presets)}")
        for name, default, help_text, choices in rules.describe_options():
            if isinstance(default, bool):
                default, choices = ("on" if default else "off"), ("on", "off")
            allowed = f" [{'|'.join(map(str, choices))}]" if choices else ""
            print(f"  {name}={default}{allowed}  {help_text}")
    return 0


def cmd_gallery(args: argparse.Namespace) -> int:
    from bot.commandline.gallery import render_gallery

    started = time.perf_counter()
    from bot.console.console_options import default_lang

    paths = render_gallery(Path(args.outdir), lang=args.lang or default_lang(),
                           theme_name=args.theme)
    print(f"{len(paths)} images in {args.outdir} ({time.perf_counter() - started:.1f} s)")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    import os

    import games
    from bot.console import console
    from bot.console import console_options as defaults
    from storage import StorageError

    game = games.get(args.game).id if args.game else ""
    option_pairs(args.option)  # name=value, or a usage error before anything starts
    login = os.environ.get("USER") or os.environ.get("LOGNAME") or ""
    options = defaults.PlayOptions(
        game=game, players=args.players, preset=args.preset, stake=args.stake,
        options=tuple(args.option), lang=args.lang or defaults.default_lang(),
        name=args.name or login or "Player", player_id=login or "player",
        out=Path(args.out or defaults.DEFAULT_OUT), db=args.db or defaults.default_db(),
        computer_delay=0.0 if args.fast else defaults.COMPUTER_DELAY,
        deal_pause=0.0 if args.fast else defaults.DEAL_PAUSE, new=args.new,
        wait=not args.fast, level=args.level, pictures=args.pictures)
    try:
        return console.run(options)
    except StorageError as exc:
        print(f"gupai: {exc}", file=sys.stderr)
        return 2


def cmd_run(args: argparse.Namespace) -> int:
    from bot.launch.run import run
    from bot.service.env_file import settings
    return run(settings())


def cmd_telegram(args: argparse.Namespace) -> int:
    from bot.launch.run import run_telegram
    from bot.service.env_file import settings
    return run_telegram(settings())


def cmd_discord(args: argparse.Namespace) -> int:
    from bot.launch.run import run_discord
    from bot.service.env_file import settings
    return run_discord(settings())


def cmd_backup(args: argparse.Namespace) -> int:
    from bot.console.console_options import default_db
    from bot.service.env_file import settings
    from storage.backup import BackupError, backup, postgres_advice, source_of
    from storage.db import is_postgres

    named = source_of(args.db, args.terminal, settings().get("GUPAI_DB", ""), default_db())
    if is_postgres(named.database):
        print(postgres_advice(named.database, args.file))
        return 2
    try:
        done = backup(named.path, Path(args.file).expanduser(), force=args.force, named=named)
    except BackupError as exc:
        print(f"gupai: {exc}", file=sys.stderr)
        return 1
    print(done.summary())
    return 0


def cmd_health(args: argparse.Namespace) -> int:
    from bot.service.env_file import settings
    from bot.service.health import health
    return health(settings())


BOTS = {"run": cmd_run, "telegram": cmd_telegram, "discord": cmd_discord}
"""The commands that start a bot, which take no arguments."""


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words == ["health"]:
        # The container's HEALTHCHECK, every 30 seconds: answered without loading the games
        # the full parser lists (a fifth of the processor time it took with them).
        return cmd_health(argparse.Namespace(command="health"))
    from bot.service.logs import LogSettingError
    from games.engine import GameError

    if len(words) == 1 and words[0] in BOTS:
        # Every start of a bot, the container's and each test's: building the parser and
        # loading the other commands' modules was some 20 ms of its processor time.
        args = argparse.Namespace(command=words[0], func=BOTS[words[0]])
    else:
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 0
    try:
        result: int = args.func(args)
    except (GameError, LogSettingError) as exc:
        print(f"gupai: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`gupai games | head`): nothing left to say to it.
        sys.stderr.close()
        return 0
    return result


if __name__ == "__main__":
    sys.exit(main())
