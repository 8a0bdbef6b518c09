"""Where a deal keeps its tiles and what a seat may know of them, read without naming a field:
tables whose hidden tiles are dealt anew, for tests that a view, a picture or a computer
player's choice tells nothing of tiles the seat cannot see.

How the places are found (conservation over a deal's states) and what a seat may know (what the
events named, its own hand, the tiles it moved, as long as they stay in its sight) is told in
`tests/games/test_playouts.py`, whose leak check this is. `Deal` plays a deal to its end with
any chooser and keeps, with every position, what the table had been shown there, so a test can
ask for a twin of any position.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import random
from collections.abc import Callable
from typing import Any

from games.engine import Action, Rules
from games.tiles import TileSet

_FIELDS: dict[type, tuple[str, ...] | None] = {}


def entered(kind):
    """The names of the fields a value of type `kind` is entered by: a dataclass's, but a
    TileSet's none (None: not entered)."""
    try:
        return _FIELDS[kind]
    except KeyError:
        names = None
        if dataclasses.is_dataclass(kind) and not issubclass(kind, TileSet):
            names = tuple(f.name for f in dataclasses.fields(kind))
        _FIELDS[kind] = names
        return names


def leaves(value, path=()):
    """(path, number) for every whole number `value` holds, through dataclass fields and tuple
    items at any depth; a TileSet and every other kind of value are not entered."""
    found = []

    def visit(value, path):
        kind = type(value)
        if kind is int or (isinstance(value, int) and kind is not bool):
            found.append((path, value))
        elif isinstance(value, tuple):
            for index, item in enumerate(value):
                visit(item, (*path, index))
        elif (names := entered(kind)) is not None:
            for name in names:
                visit(getattr(value, name), (*path, name))

    visit(value, path)
    return found


def starred(path):
    """A path with every tuple index written as `*`."""
    return tuple("*" if isinstance(step, int) else step for step in path)


def column(path, records):
    """The column a path leads to: its indices written as `*`, but an index into a record (a
    tuple whose starred path is in `records`) kept."""
    return tuple(step if not isinstance(step, int)
                 else step if starred(path[:n]) in records else "*"
                 for n, step in enumerate(path))


def records_in(states):
    """The tuples that are records, not sequences: items of a sequence that, at their place in
    every state, hold numbers only and always as many."""
    shapes: dict[tuple, set] = {}

    def visit(value, star, item):
        """`star`: the starred path to `value`; `item`: whether it is an item of a tuple."""
        if isinstance(value, tuple):
            numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            shapes.setdefault(star, set()).add(len(value) if numbers and item else None)
            inner_star = (*star, "*")
            for inner in value:
                visit(inner, inner_star, True)
        elif (names := entered(type(value))) is not None:
            for name in names:
                visit(getattr(value, name), (*star, name), False)

    for state in states:
        visit(state, (), False)
    return frozenset(key for key, lengths in shapes.items()
                     if len(lengths) == 1 and None not in lengths)


@dataclasses.dataclass(frozen=True)
class Places:
    """Where a deal keeps its tiles (`tile_places`): these columns, indices into `records`
    kept."""

    columns: frozenset
    records: frozenset
    deck: frozenset
    _containers: dict = dataclasses.field(default_factory=dict, compare=False, repr=False)

    @functools.cached_property
    def prefixes(self):
        return frozenset(col[:n] for col in self.columns for n in range(len(col) + 1))

    def container(self, path):
        """The container of the tile at `path` (`Places.tiles`): the path up to the index into
        the sequence that holds it (`("hands", 2)`, `("stock",)`, `("pile",)`), which a tile
        keeps while the tiles around it come and go."""
        containers = self._containers
        held = containers.get(path)
        if held is None:
            steps = column(path, self.records)
            stars = [n for n, step in enumerate(steps) if step == "*"]
            held = containers[path] = path[:stars[-1]] if stars else path
        return held

    def tiles(self, state):
        """(path, tile) for every tile `state` holds, entering only what leads to one."""
        columns, records, prefixes = self.columns, self.records, self.prefixes
        found = []

        def walk(value, path, star, key):
            if isinstance(value, int) and not isinstance(value, bool):
                if key in columns:
                    found.append((path, value))
            elif isinstance(value, tuple):
                record = star in records
                star = (*star, "*")
                for index, item in enumerate(value):
                    inner = (*key, index if record else "*")
                    if inner in prefixes:
                        walk(item, (*path, index), star, inner)
            elif dataclasses.is_dataclass(value) and not isinstance(value, (type, TileSet)):
                for f in dataclasses.fields(value):
                    inner = (*key, f.name)
                    if inner in prefixes:
                        walk(getattr(value, f.name), (*path, f.name), (*star, f.name), inner)

        walk(state, (), (), ())
        return found


