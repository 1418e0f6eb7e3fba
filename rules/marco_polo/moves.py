"""Legal moves for the seat to act, as completed events with every choice explicit (a picker).

Listed: for the round-start and pending decisions, every option (compensation splits, bonus
choices, which contract to return, draft picks, objective pairs). For a turn: every main action
(take 5 coins, each bazaar row and column, Khan's favor with each good, contracts by column with
the needed returns and coin/camel choices, travel, each usable city card and repetition count)
with each distinct set of dice, then the bonus actions (each active contract that can be paid,
3 coins, reroll, +/-1, a black die) and the end of the turn.

To keep the list finite and short, equivalent moves are listed once: travel lists, per set of dice,
number of steps and end (per figure), the cheapest walk (Wilhelm von Rubruk: per set of cities
passed; Niccolo & Marco Polo's split moves: per pair of ends and split of the steps, the cheapest
pair of walks); Raschid's dice in one action share one value; two different goods are listed in the
order pepper < silk < gold. ``decide`` accepts the unlisted equivalents too.
Every listed move is accepted by ``decide``: each is checked by the strict transition.
"""

from __future__ import annotations

from itertools import combinations

from events.base import Event
from events.errors import IllegalMove
from rules.marco_polo import codes
from rules.marco_polo.content import (
    ADJACENT, BAZAAR, CITY_BONUSES, CITY_CARD_SPACES, CITY_CARDS, OUTPOST_BONUSES, GOODS, OASES, POST_CITIES,
    ROUTE_COST, SPACE_CITY, TRAVEL_COST,
)
from rules.marco_polo.decide import check
from rules.marco_polo_common.moves import legal_moves as pending_or_turn_moves
from rules.marco_polo.events import (
    BazaarUsed, BlackDieBought, CharacterPicked, CityCardUsed, ContractCompleted, ContractDiscarded,
    ContractsTaken, DieAdjusted, DieRerolled, FiveCoinsTaken, IncomeTaken, KhansFavorTaken, MoneyBagTaken,
    ObjectivesKept, Travelled, TurnEnded,
)
from rules.marco_polo.state import (
    BAZAAR_SPACE,
    COINS5,
    TRAVEL,
    CONTRACT_SPACE,
    DISCARD,
    INCOME,
    KEEP_ITEM,
    KHAN,
    PICK,
    MarcoPoloState,
    PlayerState,
)
from rules.marco_polo.views import to_move


def expand(state: MarcoPoloState, make, prefix: tuple[str, ...] = (), out: list | None = None, depth: int = 0) -> list:
    """Every completion of ``make(choices)`` that the strict transition accepts."""
    if out is None:
        out = []
    event = make(prefix)
    try:
        check(state, event)
    except IllegalMove as exc:
        if exc.code == codes.MISSING_CHOICE and depth < 12:
            cands = exc.details.get("candidates", ())
            if cands is GOODS and prefix and prefix[-1] in GOODS:
                # consecutive goods (a repeated city card): one order per multiset
                cands = GOODS[GOODS.index(prefix[-1]) :]
            for c in cands:
                expand(state, make, prefix + (c,), out, depth + 1)
        return out
    out.append(event)
    return out


def die_tokens(p: PlayerState) -> list[str]:
    """The dice a seat holds, as tokens with multiplicity (Raschid's unset dice: '0')."""
    toks = [str(v) for v in p.dice]
    toks += [f"b{v}" for v in p.black]
    toks += [f"w{v}" for v in p.white]
    return toks


def dice_sets(p: PlayerState, k: int) -> list[tuple[str, ...]]:
    held = die_tokens(p)
    raschid = p.character == "raschid"
    out = set()
    for combo in combinations(held, k):
        unset = sum(1 for t in combo if t == "0")
        rest = tuple(t for t in combo if t != "0")
        if raschid and unset:
            for v in range(1, 7):
                out.add(tuple(sorted(rest + (str(v),) * unset)))
        else:
            out.add(tuple(sorted(combo)))
    return sorted(out)


def low(dice: tuple[str, ...]) -> int:
    return min(int(t[-1]) for t in dice)


def walks(state: MarcoPoloState, p: PlayerState, fig: int, max_steps: int) -> list[tuple[str, ...]]:
    """Per (steps, end) the cheapest walk by route extras (Wilhelm: per set of new post cities too),
    layer by layer."""
    start = p.figures[fig]
    carpini = p.character == "carpini"
    wilhelm = p.character == "wilhelm"
    frontier: dict = {(start, frozenset()): (0, 0, ())}
    out: list[tuple[str, ...]] = []
    for _ in range(max_steps):
        nxt: dict = {}
        for (here, passed), (coins, camels, path) in frontier.items():
            near = ADJACENT[here]
            if carpini and here in OASES:
                near = near + tuple(o for o in OASES if o != here and o not in near)
            for there in near:
                c = ROUTE_COST.get((here, there), _FREE)
                nc = coins + c.get("coins", 0)
                nm = camels + c.get("camels", 0)
                if nm > p.camels or nc > p.coins:
                    continue
                key = (there, passed | {there} if wilhelm and there in POST_CITIES and there not in p.posts else passed)
                cand = (nc, nm, path + (there,))
                old = nxt.get(key)
                if old is None or (cand[0] + cand[1], cand[2]) < (old[0] + old[1], old[2]):
                    nxt[key] = cand
        out.extend(v[2] for v in nxt.values())
        frontier = nxt
    return out


