"""Components: from the pinned pack or, when it lacks them, from descriptions recorded in the log."""

from __future__ import annotations

import msgspec
from functools import lru_cache

from rules.marco_polo_2 import codes
from rules.marco_polo_2.content import route_id
from rules.marco_polo_2.content.schema import PackError, validate_component
from rules.marco_polo_2.work import Work


@lru_cache(maxsize=256)
def _described_map(described: tuple[tuple[str, str, str], ...]) -> dict[tuple[str, str], dict]:
    return {(k, i): msgspec.json.decode(s) for k, i, s in described}


def canonical(spec: dict) -> str:
    return msgspec.json.encode(spec, order="sorted").decode()


def component(w: Work, kind: str, cid: str, what: str = "") -> dict:
    """A component from the pack, else from the log's descriptions; refuses an unknown one."""
    spec = w.pack.components[kind].get(cid)
    if spec is not None:  # the common case, without a call
        return spec
    spec = known(w, kind, cid)
    if spec is not None:
        return spec
    codes.illegal(
        codes.UNDESCRIBED,
        "{kind} {cid!r} is not in content pack {pack_id}; describe it in the event that brings it to the table (describe=[{{kind: {kind!r}, id: {cid!r}, spec: ...}}]){value_plus}", kind=kind, cid=cid, pack_id=w.pack.id, value_plus=' ' + what if what else '',
        details={"kind": kind, "id": cid},
    )


def known(w: Work, kind: str, cid: str) -> dict | None:
    spec = w.pack.components[kind].get(cid)
    if spec is not None:
        return spec
    described = w.get("described")
    spec = _described_map(described).get((kind, cid)) if described else None
    if spec is not None:
        w.resting.add(f"{kind}:{cid}")
    return spec


#: a node's place on the drawn map: not a rules fact, so two descriptions may differ there
LAYOUT = ("x", "y")


def _same(pack_spec: dict, spec: dict) -> bool:
    return all(pack_spec.get(k, 0 if isinstance(v, int) else None) == v for k, v in spec.items() if k != "id" and k not in LAYOUT)


def _facts(spec: dict) -> dict:
    return {k: v for k, v in spec.items() if k not in LAYOUT}


def apply_descriptions(w: Work, describe) -> None:
    """Checks and records the components an event describes (before the event takes effect)."""
    if not describe:
        return
    known_map = _described_map(w.get("described"))
    added: list[tuple[str, str, str]] = []
    for c in describe:
        w.resting.add(f"{c.kind}:{c.id}")
        spec = msgspec.json.decode(msgspec.json.encode(c.spec))
        if w.strict:
            try:
                validate_component(c.kind, spec, f"describe[{c.kind}:{c.id}]")
            except PackError as exc:
                codes.illegal(codes.BAD_DESCRIPTION, "bad description: {exc}", exc=exc)
            if c.kind == "route" and route_id(*spec["ends"]) != c.id:
                codes.illegal(codes.BAD_DESCRIPTION, "route {c_id!r}: its id is its sorted ends joined by '-', {route_id!r}", c_id=c.id, route_id=route_id(*spec['ends']))
            in_pack = w.pack.get(c.kind, c.id)
            if in_pack is not None and not _same(in_pack, spec):
                codes.contradiction(codes.DESCRIPTION_MISMATCH, "{c_kind} {c_id}: the pinned pack says {in_pack}, not {spec}", c_kind=c.kind, c_id=c.id, in_pack=in_pack, spec=spec)
            old = known_map.get((c.kind, c.id))
            if old is not None and _facts(old) != _facts(spec):
                codes.contradiction(codes.DESCRIPTION_MISMATCH, "{c_kind} {c_id} was described as {old}, not {spec}", c_kind=c.kind, c_id=c.id, old=old, spec=spec)
        if w.pack.get(c.kind, c.id) is None and (c.kind, c.id) not in known_map:
            added.append((c.kind, c.id, canonical(spec)))
    if added:
        w.f["described"] = w.get("described") + tuple(added)
