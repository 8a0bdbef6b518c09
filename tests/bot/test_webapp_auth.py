"""Telegram's init data, checked as Telegram says (`bot.web.webapp_auth`), against init data signed
by the tests' own signer (`tests.support.miniapp`), written separately from the bot's check."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import pytest

from bot.web.webapp_auth import MAX_LENGTH, BadInitData, InitDataCheck
from tests.support.miniapp import init_data
from tests.support.telegram_group import BOB, OLENA, TOKEN

NOW = 1_800_000_000.0


def check(max_age: float = 3600.0) -> InitDataCheck:
    return InitDataCheck(TOKEN, max_age, clock=lambda: NOW)


def test_init_data_names_who_opened_the_table() -> None:
    user = check()(init_data(OLENA, TOKEN, start="s12", made=NOW - 10))
    assert (user.id, user.name, user.language, user.start, user.made) == (
        str(OLENA.id), OLENA.first_name, "uk", "s12", NOW - 10)
    assert check()(init_data(BOB, TOKEN, made=NOW)).start == ""


def changed(data: str, **fields: str) -> str:
    """The same init data with some fields changed after it was signed."""
    pairs = dict(parse_qsl(data, keep_blank_values=True))
    pairs.update(fields)
    return urlencode(pairs)


@pytest.mark.parametrize("data,why", [
    ("", "no init data"),
    (init_data(OLENA, TOKEN, made=NOW, forge=True), "hash"),
    (init_data(OLENA, "654321:ANOTHER-BOT", made=NOW), "hash"),
    (changed(init_data(OLENA, TOKEN, made=NOW),
             user='{"id":102,"first_name":"Bob"}'), "hash"),
    (changed(init_data(OLENA, TOKEN, made=NOW), start_param="s99"), "hash"),
    (changed(init_data(OLENA, TOKEN, made=NOW), hash=""), "hash"),
    (init_data(OLENA, TOKEN, made=NOW - 3601), "old"),
    (init_data(OLENA, TOKEN, made=NOW + 3600), "future"),
    (init_data(OLENA, TOKEN, made=NOW) + "&auth_date=1", "twice"),
    ("a=1&&b", "query string"),
    ("x" * (MAX_LENGTH + 1), "too long"),
])
def test_init_data_that_proves_nothing_is_refused(data: str, why: str) -> None:
    with pytest.raises(BadInitData, match=why):
        check()(data)


def test_the_age_limit_is_a_setting() -> None:
    data = init_data(OLENA, TOKEN, made=NOW - 7200)
    assert check(max_age=86400)(data).id == str(OLENA.id)
    with pytest.raises(BadInitData):
        check(max_age=3600)(data)
