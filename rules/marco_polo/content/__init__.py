"""The Voyages of Marco Polo content pack: every component as data, with stable ids and a hash.

The pack is plain data (``data.PACK``: dicts, lists, strings, ints). ``PACK_ID`` and
``PACK_HASH`` (sha256 of the pack's canonical JSON) pin it: a game may pass
``options={"content": {"id": PACK_ID, "hash": PACK_HASH}}`` (the same value the caller stores in
``GameCreated.content``) and ``setup`` refuses a mismatch (``marco-polo.content-mismatch``).

This module also derives the lookup tables the rules use (adjacency, costs, effects), so the
rest of the core reads components only from here.
"""

from __future__ import annotations

import hashlib

import msgspec

from rules.marco_polo.content.data import PACK

PACK_ID: str = PACK["id"]
PACK_HASH: str = hashlib.sha256(msgspec.json.encode(PACK, order="sorted")).hexdigest()
CONTENT_REF: dict[str, str] = {"id": PACK_ID, "hash": PACK_HASH}

GOODS: tuple[str, ...] = ("pepper", "silk", "gold")
RESOURCES: tuple[str, ...] = ("coins", "camels", "pepper", "silk", "gold", "vp")

# --- map ---------------------------------------------------------------------------------------
LOCATIONS: dict[str, dict] = {loc["id"]: loc for loc in PACK["locations"]}
LOCATION_IDS: tuple[str, ...] = tuple(LOCATIONS)
KIND: dict[str, str] = {k: v["kind"] for k, v in LOCATIONS.items()}
NAME: dict[str, str] = {k: v["name"] for k, v in LOCATIONS.items()}
START = "VEN"
BEIJING = "BEI"
LARGE_CITIES: tuple[str, ...] = tuple(k for k, v in LOCATIONS.items() if v["kind"] == "large")
SMALL_CITIES: tuple[str, ...] = tuple(k for k, v in LOCATIONS.items() if v["kind"] == "small")
OASES: tuple[str, ...] = tuple(k for k, v in LOCATIONS.items() if v["kind"] == "oasis")
#: cities where a trading post can stand (small, large, Beijing)
POST_CITIES: frozenset[str] = frozenset(SMALL_CITIES + LARGE_CITIES + (BEIJING,))

ROUTES: dict[str, dict] = {r["id"]: r for r in PACK["routes"]}
#: (a, b) -> route cost dict (both directions)
ROUTE_COST: dict[tuple[str, str], dict[str, int]] = {}
ADJACENT: dict[str, tuple[str, ...]] = {k: () for k in LOCATIONS}
for _r in PACK["routes"]:
    _a, _b = _r["ends"]
    ROUTE_COST[(_a, _b)] = ROUTE_COST[(_b, _a)] = dict(_r["cost"])
    ADJACENT[_a] += (_b,)
    ADJACENT[_b] += (_a,)
TRAVEL_COST: dict[int, int] = {int(k): v for k, v in PACK["travel_cost"].items()}

# --- bazaar, Khan's favor, Beijing --------------------------------------------------------------
BAZAAR: dict[str, dict] = {row["good"]: row for row in PACK["bazaar"]}
BAZAAR_ROWS: tuple[str, ...] = tuple(BAZAAR)
BEIJING_VP: tuple[int, ...] = tuple(PACK["beijing_vp"])
KHAN_SLOTS: int = PACK["khan_slots"]
OBJECTIVE_TABLE: tuple[int, ...] = tuple(PACK["objective_city_vp"])
POST_VP: dict[int, int] = {int(k): v for k, v in PACK["post_vp"].items()}

# --- cards and tiles ---------------------------------------------------------------------------
CONTRACTS: dict[str, dict] = {c["id"]: c for c in PACK["contracts"]}
STARTING_CONTRACTS: tuple[str, ...] = tuple(c["id"] for c in PACK["contracts"] if c["starting"])
NORMAL_CONTRACTS: tuple[str, ...] = tuple(c["id"] for c in PACK["contracts"] if not c["starting"])
CITY_CARDS: dict[str, dict] = {c["id"]: c for c in PACK["city_cards"]}
CITY_CARD_IDS: tuple[str, ...] = tuple(CITY_CARDS)
#: the nine city-card spaces: one per large city, three in Sumatra
CITY_CARD_SPACES: tuple[str, ...] = tuple(PACK["city_card_spaces"])
SPACE_CITY: dict[str, str] = {s: s.split("-")[0] for s in CITY_CARD_SPACES}
CITY_BONUSES: dict[str, dict] = {b["id"]: b for b in PACK["city_bonuses"]}
CITY_BONUS_IDS: tuple[str, ...] = tuple(CITY_BONUSES)
DEFAULT_CITY_BONUS: dict[str, str] = {b["home"]: b["id"] for b in PACK["city_bonuses"]}
OUTPOST_BONUSES: dict[str, dict] = {b["id"]: b for b in PACK["outpost_bonuses"]}
OUTPOST_BONUS_IDS: tuple[str, ...] = tuple(OUTPOST_BONUSES)
OBJECTIVES: dict[str, dict] = {o["id"]: o for o in PACK["objectives"]}
OBJECTIVE_IDS: tuple[str, ...] = tuple(OBJECTIVES)
CHARACTERS: dict[str, dict] = {c["id"]: c for c in PACK["characters"]}
CHARACTER_IDS: tuple[str, ...] = tuple(CHARACTERS)
FIRST_GAME_CHARACTERS: tuple[str, ...] = tuple(PACK["first_game_characters"])
SETUP_BY_PLAYERS: dict[int, dict] = {int(k): v for k, v in PACK["setup"].items()}

__all__ = [name for name in dir() if name.isupper()]
