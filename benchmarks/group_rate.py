"""Group messages per minute of a fast Telegram table, with the real budget (20 a minute).

The end-to-end tests check the outbox with a scaled-down budget so they stay short; this runs the
real Telegram adapter against the fake Bot API server from the tests for several real minutes, with
one quick player and computer seats that move every `--delay` seconds, and counts the calls that
sent, edited or deleted a message in the group in every 60-second window. Run by hand:

    .venv/bin/python benchmarks/group_rate.py [--minutes 2] [--delay 0.3]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.session.manager import Timing
from bot.telegram.telegram_adapter import TelegramBot
from storage import Storage
from tests.support.fake_telegram import FakeTelegram, User

GROUP = -1002000
PLAYER = User(201, "Олена", "uk")


async def run(minutes: float, delay: float) -> None:
    with tempfile.TemporaryDirectory() as folder, FakeTelegram() as server:
        server.start_bot(PLAYER)
        storage = await Storage.open(Path(folder) / "db.sqlite3")
        bot = TelegramBot("1:BENCH", storage, api_url=server.url, poll_timeout=1,
                          timing=Timing(computer_delay=delay, deal_pause=delay))
        await bot.start()
        moves = 0
        try:
            server.send_text(PLAYER, GROUP, "/newgame dragon")
            await server.wait_for(lambda: bool(server.messages(GROUP)))
            lobby = server.messages(GROUP)[-1]
            for code in ("!add", "!add", "!add", "!start"):
                data = next(d for d in lobby.button_data() if d and d.endswith(code))
                server.press(PLAYER, GROUP, lobby.message_id, data, check_button=False)
                await asyncio.sleep(0.2)
            end = time.monotonic() + minutes * 60
            pressed: set[str] = set()
            while time.monotonic() < end:
                hands = [m for m in server.messages(PLAYER.id) if m.has_photo]
                buttons = [d for d in hands[-1].button_data() if d and "!" not in d] \
                    if hands else []
                if buttons and buttons[0] not in pressed:
                    pressed.add(buttons[0])
                    server.press(PLAYER, PLAYER.id, hands[-1].message_id, buttons[0],
                                 check_button=False)
                    moves += 1
                await asyncio.sleep(0.05)
        finally:
            await bot.stop()
            await storage.close()
        calls = server.group_calls(GROUP)
        deals = len([c for c in calls if c.method == "sendPhoto"]) - 1
        print(f"{minutes:g} min, computer delay {delay:g} s: {moves} presses by the person, "
              f"about {deals} deal results posted")
        print(f"group calls: {len(calls)} "
              f"({', '.join(sorted({c.method for c in calls}))})")
        print(f"most in any 60 s window: {server.max_per_window(GROUP, 60.0)} (budget 20)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=2.0)
    parser.add_argument("--delay", type=float, default=0.3)
    args = parser.parse_args()
    asyncio.run(run(args.minutes, args.delay))


if __name__ == "__main__":
    main()
