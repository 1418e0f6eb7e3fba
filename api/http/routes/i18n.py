"""The message catalogues over HTTP: ``GET /i18n/{lang}.json``, the same files the server and the
CLI read, for the page to show its strings and the languages it may offer."""

from __future__ import annotations

import json
from typing import Literal

from fastapi import APIRouter
from fastapi.responses import Response

from api import i18n
from api.http.routes import errors

router = APIRouter(tags=["web"])

_CATALOGUE = {200: {"content": {"application/json": {"schema": {"type": "object"}}}, "description": "one language's catalogue: {lang, name, errors, edge, cli}"}}


@router.get("/i18n/{lang}.json", response_class=Response, responses={**_CATALOGUE, **errors(422)})
def catalogue(lang: Literal["en", "es", "ja"]) -> Response:
    """One language's catalogue: every refusal's message template by its key (its code, or
    ``code/sub-key``), the edge's and the CLI's strings. Placeholders are ``str.format`` fields."""
    body = json.dumps(i18n.catalogue(lang), ensure_ascii=False, separators=(",", ":"))
    return Response(content=body, media_type="application/json", headers={"Cache-Control": "no-cache"})
