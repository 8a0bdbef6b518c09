"""Session-layer load: many games at once, played by computer-driven people through button presses.

Run by hand (not a test): `.venv/bin/python benchmarks/sessions.py [--games N]
[--render thread|inline|none] [--compare solo|none|off]`.

Every game lives in its own chat and goes through the real `SessionManager` and one SQLite file
in a temp dir, with a recording adapter instead of a platform: `/newgame`, `/join`, the lobby's
add-a-computer and start buttons, then each person presses the first move on their latest hand
whenever it has one, while the computers move on the manager's own timers. It reports actions
per second (accepted presses and timer-driven moves over wall time), the latency from a press to
"screens ready" (every picture in the replies the manager delivered for that press, drawn to PNG
as an adapter would: in a worker thread like the Telegram adapter, inline on the event loop, or
not at all), peak memory and totals. The pictures of timer-driven replies (the computers' moves)
are drawn only with `--timer-pictures draw`, off any presser's clock; that doubles the drawing
and the run time. A real adapter draws less than either: its outbox coalesces a group's table
edits (one per few seconds), while here every picture delivered for a press is drawn.

Machines are shared and noisy (docs/architecture.md §9: benchmarks print ratios measured in one run,
they are not timed tests), so the comparison is made in the same process: the N concurrent games
against the same games played one at a time (`--compare solo`), or against the same run without
drawing (`--compare none`).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.present.screens import Actor, Button, Picture, Place, Reply, Screen
from bot.session.manager import SessionManager, Timing
from storage import Storage
from words.i18n import tr

TIMING = Timing(computer_delay=0.0, deal_pause=0.0, restore_grace=0.0)
LANG = "en"
PLATFORM = "bench"


@dataclass
class Person:
    actor: Actor
    seat: int
    hand: Screen | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class WatchedGame:
    """One game as the adapter sees it: the chat's table message and each person's hand."""

    place: Place
    people: dict[str, Person]
    session_id: int | None = None
    screen: Screen | None = None
    closed: bool = False
    moves: dict[int, int] = field(default_factory=dict)
    """Deal number → the highest state version shown on the board (one per move)."""
    to_move: int | None = None


@dataclass
class Tally:
    presses: int = 0
    accepted: int = 0
    starts: int = 0
    stale: int = 0
    refused: collections.Counter[str] = field(default_factory=collections.Counter)
    timer_moves: int = 0
    people_timed_out: int = 0
    deals: int = 0
    closed: int = 0
    replies: int = 0
    pictures: int = 0
    drawn: int = 0
    png_bytes: int = 0
    latencies: list[float] = field(default_factory=list)
    start_latencies: list[float] = field(default_factory=list)
    wall: float = 0.0
    unfinished: int = 0
    db_finished: int = 0
    db_deals: int = 0
    traced_peak: int | None = None


def pictures_of(replies: list[Reply]) -> list[Picture]:
    found: list[Picture] = []
    for reply in replies:
        screens = [reply.table, reply.answer, *(h.screen for h in reply.hands),
                   *(p.screen for p in reply.posts),
                   *(s for _, s in reply.private)]
        found += [s.picture for s in screens if s is not None and s.picture is not None]
    return found


async def draw(pictures: list[Picture], mode: str) -> int:
    """PNG bytes drawn: in worker threads (as the Telegram adapter does), inline, or none."""
    if mode == "none" or not pictures:
        return 0
    if mode == "inline":
        return sum(len(p.render()) for p in pictures)
    pngs = await asyncio.gather(*(asyncio.to_thread(p.render) for p in pictures))
    return sum(len(png) for png in pngs)


def first_move(screen: Screen | None) -> Button | None:
    """The first button on a hand that plays (or picks a tile), never "back"."""
    if screen is None:
        return None
    for row in screen.keyboard:
        for button in row:
            code = button.data.rsplit(":", 1)[-1] if button.data else ""
            if code and code not in ("!back", "!pick", "!hand"):
                return button
    return None


class Adapter:
    """The recording fake: `__call__` runs under the session's lock, so it only takes note and
    wakes whoever waits; the drawing happens in the presser (or a background task)."""

    def __init__(self, mode: str, tally: Tally, computers_from: int, timer_pictures: bool
                 ) -> None:
        self.mode = mode
        self.timer_pictures = timer_pictures
        self.tally = tally
        self.computers_from = computers_from
        self.tables: dict[str, WatchedGame] = {}
        self.waiting: dict[asyncio.Task[Any], list[Reply]] = {}
        self.background: set[asyncio.Task[None]] = set()

    async def __call__(self, reply: Reply) -> None:
        self.tally.replies += 1
        table = None if reply.place is None else self.tables.get(reply.place.chat)
        if table is None:
            return
        table.session_id = reply.session_id
        task = asyncio.current_task()
        box = None if task is None else self.waiting.get(task)
        if box is not None:
            box.append(reply)
        else:
            self._count_timer_moves(table, reply)
            pictures = pictures_of([reply])
            self.tally.pictures += len(pictures)
            if self.mode != "none" and self.timer_pictures and pictures:
                drawing = asyncio.ensure_future(self._draw_later(pictures))
                self.background.add(drawing)
                drawing.add_done_callback(self.background.discard)
        self._follow_board(table, reply)
        if reply.table is not None:
            table.screen = reply.table
        self.tally.deals += sum(1 for p in reply.posts if p.screen.picture is not None
                                and p.screen.picture.kind == "result")
        for update in reply.hands:
            person = table.people.get(update.user)
            if person is not None:
                person.hand = update.screen
                person.changed.set()
        if reply.closed:
            table.closed = True
            self.tally.closed += 1
            for person in table.people.values():
                person.changed.set()

    def _count_timer_moves(self, table: WatchedGame, reply: Reply) -> None:
        view = _board_view(reply)
        if view is None:
            return
        done = table.moves.get(view.match.deal, 0)
        if view.version > done:
            moved = view.version - done
            self.tally.timer_moves += moved
            if table.to_move is not None and table.to_move < self.computers_from:
                self.tally.people_timed_out += moved

    def _follow_board(self, table: WatchedGame, reply: Reply) -> None:
        view = _board_view(reply)
        if view is None:
            return
        deal = view.match.deal
        table.moves[deal] = max(table.moves.get(deal, 0), view.version)
        table.to_move = view.to_move

    async def _draw_later(self, pictures: list[Picture]) -> None:
        size = await draw(pictures, self.mode)
        self.tally.png_bytes += size
        self.tally.drawn += len(pictures)

    async def drained(self) -> None:
        while self.background:
            await asyncio.gather(*list(self.background), return_exceptions=True)


def _board_view(reply: Reply) -> Any:
    picture = None if reply.table is None else reply.table.picture
    if picture is None or picture.kind != "board":
        return None
    return picture.view


class Pass:
    """Some games played by one manager, `batch` of them at a time."""

    def __init__(self, storage: Storage, args: argparse.Namespace, mode: str, prefix: str
                 ) -> None:
        self.args = args
        self.mode = mode
        self.prefix = prefix
        self.tally = Tally()
        self.adapter = Adapter(mode, self.tally, args.people, args.timer_pictures == "draw")
        self.manager = SessionManager(storage, PLATFORM, TIMING)
        self.manager.deliver = self.adapter
        self.stale_text = tr(LANG, "err.stale")

    async def run(self, count: int, batch: int) -> Tally:
        try:
            for first in range(0, count, batch):
                await self._batch(range(first, min(first + batch, count)))
        finally:
            await self.manager.close()
        ids = [t.session_id for t in self.adapter.tables.values() if t.session_id is not None]
        if ids:
            db = self.manager.storage.db
            row = await db.read_one(
                "SELECT COUNT(*) AS n FROM sessions WHERE status = 'finished' "
                "AND id BETWEEN ? AND ?", (min(ids), max(ids)))
            self.tally.db_finished = 0 if row is None else int(row["n"])
            row = await db.read_one("SELECT COUNT(*) AS n FROM deals WHERE session_id "
                                    "BETWEEN ? AND ?", (min(ids), max(ids)))
            self.tally.db_deals = 0 if row is None else int(row["n"])
        return self.tally

    async def _batch(self, numbers: range) -> None:
        tables = [self._table(i) for i in numbers]
        await asyncio.gather(*(self._lobby(t) for t in tables))
        if self.args.tracemalloc:
            tracemalloc.reset_peak()
        started = time.perf_counter()
        work = [asyncio.ensure_future(self._start(t)) for t in tables]
        work += [asyncio.ensure_future(self._play(t, p)) for t in tables
                 for p in t.people.values()]
        try:
            await asyncio.wait_for(asyncio.gather(*work), self.args.timeout)
        except TimeoutError:
            self.tally.unfinished += sum(1 for t in tables if not t.closed)
        await self.manager.idle()
        await self.adapter.drained()
        self.tally.wall += time.perf_counter() - started
        if self.args.tracemalloc:
            peak = tracemalloc.get_traced_memory()[1]
            self.tally.traced_peak = max(self.tally.traced_peak or 0, peak)

    def _table(self, number: int) -> WatchedGame:
        place = Place(f"-{self.prefix}{number}", "", f"Bench {self.prefix}{number}")
        people = {}
        for seat in range(self.args.people):
            actor = Actor(f"{self.prefix}{number}.{seat}", f"P{seat + 1}", LANG)
            people[actor.platform_id] = Person(actor, seat)
        table = WatchedGame(place, people)
        self.adapter.tables[place.chat] = table
        return table

    async def _lobby(self, table: WatchedGame) -> None:
        m = self.manager
        creator, *others = [p.actor for p in table.people.values()]
        await m.new_game(table.place, creator, self.args.words)
        for actor in others:
            await m.join(table.place, actor)
        for _ in range(self.args.computers):
            await m.press(creator, self._lobby_button(table, "!add"))

    def _lobby_button(self, table: WatchedGame, code: str) -> str:
        if table.screen is not None:
            for row in table.screen.keyboard:
                for button in row:
                    if button.data.endswith(code):
                        return button.data
        text = "nothing" if table.screen is None else repr(table.screen.text)
        raise SystemExit(f"no {code} button in {table.place.chat}: the chat shows {text}")

    async def _start(self, table: WatchedGame) -> None:
        creator = next(iter(table.people.values())).actor
        if await self._press(creator, self._lobby_button(table, "!start"),
                             self.tally.start_latencies):
            self.tally.starts += 1

    async def _play(self, table: WatchedGame, person: Person) -> None:
        while not table.closed:
            await person.changed.wait()
            person.changed.clear()
            button = None if table.closed else first_move(person.hand)
            if button is not None:
                await self._press(person.actor, button.data, self.tally.latencies)

    async def _press(self, actor: Actor, data: str, latencies: list[float]) -> bool:
        """One press, timed until every picture the manager delivered for it is drawn."""
        task = asyncio.current_task()
        assert task is not None
        box: list[Reply] = []
        self.adapter.waiting[task] = box
        started = time.perf_counter()
        try:
            reply = await self.manager.press(actor, data)
        finally:
            del self.adapter.waiting[task]
        self.tally.presses += 1
        if not box:  # a refused press changes nothing and delivers nothing
            if reply.toast == self.stale_text:
                self.tally.stale += 1
            else:
                self.tally.refused[reply.toast or "(no answer)"] += 1
            return False
        pictures = pictures_of(box)
        size = await draw(pictures, self.mode)
        latencies.append(time.perf_counter() - started)
        self.tally.png_bytes += size
        self.tally.pictures += len(pictures)
        self.tally.drawn += len(pictures) if self.mode != "none" else 0
        self.tally.accepted += 1
        return True


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


def rss_mb() -> float:
    """The resident set now (Linux), for the baseline before the games."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return float("nan")
    return pages * resource.getpagesize() / 2**20


