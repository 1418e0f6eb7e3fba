"""Validating moves into completed events, and the one transition both ``decide`` and ``evolve`` use.

``decide(state, move)`` completes the move (the seat filled in, a known drawn contract named,
columns in ascending order), checks the phase and whose decision it is, then runs the transition
strictly on a scratch copy (``engine``): the first broken rule raises ``IllegalMove`` naming it.
It returns exactly one event, and a stored event passed back returns itself while still legal.
``transition(state, event, strict=False)`` is the fold.
"""

from __future__ import annotations

from collections import Counter

from msgspec.structs import replace

from events.base import Event
from rules.marco_polo import codes, engine
from rules.marco_polo_common import compensation
from rules.marco_polo.content import (
    CHARACTER_IDS,
    CITY_BONUS_IDS,
    CITY_CARD_IDS,
    CITY_CARD_SPACES,
    DEFAULT_CITY_BONUS,
    FIRST_GAME_CHARACTERS,
    LARGE_CITIES,
    NORMAL_CONTRACTS,
    OBJECTIVE_IDS,
    OUTPOST_BONUS_IDS,
    SMALL_CITIES,
    STARTING_CONTRACTS,
)
from rules.marco_polo.engine import Work
from rules.marco_polo.events import (
    BazaarUsed,
    BlackDieBought,
    CharacterPicked,
    CityCardUsed,
    ContractCompleted,
    ContractDiscarded,
    ContractDrawn,
    ContractsDealt,
    ContractsTaken,
    DiceRolled,
    DieAdjusted,
    DieRerolled,
    DieRolled,
    FiveCoinsTaken,
    IncomeTaken,
    KhansFavorTaken,
    MoneyBagTaken,
    ObjectivesKept,
    ObjectivesRevealed,
    SetupDealt,
    Travelled,
    TurnEnded,
)
from rules.marco_polo.state import (
    CONTRACTS,
    DICE,
    DISCARD,
    DRAFT,
    DRAW,
    INCOME,
    KEEP,
    KEEP_ITEM,
    OVER,
    PICK,
    PLAY,
    REVEAL,
    ROLL,
    ROLL_DIE,
    SETUP,
    SHOW,
    MarcoPoloState,
)
from events.messages import Phrase, phrase

Q_ONE_MAIN = '"Haz una acción principal" (exactly one per turn, while dice remain)'
Q_NOT_MIDDLE = '"No puedes intercalarlas mientras resuelves la acción principal."'
Q_FIVE_ROUNDS = '"La partida termina al acabar la quinta ronda"'
PENDING_TEXT = {
    ROLL_DIE: "the table reports the value of the die just {arg} ({who})",
    DRAW: "the table reports the contract {who} draws from the special pile",
    DISCARD: "{who} holds three contracts and must return one under the special pile",
    INCOME: "{who} takes the round-start income (compensation split and bonus choices)",
    PICK: "{who} picks a character",
    KEEP_ITEM: "{who} keeps 2 of 4 objective cards",
    SHOW: "{who} shows their objective cards (the end)",
}


def who(state: MarcoPoloState, seat: int) -> str | Phrase:
    return state.players[seat] if 0 <= seat < len(state.players) else phrase("who/display", "the display")


def describe_pending(state: MarcoPoloState) -> Phrase:
    kind, seat, arg = state.pending[0]
    text = PENDING_TEXT[kind]
    if kind == ROLL_DIE:
        arg = {"b": phrase("pending/taken-black", "taken (black)"), "c": phrase("pending/rerolled", "rerolled"), "w": phrase("pending/rerolled-white", "rerolled (white)")}.get(arg, arg)
    return Phrase(f"pending/marco-polo/{kind}", text, dict(who=who(state, seat), arg=arg))


def _check_seat(state: MarcoPoloState, seat: object) -> None:
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n):
        codes.illegal(codes.UNKNOWN_SEAT, "seat {seat!r} is not a seat of this game (0..{state_n_minus})", seat=seat, state_n_minus=state.n - 1)


def _not_over(state: MarcoPoloState) -> None:
    if state.phase == OVER:
        codes.illegal(codes.GAME_OVER, "the game is over: {rule}", rule=Q_FIVE_ROUNDS)


