"""The game state (immutable msgspec Structs that round-trip msgpack), options and setup.

Seats are listed clockwise from the start player (seat 0): "Empieza quien haya viajado por el
mundo más recientemente. Recibe 7 monedas; en sentido horario, las siguientes personas reciben 8,
9 y 10".
"""

from __future__ import annotations

from typing import Any, Final, Literal

import msgspec

from rules.marco_polo import codes
from rules.marco_polo.content import CONTENT_REF, PACK, SETUP_BY_PLAYERS

#: phases
SETUP: Final = "setup"  # waiting for the table's layout (SetupDealt)
DRAFT: Final = "draft"  # expert: characters picked, last seat first, counter-clockwise
KEEP: Final = "keep"  # expert: each seat keeps 2 of its 4 objective cards
CONTRACTS: Final = "contracts"  # waiting for the round's six contracts (ContractsDealt)
ROLL: Final = "roll"  # waiting for the start-of-round roll (DiceRolled)
PLAY: Final = "play"  # turns (and round-start choices, as pending items)
REVEAL: Final = "reveal"  # after round 5: waiting for unknown objective cards to be shown
OVER: Final = "over"

ROUNDS: Final = PACK["rounds"]
DICE: Final = PACK["dice_per_player"]

#: pending item kinds: (kind, seat, arg)
ROLL_DIE: Final = "roll"  # a die to roll: arg "c" colour / "b" black / "w" white
DRAW: Final = "draw"  # top of the special pile to ``seat`` (-1: onto the display)
DISCARD: Final = "discard"  # ``seat`` holds 3 contracts and returns one
INCOME: Final = "income"  # ``seat`` chooses its compensation split and bonus choices
PICK: Final = "pick"  # expert draft
KEEP_ITEM: Final = "keep"  # expert objectives
SHOW: Final = "show"  # objectives to reveal at the end

