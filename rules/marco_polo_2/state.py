"""The game state (immutable msgspec Structs that round-trip msgpack), options and setup.

Seats are listed clockwise from the first start player (seat 0). Seat colours, in seat order:
blue, red, yellow, green (ruling MP2-12: Donata Badoer's three pieces are the other three colours).
"""

from __future__ import annotations

from typing import Any, Final, Literal

import msgspec

from rules.marco_polo_2 import codes
from rules.marco_polo_2.content import BUILTIN, PACKS, PUBLIC, Pack, PackError, with_id
from events.messages import phrase

#: phases
SETUP: Final = "setup"  # waiting for the table's layout (SetupDealt)
PICKS: Final = "picks"  # characters picked (CharacterPicked), then goal cards kept (GoalKept)
ROUND: Final = "round"  # waiting for the round's reveals (RoundRevealed)
ROLL: Final = "roll"  # waiting for the round roll (DiceRolled)
PLAY: Final = "play"  # turns (and round-start choices, pending items)
REVEAL: Final = "reveal"  # after the last round: unknown goal cards to be shown
OVER: Final = "over"

#: pending items: (kind, seat, arg)
PICK: Final = "pick"
KEEP: Final = "keep"
INCOME: Final = "income"
ROLL_DIE: Final = "roll"  # arg "b" a black die taken / "rb" a black die rerolled / "c" a colour die rerolled
REFILL: Final = "refill"  # arg: the city whose contract space is empty, or HAND
#: the arg of a REFILL drawn into the seat's hand (a "contract_pile" reward icon): ``refill hand K07``
HAND: Final = "hand"
SHOW: Final = "show"

COLOURS: Final = ("blue", "red", "yellow", "green")
COLOUR_INITIAL: Final = {"B": "blue", "R": "red", "Y": "yellow", "G": "green"}

