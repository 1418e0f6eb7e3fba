"""Marco Polo events: decisions (dice placed, contracts taken, routes travelled, bonus actions) and
observations (the table laid out, dice rolled, contracts revealed or drawn, objectives shown).

Tags and fields are a contract with the other layers: never rename them; a changed meaning gets a
new tag plus an upcaster. Every move is exactly one event: ``decide`` returns it completed (the
seat filled in, a known drawn contract named) and returns a stored event unchanged while legal.

Dice are written as tokens: ``"4"`` a die of the player's colour showing 4 (Raschid: the value he
sets), ``"b4"`` a black die showing 4, ``"w4"`` Matteo's white die. ``choices`` lists, in the order
the effects resolve, every choice the rules leave to the player (see ``engine``): a good
(``pepper`` ``silk`` ``gold``), ``coins`` / ``camels``, a destination for a 1-step move (``SAM``,
``2:SAM`` for Niccolo's second figure, ``stay`` to forgo it), a small-city bonus or city (``CB2``,
``KAS``), a direction (``a`` / ``b``) for a two-way city card.
"""

from __future__ import annotations

from events.base import Event


# --- observations ------------------------------------------------------------------------------
class SetupDealt(Event, frozen=True, kw_only=True, tag="marco-polo.setup-dealt"):
    """The table as laid out. ``characters`` per seat (``()`` when drafted: then ``draft`` holds the
    players + 1 revealed tiles); ``city_cards`` per city-card space (MOS KAR SAM LAN ALE KCH SUM-1
    SUM-2 SUM-3); ``outposts`` per large city (same order, Sumatra once); ``city_bonuses`` per small
    city (ANX KAS XIA ORM ADA KOC; ``()`` = the basic layout); ``starting_contracts`` per seat;
    ``objectives`` per seat (2, or 4 dealt in the expert variant), ``None`` = unknown to the
    recorder; ``()`` = all unknown."""

    characters: tuple[str, ...] = ()
    draft: tuple[str, ...] = ()
    city_cards: tuple[str, ...]
    outposts: tuple[str, ...]
    city_bonuses: tuple[str, ...] = ()
    starting_contracts: tuple[str, ...]
    objectives: tuple[tuple[str | None, ...], ...] = ()


class ContractsDealt(Event, frozen=True, kw_only=True, tag="marco-polo.contracts-dealt"):
    """A round's six contracts revealed onto the display, columns 1..6 left to right."""

    round: int
    contracts: tuple[str, ...]


class DiceRolled(Event, frozen=True, kw_only=True, tag="marco-polo.dice-rolled"):
    """The start-of-round roll as observed: per seat its five colour dice (Matteo: then the white
    die; Raschid: nothing, he sets his values when placing)."""

    round: int
    dice: tuple[tuple[int, ...], ...]


class DieRolled(Event, frozen=True, kw_only=True, tag="marco-polo.die-rolled"):
    """The value of a die just rerolled, or of a black die just taken."""

    value: int
    seat: int | None = None


class ContractDrawn(Event, frozen=True, kw_only=True, tag="marco-polo.contract-drawn"):
    """The top contract of the special pile, taken by ``seat`` (a reward, Matteo's round contract)
    or dealt onto an empty display (``seat`` None)."""

    contract: str | None = None
    seat: int | None = None


class ObjectivesRevealed(Event, frozen=True, kw_only=True, tag="marco-polo.objectives-revealed"):
    """A seat shows its two kept objective cards (at the end, or whenever the recorder learns them)."""

    seat: int
    objectives: tuple[str, ...]


# --- setup decisions (expert variant) -----------------------------------------------------------
class CharacterPicked(Event, frozen=True, kw_only=True, tag="marco-polo.character-picked"):
    character: str
    seat: int | None = None


class ObjectivesKept(Event, frozen=True, kw_only=True, tag="marco-polo.objectives-kept"):
    """Expert variant: 2 of the 4 dealt objective cards kept (``None`` = unknown to the recorder)."""

    objectives: tuple[str | None, ...] = (None, None)
    seat: int | None = None


# --- round start -------------------------------------------------------------------------------
class IncomeTaken(Event, frozen=True, kw_only=True, tag="marco-polo.income-taken"):
    """Round start: the compensation split (``coins + camels`` = 15 - the roll's total) and the
    choices of the small-city bonuses that need one, in city order."""

    coins: int = 0
    camels: int = 0
    choices: tuple[str, ...] = ()
    seat: int | None = None


