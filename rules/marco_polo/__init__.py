"""The Voyages of Marco Polo (Tascini & Luciani): the rules core, as the seed ``marco-polo.es.txt``
specifies it, with the components of reference part A (``content``).

Modules: ``content`` (the content pack: data, ids, hash, lookup tables), ``events`` (the title's
event types), ``state`` (state, options, setup), ``codes`` (every error code), ``engine`` (how
events take effect: one code path, strict for ``decide``, trusting for ``evolve``), ``decide``
(completing and validating moves; the fold), ``moves`` (legal moves), ``scoring`` (breakdown and
outcome), ``views`` (views, status, whose decision), ``notation`` (parse / format).

Chance: the table's layout (one shuffle of every component), each round's six contracts (a
shuffle of the contracts not yet seen), the round roll, a rerolled or black die, and a contract
drawn from the special pile. ``chance`` names what is awaited; a physical table records the
observed facts with the same events.
"""

from __future__ import annotations

from typing import Any, ClassVar

from events.base import Event
from events.messages import Phrase
from rules.base import Chance, Outcome, PackedTitle
from rules.marco_polo import codes
from rules.marco_polo.codes import CODES
from rules.marco_polo.content import (
    CHARACTER_IDS,
    CITY_BONUS_IDS,
    CITY_CARD_IDS,
    CITY_CARD_SPACES,
    CONTENT_REF,
    DEFAULT_CITY_BONUS,
    FIRST_GAME_CHARACTERS,
    LARGE_CITIES,
    OBJECTIVE_IDS,
    OUTPOST_BONUS_IDS,
    PACK,
    PACK_HASH,
    PACK_ID,
    SMALL_CITIES,
    STARTING_CONTRACTS,
)
from rules.marco_polo.decide import decide as _decide
from rules.marco_polo.decide import evolve as _evolve
from rules.marco_polo.decide import unseen_contracts
from rules.marco_polo.events import *  # noqa: F403
from rules.marco_polo.events import EVENT_TYPES, ContractDrawn, ContractsDealt, DiceRolled, DieRolled, SetupDealt
from rules.marco_polo.moves import legal_moves as _legal_moves
from rules.marco_polo.notation import format_move as _format_move
from rules.marco_polo.notation import parse_move as _parse_move
from rules.marco_polo.scoring import outcome as _outcome
from rules.marco_polo.scoring import score as _score
from rules.marco_polo.scoring import score_after as _score_after
from rules.marco_polo.sentences import describe as _describe
from rules.marco_polo.sentences import status_words as _status_words
from rules.marco_polo.sentences import public_move as _public_move
from rules.marco_polo.state import (
    CONTRACTS,
    DICE,
    DRAW,
    PLAY,
    ROLL,
    ROLL_DIE,
    SETUP,
    MarcoPoloState,
    Options,
    PlayerState,
)
from rules.marco_polo.state import setup as _setup
from rules.marco_polo.views import full_view as _full_view
from rules.marco_polo.views import status as _status
from rules.marco_polo.views import to_move as _to_move
from rules.marco_polo.views import view as _view

#: every component id, the items of the setup shuffle
SETUP_ITEMS: tuple[str, ...] = (
    CHARACTER_IDS + CITY_CARD_IDS + OUTPOST_BONUS_IDS + CITY_BONUS_IDS + STARTING_CONTRACTS + OBJECTIVE_IDS
)


def setup_from_shuffle(state: MarcoPoloState, order: tuple[str, ...]) -> SetupDealt:
    """A digital game's layout from one shuffle of every component: each kind in shuffled order."""
    n = state.n
    pick = {kind: [x for x in order if x in ids] for kind, ids in (
        ("chars", CHARACTER_IDS), ("cards", CITY_CARD_IDS), ("out", OUTPOST_BONUS_IDS),
        ("bonus", CITY_BONUS_IDS), ("start", STARTING_CONTRACTS), ("obj", OBJECTIVE_IDS))}
    opts = state.options
    per = 4 if opts.objectives_keep else 2
    chars: tuple[str, ...] = ()
    draft: tuple[str, ...] = ()
    if opts.characters == "first-game":
        chars = FIRST_GAME_CHARACTERS[:n]
    elif opts.characters == "draft":
        draft = tuple(pick["chars"][: n + 1])
    else:
        chars = tuple(pick["chars"][:n])
    bonuses = tuple(pick["bonus"]) if opts.random_city_bonuses else tuple(DEFAULT_CITY_BONUS[c] for c in SMALL_CITIES)
    return SetupDealt(
        characters=chars,
        draft=draft,
        city_cards=tuple(pick["cards"][: len(CITY_CARD_SPACES)]),
        outposts=tuple(pick["out"][: len(LARGE_CITIES)]),
        city_bonuses=bonuses,
        starting_contracts=tuple(pick["start"][:n]),
        objectives=tuple(tuple(pick["obj"][s * per : (s + 1) * per]) for s in range(n)),
    )


