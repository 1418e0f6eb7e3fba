"""The bonus actions but completing a contract: the money bag, a reroll, a die turned by one,
a black die bought."""

from __future__ import annotations

from events.messages import phrase
from rules.marco_polo import codes
from rules.marco_polo.dice import DIE_TOKENS, add_die, parse_die, place_dice, take_die
from rules.marco_polo.state import BAG, ROLL_DIE
from rules.marco_polo.work import Work, gain, pay
from rules.marco_polo_common import turns


def money_bag(w: Work, seat: int, die: str) -> None:
    place_dice(w, seat, BAG, (die,), 1, False, "'Coger 3 monedas'")
    gain(w, seat, "coins", 3)


def reroll(w: Work, seat: int, die: str) -> None:
    kind, value = parse_die(die) if w.strict else DIE_TOKENS[die]
    if w.strict and kind == "c" and w.p(seat)["character"] == "raschid":
        codes.illegal(codes.RASCHID_SETS_DICE, "Raschid does not roll his dice: he sets their values when placing them")
    pay(w, seat, "camels", 1, phrase("why/reroll", "to reroll a die (\"pagar 1 camello para volver a tirar un dado\")"))
    take_die(w, seat, die)
    w.push((ROLL_DIE, seat, kind), front=True)


def adjust(w: Work, seat: int, die: str, delta: int) -> None:
    kind, value = parse_die(die) if w.strict else DIE_TOKENS[die]
    if w.strict:
        if kind == "c" and w.p(seat)["character"] == "raschid":
            codes.illegal(codes.RASCHID_SETS_DICE, "Raschid does not roll his dice: he sets their values when placing them")
        if delta not in (1, -1):
            codes.illegal(codes.BAD_CHOICE, "a die turns by +1 or -1, not {delta!r}", delta=delta)
        if not turns(value, delta):
            codes.illegal(
                codes.NO_WRAP,
                "a {value} cannot turn to {value_plus}: {rule}", value=value, value_plus=value + delta, rule="\"subir o bajar en uno el valor de un dado —sin pasar de 1 a 6 ni viceversa—\"",
            )
    pay(w, seat, "camels", 2, phrase("why/turn-die", "to turn a die by one (\"pagar 2 camellos para subir o bajar en uno\")"))
    take_die(w, seat, die)
    add_die(w, seat, kind, value + delta)


def buy_black(w: Work, seat: int) -> None:
    if w.strict:
        if w.s.bought_black:
            codes.illegal(codes.ONE_BLACK_DIE_PER_TURN, '"solo coger un dado negro por turno"')
        if w.s.black_supply <= 0:
            codes.illegal(codes.NO_BLACK_DICE_LEFT, "no black die is left on the board this round")
    pay(w, seat, "camels", 3, phrase("why/black-die", "for a black die (\"pagar 3 camellos para coger y tirar 1 dado negro\")"))
    w.f["black_supply"] = w.s.black_supply - 1
    w.f["bought_black"] = True
    w.push((ROLL_DIE, seat, "b"), front=True)
