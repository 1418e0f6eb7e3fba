"""Errors of the HTTP edge and how every error becomes a JSON body ``{code, message, ...}``.

Domain errors carry their own HTTP status (``TabletapeError.status``); the edge adds the ones
only HTTP knows (tokens, malformed requests, unknown routes) and makes sure nothing leaves as
an HTML page or a bare 500.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from api import i18n
from events.errors import TabletapeError
from events.messages import Joined, Phrase, render

log = logging.getLogger("tabletape.api")


class TokenMissing(TabletapeError):
    """No ``Authorization: Bearer <token>`` header where one is needed."""

    code = "token-missing"
    status = 401


class TokenWrong(TabletapeError):
    """A token that does not open this game (or this seat)."""

    code = "token-wrong"
    status = 403


class AdminTokenMissing(TabletapeError):
    """No ``Authorization: Bearer <admin token>`` on a write to the store's pack library."""

    code = "admin-token-missing"
    status = 401


class AdminTokenWrong(TabletapeError):
    """A token that is not the store's admin token."""

    code = "admin-token-wrong"
    status = 403


class NotYetVisible(TabletapeError):
    """Something only the end of the game makes public (the full view, the raw log)."""

    code = "not-yet-visible"
    status = 403


class UnknownShare(TabletapeError):
    """A share link this store never made (or a game's link that is not of that game)."""

    code = "unknown-share"
    status = 404


class ShareWithdrawn(TabletapeError):
    """A share link its owner withdrew."""

    code = "share-withdrawn"
    status = 410


class MalformedRequest(TabletapeError):
    """Parameters that are well-typed but do not fit together or do not fit the game."""

    code = "malformed-request"
    status = 422


#: the longest text parameter a refusal's body repeats in ``params``
PARAM_TEXT_LIMIT = 200

_HTTP_CODES = {404: "not-found", 405: "method-not-allowed", 406: "not-acceptable", 415: "unsupported-media-type"}
#: Starlette's own words for those statuses, which the catalogue's ``edge`` ``msgs/{code}`` replaces
_STARLETTE_DETAIL = {405: "Method Not Allowed", 406: "Not Acceptable", 415: "Unsupported Media Type"}


def _jsonable(value: Any) -> Any:
    """Validation error details may hold arbitrary input (bytes, exceptions); keep them printable."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    return repr(value)


def _validation_errors(exc: RequestValidationError, lang: str = i18n.DEFAULT) -> list[dict[str, Any]]:
    keep = ("loc", "msg", "type")
    return [_jsonable({**{k: e[k] for k in keep if k in e}, "msg": _pydantic_msg(e, lang)}) for e in exc.errors()]


def _pydantic_msg(error: dict[str, Any], lang: str) -> str:
    """Pydantic's ``msg`` for an error, in ``lang`` where the catalogue has its ``type``
    (``edge``: ``pydantic/missing``...), filled from its ``ctx``; pydantic's own words otherwise."""
    msg = str(error.get("msg", "invalid"))
    edge = i18n.catalogue(lang).get("edge", {})
    template = edge.get(f"pydantic/{error.get('type')}")
    if lang == i18n.DEFAULT or template is None:
        return msg
    own = (error.get("ctx") or {}).get("error")
    if error.get("type") == "value_error":  # one of our validators' complaints (api/http/models.py)
        return _value_error(own, template, lang) or msg
    ctx = {k: v if isinstance(v, (int, float)) else str(v) for k, v in (error.get("ctx") or {}).items()}
    try:
        return render(template, ctx)
    except (KeyError, IndexError, ValueError):
        return msg


def refused(exc: TabletapeError, accept_language: str | None = None) -> JSONResponse:
    """A domain or edge error as its status and ``{code, message, params, ...}``, the message in the
    language ``Accept-Language`` asks for; ``rulebook`` holds the rulebook's words it quotes, if any
    (``rule`` is taken: a history edit's refusal names the broken rule's code there)."""
    lang = i18n.negotiate(accept_language)
    # a long text parameter (an engine's error line, a notation's help) is in the message already,
    # and kept out of ``params`` so that a refusal's body stays as small as its message
    # a nested phrase ("for the bonus of Kashgar") is given as its text in the answer's language, as
    # the message reads it: a client shows params, it has no catalogue of phrases to render them
    localised = i18n.localised_params(exc, lang)
    raw = {k: localised[k] if isinstance(v, (Phrase, Joined)) else v for k, v in exc.params.items()}
    params = {
        k: {"code": v.code, "message": i18n.message(v, lang)} if isinstance(v, TabletapeError)
        else {**v.params, "message": i18n.nested_message(v, lang)} if i18n.is_templated(v) else v
        for k, v in raw.items()
        if not (isinstance(v, str) and len(v) > PARAM_TEXT_LIMIT)
    }
    content = {**exc.to_dict(), "message": i18n.message(exc, lang), "params": params}
    quoted = i18n.rule(exc)
    if quoted is not None:
        content["rulebook"] = quoted
    headers = {"Content-Language": lang, "Vary": "Accept-Language"}
    if "retry_after" in exc.details:  # a 503 that knows when to come back
        headers["Retry-After"] = str(exc.details["retry_after"])
    return JSONResponse(status_code=exc.status, content=_jsonable(content), headers=headers)


