"""Who may watch a game: the members of its group, as the platform says, kept a while
(`bot.web.web_watch.Members`); a platform that cannot say is told apart from a "no"."""

from __future__ import annotations

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
