"""Content packs: a title's library in this store, one pack, upload, a new version, a diff,
delete, merge, import from another store, a pack's share link and its QR code, and the component
forms of the page. Writes need the store's admin token."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, Body, Depends, Header, Query, Request, Response, status
from pydantic import BaseModel, ConfigDict, Field

from api import i18n
from api.http.auth import Credentials, Svc
from api.errors import AdminTokenMissing, AdminTokenWrong
from api.http.routes import errors
from api.http.services import Services
from events.errors import ChartsNotInstalled, UnknownPack
from projections.packs import Entry
from rules import GrowingPacks, get_title

router = APIRouter(tags=["packs"])

_ID = Field(min_length=1, max_length=128)


class PackRef(BaseModel):
    id: str
    hash: str


class PackInfo(BaseModel):
    """What the library knows of a pack (its data is ``GET .../packs/{pack_id}``)."""

    id: str
    hash: str
    name: str
    lineage: str
    version: int
    parent: PackRef | None
    source: Literal["builtin", "upload", "derived", "grown", "import", "merged"]
    created_at: datetime | None
    complete: bool
    components: dict[str, int]
    games: int = Field(description="games pinned to it")
    working: bool
    grown_from: list[str] | None = Field(None, description="a grown version: the games it grew from")
    conflicts: list[dict[str, Any]] | None = Field(
        None, description="a grown version: descriptions left out because they contradict the pack"
    )
    merged_from: list[PackRef] | None = Field(None, description="a merged version: the two packs it merged")


class PackListOut(BaseModel):
    working: PackRef | None
    packs: list[PackInfo]


class PackOut(PackInfo):
    pack: dict[str, Any]


class ComponentIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: str = Field(min_length=1, max_length=32)
    id: str = _ID
    spec: dict[str, Any]


class ComponentRefIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: str = Field(min_length=1, max_length=32)
    id: str = _ID


class VersionIn(BaseModel):
    """A new version of a pack: components added, replaced and removed."""

    model_config = ConfigDict(extra="forbid")

    add: list[ComponentIn] = Field(default_factory=list, max_length=2000)
    replace: list[ComponentIn] = Field(default_factory=list, max_length=2000)
    remove: list[ComponentRefIn] = Field(default_factory=list, max_length=2000)
    name: str | None = Field(None, min_length=1, max_length=200)
    working: bool = True


class ChangedOut(BaseModel):
    kind: str
    id: str
    before: dict[str, Any]
    after: dict[str, Any]


class ComponentOut(BaseModel):
    kind: str
    id: str
    spec: dict[str, Any]


class DiffOut(BaseModel):
    added: list[ComponentOut]
    removed: list[ComponentOut]
    changed: list[ChangedOut]


class KeepIn(BaseModel):
    """Which side of a clash the merged pack keeps."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field(min_length=1, max_length=32)
    id: str = _ID
    side: Literal["a", "b"]


_HASH = Field(None, pattern="^[0-9a-f]{64}$", description="the pack's hash, when its id is ambiguous")


class MergeIn(BaseModel):
    """Two packs of this store (ids, or hashes in their place) merged into a new version of ``a``'s
    lineage; ``keep`` resolves each clash (one id, two contents)."""

    model_config = ConfigDict(extra="forbid")

    a: str = _ID
    b: str = _ID
    a_hash: str | None = _HASH
    b_hash: str | None = _HASH
    keep: list[KeepIn] = Field(default_factory=list, max_length=2000)
    name: str | None = Field(None, min_length=1, max_length=200)
    working: bool = True


class ClashOut(BaseModel):
    kind: str
    id: str
    a: dict[str, Any] = Field(description="the component as pack a has it")
    b: dict[str, Any] = Field(description="the component as pack b has it")
    kept: Literal["a", "b"] | None = Field(description="the side ``keep`` chose, null while unresolved")


class MergePlanOut(BaseModel):
    clashes: list[ClashOut]
    from_a: list[ComponentOut] = Field(description="components only pack a holds")
    from_b: list[ComponentOut] = Field(description="components only pack b holds")
    same: int = Field(description="components both hold alike, taken once")


class ShareOut(BaseModel):
    id: str
    hash: str
    name: str
    file: str = Field(description="the pack file; another store imports it (POST .../packs/import?hash=)")
    link: str = Field(description="the page that offers to add the pack to a store, on any store")
    qr: str = Field(description="the QR code of ``link`` (SVG)")


