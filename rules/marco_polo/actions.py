"""The main actions but travel and contracts: 5 coins, the bazaar, the Khan's favour, city cards."""

from __future__ import annotations

from events.messages import phrase
from rules.marco_polo import codes
from rules.marco_polo.content import BAZAAR, CITY_CARDS, CITY_CARD_SPACES, GOODS, KHAN_SLOTS, NAME, SPACE_CITY
from rules.marco_polo.dice import parse_die, place_dice
from rules.marco_polo.state import BAZAAR_SPACE, COINS5, KHAN, MarcoPoloState
from rules.marco_polo.travel import own_bonus, run_items
from rules.marco_polo.work import SPACE_INDEX, Work, gain, pay_cost


Q_KHAN = (
    '"Hay cuatro casillas; cada nuevo dado debe mostrar un valor igual o superior al de la casilla anterior."'
)


Q_BAZAAR = '"El menor valor determina la columna de recompensas; puedes escoger una columna inferior."'
Q_CITY_CARD = '"La carta de ciudad grande es la excepción: una vez usada, queda cerrada esa ronda."'
Q_CITY_POST = '"si tienes un puesto en esa ciudad, coloca en su carta y resuelve el efecto indicado."'


def seat_of(state: MarcoPoloState, character: str) -> int:
    for i, p in enumerate(state.seats):
        if p.character == character:
            return i
    return -1


def mercator(w: Work, seat: int, power: str, res: str, n: int) -> None:
    m = seat_of(w.s, "mercator")
    if m < 0 or m == seat:
        return
    tiles = {2: ("bazaar", "khan", "coins5"), 3: ("bazaar", "khan"), 4: ("bazaar",)}[w.s.n]
    if power in tiles:
        gain(w, m, res, n)


def main_action(w: Work, seat: int) -> None:
    w.f["main_done"] = True


def five_coins(w: Work, seat: int, die: str) -> None:
    place_dice(w, seat, COINS5, (die,), 1, True, "'Coger 5 monedas'")
    gain(w, seat, "coins", 5)
    mercator(w, seat, "coins5", "coins", 2)


def bazaar(w: Work, seat: int, row: str, dice: tuple[str, ...], column: int) -> None:
    spec = BAZAAR.get(row)
    if spec is None:
        codes.illegal(codes.UNKNOWN_ROW, "{row!r} is not a bazaar row (camels, pepper, silk, gold)", row=row)
    low = place_dice(w, seat, BAZAAR_SPACE[row], dice, spec["dice"], True, phrase("what/bazaar", "the {row} bazaar", row=row))
    if w.strict and not (isinstance(column, int) and 1 <= column <= low):
        codes.illegal(
            codes.BAZAAR_COLUMN,
            "column {column!r} of the {row} bazaar: the lowest die placed is {low}, so columns 1..{low}: {rule}", column=column, row=row, low=low, rule=Q_BAZAAR,
        )
    w.src = "bonuses"
    run_items(w, seat, spec["columns"][column - 1], phrase("why/bazaar-column", "(the {row} bazaar, column {column})", row=row, column=column))
    mercator(w, seat, "bazaar", row, 1)


def khans_favor(w: Work, seat: int, die: str, good: str) -> None:
    board = w.get("board")
    slots = [p for p in board if p[0] == KHAN]
    if w.strict:
        if len(slots) >= KHAN_SLOTS:
            codes.illegal(
                codes.KHANS_FAVOR_FULL,
                "El favor de Khan is full this round: {rule}", rule="\"Cuando están llenas, no se puede usar más esa ronda.\"",
            )
        kind, value = parse_die(die)
        if slots and value < slots[-1][1]:
            codes.illegal(
                codes.KHANS_FAVOR_ASCENDING,
                "a {value} cannot follow the {slots_last_1} in El favor de Khan: {rule}", value=value, slots_last_1=slots[-1][1], rule=Q_KHAN,
            )
        if good not in GOODS:
            codes.illegal(codes.BAD_CHOICE, "El favor de Khan gives 1 good of choice (pepper, silk, gold), not {good!r}", good=good)
    place_dice(w, seat, KHAN, (die,), 1, False, "El favor de Khan")
    gain(w, seat, good, 1)
    gain(w, seat, "camels", 2)
    mercator(w, seat, "khan", "camels", 1)


