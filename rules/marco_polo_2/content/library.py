"""Pure functions over pack data for a store's pack library: a pack's components, a new version
with components added, replaced or removed, the difference of two versions, and what a game's
log described that its pack lacks.

A component is ``(kind, id, spec)`` with the spec as an event's ``describe`` carries it (no
``id``). Map nodes and routes are components too (``node``, ``route``); a book's component is
its two free options (with its ``min_die``).
"""

from __future__ import annotations

import copy
from typing import Any, Iterable

import msgspec

from rules.marco_polo_2.content import Pack, route_id
from rules.marco_polo_2.content.schema import KINDS, SECTIONS, PackError, validate_component

Component = tuple[str, str, dict[str, Any]]

#: component kind -> pack section (list of components with ``id``)
_SECTION_OF = {kind: section for section, kind in SECTIONS.items()}
#: kinds kept as a mapping id -> spec
_MAPPED = {"seal": "seals", "special": "specials"}
#: described kinds that stay secret until their game's end
SECRET_KINDS: tuple[str, ...] = ("goal",)


def _without_id(item: dict) -> dict:
    return {k: v for k, v in item.items() if k != "id"}


def components(data: dict) -> list[Component]:
    """Every component of a pack, in the pack's order."""
    out: list[Component] = [("node", n["id"], _without_id(n)) for n in data["map"]["nodes"]]
    out += [("route", route_id(*r["ends"]), _without_id(r)) for r in data["map"]["routes"]]
    for section, kind in SECTIONS.items():
        out += [(kind, item["id"], _without_id(item)) for item in data.get(section, [])]
    out += [("book", str(i + 1), dict(b)) for i, b in enumerate(data["books"]) if b.get("fixed") is not None]
    for kind, key in _MAPPED.items():
        out += [(kind, cid, dict(spec)) for cid, spec in data.get(key, {}).items()]
    return out


def counts(data: dict) -> dict[str, int]:
    """How many components of each kind a pack holds (every kind named, 0 included)."""
    tally = dict.fromkeys(KINDS, 0)
    for kind, _, _ in components(data):
        tally[kind] += 1
    return tally


def _index(data: dict) -> dict[tuple[str, str], dict]:
    return {(k, i): s for k, i, s in components(data)}


def _canonical(value: Any) -> bytes:
    return msgspec.json.encode(value, order="sorted")


def agrees(in_pack: dict, spec: dict) -> bool:
    """Whether a described spec says what the pack says (as the engine checks a description)."""
    return all(in_pack.get(k, 0 if isinstance(v, int) else None) == v for k, v in spec.items() if k != "id")


def _put(data: dict, kind: str, cid: str, spec: dict, path: str) -> None:
    """Add or overwrite one component in ``data`` (mutated)."""
    if kind == "node":
        nodes = data["map"]["nodes"]
        item = {"id": cid, **spec}
        at = next((i for i, n in enumerate(nodes) if n["id"] == cid), None)
        nodes.append(item) if at is None else nodes.__setitem__(at, item)
    elif kind == "route":
        if route_id(*spec["ends"]) != cid:
            raise PackError(f"{path}.id", "a route's id is its sorted ends joined by '-', {id}", id=repr(route_id(*spec['ends'])))
        routes = data["map"]["routes"]
        at = next((i for i, r in enumerate(routes) if route_id(*r["ends"]) == cid), None)
        routes.append(dict(spec)) if at is None else routes.__setitem__(at, dict(spec))
    elif kind == "book":
        if cid not in ("1", "2", "3"):
            raise PackError(f"{path}.id", "a book is 1, 2 or 3, not {id}", id=repr(cid))
        data["books"][int(cid) - 1].update(spec)
    elif kind in _MAPPED:
        data.setdefault(_MAPPED[kind], {})[cid] = _without_id(spec)
    else:
        items = data.setdefault(_SECTION_OF[kind], [])
        item = {"id": cid, **spec}
        at = next((i for i, x in enumerate(items) if x["id"] == cid), None)
        items.append(item) if at is None else items.__setitem__(at, item)


def _drop(data: dict, kind: str, cid: str) -> None:
    if kind == "node":
        data["map"]["nodes"] = [n for n in data["map"]["nodes"] if n["id"] != cid]
    elif kind == "route":
        data["map"]["routes"] = [r for r in data["map"]["routes"] if route_id(*r["ends"]) != cid]
    elif kind == "book":
        data["books"][int(cid) - 1].pop("fixed", None)
    elif kind in _MAPPED:
        data.get(_MAPPED[kind], {}).pop(cid, None)
    else:
        data[_SECTION_OF[kind]] = [x for x in data.get(_SECTION_OF[kind], []) if x["id"] != cid]