def tile_places(states, size):
    """The columns that hold the tiles, read from a deal's states alone: the one set of columns
    whose numbers, in every one of `states`, are the deck once each (see the docstring). The
    deck is every number a collection holds in any state: a column that never holds a number
    twice nor one of `size` or more, and holds two or more at once in some state."""
    records = records_in(states)
    held_in = [{} for _ in states]
    columns: dict[tuple, tuple] = {}  # each path's column, worked out once
    for n, state in enumerate(states):
        for path, number in leaves(state):
            col = columns.get(path)
            if col is None:
                col = columns[path] = column(path, records)
            held_in[n].setdefault(col, []).append(number)
    unfit = {col for held in held_in for col, numbers in held.items()
             if len(set(numbers)) < len(numbers) or max(numbers) >= size}
    collections = {col for held in held_in for col, numbers in held.items()
                   if col not in unfit and len(numbers) > 1}
    deck = {t for held in held_in for col in collections for t in held.get(col, ())}
    order = {tile: n for n, tile in enumerate(sorted(deck))}
    masks: dict[tuple, list[int]] = {}
    ruled_out = set()
    for n, held in enumerate(held_in):
        for col, numbers in held.items():
            if len(set(numbers)) < len(numbers) or not deck.issuperset(numbers):
                ruled_out.add(col)
            elif col not in ruled_out:
                masks.setdefault(col, [0] * len(states))[n] = sum(1 << order[t] for t in numbers)
    names = [col for col, mask in masks.items() if col not in ruled_out and any(mask)]
    full = (1 << len(order)) - 1
    found: list[frozenset] = []

    def cover(chosen, covered):
        if len(found) > 1:
            return
        n = next((n for n, mask in enumerate(covered) if mask != full), None)
        if n is None:
            found.append(frozenset(chosen))
            return
        lowest = ~covered[n] & (covered[n] + 1)
        for col in names:
            mask = masks[col]
            if mask[n] & lowest and not any(map(int.__and__, mask, covered)):
                cover([*chosen, col], list(map(int.__or__, mask, covered)))

    cover([], [0] * len(states))
    assert found, "no set of places holds every tile once in every state"
    assert len(found) == 1, f"the tiles may be in {sorted(found[0])} or in {sorted(found[1])}"
    return Places(found[0], records, frozenset(deck))


def redealt(state, placed, known, seed, plan=None, lost=None):
    """`state` with every tile not in `known` dealt anew among the places such tiles hold
    (`placed`: each tile's path in `state`, `Places.tiles`; `plan`: `plan_of(state, placed)`,
    given when one state is dealt anew many times), each place keeping one tile. The tiles of
    `lost` (tile: the move the seat lost sight of it at, `out_of_sight`) that are not known
    are dealt anew among the places they hold, those lost at one move among themselves: the
    seat saw them, and knows that they are there, not where each one is."""
    if plan is None:
        plan = plan_of(state, placed)
    tiles = list(plan.tiles)
    unknown = [n for n, tile in enumerate(tiles) if tile not in known]
    # In an order drawn at random: sorted by a random number each, drawn in the places' order
    # (`random()` is a call into C, where `shuffle` draws each swap in Python, and a table of
    # twenty seats is dealt anew thousands of times).
    draw = random.Random(seed).random
    keys = [draw() for _ in unknown]
    groups: dict = {}
    if lost:
        for n, place in enumerate(unknown):
            groups.setdefault(lost.get(tiles[place]), []).append(n)
    for members in groups.values() if len(groups) > 1 else [range(len(unknown))]:
        order = sorted(members, key=keys.__getitem__)
        for n, k in zip(members, order, strict=True):
            tiles[unknown[n]] = plan.tiles[unknown[k]]
    return plan.build(tiles)


