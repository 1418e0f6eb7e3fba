"""The setup and each round's start: the layout, the draft, the objectives, the contracts, the roll, the income."""

from __future__ import annotations

from msgspec.structs import replace

from rules.marco_polo import codes, engine
from rules.marco_polo_common import compensation
from rules.marco_polo_common.work import shown_at_end
from rules.marco_polo.content import (
    CHARACTER_IDS, CITY_BONUS_IDS, CITY_CARD_IDS, CITY_CARD_SPACES, DEFAULT_CITY_BONUS, FIRST_GAME_CHARACTERS,
    LARGE_CITIES, OBJECTIVE_IDS, OUTPOST_BONUS_IDS, SMALL_CITIES, STARTING_CONTRACTS,
)
from rules.marco_polo.engine import Work
from rules.marco_polo.events import (
    CharacterPicked, ContractsDealt, DiceRolled, IncomeTaken, ObjectivesKept, ObjectivesRevealed, SetupDealt,
)
from rules.marco_polo.state import (
    CONTRACTS, DICE, DRAFT, INCOME, KEEP, KEEP_ITEM, PICK, ROLL, SETUP, MarcoPoloState,
)
from events.messages import phrase
from rules.marco_polo_common.decide import check_seat
from rules.marco_polo.pending import (
    _distinct, _ids, _not_over, _pending_seat, _phase_message, _require_unseen, who,
)


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
    check_seat(state, e.seat, codes)
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
    shown_at_end(w, e.seat)


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