#: action spaces
KHAN: Final = "khan"
CONTRACTS_SPACE: Final = "contracts"
GUILD: Final = "guild"
BAG: Final = "bag"
TRAVEL_SPACE = {1: "travel-1", 2: "travel-2", 3: "travel-3"}
BOOK_SPACE = {1: "book-1", 2: "book-2", 3: "book-3"}
AREA: Final = ("area1", "area2")


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``characters``: "offer" (players + 1 revealed, picked in turn: the seed's "選択 ... 次のプレイヤーに
    残ったカードを回します"), "all" (the variant: picked from every character) or "chosen" (the setup
    event names each seat's character). ``caravans``: the caravan expansion (its route tiles and 4
    characters). ``black_dice_variant``: black dice rolled at round start. ``content``: the pack id
    and hash the game is pinned to (default: the public pack). ``grow_pack``: whether the
    components described in this game join the store's working pack (read by the store, never
    by the rules)."""

    characters: Literal["offer", "all", "chosen"] = "offer"
    caravans: bool = False
    black_dice_variant: bool = False
    content: dict[str, str] | None = None
    grow_pack: bool = True


class PlayerState(msgspec.Struct, frozen=True):
    character: str | None
    coins: int
    camels: int
    pepper: int
    silk: int
    gold: int
    jade: int
    #: the score track (VP scored during the game)
    vp: int
    figures: tuple[str, ...]
    #: cities with this seat's trading post, in the order placed
    posts: tuple[str, ...]
    posts_left: int
    contracts: tuple[str, ...]
    completed: tuple[str, ...]
    seals: tuple[str, ...]
    improved: tuple[str, ...]
    goal: str | None
    dealt: tuple[str | None, ...]
    dice: tuple[int, ...]
    black: tuple[int, ...]
    #: Donata Badoer's pieces not yet used (colours)
    pieces: tuple[str, ...]
    used: tuple[str, ...]
    compensation: int = 0
    #: caravans: (route tile, location, loaded goods); location "" = not started
    caravans: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    #: Filippo Vitello's kept outpost tiles
    tiles: tuple[str, ...] = ()

    @property
    def dice_left(self) -> int:
        return len(self.dice) + len(self.black)


#: one die on the board: (space, value, seat (-1 neutral), kind "c" colour / "b" black / "p" piece / "n")
Placed = tuple[str, int, int, str]


class MP2State(msgspec.Struct, frozen=True):
    players: tuple[str, ...]
    options: Options
    #: the pinned pack's hash (``pack_of`` finds it in the registry)
    pack: str
    round: int
    phase: str
    turn: int
    start_seat: int
    main_done: bool
    bought_black: bool
    traded: bool
    turn_posts: tuple[str, ...]
    pending: tuple[tuple[str, int, str], ...]
    seats: tuple[PlayerState, ...]
    offered: tuple[str, ...]
    #: the board as laid out: (city, id)
    bonuses: tuple[tuple[str, str], ...]
    outposts: tuple[tuple[str, str], ...]
    cards: tuple[tuple[str, str], ...]
    #: one (city, contract) per occupied contract space
    city_contracts: tuple[tuple[str, str], ...]
    area_cards: tuple[str, ...]
    offers: tuple[str, ...]
    upcoming: tuple[str, ...]
    used_offers: tuple[str, ...]
    used_cards: tuple[str, ...]
    #: contracts of the pile seen so far (laid on contract spaces; never to reappear)
    seen: tuple[str, ...]
    black_supply: int
    black_pool: tuple[int, ...]
    board: tuple[Placed, ...]
    #: (travel row, seat) of the last travel on the highest row used this round
    start_claim: tuple[int, int]
    tiles_up: tuple[str, ...]
    tiles_down: tuple[str, ...]
    #: components described at the table: (kind, id, spec as canonical JSON)
    described: tuple[tuple[str, str, str], ...] = ()
    round_vp: tuple[tuple[int, ...], ...] = ()
    #: the components the last step described or used from descriptions ("kind:id"), for replay
    resting: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        return len(self.players)


def pack_of(state: MP2State) -> Pack:
    """The pack the game is pinned to."""
    pack = PACKS.get(state.pack)
    if pack is None:  # a snapshot folded before states named their pack by hash names it by id
        named = with_id(state.pack)
        if len(named) != 1:
            raise KeyError(state.pack)
        pack = named[0]
    return pack


def _pack_for(opts: Options) -> Pack:
    """The pinned pack: by hash (the id must match it), or by id alone when one known pack has it."""
    if opts.content is None:
        return PUBLIC
    ref = dict(opts.content)
    pack_id, pack_hash = ref.get("id"), ref.get("hash")
    if pack_hash is not None:
        pack = PACKS.get(pack_hash)
        if pack is None:
            codes.bad_options(
                codes.CONTENT_MISMATCH, "the game is pinned to {ref}, a Marco Polo II content pack this store does not hold", ref=ref
            )
        if pack_id is not None and pack_id != pack.id:
            codes.bad_options(codes.CONTENT_MISMATCH, "the game is pinned to {ref}, but hash {pack_hash} is pack {pack_id!r}", ref=ref, pack_hash=pack_hash, pack_id=pack.id)
        return pack
    named = with_id(str(pack_id or ""))
    shipped = [p for p in named if p in BUILTIN]
    if shipped:  # a shipped pack's id is its own: a game that names it by id alone keeps it
        return shipped[0]
    if len(named) != 1:
        known = ", ".join(sorted({p.id for p in PACKS.values()}))
        why = phrase("why/unknown-pack", "unknown") if not named else phrase("why/packs-share-id", "{n_named} packs have the id; name its hash too", n_named=len(named))
        codes.bad_options(codes.CONTENT_MISMATCH, "Marco Polo II content pack {pack_id!r}: {why} (known: {known})", pack_id=pack_id, why=why, known=known)
    return named[0]


def neutral_board(pack: Pack, n: int) -> tuple[Placed, ...]:
    rules = pack.neutral.get(n, {})
    board: list[Placed] = [(KHAN, v, -1, "n") for v in rules.get("khan", ())]
    if rules.get("special"):
        board += [(f"special:{c}", rules["special"], -1, "n") for c in ("baghdad", "balkh", "hormuz")]
    return tuple(board)


def setup(players: tuple[str, ...], options: dict[str, Any] | None) -> MP2State:
    players = tuple(players)
    if not 2 <= len(players) <= 4:
        codes.bad_options(codes.PLAYER_COUNT, "Marco Polo II is for 2-4 players; got {n_players}", n_players=len(players))
    try:
        opts = msgspec.convert(dict(options or {}), Options)
    except msgspec.ValidationError as exc:
        codes.bad_options(
            codes.BAD_OPTIONS,
            "bad Marco Polo II options: {exc} (known: characters offer/all/chosen, caravans, black_dice_variant, content)", exc=exc,
        )
    pack = _pack_for(opts)
    n = len(players)
    seats = tuple(
        PlayerState(
            character=None, coins=pack.start.get("coins", 0), camels=pack.start.get("camels", 0), pepper=0, silk=0,
            gold=0, jade=0, vp=0, figures=(pack.start_city,), posts=(), posts_left=pack.posts, contracts=(),
            completed=(), seals=(), improved=(), goal=None, dealt=(), dice=(), black=(), pieces=(), used=(),
        )
        for _ in range(n)
    )
    return MP2State(
        players=players, options=opts, pack=pack.hash, round=0, phase=SETUP, turn=0, start_seat=0, main_done=False,
        bought_black=False, traded=False, turn_posts=(), pending=(), seats=seats, offered=(), bonuses=(), outposts=(),
        cards=(), city_contracts=(), area_cards=(), offers=(), upcoming=(), used_offers=(), used_cards=(), seen=(),
        black_supply=pack.black_dice[n], black_pool=(), board=neutral_board(pack, n), start_claim=(0, -1),
        tiles_up=(), tiles_down=(),
    )


__all__ = ["MP2State", "Options", "PackError", "PlayerState", "pack_of", "setup"]
