"""The game state (an immutable msgspec Struct that round-trips msgpack), options and setup."""

from __future__ import annotations

from typing import Annotated, Any, Final

import msgspec

from rules.lost_cities import codes
from rules.lost_cities.cards import DECKS, EXPEDITION_OPTIONS, MULTIPLICITY

#: phases
DEAL: Final = "deal"  # waiting for the next round's shuffle or deal (an observation)
PLAY: Final = "play"  # the seat to move plays or discards a card (or, in partnership, passes)
DRAW: Final = "draw"  # the seat that played or discarded draws a card
OVER: Final = "over"  # the agreed rounds are played

#: sides: seat & 1 (2 players: seat 0 / seat 1; partnership: seats 0+2 / seats 1+3)
SIDES = 2

Cards = tuple[str, ...]
#: per side, per colour (expedition order), the cards from first to last
Expeditions = tuple[tuple[Cards, ...], ...]


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Game options. ``first_seat``: "El jugador de mayor edad comienza" -- the table says who."""

    rounds: Annotated[int, msgspec.Meta(ge=1, le=100)] = 3
    expeditions: Annotated[int, msgspec.Meta(ge=5, le=6)] = 5
    first_seat: Annotated[int, msgspec.Meta(ge=0)] = 0


class RoundResult(msgspec.Struct, frozen=True):
    """A finished round: who started it, the final expeditions and each side's score."""

    round: int
    starting_seat: int
    expeditions: Expeditions
    scores: tuple[int, ...]


class LostCitiesState(msgspec.Struct, frozen=True):
    """Everything the log has established.

    Hands are tracked as what the recorder knows: ``hands[seat]`` the known cards (a multiset, in
    arrival order) plus ``unknown[seat]`` cards the recorder has not seen. In digital play
    (``deck_order`` non-empty) everything is known and the draw pile is
    ``deck_order[len(deck_order) - draw_pile:]``, next card first.

    After a face-down pass (ruling LC-3) the passer's known cards are ``shared`` by its side: each
    is in one of the two partners' hands, among their unknown cards, and seat s holds at most
    ``shared_room[s]`` of them.
    """

    players: tuple[str, ...]
    rounds: int
    expedition_count: int
    first_seat: int
    #: rounds dealt so far (the current round while one is in play)
    round: int
    phase: str
    #: the seat that starts the current round (during DEAL: the next round)
    starting_seat: int
    #: the seat to act (PLAY / DRAW); during DEAL / OVER the next round's starting seat
    turn: int
    hands: tuple[Cards, ...]
    unknown: tuple[int, ...]
    expeditions: Expeditions
    #: per colour, bottom to top; only the top is visible at the table, the log knows the pile
    discard_piles: tuple[Cards, ...]
    #: cards left in the draw pile
    draw_pile: int
    #: digital play: this round's whole shuffled order; () at a physical table
    deck_order: Cards
    #: colour index of the pile the seat to move discarded onto this turn, -1 if none
    discarded_onto: int
    #: finished rounds
    history: tuple[RoundResult, ...]
    #: running total per side
    totals: tuple[int, ...]
    #: per side, cards known to be with one of its two partners (a multiset); () outside partnership
    shared: tuple[Cards, ...] = ((), ())
    #: per seat, the most of its side's shared cards its hand can hold
    shared_room: tuple[int, ...] = (0, 0, 0, 0)

    @property
    def partnership(self) -> bool:
        return len(self.players) == 4

    @property
    def deck(self) -> Cards:
        return DECKS[(self.expedition_count, len(self.players) == 4)]

    @property
    def multiplicity(self):
        return MULTIPLICITY[(self.expedition_count, len(self.players) == 4)]


def empty_expeditions(expedition_count: int) -> Expeditions:
    return tuple(tuple(() for _ in range(expedition_count)) for _ in range(SIDES))


def setup(players: tuple[str, ...], options: dict[str, Any] | None) -> LostCitiesState:
    players = tuple(players)
    if len(players) not in (2, 4):
        codes.bad_options(
            codes.PLAYER_COUNT,
            "Lost Cities is played by 2 players, or 4 in partnerships (parejas); got {n_players}", n_players=len(players),
        )
    try:
        opts = msgspec.convert(dict(options or {}), Options)
    except msgspec.ValidationError as exc:
        codes.bad_options(
            codes.BAD_OPTIONS,
            "bad Lost Cities options: {exc} (known: rounds >= 1, expeditions 5 or 6, first_seat)", exc=exc,
        )
    if opts.expeditions not in EXPEDITION_OPTIONS:  # pragma: no cover - Meta already bounds it
        codes.bad_options(codes.BAD_OPTIONS, "expeditions must be 5 or 6")
    if opts.first_seat >= len(players):
        codes.bad_options(
            codes.BAD_OPTIONS, "first_seat {first_seat} is not a seat (0..{n_players_minus})", first_seat=opts.first_seat, n_players_minus=len(players) - 1
        )
    n = len(players)
    return LostCitiesState(
        players=players,
        rounds=opts.rounds,
        expedition_count=opts.expeditions,
        first_seat=opts.first_seat,
        round=0,
        phase=DEAL,
        starting_seat=opts.first_seat,
        turn=opts.first_seat,
        hands=((),) * n,
        unknown=(0,) * n,
        expeditions=empty_expeditions(opts.expeditions),
        discard_piles=((),) * opts.expeditions,
        draw_pile=0,
        deck_order=(),
        discarded_onto=-1,
        history=(),
        totals=(0,) * SIDES,
        shared=((),) * SIDES,
        shared_room=(0,) * n,
    )
