"""Random playouts of every game × preset × player count (DESIGN.md §9).

Each checks, after every move: tiles conserved, exact JSON round trip, action codes that decode
to the same move, illegal moves refused, no view that shows another seat's hidden tiles; and at
the end: zero-sum chips whose payments net to the deltas, termination, the same seed giving the
same game.

The hidden-tile check names no field, of a state or of a view (issue 27):

- **Where the tiles are** is read from the deal's states (`tile_places`). Every whole number a
  state holds has a path (field names and tuple indices, through dataclasses and tuples at any
  depth); its *column* is that path with every index into a sequence written `*`
  (`hands.*.*`, `history.*.plays.*.tiles.*`), so a column is a place whatever its length. An
  index into a *record* is kept instead: a tuple that is an item of a sequence and, there,
  holds numbers only and always as many (a line's `(tile, left, right, seat)`, a pile's
  `(tile, seat)`), so that its tile and its seat are two columns. (Seen in one state only, the
  hands of a fresh deal are all as long, so each hand's first tile is a column of its own: a
  finer cut of the same places, harmless.) Counts, seats, pips, scores and options are
  numbers too, and a tile id is a small number: what tells the tiles apart is conservation.
  The deck is every number a *collection* holds in any state of the deal: a column that never
  holds a number twice (scores do) nor one beyond the tile set, and holds two or more at once
  in some state (a turn, a leader, a setting never do); it must hold every tile the
  conservation check counts. The tile columns are the one set of columns whose numbers, in
  *every* state, are the deck once each (an exact cover, solved over all the deal's states
  together). A column that ever holds a number twice, or one outside the deck, is not one; a
  column that ever holds a number a tile column holds at the same time is not in the cover;
  and a seat or a count that equals some tile's id in one state cannot follow the tiles
  through a whole deal.
  The cover must be unique, or the check fails and names the columns it cannot tell apart:
  the places are found, never guessed, and a game that keeps tiles under a new name is
  checked without being named here.
- **What a seat may know** is not read from the views under test (a view that showed a hidden
  tile would then declare it seen): it is what the table has been shown, by the engine's
  contract. The events of every move are public (`Event`: "hidden tiles are never named
  here"), so every tile an event named is known to all; a seat also knows its own hand (the
  view's `hand`) and every tile it has moved itself (its actions' tiles: a face-down discard or
  follow of its own). The public view (seat None) may know only what the events named.
- **The check** deals every tile a seat may not know anew among the places such tiles hold in
  the state (`redealt`: each place keeps its one tile, so every hand, stock and face-down play
  keeps its size) and asks for the same view. A view that shows, counts or sums a tile it may
  not know, under any field name, then differs.
"""

import dataclasses
import random

import pytest

from games import GAMES
from games.domino import Domino, DominoState, DominoView
from games.engine import MAX_CODE_BYTES, Action, IllegalAction, rng
from games.settlement import deltas_of
from games.tiles import TileSet


def player_counts(rules):
    """Every player count a game allows, or 2, 5, 10 and 20 for a game of up to twenty."""
    counts = range(rules.min_players, rules.max_players + 1)
    if len(counts) <= 4:
        return list(counts)
    return sorted({rules.min_players, 5, 10, rules.max_players})


CASES = [
    (rules.id, preset, players)
    for rules in GAMES.values()
    for preset in rules.presets
    for players in player_counts(rules)
]
SEEDS = 6
MAX_STEPS = 500


def tiles_of(state):
    """Every tile id the state holds, in any place."""
    found = [t for hand in state.hands for t in hand]
    found += [p[0] for p in getattr(state, "line", ())]
    found += [p[0] for p in getattr(state, "pile", ())]
    found += [t for seat in getattr(state, "melds", ()) for pair in seat for t in pair]
    plays = list(getattr(state, "trick", ()))
    plays += [p for trick in getattr(state, "history", ()) for p in trick.plays]
    found += [t for play in plays for t in play.tiles]
    for name in ("discards",):
        found += [t for seat in getattr(state, name, ()) for t in seat]
    for name in ("unused", "stock"):
        found += list(getattr(state, name, ()))
    return found