@dataclasses.dataclass(frozen=True)
class Plan:
    """How to rebuild one state with other tiles in its places: `tiles`, the tiles `placed`
    names in its order, and `build`, the state with the list given put in their places."""

    tiles: tuple
    build: Callable[[list], Any]


def plan_of(state, placed):
    """The `Plan` of `state` for `placed` (`Places.tiles`), worked out once: rebuilding a
    state a seat at a time walked every path anew."""
    trie: dict = {}
    for n, (path, _) in enumerate(placed):
        node = trie
        for step in path[:-1]:
            node = node.setdefault(step, {})
        node[path[-1]] = n
    return Plan(tuple(tile for _, tile in placed), _builder(state, trie))


def _taker(indices):
    """A function of the tile list giving the tuple of the tiles at `indices`."""
    if len(indices) == 1:
        (only,) = indices
        return lambda tiles: (tiles[only],)
    return operator.itemgetter(*indices)


def _builder(value, trie):
    """A function of the tile list giving `value` rebuilt as `trie` says (paths' steps,
    nested, each ending in the index into the list of the number to put there): a new tuple
    for a tuple, `dataclasses.replace` for a dataclass."""
    if isinstance(value, tuple):
        every_item = list(trie) == list(range(len(value)))
        if every_item and all(type(inner) is int for inner in trie.values()):
            return _taker(list(trie.values()))  # a hand, a stock: every item a tile
        if every_item and _records(value, trie):
            # A pile of (tile, seat) records: the records rebuilt column by column.
            width, shape = len(value[0]), trie[0]
            columns = [_taker([trie[n][j] for n in range(len(value))]) if j in shape
                       else tuple(record[j] for record in value) for j in range(width)]

            def records(tiles):
                return tuple(zip(*[column(tiles) if callable(column) else column
                                   for column in columns], strict=True))
            return records
        parts = [(index, inner if type(inner) is int else _builder(value[index], inner))
                 for index, inner in trie.items()]

        def sequence(tiles):
            items = list(value)
            for index, part in parts:
                items[index] = tiles[part] if type(part) is int else part(tiles)
            return tuple(items)
        return sequence
    fields = [(name, inner if type(inner) is int else _builder(getattr(value, name), inner))
              for name, inner in trie.items()]

    def record(tiles):
        return dataclasses.replace(value, **{
            name: tiles[part] if type(part) is int else part(tiles) for name, part in fields})
    return record


def _records(value, trie):
    """Whether `value`'s items are tuples of one length whose tiles stand at the same
    indices (so `zip` may rebuild them)."""
    first = trie[0]
    if not isinstance(first, dict) or not value or not isinstance(value[0], tuple):
        return False
    width, keys = len(value[0]), list(first)
    return all(type(item) is tuple and len(item) == width
               and isinstance(inner, dict) and list(inner) == keys
               and all(type(i) is int for i in inner.values())
               for item, inner in zip(value, (trie[n] for n in range(len(value))), strict=True))


def known_to(view, public, moved, lost=None):
    """The tiles `view`'s seat may know: what the events named (`public`), its own hand and
    the tiles it moved itself (`moved`, by seat); the public view knows only `public`. Of
    those, the ones it has lost sight of since (`lost`: that seat's, `out_of_sight`) are not
    known, but those in its hand."""
    if view.seat is None:
        return public - lost.keys() if lost else public
    if lost:
        return (public | moved[view.seat]) - lost.keys() | set(view.hand)
    return public | moved[view.seat] | set(view.hand)


