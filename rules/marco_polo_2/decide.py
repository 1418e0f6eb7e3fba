"""Validating moves into completed events, and the one transition ``decide`` and ``evolve`` share.

``decide(state, move)`` completes the move (the seat filled in), checks the phase and whose decision
it is, then runs the transition strictly on a scratch copy (``engine``): the first broken rule
raises, naming it. It returns exactly one event; a stored event passed back returns itself.
"""

from __future__ import annotations

from collections import Counter

from msgspec.structs import replace

from events.base import Event
from rules.marco_polo_common import compensation
from rules.marco_polo_2 import codes, engine
from rules.marco_polo_2.engine import Work, component
from rules.marco_polo_2.events import (
    BlackDieBought, BookUsed, CaravanConquered, CaravanStarted, CharacterPicked, CityCardUsed, ContractCompleted,
    ContractRevealed, ContractsTaken, DiceRolled, DieAdjusted, DieRerolled, DieRolled, GoalKept, GoalRevealed,
    GoodsTraded, GuildTaken, IncomeTaken, KhansFavorTaken, MoneyBagTaken, OutpostTileUsed, RoundRevealed,
    SealImproved, SetupDealt, SpecialCityUsed, Travelled, TurnEnded,
)
from rules.marco_polo_2.state import (
    HAND, INCOME, KEEP, OVER, PICK, PICKS, PLAY, REFILL, REVEAL, ROLL, ROLL_DIE, ROUND, SETUP, SHOW, MP2State, pack_of,
)
from events.messages import Phrase, phrase

Q_ONE_MAIN = '"少なくともダイスを１つ自分のボードから取り、アクションマスを１つ選択して置き実行します。"'
Q_MUST = '"手番プレイヤーは、ダイスがある限り、必ず本アクションを行わなければなりません。"'
PENDING_TEXT = {
    PICK: "{who} picks a character",
    KEEP: "{who} keeps 1 of 3 goal cards",
    INCOME: "{who}'s round-start choices: compensation split, doubled bonus, doubles",
    ROLL_DIE: "the value of the die just {arg} by {who}",
    REFILL: "the contract refilled in {arg}",
    SHOW: "{who}'s goal card, shown at the end",
}


def who(state: MP2State, seat: int) -> str | Phrase:
    return state.players[seat] if 0 <= seat < len(state.players) else phrase("who/table", "the table")


def describe_pending(state: MP2State) -> Phrase:
    kind, seat, arg = state.pending[0]
    if kind == ROLL_DIE:
        arg = phrase("pending/taken-black", "taken (black)") if arg == "b" else phrase("pending/rerolled-black", "rerolled (black)") if arg == "rb" else phrase("pending/rerolled", "rerolled")
    return Phrase(f"pending/marco-polo-2/{kind}", PENDING_TEXT[kind], dict(who=who(state, seat), arg=arg))


def _check_seat(state: MP2State, seat: object) -> None:
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n):
        codes.illegal(codes.UNKNOWN_SEAT, "seat {seat!r} is not a seat of this game (0..{state_n_minus})", seat=seat, state_n_minus=state.n - 1)


def _not_over(state: MP2State) -> None:
    if state.phase == OVER:
        codes.illegal(codes.GAME_OVER, "{rule}", rule="\"全５ラウンドでゲーム終了\"")


def _phase_message(state: MP2State) -> str:
    if state.phase == SETUP:
        return phrase("msg/layout-first", "the table's layout comes first")
    if state.phase == ROUND:
        return phrase("msg/reveals-first", "round {round_plus}'s reveals come first", round_plus=state.round + 1)
    if state.phase == ROLL:
        return phrase("msg/dice-first-2", "round {round}'s dice must be rolled first: {rule}", round=state.round, rule="\"全てのプレイヤーは自分のダイスを振ります\"")
    if state.phase == REVEAL:
        return phrase("msg/rounds-over-2", "the five rounds are over; only goal cards remain to be shown")
    if state.pending:
        return phrase("msg/first", "first: {describe_pending}", describe_pending=describe_pending(state))
    return phrase("msg/not-expected", "not expected in phase {phase}", phase=state.phase)