def _phase_message(state: MarcoPoloState) -> tuple[str, str]:
    if state.phase == SETUP:
        return codes.AWAITING_SETUP, phrase("msg/layout-first", "the table's layout comes first")
    if state.phase == CONTRACTS:
        return codes.AWAITING_CONTRACTS, phrase("msg/contracts-first", "round {round}'s six contracts must be revealed first", round=state.round)
    if state.phase == ROLL:
        return codes.AWAITING_ROLL, phrase("msg/dice-first", "round {round}'s dice must be rolled first: \"Al empezar cada ronda, tirad vuestros dados.\"", round=state.round)
    if state.phase == REVEAL:
        return codes.NOT_EXPECTED, phrase("msg/rounds-over", "the five rounds are over; only the objective cards remain to be shown")
    if state.pending:
        return codes.PENDING_FIRST, phrase("msg/first", "first: {describe_pending}", describe_pending=describe_pending(state))
    return codes.NOT_EXPECTED, phrase("msg/not-expected", "not expected in phase {phase}", phase=state.phase)


def _turn_seat(state: MarcoPoloState, seat: object, what: str) -> int:
    """Checks for an action of the seat to move (main, bonus, end of turn); returns the seat."""
    _not_over(state)
    _check_seat(state, seat)
    if state.phase != PLAY or state.pending:
        code, msg = _phase_message(state)
        codes.illegal(code, "cannot {what}: {msg}", what=what, msg=msg)
    if seat is not None and seat != state.turn:
        codes.illegal(
            codes.NOT_YOUR_TURN,
            "it is {player}'s turn, not {player2}'s: \"Por orden, cada persona juega turnos\"", player=who(state, state.turn), player2=who(state, seat),
        )
    return state.turn


def _pending_seat(state: MarcoPoloState, kind: str, seat: object, what: str) -> int:
    """Checks for the resolution of the first pending item of ``kind``; returns its seat."""
    _not_over(state)
    _check_seat(state, seat)
    if not state.pending or state.pending[0][0] != kind:
        code, msg = _phase_message(state)
        if code == codes.NOT_EXPECTED and not state.pending:
            msg = phrase("msg/nothing-pending", "nothing of the kind is pending")
        codes.illegal(code, "cannot {what}: {msg}", what=what, msg=msg)
    owner = state.pending[0][1]
    if seat is not None and owner >= 0 and seat != owner:
        codes.illegal(codes.NOT_YOUR_TURN, "{what}: this is {player}'s, not {player2}'s", what=what, player=who(state, owner), player2=who(state, seat))
    return owner


def _main(state: MarcoPoloState, seat: object, what: str) -> int:
    seat = _turn_seat(state, seat, what)
    if state.main_done:
        codes.illegal(
            codes.ONE_MAIN_ACTION,
            "{player} already took this turn's main action: {rule}", player=who(state, seat), rule=Q_ONE_MAIN,
        )
    return seat


def _ids(values, universe, what: str) -> None:
    for v in values:
        if v not in universe:
            codes.illegal(codes.UNKNOWN_ID, "{v!r} is not {what}", v=v, what=what)


def _distinct(values, what: str) -> None:
    known = [v for v in values if v is not None]
    dup = [v for v, k in Counter(known).items() if k > 1]
    if dup:
        codes.contradiction(codes.DUPLICATE_COMPONENT, "{what}: {dup} appear(s) twice; each component is in one place", what=what, dup=', '.join(dup))


# --- known contracts ----------------------------------------------------------------------------


def seen_contracts(state: MarcoPoloState) -> set[str]:
    seen = set(state.display)
    seen.update(k for k in state.special if k is not None)
    for p in state.seats:
        seen.update(p.contracts)
        seen.update(p.completed)
    return seen


def unseen_contracts(state: MarcoPoloState) -> list[str]:
    seen = seen_contracts(state)
    return [k for k in NORMAL_CONTRACTS if k not in seen]