_FREE: dict = {}


def _placeable(state: MarcoPoloState, p: PlayerState, space: str, dice: tuple[str, ...], occupied: set) -> int | None:
    """The fee to place ``dice`` on ``space`` (None: the colour rule forbids it)."""
    if space in p.used and any(t[0].isdigit() for t in dice):
        return None
    if space in occupied and p.character != "berke":
        return low(dice)
    return 0


_CHOICE = ("good", "goods2", "coin_or_camel", "move", "any_bonus", "own_bonus")


def _needs_choice(items) -> bool:
    return any(kind in _CHOICE for kind, _ in items)


def _arrival_needs_choice(state: MarcoPoloState, p: PlayerState, city: str) -> bool:
    from rules.marco_polo.engine import LARGE_INDEX, SMALL_INDEX

    if city in p.posts or p.posts_left <= 0:
        return False
    if city in SMALL_INDEX:
        return _needs_choice(CITY_BONUSES[state.city_bonuses[SMALL_INDEX[city]]]["effect"])
    if city in LARGE_INDEX:
        tile = state.outposts[LARGE_INDEX[city]]
        return tile is not None and _needs_choice(OUTPOST_BONUSES[tile]["effect"])
    return False


def _route_totals(p: PlayerState, path: tuple[str, ...], fig: int) -> tuple[int, int]:
    here = p.figures[fig]
    coins = camels = 0
    for there in path:
        c = ROUTE_COST.get((here, there), _FREE)
        coins += c.get("coins", 0)
        camels += c.get("camels", 0)
        here = there
    return coins, camels


def _split_walks(state: MarcoPoloState, p: PlayerState, per_fig: list) -> list:
    """Niccolo's walks per figure, as (steps, path, coins, camels, needs a choice) (MP-21)."""
    out = []
    for fig, ws in enumerate(per_fig):
        rows = []
        for path in ws:
            coins, camels = _route_totals(p, path, fig)
            rows.append((len(path), path, coins, camels, _arrival_needs_choice(state, p, path[-1])))
        rows.sort(key=lambda r: r[0])
        out.append(rows)
    return out


def _split_travels(state: MarcoPoloState, p: PlayerState, dice: tuple[str, ...], m: int, fee: int, split: list) -> list:
    """Niccolo & Marco Polo's travels that move both figures (MP-21): per pair of ends and split of
    the steps, the cheapest pair of walks (the total steps set the cost)."""
    seat = state.turn
    out: list = []
    first, second = split
    for k1, path, c1, m1, x1 in first:
        if k1 >= m:
            break
        for k2, path2, c2, m2, x2 in second:
            if k1 + k2 > m:
                break
            if c1 + c2 + fee + TRAVEL_COST[k1 + k2] > p.coins or m1 + m2 > p.camels:
                continue
            if x1 or x2:
                out += expand(
                    state,
                    lambda ch, a=path, b=path2: Travelled(dice=dice, path=a, path2=b, choices=ch, seat=seat),
                )
            else:
                out.append(Travelled(dice=dice, path=path, path2=path2, seat=seat))
    return out