def _turn_seat(state: MP2State, seat: object, what: str) -> int:
    _not_over(state)
    _check_seat(state, seat)
    if state.phase != PLAY or state.pending:
        codes.illegal(codes.PENDING_FIRST if state.pending else codes.NOT_EXPECTED, "cannot {what}: {phase_message}", what=what, phase_message=_phase_message(state))
    if seat is not None and seat != state.turn:
        codes.illegal(codes.NOT_YOUR_TURN, "it is {player}'s turn, not {player2}'s: {rule}", player=who(state, state.turn), player2=who(state, seat), rule="\"時計回りで次のプレイヤーの手番になります\"")
    return state.turn


def _pending_seat(state: MP2State, kind: str, seat: object, what: str) -> int:
    _not_over(state)
    _check_seat(state, seat)
    if not state.pending or state.pending[0][0] != kind:
        codes.illegal(codes.PENDING_FIRST if state.pending else codes.NOT_EXPECTED, "cannot {what}: {phase_message}", what=what, phase_message=_phase_message(state))
    owner = state.pending[0][1]
    if seat is not None and seat != owner and kind not in (REFILL,):
        codes.illegal(codes.NOT_YOUR_TURN, "{what}: this is {player}'s, not {player2}'s", what=what, player=who(state, owner), player2=who(state, seat))
    return owner


def _main(state: MP2State, seat: object, what: str) -> int:
    seat = _turn_seat(state, seat, what)
    if state.main_done:
        codes.illegal(codes.ONE_MAIN_ACTION, "{player} already took this turn's main action: {rule}", player=who(state, seat), rule=Q_ONE_MAIN)
    if not engine.has_dice(state.seats[seat]):
        codes.illegal(codes.PIECE_RULE, "{player} holds no die: the turn ends ({rule})", player=who(state, seat), rule="\"もしすべてのダイスを使っていた場合ターン終了になる。(その時点でのコマアクションはできない)\"")
    return seat


def _distinct(values, what: str) -> None:
    dup = [v for v, k in Counter(v for v in values if v is not None).items() if k > 1]
    if dup:
        codes.contradiction(codes.DUPLICATE_COMPONENT, "{what}: {map} appear(s) twice", what=what, map=', '.join(map(str, dup)))


# --- setup --------------------------------------------------------------------------------------


def characters_available(state: MP2State) -> tuple[str, ...]:
    pack = pack_of(state)
    return pack.characters + (pack.caravan_characters if state.options.caravans else ())


def _decide_setup(state: MP2State, e: SetupDealt) -> SetupDealt:
    _not_over(state)
    if state.phase != SETUP:
        codes.illegal(codes.NOT_EXPECTED, "the table is already laid out (SetupDealt comes once, first)")
    n = state.n
    chars = characters_available(state)
    mode = state.options.characters
    if mode == "chosen":
        if len(e.characters) != n or e.offered:
            codes.illegal(codes.SETUP_SHAPE, "option characters=chosen: one character per seat ({n}), none offered", n=n)
        offered = ()
    else:
        if e.characters:
            codes.illegal(codes.SETUP_SHAPE, "characters are picked (CharacterPicked), not dealt to seats")
        offered = tuple(e.offered) if mode == "offer" else (tuple(e.offered) or chars)
        want = n + 1 if mode == "offer" else len(chars)
        if len(offered) != want:
            codes.illegal(codes.SETUP_SHAPE, "{want} characters on offer ({mode_is_offer:?players + 1|every character: すべてのキャラクターから選択する}), not {n_offered}", want=want, mode_is_offer=mode == 'offer', n_offered=len(offered))
    for c in tuple(e.characters) + offered:
        if c not in chars:
            codes.illegal(codes.UNKNOWN_ID, "{c!r} is not a character of this game ({chars})", c=c, chars=', '.join(chars))
    _distinct(tuple(e.characters) + offered, "characters")
    starting = tuple(e.starting_contracts) or (None,) * n
    goals = tuple(tuple(g) for g in e.goals) or tuple((None, None, None) for _ in range(n))
    if len(starting) != n or len(goals) != n or any(len(g) != 3 for g in goals):
        codes.illegal(codes.SETUP_SHAPE, "one starting contract and 3 goal cards per seat ({n}): {rule}", n=n, rule="\"任務カードを３枚引き\"")
    if not state.options.caravans and e.route_tiles:
        codes.illegal(codes.CARAVANS_OFF, "route tiles are laid out only with the caravan expansion")
    _distinct(list(starting) + [k for _, k in e.contracts], "contracts")
    _distinct([g for gs in goals for g in gs], phrase("what/goal-cards", "goal cards"))
    for pairs, what in ((e.bonuses, phrase("what/bonus-markers", "bonus markers")), (e.outposts, phrase("what/outpost-tiles", "outpost tiles")), (e.cards, phrase("what/city-cards", "city cards"))):
        _distinct([i for _, i in pairs], what)
    _distinct(e.route_tiles, phrase("what/route-tiles", "route tiles"))
    return replace(e, offered=offered, starting_contracts=starting, goals=goals, characters=tuple(e.characters))