def _require_unseen(state: MarcoPoloState, contract: object, what: str) -> str:
    if not isinstance(contract, str) or contract not in NORMAL_CONTRACTS:
        if isinstance(contract, str) and contract in STARTING_CONTRACTS:
            codes.contradiction(codes.CONTRACT_SEEN, "{what}: {contract} is a starting contract, not in the piles", what=what, contract=contract)
        codes.illegal(codes.UNKNOWN_ID, "{what}: {contract!r} is not a contract id (K01..K38)", what=what, contract=contract)
    if contract in seen_contracts(state):
        codes.contradiction(codes.CONTRACT_SEEN, "{what}: {contract} is already elsewhere on the table", what=what, contract=contract)
    return contract


# --- setup --------------------------------------------------------------------------------------


def _decide_setup(state: MarcoPoloState, e: SetupDealt) -> SetupDealt:
    _not_over(state)
    if state.phase != SETUP:
        codes.illegal(codes.NOT_EXPECTED, "the table is already laid out (SetupDealt comes once, first)")
    n = state.n
    opts = state.options
    if opts.characters == "draft":
        if e.characters:
            codes.illegal(codes.SETUP_SHAPE, "draft: characters are picked (CharacterPicked), not dealt to seats")
        if len(e.draft) != n + 1:
            codes.illegal(codes.SETUP_SHAPE, "draft: reveal players + 1 = {n_plus} characters, not {n_draft}", n_plus=n + 1, n_draft=len(e.draft))
        _ids(e.draft, CHARACTER_IDS, phrase("what/a-character", "a character"))
        _distinct(e.draft, "draft")
    else:
        if e.draft:
            codes.illegal(codes.SETUP_SHAPE, "characters are dealt to seats (no draft without option characters=draft)")
        if len(e.characters) != n:
            codes.illegal(codes.SETUP_SHAPE, "one character per seat: {n}, not {n_characters}", n=n, n_characters=len(e.characters))
        _ids(e.characters, CHARACTER_IDS, phrase("what/a-character", "a character"))
        _distinct(e.characters, "characters")
        if opts.characters == "first-game" and tuple(e.characters) != FIRST_GAME_CHARACTERS[:n]:
            codes.illegal(
                codes.FIRST_GAME_CHARACTERS,
                "first game: characters by seat are {expected} ({rule}; ruling MP-2), not {characters}",
                expected=list(FIRST_GAME_CHARACTERS[:n]),
                rule='"asignad los personajes en ese mismo orden"',
                characters=str(list(e.characters)),
            )
    if len(e.city_cards) != len(CITY_CARD_SPACES):
        codes.illegal(codes.SETUP_SHAPE, "nine city cards, one per space ({city_card_spaces}): got {n_city_cards}", city_card_spaces=', '.join(CITY_CARD_SPACES), n_city_cards=len(e.city_cards))
    _ids(e.city_cards, CITY_CARD_IDS, phrase("what/a-city-card", "a city card (CC01..CC31)"))
    _distinct(e.city_cards, phrase("what/city-cards", "city cards"))
    if len(e.outposts) != len(LARGE_CITIES):
        codes.illegal(codes.SETUP_SHAPE, "seven outpost bonus tiles, one per large city: got {n_outposts}", n_outposts=len(e.outposts))
    _ids(e.outposts, OUTPOST_BONUS_IDS, phrase("what/an-outpost", "an outpost bonus (OB01..OB10)"))
    _distinct(e.outposts, phrase("what/outpost-bonuses", "outpost bonuses"))
    bonuses = tuple(e.city_bonuses) or tuple(DEFAULT_CITY_BONUS[c] for c in SMALL_CITIES)
    if len(bonuses) != len(SMALL_CITIES) or sorted(bonuses) != sorted(CITY_BONUS_IDS):
        codes.illegal(codes.SETUP_SHAPE, "the six small-city bonus markers, one per small city: got {bonuses}", bonuses=list(bonuses))
    if not opts.random_city_bonuses and bonuses != tuple(DEFAULT_CITY_BONUS[c] for c in SMALL_CITIES):
        codes.illegal(
            codes.BASIC_CITY_BONUSES,
            "{rule} (random only in the expert variant: option random_city_bonuses)", rule="\"Distribuye las 6 losetas de bonificación de ciudad pequeña según sus letras\"",
        )
    if len(e.starting_contracts) != n:
        codes.illegal(codes.SETUP_SHAPE, "one starting contract per seat: {n}, not {n_starting_contracts}", n=n, n_starting_contracts=len(e.starting_contracts))
    _ids(e.starting_contracts, STARTING_CONTRACTS, phrase("what/a-starting-contract", "a starting contract (S1..S6)"))
    _distinct(e.starting_contracts, phrase("what/starting-contracts", "starting contracts"))
    per = 4 if opts.objectives_keep else 2
    objectives = tuple(tuple(o) for o in e.objectives) or tuple((None,) * per for _ in range(n))
    if len(objectives) != n or any(len(o) != per for o in objectives):
        codes.illegal(
            codes.SETUP_SHAPE,
            "{per} objective cards per seat (None = unknown): \"Cada persona roba 2 cartas de objetivo\"{per_is_4:? (expert: 4, keep 2)|}", per=per, per_is_4=per == 4,
        )
    flat = [g for o in objectives for g in o]
    _ids([g for g in flat if g is not None], OBJECTIVE_IDS, phrase("what/an-objective-id", "an objective card (G01..G18)"))
    _distinct(flat, phrase("what/objective-cards", "objective cards"))
    return replace(e, city_bonuses=bonuses, objectives=objectives)


