"""The main actions but travel and contracts: the books (markets), the Khan's favour, guilds,
special cities and city cards."""

from __future__ import annotations

from events.messages import phrase
from rules.marco_polo_2 import codes
from rules.marco_polo_2.components import component
from rules.marco_polo_2.content import GUILDS
from rules.marco_polo_2.dice import DIE_TOKENS, Q_NO_STACK, parse_die, place_dice
from rules.marco_polo_2.state import BOOK_SPACE, COLOURS, GUILD, KHAN
from rules.marco_polo_2.travel import at, bonus_of, move, move_caravans, node
from rules.marco_polo_2.work import Work, gain, gain_bundle, pay


Q_KHAN = '"次にこのアクションを行うプレイヤーは、その次のマスに置かねばなりません。さらに、ダイス目が同じかそれ以上でなければならず"'
Q_POST_NEEDED = '"その都市に自分の交易所が置かれていなければなりません。"'


def main_action(w: Work) -> None:
    w.f["main_done"] = True


def book_action(w: Work, seat: int, book: int, die: str, option: int, caravans) -> None:
    if w.strict and book not in (1, 2, 3):
        codes.illegal(codes.BOOK_OPTION, "book {book!r}: 1, 2 or 3", book=book)
    low = place_dice(w, seat, BOOK_SPACE[book], (die,), 1, "shared", f"book {book}")
    need = w.pack.book_min[book - 1]
    if w.strict and low < need:
        codes.illegal(codes.BOOK_DIE, "book {book} needs a die of {need} or more, not {low}: {rule}", book=book, need=need, low=low, rule="\"左：ダイス目１以上・中央：ダイス目３以上・右：ダイス目５以上。\"")
    if w.strict and option not in (1, 2, 3, 4):
        codes.illegal(codes.BOOK_OPTION, "option {option!r}: 1, 2 (free), 3 (1 jade) or 4 (2 jade)", option=option)
    if option in (1, 2):
        items = component(w, "book", str(book), "(the book's free options)")["fixed"][option - 1]
    else:
        offers = w.get("offers")
        tile = offers[book - 1] if len(offers) >= book else None
        if tile is None:
            codes.illegal(codes.NOT_EXPECTED, "book {book} has no offer tile this round", book=book)
        price = w.pack.jade_prices[option - 3]
        pay(w, seat, {"jade": price}, phrase("why/book-option", "for the lower {option_is_3:?left|right} option of book {book}: {rule}", option_is_3=option == 3, book=book, rule="\"左下：翡翠１つを支払い ... 右下：翡翠２つを支払い\""))
        items = component(w, "offer", tile)["jade1" if option == 3 else "jade2"]
    gain_bundle(w, seat, items)
    move_caravans(w, seat, book, caravans)


def khans_favor(w: Work, seat: int, die: str) -> None:
    slots = [p for p in w.get("board") if p[0] == KHAN]
    if w.strict:
        if len(slots) >= w.pack.khan["slots"]:
            codes.illegal(codes.KHANS_FAVOR_FULL, "the Khan's favor's four slots are full this round")
        kind, value = parse_die(die)
        if slots and value < slots[-1][1]:
            codes.illegal(codes.KHANS_FAVOR_ASCENDING, "a {value} cannot follow the {slots_last_1} on the Khan's favor: {rule}", value=value, slots_last_1=slots[-1][1], rule=Q_KHAN)
    place_dice(w, seat, KHAN, (die,), 1, "free", "the Khan's favor")
    gain_bundle(w, seat, w.pack.khan["reward"])


def guild_action(w: Work, seat: int, dice, guild: str) -> None:
    d = w.pl.get(seat) or w.p(seat)
    count = 1 if d.character == "dewu" else 2
    low = place_dice(w, seat, GUILD, dice, count, "shared", "the guild action")
    take_seal(w, seat, guild, low, "a lowest die")


