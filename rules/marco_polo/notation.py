"""Human notation: one line per move, case-sensitive ids, canonical out; ``@<seat> `` may lead.

==========================================  ===============================================
``setup chars=raschid,matteo cards=CC01,..  the table: characters (or ``draft=``), the nine
outposts=OB01,.. bonuses=CB1,.. start=S1,S2  city cards, seven outpost tiles, six small-city
objectives=G01,G02;?,?``                     bonuses (optional), starting contracts, objectives
                                            per seat split by ``;`` (``?`` unknown)
``pick matteo``                             expert draft pick
``keep G01,G05`` ``keep ?,?``               expert: 2 of 4 objectives kept
``deal 2 K01,K07,K11,K20,K30,K38``          round 2's six contracts, columns 1..6
``roll 1 3,5,1,6,2;4,4,2,1,6,3;-``          round 1's roll per seat (``-``: Raschid, no dice)
``=5``                                      the die just rerolled / taken shows 5
``draw K17``                                the special pile's top contract (``draw``: known)
``return K03``                              return a contract after drawing a third
``income 3/2 : silk,gold``                  3 coins + 2 camels compensation; bonus choices
``coins5 4``                                take 5 coins with a 4
``bazaar silk 4,b5 3 : ...``                a bazaar row, its dice, the column
``khan 4 silk``                             Khan's favor with a 4, taking silk
``contracts 5 1,5 -S1 : camels``            columns 1 and 5, returning S1, camels for column 5
``travel 4,5 O1-MOS``                       travel along a path (``|`` then Niccolo's second path)
``card MOS 4 x3 : a``                       city card space MOS with a 4, three times, choices
``complete K01 : silk``                     complete a contract
``bag 4`` ``reroll b3`` ``adjust 4 +1``     3 coins; reroll; turn a die (2 camels)
``black``                                   buy a black die
``end``                                     end the turn
``reveal 2 G01,G05``                        seat 2's objective cards
==========================================  ===============================================

Dice: ``4`` a colour die, ``b4`` black, ``w4`` white. Choices follow `` : `` comma-separated.
"""

from __future__ import annotations

import msgspec

from events.base import Event
from rules.marco_polo import codes
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
from events.messages import phrase

EXPECTED = (
    phrase("notation/marco-polo", "expected e.g.: coins5 4 | bazaar silk 4,5 3 | khan 4 silk | contracts 5 1,5 : camels | travel 4,5 O1-MOS | card MOS 4 x3 | complete K01 : silk | bag 4 | reroll b3 | adjust 4 +1 | black | end | income 3/2 | return K03 | draw K17 | =5 | deal 1 K01,... | roll 1 3,5,1,6,2;... | setup ... | pick X | keep G01,G02 | reveal 0 G01,G02 (optionally led by @seat); see rules/marco_polo/notation.py")
)


def _bad(text: str, why: str = "") -> None:
    codes.illegal(codes.BAD_NOTATION, "cannot read {text!r}{value_plus}; {expected}", text=text, value_plus=phrase("notation/colon", ": {why}", why=why) if why else '', expected=EXPECTED)


def _list(s: str) -> tuple[str, ...]:
    return tuple(x for x in s.split(",") if x) if s else ()


def _int(s: str, text: str) -> int:
    try:
        return int(s)
    except ValueError:
        _bad(text, phrase("notation/not-number", "{s!r} is not a number", s=s))
        raise  # pragma: no cover


def _opt(x: str) -> str | None:
    return None if x == "?" else x


