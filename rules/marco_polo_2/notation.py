"""Human notation: one line per move, ``@<seat> `` may lead, then a verb and ``key=value`` words.

==============================================  ==================================================
``setup chars=mongke,dewu start=S1,S2``          the table: characters (or ``offered=``), starting
``goals=G01,G02,G03;?,?,? bonuses=C1:CB1,...``   contracts, goal cards per seat (``;``, ``?`` unknown),
``outposts=C2:OT1 cards=C1:CC01 contracts=...``  the board as ``city:id`` pairs, ``tiles=`` route tiles
``pick dewu`` / ``keep G02`` / ``keep ?``        a character; the goal card kept
``round 2 offers=B1a,B2a,B3a upcoming=...``      round 2's offer tiles (books 1..3), the next round's,
``area=CC04,CC05``                               the two action-area city cards
``roll 1 3,5,1,6,2;4,4,2,1,6``                   round 1's roll per seat (``black=`` variant)
``=5``                                           the die just rerolled / the black die taken shows 5
``refill C2 K07``                                a contract laid on an emptied space of C2
``income coins=3 camels=2 double=city:C1 pair=4`` the round-start choices
``travel 3 dice=4,5,6 path=C1,O2,C5 extra=C1``    travel row 3 (``take=`` ``discard=`` ``choices=``
                                                 ``figure=1``)
``book 2 die=4 option=3 caravans=C1,C2``          book 2, option 3 (1 jade), caravan paths (``;``)
``khan 4`` / ``contracts 3 take=K01,K02``         the Khan's favor; the contracts action
``guild farmer dice=2,3``                        a guild seal
``special baghdad 4`` / ``card C1 4 times=3``    a special city; a city card (``area1`` ``area2``)
``card area1 4 times=2 option=1``                a city card's choices: ``option=`` ``markers=CB1,CB3``
``card C4 3 guild=tailor`` ``card C3 3 path=O4``  ``guild=``, a card's move (``path=`` ``path2=`` ...)
``travel 2 dice=3,3 path=C1 path2=O1,C3``        Mailin & Tian Chin's split move (``path2``)
``complete K01`` ``improve farmer`` ``bag 4 camels`` ``reroll b3`` ``adjust 4 +1`` ``black`` (``black value=5``)
``trade`` ``tile OT1`` ``caravan pepper,silk RT1 C2`` ``conquer 0 sell,double`` ``end``
``reveal 2 G07``                                  seat 2's goal card
==============================================  ==================================================

Dice: ``4`` a colour die, ``b4`` black, ``pR`` Donata Badoer's red piece. Components the pack lacks
follow as `` describe=`` and a JSON list of ``{"kind", "id", "spec"}`` at the end of the line.
"""

from __future__ import annotations

import typing

import msgspec

from events.base import Event
from rules.marco_polo_2 import codes
from rules.marco_polo_2.events import (
    BlackDieBought, BookUsed, CaravanConquered, CaravanStarted, CharacterPicked, CityCardUsed, Component,
    ContractCompleted, ContractRevealed, ContractsTaken, DiceRolled, DieAdjusted, DieRerolled, DieRolled, GoalKept,
    GoalRevealed, GoodsTraded, GuildTaken, IncomeTaken, KhansFavorTaken, MoneyBagTaken, OutpostTileUsed,
    RoundRevealed, SealImproved, SetupDealt, SpecialCityUsed, Travelled, TurnEnded,
)
from events.messages import phrase

