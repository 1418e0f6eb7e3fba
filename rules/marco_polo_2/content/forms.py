"""The form schema of Marco Polo II's components: what the page asks for each kind a pack lists or
an event describes, in plain words, generated into forms (never JSON) by ``api/web/static/packforms.js``.

``pack_forms()`` returns plain JSON-able data::

    {"version": 1, "title": ..., "resources": [...], "icons": [...], "guilds": [...],
     "specials": [...], "kinds": {kind: {"label", "help", "where", "id", "fields": [field, ...]}}}

A field is ``{"name", "type", "label", "help", "required", ...}`` by ``type``:

- ``integer`` / ``number``: ``min``, ``max`` (``None``: no upper bound), ``default``;
- ``bundle``: counts over ``keys`` (resources, guilds or contract icons; ``limits`` caps some keys),
  ``nonempty`` when it must hold something;
- ``choice``: ``choices`` ``[{"value", "label", "help"}]``;
- ``boolean``: ``default``; a false one is left out of the spec (every flag is false when absent);
- ``text``: free words (``suggest: "shields"``: the page offers the shields the pack's cities show);
- ``ref``: the id of another component (``ref``: its kind);
- ``list``: ``item`` (a field without a name), ``min``, ``max`` items, ``distinct``;
- ``object``: ``fields``.

``when: {"field": f, "in": [...]}`` shows a field only for those values of ``f`` (a city card's
fields follow its ``kind``); a field not set (``default: None``, an empty bundle that is not
``required``, no choice made) is left out of the spec; ``hidden`` fields are kept from the initial spec but not asked
(a place's ``x``/``y`` are set by dragging it on the map). ``id`` describes the component's id: a
``text`` code, a ``choice`` (seals, special cities, books) or ``derived`` from other fields
(a route's is its ends). The fields and ``schema.validate_component`` agree field for field
(``tests/rules/marco_polo_2/test_mp2_forms.py``).
"""

from __future__ import annotations

import copy
from typing import Any

from rules.marco_polo_2.content.schema import CONTRACT_ICONS, GUILDS, RESOURCES, SPECIAL_CITIES

RESOURCE_LABELS: dict[str, tuple[str, str]] = {
    "coins": ("Coins", "coin"), "camels": ("Camels", "camel"), "pepper": ("Pepper", "pepper"),
    "silk": ("Silk", "silk"), "gold": ("Gold", "gold"), "jade": ("Jade", "jade"), "vp": ("Victory points", "VP"),
}
ICON_LABELS: dict[str, tuple[str, str]] = {
    "contract": ("A contract from a city where you have a trading post", "contract"),
    "contract_pile": ("The top contract of the pile, into your hand", "pile contract"),
    "black_die": ("A black die", "black die"),
}
GUILD_LABELS: dict[str, str] = {"farmer": "Farmers", "spicer": "Spice traders", "tailor": "Tailors", "jeweler": "Jewelers"}
SPECIAL_LABELS: dict[str, str] = {"baghdad": "Baghdad", "balkh": "Balkh", "hormuz": "Hormuz"}
COST = ("coins", "camels", "pepper", "silk", "gold", "jade")  # what a contract may ask for (schema._contract)


def _f(name: str, type_: str, label: str, help_: str = "", *, required: bool = False, **more: Any) -> dict:
    return {"name": name, "type": type_, "label": label, "help": help_, "required": required, **more}


def _int(name, label, help_="", *, lo=0, hi=None, default=0, required=False, **more) -> dict:
    return _f(name, "integer", label, help_, required=required, min=lo, max=hi, default=default, **more)


def _bundle(name, label, help_="", *, keys=RESOURCES, nonempty=False, required=False, limits=None, **more) -> dict:
    out = _f(name, "bundle", label, help_, required=required, keys=list(keys), nonempty=nonempty, **more)
    if limits:
        out["limits"] = dict(limits)
    return out


def _bool(name, label, help_="", **more) -> dict:
    return _f(name, "boolean", label, help_, default=False, **more)


