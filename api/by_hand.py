"""Reading a request by hand, for the one route where FastAPI's parameter solving is too dear.

Validation uses the same pydantic models and types the OpenAPI schema documents, and failures
raise FastAPI's own ``RequestValidationError``, so clients see exactly the errors of every
other route.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, TypeVar

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.security import HTTPAuthorizationCredentials
from pydantic import BaseModel, TypeAdapter, ValidationError

M = TypeVar("M", bound=BaseModel)


def _located(exc: ValidationError, *where: str | int) -> RequestValidationError:
    return RequestValidationError([{**e, "loc": (*where, *e["loc"])} for e in exc.errors(include_url=False)])


def validated_body(model: type[M], raw: bytes) -> M:
    """The JSON body as ``model``; a 422 ``malformed-body`` like any other route's."""
    try:
        return model.model_validate_json(raw)
    except ValidationError as exc:
        raise _located(exc, "body") from None


@lru_cache(maxsize=None)
def _adapter(annotation: Any) -> TypeAdapter:
    return TypeAdapter(annotation)


def validated_header(request: Request, name: str, annotation: Any) -> Any:
    """An optional header validated as ``annotation`` (None when absent)."""
    value = request.headers.get(name)
    if value is None:
        return None
    try:
        return _adapter(annotation).validate_python(value)
    except ValidationError as exc:
        raise _located(exc, "header", name) from None


def bearer_token(request: Request) -> HTTPAuthorizationCredentials | None:
    """``Authorization: Bearer <token>`` as FastAPI's HTTPBearer(auto_error=False) reads it."""
    authorization = request.headers.get("authorization")
    if not authorization:
        return None
    scheme, _, credentials = authorization.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return HTTPAuthorizationCredentials(scheme=scheme, credentials=credentials)
