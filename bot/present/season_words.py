"""A season in words and pictures: its name, the podium post when it ends, a person's seasons.

Seasons (docs/playing.md), docs/architecture.md §8: every sentence comes from the catalogue, in the
chat's language (the podium post, `/top`) or the asker's (`/stats`). A season of a whole calendar
month is called by its month ("November 2026"); any other (a week, or one a change of the setting
ended early) by its first and last day. Times are UTC, as the seasons are.
"""

from __future__ import annotations

from datetime import UTC, datetime

from bot.present.screens import Picture, Screen
from rendering import Frame
from storage import Season, Storage
from storage.seasons import MONTH, OFF, WEEK, PersonSeason, period_end, period_start
from words.i18n import signed, tr

MONTHS = ("season.month_1", "season.month_2", "season.month_3", "season.month_4",
          "season.month_5", "season.month_6", "season.month_7", "season.month_8",
          "season.month_9", "season.month_10", "season.month_11", "season.month_12")
KINDS = {WEEK: "season.kind_week", MONTH: "season.kind_month", OFF: "season.kind_off"}
MEDALS = ("🥇", "🥈", "🥉")


def _day(at: float) -> datetime:
    return datetime.fromtimestamp(at, UTC)


def span(season: Season, lang: str) -> str:
    """The season's name in time: its month, or its first and last day."""
    start = _day(season.starts)
    if (season.starts == period_start(MONTH, season.starts)
            and season.ends == period_end(MONTH, season.starts)):
        return tr(lang, "season.span_month", month=tr(lang, MONTHS[start.month - 1]),
                  year=start.year)
    last = _day(max(season.starts, season.ends - 1))
    first = f"{start:%d.%m}" if start.year == last.year else f"{start:%d.%m.%Y}"
    return tr(lang, "season.span_days", first=first, last=f"{last:%d.%m.%Y}")


def moment(at: float) -> str:
    """A time as `/top` says when the season ends: "01.12.2026 00:00" (UTC)."""
    return f"{_day(at):%d.%m.%Y %H:%M}"


async def podium_post(storage: Storage, chat_id: int, number: int, lang: str, theme: str
                      ) -> Screen:
    """The post that ends season `number`: its first three in words and on the podium, how
    many played it, and what comes next (its settings are read as they are now: a post
    delivered after a change of the setting says what the chat plays now)."""
    season = await storage.seasons.season(chat_id, number, OFF, 0.0, 0.0)
    if season is None:  # (a post kept for a season whose row is gone: a restored backup)
        return Screen(tr(lang, "top.no_season", number=number, seasons="—"))
    rows = await storage.seasons.standings(chat_id, season, limit=3)
    players = await storage.seasons.players(chat_id, season)
    deals = await storage.seasons.deals(chat_id, season)
    named = span(season, lang)
    lines = [tr(lang, "season.over", number=number, span=named)]
    lines += [tr(lang, "season.podium_line", row.games, medal=MEDALS[row.rank - 1],
                 name=row.name, won=signed(row.won)) for row in rows]
    lines.append(tr(lang, "season.summary", deals, players=players))
    settings = await storage.accounts.settings(chat_id)
    lines.append(tr(lang, "season.next_off" if settings.season == OFF else "season.next",
                    number=number, next=number + 1))
    frame = Frame(title=tr(lang, "top.season_picture_title", number=number, span=named),
                  names=(), lang=lang, theme=theme,
                  footer=tr(lang, "season.picture_footer", deals, players=players))
    return Screen("\n".join(lines), Picture("podium", frame, rows=tuple(rows)))


def person_lines(seasons: list[PersonSeason], lang: str) -> list[str]:
    """A person's last seasons for `/stats` (nothing for a person who played in none)."""
    if not seasons:
        return []
    lines = [tr(lang, "stats.seasons")]
    for line in seasons:
        key = "stats.season_line" if line.season.ended else "stats.season_now"
        lines.append(tr(lang, key, line.games, number=line.season.number,
                        span=span(line.season, lang), rank=line.rank, players=line.players,
                        won=signed(line.won)))
    return lines