#: action-space ids (dice on the board)
COINS5: Final = "coins5"
KHAN: Final = "khan"
CONTRACT_SPACE: Final = "contracts"
TRAVEL: Final = "travel"
BAG: Final = "bag"
BAZAAR_SPACE = {row: f"bazaar-{row}" for row in ("camels", "pepper", "silk", "gold")}


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``characters``: "first-game" (by seat: Raschid, Matteo, Berke, Mercator), "draft" (expert:
    players + 1 revealed, picked last seat first) or "chosen" (the setup event names each seat's
    character). ``random_city_bonuses`` and ``objectives_keep`` (deal 4, keep 2) are the other two
    expert options. ``content``: the pack id and hash the game is pinned to (checked)."""

    characters: Literal["first-game", "draft", "chosen"] = "first-game"
    random_city_bonuses: bool = False
    objectives_keep: bool = False
    content: dict[str, str] | None = None


# Marco Polo II's seat differs (jade, one VP track, seals, one goal card, pieces, caravans; no
# white die): each title keeps its own struct.
class PlayerState(msgspec.Struct, frozen=True):
    character: str | None
    coins: int
    camels: int
    pepper: int
    silk: int
    gold: int
    #: in-game VP by source (the score track)
    vp_contracts: int
    vp_cards: int
    vp_posts: int
    vp_bonuses: int
    #: figure locations (Niccolo & Marco: two)
    figures: tuple[str, ...]
    #: cities with this seat's trading post, in the order placed
    posts: tuple[str, ...]
    posts_left: int
    contracts: tuple[str, ...]
    completed: tuple[str, ...]
    #: the two kept objective cards (None: unknown to the recorder)
    objectives: tuple[str | None, ...]
    #: expert: the four dealt (None: unknown)
    dealt: tuple[str | None, ...]
    #: dice in hand: colour (Raschid: 0 = not yet set), black, white
    dice: tuple[int, ...]
    black: tuple[int, ...]
    white: tuple[int, ...]
    #: action spaces this colour used this round
    used: tuple[str, ...]
    #: this round's compensation (15 - the roll), until taken
    compensation: int = 0

    @property
    def goods(self) -> int:
        return self.pepper + self.silk + self.gold

    @property
    def vp(self) -> int:
        return self.vp_contracts + self.vp_cards + self.vp_posts + self.vp_bonuses

    @property
    def dice_left(self) -> int:
        return len(self.dice) + len(self.black) + len(self.white)


#: one die on the board: (space, value, seat (-1 neutral), kind "c" colour / "b" / "w" / "n" neutral)
Placed = tuple[str, int, int, str]


class MarcoPoloState(msgspec.Struct, frozen=True):
    players: tuple[str, ...]
    options: Options
    round: int
    phase: str
    turn: int
    start_seat: int
    main_done: bool
    bought_black: bool
    #: cities where the seat to move placed a post this turn (their cards: from the next turn)
    turn_posts: tuple[str, ...]
    #: what must be resolved before anything else, first item first
    pending: tuple[tuple[str, int, str], ...]
    seats: tuple[PlayerState, ...]
    #: per city-card space (content.CITY_CARD_SPACES)
    city_cards: tuple[str, ...]
    #: per large city (content.LARGE_CITIES); None once claimed
    outposts: tuple[str | None, ...]
    #: per small city (content.SMALL_CITIES)
    city_bonuses: tuple[str, ...]
    #: Beijing slots in arrival order (10/7/4/1 VP)
    beijing: tuple[int, ...]
    #: the contract display, column 1 first
    display: tuple[str, ...]
    #: the special pile, top first; None = a card the log has not seen
    special: tuple[str | None, ...]
    black_supply: int
    board: tuple[Placed, ...]
    #: expert draft: the tiles still on offer
    draft: tuple[str, ...]
    last_traveller: int
    #: in-game VP (the score track) per seat at the end of each finished round
    round_vp: tuple[tuple[int, ...], ...] = ()

    @property
    def n(self) -> int:
        return len(self.players)


def _neutral_board(n: int) -> tuple[Placed, ...]:
    rules = SETUP_BY_PLAYERS[n]
    board: list[Placed] = [("khan", v, -1, "n") for v in rules["khan_blocks"]]
    if rules["coins5_blocked"]:
        board.append(("coins5", 1, -1, "n"))
    return tuple(board)


def setup(players: tuple[str, ...], options: dict[str, Any] | None) -> MarcoPoloState:
    players = tuple(players)
    if not 2 <= len(players) <= 4:
        codes.bad_options(codes.PLAYER_COUNT, "Marco Polo is for 2-4 players ('Jugadores: 2-4'); got {n_players}", n_players=len(players))
    try:
        opts = msgspec.convert(dict(options or {}), Options)
    except msgspec.ValidationError as exc:
        codes.bad_options(
            codes.BAD_OPTIONS,
            "bad Marco Polo options: {exc} (known: characters first-game/draft/chosen, random_city_bonuses, objectives_keep, content)", exc=exc,
        )
    if opts.content is not None and dict(opts.content) != CONTENT_REF:
        codes.bad_options(
            codes.CONTENT_MISMATCH,
            "the game is pinned to content {content}, but this core ships {content_ref}", content=opts.content, content_ref=CONTENT_REF,
        )
    n = len(players)
    seats = tuple(
        PlayerState(
            character=None,
            coins=PACK["start_coins"][seat],
            camels=PACK["start_camels"],
            pepper=0,
            silk=0,
            gold=0,
            vp_contracts=0,
            vp_cards=0,
            vp_posts=0,
            vp_bonuses=0,
            figures=("VEN",),
            posts=(),
            posts_left=PACK["posts"],
            contracts=(),
            completed=(),
            objectives=(None, None),
            dealt=(),
            dice=(),
            black=(),
            white=(),
            used=(),
        )
        for seat in range(n)
    )
    return MarcoPoloState(
        players=players,
        options=opts,
        round=0,
        phase=SETUP,
        turn=0,
        start_seat=0,
        main_done=False,
        bought_black=False,
        turn_posts=(),
        pending=(),
        seats=seats,
        city_cards=(),
        outposts=(),
        city_bonuses=(),
        beijing=(),
        display=(),
        special=(None,) * (len(PACK["contracts"]) - 6 - 5 * PACK["contract_display"]),
        black_supply=SETUP_BY_PLAYERS[n]["black_dice"],
        board=_neutral_board(n),
        draft=(),
        last_traveller=-1,
    )
