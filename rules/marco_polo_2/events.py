"""Marco Polo II events: observations (the table laid out, a round's reveals, dice rolled, a
contract refilled, a goal card shown) and decisions (main actions, bonus actions, round-start
income, the end of a turn).

Tags and fields are a contract with the other layers: never rename them. Every event may carry
``describe``: components the pinned content pack lacks, described as they come to the table (a
contract when revealed, a route and its end when travelled, a city card when laid out). The core
checks a description against the pack and against earlier descriptions, then uses it like pack data.

Dice are tokens: ``"4"`` a die of the player's colour showing 4, ``"b4"`` a black die, ``"pR"``
one of Donata Badoer's pieces (colour initial B R Y G; it counts as a 6).
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.base import Event


class Component(msgspec.Struct, frozen=True, kw_only=True):
    """A component described at the table: ``kind`` (see ``content.schema.KINDS``), its ``id``, its spec."""

    kind: str
    id: str
    spec: dict[str, Any]


class MP2Event(Event, frozen=True, kw_only=True):
    """Base of the title's events (no tag: never stored as such)."""

    describe: tuple[Component, ...] = ()


# --- observations ------------------------------------------------------------------------------
class SetupDealt(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.setup-dealt"):
    """The table as laid out. ``characters`` per seat (``()`` when picked: ``offered`` then holds the
    characters on offer); ``starting_contracts`` per seat; ``goals`` per seat, the 3 dealt (None =
    unknown to the recorder; ``()`` all unknown); the board as (city, id) pairs: ``bonuses`` (city
    bonus markers), ``outposts`` (outpost tiles), ``cards`` (city cards), ``contracts`` (one pair per
    contract space); ``route_tiles`` face up (caravans)."""

    characters: tuple[str, ...] = ()
    offered: tuple[str, ...] = ()
    starting_contracts: tuple[str | None, ...] = ()
    goals: tuple[tuple[str | None, ...], ...] = ()
    bonuses: tuple[tuple[str, str], ...] = ()
    outposts: tuple[tuple[str, str], ...] = ()
    cards: tuple[tuple[str, str], ...] = ()
    contracts: tuple[tuple[str, str], ...] = ()
    route_tiles: tuple[str, ...] = ()


class RoundRevealed(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.round-revealed"):
    """A round's reveals: the offer tile on each book (books 1..3) for this round, the next round's
    (``upcoming``; ``()`` in the last round), and the two action-area city cards."""

    round: int
    offers: tuple[str, ...]
    upcoming: tuple[str, ...] = ()
    area_cards: tuple[str, ...] = ()


class DiceRolled(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.dice-rolled"):
    """The round-start roll: per seat its five dice; ``black``: the black dice (black-dice variant)."""

    round: int
    dice: tuple[tuple[int, ...], ...]
    black: tuple[int, ...] = ()


class DieRolled(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.die-rolled"):
    """The value of a die just rerolled, or of a black die just taken."""

    value: int
    seat: int | None = None


class ContractRevealed(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.contract-revealed"):
    """A contract laid on an emptied contract space of ``city`` ("その後補充されます"); ``city`` "hand":
    the top of the pile drawn into a seat's hand for a ``contract_pile`` reward icon (MP2-20)."""

    city: str
    contract: str


class GoalRevealed(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.goal-revealed"):
    """A seat shows its kept goal card (at the end, or whenever the recorder learns it)."""

    seat: int
    goal: str


# --- setup decisions ---------------------------------------------------------------------------
class CharacterPicked(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.character-picked"):
    character: str
    seat: int | None = None


class GoalKept(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.goal-kept"):
    """One of the 3 dealt goal cards kept (None: unknown to the recorder)."""

    goal: str | None = None
    seat: int | None = None


# --- round start -------------------------------------------------------------------------------
class IncomeTaken(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.income-taken"):
    """Round start: the compensation split (``coins + camels`` = 15 - the roll when <= 15);
    ``double``: Mailin & Tian Chin's «!» bonus taken twice (``city:X`` / ``seal:G`` / ``character``);
    ``pair``: Isabella Donati's doubles (the value of the pair, 0 = none); ``choices``: the bonus marker
    taken for each "any other bonus" marker paying this round, in the order of the seat's posts (then
    once more if Mailin & Tian Chin doubled it)."""

    coins: int = 0
    camels: int = 0
    double: str | None = None
    pair: int = 0
    choices: tuple[str, ...] = ()
    seat: int | None = None


# --- main actions ------------------------------------------------------------------------------
class Travelled(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.travelled"):
    """Dice on travel row ``row`` (1 lower, 2 middle, 3 upper); ``path`` the nodes stepped onto;
    ``extra`` (upper row) a city passed that gets a post too; ``take`` contracts taken in cities
    where a post was placed, ``discard`` held contracts given up to stay at two; ``choices`` Möngke
    Khan's ``coins`` / ``camels`` per oasis skipped; ``figure`` 1 = Mailin & Tian Chin's second;
    ``path2``: Mailin & Tian Chin's split move, the nodes the other figure steps onto (ruling MP2-13)."""

    row: int
    dice: tuple[str, ...]
    path: tuple[str, ...]
    extra: str | None = None
    take: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    figure: int = 0
    path2: tuple[str, ...] = ()
    seat: int | None = None


class BookUsed(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.book-used"):
    """A market (book 1..3) with one die; ``option`` 1, 2 (free), 3 (1 jade), 4 (2 jade);
    ``caravans``: each caravan's path moved right after (caravan expansion)."""

    book: int
    die: str
    option: int
    caravans: tuple[tuple[str, ...], ...] = ()
    seat: int | None = None


class KhansFavorTaken(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.khans-favor-taken"):
    die: str
    seat: int | None = None


class ContractsTaken(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.contracts-taken"):
    """4 coins, then up to 2 contracts from cities with the player's post (``discard`` to keep 2)."""

    die: str
    contracts: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    seat: int | None = None


class GuildTaken(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.guild-taken"):
    dice: tuple[str, ...]
    guild: str
    seat: int | None = None


class SpecialCityUsed(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.special-city-used"):
    city: str
    die: str
    seat: int | None = None


class CityCardUsed(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.city-card-used"):
    """One die on the card of ``city`` (``area1`` / ``area2``: an action-area card), ``times`` repeats.
    The choices its effect asks for (ruling MP2-20): ``option`` (kind ``choice``: which of the card's
    options, from 1, the same every time); ``markers`` (kind ``bonuses``: the bonus markers taken, a
    different one each time; ``times`` = how many); ``guild`` (kind ``guild``: the seal taken);
    ``path`` / ``path2`` / ``figure`` / ``take`` / ``discard`` (kind ``move``: as a travel's);
    ``choices`` the bonus markers chosen for "any other bonus" components met on the way."""

    city: str
    die: str
    times: int = 1
    option: int = 0
    markers: tuple[str, ...] = ()
    guild: str | None = None
    path: tuple[str, ...] = ()
    path2: tuple[str, ...] = ()
    figure: int = 0
    take: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    seat: int | None = None


# --- bonus actions -----------------------------------------------------------------------------
class ContractCompleted(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.contract-completed"):
    """``choices``: what its reward icons ask for (ruling MP2-20): the contract taken for a
    ``contract`` icon, then the black die's value for a ``black_die`` icon (black-dice variant)."""

    contract: str
    choices: tuple[str, ...] = ()
    seat: int | None = None


class SealImproved(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.seal-improved"):
    guild: str
    seat: int | None = None


class MoneyBagTaken(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.money-bag-taken"):
    """One die on the money bag for 3 coins, 2 camels or 1 jade (``take``)."""

    die: str
    take: str
    seat: int | None = None


class DieRerolled(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.die-rerolled"):
    die: str
    seat: int | None = None


class DieAdjusted(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.die-adjusted"):
    die: str
    delta: int
    seat: int | None = None


class BlackDieBought(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.black-die-bought"):
    """3 camels for a black die; black-dice variant: ``value`` the pre-rolled one taken."""

    value: int | None = None
    seat: int | None = None


class GoodsTraded(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.goods-traded"):
    """Vidal Badoer, once a turn: 1 gold + 1 silk + 1 pepper for 5 VP."""

    seat: int | None = None


class OutpostTileUsed(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.outpost-tile-used"):
    """Filippo Vitello cashes a kept outpost tile (``choices``: the bonus marker an "any other bonus"
    tile pays)."""

    tile: str
    choices: tuple[str, ...] = ()
    seat: int | None = None


class CaravanStarted(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.caravan-started"):
    """Goods (1-2) loaded, a face-up route tile taken, the caravan set on ``city``."""

    goods: tuple[str, ...]
    tile: str
    city: str
    seat: int | None = None


class CaravanConquered(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.caravan-conquered"):
    """The caravan ``caravan`` (index) meets a figure: per loaded good ``sell`` / ``upgrade`` /
    ``double``; ``tile``: the route tile returned (Piedro Tartarino may choose)."""

    caravan: int
    rewards: tuple[str, ...]
    tile: str | None = None
    seat: int | None = None


class TurnEnded(MP2Event, frozen=True, kw_only=True, tag="marco-polo-2.turn-ended"):
    seat: int | None = None


EVENT_TYPES: tuple[type[Event], ...] = (
    SetupDealt, RoundRevealed, DiceRolled, DieRolled, ContractRevealed, GoalRevealed, CharacterPicked, GoalKept,
    IncomeTaken, Travelled, BookUsed, KhansFavorTaken, ContractsTaken, GuildTaken, SpecialCityUsed, CityCardUsed,
    ContractCompleted, SealImproved, MoneyBagTaken, DieRerolled, DieAdjusted, BlackDieBought, GoodsTraded,
    OutpostTileUsed, CaravanStarted, CaravanConquered, TurnEnded,
)
MAIN_ACTIONS: tuple[type[Event], ...] = (
    Travelled, BookUsed, KhansFavorTaken, ContractsTaken, GuildTaken, SpecialCityUsed, CityCardUsed,
)
BONUS_ACTIONS: tuple[type[Event], ...] = (
    ContractCompleted, SealImproved, MoneyBagTaken, DieRerolled, DieAdjusted, BlackDieBought, GoodsTraded,
    OutpostTileUsed, CaravanStarted, CaravanConquered,
)

# Class names are unique across titles (the OpenAPI schema names each event by its class): the
# Python names stay short, the published names carry the title.
for _cls in EVENT_TYPES:
    _cls.__name__ = _cls.__qualname__ = "MarcoPolo2" + _cls.__name__
