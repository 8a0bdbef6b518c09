"""Watching a game that was started before watching existed (docs/hosting.md, watching): nothing new
is stored for it, so a game saved by a bot without the web table is watched as soon as a bot with it
restores the game, and its table gains the Watch link with its next edit. Only the group's members
watch: someone with the link who is not in the group is refused, and who is in it is asked of
Telegram once a while, not at every request. The real bot process against the fake Bot API, as in
`test_web_table`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.test_web_table import links
from tests.support.fake_telegram import BOT_USERNAME, FakeTelegram, User
from tests.support.telegram_group import BOB, GROUP, OLENA, STRANGER
from tests.support.web_table import APP_NAME, call, web_bot
from words.i18n import tr

pytestmark = pytest.mark.real_time
OUTSIDER = User(777, "Outsider", "en")
"""Someone who has a link to the game but is not in its group."""


async def test_a_game_started_before_watching_existed_is_watched(server: FakeTelegram,
                                                                 tmp_path: Path) -> None:
    async with web_bot(server, tmp_path, miniapp=False) as (group, _):
        sid = await group.open_game("dragon", (OLENA, BOB), 1)
        await server.wait_for(lambda: group.hand(BOB) is not None)
        table = next(m for m in reversed(server.messages(GROUP)) if m.has_photo)
        assert not any("startapp" in str(b.get("url")) for b in links(table)), "no Watch"
    async with web_bot(server, tmp_path) as (group, base):
        status, watched = await call(base, STRANGER, f"api/table?session={sid}")
        assert status == 200, watched
        assert watched["spectator"] and watched["hand"] is None and watched["board"]
        assert [s["tiles"] for s in watched["seats"]] != [None] * 3
        for _ in range(3):  # a page asks for its table after every move
            assert (await call(base, STRANGER, f"api/table?session={sid}"))[0] == 200
        asked = [c for c in server.calls("getChatMember")
                 if str(c.params.get("user_id")) == str(STRANGER.id)]
        assert len(asked) == 1, "who is in the group is asked once, not at every request"
        server.set_member_status(GROUP, OUTSIDER, "left")
        for path in (f"api/table?session={sid}", f"api/board?session={sid}",
                     f"api/events?session={sid}"):
            status, answer = await call(base, OUTSIDER, path)
            assert (status, answer) == (403, {"error": tr("en", "web.not_member")}), path
        status, answer = await call(base, STRANGER, "api/press",
                                    {"data": f"g:{sid}:{watched['version']}:!peek"})
        assert (status, answer) == (403, {"error": tr("en", "web.watch_only")})
        watch = f"https://t.me/{BOT_USERNAME}/{APP_NAME}?startapp=w{sid}"
        await group.play(sid, (OLENA, BOB), until=1)
        await server.wait_for(lambda: any(
            {"text": tr("uk", "btn.watch"), "url": watch} in links(m)
            for m in server.messages(GROUP) if m.has_photo), timeout=30)