#: verb, the event, the fields written positionally (in order), renamed keys
VERBS: dict[str, tuple[type[Event], tuple[str, ...]]] = {
    "setup": (SetupDealt, ()),
    "pick": (CharacterPicked, ("character",)),
    "keep": (GoalKept, ("goal",)),
    "round": (RoundRevealed, ("round",)),
    "roll": (DiceRolled, ("round", "dice")),
    "refill": (ContractRevealed, ("city", "contract")),
    "reveal": (GoalRevealed, ("seat", "goal")),
    "income": (IncomeTaken, ()),
    "travel": (Travelled, ("row",)),
    "book": (BookUsed, ("book",)),
    "khan": (KhansFavorTaken, ("die",)),
    "contracts": (ContractsTaken, ("die",)),
    "guild": (GuildTaken, ("guild",)),
    "special": (SpecialCityUsed, ("city", "die")),
    "card": (CityCardUsed, ("city", "die")),
    "complete": (ContractCompleted, ("contract",)),
    "improve": (SealImproved, ("guild",)),
    "bag": (MoneyBagTaken, ("die", "take")),
    "reroll": (DieRerolled, ("die",)),
    "adjust": (DieAdjusted, ("die", "delta")),
    "black": (BlackDieBought, ()),
    "trade": (GoodsTraded, ()),
    "tile": (OutpostTileUsed, ("tile",)),
    "caravan": (CaravanStarted, ("goods", "tile", "city")),
    "conquer": (CaravanConquered, ("caravan", "rewards")),
    "end": (TurnEnded, ()),
}
VERB_OF = {cls: verb for verb, (cls, _) in VERBS.items()}
RENAME = {"characters": "chars", "starting_contracts": "start", "route_tiles": "tiles", "area_cards": "area"}
#: per event, a field written under a shorter key
RENAME_IN: dict[type, dict[str, str]] = {ContractsTaken: {"contracts": "take"}}


def _key(cls: type, name: str) -> str:
    return RENAME_IN.get(cls, {}).get(name) or RENAME.get(name, name)


def _unkey(cls: type, key: str) -> str:
    for name, k in RENAME_IN.get(cls, {}).items():
        if k == key:
            return name
    return {v: k for k, v in RENAME.items()}.get(key, key)
BLACK_VALUE = "value"
_HINTS: dict[type, dict[str, typing.Any]] = {}
EXPECTED = phrase("notation/marco-polo-2", "see rules/marco_polo_2/notation.py (e.g. travel 2 dice=3,4 path=C1 | book 1 die=2 option=1 | khan 4 | end)")


def _hints(cls: type) -> dict[str, typing.Any]:
    h = _HINTS.get(cls)
    if h is None:
        h = _HINTS[cls] = typing.get_type_hints(cls)
    return h


def _bad(text: str, why: str = "") -> typing.NoReturn:
    codes.illegal(codes.BAD_NOTATION, "cannot read {text!r}{value_plus}; {expected}", text=text, value_plus=phrase("notation/colon", ": {why}", why=why) if why else '', expected=EXPECTED)


def _shape(tp) -> str:
    """A field type's written shape."""
    text = repr(tp).replace("typing.", "")
    if "tuple[tuple[str, str]" in text:
        return "pairs"
    if "tuple[tuple[int" in text:
        return "int-rows"
    if "tuple[tuple[str | None" in text:
        return "opt-rows"
    if "tuple[tuple[str" in text:
        return "rows"
    if "tuple[int" in text:
        return "ints"
    if "tuple[str | None" in text:
        return "opt-list"
    if "tuple[str" in text:
        return "list"
    if text.startswith("int") or text == "<class 'int'>":
        return "int"
    return "str"


def _fmt(value, shape: str) -> str:
    if shape == "int":
        return "?" if value is None else str(value)
    if shape == "str":
        return "?" if value is None else str(value)
    if shape == "list":
        return ",".join(value)
    if shape == "opt-list":
        return ",".join("?" if v is None else v for v in value)
    if shape == "ints":
        return ",".join(str(v) for v in value)
    if shape == "pairs":
        return ",".join(f"{a}:{b}" for a, b in value)
    if shape == "int-rows":
        return ";".join(",".join(str(v) for v in row) for row in value)
    if shape == "opt-rows":
        return ";".join(",".join("?" if v is None else v for v in row) for row in value)
    return ";".join(",".join(row) for row in value)


def _parse(text: str, raw: str, shape: str):
    def num(x: str) -> int:
        try:
            return int(x)
        except ValueError:
            _bad(text, phrase("notation/not-number-2", "{x!r} is not a number", x=x))

    def items(x: str) -> list[str]:
        return [v for v in x.split(",") if v] if x else []

    if shape == "int":
        return None if raw == "?" else num(raw)
    if shape == "str":
        return None if raw == "?" else raw
    if shape == "list":
        return tuple(items(raw))
    if shape == "opt-list":
        return tuple(None if v == "?" else v for v in items(raw))
    if shape == "ints":
        return tuple(num(v) for v in items(raw))
    if shape == "pairs":
        out = []
        for v in items(raw):
            a, sep, b = v.partition(":")
            if not sep:
                _bad(text, phrase("notation/pairs", "{v!r}: pairs are written city:id", v=v))
            out.append((a, b))
        return tuple(out)
    rows = raw.split(";")
    if shape == "int-rows":
        return tuple(tuple(num(v) for v in items(r)) for r in rows)
    if shape == "opt-rows":
        return tuple(tuple(None if v == "?" else v for v in items(r)) for r in rows)
    return tuple(tuple(items(r)) for r in rows)