def _apply_setup(w: Work, e: SetupDealt) -> None:
    s = w.s
    pack = w.pack
    if w.strict:
        for city, k in e.contracts:
            spec = component(w, "contract", k)
            if spec.get("starting"):
                codes.illegal(codes.SETUP_SHAPE, "{k} is a starting contract, not for a city's contract space", k=k)
        for k in e.starting_contracts:
            if k is not None and not component(w, "contract", k).get("starting"):
                codes.illegal(codes.SETUP_SHAPE, "{k} is not a starting contract", k=k)
        for kind, pairs in (("city_bonus", e.bonuses), ("outpost", e.outposts), ("city_card", e.cards)):
            for _, cid in pairs:
                component(w, kind, cid)
        for g in (g for gs in e.goals for g in gs if g is not None):
            component(w, "goal", g)
        for t in e.route_tiles:
            component(w, "route_tile", t)
        if pack.slots:  # a pack with the map: the layout must fill its spaces
            for slot, pairs, per in (("bonus", e.bonuses, 1), ("outpost", e.outposts, 1), ("card", e.cards, 1), ("contracts", e.contracts, 2)):
                cities = pack.cities_with(slot)
                if cities and sorted(c for c, _ in pairs) != sorted(c for c in cities for _ in range(per)):
                    codes.illegal(codes.SETUP_SHAPE, "{slot}: the pack's spaces are {cities} ({per} each), not {value}", slot=slot, cities=list(cities), per=per, value=[c for c, _ in pairs])
    w.f["offered"] = tuple(e.offered)
    w.f["bonuses"] = tuple(tuple(p) for p in e.bonuses)
    w.f["outposts"] = tuple(tuple(p) for p in e.outposts)
    w.f["cards"] = tuple(tuple(p) for p in e.cards)
    w.f["city_contracts"] = tuple(tuple(p) for p in e.contracts)
    w.f["seen"] = tuple(k for _, k in e.contracts)
    w.f["used_cards"] = tuple(c for _, c in e.cards)
    w.f["tiles_up"] = tuple(e.route_tiles)
    for seat in range(s.n):
        d = w.p(seat)
        k = e.starting_contracts[seat]
        d.contracts = (k,) if k is not None else ()
        d.dealt = tuple(e.goals[seat])
        if e.characters:
            d.character = e.characters[seat]
            engine.character_start(w, seat)
    w.f["phase"] = PICKS
    if e.characters:
        w.f["pending"] = tuple((KEEP, seat, "") for seat in range(s.n))
    else:  # "キャラクターを１枚選択し ... その後次のプレイヤーに残ったカードを回します。"
        w.f["pending"] = tuple((PICK, seat, "") for seat in range(s.n)) + tuple((KEEP, seat, "") for seat in range(s.n))


def _decide_pick(state: MP2State, e: CharacterPicked) -> CharacterPicked:
    seat = _pending_seat(state, PICK, e.seat, phrase("what/pick-character", "pick a character"))
    if e.character not in state.offered:
        codes.illegal(codes.NOT_OFFERED, "{character!r} is not on offer ({offered})", character=e.character, offered=list(state.offered))
    return replace(e, seat=seat)


def _apply_pick(w: Work, e: CharacterPicked) -> None:
    w.p(e.seat).character = e.character
    engine.character_start(w, e.seat)
    w.f["offered"] = tuple(c for c in w.s.offered if c != e.character)
    w.f["pending"] = w.s.pending[1:]


