"""One process's share of pressing the same games and accounts as another process at once
(`tests/storage/test_shared_writes.py`, docs/architecture.md §6: processes must add up).

Run as `python -m tests.support.same_games PLAN INDEX` from the project's folder, with PLAN a
file of the JSON the test wrote (the database's URL, the ids of its chat, games and people).
The process opens the storage, prints "ready", waits for a line on its input (so the two start
together), then does all of this at once and prints what it did as one line of JSON:

- saves each of the two games, over and over, from the version it last read, until the game
  reaches `target`: each save settles a deal, and brings chips of the two people the games
  share (in one order for one game and the other for the other, and the other way round in
  the other process) or lets the game's extra player go
  and bring chips back; a save the other process got in first is stale and tried again;
- settles the same standalone deals as the other process, people listed in its own order;
- shows the chat's new people their chips (their first appearance), in its own order;
- corrects one person's chips down by one, again and again, until they have none;
- cuts another's chips, then gives them the day's refill, for each day;
- changes two settings of the chat, each again and again, both at once (the other process
  changes two others);
- toggles whether a person hears of new lobbies.

An error ends the process with its traceback (the test then fails): nothing here may raise
anything but a stale save or a correction the balance cannot cover.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

from storage import SeatResult, Settlement, StaleSave, Storage, TableChips

SETTINGS = (("turn_timeout", "lobby_timeout"), ("max_stake", "min_deals"))
"""The settings each process changes: the other's must survive its writes."""


def deal_deltas(deal_no: int, base: tuple[int, int, int]) -> list[int]:
    """A zero-sum deal for a game's three regular players, different from deal to deal."""
    turn = deal_no % 3
    return list(base[turn:] + base[:turn])


async def save_game(store: Storage, plan: dict[str, Any], game: dict[str, Any], index: int
                    ) -> list[int]:
    """Save the game until it reaches the target version; the versions this process won."""
    chat, target = plan["chat"], plan["target"]
    regulars, extra, shared = game["regulars"], game["extra"], plan["shared"]
    won: list[int] = []
    for _ in range(target * 8):
        current = await store.sessions.get(game["id"])
        assert current is not None
        if current.version >= target:
            return won
        version = current.version + 1
        seated = list(current.seats)
        if extra in seated and version % 3 == 0:
            seated.remove(extra)  # the extra player leaves: their chips go back
            bring: list[tuple[int, int]] = []
        elif extra not in seated:
            seated.append(extra)
            bring = [(extra, 5)]
        else:
            backwards = (index + plan["games"].index(game)) % 2
            bring = [(u, 1) for u in (reversed(shared) if backwards else shared)]
        order = regulars if index == 0 else list(reversed(regulars))
        deltas = dict(zip(regulars, deal_deltas(version, (2, -1, -1)), strict=True))
        deal = Settlement(game["id"], version, chat, "dragon", "out", tuple(
            SeatResult(u, 0, deltas[u], deltas[u] > 0) for u in order))
        log = [*current.options.get("log", []), f"{index}:{version}"]
        try:
            await store.sessions.save(
                current.but(version=version, seats=seated, options={"log": log}),
                current.version, deal, TableChips(frozenset(seated), tuple(bring)))
        except StaleSave:
            continue
        won.append(version)
    raise AssertionError(f"game {game['id']} never reached version {target}")


async def settle_deals(store: Storage, plan: dict[str, Any], game: dict[str, Any], index: int
                       ) -> int:
    """The game's standalone deals, the same as the other process's; how many landed here."""
    regulars = game["regulars"]
    order = regulars if index == 0 else list(reversed(regulars))
    landed = 0
    for k in range(plan["deals"]):
        deltas = dict(zip(regulars, deal_deltas(k, (1, 1, -2)), strict=True))
        deal_no = plan["first_deal"] + k
        landed += await store.accounts.settle(Settlement(
            game["id"], deal_no, plan["chat"], "dragon", "out",
            tuple(SeatResult(u, 0, deltas[u], deltas[u] > 0) for u in order)))
    return landed


async def join(store: Storage, plan: dict[str, Any], index: int) -> None:
    for user in plan["newcomers"] if index == 0 else reversed(plan["newcomers"]):
        await store.accounts.balance(plan["chat"], user)


async def correct(store: Storage, plan: dict[str, Any], index: int) -> int:
    """One chip off, again and again; how many corrections landed."""
    landed = 0
    for k in range(plan["corrections"]):
        with contextlib.suppress(ValueError):  # (none left)
            landed += await store.accounts.adjust(plan["chat"], plan["corrected"], -1,
                                                  f"p{index}-{k}")
    return landed


async def refill(store: Storage, plan: dict[str, Any], index: int) -> None:
    chat, person = plan["chat"], plan["refilled"]
    for day in range(plan["days"]):
        with contextlib.suppress(ValueError):  # (fewer left than the cut: refilled anyway)
            await store.accounts.adjust(chat, person, -plan["cut"], f"cut-{index}-{day}")
        await store.accounts.wallet(chat, person, plan["floor"], f"2026-01-{day + 1:02}")


async def change_setting(store: Storage, plan: dict[str, Any], index: int, n: int) -> None:
    """Change one setting again and again: nobody else changes it, so it stays as written."""
    name = SETTINGS[index][n]
    for k in range(plan["changes"]):
        value = setting_value(index, n, k)
        now = await store.accounts.update_settings(plan["chat"], **{name: value})
        assert getattr(now, name) == value, (name, value, getattr(now, name))


def setting_value(index: int, n: int, k: int) -> int:
    return 1000 * (index + 1) + 100 * n + k


async def toggle(store: Storage, plan: dict[str, Any]) -> list[bool]:
    return [await store.accounts.toggle_notify(plan["chat"], plan["listener"])
            for _ in range(plan["toggles"])]


async def main(plan: dict[str, Any], index: int) -> dict[str, Any]:
    store = await Storage.open(plan["url"])
    try:
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        games = plan["games"]
        async with asyncio.TaskGroup() as group:  # (the first error stops the rest)
            won = [group.create_task(save_game(store, plan, g, index)) for g in games]
            settled = [group.create_task(settle_deals(store, plan, g, index)) for g in games]
            corrected = group.create_task(correct(store, plan, index))
            toggled = group.create_task(toggle(store, plan))
            group.create_task(join(store, plan, index))
            group.create_task(refill(store, plan, index))
            for n in range(len(SETTINGS[index])):
                group.create_task(change_setting(store, plan, index, n))
    finally:
        await store.close()
    return {"won": [t.result() for t in won], "settled": [t.result() for t in settled],
            "corrected": corrected.result(), "toggled": toggled.result()}


if __name__ == "__main__":
    result = asyncio.run(main(json.loads(Path(sys.argv[1]).read_text()), int(sys.argv[2])))
    print(json.dumps(result), flush=True)
