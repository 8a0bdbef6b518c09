"""`/top`: a chat's leaderboard, a page at a time: the season under way, an earlier season, or all
time; by chips, or by chips won per deal among those with enough deals.

Seasons (docs/playing.md) on docs/architecture.md §4 and §8. `/top` shows the season under way (with
seasons off, all time). The words it takes come in any order: `all`, `season N`, `deal`, and a page
number; the buttons under a page send the same words (`bot.payload.top_words`), so a press and a
typed command answer alike. Anything else is answered with how to ask, and a season that does not
exist with the seasons there are. A season's table counts the chips won and deals played in it
(`storage.seasons`, read from the ledger); the all-time table, the chips people hold
(`storage.stats`). The per-deal ranking keeps the chat's least number of deals in a season too.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.present import payload
from bot.present.screens import Actor, Button, Keyboard, Picture, Place, Reply, Screen
from bot.present.season_words import moment, span
from bot.session.manager import SessionManager
from rendering import Frame
from storage import ChatSettings, Season, Standing
from words.i18n import signed, tr

TOP_ROWS = 10
ALL = ("all", "усі", "всі", "все")
SEASON = ("season", "сезон")
PER_DEAL = ("deal", "deals", "роздача", "роздачі")
"""What `/top` takes to rank by chips won per deal."""
MOST_PAGES = 10**6
"""The largest page or season number kept as typed (a larger one is as far past the end)."""


@dataclass(frozen=True, slots=True)
class Ask:
    """Which table `/top` was asked for."""

    all_time: bool = False
    number: int | None = None
    """A season by its number (None: the one under way)."""
    per_deal: bool = False
    page: int = 1

    def words(self, page: int) -> str:
        """The words that ask for this table's `page` (for "More: /top …")."""
        scope = "all " if self.all_time else f"season {self.number} " if self.number else ""
        return f"{scope}{page}"


def _number(word: str) -> bool:
    return word.isascii() and word.isdigit() and len(word) <= 100


def parse(words: list[str]) -> Ask | None:
    """The table the words ask for; None when a word is not one `/top` takes."""
    all_time, number, per_deal, page = False, None, False, None
    rest = [w.lower() for w in words]
    while rest:
        word = rest.pop(0)
        if word in ALL and not all_time and number is None:
            all_time = True
        elif word in SEASON and not all_time and number is None:
            if rest and _number(rest[0]):
                number = min(int(rest.pop(0)), MOST_PAGES)
        elif word in PER_DEAL and not per_deal:
            per_deal = True
        elif _number(word) and page is None:
            page = max(1, min(int(word), MOST_PAGES))
        else:
            return None
    return Ask(all_time, number, per_deal, page or 1)