ADMIN = (
    "writing packs needs the store's admin token (Authorization: Bearer <admin token>): "
    "`tabletape serve` prints it on the store's first start, `tabletape admin-token` makes a new one"
)


def require_admin(svc: Svc, creds: Credentials) -> None:
    """A dependency: the store's admin token, or 401/403 before the body is read."""
    token = creds.credentials if creds is not None else None
    if not token:
        raise AdminTokenMissing(ADMIN)
    if not svc.admin.check(token):
        raise AdminTokenWrong("that is not this store's admin token (`tabletape admin-token` makes a new one)")


Admin = Annotated[None, Depends(require_admin)]


def _utc(moment: datetime | None) -> datetime | None:
    """The store keeps naive UTC; the wire says so."""
    return moment.replace(tzinfo=UTC) if moment is not None and moment.tzinfo is None else moment


def said_conflicts(conflicts: list[dict[str, Any]] | None, lang: str) -> list[dict[str, Any]] | None:
    """A grown version's conflicts, each ``why`` in ``lang`` (from its stored template and
    parameters; a version grown before they were stored keeps its English)."""
    if not conflicts:
        return conflicts
    out = []
    for c in conflicts:
        said = {k: v for k, v in c.items() if k != "why_template"}
        if isinstance(c.get("why_template"), str):
            said["why"] = i18n.templated(c["why_template"], c.get("why_params") or {}, lang, c.get("why"))
        out.append(said)
    return out


def info(svc: Services, entry: Entry, pinned: dict[str, int] | None = None, lang: str = i18n.DEFAULT) -> PackInfo:
    pinned = svc.packs.games_pinned(entry.title) if pinned is None else pinned
    working = svc.packs.working(entry.title)
    return PackInfo(
        id=entry.id,
        hash=entry.hash,
        name=entry.name,
        lineage=entry.lineage,
        version=entry.version,
        parent=PackRef(**entry.parent) if entry.parent else None,
        source=entry.source,  # type: ignore[arg-type]
        created_at=_utc(entry.created_at),
        complete=svc.packs.complete(entry),
        components=svc.packs.components(entry),
        games=pinned.get(entry.hash, 0),
        working=working is not None and working.hash == entry.hash,
        grown_from=entry.info.get("grown_from"),
        conflicts=said_conflicts(entry.info.get("conflicts"), lang),
        merged_from=entry.info.get("merged_from"),
    )


def attachment(pack_id: str) -> str:
    """``Content-Disposition`` naming the file ``<id>.json``: an ASCII name for every client (an id
    may hold slashes, quotes, any letter) and the id itself as RFC 6266's ``filename*``."""
    plain = re.sub(r"[^A-Za-z0-9._-]+", "_", pack_id).strip("._") or "pack"
    if plain == pack_id:
        return f'attachment; filename="{plain}.json"'
    return f"attachment; filename=\"{plain}.json\"; filename*=UTF-8''{quote(pack_id, safe='')}.json"


ConflictsLanguage = Annotated[str | None, Header(description="the language of a grown version's conflicts (en, es, ja)")]
HashQuery = Annotated[str | None, Query(pattern="^[0-9a-f]{64}$", description="the pack's hash, when its id is ambiguous")]


@router.get("/titles/{title}/packs", response_model=PackListOut, responses=errors(404, 422))
def list_packs(title: str, svc: Svc, accept_language: ConflictsLanguage = None) -> PackListOut:
    """A title's packs in this store: the built-in ones, then those uploaded, derived, grown or
    imported; ``working`` is the pack a new game is pinned to when it names none."""
    svc.packs.catch_up()  # a store other workers share: theirs too, even before their notification
    entries = svc.packs.entries(title)
    pinned = svc.packs.games_pinned(title)
    working = svc.packs.working(title)
    return PackListOut(
        working=PackRef(**working.ref) if working else None, packs=[info(svc, e, pinned, i18n.negotiate(accept_language)) for e in entries]
    )


