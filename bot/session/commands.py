"""The chat commands that are not moves: /games, /rules, /chips, /top, /stats, /notify, /lang,
/settings, /help. Platform-neutral: each returns a `Reply` whose `answer` the adapter posts.

docs/architecture.md §4 and §8. Chips and standings are read from storage (`storage.stats`): the
leaderboards (`bot.deals.leaderboards`: the season's, an earlier one's, all time's, by chips or by
chips won per deal); a person's figures keep winnings apart from the chips they were given, and
name their seasons. Settings that change how a chat plays (language, turn and lobby limits,
default presets, the level of the computers it adds, its chips: starting grant, daily floor,
largest stake, what a table holds, when the per-deal ranking starts; how long its seasons run,
`bot.deals.seasons`) are changed only by the chat's admins, and in a private chat by its one user;
every number is bounded.
"""

from __future__ import annotations

from bot.deals.leaderboards import Leaderboards
from bot.present.screens import Actor, Picture, Place, Reply, Screen
from bot.present.season_words import KINDS, person_lines
from bot.session.lobby import chat_level
from bot.session.manager import (
    MAX_LOBBY,
    MAX_STAKE,
    MAX_TURN,
    MIN_LOBBY,
    MIN_TURN,
    IsAdmin,
    SessionManager,
)
from bot.session.seating import computer_name
from faces import rules_text
from faces.presets import game_title
from games import GAMES, get
from games.engine import InvalidOptions
from games.players import LEVELS
from rendering import Frame
from storage import StorageError
from words.i18n import LANGS, lang_of, signed, tr

SWITCH = {"on": True, "off": False, "1": True, "0": False, "yes": True, "no": False}
NUMBERS: dict[str, tuple[str, int, int]] = {
    "grant": ("grant", 0, 1_000_000),
    "floor": ("floor", 0, 1_000_000),
    "maxstake": ("max_stake", 1, MAX_STAKE),
    "buyin": ("buy_in", 1, 10_000),
    "mindeals": ("min_deals", 1, 10_000),
}
"""The chat's numeric chip settings: the word `/settings` takes, the field, and its bounds."""


def _title(game: str, lang: str) -> str:
    """A stored game id as the game's title (an id no longer known, as it is)."""
    return game_title(game, None, lang) if game in GAMES else game