def _apply_setup(w: Work, e: SetupDealt) -> None:
    s = w.s
    w.f["city_cards"] = tuple(e.city_cards)
    w.f["outposts"] = tuple(e.outposts)
    w.f["city_bonuses"] = tuple(e.city_bonuses)
    for seat in range(s.n):
        d = w.p(seat)
        d["contracts"] = (e.starting_contracts[seat],)
        o = tuple(e.objectives[seat])
        if len(o) == 4:
            d["dealt"] = o
        else:
            d["objectives"] = o
        if e.characters:
            d["character"] = e.characters[seat]
            engine.character_start(w, seat)
    if e.draft:
        w.f["phase"] = DRAFT
        w.f["draft"] = tuple(e.draft)
        w.f["pending"] = tuple((PICK, s.n - 1 - k, "") for k in range(s.n))
    else:
        engine.after_setup(w)


def _decide_pick(state: MarcoPoloState, e: CharacterPicked) -> CharacterPicked:
    seat = _pending_seat(state, PICK, e.seat, phrase("what/pick-character", "pick a character"))
    if e.character not in state.draft:
        codes.illegal(codes.NOT_OFFERED, "{character!r} is not among the characters on offer ({draft})", character=e.character, draft=list(state.draft))
    return replace(e, seat=seat)


def _apply_pick(w: Work, e: CharacterPicked) -> None:
    w.p(e.seat)["character"] = e.character
    engine.character_start(w, e.seat)
    draft = w.s.draft
    i = draft.index(e.character)
    w.f["draft"] = draft[:i] + draft[i + 1 :]
    w.f["pending"] = w.s.pending[1:]
    if len(w.s.pending) == 1:
        w.f["draft"] = ()
        engine.after_setup(w)


def _decide_keep(state: MarcoPoloState, e: ObjectivesKept) -> ObjectivesKept:
    seat = _pending_seat(state, KEEP_ITEM, e.seat, phrase("what/keep-objectives", "keep objective cards"))
    kept = tuple(e.objectives)
    if len(kept) != 2:
        codes.illegal(codes.KEEP_TWO, "keep exactly 2 of the 4 objective cards (\"robar 4 cartas de objetivo para conservar 2\"), not {n_kept}", n_kept=len(kept))
    _ids([g for g in kept if g is not None], OBJECTIVE_IDS, phrase("what/an-objective", "an objective card"))
    _distinct(kept, phrase("what/kept-objectives", "kept objectives"))
    dealt = state.seats[seat].dealt
    for g in kept:
        if g is not None and None not in dealt and g not in dealt:
            codes.contradiction(codes.OBJECTIVES_MISMATCH, "{g} was not among {player}'s four cards {dealt}", g=g, player=who(state, seat), dealt=list(dealt))
        if g is not None and _held_elsewhere(state, seat, g):
            codes.contradiction(codes.OBJECTIVES_MISMATCH, "{g} is known to be another seat's card", g=g)
    return replace(e, seat=seat, objectives=kept)