@router.get("/titles/{title}/packs/{pack_id}", response_model=PackOut, responses=errors(404, 409, 422))
def get_pack(
    title: str,
    pack_id: str,
    svc: Svc,
    hash: HashQuery = None,
    download: Annotated[bool, Query(description="the pack file itself, as an attachment")] = False,
    accept_language: ConflictsLanguage = None,
) -> Any:
    """One pack with its data; ``?download=1``: the pack file (upload it into another store: the
    same content has the same hash there)."""
    entry = svc.packs.get(title, pack_id, hash)
    if download:
        body = json.dumps(entry.data, ensure_ascii=False, indent=1, sort_keys=True)
        return Response(body, media_type="application/json", headers={"Content-Disposition": attachment(entry.id), **OPEN})
    out = PackOut(**info(svc, entry, lang=i18n.negotiate(accept_language)).model_dump(), pack=entry.data)
    return Response(out.model_dump_json(), media_type="application/json", headers=OPEN)


#: a pack holds no secret: another store's page may read it (its share link fetches the file)
OPEN = {"Access-Control-Allow-Origin": "*"}


def _refs(title: str, entry: Entry, base: str) -> dict[str, str]:
    """A pack's file, share link and QR code as absolute URLs of this service (by hash: an id may
    be another pack's in the store that opens the link)."""
    base = base.rstrip("/")
    path = f"/titles/{quote(title, safe='')}/packs/{entry.hash}"
    file = f"{base}{path}?download=1"
    link = f"{base}/?page=packs&title={quote(title, safe='')}&import={quote(file, safe='')}&hash={entry.hash}"
    return {"file": file, "link": link, "qr": f"{base}{path}/qr"}


@router.get("/titles/{title}/packs/{pack_id}/share", response_model=ShareOut, responses=errors(404, 409, 422))
def share_pack(title: str, pack_id: str, svc: Svc, request: Request, hash: HashQuery = None) -> ShareOut:
    """A pack's share link (no token: packs hold no secret), the file it leads to and its QR code.
    Opened on any store's page, the link offers to add the pack to that store."""
    entry = svc.packs.get(title, pack_id, hash)
    return ShareOut(id=entry.id, hash=entry.hash, name=entry.name, **_refs(title, entry, str(request.base_url)))


@router.get("/titles/{title}/packs/{pack_id}/qr", responses={200: {"content": {"image/svg+xml": {}}, "description": "the QR code"}, **errors(404, 409, 422, 503)})
def pack_qr(title: str, pack_id: str, svc: Svc, request: Request, hash: HashQuery = None) -> Response:
    """The QR code of a pack's share link, as SVG (a whole pack is too large for one: the code
    carries the link)."""
    entry = svc.packs.get(title, pack_id, hash)
    from replay.table_picture import qr_svg

    try:
        import segno  # noqa: F401  (the charts extra's)
    except ImportError:
        raise ChartsNotInstalled(
            "QR codes need the charts extra: pip install 'tabletape[charts]' (or make serve EXTRAS=charts)", params={}, code="qr-not-installed"
        ) from None
    return Response(qr_svg(_refs(title, entry, str(request.base_url))["link"]), media_type="image/svg+xml")


#: what adding a pack answers besides 201: the pack already there for the same content, or a refusal
ADDED: dict[int | str, dict[str, Any]] = {
    200: {"model": PackInfo, "description": "the same content was already there"}, **errors(401, 403, 404, 409, 422, 503),
}

@router.post(
    "/titles/{title}/packs",
    status_code=status.HTTP_201_CREATED,
    response_model=PackInfo,
    responses=ADDED,
)
def upload_pack(
    title: str,
    svc: Svc,
    response: Response,
    _admin: Admin,
    data: Annotated[dict[str, Any], Body(description="a pack file")],
    working: Annotated[bool, Query(description="make it the title's working pack")] = False,
) -> PackInfo:
    """Add a pack file (admin). The same content again answers 200 with the pack already there;
    the same id with other content is refused (409 ``pack-id-taken``); a bad field is refused
    (422, ``field`` names it)."""
    entry, added = svc.packs.upload(title, data, working=working)
    if not added:
        response.status_code = status.HTTP_200_OK
    return info(svc, entry)


@router.post(
    "/titles/{title}/packs/{pack_id}/versions",
    status_code=status.HTTP_201_CREATED,
    response_model=PackInfo,
    responses=errors(401, 403, 404, 409, 422, 503),
)
def derive_pack(
    title: str, pack_id: str, body: VersionIn, svc: Svc, _admin: Admin, hash: HashQuery = None
) -> PackInfo:
    """A new version of a pack (admin): its lineage, the next version, id ``<lineage>-v<version>``;
    it becomes the working pack unless ``"working": false``."""
    parent = svc.packs.get(title, pack_id, hash)
    entry = svc.packs.derive(
        title, parent, [c.model_dump() for c in body.add], [c.model_dump() for c in body.replace],
        [c.model_dump() for c in body.remove], body.name, body.working,
    )
    return info(svc, entry)


