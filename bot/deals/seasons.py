"""Ending a chat's seasons as their time comes, and changing how long they run.

Seasons (docs/playing.md) on docs/architecture.md §6. Every process's sweep (`bot.workers`, every
third of its lease) asks storage which of its platform's chats have a season whose end has come and
writes each (`storage.seasons`): the first process to write a season writes its podium post with it,
so the post exists once however many processes sweep, and this process, its owner, delivers it at
once. A post whose process died before the chat had it is handed on like a deal's result: the next
sweep of a living process claims it and builds it again from what was kept (the season's number;
`bot.present.season_words`), so a restart or a `kill -9` loses no podium and shows none twice. An
admin's `/settings season week|month|off` ends the season under way at that moment, in the same
transaction that stores the new setting.
"""

from __future__ import annotations

import logging

from bot.present.screens import Reply, Screen
from bot.present.season_words import KINDS
from bot.session.requests import Requests
from bot.session.turns import Turns
from storage import StorageError
from storage.seasons import OFF, PERIODS
from words.i18n import tr

log = logging.getLogger(__name__)


class SeasonKeeper:
    def __init__(self, requests: Requests, turns: Turns) -> None:
        self.r = requests
        self.turns = turns

    async def sweep(self) -> None:
        """End the seasons whose time has come and post their podiums (a failure waits for
        the next sweep: nothing is written that is not posted then)."""
        r = self.r
        try:
            now = r.storage.db.clock()
            for chat_id in await r.storage.seasons.due(r.platform, now):
                await self.post(await r.storage.seasons.close(chat_id, now, r.worker.id))
        except StorageError as exc:
            log.warning("ending the seasons that are over failed: %s", exc)

    async def post(self, keys: list[int]) -> None:
        """Deliver the podium posts this process just wrote."""
        if not keys:
            return
        r = self.r
        for post in await r.storage.sessions.pending_posts(r.platform, r.worker.id):
            if post.id not in keys:
                continue
            session = await r.storage.sessions.get(post.session_id)
            if session is None:
                continue
            reply = r.reply(session)
            reply.posts = await self.turns.posts(session, [post])
            await r.show(reply)

    async def switch(self, chat_id: int, lang: str, words: list[str]) -> Reply:
        """`/settings season week|month|off` (the caller checked the asker is an admin)."""
        wanted = words[0].lower() if len(words) == 1 else ""
        if wanted not in PERIODS:
            return Reply(answer=Screen(tr(lang, "settings.bad_season")))
        current = await self.r.storage.accounts.settings(chat_id)
        kind = tr(lang, KINDS[wanted])
        if current.season == wanted:
            return Reply(answer=Screen(tr(lang, "settings.season_same", kind=kind)))
        now = self.r.storage.db.clock()
        before = await self.r.storage.seasons.ended(chat_id)
        keys = await self.r.storage.seasons.close(
            chat_id, now, self.r.worker.id, cut=True,
            settings={"season": wanted, "season_since": now})
        self.r.forget_settings(chat_id)
        after = await self.r.storage.seasons.ended(chat_id)
        lines = [tr(lang, "settings.season_off") if wanted == OFF
                 else tr(lang, "settings.season_set", kind=kind)]
        if len(after) > len(before) and after[-1].ends == now:
            lines.append(tr(lang, "settings.season_cut", number=after[-1].number))
        await self.post(keys)
        return Reply(answer=Screen("\n".join(lines)))