def _held_elsewhere(state: MarcoPoloState, seat: int, g: str) -> bool:
    return any(g in p.objectives or g in p.dealt for i, p in enumerate(state.seats) if i != seat)


def _apply_keep(w: Work, e: ObjectivesKept) -> None:
    w.p(e.seat)["objectives"] = tuple(e.objectives)
    w.f["pending"] = w.s.pending[1:]
    if len(w.s.pending) == 1:
        w.f["pending"] = ()
        engine.begin_round(w)


def _decide_reveal(state: MarcoPoloState, e: ObjectivesRevealed) -> ObjectivesRevealed:
    _check_seat(state, e.seat)
    if e.seat is None:
        codes.illegal(codes.UNKNOWN_SEAT, "say whose objective cards are shown")
    if state.phase in (SETUP, DRAFT) or (state.phase == KEEP and any(p[1] == e.seat for p in state.pending)):
        codes.illegal(codes.NOT_EXPECTED, "objective cards can be shown once they are dealt and kept")
    shown = tuple(e.objectives)
    if len(shown) != 2:
        codes.illegal(codes.KEEP_TWO, "a seat shows its 2 objective cards, not {n_shown}", n_shown=len(shown))
    _ids(shown, OBJECTIVE_IDS, phrase("what/an-objective-id", "an objective card (G01..G18)"))
    _distinct(shown, phrase("what/shown-objectives", "shown objectives"))
    p = state.seats[e.seat]
    known = [g for g in p.objectives if g is not None]
    if any(g not in shown for g in known):
        codes.contradiction(codes.OBJECTIVES_MISMATCH, "{player} is known to hold {known}, but shows {shown}", player=who(state, e.seat), known=known, shown=list(shown))
    for g in shown:
        if p.dealt and None not in p.dealt and g not in p.dealt:
            codes.contradiction(codes.OBJECTIVES_MISMATCH, "{g} was not among {player}'s dealt cards", g=g, player=who(state, e.seat))
        if _held_elsewhere(state, e.seat, g):
            codes.contradiction(codes.OBJECTIVES_MISMATCH, "{g} is known to be another seat's card", g=g)
    return e


def _apply_reveal(w: Work, e: ObjectivesRevealed) -> None:
    w.p(e.seat)["objectives"] = tuple(e.objectives)
    if w.s.phase == REVEAL:
        rest = tuple(p for p in w.s.pending if p[1] != e.seat)
        w.f["pending"] = rest
        if not rest:
            w.f["phase"] = OVER


# --- round start --------------------------------------------------------------------------------


def _decide_contracts_dealt(state: MarcoPoloState, e: ContractsDealt) -> ContractsDealt:
    _not_over(state)
    if state.phase != CONTRACTS:
        codes.illegal(codes.NOT_EXPECTED, "no contracts are dealt now: {phase_message_1}", phase_message_1=_phase_message(state)[1])
    if e.round != state.round:
        codes.illegal(codes.WRONG_ROUND, "the contracts dealt now are round {round}'s, not {round2!r}'s", round=state.round, round2=e.round)
    if len(e.contracts) != 6:
        codes.illegal(codes.SETUP_SHAPE, "\"coloca seis nuevos de la siguiente pila\": six contracts, not {n_contracts}", n_contracts=len(e.contracts))
    _distinct(e.contracts, phrase("what/contracts-dealt", "contracts dealt"))
    for k in e.contracts:
        _require_unseen(state, k, phrase("what/contracts-dealt", "contracts dealt"))
    return e


def _apply_contracts_dealt(w: Work, e: ContractsDealt) -> None:
    w.f["display"] = tuple(e.contracts)
    w.f["phase"] = ROLL