def _decide_keep(state: MP2State, e: GoalKept) -> GoalKept:
    seat = _pending_seat(state, KEEP, e.seat, phrase("what/keep-goal", "keep a goal card"))
    dealt = state.seats[seat].dealt
    if e.goal is not None and None not in dealt and e.goal not in dealt:
        codes.contradiction(codes.GOAL_MISMATCH, "{goal} was not among {player}'s three goal cards {dealt}", goal=e.goal, player=who(state, seat), dealt=list(dealt))
    if e.goal is not None and any(e.goal in p.dealt for i, p in enumerate(state.seats) if i != seat):
        codes.contradiction(codes.GOAL_MISMATCH, "{goal} is another seat's goal card", goal=e.goal)
    return replace(e, seat=seat)


def _apply_keep(w: Work, e: GoalKept) -> None:
    if e.goal is not None:
        component(w, "goal", e.goal)
    w.p(e.seat).goal = e.goal
    w.f["pending"] = w.s.pending[1:]
    if len(w.s.pending) == 1:
        w.f["phase"] = ROUND


def _decide_goal_revealed(state: MP2State, e: GoalRevealed) -> GoalRevealed:
    _check_seat(state, e.seat)
    if e.seat is None:
        codes.illegal(codes.UNKNOWN_SEAT, "say whose goal card is shown")
    if state.phase in (SETUP, PICKS):
        codes.illegal(codes.NOT_EXPECTED, "goal cards can be shown once they are kept")
    p = state.seats[e.seat]
    if p.goal is not None and p.goal != e.goal:
        codes.contradiction(codes.GOAL_MISMATCH, "{player} is known to hold {goal}, not {goal2}", player=who(state, e.seat), goal=p.goal, goal2=e.goal)
    if None not in p.dealt and e.goal not in p.dealt:
        codes.contradiction(codes.GOAL_MISMATCH, "{goal} was not among {player}'s three goal cards", goal=e.goal, player=who(state, e.seat))
    if any(e.goal in q.dealt or e.goal == q.goal for i, q in enumerate(state.seats) if i != e.seat):
        codes.contradiction(codes.GOAL_MISMATCH, "{goal} is another seat's goal card", goal=e.goal)
    return e


def _apply_goal_revealed(w: Work, e: GoalRevealed) -> None:
    component(w, "goal", e.goal)
    w.p(e.seat).goal = e.goal
    if w.s.phase == REVEAL:
        rest = tuple(p for p in w.s.pending if p[1] != e.seat)
        w.f["pending"] = rest
        if not rest:
            w.f["phase"] = OVER


# --- round start --------------------------------------------------------------------------------


def _decide_round(state: MP2State, e: RoundRevealed) -> RoundRevealed:
    _not_over(state)
    if state.phase != ROUND:
        codes.illegal(codes.NOT_EXPECTED, "no round reveals now: {phase_message}", phase_message=_phase_message(state))
    if e.round != state.round + 1:
        codes.illegal(codes.WRONG_ROUND, "the reveals now are round {round_plus}'s, not {round!r}'s", round_plus=state.round + 1, round=e.round)
    last = e.round >= pack_of(state).rounds
    if len(e.offers) != 3 or len(e.upcoming) != (0 if last else 3) or len(e.area_cards) != 2:
        codes.illegal(codes.SETUP_SHAPE, "an offer tile per book (3), the next round's three (none in the last round), two action-area city cards")
    if state.upcoming and tuple(e.offers) != state.upcoming:
        codes.contradiction(codes.DESCRIPTION_MISMATCH, "this round's offer tiles were shown last round as {upcoming}: {rule}", upcoming=list(state.upcoming), rule="\"次ラウンドの変換は公開されています\"")
    _distinct(tuple(e.offers) + tuple(e.upcoming), phrase("what/offer-tiles", "offer tiles"))
    _distinct(e.area_cards, phrase("what/area-city-cards", "action-area city cards"))
    for t in e.upcoming:
        if t in state.used_offers or t in state.offers:
            codes.contradiction(codes.DUPLICATE_COMPONENT, "offer tile {t} was already used", t=t)
    if not state.upcoming:
        for t in e.offers:
            if t in state.used_offers:
                codes.contradiction(codes.DUPLICATE_COMPONENT, "offer tile {t} was already used", t=t)
    for c in e.area_cards:
        if c in state.used_cards:
            codes.contradiction(codes.DUPLICATE_COMPONENT, "city card {c} was already on the table", c=c)
    return replace(e, offers=tuple(e.offers), upcoming=tuple(e.upcoming), area_cards=tuple(e.area_cards))


