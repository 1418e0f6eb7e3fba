"""Marco Polo II: In the Service of the Khan, with the caravan expansion: the rules core, as the seed
``marco-polo-2.ja.txt`` specifies it, with the content packs in ``content``.

Modules: ``content`` (pack format, validation, the public and the INVENTED synthetic pack),
``events``, ``state`` (state, options, setup), ``codes``, ``engine`` (how events take effect: one
code path, strict for ``decide``, trusting for ``evolve``), ``decide`` (validation, the fold),
``moves`` (legal moves), ``scoring``, ``views``, ``notation``.

Chance: the table's layout (one shuffle of every component), each round's offer tiles and
action-area city cards, the round roll (with the black dice in the black-dice variant), a rerolled
or black die, a contract refilling a space. ``chance`` names what is awaited. Only a complete pack
can lay out a digital game; with the public pack every component comes from the table, described
in the events that bring it (``described`` names them for replay frames).
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from events.base import Event
from events.messages import Phrase
from events.errors import InvalidOptions
from rules.base import Chance, GrowingPacks, Outcome
from rules.marco_polo_2 import codes
from rules.marco_polo_2.codes import CODES
from rules.marco_polo_2.content import BUILTIN, CONTENT_REF, PACK_HASH, PACK_ID, Pack, PackError, load, register
from rules.marco_polo_2.content import library as _library
from rules.marco_polo_2.content.forms import pack_forms as _pack_forms
from rules.marco_polo_2.content.schema import SECTIONS
from rules.marco_polo_2.decide import characters_available
from rules.marco_polo_2.decide import decide as _decide
from rules.marco_polo_2.decide import evolve as _evolve
from rules.marco_polo_2.events import *  # noqa: F403
from rules.marco_polo_2.events import (
    EVENT_TYPES, ContractRevealed, DiceRolled, DieRolled, RoundRevealed, SetupDealt,
)
from rules.marco_polo_2.moves import legal_moves as _legal_moves
from rules.marco_polo_2.notation import format_move as _format_move
from rules.marco_polo_2.notation import parse_move as _parse_move
from rules.marco_polo_2.scoring import outcome as _outcome
from rules.marco_polo_2.scoring import score as _score
from rules.marco_polo_2.scoring import score_after as _score_after
from rules.marco_polo_2.sentences import describe as _describe
from rules.marco_polo_2.sentences import status_words as _status_words
from rules.marco_polo_2.sentences import public_move as _public_move
from rules.marco_polo_2.state import OVER, PLAY, REFILL, ROLL, ROLL_DIE, ROUND, SETUP, MP2State, Options, PlayerState, pack_of
from rules.marco_polo_2.state import setup as _setup
from rules.marco_polo_2.views import full_view as _full_view
from rules.marco_polo_2.views import status as _status
from rules.marco_polo_2.views import to_move as _to_move
from rules.marco_polo_2.views import view as _view


def setup_items(state: MP2State) -> tuple[str, ...]:
    pack = pack_of(state)
    c = pack.components
    return (
        characters_available(state) + tuple(c["contract"]) + tuple(c["city_card"]) + tuple(c["city_bonus"])
        + tuple(c["outpost"]) + tuple(c["goal"]) + (tuple(c["route_tile"]) if state.options.caravans else ())
    )


def setup_from_shuffle(state: MP2State, order: tuple[str, ...]) -> SetupDealt:
    """A digital game's layout from one shuffle of every component: each kind in shuffled order."""
    pack = pack_of(state)
    n = state.n
    c = pack.components
    pick = {k: [x for x in order if x in c[k]] for k in ("contract", "city_card", "city_bonus", "outpost", "goal", "route_tile")}
    chars = [x for x in order if x in characters_available(state)]
    starting = [k for k in pick["contract"] if c["contract"][k].get("starting")]
    normal = [k for k in pick["contract"] if not c["contract"][k].get("starting")]

    def lay(slot: str, ids: list[str], per: int = 1) -> tuple[tuple[str, str], ...]:
        cities = [city for city in pack.cities_with(slot) for _ in range(per)]
        return tuple(zip(cities, ids))

    mode = state.options.characters
    return SetupDealt(
        characters=tuple(chars[:n]) if mode == "chosen" else (),
        offered=tuple(chars[: n + 1]) if mode == "offer" else tuple(chars) if mode == "all" else (),
        starting_contracts=tuple(starting[:n]),
        goals=tuple(tuple(pick["goal"][3 * s : 3 * s + 3]) for s in range(n)),
        bonuses=lay("bonus", pick["city_bonus"]),
        outposts=lay("outpost", pick["outpost"]),
        cards=lay("card", pick["city_card"]),
        contracts=lay("contracts", normal, 2),
        route_tiles=tuple(pick["route_tile"]) if state.options.caravans else (),
    )