def parse_move(state, text: str) -> Event:
    if not isinstance(text, str):
        _bad(repr(text), phrase("notation/not-text", "notation is text"))
    raw = " ".join(text.split())
    seat = None
    if raw.startswith("@"):
        head, _, raw = raw.partition(" ")
        seat = _int(head[1:], text)
    body, sep, tail = raw.partition(" : ")
    if not sep and body.endswith(" :"):
        body = body[:-2]
    choices = _list(tail.replace(" ", "")) if sep else ()
    words = body.split(" ")
    verb, args = words[0], words[1:]
    try:
        if verb == "coins5" and len(args) == 1:
            return FiveCoinsTaken(die=args[0], seat=seat)
        if verb == "bazaar" and len(args) == 3:
            return BazaarUsed(row=args[0], dice=_list(args[1]), column=_int(args[2], text), choices=choices, seat=seat)
        if verb == "khan" and len(args) == 2:
            return KhansFavorTaken(die=args[0], good=args[1], seat=seat)
        if verb == "contracts" and len(args) in (2, 3):
            discard = ()
            if len(args) == 3:
                if not args[2].startswith("-"):
                    _bad(text, phrase("notation/returned", "returned contracts are written -S1 or -S1,K03"))
                discard = _list(args[2][1:])
            cols = tuple(_int(c, text) for c in _list(args[1]))
            return ContractsTaken(die=args[0], columns=cols, choices=choices, discard=discard, seat=seat)
        if verb == "travel" and len(args) == 2:
            p1, _, p2 = args[1].partition("|")
            return Travelled(
                dice=_list(args[0]),
                path=tuple(x for x in p1.split("-") if x),
                path2=tuple(x for x in p2.split("-") if x),
                choices=choices,
                seat=seat,
            )
        if verb == "card" and len(args) in (2, 3):
            times = 1
            if len(args) == 3:
                if not args[2].startswith("x"):
                    _bad(text, phrase("notation/repetitions", "repetitions are written x3"))
                times = _int(args[2][1:], text)
            return CityCardUsed(space=args[0], die=args[1], times=times, choices=choices, seat=seat)
        if verb == "complete" and len(args) == 1:
            return ContractCompleted(contract=args[0], choices=choices, seat=seat)
        if verb == "bag" and len(args) == 1:
            return MoneyBagTaken(die=args[0], seat=seat)
        if verb == "reroll" and len(args) == 1:
            return DieRerolled(die=args[0], seat=seat)
        if verb == "adjust" and len(args) == 2:
            return DieAdjusted(die=args[0], delta=_int(args[1], text), seat=seat)
        if verb == "black" and not args:
            return BlackDieBought(seat=seat)
        if verb == "end" and not args:
            return TurnEnded(seat=seat)
        if verb == "income" and len(args) == 1:
            c, slash, m = args[0].partition("/")
            if not slash:
                _bad(text, phrase("notation/income", "income is coins/camels, e.g. income 3/2"))
            return IncomeTaken(coins=_int(c, text), camels=_int(m, text), choices=choices, seat=seat)
        if verb == "return" and len(args) == 1:
            return ContractDiscarded(contract=args[0], seat=seat)
        if verb == "draw" and len(args) <= 1:
            return ContractDrawn(contract=args[0] if args else None, seat=seat)
        if verb.startswith("=") and not args:
            return DieRolled(value=_int(verb[1:], text), seat=seat)
        if verb == "deal" and len(args) == 2:
            return ContractsDealt(round=_int(args[0], text), contracts=_list(args[1]))
        if verb == "roll" and len(args) == 2:
            dice = tuple(
                () if part == "-" else tuple(_int(v, text) for v in _list(part)) for part in args[1].split(";")
            )
            return DiceRolled(round=_int(args[0], text), dice=dice)
        if verb == "pick" and len(args) == 1:
            return CharacterPicked(character=args[0], seat=seat)
        if verb == "keep" and len(args) == 1:
            return ObjectivesKept(objectives=tuple(_opt(x) for x in args[0].split(",")), seat=seat)
        if verb == "reveal" and len(args) == 2:
            return ObjectivesRevealed(seat=_int(args[0], text), objectives=_list(args[1]))
        if verb == "setup":
            fields: dict = {}
            for arg in args:
                key, eq, value = arg.partition("=")
                if not eq:
                    _bad(text, phrase("notation/setup-words", "setup takes key=value words, not {arg!r}", arg=arg))
                if key == "objectives":
                    fields[key] = tuple(tuple(_opt(x) for x in part.split(",")) for part in value.split(";"))
                elif key in ("chars", "draft", "cards", "outposts", "bonuses", "start"):
                    fields[key] = _list(value)
                else:
                    _bad(text, phrase("notation/setup-key", "unknown setup key {key!r}", key=key))
            return SetupDealt(
                characters=fields.get("chars", ()),
                draft=fields.get("draft", ()),
                city_cards=fields.get("cards", ()),
                outposts=fields.get("outposts", ()),
                city_bonuses=fields.get("bonuses", ()),
                starting_contracts=fields.get("start", ()),
                objectives=fields.get("objectives", ()),
            )
    except msgspec.ValidationError as exc:  # pragma: no cover - Struct fields are not validated on init
        _bad(text, str(exc))
    _bad(text)
    raise AssertionError  # pragma: no cover