def _apply_round(w: Work, e: RoundRevealed) -> None:
    if w.strict:
        for book, t in enumerate(tuple(e.offers) + tuple(e.upcoming)):
            spec = component(w, "offer", t)
            if spec["book"] != book % 3 + 1:
                codes.illegal(codes.SETUP_SHAPE, "offer tile {t} belongs to book {book}, not book {book_mod_plus}", t=t, book=spec['book'], book_mod_plus=book % 3 + 1)
        for c in e.area_cards:
            component(w, "city_card", c)
    w.f["offers"] = tuple(e.offers)
    w.f["upcoming"] = tuple(e.upcoming)
    w.f["used_offers"] = w.s.used_offers + tuple(t for t in e.offers if t not in w.s.used_offers) + tuple(e.upcoming)
    w.f["area_cards"] = tuple(e.area_cards)
    w.f["used_cards"] = w.s.used_cards + tuple(e.area_cards)
    engine.begin_round(w, e.round)
    w.f["phase"] = ROLL


def _decide_rolled(state: MP2State, e: DiceRolled) -> DiceRolled:
    _not_over(state)
    if state.phase != ROLL:
        codes.illegal(codes.NOT_EXPECTED, "no round roll now: {phase_message}", phase_message=_phase_message(state))
    if e.round != state.round:
        codes.illegal(codes.WRONG_ROUND, "this is round {round}'s roll, not {round2!r}'s", round=state.round, round2=e.round)
    pack = pack_of(state)
    if len(e.dice) != state.n or any(len(v) != pack.dice for v in e.dice):
        codes.illegal(codes.DICE_COUNT, "each of the {state_n} seats rolls its {dice} dice", state_n=state.n, dice=pack.dice)
    want = state.black_supply if state.options.black_dice_variant else 0
    if len(e.black) != want:
        codes.illegal(codes.DICE_COUNT, "{want} black dice are rolled at round start{want:? (black-dice variant: \"ラウンド開始時にすべて振って\")| (only in the black-dice variant)}", want=want)
    for v in [x for vs in e.dice for x in vs] + list(e.black):
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
            codes.illegal(codes.BAD_DIE, "{v!r} is not a die value (1-6)", v=v)
    return replace(e, dice=tuple(tuple(v) for v in e.dice), black=tuple(e.black))


def _apply_rolled(w: Work, e: DiceRolled) -> None:
    for seat, values in enumerate(e.dice):
        d = w.p(seat)
        d.dice = tuple(sorted(values))
        d.compensation = compensation(values, w.pack.compensation_total)
    w.f["black_pool"] = tuple(sorted(e.black))
    engine.after_roll(w)


def _decide_income(state: MP2State, e: IncomeTaken) -> IncomeTaken:
    return replace(e, seat=_pending_seat(state, INCOME, e.seat, phrase("what/take-income-2", "take the round-start income")))


def _apply_income(w: Work, e: IncomeTaken) -> None:
    w.f["pending"] = w.s.pending[1:]
    engine.income(w, e.seat, e.coins, e.camels, e.double, e.pair)


def _decide_die_rolled(state: MP2State, e: DieRolled) -> DieRolled:
    seat = _pending_seat(state, ROLL_DIE, e.seat, phrase("what/record-die", "record a die's value"))
    if not isinstance(e.value, int) or isinstance(e.value, bool) or not 1 <= e.value <= 6:
        codes.illegal(codes.BAD_DIE, "{e_value!r} is not a die value (1-6)", e_value=e.value)
    return replace(e, seat=seat)


def _apply_die_rolled(w: Work, e: DieRolled) -> None:
    arg = w.s.pending[0][2]
    w.f["pending"] = w.s.pending[1:]
    engine.add_die(w, e.seat, arg[-1], e.value)
    if arg == "b" and w.p(e.seat).character == "isabella":  # a black die taken, not a reroll
        engine.isabella_roll(w, e.seat, e.value)  # "黒ダイス獲得時のロールで各ダイスの目につき"


def _decide_contract_revealed(state: MP2State, e: ContractRevealed) -> ContractRevealed:
    _pending_seat(state, REFILL, None, phrase("what/refill-contract", "refill a contract space"))
    city = state.pending[0][2]
    if e.city != city:
        codes.illegal(codes.NOT_EXPECTED, "the contract space to refill is in {city}, not {city2!r}", city=city, city2=e.city)
    if e.contract in state.seen or any(e.contract in p.contracts or e.contract in p.completed for p in state.seats):
        codes.contradiction(codes.CONTRACT_SEEN, "contract {contract} was already on the table", contract=e.contract)
    return e