def _choice(name, label, help_, choices, *, required=False, **more) -> dict:
    return _f(name, "choice", label, help_, required=required,
              choices=[{"value": v, "label": lab, "help": hp} for v, lab, hp in choices], **more)


def _when(field: str, *values: str) -> dict:
    return {"field": field, "in": list(values)}


def _one_each(label: str, help_: str, path: str, id_label: str, ids: list[tuple[str, str]], fields: list[dict]) -> dict:
    """A kind of which the board has one per fixed id (a guild's seal, a special city), keyed by it."""
    return {"label": label, "help": help_, "where": {"path": path, "as": "dict"},
            "id": {"type": "choice", "label": id_label, "help": "", "choices": [{"value": v, "label": lab, "help": ""} for v, lab in ids]},
            "fields": fields}


def _guild_choices() -> list[tuple[str, str, str]]:
    return [(g, GUILD_LABELS[g], "") for g in GUILDS]


def _shield(name="shield", label="Shield", help_="The coat of arms printed on the city.", **more) -> dict:
    return _f(name, "text", label, help_, suggest="shields", **more)


def _code(help_: str) -> dict:
    return {"type": "text", "label": "Code", "help": help_}


CARD_KINDS: tuple[tuple[str, str, str], ...] = (
    ("exchange", "Pay and gain, once per pip", "Pay what is shown (if anything), gain what is shown; as many times as the die shows."),
    ("per_contract", "Gain per completed contract", "Gain what is shown for each contract you have completed, at most the die."),
    ("per_post", "Gain per trading post", "Gain what is shown for each of your trading posts on the board, at most the die."),
    ("choice", "One of two exchanges", "Pick one of the exchanges shown and do it as many times as the die shows, always the same one."),
    ("bonuses", "City bonuses of your posts", "Take the bonus marker of a city with your trading post, a different one each time, up to the die."),
    ("guild", "Take a guild seal", "Pay what is shown, then take a guild seal as the guild action would, the die as your lowest die."),
    ("move", "Move your figure", "Move your figure up to the die (or the number shown) steps, paying routes as in a travel."),
)