def round_from_shuffle(state: MP2State, order: tuple[str, ...]) -> RoundRevealed:
    pack = pack_of(state)
    rnd = state.round + 1
    fresh = [x for x in order if x in pack.components["offer"] and x not in state.used_offers]
    by_book = {b: [x for x in fresh if pack.components["offer"][x]["book"] == b] for b in (1, 2, 3)}
    offers = state.upcoming or tuple(by_book[b].pop(0) for b in (1, 2, 3))
    upcoming = () if rnd >= pack.rounds else tuple(by_book[b][0] for b in (1, 2, 3))
    cards = [x for x in order if x in pack.components["city_card"] and x not in state.used_cards]
    return RoundRevealed(round=rnd, offers=tuple(offers), upcoming=upcoming, area_cards=tuple(cards[:2]))


def unseen_contracts(state: MP2State) -> tuple[str, ...]:
    pack = pack_of(state)
    return tuple(k for k in pack.normal_contracts if k not in state.seen)


def check_outcome(chance: Chance, outcome: tuple[Any, ...]) -> None:
    """An outcome of the shape chance asks for: ``count`` die values, or a permutation of ``items``."""
    if chance.kind == "dice":
        if len(outcome) != chance.count or not all(
            isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= chance.sides for v in outcome
        ):
            codes.illegal(codes.BAD_DIE, "the roll is {count} die values 1-{sides}, not {outcome}", count=chance.count, sides=chance.sides, outcome=list(outcome))
    elif sorted(map(str, outcome)) != sorted(chance.items) or not all(isinstance(x, str) for x in outcome):
        codes.illegal(codes.UNKNOWN_ID, "the outcome is an order of exactly the items chance shuffles")


def roll_count(state: MP2State) -> list[int]:
    """The dice of a round roll, grouped: each seat's five, then the black dice (black-dice variant)."""
    pack = pack_of(state)
    groups = [pack.dice] * state.n
    if state.options.black_dice_variant:
        groups.append(state.black_supply)
    return groups


#: described component kinds that are public map facts, and where the pack's map keeps them
_MAP_KINDS = {"node": "nodes", "route": "routes"}
#: the pack section that lists each kind of card or tile
_SECTION_OF = {kind: section for section, kind in SECTIONS.items()}


def _add_new(items: list, item: dict) -> None:
    """Adds ``item`` unless the list holds its id already (the pack's own stands)."""
    if all(x.get("id") != item["id"] for x in items):
        items.append(item)