def _decide_rolled(state: MarcoPoloState, e: DiceRolled) -> DiceRolled:
    _not_over(state)
    if state.phase != ROLL:
        codes.illegal(codes.NOT_EXPECTED, "no round roll is expected now: {phase_message_1}", phase_message_1=_phase_message(state)[1])
    if e.round != state.round:
        codes.illegal(codes.WRONG_ROUND, "this is round {round}'s roll, not {round2!r}'s", round=state.round, round2=e.round)
    if len(e.dice) != state.n:
        codes.illegal(codes.SETUP_SHAPE, "the roll lists each of the {state_n} seats' dice", state_n=state.n)
    for seat, values in enumerate(e.dice):
        c = state.seats[seat].character
        want = 0 if c == "raschid" else DICE + (1 if c == "matteo" else 0)
        if len(values) != want:
            extra = " (Raschid does not roll: he sets his dice when placing them)" if c == "raschid" else ""
            extra += " (five colour dice, then the white die)" if c == "matteo" else ""
            codes.illegal(codes.DICE_COUNT, "{player} rolls {want} dice, not {n_values}{extra}", player=who(state, seat), want=want, n_values=len(values), extra=extra)
        for v in values:
            if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
                codes.illegal(codes.BAD_DIE, "{v!r} is not a die value (1-6)", v=v)
    return replace(e, dice=tuple(tuple(v) for v in e.dice))


def _apply_rolled(w: Work, e: DiceRolled) -> None:
    for seat, values in enumerate(e.dice):
        d = w.p(seat)
        c = d["character"]
        if c == "raschid":
            d["dice"] = (0,) * DICE
            d["compensation"] = 0
            continue
        colour = values[:DICE]
        d["dice"] = tuple(sorted(colour))
        d["white"] = tuple(values[DICE:])
        d["compensation"] = compensation(colour, engine.MAX_COMPENSATION)
    engine.after_roll(w)


def _decide_income(state: MarcoPoloState, e: IncomeTaken) -> IncomeTaken:
    seat = _pending_seat(state, INCOME, e.seat, phrase("what/take-income", "take the round's income"))
    return replace(e, seat=seat, choices=tuple(e.choices))


def _apply_income(w: Work, e: IncomeTaken) -> None:
    w.f["pending"] = w.s.pending[1:]
    engine.income(w, e.seat, e.coins, e.camels)


# --- pending chance -----------------------------------------------------------------------------


def _decide_die_rolled(state: MarcoPoloState, e: DieRolled) -> DieRolled:
    seat = _pending_seat(state, ROLL_DIE, e.seat, phrase("what/record-die", "record a die's value"))
    if not isinstance(e.value, int) or isinstance(e.value, bool) or not 1 <= e.value <= 6:
        codes.illegal(codes.BAD_DIE, "{e_value!r} is not a die value (1-6)", e_value=e.value)
    return replace(e, seat=seat)


def _apply_die_rolled(w: Work, e: DieRolled) -> None:
    kind = w.s.pending[0][2]
    w.f["pending"] = w.s.pending[1:]
    engine.add_die(w, e.seat, kind, e.value)


def _decide_drawn(state: MarcoPoloState, e: ContractDrawn) -> ContractDrawn:
    seat = _pending_seat(state, DRAW, e.seat, phrase("what/draw-contract", "draw a contract"))
    if not state.special:
        codes.illegal(codes.NOT_EXPECTED, "the special pile is empty")  # pragma: no cover - never pending then
    top = state.special[0]
    contract = e.contract
    if top is not None:
        if contract is not None and contract != top:
            codes.contradiction(codes.CONTRACT_MISMATCH, "the special pile's top contract is {top}, not {contract}", top=top, contract=contract)
        contract = top
    else:
        if contract is None:
            codes.illegal(codes.CONTRACT_MUST_BE_NAMED, "name the contract drawn from the special pile (it is laid face up)")
        _require_unseen(state, contract, phrase("what/contract-drawn", "contract drawn"))
    return ContractDrawn(contract=contract, seat=None if seat < 0 else seat)