def _kinds() -> dict[str, dict]:
    node = {
        "label": "Place on the map", "help": "A city, an oasis or Beijing, where figures travel and trading posts stand.",
        "where": {"path": "map.nodes", "as": "list"},
        "id": _code("Its short code, e.g. the first letters of the name (BEI for Beijing)."),
        "fields": [
            _f("name", "text", "Name", "The name printed on the board."),
            _choice("kind", "What it is", "", [
                ("city", "City", "A city with a shield; trading posts stand here."),
                ("oasis", "Oasis", "A small stop between cities; no trading posts."),
                ("start", "Beijing (the start)", "Where every figure starts."),
            ], required=True, default="city"),
            _shield(required=True, when=_when("kind", "city")),
            _choice("special", "Special city", "Baghdad, Balkh and Hormuz have their own action space.",
                    [(c, SPECIAL_LABELS[c], "") for c in SPECIAL_CITIES], when=_when("kind", "city")),
            _f("slots", "list", "What lies on it at setup", "The spaces printed beside the city.",
               item={"type": "choice", "choices": [
                   {"value": "bonus", "label": "City bonus marker", "help": ""},
                   {"value": "outpost", "label": "Outpost tile", "help": ""},
                   {"value": "contracts", "label": "Two contract spaces", "help": ""},
                   {"value": "card", "label": "City card", "help": ""},
               ]}, min=0, max=4, distinct=True, when=_when("kind", "city")),
            _f("x", "number", "Across", "Set by dragging the place on the map.", min=0, max=1000, default=500, hidden=True),
            _f("y", "number", "Down", "Set by dragging the place on the map.", min=0, max=1000, default=500, hidden=True),
        ],
    }
    route = {
        "label": "Route", "help": "A road between two places; travelling along it costs what is printed on it.",
        "where": {"path": "map.routes", "as": "list"},
        "id": {"derived": "ends", "label": "Its two ends", "help": "A route is named by the places it joins."},
        "fields": [
            _f("ends", "list", "Between", "The two places it joins.", required=True,
               item={"type": "ref", "ref": "node"}, min=2, max=2, distinct=True),
            _int("coins", "Coins to pay", "The coins printed on the route."),
            _int("camels", "Camels to pay", "The camels printed on the route."),
            _int("jade", "Jade to pay", "The jade printed on the route."),
            _choice("guild", "Guild needed", "A guild sign on the route: only holders of that guild's seal (improved or not) may pass.",
                    _guild_choices()),
        ],
    }
    contract = {
        "label": "Contract", "help": "Deliver what the top shows to receive what the bottom shows.",
        "where": {"path": "contracts", "as": "list"},
        "id": _code("The card's code (the group's own numbering is fine)."),
        "fields": [
            _bundle("cost", "You deliver", "What the contract asks for.", keys=COST, nonempty=True, required=True),
            _bundle("reward", "You receive", "What you receive; the last three are the reward pictures.",
                    keys=RESOURCES + CONTRACT_ICONS, limits={i: 1 for i in CONTRACT_ICONS}, nonempty=True, required=True),
            _bool("starting", "Starting contract (blue back)", "One of the contracts dealt at the start of the game."),
        ],
    }
    city_card = {
        "label": "City card", "help": "The action of a city: place a die there (you need a trading post) and do what it shows.",
        "where": {"path": "city_cards", "as": "list"},
        "id": _code("The card's code."),
        "fields": [
            _choice("kind", "What the card does", "", CARD_KINDS, required=True, default="exchange"),
            _bundle("pay", "You pay", "What you pay each time (nothing when the card shows no cost).",
                    when=_when("kind", "exchange", "guild")),
            _bundle("gain", "You gain", "What you gain each time.", nonempty=True, required=True,
                    when=_when("kind", "exchange", "per_contract", "per_post")),
            _f("options", "list", "The exchanges to choose from", "Each option: what you pay, what you gain.",
               required=True, item={"type": "object", "fields": [
                   _bundle("pay", "You pay", ""), _bundle("gain", "You gain", "", nonempty=True, required=True),
               ]}, min=2, max=None, when=_when("kind", "choice")),
            _bool("vp_below_zero", "Victory points may go below zero",
                  "The card trades victory points and allows the track to go below 0.", when=_when("kind", "choice")),
            _int("max", "At most this many steps", "The most steps the card allows (empty: as many as the die).",
                 lo=1, hi=6, default=None, when=_when("kind", "move")),
            _f("text", "text", "What is printed", "The card's words, for people (the rules do not read them)."),
        ],
    }
    gain_only = [
        _bundle("gain", "You gain", "What it gives.", required=True, nonempty=False, when=_when("any_bonus", False)),
        _bool("any_bonus", "Any other city bonus",
              "It gives the bonus of any other city bonus marker on the board, a different one each time."),
        _f("text", "text", "What is printed", "Its words, for people (the rules do not read them)."),
    ]
    city_bonus = {
        "label": "City bonus marker", "help": "The round marker on a city: its bonus pays at the start of every round to each player with a post there.",
        "where": {"path": "city_bonuses", "as": "list"}, "id": _code("The marker's code."), "fields": copy.deepcopy(gain_only),
    }
    outpost = {
        "label": "Outpost tile", "help": "The tile beside a city: the first trading post there takes it.",
        "where": {"path": "outposts", "as": "list"}, "id": _code("The tile's code."), "fields": copy.deepcopy(gain_only),
    }
    goal = {
        "label": "Goal card", "help": "Secret until the end: victory points for each improved guild seal shown, and +1 shield for each shield shown where you have a post.",
        "where": {"path": "goals", "as": "list"}, "id": _code("The card's code."),
        "fields": [
            _bundle("guilds", "Victory points per improved guild seal", "The points printed beside each guild.", keys=GUILDS),
            _f("shields", "list", "Shields shown", "Each shield on the card: +1 if you have a post in such a city.",
               item={"type": "text", "suggest": "shields"}, min=0, max=None),
        ],
    }
    offer = {
        "label": "Book offer tile", "help": "A tile laid on a book for the round: its two lower options, bought with 1 and 2 jade.",
        "where": {"path": "offers", "as": "list"}, "id": _code("The tile's code."),
        "fields": [
            _choice("book", "Book", "Which book it belongs to (the number on its back).", [
                (1, "Left book (die 1 or more)", ""), (2, "Middle book (die 3 or more)", ""), (3, "Right book (die 5 or more)", ""),
            ], required=True, default=1),
            _bundle("jade1", "For 1 jade", "The option bought with one jade.", required=True),
            _bundle("jade2", "For 2 jade", "The option bought with two jade.", required=True),
        ],
    }
    book = {
        "label": "Book (free options)", "help": "The two options printed on a book, free with a die high enough.",
        "where": {"path": "books", "as": "index"},
        "id": {"type": "choice", "label": "Book", "help": "", "choices": [
            {"value": "1", "label": "Left book (die 1 or more)", "help": ""},
            {"value": "2", "label": "Middle book (die 3 or more)", "help": ""},
            {"value": "3", "label": "Right book (die 5 or more)", "help": ""},
        ]},
        "fields": [
            _int("min_die", "Lowest die", "Fixed by the rules: 1, 3 and 5.", lo=1, hi=6, default=None, hidden=True),
            _f("fixed", "list", "Its two options", "What each option gives.", required=True,
               item={"type": "bundle", "keys": list(RESOURCES), "nonempty": False}, min=2, max=2),
        ],
    }
    seal = _one_each(
        "Guild seal", "A guild's marker: its cost to improve on the top, its bonus («!») below.", "seals",
        "Guild", [(g, GUILD_LABELS[g]) for g in GUILDS], [
            _bundle("improve", "To improve it, pay", "The cost printed on the seal.", required=True),
            _bundle("bonus", "Its bonus («!»)", "What it gives at once when improved, and at every round start.", required=True),
            _bool("plus_one", "Shows «+1»", "A «+1» shield at the end of the game."),
        ])
    special = _one_each(
        "Special city", "The action space of Baghdad, Balkh or Hormuz (you need a trading post there).", "specials",
        "City", [(c, SPECIAL_LABELS[c]) for c in SPECIAL_CITIES], [
            _bundle("reward", "You receive", "What its space gives.", required=True),
            _choice("guild", "Guild shown", "With this guild's improved seal you also get that seal's bonus.", _guild_choices(), required=True),
            _int("twice_at", "Twice with a die of at least", "The die that pays it twice.", lo=1, hi=6, default=4, required=True),
        ])
    route_tile = {
        "label": "Caravan route tile", "help": "A caravan's route: it joins two shields.",
        "where": {"path": "route_tiles", "as": "list"}, "id": _code("The tile's code."),
        "fields": [
            _f("shields", "list", "Its two shields", "The shield at each end.", required=True,
               item={"type": "text", "suggest": "shields"}, min=2, max=2),
        ],
    }
    return {
        "node": node, "route": route, "contract": contract, "city_card": city_card, "city_bonus": city_bonus,
        "outpost": outpost, "goal": goal, "offer": offer, "book": book, "seal": seal, "special": special,
        "route_tile": route_tile,
    }


def pack_forms() -> dict[str, Any]:
    """The form schema of every component kind (a fresh copy: callers may change it)."""
    return {
        "version": 1,
        "title": "marco-polo-2",
        "resources": [{"id": k, "label": RESOURCE_LABELS[k][0], "short": RESOURCE_LABELS[k][1]} for k in RESOURCES],
        "icons": [{"id": k, "label": ICON_LABELS[k][0], "short": ICON_LABELS[k][1]} for k in CONTRACT_ICONS],
        "guilds": [{"id": g, "label": GUILD_LABELS[g]} for g in GUILDS],
        "specials": [{"id": c, "label": SPECIAL_LABELS[c]} for c in SPECIAL_CITIES],
        "kinds": _kinds(),
    }