def _component(item: Any, path: str, with_spec: bool) -> Component:
    if not isinstance(item, dict):
        raise PackError(path, "must be an object {{kind, id, spec}}")
    kind, cid = item.get("kind"), item.get("id")
    if kind not in KINDS:
        raise PackError(f"{path}.kind", "must be one of {choices}, not {value}", choices=', '.join(KINDS), value=repr(kind))
    if not isinstance(cid, str) or not cid:
        raise PackError(f"{path}.id", "must be a non-empty string, not {value}", value=repr(cid))
    if not with_spec:
        return kind, cid, {}
    spec = validate_component(kind, item.get("spec"), f"{path}.spec")
    return kind, cid, _without_id(spec)


def derive(
    data: dict, new_id: str, add: Iterable[Any] = (), replace: Iterable[Any] = (), remove: Iterable[Any] = ()
) -> dict:
    """A new pack: ``data`` with components added (new ids only), replaced (existing ids only) and
    removed, under ``new_id``. Raises ``PackError`` naming the bad field (``add[2].spec.coins``,
    ``remove[0].id``, or the new pack's own ``pack.map.routes[3].ends[1]``)."""
    out = copy.deepcopy(data)
    out["id"] = new_id
    known = _index(data)
    #: (kind, id) -> where it was first named: one version changes a component once
    named: dict[tuple[str, str], str] = {}
    for name, items, must_exist in (("remove", remove, True), ("replace", replace, True), ("add", add, False)):
        for i, item in enumerate(items):
            path = f"{name}[{i}]"
            kind, cid, spec = _component(item, path, with_spec=name != "remove")
            if (kind, cid) in named:
                raise PackError(f"{path}.id", "{kind} {id} is already changed by {by}: change it once", kind=kind, id=repr(cid), by=named[(kind, cid)])
            named[(kind, cid)] = path
            there = (kind, cid) in known
            if must_exist and not there:
                raise PackError(f"{path}.id", "{kind} {id} is not in pack {pack}", kind=kind, id=repr(cid), pack=repr(data['id']))
            if not must_exist and there:
                raise PackError(f"{path}.id", "{kind} {id} is already in pack {pack} (replace it instead)", kind=kind, id=repr(cid), pack=repr(data['id']))
            if name == "remove":
                _drop(out, kind, cid)
            else:
                _put(out, kind, cid, spec, path)
    Pack(out)  # the whole new version must validate (a route's ends must be nodes, ...)
    return out


def diff(a: dict, b: dict) -> dict[str, list[dict]]:
    """What turns pack ``a`` into pack ``b``: components added, removed and changed."""
    before, after = _index(a), _index(b)
    return {
        "added": [{"kind": k, "id": i, "spec": s} for (k, i), s in after.items() if (k, i) not in before],
        "removed": [{"kind": k, "id": i, "spec": s} for (k, i), s in before.items() if (k, i) not in after],
        "changed": [
            {"kind": k, "id": i, "before": s, "after": after[(k, i)]}
            for (k, i), s in before.items()
            if (k, i) in after and _canonical(s) != _canonical(after[(k, i)])
        ],
    }


def described(state: Any, ended: bool) -> list[Component]:
    """The components a game's effective history described (its ``state.described``); before
    the game's end, its secret ones (goal cards) are left out."""
    out = []
    for kind, cid, spec in state.described:
        if kind in SECRET_KINDS and not ended:
            continue
        out.append((kind, cid, msgspec.json.decode(spec)))
    return out


def grow(data: dict, new_id: str, found: Iterable[Component]) -> tuple[dict | None, list[dict], list[dict]]:
    """A new version of ``data`` with the described components it lacks: ``(data or None when
    nothing is new, added, conflicts)``. A description that contradicts the pack, or that would
    make the pack invalid (a route to a node it lacks), is left out and listed as a conflict."""
    known = _index(data)
    fresh: dict[tuple[str, str], dict] = {}
    conflicts: list[dict] = []
    for kind, cid, spec in found:
        have = known.get((kind, cid)) or fresh.get((kind, cid))
        if have is None:
            fresh[(kind, cid)] = spec
        elif not agrees(have, spec):
            why = "the pack says otherwise"
            conflicts.append({"kind": kind, "id": cid, "spec": spec, "pack": have, "why": why, "why_template": why, "why_params": {}})
    # nodes first: a described route needs its ends
    ordered = sorted(fresh.items(), key=lambda kv: (kv[0][0] != "node", kv[0][0] == "route"))
    adds = [{"kind": k, "id": i, "spec": s} for (k, i), s in ordered]
    if not adds:
        return None, [], conflicts
    try:
        return derive(data, new_id, add=adds), adds, conflicts
    except PackError:
        pass
    kept: list[dict] = []
    for item in adds:
        try:
            derive(data, new_id, add=[*kept, item])
        except PackError as exc:
            conflicts.append({**item, "why": str(exc), "why_template": exc.template, "why_params": exc.params})
        else:
            kept.append(item)
    if not kept:
        return None, [], conflicts
    return derive(data, new_id, add=kept), kept, conflicts


