"""People's languages in storage: the one they chose and their client's, and the migration
that added the chosen one to files made before it."""

from __future__ import annotations

from pathlib import Path

from storage import Storage
from storage.accounts import PersonLanguage
from storage.schema import MIGRATIONS
from tests.support.databases import old_database

PREVIOUS = 2
"""The schema version of the last release without chosen languages."""


def old_file(database: Path | str) -> None:
    """A database as the previous release left it: its migrations only, with a person, a chat
    and chips in it."""
    old_database(database, PREVIOUS, """
        INSERT INTO users (platform, platform_id, name, language, created_at)
            VALUES ('telegram', '7', 'Ann', 'en-GB', 0);
        INSERT INTO chats (platform, platform_id, title, language, created_at)
            VALUES ('telegram', '-100', 'group', 'uk', 0);
        INSERT INTO balances (chat_id, user_id, balance, joined) VALUES (1, 1, 1000, 1);
        INSERT INTO ledger (chat_id, user_id, kind, ref, amount, at)
            VALUES (1, 1, 'grant', 'start', 1000, 0);
    """)


async def test_a_file_of_the_previous_schema_opens_and_keeps_everything(database: Path | str
                                                                        ) -> None:
    old_file(database)
    store = await Storage.open(database)
    try:
        assert await store.db.schema_version() == len(MIGRATIONS) > PREVIOUS
        # Nobody had chosen a language: everyone follows their client's.
        assert await store.accounts.languages("telegram", ["7", "8"]) == {
            "7": PersonLanguage(None, "en-GB")}
        assert await store.accounts.balance(1, 1) == 1000
        assert (await store.accounts.settings(1)).language == "uk"
        await store.accounts.choose_language("telegram", "7", "Ann", "uk")
    finally:
        await store.close()
    again = await Storage.open(database)
    try:
        assert await again.db.schema_version() == len(MIGRATIONS)
        assert await again.accounts.languages("telegram", ["7"]) == {
            "7": PersonLanguage("uk", "en-GB")}
    finally:
        await again.close()


async def test_a_chosen_language_outlives_the_clients_and_can_be_dropped(database: Path | str
                                                                         ) -> None:
    store = await Storage.open(database)
    try:
        accounts = store.accounts
        user = await accounts.choose_language("discord", 42, "Bo", "uk")  # never seen before
        assert await accounts.user("discord", 42, "Bo", "en-US") == user
        assert await accounts.user("discord", 42, "Bo") == user  # a client that says nothing
        assert await accounts.languages("discord", ["42"]) == {"42": PersonLanguage("uk",
                                                                                  "en-US")}
        # The same platform id on another platform is another person.
        assert await accounts.languages("telegram", ["42"]) == {}
        await accounts.choose_language("discord", 42, "Bo", None)
        assert await accounts.languages("discord", ["42"]) == {"42": PersonLanguage(None,
                                                                                  "en-US")}
        assert await accounts.languages("discord", []) == {}
    finally:
        await store.close()