def _ch(choices) -> str:
    return " : " + ",".join(choices) if choices else ""


def _seat(e) -> str:
    seat = getattr(e, "seat", None)
    return "" if seat is None else f"@{seat} "


def format_move(e: Event) -> str:
    s = _seat(e)
    if isinstance(e, FiveCoinsTaken):
        return f"{s}coins5 {e.die}"
    if isinstance(e, BazaarUsed):
        return f"{s}bazaar {e.row} {','.join(e.dice)} {e.column}{_ch(e.choices)}"
    if isinstance(e, KhansFavorTaken):
        return f"{s}khan {e.die} {e.good}"
    if isinstance(e, ContractsTaken):
        dis = f" -{','.join(e.discard)}" if e.discard else ""
        return f"{s}contracts {e.die} {','.join(map(str, e.columns))}{dis}{_ch(e.choices)}"
    if isinstance(e, Travelled):
        path = "-".join(e.path) + ("|" + "-".join(e.path2) if e.path2 else "")
        return f"{s}travel {','.join(e.dice)} {path}{_ch(e.choices)}"
    if isinstance(e, CityCardUsed):
        times = f" x{e.times}" if e.times != 1 else ""
        return f"{s}card {e.space} {e.die}{times}{_ch(e.choices)}"
    if isinstance(e, ContractCompleted):
        return f"{s}complete {e.contract}{_ch(e.choices)}"
    if isinstance(e, MoneyBagTaken):
        return f"{s}bag {e.die}"
    if isinstance(e, DieRerolled):
        return f"{s}reroll {e.die}"
    if isinstance(e, DieAdjusted):
        return f"{s}adjust {e.die} {e.delta:+d}"
    if isinstance(e, BlackDieBought):
        return f"{s}black"
    if isinstance(e, TurnEnded):
        return f"{s}end"
    if isinstance(e, IncomeTaken):
        return f"{s}income {e.coins}/{e.camels}{_ch(e.choices)}"
    if isinstance(e, ContractDiscarded):
        return f"{s}return {e.contract}"
    if isinstance(e, ContractDrawn):
        return f"{s}draw" + (f" {e.contract}" if e.contract else "")
    if isinstance(e, DieRolled):
        return f"{s}={e.value}"
    if isinstance(e, ContractsDealt):
        return f"deal {e.round} {','.join(e.contracts)}"
    if isinstance(e, DiceRolled):
        return f"roll {e.round} " + ";".join(",".join(map(str, d)) if d else "-" for d in e.dice)
    if isinstance(e, CharacterPicked):
        return f"{s}pick {e.character}"
    if isinstance(e, ObjectivesKept):
        return f"{s}keep " + ",".join("?" if g is None else g for g in e.objectives)
    if isinstance(e, ObjectivesRevealed):
        return f"reveal {e.seat} {','.join(e.objectives)}"
    if isinstance(e, SetupDealt):
        parts = ["setup"]
        for key, value in (
            ("chars", e.characters),
            ("draft", e.draft),
            ("cards", e.city_cards),
            ("outposts", e.outposts),
            ("bonuses", e.city_bonuses),
            ("start", e.starting_contracts),
        ):
            if value:
                parts.append(f"{key}={','.join(value)}")
        if e.objectives:
            parts.append(
                "objectives=" + ";".join(",".join("?" if g is None else g for g in o) for o in e.objectives)
            )
        return " ".join(parts)
    codes.illegal(codes.BAD_NOTATION, "{name} is not a Marco Polo move", name=type(e).__name__)