def _apply_drawn(w: Work, e: ContractDrawn) -> None:
    w.f["special"] = w.s.special[1:]
    rest = w.s.pending[1:]
    w.f["pending"] = rest
    if e.seat is None:
        w.f["display"] = w.s.display + (e.contract,)
        return
    d = w.p(e.seat)
    d["contracts"] = d["contracts"] + (e.contract,)
    if len(d["contracts"]) > 2:
        w.f["pending"] = ((DISCARD, e.seat, ""),) + rest


def _decide_discarded(state: MarcoPoloState, e: ContractDiscarded) -> ContractDiscarded:
    seat = _pending_seat(state, DISCARD, e.seat, phrase("what/return-contract", "return a contract"))
    if e.contract not in state.seats[seat].contracts:
        codes.illegal(codes.CONTRACT_NOT_ACTIVE, "{contract!r} is not one of {player}'s contracts", contract=e.contract, player=who(state, seat))
    return replace(e, seat=seat)


def _apply_discarded(w: Work, e: ContractDiscarded) -> None:
    w.f["pending"] = w.s.pending[1:]
    d = w.p(e.seat)
    i = d["contracts"].index(e.contract)
    d["contracts"] = d["contracts"][:i] + d["contracts"][i + 1 :]
    w.f["special"] = w.s.special + (e.contract,)


# --- turns --------------------------------------------------------------------------------------


def _decide_five(state, e: FiveCoinsTaken):
    return replace(e, seat=_main(state, e.seat, phrase("what/take-5-coins", "take 5 coins")))


def _decide_bazaar(state, e: BazaarUsed):
    return replace(e, seat=_main(state, e.seat, phrase("what/use-bazaar", "use the bazaar")), dice=tuple(e.dice), choices=tuple(e.choices))


def _decide_khan(state, e: KhansFavorTaken):
    return replace(e, seat=_main(state, e.seat, phrase("what/take-khan", "take El favor de Khan")))


def _decide_take(state, e: ContractsTaken):
    seat = _main(state, e.seat, phrase("what/take-contracts", "take contracts"))
    cols = tuple(e.columns)
    if all(isinstance(c, int) for c in cols):
        cols = tuple(sorted(cols))
    return replace(e, seat=seat, columns=cols, choices=tuple(e.choices), discard=tuple(e.discard))


def _decide_travel(state, e: Travelled):
    return replace(e, seat=_main(state, e.seat, "travel"), dice=tuple(e.dice), path=tuple(e.path), path2=tuple(e.path2), choices=tuple(e.choices))


def _decide_card(state, e: CityCardUsed):
    return replace(e, seat=_main(state, e.seat, phrase("what/use-city-card", "use a city card")), choices=tuple(e.choices))


def _decide_bonus(what: str):
    def check(state, e):
        return replace(e, seat=_turn_seat(state, e.seat, what))

    return check


def _decide_end(state, e: TurnEnded):
    seat = _turn_seat(state, e.seat, phrase("what/end-turn", "end the turn"))
    p = state.seats[seat]
    if not state.main_done and engine.has_dice(p):
        codes.illegal(
            codes.MAIN_ACTION_REQUIRED,
            "{player} still has dice and has not taken a main action: {rule}", player=who(state, seat), rule=Q_ONE_MAIN,
        )
    return replace(e, seat=seat)


def _run(fn):
    def apply(w: Work, e) -> None:
        fn(w, e)
        w.done_tokens()

    return apply


