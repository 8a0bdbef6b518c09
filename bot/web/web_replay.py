"""The web table's replay of a finished deal (`/app/replay.html`): its data and board pictures.

docs/architecture.md §4 and §1.3; the deal is replayed and checked by `bot.deals.deal_check`, shown
by `bot.deals.replay_steps`. A result post links here with the deal's token: its game's number, the
deal's number and the fingerprint of the deal's seed (`<session>_<deal>_<fingerprint>`). The token
is what lets someone in: the result post that carries it names the seed, so the group can look
again, and nobody else can guess a fingerprint of 64 bits for a deal they have not seen. The deal is
over, so the page shows every hand face up, and needs no Telegram sign-in: the same link works from
a Telegram group and a Discord channel.

- `GET api/replay?d=TOKEN&lang=L`: every step (`replay_steps.as_json`);
- `GET api/replay/board?d=TOKEN&step=N&lang=L`: step N's board picture.

A deal kept without its moves, or one whose kept moves do not check out, is answered 404 with
the reason in words; the page shows it.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import OrderedDict
from typing import TypeVar

from aiohttp import web

from bot.deals.deal_check import DealRefused, Replayed, check
from bot.deals.replay_steps import as_json, shown
from games import seeds
from storage import Storage, StorageError
from words.i18n import lang_of, tr

K = TypeVar("K")
V = TypeVar("V")
TOKEN = re.compile(r"(\d{1,12})_(\d{1,9})_([0-9a-f]{16})")
KEPT = 32
"""Replayed deals, their pages and board pictures kept in memory: a post's readers come in a
burst, and a replay never changes."""


class Replays:
    """The routes, reading deals from `storage`, pictures in `theme`."""

    def __init__(self, storage: Storage, theme: str) -> None:
        self.storage = storage
        self.theme = theme
        self.deals: OrderedDict[str, Replayed] = OrderedDict()
        self.pages: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self.boards: OrderedDict[tuple[str, int, str], bytes] = OrderedDict()

    def add_to(self, router: web.UrlDispatcher, prefix: str) -> None:
        router.add_get(f"{prefix}/api/replay", self.steps)
        router.add_get(f"{prefix}/api/replay/board", self.board)

    async def steps(self, request: web.Request) -> web.Response:
        lang = language(request)
        text, done = await self.replayed(request, lang)
        body = self.pages.get((text, lang))
        if body is None:
            body = json.dumps(as_json(done, lang), ensure_ascii=False).encode()
            _keep(self.pages, (text, lang), body)
        return web.Response(body=body, content_type="application/json",
                            headers={"Cache-Control": "no-store"})

    async def board(self, request: web.Request) -> web.Response:
        lang = language(request)
        text, done = await self.replayed(request, lang)
        step_text = request.query.get("step", "")
        if not (step_text.isascii() and step_text.isdigit() and len(step_text) <= 4) or \
                int(step_text) >= len(done.steps):
            raise _error(400, tr(lang, "web.no_replay"))
        step = int(step_text)
        png = self.boards.get((text, step, lang))
        if png is None:
            picture = shown(done, step, lang, self.theme).picture
            png = await asyncio.to_thread(picture.render, "lossless")
            _keep(self.boards, (text, step, lang), png)
        return web.Response(body=png, content_type="image/png",
                            headers={"Cache-Control": "public, max-age=3600"})

    async def replayed(self, request: web.Request, lang: str) -> tuple[str, Replayed]:
        """The deal the request's token names, replayed and checked; 400, 404 or 503 with
        the reason in words otherwise."""
        text = request.query.get("d", "")
        found = TOKEN.fullmatch(text)
        if found is None:
            raise _error(400, tr(lang, "web.no_replay"))
        done = self.deals.get(text)
        if done is not None:
            self.deals.move_to_end(text)
            return text, done
        session_id, deal_no, fingerprint = (int(found[1]), int(found[2]), found[3])
        try:
            deal_id = await self.storage.moves.deal_of(session_id, deal_no)
            deal = None if deal_id is None else await self.storage.moves.deal(deal_id)
        except StorageError as exc:
            raise _error(503, tr(lang, "err.storage")) from exc
        if deal is None or (deal.moves is not None
                            and not seeds.matches(deal.moves.seed, fingerprint)):
            raise _error(404, tr(lang, "web.no_replay"))
        try:
            done = await asyncio.to_thread(check, deal)
        except DealRefused as exc:
            raise _error(404, f"{tr(lang, 'web.no_replay')} {exc}") from None
        _keep(self.deals, text, done)
        return text, done


def language(request: web.Request) -> str:
    """The language the link names (the chat's), else the browser's first."""
    named = request.query.get("lang", "")
    if named:
        return lang_of(named[:2])
    return lang_of(request.headers.get("Accept-Language", "").split(",")[0].strip()[:2] or None)


def _keep(cache: OrderedDict[K, V], key: K, value: V) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > KEPT:
        cache.popitem(last=False)


def _error(status: int, text: str) -> web.HTTPException:
    cls = {400: web.HTTPBadRequest, 404: web.HTTPNotFound, 503: web.HTTPServiceUnavailable}
    error: web.HTTPException = cls[status](text=json.dumps({"error": text}),
                                           content_type="application/json")
    return error
