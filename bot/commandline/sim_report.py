"""What `gupai sim` prints: per-seat statistics, the turns on which deals are won, presets side
by side, and for the Kap games which deal the figures come from and why they run shorter than
the seed author's (docs/rules-book.md §4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.console.console_options import shown_value
from games.sim import SimStats

DEAL_RULES = {
    "seed": "deal=seed: the first player is dealt one tile more and opens with a discard, the "
            "seed's own deal (docs/rules-book.md §2.6); deal=even deals as the seed author's "
            "simulator.",
    "even": "deal=even: everyone is dealt alike and the first player opens by drawing, as the "
            "seed author's simulator deals (docs/rules-book.md §4.2); deal=seed is the seed's "
            "own deal.",
}
"""What each value of the Kap games' `deal` option means, said under their figures."""
FASTER = ("These computer players build hands faster than the seed author's, so deals are won "
          "earlier than in his figures (docs/rules-book.md §4.3): at the low end of its bands, "
          "or below.")


def deal_note(options: Any) -> list[str]:
    """For a game dealt by the `deal` option (Kap Ten, Kap Tai Shap): which deal the figures
    come from, and why they run shorter than the seed's."""
    deal = getattr(options, "deal", None)
    return [DEAL_RULES[deal], FASTER] if deal in DEAL_RULES else []


def option_text(options: Any) -> str:
    """Options as `gupai games` and `--option` write them: yes-or-no as on/off."""
    return " ".join(f"{k}={shown_value(v)}" for k, v in vars(options).items())


def format_stats(stats: SimStats, options: Any, seconds: float) -> str:
    s = stats.summary()
    opts = option_text(options)
    rate = stats.games / seconds if seconds > 0 else float("inf")
    lines = [
        f"{stats.game} · {stats.players} players · {opts}",
        f"{stats.games} games ({stats.deals} deals) in {seconds:.2f} s: "
        f"{rate:,.0f} games/s, {stats.deals / max(seconds, 1e-9):,.0f} deals/s",
        "",
        f"{'seat':>4}  {'strategy':<10} {'wins':>7} {'win %':>7} {'points/deal':>12} "
        f"{'chips/game':>11}",
    ]
    for seat in range(stats.players):
        lines.append(
            f"{seat:>4}  {stats.strategies[seat]:<10} {stats.wins[seat]:>7} "
            f"{100 * s['win_rate'][seat]:>6.1f}% {s['mean_points_per_deal'][seat]:>12.2f} "
            f"{s['mean_chips_per_game'][seat]:>+11.2f}"
        )
    endings = ", ".join(f"{k} {v}" for k, v in s["endings"].items())
    lines += [
        "",
        f"mean deal length: {s['mean_turns_per_deal']:.1f} moves · redeals: {stats.redeals} · "
        f"void deals: {stats.voids} · games without a winner: {stats.no_winner}",
        f"deal endings: {endings}",
    ]
    if stats.timed_deals:
        lines += ["", *_turn_lines(stats), *deal_note(options)]
    if stats.teams is not None:
        lines += ["", *_team_lines(stats)]
    return "\n".join(lines)


def _team_seats(stats: SimStats) -> list[tuple[int, list[int]]]:
    """Each team with its seats, teams in order of their numbers."""
    assert stats.teams is not None
    return [(team, [s for s, t in enumerate(stats.teams) if t == team])
            for team in sorted(set(stats.teams))]


def _team_lines(stats: SimStats) -> list[str]:
    """Where seats play in partnerships: each team's games and deals won, the deals nobody
    won, the dealer's team's share and the mean difference a winner was paid."""
    s = stats.summary()
    lines = [f"team {team} (seats {', '.join(map(str, seats))}): games won "
             f"{_pct(s['team_win_rate'][team])}, deals won {_pct(s['team_deal_win_rate'][team])}"
             for team, seats in _team_seats(stats)]
    return [*lines,
            f"deals nobody won: {_pct(s['level_deal_share'])} · deals won by the dealer's "
            f"team: {_pct(s['first_team_deal_share'])} · mean difference paid: "
            f"{s['mean_difference']:.2f} chips a deal"]