def out_of_sight(places, positions, placed=None):
    """For each of a deal's `positions` (`Position`, in order), by viewer (None: the public, or
    a seat), the tiles it has lost sight of: {tile: the move it lost sight of it at}.

    A viewer knows a tile's place while it stays in its container (`Places.container`) or moves
    named by the move's events, or moved by the viewer itself. A tile it knew that a move
    takes, unnamed, into a container that holds in some position a tile it does not know (a
    stock, a hand: not a finished trick of face-up tiles) is lost to it until an event names
    it again: the discards shuffled into a new stock, a tile drawn from it. (Tiles shuffled
    where they lie, or into a container that only ever holds tiles everyone saw, stay in
    sight: no game does either.) `placed`, when given, is `Places.tiles` of each position."""
    if placed is None:
        placed = [places.tiles(p.state) for p in positions]
    paths = [{tile: path for path, tile in tiles} for tiles in placed]
    container = places.container
    hidden: dict[tuple, bool] = {}
    held: dict[tuple, list] = {}  # each container: (position, a tile it holds there), when asked

    def hides(box, viewer):
        """Whether `box` ever holds a tile `viewer` does not know there."""
        if not held:
            for p, where in zip(positions, paths, strict=True):
                for t, path in where.items():
                    held.setdefault(container(path), []).append((p, t))
        if (box, viewer) not in hidden:
            hidden[box, viewer] = any(
                t not in p.public and (viewer is None or t not in p.moved[viewer])
                for p, t in held[box])
        return hidden[box, viewer]

    lost: dict = {viewer: {} for viewer in [None, *range(len(positions[0].moved))]}
    found = [lost]
    ever: set = set()  # every tile some viewer has known (named, or moved by a seat)
    for n, position in enumerate(positions[:-1]):
        before, after = paths[n], paths[n + 1]
        named, acted = position.named, set(position.action.tiles)
        gone = [t for t, path in after.items()
                if t in ever and before[t] != path and t not in named
                and container(before[t]) != container(path)]
        ever |= named | acted
        if gone or any(not (named | acted).isdisjoint(seen) for seen in lost.values()):
            lost = dict(lost)
            for viewer, seen in lost.items():
                own = acted if viewer == position.seat else set()
                seen = {t: k for t, k in seen.items() if t not in named and t not in own}
                for t in gone:
                    if t not in own and (t in seen or t in position.public or (
                            viewer is not None and t in position.moved[viewer])) and hides(
                            container(after[t]), viewer):
                        seen.setdefault(t, n)
                lost[viewer] = seen
        found.append(lost)
    return found


@dataclasses.dataclass(frozen=True)
class Position:
    """A position of a deal, with the tiles the events had named up to it (`public`), seat by
    seat the tiles each had moved itself (`moved`), and the move played from it (None at the
    end) by `seat`, whose events named the tiles `named`."""

    state: Any
    public: frozenset
    moved: tuple
    action: Action | None = None
    seat: int | None = None
    named: frozenset = frozenset()


class Deal:
    """A deal played from `state` to its end by `choose(state, seat)`: every position in order
    (the last one finished), and where the deal keeps its tiles, read from all of them."""

    def __init__(self, rules: Rules, state: Any, choose: Callable[[Any, int], Action]) -> None:
        self.rules = rules
        public: frozenset = frozenset()
        moved: tuple = (frozenset(),) * rules.view(state, None).players
        self.positions: list[Position] = []
        while (seat := rules.to_move(state)) is not None:
            action = choose(state, seat)
            before = state
            state, events = rules.apply(state, action)
            named = frozenset(t for event in events for t in event.tiles)
            self.positions.append(Position(before, public, moved, action, seat, named))
            public |= named
            moved = (*moved[:seat], moved[seat] | set(action.tiles), *moved[seat + 1:])
        self.positions.append(Position(state, public, moved))

    @functools.cached_property
    def places(self) -> Places:
        """Where the deal keeps its tiles, read from all its positions (when first asked)."""
        size = self.rules.view(self.positions[-1].state, None).tiles.size
        return tile_places([p.state for p in self.positions], size)

    @functools.cached_property
    def lost(self) -> list[dict]:
        """Position by position, by viewer, the tiles it has lost sight of (`out_of_sight`)."""
        return out_of_sight(self.places, self.positions)

    def twin(self, position: Position, seat: int | None, seed: str, hand: bool = True) -> Any:
        """`position`'s table with every tile `seat` may not know (None: the public) dealt anew
        among the places such tiles hold; with `hand=False`, the seat's own hand too, among the
        places of the tiles nobody saw (what it moved itself stays where it is)."""
        view = self.rules.view(position.state, seat)
        at = next(n for n, p in enumerate(self.positions) if p is position)
        lost = self.lost[at][seat]
        known = known_to(view, position.public, position.moved, lost)
        if not hand:
            known = known - set(view.hand)
            lost = {t: k for t, k in lost.items() if t not in view.hand}
        return redealt(position.state, self.places.tiles(position.state), known, seed, lost=lost)