class MarcoPolo2(GrowingPacks[MP2State]):
    """Marco Polo II: In the Service of the Khan (implements ``rules.base.Title``)."""

    id: ClassVar[str] = "marco-polo-2"
    name: ClassVar[str] = "Marco Polo II: In the Service of the Khan"
    event_types: ClassVar[tuple[type[Event], ...]] = EVENT_TYPES
    state_type: ClassVar[type] = MP2State
    options_type: ClassVar[type] = Options
    codes: ClassVar[tuple[str, ...]] = CODES
    content: ClassVar[dict[str, str]] = CONTENT_REF
    #: 2: Isabella Donati unpaid for a reroll, Donata Badoer's pieces per マス (issue 14); 3: a path
    #: may come back to a node, Möngke Khan paid once per different oasis (issue 29); older snapshots differ
    version: ClassVar[str] = "3"

    def setup(self, players: tuple[str, ...], options: dict[str, Any]) -> MP2State:
        return _setup(players, options)

    def decide(self, state: MP2State, move: Event) -> tuple[Event, ...]:
        return _decide(state, move)

    #: the fold itself, without a bound-method frame (it runs once per stored event)
    evolve = staticmethod(_evolve)

    def legal_moves(self, state: MP2State) -> list[Event]:
        return _legal_moves(state)

    def to_move(self, state: MP2State) -> int | None:
        return _to_move(state)

    def status(self, state: MP2State) -> str:
        return _status(state)

    def chance(self, state: MP2State) -> Chance | None:
        pack = pack_of(state)
        if state.phase == ROLL:
            black = state.black_supply if state.options.black_dice_variant else 0
            return Chance(kind="dice", count=state.n * pack.dice + black, sides=6)
        if state.phase == PLAY and state.pending and state.pending[0][0] == ROLL_DIE:
            return Chance(kind="dice", count=1, sides=6)
        if not pack.complete:
            return None  # the table reports (and describes) what it lays out
        if state.phase == SETUP:
            return Chance(kind="shuffle", items=setup_items(state))
        if state.phase == ROUND:
            items = tuple(x for x in pack.components["offer"] if x not in state.used_offers)
            items += tuple(x for x in pack.components["city_card"] if x not in state.used_cards)
            return Chance(kind="shuffle", items=items)
        if state.phase == PLAY and state.pending and state.pending[0][0] == REFILL:
            return Chance(kind="shuffle", items=unseen_contracts(state))
        return None

    def chance_event(self, state: MP2State, outcome: tuple[Any, ...]) -> Event:
        chance = self.chance(state)
        if chance is None:
            codes.illegal(codes.NOT_EXPECTED, "no chance outcome is expected now: {status}", status=_status_words(state))
        check_outcome(chance, tuple(outcome))
        if state.phase == SETUP:
            return setup_from_shuffle(state, tuple(outcome))
        if state.phase == ROUND:
            return round_from_shuffle(state, tuple(outcome))
        if state.phase == ROLL:
            pack = pack_of(state)
            values = [int(v) for v in outcome]
            dice = tuple(tuple(values[s * pack.dice : (s + 1) * pack.dice]) for s in range(state.n))
            return DiceRolled(round=state.round, dice=dice, black=tuple(values[state.n * pack.dice :]))
        kind, seat, arg = state.pending[0]
        if kind == ROLL_DIE:
            return DieRolled(value=int(outcome[0]), seat=seat)
        return ContractRevealed(city=arg, contract=outcome[0])

    def table_content(self, state: MP2State | None = None) -> dict[str, Any] | None:
        """The pack a game pins plus the components its log has described: map places and routes
        into the map, cards, tiles, books, seals and special cities into their sections (so the page
        draws them as printed). Goal cards are secret: they join only once the game is over. No
        state: None, the title has no one pack."""
        if state is None:
            return None
        data = pack_of(state).data
        described = [d for d in state.described if d[0] != "goal" or state.phase == OVER]
        if not described:
            return data
        out = {**data}
        game_map = {k: list(v) for k, v in data.get("map", {}).items()}
        for kind, cid, spec in described:
            item = msgspec.json.decode(spec)
            if not isinstance(item, dict):
                continue
            if kind in _MAP_KINDS:
                _add_new(game_map.setdefault(_MAP_KINDS[kind], []), {"id": cid, **item})
            elif kind in _SECTION_OF:
                out[_SECTION_OF[kind]] = list(out.get(_SECTION_OF[kind], []))
                _add_new(out[_SECTION_OF[kind]], {"id": cid, **item})
            elif kind == "book" and cid.isdigit() and 1 <= int(cid) <= len(data["books"]):
                books = out["books"] = [dict(b) for b in out["books"]]
                books[int(cid) - 1].setdefault("fixed", item.get("fixed"))
            elif kind in ("seal", "special"):
                key = kind + "s"
                out[key] = {**out.get(key, {})}
                out[key].setdefault(cid, item)
        out["map"] = game_map
        return out

    def pack_forms(self) -> dict[str, Any]:
        """The form schema of every component kind (``content/forms.py``): the page's pack editor."""
        return _pack_forms()

    def dice_groups(self, state: MP2State) -> list[int]:
        return roll_count(state)

    # -- content packs (a store's pack library calls these) ----------------------------------

    def load_pack(self, data: Any) -> Pack:
        """A validated pack; a bad field is refused with ``marco-polo-2.bad-content-pack`` naming it (``field``)."""
        try:
            return load(data)
        except PackError as exc:
            raise InvalidOptions("bad content pack: {exc}", params=dict(exc=exc), code=codes.BAD_PACK, field=exc.path) from None
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:  # a shape validation missed
            raise InvalidOptions("bad content pack: {exc}", params=dict(exc=repr(exc)[:281]), code=codes.BAD_PACK, field="pack") from None

    def register_pack(self, pack: Pack) -> Pack:
        """Make a pack selectable by ``options.content`` (kept by hash)."""
        return register(pack)

    def builtin_packs(self) -> tuple[dict[str, Any], ...]:
        """The packs shipped with the core, as data."""
        return tuple(p.data for p in BUILTIN)

    def pack_of(self, state: MP2State) -> Pack:
        return pack_of(state)

    def pack_components(self, data: dict) -> dict[str, int]:
        return _library.counts(data)

    def derive_pack(self, data: dict, new_id: str, add: Any = (), replace: Any = (), remove: Any = ()) -> dict:
        """``data`` with components added, replaced, removed, as a new pack ``new_id`` (refused
        with ``marco-polo-2.bad-content-pack`` naming the field)."""
        try:
            return _library.derive(data, new_id, add, replace, remove)
        except PackError as exc:
            raise InvalidOptions("bad content pack: {exc}", params=dict(exc=exc), code=codes.BAD_PACK, field=exc.path) from None

    def diff_packs(self, a: dict, b: dict) -> dict[str, list[dict]]:
        return _library.diff(a, b)

    def merge_packs(self, a: dict, b: dict, new_id: str, keep: Any = ()) -> dict[str, Any]:
        """Two packs as one (``content.library.merge``): its data once every clash is resolved by
        ``keep``; refused with ``marco-polo-2.bad-content-pack`` naming the field."""
        try:
            return _library.merge(a, b, new_id, keep)
        except PackError as exc:
            raise InvalidOptions("bad content pack: {exc}", params=dict(exc=exc), code=codes.BAD_PACK, field=exc.path) from None

    def grow_pack(self, data: dict, new_id: str, states: Any) -> tuple[dict | None, list[dict], list[dict]]:
        """A new version of ``data`` with what the games (``(state, ended)`` pairs) described and it
        lacks; goal cards of games not ended are left out. See ``content.library.grow``."""
        found = [c for state, ended in states for c in _library.described(state, ended)]
        return _library.grow(data, new_id, found)

    def described(self, state: MP2State, event: Event) -> tuple[str, ...]:
        """The components (``kind:id``) the step that led to ``state`` described or used from the log's
        descriptions rather than the pinned pack: replay frames mark such steps. Goal cards are
        secret until the end, so they are left out before it."""
        if state.phase == OVER:
            return state.resting
        return tuple(r for r in state.resting if not r.startswith("goal:"))

    def view(self, state: MP2State, seat: int | None) -> dict[str, Any]:
        return _view(state, seat)

    def full_view(self, state: MP2State) -> dict[str, Any]:
        return _full_view(state)

    def score(self, state: MP2State) -> dict[str, Any]:
        return _score(state)

    def outcome(self, state: MP2State) -> Outcome | None:
        return _outcome(state)

    def round_of(self, state: MP2State) -> int:
        return state.round

    def score_after(self, state: MP2State, public_only: bool) -> tuple[int, ...]:
        return _score_after(state, public_only)

    def parse_move(self, state: MP2State, text: str) -> Event:
        return _parse_move(state, text)

    def format_move(self, event: Event) -> str:
        return _format_move(event)

    def public_move(self, event: Event) -> Event | None:
        return _public_move(event)

    def describe(self, state: MP2State, event: Event, after: MP2State) -> Phrase:
        return _describe(state, event, after)

    def status_words(self, state: MP2State) -> Phrase:
        return _status_words(state)


__all__ = [
    "CODES", "PACK_HASH", "PACK_ID", "MarcoPolo2", "MP2State", "Options", "Pack", "PlayerState",
    *[t.__name__ for t in EVENT_TYPES],
]