def rows(t: Tally) -> dict[str, float | None]:
    actions = t.accepted + t.timer_moves
    ms = [x * 1000 for x in t.latencies]
    return {
        "games closed": t.closed,
        "  finished (database)": t.db_finished,
        "deals settled": t.deals,
        "  in the database": t.db_deals,
        "presses": t.presses,
        "  accepted": t.accepted,
        "  stale": t.stale,
        "  refused": sum(t.refused.values()),
        "timer-driven moves": t.timer_moves,
        "  for a person (timeout)": t.people_timed_out,
        "pictures delivered": t.pictures,
        "  drawn": t.drawn,
        "PNG MB": t.png_bytes / 2**20,
        "wall s": t.wall,
        "actions/s": actions / t.wall if t.wall else None,
        "move press→screens p50 ms": percentile(ms, 0.50),
        "move press→screens p95 ms": percentile(ms, 0.95),
        "move press→screens max ms": max(ms, default=float("nan")),
        "start press→screens p50 ms": percentile([x * 1000 for x in t.start_latencies], 0.50),
        "tracemalloc peak MB": None if t.traced_peak is None else t.traced_peak / 2**20,
    }


RATIO_ROWS = ("wall s", "actions/s", "move press→screens p50 ms", "move press→screens p95 ms",
              "move press→screens max ms", "start press→screens p50 ms", "tracemalloc peak MB")