def format_move(event: Event) -> str:
    if isinstance(event, DieRolled):
        text = f"={event.value}"
        return text if event.seat is None else f"@{event.seat} {text}"
    verb = VERB_OF.get(type(event))
    if verb is None:
        codes.illegal(codes.UNKNOWN_EVENT, "{name} is not a Marco Polo II event", name=type(event).__name__)
    cls, positional = VERBS[verb]
    hints = _hints(cls)
    words = [verb]
    seat = getattr(event, "seat", None)
    if seat is not None and "seat" not in positional:
        words.insert(0, f"@{seat}")
    for name in positional:
        value = getattr(event, name)
        if name == "delta":
            words.append(f"{value:+d}")
        else:
            words.append(_fmt(value, _shape(hints[name])))
    defaults = {f: d for f, d in zip(cls.__struct_fields__, msgspec.structs.fields(cls))}
    for name in cls.__struct_fields__:
        if name in positional or name in ("seat", "describe"):
            continue
        value = getattr(event, name)
        field = defaults[name]
        if field.default is not msgspec.NODEFAULT and value == field.default:
            continue
        words.append(f"{_key(cls, name)}={_fmt(value, _shape(hints[name]))}")
    if event.describe:
        words.append("describe=" + msgspec.json.encode([msgspec.to_builtins(c) for c in event.describe]).decode())
    return " ".join(words)


def parse_move(state, text: str) -> Event:
    if not isinstance(text, str):
        _bad(repr(text), phrase("notation/not-text", "notation is text"))
    raw = text.strip()
    describe: tuple[Component, ...] = ()
    head, sep, tail = raw.partition(" describe=")
    if sep:
        try:
            describe = tuple(msgspec.json.decode(tail.encode(), type=list[Component]))
        except msgspec.DecodeError as exc:
            _bad(text, phrase("notation/describe", "describe= takes a JSON list of {{kind, id, spec}}: {exc}", exc=exc))
    words = head.split()
    if not words:
        _bad(text)
    seat = None
    if words[0].startswith("@"):
        try:
            seat = int(words[0][1:])
        except ValueError:
            _bad(text, phrase("notation/seat", "the seat is written @0, @1, ..."))
        words = words[1:]
    if not words or words[0] not in VERBS:
        if words and words[0].startswith("=") and len(words) == 1:
            return DieRolled(value=_parse(text, words[0][1:], "int"), seat=seat)
        _bad(text, phrase("notation/verb", "unknown verb {words_0!r}", words_0=words[0] if words else ''))
    verb, args = words[0], words[1:]
    cls, positional = VERBS[verb]
    hints = _hints(cls)
    fields: dict[str, typing.Any] = {}
    pos = [a for a in args if "=" not in a or a.startswith("=")]
    keyed = [a for a in args if a not in pos]
    if verb == "black" and len(pos) == 1:
        fields["value"] = _parse(text, pos[0], "int")
        pos = []
    if len(pos) != len(positional):
        _bad(text, phrase("notation/positional", "{verb} takes {n_positional} word(s) before key=value ({positional})", verb=verb, n_positional=len(positional), positional=', '.join(positional) or phrase("notation/none", "none")))
    for name, value in zip(positional, pos):
        if name == "delta":
            fields[name] = _parse(text, value.lstrip("+"), "int")
        else:
            fields[name] = _parse(text, value, _shape(hints[name]))
    for word in keyed:
        key, _, value = word.partition("=")
        name = _unkey(cls, key)
        if name not in hints or name in ("seat", "describe") or name in positional:
            _bad(text, phrase("notation/no-field", "{verb} has no field {key!r}", verb=verb, key=key))
        fields[name] = _parse(text, value, _shape(hints[name]))
    if "seat" in hints and "seat" not in positional:
        fields["seat"] = seat
    try:
        return cls(describe=describe, **fields)
    except TypeError as exc:
        _bad(text, str(exc))
