"""Dice placement: taking a die from a seat, adding one, placing dice on an action space and
the fee for an occupied one."""

from __future__ import annotations

from events.messages import phrase
from rules.marco_polo import codes
from rules.marco_polo.state import BAG
from rules.marco_polo.work import Work, pay


Q_COLOUR_ONCE = (
    '"Tus dados de color solo pueden usar una vez por ronda un mismo espacio de acción. Los dados '
    'negros y blancos no cuentan como dados de tu color para este límite."'
)


Q_FEE = (
    '"Un espacio principal ocupado suele poder reutilizarse, pero pagas tantas monedas como el valor '
    'de tu dado más bajo al colocarlo."'
)


Q_PLACE_FIRST = '"Los dados se colocan antes de pagar el coste de ocupación y resolver la acción."'
DIE_TOKENS = {f"{k}{v}": (k or "c", v) for k in ("", "b", "w") for v in range(1, 7)}


def parse_die(token: object) -> tuple[str, int]:
    parsed = DIE_TOKENS.get(token) if isinstance(token, str) else None
    if parsed is None:
        codes.illegal(
            codes.BAD_DIE,
            "{token!r} is not a die: write its value 1-6 (a colour die), b4 (a black die showing 4) or w4 (the white die)", token=token,
        )
    return parsed


def take_die(w: Work, seat: int, token: str) -> tuple[str, int]:
    """Removes a die from the seat's hand; returns (kind, value)."""
    kind, value = parse_die(token) if w.strict else DIE_TOKENS[token]
    d = w.p(seat)
    key = {"c": "dice", "b": "black", "w": "white"}[kind]
    held = d[key]
    raschid = kind == "c" and d["character"] == "raschid"
    look = 0 if raschid else value
    if look not in held:
        if w.strict:
            what = {"c": "colour", "b": "black", "w": "white"}[kind]
            if raschid:
                codes.illegal(codes.DIE_NOT_HELD, "{player} has no colour die left to set to {value}", player=w.who(seat), value=value)
            codes.illegal(
                codes.DIE_NOT_HELD,
                "{player} holds no {what} die showing {value} (colour {dice}, black {black}, white {white})", player=w.who(seat), what=what, value=value, dice=list(d['dice']), black=list(d['black']), white=list(d['white']),
            )
        return kind, value
    i = held.index(look)
    d[key] = held[:i] + held[i + 1 :]
    return kind, value


def add_die(w: Work, seat: int, kind: str, value: int) -> None:
    d = w.p(seat)
    key = {"c": "dice", "b": "black", "w": "white"}[kind]
    d[key] = tuple(sorted(d[key] + (value,)))


def place_dice(w: Work, seat: int, space: str, tokens: tuple[str, ...], count: int, fee: bool, what: str) -> int:
    """Dice placed on an action space: checks count, possession, the colour rule; pays the fee.
    Returns the lowest value placed (the action's strength)."""
    if w.strict and len(tokens) != count:
        codes.illegal(
            codes.DICE_COUNT,
            "{what} takes exactly {count} {count_is_1:?die|dice}, not {n_tokens}: \"coloca tantos dados propios como indique el espacio\"", what=what, count=count, count_is_1=count == 1, n_tokens=len(tokens),
        )
    occupied = any(p[0] == space for p in w.get("board"))
    placed = []
    colour = False
    for t in tokens:
        kind, value = take_die(w, seat, t)
        placed.append((space, value, seat, kind))
        colour = colour or kind == "c"
    d = w.p(seat)
    if colour and space != BAG:
        if w.strict and space in d["used"]:
            codes.illegal(
                codes.COLOUR_ONCE_PER_SPACE,
                "{player}'s colour dice already used {what} this round: {rule}", player=w.who(seat), what=what, rule=Q_COLOUR_ONCE,
            )
        d["used"] = d["used"] + (space,)
    w.f["board"] = w.get("board") + tuple(placed)
    low = min((p[1] for p in placed), default=0)
    if fee and occupied:
        occupied_fee(w, seat, low, what)
    return low


def occupied_fee(w: Work, seat: int, low: int, what: str) -> None:
    if w.p(seat)["character"] != "berke":
        pay(w, seat, "coins", low, phrase("why/occupied-space", "for the occupied space {what} (the lowest die placed): {rule}", what=what, rule=Q_FEE))