@router.get("/titles/{title}/packs/{a}/diff/{b}", response_model=DiffOut, responses=errors(404, 409, 422))
def diff_packs(title: str, a: str, b: str, svc: Svc, a_hash: HashQuery = None, b_hash: HashQuery = None) -> DiffOut:
    """What turns pack ``a`` into pack ``b`` (ids, or hashes in their place)."""
    first, second = svc.packs.get(title, a, a_hash), svc.packs.get(title, b, b_hash)
    found = get_title(title)
    if not isinstance(found, GrowingPacks):
        raise UnknownPack("{title} has one built-in pack and nothing to compare", params=dict(title=title), code="no-packs")
    return DiffOut(**found.diff_packs(first.data, second.data))


@router.get("/titles/{title}/packs/{a}/merge/{b}", response_model=MergePlanOut, responses=errors(404, 409, 422))
def merge_plan(title: str, a: str, b: str, svc: Svc, a_hash: HashQuery = None, b_hash: HashQuery = None) -> MergePlanOut:
    """What merging pack ``b`` into pack ``a`` would give, nothing written: the clashes (one id,
    two contents) side by side, and what each pack alone brings."""
    first, second = svc.packs.get(title, a, a_hash), svc.packs.get(title, b, b_hash)
    plan = svc.packs.merge_plan(title, first, second)
    return MergePlanOut(**{k: plan[k] for k in ("clashes", "from_a", "from_b", "same")})


@router.post(
    "/titles/{title}/packs/merge",
    status_code=status.HTTP_201_CREATED,
    response_model=PackInfo,
    responses={200: {"model": PackInfo, "description": "the merge holds just what one of the two holds: that pack"},
               **errors(401, 403, 404, 409, 422, 503)},
)
def merge_packs(title: str, body: MergeIn, svc: Svc, response: Response, _admin: Admin) -> PackInfo:
    """Merge two packs (admin) into a new version of ``a``'s lineage; a clash ``keep`` leaves
    unresolved is refused (409 ``pack-merge-clash``, ``clashes`` lists them side by side) and
    nothing is written."""
    first, second = svc.packs.get(title, body.a, body.a_hash), svc.packs.get(title, body.b, body.b_hash)
    entry, added = svc.packs.merge(title, first, second, [k.model_dump() for k in body.keep], body.name, body.working)
    if not added:
        response.status_code = status.HTTP_200_OK
    return info(svc, entry)


@router.post(
    "/titles/{title}/packs/import",
    status_code=status.HTTP_201_CREATED,
    response_model=PackInfo,
    responses=ADDED,
)
def import_pack(
    title: str,
    svc: Svc,
    response: Response,
    _admin: Admin,
    data: Annotated[dict[str, Any], Body(description="a pack file from another store (what its share link leads to)")],
    hash: Annotated[str | None, Query(pattern="^[0-9a-f]{64}$", description="the hash the share link names: checked")] = None,
    working: Annotated[bool, Query(description="make it the title's working pack")] = False,
) -> PackInfo:
    """Add a pack another store passed on (admin); with ``hash``, content that hashes otherwise is
    refused. An id this store has for other content is kept beside it (told apart by hash)."""
    entry, added = svc.packs.import_pack(title, data, hash, working=working)
    if not added:
        response.status_code = status.HTTP_200_OK
    return info(svc, entry)


@router.delete(
    "/titles/{title}/packs/{pack_id}", status_code=status.HTTP_204_NO_CONTENT, responses=errors(401, 403, 404, 409, 422, 503)
)
def delete_pack(title: str, pack_id: str, svc: Svc, _admin: Admin, hash: HashQuery = None) -> Response:
    """Forget a pack (admin): refused (409 ``pack-in-use``) when a game pins it, it is built in or
    it is the working pack."""
    svc.packs.delete(title, svc.packs.get(title, pack_id, hash))
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/titles/{title}/pack-forms", responses=errors(404, 422))
def pack_forms(title: str) -> Any:
    """The form schema the page builds a component's form from (404 ``no-packs`` for a title without)."""
    found = get_title(title)
    forms = found.pack_forms() if isinstance(found, GrowingPacks) else None
    if forms is None:
        raise UnknownPack("{title} has no component forms", params=dict(title=title), code="no-packs")
    return forms
