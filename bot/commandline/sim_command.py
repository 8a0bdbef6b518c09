"""`gupai sim`: computer players against each other, and what the rules produce.

A rule or an option is watched and measured here without a chat platform (docs/architecture.md
§2): the statistics per seat, presets compared with the same seeds, and a chart of them. Loaded
only for `gupai sim`, so that the other commands (the container's health check above all) start
without it.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import games
from bot.commandline.option_pairs import option_pairs
from bot.commandline.sim_report import deal_note, format_comparison, format_stats
from bot.console.console_options import shown_value
from games.engine import GameError
from games.sim import Interrupted, Runner, SimStats, simulate

MAX_GAMES = 10_000_000
"""The most games one `gupai sim` plays (a few hours at the slowest game)."""
MAX_JOBS = 64
"""The most processes `gupai sim --jobs` starts."""


class Progress:
    """A one-line bar on a terminal; silent when the output is not a terminal."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.enabled = stream.isatty() and total >= 200
        self.step = max(total // 100, 1)

    def __call__(self, done: int) -> None:
        if not self.enabled or (done % self.step and done != self.total):
            return
        width = 30
        filled = width * done // self.total
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total}")
        if done == self.total:
            self.stream.write("\r" + " " * (width + 30) + "\r")
        self.stream.flush()


def _sim_pairs(args: argparse.Namespace) -> dict[str, str]:
    pairs = option_pairs(args.option)
    if args.sets is not None:
        pairs["sets"] = str(args.sets)
    return pairs


def cmd_sim(args: argparse.Namespace) -> int:
    rules = games.get(args.game)
    pairs = _sim_pairs(args)
    players = args.players or rules.default_players
    strategies = [s.strip() for s in args.strategy.split(",")]
    if not 1 <= args.games <= MAX_GAMES:
        raise GameError(f"--games must be from 1 to {MAX_GAMES}")
    if args.jobs is None:
        args.jobs = min(os.cpu_count() or 1, MAX_JOBS)
    if not 1 <= args.jobs <= MAX_JOBS:
        raise GameError(f"--jobs must be from 1 to {MAX_JOBS}")
    if args.compare is not None:
        return _compare(args, rules, pairs, players, strategies)
    options = rules.parse_options(args.preset, pairs)
    _check_plot(args.plot)
    started = time.perf_counter()
    try:
        stats = simulate(rules, options, players, args.games, args.seed, strategies,
                         Progress(args.games, sys.stderr), _runner(args.jobs))
    except Interrupted as stopped:
        seconds = time.perf_counter() - started
        print(f"\nStopped: {stopped.stats.games} of {args.games} games played.",
              file=sys.stderr)
        if stopped.stats.games:
            print(format_stats(stopped.stats, options, seconds))
        return 130
    seconds = time.perf_counter() - started
    if args.json:
        out = stats.summary() | {"options": vars(options)} | _timing(stats, seconds)
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print(format_stats(stats, options, seconds))
    _plot(args.plot, rules, args.seed, [(args.preset or "", stats)])
    return 0


def _check_plot(path: str | None) -> None:
    """Refuse a chart that could not be written before the simulation, not after it."""
    if path is None:
        return
    from bot.console.console_options import default_lang
    from words.i18n import tr

    lang = default_lang()
    if not Path(path).parent.is_dir():
        raise GameError(tr(lang, "plot.no_folder", path=Path(path).parent))
    if Path(path).is_dir():
        raise GameError(tr(lang, "plot.cannot_write", path=path,
                           reason=os.strerror(errno.EISDIR)))


def _plot(path: str | None, rules: Any, seed: str, runs: Sequence[tuple[str, SimStats]]
          ) -> None:
    """`--plot FILE`: the run drawn as a PNG. The note that says so goes to stderr, so the
    output stays what `--json` promises."""
    if path is None:
        return
    from bot.console.console_options import default_lang
    from faces.presets import game_title
    from rendering.sim_plot import sim_plot
    from words.i18n import tr

    lang = default_lang()
    png = sim_plot(game_title(rules.id, None, lang), seed, runs, lang).png()
    try:
        Path(path).write_bytes(png)
    except OSError as exc:
        raise GameError(tr(lang, "plot.cannot_write", path=path,
                           reason=exc.strerror or exc)) from None
    print(tr(lang, "plot.written", path=path), file=sys.stderr)


def _runner(jobs: int) -> Runner | None:
    """Worker processes for more than one job (`bot.commandline.sim_workers`); none for one."""
    if jobs <= 1:
        return None
    from bot.commandline.sim_workers import in_processes

    return in_processes(jobs)


def _timing(stats: SimStats, seconds: float) -> dict[str, float]:
    per = max(seconds, 1e-9)
    return {"seconds": round(seconds, 3), "games_per_second": round(stats.games / per, 1),
            "deals_per_second": round(stats.deals / per, 1)}


def _compare(args: argparse.Namespace, rules: Any, pairs: dict[str, str], players: int,
             strategies: list[str]) -> int:
    """Every preset (or the ones listed, or NAME=VALUE: that option on the default one) with
    the same seeds, so the columns differ only by the rules they play."""
    if args.preset:
        raise GameError("--compare plays the presets itself: leave out --preset")
    names = list(rules.presets) if args.compare == "all" else [
        n.strip() for n in args.compare.split(",") if n.strip()]
    if not names:
        raise GameError(f"{rules.id} has no presets to compare")
    runs: list[tuple[str, SimStats, float]] = []
    chosen = [(name, rules.parse_options(None, pairs | dict([name.split("=", 1)]))
               if "=" in name else rules.parse_options(name, pairs)) for name in names]
    shared = " ".join(f"{k}={shown_value(getattr(chosen[0][1], k))}" for k in pairs)
    _check_plot(args.plot)
    for name, options in chosen:
        started = time.perf_counter()
        try:
            stats = simulate(rules, options, players, args.games, args.seed, strategies,
                             Progress(args.games, sys.stderr), _runner(args.jobs))
        except Interrupted as stopped:
            print(f"\nStopped in {name}: {stopped.stats.games} of {args.games} games "
                  "played.", file=sys.stderr)
            if runs:
                print(format_comparison(rules.id, players, runs, shared,
                                        deal_note(chosen[0][1])))
            return 130
        runs.append((name, stats, time.perf_counter() - started))
    if args.json:
        out = {"game": rules.id, "players": players, "games": args.games, "seed": args.seed,
               "presets": [{"preset": name} | stats.summary()
                           | {"options": vars(options)} | _timing(stats, seconds)
                           for (name, stats, seconds), (_, options) in zip(runs, chosen,
                                                                           strict=True)]}
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print(format_comparison(rules.id, players, runs, shared, deal_note(chosen[0][1])))
    _plot(args.plot, rules, args.seed, [(name, stats) for name, stats, _ in runs])
    return 0