class Leaderboards:
    def __init__(self, manager: SessionManager) -> None:
        self.manager = manager
        self.storage = manager.storage

    async def top(self, place: Place, actor: Actor, words: list[str]) -> Reply:
        chat_id, lang = await self.manager.chat_of(place, actor)
        ask = parse(words)
        if ask is None:
            return Reply(answer=Screen(tr(lang, "top.usage")))
        # (read, not cached: another process may have changed the seasons)
        settings = await self.storage.accounts.settings(chat_id)
        season: Season | None = None
        if not ask.all_time:
            seasons = self.storage.seasons
            now = self.storage.db.clock()
            current = await seasons.under_way(chat_id, settings.season, settings.season_since,
                                              now)
            season = current
            if ask.number is not None:
                season = await seasons.season(chat_id, ask.number, settings.season,
                                              settings.season_since, now)
                if season is None:
                    return Reply(answer=Screen(await self._no_season(chat_id, ask.number,
                                                                     current, lang)))
                if current is not None and season.number == current.number:
                    ask = Ask(False, None, ask.per_deal, ask.page)
        return await self._page(chat_id, lang, ask, season, settings)

    async def _no_season(self, chat_id: int, number: int, current: Season | None, lang: str
                         ) -> str:
        ended = await self.storage.seasons.ended(chat_id)
        if current is None and not ended:
            return tr(lang, "top.seasons_off")
        if not ended:
            return tr(lang, "top.no_seasons_yet", number=number)
        last = (current or ended[-1]).number
        return tr(lang, "top.no_season", number=number,
                  seasons="1" if last == 1 else f"1–{last}")

    async def _page(self, chat_id: int, lang: str, ask: Ask, season: Season | None,
                    settings: ChatSettings) -> Reply:
        least = settings.min_deals
        seasons, stats = self.storage.seasons, self.storage.stats
        if season is None:
            players = await (stats.ranked(chat_id, least) if ask.per_deal
                             else stats.players(chat_id))
        else:
            players = await (seasons.ranked(chat_id, season, least) if ask.per_deal
                             else seasons.players(chat_id, season))
        named = span(season, lang) if season is not None else ""
        keyboard = self._switches(lang, ask, season, settings)
        if not players:
            return Reply(answer=Screen(self._empty(lang, ask, season, named, least),
                                       keyboard=keyboard))
        pages = -(-players // TOP_ROWS)
        page = ask.page
        if page > pages:
            return Reply(answer=Screen(tr(lang, "top.past_end", pages)))
        offset = (page - 1) * TOP_ROWS
        rows = await self._rows(chat_id, ask, season, least, offset)
        lines = [self._title(lang, ask, season, named, least, page)]
        for r in rows:
            if ask.per_deal:
                lines.append(tr(lang, "top.per_deal_line", r.games, rank=r.rank, name=r.name,
                                per_deal=signed(round(r.per_deal))))
            elif season is not None:
                lines.append(tr(lang, "top.season_line", r.games, rank=r.rank, name=r.name,
                                won=signed(r.won)))
            else:
                lines.append(tr(lang, "top.line", r.games, rank=r.rank, name=r.name,
                                chips=str(r.balance)))
        if page < pages:
            lines.append(tr(lang, "top.per_deal_more" if ask.per_deal else "top.more",
                            next=ask.words(page + 1)))
        if season is not None and not season.ended:
            lines.append(tr(lang, "top.season_ends", when=moment(season.ends)))
        if season is None:
            picture = Picture("leaderboard", Frame(title=tr(lang, "top.picture_title"), names=(),
                                                   lang=lang, theme=self.manager.theme),
                              rows=tuple(rows))
        else:
            title = tr(lang, "top.season_picture_title", number=season.number, span=named)
            picture = Picture("leaderboard" if ask.per_deal else "season",
                              Frame(title=title, names=(), lang=lang, theme=self.manager.theme),
                              rows=tuple(rows))
        turns = []
        if page > 1:
            turns.append(Button(tr(lang, "btn.prev_page", page=page - 1),
                                payload.encode(0, page - 1, _code(ask))))
        if page < pages:
            turns.append(Button(tr(lang, "btn.next_page", page=page + 1),
                                payload.encode(0, page + 1, _code(ask))))
        keyboard = ((tuple(turns),) if turns else ()) + keyboard
        return Reply(answer=Screen("\n".join(lines), picture, keyboard))

    async def _rows(self, chat_id: int, ask: Ask, season: Season | None, least: int,
                    offset: int) -> list[Standing]:
        seasons, stats = self.storage.seasons, self.storage.stats
        if season is None:
            return await (stats.per_deal(chat_id, least, TOP_ROWS, offset) if ask.per_deal
                          else stats.top(chat_id, TOP_ROWS, offset))
        return await (seasons.per_deal(chat_id, season, least, TOP_ROWS, offset)
                      if ask.per_deal else seasons.standings(chat_id, season, TOP_ROWS, offset))

    @staticmethod
    def _title(lang: str, ask: Ask, season: Season | None, named: str, least: int,
               page: int) -> str:
        if season is None:
            return tr(lang, "top.per_deal_title" if ask.per_deal else "top.title", least=least,
                      page=page)
        if ask.per_deal:
            return tr(lang, "top.per_deal_season_title", number=season.number, least=least,
                      page=page)
        return tr(lang, "top.season_over_title" if season.ended else "top.season_title",
                  number=season.number, span=named, page=page)

    @staticmethod
    def _empty(lang: str, ask: Ask, season: Season | None, named: str, least: int) -> str:
        if season is None:
            return (tr(lang, "top.per_deal_empty", least=least) if ask.per_deal
                    else tr(lang, "top.empty"))
        if ask.per_deal:
            return tr(lang, "top.per_deal_season_empty", least=least, number=season.number)
        return tr(lang, "top.season_empty", number=season.number, span=named)

    @staticmethod
    def _switches(lang: str, ask: Ask, season: Season | None, settings: ChatSettings
                  ) -> Keyboard:
        """The buttons to the other ranking of the same table, and to all time (or back to
        the season under way)."""
        other = Ask(ask.all_time, ask.number, not ask.per_deal)
        buttons = [Button(tr(lang, "btn.top_chips" if ask.per_deal else "btn.top_per_deal"),
                          payload.encode(0, 1, _code(other)))]
        if season is not None:
            buttons.append(Button(tr(lang, "btn.top_all"),
                                  payload.encode(0, 1, _code(Ask(True)))))
        elif settings.season in ("week", "month"):
            buttons.append(Button(tr(lang, "btn.top_season"), payload.encode(0, 1, _code(Ask()))))
        return (tuple(buttons),)


def _code(ask: Ask) -> str:
    return payload.top_code(ask.per_deal, ask.all_time, ask.number)