def take_seal(w: Work, seat: int, guild, low: int, die: str = "a die") -> None:
    """A guild seal taken as the guild action does, ``low`` standing for the lowest die."""
    d = w.pl.get(seat) or w.p(seat)
    spec = w.pack.guilds.get(guild) if isinstance(guild, str) else None
    if w.strict:
        if spec is None:
            codes.illegal(codes.UNKNOWN_ID, "{guild!r} is not a guild ({guilds})", guild=guild, guilds=', '.join(GUILDS))
        if low < spec["min_die"]:
            codes.illegal(codes.GUILD_DIE, "the {guild} seal needs {die} of {min_die}, not {low}: {rule}", guild=guild, die=die, min_die=spec['min_die'], low=low, rule="\"それより小さい場合は選択できません\"")
        if guild in d.seals:
            codes.illegal(codes.ONE_SEAL_PER_GUILD, "{player} owns a {guild} seal: {rule}", player=w.who(seat), guild=guild, rule="\"プレイヤーは４つのギルドマーカーは各１つしか所持できません。\"")
    d.seals = d.seals + (guild,)
    gain(w, seat, "jade", spec["jade"])


def special_node(w: Work, seat: int, name: str) -> str | None:
    for city in w.p(seat).posts:
        if node(w, city).get("special") == name:
            return city
    return None


def special_city(w: Work, seat: int, name: str, die: str) -> None:
    if w.strict:
        if name not in ("baghdad", "balkh", "hormuz"):
            codes.illegal(codes.UNKNOWN_ID, "{name!r} is not a special city (baghdad, balkh, hormuz)", name=name)
        if special_node(w, seat, name) is None:
            codes.illegal(codes.NEEDS_POST, "{player} has no trading post in {name}: {rule}", player=w.who(seat), name=name, rule=Q_POST_NEEDED)
        if sum(1 for p in w.get("board") if p[0] == f"special:{name}") >= 2:
            codes.illegal(codes.SPECIAL_FULL, "both action spaces of {name} hold a die this round: {rule}", name=name, rule=Q_NO_STACK)
    value = place_dice(w, seat, f"special:{name}", (die,), 1, "free", name)
    spec = component(w, "special", name, f"(the reward of {name})")
    gain_bundle(w, seat, spec["reward"])
    if spec["guild"] in w.p(seat).improved:
        seal = component(w, "seal", spec["guild"])
        for _ in range(2 if value >= spec["twice_at"] else 1):
            gain_bundle(w, seat, seal["bonus"])