class Commands:
    def __init__(self, manager: SessionManager) -> None:
        self.manager = manager
        self.storage = manager.storage

    async def _chat(self, place: Place, actor: Actor) -> tuple[int, str]:
        return await self.manager.chat_of(place, actor)

    async def run(self, name: str, place: Place, actor: Actor, words: list[str],
                  is_admin: IsAdmin, private: bool = False) -> Reply:
        """One command by name (`private`: typed in the private chat with the bot); storage
        failures become one clear sentence."""
        try:
            if name == "games":
                return await self.games(place, actor)
            if name == "rules":
                return await self.rules(place, actor, words)
            if name == "chips":
                return await self.chips(place, actor)
            if name == "top":
                return await self.top(place, actor, words)
            if name == "stats":
                return await self.stats(place, actor)
            if name == "notify":
                return await self.notify(place, actor)
            if name == "lang":
                return await self.lang(place, actor, words, is_admin, private)
            if name == "settings":
                return await self.settings(place, actor, words, is_admin)
            return await self.help(place, actor)
        except StorageError:
            lang = lang_of(actor.language)
            return Reply(answer=Screen(tr(lang, "err.storage")))

    async def help(self, place: Place, actor: Actor) -> Reply:
        _, lang = await self._chat(place, actor)
        return Reply(answer=Screen(tr(lang, "help.text", games=", ".join(GAMES))))

    async def games(self, place: Place, actor: Actor) -> Reply:
        _, lang = await self._chat(place, actor)
        lines = [tr(lang, "games.title")]
        for rules in GAMES.values():
            span = (str(rules.min_players) if rules.min_players == rules.max_players
                    else f"{rules.min_players}–{rules.max_players}")
            name = game_title(rules.id, None, lang)
            lines.append(tr(lang, "games.line", id=rules.id, name=name, players=span,
                            presets=", ".join(rules.presets) or "—"))
        lines.append(tr(lang, "games.footer"))
        return Reply(answer=Screen("\n".join(lines)))

    async def rules(self, place: Place, actor: Actor, words: list[str]) -> Reply:
        _, lang = await self._chat(place, actor)
        if not words:
            return Reply(answer=Screen(tr(lang, "rules.usage", games=", ".join(GAMES))))
        try:
            game = get(words[0])
        except InvalidOptions:
            return Reply(answer=Screen(tr(lang, "err.unknown_game", name=words[0],
                                          games=", ".join(GAMES))))
        return Reply(answer=Screen(rules_text(game.id, lang)))

    async def chips(self, place: Place, actor: Actor) -> Reply:
        chat_id, lang = await self._chat(place, actor)
        user_id = await self.manager.user_of(actor)
        wallet = await self.storage.accounts.wallet(chat_id, user_id)
        standing = await self.storage.stats.rank(chat_id, user_id)
        players = await self.storage.stats.players(chat_id)
        lines = [tr(lang, "chips.balance", wallet.balance, name=actor.name)]
        if wallet.held:
            lines[0] += " " + tr(lang, "chips.held", wallet.held)
        if standing is not None:
            lines.append(tr(lang, "chips.rank", rank=standing.rank, players=players))
        settings = await self.manager.chat_settings(chat_id)
        if wallet.total < settings.floor:
            chips = self.manager.turns.chips
            if await self.storage.accounts.refilled(chat_id, user_id, chips.day()):
                hours, minutes = chips.until_refill()
                lines.append(tr(lang, "chips.refill_next", floor=settings.floor, hours=hours,
                                minutes=minutes))
            else:
                lines.append(tr(lang, "chips.refill_due", floor=settings.floor))
        return Reply(answer=Screen("\n".join(lines)))

    async def top(self, place: Place, actor: Actor, words: list[str]) -> Reply:
        """One page of a leaderboard: the season's, an earlier one's or all time's, by chips
        or by chips won per deal (`bot.deals.leaderboards`)."""
        return await Leaderboards(self.manager).top(place, actor, words)

    async def stats(self, place: Place, actor: Actor) -> Reply:
        chat_id, lang = await self._chat(place, actor)
        user_id = await self.manager.user_of(actor)
        per_game = await self.storage.stats.games(chat_id, user_id)
        wallet = await self.storage.accounts.wallet(chat_id, user_id)
        came = await self.storage.stats.sources(chat_id, user_id)
        lines = [tr(lang, "stats.title", name=actor.name),
                 tr(lang, "stats.sources", chips=wallet.total, granted=came.granted,
                    refilled=came.refilled, won=signed(came.won))]
        if came.adjusted:
            lines.append(tr(lang, "stats.adjusted", adjusted=signed(came.adjusted)))
        if not per_game:
            lines.append(tr(lang, "stats.none"))
        for g in per_game:
            lines.append(tr(lang, "stats.line", g.played, game=_title(g.game, lang), won=g.won,
                            net=signed(g.net)))
        settings = await self.storage.accounts.settings(chat_id)
        current = await self.storage.seasons.under_way(
            chat_id, settings.season, settings.season_since, self.storage.db.clock())
        lines += person_lines(await self.storage.seasons.of_person(chat_id, user_id, current),
                              lang)
        recent = await self.storage.stats.recent_deals(chat_id, 5)
        if recent:
            lines.append(tr(lang, "stats.recent"))
            for deal in recent:
                title = _title(deal.game, lang)
                computers = deal.computers or (False,) * len(deal.seats)
                seats = ", ".join(
                    f"{computer_name(name, lang) if computer else name} {signed(delta)}"
                    for (name, _, delta, _), computer in zip(deal.seats, computers, strict=True))
                lines.append(f"• {title}: {seats}")
        if not per_game:
            return Reply(answer=Screen("\n".join(lines)))
        history = await self.storage.stats.history(chat_id, user_id)
        from rendering.stats_card import GameLine, StatsCard  # its charts: not before a card

        card = StatsCard(
            history[-1].balance if history else 0,
            tuple((p.deals, p.balance) for p in history),
            tuple(GameLine(_title(g.game, lang), g.played, g.won, g.net) for g in per_game))
        frame = Frame(title=tr(lang, "stats.picture_title", name=actor.name), names=(),
                      lang=lang, theme=self.manager.theme)
        return Reply(answer=Screen("\n".join(lines), Picture("stats", frame, card=card)))

    async def notify(self, place: Place, actor: Actor) -> Reply:
        """`/notify`: start or stop hearing privately of the chat's new lobbies."""
        chat_id, lang = await self._chat(place, actor)
        on = await self.storage.accounts.toggle_notify(chat_id,
                                                       await self.manager.user_of(actor))
        return Reply(answer=Screen(tr(lang, "notify.on" if on else "notify.off")))

    async def lang(self, place: Place, actor: Actor, words: list[str],
                   is_admin: IsAdmin, private: bool = False) -> Reply:
        """In a group, the chat's language (its admins set it); in the private chat, the
        person's own, for their hands and notes in every chat."""
        chat_id, lang = await self._chat(place, actor)
        if private:
            lang = await self.manager.person_language(actor, lang)
        langs = ", ".join(LANGS)
        if not words:
            if private:
                chosen = await self.manager.chosen_language(actor)
                key = "lang.own_chosen" if chosen else "lang.own_client"
                return Reply(answer=Screen(tr(lang, key, langs=langs)))
            return Reply(answer=Screen(tr(lang, "lang.current", langs=langs) + "\n"
                                       + tr(lang, "lang.own_hint")))
        wanted = words[0].lower()
        if wanted not in LANGS:
            return Reply(answer=Screen(tr(lang, "lang.unknown", langs=langs)))
        if private:  # the private chat speaks it too
            await self.manager.choose_language(actor, wanted)
            await self.manager.update_settings(chat_id, language=wanted)
            return Reply(answer=Screen(tr(wanted, "lang.own_set")))
        if not await is_admin():
            return Reply(answer=Screen(tr(lang, "err.admins_only")))
        await self.manager.update_settings(chat_id, language=wanted)
        return Reply(answer=Screen(tr(wanted, "lang.set")))

    async def settings(self, place: Place, actor: Actor, words: list[str],
                       is_admin: IsAdmin) -> Reply:
        chat_id, lang = await self._chat(place, actor)
        current = await self.manager.chat_settings(chat_id)
        if not words:
            shown = ", ".join(
                f"{g} {d.get('preset') or '—'} ×{d.get('stake', 1)}"
                for g, d in sorted(current.defaults.items())) or "—"
            return Reply(answer=Screen(tr(
                lang, "settings.show", turn=current.turn_timeout, lobby=current.lobby_timeout,
                defaults=shown, lang=current.language or lang,
                mentions=tr(lang, "settings.on" if current.mentions else "settings.off"),
                level=tr(lang, f"level.{chat_level(current)}"), grant=current.grant,
                floor=current.floor, max_stake=current.max_stake, buy_in=current.buy_in,
                min_deals=current.min_deals, season=tr(lang, KINDS[current.season]))))
        if not await is_admin():
            return Reply(answer=Screen(tr(lang, "err.admins_only")))
        key, args = words[0].lower(), words[1:]
        if key == "season":
            return await self.manager.seasons.switch(chat_id, lang, args)
        changes: dict[str, object] = {}
        if key in ("turn", "lobby") and len(args) == 1 and args[0].isascii() \
                and args[0].isdigit():
            value = int(args[0])
            lo, hi = (MIN_TURN, MAX_TURN) if key == "turn" else (MIN_LOBBY, MAX_LOBBY)
            if not lo <= value <= hi:
                return Reply(answer=Screen(tr(lang, "settings.range", lo=lo, hi=hi)))
            changes[f"{key}_timeout"] = value
        elif key == "default" and args:
            try:
                rules = get(args[0])
            except InvalidOptions:
                return Reply(answer=Screen(tr(lang, "err.unknown_game", name=args[0],
                                              games=", ".join(GAMES))))
            defaults = dict(current.defaults)
            entry: dict[str, object] = {}
            for word in args[1:]:
                if word.isascii() and word.isdigit():
                    if not 1 <= int(word) <= MAX_STAKE:
                        return Reply(answer=Screen(tr(lang, "err.stake", most=MAX_STAKE)))
                    entry["stake"] = int(word)
                elif word in rules.presets:
                    entry["preset"] = word
                else:
                    return Reply(answer=Screen(tr(lang, "settings.bad_preset", preset=word,
                                                  presets=", ".join(rules.presets))))
            if entry:
                defaults[rules.id] = entry
            else:
                defaults.pop(rules.id, None)
            changes["defaults"] = defaults
        elif key == "mentions" and len(args) == 1 and args[0].lower() in SWITCH:
            changes["mentions"] = SWITCH[args[0].lower()]
        elif key in NUMBERS and len(args) == 1:
            field, lo, hi = NUMBERS[key]
            if not (args[0].isascii() and args[0].isdigit() and lo <= int(args[0]) <= hi):
                return Reply(answer=Screen(tr(lang, "settings.number", lo=lo, hi=hi)))
            changes[field] = int(args[0])
        elif key == "level" and len(args) == 1:
            if args[0].lower() not in LEVELS:
                return Reply(answer=Screen(tr(lang, "settings.bad_level", level=args[0],
                                              levels=", ".join(LEVELS))))
            changes["level"] = args[0].lower()
        else:
            return Reply(answer=Screen(tr(lang, "settings.usage")))
        await self.manager.update_settings(chat_id, **changes)
        return Reply(answer=Screen(tr(lang, "settings.saved")))