def _value_error(own: Any, wrapper: str, lang: str) -> str | None:
    """Our validator's templated complaint (its English template found among the ``edge``
    strings ``pydantic/value_error/...``) in ``lang``, in pydantic's "Value error, ..." wrapper."""
    if not i18n.is_templated(own):
        return None
    english = i18n.catalogue(i18n.DEFAULT)["edge"]
    key = next((k for k, v in english.items() if k.startswith("pydantic/value_error/") and v == own.template), None)
    translated = i18n.catalogue(lang)["edge"].get(key) if key else None
    if translated is None:
        return None
    where = ".".join(getattr(own, "path", None) or [])
    try:
        return render(wrapper, {"error": (f"{where}: " if where else "") + render(translated, own.params)})
    except (KeyError, IndexError, ValueError):
        return None


def malformed(exc: RequestValidationError, accept_language: str | None = None) -> JSONResponse:
    """A request that failed validation: 422, naming the first field and why, in the language
    ``Accept-Language`` asks for (each error's ``msg`` too; ``loc`` and ``type`` as pydantic says)."""
    lang = i18n.negotiate(accept_language)
    errors = _validation_errors(exc, lang)
    in_body = any(e.get("loc", [None])[0] == "body" for e in errors)
    code = "malformed-body" if in_body else "malformed-request"
    first = errors[0] if errors else {}
    where = ".".join(str(p) for p in first.get("loc", []))
    message = f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg", "invalid request"))
    headers = {"Content-Language": lang, "Vary": "Accept-Language"}
    return JSONResponse(status_code=422, content={"code": code, "message": message, "errors": errors}, headers=headers)


def install(app: FastAPI) -> None:
    """Register the handlers that give every error the same JSON shape."""

    @app.exception_handler(TabletapeError)
    async def tabletape_error(request: Request, exc: TabletapeError) -> JSONResponse:
        return refused(exc, request.headers.get("accept-language"))

    @app.exception_handler(RequestValidationError)
    async def malformed_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return malformed(exc, request.headers.get("accept-language"))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:  # FastAPI's "error parsing the body": bytes that are not JSON
            lang = i18n.negotiate(request.headers.get("accept-language"))
            message = i18n.text("edge", "malformed-body/not-json", lang, detail=exc.detail)
            return JSONResponse(status_code=422, content={"code": "malformed-body", "message": message, "errors": []})
        code = _HTTP_CODES.get(exc.status_code, f"http-{exc.status_code}")
        message = exc.detail if isinstance(exc.detail, str) else code
        lang = i18n.negotiate(request.headers.get("accept-language"))
        if exc.status_code == 404 and message == "Not Found":
            message = i18n.text("edge", "not-found/no-route", lang, method=request.method, path=request.url.path)
        elif exc.status_code in _HTTP_CODES and message == _STARLETTE_DETAIL.get(exc.status_code):
            message = i18n.text("edge", f"msgs/{code}", lang, method=request.method, path=request.url.path)
        return JSONResponse(
            status_code=exc.status_code, content={"code": code, "message": message}, headers=exc.headers
        )

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        # a bug, not bad input: logged with its traceback, answered without internals
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        try:
            lang = i18n.negotiate(request.headers.get("accept-language"))
            message = i18n.text("edge", "internal-error", lang)
        except Exception:  # noqa: BLE001 - the bug may be in the catalogues: still answer in JSON
            lang, message = i18n.DEFAULT, "internal error"
        return JSONResponse(status_code=500, content={"code": "internal-error", "message": message},
                            headers={"Content-Language": lang, "Vary": "Accept-Language"})
