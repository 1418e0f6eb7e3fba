"""The setup and each round's start: the layout, the draft, the goals, the round's reveals, the roll, the income."""

from __future__ import annotations

from msgspec.structs import replace

from rules.marco_polo_common import compensation
from rules.marco_polo_common.work import shown_at_end
from rules.marco_polo_2 import codes, engine
from rules.marco_polo_2.engine import Work, component
from rules.marco_polo_2.events import (
    CharacterPicked, DiceRolled, GoalKept, GoalRevealed, IncomeTaken, RoundRevealed, SetupDealt,
)
from rules.marco_polo_2.state import INCOME, KEEP, PICK, PICKS, ROLL, ROUND, SETUP, MP2State, pack_of
from events.messages import phrase
from rules.marco_polo_common.decide import check_seat
from rules.marco_polo_2.pending import _distinct, _not_over, _pending_seat, _phase_message, who


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
    check_seat(state, e.seat, codes)
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
    shown_at_end(w, e.seat)


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