def _card_times(w: Work, times: int, limit: int, what: str) -> None:
    if w.strict and not (isinstance(times, int) and 1 <= times <= limit):
        codes.illegal(codes.CARD_TIMES, "{what}: repeat it 1..{limit} times (the die), not {times!r}", what=what, limit=limit, times=times)


def city_card(w: Work, seat: int, space: str, die: str, times: int) -> None:
    i = SPACE_INDEX.get(space)
    if i is None or i >= len(w.s.city_cards):
        codes.illegal(codes.UNKNOWN_ID, "{space!r} is not a city-card space ({city_card_spaces})", space=space, city_card_spaces=', '.join(CITY_CARD_SPACES))
    city = SPACE_CITY[space]
    d = w.p(seat)
    slot = "card:" + space
    if w.strict:
        if city not in d["posts"]:
            codes.illegal(codes.CITY_CARD_NO_POST, "{player} has no trading post in {name_item}: {rule}", player=w.who(seat), name_item=NAME[city], rule=Q_CITY_POST)
        if city in w.s.turn_posts:
            codes.illegal(
                codes.CITY_CARD_NEXT_TURN,
                "the post in {name_item} was placed this turn; its city card is usable from the next turn", name_item=NAME[city],
            )
        if any(p[0] == slot for p in w.get("board")):
            codes.illegal(codes.CITY_CARD_USED, "the city card in {space} was already used this round: {rule}", space=space, rule=Q_CITY_CARD)
    value = place_dice(w, seat, slot, (die,), 1, False, phrase("what/city-card-in", "the city card in {space}", space=space))
    card = CITY_CARDS[w.s.city_cards[i]]
    w.src = "cards"
    what = phrase("what/city-card", "city card {id} ({text})", id=card['id'], text=card['text'])
    kind = card["kind"]
    if kind == "exchange":
        _card_times(w, times, value, what)
        for _ in range(times):
            pay_cost(w, seat, card["pay"], phrase("why/paren", "({what})", what=what))
            run_items(w, seat, card["gain"], phrase("why/paren", "({what})", what=what))
    elif kind == "two_way":
        way = w.token(phrase("what/direction", "the direction of {what}: a or b", what=what), lambda: ("a", "b"))
        if w.strict and way not in ("a", "b"):
            codes.illegal(codes.BAD_CHOICE, "{what}: choose direction 'a' (the first way) or 'b', not {way!r}", what=what, way=way)
        spec = card["ways"][0 if way == "a" else 1]
        _card_times(w, times, value, what)
        for _ in range(times):
            pay_cost(w, seat, spec["pay"], phrase("why/paren", "({what})", what=what))
            run_items(w, seat, spec["gain"], phrase("why/paren", "({what})", what=what))
    elif kind == "threshold":
        _card_times(w, times, 1, what)
        items = ()
        for low, gains in card["steps"]:
            if value >= low:
                items = gains
        run_items(w, seat, items, phrase("why/paren", "({what})", what=what))
    elif kind == "count":
        _card_times(w, times, 1, what)
        count = len(d["posts"]) if card["of"] == "posts" else len(d["completed"])
        for _ in range(min(count, value)):
            run_items(w, seat, card["gain"], phrase("why/paren", "({what})", what=what))
    elif kind == "own_bonus":
        limit = max(n for low, n in card["steps"] if value >= low)
        _card_times(w, times, limit, what)
        w.src = "bonuses"
        for _ in range(times):
            own_bonus(w, seat, phrase("why/paren", "({what})", what=what))