#: the fields of a pack that are no component and that a merge takes from its first pack as they
#: are (words for people, the page's layout); every other such field is a rules fact
_FREE_FIELDS = ("id", "title", "note", "layout", "invented")


def _rules_facts(data: dict) -> dict:
    """A pack's rules facts: its fields that are no component (books without their free options)."""
    out = {k: v for k, v in data.items() if k not in _FREE_FIELDS and k not in SECTIONS and k not in ("map", *_MAPPED.values())}
    out["books"] = [{k: v for k, v in b.items() if k != "fixed"} for b in data.get("books", [])]
    return out


def merge(a: dict, b: dict, new_id: str, keep: Iterable[Any] = ()) -> dict[str, Any]:
    """Packs ``a`` and ``b`` as one under ``new_id``: every component of either, by kind and id; a
    component both hold with the same spec is taken once; one they hold with different specs is a
    clash, resolved by ``keep`` (``{kind, id, side: "a" | "b"}``). The fields that are no component
    come from ``a`` (``invented`` when either is). Returns ``{"data": the merged pack or None while
    a clash is unresolved, "clashes": [{kind, id, a, b, kept}], "from_a": [...], "from_b": [...],
    "same": n}``. Raises ``PackError`` when the rules facts differ, or a ``keep`` names no clash."""
    if _canonical(_rules_facts(a)) != _canonical(_rules_facts(b)):
        differ = sorted(k for k in set(_rules_facts(a)) | set(_rules_facts(b)) if _canonical(_rules_facts(a).get(k)) != _canonical(_rules_facts(b).get(k)))
        raise PackError("b", "the two packs differ in rules facts ({fields}), not only in components: they are not one game's", fields=", ".join(differ))
    mine, theirs = _index(a), _index(b)
    chosen: dict[tuple[str, str], str] = {}
    for i, item in enumerate(keep):
        path = f"keep[{i}]"
        if not isinstance(item, dict):
            raise PackError(path, "must be an object {{kind, id, spec}}")
        key = (item.get("kind"), item.get("id"))
        side = item.get("side")
        if side not in ("a", "b"):
            raise PackError(f"{path}.side", "must be one of {choices}, not {value}", choices="a, b", value=repr(side))
        if key not in mine or key not in theirs or _canonical(mine[key]) == _canonical(theirs[key]):
            raise PackError(f"{path}.id", "{kind} {id} is no clash of these two packs", kind=key[0], id=repr(key[1]))
        if key in chosen:
            raise PackError(f"{path}.id", "{kind} {id} is chosen twice: choose once", kind=key[0], id=repr(key[1]))
        chosen[key] = side
    out = copy.deepcopy(a)
    out["id"] = new_id
    if b.get("invented"):
        out["invented"] = True
    clashes, from_b, same = [], [], 0
    for (kind, cid), spec in theirs.items():  # nodes first (``components``' order): a route's ends are there
        there = mine.get((kind, cid))
        if there is None:
            _put(out, kind, cid, spec, f"b.{kind}")
            from_b.append({"kind": kind, "id": cid, "spec": spec})
        elif _canonical(there) == _canonical(spec):
            same += 1
        else:
            side = chosen.get((kind, cid))
            clashes.append({"kind": kind, "id": cid, "a": there, "b": spec, "kept": side})
            if side == "b":
                _put(out, kind, cid, spec, f"b.{kind}")
    from_a = [{"kind": k, "id": i, "spec": s} for (k, i), s in mine.items() if (k, i) not in theirs]
    resolved = all(c["kept"] is not None for c in clashes)
    if resolved:
        Pack(out)  # the merged pack must validate as a whole
    return {"data": out if resolved else None, "clashes": clashes, "from_a": from_a, "from_b": from_b, "same": same}