def _pct(share: float | None) -> str:
    return "–" if share is None else f"{100 * share:.1f} %"


def _num(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _turn_lines(stats: SimStats) -> list[str]:
    """When deals are won, counted in player turns (1-based) and by hand number."""
    mean = stats.mean_win_turn()
    rounds = None if mean is None else mean / stats.players
    shares = " · ".join(f"{hand} {100 * share:.1f}%"
                        for hand, share in enumerate(stats.hand_win_share(), start=1))
    return [
        f"winning turn: mean {_num(mean)} (≈ {_num(rounds)} rounds), median "
        f"{_num(stats.median_win_turn(), 1)} · won in the first round: "
        f"{_pct(stats.first_round_share())} · void: {_pct(stats.voids / max(stats.deals, 1))}",
        f"wins by hand number (1 = the deal's first player): {shares}",
    ]


def format_comparison(game: str, players: int, runs: Sequence[tuple[str, SimStats, float]],
                      shared: str, note: Sequence[str] = ()) -> str:
    """Presets side by side: the same seeds, so every column plays the same deals."""
    first = runs[0][1]
    width = max(10, *(len(name) + 1 for name, _, _ in runs))
    header = f"{'':<28}" + "".join(f"{name:>{width}}" for name, _, _ in runs)

    def row(label: str, cells: Sequence[str]) -> str:
        return f"{label:<28}" + "".join(f"{cell:>{width}}" for cell in cells)

    strategies = ",".join(dict.fromkeys(first.strategies))
    lines = [
        f"{game} · {players} players · {shared or 'preset options only'} · "
        f"{first.games} games per preset · {strategies}",
        "",
        header,
    ]
    timed = all(stats.timed_deals for _, stats, _ in runs)
    if timed:
        means = [stats.mean_win_turn() for _, stats, _ in runs]
        base = means[0]
        lines += [
            row("mean winning turn", [_num(m) for m in means]),
            row(f"  ratio to {runs[0][0]}", [_num(m / base if m is not None and base else None)
                                      for m in means]),
            row("  ≈ rounds", [_num(None if m is None else m / players) for m in means]),
            row("median winning turn", [_num(stats.median_win_turn(), 1)
                                        for _, stats, _ in runs]),
            row("won in the first round", [_pct(stats.first_round_share())
                                           for _, stats, _ in runs]),
        ]
    else:
        lines.append(row("mean deal length (moves)",
                         [f"{stats.turns / max(stats.deals, 1):.1f}" for _, stats, _ in runs]))
    lines += [
        row("void deals", [_pct(stats.voids / max(stats.deals, 1)) for _, stats, _ in runs]),
        row("deals/s", [f"{stats.deals / max(seconds, 1e-9):,.0f}"
                        for _, stats, seconds in runs]),
    ]
    if timed:
        lines.append("wins by hand number (1 = the deal's first player)")
        for hand in range(players):
            lines.append(row(f"  hand {hand + 1}",
                             [_pct(stats.hand_win_share()[hand]) for _, stats, _ in runs]))
    elif first.teams is not None:
        summaries = [stats.summary() for _, stats, _ in runs]
        for team, seats in _team_seats(first):
            lines.append(f"team {team} (seats {', '.join(map(str, seats))})")
            lines.append(row("  games won", [_pct(s["team_win_rate"][team]) for s in summaries]))
            lines.append(row("  deals won", [_pct(s["team_deal_win_rate"][team])
                                             for s in summaries]))
        lines += [
            row("games without a winner", [_pct(stats.no_winner / max(stats.games, 1))
                                           for _, stats, _ in runs]),
            row("deals nobody won", [_pct(s["level_deal_share"]) for s in summaries]),
            row("deals won by dealer's team", [_pct(s["first_team_deal_share"])
                                                   for s in summaries]),
            row("mean difference a deal", [_num(s["mean_difference"]) for s in summaries]),
        ]
    else:
        lines.append("wins by seat")
        for seat in range(players):
            lines.append(row(f"  seat {seat}", [_pct(stats.wins[seat] / max(stats.games, 1))
                                                for _, stats, _ in runs]))
    return "\n".join([*lines, *note])
