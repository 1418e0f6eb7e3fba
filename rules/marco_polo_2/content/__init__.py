"""Marco Polo II content packs: loading, validation, pinning by id and hash, lookups.

Two packs ship: ``public`` (the facts the seed and reference part B make public; the default) and
``synthetic`` (INVENTED, complete, for tests). The registry ``PACKS`` keeps packs by **hash**: two
stores may each hold a pack ``ours-v2`` with other content, and both can be loaded in one process.
A game pins its pack with ``options={"content": {"id": ..., "hash": ...}}``; ``setup`` refuses an
unknown pack, an id that does not match the hash, or an id alone that names no pack or more than
one (``marco-polo-2.content-mismatch``). The format is in ``README.md`` here.

A component the pinned pack lacks is looked up in the descriptions the log has recorded so far
(``state.described``); see ``engine.component``.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from rules.marco_polo_2.content.schema import GOODS, GUILDS, KINDS, RESOURCES, SECTIONS, PackError, validate_pack


def route_id(a: str, b: str) -> str:
    """A route's id: its two ends, sorted, joined by ``-``."""
    return f"{a}-{b}" if a <= b else f"{b}-{a}"


class Pack:
    """A validated pack with its lookup tables (read-only by convention)."""

    def __init__(self, data: dict[str, Any]) -> None:
        validate_pack(data)
        self.data = data
        self.id: str = data["id"]
        self.hash: str = hashlib.sha256(msgspec.json.encode(data, order="sorted")).hexdigest()
        self.ref: dict[str, str] = {"id": self.id, "hash": self.hash}
        self.invented: bool = bool(data.get("invented"))
        d = data
        self.rounds: int = d["rounds"]
        self.dice: int = d["dice_per_player"]
        self.start: dict[str, int] = d["start"]
        self.posts: int = d["posts"]
        self.post_vp: dict[int, int] = {int(k): v for k, v in d["post_vp"].items()}
        self.compensation_total: int = d["compensation_total"]
        self.shield_vp: tuple[int, ...] = tuple(d["shield_vp"])
        self.travel: dict[int, dict] = {int(k): v for k, v in d["travel"].items()}
        self.book_min: tuple[int, ...] = tuple(b["min_die"] for b in d["books"])
        self.jade_prices: tuple[int, ...] = tuple(d["jade_prices"])
        self.khan: dict = d["khan"]
        self.contracts_action: dict = d["contracts_action"]
        self.guilds: dict[str, dict] = d["guilds"]
        self.money_bag: tuple[dict, ...] = tuple(d["money_bag"])
        self.bonus_costs: dict[str, int] = d["bonus_costs"]
        self.black_dice: dict[int, int] = {int(k): v for k, v in d["black_dice"].items()}
        self.neutral: dict[int, dict] = {int(k): v for k, v in d.get("neutral", {}).items()}
        self.most_contracts_vp: tuple[int, int] = tuple(d["most_contracts_vp"])
        self.goods_per_vp: int = d["goods_per_vp"]
        self.coins_per_vp: int = d["coins_per_vp"]
        self.caravan: dict = d["caravan"]
        self.characters: tuple[str, ...] = tuple(d["characters"])
        self.caravan_characters: tuple[str, ...] = tuple(d["caravan_characters"])
        self.start_city: str = d["start_city"]
        self.contract_pile: int = d["contract_pile"]
        comp: dict[str, dict[str, dict]] = {k: {} for k in KINDS}
        for n in d["map"]["nodes"]:
            comp["node"][n["id"]] = n
        for r in d["map"]["routes"]:
            comp["route"][route_id(*r["ends"])] = r
        for section, kind in SECTIONS.items():
            for item in d.get(section, []):
                comp[kind][item["id"]] = item
        for i, b in enumerate(d["books"]):
            if b.get("fixed") is not None:
                comp["book"][str(i + 1)] = {"id": str(i + 1), **b}
        for g, s in d.get("seals", {}).items():
            comp["seal"][g] = {"id": g, **s}
        for c, s in d.get("specials", {}).items():
            comp["special"][c] = {"id": c, **s}
        self.components = comp
        self.slots: dict[str, tuple[str, ...]] = {k: tuple(v.get("slots", ())) for k, v in comp["node"].items()}
        self.starting_contracts: tuple[str, ...] = tuple(k for k, v in comp["contract"].items() if v.get("starting"))
        self.normal_contracts: tuple[str, ...] = tuple(k for k, v in comp["contract"].items() if not v.get("starting"))
        #: a complete pack can lay out a digital game by itself (chance draws ids only)
        self.complete: bool = all(
            comp[k] for k in ("contract", "city_card", "city_bonus", "outpost", "goal", "offer", "route_tile", "book")
        ) and len(comp["seal"]) == 4 and len(comp["special"]) == 3 and bool(d["map"]["routes"])

    def get(self, kind: str, cid: str) -> dict | None:
        return self.components[kind].get(cid)

    def cities_with(self, slot: str) -> tuple[str, ...]:
        return tuple(k for k, v in self.slots.items() if slot in v)


def load(data: dict[str, Any]) -> Pack:
    """A pack from plain data; raises ``PackError`` naming the bad field."""
    return Pack(data)


def _builtin() -> dict[str, Pack]:
    from rules.marco_polo_2.content.public import PACK as PUBLIC_DATA
    from rules.marco_polo_2.content.synthetic import PACK as SYNTHETIC_DATA

    packs = [Pack(PUBLIC_DATA), Pack(SYNTHETIC_DATA)]
    return {p.hash: p for p in packs}


PACKS: dict[str, Pack] = _builtin()
PUBLIC: Pack = next(p for p in PACKS.values() if not p.invented)
SYNTHETIC: Pack = next(p for p in PACKS.values() if p.invented)
PACK_ID: str = PUBLIC.id
PACK_HASH: str = PUBLIC.hash
CONTENT_REF: dict[str, str] = PUBLIC.ref


#: the packs shipped with the core (listed read-only in every store's library)
BUILTIN: tuple[Pack, ...] = (PUBLIC, SYNTHETIC)


def register(pack: Pack) -> Pack:
    """Make a pack (e.g. one a group wrote or grew) selectable by ``options.content``; the one
    already registered under the same hash is kept (same hash, same content)."""
    return PACKS.setdefault(pack.hash, pack)


def with_id(pack_id: str) -> list[Pack]:
    """Every registered pack with this id (more than one when stores disagree on its content)."""
    return [p for p in PACKS.values() if p.id == pack_id]


__all__ = [
    "BUILTIN", "CONTENT_REF", "GOODS", "GUILDS", "KINDS", "PACKS", "PACK_HASH", "PACK_ID", "PUBLIC", "RESOURCES", "SYNTHETIC",
    "Pack", "PackError", "load", "register", "route_id", "with_id",
]
