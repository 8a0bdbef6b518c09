"""The fake Discord drives a real discord.py client: commands, components, files and errors."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
from discord import app_commands

from tests.support import virtual_time
from tests.support.fake_discord import (
    ALL_PERMISSIONS,
    APP_ID,
    DEFAULT_CHANNEL_ID,
    EPHEMERAL,
    FakeDiscord,
    User,
    autocomplete,
    button,
    command_id,
    dm_channel_id,
    feed,
    login,
    permissions_without,
    select,
    shutdown,
    slash,
)

ALICE = User(101, "Alice", locale="uk")
BOB = User(102, "Bob")
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
FRUIT = ("apple", "apricot", "banana")


@dataclass
class Seen:
    """What the handlers of the tiny client were given."""

    pings: list[tuple[str, int, discord.Locale, discord.Permissions, bool]] = field(
        default_factory=list)
    presses: list[tuple[int, str, int]] = field(default_factory=list)
    picks: list[list[str]] = field(default_factory=list)


class Go(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"g:(?P<sid>\d+):(?P<rest>.+)"):
    def __init__(self, sid: int, rest: str) -> None:
        super().__init__(discord.ui.Button(label="Go", custom_id=f"g:{sid}:{rest}"))
        self.sid, self.rest = sid, rest

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> Go:
        return cls(int(match["sid"]), match["rest"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        interaction.client.seen.presses.append((self.sid, self.rest, interaction.user.id))
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"pressed {self.sid}:{self.rest}")


class Picker(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(custom_id="pick", max_values=3,
                       options=[discord.SelectOption(label=f, value=f) for f in FRUIT])
    async def pick(self, interaction: discord.Interaction[Any],
                   menu: discord.ui.Select[Any]) -> None:
        interaction.client.seen.picks.append(list(menu.values))
        await interaction.response.send_message(f"picked {' '.join(menu.values)}",
                                                ephemeral=True)


class Tiny(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.none())
        self.tree = app_commands.CommandTree(self)
        self.seen = Seen()
        self.never = asyncio.Event()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Go)
        self.add_view(Picker())


def make_client() -> Tiny:
    client = Tiny()

    @client.tree.command(name="ping", description="Answers pong")
    async def ping(interaction: discord.Interaction[Any], word: str, times: int = 1) -> None:
        client.seen.pings.append((word, times, interaction.locale, interaction.app_permissions,
                                  interaction.guild_id is None))
        await interaction.response.send_message(f"pong {word * times}", ephemeral=True)

    @ping.autocomplete("word")
    async def ping_word(interaction: discord.Interaction[Any],
                        current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f, value=f) for f in FRUIT if f.startswith(current)]

    @client.tree.command(name="deal", description="Deals a hand")
    async def deal(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("dealt")
        await interaction.followup.send("your tiles", ephemeral=True)
        await interaction.edit_original_response(content="dealt to you")

    @client.tree.command(name="think", description="Thinks, then answers")
    async def think(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("thought", ephemeral=True)

    @client.tree.command(name="picture", description="Shows a picture")
    async def picture(interaction: discord.Interaction[Any]) -> None:
        embed = discord.Embed(title="board").set_image(url="attachment://x.png")
        await interaction.response.send_message(
            embed=embed, file=discord.File(io.BytesIO(PNG), filename="x.png"))

    @client.tree.command(name="menu", description="Shows a private menu")
    async def menu(interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="More", custom_id="more"))
        await interaction.response.send_message("menu", view=view, ephemeral=True)

    @client.tree.command(name="hang", description="Never answers")
    async def hang(interaction: discord.Interaction[Any]) -> None:
        await client.never.wait()

    return client


@pytest.fixture
async def tiny(caplog) -> AsyncIterator[tuple[Tiny, FakeDiscord]]:
    client = make_client()
    fake = FakeDiscord.install(client)
    await login(client)
    yield client, fake
    await shutdown(client)
    assert fake.unhandled == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_login_sets_the_user_and_application_without_a_connection(tiny):
    client, fake = tiny
    assert client.user is not None and client.user.id == APP_ID and client.user.bot
    assert client.application_id == APP_ID
    assert [(c.method, c.path) for c in fake.calls] == [
        ("GET", "/users/@me"), ("GET", "/oauth2/applications/@me")]
    assert client.ws is None and client.http.connector is discord.utils.MISSING


async def test_sync_echoes_the_commands_with_ids(tiny):
    client, fake = tiny
    synced = await client.tree.sync()
    assert {c.name: c.id for c in synced} == {
        name: command_id(name) for name in ("ping", "deal", "think", "picture", "menu", "hang")}
    ping = next(c for c in synced if c.name == "ping")
    assert [(o.name, o.autocomplete) for o in ping.options] == [("word", True), ("times", False)]
    assert await client.tree.sync(guild=discord.Object(555)) == []
    assert fake.calls[-1].path == f"/applications/{APP_ID}/guilds/555/commands"


async def test_a_slash_command_gets_its_options_and_answers_ephemerally(tiny):
    client, fake = tiny
    payload = slash("ping", {"word": "ab", "times": 2}, user=ALICE,
                    app_permissions=permissions_without("attach_files"))
    await feed(client, payload)
    word, times, locale, permissions, in_dm = client.seen.pings[0]
    assert (word, times, locale, in_dm) == ("ab", 2, discord.Locale.ukrainian, False)
    assert permissions.send_messages and not permissions.attach_files
    assert fake.interaction_responses == [
        (int(payload["id"]), 4, {"content": "pong abab", "flags": EPHEMERAL, "tts": False})]
    assert [m["content"] for m in fake.ephemerals_for(ALICE.id)] == ["pong abab"]
    assert fake.ephemerals_for(BOB.id) == [] and fake.channel_messages(DEFAULT_CHANNEL_ID) == []


async def test_a_slash_command_in_a_dm(tiny):
    client, fake = tiny
    await feed(client, slash("ping", {"word": "x"}, user=BOB, guild_id=None))
    assert client.seen.pings[0][2:] == (discord.Locale.american_english,
                                        discord.Permissions(int(ALL_PERMISSIONS)), True)
    assert fake.ephemerals_for(BOB.id)[0]["channel_id"] == str(dm_channel_id(BOB.id))


async def test_a_user_option_arrives_as_the_member_picked(tiny):
    """A user option carries the picked user's id, and Discord sends that user (and, in a
    server, their membership) as resolved data: discord.py hands the command a Member."""
    client, fake = tiny
    picked: list[Any] = []

    @client.tree.command(name="poke", description="Pokes someone")
    async def poke(interaction: discord.Interaction[Any], player: discord.Member) -> None:
        picked.append(player)
        await interaction.response.send_message(f"poked {player.display_name}", ephemeral=True)

    await feed(client, slash("poke", {"player": BOB}, user=ALICE))
    (member,) = picked
    assert isinstance(member, discord.Member)
    assert (member.id, member.display_name) == (BOB.id, "Bob")
    assert not member.guild_permissions.manage_guild  # a member's rights, not an admin's
    option = fake.registered[-1]["data"]["options"][0]
    assert (option["type"], option["value"]) == (6, str(BOB.id))
    assert [m["content"] for m in fake.ephemerals_for(ALICE.id)] == ["poked Bob"]


async def test_autocomplete_answers_with_choices(tiny):
    client, fake = tiny
    await feed(client, autocomplete("ping", {"word": "ap"}, "word", user=BOB))
    assert fake.interaction_responses[-1][1:] == (8, {"choices": [
        {"name": "apple", "value": "apple"}, {"name": "apricot", "value": "apricot"}]})
    assert client.seen.pings == []


async def test_a_button_reaches_its_dynamic_item_and_edits_its_message(tiny):
    client, fake = tiny
    board = discord.ui.View(timeout=None)
    board.add_item(Go(7, "play:3"))
    channel = client.get_partial_messageable(DEFAULT_CHANNEL_ID)
    sent = await channel.send("board", view=board)
    other = await channel.send("other")
    message = fake.last_message(DEFAULT_CHANNEL_ID)
    assert message is not None and message["id"] == str(other.id)
    payload = button("g:7:play:3", user=BOB, message=fake.messages[sent.id])
    await feed(client, payload)
    assert client.seen.presses == [(7, "play:3", BOB.id)]
    assert fake.interaction_responses[-1] == (int(payload["id"]), 6, None)
    edit = fake.calls[-1]
    assert (edit.method, edit.path) == (
        "PATCH", f"/webhooks/{APP_ID}/{payload['token']}/messages/@original")
    assert isinstance(edit.json, dict) and edit.json["content"] == "pressed 7:play:3"
    shown = fake.channel_messages(DEFAULT_CHANNEL_ID)
    assert [m["content"] for m in shown] == ["pressed 7:play:3", "other"]
    assert shown[0]["components"][0]["components"][0]["custom_id"] == "g:7:play:3"


async def test_a_button_on_an_ephemeral_message_edits_it_for_its_user_only(tiny):
    client, fake = tiny
    await feed(client, button("g:1:x", user=ALICE, ephemeral_message=True))
    assert [m["content"] for m in fake.ephemerals_for(ALICE.id)] == ["pressed 1:x"]
    assert fake.channel_messages(DEFAULT_CHANNEL_ID) == []


async def test_a_persistent_select_delivers_its_values(tiny):
    client, fake = tiny
    await feed(client, select("pick", ["apple", "banana"], user=ALICE))
    assert client.seen.picks == [["apple", "banana"]]
    assert [m["content"] for m in fake.ephemerals_for(ALICE.id)] == ["picked apple banana"]


async def test_an_ephemeral_followup_is_shown_to_its_user_only(tiny):
    client, fake = tiny
    payload = slash("deal", user=ALICE)
    await feed(client, payload)
    assert [m["content"] for m in fake.channel_messages(DEFAULT_CHANNEL_ID)] == ["dealt to you"]
    followup = fake.ephemerals_for(ALICE.id)
    assert [m["content"] for m in followup] == ["your tiles"]
    assert followup[0]["flags"] & EPHEMERAL and followup[0]["interaction_token"] == payload["token"]
    assert fake.ephemerals_for(BOB.id) == []
    assert fake.calls[-2].params == {"wait": "1", "with_components": "0"}


async def test_the_first_followup_after_thinking_fills_the_thinking_message(tiny):
    client, fake = tiny
    await feed(client, slash("think", user=ALICE))
    assert fake.interaction_responses[-1][1] == 5
    shown = fake.channel_messages(DEFAULT_CHANNEL_ID)
    assert [m["content"] for m in shown] == ["thought"] and fake.ephemerals_for(ALICE.id) == []


async def test_files_are_recorded_byte_for_byte(tiny):
    client, fake = tiny
    channel = client.get_partial_messageable(DEFAULT_CHANNEL_ID)
    embed = discord.Embed(title="board").set_image(url="attachment://x.png")
    sent = await channel.send(embed=embed, file=discord.File(io.BytesIO(PNG), filename="x.png"))
    call = fake.calls[-1]
    assert call.files == [("x.png", PNG)]
    assert call.json is not None and call.json["embeds"][0]["image"] == {"url": "attachment://x.png"}
    assert sent.attachments[0].filename == "x.png" and sent.attachments[0].size == len(PNG)
    assert sent.embeds[0].image.url == "attachment://x.png"
    await feed(client, slash("picture", user=BOB))
    assert fake.calls[-1].files == [("x.png", PNG)]
    assert fake.channel_messages(DEFAULT_CHANNEL_ID)[-1]["attachments"][0]["size"] == len(PNG)


async def test_failures_raise_discord_exceptions(tiny):
    client, fake = tiny
    channel = client.get_partial_messageable(DEFAULT_CHANNEL_ID)
    prefix = f"/channels/{DEFAULT_CHANNEL_ID}/messages"
    fake.fail_next("POST", prefix, 403, 50013, "Missing Permissions")
    with pytest.raises(discord.Forbidden) as forbidden:
        await channel.send("no")
    assert (forbidden.value.status, forbidden.value.code) == (403, 50013)
    fake.fail_next("POST", prefix, 503)
    with pytest.raises(discord.DiscordServerError):
        await channel.send("no")
    fake.fail_next("POST", prefix, 429, 20028, "Slow down")
    with pytest.raises(discord.HTTPException) as limited:
        await channel.send("no")
    assert limited.value.code == 20028
    sent = await channel.send("yes")
    with pytest.raises(discord.NotFound) as unknown:
        await channel.get_partial_message(12345).edit(content="x")
    assert unknown.value.code == 10008
    await sent.edit(content="edited")
    await sent.delete()
    assert fake.channel_messages(DEFAULT_CHANNEL_ID) == []


async def test_a_dm_to_a_user_who_refuses_them_is_forbidden(tiny):
    client, fake = tiny
    fake.closed_dms.add(BOB.id)
    to_alice = await client.create_dm(discord.Object(ALICE.id))
    await to_alice.send("hello")
    assert [m["content"] for m in fake.channel_messages(dm_channel_id(ALICE.id))] == ["hello"]
    to_bob = await client.create_dm(discord.Object(BOB.id))
    with pytest.raises(discord.Forbidden) as refused:
        await to_bob.send("hello")
    assert refused.value.code == 50007


async def test_webhook_messages_are_reached_through_their_interaction(tiny):
    client, fake = tiny
    payload = slash("ping", {"word": "a"}, user=ALICE)
    await feed(client, payload)
    webhook = discord.Webhook.from_state(
        {"id": APP_ID, "type": 3, "token": payload["token"]}, client._connection)
    with pytest.raises(discord.NotFound):
        await webhook.fetch_message(1)
    original = await webhook.fetch_message(int(fake.ephemerals_for(ALICE.id)[0]["id"]))
    assert original.content == "pong a"


async def test_a_failed_interaction_response_reaches_the_tree_error_handler(tiny, caplog):
    client, fake = tiny
    fake.fail_next("POST", "/interactions/", 404, 10062, "Unknown interaction")
    await feed(client, slash("ping", {"word": "late"}, user=ALICE))
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "10062" in str(errors[0].exc_info[1])
    assert fake.interaction_responses == [] and fake.ephemerals_for(ALICE.id) == []
    caplog.clear()


async def test_a_view_timeout_is_not_waited_for(tiny):
    client, fake = tiny
    await feed(client, slash("menu", user=BOB))
    (menu,) = fake.ephemerals_for(BOB.id)
    assert menu["components"][0]["components"][0]["custom_id"] == "more"


async def test_a_handler_that_never_finishes_fails_the_test(tiny):
    client, fake = tiny
    with pytest.raises(AssertionError, match=r"still running after 0\.2s: .*CommandTree-invoker"):
        await feed(client, slash("hang", user=BOB), timeout=0.2)
    assert fake.interaction_responses == []


# ----- Discord's rules, on the loop's clock ------------------------------------------------------

def on_virtual_time(body: Any) -> Any:
    """Run `body(client, fake)` with a logged-in tiny client on a virtual-time loop."""
    async def main() -> Any:
        client = make_client()
        fake = FakeDiscord.install(client)
        await login(client)
        try:
            return await body(client, fake)
        finally:
            await shutdown(client)
    return virtual_time.run(main())


def test_discord_py_keeps_within_a_channels_limit_by_itself() -> None:
    async def body(client: Tiny, fake: FakeDiscord) -> None:
        channel = client.get_partial_messageable(DEFAULT_CHANNEL_ID)
        for n in range(12):
            await channel.send(f"message {n}")
        posts = [c.at for c in fake.calls if c.method == "POST" and "/channels/" in c.path]
        assert len(posts) == 12 and fake.limited == []
        for first, sixth in zip(posts, posts[5:], strict=False):
            assert sixth - first >= 5.0  # never a sixth post within five seconds
    on_virtual_time(body)


def test_a_bucket_never_says_it_resets_before_it_does() -> None:
    """Reset-After is sent to the millisecond, rounded up: discord.py sleeps exactly that long
    on the virtual clock, and a value rounded down would wake it just before the window ends."""
    async def body(client: Tiny, fake: FakeDiscord) -> None:
        channel = client.get_partial_messageable(DEFAULT_CHANNEL_ID)
        await channel.send("first")
        await asyncio.sleep(0.0007)  # what is left of the window is not a whole millisecond
        for n in range(6):
            await channel.send(f"message {n}")
        assert fake.limited == []
        assert len(fake.channel_messages(DEFAULT_CHANNEL_ID)) == 7
    on_virtual_time(body)


def test_a_channel_over_its_limit_answers_429_and_discord_py_waits() -> None:
    async def body(client: Tiny, fake: FakeDiscord) -> None:
        path = f"/channels/{DEFAULT_CHANNEL_ID}/messages"
        for _ in range(5):  # another process used the channel's five posts
            assert fake.answer("POST", path, {"content": "x"}, [], None, {}).status == 200
        start = FakeDiscord.now()
        await client.get_partial_messageable(DEFAULT_CHANNEL_ID).send("after the wait")
        (limited,) = fake.limited
        assert limited.path == path
        assert fake.calls[-1].status == 200 and fake.calls[-1].at - start >= 5.0
        assert fake.channel_messages(DEFAULT_CHANNEL_ID)[-1]["content"] == "after the wait"
    on_virtual_time(body)


def test_an_interaction_answered_after_three_seconds_is_unknown() -> None:
    async def body(client: Tiny, fake: FakeDiscord) -> None:
        @client.tree.command(name="slow", description="Answers too late")
        async def slow(interaction: discord.Interaction[Any]) -> None:
            await asyncio.sleep(3.5)
            with pytest.raises(discord.NotFound) as late:
                await interaction.response.send_message("too late")
            assert late.value.code == 10062
        await feed(client, slash("slow", user=ALICE), timeout=10)
        assert fake.interaction_responses == []
    on_virtual_time(body)


def test_an_interaction_token_lasts_fifteen_minutes() -> None:
    async def body(client: Tiny, fake: FakeDiscord) -> None:
        payload = slash("ping", {"word": "a"}, user=ALICE)
        await feed(client, payload)
        webhook = discord.Webhook.from_state(
            {"id": APP_ID, "type": 3, "token": payload["token"]}, client._connection)
        await asyncio.sleep(14 * 60)
        await webhook.edit_message(int(fake.ephemerals_for(ALICE.id)[0]["id"]), content="b")
        await asyncio.sleep(2 * 60)
        with pytest.raises(discord.HTTPException) as expired:
            await webhook.send("c", ephemeral=True)
        assert (expired.value.status, expired.value.code) == (401, 50027)
    on_virtual_time(body)


async def test_content_embeds_and_components_over_the_limits_are_refused(tiny):
    client, fake = tiny
    channel = client.get_partial_messageable(DEFAULT_CHANNEL_ID)
    with pytest.raises(discord.HTTPException) as long:
        await channel.send("x" * 2001)
    assert long.value.code == 50035
    with pytest.raises(discord.HTTPException):
        await channel.send(embed=discord.Embed(description="x" * 4097))
    # Six buttons in a row (discord.py refuses to build it, so the request is made by hand).
    row = [{"type": 2, "style": 2, "label": str(n), "custom_id": f"b{n}"} for n in range(6)]
    route = discord.http.Route("POST", "/channels/{channel_id}/messages",
                               channel_id=DEFAULT_CHANNEL_ID)
    with pytest.raises(discord.HTTPException):
        await client.http.request(route, json={"content": "crowded",
                                               "components": [{"type": 1, "components": row}]})
    assert fake.channel_messages(DEFAULT_CHANNEL_ID) == []


async def test_an_embed_picture_must_be_sent_or_kept(tiny):
    client, fake = tiny
    channel = client.get_partial_messageable(DEFAULT_CHANNEL_ID)
    embed = discord.Embed(title="board").set_image(url="attachment://x.png")
    sent = await channel.send(embed=embed, file=discord.File(io.BytesIO(PNG), filename="x.png"))
    await sent.edit(embed=embed, attachments=sent.attachments)  # kept: shown once
    assert fake.problems == []
    await sent.edit(embed=embed)  # neither sent nor kept
    assert len(fake.problems) == 1 and "attachment://x.png" in fake.problems[0]
    fake.problems.clear()