# --- main actions ------------------------------------------------------------------------------
class FiveCoinsTaken(Event, frozen=True, kw_only=True, tag="marco-polo.five-coins-taken"):
    die: str
    seat: int | None = None


class BazaarUsed(Event, frozen=True, kw_only=True, tag="marco-polo.bazaar-used"):
    """A bazaar row (``camels`` ``pepper`` ``silk`` ``gold``) with its dice; ``column`` <= the lowest die."""

    row: str
    dice: tuple[str, ...]
    column: int
    choices: tuple[str, ...] = ()
    seat: int | None = None


class KhansFavorTaken(Event, frozen=True, kw_only=True, tag="marco-polo.khans-favor-taken"):
    die: str
    good: str
    seat: int | None = None


class ContractsTaken(Event, frozen=True, kw_only=True, tag="marco-polo.contracts-taken"):
    """1 or 2 contracts by display column (as the display was before taking); ``choices``: coins or
    camels for a column 5 or 6 contract, in column order; ``discard``: active contracts returned
    under the special pile to make room."""

    die: str
    columns: tuple[int, ...]
    choices: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    seat: int | None = None


class Travelled(Event, frozen=True, kw_only=True, tag="marco-polo.travelled"):
    """Two dice on travel; ``path`` the locations stepped onto, in order (``path2``: Niccolo's second
    figure); ``choices`` for the bonuses collected on arrival."""

    dice: tuple[str, ...]
    path: tuple[str, ...]
    path2: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    seat: int | None = None


class CityCardUsed(Event, frozen=True, kw_only=True, tag="marco-polo.city-card-used"):
    """One die on a city card (``space``: MOS ... SUM-3); ``times`` repetitions of a x-d card."""

    space: str
    die: str
    times: int = 1
    choices: tuple[str, ...] = ()
    seat: int | None = None


# --- bonus actions -----------------------------------------------------------------------------
class ContractCompleted(Event, frozen=True, kw_only=True, tag="marco-polo.contract-completed"):
    contract: str
    choices: tuple[str, ...] = ()
    seat: int | None = None


class MoneyBagTaken(Event, frozen=True, kw_only=True, tag="marco-polo.money-bag-taken"):
    """One die for 3 coins (no occupation fee, repeatable)."""

    die: str
    seat: int | None = None


class DieRerolled(Event, frozen=True, kw_only=True, tag="marco-polo.die-rerolled"):
    """1 camel to reroll a die; the new value follows as ``DieRolled``."""

    die: str
    seat: int | None = None


class DieAdjusted(Event, frozen=True, kw_only=True, tag="marco-polo.die-adjusted"):
    """2 camels to turn a die one pip up (+1) or down (-1), never 6<->1."""

    die: str
    delta: int
    seat: int | None = None


class BlackDieBought(Event, frozen=True, kw_only=True, tag="marco-polo.black-die-bought"):
    """3 camels for a black die, rolled at once (its value follows as ``DieRolled``)."""

    seat: int | None = None


class ContractDiscarded(Event, frozen=True, kw_only=True, tag="marco-polo.contract-discarded"):
    """After drawing a third contract: one of the three goes under the special pile."""

    contract: str
    seat: int | None = None


class TurnEnded(Event, frozen=True, kw_only=True, tag="marco-polo.turn-ended"):
    seat: int | None = None


EVENT_TYPES: tuple[type[Event], ...] = (
    SetupDealt,
    ContractsDealt,
    DiceRolled,
    DieRolled,
    ContractDrawn,
    ObjectivesRevealed,
    CharacterPicked,
    ObjectivesKept,
    IncomeTaken,
    FiveCoinsTaken,
    BazaarUsed,
    KhansFavorTaken,
    ContractsTaken,
    Travelled,
    CityCardUsed,
    ContractCompleted,
    MoneyBagTaken,
    DieRerolled,
    DieAdjusted,
    BlackDieBought,
    ContractDiscarded,
    TurnEnded,
)
MAIN_ACTIONS: tuple[type[Event], ...] = (
    FiveCoinsTaken,
    BazaarUsed,
    KhansFavorTaken,
    ContractsTaken,
    Travelled,
    CityCardUsed,
)
BONUS_ACTIONS: tuple[type[Event], ...] = (
    ContractCompleted,
    MoneyBagTaken,
    DieRerolled,
    DieAdjusted,
    BlackDieBought,
)
