"""Whether someone is in a Telegram group now, as the Bot API's getChatMember says: who may
watch a group's game on the web table (`bot.web.web_watch.Members`).

A member, an admin or the group's creator is in it, and so is a restricted member who has not
left; anyone who left or was banned is not. A failed call raises (the page then says to try
again), so a passing outage shuts nobody out for good.
"""

from __future__ import annotations

from telegram import Bot, ChatMemberRestricted
from telegram.constants import ChatMemberStatus

IN = frozenset({ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR,
                ChatMemberStatus.MEMBER})


async def in_chat(bot: Bot, chat: str, person: str) -> bool:
    """Whether the person with Telegram user id `person` is in chat `chat` now."""
    member = await bot.get_chat_member(int(chat), int(person))
    if isinstance(member, ChatMemberRestricted):
        return member.is_member
    return member.status in IN
