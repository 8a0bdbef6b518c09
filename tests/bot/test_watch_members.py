"""Who may watch a game: the members of its group, as the platform says, kept a while
(`bot.web.web_watch.Members`); a platform that cannot say is told apart from a "no"."""

from __future__ import annotations

import asyncio

import pytest

from bot.web.web_watch import MEMBER_SECONDS, CannotTell, Members
from storage import Session


def session(chat: str = "-100") -> Session:
    return Session(id=1, chat_id=1, topic="", game="dragon", options={}, seats=[], stake=1,
                   creator_id=None, status="active", state=None, version=1, deadline=None,
                   messages={"place": {"chat": chat}} if chat else {})


async def test_members_are_asked_once_a_while_and_a_failure_is_not_a_no() -> None:
    now = [0.0]
    asked: list[tuple[str, str]] = []
    down = [False]

    async def ask(chat: str, person: str) -> bool:
        asked.append((chat, person))
        if down[0]:
            raise OSError("the platform is unreachable")
        return person == "7"

    members = Members(ask, clock=lambda: now[0])
    assert await members.may_watch(session(), "7")
    assert not await members.may_watch(session(), "8")
    assert await members.may_watch(session(), "7") and len(asked) == 2, "kept"
    now[0] += MEMBER_SECONDS
    down[0] = True
    with pytest.raises(CannotTell):
        await members.may_watch(session(), "7")
    down[0] = False
    assert await members.may_watch(session(), "7") and len(asked) == 4
    assert not await members.may_watch(session(chat=""), "7"), "a game with no group"
    assert await Members(None).may_watch(session(), "8"), "no platform to ask: anyone"


@pytest.mark.real_time
async def test_asking_who_is_in_a_group_waits_behind_none_of_its_messages() -> None:
    """Telegram's flood limit is on messages (some 20 a minute in a group): a page opened in a
    group that has just had its twenty must still learn at once who may watch, and the
    question must not hold up the group's next message either. (On the real clock: the
    library's HTTP client and its limiter wait together here, as in the bot.)"""
    from telegram.ext import AIORateLimiter

    from bot.telegram.telegram_http import application
    from bot.telegram.telegram_members import in_chat
    from tests.support.fake_telegram import FakeTelegram

    group = -100123
    loop = asyncio.get_running_loop()
    now = [0.0]
    with FakeTelegram(clock=lambda: now[0]) as fake:
        fake.set_member_status(group, 8, "left")
        app = application("123456:LIMITS", fake.url, webhook=True, max_retries=0,
                          answered=lambda status: None)
        assert isinstance(app.bot.rate_limiter, AIORateLimiter)
        async with app:
            for n in range(20):
                await app.bot.send_message(group, f"move {n}")
            asked = asyncio.gather(in_chat(app.bot, str(group), "7"),
                                   in_chat(app.bot, str(group), "8"))
            # Behind the limiter the two would wait some 3 and 6 s.
            assert await asyncio.wait_for(asked, 2.0) == [True, False]
            now[0] += 60.0  # Telegram's own minute is over; the limiter's bucket is not
            started = loop.time()
            await app.bot.send_message(group, "move 20")
            waited = loop.time() - started
            # One message every 3 s, once the twenty are sent: had the two questions taken
            # the next two places, this one would wait some 9 s.
            assert 2.0 < waited < 7.0, "the group's limit still holds its messages"