def _turn_moves(state: MarcoPoloState) -> list[Event]:
    seat = state.turn
    p = state.seats[seat]
    moves: list[Event] = []
    singles = dice_sets(p, 1)
    occupied = {x[0] for x in state.board}
    if not state.main_done and (p.dice or p.black or p.white):
        for (t,) in singles:
            fee = _placeable(state, p, COINS5, (t,), occupied)
            if fee is not None and fee <= p.coins:
                moves.append(FiveCoinsTaken(die=t, seat=seat))
        for row, spec in BAZAAR.items():
            space = BAZAAR_SPACE[row]
            for dice in dice_sets(p, spec["dice"]):
                fee = _placeable(state, p, space, dice, occupied)
                if fee is None or fee > p.coins:
                    continue
                for column in range(1, low(dice) + 1):
                    if _needs_choice(spec["columns"][column - 1]):
                        moves += expand(
                            state, lambda ch, r=row, d=dice, c=column: BazaarUsed(row=r, dice=d, column=c, choices=ch, seat=seat)
                        )
                    else:
                        moves.append(BazaarUsed(row=row, dice=dice, column=column, seat=seat))
        khan = [x for x in state.board if x[0] == KHAN]
        if len(khan) < 4 and not (KHAN in p.used and not (p.black or p.white)):
            for (t,) in singles:
                if khan and int(t[-1]) < khan[-1][1]:
                    continue
                if _placeable(state, p, KHAN, (t,), set()) is None:
                    continue
                for g in GOODS:
                    moves.append(KhansFavorTaken(die=t, good=g, seat=seat))
        if state.display:
            for (t,) in singles:
                reach = min(int(t[-1]), len(state.display))
                col_sets = [(c,) for c in range(1, reach + 1)] + list(combinations(range(1, reach + 1), 2))
                fee = _placeable(state, p, CONTRACT_SPACE, (t,), occupied)
                if fee is None or fee > p.coins:
                    continue
                for cols in col_sets:
                    need = max(0, len(p.contracts) + len(cols) - 2)
                    for discard in combinations(p.contracts, need):
                        if max(cols) < 5:
                            moves.append(ContractsTaken(die=t, columns=cols, discard=discard, seat=seat))
                            continue
                        moves += expand(
                            state,
                            lambda ch, t=t, cols=cols, dis=discard: ContractsTaken(
                                die=t, columns=cols, choices=ch, discard=dis, seat=seat
                            ),
                        )
        pairs = dice_sets(p, 2)
        if pairs:
            top = max(low(d) for d in pairs)
            per_fig = [walks(state, p, fig, top) for fig in range(len(p.figures))]
            wilhelm = p.character == "wilhelm"
            split = _split_walks(state, p, per_fig) if len(per_fig) == 2 else None
            for dice in pairs:
                m = low(dice)
                fee = _placeable(state, p, TRAVEL, dice, occupied)
                if fee is None or p.coins < TRAVEL_COST[1] + fee:
                    continue
                for fig, ws in enumerate(per_fig):
                    for path in ws:
                        if len(path) > m:
                            continue
                        if not wilhelm and not _arrival_needs_choice(state, p, path[-1]):
                            coins, camels = _route_totals(p, path, fig)
                            if coins + fee + TRAVEL_COST[len(path)] <= p.coins and camels <= p.camels:
                                moves.append(
                                    Travelled(dice=dice, path=() if fig else path, path2=path if fig else (), seat=seat)
                                )
                            continue
                        moves += expand(
                            state,
                            lambda ch, d=dice, path=path, fig=fig: Travelled(
                                dice=d, path=() if fig else path, path2=path if fig else (), choices=ch, seat=seat
                            ),
                        )
                if split:
                    moves += _split_travels(state, p, dice, m, fee, split)
        used = {x[0] for x in state.board}
        for i, space in enumerate(CITY_CARD_SPACES):
            if SPACE_CITY[space] not in p.posts or "card:" + space in used or SPACE_CITY[space] in state.turn_posts:
                continue
            card = CITY_CARDS[state.city_cards[i]]
            for (t,) in singles:
                v = int(t[-1])
                if card["kind"] in ("exchange", "two_way"):
                    limit = v
                elif card["kind"] == "own_bonus":
                    limit = max(n for lo, n in card["steps"] if v >= lo)
                else:
                    limit = 1
                for times in range(1, limit + 1):
                    moves += expand(
                        state, lambda ch, sp=space, t=t, k=times: CityCardUsed(space=sp, die=t, times=k, choices=ch, seat=seat)
                    )
    # bonus actions
    for k in p.contracts:
        moves += expand(state, lambda ch, k=k: ContractCompleted(contract=k, choices=ch, seat=seat))
    for (t,) in singles:
        moves.append(MoneyBagTaken(die=t, seat=seat))
    raschid = p.character == "raschid"
    held = sorted(set(die_tokens(p)))
    if p.camels >= 1:
        for t in held:
            if t != "0" and not (raschid and t[0].isdigit()):
                moves.append(DieRerolled(die=t, seat=seat))
    if p.camels >= 2:
        for t in held:
            if t == "0" or (raschid and t[0].isdigit()):
                continue
            v = int(t[-1])
            if v < 6:
                moves.append(DieAdjusted(die=t, delta=1, seat=seat))
            if v > 1:
                moves.append(DieAdjusted(die=t, delta=-1, seat=seat))
    if p.camels >= 3 and not state.bought_black and state.black_supply > 0:
        moves.append(BlackDieBought(seat=seat))
    if state.main_done or not (p.dice or p.black or p.white):
        moves.append(TurnEnded(seat=seat))
    return moves


def _income_moves(state: MarcoPoloState, seat: int) -> list[Event]:
    due = state.seats[seat].compensation
    out: list[Event] = []
    for coins in range(due, -1, -1):
        out += expand(state, lambda ch, c=coins: IncomeTaken(coins=c, camels=due - c, choices=ch, seat=seat))
    return out


def _objectives_kept(state: MarcoPoloState, seat: int, p) -> list[Event]:
    if None in p.dealt:
        return [ObjectivesKept(objectives=(None, None), seat=seat)]
    return [ObjectivesKept(objectives=pair, seat=seat) for pair in combinations(p.dealt, 2)]


#: the moves answering each pending item a seat decides
PENDING_MOVES = {
    INCOME: lambda state, seat, p: _income_moves(state, seat),
    DISCARD: lambda state, seat, p: [ContractDiscarded(contract=k, seat=seat) for k in p.contracts],
    PICK: lambda state, seat, p: [CharacterPicked(character=c, seat=seat) for c in state.draft],
    KEEP_ITEM: _objectives_kept,
}


def legal_moves(state: MarcoPoloState) -> list[Event]:
    return pending_or_turn_moves(state, to_move, PENDING_MOVES, _turn_moves)