def _apply_contract_revealed(w: Work, e: ContractRevealed) -> None:
    if w.strict and component(w, "contract", e.contract).get("starting"):
        codes.illegal(codes.CONTRACT_SEEN, "{contract} is a starting contract, not in the pile", contract=e.contract)
    w.f["pending"] = w.s.pending[1:]
    if e.city == HAND:  # drawn for a "contract_pile" reward icon: into the seat's hand
        d = w.p(w.s.pending[0][1])
        d.contracts = d.contracts + (e.contract,)
    else:
        w.f["city_contracts"] = w.s.city_contracts + ((e.city, e.contract),)
    w.f["seen"] = w.s.seen + (e.contract,)


# --- turns --------------------------------------------------------------------------------------


def _decide_main(what: str):
    def check(state, e):
        return replace(e, seat=_main(state, e.seat, what))

    return check


def _decide_bonus(what: str):
    def check(state, e):
        return replace(e, seat=_turn_seat(state, e.seat, what))

    return check


def _decide_end(state: MP2State, e: TurnEnded) -> TurnEnded:
    seat = _turn_seat(state, e.seat, phrase("what/end-turn", "end the turn"))
    if not state.main_done and engine.has_dice(state.seats[seat]):
        codes.illegal(codes.MAIN_ACTION_REQUIRED, "{player} still has dice: {rule}", player=who(state, seat), rule=Q_MUST)
    return replace(e, seat=seat)


def _m(fn):
    def run(w: Work, e) -> None:
        w.f["main_done"] = True  # engine.main_action
        fn(w, e)

    return run


def _travelled(w: Work, e: Travelled) -> None:
    w.f["main_done"] = True
    engine.travel(w, e.seat, e.row, e.dice, e.path, e.extra, e.take, e.discard, e.figure, e.path2)


def _book_used(w: Work, e: BookUsed) -> None:
    w.f["main_done"] = True
    engine.book_action(w, e.seat, e.book, e.die, e.option, e.caravans)


def _contracts_taken(w: Work, e: ContractsTaken) -> None:
    w.f["main_done"] = True
    engine.contracts_action(w, e.seat, e.die, e.contracts, e.discard)


def _city_card_used(w: Work, e: CityCardUsed) -> None:
    w.f["main_done"] = True
    engine.city_card(w, e.seat, e.city, e.die, e.times, e)


def _turn_ended(w: Work, e: TurnEnded) -> None:
    engine.end_turn(w, e.seat)


def _money_bag(w: Work, e: MoneyBagTaken) -> None:
    engine.money_bag(w, e.seat, e.die, e.take)


def _contract_completed(w: Work, e: ContractCompleted) -> None:
    engine.complete_contract(w, e.seat, e.contract)


APPLY = {
    SetupDealt: _apply_setup,
    CharacterPicked: _apply_pick,
    GoalKept: _apply_keep,
    GoalRevealed: _apply_goal_revealed,
    RoundRevealed: _apply_round,
    DiceRolled: _apply_rolled,
    IncomeTaken: _apply_income,
    DieRolled: _apply_die_rolled,
    ContractRevealed: _apply_contract_revealed,
    Travelled: _travelled,
    BookUsed: _book_used,
    KhansFavorTaken: _m(lambda w, e: engine.khans_favor(w, e.seat, e.die)),
    ContractsTaken: _contracts_taken,
    GuildTaken: _m(lambda w, e: engine.guild_action(w, e.seat, e.dice, e.guild)),
    SpecialCityUsed: _m(lambda w, e: engine.special_city(w, e.seat, e.city, e.die)),
    CityCardUsed: _city_card_used,
    ContractCompleted: _contract_completed,
    SealImproved: lambda w, e: engine.improve_seal(w, e.seat, e.guild),
    MoneyBagTaken: _money_bag,
    DieRerolled: lambda w, e: engine.reroll(w, e.seat, e.die),
    DieAdjusted: lambda w, e: engine.adjust(w, e.seat, e.die, e.delta),
    BlackDieBought: lambda w, e: engine.buy_black(w, e.seat, e.value),
    GoodsTraded: lambda w, e: engine.goods_traded(w, e.seat),
    OutpostTileUsed: lambda w, e: engine.outpost_tile(w, e.seat, e.tile),
    CaravanStarted: lambda w, e: engine.caravan_start(w, e.seat, e.goods, e.tile, e.city),
    CaravanConquered: lambda w, e: engine.caravan_conquer(w, e.seat, e.caravan, e.rewards, e.tile),
    TurnEnded: _turn_ended,
}