def city_card(w: Work, seat: int, city: str, die: str, times: int, e=None) -> None:
    d = w.pl.get(seat) or w.p(seat)
    area = city in ("area1", "area2")
    if area:
        i = 0 if city == "area1" else 1
        cards = w.get("area_cards")
        card = cards[i] if i < len(cards) else None
    else:
        found = at(w.get("cards"), city)
        card = found[0] if found else None
    if card is None:
        codes.illegal(codes.UNKNOWN_ID, "no city card lies at {city!r}", city=city)
    kind, _ = parse_die(die) if w.strict else DIE_TOKENS[die]
    if w.strict and not area:
        piece_ok = False
        if kind == "p":
            colour = {"B": "blue", "R": "red", "Y": "yellow", "G": "green"}[die[1]]
            owners = [s for s in range(w.s.n) if city in (w.pl[s].posts if s in w.pl else w.s.seats[s].posts)]
            seat_colours = COLOURS[: w.s.n]
            piece_ok = (colour in seat_colours and COLOURS.index(colour) in owners) or (colour not in seat_colours and not owners)
        if city not in d.posts and not piece_ok:
            codes.illegal(codes.NEEDS_POST, "{player} has no trading post in {city}: {rule}", player=w.who(seat), city=city, rule=Q_POST_NEEDED)
        if city in w.s.turn_posts:
            codes.illegal(codes.CITY_CARD_NEXT_TURN, "the post in {city} was placed this turn: {rule}", city=city, rule="\"次の手番からは、その都市に置かれているカードにダイスを置くことができる\"")
    value = place_dice(w, seat, f"card:{city}", (die,), 1, "single", f"the city card at {city}")
    spec = component(w, "city_card", card)
    kind = spec["kind"]
    _card_fields(w, kind, e)
    if kind == "exchange":
        if w.strict and not (isinstance(times, int) and 1 <= times <= value):
            codes.illegal(codes.CARD_TIMES, "repeat the card 1..{value} times (the die): {rule}, not {times!r}", value=value, rule="\"ダイス目と最大同数まで繰り返し\"", times=times)
        for _ in range(times):
            if spec.get("pay"):
                pay(w, seat, spec["pay"], phrase("why/city-card", "(city card {card})", card=card))
            gain_bundle(w, seat, spec["gain"])
    elif kind in ("per_contract", "per_post"):
        count = len(d.completed) if kind == "per_contract" else len(d.posts)
        if w.strict and times != 1:
            codes.illegal(codes.CARD_TIMES, "city card {card} counts by itself (times 1), capped at the die", card=card)
        for _ in range(min(count, value)):
            gain_bundle(w, seat, spec["gain"])
    elif kind == "choice":  # "same direction every time"
        options = spec["options"]
        if w.strict:
            if not (isinstance(e.option, int) and 1 <= e.option <= len(options)):
                codes.illegal(codes.BAD_CHOICE, "city card {card}: option 1..{n_options} (the same every time), not {option!r}", card=card, n_options=len(options), option=e.option)
            if not (isinstance(times, int) and 1 <= times <= value):
                codes.illegal(codes.CARD_TIMES, "repeat the card 1..{value} times (the die): {rule}, not {times!r}", value=value, rule="\"ダイス目と最大同数まで繰り返し\"", times=times)
        o = options[e.option - 1]
        cost = dict(o.get("pay", {}))
        below = spec.get("vp_below_zero") and cost.pop("vp", 0)
        for _ in range(times):
            if cost:
                pay(w, seat, cost, phrase("why/city-card-option", "(city card {card}, option {option})", card=card, option=e.option))
            if below:
                d.vp -= below  # "VP may go negative"
            gain_bundle(w, seat, o["gain"])
    elif kind == "bonuses":  # "a different bonus each time"
        markers = tuple(e.markers)
        if w.strict:
            mine = {m for c, m in w.get("bonuses") if c in d.posts}
            if not (isinstance(times, int) and 1 <= times <= value and times == len(markers)):
                codes.illegal(codes.CARD_TIMES, "city card {card}: 1..{value} bonus markers (the die), times = how many are named, not {times!r} for {markers}", card=card, value=value, times=times, markers=list(markers))
            if len(set(markers)) != len(markers):
                codes.illegal(codes.BAD_CHOICE, "city card {card}: a different bonus marker each time, not {markers}", card=card, markers=list(markers))
            for m in markers:
                if m not in mine:
                    codes.illegal(codes.BAD_CHOICE, "city card {card}: {m!r} is not a bonus marker of a city with {player}'s post ({mine})", card=card, m=m, player=w.who(seat), mine=sorted(mine))
        for m in markers:
            gain_bundle(w, seat, bonus_of(w, "city_bonus", m))
    elif kind == "guild":  # "a Guild Seals action using 1 die plus 1 camel"
        if w.strict and times != 1:
            codes.illegal(codes.CARD_TIMES, "city card {card} is used once (times 1)", card=card)
        if spec.get("pay"):
            pay(w, seat, spec["pay"], phrase("why/city-card", "(city card {card})", card=card))
        take_seal(w, seat, e.guild, value)
    elif kind == "move":  # "multi-step moves (only 1 post, where the move ends)"
        if w.strict and times != 1:
            codes.illegal(codes.CARD_TIMES, "city card {card} is used once (times 1); its move goes up to the die", card=card)
        limit = min(value, spec.get("max") or 6)
        move(w, seat, tuple(e.path), tuple(e.path2), e.figure, limit, None, tuple(e.take), tuple(e.discard), f"city card {card}", False)


#: the CityCardUsed fields each card kind reads (the others must keep their defaults)
CARD_CHOICE_FIELDS = {
    "exchange": (), "per_contract": (), "per_post": (), "choice": ("option",), "bonuses": ("markers",),
    "guild": ("guild",), "move": ("path", "path2", "figure", "take", "discard"),
}


CARD_DEFAULTS = {"option": 0, "markers": (), "guild": None, "path": (), "path2": (), "figure": 0, "take": (), "discard": ()}


def _card_fields(w: Work, kind: str, e) -> None:
    if not w.strict or e is None:
        return
    for f, default in CARD_DEFAULTS.items():
        if f not in CARD_CHOICE_FIELDS[kind] and getattr(e, f) != default:
            codes.illegal(codes.EXTRA_CHOICE, "a {kind} city card takes no {f} (it reads {card_choice_fields_item})", kind=kind, f=f, card_choice_fields_item=', '.join(CARD_CHOICE_FIELDS[kind]) or phrase("what/times-only", "times only"))