APPLY = {
    SetupDealt: _apply_setup,
    CharacterPicked: _apply_pick,
    ObjectivesKept: _apply_keep,
    ObjectivesRevealed: _apply_reveal,
    ContractsDealt: _apply_contracts_dealt,
    DiceRolled: _apply_rolled,
    IncomeTaken: _run(_apply_income),
    DieRolled: _apply_die_rolled,
    ContractDrawn: _apply_drawn,
    ContractDiscarded: _apply_discarded,
    FiveCoinsTaken: lambda w, e: (engine.main_action(w, e.seat), engine.five_coins(w, e.seat, e.die)),
    BazaarUsed: _run(lambda w, e: (engine.main_action(w, e.seat), engine.bazaar(w, e.seat, e.row, e.dice, e.column))),
    KhansFavorTaken: lambda w, e: (engine.main_action(w, e.seat), engine.khans_favor(w, e.seat, e.die, e.good)),
    ContractsTaken: _run(
        lambda w, e: (engine.main_action(w, e.seat), engine.take_contracts(w, e.seat, e.die, e.columns, e.discard))
    ),
    Travelled: _run(lambda w, e: (engine.main_action(w, e.seat), engine.travel(w, e.seat, e.dice, e.path, e.path2))),
    CityCardUsed: _run(
        lambda w, e: (engine.main_action(w, e.seat), engine.city_card(w, e.seat, e.space, e.die, e.times))
    ),
    ContractCompleted: _run(lambda w, e: engine.complete_contract(w, e.seat, e.contract)),
    MoneyBagTaken: lambda w, e: engine.money_bag(w, e.seat, e.die),
    DieRerolled: lambda w, e: engine.reroll(w, e.seat, e.die),
    DieAdjusted: lambda w, e: engine.adjust(w, e.seat, e.die, e.delta),
    BlackDieBought: lambda w, e: engine.buy_black(w, e.seat),
    TurnEnded: lambda w, e: engine.end_turn(w, e.seat),
}

DECIDE = {
    SetupDealt: _decide_setup,
    CharacterPicked: _decide_pick,
    ObjectivesKept: _decide_keep,
    ObjectivesRevealed: _decide_reveal,
    ContractsDealt: _decide_contracts_dealt,
    DiceRolled: _decide_rolled,
    IncomeTaken: _decide_income,
    DieRolled: _decide_die_rolled,
    ContractDrawn: _decide_drawn,
    ContractDiscarded: _decide_discarded,
    FiveCoinsTaken: _decide_five,
    BazaarUsed: _decide_bazaar,
    KhansFavorTaken: _decide_khan,
    ContractsTaken: _decide_take,
    Travelled: _decide_travel,
    CityCardUsed: _decide_card,
    ContractCompleted: _decide_bonus(phrase("what/complete-contract", "complete a contract")),
    MoneyBagTaken: _decide_bonus(phrase("what/take-3-coins", "take 3 coins")),
    DieRerolled: _decide_bonus(phrase("what/reroll", "reroll a die")),
    DieAdjusted: _decide_bonus(phrase("what/turn-die", "turn a die")),
    BlackDieBought: _decide_bonus(phrase("what/buy-black", "buy a black die")),
    TurnEnded: _decide_end,
}


def transition(state: MarcoPoloState, event: Event, strict: bool) -> MarcoPoloState:
    w = Work(state, strict, getattr(event, "choices", ()))
    APPLY[type(event)](w, event)
    return w.finish()


def check(state: MarcoPoloState, event: Event) -> None:
    """The strict transition without building the new state: raises on the first broken rule."""
    APPLY[type(event)](Work(state, True, getattr(event, "choices", ())), event)


def decide(state: MarcoPoloState, move: Event) -> tuple[Event, ...]:
    handler = DECIDE.get(type(move))
    if handler is None:
        codes.illegal(
            codes.UNKNOWN_EVENT,
            "{move} is not a Marco Polo move; expected one of {moves}", move=type(move).__name__, moves=", ".join(t.__name__ for t in DECIDE),
        )
    event = handler(state, move)
    if hasattr(event, "choices"):
        for t in event.choices:
            if not isinstance(t, str):
                codes.illegal(codes.BAD_CHOICE, "choices are words (goods, coins/camels, places, bonus ids), not {t!r}", t=t)
    try:
        check(state, event)
    except (KeyError, IndexError, TypeError, ValueError) as exc:  # a malformed field the checks did not name
        codes.illegal(codes.BAD_CHOICE, "{name}: malformed move ({name2}: {exc})", name=type(move).__name__, name2=type(exc).__name__, exc=exc)
    return (event,)


def evolve(state: MarcoPoloState, event: Event) -> MarcoPoloState:
    """Fold one validated event; events of other titles (lifecycle) leave the state as it is."""
    fn = APPLY.get(type(event))
    if fn is None:
        return state
    w = Work(state, False, getattr(event, "choices", ()))
    fn(w, event)
    return w.finish()