def cell(value: float | None) -> str:
    if value is None:
        return "—"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.1f}"


def table(main: Tally, main_name: str, ref: Tally | None, ref_name: str) -> None:
    ours = rows(main)
    theirs = rows(ref) if ref is not None else None
    print(f"{'':<28}{main_name:>16}" + (f"{ref_name:>16}{'ratio':>8}" if theirs else ""))
    for name, value in ours.items():
        if value is None and (theirs is None or theirs[name] is None):
            continue
        line = f"{name:<28}{cell(value):>16}"
        if theirs is not None:
            other = theirs[name]
            line += f"{cell(other):>16}"
            if name in RATIO_ROWS and value is not None and other:
                line += f"{value / other:>8.2f}"
        print(line)
    for tally, label in ((main, main_name), (ref, ref_name)):
        if tally is not None and tally.refused:
            print(f"refused presses ({label.strip()}): {dict(tally.refused)}")
        if tally is not None and tally.unfinished:
            print(f"WARNING: {tally.unfinished} games ({label.strip()}) did not finish within "
                  f"--timeout")


async def bench(args: argparse.Namespace, folder: Path) -> None:
    storage = await Storage.open(folder / "sessions.sqlite3")
    try:
        rss_before = rss_mb()
        if args.tracemalloc:
            tracemalloc.start()
        main = await Pass(storage, args, args.render, "g").run(args.games, args.games)
        peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        ref: Tally | None = None
        if args.compare == "solo":
            ref_name = f"{args.solo} × 1 game"
            ref = await Pass(storage, args, args.render, "s").run(args.solo, 1)
        elif args.compare == "none":
            ref_name = "render none"
            ref = await Pass(storage, args, "none", "n").run(args.games, args.games)
        else:
            ref_name = ""
        if args.tracemalloc:
            tracemalloc.stop()
    finally:
        await storage.close()
    size = sum(f.stat().st_size for f in folder.glob("sessions.sqlite3*"))
    print(f"{' '.join(args.words)}: {args.people} people + {args.computers} computers per game, "
          f"render {args.render}, timer pictures {args.timer_pictures}, "
          f"Python {sys.version.split()[0]}")
    table(main, f"{args.games} at once", ref, ref_name)
    print(f"{'RSS before / peak MB':<28}{rss_before:>10,.0f} / {peak_rss:,.0f}"
          f"   (peak after the {args.games}-game run; ru_maxrss)")
    print(f"{'SQLite file MB':<28}{size / 2**20:>16,.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games played at once")
    parser.add_argument("--game", default="dragon")
    parser.add_argument("--words", default="deals=1",
                        help="the rest of /newgame: preset, stake, option=value")
    parser.add_argument("--people", type=int, default=2)
    parser.add_argument("--computers", type=int, default=2)
    parser.add_argument("--render", choices=("thread", "inline", "none"), default="thread",
                        help="draw pictures in worker threads (like the Telegram adapter), "
                             "on the event loop, or not at all")
    parser.add_argument("--timer-pictures", choices=("skip", "draw"), default="skip",
                        help="also draw the pictures of timer-driven replies (computer moves)")
    parser.add_argument("--compare", choices=("solo", "none", "off"), default="solo",
                        help="the reference measured in the same run: games one at a time, "
                             "or the same games without drawing")
    parser.add_argument("--solo", type=int, default=10, help="games played one at a time")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds a batch of games may take")
    parser.add_argument("--tracemalloc", action="store_true",
                        help="trace allocations for the peak (slows Python code down)")
    args = parser.parse_args()
    if args.people < 1 or args.games < 1:
        parser.error("a game needs at least one person, and the run at least one game")
    args.words = [args.game, *args.words.split()]
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(bench(args, Path(folder)))


if __name__ == "__main__":
    main()