DECIDE = {
    SetupDealt: _decide_setup,
    CharacterPicked: _decide_pick,
    GoalKept: _decide_keep,
    GoalRevealed: _decide_goal_revealed,
    RoundRevealed: _decide_round,
    DiceRolled: _decide_rolled,
    IncomeTaken: _decide_income,
    DieRolled: _decide_die_rolled,
    ContractRevealed: _decide_contract_revealed,
    Travelled: _decide_main("travel"),
    BookUsed: _decide_main(phrase("what/use-book", "use a book")),
    KhansFavorTaken: _decide_main(phrase("what/take-khan-2", "take the Khan's favor")),
    ContractsTaken: _decide_main(phrase("what/take-contracts", "take contracts")),
    GuildTaken: _decide_main(phrase("what/take-seal", "take a guild seal")),
    SpecialCityUsed: _decide_main(phrase("what/use-special-city", "use a special city")),
    CityCardUsed: _decide_main(phrase("what/use-city-card", "use a city card")),
    ContractCompleted: _decide_bonus(phrase("what/complete-contract", "complete a contract")),
    SealImproved: _decide_bonus(phrase("what/improve-seal", "improve a seal")),
    MoneyBagTaken: _decide_bonus(phrase("what/money-bag", "use the money bag")),
    DieRerolled: _decide_bonus(phrase("what/reroll", "reroll a die")),
    DieAdjusted: _decide_bonus(phrase("what/turn-die", "turn a die")),
    BlackDieBought: _decide_bonus(phrase("what/buy-black", "buy a black die")),
    GoodsTraded: _decide_bonus(phrase("what/trade-goods", "trade goods")),
    OutpostTileUsed: _decide_bonus(phrase("what/cash-outpost", "cash an outpost tile")),
    CaravanStarted: _decide_bonus(phrase("what/start-caravan", "start a caravan")),
    CaravanConquered: _decide_bonus(phrase("what/conquer-route", "conquer a route")),
    TurnEnded: _decide_end,
}


HAS_CHOICES = frozenset(t for t in APPLY if "choices" in t.__struct_fields__)


def _run(w: Work, event: Event) -> None:
    engine.apply_descriptions(w, event.describe)
    APPLY[type(event)](w, event)
    w.done_tokens()


def transition(state: MP2State, event: Event, strict: bool) -> MP2State:
    w = Work(state, strict, getattr(event, "choices", ()))
    _run(w, event)
    return w.finish()


def check(state: MP2State, event: Event) -> None:
    """The strict transition without building the new state: raises on the first broken rule."""
    _run(Work(state, True, getattr(event, "choices", ())), event)


def decide(state: MP2State, move: Event) -> tuple[Event, ...]:
    handler = DECIDE.get(type(move))
    if handler is None:
        codes.illegal(codes.UNKNOWN_EVENT, "{move} is not a Marco Polo II move; expected one of {moves}", move=type(move).__name__, moves=", ".join(t.__name__ for t in DECIDE))
    event = handler(state, move)
    try:
        check(state, event)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        codes.illegal(codes.BAD_CHOICE, "{name}: malformed move ({name2}: {exc})", name=type(move).__name__, name2=type(exc).__name__, exc=exc)
    return (event,)


def evolve(state: MP2State, event: Event) -> MP2State:
    """Fold one validated event; events of other titles (lifecycle) leave the state as it is."""
    fn = APPLY.get(type(event))
    if fn is None:
        return state
    if fn is _turn_ended and not event.describe:  # a third of all events: the next seat, no scratch copy
        n = state.n
        seats = state.seats
        for k in range(1, n + 1):
            nxt = (event.seat + k) % n
            p = seats[nxt]
            if p.dice or p.black:
                return replace(state, main_done=False, bought_black=False, traded=False, turn_posts=(), turn=nxt,
                               resting=())
    w = Work(state, False, event.choices if type(event) in HAS_CHOICES else ())
    if event.describe:
        engine.apply_descriptions(w, event.describe)
    fn(w, event)
    return w.finish()