def leaves(value, path=()):
    """(path, number) for every whole number `value` holds, through dataclass fields and tuple
    items at any depth; a TileSet and every other kind of value are not entered."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield path, value
    elif isinstance(value, tuple):
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))
    elif dataclasses.is_dataclass(value) and not isinstance(value, (type, TileSet)):
        for f in dataclasses.fields(value):
            yield from leaves(getattr(value, f.name), (*path, f.name))


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

    def visit(value, path):
        if isinstance(value, tuple):
            numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            item = bool(path) and isinstance(path[-1], int)
            shapes.setdefault(starred(path), set()).add(
                len(value) if numbers and item else None)
            for index, inner in enumerate(value):
                visit(inner, (*path, index))
        elif dataclasses.is_dataclass(value) and not isinstance(value, (type, TileSet)):
            for f in dataclasses.fields(value):
                visit(getattr(value, f.name), (*path, f.name))

    for state in states:
        visit(state, ())
    return frozenset(key for key, lengths in shapes.items()
                     if len(lengths) == 1 and None not in lengths)


@dataclasses.dataclass(frozen=True)
class Places:
    """Where a deal keeps its tiles (`tile_places`): these columns, indices into `records`
    kept."""

    columns: frozenset
    records: frozenset
    deck: frozenset

    def tiles(self, state):
        """(path, tile) for every tile `state` holds, entering only what leads to one."""
        columns, records = self.columns, self.records
        prefixes = {col[:n] for col in columns for n in range(len(col) + 1)}
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
    for n, state in enumerate(states):
        for path, number in leaves(state):
            held_in[n].setdefault(column(path, records), []).append(number)
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


def redealt(state, placed, known, seed):
    """`state` with every tile not in `known` dealt anew among the places such tiles hold
    (`placed`: each tile's path in `state`, `Places.tiles`), each place keeping one tile."""
    paths = [path for path, tile in placed if tile not in known]
    pool = [tile for _, tile in placed if tile not in known]
    random.Random(seed).shuffle(pool)
    trie: dict = {}
    for path, tile in zip(paths, pool, strict=True):
        node = trie
        for step in path[:-1]:
            node = node.setdefault(step, {})
        node[path[-1]] = tile
    return replaced(state, trie)


def replaced(value, trie):
    """`value` rebuilt as `trie` (paths' steps, nested, each ending in a number) says: a new
    tuple for a tuple, `dataclasses.replace` for a dataclass."""
    if not isinstance(trie, dict):
        return trie
    if isinstance(value, tuple):
        items = list(value)
        for index, inner in trie.items():
            items[index] = replaced(items[index], inner)
        return tuple(items)
    return dataclasses.replace(value, **{
        name: replaced(getattr(value, name), inner) for name, inner in trie.items()})


def known_to(view, public, moved):
    """The tiles `view`'s seat may know: what the events named (`public`), its own hand and
    the tiles it moved itself (`moved`, by seat); the public view knows only `public`."""
    if view.seat is None:
        return public
    return public | moved[view.seat] | set(view.hand)


def reshuffle_hidden(rules, state, seat, places, public, moved, seed):
    """The same table as `seat` may know it, with every other tile dealt differently."""
    known = known_to(rules.view(state, seat), public, moved)
    return redealt(state, places.tiles(state), known, seed)


def forged_actions(rules, state, seat):
    """Moves a button could carry that are mostly not legal now."""
    hand = state.hands[seat]
    others = [t for t in tiles_of(state) if t not in hand][:4]
    for verb in sorted(rules.verbs):
        for tile in list(hand[:3]) + others:
            for arg in (None, 0, 1, 3, 6):
                yield Action(verb, (tile,), arg)
        yield Action(verb, (), None)


def playout(rules, preset, players, seed, check=True):
    options = rules.options(preset=preset)
    match = rules.start_match(options, players, seed)
    state = rules.new_deal(options, players, seed, match)
    deck = sorted(tiles_of(state))
    chooser = rng(seed, "test")
    steps = 0
    seen = []  # each state checked, with what the events had named and each seat had moved
    public, moved = frozenset(), (frozenset(),) * players
    while (seat := rules.to_move(state)) is not None:
        legal = rules.legal_actions(state)
        assert legal, "a seat to move always has a move"
        if check:
            assert sorted(tiles_of(state)) == deck
            assert rules.loads(rules.dumps(state)) == state
            view = rules.view(state, seat)
            assert view.legal == legal
            for action in legal:
                code = rules.encode(state, action)
                assert len(code.encode()) <= MAX_CODE_BYTES and ":" not in code
                assert rules.decode(state, code) == action
            seen.append((state, public, moved))
            if steps % 5 == 0:
                for action in forged_actions(rules, state, seat):
                    if action in legal:
                        continue
                    with pytest.raises(IllegalAction):
                        rules.apply(state, action)
        action = legal[chooser.randrange(len(legal))]
        state, events = rules.apply(state, action)
        assert all(e.kind for e in events)
        public |= {t for event in events for t in event.tiles}
        moved = (*moved[:seat], moved[seat] | set(action.tiles), *moved[seat + 1:])
        steps += 1
        assert steps < MAX_STEPS, "the deal did not end"
    result = rules.outcome(state)
    assert result is not None and sum(result.deltas) == 0
    assert deltas_of(players, result.payments) == result.deltas
    assert len(result.points) == players
    assert sorted(tiles_of(state)) == deck
    assert rules.loads(rules.dumps(state)) == state
    assert rules.next_match(state).deal == match.deal + 1
    if check:
        # The tiles' places are read from the whole deal, so the views are checked once it ends.
        size = rules.view(state, None).tiles.size
        places = tile_places([*(before for before, _, _ in seen), state], size)
        assert places.deck >= set(deck), "a tile the conservation check counts is not found"
        for steps, (before, public, moved) in enumerate(seen):
            placed = places.tiles(before)
            for other in [None, *range(players)]:
                view = rules.view(before, other)
                twin = redealt(before, placed, known_to(view, public, moved), seed + str(steps))
                assert rules.view(twin, other) == view, f"view of seat {other} shows hidden tiles"
    return state


@pytest.mark.parametrize(("game", "preset", "players"), CASES)
def test_random_playouts(game, preset, players):
    rules = GAMES[game]
    for n in range(SEEDS):
        playout(rules, preset, players, f"{game}/{preset}/{n}")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_same_seed_same_game(game):
    rules = GAMES[game]
    preset = next(iter(rules.presets))
    for n in range(3):
        a = playout(rules, preset, rules.max_players, f"det{n}", check=False)
        b = playout(rules, preset, rules.max_players, f"det{n}", check=False)
        assert a == b
    c = playout(rules, preset, rules.max_players, "other", check=False)
    assert c != a


def fresh(rules, players, seed):
    """A fresh deal, the places of its tiles read from it, and what nobody has seen yet."""
    state = rules.new_deal(rules.options(), players, seed)
    size = rules.view(state, None).tiles.size
    return state, tile_places([state], size), frozenset(), (frozenset(),) * players


def test_reshuffling_hidden_tiles_would_reveal_a_leak():
    rules = GAMES["dragon"]
    state, places, public, moved = fresh(rules, 4, "leak")
    assert {col[0] for col in places.columns} == {"hands"}  # one state: hands look alike
    twin = reshuffle_hidden(rules, state, 0, places, public, moved, "x")
    assert twin.hands[0] == state.hands[0] and twin.hands[1:] != state.hands[1:]
    assert rules.view(twin, 0) == rules.view(state, 0)
    assert rules.view(twin, 1) != rules.view(state, 1)


@dataclasses.dataclass(frozen=True, slots=True)
class SpareState(DominoState):
    spare: tuple[int, ...] = ()
    """Tiles set aside face down, out of the deal, under a name the checks never knew."""


class SetAside(Domino):
    """The draw game with the stock's last two tiles set aside face down (test only)."""

    def new_deal(self, options, players, seed, match=None):
        state = super().new_deal(options, players, seed, match)
        fields = {f.name: getattr(state, f.name) for f in dataclasses.fields(state)}
        fields["stock"] = state.stock[:-2]
        return SpareState(**fields, spare=state.stock[-2:])


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class PeekingView(DominoView):
    glance: tuple[int, ...]
    """The set-aside tiles, under a name no check knows either."""


class Peeking(SetAside):
    """`SetAside` whose views show the set-aside tiles (test only)."""

    def view(self, state, seat, legal=None):
        view = super().view(state, seat, legal)
        fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
        return PeekingView(**fields, glance=state.spare)


def test_a_hidden_place_under_any_name_is_dealt_anew():
    """The old check dealt anew only `hands`, `discards`, `stock` and `unused` by name: a view
    telling about tiles kept elsewhere passed it. Found by conservation, the set-aside tiles
    are dealt anew too, and the leak shows."""
    honest, leaky = SetAside(), Peeking()
    state, places, public, moved = fresh(honest, 2, "leak")
    assert ("spare", "*") in places.columns
    by_names = {t for name in ("hands", "stock") for _, t in leaves(getattr(state, name))}
    assert not by_names & set(state.spare), "no field the old check named holds them"
    for seat in (None, 0, 1):
        twins = [reshuffle_hidden(honest, state, seat, places, public, moved, f"x{n}")
                 for n in range(8)]
        assert all(honest.view(twin, seat) == honest.view(state, seat) for twin in twins)
        assert any(leaky.view(twin, seat) != leaky.view(state, seat) for twin in twins), (
            f"the view of seat {seat} tells of the set-aside tiles and is not caught")