def roll_count(state: MarcoPoloState) -> list[int]:
    out = []
    for p in state.seats:
        out.append(0 if p.character == "raschid" else DICE + (1 if p.character == "matteo" else 0))
    return out


class MarcoPolo(PackedTitle[MarcoPoloState]):
    """The Voyages of Marco Polo title (implements ``rules.base.Title``)."""

    id: ClassVar[str] = "marco-polo"
    name: ClassVar[str] = "The Voyages of Marco Polo"
    event_types: ClassVar[tuple[type[Event], ...]] = EVENT_TYPES
    state_type: ClassVar[type] = MarcoPoloState
    options_type: ClassVar[type] = Options
    codes: ClassVar[tuple[str, ...]] = CODES
    content: ClassVar[dict[str, str]] = CONTENT_REF

    def builtin_packs(self) -> tuple[dict[str, Any], ...]:
        """The complete pack the core ships (read-only in a store's library)."""
        from rules.marco_polo.content.data import PACK

        return (PACK,)

    def setup(self, players: tuple[str, ...], options: dict[str, Any]) -> MarcoPoloState:
        return _setup(players, options)

    def decide(self, state: MarcoPoloState, move: Event) -> tuple[Event, ...]:
        return _decide(state, move)

    def evolve(self, state: MarcoPoloState, event: Event) -> MarcoPoloState:
        return _evolve(state, event)

    def legal_moves(self, state: MarcoPoloState) -> list[Event]:
        return _legal_moves(state)

    def to_move(self, state: MarcoPoloState) -> int | None:
        return _to_move(state)

    def status(self, state: MarcoPoloState) -> str:
        return _status(state)

    def chance(self, state: MarcoPoloState) -> Chance | None:
        if state.phase == SETUP:
            return Chance(kind="shuffle", items=SETUP_ITEMS)
        if state.phase == CONTRACTS:
            return Chance(kind="shuffle", items=tuple(unseen_contracts(state)))
        if state.phase == ROLL:
            return Chance(kind="dice", count=sum(roll_count(state)), sides=6)
        if state.phase == PLAY and state.pending:
            kind = state.pending[0][0]
            if kind == ROLL_DIE:
                return Chance(kind="dice", count=1, sides=6)
            if kind == DRAW:
                top = state.special[0]
                return Chance(kind="shuffle", items=(top,) if top is not None else tuple(unseen_contracts(state)))
        return None

    def chance_event(self, state: MarcoPoloState, outcome: tuple[Any, ...]) -> Event:
        chance = self.chance(state)
        if chance is None:
            codes.illegal(codes.NOT_EXPECTED, "no chance outcome is expected now: {status}", status=_status_words(state))
        if state.phase == SETUP:
            return setup_from_shuffle(state, tuple(outcome))
        if state.phase == CONTRACTS:
            return ContractsDealt(round=state.round, contracts=tuple(outcome[:6]))
        if state.phase == ROLL:
            dice, i = [], 0
            for k in roll_count(state):
                dice.append(tuple(int(v) for v in outcome[i : i + k]))
                i += k
            return DiceRolled(round=state.round, dice=tuple(dice))
        kind, seat, _ = state.pending[0]
        if kind == ROLL_DIE:
            return DieRolled(value=int(outcome[0]), seat=seat)
        return ContractDrawn(contract=outcome[0], seat=None if seat < 0 else seat)

    def table_content(self, state: MarcoPoloState | None = None) -> dict[str, Any]:
        """The board, cards and tiles every game is drawn with (one pack)."""
        return PACK

    def dice_groups(self, state: MarcoPoloState) -> list[int]:
        return roll_count(state)

    def view(self, state: MarcoPoloState, seat: int | None) -> dict[str, Any]:
        return _view(state, seat)

    def full_view(self, state: MarcoPoloState) -> dict[str, Any]:
        return _full_view(state)

    def score(self, state: MarcoPoloState) -> dict[str, Any]:
        return _score(state)

    def outcome(self, state: MarcoPoloState) -> Outcome | None:
        return _outcome(state)

    def round_of(self, state: MarcoPoloState) -> int:
        return state.round

    def score_after(self, state: MarcoPoloState, public_only: bool) -> tuple[int, ...]:
        return _score_after(state, public_only)

    def parse_move(self, state: MarcoPoloState, text: str) -> Event:
        return _parse_move(state, text)

    def format_move(self, event: Event) -> str:
        return _format_move(event)

    def public_move(self, event: Event) -> Event:
        return _public_move(event)

    def describe(self, state: MarcoPoloState, event: Event, after: MarcoPoloState) -> Phrase:
        return _describe(state, event, after)

    def status_words(self, state: MarcoPoloState) -> Phrase:
        return _status_words(state)


__all__ = [
    "CODES",
    "PACK_HASH",
    "PACK_ID",
    "MarcoPolo",
    "MarcoPoloState",
    "Options",
    "PlayerState",
    *[t.__name__ for t in EVENT_TYPES],
]
