"""The OpenAPI schema, completed with the event types of every registered title.

A move's structured form is one of the titles' events; pydantic only knows it as an object, so
the schemas msgspec derives from the event structs are added as components and referenced. The
413 that the edge (``api.http.edge``) answers before any route runs is documented on every operation
that takes a body, with that route's limit.
"""

from __future__ import annotations

from typing import Any

import msgspec
from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, TypeAdapter

from api.http.edge import BODY_LIMITS, route_of
from rules import titles

_REF = "#/components/schemas/{name}"
_PYDANTIC_REF = "#/components/schemas/{model}"
_BODIES_READ_BY_HAND: list[type[BaseModel]] = []


def read_by_hand(body: type[BaseModel], *, security: bool, headers: dict[str, Any]) -> dict[str, Any]:
    """``openapi_extra`` documenting what a route reads from its request itself (see api.http.by_hand)."""
    _BODIES_READ_BY_HAND.append(body)
    extra: dict[str, Any] = {
        "parameters": [
            {"name": name, "in": "header", "required": False, "schema": TypeAdapter(annotation).json_schema()}
            for name, annotation in headers.items()
        ],
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": _PYDANTIC_REF.format(model=body.__name__)}}},
        },
    }
    if security:
        extra["security"] = [{"HTTPBearer": []}]
    return extra


def _hand_read_components() -> dict[str, Any]:
    components: dict[str, Any] = {}
    for model in _BODIES_READ_BY_HAND:
        schema = model.model_json_schema(ref_template=_PYDANTIC_REF)
        components.update(schema.pop("$defs", {}))
        components[model.__name__] = schema
    return components


def _title_events() -> list[type]:
    return [event for title in titles().values() for event in title.event_types]


def _move_schema(refs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "anyOf": [{"oneOf": refs}, {"type": "null"}],
        "description": "the move as an event of the title, tagged by `type`",
    }


def _document_body_limits(paths: dict[str, Any], limits: dict[str, int]) -> None:
    for path, item in paths.items():
        for method, operation in item.items():
            if "requestBody" in operation:
                limit = limits[route_of(method.upper(), path)]
                operation["responses"]["413"] = {
                    "description": f"a body over {limit} bytes (code body-too-large, with its limit)",
                    "content": {"application/json": {"schema": {"$ref": _PYDANTIC_REF.format(model="ErrorOut")}}},
                }


def install(app: FastAPI, body_limits: dict[str, int] | None = None) -> None:
    limits = {**BODY_LIMITS, **(body_limits or {})}

    def schema() -> dict[str, Any]:
        if app.openapi_schema is None:
            spec = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            refs, components = msgspec.json.schema_components(_title_events(), ref_template=_REF)
            schemas = spec.setdefault("components", {}).setdefault("schemas", {})
            for name, schema in _hand_read_components().items():
                schemas.setdefault(name, schema)
            schemas.update(components)
            for name in ("MoveIn", "AmendIn"):
                model = spec["components"]["schemas"].get(name)
                if model is not None:
                    model["properties"]["move"] = _move_schema(list(refs))
            _document_body_limits(spec["paths"], limits)
            app.openapi_schema = spec
        return app.openapi_schema

    app.openapi = schema  # type: ignore[method-assign]
